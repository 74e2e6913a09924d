/* HDF5 logs: one file holding tables of doubles (a history, element records), streamed and written atomically.
 * Each table is a 1-D extendible dataset of a compound type with one float64 field per column (h5py reads it as a
 * structured array, f["/records/spring1"]["q"]; MATLAB's h5read as a struct of column vectors), chunked, shuffled
 * and deflate-compressed, with the attributes "units" (one string per column), "columns" and "description".
 * Rows are buffered one chunk at a time: memory does not grow with the length of the run. The file is written
 * beside the target and renamed onto it by hy_h5log_commit (as hyst/util.h's hy_atomic); an aborted log leaves
 * any earlier file untouched. docs/formats.md describes the layout. */
#ifndef HYST_H5LOG_H
#define HYST_H5LOG_H

#include <stddef.h>
#include "hyst/common.h"
#include "hyst/series.h"
#include "hyst/csvread.h"

typedef struct hy_h5log hy_h5log;
typedef struct hy_h5table hy_h5table;

#define HY_H5_MAX_COLS 128

/* (path of a regular file, protect: an input never written over (may be NULL)) => *lg, an empty log written to a
 * temporary file. Standard output, a pipe or a device are refused (HDF5 seeks). */
int hy_h5log_open(hy_h5log **lg, const char *path, const char *protect, hy_err *err);

/* (log, dataset path such as "/records/spring1" (groups are created), ncol columns: names, units, description)
 * => *t, an empty table owned by the log */
int hy_h5log_table(hy_h5log *lg, const char *dpath, int ncol, const char *const *names, const char *const *units,
                   const char *description, hy_h5table **t, hy_err *err);

// (table, row[ncol]) => row appended (buffered: written one chunk at a time)
int hy_h5log_append(hy_h5table *t, const double *row, hy_err *err);

/* (log, deflate level 0..9) => the compression of the tables made after it, with the shuffle filter. 1 (default):
 * each byte plane of a chunk that deflate can shrink goes through zlib's level 1, the noise planes (low mantissa
 * bytes) are stored as they are; 2..9: the whole chunk at that level (libdeflate); 0: chunked but not compressed
 * (~5x less CPU than 1 on float64 data, files ~1.4x larger). Every level is read by the standard deflate filter */
void hy_h5log_set_deflate(hy_h5log *lg, int level);

/* (log, on) => level 1 by byte planes for the tables made after it (on, the default), or libdeflate's level 1 over
 * every byte of the chunk (off: the former level 1, ~2.5x the CPU for a file ~3 % smaller; the reference of
 * bench_fmt and of the tests). Any other level ignores it */
void hy_h5log_set_planes(hy_h5log *lg, int on);

// (table) => rows appended so far
size_t hy_h5log_rows(const hy_h5table *t);

// (log, object path ("/" or a table's), attribute name, value) => a string / float64 attribute (replaced if set)
int hy_h5log_attr_string(hy_h5log *lg, const char *obj, const char *name, const char *value, hy_err *err);
int hy_h5log_attr_double(hy_h5log *lg, const char *obj, const char *name, double v, hy_err *err);

struct cJSON;
/* (log, object path, a JSON object such as a summary) => the attribute "summary" holding its text (exact numbers,
 * hy_json_print) and one scalar attribute per number (float64), true/false (1/0) and string at its top level;
 * the numbers of doc become raw exact text in place (as hy_json_print does) */
int hy_h5log_attr_json(hy_h5log *lg, const char *obj, struct cJSON *doc, hy_err *err);

// (log) => every table flushed, the file closed, synced and renamed onto its path; lg freed (also on error)
int hy_h5log_commit(hy_h5log *lg, hy_err *err);

// (log or NULL) => closed, temporary file removed, target untouched; lg freed
void hy_h5log_abort(hy_h5log *lg);

/* (HDF5 file, dataset path, column options (x_col, y_col, t_col by field name or 1-based index, scales,
 * require_time_increasing, no_force; the CSV-only ones are ignored)) => the series of that table, as hy_csv_read
 * gives it for the same table written as CSV: q, Q (and t) with names and units. Reads a compound dataset of
 * numeric fields (as hy_h5log writes) or a 2-D numeric dataset (columns by index). Errors name "FILE:DSET".
 * libhdf5 runs in a forked child process (a damaged file can crash it or make it loop): the declared rows are
 * checked against the bytes the file holds before any is read, a crash of libhdf5 becomes an error, and the
 * child is stopped after 10 s without progress (docs/formats.md "Reading HDF5 tables"). */
int hy_h5_read_series(const char *file, const char *dpath, const hy_csv_opts *o, hy_series *out, hy_err *err);

/* A whole table of an HDF5 file: every column as double, row-major (hy_h5_read_table). */
typedef struct hy_h5_table {
    int ncol;
    size_t nrow;
    char name[HY_H5_MAX_COLS][64];   /* printable, as hy_h5_read_series gives a column's name */
    char unit[HY_H5_MAX_COLS][32];
    double *v;                       /* nrow x ncol (NaN and infinities as stored: the caller checks) */
    char source[600];                /* "FILE:DSET" */
} hy_h5_table;

/* (HDF5 file, dataset path) => every column of that table (the layouts hy_h5_read_series reads), through the same
 * child process with the same checks and limits (the rows declared against the bytes the file holds, libhdf5's
 * crash or stall an error naming what it was doing); memory grows with the rows actually read. Errors name
 * "FILE:DSET" */
int hy_h5_read_table(const char *file, const char *dpath, hy_h5_table *out, hy_err *err);
void hy_h5_table_free(hy_h5_table *t);

/* (HDF5 file, object path ("/" or a table's), attribute name) => *text (malloc'd, NUL-terminated; *len its length,
 * len may be NULL): a scalar string attribute (as hy_h5log_attr_string and hy_h5log_attr_json's "summary" write),
 * of at most 4 MiB, read in the child process as the tables are */
int hy_h5_read_attr_text(const char *file, const char *obj, const char *name, char **text, size_t *len, hy_err *err);

/* (a CSV-style path argument) => 1 when it has the form FILE:/DSET with FILE not itself an existing file of that
 * whole name, and file[flen] / *dset set; else 0 */
int hy_h5_split_path(const char *arg, char *file, size_t flen, const char **dset);

#endif

/* Private to the HDF5 table reader (h5read.c, h5read_table.c): libhdf5 runs in a child process that streams what
 * it read to the caller through a pipe (docs/formats.md "Reading HDF5 tables": why a process, and the limits).
 * Messages: one type byte, a uint32 payload length, the payload. */
#ifndef HYST_H5READ_INTERNAL_H
#define HYST_H5READ_INTERNAL_H

#include <stdint.h>
#include "hyst/csvread.h"
#include "csvread_internal.h"
#include "hyst/h5log.h"

enum {
    HY_H5R_STAGE = 'S', /* text: what the child asks libhdf5 next (named if libhdf5 crashes or hangs there)  */
    HY_H5R_HEAD = 'H',  /* hy_h5r_head: the columns chosen, the rows declared                                  */
    HY_H5R_ROWS = 'D',  /* k rows of (t, q, Q) as doubles (t and Q 0 when unused), in file order                */
    HY_H5R_END = 'E',   /* int32 status, then the message (empty on success)                                   */
    HY_H5R_COLS = 'C',  /* hy_h5r_cols: every column of the table (hy_h5_read_table), the rows declared          */
    HY_H5R_ALL = 'A',   /* k rows of every column as doubles, in file order (hy_h5_read_table)                   */
    HY_H5R_TEXT = 'T'   /* a string attribute's text (hy_h5_read_attr_text), at most HY_H5R_MAX_TEXT bytes       */
};

/* what the child reads: the chosen columns of a table (a series), all of them, or a string attribute */
typedef enum { HY_H5R_SERIES, HY_H5R_TABLE, HY_H5R_ATTR } hy_h5r_kind;

typedef struct hy_h5r_cols {
    int32_t ncol;
    uint64_t rows;                        /* rows declared (already checked against what the file can hold) */
    char names[HY_H5_MAX_COLS][64];       /* printable (hy_msg_text), as the series' names                   */
    char units[HY_H5_MAX_COLS][32];
} hy_h5r_cols;

/* a string attribute read whole: at most this many bytes (mech dock's summary of a 400 s run is ~10 KB) */
#define HY_H5R_MAX_TEXT (4 << 20)

typedef struct hy_h5r_head {
    int32_t col[3];       /* x, y, t: 0-based column, -1 when unused                         */
    uint64_t rows;        /* rows declared (already checked against what the file can hold)   */
    char names[3][64];    /* printable (hy_msg_text), as the series holds them                */
    char units[3][32];
} hy_h5r_head;

/* rows per HY_H5R_ROWS message and per libhdf5 read (the child's buffer: at most 8192 x 128 x 8 B = 8 MiB) */
#define HY_H5R_CHUNK_ROWS 8192

/* a compressed table never holds more than this many bytes per stored byte (deflate's maximum ratio is 1032:1,
 * RFC 1951: a 258-byte match per 2 bits at best) */
#define HY_H5R_MAX_RATIO 1032

/* a chunk of at most this many bytes (libhdf5 allocates a whole chunk to read it; HDF5 allows 4 GiB, mech's logs
 * write 192 KiB, h5py's automatic chunks stay under 1 MiB) */
#define HY_H5R_MAX_CHUNK (64 << 20)

/* the child's data segment may grow by this much beyond what it inherits (RLIMIT_DATA; not in sanitizer builds,
 * whose shadow memory counts): a damaged file cannot make libhdf5 take the machine's memory */
#define HY_H5R_MAX_HEAP ((size_t)1 << 30)

/* the child is stopped when it sends nothing for this long (ms); the fuzz harness sets it shorter */
HY_CSV_HIDDEN extern int hy_h5_stall_ms;

/* (file, what: a table's chosen columns (series, by o), all its columns (table), or the string attribute `attr`
 * of the object dpath (attr), pipe's write end) => the messages above written to fd; never returns (_exit: the
 * child shares the caller's stdio buffers and atexit handlers, which must not run twice) */
HY_CSV_HIDDEN _Noreturn void hy_h5r_child(const char *file, hy_h5r_kind kind, const char *dpath, const char *attr,
                                          const hy_csv_opts *o, int fd);

#endif

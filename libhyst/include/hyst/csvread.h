/* Reading bench-test CSV files the way engineers have them (libcsv, streaming).
 * Handles: header detection, an optional units row, columns by name or 1-based index, comma/semicolon/tab
 * separators (detected), quoted fields, CRLF, a UTF-8 BOM, '#' comment lines, scale factors and "-" for stdin.
 * Errors name file, line and column and what was expected. */
#ifndef HYST_CSVREAD_H
#define HYST_CSVREAD_H

#include "hyst/common.h"
#include "hyst/series.h"

/* The rows before the data (header, units row, or the first data row, which are kept whole to decide) may be at
 * most this long (bytes, line ends included); a longer one is refused. Data rows are streamed cell by cell. */
#define HY_CSV_MAX_HEADER_BYTES ((size_t)1 << 20)

/* The largest magnitude of q and Q (after the scale factors) the reader accepts. Loop energies (sums of Q dq),
 * noise estimates and slopes multiply two values, the least-squares fits up to four (the piecewise-linear fit
 * fails between 1e70 and 1e75): up to 1e60 every command stays finite on records of any length (tests/e2e/
 * test_bad_input.sh); a larger value is refused with its line and column. */
#define HY_CSV_MAX_ABS 1e60

typedef struct hy_csv_opts {
    const char *x_col;     /* displacement column: name or 1-based index; NULL = detect by name, else 1   */
    const char *y_col;     /* force column: name or 1-based index; NULL = detect by name, else 2          */
    const char *t_col;     /* time column: name or index; NULL = no time column                           */
    double      x_scale;   /* multiplies q (default 1)                                                    */
    double      y_scale;   /* multiplies Q (default 1)                                                    */
    int         skip_bad_rows; /* 1: a bad row is dropped with a counted warning instead of an error      */
    char        delimiter; /* 0 = detect among ',', ';', '\t'                                             */
    int         header;    /* -1 detect, 0 none, 1 present                                                */
    int         units_row; /* -1 detect, 0 none, 1 present                                                */
    int         require_time_increasing; /* 1 (default when t_col is set): time must not go backwards     */
    int         no_force;  /* 1: a displacement history only; no force column is chosen unless y_col names one,
                              and Q is left 0 (hyst sim --drive)                                              */
    void      (*warn)(void *ctx, const char *msg);  /* warnings (skipped rows...); NULL = silent          */
    void       *warn_ctx;
} hy_csv_opts;

// (o) => defaults: detect everything, scales 1, no time column
void hy_csv_opts_default(hy_csv_opts *o);

// (path or "-", options) => series with q, Q (and t); on error nothing is kept in out
int hy_csv_read(const char *path, const hy_csv_opts *o, hy_series *out, hy_err *err);

/* Outcome of hy_csv_number. */
enum hy_csv_num {
    HY_CSV_NUM_OK = 0,    /* a finite number                                                              */
    HY_CSV_NUM_EMPTY,     /* nothing but spaces                                                           */
    HY_CSV_NUM_SYNTAX,    /* not a decimal number                                                         */
    HY_CSV_NUM_NONFINITE  /* nan, inf, infinity, or a decimal number that overflows                       */
};

// (text[len] with optional surrounding spaces, whether ',' may be the decimal mark) => *out, the correctly
// rounded double (bit-identical to strtod in the C locale); returns enum hy_csv_num. Accepts
// [+-]digits[.digits][(e|E)[+-]digits] only: no hexadecimal, no thousands separators.
int hy_csv_number(const char *s, size_t len, int decimal_comma, double *out);

#endif

/* The run viewer's parts (issue 48, docs/view.md): the tables it reads, the decimation that keeps every contact
 * onset and peak, and the self-contained page it writes (the page's script and style are compiled in from
 * tools/mech/view/). cmd_view.c chooses the kind of run and fills the page. */
#ifndef MECH_VIEW_H
#define MECH_VIEW_H

#include <stdio.h>
#include <stddef.h>
#include "hyst/common.h"

/* A CSV table as `mech dock`, `mech beam sim` and `mech sweep` write them: a header row of names, an optional
 * units row, then rows of cells. Numbers are parsed on demand; every error names FILE:LINE:COLUMN. */
typedef struct view_table {
    char   *text;          /* the file, cells cut in place (NUL-terminated)                              */
    char   *path;          /* for messages                                                               */
    int     ncol;
    char  **name, **unit;  /* ncol each (unit "" when there is no units row)                             */
    size_t  nrow;
    char  **cell;          /* nrow x ncol, row-major                                                     */
    int    *line;          /* file line of each row (1-based)                                            */
} view_table;
// (path, whether a units row follows the header) => table; HY_EDATA "FILE:LINE:COL: ..." on a ragged row
int view_table_read(const char *path, int units_row, view_table *t, hy_err *err);
void view_table_free(view_table *t);
// (table, name) => column index or -1
int view_table_col(const view_table *t, const char *name);
/* (table) => every cell as a double, row-major (malloc'd); "nan" and empty cells become NaN when allow_nan, else an
 * error FILE:LINE:COL naming the column; "NaN" text is what hy_fmt_exact writes for a missing point */
int view_table_numbers(const view_table *t, int allow_nan, double **out, hy_err *err);
// (table, row, column) => the 1-based column number of a cell in its line (for messages)
int view_table_colno(const view_table *t, size_t row, int col);

/* What the decimation left out when the events passed the budget (docs/view.md §3): the force episodes it ranked
 * by their peak |value| and did not keep, the largest of their peaks and how many per force column (in the order
 * of the `forces` given). dropped = 0: every episode kept. */
typedef struct view_ranked {
    size_t episodes;      /* force episodes in the history */
    size_t dropped;       /* of them left out */
    double peak;          /* the largest |peak| of a left-out episode: every episode above it is kept */
    size_t by_force[64];  /* left out per force column */
} view_ranked;

/* Decimation (docs/view.md §3): keep at most about `budget` rows of an n-row history v[n][ncol] (column 0 = t),
 * but always the first and last row, every row where a flag column changes (and the row before it, so an onset
 * shows its last quiet state), and within every episode of a force column (a run of rows where it is non-zero)
 * its first row and the row before, the row of its largest magnitude, its last row and the row after; the rest of
 * the budget goes to the rows nearest a uniform time grid. When these rows pass the budget the episodes are
 * ranked by their peak |value| and kept, largest first, while the rows stay within four fifths of the budget (the
 * last fifth goes to the time grid); the others are counted in *ranked (which may be NULL). The flag and force
 * columns are given by index (at most 64 forces). keep[n] = 1 for kept rows; returns their count. */
size_t view_decimate(const double *v, size_t n, int ncol, const int *flags, int nflag, const int *forces,
                     int nforce, size_t budget, unsigned char *keep, view_ranked *ranked);

/* The page: one HTML file, everything inline (no server, no network). A page is written as
 *   view_page_begin(fp, title, kind)  -> "<script type=application/json id=run-data>{"
 *   the caller's members with view_json_* ...
 *   view_page_end(fp)                  -> "}</script>", the script, "</html>" */
void view_page_begin(FILE *fp, const char *title, const char *kind);
void view_page_end(FILE *fp);
// (fp, text) => a JSON string of it, with '<' written as \u003c so that no "</script>" can close the block
void view_json_str(FILE *fp, const char *s);
// (fp, v, significant digits) => a JSON number (null for a NaN or infinity)
void view_json_num(FILE *fp, double v, int digits);
/* (fp, table values v[n][ncol], column, kept rows, digits) => [v0,v1,...] of that column at the kept rows */
void view_json_column(FILE *fp, const double *v, size_t n, int ncol, int col, const unsigned char *keep, int digits);
/* (fp, values, rows, ncol, column, kept rows, significant digits) => the kept rows of one column as a JSON array in
 * which a run of 3 or more equal values (equal as written: at the stated digits) is one [value, count] (a flat
 * channel, a contact force at rest, a fixed point of the geometry take a few bytes; docs/view.md §3). The page
 * expands it (viewer.js, unrun) to the plain array view_json_column would have written. */
void view_json_runs(FILE *fp, const double *v, size_t n, int ncol, int col, const unsigned char *keep, int digits);

#endif

// The data-reading options every hyst command that reads a bench record shares (see cli.h, docs/commands.md).
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "hyst/h5log.h"
#include "cli.h"

#define MAX_SHOWN_WARNINGS 10

const char hy_cli_data_help[] =
    "Reading the record (CSV; see docs/data-input.md):\n"
    "  --x COL            displacement column: 1-based index or header name (default: detected from the\n"
    "                     header names, else column 1)\n"
    "  --y COL            force column: index or name (default: detected, else column 2)\n"
    "  --t COL            time column: index or name (default: none); time must not go backwards\n"
    "  --x-scale F        multiply the displacement by F (finite, non-zero; default 1)\n"
    "  --y-scale F        multiply the force by F (finite, non-zero; default 1)\n"
    "  --delimiter C      separator: ',' ';' or 'tab' (default: detected; with ';' or tab a decimal\n"
    "                     comma is accepted: 1,5;2,3)\n"
    "  --no-header        the first row is data, not column names (default: detected)\n"
    "  --units-row        the row after the header holds units such as kN,mm (default: detected)\n"
    "  --no-units-row     there is no units row\n"
    "  --skip-bad-rows    drop rows with a bad cell with a warning instead of failing\n"
    "FILE may be '-' for standard input. Lines starting with '#' and blank lines are ignored.\n"
    "FILE.h5:/DATASET reads a table of an HDF5 file (mech dock / beam sim --format h5: /records/ELEMENT).\n";

// (getopt value, argument) => options updated; 1 consumed, 0 not a data option, -1 bad value (message printed)
int hy_cli_data_option(const char *cmd, int opt, const char *arg, hy_csv_opts *o)
{
    switch (opt) {
    case HY_OPT_X:
    case HY_OPT_Y:
    case HY_OPT_T: {
        const char *name = opt == HY_OPT_X ? "x" : opt == HY_OPT_Y ? "y" : "t";
        const char *p = arg;
        while (*p == ' ')
            p++;
        if (!*p) {
            hy_cli_usage(cmd, "--%s: expected a column name or a 1-based index, got an empty value", name);
            return -1;
        }
        if (strspn(p, "0123456789 ") == strlen(p) && strspn(p, "0 ") == strlen(p)) {
            hy_cli_usage(cmd, "--%s: expected a 1-based column index, got '%s' (columns are numbered from 1)", name,
                         arg);
            return -1;
        }
        if (opt == HY_OPT_X)
            o->x_col = arg;
        else if (opt == HY_OPT_Y)
            o->y_col = arg;
        else
            o->t_col = arg;
        return 1;
    }
    case HY_OPT_X_SCALE:
    case HY_OPT_Y_SCALE: {
        const char *name = opt == HY_OPT_X_SCALE ? "x-scale" : "y-scale";
        double v;
        if (hy_cli_double(cmd, name, arg, &v) != 0)
            return -1;
        if (v == 0.0) {
            hy_cli_usage(cmd, "--%s: expected a finite non-zero factor, got '%s'", name, arg);
            return -1;
        }
        if (opt == HY_OPT_X_SCALE)
            o->x_scale = v;
        else
            o->y_scale = v;
        return 1;
    }
    case HY_OPT_SKIP_BAD_ROWS:
        o->skip_bad_rows = 1;
        return 1;
    case HY_OPT_DELIMITER:
        if (strcmp(arg, ",") == 0 || strcmp(arg, "comma") == 0)
            o->delimiter = ',';
        else if (strcmp(arg, ";") == 0 || strcmp(arg, "semicolon") == 0)
            o->delimiter = ';';
        else if (strcmp(arg, "tab") == 0 || strcmp(arg, "\\t") == 0 || strcmp(arg, "\t") == 0)
            o->delimiter = '\t';
        else {
            hy_cli_usage(cmd, "--delimiter: expected ',', ';' or 'tab', got '%s'", arg);
            return -1;
        }
        return 1;
    case HY_OPT_NO_HEADER:
        o->header = 0;
        return 1;
    case HY_OPT_UNITS_ROW:
        o->units_row = 1;
        return 1;
    case HY_OPT_NO_UNITS_ROW:
        o->units_row = 0;
        return 1;
    default:
        return 0;
    }
}

typedef struct warn_ctx {
    const char *cmd;
    size_t count;
} warn_ctx;

static void print_warning(void *ctx, const char *msg)
{
    warn_ctx *w = ctx;
    if (++w->count <= MAX_SHOWN_WARNINGS)
        hy_cli_warn(w->cmd, "%s", msg);
}

// (path or "-", options) => series read; warnings and errors printed as "hyst CMD: ..."; 0 or HY_EXIT_FAIL
int hy_cli_read_series(const char *cmd, const char *path, hy_csv_opts *o, hy_series *s)
{
    warn_ctx w = {cmd, 0};
    void (*saved_warn)(void *, const char *) = o->warn;
    void *saved_ctx = o->warn_ctx;
    o->warn = print_warning;
    o->warn_ctx = &w;
    hy_err err;
    char h5file[4096];
    const char *dset;
    /* FILE.h5:/records/spring1: a table of an HDF5 log (docs/formats.md) */
    int rc = hy_h5_split_path(path, h5file, sizeof h5file, &dset) ? hy_h5_read_series(h5file, dset, o, s, &err)
                                                                   : hy_csv_read(path, o, s, &err);
    o->warn = saved_warn;
    o->warn_ctx = saved_ctx;
    if (w.count > MAX_SHOWN_WARNINGS)
        hy_cli_warn(cmd, "%zu more warnings not shown", w.count - MAX_SHOWN_WARNINGS);
    if (rc != HY_OK)
        return hy_cli_fail(cmd, "%s", err.msg);
    if (s->skipped_rows)
        hy_cli_warn(cmd, "%s: skipped %zu bad row%s, kept %zu", s->source, s->skipped_rows,
                    s->skipped_rows == 1 ? "" : "s", s->n);
    return HY_EXIT_OK;
}

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

/* the words of the data and loop options parsed while a recorder is set (hy_cli_opts_record, `hyst fit all`) */
static struct {
    char **words;
    int   *n, room;
} rec;

void hy_cli_opts_record(char **words, int *n, int room)
{
    rec.words = words, rec.n = n, rec.room = room;
}

// (option, its value or NULL) => "--NAME" [VALUE] appended to the recorder when one is set
void hy_cli_opt_note(const hy_args *st, const char *v)
{
    static char names[64][40];
    static int nn;
    if (!rec.words || *rec.n + 2 > rec.room || nn >= 64)
        return;
    snprintf(names[nn], sizeof names[0], "--%s", st->arg->name);
    rec.words[(*rec.n)++] = names[nn++];
    if (v)
        rec.words[(*rec.n)++] = (char *)v;
}

// --x, --y, --t COL: a column name or a 1-based index
int hy_cli_opt_col(void *dst, const char *v, hy_args *st, hy_err *err)
{
    hy_csv_opts *o = dst;
    const char *name = st->arg->name, *p = v;
    while (*p == ' ')
        p++;
    if (!*p)
        return hy_err_set(err, HY_EARG, "--%s: expected a column name or a 1-based index, got an empty value", name);
    if (strspn(p, "0123456789 ") == strlen(p) && strspn(p, "0 ") == strlen(p))
        return hy_err_set(err, HY_EARG, "--%s: expected a 1-based column index, got '%s' (columns are numbered from "
                          "1)", name, v);
    *(name[0] == 'x' ? &o->x_col : name[0] == 'y' ? &o->y_col : &o->t_col) = v;
    hy_cli_opt_note(st, v);
    return HY_OK;
}

// --x-scale, --y-scale F: a finite non-zero factor
int hy_cli_opt_scale(void *dst, const char *v, hy_args *st, hy_err *err)
{
    hy_csv_opts *o = dst;
    const char *name = st->arg->name;
    double f;
    if (hy_args_double(name, v, &f, err) != HY_OK)
        return HY_EARG;
    if (f == 0.0)
        return hy_err_set(err, HY_EARG, "--%s: expected a finite non-zero factor, got '%s'", name, v);
    *(name[0] == 'x' ? &o->x_scale : &o->y_scale) = f;
    hy_cli_opt_note(st, v);
    return HY_OK;
}

// --delimiter C: ',', ';' or tab
int hy_cli_opt_delim(void *dst, const char *v, hy_args *st, hy_err *err)
{
    hy_csv_opts *o = dst;
    if (strcmp(v, ",") == 0 || strcmp(v, "comma") == 0)
        o->delimiter = ',';
    else if (strcmp(v, ";") == 0 || strcmp(v, "semicolon") == 0)
        o->delimiter = ';';
    else if (strcmp(v, "tab") == 0 || strcmp(v, "\\t") == 0 || strcmp(v, "\t") == 0)
        o->delimiter = '\t';
    else
        return hy_err_set(err, HY_EARG, "--delimiter: expected ',', ';' or 'tab', got '%s'", v);
    hy_cli_opt_note(st, v);
    return HY_OK;
}

// --skip-bad-rows, --no-header, --units-row, --no-units-row
int hy_cli_opt_flag(void *dst, const char *v, hy_args *st, hy_err *err)
{
    (void)v, (void)err;
    hy_csv_opts *o = dst;
    const char *name = st->arg->name;
    if (strcmp(name, "skip-bad-rows") == 0)
        o->skip_bad_rows = 1;
    else if (strcmp(name, "no-header") == 0)
        o->header = 0;
    else
        o->units_row = strcmp(name, "units-row") == 0;
    hy_cli_opt_note(st, NULL);
    return HY_OK;
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

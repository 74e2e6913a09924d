/* Records of a comparison (issue 45, docs/compare.md §1): a time column and named channels with units, read from a
 * CSV file or an HDF5 table through libhyst's readers (hy_csv_read, hy_h5_read_series: the same detection, limits
 * and FILE:LINE:COLUMN messages as every hyst command), or filled in memory by a simulator in the loop. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "hyst/csvread.h"
#include "hyst/h5log.h"
#include "hyst/series.h"
#include "mech/compare.h"

// (r, source) => an empty record
void mech_compare_rec_init(mech_compare_rec *r, const char *source)
{
    memset(r, 0, sizeof *r);
    snprintf(r->source, sizeof r->source, "%s", source ? source : "");
    r->bad_ch = -1;
}

void mech_compare_rec_free(mech_compare_rec *r)
{
    free(r->t);
    for (int k = 0; k < r->nch; k++)
        free(r->v[k]);
    free(r->line);
    char src[sizeof r->source];
    memcpy(src, r->source, sizeof src);
    mech_compare_rec_init(r, src);
}

int mech_compare_rec_find(const mech_compare_rec *r, const char *name)
{
    for (int k = 0; k < r->nch; k++)
        if (strcmp(r->name[k], name) == 0)
            return k;
    return -1;
}

// (r without samples, name, unit) => a channel added
int mech_compare_rec_add(mech_compare_rec *r, const char *name, const char *unit, int *idx, hy_err *err)
{
    if (r->n > 0)
        return hy_err_set(err, HY_EARG, "%s: channel '%.60s' added after the first sample", r->source, name);
    if (r->nch >= MECH_COMPARE_MAX_CH)
        return hy_err_set(err, HY_EARG, "%s: more than %d channels", r->source, MECH_COMPARE_MAX_CH);
    if (!name || !name[0] || strlen(name) >= MECH_COMPARE_NAME || strlen(unit ? unit : "") >= MECH_COMPARE_UNIT)
        return hy_err_set(err, HY_EARG, "%s: a channel name of 1 to %d bytes and a unit of at most %d expected",
                          r->source, MECH_COMPARE_NAME - 1, MECH_COMPARE_UNIT - 1);
    if (mech_compare_rec_find(r, name) >= 0)
        return hy_err_set(err, HY_EARG, "%s: channel '%s' twice", r->source, name);
    int k = r->nch++;
    snprintf(r->name[k], sizeof r->name[k], "%s", name);
    snprintf(r->unit[k], sizeof r->unit[k], "%s", unit ? unit : "");
    r->v[k] = NULL;
    if (idx)
        *idx = k;
    return HY_OK;
}

static int grow(mech_compare_rec *r, size_t need, int with_lines, hy_err *err)
{
    if (need <= r->cap)
        return HY_OK;
    size_t cap = r->cap ? r->cap : 256;
    while (cap < need)
        cap *= 2;
    double *t = realloc(r->t, cap * sizeof *t);
    if (!t)
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", r->source);
    r->t = t;
    for (int k = 0; k < r->nch; k++) {
        double *v = realloc(r->v[k], cap * sizeof *v);
        if (!v)
            return hy_err_set(err, HY_ENOMEM, "%s: out of memory", r->source);
        r->v[k] = v;
    }
    if (with_lines) {
        size_t *l = realloc(r->line, cap * sizeof *l);
        if (!l)
            return hy_err_set(err, HY_ENOMEM, "%s: out of memory", r->source);
        r->line = l;
    }
    r->cap = cap;
    return HY_OK;
}

// (r, t, vals[nch]) => a sample appended
int mech_compare_rec_push(mech_compare_rec *r, double t, const double *vals, hy_err *err)
{
    if (!isfinite(t) || (r->n > 0 && !(t > r->t[r->n - 1])))
        return hy_err_set(err, HY_EDATA, "%s: sample %zu: time %.10g after %.10g, expected strictly increasing time",
                          r->source, r->n + 1, t, r->n ? r->t[r->n - 1] : NAN);
    for (int k = 0; k < r->nch; k++)
        if (!isfinite(vals[k]))
            return hy_err_set(err, HY_EDATA, "%s: sample %zu: channel '%s' is %g, expected a finite number", r->source,
                              r->n + 1, r->name[k], vals[k]);
    int rc = grow(r, r->n + 1, 0, err);
    if (rc != HY_OK)
        return rc;
    r->t[r->n] = t;
    for (int k = 0; k < r->nch; k++)
        r->v[k][r->n] = vals[k];
    r->n++;
    return HY_OK;
}

// (table, opts) => one series through the CSV or the HDF5 reader
static int read_series(const char *table, const hy_csv_opts *o, hy_series *s, hy_err *err)
{
    char file[4096];
    const char *dset;
    if (hy_h5_split_path(table, file, sizeof file, &dset))
        return hy_h5_read_series(file, dset, o, s, err);
    return hy_csv_read(table, o, s, err);
}

// (table, time column, time unit, names[nch]) => the record
int mech_compare_rec_read(const char *table, const char *t_col, const char *t_unit, const char *const *names,
                          int nch, mech_compare_rec *r, hy_err *err)
{
    mech_compare_rec_init(r, table);
    if (nch < 1 || nch > MECH_COMPARE_MAX_CH)
        return hy_err_set(err, HY_EARG, "%s: 1 to %d channels expected, got %d", table, MECH_COMPARE_MAX_CH, nch);
    const char *tc = t_col && t_col[0] ? t_col : "t";
    int rc = HY_OK, bad = -1;
    double tf = 1;
    for (int k = 0; k < nch && rc == HY_OK; k++) {
        hy_csv_opts o;
        hy_csv_opts_default(&o);
        o.t_col = tc;
        o.x_col = names[k];
        o.no_force = 1;
        o.require_time_increasing = 1;
        hy_series s;
        hy_series_init(&s);
        rc = read_series(table, &o, &s, err);
        if (rc != HY_OK && err && strstr(err->msg, "found no column named"))
            bad = k; /* the channel is missing (not the time, not the table) */
        if (rc == HY_OK && strlen(names[k]) >= MECH_COMPARE_NAME)
            rc = hy_err_set(err, HY_EARG, "%s: channel name '%.60s...' longer than %d bytes", table, names[k],
                            MECH_COMPARE_NAME - 1);
        if (rc == HY_OK) {
            snprintf(r->name[k], sizeof r->name[k], "%s", names[k]);
            snprintf(r->unit[k], sizeof r->unit[k], "%s", s.q_unit);
            if (k == 0) { /* the time and the sample count (grow allocates no channel yet: nch is 0) */
                if (s.n < 2) {
                    rc = hy_err_set(err, HY_EDATA, "%s: %zu sample%s, expected at least 2", table, s.n,
                                    s.n == 1 ? "" : "s");
                } else {
                    /* time unit: the one given, else the units row's, else s; the two must agree */
                    const char *tu = t_unit && t_unit[0] ? t_unit : s.t_unit[0] ? s.t_unit : "s";
                    if (t_unit && t_unit[0] && s.t_unit[0] && strcmp(t_unit, s.t_unit) != 0)
                        rc = hy_err_set(err, HY_EDATA, "%s: time column '%s' is in '%s' by its units row, not '%s'",
                                        table, tc, s.t_unit, t_unit);
                    else if (mech_compare_unit_factor(tu, "s", &tf) != 0)
                        rc = hy_err_set(err, HY_EDATA, "%s: time column '%s': unit '%s' is not a unit of time",
                                        table, tc, tu);
                    else if ((rc = grow(r, s.n, 1, err)) == HY_OK) {
                        for (size_t i = 0; i < s.n && rc == HY_OK; i++) {
                            r->t[i] = tf * s.t[i];
                            r->line[i] = s.line[i];
                            if (i > 0 && !(r->t[i] > r->t[i - 1]))
                                rc = hy_err_set(err, HY_EDATA,
                                                "%s:%zu: time %.10g after %.10g on line %zu, expected strictly "
                                                "increasing time", table, s.line[i], s.t[i], s.t[i - 1], s.line[i - 1]);
                        }
                        r->n = s.n;
                    }
                }
            } else if (s.n != r->n) {
                rc = hy_err_set(err, HY_EDATA, "%s: channel '%s' has %zu samples where '%s' has %zu", table, names[k],
                                s.n, names[0], r->n);
            }
            if (rc == HY_OK) {
                r->nch = k + 1;
                r->v[k] = malloc((r->cap ? r->cap : 1) * sizeof(double));
                if (!r->v[k])
                    rc = hy_err_set(err, HY_ENOMEM, "%s: out of memory", table);
                else
                    memcpy(r->v[k], s.q, r->n * sizeof(double));
            }
        }
        hy_series_free(&s);
    }
    if (rc != HY_OK) {
        mech_compare_rec_free(r);
        r->bad_ch = bad;
    }
    return rc;
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

// (run) => the table its channels are read from
int mech_compare_run_table(const char *run, char *out, size_t len, hy_err *err)
{
    char file[4096];
    const char *dset;
    int n = 0;
    if (hy_h5_split_path(run, file, sizeof file, &dset))
        n = snprintf(out, len, "%s", run);
    else if (is_dir(run)) {
        char p[4200];
        snprintf(p, sizeof p, "%s/history.csv", run);
        if (is_file(p))
            n = snprintf(out, len, "%s", p);
        else {
            snprintf(p, sizeof p, "%s/log.h5", run);
            if (!is_file(p))
                return hy_err_set(err, HY_EIO, "%s: a folder without history.csv or log.h5, expected a mech dock "
                                  "output folder", run);
            n = snprintf(out, len, "%s:/history", p);
        }
    } else if (!is_file(run))
        return hy_err_set(err, HY_EIO, "%s: cannot open: no such file or folder", run);
    else if (ends_with(run, ".h5") || ends_with(run, ".hdf5"))
        n = snprintf(out, len, "%s:/history", run);
    else
        n = snprintf(out, len, "%s", run);
    if (n < 0 || (size_t)n >= len)
        return hy_err_set(err, HY_EARG, "%s: path too long", run);
    return HY_OK;
}

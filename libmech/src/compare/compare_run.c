/* The comparison of a run with a measured record (issue 45, docs/compare.md §3–§4): units, alignment, the common
 * grid over the overlap, per-channel metrics and the residual vector a calibration minimises. The error metrics
 * are libhyst's replay metrics (hy_replay_metrics_compute: the same NRMSE as `hyst replay`). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/replay.h"
#include "mech/compare.h"
#include "compare_internal.h"

void mech_compare_free(mech_compare *c)
{
    if (!c)
        return;
    free(c->t);
    for (int k = 0; k < MECH_COMPARE_MAX_CH; k++)
        free(c->meas[k]), free(c->pred[k]);
    free(c);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// (record) => its median sampling step
static int median_step(const mech_compare_rec *r, hy_err *err, double *h)
{
    double *d = malloc((r->n - 1) * sizeof *d);
    if (!d)
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", r->source);
    for (size_t i = 0; i + 1 < r->n; i++)
        d[i] = r->t[i + 1] - r->t[i];
    qsort(d, r->n - 1, sizeof *d, cmp_double);
    *h = d[(r->n - 1) / 2];
    free(d);
    return HY_OK;
}

static const char *mapname(const mech_compare_map *m)
{
    return m->source[0] ? m->source : "channel map";
}

// (map, run, measured) => the comparison
int mech_compare_new(const mech_compare_map *map, const mech_compare_rec *run, const mech_compare_rec *meas,
                     mech_compare **out, hy_err *err)
{
    *out = NULL;
    const char *mn = mapname(map);
    if (map->n < 1 || map->n > MECH_COMPARE_MAX_CH)
        return hy_err_set(err, HY_EDATA, "%s: no channel to compare (\"channels\" empty)", mn);
    if (run->n < 2 || meas->n < 2)
        return hy_err_set(err, HY_EDATA, "%s: fewer than 2 samples", run->n < 2 ? run->source : meas->source);
    mech_compare *c = calloc(1, sizeof *c);
    if (!c)
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    c->map = *map;
    int ir[MECH_COMPARE_MAX_CH], im[MECH_COMPARE_MAX_CH];
    const double *rv[MECH_COMPARE_MAX_CH] = {0};  /* the run's channel, or its derivative (in dv)             */
    double *dv[MECH_COMPARE_MAX_CH] = {0};
    int rc = HY_OK;
    double *scaled = NULL;
    /* the sensor model (compare_filter.c): filtered channels on one uniform grid over the run, ft[fn] */
    const double *rt[MECH_COMPARE_MAX_CH];
    size_t rn[MECH_COMPARE_MAX_CH];
    double *ft = NULL, fh = 0;
    size_t fn = 0;
    mech_compare_filter filt[MECH_COMPARE_MAX_CH];
    for (int k = 0; k < map->n; k++)
        filt[k] = map->ch[k].filter;
    if (mech_compare_sensor_grid(filt, map->n, run->t[0], run->t[run->n - 1], &fh, &fn)) {
        if (fn < 2) {
            rc = hy_err_set(err, HY_EDATA, "%s: filter: the run %s is shorter than the filter's time step", mn,
                            run->source);
            goto fail;
        }
        if (!(ft = malloc(fn * sizeof *ft))) {
            rc = hy_err_set(err, HY_ENOMEM, "out of memory");
            goto fail;
        }
        for (size_t i = 0; i < fn; i++)
            ft[i] = run->t[0] + (double)i * fh;
        double hm;   /* an anti-alias filter cuts below the measured record's Nyquist frequency */
        if ((rc = median_step(meas, err, &hm)) != HY_OK)
            goto fail;
        for (int k = 0; k < map->n; k++) {
            char key[48];
            snprintf(key, sizeof key, "%s.filter", map->ch[k].key);
            if (filt[k].order > 0 && (rc = mech_compare_filter_check(&filt[k], 1 / hm, mn, key, err)) != HY_OK)
                goto fail;
        }
    }
    for (int k = 0; k < map->n; k++) {
        mech_compare_chan *ch = &c->map.ch[k];
        ir[k] = mech_compare_rec_find(run, ch->run);
        im[k] = mech_compare_rec_find(meas, ch->meas);
        if (ir[k] < 0) {
            rc = hy_err_set(err, HY_EDATA, "%s: %s.run: '%s' is not a channel of %s", mn, ch->key, ch->run, run->source);
            goto fail;
        }
        if (im[k] < 0) {
            rc = hy_err_set(err, HY_EDATA, "%s: %s.measured: '%s' is not a channel of %s", mn, ch->key, ch->meas,
                            meas->source);
            goto fail;
        }
        /* a derivative of the run's channel: its values at the run's samples, its unit with "/s" or "/s^2" */
        char ru[MECH_COMPARE_UNIT];
        int ulen;
        const char *u0 = run->unit[ir[k]];
        size_t ul = strlen(u0);
        if (ch->derivative < 0 || ch->derivative > 2) {
            rc = hy_err_set(err, HY_EARG, "%s: %s.derivative: %d, expected 0, 1 or 2", mn, ch->key, ch->derivative);
            goto fail;
        }
        if (ch->derivative == 0)
            ulen = snprintf(ru, sizeof ru, "%s", u0);
        else if (ch->derivative == 1 && ul > 2 && strcmp(u0 + ul - 2, "/s") == 0)
            ulen = snprintf(ru, sizeof ru, "%.*s^2", (int)ul, u0);
        else
        {
            const char *base = u0[0] ? u0 : "1";
            ulen = snprintf(ru, sizeof ru, "%.*s%s", (int)strlen(base), base, ch->derivative == 1 ? "/s" : "/s^2");
        }
        if (ulen < 0 || (size_t)ulen >= sizeof ru) {
            rc = hy_err_set(err, HY_EDATA, "%s: %s.derivative: the unit '%s' differentiated is too long", mn, ch->key,
                            u0);
            goto fail;
        }
        rv[k] = run->v[ir[k]];
        if (ch->derivative > 0) {
            if (run->n < 3) {
                rc = hy_err_set(err, HY_EDATA, "%s: %s.derivative: %s has %zu samples, expected at least 3", mn,
                                ch->key, run->source, run->n);
                goto fail;
            }
            if (!(dv[k] = malloc(run->n * sizeof *dv[k]))) {
                rc = hy_err_set(err, HY_ENOMEM, "out of memory");
                goto fail;
            }
            for (size_t i = 0; i < run->n; i++)
                dv[k][i] = compare_derive_at(run->t, run->v[ir[k]], run->n, ch->derivative, i);
            rv[k] = dv[k];
        }
        rt[k] = run->t, rn[k] = run->n;
        if (ch->filter.order > 0) {   /* the sensor's filter on the prediction, on the filters' grid */
            double *fv = malloc(fn * sizeof *fv);
            if (!fv) {
                rc = hy_err_set(err, HY_ENOMEM, "out of memory");
                goto fail;
            }
            rc = mech_compare_sensor_channel(&ch->filter, run->t, rv[k], run->n, 1, run->t[0], fh, fn, fv, err);
            free(dv[k]);
            dv[k] = fv;
            rv[k] = fv, rt[k] = ft, rn[k] = fn;
            if (rc != HY_OK)
                goto fail;
        }
        const char *fu = meas->unit[im[k]];
        if (ch->unit[0] && fu[0] && strcmp(ch->unit, fu) != 0) {
            rc = hy_err_set(err, HY_EDATA, "%s: %s: unit mismatch on channel '%s': the map says '%s', the units row "
                            "of %s says '%s'", mn, ch->key, ch->meas, ch->unit, meas->source, fu);
            goto fail;
        }
        if (!ch->unit[0]) {
            if (!fu[0]) {
                rc = hy_err_set(err, HY_EDATA, "%s: %s: channel '%s' has no unit (no units row in %s): give its "
                                "\"unit\" in the map", mn, ch->key, ch->meas, meas->source);
                goto fail;
            }
            snprintf(ch->unit, sizeof ch->unit, "%s", fu);
        }
        double f;
        if (mech_compare_unit_factor(ch->unit, ru, &f) != 0) {
            rc = hy_err_set(err, HY_EDATA, "%s: %s: unit mismatch on channel '%s': measured in '%s', the run's "
                            "channel '%s' in '%s'", mn, ch->key, ch->meas, ch->unit, ch->run, ru[0] ? ru : "(none)");
            goto fail;
        }
        c->factor[k] = f * ch->scale;
        snprintf(c->run_unit[k], sizeof c->run_unit[k], "%s", ru);
        snprintf(c->run_unit0[k], sizeof c->run_unit0[k], "%s", u0);
    }
    c->span_run[0] = run->t[0], c->span_run[1] = run->t[run->n - 1];
    c->span_meas[0] = meas->t[0], c->span_meas[1] = meas->t[meas->n - 1];
    double shorter = fmin(c->span_run[1] - c->span_run[0], c->span_meas[1] - c->span_meas[0]);
    double max_lag = isnan(map->max_lag) ? shorter / 4 : map->max_lag;
    if (c->span_run[0] - max_lag > c->span_meas[1] || c->span_run[1] + max_lag < c->span_meas[0]) {
        rc = hy_err_set(err, HY_EDATA, "%s and %s do not overlap in time: the run spans %.10g to %.10g s, the "
                        "measured record %.10g to %.10g s (searched lags up to %g s)", run->source, meas->source,
                        c->span_run[0], c->span_run[1], c->span_meas[0], c->span_meas[1], max_lag);
        goto fail;
    }
    double h = map->dt;
    if (isnan(h) && (rc = median_step(meas, err, &h)) != HY_OK)
        goto fail;
    if (!(h > 0) || !isfinite(h)) {
        rc = hy_err_set(err, HY_EDATA, "%s: grid step %g s, expected a positive step", mn, h);
        goto fail;
    }
    c->h = h;
    if (!(scaled = malloc(meas->n * sizeof *scaled))) {
        rc = hy_err_set(err, HY_ENOMEM, "out of memory");
        goto fail;
    }
    /* the alignment lag (spec: docs/compare.md §3) */
    int ka = 0;
    if (map->align_ch[0]) {
        ka = -1;
        for (int k = 0; k < map->n; k++)
            if (strcmp(map->ch[k].meas, map->align_ch) == 0)
                ka = k;
        if (ka < 0) {
            rc = hy_err_set(err, HY_EDATA, "%s: align: '%s' is not a measured channel of the map", mn, map->align_ch);
            goto fail;
        }
    }
    for (size_t i = 0; i < meas->n; i++)
        scaled[i] = c->factor[ka] * meas->v[im[ka]][i];
    if (map->align == MECH_COMPARE_ALIGN_NONE)
        c->lag = isnan(map->lag) ? 0 : map->lag;
    else {
        if (map->align == MECH_COMPARE_ALIGN_EVENT)
            rc = mech_compare_event_lag(rt[ka], rv[ka], rn[ka], meas->t, scaled, meas->n, map->event_level,
                                        &c->lag, err);
        else
            rc = mech_compare_xcorr_lag(rt[ka], rv[ka], rn[ka], meas->t, scaled, meas->n, h, max_lag, &c->lag,
                                        err);
        if (rc != HY_OK) {
            char m[HY_MSG_LEN];
            snprintf(m, sizeof m, "%s", err ? err->msg : "");
            hy_err_set(err, rc, "aligning '%s' of %s on '%s' of %s: %s", map->ch[ka].meas, meas->source,
                       map->ch[ka].run, run->source, m);
            goto fail;
        }
    }
    /* the overlap, in the measured record's time */
    double lo = fmax(c->span_run[0] + c->lag, c->span_meas[0]), hi = fmin(c->span_run[1] + c->lag, c->span_meas[1]);
    if (!isnan(map->window[0])) { /* the window: a part of the overlap */
        double a = fmax(lo, map->window[0]), b = fmin(hi, map->window[1]);
        if (!(b - a >= h)) {
            rc = hy_err_set(err, HY_EDATA, "%s: window %.10g to %.10g s: outside the records' overlap %.10g to %.10g s "
                            "(measured time)", mn, map->window[0], map->window[1], lo, hi);
            goto fail;
        }
        lo = a, hi = b;
    }
    if (!(hi - lo >= h)) {
        rc = hy_err_set(err, HY_EDATA, "%s and %s do not overlap in time: the run spans %.10g to %.10g s (shifted "
                        "by the lag %.6g s), the measured record %.10g to %.10g s", run->source, meas->source,
                        c->span_run[0] + c->lag, c->span_run[1] + c->lag, c->lag, c->span_meas[0], c->span_meas[1]);
        goto fail;
    }
    double cells = floor((hi - lo) / h * (1 + 1e-12)) + 1;
    if (cells > (double)(1L << 26)) {
        rc = hy_err_set(err, HY_EDATA, "%s: %.0f grid samples, expected at most 2^26 (give a larger \"dt\")", mn, cells);
        goto fail;
    }
    c->n = (size_t)cells;
    c->t0 = lo;
    if (!(c->t = malloc(c->n * sizeof *c->t))) {
        rc = hy_err_set(err, HY_ENOMEM, "out of memory");
        goto fail;
    }
    for (size_t i = 0; i < c->n; i++)
        c->t[i] = fmin(lo + (double)i * h, hi);
    for (int k = 0; k < map->n; k++) {
        c->meas[k] = malloc(c->n * sizeof(double));
        c->pred[k] = malloc(c->n * sizeof(double));
        if (!c->meas[k] || !c->pred[k]) {
            rc = hy_err_set(err, HY_ENOMEM, "out of memory");
            goto fail;
        }
        size_t ja = 0, jb = 0;
        for (size_t i = 0; i < c->n; i++) {
            double tr = fmin(fmax(c->t[i] - c->lag, c->span_run[0]), c->span_run[1]);
            c->meas[k][i] = c->factor[k] * compare_interp(meas->t, meas->v[im[k]], meas->n, c->t[i], &jb);
            c->pred[k][i] = compare_interp(rt[k], rv[k], rn[k], tr, &ja);
        }
        /* metrics */
        mech_compare_result *R = &c->res[k];
        hy_replay_metrics M;
        rc = hy_replay_metrics_compute(c->t, c->meas[k], c->pred[k], c->n, NULL, 0, &M, err);
        if (rc != HY_OK)
            goto fail;
        R->n = c->n;
        R->range = M.Q_ptp;
        R->rms = M.rms_error;
        R->bias = M.mean_error;
        R->max_abs_err = M.max_abs_error;
        R->t_max_abs_err = c->t[M.max_abs_index];
        hy_replay_metrics_free(&M);
        double pr = 0;
        for (size_t i = 0; i < c->n; i++)
            pr = fmax(pr, fabs(c->pred[k][i]));
        R->norm = R->range > 0 ? R->range : pr > 0 ? 2 * pr : 1;
        R->nrmse = R->rms / R->norm;
        /* peaks from the records' own samples inside the overlap (a grid coarser than a record misses a spike) */
        R->peak_meas = R->peak_pred = 0;
        R->t_peak_meas = R->t_peak_pred = NAN;
        for (size_t i = 0; i < meas->n; i++) {
            double v = c->factor[k] * meas->v[im[k]][i];
            if (meas->t[i] >= lo && meas->t[i] <= hi && (isnan(R->t_peak_meas) || fabs(v) > fabs(R->peak_meas)))
                R->peak_meas = v, R->t_peak_meas = meas->t[i];
        }
        for (size_t i = 0; i < rn[k]; i++) {
            double v = rv[k][i], tm = rt[k][i] + c->lag;
            if (tm >= lo && tm <= hi && (isnan(R->t_peak_pred) || fabs(v) > fabs(R->peak_pred)))
                R->peak_pred = v, R->t_peak_pred = tm;
        }
        R->peak_err = fabs(R->peak_pred) - fabs(R->peak_meas);
        R->peak_rel = R->peak_meas != 0 ? R->peak_err / fabs(R->peak_meas) : NAN;
        /* the channel's own lag, on the records as read (a flat channel or one at the limit has none) */
        for (size_t i = 0; i < meas->n; i++)
            scaled[i] = c->factor[k] * meas->v[im[k]][i];
        if (k == ka && map->align == MECH_COMPARE_ALIGN_XCORR)
            R->lag = c->lag; /* the alignment's own channel: that lag, not computed twice */
        else if (mech_compare_xcorr_lag(rt[k], rv[k], rn[k], meas->t, scaled, meas->n, h, max_lag, &R->lag,
                                   NULL) != HY_OK)
            R->lag = NAN;
        R->tol = !isnan(map->ch[k].tol) ? map->ch[k].tol : map->tol;
        R->peak_tol = map->ch[k].peak_tol;
        if (isnan(R->tol) && isnan(R->peak_tol))
            R->verdict = -1;
        else
            R->verdict = (isnan(R->tol) || R->nrmse <= R->tol) &&
                         (isnan(R->peak_tol) || (isfinite(R->peak_rel) && fabs(R->peak_rel) <= R->peak_tol) ||
                          (R->peak_meas == 0 && R->peak_pred == 0));
    }
    free(scaled);
    free(ft);
    for (int k = 0; k < MECH_COMPARE_MAX_CH; k++)
        free(dv[k]);
    *out = c;
    return HY_OK;
fail:
    free(scaled);
    free(ft);
    for (int k = 0; k < MECH_COMPARE_MAX_CH; k++)
        free(dv[k]);
    mech_compare_free(c);
    return rc;
}

size_t mech_compare_nresid(const mech_compare *c)
{
    return c->n * (size_t)c->map.n;
}

/* (c, filtered channel k, run, its channel j, divisor) => rk[c->n]: the run's channel (its derivative at its samples)
 * through the sensor model on the filter's grid, read at the grid times minus the lag. Allocates the grid. */
static int filtered_residual(const mech_compare *c, int k, const mech_compare_rec *run, int j, double norm, double *rk,
                             hy_err *err)
{
    const mech_compare_chan *ch = &c->map.ch[k];
    double fh;
    size_t fn;
    mech_compare_sensor_grid(&ch->filter, 1, run->t[0], run->t[run->n - 1], &fh, &fn);
    if (fn < 2)
        return hy_err_set(err, HY_EDATA, "%s: shorter than the filter's time step", run->source);
    double *d = ch->derivative > 0 ? malloc(run->n * sizeof *d) : NULL, *fv = malloc(fn * sizeof *fv);
    if (!fv || (ch->derivative > 0 && !d)) {
        free(d), free(fv);
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    }
    for (size_t i = 0; d && i < run->n; i++)
        d[i] = compare_derive_at(run->t, run->v[j], run->n, ch->derivative, i);
    int rc = mech_compare_sensor_channel(&ch->filter, run->t, d ? d : run->v[j], run->n, 1, run->t[0], fh, fn, fv,
                                         err);
    for (size_t i = 0; rc == HY_OK && i < c->n; i++) {
        double x = c->t[i] - c->lag - run->t[0];   /* on the grid t0 + i fh */
        double u = fmin(fmax(x / fh, 0), (double)(fn - 1));
        size_t a = (size_t)u < fn - 1 ? (size_t)u : fn - 2;
        rk[i] = (fv[a] + (u - (double)a) * (fv[a + 1] - fv[a]) - c->meas[k][i]) / norm;
    }
    free(d), free(fv);
    return rc;
}

// (c, run) => r[nresid]: per channel (run(t - lag) - meas) / (norm sqrt(n))
int mech_compare_residual(const mech_compare *c, const mech_compare_rec *run, double *r, hy_err *err)
{
    if (run->n < 2)
        return hy_err_set(err, HY_EDATA, "%s: fewer than 2 samples", run->source);
    double a = c->t[0] - c->lag, b = c->t[c->n - 1] - c->lag;
    double slack = 1e-9 * fmax(1, fabs(b));
    if (run->t[0] > a + slack || run->t[run->n - 1] < b - slack)
        return hy_err_set(err, HY_EDATA, "%s: the run spans %.10g to %.10g s, the comparison needs %.10g to %.10g s",
                          run->source, run->t[0], run->t[run->n - 1], a, b);
    double sq = sqrt((double)c->n);
    for (int k = 0; k < c->map.n; k++) {
        int j = mech_compare_rec_find(run, c->map.ch[k].run);
        if (j < 0)
            return hy_err_set(err, HY_EDATA, "%s: no channel '%s'", run->source, c->map.ch[k].run);
        if (strcmp(run->unit[j], c->run_unit0[k]) != 0)
            return hy_err_set(err, HY_EDATA, "%s: channel '%s' in '%s', the comparison's in '%s'", run->source,
                              c->map.ch[k].run, run->unit[j], c->run_unit0[k]);
        if (c->map.ch[k].derivative > 0 && run->n < 3)
            return hy_err_set(err, HY_EDATA, "%s: %zu samples, a derivative needs at least 3", run->source, run->n);
        double norm = c->res[k].norm * sq;
        size_t h = 0;
        double *rk = r + (size_t)k * c->n;
        const mech_compare_filter *f = &c->map.ch[k].filter;
        if (f->order > 0) {   /* the sensor's filter (compare_filter.c), as mech_compare_new applied it */
            int rc = filtered_residual(c, k, run, j, norm, rk, err);
            if (rc != HY_OK)
                return rc;
            continue;
        }
        for (size_t i = 0; i < c->n; i++) {
            double x = fmin(fmax(c->t[i] - c->lag, run->t[0]), run->t[run->n - 1]);
            rk[i] = (compare_interp_d(run->t, run->v[j], run->n, c->map.ch[k].derivative, x, &h) - c->meas[k][i]) /
                    norm;
        }
    }
    return HY_OK;
}

/* The calibration's least squares (docs/calibrate.md §5): GSL's multifit_nlinear trust-region Levenberg-Marquardt
 * (the library libhyst's bw / iwan fits use, in Debian; chosen over a derivative-free Nelder-Mead because the
 * residual is a smooth function of the keys at a fixed step tolerance, and because the Jacobian at the optimum is
 * what gives the standard errors and correlations the issue asks for).
 *
 * Parameters: each key through the sine transform x = lo + (hi - lo) (1 + sin u) / 2 (MINUIT's: every u is
 * inside the bounds, and the Jacobian stays finite), then one time offset per fit run and channel,
 * tau = tau0 + w sin v, within the window w of the alignment at the start values (mech_calib_align).
 * Residual of row i of channel c: (y_sim(t_i - tau) - y_i) / s_c, s_c the channel's noise level estimated from
 * the record (mech_calib_noise): weighted least squares, so that the residual variance is ~1 when the model
 * explains the record to its noise.
 * Jacobian: the key columns by forward differences of the simulations (step fd_step in u: the runs in the loop are
 * error-controlled, and a step far above their tolerance keeps the difference above the step control's noise); the
 * offset columns from the simulated slope at the row, with no run.
 * Covariance of the keys: s^2 (J'J)^-1 at the optimum (s^2 = sum of squared residuals / (n - p)), carried to the
 * keys by the transform's derivative (the delta method). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include "hyst/util.h"
#include "mech/calib.h"
#include "calib_internal.h"

#define PMAX (MECH_CALIB_KEYS_MAX + MECH_CALIB_RUNS_MAX * MECH_CALIB_CH_MAX)

typedef struct rows {
    size_t i0, i1;   /* rows [i0, i1) compared */
    double sigma;    /* noise level */
    double tau0;
    int    jt, jg;   /* parameter index of the offset, of the gain (-1: the gain is 1) */
    double gain_sd;
} rows;

typedef struct solver {
    const mech_calib_problem *p;
    mech_calib_trace tr[MECH_CALIB_RUNS_MAX];    /* at xc */
    mech_calib_trace tmp[MECH_CALIB_RUNS_MAX];
    double xc[MECH_CALIB_KEYS_MAX];
    int    have;
    rows   rw[MECH_CALIB_RUNS_MAX][MECH_CALIB_CH_MAX];
    int    ntau, ngain;                          /* offsets, gains fitted */
    int    nfit;                                 /* runs used in the fit */
    size_t n, ndata;                             /* residuals: ndata rows of the records, then one per gain */
    double *res;
    long   evals;
    hy_err err;
} solver;

static double key_x(const mech_calib_key *k, double u)
{
    return k->lo + (k->hi - k->lo) * 0.5 * (1 + sin(u));
}

static double key_u(const mech_calib_key *k, double x)
{
    double s = 2 * (x - k->lo) / (k->hi - k->lo) - 1;
    return asin(s > 1 ? 1 : s < -1 ? -1 : s);
}

static void keys_of(const solver *S, const double *th, double *x)
{
    for (int k = 0; k < S->p->nkey; k++)
        x[k] = key_x(&S->p->key[k], th[k]);
}

static int simulate_all(solver *S, const double *x, mech_calib_trace *tr)
{
    for (int r = 0; r < S->p->nrun; r++) {
        if (S->p->run[r].validation)
            continue;
        S->evals++;
        int rc = mech_calib_simulate(S->p, r, x, &tr[r], &S->err);
        if (rc != HY_OK)
            return rc;
    }
    return HY_OK;
}

static int ensure(solver *S, const double *x)
{
    if (S->have && memcmp(x, S->xc, (size_t)S->p->nkey * sizeof *x) == 0)
        return HY_OK;
    S->have = 0;
    int rc = simulate_all(S, x, S->tr);
    if (rc == HY_OK) {
        memcpy(S->xc, x, (size_t)S->p->nkey * sizeof *x);
        S->have = 1;
    }
    return rc;
}

// (solver, traces, parameters) => residuals into res; 1 when a row has no simulated value (cannot happen inside
// the offset windows unless a run ended early)
static int residuals(const solver *S, const mech_calib_trace *tr, const double *th, double *res)
{
    const mech_calib_problem *p = S->p;
    size_t i = 0;
    for (int r = 0; r < p->nrun; r++) {
        if (p->run[r].validation)
            continue;
        const mech_calib_record *R = &p->run[r].rec;
        for (int c = 0; c < R->nch; c++) {
            const rows *w = &S->rw[r][c];
            double tau = w->tau0 + p->offset_window * sin(th[w->jt]);
            double g = w->jg >= 0 ? 1 + w->gain_sd * th[w->jg] : 1;
            for (size_t k = w->i0; k < w->i1; k++) {
                double v = mech_calib_trace_at(&tr[r], c, R->t[k] - tau);
                if (isnan(v))
                    return 1;
                res[i++] = (g * v - R->y[k * (size_t)R->nch + (size_t)c]) / w->sigma;
            }
        }
    }
    for (int r = 0; r < p->nrun; r++)   /* the sensors' calibration: a gain g ~ N(1, gain_sd^2) */
        for (int c = 0; !p->run[r].validation && c < p->run[r].rec.nch; c++)
            if (S->rw[r][c].jg >= 0)
                res[i++] = th[S->rw[r][c].jg];
    return 0;
}

static int gsl_f(const gsl_vector *xv, void *params, gsl_vector *fx)
{
    solver *S = params;
    double th[PMAX], x[MECH_CALIB_KEYS_MAX];
    for (size_t j = 0; j < xv->size; j++)
        th[j] = gsl_vector_get(xv, j);
    keys_of(S, th, x);
    if (ensure(S, x) != HY_OK || residuals(S, S->tr, th, S->res))
        return GSL_EDOM;   /* the trust-region step is rejected and shrunk */
    for (size_t i = 0; i < S->n; i++)
        gsl_vector_set(fx, i, S->res[i]);
    return GSL_SUCCESS;
}

// (problem, transformed key) => its forward-difference step: fd_step, or -fd_step on the bound's side of the point
static double key_step(const mech_calib_problem *p, double u)
{
    return u + p->fd_step > M_PI / 2 ? -p->fd_step : p->fd_step;
}

typedef struct column_ctx {
    solver *S;
    const double *th;
    size_t np;
} column_ctx;

// (context, key k) => the residuals with key k moved by its step (one run of each fit record), into col
static int key_column(void *ctx, int k, double *col, hy_err *err)
{
    const column_ctx *cc = ctx;
    solver *S = cc->S;
    double th2[PMAX], x2[MECH_CALIB_KEYS_MAX];
    memcpy(th2, cc->th, cc->np * sizeof *th2);
    th2[k] += key_step(S->p, th2[k]);
    keys_of(S, th2, x2);
    if (simulate_all(S, x2, S->tmp) != HY_OK) {
        *err = S->err;
        return err->code ? err->code : HY_ENUMERIC;
    }
    if (residuals(S, S->tmp, cc->th, col))
        return hy_err_set(err, HY_ENUMERIC, "key %s: a run ended before a compared row", S->p->key[k].path);
    return HY_OK;
}

static int gsl_df(const gsl_vector *xv, void *params, gsl_matrix *J)
{
    solver *S = params;
    const mech_calib_problem *p = S->p;
    double th[PMAX], x[MECH_CALIB_KEYS_MAX];
    for (size_t j = 0; j < xv->size; j++)
        th[j] = gsl_vector_get(xv, j);
    keys_of(S, th, x);
    if (ensure(S, x) != HY_OK || residuals(S, S->tr, th, S->res))
        return GSL_EDOM;
    /* the key columns: forward differences in u, each column's runs independent of the others' (on p->jobs
       worker processes, calib_columns.c) */
    double *r2 = malloc((size_t)p->nkey * S->n * sizeof *r2);
    if (!r2)
        return GSL_ENOMEM;
    column_ctx cc = {S, th, xv->size};
    long ev0 = S->evals;
    int rc = mech_calib__columns(p->nkey, p->jobs, S->n, key_column, &cc, r2, &S->err);
    S->evals = ev0 + (long)p->nkey * (long)S->nfit;   /* every column's runs, the workers' too */
    if (rc != HY_OK) {
        free(r2);
        return GSL_EDOM;
    }
    for (int k = 0; k < p->nkey; k++) {
        double h = key_step(p, th[k]);
        for (size_t i = 0; i < S->n; i++)
            gsl_matrix_set(J, i, (size_t)k, (r2[(size_t)k * S->n + i] - S->res[i]) / h);
    }
    free(r2);
    /* offset and gain columns, with no run: d res / d v = -g y_sim'(t - tau) w cos v / s, d res / d w = y_sim gain_sd / s */
    for (size_t i = 0; i < S->n; i++)
        for (size_t q = (size_t)p->nkey; q < xv->size; q++)
            gsl_matrix_set(J, i, q, 0.0);
    size_t i = 0;
    for (int r = 0; r < p->nrun; r++) {
        if (p->run[r].validation)
            continue;
        const mech_calib_record *R = &p->run[r].rec;
        double dt = 0.25 * (R->t[R->n - 1] - R->t[0]) / (double)(R->n - 1);
        for (int c = 0; c < R->nch; c++) {
            const rows *w = &S->rw[r][c];
            double tau = w->tau0 + p->offset_window * sin(th[w->jt]);
            double dtau = p->offset_window * cos(th[w->jt]);
            double g = w->jg >= 0 ? 1 + w->gain_sd * th[w->jg] : 1;
            for (size_t k = w->i0; k < w->i1; k++, i++) {
                double a = mech_calib_trace_at(&S->tr[r], c, R->t[k] - tau - dt);
                double b = mech_calib_trace_at(&S->tr[r], c, R->t[k] - tau + dt);
                if (isnan(a) || isnan(b))
                    a = b = 0;
                gsl_matrix_set(J, i, (size_t)w->jt, -g * (b - a) / (2 * dt) * dtau / w->sigma);
                if (w->jg >= 0)
                    gsl_matrix_set(J, i, (size_t)w->jg,
                                   mech_calib_trace_at(&S->tr[r], c, R->t[k] - tau) * w->gain_sd / w->sigma);
            }
        }
    }
    for (int r = 0; r < p->nrun; r++)
        for (int c = 0; !p->run[r].validation && c < p->run[r].rec.nch; c++)
            if (S->rw[r][c].jg >= 0)
                gsl_matrix_set(J, i++, (size_t)S->rw[r][c].jg, 1.0);
    return GSL_SUCCESS;
}

// (record, trace, channel, offset, rows) => NRMSE and noise floor over the rows
static void chstat(const mech_calib_record *R, const mech_calib_trace *tr, int c, double tau, double g, size_t i0,
                   size_t i1, double sigma, mech_calib_chstat *st)
{
    double s = 0, lo = INFINITY, hi = -INFINITY;
    size_t n = 0;
    for (size_t k = i0; k < i1; k++) {
        double v = g * mech_calib_trace_at(tr, c, R->t[k] - tau);
        if (isnan(v))
            continue;
        double y = R->y[k * (size_t)R->nch + (size_t)c];
        s += (v - y) * (v - y);
        lo = y < lo ? y : lo, hi = y > hi ? y : hi;
        n++;
    }
    double range = hi - lo;
    st->rows = n;
    st->offset = tau;
    st->gain = g;
    st->noise = sigma;
    st->nrmse = n && range > 0 ? sqrt(s / (double)n) / range : NAN;
    st->floor = n && range > 0 ? sigma / range : NAN;
}

int mech_calib_solve(const mech_calib_problem *p, mech_calib_result *R, hy_err *err)
{
    memset(R, 0, sizeof *R);
    gsl_set_error_handler_off();
    solver *S = calloc(1, sizeof *S);
    if (!S)
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    S->p = p;
    int rc = HY_OK;
    double x0[MECH_CALIB_KEYS_MAX];
    for (int k = 0; k < p->nkey; k++)
        R->x0[k] = x0[k] = p->key[k].start;
    /* every run at the start values: alignment, rows, noise */
    for (int r = 0; r < p->nrun && rc == HY_OK; r++) {
        S->evals++;
        rc = mech_calib_simulate(p, r, x0, &S->tr[r], err);
        const mech_calib_record *Rc = &p->run[r].rec;
        for (int c = 0; c < Rc->nch && rc == HY_OK; c++) {
            rows *w = &S->rw[r][c];
            double te = S->tr[r].t[S->tr[r].n - 1];
            if (Rc->t[0] - p->offset_max >= te || Rc->t[Rc->n - 1] + p->offset_max <= S->tr[r].t[0]) {
                rc = hy_err_set(err, HY_EDATA, "%s: channel %s: the record (%.6g .. %.6g s) and the simulated run "
                                "(0 .. %.6g s) do not overlap in time at any offset within offset_max = %g s",
                                hy_display_name(Rc->path), Rc->name[c], Rc->t[0], Rc->t[Rc->n - 1], te,
                                p->offset_max);
                break;
            }
            hy_err e2;
            w->tau0 = mech_calib_align(Rc, &S->tr[r], c, p->offset_max, &e2);
            if (isnan(w->tau0)) {
                rc = hy_err_set(err, HY_EDATA, "%s: channel %s: no time offset within offset_max = %g s aligns it "
                                "with the run at the start values: %s", hy_display_name(Rc->path), Rc->name[c],
                                p->offset_max, e2.msg);
                break;
            }
            double sig = mech_calib_noise(Rc, c);
            double lo = INFINITY, hi = -INFINITY;
            for (size_t k = 0; k < Rc->n; k++) {
                double y = Rc->y[k * (size_t)Rc->nch + (size_t)c];
                lo = y < lo ? y : lo, hi = y > hi ? y : hi;
            }
            if (!(sig > 1e-9 * (hi - lo)))   /* a record without noise: weigh by a part in a million of its range */
                sig = 1e-6 * (hi - lo) > 0 ? 1e-6 * (hi - lo) : 1;
            w->sigma = sig;
            double ta = S->tr[r].t[0] + w->tau0 + p->offset_window;          /* every offset in the window sees */
            double tb = S->tr[r].t[S->tr[r].n - 1] + w->tau0 - p->offset_window;  /* a simulated value            */
            size_t i0 = 0, i1 = Rc->n;
            while (i0 < Rc->n && Rc->t[i0] < ta)
                i0++;
            while (i1 > i0 && Rc->t[i1 - 1] > tb)
                i1--;
            w->i0 = i0, w->i1 = i1;
            chstat(Rc, &S->tr[r], c, w->tau0, 1, 0, Rc->n, sig, &R->ch0[r][c]);
            w->gain_sd = p->run[r].gain_sd[c];
            w->jg = -1;
            if (!p->run[r].validation) {
                S->nfit += c == 0;
                S->n += i1 - i0;
                w->jt = p->nkey + S->ntau++;
            }
        }
    }
    if (rc == HY_OK) {   /* the fit runs' traces are the start values' */
        memcpy(S->xc, x0, (size_t)p->nkey * sizeof *x0);
        S->have = 1;
    }
    S->ndata = S->n;
    for (int r = 0; r < p->nrun; r++)   /* gains after the offsets */
        for (int c = 0; !p->run[r].validation && c < p->run[r].rec.nch; c++)
            if (S->rw[r][c].gain_sd > 0) {
                S->rw[r][c].jg = p->nkey + S->ntau + S->ngain++;
                S->n++;
            }
    int np = p->nkey + S->ntau + S->ngain;
    R->npar = np;
    R->nres = S->n;
    if (rc == HY_OK && S->n <= (size_t)np)
        rc = hy_err_set(err, HY_EDATA, "%s: %zu measured values overlap the simulated runs, for %d parameters",
                        hy_display_name(p->path), S->n, np);
    gsl_multifit_nlinear_workspace *w = NULL;
    gsl_matrix *cov = NULL;
    double th[PMAX] = {0};
    if (rc == HY_OK) {
        S->res = malloc(S->n * sizeof *S->res);
        gsl_multifit_nlinear_parameters par = gsl_multifit_nlinear_default_parameters();
        par.trs = gsl_multifit_nlinear_trs_lm;
        par.scale = gsl_multifit_nlinear_scale_more;
        w = S->res ? gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &par, S->n, (size_t)np) : NULL;
        cov = gsl_matrix_alloc((size_t)np, (size_t)np);
        if (!w || !cov)
            rc = hy_err_set(err, HY_ENOMEM, "out of memory");
    }
    if (rc == HY_OK) {
        for (int k = 0; k < p->nkey; k++)
            th[k] = key_u(&p->key[k], x0[k]);
        gsl_multifit_nlinear_fdf fdf = {0};
        fdf.f = gsl_f;
        fdf.df = gsl_df;
        fdf.n = S->n;
        fdf.p = (size_t)np;
        fdf.params = S;
        gsl_vector_view v0 = gsl_vector_view_array(th, (size_t)np);
        int st = gsl_multifit_nlinear_init(&v0.vector, &fdf, w);
        if (st != GSL_SUCCESS) {
            rc = hy_err_set(err, HY_ENUMERIC, "%s: the model fails at the start values: %s",
                            hy_display_name(p->path), S->err.code ? S->err.msg : gsl_strerror(st));
        } else {
            gsl_vector *f0 = gsl_multifit_nlinear_residual(w);
            double c0;
            gsl_blas_ddot(f0, f0, &c0);
            R->cost0 = 0.5 * c0;
            int info = 0;
            st = gsl_multifit_nlinear_driver((size_t)p->max_iter, 1e-5, 1e-8, 1e-10, NULL, NULL, &info, w);
            gsl_vector *xv = gsl_multifit_nlinear_position(w);
            for (int j = 0; j < np; j++)
                th[j] = gsl_vector_get(xv, (size_t)j);
            gsl_vector *fx = gsl_multifit_nlinear_residual(w);
            double chisq;
            gsl_blas_ddot(fx, fx, &chisq);
            R->cost = 0.5 * chisq;
            R->s2 = chisq / (double)(S->n - (size_t)np);   /* the gains' prior rows count as observations */
            R->iterations = (int)gsl_multifit_nlinear_niter(w);
            R->jacobians = (long)fdf.nevaldf;
            R->converged = st == GSL_SUCCESS;
            snprintf(R->reason, sizeof R->reason, "%s",
                     st == GSL_SUCCESS ? (info == 1 ? "small step" : info == 2 ? "small gradient" : "converged")
                     : st == GSL_EMAXITER ? "iteration cap reached" : gsl_strerror(st));
            keys_of(S, th, R->x);
            double D[PMAX];
            for (int k = 0; k < p->nkey; k++)
                D[k] = 0.5 * (p->key[k].hi - p->key[k].lo) * cos(th[k]);
            for (int j = p->nkey; j < p->nkey + S->ntau; j++)
                D[j] = p->offset_window * cos(th[j]);
            for (int j = p->nkey + S->ntau; j < np; j++)
                D[j] = 0;   /* set per channel below */
            gsl_matrix *J = gsl_multifit_nlinear_jac(w);
            int ok = gsl_multifit_nlinear_covar(J, 0.0, cov) == GSL_SUCCESS;
            for (int a = 0; a < p->nkey; a++) {
                R->se[a] = ok ? fabs(D[a]) * sqrt(R->s2 * gsl_matrix_get(cov, (size_t)a, (size_t)a)) : NAN;
                for (int b = 0; b < p->nkey; b++) {
                    double caa = gsl_matrix_get(cov, (size_t)a, (size_t)a), cbb = gsl_matrix_get(cov, (size_t)b, (size_t)b);
                    double sg = (D[a] < 0) != (D[b] < 0) ? -1 : 1;
                    R->corr[a * MECH_CALIB_KEYS_MAX + b] =
                        ok ? sg * gsl_matrix_get(cov, (size_t)a, (size_t)b) / sqrt(caa * cbb) : NAN;
                }
            }
            /* statistics at the optimum: fit runs with their fitted offsets, validation runs predicted and aligned */
            if (ensure(S, R->x) != HY_OK)
                rc = hy_err_set(err, S->err.code, "%s", S->err.msg);
            for (int r = 0; r < p->nrun && rc == HY_OK; r++) {
                const mech_calib_record *Rc = &p->run[r].rec;
                if (p->run[r].validation) {
                    S->evals++;
                    rc = mech_calib_simulate(p, r, R->x, &S->tr[r], err);
                    for (int c = 0; c < Rc->nch && rc == HY_OK; c++) {
                        /* the sensor's fitted gain: the fit run's channel of the same name */
                        double g = 1;
                        for (int q = 0; q < p->nrun; q++)
                            for (int d = 0; !p->run[q].validation && d < p->run[q].rec.nch; d++)
                                if (strcmp(p->run[q].rec.name[d], Rc->name[c]) == 0 && S->rw[q][d].jg >= 0 &&
                                    g == 1)
                                    g = 1 + S->rw[q][d].gain_sd * th[S->rw[q][d].jg];
                        hy_err e2;
                        double tau = mech_calib_align(Rc, &S->tr[r], c, p->offset_max, &e2);
                        chstat(Rc, &S->tr[r], c, tau, g, 0, Rc->n, S->rw[r][c].sigma, &R->ch[r][c]);
                        R->ch[r][c].offset_se = R->ch[r][c].gain_se = NAN;
                    }
                    continue;
                }
                for (int c = 0; c < Rc->nch; c++) {
                    const rows *rw = &S->rw[r][c];
                    double tau = rw->tau0 + p->offset_window * sin(th[rw->jt]);
                    double g = rw->jg >= 0 ? 1 + rw->gain_sd * th[rw->jg] : 1;
                    chstat(Rc, &S->tr[r], c, tau, g, rw->i0, rw->i1, rw->sigma, &R->ch[r][c]);
                    R->ch[r][c].offset_se =
                        ok ? fabs(D[rw->jt]) * sqrt(R->s2 * gsl_matrix_get(cov, (size_t)rw->jt, (size_t)rw->jt)) : NAN;
                    R->ch[r][c].gain_se = rw->jg < 0 ? 0
                        : ok ? rw->gain_sd * sqrt(R->s2 * gsl_matrix_get(cov, (size_t)rw->jg, (size_t)rw->jg)) : NAN;
                }
            }
        }
    }
    R->evaluations = S->evals;
    if (w)
        gsl_multifit_nlinear_free(w);
    if (cov)
        gsl_matrix_free(cov);
    for (int r = 0; r < MECH_CALIB_RUNS_MAX; r++) {
        mech_calib_trace_free(&S->tr[r]);
        mech_calib_trace_free(&S->tmp[r]);
    }
    free(S->res);
    free(S);
    return rc;
}

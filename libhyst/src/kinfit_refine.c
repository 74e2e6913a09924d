/* Optional refinement of a kinematic-ODE fit beyond the paper (spec 002 §6.3 item 3, issue 5): the kept
 * coefficients are adjusted by Levenberg-Marquardt to minimise the integrated-trajectory error itself, i.e. the
 * residuals (f_model(q_i) - f_i) / (span sqrt(n)) whose sum of squares is NRMSE^2. The model force comes from the
 * same element drive as the score; the Jacobian is by forward differences (one drive per coefficient); the
 * damped step solves (J'J + lambda diag(J'J)) d = -J'r by Cholesky (LAPACK). A step is accepted only when it
 * lowers the error, integrates over the whole record and keeps the branches attracting when they were. The
 * parameters are the scaled coefficients C~ of Stage B, so that they are all of comparable size. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/kinfit.h"
#include "hyst/linalg.h"

#define MAXP (2 * HY_KINFIT_NTERMS)

typedef struct lm_ctx {
    hy_kin_spec             spec;       /* template: rule, range, masks' shape                                */
    const hy_kinfit_points *p;
    const double           *q, *f;
    size_t                  n;
    double                  q_s, f_s, norm;   /* norm = 1 / (span sqrt(n))                                     */
    int                     np, set[MAXP], term[MAXP];
    int                     need_attract;
} lm_ctx;

// (context, scaled parameters) => spec with the unscaled coefficients (spec 002 §6.1 item 2)
static void to_spec(const lm_ctx *c, const double *th, hy_kin_spec *s)
{
    *s = c->spec;
    for (int a = 0; a < c->np; a++) {
        int i = c->term[a] / HY_KIN_MAX, j = c->term[a] % HY_KIN_MAX;
        hy_kin_coeffs *C = c->set[a] ? &s->unload : &s->load;
        C->C[i][j] = th[a] / (pow(c->q_s, i + 1) * pow(c->f_s, j - 1));
    }
}

/* (context, parameters) => residuals r[n] (model force buffer), cost = |r|^2; returns 0 when the candidate does
 * not integrate or breaks attraction */
static int residuals(const lm_ctx *c, const double *th, double *r, double *cost, hy_err *err, int *rc)
{
    hy_kin_spec s;
    to_spec(c, th, &s);
    *rc = HY_OK;
    if (c->need_attract) {
        hy_kinfit_checks ck;
        hy_kinfit_check_attraction(&s, c->p, &ck);
        if (!ck.attract_ok)
            return 0;
    }
    hy_kinfit_score sc;
    *rc = hy_kinfit_score_spec(&s, c->q, c->f, c->n, r, &sc, err);
    if (*rc != HY_OK || !sc.ok)
        return 0;
    double ss = 0.0;
    for (size_t i = 0; i < c->n; i++) {
        r[i] = (r[i] - c->f[i]) * c->norm;
        ss += r[i] * r[i];
    }
    *cost = ss;
    return 1;
}

// (result, points, record, options) => coefficients refined by Levenberg-Marquardt on the integrated error
int hy_kinfit_refine(hy_kinfit_result *r, const hy_kinfit_points *p, const double *q, const double *f, size_t n,
                     const hy_kinfit_opts *o, hy_err *err)
{
    r->refined = 0;
    r->refine_iter = 0;
    if (!r->score.ok)
        return HY_OK;   /* nothing to start from: the selected law does not integrate */
    lm_ctx c = {.spec = r->spec, .p = p, .q = q, .f = f, .n = n, .q_s = r->q_s, .f_s = r->f_s};
    double flo = INFINITY, fhi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        flo = fmin(flo, f[i]);
        fhi = fmax(fhi, f[i]);
    }
    c.norm = 1.0 / ((fhi - flo) * sqrt((double)n));
    double th[MAXP];
    for (int s = 0; s < (r->spec.rule == HY_KIN_TWO_SET ? 2 : 1); s++) {
        hy_kinfit_mask mask = s ? r->mask_unload : r->mask_load;
        const hy_kin_coeffs *C = s ? &r->spec.unload : &r->spec.load;
        for (int t = 0; t < HY_KINFIT_NTERMS; t++)
            if (mask >> t & 1) {
                int i = t / HY_KIN_MAX, j = t % HY_KIN_MAX;
                c.set[c.np] = s;
                c.term[c.np] = t;
                th[c.np++] = C->C[i][j] * pow(c.q_s, i + 1) * pow(c.f_s, j - 1);
            }
    }
    hy_kinfit_checks ck0;
    hy_kinfit_check_attraction(&r->spec, p, &ck0);
    c.need_attract = ck0.attract_ok;
    size_t np = (size_t)c.np;
    double *res = malloc(n * sizeof *res), *rt = malloc(n * sizeof *rt), *J = malloc(n * np * sizeof *J);
    if (!res || !rt || !J) {
        free(res);
        free(rt);
        free(J);
        return hy_err_set(err, HY_ENOMEM, "refinement: out of memory (%zu x %zu Jacobian)", n, np);
    }
    int rc = HY_OK;
    double cost = 0.0, lambda = 1e-3;
    if (!residuals(&c, th, res, &cost, err, &rc)) {
        free(res);
        free(rt);
        free(J);
        return rc;
    }
    double A[MAXP * MAXP], Al[MAXP * MAXP], g[MAXP], gl[MAXP], d[MAXP], tt[MAXP];
    for (int it = 0; it < o->refine_iter && rc == HY_OK; it++) {
        /* forward-difference Jacobian, one drive per parameter (backward when forward fails) */
        for (size_t a = 0; a < np; a++) {
            memcpy(tt, th, np * sizeof *tt);
            double h = 1e-6 * fmax(fabs(th[a]), 1.0), ct;
            tt[a] = th[a] + h;
            int okf = residuals(&c, tt, rt, &ct, err, &rc);
            if (!okf && rc == HY_OK) {
                h = -h;
                tt[a] = th[a] + h;
                okf = residuals(&c, tt, rt, &ct, err, &rc);
            }
            if (rc != HY_OK)
                break;
            for (size_t i = 0; i < n; i++)
                J[i * np + a] = okf ? (rt[i] - res[i]) / h : 0.0;
        }
        if (rc != HY_OK)
            break;
        double dmax = 0.0;
        for (size_t a = 0; a < np; a++) {
            double sg = 0.0;
            for (size_t i = 0; i < n; i++)
                sg += J[i * np + a] * res[i];
            g[a] = sg;
            for (size_t b = 0; b <= a; b++) {
                double s = 0.0;
                for (size_t i = 0; i < n; i++)
                    s += J[i * np + a] * J[i * np + b];
                A[a * np + b] = A[b * np + a] = s;
            }
            dmax = fmax(dmax, A[a * np + a]);
        }
        if (!(dmax > 0))
            break;
        int accepted = 0;
        double new_cost = cost;
        for (int tries = 0; tries < 12 && !accepted; tries++, lambda *= 10.0) {
            memcpy(Al, A, np * np * sizeof *A);
            for (size_t a = 0; a < np; a++) {
                Al[a * np + a] += lambda * fmax(A[a * np + a], 1e-12 * dmax);
                gl[a] = -g[a];
            }
            hy_err e2;
            if (hy_solve_spd(Al, np, gl, d, &e2) != HY_OK) {
                memcpy(Al, A, np * np * sizeof *A);
                for (size_t a = 0; a < np; a++) {
                    Al[a * np + a] += lambda * fmax(A[a * np + a], 1e-12 * dmax);
                    gl[a] = -g[a];
                }
                if (hy_solve_lu(Al, np, gl, d, &e2) != HY_OK)
                    continue;
            }
            for (size_t a = 0; a < np; a++)
                tt[a] = th[a] + d[a];
            double ct;
            if (residuals(&c, tt, rt, &ct, err, &rc) && ct < cost) {
                accepted = 1;
                new_cost = ct;
                memcpy(th, tt, np * sizeof *th);
                memcpy(res, rt, n * sizeof *res);
                lambda = fmax(lambda / 30.0, 1e-12);   /* the loop's *= 10 follows */
            }
            if (rc != HY_OK)
                break;
        }
        if (!accepted || rc != HY_OK)
            break;
        r->refine_iter = it + 1;
        double gain = (cost - new_cost) / cost;
        cost = new_cost;
        if (gain < 1e-6)
            break;
    }
    if (rc == HY_OK && r->refine_iter > 0) {
        hy_kin_spec s;
        to_spec(&c, th, &s);
        hy_kinfit_score sc;
        rc = hy_kinfit_score_spec(&s, q, f, n, NULL, &sc, err);
        if (rc == HY_OK && sc.ok && sc.nrmse < r->score.nrmse) {
            r->spec = s;
            r->score = sc;
            r->refined = 1;
        }
    }
    free(res);
    free(rt);
    free(J);
    return rc;
}

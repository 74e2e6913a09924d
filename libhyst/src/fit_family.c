/* Identification of the Bouc-Wen, BWBN and Iwan families by nonlinear least squares on the replayed force
 * (docs/fit-families.md). Each family maps an unbounded vector theta to a valid model (the bounds transform):
 *
 *   Bouc-Wen (A = 1): k = e^t0, alpha = 0.99 s(t1), z_y = e^t2, r = gamma / beta = 0.999 tanh(t3),
 *                     n = 1 + 9 s(t4) when fitted; beta = z_y^-n / (1 + r), gamma = r beta (so z_u = z_y)
 *   BWBN:             Bouc-Wen's t0..t4 (n always fitted), delta_nu = e^t5 / E0, delta_eta = e^t6 / E0,
 *                     zeta_s = 0.99 s(t7), pinch_p = e^t8 / E0, pinch_q = 0.95 s(t9), psi = e^t10;
 *                     lambda = HY_FAMFIT_BWBN_LAMBDA, delta_A = delta_psi = 0 (E0 = peak |Q| x peak |q|, the
 *                     energy scale); started from the Bouc-Wen fit of the same record (docs/bw-model.md §Pinching)
 *   Iwan (Segalman):  F_S = e^t0, K_T = e^t1, chi = -0.99 + 1.98 s(t2), beta = e^t3, k_inf = e^t4
 *   peak-oriented:    k = e^t0, F_y = e^t1, alpha = 0.99 s(t2), kappa = s(t3) (docs/clough-model.md)
 *
 * with s the logistic function. The initial guess comes from the measured loops: the elastic stiffness k0 is the
 * median slope of the first tenth of every major unloading branch, F0 and q0 the largest force and displacement
 * (the backbone's tip). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/bw.h"
#include "hyst/clough.h"
#include "hyst/famfit.h"
#include "hyst/iwan.h"
#include "hyst/noise.h"
#include "bw_internal.h"

#define FIT_SUBSTEP_FRAC 0.05 /* Bouc-Wen RK4 sub-step while iterating (n != 1): ~1e-6 relative, below any noise */

void hy_famfit_opts_default(hy_famfit_opts *o)
{
    memset(o, 0, sizeof *o);
    o->family = HY_FAMFIT_BW;
    o->bw_n = 0;
    o->iwan_N = 0;  /* chosen from 32 by doubling (iwan_auto) */
    o->starts = 3;
    o->max_iter = 200;
    o->energy_tol = 0.10;
    hy_loops_opts_default(&o->loops);
}

int hy_famfit_family_parse(const char *name)
{
    return strcmp(name, "bw") == 0     ? HY_FAMFIT_BW
         : strcmp(name, "iwan") == 0 ? HY_FAMFIT_IWAN
         : strcmp(name, "bwbn") == 0 ? HY_FAMFIT_BWBN
         : strcmp(name, "clough") == 0 ? HY_FAMFIT_CLOUGH
                                     : -1;
}

static double sgm(double x) { return 1.0 / (1.0 + exp(-x)); }
static double logit(double p) { return log(p / (1 - p)); }

typedef struct fit_ctx {
    const double *q, *Q;
    size_t n;
    const hy_famfit_opts *o;
    int np;          /* theta size */
    double n_fixed;  /* Bouc-Wen n when not fitted */
    int final;       /* 1: build the model with the default (accurate) sub-step */
    double E0;       /* BWBN: energy scale of the rates (peak |Q| x peak |q|) */
    double base[HY_FAMFIT_PMAX]; /* BWBN: the Bouc-Wen solution the starts add pinching to (t0..t4) */
    double h_fit;    /* BWBN: RK4 sub-step in q while iterating, fixed for the whole fit (smooth residuals) */
} fit_ctx;

#define BWBN_NP 11

// (theta, exponent n) => the Bouc-Wen parameters k, alpha, beta, gamma, n in v[0..4] (shared by bw and bwbn)
static void bw_to_phys(const double *t, double n, double *v)
{
    double zy = exp(t[2]), r = 0.999 * tanh(t[3]);
    double beta = pow(zy, -n) / (1 + r);
    v[0] = exp(t[0]);
    v[1] = 0.99 * sgm(t[1]);
    v[2] = beta;
    v[3] = r * beta;
    v[4] = n;
}

// (theta) => reported parameters
static int to_phys(const fit_ctx *c, const double *t, double *v)
{
    if (c->o->family == HY_FAMFIT_BWBN) {
        bw_to_phys(t, 1 + 9 * sgm(t[4]), v);
        v[5] = exp(t[5]) / c->E0;   /* delta_nu, delta_eta, zeta_s, pinch_p, pinch_q, psi (file comment) */
        v[6] = exp(t[6]) / c->E0;
        v[7] = 0.99 * sgm(t[7]);
        v[8] = exp(t[8]) / c->E0;
        v[9] = 0.95 * sgm(t[9]);
        v[10] = exp(t[10]);
        return BWBN_NP;
    }
    if (c->o->family == HY_FAMFIT_BW) {
        bw_to_phys(t, c->np == 5 ? 1 + 9 * sgm(t[4]) : c->n_fixed, v);
        return c->np == 5 ? 5 : 4;
    }
    if (c->o->family == HY_FAMFIT_CLOUGH) {
        v[0] = exp(t[0]);
        v[1] = exp(t[1]);
        v[2] = 0.99 * sgm(t[2]);
        v[3] = sgm(t[3]);
        return 4;
    }
    v[0] = exp(t[0]);
    v[1] = exp(t[1]);
    v[2] = -0.99 + 1.98 * sgm(t[2]);
    v[3] = exp(t[3]);
    v[4] = exp(t[4]);
    return 5;
}

static const char *const bw_names[] = {"k", "alpha", "beta", "gamma", "n"};
static const char *const iwan_names[] = {"F_S", "K_T", "chi", "beta", "k_inf"};
static const char *const clough_names[] = {"k", "F_y", "alpha", "kappa"};
static const char *const bwbn_names[] = {"k", "alpha", "beta", "gamma", "n", "delta_nu", "delta_eta",
                                         "zeta_s", "pinch_p", "pinch_q", "psi"};

static const char *const *fam_names(int family)
{
    return family == HY_FAMFIT_BW       ? bw_names
         : family == HY_FAMFIT_BWBN     ? bwbn_names
         : family == HY_FAMFIT_CLOUGH ? clough_names
                                        : iwan_names;
}

/* (theta) => 1 for each reported parameter whose transform has saturated: the value sits at a bound of its range
 * (alpha, n, zeta_s, pinch_q at an end of their logistic, r at +-1, a rate or an Iwan scale that vanished), where
 * the delta-method standard error says nothing (docs/fit-families.md "Parameters at a bound") */
static void bounds_hit(const fit_ctx *c, const double *t, const double *v, int *hit)
{
    const double L = 9.2; /* |theta| of a logistic beyond which s is within 1e-4 of 0 or 1 */
    for (int i = 0; i < HY_FAMFIT_PMAX; i++)
        hit[i] = 0;
    if (c->o->family == HY_FAMFIT_CLOUGH) {
        hit[2] = fabs(t[2]) > L;                          /* alpha at 0 or 0.99 */
        hit[3] = fabs(t[3]) > L;                          /* kappa at 0 or 1 (no pinching) */
        return;
    }
    if (c->o->family == HY_FAMFIT_IWAN) {
        hit[2] = fabs(t[2]) > L;                          /* chi at -0.99 or 0.99 */
        hit[4] = v[4] < 1e-6 * v[1];                      /* k_inf vanished against K_T */
        return;
    }
    hit[1] = t[1] < -L || t[1] > L;                       /* alpha at 0 or 0.99 */
    hit[3] = fabs(tanh(t[3])) > 0.9999;                   /* gamma at +-beta */
    if (c->np >= 5)
        hit[4] = t[4] < -L || t[4] > L;                   /* n at 1 or 10 */
    if (c->o->family == HY_FAMFIT_BWBN) {
        hit[5] = v[5] * c->E0 < 1e-4;                     /* a degradation rate at 0 */
        hit[6] = v[6] * c->E0 < 1e-4;
        hit[7] = t[7] < -L || t[7] > L;                   /* zeta_s at 0 or 0.99 */
        hit[8] = v[8] * c->E0 < 1e-4;
        hit[9] = t[9] < -L || t[9] > L;                   /* pinch_q at 0 or 0.95 */
    }
}

// (theta) => model
static int make_model(const fit_ctx *c, const double *t, hy_model *m, hy_err *err)
{
    memset(m, 0, sizeof *m);
    double v[HY_FAMFIT_PMAX];
    to_phys(c, t, v);
    if (c->o->family == HY_FAMFIT_BWBN) {
        hy_bw_params p = {.k = v[0], .alpha = v[1], .A = 1, .beta = v[2], .gamma = v[3], .n = v[4],
                          .delta_nu = v[5], .delta_eta = v[6], .zeta_s = v[7], .pinch_p = v[8], .pinch_q = v[9],
                          .psi = v[10], .lambda = HY_FAMFIT_BWBN_LAMBDA};
        m->type = HY_MODEL_BW;
        int rc = hy_bw_model_new(&p, &m->bw, err);
        if (rc == HY_OK && !c->final)
            hy_bw_model_set_substep(m->bw, c->h_fit);
        return rc;
    }
    if (c->o->family == HY_FAMFIT_BW) {
        hy_bw_params p = {.k = v[0], .alpha = v[1], .A = 1, .beta = v[2], .gamma = v[3], .n = v[4]};
        m->type = HY_MODEL_BW;
        int rc = hy_bw_model_new(&p, &m->bw, err);
        if (rc == HY_OK && !c->final)
            hy_bw_model_set_substep_frac(m->bw, FIT_SUBSTEP_FRAC);
        return rc;
    }
    if (c->o->family == HY_FAMFIT_CLOUGH) {
        hy_clough_params p = {.k = v[0], .F_y = v[1], .alpha = v[2], .kappa = v[3]};
        m->type = HY_MODEL_CLOUGH;
        return hy_clough_model_new(&p, &m->clough, err);
    }
    int N = c->o->iwan_N ? c->o->iwan_N : 32;
    hy_iwan_segalman s = {.F_S = v[0], .K_T = v[1], .chi = v[2], .beta = v[3], .N = N};
    m->type = HY_MODEL_IWAN;
    return hy_iwan_model_segalman(&s, v[4], &m->iwan, err);
}

static int resid(const double *t, double *r, void *vctx)
{
    fit_ctx *c = vctx;
    hy_model m;
    int rc = make_model(c, t, &m, NULL);
    if (rc == HY_OK) {
        hy_element e;
        rc = hy_model_element(&m, &e, NULL);
        if (rc == HY_OK) {
            size_t done;
            hy_diag d;
            rc = hy_element_drive(&e, 0.0, NULL, c->q, c->n, r, NULL, &done, &d);
            hy_element_free(&e);
        }
    }
    hy_model_free(&m);
    if (rc != HY_OK)
        return rc;
    const double *w = c->o->weights;
    for (size_t i = 0; i < c->n; i++)
        r[i] = w ? sqrt(w[i]) * (r[i] - c->Q[i]) : r[i] - c->Q[i];
    return HY_OK;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

// (record, loops) => elastic stiffness: median slope over the first tenth of each major half-cycle after its reversal
static double elastic_stiffness(const double *q, const double *Q, const hy_loops *L)
{
    double *s = malloc((L->n_half + 1) * sizeof *s);
    size_t ns = 0;
    for (size_t h = 0; s && h < L->n_half; h++) {
        const hy_halfcycle *hc = &L->half[h];
        if (h == 0 || hc->range < 0.2 * L->range)
            continue;  /* the virgin branch is not an unloading one */
        size_t i0 = hc->i0, i = i0 + 1;
        while (i < hc->i1 && fabs(q[i] - q[i0]) < 0.1 * hc->range)
            i++;
        /* least-squares slope through the window i0..i */
        double mq = 0, mQ = 0, sqq = 0, sqQ = 0;
        size_t m = i - i0 + 1;
        for (size_t j = i0; j <= i; j++) {
            mq += q[j];
            mQ += Q[j];
        }
        mq /= (double)m;
        mQ /= (double)m;
        for (size_t j = i0; j <= i; j++) {
            sqq += (q[j] - mq) * (q[j] - mq);
            sqQ += (q[j] - mq) * (Q[j] - mQ);
        }
        if (sqq > 0 && sqQ / sqq > 0)
            s[ns++] = sqQ / sqq;
    }
    double k = NAN;
    if (ns) {
        qsort(s, ns, sizeof *s, cmp_dbl);
        k = s[ns / 2];
    }
    free(s);
    return k;
}

// (start index, guess) => theta0
static void start_theta(const fit_ctx *c, int st, double k0, double F0, double q0, double *t)
{
    static const double alpha_s[] = {0.05, 0.15, 0.02, 0.3}, zfac[] = {1.0, 0.6, 1.6, 0.4};
    static const double r_s[] = {0.0, 0.5, -0.3, 0.8}, chi_s[] = {-0.5, -0.2, -0.8, 0.0};
    int s = st % 4;
    if (c->o->family == HY_FAMFIT_BWBN) {
        /* pinching and degradation added to the Bouc-Wen solution; start 2 is nearly Bouc-Wen itself, so the
           family's fit is never worse than Bouc-Wen's from a start it reaches */
        static const double zs[] = {0.5, 0.8, 0.05, 0.3}, pE[] = {1.0, 0.3, 1.0, 3.0}, qp[] = {0.1, 0.05, 0.1, 0.2};
        static const double psf[] = {0.3, 0.5, 0.3, 0.15};
        memcpy(t, c->base, 5 * sizeof *t);
        t[5] = t[6] = log(0.005);
        t[7] = logit(zs[s] / 0.99);
        t[8] = log(pE[s]);
        t[9] = logit(qp[s] / 0.95);
        t[10] = log(psf[s] * exp(c->base[2]));
        return;
    }
    if (c->o->family == HY_FAMFIT_CLOUGH) {
        /* the backbone through the record's tip: F0 = F_y (1 - alpha) + alpha k0 q0; pinching from none to much */
        static const double al[] = {0.05, 0.02, 0.15, 0.005}, ka[] = {0.9, 0.5, 0.25, 0.7};
        double Fy = (F0 - al[s] * k0 * q0) / (1 - al[s]);
        if (!(Fy > 0.05 * F0))
            Fy = 0.05 * F0;
        if (Fy > k0 * q0)
            Fy = 0.5 * k0 * q0;
        t[0] = log(k0);
        t[1] = log(Fy);
        t[2] = logit(al[s] / 0.99);
        t[3] = logit(ka[s]);
        return;
    }
    double a = alpha_s[s];
    double zy = (F0 - a * k0 * q0) / ((1 - a) * k0);
    if (!(zy > 0.02 * q0))
        zy = 0.02 * q0;
    if (zy > q0)
        zy = q0;
    zy *= zfac[s];
    if (c->o->family == HY_FAMFIT_BW) {
        t[0] = log(k0);
        t[1] = logit(a / 0.99);
        t[2] = log(zy);
        t[3] = atanh(r_s[s] / 0.999);
        t[4] = logit((2.0 - 1) / 9);  /* n = 2 when n is fitted */
        return;
    }
    double kinf = a * k0, FS = fmax(F0 - kinf * q0, 0.1 * F0);
    t[0] = log(FS);
    t[1] = log(fmax(k0 - kinf, 0.1 * k0));
    t[2] = logit((chi_s[s] + 0.99) / 1.98);
    t[3] = log(0.1);
    t[4] = log(fmax(kinf, 1e-6 * k0));
}

// (q[n], Q[n], options with iwan_N set) => fitted model, parameters, metrics (one discretisation)
static int fit_once(const double *q, const double *Q, size_t n, const hy_famfit_opts *o, hy_famfit_result *r,
                    hy_err *err)
{
    memset(r, 0, sizeof *r);
    hy_loops L;
    int rc = hy_loops_analyze(q, Q, n, &o->loops, &L, err);
    if (rc != HY_OK)
        return rc;
    double k0 = elastic_stiffness(q, Q, &L), F0 = 0, q0 = 0;
    for (size_t i = 0; i < n; i++) {
        F0 = fmax(F0, fabs(Q[i]));
        q0 = fmax(q0, fabs(q[i]));
    }
    if (L.n_half < 3 || !(k0 > 0) || !(F0 > 0) || !(q0 > 0)) {
        size_t nh = L.n_half; /* read before the loops are freed (the message said "0 half-cycles" otherwise) */
        hy_loops_free(&L);
        return hy_err_set(err, HY_EDATA, "no usable loop: %zu half-cycles, unloading stiffness %g (the fit needs "
                          "at least one reversal after the first loading)", nh, k0);
    }
    r->k0 = k0;
    r->F0 = F0;
    r->q0 = q0;
    fit_ctx c = {q, Q, n, o, 0, o->bw_n > 0 ? o->bw_n : 1.0, 0, F0 * q0, {0}, 0.0};
    c.np = o->family == HY_FAMFIT_BW || o->family == HY_FAMFIT_CLOUGH ? 4 : o->family == HY_FAMFIT_BWBN ? BWBN_NP : 5;
    if (o->family == HY_FAMFIT_BWBN && !o->theta0) {
        /* the Bouc-Wen fit of the same record (same weights) is the base the pinching starts add to */
        hy_famfit_opts ob = *o;
        ob.family = HY_FAMFIT_BW;
        hy_famfit_result rb;
        rc = hy_famfit_run(q, Q, n, &ob, &rb, err);
        if (rc != HY_OK) {
            hy_loops_free(&L);
            return rc;
        }
        memcpy(c.base, rb.theta, sizeof c.base);
        if (rb.ntheta == 4)
            c.base[4] = logit(0.2 / 9); /* n = 1.2: off its bound, so that it can move */
        /* a Bouc-Wen fit of a pinched record often saturates (gamma = beta, a large n, a large alpha: its way of
           making the loops thin); the pinching starts step back from there, where every transform still moves */
        c.base[1] = fmin(fmax(c.base[1], logit(0.01 / 0.99)), logit(0.2 / 0.99));
        c.base[3] = fmin(fmax(c.base[3], atanh(-0.8 / 0.999)), atanh(0.8 / 0.999));
        c.base[4] = fmin(c.base[4], logit(2.0 / 9));
        hy_famfit_result_free(&rb);
    }
    if (o->family == HY_FAMFIT_BWBN) {
        /* one sub-step for the whole fit (and for each bootstrap refit): h = 0.01 z_y, z_y the yield length of
           the start, about an eighth of the narrowest pinch the starts begin with (psi lambda = 0.075 z_y); fixed,
           so that no sample's number of sub-steps jumps with the parameters (a jump of ~1e-6 would swamp the
           finite-difference Jacobian). The final model is replayed with the accurate default. */
        double zy = exp(o->theta0 ? o->theta0[2] : c.base[2]);
        c.h_fit = 0.02 * zy * HY_FAMFIT_BWBN_LAMBDA;
    }
    hy_nlls_result best, R;
    best.cost = INFINITY;
    best.converged = 0;
    int have = 0;
    char last[HY_MSG_LEN] = "";
    if (o->theta0 && o->family == HY_FAMFIT_BW && o->bw_n == 0)
        c.np = 5;  /* a bootstrap refit of a model whose n was fitted */
    for (int s = 0; s < (o->theta0 ? 1 : o->starts); s++) {
        double t0[HY_FAMFIT_PMAX];
        if (o->theta0)
            memcpy(t0, o->theta0, sizeof t0);
        else
            start_theta(&c, s, k0, F0, q0, t0);
        hy_err e2;
        if (hy_nlls_solve(n, c.np, resid, &c, t0, o->max_iter, &R, &e2) != HY_OK) {
            snprintf(last, sizeof last, "%s", e2.msg);
            continue;
        }
        r->starts_run++;
        r->starts_converged += R.converged;
        r->iterations += R.iterations;
        if (!have || (R.converged && !best.converged) || (R.converged == best.converged && R.cost < best.cost)) {
            best = R;
            have = 1;
        }
    }
    /* Bouc-Wen with n fitted: n becomes a fifth parameter (RK4 sub-steps), started from the best n = 1 solution
       with n = 1.5 and from the first guess with n = 2 */
    if (have && o->family == HY_FAMFIT_BW && o->bw_n == 0 && !o->theta0) {
        hy_nlls_result b5;
        b5.cost = INFINITY;
        b5.converged = 0;
        c.np = 5;
        for (int s = 0; s < 2; s++) {
            double t0[HY_FAMFIT_PMAX];
            if (s == 0) {
                memcpy(t0, best.theta, sizeof t0);
                t0[4] = logit(0.5 / 9);
            } else {
                start_theta(&c, 0, k0, F0, q0, t0);
            }
            hy_err e2;
            if (hy_nlls_solve(n, 5, resid, &c, t0, o->max_iter, &R, &e2) != HY_OK)
                continue;
            r->starts_run++;
            r->starts_converged += R.converged;
            r->iterations += R.iterations;
            if ((R.converged && !b5.converged) || (R.converged == b5.converged && R.cost < b5.cost))
                b5 = R;
        }
        if (b5.cost < best.cost && (b5.converged || !best.converged)) {
            best = b5;
        } else {
            c.np = 4;
            c.n_fixed = 1.0;
        }
    }
    if (!have) {
        hy_loops_free(&L);
        return hy_err_set(err, HY_ENUMERIC, "no start could be evaluated: %s", last);
    }
    double v[HY_FAMFIT_PMAX];
    int np = to_phys(&c, best.theta, v);
    if (!best.converged) {
        char buf[300];
        int len = 0;
        for (int j = 0; j < np && len < (int)sizeof buf - 40; j++)
            len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%s = %.6g", j ? ", " : "",
                            fam_names(o->family)[j], v[j]);
        hy_loops_free(&L);
        return hy_err_set(err, HY_ENUMERIC, "the fit did not converge (%s after %d iterations); last state: %s, "
                          "sum of squares %.6g", best.reason, best.iterations, buf, best.cost);
    }
    /* standard errors: cov_phys = G cov_theta G', G = d phys / d theta by central differences */
    double G[HY_FAMFIT_PMAX][HY_FAMFIT_PMAX];
    for (int j = 0; j < c.np; j++) {
        double tp[HY_FAMFIT_PMAX], tm[HY_FAMFIT_PMAX], vp[HY_FAMFIT_PMAX], vm[HY_FAMFIT_PMAX], h = 1e-6;
        memcpy(tp, best.theta, sizeof tp);
        memcpy(tm, best.theta, sizeof tm);
        tp[j] += h;
        tm[j] -= h;
        to_phys(&c, tp, vp);
        to_phys(&c, tm, vm);
        for (int i = 0; i < np; i++)
            G[i][j] = (vp[i] - vm[i]) / (2 * h);
    }
    r->np = np;
    bounds_hit(&c, best.theta, v, r->at_bound);
    for (int i = 0; i < np; i++) {
        double s2 = 0;
        for (int a = 0; a < c.np; a++)
            for (int b = 0; b < c.np; b++)
                s2 += G[i][a] * best.cov[a * c.np + b] * G[i][b];
        r->name[i] = fam_names(o->family)[i];
        r->value[i] = v[i];
        r->se[i] = sqrt(fmax(s2, 0));
    }
    r->cost = best.cost;
    r->elements = o->family == HY_FAMFIT_IWAN ? (o->iwan_N ? o->iwan_N : 32) : 0;
    r->disc_change = NAN;
    r->ntheta = c.np;
    memcpy(r->theta, best.theta, sizeof r->theta);
    c.final = 1;
    rc = make_model(&c, best.theta, &r->model, err);
    double *Qm = rc == HY_OK ? malloc(n * sizeof *Qm) : NULL;
    if (rc == HY_OK && !Qm)
        rc = hy_err_set(err, HY_ENOMEM, "out of memory");
    if (rc == HY_OK) {
        size_t row;
        hy_diag d;
        rc = hy_replay_drive(&r->model, NULL, q, n, Qm, NULL, &row, &d, err);
    }
    if (rc == HY_OK)
        rc = hy_replay_metrics_compute(q, Q, Qm, n, L.cyc, L.n_cyc, &r->metrics, err);
    free(Qm);
    hy_loops_free(&L);
    if (rc != HY_OK)
        hy_famfit_result_free(r);
    return rc;
}

#define IWAN_N0 32
#define IWAN_DISC_SE 0.1 /* the elements are doubled until no parameter moves by this many standard errors */

/* (q[n], Q[n], options) => fitted model. Iwan with iwan_N = 0: the Segalman discretisation's bias shrinks as N
 * grows, so N is doubled from 32 (each refit started from the last solution) until no parameter moves by more than
 * IWAN_DISC_SE of its standard error; the finer fit is kept, whose own bias is then below that change (it shrinks
 * with N). Capped at HY_IWAN_MAX, where the last change is reported (disc_change). */
int hy_famfit_run(const double *q, const double *Q, size_t n, const hy_famfit_opts *o, hy_famfit_result *r,
                  hy_err *err)
{
    memset(r, 0, sizeof *r);
    int rc = hy_record_check(q, Q, n, &o->loops, 1, err); /* constant force, no closed loop: refused */
    if (rc != HY_OK)
        return rc;
    if (o->family != HY_FAMFIT_IWAN || o->iwan_N > 0)
        return fit_once(q, Q, n, o, r, err);
    hy_famfit_opts oi = *o;
    oi.iwan_N = IWAN_N0;
    rc = fit_once(q, Q, n, &oi, r, err);
    while (rc == HY_OK && oi.iwan_N * 2 <= HY_IWAN_MAX) {
        hy_famfit_opts o2 = oi;
        o2.iwan_N = oi.iwan_N * 2;
        o2.theta0 = r->theta;
        hy_famfit_result r2;
        hy_err e2;
        if (fit_once(q, Q, n, &o2, &r2, &e2) != HY_OK)
            break; /* keep the coarser fit; its disc_change stays NaN: not established */
        double ch = 0;
        for (int i = 0; i < r2.np; i++)
            if (!r->at_bound[i] && r->se[i] > 0)
                ch = fmax(ch, fabs(r2.value[i] - r->value[i]) / r->se[i]);
        r2.starts_run += r->starts_run;
        r2.starts_converged += r->starts_converged;
        r2.iterations += r->iterations;
        r2.disc_change = ch;
        hy_famfit_result_free(r);
        *r = r2;
        oi.iwan_N = o2.iwan_N;
        if (ch < IWAN_DISC_SE)
            break;
    }
    return rc;
}

void hy_famfit_result_free(hy_famfit_result *r)
{
    hy_model_free(&r->model);
    hy_replay_metrics_free(&r->metrics);
}

// (metrics, tol) => cycles off by more than tol, worst first
size_t hy_energy_outliers(const hy_replay_metrics *M, double tol, size_t *worst, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < M->n_cyc; i++) {
        double d = fabs(M->cyc[i].energy_ratio - 1);
        if (!isfinite(d) || d <= tol)
            continue;
        /* insertion into the worst-first list */
        size_t pos = k < max ? k : max;
        while (pos > 0 && fabs(M->cyc[worst[pos - 1]].energy_ratio - 1) < d) {
            if (pos < max)
                worst[pos] = worst[pos - 1];
            pos--;
        }
        if (pos < max)
            worst[pos] = i;
        k++;
    }
    return k;
}

static int cmp_d(const void *a, const void *b) { return cmp_dbl(a, b); }

// (x[n]) => autocovariance at lag k (mean removed)
static double acov(const double *x, size_t n, double mean, size_t k)
{
    double s = 0;
    for (size_t i = 0; i + k < n; i++)
        s += (x[i] - mean) * (x[i + k] - mean);
    return s / (double)n;
}

// flat-top (trapezoid) lag window of Politis & Romano
static double flat_top(double t)
{
    t = fabs(t);
    return t <= 0.5 ? 1.0 : t <= 1.0 ? 2.0 * (1.0 - t) : 0.0;
}

/* Politis & White (2004) automatic block length for the circular block bootstrap, as corrected by Patton, Politis
 * & White (2009): m = the smallest lag after which K_N autocorrelations in a row are insignificant
 * (|rho| < 2 sqrt(log10 n / n)), M = 2 m, G = sum_{|k|<=M} lambda(k/M) |k| R(k), D = (4/3) (sum lambda(k/M) R(k))^2,
 * b = (2 G^2 / D)^(1/3) n^(1/3). */
size_t hy_block_length(const double *x, size_t n)
{
    if (n < 20)
        return 1;
    double mean = 0;
    for (size_t i = 0; i < n; i++)
        mean += x[i];
    mean /= (double)n;
    double r0 = acov(x, n, mean, 0);
    if (!(r0 > 0))
        return 1;
    size_t kn = (size_t)fmax(5.0, sqrt(log10((double)n)));
    size_t mmax = (size_t)ceil(sqrt((double)n)) + kn, lim = n / 4;
    if (mmax > lim)
        mmax = lim;
    double c = 2.0 * sqrt(log10((double)n) / (double)n);
    size_t m = mmax, run = 0;
    for (size_t k = 1; k <= mmax; k++) {
        run = fabs(acov(x, n, mean, k) / r0) < c ? run + 1 : 0;
        if (run == kn) {
            m = k - kn;
            break;
        }
    }
    size_t M = 2 * m;
    if (M > lim)
        M = lim;
    double G = 0, S = r0;
    for (size_t k = 1; k <= M; k++) {
        double w = M ? flat_top((double)k / (double)M) : 0.0, R = acov(x, n, mean, k);
        G += 2.0 * w * (double)k * R;
        S += 2.0 * w * R;
    }
    double D = 4.0 / 3.0 * S * S;
    double b = D > 0 ? pow(2.0 * G * G / D, 1.0 / 3.0) * cbrt((double)n) : 1.0;
    size_t bl = b < 1 || !isfinite(b) ? 1 : (size_t)llround(b);
    return bl > n / 10 ? (n / 10 ? n / 10 : 1) : bl;
}

// (values[n]) => the p-quantile (linear interpolation between order statistics); values are sorted in place
static double quantile(double *v, int n, double p)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    double x = p * (n - 1);
    int i = (int)floor(x);
    if (i >= n - 1)
        return v[n - 1];
    return v[i] + (x - i) * (v[i + 1] - v[i]);
}

// (record, options, fit, replicates, seed) => bootstrap intervals
int hy_famfit_bootstrap(const double *q, const double *Q, size_t n, const hy_famfit_opts *o,
                        const hy_famfit_result *fit, int n_rep, uint64_t seed, hy_famfit_boot *B, hy_err *err)
{
    return hy_famfit_bootstrap_models(q, Q, n, o, fit, n_rep, seed, 0, B, err);
}

// (record, options, fit, replicates, seed, keep) => bootstrap intervals and, with keep, the refitted models
int hy_famfit_bootstrap_models(const double *q, const double *Q, size_t n, const hy_famfit_opts *o,
                               const hy_famfit_result *fit, int n_rep, uint64_t seed, int keep, hy_famfit_boot *B,
                               hy_err *err)
{
    return hy_famfit_bootstrap_progress(q, Q, n, o, fit, n_rep, seed, keep, NULL, NULL, B, err);
}

// (as above, progress callback or NULL) => the same, progress called after each replicate
int hy_famfit_bootstrap_progress(const double *q, const double *Q, size_t n, const hy_famfit_opts *o,
                                 const hy_famfit_result *fit, int n_rep, uint64_t seed, int keep,
                                 void (*progress)(void *ctx, int done, int n_rep), void *ctx, hy_famfit_boot *B,
                                 hy_err *err)
{
    memset(B, 0, sizeof *B);
    const hy_replay_metrics *M = &fit->metrics;
    size_t nc = M->n_cyc;
    if (nc < HY_FAMFIT_BOOT_MIN_CYCLES)
        return hy_err_set(err, HY_EDATA, "the bootstrap resamples whole cycles and needs at least %d; the record "
                          "has %zu", HY_FAMFIT_BOOT_MIN_CYCLES, nc);
    if (n_rep < 2)
        return hy_err_set(err, HY_EARG, "bootstrap: %d replicates; at least 2", n_rep);
    double *w = malloc(n * sizeof *w), *Qm = malloc(n * sizeof *Qm);
    B->param = malloc((size_t)n_rep * HY_FAMFIT_PMAX * sizeof *B->param);
    B->energy = malloc((size_t)n_rep * nc * sizeof *B->energy);
    B->e_lo = malloc(nc * sizeof *B->e_lo);
    B->e_hi = malloc(nc * sizeof *B->e_hi);
    double *col = malloc((size_t)n_rep * sizeof *col);
    size_t *cnt = malloc(nc * sizeof *cnt);
    if (keep)
        B->models = calloc((size_t)n_rep, sizeof *B->models);
    if (!w || !Qm || !B->param || !B->energy || !B->e_lo || !B->e_hi || !col || !cnt || (keep && !B->models)) {
        free(w);
        free(Qm);
        free(col);
        free(cnt);
        hy_famfit_boot_free(B);
        return hy_err_set(err, HY_ENOMEM, "bootstrap: out of memory");
    }
    B->n_rep = n_rep;
    B->np = fit->np;
    B->n_cyc = nc;
    hy_rng rng;
    hy_rng_seed(&rng, seed, 22);
    hy_famfit_opts ob = *o;
    ob.weights = w;
    ob.theta0 = fit->theta;
    if (o->family == HY_FAMFIT_BW && o->bw_n == 0 && fit->ntheta == 4)
        ob.bw_n = 1;  /* n was fitted but stayed at 1 (the four-parameter solution was kept) */
    if (o->family == HY_FAMFIT_IWAN)
        ob.iwan_N = fit->elements; /* the discretisation the fit chose */
    /* the block length from the residuals at the fit */
    size_t row;
    hy_diag dg;
    if (hy_replay_drive(&fit->model, NULL, q, n, Qm, NULL, &row, &dg, NULL) != HY_OK) {
        free(w);
        free(Qm);
        free(col);
        free(cnt);
        hy_famfit_boot_free(B);
        return hy_err_set(err, HY_ENUMERIC, "bootstrap: the fitted model cannot be replayed on the record");
    }
    for (size_t i = 0; i < n; i++)
        Qm[i] -= Q[i];
    B->block_len = hy_block_length(Qm, n);
    B->n_blocks = (n + B->block_len - 1) / B->block_len;
    size_t nb = B->n_blocks;
    free(cnt);
    cnt = malloc(nb * sizeof *cnt);
    double *tstat = malloc((size_t)n_rep * HY_FAMFIT_PMAX * sizeof *tstat);
    int *n_t = calloc(HY_FAMFIT_PMAX, sizeof *n_t);
    if (!cnt || !tstat || !n_t) {
        free(w);
        free(Qm);
        free(col);
        free(cnt);
        free(tstat);
        free(n_t);
        hy_famfit_boot_free(B);
        return hy_err_set(err, HY_ENOMEM, "bootstrap: out of memory");
    }
    for (int b = 0; b < n_rep; b++) {
        for (size_t c = 0; c < nb; c++)
            cnt[c] = 0;
        for (size_t c = 0; c < nb; c++)
            cnt[(size_t)(hy_rng_uniform(&rng) * (double)nb) % nb]++;
        for (size_t i = 0; i < n; i++)
            w[i] = (double)cnt[i / B->block_len];
        hy_famfit_result r;
        hy_err e2;
        int frc = hy_famfit_run(q, Q, n, &ob, &r, &e2);
        if (progress)
            progress(ctx, b + 1, n_rep);
        if (frc != HY_OK)
            continue;
        for (int j = 0; j < fit->np; j++) {
            B->param[(size_t)B->n_ok * HY_FAMFIT_PMAX + (size_t)j] = r.value[j];
            /* the studentized statistic of percentile-t: (theta* - theta) / se* */
            if (r.se[j] > 0 && isfinite(r.se[j]) && !r.at_bound[j])
                tstat[(size_t)n_t[j]++ * HY_FAMFIT_PMAX + (size_t)j] = (r.value[j] - fit->value[j]) / r.se[j];
        }
        for (size_t c = 0; c < nc && c < r.metrics.n_cyc; c++)
            B->energy[(size_t)B->n_ok * nc + c] = r.metrics.cyc[c].energy_model;
        if (keep) { /* the model moves into B */
            B->models[B->n_ok] = r.model;
            memset(&r.model, 0, sizeof r.model);
        }
        B->n_ok++;
        hy_famfit_result_free(&r);
    }
    int rc = HY_OK;
    if (B->n_ok < (n_rep + 1) / 2 || B->n_ok < 2) {
        rc = hy_err_set(err, HY_ENUMERIC, "bootstrap: only %d of %d refits converged", B->n_ok, n_rep);
    } else {
        for (int j = 0; j < B->np; j++) {
            if (!fit->at_bound[j] && fit->se[j] > 0 && n_t[j] >= (B->n_ok + 1) / 2 && n_t[j] >= 2) {
                /* percentile-t: [theta - t*_0.95 se, theta - t*_0.05 se] */
                for (int b = 0; b < n_t[j]; b++)
                    col[b] = tstat[(size_t)b * HY_FAMFIT_PMAX + (size_t)j];
                double t95 = quantile(col, n_t[j], 0.95), t05 = quantile(col, n_t[j], 0.05);
                B->lo[j] = fit->value[j] - t95 * fit->se[j];
                B->hi[j] = fit->value[j] - t05 * fit->se[j];
                continue;
            }
            for (int b = 0; b < B->n_ok; b++) /* at a bound: no standard error, the percentile interval */
                col[b] = B->param[(size_t)b * HY_FAMFIT_PMAX + (size_t)j];
            B->lo[j] = quantile(col, B->n_ok, 0.05);
            B->hi[j] = quantile(col, B->n_ok, 0.95);
        }
        for (size_t c = 0; c < nc; c++) {
            for (int b = 0; b < B->n_ok; b++)
                col[b] = B->energy[(size_t)b * nc + c];
            B->e_lo[c] = quantile(col, B->n_ok, 0.05);
            B->e_hi[c] = quantile(col, B->n_ok, 0.95);
        }
    }
    free(w);
    free(Qm);
    free(col);
    free(cnt);
    free(tstat);
    free(n_t);
    if (rc != HY_OK)
        hy_famfit_boot_free(B);
    return rc;
}

void hy_famfit_boot_free(hy_famfit_boot *B)
{
    for (int i = 0; B->models && i < B->n_ok; i++)
        hy_model_free(&B->models[i]);
    free(B->models);
    free(B->param);
    free(B->energy);
    free(B->e_lo);
    free(B->e_hi);
    memset(B, 0, sizeof *B);
}

// Stage A of the kinematic-ODE identification: branch points and their slopes xi = df/dq (spec 002 §2.1).
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/kinfit.h"
#include "hyst/linalg.h"

// (o) => defaults (see hyst/kinfit.h)
void hy_kinfit_opts_default(hy_kinfit_opts *o)
{
    memset(o, 0, sizeof *o);
    o->rule = HY_KIN_SYMMETRIC;
    o->k = o->m = 0;
    o->max_k = o->max_m = HY_KIN_MAX;
    o->smooth = HY_KINFIT_SMOOTH_AUTO;
    o->max_degree = 10;
    o->branches = HY_KINFIT_BRANCHES_ALL;
    o->min_branch = 0.05;
    o->rcond = 1e-10;
    o->constrain = 1;
    o->attract_margin = 1.0;
    o->select_tol = 0.05;
    o->select_abs = 1e-4;
    o->prune = 1;
    o->prune_tol = 0.01;
    o->refine = 0;
    o->refine_iter = 30;
    hy_loops_opts_default(&o->loops);
}

// (p) => empty point set
void hy_kinfit_points_init(hy_kinfit_points *p)
{
    memset(p, 0, sizeof *p);
}

// (p) => memory released
void hy_kinfit_points_free(hy_kinfit_points *p)
{
    free(p->q);
    free(p->f);
    free(p->xi);
    free(p->s);
    hy_kinfit_points_init(p);
}

// (p, point) => appended, growing the columns geometrically
int hy_kinfit_points_push(hy_kinfit_points *p, double q, double f, double xi, int s, hy_err *err)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 1024;
        double *nq = realloc(p->q, cap * sizeof *nq);
        if (nq)
            p->q = nq;
        double *nf = realloc(p->f, cap * sizeof *nf);
        if (nf)
            p->f = nf;
        double *nx = realloc(p->xi, cap * sizeof *nx);
        if (nx)
            p->xi = nx;
        signed char *ns = realloc(p->s, cap * sizeof *ns);
        if (ns)
            p->s = ns;
        if (!nq || !nf || !nx || !ns)
            return hy_err_set(err, HY_ENOMEM, "fit kin: out of memory (%zu branch points)", cap);
        p->cap = cap;
    }
    p->q[p->n] = q;
    p->f[p->n] = f;
    p->xi[p->n] = xi;
    p->s[p->n] = (signed char)(s < 0 ? -1 : 1);
    p->n++;
    return HY_OK;
}

/* (branch q[n], f[n], degree or AUTO) => smoothed y and slopes xi. The polynomial is in the branch-local variable
 * t = (q - c) / h in [-1, 1] so that the Vandermonde columns stay well scaled; the fit is a Householder QR of
 * [V | f], whose last column gives the residual of every lower degree at once (nested models), which is what
 * generalized cross-validation needs: GCV(d) = n RSS(d) / (n - d - 1)^2. */
int hy_kinfit_smooth(const double *q, const double *f, size_t n, int degree, int max_degree, double *y, double *xi,
                     int *deg_used, hy_err *err)
{
    int autodeg = degree == HY_KINFIT_SMOOTH_AUTO;
    if (!autodeg && (degree < 1 || degree > HY_KINFIT_MAX_DEGREE))
        return hy_err_set(err, HY_EARG, "smoother degree %d: expected 1..%d", degree, HY_KINFIT_MAX_DEGREE);
    if (autodeg && (max_degree < 1 || max_degree > HY_KINFIT_MAX_DEGREE))
        return hy_err_set(err, HY_EARG, "smoother degree cap %d: expected 1..%d", max_degree, HY_KINFIT_MAX_DEGREE);
    double lo = INFINITY, hi = -INFINITY;
    for (size_t l = 0; l < n; l++) {
        lo = fmin(lo, q[l]);
        hi = fmax(hi, q[l]);
    }
    /* AUTO needs n - d - 1 >= 2 for a meaningful GCV; a fixed degree needs one spare point. */
    /* AUTO also keeps at least 3 points per coefficient: on short branches (a digitised trace, ~10 points) a
     * high-degree interpolant oscillates and its end slopes are worthless even when GCV prefers it */
    int D = autodeg ? max_degree : degree;
    if (autodeg && (size_t)(3 * (D + 1)) > n)
        D = (int)(n / 3) - 1;
    if (D < 1 || (size_t)D + 2 > n)
        return hy_err_set(err, HY_EDATA, "branch of %zu points is too short for a degree-%d smoother", n,
                          autodeg ? 1 : degree);
    if (!(hi > lo))
        return hy_err_set(err, HY_EDATA, "branch has no q-range to smooth over");
    double c = 0.5 * (hi + lo), h = 0.5 * (hi - lo);
    size_t cols = (size_t)D + 2;
    double *A = malloc(n * cols * sizeof *A);
    double *R = malloc(cols * cols * sizeof *R);
    if (!A || !R) {
        free(A);
        free(R);
        return hy_err_set(err, HY_ENOMEM, "smoother: out of memory");
    }
    for (size_t l = 0; l < n; l++) {
        double t = (q[l] - c) / h, tp = 1.0;
        for (int d = 0; d <= D; d++, tp *= t)
            A[l * cols + (size_t)d] = tp;
        A[l * cols + cols - 1] = f[l];
    }
    int rc = hy_kinfit_qr_r(A, n, cols, R, err);
    free(A);
    if (rc != HY_OK) {
        free(R);
        return rc;
    }
    int d_best = D;
    if (autodeg) {
        /* residuals below rounding of |f| count as zero, so exact data keeps the lowest exact degree */
        double ff = 0.0;
        for (size_t r = 0; r < cols; r++)
            ff += R[r * cols + cols - 1] * R[r * cols + cols - 1];
        double floor = 1e-24 * ff, best = INFINITY;
        for (int d = 1; d <= D; d++) {
            double rss = floor;
            for (size_t r = (size_t)d + 1; r < cols; r++)
                rss += R[r * cols + cols - 1] * R[r * cols + cols - 1];
            double dof = (double)n - (double)d - 1.0;
            double gcv = (double)n * rss / (dof * dof);
            if (gcv < best * (1.0 - 1e-12)) {  /* ties go to the lower degree */
                best = gcv;
                d_best = d;
            }
        }
    }
    /* Coefficients of degree d_best: the leading (d+1) columns of R against its last column (exact reduction). */
    size_t p = (size_t)d_best + 1;
    double M[(HY_KINFIT_MAX_DEGREE + 2) * (HY_KINFIT_MAX_DEGREE + 1)], b[HY_KINFIT_MAX_DEGREE + 2],
        a[HY_KINFIT_MAX_DEGREE + 1];
    for (size_t r = 0; r < cols; r++) {
        for (size_t j = 0; j < p; j++)
            M[r * p + j] = R[r * cols + j];
        b[r] = R[r * cols + cols - 1];
    }
    free(R);
    rc = hy_lstsq_svd(M, cols, p, b, -1.0, a, NULL, err);
    if (rc != HY_OK)
        return rc;
    for (size_t l = 0; l < n; l++) {
        double t = (q[l] - c) / h, val = 0.0, der = 0.0;
        for (size_t j = p; j-- > 0;) {   /* Horner for y and y' together */
            der = der * t + val;
            val = val * t + a[j];
        }
        if (y)
            y[l] = val;
        xi[l] = der / h;
    }
    if (deg_used)
        *deg_used = d_best;
    return HY_OK;
}

// (branch q[n], f[n]) => central differences; NaN where the neighbours do not differ in q
size_t hy_kinfit_slopes_fd(const double *q, const double *f, size_t n, double *xi)
{
    size_t good = 0;
    for (size_t l = 0; l < n; l++) {
        size_t a = l > 0 ? l - 1 : l, b = l + 1 < n ? l + 1 : l;
        double dq = q[b] - q[a];
        xi[l] = (b > a && dq != 0.0) ? (f[b] - f[a]) / dq : NAN;
        if (isfinite(xi[l]))
            good++;
    }
    return good;
}

/* (branch points, options, direction) => the branch's points appended to pts with their slopes; a branch the
 * smoother cannot use is counted as skipped, not an error. */
static int add_branch(const double *q, const double *f, size_t n, int dir, const hy_kinfit_opts *o, double *work,
                      hy_kinfit_points *pts, hy_err *err)
{
    double *y = work, *xi = work + n;
    int deg = 0;
    if (o->smooth == HY_KINFIT_SMOOTH_FD) {
        if (hy_kinfit_slopes_fd(q, f, n, xi) < 2) {
            pts->n_skipped++;
            return HY_OK;
        }
        memcpy(y, f, n * sizeof *y);
    } else {
        hy_err e2;
        int rc = hy_kinfit_smooth(q, f, n, o->smooth, o->max_degree, y, xi, &deg, &e2);
        if (rc == HY_EDATA) {
            pts->n_skipped++;
            return HY_OK;
        }
        if (rc != HY_OK) {
            if (err)
                *err = e2;
            return rc;
        }
    }
    for (size_t l = 0; l < n; l++) {
        if (!isfinite(xi[l]) || !isfinite(y[l]))
            continue;
        int rc = hy_kinfit_points_push(pts, q[l], y[l], xi[l], dir, err);
        if (rc != HY_OK)
            return rc;
    }
    if (pts->n_branches == 0 || deg < pts->deg_min)
        pts->deg_min = deg;
    if (pts->n_branches == 0 || deg > pts->deg_max)
        pts->deg_max = deg;
    pts->n_branches++;
    return HY_OK;
}

static int cmp_q(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* (two pieces of a limit branch) => one branch sorted by q (the pieces of several repeated cycles are pooled, as
 * the paper's smoother takes the points of the limit cycle together) */
static int add_limit_branch(const hy_curve *a, const hy_curve *b, int dir, const hy_kinfit_opts *o,
                            hy_kinfit_points *pts, hy_err *err)
{
    size_t n = a->n + b->n;
    if (n == 0)
        return HY_OK;
    double *qf = malloc(2 * n * sizeof *qf), *buf = malloc(4 * n * sizeof *buf);
    if (!qf || !buf) {
        free(qf);
        free(buf);
        return hy_err_set(err, HY_ENOMEM, "fit kin: out of memory");
    }
    for (size_t l = 0; l < a->n; l++) {
        qf[2 * l] = a->q[l];
        qf[2 * l + 1] = a->Q[l];
    }
    for (size_t l = 0; l < b->n; l++) {
        qf[2 * (a->n + l)] = b->q[l];
        qf[2 * (a->n + l) + 1] = b->Q[l];
    }
    qsort(qf, n, 2 * sizeof *qf, cmp_q);
    double *qq = buf, *ff = buf + n;
    for (size_t l = 0; l < n; l++) {
        qq[l] = qf[2 * l];
        ff[l] = qf[2 * l + 1];
    }
    free(qf);
    double *work = malloc(2 * n * sizeof *work);
    int rc = work ? add_branch(qq, ff, n, dir, o, work, pts, err)
                  : hy_err_set(err, HY_ENOMEM, "fit kin: out of memory");
    free(work);
    free(buf);
    return rc;
}

// (record, options) => Stage-B points from the record's branches
int hy_kinfit_collect(const double *q, const double *f, size_t n, const hy_kinfit_opts *o, hy_kinfit_points *pts,
                      hy_err *err)
{
    hy_kinfit_points_init(pts);
    if (n < 4)
        return hy_err_set(err, HY_EDATA, "%zu samples: a kinematic-ODE fit needs at least 4", n);
    double qlo = INFINITY, qhi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        qlo = fmin(qlo, q[i]);
        qhi = fmax(qhi, q[i]);
    }
    if (!(qhi > qlo))
        return hy_err_set(err, HY_EDATA, "the displacement is constant (%g): no branch to fit", qlo);
    hy_loops L;
    memset(&L, 0, sizeof L);
    int rc = hy_loops_analyze(q, f, n, &o->loops, &L, err);
    if (rc != HY_OK)
        return rc;
    if (o->branches == HY_KINFIT_BRANCHES_LIMIT) {
        hy_branches B;
        memset(&B, 0, sizeof B);
        rc = hy_loops_branches(q, f, n, &L, &o->loops, &B, err);
        /* loading (dq/dt > 0): from q_min up through 0 to q_max = backward-negative + forward-positive */
        if (rc == HY_OK)
            rc = add_limit_branch(&B.bwd_neg, &B.fwd_pos, +1, o, pts, err);
        if (rc == HY_OK)
            rc = add_limit_branch(&B.bwd_pos, &B.fwd_neg, -1, o, pts, err);
        hy_branches_free(&B);
    } else {
        double *work = malloc(2 * n * sizeof *work);
        if (!work)
            rc = hy_err_set(err, HY_ENOMEM, "fit kin: out of memory");
        for (size_t h = 0; rc == HY_OK && h < L.n_half; h++) {
            const hy_halfcycle *hc = &L.half[h];
            if (hc->i1 <= hc->i0 || hc->range < o->min_branch * (qhi - qlo)) {
                pts->n_skipped++;
                continue;
            }
            size_t nb = hc->i1 - hc->i0 + 1;
            rc = add_branch(q + hc->i0, f + hc->i0, nb, hc->dir, o, work, pts, err);
        }
        free(work);
    }
    hy_loops_free(&L);
    if (rc == HY_OK && pts->n_branches == 0)
        rc = hy_err_set(err, HY_EDATA,
                        "no usable branch: need a half-cycle spanning at least %g%% of the q-range with enough "
                        "points for the smoother (%zu branches skipped)",
                        100.0 * o->min_branch, pts->n_skipped);
    if (rc != HY_OK)
        hy_kinfit_points_free(pts);
    return rc;
}

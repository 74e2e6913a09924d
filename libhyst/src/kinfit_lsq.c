/* Stage B of the kinematic-ODE identification (spec 002 §2.2, §6.1 item 2): the coefficients C_ij of
 * R(q, f) = sum C_ij q^i f^j (0-based) by linear least squares on the design matrix, not the normal equations.
 *
 * The variables are scaled, q = q_s u and f = f_s v, so that every column u^i v^j lies in [-1, 1]; the scaled law
 * dv/du = sum C~_ij u^i v^j has C~_ij = C_ij q_s^(i+1) f_s^(j-1) (0-based i, j; the spec's 1-based form reads
 * C_ij = C~_ij / (q_s^i f_s^(j-2))). The N x 65 matrix [u^i v^j (i, j < 8) | dv/du] is reduced once by Householder
 * QR; since [A | b] = Q R with orthonormal Q, for ANY subset S of the columns
 *     min |A_S x - b| = min |R_S x - r|,   r the last column of R,
 * exactly, and A_S and R_S have the same singular values. Every candidate (k, m) of the selection and every
 * pruning step is then a 65-row SVD problem instead of an N-row one. */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/kinfit.h"
#include "hyst/linalg.h"

#define NCOL (HY_KINFIT_NTERMS + 1)

// (A rows x cols row-major) => R (min(rows, cols) x cols, upper trapezoidal) by LAPACKE_dgeqrf
int hy_kinfit_qr_r(double *A, size_t rows, size_t cols, double *R, hy_err *err)
{
    size_t kk = rows < cols ? rows : cols;
    double *tau = malloc((kk ? kk : 1) * sizeof *tau);
    if (!tau)
        return hy_err_set(err, HY_ENOMEM, "QR: out of memory");
    lapack_int rc = LAPACKE_dgeqrf(LAPACK_ROW_MAJOR, (lapack_int)rows, (lapack_int)cols, A, (lapack_int)cols, tau);
    free(tau);
    if (rc != 0)
        return hy_err_set(err, rc == LAPACK_WORK_MEMORY_ERROR || rc == LAPACK_TRANSPOSE_MEMORY_ERROR ? HY_ENOMEM
                               : rc < 0 ? HY_EARG : HY_ENUMERIC, "QR: LAPACKE_dgeqrf failed (info %d)", (int)rc);
    for (size_t r = 0; r < kk; r++)
        for (size_t c = 0; c < cols; c++)
            R[r * cols + c] = c >= r ? A[r * cols + c] : 0.0;
    return HY_OK;
}

// (k, m) => mask of the k x m rectangle
hy_kinfit_mask hy_kinfit_mask_rect(int k, int m)
{
    hy_kinfit_mask mask = 0;
    for (int i = 0; i < k && i < HY_KIN_MAX; i++)
        for (int j = 0; j < m && j < HY_KIN_MAX; j++)
            mask |= (hy_kinfit_mask)1 << (i * HY_KIN_MAX + j);
    return mask;
}

// (points, set, scales) => QR-reduced scaled design of all 64 terms and the scaled slopes
int hy_kinfit_design_build(const hy_kinfit_points *p, int set, double q_s, double f_s, hy_kinfit_design *D,
                           hy_err *err)
{
    memset(D, 0, sizeof *D);
    if (!(q_s > 0) || !(f_s > 0) || !isfinite(q_s) || !isfinite(f_s))
        return hy_err_set(err, HY_EDATA, "Stage B: scales q_s = %g, f_s = %g must be positive", q_s, f_s);
    size_t N = 0;
    for (size_t l = 0; l < p->n; l++)
        if (set == 0 || p->s[l] == set)
            N++;
    if (N == 0)
        return hy_err_set(err, HY_EDATA, "Stage B: no %s branch points",
                          set > 0 ? "loading" : set < 0 ? "unloading" : "");
    double *A = malloc(N * NCOL * sizeof *A);
    D->u = malloc(N * sizeof *D->u);
    D->v = malloc(N * sizeof *D->v);
    if (!A || !D->u || !D->v) {
        free(A);
        hy_kinfit_design_free(D);
        return hy_err_set(err, HY_ENOMEM, "Stage B: out of memory (%zu x %d design)", N, NCOL);
    }
    size_t row = 0;
    for (size_t l = 0; l < p->n; l++) {
        if (set != 0 && p->s[l] != set)
            continue;
        /* symmetric rule (spec 002 §1.4): unloading at (q, f) follows the loading law at (-q, -f); the slope
         * df/dq is unchanged by the mapping */
        double mir = (set == 0 && p->s[l] < 0) ? -1.0 : 1.0;
        double u = mir * p->q[l] / q_s, v = mir * p->f[l] / f_s;
        double *a = A + row * NCOL, ui = 1.0;
        for (int i = 0; i < HY_KIN_MAX; i++, ui *= u) {
            double vj = ui;
            for (int j = 0; j < HY_KIN_MAX; j++, vj *= v)
                a[i * HY_KIN_MAX + j] = vj;
        }
        a[NCOL - 1] = p->xi[l] * q_s / f_s;
        D->u[row] = u;
        D->v[row] = v;
        row++;
    }
    D->q_s = q_s;
    D->f_s = f_s;
    D->n = N;
    D->rows = N < NCOL ? N : NCOL;
    /* a law followed with decreasing q attracts where its dR/df > 0 (spec 002 §1.3) */
    D->sigma = set < 0 ? -1 : 1;
    double *R = malloc(D->rows * NCOL * sizeof *R);
    int rc = R ? hy_kinfit_qr_r(A, N, NCOL, R, err) : hy_err_set(err, HY_ENOMEM, "Stage B: out of memory");
    if (rc == HY_OK)
        memcpy(D->R, R, D->rows * NCOL * sizeof *R);
    free(R);
    free(A);
    if (rc != HY_OK)
        hy_kinfit_design_free(D);
    return rc;
}

// (D) => point arrays released
void hy_kinfit_design_free(hy_kinfit_design *D)
{
    free(D->u);
    free(D->v);
    D->u = D->v = NULL;
}

// (mask) => its term indices (i * 8 + j) in cols, their count, and the bounding k, m
static int mask_terms(hy_kinfit_mask mask, int *cols, int *k, int *m)
{
    int nc = 0;
    *k = *m = 0;
    for (int t = 0; t < HY_KINFIT_NTERMS; t++) {
        if (!(mask >> t & 1))
            continue;
        cols[nc++] = t;
        if (t / HY_KIN_MAX + 1 > *k)
            *k = t / HY_KIN_MAX + 1;
        if (t % HY_KIN_MAX + 1 > *m)
            *m = t % HY_KIN_MAX + 1;
    }
    return nc;
}

/* (design, columns, ne extra rows G[ne * nc] with right-hand sides g[ne], rcond) => scaled coefficients x by SVD of
 * [R_S; G] against [r; g] (R_S: the columns of the reduced factor) */
static int solve_scaled(const hy_kinfit_design *D, const int *cols, int nc, const double *G, const double *g,
                        size_t ne, double rcond, double *x, hy_lstsq_info *li, hy_err *err)
{
    size_t rows = D->rows + ne, w = (size_t)nc;
    double *M = malloc(rows * w * sizeof *M), *b = malloc(rows * sizeof *b);
    if (!M || !b) {
        free(M);
        free(b);
        return hy_err_set(err, HY_ENOMEM, "Stage B: out of memory");
    }
    for (size_t r = 0; r < D->rows; r++) {
        for (size_t c = 0; c < w; c++)
            M[r * w + c] = D->R[r * NCOL + (size_t)cols[c]];
        b[r] = D->R[r * NCOL + NCOL - 1];
    }
    if (ne) {
        memcpy(M + D->rows * w, G, ne * w * sizeof *M);
        memcpy(b + D->rows, g, ne * sizeof *b);
    }
    int rc = hy_lstsq_svd(M, rows, w, b, rcond, x, li, err);
    free(M);
    free(b);
    return rc;
}

// (design, columns, scaled x) => RMS Stage-B residual in f/q units (from the reduced factor: exact)
static double residual_rms(const hy_kinfit_design *D, const int *cols, int nc, const double *x)
{
    double ss = 0.0;
    for (size_t r = 0; r < D->rows; r++) {
        double e = -D->R[r * NCOL + NCOL - 1];
        for (int c = 0; c < nc; c++)
            e += D->R[r * NCOL + (size_t)cols[c]] * x[c];
        ss += e * e;
    }
    return sqrt(ss / (double)D->n) * D->f_s / D->q_s;
}

// (design, columns, scaled x) => unscaled coefficients, spec 002 §6.1 item 2 (0-based exponents i + 1, j - 1)
static void unscale(const hy_kinfit_design *D, const int *cols, int nc, int k, int m, const double *x,
                    hy_kin_coeffs *C)
{
    memset(C, 0, sizeof *C);
    C->k = k;
    C->m = m;
    for (int c = 0; c < nc; c++) {
        int i = cols[c] / HY_KIN_MAX, j = cols[c] % HY_KIN_MAX;
        C->C[i][j] = x[c] / (pow(D->q_s, i + 1) * pow(D->f_s, j - 1));
    }
}

// (design, mask, rcond) => unscaled coefficients, condition number, effective rank, residual
int hy_kinfit_design_solve(const hy_kinfit_design *D, hy_kinfit_mask mask, double rcond, hy_kin_coeffs *C,
                           hy_kinfit_lsq *info, hy_err *err)
{
    int cols[HY_KINFIT_NTERMS], k, m;
    int nc = mask_terms(mask, cols, &k, &m);
    if (nc == 0)
        return hy_err_set(err, HY_EARG, "Stage B: empty term set");
    double x[HY_KINFIT_NTERMS];
    hy_lstsq_info li;
    int rc = solve_scaled(D, cols, nc, NULL, NULL, 0, rcond, x, &li, err);
    if (rc != HY_OK)
        return rc;
    unscale(D, cols, nc, k, m, x, C);
    if (info) {
        info->rank = li.rank;
        info->cond = li.cond;
        info->unknowns = nc;
        info->resid_rms = residual_rms(D, cols, nc, x);
        info->constrained = 0;
    }
    return HY_OK;
}

// (design point, columns) => g with g . x = the scaled attraction rate sigma * d(dv/du)/dv at that point
static void rate_row(const hy_kinfit_design *D, size_t l, const int *cols, int nc, double *g)
{
    double up[HY_KIN_MAX], vp[HY_KIN_MAX];
    up[0] = vp[0] = 1.0;
    for (int e = 1; e < HY_KIN_MAX; e++) {
        up[e] = up[e - 1] * D->u[l];
        vp[e] = vp[e - 1] * D->v[l];
    }
    for (int c = 0; c < nc; c++) {
        int i = cols[c] / HY_KIN_MAX, j = cols[c] % HY_KIN_MAX;
        g[c] = j ? D->sigma * (double)j * up[i] * vp[j - 1] : 0.0;
    }
}

#define ATTRACT_POINTS 256   /* constraint points: every point, or an even subsample of this many            */

/* (design, mask, rcond, margin) => least squares with the attraction rate held below -margin at the points.
 * Squared-hinge penalty solved by semi-smooth Newton: each pass the points whose rate exceeds -margin form the
 * active set, each adds the row rho * (rate + margin) = 0, and the least-squares problem is re-solved; points
 * that come back inside leave the set. It stops when the set repeats; rho grows when a point still violates by
 * more than half the margin. The constraint is imposed on an even subsample of at most ATTRACT_POINTS points
 * (the rate is a smooth polynomial; the caller checks every point afterwards). */
int hy_kinfit_design_solve_attracting(const hy_kinfit_design *D, hy_kinfit_mask mask, double rcond, double margin,
                                      hy_kin_coeffs *C, hy_kinfit_lsq *info, hy_err *err)
{
    int cols[HY_KINFIT_NTERMS], k, m;
    int nc = mask_terms(mask, cols, &k, &m);
    if (nc == 0)
        return hy_err_set(err, HY_EARG, "Stage B: empty term set");
    if (!(margin > 0) || !isfinite(margin))
        return hy_err_set(err, HY_EARG, "Stage B: attraction margin %g must be positive", margin);
    double x[HY_KINFIT_NTERMS];
    hy_lstsq_info li0, li;
    int rc = solve_scaled(D, cols, nc, NULL, NULL, 0, rcond, x, &li0, err);
    if (rc != HY_OK)
        return rc;
    size_t stride = D->n > ATTRACT_POINTS ? (D->n + ATTRACT_POINTS - 1) / ATTRACT_POINTS : 1;
    size_t np = (D->n + stride - 1) / stride, w = (size_t)nc;
    /* unit rate rows of the subsample: g . x = scaled rate sigma d(dv/du)/dv = q_s * rate */
    double *Gall = malloc(np * w * sizeof *Gall), *G = malloc(np * w * sizeof *G), *gb = malloc(np * sizeof *gb);
    unsigned char *was = calloc(np, 1), *now = calloc(np, 1);
    if (!Gall || !G || !gb || !was || !now)
        rc = hy_err_set(err, HY_ENOMEM, "Stage B: out of memory");
    for (size_t a = 0; rc == HY_OK && a < np; a++) {
        double *row = Gall + a * w, nrm = 0.0;
        rate_row(D, a * stride, cols, nc, row);
        for (size_t c = 0; c < w; c++)
            nrm += row[c] * row[c];
        nrm = nrm > 0 ? 1.0 / sqrt(nrm) : 0.0;
        for (size_t c = 0; c < w; c++)
            row[c] *= nrm;
        gb[a] = nrm;   /* keeps the row scale for the right-hand side */
    }
    const double ms = margin * D->q_s;
    double rho = 1e2 * fmax(li0.sigma_max, 1e-300);
    size_t na = 0;
    double *scale = malloc(np * sizeof *scale);
    if (!scale && rc == HY_OK)
        rc = hy_err_set(err, HY_ENOMEM, "Stage B: out of memory");
    if (rc == HY_OK)
        memcpy(scale, gb, np * sizeof *scale);
    for (int pass = 0; rc == HY_OK && pass < 40; pass++) {
        int same = pass > 0, worse = 0;
        na = 0;
        for (size_t a = 0; a < np; a++) {
            const double *row = Gall + a * w;
            double r = 0.0;
            for (size_t c = 0; c < w; c++)
                r += row[c] * x[c];
            /* row is the rate divided by |g|: the margin in the same units is ms * scale */
            now[a] = r > -ms * scale[a] * (1.0 - 1e-9);
            if (r > -0.5 * ms * scale[a])
                worse = 1;
            if (now[a] != was[a])
                same = 0;
            if (now[a]) {
                for (size_t c = 0; c < w; c++)
                    G[na * w + c] = rho * row[c];
                gb[na] = -rho * ms * scale[a];
                na++;
            }
        }
        if (na == 0 || (same && !worse))
            break;
        if (same && worse)
            rho *= 10.0;   /* the set is right but the penalty too soft */
        if (same && worse) {
            for (size_t a = 0; a < na; a++) {
                for (size_t c = 0; c < w; c++)
                    G[a * w + c] *= 10.0;
                gb[a] *= 10.0;
            }
        }
        memcpy(was, now, np);
        rc = solve_scaled(D, cols, nc, G, gb, na, rcond, x, &li, err);
    }
    free(Gall);
    free(G);
    free(gb);
    free(was);
    free(now);
    free(scale);
    if (rc != HY_OK)
        return rc;
    unscale(D, cols, nc, k, m, x, C);
    if (info) {
        info->rank = li0.rank;
        info->cond = li0.cond;
        info->unknowns = nc;
        info->resid_rms = residual_rms(D, cols, nc, x);
        info->constrained = (int)na;
    }
    return HY_OK;
}

/* The production CARE solver (SLICOT SB02OD), the LQR gain and closed-loop poles, and the CARE residual.
 *
 * Why SB02OD: it works on the extended (2n+m) pencil [[A, 0, B], [Q, A', 0], [0, B', R]] - s diag(I, -I, 0) with B
 * and R as given (no R^-1 is formed, so an ill-conditioned R does not spoil G = B R^-1 B'), compresses it to order
 * 2n, reorders the generalized real Schur form (QZ, dgges) with the stable eigenvalues first and scales the data
 * internally (van Dooren 1981). The state is balanced first (ctrl_balance: dgebal's diagonal scaling of A). It is the routine behind MATLAB's and python-control's care. The Hamiltonian
 * Schur method of ctrl_schur.c (Laub 1979, LAPACK only) is the independent cross-check in the tests. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>
#include "ctrl/ctrl_internal.h"
#include "mech/ctrl.h"

/* SLICOT 5.0 (libslicot-dev), Fortran 77: every argument by reference, arrays column-major, and one hidden length
 * argument per CHARACTER argument at the end (size_t with gfortran >= 8). LOGICAL is a 4-byte int. */
extern void sb02od_(const char *dico, const char *jobb, const char *fact, const char *uplo, const char *jobl,
                    const char *sort, const int *n, const int *m, const int *p, const double *a, const int *lda,
                    const double *b, const int *ldb, const double *q, const int *ldq, const double *r,
                    const int *ldr, const double *l, const int *ldl, double *rcond, double *x, const int *ldx,
                    double *alfar, double *alfai, double *beta, double *s, const int *lds, double *t,
                    const int *ldt, double *u, const int *ldu, const double *tol, int *iwork, double *dwork,
                    const int *ldwork, int *bwork, int *info, size_t, size_t, size_t, size_t, size_t, size_t);

// (M r x c, row-major) => F, the same matrix column-major with leading dimension r
static void to_col_major(size_t r, size_t c, const double *M, double *F)
{
    for (size_t i = 0; i < r; i++)
        for (size_t j = 0; j < c; j++)
            F[j * r + i] = M[i * c + j];
}

static const char *sb02od_reason(int info)
{
    switch (info) {
    case 1: return "the extended matrix pencil is singular";
    case 2: return "the QZ algorithm failed";
    case 3: return "reordering the generalized eigenvalues failed";
    case 4: return "rounding moved eigenvalues across the imaginary axis after reordering (eigenvalues too close to it)";
    case 5: return "the stable deflating subspace does not have dimension n (eigenvalues on the imaginary axis)";
    case 6: return "U11 is singular to working precision (the solution is unbounded)";
    default: return "illegal argument";
    }
}

int mech_ctrl_care(size_t n, size_t m, const double *A, const double *B, const double *Q, const double *R,
                   double *X, hy_err *err)
{
    const char *who = "CARE";
    int rc = ctrl_check_care(who, n, m, A, B, Q, R, X, err);
    if (rc != HY_OK)
        return rc;

    int N = (int)n, M = (int)m, P = 0, NN = 2 * N, NNM = 2 * N + M, one = 1, info = 0;
    int ldwork = 14 * N + 23;
    if (16 * N > ldwork) ldwork = 16 * N;
    if (NNM > ldwork) ldwork = NNM;
    if (3 * M > ldwork) ldwork = 3 * M;
    ldwork += 64 * NNM; /* "for optimum performance LDWORK should be larger": room for dgges' blocking */
    size_t nd = n * n * 5 + 2 * n * m + n + m * m + 3 * (size_t)NN + 2 * (size_t)NNM * NNM + (size_t)NN * NN + (size_t)ldwork;
    double *w = malloc(nd * sizeof *w);
    int *iw = malloc((size_t)(NN + M + 1) * sizeof *iw);
    int *bw = malloc((size_t)NN * sizeof *bw);
    if (!w || !iw || !bw) {
        free(w); free(iw); free(bw);
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", who);
    }
    double *a = w, *q = a + n * n, *x = q + n * n, *b = x + n * n, *r = b + n * m;
    double *alfar = r + m * m, *alfai = alfar + NN, *beta = alfai + NN;
    double *s = beta + NN, *t = s + (size_t)NNM * NNM, *u = t + (size_t)NNM * NNM, *dwork = u + (size_t)NN * NN;
    double *As = dwork + ldwork, *Qs = As + n * n, *Bs = Qs + n * n, *d = Bs + n * m;
    rc = ctrl_balance(who, n, m, A, B, Q, As, Bs, Qs, d, err);
    if (rc != HY_OK) {
        free(w); free(iw); free(bw);
        return rc;
    }
    to_col_major(n, n, As, a);
    to_col_major(n, m, Bs, b);
    to_col_major(n, n, Qs, q);
    to_col_major(m, m, R, r);
    double rcond = 0.0, tol = 0.0, ldummy = 0.0;
    sb02od_("C", "B", "N", "U", "Z", "S", &N, &M, &P, a, &N, b, &N, q, &N, r, &M, &ldummy, &one, &rcond, x, &N,
            alfar, alfai, beta, s, &NNM, t, &NNM, u, &NN, &tol, iw, dwork, &ldwork, bw, &info, 1, 1, 1, 1, 1, 1);
    if (info != 0) {
        rc = hy_err_set(err, HY_ENUMERIC, "%s: SLICOT SB02OD failed (info %d): %s", who, info, sb02od_reason(info));
    } else {
        to_col_major(n, n, x, X); /* X is symmetric up to rounding; transposing keeps the exact output layout */
        ctrl_unbalance(n, d, X);
        rc = ctrl_finish(who, n, m, A, B, R, X, err);
    }
    free(w); free(iw); free(bw);
    return rc;
}

/* ---- shared by both solvers ---- */

int ctrl_gain(const char *who, size_t n, size_t m, const double *B, const double *R, const double *X, double *K,
              hy_err *err)
{
    double *r = malloc(m * m * sizeof *r);
    if (!r)
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", who);
    memcpy(r, R, m * m * sizeof *r);
    for (size_t i = 0; i < m; i++) /* K = B' X (m x n), then R K = B' X */
        for (size_t j = 0; j < n; j++) {
            double sum = 0.0;
            for (size_t k = 0; k < n; k++)
                sum += B[k * m + i] * X[k * n + j];
            K[i * n + j] = sum;
        }
    lapack_int info = LAPACKE_dposv(LAPACK_ROW_MAJOR, 'U', (lapack_int)m, (lapack_int)n, r, (lapack_int)m, K,
                                    (lapack_int)n);
    free(r);
    if (info != 0)
        return hy_err_set(err, ctrl_lapack_code((int)info), "%s: gain: LAPACKE_dposv failed on R (info %d)", who, (int)info);
    return HY_OK;
}

int ctrl_closed_loop_poles(const char *who, size_t n, size_t m, const double *A, const double *B, const double *K,
                           double *re, double *im, hy_err *err)
{
    double *Acl = malloc(n * n * sizeof *Acl);
    if (!Acl)
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", who);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double sum = A[i * n + j];
            for (size_t k = 0; k < m; k++)
                sum -= B[i * m + k] * K[k * n + j];
            Acl[i * n + j] = sum;
        }
    int rc = mech_ctrl_poles(n, Acl, re, im, err);
    free(Acl);
    return rc;
}

int ctrl_finish(const char *who, size_t n, size_t m, const double *A, const double *B, const double *R, double *X,
                hy_err *err)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i; j < n; j++) {
            double v = 0.5 * (X[i * n + j] + X[j * n + i]);
            if (!isfinite(v))
                return hy_err_set(err, HY_ENUMERIC, "%s: the solver returned a non-finite X[%zu][%zu]", who, i, j);
            X[i * n + j] = X[j * n + i] = v;
        }
    double *K = malloc((m * n + 2 * n) * sizeof *K);
    if (!K)
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", who);
    double *re = K + m * n, *im = re + n;
    int rc = ctrl_gain(who, n, m, B, R, X, K, err);
    if (rc == HY_OK)
        rc = ctrl_closed_loop_poles(who, n, m, A, B, K, re, im, err);
    for (size_t i = 0; rc == HY_OK && i < n; i++)
        if (!(re[i] < 0.0))
            rc = hy_err_set(err, HY_ENUMERIC, "%s: the solution does not stabilise A - BK: closed-loop pole "
                            "%.6g%+.6gi (the problem is too close to losing stabilisability or detectability)",
                            who, re[i], im[i]);
    free(K);
    return rc;
}

int mech_ctrl_lqr(size_t n, size_t m, const double *A, const double *B, const double *Q, const double *R,
                  double *K, double *X, double *pole_re, double *pole_im, hy_err *err)
{
    if (!K || (!pole_re) != (!pole_im))
        return hy_err_set(err, HY_EARG, "LQR: %s", !K ? "output K is NULL" : "give both pole arrays or neither");
    double *x = X;
    if (!x && n > 0 && n <= CTRL_MAX_DIM && !(x = calloc(n * n, sizeof *x)))
        return hy_err_set(err, HY_ENOMEM, "LQR: out of memory");
    int rc = mech_ctrl_care(n, m, A, B, Q, R, x, err);
    if (rc == HY_OK)
        rc = ctrl_gain("LQR", n, m, B, R, x, K, err);
    if (rc == HY_OK && pole_re)
        rc = ctrl_closed_loop_poles("LQR", n, m, A, B, K, pole_re, pole_im, err);
    if (x != X)
        free(x);
    return rc;
}

double mech_ctrl_care_residual(size_t n, size_t m, const double *A, const double *B, const double *Q,
                               const double *R, const double *X, double *q_relative)
{
    if (n == 0 || m == 0 || n > CTRL_MAX_DIM || m > CTRL_MAX_DIM)
        return -1.0;
    double *K = malloc(2 * m * n * sizeof *K);
    if (!K)
        return -1.0;
    double *XB = K + m * n;
    if (ctrl_gain("residual", n, m, B, R, X, K, NULL) != HY_OK) {
        free(K);
        return -1.0;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < m; k++) {
            double sum = 0.0;
            for (size_t l = 0; l < n; l++)
                sum += X[i * n + l] * B[l * m + k];
            XB[i * m + k] = sum;
        }
    /* A'X + XA - (XB) K + Q, with K = R^-1 B'X; each term's norm is summed for the scale */
    double rnorm = 0.0, qnorm = 0.0, axnorm = 0.0, xgxnorm = 0.0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double ax = 0.0, xgx = 0.0;
            for (size_t k = 0; k < n; k++)
                ax += A[k * n + i] * X[k * n + j];
            for (size_t k = 0; k < m; k++)
                xgx += XB[i * m + k] * K[k * n + j];
            double sum = Q[i * n + j];
            for (size_t k = 0; k < n; k++)
                sum += X[i * n + k] * A[k * n + j];
            sum += ax - xgx;
            rnorm += sum * sum;
            qnorm += Q[i * n + j] * Q[i * n + j];
            axnorm += ax * ax;
            xgxnorm += xgx * xgx;
        }
    free(K);
    double scale = sqrt(qnorm) + 2.0 * sqrt(axnorm) + sqrt(xgxnorm);
    if (q_relative)
        *q_relative = sqrt(rnorm) / (qnorm > 0.0 ? sqrt(qnorm) : 1.0);
    return sqrt(rnorm) / (scale > 0.0 ? scale : 1.0);
}

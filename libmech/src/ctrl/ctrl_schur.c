/* The second CARE solver, independent of SLICOT: Laub's Schur method with LAPACK only.
 * The Hamiltonian H = [[A, -G], [-Q, -A']], G = B R^-1 B', has its eigenvalues in pairs (lambda, -lambda); when
 * (A, B) is stabilisable and (A, Q^(1/2)) detectable none lies on the imaginary axis, and the n stable ones span an
 * invariant subspace [U11; U21] with U11 invertible and X = U21 U11^-1 (Laub 1979). dgees computes the real Schur
 * form with the stable eigenvalues ordered first (select function), dgesv solves U11' X = U21' (X = X').
 * Like the production path, it works in balanced state coordinates (ctrl_balance). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>
#include "ctrl/ctrl_internal.h"
#include "mech/ctrl.h"

static lapack_logical stable_first(const double *re, const double *im)
{
    (void)im;
    return *re < 0.0;
}

int mech_ctrl_care_schur(size_t n, size_t m, const double *A, const double *B, const double *Q, const double *R,
                         double *X, hy_err *err)
{
    const char *who = "CARE (Schur)";
    int rc = ctrl_check_care(who, n, m, A, B, Q, R, X, err);
    if (rc != HY_OK)
        return rc;

    size_t nn = 2 * n;
    double *w = malloc((m * m + m * n + 2 * nn * nn + 2 * nn + 4 * n * n + n * m + n) * sizeof *w);
    lapack_int *piv = malloc(n * sizeof *piv);
    if (!w || !piv) {
        free(w); free(piv);
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", who);
    }
    double *r = w, *Z = r + m * m, *H = Z + m * n, *U = H + nn * nn, *wr = U + nn * nn, *wi = wr + nn;
    double *a = wi + nn, *y = a + n * n, *As = y + n * n, *Qs = As + n * n, *Bs = Qs + n * n, *d = Bs + n * m;
    /* balanced coordinates (ctrl_balance); from here on A, B, Q are the balanced ones */
    rc = ctrl_balance(who, n, m, A, B, Q, As, Bs, Qs, d, err);
    if (rc != HY_OK)
        goto done;
    const double *A0 = A, *B0 = B;
    A = As;
    B = Bs;
    Q = Qs;

    /* Z = R^-1 B' (m x n) by Cholesky */
    memcpy(r, R, m * m * sizeof *r);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            Z[i * n + j] = B[j * m + i];
    lapack_int info = LAPACKE_dposv(LAPACK_ROW_MAJOR, 'U', (lapack_int)m, (lapack_int)n, r, (lapack_int)m, Z,
                                    (lapack_int)n);
    if (info != 0) {
        rc = hy_err_set(err, ctrl_lapack_code((int)info), "%s: LAPACKE_dposv failed on R (info %d)", who, (int)info);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double g = 0.0;
            for (size_t k = 0; k < m; k++)
                g += B[i * m + k] * Z[k * n + j];
            H[i * nn + j] = A[i * n + j];
            H[i * nn + n + j] = -g;
            H[(n + i) * nn + j] = -Q[i * n + j];
            H[(n + i) * nn + n + j] = -A[j * n + i];
        }
    lapack_int sdim = 0;
    info = LAPACKE_dgees(LAPACK_ROW_MAJOR, 'V', 'S', stable_first, (lapack_int)nn, H, (lapack_int)nn, &sdim, wr, wi,
                         U, (lapack_int)nn);
    if (info != 0) {
        rc = hy_err_set(err, ctrl_lapack_code((int)info), "%s: LAPACKE_dgees failed (info %d%s)", who, (int)info,
                        info == (lapack_int)nn + 2 ? ": reordering changed eigenvalues near the imaginary axis" : "");
        goto done;
    }
    if ((size_t)sdim != n) {
        rc = hy_err_set(err, HY_ENUMERIC, "%s: the Hamiltonian has %d stable eigenvalues, not n = %zu "
                        "(eigenvalues on or too near the imaginary axis)", who, (int)sdim, n);
        goto done;
    }
    for (size_t i = 0; i < n; i++) /* a = U11', y = U21' */
        for (size_t j = 0; j < n; j++) {
            a[i * n + j] = U[j * nn + i];
            y[i * n + j] = U[(n + j) * nn + i];
        }
    info = LAPACKE_dgesv(LAPACK_ROW_MAJOR, (lapack_int)n, (lapack_int)n, a, (lapack_int)n, piv, y, (lapack_int)n);
    if (info != 0) {
        rc = hy_err_set(err, ctrl_lapack_code((int)info), "%s: U11 is singular (LAPACKE_dgesv info %d)", who, (int)info);
        goto done;
    }
    for (size_t i = 0; i < n; i++) /* y = X' */
        for (size_t j = 0; j < n; j++)
            X[i * n + j] = y[j * n + i];
    ctrl_unbalance(n, d, X);
    rc = ctrl_finish(who, n, m, A0, B0, R, X, err);
done:
    free(w);
    free(piv);
    return rc;
}

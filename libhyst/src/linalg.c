// Thin LAPACKE helpers, row-major (see hyst/linalg.h).
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/linalg.h"

/* LAPACKE's row-major wrappers allocate work and transposed copies; their failure is out of memory, not a
 * numerical failure. */
static int lapack_code(lapack_int rc)
{
    return rc == LAPACK_WORK_MEMORY_ERROR || rc == LAPACK_TRANSPOSE_MEMORY_ERROR ? HY_ENOMEM : HY_ENUMERIC;
}

// (A, b, rcond) => minimum-norm least-squares x by SVD (dgelsd)
int hy_lstsq_svd(double *A, size_t m, size_t n, double *b, double rcond, double *x, hy_lstsq_info *info,
                 hy_err *err)
{
    if (m == 0 || n == 0)
        return hy_err_set(err, HY_EARG, "least squares: empty system (%zu x %zu)", m, n);
    size_t mn = m < n ? m : n, ldb_rows = m > n ? m : n;
    double *s = malloc(mn * sizeof *s);
    double *bb = malloc(ldb_rows * sizeof *bb); /* dgelsd needs max(m,n) rows in b */
    if (!s || !bb) {
        free(s);
        free(bb);
        return hy_err_set(err, HY_ENOMEM, "least squares: out of memory");
    }
    memcpy(bb, b, m * sizeof *bb);
    for (size_t i = m; i < ldb_rows; i++)
        bb[i] = 0.0;
    lapack_int rank = 0;
    lapack_int rc = LAPACKE_dgelsd(LAPACK_ROW_MAJOR, (lapack_int)m, (lapack_int)n, 1, A, (lapack_int)n, bb, 1, s,
                                   rcond < 0 ? DBL_EPSILON : rcond, &rank);
    int status = HY_OK;
    if (rc != 0) {
        status = hy_err_set(err, lapack_code(rc), "least squares: LAPACKE_dgelsd failed (info %d)", (int)rc);
    } else {
        memcpy(x, bb, n * sizeof *x);
        memcpy(b, bb, m * sizeof *b);
        if (info) {
            info->rank = (int)rank;
            info->sigma_max = s[0];
            info->sigma_min = s[mn - 1];
            info->cond = s[mn - 1] > 0 ? s[0] / s[mn - 1] : INFINITY;
        }
    }
    free(s);
    free(bb);
    return status;
}

// (A, b) => least-squares x by QR (dgels)
int hy_lstsq_qr(double *A, size_t m, size_t n, double *b, double *x, hy_err *err)
{
    if (m < n || n == 0)
        return hy_err_set(err, HY_EARG, "least squares: need at least as many rows as unknowns (%zu x %zu)", m, n);
    lapack_int rc = LAPACKE_dgels(LAPACK_ROW_MAJOR, 'N', (lapack_int)m, (lapack_int)n, 1, A, (lapack_int)n, b, 1);
    if (rc != 0)
        return hy_err_set(err, lapack_code(rc), "least squares: LAPACKE_dgels failed (info %d%s)", (int)rc,
                          rc > 0 ? ": rank deficient" : "");
    memcpy(x, b, n * sizeof *x);
    return HY_OK;
}

// (SPD A, b) => x by Cholesky (dposv)
int hy_solve_spd(double *A, size_t n, double *b, double *x, hy_err *err)
{
    lapack_int rc = LAPACKE_dposv(LAPACK_ROW_MAJOR, 'U', (lapack_int)n, 1, A, (lapack_int)n, b, 1);
    if (rc != 0)
        return hy_err_set(err, lapack_code(rc), "linear solve: LAPACKE_dposv failed (info %d%s)", (int)rc,
                          rc > 0 ? ": not positive definite" : "");
    memcpy(x, b, n * sizeof *x);
    return HY_OK;
}

// (A, b) => x by LU (dgesv)
int hy_solve_lu(double *A, size_t n, double *b, double *x, hy_err *err)
{
    lapack_int *piv = malloc(n * sizeof *piv);
    if (!piv)
        return hy_err_set(err, HY_ENOMEM, "linear solve: out of memory");
    lapack_int rc = LAPACKE_dgesv(LAPACK_ROW_MAJOR, (lapack_int)n, 1, A, (lapack_int)n, piv, b, 1);
    free(piv);
    if (rc != 0)
        return hy_err_set(err, lapack_code(rc), "linear solve: LAPACKE_dgesv failed (info %d%s)", (int)rc,
                          rc > 0 ? ": singular matrix" : "");
    memcpy(x, b, n * sizeof *x);
    return HY_OK;
}

void openblas_set_num_threads(int num_threads); /* libopenblas (its cblas.h is not the default alternative) */
int blas_thread_shutdown_(void) __attribute__((weak)); /* libopenblas's thread server (pthread builds) */

void hy_blas_single_thread(void)
{
    if (!getenv("OPENBLAS_NUM_THREADS") && !getenv("OMP_NUM_THREADS")) {
        openblas_set_num_threads(1);
        /* the workers OpenBLAS's constructor started are not stopped by that: each spins on sched_yield for about
           0.1 s before it sleeps (80 ms of the second core in a 0.3 s `mech dock` S2-B: perf, 20 % of the samples).
           Stop them; OpenBLAS starts them again if a later call asks for threads */
        if (blas_thread_shutdown_)
            blas_thread_shutdown_();
    }
}

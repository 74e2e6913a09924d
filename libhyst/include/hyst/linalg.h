/* Thin LAPACKE helpers (row-major), one per use. No hand-written factorizations anywhere in hystkit. */
#ifndef HYST_LINALG_H
#define HYST_LINALG_H

#include <stddef.h>
#include "hyst/common.h"

typedef struct hy_lstsq_info {
    int    rank;       /* effective rank at the given rcond                                    */
    double cond;       /* 2-norm condition number sigma_max / sigma_min (inf when singular)     */
    double sigma_max, sigma_min;
} hy_lstsq_info;

/* (A[m*n] row-major, b[m], rcond) => x[n] minimising |A x - b|_2 (minimum norm when rank deficient),
 * by SVD (LAPACKE_dgelsd). A and b are overwritten. Singular values below rcond*sigma_max count as zero
 * (rcond < 0: machine precision). info may be NULL. Allocates its workspace: not for per-step use. */
int hy_lstsq_svd(double *A, size_t m, size_t n, double *b, double rcond, double *x, hy_lstsq_info *info,
                 hy_err *err);

/* (A[m*n] row-major with m >= n and full column rank, b[m]) => x[n] least squares by QR (LAPACKE_dgels).
 * A and b are overwritten. Cheaper than the SVD; fails with HY_ENUMERIC when R has an exactly
 * zero diagonal; near rank deficiency is not detected (use hy_lstsq_svd to measure conditioning). */
int hy_lstsq_qr(double *A, size_t m, size_t n, double *b, double *x, hy_err *err);

/* (symmetric positive definite A[n*n] row-major, b[n]) => x[n] by Cholesky (LAPACKE_dposv); A, b overwritten.
 * HY_ENUMERIC when A is not positive definite. */
int hy_solve_spd(double *A, size_t n, double *b, double *x, hy_err *err);

/* (general A[n*n] row-major, b[n]) => x[n] by LU with partial pivoting (LAPACKE_dgesv); A, b overwritten. */
int hy_solve_lu(double *A, size_t n, double *b, double *x, hy_err *err);

/* The programs' BLAS on one thread unless OPENBLAS_NUM_THREADS or OMP_NUM_THREADS says otherwise. The matrices
 * here are at most a few hundred wide, where OpenBLAS's threads cost more than they give, and they busy-wait for
 * a core: with both cores taken, `mech beam sim` of §4.5 took 1.58 s wall instead of 0.074 s. The worker threads
 * OpenBLAS started when it was loaded are stopped too (they spin for ~0.1 s first). Called by the mains of hyst and
 * mech; a library caller (Python) keeps its own setting. */
void hy_blas_single_thread(void);

#endif

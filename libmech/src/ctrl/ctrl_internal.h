/* Shared by the ctrl/ sources: argument and model checks run before either Riccati solver, the gain, the
 * closed-loop check after it. Row-major throughout; each function allocates its own workspace. */
#ifndef MECH_CTRL_INTERNAL_H
#define MECH_CTRL_INTERNAL_H

#include <stddef.h>
#include <lapacke.h>
#include "hyst/common.h"

/* (LAPACKE status != 0) => HY_ENOMEM when the row-major wrapper could not allocate its work or transposed arrays
 * (LAPACK_WORK_MEMORY_ERROR, LAPACK_TRANSPOSE_MEMORY_ERROR), else HY_ENUMERIC (a numerical failure) */
static inline int ctrl_lapack_code(int info)
{
    return info == LAPACK_WORK_MEMORY_ERROR || info == LAPACK_TRANSPOSE_MEMORY_ERROR ? HY_ENOMEM : HY_ENUMERIC;
}

/* Largest state and input count accepted: keeps every LAPACK/SLICOT dimension, (2n+m)^2 included, inside int. */
#define CTRL_MAX_DIM 4096

/* (who, n, m, A, B, Q, R) => HY_OK or HY_EARG naming the bad argument: sizes, NULL pointers, non-finite entries,
 * Q not symmetric positive semidefinite, R not symmetric positive definite. `who` starts the message. */
int ctrl_check_args(const char *who, size_t n, size_t m, const double *A, const double *B, const double *Q,
                    const double *R, hy_err *err);

/* (who, A, B, Q) => HY_OK, or HY_EMODEL when (A, B) is not stabilisable or (A, Q^(1/2)) not detectable, with every
 * offending eigenvalue and its PBH rank in the message (default margin: mech_ctrl_default_tol). */
int ctrl_check_model(const char *who, size_t n, size_t m, const double *A, const double *B, const double *Q,
                     hy_err *err);
// (who, n, m, A, B, Q, R, X) => ctrl_check_args, X not NULL, then ctrl_check_model: the common checks of both CARE
// solvers; HY_OK or the first failure
int ctrl_check_care(const char *who, size_t n, size_t m, const double *A, const double *B, const double *Q,
                    const double *R, const double *X, hy_err *err);

/* (A, B, Q) => the same problem in balanced state coordinates Z = D Zs: As = D^-1 A D (LAPACK dgebal, scaling only,
 * D diagonal with powers of 2, so exact), Bs = D^-1 B, Qs = D Q D; d[n] receives D. The CARE solution transforms as
 * X = D^-1 Xs D^-1 (ctrl_unbalance). Structural models mix positions and velocities whose scales differ by the
 * modal frequencies; balancing first keeps the Riccati solvers accurate there (docs/ctrl.md). */
int ctrl_balance(const char *who, size_t n, size_t m, const double *A, const double *B, const double *Q,
                 double *As, double *Bs, double *Qs, double *d, hy_err *err);
void ctrl_unbalance(size_t n, const double *d, double *X);

/* (B, R, X) => K = R^-1 B' X (m x n), by Cholesky of R (dposv). */
int ctrl_gain(const char *who, size_t n, size_t m, const double *B, const double *R, const double *X, double *K,
              hy_err *err);

/* (A, B, K) => eigenvalues of A - B K in re[], im[] (dgeev). */
int ctrl_closed_loop_poles(const char *who, size_t n, size_t m, const double *A, const double *B, const double *K,
                           double *re, double *im, hy_err *err);

/* (X from a solver) => X symmetrised in place; HY_ENUMERIC when X has a non-finite entry or A - B R^-1 B' X is
 * not Hurwitz (a solver that returned a non-stabilising solution). */
int ctrl_finish(const char *who, size_t n, size_t m, const double *A, const double *B, const double *R, double *X,
                hy_err *err);

#endif

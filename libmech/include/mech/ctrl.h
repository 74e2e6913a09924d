/* Linear-quadratic regulator design for the simulators (spec 004 §5): the continuous-time algebraic Riccati
 * equation (CARE), the LQR gain, closed-loop poles, and the stabilisability / detectability checks that must pass
 * before a CARE has a stabilising solution.
 *
 * All matrices are row-major double arrays: A (n x n), B (n x m), Q (n x n), R (m x m), X (n x n), K (m x n).
 * Methods (docs/ctrl.md):
 *   mech_ctrl_care        production path: SLICOT SB02OD (deflating subspace of the extended 2n+m pencil, QZ,
 *                         B and R used as given, internal scaling), after the checks below;
 *   mech_ctrl_care_schur  independent second method: LAPACK real Schur form of the 2n x 2n Hamiltonian with the
 *                         stable eigenvalues ordered first (dgees), X = U21 U11^-1 (dgesv). Used as a cross-check.
 * Nothing here is meant for a time-step loop: each call allocates its workspace (design-time code). */
#ifndef MECH_CTRL_H
#define MECH_CTRL_H

#include <stddef.h>
#include "hyst/common.h"

/* Continuous-time algebraic Riccati equation  A'X + XA - X B R^-1 B' X + Q = 0, Q symmetric >= 0, R symmetric > 0.
 * (n, m, A, B, Q, R) => X (n x n), the stabilising solution (symmetric, A - B R^-1 B' X Hurwitz).
 * Returns HY_OK; HY_EARG on bad sizes or values (n or m = 0, a non-finite entry, Q not symmetric positive
 * semidefinite, R not symmetric positive definite); HY_EMODEL when (A, B) is not stabilisable or (A, Q^(1/2)) is not
 * detectable on the imaginary axis (an undamped mode that Q does not weight), with a message naming the offending
 * eigenvalue(s) and the PBH rank; HY_ENUMERIC when the solver fails or its result does not stabilise A - BK;
 * HY_ENOMEM. An unobservable *unstable* mode is accepted: the stabilising solution exists (its closed-loop pole is
 * the mirror image), X is then only semidefinite. */
int mech_ctrl_care(size_t n, size_t m, const double *A, const double *B, const double *Q, const double *R,
                   double *X, hy_err *err);

/* The same equation by the Hamiltonian real Schur method (LAPACK dgees with stable-first ordering, then dgesv),
 * with the same argument checks and stabilisability / detectability checks. Independent of SLICOT. */
int mech_ctrl_care_schur(size_t n, size_t m, const double *A, const double *B, const double *Q, const double *R,
                         double *X, hy_err *err);

/* (A, B, Q, R, X) => relative residual |Res|_F / (|Q|_F + 2 |A'X|_F + |X B R^-1 B' X|_F) of
 * Res = A'X + XA - X B R^-1 B' X + Q, the scale being the size of the terms that cancel (a backward-error measure);
 * *q_relative (may be NULL) receives |Res|_F / |Q|_F (|Q|_F = 0: / 1), which grows with |X| on ill-conditioned
 * problems. Returns a negative value when the arguments are unusable (R not positive definite, out of memory). */
double mech_ctrl_care_residual(size_t n, size_t m, const double *A, const double *B, const double *Q,
                               const double *R, const double *X, double *q_relative);

/* LQR gain K = R^-1 B' X (m x n) of the control U = -K Z and the closed-loop poles of A - B K (n complex:
 * pole_re[], pole_im[], in LAPACK's order). X (n x n) receives the CARE solution when not NULL; pole_re/pole_im may
 * be NULL together. Same status codes as mech_ctrl_care. */
int mech_ctrl_lqr(size_t n, size_t m, const double *A, const double *B, const double *Q, const double *R,
                  double *K, double *X, double *pole_re, double *pole_im, hy_err *err);

/* PBH test: is every eigenvalue lambda of A with Re(lambda) >= -tol controllable through B, i.e.
 * rank [A - lambda I, B] = n? tol < 0 selects the default of mech_ctrl_care (mech_ctrl_default_tol).
 * Returns 1 (stabilisable), 0 (not: *bad_re, *bad_im receive the first uncontrollable such eigenvalue; either
 * pointer may be NULL), -1 on error (err filled in). */
int mech_ctrl_stabilisable(size_t n, size_t m, const double *A, const double *B, double tol, double *bad_re,
                           double *bad_im, hy_err *err);

/* Dual PBH test: is every eigenvalue of A with Re >= -tol observable through C (p x n), rank [A - lambda I; C] = n?
 * (A, Q^(1/2)) is detectable exactly when this holds with C = Q (same null space). Returns 1, 0 or -1 as above. */
int mech_ctrl_detectable(size_t n, size_t p, const double *A, const double *C, double tol, double *bad_re,
                         double *bad_im, hy_err *err);

/* (n, A) => the margin used by mech_ctrl_care to call an eigenvalue marginal: 1e-6 * max(1, spectral radius of A).
 * About 100 times the spread of a double (Jordan) eigenvalue computed in double precision, so an uncontrollable
 * rigid mode (a double eigenvalue at 0) is caught; far inside the damping of any physical structural mode.
 * Returns a negative value on error. */
double mech_ctrl_default_tol(size_t n, const double *A, hy_err *err);

/* Eigenvalues of a general n x n matrix (LAPACK dgeev): re[], im[] (n each, LAPACK's order; complex pairs adjacent,
 * positive imaginary part first). */
int mech_ctrl_poles(size_t n, const double *A, double *re, double *im, hy_err *err);

/* (n poles) => damping ratio zeta = -re/|lambda| and natural frequency wn = |lambda| (rad/s) of each pole
 * (a pole at 0: zeta = 1, wn = 0). Either output may be NULL. */
void mech_ctrl_damping(size_t n, const double *re, const double *im, double *zeta, double *wn);

#endif

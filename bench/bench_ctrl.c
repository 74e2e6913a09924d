/* Benchmark of the Riccati solvers (mech/ctrl.h): the time of one CARE solve, n = 10 and 20 states, m = 2 inputs,
 * on a structural model (undamped-ish modes, the shape of the beam's reduced flexible design), for the production
 * path (SLICOT SB02OD, including the stabilisability / detectability checks and the closed-loop check) and the
 * LAPACK Schur cross-check. Best of several runs: LQR design is done once per configuration, not per step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "mech/ctrl.h"
#include "bench_util.h"

enum { NMAX = 20, M = 2 };

// (n even) => modal model: n/2 modes w_i = 2 pi (1.4 i^2) rad/s, zeta 0.005, random input shapes; Q = 600 I, R = 0.1 I
static void structural_model(size_t n, double *A, double *B, double *Q, double *R)
{
    size_t d = n / 2;
    for (size_t i = 0; i < n * n; i++)
        A[i] = Q[i] = 0.0;
    for (size_t i = 0; i < d; i++) {
        double w = 2 * M_PI * 1.4 * (double)((i + 1) * (i + 1));
        A[i * n + d + i] = 1.0;
        A[(d + i) * n + i] = -w * w;
        A[(d + i) * n + d + i] = -2 * 0.005 * w;
        for (size_t k = 0; k < M; k++) {
            B[i * M + k] = 0.0;
            B[(d + i) * M + k] = 0.04 * gauss();
        }
    }
    for (size_t i = 0; i < n; i++)
        Q[i * n + i] = 600.0;
    R[0] = R[3] = 0.1;
    R[1] = R[2] = 0.0;
}

typedef int (*care_fn)(size_t, size_t, const double *, const double *, const double *, const double *, double *,
                       hy_err *);

// (solver, problem) => best time of one solve over `reps` runs, s (negative on failure)
static double best_time(care_fn f, size_t n, const double *A, const double *B, const double *Q, const double *R,
                        double *X, int reps)
{
    double best = INFINITY;
    for (int r = 0; r < reps; r++) {
        hy_err err;
        double t0 = now();
        if (f(n, M, A, B, Q, R, X, &err) != HY_OK) {
            fprintf(stderr, "bench_ctrl: %s\n", err.msg);
            return -1.0;
        }
        best = fmin(best, now() - t0);
    }
    return best;
}

int main(void)
{
    static double A[NMAX * NMAX], B[NMAX * M], Q[NMAX * NMAX], R[M * M], X[NMAX * NMAX], X2[NMAX * NMAX];
    const size_t sizes[] = {10, 20};
    for (size_t s = 0; s < 2; s++) {
        size_t n = sizes[s];
        structural_model(n, A, B, Q, R);
        double ts = best_time(mech_ctrl_care, n, A, B, Q, R, X, 50);
        double tl = best_time(mech_ctrl_care_schur, n, A, B, Q, R, X2, 50);
        if (ts < 0 || tl < 0)
            return 1;
        double d2 = 0, x2 = 0;
        for (size_t i = 0; i < n * n; i++) {
            d2 += (X[i] - X2[i]) * (X[i] - X2[i]);
            x2 += X[i] * X[i];
        }
        char label[64];
        snprintf(label, sizeof label, "CARE SLICOT SB02OD (n=%zu, m=2)", n);
        printf("%-36s %10.3g ms   relative residual %.2g\n", label, 1e3 * ts,
               mech_ctrl_care_residual(n, M, A, B, Q, R, X, NULL));
        snprintf(label, sizeof label, "CARE LAPACK Schur  (n=%zu, m=2)", n);
        printf("%-36s %10.3g ms   relative residual %.2g, |X_schur - X_slicot|/|X| %.2g\n", label, 1e3 * tl,
               mech_ctrl_care_residual(n, M, A, B, Q, R, X2, NULL), sqrt(d2 / x2));
    }
    printf("peak memory %.1f MB\n", peak_rss_mb());
    return 0;
}

/* Variance-based sensitivity: Sobol' first-order and total indices from a Saltelli design (issue 43 item 2;
 * docs/sweep.md "Sobol indices"). Saltelli et al. 2010 (Comput. Phys. Commun. 181, 259-270): two independent
 * N x d sample matrices A and B and, for each key i, A_B^i = A with its column i taken from B; N (d + 2) runs.
 * First order S_i = (1/N) sum_j f(B)_j (f(A_B^i)_j - f(A)_j) / V (Saltelli 2010, Table 2 (b)); total
 * ST_i = (1/2N) sum_j (f(A)_j - f(A_B^i)_j)^2 / V (Jansen 1999, Table 2 (f)); V the variance of f over A and B
 * together. Confidence intervals by the percentile bootstrap over the N rows (the same resampled rows for A, B and
 * every A_B^i, so their correlation is kept). */
#ifndef MECH_SWEEP_SOBOL_H
#define MECH_SWEEP_SOBOL_H

#include <stddef.h>
#include <stdint.h>
#include "hyst/common.h"

#define MECH_SOBOL_KEYS_MAX 20   /* A and B together are 2d dimensions of GSL's Sobol sequence (at most 40) */

/* (N, d <= 20, seed) => u[N (d + 2) x d]: the unit-cube points of the Saltelli design, row r of run r: rows
 * 0..N-1 are A, N..2N-1 are B, 2N + i N + j is A_B^i's row j. A and B are the first and last d coordinates of
 * N Owen-scrambled Sobol points in 2d dimensions (mech_sweep_sample), so they are independent and each is a
 * low-discrepancy sample. HY_EARG for d out of 1..20 or N < 2; HY_ENOMEM. */
int mech_sobol_design(size_t N, int d, uint64_t seed, double *u, hy_err *err);

typedef struct mech_sobol_index {
    double s1, s1_lo, s1_hi;   /* first-order index and its bootstrap interval                                */
    double st, st_lo, st_hi;   /* total index and its bootstrap interval                                      */
} mech_sobol_index;

/* (f[N (d + 2)] in the design's run order, N, d, bootstrap resamples B >= 0, seed, confidence level (0.95)) =>
 * out[d]: indices and percentile intervals (B = 0: the intervals are NAN). A non-finite f in any run of a row j
 * drops row j from every estimate. Returns the rows used (NAN indices when fewer than 2 or V = 0); -1 when out
 * of memory. */
long mech_sobol_indices(const double *f, size_t N, int d, int B, uint64_t seed, double level, mech_sobol_index *out);

#endif

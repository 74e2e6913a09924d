/* Morris elementary effects for screening many keys cheaply (issue 43 item 2; docs/sweep.md "Morris screening").
 * Morris 1991 (Technometrics 33, 161-174) one-at-a-time trajectories on a p-level grid of the unit cube, with the
 * levels at the centres of p equal strata ((l + 1/2) / p, l = 0..p-1, p even) so that every value is inside (0, 1)
 * and a distribution's inverse CDF is finite, and the step Delta = 1/2 (p/2 levels), the choice of Morris 1991 that
 * makes every level equally likely. Each trajectory: a random base point with every coordinate in the lower half of
 * the levels, then the keys in a random order, each moved once by +Delta: d + 1 runs, d elementary effects
 * EE_i = (f(x + Delta e_i) - f(x)) / Delta. Statistics of Campolongo, Cariboni and Saltelli 2007: mu* = mean |EE_i|
 * (the importance), mu = mean EE_i, sigma = the standard deviation of EE_i (n - 1; nonlinearity or interaction).
 * r trajectories cost r (d + 1) runs, against N (d + 2) for Sobol' indices. */
#ifndef MECH_SWEEP_MORRIS_H
#define MECH_SWEEP_MORRIS_H

#include <stddef.h>
#include <stdint.h>
#include "hyst/common.h"

/* (r trajectories, d keys, p levels (even, 4..64), seed) => u[r (d + 1) x d], run t (d + 1) + k the k-th point of
 * trajectory t; order[r x d] (may be NULL) the key moved at each step. HY_EARG for bad sizes. */
int mech_morris_design(size_t r, int d, int p, uint64_t seed, double *u, int *order, hy_err *err);

typedef struct mech_morris_effect {
    double mu_star, mu, sigma;   /* over the trajectories with a finite f at both ends of the key's step        */
    long   n;                    /* elementary effects used                                                      */
} mech_morris_effect;

/* (f[r (d + 1)] in the design's run order, design u, r, d) => out[d]; the key of each step is read from the design
 * (the coordinate that changed), so the order array is not needed */
void mech_morris_effects(const double *f, const double *u, size_t r, int d, mech_morris_effect *out);

#endif

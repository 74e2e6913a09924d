/* Rare failure probabilities by subset simulation (issue 43 item 3; docs/sweep.md "Rare failures"). Au and Beck
 * 2001 (Probab. Eng. Mech. 16, 263-277): P(F) = P(F_1) prod P(F_j+1 | F_j) over nested intermediate failure
 * events F_j = {g(z) <= b_j} in standard normal space, each conditional probability ~ p0 (0.1), so a 1e-5
 * probability takes five levels of n samples instead of ~1e7 plain Monte Carlo runs. Level 0 is n independent
 * samples; b_j is the p0-quantile of the level's g (between its (p0 n)-th and (p0 n + 1)-th smallest); its p0 n
 * smallest samples seed as many Markov chains of 1/p0 states each, stepped by the modified Metropolis algorithm
 * (Au & Beck §4: each coordinate proposed from N(z_k, 1) and accepted with min(1, phi(xi)/phi(z_k)); the
 * candidate kept when g <= b_j, else the chain repeats its state). It stops at the first level with at least p0 n
 * failures (g <= 0): P = p0^m n_F / n. The coefficient of variation is Au & Beck's (their eqs. 19-29): level 0
 * (1 - p0) / (p0 n), each later level (1 - p_j) / (p_j n) (1 + gamma_j) with gamma_j from the correlation of the
 * failure indicator along the chains, the levels' squares added (taken as uncorrelated, as Au & Beck do).
 *
 * Driven in batches, as the adaptive envelope: the caller evaluates every new point of a batch (on any number of
 * workers) and puts g into s->g[id]; ids count the evaluations 0, 1, 2, ... and everything depends only on the
 * seed and the g values, so the result is the same for any order the batch is evaluated in. */
#ifndef MECH_SWEEP_SUBSET_H
#define MECH_SWEEP_SUBSET_H

#include <stddef.h>
#include <stdint.h>
#include "hyst/common.h"

#define MECH_SUBSET_LEVELS_MAX 20

typedef struct mech_subset {
    /* settings */
    int d;                 /* dimension (standard normals)                                                    */
    size_t n;              /* samples per level                                                               */
    double p0;             /* conditional probability of a level (p0 n and 1/p0 integers)                       */
    int max_levels;        /* levels at most (the last one counts its failures whatever their number)          */
    uint64_t seed;
    /* the evaluations: point id at z[id d], its g at g[id] (set by the caller) */
    size_t cap, neval;
    double *z, *g;
    /* results */
    int done, levels;      /* levels run (1: plain Monte Carlo was enough)                                     */
    double b[MECH_SUBSET_LEVELS_MAX];      /* thresholds b_1 .. (b[j] ends level j)                          */
    double pj[MECH_SUBSET_LEVELS_MAX];     /* conditional probabilities                                      */
    double cov2[MECH_SUBSET_LEVELS_MAX];   /* their squared coefficients of variation                        */
    double gamma[MECH_SUBSET_LEVELS_MAX];  /* chain correlation factors (0 at level 0)                       */
    double pf, cov;        /* the estimate and its coefficient of variation                                    */
    /* internal state */
    int state, level, step;
    size_t nc, ns, nlev;
    size_t *lev, *cur, *cand;
} mech_subset;

/* (d >= 1, n, p0 in (0, 0.5], max_levels 1..20, seed) => HY_EARG unless p0 n and 1/p0 are integers >= 2 */
int mech_subset_init(mech_subset *s, int d, size_t n, double p0, int max_levels, uint64_t seed, hy_err *err);
void mech_subset_free(mech_subset *s);
/* (state, g set for the previous batch) => the next batch: ids[] (capacity n) of new points z[id d .. id d + d);
 * returns its size, 0 when done (pf, cov, levels set). A non-finite g counts as a failure (g = -inf). */
size_t mech_subset_next(mech_subset *s, size_t *ids);
/* the largest number of evaluations the settings can take: n + (max_levels - 1) (n - p0 n) */
size_t mech_subset_max_evals(size_t n, double p0, int max_levels);

#endif

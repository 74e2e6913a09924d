/* Identification of the model families Bouc-Wen, BWBN, Iwan and peak-oriented (clough) by nonlinear least squares on the replayed force
 * (docs/fit-families.md): r_i(theta) = Q_model(q_0..q_i; theta) - Q_i, minimised by GSL's multifit_nlinear
 * (Levenberg-Marquardt with geodesic acceleration). Bounds are kept by a transform of each parameter (log,
 * logistic, tanh), so every iterate is a valid model. Several starts from an initial guess derived from the loops
 * (elastic stiffness from the unloading branches, force and post-yield slope from the backbone). */
#ifndef HYST_FAMFIT_H
#define HYST_FAMFIT_H

#include <stddef.h>
#include <stdint.h>
#include "hyst/common.h"
#include "hyst/loops.h"
#include "hyst/model.h"
#include "hyst/replay.h"

#define HY_FAMFIT_PMAX 12

enum hy_famfit_family { HY_FAMFIT_BW = 0, HY_FAMFIT_IWAN = 1, HY_FAMFIT_BWBN = 2, HY_FAMFIT_CLOUGH = 3 };

#define HY_FAMFIT_BWBN_LAMBDA 0.5 /* BWBN: the pinching width's coupling lambda, fixed (docs/bw-model.md)   */

typedef struct hy_famfit_opts {
    int    family;     /* enum hy_famfit_family                                                               */
    int    bw_n;       /* Bouc-Wen: 0 = fit n (1..10), else n fixed at this value (1 uses the exact scheme)   */
    int    iwan_N;     /* Iwan: elements of the Segalman discretisation; 0 (default): chosen by doubling from  */
                       /* 32 until the parameters move by < 0.1 standard error (docs/fit-families.md)          */
    int    starts;     /* number of starts (default 3)                                                        */
    int    max_iter;   /* iteration cap of each solve (default 200)                                           */
    double energy_tol; /* a cycle whose predicted energy is off by more than this fraction is flagged (0.10)  */
    hy_loops_opts loops;
    const double *weights; /* per-sample weights of the squared residuals (NULL: all 1); the bootstrap's     */
    const double *theta0;  /* NULL, or a start in theta (hy_famfit_result.theta): one start from there      */
} hy_famfit_opts;

typedef struct hy_famfit_result {
    int      np;                        /* reported (physical) parameters                                     */
    const char *name[HY_FAMFIT_PMAX];   /* their names as in the model file                                   */
    double   value[HY_FAMFIT_PMAX];
    double   se[HY_FAMFIT_PMAX];        /* standard errors from the Jacobian at the solution (delta method)   */
    int      at_bound[HY_FAMFIT_PMAX];  /* 1: the value sits at a bound of its transform (no standard error  */
                                        /* holds there: printed without +-, docs/fit-families.md)            */
    double   cost;                      /* sum of squared residuals                                           */
    int      iterations, starts_run, starts_converged;
    hy_model model;                     /* the fitted model (type set)                                        */
    hy_replay_metrics metrics;          /* replay on the fitted record (cycles from the measured loops)       */
    double   k0, F0, q0;                /* initial-guess inputs: elastic stiffness, backbone peak force and q  */
    int      elements;                  /* Iwan: the elements used                                            */
    double   disc_change;               /* Iwan: max |value(N) - value(N/2)| / se over the parameters of the   */
                                        /* last doubling (< 0.1 when chosen; NaN when N was fixed)            */
    int      ntheta;                    /* the solution in the solver's unbounded coordinates                 */
    double   theta[HY_FAMFIT_PMAX];
} hy_famfit_result;

/* Block bootstrap (docs/fit-families.md "Confidence intervals"): the record is cut into blocks of consecutive
 * samples whose length comes from the residuals at the fit (Politis & White 2004, with Patton, Politis & White
 * 2009's correction); each replicate draws the blocks with replacement and refits with every sample weighted by the
 * times its block was drawn. The record is always replayed whole, so the hysteretic state stays continuous; only
 * the weights of the least squares change. Intervals: percentile-t (studentized with each refit's standard error);
 * a parameter at a bound, and the cycle energies, get percentile intervals. */
typedef struct hy_famfit_boot {
    int     n_rep, n_ok;          /* replicates asked for / that converged (the intervals use these)          */
    int     np;                   /* parameters (as hy_famfit_result)                                          */
    size_t  n_cyc;
    double *param;                /* n_ok x np                                                                 */
    double *energy;               /* n_ok x n_cyc: predicted energy of each measured cycle                    */
    double  lo[HY_FAMFIT_PMAX], hi[HY_FAMFIT_PMAX];   /* 90 % percentile-t intervals of the parameters        */
    size_t  block_len, n_blocks;  /* the blocks resampled                                                      */
    double *e_lo, *e_hi;          /* n_cyc: 90 % intervals of the cycle energies                             */
    hy_model *models;             /* n_ok refitted models when asked for (keep_models), else NULL             */
} hy_famfit_boot;

#define HY_FAMFIT_BOOT_MIN_CYCLES 4

/* (record, options, the fit on the whole record, replicates, seed) => intervals. HY_EDATA naming the count when
 * the record has fewer than HY_FAMFIT_BOOT_MIN_CYCLES cycles; HY_ENUMERIC when fewer than half the replicates
 * converge. */
int hy_famfit_bootstrap(const double *q, const double *Q, size_t n, const hy_famfit_opts *o,
                        const hy_famfit_result *fit, int n_rep, uint64_t seed, hy_famfit_boot *B, hy_err *err);

// (as above, keep = 1) => also B->models: every converged refit, for running a simulator with each
int hy_famfit_bootstrap_models(const double *q, const double *Q, size_t n, const hy_famfit_opts *o,
                               const hy_famfit_result *fit, int n_rep, uint64_t seed, int keep, hy_famfit_boot *B,
                               hy_err *err);

/* (as above, and progress(ctx, replicates done, replicates) called after each replicate, or NULL) => the same;
 * the hyst commands show it on a terminal (issue 42, N24: a bootstrap of many refits takes hours) */
int hy_famfit_bootstrap_progress(const double *q, const double *Q, size_t n, const hy_famfit_opts *o,
                                 const hy_famfit_result *fit, int n_rep, uint64_t seed, int keep,
                                 void (*progress)(void *ctx, int done, int n_rep), void *ctx, hy_famfit_boot *B,
                                 hy_err *err);

void hy_famfit_boot_free(hy_famfit_boot *B);

/* (residuals x[n]) => block length for a block bootstrap of a series with x's dependence: Politis & White (2004)
 * automatic choice for the circular block bootstrap, with Patton, Politis & White (2009)'s correction; 1 for
 * uncorrelated residuals; at most n / 10 */
size_t hy_block_length(const double *x, size_t n);

// (o) => defaults
void hy_famfit_opts_default(hy_famfit_opts *o);

// (family name "bw" / "iwan" / "bwbn" / "clough") => enum value, -1 when unknown
int hy_famfit_family_parse(const char *name);

/* (q[n], Q[n], options) => fitted model, parameters with standard errors, replay metrics.
 * HY_EDATA when the record has no usable loop; HY_ENUMERIC when no start converged (err names the last state:
 * parameters, cost, iterations, GSL's reason). r must be freed with hy_famfit_result_free. */
int hy_famfit_run(const double *q, const double *Q, size_t n, const hy_famfit_opts *o, hy_famfit_result *r,
                  hy_err *err);

void hy_famfit_result_free(hy_famfit_result *r);

/* (metrics, tolerance) => indices of the cycles whose |energy_ratio - 1| > tol, worst first, in worst[]
 * (room for max); returns how many exceed (may be more than max). Cycles with no measured energy are skipped. */
size_t hy_energy_outliers(const hy_replay_metrics *M, double tol, size_t *worst, size_t max);

/* NLLS layer (fit_nlls.c): a thin wrapper of gsl_multifit_nlinear. */
typedef int (*hy_nlls_fn)(const double *theta, double *resid, void *ctx); /* HY_OK or an error: step rejected */

typedef struct hy_nlls_result {
    double theta[HY_FAMFIT_PMAX];
    double cov[HY_FAMFIT_PMAX * HY_FAMFIT_PMAX]; /* s^2 (J'J)^-1 in theta, s^2 = cost / (n - p)              */
    double cost;                                 /* sum of squared residuals                                 */
    int    iterations;
    int    converged;                            /* 1: a tolerance test stopped it                           */
    char   reason[96];                           /* why it stopped, in words                                 */
} hy_nlls_result;

// (n residuals, p parameters, f, ctx, theta0, iteration cap) => result; HY_ENUMERIC only when f fails at theta0
int hy_nlls_solve(size_t n, int p, hy_nlls_fn f, void *ctx, const double *theta0, int max_iter, hy_nlls_result *R,
                  hy_err *err);

#endif

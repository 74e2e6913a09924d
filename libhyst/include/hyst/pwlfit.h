/* Identification of piecewise-linear branch tables (spec 000) from static test data: `hyst fit pwl`.
 *
 * Pipeline (each step a function below, each with its own tests):
 *   1. loop analysis -> forward/backward branches of the limit loop on each side       (hy_pwlfit_branches)
 *      (too few samples by default, e.g. one cycle per amplitude: the next largest loops) (hy_pwlfit_branches_widen)
 *      (friction kind: the branches are first moved back by the brake-slip drift)      (hy_pwlfit_drift_*)
 *   2. backlash: a free knot of the fit, or given; its evidence judged afterwards      (hy_pwlfit_backlash_*)
 *   3. constrained continuous piecewise-linear fit of F and B on each side:             (hy_pwlfit_side_fit)
 *      global breakpoint search by dynamic programming over candidate abscissae          (hy_pwlfit_dp_*)
 *      then variable projection: ordinates by linear least squares (LAPACK) for fixed    (hy_pwlfit_lsq_*)
 *      breakpoints, breakpoints moved one at a time by a bracketed 1-D search             (hy_pwlfit_refine)
 *   4. transition slope k_max versus the unloading stiffness at inner reversals        (hy_pwlfit_unloading)
 *   5. report: quality per branch, energy per cycle of data and replayed model          (hy_pwlfit_report_json)
 * hy_pwlfit_run chains them. The plain single-branch problem (continuous piecewise-linear least squares with free
 * breakpoints, no hysteresis constraints) is hy_pwlfit_segreg.
 *
 * Conventions: a side is fitted in mirrored coordinates u = s q, P = s Q with s = +1 (positive side) or -1
 * (negative side), so every branch runs over u >= 0 and the table points of a side are u = backlash, x_2, ...
 * Nothing here allocates per evaluation after a fit's workspace exists. */
#ifndef HYST_PWLFIT_H
#define HYST_PWLFIT_H

#include <stddef.h>
#include <stdint.h>
#include "hyst/common.h"
#include "hyst/loops.h"
#include "hyst/pwl.h"

#define HY_PWLFIT_MAX_SEGMENTS 32                      /* per branch                                   */
#define HY_PWLFIT_MAX_POINTS   (HY_PWLFIT_MAX_SEGMENTS + 1)
#define HY_PWLFIT_MAX_KNOTS    (2 * HY_PWLFIT_MAX_POINTS)
#define HY_PWLFIT_MAX_PARAMS   (2 * HY_PWLFIT_MAX_POINTS + 2)

/* ------------------------------------------------------------------------------------------------------------
 * Branch data: samples sorted by abscissa with prefix sums, so that the least-squares statistics of the samples
 * between two abscissae cost O(1) (plus a binary search). */
typedef struct hy_pwlfit_data {
    size_t  n;
    double *u, *P;                          /* sorted by u                                                  */
    double *su, *suu, *sP, *suP, *sPP;      /* prefix sums over i < k (length n + 1), u taken about uc       */
    double  uc;                             /* centre used for the prefix sums                              */
} hy_pwlfit_data;

/* One source of samples for hy_pwlfit_data_build: u = sign * q[i], P = sign * Q[i]. */
typedef struct hy_pwlfit_part {
    const double *q, *Q;
    size_t        n;
    double        sign;
} hy_pwlfit_part;

/* Statistics of a run of samples, centred on their own means (numerically safe differences). */
typedef struct hy_pwlfit_stats {
    double n;          /* count                                                                              */
    double um, Pm;     /* means                                                                              */
    double suu, suP, sPP;   /* sums of (u-um)^2, (u-um)(P-Pm), (P-Pm)^2                                      */
} hy_pwlfit_stats;

// (parts[np]) => d: all samples pooled, sorted by u (natural merge sort), prefix sums built
int hy_pwlfit_data_build(hy_pwlfit_data *d, const hy_pwlfit_part *parts, size_t np, hy_err *err);

// (d) => memory released, d empty
void hy_pwlfit_data_free(hy_pwlfit_data *d);

// (d, u) => index of the first sample with abscissa >= u (n when none)
size_t hy_pwlfit_data_find(const hy_pwlfit_data *d, double u);

// (d, samples [i0, i1)) => centred statistics
void hy_pwlfit_data_stats(const hy_pwlfit_data *d, size_t i0, size_t i1, hy_pwlfit_stats *s);

/* ------------------------------------------------------------------------------------------------------------
 * Linear least squares for fixed breakpoints (the inner problem of variable projection). A model is a set of
 * straight PIECES over abscissa ranges of some branches; each piece's value at a reference abscissa and its
 * slope are affine functions of the parameter vector theta. For a piece covering samples with statistics
 * (n, um, Pm, suu, suP, sPP) the squared error of the line a + b (u - t0) is exactly
 *     n (a + b (um - t0) - Pm)^2 + suu (b - suP/suu)^2 + (sPP - suP^2/suu),
 * so each piece adds two rows to a small compressed system solved by QR (LAPACKE_dgels, hyst/linalg.h), with
 * the SVD as fallback when it is rank deficient. Its size depends on the number of pieces, not of samples. */
typedef struct hy_pwlfit_aff {     /* c + sum_j w[j] theta[idx[j]]                                              */
    int    n;
    int    idx[4];
    double w[4];
    double c;
} hy_pwlfit_aff;

typedef struct hy_pwlfit_lsq {
    int     p;                  /* parameters                                                               */
    int     m, cap, pcap;       /* rows used, row capacity, parameter capacity                              */
    double *A, *r;              /* m x p row-major and right-hand side                                      */
    double *A2, *r2, *x;        /* work copies, solution                                                    */
    double *H, *g;              /* normal equations A'A (p x p) and A'r, from hy_pwlfit_lsq_normal          */
    double  base;               /* part of the squared error no parameter can change                        */
    int     rank_deficient;     /* last solve needed the SVD fallback                                       */
    int     oom;                /* a solve ran out of memory (sticky): the caller must report HY_ENOMEM     */
} hy_pwlfit_lsq;

// (row capacity, parameter capacity) => workspace
int hy_pwlfit_lsq_init(hy_pwlfit_lsq *ls, int rows, int params, hy_err *err);
// (ls) => workspace released
void hy_pwlfit_lsq_free(hy_pwlfit_lsq *ls);
// (p) => system emptied for p parameters
void hy_pwlfit_lsq_reset(hy_pwlfit_lsq *ls, int p);
// (branch data, abscissa range [lo, hi), reference t0, value at t0, slope) => rows added for those samples
void hy_pwlfit_lsq_piece(hy_pwlfit_lsq *ls, const hy_pwlfit_data *d, double lo, double hi, double t0,
                         const hy_pwlfit_aff *v0, const hy_pwlfit_aff *slope);
// (system) => ls->x = argmin, returns the squared error (base + residual); NAN when the solve failed
double hy_pwlfit_lsq_solve(hy_pwlfit_lsq *ls);
/* (system) => ls->H, ls->g (normal equations, from the sparse rows in O(rows)); then ls->x by Cholesky
 * (hy_solve_spd), falling back to QR when not positive definite. Used inside the breakpoint search, where
 * thousands of small solves are made and the squared error, not the last digits of x, is compared; the final
 * ordinates are always solved by QR. Returns the squared error from the explicit residual. */
double hy_pwlfit_lsq_solve_normal(hy_pwlfit_lsq *ls);
// (system, x) => squared error base + |A x - r|^2
double hy_pwlfit_lsq_error(const hy_pwlfit_lsq *ls, const double *x);
// (affine form, theta) => value
double hy_pwlfit_aff_eval(const hy_pwlfit_aff *a, const double *theta);

/* ------------------------------------------------------------------------------------------------------------
 * Dynamic programming over candidate breakpoints (the global search). The relaxed problem - every segment its
 * own least-squares line, no continuity - is solved exactly over the candidate abscissae g[0..G-1]; segment
 * costs come from the prefix sums, O(1) each. Its breakpoints start the continuous refinement. */
typedef struct hy_pwlfit_dp {
    size_t  G;           /* candidates                                                                      */
    int     smax;        /* largest segment count tabulated                                                 */
    double *cost;        /* cost[s*G + c]: best cost of the samples from g[c] to the end with s segments    */
    int    *next;        /* next[s*G + c]: where the first of those segments ends                          */
} hy_pwlfit_dp;

// (branch(es) pooled, range [lo, hi], G) => G candidate abscissae (half uniform, half sample quantiles;
// all midpoints between distinct abscissae when there are few samples); returns the count written
size_t hy_pwlfit_grid(const hy_pwlfit_data *const *ds, int nd, double lo, double hi, size_t G, double *g);

/* (branch, candidates g[G], candidate `end` where the last segment ends, sample index i_end where its samples
 * stop (d->n: all the rest), cost `terminal` charged for the samples from i_end on, segments up to smax,
 * minimum samples per segment) => table of the best costs with s = 1..smax segments from every candidate */
int hy_pwlfit_dp_branch(const hy_pwlfit_data *d, const double *g, size_t G, size_t end, size_t i_end,
                        double terminal, int smax, int min_pts, hy_pwlfit_dp *dp, hy_err *err);
// (dp) => table released
void hy_pwlfit_dp_free(hy_pwlfit_dp *dp);
// (table, start candidate, segments) => interior breakpoints written to knots[0..s-2]; returns s - 1
int hy_pwlfit_dp_path(const hy_pwlfit_dp *dp, const double *g, size_t c, int s, double *knots);
// (branch, samples in [g_a, g_b)) => squared error of their own least-squares line (INFINITY below min_pts)
double hy_pwlfit_line_cost(const hy_pwlfit_data *d, size_t i0, size_t i1, int min_pts);

/* ------------------------------------------------------------------------------------------------------------
 * Breakpoint refinement: coordinate moves, each a global scan of the knot's bracket followed by Brent's
 * minimisation on the best sub-bracket; sweeps until the squared error stops decreasing. Deterministic. */
typedef double (*hy_pwlfit_cost_fn)(void *ctx, const double *knots);
typedef void (*hy_pwlfit_bracket_fn)(void *ctx, const double *knots, int j, double *lo, double *hi);

/* Relocation moves (escape from a wrong basin): knots of the same group are interchangeable; a knot may be taken
 * out and put back anywhere in its group's range (the group is re-sorted), the best of `relocate` positions. */
typedef void (*hy_pwlfit_group_fn)(void *ctx, const double *knots, int group, double *lo, double *hi);

typedef struct hy_pwlfit_refine_opts {
    int    max_sweeps;   /* default 40                                                                      */
    int    scan;         /* scan points per bracket (default 8; < 0: light mode, no scanning sweeps)        */
    double xtol;         /* absolute knot tolerance                                                         */
    double ftol;         /* relative decrease that ends the sweeps (default 1e-10)                          */
    int    relocate;     /* positions tried per relocation (0: no relocation moves)                         */
    int    max_rounds;   /* relocation rounds (default 4)                                                   */
    double range;        /* abscissa scale (finite-difference step and first quasi-Newton step)             */
    int    max_polish;   /* local coordinate sweeps after the quasi-Newton stage (0: max_sweeps)            */
} hy_pwlfit_refine_opts;

typedef struct hy_pwlfit_refine_problem {
    int                  nk;
    const int           *is_free;   /* knot j may move                                                    */
    const int           *group;     /* group of knot j (-1: not relocatable); a group's knots are contiguous */
    hy_pwlfit_cost_fn    cost;
    hy_pwlfit_bracket_fn bracket;
    hy_pwlfit_group_fn   group_range;
    void                *ctx;
} hy_pwlfit_refine_problem;

typedef struct hy_pwlfit_refine_info {
    int  sweeps, scans, relocations;
    long evaluations;
} hy_pwlfit_refine_info;

/* (problem, knots) => knots moved to a local minimum that no relocation improves; its cost. Stages: one sweep of
 * coordinate moves with a scan of every bracket, quasi-Newton (BFGS, finite-difference gradient) on all free
 * knots, local coordinate polish, then relocation rounds (each accepted one polished the same way). */
double hy_pwlfit_refine(const hy_pwlfit_refine_problem *pb, double *knots, const hy_pwlfit_refine_opts *o,
                        hy_pwlfit_refine_info *info);

/* ------------------------------------------------------------------------------------------------------------
 * Single branch: continuous piecewise-linear least squares with free breakpoints (no hysteresis constraints).
 * The end knots are the data range; interior knots by DP + refinement. */
// (d, S segments, candidates G (0 = default)) => t[0..S], v[0..S], squared error
int hy_pwlfit_segreg(const hy_pwlfit_data *d, int S, size_t G, double *t, double *v, double *sse, hy_err *err);
// (d, S, knots t[0..S]) => ordinates v[0..S] by linear least squares, squared error
int hy_pwlfit_segreg_solve(const hy_pwlfit_data *d, int S, const double *t, double *v, double *sse, hy_err *err);

/* ------------------------------------------------------------------------------------------------------------
 * One side (spec 000 §2): F with nF = S_F + 1 points and B with nB = S_B + 1 points (the model allows different
 * counts), fitted together under the model's assumptions:
 *   point 1 at (b, 0) on both, zero force for u < b (backlash);
 *   point 2 common to F and B (first segment common);
 *   point n common, slope k_beyond beyond it on both;
 *   constant kind: k_beyond = k_max, the largest slope of all segments (held by tying a segment that would be
 *   steeper to slope k_max), and the last B segment has slope k_max;
 *   friction kind: k_beyond = 0 (slip plateau), x_n fixed by the drift alignment.
 * Knot vector (nF + nB - 3 entries): [b, x_2 .. x_n, z_3 .. z_{nB-1}] with x the F abscissae and z the B ones. */
typedef struct hy_pwlfit_side_spec {
    hy_pwl_kind kind;
    int    segments_F;      /* forward segments, 2..HY_PWLFIT_MAX_SEGMENTS                                   */
    int    segments_B;      /* backward segments, 3.. (constant kind; the last runs at k_max) or 2.. (friction) */
    int    backlash_fixed;  /* 1: b = backlash; 0: b is fitted                                              */
    double backlash;
    int    xn_fixed;        /* 1: x_n = xn (friction: plateau onset from the drift alignment)                */
    double xn;
    size_t grid;            /* DP candidates (0: default 192)                                                */
    int    min_points;      /* samples per DP segment (0: default 3)                                        */
    int    dp_only;         /* 1: stop after the global search (out->sse_dp only; used by the drift search)  */
} hy_pwlfit_side_spec;

typedef struct hy_pwlfit_branch_stats {
    size_t n;
    double sse, rms, max_abs, r2;
} hy_pwlfit_branch_stats;

typedef struct hy_pwlfit_side {
    int    nF, nB;                                /* points on F and on B                                    */
    double uF[HY_PWLFIT_MAX_POINTS], PF[HY_PWLFIT_MAX_POINTS];   /* F points (mirrored coordinates)          */
    double uB[HY_PWLFIT_MAX_POINTS], PB[HY_PWLFIT_MAX_POINTS];   /* B points                                 */
    double k_beyond;                              /* slope beyond point n                                    */
    double k_max;                                 /* transition slope: the largest slope (spec 000 §2.4, §3.3) */
    double knots[HY_PWLFIT_MAX_KNOTS];            /* fitted knot vector                                     */
    int    ties;                                  /* segments held at k_max by the constraint                */
    int    touches;                               /* points where B is held on F by the constraint           */
    double sse;                                   /* squared error over both branches                        */
    double sse_dp;                                /* relaxed (discontinuous) optimum found by the DP          */
    hy_pwlfit_branch_stats F, B;
    int    sweeps;
    long   evaluations;
    int    start;                                 /* which DP start won: 0 x_n at the data end, 1 inside     */
} hy_pwlfit_side;

// (F, B data, spec) => fitted side (global DP, then variable projection)
int hy_pwlfit_side_fit(const hy_pwlfit_data *F, const hy_pwlfit_data *B, const hy_pwlfit_side_spec *spec,
                       hy_pwlfit_side *out, hy_err *err);
// (F, B data, spec, starting knot vector) => fitted side by variable projection from those knots (no DP)
int hy_pwlfit_side_refit(const hy_pwlfit_data *F, const hy_pwlfit_data *B, const hy_pwlfit_side_spec *spec,
                         const double *knots, hy_pwlfit_side *out, hy_err *err);
// (F, B data, spec, knot vector) => ordinates by constrained least squares for these fixed knots
int hy_pwlfit_side_solve(const hy_pwlfit_data *F, const hy_pwlfit_data *B, const hy_pwlfit_side_spec *spec,
                         const double *knots, hy_pwlfit_side *out, hy_err *err);
// (side, branch 0 = F / 1 = B, abscissa u >= 0) => fitted force
double hy_pwlfit_side_eval(const hy_pwlfit_side *s, int branch, double u);
// (side, F, B data) => exact per-branch error statistics (direct pass over the samples)
void hy_pwlfit_side_stats(hy_pwlfit_side *s, const hy_pwlfit_data *F, const hy_pwlfit_data *B);

/* ------------------------------------------------------------------------------------------------------------
 * Backlash (spec 000 §2.2): the zero-force, zero-slope segment around the origin. Fitted as a free knot; the
 * evidence for it is judged by comparing the fit with b and with b = 0 by the Bayesian information criterion. */
typedef struct hy_pwlfit_backlash_info {
    double b;              /* accepted width (0 when rejected)                                              */
    double b_fitted;       /* width the free fit found                                                      */
    double sse_free, sse_zero;   /* fits with b free and with b = 0                                         */
    double delta_bic;      /* BIC(b = 0) - BIC(b free): > 0 favours the backlash                            */
    size_t n_zone;         /* samples inside the zero-force zone                                            */
    int    clear;          /* 1 clear evidence, 0 none (b = 0), -1 doubtful                                 */
} hy_pwlfit_backlash_info;

// (samples N in the fit, sse with b free and with b = 0, samples in the zone, b fitted) => decision
void hy_pwlfit_backlash_judge(size_t N, double sse_free, double sse_zero, size_t n_zone, double b_fitted,
                              double range, hy_pwlfit_backlash_info *info);
// (F, B data, width b) => squared error of the samples with u < b against zero force, and their count
double hy_pwlfit_backlash_zero_cost(const hy_pwlfit_data *F, const hy_pwlfit_data *B, double b, size_t *count);

/* ------------------------------------------------------------------------------------------------------------
 * Branches of each side (step 1). Constant kind: the limit-loop branches from the loop analysis (hyst/loops.h).
 * Friction kind (spec 000 §3.2): after a brake slip every abscissa of the table moves by the irreversible
 * displacement, so the total shift during a half-cycle is s = q_rev - x_N of the last slip reversal; the
 * branches are collected in the moved-back coordinate q - s. */
/* How the loops that form a side's limit loop were chosen (hy_pwlfit_limit.rule; docs/fit-pwl.md, step 1). */
enum hy_pwlfit_limit_rule {
    HY_PWLFIT_LIMIT_DEFAULT = 0, /* every loop within the default amp_tol of the largest (repeated limit cycles)  */
    HY_PWLFIT_LIMIT_GIVEN,       /* every loop within the amp_tol the caller gave (--amp-tol)                     */
    HY_PWLFIT_LIMIT_WIDENED      /* the default left a branch with fewer than HY_PWLFIT_MIN_BRANCH samples: the
                                    next largest loops were taken in, one amplitude at a time, until both branches
                                    had enough, down to (1 - HY_PWLFIT_WIDEN_MAX) x the largest amplitude          */
};
#define HY_PWLFIT_MIN_BRANCH 12     /* samples a branch needs for a side to be fitted                            */
#define HY_PWLFIT_WIDEN_MAX  0.5    /* automatic widening never takes a loop below half the largest amplitude    */

/* One loop of a side's limit loop: an outward half-cycle (|q| growing on that side, up to its peak) and the
 * half-cycle after it. Its samples on that side form the forward and the backward branch. */
typedef struct hy_pwlfit_loop {
    size_t i0, i_peak, i1;   /* first sample of the outward half-cycle, its peak, last sample of the next one     */
    size_t cycle;            /* cycle of the loop analysis (hy_loops.cyc, 0-based) holding the peak; HY_LOOPS_NONE */
    double amplitude;        /* |q| at the peak, measured on the side (mirrored, >= 0)                            */
    size_t n_F, n_B;         /* samples it gives to the forward and the backward branch                           */
} hy_pwlfit_loop;

typedef struct hy_pwlfit_limit {
    int             rule;        /* enum hy_pwlfit_limit_rule                                                   */
    double          amp_tol;     /* loops with amplitude >= (1 - amp_tol) x amplitude were taken                 */
    double          amplitude;   /* largest amplitude of the side (0: the record never goes to that side)       */
    size_t          n_F0, n_B0;  /* widened: the samples the default amp_tol gave (why it was widened)          */
    double          amp_tol0;    /* widened: that default amp_tol                                               */
    size_t          n_loops;
    hy_pwlfit_loop *loops;       /* in record order (malloc'd; NULL for the friction kind)                      */
} hy_pwlfit_limit;

typedef struct hy_pwlfit_branchset {
    hy_pwlfit_data F[2], B[2];       /* [0] positive side, [1] negative side, mirrored coordinates          */
    size_t cycles[2];                /* limit cycles used on each side                                     */
    double amp[2];                   /* limit amplitudes (mirrored, >= 0)                                   */
    hy_pwlfit_limit limit[2];        /* which loops formed the limit loop of each side, and why            */
} hy_pwlfit_branchset;

/* (q, Q, loop analysis, options) => limit-loop branches of both sides (constant kind): on each side every loop
 * whose amplitude is within o->amp_tol of the largest (the first loading from rest only when no other loop
 * qualifies); the peak sample belongs to both branches. limit[s].rule is HY_PWLFIT_LIMIT_DEFAULT. */
int hy_pwlfit_branches(const double *q, const double *Q, size_t n, const hy_loops *L, const hy_loops_opts *o,
                       hy_pwlfit_branchset *bs, hy_err *err);
/* (q, Q, analysis, side s, bs) => side s widened: the loops taken in order of decreasing amplitude (all loops of
 * one amplitude together) until both branches have min_samples, but none below (1 - max_tol) x the largest; when
 * even that is too few, the widest set is left in bs (the caller reports its counts). rule becomes WIDENED. */
int hy_pwlfit_branches_widen(const double *q, const double *Q, const hy_loops *L, int s, size_t min_samples,
                             double max_tol, hy_pwlfit_branchset *bs, hy_err *err);
// (bs) => memory released
void hy_pwlfit_branchset_free(hy_pwlfit_branchset *bs);

// (q[n], reversals, plateau onsets xN[2] (positive, negative as a positive number)) => shift[n]; returns slips
size_t hy_pwlfit_drift_shift(const double *q, size_t n, const hy_loops *L, const double xN[2], double *shift);
// (q, Q, analysis, shifts, amp_tol) => branches of both sides in moved-back coordinates
int hy_pwlfit_drift_branches(const double *q, const double *Q, size_t n, const hy_loops *L, const double *shift,
                             double amp_tol, hy_pwlfit_branchset *bs, hy_err *err);

/* ------------------------------------------------------------------------------------------------------------
 * Unloading stiffness at reversals (step 4): the slope of the first part of each half-cycle after a reversal,
 * by least squares over the samples within `frac` of the half-cycle's range. */
typedef struct hy_pwlfit_unloading {   /* [0] positive side, [1] negative side (side of the reversal point)    */
    size_t n_inner[2];    /* inner (non-limit) reversals measured                                           */
    size_t n_limit[2];    /* limit reversals measured                                                       */
    double k_inner[2];    /* median initial slope after inner reversals (NAN when none)                     */
    double k_limit[2];    /* median initial slope after limit reversals (NAN when none)                     */
    double k_inner_min[2], k_inner_max[2];
    size_t n_unresolved[2];   /* reversals whose first straight part the sampling does not resolve (< 8
                                 samples, or a force change under 5 residual standard deviations)          */
} hy_pwlfit_unloading;

/* (q, Q, analysis, shift[n] or NULL (friction: the moved-back coordinate decides the side), fraction of the
 * range, amplitude tolerance) => unloading stiffness figures per side */
void hy_pwlfit_unloading_measure(const double *q, const double *Q, size_t n, const hy_loops *L, const double *shift,
                                 double frac, double amp_tol, hy_pwlfit_unloading *u);

/* ------------------------------------------------------------------------------------------------------------
 * The whole pipeline. */
typedef enum { HY_PWLFIT_BACKLASH_AUTO = 0, HY_PWLFIT_BACKLASH_GIVEN = 1 } hy_pwlfit_backlash_mode;

typedef struct hy_pwlfit_opts {
    int         segments_F;    /* forward segments; 0: choose (by tol when tol > 0, else by BIC)            */
    int         segments_B;    /* backward segments (given together with segments_F)                        */
    double      tol;           /* force tolerance: fewest segments whose per-branch RMS error is <= tol      */
    int         max_segments;  /* largest count tried when choosing (default 12)                            */
    int         backlash_mode; /* hy_pwlfit_backlash_mode                                                   */
    double      backlash;      /* given width (>= 0)                                                        */
    int         symmetric;     /* 1: both sides fitted as one, mirrored                                     */
    hy_pwl_kind kind;
    size_t      grid;          /* DP candidates (0: default)                                                */
    int         replay;        /* 1 (default): replay the fitted model on the record for the report         */
    int         amp_tol_auto;  /* 1 (default): loops.amp_tol is the default; when it leaves too few samples the
                                  limit loop is widened automatically (constant kind). 0: loops.amp_tol was given
                                  and is used as it is                                                       */
    hy_loops_opts loops;
} hy_pwlfit_opts;

#define HY_PWLFIT_MAX_WARN 16
#define HY_PWLFIT_MAX_TRIED 64
typedef struct hy_pwlfit_choice {   /* one pair of segment counts tried on a side                           */
    int    segments_F, segments_B;
    double sse, rms_max, bic;       /* bic: N ln(SSE/N) + p ln N over the side's samples (NAN: fit failed)   */
} hy_pwlfit_choice;

typedef struct hy_pwlfit_result {
    hy_pwl_table   table;              /* arrays point into the side results below                           */
    double         tq[2][2][HY_PWLFIT_MAX_POINTS], tQ[2][2][HY_PWLFIT_MAX_POINTS];  /* [side][F/B][i]        */
    hy_pwlfit_side side[2];            /* [0] positive, [1] negative (a mirror of [0] when symmetric)        */
    hy_pwlfit_backlash_info backlash[2];
    char           segments_why[160];  /* the rule that chose the counts                                     */
    hy_pwlfit_choice tried[2][HY_PWLFIT_MAX_TRIED];   /* per fitted side ([0] only when symmetric)          */
    int            n_tried[2];
    size_t         cycles[2];
    double         amp[2];
    hy_pwlfit_limit limit[2];          /* the loops that formed each side's limit loop and why (loops malloc'd) */
    double         xN_drift[2];        /* friction: plateau onsets used for the drift alignment              */
    size_t         slips;              /* friction: slip events found                                        */
    hy_pwlfit_unloading unloading;
    double         k_ratio[2];         /* k_max / measured inner unloading stiffness per side (NAN: none)    */
    /* replay of the fitted model on the record's displacement history */
    int            replayed;           /* 1 when the replay ran to the end                                   */
    char           replay_error[HY_MSG_LEN];
    double         nrmse;              /* RMS(Q_model - Q_data) / peak-to-peak of Q_data                     */
    double         threshold;          /* reversal threshold the loop analysis used (q units)                */
    size_t         n_cycles;           /* cycles compared                                                    */
    double        *energy_data, *energy_model;   /* per cycle (malloc'd, n_cycles each)                      */
    double         energy_total_data, energy_total_model;
    size_t         n_points;           /* samples in the record                                             */
    double         seconds;            /* wall time of the fit                                               */
    char           warn[HY_PWLFIT_MAX_WARN][256];
    int            n_warn;
} hy_pwlfit_result;

// (o) => defaults: choose segments by BIC, backlash auto, constant kind, both sides
void hy_pwlfit_opts_default(hy_pwlfit_opts *o);

// (q[n], Q[n], t[n] or NULL, options) => fitted table, report figures and warnings; HY_EDATA with a clear message
// for data the fit cannot use (non-finite values, no reversals, one-sided without --symmetric, too few samples)
int hy_pwlfit_run(const double *q, const double *Q, const double *t, size_t n, const hy_pwlfit_opts *o,
                  hy_pwlfit_result *r, hy_err *err);

// (r) => memory released
void hy_pwlfit_result_free(hy_pwlfit_result *r);

// (result, options, source name) => report as a cJSON object (caller deletes); NULL when out of memory
struct cJSON *hy_pwlfit_report_json(const hy_pwlfit_result *r, const hy_pwlfit_opts *o, const char *source);

#endif

/* Loop analysis of a hysteresis record: reversals, inner loops, half-cycles, cycles, dissipated energy, backbones
 * and the branches of the outermost loop. Works on plain arrays so that every caller (CLI, fitting, replay) shares
 * it. The rules (threshold, inner loops, cycle boundaries, E_S for asymmetric loops, branch selection) are in
 * docs/loops.md. */
#ifndef HYST_LOOPS_H
#define HYST_LOOPS_H

#include <stddef.h>
#include "hyst/common.h"

typedef struct hy_loops_opts {
    double threshold; /* reversal threshold in q units: a reversal counts only once q has moved back by more
                         than this; <= 0 derives it from the data                                            */
    double amp_tol;   /* cycles whose amplitude is within this fraction of the largest count as the limit
                         loop when the branches are extracted (default 0.05)                                 */
    double center;    /* centre c of the motion (q units, default 0): a two-sided record's cycles run from one
                         upward crossing of c to the next; amplitudes and E_S are measured from c             */
} hy_loops_opts;

/* How the threshold was set (hy_loops.threshold_rule). */
enum hy_loops_rule {
    HY_LOOPS_THR_USER = 0, /* given by the caller                                                          */
    HY_LOOPS_THR_NOISE,    /* K x the noise estimate                                                       */
    HY_LOOPS_THR_FLOOR,    /* the floor HY_LOOPS_FLOOR x range (the noise term was smaller)                */
    HY_LOOPS_THR_CAP       /* the cap HY_LOOPS_CAP x range: the second differences are mostly signal (sparse
                              or digitised record), so the noise estimate is only an upper bound           */
};
#define HY_LOOPS_FLOOR 0.005   /* default threshold never below 0.5 % of max(q) - min(q)                    */
#define HY_LOOPS_CAP   0.01    /* ... nor above 1 % of it when the second differences are mostly signal     */
#define HY_LOOPS_WHITE 1.25    /* lag-2 / lag-1 second-difference ratio up to which they count as noise     */

/* How the cycle boundaries were placed (hy_loops.cycle_rule), docs/loops.md "Cycles". */
enum hy_loops_cycle_rule {
    HY_LOOPS_CYC_CROSSING = 0, /* two-sided record: from one upward crossing of the centre to the next          */
    HY_LOOPS_CYC_ONE_SIDED     /* q stays on one side of the centre: from one major minimum (positive side) or
                                  major maximum (negative side) to the next                                     */
};
#define HY_LOOPS_NONE ((size_t)-1) /* "no such cycle" (hy_inner_loop.cycle)                                    */

typedef struct hy_reversal {
    size_t i;         /* sample index of the extreme                                                          */
    int    kind;      /* +1: local maximum of q, -1: local minimum                                            */
    int    major;     /* 1: a major reversal (not part of an inner loop); majors alternate max / min          */
} hy_reversal;

/* An inner loop: a reversal pair (r2, r3) that the rainflow four-point rule (ASTM E1049) closes inside its
 * neighbours r1, r4, e.g. a partial unloading on the way out to a peak. */
typedef struct hy_inner_loop {
    size_t i0;        /* its first reversal r2                                                                */
    size_t i_turn;    /* its second reversal r3                                                               */
    size_t i1;        /* the first sample after i_turn where q is back at q(i0): the loop closes there        */
    int    kind;      /* +1: i0 is a maximum (a dip on the way up), -1: a minimum (a rise on the way down)    */
    double range;     /* |q(i0) - q(i_turn)|                                                                  */
    double energy;    /* integral of Q dq from i0 to i1 plus the closing segment back to i0 (enclosed area)   */
    size_t cycle;     /* index of the cycle that holds it; HY_LOOPS_NONE outside every cycle                  */
} hy_inner_loop;

typedef struct hy_halfcycle {
    size_t i0, i1;    /* samples from one reversal (or the start) to the next (or the end)                    */
    int    dir;       /* +1: q increasing, -1: q decreasing                                                   */
    double range;     /* |q(i1) - q(i0)|                                                                      */
    double energy;    /* integral of Q dq along it (trapezoid)                                                */
} hy_halfcycle;

typedef struct hy_cycle {
    size_t i0, i1;    /* first and last sample: consecutive cycle boundaries (hy_loops.cycle_rule)            */
    double amp_pos;   /* largest q in the cycle minus the centre (positive amplitude, q units)                */
    double amp_neg;   /* centre minus the smallest q in the cycle (>= 0 for a cycle that crosses the centre)  */
    double Q_max, Q_min;   /* peak forces                                                                     */
    double energy;    /* dissipated energy: integral of Q dq around the cycle (enclosed area)                 */
    double cum_energy;/* dissipated energy of cycles 0..this one                                              */
    double k_sec;     /* secant stiffness (Q at q_max - Q at q_min) / (q_max - q_min)                         */
    double e_strain;  /* strain energy E_S used for xi_eq                                                     */
    double xi_eq;     /* equivalent viscous damping ratio E_D / (4 pi E_S); NaN when E_S <= 0                 */
    size_t i_qmax, i_qmin; /* samples where q is largest / smallest in the cycle (the peaks k_sec uses)       */
    size_t n_inner;   /* inner loops inside the cycle (their energy is part of the cycle's)                   */
} hy_cycle;

typedef struct hy_curve {
    size_t  n;
    double *q, *Q;
} hy_curve;

typedef struct hy_loops {
    size_t        n;            /* samples analysed                                                           */
    double        threshold;    /* threshold used                                                             */
    size_t        n_rev;   hy_reversal  *rev;
    size_t        n_major;      /* reversals with rev[].major set                                             */
    size_t        n_inner; hy_inner_loop *inner;   /* in record order (by i0)                                 */
    size_t        n_half;  hy_halfcycle *half;
    size_t        n_cyc;   hy_cycle     *cyc;
    double        center;       /* centre c used for the cycles                                               */
    int           cycle_rule;   /* enum hy_loops_cycle_rule                                                   */
    int           cycle_side;   /* one-sided records: +1 (q >= c - threshold throughout), -1 (q <= c +
                                   threshold throughout); 0 for a two-sided record                           */
    double        total_energy; /* integral of Q dq along the whole record (open path, trapezoid)            */
    hy_curve      backbone_pos; /* envelope: peak points of growing positive amplitude                        */
    hy_curve      backbone_neg; /* same on the negative side (q < 0), ordered by growing |q|                  */
    /* How the threshold was chosen (filled also when the caller gave it):                                   */
    int           threshold_rule; /* enum hy_loops_rule                                                       */
    double        noise;        /* robust noise estimate of q (standard deviation, q units)                   */
    double        noise_factor; /* K: the noise term of the default threshold is K * noise                    */
    double        noise_ratio;  /* median|q[i+2]-2q[i]+q[i-2]| / median|q[i+1]-2q[i]+q[i-1]|: 1 for white noise,
                                   4 for smooth curvature; 0 when the lag-1 median is 0                      */
    double        range;        /* max(q) - min(q)                                                            */
} hy_loops;

// (o) => default options
void hy_loops_opts_default(hy_loops_opts *o);

/* Default threshold (docs/loops.md, "Threshold"): with the noise sigma = 1.4826 median|q[i+1] - 2 q[i] + q[i-1]|
 * / sqrt(6), K = max(6, 2 sqrt(2 ln n)) (the spread of n Gaussian samples) and the ratio rho of the lag-2 to the
 * lag-1 median second difference: h = max(K sigma, FLOOR range) when rho <= WHITE (the second differences are
 * noise), else h = clamp(K sigma, FLOOR range, CAP range) (they are mostly signal; sigma is an upper bound). */
typedef struct hy_loops_thr {
    double threshold, noise, noise_factor, noise_ratio, range;
    int    rule;             /* enum hy_loops_rule                                                          */
} hy_loops_thr;

// (q[n]) => default threshold and the figures behind it
int hy_loops_default_threshold(const double *q, size_t n, hy_loops_thr *t, hy_err *err);

// (q[n], threshold > 0) => reversal points (malloc'd array, *rev, *n_rev) and the direction after the last
// one (*dir_end: +1 rising, -1 falling, 0 when q never moved by more than the threshold)
int hy_loops_reversals(const double *q, size_t n, double threshold, hy_reversal **rev, size_t *n_rev,
                       int *dir_end, hy_err *err);

// (q[n], Q[n], options) => reversals, inner loops, half-cycles, cycles, energies, backbones
int hy_loops_analyze(const double *q, const double *Q, size_t n, const hy_loops_opts *o, hy_loops *L,
                     hy_err *err);

/* (q[n], Q[n], loop options, need_loop) => HY_OK, or HY_EDATA with a one-line reason when the record cannot be
 * identified or scored (libhyst/src/record_check.c, docs/fit-families.md "Refusals"): a constant force or
 * displacement; with need_loop also a monotonic record or a single reversal (a fit needs one closed loop: at
 * least three half-cycles). Records of fewer than 4 rows pass (the callers' own checks name the count). Every fit
 * and replay call it. */
int hy_record_check(const double *q, const double *Q, size_t n, const hy_loops_opts *o, int need_loop, hy_err *err);

// (L) => memory released
void hy_loops_free(hy_loops *L);

/* The loop analysis's energies of a record read in passes (libhyst/src/loops_stream.c): hy_loops_analyze's
 * threshold, total_energy and cycle energies, the same bits, in memory that does not grow with the record (only with
 * its reversals). read(ctx, i0, m, q, Q, err) fills q[0..m-1], Q[0..m-1] with samples i0 .. i0 + m - 1 (m <= 4096;
 * the record is read six times in order); a status other than HY_OK stops the analysis and is returned. The
 * errors are hy_loops_analyze's (fewer than 3 samples, Q or q not finite, q constant). */
typedef int (*hy_loops_read_fn)(void *ctx, size_t i0, size_t m, double *q, double *Q, hy_err *err);
typedef struct hy_loops_sum {
    double threshold;        /* threshold used                                                              */
    int    threshold_rule;   /* enum hy_loops_rule                                                          */
    double total_energy;     /* hy_loops.total_energy                                                       */
    size_t n_cyc;            /* hy_loops.n_cyc                                                              */
    double *cyc_energy;      /* hy_loops.cyc[k].energy (malloc'd; NULL without cycles)                      */
} hy_loops_sum;
int hy_loops_stream(hy_loops_read_fn read, void *ctx, size_t n, const hy_loops_opts *o, hy_loops_sum *S,
                    hy_err *err);
// (S) => memory released
void hy_loops_sum_free(hy_loops_sum *S);

// (rule) => its name: "given", "noise", "floor", "cap"
const char *hy_loops_rule_name(int rule);

// (cycle rule) => its name: "center-crossing", "one-sided"
const char *hy_loops_cycle_rule_name(int rule);

/* The branches of the limit (outermost) loop as the fitting tools need them. On the positive side the forward
 * branch is the loading part (q > 0, q growing) and the backward branch the unloading part (q > 0, q shrinking);
 * likewise on the negative side with |q|. Points keep record order; every cycle whose amplitude on that side is
 * within amp_tol of the largest contributes (repeated cycles at the same amplitude are used together).
 * A loading half-cycle contributes when its peak reaches (1 - amp_tol) x the largest peak of that side; its
 * unloading branch is the half-cycle that follows, down to q = 0. The first half-cycle of the record (loading
 * from the initial state, not from a reversal) is used only when no other half-cycle qualifies. The peak
 * sample belongs to both branches. */
typedef struct hy_branches {
    hy_curve fwd_pos, bwd_pos, fwd_neg, bwd_neg;
    size_t   cycles_pos, cycles_neg;   /* cycles that contributed on each side                              */
    double   amp_pos, amp_neg;         /* limit amplitudes used                                             */
} hy_branches;

// (q[n], Q[n], analysis) => branches of the limit loop(s)
int hy_loops_branches(const double *q, const double *Q, size_t n, const hy_loops *L, const hy_loops_opts *o,
                      hy_branches *B, hy_err *err);

// (B) => memory released
void hy_branches_free(hy_branches *B);

#endif

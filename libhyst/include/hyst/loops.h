/* Loop analysis of a hysteresis record: reversals, half-cycles, cycles, dissipated energy, backbones and the
 * branches of the outermost loop. Works on plain arrays so that every caller (CLI, fitting, replay) shares it. */
#ifndef HYST_LOOPS_H
#define HYST_LOOPS_H

#include <stddef.h>
#include "hyst/common.h"

typedef struct hy_loops_opts {
    double threshold; /* reversal threshold in q units: a reversal counts only once q has moved back by more
                         than this; <= 0 derives it from the data                                            */
    double amp_tol;   /* cycles whose amplitude is within this fraction of the largest count as the limit
                         loop when the branches are extracted (default 0.05)                                 */
} hy_loops_opts;

typedef struct hy_reversal {
    size_t i;         /* sample index of the extreme                                                          */
    int    kind;      /* +1: local maximum of q, -1: local minimum                                            */
} hy_reversal;

typedef struct hy_halfcycle {
    size_t i0, i1;    /* samples from one reversal (or the start) to the next (or the end)                    */
    int    dir;       /* +1: q increasing, -1: q decreasing                                                   */
    double range;     /* |q(i1) - q(i0)|                                                                      */
    double energy;    /* integral of Q dq along it (trapezoid)                                                */
} hy_halfcycle;

typedef struct hy_cycle {
    size_t i0, i1;    /* closed cycle: from a reversal to the next reversal of the same kind                  */
    double amp_pos;   /* largest q in the cycle (positive amplitude, q units)                                 */
    double amp_neg;   /* minus the smallest q in the cycle (>= 0 for a cycle that crosses zero)               */
    double Q_max, Q_min;   /* peak forces                                                                     */
    double energy;    /* dissipated energy: integral of Q dq around the cycle (enclosed area)                 */
    double cum_energy;/* dissipated energy of cycles 0..this one                                              */
    double k_sec;     /* secant stiffness (Q at q_max - Q at q_min) / (q_max - q_min)                         */
    double e_strain;  /* strain energy E_S used for xi_eq                                                     */
    double xi_eq;     /* equivalent viscous damping ratio E_D / (4 pi E_S)                                    */
} hy_cycle;

typedef struct hy_curve {
    size_t  n;
    double *q, *Q;
} hy_curve;

typedef struct hy_loops {
    size_t        n;            /* samples analysed                                                           */
    double        threshold;    /* threshold used                                                             */
    size_t        n_rev;   hy_reversal  *rev;
    size_t        n_half;  hy_halfcycle *half;
    size_t        n_cyc;   hy_cycle     *cyc;
    double        total_energy; /* integral of Q dq along the whole record (open path, trapezoid)            */
    hy_curve      backbone_pos; /* envelope: peak points of growing positive amplitude                        */
    hy_curve      backbone_neg; /* same on the negative side (q < 0), ordered by growing |q|                  */
} hy_loops;

// (o) => default options
void hy_loops_opts_default(hy_loops_opts *o);

// (q[n], Q[n], options) => reversals, half-cycles, cycles, energies, backbones
int hy_loops_analyze(const double *q, const double *Q, size_t n, const hy_loops_opts *o, hy_loops *L,
                     hy_err *err);

// (L) => memory released
void hy_loops_free(hy_loops *L);

/* The branches of the limit (outermost) loop as the fitting tools need them. On the positive side the forward
 * branch is the loading part (q > 0, q growing) and the backward branch the unloading part (q > 0, q shrinking);
 * likewise on the negative side with |q|. Points keep record order; every cycle whose amplitude on that side is
 * within amp_tol of the largest contributes (repeated cycles at the same amplitude are used together). */
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

/* Pieces of the loop analysis shared between its source files (not part of the public interface). */
#ifndef HYST_LOOPS_INTERNAL_H
#define HYST_LOOPS_INTERNAL_H

#include <stdint.h>
#include "hyst/loops.h"

// (q[n], Q[n], reversals, threshold) => rev[].major, L->n_major, L->inner (the rainflow inner loops, by i0)
int hy_loops_inner_build(const double *q, const double *Q, size_t n, hy_loops *L, hy_err *err);

// (q, Q, half-cycles) => L->backbone_pos and L->backbone_neg (envelopes of the half-cycle peaks)
int hy_loops_backbone_build(const double *q, const double *Q, hy_loops *L, hy_err *err);

// (curve) => memory released, curve empty
void hy_loops_curve_free(hy_curve *c);

// (curve, capacity) => curve with room for cap points (n = 0); cap 0 leaves it empty
int hy_loops_curve_alloc(hy_curve *c, size_t cap);

/* The reversal gate of hy_loops_reversals, one sample at a time (docs/loops.md "Reversals"), so that the whole-record
 * analysis and the streamed one (loops_stream.c) find the same reversals. */
typedef struct hy_loops_gate {
    double h, hi, lo;
    size_t ihi, ilo;
    int dir;                        /* 0 until q first moves by more than h; then +1 rising, -1 falling      */
} hy_loops_gate;

// (gate, threshold, first sample q[0]) => gate at sample 0
static inline void hy_loops_gate_init(hy_loops_gate *g, double h, double q0)
{
    g->h = h, g->hi = g->lo = q0, g->ihi = g->ilo = 0, g->dir = 0;
}

// (gate, sample i >= 1, q[i]) => +1 / -1 when a maximum / minimum is confirmed (its sample in *at), else 0
static inline int hy_loops_gate_push(hy_loops_gate *g, size_t i, double x, size_t *at)
{
    if (g->dir == 0) {   /* undecided start: the first move by more than h sets the direction */
        if (x > g->hi) { g->hi = x; g->ihi = i; }
        if (x < g->lo) { g->lo = x; g->ilo = i; }
        if (x - g->lo > g->h) {
            g->dir = 1;    /* every sample since ilo is below lo + h < x */
            g->hi = x; g->ihi = i;
        } else if (g->hi - x > g->h) {
            g->dir = -1;
            g->lo = x; g->ilo = i;
        }
        return 0;
    }
    if (g->dir > 0) {
        if (x > g->hi) {
            g->hi = x; g->ihi = i;
        } else if (g->hi - x > g->h) {
            *at = g->ihi;
            g->dir = -1;
            g->lo = x; g->ilo = i;
            return +1;
        }
    } else {
        if (x < g->lo) {
            g->lo = x; g->ilo = i;
        } else if (x - g->lo > g->h) {
            *at = g->ilo;
            g->dir = 1;
            g->hi = x; g->ihi = i;
            return -1;
        }
    }
    return 0;
}

/* The noise medians of the default threshold by radix selection on the bit patterns of the scaled second
 * differences (loops_reversals.c): the key of one difference, the bucket of rank *k in a histogram (*k made the
 * rank within it), and the rule that turns the medians into the threshold; shared by the whole-record and the
 * streamed analysis. */
uint32_t hy_loops_d2_key(double d2, double scale);
uint32_t hy_loops_bucket(const size_t *cnt, size_t *k);
double hy_loops_median_value(uint32_t hi, uint32_t lo, double scale);
void hy_loops_thr_rule(double med1, double med2, double r, size_t n, hy_loops_thr *t);
/* (options or NULL, room for the defaults) => the options to use (*o set), or an error for a non-finite threshold
 * or centre: shared by the whole-record and the streamed analysis, so both refuse the same options alike */
int hy_loops_opts_resolve(const hy_loops_opts **o, hy_loops_opts *def, hy_err *err);

#endif

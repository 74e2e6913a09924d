/* Pieces of the loop analysis shared between its source files (not part of the public interface). */
#ifndef HYST_LOOPS_INTERNAL_H
#define HYST_LOOPS_INTERNAL_H

#include "hyst/loops.h"

// (q[n], Q[n], reversals, threshold) => rev[].major, L->n_major, L->inner (the rainflow inner loops, by i0)
int hy_loops_inner_build(const double *q, const double *Q, size_t n, hy_loops *L, hy_err *err);

// (q, Q, half-cycles) => L->backbone_pos and L->backbone_neg (envelopes of the half-cycle peaks)
int hy_loops_backbone_build(const double *q, const double *Q, hy_loops *L, hy_err *err);

// (curve) => memory released, curve empty
void hy_loops_curve_free(hy_curve *c);

// (curve, capacity) => curve with room for cap points (n = 0); cap 0 leaves it empty
int hy_loops_curve_alloc(hy_curve *c, size_t cap);

#endif

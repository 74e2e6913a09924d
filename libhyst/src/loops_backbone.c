// Backbone (envelope) curves of a cyclic record: the peak points that reach a new largest amplitude on each
// side, ordered by growing |q| (docs/loops.md, "Backbone").
#include <stdlib.h>
#include "loops_internal.h"

// (curve) => memory released, curve empty
void hy_loops_curve_free(hy_curve *c)
{
    if (!c)
        return;
    free(c->q);
    free(c->Q);
    c->q = c->Q = NULL;
    c->n = 0;
}

// (curve, capacity) => curve with room for cap points (n = 0)
int hy_loops_curve_alloc(hy_curve *c, size_t cap)
{
    c->n = 0;
    c->q = c->Q = NULL;
    if (cap == 0)
        return 0;
    c->q = malloc(cap * sizeof *c->q);
    c->Q = malloc(cap * sizeof *c->Q);
    if (!c->q || !c->Q) {
        hy_loops_curve_free(c);
        return -1;
    }
    return 0;
}

/* A peak is the end of a half-cycle moving away from zero: a reversal, or the last sample when the record
 * stops while still moving outwards (the furthest point reached is on the envelope even if it is not a
 * reversal). Each new peak beyond every earlier one on its side is an envelope point, so the points come out
 * in record order and by growing |q| at once. Q is the force at the peak sample. */
// (q, Q, half-cycles) => L->backbone_pos and L->backbone_neg
int hy_loops_backbone_build(const double *q, const double *Q, hy_loops *L, hy_err *err)
{
    size_t np = 0, nn = 0;
    for (size_t h = 0; h < L->n_half; h++) {
        if (L->half[h].dir > 0) np++;
        else nn++;
    }
    if (hy_loops_curve_alloc(&L->backbone_pos, np) || hy_loops_curve_alloc(&L->backbone_neg, nn)) {
        hy_loops_curve_free(&L->backbone_pos);
        hy_loops_curve_free(&L->backbone_neg);
        return hy_err_set(err, HY_ENOMEM, "out of memory building the backbone curves");
    }
    double best_pos = 0.0, best_neg = 0.0;
    for (size_t h = 0; h < L->n_half; h++) {
        size_t i = L->half[h].i1;
        double x = q[i];
        if (L->half[h].dir > 0 && x > best_pos) {
            best_pos = x;
            hy_curve *c = &L->backbone_pos;
            c->q[c->n] = x;
            c->Q[c->n] = Q[i];
            c->n++;
        } else if (L->half[h].dir < 0 && x < best_neg) {
            best_neg = x;
            hy_curve *c = &L->backbone_neg;
            c->q[c->n] = x;
            c->Q[c->n] = Q[i];
            c->n++;
        }
    }
    return HY_OK;
}

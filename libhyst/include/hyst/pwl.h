/* Piecewise-linear hysteresis model with the branch state machine (spec 000).
 *
 * CONTRACT (used by fitting, sim, replay, plot): the table types and hy_pwl_model_new / hy_pwl_model_table /
 * hy_pwl_model_free keep these signatures. The owner of this module adds the state, trial/commit/revert and
 * everything else below the marker. */
#ifndef HYST_PWL_H
#define HYST_PWL_H

#include <stddef.h>
#include "hyst/common.h"
#include "hyst/element.h"

typedef enum hy_pwl_kind {
    HY_PWL_CONSTANT = 0,  /* constant parameters (spec 000 §2)                                            */
    HY_PWL_FRICTION = 1   /* variable parameters, gear train with friction brake (spec 000 §3)            */
} hy_pwl_kind;

/* One branch as points (q_i, Q_i), i = 1..n, ordered by growing |q|: point 1 is the end of the backlash
 * (|q_1| = backlash width, Q_1 = 0), segment i runs from point i to point i+1. Negative-side points have q < 0. */
typedef struct hy_pwl_points {
    size_t        n;
    const double *q;
    const double *Q;
} hy_pwl_points;

typedef struct hy_pwl_side {
    hy_pwl_points forward;    /* F: loading branch (|q| growing)                                          */
    hy_pwl_points backward;   /* B: unloading branch (|q| shrinking)                                      */
    double        k_beyond;   /* slope of the common segment beyond the last point (0 for the friction kind) */
} hy_pwl_side;

typedef struct hy_pwl_table {
    hy_pwl_kind kind;
    hy_pwl_side positive, negative;
} hy_pwl_table;

typedef struct hy_pwl_model hy_pwl_model;   /* compiled, validated, immutable */

// (table, name for messages) => compiled model (arrays copied); HY_EMODEL with the broken assumption named
int hy_pwl_model_new(const hy_pwl_table *t, const char *name, hy_pwl_model **out, hy_err *err);

// (model) => table view whose arrays point into the model (valid while the model lives)
void hy_pwl_model_table(const hy_pwl_model *m, hy_pwl_table *t);

// (model) => memory released
void hy_pwl_model_free(hy_pwl_model *m);

/* ---- below: owned by the piecewise-linear model module ---- */

#endif

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

/* Branch state codes (spec 000 §2, "States"); the negative side uses the same codes with a minus sign. */
enum hy_pwl_state_code {
    HY_PWL_COMMON     = 0,   /* backlash and first common segment, both sides                               */
    HY_PWL_FORWARD    = 1,   /* forward (loading) branch F                                                  */
    HY_PWL_BACKWARD   = 2,   /* backward (unloading) branch B                                               */
    HY_PWL_TRANSITION = 3,   /* transition segment of slope k_max between F and B                           */
    HY_PWL_BEYOND     = 10   /* common last segment beyond the working range                                */
};

/* ---- model queries (all O(1) or O(log n); the model is immutable) ---- */

// (model) => kind of the table
hy_pwl_kind hy_pwl_model_kind(const hy_pwl_model *m);

// (model, side +1 / -1) => transition slope k_max of that side (constant kind: k_beyond; friction kind: the
// largest slope of the working segments, spec 000 §3 item 3)
double hy_pwl_model_kmax(const hy_pwl_model *m, int side);

// (model, branch HY_PWL_FORWARD or HY_PWL_BACKWARD, table abscissa q) => Q on that branch of the side q lies on,
// with the backlash (Q = 0), the common segments and the beyond-range segment; the friction shift is NOT applied
// (pass q - shift). These are the envelopes that bound Q in every state.
double hy_pwl_model_branch(const hy_pwl_model *m, int branch, double q);

// (model) => the common region (q_FN(2), q_FP(2)) of state 0 in table abscissas (Table 1, first row)
void hy_pwl_model_common(const hy_pwl_model *m, double *q_lo, double *q_hi);

/* ---- transition geometry (spec 000 §2) ---- */

// (line through (x0, y0) with slope k; segment line through (xa, ya), (xb, yb)) => crossing (x, y) of the two
// lines by Cramer's rule on the 2x2 system of spec 000 §2 (solved about (xa, ya) for accuracy); 1 when found,
// 0 when the lines are parallel (x, y untouched). Does not check that x lies within [xa, xb].
int hy_pwl_intersect(double x0, double y0, double k, double xa, double ya, double xb, double yb, double *x,
                     double *y);

// (model, state +-1 or +-2 the reversal leaves, table abscissa q of the reversal point) => transition segment
// from (q3b, Q3b) on B to (q3e, Q3e) on F through the reversal point with slope k_max (spec 000 §2, Table 1 (*)).
// Leaving F (1 -> 3) the reversal point is the end; leaving B (2 -> 3) it is the start. When round-off leaves the
// line without a crossing in the working segments it is taken to meet the common first segment / backlash (from
// F) or the common last point (from B); see docs/pwl-model.md. HY_EARG for a state other than +-1, +-2.
int hy_pwl_transition(const hy_pwl_model *m, int state, double q, double *q3b, double *Q3b, double *q3e,
                      double *Q3e);

/* ---- state (data): one per element instance, no allocation ---- */

typedef struct hy_pwl_state {
    int    state;                 /* 0, +-1, +-2, +-3, +-10 (enum hy_pwl_state_code times the side's sign)       */
    int    seg;                   /* cached segment index on the current branch, for O(1) lookup on smooth drives */
    double q, Q;                  /* the last point                                                               */
    double dQdq;                  /* tangent at the last point, in the direction of motion                        */
    double shift;                 /* cumulative abscissa shift of the friction kind (spec 000 §3 item 2);
                                     table abscissa = q - shift. In states +-10 q itself is the slip extreme.    */
    double q3b, Q3b, q3e, Q3e;    /* transition segment in displacement q (states +-3): start on B, end on F;
                                     on the negative side q3e < q3b                                               */
    double qa, Qa;                /* the point the transition line was anchored at (the reversal point)           */
} hy_pwl_state;

typedef struct hy_pwl_data {
    const hy_pwl_model *model;
    hy_pwl_state        committed;  /* accepted state                                                           */
    hy_pwl_state        trial;      /* result of the last trial (equal to committed after commit / revert)      */
    int                 strict;     /* 0: follow the path (default); 1: apply Table 1 literally (see below)     */
    int                 dirty;      /* 1 when trial may differ from committed in more than q, Q, dQdq, seg, so
                                       that commit copies the whole state (the common step copies 4 fields)      */
} hy_pwl_data;

// (model, d) => d at rest at the origin in state 0, path mode
void hy_pwl_data_init(hy_pwl_data *d, const hy_pwl_model *m);

// (d, q0, Q0) => d at rest at (q0, Q0) with no shift: state 0, 1, 2, 10 when the point lies on that curve, 3 on
// the slope-k_max line through it when it lies between B and F; HY_EMODEL when it lies outside the envelopes
int hy_pwl_data_reset(hy_pwl_data *d, double q0, double Q0, hy_err *err);

/* (committed state, q, qdot) => Q and dQ/dq; the trial state is written, the committed state is not.
 * Path mode (default): the displacement is followed from the committed q to q, through every Table 1 row it
 * crosses (any step size gives the same result as many small steps); then, when qdot points against the branch
 * reached, the reversal row of Table 1 is applied at q (1 -> 3, 2 -> 3 / 10, 10 -> 2), which changes the state and
 * the tangent but not Q. qdot = 0 keeps the branch reached. Strict mode: one Table 1 row chosen from (state, q,
 * qdot) as in the paper; a combination with no row is HY_ESTATE. Non-finite q or qdot is HY_ERANGE in both modes.
 * On error diag names the committed state, q, qdot and the rule; the trial state is left equal to committed. */
int hy_pwl_trial(hy_pwl_data *d, double q, double qdot, double *Q, double *dQdq, hy_diag *diag);

// (trial state) => committed state
static inline void hy_pwl_commit(hy_pwl_data *d)
{
    if (d->dirty) {
        d->committed = d->trial;
        d->dirty = 0;
    } else { /* the step stayed on its curve: only these fields changed */
        d->committed.seg = d->trial.seg;
        d->committed.q = d->trial.q;
        d->committed.Q = d->trial.Q;
        d->committed.dQdq = d->trial.dQdq;
    }
}

// (committed state) => trial state dropped
static inline void hy_pwl_revert(hy_pwl_data *d)
{
    d->trial = d->committed;
    d->dirty = 0;
}

// (d) => committed branch state code
static inline int hy_pwl_state_of(const hy_pwl_data *d) { return d->committed.state; }

// (d, strict) => mode set (0 path, 1 strict Table 1)
static inline void hy_pwl_set_strict(hy_pwl_data *d, int strict) { d->strict = strict != 0; }

// (element made by hy_pwl_element_new / hy_model_element) => its pwl data, or NULL for another family
hy_pwl_data *hy_pwl_element_data(hy_element *e);

#endif

/* A hysteretic element: the one interface through which simulators, `hyst sim` and `hyst replay` drive any
 * model family (piecewise-linear tables, kinematic ODE). Copied from OpenSees uniaxial materials:
 *
 *   trial(q, qdot)  -> Q and dQ/dq at a trial displacement, measured from the COMMITTED state; the committed
 *                      state is not changed, so a Runge-Kutta stage or a Newton iteration may call it any number
 *                      of times;
 *   commit()        -> the last trial becomes the committed state;
 *   revert()        -> the last trial is dropped.
 *
 * Model (immutable, shared) and data (mutable state, one per element instance) are separate: `self` points at
 * the family's element struct, which holds a const pointer to its model and its own state. No call here
 * allocates, except new/destroy. */
#ifndef HYST_ELEMENT_H
#define HYST_ELEMENT_H

#include "hyst/common.h"

/* What went wrong in a trial, for the caller to report with its own context (time, step). */
typedef struct hy_diag {
    int    code;        /* HY_ESTATE (state-machine violation), HY_ERANGE (outside the valid range), ...     */
    int    state;       /* model state code at the committed point                                         */
    double q, qdot;     /* the trial input that broke it                                                   */
    char   rule[200];   /* the rule it broke, in words (spec reference where there is one)                 */
} hy_diag;

typedef struct hy_element_ops {
    const char *family;  /* "pwl", "kin"                                                                   */
    // (committed state, q, qdot) => Q, dQ/dq; committed state unchanged; HY_OK or an error with diag filled
    int  (*trial)(void *self, double q, double qdot, double *Q, double *dQdq, hy_diag *diag);
    // (trial state) => committed state
    void (*commit)(void *self);
    // (committed state) => trial state discarded
    void (*revert)(void *self);
    // (model, q0, Q0) => committed state at rest at (q0, Q0); HY_EMODEL when the point is not admissible
    int  (*reset)(void *self, double q0, double Q0, hy_err *err);
    // (committed state) => integer state code for output (branch state for pwl, direction for kin)
    int  (*state_code)(const void *self);
    // (self) => memory released
    void (*destroy)(void *self);
} hy_element_ops;

typedef struct hy_element {
    const hy_element_ops *ops;
    void                 *self;
} hy_element;

static inline int  hy_element_trial(hy_element *e, double q, double qdot, double *Q, double *dQdq, hy_diag *d)
{ return e->ops->trial(e->self, q, qdot, Q, dQdq, d); }
static inline void hy_element_commit(hy_element *e) { e->ops->commit(e->self); }
static inline void hy_element_revert(hy_element *e) { e->ops->revert(e->self); }
static inline int  hy_element_reset(hy_element *e, double q0, double Q0, hy_err *err)
{ return e->ops->reset(e->self, q0, Q0, err); }
static inline int  hy_element_state(const hy_element *e) { return e->ops->state_code(e->self); }

/* (element at its committed state, q[0..n-1], optional t[] or NULL) => Q[0..n-1] and, when states != NULL, the
 * state code after each sample. Steps trial + commit sample by sample from the committed state, with
 * qdot = (q[i] - q[i-1]) / (t[i] - t[i-1]) (or q[i] - q[i-1] without time; q[-1] is the committed q).
 * On a violation it stops: returns the trial's code, fills diag, and *done = number of samples computed
 * (all of them on success). Allocates nothing. */
int hy_element_drive(hy_element *e, double q_start, const double *t, const double *q, size_t n, double *Q,
                     int *states, size_t *done, hy_diag *diag);

// (e) => element memory released (the model is not touched); safe on a zeroed element
void hy_element_free(hy_element *e);

// (diag) => one-line human-readable description into buf
void hy_diag_format(const hy_diag *d, char *buf, size_t len);

#endif

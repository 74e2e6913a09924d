/* Kinematic hysteresis ODE (spec 002) as a hysteretic element (hyst/element.h): trial integrates df/dq = R_s
 * from the committed point to the trial q in the q-domain, so the element is exactly rate-independent. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "hyst/model.h"
#include "kin_internal.h"

__attribute__((format(printf, 6, 7)))
static void fill_diag(hy_diag *d, int code, const hy_kin_state *st, double q, double qdot, const char *fmt, ...)
{
    if (!d)
        return;
    d->code = code;
    d->state = st->dir_c;
    d->q = q;
    d->qdot = qdot;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->rule, sizeof d->rule, fmt, ap);
    va_end(ap);
}

// (committed state, q, qdot) => f and df/dq at q; committed state unchanged
static int kin_trial(void *self, double q, double qdot, double *Q, double *dQdq, hy_diag *diag)
{
    hy_kin_state *st = self;
    const hy_kin_model *m = st->model;
    if (!isfinite(q) || !isfinite(qdot)) {
        fill_diag(diag, HY_EARG, st, q, qdot, "trial input is not a finite number");
        return HY_EARG;
    }
    if (!hy_kin_in_range(m, q)) {
        fill_diag(diag, HY_ERANGE, st, q, qdot,
                  "q is outside the valid range [%.10g, %.10g] of the coefficients (spec 002 §3.3)",
                  m->spec.q_min, m->spec.q_max);
        return HY_ERANGE;
    }
    /* direction rule (spec 002 §1.4): sign of qdot, else the sign of the displacement from the committed point */
    int s = qdot > 0.0 ? 1 : qdot < 0.0 ? -1 : (q > st->q_c ? 1 : q < st->q_c ? -1 : 0);
    double f = st->f_c;
    if (q != st->q_c)
        f = hy_kin_integrate(m, s, st->q_c, st->f_c, q);
    int s_law = s ? s : (st->dir_c ? st->dir_c : 1);
    double dfdq = kin_poly(kin_law(m, s_law), q, f);
    if (!isfinite(f) || !isfinite(dfdq)) {
        fill_diag(diag, HY_ENUMERIC, st, q, qdot,
                  "the force diverged integrating from the committed point q = %.10g, f = %.10g", st->q_c, st->f_c);
        return HY_ENUMERIC;
    }
    st->q_t = q;
    st->f_t = f;
    st->dfdq_t = dfdq;
    st->dir_t = s ? s : st->dir_c;
    *Q = f;
    if (dQdq)
        *dQdq = dfdq;
    return HY_OK;
}

// (trial state) => committed state
static void kin_commit(void *self)
{
    hy_kin_state *st = self;
    st->q_c = st->q_t;
    st->f_c = st->f_t;
    st->dir_c = st->dir_t;
}

// (committed state) => trial dropped
static void kin_revert(void *self)
{
    hy_kin_state *st = self;
    st->q_t = st->q_c;
    st->f_t = st->f_c;
    st->dir_t = st->dir_c;
    st->dfdq_t = kin_poly(kin_law(st->model, st->dir_c ? st->dir_c : 1), st->q_c, st->f_c);
}

// (model, q0, f0) => state at rest at (q0, f0)
int hy_kin_state_init(hy_kin_state *st, const hy_kin_model *m, double q0, double f0, hy_err *err)
{
    if (!isfinite(q0) || !isfinite(f0))
        return hy_err_set(err, HY_EMODEL, "kinematic element: start point (%g, %g) is not finite", q0, f0);
    if (!hy_kin_in_range(m, q0))
        return hy_err_set(err, HY_EMODEL,
                          "kinematic element: start q = %.10g is outside the valid range [%.10g, %.10g]", q0,
                          m->spec.q_min, m->spec.q_max);
    st->model = m;
    st->q_c = q0;
    st->f_c = f0;
    st->dir_c = 0;
    kin_revert(st);
    return HY_OK;
}

static int kin_reset(void *self, double q0, double Q0, hy_err *err)
{
    hy_kin_state *st = self;
    return hy_kin_state_init(st, st->model, q0, Q0, err);
}

static int kin_state_code(const void *self)
{
    return ((const hy_kin_state *)self)->dir_c;
}

static void kin_destroy_owned(void *self)
{
    free(self);
}

static void kin_destroy_view(void *self)
{
    (void)self;
}

static const hy_element_ops owned_ops = {"kin",  kin_trial,      kin_commit,       kin_revert,
                                         kin_reset, kin_state_code, kin_destroy_owned};
static const hy_element_ops view_ops = {"kin",  kin_trial,      kin_commit,      kin_revert,
                                        kin_reset, kin_state_code, kin_destroy_view};

// (state) => element view (no allocation)
void hy_kin_element_wrap(hy_kin_state *st, hy_element *e)
{
    e->ops = &view_ops;
    e->self = st;
}

// (model) => a new element at rest at the origin (or at the middle of the range when 0 is outside it)
int hy_kin_element_new(const hy_kin_model *m, hy_element *e, hy_err *err)
{
    e->ops = NULL;
    e->self = NULL;
    hy_kin_state *st = malloc(sizeof *st);
    if (!st)
        return hy_err_set(err, HY_ENOMEM, "kinematic element: out of memory");
    double q0 = hy_kin_in_range(m, 0.0) ? 0.0 : 0.5 * (m->spec.q_min + m->spec.q_max);
    int rc = hy_kin_state_init(st, m, q0, 0.0, err);
    if (rc != HY_OK) {
        free(st);
        return rc;
    }
    e->ops = &owned_ops;
    e->self = st;
    return HY_OK;
}

/* Iwan model as a hysteretic element (hyst/element.h). The state is each Jenkins element's spring deflection
 * d_i = q - x_i; a trial moves every spring by q - q_c from its committed deflection and clips it to the slip
 * deflection phi_i (the slider takes the rest). Exact for any step: a Jenkins element is rate-independent and
 * piecewise linear, and a monotone move from the committed state is all a trial sees. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/model.h"
#include "iwan_internal.h"

typedef struct iwan_state {
    const hy_iwan_model *model;
    double q_c, q_t;
    int    dir_c, dir_t;
    double *d_c, *d_t;   /* n committed / trial deflections (allocated with the state) */
} iwan_state;

static int iwan_trial(void *self, double q, double qdot, double *Q, double *dQdq, hy_diag *diag)
{
    iwan_state *st = self;
    const hy_iwan_model *m = st->model;
    if (!isfinite(q) || !isfinite(qdot)) {
        if (diag) {
            *diag = (hy_diag){.code = HY_EARG, .state = st->dir_c, .q = q, .qdot = qdot};
            snprintf(diag->rule, sizeof diag->rule, "trial input is not a finite number");
        }
        return HY_EARG;
    }
    double dq = q - st->q_c, F = m->k_inf * q, Kt = m->k_inf;
    const double *k = m->k, *phi = m->phi, *dc = st->d_c;
    double *dt = st->d_t;
    for (int i = 0; i < m->n; i++) {
        /* branch-free clip (ternaries, not fmin/fmax, whose NaN rules keep the compiler from vectorising) */
        double d = dc[i] + dq, ph = phi[i];
        double c = d > ph ? ph : d < -ph ? -ph : d;
        dt[i] = c;
        F += k[i] * c;
        Kt += d == c ? k[i] : 0.0;
    }
    st->q_t = q;
    st->dir_t = dq > 0 ? 1 : dq < 0 ? -1 : st->dir_c;
    *Q = F;
    if (dQdq)
        *dQdq = Kt;
    return HY_OK;
}

static void iwan_commit(void *self)
{
    iwan_state *st = self;
    st->q_c = st->q_t;
    st->dir_c = st->dir_t;
    memcpy(st->d_c, st->d_t, (size_t)st->model->n * sizeof *st->d_c);
}

static void iwan_revert(void *self)
{
    iwan_state *st = self;
    st->q_t = st->q_c;
    st->dir_t = st->dir_c;
    memcpy(st->d_t, st->d_c, (size_t)st->model->n * sizeof *st->d_c);
}

/* Reset to (q0, Q0): every spring relaxed (d = 0) is the only state without history; Q0 must be k_inf q0. */
static int iwan_reset(void *self, double q0, double Q0, hy_err *err)
{
    iwan_state *st = self;
    if (!isfinite(q0) || !isfinite(Q0))
        return hy_err_set(err, HY_EMODEL, "Iwan element: start point (%g, %g) is not finite", q0, Q0);
    double Qr = st->model->k_inf * q0;
    if (fabs(Q0 - Qr) > 1e-12 * (1 + fabs(Qr)))
        return hy_err_set(err, HY_EMODEL, "Iwan element: a start at rest at q = %g has Q = %g (k_inf q), not %g",
                          q0, Qr, Q0);
    st->q_c = q0;
    st->dir_c = 0;
    memset(st->d_c, 0, (size_t)st->model->n * sizeof *st->d_c);
    iwan_revert(st);
    return HY_OK;
}

static int iwan_state_code(const void *self) { return ((const iwan_state *)self)->dir_c; }
static void iwan_destroy(void *self) { free(self); }

static const hy_element_ops ops = {"iwan", iwan_trial, iwan_commit, iwan_revert, iwan_reset, iwan_state_code,
                                   iwan_destroy};

// (model) => a new element at rest at the origin; one allocation holds the state and its two arrays
int hy_iwan_element_new(const hy_iwan_model *m, hy_element *e, hy_err *err)
{
    e->ops = NULL;
    e->self = NULL;
    size_t n = (size_t)m->n;
    iwan_state *st = calloc(1, sizeof *st + 2 * n * sizeof(double));
    if (!st)
        return hy_err_set(err, HY_ENOMEM, "Iwan element: out of memory");
    st->model = m;
    st->d_c = (double *)(st + 1);
    st->d_t = st->d_c + n;
    e->ops = &ops;
    e->self = st;
    return HY_OK;
}

/* (iwan element) => dst: a new element of the same model with src's committed and trial deflections
 * (hy_element_copy; the Python bindings' Model.copy) */
int hy_iwan_element_copy(const hy_element *src, hy_element *dst, hy_err *err)
{
    const iwan_state *s = src->self;
    int rc = hy_iwan_element_new(s->model, dst, err);
    if (rc != HY_OK)
        return rc;
    iwan_state *d = dst->self;
    d->q_c = s->q_c, d->q_t = s->q_t, d->dir_c = s->dir_c, d->dir_t = s->dir_t;
    memcpy(d->d_c, s->d_c, 2 * (size_t)s->model->n * sizeof(double));   /* d_t follows d_c in the one block */
    return HY_OK;
}

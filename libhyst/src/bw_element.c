/* Bouc-Wen model as a hysteretic element (hyst/element.h): trial integrates the law in the q-domain from the
 * committed point to the trial q (bw_integrate.c), so the element is rate-independent and trial never touches
 * the committed state. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "hyst/model.h"
#include "bw_internal.h"

static int bw_trial(void *self, double q, double qdot, double *Q, double *dQdq, hy_diag *diag)
{
    hy_bw_state *st = self;
    const hy_bw_model *m = st->model;
    if (!isfinite(q) || !isfinite(qdot)) {
        if (diag) {
            *diag = (hy_diag){.code = HY_EARG, .state = st->dir_c, .q = q, .qdot = qdot};
            snprintf(diag->rule, sizeof diag->rule, "trial input is not a finite number");
        }
        return HY_EARG;
    }
    double dq = q - st->q_c;
    int s = dq > 0 ? 1 : dq < 0 ? -1 : (qdot > 0 ? 1 : qdot < 0 ? -1 : (st->dir_c ? st->dir_c : 1));
    double z, e, dzdq;
    int rc = HY_OK;
    if (m->exact) { /* the hot path (n = 1, no degradation): the closed form inline, no call */
        double y = s > 0 ? st->z_c : -st->z_c;
        dzdq = hy_bw_exact(m, &y, fabs(dq));
        z = s > 0 ? y : -y;
        e = st->e_c;
        if (!isfinite(z))
            rc = HY_ENUMERIC;
    } else {
        rc = hy_bw_integrate(m, s, st->z_c, st->e_c, fabs(dq), &z, &e, &dzdq);
    }
    if (rc != HY_OK) {
        if (diag) {
            *diag = (hy_diag){.code = rc, .state = st->dir_c, .q = q, .qdot = qdot};
            snprintf(diag->rule, sizeof diag->rule,
                     rc == HY_ERANGE ? "Bouc-Wen: the move from q = %.10g is too long for the sub-step cap, or "
                                       "strength degradation drove A - delta_A e to 0 (docs/bw-model.md)"
                                     : "Bouc-Wen: z diverged integrating from q = %.10g", st->q_c);
        }
        return rc;
    }
    st->q_t = q;
    st->z_t = z;
    st->e_t = e;
    st->dzdq_t = dzdq;
    st->dir_t = dq != 0 ? s : st->dir_c;
    *Q = m->ak * q + m->ck * z;
    if (dQdq)
        *dQdq = m->ak + m->ck * dzdq;
    return HY_OK;
}

static void bw_commit(void *self)
{
    hy_bw_state *st = self;
    st->q_c = st->q_t;
    st->z_c = st->z_t;
    st->e_c = st->e_t;
    st->dir_c = st->dir_t;
}

static void bw_revert(void *self)
{
    hy_bw_state *st = self;
    st->q_t = st->q_c;
    st->z_t = st->z_c;
    st->e_t = st->e_c;
    st->dir_t = st->dir_c;
}

// (model, q0) => at rest at q0, z = 0, e = 0
void hy_bw_state_init(hy_bw_state *st, const hy_bw_model *m, double q0)
{
    st->model = m;
    st->q_c = q0;
    st->z_c = 0.0;
    st->e_c = 0.0;
    st->dir_c = 0;
    st->dzdq_t = m->p.A;
    bw_revert(st);
}

/* Reset to (q0, Q0): z chosen so that Q0 = alpha k q0 + (1 - alpha) k z; refused when |z| exceeds the plateau. */
static int bw_reset(void *self, double q0, double Q0, hy_err *err)
{
    hy_bw_state *st = self;
    const hy_bw_model *m = st->model;
    if (!isfinite(q0) || !isfinite(Q0))
        return hy_err_set(err, HY_EMODEL, "Bouc-Wen element: start point (%g, %g) is not finite", q0, Q0);
    double z = (Q0 - m->p.alpha * m->p.k * q0) / m->ck;
    if (fabs(z) > m->z_u * (1 + 1e-12))
        return hy_err_set(err, HY_EMODEL, "Bouc-Wen element: start point (%g, %g) needs |z| = %g above the "
                          "plateau z_u = %g", q0, Q0, fabs(z), m->z_u);
    hy_bw_state_init(st, m, q0);
    st->z_c = st->z_t = z;
    return HY_OK;
}

static int bw_state_code(const void *self) { return ((const hy_bw_state *)self)->dir_c; }
static void bw_destroy_owned(void *self) { free(self); }
static void bw_destroy_view(void *self) { (void)self; }

static const hy_element_ops owned_ops = {"bw", bw_trial, bw_commit, bw_revert, bw_reset, bw_state_code,
                                         bw_destroy_owned};
static const hy_element_ops view_ops = {"bw", bw_trial, bw_commit, bw_revert, bw_reset, bw_state_code,
                                        bw_destroy_view};

void hy_bw_element_wrap(hy_bw_state *st, hy_element *e)
{
    e->ops = &view_ops;
    e->self = st;
}

// (model) => a new element at rest at the origin
int hy_bw_element_new(const hy_bw_model *m, hy_element *e, hy_err *err)
{
    e->ops = NULL;
    e->self = NULL;
    hy_bw_state *st = malloc(sizeof *st);
    if (!st)
        return hy_err_set(err, HY_ENOMEM, "Bouc-Wen element: out of memory");
    hy_bw_state_init(st, m, 0.0);
    e->ops = &owned_ops;
    e->self = st;
    return HY_OK;
}

/* (bw element) => dst: a new owned element of the same model with src's committed and trial state (hy_element_copy;
 * the Python bindings' Model.copy) */
int hy_bw_element_copy(const hy_element *src, hy_element *dst, hy_err *err)
{
    const hy_bw_state *s = src->self;
    int rc = hy_bw_element_new(s->model, dst, err);
    if (rc == HY_OK)
        *(hy_bw_state *)dst->self = *s;
    return rc;
}

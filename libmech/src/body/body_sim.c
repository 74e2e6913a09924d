/* Integrator of the whole system (mech/body.h): floating-base tree + free bodies, with a force callback evaluated
 * at every stage (trial) and a commit at every accepted step (spec 001 §7 item 8; the ODE layer's accept/reject
 * discipline, mech/ode.h). Fixed RK4 steps, or with opts.tol > 0 the ODE layer's adaptive Dormand-Prince driver
 * (GSL's layering: this file is the system; stepper, control and driver are the layer's). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "body/body_internal.h"

struct mech_body_sim {
    const mech_body_model *m;
    mech_body_sim_opts     o;
    mech_body_data        *d;      /* the last evaluation; after a step: the accepted state                   */
    mech_ode_system        sys;
    mech_ode_step         *step;
    mech_ode_driver       *drv;    /* opts.tol > 0: the adaptive driver (its own stepper); NULL: fixed RK4       */
    double                 t;
    double                *y, *y0;
    unsigned long          steps;
    hy_err                 err;    /* message of the last failing evaluation                                   */
};

// (sim, t, y) => data evaluated at (t, y): kinematics, loads from the callback (trial), accelerations
static int evaluate(mech_body_sim *s, double t, const double y[])
{
    const mech_body_model *m = s->m;
    mech_body_data *d = s->d;
    mech_body_set_state(m, d, t, y);
    mech_body_kinematics(m, d);
    mech_body_clear_loads(m, d);
    if (s->o.force) {
        int rc = s->o.force(m, d, s->o.user, &s->err);
        if (rc != HY_OK) {
            if (s->err.code == HY_OK)
                hy_err_set(&s->err, rc, "force callback failed (%s)", hy_status_name(rc));
            return rc;
        }
    }
    int rc = mech_body_forward(m, d);
    if (rc != HY_OK) {
        int bad = 0;
        for (int j = 1; j <= m->n && !bad; j++)
            if (isinf(d->Dinv[j - 1]))
                bad = j;
        if (bad)
            return hy_err_set(&s->err, rc, "body %d (%s): articulated %s of joint %d is not positive (a singular "
                              "configuration)", bad, mech_body_name(m, bad),
                              m->type[bad] == MECH_BODY_REVOLUTE ? "inertia I*" : "mass m*", bad);
        return hy_err_set(&s->err, rc, "base: the root's articulated inertia is singular");
    }
    return HY_OK;
}

static int sim_function(double t, const double y[], double dydt[], void *params)
{
    mech_body_sim *s = params;
    int rc = evaluate(s, t, y);
    if (rc == HY_OK)
        mech_body_state_deriv(s->m, s->d, dydt);
    return rc;
}

// accepted (t, y) => the callback's trial there, then commit
static int sim_accept(double t, const double y[], void *params)
{
    mech_body_sim *s = params;
    int rc = evaluate(s, t, y);
    if (rc == HY_OK && s->o.commit) {
        rc = s->o.commit(s->m, s->d, s->o.user, &s->err);
        if (rc != HY_OK && s->err.code == HY_OK)
            hy_err_set(&s->err, rc, "commit callback failed (%s)", hy_status_name(rc));
    }
    return rc;
}

static void sim_reject(void *params)
{
    mech_body_sim *s = params;
    if (s->o.revert)
        s->o.revert(s->o.user);
}

// (y) => every quaternion of the state scaled to unit length
static void normalise(const mech_body_model *m, double y[])
{
    const mech_body_layout *L = &m->layout;
    for (int k = -1; k < m->nf; k++) {
        double *q = k < 0 ? y + L->base_quat : y + L->free_pos + 7 * (size_t)k + 3;
        mech_quat u = mech_quat_normalize((mech_quat){q[0], q[1], q[2], q[3]});
        q[0] = u.w;
        q[1] = u.x;
        q[2] = u.y;
        q[3] = u.z;
    }
}

int mech_body_sim_new(const mech_body_model *m, const mech_body_sim_opts *o, mech_body_sim **out, hy_err *err)
{
    *out = NULL;
    if (!o || !(o->h > 0) || !isfinite(o->h))
        return hy_err_set(err, HY_EARG, "body integrator: step %g s: expected a positive number", o ? o->h : 0.0);
    if (!(o->tol >= 0 && o->tol <= 1e-2))
        return hy_err_set(err, HY_EARG, "body integrator: tolerance %g: expected 0 (fixed steps) or up to 1e-2",
                          o->tol);
    mech_body_sim *s = calloc(1, sizeof *s);
    if (!s)
        return hy_err_set(err, HY_ENOMEM, "body integrator: out of memory");
    s->m = m;
    s->o = *o;
    size_t dim = m->layout.dim;
    s->sys = (mech_ode_system){sim_function, dim, s, NULL, sim_accept, sim_reject};
    s->step = mech_ode_step_alloc(mech_ode_step_rk4, dim);
    if (o->tol > 0)
        s->drv = mech_ode_driver_alloc_adaptive(&s->sys, mech_ode_step_rk45, o->h, o->tol, o->tol);
    s->y = calloc(2 * dim, sizeof *s->y);
    int rc = mech_body_data_new(m, &s->d, err);
    if (rc != HY_OK || !s->step || !s->y || (o->tol > 0 && !s->drv)) {
        mech_body_sim_free(s);
        return rc != HY_OK ? rc : hy_err_set(err, HY_ENOMEM, "body integrator: out of memory");
    }
    s->y0 = s->y + dim;
    mech_body_get_state(m, s->d, s->y);
    *out = s;
    return HY_OK;
}

void mech_body_sim_free(mech_body_sim *s)
{
    if (!s)
        return;
    mech_ode_step_free(s->step);
    mech_ode_driver_free(s->drv);
    mech_body_data_free(s->d);
    free(s->y);
    free(s);
}

// (t, y) => started there, evaluated and committed
int mech_body_sim_start(mech_body_sim *s, double t, const double y[], hy_err *err)
{
    size_t dim = s->m->layout.dim;
    for (size_t i = 0; i < dim; i++)
        if (!isfinite(y[i]))
            return hy_err_set(err, HY_EARG, "body integrator: state component %zu is not finite", i);
    memcpy(s->y, y, dim * sizeof *y);
    normalise(s->m, s->y);
    s->t = t;
    hy_err_clear(&s->err);
    int rc = sim_accept(t, s->y, s);
    if (rc != HY_OK)
        return hy_err_set(err, rc, "t = %.9g s: %s", t, s->err.msg);
    return HY_OK;
}

// (y) => 1 when a quaternion's norm drifted by more than 1e-9
static int quat_drift(const mech_body_model *m, const double y[])
{
    const mech_body_layout *L = &m->layout;
    for (int k = -1; k < m->nf; k++) {
        const double *q = k < 0 ? y + L->base_quat : y + L->free_pos + 7 * (size_t)k + 3;
        if (fabs(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] - 1.0) > 2e-9)
            return 1;
    }
    return 0;
}

// (t1) => error-controlled steps to t1 by the layer's driver (its accept/reject hooks commit and revert)
static int advance_adaptive(mech_body_sim *s, double t1, hy_err *err)
{
    unsigned long n0 = s->drv->n_steps;
    hy_err_clear(&s->err);
    double t = s->t;
    int rc = mech_ode_driver_apply(s->drv, &t, t1, s->y);
    s->steps += s->drv->n_steps - n0;
    if (rc != HY_OK) {
        s->t = t;   /* the driver left (t, y) at the last accepted step */
        return hy_err_set(err, rc, "t = %.9g s: %s", t, s->err.msg[0] ? s->err.msg : "step size underflow");
    }
    s->t = t1;
    if (quat_drift(s->m, s->y)) {   /* renormalise, and evaluate and commit the state that continues */
        normalise(s->m, s->y);
        mech_ode_driver_reset(s->drv);
        if ((rc = sim_accept(s->t, s->y, s)) != HY_OK)
            return hy_err_set(err, rc, "t = %.9g s: %s", s->t, s->err.msg);
    }
    return HY_OK;
}

// (t1) => fixed RK4 steps to t1 (or error-controlled ones with opts.tol)
int mech_body_sim_advance(mech_body_sim *s, double t1, hy_err *err)
{
    if (s->drv)
        return advance_adaptive(s, t1, err);
    size_t dim = s->m->layout.dim;
    double h = s->o.h;
    while (s->t < t1) {
        double step = t1 - s->t <= h * (1.0 + 1e-9) ? t1 - s->t : h;
        memcpy(s->y0, s->y, dim * sizeof *s->y);
        hy_err_clear(&s->err);
        int rc = mech_ode_step_apply(s->step, s->t, step, s->y, NULL, &s->sys);
        sim_reject(s); /* the stage trials are dropped whatever happened */
        for (size_t i = 0; rc == HY_OK && i < dim; i++)
            if (!isfinite(s->y[i]))
                rc = hy_err_set(&s->err, HY_ENUMERIC, "state component %zu is not finite (step too large for the "
                                "stiffest force?)", i);
        if (rc == HY_OK) {
            normalise(s->m, s->y);
            rc = sim_accept(s->t + step, s->y, s);
        }
        if (rc != HY_OK) {
            memcpy(s->y, s->y0, dim * sizeof *s->y);
            double tf = s->t;
            if (s->o.revert)
                s->o.revert(s->o.user);
            return hy_err_set(err, rc, "t = %.9g s (step to %.9g s): %s", tf, tf + step, s->err.msg);
        }
        s->t = t1 - s->t <= h * (1.0 + 1e-9) ? t1 : s->t + step;
        s->steps++;
    }
    return HY_OK;
}

double mech_body_sim_time(const mech_body_sim *s) { return s->t; }
const double *mech_body_sim_state(const mech_body_sim *s) { return s->y; }
const mech_body_data *mech_body_sim_data(const mech_body_sim *s) { return s->d; }
const mech_ode_system *mech_body_sim_system(const mech_body_sim *s) { return &s->sys; }
unsigned long mech_body_sim_steps(const mech_body_sim *s) { return s->steps; }

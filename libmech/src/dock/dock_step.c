/* The docking simulation's steps (mech_dock_sim_step of mech/dock.h): fixed steps of h by classical RK4 over
 * [body state | phi_Nut, phid_Nut | u, u' | energy quadratures], split into substeps when the stiffness estimate asks
 * for them (docs/dock.md §6), or the error-controlled steps (dock_step_adaptive.c); and the trial / commit / revert of
 * everything with a state (the pattern of mech_body_sim, body_sim.c): every stage evaluates trials, reverted after
 * the stages, and the accepted state's own evaluation is committed. The accepted state's evaluation is the next
 * step's first stage, so a fixed step costs four evaluations. Nothing here allocates. */
#include <math.h>
#include <string.h>
#include "dock/dock_sim_internal.h"

/* step refinement (docs/dock.md §6): a step of h is split into substeps when rho h > DOCK_THETA */
#define DOCK_THETA 2.0      /* |lambda h| allowed: inside RK4's stability interval (2.785) with a margin */
#define DOCK_NSUB_MAX 16

/* ---- trial / commit / revert of everything with a state ------------------------------------------------------ */

void dock_revert_all(mech_dock_sim *s)
{
    for (int k = 0; k < DOCK_NSET; k++)
        if (s->cd[k])
            mech_contact_revert(s->m->set[k], s->cd[k]);
    for (int k = 0; k < 3; k++)
        hy_element_revert(&s->el[k]);
    if (s->el_cover.ops)
        hy_element_revert(&s->el_cover);
    mech_dock_axial_revert(s->ax);
    mech_dock_lateral_revert(s->lat);
    if (s->proc)
        mech_dock_drive_revert(&s->drive);
    if (s->lim_on)
        mech_dock_limiter_revert(&s->lim);
}

void dock_commit_all(mech_dock_sim *s, const dock_eval *e)
{
    for (int k = 0; k < DOCK_NSET; k++) {
        if (!s->cd[k])
            continue;
        if (e->on[k])
            mech_contact_commit(s->m->set[k], s->cd[k]);
        else
            mech_contact_reset(s->m->set[k], s->cd[k]);   /* far apart: nothing to keep */
    }
    for (int k = 0; k < 3; k++)
        hy_element_commit(&s->el[k]);
    if (s->el_cover.ops)
        hy_element_commit(&s->el_cover);
    mech_dock_axial_commit(s->ax);
    mech_dock_lateral_commit(s->lat);
    if (s->proc)
        mech_dock_drive_commit(&s->drive, e->s);
    if (s->lim_on)
        mech_dock_limiter_commit(&s->lim);
    if (s->proc && s->lim_on)   /* the movable limiter's pads on the wall (dock_proc_loads): their anchors */
        memcpy(s->pad_c, e->pr.pad_trial, sizeof s->pad_c);
    s->slot_touch = e->slot_touch;
    s->slot_vimp = e->slot_vimp;
}

void dock_renormalise(mech_dock_sim *s, double *y)
{
    size_t off[2] = {s->L.base_quat, s->L.free_pos + 3};
    for (int k = 0; k < 2; k++) {
        double *q = y + off[k];
        mech_quat u = mech_quat_normalize((mech_quat){q[0], q[1], q[2], q[3]});
        q[0] = u.w, q[1] = u.x, q[2] = u.y, q[3] = u.z;
    }
}

/* One classical RK4 step of length h from the accepted state (y, k1 = f(y)); the stages' trials are reverted.
 * On HY_OK: y is the new state, yt its derivative and s->ev its evaluation (trials, not committed yet). With
 * `theta` > 0 the step first estimates the spectral radius rho of the Jacobian from stages 1-3 (the stiffness
 * detection of Hairer & Wanner, Solving ODEs II, §IV.2: y3 - y2 = h/2 (k2 - k1), k3 - k2 = f(y3) - f(y2), so
 * rho ~ |k3 - k2| / |y3 - y2|, taken over the rates' rows in the kinetic-energy norm, s->wke); when rho h > theta it
 * stops there (DOCK_RESOLVE, y untouched): the step cannot resolve the fastest mode that carries energy (a
 * contact's damping under a large quasi-static load, an onset inside the step). */
#define DOCK_RESOLVE 1000
static int rk4(mech_dock_sim *s, double t, double h, double theta)
{
    const size_t n = s->dim, nr = s->nb + 4;   /* the quadratures do not feed back: not in the estimate */
    double *y = s->y, *yt = s->yt;
    int rc;
    for (size_t i = 0; i < n; i++)
        yt[i] = y[i] + 0.5 * h * s->k1[i];
    rc = dock_evaluate(s, t + 0.5 * h, yt, s->k2, &s->ev);
    if (rc == HY_OK) {
        for (size_t i = 0; i < n; i++)
            yt[i] = y[i] + 0.5 * h * s->k2[i];
        rc = dock_evaluate(s, t + 0.5 * h, yt, s->k3, &s->ev);
    }
    if (rc == HY_OK) {
        double dk = 0, dy = 0;
        for (size_t i = s->L.npos; i < nr; i++) {   /* the rates' rows, in the kinetic-energy norm */
            double a = s->wke[i] * (s->k3[i] - s->k2[i]), b = s->wke[i] * (s->k2[i] - s->k1[i]);
            dk += a * a;
            dy += b * b;
        }
        s->rho = dy > 0 ? sqrt(dk / dy) / (0.5 * h) : 0.0;
        if (theta > 0 && s->rho * h > theta) {
            dock_revert_all(s);
            return DOCK_RESOLVE;
        }
        for (size_t i = 0; i < n; i++)
            yt[i] = y[i] + h * s->k3[i];
        rc = dock_evaluate(s, t + h, yt, s->k4, &s->ev);
    }
    dock_revert_all(s);
    if (rc == HY_OK) {
        memcpy(s->y0, y, n * sizeof *y);
        for (size_t i = 0; i < n; i++)
            y[i] += h / 6 * (s->k1[i] + 2 * s->k2[i] + 2 * s->k3[i] + s->k4[i]);
        for (size_t i = 0; i < n && rc == HY_OK; i++)
            if (!isfinite(y[i]))
                rc = dock_sim_fail(s, HY_ENUMERIC, "state component %zu is not finite", i);
        if (rc == HY_OK) {
            dock_guides_stick(s, &s->ev, t + h, y);
            dock_renormalise(s, y);
            rc = dock_evaluate(s, t + h, y, s->yt, &s->ev);
            if (rc == HY_OK)
                dock_guides_half_stuck(s, &s->ev);
        }
        if (rc != HY_OK) {
            dock_revert_all(s);
            memcpy(y, s->y0, n * sizeof *y);
        }
    }
    return rc;
}

/* the accepted (sub)step: commit every trial, the new derivative becomes the next k1 */
static void accept(mech_dock_sim *s, double t, int full)
{
    double h = t - s->t;
    s->st.steps++;
    s->st.h_last = h;
    s->st.h_min = fmin(s->st.h_min, h);
    s->st.h_max = fmax(s->st.h_max, h);
    memcpy(s->k1, s->yt, s->dim * sizeof *s->yt);
    s->acc = s->ev;
    dock_commit_all(s, &s->acc);
    s->t = t;
    dock_account(s, 0, full);
}

int mech_dock_sim_step(mech_dock_sim *s, hy_err *err)
{
    const double h = s->m->p.h, t0 = s->t;
    s->fail_code = 0;
    if (s->stp)
        return dock_adaptive_step(s, err);
    /* substeps: as many as the last estimate of the stiffness asks for; with one, the step checks its own stages
       and falls back to substeps when they show a mode it cannot resolve (docs/dock.md §6) */
    int nsub = (int)fmin(DOCK_NSUB_MAX, fmax(1.0, ceil(s->rho * h / DOCK_THETA)));
    int rc = HY_OK;
    if (nsub == 1) {
        rc = rk4(s, t0, h, DOCK_THETA);
        if (rc == DOCK_RESOLVE) {
            nsub = (int)fmin(DOCK_NSUB_MAX, fmax(2.0, ceil(s->rho * h / DOCK_THETA)));
            rc = HY_OK;
        } else if (rc == HY_OK) {
            accept(s, t0 + h, 1);
            s->steps++;
            s->substeps++;
            return HY_OK;
        }
    }
    for (int j = 0; j < nsub && rc == HY_OK; j++) {
        double ts = s->t, te = j + 1 == nsub ? t0 + h : t0 + h * (j + 1) / nsub;
        rc = rk4(s, ts, te - ts, 0);
        if (rc == HY_OK) {
            accept(s, te, j + 1 == nsub);
            s->substeps++;
        }
    }
    if (rc != HY_OK) {
        /* the body data back at the last accepted state (the view and the channels read it) */
        double tf = s->t;
        dock_eval tmp;
        dock_evaluate(s, tf, s->y, s->k2, &tmp);
        dock_revert_all(s);
        return hy_err_set(err, s->fail_code ? s->fail_code : rc, "t = %.6f s: %s; hint: halve the step (h = %g s)",
                          fmin(tf + h / nsub, t0 + h), s->msg, h);
    }
    s->steps++;
    return HY_OK;
}

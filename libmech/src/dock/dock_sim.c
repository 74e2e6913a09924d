/* The docking simulation (mech/dock.h): making and freeing one, its accessors and the pose view. A run steps RK4
 * (fixed, dock_step.c) or an error-controlled pair (dock_step_adaptive.c) over [body state | phi_Nut, phid_Nut |
 * u, u' | energy quadratures]; every force element is evaluated as a TRIAL at each stage (dock_eval.c), reverted
 * after the stages and committed at the accepted state (the pattern of mech_body_sim, body_sim.c); the summaries,
 * the energy budget and the history are kept at every accepted step (dock_account.c, dock_energy.c,
 * dock_history.c). The files share dock_sim_internal.h. Nothing allocates after mech_dock_sim_new. docs/dock.md. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dock/dock_sim_internal.h"

int dock_sim_fail(mech_dock_sim *s, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, sizeof s->msg, fmt, ap);
    va_end(ap);
    s->fail_code = code;
    return code;
}

/* ---- public API ----------------------------------------------------------------------------------------------- */

void mech_dock_sim_free(mech_dock_sim *s)
{
    if (!s)
        return;
    mech_body_data_free(s->d);
    for (int k = 0; k < DOCK_NSET; k++)
        mech_contact_data_free(s->cd[k]);
    for (int k = 0; k < 3; k++)
        hy_element_free(&s->el[k]);
    hy_element_free(&s->el_cover);
    mech_dock_axial_free(s->ax);
    mech_dock_lateral_free(s->lat);
    if (s->lim_on)
        mech_dock_limiter_free(&s->lim);
    mech_ode_step_free(s->stp);
    free(s->y);
    free(s);
}

int mech_dock_sim_new(const mech_dock_model *m, mech_dock_sim **out, hy_err *err)
{
    *out = NULL;
    mech_dock_sim *s = calloc(1, sizeof *s);
    if (!s)
        return hy_err_set(err, HY_ENOMEM, "dock simulation: out of memory");
    s->m = m;
    s->bm = m->bm;
    s->L = mech_body_model_layout(m->bm);
    s->nb = s->L.dim;
    s->iu = s->nb + 2;
    s->iq = s->nb + 4;
    s->dim = s->nb + 4 + DOCK_NQ;
    s->proc = m->p.process.enabled;
    s->thrust_on = NAN;
    int rc = mech_body_data_new(m->bm, &s->d, err);
    if (rc)
        goto fail;
    for (int k = 0; k < DOCK_NSET; k++)
        if (m->set[k] && !(s->cd[k] = mech_contact_data_new(m->set[k]))) {
            rc = hy_err_set(err, HY_ENOMEM, "dock simulation: out of memory");
            goto fail;
        }
    memset(s->cd[DOCK_SET_LATCH]->disabled, 1, 4);   /* every latch folded until its tip passes (latch_tips) */
    s->latch_folded = 4;
    const mech_dock_params *p = &m->p;
    const mech_dock_law *laws[3] = {&p->probe.torsion, &p->probe.bending, &p->probe.bending};
    for (int k = 0; k < 3; k++)
        if ((rc = hy_model_element(laws[k]->model, &s->el[k], err)) || (rc = hy_element_reset(&s->el[k], 0, 0, err)))
            goto fail;
    if (p->stand && p->cover_law.model &&
        ((rc = hy_model_element(p->cover_law.model, &s->el_cover, err)) ||
         (rc = hy_element_reset(&s->el_cover, 0, 0, err))))
        goto fail;
    if ((rc = mech_dock_axial_new(&p->axial, &s->ax, err)) || (rc = mech_dock_lateral_new(&p->lateral, &s->lat, err)))
        goto fail;
    if (p->limiter_movable) {
        mech_dock_limiter_params lp = p->limiter;
        lp.base_radius = p->geom.limiter_r0;
        if ((rc = mech_dock_limiter_new(&lp, &s->lim, err)))
            goto fail;
        s->lim_on = 1;
        s->jl = m->b.limiter - 1;   /* body j sits behind joint j - 1 (mech/body.h) */
        s->ls.first_contact = s->ls.last_change = NAN;
    }
    s->y = calloc(12 * s->dim, sizeof *s->y);
    if (!s->y) {
        rc = hy_err_set(err, HY_ENOMEM, "dock simulation: out of memory");
        goto fail;
    }
    s->y0 = s->y + s->dim, s->k1 = s->y0 + s->dim, s->k2 = s->k1 + s->dim, s->k3 = s->k2 + s->dim;
    s->k4 = s->k3 + s->dim, s->yt = s->k4 + s->dim, s->wke = s->yt + s->dim;
    s->ytry = s->wke + s->dim, s->yerr = s->ytry + s->dim, s->kout = s->yerr + s->dim, s->scale = s->kout + s->dim;
    if (p->tol > 0 &&
        !(s->stp = mech_ode_step_alloc(p->method == MECH_DOCK_DOPRI5 ? mech_ode_step_rk45 : mech_ode_step_rk43,
                                       s->dim))) {
        rc = hy_err_set(err, HY_ENOMEM, "dock simulation: out of memory");
        goto fail;
    }
    /* the stiffness estimate's norm: each rate weighted by the square root of its inertia (kinetic-energy norm), so
       the head on the nut chain (50 kg) or the probe (0.02-1.5 kg m^2) counts as much as a vehicle moving with the
       same energy; a plain norm let the nut's rad/s dominate and missed S5's bore mode (docs/dock.md §6) */
    {
        const mech_body_layout *L = &s->L;
        const mech_vec3 Ia = p->active.inertia, Ip = p->passive.inertia;
        const double Ij[5] = {p->mass.housing_inertia.z, p->mass.housing_inertia.y, p->mass.probe_inertia.x,
                              p->mass.probe_inertia.y, p->mass.probe_inertia.z};   /* q1 about z, q2 about y */
        for (int k = 0; k < 3; k++) {
            s->wke[L->base_vel + k] = sqrt(p->active.mass);
            s->wke[L->free_vel + k] = sqrt(p->passive.mass);
        }
        const double ia[3] = {Ia.x, Ia.y, Ia.z}, ip[3] = {Ip.x, Ip.y, Ip.z};
        for (int k = 0; k < 3; k++) {
            s->wke[L->base_omega + k] = sqrt(ia[k]);
            s->wke[L->free_vel + 3 + k] = sqrt(ip[k]);
        }
        const int j0 = m->b.j0;
        for (int k = 0; k < 5; k++)
            s->wke[L->qd + j0 + k] = sqrt(Ij[k]);
        if (p->stand)   /* the cover joint: the mechanism's mass on it */
            s->wke[L->qd] = sqrt(p->cover.m_dm);
        s->wke[s->nb + 1] = sqrt(p->axial.m_eq) / m->i_nut;   /* phid_Nut: the chain's m_eq at the probe */
        if (s->proc)
            s->wke[s->iu + 1] = sqrt(p->process.drive.m_out);   /* u': the drive output's reflected mass */
        if (p->limiter_movable)
            s->wke[L->qd + m->b.limiter - 1] = sqrt(p->limiter.mass);
    }
    if ((rc = dock_initial_state(s, err)))
        goto fail;
    if (s->proc) {
        const mech_dock_process_params *pp = &p->process;
        if ((rc = mech_dock_drive_init(&s->drive, &pp->drive, 0.0, err)) ||
            (rc = mech_dock_seq_init(&s->seq, &pp->seq, pp->start, 0.0, err)) ||
            (rc = mech_dock_fault_init(&s->fault, &pp->faults, p->geom.slot_narrow, err)) ||
            (rc = mech_dock_hooks_init(&s->hooks, &pp->hooks, err)))
            goto fail;
        s->hs.unmet = -1;
        s->hs.p = pp->hooks;
        s->ps.t_retract = s->ps.t_align = s->ps.t_closed = s->ps.t_end = NAN;
        s->ps.pad_arm_mean = s->ps.pad_arm_min = s->ps.pad_arm_max = NAN;
        s->ps.gap_min = INFINITY;
        s->ps.fault = s->fault.committed;
        s->ps.roll_closed = s->ps.tilt_closed = s->ps.gap_closed_max = NAN;
        s->ps.guide_t_enter = s->ps.guide_roll_enter = NAN;
        s->ps.guide_n = pp->roll_guides.n;
    }
    /* the hooks' times NAN until they happen (and in a run without the process) */
    s->hs.t_start = s->hs.t_locked = s->hs.t_docked = s->hs.t_fail = s->hs.roll_start = s->hs.miss_max = NAN;
    s->sum.capture_time = s->sum.first_contact_time = s->sum.limiter_tilt = NAN;
    dock_measure_init(&s->sum);
    for (int k = 0; k < 4; k++)
        s->sum.latch_time[k] = NAN;
    if (!s->lim_on)
        s->ls.first_contact = s->ls.last_change = NAN;
    dock_renormalise(s, s->y);
    rc = dock_evaluate(s, 0, s->y, s->k1, &s->ev);
    if (rc == HY_OK) {
        for (int k = 0; k < DOCK_NSET; k++)
            if (s->ev.on[k] && s->cd[k]->nactive > 0)
                for (int i = 0; i < m->set[k]->npair; i++)
                    if (s->cd[k]->geom[i].depth > 0) {
                        rc = hy_err_set(err, HY_EMODEL, "initial: contact %s already penetrates %.4g m at t = 0",
                                        m->set[k]->pair[i].name, s->cd[k]->geom[i].depth);
                        goto fail;
                    }
    } else {
        rc = hy_err_set(err, rc, "t = 0 s: %s", s->msg);
        goto fail;
    }
    s->acc = s->ev;
    dock_commit_all(s, &s->acc);
    dock_account(s, 1, 1);
    s->st.steps = 0;
    s->st.h_min = INFINITY;
    if (s->stp)
        dock_adaptive_init(s);
    *out = s;
    return HY_OK;
fail:
    mech_dock_sim_free(s);
    return rc;
}

double mech_dock_sim_time(const mech_dock_sim *s) { return s->t; }
unsigned long mech_dock_sim_steps(const mech_dock_sim *s) { return s->steps; }
unsigned long mech_dock_sim_substeps(const mech_dock_sim *s) { return s->substeps; }
void mech_dock_sim_stats_get(const mech_dock_sim *s, mech_dock_sim_stats *st) { *st = s->st; }

int mech_dock_sim_done(const mech_dock_sim *s)
{
    const mech_dock_params *p = &s->m->p;
    if (s->proc && mech_dock_seq_final(s->seq.committed.state))
        return 1;   /* the sequencer ended the process (END or a failure state) */
    if (s->stp)
        return s->t >= p->duration;
    return s->steps >= (unsigned long)lround(p->duration / p->h);
}
const mech_dock_model *mech_dock_sim_model(const mech_dock_sim *s) { return s->m; }
const double *mech_dock_sim_channels(const mech_dock_sim *s) { return s->ch; }
const mech_dock_process_summary *mech_dock_sim_process(const mech_dock_sim *s) { return &s->ps; }
const mech_dock_limiter_summary *mech_dock_sim_limiter(const mech_dock_sim *s) { return &s->ls; }
const mech_dock_hooks_summary *mech_dock_sim_hooks(const mech_dock_sim *s) { return &s->hs; }
const mech_dock_summary *mech_dock_sim_summary(const mech_dock_sim *s) { return &s->sum; }

void mech_dock_sim_element(const mech_dock_sim *s, int el, double *q, double *Q, int *state, double *work)
{
    if (el < 0 || el >= MECH_DOCK_NEL) {
        *q = *Q = *work = 0;
        *state = 0;
        return;
    }
    *q = s->qc[el];
    *Q = s->Qc[el];
    *state = s->acc.stel[el];
    *work = s->work[el];
}

void mech_dock_sim_view(const mech_dock_sim *s, mech_dock_pose_view *v)
{
    const mech_dock_params *p = &s->m->p;
    const mech_body_data *d = s->d;
    mech_vec3 x0 = mech_mat3_col(d->xmat[DOCK_B_BASE], 0), x2 = mech_mat3_col(d->xmat[s->m->b.housing], 0);
    v->uj = dock_to_cone(s, d->pos[DOCK_B_UJ1 + s->m->b.j0]);   /* on the cover with the stand option */
    v->bend = dock_to_cone(s, d->pos[s->m->b.probe]);
    v->head = dock_to_cone(s, s->cb[DOCK_CB_HEAD].pos);
    v->limiter0 = dock_to_cone(s, mech_vec3_axpy(d->pos[s->m->b.pads], p->geom.limiter_x0, x2));   /* C: moved by x */
    v->limiter1 = dock_to_cone(s, mech_vec3_axpy(d->pos[s->m->b.pads], p->geom.limiter_x1, x2));
    const mech_mat3 Rp = s->cb[DOCK_CB_PASSIVE].rot;
    v->housing_axis = mech_mat3_tapply(Rp, x2);
    v->active_port = dock_to_cone(s, mech_vec3_axpy(d->pos[DOCK_B_BASE], p->geom.uj_behind_plane, x0));
    v->active_axis = mech_mat3_tapply(Rp, x0);
    v->active_ey = mech_mat3_tapply(Rp, mech_mat3_col(d->xmat[DOCK_B_BASE], 1));
    v->n_roller = v->n_pusher = v->n_hook = 0;
    v->roller_radius = 0;
    /* the latches' tips in the latch frame (dock_geom.c's latch pairs) and the slots' half-width at the head */
    const mech_contact_body *La = &s->cb[DOCK_CB_LATCH];
    for (int k = 0; k < 4; k++) {
        double a = 0.5 * M_PI * k;
        mech_vec3 tip = mech_vec3_make(0, p->geom.latch_radius * cos(a), p->geom.latch_radius * sin(a));
        v->latch_tip[k] = dock_to_cone(s, mech_vec3_add(La->pos, mech_mat3_apply(La->rot, tip)));
    }
    double dw;
    v->slot_half = dock_slot_width(&p->geom, s->m->g.stop_x - s->acc.x_c, &dw);
    if (!s->proc)
        return;
    const mech_mat3 R0 = d->xmat[DOCK_B_BASE], RH = d->xmat[s->m->b.housing];
    if (s->m->cam) {
        v->n_roller = s->m->cam->n_lever;
        v->roller_radius = p->process.cam.roller_radius;
        double phi = s->y[s->nb];
        const mech_dock_cam_params *cp = &p->process.cam;
        for (int j = 0; j < v->n_roller && j < 4; j++) {
            v->roller[j] = dock_to_cone(s, mech_vec3_add(d->pos[s->m->b.housing],
                                                    mech_mat3_apply(RH, mech_dock_cam_roller(s->m->cam, phi, j))));
            /* the pivot in the lever's meridian plane, as the cam table places the roller (dock_cam.c) */
            mech_vec3 pv = mech_vec3_make(cp->x_pivot, cp->rho_pivot * s->m->cam->cpsi[j],
                                          cp->rho_pivot * s->m->cam->spsi[j]);
            v->lever_pivot[j] = dock_to_cone(s, mech_vec3_add(d->pos[s->m->b.housing], mech_mat3_apply(RH, pv)));
        }
    }
    const mech_dock_pusher_params *ph = &p->process.pushers;
    mech_vec3 port = mech_vec3_axpy(d->pos[DOCK_B_BASE], p->geom.uj_behind_plane, x0);
    for (int i = 0; ph->n > 0 && i < ph->n && i < 8; i++) {
        mech_vec3 b = mech_vec3_add(port, mech_mat3_apply(R0, s->m->rod_base[i]));
        double len = fmin(ph->stroke, fmax(0.0, isfinite(s->acc.pr.rod_gap[i]) ? s->acc.pr.rod_gap[i] : ph->stroke));
        v->pusher_base[i] = dock_to_cone(s, b);
        v->pusher_tip[i] = dock_to_cone(s, mech_vec3_axpy(b, len, x0));
        v->n_pusher++;
    }
    /* the hooks: the link's point on the active plane, its catch on the passive plane (the anchor once engaged,
       else the docked pose's place: the passive plane's point mirrored from the link's, dock_hooks.c) */
    const mech_dock_hooks *hk = &s->hooks;
    const mech_dock_hooks_out *ho = &s->acc.pr.hk;
    const mech_mat3 D = mech_mat3_diag(-1, 1, -1);
    for (int j = 0; j < hk->p.n && j < 8; j++) {
        int st = hk->committed.st[j];
        mech_vec3 c = st == MECH_DOCK_HOOK_CLOSING || st == MECH_DOCK_HOOK_LOCKED ? hk->committed.anchor[j]
                                                                                   : mech_mat3_tapply(D, hk->base[j]);
        v->hook_base[j] = dock_to_cone(s, mech_vec3_add(port, mech_mat3_apply(R0, hk->base[j])));
        v->hook_catch[j] = dock_to_cone(s, mech_vec3_add(port, mech_mat3_apply(R0, mech_vec3_add(ho->o,
                                                                               mech_mat3_apply(ho->R, c)))));
        v->hook_state[j] = st;
        v->hook_tension[j] = hk->committed.T[j];
        v->n_hook++;
    }
}

/* The summaries of a docking run, kept at every accepted (sub)step (mech_dock_summary, and with a "process" section
 * mech_dock_process_summary, variant C mech_dock_limiter_summary; mech/dock.h): capture and the latches, first
 * contact and the sensors, the sequencer's transitions (which command the drive), peaks and times; at the end of each
 * step of h the elements' work, the energy budget (dock_energy.c), momentum and the history's channels
 * (dock_history.c). mech dock writes them as summary.json. docs/dock.md, docs/dock-process.md §8. */
#include <math.h>
#include <string.h>
#include "dock/dock_sim_internal.h"

#define PAD_ARM_F_MIN 10.0  /* N: the pads' lever arm about the UJ is taken where their resultant is at least this
                              (a contact starting or ending has an arm of round-off) */

/* The sequencer at an accepted (sub)step (docs/dock-process.md §2, §8): the head sensors, the stroke and the
 * docking-plane gap of the accepted state; a transition commands the drive at this step boundary (both motors);
 * the process summary's peaks and times. */
static void process_account(mech_dock_sim *s, const dock_eval *e, int first, const double att[4])
{
    const mech_dock_params *p = &s->m->p;
    const dock_proc_eval *pr = &e->pr;
    mech_dock_process_summary *ps = &s->ps;
    /* settling measure: the stroke rate and the head's lateral speed relative to the passive vehicle. The jam test
       watches the drive output's rate, not the nut's: at the end of retraction the pushers hold the probe while
       FrT1 slips back (spec 001 §5.2, Fig. 15 fragment 3), the nut stands still for minutes and the drive still
       advances; a jam is the drive itself stalled at its torque limit */
    const mech_contact_body *P = &s->cb[DOCK_CB_PASSIVE];
    mech_vec3 ax = mech_mat3_col(P->rot, 0), vr = mech_vec3_sub(e->head_vel, dock_passive_point_vel(s, e->head));
    double vlat = mech_vec3_norm(mech_vec3_axpy(vr, -mech_vec3_dot(vr, ax), ax));
    /* the planes closed and the docked state: dock_docked.c (issue 44) */
    double gap;
    int unmet = dock_docked_state(s, e, &gap);
    mech_dock_seq_in in = {.contact = e->cone || e->socket || e->bottom || e->latch, .bottom = e->bottom,
                           .capture = s->captured, .ready = mech_dock_drive_at_ready(&p->process.drive, e->s),
                           .stroke = e->s, .stroke_rate = pr->w, .motion = fmax(fabs(e->sdot), vlat),
                           .gap = gap, .docked = unmet == 0};
    int from = s->seq.committed.state;
    int to = mech_dock_seq_trial(&s->seq, s->t, &in);
    mech_dock_seq_commit(&s->seq);
    /* the fault monitor (dock_fault.c) on the same accepted state: a fault ends the run in its failure state */
    mech_dock_fault_in fin = {.retracting = s->drive.committed.cmd == MECH_DOCK_DRIVE_RETRACT,
                              .at_limit = s->drive.committed.at_limit,
                              .slip = p->variant == MECH_DOCK_A ? e->ax.slip1 : e->ax.slip2,
                              .drive_f = pr->drv.F, .u = pr->u, .stroke = e->s, .gap_min = INFINITY,
                              .gap_max = -INFINITY,
                              .gap_closed = p->process.seq.gap_closed};
    for (int i = 0; i < p->process.pushers.n && i < MECH_DOCK_PUSHER_MAX; i++) {
        double g = isfinite(pr->rod_gap[i]) ? pr->rod_gap[i] : NAN;
        fin.gap_min = isnan(g) || isnan(fin.gap_min) ? NAN : fmin(fin.gap_min, g);
        fin.gap_max = isnan(g) || isnan(fin.gap_max) ? NAN : fmax(fin.gap_max, g);
    }
    fin.roll = att[0], fin.tilt = att[3];
    int to_seq = to;   /* the sequencer's own state this step (a fault may follow it within the step) */
    int fk = mech_dock_fault_trial(&s->fault, s->t, &fin);
    mech_dock_fault_commit(&s->fault);
    if (fk != MECH_DOCK_FAULT_NONE && !mech_dock_seq_final(to)) {
        mech_dock_seq_fail(&s->seq, s->t, mech_dock_fault_seq_state(fk), MECH_DOCK_SEQ_BY_FAULT);
        to = s->seq.committed.state;
    }
    ps->fault = s->fault.committed;
    dock_docked_account(s, e, from, to, unmet, first);
    if (to != from || first) {
        mech_dock_drive_command(&s->drive, mech_dock_seq_drive_cmd(to), 2);
        if (to == MECH_DOCK_SEQ_RETRACT && isnan(ps->t_retract))
            ps->t_retract = s->t;
        if (to == MECH_DOCK_SEQ_ALIGN && isnan(ps->t_align))
            ps->t_align = s->t;
        if ((to == MECH_DOCK_SEQ_CLOSED || to_seq == MECH_DOCK_SEQ_CLOSED) && isnan(ps->t_closed)) {
            ps->t_closed = s->t;
            ps->roll_closed = fin.roll, ps->tilt_closed = fin.tilt, ps->gap_closed_max = fin.gap_max;
        }
        if (to == MECH_DOCK_SEQ_END && isnan(ps->t_end))
            ps->t_end = s->t;
    }
    ps->state = to;
    if (ps->n_log != s->seq.committed.n_log || ps->n_lost != s->seq.committed.n_lost) {   /* a new log entry */
        ps->n_log = s->seq.committed.n_log;
        ps->n_lost = s->seq.committed.n_lost;
        memcpy(ps->log, s->seq.committed.log, sizeof ps->log);
    }
    ps->drive_limit_time = s->drive.committed.limit_time;
    if (s->captured)
        ps->retract_force_max = fmax(ps->retract_force_max, -e->f_axial);
    ps->stroke_end = e->s;
    ps->gap_min = fmin(ps->gap_min, pr->gap);
    ps->pusher_force_max = fmax(ps->pusher_force_max, pr->f_pusher);
    ps->plane_force_max = fmax(ps->plane_force_max, pr->f_plane);
    for (int j = 0; j < s->m->p.process.roll_guides.n && j < MECH_DOCK_ROLLGUIDE_MAX; j++)
        ps->guide_force_max = fmax(ps->guide_force_max, pr->rg.force[j]);
    if (pr->rg.n_miss > 0)
        ps->guide_miss_steps++;
    if (isnan(ps->guide_t_enter))
        for (int j = 0; j < s->m->p.process.roll_guides.n && j < MECH_DOCK_ROLLGUIDE_MAX; j++)
            if (pr->rg.depth[j] > 0) {
                ps->guide_t_enter = s->t;
                ps->guide_roll_enter = fin.roll;
                break;
            }
    for (int j = 0; s->m->cam && j < s->m->cam->n_lever; j++)
        ps->roller_force_max = fmax(ps->roller_force_max, pr->roller_f[j]);
    if (pr->n_roller > 0)
        ps->roller_steps++;
    if (pr->n_roller > 0 && s->roller_prev == 0)
        ps->roller_impacts++;
    if (pr->n_pad > 0 && s->pad_prev == 0)
        ps->pad_impacts++;
    s->roller_prev = pr->n_roller;
    s->pad_prev = pr->n_pad;
    ps->pad_force_max = fmax(ps->pad_force_max, pr->f_pad);
    /* the pads' lever arm about the UJ (Fig. 9): trapezoids of the moment and of the force over accepted steps */
    if (!first) {
        double dt = s->t - ps->pad_t_prev;
        ps->pad_m_int += 0.5 * (pr->pad_m_uj + ps->pad_m_prev) * dt;
        ps->pad_f_int += 0.5 * (pr->pad_f_net + ps->pad_f_prev) * dt;
        if (ps->pad_f_int > 0)
            ps->pad_arm_mean = ps->pad_m_int / ps->pad_f_int;
    }
    ps->pad_m_prev = pr->pad_m_uj, ps->pad_f_prev = pr->pad_f_net, ps->pad_t_prev = s->t;
    if (pr->pad_f_net >= PAD_ARM_F_MIN) {
        double arm = pr->pad_m_uj / pr->pad_f_net;
        ps->pad_arm_min = isnan(ps->pad_arm_min) ? arm : fmin(ps->pad_arm_min, arm);
        ps->pad_arm_max = isnan(ps->pad_arm_max) ? arm : fmax(ps->pad_arm_max, arm);
    }
    if (s->m->cam && pr->n_roller == s->m->cam->n_lever)
        ps->roller_all++;
    if (p->variant == MECH_DOCK_B) {
        ps->frt1_slip_max = fmax(ps->frt1_slip_max, e->ax.slip1);
        ps->frt1_slip_end = e->ax.slip1;
    }
}

/* Variant C at an accepted (sub)step: the limiter's contact with the cone (its pads on the rim or the wall), its
 * stroke, the guide friction and its work (trapezoids of the friction power over the accepted steps) */
static void limiter_account(mech_dock_sim *s, const dock_eval *e, int first)
{
    mech_dock_limiter_summary *ls = &s->ls;
    int touch = e->limiter || e->pr.n_pad > 0;
    if (touch && isnan(ls->first_contact)) {
        ls->first_contact = s->t;
        ls->before_capture = !s->captured;
    }
    if (touch != ls->touching && !first) {
        if (touch)
            ls->impacts++;
        ls->last_change = s->t;
    }
    ls->touching = touch;
    ls->x_max = fmax(ls->x_max, e->lim_x);
    ls->x_end = e->lim_x;
    ls->force_max = fmax(ls->force_max, e->f_limiter + e->pr.f_pad);
    ls->friction_max = fmax(ls->friction_max, fabs(e->lim_friction));
    if (!first)
        ls->friction_work += 0.5 * (e->lim.p_friction + ls->p_prev) * (s->t - ls->t_prev);
    ls->p_prev = e->lim.p_friction;
    ls->t_prev = s->t;
    if (e->lim_loaded && (e->lim.slip[0] == 0 || e->lim.slip[1] == 0))
        ls->stuck_steps++;
    if (e->lim_loaded)
        ls->loaded_steps++;
}

/* The docked state's measures at an accepted (sub)step (dock_measure.c; docs/dock-process.md §8.6) */
static void measure_account(mech_dock_sim *s, const dock_eval *e, int first, int capture_now, int closed_now)
{
    const mech_dock_params *p = &s->m->p;
    const mech_contact_body *P = &s->cb[DOCK_CB_PASSIVE];
    const mech_body_data *d = s->d;
    mech_mat3 Rrel = mech_mat3_mul(mech_mat3_tmul(P->rot, d->xmat[DOCK_B_BASE]), dock_flip_x());
    int n_latch = 0;
    if (e->on[DOCK_SET_LATCH] && s->cd[DOCK_SET_LATCH]->nactive > 0)
        for (int i = 0; i < s->m->set[DOCK_SET_LATCH]->npair; i++)
            n_latch += s->cd[DOCK_SET_LATCH]->geom[i].depth > 0 && s->cd[DOCK_SET_LATCH]->fn[i] > 0;
    dock_measure_in in = {.t = s->t, .first = first, .captured = s->captured, .capture_now = capture_now,
                          .tilt = acos(fmax(-1.0, fmin(1.0, Rrel.m[0][0]))),
                          .rel_roll = atan2(Rrel.m[2][1], Rrel.m[2][2]), .latch_roll = e->roll_err,
                          .n_latch = n_latch, .closed_now = closed_now, .limiter_clearance = NAN,
                          .limiter_first = s->lim_on ? s->ls.first_contact : NAN,
                          .slip1 = p->variant == MECH_DOCK_B ? e->ax.slip1 : 0.0,
                          .f_pusher = s->proc ? e->pr.f_pusher + e->pr.f_plane : 0.0,
                          .f_limiter = e->f_limiter + (s->proc ? e->pr.f_pad : 0.0),
                          .gap = s->proc ? e->pr.gap : NAN};
    if (capture_now) {
        mech_dock_pose_view v;
        mech_dock_sim_view(s, &v);
        in.limiter_clearance = dock_limiter_clearance(&p->geom, v.limiter0, v.housing_axis, p->geom.limiter_r0);
    }
    dock_measure_account(&s->sum, &in);
}

/* (accepted evaluation) => capture, sensors, peaks at every accepted (sub)step; at the end of a step of h (full)
 * also element work, energy budget, momentum and channels. The element work is booked over the steps of h only,
 * the samples of the t, q, Q records, so `hyst loops` over a record gives back the work booked. */
void dock_account(mech_dock_sim *s, int first, int full)
{
    const mech_dock_model *m = s->m;
    const mech_dock_params *p = &m->p;
    const dock_geom *g = &m->g;
    const dock_eval *e = &s->acc;
    const mech_body_data *d = s->d;
    mech_dock_summary *S = &s->sum;

    /* capture (RP-1 §2.2): latches past the stops by the detent travel, roll error within the slot entry */
    int capture_now = 0;
    if (!s->captured && e->x_c <= g->capture_x && fabs(e->roll_err) <= p->geom.slot_entry) {
        capture_now = 1;
        s->captured = 1;
        S->captured = 1;
        S->capture_time = s->t;
    }
    /* each latch engages once its tip is past the capture plane, at an accepted state: its stop is then the detent
       travel away, so engaging it changes no force */
    if (s->captured && s->latch_folded) {
        unsigned char *off = s->cd[DOCK_SET_LATCH]->disabled;
        for (int k = 0; k < 4; k++)
            if (off[k] && e->tip_x[k] <= g->capture_x) {
                off[k] = 0;
                s->latch_folded--;
                S->latch_time[k] = s->t;
            }
    }
    int any = e->cone || e->socket || e->bottom || e->latch || e->limiter || e->detent > 0 || e->slot_touch;
    if (any && isnan(S->first_contact_time))
        S->first_contact_time = s->t;
    if (e->cone && !s->cone_prev && !s->captured)
        S->cone_contacts++;
    if (e->cone && p->thrust.force != 0 && isnan(s->thrust_on))
        s->thrust_on = s->t;
    s->cone_prev = e->cone;
    if (!s->captured && s->t >= p->capture_timeout)
        S->failed = 1;
    int was_closed = !isnan(s->ps.t_closed);
    /* the relative roll, pitch, yaw and tilt of the accepted state: once for the fault monitor and the history */
    double att[4];
    if (s->proc || full)
        dock_rel_attitude(s, &att[0], &att[1], &att[2], &att[3]);
    if (s->proc)
        process_account(s, e, first, att);
    if (s->lim_on)
        limiter_account(s, e, first);
    measure_account(s, e, first, capture_now, s->proc && !was_closed && !isnan(s->ps.t_closed));

    const mech_contact_body *P = &s->cb[DOCK_CB_PASSIVE], *H = &s->cb[DOCK_CB_HEAD];
    mech_vec3 ex5 = mech_mat3_col(H->rot, 0);
    double fax = e->f_axial;
    double flat = mech_vec3_norm(mech_vec3_axpy(e->f_head, -mech_vec3_dot(e->f_head, ex5), ex5));
    mech_vec3 x0 = mech_mat3_col(d->xmat[DOCK_B_BASE], 0), x2 = mech_mat3_col(d->xmat[s->m->b.housing], 0);
    double swing = acos(fmax(-1.0, fmin(1.0, mech_vec3_dot(x0, x2))));
    S->peak_axial = fmax(S->peak_axial, fabs(fax));
    S->peak_lateral = fmax(S->peak_lateral, flat);
    S->peak_limiter = fmax(S->peak_limiter, e->f_limiter);
    S->stroke_max = fmax(S->stroke_max, e->s);
    S->swing_max = fmax(S->swing_max, swing);
    mech_vec3 exp_ = mech_mat3_col(P->rot, 0);
    if (e->limiter && isnan(S->limiter_tilt))
        S->limiter_tilt = acos(fmax(-1.0, fmin(1.0, -mech_vec3_dot(x0, exp_))));
    if (!full)
        return;

    for (int k = 0; k < MECH_DOCK_NEL; k++) {
        if (!first)
            s->work[k] += 0.5 * (e->Qel[k] + s->Qc[k]) * (e->qel[k] - s->qc[k]);
        s->qc[k] = e->qel[k];
        s->Qc[k] = e->Qel[k];
    }
    /* B's brakes are rigid-plastic: they slip only at their level, so their dissipation over a step is the level
       times the slip increment, exactly. Booked from the slips like the gear train's work from its state (rather
       than the quadrature of the slip power, which jumps from 0 to G s' when a slip starts inside a step: S4c-B at
       h = 2 ms lost 0.07 J of 3.3 J that way at FrT1's first slip) */
    if (!first && p->variant == MECH_DOCK_B) {
        const mech_dock_axial_params *ap = &p->axial;
        double d1 = e->ax.slip1 - s->slipc[0], d2 = e->ax.slip2 - s->slipc[1];
        s->brake_work += (d1 > 0 ? ap->frt1_push : -ap->frt1_pull) * d1 +
                         (d2 > 0 ? ap->frt2_push : -ap->frt2_pull) * d2;
    }
    s->slipc[0] = e->ax.slip1;
    s->slipc[1] = e->ax.slip2;


    dock_energy eb;
    dock_energy_account(s, first, &eb);
    mech_vec3 Pm, Lm;
    mech_body_momentum(s->bm, d, &Pm, &Lm);
    if (first) {
        S->momentum0 = Pm;
        S->ang_momentum0 = Lm;
    }
    S->momentum = Pm;
    S->ang_momentum = Lm;
    dock_history_fill(s, &eb, att);
}

/* One evaluation of the docking simulation (mech/dock.h): (t, y) => dy/dt, every force element evaluated as a TRIAL
 * (the committed states untouched; dock_step.c commits or reverts): the contact sets behind their bounding checks,
 * the latch detent, the narrowing slot faces, the process's loads (dock_proc.c) and the drive, the axial damper's
 * nut equation, the probe compliance, the stand's cover, the lateral chains, the thrust, variant C's springs, stops
 * and guide friction. Nothing here allocates. docs/dock.md, docs/dock-process.md §8. */
#include <math.h>
#include <string.h>
#include "dock/dock_sim_internal.h"

#define DOCK_LIM_F_MIN 1.0   /* N: the guides' friction the rods' reactions could hold below which they are taken as
                                frictionless (docs/dock-process.md §8.5)                                        */

static double elastic_energy(const mech_contact_law *law, double depth)
{
    if (depth <= 0)
        return 0;
    return law->k * (law->n == 1 ? depth * depth : pow(depth, law->n + 1)) / (law->n + 1);
}

/* ---- contact-body kinematics --------------------------------------------------------------------------------- */

void dock_contact_bodies(mech_dock_sim *s, double L, double sdot)
{
    const mech_body_data *d = s->d;
    const mech_dock_params *p = &s->m->p;
    mech_mat3 R5 = d->xmat[s->m->b.probe];
    mech_vec3 ex = mech_mat3_col(R5, 0), w5 = d->xomega[s->m->b.probe];
    mech_vec3 arm = mech_vec3_scale(ex, L);
    mech_vec3 c = mech_vec3_add(d->pos[s->m->b.probe], arm);
    mech_vec3 vc = mech_vec3_axpy(mech_vec3_add(d->xvel[s->m->b.probe], mech_vec3_cross(w5, arm)), -sdot, ex);
    s->cb[DOCK_CB_HEAD] = (mech_contact_body){c, R5, vc, w5};
    /* latch frame: R5 Ry(dq4) Rz(dq5) with dq = tip sin q - q (A_HS of spec 001 §2.6); its angular velocity
       carries the rates of the correction, so the contact module sees the latch tips' true velocities */
    const int j0 = s->m->b.j0;   /* q1's index: 1 with the stand option's cover joint */
    double tf = p->probe.tip_factor, q4 = d->q[j0 + 3], q5 = d->q[j0 + 4];
    mech_mat3 R4x = mech_mat3_mul(R5, mech_mat3_rot(1, tf * d->sinq[j0 + 3] - q4));
    s->ahs_axis[0] = mech_mat3_col(R5, 1);
    s->ahs_axis[1] = mech_mat3_col(R4x, 2);
    s->ahs_gain[0] = tf * d->cosq[j0 + 3] - 1;   /* cos q4, cos q5 cached by the kinematics stage */
    s->ahs_gain[1] = tf * d->cosq[j0 + 4] - 1;
    mech_vec3 wl = mech_vec3_axpy(mech_vec3_axpy(w5, s->ahs_gain[0] * d->qd[j0 + 3], s->ahs_axis[0]),
                                  s->ahs_gain[1] * d->qd[j0 + 4], s->ahs_axis[1]);
    s->cb[DOCK_CB_LATCH] = (mech_contact_body){c, mech_mat3_mul(R4x, mech_mat3_rot(2, tf * d->sinq[j0 + 4] - q5)), vc,
                                               wl};
    int h = s->m->b.pads, f = s->m->b.passive;   /* the pads ride on the housing, or on the movable limiter (C) */
    s->cb[DOCK_CB_HOUSING] = (mech_contact_body){d->pos[h], d->xmat[h], d->xvel[h], d->xomega[h]};
    s->cb[DOCK_CB_PASSIVE] = (mech_contact_body){d->pos[f], d->xmat[f], d->xvel[f], d->xomega[f]};
}

/* which sets can touch (cheap bounding checks; docs/dock.md §contacts). Every check runs at every stage on that
 * stage's state and bounds the pair's depth from above, so skipping a set changes nothing: its pairs would report
 * no contact (and leave no anchor) anyway. The cone's rim side and the limiter bounds are loose (DOCK_GATE_MARGIN);
 * the cone's throat side, the socket bore, the bottom and the latch bounds are exact distances (GATE_EXACT, round-off
 * only). */
#define GATE_EXACT 1e-3   /* m */
/* (latch frame) => each latch tip's x in the cone frame. A latch is a spring pawl that snaps out behind the stop
 * only when its own tip has passed the stop by the detent travel (RP-1 §2.2): on a tilted head the tips pass the
 * capture plane one by one, and a tip still short of it is folded in the bore, with no stop contact yet
 * (docs/dock.md §3). */
static void latch_tips(mech_dock_sim *s, dock_eval *e)
{
    const mech_contact_model *cm = s->m->set[DOCK_SET_LATCH];
    const mech_contact_body *Lb = &s->cb[DOCK_CB_LATCH];
    double low = e->x_c - s->m->p.geom.latch_radius;   /* no tip is lower than this */
    if (low > s->m->g.capture_x) {   /* none near the capture plane yet (the approach): no products needed */
        for (int k = 0; k < 4; k++)
            e->tip_x[k] = low;
        return;
    }
    for (int k = 0; k < 4; k++)
        e->tip_x[k] = dock_to_cone(s, mech_vec3_add(Lb->pos, mech_mat3_apply(Lb->rot, cm->pair[k].local_a.pos))).x;
}

static void gates(mech_dock_sim *s, dock_eval *e, mech_vec3 hc)
{
    const mech_dock_model *m = s->m;
    const dock_geom *g = &m->g;
    const mech_dock_geometry *gm = &m->p.geom;
    const mech_contact_body *P = &s->cb[DOCK_CB_PASSIVE];
    double rh = gm->head_radius, x = hc.x;
    /* cone (wall, rim and throat edge, all at or above the throat plane): the head sphere's top below the throat
       touches none of them, an exact bound (the head held on the latch stops sits with its top 5 mm below the
       throat; the former loose margin of 20 mm evaluated the pair at 72 % of RP-2 S3x-400-C-short's evaluations,
       touching at 0.7 %) */
    e->on[DOCK_SET_CONE] = x - rh < g->rim_x + DOCK_GATE_MARGIN && x + rh > g->throat_x - GATE_EXACT;
    /* bore (inside a cylinder of the socket radius, up to the throat): the head centre's distance from the axis */
    double r_free = gm->socket_radius - rh - GATE_EXACT;   /* the centre's free radial play in the bore */
    e->on[DOCK_SET_SOCKET] = x - rh < g->throat_x + DOCK_GATE_MARGIN &&
                             (r_free <= 0 || hc.y * hc.y + hc.z * hc.z > r_free * r_free);
    e->on[DOCK_SET_BOTTOM] = x - rh < g->bottom_x + GATE_EXACT;
    /* latch tips (radius r about the head centre in the latch frame's y-z plane) reach at most r sin(tilt) above
       the head centre along the cone axis; the stop plane touches them from above */
    e->on[DOCK_SET_LATCH] = 0;
    if (s->captured) {
        double cx = mech_vec3_dot(mech_mat3_col(P->rot, 0), mech_mat3_col(s->cb[DOCK_CB_LATCH].rot, 0));
        e->on[DOCK_SET_LATCH] = x + gm->latch_radius * sqrt(fmax(0.0, 1 - cx * cx)) > g->stop_x - GATE_EXACT;
    }
    e->on[DOCK_SET_LIMITER] = 0;
    if (m->set[DOCK_SET_LIMITER]) {
        const mech_contact_body *H = &s->cb[DOCK_CB_HOUSING];
        mech_vec3 xh = mech_mat3_col(H->rot, 0);
        mech_vec3 ax = mech_mat3_tapply(P->rot, xh);   /* housing axis, cone frame */
        mech_vec3 a0 = dock_to_cone(s, mech_vec3_axpy(H->pos, gm->limiter_x0, xh));
        mech_vec3 a1 = mech_vec3_axpy(a0, gm->limiter_x1 - gm->limiter_x0, ax);
        double st = sqrt(fmax(0.0, 1 - ax.x * ax.x));
        double xmin = fmin(a0.x - gm->limiter_r0 * st, a1.x - gm->limiter_r1 * st);
        double xmax = fmax(a0.x + gm->limiter_r0 * st, a1.x + gm->limiter_r1 * st);
        if (g->rim_x > xmin - DOCK_GATE_MARGIN && g->rim_x < xmax + DOCK_GATE_MARGIN) {
            /* where the limiter axis crosses the rim plane, and the widest section there */
            double t = fabs(ax.x) > 1e-6 ? (g->rim_x - a0.x) / ax.x : 0;
            mech_vec3 q = mech_vec3_axpy(a0, t, ax);
            double rmax = fmax(gm->limiter_r0, gm->limiter_r1) / fmax(fabs(ax.x), 0.5);
            e->on[DOCK_SET_LIMITER] = hypot(q.y, q.z) + rmax > g->rim_r - DOCK_GATE_MARGIN;
        }
    }
}

/* ---- variant C: the guide friction of the movable limiter (docs/dock-process.md §6, §8.5) ------------------------
 * After the tree's forward dynamics with every load but the guide friction: the tree's accelerations are affine
 * in a force on the limiter's joint (the articulated-body solution is linear in the loads), so the response to a
 * unit joint force (mech_body_aba_unit: vectors over the articulated inertias just computed) gives the slope
 * 1 / m_eff exactly: the whole tree's inertia as the limiter feels it. The variant-constraint solver of friction/
 * decides the guide reactions (the round rods' reactions to the pads' lateral load and moment), stick or slip
 * and the friction; the response times the friction is added to every acceleration (the same to round-off as a
 * third articulated-body pass with it, which this replaced: 3 passes were half of a variant C run). In stick the
 * limiter's acceleration along the housing is then zero to round-off, with the housing's own acceleration
 * included. Left out: the guides' share of the limiter's inertial load across the axis (3 kg times the housing's
 * lateral acceleration, against pad loads of hundreds of N). */
static int limiter_guides(mech_dock_sim *s, dock_eval *e, double Fl, double Ml)
{
    const mech_body_model *bm = s->bm;
    mech_body_data *d = s->d;
    const int jl = s->jl;
    hy_err lerr;
    lerr.code = 0, lerr.msg[0] = 0;
    int rc;
    e->lim_friction = 0;
    if (!e->lim_loaded) {   /* no guide reaction: the closed form (slip indices follow the speed) */
        rc = mech_dock_limiter_trial_coupled(&s->lim, e->lim_x, e->lim_xd, 1.0, -d->qdd[jl], 0, 0, &e->lim, &lerr);
        return rc ? dock_sim_fail(s, rc, "limiter: %s", lerr.msg) : HY_OK;
    }
    double qa = d->qdd[jl];
    if (mech_body_aba_unit(bm, d, jl))
        return dock_sim_fail(s, HY_ENUMERIC,
                             "body tree: an articulated inertia is not positive (singular configuration)");
    double g = d->dqdd[jl];   /* 1 / m_eff, > 0 */
    if (!(g > 0))
        return dock_sim_fail(s, HY_ENUMERIC, "limiter: its effective mass on the tree is not positive (1/m = %g)", g);
    /* Fl, Ml: the round rods' reactions as the planar guide's load (mech_dock_limiter_rod_load, in dock_evaluate) */
    rc = mech_dock_limiter_trial_coupled(&s->lim, e->lim_x, e->lim_xd, 1.0 / g, -qa / g, Fl, Ml, &e->lim, &lerr);
    if (rc)
        return dock_sim_fail(s, rc, "limiter: %s; hint: the guides jam (a Painleve case: lower limiter.mu or move the "
                             "guide pairs limiter.a apart)", lerr.msg);
    e->lim_friction = e->lim.F[0] + e->lim.F[1];
    mech_body_aba_add_unit(bm, d, jl, -e->lim_friction);
    return HY_OK;
}

/* ---- one evaluation: (t, y) => dy/dt and e (trials of every element; committed states untouched) ------------ */

int dock_evaluate(mech_dock_sim *s, double t, const double *y, double *dy, dock_eval *e)
{
    const mech_dock_model *m = s->m;
    const mech_dock_params *p = &m->p;
    const mech_dock_geometry *gm = &p->geom;
    const dock_geom *g = &m->g;
    const mech_body_model *bm = s->bm;
    mech_body_data *d = s->d;
    size_t nb = s->nb;
    int rc;

    s->st.evals++;
    mech_body_set_state(bm, d, t, y);
    mech_body_kinematics(bm, d);
    mech_body_clear_loads(bm, d);

    e->s = y[nb] / m->i_nut;
    e->sdot = y[nb + 1] / m->i_nut;
    e->L = gm->probe_length - e->s;
    dock_contact_bodies(s, e->L, e->sdot);
    const mech_contact_body *H = &s->cb[DOCK_CB_HEAD], *P = &s->cb[DOCK_CB_PASSIVE];
    mech_vec3 exp_ = mech_mat3_col(P->rot, 0);          /* cone axis, world */
    mech_vec3 O = mech_vec3_add(P->pos, mech_mat3_apply(P->rot, g->cone_origin));
    e->head = H->pos;
    e->head_vel = H->vel;
    mech_vec3 hc = dock_to_cone(s, H->pos);
    e->x_c = hc.x;
    gates(s, e, hc);
    if (s->latch_folded)
        latch_tips(s, e);

    mech_vec3 Fh = {0, 0, 0}, Fp = {0, 0, 0}, Mp = {0, 0, 0};
    mech_vec3 Ml = {0, 0, 0};   /* moment about the head centre of every load on the latch frame (A_HS share) */
    double Pc = 0, Eel = 0, flim = 0;
    e->cone = e->socket = e->bottom = e->latch = e->limiter = 0;
    for (int k = 0; k < DOCK_NSET; k++) {
        if (!e->on[k])
            continue;
        const mech_contact_model *cm = m->set[k];
        mech_contact_data *cd = s->cd[k];
        mech_contact_eval(cm, cd, s->cb);
        if (cd->nactive == 0)
            continue;
        for (int i = 0; i < cm->npair; i++) {
            const mech_contact_pair *pr = &cm->pair[i];
            const mech_contact_geom *gg = &cd->geom[i];
            if (!(gg->depth > 0))
                continue;
            if (pr->max_depth > 0 && gg->depth > pr->max_depth)
                return dock_sim_fail(s, HY_ESTATE,
                                     "contact %s: penetration %.4g m deeper than the geometry allows (%.4g m)",
                            pr->name, gg->depth, pr->max_depth);
            mech_vec3 f = cd->force[i];
            if (!(isfinite(f.x) && isfinite(f.y) && isfinite(f.z)))
                return dock_sim_fail(s, HY_ENUMERIC, "contact %s: non-finite force", pr->name);
            int body = pr->body_a == DOCK_CB_HOUSING ? s->m->b.pads : s->m->b.probe;
            mech_body_apply_world_force(bm, d, body, gg->point, f);
            mech_body_apply_world_force(bm, d, s->m->b.passive, gg->point, mech_vec3_neg(f));
            Fp = mech_vec3_sub(Fp, f);
            Mp = mech_vec3_sub(Mp, mech_vec3_cross(mech_vec3_sub(gg->point, O), f));
            if (body == s->m->b.probe)
                Fh = mech_vec3_add(Fh, f);
            if (pr->body_a == DOCK_CB_LATCH)
                Ml = mech_vec3_add(Ml, mech_vec3_cross(mech_vec3_sub(gg->point, H->pos), f));
            /* power taken from the bodies: -f . (v_A - v_B) at the point */
            mech_vec3 vrel = mech_vec3_axpy(cd->vel[i].vt, cd->vel[i].vn, gg->normal);
            Pc -= mech_vec3_dot(f, vrel);
            Eel += elastic_energy(&pr->law, gg->depth) +
                   0.5 * pr->law.kt * mech_vec3_dot(cd->stretch[i], cd->stretch[i]);
            double fn = cd->fn[i];
            if (fn > 0) {
                if (k == DOCK_SET_CONE)
                    e->cone = 1;
                else if (k == DOCK_SET_SOCKET)
                    e->socket = 1;
                else if (k == DOCK_SET_BOTTOM)
                    e->bottom = 1;
                else if (k == DOCK_SET_LATCH)
                    e->latch = 1;
                else {
                    e->limiter = 1;
                    flim += mech_vec3_norm(f);
                }
            }
        }
    }

    /* latch detent before capture: the latches are pushed in over detent_travel past the stop plane */
    e->detent = 0;
    if (!s->captured && gm->detent_force > 0) {
        double U = 0, fd = dock_detent(g, gm->detent_force, e->x_c, &U);
        if (fd > 0) {
            mech_vec3 f = mech_vec3_scale(exp_, fd);
            mech_body_apply_world_force(bm, d, s->m->b.probe, H->pos, f);
            mech_body_apply_world_force(bm, d, s->m->b.passive, H->pos, mech_vec3_neg(f));
            Fh = mech_vec3_add(Fh, f);
            Fp = mech_vec3_sub(Fp, f);
            Mp = mech_vec3_sub(Mp, mech_vec3_cross(mech_vec3_sub(H->pos, O), f));
            Pc -= mech_vec3_dot(f, mech_vec3_sub(H->vel, dock_passive_point_vel(s, H->pos)));
            e->detent = fd;
        }
        Eel += U;
    }

    /* narrowing slot faces (roll alignment): penalty on the latch roll error beyond the slot's half-width */
    const mech_contact_body *La = &s->cb[DOCK_CB_LATCH];
    mech_vec3 yl = mech_mat3_tapply(P->rot, mech_mat3_col(La->rot, 1));
    double rho2 = yl.y * yl.y + yl.z * yl.z;
    /* the roll error feeds the slots (after capture) and the capture test (head past the capture plane) only */
    e->roll_err = s->captured || e->x_c <= g->capture_x ? remainder(atan2(yl.z, yl.y), 0.5 * M_PI) : 0.0;
    e->slot_touch = 0;
    e->slot_vimp = 0;
    e->slot_over = -1;
    double u = g->stop_x - e->x_c;   /* head centre below the stop plane */
    if (s->captured && rho2 > 0.25) {
        double dw = 0, w = dock_slot_width(gm, u, &dw);
        double over = fabs(e->roll_err) - w;
        e->slot_over = over;
        if (over > 0) {
            const mech_contact_law *law = &p->contact.head_bottom;
            double r = gm->latch_radius, sg = e->roll_err > 0 ? 1 : -1;
            /* roll = atan2(yl.z, yl.y): its gradient with respect to a small relative rotation (cone frame) is
               (1, -yl.x yl.y / rho2, -yl.x yl.z / rho2), exact also with the probe tilted, so the torque and the
               rate below are work-conjugate */
            mech_vec3 grad = mech_mat3_apply(P->rot, (mech_vec3){1, -yl.x * yl.y / rho2, -yl.x * yl.z / rho2});
            double roll_rate = mech_vec3_dot(grad, mech_vec3_sub(La->omega, P->omega));
            double u_rate = -mech_vec3_dot(exp_, mech_vec3_sub(H->vel, dock_passive_point_vel(s, H->pos)));
            double pen = r * over, pen_rate = r * (sg * roll_rate - dw * u_rate);
            double vimp = s->slot_touch ? s->slot_vimp : fmax(pen_rate, law->v_min);
            /* Hunt-Crossley with its damping coefficient capped at the critical damping of the penalty on the
               probe's roll inertia (I_x / r^2 at the latch radius): under the large quasi-static torque of a roll
               error the uncapped k pen D is tens of times critical and no explicit step resolves it */
            double D = m->slot_hc_s / vimp;
            double el = law->k * (law->n == 1 ? pen : pow(pen, law->n));
            double c_crit = 2 * sqrt(law->k * p->mass.probe_inertia.x) / r;
            double Fn = fmax(0.0, el + fmin(el * D, c_crit) * pen_rate);
            mech_vec3 T = mech_vec3_scale(grad, -sg * Fn * r);
            mech_body_apply_world_moment(bm, d, s->m->b.probe, T);
            mech_body_apply_world_moment(bm, d, s->m->b.passive, mech_vec3_neg(T));
            Ml = mech_vec3_add(Ml, T);
            /* the narrowing face's axial share: d pen / d x_c = r dw/du, pushing the head away from the stops */
            mech_vec3 fa = mech_vec3_scale(exp_, -Fn * r * dw);
            mech_body_apply_world_force(bm, d, s->m->b.probe, H->pos, fa);
            mech_body_apply_world_force(bm, d, s->m->b.passive, H->pos, mech_vec3_neg(fa));
            Fh = mech_vec3_add(Fh, fa);
            Fp = mech_vec3_sub(Fp, fa);
            Mp = mech_vec3_sub(mech_vec3_sub(Mp, T), mech_vec3_cross(mech_vec3_sub(H->pos, O), fa));
            Pc += Fn * pen_rate;
            Eel += elastic_energy(law, pen);
            e->slot_touch = 1;
            e->slot_vimp = vimp;
        }
    }
    /* the latch frame turns by dq4, dq5 more than body 5: the generalized forces of its loads on q4, q5 */
    const int j0 = s->m->b.j0;
    d->tau[j0 + 3] += s->ahs_gain[0] * mech_vec3_dot(Ml, s->ahs_axis[0]);
    d->tau[j0 + 4] += s->ahs_gain[1] * mech_vec3_dot(Ml, s->ahs_axis[1]);
    e->f_head = Fh;
    e->f_passive = Fp;
    e->m_passive = Mp;
    e->e_contact = Eel;
    e->f_limiter = flim;

    /* axial damper: the nut equation with the head's push-in force (DOCK.md: counted once in the tree, once here) */
    mech_vec3 ex5 = mech_mat3_col(H->rot, 0);
    e->f_axial = -mech_vec3_dot(Fh, ex5);
    hy_err aerr;   /* not cleared: the sub-models fill it when they fail (clearing the message cost 1 % of a step) */
    aerr.code = 0, aerr.msg[0] = 0;
    if (s->proc) {
        /* the process: pushers, docking planes and rollers on the tree; the drive output u in the nut equation */
        dock_proc_loads(m, bm, d, s->cb, y[nb], y[nb + 1], s->pad_c,
                        e->on[DOCK_SET_LIMITER] ? s->cd[DOCK_SET_LIMITER]->geom : NULL, &s->hooks, t - s->t, &e->pr);
        Pc += e->pr.p_contact;
        e->e_contact += e->pr.e_contact;
        e->pr.u = y[s->iu], e->pr.w = y[s->iu + 1];
        /* the fully retracted end stop on the stroke (RP-1 §2.3: probe 0.15 m long), a spring-damper at 0.2 of
           critical on the nut chain's m_eq */
        double dend = e->s - p->process.retract_limit, f_end = 0;
        if (dend > 0) {
            double k = p->axial.stop_stiffness, c = 0.4 * sqrt(k * p->axial.m_eq);
            f_end = fmax(0.0, k * dend + c * e->sdot);
            e->e_contact += 0.5 * k * dend * dend;
            Pc += f_end * e->sdot;
        }
        e->pr.f_end = f_end;
        rc = mech_dock_axial_trial_drive(s->ax, y[nb], y[nb + 1], e->pr.u, e->pr.w, e->f_axial + e->pr.f_nut - f_end,
                                         &e->ax, &aerr);
        if (rc == HY_OK) {
            mech_dock_drive_trial(&s->drive, t - s->t, e->pr.u, e->pr.w, &e->pr.drv);
            e->pr.udd = (e->pr.drv.F + e->ax.force + e->ax.f_damping + e->ax.f_stop) / p->process.drive.m_out;
        }
    } else {
        rc = mech_dock_axial_trial(s->ax, y[nb], y[nb + 1], e->f_axial, &e->ax, &aerr);
    }
    if (rc)
        return dock_sim_fail(s, rc, "%s", aerr.msg);

    /* probe compliance: torsion q3 (not rescaled), bending q4, q5 scaled by L_Pr(0) / L_Pr(t) (spec 001 §2.6) */
    static const int jel[3] = {MECH_DOCK_EL_TORSION, MECH_DOCK_EL_BEND_Y, MECH_DOCK_EL_BEND_Z};
    double bend_scale = gm->probe_length / e->L;
    for (int k = 0; k < 3; k++) {
        const mech_dock_law *law = k == 0 ? &p->probe.torsion : &p->probe.bending;
        hy_diag dg;
        memset(&dg, 0, sizeof dg);
        double Q = 0, q = d->q[j0 + 2 + k], qd = d->qd[j0 + 2 + k];
        rc = dock_law_trial(law, &s->el[k], q, qd, k == 0 ? 1.0 : bend_scale, &Q, &dg);
        if (rc) {
            char buf[300];
            hy_diag_format(&dg, buf, sizeof buf);
            return dock_sim_fail(s, rc, "element %s: %s", mech_dock_element_name(jel[k]), buf);
        }
        d->tau[j0 + 2 + k] -= Q;
        e->qel[jel[k]] = q;
        e->Qel[jel[k]] = Q;
        e->stel[jel[k]] = hy_element_state(&s->el[k]);
    }

    /* the stand option (spec 001 §2.7, eq. 2.9): the hatch cover under the mechanism base, its law and a damper on
       the cover joint (q = the cover's deflection along the docking axis, towards the passive vehicle positive).
       The law is laws.cover (a hysteretic element, trial here, committed with the step) or the linear stand.k; either
       way it is the element "cover" whose t, q, Q record hyst loops reads, and its work (stored + dissipated) is
       booked with the other elements' */
    e->x_cover = e->p_cover = 0;
    e->qel[MECH_DOCK_EL_COVER] = e->Qel[MECH_DOCK_EL_COVER] = 0;
    e->stel[MECH_DOCK_EL_COVER] = 0;
    if (p->stand) {
        double x = d->q[0], xd = d->qd[0], F = p->cover.k * x;
        if (s->el_cover.ops) {
            hy_diag dg;
            memset(&dg, 0, sizeof dg);
            if ((rc = dock_law_trial(&p->cover_law, &s->el_cover, x, xd, 1.0, &F, &dg))) {
                char buf[300];
                hy_diag_format(&dg, buf, sizeof buf);
                return dock_sim_fail(s, rc, "element cover: %s", buf);
            }
            e->stel[MECH_DOCK_EL_COVER] = hy_element_state(&s->el_cover);
        }
        d->tau[0] -= F + p->cover.c * xd;
        e->x_cover = x;
        e->qel[MECH_DOCK_EL_COVER] = x;
        e->Qel[MECH_DOCK_EL_COVER] = F;
        e->p_cover = p->cover.c * xd * xd;
    }

    /* lateral damper: chains reduced into the housing (hook), the opposite moment on the base as a couple */
    const mech_body_data *dc = d;
    e->alpha_C = mech_mat3_tmul(dc->xmat[s->m->b.housing], dc->xmat[DOCK_B_BASE]);
    mech_vec3 omC = mech_vec3_sub(dc->omega[s->m->b.housing], mech_mat3_apply(e->alpha_C, dc->omega[DOCK_B_BASE]));
    hy_err lerr;
    lerr.code = 0, lerr.msg[0] = 0;
    rc = mech_dock_lateral_trial_abs(s->lat, &e->alpha_C, omC, dc->omega[s->m->b.housing], &e->lat, &lerr);
    if (rc)
        return dock_sim_fail(s, rc, "%s", lerr.msg);
    d->hook_inertia = e->lat.dI;
    d->hook_moment = mech_vec3_add(e->lat.dm_bias, e->lat.moment);
    mech_body_apply_world_moment(bm, d, DOCK_B_BASE, mech_vec3_neg(mech_mat3_apply(d->xmat[s->m->b.housing],
                                 mech_vec3_add(e->lat.moment, e->lat.dm_couple))));   /* dock-lateral.md §4a */

    e->qel[MECH_DOCK_EL_AXIAL] = e->ax.q_el;
    e->Qel[MECH_DOCK_EL_AXIAL] = e->ax.Q_el;
    e->stel[MECH_DOCK_EL_AXIAL] = e->ax.state_el;
    for (int k = 0; k < 2; k++) {
        e->qel[MECH_DOCK_EL_SPRING1 + k] = e->lat.stroke[k];
        e->Qel[MECH_DOCK_EL_SPRING1 + k] = e->lat.force[k];
        e->stel[MECH_DOCK_EL_SPRING1 + k] = e->lat.state[k];
    }

    /* thrust on the active vehicle's CoM, triggered by the cone-contact sensor (S4c) */
    double Pth = 0;
    if (p->thrust.force != 0 && !isnan(s->thrust_on) && t - s->thrust_on < p->thrust.duration) {
        const mech_body_def *def = mech_body_model_def(bm);
        mech_vec3 com = mech_body_point_world(bm, d, DOCK_B_BASE, def->base.com);
        mech_vec3 f = mech_vec3_scale(exp_, -p->thrust.force);
        mech_body_apply_world_force(bm, d, DOCK_B_BASE, com, f);
        Pth = mech_vec3_dot(f, mech_body_point_velocity(bm, d, DOCK_B_BASE, def->base.com));
    }

    /* variant C: the springs and stops on the limiter's joint (q = -x: forward positive) */
    double Plim = 0, limFl = 0, limMl = 0;
    if (s->lim_on) {
        const int jl = s->jl;
        e->lim_x = -d->q[jl];
        e->lim_xd = -d->qd[jl];
        double Fs, Fst, E;
        mech_dock_limiter_springs(&p->limiter, e->lim_x, e->lim_xd, &Fs, &Fst, &E);
        d->tau[jl] += Fs - Fst;
        double pen = e->lim_x < 0 ? e->lim_x : e->lim_x > p->limiter.stroke ? e->lim_x - p->limiter.stroke : 0.0;
        /* power the springs and stops take from the bodies: their elastic energy (E, booked with the contacts'
           elastic energy) and the stops' damping */
        Plim = (Fs - Fst) * e->lim_xd;
        e->e_contact += E;
        if (s->proc && pen != 0)
            e->pr.k_touch = fmax(e->pr.k_touch, p->limiter.stop_stiffness);
        /* the pads' loads on the limiter (nothing else acts on it): force and moment about the guides' centre,
           limiter frame (the housing's axes) */
        const int lb = m->b.limiter;
        mech_vec3 limF = d->f_ext[lb];
        mech_vec3 c = {gm->limiter_x0 - DOCK_C_GUIDE_BACK, 0, 0};
        mech_vec3 limM = mech_vec3_sub(d->m_ext[lb], mech_vec3_cross(c, limF));
        /* the round rods' reactions as the planar guide's load, once per evaluation. Loaded: the rods' reactions
           could hold more than DOCK_LIM_F_MIN by friction; below, the guides are frictionless (a stick of a tenth
           of a newton against the 300-1200 N springs is not worth its events) */
        mech_dock_limiter_rod_load(&p->limiter, limF.y, limF.z, limM.y, limM.z, &limFl, &limMl);
        const double a0 = p->limiter.a[0], a1 = p->limiter.a[1];
        double s0 = (a1 * limFl - limMl) / (a0 - a1), s1 = -limFl - s0;   /* the pairs' reactions, s0 + s1 = -f */
        double mu = fmax(p->limiter.mu[0], p->limiter.mu[1]);
        e->lim_loaded = mu * (fabs(s0) + fabs(s1)) >= DOCK_LIM_F_MIN;
    }

    rc = mech_body_forward(bm, d);
    if (rc)
        return dock_sim_fail(s, HY_ENUMERIC,
                             "body tree: an articulated inertia is not positive (singular configuration)");
    if (s->lim_on && (rc = limiter_guides(s, e, limFl, limMl)) != HY_OK)
        return rc;
    Pc += Plim + (s->lim_on ? e->lim.p_friction : 0.0);
    mech_body_state_deriv(bm, d, dy);
    dy[nb] = y[nb + 1];
    dy[nb + 1] = e->ax.phidd;
    dy[s->iu] = s->proc ? y[s->iu + 1] : 0.0;
    dy[s->iu + 1] = s->proc ? e->pr.udd : 0.0;
    e->p[DOCK_Q_CONTACT] = Pc;
    e->p[DOCK_Q_BRAKES] = e->ax.p_brakes;
    e->p[DOCK_Q_MAGNETIC] = e->ax.p_magnetic + e->lat.p_magnetic;
    e->p[DOCK_Q_DAMPING] = e->ax.p_damping + e->ax.p_screw + e->p_cover;
    e->p[DOCK_Q_THRUST] = Pth;
    e->p[DOCK_Q_DRIVE] = s->proc ? e->pr.drv.power + e->pr.hk.p_drive : 0.0;   /* the probe's and the hooks' drives */
    e->p[DOCK_Q_DRIVE_DAMP] = s->proc ? e->pr.drv.p_damping : 0.0;
    for (int k = 0; k < DOCK_NQ; k++)
        dy[s->iq + k] = e->p[k];
    /* one branch for the whole derivative (x * 0 is 0 for a finite x, NaN otherwise), the index only on failure;
       four sums, so that the additions do not wait on each other */
    double nf[4] = {0, 0, 0, 0};
    size_t i4 = (nb + 4) & ~(size_t)3;
    for (size_t i = 0; i < i4; i += 4)
        nf[0] += dy[i] * 0.0, nf[1] += dy[i + 1] * 0.0, nf[2] += dy[i + 2] * 0.0, nf[3] += dy[i + 3] * 0.0;
    for (size_t i = i4; i < nb + 4; i++)
        nf[0] += dy[i] * 0.0;
    double nonfinite = (nf[0] + nf[1]) + (nf[2] + nf[3]);
    if (nonfinite != 0 || isnan(nonfinite))
        for (size_t i = 0; i < nb + 4; i++)
            if (!isfinite(dy[i]))
                return dock_sim_fail(s, HY_ENUMERIC, "state derivative %zu is not finite", i);
    return HY_OK;
}

/* The initial state of a docking run (mech_dock_sim_new): the vehicles placed from the scenario's initial
 * conditions, the approach walked (then bisected) to the first contact and backed off by initial.gap, the
 * velocities set (docs/dock.md §initial). */
#include <math.h>
#include <string.h>
#include "dock/dock_sim_internal.h"

/* (translation sigma of the active vehicle along the approach) => y (body part) with the vehicles' poses */
static void place(mech_dock_sim *s, mech_vec3 port0, mech_vec3 dir, double sigma, mech_mat3 R0, double *y)
{
    const mech_dock_params *p = &s->m->p;
    const mech_body_layout *L = &s->L;
    mech_vec3 port = mech_vec3_axpy(port0, sigma, dir);
    mech_vec3 uj = mech_vec3_axpy(port, -p->geom.uj_behind_plane, mech_mat3_col(R0, 0));
    y[L->base_pos] = uj.x, y[L->base_pos + 1] = uj.y, y[L->base_pos + 2] = uj.z;
    mech_quat q0 = mech_quat_from_mat3(R0);
    y[L->base_quat] = q0.w, y[L->base_quat + 1] = q0.x, y[L->base_quat + 2] = q0.y, y[L->base_quat + 3] = q0.z;
    mech_vec3 pc = s->m->passive_com;
    y[L->free_pos] = pc.x, y[L->free_pos + 1] = pc.y, y[L->free_pos + 2] = pc.z;
    y[L->free_pos + 3] = 1, y[L->free_pos + 4] = 0, y[L->free_pos + 5] = 0, y[L->free_pos + 6] = 0;
}

/* (y) => 1 when any contact set or the detent touches (geometry only; states are reset afterwards) */
static int touches(mech_dock_sim *s, const double *y)
{
    mech_body_set_state(s->bm, s->d, 0, y);
    mech_body_kinematics(s->bm, s->d);
    dock_contact_bodies(s, s->m->p.geom.probe_length, 0);
    double xc = dock_to_cone(s, s->cb[DOCK_CB_HEAD].pos).x;
    int hit = xc <= s->m->g.stop_x + 0.5 * s->m->g.detent_ramp;
    for (int k = 0; k < DOCK_NSET && !hit; k++) {
        if (k == DOCK_SET_LATCH || !s->m->set[k])
            continue;
        mech_contact_eval(s->m->set[k], s->cd[k], s->cb);
        hit = s->cd[k]->nactive > 0;
        mech_contact_reset(s->m->set[k], s->cd[k]);
    }
    return hit;
}

int dock_initial_state(mech_dock_sim *s, hy_err *err)
{
    const mech_dock_model *m = s->m;
    const mech_dock_params *p = &m->p;
    const mech_dock_initial *in = &p->init;
    const mech_body_layout *L = &s->L;
    double *y = s->y;
    memset(y, 0, s->dim * sizeof *y);
    mech_mat3 Rm = mech_mat3_mul(mech_mat3_rot(2, in->angles.z),
                                 mech_mat3_mul(mech_mat3_rot(1, in->angles.y), mech_mat3_rot(0, in->angles.x)));
    mech_mat3 R0 = mech_mat3_mul(Rm, dock_flip_x());
    /* approach direction: the active vehicle's velocity relative to the passive one */
    mech_vec3 v = {-in->closing_speed, in->velocity.y, in->velocity.z};
    mech_vec3 dir = mech_vec3_norm(v) > 1e-12 ? mech_vec3_normalize(v) : (mech_vec3){-1, 0, 0};
    if (dir.x > -0.2)
        return hy_err_set(err, HY_EMODEL, "initial.closing_speed: the approach must close along the cone axis "
                          "(closing speed %g m/s against lateral %g m/s)", in->closing_speed,
                          hypot(in->velocity.y, in->velocity.z));
    /* start with the head 0.1 m above the rim plane, then walk along the approach to the first contact */
    double reach = p->geom.housing_length + p->geom.probe_length - p->geom.uj_behind_plane;
    mech_vec3 port0 = {m->g.rim_x + p->geom.head_radius + 0.1 + reach * fabs(mech_mat3_col(R0, 0).x),
                       in->offset.y, in->offset.z};
    place(s, port0, dir, 0, R0, y);
    if (touches(s, y))
        return hy_err_set(err, HY_EMODEL, "initial: the mechanism touches the passive unit before the approach "
                          "starts (offset or angles too large)");
    double lo = 0, hi = 0, step = 0.002;
    for (;;) {
        hi = lo + step;
        place(s, port0, dir, hi, R0, y);
        if (touches(s, y))
            break;
        lo = hi;
        if (lo > 3.0)
            return hy_err_set(err, HY_EMODEL, "initial: no contact along the approach within 3 m (the head misses "
                              "the cone: offset %g m)", hypot(in->offset.y, in->offset.z));
    }
    for (int it = 0; it < 60 && hi - lo > 1e-10; it++) {
        double mid = 0.5 * (lo + hi);
        place(s, port0, dir, mid, R0, y);
        if (touches(s, y))
            hi = mid;
        else
            lo = mid;
    }
    place(s, port0, dir, lo - in->gap, R0, y);
    if (s->lim_on)   /* the limiter rests on its forward stop, pressed by the springs' preload (q = -x > 0) */
        y[L->q + s->jl] = p->limiter.f_forward /
                          (p->limiter.stop_stiffness + (p->limiter.f_end - p->limiter.f_forward) / p->limiter.stroke);

    /* velocities: the active CoM moves at v, turns at the rates (cone frame); the passive vehicle at rest */
    const mech_body_def *def = mech_body_model_def(s->bm);
    mech_vec3 uj = {y[L->base_pos], y[L->base_pos + 1], y[L->base_pos + 2]};
    mech_vec3 com = mech_vec3_add(uj, mech_mat3_apply(R0, def->base.com));
    mech_vec3 w = in->rates;
    mech_vec3 vuj = mech_vec3_add(v, mech_vec3_cross(w, mech_vec3_sub(uj, com)));
    mech_vec3 vb = mech_mat3_tapply(R0, vuj), wb = mech_mat3_tapply(R0, w);
    y[L->base_vel] = vb.x, y[L->base_vel + 1] = vb.y, y[L->base_vel + 2] = vb.z;
    y[L->base_omega] = wb.x, y[L->base_omega + 1] = wb.y, y[L->base_omega + 2] = wb.z;
    return HY_OK;
}

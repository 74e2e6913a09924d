/* The history of a docking run: the channels (MECH_DOCK_CH_* of mech/dock.h, their names and units in
 * mech_dock_channel_name / _unit) at the end of each accepted step of h, from the accepted state's evaluation and
 * the energy budget (dock_energy.c). mech dock writes them as history.csv (docs/dock.md §outputs). */
#include <math.h>
#include "dock/dock_sim_internal.h"

void dock_rel_attitude(const mech_dock_sim *s, double *roll, double *pitch, double *yaw, double *tilt)
{
    const mech_contact_body *P = &s->cb[DOCK_CB_PASSIVE];
    mech_mat3 Rrel = mech_mat3_mul(mech_mat3_tmul(P->rot, s->d->xmat[DOCK_B_BASE]), dock_flip_x());
    *roll = atan2(Rrel.m[2][1], Rrel.m[2][2]);
    *pitch = asin(fmax(-1.0, fmin(1.0, -Rrel.m[2][0])));
    *yaw = atan2(Rrel.m[1][0], Rrel.m[0][0]);
    *tilt = atan2(hypot(Rrel.m[1][0], Rrel.m[2][0]), Rrel.m[0][0]);
}

/* (sim at an accepted state) => g[i], the gap at each pusher rod (MECH_DOCK_CH_ROD_GAP1 of mech/dock.h), the
 * formula of dock_proc_loads (which takes the axis gap for them all while the planes are far apart) */
static void rod_gaps(const mech_dock_sim *s, double *g)
{
    const mech_dock_model *m = s->m;
    const mech_body_data *d = s->d;
    const mech_contact_body *P = &s->cb[DOCK_CB_PASSIVE];
    mech_mat3 R0 = d->xmat[DOCK_B_BASE];
    mech_vec3 x0 = mech_mat3_col(R0, 0);
    mech_vec3 port = mech_vec3_axpy(d->pos[DOCK_B_BASE], m->p.geom.uj_behind_plane, x0);
    mech_vec3 Ow = mech_vec3_add(P->pos, mech_mat3_apply(P->rot, m->g.cone_origin));
    mech_vec3 o = mech_mat3_tapply(R0, mech_vec3_sub(Ow, port)), n = mech_mat3_tapply(R0, mech_mat3_col(P->rot, 0));
    for (int i = 0; i < m->p.process.pushers.n && i < MECH_DOCK_PUSHER_MAX; i++)
        g[i] = n.x < 0 ? mech_vec3_dot(n, mech_vec3_sub(o, m->rod_base[i])) / n.x : NAN;
}

void dock_history_fill(mech_dock_sim *s, const dock_energy *eb, const double *att)
{
    const mech_dock_params *p = &s->m->p;
    const dock_eval *e = &s->acc;
    const mech_body_data *d = s->d;
    const double *y = s->y;
    const double *Q = y + s->iq;
    size_t nb = s->nb;
    const mech_contact_body *P = &s->cb[DOCK_CB_PASSIVE], *H = &s->cb[DOCK_CB_HEAD];
    mech_vec3 ex5 = mech_mat3_col(H->rot, 0);
    mech_vec3 Fc = mech_mat3_tapply(P->rot, e->f_head);
    double fax = e->f_axial;
    double flat = mech_vec3_norm(mech_vec3_axpy(e->f_head, -mech_vec3_dot(e->f_head, ex5), ex5));
    mech_vec3 x0 = mech_mat3_col(d->xmat[DOCK_B_BASE], 0), x2 = mech_mat3_col(d->xmat[s->m->b.housing], 0);
    double swing = acos(fmax(-1.0, fmin(1.0, mech_vec3_dot(x0, x2))));
    mech_vec3 exp_ = mech_mat3_col(P->rot, 0);

    double *c = s->ch;
    c[MECH_DOCK_CH_T] = s->t;
    c[MECH_DOCK_CH_HEAD_FX] = Fc.x;
    c[MECH_DOCK_CH_HEAD_FY] = Fc.y;
    c[MECH_DOCK_CH_HEAD_FZ] = Fc.z;
    c[MECH_DOCK_CH_HEAD_AXIAL] = fax;
    c[MECH_DOCK_CH_HEAD_LATERAL] = flat;
    c[MECH_DOCK_CH_LIMITER_F] = e->f_limiter;
    /* mechanism load on the active vehicle: the tree's base reaction + the lateral chains' reaction couple */
    mech_vec3 mb = mech_vec3_sub(d->base_moment, mech_mat3_tapply(e->alpha_C, mech_vec3_add(e->lat.moment,
                                                                                         e->lat.dm_couple)));
    c[MECH_DOCK_CH_BASE_FX] = d->base_force.x;
    c[MECH_DOCK_CH_BASE_FY] = d->base_force.y;
    c[MECH_DOCK_CH_BASE_FZ] = d->base_force.z;
    c[MECH_DOCK_CH_BASE_MX] = mb.x;
    c[MECH_DOCK_CH_BASE_MY] = mb.y;
    c[MECH_DOCK_CH_BASE_MZ] = mb.z;
    mech_vec3 fp = mech_mat3_tapply(P->rot, e->f_passive), mp = mech_mat3_tapply(P->rot, e->m_passive);
    c[MECH_DOCK_CH_PASSIVE_FX] = fp.x;
    c[MECH_DOCK_CH_PASSIVE_FY] = fp.y;
    c[MECH_DOCK_CH_PASSIVE_FZ] = fp.z;
    c[MECH_DOCK_CH_PASSIVE_MX] = mp.x;
    c[MECH_DOCK_CH_PASSIVE_MY] = mp.y;
    c[MECH_DOCK_CH_PASSIVE_MZ] = mp.z;
    for (int k = 0; k < 5; k++)
        c[MECH_DOCK_CH_Q1 + k] = d->q[s->m->b.j0 + k];
    c[MECH_DOCK_CH_SWING] = swing;
    c[MECH_DOCK_CH_STROKE] = e->s;
    c[MECH_DOCK_CH_STROKE_RATE] = e->sdot;
    c[MECH_DOCK_CH_NUT] = y[nb];
    c[MECH_DOCK_CH_SLIP1] = e->ax.slip1;
    c[MECH_DOCK_CH_SLIP2] = e->ax.slip2;
    c[MECH_DOCK_CH_AXIAL_F] = e->ax.force;
    for (int k = 0; k < 4; k++) {
        c[MECH_DOCK_CH_CHAIN1_S + k] = e->lat.stroke[k];
        c[MECH_DOCK_CH_CHAIN1_F + k] = e->lat.force[k];
    }
    /* active port relative to the cone frame */
    const mech_dock_geometry *gm = &p->geom;
    mech_vec3 port = mech_vec3_axpy(d->pos[DOCK_B_BASE], gm->uj_behind_plane, x0);
    mech_vec3 rel = dock_to_cone(s, port);
    c[MECH_DOCK_CH_REL_X] = rel.x;
    c[MECH_DOCK_CH_REL_Y] = rel.y;
    c[MECH_DOCK_CH_REL_Z] = rel.z;
    c[MECH_DOCK_CH_REL_ROLL] = att[0], c[MECH_DOCK_CH_REL_PITCH] = att[1], c[MECH_DOCK_CH_REL_YAW] = att[2];
    c[MECH_DOCK_CH_REL_TILT] = att[3];   /* dock_account's dock_rel_attitude of this state */
    mech_vec3 vport = mech_body_point_velocity(s->bm, d, DOCK_B_BASE, (mech_vec3){gm->uj_behind_plane, 0, 0});
    c[MECH_DOCK_CH_REL_VX] = -mech_vec3_dot(exp_, mech_vec3_sub(vport, dock_passive_point_vel(s, port)));
    c[MECH_DOCK_CH_HEAD_X] = e->x_c;
    c[MECH_DOCK_CH_CONE_CONTACT] = e->cone;
    c[MECH_DOCK_CH_SOCKET_CONTACT] = e->socket;
    c[MECH_DOCK_CH_BOTTOM_CONTACT] = e->bottom;
    c[MECH_DOCK_CH_LATCH_CONTACT] = e->latch;
    c[MECH_DOCK_CH_LIMITER_CONTACT] = e->limiter;
    c[MECH_DOCK_CH_LIMITER_X] = s->lim_on ? e->lim_x : 0.0;
    c[MECH_DOCK_CH_LIMITER_GUIDE_F] = s->lim_on ? e->lim_friction : 0.0;
    /* the structural hooks (issue 44): tension per pair of links (2j, 2j + 1), links locked, the mean jaw of the
       engaged links, the docked state's unmet conditions (0: docked) */
    const mech_dock_hooks *hk = &s->hooks;
    double jaw = 0;
    int nj = 0;
    for (int j = 0; j < 4; j++)
        c[MECH_DOCK_CH_HOOK_F1 + j] = 0.0;
    for (int j = 0; s->proc && j < hk->p.n; j++) {
        c[MECH_DOCK_CH_HOOK_F1 + j / 2] += hk->committed.T[j];
        if (hk->committed.st[j] == MECH_DOCK_HOOK_CLOSING || hk->committed.st[j] == MECH_DOCK_HOOK_LOCKED)
            jaw += hk->committed.a[j], nj++;
    }
    c[MECH_DOCK_CH_HOOKS_LOCKED] = s->proc ? mech_dock_hooks_n_locked(hk) : 0.0;
    c[MECH_DOCK_CH_HOOK_JAW] = s->proc ? (nj ? jaw / nj : hk->p.capture_range) : 0.0;
    c[MECH_DOCK_CH_DOCKED_UNMET] = s->proc ? s->hs.unmet : 0.0;
    c[MECH_DOCK_CH_CAPTURE] = s->captured;
    c[MECH_DOCK_CH_E_KIN_VEHICLES] = eb->ke_veh;
    c[MECH_DOCK_CH_E_KIN_MECH] = eb->ke_mech;
    c[MECH_DOCK_CH_E_CONTACT] = e->e_contact;
    c[MECH_DOCK_CH_E_HYST] = eb->e_hyst;
    c[MECH_DOCK_CH_E_STOPS] = eb->e_stops;
    c[MECH_DOCK_CH_E_BRAKES] = eb->brakes;
    c[MECH_DOCK_CH_E_MAGNETIC] = Q[DOCK_Q_MAGNETIC];
    c[MECH_DOCK_CH_E_DAMPING] = eb->e_damping;
    c[MECH_DOCK_CH_E_CONTACT_DISS] = eb->e_cdiss;
    c[MECH_DOCK_CH_E_RESIDUAL] = eb->resid;
    const dock_proc_eval *pr = &e->pr;
    c[MECH_DOCK_CH_DRIVE_U] = s->proc ? pr->u : 0.0;
    c[MECH_DOCK_CH_DRIVE_F] = s->proc ? pr->drv.F : 0.0;
    c[MECH_DOCK_CH_DRIVE_CMD] = s->proc ? s->drive.committed.cmd : 0.0;
    c[MECH_DOCK_CH_SEQ_STATE] = s->proc ? s->seq.committed.state : 0.0;
    c[MECH_DOCK_CH_PLANE_GAP] = s->proc ? pr->gap : rel.x;
    c[MECH_DOCK_CH_PUSHER_F] = s->proc ? pr->f_pusher : 0.0;
    c[MECH_DOCK_CH_PUSHER_N] = s->proc ? pr->push.n_touch : 0.0;
    c[MECH_DOCK_CH_PLANE_F] = s->proc ? pr->f_plane : 0.0;
    for (int j = 0; j < 3; j++)
        c[MECH_DOCK_CH_ROLLER_F1 + j] = s->proc && s->m->cam && j < s->m->cam->n_lever ? pr->roller_f[j] : 0.0;
    c[MECH_DOCK_CH_ROLLER_N] = s->proc ? pr->n_roller : 0.0;
    c[MECH_DOCK_CH_PAD_F] = s->proc ? pr->f_pad : 0.0;
    c[MECH_DOCK_CH_COVER_X] = e->x_cover;
    c[MECH_DOCK_CH_E_DRIVE] = Q[DOCK_Q_DRIVE];
    c[MECH_DOCK_CH_E_DRIVE_STORED] = eb->e_drive;
    /* the docked state: rod gaps (process runs; NAN past the rods and where the planes do not face each other, 0
       without a process, as every process channel), the drive's state, the fault */
    double g[MECH_DOCK_PUSHER_MAX];
    int nrod = s->proc ? p->process.pushers.n : 0;
    if (nrod > 0)
        rod_gaps(s, g);
    double gmax = nrod > 0 ? -INFINITY : 0.0;
    for (int i = 0; i < nrod && i < MECH_DOCK_PUSHER_MAX; i++)
        gmax = isnan(g[i]) || isnan(gmax) ? NAN : fmax(gmax, g[i]);
    for (int i = 0; i < 4; i++)
        c[MECH_DOCK_CH_ROD_GAP1 + i] = i < nrod ? g[i] : s->proc ? NAN : 0.0;
    c[MECH_DOCK_CH_ROD_GAP_MAX] = gmax;
    c[MECH_DOCK_CH_DRIVE_X] = s->proc ? s->drive.committed.x : 0.0;
    c[MECH_DOCK_CH_DRIVE_V] = s->proc ? s->drive.committed.v_m : 0.0;
    int on = s->proc && s->drive.committed.cmd != MECH_DOCK_DRIVE_OFF;
    c[MECH_DOCK_CH_DRIVE_MOTORS] = on ? s->drive.committed.n_on : 0;
    c[MECH_DOCK_CH_DRIVE_LIMIT] = s->proc ? s->drive.committed.at_limit : 0;
    c[MECH_DOCK_CH_FAULT] = s->proc ? s->fault.committed.kind : 0;
}

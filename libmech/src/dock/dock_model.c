/* Compiled docking model: the body tree of spec 001 §1.6 on the active vehicle (floating base, origin at the
 * universal-joint centre, +x0 towards the passive vehicle), the passive vehicle as a free body, and the contact
 * sets of the passive unit and the limiter (dock_geom.c). docs/dock.md §2. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "dock/dock_internal.h"
#include "hyst/pwl.h"

// (mass, CoM offset d from the reference point, principal inertia about the CoM) => inertia about the point
static mech_mat3 shifted_inertia(double m, mech_vec3 d, mech_vec3 Ic)
{
    mech_mat3 I = mech_mat3_diag(Ic.x, Ic.y, Ic.z);
    double dd = mech_vec3_dot(d, d);
    return mech_mat3_add(I, mech_mat3_sub(mech_mat3_diag(m * dd, m * dd, m * dd), mech_mat3_scale(mech_mat3_outer(d, d), m)));
}

static int check_law_kind(const mech_dock_law *l, const char *key, hy_err *err)
{
    const hy_model *m = l->model;
    if (m->type == HY_MODEL_PWL && hy_pwl_model_kind(m->pwl) == HY_PWL_FRICTION)
        return hy_err_set(err, HY_EMODEL, "%s: a friction-kind table (spec 000 §3) cannot be a probe compliance "
                          "law; use a constant-kind pwl or a kin model", key);
    if (m->type == HY_MODEL_NONE)
        return hy_err_set(err, HY_EMODEL, "%s: unknown model family", key);
    return HY_OK;
}

int mech_dock_model_new(const mech_dock_params *p, mech_dock_model **out, hy_err *err)
{
    *out = NULL;
    int rc = mech_dock_params_check(p, err);
    if (rc)
        return rc;
    if ((rc = check_law_kind(&p->probe.bending, "probe.bending", err)) ||
        (rc = check_law_kind(&p->probe.torsion, "probe.torsion", err)))
        return rc;
    mech_dock_model *m = calloc(1, sizeof *m);
    if (!m)
        return hy_err_set(err, HY_ENOMEM, "dock model: out of memory");
    m->p = *p;
    m->i_nut = 2 * M_PI / p->axial.lead;
    m->slot_hc_s = mech_contact_hc_factor(p->contact.head_bottom.e, MECH_CONTACT_HC_EXACT);
    dock_geom_compute(p, &m->g);
    const mech_dock_geometry *g = &p->geom;
    const mech_dock_mass *ms = &p->mass;

    /* base = active vehicle about the UJ centre: its CoM lies (port.x - uj_behind_plane) behind the UJ */
    mech_vec3 d0 = {g->uj_behind_plane - p->active.port.x, -p->active.port.y, -p->active.port.z};
    mech_body_joint_def Jall[7], *J = Jall;
    memset(Jall, 0, sizeof Jall);
    const mech_mat3 I3 = mech_mat3_identity(), Z = mech_mat3_zero();
    /* the stand option (spec 001 §2.7, eq. 2.9): the mechanism base on the hatch cover, a prismatic joint along the
       docking axis between the vehicle and the UJ; the cover body carries the mechanism's mass beyond the housing and
       the probe (m_DM - both), taken from the vehicle so that the total mass stays */
    int jo = p->stand ? 1 : 0;
    double m_cover = p->stand ? p->cover.m_dm - ms->housing_mass - ms->probe_mass : 0;
    /* variant C: the movable limiter is a body of its own on the housing; its mass too comes from the vehicle */
    double m_lim = p->limiter_movable ? p->limiter.mass : 0;
    double m_base = p->active.mass - m_cover - m_lim;
    if (p->stand) {
        Jall[0] = (mech_body_joint_def){"cover", 0, MECH_BODY_PRISMATIC, 0, {0, 0, 0}, I3, m_cover, {0, 0, 0},
                                        mech_mat3_diag(0.01 * m_cover, 0.01 * m_cover, 0.01 * m_cover)};
        J = Jall + 1;
    }
    int jl = p->limiter_movable ? 1 : 0;
    m->b = (dock_ids){p->stand ? 1 : -1, DOCK_B_HOUSING + jo, DOCK_B_PROBE + jo, DOCK_B_PASSIVE + jo + jl, jo,
                      jl ? DOCK_B_PROBE + jo + 1 : -1, jl ? DOCK_B_PROBE + jo + 1 : DOCK_B_HOUSING + jo};
    /* UJ: q1 about z0 then q2 about y1 (spec 001 §7.1 item 4: order and axes ours), q3 torsion about the housing
       axis x at the probe exit, q4 bending about y, q5 about z (§1.6) */
    J[0] = (mech_body_joint_def){"uj-1", jo, MECH_BODY_REVOLUTE, 2, {0, 0, 0}, I3, 0, {0, 0, 0}, Z};
    J[1] = (mech_body_joint_def){"housing", 1 + jo, MECH_BODY_REVOLUTE, 1, {0, 0, 0}, I3, ms->housing_mass, ms->housing_com,
                                 mech_mat3_diag(ms->housing_inertia.x, ms->housing_inertia.y, ms->housing_inertia.z)};
    J[2] = (mech_body_joint_def){"torsion", 2 + jo, MECH_BODY_REVOLUTE, 0, {g->housing_length, 0, 0}, I3, 0, {0, 0, 0}, Z};
    J[3] = (mech_body_joint_def){"bend-4", 3 + jo, MECH_BODY_REVOLUTE, 1, {0, 0, 0}, I3, 0, {0, 0, 0}, Z};
    J[4] = (mech_body_joint_def){"probe", 4 + jo, MECH_BODY_REVOLUTE, 2, {0, 0, 0}, I3, ms->probe_mass, ms->probe_com,
                                 mech_mat3_diag(ms->probe_inertia.x, ms->probe_inertia.y, ms->probe_inertia.z)};
    if (jl) {
        /* variant C (spec 001 §5.3, §7 item 2): the limiter slides along the housing axis, the housing's second
           child. Its frame is the housing's shifted by q along x (q = 0: the forward position, q < 0 pushed back), so
           the pads' contact points keep their housing-frame coordinates at the forward position (dock_geom.c). A
           ring of pads on a sleeve: the centre of mass on the guides' centre, DOCK_C_GUIDE_BACK behind the larger
           base; ring inertia about it (r = the larger base) */
        double mL = p->limiter.mass, r = p->geom.limiter_r0;
        mech_vec3 c = {p->geom.limiter_x0 - DOCK_C_GUIDE_BACK, 0, 0};
        J[5] = (mech_body_joint_def){"limiter", DOCK_B_HOUSING + jo, MECH_BODY_PRISMATIC, 0, {0, 0, 0}, I3, mL, c,
                                     shifted_inertia(mL, c, (mech_vec3){mL * r * r, 0.5 * mL * r * r,
                                                                        0.5 * mL * r * r})};
    }
    mech_body_free_def F = {"passive", p->passive.mass,
                            mech_mat3_diag(p->passive.inertia.x, p->passive.inertia.y, p->passive.inertia.z)};
    mech_body_def def = {
        .base_mode = MECH_BODY_FLOATING,
        .base = {m_base, d0, shifted_inertia(m_base, d0, p->active.inertia)},
        .n = 5 + jo + jl, .joints = Jall, .nfree = 1, .free = &F, .gravity = {0, 0, 0},
        .hook_body = DOCK_B_HOUSING + jo,
    };
    rc = mech_body_model_new(&def, &m->bm, err);
    if (rc == HY_OK)
        rc = dock_geom_contacts(p, &m->g, m->set, err);
    if (rc == HY_OK && p->process.enabled) {
        /* the process's fixed points: the pusher rods and the limiter pads' contact points (dock_proc.c) */
        const mech_dock_pusher_params *ph = &p->process.pushers;
        for (int i = 0; i < ph->n && i < MECH_DOCK_PUSHER_MAX; i++)
            m->rod_base[i] = mech_dock_pusher_base(ph, i);   /* the pushers' evaluation uses these (no sincos per call) */
        m->cone_tan = tan(m->set[DOCK_SET_CONE]->pair[0].shape_b.half_angle);
        int npad = g->limiter_pads < 8 ? g->limiter_pads : 8;
        for (int k = 0; k < npad; k++)
            for (int i = 0; i < DOCK_PAD_PTS; i++) {
                double az = 2 * M_PI * k / npad + g->limiter_pad_half * (2.0 * i / (DOCK_PAD_PTS - 1) - 1) * 0.8;
                double r = g->limiter_r0 - DOCK_PAD_SPHERE;   /* the sphere's surface on the pad's edge */
                m->pad_pt[k * DOCK_PAD_PTS + i] = (mech_vec3){g->limiter_x0, r * cos(az), r * sin(az)};
            }
    }
    if (rc == HY_OK && p->process.enabled && p->process.cam_on) {
        /* the alignment cam's table, with the cone placement its path check needs (docs/dock-process.md §3) */
        mech_dock_cam_params cp = p->process.cam;
        cp.i_nut = m->i_nut;
        cp.head_x0 = g->housing_length + g->probe_length;
        cp.head_cone_x = m->g.stop_x;
        cp.rim_radius = g->rim_radius;
        cp.rim_x = g->rim_x;
        cp.half_angle = g->half_angle;
        cp.throat_radius = g->rim_radius - m->g.cone_depth * tan(g->half_angle);
        if (!(m->cam = malloc(sizeof *m->cam)))
            rc = hy_err_set(err, HY_ENOMEM, "dock model: out of memory");
        else
            rc = mech_dock_cam_build(&cp, m->cam, err);
    }
    if (rc) {
        mech_dock_model_free(m);
        return rc;
    }
    /* passive vehicle: its frame has the cone frame's axes; its CoM sits -port from the cone-frame origin */
    m->passive_com = mech_vec3_neg(p->passive.port);
    *out = m;
    return HY_OK;
}

void mech_dock_model_free(mech_dock_model *m)
{
    if (!m)
        return;
    mech_body_model_free(m->bm);
    for (int k = 0; k < DOCK_NSET; k++)
        mech_contact_model_free(m->set[k]);
    free(m->cam);
    free(m);
}

const mech_dock_params *mech_dock_model_params(const mech_dock_model *m) { return &m->p; }

/* The loads of the whole docking process on the body tree (issue 18; docs/dock-process.md §8): the separation
 * pushers, the docking-plane contact and the structural hooks (issue 44, §9) between the two docking planes, and the
 * alignment levers' rollers against the receiving cone. Called by the simulation's dock_evaluate (dock_eval.c) at
 * every stage when params.process.enabled; stateless apart from the hooks (their trial state is the hooks module's)
 * (the pushers are elastic, the plane and roller contacts are spring-dampers), so trial/commit/revert has nothing
 * else to keep here: the drive, the sequencer and the hooks, which have state, are driven by the simulation
 * (dock_eval.c, dock_step.c, dock_account.c).
 *
 * Frames: the active-plane frame has the base's axes (x0 towards the passive vehicle) and its origin at the
 * active docking plane's centre, uj_behind_plane ahead of the UJ; the passive plane is the cone frame's x = 0 plane,
 * normal +x of the cone frame (towards the active vehicle). */
#include <math.h>
#include <string.h>
#include "contact/contact_internal.h"
#include "dock/dock_internal.h"
#include "mech/dock_rollguide.h"

#define ROLLER_V_EPS 1e-3   /* m/s: the wall contacts' Coulomb friction is viscous below this sliding speed */
#define PAD_ZETA 0.3        /* damping of the pad-wall contact: this fraction of critical on PAD_MASS          */
#define PAD_MASS 20.0       /* kg: the housing's transverse inertia at the limiter (3 kg m^2 / 0.4^2)          */
#define TILT_MAX 0.5        /* sin of the largest tilt between the housing and the cone (or the two docking planes)
                               the cheap bounds below allow for: 30 deg, beyond any swing the UJ stops permit     */
#define BOUND_MARGIN 0.01   /* m: slack of the bounds                                                        */

/* (cone pose, world point) => the point's axial coordinate in the cone shape's frame (x = 0 at the rim plane,
   negative inside) and its distance from the cone axis; q (may be NULL) its local position */
static void cone_coords(const mech_contact_pose *pc, mech_vec3 pw, double *x, double *r, mech_vec3 *q_out)
{
    mech_vec3 q = contact_to_local(pc, pw);
    *x = q.x;
    *r = sqrt(q.y * q.y + q.z * q.z);   /* lengths of metres: no overflow for hypot to guard (it was 3 % of a run) */
    if (q_out)
        *q_out = q;
}

/* (local position, its x and axis distance from cone_coords) => its meridian coordinates, those
   contact_meridian_of gives (the sphere-cone solve from them: the local position and its square root once a point) */
static contact_meridian cone_meridian(mech_vec3 q, double x, double r)
{
    contact_meridian m = {x, r, {0.0, 1.0, 0.0}};
    if (r > 0.0)
        m.er = (mech_vec3){0.0, q.y / r, q.z / r};
    return m;
}

/* 1 when a sphere of radius `reach` about a point at (x, r) of the cone frame, moved axially by up to `dx`, cannot
   touch the cone's wall: its outer reach stays inside the wall's radius there by more than the margin (the wall's
   radius at x is rim_radius + x tan(alpha) for x <= 0, tan_a = tan(alpha)). A point above the rim plane has no wall. */
static int clear_of_wall(const mech_contact_shape *cone, double tan_a, double x, double r, double reach, double dx)
{
    if (x - dx > 0)
        return 1;
    return r + reach < cone->radius + (x - dx) * tan_a - BOUND_MARGIN;
}

/* The wall contacts' loads on the two bodies, summed over the points and applied once (two body calls a point, each
   with two rotations into the body frame, were 3 % of a variant C run with its 24 pad points on the wall): the
   forces in the world and their moments about each body's origin */
typedef struct wall_loads {
    int       body;   /* the pads' or the rollers' body                                                      */
    mech_vec3 f, mo;  /* on it, world: the force, N, and its moment about the body's origin, N m (the passive
                         vehicle takes -f and -(mo + (x_body - x_passive) x f), summed once in wall_apply)     */
} wall_loads;

static void wall_apply(const mech_dock_model *m, const mech_body_model *bm, mech_body_data *d, const wall_loads *w)
{
    mech_vec3 xb = d->pos[w->body], xp = d->pos[m->b.passive];
    mech_vec3 mo_p = mech_vec3_neg(mech_vec3_add(w->mo, mech_vec3_cross(mech_vec3_sub(xb, xp), w->f)));
    mech_body_apply_world_force(bm, d, w->body, xb, w->f);
    mech_body_apply_world_moment(bm, d, w->body, w->mo);
    mech_body_apply_world_force(bm, d, m->b.passive, xp, mech_vec3_neg(w->f));
    mech_body_apply_world_moment(bm, d, m->b.passive, mo_p);
}

/* The stick of a wall contact point (variant C's pads): the contact module's tangential law, an anchor on each body
   (zero stretch at the onset) and a spring kt with damping ct between them, Coulomb's limit mu N on the sum, the
   anchor dragged along at the kinetic limit while it slides (contact_set.c; the trial re-based at this state, as
   there). A: the pads' body, P: the passive vehicle; c: the committed anchor, tr: the trial written here */
typedef struct wall_stick {
    double kt, ct, mu_s, mu_k;
    const mech_contact_body *A, *P;
    const dock_pad_anchor *c;
    dock_pad_anchor *tr;
} wall_stick;

/* A point contact of a body's (the pads: housing or movable limiter; the rollers: housing) with the cone wall: the
   spring-damper k depth - c vn (>= 0) with Coulomb friction mu, regularised (viscous below the sliding speed v_eps)
   or, with st, the anchored stick of wall_stick; on the body and (opposite) on the passive vehicle at the contact
   point, summed into w; its power and elastic energy (the stick spring's too) booked in e. va: the housing-side
   material velocity of the point. Returns the force on the housing. */
static mech_vec3 wall_contact(const mech_body_data *d, wall_loads *w, const mech_contact_body *P,
                              const mech_contact_geom *g, mech_vec3 va, double k, double c, double mu, double v_eps,
                              const wall_stick *st, dock_proc_eval *e)
{
    mech_vec3 vb = mech_vec3_add(P->vel, mech_vec3_cross(P->omega, mech_vec3_sub(g->point, P->pos)));
    /* the relative velocity, normal and tangential: the contact module's inline helper (the exported
       mech_contact_relvel returned its struct through memory, a third of this function per pad point) */
    mech_contact_vel rv = contact_relvel(g, va, vb);
    double fn = fmax(0.0, k * g->depth - c * rv.vn);
    mech_vec3 f = mech_vec3_scale(g->normal, fn);
    if (st) {
        const mech_vec3 n = g->normal;
        mech_vec3 u = mech_vec3_zero();
        if (st->c->touching) {
            mech_vec3 wv = mech_vec3_sub(contact_body_to_world(st->A, st->c->a),
                                         contact_body_to_world(st->P, st->c->b));
            u = mech_vec3_axpy(wv, -mech_vec3_dot(wv, n), n);
        }
        mech_vec3 ft, z;
        st->tr->sliding = contact_anchored_friction(u, rv.vt, st->kt, st->ct,
                                                    st->c->touching && st->c->sliding ? st->mu_k : st->mu_s, st->mu_k,
                                                    fn, &ft, &z);
        f = mech_vec3_add(f, ft);
        st->tr->touching = 1;
        st->tr->a = contact_body_to_local(st->A, g->point);
        st->tr->b = contact_body_to_local(st->P, mech_vec3_sub(g->point, z));
        e->e_contact += 0.5 * st->kt * mech_vec3_dot(z, z);
    } else {
        double vt = mech_vec3_norm(rv.vt);
        if (mu > 0 && vt > 0)
            f = mech_vec3_axpy(f, -mu * fn / fmax(vt, v_eps), rv.vt);
    }
    w->f = mech_vec3_add(w->f, f);
    w->mo = mech_vec3_add(w->mo, mech_vec3_cross(mech_vec3_sub(g->point, d->pos[w->body]), f));
    e->p_contact -= mech_vec3_dot(f, mech_vec3_sub(va, vb));
    e->e_contact += 0.5 * k * g->depth * g->depth;
    e->k_touch = fmax(e->k_touch, k);
    return f;
}

/* One owner for the rim corner (docs/dock-process.md §8.5, "the pads at the rim corner"). A pad point's sphere (the
   5 mm rounding of the pad's larger-base edge) bears on the cone wall, and on the rim edge as on the wall: the
   sphere-cone solve's edge depth and normal join the wall's continuously where the centre crosses the wall normal
   through the rim, so the force does not switch off there (it did: RP-2 S3x-400-C-short switched 10 515 times in
   0.09 s). The rim circle is also the capture-phase set DOCK_SET_LIMITER's, which sees it inside the pad's solid
   frustum (wall, ends, sides). A rim across the pad's solid near its larger base is inside the solid and within a
   point's sphere at once (the sphere reaches 5 mm in front of the base plane and bulges past the 32 deg wall), and
   the point's nearest feature of the cone is then the rim edge or the wall just below the rim: both sets would
   push on the one corner. So while the pad's frustum pair touches the rim (its depth > 0 at this stage) it owns
   the corner: the pad's points within their sphere's radius of the rim circle bear nothing; points farther down
   the wall bear as before. The throat edge (feature EDGE below mid-depth) is the socket's, never a pad's.
   (g: the point's sphere-cone geometry; x, r: its centre's axial coordinate and distance from the axis in the cone
   frame; R, D: the cone's rim radius and depth; rs: the point's sphere radius; lim: the pad's frustum pair this
   stage, NULL when the set is gated off) => 1 when the point bears (g->depth its depth, > 0 in contact) */
int dock_pad_bears(const mech_contact_geom *g, double x, double r, double R, double D, double rs,
                   const mech_contact_geom *lim)
{
    if (!isfinite(g->depth))
        return 0;
    if (g->feature == MECH_CONTACT_FEAT_EDGE && !(x > -0.5 * D))
        return 0;
    if (g->feature != MECH_CONTACT_FEAT_WALL && g->feature != MECH_CONTACT_FEAT_EDGE)
        return 0;
    return !(lim && lim->depth > 0 && x * x + (r - R) * (r - R) < rs * rs);
}

void dock_proc_loads(const mech_dock_model *m, const mech_body_model *bm, mech_body_data *d, const mech_contact_body *cb,
                     double phi, double phid, const dock_pad_anchor *pad_committed, const mech_contact_geom *lim_geom,
                     mech_dock_hooks *hk, double dt,
                     dock_proc_eval *e)
{
    const mech_dock_params *p = &m->p;
    const mech_dock_process_params *pp = &p->process;
    const mech_contact_body *P = &cb[DOCK_CB_PASSIVE];
    e->p_contact = e->e_contact = e->f_nut = 0;
    e->f_plane = e->f_pad = e->k_touch = e->pad_f_net = e->pad_m_uj = 0;
    e->n_plane = e->n_roller = e->n_pad = 0;
    e->gap = INFINITY;

    /* ---- the two docking planes: pushers and plane contact at the rods ---- */
    mech_mat3 R0 = d->xmat[DOCK_B_BASE];
    mech_vec3 x0 = mech_mat3_col(R0, 0);
    mech_vec3 port = mech_vec3_axpy(d->pos[DOCK_B_BASE], p->geom.uj_behind_plane, x0);
    mech_vec3 Ow = mech_vec3_add(P->pos, mech_mat3_apply(P->rot, m->g.cone_origin));
    mech_vec3 nw = mech_mat3_col(P->rot, 0);
    mech_vec3 wA = d->xomega[DOCK_B_BASE];
    mech_vec3 vA_O = mech_vec3_add(d->xvel[DOCK_B_BASE], mech_vec3_cross(wA, mech_vec3_sub(Ow, d->pos[DOCK_B_BASE])));
    mech_vec3 vP_O = mech_vec3_add(P->vel, mech_vec3_cross(P->omega, mech_vec3_sub(Ow, P->pos)));
    mech_vec3 o = mech_mat3_tapply(R0, mech_vec3_sub(Ow, port)), n = mech_mat3_tapply(R0, nw);
    mech_vec3 v_o = mech_mat3_tapply(R0, mech_vec3_sub(vP_O, vA_O)), om = mech_mat3_tapply(R0, mech_vec3_sub(P->omega, wA));
    /* the plane gap on the docking axis (active-plane centre to the passive plane) */
    e->gap = -mech_vec3_dot(n, o);
    e->gap_rods = -INFINITY;
    mech_vec3 F = {0, 0, 0}, M = {0, 0, 0};   /* on the passive vehicle, active-plane frame, about the origin */
    const mech_dock_pusher_params *ph = &pp->pushers;
    /* far apart (a gap larger than the stroke plus what a tilt of the planes can close at the rods): nothing
       touches; the rods' gaps are the axis gap (their event functions only need the side) */
    int far = e->gap > ph->stroke + TILT_MAX * ph->radius + BOUND_MARGIN;
    if (far) {
        for (int i = 0; i < ph->n && i < MECH_DOCK_PUSHER_MAX; i++)
            e->rod_gap[i] = e->gap;
        e->gap_rods = e->gap;
    }
    if (pp->pushers_on && !far) {   /* (the evaluations clear their outputs themselves: no memset twice) */
        mech_dock_pusher_eval_at(ph, m->rod_base, o, n, v_o, om, &e->push);
        F = e->push.force, M = e->push.moment;
        e->e_contact += e->push.energy;
    } else
        memset(&e->push, 0, sizeof e->push);
    for (int i = 0; !far && i < ph->n && i < MECH_DOCK_PUSHER_MAX; i++) {
        e->rod_gap[i] = INFINITY;
        if (!(n.x < 0)) {
            e->gap_rods = INFINITY;   /* the planes do not face each other */
            continue;
        }
        mech_vec3 base = m->rod_base[i];
        double g = mech_vec3_dot(n, mech_vec3_sub(o, base)) / n.x;
        e->rod_gap[i] = g;
        e->gap_rods = fmax(e->gap_rods, g);
        if (g >= 0)
            continue;
        mech_vec3 tip = mech_vec3_axpy(base, g, mech_vec3_unit(0));
        mech_vec3 vc = mech_vec3_add(v_o, mech_vec3_cross(om, mech_vec3_sub(tip, o)));
        double pen = -g, pen_rate = -mech_vec3_dot(n, vc) / n.x;
        double fn = fmax(0.0, pp->plane_stiffness * pen + pp->plane_damping * pen_rate);
        mech_vec3 fp = mech_vec3_scale(n, -fn);  /* pushes the passive plane away from the active one (n points
                                                    towards the active vehicle) */
        F = mech_vec3_add(F, fp);
        M = mech_vec3_add(M, mech_vec3_cross(tip, fp));
        e->f_plane += fn;
        e->n_plane++;
        e->k_touch = fmax(e->k_touch, pp->plane_stiffness);
        e->e_contact += 0.5 * pp->plane_stiffness * pen * pen;
    }
    /* the roll guides on the collars (dock_rollguide.c; none in RP-1): their pins in their sockets' faces, from a
       gap of their length (plus what a tilt can close at their radius) on */
    const mech_dock_rollguide_params *rgp = &pp->roll_guides;
    if (rgp->n > 0 && e->gap <= rgp->length + TILT_MAX * rgp->radius + BOUND_MARGIN) {
        mech_dock_rollguide_eval(rgp, o, mech_mat3_tmul(R0, P->rot), v_o, om, &e->rg);
        if (e->rg.n_touch > 0) {
            F = mech_vec3_add(F, e->rg.f);
            M = mech_vec3_add(M, e->rg.m);
            e->e_contact += e->rg.energy;
            e->k_touch = fmax(e->k_touch, rgp->stiffness);
        }
    } else
        memset(&e->rg, 0, sizeof e->rg);
    /* the structural hooks (dock_hooks.c): their gaps at every stage (the sequencer starts the hook drive when
       every link is in range), loads from the engaged links; their drive's power is an input, added here so that
       the contact quadrature less the elastic energy stays the dissipation (docs/dock-process.md §9) */
    mech_dock_hooks_trial(hk, dt, o, mech_mat3_tmul(R0, P->rot), v_o, om, &e->hk);
    if (e->hk.n_taut > 0) {
        F = mech_vec3_add(F, e->hk.force);
        M = mech_vec3_add(M, e->hk.moment);
        e->e_contact += e->hk.energy;
        e->p_contact += e->hk.p_drive;
    }
    /* power taken from the bodies by these forces: the passive vehicle's point at the origin moves at
       v_o - om x o relative to the active one */
    e->p_contact -= mech_vec3_dot(F, mech_vec3_sub(v_o, mech_vec3_cross(om, o))) + mech_vec3_dot(M, om);
    if (F.x != 0 || F.y != 0 || F.z != 0 || M.x != 0 || M.y != 0 || M.z != 0) {
        mech_vec3 Fw = mech_mat3_apply(R0, F), Mw = mech_mat3_apply(R0, M);
        mech_body_apply_world_force(bm, d, m->b.passive, port, Fw);
        mech_body_apply_world_moment(bm, d, m->b.passive, Mw);
        mech_body_apply_world_force(bm, d, DOCK_B_BASE, port, mech_vec3_neg(Fw));
        mech_body_apply_world_moment(bm, d, DOCK_B_BASE, mech_vec3_neg(Mw));
    }
    e->f_pusher = mech_vec3_norm(e->push.force);

    /* ---- the limiter's pads against the cone wall (A, B: on the housing; C: on the movable limiter): the capture-phase contact set has the pads on the
       rim circle only; during retraction the limiter goes below the rim and bears on the wall (spec 001 §1.4, the
       docked clearance 1.3-1.7 cm). Each pad's larger-base arc (its edge nearest the wall: the limiter's generatrix,
       32 deg, is steeper than the cone's 30) as DOCK_PAD_PTS points; the wall, and the rim edge where the capture-phase
       set's pair of the pad does not touch the rim (dock_pad_bears), a spring-damper with the limiter_rim law's
       stiffness and friction ---- */
    const mech_contact_pair *cone = &m->set[DOCK_SET_CONE]->pair[0];
    mech_contact_pose pc = mech_contact_pose_compose(mech_contact_pose_make(P->pos, P->rot), cone->local_b);
    const mech_contact_body *H = &cb[DOCK_CB_HOUSING];   /* the pads' body: the housing, or the limiter (C) */
    const mech_dock_geometry *gm = &p->geom;
    const mech_contact_law *ll = &p->contact.limiter_rim;
    mech_contact_shape pad = mech_contact_sphere(DOCK_PAD_SPHERE);
    int npad = gm->limiter_pads < 8 ? gm->limiter_pads : 8;
    /* A, B: every point the law's stiffness, damped on the housing's inertia at the limiter. C: the movable
       limiter is 3 kg: a pad (its DOCK_PAD_PTS points together) has the law's stiffness, and the damping is
       PAD_ZETA of critical on the limiter's mass shared by all points, so the ring on the wall is a 400 Hz mode
       rather than a 1.3 kHz one with a 0.1 ms damping time */
    int movable = p->limiter_movable;
    double k_pad = movable ? ll->k / DOCK_PAD_PTS : ll->k;
    double c_pad = movable ? 2 * PAD_ZETA * sqrt(k_pad * p->limiter.mass / fmax(1.0, npad * DOCK_PAD_PTS))
                           : 2 * PAD_ZETA * sqrt(ll->k * PAD_MASS);
    /* C: the pads' friction on the wall is the law's anchored stick, its spring kt shared by a pad's points like k
       and damped like the normal contact (PAD_ZETA of critical on the limiter's mass; the law's light ct let the
       limiter ring on its stuck pads at ~400 Hz, and its guides, nearly unloaded in a central case, stuck and slipped
       thousands of times). The 2 cm/s viscous band it replaces was the stiffest mode on the 3 kg limiter
       (mu N / (v_eps m), ~3e3 1/s) and left the pads a fiftieth of their Coulomb force at the retraction's ~0.4 mm/s
       of sliding (docs/dock-process.md §8.5). A, B: the pads on the housing keep the rollers' regularised friction */
    double kt_pad = ll->kt / DOCK_PAD_PTS;
    wall_stick pad_st = {.kt = kt_pad, .ct = 2 * PAD_ZETA * sqrt(kt_pad * p->limiter.mass / fmax(1.0, npad * DOCK_PAD_PTS)),
                         .mu_s = ll->mu_s, .mu_k = ll->mu_k, .A = H, .P = P};
    const int anchored = movable && pad_committed && ll->kt > 0;
    double v_pad = ROLLER_V_EPS;
    /* the cheap bound: the limiter's larger base (centre, radius r0, tilted by up to TILT_MAX) inside the wall */
    double lx, lr;
    cone_coords(&pc, mech_vec3_add(H->pos, mech_vec3_scale(mech_mat3_col(H->rot, 0), gm->limiter_x0)), &lx, &lr, NULL);
    const double tan_a = m->cone_tan; /* built once: libm tan was 3 % of a 400 s run */
    int pads_clear = clear_of_wall(&cone->shape_b, tan_a, lx, lr, gm->limiter_r0, TILT_MAX * gm->limiter_r0);
    /* exactly, with the tilt as it is: every pad point is on the larger base's circle (radius limiter_r0 less the
       sphere's, about the centre above, across the pads' body's axis), so its axial coordinate in the cone frame is
       within r0 s of the centre's (s: the sine of the tilt between that axis and the cone's); a base wholly above
       the rim plane by more than the sphere's radius (1 nm for round-off) has every point cleared by
       clear_of_wall's first test. The short cone's limiter bears on the rim with its front face, its base above */
    if (!pads_clear) {
        mech_vec3 c0 = mech_mat3_col(pc.rot, 0);
        double sy = mech_vec3_dot(c0, mech_mat3_col(H->rot, 1)), sz = mech_vec3_dot(c0, mech_mat3_col(H->rot, 2));
        pads_clear = lx - gm->limiter_r0 * sqrt(sy * sy + sz * sz) - DOCK_PAD_SPHERE > 1e-9;
    }
    wall_loads wl = {.body = m->b.pads};
    for (int k = 0; k < npad; k++)
        for (int i = 0; i < DOCK_PAD_PTS; i++) {
            int id = k * DOCK_PAD_PTS + i;
            e->pad_depth[id] = -1.0;
            e->pad_trial[id].touching = 0;
            if (pads_clear)
                continue;
            mech_vec3 cw = mech_vec3_add(H->pos, mech_mat3_apply(H->rot, m->pad_pt[id]));
            /* a point that the cheap bound keeps 1 cm off the wall is apart (-1, as the limiter's bound reports its
               points): a tilted limiter has one side on the wall and the other's points clear (S3x into the short
               cone: the sphere-cone solve was 6 % of the run). The sphere reaches its radius below its centre too:
               dx = its radius, or a point just above the rim plane would be cleared while it touches the wall's top */
            double px, pr;
            mech_vec3 pq;
            cone_coords(&pc, cw, &px, &pr, &pq);
            if (clear_of_wall(&cone->shape_b, tan_a, px, pr, DOCK_PAD_SPHERE, DOCK_PAD_SPHERE))
                continue;
            const contact_meridian pm = cone_meridian(pq, px, pr);
            mech_contact_geom g;
            contact_sphere_cone_meridian(&pad, &pm, &cone->shape_b, &pc, tan_a, &g);
            if (!dock_pad_bears(&g, px, pr, cone->shape_b.radius, cone->shape_b.depth, DOCK_PAD_SPHERE,
                                lim_geom ? &lim_geom[k] : NULL)) {
                e->pad_depth[id] = -1.0;
                continue;
            }
            e->pad_depth[id] = g.depth;
            if (!(g.depth > 0))
                continue;
            mech_vec3 va = mech_vec3_add(H->vel, mech_vec3_cross(H->omega, mech_vec3_sub(g.point, H->pos)));
            if (anchored)
                pad_st.c = &pad_committed[id], pad_st.tr = &e->pad_trial[id];
            mech_vec3 f = wall_contact(d, &wl, P, &g, va, k_pad, c_pad, ll->mu_k, v_pad, anchored ? &pad_st : NULL, e);
            e->f_pad += mech_vec3_norm(f);
            e->n_pad++;
        }
    for (int id = npad * DOCK_PAD_PTS; id < DOCK_NPAD_PT; id++)
        e->pad_depth[id] = -1.0, e->pad_trial[id].touching = 0;
    if (e->n_pad > 0) {
        wall_apply(m, bm, d, &wl);
        /* spec 001 Fig. 9: the resultant's moment about the UJ centre (the housing's origin), less its part along
           the housing axis (torsion, taken by the UJ itself): what the lateral springs and brakes see */
        const int hb = m->b.housing;
        mech_vec3 mo = mech_vec3_add(wl.mo, mech_vec3_cross(mech_vec3_sub(d->pos[wl.body], d->pos[hb]), wl.f));
        mech_vec3 xh = mech_mat3_col(d->xmat[hb], 0);
        e->pad_f_net = mech_vec3_norm(wl.f);
        e->pad_m_uj = mech_vec3_norm(mech_vec3_axpy(mo, -mech_vec3_dot(mo, xh), xh));
    }

    /* ---- alignment rollers (A, B): spheres on the levers against the receiving cone ---- */
    if (!pp->cam_on || !m->cam)
        return;
    const mech_dock_cam *cam = m->cam;
    const int hb = m->b.housing;   /* the levers' pivots are on the housing */
    const mech_contact_body Hh = {d->pos[hb], d->xmat[hb], d->xvel[hb], d->xomega[hb]};
    H = &Hh;
    mech_contact_shape roller = mech_contact_sphere(pp->cam.roller_radius);
    const double dphi = 1e-6;
    wall_loads wr = {.body = hb};
    /* the cam table's lookup once for every lever (the levers differ by their azimuth only) */
    double cx, crho, cx_p = 0, crho_p = 0, cx_m = 0, crho_m = 0;
    int slope = 0;   /* the lookups at phi +- dphi, made at the first roller that touches */
    mech_dock_cam_at(cam, phi, &cx, &crho);
    for (int j = 0; j < cam->n_lever; j++) {
        e->roller_f[j] = 0;
        mech_vec3 rh = mech_dock_cam_roller_at(cam, cx, crho, j);
        mech_vec3 c = mech_vec3_add(H->pos, mech_mat3_apply(H->rot, rh));
        double rx, rr;
        mech_vec3 rq;
        cone_coords(&pc, c, &rx, &rr, &rq);
        if (clear_of_wall(&cone->shape_b, tan_a, rx, rr, pp->cam.roller_radius, pp->cam.roller_radius)) {
            e->roller_depth[j] = -1.0;
            continue;
        }
        const contact_meridian rm = cone_meridian(rq, rx, rr);
        mech_contact_geom g;
        contact_sphere_cone_meridian(&roller, &rm, &cone->shape_b, &pc, tan_a, &g);
        e->roller_depth[j] = isfinite(g.depth) ? g.depth : -1.0;
        if (!(g.depth > 0))
            continue;
        /* the roller's velocity: the housing's point plus the lever's own motion with the nut (the cam table is
           piecewise linear in the nut angle: its slope by a central difference) */
        if (!slope) {
            mech_dock_cam_at(cam, phi + dphi, &cx_p, &crho_p);
            mech_dock_cam_at(cam, phi - dphi, &cx_m, &crho_m);
            slope = 1;
        }
        mech_vec3 drh = mech_vec3_scale(mech_vec3_sub(mech_dock_cam_roller_at(cam, cx_p, crho_p, j),
                                                      mech_dock_cam_roller_at(cam, cx_m, crho_m, j)), 0.5 / dphi);
        mech_vec3 drw = mech_mat3_apply(H->rot, drh);
        mech_vec3 va = mech_vec3_axpy(mech_vec3_add(H->vel, mech_vec3_cross(H->omega, mech_vec3_sub(g.point, H->pos))),
                                      phid, drw);
        mech_vec3 f = wall_contact(d, &wr, P, &g, va, pp->roller_stiffness, pp->roller_damping, pp->roller_mu,
                                   ROLLER_V_EPS, NULL, e);
        /* through the cam the lever's load turns the nut: its virtual work f . dr/dphi dphi, as a force along the
           stroke (s = phi / i_Nut) */
        e->f_nut += mech_vec3_dot(f, drw) * m->i_nut;
        e->roller_f[j] = mech_vec3_norm(f);
        e->n_roller++;
    }
    if (e->n_roller > 0)
        wall_apply(m, bm, d, &wr);
}

/* Parameters of the probe-cone docking simulator: the RP-1 reference set (001-reference-parameters.md §2), its
 * check (every message names the key, "geometry.half_angle: ..."), and the names and units of the output
 * channels and of the hysteretic elements. Choices where RP-1 is silent are listed in docs/dock.md. */
#include <math.h>
#include <string.h>
#include <stdio.h>
#include "mech/dock.h"
#include "mech/dock_process.h"
#include "mech/dock_rollguide.h"
#include "mech/dock_hooks.h"

#define DEG (M_PI / 180.0)

/* Variant B moves the universal joint down into the base (spec 001 §5.2). RP-1 gives no number: the UJ goes
 * 0.15 m lower and the housing gets 0.15 m longer, so the probe exit, the head and the fixed limiter stay where
 * they are relative to the docking plane; only the lever arm of the limiter force about the UJ grows. */
#define DOCK_B_UJ_DROP 0.15

/* Variant C's movable limiter (spec 001 §5.3). RP-1 gives its mass, stroke, springs and larger-base radius and
 * places its forward position at the short cone's rim plane at capture; that placement and the 0.20 m stroke do
 * not close (docs/dock-process.md §6): the housing comes 0.39 m nearer between capture and closed planes, so the
 * limiter would have to give back 0.37 m. The paper's own rule decides instead: "the forward-to-end stroke must
 * exceed the docking-plane gap at full limiter-cone contact". The forward position is where the larger base
 * (r = 0.28 m) meets the short cone's wall (rim 0.30 m at 0.17 m behind the docking plane, 30 deg) at a
 * docking-plane gap of 0.9 of the stroke: 0.18 m, so 2 cm of stroke stay at closed planes. The limiter is then
 * 0.18 m short of the rim at capture and touches the cone only after capture, during the retraction. */
#define DOCK_C_CONTACT_GAP_SHARE 0.9
#define DOCK_C_LENGTH 0.08         /* larger -> smaller base, m (the fixed limiter's)                         */
#define DOCK_C_GENERATRIX 32.0     /* deg (the fixed limiter's, >= the cone's 30)                             */

static void vehicle(mech_dock_vehicle *v, const char *name, double mass, double roll, double transverse,
                    double transverse2, double port)
{
    memset(v, 0, sizeof *v);
    snprintf(v->name, sizeof v->name, "%s", name);
    v->mass = mass;
    v->inertia = (mech_vec3){roll, transverse, transverse2};
    v->port = (mech_vec3){port, 0, 0};
}

static mech_contact_law law(double k, double e, double mu)
{
    /* linear penalty (n = 1). v_min = 0.2 m/s floors the Hunt-Crossley impact speed (RP-1 is silent): the
       damping is k delta D with D = s(e) / v_impact, so a contact that starts slowly and then carries a large
       quasi-static load (the head pressed on the bore by the lateral springs in S5: 1.8 kN, the latches on the
       stops) gets a damping of several times critical, far beyond what an explicit step resolves on the 5-9 kg
       probe. Measured (docs/dock.md): S5 A energy residual 83 J of 639 J at h = 0.2 ms with v_min = 0.05 m/s,
       2.5e-4 J with 0.2 m/s; impacts slower than 0.2 m/s rebound a little livelier than e (within RP-1's sweep).
       Stick spring kt = k / 2 with light damping. */
    return (mech_contact_law){.k = k, .n = 1, .e = e, .v_min = 0.2, .mu_s = mu, .mu_k = mu, .kt = 0.5 * k,
                              .ct = 200};
}

void mech_dock_params_rp1(mech_dock_params *p, int variant, int cone)
{
    memset(p, 0, sizeof *p);
    int movable = variant == MECH_DOCK_C;
    p->variant = variant == MECH_DOCK_B || movable ? MECH_DOCK_B : MECH_DOCK_A;

    /* §2.1: 20 t active module, ISS passive (port 35 m ahead of its CoM along its docking axis) */
    vehicle(&p->active, "module-20t", 20000, 6.0e4, 3.2e5, 3.2e5, 6.5);
    vehicle(&p->passive, "iss", 420000, 1.3e8, 1.0e8, 2.0e8, 35.0);

    /* §2.2 passive unit */
    mech_dock_geometry *g = &p->geom;
    g->cone = cone;
    g->rim_radius = 0.40;
    g->rim_x = 0;
    if (cone == MECH_DOCK_CONE_SHORT) {   /* node module's shortened cone: same angle and socket */
        g->rim_radius = 0.30;
        g->rim_x = -0.17;
    }
    /* MECH_DOCK_CONE_VEHICLE (type 2): RP-1 gives no separate numbers; the module cone's are used */
    g->half_angle = 30 * DEG;
    g->socket_radius = 0.050;
    g->stop_depth = 0.05;
    g->bottom_depth = 0.11;
    g->slot_entry = 15 * DEG;
    g->slot_narrow = 0.5 * DEG;
    g->detent_force = 150;
    g->detent_travel = 0.005;
    /* §2.3 active unit */
    g->uj_behind_plane = 0.05;
    g->housing_length = 0.55;
    g->probe_length = 0.55;
    g->head_radius = 0.045;
    g->latch_radius = 0.065;   /* latch tips 15 mm outside the bore wall (they must reach the stops) */
    g->limiter_r0 = 0.185;
    g->limiter_x0 = 0.40;
    g->limiter_r1 = 0.135;
    g->limiter_x1 = 0.48;
    g->limiter_pads = 4;
    g->limiter_pad_half = 30 * DEG;

    /* §2.4 mass properties: housing a 0.55 m shell (CoM at mid-length) + rotating parts; probe 6 kg tube +
       3 kg head at its end: CoM (6 * 0.275 + 3 * 0.55) / 9 from the bending joint */
    mech_dock_mass *ms = &p->mass;
    ms->housing_mass = 25;
    ms->housing_com = (mech_vec3){0.275, 0, 0};
    ms->housing_inertia = (mech_vec3){0.3, 3.0, 3.0};
    ms->probe_mass = 9;
    ms->probe_com = (mech_vec3){(6 * 0.275 + 3 * 0.55) / 9, 0, 0};
    ms->probe_inertia = (mech_vec3){0.02, 1.5, 1.5};

    if (p->variant == MECH_DOCK_B) {
        double dx = DOCK_B_UJ_DROP, c0 = ms->housing_com.x, c1 = c0 + dx;
        g->uj_behind_plane += dx;
        g->housing_length += dx;
        g->limiter_x0 += dx;
        g->limiter_x1 += dx;
        /* the same housing mass, its CoM as far ahead of the probe exit as in A: transverse inertia about the
           new UJ by the parallel-axis shift */
        ms->housing_com.x = c1;
        ms->housing_inertia.y += ms->housing_mass * (c1 * c1 - c0 * c0);
        ms->housing_inertia.z += ms->housing_mass * (c1 * c1 - c0 * c0);
    }

    mech_dock_limiter_params_rp1(&p->limiter);
    p->limiter_movable = movable;
    if (movable) {
        /* spec 001 §5.3 by its stroke rule (DOCK_C_CONTACT_GAP_SHARE above): the wall of the short cone (the one
           the mechanism is designed for; the module cone's wall is 3 mm deeper there) */
        const double rim_r = 0.30, rim_depth = 0.17, tan_a = tan(30 * DEG);
        double r0 = p->limiter.base_radius, depth = rim_depth + (rim_r - r0) / tan_a;
        g->limiter_r0 = r0;
        g->limiter_x0 = g->uj_behind_plane + DOCK_C_CONTACT_GAP_SHARE * p->limiter.stroke + depth;
        g->limiter_r1 = r0 - DOCK_C_LENGTH * tan(DOCK_C_GENERATRIX * DEG);
        g->limiter_x1 = g->limiter_x0 + DOCK_C_LENGTH;
    }

    /* §2.5, §2.6 sub-models */
    mech_dock_axial_params_rp1(&p->axial, p->variant);
    mech_dock_lateral_params_rp1(&p->lateral, p->variant);

    /* §2.7 probe compliance (model files fixtures/mech/dock/models/probe-*.json, q rad, Q N m) */
    p->probe.bending = (mech_dock_law){.model = NULL, .q_scale = 1, .Q_scale = 1, .scale = 1};
    p->probe.torsion = (mech_dock_law){.model = NULL, .q_scale = 1, .Q_scale = 1, .scale = 1};
    p->probe.tip_factor = 1.5;

    /* §2.8 contact laws */
    p->contact.head_cone = law(2e6, 0.4, 0.15);
    p->contact.head_bottom = law(5e6, 0.3, 0.1);
    p->contact.limiter_rim = law(5e6, 0.3, 0.15);

    p->h = 2.5e-4;   /* converged: docs/dock.md (S2, S5 at h and h/4) */
    p->tol = 0;      /* fixed steps unless the scenario asks for integration.tolerance (docs/dock.md §6b) */
    p->events = 1;
    p->method = MECH_DOCK_DOPRI5;   /* RK4(3) on request: the 400 s process scenarios (docs/dock.md §6b) */
    p->control = MECH_DOCK_CONTROL_STANDARD;   /* PI on request: the 400 s process scenarios (§6b) */
    p->duration = 20;
    p->capture_timeout = 10;

    /* the whole process (issue 18; docs/dock-process.md): off unless a scenario has "process" */
    mech_dock_process_params *pp = &p->process;
    pp->enabled = 0;
    pp->start = 1;   /* MECH_DOCK_SEQ_READY: the probe extended, waiting for contact */
    mech_dock_drive_params_rp1(&pp->drive);
    mech_dock_seq_params_default(&pp->seq);
    mech_dock_fault_params_default(&pp->faults);
    pp->pushers_on = 1;
    mech_dock_pusher_params_rp1(&pp->pushers);
    pp->cam_on = 0;   /* RP-1 gives no cam contour: a scenario supplies one (fixtures/mech/dock/s1-400-*.json) */
    pp->cam.n_lever = 3;
    pp->cam.roller_offset = 0.003;
    pp->retract_limit = 0.40;   /* RP-1 §2.3: probe free length 0.55 m at the ready position, 0.15 m retracted */
    pp->plane_stiffness = 2e7;
    pp->plane_damping = 1e6;   /* ~0.3 of critical on the active vehicle's rotation at a rod (3.2e5 kg m^2 / 0.45^2 m^2) */
    pp->roller_stiffness = 1e6;   /* RP-1 §2.8 */
    pp->roller_damping = 1e3;
    pp->roller_mu = 0.02;
    mech_dock_hooks_params_rp1(&pp->hooks);   /* issue 44: the structural hooks (docs/dock-process.md §9) */
    mech_dock_rollguide_params_default(&pp->roll_guides);   /* issue 44: roll guides, none in RP-1 (§9a) */

    /* the stand option (spec 001 §2.7): off in flight scenarios */
    p->stand = 0;
    mech_dock_cover_params_rp1(&p->cover);
}

const char *mech_dock_variant_name(const mech_dock_params *p)
{
    return p->variant == MECH_DOCK_A ? "A" : p->limiter_movable ? "C" : "B";
}

/* ---- check -------------------------------------------------------------------------------------------------- */

#define FAIL(key, ...) return hy_err_set(err, HY_EMODEL, key ": " __VA_ARGS__)
#define POS(x, key) do { if (!(isfinite(x) && (x) > 0)) FAIL(key, "must be a positive number (got %g)", (double)(x)); } while (0)
#define NONNEG(x, key) do { if (!(isfinite(x) && (x) >= 0)) FAIL(key, "must be >= 0 (got %g)", (double)(x)); } while (0)
#define FIN(x, key) do { if (!isfinite(x)) FAIL(key, "must be a finite number (got %g)", (double)(x)); } while (0)

static int check_vehicle(const mech_dock_vehicle *v, const char *key, hy_err *err)
{
    /* upper bounds far above any spacecraft (the ISS: 4.2e5 kg, 1e8 kg m^2) keep the dynamics finite: 1e308 kg would
       reach the body model as "inertia is not finite", naming no key */
    if (!(isfinite(v->mass) && v->mass > 0 && v->mass <= 1e9))
        return hy_err_set(err, HY_EMODEL, "%s.mass: %g kg is outside the valid range (0, 1e9] kg", key, v->mass);
    const double I[3] = {v->inertia.x, v->inertia.y, v->inertia.z};
    for (int i = 0; i < 3; i++)
        if (!(isfinite(I[i]) && I[i] > 0 && I[i] <= 1e15))
            return hy_err_set(err, HY_EMODEL, "%s.inertia[%d]: %g kg m^2 is outside the valid range (0, 1e15] kg m^2",
                              key, i, I[i]);
    if (I[0] > I[1] + I[2] || I[1] > I[0] + I[2] || I[2] > I[0] + I[1])
        return hy_err_set(err, HY_EMODEL, "%s.inertia: principal moments %g, %g, %g break the triangle inequality",
                          key, I[0], I[1], I[2]);
    if (!(isfinite(v->port.x) && isfinite(v->port.y) && isfinite(v->port.z)))
        return hy_err_set(err, HY_EMODEL, "%s.port: must be finite", key);
    return HY_OK;
}

static int check_law(const mech_contact_law *l, const char *key, hy_err *err)
{
    if (!(isfinite(l->k) && l->k > 0))
        return hy_err_set(err, HY_EMODEL, "%s.k: must be a positive number (got %g)", key, l->k);
    if (!(isfinite(l->n) && l->n >= 1))
        return hy_err_set(err, HY_EMODEL, "%s.n: must be >= 1 (got %g)", key, l->n);
    if (!(isfinite(l->e) && l->e > 0 && l->e <= 1))
        return hy_err_set(err, HY_EMODEL, "%s.e: restitution must be in (0, 1] (got %g)", key, l->e);
    if (!(isfinite(l->v_min) && l->v_min > 0))
        return hy_err_set(err, HY_EMODEL, "%s.v_min: must be a positive number (got %g)", key, l->v_min);
    if (!(isfinite(l->mu_k) && l->mu_k >= 0))
        return hy_err_set(err, HY_EMODEL, "%s.mu_k: must be >= 0 (got %g)", key, l->mu_k);
    if (!(isfinite(l->mu_s) && l->mu_s >= l->mu_k))
        return hy_err_set(err, HY_EMODEL, "%s.mu_s: must be >= mu_k (got %g < %g)", key, l->mu_s, l->mu_k);
    if (l->mu_k > 0 && !(isfinite(l->kt) && l->kt > 0))
        return hy_err_set(err, HY_EMODEL, "%s.kt: must be positive when mu_k > 0 (got %g)", key, l->kt);
    if (!(isfinite(l->ct) && l->ct >= 0))
        return hy_err_set(err, HY_EMODEL, "%s.ct: must be >= 0 (got %g)", key, l->ct);
    return HY_OK;
}

static int check_dlaw(const mech_dock_law *l, const char *key, int required, hy_err *err)
{
    if (required && !l->model)
        return hy_err_set(err, HY_EMODEL, "%s: no hysteresis model given (a hyst-model file)", key);
    if (!(isfinite(l->q_scale) && l->q_scale > 0))
        return hy_err_set(err, HY_EMODEL, "%s.q_scale: must be a positive number (got %g)", key, l->q_scale);
    if (!(isfinite(l->Q_scale) && l->Q_scale > 0))
        return hy_err_set(err, HY_EMODEL, "%s.Q_scale: must be a positive number (got %g)", key, l->Q_scale);
    if (!(isfinite(l->scale) && l->scale > 0))
        return hy_err_set(err, HY_EMODEL, "%s.scale: must be a positive number (got %g)", key, l->scale);
    return HY_OK;
}

/* variant C: the limiter's own parameters, and the geometry the process needs (spec 001 §5.3): its larger base
   inside the cone's entry, its travel in front of the UJ, and the stroke rule (the stroke exceeds the docking-plane
   gap at which the larger base meets the cone wall, else the planes cannot close) */
static int check_movable_limiter(const mech_dock_params *p, hy_err *err)
{
    int rc = mech_dock_limiter_check(&p->limiter, err);
    if (rc)
        return rc;
    if (p->variant != MECH_DOCK_B)
        FAIL("variant", "the movable limiter is built on the modified dampers (variant C = B + the limiter, spec 001 "
             "§5.3)");
    const mech_dock_geometry *g = &p->geom;
    if (!(g->limiter_r0 < g->rim_radius))
        FAIL("geometry.limiter_r0", "the movable limiter's larger base (%g m) must be smaller than the cone's entry "
             "radius geometry.rim_radius = %g m: in full contact it sits inside the cone (spec 001 §5.3)",
             g->limiter_r0, g->rim_radius);
    if (!(g->limiter_x0 - p->limiter.stroke > 0))
        FAIL("limiter.stroke", "%g m would take the limiter's larger base behind the universal joint (forward "
             "position geometry.limiter_x0 = %g m from it)", p->limiter.stroke, g->limiter_x0);
    double depth = -g->rim_x + (g->rim_radius - g->limiter_r0) / tan(g->half_angle);
    double gap = g->limiter_x0 - g->uj_behind_plane - depth;
    if (!(gap > 0))
        FAIL("geometry.limiter_x0", "the limiter's larger base at %g m from the UJ would meet the cone wall only "
             "with the docking planes %g m apart (past each other): it could never bear on the cone; move its "
             "forward position out (spec 001 §5.3)", g->limiter_x0, gap);
    if (!(p->limiter.stroke > gap))
        FAIL("limiter.stroke", "%g m does not exceed the docking-plane gap %g m at which the limiter's larger base "
             "meets the cone wall: the limiter would reach its end before the planes close (spec 001 §5.3: the "
             "forward-to-end stroke must exceed that gap)", p->limiter.stroke, gap);
    return HY_OK;
}

int mech_dock_params_check(const mech_dock_params *p, hy_err *err)
{
    int rc;
    if (p->variant != MECH_DOCK_A && p->variant != MECH_DOCK_B)
        FAIL("variant", "must be A or B (got %d)", p->variant);
    if ((rc = check_vehicle(&p->active, "active", err)) || (rc = check_vehicle(&p->passive, "passive", err)))
        return rc;

    const mech_dock_geometry *g = &p->geom;
    if (g->cone < MECH_DOCK_CONE_MODULE || g->cone > MECH_DOCK_CONE_SHORT)
        FAIL("geometry.cone", "must be module, vehicle or short (got %d)", g->cone);
    POS(g->rim_radius, "geometry.rim_radius");
    FIN(g->rim_x, "geometry.rim_x");
    if (!(isfinite(g->half_angle) && g->half_angle > 0 && g->half_angle < M_PI / 2))
        FAIL("geometry.half_angle", "must be in (0, 90) deg (got %g rad)", g->half_angle);
    POS(g->head_radius, "geometry.head_radius");
    POS(g->socket_radius, "geometry.socket_radius");
    if (g->socket_radius >= g->rim_radius)
        FAIL("geometry.socket_radius", "%g m must be below the rim radius %g m", g->socket_radius, g->rim_radius);
    if (g->head_radius >= g->socket_radius)
        FAIL("geometry.head_radius", "%g m must be below the socket radius %g m (the head enters the socket)",
             g->head_radius, g->socket_radius);
    POS(g->stop_depth, "geometry.stop_depth");
    POS(g->bottom_depth, "geometry.bottom_depth");
    if (g->bottom_depth <= g->stop_depth + g->detent_travel)
        FAIL("geometry.bottom_depth", "%g m must exceed stop_depth + detent_travel = %g m", g->bottom_depth,
             g->stop_depth + g->detent_travel);
    if (!(isfinite(g->slot_entry) && g->slot_entry > 0 && g->slot_entry < M_PI / 4))
        FAIL("geometry.slot_entry", "must be in (0, 45) deg (got %g rad)", g->slot_entry);
    if (!(isfinite(g->slot_narrow) && g->slot_narrow >= 0 && g->slot_narrow <= g->slot_entry))
        FAIL("geometry.slot_narrow", "must be in [0, slot_entry] (got %g rad)", g->slot_narrow);
    NONNEG(g->detent_force, "geometry.detent_force");
    POS(g->detent_travel, "geometry.detent_travel");
    NONNEG(g->uj_behind_plane, "geometry.uj_behind_plane");
    POS(g->housing_length, "geometry.housing_length");
    POS(g->probe_length, "geometry.probe_length");
    if (!(isfinite(g->latch_radius) && g->latch_radius > g->socket_radius))
        FAIL("geometry.latch_radius", "must exceed the socket radius %g m (got %g)", g->socket_radius,
             g->latch_radius);
    POS(g->limiter_r0, "geometry.limiter_r0");
    POS(g->limiter_r1, "geometry.limiter_r1");
    POS(g->limiter_x0, "geometry.limiter_x0");
    if (!(isfinite(g->limiter_x1) && g->limiter_x1 > g->limiter_x0))
        FAIL("geometry.limiter_x1", "must exceed limiter_x0 = %g m (got %g)", g->limiter_x0, g->limiter_x1);
    if (g->limiter_pads < 0 || g->limiter_pads > 16)
        FAIL("geometry.limiter_pads", "must be 0..16 (got %d)", g->limiter_pads);
    if (g->limiter_pads > 0 &&
        !(isfinite(g->limiter_pad_half) && g->limiter_pad_half > 0 && g->limiter_pad_half <= M_PI / g->limiter_pads))
        FAIL("geometry.limiter_pad_half", "must be in (0, 180/pads] deg (got %g rad)", g->limiter_pad_half);

    const mech_dock_mass *m = &p->mass;
    POS(m->housing_mass, "mass.housing_mass");
    POS(m->probe_mass, "mass.probe_mass");
    POS(m->housing_inertia.x, "mass.housing_inertia[0]");
    POS(m->housing_inertia.y, "mass.housing_inertia[1]");
    POS(m->housing_inertia.z, "mass.housing_inertia[2]");
    POS(m->probe_inertia.x, "mass.probe_inertia[0]");
    POS(m->probe_inertia.y, "mass.probe_inertia[1]");
    POS(m->probe_inertia.z, "mass.probe_inertia[2]");
    FIN(m->housing_com.x, "mass.housing_com");
    FIN(m->probe_com.x, "mass.probe_com");
    /* inertia about the joint must hold the CoM's parallel-axis share (triangle inequality about the CoM) */
    if (m->housing_inertia.y < m->housing_mass * m->housing_com.x * m->housing_com.x)
        FAIL("mass.housing_inertia", "transverse %g kg m^2 below m d^2 = %g of the CoM offset", m->housing_inertia.y,
             m->housing_mass * m->housing_com.x * m->housing_com.x);
    if (m->probe_inertia.y < m->probe_mass * m->probe_com.x * m->probe_com.x)
        FAIL("mass.probe_inertia", "transverse %g kg m^2 below m d^2 = %g of the CoM offset", m->probe_inertia.y,
             m->probe_mass * m->probe_com.x * m->probe_com.x);

    if ((rc = check_dlaw(&p->probe.bending, "probe.bending", 1, err)) ||
        (rc = check_dlaw(&p->probe.torsion, "probe.torsion", 1, err)))
        return rc;
    if (!(isfinite(p->probe.tip_factor) && p->probe.tip_factor > 0))
        FAIL("probe.tip_factor", "must be a positive number (got %g)", p->probe.tip_factor);

    if ((rc = check_law(&p->contact.head_cone, "contact.head_cone", err)) ||
        (rc = check_law(&p->contact.head_bottom, "contact.head_bottom", err)) ||
        (rc = check_law(&p->contact.limiter_rim, "contact.limiter_rim", err)))
        return rc;

    /* axial damper: what the core relies on (the sub-model checks the rest in mech_dock_axial_new) */
    if (p->axial.variant != p->variant)
        FAIL("axial.variant", "%d differs from the mechanism variant %d", p->axial.variant, p->variant);
    POS(p->axial.lead, "axial.lead");
    POS(p->axial.m_eq, "axial.m_eq");
    POS(p->axial.stroke_limit, "axial.stroke_limit");
    if (p->axial.stroke_limit >= g->probe_length)
        FAIL("axial.stroke_limit", "%g m must be below the probe length %g m", p->axial.stroke_limit, g->probe_length);
    if ((rc = check_dlaw(p->variant == MECH_DOCK_A ? &p->axial.chain : &p->axial.gear,
                         p->variant == MECH_DOCK_A ? "axial.chain" : "axial.gear", 1, err)) ||
        (rc = check_dlaw(&p->lateral.spring, "lateral.spring", 1, err)))
        return rc;

    if (p->limiter_movable && (rc = check_movable_limiter(p, err)))
        return rc;

    const mech_dock_initial *in = &p->init;
    NONNEG(in->closing_speed, "initial.closing_speed");
    if (in->closing_speed > 10)   /* docking closes at cm/s to dm/s; beyond, the cone's contact model has no meaning */
        FAIL("initial.closing_speed", "%g m/s is outside the valid range [0, 10] m/s", in->closing_speed);
    FIN(in->offset.y, "initial.offset[1]");
    FIN(in->offset.z, "initial.offset[2]");
    FIN(in->velocity.y, "initial.velocity[1]");
    FIN(in->velocity.z, "initial.velocity[2]");
    FIN(in->angles.x, "initial.angles[0]");
    FIN(in->angles.y, "initial.angles[1]");
    FIN(in->angles.z, "initial.angles[2]");
    FIN(in->rates.x, "initial.rates[0]");
    FIN(in->rates.y, "initial.rates[1]");
    FIN(in->rates.z, "initial.rates[2]");
    if (fabs(in->angles.y) >= M_PI / 4 || fabs(in->angles.z) >= M_PI / 4)
        FAIL("initial.angles", "pitch and yaw must stay below 45 deg");
    if (hypot(in->offset.y, in->offset.z) >= g->rim_radius)
        FAIL("initial.offset", "lateral miss %g m is outside the cone rim (radius %g m)",
             hypot(in->offset.y, in->offset.z), g->rim_radius);
    NONNEG(in->gap, "initial.gap");
    FIN(p->thrust.force, "thrust.force");
    NONNEG(p->thrust.duration, "thrust.duration");

    POS(p->h, "step");   /* the scenario's keys (docs/dock-scenarios.md): step, duration */
    if (p->h > 0.01)
        FAIL("step", "%g s is too large for the contact periods (13-20 ms); valid range (0, 0.01] s", p->h);
    POS(p->duration, "duration");
    if (p->duration / p->h > 1e9)
        FAIL("duration", "%g s at step %g s needs more than 1e9 steps", p->duration, p->h);
    POS(p->capture_timeout, "capture_timeout");
    if (!(p->tol == 0 || (p->tol >= 1e-10 && p->tol <= 1e-2)))
        FAIL("integration.tolerance", "%g: valid values 0 (fixed steps) or 1e-10 .. 1e-2", p->tol);
    if (p->method != MECH_DOCK_RK43 && p->method != MECH_DOCK_DOPRI5)
        FAIL("integration.method", "%d: valid values MECH_DOCK_RK43 or MECH_DOCK_DOPRI5", p->method);
    if (p->control != MECH_DOCK_CONTROL_STANDARD && p->control != MECH_DOCK_CONTROL_PI)
        FAIL("integration.control", "%d: valid values MECH_DOCK_CONTROL_STANDARD or MECH_DOCK_CONTROL_PI",
             p->control);
    if (p->stand) {
        POS(p->cover.k, "stand.k");
        NONNEG(p->cover.c, "stand.c");
        double mm = p->mass.housing_mass + p->mass.probe_mass;
        if (!(isfinite(p->cover.m_dm) && p->cover.m_dm > mm))
            FAIL("stand.m_dm", "%g kg must exceed the housing and the probe (%g kg): the cover carries the whole "
                 "mechanism", p->cover.m_dm, mm);
    }
    const mech_dock_process_params *pp = &p->process;
    if (pp->enabled) {
        if (pp->start != MECH_DOCK_SEQ_READY && pp->start != MECH_DOCK_SEQ_EXTEND)
            FAIL("process.start", "must be \"ready\" or \"extend\" (got %d)", pp->start);
        if ((rc = mech_dock_drive_check(&pp->drive, err)) || (rc = mech_dock_seq_check(&pp->seq, err)) ||
            (rc = mech_dock_fault_check(&pp->faults, err)))
            return rc;
        if (pp->pushers_on && (rc = mech_dock_pusher_check(&pp->pushers, err)))
            return rc;
        if ((rc = mech_dock_hooks_check(&pp->hooks, err)))
            return rc;
        if ((rc = mech_dock_rollguide_check(&pp->roll_guides, err)))
            return rc;
        if (!(pp->seq.gap_closed <= pp->hooks.capture_range))
            FAIL("sequencer.gap_closed", "%g m exceeds hooks.capture_range = %g m: the hook drive would start with "
                 "links out of reach", pp->seq.gap_closed, pp->hooks.capture_range);
        POS(pp->retract_limit, "process.retract_limit");
        if (!(pp->retract_limit < p->geom.probe_length))
            FAIL("process.retract_limit", "%g m must be below geometry.probe_length = %g m (the head stays outside "
                 "the housing)", pp->retract_limit, p->geom.probe_length);
        POS(pp->plane_stiffness, "process.plane_stiffness");
        NONNEG(pp->plane_damping, "process.plane_damping");
        POS(pp->roller_stiffness, "process.roller_stiffness");
        NONNEG(pp->roller_damping, "process.roller_damping");
        NONNEG(pp->roller_mu, "process.roller_mu");
        /* the drive must be able to pull the probe in against the brake that caps the retraction force: below
           that level the motors stall before the brake slips (spec 001 §5.2: FrT2 protects the drive) */
        if (p->limiter_movable && pp->cam_on)
            FAIL("cam", "variant C has no alignment levers: the movable limiter replaces the cam and levers (spec 001 "
                 "§5.3)");
        double cap = p->axial.variant == MECH_DOCK_B ? p->axial.frt2_pull : 0;
        if (cap > 0 && !(pp->drive.force_max > cap))
            FAIL("drive.force_max", "%g N does not exceed FrT2's pull-out level axial.frt2_pull = %g N: the motors "
                 "would stall before the brake protects them", pp->drive.force_max, cap);
    }
    return HY_OK;
}

/* ---- channel table ---------------------------------------------------------------------------------------- */

static const struct { const char *name, *unit; } channels[MECH_DOCK_NCH] = {
    [MECH_DOCK_CH_T] = {"t", "s"},
    [MECH_DOCK_CH_HEAD_FX] = {"head_fx", "N"},
    [MECH_DOCK_CH_HEAD_FY] = {"head_fy", "N"},
    [MECH_DOCK_CH_HEAD_FZ] = {"head_fz", "N"},
    [MECH_DOCK_CH_HEAD_AXIAL] = {"head_axial", "N"},
    [MECH_DOCK_CH_HEAD_LATERAL] = {"head_lateral", "N"},
    [MECH_DOCK_CH_LIMITER_F] = {"limiter_f", "N"},
    [MECH_DOCK_CH_BASE_FX] = {"base_fx", "N"},
    [MECH_DOCK_CH_BASE_FY] = {"base_fy", "N"},
    [MECH_DOCK_CH_BASE_FZ] = {"base_fz", "N"},
    [MECH_DOCK_CH_BASE_MX] = {"base_mx", "N m"},
    [MECH_DOCK_CH_BASE_MY] = {"base_my", "N m"},
    [MECH_DOCK_CH_BASE_MZ] = {"base_mz", "N m"},
    [MECH_DOCK_CH_PASSIVE_FX] = {"passive_fx", "N"},
    [MECH_DOCK_CH_PASSIVE_FY] = {"passive_fy", "N"},
    [MECH_DOCK_CH_PASSIVE_FZ] = {"passive_fz", "N"},
    [MECH_DOCK_CH_PASSIVE_MX] = {"passive_mx", "N m"},
    [MECH_DOCK_CH_PASSIVE_MY] = {"passive_my", "N m"},
    [MECH_DOCK_CH_PASSIVE_MZ] = {"passive_mz", "N m"},
    [MECH_DOCK_CH_Q1] = {"q1", "rad"},
    [MECH_DOCK_CH_Q2] = {"q2", "rad"},
    [MECH_DOCK_CH_Q3] = {"q3", "rad"},
    [MECH_DOCK_CH_Q4] = {"q4", "rad"},
    [MECH_DOCK_CH_Q5] = {"q5", "rad"},
    [MECH_DOCK_CH_SWING] = {"swing", "rad"},
    [MECH_DOCK_CH_STROKE] = {"stroke", "m"},
    [MECH_DOCK_CH_STROKE_RATE] = {"stroke_rate", "m/s"},
    [MECH_DOCK_CH_NUT] = {"nut", "rad"},
    [MECH_DOCK_CH_SLIP1] = {"slip1", "m"},
    [MECH_DOCK_CH_SLIP2] = {"slip2", "m"},
    [MECH_DOCK_CH_AXIAL_F] = {"axial_f", "N"},
    [MECH_DOCK_CH_CHAIN1_S] = {"chain1_s", "m"},
    [MECH_DOCK_CH_CHAIN2_S] = {"chain2_s", "m"},
    [MECH_DOCK_CH_CHAIN3_S] = {"chain3_s", "rad"},
    [MECH_DOCK_CH_CHAIN4_S] = {"chain4_s", "rad"},
    [MECH_DOCK_CH_CHAIN1_F] = {"chain1_f", "N"},
    [MECH_DOCK_CH_CHAIN2_F] = {"chain2_f", "N"},
    [MECH_DOCK_CH_CHAIN3_F] = {"chain3_f", "N m"},
    [MECH_DOCK_CH_CHAIN4_F] = {"chain4_f", "N m"},
    [MECH_DOCK_CH_REL_X] = {"rel_x", "m"},
    [MECH_DOCK_CH_REL_Y] = {"rel_y", "m"},
    [MECH_DOCK_CH_REL_Z] = {"rel_z", "m"},
    [MECH_DOCK_CH_REL_ROLL] = {"rel_roll", "rad"},
    [MECH_DOCK_CH_REL_PITCH] = {"rel_pitch", "rad"},
    [MECH_DOCK_CH_REL_YAW] = {"rel_yaw", "rad"},
    [MECH_DOCK_CH_REL_VX] = {"rel_vx", "m/s"},
    [MECH_DOCK_CH_HEAD_X] = {"head_x", "m"},
    [MECH_DOCK_CH_CONE_CONTACT] = {"cone_contact", "1"},
    [MECH_DOCK_CH_SOCKET_CONTACT] = {"socket_contact", "1"},
    [MECH_DOCK_CH_BOTTOM_CONTACT] = {"bottom_contact", "1"},
    [MECH_DOCK_CH_LATCH_CONTACT] = {"latch_contact", "1"},
    [MECH_DOCK_CH_LIMITER_CONTACT] = {"limiter_contact", "1"},
    [MECH_DOCK_CH_CAPTURE] = {"capture", "1"},
    [MECH_DOCK_CH_E_KIN_VEHICLES] = {"e_kin_vehicles", "J"},
    [MECH_DOCK_CH_E_KIN_MECH] = {"e_kin_mech", "J"},
    [MECH_DOCK_CH_E_CONTACT] = {"e_contact", "J"},
    [MECH_DOCK_CH_E_HYST] = {"e_hyst", "J"},
    [MECH_DOCK_CH_E_STOPS] = {"e_stops", "J"},
    [MECH_DOCK_CH_E_BRAKES] = {"e_brakes", "J"},
    [MECH_DOCK_CH_E_MAGNETIC] = {"e_magnetic", "J"},
    [MECH_DOCK_CH_E_DAMPING] = {"e_damping", "J"},
    [MECH_DOCK_CH_E_CONTACT_DISS] = {"e_contact_diss", "J"},
    [MECH_DOCK_CH_E_RESIDUAL] = {"e_residual", "J"},
    [MECH_DOCK_CH_DRIVE_U] = {"drive_u", "m"},
    [MECH_DOCK_CH_DRIVE_F] = {"drive_f", "N"},
    [MECH_DOCK_CH_DRIVE_CMD] = {"drive_cmd", "1"},
    [MECH_DOCK_CH_SEQ_STATE] = {"seq_state", "1"},
    [MECH_DOCK_CH_PLANE_GAP] = {"plane_gap", "m"},
    [MECH_DOCK_CH_PUSHER_F] = {"pusher_f", "N"},
    [MECH_DOCK_CH_PUSHER_N] = {"pusher_n", "1"},
    [MECH_DOCK_CH_PLANE_F] = {"plane_f", "N"},
    [MECH_DOCK_CH_ROLLER_F1] = {"roller_f1", "N"},
    [MECH_DOCK_CH_ROLLER_F2] = {"roller_f2", "N"},
    [MECH_DOCK_CH_ROLLER_F3] = {"roller_f3", "N"},
    [MECH_DOCK_CH_ROLLER_N] = {"roller_n", "1"},
    [MECH_DOCK_CH_PAD_F] = {"pad_wall_f", "N"},
    [MECH_DOCK_CH_COVER_X] = {"x_cover", "m"},
    [MECH_DOCK_CH_E_DRIVE] = {"e_drive", "J"},
    [MECH_DOCK_CH_E_DRIVE_STORED] = {"e_drive_stored", "J"},
    [MECH_DOCK_CH_LIMITER_X] = {"limiter_x", "m"},
    [MECH_DOCK_CH_LIMITER_GUIDE_F] = {"limiter_guide_f", "N"},
    [MECH_DOCK_CH_REL_TILT] = {"rel_tilt", "rad"},
    [MECH_DOCK_CH_ROD_GAP1] = {"rod_gap1", "m"},
    [MECH_DOCK_CH_ROD_GAP2] = {"rod_gap2", "m"},
    [MECH_DOCK_CH_ROD_GAP3] = {"rod_gap3", "m"},
    [MECH_DOCK_CH_ROD_GAP4] = {"rod_gap4", "m"},
    [MECH_DOCK_CH_ROD_GAP_MAX] = {"rod_gap_max", "m"},
    [MECH_DOCK_CH_DRIVE_X] = {"drive_x", "m"},
    [MECH_DOCK_CH_DRIVE_V] = {"drive_v", "m/s"},
    [MECH_DOCK_CH_DRIVE_MOTORS] = {"drive_motors", ""},
    [MECH_DOCK_CH_DRIVE_LIMIT] = {"drive_limit", ""},
    [MECH_DOCK_CH_FAULT] = {"fault", ""},
    [MECH_DOCK_CH_HOOK_F1] = {"hook_f1", "N"},
    [MECH_DOCK_CH_HOOK_F2] = {"hook_f2", "N"},
    [MECH_DOCK_CH_HOOK_F3] = {"hook_f3", "N"},
    [MECH_DOCK_CH_HOOK_F4] = {"hook_f4", "N"},
    [MECH_DOCK_CH_HOOKS_LOCKED] = {"hooks_locked", "1"},
    [MECH_DOCK_CH_HOOK_JAW] = {"hook_jaw", "m"},
    [MECH_DOCK_CH_DOCKED_UNMET] = {"docked_unmet", "1"},
};

const char *mech_dock_channel_name(int ch)
{
    return ch >= 0 && ch < MECH_DOCK_NCH ? channels[ch].name : NULL;
}

const char *mech_dock_channel_unit(int ch)
{
    return ch >= 0 && ch < MECH_DOCK_NCH ? channels[ch].unit : NULL;
}

int mech_dock_channel_find(const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i < MECH_DOCK_NCH; i++)
        if (channels[i].name && strcmp(channels[i].name, name) == 0)
            return i;
    return -1;
}

/* ---- element table ---------------------------------------------------------------------------------------- */

static const struct { const char *name, *q, *Q; } elements[MECH_DOCK_NEL] = {
    [MECH_DOCK_EL_AXIAL] = {"axial", "m", "N"},
    [MECH_DOCK_EL_SPRING1] = {"spring1", "m", "N"},
    [MECH_DOCK_EL_SPRING2] = {"spring2", "m", "N"},
    [MECH_DOCK_EL_TORSION] = {"torsion", "rad", "N m"},
    [MECH_DOCK_EL_BEND_Y] = {"bend_y", "rad", "N m"},
    [MECH_DOCK_EL_BEND_Z] = {"bend_z", "rad", "N m"},
    [MECH_DOCK_EL_COVER] = {"cover", "m", "N"},
};

int mech_dock_element_used(const mech_dock_params *p, int el)
{
    if (el == MECH_DOCK_EL_COVER)
        return p->stand;
    return el >= 0 && el < MECH_DOCK_NEL;
}

const char *mech_dock_element_name(int el)
{
    return el >= 0 && el < MECH_DOCK_NEL ? elements[el].name : NULL;
}

const char *mech_dock_element_unit_q(int el)
{
    return el >= 0 && el < MECH_DOCK_NEL ? elements[el].q : NULL;
}

const char *mech_dock_element_unit_Q(int el)
{
    return el >= 0 && el < MECH_DOCK_NEL ? elements[el].Q : NULL;
}

/* Fixed-step simulation of the docking (mech/dock.h): RK4 over [body state | phi_Nut, phid_Nut | energy
 * quadratures], every force element evaluated as a TRIAL at each stage, reverted after the stages and committed at
 * the accepted state (the pattern of mech_body_sim, body_sim.c). The accepted state's evaluation is the next step's
 * first stage, so a step costs four evaluations. Capture logic, sensors, energy budget and summary at every
 * accepted step. Nothing here allocates after mech_dock_sim_new. docs/dock.md. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dock/dock_internal.h"
#include "mech/ode.h"

/* energy quadratures integrated with the state (J) */
enum { Q_CONTACT = 0,   /* work done on every contact, the detent and the slots (elastic + dissipated)          */
       Q_BRAKES,        /* friction-brake slip                                                                  */
       Q_MAGNETIC,      /* axial and lateral magnetic brakes                                                    */
       Q_DAMPING,       /* structural damping, screw friction, stop damping                                     */
       Q_THRUST,        /* work of the thrust (an input)                                                        */
       Q_DRIVE,         /* work of the drive's motors (an input; process runs)                                  */
       Q_DRIVE_DAMP,    /* the drive stiffness's damping                                                        */
       NQ };

/* step refinement (docs/dock.md §6): a step of h is split into substeps when rho h > DOCK_THETA */
#define DOCK_THETA 2.0      /* |lambda h| allowed: inside RK4's stability interval (2.785) with a margin */
#define DOCK_NSUB_MAX 16

#define GATE_MARGIN 0.02   /* m: a contact set is evaluated when its bounding check leaves less than this gap */

/* error-controlled steps (docs/dock.md §6b) */
#define DOCK_THETA45 3.0    /* |lambda h| allowed by the stiffness ceiling: inside DOPRI5's real stability
                               interval (3.3) with a margin (Hairer & Wanner's DOPRI5 flags 3.25 as stiff)      */
#define DOCK_THETA43 2.7    /* the same for RK4(3): inside RK4's real interval (2.785) and its imaginary one
                               (2.83): the probe's lightly damped torsion (1131 rad/s) holds the slow phases at
                               this stability limit, where DOPRI5 has only ~2.4 (2 % damping) for 6 evaluations
                               against RK4's 4 (docs/dock.md §6b)                                               */
#define DOCK_HMAX MECH_DOCK_H_MAX   /* s: no step longer (the fixed-step limit of mech_dock_params_check)       */
#define DOCK_HMIN 1e-10     /* s: a step refused below this fails the run                                      */
#define DOCK_EVENT_TOL 1e-7 /* s: an event ends its step at most this long after the gap crossed zero         */
#define DOCK_NGAP 128       /* event functions: every contact pair, the process's contacts, the slot faces, the
                               capture plane                                                                   */
#define DOCK_LIM_F_MIN 1.0   /* N: the guides' friction the rods' reactions could hold below which they are taken as
                                frictionless (docs/dock-process.md §8.5)                                        */
#define DOCK_LIM_V_REST 1e-12 /* m/s: a limiter released at a located breakaway moves slower than this while it is
                                 still at rest (its speed zero to round-off, of either sign)                    */
#define DOCK_THETA_IMP 0.25 /* |lambda h| during an impact: ~25 steps per contact period, so a peak force is
                               sampled as finely as by the fixed 0.25 ms steps (error (lambda h / 2)^2 / 2 < 1 %) */
#define DOCK_IMPACT_STEPS 50 /* accepted steps after a contact onset held to DOCK_THETA_IMP (~2 contact periods) */
#define PAD_ARM_F_MIN 10.0  /* N: the pads' lever arm about the UJ is taken where their resultant is at least this
                              (a contact starting or ending has an arm of round-off) */

/* What one evaluation computes besides the derivative (the accepted state's copy feeds the channels). */
typedef struct dock_eval {
    double    s, sdot, L;             /* stroke, rate, free length                                              */
    mech_vec3 head, head_vel;         /* head centre and its material velocity, world                           */
    mech_vec3 f_head;                 /* every passive-unit force on the head (contacts, detent, slots), world  */
    mech_vec3 f_passive, m_passive;   /* load on the passive vehicle, world, moment about the cone origin       */
    double    f_axial;                /* push-in positive axial head force                                      */
    double    f_limiter;              /* sum of the pad forces' magnitudes                                      */
    double    x_c;                    /* head-centre x in the cone frame                                        */
    double    roll_err;               /* latch roll error about the cone axis, rad                              */
    double    tip_x[4];               /* latch tips' x in the cone frame, m (while a latch is folded)           */
    double    e_contact;              /* elastic energy in contacts, detent and slots                           */
    double    detent;                 /* detent force now, N                                                    */
    int       on[DOCK_NSET];          /* sets evaluated                                                         */
    int       cone, socket, bottom, latch, limiter;   /* contact flags                                          */
    double    Qel[MECH_DOCK_NEL], qel[MECH_DOCK_NEL]; /* element displacement and force (SI)                    */
    int       stel[MECH_DOCK_NEL];
    mech_dock_axial_out   ax;
    mech_dock_lateral_out lat;
    mech_mat3 alpha_C;                /* passive rotation base -> housing                                       */
    /* slot-face contact (roll alignment), trial */
    int       slot_touch;
    double    slot_vimp;
    double    slot_over;              /* slot-face penetration (rad of roll beyond the half-width; < 0 apart)   */
    double    p[NQ];                  /* powers integrated by the quadratures                                   */
    dock_proc_eval pr;                /* the whole process's loads (params.process.enabled)                     */
    double    x_cover, p_cover;   /* stand option: cover deflection (m), damping power (W)                 */
    /* variant C: the movable limiter (x pushed back from the forward position, m; its guide solve) */
    double    lim_x, lim_xd;
    int       lim_loaded;             /* the guides carry a lateral load (the pads touch): friction acts        */
    double    lim_friction;           /* sum of the guide friction forces along x, N                            */
    mech_dock_limiter_out lim;
} dock_eval;

struct mech_dock_sim {
    const mech_dock_model *m;
    const mech_body_model *bm;
    mech_body_data        *d;
    mech_contact_data     *cd[DOCK_NSET];
    mech_dock_axial       *ax;
    mech_dock_lateral     *lat;
    hy_element             el[3];       /* torsion, bending q4, bending q5                                      */
    hy_element             el_cover;    /* stand option with laws.cover: the cover's law (ops NULL otherwise)   */
    mech_body_layout       L;
    size_t                 nb, dim;     /* body-state length; total: [body nb | phi_Nut, phid_Nut | u, u' | NQ]  */
    size_t                 iu, iq;      /* index of the drive output u (nb + 2) and of the quadratures (nb + 4)  */
    double                *y, *y0, *k1, *k2, *k3, *k4, *yt;
    double                 t;
    unsigned long          steps;       /* accepted steps of h                                                  */
    unsigned long          substeps;    /* accepted RK4 steps (steps of h and their substeps)                   */
    double                 rho;         /* last estimate of the Jacobian's spectral radius, 1/s (rk4)           */
    double                *wke;         /* (dim) weights of the estimate: sqrt of each rate's inertia, 0 elsewhere */
    mech_contact_body      cb[DOCK_NCB];
    mech_vec3              ahs_axis[2];  /* world axes of the tip-angle corrections dq4, dq5                  */
    double                 ahs_gain[2];  /* d(dq)/dq = tip cos q - 1                                           */
    dock_eval              ev;          /* last evaluation                                                      */
    dock_eval              acc;         /* evaluation at the accepted state                                     */
    /* committed discrete state */
    int                    captured;
    int                    latch_folded; /* latches whose tip has not yet passed the capture plane (disabled)  */
    double                 thrust_on;   /* trigger time (NAN: not triggered)                                    */
    int                    slot_touch;
    double                 slot_vimp;
    double                 work[MECH_DOCK_NEL], qc[MECH_DOCK_NEL], Qc[MECH_DOCK_NEL];
    double                 slipc[2];    /* B: FrT1, FrT2 slips at the last step of h (m)                        */
    double                 brake_work;  /* B: their dissipation booked from the slip increments (J)             */
    int                    cone_prev;
    double                 ke0;
    mech_dock_summary      sum;
    double                 ch[MECH_DOCK_NCH];
    char                   msg[400];    /* message of the failing evaluation                                    */
    int                    fail_code;
    /* error-controlled steps (params.tol > 0; docs/dock.md §6b): the ODE layer's RK4(3) or Dormand-Prince 5(4)
       stepper (params.method) and scaled control over this simulation's evaluate(); the driver (events, ceiling,
       commit) is here */
    mech_ode_system        sys;
    mech_ode_step         *stp;
    mech_ode_control       ctl;
    mech_ode_pi            pi;          /* its PI memory (integration.control "pi")                            */
    double                *ytry, *yerr, *kout, *scale;   /* (dim) trial state, its error, f at its end, scales  */
    double                 h_next;      /* the controller's next step, s                                        */
    double                 h_ceil;      /* stiffness ceiling theta / rho, s                                     */
    double                 theta;       /* |lambda h| the stiffness ceiling allows: DOCK_THETA43 or DOCK_THETA45 */
    int                    impact_left; /* accepted steps still under the impact ceiling (DOCK_THETA_IMP)      */
    double                 m_contact;   /* lightest effective mass a contact drives (the head laterally), kg  */
    int                    ngap;
    double                 g0[DOCK_NGAP], g1[DOCK_NGAP], glo[DOCK_NGAP];  /* event functions: accepted, trial, bracket */
    mech_dock_sim_stats    st;
    /* the whole process (params.process.enabled; docs/dock-process.md §8): the drive and the sequencer, with their
       committed and trial states; the pushers, planes and rollers are stateless (dock_proc.c) */
    int                    proc;
    mech_dock_drive        drive;
    mech_dock_seq          seq;
    mech_dock_process_summary ps;
    double                 drive_work_max;   /* max |motor work| so far, J (the scale of the energy check)     */
    int                    roller_prev, pad_prev;   /* rollers and pad points touching at the last accepted step */
    /* variant C (params.limiter_movable): the limiter's guides (friction/ solver, committed variant and slip) */
    int                    lim_on, jl;  /* on; index of its joint coordinate                                    */
    mech_dock_limiter      lim;
    int                    lim_hold;   /* this step holds the limiter's stuck guides stuck (limiter_hold)     */
    int                    lim_from_rest; /* this step starts at a breakaway: the slide starts from rest          */
    dock_pad_anchor        pad_c[DOCK_NPAD_PT]; /* C: the pad points' committed stick anchors on the cone wall  */
    mech_dock_limiter_summary ls;
};

/* ---- small helpers ------------------------------------------------------------------------------------------ */

static double elastic_energy(const mech_contact_law *law, double depth)
{
    if (depth <= 0)
        return 0;
    return law->k * (law->n == 1 ? depth * depth : pow(depth, law->n + 1)) / (law->n + 1);
}

static int fail(mech_dock_sim *s, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(mech_dock_sim *s, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, sizeof s->msg, fmt, ap);
    va_end(ap);
    s->fail_code = code;
    return code;
}

static mech_mat3 flip_x(void) { return mech_mat3_diag(-1, 1, -1); }   /* base x0 = -x of the cone frame */

/* kinetic energy of the two vehicles alone (the base def is the vehicle about the UJ) */
static double vehicles_ke(const mech_dock_sim *s)
{
    const mech_dock_params *p = &s->m->p;
    const mech_body_data *d = s->d;
    const mech_body_def *def = mech_body_model_def(s->bm);
    mech_vec3 v = d->vel[0], w = d->omega[0];
    double m = def->base.mass;
    double ke = 0.5 * m * mech_vec3_dot(v, v) + m * mech_vec3_dot(v, mech_vec3_cross(w, def->base.com)) +
                0.5 * mech_vec3_dot(w, mech_mat3_apply(def->base.inertia, w));
    int f = s->m->b.passive;
    mech_vec3 vp = d->vel[f], wp = d->omega[f];
    ke += 0.5 * p->passive.mass * mech_vec3_dot(vp, vp) +
          0.5 * (p->passive.inertia.x * wp.x * wp.x + p->passive.inertia.y * wp.y * wp.y + p->passive.inertia.z * wp.z * wp.z);
    return ke;
}

/* ---- contact-body kinematics --------------------------------------------------------------------------------- */

static void contact_bodies(mech_dock_sim *s, double L, double sdot)
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
    s->cb[DOCK_CB_LATCH] = (mech_contact_body){c, mech_mat3_mul(R4x, mech_mat3_rot(2, tf * d->sinq[j0 + 4] - q5)), vc, wl};
    int h = s->m->b.pads, f = s->m->b.passive;   /* the pads ride on the housing, or on the movable limiter (C) */
    s->cb[DOCK_CB_HOUSING] = (mech_contact_body){d->pos[h], d->xmat[h], d->xvel[h], d->xomega[h]};
    s->cb[DOCK_CB_PASSIVE] = (mech_contact_body){d->pos[f], d->xmat[f], d->xvel[f], d->xomega[f]};
}

// world point => its position in the cone frame
static mech_vec3 to_cone(const mech_dock_sim *s, mech_vec3 pw)
{
    const mech_contact_body *P = &s->cb[DOCK_CB_PASSIVE];
    return mech_vec3_sub(mech_mat3_tapply(P->rot, mech_vec3_sub(pw, P->pos)), s->m->g.cone_origin);
}

static mech_vec3 passive_point_vel(const mech_dock_sim *s, mech_vec3 pw)
{
    const mech_contact_body *P = &s->cb[DOCK_CB_PASSIVE];
    return mech_vec3_add(P->vel, mech_vec3_cross(P->omega, mech_vec3_sub(pw, P->pos)));
}

/* which sets can touch (cheap bounding checks; docs/dock.md §contacts). Every check runs at every stage on that
 * stage's state and bounds the pair's depth from above, so skipping a set changes nothing: its pairs would report
 * no contact (and leave no anchor) anyway. The cone and limiter bounds are loose (GATE_MARGIN); the socket bore,
 * the bottom and the latch bounds are exact distances (GATE_EXACT, round-off only). */
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
        e->tip_x[k] = to_cone(s, mech_vec3_add(Lb->pos, mech_mat3_apply(Lb->rot, cm->pair[k].local_a.pos))).x;
}

static void gates(mech_dock_sim *s, dock_eval *e, mech_vec3 hc)
{
    const mech_dock_model *m = s->m;
    const dock_geom *g = &m->g;
    const mech_dock_geometry *gm = &m->p.geom;
    const mech_contact_body *P = &s->cb[DOCK_CB_PASSIVE];
    double rh = gm->head_radius, x = hc.x;
    e->on[DOCK_SET_CONE] = x - rh < g->rim_x + GATE_MARGIN && x + rh > g->throat_x - GATE_MARGIN;
    /* bore (inside a cylinder of the socket radius, up to the throat): the head centre's distance from the axis */
    double r_free = gm->socket_radius - rh - GATE_EXACT;   /* the centre's free radial play in the bore */
    e->on[DOCK_SET_SOCKET] = x - rh < g->throat_x + GATE_MARGIN &&
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
        mech_vec3 a0 = to_cone(s, mech_vec3_axpy(H->pos, gm->limiter_x0, xh));
        mech_vec3 a1 = mech_vec3_axpy(a0, gm->limiter_x1 - gm->limiter_x0, ax);
        double st = sqrt(fmax(0.0, 1 - ax.x * ax.x));
        double xmin = fmin(a0.x - gm->limiter_r0 * st, a1.x - gm->limiter_r1 * st);
        double xmax = fmax(a0.x + gm->limiter_r0 * st, a1.x + gm->limiter_r1 * st);
        if (g->rim_x > xmin - GATE_MARGIN && g->rim_x < xmax + GATE_MARGIN) {
            /* where the limiter axis crosses the rim plane, and the widest section there */
            double t = fabs(ax.x) > 1e-6 ? (g->rim_x - a0.x) / ax.x : 0;
            mech_vec3 q = mech_vec3_axpy(a0, t, ax);
            double rmax = fmax(gm->limiter_r0, gm->limiter_r1) / fmax(fabs(ax.x), 0.5);
            e->on[DOCK_SET_LIMITER] = hypot(q.y, q.z) + rmax > g->rim_r - GATE_MARGIN;
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
        return rc ? fail(s, rc, "limiter: %s", lerr.msg) : HY_OK;
    }
    double qa = d->qdd[jl];
    if (mech_body_aba_unit(bm, d, jl))
        return fail(s, HY_ENUMERIC, "body tree: an articulated inertia is not positive (singular configuration)");
    double g = d->dqdd[jl];   /* 1 / m_eff, > 0 */
    if (!(g > 0))
        return fail(s, HY_ENUMERIC, "limiter: its effective mass on the tree is not positive (1/m = %g)", g);
    /* Fl, Ml: the round rods' reactions as the planar guide's load (mech_dock_limiter_rod_load, in evaluate) */
    rc = mech_dock_limiter_trial_coupled(&s->lim, e->lim_x, e->lim_xd, 1.0 / g, -qa / g, Fl, Ml, &e->lim, &lerr);
    if (rc)
        return fail(s, rc, "limiter: %s; hint: the guides jam (a Painleve case: lower limiter.mu or move the guide "
                    "pairs limiter.a apart)", lerr.msg);
    e->lim_friction = e->lim.F[0] + e->lim.F[1];
    mech_body_aba_add_unit(bm, d, jl, -e->lim_friction);
    return HY_OK;
}

/* ---- one evaluation: (t, y) => dy/dt and e (trials of every element; committed states untouched) ------------ */

static int evaluate(mech_dock_sim *s, double t, const double *y, double *dy, dock_eval *e)
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
    contact_bodies(s, e->L, e->sdot);
    const mech_contact_body *H = &s->cb[DOCK_CB_HEAD], *P = &s->cb[DOCK_CB_PASSIVE];
    mech_vec3 exp_ = mech_mat3_col(P->rot, 0);          /* cone axis, world */
    mech_vec3 O = mech_vec3_add(P->pos, mech_mat3_apply(P->rot, g->cone_origin));
    e->head = H->pos;
    e->head_vel = H->vel;
    mech_vec3 hc = to_cone(s, H->pos);
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
                return fail(s, HY_ESTATE, "contact %s: penetration %.4g m deeper than the geometry allows (%.4g m)",
                            pr->name, gg->depth, pr->max_depth);
            mech_vec3 f = cd->force[i];
            if (!(isfinite(f.x) && isfinite(f.y) && isfinite(f.z)))
                return fail(s, HY_ENUMERIC, "contact %s: non-finite force", pr->name);
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
            Eel += elastic_energy(&pr->law, gg->depth) + 0.5 * pr->law.kt * mech_vec3_dot(cd->stretch[i], cd->stretch[i]);
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
            Pc -= mech_vec3_dot(f, mech_vec3_sub(H->vel, passive_point_vel(s, H->pos)));
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
            double u_rate = -mech_vec3_dot(exp_, mech_vec3_sub(H->vel, passive_point_vel(s, H->pos)));
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
        dock_proc_loads(m, bm, d, s->cb, y[nb], y[nb + 1], s->pad_c, &e->pr);
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
        return fail(s, rc, "%s", aerr.msg);

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
            return fail(s, rc, "element %s: %s", mech_dock_element_name(jel[k]), buf);
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
                return fail(s, rc, "element cover: %s", buf);
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
        return fail(s, rc, "%s", lerr.msg);
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
        return fail(s, HY_ENUMERIC, "body tree: an articulated inertia is not positive (singular configuration)");
    if (s->lim_on && (rc = limiter_guides(s, e, limFl, limMl)) != HY_OK)
        return rc;
    Pc += Plim + (s->lim_on ? e->lim.p_friction : 0.0);
    mech_body_state_deriv(bm, d, dy);
    dy[nb] = y[nb + 1];
    dy[nb + 1] = e->ax.phidd;
    dy[s->iu] = s->proc ? y[s->iu + 1] : 0.0;
    dy[s->iu + 1] = s->proc ? e->pr.udd : 0.0;
    e->p[Q_CONTACT] = Pc;
    e->p[Q_BRAKES] = e->ax.p_brakes;
    e->p[Q_MAGNETIC] = e->ax.p_magnetic + e->lat.p_magnetic;
    e->p[Q_DAMPING] = e->ax.p_damping + e->ax.p_screw + e->p_cover;
    e->p[Q_THRUST] = Pth;
    e->p[Q_DRIVE] = s->proc ? e->pr.drv.power : 0.0;
    e->p[Q_DRIVE_DAMP] = s->proc ? e->pr.drv.p_damping : 0.0;
    for (int k = 0; k < NQ; k++)
        dy[s->iq + k] = e->p[k];
    /* one branch for the whole derivative (x * 0 is 0 for a finite x, NaN otherwise), the index only on failure */
    double nonfinite = 0;
    for (size_t i = 0; i < nb + 4; i++)
        nonfinite += dy[i] * 0.0;
    if (nonfinite != 0 || isnan(nonfinite))
        for (size_t i = 0; i < nb + 4; i++)
            if (!isfinite(dy[i]))
                return fail(s, HY_ENUMERIC, "state derivative %zu is not finite", i);
    return HY_OK;
}

/* ---- trial / commit / revert of everything with a state ------------------------------------------------------ */

static void revert_all(mech_dock_sim *s)
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

static void commit_all(mech_dock_sim *s, const dock_eval *e)
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

/* The sequencer at an accepted (sub)step (docs/dock-process.md §2, §8): the head sensors, the stroke and the
 * docking-plane gap of the accepted state; a transition commands the drive at this step boundary (both motors);
 * the process summary's peaks and times. */
static void process_account(mech_dock_sim *s, const dock_eval *e, int first)
{
    const mech_dock_params *p = &s->m->p;
    const dock_proc_eval *pr = &e->pr;
    mech_dock_process_summary *ps = &s->ps;
    /* settling measure: the stroke rate and the head's lateral speed relative to the passive vehicle. The jam test
       watches the drive output's rate, not the nut's: at the end of retraction the pushers hold the probe while
       FrT1 slips back (spec 001 §5.2, Fig. 15 fragment 3), the nut stands still for minutes and the drive still
       advances; a jam is the drive itself stalled at its torque limit */
    const mech_contact_body *P = &s->cb[DOCK_CB_PASSIVE];
    mech_vec3 ax = mech_mat3_col(P->rot, 0), vr = mech_vec3_sub(e->head_vel, passive_point_vel(s, e->head));
    double vlat = mech_vec3_norm(mech_vec3_axpy(vr, -mech_vec3_dot(vr, ax), ax));
    mech_dock_seq_in in = {.contact = e->cone || e->socket || e->bottom || e->latch, .bottom = e->bottom,
                           .capture = s->captured, .ready = mech_dock_drive_at_ready(&p->process.drive, e->s),
                           .stroke = e->s, .stroke_rate = pr->w, .motion = fmax(fabs(e->sdot), vlat),
                           .gap = isfinite(pr->gap_rods) ? pr->gap_rods : pr->gap};
    int from = s->seq.committed.state;
    int to = mech_dock_seq_trial(&s->seq, s->t, &in);
    mech_dock_seq_commit(&s->seq);
    if (to != from || first) {
        mech_dock_drive_command(&s->drive, mech_dock_seq_drive_cmd(to), 2);
        if (to == MECH_DOCK_SEQ_RETRACT && isnan(ps->t_retract))
            ps->t_retract = s->t;
        if (to == MECH_DOCK_SEQ_ALIGN && isnan(ps->t_align))
            ps->t_align = s->t;
        if (to == MECH_DOCK_SEQ_CLOSED && isnan(ps->t_closed))
            ps->t_closed = s->t;
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

/* variant C: the committed sliding direction of the limiter on its guides, 0 when it is stuck. One coordinate moves
 * on both guide pairs: a pair that sticks (slip 0: the solver held its tangential acceleration at zero) holds the
 * limiter, whatever the other does (at its kinetic limit, slip +-1) */
static int limiter_sliding(const mech_dock_sim *s)
{
    const int *sl = s->lim.data->slip_c;
    return sl[0] != 0 && sl[1] != 0 ? sl[0] : 0;
}

/* Variant C at an accepted state (e: its evaluation), for the step that starts there: a limiter stuck on loaded
 * guides with a positive stick margin is held stuck through the step's stages (mech_dock_limiter_hold), and the
 * margin is an event function. Without that, a step that starts stuck and breaks away inside finds the stick in
 * some stages and the slide in others: the error estimate on the limiter's rate rejected it 4-6 times down to
 * ~1e-5 s at every breakaway (docs/dock-process.md §8.5). Where the margin is positive the held trial and the free
 * one are the same solve, so the evaluation at the state stays valid */
static void limiter_hold(mech_dock_sim *s, const dock_eval *e)
{
    if (!s->lim_on)
        return;
    const int *sl = s->lim.data->slip_c;
    s->lim_hold = e->lim_loaded && (sl[0] == 0 || sl[1] == 0) && e->lim.margin > 0;
    mech_dock_limiter_hold(&s->lim, s->lim_hold);
}

/* (sim, t, y) => kinetic energy of the bodies at that state (the body data are overwritten) */
static double tree_ke(mech_dock_sim *s, double t, const double *y)
{
    mech_body_set_state(s->bm, s->d, t, y);
    mech_body_kinematics(s->bm, s->d);
    return mech_body_kinetic_energy(s->bm, s->d);
}

/* Variant C at an accepted state y (e: an evaluation there): the limiter slid under a guide load and its speed
 * reached zero within the step (an event ends the step there): from here the stick hypothesis, as friction_sim.c
 * rules. The residual speed (the event's tolerance times the deceleration) is removed by an impulse on the
 * limiter's joint, which the tree answers as a whole: the velocity change is the impulse times the tree's response
 * to a unit joint force (two articulated-body passes, the velocity terms cancel in the difference), so linear and
 * angular momentum stay as they were and the kinetic energy lost (the plastic impact's) is booked as contact
 * dissipation. Returns 1 when it changed y (the caller evaluates the state again). */
static int limiter_stick(mech_dock_sim *s, const dock_eval *e, double t, double *y)
{
    if (!s->lim_on || !e->lim_loaded)
        return 0;
    int sc = limiter_sliding(s);   /* the step's sliding direction (committed) */
    const size_t iqd = s->L.qd + s->jl;
    double xd = -y[iqd];
    if (sc == 0 || sc * xd > 0)
        return 0;
    const mech_body_model *bm = s->bm;
    mech_body_data *d = s->d;
    double *r0 = s->k2, *r1 = s->k3;   /* scratch: free at an accepted state (the RK4 stages are spent) */
    mech_body_set_state(bm, d, t, y);
    mech_body_kinematics(bm, d);
    double ke0 = mech_body_kinetic_energy(bm, d);
    mech_body_clear_loads(bm, d);
    mech_body_forward(bm, d);
    mech_body_state_deriv(bm, d, r0);
    d->tau[s->jl] = 1.0;
    mech_body_forward(bm, d);
    mech_body_state_deriv(bm, d, r1);
    double g = r1[iqd] - r0[iqd];   /* the joint's speed change per unit impulse: 1 / m_eff */
    if (g > 0) {
        double lambda = -y[iqd] / g;
        for (size_t i = s->L.npos; i < s->nb; i++)
            y[i] += lambda * (r1[i] - r0[i]);
    }
    y[iqd] = 0;   /* exactly */
    y[s->iq + Q_CONTACT] += ke0 - tree_ke(s, t, y);
    mech_dock_limiter_stick(&s->lim);
    s->ls.stick_events++;
    return 1;
}

/* Fixed steps, variant C, at a step's end state: a stick on two pairs that the solver released on one pair only
 * (that pair at its limit, the other still holding the limiter at rest) is set stuck on both again. Kept, the
 * released pair's direction outlived the load that set it: when the load turned, the other pair was released the
 * other way and the limiter slid with its pairs' friction cancelling (the error-controlled driver releases the
 * whole part at its stick margin instead, dock_sim.c limiter_hold; the two agree only with this) */
static void limiter_half_stuck(mech_dock_sim *s, const dock_eval *e)
{
    if (!s->lim_on || !e->lim_loaded || !(fabs(e->lim_xd) <= 1e-9))   /* at rest to round-off (as dock_limiter.c) */
        return;
    if ((e->lim.slip[0] == 0) != (e->lim.slip[1] == 0))
        mech_dock_limiter_stick(&s->lim);
}

/* The docked state's measures at an accepted (sub)step (dock_measure.c; docs/dock-process.md §8.6) */
static void measure_account(mech_dock_sim *s, const dock_eval *e, int first, int capture_now, int closed_now)
{
    const mech_dock_params *p = &s->m->p;
    const mech_contact_body *P = &s->cb[DOCK_CB_PASSIVE];
    const mech_body_data *d = s->d;
    mech_mat3 Rrel = mech_mat3_mul(mech_mat3_tmul(P->rot, d->xmat[DOCK_B_BASE]), flip_x());
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
static void account(mech_dock_sim *s, int first, int full)
{
    const mech_dock_model *m = s->m;
    const mech_dock_params *p = &m->p;
    const dock_geom *g = &m->g;
    const dock_eval *e = &s->acc;
    const mech_body_data *d = s->d;
    const double *y = s->y;
    size_t nb = s->nb;
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
    if (s->proc)
        process_account(s, e, first);
    if (s->lim_on)
        limiter_account(s, e, first);
    measure_account(s, e, first, capture_now, s->proc && !was_closed && !isnan(s->ps.t_closed));

    const mech_contact_body *P = &s->cb[DOCK_CB_PASSIVE], *H = &s->cb[DOCK_CB_HEAD];
    mech_vec3 ex5 = mech_mat3_col(H->rot, 0);
    mech_vec3 Fc = mech_mat3_tapply(P->rot, e->f_head);
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

    /* energy budget (docs/dock.md §energy) */
    double ke_veh = vehicles_ke(s);
    double ke_all = mech_body_kinetic_energy(s->bm, d);
    mech_vec3 w2 = d->omega[s->m->b.housing];
    double ke_mech = ke_all - ke_veh + 0.5 * p->axial.m_eq * e->sdot * e->sdot +
                     0.5 * mech_vec3_dot(w2, mech_mat3_apply(e->lat.dI, w2));
    const double *Q = y + s->iq;
    double w_hyst = 0;
    for (int k = 0; k < MECH_DOCK_NEL; k++)
        w_hyst += s->work[k];
    double brakes = p->variant == MECH_DOCK_B ? s->brake_work : Q[Q_BRAKES];
    double e_hyst = p->variant == MECH_DOCK_A ? w_hyst - brakes : w_hyst;   /* A: the slip is in the chain's Q dq */
    /* (the cover's spring is the element "cover": in w_hyst); the screw's stick spring is stored energy, and the
       damping quadrature, which integrates the screw friction's whole power, is the dissipation once it is taken
       out */
    double e_stops = e->ax.e_stop + e->ax.e_screw + e->lat.e_stops, e_damping = Q[Q_DAMPING] - e->ax.e_screw;
    double e_cdiss = Q[Q_CONTACT] - e->e_contact;
    if (first)
        s->ke0 = ke_veh + ke_mech;
    /* the drive (process runs): its motors' work is an input; its stiffness's energy, its output's kinetic
       energy and its damping are held by the drive */
    double e_drive = s->proc ? e->pr.drv.e_spring + 0.5 * p->process.drive.m_out * e->pr.w * e->pr.w + Q[Q_DRIVE_DAMP]
                             : 0.0;
    double resid = s->ke0 + Q[Q_THRUST] + Q[Q_DRIVE] -
                   (ke_veh + ke_mech + e->e_contact + e_hyst + e_stops + brakes + Q[Q_MAGNETIC] + e_damping + e_cdiss +
                    e_drive);
    S->e_initial = s->ke0;
    S->e_residual_max = fmax(S->e_residual_max, fabs(resid));
    if (s->proc) {
        s->ps.drive_work = Q[Q_DRIVE];
        s->drive_work_max = fmax(s->drive_work_max, fabs(Q[Q_DRIVE]));
        s->ps.e_residual_rel = S->e_residual_max / fmax(s->ke0 + s->drive_work_max, 1e-300);
    }
    mech_vec3 Pm, Lm;
    mech_body_momentum(s->bm, d, &Pm, &Lm);
    if (first) {
        S->momentum0 = Pm;
        S->ang_momentum0 = Lm;
    }
    S->momentum = Pm;
    S->ang_momentum = Lm;

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
    mech_vec3 rel = to_cone(s, port);
    mech_mat3 Rrel = mech_mat3_mul(mech_mat3_tmul(P->rot, d->xmat[DOCK_B_BASE]), flip_x());
    c[MECH_DOCK_CH_REL_X] = rel.x;
    c[MECH_DOCK_CH_REL_Y] = rel.y;
    c[MECH_DOCK_CH_REL_Z] = rel.z;
    c[MECH_DOCK_CH_REL_ROLL] = atan2(Rrel.m[2][1], Rrel.m[2][2]);
    c[MECH_DOCK_CH_REL_PITCH] = asin(fmax(-1.0, fmin(1.0, -Rrel.m[2][0])));
    c[MECH_DOCK_CH_REL_YAW] = atan2(Rrel.m[1][0], Rrel.m[0][0]);
    mech_vec3 vport = mech_body_point_velocity(s->bm, d, DOCK_B_BASE, (mech_vec3){gm->uj_behind_plane, 0, 0});
    c[MECH_DOCK_CH_REL_VX] = -mech_vec3_dot(exp_, mech_vec3_sub(vport, passive_point_vel(s, port)));
    c[MECH_DOCK_CH_HEAD_X] = e->x_c;
    c[MECH_DOCK_CH_CONE_CONTACT] = e->cone;
    c[MECH_DOCK_CH_SOCKET_CONTACT] = e->socket;
    c[MECH_DOCK_CH_BOTTOM_CONTACT] = e->bottom;
    c[MECH_DOCK_CH_LATCH_CONTACT] = e->latch;
    c[MECH_DOCK_CH_LIMITER_CONTACT] = e->limiter;
    c[MECH_DOCK_CH_LIMITER_X] = s->lim_on ? e->lim_x : 0.0;
    c[MECH_DOCK_CH_LIMITER_GUIDE_F] = s->lim_on ? e->lim_friction : 0.0;
    c[MECH_DOCK_CH_CAPTURE] = s->captured;
    c[MECH_DOCK_CH_E_KIN_VEHICLES] = ke_veh;
    c[MECH_DOCK_CH_E_KIN_MECH] = ke_mech;
    c[MECH_DOCK_CH_E_CONTACT] = e->e_contact;
    c[MECH_DOCK_CH_E_HYST] = e_hyst;
    c[MECH_DOCK_CH_E_STOPS] = e_stops;
    c[MECH_DOCK_CH_E_BRAKES] = brakes;
    c[MECH_DOCK_CH_E_MAGNETIC] = Q[Q_MAGNETIC];
    c[MECH_DOCK_CH_E_DAMPING] = e_damping;
    c[MECH_DOCK_CH_E_CONTACT_DISS] = e_cdiss;
    c[MECH_DOCK_CH_E_RESIDUAL] = resid;
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
    c[MECH_DOCK_CH_E_DRIVE] = Q[Q_DRIVE];
    c[MECH_DOCK_CH_E_DRIVE_STORED] = e_drive;
}

/* ---- initial placement ---------------------------------------------------------------------------------------- */

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
    contact_bodies(s, s->m->p.geom.probe_length, 0);
    double xc = to_cone(s, s->cb[DOCK_CB_HEAD].pos).x;
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

static int initial_state(mech_dock_sim *s, hy_err *err)
{
    const mech_dock_model *m = s->m;
    const mech_dock_params *p = &m->p;
    const mech_dock_initial *in = &p->init;
    const mech_body_layout *L = &s->L;
    double *y = s->y;
    memset(y, 0, s->dim * sizeof *y);
    mech_mat3 Rm = mech_mat3_mul(mech_mat3_rot(2, in->angles.z),
                                 mech_mat3_mul(mech_mat3_rot(1, in->angles.y), mech_mat3_rot(0, in->angles.x)));
    mech_mat3 R0 = mech_mat3_mul(Rm, flip_x());
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

static void renormalise(mech_dock_sim *s, double *y)
{
    size_t off[2] = {s->L.base_quat, s->L.free_pos + 3};
    for (int k = 0; k < 2; k++) {
        double *q = y + off[k];
        mech_quat u = mech_quat_normalize((mech_quat){q[0], q[1], q[2], q[3]});
        q[0] = u.w, q[1] = u.x, q[2] = u.y, q[3] = u.z;
    }
}

/* ---- error-controlled steps (docs/dock.md §6b) -------------------------------------------------------------------
 * The ODE layer's Dormand-Prince 5(4) stepper (the default; six evaluations per step) or RK4(3) (four), both first
 * same as last, and its scaled control, driven here because the driver needs what only the simulation knows: many
 * event functions (every contact pair's gap, the slot faces, the capture plane), the stiffness ceiling and the
 * commit of the accepted state's own evaluation. Every stage is a trial of every element; a rejected step reverts
 * them; the last stage evaluates the new state itself, so an accepted step commits that evaluation (no extra one,
 * unlike the fixed path). */

static int sys_function(double t, const double y[], double dydt[], void *params)
{
    mech_dock_sim *s = params;
    return evaluate(s, t, y, dydt, &s->ev);
}

/* (the evaluation just made) => its event functions g (> 0 touching or past, <= 0 apart): the depth of every contact
 * pair (a set its gate skipped is apart), the slot faces' penetration as a length, the capture plane (past it: the
 * head centre below capture_x; +1 once captured). Returns their number (the same for every evaluation). */
static int gap_values(const mech_dock_sim *s, const dock_eval *e, double *g)
{
    int n = 0;
    for (int k = 0; k < DOCK_NSET; k++) {
        const mech_contact_model *cm = s->m->set[k];
        if (!cm)
            continue;
        for (int i = 0; i < cm->npair && n < DOCK_NGAP - 2; i++) {
            double d = e->on[k] ? s->cd[k]->geom[i].depth : -GATE_MARGIN;
            g[n++] = isfinite(d) ? d : -1.0;   /* -INFINITY: no feature in reach */
        }
    }
    if (s->proc) {
        /* the process's contacts: limiter pads on the wall, rollers, and per rod the pusher's first touch and the
           planes meeting */
        const dock_proc_eval *pr = &e->pr;
        for (int k = 0; k < DOCK_NPAD_PT; k++)
            g[n++] = pr->pad_depth[k];
        for (int j = 0; s->m->cam && j < s->m->cam->n_lever; j++)
            g[n++] = pr->roller_depth[j];
        const mech_dock_pusher_params *ph = &s->m->p.process.pushers;
        for (int i = 0; i < ph->n && i < MECH_DOCK_PUSHER_MAX; i++) {
            double rg = isfinite(pr->rod_gap[i]) ? pr->rod_gap[i] : 1.0;
            g[n++] = s->m->p.process.pushers_on ? ph->stroke - rg : -1.0;
            g[n++] = -rg;
        }
    }
    if (s->lim_on) {
        /* variant C: the limiter entering its forward and its end stop, and, while the guides carry a load and it
           slides, its speed along the committed sliding direction: a slide that stops ends its step there, where
           the stick hypothesis takes over (limiter_stick) */
        int sc = limiter_sliding(s);
        g[n++] = -e->lim_x;
        g[n++] = e->lim_x - s->m->p.limiter.stroke;
        /* a slide that starts from rest at a located breakaway (its speed zero to round-off, of either sign)
           starts on its sliding side */
        double v = s->lim_from_rest && fabs(e->lim_xd) < DOCK_LIM_V_REST ? DBL_MIN : sc * e->lim_xd;
        g[n++] = e->lim_loaded && sc ? v : 1.0;
        /* a held stick (limiter_hold): its margin sum mu_s N - |sum F|; where it crosses zero the step ends, and
           the stick is released there (adaptive_step) */
        g[n++] = s->lim_hold && e->lim_loaded ? e->lim.margin : 1.0;
    }
    g[n++] = e->slot_over * s->m->p.geom.latch_radius;
    g[n++] = s->captured ? 1.0 : s->m->g.capture_x - e->x_c;
    return n;
}

/* (the evaluation just made) => omega^2 of the stiffest touching pair, k' / m_contact with k' = n k depth^(n-1) the
 * stiffness of its Hunt-Crossley law at the present depth; 0 when nothing touches */
static double contact_omega2(const mech_dock_sim *s, const dock_eval *e)
{
    double kmax = 0;
    for (int k = 0; k < DOCK_NSET; k++) {
        const mech_contact_model *cm = s->m->set[k];
        if (!cm || !e->on[k] || s->cd[k]->nactive == 0)
            continue;
        for (int i = 0; i < cm->npair; i++) {
            double d = s->cd[k]->geom[i].depth;
            if (d > 0) {
                const mech_contact_law *law = &cm->pair[i].law;
                kmax = fmax(kmax, law->n == 1 ? law->k : law->n * law->k * pow(d, law->n - 1));
            }
        }
    }
    if (s->proc)
        kmax = fmax(kmax, e->pr.k_touch);
    return kmax / s->m_contact;
}

/* the event functions of gap_values that are contacts (pairs, pads, rollers, rods, the limiter's stops): all but the
 * limiter's sliding speed and stick margin (variant C) and the slots and the capture plane, the last ones. Only a
 * contact's onset is an impact: the limiter's speed turning positive after a stick event started the impact ceiling
 * too (1438 times in S1-400-C's first 200 s with the pads' stick, each 50 steps at DOCK_THETA_IMP) */
static int contact_gaps(const mech_dock_sim *s)
{
    return s->ngap - 2 - (s->lim_on ? 2 : 0);
}

// (event functions a, b) => index of the first one whose side differs, -1 when none
static int gap_changed(const double *a, const double *b, int n)
{
    for (int j = 0; j < n; j++)
        if ((a[j] > 0) != (b[j] > 0))
            return j;
    return -1;
}

// (sim at an accepted state, step h) => ytry, yerr, kout of one error-controlled step; the trials are those of its end
static int try_step(mech_dock_sim *s, double h)
{
    memcpy(s->ytry, s->y, s->dim * sizeof *s->y);
    return mech_ode_step_apply_fsal(s->stp, s->t, h, s->ytry, s->yerr, s->k1, s->kout, &s->sys);
}

/* The trial step of *h crossed an event (s->g1 and s->g0 differ in sign): shorten it so that it ends at most
 * DOCK_EVENT_TOL after the first crossing, on the new side, so that the contact (or the separation, or the capture)
 * starts on the step boundary and no step integrates across the kink. Illinois regula falsi on the step length with
 * the event function that changed, bisection every fourth iteration; the function followed is switched when an
 * earlier one is found. On HY_OK: *h, ytry, yerr, kout, s->ev, s->g1 and the trials are those of the shortened step. */
static int locate(mech_dock_sim *s, double *h)
{
    const int n = s->ngap;
    double lo = 0, hi = *h;
    memcpy(s->glo, s->g0, (size_t)n * sizeof *s->glo);
    int j = gap_changed(s->g0, s->g1, n), side = 0, at_hi = 1, rc;
    double glo = s->glo[j], ghi = s->g1[j];
    for (int it = 0; hi - lo > DOCK_EVENT_TOL && it < 100; it++) {
        double w = hi - lo, x = glo != ghi ? lo + w * glo / (glo - ghi) : lo + 0.5 * w;
        if (it % 4 == 3 || !(x == x))
            x = lo + 0.5 * w;
        x = fmin(fmax(x, lo + 1e-3 * w), hi - 1e-3 * w);
        if ((rc = try_step(s, x)) != HY_OK)
            return rc;
        gap_values(s, &s->ev, s->g1);
        int k = gap_changed(s->g0, s->g1, n);
        if (k >= 0) {   /* crossed by x: the bracket's upper end moves */
            hi = x;
            if (k != j) {
                j = k;
                glo = s->glo[j];
                side = 0;
            } else if (side == -1) {
                glo *= 0.5;
            }
            ghi = s->g1[j];
            side = -1;
            at_hi = 1;
        } else {
            lo = x;
            memcpy(s->glo, s->g1, (size_t)n * sizeof *s->glo);
            glo = s->glo[j];
            if (side == 1)
                ghi *= 0.5;
            side = 1;
            at_hi = 0;
        }
    }
    if (!at_hi) {
        if ((rc = try_step(s, hi)) != HY_OK)
            return rc;
        gap_values(s, &s->ev, s->g1);
    }
    *h = hi;
    return HY_OK;
}

// (sim just made) => error scales, first step, event functions at t = 0
static void adaptive_init(mech_dock_sim *s)
{
    const mech_dock_params *p = &s->m->p;
    s->sys = (mech_ode_system){sys_function, s->dim, s, NULL, NULL, NULL};
    /* scales of the local-error test (D_i = tol * scale_i): lengths 1 m, angles and quaternions 1 rad, the nut in
       its own units (i_Nut per metre of stroke); the rates in the kinetic-energy norm of the stiffness estimate: the
       speed at which that body (or joint, or the nut chain) alone would carry the initial kinetic energy, so a light
       fast part (the probe's torsion, 0.02 kg m^2 on 2.5e4 N m/rad) is held to the same energy error as a vehicle
       (with the initial relative speed as the scale the torsion's 180 Hz ringing set every step); the energy
       quadratures the initial kinetic energy */
    double v0 = fmax(hypot(p->init.closing_speed, hypot(p->init.velocity.y, p->init.velocity.z)), 0.01);
    for (size_t i = 0; i < s->L.npos; i++)
        s->scale[i] = 1.0;
    double vE = sqrt(2 * fmax(s->ke0, 1.0));   /* sqrt(kg) m/s: the rates in the kinetic-energy norm (s->wke) */
    for (size_t i = s->L.npos; i < s->nb + 4; i++)
        s->scale[i] = s->wke[i] > 0 ? vE / s->wke[i] : v0;
    s->scale[s->iu] = 1.0;   /* the drive output, m */
    s->scale[s->nb] = s->m->i_nut;
    for (int k = 0; k < NQ; k++)
        s->scale[s->iq + k] = fmax(s->ke0, 1.0);
    s->ctl = (mech_ode_control){p->tol, 0.0, 0.9, s->scale};
    s->pi = (mech_ode_pi){0};
    s->h_next = p->h;
    s->h_ceil = INFINITY;
    /* the lightest mass a contact drives: the head across the probe (probe inertia about the bending joint over the
       probe length squared, ~5 kg) or along it (the nut chain's m_eq, 50 kg) */
    double Lp = p->geom.probe_length;
    s->m_contact = fmin(p->axial.m_eq, p->mass.probe_inertia.y / (Lp * Lp));
    limiter_hold(s, &s->acc);
    s->ngap = gap_values(s, &s->acc, s->g0);
}

// (failing step) => state and body data back at the last accepted step, err set
static int adaptive_fail(mech_dock_sim *s, hy_err *err, int rc)
{
    dock_eval tmp;
    char msg[sizeof s->msg];
    int code = s->fail_code ? s->fail_code : rc != HY_OK ? rc : HY_ENUMERIC;
    snprintf(msg, sizeof msg, "%s", s->fail_code ? s->msg : "the local error stays above the tolerance");
    evaluate(s, s->t, s->y, s->k2, &tmp);
    revert_all(s);
    return hy_err_set(err, code, "t = %.6f s: %s (step %.3g s); hint: tighten integration.tolerance (%g)", s->t,
                      msg, s->h_next, s->m->p.tol);
}

/* one accepted error-controlled step: the controller's step, capped by the stiffness ceiling and DOCK_HMAX, ends
 * on the next breakpoint (duration, capture timeout, end of the thrust) and on the first event it crosses */
static int adaptive_step(mech_dock_sim *s, hy_err *err)
{
    const mech_dock_params *p = &s->m->p;
    const double t = s->t, tiny = 1e-12 * fmax(1.0, fabs(t));
    double t_stop = INFINITY;
    double bp[3] = {p->duration, p->capture_timeout, isnan(s->thrust_on) ? NAN : s->thrust_on + p->thrust.duration};
    for (int k = 0; k < 3; k++)
        if (bp[k] > t + tiny)
            t_stop = fmin(t_stop, bp[k]);
    for (;;) {
        double h = fmin(fmin(s->h_next, s->h_ceil), DOCK_HMAX), rem = t_stop - t;
        if (h >= rem * (1 - 1e-9))
            h = rem;
        else if (h > 0.5 * rem)
            h = 0.5 * rem;   /* two halves rather than a step and a sliver */
        int rc = try_step(s, h), adj = 0;
        double hnew = h, ratio = 0;
        if (rc == HY_OK)
            adj = p->control == MECH_DOCK_CONTROL_PI
                      ? mech_ode_control_hadjust_pi(&s->ctl, &s->pi, s->stp->type->order, s->ytry, s->yerr, s->dim,
                                                    &hnew, &ratio)
                      : mech_ode_control_hadjust(&s->ctl, s->stp->type->order, s->ytry, s->yerr, s->dim, &hnew, &ratio);
        if (rc != HY_OK || adj < 0) {
            revert_all(s);
            s->st.rejected++;
            s->pi.rejected = 1;
            s->h_next = rc != HY_OK ? 0.25 * h : hnew;
            if (s->h_next < DOCK_HMIN)
                return adaptive_fail(s, err, rc);
            s->fail_code = 0;
            continue;
        }
        double h0 = h;
        int ev = 0;
        s->ngap = gap_values(s, &s->ev, s->g1);
        if (p->events && gap_changed(s->g0, s->g1, s->ngap) >= 0) {
            if ((rc = locate(s, &h)) != HY_OK) {
                revert_all(s);
                s->st.rejected++;
                s->pi.rejected = 1;
                s->h_next = 0.25 * h0;
                if (s->h_next < DOCK_HMIN)
                    return adaptive_fail(s, err, rc);
                s->fail_code = 0;
                continue;
            }
            s->st.events++;
            ev = 1;
        }
        /* accept: the last evaluation is the new state's; commit it, its derivative is the next first stage */
        memcpy(s->y, s->ytry, s->dim * sizeof *s->y);
        memcpy(s->k1, s->kout, s->dim * sizeof *s->k1);
        s->h_next = hnew;   /* the controller's step for the step it judged (an event shortens only this one) */
        double tn = h == rem ? t_stop : t + h;
        {
            /* quaternions: renormalised (and the state evaluated again) only when their norm drifted */
            const double *q0 = s->y + s->L.base_quat, *q1 = s->y + s->L.free_pos + 3;
            double n0 = q0[0] * q0[0] + q0[1] * q0[1] + q0[2] * q0[2] + q0[3] * q0[3];
            double n1 = q1[0] * q1[0] + q1[1] * q1[1] + q1[2] * q1[2] + q1[3] * q1[3];
            int stick = limiter_stick(s, &s->ev, tn, s->y);
            /* a held stick whose margin the step ended at (or past): released, the solver's rules from here */
            int release = s->lim_hold && s->ev.lim_loaded && !(s->ev.lim.margin > 0);
            s->lim_from_rest = release;
            if (release) {
                /* from every pair stuck (a pair at its limit while the limiter stood still has no direction of its
                   own): the solver releases them against the force that now moves the limiter */
                s->lim_hold = 0;
                mech_dock_limiter_hold(&s->lim, 0);
                mech_dock_limiter_stick(&s->lim);
                s->ls.breakaways++;
            }
            if (stick || release || fabs(n0 - 1) > 1e-9 || fabs(n1 - 1) > 1e-9) {
                renormalise(s, s->y);
                if ((rc = evaluate(s, tn, s->y, s->k1, &s->ev)) != HY_OK)
                    return adaptive_fail(s, err, rc);
                s->ngap = gap_values(s, &s->ev, s->g1);
            }
        }
        /* the stiffness ceiling caps the growth only: never below the step just accepted (a switch inside a step,
           a stick/slip change or a branch change, shows as a huge rho once; the error test judged that step) */
        double rho = mech_ode_step_rho(s->stp, s->wke, s->L.npos, s->nb + 4);
        s->h_ceil = fmax(rho > 0 ? s->theta / rho : INFINITY, ev ? h0 : h);
        /* the stiffest active contact: omega = sqrt(k' / m_contact), k' its contact stiffness at the present depth.
           Always a stability ceiling theta / omega; during an impact (a pair starting to touch, for
           DOCK_IMPACT_STEPS accepted steps, about two contact periods) DOCK_THETA_IMP / omega, so its peak force,
           a sample of the accepted states, is sampled as finely as by the fixed 0.25 ms steps */
        const int ncontact = contact_gaps(s);
        int onset = 0;
        for (int j = 0; ev && j < ncontact; j++)
            onset |= s->g0[j] <= 0 && s->g1[j] > 0;
        if (onset) {   /* one window however many pairs touch at once */
            s->impact_left = DOCK_IMPACT_STEPS;
            s->st.impacts++;
        }
        double w2 = contact_omega2(s, &s->ev);
        if (w2 > 0) {
            double theta = s->impact_left > 0 ? DOCK_THETA_IMP : s->theta;
            s->h_ceil = fmin(s->h_ceil, theta / sqrt(w2));
        }
        if (s->impact_left > 0)
            s->impact_left--;
        for (int j = 0; j < ncontact; j++)   /* how deep a contact is when its first accepted state sees it */
            if (s->g0[j] <= 0 && s->g0[j] > -1 && s->g1[j] > 0)   /* -1: no feature before (a feature switch) */
                s->st.onset_depth_max = fmax(s->st.onset_depth_max, s->g1[j]);
        s->acc = s->ev;
        commit_all(s, &s->acc);
        s->t = tn;
        account(s, 0, 1);
        limiter_hold(s, &s->acc);
        s->ngap = gap_values(s, &s->acc, s->g0);
        s->steps++;
        s->substeps++;
        s->st.steps++;
        s->st.h_last = h;
        s->st.h_min = fmin(s->st.h_min, h);
        s->st.h_max = fmax(s->st.h_max, h);
        return HY_OK;
    }
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
    s->dim = s->nb + 4 + NQ;
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
    s->theta = p->method == MECH_DOCK_DOPRI5 ? DOCK_THETA45 : DOCK_THETA43;
    if (p->tol > 0 &&
        !(s->stp = mech_ode_step_alloc(p->method == MECH_DOCK_DOPRI5 ? mech_ode_step_rk45 : mech_ode_step_rk43, s->dim))) {
        rc = hy_err_set(err, HY_ENOMEM, "dock simulation: out of memory");
        goto fail;
    }    /* the stiffness estimate's norm: each rate weighted by the square root of its inertia (kinetic-energy norm), so
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
    if ((rc = initial_state(s, err)))
        goto fail;
    if (s->proc) {
        const mech_dock_process_params *pp = &p->process;
        if ((rc = mech_dock_drive_init(&s->drive, &pp->drive, 0.0, err)) ||
            (rc = mech_dock_seq_init(&s->seq, &pp->seq, pp->start, 0.0, err)))
            goto fail;
        s->ps.t_retract = s->ps.t_align = s->ps.t_closed = s->ps.t_end = NAN;
        s->ps.pad_arm_mean = s->ps.pad_arm_min = s->ps.pad_arm_max = NAN;
        s->ps.gap_min = INFINITY;
    }
    s->sum.capture_time = s->sum.first_contact_time = s->sum.limiter_tilt = NAN;
    dock_measure_init(&s->sum);
    for (int k = 0; k < 4; k++)
        s->sum.latch_time[k] = NAN;
    if (!s->lim_on)
        s->ls.first_contact = s->ls.last_change = NAN;
    renormalise(s, s->y);
    rc = evaluate(s, 0, s->y, s->k1, &s->ev);
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
    commit_all(s, &s->acc);
    account(s, 1, 1);
    s->st.steps = 0;
    s->st.h_min = INFINITY;
    if (s->stp)
        adaptive_init(s);
    *out = s;
    return HY_OK;
fail:
    mech_dock_sim_free(s);
    return rc;
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
    rc = evaluate(s, t + 0.5 * h, yt, s->k2, &s->ev);
    if (rc == HY_OK) {
        for (size_t i = 0; i < n; i++)
            yt[i] = y[i] + 0.5 * h * s->k2[i];
        rc = evaluate(s, t + 0.5 * h, yt, s->k3, &s->ev);
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
            revert_all(s);
            return DOCK_RESOLVE;
        }
        for (size_t i = 0; i < n; i++)
            yt[i] = y[i] + h * s->k3[i];
        rc = evaluate(s, t + h, yt, s->k4, &s->ev);
    }
    revert_all(s);
    if (rc == HY_OK) {
        memcpy(s->y0, y, n * sizeof *y);
        for (size_t i = 0; i < n; i++)
            y[i] += h / 6 * (s->k1[i] + 2 * s->k2[i] + 2 * s->k3[i] + s->k4[i]);
        for (size_t i = 0; i < n && rc == HY_OK; i++)
            if (!isfinite(y[i]))
                rc = fail(s, HY_ENUMERIC, "state component %zu is not finite", i);
        if (rc == HY_OK) {
            limiter_stick(s, &s->ev, t + h, y);
            renormalise(s, y);
            rc = evaluate(s, t + h, y, s->yt, &s->ev);
            if (rc == HY_OK)
                limiter_half_stuck(s, &s->ev);
        }
        if (rc != HY_OK) {
            revert_all(s);
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
    commit_all(s, &s->acc);
    s->t = t;
    account(s, 0, full);
}

int mech_dock_sim_step(mech_dock_sim *s, hy_err *err)
{
    const double h = s->m->p.h, t0 = s->t;
    s->fail_code = 0;
    if (s->stp)
        return adaptive_step(s, err);
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
        evaluate(s, tf, s->y, s->k2, &tmp);
        revert_all(s);
        return hy_err_set(err, s->fail_code ? s->fail_code : rc, "t = %.6f s: %s; hint: halve the step (h = %g s)",
                          fmin(tf + h / nsub, t0 + h), s->msg, h);
    }
    s->steps++;
    return HY_OK;
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
    v->uj = to_cone(s, d->pos[DOCK_B_UJ1 + s->m->b.j0]);   /* on the cover with the stand option */
    v->bend = to_cone(s, d->pos[s->m->b.probe]);
    v->head = to_cone(s, s->cb[DOCK_CB_HEAD].pos);
    v->limiter0 = to_cone(s, mech_vec3_axpy(d->pos[s->m->b.pads], p->geom.limiter_x0, x2));   /* C: moved by x */
    v->limiter1 = to_cone(s, mech_vec3_axpy(d->pos[s->m->b.pads], p->geom.limiter_x1, x2));
    const mech_mat3 Rp = s->cb[DOCK_CB_PASSIVE].rot;
    v->housing_axis = mech_mat3_tapply(Rp, x2);
    v->active_port = to_cone(s, mech_vec3_axpy(d->pos[DOCK_B_BASE], p->geom.uj_behind_plane, x0));
    v->active_axis = mech_mat3_tapply(Rp, x0);
    v->n_roller = v->n_pusher = 0;
    v->roller_radius = 0;
    if (!s->proc)
        return;
    const mech_mat3 R0 = d->xmat[DOCK_B_BASE], RH = d->xmat[s->m->b.housing];
    if (s->m->cam) {
        v->n_roller = s->m->cam->n_lever;
        v->roller_radius = p->process.cam.roller_radius;
        double phi = s->y[s->nb];
        const mech_dock_cam_params *cp = &p->process.cam;
        for (int j = 0; j < v->n_roller && j < 4; j++) {
            v->roller[j] = to_cone(s, mech_vec3_add(d->pos[s->m->b.housing],
                                                    mech_mat3_apply(RH, mech_dock_cam_roller(s->m->cam, phi, j))));
            /* the pivot in the lever's meridian plane, as the cam table places the roller (dock_cam.c) */
            mech_vec3 pv = mech_vec3_make(cp->x_pivot, cp->rho_pivot * s->m->cam->cpsi[j],
                                          cp->rho_pivot * s->m->cam->spsi[j]);
            v->lever_pivot[j] = to_cone(s, mech_vec3_add(d->pos[s->m->b.housing], mech_mat3_apply(RH, pv)));
        }
    }
    const mech_dock_pusher_params *ph = &p->process.pushers;
    mech_vec3 port = mech_vec3_axpy(d->pos[DOCK_B_BASE], p->geom.uj_behind_plane, x0);
    for (int i = 0; ph->n > 0 && i < ph->n && i < 8; i++) {
        mech_vec3 b = mech_vec3_add(port, mech_mat3_apply(R0, s->m->rod_base[i]));
        double len = fmin(ph->stroke, fmax(0.0, isfinite(s->acc.pr.rod_gap[i]) ? s->acc.pr.rod_gap[i] : ph->stroke));
        v->pusher_base[i] = to_cone(s, b);
        v->pusher_tip[i] = to_cone(s, mech_vec3_axpy(b, len, x0));
        v->n_pusher++;
    }
}

/* ---- capture-speed threshold (S4a) ------------------------------------------------------------------------ */

// (params, closing speed) => 1 captured, 0 not; < 0 on a failing run (err set)
static int captures_at(const mech_dock_params *p0, double v, hy_err *err)
{
    mech_dock_params p = *p0;
    p.init.closing_speed = v;
    mech_dock_model *m = NULL;
    mech_dock_sim *s = NULL;
    int rc = mech_dock_model_new(&p, &m, err);
    if (rc == HY_OK)
        rc = mech_dock_sim_new(m, &s, err);
    int result = -1;
    if (rc == HY_OK) {
        result = 0;
        while (s->t < p.capture_timeout) {
            if ((rc = mech_dock_sim_step(s, err))) {
                result = -1;
                break;
            }
            if (s->captured) {
                result = 1;
                break;
            }
            /* after a contact, separating with nothing touching: no force can bring the vehicles back */
            const double *c = s->ch;
            int touching = c[MECH_DOCK_CH_CONE_CONTACT] || c[MECH_DOCK_CH_SOCKET_CONTACT] ||
                           c[MECH_DOCK_CH_BOTTOM_CONTACT] || c[MECH_DOCK_CH_LIMITER_CONTACT] || s->acc.detent > 0;
            if (!isnan(s->sum.first_contact_time) && !touching && c[MECH_DOCK_CH_REL_VX] < 0 && p.thrust.force == 0)
                break;
        }
    }
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
    return result;
}

int mech_dock_capture_speed(const mech_dock_params *p, double lo, double hi, double tol, double *v, hy_err *err)
{
    *v = NAN;
    hy_err local;
    if (!err) // err->code is read back below
        err = &local;
    hy_err_clear(err);
    if (!(lo > 0 && hi > lo && tol > 0))
        return hy_err_set(err, HY_EARG, "capture speed: bracket [%g, %g] m/s with tolerance %g: expected 0 < lo < hi "
                          "and tol > 0", lo, hi, tol);
    int c = captures_at(p, hi, err);
    if (c < 0)
        return err->code ? err->code : HY_ENUMERIC;
    if (c == 0)
        return hy_err_set(err, HY_EDATA, "capture speed: no capture at the upper bracket %g m/s", hi);
    if ((c = captures_at(p, lo, err)) < 0)
        return err->code ? err->code : HY_ENUMERIC;
    if (c == 1)
        return hy_err_set(err, HY_EDATA, "capture speed: capture already at the lower bracket %g m/s", lo);
    while (hi - lo > tol) {
        double mid = 0.5 * (lo + hi);
        if ((c = captures_at(p, mid, err)) < 0)
            return err->code ? err->code : HY_ENUMERIC;
        if (c)
            hi = mid;
        else
            lo = mid;
    }
    *v = 0.5 * (lo + hi);
    return HY_OK;
}

/* Internals of the docking simulation (mech_dock_sim of mech/dock.h) that its files share: what one evaluation
 * computes (dock_eval), the simulation's state (struct mech_dock_sim: the body data, the trials' owners, the
 * committed discrete state, the summaries, the steppers' memory) and the functions one file calls in another.
 * Where each job lives (docs/dock.md §6):
 *   dock_eval.c       one evaluation (t, y) => dy/dt: every force as a trial (contacts, detent, slots, drive, probe
 *                     compliance, stand, lateral chains, thrust, variant C's springs and guides)
 *   dock_step.c       the fixed steps (RK4 with substeps), trial / commit / revert of everything with a state
 *   dock_step_adaptive.c  the error-controlled steps: event functions, their location, the stiffness ceilings
 *   dock_guides.c     variant C at accepted states: the limiter's stick and breakaway on its guides
 *   dock_account.c    the summary at every accepted state: capture, latches, sensors, the sequencer, peaks, works
 *   dock_energy.c     the energy budget and its residual (docs/dock.md §energy)
 *   dock_history.c    the history's channels (MECH_DOCK_CH_*) at the end of a step of h
 *   dock_init.c       the initial placement (the approach walked to the first contact)
 *   dock_sim.c        making and freeing a simulation, its accessors and the pose view
 *   dock_capture_speed.c  the capture-speed bisection (S4a) */
#ifndef MECH_DOCK_SIM_INTERNAL_H
#define MECH_DOCK_SIM_INTERNAL_H

#include "dock/dock_internal.h"
#include "mech/ode.h"

/* energy quadratures integrated with the state (J) */
enum { DOCK_Q_CONTACT = 0,   /* work done on every contact, the detent and the slots (elastic + dissipated)     */
       DOCK_Q_BRAKES,        /* friction-brake slip                                                             */
       DOCK_Q_MAGNETIC,      /* axial and lateral magnetic brakes                                               */
       DOCK_Q_DAMPING,       /* structural damping, screw friction, stop damping                                */
       DOCK_Q_THRUST,        /* work of the thrust (an input)                                                   */
       DOCK_Q_DRIVE,         /* work of the drive's motors (an input; process runs)                             */
       DOCK_Q_DRIVE_DAMP,    /* the drive stiffness's damping                                                   */
       DOCK_NQ };

#define DOCK_GATE_MARGIN 0.02 /* m: a contact set is evaluated when its bounding check leaves less than this gap */
#define DOCK_NGAP 128       /* event functions: every contact pair, the process's contacts, the slot faces, the
                               capture plane                                                                   */

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
    double    p[DOCK_NQ];                  /* powers integrated by the quadratures                                   */
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
    size_t                 nb, dim;     /* body-state length; total: [body nb | phi_Nut, phid_Nut | u, u' | DOCK_NQ]  */
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
       stepper (params.method) and scaled control over this simulation's dock_evaluate(); the driver (events, ceiling,
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
    double                 g0[DOCK_NGAP], g1[DOCK_NGAP], glo[DOCK_NGAP];  /* event functions: accepted, trial,
                                                                             bracket */
    mech_dock_sim_stats    st;
    /* the whole process (params.process.enabled; docs/dock-process.md §8): the drive and the sequencer, with their
       committed and trial states; the pushers, planes and rollers are stateless (dock_proc.c) */
    int                    proc;
    mech_dock_drive        drive;
    mech_dock_seq          seq;
    mech_dock_fault        fault;        /* the fault monitor (dock_fault.c), stepped with the sequencer         */
    mech_dock_process_summary ps;
    mech_dock_hooks        hooks;       /* the structural hooks (issue 44; dock_hooks.c)                        */
    mech_dock_hooks_summary hs;
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

/* ---- small geometry helpers (every file) ---- */
static inline mech_mat3 dock_flip_x(void) { return mech_mat3_diag(-1, 1, -1); }   /* base x0 = -x of the cone frame */

// world point => its position in the cone frame
static inline mech_vec3 dock_to_cone(const mech_dock_sim *s, mech_vec3 pw)
{
    const mech_contact_body *P = &s->cb[DOCK_CB_PASSIVE];
    return mech_vec3_sub(mech_mat3_tapply(P->rot, mech_vec3_sub(pw, P->pos)), s->m->g.cone_origin);
}

// world point => the passive vehicle's velocity there
static inline mech_vec3 dock_passive_point_vel(const mech_dock_sim *s, mech_vec3 pw)
{
    const mech_contact_body *P = &s->cb[DOCK_CB_PASSIVE];
    return mech_vec3_add(P->vel, mech_vec3_cross(P->omega, mech_vec3_sub(pw, P->pos)));
}

/* ---- dock_sim.c ---- */
// (sim, status, message) => the status, the message kept for the step's error (s->msg, s->fail_code)
int dock_sim_fail(mech_dock_sim *s, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- dock_eval.c ---- */
// (sim, free length L, stroke rate) => s->cb, the contact bodies of the body data's kinematics (and the A_HS axes)
void dock_contact_bodies(mech_dock_sim *s, double L, double sdot);
// (sim, t, y) => dy/dt and e: trials of every element, committed states untouched; HY_OK or the dock_sim_fail code
int dock_evaluate(mech_dock_sim *s, double t, const double *y, double *dy, dock_eval *e);

/* ---- dock_step.c ---- */
void dock_revert_all(mech_dock_sim *s);
void dock_commit_all(mech_dock_sim *s, const dock_eval *e);
// (y) => both quaternions of y normalised
void dock_renormalise(mech_dock_sim *s, double *y);

/* ---- dock_step_adaptive.c ---- */
// (sim just made) => the stepper's scales, first step, stiffness ceiling and event functions at t = 0
void dock_adaptive_init(mech_dock_sim *s);
// one accepted error-controlled step (HY_OK), or the error with the state back at the last accepted step
int dock_adaptive_step(mech_dock_sim *s, hy_err *err);
/* event location (dock_locate.c): the index of the first event function whose side differs between a and b (-1:
   none); the shortest trial step that still crosses, to tol (trial(ctx, x) makes the trial step of x and writes its
   event functions to g1; glo: scratch of n) */
#define DOCK_GAP_APART -1.0   /* the event functions' mark for "apart, no distance": no feature in reach
                                 (gap_values), a pad point or roller off the wall's feature (dock_proc.c)        */
int dock_gap_changed(const double *a, const double *b, int n);
int dock_locate(int n, double tol, const double *g0, double *g1, double *glo, double *h,
                int (*trial)(void *ctx, double x), void *ctx);

/* ---- dock_guides.c (variant C) ---- */
int dock_guides_sliding(const mech_dock_sim *s);
void dock_guides_hold(mech_dock_sim *s, const dock_eval *e);
int dock_guides_stick(mech_dock_sim *s, const dock_eval *e, double t, double *y);
void dock_guides_half_stuck(mech_dock_sim *s, const dock_eval *e);

/* ---- dock_account.c ---- */
// (sim at an accepted (sub)step, s->acc its evaluation) => summaries; at the end of a step of h (full) also the
// element works, the energy budget (dock_energy.c), momentum and the channels (dock_history.c)
void dock_account(mech_dock_sim *s, int first, int full);

/* ---- dock_docked.c: the structural hooks and the docked state at accepted steps (issue 44) ---- */
/* (sim at an accepted (sub)step, its evaluation) => the docked state's unmet conditions (MECH_DOCK_DOCKED_* bits,
 * 0: docked; mech/dock_hooks.h), *gap the largest gap at the rods and hook links for the sequencer's "closed" */
int dock_docked_state(mech_dock_sim *s, const dock_eval *e, double *gap);
/* (sim, the sequencer's transition from -> to at this accepted step, its unmet bits) => the hook drive started on
 * entering CLOSED; the hooks' summary (mech_dock_hooks_summary) */
void dock_docked_account(mech_dock_sim *s, const dock_eval *e, int from, int to, int unmet, int first);

/* ---- dock_energy.c ---- */
/* the energy budget at an accepted step of h (docs/dock.md §energy), J */
typedef struct dock_energy {
    double ke_veh, ke_mech;     /* kinetic energy of the two vehicles, of the mechanism (with the nut chain's m_eq) */
    double e_hyst, e_stops;     /* the elements' work (stored + dissipated), the stops' and the screw's energy      */
    double brakes, e_damping;   /* friction brakes, structural damping                                             */
    double e_cdiss;             /* dissipated by the contacts                                                      */
    double e_drive;             /* held by the drive: its stiffness, its output's kinetic energy, its damping      */
    double resid;               /* initial KE + thrust + drive work - everything above - magnetic brakes           */
} dock_energy;
// (sim at an accepted step of h; s->work up to date) => its budget; the summary's residual and initial energy
void dock_energy_account(mech_dock_sim *s, int first, dock_energy *eb);

/* ---- dock_history.c ---- */
/* (sim at an accepted state) => the active vehicle's attitude relative to the passive one, rad: roll, pitch, yaw
   and tilt as mech/dock.h defines MECH_DOCK_CH_REL_ROLL ... _REL_TILT */
void dock_rel_attitude(const mech_dock_sim *s, double *roll, double *pitch, double *yaw, double *tilt);
// (sim at an accepted step of h, its energy budget, its dock_rel_attitude as roll, pitch, yaw, tilt) => s->ch
void dock_history_fill(mech_dock_sim *s, const dock_energy *eb, const double *att);

/* ---- dock_init.c ---- */
// (sim with its body data and contact data) => s->y the initial state (the approach walked to the first contact)
int dock_initial_state(mech_dock_sim *s, hy_err *err);

#endif

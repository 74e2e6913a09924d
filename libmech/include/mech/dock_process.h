/* Parts of the whole docking process (issue 18; spec 001 §1.3 items 12-13, 19-20, 24-26, 27, §1.4, §2.1, §2.2,
 * §2.7; RP-1 §2.3, §2.5, §2.8): the drive with its stop clutches and torque limit, the sequencer (cyclic control),
 * the alignment-cam table, the hatch-cover compliance (eq. 2.9) and the separation pushers. Each part is
 * self-contained and tested on its own (tests/unit/test_dock_process_*.c); docs/dock-process.md says how they are
 * wired into the step loop of mech_dock_sim (not done yet: that loop is being rewritten for error-controlled steps).
 *
 * Conventions (docs/dock-axial.md, docs/dock-process.md): forces and displacements of the axial drive line are
 * given AT THE PROBE; the stroke s = phi_Nut / i_Nut is push-in (retraction) positive. Every part is a plain value:
 * params (immutable after the check) + state (committed and trial); nothing allocates, so the step functions
 * allocate nothing either. */
#ifndef MECH_DOCK_PROCESS_H
#define MECH_DOCK_PROCESS_H

#include "hyst/common.h"
#include "mech/math3.h"
#include "mech/dock.h"
#include "mech/dock_process_params.h"

/* ==== drive: 2 motors + differential + output gearbox onto the nut (spec 001 §1.3 items 12-13, §2.1) =========
 * Coordinates at the probe: x = motor side (the differential's output, i.e. the mean of the two motor angles,
 * through the gearbox, as probe travel), u = drive output (the shaft phi_Drive, u = phi_Drive / (i_Nut,Drive
 * i_Nut)), retraction positive like s. The friction chain of eq. (2.1) sits between u and the nut:
 * phi_FR = i_Nut,FR (phi_Nut - phi_Drive / i_Nut,Drive) = i_Nut,FR i_Nut (s - u).
 *   motor side: speed loop, first order  x'' -> v_m' = (v_t - v_m) / tau, v_t = dir * speed * n_on / 2 (the
 *               differential averages the motor speeds: one motor off (its stop clutch locked) halves the speed
 *               at the same output force limit);
 *   motors off: the stop clutches lock the motor side (v_m = 0, x frozen), so the chain and the drive stiffness
 *               hold the nut against back-driving;
 *   drive stiffness between x and u: F = k (x - u) + c (v_m - u'), the force the drive puts on its output;
 *   torque limit: |F| <= force_max; at the limit the motors stall (x slips back to u + F_max / k, v_m = u').
 * The output u has the reflected inertia m_out of the output gearbox (the caller integrates u, u'):
 *   m_out u'' = F + F_chain(s - u),   the nut equation gets -F_chain(s - u) (eq. 2.1's -m_FR). */
enum mech_dock_drive_cmd {
    MECH_DOCK_DRIVE_OFF = 0,   /* motors off, stop clutches locked                                              */
    MECH_DOCK_DRIVE_RETRACT,   /* pull the probe in at `speed`                                                  */
    MECH_DOCK_DRIVE_EXTEND     /* push it out at `extend_speed` until the initial-position sensor (13)           */
};


typedef struct mech_dock_drive_state {
    double x, v_m;      /* motor-side position (m at the probe) and speed (m/s)                               */
    int    cmd;         /* enum mech_dock_drive_cmd                                                            */
    int    n_on;        /* motors running: 0, 1 or 2                                                           */
    double work;        /* motor work booked over accepted steps, J                                           */
    double limit_time;  /* time spent at the torque limit (motors stalled), s                                 */
    double F;           /* drive force of the committed step, N                                               */
    double dt;          /* trial: time since the committed step, s                                            */
    int    at_limit;    /* the step ended at the torque limit                                                 */
} mech_dock_drive_state;

typedef struct mech_dock_drive {
    mech_dock_drive_params p;
    mech_dock_drive_state  committed, trial;
} mech_dock_drive;

typedef struct mech_dock_drive_out {
    double F;          /* force of the drive on its output u (retraction positive), N                         */
    double x, v_m;     /* motor side at the trial time                                                        */
    double power;      /* motor power F v_m, W                                                                */
    double e_spring;   /* elastic energy of the drive stiffness, J                                            */
    double p_damping;  /* c (v_m - u')^2 >= 0, W                                                              */
    int    at_limit;   /* 1 while |F| is held at force_max (motors stalled)                                   */
} mech_dock_drive_out;

// (params) => RP-1 speed 1.2 mm/s and our estimates for the rest (docs/dock-process.md §1)
void mech_dock_drive_params_rp1(mech_dock_drive_params *p);
// (params) => HY_OK or HY_EMODEL naming the key "drive.<name>", its value and the valid range
int mech_dock_drive_check(const mech_dock_drive_params *p, hy_err *err);
// (params, output position u0) => drive at rest, motors off, x = u0 (no preload)
int mech_dock_drive_init(mech_dock_drive *d, const mech_dock_drive_params *p, double u0, hy_err *err);
// command at a step boundary (changes the committed state): cmd, motors running (1 or 2; ignored for OFF)
void mech_dock_drive_command(mech_dock_drive *d, int cmd, int n_on);
/* (committed state, time dt >= 0 since the committed step, output u, u') => F and the motor side at dt
 * (exact solution of the speed loop over dt; return mapping to the torque limit). Never changes the committed
 * state. */
void mech_dock_drive_trial(mech_dock_drive *d, double dt, double u, double w, mech_dock_drive_out *o);
/* the last trial becomes the committed state; the motor work of the step is booked as the trapezoid of F over
 * the motor-side travel; stroke s: the initial-position sensor stops an extension (s <= ready_stroke) */
void mech_dock_drive_commit(mech_dock_drive *d, double stroke);
void mech_dock_drive_revert(mech_dock_drive *d);
// (params, stroke) => 1 when the initial-position sensor (13) fires
int mech_dock_drive_at_ready(const mech_dock_drive_params *p, double stroke);
/* eq. (2.1)'s friction-chain angle and rate from the nut and drive coordinates:
 * (i_Nut, i_Nut,FR, stroke s, s', drive output u, u') => phi_FR, phi_FR' */
void mech_dock_drive_phi_fr(double i_nut, double i_nut_fr, double s, double sd, double u, double w, double *phi_fr,
                            double *phid_fr);
/* The nut equation (2.1) with the drive coupling (dock_axial.c): as mech_dock_axial_trial, with the friction chain
 * and its structural damping driven by the relative stroke s - u, s' - u' (phi_FR = i_Nut (s - u), i_Nut,FR = 1),
 * and the push-in stop on the damper's travel s - u; the screw friction and magnetic brakes stay on s.
 * o->force + o->f_damping + o->f_stop is the force that pushes the drive output (m_out u'' = F_drive + o->force +
 * o->f_damping + o->f_stop); p_damping, p_brakes are the relative powers. u = u' = 0 gives mech_dock_axial_trial
 * bit for bit. */
int mech_dock_axial_trial_drive(mech_dock_axial *a, double phi, double phid, double u, double w, double f_head,
                                mech_dock_axial_out *o, hy_err *err);

/* ==== sequencer (cyclic control) from the head sensors (spec 001 §1.3 items 13, 24-26) ======================= */
enum mech_dock_seq_state {
    MECH_DOCK_SEQ_EXTEND = 0,  /* drive extends until the initial-position sensor                               */
    MECH_DOCK_SEQ_READY,       /* at the ready position, waiting for the first head contact                     */
    MECH_DOCK_SEQ_CONTACT,     /* contact (or bottom) sensor seen, waiting for capture                          */
    MECH_DOCK_SEQ_ABSORB,      /* captured; drive locked; waiting for the motion to settle                      */
    MECH_DOCK_SEQ_RETRACT,     /* drive retracts                                                                */
    MECH_DOCK_SEQ_ALIGN,       /* final alignment (levers / limiter pads working), drive still retracting       */
    MECH_DOCK_SEQ_CLOSED,      /* docking planes within the hooks' range, drive stopped, the hooks closing      */
    MECH_DOCK_SEQ_END,         /* end of the process: the docked state held for docked_hold (dock-process.md §9) */
    MECH_DOCK_SEQ_FAIL_NO_CAPTURE, /* no capture within capture_timeout of the first contact                    */
    MECH_DOCK_SEQ_FAIL_JAM,    /* retraction jammed: the nut stood still for jam_time while retracting          */
    MECH_DOCK_SEQ_FAIL_ALIGN,  /* alignment not reached: planes not closed within align_timeout                 */
    /* the fault monitor's failures (mech_dock_fault below; a retraction jam it finds ends in FAIL_JAM) */
    MECH_DOCK_SEQ_FAIL_TRAVEL, /* the end-of-travel sensor: the drive output past faults.travel                 */
    MECH_DOCK_SEQ_FAIL_MISALIGNED, /* roll or tilt beyond tolerance when the planes meet                        */
    MECH_DOCK_SEQ_FAIL_REOPEN, /* the planes reopened after they met                                            */
    MECH_DOCK_SEQ_FAIL_HOOKS,  /* hooks not closed in time: no docked state held within hooks_timeout of CLOSED */
    MECH_DOCK_SEQ_NSTATE
};

enum mech_dock_seq_cause {     /* why a transition happened (logged)                                            */
    MECH_DOCK_SEQ_BY_SENSOR_READY = 0, MECH_DOCK_SEQ_BY_CONTACT, MECH_DOCK_SEQ_BY_BOTTOM, MECH_DOCK_SEQ_BY_CAPTURE,
    MECH_DOCK_SEQ_BY_SETTLED, MECH_DOCK_SEQ_BY_ABSORB_TIMEOUT, MECH_DOCK_SEQ_BY_ALIGN_STROKE,
    MECH_DOCK_SEQ_BY_PLANES, MECH_DOCK_SEQ_BY_DOCKED, MECH_DOCK_SEQ_BY_CAPTURE_TIMEOUT, MECH_DOCK_SEQ_BY_JAM,
    MECH_DOCK_SEQ_BY_ALIGN_TIMEOUT, MECH_DOCK_SEQ_BY_HOOKS_TIMEOUT,
    MECH_DOCK_SEQ_BY_FAULT,    /* the fault monitor tripped (mech_dock_fault: its report says which and why)     */
    MECH_DOCK_SEQ_NCAUSE
};


/* Sensor and motion inputs of one accepted step. */
typedef struct mech_dock_seq_in {
    int    contact, bottom, capture, ready;  /* head sensors 24, 25, 26; initial-position sensor 13 (0/1)     */
    double stroke, stroke_rate;              /* s (m), s' (m/s)                                                */
    double motion;     /* settling measure, m/s: e.g. max(|s'|, head lateral speed) (the caller's choice)     */
    double gap;        /* docking-plane gap, m                                                                 */
    int    docked;     /* the docked state holds now (mech_dock_hooks_docked == 0)                             */
} mech_dock_seq_in;

#define MECH_DOCK_SEQ_LOG 32
typedef struct mech_dock_seq_event {
    double t;
    int    from, to, cause;
} mech_dock_seq_event;

typedef struct mech_dock_seq_state_s {
    int    state;
    double t_enter;       /* time the state was entered                                                       */
    double t_first_contact;
    double t_quiet;       /* start of the current settled (ABSORB) or stalled (RETRACT/ALIGN) interval, or -1  */
    double t_align;       /* time align_stroke was reached                                                     */
    int    bottom_seen;
    int    n_log, n_lost; /* events in the log; events that did not fit                                        */
    mech_dock_seq_event log[MECH_DOCK_SEQ_LOG];
} mech_dock_seq_state_s;

typedef struct mech_dock_seq {
    mech_dock_seq_params  p;
    mech_dock_seq_state_s committed, trial;
} mech_dock_seq;

void mech_dock_seq_params_default(mech_dock_seq_params *p);
int mech_dock_seq_check(const mech_dock_seq_params *p, hy_err *err);
// (params, start state EXTEND or READY, t0) => sequencer
int mech_dock_seq_init(mech_dock_seq *s, const mech_dock_seq_params *p, int start, double t0, hy_err *err);
/* (committed state, time t of the step's end, inputs) => the trial state (possibly several transitions in one
 * step, each logged with t); returns the trial state. Never changes the committed state. */
int mech_dock_seq_trial(mech_dock_seq *s, double t, const mech_dock_seq_in *in);
void mech_dock_seq_commit(mech_dock_seq *s);
void mech_dock_seq_revert(mech_dock_seq *s);
// (state) => the drive command it implies (enum mech_dock_drive_cmd)
int mech_dock_seq_drive_cmd(int state);
// (state) => 1 for END and the failure states
int mech_dock_seq_final(int state);
const char *mech_dock_seq_state_name(int state);
const char *mech_dock_seq_cause_name(int cause);
/* (sequencer at an accepted step, already committed; time, failure state, cause) => the committed state moves to
 * the failure state, logged (the fault monitor's trips; a final state stays as it is) */
void mech_dock_seq_fail(mech_dock_seq *s, double t, int state, int cause);

/* ==== the fault monitor: a flight sequencer's failure paths (docs/dock-process.md §2a) =======================
 * Watched at every accepted step of a process run, beside the sequencer (which keeps its own: no capture in time,
 * the nut stalled, alignment timeout); the first fault that trips ends the run in the failure state it names,
 * with its time, a reason and the values that tripped it:
 *   JAM         retraction jam: the drive commanded to retract while the brake in the drive line slips (B, C:
 *               FrT2; A: the friction brake; |slip rate| > slip_speed) or the motors stand at their torque limit,
 *               without a break for jam_time;
 *   TRAVEL      the end-of-travel sensor: the drive output u at or past `travel` before the planes closed;
 *   MISALIGNED  alignment not reached before the planes meet: when the smallest rod gap first reaches meet_gap,
 *               |relative roll| > roll_tol or relative tilt > tilt_tol (mech/dock.h MECH_DOCK_CH_REL_ROLL, _TILT);
 *   REOPEN      the planes reopen: after they met and the largest rod gap came within the sequencer's gap_closed,
 *               it exceeds reopen_gap without a break for reopen_time.
 * Plain value, committed and trial state; nothing allocates. */
enum mech_dock_fault_kind {
    MECH_DOCK_FAULT_NONE = 0, MECH_DOCK_FAULT_JAM, MECH_DOCK_FAULT_TRAVEL, MECH_DOCK_FAULT_MISALIGNED,
    MECH_DOCK_FAULT_REOPEN, MECH_DOCK_NFAULT
};
#define MECH_DOCK_FAULT_NV 4
/* the inputs of one accepted step */
typedef struct mech_dock_fault_in {
    int    retracting;          /* the drive is commanded to retract (motors on)                                */
    int    at_limit;            /* the motors stand at their torque limit                                       */
    double slip;                /* the watched brake's slip (B, C: FrT2; A: the friction brake), m              */
    double drive_f;             /* the drive's force on its output, N                                           */
    double u;                   /* drive output, m (retraction positive)                                        */
    double stroke;              /* probe stroke s, m                                                            */
    double gap_min, gap_max;    /* smallest and largest rod gap, m (NAN: the planes do not face each other)    */
    double roll, tilt;          /* relative roll and tilt of the vehicles, rad                                  */
    double gap_closed;          /* the sequencer's closed-planes gap, m                                         */
} mech_dock_fault_in;
typedef struct mech_dock_fault_state {
    int    kind;                /* enum mech_dock_fault_kind: the fault that tripped (NONE: none yet)            */
    double t;                   /* when, s                                                                      */
    double v[MECH_DOCK_FAULT_NV];   /* the values that tripped it (mech_dock_fault_value_name)                  */
    double t_jam;               /* start of the present jam interval, s (-1: none)                              */
    double t_open;              /* start of the present reopened interval, s (-1: none)                         */
    int    met;                 /* the planes have met (the alignment was checked)                              */
    int    shut;                /* ... and the largest rod gap came within gap_closed                           */
    double slip_prev, t_prev;   /* the last accepted step's slip and time (-1: none yet)                        */
    double limit_time;          /* time the motors stood at their torque limit while retracting, s              */
} mech_dock_fault_state;
typedef struct mech_dock_fault {
    mech_dock_fault_params p;   /* roll_tol resolved (0 in the scenario: geometry.slot_narrow)                  */
    mech_dock_fault_state  committed, trial;
} mech_dock_fault;
// (params) => the defaults (docs/dock-process.md §2a)
void mech_dock_fault_params_default(mech_dock_fault_params *p);
// (params) => HY_OK or HY_EMODEL naming "faults.<key>"
int mech_dock_fault_check(const mech_dock_fault_params *p, hy_err *err);
// (params, the slots' narrow half-width for roll_tol = 0) => monitor, nothing tripped
int mech_dock_fault_init(mech_dock_fault *f, const mech_dock_fault_params *p, double slot_narrow, hy_err *err);
/* (committed state, time of an accepted step, inputs) => the trial state's fault kind (NONE while none has tripped;
 * once tripped it stays). Never changes the committed state. */
int mech_dock_fault_trial(mech_dock_fault *f, double t, const mech_dock_fault_in *in);
void mech_dock_fault_commit(mech_dock_fault *f);
// (kind) => its name ("retraction jam", ...), the failure state it ends the run in; "?" / -1 out of range
const char *mech_dock_fault_name(int kind);
int mech_dock_fault_seq_state(int kind);
// (kind, k) => the name and unit of the value v[k] that tripped it (NULL past its values)
const char *mech_dock_fault_value_name(int kind, int k);
const char *mech_dock_fault_value_unit(int kind, int k);
// (state) => a one-line reason with the values ("FrT2 slipped at 1.2 mm/s for 5 s while retracting, F = 6000 N")
void mech_dock_fault_reason(const mech_dock_fault_state *s, int variant, char *buf, size_t len);

/* ==== alignment cam and levers (spec 001 §1.4, §2.2; RP-1 §2.3) =============================================
 * The cam is given as samples (cam angle theta_k ascending, follower radius r_k), linear between samples. The cam
 * turns with the nut: theta = phi_Nut / i_cam. The follower lifts the driving lever; the bevel gears turn the
 * driven levers by the same angle: lever angle from the housing axis beta = beta0 + asin((r - r_0) / arm), r_0 =
 * r(theta_0). Lever j (j = 0..n_lever-1) lies in the meridian plane at azimuth psi_j = psi0 + 2 pi j / n_lever;
 * its pivot is at axial x_pivot, radius rho_pivot (housing frame, x towards the head); the roller centre is at
 *   x = x_pivot + len cos beta,   rho = rho_pivot + len sin beta,   (x, rho cos psi_j, rho sin psi_j).
 * Check against the ideal cone with the vehicles aligned and the head on the stops: the cone frame's docking
 * plane sits at housing x_plane(s) = head_x0 - s + head_cone_x (head_cone_x < 0: the head centre in the cone frame),
 * cone radius at housing x: R(x) = rim_radius + (x_plane - x - rim_x) tan(alpha) (within the cone: between the rim
 * and the throat radius). Roller penetration = roller_radius - (R(x) - rho) cos(alpha); it must not exceed
 * roller_offset anywhere on the path (the design keeps it ~ -roller_offset: a few mm off the cone). */


typedef struct mech_dock_cam {
    int    n;                               /* table points                                                    */
    double phi[MECH_DOCK_CAM_TABLE];        /* nut angle, ascending                                            */
    double x[MECH_DOCK_CAM_TABLE], rho[MECH_DOCK_CAM_TABLE];   /* roller centre in the lever's meridian plane */
    double psi[MECH_DOCK_NLEVER_MAX];       /* lever azimuths                                                  */
    double cpsi[MECH_DOCK_NLEVER_MAX], spsi[MECH_DOCK_NLEVER_MAX];   /* their cosines and sines               */
    int    n_lever;
    double worst_penetration;               /* max roller penetration of the ideal cone over the path, m        */
    double worst_phi;                       /* ... at this nut angle                                            */
} mech_dock_cam;

/* (params) => table; HY_EMODEL naming "cam.theta[k]" (not ascending), "cam.radius[k]", "cam.<name>" or
 * "cam.path" (a roller crosses the ideal cone by more than roller_offset: nut angle, penetration) */
int mech_dock_cam_build(const mech_dock_cam_params *p, mech_dock_cam *c, hy_err *err);
// (table, nut angle, lever j) => roller centre in the housing frame (clamped to the table's ends)
mech_vec3 mech_dock_cam_roller(const mech_dock_cam *c, double phi_nut, int j);
/* the same in two parts, for a caller that places every lever at one nut angle (the table's lookup is the levers'
 * common part): (table, nut angle) => the roller centre's axial position x and radius rho (clamped to the table's
 * ends); (table, x, rho, lever j) => its centre in the housing frame */
void mech_dock_cam_at(const mech_dock_cam *c, double phi_nut, double *x, double *rho);
mech_vec3 mech_dock_cam_roller_at(const mech_dock_cam *c, double x, double rho, int j);

/* ==== hatch-cover compliance, the stand option (spec 001 §2.7, eq. 2.9) ====================================
 *   m_DM v' = f_1R(1) - [f_beg + k (x - x_beg)] - c v,   x' = v
 * advanced by one implicit-Euler step per explicit step (operator splitting), solved by Cramer's rule. The law's
 * current segment (f_beg, x_beg, k) comes from the caller (a pwl element's active segment; the linear RP-1 law
 * is f_beg = x_beg = 0, k = 5e6 N/m). */

typedef struct mech_dock_cover_seg {
    double f_beg, x_beg, k;
} mech_dock_cover_seg;

typedef struct mech_dock_cover_state {
    double x, v;       /* cover deflection (m, along the base axis) and rate                                   */
    double w_in;       /* work of f_1R on the cover, J (booked per step: f_1R (x1 - x0))                       */
    double w_damp;     /* damping dissipation, J (c v1 (x1 - x0), the implicit-Euler consistent form)          */
    double w_num;      /* implicit Euler's numerical dissipation, J: sum of m dv^2 / 2 + k_seg dx^2 / 2; with it
                          w_in = KE + (spring work) + w_damp + w_num holds exactly (docs/dock-process.md §4)     */
} mech_dock_cover_state;

typedef struct mech_dock_cover {
    mech_dock_cover_params p;
    mech_dock_cover_state  committed, trial;
} mech_dock_cover;

void mech_dock_cover_params_rp1(mech_dock_cover_params *p);
int mech_dock_cover_init(mech_dock_cover *cv, const mech_dock_cover_params *p, hy_err *err);
// (params) => the linear law's segment (0, 0, k)
mech_dock_cover_seg mech_dock_cover_linear(const mech_dock_cover_params *p);
// (committed state, h > 0, axial base force f_1R(1), segment) => trial (x, v) at t + h; returns 0 or HY_ERANGE
int mech_dock_cover_trial(mech_dock_cover *cv, double h, double f1r, mech_dock_cover_seg seg, hy_err *err);
void mech_dock_cover_commit(mech_dock_cover *cv);
void mech_dock_cover_revert(mech_dock_cover *cv);

/* ==== separation pushers (RP-1 §2.3: 4 x 1000 N, 0.04 m stroke) ==========================================
 * n spring rods on the active docking plane at radius r, azimuths psi0 + 2 pi i / n, pointing along the active
 * axis +x (towards the passive plane). Rod i touches the passive plane when its gap g_i < stroke:
 *   d_i = min(stroke - g_i, stroke) > 0,  F_i = force d_i / stroke  (linear, force at full compression) + c d_i',
 * clamped at >= 0; the planes take over at g_i <= 0. The force acts along the passive plane's normal at the
 * rod tip. */

typedef struct mech_dock_pusher_out {
    mech_vec3 force;      /* total force on the passive vehicle (active frame), N; the active gets -force      */
    mech_vec3 moment;     /* its moment about the active plane centre (active frame), N m                      */
    double    f[MECH_DOCK_PUSHER_MAX];   /* rod forces, N                                                      */
    double    d[MECH_DOCK_PUSHER_MAX];   /* rod compressions, m                                                */
    double    energy;     /* elastic energy, J                                                                 */
    double    p_damping;  /* W (>= 0)                                                                          */
    int       n_touch;    /* rods in contact                                                                   */
} mech_dock_pusher_out;

void mech_dock_pusher_params_rp1(mech_dock_pusher_params *p);
int mech_dock_pusher_check(const mech_dock_pusher_params *p, hy_err *err);
/* (params, passive plane: centre o and unit normal n (pointing towards the active vehicle) and velocity field
 * (v_o, omega) of the passive body relative to the active one, all in the active-plane frame) => forces. No state:
 * the pushers are elastic. */
void mech_dock_pusher_eval(const mech_dock_pusher_params *p, mech_vec3 o, mech_vec3 n, mech_vec3 v_o,
                           mech_vec3 omega, mech_dock_pusher_out *out);
/* (params, rod i) => the rod's base on the active plane (active-plane frame), m */
mech_vec3 mech_dock_pusher_base(const mech_dock_pusher_params *p, int i);
/* the same as mech_dock_pusher_eval with the rods' bases given (mech_dock_pusher_base, computed once: a model's) */
void mech_dock_pusher_eval_at(const mech_dock_pusher_params *p, const mech_vec3 *base, mech_vec3 o, mech_vec3 n,
                              mech_vec3 v_o, mech_vec3 omega, mech_dock_pusher_out *out);

/* ==== variant C: the movable limiter on its guides (spec 001 §5.3; RP-1 §2.3: 3 kg, stroke 0.20 m, springs
 * 300 N forward / 1200 N at the retracted end, larger-base radius 0.28 m) ===================================
 * The limiter's prismatic DOF q6 = x along the housing axis, x = 0 at the forward position, positive pushed back
 * towards the universal joint (x = stroke: the retracted end). The three guides are reduced to one planar guide
 * in the plane of the lateral load: two pairs of opposite surfaces at axial a[0], a[1] from the limiter's centre of
 * mass, on the guide surface at +-radius (the bushing of spec 003 §3, docs/friction.md). The reactions, the guide
 * friction, stick and slip and any Painlevé case come from the variant-constraint solver of friction/:
 *   q = x (w = 1), s = (y, theta) (ns = 2), M_qq = m, M_sq = 0,
 *   f_q = P_ext - F_spring(x) + F_stops(x),  f_s = (F_lat, M_ext + e_x F_lat - e_y P_ext),
 *   F_spring = f_forward + (f_end - f_forward) x / stroke (pushes forward), stops: penalty at x < 0 and x > stroke.
 * P_ext is the axial load (the rim reaction's axial part, positive pushing the limiter back), acting at lateral
 * offset e_y (the pad radius); F_lat the lateral load at axial offset e_x; M_ext a moment (housing-frame plane). */
#include "mech/friction.h"


typedef struct mech_dock_limiter {
    mech_dock_limiter_params p;
    mech_friction_model *model;
    mech_friction_data  *data;
} mech_dock_limiter;

typedef struct mech_dock_limiter_out {
    double xdd;           /* limiter acceleration relative to the housing, m/s^2                             */
    double f_spring;      /* spring force (pushing forward), N                                              */
    double f_stop;        /* stop force along +x, N                                                         */
    double N[2], F[2];    /* guide reactions (>= 0) and tangential forces along +x of the two pairs, N      */
    int    chi[2], slip[2];
    double p_friction;    /* friction dissipation -sum F v, W (>= 0)                                        */
    double margin;        /* stick margin while a pair sticks: sum mu_s N - |sum F| over the pairs, N (INFINITY:
                             the limiter slides)                                                             */
    double e_spring;      /* spring energy from the forward position (0 at x = 0) + the stops' penalty, J  */
    int    method;        /* MECH_FRICTION_VARIANT / _ENUM / _LP                                            */
} mech_dock_limiter_out;

void mech_dock_limiter_params_rp1(mech_dock_limiter_params *p);
// (params) => HY_OK, or HY_EMODEL naming "limiter.<key>" (the checks of mech_dock_limiter_new)
int mech_dock_limiter_check(const mech_dock_limiter_params *p, hy_err *err);
/* (params, x, x') => spring force (pushing forward, N), stop force along +x (penalty + a damper that only pushes
 * out of the stop, N) and the elastic energy of the springs and stops (J) */
void mech_dock_limiter_springs(const mech_dock_limiter_params *p, double x, double xd, double *f_spring,
                               double *f_stop, double *energy);
/* (params) => limiter at its forward position with the friction model and data allocated (here only).
 * HY_EMODEL naming "limiter.<key>": e.g. springs that cannot bring it to its forward position (f_forward <= 0,
 * or f_end < f_forward) */
int mech_dock_limiter_new(const mech_dock_limiter_params *p, mech_dock_limiter *l, hy_err *err);
void mech_dock_limiter_free(mech_dock_limiter *l);
/* (committed discrete state, x, x', loads) => xdd, reactions, friction (the friction solver's variant and slip
 * indices from the committed ones). HY_ESTATE: a Painlevé case (no admissible variant), the solver's report in err.
 * Allocates nothing. */
int mech_dock_limiter_trial(mech_dock_limiter *l, double x, double xd, double P_ext, double F_lat, double M_ext,
                            double e_x, double e_y, mech_dock_limiter_out *o, hy_err *err);
/* (params, lateral force F = (Fy, Fz) and moment M = (My, Mz) about the guides' centre, both in the housing frame,
 * x along the axis) => the load (*f, *m) of the planar guide whose frictionless pair reactions are those of the
 * round rods in 3D, N_j = |S_j|, S_0 + S_1 = -F, a_0 S_0 + a_1 S_1 = -(e_x x M): the larger on the positive side,
 * the other with the sign of S_0.S_1. The plane of F alone dropped the moment's part across it (a pad loaded
 * near-axially at its azimuth with the rim's friction across it: the couple went unreacted, and with it its
 * friction; docs/dock-process.md §8.5). For F_lat, M_lat of mech_dock_limiter_trial_coupled. */
void mech_dock_limiter_rod_load(const mech_dock_limiter_params *p, double Fy, double Fz, double My, double Mz,
                                double *f, double *m);
/* The limiter in a body tree (dock_eval.c): its acceleration along +x is affine in the friction force,
 * xdd = (f_eff + sum F) / m_eff, with m_eff and f_eff measured on the tree (every other load, the springs and stops
 * included, in f_eff); F_lat and M_lat are the lateral load and the moment (about the guides' centre, in the plane
 * of the load) the guides react. => the guide reactions and friction as mech_dock_limiter_trial (o->f_spring,
 * f_stop, e_spring of x, x' for the caller's joint force). Allocates nothing. */
int mech_dock_limiter_trial_coupled(mech_dock_limiter *l, double x, double xd, double m_eff, double f_eff,
                                    double F_lat, double M_lat, mech_dock_limiter_out *o, hy_err *err);
void mech_dock_limiter_commit(mech_dock_limiter *l);
void mech_dock_limiter_revert(mech_dock_limiter *l);
/* the sliding speed crossed zero within the accepted step (the caller's event): stick hypothesis on every pair;
 * the caller sets x' = 0 (the residual speed's kinetic energy goes to the friction work, as in friction_sim.c) */
void mech_dock_limiter_stick(mech_dock_limiter *l);
/* on = 1: the pairs committed stuck stay stuck in the trials that follow, whatever their force (o->margin < 0 then
 * says the stick no longer holds: the caller ends its step where the margin crosses zero, an event, and releases it
 * by a trial with on = 0); on = 0: the solver releases a stick its cone refuses (spec 003 §2.2) */
void mech_dock_limiter_hold(mech_dock_limiter *l, int on);

/* What a variant C run reports about its movable limiter (mech_dock_sim_limiter; updated at accepted steps). */
typedef struct mech_dock_limiter_summary {
    double first_contact;         /* first contact of its pads with the cone (rim or wall), s (NAN: none)          */
    int    before_capture;        /* 1: that contact came before capture (spec 001 §5.3 says it should not)       */
    double last_change;           /* the last time a pad contact began or ended, s: the limiter's oscillations on
                                     the cone have died out by then                                               */
    unsigned long impacts;        /* pad contact episodes (accepted steps where the pads start touching)          */
    int    touching;              /* the pads touch the cone at the last accepted step                             */
    double x_max, x_end;          /* limiter stroke (pushed back from the forward position): the largest, the end, m */
    double force_max;             /* largest pad force on the cone (rim + wall), N                                 */
    double friction_max;          /* largest guide friction, N                                                    */
    double friction_work;         /* dissipated in the guides, J                                                  */
    unsigned long loaded_steps;   /* accepted steps with the guides loaded (the pads on the cone)                 */
    unsigned long stuck_steps;    /* ... of them with the limiter stuck on its guides                             */
    unsigned long stick_events;   /* slides that came to a stop (the guides' stick events)                        */
    unsigned long breakaways;     /* held sticks released where their margin crossed zero (an event)               */
    double p_prev, t_prev;        /* (bookkeeping of the friction work)                                           */
} mech_dock_limiter_summary;

/* ==== the whole process in a docking run (mech_dock_sim with params.process.enabled) ========================= */
typedef struct mech_dock_process_summary {
    int    state;                 /* the sequencer's state at the end (enum mech_dock_seq_state)                  */
    int    n_log, n_lost;         /* its transitions (time, from, to, cause), as mech_dock_seq logs them           */
    mech_dock_seq_event log[MECH_DOCK_SEQ_LOG];
    double t_retract, t_align, t_closed, t_end;   /* when those states were entered, s (NAN: not reached)       */
    double drive_work;            /* work of the drive's motors, J                                                */
    double drive_limit_time;      /* time the motors stood at their torque limit (stalled), s: with the drive
                                     retracting it counts towards a retraction jam (mech_dock_fault)               */
    double retract_force_max;     /* max pull on the head (the negative head axial force), N                      */
    double stroke_end;            /* stroke at the end, m                                                         */
    double gap_min;               /* smallest docking-plane gap, m                                                */
    double pusher_force_max, plane_force_max;     /* N                                                            */
    double roller_force_max;      /* N                                                                            */
    unsigned long roller_impacts; /* roller contact episodes (accepted steps where a roller starts touching)      */
    double pad_force_max;         /* the fixed limiter's pads on the cone wall, N                                 */
    unsigned long pad_impacts;    /* pad-wall contact episodes (steps where the pads start touching)              */
    unsigned long roller_steps;   /* accepted steps with any roller touching the cone                            */
    unsigned long roller_all;     /* ... with all rollers touching at once (the design says never: spec 001 §1.4) */
    double frt1_slip_max, frt1_slip_end;          /* B: FrT1's slip, m: the largest and the end (restored by the
                                                     pushers when it returns towards 0)                            */
    double e_residual_rel;        /* max |energy residual| / (initial kinetic energy + max drive work)            */
    /* The lever arm of the limiter's pad forces on the cone wall about the UJ centre (spec 001 Fig. 9): the
       bending moment of their resultant about the UJ (its part across the housing axis, which the lateral
       springs and brakes take) over the resultant's magnitude. Fig. 9a: in A the limiter's reaction passes almost
       through the UJ, so the lateral dampers do not damp it; 9b: B's UJ moved to the base gives it an arm. */
    double pad_arm_mean;          /* time integral of the moment over that of the force, accepted steps with the
                                     pads on the wall, m (NAN: no contact)                                          */
    double pad_arm_min, pad_arm_max;   /* over accepted steps whose resultant is >= 10 N, m (NAN: none)           */
    double pad_m_int, pad_f_int;  /* (bookkeeping: the two integrals, N m s and N s, and the last accepted step's  */
    double pad_m_prev, pad_f_prev, pad_t_prev;   /*  moment, force and time, for the trapezoids)                   */
    mech_dock_fault_state fault;  /* the fault monitor at the end: kind NONE, or the fault that ended the run     */
    double roll_closed, tilt_closed;   /* relative roll and tilt when the sequencer closed the planes, rad (NAN)  */
    double gap_closed_max;        /* the largest rod gap then, m (NAN: not closed)                                */
    /* the roll guides on the collars (mech/dock_rollguide.h; none: t NAN, zeros) */
    int    guide_n;               /* pins (0: none)                                                               */
    double guide_t_enter;         /* the first accepted step with a pin in its socket, s (NAN: never)             */
    double guide_roll_enter;      /* the relative roll then, rad                                                  */
    double guide_force_max;       /* the largest face force on one pin, N                                         */
    unsigned long guide_miss_steps;   /* accepted steps with a pin inserted outside its socket's mouth            */
} mech_dock_process_summary;
// (sim) => the process summary (all zero / NAN when the run has no process)
const mech_dock_process_summary *mech_dock_sim_process(const mech_dock_sim *s);
// (sim) => the movable limiter's summary (variant C; all zero / NAN without it)
const mech_dock_limiter_summary *mech_dock_sim_limiter(const mech_dock_sim *s);

#endif

/* Probe-cone docking simulator (issue 11; spec 001 with the reference parameter set RP-1 and scenarios S1-S7 of
 * 001-reference-parameters.md; hysteresis laws of spec 000): two free spacecraft, the central chain of the
 * docking mechanism on the active one (universal joint q1, q2 = housing, body 2; probe torsion q3 and bending
 * q4, q5 = probe + head, body 5), the axial damper as the separate nut equation (2.1), the lateral damper as four
 * dependent chains reduced into body 2 (eqs. 2.3-2.4), the probe compliance (§2.6), the passive unit's cone,
 * socket, latch slots and stops, the fixed limiter, capture and the energy budget. Drive locked (first 20 s:
 * contact -> capture -> energy absorption).
 *
 * FRAMES (docs/dock.md has figures)
 *   cone frame (world at t = 0): origin at the centre of the passive docking plane, +x along the cone axis out of
 *     the passive vehicle towards the active one (RP-1 §2). The passive vehicle is a free body; the active
 *     vehicle is the floating base of the body tree and moves along -x.
 *   base frame (active vehicle, body 0): origin at the universal-joint centre, +x0 along the mechanism axis out
 *     of the active docking plane towards the passive vehicle (so x0 = -x of the cone frame when aligned).
 *   housing frame (body 2), probe frame (body 5): +x along the housing / probe axis towards the head.
 *   Units are SI and radians everywhere in this header (the scenario file may use degrees; io/dock_json.c).
 *
 * LAYERS
 *   mech_dock_params   plain physical parameters (RP-1 defaults by mech_dock_params_rp1), with the hysteresis
 *                      laws as borrowed hy_model pointers (loaded by the io layer; physics never reads files)
 *   mech_dock_model    compiled, immutable: body tree, contact set, axial damper, lateral damper, elements
 *   mech_dock_sim      mutable: state, hysteresis element states (trial / commit / revert), contact anchors,
 *                      capture logic, energy quadratures, peaks; one fixed-step RK4 step per call; allocates
 *                      nothing after mech_dock_sim_new
 *   sub-models         mech_dock_axial_* (nut equation, variants A and B) and mech_dock_lateral_* (the four
 *                      chains): each usable and tested on its own. */
#ifndef MECH_DOCK_H
#define MECH_DOCK_H

#include <stddef.h>
#include "hyst/common.h"
#include "hyst/element.h"
#include "hyst/model.h"
#include "mech/math3.h"
#include "mech/contact.h"
#include "mech/dock_process_params.h"

enum mech_dock_variant {
    MECH_DOCK_A = 0,  /* existing mechanism: spiral spring + friction brake FrT2 + 2 axial magnetic brakes; UJ in
                         the housing (spec 001 §1.3)                                                         */
    MECH_DOCK_B = 1,  /* modified dampers: FrT1 + FrT2 + gear-train compliance; UJ moved down into the base and
                         the lateral chains re-oriented (spec 001 §5.1, §5.2)                                */
    MECH_DOCK_C = 2   /* an argument of mech_dock_params_rp1 only: variant B's dampers with the movable limiter
                         (spec 001 §5.3); the params then hold variant = MECH_DOCK_B and limiter_movable = 1   */
};

enum mech_dock_cone_type {
    MECH_DOCK_CONE_MODULE = 0,  /* type 3 (modules), RP-1 full cone                                          */
    MECH_DOCK_CONE_VEHICLE,     /* type 2 (existing vehicles)                                               */
    MECH_DOCK_CONE_SHORT        /* shortened cone of a node module (variant C geometry, spec 001 §5.3)      */
};

/* A hysteretic law: a hyst-model element plus the unit conversion between its file units and SI. */
typedef struct mech_dock_law {
    const hy_model *model;   /* borrowed; must outlive every model and sim made from these params           */
    double q_scale;          /* model q units per SI unit of the element's displacement (1 for "m"/"rad",
                                1000 for "mm", 180/pi for "deg")                                              */
    double Q_scale;          /* SI units (N or N m) per model Q unit (1 for "N", 1000 for "kN")              */
    double scale;            /* extra multiplier of the force (1; bending uses L_Pr(0)/L_Pr(t) on top)        */
} mech_dock_law;

/* A monotone piecewise-linear table y(x), x >= 0 ascending, linear between samples, last slope continued
 * (magnetic brakes, eq. 2.2). */
#define MECH_DOCK_TABLE_MAX 16
typedef struct mech_dock_table {
    int    n;                        /* 1..MECH_DOCK_TABLE_MAX points                                        */
    double x[MECH_DOCK_TABLE_MAX];   /* speed, m/s or rad/s                                                  */
    double y[MECH_DOCK_TABLE_MAX];   /* force N or moment N m                                                */
} mech_dock_table;
// (table, x >= 0) => y(x) by linear interpolation (constant beyond the last point when its slope is given as
// zero by a repeated y, linear extrapolation of the last segment otherwise)
double mech_dock_table_eval(const mech_dock_table *t, double x);

/* ---- vehicles ------------------------------------------------------------------------------------------ */
typedef struct mech_dock_vehicle {
    char      name[32];
    double    mass;       /* kg                                                                               */
    mech_vec3 inertia;    /* principal moments about the CoM along the vehicle axes (roll, transverse,
                             transverse), kg m^2                                                            */
    mech_vec3 port;       /* centre of its docking plane from its CoM, vehicle frame (x = docking axis out of
                             the vehicle), m                                                                */
} mech_dock_vehicle;

/* ---- axial damper: the nut equation (2.1), forces given at the probe (RP-1 §2.5) ------------------------ */
typedef struct mech_dock_axial_params {
    int    variant;          /* MECH_DOCK_A or MECH_DOCK_B                                                    */
    double lead;             /* ball-screw lead t, m (i_Nut = 2 pi / t)                       RP-1 0.012      */
    double m_eq;             /* reduced axial mass of the moving chain, kg (I_Nut^tot = m_eq / i_Nut^2)  50   */
    double screw_friction;   /* k_NutFr, sign-consistent Coulomb form (docs/dock.md)                 0.05     */
    double damping;          /* structural damping c_D,FR at the probe, N s/m                        200      */
    double stroke_limit;     /* push-in hard stop of the probe, m                                    0.32     */
    double stop_stiffness;   /* penalty stiffness of that stop, N/m                                  5e6      */
    double stop_restitution; /* its coefficient of restitution                                       0.3      */
    /* variant A: spring + FrT2 chain as a variable-parameter (friction-kind) table, q = stroke m, Q = N at the
       probe; the 2 axial magnetic brakes as a speed table (probe speed m/s -> total force N), eq. (2.2) */
    mech_dock_law   chain;
    mech_dock_table magnetic;
    /* variant B: gear-train compliance (q = deflection m, Q = N at the probe) in series with the friction
       brakes FrT1 (stroke-limited, then a hard stop) and FrT2; slip forces by direction */
    mech_dock_law gear;
    double frt1_push, frt1_pull;  /* N: FrT1 higher when pushed in                    1250 / (pull) 300       */
    double frt1_stroke;           /* m: FrT1 stroke before its stop                   0.25                   */
    double frt2_push, frt2_pull;  /* N: FrT2 higher when pulled out                   5000 / 6000            */
} mech_dock_axial_params;

/* ---- lateral damper: 2 U-P-S spring chains + 2 R-U-S magnetic-brake chains (spec 001 §2.3, RP-1 §2.6) ---- */
#define MECH_DOCK_NCHAIN 4
typedef struct mech_dock_lateral_params {
    /* U-P-S spring mechanisms k = 0, 1: U joint on the base, prismatic rod with the coil + Belleville springs,
       S joint on the housing */
    mech_vec3 spring_base[2];      /* U-joint centre, base frame (origin = UJ centre), m                       */
    mech_vec3 spring_housing[2];   /* S-joint centre, housing frame, m                                         */
    double    spring_rod_mass[2];  /* kg (rod treated as a slender bar between the two centres)               */
    mech_dock_law spring;          /* rod force (N) against rod stroke from neutral (m), both directions:
                                      preload step, coil, preload step, Belleville (hysteretic table)         */
    double    spring_stop;         /* |stroke| at the hard stop, m                                             */
    double    stop_stiffness;      /* hard-stop penalty, N/m                                                   */
    /* R-U-S magnetic brakes k = 2, 3: crank turning about an axis fixed on the base, coupler rod to an S joint
       on the housing */
    mech_vec3 brake_pivot[2];      /* crank pivot, base frame, m                                              */
    mech_vec3 brake_axis[2];       /* crank axis (unit), base frame                                           */
    double    brake_crank[2];      /* crank length, m                                                         */
    double    brake_rod[2];        /* coupler length, m                                                       */
    mech_vec3 brake_housing[2];    /* S-joint centre, housing frame, m                                        */
    double    brake_crank_inertia[2]; /* crank + brake rotor about the crank axis, kg m^2                      */
    mech_dock_table brake;         /* input-link speed rad/s -> brake moment N m (eq. 2.2)                     */
    double    brake_stop;          /* |input-link angle from neutral| at its mechanical stops, rad             */
    double    brake_stop_stiffness;/* N m/rad                                                                  */
} mech_dock_lateral_params;

/* ---- probe compliance (spec 001 §2.6, RP-1 §2.7) ----------------------------------------------------------- */
typedef struct mech_dock_probe_params {
    mech_dock_law bending;   /* joint moment (N m) against bending angle (rad) at L_Pr(0); the same law for q4
                                and q5, each its own element; scaled by L_Pr(0)/L_Pr(t)                     */
    mech_dock_law torsion;   /* joint moment against q3, not rescaled                                        */
    double tip_factor;       /* 1.5: A_HS correction of latch and sensor positions                           */
} mech_dock_probe_params;

/* ---- geometry (RP-1 §2.2-2.3) --------------------------------------------------------------------------- */
typedef struct mech_dock_geometry {
    int    cone;             /* enum mech_dock_cone_type                                                      */
    double rim_radius;       /* R_rim, m                                       0.40                          */
    double rim_x;            /* rim plane x in the cone frame (0; short cone -0.17), m                       */
    double half_angle;       /* cone half-angle alpha, rad                     30 deg                        */
    double socket_radius;    /* throat radius r_sock, m                        0.050                         */
    double stop_depth;       /* throat -> stop plane, m                        0.05                          */
    double bottom_depth;     /* throat -> bottom face, m                       0.11                          */
    double slot_entry;       /* latch-slot roll half-width at entry, rad       15 deg                        */
    double slot_narrow;      /* at the narrow end, rad                          0.5 deg                       */
    double detent_force;     /* force to push the 4 latches past the stops, N   150                           */
    double detent_travel;    /* m                                              0.005                         */
    double uj_behind_plane;  /* UJ centre behind the active docking plane, m  0.05 (A); B: moved down       */
    double housing_length;   /* UJ -> probe exit (bending joint), m            0.55                          */
    double probe_length;     /* L_Pr(0) at the ready position, m               0.55                          */
    double head_radius;      /* m                                              0.045                         */
    double latch_radius;     /* latch tips from the head centre, m                                            */
    double limiter_r0, limiter_x0; /* fixed limiter larger base: radius, distance from the UJ, m   0.185, 0.40 */
    double limiter_r1, limiter_x1; /* smaller base                                                0.135, 0.48 */
    int    limiter_pads;     /* number of force pads on the limiter (4)                                      */
    double limiter_pad_half; /* pad half-width, rad                                                            */
} mech_dock_geometry;

/* ---- mass properties (RP-1 §2.4) -------------------------------------------------------------------------- */
typedef struct mech_dock_mass {
    double    housing_mass;     /* kg 25                                                                       */
    mech_vec3 housing_com;      /* housing frame, m                                                            */
    mech_vec3 housing_inertia;  /* about the UJ centre (axial, transverse, transverse), kg m^2  0.3, 3, 3      */
    double    probe_mass;       /* probe + head, kg 9                                                          */
    mech_vec3 probe_com;        /* probe frame from the bending joint, m                                       */
    mech_vec3 probe_inertia;    /* about the bending joint, kg m^2  0.02, 1.5, 1.5 (constant: docs/dock.md)    */
} mech_dock_mass;

/* ---- contact laws (RP-1 §2.8; mech/contact.h) ------------------------------------------------------------- */
typedef struct mech_dock_contacts {
    mech_contact_law head_cone;     /* head <-> cone wall and rim, head <-> socket wall                        */
    mech_contact_law head_bottom;   /* head <-> socket bottom, latch <-> stop and slot faces                   */
    mech_contact_law limiter_rim;   /* limiter pads <-> cone rim                                               */
} mech_dock_contacts;

/* ---- initial conditions at first contact (t = 0), the active vehicle relative to the passive one --------- */
typedef struct mech_dock_initial {
    double    closing_speed;  /* Vx > 0, m/s (the active vehicle moves along -x)                              */
    mech_vec3 offset;         /* lateral miss: y, z of the active port axis in the cone frame (x ignored), m   */
    mech_vec3 velocity;       /* lateral velocity y, z, m/s (x ignored: -closing_speed)                      */
    mech_vec3 angles;         /* roll, pitch, yaw misalignment of the active vehicle, rad                     */
    mech_vec3 rates;          /* roll, pitch, yaw rates, rad/s                                                */
    double    gap;            /* head-to-first-contact clearance at t = 0 (>= 0), m: the run starts that far
                                 from the first geometric contact along the approach                        */
} mech_dock_initial;

/* ---- thrust (scenario S4c): axial force on the active vehicle triggered by the cone-contact sensor ------- */
typedef struct mech_dock_thrust {
    double force;      /* N along -x of the cone frame (towards the passive vehicle); 0: off                  */
    double duration;   /* s after the trigger                                                                */
} mech_dock_thrust;

/* integration.method: the stepper of the error-controlled runs (docs/dock.md §6b) */
enum { MECH_DOCK_RK43 = 0, MECH_DOCK_DOPRI5 };
/* integration.control: the step-size control of the error-controlled runs (docs/dock.md §6b) */
enum { MECH_DOCK_CONTROL_STANDARD = 0, MECH_DOCK_CONTROL_PI };

typedef struct mech_dock_params {
    int                      variant;      /* enum mech_dock_variant                                          */
    mech_dock_vehicle        active, passive;
    mech_dock_geometry       geom;
    mech_dock_mass           mass;
    mech_dock_axial_params   axial;
    mech_dock_lateral_params lateral;
    mech_dock_probe_params   probe;
    mech_dock_contacts       contact;
    mech_dock_initial        init;
    mech_dock_thrust         thrust;
    double h;                 /* fixed step, s (tol = 0); the first trial step of an error-controlled run      */
    double tol;               /* integration.tolerance: 0 = fixed steps of h (RK4 with refinement, docs/dock.md
                                 §6); > 0 = error-controlled steps (method) with contact events, local error per
                                 step <= tol times each component's scale (§6b); 1e-10 .. 1e-2                   */
    int    method;            /* integration.method of the error-controlled steps: MECH_DOCK_DOPRI5 (default,
                                 Dormand-Prince 5(4)) or MECH_DOCK_RK43 (classic RK4 with an FSAL order-3
                                 estimate: 1.3-1.6x faster where the probe's torsion holds the steps at their
                                 stability limit, the 400 s process runs; its estimate sees a kink of a law
                                 inside a step less well); docs/dock.md §6b                                    */
    int    control;           /* integration.control: MECH_DOCK_CONTROL_STANDARD (default, GSL's standard control)
                                 or MECH_DOCK_CONTROL_PI (Gustafsson's PI control: 10-17 % fewer evaluations where
                                 the probe's torsion holds the steps at their stability limit, the 400 s process
                                 runs; a few % more in the 20 s runs, whose steps the impacts decide); §6b       */
    mech_dock_process_params process;   /* the whole process (issue 18): off unless the scenario has "process" */
    int    limiter_movable;   /* variant C (spec 001 §5.3): the limiter slides on guides along the housing (a
                                 prismatic body, the housing's second child) with springs, stops and guide friction;
                                 geom.limiter_* give its pads at the forward position; cam and levers removed     */
    mech_dock_limiter_params limiter;   /* its mass, stroke, springs, stops and guides (RP-1 §2.3 + ours)         */
    int    stand;             /* the stand option (spec 001 §2.7): the mechanism base on the compliant hatch cover */
    mech_dock_cover_params cover;       /* its mass m_DM (the mechanism's), stiffness and damping (RP-1)         */
    mech_dock_law cover_law;  /* stand option: the cover's force-deflection law (laws.cover, m and N: a pwl table or
                                 a kin law, e.g. fitted by hyst fit); model NULL = linear, cover.k              */
    int    events;            /* error-controlled runs: 1 (default) = contact onset / separation and capture are
                                 located as events (a step ends on them); 0 = off (tests show what it buys)      */
    double duration;          /* simulated time, s (20)                                                       */
    double capture_timeout;   /* "failure to dock" when no capture by this time, s (10)                       */
} mech_dock_params;

/* (variant, cone) => RP-1 values for everything except the hysteresis laws (their model pointers are NULL and
 * must be set: the shipped RP-1 model files are fixtures/mech/dock/models/), initial conditions zero */
void mech_dock_params_rp1(mech_dock_params *p, int variant, int cone);
// (params) => "A", "B" or "C" (B with the movable limiter)
const char *mech_dock_variant_name(const mech_dock_params *p);
// (params) => HY_OK, or HY_EMODEL with a message naming the parameter ("axial.frt1_push: ...")
int mech_dock_params_check(const mech_dock_params *p, hy_err *err);

/* ---- compiled model ----------------------------------------------------------------------------------- */
typedef struct mech_dock_model mech_dock_model;
// (params) => compiled model (params copied; laws checked: a law of the wrong family or kind is refused)
int mech_dock_model_new(const mech_dock_params *p, mech_dock_model **out, hy_err *err);
void mech_dock_model_free(mech_dock_model *m);
const mech_dock_params *mech_dock_model_params(const mech_dock_model *m);

/* ---- hysteretic elements a run drives (each writes a t, q, Q record) ----------------------------------- */
enum mech_dock_element {
    MECH_DOCK_EL_AXIAL = 0,     /* A: spring + brake chain; B: gear train                (m, N)               */
    MECH_DOCK_EL_SPRING1,       /* lateral spring chain 1                                (m, N)               */
    MECH_DOCK_EL_SPRING2,       /* lateral spring chain 2                                (m, N)               */
    MECH_DOCK_EL_TORSION,       /* probe torsion q3                                      (rad, N m)           */
    MECH_DOCK_EL_BEND_Y,        /* probe bending q4                                      (rad, N m)           */
    MECH_DOCK_EL_BEND_Z,        /* probe bending q5                                      (rad, N m)           */
    MECH_DOCK_EL_COVER,         /* stand option: the hatch cover, deflection and force   (m, N)               */
    MECH_DOCK_NEL
};
// (element) => name ("axial", "spring1", ...), q and Q units of its record
const char *mech_dock_element_name(int el);
const char *mech_dock_element_unit_q(int el);
const char *mech_dock_element_unit_Q(int el);
/* (params, element) => 1 when a run of these parameters drives it (the cover only with the stand option); an
 * element a run does not drive keeps q = Q = 0 and writes no record */
int mech_dock_element_used(const mech_dock_params *p, int el);

/* ---- output channels (one value each per accepted step; names and units for CSV headers) -------------- */
enum mech_dock_channel {
    MECH_DOCK_CH_T = 0,
    /* force ON the head from the passive unit (cone, socket, bottom, latches), cone frame, N */
    MECH_DOCK_CH_HEAD_FX, MECH_DOCK_CH_HEAD_FY, MECH_DOCK_CH_HEAD_FZ,
    MECH_DOCK_CH_HEAD_AXIAL,       /* component along the probe axis (push-in positive), N                     */
    MECH_DOCK_CH_HEAD_LATERAL,     /* magnitude of the part normal to the probe axis, N                        */
    MECH_DOCK_CH_LIMITER_F,        /* magnitude of the limiter-pad force, N                                    */
    /* load of the mechanism on the active vehicle at the mechanism base, base frame */
    MECH_DOCK_CH_BASE_FX, MECH_DOCK_CH_BASE_FY, MECH_DOCK_CH_BASE_FZ,
    MECH_DOCK_CH_BASE_MX, MECH_DOCK_CH_BASE_MY, MECH_DOCK_CH_BASE_MZ,
    /* load of the docking contacts on the passive vehicle at its port, cone frame */
    MECH_DOCK_CH_PASSIVE_FX, MECH_DOCK_CH_PASSIVE_FY, MECH_DOCK_CH_PASSIVE_FZ,
    MECH_DOCK_CH_PASSIVE_MX, MECH_DOCK_CH_PASSIVE_MY, MECH_DOCK_CH_PASSIVE_MZ,
    MECH_DOCK_CH_Q1, MECH_DOCK_CH_Q2, MECH_DOCK_CH_Q3, MECH_DOCK_CH_Q4, MECH_DOCK_CH_Q5,   /* rad            */
    MECH_DOCK_CH_SWING,            /* housing swing angle from the base axis, rad                              */
    MECH_DOCK_CH_STROKE,           /* probe push-in from the ready position L_Pr(0) - L_Pr(t), m               */
    MECH_DOCK_CH_STROKE_RATE,      /* m/s                                                                      */
    MECH_DOCK_CH_NUT,              /* nut angle phi_Nut, rad                                                   */
    MECH_DOCK_CH_SLIP1,            /* A: friction-brake slip (table shift); B: FrT1 slip, m                    */
    MECH_DOCK_CH_SLIP2,            /* A: 0; B: FrT2 slip, m                                                    */
    MECH_DOCK_CH_AXIAL_F,          /* resisting force of the axial chain at the probe, N                       */
    MECH_DOCK_CH_CHAIN1_S, MECH_DOCK_CH_CHAIN2_S,   /* spring-chain rod strokes, m                              */
    MECH_DOCK_CH_CHAIN3_S, MECH_DOCK_CH_CHAIN4_S,   /* brake-chain input-link angles, rad                       */
    MECH_DOCK_CH_CHAIN1_F, MECH_DOCK_CH_CHAIN2_F,   /* spring-chain rod forces, N                               */
    MECH_DOCK_CH_CHAIN3_F, MECH_DOCK_CH_CHAIN4_F,   /* brake moments, N m                                       */
    /* relative motion of the active port w.r.t. the cone frame (moving with the passive vehicle): its position;
       the active vehicle's attitude relative to the passive one as the angles of initial.roll/pitch/yaw_deg: with
       R_rel = R_cone^T R_active Ry(pi) (the active body frame turned by pi about y, so aligned vehicles give the
       identity), R_rel = Rz(yaw) Ry(pitch) Rx(roll), i.e. roll = atan2(R_rel[2][1], R_rel[2][2]) about the cone
       axis x, pitch = asin(-R_rel[2][0]), yaw = atan2(R_rel[1][0], R_rel[0][0]); the tilt (the angle between the
       two docking axes, whatever its direction) is MECH_DOCK_CH_REL_TILT below */
    MECH_DOCK_CH_REL_X, MECH_DOCK_CH_REL_Y, MECH_DOCK_CH_REL_Z,            /* m                           */
    MECH_DOCK_CH_REL_ROLL, MECH_DOCK_CH_REL_PITCH, MECH_DOCK_CH_REL_YAW,   /* rad                         */
    MECH_DOCK_CH_REL_VX,           /* closing velocity along x, m/s                                            */
    MECH_DOCK_CH_HEAD_X,           /* head-centre x in the cone frame, m                                       */
    /* sensors and contact flags (0/1) */
    MECH_DOCK_CH_CONE_CONTACT, MECH_DOCK_CH_SOCKET_CONTACT, MECH_DOCK_CH_BOTTOM_CONTACT,
    MECH_DOCK_CH_LATCH_CONTACT, MECH_DOCK_CH_LIMITER_CONTACT, MECH_DOCK_CH_CAPTURE,
    /* energy budget, J (docs/dock.md): initial kinetic energy = KE + stored + dissipated + residual */
    MECH_DOCK_CH_E_KIN_VEHICLES,   /* both vehicles                                                            */
    MECH_DOCK_CH_E_KIN_MECH,       /* housing, probe (tree bodies) and the nut chain                           */
    MECH_DOCK_CH_E_CONTACT,        /* elastic energy in the contacts now                                       */
    MECH_DOCK_CH_E_HYST,           /* work done on the hysteretic elements (stored + dissipated in them)       */
    MECH_DOCK_CH_E_STOPS,          /* elastic energy in penalty stops now                                      */
    MECH_DOCK_CH_E_BRAKES,         /* dissipated in friction brakes (FrT1, FrT2, slip of the A chain)          */
    MECH_DOCK_CH_E_MAGNETIC,       /* dissipated in magnetic brakes (axial and lateral)                        */
    MECH_DOCK_CH_E_DAMPING,        /* dissipated by structural damping and screw friction                      */
    MECH_DOCK_CH_E_CONTACT_DISS,   /* dissipated by contact damping and friction                               */
    MECH_DOCK_CH_E_RESIDUAL,       /* initial KE - everything above                                            */
    /* the whole process (params.process.enabled; docs/dock-process.md): written by every run, in the history by
       default only when the process is on */
    MECH_DOCK_CH_DRIVE_U,          /* drive output position at the probe (retraction positive), m              */
    MECH_DOCK_CH_DRIVE_F,          /* drive force on its output, N                                             */
    MECH_DOCK_CH_DRIVE_CMD,        /* drive command: 0 off (clutches locked), 1 retract, 2 extend              */
    MECH_DOCK_CH_SEQ_STATE,        /* sequencer state (enum mech_dock_seq_state)                               */
    MECH_DOCK_CH_PLANE_GAP,        /* docking-plane gap on the axis, m                                         */
    MECH_DOCK_CH_PUSHER_F,         /* |separation pushers' total force|, N                                     */
    MECH_DOCK_CH_PUSHER_N,         /* pushers touching                                                         */
    MECH_DOCK_CH_PLANE_F,          /* docking-plane contact force, N                                           */
    MECH_DOCK_CH_ROLLER_F1, MECH_DOCK_CH_ROLLER_F2, MECH_DOCK_CH_ROLLER_F3,   /* roller forces, N               */
    MECH_DOCK_CH_ROLLER_N,         /* rollers touching the cone                                                */
    MECH_DOCK_CH_PAD_F,            /* the fixed limiter's pads on the cone wall (retraction), sum, N           */
    MECH_DOCK_CH_COVER_X,          /* stand option: hatch-cover deflection, towards the passive vehicle +, m   */
    MECH_DOCK_CH_E_DRIVE,          /* work of the drive's motors (an input), J                                 */
    MECH_DOCK_CH_E_DRIVE_STORED,   /* drive stiffness energy + output kinetic energy + its damping, J          */
    MECH_DOCK_CH_LIMITER_X,        /* variant C: limiter stroke XLimD from its forward position (pushed back +), m */
    MECH_DOCK_CH_LIMITER_GUIDE_F,  /* variant C: guide friction on the limiter along its travel (pushed back +), N */
    /* the docked state (issue 44): what the sequencer and the fault monitor test, checkable from the history */
    MECH_DOCK_CH_REL_TILT,         /* angle between the docking axes, atan2(hypot(R_rel[1][0], R_rel[2][0]),
                                      R_rel[0][0]) (R_rel above), rad                                            */
    MECH_DOCK_CH_ROD_GAP1, MECH_DOCK_CH_ROD_GAP2, MECH_DOCK_CH_ROD_GAP3, MECH_DOCK_CH_ROD_GAP4,
                                   /* gap at pusher rod i (1..4, pushers.n of them; NAN past n): from the rod's
                                      base on the active plane along the active docking axis to the passive plane,
                                      m (< 0: the planes overlap there; NAN: the planes do not face each other;
                                      0 without a process)                                                         */
    MECH_DOCK_CH_ROD_GAP_MAX,      /* the largest of the n rods' gaps: the sequencer's "closed" test, m           */
    MECH_DOCK_CH_DRIVE_X,          /* drive: motor side at the probe (retraction positive), m                     */
    MECH_DOCK_CH_DRIVE_V,          /* motor-side speed, m/s                                                       */
    MECH_DOCK_CH_DRIVE_MOTORS,     /* motors running (0 off: stop clutches locked, 1, 2)                         */
    MECH_DOCK_CH_DRIVE_LIMIT,      /* 1 while the motors stand at their torque limit                              */
    MECH_DOCK_CH_FAULT,            /* the fault monitor: 0 none, else the fault that tripped
                                      (enum mech_dock_fault_kind)                                                  */
    /* the structural hooks and the docked state (issue 44; docs/dock-process.md §9) */
    MECH_DOCK_CH_HOOK_F1, MECH_DOCK_CH_HOOK_F2,    /* tension of the hook pairs (links 2j, 2j + 1), N              */
    MECH_DOCK_CH_HOOK_F3, MECH_DOCK_CH_HOOK_F4,
    MECH_DOCK_CH_HOOKS_LOCKED,     /* links locked                                                             */
    MECH_DOCK_CH_HOOK_JAW,         /* mean jaw position of the engaged links (capture_range before the start), m */
    MECH_DOCK_CH_DOCKED_UNMET,     /* the docked state's unmet conditions (MECH_DOCK_DOCKED_* bits; 0: docked)  */
    MECH_DOCK_NCH
};
#define MECH_DOCK_CH_PROCESS_FIRST MECH_DOCK_CH_DRIVE_U
// (channel) => its CSV name ("head_fx") and unit ("N"); NULL for an index out of range
const char *mech_dock_channel_name(int ch);
const char *mech_dock_channel_unit(int ch);
// (name) => channel index, or -1
int mech_dock_channel_find(const char *name);

/* ---- what a run reports (updated at every accepted step) ----------------------------------------------- */
typedef struct mech_dock_summary {
    int    captured;            /* 1 once the capture condition held                                          */
    double capture_time;        /* s (NAN when not captured)                                                  */
    int    failed;              /* 1: no capture by params.capture_timeout ("failure to dock")                */
    int    cone_contacts;       /* head-cone contact episodes before capture                                  */
    double first_contact_time;  /* first contact of any pair, s (NAN: none)                                   */
    double peak_axial;          /* max |head axial force|, N                                                  */
    double peak_lateral;        /* max lateral head force, N                                                  */
    double peak_limiter;        /* max limiter-pad force, N                                                   */
    double limiter_tilt;        /* relative tilt at the first limiter contact, rad (NAN: no contact)          */
    double stroke_max;          /* max probe push-in, m                                                       */
    double swing_max;           /* max housing swing, rad                                                     */
    double e_initial;           /* initial kinetic energy, J                                                  */
    double e_residual_max;      /* max |energy residual| over the run, J                                      */
    mech_vec3 momentum0, momentum;  /* total linear momentum at t = 0 and now, cone frame, kg m/s             */
    mech_vec3 ang_momentum0, ang_momentum; /* total angular momentum about the cone-frame origin, kg m^2/s   */
    double latch_time[4];       /* when each latch engaged its stop (its tip past the capture plane, at or after
                                   capture), s; NAN: still folded in the bore (docs/dock.md §3)               */
    /* The docked state's measures (issue 44, RP-2 design study; docs/dock-process.md §8.6), at accepted steps */
    double tilt_max;            /* largest relative tilt of the docking axes from capture to the end, rad (NAN: no
                                   capture)                                                                    */
    double tilt_end;            /* relative tilt at the end of the run, rad                                    */
    double roll_closed;         /* relative roll of the vehicles (channel rel_roll) when the planes closed (the
                                   sequencer entered "closed"), rad (NAN: never)                               */
    double latch_roll_closed;   /* the latches' roll error in their slots then (4-fold: within +-45 deg), rad  */
    int    latches_closed;      /* latches bearing on their stops then, 0-4 (-1: never closed)                */
    double latches_all_time;    /* first time all four latches bore on their stops at once, s (NAN: never)     */
    double limiter_clearance;   /* at capture: the smallest radial clearance of the limiter's larger base to the
                                   cone wall (to the rim circle where it is above the rim plane), m; < 0 touches */
    double limiter_lead;        /* variant C: the movable limiter's first touch minus the capture time, s (< 0:
                                   before capture; NAN: no touch or no capture)                                */
    double frt1_restored;       /* B, C: FrT1's slip given back after capture (its slip decreasing), m         */
    double frt1_pusher_share;   /* of the slip given back while the pushers / the closed planes or only the
                                   limiter's pads bore, the pushers' share (0-1; NAN: none): spec 001 §5.2, Fig. 15
                                   fragment 3 says all of it (the drive's tow alone is in frt1_restored only)   */
    double restore_t0, restore_t1;          /* first and last accepted step that gave FrT1's slip back while the
                                               pushers, the planes or the limiter held the probe, s               */
    double restore_gap_max, restore_gap_min;/* docking-plane gap on the axis over those steps, m                */
    double slip1_prev;          /* (bookkeeping: FrT1's slip at the last accepted step; the slip given back with
                                   the pushers or planes bearing, and with only the limiter's pads, m)         */
    double restore_w_push, restore_w_lim;
} mech_dock_summary;

/* A two-projection view of the mechanism in the cone (spec 001 §4.1): key points in the cone frame. */
typedef struct mech_dock_pose_view {
    mech_vec3 uj, bend, head;       /* UJ centre, bending-joint centre, head centre, m                          */
    mech_vec3 limiter0, limiter1;   /* centres of the limiter's larger and smaller bases, m                      */
    mech_vec3 housing_axis;         /* unit housing axis                                                        */
    mech_vec3 active_port;          /* centre of the active docking plane, m                                    */
    mech_vec3 active_axis;          /* unit docking axis of the active vehicle (towards the passive)            */
    mech_vec3 active_ey;            /* the active plane frame's unit y axis: with active_axis (x) and their cross
                                       product (z) the frame the hooks' bases are fixed in (mech/dock_hooks.h)    */
    /* the whole process (params.process.enabled): the lever rollers' centres, the levers' pivots on the housing
       (each arm is the segment pivot -> roller) and the pusher rods (base on the active plane, tip at the stroke or
       on the passive plane) */
    int       n_roller, n_pusher;
    double    roller_radius;
    mech_vec3 roller[4], lever_pivot[4];
    mech_vec3 pusher_base[8], pusher_tip[8];
    /* the structural hooks (issue 44; mech/dock_hooks.h): each link's point on the active plane and its catch on
       the passive plane (where the jaw holds it once engaged, else its place in the docked pose), the link's state
       (enum mech_dock_hook_state) */
    int       n_hook;
    mech_vec3 hook_base[8], hook_catch[8];
    int       hook_state[8];
    double    hook_tension[8];        /* each link's tension (spring + damping, the history's hook_f pairs), N  */
    /* the latches' tips (RP-1 §2.2: 4 at latch_radius from the head centre, in the latch frame) and the half-width
       of the slots (cone-frame azimuths k 90 deg) where the head is: the entry's above the capture plane, narrowing
       to the stops (docs/dock.md §3) */
    mech_vec3 latch_tip[4];
    double    slot_half;              /* rad                                                                    */
} mech_dock_pose_view;

/* ---- simulation --------------------------------------------------------------------------------------- */
typedef struct mech_dock_sim mech_dock_sim;
// (model) => simulation at t = 0 with the params' initial conditions, every element at rest (allocates here
// only). Fails when the initial state already penetrates (HY_EMODEL naming the pair)
int mech_dock_sim_new(const mech_dock_model *m, mech_dock_sim **out, hy_err *err);
void mech_dock_sim_free(mech_dock_sim *s);
/* (sim) => one accepted RK4 step of params.h (split into substeps where its stages show a mode h cannot resolve:
 * docs/dock.md §6), or with params.tol > 0 one accepted error-controlled step (its length chosen by the error
 * estimate, the stiffness ceiling and the contact events, §6b): stages evaluate trials, the accepted state commits. On failure (a
 * NaN, a hysteresis state-machine violation, a penetration deeper than the geometry allows) the state stays at
 * the last accepted step and err says "t = 1.2345 s: <element or contact>: <what>; hint: <e.g. halve the step
 * (h = ...)>" (HY_ESTATE or HY_ENUMERIC). Allocates nothing. */
int mech_dock_sim_step(mech_dock_sim *s, hy_err *err);
double mech_dock_sim_time(const mech_dock_sim *s);
unsigned long mech_dock_sim_steps(const mech_dock_sim *s);
// (sim) => channel values at the last accepted state (MECH_DOCK_NCH doubles, index = enum mech_dock_channel)
const double *mech_dock_sim_channels(const mech_dock_sim *s);
// (sim, element) => its committed displacement q (SI), force Q (SI), branch state code, work booked so far (J,
// the trapezoid sum of Q dq over the accepted steps, the same sum `hyst loops` makes over the record)
void mech_dock_sim_element(const mech_dock_sim *s, int el, double *q, double *Q, int *state, double *work);
const mech_dock_summary *mech_dock_sim_summary(const mech_dock_sim *s);
void mech_dock_sim_view(const mech_dock_sim *s, mech_dock_pose_view *v);

/* ==== sub-models, usable on their own ======================================================================= */

/* ---- axial damper (eq. 2.1): state phi_Nut, dphi_Nut integrated by the caller; hysteresis and slip states
 * inside with trial / commit / revert. Probe stroke s = phi_Nut / i_Nut (push-in positive). ---------------- */
typedef struct mech_dock_axial mech_dock_axial;
typedef struct mech_dock_axial_out {
    double phidd;        /* nut angular acceleration, rad/s^2                                                  */
    double force;        /* resisting force of the chain at the probe (m_FR i_Nut expressed as a force), N     */
    double f_magnetic;   /* magnetic-brake force at the probe (A), N, opposing the stroke rate                 */
    double f_screw;      /* screw-friction loss at the probe, N                                                */
    double f_damping;    /* structural damping c_D,FR * stroke rate, N                                         */
    double f_stop;       /* stroke hard-stop force, N                                                          */
    double slip1, slip2; /* A: brake slip (table shift), 0; B: FrT1 and FrT2 slips, m                          */
    double q_el, Q_el;   /* the hysteretic element's displacement (m) and force (N) (A: chain, B: gear train)  */
    int    state_el;     /* its branch state code                                                              */
    /* dissipated power, W (>= 0 except the elastic parts): friction brakes, magnetic, damping (c_D, the stop) */
    double p_brakes, p_magnetic, p_damping;
    double e_stop;       /* elastic energy in the stroke stop, J                                               */
    double p_screw;      /* power into the screw friction, W: its stick spring's rate of energy + its dissipation */
    double e_screw;      /* elastic energy in the screw friction's stick spring, J                             */
} mech_dock_axial_out;
// (params, variant) => RP-1 §2.5 values (law model pointers NULL; magnetic table filled for A)
void mech_dock_axial_params_rp1(mech_dock_axial_params *p, int variant);
// (params) => model + state at rest (stroke 0; allocates here only)
int mech_dock_axial_new(const mech_dock_axial_params *p, mech_dock_axial **out, hy_err *err);
void mech_dock_axial_free(mech_dock_axial *a);
// (i_Nut) => 2 pi / lead
double mech_dock_axial_ratio(const mech_dock_axial *a);
/* (committed state, phi_Nut, dphi_Nut, head axial force f (N, push-in positive = the paper's -f_H^E(1))) =>
 * trial of every element and the nut acceleration of eq. (2.1). HY_ESTATE with err naming the element on a
 * state-machine violation. Never changes the committed state. */
int mech_dock_axial_trial(mech_dock_axial *a, double phi, double phid, double f_head, mech_dock_axial_out *o,
                          hy_err *err);
void mech_dock_axial_commit(mech_dock_axial *a);
void mech_dock_axial_revert(mech_dock_axial *a);

/* ---- lateral damper (eqs. 2.3, 2.4): chain coordinates by analytic loop closure from the housing attitude;
 * the spring hysteresis elements with trial / commit / revert. ----------------------------------------------- */
typedef struct mech_dock_lateral mech_dock_lateral;
typedef struct mech_dock_lateral_out {
    mech_mat3 dI;            /* ΔI_C: chain inertia reduced to the housing, housing frame, about the UJ, kg m^2  */
    mech_vec3 dm_bias;       /* inertial bias part of Δm_C^Σ: -Σ H_k^T A_k h_k (and velocity products), N m;
                                with the housing's absolute rate ω_H (trial_abs) the bias of ½ ω_Hᵀ ΔI_C ω_H
                                (docs/dock-lateral.md §4a), dm_couple included                          */
    mech_vec3 dm_couple;     /* the part of dm_bias from ΔI_C's dependence on the relative attitude: it acts
                                between housing and base (the base receives the opposite), housing frame, N m */
    mech_vec3 moment;        /* moment of the chains' active forces on the housing about the UJ, housing frame,
                                N m (the base receives the opposite moment: internal forces)               */
    double stroke[MECH_DOCK_NCHAIN];  /* spring rod strokes (m), brake input-link angles (rad) from neutral  */
    double rate[MECH_DOCK_NCHAIN];    /* their rates                                                          */
    double force[MECH_DOCK_NCHAIN];   /* spring rod forces (N, compression positive), brake moments (N m)     */
    double p_magnetic;       /* power dissipated by the two brakes, W (>= 0)                                   */
    double e_stops;          /* elastic energy in the hard stops and brake-angle stops, J                      */
    int    state[2];         /* spring elements' branch state codes                                           */
} mech_dock_lateral_out;
// (params, variant) => RP-1 §2.6 chain geometry and laws for the UJ location of the variant (A: in the housing;
// B: moved down into the base, chains re-oriented; spec 001 §5.2); the spring law's model pointer NULL
void mech_dock_lateral_params_rp1(mech_dock_lateral_params *p, int variant);
// (params, UJ placement of the variant is in the params' attachment points) => model + state at rest
int mech_dock_lateral_new(const mech_dock_lateral_params *p, mech_dock_lateral **out, hy_err *err);
void mech_dock_lateral_free(mech_dock_lateral *l);
/* (committed state, housing attitude: passive rotation base -> housing alpha_C, housing angular velocity
 * relative to the base omega_C (housing frame, rad/s)) => trial of the spring elements and the reduction of
 * eq. (2.4). HY_ESTATE naming the chain when the loop cannot close (the geometry left its workspace). */
int mech_dock_lateral_trial(mech_dock_lateral *l, const mech_mat3 *alpha_C, mech_vec3 omega_C,
                            mech_dock_lateral_out *o, hy_err *err);
/* The same with the housing's absolute angular velocity omega_H (housing frame) when the base turns too: the
 * chains' inertia ΔI_C rides on the housing (spec 001 §2.3 adds it to M_rr,2), their kinetic energy is
 * ½ omega_Hᵀ ΔI_C omega_H and dm_bias is its bias, so that the angular momentum Σ bodies + R_H ΔI_C omega_H is
 * conserved exactly under internal forces (docs/dock-lateral.md §4a). The caller applies moment + dm_bias (+ its
 * ΔI_C) to the housing and -(moment + dm_couple) to the base. trial() is trial_abs() with omega_H = omega_C. */
int mech_dock_lateral_trial_abs(mech_dock_lateral *l, const mech_mat3 *alpha_C, mech_vec3 omega_C,
                                mech_vec3 omega_H, mech_dock_lateral_out *o, hy_err *err);
void mech_dock_lateral_commit(mech_dock_lateral *l);
void mech_dock_lateral_revert(mech_dock_lateral *l);

/* ==== configuration file ("mech-dock" scenario JSON; io/dock_json.c; docs/dock.md lists every key) ======== */
#define MECH_DOCK_PATH_LEN 1024
enum mech_dock_law_slot { MECH_DOCK_LAW_CHAIN = 0, MECH_DOCK_LAW_GEAR, MECH_DOCK_LAW_SPRING, MECH_DOCK_LAW_BENDING,
                          MECH_DOCK_LAW_TORSION, MECH_DOCK_LAW_COVER, MECH_DOCK_NLAW };
/* outputs.events (docs/dock-scenarios.md): rows also, or only, at the steps where a contact flag or capture
 * changes or a hysteretic element changes branch; outputs.format: CSV files, one HDF5 log, or both */
enum { MECH_DOCK_EVENTS_NONE = 0, MECH_DOCK_EVENTS_ALSO, MECH_DOCK_EVENTS_ONLY };
enum { MECH_DOCK_FORMAT_CSV = 0, MECH_DOCK_FORMAT_H5, MECH_DOCK_FORMAT_BOTH };
typedef struct mech_dock_config {
    mech_dock_params params;
    char     law_path[MECH_DOCK_NLAW][MECH_DOCK_PATH_LEN];  /* resolved model-file paths ("" = unused)        */
    hy_model laws[MECH_DOCK_NLAW];                          /* loaded by mech_dock_config_load               */
    /* outputs */
    char   out_dir[MECH_DOCK_PATH_LEN];     /* output folder (resolved)                                        */
    double out_rate;                        /* CSV rows per second (0: every step)                             */
    double out_records_rate;                /* element-record rows per second (0: every step)                  */
    int    out_events;                      /* rows at events: MECH_DOCK_EVENTS_NONE / _ALSO / _ONLY           */
    int    out_format;                      /* MECH_DOCK_FORMAT_CSV / _H5 / _BOTH                              */
    int    out_compression;                 /* deflate level of log.h5 (0: none; default 1)                     */
    int    nchannel;                        /* chosen channels (0: all)                                        */
    int    channel[MECH_DOCK_NCH];
    int    records;                         /* 1: write the t, q, Q record of every element                   */
    int    plots;                           /* 1: gnuplot figures                                              */
    double view_times[16]; int nview;       /* two-projection views at these times                             */
    int    animation;                       /* 1: animated GIF                                                 */
} mech_dock_config;
void mech_dock_config_default(mech_dock_config *c);
// (law slot) => its key under "laws" ("chain", "gear", "spring", "bending", "torsion", "cover"); NULL out of range
const char *mech_dock_law_key(int slot);
// (dotted scenario key, "initial.closing_speed", "vehicles.active.inertia.1") => its unit ("m/s", "kg m^2", "" for a
// number without one); NULL for a key the table does not hold (a string, a section)
const char *mech_dock_key_unit(const char *path);
/* (JSON text[len], name for messages, folder relative paths resolve against or NULL) => configuration (model
 * files only named). Errors name the file and the key ("s1.json: initial.closing_speed: ..."), or line:column
 * of malformed JSON. Never touches the file system. */
int mech_dock_config_parse(const char *text, size_t len, const char *name, const char *dir, mech_dock_config *c,
                           hy_err *err);
// (parsed configuration) => model files read, family/kind/unit checks, law pointers set in params
int mech_dock_config_load(mech_dock_config *c, const char *name, hy_err *err);
int mech_dock_config_read(const char *path, mech_dock_config *c, hy_err *err);
void mech_dock_config_free(mech_dock_config *c);
/* (configuration) => "mech-dock" JSON text (malloc'd, caller frees; NULL on failure) with every key the parser
 * reads, paths printed resolved: mech_dock_config_parse(text, .., dir NULL, ..) gives the same configuration back
 * (the fuzz harness checks it) */
char *mech_dock_config_print(const mech_dock_config *c, hy_err *err);
/* (JSON text[len], name for messages, folder relative law paths resolve against or NULL) => a configuration on
 * the heap, parsed and with its laws loaded (for callers that cannot embed the struct: the Python bindings). The
 * model made from its params points into it: delete the configuration after the model. */
int mech_dock_config_new(const char *text, size_t len, const char *name, const char *dir, mech_dock_config **out,
                         hy_err *err);
void mech_dock_config_delete(mech_dock_config *c);
const mech_dock_params *mech_dock_config_params(const mech_dock_config *c);
/* (parsed configuration, duration in s) => params.duration replaced, as `mech dock --duration` does after parsing:
 * the file's own checks against its duration (outputs.view_times) are not redone, times past the new duration are
 * simply never reached. Call before mech_dock_model_new. HY_EARG when duration < 0 or over 1e8 steps. */
int mech_dock_config_set_duration(mech_dock_config *c, double duration, hy_err *err);


/* ==== additions ============================================================================================== */
/* (params, speed bracket lo < hi in m/s, tolerance tol in m/s) => the capture-speed threshold: the smallest closing
 * speed init.closing_speed that captures, by bisection (scenario S4a; each trial runs until capture, until the
 * vehicles separate with no contact left, or until params.capture_timeout). *v = the midpoint of the last bracket.
 * HY_EDATA when hi does not capture or lo does; a failing run's error otherwise. */
int mech_dock_capture_speed(const mech_dock_params *p, double lo, double hi, double tol, double *v, hy_err *err);
// (sim) => accepted RK4 steps so far: the steps of h plus the substeps a step takes where its stages show a mode
// faster than h resolves (docs/dock.md §6); equals mech_dock_sim_steps when no step was refined
unsigned long mech_dock_sim_substeps(const mech_dock_sim *s);
/* (sim, n, hist[n][MECH_DOCK_NCH] or NULL, rec[n][MECH_DOCK_NEL][2] or NULL) => up to n accepted steps, fewer when
 * the run ends (mech_dock_sim_done: the duration, or the end of the whole process); after step
 * i the channels go to hist row i and each element's committed (q, Q) to rec[i][el]; *done = steps taken. Stops at
 * the first failing step (its code and err, as mech_dock_sim_step). Allocates nothing. */
int mech_dock_sim_run(mech_dock_sim *s, size_t n, double *hist, double *rec, size_t *done, hy_err *err);

/* the recommended integration.tolerance (docs/dock.md §6b: every shipped scenario within 1 % of a converged run at
 * 1e-8, tests/unit/test_dock_adaptive.c) */
#define MECH_DOCK_TOL_DEFAULT 1e-6
/* the longest step, s: error-controlled steps never exceed it (so a run of duration T takes at least T / 0.01 steps)
 * and the fixed step must not (mech_dock_params_check) */
#define MECH_DOCK_H_MAX 0.01

/* What the integrator did so far (docs/dock.md §6, §6b). */
typedef struct mech_dock_sim_stats {
    unsigned long steps;      /* accepted steps (fixed: RK4 steps including substeps)                              */
    unsigned long rejected;   /* error-controlled: trial steps thrown away (error above tolerance, a stage refused) */
    unsigned long events;     /* error-controlled: steps shortened to end on a contact onset or separation or on
                                 the capture plane                                                                 */
    unsigned long evals;      /* evaluations of the right-hand side (every element's trial, every contact set)     */
    unsigned long impacts;    /* error-controlled: located events at which contacts began (one however many pairs
                                 touch at once), each followed by steps under the impact ceiling (docs/dock.md §6b);
                                 the limiter's stick and slide events are not contacts and not counted             */
    double h_min, h_max;      /* shortest and longest accepted step, s                                             */
    double h_last;            /* last accepted step, s                                                             */
    double onset_depth_max;   /* error-controlled: deepest penetration of a contact pair at the first accepted state
                                 that sees it touch, m (with events: at most the closing speed times 1e-7 s; 0 when
                                 nothing touched; fixed steps: 0, not tracked)                                       */
} mech_dock_sim_stats;
void mech_dock_sim_stats_get(const mech_dock_sim *s, mech_dock_sim_stats *st);
// (sim) => 1 once the run reached params.duration (fixed: round(duration / h) steps of h; error-controlled: the
// last step ends on the duration exactly). The one loop that steps to it is mech_dock_run (below).
int mech_dock_sim_done(const mech_dock_sim *s);
// (sim) => the model it simulates
const mech_dock_model *mech_dock_sim_model(const mech_dock_sim *s);

/* ==== the one run function (issue 43 D1; docs/dock.md §6c) =================================================== *
 * Every front end steps a docking run through mech_dock_run: `mech dock` (its per-step outputs in on_step, progress
 * and interruption through its return value), `mech sweep` (no hooks: a row is by construction `mech dock`'s run)
 * and the Python bindings (mech_dock_sim_run above, and DockSim.step as a run of at most one step). It is the only
 * caller of mech_dock_sim_step outside the simulation's own files (dock_capture_speed.c's bisection). */
typedef struct mech_dock_run_opts {
    unsigned long max_steps;  /* 0: no limit; else stop after this many accepted steps of this call              */
    int stop_at_capture;      /* 1: stop at the first step that captures, or at params.capture_timeout           */
    /* after each accepted step (not before the first: the caller sees the initial state itself); a non-zero
       return stops the run there (MECH_DOCK_RUN_STOPPED), e.g. on an interruption or an output error */
    int (*on_step)(void *ctx, const mech_dock_sim *s);
    void *ctx;
} mech_dock_run_opts;
enum mech_dock_run_end {
    MECH_DOCK_RUN_END = 0,      /* the run's end: mech_dock_sim_done (the duration, or the end of the process)      */
    MECH_DOCK_RUN_MAX_STEPS,    /* opts.max_steps steps taken                                                        */
    MECH_DOCK_RUN_CAPTURE,      /* opts.stop_at_capture: captured or at the capture timeout                         */
    MECH_DOCK_RUN_STOPPED,      /* on_step returned non-zero                                                         */
    MECH_DOCK_RUN_FAILED        /* a step failed (err, the return code); the state is the last accepted step's      */
};
/* (model, its simulation, options or NULL (to the end, no hooks)) => accepted steps until the run's end or an
 * option stops it; *end (may be NULL) says why, *steps (may be NULL) how many steps this call took. Returns HY_OK,
 * or the failing step's code with err ("t = ... s: <element or contact>: <what>; hint: ..."). HY_EARG when s does
 * not simulate m. Allocates nothing. */
int mech_dock_run(const mech_dock_model *m, mech_dock_sim *s, const mech_dock_run_opts *o, int *end,
                  unsigned long *steps, hy_err *err);

#endif

/* Internals of the probe-cone docking simulator (mech/dock.h): the compiled model, the contact sets of the passive
 * and active units, the probe compliance helpers and the simulation state. docs/dock.md explains the choices. */
#ifndef MECH_DOCK_INTERNAL_H
#define MECH_DOCK_INTERNAL_H

#include "mech/dock.h"
#include "mech/body.h"
#include "mech/contact.h"
#include "mech/dock_process.h"
#include "mech/dock_hooks.h"
#include "mech/dock_rollguide.h"

/* Body ids of the tree (spec 001 §1.6) and of the passive vehicle (free body 0), without the stand option; with it
 * the hatch cover is body 1 (a prismatic joint between the base and the UJ) and every later id is one more: the
 * simulation reads the ids from mech_dock_model.b. */
enum { DOCK_B_BASE = 0, DOCK_B_UJ1 = 1, DOCK_B_HOUSING = 2, DOCK_B_TORSION = 3, DOCK_B_BEND4 = 4, DOCK_B_PROBE = 5,
       DOCK_B_PASSIVE = 6, DOCK_NBODY = 7 };
typedef struct dock_ids {
    int cover;                       /* the hatch cover (stand option), -1 without                                  */
    int housing, probe, passive;     /* body ids                                                                    */
    int j0;                          /* index of q1 (the UJ's first joint) in the joint coordinates: 0 or 1        */
    int limiter;                     /* variant C: the movable limiter (the housing's second child), -1 without    */
    int pads;                        /* the body that carries the limiter's pads: the housing, or the limiter (C)  */
} dock_ids;
#define DOCK_C_GUIDE_BACK 0.06       /* m: variant C's guide centre (and CoM) behind the limiter's larger base      */

/* Contact bodies (indices into the kinematics array given to mech_contact_eval; not the tree's ids):
 *   HEAD    the head frame: origin at the head centre (x = L_Pr(t) on body 5), body 5's axes, velocity of the head
 *           material (body 5's point velocity minus the stroke rate along the probe axis)
 *   LATCH   the head frame turned by the tip-angle correction A_HS (spec 001 §2.6): latches and sensors
 *   HOUSING the body that carries the limiter pads: body 2, or the movable limiter (variant C)
 *   PASSIVE the passive vehicle (free body; its frame origin is its CoM) */
enum { DOCK_CB_HEAD = 0, DOCK_CB_LATCH = 1, DOCK_CB_HOUSING = 2, DOCK_CB_PASSIVE = 3, DOCK_NCB = 4 };

/* Contact sets, evaluated only when a cheap bounding check says they may touch (docs/dock.md §contacts). */
enum { DOCK_SET_CONE = 0,    /* head-cone (wall, rim, throat edge)                                           */
       DOCK_SET_SOCKET,      /* head-socket bore                                                             */
       DOCK_SET_BOTTOM,      /* head-bottom disc                                                             */
       DOCK_SET_LATCH,       /* 4 latch tips on the stop plane (after capture only)                          */
       DOCK_SET_LIMITER,     /* limiter pads on the rim circle                                               */
       DOCK_NSET };

/* Passive-unit geometry along the cone axis, in the cone frame (x = 0 at the passive docking plane). */
typedef struct dock_geom {
    double rim_x, rim_r;       /* entry rim plane and radius                                                      */
    double cone_depth;         /* rim -> throat                                                                   */
    double throat_x;           /* throat plane                                                                    */
    double stop_x;             /* stop plane (the latches rest on it from below after capture)                    */
    double capture_x;          /* head-centre x at capture: stop_x - detent_travel                                */
    double bottom_x;           /* socket bottom face                                                              */
    double head_bottom_x;      /* head-centre x at bottom contact (bottom_x + head radius)                        */
    double detent_ramp;        /* width of the detent force's rise and fall (centred on stop_x and capture_x), m  */
    mech_vec3 cone_origin;     /* cone-frame origin in the passive vehicle's body frame (CoM origin)              */
} dock_geom;

struct mech_dock_model {
    mech_dock_params    p;
    mech_body_model    *bm;
    mech_contact_model *set[DOCK_NSET];
    dock_geom           g;
    double              i_nut;          /* 2 pi / lead                                                        */
    double              slot_hc_s;      /* Hunt-Crossley s(e) of the slot-face law (contact.head_bottom),
                                           solved once here rather than in every stage                     */
    mech_vec3           passive_com;    /* passive CoM in the cone frame at t = 0                             */
    mech_dock_cam      *cam;            /* the alignment cam's table (process.cam_on), NULL otherwise         */
    dock_ids            b;              /* body ids and the first mechanism joint (the stand option shifts them) */
    mech_vec3           rod_base[MECH_DOCK_PUSHER_MAX]; /* pusher rods on the active plane, active-plane frame   */
    mech_vec3           pad_pt[3 * 8];  /* limiter pad points (DOCK_NPAD_PT), housing frame (process)         */
    double              cone_tan;       /* tan of the receiving cone's half angle (process: pads, rollers)     */
};

/* ---- dock_geom.c ---- */
// (params) => the passive unit's axial stations (closed forms of RP-1 §2.2)
void dock_geom_compute(const mech_dock_params *p, dock_geom *g);
// (params, geometry) => the contact sets (pairs in the contact bodies above)
/* the lightest effective mass a contact drives: the head across the probe (the probe's inertia about its bending
 * joint over the probe length squared, ~5 kg) or along it (the nut chain's m_eq, 50 kg); the mass of the contact
 * sets' damping cap (mech_contact_law.c_mass) and of the step's contact ceiling (dock_step_adaptive.c) */
double dock_contact_mass(const mech_dock_params *p);
int dock_geom_contacts(const mech_dock_params *p, const dock_geom *g, mech_contact_model *set[DOCK_NSET], hy_err *err);
// (geometry, detent force F, head-centre x in the cone frame) => push-out force (N) and its potential (J): a
// constant F between stop_x and capture_x, with linear rise/fall of width `ramp` centred on both ends (work F * travel)
double dock_detent(const dock_geom *g, double F, double x, double *energy);
// (geometry, u = head-centre distance below the stop plane) => allowed latch roll half-width after capture and its
// slope dw/du: the entry half-width at the capture plane (u = detent_travel), narrowing to the stop plane (u = 0),
// both corners rounded over DOCK_SLOT_FILLET (w and dw/du continuous)
#define DOCK_SLOT_FILLET 5e-4   /* m of u: the length of each corner's rounding */
double dock_slot_width(const mech_dock_geometry *gm, double u, double *dw_du);

/* ---- dock_measure.c: the docked state's measures (issue 44; docs/dock-process.md §8.6) ---- */
typedef struct dock_measure_in {
    double t;
    int    first;              /* the initial state (no previous step)                                         */
    int    captured, capture_now;  /* captured at this state; capture happened at this step                     */
    double tilt;               /* relative tilt of the docking axes, rad                                        */
    double rel_roll;           /* relative roll of the vehicles (channel rel_roll), rad                         */
    double latch_roll;         /* the latches' roll error in the slots, rad                                     */
    int    n_latch;            /* latches bearing on their stops                                                */
    int    closed_now;         /* the sequencer entered "closed" at this step                                   */
    double limiter_clearance;  /* at capture (capture_now): dock_limiter_clearance of the larger base, m        */
    double limiter_first;      /* variant C: the movable limiter's first touch, s (NAN: none)                   */
    double slip1;              /* B: FrT1's slip, m (0 otherwise)                                               */
    double f_pusher;           /* pushers + docking-plane contact, N                                            */
    double f_limiter;          /* the limiter's pads on the cone (rim and wall), N                              */
    double gap;                /* docking-plane gap on the axis, m                                              */
} dock_measure_in;
#define DOCK_CLEAR_N 72        /* points on the limiter's larger-base circle for its clearance                  */
void dock_measure_init(mech_dock_summary *S);
void dock_measure_account(mech_dock_summary *S, const dock_measure_in *in);
// (geometry, larger-base centre and housing axis in the cone frame, its radius) => the smallest radial clearance of
// the circle to the cone wall (to the rim circle above the rim plane, to the throat radius below the cone), m
double dock_limiter_clearance(const mech_dock_geometry *gm, mech_vec3 c, mech_vec3 axis, double r0);

/* ---- dock_probe.c ---- */
// (q4, q5, tip factor) => active rotation head frame -> latch frame (A_HS^T of spec 001 §2.6, +sin b)
mech_mat3 dock_probe_ahs(double q4, double q5, double tip_factor);
// (law, element, q SI, qdot SI, extra scale) => generalized force SI (trial); HY_ESTATE/ERANGE with diag. The
// trial of every law element the simulation drives by itself: the probe's torsion and bending, the stand's cover
int dock_law_trial(const mech_dock_law *law, hy_element *el, double q, double qdot, double scale, double *Q,
                   hy_diag *diag);

/* ---- dock_proc.c: loads of the whole process (docs/dock-process.md §8) ---- */
#define DOCK_PAD_PTS 3                       /* points along each limiter pad's larger-base arc           */
#define DOCK_NPAD_PT (8 * DOCK_PAD_PTS)       /* up to 8 pads                                              */
#define DOCK_PAD_SPHERE 0.005                /* m: the pad points are spheres of this radius, their surface on the
                                                pad's edge                                                   */
/* the stick anchor of one movable-limiter pad point on the cone wall (variant C; docs/dock-process.md §8.5): the
   contact module's tangential law (mech_contact_law kt, ct, mu_s, mu_k) with trial / commit, as its sets keep it */
typedef struct dock_pad_anchor {
    mech_vec3 a, b;           /* the anchor on the pads' body and on the passive vehicle, each body's frame, m    */
    int       touching;       /* the point touched the wall at this state                                        */
    int       sliding;        /* it slid (kinetic friction) at this state                                        */
} dock_pad_anchor;
typedef struct dock_proc_eval {
    mech_dock_drive_out  drv;                          /* the drive's trial                                     */
    double               u, w, udd;                    /* drive output (m at the probe), its rate, acceleration */
    mech_dock_pusher_out push;                         /* the separation pushers                                */
    double    rod_gap[MECH_DOCK_PUSHER_MAX];           /* rod length to the passive plane, m (< 0: planes meet) */
    double    gap;                                     /* docking-plane gap on the axis, m                      */
    double    gap_rods;                                /* the largest gap at the rods: the planes are flush
                                                          when it is small (the sequencer's "closed"), m         */
    double    f_pusher;                                /* |pushers' total force|, N                             */
    double    f_plane;                                 /* sum of the plane-contact forces, N                    */
    int       n_plane;                                 /* rods where the planes touch                           */
    double    roller_f[MECH_DOCK_NLEVER_MAX];          /* roller force magnitudes, N                            */
    double    roller_depth[MECH_DOCK_NLEVER_MAX];      /* roller penetration of the cone, m (< 0: apart)        */
    int       n_roller;                                /* rollers touching                                      */
    double    f_nut;                                   /* the rollers' load on the nut as a push-in force, N    */
    double    f_end;                                   /* the fully-retracted end stop's force, N               */
    double    pad_depth[DOCK_NPAD_PT];                 /* limiter pad points in the cone wall, m (< 0: apart)   */
    dock_pad_anchor pad_trial[DOCK_NPAD_PT];           /* C: the pad points' stick anchors at this state (trial) */
    double    f_pad;                                   /* sum of the pad-wall forces, N                         */
    int       n_pad;                                   /* pad points touching the wall                          */
    double    pad_f_net;                               /* |resultant of the pad-wall forces on the pads|, N     */
    double    pad_m_uj;                                /* |its moment about the UJ centre across the housing
                                                          axis| (the lateral dampers' share), N m               */
    double    k_touch;                                 /* stiffest touching contact of these, N/m (0: none)     */
    double    p_contact;                               /* power taken from the bodies by pushers, planes, rollers,
                                                          hooks, plus the hook drive's power (so that the contact
                                                          quadrature less e_contact stays the dissipation)        */
    double    e_contact;                               /* their elastic energy, J                               */
    mech_dock_hooks_out hk;                            /* the structural hooks' trial (dock_hooks.c)             */
    mech_dock_rollguide_out rg;                        /* the roll guides on the collars (dock_rollguide.c)      */
} dock_proc_eval;
/* (model, tree, data after the kinematics, contact bodies, nut angle and rate, the pad points' committed stick
 * anchors, the structural hooks and the time since their committed step) => pushers, plane contact, hooks, pads and
 * rollers applied to the tree's loads; e filled (everything but the drive; e->pad_trial the anchors and the hooks'
 * trial state to commit when this state is accepted) */
void dock_proc_loads(const mech_dock_model *m, const mech_body_model *bm, mech_body_data *d, const mech_contact_body *cb,
                     double phi, double phid, const dock_pad_anchor *pad_committed, const mech_contact_geom *lim_geom,
                     mech_dock_hooks *hk, double dt, dock_proc_eval *e);
/* (a pad point's sphere-cone geometry, its centre's axial coordinate and axis distance in the cone frame, the cone's
 * rim radius and depth, the point's sphere radius, the pad's DOCK_SET_LIMITER pair this stage or NULL) => 1 when the
 * point bears on the cone: the wall or the rim edge, except within its sphere's radius of the rim circle while the
 * pad's frustum pair touches the rim (one owner for the corner; dock_proc.c) */
int dock_pad_bears(const mech_contact_geom *g, double x, double r, double R, double D, double rs,
                   const mech_contact_geom *lim);

#endif

/* Compliant contact between the primitive shapes a probe-cone docking mechanism is made of (spec 001 §1.5, §2.8,
 * §7 item 6): geometry of each primitive pair, a penalty normal law with Hunt-Crossley damping set by a
 * coefficient of restitution, Coulomb friction that sticks (a tangential spring anchored at the stick point), and
 * the equal and opposite loads the contact applies to the two bodies it joins. Formulas, sources and the checks
 * made are in docs/contact.md.
 *
 * Frames and sign conventions (used by every function here):
 *  - A shape is described in its own local frame; every axisymmetric shape has its axis along local +x.
 *  - A pose places a local frame in the world: p_world = pos + rot p_local (rot: ACTIVE rotation local -> world,
 *    row-major mech_mat3, see mech/math3.h; mech_contact_pose_quat builds it from a unit quaternion).
 *  - A pair is ordered (A, B). The normal n is a world unit vector pointing out of B into A: it is the direction of
 *    the normal force ON A (B receives -f). depth > 0 is penetration; depth <= 0 is the gap.
 *  - The contact point lies midway between the deepest points of the two surfaces along n (as in MuJoCo), so the
 *    result does not depend on the pair order (swapping A and B flips n and nothing else).
 *  - Relative velocity v = v_A(point) - v_B(point): v_n = v.n > 0 separates, v_t = v - v_n n slides.
 * Nothing here allocates except mech_contact_model_new / mech_contact_data_new. */
#ifndef MECH_CONTACT_H
#define MECH_CONTACT_H

#include <stddef.h>
#include "hyst/common.h"
#include "mech/math3.h"

/* ------------------------------------------------------------------------------------------------------------ */
/* Shapes (local frames)                                                                                          */
/* ------------------------------------------------------------------------------------------------------------ */

typedef enum mech_contact_shape_type {
    MECH_CONTACT_SPHERE = 0,  /* centre at the origin, radius (0: a point: latch tip, pusher tip)                 */
    MECH_CONTACT_PLANE,       /* the plane x = 0, free side x > 0 (a half-space within its extent): stop face,
                                 docking plane, socket bottom (disc)                                             */
    MECH_CONTACT_FRUSTUM,     /* lateral surface of a truncated cone (or cylinder): radius r0 at x = 0, r1 at
                                 x = length, open ends; side INSIDE (hollow: socket bore, the inside of a cone)
                                 or OUTSIDE (solid: limiter, a cone seen from outside)                          */
    MECH_CONTACT_CONE,        /* the hollow receiving cone: wall from its rim circle (radius rim_radius, in the
                                 plane x = 0) down to x = -depth, half-angle between generatrix and axis; the
                                 opening faces +x; its entry-rim edge and its throat edge are part of the shape  */
    MECH_CONTACT_CIRCLE,      /* a circular edge of radius `radius` in the plane x = 0, centred on the axis      */
    MECH_CONTACT_NSHAPE
} mech_contact_shape_type;

enum { MECH_CONTACT_INSIDE = 0, MECH_CONTACT_OUTSIDE = 1 };

typedef struct mech_contact_shape {
    mech_contact_shape_type type;
    double radius;       /* SPHERE, CIRCLE: radius; CONE: rim radius, m                                        */
    double half_y;       /* PLANE: half-extent along local y (0: unbounded), m                                  */
    double half_z;       /* PLANE: half-extent along local z (0: unbounded), m                                  */
    double disc_radius;  /* PLANE: when > 0 the plane is a disc of this radius (half_y, half_z ignored), m      */
    double r0, r1;       /* FRUSTUM: radius at x = 0 and at x = length, m                                       */
    double length;       /* FRUSTUM: axial length (> 0), m                                                     */
    int    side;         /* FRUSTUM: MECH_CONTACT_INSIDE or MECH_CONTACT_OUTSIDE                               */
    double sector_mid;   /* FRUSTUM: a pad: the surface exists only within sector_half of this azimuth about
                            local x (from +y towards +z), rad                                                  */
    double sector_half;  /* FRUSTUM: half-width of the pad, rad, in (0, pi); 0 (or >= pi): the full turn        */
    double sector_trig[6]; /* FRUSTUM: derived (mech_contact_frustum_sector): the sector_mid and sector_half they
                              were taken from, cos and sin of sector_mid, cos of sector_half and sqrt(1 - its
                              square); recomputed by the pair functions when the first two differ from the fields
                              above                                                                               */
    double half_angle;   /* CONE: generatrix to axis, rad, in (0, pi/2)                                         */
    double depth;        /* CONE: axial depth of the wall below the rim plane (> 0; the throat radius is
                            rim_radius - depth tan(half_angle) >= 0), m                                        */
} mech_contact_shape;

mech_contact_shape mech_contact_sphere(double radius);
mech_contact_shape mech_contact_point(void);
mech_contact_shape mech_contact_plane(double half_y, double half_z);
mech_contact_shape mech_contact_disc(double radius);
mech_contact_shape mech_contact_frustum(double r0, double r1, double length, int side);
mech_contact_shape mech_contact_bore(double radius, double length);  /* FRUSTUM r0 = r1, INSIDE              */
// (frustum, mid azimuth, half-width) => the same surface restricted to a pad (limiter pads, a roller's track):
// several pads around a ring share a coaxial load symmetrically, which one full-turn contact point cannot
mech_contact_shape mech_contact_frustum_sector(mech_contact_shape frustum, double mid, double half);
mech_contact_shape mech_contact_cone(double rim_radius, double half_angle, double depth);
mech_contact_shape mech_contact_circle(double radius);

// (shape) => HY_OK, or HY_EMODEL with a message naming the field (prefixed by `where`)
int mech_contact_shape_check(const mech_contact_shape *s, const char *where, hy_err *err);

typedef struct mech_contact_pose {
    mech_vec3 pos;  /* origin of the local frame, world, m                                                     */
    mech_mat3 rot;  /* active rotation local -> world                                                          */
} mech_contact_pose;

static inline mech_contact_pose mech_contact_pose_make(mech_vec3 pos, mech_mat3 rot) { return (mech_contact_pose){pos, rot}; }
static inline mech_contact_pose mech_contact_pose_quat(mech_vec3 pos, mech_quat q)
{
    return (mech_contact_pose){pos, mech_quat_to_mat3(q)};
}
// (outer, inner) => the pose of a frame given by `inner` in the frame placed by `outer`
static inline mech_contact_pose mech_contact_pose_compose(mech_contact_pose outer, mech_contact_pose inner)
{
    return (mech_contact_pose){mech_vec3_add(outer.pos, mech_mat3_apply(outer.rot, inner.pos)),
                               mech_mat3_mul(outer.rot, inner.rot)};
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Geometry of a pair                                                                                             */
/* ------------------------------------------------------------------------------------------------------------ */

typedef enum mech_contact_feature {
    MECH_CONTACT_FEAT_NONE = 0,  /* outside the primitive's extent: no contact possible                        */
    MECH_CONTACT_FEAT_FACE,      /* plane, disc, sphere surface                                                */
    MECH_CONTACT_FEAT_WALL,      /* lateral surface of a frustum or of the cone                                */
    MECH_CONTACT_FEAT_EDGE       /* a circular edge: the cone's entry rim, a CIRCLE                            */
} mech_contact_feature;

typedef struct mech_contact_geom {
    double    depth;    /* penetration, m: > 0 in contact, <= 0 the gap, -INFINITY when feature = NONE          */
    mech_vec3 point;    /* world contact point, midway between the two surfaces, m                              */
    mech_vec3 normal;   /* world unit normal out of B into A (direction of the normal force on A)               */
    int       feature;  /* mech_contact_feature of B's side that was hit (of A's for FRUSTUM-CIRCLE)           */
    double    grad_deficit; /* 1 - |grad depth|: 0 on a smooth surface. A circle whose deepest point sits on the
                               edge between two faces of a pad's solid (front face and wall) has a depth whose
                               gradient is a weighted sum of the two faces' unit normals, shorter than 1: the
                               normal force and the depth rate are scaled by 1 - grad_deficit (docs/contact.md) */
} mech_contact_geom;

/* Pair functions: (shape A and its pose, shape B and its pose) => geometry; returns 1 when depth > 0, else 0.
 * Degenerate positions have a documented, deterministic answer (docs/contact.md §2): a sphere centred on the axis
 * of a frustum, cone or circle touches a whole ring; the point reported is the one on the local +y side. */
int mech_contact_sphere_sphere(const mech_contact_shape *a, const mech_contact_pose *pa, const mech_contact_shape *b,
                               const mech_contact_pose *pb, mech_contact_geom *g);
// sphere (or point) on a plane, a rectangle or a disc: socket bottom, latch on a stop face, pusher on a plane
int mech_contact_sphere_plane(const mech_contact_shape *a, const mech_contact_pose *pa, const mech_contact_shape *b,
                              const mech_contact_pose *pb, mech_contact_geom *g);
// sphere against a frustum's lateral surface: socket bore (INSIDE, r0 = r1), roller on a cone (either side)
int mech_contact_sphere_frustum(const mech_contact_shape *a, const mech_contact_pose *pa, const mech_contact_shape *b,
                                const mech_contact_pose *pb, mech_contact_geom *g);
// sphere inside the hollow receiving cone: conical wall, its entry-rim edge and its throat edge (tori of zero
// tube radius; below the throat plane the socket's bore takes over)
int mech_contact_sphere_cone(const mech_contact_shape *a, const mech_contact_pose *pa, const mech_contact_shape *b,
                             const mech_contact_pose *pb, mech_contact_geom *g);
// sphere against a circular edge (torus of zero tube radius)
int mech_contact_sphere_circle(const mech_contact_shape *a, const mech_contact_pose *pa, const mech_contact_shape *b,
                               const mech_contact_pose *pb, mech_contact_geom *g);
// frustum lateral surface (A) against a circular edge (B): limiter pads on the cone rim. The deepest point of the
// edge inside A's material: Newton on the angle along the edge, started from the first harmonic of the depth
// through 4 points (16 points when that fails); the contact set warm-starts it from the last step's angle
int mech_contact_frustum_circle(const mech_contact_shape *a, const mech_contact_pose *pa, const mech_contact_shape *b,
                                const mech_contact_pose *pb, mech_contact_geom *g);

// (any two shapes) => the pair function of the table (either order; the normal is flipped for a swapped entry);
// returns 1 in contact, 0 not, -1 for a pair the table has no function for (geometry set to feature NONE)
int mech_contact_collide(const mech_contact_shape *a, const mech_contact_pose *pa, const mech_contact_shape *b,
                         const mech_contact_pose *pb, mech_contact_geom *g);
// (type A, type B) => 1 when the pair table has a function for it
int mech_contact_pair_supported(mech_contact_shape_type a, mech_contact_shape_type b);

typedef struct mech_contact_vel {
    double    vn;  /* (v_A - v_B).n, m/s: > 0 separating, < 0 approaching (the penetration rate is -vn)         */
    mech_vec3 vt;  /* tangential part of v_A - v_B, world, m/s                                                  */
} mech_contact_vel;

// (geometry, world velocities of the contact point as a point of A and as a point of B) => relative velocity
mech_contact_vel mech_contact_relvel(const mech_contact_geom *g, mech_vec3 v_a, mech_vec3 v_b);

/* ------------------------------------------------------------------------------------------------------------ */
/* Force laws                                                                                                     */
/* ------------------------------------------------------------------------------------------------------------ */

/* Normal law (Hunt & Crossley 1975):  N = max(0, k δ^n (1 + D δ̇)),  δ̇ = -v_n,  D = s(e) / v_impact,
 * where v_impact is the approach speed at the onset of the contact (floored at v_min) and s(e) solves EXACTLY
 *     (1 + e) s = ln((1 + s) / (1 - e s))
 * (Carvalho & Martins 2019, Mech. Mach. Theory 139: the restitution of the Hunt-Crossley law, for any exponent n,
 * any k and any mass; docs/contact.md §3). The approximations of Lankarani & Nikravesh (1990), s = 3(1-e²)/4, and
 * of Flores et al. (2011), s = 8(1-e)/(5e), are available for comparison only.
 * Friction: a tangential spring kt with damper ct between two material points (one on each body) anchored where
 * the contact started or last stuck. While |kt u + ct v_t| <= mu N the contact sticks (mu = mu_s after a stick,
 * mu_k after a slip); beyond it the contact slips: the force is mu_k N opposite the trial force direction and the
 * anchor is dragged so that |kt u| = mu_k N. */
typedef struct mech_contact_law {
    double k;      /* normal stiffness, N/m^n                                                                  */
    double n;      /* exponent: 1 linear penalty, 1.5 Hertz (>= 1)                                             */
    double e;      /* coefficient of restitution in (0, 1]; 1 = no damping                                     */
    double v_min;  /* floor of the impact speed in D (> 0), m/s; slower impacts rebound with e(v) > e          */
    double mu_s;   /* static friction coefficient (>= mu_k)                                                    */
    double mu_k;   /* kinetic friction coefficient (>= 0; 0 = frictionless)                                    */
    double kt;     /* tangential (stick) stiffness, N/m (> 0 when mu_k > 0)                                    */
    double ct;     /* tangential damping while sticking, N s/m (>= 0)                                          */
    double c_mass; /* kg, >= 0: > 0 caps the damping coefficient k δ^n D at the critical damping 2 sqrt(k' c_mass)
                      of the tangent stiffness k' = n k δ^(n-1) on this mass; 0 (default) no cap (docs/contact.md
                      §3: under a slow preload the law's D, fixed at the impact, is many times critical)          */
} mech_contact_law;

typedef enum mech_contact_hc_relation {
    MECH_CONTACT_HC_EXACT = 0,     /* Carvalho & Martins 2019: the implicit relation above (default)           */
    MECH_CONTACT_HC_LANKARANI,     /* Lankarani & Nikravesh 1990: s = 3 (1 - e²) / 4   (valid for e near 1)    */
    MECH_CONTACT_HC_FLORES         /* Flores, Machado, Silva, Martins 2011: s = 8 (1 - e) / (5 e)              */
} mech_contact_hc_relation;

// (restitution e in (0, 1], relation) => s(e) = D v_impact, dimensionless (0 for e >= 1); NAN for e <= 0
double mech_contact_hc_factor(double e, mech_contact_hc_relation rel);

// (law, D, penetration δ, penetration rate δ̇) => elastic part k δ^n and damping part c δ̇ with c = k δ^n D, capped at
// 2 sqrt(n k δ^(n-1) c_mass) when law.c_mass > 0 (0 when δ <= 0); returns the normal force max(0, elastic + damping)
double mech_contact_normal_force(const mech_contact_law *law, double D, double depth, double depth_rate,
                                 double *elastic, double *damping);

/* ------------------------------------------------------------------------------------------------------------ */
/* Contact set: pairs between bodies, their stick anchors (trial / commit / revert) and the loads they apply     */
/* ------------------------------------------------------------------------------------------------------------ */

#define MECH_CONTACT_WORLD (-1)   /* body index of the fixed world frame                                         */
#define MECH_CONTACT_NAME_LEN 32

typedef struct mech_contact_pair {
    char               name[MECH_CONTACT_NAME_LEN];  /* for messages ("head-cone")                              */
    int                body_a, body_b;               /* 0..nbody-1 or MECH_CONTACT_WORLD                        */
    mech_contact_shape shape_a, shape_b;
    mech_contact_pose  local_a, local_b;             /* pose of each shape in its body's frame                  */
    mech_contact_law   law;
    double             max_depth;                    /* > 0: a deeper penetration stops a simulation through
                                                        mech_contact_sim_force (HY_ESTATE), m; 0: no limit     */
} mech_contact_pair;

/* disable switches (model->disable), for tests: the component's array is written as 0 */
enum {
    MECH_CONTACT_DISABLE_ELASTIC  = 1 << 0,  /* the k δ^n term                                                  */
    MECH_CONTACT_DISABLE_DAMPING  = 1 << 1,  /* the Hunt-Crossley term                                          */
    MECH_CONTACT_DISABLE_FRICTION = 1 << 2   /* tangential force (anchors are still tracked)                    */
};

typedef struct mech_contact_model {
    int                nbody;    /* bodies the pairs may name (kinematics array length of mech_contact_eval)   */
    int                npair;
    mech_contact_pair *pair;     /* npair, copied from the caller                                              */
    double            *hc_s;     /* npair, s(e) of each pair's law (compiled once)                             */
    double            *cone_tan; /* npair, SPHERE-CONE pairs: tan of the cone's half angle (compiled once), else 0 */
    int               *rot_slot; /* 2 npair, compiled: for shape A (2i) and B (2i+1) of pair i, the index of its
                                    world rotation in mech_contact_data.shape_rot, or -1 when the body's rotation
                                    serves (identity local rotation, or a sphere, whose orientation never matters) */
    int                nrot;     /* distinct (body, local rotation) combinations: one product each per evaluation */
    int               *rot_body; /* nrot, body of each combination                                              */
    mech_mat3         *rot_local;/* nrot, local rotation of each combination                                    */
    int                disable;  /* MECH_CONTACT_DISABLE_* flags (an option, as MuJoCo's m->opt.disableflags)  */
} mech_contact_model;

/* World kinematics of one body at the evaluation point (what the body module's kinematics stage gives). */
typedef struct mech_contact_body {
    mech_vec3 pos;    /* origin of the body frame, world, m                                                    */
    mech_mat3 rot;    /* active rotation body -> world                                                         */
    mech_vec3 vel;    /* velocity of the frame origin, world, m/s                                              */
    mech_vec3 omega;  /* angular velocity, world, rad/s                                                        */
} mech_contact_body;

/* FRUSTUM(OUTSIDE)-CIRCLE pairs: what the last full search of the pair certified, for the edge circle it saw
 * (centre c, axes e1, e2 times its radius, in the frustum's frame). The solid's depth is 1-Lipschitz in the point,
 * so while every edge point has moved less than `clear` no point can be inside (the search is skipped: a Verlet
 * list for one pair, exact), and while they have moved less than margin / 2 the coarse scan's best sample is still
 * `sample` or a neighbour (three samples are evaluated instead of 65, with the same answer). */
typedef struct mech_contact_cert {
    double    clear;      /* m, >= 0: every edge point at least this far outside the solid (0: not known)       */
    double    margin;     /* m, >= 0: the best coarse sample and its neighbours deeper than every other by this */
    int       sample;     /* index of that best sample (0 .. 64, at angle index * 2 pi / 64)                    */
    double    fine_margin;/* m, >= 0: the same for the 17 fine samples across a coarse sample (0: not known)     */
    int       fine_sample;/* index of the best fine sample (0 .. 16, at (fine_coarse + (index - 8) / 8) 2 pi / 64) */
    int       fine_coarse;/* the coarse sample that fine scan was about                                          */
    mech_vec3 c, e1, e2;  /* the edge of the search of clear, margin and sample, frustum frame, m               */
    mech_vec3 fc, fe1, fe2; /* the edge of the fine scan's search (a later one than c, e1, e2 when the coarse
                               certificate was kept and the fine scan made in full), m                          */
} mech_contact_cert;

/* Per-pair state that persists between steps: the stick anchor and the impact speed. */
typedef struct mech_contact_state {
    int       touching;  /* 1 when the pair was in contact                                                     */
    int       sliding;   /* 1 when it slipped (kinetic μ applies next), 0 when it stuck                         */
    double    v_impact;  /* approach speed at the onset of this contact, m/s (floored at law.v_min)            */
    double    edge_angle;/* FRUSTUM-CIRCLE pairs: angle of the deepest edge point (warm start of the search), rad */
    double    edge_cs[2];/* FRUSTUM-CIRCLE pairs: cos and sin of edge_angle (the warm start needs no sincos)        */
    mech_vec3 anchor_a;  /* anchor: material point of body A, in A's body frame, m                             */
    mech_vec3 anchor_b;  /* anchor: material point of body B, in B's body frame, m; the tangential spring
                            stretch is the tangential part of world(anchor_a) - world(anchor_b)                 */
    mech_contact_cert cert; /* FRUSTUM(OUTSIDE)-CIRCLE pairs: the last full search's certificate               */
} mech_contact_state;

/* Mutable data of a contact set: one allocation (mech_contact_data_copy copies it whole). */
typedef struct mech_contact_data {
    int npair;
    /* computed by mech_contact_eval: (bodies, committed states) => every array below and `trial` */
    mech_contact_geom  *geom;        /* npair                                                                   */
    mech_contact_vel   *vel;         /* npair, m/s                                                              */
    double             *fn_elastic;  /* npair, k δ^n, N                                                         */
    double             *fn_damping;  /* npair, Hunt-Crossley term k δ^n D δ̇, N (negative while separating)      */
    double             *fn;          /* npair, normal force max(0, elastic + damping), N (never negative)      */
    mech_vec3          *f_friction;  /* npair, tangential force on A, world, N                                  */
    mech_vec3          *stretch;     /* npair, tangential spring stretch after the stick/slip decision, m       */
    mech_vec3          *force;       /* npair, total force on A, fn n + f_friction, world, N (B gets -force)   */
    int                 nactive;     /* pairs in contact                                                        */
    /* written by the caller (0 from mech_contact_data_new): a pair with disabled[i] != 0 is evaluated as out of
       reach (depth -inf, no force, trial state reset), as for a part not yet in place (a latch still folded) */
    unsigned char      *disabled;    /* npair                                                                   */
    /* written by mech_contact_eval (trial) and mech_contact_commit / _revert / _reset */
    mech_contact_state *trial;       /* npair                                                                   */
    mech_contact_state *committed;   /* npair                                                                   */
    /* scratch of mech_contact_eval_bodies / mech_contact_apply_loads: the bodies' kinematics and the summed
       loads, force (N) and moment about the body origin (N m), world (nbody each) */
    mech_contact_body  *bodies;
    mech_vec3          *body_force, *body_moment;
    int                 nbody;
    /* scratch of mech_contact_eval: world rotation of each (body, local rotation) combination (model->nrot),
       computed once per evaluation and shared by every shape on that body with that local rotation */
    mech_mat3          *shape_rot;
    int                 nrot;
} mech_contact_data;

// (nbody, pairs) => compiled model (pairs copied; laws and shapes checked, messages "contact pair 2 (name): ...")
int mech_contact_model_new(int nbody, int npair, const mech_contact_pair *pairs, mech_contact_model **out,
                           hy_err *err);
void mech_contact_model_free(mech_contact_model *m);
// (model) => data for it, every pair out of contact (NULL when out of memory)
mech_contact_data *mech_contact_data_new(const mech_contact_model *m);
// (dst, src for the same model) => dst a copy of src
void mech_contact_data_copy(mech_contact_data *dst, const mech_contact_data *src);
void mech_contact_data_free(mech_contact_data *d);

// (model, body kinematics[nbody]) => geometry, velocities, forces per component and trial states from the
// committed ones. Allocates nothing; never changes the committed state (call it from any integrator stage).
// (bodies, committed) => (geom, vel, fn_elastic, fn_damping, fn, f_friction, stretch, force, nactive, trial)
void mech_contact_eval(const mech_contact_model *m, mech_contact_data *d, const mech_contact_body *bodies);
// (data) => the last trial becomes the committed state (evaluate at the accepted state first)
void mech_contact_commit(const mech_contact_model *m, mech_contact_data *d);
// (data) => the trial is dropped: trial = committed
void mech_contact_revert(const mech_contact_model *m, mech_contact_data *d);
// (data) => every pair out of contact, trial and committed
void mech_contact_reset(const mech_contact_model *m, mech_contact_data *d);

// (model, data, pair i, body index) => world force on that body from pair i (force[i] on A, -force[i] on B,
// zero for a body the pair does not join) and its world point of application; returns 1 when the body is one of
// the pair's, else 0
int mech_contact_force_on(const mech_contact_model *m, const mech_contact_data *d, int i, int body, mech_vec3 *f,
                          mech_vec3 *point);
// (world force f at world point p, reference point r) => resultant F = f and moment M = (p - r) x f about r
static inline void mech_contact_wrench(mech_vec3 f, mech_vec3 p, mech_vec3 r, mech_vec3 *F, mech_vec3 *M)
{
    *F = f;
    *M = mech_vec3_cross(mech_vec3_sub(p, r), f);
}
// (model, data, bodies) => ADDS every pair's loads into force[nbody] and moment[nbody], moments about each
// body's frame origin bodies[j].pos (world components); the world's share is dropped
void mech_contact_loads(const mech_contact_model *m, const mech_contact_data *d, const mech_contact_body *bodies,
                        mech_vec3 *force, mech_vec3 *moment);

/* ------------------------------------------------------------------------------------------------------------ */
/* Coupling with the rigid-body module (mech/body.h): body indices of the pairs are body ids (0 base, 1..n tree,  */
/* n+1.. free bodies; MECH_CONTACT_WORLD the world)                                                              */
/* ------------------------------------------------------------------------------------------------------------ */
struct mech_body_model;
struct mech_body_data;

// (body model and data after mech_body_kinematics) => d->bodies filled from the world poses and velocities, then
// mech_contact_eval. The contact model's nbody must not exceed the body model's (mech_contact_sim_force checks)
void mech_contact_eval_bodies(const mech_contact_model *m, mech_contact_data *d, const struct mech_body_model *bm,
                              const struct mech_body_data *bd);
// (evaluated contacts) => every active pair's force added to both bodies' external loads (force on A, -force on
// B, at the contact point): summed per body first (mech_contact_loads), then one mech_body_apply_world_force and
// one mech_body_apply_world_moment per loaded body
void mech_contact_apply_loads(const mech_contact_model *m, mech_contact_data *d, const struct mech_body_model *bm,
                              struct mech_body_data *bd);

/* Callbacks for mech_body_sim (mech_body_sim_opts.force / commit / revert) with user = a mech_contact_coupling.
 * force: eval (trial) + loads; fails with HY_ESTATE and a message naming the pair for a non-finite force or a
 * penetration beyond the pair's max_depth. commit: mech_contact_commit. revert: mech_contact_revert. A
 * simulator with other force elements calls the three from its own callbacks. */
typedef struct mech_contact_coupling {
    const mech_contact_model *m;
    mech_contact_data        *d;
} mech_contact_coupling;
int mech_contact_sim_force(const struct mech_body_model *bm, struct mech_body_data *bd, void *user, hy_err *err);
int mech_contact_sim_commit(const struct mech_body_model *bm, const struct mech_body_data *bd, void *user, hy_err *err);
void mech_contact_sim_revert(void *user);

#endif

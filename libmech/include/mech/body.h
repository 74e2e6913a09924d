/* Rigid multibody core of libmech (issue 10, spec 001 §2.4): a tree of 1-DOF joints on a floating (or prescribed)
 * base, free rigid bodies, and a fixed-step integrator for the whole system.
 *
 * BODIES AND NUMBERING (the paper's numbering, spec 001 §1.6 and §2.4)
 *   id 0            the base: the active spacecraft, a 6-DOF root (the paper's body 0, frame x0y0z0);
 *   id 1..n         tree bodies; body j sits behind joint j, its parent p(j) is 0..j-1 (parents before children);
 *                   joint arrays (q, qd, qdd, tau) hold joint j at index j-1;
 *   id n+1..n+nf    free rigid bodies (the passive spacecraft), mech_body_free_id(m, k) = n + 1 + k.
 *   Per-body arrays of the data have nbody = 1 + n + nf entries indexed by id.
 *
 * FRAMES AND CONVENTIONS (see docs/body.md)
 *   - Every body has a frame; a tree body's origin is its joint centre, the base's origin is the mechanism base
 *     point (e.g. the universal-joint centre), a free body's origin is its centre of mass.
 *   - xmat[id] is the ACTIVE rotation body -> world (v_world = xmat v_body); the paper's passive β_j maps parent
 *     coordinates to body j coordinates (mech/math3.h conventions).
 *   - Joint j: revolute about / prismatic along axis i (0, 1, 2 = x, y, z) of body j's frame. Its frame is
 *     placed in the parent frame by the constant offset l (parent origin -> joint centre at q = 0, parent frame)
 *     and the constant mounting rotation γ (passive, parent -> joint frame at q = 0). Revolute: β = α_i(q) γ,
 *     r = l. Prismatic: β = γ, r = l + γ^T e_i q (spec 001 §2.4 pass 1).
 *   - Mass m, centre-of-mass offset d (body frame) and inertia I ABOUT THE BODY ORIGIN (joint centre), body frame,
 *     for the base and tree bodies, as the paper's M_tr = c̃^T requires; mass 0 (fictitious bodies) is allowed.
 *     Free bodies give their inertia about their centre of mass.
 *   - External loads on every body are given in the body's own frame, the moment about the body origin
 *     (f_ext, m_ext; the paper's f^E, m^E). mech_body_apply_world_force converts a world force at a world point.
 *   - Accelerations are classical: acc[id] is the absolute acceleration of the body origin, body frame; alpha[id]
 *     the angular acceleration, body frame.
 *   - Gravity (model, world frame, default zero) acts on every body's centre of mass.
 *
 * STATE VECTOR y OF THE INTEGRATOR (the one place it is defined; offsets in mech_body_layout)
 *   positions:   base origin position, world (3) | base attitude quaternion w,x,y,z body->world (4) |
 *                joint coordinates q_1..q_n, rad or m (n) | for each free body k: CoM position, world (3),
 *                attitude quaternion (4)
 *   velocities:  base origin velocity, BASE frame (3) | base angular velocity, base frame (3) |
 *                joint rates q̇_1..q̇_n (n) | for each free body k: CoM velocity, world (3),
 *                angular velocity, body frame (3)
 *   dimension 13 + 2n + 13 nf. Quaternions are renormalised at every accepted step.
 *
 * STAGES (model immutable, data mutable; nothing here allocates after mech_body_data_new)
 *   mech_body_kinematics   (base pose and velocity, q, qd, free bodies) => β, r, w, ε, velocities, world poses
 *   [the caller adds loads: f_ext, m_ext, tau, hook_*]
 *   mech_body_aba          (kinematics, loads) => articulated inertias, qdd, accelerations, base reaction
 *   mech_body_aba_unit     (aba, joint j) => the accelerations' response to a unit force on joint j
 *   mech_body_aba_add_unit (aba, unit response of j, f) => the accelerations with f added to tau[j]
 *   mech_body_free_dynamics (free-body state, loads) => free-body accelerations
 *   mech_body_forward      aba + free dynamics (after kinematics and loads)
 *   mech_body_state_deriv  (accelerations) => dy/dt
 * The independent reference (composite-rigid-body mass matrix + recursive Newton-Euler bias, LAPACK solve) is
 * mech_body_crba / mech_body_rne / mech_body_forward_reference: slower and allocating (a test oracle). */
#ifndef MECH_BODY_H
#define MECH_BODY_H

#include <stddef.h>
#include "hyst/common.h"
#include "mech/math3.h"
#include "mech/ode.h"

#define MECH_BODY_BASE 0   /* id of the base (the active spacecraft) */

enum mech_body_joint { MECH_BODY_REVOLUTE = 0, MECH_BODY_PRISMATIC = 1 };
enum mech_body_base_mode {
    MECH_BODY_FLOATING = 0,    /* the base is a free 6-DOF root: its acceleration is solved (spec 001 §7.1 2(a)) */
    MECH_BODY_PRESCRIBED = 1   /* the base's acceleration is given (a 6-DOF test stand): data base_acc_in etc.  */
};

/* One row of the tree table (spec 001 §2.4): body j = row index + 1. */
typedef struct mech_body_joint_def {
    const char *name;      /* for messages; NULL: "body j"                                                       */
    int         parent;    /* p(j): 0 (the base) .. j-1                                                          */
    int         type;      /* MECH_BODY_REVOLUTE or MECH_BODY_PRISMATIC                                          */
    int         axis;      /* 0, 1, 2: joint axis = x, y, z of the body frame                                    */
    mech_vec3   offset;    /* l_{p(j),j}: parent origin -> joint centre at q = 0, parent frame, m                */
    mech_mat3   mount;     /* γ_{p(j),j}: passive mounting rotation parent -> joint frame (identity: 1₃)          */
    double      mass;      /* m_j >= 0, kg (0: fictitious body)                                                   */
    mech_vec3   com;       /* d_j: centre of mass from the body origin, body frame, m                            */
    mech_mat3   inertia;   /* I_j about the BODY ORIGIN (joint centre), body frame, kg m^2                        */
} mech_body_joint_def;

/* The base (id 0): a rigid body like a tree body, without a joint. */
typedef struct mech_body_base_def {
    double    mass;        /* kg (> 0 in floating mode, with the tree's inertia it must make a solvable root)    */
    mech_vec3 com;         /* centre of mass from the base origin, base frame, m                                 */
    mech_mat3 inertia;     /* about the BASE ORIGIN, base frame, kg m^2                                          */
} mech_body_base_def;

/* A free rigid body (passive spacecraft); its frame origin is its centre of mass. */
typedef struct mech_body_free_def {
    const char *name;
    double      mass;      /* kg > 0                                                                              */
    mech_mat3   inertia;   /* about the centre of mass, body frame, kg m^2, positive definite                      */
} mech_body_free_def;

typedef struct mech_body_def {
    int                        base_mode;  /* MECH_BODY_FLOATING or MECH_BODY_PRESCRIBED                        */
    mech_body_base_def         base;
    int                        n;          /* tree bodies (joints), >= 0                                         */
    const mech_body_joint_def *joints;     /* n rows                                                             */
    int                        nfree;      /* free bodies, >= 0                                                  */
    const mech_body_free_def  *free;       /* nfree rows                                                         */
    mech_vec3                  gravity;    /* world frame, m/s^2 (zero in orbit)                                  */
    int                        hook_body;  /* tree body (1..n) whose articulated inertia and bias take the hook
                                              terms hook_* of the data (spec 001 §2.3: M_rr,2 += ΔI_C,
                                              m_2 += Δm_C); 0: no hook                                           */
} mech_body_def;

typedef struct mech_body_model mech_body_model;   /* compiled, immutable */

/* (definition) => compiled model. Refused with HY_EMODEL and a message naming the body ("body 3 (probe): ..."):
 * a parent that is not an earlier body, an axis outside 0..2, a mounting rotation that is not a rotation, negative
 * or non-finite mass, an inertia that is not symmetric, not positive semi-definite or breaks the triangle
 * inequalities about the centre of mass, a joint whose articulated inertia I* (revolute) or m* (prismatic) is zero
 * (e.g. a revolute joint carrying only massless bodies), a free body without positive mass and inertia, a floating
 * base whose 6x6 articulated inertia is singular. The definition is copied (names too). */
int mech_body_model_new(const mech_body_def *def, mech_body_model **out, hy_err *err);
void mech_body_model_free(mech_body_model *m);
int mech_body_model_n(const mech_body_model *m);       /* tree bodies                                            */
int mech_body_model_nfree(const mech_body_model *m);   /* free bodies                                            */
int mech_body_model_nbody(const mech_body_model *m);   /* 1 + n + nfree                                         */
// (model, k = 0..nfree-1) => body id of free body k (n + 1 + k)
int mech_body_free_id(const mech_body_model *m, int k);
// (model, id) => the body's name ("base", the definition's name, or "body j")
const char *mech_body_name(const mech_body_model *m, int id);
// (model) => the definition as compiled (joints and free arrays owned by the model)
const mech_body_def *mech_body_model_def(const mech_body_model *m);

/* Offsets of the state vector of the integrator (layout in the header comment above). */
typedef struct mech_body_layout {
    size_t dim;                        /* 13 + 2n + 13 nfree                                                      */
    size_t npos;                       /* 7 + n + 7 nfree: velocities start here                                  */
    size_t base_pos, base_quat, q;     /* positions                                                               */
    size_t free_pos;                   /* free body k: free_pos + 7k (3 position, then 4 quaternion)               */
    size_t base_vel, base_omega, qd;   /* velocities                                                              */
    size_t free_vel;                   /* free body k: free_vel + 6k (3 velocity world, then 3 ω body)            */
} mech_body_layout;
mech_body_layout mech_body_model_layout(const mech_body_model *m);

/* Data: one allocation (mech_body_data_copy copies it whole); every pointer points into it. nb = 1 + n + nf. */
typedef struct mech_body_data {
    /* ---- state (set by mech_body_set_state from y, or by hand) ---------------------------------------------- */
    double     t;            /* s                                                                                 */
    double    *q;            /* (n) joint coordinates, rad or m                                                   */
    double    *qd;           /* (n) joint rates, rad/s or m/s                                                     */
    mech_vec3 *pos;          /* (nb) origin position, world, m (entries 1..n written by kinematics)              */
    mech_quat *quat;         /* (nb) attitude body -> world (base and free bodies; tree entries unused)           */
    mech_vec3 *vel;          /* (nb) origin velocity: base: BASE frame; free bodies: world; tree: by kinematics
                                (body frame)                                                                     */
    mech_vec3 *omega;        /* (nb) angular velocity, body frame (tree entries by kinematics), rad/s              */
    /* prescribed-base mode only: the base's classical acceleration, base frame (the stand's motion) */
    mech_vec3  base_acc_in;  /* m/s^2                                                                             */
    mech_vec3  base_alpha_in;/* rad/s^2                                                                           */

    /* ---- loads (cleared by mech_body_clear_loads; added by the caller and the apply helpers) ---------------- */
    double    *tau;          /* (n) active joint force (N, prismatic) or torque (N m, revolute) f_J, m_J          */
    mech_vec3 *f_ext;        /* (nb) external force on the body, body frame, N                                    */
    mech_vec3 *m_ext;        /* (nb) external moment about the body origin, body frame, N m                       */
    mech_mat3  hook_inertia; /* added to M_rr^Σ of the hook body (ΔI_C), its frame, kg m^2                        */
    mech_vec3  hook_force;   /* added to f^Σ of the hook body, its frame, N                                       */
    mech_vec3  hook_moment;  /* added to m^Σ of the hook body (Δm_C^Σ), its frame, N m                            */

    /* ---- computed by mech_body_kinematics: (state) => (below, pos/vel/omega of tree bodies) ------------------ */
    mech_mat3 *xmat;         /* (nb) active rotation body -> world                                                */
    mech_mat3 *beta;         /* (nb) β_j = α_j γ_j: passive parent -> body j (entry 0 unused)                      */
    mech_vec3 *r;            /* (nb) r_{p(j),j}: parent origin -> body origin, parent frame, m                     */
    mech_vec3 *w;            /* (nb) velocity-product linear acceleration w_j, body frame, m/s^2                   */
    mech_vec3 *eps;          /* (nb) velocity-product angular acceleration ε_j, body frame, rad/s^2               */
    mech_vec3 *xvel;         /* (nb) origin velocity, world, m/s                                                  */
    mech_vec3 *xomega;       /* (nb) angular velocity, world, rad/s                                               */
    double    *cosq, *sinq;  /* (n) cos q, sin q of revolute joints (1, 0 for prismatic ones)                     */

    /* ---- computed by mech_body_aba: (kinematics, loads) => (below) --------------------------------------------- */
    mech_mat3 *Mtt, *Mtr, *Mrr; /* (nb) articulated inertia M^Σ of spec 001 §2.4 pass 2 at the body origin, body
                                   frame (entry 0: the root's, base frame): kg, kg m, kg m^2                      */
    mech_vec3 *fsum, *msum;  /* (nb) bias force f^Σ (N) and moment m^Σ (N m), body frame                           */
    double    *Dinv;         /* (n) 1/I* (revolute) or 1/m* (prismatic)                                            */
    double    *aJ;           /* (n) a_J of eq. 2.7                                                                 */
    double    *qdd;          /* (n) joint accelerations, rad/s^2 or m/s^2                                           */
    mech_vec3 *acc;          /* (nb) classical acceleration of the origin, body frame (base: output in floating
                                mode, copy of base_acc_in in prescribed mode; free bodies: world), m/s^2          */
    mech_vec3 *alpha;        /* (nb) angular acceleration, body frame, rad/s^2                                     */
    mech_vec3  base_force;   /* load of the tree on the base at the base origin, base frame, N (the sum of the
                                joint reactions of the base's children; includes the tree's weight)             */
    mech_vec3  base_moment;  /* its moment about the base origin, base frame, N m                                  */
    double     root_Ai[3][3], root_AiB[3][3], root_Si[3][3];   /* floating base: the block elimination of its 6x6
                                articulated inertia (A^-1, A^-1 B, S^-1 of mech_body_solve6), which
                                mech_body_aba_unit solves with again                                             */

    /* ---- computed by mech_body_aba_unit: (data after mech_body_aba, joint j) => (below) ----------------------- */
    mech_vec3 *dacc;         /* (nb) change of acc of bodies 0..n per unit of tau[j] (free bodies: unused),
                                m/s^2 per N (prismatic) or per N m (revolute)                                    */
    mech_vec3 *dalpha;       /* (nb) change of alpha of bodies 0..n per unit of tau[j], rad/s^2 per N or N m     */
    double    *dqdd;         /* (n) change of qdd per unit of tau[j]; dqdd[j] = 1 / (the joint's effective
                                inertia on the whole tree) > 0                                                 */
    mech_vec3  dbase_force;  /* change of base_force per unit of tau[j], N per N or N m                           */
    mech_vec3  dbase_moment; /* change of base_moment per unit of tau[j]                                          */

    /* ---- internal scratch of the passes (no meaning between calls) ------------------------------------------ */
    mech_vec3 *Ut, *Ur;      /* (nb) the joint column of M^Σ (translational and rotational parts)                 */
} mech_body_data;

// (model) => data with everything zero and identity attitudes (one allocation)
int mech_body_data_new(const mech_body_model *m, mech_body_data **out, hy_err *err);
// (model, src, dst made for the same model) => dst = src (whole buffer; pointers stay dst's own)
void mech_body_data_copy(const mech_body_model *m, mech_body_data *dst, const mech_body_data *src);
void mech_body_data_free(mech_body_data *d);

/* ---- stages ----------------------------------------------------------------------------------------------- */
// (t, y) => d->t, q, qd, pos/quat/vel/omega of the base and free bodies (quaternions used as stored)
void mech_body_set_state(const mech_body_model *m, mech_body_data *d, double t, const double y[]);
// (data) => y (inverse of mech_body_set_state)
void mech_body_get_state(const mech_body_model *m, const mech_body_data *d, double y[]);
// (state) => kinematics fields (spec 001 §2.4 pass 1 plus world poses and velocities of every body)
void mech_body_kinematics(const mech_body_model *m, mech_body_data *d);
// () => tau, f_ext, m_ext and hook terms zero
void mech_body_clear_loads(const mech_body_model *m, mech_body_data *d);
// (kinematics, loads) => passes 2 and 3 of spec 001 §2.4 with the reconstructed shift; the base's acceleration
// (floating) and the base reaction. HY_ENUMERIC when an articulated inertia I*, m* or the root's is not positive
// (the configuration made a joint singular); nothing else fails
int mech_body_aba(const mech_body_model *m, mech_body_data *d);
/* (data after a successful mech_body_aba, tree joint j in 0..n-1) => dacc, dalpha, dqdd, dbase_force,
 * dbase_moment: the response of the tree's accelerations and base reaction to a unit force added to tau[j]. The
 * articulated-body solution is affine in the loads with the articulated inertias as coefficients, so this is a pass
 * of vectors over the inertias of the last mech_body_aba (no velocity terms, no gravity): the joint's path to the
 * root up, the root's 6x6 solve (floating base; with the elimination that mech_body_aba kept in root_Ai, root_AiB,
 * root_Si, so a singular root has already failed there), every body down. HY_OK (the code is kept for callers that
 * test it). A solver that
 * needs a joint's effective mass and then a load that depends on it (friction on a prismatic guide) runs one
 * mech_body_aba, this and mech_body_aba_add_unit instead of three passes of mech_body_aba. */
int mech_body_aba_unit(const mech_body_model *m, mech_body_data *d, int j);
/* (data after mech_body_aba and mech_body_aba_unit of joint j, force f) => tau[j] += f and acc, alpha, qdd,
 * base_force, base_moment as mech_body_aba gives them with that load (to round-off); the pass-2 intermediates
 * (articulated inertias, fsum, msum, aJ) stay those of the last mech_body_aba */
void mech_body_aba_add_unit(const mech_body_model *m, mech_body_data *d, int j, double f);
// (free-body state, loads) => acc (world) and alpha (body frame) of the free bodies (Newton-Euler, full inertia)
void mech_body_free_dynamics(const mech_body_model *m, mech_body_data *d);
// kinematics (already done by the caller) => aba + free dynamics
int mech_body_forward(const mech_body_model *m, mech_body_data *d);
// (data after forward) => dy/dt in the layout above
void mech_body_state_deriv(const mech_body_model *m, const mech_body_data *d, double dydt[]);

/* ---- helpers for force callbacks (contacts, springs): any body id 0 .. nbody-1 ---------------------------- */
// (id, point fixed on the body, body frame) => its world position (after kinematics)
mech_vec3 mech_body_point_world(const mech_body_model *m, const mech_body_data *d, int id, mech_vec3 p_body);
// (id, point fixed on the body, body frame) => its world velocity
mech_vec3 mech_body_point_velocity(const mech_body_model *m, const mech_body_data *d, int id, mech_vec3 p_body);
// (id, world point) => world velocity of the body's material point that is there now
mech_vec3 mech_body_world_point_velocity(const mech_body_model *m, const mech_body_data *d, int id, mech_vec3 p_world);
/* (id, world point, world force) => the force acting at that point ADDED to the body's external load (f_ext and the
 * moment about its origin m_ext, converted to the body frame). Equal and opposite loads are two calls. The point
 * need not lie on the body (a force's line of action is what counts). Uses the kinematics stage's xmat and pos. */
void mech_body_apply_world_force(const mech_body_model *m, mech_body_data *d, int id, mech_vec3 point_world,
                                 mech_vec3 force_world);
// (id, world moment) => a pure couple added to the body's m_ext
void mech_body_apply_world_moment(const mech_body_model *m, mech_body_data *d, int id, mech_vec3 moment_world);

/* ---- invariants ------------------------------------------------------------------------------------------- */
// (after kinematics) => kinetic energy of all bodies, J
double mech_body_kinetic_energy(const mech_body_model *m, const mech_body_data *d);
// (after kinematics) => potential energy of gravity, J (zero at the world origin)
double mech_body_gravity_energy(const mech_body_model *m, const mech_body_data *d);
// (after kinematics) => total linear momentum P (kg m/s) and angular momentum L about the world origin (kg m^2/s),
// world frame, of all bodies
void mech_body_momentum(const mech_body_model *m, const mech_body_data *d, mech_vec3 *P, mech_vec3 *L);

/* ---- independent reference (test oracle; allocates) --------------------------------------------------------- */
/* Unknowns x = [base acc (3, base frame), base alpha (3, base frame), qdd (n)] (floating), N = 6 + n; or x = qdd
 * (prescribed, N = n). */
// (after kinematics) => H (N x N row-major) by the composite-rigid-body method, world-frame spatial inertias
int mech_body_crba(const mech_body_model *m, const mech_body_data *d, double *H, hy_err *err);
// (after kinematics, loads) => generalized force C (N) that the motion with x = 0 needs beyond the loads
// (recursive Newton-Euler in the world frame; includes gravity and external loads with a minus sign)
int mech_body_rne(const mech_body_model *m, const mech_body_data *d, double *C, hy_err *err);
// (after kinematics, loads) => x solving H x = tau - C with LAPACK (dposv; prescribed: the base acceleration of
// the data moved to the right side); x has 6 + n (floating) or n entries
int mech_body_forward_reference(const mech_body_model *m, const mech_body_data *d, double *x, hy_err *err);

/* ---- integrator ------------------------------------------------------------------------------------------- */
/* The force callback: called at every stage with the data after mech_body_kinematics and mech_body_clear_loads
 * (t, state, world poses and velocities of every body). It ADDS loads (apply helpers, f_ext, m_ext, tau,
 * hook_*) and may set base_acc_in/base_alpha_in (prescribed mode). Hysteretic elements and stick anchors
 * evaluate TRIAL states here, never commit. HY_OK, or an error code with a one-line message in err (the
 * integration stops; the integrator prefixes the time). */
typedef int (*mech_body_force_fn)(const mech_body_model *m, mech_body_data *d, void *user, hy_err *err);
/* Called once per accepted step, after the force callback ran again at the accepted state (quaternions
 * renormalised): the trials there are committed. */
typedef int (*mech_body_commit_fn)(const mech_body_model *m, const mech_body_data *d, void *user, hy_err *err);
/* Called after the stages of every step, before the accepted state is evaluated: the stage trials are dropped. */
typedef void (*mech_body_revert_fn)(void *user);

typedef struct mech_body_sim_opts {
    double              h;        /* fixed step, s                                                            */
    mech_body_force_fn  force;    /* NULL: no loads                                                           */
    mech_body_commit_fn commit;   /* NULL: nothing to commit                                                  */
    mech_body_revert_fn revert;   /* NULL: nothing to revert                                                  */
    void               *user;
    double              tol;      /* 0: fixed RK4 steps of h; > 0: error-controlled Dormand-Prince 5(4) steps
                                     (the ODE layer's adaptive driver, eps_abs = eps_rel = tol; h is then the
                                     first trial step), a rejected step's trials reverted                       */
} mech_body_sim_opts;

typedef struct mech_body_sim mech_body_sim;

// (model, options) => integrator with its own data and RK4 workspace (the model must outlive it)
int mech_body_sim_new(const mech_body_model *m, const mech_body_sim_opts *o, mech_body_sim **out, hy_err *err);
void mech_body_sim_free(mech_body_sim *s);
/* (t, y in the layout above) => the integrator starts there: quaternions normalised, the force callback run and
 * committed at that state (an error there is returned with its message) */
int mech_body_sim_start(mech_body_sim *s, double t, const double y[], hy_err *err);
/* (t1) => fixed RK4 steps of h (the last one shortened to land on t1): each step calls the force callback at the
 * four stages, revert, renormalises the quaternions, runs the callback at the new state and commit. With tol > 0
 * error-controlled steps instead (the callback at every stage, revert on a rejected step, commit on an accepted
 * one; the quaternions renormalised at t1 when their norm drifted by more than 1e-9). On an error the state stays
 * at the last accepted step and the message names the time. */
int mech_body_sim_advance(mech_body_sim *s, double t1, hy_err *err);
// (sim) => current time and state vector (layout above)
double mech_body_sim_time(const mech_body_sim *s);
const double *mech_body_sim_state(const mech_body_sim *s);
// (sim) => data evaluated at the last accepted state (kinematics, loads, accelerations)
const mech_body_data *mech_body_sim_data(const mech_body_sim *s);
// (sim) => the ODE system (function, accept, reject) for use with other mech_ode drivers
const mech_ode_system *mech_body_sim_system(const mech_body_sim *s);
// (sim) => accepted steps so far
unsigned long mech_body_sim_steps(const mech_body_sim *s);

#endif

/* The jointed-beam spacecraft of spec 004 (Sun Jie et al. 2020): a rigid hub (attitude theta about one axis, inertia
 * J1) with one flexible Euler-Bernoulli appendage, clamped to the hub face at r0 from the axis and split by hinges.
 *
 *   FE model (spec 004 §2): cubic Hermite elements, consistent mass, root clamped; a hinge node shares the
 *     deflection w and has two rotation DOFs (left end, right end); lumped hinge mass on w (eq. 2) and the 2x2
 *     rotational spring k (eq. 3) between the two rotations. The mesh puts a node on every hinge, patch end and
 *     load point.
 *   Modal reduction (§2, §3): mass-normalised modes Phi of the clamped hinged beam (LAPACK dsygvd), optional hinge
 *     attachment modes (§9.2), Mhat = Phi' Mbar Phi, Khat = Phi' Kbar Phi, H = u_r' Mbar Phi, J = J1 + u_r' Mbar u_r.
 *   Coupled nonlinear equations (eq. 15) in x = [theta; q]:
 *     [J + q'Mq  H ] [th'']   [0 0] [th']   [0      0     ] [th]   [ -2 th' q'M q' (+ tip torque, option) ]
 *     [H'        M ] [q'' ] + [0 C] [q' ] + [0  K - th'^2 M] [q ] = [ F + F_h + b U                       ]
 *   integrated by Newmark (§4), lagged (the paper) or iterated; or the same equations in physical FE coordinates
 *   (q = the FE DOFs, M = Mbar, K = Kbar; banded LAPACK solves), the reference of the reduced model.
 *   Hinge laws (§2): dead zone Option A (default) / Option B, any hyst-model element (trial/commit/revert), or a
 *   dead zone in series with a hyst-model element. Every hinge j has the total moment M_j(dtheta_j) and enters as
 *   the generalized force dphi_j' (k_j dtheta_j - M_j), since Kbar already holds its linear spring k_j.
 *   MFC pair (§5): the moment pair -Mp at the patch's root end, +Mp at its outer end, Mp = e_eff b t (h + t) U / De.
 * Every choice the paper leaves open is a named parameter; docs/beam.md gives the values chosen and why. */
#ifndef MECH_BEAM_H
#define MECH_BEAM_H

#include <stddef.h>
#include "hyst/common.h"
#include "hyst/element.h"
#include "hyst/model.h"

#define MECH_BEAM_MAX_HINGES 16

/* Hinge moment laws (spec 004 §2, eq. 1). */
enum mech_beam_law {
    MECH_BEAM_DEADZONE_A = 0,  /* M = k (dth - sat(dth, d)): zero inside the gap; d = 0 is the linear hinge     */
    MECH_BEAM_DEADZONE_B,      /* M = k dth + F_a(dth): the literal reading, stiffness k inside, 2k beyond     */
    MECH_BEAM_MODEL,           /* M = Q(dth) of a hyst-model element (trial / commit / revert)                  */
    MECH_BEAM_DEADZONE_MODEL   /* freeplay d in series: M = Q(dth - sat(dth, d))                                */
};

typedef struct mech_beam_hinge {
    double position;   /* distance from the root, m, strictly inside (0, length)                              */
    double k;          /* spring of eq. 3 in the modal basis and of the dead zone, N m/rad                      */
    double mass;       /* lumped mass on the hinge node's deflection (eq. 2), kg                                */
    double clearance;  /* half gap d of eq. 1, rad (>= 0)                                                       */
    int    law;        /* enum mech_beam_law                                                                    */
    const hy_model *model;   /* MODEL / DEADZONE_MODEL: the law (borrowed; must outlive every data)            */
    double q_scale;    /* model q units per rad (1 for "rad", 1000 for "mrad", 180/pi for "deg")                */
    double Q_scale;    /* N m per model Q unit (1 for "N m", 1000 for "kN m", 1e-3 for "N mm")                   */
    double law_scale;  /* the law's moment (and so its stiffness) times this, any law (1; finite > 0): the hinge's
                          hysteresis scale a calibration identifies (docs/beam.md, docs/calibrate.md)            */
} mech_beam_hinge;

/* The MFC pair of spec 004 §5 (top and bottom patches driven in opposite senses, one voltage U). */
typedef struct mech_beam_mfc {
    int    enabled;
    double start, length;      /* patch from start to start + length along the beam, m (paper 0.9, 0.3)        */
    double width, thickness;   /* one patch, m (0.2, 0.0003)                                                   */
    double e_eff;              /* effective stress constant, N/(V m) (E1 d11 = 12.14)                            */
    double electrode;          /* electrode spacing De, m (0.0003: the patch thickness)                        */
    int    add_structure;      /* 1: add the two patches' mass and bending stiffness to the beam elements       */
    double density, E1;        /* patch density kg/m^3 and modulus Pa, for add_structure                        */
} mech_beam_mfc;

typedef struct mech_beam_params {
    double E, rho;             /* Pa, kg/m^3 (70e9, 2700)                                                       */
    double length, width, thickness;   /* m (3, 0.2, 0.015)                                                    */
    double r0;                 /* hub half side: root distance from the axis, m (0.2)                           */
    double J1;                 /* hub inertia, kg m^2 (100)                                                     */
    int    n_elem;             /* target element count (60): element length at most length / n_elem            */
    int    n_modes;            /* retained clamped modes (5); 0 = all                                          */
    int    attachment_modes;   /* 1: add one static hinge attachment mode per hinge to Phi (spec §9.2)          */
    double load_position;      /* where the external force acts, m (the tip)                                    */
    int    n_hinges;
    mech_beam_hinge hinge[MECH_BEAM_MAX_HINGES];
    mech_beam_mfc mfc;
} mech_beam_params;

// (p) => the paper's defaults (spec §6): one mid-span Option A hinge, k = k_l = 100 EI / l^2, m = 0.02, d = 0
void mech_beam_params_default(mech_beam_params *p);
// (p) => EI, N m^2
double mech_beam_EI(const mech_beam_params *p);
// (p) => k_l = 100 EI / l^2, the paper's reference hinge stiffness (numerically, spec §12.6)
double mech_beam_k_ref(const mech_beam_params *p);
// (p, n_j) => n_j equally spaced hinges at i l / (n_j + 1) with the first hinge's k, mass, clearance and law
void mech_beam_params_equal_hinges(mech_beam_params *p, int n_j);

typedef struct mech_beam_model mech_beam_model;   /* compiled, immutable */

/* (params) => compiled model: mesh, FE matrices, modes, reduced matrices. Errors name the parameter
 * ("hinges[1].position = 3.2: outside the beam (0, 3)"). */
int mech_beam_model_new(const mech_beam_params *p, mech_beam_model **out, hy_err *err);
void mech_beam_model_free(mech_beam_model *m);

/* What a compiled model exposes (pointers into the model; row-major). */
typedef struct mech_beam_info {
    size_t n_elem, n_node, ndof;   /* mesh and FE DOFs (root excluded)                                        */
    size_t nm;                     /* reduced coordinates (modes + attachment modes)                           */
    double J;                      /* J1 + u_r' Mbar u_r, kg m^2                                               */
    double k_ref;                  /* k_l, N m/rad                                                              */
    const double *x_node;          /* node positions (n_node), m                                               */
    const double *omega;           /* clamped-beam circular frequencies of the retained modes (nm), rad/s      */
    const double *Phi;             /* ndof x nm                                                                 */
    const double *Mhat, *Khat;     /* nm x nm                                                                   */
    const double *H;               /* nm: rigid-flexible coupling row                                          */
    const double *tip;             /* nm: tip deflection per modal coordinate                                  */
    const double *dphi;            /* n_hinges x nm: hinge rotation jump per modal coordinate                  */
    const double *b_u;             /* nm: MFC generalized force per volt (zero without MFC)                    */
    const double *f_load;          /* nm: generalized force per newton at the load point                       */
    double ortho_err;              /* how far Phi' Mbar Phi was from I and Phi' Kbar Phi from diagonal before
                                      the model snapped them (round-off)                                       */
} mech_beam_info;
void mech_beam_model_info(const mech_beam_model *m, mech_beam_info *info);
const mech_beam_params *mech_beam_model_params(const mech_beam_model *m);

/* (model, ns stations x[s] along the appendage from its root, 0 <= x <= length) => phi[s * nm + i], the deflection
 * (body frame, m per unit of eta_i) of reduced coordinate i at x: the FE model's cubic Hermite shape functions on
 * the element holding x applied to column i of Phi (beam_shape.c), so that w(x, t) = sum_i phi_i(x) eta_i(t) is the
 * simulator's deflection (at x = length exactly mech_beam_info.tip; the hinges' kinks are in Phi). HY_EARG naming
 * the station outside [0, length]. */
int mech_beam_shapes(const mech_beam_model *m, size_t ns, const double *x, double *phi, hy_err *err);

/* Frequency tables, Hz, ascending. */
// (model) => the clamped (hub fixed) frequencies of the reduced model, nm values
int mech_beam_freq_clamped(const mech_beam_model *m, double *f, hy_err *err);
// (model) => the free-hub system frequencies from eig(K_s, M_s) (spec §10.3): 1 + nm values, f[0] = rigid mode
int mech_beam_freq_system(const mech_beam_model *m, double *f, hy_err *err);
// (model) => the clamped frequencies of the reduced model with every hinge spring removed (open hinges, spec §9.2)
int mech_beam_freq_open(const mech_beam_model *m, double *f, hy_err *err);

/* ---- time integration ---- */
enum mech_beam_update { MECH_BEAM_LAGGED = 0, MECH_BEAM_ITERATED = 1 };

typedef struct mech_beam_solver {
    double beta, gamma;        /* Newmark (1/4, 1/2: average acceleration)                                     */
    double dt, duration;       /* s (1e-4, 2)                                                                  */
    int    update;             /* enum mech_beam_update (lagged: the paper)                                    */
    double tol;                /* iterated: |dx| / (1 + |x|) below which the iteration stops (1e-12)           */
    int    max_iter;           /* iterated: at most this many passes per step (50)                            */
    int    theta_torque;       /* 1: the external force's torque (r0 + x_F) F acts on the theta row ("consistent")*/
    int    physical;           /* 1: integrate in physical FE coordinates (banded solves) instead of modes     */
    int    linear;             /* 1: drop q'Mq, th'^2 M and the gyroscopic term (the linear model, eq. 21)      */
} mech_beam_solver;
void mech_beam_solver_default(mech_beam_solver *s);

/* External load: a rectangular pulse plus an optional force history (linear interpolation, 0 outside).
 * How the pulse's two jumps fall on the time grid is a named choice (docs/beam.md, load.edges): */
enum mech_beam_edges {
    MECH_BEAM_EDGES_CLOSED = 0, /* F0 at both end samples, t0 <= t <= t0 + width: impulse (width + dt) F0 in the
                                   trapezoid sense; reproduces spec §8's baseline (the default)                  */
    MECH_BEAM_EDGES_HALF,       /* F0 / 2 at both end samples: the exact impulse width F0                        */
    MECH_BEAM_EDGES_OPEN        /* t0 <= t < t0 + width: impulse (width - dt) F0                                 */
};
typedef struct mech_beam_load {
    double F0, t0, width;      /* pulse: F0 newtons from t0 for width seconds (300, 0, 0.005)                  */
    int    edges;              /* enum mech_beam_edges                                                          */
    size_t n_hist;             /* force history samples (0: none)                                             */
    const double *t_hist, *F_hist;   /* borrowed; t increasing                                                */
} mech_beam_load;
void mech_beam_load_default(mech_beam_load *l);
// (load, t) => force at time t, N
double mech_beam_load_eval(const mech_beam_load *l, double t);

/* Full-state feedback U = -K z, z = [q; q'] (2 nm), clipped to |U| <= u_max (0: no limit). */
typedef struct mech_beam_control {
    const double *K;           /* 1 x 2 nm (borrowed); NULL: no control                                       */
    double u_max;              /* V                                                                             */
} mech_beam_control;

/* Initial state (defaults: rest). */
typedef struct mech_beam_init {
    double theta, theta_dot;
    const double *q, *q_dot;   /* nm each (reduced) or ndof each (physical), or NULL for zero                 */
} mech_beam_init;

/* Switches that disable force components (all 1 by default; tests isolate components with them). */
typedef struct mech_beam_enable {
    int hinge_law;             /* 0: every hinge is the linear spring k of Kbar                                */
    int gyroscopic;            /* 0: no -2 th' q'Mq' on the theta row                                          */
    int centrifugal;           /* 0: no -th'^2 M in the stiffness                                              */
    int mass_coupling;         /* 0: no q'Mq in the theta-theta mass                                          */
} mech_beam_enable;

typedef struct mech_beam_data mech_beam_data;

/* One observation (per accepted step). */
typedef struct mech_beam_obs {
    double t;
    double w_tip;              /* elastic tip deflection in the body frame, m                                 */
    double theta, theta_dot;   /* rad, rad/s                                                                    */
    double U;                  /* MFC voltage, V                                                               */
    double F;                  /* external force, N                                                            */
    /* filled by mech_beam_observe_energy only (O(n) or O(n kd) more work): */
    double h;                  /* angular momentum (J + q'Mq) th' + H q', N m s                                */
    double T, V_beam;          /* kinetic energy and the beam's elastic energy without hinge springs, J        */
    double W_hinge;            /* work absorbed by the hinges so far, sum of trapezoids of M d(dth), J         */
    double W_ext;              /* work of the external force and the MFC so far (trapezoids), J                */
    double E_lin;              /* energy of the linearised model: 1/2 v'M_s v + 1/2 q'Khat q, J                */
    const double *dtheta;      /* n_hinges, rad                                                                */
    const double *M;           /* n_hinges, total hinge moments, N m                                           */
    int iterations;            /* iterated update: passes of the last step                                    */
    int events;                /* set by mech_beam_run: MECH_BEAM_EV_* of this sample                          */
    const double *q;           /* nq flexible coordinates (a pointer into the data): the modal coordinates eta of
                                  the reduced model (w = Phi eta: mech_beam_shapes), or the FE DOFs (physical)     */
    size_t nq;
} mech_beam_obs;

/* A hinge's events (mech_beam_obs.events, counted in mech_beam_history): its contact starting or ending (this sample
 * is the first with |dtheta_j| above its clearance, or back within it), and its turning point (dtheta_j reverses
 * at this sample: the sample before was the extreme, a reversal point of the hinge's loop; increments of 0 keep
 * the last direction). */
enum { MECH_BEAM_EV_CONTACT = 1, MECH_BEAM_EV_TURNED = 2 };

/* (model, solver, load, control or NULL, initial state or NULL, switches or NULL) => data at t = 0 with every hinge
 * element created and reset; one allocation for the arrays, plus one element per model-law hinge. */
int mech_beam_data_new(const mech_beam_model *m, const mech_beam_solver *s, const mech_beam_load *load,
                       const mech_beam_control *ctl, const mech_beam_init *init, const mech_beam_enable *en,
                       mech_beam_data **out, hy_err *err);
void mech_beam_data_free(mech_beam_data *d);
// (data) => one Newmark step; allocates nothing. Errors name the time, the hinge and a hint; the data keeps the last
// accepted state
int mech_beam_step(mech_beam_data *d, hy_err *err);
/* (data, n >= 0) => n Newmark steps in one call (Python's BeamSim.run: no interpreter time per step); *done = the
 * steps taken. Stops at the first failing step (its code and err, as mech_beam_step); allocates nothing. */
int mech_beam_step_n(mech_beam_data *d, long n, long *done, hy_err *err);
// (data) => observation of the last accepted state (pointers into the data); energy fields 0
void mech_beam_observe(const mech_beam_data *d, mech_beam_obs *o);
// (data) => the same with the angular momentum and the energies
void mech_beam_observe_energy(const mech_beam_data *d, mech_beam_obs *o);
// (data) => number of steps taken
long mech_beam_steps(const mech_beam_data *d);
// (data) => reduced or physical coordinates x = [theta; q] and rates (1 + n each), n in *n
const double *mech_beam_state(const mech_beam_data *d, const double **rate, size_t *n);

/* ---- a whole time response into caller arrays (the run of `mech beam sim`, spec 004 §4.5; Python's run_beam) ---- */
typedef struct mech_beam_history {
    size_t cap;                /* samples each array holds (mech_beam_samples for the whole run)               */
    double *t, *w_tip, *theta, *theta_dot, *U, *F;   /* cap each, the caller's                                 */
    double *dtheta, *M;        /* n_hinges x cap each, hinge-major (hinge j at j * cap); NULL without hinges   */
    /* filled by mech_beam_run: */
    size_t n;                  /* samples written: t = 0 and one per accepted step                             */
    int failed;                /* 1: a step failed (err holds its message); the n samples before it are kept   */
    double W_ext, W_hinge, T, V_beam, h;   /* of the last sample written (mech_beam_obs)                        */
    double balance_max;        /* max over the samples of |T + V_beam + W_hinge - W_ext|, J                     */
    double W_j[MECH_BEAM_MAX_HINGES];      /* work of each hinge: trapezoids of M d(dtheta) over the samples, J */
    long contact[MECH_BEAM_MAX_HINGES];    /* samples with |dtheta_j| > the hinge's clearance                  */
    long contact_onsets[MECH_BEAM_MAX_HINGES];   /* contacts starting (MECH_BEAM_EV_CONTACT into contact)      */
    long turning_points[MECH_BEAM_MAX_HINGES];   /* reversals of dtheta_j (MECH_BEAM_EV_TURNED)                */
    /* optional, the caller's: called before each sample with the fraction done (a progress line; NULL: none) */
    void (*progress)(void *ctx, double fraction);
    void *progress_ctx;
    /* optional, the caller's: called with every sample i (with energies) as it is made, so that a caller streams
     * the run (`mech beam sim` writes its rows here) instead of keeping it; a status other than HY_OK stops the run
     * and is returned (err filled by the callback). With it, cap may be 0 and the arrays NULL: nothing is kept. */
    int (*sample)(void *ctx, size_t i, const mech_beam_obs *o, hy_err *err);
    void *sample_ctx;
} mech_beam_history;

/* (solver) => *n = lround(duration / dt) + 1, the samples of a whole run; HY_EARG naming solver.duration and
 * solver.dt unless dt > 0 and 0 <= duration / dt <= 1e8 */
int mech_beam_samples(const mech_beam_solver *s, size_t *n, hy_err *err);
/* (model, solver, load, control or NULL, history with the caller's arrays and/or sample callback) => the whole run
 * from rest: the data made, mech_beam_samples samples observed (with energies) into the arrays (when given) and
 * passed to the callback (when given), the data freed. HY_EARG when arrays are given and cap is smaller than the
 * run. A failing step keeps the samples before it, sets failed and returns its status. */
int mech_beam_run(const mech_beam_model *m, const mech_beam_solver *s, const mech_beam_load *load,
                  const mech_beam_control *ctl, mech_beam_history *h, hy_err *err);
/* ---- the peaks of a run (beam_peaks.c): what `mech beam sim --summary` and a sweep's beam run report ---- */
typedef struct mech_beam_peak {
    double v, t;               /* the value with the largest |value| so far (the first on ties) and its time     */
} mech_beam_peak;
#define MECH_BEAM_SETTLE_BAND 0.05   /* the settling band: 5 % of the peak tip deflection                      */
typedef struct mech_beam_peaks {
    int nh;                    /* hinges                                                                        */
    mech_beam_peak pk[4];      /* w_tip, theta, theta_dot, U                                                   */
    mech_beam_peak pq[MECH_BEAM_MAX_HINGES], pM[MECH_BEAM_MAX_HINGES];   /* each hinge's dtheta_j and M_j       */
    double out_t;              /* time of the last sample with |w_tip| above the band of the peak so far       */
    int out_last;              /* 1: the last sample added was above it                                        */
} mech_beam_peaks;
/* (peaks, sample index i, observation) => the sample added (i = 0 starts them; a NaN never replaces a value); one
 * function for every caller, so the program's summary and a sweep row are the same numbers */
void mech_beam_peaks_add(mech_beam_peaks *p, size_t i, const mech_beam_obs *o);
/* (peaks) => the tip deflection's settling time: the time of the last sample with |w_tip| above
 * MECH_BEAM_SETTLE_BAND x its peak |w_tip| (the response stays inside the band after it), NAN when the last sample
 * is outside the band (not settled within the run). Exact from the samples as they stream: a sample after the peak
 * is compared with the final peak, and the peak sample itself is later than every sample before it. */
double mech_beam_peaks_settling(const mech_beam_peaks *p);

/* Two whole runs in lockstep (`mech beam lqr`: the uncontrolled and the controlled run side by side): the same
 * per-sample code as mech_beam_run; at each sample i run 0 then run 1 step and are observed into their histories
 * (arrays, counts, their own callbacks as mech_beam_run), then pair(ctx, i, run 0's, run 1's observation) is called
 * (NULL: none; a status other than HY_OK stops both runs and is returned); with pair, cap may be 0 and the arrays
 * NULL. h[0]'s progress callback reports. The
 * first failure stops both; *which = the run (0, 1) whose data could not be made or whose step failed (its history's
 * failed set for a step), -1 otherwise. */
typedef int (*mech_beam_pair_fn)(void *ctx, size_t i, const mech_beam_obs *o0, const mech_beam_obs *o1, hy_err *err);
int mech_beam_run_pair(const mech_beam_model *m, const mech_beam_solver *s, const mech_beam_load *load,
                       const mech_beam_control *const ctl[2], mech_beam_history *const h[2],
                       mech_beam_pair_fn pair, void *ctx, int *which, hy_err *err);

/* ---- linear model and LQR (spec §5) ---- */
/* (model, design) => A (2n x 2n), B (2n x 1) of the state-space model in row-major. design 0: the reduced flexible
 * model (theta eliminated with h = 0: M_eff = Mhat - H'H/J, z = [q; q']; n = nm); design 1: the paper's
 * theta-state model Z = [theta; q; theta'; q'] of eqs. 23-24 (n = 1 + nm). */
enum { MECH_BEAM_DESIGN_FLEX = 0, MECH_BEAM_DESIGN_THETA = 1 };
// (model, design) => state size 2n in *n_state; A, B (caller-sized 2n x 2n and 2n, n = 1 + nm at most) filled
int mech_beam_linear(const mech_beam_model *m, int design, double *A, double *B, size_t *n_state, hy_err *err);

/* An LQR design (spec §5 eq. 25): Q = q_weight I, R = r_weight, on the chosen design model, solved by libmech's
 * ctrl module (SLICOT SB02OD). All arrays are owned by the result. */
typedef struct mech_beam_lqr {
    size_t ns;                 /* state size                                                                   */
    double *A, *B;             /* ns x ns, ns                                                                  */
    double *K;                 /* 1 x ns: U = -K z                                                             */
    double *X;                 /* ns x ns: the CARE solution                                                   */
    double *pole_re, *pole_im; /* ns closed-loop poles of A - B K                                              */
    double *open_re, *open_im; /* ns open-loop poles of A                                                      */
} mech_beam_lqr;
/* (model with an MFC, design, Q weight, R weight) => design; HY_EMODEL with the ctrl module's message when the
 * design model is not stabilisable (the theta-state design: the rigid mode is uncontrollable) */
int mech_beam_lqr_design(const mech_beam_model *m, int design, double q_weight, double r_weight, mech_beam_lqr *out,
                         hy_err *err);
void mech_beam_lqr_free(mech_beam_lqr *l);

/* ---- configuration file ("mech-beam" JSON, io/beam_json.c; docs/beam.md lists every key) ---- */
#define MECH_BEAM_PATH_LEN 1024
typedef struct mech_beam_config {
    mech_beam_params params;
    mech_beam_solver solver;
    mech_beam_load   load;
    char   model_path[MECH_BEAM_MAX_HINGES][MECH_BEAM_PATH_LEN];   /* hinges[j].model, resolved ("" = none)    */
    hy_model models[MECH_BEAM_MAX_HINGES];                         /* loaded by mech_beam_config_load          */
    char   history_path[MECH_BEAM_PATH_LEN];                       /* load.history, resolved ("" = none)       */
    char   history_t[64], history_F[64];                           /* its time and force columns ("t", "F")    */
    double *hist;                                                  /* t then F (2 n_hist), owned               */
    int    control_enabled;                                        /* control.enabled                          */
    int    control_design;                                         /* control.design: MECH_BEAM_DESIGN_*       */
    double control_Q, control_R, control_u_max;                    /* control.Q (600), .R (0.1), .u_max (0)    */
    double output_rate;   /* outputs.rate: rows a second of `mech beam sim`'s time response (0: every step, the
                             default); the hinge records, the summary and the figure keep every step            */
    int    output_events; /* outputs.events: MECH_BEAM_EVENTS_*, rows of the time response at the hinges' events */
} mech_beam_config;

/* outputs.events: the time response's rows at the hinges' events (MECH_BEAM_EV_*: a contact's first sample, a turning
 * point's extreme sample) besides those of outputs.rate ("also"), or only there and at the first and last steps
 * ("only") */
enum { MECH_BEAM_EVENTS_NONE = 0, MECH_BEAM_EVENTS_ALSO, MECH_BEAM_EVENTS_ONLY };

// (c) => the defaults (params, solver, load defaults; control off, Q 600, R 0.1)
void mech_beam_config_default(mech_beam_config *c);
/* (JSON text[len], name for messages, folder that relative paths are resolved against or NULL) => configuration
 * (model files and the force history are only named, not read). Errors name the file and the key, or the
 * line:column of malformed JSON. Never touches the file system. */
int mech_beam_config_parse(const char *text, size_t len, const char *name, const char *dir, mech_beam_config *c,
                           hy_err *err);
// (parsed configuration) => hinge model files and the force history read; unit checks (angle, moment)
int mech_beam_config_load(mech_beam_config *c, const char *name, hy_err *err);
// (path) => read + parse + load
int mech_beam_config_read(const char *path, mech_beam_config *c, hy_err *err);
void mech_beam_config_free(mech_beam_config *c);
// (unit text) => model units per rad, or 0 when it is not an angle unit
double mech_beam_angle_scale(const char *unit);
// (unit text) => N m per model unit, or 0 when it is not a moment unit
double mech_beam_moment_scale(const char *unit);

#endif

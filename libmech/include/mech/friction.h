/* Dry friction with variant constraints (spec 003, docs/friction.md): the reaction solver, stick/slip, the
 * small-friction check and Painlevé-paradox detection, for mechanisms held on guides by pairs of opposite surfaces.
 *
 * A system has w minimal coordinates q and ns redundant (Lurie) coordinates s, one per released constraint direction
 * (spec 003 §2.1); s = 0 holds identically, so only q'' and the normal reactions are unknown. Each of the nc contacts is
 * either a variant pair (side chi = +1 or chi = -1 loaded, at most one of them) or a one-sided contact (the n - w + 1
 * kind of §2.7). For each contact and side the caller gives, at the current state:
 *   n = J^T nu   the generalized direction of the normal reaction        (w + ns)
 *   t = J^T e_t  the generalized direction of a unit tangential force    (w + ns)
 * and the model holds the friction coefficients of each side. The generalized force of a slipping contact is
 * N (n - mu sigma t), sigma = sign of the sliding speed v = t_q . q' (friction opposes sliding); a stuck contact
 * adds an unknown tangential force F along t and the constraint t_q . q'' = 0 (§2.2).
 *
 * The equations (E1) are reduced to the reaction subspace (E2), K(chi) N = d, by one Cholesky factorization of
 * M_qq and one multi-right-hand-side solve per state (spec 003 §5 "efficiency trick"); every trial variant is then
 * a column selection and a small LU solve. Stages:
 *   mech_friction_prepare   (inputs) => (Y, Kn, Kt, dvec, v)                      once per state
 *   mech_friction_solve     (prepared, committed chi/slip as warm start) => (chi, slip, N, F, qdd)
 *   mech_friction_enumerate (prepared) => every admissible variant (oracle; paradox report)
 *   mech_friction_lp        (prepared) => the LP minimum of §2.4 (GLPK)
 *   mech_friction_check     (prepared, mu box) => coherent-orientation determinants (§2.6)
 * The variant solve allocates nothing; the LP does (GLPK allocates inside glp_simplex). Linear algebra: LAPACK
 * (column-major _work entry points, which do not allocate). */
#ifndef MECH_FRICTION_H
#define MECH_FRICTION_H

#include <stddef.h>
#include "hyst/common.h"

#define MECH_FRICTION_MAX_CONTACTS 12 /* enumeration is 2^nc solves, the box check 4^nc determinants           */

/* ---- model (immutable) ---- */
typedef struct mech_friction_contact {
    int    sides;    /* 2: a variant pair (chi = +1: side 0, chi = -1: side 1); 1: a one-sided contact (side 0)  */
    double mu[2];    /* sliding friction coefficient of each side, >= 0                                          */
    double mu_s[2];  /* static coefficient of each side (stick accepted while |F| <= mu_s N), >= 0              */
} mech_friction_contact;

typedef struct mech_friction_opt {
    double eps_v;        /* |v| at or below which a contact may stick (generalized speed units)                 */
    double eps_N;        /* reactions in (-eps_N, 0) count as "neither side loaded", N                            */
    int    max_attempts; /* cap of the variant-index iterations before the fallback                               */
    int    fallback;     /* when the flipping does not settle: 1 = enumerate all variants then the LP; 0 = fail  */
} mech_friction_opt;

// (o) => eps_v = 1e-9, eps_N = 1e-9, max_attempts = 8, fallback = 1
void mech_friction_opt_default(mech_friction_opt *o);

typedef struct mech_friction_model mech_friction_model;

// (w >= 1, ns >= 1, nc contacts, options or NULL) => compiled model; the contacts are copied
int mech_friction_model_new(int w, int ns, int nc, const mech_friction_contact *c, const mech_friction_opt *o,
                            mech_friction_model **out, hy_err *err);
int mech_friction_model_w(const mech_friction_model *m);
int mech_friction_model_ns(const mech_friction_model *m);
int mech_friction_model_nc(const mech_friction_model *m);
const mech_friction_contact *mech_friction_model_contact(const mech_friction_model *m, int c);
const mech_friction_opt *mech_friction_model_opt(const mech_friction_model *m);
// (m) => memory released
void mech_friction_model_free(mech_friction_model *m);

/* how a solve ended */
enum { MECH_FRICTION_VARIANT = 0, /* the variant-index algorithm settled                                     */
       MECH_FRICTION_ENUM,        /* it did not; a unique admissible variant was found by enumeration        */
       MECH_FRICTION_LP };        /* chosen by the LP of §2.4 (non-square systems, or several solutions)     */

/* ---- data (mutable; one allocation plus the LP object) ---- */
typedef struct mech_friction_data {
    int w, ns, nc;
    /* inputs, written by the caller (or the mechanism's assemble function) before mech_friction_prepare */
    double *Mqq;   /* mass matrix block q-q, SPD                                  (w x w, row-major), kg or kg m^2 */
    double *Msq;   /* mass matrix block s-q                                       (ns x w, row-major)            */
    double *fq;    /* Q_q - h_q: applied minus velocity-product forces            (w)                            */
    double *fs;    /* Q_s - h_s                                                   (ns)                           */
    double *qd;    /* generalized velocities (sliding directions)                 (w)                            */
    double *nvec;  /* J^T nu of contact c, side k at nvec + (2c + k)(w + ns)      (2 nc x (w + ns))               */
    double *tvec;  /* J^T e_t, same layout                                        (2 nc x (w + ns))               */
    int hold;      /* 1: contacts that start a solve stuck stay stuck, whatever their force (the release of §2.2 is
                      left to the caller, which follows the stick margin mu_s N - |F| as an event); 0 by default    */
    /* discrete state: the committed values are the warm start; mech_friction_solve writes the trial ones */
    int *chi;      /* variant index per contact, +1 or -1 (one-sided contacts: +1)  (nc)                          */
    int *slip;     /* slip index per contact: +1 / -1 sliding along +-e_t, 0 stuck   (nc)                          */
    int *chi_c, *slip_c;   /* committed copies                                                               */
    /* computed by mech_friction_prepare: (Mqq, Msq, fq, fs, qd, nvec, tvec) => (Y, Kn, Kt, dvec, v) */
    double *L;     /* Cholesky factor of Mqq                                      (w x w, column-major)          */
    double *Y;     /* Mqq^-1 [n_q t_q per contact side ..., fq]                    (w x (4 nc + 1), column-major) */
    double *Kn;    /* n_s - Msq Mqq^-1 n_q per contact side                        (2 nc x ns)                    */
    double *Kt;    /* t_s - Msq Mqq^-1 t_q per contact side                        (2 nc x ns)                    */
    double *dvec;  /* d = Msq Mqq^-1 fq - fs (E2)                                  (ns)                           */
    double *v;     /* sliding speed t_q . qd per contact side                      (2 nc)                         */
    /* computed by mech_friction_solve (or _lp): (prepared, chi, slip) => */
    double *N;     /* normal reaction magnitude of the loaded side, >= 0, N        (nc)                           */
    double *F;     /* tangential force on the body along e_t (stuck: the unknown; slipping: -mu sigma N)  (nc)   */
    double *qdd;   /* generalized accelerations                                    (w)                            */
    int attempts;  /* variant-index solves of the last call with a new variant (1: the warm start was right);
                      re-solves after a stick hypothesis is released are not counted                          */
    int method;    /* MECH_FRICTION_VARIANT, _ENUM or _LP                                                         */
    /* paradox report, filled when a solve finds no admissible variant or several (HY_ESTATE) */
    int n_solutions;        /* admissible variants counted by the enumeration (0 or >= 2 means a paradox)     */
    double det[1 << 6];     /* det K(chi) of every variant (first 64), index bit c set <=> chi_c = -1          */
    int n_det;
    unsigned sol_mask[2];   /* the first two admissible variants (bit c set <=> chi_c = -1)                   */
    unsigned bad_pairs;     /* pairs with a negative reaction in the last attempt (bit c)                     */
    unsigned lp_squeeze;    /* pairs loaded on both sides in the LP's vertex (bit c): not a variant state      */
    /* workspace (nothing is allocated after mech_friction_data_new) */
    double *A, *z, *A2, *z2, *Kw, *Yw;
    int *ipiv, *idx;
    double *lp_ar;
    int *lp_ia, *lp_ja;
    double *ls_s, *ls_work; /* dgelsd: singular values (ns + nc) and workspace (ls_lwork), sized by LAPACK's query  */
    int *ls_iwork;          /* (ls_liwork); for the minimum-norm split of statically indeterminate stick          */
    int ls_lwork, ls_liwork;
    void *lp;               /* the GLPK problem object, created once (glp_prob *)                             */
} mech_friction_data;

// (model) => data with chi = +1, slip = 0 everywhere and zeroed inputs
int mech_friction_data_new(const mech_friction_model *m, mech_friction_data **out, hy_err *err);
// (source data of the same model) => dst = src (everything but the LP object, which each data owns)
void mech_friction_data_copy(mech_friction_data *dst, const mech_friction_data *src);
// (d) => memory released
void mech_friction_data_free(mech_friction_data *d);
// (d) => committed discrete state := trial
void mech_friction_commit(mech_friction_data *d);
// (d) => trial discrete state := committed
void mech_friction_revert(mech_friction_data *d);

// (model, data with inputs) => Cholesky of Mqq, Y, Kn, Kt, dvec, v; HY_ENUMERIC when Mqq is not positive definite
int mech_friction_prepare(const mech_friction_model *m, mech_friction_data *d, hy_err *err);

/* (model, prepared data; chi/slip as warm start) => reactions and accelerations (spec 003 §2.3 with the stick
 * closure of §2.2). Slipping contacts take sigma = sign(v) when |v| > eps_v; a contact with |v| <= eps_v keeps the
 * slip index it has (0: stick hypothesis, accepted while |F| <= mu_s N, else it slips against F). Square systems of
 * pairs (ns = nc, all two-sided) use the variant-index algorithm; when it does not settle within max_attempts, the
 * enumeration decides (unique admissible variant) and otherwise the LP. Others go to the LP directly.
 * HY_ESTATE: no admissible variant (the report fields name the count and determinants). */
int mech_friction_solve(const mech_friction_model *m, mech_friction_data *d, hy_err *err);

/* (model, prepared data, slip indices as given) => number of distinct admissible solutions over all 2^nc chi (the
 * oracle of spec 003 §5; variants that differ only in unloaded pairs give one solution), det[] of every variant, and the first admissible one left in chi/N/F/qdd (unchanged when none).
 * Only for square systems of pairs. */
int mech_friction_enumerate(const mech_friction_model *m, mech_friction_data *d, int *count, hy_err *err);

/* (model, prepared data) => the LP of §2.4: minimize sum N+ + N- subject to (E2) and N >= 0, stuck contacts with a
 * free tangential force inside the friction cone; chi = the more loaded side of the basic solution, N = N+ + N-.
 * lp_squeeze names the pairs where the vertex loads both sides (a "squeeze" the objective did not remove: then the
 * LP's choice is no variant state and differs from the variant algorithm's). GLPK, presolved.
 * HY_ESTATE when infeasible (no solution). */
int mech_friction_lp(const mech_friction_model *m, mech_friction_data *d, hy_err *err);

/* ---- the small-friction check (spec 003 §2.6) ---- */
typedef struct mech_friction_verdict {
    int    small;      /* 1: the 2^nc coherent-orientation determinants are non-zero with one sign over the box */
    double det_min, det_max;  /* extreme signed values of det[chi_1 K_1 ... chi_nc K_nc] over orientations and
                                 box vertices, divided by the frictionless value's magnitude                     */
    unsigned worst;    /* orientation (bit c: chi_c = -1) holding the value of the other sign, or the smallest    */
    double mu_worst[MECH_FRICTION_MAX_CONTACTS]; /* the box vertex where that value is found (signed mu sigma)  */
} mech_friction_verdict;

/* (model, prepared data, scale) => verdict over the box mu_c in [0, scale mu_c(side)] (slipping contacts, with
 * their sigma; contacts with |v| <= eps_v over [-scale mu, +scale mu]). The determinant is multi-affine in the
 * coefficients, so its values at the box vertices decide its sign over the whole box. Square systems of pairs. */
int mech_friction_check(const mech_friction_model *m, mech_friction_data *d, double scale, mech_friction_verdict *v,
                        hy_err *err);

/* (model, prepared data, upper scale) => the largest scale in [0, hi] for which the check holds (bisection to
 * 1e-10 relative; hi when it holds everywhere, 0 when it fails even without friction) */
int mech_friction_mu_limit(const mech_friction_model *m, mech_friction_data *d, double hi, double *scale,
                           hy_err *err);

/* ============================================================================================================
 * Mechanisms and their time simulation (friction_mech.c, friction_sim.c), read from "mech-friction" JSON files
 * (io/friction_json.c).
 * ============================================================================================================ */
#define MECH_FRICTION_MAX_W 6
#define MECH_FRICTION_MAX_NC 6

enum { MECH_FRICTION_GENERIC = 0, MECH_FRICTION_BUSHING, MECH_FRICTION_SCREW, MECH_FRICTION_CRANK };

/* a load history: value + slope t + amplitude sin(2 pi freq t + phase) */
typedef struct mech_friction_load {
    double value, slope, amplitude, freq, phase;
} mech_friction_load;

// (load, t) => its value
double mech_friction_load_at(const mech_friction_load *l, double t);

typedef struct mech_friction_config {
    char name[128];
    int  kind;                     /* MECH_FRICTION_GENERIC, _BUSHING, _SCREW, _CRANK                               */
    int  w, ns, nc;                /* set by the kind (generic: given)                                              */
    mech_friction_contact contact[MECH_FRICTION_MAX_NC];
    /* bushing: a rod (x axial; redundant y, theta) held by nc = 2 pairs at axial positions a[0], a[1] from its centre
     * of mass, on its surface at +-radius; loads: axial force P at lateral offset e_y, lateral force F at axial offset
     * e_x, moment M (spec 003 §3 "symmetric guide") */
    double mass, radius, a[2], e_x, e_y;
    /* screw-nut: screw inertia J (angle phi), nut mass `mass`, lead p per radian, thread radius r (spec 003 §3) */
    double J, lead, thread_radius;
    /* slider-crank: crank radius, rod length (massless rod), crank inertia J, slider mass `mass` */
    double crank_radius, rod_length;
    mech_friction_load load[3];    /* bushing: P, F, M; screw: torque, axial force; crank: torque, slider force */
    /* generic: constant matrices */
    double Mqq[MECH_FRICTION_MAX_W * MECH_FRICTION_MAX_W], Msq[MECH_FRICTION_MAX_NC * MECH_FRICTION_MAX_W];
    double fq[MECH_FRICTION_MAX_W], fs[MECH_FRICTION_MAX_NC];
    double nvec[2 * MECH_FRICTION_MAX_NC * (MECH_FRICTION_MAX_W + MECH_FRICTION_MAX_NC)];
    double tvec[2 * MECH_FRICTION_MAX_NC * (MECH_FRICTION_MAX_W + MECH_FRICTION_MAX_NC)];
    /* initial state and run */
    double q0[MECH_FRICTION_MAX_W], qd0[MECH_FRICTION_MAX_W];
    double duration, step, sample;   /* s: end time, RK4 step, output interval                                 */
    int    on_paradox_lp;            /* 0: stop with the report (default); 1: report, then continue with the LP  */
    mech_friction_opt opt;
} mech_friction_config;

/* (text, length, display name) => configuration; errors name the file and the key ("f.json: contacts[1].mu: ...").
 * (text, len) need not be NUL-terminated. */
int mech_friction_config_parse(const char *text, size_t len, const char *name, mech_friction_config *cfg,
                               hy_err *err);
// (path) => configuration (mech_friction_config_parse on the file's contents)
int mech_friction_config_read(const char *path, mech_friction_config *cfg, hy_err *err);
// (kind) => "generic", "bushing", "screw_nut", "slider_crank"
const char *mech_friction_kind_name(int kind);

/* A compiled mechanism: the friction model plus the function that fills a data's inputs at (t, q, q'). */
typedef struct mech_friction_mech {
    mech_friction_config cfg;
    mech_friction_model *model;
} mech_friction_mech;

// (configuration) => mechanism (checks the geometry; errors name the key)
int mech_friction_mech_new(const mech_friction_config *cfg, mech_friction_mech **out, hy_err *err);
void mech_friction_mech_free(mech_friction_mech *mc);
/* (mechanism, t, q, qd, data) => data inputs (Mqq ... tvec, qd) filled; *Qa = applied generalized force (w) for
 * the power budget, *ke = kinetic energy */
int mech_friction_mech_assemble(const mech_friction_mech *mc, double t, const double *q, const double *qd,
                                mech_friction_data *d, double *Qa, double *ke, hy_err *err);
// (kind, coordinate i) => its name and unit ("x", "m")
void mech_friction_coord_name(const mech_friction_mech *mc, int i, const char **name, const char **unit);

/* Time simulation: RK4 with fixed steps, discrete states frozen inside a step, and every switch located as an event
 * (a reaction N_j reaching 0: variant flip; a sliding speed reaching 0: stick test; a stick force reaching the
 * cone: release). The state y = (q, q', W_friction, W_applied). */
typedef struct mech_friction_sim mech_friction_sim;

typedef struct mech_friction_sample {
    double t, q[MECH_FRICTION_MAX_W], qd[MECH_FRICTION_MAX_W];
    double N[MECH_FRICTION_MAX_NC], F[MECH_FRICTION_MAX_NC];
    int    chi[MECH_FRICTION_MAX_NC], slip[MECH_FRICTION_MAX_NC];
    double W_friction, W_applied, ke;
} mech_friction_sample;

typedef struct mech_friction_stats {
    unsigned long steps, evals, events, flips, sticks, releases, lp_solves, paradoxes;
    unsigned long attempts_hist[4];  /* accepted solves by attempts of the variant algorithm: 1, 2, 3, > 3    */
    double flip_t[16];               /* times of the first 16 variant flips, s                                */
    int    flip_pair[16];            /* and their pairs (0-based)                                             */
} mech_friction_stats;

// (mechanism) => simulation at t = 0 from the configuration's initial state (the discrete state is solved there)
int mech_friction_sim_new(const mech_friction_mech *mc, mech_friction_sim **out, hy_err *err);
// (sim, t1) => advanced to t1 (a paradox stops it with HY_ESTATE: time, pairs and determinants in the message)
int mech_friction_sim_advance(mech_friction_sim *s, double t1, hy_err *err);
// (sim) => the current committed state
void mech_friction_sim_sample(const mech_friction_sim *s, mech_friction_sample *o);
// (sim) => counters
const mech_friction_stats *mech_friction_sim_stats(const mech_friction_sim *s);
// (sim) => the solver data (prepared at the current state)
mech_friction_data *mech_friction_sim_data(mech_friction_sim *s);
void mech_friction_sim_free(mech_friction_sim *s);

/* ---- a whole run (friction_run.c): the one loop `mech friction` and `mech sweep` step (docs/friction.md) ---- */
typedef struct mech_friction_summary {
    long   samples;        /* samples observed: t = 0 and one per output interval reached                            */
    int    failed;         /* 1: an advance failed (a paradox); the samples before it and the state reached are in   */
    double travel;         /* path length of coordinate 0 over the samples, sum of |q0(t_k) - q0(t_k-1)| (m or rad) */
    long   stuck;          /* samples after the first with every pair stuck (slip 0)                               */
    double stick_fraction; /* stuck / (samples - 1); NAN for a run of one sample                                   */
    double peak_normal;    /* max over the samples and pairs of the normal reaction N_j, N                          */
    double W_friction, W_applied, ke;   /* of the last sample, J                                                   */
} mech_friction_summary;
// a sample's consumer (the program's CSV row); a status other than HY_OK stops the run and is returned
typedef int (*mech_friction_sample_fn)(void *ctx, const mech_friction_sample *o, hy_err *err);
/* (simulation at t = 0, duration, output interval, consumer or NULL) => the run of the configuration: samples at
 * t = 0, sample, 2 sample, ... and the duration (the last one shorter), each given to fn and summed into *sum.
 * An advance that fails gives the state it reached as a last sample, sets sum->failed and returns its status with
 * its message (the paradox report). HY_EARG unless 0 <= duration and 0 < sample. */
int mech_friction_run(mech_friction_sim *s, double duration, double sample, mech_friction_sample_fn fn, void *ctx,
                      mech_friction_summary *sum, hy_err *err);

#endif

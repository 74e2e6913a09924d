/* Parameter sweeps over a simulator scenario (issue 20; docs/sweep.md): grids, Monte Carlo samples, an adaptive
 * capture envelope, the statistics of a sweep. A plan ("mech-sweep" JSON) names a base scenario ("mech-dock",
 * "mech-beam", "mech-friction" or "mech-pendulum": its simulator, sweep_sim.c) and
 * the varied keys by their dotted path in it; run k of the plan is the base scenario with those keys set, and
 * everything about it (its values, its result) depends only on the plan and k, never on the order, the process
 * or the number of workers that ran it.
 *
 * LAYERS
 *   sweep_sample.c    unit-cube points: plain random, Latin hypercube, Owen-scrambled Sobol (GSL's gsl_qrng_sobol
 *                     under a hash-driven nested uniform scramble); the distributions as inverse CDFs of u in (0,1)
 *   sweep_plan.c      the plan reader: keys checked against the scenario parser before any run; the run table
 *   sweep_sim.c       the simulators: each one's metric table, its scenario checked by its own parser
 *   sweep_run.c       one run: the scenario JSON edited by key path in a cJSON tree, printed, handed to the
 *                     simulator's run (the dock's here: mech_dock_config_parse, mech_dock_run); its summary as a row
 *   sweep_run_beam.c, sweep_run_friction.c, sweep_run_pendulum.c   the beam's (mech_beam_run), the friction's
 *                     (mech_friction_run) and the pendulum damper's (mech_pend_run)
 *   sweep_envelope.c  the adaptive capture envelope (quadtree refinement of a 2-D grid)
 *   sweep_stats.c     Wilson score interval, Spearman rank correlation */
#ifndef MECH_SWEEP_H
#define MECH_SWEEP_H

#include <stddef.h>
#include <stdint.h>
#include "hyst/common.h"

/* ---- random numbers: a counter-based generator, so a run's numbers depend only on (seed, run, stream) ---- */
// (64-bit key) => SplitMix64 finaliser of it (a bijection with full avalanche)
uint64_t mech_sweep_mix(uint64_t x);
// (seed, a, b) => a uniform double in (0, 1) that depends only on the three numbers
double mech_sweep_u01(uint64_t seed, uint64_t a, uint64_t b);

/* ---- unit-cube samplers: n points of dimension d into u[i * d + j], every value in (0, 1) --------------- */
enum mech_sweep_sampling { MECH_SWEEP_RANDOM = 0, MECH_SWEEP_LHS, MECH_SWEEP_SOBOL };
// (method, n, d, seed) => points; HY_EARG for d > 40 with Sobol (GSL's limit), HY_ENOMEM
int mech_sweep_sample(int method, size_t n, int d, uint64_t seed, double *u, hy_err *err);
// (n, d <= 40) => the first n points of the unscrambled Sobol sequence (GSL's order, the point 0 skipped)
int mech_sweep_sobol_plain(size_t n, int d, double *u, hy_err *err);
/* (x in [0, 1), dimension, seed) => Owen's nested uniform scramble of its first 32 bits: bit k is flipped by a
 * random bit drawn from (seed, dimension, k, the bits above k) - the scramble of Owen 1995 with the random tree
 * given by a hash instead of a table, so it keeps every (t, m, s)-net property of the sequence */
double mech_sweep_owen(double x, int dim, uint64_t seed);

/* ---- distributions of a varied key ------------------------------------------------------------------- */
enum mech_sweep_dist { MECH_SWEEP_UNIFORM = 0, MECH_SWEEP_NORMAL, MECH_SWEEP_TNORMAL, MECH_SWEEP_LOGNORMAL,
                       MECH_SWEEP_CHOICE };
#define MECH_SWEEP_CHOICE_MAX 64
typedef struct mech_sweep_dist_p {
    int    kind;
    double a, b;          /* uniform: min, max; normal / truncated: mean, sd; log-normal: mu, sigma of ln x   */
    double lo, hi;        /* truncated normal: bounds                                                         */
    int    n;             /* choice: number of values                                                         */
    double cum[MECH_SWEEP_CHOICE_MAX];  /* choice: cumulative weights normalised to 1 (cum[n-1] = 1)            */
} mech_sweep_dist_p;
// (distribution, u in (0, 1)) => the value (choice: the index of the chosen value, as a double)
double mech_sweep_dist_eval(const mech_sweep_dist_p *d, double u);

/* ---- statistics ----------------------------------------------------------------------------------------- */
// (successes k of n trials, z (1.959964 for 95 %)) => Wilson score interval [lo, hi] of the probability
void mech_sweep_wilson(long k, long n, double z, double *lo, double *hi);
/* (x[n], y[n]) => Spearman's rank correlation: Pearson's correlation of the ranks, ties given their mean rank;
 * NAN when n < 3 or either variable is constant (allocates its scratch). */
double mech_sweep_spearman(const double *x, const double *y, size_t n);

/* ---- adaptive envelope: capture yes/no on an nx x ny grid refined near the boundary ---------------------- *
 * The grid has nx = cx * 2^L + 1 points along x (ny likewise). Level 0 evaluates the coarse grid of every 2^L-th
 * point; at each finer level a cell whose corners do not all agree is split in four and its 5 new points are
 * evaluated; a cell whose corners agree takes their value everywhere inside. The driver hands out batches of
 * grid indices (ix * ny + iy) and gets the outcome of each. */
typedef struct mech_sweep_envelope {
    int nx, ny, levels;
    signed char *state;   /* nx * ny: -1 unknown, 0 no capture, 1 capture (measured or filled)              */
    unsigned char *measured; /* 1 where a run gave the state                                                */
    int level;            /* next level to plan (levels + 1: done)                                            */
} mech_sweep_envelope;
// (nx, ny, levels) => HY_EARG unless nx - 1 and ny - 1 are positive multiples of 2^levels
int mech_sweep_envelope_init(mech_sweep_envelope *e, int nx, int ny, int levels, hy_err *err);
void mech_sweep_envelope_free(mech_sweep_envelope *e);
/* (envelope with the previous batch's outcomes set in state[]) => the next batch of grid indices to evaluate
 * into ids (capacity nx * ny); returns its size, 0 when the envelope is complete (every state filled) */
size_t mech_sweep_envelope_next(mech_sweep_envelope *e, long *ids);

/* ==== the plan ("mech-sweep" JSON, docs/sweep.md) and its runs ============================================= */
#define MECH_SWEEP_KEY_LEN 256
#define MECH_SWEEP_CASES_MAX 64
#define MECH_SWEEP_VARIANTS_MAX 8
#define MECH_SWEEP_REQ_MAX 16
#define MECH_SWEEP_REQ_COMPLETED (-1)   /* the requirement "completed": the run ended without failing        */
enum mech_sweep_kind { MECH_SWEEP_KIND_PLAIN = 0, MECH_SWEEP_KIND_ENVELOPE, MECH_SWEEP_KIND_SOBOL,
                       MECH_SWEEP_KIND_MORRIS, MECH_SWEEP_KIND_SUBSET, MECH_SWEEP_KIND_QUAL };
#define MECH_SWEEP_KEYS_MAX 40
typedef struct mech_sweep_key {
    char   path[MECH_SWEEP_KEY_LEN];  /* dotted path in the scenario ("initial.pitch_deg", "vehicles.active.inertia.1") */
    int    grid;                      /* 1: a grid of values; 0: a distribution                                  */
    int    n;                         /* grid: number of values                                                  */
    double *values;                   /* grid values (malloc'd)                                                  */
    mech_sweep_dist_p dist;
    struct cJSON *choice;             /* choice: the plan's array of values (numbers or strings), borrowed        */
    int    col;                       /* distribution keys: column in the unit-cube sample                       */
    char   expr[MECH_SWEEP_KEY_LEN];  /* a derived key (index >= nkey): its expression over the varied keys        */
    int    label;                     /* a qualification plan's "case" / "variant" column: a name, not a scenario key */
} mech_sweep_key;

/* ---- the simulators a plan varies (sweep_sim.c; docs/sweep.md "Simulators") ------------------------------ *
 * A plan's simulator is the one whose scenario format its base scenario has ("mech-dock", "mech-beam",
 * "mech-friction", "mech-pendulum"); each has its metric table (the table's columns after "status", in this order)
 * and its run function, the one its own program calls (mech_dock_run, mech_beam_run, mech_friction_run,
 * mech_pend_run). */
typedef struct mech_sweep_metric {
    const char *name;       /* column name ("peak_axial")                                                         */
    const char *unit;       /* SI unit ("N"; "" for a flag or a count)                                            */
    int integer;            /* 1: a flag or a count, printed as an integer, no Sobol / Morris / subset limit state */
} mech_sweep_metric;

/* The docking metrics, one line each, in the table's order (appending a metric: one line at the end, and its value
 * set in sweep_run.c) */
#define MECH_SWEEP_DOCK_METRICS(X)                \
    X(CAPTURED, "captured", "", 1)                \
    X(CAPTURE_TIME, "capture_time", "s", 0)       \
    X(CONE_CONTACTS, "cone_contacts", "", 1)      \
    X(PEAK_AXIAL, "peak_axial", "N", 0)           \
    X(PEAK_LATERAL, "peak_lateral", "N", 0)       \
    X(PEAK_LIMITER, "peak_limiter", "N", 0)       \
    X(STROKE, "stroke_max", "m", 0)               \
    X(SWING, "swing_max", "rad", 0)               \
    X(E_INITIAL, "e_initial", "J", 0)             \
    X(E_RESIDUAL, "e_residual_max", "J", 0)       \
    X(STEPS, "steps", "", 1)                      \
    /* the docked state (issue 44; mech_dock_summary's measures, docs/dock-process.md §8.6) */ \
    X(TILT_MAX, "tilt_max", "rad", 0)             \
    X(TILT_END, "tilt_end", "rad", 0)             \
    X(ROLL_CLOSED, "roll_closed", "rad", 0)       \
    X(LATCH_ROLL_CLOSED, "latch_roll_closed", "rad", 0) \
    X(LATCHES_CLOSED, "latches_closed", "", 1)    \
    X(LATCHES_ALL_TIME, "latches_all_time", "s", 0) \
    X(LATCHES_ENGAGED, "latches_engaged", "", 1)  \
    X(LIMITER_CLEARANCE, "limiter_clearance", "m", 0) \
    X(LIMITER_LEAD, "limiter_lead", "s", 0)       \
    X(FRT1_PUSHER_SHARE, "frt1_pusher_share", "", 0) \
    X(T_CLOSED, "t_closed", "s", 0)
/* The jointed-beam metrics (`mech beam sim`'s summary, spec 004; sweep_run_beam.c) */
#define MECH_SWEEP_BEAM_METRICS(X)                \
    X(PEAK_TIP, "peak_tip", "m", 0)               \
    X(PEAK_THETA, "peak_theta", "rad", 0)         \
    X(PEAK_RATE, "peak_theta_dot", "rad/s", 0)    \
    X(PEAK_DTHETA, "peak_dtheta", "rad", 0)       \
    X(PEAK_MOMENT, "peak_hinge_moment", "N m", 0) \
    X(HINGE_WORK, "hinge_work", "J", 0)           \
    X(CONTACT, "contact_fraction", "", 0)         \
    X(BALANCE, "balance_max", "J", 0)             \
    X(SETTLE, "settling_time", "s", 0)            \
    X(STEPS, "steps", "", 1)
/* The dry-friction metrics (`mech friction --summary`, spec 003; mech_friction_run) */
#define MECH_SWEEP_FRICTION_METRICS(X)            \
    X(TRAVEL, "travel", "m or rad", 0)           \
    X(STICK, "stick_fraction", "", 0)             \
    X(W_FRICTION, "friction_work", "J", 0)        \
    X(W_APPLIED, "applied_work", "J", 0)          \
    X(PEAK_NORMAL, "peak_normal", "N", 0)         \
    X(FLIPS, "flips", "", 1)                      \
    X(STICKS, "sticks", "", 1)                    \
    X(PARADOXES, "paradoxes", "", 1)              \
    X(STEPS, "steps", "", 1)
/* The pendulum damper's metrics (`mech pendulum run --summary`, spec 002 §4; mech_pend_run) */
#define MECH_SWEEP_PENDULUM_METRICS(X)               \
    X(PHI3_MAX, "phi3_max", "rad", 0)                \
    X(ALPHA_MAX, "alpha_max", "rad", 0)              \
    X(M_MAX, "moment_max", "N m", 0)                 \
    X(W_UNIT, "unit_work", "J", 0)                   \
    X(POWER, "power", "W", 0)                        \
    X(PEAKS, "peaks", "", 1)                         \
    X(DECAY, "amplitude_decay", "", 0)               \
    X(ZETA, "damping_ratio", "", 0)                  \
    X(E_CYCLE, "energy_per_cycle", "J", 0)
#define MECH_SWEEP_M_ENUM_(id, name, unit, integer) MECH_SWEEP_M_##id,
#define MECH_SWEEP_B_ENUM_(id, name, unit, integer) MECH_SWEEP_B_##id,
#define MECH_SWEEP_F_ENUM_(id, name, unit, integer) MECH_SWEEP_F_##id,
#define MECH_SWEEP_P_ENUM_(id, name, unit, integer) MECH_SWEEP_P_##id,
enum { MECH_SWEEP_DOCK_METRICS(MECH_SWEEP_M_ENUM_) MECH_SWEEP_NMETRIC };
enum { MECH_SWEEP_BEAM_METRICS(MECH_SWEEP_B_ENUM_) MECH_SWEEP_NMETRIC_BEAM };
enum { MECH_SWEEP_FRICTION_METRICS(MECH_SWEEP_F_ENUM_) MECH_SWEEP_NMETRIC_FRICTION };
enum { MECH_SWEEP_PENDULUM_METRICS(MECH_SWEEP_P_ENUM_) MECH_SWEEP_NMETRIC_PENDULUM };
#define MECH_SWEEP_METRIC_MAX 48      /* the metrics of a row at most, any simulator                             */

enum mech_sweep_simulator { MECH_SWEEP_SIM_DOCK = 0, MECH_SWEEP_SIM_BEAM, MECH_SWEEP_SIM_FRICTION, MECH_SWEEP_SIM_PENDULUM,
                            MECH_SWEEP_NSIM };
typedef struct mech_sweep_sim {
    int id;                           /* enum mech_sweep_simulator                                                */
    const char *name;                 /* "dock" (the plan's "simulator" key)                                       */
    const char *format;               /* "mech-dock" (its scenario files' "format")                                */
    int nmetric;
    const mech_sweep_metric *metric;
    int flag;                         /* the yes / no outcome (dock: captured): the envelope's boundary, the
                                         capture probability and the envelope figure; -1: none (no envelope plan)   */
    int steps;                        /* the step count: bookkeeping, no sensitivity (-1: none)                    */
    int peak;                         /* the peak map's metric and keep's default                                  */
    int hist[3];                      /* the histograms of peaks.png                                               */
    double fig_div;                   /* figures show the label metrics divided by this (dock: 1000, forces in kN)   */
    const char *fig_unit;             /* and in this unit ("kN"; NULL: the metric's own)                            */
    const char *label[MECH_SWEEP_METRIC_MAX];   /* figure labels of the metrics ("peak axial head force")           */
    int shown[6];                     /* the metrics of the Sobol / Morris / qualification figures                */
} mech_sweep_sim;
// (simulator id) => its table; NULL out of range
const mech_sweep_sim *mech_sweep_sim_get(int id);
// (scenario format "mech-beam", or a simulator name "beam") => its table; NULL when none has it
const mech_sweep_sim *mech_sweep_sim_find(const char *format_or_name);
// (simulator, metric name) => its index, -1 when the simulator has no such metric
int mech_sweep_metric_find(const mech_sweep_sim *s, const char *name);
/* (simulator, buffer) => "a, b, c" of its metric names (messages naming the known metrics) */
void mech_sweep_metric_list(const mech_sweep_sim *s, char *buf, size_t len);

typedef struct mech_sweep_plan {
    char   path[4096];                /* the plan file as given (messages)                                      */
    const mech_sweep_sim *sim;        /* the simulator of its scenarios (every variant the same)                 */
    char   scenario[4096];            /* the base scenario, absolute                                            */
    struct cJSON *doc;                /* the plan                                                               */
    struct cJSON *base;               /* the base scenario with the plan's "set" keys applied                   */
    char   scen_dir[4096];
    int    nkey, nderived;            /* varied keys key[0 .. nkey), then derived keys (columns of the table too)  */
    mech_sweep_key key[MECH_SWEEP_KEYS_MAX];
    long   ngrid, nsample, nrun;      /* nrun = ngrid x nsample; run r = grid point r / nsample, sample r % nsample */
    int    ndist;
    int    sampling;                  /* enum mech_sweep_sampling                                               */
    uint64_t seed;
    double *u;                        /* nsample x ndist unit-cube points                                       */
    long   max_runs;                  /* the cap (--force passes it)                                            */
    int    envelope, levels;          /* adaptive envelope over the first two (grid) keys                       */
    int    keep_worst, keep_metric;   /* full outputs of the worst N runs by a metric                           */
    long   keep_ids[64];
    int    nkeep_ids;
    int    fig_x, fig_y;              /* keys of the envelope figure (indices, -1: none)                        */
    uint64_t hash;                    /* of the plan, the base scenario and every file below (a journal of another
                                         plan, or of the same plan over other law files, is refused)              */
    int    nfile;                     /* the files the runs read (law files of the base scenario and of string
                                         values), each with the hash of its content when the plan was read       */
    struct mech_sweep_file *files;
    /* the plan's kind (sweep_kinds.c; docs/sweep.md "Plan kinds"): one per plan */
    int    kind;                      /* enum mech_sweep_kind                                                   */
    long   design_n;                  /* sobol: N (runs N (d + 2)); morris: trajectories r (runs r (d + 1));
                                         subset: samples per level                                               */
    int    bootstrap;                 /* sobol: bootstrap resamples                                             */
    double level;                     /* sobol: confidence level of the intervals                               */
    int    morris_levels;             /* morris: p                                                              */
    double p0;                        /* subset: conditional probability of a level                             */
    int    max_levels;                /* subset: levels at most                                                 */
    int    fail_metric, fail_above;   /* subset: failure when the metric is above (1) or below (0) fail_limit   */
    double fail_limit;
    int    live_u;                    /* 1: the rows of u are filled by the master during the sweep (subset);
                                         the pool sends each run's row with its id                               */
    /* qualification matrix: run = case x variant (case = run / nvar, variant = run % nvar) */
    int    ncase, nvar, nreq;
    char   case_name[MECH_SWEEP_CASES_MAX][64];
    struct cJSON *case_set[MECH_SWEEP_CASES_MAX];      /* borrowed from doc: the case's keys                     */
    char   var_name[MECH_SWEEP_VARIANTS_MAX][64];
    char   var_scenario[MECH_SWEEP_VARIANTS_MAX][4096]; /* absolute                                              */
    char   var_dir[MECH_SWEEP_VARIANTS_MAX][4096];
    struct cJSON *var_base[MECH_SWEEP_VARIANTS_MAX];   /* each variant's scenario with the plan's "set" applied  */
    struct mech_sweep_req { int metric; int max; double limit; } req[MECH_SWEEP_REQ_MAX];
} mech_sweep_plan;
typedef struct mech_sweep_file {
    char     path[4096];              /* resolved as the scenario parser resolves it                              */
    char     key[64];                 /* the scenario key that first named it ("laws.spring")                     */
    uint64_t hash;                    /* FNV-1a 64 of its content                                                 */
} mech_sweep_file;
// (path) => FNV-1a 64 of the file's content into *h; HY_OK or the read error (naming the file)
int mech_sweep_file_hash(const char *path, uint64_t *h, hy_err *err);
/* (plan, the n files a parsed run configuration reads: keys[k] the scenario key that names paths[k], "" paths
 * skipped) => HY_OK when each is one of the plan's files with the same content now; else HY_EDATA naming the key and
 * the file ("changed since the sweep started") */
int mech_sweep_check_files(const mech_sweep_plan *p, int n, const char *const *keys, const char *const *paths,
                           hy_err *err);
// (plan, the same list) => the files added to p->files (once each, hashed now); HY_ENOMEM, read errors
int mech_sweep_files_add(mech_sweep_plan *p, int n, const char *const *keys, const char *const *paths, hy_err *err);
/* (plan path, force) => the plan read and every key checked against the scenario parser with its extreme values
 * (an unknown key path, a value of the wrong type or out of the key's range, a bad distribution, more runs than
 * max_runs without force: HY_EPARSE / HY_EDATA naming the plan file and the key) - before any run */
int mech_sweep_plan_read(const char *path, int force, mech_sweep_plan *p, hy_err *err);
void mech_sweep_plan_free(mech_sweep_plan *p);
// (plan, run, key or derived key (k < nkey + nderived)) => its value in that run: a number in *x, or a string in *s
// (a choice of strings); a derived key whose expression cannot be evaluated (a division by zero) gives NAN
void mech_sweep_plan_value(const mech_sweep_plan *p, long run, int k, double *x, const char **s);
// (plan, run) => the scenario JSON text of that run (malloc'd; NULL and err on failure)
char *mech_sweep_scenario(const mech_sweep_plan *p, long run, hy_err *err);
// (plan, run) => the base scenario file of that run (a qualification plan's variant) and its folder
const char *mech_sweep_run_scenario(const mech_sweep_plan *p, long run, const char **dir);
/* (plan, requirement k, row's metrics, row failed) => the requirement's margin in the metric's unit (limit - value
 * for a maximum, value - limit for a minimum; "completed": 0 or -1), NAN without a value (a failed requirement) */
double mech_sweep_req_margin(const mech_sweep_plan *p, int k, const double *m, int failed);
// (plan, run's metrics, failed) => the subset plan's limit-state function g (failure g <= 0; NAN without a value)
double mech_sweep_fail_g(const mech_sweep_plan *p, const double *m);
// (plan kind) => its name in the plan and the summary ("sobol")
const char *mech_sweep_kind_name(int kind);

typedef struct mech_sweep_result {
    long   run;
    int    failed;                    /* 1: the run failed (message in msg); the metrics are what it reached   */
    int    fatal;                     /* 1: not a result but a reason to stop the sweep (a law file changed)    */
    double m[MECH_SWEEP_METRIC_MAX];  /* the first sim->nmetric hold the run's metrics               */
    char   msg[HY_MSG_LEN];
} mech_sweep_result;
// (plan, run) => the run simulated to its duration through the library (never fails: a failure is in r->msg)
void mech_sweep_run(const mech_sweep_plan *p, long run, mech_sweep_result *r);

#endif

/* Calibrating a docking (or jointed-beam) scenario from measured dynamic runs (issue 45 item 2; docs/calibrate.md): named scenario
 * keys identified by nonlinear least squares with the simulator in the loop, the way the paper "temporarily
 * introduced" the hatch-cover compliance "into the model to agree the results of modelling with the test data"
 * (spec 001 §2.7, §6).
 *
 * LAYERS
 *   calib_config.c    the "mech-calibrate" JSON reader: scenario, keys (start, bounds), measured runs and their
 *                     channel maps; every key checked against the scenario parser at its bounds before any run
 *   calib_record.c    a measured record read by `mech compare`'s reader (mech/compare.h) in the run channels'
 *                     units; its noise level from the record alone (a robust 4th-difference estimate)
 *   calib_residual.c  one simulated run held in memory (mech_dock_run, the one run function); its alignment with a
 *                     record by `mech compare`'s (mech_compare_xcorr_lag); the simulation read at the measured
 *                     times shifted by each channel's offset, never outside either record
 *   calib_sim.c       the simulator in the loop: `mech dock`'s run (mech_dock_run) or `mech beam sim`'s
 *                     (mech_beam_run), the mapped channels after every accepted step
 *   calib_solve.c     GSL multifit_nlinear (trust-region Levenberg-Marquardt), bounds by the sine transform,
 *                     finite-difference Jacobian, standard errors and correlation, validation runs
 *   calib_columns.c   the Jacobian's key columns on p->jobs forked worker processes, bit for bit the serial ones
 *
 * Model / data: a problem (mech_calib_problem) is read once and not changed by the solve; each evaluation builds
 * its own scenario text, configuration, model and simulation. */
#ifndef MECH_CALIB_H
#define MECH_CALIB_H

#include <stddef.h>
#include "hyst/common.h"
#include "mech/compare.h"

#define MECH_CALIB_KEYS_MAX 8
#define MECH_CALIB_RUNS_MAX 8
#define MECH_CALIB_CH_MAX 8
#define MECH_CALIB_KEY_LEN 256

typedef struct mech_calib_key {
    char   path[MECH_CALIB_KEY_LEN];   /* dotted path in the scenario ("stand.k", "lateral.brake.moment.1")   */
    double start, lo, hi;              /* start value and bounds, lo < start < hi strictly                      */
} mech_calib_key;

/* a measured record: rows t[i], channel c in y[i * nch + c] */
typedef struct mech_calib_record {
    char    path[4096];                /* as resolved against the configuration's folder                       */
    size_t  n;
    int     nch;
    double *t, *y;
    char    name[MECH_CALIB_CH_MAX][64];   /* measured column names                                            */
    char    unit[MECH_CALIB_CH_MAX][32];   /* from the units row ("" when none)                                */
    size_t  line0;                     /* file line of row 0 (messages)                                        */
} mech_calib_record;

typedef struct mech_calib_run {
    int    validation;                 /* 1: not used in the fit, predicted with the calibrated keys           */
    struct cJSON *set;                 /* the test's conditions: scenario keys set for this run (borrowed)     */
    mech_calib_record rec;
    int    ch[MECH_CALIB_CH_MAX];      /* the run channel of each measured channel (its simulator's index)      */
    char   chname[MECH_CALIB_CH_MAX][64], chunit[MECH_CALIB_CH_MAX][32];   /* its name and unit              */
    double gain_sd[MECH_CALIB_CH_MAX]; /* the sensor's gain uncertainty (1 sigma; 0: the gain is taken as 1)     */
    double duration;                   /* simulated time: the record's end plus offset_max, within the scenario's */
    mech_compare_filter filter[MECH_CALIB_CH_MAX];  /* the sensor's anti-alias filter on each simulated channel
                                          (the run's "filter", or the map's per channel; order 0: none)          */
} mech_calib_run;

enum { MECH_CALIB_DOCK = 0, MECH_CALIB_BEAM };   /* the scenario's simulator: "mech-dock" or "mech-beam" */
typedef struct mech_calib_problem {
    char   path[4096];                 /* the configuration as given (messages)                                */
    int    kind;                       /* MECH_CALIB_DOCK, MECH_CALIB_BEAM                                     */
    char   scenario[4096], scen_dir[4096];
    struct cJSON *doc;                 /* the configuration                                                     */
    struct cJSON *base;                /* the scenario as written                                               */
    double scen_duration;
    int    nkey;
    mech_calib_key key[MECH_CALIB_KEYS_MAX];
    int    nrun;
    mech_calib_run run[MECH_CALIB_RUNS_MAX];
    double offset_max;                 /* |time offset| of a record searched, s (default 0.1)                   */
    double offset_window;              /* the fit moves each offset within this of the search's, s (0.01)       */
    double fd_step;                    /* forward-difference step in the transformed key (default 1e-3)         */
    double tolerance;                  /* integration.tolerance of the runs in the loop (0: the scenario's)     */
    int    max_iter;                   /* default 40                                                            */
    int    jobs;                       /* processes computing the Jacobian's key columns (1, the reader's default:
                                          this one; `mech calibrate -j N`); the results are the same bits      */
} mech_calib_problem;

/* (configuration path) => problem read, the measured records read, every key checked against the scenario parser
 * at its bounds. Errors name the file and the key ("cal.json: keys.stand.k.min: ...") or the record's
 * file:line:column. */
int mech_calib_read(const char *path, mech_calib_problem *p, hy_err *err);
/* (text, length, path: the name in messages and the folder of the relative paths) => the same from memory (the
 * fuzz harness fuzz/fuzz_calib_json.c); on failure p holds nothing to free */
int mech_calib_parse(const char *text, size_t len, const char *path, mech_calib_problem *p, hy_err *err);
void mech_calib_free(mech_calib_problem *p);

/* ---- one run in memory -------------------------------------------------------------------------------- */
typedef struct mech_calib_trace {
    size_t  n, cap;
    int     nch;
    double *t, *y;                     /* y[i * nch + c]: the run's channel ch[c] after accepted step i         */
} mech_calib_trace;
void mech_calib_trace_free(mech_calib_trace *tr);
/* (problem, run, key values x[nkey]) => the scenario with the keys and the run's conditions set, simulated by
 * mech_dock_run to the run's duration; the mapped channels at t = 0 and after every accepted step. A failing run's
 * error (its time and element). */
int mech_calib_simulate(const mech_calib_problem *p, int run, const double *x, mech_calib_trace *tr, hy_err *err);
/* (problem, key values) => the scenario JSON text with the keys set (malloc'd): the calibrated scenario */
char *mech_calib_scenario_text(const mech_calib_problem *p, const double *x, const char *out_dir, hy_err *err);

/* ---- residuals ---------------------------------------------------------------------------------------- */
// (record channel c) => its noise standard deviation from the record alone: 1.4826 MAD of the 4th differences / sqrt(70)
double mech_calib_noise(const mech_calib_record *r, int c);
// (trace, channel, time) => the simulated value at t, linear between steps; NAN outside [t0, tn]
double mech_calib_trace_at(const mech_calib_trace *tr, int c, double t);
/* (record, trace, channel, offset_max) => the time offset tau (measured time = simulated time + tau) by
 * `mech compare`'s alignment (mech_compare_xcorr_lag: the least mean squared difference over the overlap, sub-sample)
 * within [-offset_max, offset_max]; NAN with err when it finds none (flat, no overlap, at the limit) */
double mech_calib_align(const mech_calib_record *r, const mech_calib_trace *tr, int c, double offset_max,
                        hy_err *err);

/* ---- the fit ------------------------------------------------------------------------------------------- */
typedef struct mech_calib_chstat {
    double nrmse;                      /* RMS(simulated - measured) / (max - min of measured) over the rows used */
    double floor;                      /* the noise floor: noise standard deviation / (max - min)               */
    double offset, offset_se;          /* time offset, s (its standard error; NAN for a validation run)          */
    double gain, gain_se;              /* the sensor's gain (1 and 0 unless map's gain_sd; a validation run: the
                                          fit's gain of the channel of the same name, se NAN)                    */
    double noise;                      /* noise standard deviation (the channel's unit)                          */
    size_t rows;
} mech_calib_chstat;
typedef struct mech_calib_result {
    double x[MECH_CALIB_KEYS_MAX], se[MECH_CALIB_KEYS_MAX];
    double corr[MECH_CALIB_KEYS_MAX * MECH_CALIB_KEYS_MAX];
    double x0[MECH_CALIB_KEYS_MAX];
    mech_calib_chstat ch[MECH_CALIB_RUNS_MAX][MECH_CALIB_CH_MAX];
    mech_calib_chstat ch0[MECH_CALIB_RUNS_MAX][MECH_CALIB_CH_MAX];   /* at the start values                  */
    double cost, cost0;                /* half the sum of squared weighted residuals at the optimum / start      */
    double s2;                         /* residual variance: 2 cost / (n - p)                                    */
    size_t nres;
    int    npar;                       /* keys + fitted offsets + fitted gains                                   */
    int    iterations, converged;
    long   evaluations;                /* simulated runs                                                        */
    long   jacobians;                  /* Jacobians computed (each nkey x fit runs of the evaluations, the part
                                          p->jobs processes share)                                              */
    char   reason[96];
} mech_calib_result;
/* (problem) => keys fitted on the fit runs (weighted least squares: each channel's residual divided by its noise
 * level), statistics of every run at the start and at the optimum (validation runs predicted with the fitted keys
 * and aligned). HY_EDATA when no fit run overlaps, HY_ENUMERIC when the start fails. */
int mech_calib_solve(const mech_calib_problem *p, mech_calib_result *R, hy_err *err);

#endif

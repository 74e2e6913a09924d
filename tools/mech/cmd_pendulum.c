/* mech pendulum harmonic|sweep|decay: the pendulum vibration damper of spec 002 §4 (docs/pendulum.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/model.h"
#include "hyst/util.h"
#include "mech/pendulum.h"
#include "mech_cli.h"

static void usage(FILE *fp)
{
    fputs("usage: mech pendulum harmonic|sweep|decay [OPTIONS]\n"
          "       mech pendulum run SCENARIO.json [-o FILE] [--summary] [--unit-model FILE]\n"
          "\n"
          "The pendulum vibration damper of spec 002 §4: driving disk 1 (phi1 = Phi sin(2 pi f t)), driven disk 2\n"
          "tied to it by the hysteretic damping unit (kinematic ODE model, M = M(alpha), alpha = phi2 - phi1),\n"
          "disk 3 with the pendulum(s) tied to disk 2 by an elastic insert. CSV goes to standard output or -o.\n"
          "\n"
          "  harmonic   time series under harmonic drive: M-alpha loops, work, running dissipation power A(t)\n"
          "  sweep      stepped frequency sweep: at each frequency start from rest, settle, then average the\n"
          "             unit's work over whole periods (steady dissipation power, eqs. 15-16)\n"
          "  decay      free decay: disk 1 fixed, pendulum and disk 2 released from --angle at rest\n"
          "  run        the run a mech-pendulum file's \"run\" object describes (harmonic or decay; its keys as the\n"
          "             options: mode, amplitude, freq, periods, samples, ramp, angle, duration, dt, rk4, tol), the\n"
          "             run a `mech sweep` of that file makes (docs/pendulum.md \"A whole run\")\n"
          "\n"
          "common options:\n"
          "  --params FILE.json   damper parameters (format \"mech-pendulum\"; fixtures/mech/*.json);\n"
          "                       default: the built-in one-pendulum set of docs/pendulum.md\n"
          "  --two                the built-in two-pendulum set (pendulums 90 degrees apart)\n"
          "  --unit-model FILE    hysteretic law of the damping unit (hyst-model, \"model\": \"kin\"); default: the\n"
          "                       params file's unit_model, else the paper's reduced law (spec 002 eq. 13)\n"
          "  --rk4 H              classic RK4 with fixed step H seconds (default: adaptive Dormand-Prince RK5(4))\n"
          "  --tol TOL            tolerance of the adaptive integrator (default 1e-9)\n"
          "  -o, --output FILE    write the CSV to FILE atomically (default: standard output)\n"
          "  --summary            harmonic, decay, run: the run's summary on standard error (swing, unit deflection,\n"
          "                       moment and work, decay of the swing, equivalent damping ratio, energy per cycle)\n"
          "  -h, --help           this help\n"
          "\n"
          "harmonic:  --amplitude RAD (0.3)  --freq HZ (0.4)  --periods N (10)  --samples N per period (400)\n"
          "           --ramp PERIODS soft start of the drive amplitude (0: the paper's abrupt start)\n"
          "           columns: t,phi1,phi2,phi3,alpha,alpha_dot,M,W_unit,W_in,E,A\n"
          "sweep:     --amplitude RAD (0.3)  --f-min HZ (0.1)  --f-max HZ (3)  --f-step HZ (0.1)\n"
          "           --settle PERIODS (15)  --average PERIODS (5)  --ramp PERIODS (5)\n"
          "           columns: freq,P,W_cycle,A_running,alpha_min,alpha_max,phi3_amp,M_max,reversals,status\n"
          "           a frequency where the unit leaves its valid range gets status out_of_range (a warning)\n"
          "decay:     --angle RAD (0.4)  --duration S (3)  --dt S sample interval (0.001)\n"
          "           columns as harmonic\n"
          "\n"
          "Units: angles rad, moments N m, work and energy J, power W, time s, frequency Hz.\n",
          fp);
}

#define SWEEP_MAX 100000     /* frequencies of one sweep                                                        */
#define RK4_STEPS_MAX 1e9    /* fixed RK4 steps of one run (about 10 minutes)                                   */

typedef struct opts {
    const char *params, *unit, *out;
    int two, periods, samples, settle, average;
    double amp, freq, ramp, fmin, fmax, fstep, angle, duration, dt;
    mech_pend_solver solver;
    int ramp_set, summary;
} opts;

static void print_header(FILE *fp)
{
    fputs("t,phi1,phi2,phi3,alpha,alpha_dot,M,W_unit,W_in,E,A\n", fp);
}

static void print_obs(FILE *fp, const mech_pend_obs *o)
{
    fprintf(fp, "%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n", o->t, o->phi1, o->phi2,
            o->phi3, o->alpha, o->alpha_dot, o->M, o->W_unit, o->W_in, o->E, o->A);
}

typedef struct series {
    FILE *fp;
    hy_progress *pr;
    long n, k;   /* samples after the first, the sample about to be written */
} series;

// mech_pend_run's consumer: the header before the first sample, then one row per sample
static int on_obs(void *ctx, const mech_pend_obs *o, hy_err *err)
{
    (void)err;
    series *c = ctx;
    if (c->k == 0)
        print_header(c->fp);
    else
        hy_progress_update(c->pr, (double)c->k / (double)c->n);
    c->k++;
    print_obs(c->fp, o);
    return HY_OK;
}

// (summary) => one line on standard error, numbers as exact text ("nan": no value)
static void print_summary(const mech_pend_summary *u)
{
    char v[8][40];
    double x[8] = {u->phi3_max, u->alpha_max, u->M_max, u->W_unit, u->A, u->decay, u->zeta, u->E_cycle};
    for (int k = 0; k < 8; k++)
        hy_fmt_exact(v[k], sizeof v[k], x[k]);
    fprintf(stderr, "mech pendulum: summary: samples %ld, phi3_max %s rad, alpha_max %s rad, moment_max %s N m, "
            "unit_work %s J, power %s W, peaks %d, amplitude_decay %s, damping_ratio %s, energy_per_cycle %s J\n",
            u->samples, v[0], v[1], v[2], v[3], v[4], u->peaks, v[5], v[6], v[7]);
}

/* (model, run options, output, --summary) => time series written through the library's loop (mech_pend_run,
 * pendulum_run.c: the one a sweep's pendulum run takes); exit status */
static int run_series(const char *cmd, const mech_pend_model *m, const mech_pend_run_opts *ro, int summary, FILE *fp)
{
    hy_err err;
    hy_progress pr;
    series c = {fp, &pr, ro->mode == MECH_PEND_RUN_DECAY ? lround(ro->duration / ro->dt)
                                                         : (long)ro->periods * ro->samples, 0};
    mech_pend_summary sm;
    hy_progress_start(&pr, cmd);
    int rc = mech_pend_run(m, ro, on_obs, &c, &sm, &err);
    hy_progress_end(&pr);
    if (summary && sm.samples > 0)
        print_summary(&sm);
    if (rc != HY_OK && ro->mode == MECH_PEND_RUN_DECAY && sm.samples == 0)   /* the release angle refused */
        return mech_cli_fail(cmd, "--angle %g: %s", ro->angle, err.msg);
    if (rc != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    return MECH_EXIT_OK;
}

// (model, options, output) => sweep table written; exit status
static int run_sweep(const char *cmd, const mech_pend_model *m, const opts *o, FILE *fp)
{
    fputs("freq,P,W_cycle,A_running,alpha_min,alpha_max,phi3_amp,M_max,reversals,status\n", fp);
    int nf = (int)floor((o->fmax - o->fmin) / o->fstep + 1e-9) + 1, bad = 0;   /* <= SWEEP_MAX (checked) */
    hy_progress pr;
    hy_progress_start(&pr, cmd);
    for (int i = 0; i < nf; i++) {
        double f = o->fmin + i * o->fstep;
        pr.calls = 255;   /* a frequency is a long step: look at the clock every time */
        hy_progress_update(&pr, (double)i / nf);
        mech_pend_steady r;
        hy_err err;
        int rc = mech_pend_steady_run(m, o->amp, f, o->ramp, o->settle, o->average, &o->solver, &r, &err);
        if (rc == HY_ERANGE) {
            mech_cli_warn(cmd, "%.6g Hz: %s", f, err.msg);
            fprintf(fp, "%.10g,nan,nan,nan,nan,nan,nan,nan,0,out_of_range\n", f);
            bad++;
            continue;
        }
        if (rc != HY_OK) {
            hy_progress_end(&pr);
            return mech_cli_fail(cmd, "%.6g Hz: %s", f, err.msg);
        }
        fprintf(fp, "%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%lu,ok\n", f, r.P, r.W_cycle, r.A_running,
                r.alpha_min, r.alpha_max, r.phi3_amp, r.M_max, r.reversals);
    }
    hy_progress_end(&pr);
    if (bad == nf)
        return mech_cli_fail(cmd, "the damping unit left its valid range at every frequency");
    return MECH_EXIT_OK;
}

/* `mech pendulum run SCENARIO.json`: the parameters, the unit law and the "run" object of one mech-pendulum file,
 * run by mech_pend_run: the run a `mech sweep` of that file makes (docs/sweep.md "Simulators") */
static int cmd_run(const char *cmd, int argc, char **argv)
{
    const char *out = "-", *unit_opt = NULL, *path;
    int summary = 0;
    const hy_arg tab[] = {HY_OPT_STR("output", 'o', &out), HY_OPT_FLAG("summary", 0, &summary),
                          HY_OPT_STR("unit-model", 0, &unit_opt), HY_OPT_END};
    int go = mech_cli_parse(cmd, usage, tab, argc - 1, argv + 1, "missing the scenario file (a mech-pendulum JSON "
                            "with a \"run\" object)", &path);
    if (go != MECH_CLI_GO)
        return go;
    hy_err err;
    mech_pend_params p;
    mech_pend_run_opts ro;
    char unit_path[4096] = "", *text;
    size_t n;
    mech_pend_params_default(&p, 0);
    if (hy_read_text(path, "a parameter file (mech-pendulum JSON)", 0, &text, &n, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    int rc = mech_pend_params_parse(text, n, path, &p, unit_path, sizeof unit_path, &err);
    if (rc == HY_OK)
        rc = mech_pend_run_parse(text, n, path, &ro, &err);
    free(text);
    if (rc != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    if (unit_opt)
        snprintf(unit_path, sizeof unit_path, "%s", unit_opt);
    hy_model unit;
    memset(&unit, 0, sizeof unit);
    if (unit_path[0] && hy_model_read(unit_path, &unit, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    if (unit_path[0] && unit.type != HY_MODEL_KIN) {
        hy_model_free(&unit);
        return mech_cli_fail(cmd, "%s: the damping unit needs a kinematic model (\"model\": \"kin\")",
                             hy_display_name(unit_path));
    }
    mech_pend_model *m;
    if (mech_pend_model_new(&p, unit_path[0] ? unit.kin : NULL, &m, &err) != HY_OK) {
        hy_model_free(&unit);
        return mech_cli_fail(cmd, "%s: %s", hy_display_name(path), err.msg);
    }
    hy_atomic a;
    const char *others[] = {unit_path, NULL};
    int status = mech_out_open(cmd, &a, out, path, others);
    if (status == MECH_EXIT_OK) {
        status = run_series(cmd, m, &ro, summary, a.fp);
        if (status == MECH_EXIT_OK)
            status = mech_out_commit(cmd, &a);
        else
            hy_atomic_abort(&a);
    }
    mech_pend_model_free(m);
    hy_model_free(&unit);
    return status;
}

// (argc, argv) of "mech pendulum ..." => exit status
int mech_cmd_pendulum(int argc, char **argv)
{
    const char *cmd = "pendulum";
    static const char *const subs[] = {"harmonic", "sweep", "decay", "run", NULL};
    char name[32];
    int mode, go = mech_cli_sub(cmd, usage, argc, argv, subs, &mode, name, sizeof name);
    if (go != MECH_CLI_GO)
        return go;
    cmd = name;
    if (mode == 3)
        return cmd_run(cmd, argc, argv);
    opts o = {.out = "-", .periods = 10, .samples = 400, .settle = 15, .average = 5, .amp = 0.3, .freq = 0.4,
              .fmin = 0.1, .fmax = 3.0, .fstep = 0.1, .angle = 0.4, .duration = 3.0, .dt = 0.001};
    mech_pend_solver_default(&o.solver);
    const hy_arg tab[] = {
        HY_OPT_STR("params", 0, &o.params),           HY_OPT_FLAG("two", 0, &o.two),
        HY_OPT_STR("unit-model", 0, &o.unit),         HY_OPT_DOUBLE("rk4", &o.solver.h, &o.solver.fixed),
        HY_OPT_DOUBLE("tol", &o.solver.tol, NULL),    HY_OPT_STR("output", 'o', &o.out),
        HY_OPT_DOUBLE("amplitude", &o.amp, NULL),     HY_OPT_DOUBLE("freq", &o.freq, NULL),
        HY_OPT_INT("periods", 0, &o.periods, 1, NULL), HY_OPT_INT("samples", 0, &o.samples, 4, NULL),
        HY_OPT_DOUBLE("ramp", &o.ramp, &o.ramp_set),  HY_OPT_DOUBLE("f-min", &o.fmin, NULL),
        HY_OPT_DOUBLE("f-max", &o.fmax, NULL),        HY_OPT_DOUBLE("f-step", &o.fstep, NULL),
        HY_OPT_INT("settle", 0, &o.settle, 0, NULL),  HY_OPT_INT("average", 0, &o.average, 1, NULL),
        HY_OPT_DOUBLE("angle", &o.angle, NULL),       HY_OPT_DOUBLE("duration", &o.duration, NULL),
        HY_OPT_DOUBLE("dt", &o.dt, NULL),             HY_OPT_FLAG("summary", 0, &o.summary),
        HY_OPT_END};
    if ((go = mech_cli_parse(cmd, usage, tab, argc - 1, argv + 1, NULL, NULL)) != MECH_CLI_GO)
        return go;
    if (mode == 1 && !o.ramp_set)
        o.ramp = 5;
    if (o.solver.fixed ? !(o.solver.h > 0) : !(o.solver.tol > 0 && o.solver.tol < 1))
        return mech_cli_usage(cmd, "--rk4 needs a positive step and --tol a value in (0, 1)");
    if (mode == 0 && (!(o.freq > 0) || o.ramp < 0 || o.ramp > o.periods))
        return mech_cli_usage(cmd, "--freq must be positive and --ramp within 0..--periods");
    if (mode == 1 && (!(o.fmin > 0) || !(o.fmax >= o.fmin) || !(o.fstep > 0) || o.ramp < 0 || o.ramp > o.settle))
        return mech_cli_usage(cmd, "the sweep needs 0 < --f-min <= --f-max, --f-step > 0, --ramp within 0..--settle");
    if (mode == 2 && (!(o.duration > 0) || !(o.dt > 0) || o.duration / o.dt > 1e8))
        return mech_cli_usage(cmd, "--duration and --dt must be positive (and at most 1e8 samples)");
    if (o.params && o.two)
        return mech_cli_usage(cmd, "--params and --two exclude each other");
    /* bounded before running: the sweep's table and the fixed-step integrator's work (the adaptive one sizes
       its own steps) */
    double nf = mode == 1 ? floor((o.fmax - o.fmin) / o.fstep + 1e-9) + 1 : 1;
    if (nf > SWEEP_MAX)
        return mech_cli_usage(cmd, "--f-min %g .. --f-max %g Hz in steps of --f-step %g Hz: %.4g frequencies, at most %d",
                              o.fmin, o.fmax, o.fstep, nf, SWEEP_MAX);
    if (o.solver.fixed) {
        double T = mode == 0 ? o.periods / o.freq : mode == 2 ? o.duration : nf * (o.settle + o.average) / o.fmin;
        if (T / o.solver.h > RK4_STEPS_MAX)
            return mech_cli_usage(cmd, "--rk4 %g s: %.3g steps over the %.4g s simulated (%s), more than %.0e; use a "
                                  "larger step, or the adaptive integrator (no --rk4)", o.solver.h, T / o.solver.h, T,
                                  mode == 0 ? "--periods / --freq" : mode == 2 ? "--duration"
                                  : "the sweep's --settle + --average periods at each frequency", RK4_STEPS_MAX);
    }

    mech_pend_params p;
    hy_err err;
    char unit_path[4096] = "";
    mech_pend_params_default(&p, o.two);
    if (o.params && mech_pend_params_read(o.params, &p, unit_path, sizeof unit_path, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    if (o.unit)
        snprintf(unit_path, sizeof unit_path, "%s", o.unit);
    hy_model unit;
    memset(&unit, 0, sizeof unit);
    if (unit_path[0]) {
        if (hy_model_read(unit_path, &unit, &err) != HY_OK)
            return mech_cli_fail(cmd, "%s", err.msg);
        if (unit.type != HY_MODEL_KIN) {
            hy_model_free(&unit);
            return mech_cli_fail(cmd, "%s: the damping unit needs a kinematic model (\"model\": \"kin\")",
                                 hy_display_name(unit_path));
        }
    }
    mech_pend_model *m;
    if (mech_pend_model_new(&p, unit.kin, &m, &err) != HY_OK) {
        hy_model_free(&unit);
        return mech_cli_fail(cmd, "%s%s%s", o.params ? hy_display_name(o.params) : "", o.params ? ": " : "", err.msg);
    }
    hy_atomic a;
    const char *others[] = {unit_path, NULL};
    int status = mech_out_open(cmd, &a, o.out, o.params, others);
    if (status == MECH_EXIT_OK) {
        mech_pend_run_opts ro;
        mech_pend_run_default(&ro);
        ro.mode = mode == 2 ? MECH_PEND_RUN_DECAY : MECH_PEND_RUN_HARMONIC;
        ro.amplitude = o.amp, ro.freq = o.freq, ro.periods = o.periods, ro.samples = o.samples, ro.ramp = o.ramp;
        ro.angle = o.angle, ro.duration = o.duration, ro.dt = o.dt, ro.solver = o.solver;
        status = mode == 1 ? run_sweep(cmd, m, &o, a.fp) : run_series(cmd, m, &ro, o.summary, a.fp);
        if (status == MECH_EXIT_OK)
            status = mech_out_commit(cmd, &a);
        else
            hy_atomic_abort(&a);
    }
    mech_pend_model_free(m);
    hy_model_free(&unit);
    return status;
}

/* mech calibrate's numerical parts (mech/calib.h; docs/calibrate.md §3): the noise estimate from a record against
 * the standard deviation of the Gaussian noise that made it, the trace's interpolation against its closed form, a
 * record in mm read in the run's m (the factor exact), and a calibration of the beam's hinge clearance from a
 * noise-free record of a run with a known clearance (run from the top of the repository: fixtures/mech/calib); the
 * Jacobian's columns on worker processes (calib_columns.c) against the same columns computed in this process. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <signal.h>
#include "mech/calib.h"
#include "calib/calib_internal.h"

static void near(double a, double b, double tol)
{
    if (!(fabs(a - b) <= tol))
        fail_msg("%.17g != %.17g (tol %g)", a, b, tol);
}

/* a sine at fs / f = 50 (its 4th difference is (2 sin(pi / 50))^4 = 2.4e-4 of its amplitude) plus N(0, 0.01^2):
 * the estimate within 4 % of 0.01. The median absolute deviation's relative standard error is ~1.17 / sqrt(m) for
 * m independent values; the 4th differences are correlated (lag <= 4), which about doubles it: ~1.7 % at
 * m = 20 000, so 4 % is more than 2 standard errors on any machine (the draws are GSL's mt19937, seeded) */
static void noise_estimate(void **state)
{
    (void)state;
    mech_calib_record r = {0};
    r.n = 20000;
    r.nch = 2;
    r.t = malloc(r.n * sizeof *r.t);
    r.y = malloc(r.n * 2 * sizeof *r.y);
    assert_non_null(r.t);
    assert_non_null(r.y);
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 45);
    for (size_t i = 0; i < r.n; i++) {
        r.t[i] = 1e-3 * (double)i;
        r.y[2 * i] = sin(2 * M_PI * (double)i / 50) + gsl_ran_gaussian(g, 0.01);
        r.y[2 * i + 1] = 3.0 + 1e-3 * (double)i;   /* a ramp without noise: its 4th differences are 0 */
    }
    gsl_rng_free(g);
    near(mech_calib_noise(&r, 0), 0.01, 4e-4);
    near(mech_calib_noise(&r, 1), 0.0, 1e-12);
    free(r.t);
    free(r.y);
}

static void trace_interpolation(void **state)
{
    (void)state;
    double t[] = {0, 0.1, 0.25, 0.25, 0.5};
    double y[] = {0, 10, 1, -1, 4, 4, 5, 7, 0, 0};   /* 2 channels */
    mech_calib_trace tr = {5, 5, 2, t, y};
    near(mech_calib_trace_at(&tr, 0, 0.05), 0.5, 1e-15);
    near(mech_calib_trace_at(&tr, 1, 0.05), 4.5, 1e-15);
    near(mech_calib_trace_at(&tr, 0, 0.25), 5.0, 1e-15);     /* a zero-length step (an event): the later value */
    near(mech_calib_trace_at(&tr, 0, 0.375), 2.5, 1e-15);
    assert_true(isnan(mech_calib_trace_at(&tr, 0, -1e-9)));    /* never extrapolated */
    assert_true(isnan(mech_calib_trace_at(&tr, 0, 0.5 + 1e-9)));
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* a record of the beam's tip in mm and its hinge rotation in mrad: read in m and rad (mech compare's unit table) */
static void record_units(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_calib_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char csv[256], cal[256], top[4096];
    assert_non_null(getcwd(top, sizeof top));
    snprintf(csv, sizeof csv, "%s/m.csv", dir);
    snprintf(cal, sizeof cal, "%s/c.json", dir);
    char text[200000];
    size_t k = (size_t)snprintf(text, sizeof text, "t,tip,rot\ns,mm,mrad\n");
    for (int i = 0; i < 1000; i++)
        k += (size_t)snprintf(text + k, sizeof text - k, "%g,%g,%g\n", 1e-3 * i, 12.5 + i, 0.25 * i);
    write_file(csv, text);
    snprintf(text, sizeof text,
             "{\"format\": \"mech-calibrate\", \"version\": 1, \"scenario\": \"%s/fixtures/mech/calib/beam-shaker.json\","
             " \"keys\": {\"hinges.0.clearance\": {\"start\": 3e-4, \"min\": 0, \"max\": 1e-3}},"
             " \"runs\": [{\"measured\": \"m.csv\", \"map\": {\"tip\": \"w_tip\", \"rot\": \"dtheta_1\"}}]}", top);
    write_file(cal, text);
    mech_calib_problem p;
    hy_err err;
    int rc = mech_calib_read(cal, &p, &err);
    if (rc != HY_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(p.kind, MECH_CALIB_BEAM);
    assert_int_equal(p.nrun, 1);
    const mech_calib_record *r = &p.run[0].rec;
    assert_int_equal(r->n, 1000);
    near(r->y[2 * 7], (12.5 + 7) * 1e-3, 1e-18);
    near(r->y[2 * 7 + 1], 0.25 * 7 * 1e-3, 1e-18);
    assert_string_equal(p.run[0].chunit[0], "m");
    assert_string_equal(p.run[0].chunit[1], "rad");
    mech_calib_free(&p);
    unlink(csv), unlink(cal), rmdir(dir);
}

/* the beam's clearance from a record of its own run at 2.5e-4 rad, sampled at every Newmark step without noise:
 * the fit must come back to 2.5e-4 to well within the simulator's own repeatability (the same run, the same
 * steps: 1e-9 of the 1e-3 range), whatever its start */
static void beam_clearance_from_its_own_run(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_calib_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char csv[256], cal[256], top[4096];
    assert_non_null(getcwd(top, sizeof top));
    snprintf(csv, sizeof csv, "%s/m.csv", dir);
    snprintf(cal, sizeof cal, "%s/c.json", dir);
    /* the truth: simulate at 2.5e-4 through the library, the record written from the trace */
    char text[8192];
    snprintf(text, sizeof text,
             "{\"format\": \"mech-calibrate\", \"version\": 1, \"scenario\": \"%s/fixtures/mech/calib/beam-shaker.json\","
             " \"keys\": {\"hinges.0.clearance\": {\"start\": 3e-4, \"min\": 0, \"max\": 1e-3}},"
             " \"runs\": [{\"measured\": \"m.csv\", \"map\": {\"rot\": \"dtheta_1\"}}], \"offset_max\": 0.002}", top);
    write_file(cal, text);
    write_file(csv, "t,rot\ns,rad\n0,0\n0.1,0\n0.2,0\n0.3,0\n0.4,0\n0.5,0\n0.6,0\n0.7,0\n0.8,0\n0.9,0\n1,0\n1.1,0\n"
                    "1.2,0\n1.3,0\n1.4,0\n1.5,0\n");
    mech_calib_problem p;
    hy_err err;
    if (mech_calib_read(cal, &p, &err) != HY_OK)
        fail_msg("%s", err.msg);
    p.run[0].duration = 0.6;
    mech_calib_trace tr = {0};
    double x = 2.5e-4;
    if (mech_calib_simulate(&p, 0, &x, &tr, &err) != HY_OK)
        fail_msg("%s", err.msg);
    FILE *f = fopen(csv, "w");
    assert_non_null(f);
    fprintf(f, "t,rot\ns,rad\n");
    for (size_t i = 0; i < tr.n; i += 5)   /* every 5th step: 2 kHz */
        fprintf(f, "%.17g,%.17g\n", tr.t[i], tr.y[i]);
    fclose(f);
    mech_calib_trace_free(&tr);
    mech_calib_free(&p);
    if (mech_calib_read(cal, &p, &err) != HY_OK)
        fail_msg("%s", err.msg);
    mech_calib_result R;
    if (mech_calib_solve(&p, &R, &err) != HY_OK)
        fail_msg("%s", err.msg);
    near(R.x[0], 2.5e-4, 1e-9);
    near(R.ch[0][0].offset, 0.0, 1e-6);
    assert_true(R.ch[0][0].nrmse < 1e-6);
    mech_calib_free(&p);
    unlink(csv), unlink(cal), rmdir(dir);
}

/* a column of 20 000 doubles (160 kB, more than a pipe holds: the worker blocks until the parent reads), values
 * that are not round (every bit must come through); column 'bad' fails with a message, column 'die' kills its
 * process (only in a worker: in this process it fails instead) */
typedef struct col_ctx {
    int bad, die;
    pid_t self;
} col_ctx;

static int test_column(void *ctx, int k, double *col, hy_err *err)
{
    const col_ctx *c = ctx;
    if (k == c->die && getpid() != c->self)
        raise(SIGKILL);
    if (k == c->bad || k == c->die)
        return hy_err_set(err, HY_ENUMERIC, "column %d refused", k);
    for (size_t i = 0; i < 20000; i++)
        col[i] = sin(0.001 * (double)i + k) / 3;
    return HY_OK;
}

static void columns_on_workers(void **state)
{
    (void)state;
    enum { NCOL = 5, N = 20000 };
    double *ref = malloc(NCOL * N * sizeof *ref), *out = malloc(NCOL * N * sizeof *out);
    assert_non_null(ref);
    assert_non_null(out);
    col_ctx c = {-1, -1, getpid()};
    hy_err err;
    assert_int_equal(mech_calib__columns(NCOL, 1, N, test_column, &c, ref, &err), HY_OK);
    for (int jobs = 2; jobs <= 7; jobs++) {   /* fewer, as many and more processes than columns */
        memset(out, 0, NCOL * N * sizeof *out);
        if (mech_calib__columns(NCOL, jobs, N, test_column, &c, out, &err) != HY_OK)
            fail_msg("jobs %d: %s", jobs, err.msg);
        assert_memory_equal(out, ref, NCOL * N * sizeof *out);
    }
    /* a worker's error comes back with its message; the other workers are reaped (no child left) */
    c.bad = 3;
    assert_int_equal(mech_calib__columns(NCOL, 2, N, test_column, &c, out, &err), HY_ENUMERIC);
    assert_string_equal(err.msg, "column 3 refused");
    /* a worker that dies is an error naming the column and the signal, not a hang */
    c.bad = -1, c.die = 2;
    assert_int_equal(mech_calib__columns(NCOL, 3, N, test_column, &c, out, &err), HY_ENUMERIC);
    if (!strstr(err.msg, "key column 3 ended by signal 9"))
        fail_msg("%s", err.msg);
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);   /* ECHILD: every worker reaped */
    free(ref), free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(noise_estimate),
        cmocka_unit_test(trace_interpolation),
        cmocka_unit_test(record_units),
        cmocka_unit_test(beam_clearance_from_its_own_run),
        cmocka_unit_test(columns_on_workers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Allocation-failure injection (fault_alloc.h): every libhyst and libmech call that allocates is run with its 1st,
 * 2nd, ... Nth allocation failing, until it completes; each failing run must return HY_ENOMEM (NULL for the
 * calls documented to return NULL when out of memory) and leave no block allocated after the caller's usual
 * cleanup. Under `make test SAN=1` LeakSanitizer checks the same at exit. Inputs are small records made here from
 * the fixture models (a few cycles), so that the N + 1 runs of each call stay quick. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "fault_alloc.h"
#include "hyst/csvread.h"
#include "hyst/drive.h"
#include "hyst/kin.h"
#include "hyst/kinfit.h"
#include "hyst/loops.h"
#include "hyst/model.h"
#include "hyst/pwl.h"
#include "hyst/pwlfit.h"
#include "hyst/replay.h"
#include "hyst/series.h"
#include "mech/ode.h"
#include "mech/pendulum.h"

static const char *top(void)
{
    const char *t = getenv("TOP");
    return t ? t : ".";
}

static void fixture(char *path, size_t len, const char *rel)
{
    snprintf(path, len, "%s/fixtures/%s", top(), rel);
}

/* Runs fault_check and fails the test with its message; prints the coverage line. */
static void check(const char *name, fault_fn fn, fault_cleanup_fn cleanup, void *ctx)
{
    fault_report rep;
    int rc = fault_check(name, fn, cleanup, ctx, &rep);
    printf("fault: %-38s %5ld allocations, %5ld failures injected (%ld absorbed), %ld wrong codes, %ld leaks\n",
           name, rep.allocs, rep.injected, rep.recovered, rep.bad_code, rep.leaked);
    if (rc != 0)
        fail_msg("%s", rep.msg);
    assert_true(rep.injected == rep.allocs);
}

/* A record driven through a fixture model: 4 growing cycles, `points` samples each, with time. */
typedef struct record {
    size_t n;
    double *t, *q, *Q;
} record;

static void make_record(const char *model_rel, double amp, size_t points, record *r)
{
    char path[1024];
    fixture(path, sizeof path, model_rel);
    hy_model m;
    hy_err err;
    assert_int_equal(hy_model_read(path, &m, &err), HY_OK);
    double a[4] = {0.4 * amp, 0.7 * amp, amp, amp};
    int c[4] = {1, 1, 1, 1};
    hy_drive_spec s;
    hy_drive_spec_default(&s);
    s.n_levels = 4;
    s.amplitude = a;
    s.cycles = c;
    s.points = points;
    s.wave = HY_DRIVE_TRIANGLE;
    assert_int_equal(hy_drive_count(&s, &r->n, &err), HY_OK);
    r->t = malloc(r->n * sizeof *r->t);
    r->q = malloc(r->n * sizeof *r->q);
    r->Q = malloc(r->n * sizeof *r->Q);
    assert_non_null(r->t);
    assert_non_null(r->q);
    assert_non_null(r->Q);
    assert_int_equal(hy_drive_fill(&s, r->t, r->q, r->n, &err), HY_OK);
    size_t row;
    hy_diag diag;
    assert_int_equal(hy_replay_drive(&m, r->t, r->q, r->n, r->Q, NULL, &row, &diag, &err), HY_OK);
    hy_model_free(&m);
}

static void free_record(record *r)
{
    free(r->t);
    free(r->q);
    free(r->Q);
}

/* ---- CSV reader ------------------------------------------------------------------------------------------------ */

typedef struct csv_ctx {
    const char *path;
    int expect;          /* the status of the undisturbed read (a bad file gives its parse error) */
    hy_csv_opts o;
    hy_series s;
} csv_ctx;

static int csv_call(void *p)
{
    csv_ctx *c = p;
    hy_err err;
    int rc = hy_csv_read(c->path, &c->o, &c->s, &err);
    return rc == c->expect ? HY_OK : rc;
}

static void csv_clean(void *p)
{
    hy_series_free(&((csv_ctx *)p)->s);
}

static void test_csv_read(void **state)
{
    (void)state;
    char good[1024], bad[1024], units[1024];
    fixture(good, sizeof good, "synthetic/pwl_zero_backlash_fit.csv");
    fixture(bad, sizeof bad, "bad/non_numeric.csv");
    fixture(units, sizeof units, "real/SPC1.csv");
    csv_ctx c = {.path = good, .expect = HY_OK};
    hy_csv_opts_default(&c.o);
    c.o.t_col = "t";
    check("hy_csv_read (time column)", csv_call, csv_clean, &c);
    hy_csv_opts_default(&c.o);
    c.path = units;
    check("hy_csv_read (units row)", csv_call, csv_clean, &c);
    c.path = bad;
    c.expect = HY_EPARSE;
    check("hy_csv_read (bad cell)", csv_call, csv_clean, &c);
}

/* ---- model files ----------------------------------------------------------------------------------------------- */

typedef struct model_ctx {
    const char *path;
    hy_model m;
    hy_element e;
    char *text;
    char out[1024];
} model_ctx;

static int model_read_call(void *p)
{
    model_ctx *c = p;
    hy_err err;
    return hy_model_read(c->path, &c->m, &err);
}

static void model_clean(void *p)
{
    model_ctx *c = p;
    hy_model_free(&c->m);
    memset(&c->m, 0, sizeof c->m);
}

static int model_print_call(void *p)
{
    model_ctx *c = p;
    hy_err err;
    c->text = hy_model_print(&c->m, &err);
    return c->text ? HY_OK : err.code;
}

static void print_clean(void *p)
{
    model_ctx *c = p;
    free(c->text);
    c->text = NULL;
}

static int model_parse_call(void *p)
{
    model_ctx *c = p;
    hy_model m;
    hy_err err;
    int rc = hy_model_parse(c->text, "printed", &m, &err);
    if (rc == HY_OK)
        hy_model_free(&m);
    return rc;
}

static int model_element_call(void *p)
{
    model_ctx *c = p;
    hy_err err;
    return hy_model_element(&c->m, &c->e, &err);
}

static void element_clean(void *p)
{
    model_ctx *c = p;
    hy_element_free(&c->e);
    memset(&c->e, 0, sizeof c->e);
}

static int model_write_call(void *p)
{
    model_ctx *c = p;
    hy_err err;
    return hy_model_write(&c->m, c->out, NULL, &err);
}

static void test_models(void **state)
{
    (void)state;
    static const char *const files[] = {"models/pwl-constant.json", "models/pwl-friction.json",
                                        "models/pwl-symmetric.json", "models/paper-damper-full.json",
                                        "models/paper-damper-reduced.json", "synthetic/pwl_double_loop.json"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[1024], name[160];
        fixture(path, sizeof path, files[i]);
        model_ctx c;
        memset(&c, 0, sizeof c);
        c.path = path;
        snprintf(c.out, sizeof c.out, "/tmp/test_fault_model_%d.json", (int)getpid());
        snprintf(name, sizeof name, "hy_model_read %s", strchr(files[i], '/') + 1);
        check(name, model_read_call, model_clean, &c);
        hy_err err;
        assert_int_equal(hy_model_read(path, &c.m, &err), HY_OK);
        check("  hy_model_print", model_print_call, print_clean, &c);
        c.text = hy_model_print(&c.m, &err);
        assert_non_null(c.text);
        check("  hy_model_parse", model_parse_call, NULL, &c);
        check("  hy_model_element", model_element_call, element_clean, &c);
        check("  hy_model_write", model_write_call, NULL, &c);
        unlink(c.out);
        free(c.text);
        hy_model_free(&c.m);
    }
}

/* ---- loops, fitting, replay ------------------------------------------------------------------------------------ */

typedef struct rec_ctx {
    record r;
    hy_loops L;
    hy_branches B;
    hy_reversal *rev;
    hy_loops_thr thr;
    hy_pwlfit_opts po;
    hy_pwlfit_result pr;
    hy_kinfit_opts ko;
    hy_kinfit_result kr;
    cJSON *json;
    hy_model m;
    double *Qm;
    hy_replay_metrics M;
} rec_ctx;

static int loops_call(void *p)
{
    rec_ctx *c = p;
    hy_loops_opts o;
    hy_loops_opts_default(&o);
    hy_err err;
    return hy_loops_analyze(c->r.q, c->r.Q, c->r.n, &o, &c->L, &err);
}

static void loops_clean(void *p)
{
    rec_ctx *c = p;
    hy_loops_free(&c->L);
    memset(&c->L, 0, sizeof c->L);
}

static int reversals_call(void *p)
{
    rec_ctx *c = p;
    size_t n;
    int dir;
    hy_err err;
    return hy_loops_reversals(c->r.q, c->r.n, 0.01, &c->rev, &n, &dir, &err);
}

static void reversals_clean(void *p)
{
    rec_ctx *c = p;
    free(c->rev);
    c->rev = NULL;
}

static int threshold_call(void *p)
{
    rec_ctx *c = p;
    hy_err err;
    return hy_loops_default_threshold(c->r.q, c->r.n, &c->thr, &err);
}

static int branches_call(void *p)
{
    rec_ctx *c = p;
    hy_loops_opts o;
    hy_loops_opts_default(&o);
    hy_err err;
    return hy_loops_branches(c->r.q, c->r.Q, c->r.n, &c->L, &o, &c->B, &err);
}

static void branches_clean(void *p)
{
    rec_ctx *c = p;
    hy_branches_free(&c->B);
    memset(&c->B, 0, sizeof c->B);
}

static void test_loops(void **state)
{
    (void)state;
    rec_ctx c;
    memset(&c, 0, sizeof c);
    make_record("models/pwl-constant.json", 4.0, 40, &c.r);
    check("hy_loops_analyze", loops_call, loops_clean, &c);
    check("hy_loops_reversals", reversals_call, reversals_clean, &c);
    check("hy_loops_default_threshold", threshold_call, NULL, &c);
    assert_int_equal(loops_call(&c), HY_OK);
    check("hy_loops_branches", branches_call, branches_clean, &c);
    loops_clean(&c);
    free_record(&c.r);
}

static int pwlfit_call(void *p)
{
    rec_ctx *c = p;
    hy_err err;
    return hy_pwlfit_run(c->r.q, c->r.Q, c->r.t, c->r.n, &c->po, &c->pr, &err);
}

static void pwlfit_clean(void *p)
{
    rec_ctx *c = p;
    hy_pwlfit_result_free(&c->pr);
    memset(&c->pr, 0, sizeof c->pr);
}

static int pwlfit_report_call(void *p)
{
    rec_ctx *c = p;
    c->json = hy_pwlfit_report_json(&c->pr, &c->po, "record.csv");
    return c->json ? HY_OK : HY_ENOMEM;
}

static void json_clean(void *p)
{
    rec_ctx *c = p;
    cJSON_Delete(c->json);
    c->json = NULL;
}

static void test_pwlfit(void **state)
{
    (void)state;
    rec_ctx c;
    memset(&c, 0, sizeof c);
    make_record("models/pwl-constant.json", 4.0, 24, &c.r);
    hy_pwlfit_opts_default(&c.po);
    c.po.segments_F = 2; /* every path of the pipeline, without the search over counts */
    c.po.segments_B = 3;
    check("hy_pwlfit_run (2+3 segments)", pwlfit_call, pwlfit_clean, &c);
    c.po.segments_F = c.po.segments_B = 0;
    c.po.max_segments = 3;
    c.po.symmetric = 1;
    check("hy_pwlfit_run (symmetric, choose <= 3)", pwlfit_call, pwlfit_clean, &c);
    assert_int_equal(pwlfit_call(&c), HY_OK);
    check("hy_pwlfit_report_json", pwlfit_report_call, json_clean, &c);
    pwlfit_clean(&c);
    free_record(&c.r);
}

static int kinfit_call(void *p)
{
    rec_ctx *c = p;
    hy_err err;
    return hy_kinfit_run(c->r.q, c->r.Q, c->r.n, &c->ko, &c->kr, &err);
}

static int kinfit_report_call(void *p)
{
    rec_ctx *c = p;
    c->json = hy_kinfit_report(&c->kr, &c->ko, "record.csv");
    return c->json ? HY_OK : HY_ENOMEM;
}

static void test_kinfit(void **state)
{
    (void)state;
    rec_ctx c;
    memset(&c, 0, sizeof c);
    make_record("models/paper-damper-reduced.json", 0.3, 40, &c.r);
    hy_kinfit_opts_default(&c.ko);
    c.ko.max_k = 3;
    c.ko.max_m = 3;
    check("hy_kinfit_run", kinfit_call, NULL, &c);
    assert_int_equal(kinfit_call(&c), HY_OK);
    check("hy_kinfit_report", kinfit_report_call, json_clean, &c);
    free_record(&c.r);
}

static int replay_drive_call(void *p)
{
    rec_ctx *c = p;
    size_t row;
    hy_diag diag;
    hy_err err;
    return hy_replay_drive(&c->m, c->r.t, c->r.q, c->r.n, c->Qm, NULL, &row, &diag, &err);
}

static int replay_metrics_call(void *p)
{
    rec_ctx *c = p;
    hy_err err;
    return hy_replay_metrics_compute(c->r.q, c->r.Q, c->Qm, c->r.n, c->L.cyc, c->L.n_cyc, &c->M, &err);
}

static void metrics_clean(void *p)
{
    rec_ctx *c = p;
    hy_replay_metrics_free(&c->M);
}

static void test_replay(void **state)
{
    (void)state;
    rec_ctx c;
    memset(&c, 0, sizeof c);
    make_record("models/pwl-constant.json", 4.0, 40, &c.r);
    char path[1024];
    fixture(path, sizeof path, "models/pwl-symmetric.json");
    hy_err err;
    assert_int_equal(hy_model_read(path, &c.m, &err), HY_OK);
    c.Qm = malloc(c.r.n * sizeof *c.Qm);
    assert_non_null(c.Qm);
    check("hy_replay_drive", replay_drive_call, NULL, &c);
    assert_int_equal(loops_call(&c), HY_OK);
    check("hy_replay_metrics_compute", replay_metrics_call, metrics_clean, &c);
    loops_clean(&c);
    free(c.Qm);
    hy_model_free(&c.m);
    free_record(&c.r);
}

/* ---- protocols, series, point sets ----------------------------------------------------------------------------- */

typedef struct drive_ctx {
    hy_drive_args a;
    hy_drive_protocol p;
} drive_ctx;

static int drive_call(void *p)
{
    drive_ctx *c = p;
    hy_err err;
    return hy_drive_parse(&c->a, &c->p, &err);
}

static void drive_clean(void *p)
{
    hy_drive_protocol_free(&((drive_ctx *)p)->p);
}

static int series_call(void *p)
{
    (void)p;
    hy_series s;
    hy_series_init(&s);
    hy_err err;
    int rc = HY_OK;
    for (int i = 0; i < 3000 && rc == HY_OK; i++)
        rc = hy_series_push(&s, 1, i, i, i, (size_t)i + 1, &err);
    hy_series_free(&s);
    return rc;
}

static int points_call(void *p)
{
    (void)p;
    hy_kinfit_points pts;
    hy_kinfit_points_init(&pts);
    hy_err err;
    int rc = HY_OK;
    for (int i = 0; i < 3000 && rc == HY_OK; i++)
        rc = hy_kinfit_points_push(&pts, i, i, 1.0, i & 1, &err);
    hy_kinfit_points_free(&pts);
    return rc;
}

static void test_small_builders(void **state)
{
    (void)state;
    drive_ctx c;
    memset(&c, 0, sizeof c);
    c.a.protocol = "triangle";
    c.a.amplitudes = "1,2,3";
    c.a.cycles = "1,2,1";
    c.a.inner = "0.3:0.2,0.6:0.1";
    c.a.inner_cycles = "1,3";
    check("hy_drive_parse (levels, inner loops)", drive_call, drive_clean, &c);
    memset(&c.a, 0, sizeof c.a);
    c.a.protocol = "atc24";
    c.a.max = "5";
    c.a.yield = "1";
    check("hy_drive_parse (atc24)", drive_call, drive_clean, &c);
    check("hy_series_push x 3000", series_call, NULL, NULL);
    check("hy_kinfit_points_push x 3000", points_call, NULL, NULL);
}

/* ---- libmech --------------------------------------------------------------------------------------------------- */

typedef struct mech_ctx {
    char path[1024];
    mech_pend_params par;
    hy_model unit;
    mech_pend_model *m;
    mech_pend_data *d;
    mech_ode_step *st;
    mech_ode_driver *drv;
    mech_ode_system sys;
    int use_unit, fixed;
} mech_ctx;

static int params_call(void *p)
{
    mech_ctx *c = p;
    char unit[1024];
    hy_err err;
    return mech_pend_params_read(c->path, &c->par, unit, sizeof unit, &err);
}

static int pend_model_call(void *p)
{
    mech_ctx *c = p;
    hy_err err;
    return mech_pend_model_new(&c->par, c->use_unit ? c->unit.kin : NULL, &c->m, &err);
}

static void pend_model_clean(void *p)
{
    mech_ctx *c = p;
    mech_pend_model_free(c->m);
    c->m = NULL;
}

static int pend_data_call(void *p)
{
    mech_ctx *c = p;
    mech_pend_solver s;
    mech_pend_solver_default(&s);
    s.fixed = c->fixed;
    hy_err err;
    return mech_pend_data_new(c->m, 0.05, 20.0, &s, &c->d, &err);
}

static void pend_data_clean(void *p)
{
    mech_ctx *c = p;
    mech_pend_data_free(c->d);
    c->d = NULL;
}

static int steady_call(void *p)
{
    mech_ctx *c = p;
    mech_pend_solver s;
    mech_pend_solver_default(&s);
    s.tol = 1e-6;
    mech_pend_steady r;
    hy_err err;
    return mech_pend_steady_run(c->m, 0.05, 3.0, 1.0, 2, 1, &s, &r, &err);
}

static int rhs(double t, const double y[], double dydt[], void *params)
{
    (void)t, (void)params;
    dydt[0] = y[1];
    dydt[1] = -y[0];
    return HY_OK;
}

static int step_call(void *p)
{
    mech_ctx *c = p;
    c->st = mech_ode_step_alloc(c->fixed ? mech_ode_step_rk4 : mech_ode_step_rk45, 2);
    return c->st ? HY_OK : HY_ENOMEM;
}

static void step_clean(void *p)
{
    mech_ctx *c = p;
    mech_ode_step_free(c->st);
    c->st = NULL;
}

static int driver_call(void *p)
{
    mech_ctx *c = p;
    c->drv = c->fixed ? mech_ode_driver_alloc_fixed(&c->sys, mech_ode_step_rk4, 1e-3)
                      : mech_ode_driver_alloc_adaptive(&c->sys, mech_ode_step_rk45, 1e-3, 1e-8, 1e-8);
    if (!c->drv)
        return HY_ENOMEM;
    double t = 0.0, y[2] = {1.0, 0.0};
    return mech_ode_driver_apply(c->drv, &t, 0.5, y);
}

static void driver_clean(void *p)
{
    mech_ctx *c = p;
    mech_ode_driver_free(c->drv);
    c->drv = NULL;
}

static void test_mech(void **state)
{
    (void)state;
    mech_ctx c;
    memset(&c, 0, sizeof c);
    fixture(c.path, sizeof c.path, "mech/pendulum-two.json");
    check("mech_pend_params_read", params_call, NULL, &c);
    char unit[1024], upath[1024];
    hy_err err;
    assert_int_equal(mech_pend_params_read(c.path, &c.par, unit, sizeof unit, &err), HY_OK);
    fixture(upath, sizeof upath, "models/paper-damper-full.json");
    assert_int_equal(hy_model_read(upath, &c.unit, &err), HY_OK);
    check("mech_pend_model_new (built-in law)", pend_model_call, pend_model_clean, &c);
    c.use_unit = 1;
    check("mech_pend_model_new (unit model)", pend_model_call, pend_model_clean, &c);
    assert_int_equal(pend_model_call(&c), HY_OK);
    check("mech_pend_data_new (adaptive)", pend_data_call, pend_data_clean, &c);
    c.fixed = 1;
    check("mech_pend_data_new (fixed step)", pend_data_call, pend_data_clean, &c);
    check("mech_pend_steady_run", steady_call, NULL, &c);
    pend_model_clean(&c);
    hy_model_free(&c.unit);

    c.sys = (mech_ode_system){.function = rhs, .dimension = 2};
    c.fixed = 0;
    check("mech_ode_step_alloc (rk45)", step_call, step_clean, &c);
    check("mech_ode_driver_alloc_adaptive", driver_call, driver_clean, &c);
    c.fixed = 1;
    check("mech_ode_step_alloc (rk4)", step_call, step_clean, &c);
    check("mech_ode_driver_alloc_fixed", driver_call, driver_clean, &c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_read),  cmocka_unit_test(test_models), cmocka_unit_test(test_loops),
        cmocka_unit_test(test_pwlfit),    cmocka_unit_test(test_kinfit), cmocka_unit_test(test_replay),
        cmocka_unit_test(test_small_builders), cmocka_unit_test(test_mech),
    };
    if (getenv("FAULT_ONLY")) /* e.g. FAULT_ONLY=test_pwlfit while fixing one family */
        cmocka_set_test_filter(getenv("FAULT_ONLY"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}

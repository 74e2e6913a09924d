// The one run function mech_dock_run (issue 43 D1; docs/dock.md §6c) on the shipped S1-A scenario: a run in pieces
// of max_steps is the run in one call, bit for bit (summary, steps, time); the hook sees every accepted step and can
// stop the run; stop_at_capture ends on the first captured step; a simulation of another model is refused.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mech/dock.h"

static mech_dock_config cfg;
static mech_dock_model *model;

static int setup(void **st)
{
    (void)st;
    char path[1024];
    const char *fx = getenv("FIXTURES");
    snprintf(path, sizeof path, "%s/mech/dock/s1-A.json", fx && *fx ? fx : "fixtures");
    hy_err err;
    if (mech_dock_config_read(path, &cfg, &err) != HY_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    return mech_dock_model_new(&cfg.params, &model, &err) == HY_OK ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    mech_dock_model_free(model);
    mech_dock_config_free(&cfg);
    return 0;
}

static mech_dock_sim *sim(void)
{
    mech_dock_sim *s = NULL;
    hy_err err;
    assert_int_equal(mech_dock_sim_new(model, &s, &err), HY_OK);
    return s;
}

static void test_pieces_equal_one_run(void **st)
{
    (void)st;
    hy_err err;
    mech_dock_sim *a = sim(), *b = sim();
    int end = -1;
    unsigned long n = 0, k, total = 0;
    assert_int_equal(mech_dock_run(model, a, NULL, &end, &n, &err), HY_OK);
    assert_int_equal(end, MECH_DOCK_RUN_END);
    assert_true(mech_dock_sim_done(a));
    assert_int_equal(n, mech_dock_sim_steps(a));
    assert_true(mech_dock_sim_summary(a)->captured);   /* S1-A captures within its duration */
    mech_dock_run_opts o = {.max_steps = 137};
    do {
        assert_int_equal(mech_dock_run(model, b, &o, &end, &k, &err), HY_OK);
        total += k;
        assert_true(end == MECH_DOCK_RUN_END || (end == MECH_DOCK_RUN_MAX_STEPS && k == 137));
    } while (end != MECH_DOCK_RUN_END);
    assert_int_equal(total, n);
    assert_true(mech_dock_sim_time(a) == mech_dock_sim_time(b));
    assert_memory_equal(mech_dock_sim_summary(a), mech_dock_sim_summary(b), sizeof(mech_dock_summary));
    assert_memory_equal(mech_dock_sim_channels(a), mech_dock_sim_channels(b), sizeof(double) * MECH_DOCK_NCH);
    /* a finished run takes no more steps */
    assert_int_equal(mech_dock_run(model, a, NULL, &end, &k, &err), HY_OK);
    assert_int_equal(k, 0);
    assert_int_equal(mech_dock_sim_steps(a), n);
    mech_dock_sim_free(a);
    mech_dock_sim_free(b);
}

typedef struct seen {
    unsigned long calls, stop_at;
    double t_last;
    int monotone;
} seen;

static int hook(void *ctx, const mech_dock_sim *s)
{
    seen *v = ctx;
    v->calls++;
    v->monotone &= mech_dock_sim_time(s) > v->t_last && mech_dock_sim_steps(s) == v->calls;
    v->t_last = mech_dock_sim_time(s);
    return v->stop_at && v->calls == v->stop_at;
}

static void test_hook_sees_every_step_and_stops(void **st)
{
    (void)st;
    hy_err err;
    mech_dock_sim *a = sim();
    seen v = {0, 0, -1, 1};
    mech_dock_run_opts o = {.on_step = hook, .ctx = &v};
    int end;
    unsigned long n;
    assert_int_equal(mech_dock_run(model, a, &o, &end, &n, &err), HY_OK);
    assert_int_equal(end, MECH_DOCK_RUN_END);
    assert_int_equal(v.calls, n);
    assert_true(v.monotone);
    mech_dock_sim_free(a);
    a = sim();
    seen w = {0, 50, -1, 1};
    o.ctx = &w;
    assert_int_equal(mech_dock_run(model, a, &o, &end, &n, &err), HY_OK);
    assert_int_equal(end, MECH_DOCK_RUN_STOPPED);
    assert_int_equal(n, 50);
    assert_int_equal(mech_dock_sim_steps(a), 50);
    mech_dock_sim_free(a);
}

static void test_stop_at_capture(void **st)
{
    (void)st;
    hy_err err;
    mech_dock_sim *a = sim(), *b = sim();
    mech_dock_run_opts o = {.stop_at_capture = 1};
    int end;
    unsigned long n;
    assert_int_equal(mech_dock_run(model, a, &o, &end, &n, &err), HY_OK);
    assert_int_equal(end, MECH_DOCK_RUN_CAPTURE);
    assert_true(mech_dock_sim_summary(a)->captured);
    assert_false(mech_dock_sim_done(a));
    /* the step before was not captured: it is the first captured step */
    mech_dock_run_opts p = {.max_steps = n - 1};
    assert_int_equal(mech_dock_run(model, b, &p, &end, NULL, &err), HY_OK);
    assert_false(mech_dock_sim_summary(b)->captured);
    assert_true(mech_dock_sim_summary(a)->capture_time > mech_dock_sim_time(b));
    mech_dock_sim_free(a);
    mech_dock_sim_free(b);
}

static void test_other_model_refused(void **st)
{
    (void)st;
    hy_err err;
    mech_dock_model *m2;
    assert_int_equal(mech_dock_model_new(&cfg.params, &m2, &err), HY_OK);
    mech_dock_sim *a = sim();
    int end;
    unsigned long n = 7;
    assert_int_equal(mech_dock_run(m2, a, NULL, &end, &n, &err), HY_EARG);
    assert_int_equal(end, MECH_DOCK_RUN_FAILED);
    assert_int_equal(n, 0);
    assert_int_equal(mech_dock_sim_steps(a), 0);
    assert_non_null(strstr(err.msg, "not of this model"));
    mech_dock_sim_free(a);
    mech_dock_model_free(m2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pieces_equal_one_run),
        cmocka_unit_test(test_hook_sees_every_step_and_stops),
        cmocka_unit_test(test_stop_at_capture),
        cmocka_unit_test(test_other_model_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

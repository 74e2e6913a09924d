/* Allocation-failure injection (fault_alloc.h) for the lateral damper of the docking mechanism: mech_dock_lateral_new
 * run with its 1st, 2nd, ... allocation failing must return HY_ENOMEM and leave nothing allocated; trial and commit
 * must allocate nothing (counted by the same interposer, which also counts under ASan, unlike bench_alloc.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fault_alloc.h"
#include "mech/dock.h"
#include "dock_test_laws.h"

static hy_model law;

typedef struct lat_ctx {
    mech_dock_lateral_params p;
    mech_dock_lateral *l;
} lat_ctx;

static int new_call(void *v)
{
    lat_ctx *c = v;
    hy_err err;
    return mech_dock_lateral_new(&c->p, &c->l, &err);
}

static void new_clean(void *v)
{
    lat_ctx *c = v;
    mech_dock_lateral_free(c->l);
    c->l = NULL;
}

static void lateral_new_under_allocation_failures(void **state)
{
    (void)state;
    for (int var = 0; var < 2; var++) {
        lat_ctx c;
        memset(&c, 0, sizeof c);
        mech_dock_lateral_params_rp1(&c.p, var);
        c.p.spring.model = &law;
        fault_report rep;
        int rc = fault_check("mech_dock_lateral_new", new_call, new_clean, &c, &rep);
        printf("fault: mech_dock_lateral_new (%c): %ld allocations, %ld failures injected, %ld wrong codes, %ld leaks\n",
               "AB"[var], rep.allocs, rep.injected, rep.bad_code, rep.leaked);
        if (rc != 0)
            fail_msg("%s", rep.msg);
        assert_true(rep.allocs > 0);
        assert_true(rep.injected == rep.allocs);
        assert_int_equal(rep.recovered, 0);
    }
}

static void trial_and_commit_allocate_nothing(void **state)
{
    (void)state;
    mech_dock_lateral_params p;
    mech_dock_lateral_params_rp1(&p, MECH_DOCK_A);
    p.spring.model = &law;
    mech_dock_lateral *l;
    hy_err err;
    assert_int_equal(mech_dock_lateral_new(&p, &l, &err), HY_OK);
    fault_arm(0);
    for (int s = 0; s < 2000; s++) {
        double g = 6.5 * M_PI / 180 * sin(0.01 * s);
        mech_mat3 a = mech_mat3_mul(mech_mat3_alpha(1, 0.7 * g), mech_mat3_alpha(2, g));
        mech_dock_lateral_out o;
        assert_int_equal(mech_dock_lateral_trial(l, &a, mech_vec3_make(0, 0.1, 0.2), &o, &err), HY_OK);
        if (s % 7 == 3)
            mech_dock_lateral_revert(l);
        else
            mech_dock_lateral_commit(l);
    }
    long n = fault_arm(0);
    printf("allocations in 2000 trial + commit/revert: %ld\n", n);
    assert_int_equal(n, 0);
    mech_dock_lateral_free(l);
}

static int setup(void **state)
{
    (void)state;
    if (dock_test_load_law("lateral-spring.json", &law) != HY_OK)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    hy_model_free(&law);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lateral_new_under_allocation_failures),
        cmocka_unit_test(trial_and_commit_allocate_nothing),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

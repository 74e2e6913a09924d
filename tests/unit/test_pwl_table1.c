// Every row of spec 000 Table 1 on both sides, in path mode and in strict mode, against hand-computed values for
// the designed table fixtures/models/pwl-constant.json (written out in test_pwl_util.h); the violations of the
// strict mode and the open cases of docs/pwl-model.md.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include "hyst/pwl.h"
#include "test_pwl_util.h"

#define EPS 1e-12

static hy_pwl_model *M;

static int setup(void **state)
{
    (void)state;
    hy_pwl_table t = table_constant();
    hy_err err;
    return hy_pwl_model_new(&t, "constant", &M, &err);
}

static int teardown(void **state)
{
    (void)state;
    hy_pwl_model_free(M);
    return 0;
}

/* trial + commit; asserts success, the new state and Q */
static void step(hy_pwl_data *d, double q, double qdot, int state, double Q)
{
    double got, k;
    hy_diag dg;
    int rc = hy_pwl_trial(d, q, qdot, &got, &k, &dg);
    if (rc != HY_OK) {
        char buf[400];
        hy_diag_format(&dg, buf, sizeof buf);
        fail_msg("trial(%g, %g) failed: %s", q, qdot, buf);
    }
    hy_pwl_commit(d);
    if (d->committed.state != state)
        fail_msg("trial(%g, %g): state %d, expected %d", q, qdot, d->committed.state, state);
    if (fabs(got - Q) > EPS * (1 + fabs(Q)))
        fail_msg("trial(%g, %g): Q = %.17g, expected %.17g", q, qdot, got, Q);
}

/* a trial that must be a violation: HY_ESTATE with the diagnostic filled, committed state untouched */
static void violation(hy_pwl_data *d, double q, double qdot)
{
    hy_pwl_state before = d->committed;
    double Q = 12345, k;
    hy_diag dg;
    memset(&dg, 0, sizeof dg);
    int rc = hy_pwl_trial(d, q, qdot, &Q, &k, &dg);
    if (rc != HY_ESTATE)
        fail_msg("trial(%g, %g) from state %d: rc %d, expected a violation", q, qdot, before.state, rc);
    assert_int_equal(dg.code, HY_ESTATE);
    assert_int_equal(dg.state, before.state);
    assert_true(dg.q == q && dg.qdot == qdot);
    assert_non_null(strstr(dg.rule, "Table 1"));
    assert_memory_equal(&d->committed, &before, sizeof before);
    assert_memory_equal(&d->trial, &before, sizeof before);
    assert_true(Q == 12345); /* outputs untouched on error */
}

static void positive_side_rows(void **state)
{
    (void)state;
    hy_pwl_data d;
    hy_pwl_data_init(&d, M);
    step(&d, 0.9, 1, 0, 0.8);       /* 0 -> 0 on the common segment: 2 (0.9 - 0.5)                   */
    step(&d, 2, 1, 1, 3);           /* 0 -> 1: F(2) = 1 + 2 (2 - 1)                                  */
    step(&d, 4, 1, 1, 6);           /* 1 -> 1: F(4) = 5 + (4 - 3)                                    */
    step(&d, 9, 1, 10, 16);         /* 1 -> 10: 12 + 4 (9 - 8)                                       */
    step(&d, 9.5, 1, 10, 18);       /* 10 -> 10                                                      */
    step(&d, 7, -1, 2, 8);          /* 10 -> 2: B(7) = 4 + 4 (7 - 6)                                 */
    step(&d, 5, -1, 2, 3.25);       /* 2 -> 2: B(5) = 2.5 + 0.75 (5 - 4)                             */
    step(&d, 5.2, 1, 3, 4.05);      /* 2 -> 3 (*): 3.25 + 4 (5.2 - 5)                                */
    /* the transition from (5, 3.25) with slope 4 meets F's segment (6,8)-(8,12): 3.25 + 4 (q - 5) = 8 + 2 (q - 6)
     * gives q = 6.375, Q = 8.75 */
    assert_true(d.committed.q3b == 5 && d.committed.Q3b == 3.25);
    assert_true(fabs(d.committed.q3e - 6.375) < EPS && fabs(d.committed.Q3e - 8.75) < EPS);
    step(&d, 5.1, -1, 3, 3.65);     /* 3 -> 3, also backwards along the same line                    */
    step(&d, 7, 1, 1, 10);          /* 3 -> 1: F(7) = 8 + 2 (7 - 6)                                  */
    step(&d, 6.5, -1, 3, 8);        /* 1 -> 3 (*): 10 + 4 (6.5 - 7)                                  */
    /* from (7, 10) down with slope 4 to B's segment (4,2.5)-(6,4): 10 + 4 (q - 7) = 2.5 + 0.75 (q - 4) gives
     * q = 70/13, Q = 46/13 */
    assert_true(fabs(d.committed.q3b - 70.0 / 13) < EPS && fabs(d.committed.Q3b - 46.0 / 13) < EPS);
    assert_true(d.committed.q3e == 7 && d.committed.Q3e == 10);
    step(&d, 5, -1, 2, 3.25);       /* 3 -> 2                                                        */
    step(&d, 0.8, -1, 0, 0.6);      /* any -> 0: 2 (0.8 - 0.5)                                       */
    step(&d, 9.5, 1, 10, 18);
    step(&d, 8.5, -1, 2, 14);       /* 10 -> 2 above q_BP(N): the beyond line is B's last segment    */
    step(&d, 9, 1, 10, 16);         /* 2 -> 10                                                       */
    step(&d, 5, -1, 2, 3.25);
    step(&d, 7.5, 1, 1, 11);        /* 2 -> 3 -> 1 in one step: F(7.5) = 8 + 2 (1.5)                  */
    step(&d, 4.5, -1, 2, 2.875);    /* 1 -> 3 -> 2 in one step: B(4.5) = 2.5 + 0.75 (0.5)            */
    step(&d, 0.8, -1, 0, 0.6);      /* any -> 0 from 2                                               */
}

static void negative_side_rows(void **state)
{
    (void)state;
    hy_pwl_data d;
    hy_pwl_data_init(&d, M);
    step(&d, -0.5, -1, 0, -0.5);    /* 0 -> 0: 2 (-0.5 + 0.25)                                       */
    step(&d, -1.5, -1, -1, -2.5);   /* 0 -> -1: F_N(-1.5) = -1.5 - 2 (0.5)                           */
    step(&d, -3, -1, -1, -4);       /* -1 -> -1: -3.5 - 0.5 (1)                                      */
    step(&d, -7, -1, -10, -14);     /* -1 -> -10: -8 - 6 (1)                                         */
    step(&d, -7.5, -1, -10, -17);   /* -10 -> -10                                                    */
    step(&d, -5.5, 1, -2, -5);      /* -10 -> -2: B_N(-5.5) = -2 - 6 (0.5)                           */
    step(&d, -4, 1, -2, -1.875);    /* -2 -> -2: -1.75 - 0.125 (1)                                   */
    step(&d, -4.2, -1, -3, -3.075); /* -2 -> -3 (*): -1.875 - 6 (0.2)                                */
    /* |q| frame: 1.875 + 6 (u - 4) = 3.5 + 0.5 (u - 2) gives u = 197/44, P = 417/88 */
    assert_true(d.committed.q3b == -4 && d.committed.Q3b == -1.875);
    assert_true(fabs(d.committed.q3e + 197.0 / 44) < EPS && fabs(d.committed.Q3e + 417.0 / 88) < EPS);
    step(&d, -4.1, 1, -3, -2.475);  /* -3 -> -3 backwards on the line                                */
    step(&d, -5.5, -1, -1, -6.5);   /* -3 -> -1: F_N(-5.5) = -5 - 3 (0.5)                            */
    step(&d, -5.2, 1, -3, -4.7);    /* -1 -> -3 (*): -6.5 + 6 (0.3)                                  */
    /* 6.5 + 6 (u - 5.5) = 1.75 + 0.125 (u - 3) gives u = 223/47, P = 1.75 + 10.25/47 */
    assert_true(fabs(d.committed.q3b + 223.0 / 47) < EPS && fabs(d.committed.Q3b + 1.75 + 10.25 / 47) < EPS);
    step(&d, -4, 1, -2, -1.875);    /* -3 -> -2                                                      */
    step(&d, -7.5, -1, -1 * 10, -17);
    step(&d, -6.5, 1, -2, -11);     /* -10 -> -2 beyond q_BN(N)                                      */
    step(&d, -7, -1, -10, -14);     /* -2 -> -10                                                     */
    step(&d, -0.5, 1, 0, -0.5);     /* any -> 0 from -2                                              */
    step(&d, 2, 1, 1, 3);           /* 0 -> 1 from the negative side                                 */
}

/* Strict mode: one row per evaluation from (state, q, qdot), as the paper's program does it. The reversal point
 * of 1 -> 3 is the first point evaluated with the new sign of qdot. */
static void strict_mode_rows(void **state)
{
    (void)state;
    hy_pwl_data d;
    hy_pwl_data_init(&d, M);
    hy_pwl_set_strict(&d, 1);
    step(&d, 0.9, 1, 0, 0.8);
    step(&d, 2, 1, 1, 3);           /* 0 -> 1 */
    step(&d, 4, 1, 1, 6);           /* 1 -> 1 */
    step(&d, 9, 1, 10, 16);         /* 1 -> 10 */
    step(&d, 9.5, 1, 10, 18);       /* 10 -> 10 */
    step(&d, 7, -1, 2, 8);          /* 10 -> 2 */
    step(&d, 5, -1, 2, 3.25);       /* 2 -> 2 */
    step(&d, 5.2, 1, 3, 3.4);       /* 2 -> 3 (*) at the current point: B(5.2) = 2.5 + 0.75 (1.2)     */
    /* 3.4 + 4 (q - 5.2) = 8 + 2 (q - 6) gives q = 6.7, Q = 9.4 */
    assert_true(d.committed.q3b == 5.2 && fabs(d.committed.Q3b - 3.4) < EPS);
    assert_true(fabs(d.committed.q3e - 6.7) < EPS && fabs(d.committed.Q3e - 9.4) < EPS);
    step(&d, 6.5, 1, 3, 8.6);       /* 3 -> 3 */
    step(&d, 7, 1, 1, 10);          /* 3 -> 1 */
    hy_pwl_data_init(&d, M);
    hy_pwl_set_strict(&d, 1);
    step(&d, 0.9, 1, 0, 0.8);
    step(&d, 7, 1, 1, 10);
    step(&d, 6.5, -1, 3, 9);        /* 1 -> 3 (*) at the current point: F(6.5) = 9                   */
    /* 9 + 4 (q - 6.5) = 2.5 + 0.75 (q - 4) gives q = 66/13, Q = 43/13 */
    assert_true(fabs(d.committed.q3b - 66.0 / 13) < EPS && fabs(d.committed.Q3b - 43.0 / 13) < EPS);
    assert_true(d.committed.q3e == 6.5 && d.committed.Q3e == 9);
    step(&d, 6, -1, 3, 7);          /* 3 -> 3 */
    step(&d, 6.2, 1, 3, 7.8);       /* 3 -> 3 with qdot > 0 */
    step(&d, 6.8, 1, 1, 9.6);       /* 3 -> 1: F(6.8) = 8 + 2 (0.8) */
    step(&d, 6.6, -1, 3, 9.2);      /* 1 -> 3 again at F(6.6) */
    step(&d, 5, -1, 2, 3.25);       /* 3 -> 2 */
    step(&d, 0.8, -1, 0, 0.6);      /* any -> 0 */
    step(&d, -1.5, -1, -1, -2.5);   /* 0 -> -1 */
    step(&d, -7, -1, -10, -14);     /* -1 -> -10 */
    step(&d, -5.5, 1, -2, -5);      /* -10 -> -2 */
    step(&d, -4, 1, -2, -1.875);    /* -2 -> -2 with qdot > 0 on the negative side means unloading   */
    step(&d, -4.2, -1, -3, -1.9);   /* -2 -> -3 (*) at B_N(-4.2) = -1.75 - 0.125 (1.2)              */
    /* 1.9 + 6 (u - 4.2) = 3.5 + 0.5 (u - 2) gives u = 25.8 / 5.5 */
    assert_true(fabs(d.committed.q3e + 25.8 / 5.5) < EPS);
    step(&d, -5.5, -1, -1, -6.5);   /* -3 -> -1 */
    violation(&d, -6.5, 1);         /* -1 beyond q_FN(N) with qdot pointing back: no row             */
    step(&d, -6.5, -1, -10, -11);   /* -1 -> -10 */
    step(&d, -6.2, 1, -2, -9.2);    /* -10 -> -2 */
    step(&d, -6.4, -1, -10, -10.4); /* -2 -> -10 */
    step(&d, -0.5, 1, 0, -0.5);     /* any -> 0 */
}

static void strict_mode_violations(void **state)
{
    (void)state;
    hy_pwl_data d;
    hy_pwl_data_init(&d, M);
    hy_pwl_set_strict(&d, 1);
    step(&d, 0.9, 1, 0, 0.8);
    violation(&d, 1.5, -1);         /* 0: left the common region upward with qdot < 0                */
    violation(&d, 1.5, 0);          /* 0: left the common region with qdot = 0                       */
    violation(&d, -1.5, 1);         /* 0: left downward with qdot > 0                                */
    step(&d, 2, 1, 1, 3);
    violation(&d, -3, -1);          /* 1: jumped across the common region                            */
    step(&d, 7, 1, 1, 10);
    violation(&d, 9, -1);           /* 1: beyond q_FP(N) with qdot < 0                               */
    violation(&d, 9, 0);            /* 1: beyond q_FP(N) with qdot = 0                               */
    step(&d, 9, 1, 10, 16);
    violation(&d, 7, 1);            /* 10: back inside with qdot > 0                                 */
    violation(&d, 7, 0);            /* 10: back inside with qdot = 0                                 */
    violation(&d, -3, -1);          /* 10: beyond to the other side in one evaluation                */
    step(&d, 7, -1, 2, 8);
    violation(&d, -2, -1);          /* 2: jumped across                                              */
    step(&d, 5, -1, 2, 3.25);
    step(&d, 5.2, 1, 3, 3.4);       /* 2 -> 3 at B(5.2) = 3.4                                        */
    violation(&d, 9, -1);           /* 3: beyond the end with qdot < 0                               */
    violation(&d, 4, 1);            /* 3: before the start with qdot > 0                             */
    violation(&d, 4, 0);            /* 3: before the start with qdot = 0                             */
    step(&d, 5.3, 0, 3, 3.8);       /* qdot = 0 inside the segment: stay                             */
    violation(&d, -7, -1);          /* 3: jumped across to the other side                            */
    /* negative side */
    hy_pwl_data_init(&d, M);
    hy_pwl_set_strict(&d, 1);
    step(&d, -1.5, -1, -1, -2.5);
    step(&d, -7, -1, -10, -14);
    violation(&d, -5.5, -1);        /* -10: back inside with qdot pointing outward                   */
    violation(&d, -5.5, 0);
    step(&d, -5.5, 1, -2, -5);
    step(&d, -4, 1, -2, -1.875);
    violation(&d, 3, 1);            /* -2: jumped across                                             */
}

/* The same inputs in path mode are not violations: the motion is followed, then qdot decides the branch. */
static void path_mode_resolves_what_strict_rejects(void **state)
{
    (void)state;
    hy_pwl_data d;
    hy_pwl_data_init(&d, M);
    step(&d, 0.9, 1, 0, 0.8);
    step(&d, 1.5, -1, 3, 2);        /* up the common segment to F(1.5) = 2, then qdot < 0: 1 -> 3 there */
    assert_true(d.committed.q3e == 1.5 && d.committed.Q3e == 2);
    /* 2 + 4 (q - 1.5) = 1 + 0.5 (q - 1) gives q = 9/7 */
    assert_true(fabs(d.committed.q3b - 9.0 / 7) < EPS);
    step(&d, 2, 1, 1, 3);
    step(&d, -3, -1, -1, -4);       /* 1 -> 3 -> 2 -> 0 -> -1 in one step: F_N(-3) = -3.5 - 0.5      */
    hy_pwl_data_init(&d, M);
    step(&d, 9, 1, 10, 16);
    step(&d, 7, 1, 3, 8);           /* 10 -> 2 down to B(7) = 8, then qdot > 0: 2 -> 3               */
    /* 8 + 4 (q - 7) meets F's last segment 8 + 2 (q - 6) at q = 8 = q_FP(N) */
    assert_true(fabs(d.committed.q3e - 8) < EPS && fabs(d.committed.Q3e - 12) < EPS);
    step(&d, 8.5, 1, 10, 14);       /* 3 -> 1 -> 10                                                  */
}

static void qdot_zero_keeps_the_branch(void **state)
{
    (void)state;
    hy_pwl_data d;
    hy_pwl_data_init(&d, M);
    step(&d, 2, 1, 1, 3);
    step(&d, 3, 0, 1, 5);           /* qdot = 0: the motion decides, the branch is kept              */
    hy_pwl_state before = d.committed;
    double Q, k;
    hy_diag dg;
    assert_int_equal(hy_pwl_trial(&d, 3, 0, &Q, &k, &dg), HY_OK);
    assert_true(Q == before.Q);     /* no motion, no direction: bit-identical Q and state            */
    assert_memory_equal(&d.trial.state, &before.state, sizeof before.state);
    assert_true(k == 2);            /* tangent of F's segment (1,1)-(3,5) */
    /* no motion but qdot < 0: Table 1 row 1 -> 3 at the point, Q unchanged, tangent k_max */
    assert_int_equal(hy_pwl_trial(&d, 3, -1, &Q, &k, &dg), HY_OK);
    assert_true(Q == before.Q && d.trial.state == 3 && k == 4);
    /* 5 + 4 (q - 3) = 1 + 0.5 (q - 1) gives q = 15/7 */
    assert_true(fabs(d.trial.q3b - 15.0 / 7) < EPS);
    hy_pwl_revert(&d);
    assert_int_equal(hy_pwl_trial(&d, 3, 1, &Q, &k, &dg), HY_OK);
    assert_true(Q == before.Q && d.trial.state == 1 && k == 2);
    /* strict: qdot = 0 inside the state's interval keeps it */
    hy_pwl_set_strict(&d, 1);
    assert_int_equal(hy_pwl_trial(&d, 3.5, 0, &Q, &k, &dg), HY_OK);
    assert_true(d.trial.state == 1 && fabs(Q - 5.5) < EPS);
}

static void reversal_inside_the_backlash(void **state)
{
    (void)state;
    hy_pwl_data d;
    hy_pwl_data_init(&d, M);
    step(&d, 0.3, 1, 0, 0);
    step(&d, 0.1, -1, 0, 0);
    step(&d, 0.45, 1, 0, 0);
    step(&d, -0.2, -1, 0, 0);       /* inside the negative backlash (width 0.25)                    */
    step(&d, -0.5, -1, 0, -0.5);    /* on the negative common segment                                */
    step(&d, 0.7, 1, 0, 0.4);       /* back across, no transition in state 0                         */
    step(&d, 0.6, -1, 0, 0.2);
}

static void passage_through_zero_in_one_step(void **state)
{
    (void)state;
    hy_pwl_data d;
    hy_pwl_data_init(&d, M);
    step(&d, 7, 1, 1, 10);
    step(&d, 5, -1, 2, 3.25);
    step(&d, -4, -1, -1, -4.5);     /* B to the common segment, across, F_N(-4) = -3.5 - 0.5 (2)     */
    step(&d, 3, 1, 1, 5);           /* -1 -> -3 -> -2 -> 0 -> 1                                      */
}

static void zero_length_transition_where_branches_meet(void **state)
{
    (void)state;
    hy_pwl_data d;
    hy_pwl_data_init(&d, M);
    step(&d, 8, 1, 1, 12);          /* exactly at q_FP(N): still 1 (Table 1 needs q > q_FP(N))        */
    step(&d, 7.5, -1, 2, 10);       /* the transition from (8, 12) runs along B's last segment: it is
                                       of zero length and the point continues on B                   */
    hy_pwl_data_init(&d, M);
    step(&d, 1.5, 1, 1, 2);
    step(&d, 1, -1, 2, 1);          /* down the transition to B at 9/7 and on B to q_BP(2) = 1         */
    step(&d, 0.9, -1, 0, 0.8);
}

static void non_finite_input(void **state)
{
    (void)state;
    hy_pwl_data d;
    hy_pwl_data_init(&d, M);
    step(&d, 2, 1, 1, 3);
    hy_pwl_state before = d.committed;
    double Q, k;
    hy_diag dg;
    assert_int_equal(hy_pwl_trial(&d, NAN, 1, &Q, &k, &dg), HY_ERANGE);
    assert_int_equal(dg.code, HY_ERANGE);
    assert_int_equal(dg.state, 1);
    assert_non_null(strstr(dg.rule, "q is not a finite number"));
    assert_int_equal(hy_pwl_trial(&d, 3, INFINITY, &Q, &k, &dg), HY_ERANGE);
    assert_non_null(strstr(dg.rule, "dq/dt"));
    assert_memory_equal(&d.committed, &before, sizeof before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(positive_side_rows),
        cmocka_unit_test(negative_side_rows),
        cmocka_unit_test(strict_mode_rows),
        cmocka_unit_test(strict_mode_violations),
        cmocka_unit_test(path_mode_resolves_what_strict_rejects),
        cmocka_unit_test(qdot_zero_keeps_the_branch),
        cmocka_unit_test(reversal_inside_the_backlash),
        cmocka_unit_test(passage_through_zero_in_one_step),
        cmocka_unit_test(zero_length_transition_where_branches_meet),
        cmocka_unit_test(non_finite_input),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

// Transition geometry of spec 000 §2: the 2x2 line intersection and the transition segments of the designed
// tables, against hand-computed crossings; the round-off fallbacks of docs/pwl-model.md on hand-built sides.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "hyst/pwl.h"
#include "test_pwl_util.h"
#include "../../libhyst/src/pwl_internal.h"

#define EPS 1e-12
#define NEAR(a, b) assert_true(fabs((a) - (double)(b)) <= EPS * (1 + fabs((double)(b))))

static void intersect_hand_cases(void **state)
{
    (void)state;
    double x = 0, y = 0;
    /* y = x against the horizontal segment y = 1 */
    assert_int_equal(hy_pwl_intersect(0, 0, 1, 0, 1, 2, 1, &x, &y), 1);
    NEAR(x, 1);
    NEAR(y, 1);
    /* through (1, 2) with slope 3 against y = x / 2: 2 + 3 (x - 1) = x / 2 gives x = 0.4 */
    assert_int_equal(hy_pwl_intersect(1, 2, 3, 0, 0, 4, 2, &x, &y), 1);
    NEAR(x, 0.4);
    NEAR(y, 0.2);
    /* a vertical segment x = 2 against y = x */
    assert_int_equal(hy_pwl_intersect(0, 0, 1, 2, 0, 2, 5, &x, &y), 1);
    NEAR(x, 2);
    NEAR(y, 2);
    /* far from the origin: through (1e6 + 1, 3) slope 2 against the slope-1 segment from (1e6, 0): X = -1 exactly */
    assert_int_equal(hy_pwl_intersect(1e6 + 1, 3, 2, 1e6, 0, 1e6 + 4, 4, &x, &y), 1);
    assert_true(x == 1e6 - 1 && y == -1);
    /* parallel lines: no crossing, outputs untouched */
    x = y = 42;
    assert_int_equal(hy_pwl_intersect(0, 1, 2, 0, 0, 3, 6, &x, &y), 0);
    assert_true(x == 42 && y == 42);
}

/* The same crossing from the paper's own coefficients (spec 000 §2): A3 = y_E3, B3 = -y_E3/k3, C3 = -A3 x_03 and
 * A2 = y_E2 - y_B2, B2 = -(x_E2 - x_B2), C2 = -A2 x_B2 - B2 y_B2, solved by Cramer's rule here in the test. */
static void intersect_matches_paper_coefficients(void **state)
{
    (void)state;
    const double cases[][7] = {
        /* x_E3, y_E3, k3, x_B2, y_B2, x_E2, y_E2 */
        {7, 10, 4, 4, 2.5, 6, 4},
        {5.5, 6.5, 6, 3, 1.75, 5, 2},
        {9, 7.5, 2, 1, 2, 7, 3},
        {3.3, 0.7, 10, 0.1, 0.05, 2.9, 0.4},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const double *v = cases[c];
        double xE3 = v[0], yE3 = v[1], k3 = v[2], xB2 = v[3], yB2 = v[4], xE2 = v[5], yE2 = v[6];
        double x03 = xE3 - yE3 / k3;
        double A3 = yE3, B3 = -yE3 / k3, C3 = -A3 * x03;
        double A2 = yE2 - yB2, B2 = -(xE2 - xB2), C2 = -A2 * xB2 - B2 * yB2;
        double det = A2 * B3 - A3 * B2;
        double xc = (-C2 * B3 + B2 * C3) / det, yc = (-A2 * C3 + A3 * C2) / det;
        double x, y;
        assert_int_equal(hy_pwl_intersect(xE3, yE3, k3, xB2, yB2, xE2, yE2, &x, &y), 1);
        assert_true(fabs(x - xc) <= 1e-12 * (1 + fabs(xc)));
        assert_true(fabs(y - yc) <= 1e-12 * (1 + fabs(yc)));
    }
}

static void transitions_of_the_constant_table(void **state)
{
    (void)state;
    hy_pwl_table t = table_constant();
    hy_pwl_model *m;
    hy_err err;
    assert_int_equal(hy_pwl_model_new(&t, "c", &m, &err), HY_OK);
    double qb, Qb, qe, Qe;
    /* 1 -> 3 at q = 7 on F (Q = 10), k = 4: B's last segment (6,4)-(8,12) is parallel and below; the crossing
     * with (4,2.5)-(6,4) is 10 + 4 (q - 7) = 2.5 + 0.75 (q - 4): q = 70/13, Q = 46/13 */
    assert_int_equal(hy_pwl_transition(m, 1, 7, &qb, &Qb, &qe, &Qe), HY_OK);
    NEAR(qb, 70.0 / 13);
    NEAR(Qb, 46.0 / 13);
    assert_true(qe == 7 && Qe == 10);
    /* 2 -> 3 at q = 5 on B (Q = 3.25): F's segment (3,5)-(6,8) would be met at 6.25 > 6, so the crossing is on
     * (6,8)-(8,12): 3.25 + 4 (q - 5) = 8 + 2 (q - 6): q = 6.375, Q = 8.75 */
    assert_int_equal(hy_pwl_transition(m, 2, 5, &qb, &Qb, &qe, &Qe), HY_OK);
    assert_true(qb == 5 && Qb == 3.25);
    NEAR(qe, 6.375);
    NEAR(Qe, 8.75);
    /* -1 -> -3 at q = -5.5 (Q = -6.5), k = 6: 6.5 + 6 (u - 5.5) = 1.75 + 0.125 (u - 3): u = 223/47 */
    assert_int_equal(hy_pwl_transition(m, -1, -5.5, &qb, &Qb, &qe, &Qe), HY_OK);
    NEAR(qb, -223.0 / 47);
    NEAR(Qb, -(1.75 + 10.25 / 47));
    assert_true(qe == -5.5 && Qe == -6.5);
    /* -2 -> -3 at q = -4 (Q = -1.875): 1.875 + 6 (u - 4) = 3.5 + 0.5 (u - 2): u = 197/44, P = 417/88 */
    assert_int_equal(hy_pwl_transition(m, -2, -4, &qb, &Qb, &qe, &Qe), HY_OK);
    assert_true(qb == -4 && Qb == -1.875);
    NEAR(qe, -197.0 / 44);
    NEAR(Qe, -417.0 / 88);
    /* reversal where F and B meet (the last point): a transition of zero length */
    assert_int_equal(hy_pwl_transition(m, 1, 8, &qb, &Qb, &qe, &Qe), HY_OK);
    assert_true(qb == 8 && Qb == 12 && qe == 8 && Qe == 12);
    /* reversal on F at the end of the common segment: zero length too */
    assert_int_equal(hy_pwl_transition(m, 1, 1, &qb, &Qb, &qe, &Qe), HY_OK);
    NEAR(qb, 1);
    NEAR(Qb, 1);
    /* only F and B states have a transition */
    assert_int_equal(hy_pwl_transition(m, 3, 5, &qb, &Qb, &qe, &Qe), HY_EARG);
    assert_int_equal(hy_pwl_transition(m, 10, 9, &qb, &Qb, &qe, &Qe), HY_EARG);
    hy_pwl_model_free(m);
}

static void transitions_of_the_friction_table(void **state)
{
    (void)state;
    hy_pwl_table t = table_friction();
    hy_pwl_model *m;
    hy_err err;
    assert_int_equal(hy_pwl_model_new(&t, "f", &m, &err), HY_OK);
    /* k_max is the largest working slope: the common segment's 2 (spec 000 §3 item 3) */
    assert_true(hy_pwl_model_kmax(m, 1) == 2 && hy_pwl_model_kmax(m, -1) == 2);
    double qb, Qb, qe, Qe;
    /* 1 -> 3 at q = 9 (F = 5 + 0.5 (9 - 4) = 7.5): the crossing with (7,3)-(10,8) would be at 5.5 < 7, so it is on
     * (1,2)-(7,3): 7.5 + 2 (q - 9) = 2 + (q - 1)/6: q = 74/11, Q = 32.5/11 */
    assert_int_equal(hy_pwl_transition(m, 1, 9, &qb, &Qb, &qe, &Qe), HY_OK);
    NEAR(qb, 74.0 / 11);
    NEAR(Qb, 32.5 / 11);
    /* -2 -> -3 at q = -8 (|q| frame: B = 3 + (5/3)(8 - 7) = 14/3): the line 14/3 + 2 (u - 8) is above F's last
     * point (10, 8) at u = 10, so it meets F's last segment: 14/3 + 2 (u - 8) = 5 + 0.5 (u - 4): u = 86/9 */
    assert_int_equal(hy_pwl_transition(m, -2, -8, &qb, &Qb, &qe, &Qe), HY_OK);
    assert_true(qb == -8);
    NEAR(Qb, -14.0 / 3);
    NEAR(qe, -86.0 / 9);
    NEAR(Qe, -(5 + 0.5 * (86.0 / 9 - 4)));
    hy_pwl_model_free(m);
}

/* The round-off fallbacks (docs/pwl-model.md, open cases), on sides built by hand so that the line misses the
 * working segments, which a validated table cannot do except by round-off. */
static void fallback_when_the_line_misses(void **state)
{
    (void)state;
    double u[] = {0.5, 1, 4}, P[] = {0, 1, 2}, k[] = {2, 1.0 / 3};
    pwl_side s;
    memset(&s, 0, sizeof s);
    s.sgn = 1;
    s.F = (pwl_branch){3, u, P, k};
    s.B = s.F;
    s.u1 = 0.5;
    s.u2 = 1;
    s.P2 = 1;
    s.k0 = 2;
    s.uN = 4;
    s.PN = 2;
    s.k_max = 4;
    double ub, Pb, ue, Pe;
    int seg = -1;
    /* from (2, 7) down with slope 4 the line stays above B down to u1 = 0.5 (it is at 1 there): it meets the
     * continuation of B, the backlash P = 0, at u = 2 - 7/4 = 0.25 */
    pwl_transition_down(&s, 2, 7, &ub, &Pb, &seg);
    NEAR(ub, 0.25);
    NEAR(Pb, 0);
    assert_int_equal(seg, 0);
    /* further up it would cross the backlash left of the origin: clamped at the origin */
    pwl_transition_down(&s, 2, 20, &ub, &Pb, &seg);
    assert_true(ub == 0);
    /* from (1.5, -20) up with slope 4 the line stays below F up to the last point: it meets F there */
    pwl_transition_up(&s, 1.5, -20, &ue, &Pe, &seg);
    assert_true(ue == 4);
    NEAR(Pe, -10);
    assert_int_equal(seg, 1);
    /* a normal crossing for comparison: from (3, 5) down meets B's segment (1,1)-(4,2): 5 + 4 (u - 3) = 1 + (u-1)/3 */
    pwl_transition_down(&s, 3, 5, &ub, &Pb, &seg);
    NEAR(ub, (1 - 1.0 / 3 - 5 + 12) / (4 - 1.0 / 3));
    assert_int_equal(seg, 1);
}

static void envelope_queries(void **state)
{
    (void)state;
    hy_pwl_table t = table_constant();
    hy_pwl_model *m;
    hy_err err;
    assert_int_equal(hy_pwl_model_new(&t, "c", &m, &err), HY_OK);
    const double qs[] = {-9, -6, -5.5, -4, -2.5, -1, -0.6, -0.25, -0.1, 0, 0.3, 0.5, 0.75, 1, 2, 4.5, 7, 8, 8.25, 11};
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
        double lo, hi;
        ref_envelope(&t, qs[i], &lo, &hi);
        double F = hy_pwl_model_branch(m, HY_PWL_FORWARD, qs[i]), B = hy_pwl_model_branch(m, HY_PWL_BACKWARD, qs[i]);
        NEAR(qs[i] >= 0 ? F : B, hi);
        NEAR(qs[i] >= 0 ? B : F, lo);
    }
    double lo, hi;
    hy_pwl_model_common(m, &lo, &hi);
    assert_true(lo == -1 && hi == 1);
    assert_true(hy_pwl_model_kmax(m, 1) == 4 && hy_pwl_model_kmax(m, -1) == 6);
    assert_int_equal(hy_pwl_model_kind(m), HY_PWL_CONSTANT);
    hy_pwl_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(intersect_hand_cases),
        cmocka_unit_test(intersect_matches_paper_coefficients),
        cmocka_unit_test(transitions_of_the_constant_table),
        cmocka_unit_test(transitions_of_the_friction_table),
        cmocka_unit_test(fallback_when_the_line_misses),
        cmocka_unit_test(envelope_queries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

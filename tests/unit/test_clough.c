// Peak-oriented (modified Clough) model with pinching (clough_*.c, docs/clough-model.md): every branch against the
// multilinear law worked by hand (backbone, unloading, the pinched reloading's two segments, the partial reversal
// that returns to its path), the energy of a steady symmetric cycle against its closed form 2 kappa F_m (a - F_m/k),
// trial/commit/revert, exactness for any step, the model file's round trip and its range errors.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/clough.h"
#include "hyst/model.h"

static const hy_clough_params P = {.k = 100, .F_y = 10, .alpha = 0.05, .kappa = 0.4}; /* u_y = 0.1 */

static hy_clough_model *model(const hy_clough_params *p)
{
    hy_clough_model *m;
    hy_err err;
    assert_int_equal(hy_clough_model_new(p, &m, &err), HY_OK);
    return m;
}

/* (element, q) => force after a committed move to q (in n equal steps) */
static double go(hy_element *e, double *qc, double q, int n, double *kt)
{
    double F = 0, K;
    hy_diag d;
    for (int i = 1; i <= n; i++) {
        double qi = i == n ? q : *qc + (q - *qc) * i / n;
        assert_int_equal(hy_element_trial(e, qi, 0, &F, &K, &d), HY_OK);
        hy_element_commit(e);
    }
    *qc = q;
    if (kt)
        *kt = K;
    return F;
}

#define NEAR(a, b) assert_true(fabs((double)(a) - (double)(b)) <= 1e-12 * (1 + fabs((double)(b))))

/* The path 0 -> 0.5 -> -0.3 -> 0.119 -> 0.1 -> 0.6 worked by hand (docs/clough-model.md §3's example) */
static void branches_by_hand(void **state)
{
    (void)state;
    hy_clough_model *m = model(&P);
    hy_element e;
    hy_err err;
    assert_int_equal(hy_clough_element_new(m, &e, &err), HY_OK);
    double q = 0, K;
    NEAR(go(&e, &q, 0.05, 1, &K), 5.0);              /* elastic: k q */
    NEAR(K, 100);
    NEAR(go(&e, &q, 0.5, 1, &K), 12.0);              /* backbone: F_y + alpha k (q - u_y) */
    NEAR(K, 5);
    assert_int_equal(hy_element_state(&e), 4);
    NEAR(go(&e, &q, 0.44, 1, &K), 6.0);              /* unloading, slope k: 12 - 100 x 0.06 */
    NEAR(K, 100);
    assert_int_equal(hy_element_state(&e), -1);
    /* zero force at 0.38; toward the - side's peak (-0.1, -10) through its pinch point (-0.04, -4) */
    NEAR(go(&e, &q, 0.17, 1, &K), -2.0);             /* -(0.38 - 0.17) x 4 / 0.42 */
    NEAR(K, 4 / 0.42);
    assert_int_equal(hy_element_state(&e), -2);
    NEAR(go(&e, &q, -0.07, 1, &K), -7.0);            /* pinch point to peak, slope k: -4 - 100 x 0.03 */
    assert_int_equal(hy_element_state(&e), -3);
    NEAR(go(&e, &q, -0.3, 1, &K), -11.0);            /* backbone beyond the old peak */
    assert_int_equal(hy_element_state(&e), -4);
    /* unloading to zero at -0.19; toward (0.5, 12) through (0.5 - 0.6 x 12/100, 0.4 x 12) = (0.428, 4.8) */
    NEAR(go(&e, &q, 0.119, 1, &K), 0.309 * 4.8 / 0.618);
    NEAR(K, 4.8 / 0.618);
    NEAR(go(&e, &q, 0.1, 1, &K), 0.309 * 4.8 / 0.618 - 1.9); /* partial reversal: slope k */
    NEAR(go(&e, &q, 0.2, 1, &K), 0.39 * 4.8 / 0.618);         /* back on the reloading path it left */
    NEAR(go(&e, &q, 0.464, 1, &K), 4.8 + 3.6);
    assert_int_equal(hy_element_state(&e), 3);
    NEAR(go(&e, &q, 0.6, 1, &K), 12.5);
    NEAR(K, 5);
    hy_element_free(&e);
    hy_clough_model_free(m);
}

/* steady symmetric cycles: the trapezoid area of one loop in N steps against 2 kappa F_m (a - F_m/k). The law is
   linear between its six kinks, so the trapezoid errs only on the steps holding a kink: at most 6 x k h^2 / 4 with
   h = 4a / N (a kink's slope change is at most k) */
static void cycle_energy_closed_form(void **state)
{
    (void)state;
    const double kappas[] = {1.0, 0.4, 0.1}, amps[] = {0.15, 0.5, 2.0};
    for (int ik = 0; ik < 3; ik++)
        for (int ia = 0; ia < 3; ia++) {
            hy_clough_params p = P;
            p.kappa = kappas[ik];
            hy_clough_model *m = model(&p);
            hy_element e;
            hy_err err;
            assert_int_equal(hy_clough_element_new(m, &e, &err), HY_OK);
            double a = amps[ia], q = 0;
            go(&e, &q, a, 7, NULL);
            go(&e, &q, -a, 7, NULL);
            go(&e, &q, a, 7, NULL); /* both peaks at +-a: the next cycle is the steady one */
            const int N = 40000;
            double W = 0, qp = q, Fp = hy_clough_backbone(m, a), F = 0, K;
            hy_diag d;
            for (int i = 1; i <= N; i++) {
                double s = 4.0 * i / N; /* a -> -a -> a */
                double qi = s <= 2 ? a - a * s : -a + a * (s - 2);
                assert_int_equal(hy_element_trial(&e, qi, 0, &F, &K, &d), HY_OK);
                hy_element_commit(&e);
                W += 0.5 * (F + Fp) * (qi - qp);
                qp = qi, Fp = F;
            }
            double E = hy_clough_cycle_energy(m, a), h = 4 * a / N;
            if (fabs(W - E) > 6 * p.k * h * h / 4 + 1e-12 * E)
                fail_msg("kappa %g, a %g: loop area %.12g, closed form %.12g", p.kappa, a, W, E);
            NEAR(F, hy_clough_backbone(m, a)); /* the loop closes on the peak */
            hy_element_free(&e);
            hy_clough_model_free(m);
        }
    /* a cycle within the elastic range dissipates nothing */
    hy_clough_model *m = model(&P);
    assert_true(hy_clough_cycle_energy(m, 0.09) == 0.0);
    hy_clough_model_free(m);
}

/* trial never changes the committed state; revert drops the trial; one step equals many (rate-independent, exact) */
static void trial_commit_revert(void **state)
{
    (void)state;
    hy_clough_model *m = model(&P);
    hy_element a, b;
    hy_err err;
    assert_int_equal(hy_clough_element_new(m, &a, &err), HY_OK);
    assert_int_equal(hy_clough_element_new(m, &b, &err), HY_OK);
    const double path[] = {0.5, -0.3, 0.119, 0.1, 0.8, -1.2, 0.0, 1.3};
    double qa = 0, qb = 0;
    for (int i = 0; i < 8; i++) {
        double Fa = go(&a, &qa, path[i], 1, NULL), Fb = go(&b, &qb, path[i], 997, NULL);
        NEAR(Fa, Fb);
        assert_int_equal(hy_element_state(&a), hy_element_state(&b));
        double F1, F2, F3, K;
        hy_diag d;
        assert_int_equal(hy_element_trial(&a, qa + 0.37, 0, &F1, &K, &d), HY_OK);
        assert_int_equal(hy_element_trial(&a, qa - 0.61, 0, &F2, &K, &d), HY_OK);
        assert_int_equal(hy_element_trial(&a, qa + 0.37, 0, &F3, &K, &d), HY_OK);
        assert_true(F1 == F3); /* the trials start from the committed state each time */
        hy_element_revert(&a);
        assert_int_equal(hy_element_trial(&a, qa, 0, &F3, &K, &d), HY_OK);
        assert_true(F3 == Fa);
        hy_element_commit(&a);
    }
    hy_diag d;
    double F, K;
    assert_int_equal(hy_element_trial(&a, NAN, 0, &F, &K, &d), HY_EARG);
    /* a copy continues exactly as the original */
    hy_element c;
    assert_int_equal(hy_clough_element_copy(&a, &c, &err), HY_OK);
    double qc = qa;
    NEAR(go(&c, &qc, -0.9, 1, NULL), go(&a, &qa, -0.9, 1, NULL));
    hy_element_free(&c);
    hy_element_free(&a);
    hy_element_free(&b);
    hy_clough_model_free(m);
}

/* random histories (seeded): each reversal reached in one step and in 64 equal steps gives the same force (the
   element is exact for any step); the tangent is a one-sided difference quotient of the force along the move (the
   law is piecewise linear, so a step within the branch reproduces it); reset at q0 shifts the whole response */
static void random_paths(void **state)
{
    (void)state;
    unsigned long long x = 88172645463325252ULL;
    for (int trial = 0; trial < 20; trial++) {
        hy_clough_params p = P;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        p.kappa = 0.05 + 0.95 * (double)(x % 1000) / 999.0;
        p.alpha = (double)(x % 7) * 0.03; /* 0 included */
        hy_clough_model *m = model(&p);
        hy_element a, b, c;
        hy_err err;
        assert_int_equal(hy_clough_element_new(m, &a, &err), HY_OK);
        assert_int_equal(hy_clough_element_new(m, &b, &err), HY_OK);
        assert_int_equal(hy_clough_element_new(m, &c, &err), HY_OK);
        const double q0 = 3.25;
        assert_int_equal(hy_element_reset(&c, q0, 0.0, &err), HY_OK);
        double qa = 0, qb = 0, qc = q0;
        for (int i = 0; i < 60; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            double target = ((double)(x % 20001) / 10000.0 - 1.0) * 0.8; /* in [-0.8, 0.8], u_y = 0.1 */
            double K, Fa = go(&a, &qa, target, 1, &K), Fb = go(&b, &qb, target, 64, NULL);
            double Fc = go(&c, &qc, q0 + target, 1, NULL);
            if (fabs(Fa - Fb) > 1e-10 * (1 + fabs(Fb)) || fabs(Fa - Fc) > 1e-10 * (1 + fabs(Fa)))
                fail_msg("kappa %g alpha %g step %d: one step %.15g, 64 steps %.15g, shifted %.15g", p.kappa, p.alpha,
                         i, Fa, Fb, Fc);
            assert_true(K >= 0 && K <= p.k * (1 + 1e-12)); /* every branch's slope is in [0, k] (§2) */
            /* a small further move in the same direction: the force changes by K x dq while the branch lasts */
            double dir = target >= 0 ? 1 : -1, F2, K2;
            hy_diag d;
            assert_int_equal(hy_element_trial(&a, qa + dir * 1e-9, 0, &F2, &K2, &d), HY_OK);
            hy_element_revert(&a);
            if (K2 == K && fabs((F2 - Fa) / (dir * 1e-9) - K) > 1e-5 * p.k)
                fail_msg("tangent %g, difference quotient %g", K, (F2 - Fa) / (dir * 1e-9));
        }
        hy_element_free(&a);
        hy_element_free(&b);
        hy_element_free(&c);
        hy_clough_model_free(m);
    }
}

static void model_file(void **state)
{
    (void)state;
    hy_model m;
    hy_err err;
    const char *text = "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"clough\", \"units\": {\"q\": \"mm\","
                       " \"Q\": \"kN\"}, \"k\": 100, \"F_y\": 10, \"alpha\": 0.05, \"kappa\": 0.4, \"name\": \"x\"}";
    assert_int_equal(hy_model_parse(text, "c.json", &m, &err), HY_OK);
    assert_string_equal(hy_model_family(&m), "clough");
    assert_int_equal(hy_model_nparams(&m), 4);
    char *out = hy_model_print(&m, &err);
    hy_model m2;
    assert_int_equal(hy_model_parse(out, "c2.json", &m2, &err), HY_OK);
    free(out);
    const hy_clough_params *p = hy_clough_model_params(m2.clough);
    assert_true(p->k == 100 && p->F_y == 10 && p->alpha == 0.05 && p->kappa == 0.4);
    hy_element e;
    assert_int_equal(hy_model_element(&m2, &e, &err), HY_OK);
    double q = 0;
    NEAR(go(&e, &q, 0.5, 1, NULL), 12.0);
    hy_element_free(&e);
    hy_model_free(&m);
    hy_model_free(&m2);
    /* kappa is optional (1: Clough's law, 3 parameters) */
    assert_int_equal(hy_model_parse("{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"clough\", \"k\": 1, "
                                    "\"F_y\": 1, \"alpha\": 0}", "c.json", &m, &err), HY_OK);
    assert_int_equal(hy_model_nparams(&m), 3);
    hy_model_free(&m);
    struct { const char *body, *msg; } bad[] = {
        {"\"k\": -1, \"F_y\": 1, \"alpha\": 0", "c.json: k = -1 is outside its range (a finite number > 0)"},
        {"\"k\": 1, \"F_y\": 0, \"alpha\": 0", "c.json: F_y = 0 is outside its range"},
        {"\"k\": 1, \"F_y\": 1, \"alpha\": 1", "c.json: alpha = 1 is outside its range (0 <= alpha < 1)"},
        {"\"k\": 1, \"F_y\": 1, \"alpha\": 0, \"kappa\": 0", "c.json: kappa = 0 is outside its range (0 < kappa <= 1)"},
        {"\"k\": 1, \"alpha\": 0", "c.json: F_y: missing"},
        {"\"k\": \"1\", \"F_y\": 1, \"alpha\": 0", "c.json: k: expected a finite number"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char doc[512];
        snprintf(doc, sizeof doc, "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"clough\", %s}",
                 bad[i].body);
        assert_int_not_equal(hy_model_parse(doc, "c.json", &m, &err), HY_OK);
        if (!strstr(err.msg, bad[i].msg))
            fail_msg("expected '%s' in '%s'", bad[i].msg, err.msg);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(branches_by_hand),
        cmocka_unit_test(cycle_energy_closed_form),
        cmocka_unit_test(trial_commit_revert),
        cmocka_unit_test(random_paths),
        cmocka_unit_test(model_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

// Iwan family (iwan_*.c): N Jenkins elements against the analytic backbone, Masing unloading and the closed-form
// energy per cycle; the Segalman discretisation against its continuous closed forms; trial/commit/revert; files.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/iwan.h"
#include "hyst/model.h"

static hy_iwan_model *random_discrete(int n, unsigned seed, double k_inf)
{
    double k[64], f[64];
    srand(seed);
    for (int i = 0; i < n; i++) {
        k[i] = 1 + 10.0 * rand() / RAND_MAX;
        f[i] = k[i] * (0.05 + 3.0 * rand() / RAND_MAX);
    }
    hy_iwan_model *m;
    assert_int_equal(hy_iwan_model_discrete(n, k, f, k_inf, &m, NULL), HY_OK);
    return m;
}

/* Virgin loading follows the backbone F(u) = k_inf u + sum k_i min(u, phi_i); unloading from u_r follows the
 * Masing branch F(u_r) - 2 F((u_r - u) / 2); reloading from -u_r closes the loop at u_r. */
static void backbone_and_masing_unloading(void **state)
{
    (void)state;
    hy_iwan_model *m = random_discrete(64, 7, 0.5);
    hy_element e;
    assert_int_equal(hy_iwan_element_new(m, &e, NULL), HY_OK);
    double ur = 2.5, Q, worst = 0;
    for (int i = 1; i <= 500; i++) {
        double u = ur * i / 500;
        assert_int_equal(hy_element_trial(&e, u, 1, &Q, NULL, NULL), HY_OK);
        hy_element_commit(&e);
        worst = fmax(worst, fabs(Q - hy_iwan_backbone(m, u)));
    }
    double Fr = hy_iwan_backbone(m, ur);
    for (int i = 1; i <= 1000; i++) {
        double u = ur - 2 * ur * i / 1000;
        assert_int_equal(hy_element_trial(&e, u, -1, &Q, NULL, NULL), HY_OK);
        hy_element_commit(&e);
        worst = fmax(worst, fabs(Q - (Fr - 2 * hy_iwan_backbone(m, (ur - u) / 2))));
    }
    for (int i = 1; i <= 1000; i++) {
        double u = -ur + 2 * ur * i / 1000;
        assert_int_equal(hy_element_trial(&e, u, 1, &Q, NULL, NULL), HY_OK);
        hy_element_commit(&e);
        worst = fmax(worst, fabs(Q - (-Fr + 2 * hy_iwan_backbone(m, (u + ur) / 2))));
    }
    printf("# 64 elements: max |Q - closed form| = %.3g (Fr = %g)\n", worst, Fr);
    assert_true(worst < 1e-12 * Fr);
    hy_element_free(&e);
    hy_iwan_model_free(m);
}

/* Energy of a closed symmetric cycle (trapezoid on a grid containing every slip point exactly is exact for the
 * piecewise-linear loop) vs sum 4 f_i (a - phi_i)^+; and >= 0. */
static void energy_per_cycle_closed_form(void **state)
{
    (void)state;
    hy_iwan_model *m = random_discrete(16, 3, 0.0);
    const double *k = hy_iwan_model_k(m), *f = hy_iwan_model_f(m);
    for (double a = 0.1; a < 4; a += 0.37) {
        hy_element e;
        assert_int_equal(hy_iwan_element_new(m, &e, NULL), HY_OK);
        double Q, Qp = 0, qp = 0, W = 0;
        for (int i = 1; i <= 100; i++) {
            hy_element_trial(&e, a * i / 100, 1, &Q, NULL, NULL);
            hy_element_commit(&e);
        }
        hy_element_trial(&e, a, 0, &Qp, NULL, NULL);
        qp = a;
        /* one cycle a -> -a -> a; the grid holds every slip point of the unloading (a - 2 phi_i) and reloading
           (-a + 2 phi_i) branches, so the trapezoid sum is exact on the piecewise-linear loop */
        for (int s = 0; s < 2; s++) {
            double pts[200];
            int np = 0;
            for (int i = 1; i <= 100; i++)
                pts[np++] = a - 2 * a * i / 100;
            for (int i = 0; i < 16; i++)
                if (2 * f[i] / k[i] < 2 * a)
                    pts[np++] = a - 2 * f[i] / k[i];
            for (int i = 0; i < np; i++)  /* descending */
                for (int j = i + 1; j < np; j++)
                    if (pts[j] > pts[i]) {
                        double t = pts[i];
                        pts[i] = pts[j];
                        pts[j] = t;
                    }
            for (int i = 0; i < np; i++) {
                double q = s == 0 ? pts[i] : -pts[i];
                hy_element_trial(&e, q, 0, &Q, NULL, NULL);
                hy_element_commit(&e);
                W += 0.5 * (Q + Qp) * (q - qp);
                qp = q;
                Qp = Q;
            }
        }
        double D = hy_iwan_cycle_energy(m, a);
        if (!(W >= -1e-12)) fail_msg("a = %g: W = %g, D = %g", a, W, hy_iwan_cycle_energy(m, a));
        if (fabs(W - D) > 1e-10 * (1 + D))
            fail_msg("a = %g: loop area %.15g, closed form %.15g", a, W, D);
        hy_element_free(&e);
    }
    hy_iwan_model_free(m);
}

/* Segalman: the discretisation keeps K_T and F_S exactly and converges to the continuous backbone and energy. */
static void segalman_discretisation_converges(void **state)
{
    (void)state;
    hy_iwan_segalman s = {.F_S = 300, .K_T = 400, .chi = -0.5, .beta = 0.2, .N = 16};
    double prev = INFINITY;
    for (int N = 16; N <= 1024; N *= 4) {
        s.N = N;
        hy_iwan_model *m;
        assert_int_equal(hy_iwan_model_segalman(&s, 0.0, &m, NULL), HY_OK);
        double Kt = 0, Fs = 0;
        for (int i = 0; i < N; i++) {
            Kt += hy_iwan_model_k(m)[i];
            Fs += hy_iwan_model_f(m)[i];
        }
        assert_true(fabs(Kt - s.K_T) < 1e-12 * s.K_T);
        assert_true(fabs(Fs - s.F_S) < 1e-12 * s.F_S);
        assert_true(fabs(hy_iwan_backbone(m, 10.0) - s.F_S) < 1e-12 * s.F_S);
        double eb = 0, ee = 0;
        for (double u = 0.01; u < 0.6; u += 0.01) {
            eb = fmax(eb, fabs(hy_iwan_backbone(m, u) - hy_iwan_segalman_backbone(&s, u)) / s.F_S);
            double Dc = hy_iwan_segalman_energy(&s, u);
            ee = fmax(ee, fabs(hy_iwan_cycle_energy(m, u) - Dc) / hy_iwan_segalman_energy(&s, 0.6));
        }
        printf("# Segalman N = %d: backbone error %.3g F_S, energy error %.3g D(0.6)\n", N, eb, ee);
        assert_true(eb < 2.0 / N);
        assert_true(ee < prev);
        prev = ee;
        hy_iwan_model_free(m);
    }
    assert_true(prev < 1e-3);
}

static void trial_commit_revert(void **state)
{
    (void)state;
    hy_iwan_model *m = random_discrete(8, 11, 1.0);
    hy_element e;
    assert_int_equal(hy_iwan_element_new(m, &e, NULL), HY_OK);
    double Q1, Q2, K;
    hy_element_trial(&e, 3.0, 1, &Q1, &K, NULL);
    hy_element_trial(&e, -1.0, -1, &Q2, &K, NULL);
    hy_element_revert(&e);
    hy_element_trial(&e, 3.0, 1, &Q2, &K, NULL);
    assert_true(Q1 == Q2);
    hy_element_commit(&e);
    hy_element_trial(&e, 3.0 - 1e-9, -1, &Q2, &K, NULL);
    /* just after a reversal every element sticks: tangent = total stiffness */
    double Ksum = hy_iwan_model_k_inf(m);
    for (int i = 0; i < 8; i++)
        Ksum += hy_iwan_model_k(m)[i];
    assert_true(fabs(K - Ksum) < 1e-12 * Ksum);
    hy_err err;
    assert_int_not_equal(hy_element_reset(&e, 1.0, 5.0, &err), HY_OK);
    assert_int_equal(hy_element_reset(&e, 1.0, 1.0, &err), HY_OK);
    hy_element_free(&e);
    hy_iwan_model_free(m);
}

static void model_files(void **state)
{
    (void)state;
    const char *docs[] = {
        "{\"format\":\"hyst-model\",\"version\":1,\"model\":\"iwan\",\"k_inf\":2.5,"
        "\"elements\":[[10,1],[20,4.000000000000001],[5,3]],\"x\":1}",
        "{\"format\":\"hyst-model\",\"version\":1,\"model\":\"iwan\",\"units\":{\"q\":\"mm\",\"Q\":\"N\"},"
        "\"segalman\":{\"F_S\":300,\"K_T\":400,\"chi\":-0.5,\"beta\":0.2,\"N\":64}}",
    };
    for (int i = 0; i < 2; i++) {
        hy_model m, m2;
        hy_err err;
        assert_int_equal(hy_model_parse(docs[i], "iwan.json", &m, &err), HY_OK);
        assert_string_equal(hy_model_family(&m), "iwan");
        char *t1 = hy_model_print(&m, &err);
        assert_int_equal(hy_model_parse(t1, "again", &m2, &err), HY_OK);
        char *t2 = hy_model_print(&m2, &err);
        assert_string_equal(t1, t2);
        assert_int_equal(hy_iwan_model_n(m.iwan), hy_iwan_model_n(m2.iwan));
        assert_true(memcmp(hy_iwan_model_f(m.iwan), hy_iwan_model_f(m2.iwan),
                           (size_t)hy_iwan_model_n(m.iwan) * sizeof(double)) == 0);
        free(t1);
        free(t2);
        hy_model_free(&m);
        hy_model_free(&m2);
    }
    static const struct { const char *keys, *want; } bad[] = {
        {"\"elements\":[[10,1],[-2,1]]", "bad.json: elements[1]: stiffness -2 is outside its range"},
        {"\"elements\":[[10,1],[2,0]]", "bad.json: elements[1]: slip force 0 is outside its range"},
        {"\"elements\":[[10,1],[2]]", "bad.json: elements[1]: expected [k, f_slip]"},
        {"\"elements\":[]", "bad.json: elements: 0 elements"},
        {"\"elements\":[[1,1]],\"k_inf\":-1", "bad.json: k_inf = -1 is outside its range"},
        {"\"k_inf\":1", "exactly one of"},
        {"\"elements\":[[1,1]],\"segalman\":{}", "exactly one of"},
        {"\"segalman\":{\"F_S\":1,\"K_T\":1,\"chi\":-1,\"beta\":0,\"N\":8}", "bad.json: segalman.chi = -1 is outside"},
        {"\"segalman\":{\"F_S\":1,\"K_T\":1,\"chi\":0,\"beta\":0,\"N\":1.5}", "bad.json: segalman.N = 1.5 is outside"},
        {"\"segalman\":{\"F_S\":0,\"K_T\":1,\"chi\":0,\"beta\":0,\"N\":8}", "segalman.F_S = 0 is outside"},
        {"\"segalman\":{\"F_S\":1,\"K_T\":1,\"chi\":0,\"beta\":-1,\"N\":8}", "segalman.beta = -1 is outside"},
        {"\"segalman\":{\"F_S\":1,\"chi\":0,\"beta\":0,\"N\":8}", "bad.json: segalman.K_T: missing"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        hy_model m;
        hy_err err;
        snprintf(text, sizeof text, "{\"format\":\"hyst-model\",\"version\":1,\"model\":\"iwan\",%s}", bad[i].keys);
        assert_int_not_equal(hy_model_parse(text, "bad.json", &m, &err), HY_OK);
        if (!strstr(err.msg, bad[i].want))
            fail_msg("case %zu: got '%s', want '%s'", i, err.msg, bad[i].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(backbone_and_masing_unloading),
        cmocka_unit_test(energy_per_cycle_closed_form),
        cmocka_unit_test(segalman_discretisation_converges),
        cmocka_unit_test(trial_commit_revert),
        cmocka_unit_test(model_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

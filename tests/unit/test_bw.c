// Bouc-Wen family (bw_*.c): the element against an independent fine time-domain RK4 of the classical ODE,
// trial/commit/revert, energy per closed loop, model files (round trip, range errors naming file and key).
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/bw.h"
#include "hyst/model.h"

/* Independent reference: classic RK4 in TIME on (z, e) for u(t) = a sin(w t), with the right-hand side written
 * straight from the textbook form dz/dt = udot [A(e) - nu(e) |z|^n (beta sgn(udot z) + gamma)] / eta(e),
 * de/dt = (1 - alpha) k z udot. It shares no code with bw_integrate.c (no q-domain, no reflection, no exact
 * scheme, no crossing location). */
static void ref_rhs(const hy_bw_params *p, double udot, double z, double e, double *dz, double *de)
{
    double A = p->A - p->delta_A * e, nu = 1 + p->delta_nu * e, eta = 1 + p->delta_eta * e;
    double sg = udot * z > 0 ? 1 : udot * z < 0 ? -1 : 0;
    double h = 1; /* Foliente's pinching function, written from Foliente (1995) eq. as in docs/bw-model.md */
    if (p->zeta_s > 0) {
        double zu = pow(p->A / (nu * (p->beta + p->gamma)), 1 / p->n);
        double zeta1 = p->zeta_s * (1 - exp(-p->pinch_p * e));
        double zeta2 = (p->psi + p->delta_psi * e) * (p->lambda + zeta1);
        double su = udot > 0 ? 1 : udot < 0 ? -1 : 0;
        h = 1 - zeta1 * exp(-pow(z * su - p->pinch_q * zu, 2) / pow(zeta2, 2));
    }
    *dz = h * udot * (A - nu * pow(fabs(z), p->n) * (p->beta * sg + p->gamma)) / eta;
    *de = (1 - p->alpha) * p->k * z * udot;
}

/* (params, amplitude list, samples per cycle, substeps per sample) => Q at every sample of the sine cycles */
static size_t reference(const hy_bw_params *p, const double *amp, int n_amp, int per, int sub, double *q,
                        double *Q)
{
    double z = 0, e = 0, w = 2 * M_PI;
    size_t k = 0;
    q[k] = 0;
    Q[k++] = 0;
    for (int c = 0; c < n_amp; c++) {
        double a = amp[c], dt = 1.0 / per, h = dt / sub;
        for (int i = 0; i < per; i++) {
            for (int j = 0; j < sub; j++) {
                double t = i * dt + j * h;
                double u1 = a * w * cos(w * t), u2 = a * w * cos(w * (t + h / 2)), u4 = a * w * cos(w * (t + h));
                double k1, l1, k2, l2, k3, l3, k4, l4;
                ref_rhs(p, u1, z, e, &k1, &l1);
                ref_rhs(p, u2, z + h / 2 * k1, e + h / 2 * l1, &k2, &l2);
                ref_rhs(p, u2, z + h / 2 * k2, e + h / 2 * l2, &k3, &l3);
                ref_rhs(p, u4, z + h * k3, e + h * l3, &k4, &l4);
                z += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
                e += h / 6 * (l1 + 2 * l2 + 2 * l3 + l4);
            }
            /* samples at t = (i+1)/per: the peaks (i+1 = per/4, 3 per/4) are samples, so the sampled path
               reverses exactly where the continuous one does */
            double qq = a * sin(w * (i + 1) * dt);
            if ((i + 1) % (per / 4) == 0)
                qq = (i + 1) == per / 4 ? a : (i + 1) == 3 * per / 4 ? -a : 0.0;
            q[k] = qq;
            Q[k++] = p->alpha * p->k * qq + (1 - p->alpha) * p->k * z;
        }
    }
    return k;
}

/* (params) => max |Q_element - Q_reference| / max |Q| over three growing sine cycles */
static double compare(const hy_bw_params *p, int sub)
{
    const double amp[] = {0.6, 1.5, 3.0};
    enum { PER = 400, N = 3 * PER + 1 };
    static double q[N], Qr[N], Qe[N];
    size_t n = reference(p, amp, 3, PER, sub, q, Qr);
    assert_int_equal(n, N);
    hy_bw_model *m;
    hy_err err;
    assert_int_equal(hy_bw_model_new(p, &m, &err), HY_OK);
    hy_bw_state st;
    hy_bw_state_init(&st, m, 0.0);
    hy_element e;
    hy_bw_element_wrap(&st, &e);
    size_t done;
    hy_diag d;
    assert_int_equal(hy_element_drive(&e, 0.0, NULL, q, n, Qe, NULL, &done, &d), HY_OK);
    double err_max = 0, Qmax = 0;
    for (size_t i = 0; i < n; i++) {
        err_max = fmax(err_max, fabs(Qe[i] - Qr[i]));
        Qmax = fmax(Qmax, fabs(Qr[i]));
    }
    hy_bw_model_free(m);
    return err_max / Qmax;
}

static void exact_scheme_matches_fine_rk(void **state)
{
    (void)state;
    hy_bw_params p = {.k = 200, .alpha = 0.1, .A = 1, .beta = 0.6, .gamma = 0.4, .n = 1};
    double r = compare(&p, 400);
    printf("# n = 1 exact scheme vs fine RK4: max rel error %.3g\n", r);
    assert_true(r < 1e-9);
    p.gamma = -0.3; /* softening unloading (gamma < 0): c2 = beta - gamma > beta */
    assert_true(compare(&p, 400) < 1e-9);
    p.gamma = 0.6; /* gamma = beta: linear unloading until z = 0 */
    assert_true(compare(&p, 400) < 1e-9);
}

static void substep_rk4_matches_fine_rk_with_degradation(void **state)
{
    (void)state;
    hy_bw_params p = {.k = 50, .alpha = 0.05, .A = 1, .beta = 0.5, .gamma = 0.2, .n = 2,
                      .delta_A = 0.002, .delta_nu = 0.01, .delta_eta = 0.01};
    double r = compare(&p, 400);
    printf("# n = 2 with degradation, RK4 sub-steps vs fine RK4: max rel error %.3g\n", r);
    assert_true(r < 1e-9);
    p.n = 1.0; /* n = 1 with degradation: the kink at z = 0 is located */
    r = compare(&p, 400);
    printf("# n = 1 with degradation: max rel error %.3g\n", r);
    assert_true(r < 1e-9);
    p.n = 1.7; /* the pow path */
    p.delta_A = p.delta_nu = p.delta_eta = 0;
    r = compare(&p, 400);
    printf("# n = 1.7: max rel error %.3g\n", r);
    assert_true(r < 1e-9);
}

/* Baber-Noori degradation with Foliente's pinching (the BWBN model): the q-domain RK4 with the pinched
 * region's sub-step against the time-domain reference */
static void pinching_matches_fine_rk(void **state)
{
    (void)state;
    hy_bw_params p = {.k = 50, .alpha = 0.05, .A = 1, .beta = 0.5, .gamma = 0.2, .n = 1.5, .delta_nu = 0.005,
                      .delta_eta = 0.005, .zeta_s = 0.8, .pinch_p = 0.05, .pinch_q = 0.1, .psi = 0.3,
                      .delta_psi = 0.001, .lambda = 0.5};
    double r = compare(&p, 400);
    printf("# BWBN (n = 1.5, degradation, pinching) vs fine RK4: max rel error %.3g\n", r);
    assert_true(r < 1e-8);
    p.n = 1;
    p.delta_A = 0.001;
    r = compare(&p, 400);
    printf("# BWBN n = 1 with delta_A: max rel error %.3g\n", r);
    assert_true(r < 1e-8);
    /* the pinching is visible: the same model without it differs by far more than the tolerance */
    hy_bw_params np = p;
    np.zeta_s = 0;
    double q[4] = {0, 3, -3, 0}, Q1[4], Q2[4];
    hy_bw_model *m1, *m2;
    hy_err err;
    assert_int_equal(hy_bw_model_new(&p, &m1, &err), HY_OK);
    assert_int_equal(hy_bw_model_new(&np, &m2, &err), HY_OK);
    hy_bw_state s1, s2;
    hy_element e1, e2;
    hy_bw_state_init(&s1, m1, 0);
    hy_bw_state_init(&s2, m2, 0);
    hy_bw_element_wrap(&s1, &e1);
    hy_bw_element_wrap(&s2, &e2);
    size_t done;
    hy_diag d;
    assert_int_equal(hy_element_drive(&e1, 0.0, NULL, q, 4, Q1, NULL, &done, &d), HY_OK);
    assert_int_equal(hy_element_drive(&e2, 0.0, NULL, q, 4, Q2, NULL, &done, &d), HY_OK);
    assert_true(fabs(Q1[3] - Q2[3]) > 0.01 * fabs(Q2[1]));
    hy_bw_model_free(m1);
    hy_bw_model_free(m2);
}

static void trial_never_changes_the_committed_state(void **state)
{
    (void)state;
    hy_bw_params p = {.k = 10, .alpha = 0.2, .A = 1, .beta = 0.5, .gamma = 0.5, .n = 2, .delta_nu = 0.1};
    hy_bw_model *m;
    assert_int_equal(hy_bw_model_new(&p, &m, NULL), HY_OK);
    hy_element e;
    assert_int_equal(hy_model_element(&(hy_model){.type = HY_MODEL_BW, .bw = m}, &e, NULL), HY_OK);
    double Q1, Q2, K1, K2, Q3;
    assert_int_equal(hy_element_trial(&e, 1.3, 1, &Q1, &K1, NULL), HY_OK);
    assert_int_equal(hy_element_trial(&e, -0.7, -1, &Q2, &K2, NULL), HY_OK);
    assert_int_equal(hy_element_trial(&e, 1.3, 1, &Q3, &K2, NULL), HY_OK);
    assert_true(Q1 == Q3);
    hy_element_revert(&e);
    assert_int_equal(hy_element_trial(&e, 1.3, 1, &Q3, &K2, NULL), HY_OK);
    assert_true(Q1 == Q3);
    hy_element_commit(&e);
    /* committed at 1.3: the tangent on the plateau is near alpha k; reloading from there is continuous */
    assert_int_equal(hy_element_trial(&e, 1.3, 0, &Q3, &K2, NULL), HY_OK);
    assert_true(Q3 == Q1);
    /* the tangent is dQ/dq: compare with a centred difference of two trials */
    double Qa, Qb, h = 1e-6;
    assert_int_equal(hy_element_trial(&e, 1.3 + h, 1, &Qa, NULL, NULL), HY_OK);
    assert_int_equal(hy_element_trial(&e, 1.3 + 2 * h, 1, &Qb, &K1, NULL), HY_OK);
    assert_true(fabs((Qb - Qa) / h - K1) < 1e-4 * fabs(K1) + 1e-9);
    hy_element_free(&e);
    hy_bw_model_free(m);
}

/* Energy of every closed symmetric loop is >= 0 and equals the reference's loop integral. */
static void energy_per_closed_loop_is_positive(void **state)
{
    (void)state;
    const double betas[] = {0.3, 0.9}, gams[] = {-0.25, 0.0, 0.3}, ns[] = {1, 2, 3.5};
    for (int b = 0; b < 2; b++)
        for (int g = 0; g < 3; g++)
            for (int k = 0; k < 3; k++) {
                hy_bw_params p = {.k = 100, .alpha = 0.1, .A = 1, .beta = betas[b], .gamma = gams[g], .n = ns[k]};
                hy_bw_model *m;
                assert_int_equal(hy_bw_model_new(&p, &m, NULL), HY_OK);
                hy_bw_state st;
                hy_bw_state_init(&st, m, 0.0);
                hy_element e;
                hy_bw_element_wrap(&st, &e);
                for (int cyc = 0; cyc < 3; cyc++) {
                    double W = 0, qp = 0, Qp = 0, Q;
                    if (cyc == 0) {
                        for (int i = 1; i <= 100; i++) { /* virgin loading to the amplitude */
                            assert_int_equal(hy_element_trial(&e, 2.0 * i / 100, 1, &Q, NULL, NULL), HY_OK);
                            hy_element_commit(&e);
                        }
                    }
                    qp = 2.0;
                    hy_element_trial(&e, qp, 0, &Qp, NULL, NULL);
                    for (int i = 1; i <= 400; i++) {
                        double q = 2.0 * cos(2 * M_PI * i / 400);
                        assert_int_equal(hy_element_trial(&e, q, 0, &Q, NULL, NULL), HY_OK);
                        hy_element_commit(&e);
                        W += 0.5 * (Q + Qp) * (q - qp);
                        qp = q;
                        Qp = Q;
                    }
                    assert_true(W > 0);
                }
                hy_bw_model_free(m);
            }
}

static void model_file_round_trip_and_range_errors(void **state)
{
    (void)state;
    const char *doc = "{\"format\":\"hyst-model\",\"version\":1,\"model\":\"bw\",\"units\":{\"q\":\"mm\",\"Q\":\"N\"},"
                      "\"k\":200.5,\"alpha\":0.1,\"A\":1,\"beta\":0.6,\"gamma\":0.30000000000000004,\"n\":2,"
                      "\"delta_nu\":0.01,\"note\":\"kept\"}";
    hy_model m, m2;
    hy_err err;
    assert_int_equal(hy_model_parse(doc, "bw.json", &m, &err), HY_OK);
    assert_int_equal(m.type, HY_MODEL_BW);
    assert_string_equal(hy_model_family(&m), "bw");
    char *t1 = hy_model_print(&m, &err);
    assert_non_null(strstr(t1, "\"note\""));
    assert_int_equal(hy_model_parse(t1, "again", &m2, &err), HY_OK);
    char *t2 = hy_model_print(&m2, &err);
    assert_string_equal(t1, t2);
    assert_true(memcmp(hy_bw_model_params(m.bw), hy_bw_model_params(m2.bw), sizeof(hy_bw_params)) == 0);
    hy_model cp;
    assert_int_equal(hy_model_copy(&m, &cp, &err), HY_OK);
    assert_true(hy_bw_model_params(cp.bw)->gamma == 0.1 + 0.2);
    hy_model_free(&cp);
    free(t1);
    free(t2);
    hy_model_free(&m);
    hy_model_free(&m2);

    /* a pinching model: the keys written after "pinching": true, read back to the same parameters */
    const char *pdoc = "{\"format\":\"hyst-model\",\"version\":1,\"model\":\"bw\",\"k\":2,\"alpha\":0.1,"
                       "\"beta\":0.6,\"gamma\":0.3,\"n\":1,\"pinching\":true,\"zeta_s\":0.7,\"pinch_p\":0.2,"
                       "\"pinch_q\":0.1,\"psi\":0.4,\"lambda\":0.5}";
    assert_int_equal(hy_model_parse(pdoc, "p.json", &m, &err), HY_OK);
    assert_int_equal(hy_model_nparams(&m), 9);
    t1 = hy_model_print(&m, &err);
    assert_non_null(strstr(t1, "\"pinching\""));
    assert_int_equal(hy_model_parse(t1, "again", &m2, &err), HY_OK);
    assert_true(memcmp(hy_bw_model_params(m.bw), hy_bw_model_params(m2.bw), sizeof(hy_bw_params)) == 0);
    assert_true(hy_bw_model_params(m2.bw)->zeta_s == 0.7 && hy_bw_model_params(m2.bw)->lambda == 0.5);
    free(t1);
    hy_model_free(&m);
    hy_model_free(&m2);

    static const struct { const char *keys, *want; } bad[] = {
        {"\"k\":-1,\"alpha\":0.1,\"beta\":1,\"gamma\":0,\"n\":1", "bad.json: k = -1 is outside its range"},
        {"\"k\":1,\"alpha\":1,\"beta\":1,\"gamma\":0,\"n\":1", "bad.json: alpha = 1 is outside its range (0 <= alpha < 1)"},
        {"\"k\":1,\"alpha\":0,\"beta\":1,\"gamma\":-1,\"n\":1", "bad.json: gamma = -1 is outside its range (-beta < gamma <= beta)"},
        {"\"k\":1,\"alpha\":0,\"beta\":1,\"gamma\":1.5,\"n\":1", "gamma = 1.5 is outside"},
        {"\"k\":1,\"alpha\":0,\"beta\":1,\"gamma\":0,\"n\":0.5", "bad.json: n = 0.5 is outside its range (1 <= n <= 20)"},
        {"\"k\":1,\"alpha\":0,\"beta\":0,\"gamma\":0,\"n\":1", "beta = 0 is outside"},
        {"\"k\":1,\"alpha\":0,\"beta\":1,\"gamma\":0,\"n\":1,\"A\":0", "A = 0 is outside"},
        {"\"k\":1,\"alpha\":0,\"beta\":1,\"gamma\":0,\"n\":1,\"delta_eta\":-0.1", "delta_eta = -0.1 is outside"},
        {"\"k\":1,\"alpha\":0,\"beta\":1,\"gamma\":0", "bad.json: \"n\": missing"},
        {"\"k\":\"1\",\"alpha\":0,\"beta\":1,\"gamma\":0,\"n\":1", "bad.json: k: expected a finite number"},
        {"\"k\":1,\"alpha\":0,\"beta\":1,\"gamma\":0,\"n\":1,\"pinching\":true", "bad.json: \"zeta_s\": missing"},
        {"\"k\":1,\"alpha\":0,\"beta\":1,\"gamma\":0,\"n\":1,\"pinching\":1", "pinching: expected true or false"},
        {"\"k\":1,\"alpha\":0,\"beta\":1,\"gamma\":0,\"n\":1,\"pinching\":true,\"zeta_s\":1,\"psi\":1,\"lambda\":1",
         "bad.json: zeta_s = 1 is outside its range (0 <= zeta_s < 1)"},
        {"\"k\":1,\"alpha\":0,\"beta\":1,\"gamma\":0,\"n\":1,\"pinching\":true,\"zeta_s\":0.5,\"psi\":0,\"lambda\":1",
         "bad.json: psi = 0 is outside its range"},
        {"\"k\":1,\"alpha\":0,\"beta\":1,\"gamma\":0,\"n\":1,\"pinching\":true,\"zeta_s\":0.5,\"psi\":1,\"lambda\":1,"
         "\"pinch_q\":1.2", "bad.json: pinch_q = 1.2 is outside its range (0 <= pinch_q < 1)"},
        {"\"k\":1,\"alpha\":0,\"beta\":1,\"gamma\":0,\"n\":1,\"pinching\":false,\"zeta_s\":0.5",
         "pinching: false with zeta_s = 0.5"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "{\"format\":\"hyst-model\",\"version\":1,\"model\":\"bw\",%s}", bad[i].keys);
        assert_int_not_equal(hy_model_parse(text, "bad.json", &m, &err), HY_OK);
        if (!strstr(err.msg, bad[i].want))
            fail_msg("case %zu: got '%s', want '%s'", i, err.msg, bad[i].want);
        assert_int_equal(m.type, HY_MODEL_NONE);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exact_scheme_matches_fine_rk),
        cmocka_unit_test(substep_rk4_matches_fine_rk_with_degradation),
        cmocka_unit_test(pinching_matches_fine_rk),
        cmocka_unit_test(trial_never_changes_the_committed_state),
        cmocka_unit_test(energy_per_closed_loop_is_positive),
        cmocka_unit_test(model_file_round_trip_and_range_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

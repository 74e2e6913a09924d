// NLLS layer and the bw / iwan fits (fit_nlls.c, fit_family.c): the solver against closed forms (a linear model's
// OLS estimate and standard errors), noise-free recovery of Bouc-Wen, Iwan and peak-oriented parameters, the bootstrap's
// too-few-cycles error, the energy-outlier ordering.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/bw.h"
#include "hyst/clough.h"
#include "hyst/famfit.h"
#include "hyst/iwan.h"
#include "hyst/noise.h"

#define NL 50
static double xs[NL], ys[NL];

static int lin(const double *t, double *r, void *ctx)
{
    (void)ctx;
    for (int i = 0; i < NL; i++)
        r[i] = t[0] + t[1] * xs[i] - ys[i];
    return HY_OK;
}

/* On a linear model the solver must land on the OLS solution and give its textbook standard errors. */
static void nlls_matches_ols(void **state)
{
    (void)state;
    hy_rng g;
    hy_rng_seed(&g, 5, 0);
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < NL; i++) {
        xs[i] = i * 0.1;
        ys[i] = 2.0 - 0.7 * xs[i] + 0.05 * hy_rng_normal(&g);
        sx += xs[i];
        sy += ys[i];
        sxx += xs[i] * xs[i];
        sxy += xs[i] * ys[i];
    }
    double det = NL * sxx - sx * sx, b = (NL * sxy - sx * sy) / det, a = (sy - b * sx) / NL, rss = 0;
    for (int i = 0; i < NL; i++)
        rss += (a + b * xs[i] - ys[i]) * (a + b * xs[i] - ys[i]);
    double s2 = rss / (NL - 2), se_a = sqrt(s2 * sxx / det), se_b = sqrt(s2 * NL / det);
    hy_nlls_result R;
    double t0[2] = {0, 0};
    assert_int_equal(hy_nlls_solve(NL, 2, lin, NULL, t0, 100, &R, NULL), HY_OK);
    assert_true(R.converged);
    assert_true(fabs(R.theta[0] - a) < 1e-7 && fabs(R.theta[1] - b) < 1e-7);
    assert_true(fabs(R.cost - rss) < 1e-9 * rss);
    printf("# se(a) %.6g vs OLS %.6g, se(b) %.6g vs %.6g\n", sqrt(R.cov[0]), se_a, sqrt(R.cov[3]), se_b);
    assert_true(fabs(sqrt(R.cov[0]) - se_a) < 1e-4 * se_a);
    assert_true(fabs(sqrt(R.cov[3]) - se_b) < 1e-4 * se_b);
}

/* (model, amplitude list) => triangle record q, Q (noise-free) */
static size_t record(const hy_model *m, double *q, double *Q, size_t per)
{
    static const double amp[] = {1, 2, 3, 3, 4};
    hy_element e;
    assert_int_equal(hy_model_element(m, &e, NULL), HY_OK);
    size_t k = 0;
    for (int c = 0; c < 5; c++)
        for (size_t i = 0; i < per; i++) {
            double f = (double)(i + 1) / (double)per;
            q[k] = amp[c] * (f < 0.25 ? 4 * f : f < 0.75 ? 2 - 4 * f : 4 * f - 4);
            assert_int_equal(hy_element_trial(&e, q[k], 0, &Q[k], NULL, NULL), HY_OK);
            hy_element_commit(&e);
            k++;
        }
    hy_element_free(&e);
    return k;
}

static void noise_free_recovery(void **state)
{
    (void)state;
    enum { PER = 200, N = 5 * PER };
    static double q[N], Q[N];
    hy_bw_params p = {.k = 150, .alpha = 0.08, .A = 1, .beta = 0.7, .gamma = 0.2, .n = 1};
    hy_model m = {.type = HY_MODEL_BW};
    assert_int_equal(hy_bw_model_new(&p, &m.bw, NULL), HY_OK);
    size_t n = record(&m, q, Q, PER);
    hy_famfit_opts o;
    hy_famfit_opts_default(&o);
    o.bw_n = 1;
    hy_famfit_result r;
    hy_err err;
    assert_int_equal(hy_famfit_run(q, Q, n, &o, &r, &err), HY_OK);
    const double want[] = {150, 0.08, 0.7, 0.2};
    for (int i = 0; i < 4; i++)
        if (fabs(r.value[i] - want[i]) > 1e-5 * fabs(want[i]))
            fail_msg("%s = %.10g, true %g", r.name[i], r.value[i], want[i]);
    assert_true(r.metrics.nrmse < 1e-7);
    hy_famfit_result_free(&r);
    hy_model_free(&m);

    hy_iwan_segalman s = {.F_S = 300, .K_T = 400, .chi = -0.4, .beta = 0.3, .N = 32};
    m = (hy_model){.type = HY_MODEL_IWAN};
    assert_int_equal(hy_iwan_model_segalman(&s, 15.0, &m.iwan, NULL), HY_OK);
    for (size_t i = 0; i < n; i++)
        q[i] *= 0.8;
    hy_element e;
    assert_int_equal(hy_model_element(&m, &e, NULL), HY_OK);
    for (size_t i = 0; i < n; i++) {
        hy_element_trial(&e, q[i], 0, &Q[i], NULL, NULL);
        hy_element_commit(&e);
    }
    hy_element_free(&e);
    o.family = HY_FAMFIT_IWAN;
    o.iwan_N = 32; /* the record's own discretisation: recovered exactly */
    assert_int_equal(hy_famfit_run(q, Q, n, &o, &r, &err), HY_OK);
    const double wi[] = {300, 400, -0.4, 0.3, 15};
    for (int i = 0; i < 5; i++)
        if (fabs(r.value[i] - wi[i]) > 1e-4 * fabs(wi[i]))
            fail_msg("%s = %.10g, true %g", r.name[i], r.value[i], wi[i]);
    hy_famfit_result_free(&r);
    hy_model_free(&m);

    /* the peak-oriented family (pinched): a record of its own law, recovered to the solver's step tolerance */
    hy_clough_params pc = {.k = 100, .F_y = 40, .alpha = 0.05, .kappa = 0.4};
    m = (hy_model){.type = HY_MODEL_CLOUGH};
    assert_int_equal(hy_clough_model_new(&pc, &m.clough, NULL), HY_OK);
    n = record(&m, q, Q, PER);
    o.family = HY_FAMFIT_CLOUGH;
    assert_int_equal(hy_famfit_run(q, Q, n, &o, &r, &err), HY_OK);
    const double wc[] = {100, 40, 0.05, 0.4};
    assert_int_equal(r.np, 4);
    for (int i = 0; i < 4; i++)
        if (fabs(r.value[i] - wc[i]) > 1e-6 * fabs(wc[i]))
            fail_msg("%s = %.10g, true %g", r.name[i], r.value[i], wc[i]);
    assert_true(r.metrics.nrmse < 1e-8);
    hy_famfit_result_free(&r);
    hy_model_free(&m);
}

/* The refusal of a record whose loops give no unloading stiffness names its half-cycles (it said "0 half-cycles"
 * whatever the record: the loops were freed before the message read them), and hy_record_check refuses the
 * classes of bad records (constant force or displacement, monotonic, a single reversal) before any fit */
static void refusals_name_what_the_record_has(void **state)
{
    (void)state;
    /* a long first loading, then small reversals (below a fifth of the range): no major unloading branch gives
       the elastic stiffness */
    const double qr[] = {0, 2, 4, 6, 8, 10, 9, 8.5, 9, 10, 9}, Qr[] = {0, 2, 4, 6, 8, 10, 9, 8.5, 9, 10, 9};
    hy_famfit_opts o;
    hy_famfit_opts_default(&o);
    hy_famfit_result r;
    hy_err err;
    hy_loops L;
    assert_int_equal(hy_loops_analyze(qr, Qr, 11, &o.loops, &L, &err), HY_OK);
    char want[64];
    snprintf(want, sizeof want, "no usable loop: %zu half-cycles", L.n_half);
    assert_true(L.n_half >= 3);
    hy_loops_free(&L);
    assert_int_equal(hy_famfit_run(qr, Qr, 11, &o, &r, &err), HY_EDATA);
    if (!strstr(err.msg, want))
        fail_msg("got '%s', want '%s'", err.msg, want);
    const double q[] = {0, 1, 2, 3, 2, 1, 0, -1}, Q[] = {0, 1, 2, 3, 2.5, 1, 0, -1};
    assert_int_equal(hy_famfit_run(q, Q, 8, &o, &r, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "single reversal (2 half-cycles)"));
    assert_int_equal(hy_record_check(q, Q, 8, &o.loops, 1, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "single reversal (2 half-cycles)"));
    assert_int_equal(hy_record_check(q, Q, 8, &o.loops, 0, &err), HY_OK);  /* a replay may score it */
    const double c[] = {5, 5, 5, 5, 5, 5, 5, 5};
    assert_int_equal(hy_record_check(q, c, 8, &o.loops, 0, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "the force is constant (5 in all 8 rows)"));
    assert_int_equal(hy_record_check(c, Q, 8, &o.loops, 0, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "the displacement is constant"));
    assert_int_equal(hy_record_check(q, Q, 4, &o.loops, 1, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "monotonic"));
    const double q2[] = {0, 1, 2, 1, 0, -1, -2, -1, 0, 1, 2}, Q2[] = {0, 1, 2, 1, 0, -1, -2, -1, 0, 1, 2};
    assert_int_equal(hy_record_check(q2, Q2, 11, &o.loops, 1, &err), HY_OK);
}

/* hy_block_length against the closed form for an AR(1) series x_i = phi x_(i-1) + e_i: R(k) = g0 phi^|k|, so
 * G = g0 2 phi / (1 - phi)^2, D = (4/3) g0^2 ((1 + phi) / (1 - phi))^2 and Politis & White's optimal block length
 * b = (2 G^2 / D)^(1/3) n^(1/3) = (6 phi^2 / (1 - phi^2)^2)^(1/3) n^(1/3). The estimate from one series scatters
 * around it (the lag-window estimates of G and D): 116..180 over the seeds 1, 2, 3, 7, 11, 42 against 139 for
 * 20 000 samples, so the test allows 40 %. Uncorrelated noise: 1. */
static void block_length_matches_ar1(void **state)
{
    (void)state;
    enum { N = 20000 };
    static double x[N];
    hy_rng rng;
    hy_rng_seed(&rng, 42, 5);
    for (size_t i = 0; i < N; i++)
        x[i] = hy_rng_normal(&rng);
    size_t b_iid = hy_block_length(x, N);
    const double phi = 0.9;
    for (size_t i = 1; i < N; i++)
        x[i] = phi * x[i - 1] + x[i];
    double want = cbrt(6 * phi * phi / ((1 - phi * phi) * (1 - phi * phi))) * cbrt((double)N);
    size_t b = hy_block_length(x, N);
    printf("# block length: white noise %zu; AR(1) phi 0.9 %zu, closed form %.1f\n", b_iid, b, want);
    assert_true(b_iid <= 2);
    assert_true(fabs((double)b - want) <= 0.4 * want);
}

static void bootstrap_needs_cycles(void **state)
{
    (void)state;
    hy_famfit_result fit;
    memset(&fit, 0, sizeof fit);
    hy_replay_cycle cyc[3];
    memset(cyc, 0, sizeof cyc);
    fit.metrics.n_cyc = 3;
    fit.metrics.cyc = cyc;
    hy_famfit_opts o;
    hy_famfit_opts_default(&o);
    hy_famfit_boot B;
    hy_err err;
    double q[4] = {0}, Q[4] = {0};
    assert_int_equal(hy_famfit_bootstrap(q, Q, 4, &o, &fit, 10, 1, &B, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "needs at least 4; the record has 3"));
}

static void energy_outliers_worst_first(void **state)
{
    (void)state;
    hy_replay_cycle c[6];
    memset(c, 0, sizeof c);
    const double ratio[6] = {1.05, 0.5, 1.3, NAN, 0.95, 2.0};
    for (int i = 0; i < 6; i++)
        c[i].energy_ratio = ratio[i];
    hy_replay_metrics M = {.n_cyc = 6, .cyc = c};
    size_t w[2];
    assert_int_equal(hy_energy_outliers(&M, 0.1, w, 2), 3);
    assert_int_equal(w[0], 5);
    assert_int_equal(w[1], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nlls_matches_ols),
        cmocka_unit_test(noise_free_recovery),
        cmocka_unit_test(refusals_name_what_the_record_has),
        cmocka_unit_test(block_length_matches_ar1),
        cmocka_unit_test(bootstrap_needs_cycles),
        cmocka_unit_test(energy_outliers_worst_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

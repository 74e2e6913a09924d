/* The whole kinematic-ODE identification: selection by the integrated-trajectory error on data from a known small
 * law, the paper's law with noise (integrated loop energy against spec 002 §6.2 B), refinement, the two-set
 * rule, errors on unusable data, and the report. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <cjson/cJSON.h>
#include "hyst/kinfit.h"
#include "kinfit_testdata.h"

#define CAP 20000
static double q[CAP], f[CAP];
static int s[CAP];
static hy_kinfit_result R;

/* spec 002 §6.2 B, steady loop of the reduced law at A = 0.45: W = 40.560 J */
#define W_PAPER_045 40.560

static const double history[] = {0.0, 0.45, -0.45, 0.45, -0.45, 0.2, -0.1, 0.3, -0.3, 0.45};
#define NHIST ((int)(sizeof history / sizeof history[0]))

static size_t paper_record(double noise, uint64_t seed)
{
    hy_kin_coeffs C;
    td_paper_coeffs(&C);
    size_t n = td_record(&C, history, NHIST, 0.0, 0.45 / 300, 8, q, f, s, CAP);
    td_rng rng = {seed};
    for (size_t i = 0; i < n; i++)
        f[i] += noise * td_normal(&rng);
    return n;
}

static int terms(const hy_kinfit_result *r)
{
    return __builtin_popcountll(r->mask_load) + __builtin_popcountll(r->mask_unload);
}

/* A known small law, R = 500 + 800 q + (-20 - 5 q) f (k = m = 2, attracting on |q| <= 0.5): the selection over all
 * (k, m) <= 8 must come back with at most its 4 terms and reproduce the record. */
static void selection_picks_a_small_model(void **state)
{
    (void)state;
    hy_kin_coeffs C;
    memset(&C, 0, sizeof C);
    C.k = C.m = 2;
    C.C[0][0] = 500.0;
    C.C[1][0] = 800.0;
    C.C[0][1] = -20.0;
    C.C[1][1] = -5.0;
    const double tp[] = {0.0, 0.5, -0.5, 0.5, -0.5, 0.15, -0.25, 0.35, -0.5};
    size_t n = td_record(&C, tp, 9, 0.0, 0.5 / 250, 8, q, f, s, CAP);
    hy_kinfit_opts o;
    hy_kinfit_opts_default(&o);
    hy_err err;
    assert_int_equal(hy_kinfit_run(q, f, n, &o, &R, &err), HY_OK);
    assert_int_equal(R.n_cand, 64);
    assert_true(R.k_sel * R.m_sel <= 4);
    assert_true(terms(&R) <= 4);
    assert_true(R.score.nrmse < 2e-3);
    assert_true(R.checks.attract_ok);
    /* a larger model scored no better than the accepted one by more than the selection tolerance */
    double best = INFINITY;
    for (size_t i = 0; i < R.n_cand; i++)
        if (R.cand[i].status == HY_KINFIT_CAND_OK)
            best = fmin(best, R.cand[i].score.nrmse);
    assert_true(R.score_selected.nrmse <= fmax(best * (1 + o.select_tol), best + o.select_abs) * (1 + 1e-12));
    assert_int_equal(R.n_warnings, 0);
}

/* The paper's law with exact (noise-free) samples: the selection reproduces the record to the smoother's accuracy
 * and the steady loop matches the reference energy of spec 002 §6.2 B. */
static void paper_law_without_noise(void **state)
{
    (void)state;
    size_t n = paper_record(0.0, 1);
    hy_kinfit_opts o;
    hy_kinfit_opts_default(&o);
    assert_int_equal(hy_kinfit_run(q, f, n, &o, &R, NULL), HY_OK);
    assert_true(R.score.nrmse < 2e-3);
    assert_true(R.checks.attract_ok);
    assert_true(R.checks.range.ok);
    assert_true(fabs(R.checks.q_min + 0.45) < 1e-12 && fabs(R.checks.q_max - 0.45) < 1e-12);
    assert_true(fabs(R.checks.range.energy - W_PAPER_045) < 0.01 * W_PAPER_045);
    assert_true(R.checks.range.closure < 1e-6);
}

/* spec 002 §6.2 B "Full pipeline" and issue 5: with force noise the coefficients may wander, but the integrated
 * loop energy stays within 5 % of the true law's and the fitted law stays attracting - for the selected model and
 * for the paper's (6, 2), over several noise levels and seeds. */
static void paper_law_with_noise_keeps_loop_energy(void **state)
{
    (void)state;
    /* (noise, seed, k = m = 0: full selection / 6 x 2 fixed / selection up to 6 x 4) */
    const struct { double noise; uint64_t seed; int k, m, max_k, max_m; } run[] = {
        {0.5, 11, 6, 2, 8, 8}, {1.0, 12, 6, 2, 8, 8}, {2.0, 13, 6, 2, 8, 8}, {2.0, 14, 6, 2, 8, 8},
        {1.0, 15, 0, 0, 8, 8}, {2.0, 16, 0, 0, 6, 4}, {0.5, 17, 0, 0, 6, 4},
    };
    for (size_t a = 0; a < sizeof run / sizeof run[0]; a++) {
        size_t n = paper_record(run[a].noise, run[a].seed * 7919);
        hy_kinfit_opts o;
        hy_kinfit_opts_default(&o);
        o.k = run[a].k;
        o.m = run[a].m;
        o.max_k = run[a].max_k;
        o.max_m = run[a].max_m;
        hy_err err;
        assert_int_equal(hy_kinfit_run(q, f, n, &o, &R, &err), HY_OK);
        double rel = fabs(R.checks.range.energy - W_PAPER_045) / W_PAPER_045;
        if (!(rel < 0.05) || !R.checks.attract_ok)
            fprintf(stderr, "run %zu: W = %g (%.3g %%), attract %d\n", a, R.checks.range.energy, 100 * rel,
                    R.checks.attract_ok);
        assert_true(rel < 0.05);
        assert_true(R.checks.attract_ok);
        assert_true(R.checks.range.ok);
        /* the error is at the noise level: RMS noise / peak-to-peak force ~ noise / 141 */
        assert_true(R.score.nrmse < 2.0 * run[a].noise / 141.0);
    }
}

/* Refinement (Levenberg-Marquardt on the integrated error) lowers the error of a model that Stage B alone leaves
 * short: (2, 2) on the paper's law, and keeps the law attracting. */
static void refinement_lowers_the_integrated_error(void **state)
{
    (void)state;
    size_t n = paper_record(1.0, 99);
    hy_kinfit_opts o;
    hy_kinfit_opts_default(&o);
    o.k = 2;
    o.m = 2;
    o.refine = 1;
    assert_int_equal(hy_kinfit_run(q, f, n, &o, &R, NULL), HY_OK);
    assert_true(R.refined);
    assert_true(R.refine_iter >= 1);
    assert_true(R.score.nrmse < 0.95 * R.score_pruned.nrmse);
    assert_true(R.checks.attract_ok);
    /* independent check of the refined score: integrate the refined law here with RK4 and compare */
    double err2 = 0, flo = INFINITY, fhi = -INFINITY, ff = f[0];
    for (size_t i = 0; i < n; i++) {
        flo = fmin(flo, f[i]);
        fhi = fmax(fhi, f[i]);
    }
    for (size_t i = 1; i < n; i++) {
        int dir = q[i] > q[i - 1] ? 1 : -1;
        double h = (q[i] - q[i - 1]) / 8;
        for (int u = 0; u < 8; u++) {
            double x = q[i - 1] + u * h;
            double k1 = td_R(&R.spec.load, dir, x, ff);
            double k2 = td_R(&R.spec.load, dir, x + h / 2, ff + h / 2 * k1);
            double k3 = td_R(&R.spec.load, dir, x + h / 2, ff + h / 2 * k2);
            double k4 = td_R(&R.spec.load, dir, x + h, ff + h * k3);
            ff += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
        }
        err2 += (ff - f[i]) * (ff - f[i]);
    }
    double nrmse = sqrt(err2 / (double)n) / (fhi - flo);
    assert_true(fabs(nrmse - R.score.nrmse) < 1e-3 * R.score.nrmse);
}

/* Two-set rule on the paper's (centrally symmetric) law: the unloading set mirrors the loading one, so its
 * attraction rate and the loop energy agree with the symmetric fit. */
static void two_set_rule(void **state)
{
    (void)state;
    size_t n = paper_record(0.0, 1);
    hy_kinfit_opts o;
    hy_kinfit_opts_default(&o);
    o.rule = HY_KIN_TWO_SET;
    o.k = 6;
    o.m = 2;
    assert_int_equal(hy_kinfit_run(q, f, n, &o, &R, NULL), HY_OK);
    assert_int_equal(R.spec.rule, HY_KIN_TWO_SET);
    assert_true(R.mask_unload != 0);
    assert_true(R.score.nrmse < 3e-3);
    assert_true(R.checks.attract_ok);
    assert_true(fabs(R.checks.range.energy - W_PAPER_045) < 0.02 * W_PAPER_045);
    /* c0 of the unloading set is minus c0 of the loading set (R_-(q, f) = R(-q, -f)) */
    assert_true(fabs(R.spec.unload.C[0][1] + R.spec.load.C[0][1]) < 0.1 * fabs(R.spec.load.C[0][1]));
}

static void unusable_data_is_refused(void **state)
{
    (void)state;
    hy_kinfit_opts o;
    hy_kinfit_opts_default(&o);
    hy_err err;
    double q3[3] = {0, 1, 2}, f3[3] = {0, 1, 2};
    assert_int_equal(hy_kinfit_run(q3, f3, 3, &o, &R, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "at least 4"));
    size_t n = paper_record(0.0, 1);
    for (size_t i = 0; i < n; i++)
        f[i] = 3.0;
    assert_int_equal(hy_kinfit_run(q, f, n, &o, &R, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "force is constant"));
    n = paper_record(0.0, 1);
    f[10] = NAN;
    assert_int_equal(hy_kinfit_run(q, f, n, &o, &R, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "sample 11"));
    /* a record with only tiny wiggles: no branch reaches the minimum span */
    for (size_t i = 0; i < 200; i++) {
        q[i] = (i % 2) ? 1e-3 : 0.0;
        q[i] += 0.002 * (double)(i == 100);
        f[i] = (double)i;
    }
    o.min_branch = 0.9;
    assert_int_equal(hy_kinfit_run(q, f, 200, &o, &R, &err), HY_EDATA);
    /* bad options */
    hy_kinfit_opts_default(&o);
    o.max_k = 9;
    n = paper_record(0.0, 1);
    assert_int_equal(hy_kinfit_run(q, f, n, &o, &R, &err), HY_EARG);
}

static void report_has_the_promised_keys(void **state)
{
    (void)state;
    size_t n = paper_record(0.5, 3);
    hy_kinfit_opts o;
    hy_kinfit_opts_default(&o);
    o.max_k = 6;
    o.max_m = 3;
    assert_int_equal(hy_kinfit_run(q, f, n, &o, &R, NULL), HY_OK);
    cJSON *j = hy_kinfit_report(&R, &o, "test");
    assert_non_null(j);
    const cJSON *ch = cJSON_GetObjectItem(j, "chosen");
    assert_int_equal(cJSON_GetObjectItem(ch, "k")->valueint, R.k_sel);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(ch, "terms")), terms(&R));
    const cJSON *b = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "stage_b"), "fit");
    assert_true(cJSON_IsNumber(cJSON_GetObjectItem(b, "condition_number")));
    assert_true(cJSON_IsNumber(cJSON_GetObjectItem(b, "effective_rank")));
    assert_true(cJSON_IsNumber(cJSON_GetObjectItem(b, "residual_rms")));
    const cJSON *cand = cJSON_GetObjectItem(j, "candidates");
    assert_int_equal(cJSON_GetArraySize(cand), 18);
    const cJSON *c0 = cJSON_GetArrayItem(cand, 0);
    assert_true(cJSON_IsNumber(cJSON_GetObjectItem(c0, "nrmse")) || cJSON_IsNull(cJSON_GetObjectItem(c0, "nrmse")));
    assert_non_null(cJSON_GetObjectItem(c0, "status"));
    const cJSON *ck = cJSON_GetObjectItem(j, "checks");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(ck, "attraction"), "ok")));
    const cJSON *lp = cJSON_GetObjectItem(ck, "steady_loop");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(lp, "positive_area")));
    assert_true(cJSON_GetObjectItem(lp, "closure")->valuedouble < 1e-3);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(ck, "q_range")), 2);
    const cJSON *in = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "integrated"), "final");
    assert_true(fabs(cJSON_GetObjectItem(in, "nrmse")->valuedouble - R.score.nrmse) < 1e-15);
    cJSON_Delete(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(selection_picks_a_small_model),
        cmocka_unit_test(paper_law_without_noise),
        cmocka_unit_test(paper_law_with_noise_keeps_loop_energy),
        cmocka_unit_test(refinement_lowers_the_integrated_error),
        cmocka_unit_test(two_set_rule),
        cmocka_unit_test(unusable_data_is_refused),
        cmocka_unit_test(report_has_the_promised_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

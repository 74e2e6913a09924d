// Coverage of the bootstrap intervals (fit_family.c, docs/fit-families.md "Confidence intervals"): synthetic Bouc-Wen
// records from known parameters with Gaussian force noise, each fitted and bootstrapped (block length from the
// residuals, percentile-t); the 90 % intervals must hold the true value in 90 +- 5 % of the records, for every
// parameter. The slow test of the suite (about a minute on one core): COVERAGE_RECORDS records x 100 refits.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/bw.h"
#include "hyst/famfit.h"
#include "hyst/noise.h"

#ifndef COVERAGE_RECORDS
#define COVERAGE_RECORDS 400 /* binomial standard error of a 90 % coverage: 1.5 points; the tolerance is 5 */
#endif
#define REPLICATES 100
#define PER 80

/* (model) => triangle cycles of amplitudes 1, 2, 3, 3, 4 (noise-free) */
static size_t record(const hy_model *m, double *q, double *Q)
{
    static const double amp[] = {1, 2, 3, 3, 4};
    hy_element e;
    assert_int_equal(hy_model_element(m, &e, NULL), HY_OK);
    size_t k = 0;
    for (int c = 0; c < 5; c++)
        for (size_t i = 0; i < PER; i++) {
            double f = (double)(i + 1) / (double)PER;
            q[k] = amp[c] * (f < 0.25 ? 4 * f : f < 0.75 ? 2 - 4 * f : 4 * f - 4);
            assert_int_equal(hy_element_trial(&e, q[k], 0, &Q[k], NULL, NULL), HY_OK);
            hy_element_commit(&e);
            k++;
        }
    hy_element_free(&e);
    return k;
}

static void bootstrap_intervals_cover(void **state)
{
    (void)state;
    enum { N = 5 * PER };
    static double q[N], Q0[N], Q[N];
    const hy_bw_params p = {.k = 150, .alpha = 0.08, .A = 1, .beta = 0.7, .gamma = 0.2, .n = 1};
    const double truth[4] = {150, 0.08, 0.7, 0.2};
    hy_model m = {.type = HY_MODEL_BW};
    assert_int_equal(hy_bw_model_new(&p, &m.bw, NULL), HY_OK);
    size_t n = record(&m, q, Q0);
    double peak = 0;
    for (size_t i = 0; i < n; i++)
        peak = fmax(peak, fabs(Q0[i]));
    hy_famfit_opts o;
    hy_famfit_opts_default(&o);
    o.bw_n = 1;
    o.starts = 1;
    int cov[4] = {0}, cov_se[4] = {0}, used = 0;
    size_t blocks = 0;
    for (int rec = 0; rec < COVERAGE_RECORDS; rec++) {
        hy_rng rng;
        hy_rng_seed(&rng, 1000 + (uint64_t)rec, 3);
        for (size_t i = 0; i < n; i++)
            Q[i] = Q0[i] + 0.01 * peak * hy_rng_normal(&rng);
        hy_famfit_result r;
        hy_err err;
        if (hy_famfit_run(q, Q, n, &o, &r, &err) != HY_OK)
            fail_msg("record %d: %s", rec, err.msg);
        hy_famfit_boot B;
        if (hy_famfit_bootstrap(q, Q, n, &o, &r, REPLICATES, 7 + (uint64_t)rec, &B, &err) != HY_OK)
            fail_msg("record %d: bootstrap: %s", rec, err.msg);
        for (int j = 0; j < 4; j++) {
            cov[j] += B.lo[j] <= truth[j] && truth[j] <= B.hi[j];
            cov_se[j] += fabs(r.value[j] - truth[j]) <= 1.6449 * r.se[j];
        }
        blocks += B.block_len;
        used++;
        hy_famfit_boot_free(&B);
        hy_famfit_result_free(&r);
    }
    hy_model_free(&m);
    printf("# %d records, %d refits each, mean block length %.2f samples\n", used, REPLICATES,
           (double)blocks / used);
    const char *names[4] = {"k", "alpha", "beta", "gamma"};
    int bad = 0;
    for (int j = 0; j < 4; j++) {
        double c = (double)cov[j] / used, cs = (double)cov_se[j] / used;
        printf("# %-5s: bootstrap percentile-t 90 %% intervals cover %.1f %%; standard-error intervals %.1f %%\n",
               names[j], 100 * c, 100 * cs);
        bad |= fabs(c - 0.90) > 0.05;
    }
    if (bad)
        fail_msg("a coverage is outside 0.90 +- 0.05 (above)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bootstrap_intervals_cover),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

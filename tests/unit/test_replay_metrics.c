// Replay metrics on hand-computed arrays, and the drawing decimation.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/replay.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* A rectangle loop in the q-Q plane: (0,1) -> (1,1) -> (1,-1) -> (0,-1) -> (0,1), enclosed area 2.
 * Predicted force differs at one sample: Q(1) = 1.5 instead of 1. By hand:
 *   errors 0, 0.5, 0, 0, 0: mean 0.1, RMS sqrt(0.25/5) = 0.2236..., peak-to-peak 2, NRMSE 0.1118...
 *   predicted energy: (1+1.5)/2*1 + 0 + (-1-1)/2*(-1) + 0 = 2.25; ratio 1.125. */
static const double q1[] = {0, 1, 1, 0, 0};
static const double Qm1[] = {1, 1, -1, -1, 1};
static const double Qp1[] = {1, 1.5, -1, -1, 1};

static void rectangle_by_hand(void **state)
{
    (void)state;
    hy_cycle c = {.i0 = 0, .i1 = 4};
    hy_replay_metrics M;
    hy_err err;
    assert_int_equal(hy_replay_metrics_compute(q1, Qm1, Qp1, 5, &c, 1, &M, &err), HY_OK);
    assert_int_equal(M.n, 5);
    NEAR(M.Q_ptp, 2.0, 0);
    NEAR(M.mean_error, 0.1, 1e-15);
    NEAR(M.rms_error, sqrt(0.05), 1e-15);
    NEAR(M.nrmse, sqrt(0.05) / 2.0, 1e-15);
    NEAR(M.max_abs_error, 0.5, 0);
    assert_int_equal(M.max_abs_index, 1);
    assert_int_equal(M.n_cyc, 1);
    NEAR(M.cyc[0].energy_measured, 2.0, 1e-15);
    NEAR(M.cyc[0].energy_model, 2.25, 1e-15);
    NEAR(M.cyc[0].energy_ratio, 1.125, 1e-15);
    NEAR(M.energy_measured, 2.0, 1e-15);
    NEAR(M.energy_model, 2.25, 1e-15);
    NEAR(M.energy_ratio, 1.125, 1e-15);
    NEAR(M.work_measured, 2.0, 1e-15);
    NEAR(M.work_model, 2.25, 1e-15);
    NEAR(M.cyc[0].Q_max_measured, 1.0, 0);
    NEAR(M.cyc[0].Q_max_model, 1.5, 0);
    NEAR(M.cyc[0].Q_max_error, 0.5, 0);
    NEAR(M.cyc[0].Q_min_error, 0.0, 0);
    NEAR(M.cyc[0].q_min, 0.0, 0);
    NEAR(M.cyc[0].q_max, 1.0, 0);
    NEAR(M.cyc[0].rms_error, sqrt(0.05), 1e-15);
    hy_replay_metrics_free(&M);
    assert_null(M.cyc);
}

/* Two triangle cycles of different size, traversed counter-clockwise in (q, Q) so that the energy is negative
 * for the first (a generating element would be active) and positive for the second; the totals are sums.
 * Cycle A: (0,0) -> (2,0) -> (2,2) -> (0,0): integral Q dq = 0 + 0 + (2+0)/2*(-2) = -2.
 * Cycle B: (0,0) -> (0,3) -> (3,3) -> (0,0): 0 + (3+3)/2*3 + (3+0)/2*(-3) = 9 - 4.5 = 4.5. */
static void two_cycles_sum_and_peaks(void **state)
{
    (void)state;
    const double q[] = {0, 2, 2, 0, 0, 3, 0};
    const double Qm[] = {0, 0, 2, 0, 3, 3, 0};
    double Qp[7];
    for (int i = 0; i < 7; i++)
        Qp[i] = 2.0 * Qm[i]; /* predicted energy doubles, peaks double */
    hy_cycle c[2] = {{.i0 = 0, .i1 = 3}, {.i0 = 3, .i1 = 6}};
    hy_replay_metrics M;
    assert_int_equal(hy_replay_metrics_compute(q, Qm, Qp, 7, c, 2, &M, NULL), HY_OK);
    NEAR(M.cyc[0].energy_measured, -2.0, 1e-15);
    NEAR(M.cyc[1].energy_measured, 4.5, 1e-15);
    NEAR(M.energy_measured, 2.5, 1e-15);
    NEAR(M.energy_model, 5.0, 1e-15);
    NEAR(M.energy_ratio, 2.0, 1e-15);
    NEAR(M.cyc[1].Q_max_measured, 3.0, 0);
    NEAR(M.cyc[1].Q_max_error, 3.0, 0);
    NEAR(M.cyc[1].q_max, 3.0, 0);
    /* the largest error is 3 (at samples 4 and 5); the first one is reported */
    NEAR(M.max_abs_error, 3.0, 0);
    assert_int_equal(M.max_abs_index, 4);
    hy_replay_metrics_free(&M);
}

/* The energy-weighted cycle energy error and the NRMSE over the cycles, by hand. Two cycles: a big one
 * (measured 100, model 110: relative error 10 %) and a tiny one (measured 1, model 3: 200 %). Weighted:
 * (10 + 2) / 101 = 0.1188...; the unweighted mean would be 105 %, decided by the tiny cycle. Cycle NRMSE: samples
 * of the cycles only (4 + 3 rows, rms 1 and 2): sqrt((4 * 1 + 3 * 4) / 7) / (max - min of the cycles' forces). */
static void cycle_energy_error_is_energy_weighted(void **state)
{
    (void)state;
    hy_replay_metrics M;
    memset(&M, 0, sizeof M);
    hy_replay_cycle cyc[2];
    memset(cyc, 0, sizeof cyc);
    cyc[0] = (hy_replay_cycle){.i0 = 10, .i1 = 13, .energy_measured = 100, .energy_model = 110, .rms_error = 1,
                               .Q_max_measured = 5, .Q_min_measured = -5};
    cyc[1] = (hy_replay_cycle){.i0 = 13, .i1 = 15, .energy_measured = 1, .energy_model = 3, .rms_error = 2,
                               .Q_max_measured = 1, .Q_min_measured = -1};
    M.cyc = cyc;
    M.n_cyc = 2;
    M.nrmse = 0.5;
    NEAR(hy_replay_energy_error(&M), 12.0 / 101.0, 1e-15);
    NEAR(hy_replay_cycle_nrmse(&M), sqrt(16.0 / 7.0) / 10.0, 1e-15);
    cyc[1].energy_measured = 0; /* a cycle without measured energy does not count */
    NEAR(hy_replay_energy_error(&M), 0.1, 1e-15);
    M.n_cyc = 0; /* no cycle: no energy error, the whole record's NRMSE */
    assert_true(isnan(hy_replay_energy_error(&M)));
    NEAR(hy_replay_cycle_nrmse(&M), 0.5, 0);
}

/* Zero measured energy gives NaN ratios, no cycles gives NaN total ratio, a flat force gives NaN NRMSE. */
static void undefined_ratios_are_nan(void **state)
{
    (void)state;
    const double q[] = {0, 1, 0};
    const double Qm[] = {0, 0, 0};
    const double Qp[] = {0, 1, 0};
    hy_cycle c = {.i0 = 0, .i1 = 2};
    hy_replay_metrics M;
    assert_int_equal(hy_replay_metrics_compute(q, Qm, Qp, 3, &c, 1, &M, NULL), HY_OK);
    assert_true(isnan(M.nrmse));
    assert_true(isnan(M.cyc[0].energy_ratio));
    assert_true(isnan(M.energy_ratio));
    NEAR(M.cyc[0].energy_model, 0.0, 1e-15); /* loading and unloading on the same line */
    hy_replay_metrics_free(&M);
    assert_int_equal(hy_replay_metrics_compute(q, Qp, Qp, 3, NULL, 0, &M, NULL), HY_OK);
    assert_int_equal(M.n_cyc, 0);
    assert_true(isnan(M.energy_ratio));
    NEAR(M.nrmse, 0.0, 0);
    hy_replay_metrics_free(&M);
}

/* A cycle whose end is not back at its start is closed by the straight segment to its start (the polygon's
 * shoelace area): (0,0) -> (1,0) -> (1,1) -> (0.5,1), counter-clockwise, area 0.75 => energy -0.75;
 * the open-path work is only -0.5. */
static void open_cycle_is_closed(void **state)
{
    (void)state;
    const double q[] = {0, 1, 1, 0.5};
    const double Q[] = {0, 0, 1, 1};
    hy_cycle c = {.i0 = 0, .i1 = 3};
    hy_replay_metrics M;
    assert_int_equal(hy_replay_metrics_compute(q, Q, Q, 4, &c, 1, &M, NULL), HY_OK);
    NEAR(M.cyc[0].energy_measured, -0.75, 1e-15);
    NEAR(M.work_measured, -0.5, 1e-15);
    NEAR(M.cyc[0].energy_ratio, 1.0, 0);
    NEAR(M.rms_error, 0.0, 0);
    hy_replay_metrics_free(&M);
}

static void bad_arguments(void **state)
{
    (void)state;
    hy_replay_metrics M;
    hy_err err;
    hy_cycle c = {.i0 = 2, .i1 = 5};
    assert_int_equal(hy_replay_metrics_compute(q1, Qm1, Qp1, 5, &c, 1, &M, &err), HY_EARG);
    assert_non_null(strstr(err.msg, "cycle 0"));
    assert_null(M.cyc);
    assert_int_equal(hy_replay_metrics_compute(q1, Qm1, Qp1, 0, NULL, 0, &M, &err), HY_EDATA);
}

/* Gaussian noise of known sigma on a sine: NRMSE = sigma / peak-to-peak within sampling error (1e5 samples give
 * a relative standard error of 1/sqrt(2n) = 0.2 %; allow 2 %). Box-Muller on a fixed xorshift stream. */
static uint64_t rng = 88172645463325252ull;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}
static void noise_level_is_recovered(void **state)
{
    (void)state;
    size_t n = 100000;
    double *q = malloc(n * sizeof *q), *Qm = malloc(n * sizeof *Qm), *Qp = malloc(n * sizeof *Qp);
    double sigma = 0.05, amp = 3.0;
    for (size_t i = 0; i < n; i++) {
        q[i] = sin(2 * M_PI * (double)i / 1000.0);
        Qp[i] = amp * q[i];
        double u1 = uniform(), u2 = uniform();   /* sequenced: the operands of * are not */
        double g = sqrt(-2.0 * log(u1)) * cos(2 * M_PI * u2);
        Qm[i] = Qp[i] + sigma * g;
    }
    hy_replay_metrics M;
    assert_int_equal(hy_replay_metrics_compute(q, Qm, Qp, n, NULL, 0, &M, NULL), HY_OK);
    double expected = sigma / M.Q_ptp;
    assert_true(fabs(M.nrmse / expected - 1.0) < 0.02);
    assert_true(fabs(M.mean_error) < 5 * sigma / sqrt((double)n));
    hy_replay_metrics_free(&M);
    free(q);
    free(Qm);
    free(Qp);
}

/* Decimation: short records are kept whole; long ones keep first, last and every bucket's extremes. */
static void decimation_keeps_extremes(void **state)
{
    (void)state;
    size_t keep_small[8];
    const double x5[] = {0, 1, 2, 3, 4};
    assert_int_equal(hy_replay_decimate(x5, x5, 5, 1, keep_small), 5);
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(keep_small[i], i);

    size_t n = 200000, nb = 1000; /* 200 samples per bucket exactly */
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    for (size_t i = 0; i < n; i++) {
        x[i] = sin(2 * M_PI * (double)i / 7919.0) + 0.01 * (uniform() - 0.5);
        y[i] = cos(2 * M_PI * (double)i / 7919.0) + 0.3 * (uniform() - 0.5);
    }
    size_t *keep = malloc((4 * nb + 2) * sizeof *keep);
    size_t m = hy_replay_decimate(x, y, n, nb, keep);
    assert_true(m <= 4 * nb + 2);
    assert_true(m >= 2 * nb);
    assert_int_equal(keep[0], 0);
    assert_int_equal(keep[m - 1], n - 1);
    for (size_t k = 1; k < m; k++)
        assert_true(keep[k] > keep[k - 1]);
    /* brute force: every bucket of n / nb samples keeps its extremes */
    size_t per = n / nb;
    for (size_t lo = 0; lo + per <= n; lo += per) {
        size_t hi = lo + per;
        double xmax = -INFINITY, ymin = INFINITY, kxmax = -INFINITY, kymin = INFINITY;
        for (size_t i = lo; i < hi; i++) {
            if (x[i] > xmax) xmax = x[i];
            if (y[i] < ymin) ymin = y[i];
        }
        for (size_t k = 0; k < m; k++)
            if (keep[k] >= lo && keep[k] < hi) {
                if (x[keep[k]] > kxmax) kxmax = x[keep[k]];
                if (y[keep[k]] < kymin) kymin = y[keep[k]];
            }
        assert_true(xmax == kxmax);
        assert_true(ymin == kymin);
    }
    /* a length that does not divide evenly still keeps the global extremes and the ends */
    size_t n2 = n - 7;
    m = hy_replay_decimate(x, y, n2, 333, keep);
    size_t gx = 0, gy = 0;
    for (size_t i = 1; i < n2; i++) {
        if (x[i] > x[gx]) gx = i;
        if (y[i] < y[gy]) gy = i;
    }
    int seen_x = 0, seen_y = 0;
    for (size_t k = 0; k < m; k++) {
        seen_x |= keep[k] == gx;
        seen_y |= keep[k] == gy;
    }
    assert_true(seen_x && seen_y);
    assert_int_equal(keep[m - 1], n2 - 1);
    assert_true(m <= 4 * 333 + 2);
    free(x);
    free(y);
    free(keep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rectangle_by_hand),
        cmocka_unit_test(cycle_energy_error_is_energy_weighted),
        cmocka_unit_test(two_cycles_sum_and_peaks),
        cmocka_unit_test(undefined_ratios_are_nan),
        cmocka_unit_test(open_cycle_is_closed),
        cmocka_unit_test(bad_arguments),
        cmocka_unit_test(noise_level_is_recovered),
        cmocka_unit_test(decimation_keeps_extremes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

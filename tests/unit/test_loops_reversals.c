// Loop analysis: reversal points robust to noise, the default threshold rule (docs/loops.md) and the edge cases
// (too few samples, constant q, monotone q, non-finite values). Noise is seeded, so every count is exact.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/loops.h"

/* xorshift64* and Box-Muller: a small seeded Gaussian source independent of the library */
static uint64_t rng = 1;
static double uniform(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return ((double)((rng * 2685821657736338717ULL) >> 11) + 0.5) / 9007199254740992.0;
}
static double gauss(void)
{
    double u1 = uniform(), u2 = uniform();   /* sequenced: the operands of * are not */
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* Increasing-amplitude sine cycles, amplitude (c+1)/ncyc, N samples per cycle, white noise sigma, optional holds
 * of `hold` samples at every peak (a static test that pauses at the extremes). Reversals: 2 ncyc. */
// (cycles, samples per cycle, noise, hold, seed) => q (and Q = q + 0.1 A cos t), length in *n
static double *record(int ncyc, size_t N, double sigma, size_t hold, uint64_t seed, double **Qout, size_t *n)
{
    size_t cap = (size_t)ncyc * (N + 2 * hold) + 1, k = 0;
    double *q = malloc(cap * sizeof *q), *Q = malloc(cap * sizeof *Q);
    rng = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (int c = 0; c < ncyc; c++) {
        double A = (double)(c + 1) / ncyc;
        for (size_t i = 0; i < N; i++) {
            double t = 2 * M_PI * (double)i / (double)N, x = A * sin(t);
            size_t reps = (hold && (i == N / 4 || i == 3 * N / 4)) ? hold : 1;
            for (size_t r = 0; r < reps; r++) {
                q[k] = x + sigma * gauss();
                Q[k] = q[k] + 0.1 * A * cos(t);
                k++;
            }
        }
    }
    q[k] = sigma * gauss();
    Q[k] = 0;
    k++;
    *n = k;
    *Qout = Q;
    return q;
}

static void clean_sine_reversals_at_the_peaks(void **state)
{
    (void)state;
    double *Q;
    size_t n;
    double *q = record(6, 1000, 0.0, 0, 1, &Q, &n);
    hy_loops L;
    assert_int_equal(hy_loops_analyze(q, Q, n, NULL, &L, NULL), HY_OK);
    assert_int_equal(L.n_rev, 12);
    for (size_t j = 0; j < L.n_rev; j++) {
        assert_int_equal(L.rev[j].i, 250 + 500 * j);
        assert_int_equal(L.rev[j].kind, j % 2 ? -1 : +1);
    }
    /* clean, smooth: the second differences are curvature (ratio 4), the floor sets the threshold */
    assert_int_equal(L.threshold_rule, HY_LOOPS_THR_FLOOR);
    assert_true(fabs(L.threshold - HY_LOOPS_FLOOR * L.range) <= 1e-15);
    assert_true(fabs(L.noise_ratio - 4.0) < 0.05);
    hy_loops_free(&L);
    free(q);
    free(Q);
}

static void noisy_records_give_the_exact_count(void **state)
{
    (void)state;
    /* noise from 0.1 % to 1 % of the largest amplitude, 100 to 100 000 samples per cycle, several seeds */
    static const struct { int ncyc; size_t N; double sigma; size_t hold; } cases[] = {
        {10, 100, 0.01, 0},    {10, 200, 0.003, 0},   {10, 1000, 0.01, 0},  {10, 1000, 0.001, 0},
        {8, 10000, 0.01, 0},   {4, 100000, 0.005, 0}, {6, 1000, 0.01, 20000},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        for (uint64_t seed = 1; seed <= 3; seed++) {
            double *Q;
            size_t n;
            double *q = record(cases[k].ncyc, cases[k].N, cases[k].sigma, cases[k].hold, seed, &Q, &n);
            hy_loops L;
            assert_int_equal(hy_loops_analyze(q, Q, n, NULL, &L, NULL), HY_OK);
            if (L.n_rev != (size_t)(2 * cases[k].ncyc))
                fail_msg("case %zu seed %u: %zu reversals, expected %d (threshold %g)", k, (unsigned)seed,
                         L.n_rev, 2 * cases[k].ncyc, L.threshold);
            /* each reversal lies where the signal peaks, within the noise: |q| near the amplitude */
            for (size_t j = 0; j < L.n_rev; j++) {
                double A = (double)(j / 2 + 1) / cases[k].ncyc;
                assert_true(fabs(fabs(q[L.rev[j].i]) - A) <= 6 * cases[k].sigma + 1e-12);
                assert_int_equal(L.rev[j].kind * (q[L.rev[j].i] > 0 ? 1 : -1), 1);
            }
            hy_loops_free(&L);
            free(q);
            free(Q);
        }
    }
}

static void noise_estimate_and_rule_on_white_noise(void **state)
{
    (void)state;
    double *Q;
    size_t n;
    double *q = record(4, 20000, 0.004, 0, 7, &Q, &n);
    hy_loops_thr t;
    assert_int_equal(hy_loops_default_threshold(q, n, &t, NULL), HY_OK);
    /* dense noisy record: the second differences are noise (ratio ~ 1), sigma is recovered, h = K sigma */
    assert_true(fabs(t.noise / 0.004 - 1) < 0.03);
    assert_true(fabs(t.noise_ratio - 1) < 0.05);
    assert_true(fabs(t.noise_factor - 2 * sqrt(2 * log((double)n))) < 1e-12);
    assert_int_equal(t.rule, HY_LOOPS_THR_NOISE);
    assert_true(fabs(t.threshold - t.noise_factor * t.noise) <= 1e-15);
    free(q);
    free(Q);
}

/* The noise estimate does not depend on the unit: the same record times 1e150, 1e50, 2^-200 or 1e-150 gives the
 * same threshold times that factor (the median of the second differences used to be taken in float without
 * scaling, so above ~1e38 it was infinite: "reversal threshold must be a positive finite number, got inf"). */
static void threshold_scales_with_the_record(void **state)
{
    (void)state;
    double *Q;
    size_t n;
    double *q = record(4, 20000, 0.004, 0, 7, &Q, &n);
    double *qs = malloc(n * sizeof *qs);
    assert_non_null(qs);
    hy_loops_thr t0;
    assert_int_equal(hy_loops_default_threshold(q, n, &t0, NULL), HY_OK);
    static const double factors[] = {1e150, 1e50, 0x1p-200, 1e-150};
    for (size_t k = 0; k < sizeof factors / sizeof factors[0]; k++) {
        for (size_t i = 0; i < n; i++)
            qs[i] = q[i] * factors[k];
        hy_loops_thr t;
        hy_err err;
        if (hy_loops_default_threshold(qs, n, &t, &err) != HY_OK)
            fail_msg("factor %g: %s", factors[k], err.msg);
        assert_int_equal(t.rule, t0.rule);
        assert_true(fabs(t.noise / (t0.noise * factors[k]) - 1) < 1e-6);
        assert_true(fabs(t.threshold / (t0.threshold * factors[k]) - 1) < 1e-6);
        assert_true(fabs(t.noise_ratio - t0.noise_ratio) < 1e-6);
    }
    free(qs);
    free(q);
    free(Q);
}

static void sparse_records_are_capped(void **state)
{
    (void)state;
    /* 12 samples per cycle with irregular spacing, like a digitised trace: second differences are signal
     * (ratio > 1.25), so the noise figure is only an upper bound and the cap (1 % of the range) applies. The
     * smallest loop (amplitude 0.15, about 2 % of the range 7) must survive. */
    double q[200], Q[200];
    size_t n = 0;
    rng = 99;
    q[n] = 0; Q[n] = 0; n++;
    for (int c = 0; c < 8; c++) {
        double A = c == 0 ? 0.15 : 0.5 * c;
        for (int i = 1; i <= 12; i++) {
            double t = 2 * M_PI * (i + 0.3 * (uniform() - 0.5)) / 12;
            q[n] = A * sin(t);
            Q[n] = q[n] + 0.1 * cos(t);
            n++;
        }
    }
    hy_loops L;
    assert_int_equal(hy_loops_analyze(q, Q, n, NULL, &L, NULL), HY_OK);
    assert_true(L.noise_ratio > HY_LOOPS_WHITE);
    assert_int_equal(L.threshold_rule, HY_LOOPS_THR_CAP);
    assert_true(fabs(L.threshold - HY_LOOPS_CAP * L.range) <= 1e-15);
    assert_int_equal(L.n_rev, 16);
    hy_loops_free(&L);
}

static void given_threshold_is_a_strict_gate(void **state)
{
    (void)state;
    /* up 1, back 0.5, up to 2, back down: the 0.5 back-move counts only when it exceeds the threshold */
    const double q[] = {0, 0.5, 1.0, 0.75, 0.5, 1.25, 2.0, 1.0, 0.0};
    const double Q[] = {0, 1, 2, 1, 0, 1, 3, 1, -1};
    size_t n = sizeof q / sizeof q[0];
    hy_loops_opts o;
    hy_loops_opts_default(&o);
    hy_loops L;
    o.threshold = 0.25;
    assert_int_equal(hy_loops_analyze(q, Q, n, &o, &L, NULL), HY_OK);
    assert_int_equal(L.threshold_rule, HY_LOOPS_THR_USER);
    assert_true(L.threshold == 0.25);
    assert_int_equal(L.n_rev, 3);            /* max at 1.0, min at 0.5, max at 2.0 */
    assert_int_equal(L.rev[0].i, 2);
    assert_int_equal(L.rev[1].i, 4);
    assert_int_equal(L.rev[2].i, 6);
    /* (1.0, 0.5) lies inside (start 0, 2.0) by more than 0.25 at both ends: an inner loop, closed at the first
     * sample back at q >= 1.0 (sample 5, q = 1.25); its area by hand: trapezoid 2..5 = -0.375 - 0.125 + 0.375,
     * closing segment 1/2 (1 + 2) (1.0 - 1.25) = -0.375 */
    assert_int_equal(L.n_inner, 1);
    assert_int_equal(L.n_major, 1);
    assert_true(!L.rev[0].major && !L.rev[1].major && L.rev[2].major);
    assert_int_equal(L.inner[0].i0, 2);
    assert_int_equal(L.inner[0].i_turn, 4);
    assert_int_equal(L.inner[0].i1, 5);
    assert_int_equal(L.inner[0].kind, +1);
    assert_true(fabs(L.inner[0].range - 0.5) <= 1e-15);
    assert_true(fabs(L.inner[0].energy + 0.5) <= 1e-15);
    /* q >= 0 throughout: one-sided; the excursion 0 -> 2 -> 0 is one cycle that holds the inner loop */
    assert_int_equal(L.cycle_rule, HY_LOOPS_CYC_ONE_SIDED);
    assert_int_equal(L.n_cyc, 1);
    assert_int_equal(L.cyc[0].i0, 0);
    assert_int_equal(L.cyc[0].i1, 8);
    assert_int_equal(L.cyc[0].n_inner, 1);
    assert_int_equal(L.inner[0].cycle, 0);
    hy_loops_free(&L);
    o.threshold = 0.5;                        /* back-move of exactly 0.5: not more than the threshold */
    assert_int_equal(hy_loops_analyze(q, Q, n, &o, &L, NULL), HY_OK);
    assert_int_equal(L.n_rev, 1);
    assert_int_equal(L.rev[0].i, 6);
    assert_int_equal(L.rev[0].kind, +1);
    assert_int_equal(L.n_half, 2);
    assert_int_equal(L.n_inner, 0);
    assert_int_equal(L.n_cyc, 1);
    hy_loops_free(&L);
}

static void flat_top_reversal_is_its_first_sample(void **state)
{
    (void)state;
    const double q[] = {0, 1, 2, 2, 2, 1, 0, -1, -1, 0, 1};
    hy_reversal *rev;
    size_t nr;
    int dir;
    assert_int_equal(hy_loops_reversals(q, 11, 0.5, &rev, &nr, &dir, NULL), HY_OK);
    assert_int_equal(nr, 2);
    assert_int_equal(rev[0].i, 2);
    assert_int_equal(rev[1].i, 7);
    assert_int_equal(dir, +1);
    free(rev);
}

static void too_few_samples_are_an_error(void **state)
{
    (void)state;
    const double q[] = {0, 1}, Q[] = {0, 1};
    hy_loops L;
    hy_err err;
    for (size_t n = 0; n < 3; n++) {
        assert_int_equal(hy_loops_analyze(q, Q, n, NULL, &L, &err), HY_EDATA);
        assert_non_null(strstr(err.msg, "at least 3 samples"));
        assert_int_equal(L.n_rev, 0);
        assert_null(L.rev);
    }
    assert_int_equal(hy_loops_analyze(NULL, Q, 2, NULL, &L, &err), HY_EARG);
    assert_int_equal(hy_loops_analyze(q, Q, 2, NULL, NULL, &err), HY_EARG);
}

static void constant_q_is_an_error(void **state)
{
    (void)state;
    double q[50], Q[50];
    for (int i = 0; i < 50; i++) {
        q[i] = 1.5;
        Q[i] = i;
    }
    hy_loops L;
    hy_err err;
    assert_int_equal(hy_loops_analyze(q, Q, 50, NULL, &L, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "constant"));
    assert_null(L.half);
}

static void monotone_q_has_no_reversal(void **state)
{
    (void)state;
    double q[100], Q[100];
    for (int i = 0; i < 100; i++) {
        q[i] = 0.01 * i;
        Q[i] = 5 * q[i];
    }
    hy_loops L;
    assert_int_equal(hy_loops_analyze(q, Q, 100, NULL, &L, NULL), HY_OK);
    assert_int_equal(L.n_rev, 0);
    assert_int_equal(L.n_cyc, 0);
    assert_int_equal(L.n_half, 1);
    assert_int_equal(L.half[0].dir, +1);
    assert_int_equal(L.half[0].i1, 99);
    /* the open path is the triangle 1/2 k q_end^2 */
    assert_true(fabs(L.total_energy - 0.5 * 5 * 0.99 * 0.99) <= 1e-12);
    /* the end of the record is the only envelope point */
    assert_int_equal(L.backbone_pos.n, 1);
    assert_true(L.backbone_pos.q[0] == q[99]);
    assert_int_equal(L.backbone_neg.n, 0);
    hy_loops_free(&L);
}

static void small_motion_below_the_threshold_has_no_halfcycle(void **state)
{
    (void)state;
    double q[20], Q[20];
    for (int i = 0; i < 20; i++) {
        q[i] = 0.001 * (i % 3);
        Q[i] = i;
    }
    hy_loops_opts o;
    hy_loops_opts_default(&o);
    o.threshold = 1.0;
    hy_loops L;
    assert_int_equal(hy_loops_analyze(q, Q, 20, &o, &L, NULL), HY_OK);
    assert_int_equal(L.n_rev, 0);
    assert_int_equal(L.n_half, 0);
    assert_int_equal(L.n_cyc, 0);
    hy_branches B;
    hy_err err;
    assert_int_equal(hy_loops_branches(q, Q, 20, &L, &o, &B, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "threshold"));
    hy_loops_free(&L);
}

static void non_finite_values_are_an_error(void **state)
{
    (void)state;
    double q[10], Q[10];
    for (int i = 0; i < 10; i++) {
        q[i] = sin(i);
        Q[i] = q[i];
    }
    hy_loops L;
    hy_err err;
    q[4] = NAN;
    assert_int_equal(hy_loops_analyze(q, Q, 10, NULL, &L, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "sample 5: q"));
    q[4] = 0;
    Q[7] = INFINITY;
    assert_int_equal(hy_loops_analyze(q, Q, 10, NULL, &L, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "sample 8: Q"));
    Q[7] = 0;
    hy_loops_opts o = {INFINITY, 0.05, 0.0};
    assert_int_equal(hy_loops_analyze(q, Q, 10, &o, &L, &err), HY_EARG);
    o.threshold = 0;
    o.center = NAN;
    assert_int_equal(hy_loops_analyze(q, Q, 10, &o, &L, &err), HY_EARG);
    assert_non_null(strstr(err.msg, "centre"));
    hy_reversal *rev;
    size_t nr;
    assert_int_equal(hy_loops_reversals(q, 10, -1.0, &rev, &nr, NULL, &err), HY_EARG);
    assert_null(rev);
}

// (file name in fixtures/real) => q, Q read with a plain scanf loop (independent of the library's CSV reader)
static size_t read_pairs(const char *name, int skip, int q_first, double **q, double **Q)
{
    const char *fixtures = getenv("FIXTURES") && *getenv("FIXTURES") ? getenv("FIXTURES") : "fixtures";
    char path[1024], line[512];
    snprintf(path, sizeof path, "%s/real/%s", fixtures, name);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return 0;
    size_t n = 0, cap = 1024;
    *q = malloc(cap * sizeof **q);
    *Q = malloc(cap * sizeof **Q);
    for (int ln = 0; fgets(line, sizeof line, fp); ln++) {
        double a, b;
        if (ln < skip || sscanf(line, "%lf,%lf", &a, &b) != 2)
            continue;
        if (n == cap) {
            cap *= 2;
            *q = realloc(*q, cap * sizeof **q);
            *Q = realloc(*Q, cap * sizeof **Q);
        }
        (*q)[n] = q_first ? a : b;
        (*Q)[n] = q_first ? b : a;
        n++;
    }
    fclose(fp);
    return n;
}

static void real_records(void **state)
{
    (void)state;
    double *q, *Q;
    /* SPC1: force column 1 (kN), displacement column 2 (mm), two header lines (fixtures/real/CREDITS.md) */
    size_t n = read_pairs("SPC1.csv", 2, 0, &q, &Q);
    if (n == 0)
        fail_msg("fixtures/real/SPC1.csv not readable (run from the top of the repository)");
    assert_int_equal(n, 33028);
    hy_loops L;
    assert_int_equal(hy_loops_analyze(q, Q, n, NULL, &L, NULL), HY_OK);
    assert_int_equal(L.threshold_rule, HY_LOOPS_THR_FLOOR);
    assert_int_equal(L.n_rev, 56);
    /* CUREE protocol from rest: 28 minima, each followed by an upward crossing of 0, and the start at 0 */
    assert_int_equal(L.n_cyc, 28);
    assert_int_equal(L.cycle_rule, HY_LOOPS_CYC_CROSSING);
    assert_true(fabs(L.total_energy - 28035.90) < 0.005);   /* README reference */
    /* the count does not depend on the threshold anywhere between 0.02 mm and 3 mm (above 3.26 mm the first
     * excursion from the start no longer counts, above 4.88 mm the smallest cycles go) */
    static const double hs[] = {0.02, 0.1, 0.5, 1, 2, 3};
    for (size_t k = 0; k < sizeof hs / sizeof hs[0]; k++) {
        hy_loops M;
        hy_loops_opts o = {hs[k], 0.05, 0.0};
        assert_int_equal(hy_loops_analyze(q, Q, n, &o, &M, NULL), HY_OK);
        assert_int_equal(M.n_rev, 56);
        assert_int_equal(M.n_cyc, 28);
        hy_loops_free(&M);
    }
    hy_loops_free(&L);
    free(q);
    free(Q);
    /* Hys1: displacement column 1, force column 2 (the source divides force by 1000), no header */
    n = read_pairs("Hys1.csv", 0, 1, &q, &Q);
    assert_int_equal(n, 290);
    assert_int_equal(hy_loops_analyze(q, Q, n, NULL, &L, NULL), HY_OK);
    assert_int_equal(L.threshold_rule, HY_LOOPS_THR_CAP);
    assert_int_equal(L.n_rev, 27);
    assert_int_equal(L.n_cyc, 13);
    assert_true(fabs(L.total_energy / 1000 - 223.58) < 0.005);
    hy_loops_free(&L);
    free(q);
    free(Q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(clean_sine_reversals_at_the_peaks),
        cmocka_unit_test(noisy_records_give_the_exact_count),
        cmocka_unit_test(noise_estimate_and_rule_on_white_noise),
        cmocka_unit_test(sparse_records_are_capped),
        cmocka_unit_test(given_threshold_is_a_strict_gate),
        cmocka_unit_test(flat_top_reversal_is_its_first_sample),
        cmocka_unit_test(too_few_samples_are_an_error),
        cmocka_unit_test(constant_q_is_an_error),
        cmocka_unit_test(monotone_q_has_no_reversal),
        cmocka_unit_test(small_motion_below_the_threshold_has_no_halfcycle),
        cmocka_unit_test(non_finite_values_are_an_error),
        cmocka_unit_test(threshold_scales_with_the_record),
        cmocka_unit_test(real_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

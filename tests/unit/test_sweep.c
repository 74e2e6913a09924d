/* mech sweep's numerical parts (mech/sweep.h): Sobol points against the published first points (Bratley and Fox
 * 1988, the direction numbers GSL uses), the Owen scramble keeping the (0, m, 2)-net property of the first two
 * dimensions, Latin-hypercube stratification, the distributions' moments against their closed forms, the Wilson
 * interval against Newcombe 1998's table, Spearman's rho against hand-computed cases, and the adaptive envelope
 * against the full grid on a known boundary. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "mech/sweep.h"

static void near(double a, double b, double tol)
{
    if (!(fabs(a - b) <= tol))
        fail_msg("%.17g != %.17g (tol %g)", a, b, tol);
}

static void sobol_first_points(void **state)
{
    (void)state;
    /* the unscrambled sequence from its point 1 (GSL skips the origin): Gray-code order of Antonov-Saleev */
    static const double x[8] = {0.5, 0.75, 0.25, 0.375, 0.875, 0.625, 0.125, 0.1875};
    static const double y[8] = {0.5, 0.25, 0.75, 0.375, 0.875, 0.125, 0.625, 0.3125};
    double u[16];
    hy_err err;
    assert_int_equal(mech_sweep_sobol_plain(8, 2, u, &err), HY_OK);
    for (int i = 0; i < 8; i++) {
        near(u[2 * i], x[i], 0);
        near(u[2 * i + 1], y[i], 0);
    }
    assert_int_equal(mech_sweep_sobol_plain(1, 41, u, &err), HY_EARG);
}

// (points, n, d, dims a b, 2^ma x 2^mb boxes) => each box holds exactly n / (2^ma 2^mb) points
static int net_ok(const double *u, int n, int d, int a, int b, int ma, int mb)
{
    int na = 1 << ma, nb = 1 << mb, *cnt = calloc((size_t)(na * nb), sizeof *cnt), ok = 1;
    for (int i = 0; i < n; i++)
        cnt[(int)(u[i * d + a] * na) * nb + (int)(u[i * d + b] * nb)]++;
    for (int k = 0; k < na * nb; k++)
        ok &= cnt[k] == n / (na * nb);
    free(cnt);
    return ok;
}

static void sobol_scrambled_is_a_net(void **state)
{
    (void)state;
    enum { N = 64, D = 3 };
    double u[N * D], v[N * D];
    hy_err err;
    assert_int_equal(mech_sweep_sample(MECH_SWEEP_SOBOL, N, D, 7, u, &err), HY_OK);
    /* one point in each of the 64 strata of every dimension, and in every 2^a x 2^(6-a) box of dims 0, 1 (t = 0) */
    for (int j = 0; j < D; j++)
        assert_true(net_ok(u, N, D, j, j, 6, 0));
    for (int a = 0; a <= 6; a++)
        assert_true(net_ok(u, N, D, 0, 1, a, 6 - a));
    /* scrambled: not the plain points, different for another seed, the same for the same seed */
    assert_int_equal(mech_sweep_sample(MECH_SWEEP_SOBOL, N, D, 8, v, &err), HY_OK);
    int differ = 0;
    for (int i = 0; i < N * D; i++)
        differ += u[i] != v[i];
    assert_true(differ > N * D / 2);
    assert_int_equal(mech_sweep_sample(MECH_SWEEP_SOBOL, N, D, 7, v, &err), HY_OK);
    assert_memory_equal(u, v, sizeof u);
    /* each scrambled coordinate is uniform: the mean of 4096 points' first coordinate is 1/2 within 1e-3 (a net
       integrates x exactly up to the 2^-12 cell) */
    enum { M = 4096 };
    double *w = malloc(M * 2 * sizeof *w), s = 0;
    assert_int_equal(mech_sweep_sample(MECH_SWEEP_SOBOL, M, 2, 3, w, &err), HY_OK);
    for (int i = 0; i < M; i++)
        s += w[2 * i];
    near(s / M, 0.5, 1e-3);
    free(w);
}

static void lhs_is_stratified(void **state)
{
    (void)state;
    enum { N = 50, D = 4 };
    double u[N * D];
    hy_err err;
    assert_int_equal(mech_sweep_sample(MECH_SWEEP_LHS, N, D, 11, u, &err), HY_OK);
    for (int j = 0; j < D; j++) {
        int cnt[N] = {0};
        for (int i = 0; i < N; i++) {
            assert_true(u[i * D + j] > 0 && u[i * D + j] < 1);
            cnt[(int)(u[i * D + j] * N)]++;
        }
        for (int k = 0; k < N; k++)
            assert_int_equal(cnt[k], 1);
    }
}

static void random_is_per_run(void **state)
{
    (void)state;
    /* a run's numbers depend on (seed, run, stream) only: drawing 10 or 1000 points gives the same first 10 */
    double a[10 * 2], b[1000 * 2];
    hy_err err;
    mech_sweep_sample(MECH_SWEEP_RANDOM, 10, 2, 5, a, &err);
    mech_sweep_sample(MECH_SWEEP_RANDOM, 1000, 2, 5, b, &err);
    assert_memory_equal(a, b, sizeof a);
    double s = 0, s2 = 0;
    for (int i = 0; i < 2000; i++)
        s += b[i], s2 += b[i] * b[i];
    near(s / 2000, 0.5, 4 * sqrt(1.0 / 12 / 2000));
    near(s2 / 2000 - (s / 2000) * (s / 2000), 1.0 / 12, 0.01);
}

static void distributions_have_their_moments(void **state)
{
    (void)state;
    enum { N = 20000 };
    double *u = malloc(N * sizeof *u);
    hy_err err;
    mech_sweep_sample(MECH_SWEEP_RANDOM, N, 1, 99, u, &err);
    /* normal(2, 0.5): mean within 4 standard errors, variance within 4 of its standard errors (sqrt(2/N) s^2) */
    mech_sweep_dist_p d = {.kind = MECH_SWEEP_NORMAL, .a = 2, .b = 0.5};
    double s = 0, s2 = 0;
    for (int i = 0; i < N; i++) {
        double x = mech_sweep_dist_eval(&d, u[i]);
        s += x, s2 += x * x;
    }
    double m = s / N, v = s2 / N - m * m;
    near(m, 2, 4 * 0.5 / sqrt(N));
    near(v, 0.25, 4 * sqrt(2.0 / N) * 0.25);
    /* truncated normal(0, 1) on [-1, 2]: inside, and the mean (phi(-1) - phi(2)) / (Phi(2) - Phi(-1)) */
    d = (mech_sweep_dist_p){.kind = MECH_SWEEP_TNORMAL, .a = 0, .b = 1, .lo = -1, .hi = 2};
    s = 0;
    for (int i = 0; i < N; i++) {
        double x = mech_sweep_dist_eval(&d, u[i]);
        assert_true(x >= -1 && x <= 2);
        s += x;
    }
    double phi1 = exp(-0.5) / sqrt(2 * M_PI), phi2 = exp(-2.0) / sqrt(2 * M_PI);
    double P = 0.5 * (erf(2 / sqrt(2.0)) - erf(-1 / sqrt(2.0)));
    near(s / N, (phi1 - phi2) / P, 4 * 0.8 / sqrt(N));
    /* far upper tail: [3, 4] sd, the tail branch keeps it inside and non-degenerate */
    d = (mech_sweep_dist_p){.kind = MECH_SWEEP_TNORMAL, .a = 0, .b = 1, .lo = 3, .hi = 4};
    near(mech_sweep_dist_eval(&d, 1e-9), 3, 1e-6);
    assert_true(mech_sweep_dist_eval(&d, 0.5) > 3.1 && mech_sweep_dist_eval(&d, 0.5) < 3.4);
    /* log-normal, median 0.1, sigma 0.3: the median of the sample, and E[x] = median exp(sigma^2 / 2) */
    d = (mech_sweep_dist_p){.kind = MECH_SWEEP_LOGNORMAL, .a = log(0.1), .b = 0.3};
    near(mech_sweep_dist_eval(&d, 0.5), 0.1, 1e-15);
    s = 0;
    for (int i = 0; i < N; i++)
        s += mech_sweep_dist_eval(&d, u[i]);
    near(s / N, 0.1 * exp(0.045), 4 * 0.1 * 0.31 / sqrt(N));
    /* a weighted choice 1 : 3: frequencies within 4 standard errors */
    d = (mech_sweep_dist_p){.kind = MECH_SWEEP_CHOICE, .n = 2, .cum = {0.25, 1}};
    int c1 = 0;
    for (int i = 0; i < N; i++)
        c1 += mech_sweep_dist_eval(&d, u[i]) == 1;
    near((double)c1 / N, 0.75, 4 * sqrt(0.75 * 0.25 / N));
    /* uniform: the end points */
    d = (mech_sweep_dist_p){.kind = MECH_SWEEP_UNIFORM, .a = -3, .b = 5};
    near(mech_sweep_dist_eval(&d, 0.25), -1, 1e-15);
    free(u);
}

static void wilson_matches_newcombe(void **state)
{
    (void)state;
    /* Newcombe 1998, Statistics in Medicine 17:857, Table II, method 3 (score interval without continuity
       correction) */
    static const struct { long k, n; double lo, hi; } t[] = {
        {81, 263, 0.2553, 0.3662}, {15, 148, 0.0624, 0.1605}, {0, 20, 0.0, 0.1611}, {1, 29, 0.0061, 0.1718}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        double lo, hi;
        mech_sweep_wilson(t[i].k, t[i].n, 1.959963984540054, &lo, &hi);
        near(lo, t[i].lo, 6e-5);
        near(hi, t[i].hi, 6e-5);
    }
    double lo, hi;
    mech_sweep_wilson(20, 20, 1.959963984540054, &lo, &hi);
    near(hi, 1, 0);
    near(lo, 1 - 0.1611, 6e-5);   /* symmetric to 0 of 20 */
}

static void spearman_cases(void **state)
{
    (void)state;
    double x[] = {1, 2, 3, 4, 5}, y[] = {2, 1, 4, 3, 5};
    near(mech_sweep_spearman(x, y, 5), 0.8, 1e-15);   /* 1 - 6 sum d^2 / (n (n^2 - 1)), sum d^2 = 4 */
    double z[] = {1, 8, 27, 64, 125}, r[] = {5, 4, 3, 2, 1};
    near(mech_sweep_spearman(x, z, 5), 1, 1e-15);     /* any monotone transform */
    near(mech_sweep_spearman(x, r, 5), -1, 1e-15);
    /* ties: x = 1 1 2 2, y = 1 2 3 4: ranks 1.5 1.5 3.5 3.5 vs 1 2 3 4: rho = 4 / sqrt(4 * 5) = 0.894427... */
    double tx[] = {1, 1, 2, 2}, ty[] = {1, 2, 3, 4};
    near(mech_sweep_spearman(tx, ty, 4), 4 / sqrt(20.0), 1e-15);
    double c[] = {3, 3, 3};
    assert_true(isnan(mech_sweep_spearman(c, x, 3)));
    assert_true(isnan(mech_sweep_spearman(x, y, 2)));
}

static int inside(int ix, int iy)
{
    /* a disc of radius 11.3 around (14, 18) on a 33 x 33 grid */
    double dx = ix - 14, dy = iy - 18;
    return dx * dx + dy * dy < 11.3 * 11.3;
}

static void envelope_equals_full_grid(void **state)
{
    (void)state;
    mech_sweep_envelope e;
    hy_err err;
    assert_int_equal(mech_sweep_envelope_init(&e, 33, 34, 3, &err), HY_EARG);   /* 33 = 4 x 8 + 1, 34 is not */
    assert_int_equal(mech_sweep_envelope_init(&e, 33, 33, 3, &err), HY_OK);
    long *ids = malloc(33 * 33 * sizeof *ids), runs = 0;
    size_t n;
    while ((n = mech_sweep_envelope_next(&e, ids)) > 0) {
        for (size_t k = 0; k < n; k++) {
            assert_true(e.state[ids[k]] < 0);   /* never asked twice */
            e.state[ids[k]] = (signed char)inside((int)(ids[k] / 33), (int)(ids[k] % 33));
        }
        runs += (long)n;
    }
    for (int ix = 0; ix < 33; ix++)
        for (int iy = 0; iy < 33; iy++)
            assert_int_equal(e.state[ix * 33 + iy], inside(ix, iy));
    print_message("envelope: %ld runs for the 1089-point grid\n", runs);
    assert_true(runs < 1089 / 2);
    free(ids);
    mech_sweep_envelope_free(&e);
}

static void owen_is_a_bijection_per_level(void **state)
{
    (void)state;
    /* the scramble permutes the 2^k cells of each level: 256 points at the centres of the 2^8 cells map to 256
       different cells */
    int seen[256] = {0};
    for (int i = 0; i < 256; i++) {
        double x = (i + 0.5) / 256;
        int c = (int)(mech_sweep_owen(x, 2, 42) * 256);
        assert_true(c >= 0 && c < 256);
        seen[c]++;
    }
    for (int c = 0; c < 256; c++)
        assert_int_equal(seen[c], 1);
}

// (plan text with @S@ for the absolute path of a fixture scenario) => the plan read
static int read_plan(const char *text, const char *scen, mech_sweep_plan *p, hy_err *err)
{
    char abs[PATH_MAX], path[] = "/tmp/test_sweep_plan.XXXXXX";
    assert_non_null(realpath(scen, abs));
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *fp = fdopen(fd, "w");
    for (const char *c = text; *c; c++)
        if (strncmp(c, "@S@", 3) == 0)
            fputs(abs, fp), c += 2;
        else
            fputc(*c, fp);
    fclose(fp);
    int rc = mech_sweep_plan_read(path, 0, p, err);
    unlink(path);
    return rc;
}

static void plan_runs_and_values(void **state)
{
    (void)state;
    mech_sweep_plan p;
    hy_err err;
    /* two grids (the first slowest, a log scale) times 5 LHS samples of a third key */
    int rc = read_plan("{\"format\": \"mech-sweep\", \"scenario\": \"@S@\", \"vary\": {"
                       "\"initial.pitch_deg\": {\"grid\": [1, 2]},"
                       "\"initial.closing_speed\": {\"grid\": {\"start\": 0.01, \"stop\": 1, \"count\": 3, \"scale\": \"log\"}},"
                       "\"initial.offset_y\": {\"dist\": \"uniform\", \"min\": -0.1, \"max\": 0.1}},"
                       "\"samples\": 5, \"sampling\": \"lhs\", \"seed\": 9}",
                       "fixtures/mech/dock/s3-A.json", &p, &err);
    if (rc != HY_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(p.nrun, 2 * 3 * 5);
    static const double pitch[6] = {1, 1, 1, 2, 2, 2}, speed[6] = {0.01, 0.1, 1, 0.01, 0.1, 1};
    for (long r = 0; r < p.nrun; r++) {
        double x;
        const char *s;
        mech_sweep_plan_value(&p, r, 0, &x, &s);
        near(x, pitch[r / 5], 0);
        mech_sweep_plan_value(&p, r, 1, &x, &s);
        near(x, speed[r / 5], 0);   /* exactly 0.1: the grid is rounded to 15 digits */
        assert_null(s);
    }
    /* the sample is the same for every grid point, and stratified: one offset in each fifth of [-0.1, 0.1] */
    int cnt[5] = {0};
    for (long k = 0; k < 5; k++) {
        double a, b;
        const char *s;
        mech_sweep_plan_value(&p, k, 2, &a, &s);
        mech_sweep_plan_value(&p, 25 + k, 2, &b, &s);
        near(a, b, 0);
        cnt[(int)((a + 0.1) / 0.04)]++;
    }
    for (int k = 0; k < 5; k++)
        assert_int_equal(cnt[k], 1);
    /* the run's scenario text carries the values */
    char *t = mech_sweep_scenario(&p, 20, &err);   /* grid point 4: pitch 2, speed 0.1 */
    assert_non_null(t);
    assert_non_null(strstr(t, "\"pitch_deg\":2"));
    assert_non_null(strstr(t, "\"closing_speed\":0.1,") ? t : strstr(t, "\"closing_speed\":0.1}"));
    free(t);
    mech_sweep_plan_free(&p);
    /* an array element by index; an index out of the array is refused naming the key */
    rc = read_plan("{\"format\": \"mech-sweep\", \"scenario\": \"@S@\", \"vary\": {"
                   "\"vehicles.active.inertia.3\": {\"grid\": [1e5]}}}", "fixtures/mech/dock/s3-A.json", &p, &err);
    assert_int_equal(rc, HY_EPARSE);
    assert_non_null(strstr(err.msg, "vary.vehicles.active.inertia.3: '3' is not an index of that array (0..2)"));
    rc = read_plan("{\"format\": \"mech-sweep\", \"scenario\": \"@S@\", \"vary\": {"
                   "\"vehicles.active.inertia.1\": {\"grid\": [1e5, 2e5]}}}", "fixtures/mech/dock/s3-A.json", &p, &err);
    if (rc != HY_OK)
        fail_msg("%s", err.msg);
    t = mech_sweep_scenario(&p, 1, &err);
    assert_non_null(strstr(t, "\"inertia\":[60000,200000,320000]"));
    free(t);
    mech_sweep_plan_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sobol_first_points),          cmocka_unit_test(sobol_scrambled_is_a_net),
        cmocka_unit_test(lhs_is_stratified),           cmocka_unit_test(random_is_per_run),
        cmocka_unit_test(distributions_have_their_moments), cmocka_unit_test(wilson_matches_newcombe),
        cmocka_unit_test(spearman_cases),              cmocka_unit_test(envelope_equals_full_grid),
        cmocka_unit_test(owen_is_a_bijection_per_level), cmocka_unit_test(plan_runs_and_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

// Stage A of the kinematic-ODE fit: polynomial smoother per branch, degree by GCV, finite differences, branches.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include "hyst/kinfit.h"
#include "kinfit_testdata.h"

/* a cubic with a known derivative on an uneven grid (denser at the ends, as a sinusoidal drive samples) */
static double cubic(double x) { return 3.0 - 2.0 * x + 0.5 * x * x + 4.0 * x * x * x; }
static double dcubic(double x) { return -2.0 + x + 12.0 * x * x; }

static void fixed_degree_is_exact_on_a_polynomial(void **state)
{
    (void)state;
    enum { N = 200 };
    double q[N], f[N], y[N], xi[N];
    for (int l = 0; l < N; l++) {
        q[l] = 5.0 + 2.0 * cos(M_PI * l / (N - 1)); /* decreasing, 3..7: an unloading-like branch */
        f[l] = cubic(q[l]);
    }
    int deg = 0;
    assert_int_equal(hy_kinfit_smooth(q, f, N, 3, 0, y, xi, &deg, NULL), HY_OK);
    assert_int_equal(deg, 3);
    for (int l = 0; l < N; l++) {
        assert_true(fabs(y[l] - f[l]) < 1e-9 * 300);
        assert_true(fabs(xi[l] - dcubic(q[l])) < 1e-8 * 600);
    }
    /* a higher fixed degree is still exact (the extra coefficients vanish) */
    assert_int_equal(hy_kinfit_smooth(q, f, N, 7, 0, NULL, xi, &deg, NULL), HY_OK);
    for (int l = 0; l < N; l++)
        assert_true(fabs(xi[l] - dcubic(q[l])) < 1e-6 * 600);
}

/* GCV on noisy cubic data: picks a low degree near 3 (not the cap) and the slopes beat finite differences by far. */
static void gcv_picks_the_degree_and_smooths_noise(void **state)
{
    (void)state;
    enum { N = 400 };
    double q[N], f[N], xi[N], xfd[N];
    td_rng rng = {42};
    for (int l = 0; l < N; l++) {
        q[l] = -1.0 + 2.0 * l / (N - 1);
        f[l] = cubic(q[l]) + 0.05 * td_normal(&rng);
    }
    int deg = 0;
    assert_int_equal(hy_kinfit_smooth(q, f, N, HY_KINFIT_SMOOTH_AUTO, 10, NULL, xi, &deg, NULL), HY_OK);
    assert_true(deg >= 3 && deg <= 5);
    double e_s = 0, e_fd = 0;
    assert_true(hy_kinfit_slopes_fd(q, f, N, xfd) == N);
    for (int l = 5; l < N - 5; l++) {
        e_s = fmax(e_s, fabs(xi[l] - dcubic(q[l])));
        e_fd = fmax(e_fd, fabs(xfd[l] - dcubic(q[l])));
    }
    assert_true(e_s < 0.5);
    assert_true(e_fd > 5 * e_s);
    /* on noise-free linear data GCV stays at degree 1 */
    for (int l = 0; l < N; l++)
        f[l] = 2.0 + 7.0 * q[l];
    assert_int_equal(hy_kinfit_smooth(q, f, N, HY_KINFIT_SMOOTH_AUTO, 10, NULL, xi, &deg, NULL), HY_OK);
    assert_int_equal(deg, 1);
    assert_true(fabs(xi[N / 2] - 7.0) < 1e-9);
}

/* central differences are exact for a quadratic on any grid at interior points: (f(b) - f(a)) / (b - a) is the
 * derivative at (a + b) / 2, so test on a uniform grid; a repeated q gives NaN */
static void finite_differences(void **state)
{
    (void)state;
    double q[6] = {0, 1, 2, 3, 3, 4}, f[6], xi[6];
    for (int l = 0; l < 6; l++)
        f[l] = q[l] * q[l];
    size_t good = hy_kinfit_slopes_fd(q, f, 6, xi);
    assert_true(fabs(xi[1] - 2.0) < 1e-12);
    assert_true(fabs(xi[2] - 4.0) < 1e-12);   /* (9 - 1) / (3 - 1) */
    assert_true(fabs(xi[0] - 1.0) < 1e-12);   /* one-sided at the start */
    assert_true(isnan(xi[3]) == 0);           /* neighbours 2 and 3: (9 - 4) / 1 */
    assert_true(fabs(xi[4] - 7.0) < 1e-12);   /* neighbours 3 and 4 */
    assert_int_equal(good, 6);
    double q2[3] = {1, 1, 1}, f2[3] = {0, 1, 2}, x2[3];
    assert_int_equal(hy_kinfit_slopes_fd(q2, f2, 3, x2), 0);
    assert_true(isnan(x2[1]));
}

static void short_or_flat_branches_are_refused(void **state)
{
    (void)state;
    double q[4] = {0, 1, 2, 3}, f[4] = {0, 1, 4, 9}, xi[4];
    hy_err err;
    assert_int_equal(hy_kinfit_smooth(q, f, 4, 3, 0, NULL, xi, NULL, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "too short"));
    double qc[5] = {1, 1, 1, 1, 1}, fc[5] = {0, 1, 2, 3, 4}, xc[5];
    assert_int_equal(hy_kinfit_smooth(qc, fc, 5, 1, 0, NULL, xc, NULL, &err), HY_EDATA);
    assert_int_equal(hy_kinfit_smooth(q, f, 4, 0, 0, NULL, xi, NULL, &err), HY_EARG);
    assert_int_equal(hy_kinfit_smooth(q, f, 4, HY_KINFIT_SMOOTH_AUTO, 99, NULL, xi, NULL, &err), HY_EARG);
}

/* Branches of a record: every half-cycle (loading +1, unloading -1), or the limit loop only. On a record of the
 * paper's law the smoothed slopes match R_s(q, f) closely away from the reversals. */
static void collect_branches_of_a_record(void **state)
{
    (void)state;
    enum { CAP = 8000 };
    static double q[CAP], f[CAP];
    static int s[CAP];
    hy_kin_coeffs C;
    td_paper_coeffs(&C);
    const double tp[] = {0.0, 0.4, -0.4, 0.4, -0.4, 0.1, -0.2, 0.4};
    size_t n = td_record(&C, tp, 8, 0.0, 0.4 / 250, 8, q, f, s, CAP);
    hy_kinfit_opts o;
    hy_kinfit_opts_default(&o);
    hy_kinfit_points p;
    hy_err err;
    assert_int_equal(hy_kinfit_collect(q, f, n, &o, &p, &err), HY_OK);
    assert_int_equal(p.n_branches, 7);   /* 0->0.4, 4 limit half-cycles, 3 inner ones */
    size_t up = 0, down = 0, close = 0, inner = 0;
    for (size_t l = 0; l < p.n; l++) {
        if (p.s[l] > 0)
            up++;
        else
            down++;
        if (fabs(p.q[l]) < 0.3) {
            inner++;
            double r = td_R(&C, p.s[l], p.q[l], p.f[l]);
            if (fabs(p.xi[l] - r) < 0.05 * fabs(r) + 2.0)
                close++;
        }
    }
    assert_true(up > 1000 && down > 1000);
    assert_true(close > 0.8 * inner);
    hy_kinfit_points_free(&p);

    o.branches = HY_KINFIT_BRANCHES_LIMIT;
    assert_int_equal(hy_kinfit_collect(q, f, n, &o, &p, &err), HY_OK);
    assert_int_equal(p.n_branches, 2);
    hy_kinfit_points_free(&p);

    /* constant displacement: a clear error */
    for (size_t i = 0; i < n; i++)
        q[i] = 0.25;
    assert_int_equal(hy_kinfit_collect(q, f, n, &o, &p, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "constant"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fixed_degree_is_exact_on_a_polynomial),
        cmocka_unit_test(gcv_picks_the_degree_and_smooths_noise),
        cmocka_unit_test(finite_differences),
        cmocka_unit_test(short_or_flat_branches_are_refused),
        cmocka_unit_test(collect_branches_of_a_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

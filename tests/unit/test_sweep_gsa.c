/* Global sensitivity and rare-event methods of mech sweep (issue 43 items 2-3): Sobol' indices from the Saltelli
 * design against the closed forms of the Ishigami function (Ishigami and Homma 1990; a = 7, b = 0.1) and of a linear
 * model, each inside its bootstrap interval, with the wrong estimator (A and B swapped) shown outside it; Morris
 * elementary effects on a function with known effects; subset simulation against a linear limit state in standard
 * normals, P = Phi(-beta) at 1e-4, 1e-5 and 1e-6, within two of its own coefficients of variation. Every number is
 * deterministic (counter-based random numbers keyed by fixed seeds). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <gsl/gsl_cdf.h>
#include "mech/sweep.h"
#include "mech/sweep_morris.h"
#include "mech/sweep_sobol.h"
#include "mech/sweep_subset.h"

static void near(double a, double b, double tol)
{
    if (!(fabs(a - b) <= tol))
        fail_msg("%.17g != %.17g (tol %g)", a, b, tol);
}

static void inside(const char *what, double x, double lo, double hi)
{
    if (!(x >= lo && x <= hi))
        fail_msg("%s: %.6f outside the bootstrap interval [%.6f, %.6f]", what, x, lo, hi);
}

/* ---- Sobol' indices ---- */

#define ISH_A 7.0
#define ISH_B 0.1

static double ishigami(const double *u)
{
    double x1 = M_PI * (2 * u[0] - 1), x2 = M_PI * (2 * u[1] - 1), x3 = M_PI * (2 * u[2] - 1);
    return sin(x1) + ISH_A * sin(x2) * sin(x2) + ISH_B * pow(x3, 4) * sin(x1);
}

// the closed form (Sobol' and Levitan 1999; Saltelli et al. 2008 §4.6)
static void ishigami_exact(double s1[3], double st[3])
{
    double pi4 = pow(M_PI, 4), pi8 = pi4 * pi4;
    double v1 = 0.5 * pow(1 + ISH_B * pi4 / 5, 2), v2 = ISH_A * ISH_A / 8, v13 = ISH_B * ISH_B * pi8 * 8 / 225;
    double v = v1 + v2 + v13;
    s1[0] = v1 / v, s1[1] = v2 / v, s1[2] = 0;
    st[0] = (v1 + v13) / v, st[1] = v2 / v, st[2] = v13 / v;
}

// (model, N, d, seed) => f over the Saltelli design (malloc'd)
static double *design_eval(double (*fn)(const double *), size_t N, int d, uint64_t seed)
{
    size_t runs = N * (size_t)(d + 2);
    double *u = malloc(runs * (size_t)d * sizeof *u), *f = malloc(runs * sizeof *f);
    hy_err err;
    assert_non_null(u);
    assert_non_null(f);
    assert_int_equal(mech_sobol_design(N, d, seed, u, &err), HY_OK);
    for (size_t r = 0; r < runs; r++)
        f[r] = fn(u + r * (size_t)d);
    free(u);
    return f;
}

static void sobol_design_layout(void **state)
{
    (void)state;
    size_t N = 16;
    int d = 3;
    double *u = malloc(N * 5 * 3 * sizeof *u);
    hy_err err;
    assert_int_equal(mech_sobol_design(N, d, 7, u, &err), HY_OK);
    for (size_t j = 0; j < N; j++)
        for (int i = 0; i < d; i++)
            for (int k = 0; k < d; k++) {   /* A_B^i = A with column i from B */
                double want = k == i ? u[(N + j) * 3 + (size_t)k] : u[j * 3 + (size_t)k];
                near(u[(2 * N + (size_t)i * N + j) * 3 + (size_t)k], want, 0);
            }
    /* A's first column: 16 scrambled Sobol points, one in each sixteenth (the net property the design keeps) */
    int cnt[16] = {0};
    for (size_t j = 0; j < N; j++)
        cnt[(int)(u[j * 3] * 16)]++;
    for (int k = 0; k < 16; k++)
        assert_int_equal(cnt[k], 1);
    assert_int_equal(mech_sobol_design(N, 21, 7, u, &err), HY_EARG);
    free(u);
}

static void sobol_ishigami(void **state)
{
    (void)state;
    /* N = 2^13 rows (40960 evaluations), 1000 bootstrap resamples, 95 % percentile intervals */
    size_t N = 8192;
    double *f = design_eval(ishigami, N, 3, 2026);
    mech_sobol_index ix[3];
    assert_int_equal(mech_sobol_indices(f, N, 3, 1000, 11, 0.95, ix), (long)N);
    double s1[3], st[3];
    ishigami_exact(s1, st);
    near(s1[0], 0.3139, 1e-4), near(s1[1], 0.4424, 1e-4), near(st[0], 0.5576, 1e-4), near(st[2], 0.2437, 1e-4);
    char w[64];
    for (int i = 0; i < 3; i++) {
        print_message("x%d: S1 %.4f [%.4f, %.4f] (exact %.4f); ST %.4f [%.4f, %.4f] (exact %.4f)\n", i + 1, ix[i].s1,
                      ix[i].s1_lo, ix[i].s1_hi, s1[i], ix[i].st, ix[i].st_lo, ix[i].st_hi, st[i]);
        snprintf(w, sizeof w, "S1 of x%d", i + 1);
        inside(w, s1[i], ix[i].s1_lo, ix[i].s1_hi);
        snprintf(w, sizeof w, "ST of x%d", i + 1);
        inside(w, st[i], ix[i].st_lo, ix[i].st_hi);
        /* the intervals say something: narrower than 0.1 (about 0.06 at this N) */
        assert_true(ix[i].s1_hi - ix[i].s1_lo < 0.1 && ix[i].st_hi - ix[i].st_lo < 0.1);
    }
    /* a wrong estimator falls outside: A and B swapped (the rows of A_B^i then differ from the "A" block in all
       but one column), the first-order estimate of x1 becomes 1 - ST1 = 0.442 and the total of x3 becomes
       1 - S1_3 = 1 */
    double *g = malloc(N * 5 * sizeof *g);
    for (size_t j = 0; j < N; j++)
        g[j] = f[N + j], g[N + j] = f[j];
    for (size_t j = 2 * N; j < 5 * N; j++)
        g[j] = f[j];
    mech_sobol_index sw[3];
    mech_sobol_indices(g, N, 3, 0, 11, 0.95, sw);
    assert_false(sw[0].s1 >= ix[0].s1_lo && sw[0].s1 <= ix[0].s1_hi);
    assert_false(sw[2].st >= ix[2].st_lo && sw[2].st <= ix[2].st_hi);
    free(g);
    free(f);
}

static const double lin_c[4] = {1, 2, -3, 0.5};
static double linear(const double *u)
{
    double y = 0;
    for (int i = 0; i < 4; i++)   /* x_i uniform on (0, 1): V_i = c_i^2 / 12, no interactions */
        y += lin_c[i] * u[i];
    return y;
}

static void sobol_linear(void **state)
{
    (void)state;
    size_t N = 4096;
    double *f = design_eval(linear, N, 4, 5);
    mech_sobol_index ix[4];
    assert_int_equal(mech_sobol_indices(f, N, 4, 1000, 3, 0.95, ix), (long)N);
    double c2 = 0;
    for (int i = 0; i < 4; i++)
        c2 += lin_c[i] * lin_c[i];
    char w[64];
    for (int i = 0; i < 4; i++) {
        double s = lin_c[i] * lin_c[i] / c2;   /* S_i = ST_i = c_i^2 / sum c^2 */
        print_message("x%d: S1 %.4f [%.4f, %.4f]; ST %.4f [%.4f, %.4f]; exact %.4f\n", i + 1, ix[i].s1, ix[i].s1_lo,
                      ix[i].s1_hi, ix[i].st, ix[i].st_lo, ix[i].st_hi, s);
        snprintf(w, sizeof w, "S1 of x%d", i + 1);
        inside(w, s, ix[i].s1_lo, ix[i].s1_hi);
        snprintf(w, sizeof w, "ST of x%d", i + 1);
        inside(w, s, ix[i].st_lo, ix[i].st_hi);
        assert_true(ix[i].s1_hi - ix[i].s1_lo < 0.1 && ix[i].st_hi - ix[i].st_lo < 0.1);
    }
    /* a non-finite value drops its whole row: the estimate still uses the others */
    f[2 * N + 3] = NAN;
    assert_int_equal(mech_sobol_indices(f, N, 4, 0, 3, 0.95, ix), (long)N - 1);
    free(f);
}

/* ---- Morris ---- */

static double morris_fn(const double *u)
{
    return 3 * u[0] - 2 * u[1] + 4 * u[2] * u[3];   /* u[4] inert */
}

static void morris_known(void **state)
{
    (void)state;
    size_t r = 200;
    int d = 5;
    size_t runs = r * 6;
    double *u = malloc(runs * 5 * sizeof *u), *f = malloc(runs * sizeof *f);
    int *order = malloc(r * 5 * sizeof *order);
    hy_err err;
    assert_int_equal(mech_morris_design(r, d, 4, 99, u, order, &err), HY_OK);
    for (size_t t = 0; t < r; t++) {
        int moved[5] = {0};
        for (int k = 0; k < d; k++) {   /* one key per step, by +1/2, every value a level centre in (0, 1) */
            const double *a = u + (t * 6 + (size_t)k) * 5, *b = a + 5;
            int nd = 0;
            for (int i = 0; i < d; i++) {
                if (a[i] != b[i]) {
                    nd++;
                    near(b[i] - a[i], 0.5, 0);
                    assert_int_equal(i, order[t * 5 + (size_t)k]);
                    moved[i]++;
                }
                double l = b[i] * 4 - 0.5;
                near(l, round(l), 1e-12);
                assert_true(b[i] > 0 && b[i] < 1);
            }
            assert_int_equal(nd, 1);
        }
        for (int i = 0; i < d; i++)
            assert_int_equal(moved[i], 1);
    }
    for (size_t k = 0; k < runs; k++)
        f[k] = morris_fn(u + k * 5);
    mech_morris_effect e[5];
    mech_morris_effects(f, u, r, d, e);
    /* linear keys: every elementary effect is the coefficient */
    near(e[0].mu_star, 3, 1e-12), near(e[0].mu, 3, 1e-12), near(e[0].sigma, 0, 1e-12);
    near(e[1].mu_star, 2, 1e-12), near(e[1].mu, -2, 1e-12), near(e[1].sigma, 0, 1e-12);
    near(e[4].mu_star, 0, 0), near(e[4].sigma, 0, 0);
    /* the interaction: EE_3 = 4 x4, x4 equally likely on the four levels (moved before or after key 3):
       mu* = 4 E[x4] = 2, sigma = 4 sd(x4) = 4 sqrt(5/64) = 1.118; within 4 standard errors over 200 effects */
    double sd = 4 * sqrt(5.0 / 64);
    near(e[2].mu_star, 2, 4 * sd / sqrt(200));
    near(e[3].mu_star, 2, 4 * sd / sqrt(200));
    near(e[2].sigma, sd, 0.15);
    assert_int_equal(e[2].n, 200);
    assert_int_equal(mech_morris_design(r, d, 5, 99, u, order, &err), HY_EARG);
    free(u), free(f), free(order);
}

/* ---- subset simulation ---- */

static void subset_case(double beta, int d, uint64_t seed)
{
    mech_subset s;
    hy_err err;
    assert_int_equal(mech_subset_init(&s, d, 1000, 0.1, 10, seed, &err), HY_OK);
    size_t *ids = malloc(1000 * sizeof *ids), nb;
    while ((nb = mech_subset_next(&s, ids)) > 0)
        for (size_t k = 0; k < nb; k++) {   /* g = beta - sum z / sqrt(d): failure g <= 0, P = Phi(-beta) */
            const double *z = s.z + ids[k] * (size_t)d;
            double sum = 0;
            for (int i = 0; i < d; i++)
                sum += z[i];
            s.g[ids[k]] = beta - sum / sqrt(d);
        }
    double p = gsl_cdf_ugaussian_Q(beta);
    print_message("beta %.3f, d %d: P %.4g (exact %.4g), c.o.v. %.3f, %d levels, %zu evaluations, error %.2f c.o.v.\n",
                  beta, d, s.pf, p, s.cov, s.levels, s.neval, fabs(s.pf / p - 1) / s.cov);
    assert_true(s.done);
    assert_true(s.neval <= 10000);
    assert_true(s.cov > 0.1 && s.cov < 0.6);   /* Au & Beck's estimate at n = 1000: ~0.3 at 1e-5 */
    if (!(fabs(s.pf / p - 1) <= 2 * s.cov))
        fail_msg("P = %.4g, exact %.4g: more than 2 c.o.v. (%.3f) off", s.pf, p, s.cov);
    free(ids);
    mech_subset_free(&s);
}

static void subset_linear(void **state)
{
    (void)state;
    subset_case(3.719, 2, 1);    /* 1.0e-4 */
    subset_case(4.265, 2, 1);    /* 1.0e-5 */
    subset_case(4.753, 2, 1);    /* 1.0e-6 */
    subset_case(4.265, 10, 2);   /* the same in ten dimensions */
}

static void subset_settings(void **state)
{
    (void)state;
    mech_subset s;
    hy_err err;
    assert_int_equal(mech_subset_init(&s, 2, 1000, 0.15, 10, 1, &err), HY_EARG);   /* 1/p0 not an integer */
    assert_int_equal(mech_subset_init(&s, 2, 15, 0.1, 10, 1, &err), HY_EARG);      /* p0 n not an integer */
    assert_int_equal(mech_subset_max_evals(1000, 0.1, 5), 1000 + 4 * 900);
    /* a probability plain Monte Carlo sees: one level */
    assert_int_equal(mech_subset_init(&s, 1, 1000, 0.1, 10, 3, &err), HY_OK);
    size_t ids[1000], nb;
    while ((nb = mech_subset_next(&s, ids)) > 0)
        for (size_t k = 0; k < nb; k++)
            s.g[ids[k]] = 1 - s.z[ids[k]];   /* P = Phi(-1) = 0.159 */
    assert_int_equal(s.levels, 1);
    assert_int_equal(s.neval, 1000);
    near(s.cov, sqrt((1 - s.pf) / (s.pf * 1000)), 1e-15);
    near(s.pf, gsl_cdf_ugaussian_Q(1), 3 * sqrt(0.159 * 0.841 / 1000));
    mech_subset_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sobol_design_layout), cmocka_unit_test(sobol_ishigami), cmocka_unit_test(sobol_linear),
        cmocka_unit_test(morris_known),        cmocka_unit_test(subset_linear),  cmocka_unit_test(subset_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

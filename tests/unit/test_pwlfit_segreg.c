/* Single-branch continuous piecewise-linear least squares: sorted data and prefix sums against direct sums,
 * exact recovery of noise-free tables, and the global breakpoint search against exhaustive enumeration of every
 * breakpoint combination (each solved independently with a dense hat-function design matrix and the SVD). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/linalg.h"
#include "hyst/pwlfit.h"

static unsigned long long rng_state = 88172645463325252ULL;
static double urand(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}
static double nrand(void)
{
    double a = urand(), b = urand();
    return sqrt(-2.0 * log(a + 1e-300)) * cos(6.283185307179586 * b);
}

static double pwl(const double *t, const double *v, int S, double x)
{
    int i = 0;
    while (i < S - 1 && x >= t[i + 1])
        i++;
    return v[i] + (v[i + 1] - v[i]) * (x - t[i]) / (t[i + 1] - t[i]);
}

/* Data from several up/down runs pool into one sorted branch whose interval statistics equal direct sums. */
static void data_sorted_and_sums_exact(void **state)
{
    (void)state;
    enum { N = 500 };
    double q[N], Q[N];
    for (int i = 0; i < N; i++) {
        double ph = (double)i / 100.0;
        q[i] = 3.0 + 2.0 * sin(ph) + 0.01 * nrand();
        Q[i] = 5.0 * q[i] + nrand();
    }
    hy_pwlfit_part parts[2] = {{q, Q, 300, 1.0}, {q + 300, Q + 300, 200, -1.0}};
    hy_pwlfit_data d;
    assert_int_equal(hy_pwlfit_data_build(&d, parts, 2, NULL), HY_OK);
    assert_int_equal(d.n, N);
    for (size_t i = 1; i < d.n; i++)
        assert_true(d.u[i] >= d.u[i - 1]);
    /* the multiset is preserved: compare sums of u and of u*P */
    double s1 = 0, s2 = 0, t1 = 0, t2 = 0;
    for (int i = 0; i < N; i++) {
        double sg = i < 300 ? 1.0 : -1.0;
        s1 += sg * q[i];
        s2 += q[i] * Q[i];
    }
    for (size_t i = 0; i < d.n; i++) {
        t1 += d.u[i];
        t2 += d.u[i] * d.P[i];
    }
    assert_true(fabs(s1 - t1) < 1e-9 && fabs(s2 - t2) < 1e-6 * fabs(s2));
    size_t i0 = 37, i1 = 411;
    hy_pwlfit_stats st;
    hy_pwlfit_data_stats(&d, i0, i1, &st);
    double n = (double)(i1 - i0), mu = 0, mP = 0;
    for (size_t i = i0; i < i1; i++) {
        mu += d.u[i] / n;
        mP += d.P[i] / n;
    }
    double suu = 0, suP = 0, sPP = 0;
    for (size_t i = i0; i < i1; i++) {
        suu += (d.u[i] - mu) * (d.u[i] - mu);
        suP += (d.u[i] - mu) * (d.P[i] - mP);
        sPP += (d.P[i] - mP) * (d.P[i] - mP);
    }
    assert_true(fabs(st.um - mu) < 1e-12 && fabs(st.Pm - mP) < 1e-9);
    assert_true(fabs(st.suu - suu) < 1e-9 * suu && fabs(st.suP - suP) < 1e-8 * fabs(suP));
    assert_true(fabs(st.sPP - sPP) < 1e-8 * sPP);
    assert_int_equal(hy_pwlfit_data_find(&d, d.u[100]), 100 - 0 * 1);
    hy_pwlfit_data_free(&d);
}

/* Noise-free samples of a 4-segment table: the fit returns the table (breakpoints and ordinates). */
static void recovers_exact_table(void **state)
{
    (void)state;
    const double t[] = {0, 1.3, 2.0, 4.1, 6.0}, v[] = {0, 2.6, 3.0, 8.0, 8.5};
    enum { N = 601 };
    double q[N], Q[N];
    for (int i = 0; i < N; i++) {
        q[i] = 6.0 * i / (N - 1);
        Q[i] = pwl(t, v, 4, q[i]);
    }
    hy_pwlfit_part part = {q, Q, N, 1.0};
    hy_pwlfit_data d;
    assert_int_equal(hy_pwlfit_data_build(&d, &part, 1, NULL), HY_OK);
    double tf[5], vf[5], sse;
    assert_int_equal(hy_pwlfit_segreg(&d, 4, 0, tf, vf, &sse, NULL), HY_OK);
    assert_true(sse < 1e-9);   /* sum of squared forces is 2e4: relative 5e-14 */
    for (int i = 0; i < 5; i++) {
        assert_true(fabs(tf[i] - t[i]) < 1e-6);
        assert_true(fabs(vf[i] - v[i]) < 1e-6);
    }
    /* fixed-knot solve at the true knots: exact ordinates */
    assert_int_equal(hy_pwlfit_segreg_solve(&d, 4, t, vf, &sse, NULL), HY_OK);
    for (int i = 0; i < 5; i++)
        assert_true(fabs(vf[i] - v[i]) < 1e-10);
    hy_pwlfit_data_free(&d);
}

/* Independent reference: dense hat-function design matrix, SVD least squares, squared error. */
static double dense_sse(const double *x, const double *y, int n, const double *t, int S)
{
    double *A = calloc((size_t)n * (size_t)(S + 1), sizeof *A), *b = malloc((size_t)n * sizeof *b), c[40];
    for (int i = 0; i < n; i++) {
        int k = 0;
        while (k < S - 1 && x[i] >= t[k + 1])
            k++;
        double lam = (x[i] - t[k]) / (t[k + 1] - t[k]);
        A[i * (S + 1) + k] = 1.0 - lam;
        A[i * (S + 1) + k + 1] = lam;
        b[i] = y[i];
    }
    double *A0 = malloc((size_t)n * (size_t)(S + 1) * sizeof *A0);
    memcpy(A0, A, (size_t)n * (size_t)(S + 1) * sizeof *A0);
    hy_lstsq_svd(A, (size_t)n, (size_t)(S + 1), b, 1e-13, c, NULL, NULL);
    double e = 0;
    for (int i = 0; i < n; i++) {
        double f = 0;
        for (int j = 0; j <= S; j++)
            f += A0[i * (S + 1) + j] * c[j];
        e += (f - y[i]) * (f - y[i]);
    }
    free(A);
    free(A0);
    free(b);
    return e;
}

/* Exhaustive search over all breakpoint combinations at midpoints between samples: the DP + refinement result
 * is at least as good (SSE within 0.1 %) on several small noisy problems, including ones with a wiggle that
 * traps a local search. */
static void dp_reaches_exhaustive_optimum(void **state)
{
    (void)state;
    for (int trial = 0; trial < 6; trial++) {
        enum { N = 36 };
        int S = trial < 3 ? 3 : 4;
        double x[N], y[N];
        for (int i = 0; i < N; i++) {
            x[i] = (double)i / (N - 1) + 0.004 * urand();
            double tt = x[i];
            y[i] = trial % 3 == 0   ? (tt < 0.3 ? 2 * tt : tt < 0.7 ? 0.6 - 0.5 * (tt - 0.3) : 0.4 + 3 * (tt - 0.7))
                   : trial % 3 == 1 ? sin(7.0 * tt) + 0.3 * tt
                                    : fabs(tt - 0.5) + 0.2 * sin(25 * tt);
            y[i] += 0.03 * nrand();
        }
        hy_pwlfit_part part = {x, y, N, 1.0};
        hy_pwlfit_data d;
        assert_int_equal(hy_pwlfit_data_build(&d, &part, 1, NULL), HY_OK);
        double t[6], v[6], sse;
        assert_int_equal(hy_pwlfit_segreg(&d, S, 0, t, v, &sse, NULL), HY_OK);
        /* our own answer re-evaluated independently */
        double sse_dense = dense_sse(d.u, d.P, N, t, S);
        assert_true(fabs(sse_dense - sse) <= 1e-9 * (1 + sse));
        double mids[N], best = INFINITY;
        for (int i = 0; i + 1 < N; i++)
            mids[i] = 0.5 * (d.u[i] + d.u[i + 1]);
        double tk[6];
        tk[0] = d.u[0];
        tk[S] = d.u[N - 1];
        for (int a = 0; a < N - 1; a++)
            for (int b = a + 1; b < N - 1; b++) {
                tk[1] = mids[a];
                tk[2] = mids[b];
                if (S == 3) {
                    double e = dense_sse(d.u, d.P, N, tk, S);
                    best = e < best ? e : best;
                    continue;
                }
                for (int c = b + 1; c < N - 1; c++) {
                    tk[3] = mids[c];
                    double e = dense_sse(d.u, d.P, N, tk, S);
                    best = e < best ? e : best;
                }
            }
        print_message("trial %d S=%d: fit %.6g exhaustive %.6g\n", trial, S, sse, best);
        assert_true(sse <= best * 1.001);
        hy_pwlfit_data_free(&d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(data_sorted_and_sums_exact),
        cmocka_unit_test(recovers_exact_table),
        cmocka_unit_test(dp_reaches_exhaustive_optimum),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

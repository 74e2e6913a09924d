/* The constrained F/B fit of one side (spec 000 §2) on branches sampled from known tables: exact recovery
 * without noise, breakpoints within 2 % of the range and RMS at the noise level with noise, the beyond-range
 * segment found inside the data, the constraints kept (slopes <= k_max, B never above F), the friction kind with
 * its plateau, and the breakpoint search against exhaustive enumeration with an independent dense solver. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/linalg.h"
#include "hyst/pwl.h"
#include "hyst/pwlfit.h"

static unsigned long long rng_state = 0x9E3779B97F4A7C15ULL;
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

/* A true side table in mirrored coordinates (independent evaluation for the tests). */
typedef struct truth {
    int n;
    double uF[8], PF[8], uB[8], PB[8], kb;
} truth;

static double truth_eval(const truth *t, int w, double u)
{
    const double *x = w ? t->uB : t->uF, *v = w ? t->PB : t->PF;
    if (u <= x[0])
        return 0.0;
    if (u >= x[t->n - 1])
        return v[t->n - 1] + t->kb * (u - x[t->n - 1]);
    int i = 0;
    while (u > x[i + 1])
        i++;
    return v[i] + (v[i + 1] - v[i]) * (u - x[i]) / (x[i + 1] - x[i]);
}

/* b = 0.5, common to (1, 1); F (3, 6) (6, 9) (8, 15); B (4, 3) (6.5, 6) (8, 15); k = 6 (largest slope). */
static const truth T4 = {5, {0.5, 1, 3, 6, 8}, {0, 1, 6, 9, 15}, {0.5, 1, 4, 6.5, 8}, {0, 1, 3, 6, 15}, 6.0};

// (truth, amplitude, samples per branch, noise sd) => F and B data (uniform in u, plus noise)
static void make_data(const truth *t, double amp, int m, double sd, hy_pwlfit_data *F, hy_pwlfit_data *B)
{
    double *u = malloc((size_t)m * sizeof *u), *P = malloc((size_t)m * sizeof *P);
    for (int w = 0; w < 2; w++) {
        for (int i = 0; i < m; i++) {
            u[i] = amp * i / (m - 1);   /* the reversal point itself is a sample, as in a cyclic test */
            P[i] = truth_eval(t, w, u[i]) + sd * nrand();
        }
        hy_pwlfit_part part = {u, P, (size_t)m, 1.0};
        assert_int_equal(hy_pwlfit_data_build(w ? B : F, &part, 1, NULL), HY_OK);
    }
    free(u);
    free(P);
}

static void spec_default(hy_pwlfit_side_spec *s, int S)
{
    memset(s, 0, sizeof *s);
    s->kind = HY_PWL_CONSTANT;
    s->segments_F = S;
    s->segments_B = S;
}

// (fitted side) => the model accepts it as a table (both sides the same, mirrored)
static void accepted_by_model(const hy_pwlfit_side *s, hy_pwl_kind kind)
{
    double qF[2][HY_PWLFIT_MAX_POINTS], QF[2][HY_PWLFIT_MAX_POINTS], qB[2][HY_PWLFIT_MAX_POINTS],
        QB[2][HY_PWLFIT_MAX_POINTS];
    for (int k = 0; k < 2; k++) {
        double sg = k ? -1.0 : 1.0;
        for (int i = 0; i < s->nF; i++) {
            qF[k][i] = sg * s->uF[i];
            QF[k][i] = i ? sg * s->PF[i] : 0.0;
        }
        for (int i = 0; i < s->nB; i++) {
            qB[k][i] = sg * s->uB[i];
            QB[k][i] = i ? sg * s->PB[i] : 0.0;
        }
    }
    hy_pwl_table t = {kind,
                      {{(size_t)s->nF, qF[0], QF[0]}, {(size_t)s->nB, qB[0], QB[0]}, s->k_beyond},
                      {{(size_t)s->nF, qF[1], QF[1]}, {(size_t)s->nB, qB[1], QB[1]}, s->k_beyond}};
    hy_pwl_model *m = NULL;
    hy_err err;
    int rc = hy_pwl_model_new(&t, "fit", &m, &err);
    if (rc)
        print_message("model rejected the fit: %s\n", err.msg);
    assert_int_equal(rc, HY_OK);
    hy_pwl_model_free(m);
}

static void exact_table_recovered(void **state)
{
    (void)state;
    hy_pwlfit_data F, B;
    make_data(&T4, 8.0, 800, 0.0, &F, &B);
    hy_pwlfit_side_spec sp;
    spec_default(&sp, 4);
    hy_pwlfit_side s;
    assert_int_equal(hy_pwlfit_side_fit(&F, &B, &sp, &s, NULL), HY_OK);
    assert_int_equal(s.nF, 5);
    assert_int_equal(s.nB, 5);
    for (int i = 0; i < 5; i++) {
        assert_true(fabs(s.uF[i] - T4.uF[i]) < 1e-5 && fabs(s.PF[i] - T4.PF[i]) < 1e-5);
        assert_true(fabs(s.uB[i] - T4.uB[i]) < 1e-5 && fabs(s.PB[i] - T4.PB[i]) < 1e-5);
    }
    assert_true(fabs(s.k_beyond - 6.0) < 1e-5);
    assert_true(s.F.rms < 1e-6 && s.B.rms < 1e-6);
    accepted_by_model(&s, HY_PWL_CONSTANT);
    hy_pwlfit_data_free(&F);
    hy_pwlfit_data_free(&B);
}

static void noisy_table_within_tolerances(void **state)
{
    (void)state;
    for (int trial = 0; trial < 3; trial++) {
        double sd = 15.0 * (trial == 0 ? 0.005 : trial == 1 ? 0.01 : 0.02);   /* 0.5, 1, 2 % of the peak force */
        hy_pwlfit_data F, B;
        make_data(&T4, 8.0, 1500, sd, &F, &B);
        hy_pwlfit_side_spec sp;
        spec_default(&sp, 4);
        hy_pwlfit_side s;
        assert_int_equal(hy_pwlfit_side_fit(&F, &B, &sp, &s, NULL), HY_OK);
        double worst = 0;
        for (int i = 0; i < 5; i++) {
            worst = fmax(worst, fabs(s.uF[i] - T4.uF[i]));
            worst = fmax(worst, fabs(s.uB[i] - T4.uB[i]));
        }
        print_message("noise %.3g: worst breakpoint error %.4g (%.2f %% of range), rms F %.4g B %.4g\n", sd, worst,
                      100 * worst / 8.0, s.F.rms, s.B.rms);
        assert_true(worst <= 0.02 * 8.0);
        assert_true(s.F.rms <= 1.2 * sd && s.B.rms <= 1.2 * sd);
        assert_true(s.F.rms >= 0.8 * sd && s.B.rms >= 0.8 * sd);   /* not fitting the noise */
        accepted_by_model(&s, HY_PWL_CONSTANT);
        hy_pwlfit_data_free(&F);
        hy_pwlfit_data_free(&B);
    }
}

/* The drive went beyond the working range (amplitude 10 > x_n = 8): F and B coincide on the beyond line there,
 * and the fit places the last point inside the data. */
static void beyond_segment_inside_data(void **state)
{
    (void)state;
    hy_pwlfit_data F, B;
    make_data(&T4, 10.0, 1500, 0.1, &F, &B);
    hy_pwlfit_side_spec sp;
    spec_default(&sp, 4);
    hy_pwlfit_side s;
    assert_int_equal(hy_pwlfit_side_fit(&F, &B, &sp, &s, NULL), HY_OK);
    print_message("beyond: x_n %.4g k %.4g start %d\n", s.uF[4], s.k_beyond, s.start);
    assert_true(fabs(s.uF[4] - 8.0) < 0.2);
    assert_true(fabs(s.k_beyond - 6.0) < 0.2);
    accepted_by_model(&s, HY_PWL_CONSTANT);
    hy_pwlfit_data_free(&F);
    hy_pwlfit_data_free(&B);
}

/* Data whose unconstrained fit would put a segment steeper than the last B segment and B above F near the
 * origin: the fit keeps the assumptions (ties, touches) and the model accepts it. */
static void constraints_are_kept(void **state)
{
    (void)state;
    /* F has a segment of slope 20 while the last B segment has slope 8: not a valid table (k_max = 8 must be
     * the largest slope), and B starts above F (1.2 against 1 at u = 1) */
    const truth bad = {5, {0, 1, 2, 6, 8}, {0, 1, 21, 23, 30}, {0, 1, 4, 6.5, 8}, {0, 1.2, 3, 18, 30}, 8.0};
    hy_pwlfit_data F, B;
    make_data(&bad, 8.0, 600, 0.05, &F, &B);
    hy_pwlfit_side_spec sp;
    spec_default(&sp, 4);
    sp.backlash_fixed = 1;
    hy_pwlfit_side s;
    assert_int_equal(hy_pwlfit_side_fit(&F, &B, &sp, &s, NULL), HY_OK);
    print_message("constrained: k %.4g ties %d touches %d\n", s.k_beyond, s.ties, s.touches);
    for (int i = 0; i + 1 < s.nF; i++)
        assert_true((s.PF[i + 1] - s.PF[i]) / (s.uF[i + 1] - s.uF[i]) <= s.k_beyond * (1 + 1e-9));
    for (int i = 0; i + 1 < s.nB; i++)
        assert_true((s.PB[i + 1] - s.PB[i]) / (s.uB[i + 1] - s.uB[i]) <= s.k_beyond * (1 + 1e-9));
    for (double u = 0; u <= 8; u += 0.01)
        assert_true(hy_pwlfit_side_eval(&s, 1, u) <= hy_pwlfit_side_eval(&s, 0, u) + 1e-9);
    accepted_by_model(&s, HY_PWL_CONSTANT);
    hy_pwlfit_data_free(&F);
    hy_pwlfit_data_free(&B);
}

/* Friction kind: F reaches the slip plateau at x_n = 6 (force 9) and stays there to 7.5; B comes back from x_n
 * (moved-back coordinates). x_n given, plateau level and branches recovered, k_beyond = 0. */
static void friction_plateau(void **state)
{
    (void)state;
    const truth fr = {5, {0.3, 1, 3, 5, 6}, {0, 2, 6, 7, 9}, {0.3, 1, 3.5, 5, 6}, {0, 2, 3, 4, 9}, 0.0};
    hy_pwlfit_data F, B;
    double *u = malloc(3000 * sizeof *u), *P = malloc(3000 * sizeof *P);
    for (int w = 0; w < 2; w++) {
        int m = 0;
        double amp = w ? 6.0 : 7.5;
        for (int i = 0; i < 1500; i++, m++) {
            u[m] = amp * (i + 0.5) / 1500;
            P[m] = truth_eval(&fr, w, u[m]) + 0.05 * nrand();
        }
        hy_pwlfit_part part = {u, P, (size_t)m, 1.0};
        assert_int_equal(hy_pwlfit_data_build(w ? &B : &F, &part, 1, NULL), HY_OK);
    }
    free(u);
    free(P);
    hy_pwlfit_side_spec sp;
    spec_default(&sp, 4);
    sp.kind = HY_PWL_FRICTION;
    sp.xn_fixed = 1;
    sp.xn = 6.0;
    hy_pwlfit_side s;
    assert_int_equal(hy_pwlfit_side_fit(&F, &B, &sp, &s, NULL), HY_OK);
    assert_true(s.k_beyond == 0.0);
    assert_true(fabs(s.PF[4] - 9.0) < 0.05);
    for (int i = 0; i < 5; i++)
        assert_true(fabs(s.uF[i] - fr.uF[i]) < 0.12 && fabs(s.uB[i] - fr.uB[i]) < 0.12);
    assert_true(fabs(s.k_max - 5.0) < 0.2);   /* largest working slope: the last B one, (9 - 4) / (6 - 5) */
    accepted_by_model(&s, HY_PWL_FRICTION);
    hy_pwlfit_data_free(&F);
    hy_pwlfit_data_free(&B);
}

/* ---- independent reference for the exhaustive search: dense design matrix of the parametrised side ---- */
typedef struct ref_knots {
    double b, x2, x3, x4, z3;   /* S = 3: F (b, x2, x3, x4), B (b, x2, z3, x4) */
} ref_knots;

/* prediction on branch w at u for parameters th = (k, y2, y3, y4, unused) */
static double ref_pred(const ref_knots *r, const double *th, int w, double u)
{
    double k = th[0], y2 = th[1], y3 = th[2], y4 = th[3];
    double xs[4] = {r->b, r->x2, w ? r->z3 : r->x3, r->x4};
    double vs[4] = {0, y2, w ? y4 - k * (r->x4 - r->z3) : y3, y4};
    if (u < xs[0])
        return 0.0;
    if (u >= xs[3])
        return y4 + k * (u - xs[3]);
    int i = u < xs[1] ? 0 : u < xs[2] ? 1 : 2;
    return vs[i] + (vs[i + 1] - vs[i]) * (u - xs[i]) / (xs[i + 1] - xs[i]);
}

// (knots, data) => least-squares error over the 4 parameters; feasible = slopes <= k and B <= F at the points
static double ref_sse(const ref_knots *r, const hy_pwlfit_data *F, const hy_pwlfit_data *B, int *feasible)
{
    enum { P = 4 };
    size_t m = F->n + B->n;
    double *A = malloc(m * P * sizeof *A), *A0 = malloc(m * P * sizeof *A), *b = malloc(m * sizeof *b), th[P];
    size_t row = 0;
    for (int w = 0; w < 2; w++) {
        const hy_pwlfit_data *d = w ? B : F;
        for (size_t i = 0; i < d->n; i++, row++) {
            for (int j = 0; j < P; j++) {
                double e[P] = {0, 0, 0, 0};
                e[j] = 1.0;
                A[row * P + j] = ref_pred(r, e, w, d->u[i]);
            }
            b[row] = d->P[i];
        }
    }
    memcpy(A0, A, m * P * sizeof *A);
    double *b0 = malloc(m * sizeof *b0);
    memcpy(b0, b, m * sizeof *b);
    hy_lstsq_svd(A, m, P, b, 1e-13, th, NULL, NULL);
    double e = 0;
    for (size_t i = 0; i < m; i++) {
        double f = 0;
        for (int j = 0; j < P; j++)
            f += A0[i * P + j] * th[j];
        e += (f - b0[i]) * (f - b0[i]);
    }
    /* feasibility of the unconstrained optimum */
    double k = th[0], yz = th[3] - k * (r->x4 - r->z3);
    double sl[5] = {th[1] / (r->x2 - r->b), (th[2] - th[1]) / (r->x3 - r->x2), (th[3] - th[2]) / (r->x4 - r->x3),
                    (yz - th[1]) / (r->z3 - r->x2), k};
    *feasible = 1;
    for (int i = 0; i < 5; i++)
        *feasible &= sl[i] <= k * (1 + 1e-9);
    *feasible &= ref_pred(r, th, 1, r->x3) <= ref_pred(r, th, 0, r->x3) + 1e-12;
    *feasible &= ref_pred(r, th, 1, r->z3) <= ref_pred(r, th, 0, r->z3) + 1e-12;
    free(A);
    free(A0);
    free(b);
    free(b0);
    return e;
}

static void dp_reaches_exhaustive_optimum(void **state)
{
    (void)state;
    /* S = 3 truth: b = 0, common to (1, 2); F (2.6, 6); B (3.1, 2.2); end (4, 9.4): k = (9.4 - 2.2) / 0.9 = 8 */
    const truth t3 = {4, {0, 1, 2.6, 4}, {0, 2, 6, 9.4}, {0, 1, 3.1, 4}, {0, 2, 2.2, 9.4}, 8.0};
    for (int trial = 0; trial < 3; trial++) {
        hy_pwlfit_data F, B;
        make_data(&t3, 4.0, 24, trial == 0 ? 0.2 : trial == 1 ? 0.5 : 0.9, &F, &B);
        hy_pwlfit_side_spec sp;
        spec_default(&sp, 3);
        sp.backlash_fixed = 1;
        sp.backlash = 0.0;
        hy_pwlfit_side s;
        assert_int_equal(hy_pwlfit_side_fit(&F, &B, &sp, &s, NULL), HY_OK);
        /* candidates: midpoints between the pooled sorted abscissae, and the data end for x4 */
        double c[64];
        int nc = 0;
        for (size_t i = 0; i + 1 < F.n; i++)
            c[nc++] = 0.5 * (F.u[i] + F.u[i + 1]);
        c[nc++] = F.u[F.n - 1];
        double best = INFINITY;
        ref_knots r = {0, 0, 0, 0, 0};
        for (int a = 0; a < nc; a++)
            for (int b = a + 1; b < nc; b++)
                for (int d = b + 1; d < nc; d++)
                    for (int z = a + 1; z < d; z++) {
                        r.x2 = c[a];
                        r.x3 = c[b];
                        r.x4 = c[d];
                        r.z3 = c[z];
                        int feas;
                        double e = ref_sse(&r, &F, &B, &feas);
                        if (feas && e < best)
                            best = e;
                    }
        print_message("trial %d: fit %.6g exhaustive %.6g (dp %.6g)\n", trial, s.sse, best, s.sse_dp);
        assert_true(s.sse <= best * 1.001);
        hy_pwlfit_data_free(&F);
        hy_pwlfit_data_free(&B);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exact_table_recovered),
        cmocka_unit_test(noisy_table_within_tolerances),
        cmocka_unit_test(beyond_segment_inside_data),
        cmocka_unit_test(constraints_are_kept),
        cmocka_unit_test(friction_plateau),
        cmocka_unit_test(dp_reaches_exhaustive_optimum),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

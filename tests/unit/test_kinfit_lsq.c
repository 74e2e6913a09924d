// Stage B of the kinematic-ODE fit: round trip of the paper's law with exact slopes, unscaling, the QR reduction.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include "hyst/kinfit.h"
#include "hyst/linalg.h"
#include "kinfit_testdata.h"

#define CAP 20000
static double q[CAP], f[CAP];
static int s[CAP];

/* limit loop at A = 0.45 (after a first cycle from the origin), then inner branches (spec 002 §6.2 B) */
static const double history[] = {0.0, 0.45, -0.45, 0.45, -0.45, 0.2, -0.1, 0.3, -0.3, 0.45};

// (law, first sample to use, rule of the pool) => points with exact slopes xi = R_s(q, f)
static void exact_points(const hy_kin_coeffs *C, size_t n, size_t from, hy_kinfit_points *p)
{
    hy_kinfit_points_init(p);
    for (size_t i = from; i < n; i++)
        assert_int_equal(hy_kinfit_points_push(p, q[i], f[i], td_R(C, s[i], q[i], f[i]), s[i], NULL), HY_OK);
}

static size_t paper_record(void)
{
    hy_kin_coeffs C;
    td_paper_coeffs(&C);
    return td_record(&C, history, (int)(sizeof history / sizeof history[0]), 0.0, 0.45 / 300, 8, q, f, s, CAP);
}

static void scales(const hy_kinfit_points *p, double *qs, double *fs)
{
    *qs = *fs = 0;
    for (size_t l = 0; l < p->n; l++) {
        *qs = fmax(*qs, fabs(p->q[l]));
        *fs = fmax(*fs, fabs(p->f[l]));
    }
}

/* spec 002 §6.2 B "Round trip": (k, m) = (6, 2) with exact slopes recovers all C_ij to 1e-3 absolute, the dropped
 * C31..C61 come back as ~0. */
static void round_trip_symmetric_with_inner_branches(void **state)
{
    (void)state;
    size_t n = paper_record();
    hy_kin_coeffs C, got;
    td_paper_coeffs(&C);
    hy_kinfit_points p;
    exact_points(&C, n, 0, &p);
    double qs, fs;
    scales(&p, &qs, &fs);
    hy_kinfit_design *D = malloc(sizeof *D);
    hy_err err;
    assert_int_equal(hy_kinfit_design_build(&p, 0, qs, fs, D, &err), HY_OK);
    hy_kinfit_lsq info;
    assert_int_equal(hy_kinfit_design_solve(D, hy_kinfit_mask_rect(6, 2), 1e-12, &got, &info, &err), HY_OK);
    assert_int_equal(got.k, 6);
    assert_int_equal(got.m, 2);
    assert_int_equal(info.rank, 12);
    assert_int_equal(info.unknowns, 12);
    assert_true(info.cond > 1.0 && isfinite(info.cond));
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 2; j++)
            assert_true(fabs(got.C[i][j] - C.C[i][j]) < 1e-3);
    assert_true(info.resid_rms < 1e-6);
    hy_kinfit_points_free(&p);
    hy_kinfit_design_free(D);
    free(D);
}

/* The limit loop alone (the steady part of the record only): exactly sampled, still recovered. */
static void round_trip_limit_loop_only(void **state)
{
    (void)state;
    size_t n = paper_record();
    hy_kin_coeffs C, got;
    td_paper_coeffs(&C);
    /* samples of the second cycle only: from the first q = -0.45 to the second */
    size_t i0 = 0, i1 = 0, seen = 0;
    for (size_t i = 0; i < n; i++)
        if (q[i] == -0.45 && ++seen == 1)
            i0 = i;
        else if (q[i] == -0.45 && seen == 2) {
            i1 = i;
            break;
        }
    assert_true(i1 > i0 + 100);
    hy_kinfit_points p;
    exact_points(&C, i1 + 1, i0, &p);
    double qs, fs;
    scales(&p, &qs, &fs);
    hy_kinfit_design *D = malloc(sizeof *D);
    assert_int_equal(hy_kinfit_design_build(&p, 0, qs, fs, D, NULL), HY_OK);
    hy_kinfit_lsq info;
    assert_int_equal(hy_kinfit_design_solve(D, hy_kinfit_mask_rect(6, 2), 1e-13, &got, &info, NULL), HY_OK);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 2; j++)
            assert_true(fabs(got.C[i][j] - C.C[i][j]) < 1e-3);
    hy_kinfit_points_free(&p);
    hy_kinfit_design_free(D);
    free(D);
}

/* Two-set rule: each branch family fitted alone; the unloading set is the mirror image C_ij (-1)^(i+j). */
static void two_set_fits_each_direction(void **state)
{
    (void)state;
    size_t n = paper_record();
    hy_kin_coeffs C, up, down;
    td_paper_coeffs(&C);
    hy_kinfit_points p;
    exact_points(&C, n, 0, &p);
    double qs, fs;
    scales(&p, &qs, &fs);
    hy_kinfit_design *D = malloc(sizeof *D);
    assert_int_equal(hy_kinfit_design_build(&p, +1, qs, fs, D, NULL), HY_OK);
    assert_int_equal(hy_kinfit_design_solve(D, hy_kinfit_mask_rect(6, 2), 1e-13, &up, NULL, NULL), HY_OK);
    hy_kinfit_design_free(D);
    assert_int_equal(hy_kinfit_design_build(&p, -1, qs, fs, D, NULL), HY_OK);
    assert_int_equal(hy_kinfit_design_solve(D, hy_kinfit_mask_rect(6, 2), 1e-13, &down, NULL, NULL), HY_OK);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 2; j++) {
            double mirror = ((i + j) & 1) ? -C.C[i][j] : C.C[i][j];
            assert_true(fabs(up.C[i][j] - C.C[i][j]) < 1e-3);
            assert_true(fabs(down.C[i][j] - mirror) < 1e-3);
        }
    hy_kinfit_points_free(&p);
    hy_kinfit_design_free(D);
    free(D);
}

/* Unscaling (spec 002 §6.1 item 2): data in other units, q' = a q and f' = b f, obeys df'/dq' = (b/a) R(q'/a, f'/b),
 * i.e. C'_ij = C_ij b^(1-j) a^(-1-i) (0-based). Checks the exponents of C_ij = C~_ij / (q_s^(i+1) f_s^(j-1)). */
static void unscaling_follows_units(void **state)
{
    (void)state;
    size_t n = paper_record();
    hy_kin_coeffs C, got;
    td_paper_coeffs(&C);
    const double a = 1000.0 * 180.0 / M_PI, b = 1e-3; /* rad -> millidegrees, N m -> kN m */
    hy_kinfit_points p;
    hy_kinfit_points_init(&p);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(hy_kinfit_points_push(&p, a * q[i], b * f[i], b / a * td_R(&C, s[i], q[i], f[i]), s[i], NULL),
                         HY_OK);
    double qs, fs;
    scales(&p, &qs, &fs);
    hy_kinfit_design *D = malloc(sizeof *D);
    assert_int_equal(hy_kinfit_design_build(&p, 0, qs, fs, D, NULL), HY_OK);
    assert_int_equal(hy_kinfit_design_solve(D, hy_kinfit_mask_rect(6, 2), 1e-13, &got, NULL, NULL), HY_OK);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 2; j++) {
            double want = C.C[i][j] * pow(b, 1 - j) * pow(a, -1 - i);
            double tol = 1e-6 * fabs(want) + 1e-3 * fabs(pow(b, 1 - j) * pow(a, -1 - i));
            assert_true(fabs(got.C[i][j] - want) <= tol);
        }
    hy_kinfit_points_free(&p);
    hy_kinfit_design_free(D);
    free(D);
}

/* The QR reduction against an independent reference: the same subset least-squares problem solved on the full
 * N-row design by hy_lstsq_svd, with a noisy right-hand side so that the residual is not zero. */
static void reduction_matches_full_design(void **state)
{
    (void)state;
    size_t n = paper_record();
    hy_kin_coeffs C, got;
    td_paper_coeffs(&C);
    td_rng rng = {12345};
    hy_kinfit_points p;
    hy_kinfit_points_init(&p);
    for (size_t i = 0; i < n; i++)
        hy_kinfit_points_push(&p, q[i], f[i], td_R(&C, s[i], q[i], f[i]) + 20.0 * td_normal(&rng), s[i], NULL);
    double qs, fs;
    scales(&p, &qs, &fs);
    hy_kinfit_design *D = malloc(sizeof *D);
    assert_int_equal(hy_kinfit_design_build(&p, 0, qs, fs, D, NULL), HY_OK);
    /* an irregular subset: 1, q, f, q f, q^3 f, q^4, f^2 */
    int ti[] = {0, 1, 0, 1, 3, 4, 0}, tj[] = {0, 0, 1, 1, 1, 0, 2};
    int nt = 7;
    hy_kinfit_mask mask = 0;
    for (int t = 0; t < nt; t++)
        mask |= (hy_kinfit_mask)1 << (ti[t] * 8 + tj[t]);
    hy_kinfit_lsq info;
    assert_int_equal(hy_kinfit_design_solve(D, mask, 1e-14, &got, &info, NULL), HY_OK);
    double *A = malloc(n * (size_t)nt * sizeof *A), *b = malloc(n * sizeof *b), x[7];
    for (size_t l = 0; l < n; l++) {
        double mir = p.s[l] < 0 ? -1 : 1, u = mir * p.q[l], v = mir * p.f[l];
        for (int t = 0; t < nt; t++)
            A[l * (size_t)nt + (size_t)t] = pow(u, ti[t]) * pow(v, tj[t]);
        b[l] = p.xi[l];
    }
    hy_lstsq_info li;
    assert_int_equal(hy_lstsq_svd(A, n, (size_t)nt, b, 1e-14, x, &li, NULL), HY_OK);
    for (int t = 0; t < nt; t++)
        assert_true(fabs(got.C[ti[t]][tj[t]] - x[t]) <= 1e-7 * fmax(1.0, fabs(x[t])));
    /* residual: recompute from the unscaled coefficients on the raw data */
    double ss = 0;
    for (size_t l = 0; l < n; l++) {
        double mir = p.s[l] < 0 ? -1 : 1, r = -p.xi[l];
        for (int t = 0; t < nt; t++)
            r += x[t] * pow(mir * p.q[l], ti[t]) * pow(mir * p.f[l], tj[t]);
        ss += r * r;
    }
    assert_true(fabs(info.resid_rms - sqrt(ss / (double)n)) <= 1e-8 * sqrt(ss / (double)n));
    assert_int_equal(info.rank, nt);
    free(A);
    free(b);
    hy_kinfit_points_free(&p);
    hy_kinfit_design_free(D);
    free(D);
}

/* Effective rank: a basis with an exactly dependent column pair (f on a branch where f = 2 q exactly). */
static void rank_deficiency_is_reported(void **state)
{
    (void)state;
    hy_kinfit_points p;
    hy_kinfit_points_init(&p);
    for (int l = 0; l <= 100; l++) {
        double x = -1.0 + 0.02 * l;
        hy_kinfit_points_push(&p, x, 2.0 * x, 2.0, +1, NULL);
    }
    hy_kinfit_design *D = malloc(sizeof *D);
    assert_int_equal(hy_kinfit_design_build(&p, +1, 1.0, 2.0, D, NULL), HY_OK);
    hy_kin_coeffs got;
    hy_kinfit_lsq info;
    assert_int_equal(hy_kinfit_design_solve(D, hy_kinfit_mask_rect(2, 2), 1e-10, &got, &info, NULL), HY_OK);
    assert_int_equal(info.unknowns, 4);
    assert_int_equal(info.rank, 3);   /* u and v are the same column */
    assert_true(info.cond > 1e10);
    assert_true(info.resid_rms < 1e-9); /* the minimum-norm solution still fits */
    hy_kinfit_design_free(D);
    free(D);
    hy_kinfit_points_free(&p);
}

static void design_needs_points(void **state)
{
    (void)state;
    hy_kinfit_points p;
    hy_kinfit_points_init(&p);
    hy_kinfit_points_push(&p, 0.1, 1.0, 3.0, +1, NULL);
    hy_kinfit_design *D = malloc(sizeof *D);
    hy_err err;
    assert_int_equal(hy_kinfit_design_build(&p, -1, 1.0, 1.0, D, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "unloading"));
    assert_int_equal(hy_kinfit_design_build(&p, 0, 0.0, 1.0, D, &err), HY_EDATA);
    hy_kinfit_design_free(D);
    free(D);
    hy_kinfit_points_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_symmetric_with_inner_branches),
        cmocka_unit_test(round_trip_limit_loop_only),
        cmocka_unit_test(two_set_fits_each_direction),
        cmocka_unit_test(unscaling_follows_units),
        cmocka_unit_test(reduction_matches_full_design),
        cmocka_unit_test(rank_deficiency_is_reported),
        cmocka_unit_test(design_needs_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

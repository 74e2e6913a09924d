/* Hatch-cover compliance (mech/dock_process.h, docs/dock-process.md §4; spec 001 §2.7 eq. 2.9): the implicit-Euler
 * update against the spec's matrix system and Cramer formulas, against a fine explicit reference (RK4, h = 1e-6 s,
 * itself checked against the closed-form step response) with first-order convergence, the scheme's exact energy
 * identity, stability and the static limit at a step far beyond the explicit limit, a hysteresis segment, and
 * bad input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mech/dock_process.h"

static void init(mech_dock_cover *cv)
{
    mech_dock_cover_params p;
    mech_dock_cover_params_rp1(&p);
    hy_err e;
    assert_int_equal(mech_dock_cover_init(cv, &p, &e), HY_OK);
}

static void cramer_and_matrix(void **state)
{
    (void)state;
    mech_dock_cover cv;
    init(&cv);
    double m = 90, c = 2e3;
    double cases[][7] = {/* x0, v0, h, f, f_beg, x_beg, k */
                         {0, 0, 1e-4, 1e4, 0, 0, 5e6},
                         {1e-3, -0.02, 1e-4, -3e3, 200, 4e-4, 5e6},
                         {-2e-4, 0.1, 1e-3, 5e2, -800, -1e-4, 2e6},
                         {5e-4, 0.0, 1e-2, 0, 1500, 3e-4, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double *q = cases[i], x = q[0], v = q[1], h = q[2], f = q[3], fb = q[4], xb = q[5], k = q[6];
        cv.committed.x = x, cv.committed.v = v;
        hy_err e;
        assert_int_equal(mech_dock_cover_trial(&cv, h, f, (mech_dock_cover_seg){fb, xb, k}, &e), HY_OK);
        double v1 = cv.trial.v, x1 = cv.trial.x;
        /* spec 001 §2.7, typed from the digest */
        double D0 = 1 + (c + h * k) * h / m;
        double D1 = v + (f - fb - k * (x - xb)) * h / m;
        double D2 = x * (1 + c * h / m) + h * (v + (f - fb + k * xb) * h / m);
        assert_true(fabs(v1 - D1 / D0) <= 1e-15 * (fabs(v1) + 1e-12));
        assert_true(fabs(x1 - D2 / D0) <= 1e-15 * (fabs(x1) + 1e-12));
        /* the printed matrix system */
        double r1 = (1 + h * c / m) * v1 + h * k / m * x1 - (v + (f - fb + k * xb) * h / m);
        double r2 = -h * v1 + x1 - x;
        double sc = fabs(v) + fabs(f) * h / m + fabs(k * xb) * h / m + fabs(fb) * h / m + 1e-9;
        assert_true(fabs(r1) < 1e-14 * sc);
        assert_true(fabs(r2) < 1e-14 * (fabs(x) + fabs(h * v1) + 1e-12));
    }
}

/* fine explicit reference: RK4 on m v' = f - k x - c v */
static double ref_max_err(double h, double *xmax_out, double *rk_vs_exact)
{
    const double m = 90, k = 5e6, c = 2e3, f = 1e4, T = 0.1, hr = 1e-6;
    mech_dock_cover cv;
    init(&cv);
    double x = 0, v = 0, t = 0, err = 0, xmax = 0, rkerr = 0;
    int n = (int)lround(T / h), sub = (int)lround(h / hr);
    double om = sqrt(k / m), z = c / (2 * sqrt(k * m)), od = om * sqrt(1 - z * z);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < sub; j++) {
#define A(X, V) ((f - k * (X) - c * (V)) / m)
            double a1 = A(x, v), x2 = x + 0.5 * hr * v, v2 = v + 0.5 * hr * a1;
            double a2 = A(x2, v2), x3 = x + 0.5 * hr * v2, v3 = v + 0.5 * hr * a2;
            double a3 = A(x3, v3), x4 = x + hr * v3, v4 = v + hr * a3, a4 = A(x4, v4);
#undef A
            x += hr / 6 * (v + 2 * v2 + 2 * v3 + v4);
            v += hr / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
            t += hr;
        }
        hy_err e;
        assert_int_equal(mech_dock_cover_trial(&cv, h, f, mech_dock_cover_linear(&cv.p), &e), HY_OK);
        mech_dock_cover_commit(&cv);
        err = fmax(err, fabs(cv.committed.x - x));
        xmax = fmax(xmax, fabs(x));
        double ex = f / k * (1 - exp(-z * om * t) * (cos(od * t) + z * om / od * sin(od * t)));
        rkerr = fmax(rkerr, fabs(x - ex));
    }
    *xmax_out = xmax;
    *rk_vs_exact = rkerr;
    return err;
}

static void against_fine_explicit(void **state)
{
    (void)state;
    double xm, rk, e1 = ref_max_err(1e-4, &xm, &rk), e2 = ref_max_err(5e-5, &xm, &rk);
    double e3 = ref_max_err(2.5e-5, &xm, &rk);
    printf("cover vs RK4 (h 1e-6): max |dx| / max x = %.4g (h 1e-4), %.4g (5e-5), %.4g (2.5e-5); RK4 vs closed form "
           "%.3g m\n", e1 / xm, e2 / xm, e3 / xm, rk);
    assert_true(rk < 1e-12);
    assert_true(e1 / xm < 0.1);
    assert_true(e2 / e1 > 0.4 && e2 / e1 < 0.6);   /* first order */
    assert_true(e3 / e2 > 0.4 && e3 / e2 < 0.6);
}

static void energy_identity(void **state)
{
    (void)state;
    mech_dock_cover cv;
    init(&cv);
    double m = cv.p.m_dm, k = cv.p.k, num = 0, h = 2e-4;
    for (int i = 0; i < 2000; i++) {
        double f = 4e3 * sin(60.0 * i * h) + 1e3;
        double x0 = cv.committed.x, v0 = cv.committed.v;
        hy_err e;
        assert_int_equal(mech_dock_cover_trial(&cv, h, f, mech_dock_cover_linear(&cv.p), &e), HY_OK);
        mech_dock_cover_commit(&cv);
        num += 0.5 * m * pow(cv.committed.v - v0, 2) + 0.5 * k * pow(cv.committed.x - x0, 2);
    }
    const mech_dock_cover_state *s = &cv.committed;
    double E = 0.5 * m * s->v * s->v + 0.5 * k * s->x * s->x + s->w_damp + num;
    assert_true(fabs(s->w_num - num) < 1e-12 * num);
    printf("cover energy: work %.9g J = stored + damping %.9g + numerical %.4g J (residual %.3g)\n", s->w_in,
           s->w_damp, num, s->w_in - E);
    assert_true(fabs(s->w_in - E) < 1e-12 * fabs(s->w_in) + 1e-15);
    assert_true(s->w_damp > 0 && num > 0);
}

/* h = 1e-2 s is 2.4 / omega (an explicit scheme would need h < 2 / omega = 8.5e-3 s): still stable, and the static
 * limit on a hysteresis segment is x = x_beg + (f - f_beg) / k */
static void stiff_step_static_limit(void **state)
{
    (void)state;
    mech_dock_cover cv;
    init(&cv);
    mech_dock_cover_seg g = {800.0, 1e-4, 4e6};
    double f = 5e3, peak = 0;
    for (int i = 0; i < 2000; i++) {
        hy_err e;
        assert_int_equal(mech_dock_cover_trial(&cv, 1e-2, f, g, &e), HY_OK);
        mech_dock_cover_commit(&cv);
        peak = fmax(peak, fabs(cv.committed.x));
    }
    double xs = g.x_beg + (f - g.f_beg) / g.k;
    assert_true(fabs(cv.committed.x - xs) < 1e-12);
    assert_true(peak <= 2 * xs);
}

static void trial_revert_and_bad_input(void **state)
{
    (void)state;
    mech_dock_cover cv;
    init(&cv);
    hy_err e;
    mech_dock_cover_state c = cv.committed;
    assert_int_equal(mech_dock_cover_trial(&cv, 1e-4, 1e3, mech_dock_cover_linear(&cv.p), &e), HY_OK);
    assert_memory_equal(&c, &cv.committed, sizeof c);
    mech_dock_cover_revert(&cv);
    assert_memory_equal(&cv.trial, &cv.committed, sizeof c);
    assert_int_equal(mech_dock_cover_trial(&cv, 1e-4, NAN, mech_dock_cover_linear(&cv.p), &e), HY_ERANGE);
    assert_int_equal(mech_dock_cover_trial(&cv, 0.0, 1.0, mech_dock_cover_linear(&cv.p), &e), HY_ERANGE);
    mech_dock_cover_params p;
    mech_dock_cover_params_rp1(&p);
    p.m_dm = 0;
    assert_int_equal(mech_dock_cover_init(&cv, &p, &e), HY_EMODEL);
    assert_non_null(strstr(e.msg, "cover.m_dm"));
    mech_dock_cover_params_rp1(&p);
    p.c = -1;
    assert_int_equal(mech_dock_cover_init(&cv, &p, &e), HY_EMODEL);
    assert_non_null(strstr(e.msg, "cover.c"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cramer_and_matrix),      cmocka_unit_test(against_fine_explicit),
        cmocka_unit_test(energy_identity),        cmocka_unit_test(stiff_step_static_limit),
        cmocka_unit_test(trial_revert_and_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

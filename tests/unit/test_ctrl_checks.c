/* What mech/ctrl.h refuses and why: the paper's theta-state LQR design (spec 004 §5, §12.8), whose free rigid mode
 * no input reaches, and other unstabilisable or undetectable models; bad sizes and weights. Also the PBH tests,
 * poles and damping ratios against closed forms, and the reduced flexible design of spec 004 §5 (a) that works. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mech/ctrl.h"

typedef int (*care_fn)(size_t, size_t, const double *, const double *, const double *, const double *, double *,
                       hy_err *);
static const care_fn solvers[2] = {mech_ctrl_care, mech_ctrl_care_schur};

// (err, code, fragments...) => err has that code and a one-line message containing each fragment
static void assert_message(const hy_err *err, int code, const char *a, const char *b)
{
    if (err->code != code || !strstr(err->msg, a) || (b && !strstr(err->msg, b)))
        print_message("code %d, message: %s\n", err->code, err->msg);
    assert_int_equal(err->code, code);
    assert_non_null(strstr(err->msg, a));
    if (b)
        assert_non_null(strstr(err->msg, b));
    assert_null(strchr(err->msg, '\n'));
}

/* A beam-like hub + appendage in the paper's coordinates (spec 004 §3, §5): theta and 5 modes, mass matrix
 * M_s = [[J, H], [H', I]], stiffness diag(0, w^2), damping diag(0, 2 zeta w), the actuator acting on the modes
 * only. Z = [theta, q1..q5, theta', q1'..q5'] (12 states: the paper's "12 x 12" read as theta + 5 modes). */
enum { NM = 5, ND = NM + 1, NS = 2 * ND };
static const double J = 120.0, H[NM] = {3.0, -1.2, 0.8, -0.5, 0.3};
static const double f_hz[NM] = {1.3709, 8.6409, 24.1194, 46.7258, 77.924}, zeta_modal = 0.005;
static const double bq[NM] = {0.8 * 0.0371, -1.5 * 0.0371, 2.1 * 0.0371, -2.6 * 0.0371, 3.0 * 0.0371};

// (mass matrix Ms d x d, stiffness k[d], damping c[d], input f[d]) => A (2d x 2d), B (2d x 1) of Z' = AZ + BU
static void second_order_to_state(size_t d, const double *Ms, const double *k, const double *c, const double *f,
                                  double *A, double *B)
{
    double Minv[ND * ND];
    lapack_int piv[ND];
    memset(Minv, 0, sizeof Minv);
    for (size_t i = 0; i < d; i++)
        Minv[i * d + i] = 1.0;
    double Mc[ND * ND];
    memcpy(Mc, Ms, d * d * sizeof *Mc);
    assert_int_equal(LAPACKE_dgesv(LAPACK_ROW_MAJOR, (lapack_int)d, (lapack_int)d, Mc, (lapack_int)d, piv, Minv,
                                   (lapack_int)d), 0);
    size_t n = 2 * d;
    memset(A, 0, n * n * sizeof *A);
    for (size_t i = 0; i < d; i++) {
        A[i * n + d + i] = 1.0;
        double bi = 0.0;
        for (size_t j = 0; j < d; j++) {
            A[(d + i) * n + j] = -Minv[i * d + j] * k[j];
            A[(d + i) * n + d + j] = -Minv[i * d + j] * c[j];
            bi += Minv[i * d + j] * f[j];
        }
        B[i] = 0.0;
        B[d + i] = bi;
    }
}

/* The paper's printed design: theta in the state, Q = diag(600), R = 0.1. y = J theta + H q obeys y'' = 0 whatever
 * U does (the first row of M_s times M_s^-1 is e1', and the input has no theta entry), a double eigenvalue at 0
 * that no input reaches. Both solvers refuse it with HY_EMODEL naming the eigenvalue; the PBH test agrees. */
static void paper_theta_design_is_refused(void **state)
{
    (void)state;
    double Ms[ND * ND] = {0}, k[ND] = {0}, c[ND] = {0}, f[ND] = {0}, A[NS * NS], B[NS], Q[NS * NS] = {0}, R = 0.1;
    Ms[0] = J;
    for (int i = 0; i < NM; i++) {
        double w = 2 * M_PI * f_hz[i];
        Ms[i + 1] = Ms[(i + 1) * ND] = H[i];
        Ms[(i + 1) * ND + i + 1] = 1.0;
        k[i + 1] = w * w;
        c[i + 1] = 2 * zeta_modal * w;
        f[i + 1] = bq[i];
    }
    second_order_to_state(ND, Ms, k, c, f, A, B);
    for (int i = 0; i < NS; i++)
        Q[i * NS + i] = 600.0;
    for (int s = 0; s < 2; s++) {
        double X[NS * NS];
        hy_err err;
        assert_int_equal(solvers[s](NS, 1, A, B, Q, &R, X, &err), HY_EMODEL);
        assert_message(&err, HY_EMODEL, "not stabilisable", "uncontrollable eigenvalue 0 (multiplicity 2");
        assert_non_null(strstr(err.msg, "PBH rank 11 < n = 12"));
    }
    double K[NS], pr[NS], pi[NS];
    hy_err err;
    assert_int_equal(mech_ctrl_lqr(NS, 1, A, B, Q, &R, K, NULL, pr, pi, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "uncontrollable"));
    double bad_re = 1, bad_im = 1;
    assert_int_equal(mech_ctrl_stabilisable(NS, 1, A, B, -1.0, &bad_re, &bad_im, NULL), 0);
    assert_true(bad_re == 0.0 && bad_im == 0.0);

    /* The same structure in its barest form: a rigid angle (integrator chain) beside a driven oscillator. */
    const double A4[] = {0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, -4, -0.2}, B4[] = {0, 0, 0, 1};
    const double Q4[] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, R4 = 1.0;
    double X4[16];
    assert_int_equal(mech_ctrl_care(4, 1, A4, B4, Q4, &R4, X4, &err), HY_EMODEL);
    assert_message(&err, HY_EMODEL, "uncontrollable eigenvalue 0 (multiplicity 2, PBH rank 3 < n = 4)", NULL);
}

/* Spec 004 §5 (a): with theta eliminated (h = 0: M_eff = I - H'H/J), the 10-state flexible model is controllable;
 * the LQR stabilises it, X is symmetric positive definite and both solvers agree. Positions and velocities differ in
 * scale by w up to 490 rad/s and |X| is 1e7: without the state balancing of ctrl_balance the residuals were 3e-9
 * (SLICOT) and 2e-6 (Schur) and the solvers agreed to 5e-7 only; balanced, 1e-13 and 1e-12. */
static void reduced_flexible_design_works(void **state)
{
    (void)state;
    enum { N = 2 * NM };
    double Me[NM * NM], k[NM], c[NM], A[N * N], B[N], Q[N * N] = {0}, R = 0.1;
    for (int i = 0; i < NM; i++) {
        double w = 2 * M_PI * f_hz[i];
        for (int j = 0; j < NM; j++)
            Me[i * NM + j] = (i == j) - H[i] * H[j] / J;
        k[i] = w * w;
        c[i] = 2 * zeta_modal * w;
    }
    second_order_to_state(NM, Me, k, c, bq, A, B);
    for (int i = 0; i < N; i++)
        Q[i * N + i] = 600.0;
    assert_int_equal(mech_ctrl_stabilisable(N, 1, A, B, -1.0, NULL, NULL, NULL), 1);
    double X[N * N], X2[N * N], K[N], pr[N], pi[N], L[N * N];
    hy_err err;
    assert_int_equal(mech_ctrl_lqr(N, 1, A, B, Q, &R, K, X, pr, pi, &err), HY_OK);
    assert_int_equal(mech_ctrl_care_schur(N, 1, A, B, Q, &R, X2, &err), HY_OK);
    double d2 = 0.0, x2 = 0.0;
    for (int i = 0; i < N * N; i++) {
        d2 += (X[i] - X2[i]) * (X[i] - X2[i]);
        x2 += X[i] * X[i];
    }
    double rq, res = mech_ctrl_care_residual(N, 1, A, B, Q, &R, X, &rq);
    print_message("reduced flexible model (10 states): |X_slicot - X_schur|/|X| %.3g, relative residual %.3g, "
                  "|Res|/|Q| %.3g\n", sqrt(d2 / x2), res, rq);
    assert_true(sqrt(d2 / x2) < 1e-10);
    assert_true(res < 1e-12 && rq < 1e-7);
    memcpy(L, X, sizeof L);
    assert_int_equal(LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'U', N, L, N), 0);
    double zeta[N], wn[N], zeta_min = 1.0;
    mech_ctrl_damping(N, pr, pi, zeta, wn);
    for (int i = 0; i < N; i++) {
        assert_true(pr[i] < 0.0);
        zeta_min = fmin(zeta_min, zeta[i]);
    }
    assert_true(zeta_min > zeta_modal); /* the control adds damping to every mode */
}

/* Other refusals: an uncontrollable undamped oscillator (named as a pair), an uncontrollable unstable mode, and an
 * undamped mode that Q does not weight (Hamiltonian eigenvalues on the axis). */
static void other_unsolvable_models_are_refused(void **state)
{
    (void)state;
    hy_err err;
    double X[9];
    /* states: undamped oscillator (w = 2) with no input, and a driven integrator */
    const double A1[] = {0, 1, 0, -4, 0, 0, 0, 0, 0}, B1[] = {0, 0, 1}, Q1[] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, R = 1;
    assert_int_equal(mech_ctrl_care(3, 1, A1, B1, Q1, &R, X, &err), HY_EMODEL);
    assert_message(&err, HY_EMODEL, "uncontrollable eigenvalue 0 +/- 2i (multiplicity 1, PBH rank 2 < n = 3)", NULL);
    double bre, bim;
    assert_int_equal(mech_ctrl_stabilisable(3, 1, A1, B1, -1.0, &bre, &bim, NULL), 0);
    assert_true(fabs(bre) < 1e-12 && fabs(bim - 2.0) < 1e-12);

    const double A2[] = {3, 0, 0, -1}, B2[] = {0, 1}, Q2[] = {1, 0, 0, 1};
    assert_int_equal(mech_ctrl_care_schur(2, 1, A2, B2, Q2, &R, X, &err), HY_EMODEL);
    assert_message(&err, HY_EMODEL, "uncontrollable eigenvalue 3 (multiplicity 1, PBH rank 1 < n = 2)", NULL);
    assert_int_equal(mech_ctrl_stabilisable(2, 1, A2, B2, 0.0, &bre, NULL, NULL), 0);
    assert_true(bre == 3.0);

    /* undamped oscillator, driven, but Q = 0 on it: unobservable modes +/- 2i */
    const double A3[] = {0, 1, -4, 0}, B3[] = {0, 1}, Q3[] = {0, 0, 0, 0};
    assert_int_equal(mech_ctrl_care(2, 1, A3, B3, Q3, &R, X, &err), HY_EMODEL);
    assert_message(&err, HY_EMODEL, "not detectable", "unobservable eigenvalue 0 +/- 2i");
    /* weighting only the velocity makes it detectable again, and the CARE solvable */
    const double Q3b[] = {0, 0, 0, 1};
    assert_int_equal(mech_ctrl_care(2, 1, A3, B3, Q3b, &R, X, &err), HY_OK);

    /* the public detectability test: diag(1, -1) seen through C */
    const double A5[] = {1, 0, 0, -1}, C5a[] = {0, 1}, C5b[] = {1, 0};
    assert_int_equal(mech_ctrl_detectable(2, 1, A5, C5a, -1.0, &bre, &bim, NULL), 0);
    assert_true(bre == 1.0 && bim == 0.0);
    assert_int_equal(mech_ctrl_detectable(2, 1, A5, C5b, -1.0, NULL, NULL, NULL), 1);
}

/* Bad sizes and weights: HY_EARG naming the argument, from both solvers and the LQR. */
static void bad_arguments_are_refused(void **state)
{
    (void)state;
    const double A[] = {0, 1, 0, 0}, B[] = {0, 1}, Q[] = {1, 0, 0, 1}, R[] = {1};
    double X[4], K[2];
    hy_err err;
    for (int s = 0; s < 2; s++) {
        assert_int_equal(solvers[s](0, 1, A, B, Q, R, X, &err), HY_EARG);
        assert_message(&err, HY_EARG, "n = 0", NULL);
        assert_int_equal(solvers[s](2, 0, A, B, Q, R, X, &err), HY_EARG);
        assert_message(&err, HY_EARG, "m = 0", NULL);
        assert_int_equal(solvers[s](5000, 1, A, B, Q, R, X, &err), HY_EARG);
        assert_int_equal(solvers[s](2, 1, NULL, B, Q, R, X, &err), HY_EARG);
        assert_message(&err, HY_EARG, "matrix A is NULL", NULL);
        assert_int_equal(solvers[s](2, 1, A, B, Q, R, NULL, &err), HY_EARG);

        const double Anan[] = {0, NAN, 0, 0};
        assert_int_equal(solvers[s](2, 1, Anan, B, Q, R, X, &err), HY_EARG);
        assert_message(&err, HY_EARG, "A[0][1] is not a finite number", NULL);
        const double Rneg[] = {-1}, Rzero[] = {0};
        assert_int_equal(solvers[s](2, 1, A, B, Q, Rneg, X, &err), HY_EARG);
        assert_message(&err, HY_EARG, "R is not positive definite", "-1");
        assert_int_equal(solvers[s](2, 1, A, B, Q, Rzero, X, &err), HY_EARG);
        assert_message(&err, HY_EARG, "R is not positive definite", NULL);
        /* symmetric but indefinite 2 x 2 R (eigenvalues 3 and -1), and a non-symmetric one */
        const double B2[] = {1, 0, 0, 1}, Rind[] = {1, 2, 2, 1}, Rns[] = {1, 0.5, 0, 1};
        assert_int_equal(solvers[s](2, 2, A, B2, Q, Rind, X, &err), HY_EARG);
        assert_message(&err, HY_EARG, "R is not positive definite: its smallest eigenvalue is -1", NULL);
        assert_int_equal(solvers[s](2, 2, A, B2, Q, Rns, X, &err), HY_EARG);
        assert_message(&err, HY_EARG, "R is not symmetric", NULL);
        const double Qind[] = {1, 0, 0, -0.5}, Qns[] = {1, 1e-3, 0, 1};
        assert_int_equal(solvers[s](2, 1, A, B, Qind, R, X, &err), HY_EARG);
        assert_message(&err, HY_EARG, "Q is not positive semidefinite", "-0.5");
        assert_int_equal(solvers[s](2, 1, A, B, Qns, R, X, &err), HY_EARG);
        assert_message(&err, HY_EARG, "Q is not symmetric", "Q[0][1]");
    }
    assert_int_equal(mech_ctrl_lqr(2, 1, A, B, Q, R, NULL, X, NULL, NULL, &err), HY_EARG);
    assert_message(&err, HY_EARG, "K is NULL", NULL);
    double pr[2];
    assert_int_equal(mech_ctrl_lqr(2, 1, A, B, Q, R, K, X, pr, NULL, &err), HY_EARG);
    assert_int_equal(mech_ctrl_stabilisable(0, 1, A, B, -1.0, NULL, NULL, &err), -1);
    assert_int_equal(err.code, HY_EARG);
    assert_int_equal(mech_ctrl_poles(0, A, pr, pr, &err), HY_EARG);
    /* a NULL err is allowed everywhere */
    assert_int_equal(mech_ctrl_care(2, 1, A, B, Q, (const double[]){-1}, X, NULL), HY_EARG);
}

/* Poles and damping of x'' + 0.4 x' + 4 x = 0: -0.2 +/- i sqrt(3.96), wn = 2, zeta = 0.1. */
static void poles_and_damping_closed_form(void **state)
{
    (void)state;
    const double A[] = {0, 1, -4, -0.4};
    double re[2], im[2], zeta[2], wn[2];
    assert_int_equal(mech_ctrl_poles(2, A, re, im, NULL), HY_OK);
    mech_ctrl_damping(2, re, im, zeta, wn);
    for (int i = 0; i < 2; i++) {
        assert_true(fabs(re[i] + 0.2) < 1e-14 && fabs(fabs(im[i]) - sqrt(3.96)) < 1e-14);
        assert_true(fabs(wn[i] - 2.0) < 1e-14 && fabs(zeta[i] - 0.1) < 1e-14);
    }
    assert_true(im[0] > 0 && im[1] < 0);
    const double z[] = {0.0}, Z[] = {0.0};
    mech_ctrl_damping(1, z, Z, zeta, wn);
    assert_true(zeta[0] == 1.0 && wn[0] == 0.0);
    /* the default margin: 1e-6 max(1, spectral radius) */
    const double big[] = {0, 1, -1e6, 0}; /* radius 1000 */
    assert_true(fabs(mech_ctrl_default_tol(2, big, NULL) - 1e-3) < 1e-15);
    assert_true(mech_ctrl_default_tol(2, A, NULL) == 2e-6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paper_theta_design_is_refused),
        cmocka_unit_test(reduced_flexible_design_works),
        cmocka_unit_test(other_unsolvable_models_are_refused),
        cmocka_unit_test(bad_arguments_are_refused),
        cmocka_unit_test(poles_and_damping_closed_form),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Kinematic hysteresis ODE (spec 002): point values, q-domain integration, steady loops and the negative controls
 * against the reference values of spec 002 §6.2 B, plus the element's trial/commit/revert contract. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/kin.h"

#define REL(a, b, tol) assert_true(fabs((double)(a) - (double)(b)) <= (tol) * fabs((double)(b)))

static hy_kin_model *paper(int full)
{
    hy_kin_spec s;
    hy_kin_model *m = NULL;
    hy_kin_paper_spec(&s, full);
    assert_int_equal(hy_kin_model_new(&s, &m, NULL), HY_OK);
    return m;
}

/* Independent reference for m = 2 (spec 002 §1.3): f(q) = f0 e^{G(q)-G(q0)} + int_{q0}^{q} K(s) e^{G(q)-G(s)} ds,
 * G(q) = sum C_i2 q^i / i, by composite Simpson with 20000 panels (no ODE solver involved). */
static double G_of(const hy_kin_coeffs *c, double q)
{
    double g = 0, p = 1;
    for (int i = 0; i < c->k; i++) {
        p *= q;
        g += c->C[i][1] * p / (i + 1);
    }
    return g;
}

static double K_of(const hy_kin_coeffs *c, double q)
{
    double k = 0, p = 1;
    for (int i = 0; i < c->k; i++) {
        k += c->C[i][0] * p;
        p *= q;
    }
    return k;
}

static double closed_form(const hy_kin_spec *s, double q0, double f0, double q1)
{
    const hy_kin_coeffs *c = &s->load;
    int n = 20000;
    double h = (q1 - q0) / n, sum = 0, G1 = G_of(c, q1);
    for (int i = 0; i <= n; i++) {
        double q = q0 + i * h, w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
        sum += w * K_of(c, q) * exp(G1 - G_of(c, q));
    }
    return f0 * exp(G1 - G_of(c, q0)) + sum * h / 3.0;
}

static void point_evaluations(void **state)
{
    (void)state;
    hy_kin_model *m = paper(0);
    REL(hy_kin_R(m, 1, 0, 0), 650.9, 1e-12);
    REL(hy_kin_R(m, 1, 0.1, 10), 550.0017, 1e-6);
    REL(hy_kin_R(m, 1, -0.2, -30), 1058.3325, 1e-6);
    REL(hy_kin_R(m, -1, 0.1, 10), 743.6753, 1e-6);          /* reverse law R(-0.1, -10) */
    REL(hy_kin_R(m, -1, 0.1, 10), hy_kin_R(m, 1, -0.1, -10), 1e-14);
    /* root of c(q) = dR/df by bisection: 0.520836 (spec 002 §3.3) */
    double a = 0.3, b = 0.7;
    assert_true(hy_kin_dRdf(m, 1, a, 0) < 0 && hy_kin_dRdf(m, 1, b, 0) > 0);
    for (int i = 0; i < 60; i++) {
        double c = 0.5 * (a + b);
        if (hy_kin_dRdf(m, 1, c, 0) < 0)
            a = c;
        else
            b = c;
    }
    assert_true(fabs(a - 0.520836) < 1e-6);
    assert_true(hy_kin_dRdf(m, 1, 0, 0) == -23.9);
    hy_kin_model_free(m);
}

/* Horner against a naive power sum, derivatives against central differences, symmetric rule as reflection,
 * for random coefficient sets of every size up to 8 x 8. */
static void horner_and_derivatives_all_sizes(void **state)
{
    (void)state;
    srand(7);
    for (int k = 1; k <= HY_KIN_MAX; k++)
        for (int mm = 1; mm <= HY_KIN_MAX; mm++) {
            hy_kin_spec s;
            memset(&s, 0, sizeof s);
            s.load.k = k;
            s.load.m = mm;
            for (int i = 0; i < k; i++)
                for (int j = 0; j < mm; j++)
                    s.load.C[i][j] = 2.0 * rand() / RAND_MAX - 1.0;
            s.q_min = -1;
            s.q_max = 1;
            hy_kin_model *m;
            assert_int_equal(hy_kin_model_new(&s, &m, NULL), HY_OK);
            double q = 0.37, f = -0.81, naive = 0, dq = 0, df = 0;
            for (int i = 0; i < k; i++)
                for (int j = 0; j < mm; j++) {
                    naive += s.load.C[i][j] * pow(q, i) * pow(f, j);
                    if (i)
                        dq += i * s.load.C[i][j] * pow(q, i - 1) * pow(f, j);
                    if (j)
                        df += j * s.load.C[i][j] * pow(q, i) * pow(f, j - 1);
                }
            assert_true(fabs(hy_kin_R(m, 1, q, f) - naive) < 1e-12);
            assert_true(fabs(hy_kin_coeffs_eval(&s.load, q, f) - naive) < 1e-12);
            assert_true(fabs(hy_kin_dRdq(m, 1, q, f) - dq) < 1e-11);
            assert_true(fabs(hy_kin_dRdf(m, 1, q, f) - df) < 1e-11);
            double e = 1e-5;
            assert_true(fabs(hy_kin_dRdq(m, 1, q, f) - (hy_kin_R(m, 1, q + e, f) - hy_kin_R(m, 1, q - e, f)) / (2 * e)) < 1e-6);
            assert_true(fabs(hy_kin_dRdf(m, 1, q, f) - (hy_kin_R(m, 1, q, f + e) - hy_kin_R(m, 1, q, f - e)) / (2 * e)) < 1e-6);
            assert_true(fabs(hy_kin_R(m, -1, q, f) - hy_kin_R(m, 1, -q, -f)) < 1e-12);
            assert_true(fabs(hy_kin_dRdf(m, -1, q, f) + hy_kin_dRdf(m, 1, -q, -f)) < 1e-11 * (1 + fabs(df)));
            hy_kin_model_free(m);
        }
}

static void forward_integration(void **state)
{
    (void)state;
    hy_kin_spec s;
    hy_kin_paper_spec(&s, 0);
    hy_kin_model *m = paper(0);
    REL(hy_kin_integrate(m, 1, 0, 0, 0.1), 28.160, 1e-4);
    REL(hy_kin_integrate(m, 1, 0, 0, 0.3), 42.780, 1e-4);
    REL(hy_kin_integrate(m, 1, 0, -40, 0.1), 24.570, 1e-4);
    /* against the closed form (spec: 28.1600, 42.7796) far below the reference tolerance */
    assert_true(fabs(hy_kin_integrate(m, 1, 0, 0, 0.3) - closed_form(&s, 0, 0, 0.3)) < 1e-7);
    assert_true(fabs(closed_form(&s, 0, 0, 0.1) - 28.1600) < 5e-5);
    assert_true(fabs(closed_form(&s, 0, 0, 0.3) - 42.7796) < 5e-5);
    /* convergence across start points (spec 002 §6.2 B) */
    const double M0[5] = {-40, -20, 0, 20, 40}, M3[5] = {42.751, 42.765, 42.780, 42.794, 42.808};
    for (int i = 0; i < 5; i++)
        REL(hy_kin_integrate(m, 1, 0, M0[i], 0.3), M3[i], 1e-4);
    /* unloading by central symmetry: the reverse integration from (0, 0) to -0.3 mirrors the forward one */
    assert_true(fabs(hy_kin_integrate(m, -1, 0, 0, -0.3) + hy_kin_integrate(m, 1, 0, 0, 0.3)) < 1e-10);
    hy_kin_model_free(m);
}

/* The q-domain RK4 has order 4: halving the sub-step divides the error by ~16; the default rule is far below
 * the reference tolerance. */
static void integration_convergence_order(void **state)
{
    (void)state;
    hy_kin_spec s;
    hy_kin_paper_spec(&s, 0);
    hy_kin_model *m = paper(0);
    double ref = closed_form(&s, 0, -40, 0.3), err[5];
    int n0 = 24;
    for (int r = 0; r < 5; r++)
        err[r] = fabs(hy_kin_integrate_n(m, 1, 0, -40, 0.3, n0 << r) - ref);
    for (int r = 1; r < 5; r++) {
        double order = log2(err[r - 1] / err[r]);
        assert_true(order > 3.7 && order < 4.4);
    }
    int n = hy_kin_substeps(m, 1, 0, -40, 0.3);
    assert_true(n >= 100 && n <= 400); /* 0.05 / 28 per sub-step over 0.3 rad */
    assert_true(fabs(hy_kin_integrate(m, 1, 0, -40, 0.3) - ref) < 1e-7);
    assert_int_equal(hy_kin_substeps(m, 1, 0.2, 0, 0.2), 0);
    hy_kin_model_free(m);
}

/* Energy of each of ncyc cycles of q = A sin(theta) from (0, f0), driven sample by sample through
 * hy_element_drive; trapezoid in q. Also the tip moment and the loading branch at q = 0 of the last cycle. */
static int drive_cycles(const hy_kin_model *m, double A, int ncyc, int N, double f0, double *W, double *Mtip,
                        double *Mload0, double *Mmin)
{
    hy_kin_state st;
    hy_element el;
    assert_int_equal(hy_kin_state_init(&st, m, 0, f0, NULL), HY_OK);
    hy_kin_element_wrap(&st, &el);
    size_t n = (size_t)ncyc * N;
    double *q = malloc(n * sizeof *q), *Q = malloc(n * sizeof *Q);
    for (size_t i = 0; i < n; i++)
        q[i] = A * sin(2 * M_PI * (double)(i + 1) / N);
    size_t done = 0;
    hy_diag d;
    int rc = hy_element_drive(&el, 0.0, NULL, q, n, Q, NULL, &done, &d);
    if (rc == HY_OK) {
        double qp = 0, fp = f0;
        for (int c = 0; c < ncyc; c++) {
            W[c] = 0;
            for (int i = 0; i < N; i++) {
                size_t j = (size_t)c * N + i;
                W[c] += 0.5 * (Q[j] + fp) * (q[j] - qp);
                qp = q[j];
                fp = Q[j];
            }
        }
        size_t last = (size_t)(ncyc - 1) * N;
        if (Mtip)
            *Mtip = Q[last + N / 4 - 1];
        if (Mmin)
            *Mmin = Q[last + 3 * N / 4 - 1];
        if (Mload0)
            *Mload0 = Q[last + N - 1];
    }
    free(q);
    free(Q);
    return rc;
}

static void steady_loop_energy_table(void **state)
{
    (void)state;
    const double A[6] = {0.10, 0.20, 0.30, 0.40, 0.45, 0.50};
    const double Wred[6] = {5.8205, 15.585, 25.309, 35.194, 40.560, 46.755};
    const double Wfull[6] = {5.8207, 15.587, 25.320, 35.221, 40.600, 46.811};
    const double tip[6] = {29.981, 35.897, 42.797, 56.280, 70.886, 101.41};
    const double load0[6] = {20.291, 24.439, 24.840, 24.881, 24.884, 24.886};
    hy_kin_model *red = paper(0), *full = paper(1);
    for (int a = 0; a < 6; a++) {
        double W[3], Mt, M0, Mm;
        assert_int_equal(drive_cycles(red, A[a], 3, 8000, 0, W, &Mt, &M0, &Mm), HY_OK);
        REL(W[2], Wred[a], 1e-3);
        REL(Mt, tip[a], 1e-3);
        REL(-Mm, tip[a], 1e-3); /* M(-A) = -M(+A): central symmetry of the steady loop */
        REL(M0, load0[a], 1e-3);
        assert_true(W[2] > 0);  /* dissipation, clockwise loop */
        assert_int_equal(drive_cycles(full, A[a], 3, 8000, 0, W, NULL, NULL, NULL), HY_OK);
        REL(W[2], Wfull[a], 1e-3);
    }
    hy_kin_model_free(red);
    hy_kin_model_free(full);
}

static void closure_after_first_cycle(void **state)
{
    (void)state;
    hy_kin_model *m = paper(0);
    double W[4];
    assert_int_equal(drive_cycles(m, 0.3, 4, 8000, 0, W, NULL, NULL, NULL), HY_OK);
    REL(W[0], 24.278, 1e-3);
    assert_true(fabs(W[1] - W[2]) <= 1e-4 * W[2]);
    assert_true(fabs(W[3] - W[2]) <= 1e-9 * W[2]);
    hy_kin_model_free(m);
}

/* Rate independence: the time form df/dt = R_s(q, f) qdot integrated by RK4 in time at two frequencies 100x
 * apart gives the same loop energy, equal to the element's (the reversals sit on the time grid). */
static double time_form_energy(const hy_kin_model *m, double A, double w, int N, int ncyc)
{
    double T = 2 * M_PI / w, h = T / N, f = 0, W = 0;
    for (int i = 0; i < N * ncyc; i++) {
        double t = i * h;
        /* the direction of a step is that of its interior: qdot at the midpoint */
        double s = cos(w * (t + 0.5 * h)) > 0 ? 1 : -1;
#define QD(tt) (A * w * cos(w * (tt)))
#define RHS(tt, ff) (hy_kin_R(m, (int)s, A * sin(w * (tt)), (ff)) * QD(tt))
        double k1 = RHS(t, f), k2 = RHS(t + h / 2, f + h / 2 * k1), k3 = RHS(t + h / 2, f + h / 2 * k2),
               k4 = RHS(t + h, f + h * k3);
        double fn = f + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
        if (i >= N * (ncyc - 1))
            W += 0.5 * (f + fn) * (A * sin(w * (t + h)) - A * sin(w * t));
        f = fn;
#undef QD
#undef RHS
    }
    return W;
}

static void frequency_independence(void **state)
{
    (void)state;
    hy_kin_model *m = paper(0);
    double w1 = time_form_energy(m, 0.3, 0.5, 8000, 3), w2 = time_form_energy(m, 0.3, 50.0, 8000, 3);
    REL(w1, 25.309, 1e-3);
    REL(w2, w1, 1e-9);
    /* hy_kin_dfdt is the same right-hand side with the direction taken from qdot */
    assert_true(fabs(hy_kin_dfdt(m, 0.1, 10, 2.0) - 2.0 * hy_kin_R(m, 1, 0.1, 10)) < 1e-12);
    assert_true(fabs(hy_kin_dfdt(m, 0.1, 10, -3.0) + 3.0 * 743.6753) < 1e-3);
    assert_true(hy_kin_dfdt(m, 0.1, 10, 0.0) == 0.0);
    /* the element driven with time stamps at two rates gives identical forces */
    hy_kin_state a, b;
    hy_element ea, eb;
    hy_kin_state_init(&a, m, 0, 0, NULL);
    hy_kin_state_init(&b, m, 0, 0, NULL);
    hy_kin_element_wrap(&a, &ea);
    hy_kin_element_wrap(&b, &eb);
    double q[400], ta[400], tb[400], Qa[400], Qb[400];
    for (int i = 0; i < 400; i++) {
        ta[i] = i * 0.01;
        tb[i] = i * 10.0;
        q[i] = 0.3 * sin(2 * M_PI * i / 200.0);
    }
    assert_int_equal(hy_element_drive(&ea, 0, ta, q, 400, Qa, NULL, NULL, NULL), HY_OK);
    assert_int_equal(hy_element_drive(&eb, 0, tb, q, 400, Qb, NULL, NULL, NULL), HY_OK);
    assert_memory_equal(Qa, Qb, sizeof Qa);
    hy_kin_model_free(m);
}

static void negative_controls(void **state)
{
    (void)state;
    /* the unswitched single ODE: the same law both ways (two-set with equal sets) retraces; W ~ 0 and the
     * reverse branch blows up, M(-0.3) ~ -2.7e4 (spec 002 §1.4) */
    hy_kin_spec s;
    hy_kin_paper_spec(&s, 0);
    s.rule = HY_KIN_TWO_SET;
    s.unload = s.load;
    hy_kin_model *m;
    assert_int_equal(hy_kin_model_new(&s, &m, NULL), HY_OK);
    double W[3], Mtip = NAN, Mmin = NAN;   /* NAN: a path that sets neither fails the checks */
    assert_int_equal(drive_cycles(m, 0.3, 2, 8000, 0, W, &Mtip, NULL, &Mmin), HY_OK);
    assert_true(fabs(W[1]) < 1e-6);
    REL(Mmin, -26856, 1e-2);
    hy_kin_model_free(m);
    /* A = 0.7 lies outside the attracting range: the loop "area" is negative (needs a widened range) */
    hy_kin_paper_spec(&s, 0);
    s.q_min = -1;
    s.q_max = 1;
    assert_int_equal(hy_kin_model_new(&s, &m, NULL), HY_OK);
    assert_int_equal(drive_cycles(m, 0.7, 3, 8000, 0, W, NULL, NULL, NULL), HY_OK);
    assert_true(W[2] < 0);
    hy_kin_model_free(m);
}

static void element_trial_commit_revert(void **state)
{
    (void)state;
    hy_kin_model *m = paper(0);
    hy_kin_state st;
    hy_element e;
    assert_int_equal(hy_kin_state_init(&st, m, 0, 0, NULL), HY_OK);
    hy_kin_element_wrap(&st, &e);
    assert_int_equal(hy_element_state(&e), 0);
    double Q, dQ, Q2;
    hy_diag d;
    /* trial does not move the committed point: repeated trials give the same answers */
    assert_int_equal(hy_element_trial(&e, 0.2, 1.0, &Q, &dQ, &d), HY_OK);
    assert_int_equal(hy_element_trial(&e, 0.1, 1.0, &Q2, NULL, &d), HY_OK);
    assert_int_equal(hy_element_trial(&e, 0.2, 1.0, &Q2, NULL, &d), HY_OK);
    assert_true(Q == Q2);
    REL(dQ, hy_kin_R(m, 1, 0.2, Q), 1e-14);
    hy_element_revert(&e);
    assert_true(st.q_c == 0 && st.f_c == 0);
    /* two committed halves equal one step to integration accuracy */
    assert_int_equal(hy_element_trial(&e, 0.1, 1.0, &Q2, NULL, &d), HY_OK);
    hy_element_commit(&e);
    assert_int_equal(hy_element_state(&e), 1);
    assert_int_equal(hy_element_trial(&e, 0.2, 1.0, &Q2, NULL, &d), HY_OK);
    hy_element_commit(&e);
    assert_true(fabs(Q2 - Q) < 1e-9);
    /* qdot = 0: the direction comes from q - q_c (here unloading) */
    double Qu;
    assert_int_equal(hy_element_trial(&e, 0.1, 0.0, &Qu, &dQ, &d), HY_OK);
    REL(Qu, hy_kin_integrate(m, -1, 0.2, Q2, 0.1), 1e-14);
    assert_int_equal(st.dir_t, -1);
    REL(dQ, hy_kin_R(m, -1, 0.1, Qu), 1e-14);
    /* qdot sign decides the law even against q - q_c (the caller located the reversal) */
    assert_int_equal(hy_element_trial(&e, 0.1, 1.0, &Q, NULL, &d), HY_OK);
    REL(Q, hy_kin_integrate(m, 1, 0.2, Q2, 0.1), 1e-14);
    hy_element_revert(&e);
    assert_int_equal(hy_element_state(&e), 1);
    /* outside the range: HY_ERANGE with diag, committed state untouched (no clamping) */
    assert_int_equal(hy_element_trial(&e, 0.6, 1.0, &Q, NULL, &d), HY_ERANGE);
    assert_int_equal(d.code, HY_ERANGE);
    assert_true(d.q == 0.6 && d.qdot == 1.0 && d.state == 1);
    assert_non_null(strstr(d.rule, "valid range"));
    assert_true(st.q_c == 0.2 && st.f_c == Q2);
    assert_int_equal(hy_element_trial(&e, NAN, 1.0, &Q, NULL, &d), HY_EARG);
    char buf[300];
    hy_diag_format(&d, buf, sizeof buf);
    assert_non_null(strstr(buf, "not a finite"));
    /* reset: inside the range only */
    hy_err err;
    assert_int_equal(hy_element_reset(&e, 0.7, 0, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "outside the valid range"));
    assert_int_equal(hy_element_reset(&e, -0.1, 5, &err), HY_OK);
    assert_int_equal(hy_element_state(&e), 0);
    assert_true(st.q_c == -0.1 && st.f_c == 5);
    hy_element_free(&e); /* a view: must not free the embedded state */
    assert_null(e.self);
    hy_kin_model_free(m);
}

static void model_new_rejects_bad_specs(void **state)
{
    (void)state;
    hy_kin_spec s;
    hy_kin_model *m = NULL;
    hy_err err;
    hy_kin_paper_spec(&s, 0);
    s.load.k = 9;
    assert_int_equal(hy_kin_model_new(&s, &m, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "k = 9"));
    hy_kin_paper_spec(&s, 0);
    s.load.m = 0;
    assert_int_equal(hy_kin_model_new(&s, &m, &err), HY_EMODEL);
    hy_kin_paper_spec(&s, 0);
    s.load.C[2][1] = NAN;
    assert_int_equal(hy_kin_model_new(&s, &m, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "C[2][1]"));
    hy_kin_paper_spec(&s, 0);
    s.q_min = 0.5;
    s.q_max = 0.5;
    assert_int_equal(hy_kin_model_new(&s, &m, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "range"));
    hy_kin_paper_spec(&s, 0);
    s.rule = HY_KIN_TWO_SET; /* unloading set left empty */
    assert_int_equal(hy_kin_model_new(&s, &m, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "unloading"));
    assert_null(m);
    /* unused coefficients beyond k x m are ignored (zeroed in the stored spec) */
    hy_kin_paper_spec(&s, 0);
    s.load.C[7][7] = 1e300;
    assert_int_equal(hy_kin_model_new(&s, &m, &err), HY_OK);
    assert_true(hy_kin_model_spec(m)->load.C[7][7] == 0.0);
    hy_kin_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(point_evaluations),
        cmocka_unit_test(horner_and_derivatives_all_sizes),
        cmocka_unit_test(forward_integration),
        cmocka_unit_test(integration_convergence_order),
        cmocka_unit_test(steady_loop_energy_table),
        cmocka_unit_test(closure_after_first_cycle),
        cmocka_unit_test(frequency_independence),
        cmocka_unit_test(negative_controls),
        cmocka_unit_test(element_trial_commit_revert),
        cmocka_unit_test(model_new_rejects_bad_specs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

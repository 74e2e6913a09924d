// Replay of model files on records they generated (hy_element_drive in the test): zero error to rounding, the
// noise level recovered, energies against a hand-computed loop area, and violations reported with row and time.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/loops.h"
#include "hyst/model.h"
#include "hyst/replay.h"

/* A symmetric double-loop table without backlash (the same numbers as fixtures/models/pwl-symmetric.json). */
static const char *PWL =
    "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"pwl\", \"kind\": \"constant\",\n"
    " \"units\": {\"q\": \"mm\", \"Q\": \"kN\"},\n"
    " \"positive\": {\"forward\": [[0, 0], [0.25, 1], [1, 2.5], [2, 3], [3, 6], [4, 7], [5, 15]],\n"
    "  \"backward\": [[0, 0], [0.25, 1], [1, 1.375], [2, 1.75], [3, 3], [4, 3.5], [4.5, 7], [5, 15]],\n"
    "  \"k_beyond\": 16},\n"
    " \"negative\": {\"forward\": [[0, 0], [-0.25, -1], [-1, -2.5], [-2, -3], [-3, -6], [-4, -7], [-5, -15]],\n"
    "  \"backward\": [[0, 0], [-0.25, -1], [-1, -1.375], [-2, -1.75], [-3, -3], [-4, -3.5], [-4.5, -7], [-5, -15]],\n"
    "  \"k_beyond\": 16}}\n";

/* The pendulum damper's full coefficient set (spec 002 §3.1), valid for |q| <= 0.52. */
static const char *KIN =
    "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"kin\", \"units\": {\"q\": \"rad\", \"Q\": \"N*m\"},\n"
    " \"rule\": \"symmetric\",\n"
    " \"C\": [[650.9, -23.9], [1422.2, -4.1], [10.027, -2.0], [1.088, -0.35], [0.103, 143.2], [0.015, 419.8]],\n"
    " \"q_range\": [-0.52, 0.52]}\n";

/* Loop area of a full cycle beyond the table on both sides, by hand: 2 x integral_0^5 (F - B) dq, trapezoids on
 * the table's segments: F 26.1875, B 16.328125 => 2 x 9.859375. */
#define PWL_CYCLE_ENERGY 19.71875

// (amplitude, step, cycles) => triangle wave 0 -> A -> -A -> ... -> 0 through exact multiples of the step
static size_t triangle(double A, double h, int cycles, double **q_out, double **t_out)
{
    size_t quarter = (size_t)llround(A / h), n = 4 * quarter * (size_t)cycles + 1;
    double *q = malloc(n * sizeof *q), *t = malloc(n * sizeof *t);
    for (size_t i = 0; i < n; i++) {
        size_t k = i % (4 * quarter);
        long m = k <= quarter ? (long)k : k <= 3 * quarter ? 2 * (long)quarter - (long)k : (long)k - 4 * (long)quarter;
        q[i] = (double)m * h;
        t[i] = 0.01 * (double)i;
    }
    *q_out = q;
    *t_out = t;
    return n;
}

// (model text, q, t) => the force the model's element gives along q (the reference, made without replay)
static double *generate(const hy_model *m, const double *t, const double *q, size_t n)
{
    hy_element e = {0};
    hy_err err;
    assert_int_equal(hy_model_element(m, &e, &err), HY_OK);
    double *Q = malloc(n * sizeof *Q);
    size_t done = 0;
    hy_diag d;
    assert_int_equal(hy_element_drive(&e, 0.0, t, q, n, Q, NULL, &done, &d), HY_OK);
    assert_int_equal(done, n);
    hy_element_free(&e);
    return Q;
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static double gauss(void)
{
    double u[2];
    for (int k = 0; k < 2; k++) {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        u[k] = ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
    }
    return sqrt(-2.0 * log(u[0])) * cos(2.0 * M_PI * u[1]);
}

static void pwl_self_replay_is_exact(void **state)
{
    (void)state;
    hy_model m;
    hy_err err;
    assert_int_equal(hy_model_parse(PWL, "sym.json", &m, &err), HY_OK);
    double *q, *t;
    size_t n = triangle(5.5, 0.05, 3, &q, &t);
    double *Qm = generate(&m, t, q, n), *Qp = malloc(n * sizeof *Qp);
    int *st = malloc(n * sizeof *st);
    size_t row = 99;
    hy_diag d;
    assert_int_equal(hy_replay_drive(&m, t, q, n, Qp, st, &row, &d, &err), HY_OK);
    assert_int_equal(row, n);
    assert_memory_equal(Qm, Qp, n * sizeof *Qp);
    hy_loops L;
    hy_loops_opts lo;
    hy_loops_opts_default(&lo);
    assert_int_equal(hy_loops_analyze(q, Qm, n, &lo, &L, &err), HY_OK);
    assert_true(L.n_cyc >= 2);
    hy_replay_metrics M;
    assert_int_equal(hy_replay_metrics_compute(q, Qm, Qp, n, L.cyc, L.n_cyc, &M, &err), HY_OK);
    assert_true(M.nrmse == 0.0);
    assert_true(M.max_abs_error == 0.0);
    assert_true(M.energy_ratio == 1.0);
    for (size_t c = 0; c < M.n_cyc; c++) {
        assert_true(fabs(M.cyc[c].energy_model - PWL_CYCLE_ENERGY) < 1e-9);
        assert_true(fabs(M.cyc[c].energy_measured - L.cyc[c].energy) < 1e-12 * PWL_CYCLE_ENERGY);
        /* peaks beyond the table: 15 + 16 x 0.5 = 23 */
        assert_true(fabs(M.cyc[c].Q_max_model - 23.0) < 1e-12);
        assert_true(fabs(M.cyc[c].Q_min_model + 23.0) < 1e-12);
    }
    /* beyond the range at the peak (state 10), on the common segment near the origin (state 0) */
    assert_int_equal(st[110], 10);
    assert_int_equal(st[0], 0);
    hy_replay_metrics_free(&M);
    hy_loops_free(&L);
    free(q); free(t); free(Qm); free(Qp); free(st);
    hy_model_free(&m);
}

/* An inner reversal on the forward branch goes onto the transition segment (state 3, spec 000 §2), which the
 * loop plot draws from the replayed states. */
static void pwl_inner_reversal_enters_transition(void **state)
{
    (void)state;
    hy_model m;
    hy_err err;
    assert_int_equal(hy_model_parse(PWL, "sym.json", &m, &err), HY_OK);
    double q[] = {0.5, 1.5, 2.5, 3.5, 3.4, 3.3, 3.4, 3.6};
    double Q[8];
    int st[8];
    hy_diag d;
    size_t row;
    assert_int_equal(hy_replay_drive(&m, NULL, q, 8, Q, st, &row, &d, &err), HY_OK);
    assert_int_equal(st[3], 1);
    assert_int_equal(st[4], 3);
    assert_int_equal(st[5], 3);
    /* the transition's slope is k_max = 16: two steps of -0.1 from F(3.5) = 6.5 */
    assert_true(fabs(Q[3] - 6.5) < 1e-12);
    assert_true(fabs(Q[5] - (6.5 - 16 * 0.2)) < 1e-12);
    hy_model_free(&m);
}

static void pwl_noise_level_is_measured(void **state)
{
    (void)state;
    hy_model m;
    hy_err err;
    assert_int_equal(hy_model_parse(PWL, "sym.json", &m, &err), HY_OK);
    double *q, *t;
    size_t n = triangle(5.5, 0.05, 25, &q, &t); /* 11 001 samples: RMS sampling error ~0.7 % */
    double *Qm = generate(&m, t, q, n), *Qp = malloc(n * sizeof *Qp);
    const double sigma = 0.2;
    for (size_t i = 0; i < n; i++)
        Qm[i] += sigma * gauss();
    hy_diag d;
    size_t row;
    assert_int_equal(hy_replay_drive(&m, t, q, n, Qp, NULL, &row, &d, &err), HY_OK);
    hy_loops L;
    hy_loops_opts lo;
    hy_loops_opts_default(&lo);
    assert_int_equal(hy_loops_analyze(q, Qm, n, &lo, &L, &err), HY_OK);
    hy_replay_metrics M;
    assert_int_equal(hy_replay_metrics_compute(q, Qm, Qp, n, L.cyc, L.n_cyc, &M, &err), HY_OK);
    assert_true(fabs(M.rms_error / sigma - 1.0) < 0.03);
    assert_true(fabs(M.nrmse / (sigma / M.Q_ptp) - 1.0) < 0.03);
    /* zero-mean noise hardly changes a loop's area: |dE| ~ sigma x sqrt(samples) x dq */
    assert_true(fabs(M.energy_ratio - 1.0) < 0.01);
    hy_replay_metrics_free(&M);
    hy_loops_free(&L);
    free(q); free(t); free(Qm); free(Qp);
    hy_model_free(&m);
}

static void kin_self_replay_is_exact(void **state)
{
    (void)state;
    hy_model m;
    hy_err err;
    assert_int_equal(hy_model_parse(KIN, "kin.json", &m, &err), HY_OK);
    size_t n = 3000;
    double *q = malloc(n * sizeof *q), *t = malloc(n * sizeof *t), *Qp = malloc(n * sizeof *Qp);
    for (size_t i = 0; i < n; i++) {
        t[i] = 0.005 * (double)i;
        q[i] = 0.4 * sin(2 * M_PI * t[i] / 2.5);
    }
    double *Qm = generate(&m, t, q, n);
    hy_diag d;
    size_t row;
    assert_int_equal(hy_replay_drive(&m, t, q, n, Qp, NULL, &row, &d, &err), HY_OK);
    hy_replay_metrics M;
    assert_int_equal(hy_replay_metrics_compute(q, Qm, Qp, n, NULL, 0, &M, &err), HY_OK);
    assert_true(M.nrmse == 0.0);
    assert_true(M.Q_ptp > 50.0);
    hy_replay_metrics_free(&M);
    free(q); free(t); free(Qm); free(Qp);
    hy_model_free(&m);
}

/* Leaving the kinematic model's valid range stops the replay at that row, with its time in the message. */
static void violation_names_row_and_time(void **state)
{
    (void)state;
    hy_model m;
    hy_err err;
    assert_int_equal(hy_model_parse(KIN, "kin.json", &m, &err), HY_OK);
    double q[] = {0, 0.2, 0.4, 0.5, 0.6, 0.5}, t[] = {0, 0.5, 1, 1.5, 2, 2.5}, Q[6];
    hy_diag d = {0};
    size_t row = 0;
    int rc = hy_replay_drive(&m, t, q, 6, Q, NULL, &row, &d, &err);
    assert_int_not_equal(rc, HY_OK);
    assert_int_equal(err.code, rc);
    assert_int_equal(row, 4);
    assert_true(d.q == 0.6);
    assert_non_null(strstr(err.msg, "row 5, t = 2, q = 0.6: "));
    /* without time the message gives the row and q */
    assert_int_not_equal(hy_replay_drive(&m, NULL, q, 6, Q, NULL, &row, &d, &err), HY_OK);
    assert_non_null(strstr(err.msg, "row 5, q = 0.6: "));
    hy_model_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pwl_self_replay_is_exact),
        cmocka_unit_test(pwl_inner_reversal_enters_transition),
        cmocka_unit_test(pwl_noise_level_is_measured),
        cmocka_unit_test(kin_self_replay_is_exact),
        cmocka_unit_test(violation_names_row_and_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

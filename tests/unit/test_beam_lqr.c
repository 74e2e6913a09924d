/* The MFC + LQR of spec 004 §5 (T8): the linear model's structure, the CARE solution symmetric positive definite,
 * A - BK Hurwitz, the closed loop on the nonlinear model lowers the tip RMS, saturation holds, the paper's
 * theta-state design is refused (uncontrollable rigid mode). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "mech/beam.h"

static mech_beam_model *paper_model(void)
{
    mech_beam_params p;
    mech_beam_params_default(&p);
    p.hinge[0].clearance = 0.005;
    p.mfc.enabled = 1;
    mech_beam_model *m;
    hy_err err;
    if (mech_beam_model_new(&p, &m, &err) != HY_OK)
        fail_msg("%s", err.msg);
    return m;
}

/* Mp / U = e_eff b t (h + t) / De = 0.0371 N m/V (spec §5) and the pair has no net force */
static void mfc_moment_pair(void **state)
{
    (void)state;
    mech_beam_model *m = paper_model();
    mech_beam_info in;
    mech_beam_model_info(m, &in);
    double Mp = 12.14 * 0.2 * 0.0003 * 0.0153 / 0.0003;
    assert_true(fabs(Mp - 0.0371) < 1e-4);
    /* b_u = Phi' K_u: the moment pair does work only through the rotation difference of the patch ends */
    double s = 0;
    for (size_t i = 0; i < in.nm; i++)
        s += fabs(in.b_u[i]);
    assert_true(s > 0);
    mech_beam_model_free(m);
}

static void flexible_design(void **state)
{
    (void)state;
    mech_beam_model *m = paper_model();
    mech_beam_lqr L;
    hy_err err;
    if (mech_beam_lqr_design(m, MECH_BEAM_DESIGN_FLEX, 600, 0.1, &L, &err) != HY_OK)
        fail_msg("%s", err.msg);
    size_t n = L.ns;
    assert_int_equal(n, 10);
    double *X = malloc((n * n + n) * sizeof *X), *ev = X + n * n;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            assert_true(fabs(L.X[i * n + j] - L.X[j * n + i]) <= 1e-9 * fabs(L.X[i * n + j]) + 1e-12);
    memcpy(X, L.X, n * n * sizeof *X);
    assert_int_equal(LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', (lapack_int)n, X, (lapack_int)n, ev), 0);
    print_message("X eigenvalues %.4g .. %.4g\n", ev[0], ev[n - 1]);
    assert_true(ev[0] > 0);
    double worst = -INFINITY;
    for (size_t i = 0; i < n; i++)
        worst = fmax(worst, L.pole_re[i]);
    print_message("closed loop: largest real part %.4g 1/s\n", worst);
    assert_true(worst < 0);
    /* the open-loop model is undamped: every open pole on the imaginary axis */
    for (size_t i = 0; i < n; i++)
        assert_true(fabs(L.open_re[i]) < 1e-8 * fabs(L.open_im[i]));
    /* closed loop on the nonlinear model (eq. 15 + b U): the tip RMS falls; saturation at 50 V holds */
    mech_beam_solver s;
    mech_beam_solver_default(&s);
    mech_beam_load l;
    mech_beam_load_default(&l);
    double rms[3] = {0, 0, 0}, umax[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        mech_beam_control ctl = {.K = L.K, .u_max = k == 2 ? 50 : 0};
        mech_beam_data *d;
        assert_int_equal(mech_beam_data_new(m, &s, &l, k ? &ctl : NULL, NULL, NULL, &d, NULL), HY_OK);
        mech_beam_obs o;
        for (int i = 0; i < 20000; i++) {
            assert_int_equal(mech_beam_step(d, NULL), HY_OK);
            mech_beam_observe(d, &o);
            rms[k] += o.w_tip * o.w_tip;
            umax[k] = fmax(umax[k], fabs(o.U));
        }
        rms[k] = sqrt(rms[k] / 20000);
        mech_beam_data_free(d);
    }
    print_message("tip RMS open %.4g m, LQR %.4g m, LQR at |U| <= 50 V %.4g m; peak |U| %.4g V\n", rms[0], rms[1],
                  rms[2], umax[1]);
    assert_true(rms[1] < rms[0]);
    assert_true(rms[2] < rms[0]);
    assert_true(umax[2] <= 50 && umax[1] > 50);
    free(X);
    mech_beam_lqr_free(&L);
    mech_beam_model_free(m);
}

/* mech_beam_run_pair (how `mech beam lqr` runs the uncontrolled and the controlled run side by side): each run's
 * samples, counts and totals equal mech_beam_run's of that run alone bit for bit (the same per-sample code; a
 * second loop that drifted, e.g. the observation without energies or the runs' order swapped, fails here); the pair
 * callback sees sample i of both; the failing run is named (a refused control) and a callback
 * error stops both runs with its status. */
typedef struct pair_keep {
    size_t n;
    double *v;                      /* 2 runs x 8 numbers x cap                                              */
    size_t cap;
    int stop_at;                    /* the callback returns HY_EDATA at this sample (-1: never)              */
} pair_keep;

static int keep_pair(void *ctx, size_t i, const mech_beam_obs *o0, const mech_beam_obs *o1, hy_err *err)
{
    pair_keep *k = ctx;
    if (i != k->n || i >= k->cap)
        return hy_err_set(err, HY_EARG, "sample %zu out of order (expected %zu)", i, k->n);
    if ((int)i == k->stop_at)
        return hy_err_set(err, HY_EDATA, "stopped at %zu", i);
    const mech_beam_obs *o[2] = {o0, o1};
    for (int r = 0; r < 2; r++) {
        double *v = k->v + ((size_t)r * 8) * k->cap + i;
        double x[8] = {o[r]->t, o[r]->w_tip, o[r]->theta, o[r]->theta_dot, o[r]->U, o[r]->F, o[r]->dtheta[0],
                       o[r]->M[0]};
        for (int c = 0; c < 8; c++)
            v[(size_t)c * k->cap] = x[c];
    }
    k->n++;
    return HY_OK;
}

static void run_pair_equals_single_runs(void **state)
{
    (void)state;
    mech_beam_model *m = paper_model();
    mech_beam_lqr L;
    hy_err err;
    if (mech_beam_lqr_design(m, MECH_BEAM_DESIGN_FLEX, 600, 0.1, &L, &err) != HY_OK)
        fail_msg("%s", err.msg);
    mech_beam_solver s;
    mech_beam_solver_default(&s);
    s.duration = 0.3;
    mech_beam_load l;
    mech_beam_load_default(&l);
    size_t n;
    assert_int_equal(mech_beam_samples(&s, &n, &err), HY_OK);
    mech_beam_control ctl = {.K = L.K, .u_max = 50};
    /* the reference: each run alone through mech_beam_run, its arrays kept */
    double *buf = calloc(2 * 8 * n, sizeof *buf);
    assert_non_null(buf);
    mech_beam_history ref[2];
    for (int r = 0; r < 2; r++) {
        double *p = buf + (size_t)r * 8 * n;
        ref[r] = (mech_beam_history){.cap = n, .t = p, .w_tip = p + n, .theta = p + 2 * n, .theta_dot = p + 3 * n,
                                     .U = p + 4 * n, .F = p + 5 * n, .dtheta = p + 6 * n, .M = p + 7 * n};
        if (mech_beam_run(m, &s, &l, r ? &ctl : NULL, &ref[r], &err) != HY_OK)
            fail_msg("%s", err.msg);
    }
    /* the pair, streamed (no arrays): the callback keeps the samples in the same layout */
    pair_keep k = {.n = 0, .cap = n, .stop_at = -1};
    k.v = calloc(2 * 8 * n, sizeof *k.v);
    assert_non_null(k.v);
    mech_beam_history h0, h1;
    memset(&h0, 0, sizeof h0);
    memset(&h1, 0, sizeof h1);
    mech_beam_history *const hs[2] = {&h0, &h1};
    const mech_beam_control *const ctls[2] = {NULL, &ctl};
    int which = 7;
    if (mech_beam_run_pair(m, &s, &l, ctls, hs, keep_pair, &k, &which, &err) != HY_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(which, -1);
    assert_int_equal(k.n, n);
    if (memcmp(k.v, buf, 2 * 8 * n * sizeof *buf) != 0)
        fail_msg("the pair's samples differ from mech_beam_run's");
    for (int r = 0; r < 2; r++) {
        const mech_beam_history *a = hs[r], *b = &ref[r];
        assert_int_equal(a->n, n);
        assert_int_equal(a->failed, 0);
        double ta[7] = {a->W_ext, a->W_hinge, a->T, a->V_beam, a->h, a->balance_max, a->W_j[0]};
        double tb[7] = {b->W_ext, b->W_hinge, b->T, b->V_beam, b->h, b->balance_max, b->W_j[0]};
        assert_memory_equal(ta, tb, sizeof ta);
        assert_int_equal(a->contact[0], b->contact[0]);
        assert_int_equal(a->contact_onsets[0], b->contact_onsets[0]);
        assert_int_equal(a->turning_points[0], b->turning_points[0]);
    }
    /* the two runs differ (the control acts): a pair that ran one run twice would fail above, this says why */
    assert_true(memcmp(buf, buf + 8 * n, 8 * n * sizeof *buf) != 0);

    /* a callback error stops both runs with its status; no run is blamed */
    k.n = 0, k.stop_at = 5;
    assert_int_equal(mech_beam_run_pair(m, &s, &l, ctls, hs, keep_pair, &k, &which, &err), HY_EDATA);
    assert_int_equal(which, -1);
    assert_int_equal(k.n, 5);
    assert_int_equal(h0.n, 6);
    assert_int_equal(h1.n, 6);

    /* a controlled run whose data is refused (feedback on physical coordinates): run 1 named */
    mech_beam_solver sp = s;
    sp.physical = 1;
    k.n = 0, k.stop_at = -1;
    assert_int_equal(mech_beam_run_pair(m, &sp, &l, ctls, hs, keep_pair, &k, &which, &err), HY_EARG);
    assert_int_equal(which, 1);
    assert_int_equal(k.n, 0);
    assert_non_null(strstr(err.msg, "modal coordinates"));

    free(k.v);
    free(buf);
    mech_beam_lqr_free(&L);
    mech_beam_model_free(m);
}

/* the paper's Z = [theta; q; theta'; q'] design: (A, B) has an uncontrollable double eigenvalue at 0 */
static void theta_design_refused(void **state)
{
    (void)state;
    mech_beam_model *m = paper_model();
    mech_beam_lqr L;
    hy_err err;
    assert_int_equal(mech_beam_lqr_design(m, MECH_BEAM_DESIGN_THETA, 600, 0.1, &L, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "not stabilisable"));
    assert_null(L.A);
    /* eqs. 23-24: y = J theta + H q has y'' = 0 whatever U: the row (J, H) M_s^-1 [0; b] of B is 0 and
     * (J, H) M_s^-1 K_s = (0, ...) since K_s's theta column is zero: check J B[6] + H B[7..11] = 0 */
    double A[144], B[12];
    size_t ns;
    assert_int_equal(mech_beam_linear(m, MECH_BEAM_DESIGN_THETA, A, B, &ns, NULL), HY_OK);
    assert_int_equal(ns, 12);
    mech_beam_info in;
    mech_beam_model_info(m, &in);
    double y = in.J * B[6], scale = fabs(in.J * B[6]);
    for (size_t i = 0; i < 5; i++) {
        y += in.H[i] * B[7 + i];
        scale += fabs(in.H[i] * B[7 + i]);
    }
    assert_true(fabs(y) <= 1e-12 * scale);
    mech_beam_model_free(m);
    /* no MFC: no control */
    mech_beam_params p;
    mech_beam_params_default(&p);
    assert_int_equal(mech_beam_model_new(&p, &m, NULL), HY_OK);
    assert_int_equal(mech_beam_lqr_design(m, MECH_BEAM_DESIGN_FLEX, 600, 0.1, &L, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "mfc.enabled"));
    mech_beam_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mfc_moment_pair),
        cmocka_unit_test(flexible_design),
        cmocka_unit_test(theta_design_refused),
        cmocka_unit_test(run_pair_equals_single_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Jointed-beam time integration (spec 004 §4, §11 T4-T6): conservation, clearance limits, odd symmetry, the §4.5
 * baseline, lagged vs iterated, physical FE coordinates vs the modal model, hinge laws from model files, the energy
 * balance and the error paths; a hinge's law_scale (the hysteresis scale a calibration identifies). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mech/beam.h"
#include "beam/beam_internal.h"

typedef struct run {
    int n;                 /* steps recorded (plus the initial state at 0) */
    double *w, *th, *thd, *dth, *M, *h, *E, *bal;
    double w_max, th_max, thd_max, dth_max, M_max, t_wmax, h_max, E_lin_dev, bal_max, W_ext;
    int contact_steps;
} run;

static mech_beam_model *build(const mech_beam_params *p)
{
    mech_beam_model *m = NULL;
    hy_err err;
    if (mech_beam_model_new(p, &m, &err) != HY_OK)
        fail_msg("%s", err.msg);
    return m;
}

static void record(run *r, int i, const mech_beam_obs *o)
{
    r->w[i] = o->w_tip;
    r->th[i] = o->theta;
    r->thd[i] = o->theta_dot;
    r->dth[i] = o->dtheta ? o->dtheta[0] : 0;
    r->M[i] = o->M ? o->M[0] : 0;
    r->h[i] = o->h;
    r->E[i] = o->E_lin;
    r->bal[i] = o->T + o->V_beam + o->W_hinge - o->W_ext;
    if (fabs(o->w_tip) > r->w_max) {
        r->w_max = fabs(o->w_tip);
        r->t_wmax = o->t;
    }
    r->th_max = fmax(r->th_max, fabs(o->theta));
    r->thd_max = fmax(r->thd_max, fabs(o->theta_dot));
    r->dth_max = fmax(r->dth_max, fabs(r->dth[i]));
    r->M_max = fmax(r->M_max, fabs(r->M[i]));
    r->h_max = fmax(r->h_max, fabs(o->h));
    r->E_lin_dev = fmax(r->E_lin_dev, fabs(o->E_lin - r->E[0]));
    r->bal_max = fmax(r->bal_max, fabs(r->bal[i]));
    r->W_ext = o->W_ext;
}

static run simulate(const mech_beam_model *m, const mech_beam_solver *s, const mech_beam_load *l,
                    const mech_beam_init *init, const mech_beam_enable *en)
{
    run r;
    memset(&r, 0, sizeof r);
    r.n = (int)lround(s->duration / s->dt);
    double *buf = calloc(8 * (size_t)(r.n + 1), sizeof *buf);
    assert_non_null(buf);
    r.w = buf, r.th = r.w + r.n + 1, r.thd = r.th + r.n + 1, r.dth = r.thd + r.n + 1, r.M = r.dth + r.n + 1;
    r.h = r.M + r.n + 1, r.E = r.h + r.n + 1, r.bal = r.E + r.n + 1;
    mech_beam_data *d;
    hy_err err;
    if (mech_beam_data_new(m, s, l, NULL, init, en, &d, &err) != HY_OK)
        fail_msg("%s", err.msg);
    mech_beam_obs o;
    mech_beam_observe_energy(d, &o);
    record(&r, 0, &o);
    const mech_beam_params *p = mech_beam_model_params(m);
    for (int i = 1; i <= r.n; i++) {
        if (mech_beam_step(d, &err) != HY_OK)
            fail_msg("%s", err.msg);
        mech_beam_observe_energy(d, &o);
        record(&r, i, &o);
        if (p->n_hinges > 0 && fabs(o.dtheta[0]) > p->hinge[0].clearance)
            r.contact_steps++;
    }
    mech_beam_data_free(d);
    return r;
}

static void run_free(run *r)
{
    free(r->w);
}

static mech_beam_solver solver(double duration)
{
    mech_beam_solver s;
    mech_beam_solver_default(&s);
    s.duration = duration;
    return s;
}

/* T6: the §4.5 configuration (J1 = 100, k = k_l, m = 0.02, d = 0), 300 N x 5 ms at the tip, 2 s:
 * spec §8: 4.48e-2 m, 4.92e-3 rad, 6.98e-2 rad/s, 71.5 N m, max |dtheta| 1.6e-3 rad, first tip peak at 0.137 s */
static void baseline_4_5(void **state)
{
    (void)state;
    mech_beam_params p;
    mech_beam_params_default(&p);
    mech_beam_model *m = build(&p);
    mech_beam_solver s = solver(2);
    mech_beam_load l;
    mech_beam_load_default(&l);
    run r = simulate(m, &s, &l, NULL, NULL);
    print_message("baseline: w %.4e m at %.4f s, theta %.4e rad, theta' %.4e rad/s, M %.4g N m, dtheta %.4e rad\n",
                  r.w_max, r.t_wmax, r.th_max, r.thd_max, r.M_max, r.dth_max);
    assert_true(fabs(r.w_max - 4.48e-2) <= 0.005e-2);
    assert_true(fabs(r.th_max - 4.92e-3) <= 0.005e-3);
    assert_true(fabs(r.thd_max - 6.98e-2) <= 0.005e-2);
    assert_true(fabs(r.M_max - 71.5) <= 0.05);
    assert_true(fabs(r.dth_max - 1.6e-3) <= 0.05e-3);
    assert_true(fabs(r.t_wmax - 0.137) <= 0.0005 + 1e-4);
    /* the exact-impulse pulse (F0 / 2 at the two jump samples) scales the linear response by 1.5 / 1.515 */
    l.edges = MECH_BEAM_EDGES_HALF;
    run h = simulate(m, &s, &l, NULL, NULL);
    assert_true(fabs(h.w_max / r.w_max - 1.5 / 1.515) < 2e-3);
    /* energy balance: T + V_beam + W_hinge = W_ext at every step (lagged scheme; linear hinge) */
    print_message("energy balance: max |T + V + W_hinge - W_ext| = %.2e J of W_ext = %.6f J\n", r.bal_max, r.W_ext);
    assert_true(r.bal_max <= 1e-6 * r.W_ext);
    /* §4.3 configuration: J1 = 80, k = 0.8 k_l: 4.66e-2 m, 5.77e-3 rad, 2.0e-3 rad */
    run_free(&h);
    run_free(&r);
    mech_beam_model_free(m);
    p.J1 = 80;
    p.hinge[0].k *= 0.8;
    m = build(&p);
    mech_beam_load_default(&l);
    r = simulate(m, &s, &l, NULL, NULL);
    print_message("§4.3: w %.4e m at %.4f s, theta %.4e rad, dtheta %.4e rad\n", r.w_max, r.t_wmax, r.th_max,
                  r.dth_max);
    assert_true(fabs(r.w_max - 4.66e-2) <= 0.005e-2);
    assert_true(fabs(r.th_max - 5.77e-3) <= 0.005e-3);
    assert_true(fabs(r.dth_max - 2.0e-3) <= 0.05e-3);
    run_free(&r);
    mech_beam_model_free(m);
}

/* T4: unforced, undamped, d = 0. Linear model: the energy is constant and h = J th' + H q' = 0 to round-off, and
 * J theta + H q = 0 (no drift). Nonlinear faithful model: h stays 0 to the integrator's accuracy (lagged), and much
 * closer with the iterated update. */
static void conservation(void **state)
{
    (void)state;
    mech_beam_params p;
    mech_beam_params_default(&p);
    mech_beam_model *m = build(&p);
    mech_beam_info in;
    mech_beam_model_info(m, &in);
    double q0[5] = {0.05, -0.01, 0.004, 0.002, -0.001};
    mech_beam_init init = {.q = q0};
    mech_beam_load l = {0};
    mech_beam_solver s = solver(1);
    s.linear = 1;
    run r = simulate(m, &s, &l, &init, NULL);
    print_message("linear model: energy %.6e J, max |E - E0| %.3e J, max |h| %.3e N m s\n", r.E[0], r.E_lin_dev,
                  r.h_max);
    assert_true(r.E_lin_dev <= 1e-11 * r.E[0]);
    assert_true(r.h_max <= 1e-11 * in.J * r.thd_max);
    run_free(&r);
    /* forced, linear model, faithful: h = 0 to round-off as well (no theta-row torque) */
    mech_beam_load_default(&l);
    r = simulate(m, &s, &l, NULL, NULL);
    print_message("linear model, forced: max |h| / (J max|theta'|) = %.2e\n", r.h_max / (in.J * r.thd_max));
    assert_true(r.h_max <= 1e-11 * in.J * r.thd_max);
    run_free(&r);
    /* nonlinear (eq. 15), lagged and iterated, forced */
    s.linear = 0;
    r = simulate(m, &s, &l, NULL, NULL);
    s.update = MECH_BEAM_ITERATED;
    run it = simulate(m, &s, &l, NULL, NULL);
    print_message("nonlinear: max |h| / (J max|theta'|) lagged %.2e, iterated %.2e\n", r.h_max / (in.J * r.thd_max),
                  it.h_max / (in.J * it.thd_max));
    assert_true(r.h_max <= 1e-6 * in.J * r.thd_max);
    assert_true(it.h_max <= 0.01 * r.h_max);
    /* lagged and iterated agree to the printed digits when d = 0 (spec §4 [H]) */
    assert_true(fabs(r.w_max - it.w_max) <= 1e-6 * r.w_max);
    run_free(&it);
    run_free(&r);
    /* consistent mode: the tip force's torque spins the craft up: h = (r0 + l) F0 width after the pulse */
    s.update = MECH_BEAM_LAGGED;
    s.theta_torque = 1;
    s.duration = 0.05;
    l.edges = MECH_BEAM_EDGES_HALF;
    mech_beam_data *d;
    assert_int_equal(mech_beam_data_new(m, &s, &l, NULL, NULL, NULL, &d, NULL), HY_OK);
    for (int i = 0; i < 500; i++)
        assert_int_equal(mech_beam_step(d, NULL), HY_OK);
    mech_beam_obs o;
    mech_beam_observe_energy(d, &o);
    print_message("consistent mode: h = %.6f N m s after the pulse (expected %.6f)\n", o.h, 3.2 * 300 * 0.005);
    assert_true(fabs(o.h - 3.2 * 300 * 0.005) < 1e-4 * 4.8);
    mech_beam_data_free(d);
    mech_beam_model_free(m);
}

/* linear limit of the attitude: J theta + H q = 0 at every step (from rest, linear model) */
static void no_attitude_drift(void **state)
{
    (void)state;
    mech_beam_params p;
    mech_beam_params_default(&p);
    mech_beam_model *m = build(&p);
    mech_beam_info in;
    mech_beam_model_info(m, &in);
    mech_beam_solver s = solver(0.5);
    s.linear = 1;
    mech_beam_load l;
    mech_beam_load_default(&l);
    mech_beam_data *d;
    assert_int_equal(mech_beam_data_new(m, &s, &l, NULL, NULL, NULL, &d, NULL), HY_OK);
    double worst = 0, th_max = 0;
    for (int i = 0; i < 5000; i++) {
        assert_int_equal(mech_beam_step(d, NULL), HY_OK);
        size_t n;
        const double *x = mech_beam_state(d, NULL, &n);
        double y = in.J * x[0];
        for (size_t k = 0; k < n; k++)
            y += in.H[k] * x[1 + k];
        worst = fmax(worst, fabs(y));
        th_max = fmax(th_max, fabs(x[0]));
    }
    print_message("linear model: max |J theta + H q| / (J max|theta|) = %.2e\n", worst / (in.J * th_max));
    assert_true(worst <= 1e-11 * in.J * th_max);
    mech_beam_data_free(d);
    mech_beam_model_free(m);
}

/* T5: Option A with d = 0 is exactly the linear hinge; the response is odd in F; the dead-zone moment is non-zero
 * exactly where |dtheta| > d; a gap larger than the motion gives M = 0 throughout; Option B at d = 0 is 2 k */
static void clearance_limits(void **state)
{
    (void)state;
    mech_beam_params p;
    mech_beam_params_default(&p);
    mech_beam_model *m = build(&p);
    mech_beam_solver s = solver(0.6);
    mech_beam_load l;
    mech_beam_load_default(&l);
    mech_beam_enable off = {0, 1, 1, 1};
    run a = simulate(m, &s, &l, NULL, NULL), lin = simulate(m, &s, &l, NULL, &off);
    for (int i = 0; i <= a.n; i++)
        assert_true(a.w[i] == lin.w[i] && a.th[i] == lin.th[i]);
    run_free(&a);
    run_free(&lin);
    mech_beam_model_free(m);
    /* a gap that closes: 1500 N and d = 0.001 rad */
    p.hinge[0].clearance = 0.001;
    m = build(&p);
    l.F0 = 1500;
    run pos = simulate(m, &s, &l, NULL, NULL);
    l.F0 = -1500;
    run neg = simulate(m, &s, &l, NULL, NULL);
    for (int i = 0; i <= pos.n; i++) {
        assert_true(fabs(pos.w[i] + neg.w[i]) <= 1e-12 * pos.w_max);
        assert_true(fabs(pos.th[i] + neg.th[i]) <= 1e-12 * pos.th_max);
        int beyond = fabs(pos.dth[i]) > 0.001;
        assert_true(beyond ? pos.M[i] != 0 : pos.M[i] == 0);
        if (beyond)
            assert_true(fabs(pos.M[i] - p.hinge[0].k * (pos.dth[i] - copysign(0.001, pos.dth[i]))) <=
                        1e-9 * fabs(pos.M[i]));
    }
    print_message("1500 N, d = 0.001: contact in %d of %d steps\n", pos.contact_steps, pos.n);
    assert_true(pos.contact_steps > 0 && pos.contact_steps < pos.n);
    run_free(&pos);
    run_free(&neg);
    mech_beam_model_free(m);
    /* d larger than any motion: no moment at all */
    p.hinge[0].clearance = 0.05;
    m = build(&p);
    l.F0 = 300;
    run big = simulate(m, &s, &l, NULL, NULL);
    assert_true(big.M_max == 0);
    run_free(&big);
    mech_beam_model_free(m);
    /* Option B, d = 0: M = 2 k dtheta */
    p.hinge[0].clearance = 0;
    p.hinge[0].law = MECH_BEAM_DEADZONE_B;
    m = build(&p);
    run b = simulate(m, &s, &l, NULL, NULL);
    for (int i = 0; i <= b.n; i++)
        assert_true(fabs(b.M[i] - 2 * p.hinge[0].k * b.dth[i]) <= 1e-9 * b.M_max);
    run_free(&b);
    mech_beam_model_free(m);
}

/* physical FE coordinates (banded LAPACK) vs the modal model as the mode count grows (docs/beam.md's table) */
static void physical_vs_modal(void **state)
{
    (void)state;
    mech_beam_params p;
    mech_beam_params_default(&p);
    mech_beam_solver s = solver(0.3);
    mech_beam_load l;
    mech_beam_load_default(&l);
    s.physical = 1;
    mech_beam_model *m = build(&p);
    run ph = simulate(m, &s, &l, NULL, NULL);
    mech_beam_model_free(m);
    s.physical = 0;
    int modes[4] = {5, 10, 20, 40};
    double prev = INFINITY;
    for (int k = 0; k < 4; k++) {
        p.n_modes = modes[k];
        m = build(&p);
        run r = simulate(m, &s, &l, NULL, NULL);
        double ew = 0, eM = 0;
        for (int i = 0; i <= r.n; i++) {
            ew = fmax(ew, fabs(r.w[i] - ph.w[i]));
            eM = fmax(eM, fabs(r.M[i] - ph.M[i]));
        }
        print_message("%2d modes: max|w| %.5e (physical %.5e), max|M| %.3f (physical %.3f), max diff w %.2e, M %.2e\n",
                      modes[k], r.w_max, ph.w_max, r.M_max, ph.M_max, ew / ph.w_max, eM / ph.M_max);
        assert_true(eM / ph.M_max < prev);
        prev = eM / ph.M_max;
        run_free(&r);
        mech_beam_model_free(m);
    }
    assert_true(prev < 0.02);
    run_free(&ph);
}

/* a hinge law from a hyst-model file: a linear pwl table of slope k (in mrad and N m) reproduces the linear hinge;
 * units other than an angle and a moment are refused */
static void model_law_hinge(void **state)
{
    (void)state;
    const char *lin = "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"pwl\", \"kind\": \"constant\","
                      " \"units\": {\"q\": \"mrad\", \"Q\": \"N·m\"},"
                      " \"positive\": {\"forward\": [[0, 0], [10, 437.5]], \"backward\": [[0, 0], [10, 437.5]],"
                      " \"k_beyond\": 43.75},"
                      " \"negative\": {\"forward\": [[0, 0], [-10, -437.5]], \"backward\": [[0, 0], [-10, -437.5]],"
                      " \"k_beyond\": 43.75}}";
    hy_model hm;
    hy_err err;
    if (hy_model_parse(lin, "lin.json", &hm, &err) != HY_OK)
        fail_msg("%s", err.msg);
    assert_true(mech_beam_angle_scale(hm.unit_q) == 1000 && mech_beam_moment_scale(hm.unit_Q) == 1);
    mech_beam_params p;
    mech_beam_params_default(&p);
    mech_beam_model *m0 = build(&p);
    p.hinge[0].law = MECH_BEAM_MODEL;
    p.hinge[0].model = &hm;
    p.hinge[0].q_scale = 1000;
    mech_beam_model *m1 = build(&p);
    mech_beam_solver s = solver(0.5);
    mech_beam_load l;
    mech_beam_load_default(&l);
    run a = simulate(m0, &s, &l, NULL, NULL), b = simulate(m1, &s, &l, NULL, NULL);
    for (int i = 0; i <= a.n; i++)
        assert_true(fabs(a.w[i] - b.w[i]) <= 1e-9 * a.w_max);
    run_free(&a);
    run_free(&b);
    mech_beam_model_free(m0);
    mech_beam_model_free(m1);
    assert_true(mech_beam_angle_scale("mm") == 0 && mech_beam_moment_scale("N") == 0);
    assert_true(mech_beam_moment_scale("kN m") == 1000 && mech_beam_angle_scale("deg") > 57);
    hy_model_free(&hm);
}

/* bad solver settings and a model-law hinge leaving its range stop with the time and the hinge */
static void errors(void **state)
{
    (void)state;
    mech_beam_params p;
    mech_beam_params_default(&p);
    mech_beam_model *m = build(&p);
    mech_beam_solver s = solver(1);
    mech_beam_data *d;
    hy_err err;
    s.dt = 0;
    assert_int_equal(mech_beam_data_new(m, &s, NULL, NULL, NULL, NULL, &d, &err), HY_EARG);
    assert_non_null(strstr(err.msg, "solver.dt"));
    s = solver(1);
    s.beta = 0.7;
    assert_int_equal(mech_beam_data_new(m, &s, NULL, NULL, NULL, NULL, &d, &err), HY_EARG);
    assert_non_null(strstr(err.msg, "solver.beta"));
    mech_beam_model_free(m);
    /* a load that makes the state overflow stops the run with the time and a hint */
    mech_beam_params_default(&p);
    m = build(&p);
    s = solver(1);
    s.dt = 1e-4;
    mech_beam_load l;
    mech_beam_load_default(&l);
    l.F0 = 1e300;
    assert_int_equal(mech_beam_data_new(m, &s, &l, NULL, NULL, NULL, &d, &err), HY_OK);
    int rc = HY_OK;
    for (int i = 0; i < 100 && rc == HY_OK; i++)
        rc = mech_beam_step(d, &err);
    assert_int_not_equal(rc, HY_OK);
    assert_non_null(strstr(err.msg, "t = "));
    assert_non_null(strstr(err.msg, "hint"));
    mech_beam_data_free(d);
    mech_beam_model_free(m);
}

/* freeplay in series with a linear element (slope k) is the Option A dead zone; a hysteretic element under the
 * iterated update (trial in the passes, commit per step) keeps the energy balance and dissipates */
static void series_and_hysteretic_hinges(void **state)
{
    (void)state;
    const char *lin = "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"pwl\", \"kind\": \"constant\","
                      " \"units\": {\"q\": \"rad\", \"Q\": \"kN m\"},"
                      " \"positive\": {\"forward\": [[0, 0], [0.01, 0.4375]], \"backward\": [[0, 0], [0.01, 0.4375]],"
                      " \"k_beyond\": 43.75},"
                      " \"negative\": {\"forward\": [[0, 0], [-0.01, -0.4375]], \"backward\": [[0, 0], [-0.01, -0.4375]],"
                      " \"k_beyond\": 43.75}}";
    const char *hys = "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"pwl\", \"kind\": \"constant\","
                      " \"units\": {\"q\": \"mrad\", \"Q\": \"N m\"},"
                      " \"positive\": {\"forward\": [[0, 0], [0.5, 20], [2, 70], [4, 120], [6, 160]],"
                      " \"backward\": [[0, 0], [0.5, 20], [2, 40], [4, 80], [6, 160]], \"k_beyond\": 40},"
                      " \"negative\": {\"forward\": [[0, 0], [-0.5, -20], [-2, -70], [-4, -120], [-6, -160]],"
                      " \"backward\": [[0, 0], [-0.5, -20], [-2, -40], [-4, -80], [-6, -160]], \"k_beyond\": 40}}";
    hy_model hl, hh;
    hy_err err;
    if (hy_model_parse(lin, "lin.json", &hl, &err) != HY_OK || hy_model_parse(hys, "hys.json", &hh, &err) != HY_OK)
        fail_msg("%s", err.msg);
    mech_beam_params p;
    mech_beam_params_default(&p);
    p.hinge[0].clearance = 0.001;
    mech_beam_model *ma = build(&p);
    p.hinge[0].law = MECH_BEAM_DEADZONE_MODEL;
    p.hinge[0].model = &hl;
    p.hinge[0].Q_scale = mech_beam_moment_scale(hl.unit_Q);
    assert_true(p.hinge[0].Q_scale == 1000);
    mech_beam_model *mb = build(&p);
    mech_beam_solver s = solver(0.5);
    mech_beam_load l;
    mech_beam_load_default(&l);
    l.F0 = 1500;
    run a = simulate(ma, &s, &l, NULL, NULL), b = simulate(mb, &s, &l, NULL, NULL);
    assert_true(a.contact_steps > 0);
    for (int i = 0; i <= a.n; i++)
        assert_true(fabs(a.w[i] - b.w[i]) <= 1e-9 * a.w_max && fabs(a.M[i] - b.M[i]) <= 1e-9 * a.M_max);
    run_free(&a);
    run_free(&b);
    mech_beam_model_free(ma);
    mech_beam_model_free(mb);
    /* hysteretic hinge, iterated */
    mech_beam_params_default(&p);
    p.hinge[0].law = MECH_BEAM_MODEL;
    p.hinge[0].model = &hh;
    p.hinge[0].q_scale = mech_beam_angle_scale(hh.unit_q);
    p.hinge[0].k = 40000;
    mech_beam_model *mh = build(&p);
    s.update = MECH_BEAM_ITERATED;
    l.F0 = 1000;
    run h = simulate(mh, &s, &l, NULL, NULL);
    mech_beam_data *d;
    assert_int_equal(mech_beam_data_new(mh, &s, &l, NULL, NULL, NULL, &d, NULL), HY_OK);
    mech_beam_obs o;
    for (int i = 0; i < h.n; i++)
        assert_int_equal(mech_beam_step(d, NULL), HY_OK);
    mech_beam_observe_energy(d, &o);
    print_message("hysteretic hinge, iterated: hinge work %.6f J of %.6f J put in, balance %.2e J\n", o.W_hinge,
                  o.W_ext, h.bal_max);
    assert_true(o.W_hinge > 0.01 * o.W_ext);
    assert_true(h.bal_max <= 1e-8 * o.W_ext);
    mech_beam_data_free(d);
    run_free(&h);
    mech_beam_model_free(mh);
    hy_model_free(&hl);
    hy_model_free(&hh);
}

/* attachment modes: the reduced model with an open gap moves closer to the physical FE run (contact fraction) */
static void attachment_mode_freeplay(void **state)
{
    (void)state;
    mech_beam_params p;
    mech_beam_params_default(&p);
    p.hinge[0].clearance = 0.005;
    mech_beam_solver s = solver(0.5);
    s.update = MECH_BEAM_ITERATED;
    mech_beam_load l;
    mech_beam_load_default(&l);
    l.F0 = 1500;
    int contact[3];
    for (int k = 0; k < 3; k++) {
        p.attachment_modes = k == 1;
        s.physical = k == 2;
        mech_beam_model *m = build(&p);
        run r = simulate(m, &s, &l, NULL, NULL);
        contact[k] = r.contact_steps;
        run_free(&r);
        mech_beam_model_free(m);
    }
    print_message("contact steps (of 5000), d = 0.005, 1500 N: 5 modes %d, + attachment %d, physical %d\n", contact[0],
                  contact[1], contact[2]);
    assert_true(abs(contact[1] - contact[2]) < abs(contact[0] - contact[2]));
}

/* hinges[j].law_scale (docs/beam.md): the scaled law's moment is exactly scale x the law's moment along the same
 * path (the hinge law alone, bit for bit: one more product), for every law; in a run, a hysteretic hinge with
 * law_scale s moves as one whose table has every moment and slope times s (a second law, written out), to
 * rounding; and the scale changes the run (the test can fail); <= 0 and non-finite refused naming the key. */
static void law_scale(void **state)
{
    (void)state;
    const char *hys = "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"pwl\", \"kind\": \"constant\","
                      " \"units\": {\"q\": \"mrad\", \"Q\": \"N m\"},"
                      " \"positive\": {\"forward\": [[0, 0], [0.5, 20], [2, 70], [4, 120], [6, 160]],"
                      " \"backward\": [[0, 0], [0.5, 20], [2, 40], [4, 80], [6, 160]], \"k_beyond\": 40},"
                      " \"negative\": {\"forward\": [[0, 0], [-0.5, -20], [-2, -70], [-4, -120], [-6, -160]],"
                      " \"backward\": [[0, 0], [-0.5, -20], [-2, -40], [-4, -80], [-6, -160]], \"k_beyond\": 40}}";
    /* the same table with every moment and slope times 0.75 (exact in binary) */
    const char *hys75 = "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"pwl\", \"kind\": \"constant\","
                        " \"units\": {\"q\": \"mrad\", \"Q\": \"N m\"},"
                        " \"positive\": {\"forward\": [[0, 0], [0.5, 15], [2, 52.5], [4, 90], [6, 120]],"
                        " \"backward\": [[0, 0], [0.5, 15], [2, 30], [4, 60], [6, 120]], \"k_beyond\": 30},"
                        " \"negative\": {\"forward\": [[0, 0], [-0.5, -15], [-2, -52.5], [-4, -90], [-6, -120]],"
                        " \"backward\": [[0, 0], [-0.5, -15], [-2, -30], [-4, -60], [-6, -120]], \"k_beyond\": 30}}";
    hy_model hh, h75;
    hy_err err;
    if (hy_model_parse(hys, "hys.json", &hh, &err) != HY_OK || hy_model_parse(hys75, "hys75.json", &h75, &err) != HY_OK)
        fail_msg("%s", err.msg);
    /* the law alone along a path with reversals (loading to 5 mrad, back to -3, up to 1), each law */
    for (int law = MECH_BEAM_DEADZONE_A; law <= MECH_BEAM_DEADZONE_MODEL; law++) {
        mech_beam_hinge h1 = {.k = 40000, .clearance = law == MECH_BEAM_MODEL ? 0 : 2e-4, .law = law,
                              .model = &hh, .q_scale = 1000, .Q_scale = 1, .law_scale = 1};
        mech_beam_hinge hs = h1;
        hs.law_scale = 0.37;
        hy_element e1 = {0}, es = {0};
        int el = law == MECH_BEAM_MODEL || law == MECH_BEAM_DEADZONE_MODEL;
        if (el && (hy_model_element(&hh, &e1, &err) != HY_OK || hy_model_element(&hh, &es, &err) != HY_OK))
            fail_msg("%s", err.msg);
        double moved = 0;
        for (int i = 0; i <= 1300; i++) {
            double th = 1e-5 * (i <= 500 ? i : i <= 1300 - 400 ? 1000 - i : i - 800), M1, Ms;   /* 5, -4, 1 mrad */
            assert_int_equal(beam_hinge_trial(&h1, el ? &e1 : NULL, th, 0, &M1, NULL), HY_OK);
            assert_int_equal(beam_hinge_trial(&hs, el ? &es : NULL, th, 0, &Ms, NULL), HY_OK);
            assert_true(Ms == 0.37 * M1);
            moved = fmax(moved, fabs(M1));
            if (el)
                hy_element_commit(&e1), hy_element_commit(&es);
        }
        assert_true(moved > 10);   /* the path loads the law */
        if (el)
            hy_element_free(&e1), hy_element_free(&es);
    }
    /* in a run: law_scale 0.75 on the table against the table written out at 0.75 */
    mech_beam_params p;
    mech_beam_params_default(&p);
    p.hinge[0].law = MECH_BEAM_MODEL;
    p.hinge[0].model = &hh;
    p.hinge[0].q_scale = 1000;
    p.hinge[0].k = 40000;
    mech_beam_model *m1 = build(&p);
    p.hinge[0].law_scale = 0.75;
    mech_beam_model *ms = build(&p);
    p.hinge[0].law_scale = 1;
    p.hinge[0].model = &h75;
    mech_beam_model *mt = build(&p);
    mech_beam_solver s = solver(0.5);
    s.update = MECH_BEAM_ITERATED;
    mech_beam_load l;
    mech_beam_load_default(&l);
    l.F0 = 1000;
    run a = simulate(m1, &s, &l, NULL, NULL), b = simulate(ms, &s, &l, NULL, NULL);
    run c = simulate(mt, &s, &l, NULL, NULL);
    double dw = 0;
    for (int i = 0; i <= b.n; i++) {
        /* the two laws' moments differ by rounding (0.75 Q against a table of 0.75 x its values): the runs agree to
           well inside 1e-9 of their peaks (the iterated update's own tolerance is solver.tol = 1e-10 relative) */
        assert_true(fabs(b.w[i] - c.w[i]) <= 1e-9 * c.w_max && fabs(b.M[i] - c.M[i]) <= 1e-9 * c.M_max);
        dw = fmax(dw, fabs(a.w[i] - b.w[i]));
    }
    assert_true(dw > 0.01 * a.w_max);   /* a softer hinge: the scale matters */
    assert_true(b.M_max > 10);
    run_free(&a), run_free(&b), run_free(&c);
    mech_beam_model_free(m1), mech_beam_model_free(ms), mech_beam_model_free(mt);
    /* refused: the model check and the scenario key */
    mech_beam_model *bad = NULL;
    const double badv[] = {0, -1, INFINITY, NAN};
    for (int i = 0; i < 4; i++) {
        p.hinge[0].law_scale = badv[i];
        assert_int_equal(mech_beam_model_new(&p, &bad, &err), HY_EMODEL);
        assert_non_null(strstr(err.msg, "hinges[0].law_scale"));
    }
    const char *const texts[] = {"0", "-0.5", "\"1\"", "1e999"};
    const char *const msgs[] = {"b.json: hinges[0].law_scale: 0, expected a scale > 0 (the law's moment times it)",
                                "b.json: hinges[0].law_scale: -0.5, expected a scale > 0 (the law's moment times it)",
                                "b.json: hinges[0].law_scale: expected a number",
                                "b.json: hinges[0].law_scale: expected a number"};
    for (int i = 0; i < 4; i++) {
        char text[200];
        snprintf(text, sizeof text, "{\"format\": \"mech-beam\", \"version\": 1, \"hinges\": [{\"position\": 1.5, "
                 "\"law_scale\": %s}]}", texts[i]);
        mech_beam_config cfg;
        mech_beam_config_default(&cfg);
        assert_int_not_equal(mech_beam_config_parse(text, strlen(text), "b.json", ".", &cfg, &err), HY_OK);
        assert_string_equal(err.msg, msgs[i]);
        mech_beam_config_free(&cfg);
    }
    hy_model_free(&hh);
    hy_model_free(&h75);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(baseline_4_5),      cmocka_unit_test(conservation),
        cmocka_unit_test(no_attitude_drift), cmocka_unit_test(clearance_limits),
        cmocka_unit_test(physical_vs_modal), cmocka_unit_test(model_law_hinge),
        cmocka_unit_test(errors),            cmocka_unit_test(series_and_hysteretic_hinges),
        cmocka_unit_test(attachment_mode_freeplay), cmocka_unit_test(law_scale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

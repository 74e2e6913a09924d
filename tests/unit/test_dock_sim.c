/* The docking simulation (mech_dock_sim_*) on the reference scenarios of 001-reference-parameters.md §4 with the
 * shipped RP-1 laws (fixtures/mech/dock/models/): S1 central impact in A and B (the plateaus, the rebound spike, the
 * stroke against the energy estimate of RP-1 §3, zero lateral force by symmetry, momentum and energy budgets), S2
 * lateral offset (capture after 1-3 cone contacts), S3 pitch, S4a low-speed failure and the capture-speed threshold
 * against sqrt(2 W_latch / m), S5 high energy in B, S6 two comparable vehicles (reduced mass), convergence at h and
 * h/4, step refinement at a coarse step, a blow-up stopped with time, contact and hint, and no allocation in the
 * step. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mech/dock.h"
#include "../../bench/bench_alloc.h"
#include "dock_test_laws.h"

static hy_model laws[MECH_DOCK_NLAW];
static int loaded;

static int setup(void **state)
{
    (void)state;
    if (!loaded) {
        assert_int_equal(dock_test_load_laws(laws), HY_OK);
        loaded = 1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int k = 0; k < MECH_DOCK_NLAW && loaded; k++)
        hy_model_free(&laws[k]);
    loaded = 0;
    return 0;
}

enum { MODULE_20T = 0, SOYUZ, PROGRESS, FGB_SM };

typedef struct scenario {
    int    variant, vehicle;
    double V, dy, pitch_deg, latv, rate_deg;
    double h, T;
    double roll_deg;
} scenario;

static void params_for(const scenario *sc, mech_dock_params *p)
{
    mech_dock_params_rp1(p, sc->variant, MECH_DOCK_CONE_MODULE);
    dock_test_set_laws(p, laws);
    if (sc->vehicle == SOYUZ || sc->vehicle == PROGRESS) {   /* RP-1 §2.1 */
        snprintf(p->active.name, sizeof p->active.name, "%s", sc->vehicle == SOYUZ ? "soyuz-ms" : "progress-ms");
        p->active.mass = sc->vehicle == SOYUZ ? 7200 : 7300;
        p->active.inertia = (mech_vec3){6.5e3, 3.0e4, 3.0e4};
        p->active.port.x = sc->vehicle == SOYUZ ? 4.0 : 4.5;
    } else if (sc->vehicle == FGB_SM) {   /* RP-1 §2.1 FGB -> SM: 33 t active, 19 t passive (Zvezda) */
        p->active.mass = 33000;
        p->active.inertia = (mech_vec3){1.0e5, 5.0e5, 5.0e5};
        p->passive.mass = 19000;
        p->passive.inertia = (mech_vec3){5.7e4, 3.0e5, 3.0e5};
        p->passive.port.x = 6.5;
    }
    p->init.closing_speed = sc->V;
    p->init.offset.y = sc->dy;
    p->init.angles.y = sc->pitch_deg * M_PI / 180;
    p->init.velocity.y = sc->latv;
    p->init.rates.y = sc->rate_deg * M_PI / 180;
    p->init.angles.x = sc->roll_deg * M_PI / 180;
    if (sc->h > 0)
        p->h = sc->h;
    p->duration = sc->T;
}

typedef struct result {
    mech_dock_summary S;
    double f_axial_min;        /* most negative head axial force (the latch-stop spike pulls), N             */
    double chain_at_5cm;       /* axial chain force when the stroke first passes 0.05 m, N                     */
    double chain_max;          /* max axial chain force, N                                                     */
    double slip1, slip2;       /* max brake slips, m                                                           */
    double lateral_max;        /* max |head_fy|, |head_fz|, N                                                 */
    mech_vec3 impulse;         /* time integral of the load on the passive vehicle (cone frame), N s          */
    double rel_vx;             /* closing velocity at the end, m/s                                             */
    double t_end;
    double roll_end, q3_max;   /* relative roll at the end, max |torsion q3|, rad                         */
    double mass_total;         /* both vehicles and the mechanism                                              */
} result;

// (params) => model and simulation at t = 0 (the message printed on failure)
static void sim_open(const mech_dock_params *p, mech_dock_model **m, mech_dock_sim **s)
{
    hy_err e;
    int rc = mech_dock_model_new(p, m, &e);
    if (rc == HY_OK)
        rc = mech_dock_sim_new(*m, s, &e);
    if (rc)
        print_message("%s\n", e.msg);
    assert_int_equal(rc, HY_OK);
}

static void run(const scenario *sc, result *r)
{
    mech_dock_params p;
    params_for(sc, &p);
    memset(r, 0, sizeof *r);
    mech_dock_model *m = NULL;
    mech_dock_sim *s = NULL;
    sim_open(&p, &m, &s);
    hy_err e;
    const double *c = mech_dock_sim_channels(s);
    double fprev[3] = {c[MECH_DOCK_CH_PASSIVE_FX], c[MECH_DOCK_CH_PASSIVE_FY], c[MECH_DOCK_CH_PASSIVE_FZ]};
    r->chain_at_5cm = NAN;
    long n = lround(sc->T / p.h);
    for (long i = 0; i < n; i++) {
        int rc = mech_dock_sim_step(s, &e);
        if (rc)
            print_message("%s\n", e.msg);
        assert_int_equal(rc, HY_OK);
        r->f_axial_min = fmin(r->f_axial_min, c[MECH_DOCK_CH_HEAD_AXIAL]);
        r->chain_max = fmax(r->chain_max, c[MECH_DOCK_CH_AXIAL_F]);
        if (isnan(r->chain_at_5cm) && c[MECH_DOCK_CH_STROKE] >= 0.05)
            r->chain_at_5cm = c[MECH_DOCK_CH_AXIAL_F];
        r->slip1 = fmax(r->slip1, c[MECH_DOCK_CH_SLIP1]);
        r->q3_max = fmax(r->q3_max, fabs(c[MECH_DOCK_CH_Q3]));
        r->slip2 = fmax(r->slip2, c[MECH_DOCK_CH_SLIP2]);
        r->lateral_max = fmax(r->lateral_max, fmax(fabs(c[MECH_DOCK_CH_HEAD_FY]), fabs(c[MECH_DOCK_CH_HEAD_FZ])));
        double f[3] = {c[MECH_DOCK_CH_PASSIVE_FX], c[MECH_DOCK_CH_PASSIVE_FY], c[MECH_DOCK_CH_PASSIVE_FZ]};
        r->impulse.x += 0.5 * p.h * (f[0] + fprev[0]);
        r->impulse.y += 0.5 * p.h * (f[1] + fprev[1]);
        r->impulse.z += 0.5 * p.h * (f[2] + fprev[2]);
        memcpy(fprev, f, sizeof f);
    }
    r->S = *mech_dock_sim_summary(s);
    r->rel_vx = c[MECH_DOCK_CH_REL_VX];
    r->roll_end = c[MECH_DOCK_CH_REL_ROLL];
    r->t_end = mech_dock_sim_time(s);
    r->mass_total = p.active.mass + p.passive.mass + p.mass.housing_mass + p.mass.probe_mass;
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
}

static double rel_momentum_error(const mech_dock_summary *S)
{
    mech_vec3 d = {S->momentum.x - S->momentum0.x, S->momentum.y - S->momentum0.y, S->momentum.z - S->momentum0.z};
    return sqrt(d.x * d.x + d.y * d.y + d.z * d.z) /
           sqrt(S->momentum0.x * S->momentum0.x + S->momentum0.y * S->momentum0.y + S->momentum0.z * S->momentum0.z);
}

/* Angular momentum about the world origin, relative to |L0| + |P0| x 1 m (L0 alone is near zero on axis): the
 * lateral chains' inertia (hook_inertia ω) is part of it, as in the dynamics and the energy */
static double rel_ang_momentum_error(const mech_dock_summary *S)
{
    mech_vec3 a = S->ang_momentum0, b = S->ang_momentum, p = S->momentum0;
    mech_vec3 d = {b.x - a.x, b.y - a.y, b.z - a.z};
    return sqrt(d.x * d.x + d.y * d.y + d.z * d.z) /
           (sqrt(a.x * a.x + a.y * a.y + a.z * a.z) + sqrt(p.x * p.x + p.y * p.y + p.z * p.z) * 1.0);
}

/* ---- S1: central impact, 20 t at 0.15 m/s (paper Fig. 8) ---------------------------------------------------- */

static void s1_variants(void **state)
{
    (void)state;
    result A, B;
    run(&(scenario){MECH_DOCK_A, MODULE_20T, 0.15, 0, 0, 0, 0, 0, 6.0, 0}, &A);
    run(&(scenario){MECH_DOCK_B, MODULE_20T, 0.15, 0, 0, 0, 0, 0, 6.0, 0}, &B);
    print_message("S1 A: capture %.4f s, stroke %.4f m, chain at 5 cm %.1f N, chain max %.1f N, spike %.1f N, "
                  "residual %.3g J of %.1f J, momentum %.2g\n", A.S.capture_time, A.S.stroke_max, A.chain_at_5cm,
                  A.chain_max, A.f_axial_min, A.S.e_residual_max, A.S.e_initial, rel_momentum_error(&A.S));
    print_message("S1 B: capture %.4f s, stroke %.4f m, chain max %.1f N, spike %.1f N, slip1 %.4f, residual %.3g J, "
                  "momentum %.2g\n", B.S.capture_time, B.S.stroke_max, B.chain_max, B.f_axial_min, B.slip1,
                  B.S.e_residual_max, rel_momentum_error(&B.S));
    for (int k = 0; k < 2; k++) {
        const result *r = k ? &B : &A;
        assert_true(r->S.captured);
        assert_int_equal(r->S.cone_contacts, 0);                 /* straight into the socket */
        assert_true(r->lateral_max <= 1e-9 * r->S.peak_axial);   /* symmetry: zero to round-off */
        assert_true(r->S.peak_lateral <= 1e-9 * r->S.peak_axial);
        assert_true(rel_momentum_error(&r->S) < 1e-9);
        print_message("S1 %c: angular momentum drift %.2g relative\n", "AB"[k], rel_ang_momentum_error(&r->S));
        assert_true(rel_ang_momentum_error(&r->S) < 1e-9);
        assert_true(r->S.e_residual_max < 0.01 * r->S.e_initial);
    }
    /* A: spring plateau 500 -> 1000 N (750 N at 5 cm), then the 5 kN FrT2 plateau, then the latch-stop spike */
    assert_true(fabs(A.chain_at_5cm - 750) < 30);
    assert_true(fabs(A.chain_max - 5000) < 50);
    assert_true(A.f_axial_min < -1000);
    /* B: FrT1 at 1.25 kN, a smaller spike */
    assert_true(fabs(B.chain_max - 1250) < 15);
    assert_true(B.slip1 > 0.1 && B.slip2 == 0);
    assert_true(fabs(B.f_axial_min) < fabs(A.f_axial_min));
    /* stroke against the energy estimate of RP-1 §3 (A 0.13 m, B 0.17 m), 15 % */
    assert_true(fabs(A.S.stroke_max - 0.13) < 0.15 * 0.13);
    assert_true(fabs(B.S.stroke_max - 0.17) < 0.15 * 0.17);
}

/* ---- S2: 0.10 m lateral offset, Soyuz 7.2 t ------------------------------------------------------------------ */

static void s2_captures(void **state)
{
    (void)state;
    for (int v = 0; v < 2; v++) {
        result r;
        run(&(scenario){v, SOYUZ, 0.15, 0.10, 0, 0, 0, 0, 3.0, 0}, &r);
        print_message("S2 %c: capture %.4f s after %d cone contacts, peak lateral %.1f N, swing %.2f deg, residual "
                      "%.3g J of %.1f J\n", "AB"[v], r.S.capture_time, r.S.cone_contacts, r.S.peak_lateral,
                      r.S.swing_max * 180 / M_PI, r.S.e_residual_max, r.S.e_initial);
        assert_true(r.S.captured);
        assert_true(r.S.cone_contacts >= 1 && r.S.cone_contacts <= 3);
        assert_true(r.S.capture_time > 0.5 && r.S.capture_time < 3.0);
        assert_true(r.S.peak_lateral > 300 && r.S.peak_lateral < 2000);   /* RP-1 §4: 0.3-2 kN */
        assert_true(r.S.e_residual_max < 0.01 * r.S.e_initial);
        assert_true(rel_momentum_error(&r.S) < 1e-6);
        print_message("S2 %c: momentum drift %.2g, angular momentum drift %.2g relative\n", "AB"[v],
                      rel_momentum_error(&r.S), rel_ang_momentum_error(&r.S));
        /* 1.2e-6 without the chains' ΔI ω_H in the measure; 2.8e-8 (A) with it while their bias was written for
           the relative rate (the same at h/2 and h/4); with the bias of ½ ω_Hᵀ ΔI ω_H (docs/dock-lateral.md §4a)
           6.7e-13 (A), 1.5e-13 (B): round-off */
        assert_true(rel_ang_momentum_error(&r.S) < 1e-9);
    }
}

/* ---- S3: 4 deg pitch ---------------------------------------------------------------------------------------- */

static void s3_pitch(void **state)
{
    (void)state;
    result r;
    run(&(scenario){MECH_DOCK_A, MODULE_20T, 0.15, 0, 4, 0, 0, 0, 2.5, 0}, &r);
    print_message("S3 A 4 deg: capture %.4f s, cone contacts %d, swing %.2f deg, residual %.3g J\n", r.S.capture_time,
                  r.S.cone_contacts, r.S.swing_max * 180 / M_PI, r.S.e_residual_max);
    assert_true(r.S.captured);
    assert_true(r.S.swing_max > 0.5 * M_PI / 180);
    assert_true(r.S.e_residual_max < 0.01 * r.S.e_initial);
}

/* ---- S4a: Progress at 10 mm/s: the detent (0.75 J) stops it; the threshold by bisection ---------------------- */

static void s4a_threshold(void **state)
{
    (void)state;
    result r;
    run(&(scenario){MECH_DOCK_A, PROGRESS, 0.010, 0, 0, 0, 0, 0, 2.0, 0}, &r);
    assert_false(r.S.captured);
    assert_true(r.rel_vx < 0);   /* bounced back: the vehicles separate */
    mech_dock_params p;
    params_for(&(scenario){MECH_DOCK_A, PROGRESS, 0.010, 0, 0, 0, 0, 0, 2.0, 0}, &p);
    p.capture_timeout = 2.0;
    double v = 0;
    hy_err e;
    int rc = mech_dock_capture_speed(&p, 0.004, 0.04, 2e-4, &v, &e);
    if (rc)
        print_message("%s\n", e.msg);
    assert_int_equal(rc, HY_OK);
    double w = p.geom.detent_force * p.geom.detent_travel, ref = sqrt(2 * w / p.active.mass);
    print_message("S4a: capture-speed threshold %.5f m/s, sqrt(2 W_latch / m) = %.5f m/s\n", v, ref);
    assert_true(fabs(v - ref) < 0.2 * ref);
    /* "failure to dock": no capture by the timeout */
    mech_dock_params q = p;
    q.capture_timeout = 0.5;
    mech_dock_model *m;
    mech_dock_sim *s;
    assert_int_equal(mech_dock_model_new(&q, &m, &e), HY_OK);
    assert_int_equal(mech_dock_sim_new(m, &s, &e), HY_OK);
    while (mech_dock_sim_time(s) < 0.45)
        assert_int_equal(mech_dock_sim_step(s, &e), HY_OK);
    assert_false(mech_dock_sim_summary(s)->failed);
    while (mech_dock_sim_time(s) < 0.55)
        assert_int_equal(mech_dock_sim_step(s, &e), HY_OK);
    assert_true(mech_dock_sim_summary(s)->failed);
    assert_false(mech_dock_sim_summary(s)->captured);
    assert_true(isnan(mech_dock_sim_summary(s)->capture_time));
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
    /* a bracket that does not bracket */
    assert_int_equal(mech_dock_capture_speed(&p, 0.03, 0.04, 1e-3, &v, &e), HY_EDATA);
    assert_non_null(strstr(e.msg, "lower bracket"));
}

/* ---- S5: high energy in B ----------------------------------------------------------------------------------- */

static void s5_high_energy(void **state)
{
    (void)state;
    result r, c;
    run(&(scenario){MECH_DOCK_B, MODULE_20T, 0.25, 0.20, 5, 0.03, 0.3, 0, 4.0, 0}, &r);
    print_message("S5 B: capture %.4f s, cone contacts %d, stroke %.4f m, FrT1 %.4f m, FrT2 %.4f m, residual %.3g J "
                  "of %.1f J\n", r.S.capture_time, r.S.cone_contacts, r.S.stroke_max, r.slip1, r.slip2,
                  r.S.e_residual_max, r.S.e_initial);
    assert_true(r.S.captured);
    assert_true(r.S.cone_contacts >= 1 && r.S.cone_contacts <= 3);
    assert_true(r.slip1 > 0.1 && r.S.stroke_max < 0.32);
    assert_true(r.S.e_residual_max < 0.01 * r.S.e_initial);
    /* the same 0.25 m/s central (RP-1 §3 row "20 t @ 0.25": 0.31 m, FrT1 + FrT2): FrT1 exhausted, FrT2 slips */
    run(&(scenario){MECH_DOCK_B, MODULE_20T, 0.25, 0, 0, 0, 0, 0, 2.5, 0}, &c);
    print_message("S5 central B: stroke %.4f m, FrT1 %.4f m, FrT2 %.4f m\n", c.S.stroke_max, c.slip1, c.slip2);
    assert_true(c.slip1 > 0.25 - 1e-6);
    assert_true(c.slip2 > 0.01);
    assert_true(c.S.stroke_max < 0.32 && c.S.stroke_max > 0.27);
}

/* ---- S6: FGB -> SM, 33 t against 19 t ------------------------------------------------------------------------ */

static void s6_reduced_mass(void **state)
{
    (void)state;
    result r;
    run(&(scenario){MECH_DOCK_A, FGB_SM, 0.20, 0.05, 1, 0, 0, 0, 8.0, 0}, &r);
    /* after capture the two vehicles move together at P / M; the passive one gained v_p = impulse / m_p */
    double vp = -r.impulse.x / 19000;   /* impulse along +x of the cone frame; the motion is along -x */
    double vc = -r.S.momentum.x / r.mass_total;
    print_message("S6: capture %.4f s, passive velocity %.5f m/s, common velocity P/M %.5f m/s, closing %.5f m/s, "
                  "stroke %.4f m\n", r.S.capture_time, vp, vc, r.rel_vx, r.S.stroke_max);
    assert_true(r.S.captured);
    assert_true(vp > 0.05);   /* it moves visibly */
    assert_true(fabs(vp - vc) < 0.05 * vc);
    assert_true(r.S.e_residual_max < 0.01 * r.S.e_initial);
}

/* ---- roll misalignment: the latch slots (capture within the entry half-width, alignment at the stops) ------- */

static void roll_slots(void **state)
{
    (void)state;
    result r, n;
    run(&(scenario){MECH_DOCK_A, MODULE_20T, 0.15, 0, 0, 0, 0, 0, 6.0, 5}, &r);
    print_message("S1 A with 5 deg roll: capture %.4f s, max torsion %.4f rad, relative roll at the end %.3f deg, "
                  "residual %.3g J\n", r.S.capture_time, r.q3_max, r.roll_end * 180 / M_PI, r.S.e_residual_max);
    assert_true(r.S.captured);
    assert_true(r.q3_max > 1e-3);   /* the slot faces twisted the probe when the rebound pulled the head up */
    assert_true(r.S.e_residual_max < 0.01 * r.S.e_initial);
    assert_true(rel_momentum_error(&r.S) < 1e-9);
    assert_true(rel_ang_momentum_error(&r.S) < 1e-9);
    /* beyond the 15 deg entry half-width the latches cannot enter their slots: no capture */
    run(&(scenario){MECH_DOCK_A, MODULE_20T, 0.15, 0, 0, 0, 0, 0, 1.0, 20}, &n);
    assert_false(n.S.captured);
}

/* ---- latches one by one (RP-1 §2.2; docs/dock.md §3): S3x's tilted head into the short cone ------------------
 * A latch engages its stop only when its own tip has passed the capture plane. With S3x's 7 deg of pitch the head
 * arrives tilted: when its centre passes the capture plane (capture) one tip is still short of the stop, so a rule
 * at the head centre put that tip 5.4 mm into its stop at once and the run stopped ("latch4-stop: penetration
 * 0.0054 m deeper than the geometry allows"). Here the run goes on, the latches engage at different times, none
 * before capture, and all four by the end of the absorption. */
static void latches_one_by_one(void **state)
{
    (void)state;
    mech_dock_params p;
    mech_dock_params_rp1(&p, MECH_DOCK_B, MECH_DOCK_CONE_SHORT);
    dock_test_set_laws(&p, laws);
    p.init.closing_speed = 0.15;   /* S3x (RP-1 §4) */
    p.init.offset.y = 0.1;
    p.init.velocity.y = 0.03;
    p.init.angles.y = 7 * M_PI / 180;
    p.init.rates.y = 0.3 * M_PI / 180;
    p.tol = 1e-6;
    p.duration = 6;
    mech_dock_model *m = NULL;
    mech_dock_sim *s = NULL;
    sim_open(&p, &m, &s);
    hy_err e;
    int rc = HY_OK;
    while (rc == HY_OK && !mech_dock_sim_done(s))
        rc = mech_dock_sim_step(s, &e);
    if (rc)
        print_message("%s\n", e.msg);
    assert_int_equal(rc, HY_OK);
    const mech_dock_summary *S = mech_dock_sim_summary(s);
    double t0 = INFINITY, t1 = -INFINITY;
    for (int k = 0; k < 4; k++) {
        assert_false(isnan(S->latch_time[k]));
        t0 = fmin(t0, S->latch_time[k]);
        t1 = fmax(t1, S->latch_time[k]);
    }
    print_message("S3x-B into the short cone: capture %.4f s, latches engaged %.4f %.4f %.4f %.4f s, residual %.3g J\n",
                  S->capture_time, S->latch_time[0], S->latch_time[1], S->latch_time[2], S->latch_time[3],
                  S->e_residual_max);
    assert_true(S->captured);
    assert_true(t0 == S->capture_time);        /* the tips already past engage at capture */
    assert_true(t1 > S->capture_time + 1e-3);  /* the tilted head's last tip later */
    assert_true(S->e_residual_max < 1e-3 * S->e_initial);
    assert_true(rel_momentum_error(S) < 1e-8);
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
}

/* ---- convergence: peak head force, stroke and capture time at h and h/4 ------------------------------------- */

static void convergence(void **state)
{
    (void)state;
    mech_dock_params p;
    params_for(&(scenario){MECH_DOCK_A, SOYUZ, 0.15, 0.10, 0, 0, 0, 0, 1, 0}, &p);
    double h = p.h;
    result a, b;
    run(&(scenario){MECH_DOCK_A, SOYUZ, 0.15, 0.10, 0, 0, 0, h, 3.5, 0}, &a);
    run(&(scenario){MECH_DOCK_A, SOYUZ, 0.15, 0.10, 0, 0, 0, h / 4, 3.5, 0}, &b);
    print_message("S2 A at h = %g s and h/4: peak axial %.2f / %.2f N, stroke %.5f / %.5f m, capture %.5f / %.5f s\n", h,
                  a.S.peak_axial, b.S.peak_axial, a.S.stroke_max, b.S.stroke_max, a.S.capture_time, b.S.capture_time);
    assert_true(fabs(a.S.peak_axial - b.S.peak_axial) < 0.01 * b.S.peak_axial);
    assert_true(fabs(a.S.stroke_max - b.S.stroke_max) < 0.01 * b.S.stroke_max);
    assert_true(fabs(a.S.capture_time - b.S.capture_time) < 0.01 * b.S.capture_time);
    /* internal loads only: the angular momentum is kept to round-off at either step (not an O(h^4) remainder) */
    print_message("S2 A angular momentum drift at h and h/4: %.2g / %.2g relative\n", rel_ang_momentum_error(&a.S),
                  rel_ang_momentum_error(&b.S));
    assert_true(rel_ang_momentum_error(&a.S) < 1e-9);
    assert_true(rel_ang_momentum_error(&b.S) < 1e-9);
}

/* ---- step refinement: S2 A at h = 2 ms through the latch rebound (4.43 s: the head hangs on the latches while the
 * chain slips out at 6 kN; the latch contact's damping there decays at ~1500 /s). Fixed 2 ms steps (no refinement)
 * end these 5 s with a residual of 155 J (190 % of the initial kinetic energy) and a peak axial force of 6700 N, 5 %
 * above h/4 (measured with the threshold set out of reach); refined steps keep the residual
 * under 1 %, the three results within 1 % of h/4, and show that they refined. ---------------------------- */

static void step_refinement(void **state)
{
    (void)state;
    double h[2] = {2e-3, 5e-4}, resid = 0, e0 = 0;
    mech_dock_summary S[2];
    unsigned long steps = 0, substeps = 0;
    for (int k = 0; k < 2; k++) {
        mech_dock_params p;
        params_for(&(scenario){MECH_DOCK_A, SOYUZ, 0.15, 0.10, 0, 0, 0, h[k], 5.0, 0}, &p);
        mech_dock_model *m;
        mech_dock_sim *s;
        hy_err e;
        assert_int_equal(mech_dock_model_new(&p, &m, &e), HY_OK);
        assert_int_equal(mech_dock_sim_new(m, &s, &e), HY_OK);
        long n = lround(p.duration / p.h);
        for (long i = 0; i < n; i++)
            assert_int_equal(mech_dock_sim_step(s, &e), HY_OK);
        S[k] = *mech_dock_sim_summary(s);
        assert_true(fabs(mech_dock_sim_time(s) - p.duration) < 1e-9);   /* substeps end on the steps of h */
        if (k == 0) {
            steps = mech_dock_sim_steps(s);
            substeps = mech_dock_sim_substeps(s);
            resid = S[k].e_residual_max;
            e0 = S[k].e_initial;
        }
        mech_dock_sim_free(s);
        mech_dock_model_free(m);
    }
    print_message("S2 A, 5 s at h = 2 ms: %lu steps, %lu RK4 steps with substeps, residual %.3g J of %.1f J; peak "
                  "axial %.1f / %.1f N (h/4), stroke %.5f / %.5f m, capture %.4f / %.4f s\n", steps, substeps, resid,
                  e0, S[0].peak_axial, S[1].peak_axial, S[0].stroke_max, S[1].stroke_max, S[0].capture_time,
                  S[1].capture_time);
    assert_int_equal(steps, 2500);
    assert_true(substeps > steps);
    assert_true(resid < 0.01 * e0);
    assert_true(S[0].captured && S[1].captured);
    assert_true(fabs(S[0].peak_axial - S[1].peak_axial) < 0.01 * S[1].peak_axial);
    assert_true(fabs(S[0].stroke_max - S[1].stroke_max) < 0.01 * S[1].stroke_max);
    assert_true(fabs(S[0].capture_time - S[1].capture_time) < 0.01 * S[1].capture_time);
}

/* ---- step refinement on a lateral mode: S5 A at h = 1 ms, the head pressed on the socket bore by the lateral springs
 * with 1.8-3.9 kN (RP-1 §4 S5 in A). The stiffness estimate in the kinetic-energy norm catches that contact's damping
 * on the probe; in a plain norm (the nut's rad/s dominating) it did not and the residual reached 88 J of 639 J --- */

static void refinement_bore(void **state)
{
    (void)state;
    result r;
    run(&(scenario){MECH_DOCK_A, MODULE_20T, 0.25, 0.20, 5, 0.03, 0.3, 1e-3, 4.0, 0}, &r);
    print_message("S5 A at h = 1 ms: capture %.4f s, residual %.3g J of %.1f J\n", r.S.capture_time, r.S.e_residual_max,
                  r.S.e_initial);
    assert_true(r.S.captured);
    assert_true(r.S.e_residual_max < 0.01 * r.S.e_initial);
}

/* ---- B's friction brakes are rigid-plastic: S1 B pushes FrT1 in at its 1250 N level and never back, so the
 * energy they dissipated is exactly 1250 N times FrT1's slip (booked from the slips, not from a quadrature of the
 * slip power, which jumps when a slip starts inside a step) ------------------------------------------------------ */

static void b_brakes_exact(void **state)
{
    (void)state;
    mech_dock_params p;
    params_for(&(scenario){MECH_DOCK_B, MODULE_20T, 0.15, 0, 0, 0, 0, 1e-3, 2.0, 0}, &p);
    mech_dock_model *m;
    mech_dock_sim *s;
    hy_err e;
    assert_int_equal(mech_dock_model_new(&p, &m, &e), HY_OK);
    assert_int_equal(mech_dock_sim_new(m, &s, &e), HY_OK);
    const double *c = mech_dock_sim_channels(s);
    double slip_prev = 0;
    long n = lround(p.duration / p.h);
    for (long i = 0; i < n; i++) {
        assert_int_equal(mech_dock_sim_step(s, &e), HY_OK);
        assert_true(c[MECH_DOCK_CH_SLIP1] >= slip_prev);   /* FrT1 only slips in */
        assert_true(c[MECH_DOCK_CH_SLIP2] == 0);
        slip_prev = c[MECH_DOCK_CH_SLIP1];
    }
    double expect = p.axial.frt1_push * c[MECH_DOCK_CH_SLIP1];
    print_message("S1 B at h = 1 ms: FrT1 slip %.5f m, E brakes %.6f J = %.6f J (level x slip), residual %.3g J\n",
                  c[MECH_DOCK_CH_SLIP1], c[MECH_DOCK_CH_E_BRAKES], expect, c[MECH_DOCK_CH_E_RESIDUAL]);
    assert_true(c[MECH_DOCK_CH_SLIP1] > 0.1);
    assert_true(fabs(c[MECH_DOCK_CH_E_BRAKES] - expect) < 1e-9 * expect);
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
}

/* ---- a blow-up stops with time, contact and hint, at the last accepted step --------------------------------- */

static void blow_up_reported(void **state)
{
    (void)state;
    mech_dock_params p;
    params_for(&(scenario){MECH_DOCK_A, MODULE_20T, 0.15, 0, 0, 0, 0, 0, 2, 0}, &p);
    p.contact.head_bottom.k = 1e3;   /* a soft bottom: the head sinks deeper than the geometry allows */
    mech_dock_model *m;
    mech_dock_sim *s;
    hy_err e;
    assert_int_equal(mech_dock_model_new(&p, &m, &e), HY_OK);
    assert_int_equal(mech_dock_sim_new(m, &s, &e), HY_OK);
    int rc = HY_OK;
    for (int i = 0; i < 40000 && rc == HY_OK; i++)
        rc = mech_dock_sim_step(s, &e);
    print_message("%s\n", e.msg);
    assert_int_equal(rc, HY_ESTATE);
    assert_non_null(strstr(e.msg, "t = "));
    assert_non_null(strstr(e.msg, "head-bottom"));
    assert_non_null(strstr(e.msg, "hint"));
    double t = mech_dock_sim_time(s);
    assert_true(fabs(t - p.h * (double)mech_dock_sim_steps(s)) < 1e-9);   /* kept at the last accepted step */
    assert_int_equal(mech_dock_sim_step(s, &e), HY_ESTATE);                /* and fails again the same way */
    assert_true(mech_dock_sim_time(s) == t);
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
}

/* ---- the step allocates nothing ------------------------------------------------------------------------------ */

static void no_allocation(void **state)
{
    (void)state;
    mech_dock_params p;
    params_for(&(scenario){MECH_DOCK_B, SOYUZ, 0.15, 0.10, 2, 0.01, 0.1, 0, 2, 0}, &p);
    mech_dock_model *m;
    mech_dock_sim *s;
    hy_err e;
    assert_int_equal(mech_dock_model_new(&p, &m, &e), HY_OK);
    assert_int_equal(mech_dock_sim_new(m, &s, &e), HY_OK);
    long before = n_alloc;
    for (int i = 0; i < 8000; i++)
        assert_int_equal(mech_dock_sim_step(s, &e), HY_OK);
    if (COUNT_ALLOC)
        print_message("allocations in 8000 steps: %ld\n", n_alloc - before);
    assert_int_equal(n_alloc - before, 0);
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(s1_variants),
        cmocka_unit_test(s2_captures),
        cmocka_unit_test(s3_pitch),
        cmocka_unit_test(s4a_threshold),
        cmocka_unit_test(s5_high_energy),
        cmocka_unit_test(s6_reduced_mass),
        cmocka_unit_test(roll_slots),
        cmocka_unit_test(latches_one_by_one),
        cmocka_unit_test(convergence),
        cmocka_unit_test(step_refinement),
        cmocka_unit_test(refinement_bore),
        cmocka_unit_test(b_brakes_exact),
        cmocka_unit_test(blow_up_reported),
        cmocka_unit_test(no_allocation),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/* Error-controlled integration of the docking simulation (issue 17; docs/dock.md §6b): every shipped scenario run
 * with integration.tolerance and with fixed 0.25 ms steps, each against a converged reference (tolerance 1e-8) with a
 * bound from its measured accuracy (issue 42; docs/reproducibility.md): the same capture, cone contacts, peaks,
 * energy residual < 0.1 %, momentum; an impact that starts on a step boundary, and the same impact with the event
 * location switched off (it then starts inside a step: the penetration at the first accepted contact state, the
 * energy residual, the peak force and the capture time all leave their bounds: the test fails on purpose on that
 * side), the step growing in a slow phase, no allocation in the step, and the scenario key integration.tolerance. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mech/dock.h"
#include "../../bench/bench_alloc.h"

static const char *fixtures(void)
{
    const char *f = getenv("FIXTURES");
    return f && *f ? f : "fixtures";
}

typedef struct outcome {
    mech_dock_summary   S;
    mech_dock_sim_stats st;
    double              spike;   /* most negative head axial force (the latch-stop rebound spike), N */
} outcome;

// (params) => the run to params.duration
static void run(const mech_dock_params *p, outcome *o)
{
    mech_dock_model *m = NULL;
    mech_dock_sim *s = NULL;
    hy_err e;
    int rc = mech_dock_model_new(p, &m, &e);
    if (rc == HY_OK)
        rc = mech_dock_sim_new(m, &s, &e);
    if (rc)
        print_message("%s\n", e.msg);
    assert_int_equal(rc, HY_OK);
    const double *c = mech_dock_sim_channels(s);
    o->spike = 0;
    while (!mech_dock_sim_done(s)) {
        rc = mech_dock_sim_step(s, &e);
        if (rc)
            print_message("%s\n", e.msg);
        assert_int_equal(rc, HY_OK);
        o->spike = fmin(o->spike, c[MECH_DOCK_CH_HEAD_AXIAL]);
    }
    assert_true(fabs(mech_dock_sim_time(s) - p->duration) < 1e-9);
    o->S = *mech_dock_sim_summary(s);
    mech_dock_sim_stats_get(s, &o->st);
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
}

static void read_scenario(const char *file, mech_dock_config *c)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/mech/dock/%s", fixtures(), file);
    hy_err e;
    int rc = mech_dock_config_read(path, c, &e);
    if (rc)
        print_message("%s\n", e.msg);
    assert_int_equal(rc, HY_OK);
}

static double rel(double a, double b)
{
    return fabs(a - b) / fmax(fabs(b), 1e-300);
}

static double dist(mech_vec3 a, mech_vec3 b)
{
    return sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z));
}

/* ---- every shipped scenario: error-controlled at the recommended tolerance and fixed 0.25 ms, each against a
 * converged reference ---------------------------------------------------------------------------------------------
 * The reference is the error-controlled run at tolerance 1e-8 (TOL_REF). What each result is accurate to was measured
 * on the 36 shipped scenarios, 8 s each, under three processor configurations of one machine (OpenBLAS's AVX-512
 * kernels, the default there; OPENBLAS_CORETYPE=Zen, the AVX2 kernels of an EPYC without AVX-512; Prescott kernels
 * with glibc's FMA/AVX2 libm variants off, GLIBC_TUNABLES of docs/reproducibility.md), peak head axial force:
 *   - the reference: within 0.26 % of the run at 1e-9 and within 0.19 % across the three configurations (s3-B,
 *     s4c-B, s5b-A: stick-slip of the brakes and the guides, where a round-off difference moves the peak);
 *   - the run at 1e-6 (MECH_DOCK_TOL_DEFAULT): within 0.39 % of the reference (s5b-B), any configuration;
 *   - the fixed 0.25 ms run: within 0.51 % of it, except S3x-400-C, whose movable limiter sticks and slips on its
 *     guides: +0.20 % with the AVX-512 kernels, -1.14 % with the AVX2 or Prescott ones (1859.3 against 1880.8 N:
 *     the user's failure of issue 42, which compared the two runs with each other at 1 %).
 * The bounds: the error-controlled run within 1 % of the reference (0.39 + 0.26 % measured, 1.5x margin), the fixed
 * run within 2.5 % (1.14 + 0.26 % measured, 1.8x margin); both as limits of accuracy, not of one processor. The
 * other quantities (capture, cone contacts, stroke, swing, limiter, spike) are compared the same way with the
 * reference; the energy residual and the momenta are invariants of each run. */
#define T_CHECK 8.0
#define TOL_REF 1e-8
#define PEAK_ADAPTIVE 0.01
#define PEAK_FIXED 0.025

static double worst_dL[2];   /* largest angular momentum drift of the scenarios without thrust: fixed, adaptive */
static double worst_peak[2]; /* largest relative peak axial force error against the reference: fixed, adaptive   */

// (run, reference, peak bound, capture time resolution) => the run agrees with the reference to its accuracy
static void against_reference(const outcome *x, const outcome *ref, double peak, double dt)
{
    const mech_dock_summary *X = &x->S, *R = &ref->S;
    assert_int_equal(X->captured, R->captured);
    assert_int_equal(X->failed, R->failed);
    assert_int_equal(X->cone_contacts, R->cone_contacts);
    /* a fixed run sees the capture at its next step of 0.25 ms; the error-controlled ones on the capture plane */
    if (R->captured)
        assert_true(fabs(X->capture_time - R->capture_time) <= fmax(0.01 * R->capture_time, dt));
    assert_true(rel(X->peak_axial, R->peak_axial) <= peak);
    assert_true(fabs(X->stroke_max - R->stroke_max) <= 0.01 * fmax(R->stroke_max, 1e-3));
    assert_true(fabs(X->swing_max - R->swing_max) <= 0.01 * fmax(R->swing_max, 1e-3));
    assert_true(fabs(X->peak_limiter - R->peak_limiter) <= 0.01 * fmax(R->peak_limiter, 1.0));
    /* the latch-stop spike lasts ~2 ms and the fixed run samples it every 0.25 ms: S5-B's is 517 N there, 530 N in
       the error-controlled runs (converged), 2.5 % apart; every other scenario is within 0.2 % */
    assert_true(fabs(x->spike - ref->spike) <= 0.03 * fmax(fabs(ref->spike), 100.0));
}

static void check_scenario(const char *file)
{
    mech_dock_config c;
    read_scenario(file, &c);
    mech_dock_params p = c.params;
    p.duration = fmin(p.duration, T_CHECK);
    p.tol = 0;
    p.h = 2.5e-4;
    outcome f, a, ref;
    run(&p, &f);
    p.tol = MECH_DOCK_TOL_DEFAULT;
    run(&p, &a);
    p.tol = TOL_REF;
    run(&p, &ref);
    const mech_dock_summary *A = &a.S, *F = &f.S;
    print_message("%-18s reference peak %.1f N, capture %.5f s, stroke %.5f m, spike %.1f N, swing %.5f rad\n", file,
                  ref.S.peak_axial, ref.S.capture_time, ref.S.stroke_max, ref.spike, ref.S.swing_max);
    worst_peak[0] = fmax(worst_peak[0], rel(F->peak_axial, ref.S.peak_axial));
    worst_peak[1] = fmax(worst_peak[1], rel(A->peak_axial, ref.S.peak_axial));
    against_reference(&a, &ref, PEAK_ADAPTIVE, 1e-6);
    against_reference(&f, &ref, PEAK_FIXED, 2.5e-4);
    double res = A->e_residual_max / A->e_initial;
    print_message("%-18s capture %d/%d %.5f/%.5f s, cone %d/%d, peak %.1f/%.1f N, stroke %.5f/%.5f m, spike %.1f/%.1f "
                  "N, swing %.5f/%.5f rad, residual %.2e, steps %lu/%lu\n", file, A->captured, F->captured,
                  A->capture_time, F->capture_time, A->cone_contacts, F->cone_contacts, A->peak_axial, F->peak_axial,
                  A->stroke_max, F->stroke_max, a.spike, f.spike, A->swing_max, F->swing_max, res, a.st.steps,
                  f.st.steps);
    assert_true(res < 1e-3);
    /* momentum: internal contact loads only; S4c's thrust, started by the first cone contact, starts on the contact
       event here and up to two steps of 0.25 ms later there (the step that sees the contact, then the next): its impulse
       differs by at most force x 0.5 ms */
    double P0 = sqrt(A->momentum0.x * A->momentum0.x + A->momentum0.y * A->momentum0.y + A->momentum0.z * A->momentum0.z);
    if (!(dist(A->momentum, F->momentum) <= 1e-8 * P0 + 5e-4 * fabs(p.thrust.force)))
        print_message("momentum: %.9g %.9g %.9g against %.9g %.9g %.9g kg m/s (initial %.9g)\n", A->momentum.x,
                      A->momentum.y, A->momentum.z, F->momentum.x, F->momentum.y, F->momentum.z, P0);
    assert_true(dist(A->momentum, F->momentum) <= 1e-8 * P0 + 5e-4 * fabs(p.thrust.force));
    if (p.thrust.force == 0)
        assert_true(dist(A->momentum, A->momentum0) <= 1e-8 * P0);
    /* angular momentum about the cone-frame origin, the lateral chains' ΔI_C ω_H included (docs/dock-lateral.md
       §4a), relative to |L0| + |P0| x 1 m: internal loads only, so conserved to round-off in both runs (S2 left
       2.8e-8 with the chains' bias in relative form; now at most 2e-11 over 20 s at 0.25 and 0.125 ms) */
    if (p.thrust.force == 0) {
        double L0 = sqrt(F->ang_momentum0.x * F->ang_momentum0.x + F->ang_momentum0.y * F->ang_momentum0.y +
                         F->ang_momentum0.z * F->ang_momentum0.z) + P0 * 1.0;
        double dLf = dist(F->ang_momentum, F->ang_momentum0) / L0, dLa = dist(A->ang_momentum, A->ang_momentum0) / L0;
        worst_dL[0] = fmax(worst_dL[0], dLf);
        worst_dL[1] = fmax(worst_dL[1], dLa);
        if (!(dLf <= 1e-9 && dLa <= 1e-9))
            print_message("angular momentum drift: fixed %.3g, adaptive %.3g relative\n", dLf, dLa);
        assert_true(dLf <= 1e-9);
        assert_true(dLa <= 1e-9);
    }
    /* and much cheaper */
    assert_true(a.st.steps * 3 < f.st.steps);
    mech_dock_config_free(&c);
}

/* integration.method: Dormand-Prince 5(4) (the default), RK4(3) and the fixed 0.25 ms run of S1-B and S2-A against
 * the reference at TOL_REF (the same capture and cone contacts, peaks within their bounds), and the RK4(3) run with fewer right-hand-side evaluations:
 * in the slow phases both are held at their stability limit on the probe's torsion, |h lambda| 2.7 with 4
 * evaluations a step against ~2.4 with 6 (docs/dock.md §6b) */
static void methods_agree(void **state)
{
    (void)state;
    const char *files[2] = {"s1-B.json", "s2-A.json"};
    for (int k = 0; k < 2; k++) {
        mech_dock_config c;
        read_scenario(files[k], &c);
        mech_dock_params p = c.params;
        p.duration = 20;
        p.tol = 0;
        p.h = 2.5e-4;
        outcome f, r, d, ref;
        run(&p, &f);
        p.tol = TOL_REF;
        run(&p, &ref);
        p.tol = MECH_DOCK_TOL_DEFAULT;
        assert_int_equal(p.method, MECH_DOCK_DOPRI5);   /* the default */
        run(&p, &d);
        p.method = MECH_DOCK_RK43;
        run(&p, &r);
        print_message("%s: evaluations rk43 %lu, dopri5 %lu (fixed 0.25 ms: %lu); peak %.1f / %.1f / %.1f N, capture "
                      "%.5f / %.5f / %.5f s\n", files[k], r.st.evals, d.st.evals, f.st.evals, r.S.peak_axial,
                      d.S.peak_axial, f.S.peak_axial, r.S.capture_time, d.S.capture_time, f.S.capture_time);
        /* each against the converged reference (shipped_scenarios: bounds from the measured accuracy) */
        const outcome *o[3] = {&r, &d, &f};
        for (int m = 0; m < 3; m++) {
            assert_int_equal(o[m]->S.captured, ref.S.captured);
            assert_int_equal(o[m]->S.cone_contacts, ref.S.cone_contacts);
            assert_true(rel(o[m]->S.peak_axial, ref.S.peak_axial) <= (m == 2 ? PEAK_FIXED : PEAK_ADAPTIVE));
            assert_true(fabs(o[m]->S.capture_time - ref.S.capture_time) <= fmax(0.01 * ref.S.capture_time, 2.5e-4));
            assert_true(o[m]->S.e_residual_max / o[m]->S.e_initial < 1e-3);
        }
        assert_true(r.st.evals < d.st.evals);
        mech_dock_config_free(&c);
    }
}

static int is_scenario(const char *name)
{
    size_t n = strlen(name);
    return name[0] == 's' && n > 5 && strcmp(name + n - 5, ".json") == 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void shipped_scenarios(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/mech/dock", fixtures());
    DIR *d = opendir(dir);
    assert_non_null(d);
    static char names[64][256];
    const char *list[64];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 64;)
        if (is_scenario(e->d_name) && strlen(e->d_name) < sizeof names[0]) {
            memcpy(names[n], e->d_name, strlen(e->d_name) + 1);
            list[n] = names[n];
            n++;
        }
    closedir(d);
    qsort(list, (size_t)n, sizeof *list, by_name);
    assert_true(n >= 27);   /* S1-S7 in A and B and the variants: every one is run */
    for (int i = 0; i < n; i++)
        check_scenario(list[i]);
    print_message("angular momentum drift, scenarios without thrust: at most %.2g (fixed 0.25 ms), %.2g (adaptive) "
                  "relative\n", worst_dL[0], worst_dL[1]);
    print_message("peak axial force against the reference (tolerance %g): at most %.3f %% (fixed 0.25 ms, bound %g %%), "
                  "%.3f %% (tolerance %g, bound %g %%)\n", TOL_REF, 100 * worst_peak[0], 100 * PEAK_FIXED,
                  100 * worst_peak[1], MECH_DOCK_TOL_DEFAULT, 100 * PEAK_ADAPTIVE);
}

/* ---- an impact starts on a step boundary; without event location it does not, and the impact is wrong -------- */

/* S1-B's first 0.3 s: the head, pushed past the latches at 0.15 m/s, hits the socket bottom at 0.094 s (peak 2.84 kN
 * in the fixed 0.25 ms run) after a free stretch where a loose tolerance takes steps of 10 ms. */
static void impact_on_step_boundary(void **state)
{
    (void)state;
    mech_dock_config c;
    read_scenario("s1-B.json", &c);
    mech_dock_params p = c.params;
    p.duration = 0.3;
    p.tol = 0;
    outcome f, on, off;
    run(&p, &f);
    p.tol = 1e-3;
    run(&p, &on);
    p.events = 0;
    run(&p, &off);
    double E0 = on.S.e_initial;
    print_message("fixed 0.25 ms: peak %.1f N, capture %.5f s; events on: onset depth %.2e m, residual %.2e J, peak "
                  "%.1f N, capture %.5f s, %lu events; off: onset depth %.2e m, residual %.2e J, peak %.1f N, capture "
                  "%.5f s\n", f.S.peak_axial, f.S.capture_time, on.st.onset_depth_max, on.S.e_residual_max,
                  on.S.peak_axial, on.S.capture_time, on.st.events, off.st.onset_depth_max, off.S.e_residual_max,
                  off.S.peak_axial, off.S.capture_time);
    /* with events: every contact starts at most 1e-7 s after its gap closed (0.15 m/s x 1e-7 s = 1.5e-8 m) */
    assert_true(on.st.events >= 2);
    assert_true(on.st.impacts >= 1 && on.st.impacts <= on.st.events);   /* the head on the bottom at ~0.15 m/s */
    assert_true(on.st.onset_depth_max > 0 && on.st.onset_depth_max < 1e-7);
    assert_true(on.S.e_residual_max < 1e-3 * E0);
    assert_true(rel(on.S.peak_axial, f.S.peak_axial) < 0.02);
    assert_true(fabs(on.S.capture_time - f.S.capture_time) <= 2.5e-4);
    /* without: the impact starts inside a step (0.2-0.3 mm deep at the first contact state), its peak force and
       the capture time leave their bounds, and its energy error is hundreds of times the located run's (measured
       257x: 0.21 J of 214 J against 8.2e-4 J; 686x with the screw's former viscous stick band) */
    assert_int_equal(off.st.events, 0);
    assert_true(off.st.onset_depth_max > 1e-5);
    assert_true(off.S.e_residual_max > 100 * on.S.e_residual_max);
    assert_true(rel(off.S.peak_axial, f.S.peak_axial) > 0.05);
    assert_true(fabs(off.S.capture_time - f.S.capture_time) > 1e-3);
    mech_dock_config_free(&c);
}

/* ---- the step grows where the dynamics are slow: S4a bounces off the detent and flies apart ------------------- */
static void slow_phase_steps_grow(void **state)
{
    (void)state;
    mech_dock_config c;
    read_scenario("s4a-A.json", &c);
    mech_dock_params p = c.params;
    p.tol = MECH_DOCK_TOL_DEFAULT;
    outcome a;
    run(&p, &a);
    assert_false(a.S.captured);
    /* 20 s: the ceiling of 10 ms in free flight, a few thousand steps against 80 000 of 0.25 ms */
    assert_true(a.st.h_max >= 0.0099);
    assert_true(a.st.steps < 4000);
    mech_dock_config_free(&c);
}

/* ---- integration.control "pi" (the 400 s process scenarios): the first 100 s of S1-400-B (capture, absorption,
 * the start of the retraction) with both controls. The probe's torsion holds the steps at RK4(3)'s stability limit
 * after capture; the standard control's ratio swings across it and throws ~a quarter of its trial steps away, the
 * PI control's memory damps the swing: fewer evaluations, the same run (docs/dock.md §6b) ------------------------ */
static void pi_control_on_the_process(void **state)
{
    (void)state;
    mech_dock_config c;
    read_scenario("s1-400-B.json", &c);
    mech_dock_params p = c.params;
    assert_int_equal(p.control, MECH_DOCK_CONTROL_PI);   /* as shipped */
    p.duration = 100;
    outcome s, q, ref;
    run(&p, &q);
    p.control = MECH_DOCK_CONTROL_STANDARD;
    run(&p, &s);
    p.tol = TOL_REF;
    run(&p, &ref);
    print_message("S1-400-B, 0-100 s: standard control %lu steps, %lu rejected, %lu evaluations; PI %lu, %lu, %lu; "
                  "capture %.6f / %.6f s, peak %.2f / %.2f N, stroke %.6f / %.6f m\n", s.st.steps, s.st.rejected,
                  s.st.evals, q.st.steps, q.st.rejected, q.st.evals, s.S.capture_time, q.S.capture_time,
                  s.S.peak_axial, q.S.peak_axial, s.S.stroke_max, q.S.stroke_max);
    assert_true(q.st.rejected * 2 < s.st.rejected);
    assert_true(q.st.evals < 0.95 * s.st.evals);
    assert_true(q.S.captured && s.S.captured);
    assert_true(fabs(q.S.capture_time - s.S.capture_time) < 1e-4);
    /* the peak of each against the converged reference, with the bound of shipped_scenarios (measured: 3231.76 and
       3230.02 N against 3224.44 N, the standard control at 1e-8; the PI control gives 3225.73 N at 1e-8 and 3225.46 N
       at 1e-9: 0.23 and 0.17 %; the two were compared with each other at 0.2 %, less than the accuracy of either) */
    print_message("S1-400-B, 0-100 s: reference (tolerance %g) peak %.2f N, stroke %.6f m\n", TOL_REF,
                  ref.S.peak_axial, ref.S.stroke_max);
    assert_true(rel(q.S.peak_axial, ref.S.peak_axial) <= PEAK_ADAPTIVE);
    assert_true(rel(s.S.peak_axial, ref.S.peak_axial) <= PEAK_ADAPTIVE);
    assert_true(rel(q.S.stroke_max, ref.S.stroke_max) < 1e-3 && rel(s.S.stroke_max, ref.S.stroke_max) < 1e-3);
    assert_true(q.S.e_residual_max / q.S.e_initial < 1e-3);
    mech_dock_config_free(&c);
}

/* ---- no allocation in an error-controlled step (rejections and event location included) ---------------------- */
static void no_allocation(void **state)
{
    (void)state;
    mech_dock_config c;
    read_scenario("s2-B.json", &c);
    c.params.tol = MECH_DOCK_TOL_DEFAULT;
    c.params.duration = 2.0;
    mech_dock_model *m;
    mech_dock_sim *s;
    hy_err e;
    assert_int_equal(mech_dock_model_new(&c.params, &m, &e), HY_OK);
    assert_int_equal(mech_dock_sim_new(m, &s, &e), HY_OK);
    long before = n_alloc;
    while (!mech_dock_sim_done(s))
        assert_int_equal(mech_dock_sim_step(s, &e), HY_OK);
    mech_dock_sim_stats st;
    mech_dock_sim_stats_get(s, &st);
    if (COUNT_ALLOC)
        print_message("allocations in %lu steps (%lu rejected, %lu events): %ld\n", st.steps, st.rejected, st.events,
                      n_alloc - before);
    assert_true(st.rejected > 0 && st.events > 0);   /* both paths ran */
    assert_int_equal(n_alloc - before, 0);
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
    mech_dock_config_free(&c);
}

/* ---- the scenario key ---------------------------------------------------------------------------------------- */
#define DOCK "\"format\": \"mech-dock\", \"version\": 1, \"initial\": {\"closing_speed\": 0.15}"

// (scenario text) => *c parsed from it, *c2 parsed from c's printed text (both to be freed by the caller)
static void parse_print_parse(const char *text, mech_dock_config *c, mech_dock_config *c2)
{
    hy_err e;
    assert_int_equal(mech_dock_config_parse(text, strlen(text), "cfg.json", NULL, c, &e), HY_OK);
    char *txt = mech_dock_config_print(c, &e);
    assert_non_null(txt);
    assert_int_equal(mech_dock_config_parse(txt, strlen(txt), "printed.json", NULL, c2, &e), HY_OK);
    free(txt);
}

static void tolerance_key(void **state)
{
    (void)state;
    mech_dock_config c;
    hy_err e;
    const char *ok = "{" DOCK ", \"integration\": {\"tolerance\": 1e-6}}";
    assert_int_equal(mech_dock_config_parse(ok, strlen(ok), "cfg.json", NULL, &c, &e), HY_OK);
    assert_true(c.params.tol == 1e-6);
    /* printed back and parsed again: the same tolerance */
    char *txt = mech_dock_config_print(&c, &e);
    assert_non_null(txt);
    assert_non_null(strstr(txt, "\"integration\""));
    mech_dock_config c2;
    assert_int_equal(mech_dock_config_parse(txt, strlen(txt), "printed.json", NULL, &c2, &e), HY_OK);
    assert_true(c2.params.tol == 1e-6);
    assert_true(c2.params.method == MECH_DOCK_DOPRI5);
    assert_non_null(strstr(txt, "dopri5"));
    free(txt);
    mech_dock_config_free(&c2);
    mech_dock_config_free(&c);
    /* the stepper: RK4(3) on request, printed back as it was read */
    const char *dp = "{" DOCK ", \"integration\": {\"tolerance\": 1e-6, \"method\": \"rk43\"}}";
    parse_print_parse(dp, &c, &c2);
    assert_true(c.params.method == MECH_DOCK_RK43);
    assert_true(c2.params.method == MECH_DOCK_RK43);
    assert_true(c2.params.control == MECH_DOCK_CONTROL_STANDARD);   /* the default, printed back */
    mech_dock_config_free(&c2);
    mech_dock_config_free(&c);
    /* the step-size control: PI on request, printed back as it was read */
    const char *pc = "{" DOCK ", \"integration\": {\"tolerance\": 1e-6, \"control\": \"pi\"}}";
    parse_print_parse(pc, &c, &c2);
    assert_true(c.params.control == MECH_DOCK_CONTROL_PI);
    assert_true(c2.params.control == MECH_DOCK_CONTROL_PI);
    mech_dock_config_free(&c2);
    mech_dock_config_free(&c);
    /* absent: fixed steps, as before */
    const char *none = "{" DOCK "}";
    assert_int_equal(mech_dock_config_parse(none, strlen(none), "cfg.json", NULL, &c, &e), HY_OK);
    assert_true(c.params.tol == 0);
    mech_dock_config_free(&c);
    static const struct { const char *text, *msg; } bad[] = {
        {"{" DOCK ", \"integration\": {\"tolerance\": 0.1}}",
         "cfg.json: integration.tolerance = 0.10000000000000001: expected 0 (fixed steps of `step`) or 1e-10 .. 1e-2"},
        {"{" DOCK ", \"integration\": {\"tolerance\": -1e-6}}", "cfg.json: integration.tolerance = -9.9999999999999995e-07: expected 0"},
        {"{" DOCK ", \"integration\": {\"tolerance\": 1e-12}}", "cfg.json: integration.tolerance = 9.9999999999999998e-13: expected 0"},
        {"{" DOCK ", \"integration\": {\"tolerance\": \"fine\"}}", "cfg.json: integration.tolerance: expected a number"},
        {"{" DOCK ", \"integration\": {\"tol\": 1e-6}}", "cfg.json: integration.\"tol\": unknown key (known: tolerance"},
        {"{" DOCK ", \"integration\": {\"method\": \"rk45\"}}",
         "cfg.json: integration.method: expected one of \"rk43\", \"dopri5\""},
        {"{" DOCK ", \"integration\": {\"method\": 4}}", "cfg.json: integration.method: expected one of"},
        {"{" DOCK ", \"integration\": {\"control\": \"PID\"}}",
         "cfg.json: integration.control: expected one of \"standard\", \"pi\""},
        {"{" DOCK ", \"integration\": {\"control\": true}}", "cfg.json: integration.control: expected one of"},
        {"{" DOCK ", \"integration\": 3}", "cfg.json: integration: expected an object"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = mech_dock_config_parse(bad[i].text, strlen(bad[i].text), "cfg.json", NULL, &c, &e);
        if (rc == HY_OK || strncmp(e.msg, bad[i].msg, strlen(bad[i].msg)) != 0)
            print_message("case %zu: rc %d, message '%s'\n", i, rc, e.msg);
        assert_int_not_equal(rc, HY_OK);
        assert_int_equal(strncmp(e.msg, bad[i].msg, strlen(bad[i].msg)), 0);
        mech_dock_config_free(&c);
    }
    /* the params check names the key too (a caller that fills the params by hand) */
    read_scenario("s1-A.json", &c);
    if (mech_dock_params_check(&c.params, &e) != HY_OK)
        print_message("%s\n", e.msg);
    assert_int_equal(mech_dock_params_check(&c.params, &e), HY_OK);
    c.params.tol = 0.5;
    assert_int_not_equal(mech_dock_params_check(&c.params, &e), HY_OK);
    assert_non_null(strstr(e.msg, "integration.tolerance"));
    c.params.tol = 1e-6;
    c.params.method = 7;
    assert_int_not_equal(mech_dock_params_check(&c.params, &e), HY_OK);
    assert_non_null(strstr(e.msg, "integration.method"));
    c.params.method = MECH_DOCK_RK43;
    c.params.control = 2;
    assert_int_not_equal(mech_dock_params_check(&c.params, &e), HY_OK);
    assert_non_null(strstr(e.msg, "integration.control"));
    mech_dock_config_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tolerance_key),
        cmocka_unit_test(methods_agree),
        cmocka_unit_test(impact_on_step_boundary),
        cmocka_unit_test(slow_phase_steps_grow),
        cmocka_unit_test(pi_control_on_the_process),
        cmocka_unit_test(no_allocation),
        cmocka_unit_test(shipped_scenarios),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

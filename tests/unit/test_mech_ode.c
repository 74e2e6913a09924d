/* libmech ODE layer: convergence order of the steppers on problems with closed-form solutions, the adaptive
 * driver's tolerance, and the order kept through hysteretic reversals by event location. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "hyst/kin.h"
#include "mech/ode.h"

/* y'' = -w^2 y with y(0) = 1, y'(0) = 0: y = cos(w t) */
static int oscillator(double t, const double y[], double dy[], void *p)
{
    (void)t;
    double w = *(double *)p;
    dy[0] = y[1];
    dy[1] = -w * w * y[0];
    return HY_OK;
}

// (stepper, h) => |y(T) - cos(w T)| with fixed steps
static double fixed_error(const mech_ode_step_type *T, double h)
{
    double w = 2.0, t = 0, y[2] = {1, 0};
    mech_ode_system sys = {oscillator, 2, &w, NULL, NULL, NULL};
    mech_ode_driver *d = mech_ode_driver_alloc_fixed(&sys, T, h);
    assert_non_null(d);
    assert_int_equal(mech_ode_driver_apply(d, &t, 5.0, y), HY_OK);
    assert_true(t == 5.0);
    mech_ode_driver_free(d);
    return fabs(y[0] - cos(w * 5.0)) + fabs(y[1] + w * sin(w * 5.0));
}

static void rk4_and_rk45_orders_on_closed_form(void **state)
{
    (void)state;
    for (int r = 0; r < 3; r++) {
        double o4 = log2(fixed_error(mech_ode_step_rk4, 0.05 / (1 << r)) / fixed_error(mech_ode_step_rk4, 0.025 / (1 << r)));
        assert_true(o4 > 3.8 && o4 < 4.3);
        double o5 =
            log2(fixed_error(mech_ode_step_rk45, 0.1 / (1 << r)) / fixed_error(mech_ode_step_rk45, 0.05 / (1 << r)));
        assert_true(o5 > 4.7 && o5 < 5.5);
    }
}

/* RK4(3): the propagated solution is classic RK4 (the same numbers), its error estimate h/6 (k4 - k5) is O(h^4)
   and is the local error of the order-3 companion: on y' = y, h/6 (k4 - k5) = h^4/72 - h^5/144 and RK4 is exact to
   h^4, so the companion y1 - err misses e^h by h^4/72 + O(h^5) */
static int growth(double t, const double y[], double dy[], void *p)
{
    (void)t, (void)p;
    dy[0] = y[0];
    return HY_OK;
}

static void rk43_is_rk4_with_an_order_four_estimate(void **state)
{
    (void)state;
    double w = 2.0;
    mech_ode_system sys = {oscillator, 2, &w, NULL, NULL, NULL};
    mech_ode_step *a = mech_ode_step_alloc(mech_ode_step_rk4, 2), *b = mech_ode_step_alloc(mech_ode_step_rk43, 2);
    double ya[2] = {1, 0}, yb[2] = {1, 0}, e[2];
    for (int k = 0; k < 10; k++) {
        assert_int_equal(mech_ode_step_apply(a, 0.1 * k, 0.1, ya, NULL, &sys), HY_OK);
        assert_int_equal(mech_ode_step_apply(b, 0.1 * k, 0.1, yb, e, &sys), HY_OK);
    }
    assert_memory_equal(ya, yb, sizeof ya);
    mech_ode_step_free(a);
    mech_ode_step_free(b);
    mech_ode_system g = {growth, 1, NULL, NULL, NULL, NULL};
    mech_ode_step *st = mech_ode_step_alloc(mech_ode_step_rk43, 1);
    double prev = 0;
    for (int r = 0; r < 4; r++) {
        double h = 0.1 / (1 << r), y = 1, err;
        assert_int_equal(mech_ode_step_apply(st, 0, h, &y, &err, &g), HY_OK);
        assert_true(fabs(err / (pow(h, 4) / 72) - 1) < 0.06);
        if (r > 0) {
            double order = log2(prev / fabs(err));
            assert_true(order > 3.8 && order < 4.2);
        }
        prev = fabs(err);
    }
    mech_ode_step_free(st);
    /* the adaptive driver with it: the global error follows the tolerance */
    double prev_err = 1;
    for (int r = 0; r < 3; r++) {
        double tol = 1e-5 * pow(1e-2, r), t = 0, y[2] = {1, 0};
        mech_ode_driver *d = mech_ode_driver_alloc_adaptive(&sys, mech_ode_step_rk43, 1e-3, tol, tol);
        assert_int_equal(mech_ode_driver_apply(d, &t, 10.0, y), HY_OK);
        double err = fabs(y[0] - cos(20.0));
        assert_true(err < 500 * tol && err < prev_err);
        prev_err = err;
        mech_ode_driver_free(d);
    }
}

static void adaptive_error_follows_tolerance(void **state)
{
    (void)state;
    double prev = 1;
    for (int r = 0; r < 3; r++) {
        double tol = 1e-6 * pow(1e-2, r), w = 2.0, t = 0, y[2] = {1, 0};
        mech_ode_system sys = {oscillator, 2, &w, NULL, NULL, NULL};
        mech_ode_driver *d = mech_ode_driver_alloc_adaptive(&sys, mech_ode_step_rk45, 1e-3, tol, tol);
        /* output at 50 intermediate times: the driver lands on each exactly */
        for (int k = 1; k <= 50; k++)
            assert_int_equal(mech_ode_driver_apply(d, &t, 0.2 * k, y), HY_OK);
        double err = fabs(y[0] - cos(20.0));
        assert_true(err < 200 * tol);  /* global error stays within a modest multiple of the local tolerance */
        assert_true(err < prev);
        prev = err;
        assert_true(d->n_steps > 10);
        mech_ode_driver_free(d);
    }
    assert_null(mech_ode_driver_alloc_adaptive(NULL, mech_ode_step_rk4, 1e-3, 1e-6, 1e-6)); /* no error estimate */
}

/* A disk on a hysteretic unit (paper law, spec 002) whose other side is driven: I x'' = -M(x - u(t)) - k x,
 * u = 0.2 sin(3 t). The unit's relative velocity changes sign many times. */
typedef struct hyst_osc {
    hy_kin_state st;
    hy_element el;
    int with_events;
} hyst_osc;

static int hosc_f(double t, const double y[], double dy[], void *p)
{
    hyst_osc *o = p;
    double q = y[0] - 0.2 * sin(3 * t), qd = y[1] - 0.6 * cos(3 * t), M;
    int rc = hy_element_trial(&o->el, q, qd, &M, NULL, NULL);
    dy[0] = y[1];
    dy[1] = (-M - 40.0 * y[0]) / 2.0;
    return rc;
}
static double hosc_event(double t, const double y[], void *p)
{
    (void)p;
    return y[1] - 0.6 * cos(3 * t);
}
static int hosc_accept(double t, const double y[], void *p)
{
    hyst_osc *o = p;
    double M;
    int rc = hy_element_trial(&o->el, y[0] - 0.2 * sin(3 * t), y[1] - 0.6 * cos(3 * t), &M, NULL, NULL);
    if (rc == HY_OK)
        hy_element_commit(&o->el);
    return rc;
}
static void hosc_reject(void *p)
{
    hy_element_revert(&((hyst_osc *)p)->el);
}

// (model, h, events on?) => x(T), and the number of reversals located
static double hosc_run(const hy_kin_model *m, double h, int events, unsigned long *n_events)
{
    hyst_osc o;
    hy_kin_state_init(&o.st, m, 0, 0, NULL);
    hy_kin_element_wrap(&o.st, &o.el);
    mech_ode_system sys = {hosc_f, 2, &o, events ? hosc_event : NULL, hosc_accept, hosc_reject};
    mech_ode_driver *d = mech_ode_driver_alloc_fixed(&sys, mech_ode_step_rk4, h);
    double t = 0, y[2] = {0, 0};
    assert_int_equal(mech_ode_driver_apply(d, &t, 6.0, y), HY_OK);
    if (n_events)
        *n_events = d->n_events;
    mech_ode_driver_free(d);
    return y[0];
}

static void reversal_location_keeps_order_four(void **state)
{
    (void)state;
    hy_kin_spec s;
    hy_kin_model *m;
    hy_kin_paper_spec(&s, 0);
    assert_int_equal(hy_kin_model_new(&s, &m, NULL), HY_OK);
    unsigned long nev;
    double ref = hosc_run(m, 0.02 / 64, 1, &nev);
    assert_true(nev >= 5);  /* the test does cross reversals */
    double e1 = fabs(hosc_run(m, 0.02, 1, NULL) - ref), e2 = fabs(hosc_run(m, 0.01, 1, NULL) - ref),
           e3 = fabs(hosc_run(m, 0.005, 1, NULL) - ref);
    double o1 = log2(e1 / e2), o2 = log2(e2 / e3);
    assert_true(o1 > 3.5 && o2 > 3.5);
    /* without locating the reversals a step straddles each one with the wrong law: order drops to ~2 */
    double f1 = fabs(hosc_run(m, 0.01, 0, NULL) - ref), f2 = fabs(hosc_run(m, 0.005, 0, NULL) - ref);
    assert_true(log2(f1 / f2) < 3.0);
    assert_true(f2 > 10 * e3);
    hy_kin_model_free(m);
}

/* x'' + 2 zeta w x' + w^2 (x - sin t) = 0, w = 1000 rad/s, zeta = 0.05, started on its steady solution
 * x_p = Im(H e^(i t)), H = w^2 / (w^2 - 1 + 2 i zeta w): the slow solution alone would take long steps, the fast
 * lightly damped mode holds RK4(3) at its stability limit (|lambda h| ~ 2.8, h ~ 2.8 ms), as the probe's torsion
 * holds the 400 s docking runs (docs/dock.md §6b) */
static int stiff_osc(double t, const double y[], double dy[], void *p)
{
    (void)p;
    const double w = 1000.0, zeta = 0.05;
    dy[0] = y[1];
    dy[1] = -2 * zeta * w * y[1] - w * w * (y[0] - sin(t));
    return HY_OK;
}

typedef struct ctl_run { unsigned long accepted, rejected, evals; double err; } ctl_run;

// (pi: 0 the standard control, 1 PI) => the run of 0 .. 10 s with RK4(3) at 1e-6 (FSAL: 3 new evaluations a trial)
static ctl_run run_controlled(int pi, double tol)
{
    const double w = 1000.0, zeta = 0.05, T = 10.0;
    double complex_re = w * w - 1, complex_im = 2 * zeta * w, den = complex_re * complex_re + complex_im * complex_im;
    double Hr = w * w * complex_re / den, Hi = -w * w * complex_im / den;   /* H = w^2 / (w^2 - 1 + i 2 zeta w) */
    /* x_p = Im(H e^(it)) = Hr sin t + Hi cos t */
    double y[2] = {Hi, Hr}, ytry[2], yerr[2], k1[2], kout[2], t = 0, h = 1e-3;
    mech_ode_system sys = {stiff_osc, 2, NULL, NULL, NULL, NULL};
    mech_ode_step *st = mech_ode_step_alloc(mech_ode_step_rk43, 2);
    assert_non_null(st);
    mech_ode_control c = {tol, 0.0, 0.9, NULL};
    mech_ode_pi mem = {0};
    ctl_run r = {0};
    stiff_osc(t, y, k1, NULL);
    r.evals = 1;
    while (t < T) {
        double hh = fmin(h, T - t), ratio;
        memcpy(ytry, y, sizeof y);
        assert_int_equal(mech_ode_step_apply_fsal(st, t, hh, ytry, yerr, k1, kout, &sys), HY_OK);
        r.evals += 4;
        h = hh;
        int adj = pi ? mech_ode_control_hadjust_pi(&c, &mem, st->type->order, ytry, yerr, 2, &h, &ratio)
                     : mech_ode_control_hadjust(&c, st->type->order, ytry, yerr, 2, &h, &ratio);
        if (adj < 0) {
            r.rejected++;
            continue;
        }
        t += hh;
        memcpy(y, ytry, sizeof y);
        memcpy(k1, kout, sizeof k1);
        r.accepted++;
    }
    r.err = fabs(y[0] - (Hr * sin(T) + Hi * cos(T)));
    mech_ode_step_free(st);
    return r;
}

/* The PI control: its law in closed form, and where a lightly damped mode holds the steps at the stepper's
 * stability limit, fewer trial steps thrown away and fewer evaluations than the standard control for the same
 * accuracy */
static void pi_control(void **state)
{
    (void)state;
    mech_ode_control c = {1e-6, 0.0, 0.9, NULL};
    mech_ode_pi mem = {0};
    double y[1] = {0}, e[1], h, ratio;
    /* first accepted step: no memory, (1/err)^(0.7/4) err^(0.4/4) = 0.948 (shrunk, where the standard control keeps
       h in 0.5 .. 1.1) */
    e[0] = 0.5e-6, h = 1;
    assert_int_equal(mech_ode_control_hadjust_pi(&c, &mem, 4, y, e, 1, &h, &ratio), 0);
    assert_true(fabs(ratio - 0.5) < 1e-15 && mem.err_old == ratio && !mem.rejected);
    assert_true(fabs(h - 0.9 * pow(ratio, -0.175) * pow(ratio, 0.1)) < 1e-15);
    /* the next one remembers 0.5 */
    double r0 = mem.err_old;
    e[0] = 0.2e-6, h = 1;
    assert_int_equal(mech_ode_control_hadjust_pi(&c, &mem, 4, y, e, 1, &h, &ratio), 1);
    assert_true(fabs(h - 0.9 * pow(ratio, -0.175) * pow(r0, 0.1)) < 1e-15 && h > 1.1);
    /* a rejection shrinks as the standard control does, and the next accepted step does not grow */
    e[0] = 2e-6, h = 1;
    assert_int_equal(mech_ode_control_hadjust_pi(&c, &mem, 4, y, e, 1, &h, &ratio), -1);
    assert_true(fabs(h - 0.9 / pow(2.0, 0.25)) < 1e-15 && mem.rejected);
    double h2 = 1;
    assert_int_equal(mech_ode_control_hadjust(&c, 4, y, e, 1, &h2, &ratio), -1);
    assert_true(h == h2);
    e[0] = 1e-9, h = 1;
    assert_int_equal(mech_ode_control_hadjust_pi(&c, &mem, 4, y, e, 1, &h, &ratio), 0);
    assert_true(h == 1.0 && !mem.rejected && mem.err_old == 1e-3);
    /* then it may: growth at most 5, the ratio floored at 1e-4 (0 error) */
    e[0] = 0, h = 1;
    assert_int_equal(mech_ode_control_hadjust_pi(&c, &mem, 4, y, e, 1, &h, &ratio), 1);
    assert_true(fabs(h - fmin(5.0, 0.9 * pow(1e-4, -0.175) * pow(1e-3, 0.1))) < 1e-15);
    /* a NaN error rejects to a fifth */
    e[0] = NAN, h = 1;
    assert_int_equal(mech_ode_control_hadjust_pi(&c, &mem, 4, y, e, 1, &h, &ratio), -1);
    assert_true(h == 0.2);

    /* at 1e-2 the slow solution allows long steps and the fast mode holds them at RK4's stability limit (10 s at
       |lambda h| ~ 2.8: ~3600 steps): the standard control's ratio swings across the limit (1181 of 4775 trials
       thrown away), the PI control's does not (164); at 1e-6 the accuracy holds the steps, both reject few, and
       PI takes ~20 % more steps (it grows them more cautiously): the trade-off that keeps it optional
       (integration.control, docs/dock.md §6b) */
    ctl_run s = run_controlled(0, 1e-2), p = run_controlled(1, 1e-2), s6 = run_controlled(0, 1e-6),
            p6 = run_controlled(1, 1e-6);
    print_message("lightly damped 1000 rad/s mode, RK4(3) over 10 s, at 1e-2: standard control %lu steps, %lu "
                  "rejected, %lu evaluations, error %.2e; PI %lu, %lu, %lu, %.2e. At 1e-6: standard %lu, %lu, %lu, "
                  "%.2e; PI %lu, %lu, %lu, %.2e\n", s.accepted, s.rejected, s.evals, s.err, p.accepted, p.rejected,
                  p.evals, p.err, s6.accepted, s6.rejected, s6.evals, s6.err, p6.accepted, p6.rejected, p6.evals,
                  p6.err);
    assert_true(s.accepted > 3000 && p.accepted > 3000 && s.accepted < 4500 && p.accepted < 4500);
    assert_true(s.rejected > s.accepted / 5);   /* the standard control's swing */
    assert_true(p.rejected * 4 < s.rejected);
    assert_true(p.evals * 1.1 < s.evals);
    assert_true(s.err < 1e-4 && p.err < 1e-4);
    assert_true(s6.rejected < s6.accepted / 100 && p6.rejected <= s6.rejected);
    assert_true(s6.err < 1e-8 && p6.err < 1e-8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rk4_and_rk45_orders_on_closed_form),
        cmocka_unit_test(rk43_is_rk4_with_an_order_four_estimate),
        cmocka_unit_test(adaptive_error_follows_tolerance),
        cmocka_unit_test(reversal_location_keeps_order_four),
        cmocka_unit_test(pi_control),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* libmech ODE layer additions of issue 17 (mech/ode.h): the first-same-as-last call of the steppers gives the same
 * step as the plain call with one evaluation less (rk45) and the derivative at the end bit for bit; the stiffness
 * estimate of rk45 on linear decoupled systems (the eigenvalue exactly, the rows chosen); the scaled control (GSL's
 * per-component eps_abs weights). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "mech/ode.h"

typedef struct decay {
    double lambda[2];
    int    evals;
} decay;

/* y_i' = -lambda_i y_i + sin(t) (a forcing so that the stages differ in t too) */
static int decay_f(double t, const double y[], double dy[], void *p)
{
    decay *d = p;
    d->evals++;
    for (int i = 0; i < 2; i++)
        dy[i] = -d->lambda[i] * y[i] + sin(t);
    return HY_OK;
}

static void fsal_same_step(void **state)
{
    (void)state;
    const mech_ode_step_type *types[3] = {mech_ode_step_rk45, mech_ode_step_rk4, mech_ode_step_rk43};
    for (int k = 0; k < 3; k++) {
        decay d = {{30, 2}, 0};
        mech_ode_system sys = {decay_f, 2, &d, NULL, NULL, NULL};
        mech_ode_step *st = mech_ode_step_alloc(types[k], 2);
        assert_non_null(st);
        double y0[2] = {1, -0.5}, ya[2], yb[2], ea[2] = {0, 0}, eb[2] = {0, 0}, k1[2], kout[2], kref[2];
        double t = 0.3, h = 0.01;
        memcpy(ya, y0, sizeof ya);
        memcpy(yb, y0, sizeof yb);
        d.evals = 0;
        assert_int_equal(mech_ode_step_apply(st, t, h, ya, ea, &sys), HY_OK);
        int plain = d.evals;
        decay_f(t, y0, k1, &d);
        d.evals = 0;
        assert_int_equal(mech_ode_step_apply_fsal(st, t, h, yb, eb, k1, kout, &sys), HY_OK);
        /* rk45: 7 evaluations plain, 6 with the start given (the end comes from its last stage); rk4: 4, 3 + 1;
           rk43: 5, 4 (its fifth stage is the end's derivative) */
        assert_int_equal(plain, k == 0 ? 7 : k == 1 ? 4 : 5);
        assert_int_equal(d.evals, k == 0 ? 6 : 4);
        assert_int_equal(types[k]->fsal, k != 1);
        assert_memory_equal(ya, yb, sizeof ya);
        assert_memory_equal(ea, eb, sizeof ea);
        decay_f(t + h, yb, kref, &d);
        assert_memory_equal(kout, kref, sizeof kref);
        mech_ode_step_free(st);
    }
}

static void rho_is_the_eigenvalue(void **state)
{
    (void)state;
    decay d = {{250, 3}, 0};
    mech_ode_system sys = {decay_f, 2, &d, NULL, NULL, NULL};
    mech_ode_step *st = mech_ode_step_alloc(mech_ode_step_rk45, 2);
    double y[2] = {1, 1}, e[2];
    assert_int_equal(mech_ode_step_apply(st, 0.0, 0.002, y, e, &sys), HY_OK);
    /* k7 - k6 = -lambda (y1 - y6) row by row (the forcing is the same at t + h): each row alone gives its lambda */
    assert_true(fabs(mech_ode_step_rho(st, NULL, 0, 1) - 250) < 1e-6 * 250);
    assert_true(fabs(mech_ode_step_rho(st, NULL, 1, 2) - 3) < 1e-6 * 3);
    double both = mech_ode_step_rho(st, NULL, 0, 2);
    assert_true(both > 3 && both <= 250 * (1 + 1e-9));
    /* weights: a zero weight takes a row out, a common factor changes nothing */
    double w0[2] = {0, 7}, w1[2] = {5, 5};
    assert_true(fabs(mech_ode_step_rho(st, w0, 0, 2) - 3) < 1e-6 * 3);
    assert_true(fabs(mech_ode_step_rho(st, w1, 0, 2) - both) < 1e-12 * both);
    mech_ode_step_free(st);
    /* rk43: k5 - k4 = -lambda (y1 - y4), both stages at t + h */
    st = mech_ode_step_alloc(mech_ode_step_rk43, 2);
    double z[2] = {1, 1};
    assert_int_equal(mech_ode_step_apply(st, 0.0, 0.002, z, e, &sys), HY_OK);
    assert_true(fabs(mech_ode_step_rho(st, NULL, 0, 1) - 250) < 1e-6 * 250);
    assert_true(fabs(mech_ode_step_rho(st, NULL, 1, 2) - 3) < 1e-6 * 3);
    mech_ode_step_free(st);
    /* not defined for a stepper without the stages */
    st = mech_ode_step_alloc(mech_ode_step_rk4, 2);
    assert_true(mech_ode_step_rho(st, NULL, 0, 2) == 0.0);
    mech_ode_step_free(st);
}

static void scaled_control(void **state)
{
    (void)state;
    double y[2] = {100, 0.001}, yerr[2] = {1e-5, 1e-7}, s[2] = {10, 0.1};
    mech_ode_control c = {1e-6, 0, 0.9, s};
    double h = 1e-3, ratio;
    /* D = 1e-6 * (10, 0.1): ratios 1 and 1 -> kept */
    int adj = mech_ode_control_hadjust(&c, 5, y, yerr, 2, &h, &ratio);
    assert_true(fabs(ratio - 1.0) < 1e-12);
    assert_int_equal(adj, 0);
    /* unscaled the second row's 1e-7 against 1e-6 alone: 0.1, and the first 10 -> reject */
    c.scale_abs = NULL;
    adj = mech_ode_control_hadjust(&c, 5, y, yerr, 2, &h, &ratio);
    assert_true(fabs(ratio - 10.0) < 1e-9);
    assert_int_equal(adj, -1);
    assert_true(h < 1e-3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fsal_same_step),
        cmocka_unit_test(rho_is_the_eigenvalue),
        cmocka_unit_test(scaled_control),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* mech_beam_run (the whole §4.5 response into caller arrays, the run of `mech beam sim` and hystkit.run_beam):
 * the samples equal a loop of mech_beam_step / mech_beam_observe_energy bit for bit, the hinge work booked from the
 * samples equals the integrator's own hinge work, contact counts, the sample count of mech_beam_samples, and the
 * bad arguments (arrays too short, dt <= 0, too many steps). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "mech/beam.h"

typedef struct arrays {
    double *buf;
    mech_beam_history h;
} arrays;

static void alloc(arrays *a, size_t cap, int nh)
{
    a->buf = calloc(cap * (6 + 2 * (size_t)nh), sizeof(double));
    assert_non_null(a->buf);
    memset(&a->h, 0, sizeof a->h);
    double *p = a->buf;
    a->h.cap = cap;
    a->h.t = p, a->h.w_tip = p + cap, a->h.theta = p + 2 * cap, a->h.theta_dot = p + 3 * cap;
    a->h.U = p + 4 * cap, a->h.F = p + 5 * cap, a->h.dtheta = p + 6 * cap, a->h.M = p + (6 + (size_t)nh) * cap;
}

static void same_as_stepping(void **state)
{
    (void)state;
    mech_beam_params p;
    mech_beam_params_default(&p);
    p.hinge[0].clearance = 0.0005;   /* a gap that opens and closes: contact counts below 100 % */
    mech_beam_solver s;
    mech_beam_solver_default(&s);
    s.duration = 0.2;
    s.update = MECH_BEAM_ITERATED;
    mech_beam_load l;
    mech_beam_load_default(&l);
    hy_err err;
    mech_beam_model *m;
    assert_int_equal(mech_beam_model_new(&p, &m, &err), HY_OK);
    size_t n;
    assert_int_equal(mech_beam_samples(&s, &n, &err), HY_OK);
    assert_int_equal(n, 2001);
    arrays a;
    alloc(&a, n + 7, 1);             /* larger than the run: only n samples written */
    assert_int_equal(mech_beam_run(m, &s, &l, NULL, &a.h, &err), HY_OK);
    assert_int_equal(a.h.n, n);
    assert_int_equal(a.h.failed, 0);

    mech_beam_data *d;
    assert_int_equal(mech_beam_data_new(m, &s, &l, NULL, NULL, NULL, &d, &err), HY_OK);
    mech_beam_obs o;
    long contact = 0;
    double bal = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            assert_int_equal(mech_beam_step(d, &err), HY_OK);
        mech_beam_observe_energy(d, &o);
        double want[8] = {o.t, o.w_tip, o.theta, o.theta_dot, o.U, o.F, o.dtheta[0], o.M[0]};
        double got[8] = {a.h.t[i], a.h.w_tip[i], a.h.theta[i], a.h.theta_dot[i], a.h.U[i], a.h.F[i],
                         a.h.dtheta[i], a.h.M[i]};
        if (memcmp(want, got, sizeof want) != 0)
            fail_msg("sample %zu differs from mech_beam_step + mech_beam_observe_energy", i);
        contact += fabs(o.dtheta[0]) > p.hinge[0].clearance;
        bal = fmax(bal, fabs(o.T + o.V_beam + o.W_hinge - o.W_ext));
    }
    assert_true(a.h.t[n] == 0 && a.h.t[n - 1] == o.t);  /* nothing past the run */
    assert_int_equal(a.h.contact[0], contact);
    assert_true(contact > 10 && contact < (long)n - 10);
    assert_true(a.h.W_ext == o.W_ext && a.h.T == o.T && a.h.V_beam == o.V_beam && a.h.h == o.h);
    assert_true(a.h.balance_max == bal);
    /* the hinge's work from the samples (trapezoids of M d(dtheta)) against the integrator's W_hinge */
    assert_true(o.W_hinge != 0);
    assert_true(fabs(a.h.W_j[0] - o.W_hinge) <= 1e-9 * fabs(o.W_hinge));
    mech_beam_data_free(d);
    free(a.buf);
    mech_beam_model_free(m);
}

static void bad_arguments(void **state)
{
    (void)state;
    mech_beam_params p;
    mech_beam_params_default(&p);
    mech_beam_solver s;
    mech_beam_solver_default(&s);
    mech_beam_load l;
    mech_beam_load_default(&l);
    hy_err err;
    size_t n = 0;
    assert_int_equal(mech_beam_samples(&s, &n, &err), HY_OK);
    assert_int_equal(n, 20001);      /* 2 s at 1e-4 s: lround(19999.999...) + 1 */
    mech_beam_model *m;
    assert_int_equal(mech_beam_model_new(&p, &m, &err), HY_OK);
    s.duration = 0.01;
    arrays a;
    alloc(&a, 100, 1);
    assert_int_equal(mech_beam_run(m, &s, &l, NULL, &a.h, &err), HY_EARG);
    assert_string_equal(err.msg, "history: the arrays hold 100 samples, the run has 101");
    assert_int_equal(a.h.n, 0);
    s.dt = 0;
    assert_int_equal(mech_beam_run(m, &s, &l, NULL, &a.h, &err), HY_EARG);
    assert_non_null(strstr(err.msg, "solver.dt 0 s: expected a dt > 0 s"));
    s.dt = 1e-9, s.duration = 1;
    assert_int_equal(mech_beam_samples(&s, &n, &err), HY_EARG);
    assert_non_null(strstr(err.msg, "0 .. 1e8 steps (got 1e+09)"));
    s.dt = 1e-4, s.duration = 0.005;
    a.h.M = NULL;
    assert_int_equal(mech_beam_run(m, &s, &l, NULL, &a.h, &err), HY_EARG);
    assert_string_equal(err.msg, "history: an array is NULL");
    free(a.buf);
    mech_beam_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_as_stepping),
        cmocka_unit_test(bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* mech_beam_run (the whole §4.5 response into caller arrays, the run of `mech beam sim` and hystkit.run_beam):
 * the samples equal a loop of mech_beam_step / mech_beam_observe_energy bit for bit, the hinge work booked from the
 * samples equals the integrator's own hinge work, contact counts, the sample count of mech_beam_samples, and the
 * bad arguments (arrays too short, dt <= 0, too many steps); the sample callback (how `mech beam sim` streams) sees
 * the same samples with no arrays at all, and a callback error stops the run with its status. */
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

/* the callback's copy of every sample, and an index at which it fails (the disk filled while streaming) */
typedef struct seen {
    arrays a;
    size_t calls, fail_at;
} seen;

static int on_sample(void *ctx, size_t i, const mech_beam_obs *o, hy_err *err)
{
    seen *s = ctx;
    if (i != s->calls++)
        return hy_err_set(err, HY_EARG, "sample %zu out of order", i);
    if (i == s->fail_at)
        return hy_err_set(err, HY_EIO, "disk full at sample %zu", i);
    mech_beam_history *h = &s->a.h;
    h->t[i] = o->t, h->w_tip[i] = o->w_tip, h->theta[i] = o->theta, h->theta_dot[i] = o->theta_dot;
    h->U[i] = o->U, h->F[i] = o->F, h->dtheta[i] = o->dtheta[0], h->M[i] = o->M[0];
    return HY_OK;
}

static void streamed_equals_kept(void **state)
{
    (void)state;
    mech_beam_params p;
    mech_beam_params_default(&p);
    p.hinge[0].clearance = 0.0005;
    mech_beam_solver s;
    mech_beam_solver_default(&s);
    s.duration = 0.1;
    mech_beam_load l;
    mech_beam_load_default(&l);
    hy_err err;
    mech_beam_model *m;
    assert_int_equal(mech_beam_model_new(&p, &m, &err), HY_OK);
    size_t n;
    assert_int_equal(mech_beam_samples(&s, &n, &err), HY_OK);
    arrays kept;
    alloc(&kept, n, 1);
    assert_int_equal(mech_beam_run(m, &s, &l, NULL, &kept.h, &err), HY_OK);
    seen sn = {.fail_at = (size_t)-1};
    alloc(&sn.a, n, 1);
    mech_beam_history h = {.sample = on_sample, .sample_ctx = &sn};   /* cap 0, no arrays: nothing kept */
    assert_int_equal(mech_beam_run(m, &s, &l, NULL, &h, &err), HY_OK);
    assert_int_equal(h.n, n);
    assert_int_equal(sn.calls, n);
    if (memcmp(kept.buf, sn.a.buf, n * 8 * sizeof(double)) != 0)
        fail_msg("the streamed samples differ from the kept ones");
    assert_true(h.W_j[0] == kept.h.W_j[0] && h.contact[0] == kept.h.contact[0]);
    assert_true(h.balance_max == kept.h.balance_max && h.W_ext == kept.h.W_ext && h.h == kept.h.h);
    /* a callback error stops the run there, with its status and message; not a failed step */
    sn.calls = 0, sn.fail_at = 17;
    assert_int_equal(mech_beam_run(m, &s, &l, NULL, &h, &err), HY_EIO);
    assert_string_equal(err.msg, "disk full at sample 17");
    assert_int_equal(sn.calls, 18);
    assert_int_equal(h.failed, 0);
    free(kept.buf);
    free(sn.a.buf);
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
        cmocka_unit_test(streamed_equals_kept),
        cmocka_unit_test(bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

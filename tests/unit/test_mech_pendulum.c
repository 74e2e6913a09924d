/* The pendulum vibration damper (spec 002 §4): energy balance, steady power = frequency x loop area, rate
 * independence in quasi-static drive, free decay, the running mean power of eqs. 15-16, parameter files. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mech/pendulum.h"

static mech_pend_model *default_model(int two)
{
    mech_pend_params p;
    mech_pend_params_default(&p, two);
    mech_pend_model *m;
    assert_int_equal(mech_pend_model_new(&p, NULL, &m, NULL), HY_OK);
    return m;
}

static mech_pend_solver solver(double tol)
{
    mech_pend_solver s;
    mech_pend_solver_default(&s);
    s.tol = tol;
    return s;
}

/* work put in = change of stored energy + work absorbed by the unit, at every sample, forced and free */
static void energy_balance(void **state)
{
    (void)state;
    for (int two = 0; two < 2; two++) {
        mech_pend_model *m = default_model(two);
        mech_pend_solver s = solver(1e-10);
        mech_pend_data *d;
        assert_int_equal(mech_pend_data_new(m, 0.3, 2 * M_PI * 1.4, &s, &d, NULL), HY_OK);
        d->ramp = 2 / 1.4;
        double worst = 0, scale = 0;
        for (int k = 1; k <= 400; k++) {
            assert_int_equal(mech_pend_advance(d, k * 0.01, NULL), HY_OK);
            mech_pend_obs o;
            mech_pend_observe(d, &o);
            worst = fmax(worst, fabs(o.W_in - (o.E - d->E0) - o.W_unit));
            scale = fmax(scale, fabs(o.W_in));
        }
        assert_true(scale > 10);          /* the run does pump energy: tens of joules */
        assert_true(worst < 1e-7 * scale);
        assert_true(d->drv->n_events > 6); /* and crosses reversals */
        mech_pend_data_free(d);
        /* free decay: nothing put in, the unit absorbs what the pendulum loses */
        assert_int_equal(mech_pend_data_new(m, 0, 0, &s, &d, NULL), HY_OK);
        assert_int_equal(mech_pend_data_start(d, 0.4, 0, 0.4, 0, 0, NULL), HY_OK);
        assert_int_equal(mech_pend_advance(d, 3.0, NULL), HY_OK);
        mech_pend_obs o;
        mech_pend_observe(d, &o);
        assert_true(o.W_in == 0);
        assert_true(fabs(d->E0 - o.E - o.W_unit) < 1e-7 * d->E0);
        mech_pend_data_free(d);
        mech_pend_model_free(m);
    }
}

/* steady dissipation power = frequency x area of the M-alpha loop (trapezoid on 4000 samples of the last period) */
static void steady_power_is_frequency_times_loop_area(void **state)
{
    (void)state;
    mech_pend_model *m = default_model(0);
    mech_pend_solver s = solver(1e-10);
    const double freqs[3] = {0.4, 1.4, 2.6};
    for (int i = 0; i < 3; i++) {
        double f = freqs[i], T = 1 / f;
        mech_pend_data *d;
        assert_int_equal(mech_pend_data_new(m, 0.3, 2 * M_PI * f, &s, &d, NULL), HY_OK);
        d->ramp = 5 * T;
        assert_int_equal(mech_pend_advance(d, 15 * T, NULL), HY_OK);
        mech_pend_obs o;
        mech_pend_observe(d, &o);
        double area = 0, a0 = o.alpha, M0 = o.M, W0 = o.W_unit;
        for (int k = 1; k <= 4000; k++) {
            assert_int_equal(mech_pend_advance(d, (15 + k / 4000.0) * T, NULL), HY_OK);
            mech_pend_observe(d, &o);
            area += 0.5 * (o.M + M0) * (o.alpha - a0);
            a0 = o.alpha;
            M0 = o.M;
        }
        double P_work = (o.W_unit - W0) / T;
        assert_true(area > 0);                         /* clockwise loop: dissipation */
        assert_true(fabs(P_work - f * area) < 2e-4 * P_work);
        /* and the sweep point computes the same steady power */
        mech_pend_steady r;
        assert_int_equal(mech_pend_steady_run(m, 0.3, f, 5, 15, 1, &s, &r, NULL), HY_OK);
        assert_true(fabs(r.P - P_work) < 1e-6 * P_work);
        assert_true(fabs(r.W_cycle - area) < 2e-4 * area);
        mech_pend_data_free(d);
    }
    mech_pend_model_free(m);
}

/* quasi-static drive: the loop energy per cycle does not depend on the rate (the unit is rate-independent and
 * inertia is negligible), so the dissipation power is proportional to frequency */
static void rate_independence_quasi_static(void **state)
{
    (void)state;
    mech_pend_model *m = default_model(0);
    mech_pend_solver s = solver(1e-9);
    mech_pend_steady a, b;
    assert_int_equal(mech_pend_steady_run(m, 0.3, 0.01, 1, 3, 1, &s, &a, NULL), HY_OK);
    assert_int_equal(mech_pend_steady_run(m, 0.3, 0.02, 1, 3, 1, &s, &b, NULL), HY_OK);
    assert_true(a.W_cycle > 0.1);
    assert_true(fabs(a.W_cycle - b.W_cycle) < 1e-3 * a.W_cycle);
    assert_true(fabs(b.P / a.P - 2.0) < 2e-3);
    /* a faster drive (0.4 Hz) is not quasi-static: the pendulum's inertia changes the loop markedly */
    mech_pend_steady c;
    assert_int_equal(mech_pend_steady_run(m, 0.3, 0.4, 5, 15, 2, &s, &c, NULL), HY_OK);
    assert_true(fabs(c.W_cycle - a.W_cycle) > 0.2 * a.W_cycle);
    mech_pend_model_free(m);
}

/* free decay from 0.4 rad with disk 1 fixed (Fig. 7): the unit keeps a residual moment, so the pendulum swings
 * about a shifting rest angle; the swings between successive extremes of phi3 and the stored energy at the
 * extremes both decrease */
static void free_decay_decreases(void **state)
{
    (void)state;
    mech_pend_model *m = default_model(1);
    mech_pend_solver s = solver(1e-9);
    mech_pend_data *d;
    assert_int_equal(mech_pend_data_new(m, 0, 0, &s, &d, NULL), HY_OK);
    assert_int_equal(mech_pend_data_start(d, 0.4, 0, 0.4, 0, 0, NULL), HY_OK);
    double ext[20] = {0.4}, energy[20] = {d->E0}, prev = 0.4, w_prev = 0;
    int ne = 1;
    for (int k = 1; k <= 3000 && ne < 20; k++) {
        assert_int_equal(mech_pend_advance(d, k * 1e-3, NULL), HY_OK);
        double w = d->y[MECH_PEND_W3];
        if (k > 1 && ((w_prev > 0 && w <= 0) || (w_prev < 0 && w >= 0))) { /* phi3 turned */
            ext[ne] = prev;
            energy[ne++] = mech_pend_energy(m, d->y);
        }
        w_prev = w;
        prev = d->y[MECH_PEND_PHI3];
    }
    assert_true(ne >= 6);  /* 0-3 s holds several swings (Fig. 7a) */
    for (int i = 2; i < ne; i++) {
        assert_true(fabs(ext[i] - ext[i - 1]) < fabs(ext[i - 1] - ext[i - 2]));
        assert_true(energy[i] < energy[i - 1]);
    }
    assert_true(energy[ne - 1] < 0.2 * energy[0]);
    mech_pend_data_free(d);
    mech_pend_model_free(m);
}

/* A(t) = W_unit / t solves eq. (16) t A' + A = M alpha' (checked by central differences) and starts at M alpha' */
static void running_power_solves_eq16(void **state)
{
    (void)state;
    mech_pend_model *m = default_model(0);
    mech_pend_solver s = solver(1e-11);
    mech_pend_data *d;
    assert_int_equal(mech_pend_data_new(m, 0.3, 2 * M_PI * 1.4, &s, &d, NULL), HY_OK);
    mech_pend_obs o0, o1, o2;
    mech_pend_observe(d, &o0);
    assert_true(o0.A == 0.0 && o0.t == 0.0);
    double t = 2.0, h = 1e-4;
    assert_int_equal(mech_pend_advance(d, t - h, NULL), HY_OK);
    mech_pend_observe(d, &o0);
    assert_int_equal(mech_pend_advance(d, t, NULL), HY_OK);
    mech_pend_observe(d, &o1);
    assert_int_equal(mech_pend_advance(d, t + h, NULL), HY_OK);
    mech_pend_observe(d, &o2);
    double dA = (o2.A - o0.A) / (2 * h), rhs = (o1.M * o1.alpha_dot - o1.A) / t;
    assert_true(fabs(dA - rhs) < 1e-5 * (fabs(rhs) + 1));
    assert_true(fabs(rhs) > 1); /* not a trivial 0 = 0 */
    mech_pend_data_free(d);
    mech_pend_model_free(m);
}

/* fixed-step RK4 converges with order ~4 to the adaptive RK5(4) solution through hundreds of reversals (the
 * abrupt start excites disk 2); an abrupt start at a resonance drives the unit out of its range and the error
 * names the time and the range */
static void solvers_agree_and_range_is_guarded(void **state)
{
    (void)state;
    mech_pend_model *m = default_model(0);
    mech_pend_solver a = solver(1e-11);
    mech_pend_data *da;
    assert_int_equal(mech_pend_data_new(m, 0.3, 2 * M_PI * 0.6, &a, &da, NULL), HY_OK);
    assert_int_equal(mech_pend_advance(da, 2.5, NULL), HY_OK);
    assert_true(da->drv->n_events > 100);
    double e[3];
    for (int r = 0; r < 3; r++) {
        mech_pend_solver f;
        mech_pend_solver_default(&f);
        f.fixed = 1;
        f.h = 4e-4 / (1 << r);
        mech_pend_data *df;
        assert_int_equal(mech_pend_data_new(m, 0.3, 2 * M_PI * 0.6, &f, &df, NULL), HY_OK);
        assert_int_equal(mech_pend_advance(df, 2.5, NULL), HY_OK);
        e[r] = 0;
        for (int i = 0; i < 4; i++)
            e[r] = fmax(e[r], fabs(da->y[i] - df->y[i]));
        mech_pend_data_free(df);
    }
    assert_true(log2(e[0] / e[1]) > 3.5 && log2(e[1] / e[2]) > 3.5);
    assert_true(e[2] < 1e-6);
    mech_pend_data_free(da);
    mech_pend_data *d;
    hy_err err;
    assert_int_equal(mech_pend_data_new(m, 0.3, 2 * M_PI * 1.2, &a, &d, NULL), HY_OK);
    assert_int_equal(mech_pend_advance(d, 20, &err), HY_ERANGE);
    assert_non_null(strstr(err.msg, "t = "));
    assert_non_null(strstr(err.msg, "valid range"));
    assert_true(d->t > 0.5 && d->t < 20);
    mech_pend_data_free(d);
    mech_pend_model_free(m);
}

static void write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

static void parameter_files(void **state)
{
    (void)state;
    const char *top = getenv("TOP") ? getenv("TOP") : ".";
    char path[1024], unit[4096];
    mech_pend_params p, def;
    hy_err err;
    for (int two = 0; two < 2; two++) {
        snprintf(path, sizeof path, "%s/fixtures/mech/pendulum-%s.json", top, two ? "two" : "one");
        mech_pend_params_default(&def, two);
        memset(&p, 0, sizeof p);
        assert_int_equal(mech_pend_params_read(path, &p, unit, sizeof unit, &err), HY_OK);
        assert_true(fabs(p.I3 - def.I3) < 1e-12 && p.I2 == def.I2 && p.k_torsion == def.k_torsion);
        assert_int_equal(p.n_pend, def.n_pend);
        for (int i = 0; i < p.n_pend; i++)
            assert_true(p.pend[i].m == def.pend[i].m && p.pend[i].e == def.pend[i].e &&
                        fabs(p.pend[i].offset - def.pend[i].offset) < 1e-15);
        assert_non_null(strstr(unit, "fixtures/mech/../models/paper-damper-reduced.json"));
        assert_int_equal(access(unit, R_OK), 0);
    }
    char dir[] = "/tmp/hk-mech-XXXXXX";
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/p.json", dir);
    struct {
        const char *text, *expect;
    } bad[] = {
        {"{\"format\": \"mech-pendulum\", \"I_3\": 1}", "unknown key \"I_3\""},
        {"{\"format\": \"mech-pendulum\", \"I3\": \"big\"}", "p.json: I3: expected a number"},
        {"{\"format\": \"mech-pendulum\", \"pendulums\": [{\"m\": 1}]}", "pendulums[0]: \"m\" and \"e\" are required"},
        {"{\"format\": \"mech-pendulum\", \"pendulums\": []}", "pendulums: expected an array of 1..4"},
        {"{\"format\": \"other\"}", "\"format\": expected \"mech-pendulum\""},
        {"{\"format\": \"mech-pendulum\",\n \"I3\": 1,,}", "p.json:2:"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_text(path, bad[i].text);
        mech_pend_params_default(&p, 0);
        int rc = mech_pend_params_read(path, &p, unit, sizeof unit, &err);
        if (rc == HY_OK || !strstr(err.msg, bad[i].expect))
            fail_msg("case %zu: rc %d, \"%s\"", i, rc, err.msg);
    }
    /* a well-formed file whose values break the model: I3 below the pendulum's own m e^2 */
    write_text(path, "{\"format\": \"mech-pendulum\", \"I3\": 0.5}");
    mech_pend_params_default(&p, 0);
    assert_int_equal(mech_pend_params_read(path, &p, unit, sizeof unit, &err), HY_OK);
    assert_string_equal(unit, "");
    mech_pend_model *m;
    assert_int_equal(mech_pend_model_new(&p, NULL, &m, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "I3 = 0.5"));
    unlink(path);
    rmdir(dir);
    assert_int_equal(mech_pend_params_read("/nonexistent/p.json", &p, unit, sizeof unit, &err), HY_EIO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(energy_balance),
        cmocka_unit_test(steady_power_is_frequency_times_loop_area),
        cmocka_unit_test(rate_independence_quasi_static),
        cmocka_unit_test(free_decay_decreases),
        cmocka_unit_test(running_power_solves_eq16),
        cmocka_unit_test(solvers_agree_and_range_is_guarded),
        cmocka_unit_test(parameter_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

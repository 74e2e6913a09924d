/* mech_beam_shapes (the deflection of each reduced coordinate along the appendage, the shapes `mech view` draws the
 * beam with) and mech_beam_obs.q (the modal coordinates `mech beam sim --modal` writes), spec 004 §2:
 *   - at the tip the shapes are the model's tip row bit for bit, at the root zero; sum_i phi_i(l) eta_i(t) is the
 *     simulator's w_tip at every step (the same numbers: bit for bit);
 *   - a static tip load P on the clamped hinged appendage (hub held): w = Phi Khat^-1 Phi' e_tip P sampled by the
 *     shapes at nodes and between nodes equals the closed form P x^2 (3l - x) / (6 EI) + P (l - a) <x - a> / k with
 *     every mode kept (the Hermite cubics are exact for a cubic deflection: round-off only), and with 5 modes it
 *     differs from the closed form by exactly the omitted modes' static share sum_{i>5} phi_i(x) phi_i(l) P / w_i^2
 *     (the modal truncation error, 0.032 % of the tip deflection at the tip, computed from the full basis);
 *   - a station outside the appendage is refused naming it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "mech/beam.h"

static mech_beam_model *build(const mech_beam_params *p)
{
    mech_beam_model *m = NULL;
    hy_err err;
    if (mech_beam_model_new(p, &m, &err) != HY_OK)
        fail_msg("%s", err.msg);
    return m;
}

/* (model, P, ns stations) => w[s] = sum_i phi_i(x_s) eta_i with eta = Khat^-1 f P (Khat diagonal: asserted), modes
 * from `from` on */
static void static_tip(const mech_beam_model *m, double P, size_t ns, const double *x, size_t from, double *w)
{
    mech_beam_info in;
    mech_beam_model_info(m, &in);
    double *phi = malloc(ns * in.nm * sizeof *phi);
    assert_non_null(phi);
    assert_int_equal(mech_beam_shapes(m, ns, x, phi, NULL), HY_OK);
    for (size_t i = 0; i < in.nm; i++)
        for (size_t j = 0; j < in.nm; j++)
            if (i != j && in.Khat[i * in.nm + j] != 0)
                fail_msg("Khat[%zu][%zu] = %g: not diagonal", i, j, in.Khat[i * in.nm + j]);
    for (size_t s = 0; s < ns; s++) {
        w[s] = 0;
        for (size_t i = from; i < in.nm; i++)
            w[s] += phi[s * in.nm + i] * in.f_load[i] * P / in.Khat[i * in.nm + i];
    }
    free(phi);
}

#define NS 121
static void static_tip_load_closed_form(void **state)
{
    (void)state;
    mech_beam_params p;
    mech_beam_params_default(&p);   /* one hinge at l / 2, k = k_l; the tip load (load.position = l) */
    double l = p.length, a = p.hinge[0].position, k = p.hinge[0].k, EI = mech_beam_EI(&p), P = 300;
    double x[NS], want[NS], full[NS], w5[NS], tail[NS];
    for (int s = 0; s < NS; s++)   /* every station: nodes (l / 60 apart) and the third points between them */
        x[s] = s == NS - 1 ? l : l * s / (NS - 1) * (1 - 1.0 / 3 / 60) + (s % 2) * l / 180;
    for (int s = 0; s < NS; s++)
        want[s] = P * x[s] * x[s] * (3 * l - x[s]) / (6 * EI) + (x[s] > a ? P * (l - a) * (x[s] - a) / k : 0);
    p.n_modes = 0;   /* every mode: the FE static solution */
    mech_beam_model *m = build(&p);
    static_tip(m, P, NS, x, 0, full);
    mech_beam_info in;
    mech_beam_model_info(m, &in);
    /* round-off: the static solution through the eigenvectors carries about eps cond(Kbar) relative error, cond(Kbar)
       = (w_max / w_1)^2 in the mass-normalised basis */
    double cond = pow(in.omega[in.nm - 1] / in.omega[0], 2), tol = 10 * 2.2e-16 * cond * want[NS - 1];
    static_tip(m, P, NS, x, 5, tail);   /* the omitted modes' share */
    mech_beam_model_free(m);
    p.n_modes = 5;
    m = build(&p);
    static_tip(m, P, NS, x, 0, w5);
    mech_beam_model_free(m);
    double wt = want[NS - 1], worst = 0, worst5 = 0;
    for (int s = 0; s < NS; s++) {
        /* every mode: round-off only (the Hermite cubics hold the cubic exactly) */
        if (fabs(full[s] - want[s]) > tol)
            fail_msg("all modes, x = %.6f: w = %.15g, closed form %.15g", x[s], full[s], want[s]);
        /* 5 modes: the closed form less the omitted modes' static share, to the same round-off */
        if (fabs(w5[s] + tail[s] - want[s]) > tol)
            fail_msg("5 modes, x = %.6f: w = %.15g + omitted %.3g != closed form %.15g", x[s], w5[s], tail[s], want[s]);
        worst = fmax(worst, fabs(full[s] - want[s]));
        worst5 = fmax(worst5, fabs(w5[s] - want[s]));
    }
    /* the truncation error is real (a test that could not fail otherwise) and small: 0.032 % of the tip's */
    assert_true(fabs(tail[NS - 1]) > 1e-4 * wt && fabs(tail[NS - 1]) < 2e-3 * wt);
    print_message("static tip load %g N: tip %.9g m (closed form %.9g); all modes max |error| %.2g m (allowed %.2g); 5 "
                  "modes max |error| %.3g m (%.3f %% of the tip), at the tip %.3g m\n", P, full[NS - 1], wt, worst, tol, worst5,
                  100 * worst5 / wt, w5[NS - 1] - wt);
}

static void tip_row_and_obs_q(void **state)
{
    (void)state;
    mech_beam_params p;
    mech_beam_params_default(&p);
    mech_beam_params_equal_hinges(&p, 4);
    mech_beam_model *m = build(&p);
    mech_beam_info in;
    mech_beam_model_info(m, &in);
    double x[2] = {0, p.length}, phi[2 * 5];
    assert_int_equal(in.nm, 5);
    assert_int_equal(mech_beam_shapes(m, 2, x, phi, NULL), HY_OK);
    for (size_t i = 0; i < in.nm; i++) {
        assert_true(phi[i] == 0);
        assert_true(phi[in.nm + i] == in.tip[i]);
    }
    mech_beam_solver s;
    mech_beam_solver_default(&s);
    mech_beam_load ld;
    mech_beam_load_default(&ld);
    mech_beam_data *d;
    hy_err err;
    assert_int_equal(mech_beam_data_new(m, &s, &ld, NULL, NULL, NULL, &d, &err), HY_OK);
    double wmax = 0;
    for (int k = 0; k < 2000; k++) {
        mech_beam_obs o;
        mech_beam_observe(d, &o);
        assert_int_equal(o.nq, in.nm);
        double w = 0;
        for (size_t i = 0; i < o.nq; i++)
            w += phi[in.nm + i] * o.q[i];
        if (w != o.w_tip)
            fail_msg("step %d: sum phi_i(l) eta_i = %.17g, w_tip %.17g", k, w, o.w_tip);
        wmax = fmax(wmax, fabs(w));
        assert_int_equal(mech_beam_step(d, &err), HY_OK);
    }
    assert_true(wmax > 1e-3);   /* the pulse moved the tip */
    mech_beam_data_free(d);
    x[1] = p.length * (1 + 1e-12);
    assert_int_equal(mech_beam_shapes(m, 2, x, phi, &err), HY_EARG);
    assert_non_null(strstr(err.msg, "station 2: x = 3"));
    assert_non_null(strstr(err.msg, "outside the appendage [0, 3] m"));
    mech_beam_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(static_tip_load_closed_form),
        cmocka_unit_test(tip_row_and_obs_q),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

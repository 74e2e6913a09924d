/* Articulated-body algorithm (mech/body.h) against the independent reference: joint-space mass matrix by the
 * composite-rigid-body method + recursive Newton-Euler bias in the world frame, solved by LAPACK. Random trees
 * (1..8 bodies, revolute and prismatic, random offsets, mounting rotations, masses, inertias, states, loads,
 * gravity and the hook terms; fixed seed) and the floating-base 5-body chain of spec 001 §1.6, floating and
 * prescribed base. Also the base reaction against the load the floating base feels, and the prescribed base
 * against a floating base made very heavy. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "test_body_util.h"
#include "body/body_internal.h"

/* (model, data with state and loads) => max |x_aba - x_ref| / max |x_ref| over [base acc, base alpha, qdd] */
static double aba_vs_reference(const mech_body_model *m, mech_body_data *d)
{
    int n = mech_body_model_n(m), floating = mech_body_model_def(m)->base_mode == MECH_BODY_FLOATING;
    int N = (floating ? 6 : 0) + n;
    mech_body_kinematics(m, d);
    assert_int_equal(mech_body_aba(m, d), HY_OK);
    double x[6 + 16], ref[6 + 16];
    hy_err err;
    assert_int_equal(mech_body_forward_reference(m, d, ref, &err), HY_OK);
    int k = 0;
    if (floating) {
        mech_vec3 a = d->acc[0], al = d->alpha[0];
        x[0] = a.x; x[1] = a.y; x[2] = a.z; x[3] = al.x; x[4] = al.y; x[5] = al.z;
        k = 6;
    }
    for (int j = 0; j < n; j++)
        x[k + j] = d->qdd[j];
    double emax = 0, xmax = 0;
    for (int i = 0; i < N; i++) {
        emax = fmax(emax, fabs(x[i] - ref[i]));
        xmax = fmax(xmax, fabs(ref[i]));
    }
    return emax / fmax(xmax, 1e-300);
}

static void random_trees(int base_mode, double *worst_out, int *refused_out)
{
    hy_rng r;
    hy_rng_seed(&r, 20261123u, (uint64_t)base_mode);
    double worst = 0;
    int refused = 0, cases = 0;
    while (cases < 400) {
        int n = 1 + cases % 8;
        mech_body_def def;
        mech_body_joint_def J[8];
        tb_random_tree(&r, n, &def, J, base_mode);
        if (cases % 3 == 0)
            def.gravity = tb_vec(&r, 9.81);
        if (cases % 2 == 0)
            def.hook_body = 1 + cases % n;
        mech_body_model *m = NULL;
        hy_err err;
        if (mech_body_model_new(&def, &m, &err) != HY_OK) {
            /* a random massless chain may carry no inertia about an axis: refused with its name */
            assert_non_null(strstr(err.msg, "body "));
            refused++;
            assert_true(refused < 40);
            continue;
        }
        mech_body_data *d = NULL;
        assert_int_equal(mech_body_data_new(m, &d, &err), HY_OK);
        tb_random_state(&r, m, d);
        if (def.hook_body) {
            mech_mat3 A = tb_inertia_com(&r, 2.0);
            d->hook_inertia = A;
            d->hook_force = tb_vec(&r, 3.0);
            d->hook_moment = tb_vec(&r, 3.0);
        }
        double e = aba_vs_reference(m, d);
        worst = fmax(worst, e);
        cases++;
        mech_body_data_free(d);
        mech_body_model_free(m);
    }
    *worst_out = worst;
    *refused_out = refused;
}

static void aba_matches_crba_rne_on_random_floating_trees(void **state)
{
    (void)state;
    double worst;
    int refused;
    random_trees(MECH_BODY_FLOATING, &worst, &refused);
    printf("floating base: 400 random trees, max relative difference ABA vs CRBA+RNE %.3g (%d draws refused)\n",
           worst, refused);
    assert_true(worst < 1e-10);
}

static void aba_matches_crba_rne_on_random_prescribed_trees(void **state)
{
    (void)state;
    double worst;
    int refused;
    random_trees(MECH_BODY_PRESCRIBED, &worst, &refused);
    printf("prescribed base: 400 random trees, max relative difference %.3g (%d refused)\n", worst, refused);
    assert_true(worst < 1e-10);
}

static void aba_matches_reference_on_the_spec_chain(void **state)
{
    (void)state;
    hy_rng r;
    hy_rng_seed(&r, 7u, 0);
    double worst = 0;
    for (int mode = 0; mode < 2; mode++) {
        mech_body_def def;
        mech_body_joint_def J[5];
        tb_spec_chain(&def, J, mode);
        def.hook_body = 2; /* the lateral damper folds into the housing (spec 001 §2.3) */
        mech_body_model *m = NULL;
        mech_body_data *d = NULL;
        hy_err err;
        assert_int_equal(mech_body_model_new(&def, &m, &err), HY_OK);
        assert_int_equal(mech_body_data_new(m, &d, &err), HY_OK);
        for (int trial = 0; trial < 50; trial++) {
            tb_random_state(&r, m, d);
            for (int j = 0; j < 5; j++)
                d->q[j] *= 0.1; /* swings of a few degrees, as in docking */
            d->hook_inertia = mech_mat3_diag(0.4, 0.7, 0.7);
            d->hook_moment = tb_vec(&r, 50.0);
            worst = fmax(worst, aba_vs_reference(m, d));
        }
        mech_body_data_free(d);
        mech_body_model_free(m);
    }
    printf("spec 001 5-body chain: max relative difference ABA vs CRBA+RNE %.3g\n", worst);
    assert_true(worst < 1e-10);
}

/* The base reaction is the load the floating base feels: m0-rigid-body equation of the base alone,
 * M0 [a0; α0] = own bias + reaction. */
static void base_reaction_is_what_the_floating_base_feels(void **state)
{
    (void)state;
    hy_rng r;
    hy_rng_seed(&r, 11u, 0);
    double worst = 0;
    for (int trial = 0; trial < 100; trial++) {
        mech_body_def def;
        mech_body_joint_def J[8];
        tb_random_tree(&r, 1 + trial % 8, &def, J, MECH_BODY_FLOATING);
        def.gravity = tb_vec(&r, 9.81);
        mech_body_model *m = NULL;
        mech_body_data *d = NULL;
        hy_err err;
        if (mech_body_model_new(&def, &m, &err) != HY_OK)
            continue;
        assert_int_equal(mech_body_data_new(m, &d, &err), HY_OK);
        tb_random_state(&r, m, d);
        mech_body_kinematics(m, d);
        assert_int_equal(mech_body_aba(m, d), HY_OK);
        /* Newton-Euler of the base alone, body frame, about its origin (true accelerations, gravity as a load) */
        double m0 = def.base.mass;
        mech_vec3 c = mech_vec3_scale(def.base.com, m0), w = d->omega[0], a = d->acc[0], al = d->alpha[0];
        mech_vec3 g0 = mech_mat3_tapply(d->xmat[0], def.gravity);
        mech_vec3 F = mech_vec3_add(mech_vec3_scale(a, m0), mech_vec3_add(mech_vec3_cross(al, c),
                                                                           mech_vec3_cross(w, mech_vec3_cross(w, c))));
        mech_vec3 M = mech_vec3_add(mech_vec3_add(mech_mat3_apply(def.base.inertia, al),
                                                  mech_vec3_cross(w, mech_mat3_apply(def.base.inertia, w))),
                                    mech_vec3_cross(c, a));
        mech_vec3 Fapp = mech_vec3_add(mech_vec3_add(d->f_ext[0], mech_vec3_scale(g0, m0)), d->base_force);
        mech_vec3 Mapp = mech_vec3_add(mech_vec3_add(d->m_ext[0], mech_vec3_cross(c, g0)), d->base_moment);
        double scale = mech_vec3_norm(F) + mech_vec3_norm(Fapp) + mech_vec3_norm(M) + mech_vec3_norm(Mapp);
        double e = (mech_vec3_norm(mech_vec3_sub(F, Fapp)) + mech_vec3_norm(mech_vec3_sub(M, Mapp))) / scale;
        worst = fmax(worst, e);
        mech_body_data_free(d);
        mech_body_model_free(m);
    }
    printf("base reaction vs the floating base's own Newton-Euler: max relative residual %.3g\n", worst);
    assert_true(worst < 1e-12);
}

/* A prescribed base at rest (zero acceleration) against a floating base made heavier and heavier: the joint
 * accelerations and the base reaction converge as 1/(base mass). With the floating base's own acceleration given
 * to the stand, the two modes agree to round-off at any mass. */
static void prescribed_base_equals_an_infinitely_heavy_floating_base(void **state)
{
    (void)state;
    double e_prev = 0, same = 0;
    for (int heavy = 0; heavy < 4; heavy++) {
        double scale = pow(10.0, 2 + 2 * heavy); /* base mass 2e6 .. 2e12 kg */
        mech_body_def def;
        mech_body_joint_def J[5];
        tb_spec_chain(&def, J, MECH_BODY_FLOATING);
        def.base.mass *= scale;
        def.base.inertia = mech_mat3_scale(def.base.inertia, scale);
        mech_body_model *mf = NULL, *mp = NULL;
        mech_body_data *df = NULL, *dp = NULL;
        hy_err err;
        assert_int_equal(mech_body_model_new(&def, &mf, &err), HY_OK);
        def.base_mode = MECH_BODY_PRESCRIBED;
        assert_int_equal(mech_body_model_new(&def, &mp, &err), HY_OK);
        assert_int_equal(mech_body_data_new(mf, &df, &err), HY_OK);
        assert_int_equal(mech_body_data_new(mp, &dp, &err), HY_OK);
        hy_rng r;
        hy_rng_seed(&r, 5u, 0);
        tb_random_state(&r, mf, df);
        df->f_ext[0] = df->m_ext[0] = mech_vec3_zero();
        df->omega[0] = mech_vec3_zero(); /* no gyroscopic load of the base itself */
        mech_body_data_copy(mf, dp, df);
        dp->base_acc_in = mech_vec3_zero();
        dp->base_alpha_in = mech_vec3_zero();
        mech_body_kinematics(mf, df);
        mech_body_kinematics(mp, dp);
        assert_int_equal(mech_body_aba(mf, df), HY_OK);
        assert_int_equal(mech_body_aba(mp, dp), HY_OK);
        double e = 0, s = 0;
        for (int j = 0; j < 5; j++) {
            e = fmax(e, fabs(df->qdd[j] - dp->qdd[j]));
            s = fmax(s, fabs(dp->qdd[j]));
        }
        e = fmax(e / s, mech_vec3_norm(mech_vec3_sub(df->base_force, dp->base_force)) /
                            mech_vec3_norm(dp->base_force));
        printf("base mass %.0e kg: prescribed (at rest) vs floating, max relative difference %.3g\n",
               def.base.mass, e);
        if (heavy > 0)
            assert_true(e < 0.02 * e_prev); /* ~ 1/100 per factor 100 of mass */
        e_prev = e;
        /* the stand given the floating base's acceleration: identical */
        dp->base_acc_in = df->acc[0];
        dp->base_alpha_in = df->alpha[0];
        assert_int_equal(mech_body_aba(mp, dp), HY_OK);
        for (int j = 0; j < 5; j++)
            same = fmax(same, fabs(df->qdd[j] - dp->qdd[j]) / s);
        mech_body_data_free(df);
        mech_body_data_free(dp);
        mech_body_model_free(mf);
        mech_body_model_free(mp);
    }
    assert_true(e_prev < 1e-9);
    assert_true(same < 1e-13);
}

/* The fast form (scalar rotation of spec 001 §2.5, skipped zero shifts, unrolled blocks) against the generic form
 * (full 3x3 products): the same joint and base accelerations, articulated inertias and base reaction. */
static void fast_form_matches_the_generic_form(void **state)
{
    (void)state;
    hy_rng r;
    hy_rng_seed(&r, 99u, 0);
    double worst = 0;
    for (int trial = 0; trial < 300; trial++) {
        mech_body_def def;
        mech_body_joint_def J[8];
        tb_random_tree(&r, 1 + trial % 8, &def, J, trial % 2);
        if (trial % 3 == 0)
            def.gravity = tb_vec(&r, 9.81);
        if (trial % 4 == 0) /* the spec chain's kind: identity mounts, revolute joints at their parent's origin */
            for (int k = 0; k < def.n; k++) {
                J[k].mount = mech_mat3_identity();
                if (k % 2 == 0)
                    J[k].offset = mech_vec3_zero();
            }
        mech_body_model *m = NULL;
        mech_body_data *d1 = NULL, *d2 = NULL;
        hy_err err;
        if (mech_body_model_new(&def, &m, &err) != HY_OK)
            continue;
        assert_int_equal(mech_body_data_new(m, &d1, &err), HY_OK);
        assert_int_equal(mech_body_data_new(m, &d2, &err), HY_OK);
        tb_random_state(&r, m, d1);
        mech_body_kinematics(m, d1);
        mech_body_data_copy(m, d2, d1);
        assert_int_equal(mech_body_aba(m, d1), HY_OK);
        assert_int_equal(mech_body_aba_generic(m, d2), HY_OK);
        double e = 0, sc = 0;
        for (int j = 0; j < def.n; j++) {
            e = fmax(e, fabs(d1->qdd[j] - d2->qdd[j]));
            sc = fmax(sc, fabs(d2->qdd[j]));
        }
        for (int id = 0; id <= def.n; id++) {
            e = fmax(e, mech_vec3_norm(mech_vec3_sub(d1->acc[id], d2->acc[id])));
            e = fmax(e, mech_vec3_norm(mech_vec3_sub(d1->alpha[id], d2->alpha[id])));
            sc = fmax(sc, mech_vec3_norm(d2->acc[id]));
        }
        e = fmax(e / sc, mech_vec3_norm(mech_vec3_sub(d1->base_force, d2->base_force)) /
                             fmax(mech_vec3_norm(d2->base_force), 1e-300));
        e = fmax(e, mech_mat3_maxabs(mech_mat3_sub(d1->Mrr[0], d2->Mrr[0])) / mech_mat3_maxabs(d2->Mrr[0]));
        worst = fmax(worst, e);
        mech_body_data_free(d1);
        mech_body_data_free(d2);
        mech_body_model_free(m);
    }
    printf("fast form vs generic form: max relative difference %.3g over 300 random trees\n", worst);
    assert_true(worst < 1e-12);
}

/* The unit response of a joint (mech_body_aba_unit + mech_body_aba_add_unit) against a second full pass with the
 * force added to tau: every acceleration, qdd and the base reaction, floating and prescribed, with gravity, the
 * hook terms, velocities and loads in the first pass (they must not leak into the response) */
static void unit_response_equals_a_second_pass_with_the_force(void **state)
{
    (void)state;
    hy_rng r;
    hy_rng_seed(&r, 20261127u, 0);
    double worst = 0, worst_inv = 0;
    int cases = 0;
    for (int trial = 0; cases < 400 && trial < 2000; trial++) {
        mech_body_def def;
        mech_body_joint_def J[8];
        int n = 1 + trial % 8, mode = trial % 2;
        tb_random_tree(&r, n, &def, J, mode);
        if (trial % 3 == 0)
            def.gravity = tb_vec(&r, 9.81);
        if (trial % 4 == 1)
            def.hook_body = 1 + trial % n;
        mech_body_model *m = NULL;
        mech_body_data *d1 = NULL, *d2 = NULL;
        hy_err err;
        if (mech_body_model_new(&def, &m, &err) != HY_OK)
            continue;
        assert_int_equal(mech_body_data_new(m, &d1, &err), HY_OK);
        assert_int_equal(mech_body_data_new(m, &d2, &err), HY_OK);
        tb_random_state(&r, m, d1);
        if (def.hook_body) {
            d1->hook_inertia = tb_inertia_com(&r, 2.0);
            d1->hook_force = tb_vec(&r, 3.0);
            d1->hook_moment = tb_vec(&r, 3.0);
        }
        mech_body_kinematics(m, d1);
        mech_body_data_copy(m, d2, d1);
        int j = (int)(hy_rng_uniform(&r) * n) % n;
        double f = 50.0 * (hy_rng_uniform(&r) - 0.5);
        assert_int_equal(mech_body_aba(m, d1), HY_OK);
        double qdd_before = d1->qdd[j];
        assert_int_equal(mech_body_aba_unit(m, d1, j), HY_OK);
        assert_true(d1->dqdd[j] > 0);   /* 1 / the joint's effective inertia */
        assert_true(d1->qdd[j] == qdd_before);   /* the response leaves the solution alone */
        mech_body_aba_add_unit(m, d1, j, f);
        d2->tau[j] += f;
        assert_int_equal(mech_body_aba(m, d2), HY_OK);
        assert_true(d1->tau[j] == d2->tau[j]);
        double e = 0, sc = 1e-300;
        for (int k = 0; k < n; k++) {
            e = fmax(e, fabs(d1->qdd[k] - d2->qdd[k]));
            sc = fmax(sc, fabs(d2->qdd[k]));
        }
        for (int id = 0; id <= n; id++) {
            e = fmax(e, mech_vec3_norm(mech_vec3_sub(d1->acc[id], d2->acc[id])));
            e = fmax(e, mech_vec3_norm(mech_vec3_sub(d1->alpha[id], d2->alpha[id])));
            sc = fmax(sc, fmax(mech_vec3_norm(d2->acc[id]), mech_vec3_norm(d2->alpha[id])));
        }
        double eb = fmax(mech_vec3_norm(mech_vec3_sub(d1->base_force, d2->base_force)),
                         mech_vec3_norm(mech_vec3_sub(d1->base_moment, d2->base_moment)));
        double sb = fmax(1e-300, fmax(mech_vec3_norm(d2->base_force), mech_vec3_norm(d2->base_moment)));
        worst = fmax(worst, fmax(e / sc, eb / sb));
        /* the response is the force's alone: doubling it doubles the change */
        mech_body_aba_add_unit(m, d1, j, f);
        d2->tau[j] += f;
        assert_int_equal(mech_body_aba(m, d2), HY_OK);
        worst_inv = fmax(worst_inv, fabs(d1->qdd[j] - d2->qdd[j]) / fmax(fabs(d2->qdd[j]), 1e-300));
        cases++;
        mech_body_data_free(d1);
        mech_body_data_free(d2);
        mech_body_model_free(m);
    }
    printf("unit response vs a second pass: max relative difference %.3g (twice the force %.3g) over %d trees\n",
           worst, worst_inv, cases);
    assert_true(cases == 400);
    assert_true(worst < 1e-11);
    assert_true(worst_inv < 1e-11);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(aba_matches_crba_rne_on_random_floating_trees),
        cmocka_unit_test(aba_matches_crba_rne_on_random_prescribed_trees),
        cmocka_unit_test(aba_matches_reference_on_the_spec_chain),
        cmocka_unit_test(base_reaction_is_what_the_floating_base_feels),
        cmocka_unit_test(prescribed_base_equals_an_infinitely_heavy_floating_base),
        cmocka_unit_test(fast_form_matches_the_generic_form),
        cmocka_unit_test(unit_response_equals_a_second_pass_with_the_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The body model (mech/body.h): every class of bad definition refused with a message that names the body and says
 * what was expected; the data's copy; the world-force helpers against hand-computed loads; the state layout. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "test_body_util.h"

/* (definition) => refused with HY_EMODEL and a message containing each of the given pieces */
static void refused(const mech_body_def *def, const char *piece1, const char *piece2)
{
    mech_body_model *m = (mech_body_model *)0x1;
    hy_err err;
    hy_err_clear(&err);
    int rc = mech_body_model_new(def, &m, &err);
    if (rc != HY_EMODEL || !strstr(err.msg, piece1) || (piece2 && !strstr(err.msg, piece2)))
        printf("unexpected: rc %d, \"%s\"\n", rc, err.msg);
    assert_int_equal(rc, HY_EMODEL);
    assert_null(m);
    assert_non_null(strstr(err.msg, piece1));
    if (piece2)
        assert_non_null(strstr(err.msg, piece2));
    assert_null(strchr(err.msg, '\n'));
}

static void bad_models_are_refused_with_the_body_named(void **state)
{
    (void)state;
    mech_body_def def;
    mech_body_joint_def J[5];
    tb_spec_chain(&def, J, MECH_BODY_FLOATING);
    hy_err err;
    mech_body_model *m = NULL;
    assert_int_equal(mech_body_model_new(&def, &m, &err), HY_OK);
    mech_body_model_free(m);

    J[2].parent = 3; /* a child before its parent */
    refused(&def, "body 3 (probe-torsion): parent 3", "parents come before their children");
    J[2].parent = -1;
    refused(&def, "body 3 (probe-torsion): parent -1", NULL);
    J[2].parent = 2;
    J[1].axis = 3;
    refused(&def, "body 2 (housing): joint axis 3", "expected 0, 1 or 2");
    J[1].axis = 1;
    J[1].type = 7;
    refused(&def, "body 2 (housing): joint type 7", NULL);
    J[1].type = MECH_BODY_REVOLUTE;
    J[3].mount = mech_mat3_diag(1, 1, 2);
    refused(&def, "body 4 (probe-bend-y): mounting rotation is not a rotation", NULL);
    J[3].mount = mech_mat3_diag(1, 1, -1); /* a reflection */
    refused(&def, "body 4 (probe-bend-y): mounting rotation", NULL);
    J[3].mount = mech_mat3_identity();
    J[4].mass = -9;
    refused(&def, "body 5 (probe): mass -9 kg", "expected a finite number >= 0");
    J[4].mass = NAN;
    refused(&def, "body 5 (probe): mass nan kg", NULL);
    J[4].mass = 9;
    J[4].inertia.m[0][1] = 0.1;
    refused(&def, "body 5 (probe): inertia is not symmetric", NULL);
    J[4].inertia.m[0][1] = 0;
    /* about the CoM: 1.5 - 9 * 0.3667^2 = 0.29 transverse; give 1.0 about the joint: negative about the CoM */
    J[4].inertia = mech_mat3_diag(0.02, 1.0, 1.5);
    refused(&def, "body 5 (probe): inertia about the centre of mass is not positive semi-definite",
            "give the inertia about the joint centre");
    /* principal moments 0.02, 0.29, 1.0 about the CoM: 0.02 + 0.29 < 1.0 */
    J[4].inertia = tb_about_origin(mech_mat3_diag(0.02, 0.29, 1.0), 9, J[4].com);
    refused(&def, "body 5 (probe): principal moments", "triangle inequality");
    J[4].inertia = mech_mat3_diag(0.02, 1.5, 1.5);
    /* the probe massless: joints 3..5 carry nothing */
    J[4].mass = 0;
    J[4].com = mech_vec3_zero();
    J[4].inertia = mech_mat3_zero();
    refused(&def, "body 5 (probe): the articulated inertia I* of joint 5 is zero", NULL);
    /* a point mass on the axis of a revolute joint has no inertia about it */
    J[4].mass = 9;
    J[4].com = mech_vec3_zero();
    J[4].inertia = mech_mat3_diag(0.0, 0.0, 0.0);
    refused(&def, "body 5 (probe): the articulated inertia I* of joint 5 is zero", NULL);
    tb_spec_chain(&def, J, MECH_BODY_FLOATING);
    /* two parallel prismatic joints with a massless body between them: m* of the first is zero */
    mech_body_joint_def P[2] = {
        {"slider", 0, MECH_BODY_PRISMATIC, 0, {0, 0, 0}, {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}, 0, {0, 0, 0}, {{{0}}}},
        {"carriage", 1, MECH_BODY_PRISMATIC, 0, {0, 0, 0}, {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}, 2, {0, 0, 0},
         {{{0.1, 0, 0}, {0, 0.1, 0}, {0, 0, 0.1}}}}};
    mech_body_def dp = def;
    dp.n = 2;
    dp.joints = P;
    refused(&dp, "body 1 (slider): the articulated mass m* of joint 1 is zero", NULL);
    /* floating base without mass over a single point mass: the root is singular */
    mech_body_def d0 = {0};
    mech_body_joint_def pm = {"bob", 0, MECH_BODY_REVOLUTE, 2, {0, 0, 0}, {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}, 1.0,
                              {1, 0, 0}, {{{0, 0, 0}, {0, 1, 0}, {0, 0, 1}}}};
    d0.n = 1;
    d0.joints = &pm;
    refused(&d0, "base: the floating root's 6x6 articulated inertia is singular", NULL);
    /* free bodies */
    mech_body_free_def fb = {"passive", 0.0, {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}};
    def.free = &fb;
    def.nfree = 1;
    refused(&def, "free body 0 (passive): mass 0 kg", "expected a positive number");
    fb.mass = 100;
    fb.inertia = mech_mat3_diag(1, 1, 0);
    refused(&def, "free body 0 (passive): inertia is singular", NULL);
    fb.inertia = mech_mat3_diag(1, 1, 3);
    refused(&def, "free body 0 (passive): principal moments", "triangle inequality");
    fb.inertia = mech_mat3_diag(1, 1, 1.5);
    def.hook_body = 6;
    refused(&def, "body model: hook_body 6", "expected a tree body 1..5");
    def.hook_body = 2;
    def.base_mode = 5;
    refused(&def, "body model: base_mode 5", NULL);
    def.base_mode = MECH_BODY_FLOATING;
    def.base.mass = -1;
    refused(&def, "base: mass -1 kg", NULL);
    def.base.mass = 20000;
    assert_int_equal(mech_body_model_new(&def, &m, &err), HY_OK);
    assert_string_equal(mech_body_name(m, 0), "base");
    assert_string_equal(mech_body_name(m, 2), "housing");
    assert_string_equal(mech_body_name(m, mech_body_free_id(m, 0)), "passive");
    mech_body_model_free(m);
}

static void layout_and_state_round_trip(void **state)
{
    (void)state;
    mech_body_def def;
    mech_body_joint_def J[5];
    tb_spec_chain(&def, J, MECH_BODY_FLOATING);
    mech_body_free_def fb[2] = {{"a", 5, {{{1, 0, 0}, {0, 2, 0}, {0, 0, 2.5}}}}, {"b", 6, {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}}};
    def.free = fb;
    def.nfree = 2;
    mech_body_model *m = NULL;
    mech_body_data *d = NULL, *e = NULL;
    hy_err err;
    assert_int_equal(mech_body_model_new(&def, &m, &err), HY_OK);
    mech_body_layout L = mech_body_model_layout(m);
    assert_int_equal(L.dim, 13 + 2 * 5 + 13 * 2);
    assert_int_equal(L.npos, 7 + 5 + 14);
    assert_int_equal(L.q, 7);
    assert_int_equal(L.free_pos, 12);
    assert_int_equal(L.base_vel, 26);
    assert_int_equal(L.qd, 32);
    assert_int_equal(L.free_vel, 37);
    assert_int_equal(mech_body_model_nbody(m), 8);
    double y[64], y2[64];
    hy_rng r;
    hy_rng_seed(&r, 3u, 0);
    for (size_t k = 0; k < L.dim; k++)
        y[k] = tb_u(&r, -1, 1);
    for (int k = -1; k < 2; k++) { /* unit quaternions, as the integrator keeps them */
        double *q = k < 0 ? y + L.base_quat : y + L.free_pos + 7 * (size_t)k + 3;
        mech_quat u = mech_quat_normalize((mech_quat){q[0], q[1], q[2], q[3]});
        q[0] = u.w; q[1] = u.x; q[2] = u.y; q[3] = u.z;
    }
    assert_int_equal(mech_body_data_new(m, &d, &err), HY_OK);
    assert_int_equal(mech_body_data_new(m, &e, &err), HY_OK);
    mech_body_set_state(m, d, 0.25, y);
    mech_body_get_state(m, d, y2);
    /* quaternions are used as stored: the round trip is exact up to the world/body velocity turn of free bodies */
    for (size_t k = 0; k < L.dim; k++)
        assert_true(fabs(y[k] - y2[k]) < 1e-14 * (1 + fabs(y[k])) * 16);
    /* copy: the whole buffer, own pointers */
    mech_body_kinematics(m, d);
    assert_int_equal(mech_body_aba(m, d), HY_OK);
    mech_body_data_copy(m, e, d);
    assert_true(e->q != d->q && e->q[3] == d->q[3] && e->qdd[4] == d->qdd[4]);
    assert_true(e->xmat[5].m[1][2] == d->xmat[5].m[1][2] && e->t == 0.25);
    mech_body_data_free(d);
    mech_body_data_free(e);
    mech_body_model_free(m);
}

/* A world force at a world point gives the body the force and the moment about its origin, in its own frame; the
 * point velocity helpers agree with a finite difference of the point position. */
static void world_force_and_point_helpers(void **state)
{
    (void)state;
    mech_body_def def;
    mech_body_joint_def J[5];
    tb_spec_chain(&def, J, MECH_BODY_FLOATING);
    mech_body_free_def fb = {"passive", 7200, {{{6.5e3, 0, 0}, {0, 3.0e4, 0}, {0, 0, 3.0e4}}}};
    def.free = &fb;
    def.nfree = 1;
    mech_body_model *m = NULL;
    mech_body_data *d = NULL;
    hy_err err;
    assert_int_equal(mech_body_model_new(&def, &m, &err), HY_OK);
    assert_int_equal(mech_body_data_new(m, &d, &err), HY_OK);
    hy_rng r;
    hy_rng_seed(&r, 4u, 0);
    tb_random_state(&r, m, d);
    mech_body_kinematics(m, d);
    mech_body_clear_loads(m, d);
    for (int id = 0; id < mech_body_model_nbody(m); id++) {
        mech_vec3 p = tb_vec(&r, 2), f = tb_vec(&r, 100);
        mech_body_apply_world_force(m, d, id, p, f);
        mech_body_apply_world_moment(m, d, id, mech_vec3_make(0, 0, 7));
        /* back to the world: F = R f_ext, M_O = R m_ext = (p - o) × F + (0, 0, 7) */
        mech_vec3 Fw = mech_mat3_apply(d->xmat[id], d->f_ext[id]), Mw = mech_mat3_apply(d->xmat[id], d->m_ext[id]);
        mech_vec3 Mx = mech_vec3_add(mech_vec3_cross(mech_vec3_sub(p, d->pos[id]), f), mech_vec3_make(0, 0, 7));
        assert_true(mech_vec3_norm(mech_vec3_sub(Fw, f)) < 1e-12);
        assert_true(mech_vec3_norm(mech_vec3_sub(Mw, Mx)) < 1e-11);
        /* velocity of a material point = time derivative of its position (central difference along the motion) */
        mech_vec3 pb = tb_vec(&r, 0.5), v = mech_body_point_velocity(m, d, id, pb);
        mech_body_layout L = mech_body_model_layout(m);
        double y[64], dy[64], yp[64], ym[64];
        mech_body_get_state(m, d, y);
        mech_body_forward(m, d);
        mech_body_state_deriv(m, d, dy);
        const double h = 1e-6;
        for (size_t k = 0; k < L.dim; k++) {
            yp[k] = y[k] + h * dy[k];
            ym[k] = y[k] - h * dy[k];
        }
        mech_body_data *e = NULL;
        assert_int_equal(mech_body_data_new(m, &e, &err), HY_OK);
        mech_body_set_state(m, e, 0, yp);
        mech_body_kinematics(m, e);
        mech_vec3 xp = mech_body_point_world(m, e, id, pb);
        mech_body_set_state(m, e, 0, ym);
        mech_body_kinematics(m, e);
        mech_vec3 xm = mech_body_point_world(m, e, id, pb);
        mech_vec3 vfd = mech_vec3_scale(mech_vec3_sub(xp, xm), 0.5 / h);
        assert_true(mech_vec3_norm(mech_vec3_sub(v, vfd)) < 1e-7 * (1 + mech_vec3_norm(v)));
        mech_vec3 pw = mech_body_point_world(m, d, id, pb);
        assert_true(mech_vec3_norm(mech_vec3_sub(mech_body_world_point_velocity(m, d, id, pw), v)) < 1e-12);
        mech_body_data_free(e);
    }
    mech_body_data_free(d);
    mech_body_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_models_are_refused_with_the_body_named),
        cmocka_unit_test(layout_and_state_round_trip),
        cmocka_unit_test(world_force_and_point_helpers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

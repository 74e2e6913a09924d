/* Stick/slip friction of the contact set (mech/contact.h): a block (point mass on a point contact) on an incline
 * integrated with RK4 through the ODE layer. Below tan⁻¹ μ it sticks (displacement bounded by the tangential
 * spring's static deflection, velocity -> 0); between tan⁻¹ μ_k and tan⁻¹ μ_s it sticks only thanks to static
 * friction; above, it slides with acceleration g (sin a - μ_k cos a) within 1 %. Also: trial / commit / revert
 * leaves the anchors bit-identical, the data copy, the disable switches, equal and opposite loads, and the
 * model's error messages. Prints the measured accelerations. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "test_contact_util.h"

static void near(double a, double b, double tol)
{
    if (!(fabs(a - b) <= tol)) fail_msg("%.17g != %.17g (tol %g)", a, b, tol);
}

#define G 9.81

typedef struct incline_run {
    double s_max, s_end, v_end, a_meas, static_defl;
    int    slid;
} incline_run;

/* a block of 1 kg on a plane through the origin whose normal is (sin a, cos a, 0); gravity -y; starts at rest at
 * its static normal penetration. Down-slope unit vector t = (cos a, -sin a, 0). */
static incline_run incline(double deg, double mu_s, double mu_k, int disable, mech_contact_data **keep,
                           mech_contact_model **keep_m)
{
    double a = deg * M_PI / 180, m = 1.0, kt = 1e4, ct = 2 * 0.7 * sqrt(kt * m);
    mech_contact_pair pr = {0};
    strcpy(pr.name, "block-incline");
    pr.body_a = 0;
    pr.body_b = MECH_CONTACT_WORLD;
    pr.shape_a = mech_contact_point();
    pr.shape_b = mech_contact_plane(0, 0);
    pr.local_a.rot = mech_mat3_identity();
    pr.local_b.rot = mech_mat3_rot(2, M_PI / 2 - a); /* local x -> (sin a, cos a, 0) */
    pr.law = law_make(1e5, 1.0, 0.5, mu_s, mu_k, kt, ct);
    mech_contact_model *mod;
    hy_err err;
    assert_int_equal(mech_contact_model_new(1, 1, &pr, &mod, &err), HY_OK);
    mod->disable = disable;
    pm_sys s = {.nb = 1, .mass = {m}, .gravity = {0, -G, 0}, .m = mod, .d = mech_contact_data_new(mod), .fn_min = INFINITY};
    mech_vec3 n = {sin(a), cos(a), 0}, t = {cos(a), -sin(a), 0};
    double d0 = m * G * cos(a) / pr.law.k;
    double y[6] = {-d0 * n.x, -d0 * n.y, 0, 0, 0, 0};
    mech_vec3 x0 = {y[0], y[1], y[2]};
    mech_ode_system sys = pm_system(&s);
    double h = 5e-5, tt = 0, v1 = 0, t1 = 0.3, t2 = 1.0;
    mech_ode_driver *drv = mech_ode_driver_alloc_fixed(&sys, mech_ode_step_rk4, h);
    incline_run r = {0};
    r.static_defl = m * G * sin(a) / kt;
    for (int k = 1; k <= (int)lround(t2 / h); k++) {
        assert_int_equal(mech_ode_driver_apply(drv, &tt, k * h, y), HY_OK);
        double sd = mech_vec3_dot(mech_vec3_sub(mech_vec3_make(y[0], y[1], y[2]), x0), t);
        if (fabs(sd) > r.s_max) r.s_max = fabs(sd);
        if (s.d->committed[0].sliding) r.slid = 1;
        if (k == (int)lround(t1 / h)) v1 = mech_vec3_dot(mech_vec3_make(y[3], y[4], y[5]), t);
        r.s_end = sd;
    }
    double v2 = mech_vec3_dot(mech_vec3_make(y[3], y[4], y[5]), t);
    r.v_end = mech_vec3_norm(mech_vec3_make(y[3], y[4], y[5]));
    r.a_meas = (v2 - v1) / (t2 - t1);
    assert_true(s.fn_min >= 0.0);
    mech_ode_driver_free(drv);
    if (keep) {
        *keep = s.d;
        *keep_m = mod;
    } else {
        mech_contact_data_free(s.d);
        mech_contact_model_free(mod);
    }
    return r;
}

static void block_sticks_below_the_friction_angle(void **state)
{
    (void)state;
    /* tan 20° = 0.364 < 0.5; tan 28° = 0.532 lies between μ_k = 0.5 and μ_s = 0.7. The block is released at
     * rest with an unloaded spring: the spring-damper force overshoots the static load by up to 21 % (ζ = 0.7),
     * which the static reserve 0.7 / 0.532 covers */
    double cases[][3] = {{20, 0.5, 0.5}, {20, 0.7, 0.5}, {28, 0.7, 0.5}};
    for (int i = 0; i < 3; i++) {
        incline_run r = incline(cases[i][0], cases[i][1], cases[i][2], 0, NULL, NULL);
        printf("incline %2.0f deg, mu_s %.2f mu_k %.2f: sticks; displacement %.4e m (max %.4e; static deflection "
               "%.4e), speed %.1e m/s at 1 s\n", cases[i][0], cases[i][1], cases[i][2], r.s_end, r.s_max,
               r.static_defl, r.v_end);
        assert_false(r.slid);
        assert_true(r.s_max <= 1.1 * r.static_defl);       /* the spring's overshoot with ζ = 0.7 is 4.6 % */
        near(r.s_end / r.static_defl, 1.0, 0.01);
        assert_true(r.v_end < 1e-6);
    }
}

static void block_slides_above_it_with_kinetic_friction(void **state)
{
    (void)state;
    /* 28° slides when μ_s = μ_k = 0.5 (no static reserve); 40° and 45° (tan > 0.7) slide with μ_s = 0.7,
     * μ_k = 0.5 */
    double cases[][3] = {{28, 0.5, 0.5}, {40, 0.7, 0.5}, {45, 0.7, 0.5}, {60, 0.3, 0.2}};
    for (int i = 0; i < 4; i++) {
        double a = cases[i][0] * M_PI / 180, expect = G * (sin(a) - cases[i][2] * cos(a));
        incline_run r = incline(cases[i][0], cases[i][1], cases[i][2], 0, NULL, NULL);
        printf("incline %2.0f deg, mu_s %.2f mu_k %.2f: slides, a = %.6f m/s^2, g(sin a - mu_k cos a) = %.6f "
               "(rel. error %.2e)\n", cases[i][0], cases[i][1], cases[i][2], r.a_meas, expect, r.a_meas / expect - 1);
        assert_true(r.slid);
        near(r.a_meas / expect, 1.0, 0.01);
    }
    /* friction switched off: g sin a */
    incline_run r = incline(20, 0.5, 0.5, MECH_CONTACT_DISABLE_FRICTION, NULL, NULL);
    near(r.a_meas / (G * sin(20 * M_PI / 180)), 1.0, 1e-3);
}

static void revert_leaves_anchors_bit_identical(void **state)
{
    (void)state;
    mech_contact_data *d;
    mech_contact_model *m;
    incline(40, 0.7, 0.5, 0, &d, &m); /* a sliding contact with a stretched anchor */
    assert_true(d->committed[0].touching);
    mech_contact_state snap;
    memcpy(&snap, &d->committed[0], sizeof snap);
    mech_contact_data *copy = mech_contact_data_new(m);
    mech_contact_data_copy(copy, d);
    assert_memory_equal(copy->committed, d->committed, sizeof snap);
    assert_memory_equal(copy->force, d->force, sizeof(mech_vec3));
    /* trials at other states change the trial only */
    mech_contact_body b = {{0.01, -0.0001, 0.002}, mech_mat3_rot(2, 0.01), {0.3, 0.0, -0.1}, {0, 0, 1}};
    for (int k = 0; k < 5; k++) {
        b.pos.x += 1e-4;
        mech_contact_eval(m, d, &b);
        assert_memory_equal(&d->committed[0], &snap, sizeof snap);
    }
    assert_true(memcmp(&d->trial[0], &snap, sizeof snap) != 0);
    mech_contact_revert(m, d);
    assert_memory_equal(&d->trial[0], &snap, sizeof snap);
    assert_memory_equal(&d->committed[0], &snap, sizeof snap);
    /* commit after a trial takes it; reset forgets everything */
    mech_contact_eval(m, d, &b);
    mech_contact_commit(m, d);
    assert_memory_equal(&d->committed[0], &d->trial[0], sizeof snap);
    mech_contact_reset(m, d);
    assert_int_equal(d->committed[0].touching, 0);
    mech_contact_data_free(copy);
    mech_contact_data_free(d);
    mech_contact_model_free(m);
}

/* disabled[i] (a part not yet in place, as a latch still folded): the pair is out of reach whatever the geometry
 * (no force, depth -inf, trial reset), the other pairs and nactive are unaffected; enabled again, the pair starts a
 * fresh contact (no anchor kept from before), equal to a set that never disabled it; the copy carries the mask */
static void disabled_pair_is_out_of_reach(void **state)
{
    (void)state;
    mech_contact_pair pr[2];
    memset(pr, 0, sizeof pr);
    for (int k = 0; k < 2; k++) {
        snprintf(pr[k].name, sizeof pr[k].name, "point%d-plane", k + 1);
        pr[k].body_a = 0;
        pr[k].body_b = MECH_CONTACT_WORLD;
        pr[k].shape_a = mech_contact_point();
        pr[k].shape_b = mech_contact_plane(0, 0);
        pr[k].local_a.rot = pr[k].local_b.rot = mech_mat3_identity();
        pr[k].local_a.pos = (mech_vec3){0, k ? 0.1 : -0.1, 0};
        pr[k].law = law_make(1e5, 1.0, 0.5, 0.3, 0.2, 1e4, 10);
    }
    mech_contact_model *m;
    hy_err err;
    assert_int_equal(mech_contact_model_new(1, 2, pr, &m, &err), HY_OK);
    mech_contact_data *d = mech_contact_data_new(m), *ref = mech_contact_data_new(m);
    assert_int_equal(d->disabled[0] | d->disabled[1], 0);   /* enabled by default */
    mech_contact_body b = {{-0.001, 0, 0}, mech_mat3_identity(), {-0.01, 0.02, 0}, {0, 0, 0}};   /* 1 mm in */
    d->disabled[1] = 1;
    mech_contact_eval(m, d, &b);
    mech_contact_eval(m, ref, &b);
    assert_int_equal(d->nactive, 1);
    assert_true(isinf(d->geom[1].depth) && d->geom[1].depth < 0);
    assert_int_equal(d->geom[1].feature, MECH_CONTACT_FEAT_NONE);
    assert_true(d->fn[1] == 0 && mech_vec3_norm(d->force[1]) == 0 && !d->trial[1].touching);
    assert_memory_equal(&d->force[0], &ref->force[0], sizeof(mech_vec3));   /* the other pair as without the mask */
    mech_contact_commit(m, d);
    mech_contact_commit(m, ref);
    mech_contact_data *copy = mech_contact_data_new(m);
    mech_contact_data_copy(copy, d);
    assert_int_equal(copy->disabled[1], 1);
    /* enabled again: a fresh onset, the same as a set whose pair was never in contact */
    d->disabled[1] = 0;
    b.pos.y += 1e-4;
    mech_contact_eval(m, d, &b);
    mech_contact_data *fresh = mech_contact_data_new(m);
    mech_contact_eval(m, fresh, &b);
    assert_int_equal(d->nactive, 2);
    assert_memory_equal(&d->force[1], &fresh->force[1], sizeof(mech_vec3));
    near(d->geom[1].depth, 1e-3, 1e-15);
    near(d->fn_elastic[1], 1e5 * 1e-3, 1e-9);   /* k depth */
    mech_contact_data_free(fresh);
    mech_contact_data_free(copy);
    mech_contact_data_free(ref);
    mech_contact_data_free(d);
    mech_contact_model_free(m);
}

/* a head (sphere) on body 0 in a cone on body 1, both moving and turning: the loads on the two bodies are equal
 * and opposite, so their total force and their total moment about any point vanish */
static void loads_are_equal_and_opposite(void **state)
{
    (void)state;
    mech_contact_pair pr = {0};
    strcpy(pr.name, "head-cone");
    pr.body_a = 0;
    pr.body_b = 1;
    pr.shape_a = mech_contact_sphere(0.045);
    pr.shape_b = mech_contact_cone(0.4, 30 * M_PI / 180, 0.606);
    pr.local_a = mech_contact_pose_make(mech_vec3_make(1.1, 0, 0), mech_mat3_identity()); /* head ahead of the UJ */
    pr.local_b = mech_contact_pose_make(mech_vec3_make(0.5, 0.02, -0.01), mech_mat3_rot(1, 0.05));
    pr.law = law_make(2e6, 1.0, 0.4, 0.2, 0.15, 1e5, 50);
    mech_contact_model *m;
    hy_err err;
    assert_int_equal(mech_contact_model_new(2, 1, &pr, &m, &err), HY_OK);
    mech_contact_data *d = mech_contact_data_new(m);
    mech_contact_body b[2] = {
        {{0, 0, 0}, mech_mat3_rot(2, 0.03), {-0.1, 0.02, 0.01}, {0.01, 0.02, -0.03}},
        {{0.01, -0.02, 0.03}, mech_mat3_rot(0, 0.1), {0.01, 0.0, 0.02}, {0.0, 0.01, 0.0}},
    };
    /* head centre 0.2 below the rim, 0.043 from the wall (2 mm deep): ρ = 0.4 - 0.2 tan 30° - 0.043 / cos 30° */
    mech_contact_pose cone_w = mech_contact_pose_compose(mech_contact_pose_make(b[1].pos, b[1].rot), pr.local_b);
    double rho = 0.4 - 0.2 * tan(M_PI / 6) - 0.043 / cos(M_PI / 6);
    mech_vec3 head = mech_vec3_add(cone_w.pos, mech_mat3_apply(cone_w.rot, mech_vec3_make(-0.2, 0.6 * rho, 0.8 * rho)));
    b[0].pos = mech_vec3_sub(head, mech_mat3_apply(b[0].rot, pr.local_a.pos));
    mech_contact_eval(m, d, b);
    assert_int_equal(d->nactive, 1);
    near(d->geom[0].depth, 0.002, 1e-11);
    assert_true(d->fn[0] > 0);
    /* a second evaluation after commit: the anchors now stretch the tangential spring (both bodies turn) */
    mech_contact_commit(m, d);
    b[0].pos = mech_vec3_axpy(b[0].pos, 1e-4, b[0].vel);
    mech_contact_eval(m, d, b);
    assert_true(mech_vec3_norm(d->f_friction[0]) > 0);
    mech_vec3 F[2] = {{0}}, M[2] = {{0}};
    mech_contact_loads(m, d, b, F, M);
    mech_vec3 Ft = mech_vec3_add(F[0], F[1]);
    mech_vec3 Mo = mech_vec3_add(mech_vec3_add(M[0], mech_vec3_cross(b[0].pos, F[0])),
                                 mech_vec3_add(M[1], mech_vec3_cross(b[1].pos, F[1])));
    double scale = 1e-14 * d->fn[0]; /* round-off of forces of ~4 kN at ~1 m */
    near(mech_vec3_norm(Ft), 0.0, scale);
    near(mech_vec3_norm(Mo), 0.0, 10 * scale);
    mech_vec3 f, p, Fw, Mw;
    assert_int_equal(mech_contact_force_on(m, d, 0, 1, &f, &p), 1);
    mech_contact_wrench(f, p, b[1].pos, &Fw, &Mw);
    near(mech_vec3_norm(mech_vec3_sub(Fw, F[1])), 0.0, scale);
    near(mech_vec3_norm(mech_vec3_sub(Mw, M[1])), 0.0, 10 * scale);
    assert_int_equal(mech_contact_force_on(m, d, 0, 7, &f, &p), 0);
    /* the force is the sum of its components, and each disable switch zeroes its own */
    mech_vec3 n = d->geom[0].normal;
    near(mech_vec3_norm(mech_vec3_sub(d->force[0], mech_vec3_axpy(d->f_friction[0], d->fn[0], n))), 0.0, scale);
    near(mech_vec3_dot(d->f_friction[0], n), 0.0, 1e-9);
    m->disable = MECH_CONTACT_DISABLE_DAMPING;
    mech_contact_eval(m, d, b);
    near(d->fn_damping[0], 0.0, 0);
    near(d->fn[0], d->fn_elastic[0], 0);
    m->disable = MECH_CONTACT_DISABLE_ELASTIC;
    mech_contact_eval(m, d, b);
    near(d->fn_elastic[0], 0.0, 0);
    m->disable = MECH_CONTACT_DISABLE_FRICTION;
    mech_contact_eval(m, d, b);
    near(mech_vec3_norm(d->f_friction[0]), 0.0, 0);
    mech_contact_data_free(d);
    mech_contact_model_free(m);
}

/* the limiter-rim search in the set is warm-started from the committed edge angle: along a moving, turning
 * contact it finds the same deepest point as the cold search of the pair function */
static void warm_started_limiter_matches_the_cold_search(void **state)
{
    (void)state;
    mech_contact_pair pr = {0};
    strcpy(pr.name, "limiter-rim");
    pr.body_a = 0;
    pr.body_b = 1;
    pr.shape_a = mech_contact_frustum(0.185, 0.135, 0.08, MECH_CONTACT_OUTSIDE);
    pr.shape_b = mech_contact_circle(0.2);
    pr.local_a = mech_contact_pose_make(mech_vec3_make(0.4, 0, 0), mech_mat3_identity());
    pr.local_b = mech_contact_pose_make(mech_vec3_zero(), mech_mat3_rot(0, 0.3));
    pr.law = law_make(5e6, 1.0, 0.3, 0.15, 0.15, 1e5, 50);
    mech_contact_model *m;
    hy_err err;
    assert_int_equal(mech_contact_model_new(2, 1, &pr, &m, &err), HY_OK);
    mech_contact_data *d = mech_contact_data_new(m);
    int active = 0;
    for (int k = 0; k < 260; k++) {
        /* the housing turns about its own axis while it tilts by up to 0.13 rad: its limiter (0.4 m ahead) reaches
         * the rim after about 0.117 rad and ends about 6 mm deep */
        double tilt = 0.0005 * k, spin = 0.05 * k;
        mech_contact_body b[2] = {
            {{-0.43, -0.004, 0.002}, mech_mat3_mul(mech_mat3_rot(1, 0.3 * tilt), mech_mat3_mul(mech_mat3_rot(2, tilt), mech_mat3_rot(0, spin))), {0, 0, 0}, {0, 0, 0}},
            {{0, 0, 0}, mech_mat3_identity(), {0, 0, 0}, {0, 0, 0}},
        };
        mech_contact_eval(m, d, b);
        mech_contact_pose pa = mech_contact_pose_compose(mech_contact_pose_make(b[0].pos, b[0].rot), pr.local_a);
        mech_contact_pose pb = mech_contact_pose_compose(mech_contact_pose_make(b[1].pos, b[1].rot), pr.local_b);
        mech_contact_geom g;
        int hit = mech_contact_frustum_circle(&pr.shape_a, &pa, &pr.shape_b, &pb, &g);
        assert_int_equal(hit, d->nactive);
        if (hit) {
            active++;
            assert_true(g.depth < 0.01);
            near(d->geom[0].depth, g.depth, 1e-12);
            near(mech_vec3_norm(mech_vec3_sub(d->geom[0].point, g.point)), 0.0, 1e-6);
        }
        mech_contact_commit(m, d);
    }
    assert_true(active > 10);
    mech_contact_data_free(d);
    mech_contact_model_free(m);
}

static void bad_sets_are_refused_with_the_pair_named(void **state)
{
    (void)state;
    mech_contact_pair pr = {0};
    strcpy(pr.name, "latch");
    pr.body_a = 0;
    pr.body_b = MECH_CONTACT_WORLD;
    pr.shape_a = mech_contact_point();
    pr.shape_b = mech_contact_plane(0.02, 0.03);
    pr.local_a.rot = pr.local_b.rot = mech_mat3_identity();
    pr.law = law_make(5e6, 1.0, 0.3, 0.1, 0.1, 1e5, 10);
    mech_contact_model *m = NULL;
    hy_err err;
    mech_contact_pair p = pr;
    p.law.e = 0;
    assert_int_equal(mech_contact_model_new(1, 1, &p, &m, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "contact pair 0 (latch): law.e = 0: expected 0 < e <= 1"));
    assert_null(m);
    p = pr;
    p.law.mu_s = 0.05;
    assert_int_equal(mech_contact_model_new(1, 1, &p, &m, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "law.mu_s = 0.05: expected a finite value >= mu_k"));
    p = pr;
    p.law.kt = 0;
    assert_int_equal(mech_contact_model_new(1, 1, &p, &m, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "law.kt"));
    p = pr;
    p.law.c_mass = -1;
    assert_int_equal(mech_contact_model_new(1, 1, &p, &m, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "law.c_mass = -1: expected a finite mass >= 0 (0: no cap)"));
    p = pr;
    p.body_a = 3;
    assert_int_equal(mech_contact_model_new(1, 1, &p, &m, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "bodies 3 and -1"));
    p = pr;
    p.body_a = MECH_CONTACT_WORLD;
    assert_int_equal(mech_contact_model_new(1, 1, &p, &m, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "joins body -1 to itself"));
    p = pr;
    p.shape_a = mech_contact_cone(0.4, 0.5, 0.1);
    assert_int_equal(mech_contact_model_new(1, 1, &p, &m, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "no pair function"));
    p = pr;
    p.shape_b = mech_contact_disc(-1);
    assert_int_equal(mech_contact_model_new(1, 1, &p, &m, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "contact pair 0 (latch): shape_b: plane extents"));
    assert_null(strchr(err.msg, '\n'));
    assert_int_equal(mech_contact_model_new(1, 1, &pr, &m, &err), HY_OK);
    mech_contact_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(block_sticks_below_the_friction_angle),
        cmocka_unit_test(block_slides_above_it_with_kinetic_friction),
        cmocka_unit_test(revert_leaves_anchors_bit_identical),
        cmocka_unit_test(disabled_pair_is_out_of_reach),
        cmocka_unit_test(loads_are_equal_and_opposite),
        cmocka_unit_test(warm_started_limiter_matches_the_cold_search),
        cmocka_unit_test(bad_sets_are_refused_with_the_pair_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Roll guides on the docking collars (mech/dock_rollguide.h, docs/dock-process.md §9a): closed forms of the static
 * loads (the passive collar rolled by theta: the same offset -r sin(theta) at every pin, moment -n k (r sin(theta) -
 * w(d)) r cos(theta) about the axis, the faces' axial share n F s; moved across by delta: -2 k (delta - w) from the
 * two pins whose slots lie across it), the width law, the conjugacy of forces and energy (central differences of
 * the elastic energy in roll and in gap equal the moment and the axial force), the tip on the collar's face beyond
 * the mouth, the damper's sign, and bad parameters. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mech/dock_rollguide.h"

static const mech_vec3 Z = {0, 0, 0};

/* the passive plane at gap g on the axis, rolled by th about the docking axis, moved across by (dy, dz): its
   rotation in the active-plane frame Rx(th) diag(-1, 1, -1) (the docked pose, x facing the active vehicle) */
static void pose(double g, double th, double dy, double dz, mech_vec3 *o, mech_mat3 *R)
{
    double c = cos(th), s = sin(th);
    mech_mat3 Rx = {{{1, 0, 0}, {0, c, -s}, {0, s, c}}};
    *R = mech_mat3_mul(Rx, mech_mat3_diag(-1, 1, -1));
    *o = mech_vec3_make(g, dy, dz);
}

static void params(mech_dock_rollguide_params *p)
{
    mech_dock_rollguide_params_default(p);
    p->n = 4;
    p->length = 0.06;   /* a long pin, so that the depths below reach both the mouth and the bore */
    p->taper_length = 0.05;
    p->damping = 0;
}

static void width_law(void **state)
{
    (void)state;
    mech_dock_rollguide_params p;
    params(&p);
    double dw, s = (p.catch_half_width - p.clearance) / p.taper_length;
    assert_true(mech_dock_rollguide_width(&p, -0.01, &dw) == p.catch_half_width && dw == 0);
    assert_true(fabs(mech_dock_rollguide_width(&p, 0.02, &dw) - (p.catch_half_width - 0.02 * s)) < 1e-15);
    assert_true(fabs(dw + s) < 1e-12);
    assert_true(mech_dock_rollguide_width(&p, p.taper_length, &dw) == p.clearance && dw == 0);
    assert_true(mech_dock_rollguide_width(&p, p.length, &dw) == p.clearance && dw == 0);
}

static void rolled(void **state)
{
    (void)state;
    mech_dock_rollguide_params p;
    params(&p);
    const double r = p.radius, k = p.stiffness, s = (p.catch_half_width - p.clearance) / p.taper_length;
    mech_dock_rollguide_out out;
    mech_vec3 o;
    mech_mat3 R;
    /* not inserted: nothing */
    pose(p.length + 1e-3, 3 * M_PI / 180, 0, 0, &o, &R);
    mech_dock_rollguide_eval(&p, o, R, Z, Z, &out);
    assert_int_equal(out.n_touch, 0);
    assert_true(out.f.x == 0 && out.m.x == 0 && out.energy == 0);
    const double ths[] = {0.5, 2, -3, 5}, ds[] = {0.01, 0.03, 0.045, 0.055};
    for (int i = 0; i < 4; i++) {
        double th = ths[i] * M_PI / 180, d = ds[i];
        pose(p.length - d, th, 0, 0, &o, &R);
        mech_dock_rollguide_eval(&p, o, R, Z, Z, &out);
        double dw, w = mech_dock_rollguide_width(&p, d, &dw), pen = r * fabs(sin(th)) - w;
        for (int j = 0; j < 4; j++)
            assert_true(fabs(out.offset[j] + r * sin(th)) < 1e-12);
        if (pen <= 0) {
            assert_int_equal(out.n_touch, 0);
            continue;
        }
        double F = k * pen, sg = th > 0 ? 1 : -1;
        printf("roll %g deg, depth %g m: moment %.9g N m (closed form %.9g), axial %.9g N (%.9g)\n", ths[i], d,
               out.m.x, -sg * 4 * F * r * cos(th), out.f.x, d < p.taper_length ? 4 * F * s : 0.0);
        assert_int_equal(out.n_touch, 4);
        assert_true(fabs(out.m.x + sg * 4 * F * r * cos(th)) < 1e-9 * (1 + 4 * F * r));
        assert_true(fabs(out.f.x - (d < p.taper_length ? 4 * F * s : 0.0)) < 1e-9 * (1 + F));
        assert_true(fabs(out.f.y) < 1e-9 * F && fabs(out.f.z) < 1e-9 * F);
        assert_true(fabs(out.energy - 4 * 0.5 * k * pen * pen) < 1e-12 * (1 + out.energy));
    }
}

static void across(void **state)
{
    (void)state;
    mech_dock_rollguide_params p;
    params(&p);
    mech_dock_rollguide_out out;
    mech_vec3 o;
    mech_mat3 R;
    double d = p.length - 0.005, delta = 0.004;   /* in the bore: w = clearance */
    pose(p.length - d, 0, 0, delta, &o, &R);
    mech_dock_rollguide_eval(&p, o, R, Z, Z, &out);
    /* the pins at 0 and 180 deg have their slots across z; those at 90 and 270 deg slide along theirs */
    assert_int_equal(out.n_touch, 2);
    assert_true(fabs(out.f.z + 2 * p.stiffness * (delta - p.clearance)) < 1e-9);
    assert_true(fabs(out.f.y) < 1e-9 && fabs(out.f.x) < 1e-9 && fabs(out.m.x) < 1e-9);
}

/* the loads derive from the elastic energy: dU/dtheta = -M_x, dU/dg = -F_x (central differences) */
static void conjugate(void **state)
{
    (void)state;
    mech_dock_rollguide_params p;
    params(&p);
    mech_dock_rollguide_out a, b, c;
    mech_vec3 o;
    mech_mat3 R;
    double th = 4 * M_PI / 180, g = p.length - 0.02, h = 1e-7;
    pose(g, th, 0, 0, &o, &R), mech_dock_rollguide_eval(&p, o, R, Z, Z, &c);
    pose(g, th + h, 0, 0, &o, &R), mech_dock_rollguide_eval(&p, o, R, Z, Z, &a);
    pose(g, th - h, 0, 0, &o, &R), mech_dock_rollguide_eval(&p, o, R, Z, Z, &b);
    double dUdth = (a.energy - b.energy) / (2 * h);
    pose(g + h, th, 0, 0, &o, &R), mech_dock_rollguide_eval(&p, o, R, Z, Z, &a);
    pose(g - h, th, 0, 0, &o, &R), mech_dock_rollguide_eval(&p, o, R, Z, Z, &b);
    double dUdg = (a.energy - b.energy) / (2 * h);
    printf("conjugacy: dU/dtheta %.9g, -M_x %.9g; dU/dg %.9g, -F_x %.9g\n", dUdth, -c.m.x, dUdg, -c.f.x);
    assert_true(c.n_touch == 4);
    assert_true(fabs(dUdth + c.m.x) < 1e-5 * fabs(c.m.x));
    assert_true(fabs(dUdg + c.f.x) < 1e-5 * fabs(c.f.x));
}

/* beyond the mouth the tip bears on the collar's face: a stop along the normal, k d per pin, no moment */
static void on_the_face(void **state)
{
    (void)state;
    mech_dock_rollguide_params p;
    params(&p);
    mech_dock_rollguide_out out;
    mech_vec3 o;
    mech_mat3 R;
    double th = asin(1.2 * p.catch_half_width / p.radius), d = 0.002;
    pose(p.length - d, th, 0, 0, &o, &R);
    mech_dock_rollguide_eval(&p, o, R, Z, Z, &out);
    assert_int_equal(out.n_miss, 4);
    assert_true(fabs(out.f.x - 4 * p.stiffness * d) < 1e-9);
    assert_true(fabs(out.m.x) < 1e-9);
    /* just inside the mouth the faces take it */
    th = asin(0.99 * p.catch_half_width / p.radius), d = 0.01;
    pose(p.length - d, th, 0, 0, &o, &R);
    mech_dock_rollguide_eval(&p, o, R, Z, Z, &out);
    assert_int_equal(out.n_miss, 0);
    assert_int_equal(out.n_touch, 4);
}

/* the damper acts on the penetration rate: rolling further into the face adds, backing out subtracts */
static void damping(void **state)
{
    (void)state;
    mech_dock_rollguide_params p;
    params(&p);
    p.damping = 2e4;
    mech_dock_rollguide_out a, b;
    mech_vec3 o;
    mech_mat3 R;
    double th = 2 * M_PI / 180, g = p.length - 0.055, w = 0.01;   /* the passive vehicle rolling at +-w rad/s */
    pose(g, th, 0, 0, &o, &R);
    mech_dock_rollguide_eval(&p, o, R, Z, mech_vec3_make(w, 0, 0), &a);
    mech_dock_rollguide_eval(&p, o, R, Z, mech_vec3_make(-w, 0, 0), &b);
    double F0 = p.stiffness * (p.radius * sin(th) - p.clearance);
    /* pen' = |e|' = r cos(th) w (the socket at r moving across at r w, the slot turned by th) */
    double dF = p.damping * p.radius * cos(th) * w;
    assert_true(fabs(a.force[0] - (F0 + dF)) < 1e-6 * F0);
    assert_true(fabs(b.force[0] - (F0 - dF)) < 1e-6 * F0);
}

static void bad_params(void **state)
{
    (void)state;
    hy_err err;
    mech_dock_rollguide_params p;
    params(&p);
    assert_int_equal(mech_dock_rollguide_check(&p, &err), HY_OK);
    p.n = 0;
    assert_int_equal(mech_dock_rollguide_check(&p, &err), HY_OK);
    params(&p), p.n = 5;
    assert_int_equal(mech_dock_rollguide_check(&p, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "roll_guides.n"));
    params(&p), p.radius = 0;
    assert_int_equal(mech_dock_rollguide_check(&p, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "roll_guides.radius"));
    params(&p), p.taper_length = p.length * 1.1;
    assert_int_equal(mech_dock_rollguide_check(&p, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "roll_guides.taper_length"));
    params(&p), p.catch_half_width = p.clearance;
    assert_int_equal(mech_dock_rollguide_check(&p, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "roll_guides.catch_half_width"));
    params(&p), p.clearance = -1e-3;
    assert_int_equal(mech_dock_rollguide_check(&p, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "roll_guides.clearance"));
    params(&p), p.stiffness = NAN;
    assert_int_equal(mech_dock_rollguide_check(&p, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "roll_guides.stiffness"));
    params(&p), p.damping = -1;
    assert_int_equal(mech_dock_rollguide_check(&p, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "roll_guides.damping"));
    params(&p), p.length = INFINITY;
    assert_int_equal(mech_dock_rollguide_check(&p, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "roll_guides.length"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(width_law), cmocka_unit_test(rolled),  cmocka_unit_test(across),
        cmocka_unit_test(conjugate), cmocka_unit_test(on_the_face), cmocka_unit_test(damping),
        cmocka_unit_test(bad_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

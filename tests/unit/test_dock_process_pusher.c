/* Separation pushers (mech/dock_process.h, docs/dock-process.md §5; RP-1 4 x 1000 N, 0.04 m): force and energy
 * closed forms with the planes parallel (4 k d, zero moment, energy 2 k d^2 -> 80 J at closure), the work of the
 * closing equal to the stored energy, a tilted passive plane (per-rod gaps and the moment by hand), the damping
 * power, and bad parameters. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mech/dock_process.h"

static const mech_vec3 Z = {0, 0, 0};
static const mech_vec3 NX = {-1, 0, 0};   /* passive plane normal, facing the active plane */

static void parallel_planes(void **state)
{
    (void)state;
    mech_dock_pusher_params p;
    mech_dock_pusher_params_rp1(&p);
    mech_dock_pusher_out o;
    double k = p.force / p.stroke;
    mech_dock_pusher_eval(&p, mech_vec3_make(0.05, 0, 0), NX, Z, Z, &o);   /* not touching */
    assert_int_equal(o.n_touch, 0);
    assert_true(o.force.x == 0 && o.energy == 0);
    for (double g = 0.039; g > 0; g -= 0.007) {
        mech_dock_pusher_eval(&p, mech_vec3_make(g, 0, 0), NX, Z, Z, &o);
        double d = p.stroke - g;
        assert_int_equal(o.n_touch, 4);
        assert_true(fabs(o.force.x - 4 * k * d) < 1e-9);   /* pushes the passive vehicle away (+x) */
        assert_true(fabs(o.force.y) < 1e-12 && fabs(o.force.z) < 1e-12);
        assert_true(mech_vec3_norm(o.moment) < 1e-9);
        assert_true(fabs(o.energy - 2 * k * d * d) < 1e-12);
    }
    mech_dock_pusher_eval(&p, mech_vec3_make(0, 0, 0), NX, Z, Z, &o);        /* planes closed */
    assert_true(fabs(o.force.x - 4000.0) < 1e-9);
    assert_true(fabs(o.energy - 80.0) < 1e-12);
}

/* the work done on the passive plane while it closes from 0.04 m to 0 (Simpson) equals the stored energy */
static void closing_work(void **state)
{
    (void)state;
    mech_dock_pusher_params p;
    mech_dock_pusher_params_rp1(&p);
    int n = 400;
    double hg = p.stroke / n, W = 0;
    for (int i = 0; i <= n; i++) {
        mech_dock_pusher_out o;
        mech_dock_pusher_eval(&p, mech_vec3_make(p.stroke - i * hg, 0, 0), NX, Z, Z, &o);
        double wgt = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
        W += wgt * o.force.x * hg / 3;
    }
    printf("closing work %.12g J (closed form 80 J)\n", W);
    assert_true(fabs(W - 80.0) < 1e-9);
}

/* passive plane through (0.02, 0, 0) tilted by a about z: n = (-cos a, -sin a, 0). The rod at (0, y, z) meets it
 * at g = 0.02 - y tan a (hand: n . (o - p) / n_x), so d = 0.02 + y tan a; force F_i = k d_i along -n. */
static void tilted_plane(void **state)
{
    (void)state;
    mech_dock_pusher_params p;
    mech_dock_pusher_params_rp1(&p);
    double a = 0.02, k = p.force / p.stroke, r = p.radius;
    mech_vec3 n = mech_vec3_make(-cos(a), -sin(a), 0);
    mech_dock_pusher_out o;
    mech_dock_pusher_eval(&p, mech_vec3_make(0.02, 0, 0), n, Z, Z, &o);
    double Fx = 0, Fy = 0, Mz = 0, Mx = 0, My = 0;
    for (int i = 0; i < 4; i++) {
        double psi = M_PI / 4 + i * M_PI / 2, y = r * cos(psi), z = r * sin(psi);
        double g = 0.02 - y * tan(a), d = p.stroke - g, F = k * d;
        assert_true(fabs(o.d[i] - d) < 1e-14);
        assert_true(fabs(o.f[i] - F) < 1e-9);
        double fx = F * cos(a), fy = F * sin(a);   /* -F n */
        Fx += fx, Fy += fy;
        /* moment of (fx, fy, 0) at the tip (g, y, z) */
        Mx += -z * fy;
        My += z * fx;
        Mz += g * fy - y * fx;
    }
    printf("tilted plane: force (%.6f, %.6f) N, moment (%.6f, %.6f, %.6f) N m\n", o.force.x, o.force.y, o.moment.x,
           o.moment.y, o.moment.z);
    assert_true(fabs(o.force.x - Fx) < 1e-9 && fabs(o.force.y - Fy) < 1e-9);
    assert_true(fabs(o.moment.x - Mx) < 1e-9 && fabs(o.moment.y - My) < 1e-9 && fabs(o.moment.z - Mz) < 1e-9);
    assert_true(o.moment.z < 0);   /* the rods at y > 0 are compressed more: the moment turns the plane back */
}

static void damping_power(void **state)
{
    (void)state;
    mech_dock_pusher_params p;
    mech_dock_pusher_params_rp1(&p);
    p.damping = 500;
    mech_dock_pusher_out o;
    /* closing at 1 mm/s: d' = 1e-3 on every rod */
    mech_dock_pusher_eval(&p, mech_vec3_make(0.02, 0, 0), NX, mech_vec3_make(-1e-3, 0, 0), Z, &o);
    assert_true(fabs(o.force.x - 4 * (p.force / p.stroke * 0.02 + 500 * 1e-3)) < 1e-9);
    assert_true(fabs(o.p_damping - 4 * 500 * 1e-6) < 1e-15);
}

static void bad_parameters(void **state)
{
    (void)state;
    mech_dock_pusher_params p;
    hy_err e;
    mech_dock_pusher_params_rp1(&p);
    p.n = 0;
    assert_int_equal(mech_dock_pusher_check(&p, &e), HY_EMODEL);
    assert_non_null(strstr(e.msg, "pushers.n"));
    mech_dock_pusher_params_rp1(&p);
    p.stroke = -0.04;
    assert_int_equal(mech_dock_pusher_check(&p, &e), HY_EMODEL);
    assert_non_null(strstr(e.msg, "pushers.stroke"));
    mech_dock_pusher_params_rp1(&p);
    p.force = NAN;
    assert_int_equal(mech_dock_pusher_check(&p, &e), HY_EMODEL);
    assert_non_null(strstr(e.msg, "pushers.force"));
    mech_dock_pusher_params_rp1(&p);
    assert_int_equal(mech_dock_pusher_check(&p, &e), HY_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parallel_planes), cmocka_unit_test(closing_work), cmocka_unit_test(tilted_plane),
        cmocka_unit_test(damping_power),   cmocka_unit_test(bad_parameters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

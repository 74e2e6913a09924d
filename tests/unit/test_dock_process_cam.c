/* The alignment-cam table (mech/dock_process.h, docs/dock-process.md §3) against hand-computed roller positions:
 * cam samples (0, 0.05) (1, 0.05) (2, 0.07) rad/m, follower arm 0.04 m, lever 0.15 m from a pivot at x = 0.30 m,
 * radius 0.09 m, 3 levers; RP-1's cone (rim 0.40 m, 30 deg) placed by the head on the stops. Positions at the
 * samples are exact; between the table's points the error is that of linear interpolation of the lever arc.
 * The path check: hand-computed worst penetration, and the boundary between a path 2.5 mm into the cone
 * (accepted, offset 3 mm) and 3.4 mm (refused with the key). Bad arrays refused with their keys. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mech/dock_process.h"

static void params(mech_dock_cam_params *p)
{
    memset(p, 0, sizeof *p);
    p->n = 3;
    p->theta[0] = 0, p->theta[1] = 1, p->theta[2] = 2;
    p->radius[0] = 0.05, p->radius[1] = 0.05, p->radius[2] = 0.07;
    p->i_cam = 100;
    p->i_nut = 2 * M_PI / 0.012;
    p->n_lever = 3;
    p->psi0 = 0;
    p->arm = 0.04;
    p->beta0 = 0;
    p->x_pivot = 0.30, p->rho_pivot = 0.09, p->len = 0.15;
    p->roller_radius = 0.01;
    p->roller_offset = 0.003;
    p->head_x0 = 1.10, p->head_cone_x = -0.656;
    p->rim_radius = 0.40, p->rim_x = 0, p->half_angle = M_PI / 6, p->throat_radius = 0.05;
}

static void near3(mech_vec3 a, double x, double y, double z, double tol)
{
    if (!(fabs(a.x - x) <= tol && fabs(a.y - y) <= tol && fabs(a.z - z) <= tol))
        fail_msg("(%.9g %.9g %.9g) != (%.9g %.9g %.9g)", a.x, a.y, a.z, x, y, z);
}

static void roller_positions(void **state)
{
    (void)state;
    mech_dock_cam_params p;
    params(&p);
    static mech_dock_cam c;
    hy_err e;
    assert_int_equal(mech_dock_cam_build(&p, &c, &e), HY_OK);
    assert_int_equal(c.n, 2 * MECH_DOCK_CAM_SUB + 1);
    double s120 = sqrt(3) / 2;
    /* theta 0.5: follower on the small circle, lever along the axis: (0.30 + 0.15, 0.09) */
    near3(mech_dock_cam_roller(&c, 50, 0), 0.45, 0.09, 0, 1e-15);
    near3(mech_dock_cam_roller(&c, 50, 1), 0.45, -0.045, 0.09 * s120, 1e-15);
    near3(mech_dock_cam_roller(&c, 50, 2), 0.45, -0.045, -0.09 * s120, 1e-15);
    /* theta 1.5 (a table point): r = 0.06, beta = asin(0.25): x = 0.30 + 0.15 * 0.968245837, rho = 0.1275 */
    near3(mech_dock_cam_roller(&c, 150, 0), 0.4452368755, 0.1275, 0, 1e-10);
    /* theta 2: beta = 30 deg: x = 0.30 + 0.15 cos 30, rho = 0.09 + 0.075 */
    near3(mech_dock_cam_roller(&c, 200, 0), 0.4299038106, 0.165, 0, 1e-10);
    /* theta 1.6, between table points: r = 0.062, beta = asin(0.3): x = 0.30 + 0.15 * 0.9539392014, rho = 0.135 */
    near3(mech_dock_cam_roller(&c, 160, 0), 0.4430908802, 0.135, 0, 1e-4);
    /* clamped at the table's ends */
    near3(mech_dock_cam_roller(&c, -10, 0), 0.45, 0.09, 0, 1e-15);
    near3(mech_dock_cam_roller(&c, 1e3, 0), 0.4299038106, 0.165, 0, 1e-10);
}

static void path_against_the_cone(void **state)
{
    (void)state;
    mech_dock_cam_params p;
    params(&p);
    static mech_dock_cam c;
    hy_err e;
    assert_int_equal(mech_dock_cam_build(&p, &c, &e), HY_OK);
    /* hand: at phi = 200 rad the stroke is 0.3819719 m, the docking plane at housing x = 0.0620281, the roller at
       cone x = -0.3678757, cone radius 0.40 - 0.3678757 tan 30 = 0.1876069; penetration 0.01 - (0.1876069 -
       0.165) cos 30 = -0.0095781 (9.6 mm clear) */
    printf("worst penetration %.7f m at nut angle %.3f rad\n", c.worst_penetration, c.worst_phi);
    assert_true(fabs(c.worst_penetration - (-0.0095781)) < 2e-7);
    assert_true(c.worst_phi == 200.0);
    /* the pivot 14 mm further out: 2.55 mm into the cone, within the 3 mm offset; 15 mm: 3.41 mm, refused */
    p.rho_pivot = 0.09 + 0.014;
    assert_int_equal(mech_dock_cam_build(&p, &c, &e), HY_OK);
    assert_true(fabs(c.worst_penetration - 0.0025462) < 2e-7);
    p.rho_pivot = 0.09 + 0.015;
    assert_int_equal(mech_dock_cam_build(&p, &c, &e), HY_EMODEL);
    printf("%s\n", e.msg);
    assert_non_null(strstr(e.msg, "cam.path"));
    assert_non_null(strstr(e.msg, "cam.roller_offset"));
}

static void bad_arrays(void **state)
{
    (void)state;
    static mech_dock_cam c;
    hy_err e;
    mech_dock_cam_params p;
    params(&p);
    p.theta[2] = 1.0;   /* not ascending */
    assert_int_equal(mech_dock_cam_build(&p, &c, &e), HY_EMODEL);
    assert_non_null(strstr(e.msg, "cam.theta[2]"));
    params(&p);
    p.theta[1] = NAN;
    assert_int_equal(mech_dock_cam_build(&p, &c, &e), HY_EMODEL);
    assert_non_null(strstr(e.msg, "cam.theta[1]"));
    params(&p);
    p.radius[1] = -0.01;
    assert_int_equal(mech_dock_cam_build(&p, &c, &e), HY_EMODEL);
    assert_non_null(strstr(e.msg, "cam.radius[1]"));
    params(&p);
    p.radius[2] = 0.10; /* lift 0.05 m > arm 0.04 m */
    assert_int_equal(mech_dock_cam_build(&p, &c, &e), HY_EMODEL);
    assert_non_null(strstr(e.msg, "cam.radius[2]"));
    params(&p);
    p.n = 1;
    assert_int_equal(mech_dock_cam_build(&p, &c, &e), HY_EMODEL);
    assert_non_null(strstr(e.msg, "cam.theta"));
    params(&p);
    p.n_lever = 0;
    assert_int_equal(mech_dock_cam_build(&p, &c, &e), HY_EMODEL);
    assert_non_null(strstr(e.msg, "cam.n_lever"));
    params(&p);
    p.half_angle = M_PI / 2;
    assert_int_equal(mech_dock_cam_build(&p, &c, &e), HY_EMODEL);
    assert_non_null(strstr(e.msg, "cam.half_angle"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(roller_positions),
        cmocka_unit_test(path_against_the_cone),
        cmocka_unit_test(bad_arrays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

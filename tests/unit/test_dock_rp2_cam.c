/* RP-2's alignment cam (issue 44 item 4; docs/rp2-parameters.md §8, docs/dock-process.md §3): the levers of
 * fixtures/mech/dock/rp2/s3x-400-A.json and -B.json (0.28 m, retracted along the housing axis, cam by
 * scripts/design-cam.py) against the ideal cone computed here by hand, not by the cam module's path check:
 *
 * - the stroke from which the cone is within the rollers' reach, in closed form: with the vehicles aligned and the
 *   head on its stops, the rim sits at housing x_rim(s) = L_housing + L_probe + x_stop - s, x_stop = -(R_rim -
 *   r_sock) / tan a - stop_depth; the roller centre is `offset` off the cone on the line rho = R_rim - (x - x_rim)
 *   tan a - (offset + r_roller) / cos a; the pivot's distance from that line is ell when
 *       s_reach = x_rim(0) - x_p + (R_rim - (offset + r_roller) / cos a - rho_p) / tan a - ell / sin a
 *   (the lever normal to the generatrix, beta = 90 deg - a): 0.12276 m for RP-2 (RP-1's 0.16 m lever: 0.36276 m);
 * - from s_reach + 2 mm (the cam's 1.25 mm samples) to the end of the travel every roller is `offset` off the cone,
 *   to the table's interpolation (0.2 mm), at 8 strokes of every lever; before s_reach they are clear of it;
 * - a roller that is out of its retracted position has its centre inside the rim plane and lies inside the rim
 *   (it never reaches past the rim onto the passive vehicle's docking plane, which the model has no contact for);
 * - docked (s = 0.40 m) the lever stands at or above the housing axis (the constraint that fixed its length).
 * RP-1's cam (fixtures/mech/dock/s3x-400-B.json) is the counter-case: its rollers are 4.5 cm off the cone at 0.20 m.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "mech/dock.h"
#include "mech/dock_process.h"

static const char *fixtures(void)
{
    const char *fx = getenv("FIXTURES");
    return fx && fx[0] ? fx : "fixtures";
}

typedef struct cam_case {
    mech_dock_config c;
    mech_dock_cam cam;
    double x_rim0, s_reach, ta, ca;
} cam_case;

/* the scenario's cam table (mech_dock_cam_build with the cone placement written out here) and the hand values */
static void load(const char *rel, cam_case *k)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", fixtures(), rel);
    hy_err e;
    int rc = mech_dock_config_read(path, &k->c, &e);
    if (rc)
        print_message("%s\n", e.msg);
    assert_int_equal(rc, HY_OK);
    const mech_dock_geometry *g = &k->c.params.geom;
    mech_dock_cam_params cp = k->c.params.process.cam;
    k->ta = tan(g->half_angle);
    k->ca = cos(g->half_angle);
    double x_stop = g->rim_x - (g->rim_radius - g->socket_radius) / k->ta - g->stop_depth;
    cp.i_nut = 2 * M_PI / k->c.params.axial.lead;
    cp.head_x0 = g->housing_length + g->probe_length;
    cp.head_cone_x = x_stop;
    cp.rim_radius = g->rim_radius;
    cp.rim_x = g->rim_x;
    cp.half_angle = g->half_angle;
    cp.throat_radius = g->socket_radius;
    assert_int_equal(mech_dock_cam_build(&cp, &k->cam, &e), HY_OK);
    k->x_rim0 = cp.head_x0 + x_stop - g->rim_x;
    k->s_reach = k->x_rim0 - cp.x_pivot +
                 (g->rim_radius - (cp.roller_offset + cp.roller_radius) / k->ca - cp.rho_pivot) / k->ta -
                 cp.len / sin(g->half_angle);
}

/* roller j's clearance off the aligned cone at stroke s (> 0: off the wall), and its depth inside the rim plane */
static double clearance(const cam_case *k, double s, int j, double *depth)
{
    const mech_dock_geometry *g = &k->c.params.geom;
    const mech_dock_cam_params *cp = &k->c.params.process.cam;
    mech_vec3 r = mech_dock_cam_roller(&k->cam, s * 2 * M_PI / k->c.params.axial.lead, j);
    double rho = hypot(r.y, r.z);
    double d = r.x - (k->x_rim0 - s);                       /* depth below the rim plane */
    if (depth)
        *depth = d;
    return (g->rim_radius - d * k->ta - rho) * k->ca - cp->roller_radius;
}

static void check_rp2(const char *rel, double s_reach_expected)
{
    static cam_case k;
    load(rel, &k);
    const mech_dock_cam_params *cp = &k.c.params.process.cam;
    print_message("%s: reach from %.4f m (closed form)\n", rel, k.s_reach);
    assert_true(fabs(k.s_reach - s_reach_expected) < 1e-6);
    for (int j = 0; j < cp->n_lever; j++) {
        /* following the cone from s_reach on */
        for (int i = 0; i < 8; i++) {
            double s = k.s_reach + 0.002 + (0.40 - k.s_reach - 0.002) * i / 7.0;
            double c = clearance(&k, s, j, NULL);
            assert_true(fabs(c - cp->roller_offset) < 2e-4);
        }
        /* clear of it before */
        for (int i = 0; i < 20; i++) {
            double s = (k.s_reach - 0.001) * i / 19.0, depth;
            double c = clearance(&k, s, j, &depth);
            assert_true(c > cp->roller_offset);
            /* out of the retracted position => its centre inside the rim plane and the roller inside the rim */
            mech_vec3 r = mech_dock_cam_roller(&k.cam, s * 2 * M_PI / k.c.params.axial.lead, j);
            double beta = atan2(hypot(r.y, r.z) - cp->rho_pivot, r.x - cp->x_pivot);
            if (beta > cp->beta0 + 1e-9) {
                assert_true(depth > 0);
                assert_true(hypot(r.y, r.z) + cp->roller_radius < k.c.params.geom.rim_radius);
            }
        }
    }
    /* docked: at or above the housing axis */
    mech_vec3 r = mech_dock_cam_roller(&k.cam, 0.40 * 2 * M_PI / k.c.params.axial.lead, 0);
    assert_true(hypot(r.y, r.z) >= cp->rho_pivot);
    mech_dock_config_free(&k.c);
}

static void rp2_a(void **state)
{
    (void)state;
    check_rp2("mech/dock/rp2/s3x-400-A.json", 0.122756);
}

static void rp2_b(void **state)
{
    (void)state;
    check_rp2("mech/dock/rp2/s3x-400-B.json", 0.122756);
}

/* the counter-case: RP-1's 0.16 m lever reaches the cone only from 0.363 m; at 0.20 m its rollers are far off it */
static void rp1_late(void **state)
{
    (void)state;
    static cam_case k;
    load("mech/dock/s3x-400-B.json", &k);
    assert_true(fabs(k.s_reach - 0.362756) < 5e-5);
    for (int j = 0; j < k.c.params.process.cam.n_lever; j++)
        assert_true(clearance(&k, 0.20, j, NULL) > 0.04);
    mech_dock_config_free(&k.c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rp2_a),
        cmocka_unit_test(rp2_b),
        cmocka_unit_test(rp1_late),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

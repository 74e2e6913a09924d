/* The docking model (mech_dock_params_rp1 / _check, mech_dock_model_new, the geometry of dock_geom.c, the probe's
 * A_HS): closed forms of RP-1 §2.2 (cone depth 0.606 m at 30 deg, head-centre x -0.671 m at bottom contact and
 * -0.656 m on the stops, capture at -0.661 m), the detent work F * travel, the narrowing slots, variant B's UJ
 * moved down with the head and limiter kept in place, the initial placement at first contact, the channel and
 * element tables, and bad parameters refused naming the key. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mech/dock.h"
#include "dock_test_laws.h"
#include "dock/dock_internal.h"

/* cmocka's assert_float_equal compares floats: doubles need their own */
#define assert_near(a, b, tol) assert_near_((a), (b), (tol), #a, __LINE__)
static void assert_near_(double a, double b, double tol, const char *what, int line)
{
    if (!(fabs(a - b) <= tol))
        print_message("line %d: %s = %.17g, expected %.17g within %g\n", line, what, a, b, tol);
    assert_true(fabs(a - b) <= tol);
}

static hy_model laws[MECH_DOCK_NLAW];

static int setup(void **state)
{
    (void)state;
    assert_int_equal(dock_test_load_laws(laws), HY_OK);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int k = 0; k < MECH_DOCK_NLAW; k++)
        hy_model_free(&laws[k]);
    return 0;
}

static void rp1(mech_dock_params *p, int variant)
{
    mech_dock_params_rp1(p, variant, MECH_DOCK_CONE_MODULE);
    dock_test_set_laws(p, laws);
    p->init.closing_speed = 0.15;
}

static void geometry_closed_forms(void **state)
{
    (void)state;
    mech_dock_params p;
    rp1(&p, MECH_DOCK_A);
    dock_geom g;
    dock_geom_compute(&p, &g);
    assert_near(g.cone_depth, 0.35 / tan(M_PI / 6), 1e-12);
    assert_near(g.cone_depth, 0.606, 5e-4);       /* RP-1 §2.2 */
    assert_near(g.head_bottom_x, -0.671, 5e-4);   /* head centre at bottom contact */
    assert_near(g.stop_x, -0.656, 5e-4);          /* latches resting on the stops */
    assert_near(g.capture_x, -0.661, 5e-4);       /* capture condition */
    /* 35 and 40 deg (RP-1 §2.2: 0.50 and 0.42 m) */
    p.geom.half_angle = 35 * M_PI / 180;
    dock_geom_compute(&p, &g);
    assert_near(g.cone_depth, 0.50, 5e-3);
    p.geom.half_angle = 40 * M_PI / 180;
    dock_geom_compute(&p, &g);
    assert_near(g.cone_depth, 0.42, 5e-3);
    /* the short cone keeps the angle and the socket */
    mech_dock_params_rp1(&p, MECH_DOCK_A, MECH_DOCK_CONE_SHORT);
    dock_geom_compute(&p, &g);
    assert_near(g.rim_x, -0.17, 1e-12);
    assert_near(g.cone_depth, 0.25 / tan(M_PI / 6), 1e-12);
}

static void detent_and_slots(void **state)
{
    (void)state;
    mech_dock_params p;
    rp1(&p, MECH_DOCK_A);
    dock_geom g;
    dock_geom_compute(&p, &g);
    /* the detent's work over its whole travel is F * travel = 0.75 J (RP-1 §2.8), and its potential is the integral
       of its force (trapezoid over a fine grid) */
    double U_end;
    dock_detent(&g, 150, -0.70, &U_end);
    assert_near(U_end, 0.75, 1e-12);
    double W = 0, x0 = -0.650, x1 = -0.664, n = 20000, dx = (x0 - x1) / n, U;
    for (int i = 0; i < n; i++) {
        double xa = x0 - i * dx, xb = xa - dx;
        W += 0.5 * (dock_detent(&g, 150, xa, &U) + dock_detent(&g, 150, xb, &U)) * dx;
    }
    dock_detent(&g, 150, x1, &U);
    assert_near(W, U, 1e-7);   /* trapezoid error at the four kinks */
    assert_near(dock_detent(&g, 150, -0.6585, &U), 150, 1e-12);
    assert_near(dock_detent(&g, 150, -0.650, &U), 0, 1e-12);
    /* after capture the slots narrow from 15 deg at the capture plane (5 mm below the stops) to 0.5 deg at the stop
       plane */
    double dw;
    assert_near(dock_slot_width(&p.geom, 0.006, &dw), 15 * M_PI / 180, 1e-12);
    assert_near(dw, 0, 0);
    assert_near(dock_slot_width(&p.geom, 0.0025, &dw), 7.75 * M_PI / 180, 1e-12);
    assert_near(dw, 14.5 * M_PI / 180 / 0.005, 1e-9);
    assert_near(dock_slot_width(&p.geom, -0.001, &dw), 0.5 * M_PI / 180, 1e-12);
    assert_near(dw, 0, 0);
    /* the corners are rounded over DOCK_SLOT_FILLET: w and dw/du continuous everywhere (no jump of the faces' axial
       share where a latch presses on a corner), dw/du the derivative of w (central differences), the rounding a
       quarter of k h off each corner, and the faces' straight parts untouched */
    const double L = p.geom.detent_travel, h = 0.5 * DOCK_SLOT_FILLET, k = 14.5 * M_PI / 180 / L;
    assert_near(dock_slot_width(&p.geom, 0, &dw), 0.5 * M_PI / 180 + 0.25 * k * h, 1e-15);
    assert_near(dw, 0.5 * k, 1e-9);
    assert_near(dock_slot_width(&p.geom, L, &dw), 15 * M_PI / 180 - 0.25 * k * h, 1e-15);
    assert_near(dw, 0.5 * k, 1e-9);
    assert_near(dock_slot_width(&p.geom, h, &dw), 0.5 * M_PI / 180 + k * h, 1e-15);
    assert_near(dw, k, 1e-9);
    double w0 = dock_slot_width(&p.geom, -2 * h, &dw), dw0 = dw, jump_w = 0, jump_dw = 0, err_dw = 0;
    const double du = 1e-7;
    for (double u = -2 * h + du; u <= L + 2 * h; u += du) {
        double w1 = dock_slot_width(&p.geom, u, &dw), dwc;
        double wp = dock_slot_width(&p.geom, u + 1e-9, &dwc), wm = dock_slot_width(&p.geom, u - 1e-9, &dwc);
        jump_w = fmax(jump_w, fabs(w1 - w0));
        jump_dw = fmax(jump_dw, fabs(dw - dw0));
        err_dw = fmax(err_dw, fabs((wp - wm) / 2e-9 - dw));
        w0 = w1, dw0 = dw;
    }
    assert_true(jump_w <= k * du * (1 + 1e-6));        /* Lipschitz with the faces' slope: no step */
    assert_true(jump_dw <= k * du / (2 * h) * 1.01);    /* the slope changes at most at the fillet's rate */
    assert_true(err_dw < 1e-5 * k);
}

static void tip_angle_correction(void **state)
{
    (void)state;
    /* A_HS turns the latch frame so that its axis makes the cantilever's tip angle 1.5 sin q with the housing
       (spec 001 §2.6): body 5 is at q4 about y, the latch axis at q4 + dq4 = 1.5 sin q4 */
    double q4 = 0.03, q5 = -0.02;
    mech_mat3 A = dock_probe_ahs(q4, 0, 1.5);
    mech_vec3 x = mech_mat3_apply(mech_mat3_mul(mech_mat3_rot(1, q4), A), (mech_vec3){1, 0, 0});
    assert_near(atan2(-x.z, x.x), 1.5 * sin(q4), 1e-12);
    A = dock_probe_ahs(0, q5, 1.5);
    x = mech_mat3_apply(mech_mat3_mul(mech_mat3_rot(2, q5), A), (mech_vec3){1, 0, 0});
    assert_near(atan2(x.y, x.x), 1.5 * sin(q5), 1e-12);
    /* a rotation (the printed -sin b would not be) */
    A = dock_probe_ahs(0.1, 0.2, 1.5);
    assert_near(mech_mat3_det(A), 1, 1e-12);
}

static void variant_b_geometry(void **state)
{
    (void)state;
    mech_dock_params a, b;
    rp1(&a, MECH_DOCK_A);
    rp1(&b, MECH_DOCK_B);
    /* UJ lower by the documented offset, the head and the limiter where they were relative to the docking plane */
    assert_true(b.geom.uj_behind_plane > a.geom.uj_behind_plane + 0.1);
    double head_a = a.geom.housing_length + a.geom.probe_length - a.geom.uj_behind_plane;
    double head_b = b.geom.housing_length + b.geom.probe_length - b.geom.uj_behind_plane;
    assert_near(head_a, 1.05, 1e-12);   /* RP-1 §2.3: head centre 1.05 m ahead of the active plane */
    assert_near(head_b, head_a, 1e-12);
    assert_near(b.geom.limiter_x0 - b.geom.uj_behind_plane, a.geom.limiter_x0 - a.geom.uj_behind_plane, 1e-12);
    /* the parallel-axis shift of the housing inertia */
    double c0 = a.mass.housing_com.x, c1 = b.mass.housing_com.x;
    assert_near(b.mass.housing_inertia.y - a.mass.housing_inertia.y, 25 * (c1 * c1 - c0 * c0), 1e-12);
    hy_err e;
    assert_int_equal(mech_dock_params_check(&a, &e), HY_OK);
    assert_int_equal(mech_dock_params_check(&b, &e), HY_OK);
}

static void initial_placement(void **state)
{
    (void)state;
    /* S1 starts at the first contact: the head centre where the detent's rise begins; with a gap, that much
       further out along the approach */
    for (int k = 0; k < 2; k++) {
        mech_dock_params p;
        rp1(&p, MECH_DOCK_A);
        p.init.gap = k ? 0.055 : 0;
        mech_dock_model *m;
        mech_dock_sim *s;
        hy_err e;
        assert_int_equal(mech_dock_model_new(&p, &m, &e), HY_OK);
        assert_int_equal(mech_dock_sim_new(m, &s, &e), HY_OK);
        const double *c = mech_dock_sim_channels(s);
        assert_near(c[MECH_DOCK_CH_HEAD_X], m->g.stop_x + 0.5 * m->g.detent_ramp + p.init.gap, 1e-8);
        assert_near(c[MECH_DOCK_CH_REL_VX], 0.15, 1e-12);
        assert_near(c[MECH_DOCK_CH_REL_X], c[MECH_DOCK_CH_HEAD_X] + 1.05, 1e-12);
        mech_dock_pose_view v;
        mech_dock_sim_view(s, &v);
        assert_near(v.head.x, c[MECH_DOCK_CH_HEAD_X], 1e-12);
        assert_near(v.active_axis.x, -1, 1e-12);
        assert_near(v.uj.x - v.active_port.x, p.geom.uj_behind_plane, 1e-9);
        mech_dock_sim_free(s);
        mech_dock_model_free(m);
    }
    /* a lateral offset: the first contact is on the cone wall, with the head touching it (depth ~ 0) */
    mech_dock_params p;
    rp1(&p, MECH_DOCK_A);
    p.init.offset.y = 0.10;
    mech_dock_model *m;
    mech_dock_sim *s;
    hy_err e;
    assert_int_equal(mech_dock_model_new(&p, &m, &e), HY_OK);
    assert_int_equal(mech_dock_sim_new(m, &s, &e), HY_OK);
    mech_dock_pose_view v;
    mech_dock_sim_view(s, &v);
    /* head centre at distance r_head from the cone wall: (r_h(x) - rho) cos(alpha) = r_head */
    double a = p.geom.half_angle, rw = p.geom.rim_radius + v.head.x * tan(a), rho = hypot(v.head.y, v.head.z);
    assert_near((rw - rho) * cos(a), p.geom.head_radius, 1e-7);
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
}

/* the limiter pads against the rim circle: the housing placed (aligned, base frame turned by pi about y) so that
   the rim plane cuts the frustum 4 cm from its larger base, where its radius is 0.16 m, with the axis offset so that
   the frustum reaches 1 mm past the rim on one side: exactly the pad facing that side touches, ~1 mm deep measured
   along the frustum's normal (generatrix at 32 deg) */
static void limiter_pads(void **state)
{
    (void)state;
    mech_dock_params p;
    rp1(&p, MECH_DOCK_A);
    mech_dock_model *m;
    hy_err e;
    assert_int_equal(mech_dock_model_new(&p, &m, &e), HY_OK);
    const mech_contact_model *cm = m->set[DOCK_SET_LIMITER];
    assert_non_null(cm);
    assert_int_equal(cm->npair, 4);
    mech_contact_data *cd = mech_contact_data_new(cm);
    const mech_dock_geometry *g = &p.geom;
    double r_cut = g->limiter_r0 + (g->limiter_r1 - g->limiter_r0) * 0.04 / (g->limiter_x1 - g->limiter_x0);
    for (int side = 0; side < 4; side++) {
        double az = 0.5 * M_PI * side, off = g->rim_radius - r_cut + 0.001;
        mech_mat3 R = mech_mat3_diag(-1, 1, -1);   /* housing x = -x of the cone frame */
        mech_vec3 base = {0.04, off * cos(az), off * sin(az)};   /* larger base centre, cone frame */
        mech_contact_body b[DOCK_NCB];
        memset(b, 0, sizeof b);
        for (int k = 0; k < DOCK_NCB; k++)
            b[k].rot = mech_mat3_identity();
        b[DOCK_CB_HOUSING].rot = R;
        b[DOCK_CB_HOUSING].pos = mech_vec3_add(base, (mech_vec3){g->limiter_x0, 0, 0});
        b[DOCK_CB_PASSIVE].pos = m->passive_com;
        mech_contact_eval(cm, cd, b);
        int touching = 0, which = -1;
        for (int i = 0; i < 4; i++)
            if (cd->geom[i].depth > 0)
                touching++, which = i;
        assert_int_equal(touching, 1);
        /* cone azimuth az is housing azimuth -az (z flipped): pad (4 - side) % 4 */
        assert_int_equal(which, (4 - side) % 4);
        double depth = cd->geom[which].depth;
        if (!(depth > 0.0006 && depth < 0.0011))
            print_message("side %d: depth %g\n", side, depth);
        assert_true(depth > 0.0006 && depth < 0.0011);
        mech_contact_reset(cm, cd);
    }
    mech_contact_data_free(cd);
    mech_dock_model_free(m);
}

static void channel_tables(void **state)
{
    (void)state;
    for (int i = 0; i < MECH_DOCK_NCH; i++) {
        const char *n = mech_dock_channel_name(i);
        assert_non_null(n);
        assert_non_null(mech_dock_channel_unit(i));
        assert_int_equal(mech_dock_channel_find(n), i);   /* unique */
        for (const char *c = n; *c; c++)
            assert_true((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_');
    }
    assert_null(mech_dock_channel_name(MECH_DOCK_NCH));
    assert_null(mech_dock_channel_name(-1));
    assert_int_equal(mech_dock_channel_find("nope"), -1);
    assert_int_equal(mech_dock_channel_find("head_fx"), MECH_DOCK_CH_HEAD_FX);
    assert_int_equal(mech_dock_channel_find("e_residual"), MECH_DOCK_CH_E_RESIDUAL);
    assert_string_equal(mech_dock_channel_unit(MECH_DOCK_CH_BASE_MX), "N m");
    for (int i = 0; i < MECH_DOCK_NEL; i++) {
        assert_non_null(mech_dock_element_name(i));
        assert_non_null(mech_dock_element_unit_q(i));
        assert_non_null(mech_dock_element_unit_Q(i));
    }
    assert_string_equal(mech_dock_element_unit_Q(MECH_DOCK_EL_TORSION), "N m");
    assert_null(mech_dock_element_name(MECH_DOCK_NEL));
}

static void expect_refused(mech_dock_params *p, const char *key)
{
    hy_err e;
    mech_dock_model *m = NULL;
    int rc = mech_dock_model_new(p, &m, &e);
    if (rc == HY_OK)
        print_message("not refused: %s\n", key);
    assert_int_not_equal(rc, HY_OK);
    assert_null(m);
    if (strncmp(e.msg, key, strlen(key)) != 0)
        print_message("expected '%s...', got '%s'\n", key, e.msg);
    assert_int_equal(strncmp(e.msg, key, strlen(key)), 0);
    assert_null(strchr(e.msg, '\n'));
}

static void bad_params(void **state)
{
    (void)state;
    mech_dock_params p;
#define BAD(stmt, key) do { rp1(&p, MECH_DOCK_A); stmt; expect_refused(&p, key); } while (0)
    BAD(p.geom.half_angle = 0, "geometry.half_angle:");
    BAD(p.geom.half_angle = NAN, "geometry.half_angle:");
    BAD(p.geom.socket_radius = 0.5, "geometry.socket_radius:");
    BAD(p.geom.head_radius = 0.06, "geometry.head_radius:");
    BAD(p.geom.bottom_depth = 0.05, "geometry.bottom_depth:");
    BAD(p.geom.latch_radius = 0.04, "geometry.latch_radius:");
    BAD(p.geom.limiter_x1 = 0.3, "geometry.limiter_x1:");
    BAD(p.active.mass = -1, "active.mass:");
    BAD(p.passive.inertia.x = 1e9, "passive.inertia:");
    BAD(p.mass.probe_inertia.y = 0.1, "mass.probe_inertia:");
    BAD(p.contact.head_cone.e = 0, "contact.head_cone.e:");
    BAD(p.contact.limiter_rim.mu_s = 0.01, "contact.limiter_rim.mu_s:");
    BAD(p.probe.bending.model = NULL, "probe.bending:");
    BAD(p.probe.torsion.q_scale = 0, "probe.torsion.q_scale:");
    BAD(p.probe.bending.model = &laws[0], "probe.bending:");   /* a friction-kind table */
    BAD(p.axial.stroke_limit = 0.6, "axial.stroke_limit:");
    BAD(p.init.offset.y = 0.5, "initial.offset:");
    BAD(p.init.angles.y = 1.0, "initial.angles:");
    BAD(p.h = 0.1, "step:");
    BAD(p.capture_timeout = 0, "capture_timeout:");
#undef BAD
    /* a start that already penetrates, refused by mech_dock_sim_new naming the case */
    rp1(&p, MECH_DOCK_A);
    p.init.closing_speed = 0.01;
    p.init.velocity.y = 0.2;   /* nearly sideways: no approach along the axis */
    mech_dock_model *m;
    mech_dock_sim *s = NULL;
    hy_err e;
    assert_int_equal(mech_dock_model_new(&p, &m, &e), HY_OK);
    assert_int_equal(mech_dock_sim_new(m, &s, &e), HY_EMODEL);
    assert_non_null(strstr(e.msg, "initial.closing_speed"));
    assert_null(s);
    mech_dock_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(geometry_closed_forms),
        cmocka_unit_test(detent_and_slots),
        cmocka_unit_test(tip_angle_correction),
        cmocka_unit_test(variant_b_geometry),
        cmocka_unit_test(initial_placement),
        cmocka_unit_test(limiter_pads),
        cmocka_unit_test(channel_tables),
        cmocka_unit_test(bad_params),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

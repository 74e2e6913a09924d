/* Contact geometry (mech/contact.h): every primitive pair against hand-computed depth, point and normal, with the
 * degenerate positions (centre on the axis, at the rim edge where wall and edge meet, exactly tangent, beyond the
 * ends), the pair table in both orders, invariance under a rigid motion of the whole scene, and the limiter's
 * edge search against brute-force sampling of the edge. Numbers are chosen with 3-4-5 triangles so the hand
 * values are exact: the cone and frusta below have tan(half-angle) = 3/4 (sin 0.6, cos 0.8). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "mech/contact.h"
#include "contact/contact_internal.h"

static void near(double a, double b, double tol)
{
    if (!(fabs(a - b) <= tol)) fail_msg("%.17g != %.17g (tol %g)", a, b, tol);
}
static void vnear(mech_vec3 a, mech_vec3 b, double tol)
{
    near(a.x, b.x, tol);
    near(a.y, b.y, tol);
    near(a.z, b.z, tol);
}
static mech_contact_pose at(double x, double y, double z) { return mech_contact_pose_make(mech_vec3_make(x, y, z), mech_mat3_identity()); }
static mech_vec3 V(double x, double y, double z) { return mech_vec3_make(x, y, z); }

static void sphere_sphere(void **state)
{
    (void)state;
    mech_contact_shape a = mech_contact_sphere(0.3), b = mech_contact_sphere(0.5);
    mech_contact_pose pa = at(0.36, 0.48, 0), pb = at(0, 0, 0);
    mech_contact_geom g;
    assert_int_equal(mech_contact_sphere_sphere(&a, &pa, &b, &pb, &g), 1);
    near(g.depth, 0.2, 1e-15);
    vnear(g.normal, V(0.6, 0.8, 0), 1e-15);
    vnear(g.point, V(0.24, 0.32, 0), 1e-15); /* midway between B's surface 0.5 n and A's deepest point 0.3 n */
    pa = at(0.8, 0, 0); /* touching exactly: r_a + r_b = 0.8 */
    assert_int_equal(mech_contact_sphere_sphere(&a, &pa, &b, &pb, &g), 0);
    assert_true(g.depth == 0.0);
}

static void sphere_on_disc_socket_bottom(void **state)
{
    (void)state;
    mech_contact_shape head = mech_contact_sphere(0.045), bottom = mech_contact_disc(0.05);
    mech_contact_pose pb = at(-0.72, 0, 0), pa = at(-0.68, 0.01, -0.02);
    mech_contact_geom g;
    assert_int_equal(mech_contact_sphere_plane(&head, &pa, &bottom, &pb, &g), 1);
    near(g.depth, 0.005, 1e-15);
    vnear(g.normal, V(1, 0, 0), 0);
    vnear(g.point, V(-0.7225, 0.01, -0.02), 1e-15);
    assert_int_equal(g.feature, MECH_CONTACT_FEAT_FACE);
    /* centre projected beyond the disc radius: no contact, whatever the depth */
    pa = at(-0.70, 0.06, 0);
    assert_int_equal(mech_contact_sphere_plane(&head, &pa, &bottom, &pb, &g), 0);
    assert_true(isinf(g.depth) && g.depth < 0);
    assert_int_equal(g.feature, MECH_CONTACT_FEAT_NONE);
    /* exactly tangent (binary-exact numbers): depth 0, not in contact */
    mech_contact_shape ball = mech_contact_sphere(0.25), disc = mech_contact_disc(1.0);
    mech_contact_pose pd = at(-1, 0, 0), ps = at(-0.75, 0.5, 0);
    assert_int_equal(mech_contact_sphere_plane(&ball, &ps, &disc, &pd, &g), 0);
    assert_true(g.depth == 0.0);
    /* a disc facing world +z (local x turned onto z by -90 degrees about y) */
    pd = mech_contact_pose_make(V(0, 0, 1), mech_mat3_rot(1, -M_PI / 2));
    ps = at(0.1, 0.2, 1.2);
    assert_int_equal(mech_contact_sphere_plane(&ball, &ps, &disc, &pd, &g), 1);
    near(g.depth, 0.05, 1e-15);
    vnear(g.normal, V(0, 0, 1), 1e-15);
    vnear(g.point, V(0.1, 0.2, 0.975), 1e-15);
}

static void point_on_stop_face(void **state)
{
    (void)state;
    mech_contact_shape latch = mech_contact_point(), stop = mech_contact_plane(0.02, 0.03);
    mech_contact_pose pb = at(0, 0, 0), pa = at(-0.003, 0.01, 0.02);
    mech_contact_geom g;
    assert_int_equal(mech_contact_sphere_plane(&latch, &pa, &stop, &pb, &g), 1);
    near(g.depth, 0.003, 1e-18);
    vnear(g.point, V(-0.0015, 0.01, 0.02), 1e-18);
    pa = at(-0.003, 0.025, 0.0); /* beyond half_y */
    assert_int_equal(mech_contact_sphere_plane(&latch, &pa, &stop, &pb, &g), 0);
    assert_int_equal(g.feature, MECH_CONTACT_FEAT_NONE);
    pa = at(0.004, 0.0, 0.0); /* in front of the face: gap 0.004 */
    assert_int_equal(mech_contact_sphere_plane(&latch, &pa, &stop, &pb, &g), 0);
    near(g.depth, -0.004, 1e-18);
    /* pusher on an unbounded docking plane, through the pair table in both orders */
    mech_contact_shape dock = mech_contact_plane(0, 0);
    pa = at(-0.01, 7.0, -9.0);
    assert_int_equal(mech_contact_collide(&latch, &pa, &dock, &pb, &g), 1);
    near(g.depth, 0.01, 1e-18);
    vnear(g.normal, V(1, 0, 0), 0);
    mech_contact_geom h;
    assert_int_equal(mech_contact_collide(&dock, &pb, &latch, &pa, &h), 1);
    near(h.depth, g.depth, 0);
    vnear(h.normal, V(-1, 0, 0), 0);
    vnear(h.point, g.point, 0);
}

static void sphere_in_bore_socket_wall(void **state)
{
    (void)state;
    mech_contact_shape head = mech_contact_sphere(0.045), bore = mech_contact_bore(0.05, 0.11);
    mech_contact_pose pb = at(0, 0, 0), pa = at(0.05, 0.01, 0);
    mech_contact_geom g;
    assert_int_equal(mech_contact_sphere_frustum(&head, &pa, &bore, &pb, &g), 1);
    near(g.depth, 0.005, 1e-15);
    vnear(g.normal, V(0, -1, 0), 1e-15);
    vnear(g.point, V(0.05, 0.0525, 0), 1e-15);
    assert_int_equal(g.feature, MECH_CONTACT_FEAT_WALL);
    /* oblique radial direction (0, 0.6, -0.8) */
    pa = at(0.02, 0.006, -0.008);
    assert_int_equal(mech_contact_sphere_frustum(&head, &pa, &bore, &pb, &g), 1);
    near(g.depth, 0.005, 1e-15);
    vnear(g.normal, V(0, -0.6, 0.8), 1e-15);
    /* centre on the axis: a ring; the +y point is reported */
    pa = at(0.05, 0, 0);
    assert_int_equal(mech_contact_sphere_frustum(&head, &pa, &bore, &pb, &g), 0);
    near(g.depth, -0.005, 1e-15);
    mech_contact_shape big = mech_contact_sphere(0.06);
    assert_int_equal(mech_contact_sphere_frustum(&big, &pa, &bore, &pb, &g), 1);
    near(g.depth, 0.01, 1e-15);
    vnear(g.normal, V(0, -1, 0), 0);
    vnear(g.point, V(0.05, 0.055, 0), 1e-15);
    /* beyond either open end: no contact */
    pa = at(0.111, 0.04, 0);
    assert_int_equal(mech_contact_sphere_frustum(&head, &pa, &bore, &pb, &g), 0);
    assert_int_equal(g.feature, MECH_CONTACT_FEAT_NONE);
    pa = at(-0.001, 0.04, 0);
    assert_int_equal(mech_contact_sphere_frustum(&head, &pa, &bore, &pb, &g), 0);
    assert_int_equal(g.feature, MECH_CONTACT_FEAT_NONE);
    /* exactly tangent */
    mech_contact_shape ball = mech_contact_sphere(0.25), wide = mech_contact_bore(0.5, 1.0);
    pa = at(0.5, 0.25, 0);
    assert_int_equal(mech_contact_sphere_frustum(&ball, &pa, &wide, &pb, &g), 0);
    assert_true(g.depth == 0.0);
}

/* solid cone r0 = 0.3 at x = 0 to the apex at x = 0.4: generatrix (0.8, -0.6), outward normal (0.6, 0.8) */
static void roller_on_cone(void **state)
{
    (void)state;
    mech_contact_shape roller = mech_contact_sphere(0.1);
    mech_contact_shape solid = mech_contact_frustum(0.3, 0.0, 0.4, MECH_CONTACT_OUTSIDE);
    mech_contact_pose pb = at(0, 0, 0);
    /* foot at (0.2, 0.15) on the generatrix, centre 0.09 along the normal, radial direction (0, 0.6, 0.8) */
    mech_contact_pose pa = at(0.254, 0.222 * 0.6, 0.222 * 0.8);
    mech_contact_geom g;
    assert_int_equal(mech_contact_sphere_frustum(&roller, &pa, &solid, &pb, &g), 1);
    near(g.depth, 0.01, 1e-15);
    vnear(g.normal, V(0.6, 0.48, 0.64), 1e-15);
    vnear(g.point, V(0.2 - 0.003, 0.15 * 0.6 - 0.004 * 0.6, 0.15 * 0.8 - 0.004 * 0.8), 1e-15);
    /* the same roller inside the hollow cone of that shape: centre 0.09 inside */
    mech_contact_shape hollow = mech_contact_frustum(0.3, 0.0, 0.4, MECH_CONTACT_INSIDE);
    pa = at(0.2 - 0.054, 0.0, 0.15 - 0.072);
    assert_int_equal(mech_contact_sphere_frustum(&roller, &pa, &hollow, &pb, &g), 1);
    near(g.depth, 0.01, 1e-15);
    vnear(g.normal, V(-0.6, 0, -0.8), 1e-15);
    /* exactly tangent (to round-off of the 3-4-5 arithmetic) */
    pa = at(0.2 + 0.06, 0.0, 0.15 + 0.08);
    mech_contact_geom t;
    mech_contact_sphere_frustum(&roller, &pa, &solid, &pb, &t);
    near(t.depth, 0.0, 1e-16);
}

/* hollow cone: rim radius 0.4 at x = 0, tan(half-angle) = 3/4, depth 0.4 (throat radius 0.1). Generatrix from
 * P0 = (-0.4, 0.1) to P1 = (0, 0.4), direction (0.8, 0.6), length 0.5, inward normal (0.6, -0.8) */
static mech_contact_shape test_cone(void) { return mech_contact_cone(0.4, atan(0.75), 0.4); }

static void sphere_in_cone_wall(void **state)
{
    (void)state;
    mech_contact_shape cone = test_cone(), head = mech_contact_sphere(0.05);
    mech_contact_pose pb = at(0, 0, 0), pa = at(-0.176, 0.0, -0.218); /* e_r = -z */
    mech_contact_geom g;
    assert_int_equal(mech_contact_sphere_cone(&head, &pa, &cone, &pb, &g), 1);
    near(g.depth, 0.01, 1e-15);
    vnear(g.normal, V(0.6, 0, 0.8), 1e-15);
    vnear(g.point, V(-0.2 - 0.003, 0, -0.25 - 0.004), 1e-15);
    assert_int_equal(g.feature, MECH_CONTACT_FEAT_WALL);
    /* centre on the axis, 0.2 from the wall: a ring; the +y point */
    mech_contact_shape big = mech_contact_sphere(0.25);
    pa = at(-0.2, 0, 0);
    assert_int_equal(mech_contact_sphere_cone(&big, &pa, &cone, &pb, &g), 1);
    near(g.depth, 0.05, 1e-15);
    vnear(g.normal, V(0.6, -0.8, 0), 1e-15);
    vnear(g.point, V(-0.32 - 0.015, 0.16 + 0.02, 0), 1e-15);
    /* deeper than the throat plane: the socket's primitives take over */
    pa = at(-0.5, 0.05, 0);
    assert_int_equal(mech_contact_sphere_cone(&head, &pa, &cone, &pb, &g), 0);
    assert_int_equal(g.feature, MECH_CONTACT_FEAT_NONE);
    /* the throat edge (0.1 radius at x = -0.4), seen from inside a convex edge: centre 0.05 from it along
     * (0.28, -0.96), between the wall normal (0.6, -0.8) and the bore's (0, -1) */
    mech_contact_shape h6 = mech_contact_sphere(0.06);
    pa = at(-0.386, 0.052, 0);
    assert_int_equal(mech_contact_sphere_cone(&h6, &pa, &cone, &pb, &g), 1);
    assert_int_equal(g.feature, MECH_CONTACT_FEAT_EDGE);
    near(g.depth, 0.01, 1e-15);
    vnear(g.normal, V(0.28, -0.96, 0), 1e-14);
    vnear(g.point, V(-0.4 - 0.005 * 0.28, 0.1 + 0.005 * 0.96, 0), 1e-15);
    /* continuous with the wall where they meet (centre on the wall normal through the throat point) */
    mech_vec3 c1 = V(-0.4 + 0.05 * 0.6, 0.1 - 0.05 * 0.8, 0), tg = V(0.8, 0.6, 0);
    for (int sgn = -1; sgn <= 1; sgn += 2) {
        pa = mech_contact_pose_make(mech_vec3_axpy(c1, sgn * 1e-9, tg), mech_mat3_identity());
        assert_int_equal(mech_contact_sphere_cone(&h6, &pa, &cone, &pb, &g), 1);
        assert_int_equal(g.feature, sgn < 0 ? MECH_CONTACT_FEAT_EDGE : MECH_CONTACT_FEAT_WALL);
        near(g.depth, 0.01, 1e-12);
        vnear(g.normal, V(0.6, -0.8, 0), 1e-7);
    }
    /* and with the bore below it: at the throat plane the edge distance is the radial gap r_throat - ρ */
    pa = at(-0.4, 0.07, 0);
    assert_int_equal(mech_contact_sphere_cone(&h6, &pa, &cone, &pb, &g), 1);
    near(g.depth, 0.06 - 0.03, 1e-15);
    vnear(g.normal, V(0, -1, 0), 1e-15);
    /* tangent to the wall */
    mech_contact_shape small = mech_contact_sphere(0.04);
    pa = at(-0.176, 0.218, 0);
    assert_int_equal(mech_contact_sphere_cone(&small, &pa, &cone, &pb, &g), 0);
    near(g.depth, 0.0, 1e-16);
}

static void sphere_at_cone_rim(void **state)
{
    (void)state;
    mech_contact_shape cone = test_cone(), head = mech_contact_sphere(0.06);
    mech_contact_pose pb = at(0, 0, 0), pa = at(0.04, 0.37, 0); /* w = (0.04, -0.03) from the rim point (0, 0.4) */
    mech_contact_geom g;
    assert_int_equal(mech_contact_sphere_cone(&head, &pa, &cone, &pb, &g), 1);
    assert_int_equal(g.feature, MECH_CONTACT_FEAT_EDGE);
    near(g.depth, 0.01, 1e-15);
    vnear(g.normal, V(0.8, -0.6, 0), 1e-15);
    vnear(g.point, V(-0.004, 0.4 + 0.003, 0), 1e-15);
    /* where wall and edge meet: the centre on the rim point's wall normal, 0.05 away. Both sides of the
     * boundary give the same depth and normal (the wall and the torus are tangent there) */
    mech_vec3 c0 = V(0.03, 0.36, 0), tg = V(0.8, 0.6, 0);
    pa = mech_contact_pose_make(c0, mech_mat3_identity());
    mech_contact_sphere_cone(&head, &pa, &cone, &pb, &g);
    near(g.depth, 0.01, 1e-15);
    vnear(g.normal, V(0.6, -0.8, 0), 1e-15);
    for (int s = -1; s <= 1; s += 2) {
        mech_contact_geom h;
        pa.pos = mech_vec3_axpy(c0, s * 1e-9, tg);
        assert_int_equal(mech_contact_sphere_cone(&head, &pa, &cone, &pb, &h), 1);
        assert_int_equal(h.feature, s < 0 ? MECH_CONTACT_FEAT_WALL : MECH_CONTACT_FEAT_EDGE);
        near(h.depth, g.depth, 1e-12);
        vnear(h.normal, g.normal, 1e-7); /* the edge normal turns by 1e-9 / 0.05 */
        vnear(h.point, g.point, 1e-8);
    }
    /* centre exactly on the rim circle: depth = radius, normal the bisector of the wall normal and +x */
    pa = at(0, 0, 0.4);
    assert_int_equal(mech_contact_sphere_cone(&head, &pa, &cone, &pb, &g), 1);
    near(g.depth, 0.06, 1e-15);
    vnear(g.normal, mech_vec3_normalize(V(1.6, 0, -0.8)), 1e-15);
    /* outside the rim radius, in front of the entry face: the face is another primitive */
    pa = at(0.02, 0.45, 0);
    assert_int_equal(mech_contact_sphere_cone(&head, &pa, &cone, &pb, &g), 0);
    assert_int_equal(g.feature, MECH_CONTACT_FEAT_NONE);
    /* exactly tangent to the edge: centre 0.06 from the rim point along (0.8, -0.6) */
    pa = at(0.048, 0.364, 0);
    mech_contact_sphere_cone(&head, &pa, &cone, &pb, &g);
    near(g.depth, 0.0, 1e-16);
}

static void sphere_on_circle_edge(void **state)
{
    (void)state;
    mech_contact_shape rim = mech_contact_circle(0.4), head = mech_contact_sphere(0.06);
    mech_contact_pose pb = at(0, 0, 0), pa = at(0.03, 0.0, 0.36);
    mech_contact_geom g;
    assert_int_equal(mech_contact_sphere_circle(&head, &pa, &rim, &pb, &g), 1);
    near(g.depth, 0.01, 1e-15);
    vnear(g.normal, V(0.6, 0, -0.8), 1e-15);
    /* on the axis: every rim point at distance 0.5; the +y point */
    mech_contact_shape big = mech_contact_sphere(0.6);
    pa = at(0.3, 0, 0);
    assert_int_equal(mech_contact_sphere_circle(&big, &pa, &rim, &pb, &g), 1);
    near(g.depth, 0.1, 1e-15);
    vnear(g.normal, V(0.6, -0.8, 0), 1e-15);
    vnear(g.point, V(-0.03, 0.4 + 0.04, 0), 1e-15);
}

/* limiter: solid frustum r0 = 0.3 at x = 0 to the apex at x = 0.4 (A); rim circle (B) */
static void limiter_on_rim(void **state)
{
    (void)state;
    mech_contact_shape lim = mech_contact_frustum(0.3, 0.0, 0.4, MECH_CONTACT_OUTSIDE), rim = mech_contact_circle(0.14);
    mech_contact_pose pa = at(0, 0, 0), pb = at(0.2, 0, 0);
    mech_contact_geom g;
    /* coaxial ring: the surface radius at x = 0.2 is 0.15; every edge point is 0.008 deep; B's +y point */
    assert_int_equal(mech_contact_frustum_circle(&lim, &pa, &rim, &pb, &g), 1);
    near(g.depth, 0.008, 1e-15);
    vnear(g.normal, V(-0.6, -0.8, 0), 1e-15);
    vnear(g.point, V(0.2 + 0.0024, 0.14 + 0.0032, 0), 1e-15);
    /* off-axis edge: radius 0.19, centre 0.05 off the axis towards -(0, cos 0.3, sin 0.3): the deepest point is
     * at angle 0.3, between the coarse samples, radius 0.14 */
    mech_contact_shape rim2 = mech_contact_circle(0.19);
    mech_vec3 er = V(0, cos(0.3), sin(0.3));
    pb = mech_contact_pose_make(mech_vec3_axpy(V(0.2, 0, 0), -0.05, er), mech_mat3_identity());
    assert_int_equal(mech_contact_frustum_circle(&lim, &pa, &rim2, &pb, &g), 1);
    near(g.depth, 0.008, 1e-13);
    vnear(g.normal, mech_vec3_axpy(V(-0.6, 0, 0), -0.8, er), 1e-7);
    vnear(g.point, mech_vec3_axpy(V(0.2024, 0, 0), 0.1432, er), 1e-7);
    /* the pair table in the swapped order flips the normal only */
    mech_contact_geom h;
    assert_int_equal(mech_contact_collide(&rim2, &pb, &lim, &pa, &h), 1);
    near(h.depth, g.depth, 0);
    vnear(h.normal, mech_vec3_neg(g.normal), 0);
    vnear(h.point, g.point, 0);
    /* an edge in front of the surface: the gap */
    pb = at(0.45, 0, 0);
    assert_int_equal(mech_contact_frustum_circle(&lim, &pa, &rim, &pb, &g), 0);
    near(g.depth, -0.142, 1e-15);
    /* an edge beyond the apex end of the frustum (past the end's normal): no contact */
    mech_contact_shape rim4 = mech_contact_circle(0.05);
    pb = at(0.6, 0, 0);
    assert_int_equal(mech_contact_frustum_circle(&lim, &pa, &rim4, &pb, &g), 0);
    assert_int_equal(g.feature, MECH_CONTACT_FEAT_NONE);
    /* edge exactly on the surface (coaxial, radius 0.15 at x = 0.2) */
    mech_contact_shape rim3 = mech_contact_circle(0.15);
    pb = at(0.2, 0, 0);
    mech_contact_frustum_circle(&lim, &pa, &rim3, &pb, &g);
    near(g.depth, 0.0, 1e-15);   /* every point of the ring is at zero to a few ulps of 0.15 m: which is reported
                                    depends on the samples' rounding */
}

/* limiter pads: three 0.6 rad pads at 0, 120° and 240° on the same solid cone around a coaxial rim edge share the
 * ring contact symmetrically (the lateral forces cancel); a pad facing away from a shifted edge has only a gap */
static void limiter_pads_share_a_coaxial_ring(void **state)
{
    (void)state;
    mech_contact_shape full = mech_contact_frustum(0.3, 0.0, 0.4, MECH_CONTACT_OUTSIDE), rim = mech_contact_circle(0.14);
    mech_contact_pose pa = at(0, 0, 0), pb = at(0.2, 0, 0);
    mech_vec3 sum = V(0, 0, 0);
    for (int k = 0; k < 3; k++) {
        double mid = 2 * M_PI * k / 3;
        mech_contact_shape pad = mech_contact_frustum_sector(full, mid, 0.3);
        mech_contact_geom g;
        assert_int_equal(mech_contact_frustum_circle(&pad, &pa, &rim, &pb, &g), 1);
        near(g.depth, 0.008, 1e-15);
        mech_vec3 b = V(0, cos(mid), sin(mid));
        vnear(g.normal, mech_vec3_axpy(V(-0.6, 0, 0), -0.8, b), 1e-12);
        vnear(g.point, mech_vec3_axpy(V(0.2024, 0, 0), 0.1432, b), 1e-12);
        sum = mech_vec3_add(sum, g.normal);
    }
    vnear(sum, V(-1.8, 0, 0), 1e-12);
    /* edge shifted towards -y: deep on the +y side, a gap of 0.09 cos β on the -y side */
    mech_contact_shape rim2 = mech_contact_circle(0.19);
    mech_contact_pose pb2 = at(0.2, -0.05, 0);
    mech_contact_geom g;
    mech_contact_shape up = mech_contact_frustum_sector(full, 0.0, 0.3), down = mech_contact_frustum_sector(full, M_PI, 0.3);
    assert_int_equal(mech_contact_frustum_circle(&up, &pa, &rim2, &pb2, &g), 1);
    near(g.depth, 0.008, 1e-12);
    assert_int_equal(mech_contact_frustum_circle(&down, &pa, &rim2, &pb2, &g), 0);
    /* the gap of an edge that may reach the pad's solid is the solid's depth (each point's nearest face) at the
       deepest of its 64 samples: within R h / 2 of the maximum and never above it. The maximum by 200 000 samples;
       the wall alone gives -0.09 cos beta at the pad's middle, where the ends and sides are farther */
    double dmax = -INFINITY;
    for (int k = 0; k < 200000; k++) {
        double th = 2 * M_PI * k / 200000.0;
        mech_vec3 q = V(0.2, -0.05 + 0.19 * cos(th), 0.19 * sin(th));
        double rho = hypot(q.y, q.z), d = -(0.6 * q.x + 0.8 * (rho - 0.3));
        d = fmin(d, fmin(q.x, 0.4 - q.x));
        d = fmin(d, rho * sin(0.3 - fabs(remainder(atan2(q.z, q.y) - M_PI, 2 * M_PI))));
        dmax = fmax(dmax, d);
    }
    assert_true(dmax > -(0.24 - 0.15) * 0.8 && dmax < 0);
    assert_true(g.depth <= dmax + 3e-6);   /* half the samples' arc spacing (6e-6 m): the depth is 1-Lipschitz */
    print_message("pad facing away: gap %.9f m, solid's maximum %.9f m, wall at the middle %.3f m\n", g.depth, dmax,
                  -(0.24 - 0.15) * 0.8);
    assert_true(g.depth >= dmax - 0.19 * (2 * M_PI / 64) / 2);
    /* a roller on a pad of the cone: inside the pad at azimuth atan2(0.8, 0.6), nothing outside it */
    mech_contact_shape roller = mech_contact_sphere(0.1);
    mech_contact_pose pr = at(0.254, 0.222 * 0.6, 0.222 * 0.8);
    mech_contact_shape on = mech_contact_frustum_sector(full, atan2(0.8, 0.6), 0.1), off = mech_contact_frustum_sector(full, 0.0, 0.1);
    assert_int_equal(mech_contact_sphere_frustum(&roller, &pr, &on, &pa, &g), 1);
    near(g.depth, 0.01, 1e-15);
    assert_int_equal(mech_contact_sphere_frustum(&roller, &pr, &off, &pa, &g), 0);
    assert_int_equal(g.feature, MECH_CONTACT_FEAT_NONE);
    hy_err err;
    mech_contact_shape bad = mech_contact_frustum_sector(full, 0.0, NAN);
    assert_int_equal(mech_contact_shape_check(&bad, "pad", &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "pad: frustum sector"));
}

/* the pad is a solid: an edge that arrives across its front face (the smaller base, towards the edge's side)
 * inside the smaller radius penetrates by its distance past that face, not by its depth below the wall (the
 * movable limiter meeting the cone rim head-on, docs/dock-process.md §8.5). C's pad: r 0.28 -> 0.23 over 0.08 m,
 * +-30 deg; a coaxial rim of radius 0.20 moved along the axis through the front plane: no contact in front, then a
 * depth equal to the distance past the plane (continuous from zero), normal along the axis, feature FACE; the
 * same on the back face; and a rim on the wall mid-pad still gets the wall's depth. */
static void pad_end_faces(void **state)
{
    (void)state;
    mech_contact_shape pad = mech_contact_frustum_sector(mech_contact_frustum(0.28, 0.28 - 0.08 * tan(32 * M_PI / 180),
                                                                               0.08, MECH_CONTACT_OUTSIDE), 0.0, M_PI / 6);
    mech_contact_shape rim = mech_contact_circle(0.20);
    mech_contact_pose pa = at(0, 0, 0);
    mech_contact_geom g;
    double prev = -1;
    for (int k = -10; k <= 10; k++) {
        double delta = 1e-4 * k;   /* past the front plane */
        mech_contact_pose pb = at(0.08 - delta, 0, 0);
        int c = mech_contact_frustum_circle(&pad, &pa, &rim, &pb, &g);
        if (delta <= 0) {
            assert_int_equal(c, 0);
            continue;
        }
        assert_int_equal(c, 1);
        near(g.depth, delta, 1e-12);
        assert_int_equal(g.feature, MECH_CONTACT_FEAT_FACE);
        vnear(g.normal, V(-1, 0, 0), 1e-12);   /* pushes the pad back, along -x */
        near(g.point.x, 0.08 - 0.5 * delta, 1e-12);
        if (prev >= 0)
            assert_true(fabs(g.depth - prev) <= 1e-4 + 1e-12);   /* no jump (the wall depth here is 3 cm) */
        prev = g.depth;
    }
    /* tilted: the lowest point of the rim is the deepest past the face, at the pad's mid azimuth */
    mech_contact_pose pt = mech_contact_pose_make(V(0.08 + 0.19 * sin(0.01) - 0.002, 0, 0), mech_mat3_rot(2, 0.01));
    assert_int_equal(mech_contact_frustum_circle(&pad, &pa, &rim, &pt, &g), 1);
    near(g.depth, 0.002 - 0.19 * sin(0.01) + 0.20 * sin(0.01), 1e-9);
    /* the back face: a rim of radius 0.20 just behind the larger base, inside it */
    mech_contact_pose pbk = at(0.0005, 0, 0);
    assert_int_equal(mech_contact_frustum_circle(&pad, &pa, &rim, &pbk, &g), 1);
    near(g.depth, 0.0005, 1e-12);
    vnear(g.normal, V(1, 0, 0), 1e-12);
    /* on the wall mid-pad: the wall's depth, as before */
    mech_contact_shape rim2 = mech_contact_circle(0.28 - 0.04 * tan(32 * M_PI / 180) - 0.001);
    mech_contact_pose pm = at(0.04, 0, 0);
    assert_int_equal(mech_contact_frustum_circle(&pad, &pa, &rim2, &pm, &g), 1);
    near(g.depth, 0.001 * cos(32 * M_PI / 180), 1e-12);
    assert_int_equal(g.feature, MECH_CONTACT_FEAT_WALL);
}

/* second method: the deepest edge point by dense sampling (200 000 points) for tilted, shifted edges, its depth the
 * distance to the solid's nearest face (the wall or an end plane: some of these edges are deep enough to be nearer
 * an end) */
/* the limiter of limiter_search_matches_brute_force (r 0.185 -> 0.135 over 0.08 m, a whole ring): the solid's
 * depth of the rim point at angle th, its distance to the nearest face, the wall or an end */
static double limiter_ring_depth(const mech_contact_pose *pb, double th)
{
    mech_vec3 q = mech_vec3_add(pb->pos, mech_mat3_apply(pb->rot, V(0, 0.2 * cos(th), 0.2 * sin(th))));
    double u = q.x, rho = hypot(q.y, q.z);
    double L = hypot(0.08, 0.05), tu = 0.08 / L, tr = -0.05 / L;   /* generatrix (0.08, -0.05) normalised */
    double d = -(u * (-tr) + (rho - 0.185) * tu);
    return fmin(d, fmin(u, 0.08 - u));
}

static void limiter_search_matches_brute_force(void **state)
{
    (void)state;
    mech_contact_shape lim = mech_contact_frustum(0.185, 0.135, 0.08, MECH_CONTACT_OUTSIDE), rim = mech_contact_circle(0.2);
    double tilts[] = {0.02, 0.08, 0.15}, shifts[] = {0.01, 0.03, 0.05};
    int nface = 0, ncontact = 0;
    enum { NS = 200000 };
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            mech_mat3 R = mech_mat3_mul(mech_mat3_rot(2, tilts[a]), mech_mat3_rot(0, 0.7 * a + 0.2));
            mech_contact_pose pa = at(0, 0, 0), pb = mech_contact_pose_make(V(0.04, -shifts[b], 0.3 * shifts[b]), R);
            mech_contact_geom g;
            if (mech_contact_frustum_circle(&lim, &pa, &rim, &pb, &g) < 0) fail();
            /* 200 000 samples, then every sample at least as deep as its neighbours refined by ternary search
               between them: a maximum on a kink (wall depth = end distance) is approached by the samples from
               below only to their spacing (~4e-7 m here), and two maxima closer than that can swap */
            const double h = 2 * M_PI / NS;
            double best = -INFINITY, tbest = 0, dm = limiter_ring_depth(&pb, -h), d0 = limiter_ring_depth(&pb, 0);
            for (int k = 0; k < NS; k++) {
                double dp = limiter_ring_depth(&pb, (k + 1) * h);
                if (d0 >= dm && d0 >= dp && d0 > best - 1e-6) {
                    double lo = (k - 1) * h, hi = (k + 1) * h;
                    for (int it = 0; it < 200 && hi - lo > 1e-14; it++) {
                        double x1 = lo + (hi - lo) / 3, x2 = hi - (hi - lo) / 3;
                        if (limiter_ring_depth(&pb, x1) < limiter_ring_depth(&pb, x2))
                            lo = x1;
                        else
                            hi = x2;
                    }
                    double t = 0.5 * (lo + hi), dt = limiter_ring_depth(&pb, t);
                    if (d0 > dt)
                        t = k * h, dt = d0;
                    if (dt > best)
                        best = dt, tbest = t;
                }
                dm = d0, d0 = dp;
            }
            /* an end at the deepest point: as near as the wall (a kink, either face by round-off) or nearer */
            mech_vec3 q = mech_vec3_add(pb.pos, mech_mat3_apply(R, V(0, 0.2 * cos(tbest), 0.2 * sin(tbest))));
            if (fmin(q.x, 0.08 - q.x) < best + 1e-9)
                nface++;
            if (best > 0) {
                ncontact++;
                near(g.depth, best, 1e-9);
            } else {
                /* apart: the solid's deepest sample, within R h / 2 of the maximum (64 samples h apart, the depth
                   1-Lipschitz in the point) and never above it */
                const double bound = 0.2 * (2 * M_PI / 64) / 2;
                assert_true(g.depth <= best + 1e-12);
                assert_true(g.depth >= best - bound);
            }
        }
    print_message("limiter ring: %d of 9 rims touch, %d deepest where an end is as near as the wall or nearer\n",
                  ncontact, nface);
    assert_true(nface > 0);      /* the solid's ends matter in some of these */
    assert_true(ncontact >= 4);  /* and most touch (5 of 9) */
}

/* the wall-first path of a full frustum (frustum_circle_search), on two long frusta, bench_contact's cone (r 0.3 -> 0
 * over 0.4 m) and a slight taper (r 0.3 -> 0.25 over 0.4 m, where a deep rim can be nearer an end than the wall and
 * a point inside near an end can have its foot past it): rims from 0.03 m inside the frustum's radius at their place
 * to 0.04 m outside it, tilted up to 0.2 rad, shifted off the axis up to 0.08 m, placed from near the back end to
 * near the front, cold and warm-started. The same contact flag and the same depth, normal, point, feature and
 * gradient deficit to the bit as the search with the solid first (which the brute-force tests above check), on rims
 * where the path decides (counted: the edge clear of both ends by more than r |n_u n_rho| and the wall's depth less
 * than that clearance) and on the others, which it hands over to the solid; and the deepest point against 200 000
 * samples of the solid's depth for some of them. It fails without either condition (checked). */
typedef struct long_frustum {
    double r0, r1, len, nu, nrho;   /* the outward wall normal in the meridian (n_u, n_rho) */
} long_frustum;

static double long_frustum_depth(const long_frustum *f, const mech_contact_pose *pb, double r, double th)
{
    mech_vec3 q = mech_vec3_add(pb->pos, mech_mat3_apply(pb->rot, V(0, r * cos(th), r * sin(th))));
    double rho = hypot(q.y, q.z), d = (f->r0 + (f->r1 - f->r0) * q.x / f->len - rho) * f->nrho;
    return fmin(d, fmin(q.x, f->len - q.x));
}

static void long_frustum_wall_first_same_bits(void **state)
{
    (void)state;
    int decided = 0, contacts = 0, handed = 0, n = 0, sampled = 0;
    for (int fi = 0; fi < 2; fi++) {
        long_frustum f = {0.3, fi ? 0.25 : 0.0, 0.4, 0, 0};
        double gl = hypot(f.len, f.r1 - f.r0);
        f.nu = (f.r0 - f.r1) / gl, f.nrho = f.len / gl;
        mech_contact_shape fr = mech_contact_frustum(f.r0, f.r1, f.len, MECH_CONTACT_OUTSIDE);
        const double foot = f.r0 * f.nu * f.nrho;   /* r_max |n_u n_rho| */
        const double xs[7] = {0.015, 0.06, 0.17, 0.19, 0.21, 0.33, 0.37}, dr[5] = {-0.03, -0.01, 0.005, 0.02, 0.04};
        for (int i = 0; i < 5; i++)
            for (int j = 0; j < 7; j++)
                for (int k = 0; k < 4; k++) {
                    double x = xs[j], r = f.r0 + (f.r1 - f.r0) * x / f.len + dr[i], tilt = -0.2 + 0.13 * k;
                    double shift = 0.02 * (1 + (i + j + k) % 4);
                    if (r < 0.05) continue;
                    mech_mat3 R = mech_mat3_mul(mech_mat3_rot(0, 0.9 * j + 0.4 * k), mech_mat3_rot(2, tilt));
                    mech_contact_shape rim = mech_contact_circle(r);
                    mech_contact_pose pa = at(0, 0, 0), pb = mech_contact_pose_make(V(x, shift, -0.5 * shift), R);
                    mech_contact_geom g1, g2;
                    double th = 0.0;
                    int c1 = mech_contact_frustum_circle(&fr, &pa, &rim, &pb, &g1);
                    int c2 = contact_frustum_circle_solid_first(&fr, &pa, &rim, &pb, NULL, &g2);
                    assert_int_equal(c1, c2);
                    n++;
                    double ux = r * hypot(R.m[0][1], R.m[0][2]), clear = fmin(x - ux, f.len - x - ux);
                    if (c1 <= 0) {
                        near(g1.depth, g2.depth, 0.0);   /* the solid's gap either way */
                        continue;
                    }
                    contacts++;
                    assert_memory_equal(&g1.depth, &g2.depth, sizeof g1.depth);
                    assert_memory_equal(&g1.normal, &g2.normal, sizeof g1.normal);
                    assert_memory_equal(&g1.point, &g2.point, sizeof g1.point);
                    assert_int_equal(g1.feature, g2.feature);
                    assert_memory_equal(&g1.grad_deficit, &g2.grad_deficit, sizeof g1.grad_deficit);
                    if (clear > foot && g1.depth < clear)
                        decided++;
                    else
                        handed++;
                    /* warm-started from the angle found, after a small move of the rim */
                    mech_contact_geom g3, g4;
                    mech_contact_pose pw = mech_contact_pose_make(mech_vec3_add(pb.pos, V(1e-4, -2e-4, 1e-4)), R);
                    assert_int_equal(contact_frustum_circle_warm(&fr, &pa, &rim, &pb, NULL, &th, &g3), 1);
                    int c3 = contact_frustum_circle_warm(&fr, &pa, &rim, &pw, &th, NULL, &g3);
                    int c4 = contact_frustum_circle_solid_first(&fr, &pa, &rim, &pw, &th, &g4);
                    assert_int_equal(c3, c4);
                    if (c3 > 0) {
                        assert_memory_equal(&g3.depth, &g4.depth, sizeof g3.depth);
                        assert_memory_equal(&g3.normal, &g4.normal, sizeof g3.normal);
                        assert_memory_equal(&g3.point, &g4.point, sizeof g3.point);
                    }
                    if (contacts % 17 == 1) {   /* some of them against dense sampling */
                        enum { NS = 200000 };
                        double best = -INFINITY, tb = 0;
                        for (int s2 = 0; s2 < NS; s2++) {
                            double d = long_frustum_depth(&f, &pb, r, 2 * M_PI * s2 / NS);
                            if (d > best) best = d, tb = 2 * M_PI * s2 / NS;
                        }
                        double lo = tb - 2 * M_PI / NS, hi = tb + 2 * M_PI / NS;
                        for (int it = 0; it < 100; it++) {
                            double x1 = lo + (hi - lo) / 3, x2 = hi - (hi - lo) / 3;
                            if (long_frustum_depth(&f, &pb, r, x1) < long_frustum_depth(&f, &pb, r, x2))
                                lo = x1;
                            else
                                hi = x2;
                        }
                        near(g1.depth, fmax(best, long_frustum_depth(&f, &pb, r, 0.5 * (lo + hi))), 1e-9);
                        sampled++;
                    }
                }
    }
    /* and 20 000 random frusta (r 0.3 -> 0.05 .. 0.29 over 0.1 .. 0.4 m) with rims in their front 30 %, from 0.3 to
       1.1 times the local radius, tilted up to 0.3 rad and shifted up to 0.1 m: where a point inside near the
       smaller end has its foot past it (without the foot bound, 0.4 % of the contacts differ) */
    unsigned long long lcg = 12345;
#define UNIFORM() ((lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL), (double)(lcg >> 11) / 9007199254740992.0)
    int random_contacts = 0;
    for (int it = 0; it < 20000; it++) {
        double r1 = 0.05 + 0.24 * UNIFORM(), len = 0.1 + 0.3 * UNIFORM(), x = len * (0.7 + 0.3 * UNIFORM());
        double r = (0.3 + (r1 - 0.3) * x / len) * (0.3 + 0.8 * UNIFORM()), tilt = 0.6 * (UNIFORM() - 0.5);
        double sh = 0.1 * UNIFORM(), turn = 2 * M_PI * UNIFORM();
        mech_contact_shape fr = mech_contact_frustum(0.3, r1, len, MECH_CONTACT_OUTSIDE), rim = mech_contact_circle(r);
        mech_contact_pose pa = at(0, 0, 0);
        mech_contact_pose pb = mech_contact_pose_make(V(x, sh, 0), mech_mat3_mul(mech_mat3_rot(0, turn), mech_mat3_rot(2, tilt)));
        mech_contact_geom g1, g2;
        int c1 = mech_contact_frustum_circle(&fr, &pa, &rim, &pb, &g1);
        int c2 = contact_frustum_circle_solid_first(&fr, &pa, &rim, &pb, NULL, &g2);
        assert_int_equal(c1, c2);
        assert_memory_equal(&g1.depth, &g2.depth, sizeof g1.depth);
        if (c1 > 0) {
            random_contacts++;
            assert_memory_equal(&g1.normal, &g2.normal, sizeof g1.normal);
            assert_memory_equal(&g1.point, &g2.point, sizeof g1.point);
        }
    }
#undef UNIFORM
    print_message("long frusta: %d rims, %d touch: %d decided by the wall first, %d handed to the solid; %d sampled; "
                  "random frusta: %d of 20000 touch\n", n, contacts, decided, handed, sampled, random_contacts);
    assert_true(random_contacts > 10000);
    assert_true(decided >= 20);   /* the path is taken */
    assert_true(handed >= 20);    /* and rims near an end or deep go to the solid */
    assert_true(sampled >= 5);
}

/* C's pad (RP-1's limiter: r 0.28 -> 0.23 over 0.08 m, the generatrix at 32 deg; +-30 deg about azimuth 0.3): the
 * shape, its dimensions and its generatrix's unit direction (tu, tr) in the meridian plane */
typedef struct c_pad_geom {
    mech_contact_shape shape;
    double r0, len, r1, mid, half, tu, tr;
} c_pad_geom;

static c_pad_geom c_pad_geometry(void)
{
    c_pad_geom g = {.r0 = 0.28, .len = 0.08, .mid = 0.3, .half = M_PI / 6};
    g.r1 = g.r0 - g.len * tan(32 * M_PI / 180);
    g.shape = mech_contact_frustum_sector(mech_contact_frustum(g.r0, g.r1, g.len, MECH_CONTACT_OUTSIDE), g.mid, g.half);
    double L = hypot(g.len, g.r1 - g.r0);
    g.tu = g.len / L, g.tr = (g.r1 - g.r0) / L;
    return g;
}

/* second method for a pad (a frustum sector, C's r 0.28 -> 0.23 over 0.08 m, +-30 deg about azimuth 0.3): rims that
 * arrive across its front face, its sides and its wall, tilted and shifted; the depth against dense sampling of
 * the solid's depth, each point's distance to the nearest face: the wall, an end, or a side plane through the axis
 * (rho sin(half - |azimuth - mid|), with the library's atan2 here). The search's bound says "no contact" only where
 * no sample is inside. */
static void pad_solid_matches_brute_force(void **state)
{
    (void)state;
    const c_pad_geom P = c_pad_geometry();
    const double r0 = P.r0, len = P.len, mid = P.mid, half = P.half, tu = P.tu, tr = P.tr;
    mech_contact_shape pad = P.shape;
    struct { double R, x, y, z, tilt, spin; } cases[] = {
        {0.20, 0.078, 0.00, 0.00, 0.00, 0.0},   /* coaxial, just past the front face: a ring at one depth */
        {0.20, 0.070, 0.02, 0.01, 0.05, 0.4},   /* across the front face, tilted */
        {0.22, 0.060, -0.03, 0.05, 0.10, 1.1},
        {0.25, 0.030, 0.01, -0.02, 0.03, 2.0},  /* on the wall mid-pad */
        {0.24, 0.050, 0.06, 0.02, 0.20, 0.3},   /* shifted across: some points past a side */
        {0.26, 0.010, -0.05, -0.04, 0.15, 2.7},
        {0.21, 0.075, 0.10, 0.05, 0.08, 1.7},
        {0.20, 0.120, 0.00, 0.00, 0.02, 0.0},   /* in front of the pad: no contact */
    };
    int nface = 0, nnone = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mech_mat3 R = mech_mat3_mul(mech_mat3_rot(2, cases[i].tilt), mech_mat3_rot(0, cases[i].spin));
        mech_contact_pose pa = at(0, 0, 0), pb = mech_contact_pose_make(V(cases[i].x, cases[i].y, cases[i].z), R);
        mech_contact_shape rim = mech_contact_circle(cases[i].R);
        mech_contact_geom g;
        int c = mech_contact_frustum_circle(&pad, &pa, &rim, &pb, &g);
        double best = -INFINITY;
        for (int k = 0; k < 200000; k++) {
            double th = 2 * M_PI * k / 200000.0;
            mech_vec3 q = mech_vec3_add(pb.pos, mech_mat3_apply(R, V(0, cases[i].R * cos(th), cases[i].R * sin(th))));
            double u = q.x, rho = hypot(q.y, q.z);
            double d = -(u * (-tr) + (rho - r0) * tu);   /* below the wall (the free side is outward) */
            d = fmin(d, fmin(u, len - u));
            double dphi = fabs(remainder(atan2(q.z, q.y) - mid, 2 * M_PI));
            d = fmin(d, rho * sin(half - dphi));
            if (d > best) best = d;
        }
        if (!(best > 0)) {
            assert_int_equal(c, 0);
            nnone++;
            continue;
        }
        assert_int_equal(c, 1);
        /* the maximum may sit on a kink between two faces, where the samples (1.3e-6 m of edge apart) approach it
           from below only to their spacing */
        assert_true(g.depth >= best - 1e-12);
        assert_true(g.depth - best < 2e-6);
        nface += g.feature == MECH_CONTACT_FEAT_FACE;
    }
    assert_true(nface >= 2);
    assert_true(nnone >= 1);
}

/* A pad whose deepest point is a strict maximum on its wall, away from its ends and sides, takes the solid search's
 * answer without the wall search after it (frustum_circle_search). Two second methods: (1) the edge angle where the
 * wall depth's derivative changes sign, by bisection in long double, to which the answer's angle must be within
 * 1e-12 rad and its depth 1e-12 m; (2) the same rim against the whole frustum the pad is cut from, whose answer is
 * the wall search's (Newton on the wall distance, which stops ~1e-8 rad short of the maximum): the same depth to
 * 1e-12 m, normal and point to 1e-7. 300 rims pressed on the wall from the side (C's pad, the rim of the short cone),
 * 0.1 - 5 mm deep, tilted up to 0.1 rad, their deepest point anywhere across the middle 80 % of the pad. */
static void pad_wall_answer_is_the_wall_search(void **state)
{
    (void)state;
    const c_pad_geom P = c_pad_geometry();
    mech_contact_shape full = mech_contact_frustum(P.r0, P.r1, P.len, MECH_CONTACT_OUTSIDE);
    unsigned long long seed = 12345;
    int compared = 0;
    for (int i = 0; i < 300; i++) {
        double u[6];
        for (int k = 0; k < 6; k++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            u[k] = (double)(seed >> 11) / 9007199254740992.0;
        }
        double R = 0.30 + 0.1 * u[0], x = 0.015 + 0.05 * u[1], phi = P.mid + 0.8 * P.half * (2 * u[2] - 1);
        double delta = 1e-4 + 4.9e-3 * u[3], tilt = 0.1 * u[4], spin = 2 * M_PI * u[5];
        double rwall = P.r0 + (P.r1 - P.r0) * x / P.len, off = R - (rwall - delta);
        mech_mat3 Rot = mech_mat3_mul(mech_mat3_rot(2, tilt), mech_mat3_rot(0, spin));
        mech_contact_pose pa = at(0, 0, 0), pb = mech_contact_pose_make(V(x, -off * cos(phi), -off * sin(phi)), Rot);
        mech_contact_shape rim = mech_contact_circle(R);
        mech_contact_geom gp, gf;
        double thp, thf;
        int cp = contact_frustum_circle_warm(&P.shape, &pa, &rim, &pb, NULL, &thp, &gp);
        int cf = contact_frustum_circle_warm(&full, &pa, &rim, &pb, NULL, &thf, &gf);
        if (!(cp == 1 && cf == 1 && gp.feature == MECH_CONTACT_FEAT_WALL && gp.grad_deficit == 0.0 &&
              gf.feature == MECH_CONTACT_FEAT_WALL))
            continue;
        /* (1) the wall depth -(u tr' ...) = (u - 0) tr - (rho - r0) tu along the edge q(θ) = c + R (e1 cos θ + e2 sin θ):
           its derivative's sign change about the wall search's angle */
        mech_vec3 e1 = mech_mat3_col(Rot, 1), e2 = mech_mat3_col(Rot, 2), c = pb.pos;
        long double lo = (long double)thf - 1e-3L, hi = (long double)thf + 1e-3L, th = 0, depth = 0;
        for (int it = 0; it < 200; it++) {
            th = 0.5L * (lo + hi);
            long double cs = cosl(th), sn = sinl(th);
            long double qx = c.x + R * (e1.x * cs + e2.x * sn), qy = c.y + R * (e1.y * cs + e2.y * sn),
                        qz = c.z + R * (e1.z * cs + e2.z * sn);
            long double dqx = R * (e2.x * cs - e1.x * sn), dqy = R * (e2.y * cs - e1.y * sn),
                        dqz = R * (e2.z * cs - e1.z * sn);
            long double rho = sqrtl(qy * qy + qz * qz);
            depth = qx * P.tr - (rho - P.r0) * P.tu;
            if (dqx * P.tr - (qy * dqy + qz * dqz) / rho * P.tu > 0) lo = th; else hi = th;
        }
        near(remainder(thp - (double)th, 2 * M_PI), 0.0, 1e-12);
        near(gp.depth, (double)depth, 1e-12);
        /* (2) the whole frustum's wall search */
        near(gp.depth, gf.depth, 1e-12);
        vnear(gp.normal, gf.normal, 1e-7);
        vnear(gp.point, gf.point, 1e-7);
        compared++;
    }
    print_message("pad wall contacts compared: %d of 300\n", compared);
    assert_true(compared >= 180);   /* 209 with this seed */
}

/* A rim clear of a pad whose nearest approach to the cone lies beyond the pad's side: the reported gap is the wall
 * distance of the nearest point within the pad, which sits on the side (the search steps onto the side in closed
 * form). Second method: the side crossing by bisection on the point's azimuth (the library's atan2 here), the wall
 * distance there; to 1e-10 m (halving towards the side stopped within ~1e-5 rad, a few um) */
static void pad_gap_on_its_side(void **state)
{
    (void)state;
    const c_pad_geom P = c_pad_geometry();
    const double r0 = P.r0, mid = P.mid, half = P.half, tu = P.tu, tr = P.tr;
    mech_contact_shape pad = P.shape;
    int checked = 0;
    for (int side = -1; side <= 1; side += 2)
        for (int k = 0; k < 4; k++) {
            /* the rim bulges towards azimuth mid + side (50 + 10 k deg) + 180: it comes nearest the axis at
               mid + side (50 + 10 k) deg, outside the +-30 deg pad */
            double away = mid + side * (50 + 10 * k) * M_PI / 180 + M_PI, shift = 0.012 + 0.002 * k;
            mech_mat3 R = mech_mat3_mul(mech_mat3_rot(2, 0.01 * k), mech_mat3_rot(0, 0.5 * k));
            mech_contact_pose pa = at(0, 0, 0),
                              pb = mech_contact_pose_make(V(0.03 + 0.005 * k, shift * cos(away), shift * sin(away)), R);
            mech_contact_shape rim = mech_contact_circle(0.30);
            mech_contact_geom g;
            assert_int_equal(mech_contact_frustum_circle(&pad, &pa, &rim, &pb, &g), 0);
            /* the edge point at θ, its azimuth from the pad's side, its wall distance */
#define EDGE(th) mech_vec3_add(pb.pos, mech_mat3_apply(R, V(0, 0.30 * cos(th), 0.30 * sin(th))))
            double lo = 0, hi = 0, best_in = INFINITY;
            int found = 0;
            for (int j = 0; j < 3600 && !found; j++) {
                /* a bracket of the side crossing next to the in-sector points' nearest approach */
                double t0 = 2 * M_PI * j / 3600, t1 = 2 * M_PI * (j + 1) / 3600;
                mech_vec3 q0 = EDGE(t0), q1 = EDGE(t1);
                double a0 = side * remainder(atan2(q0.z, q0.y) - mid, 2 * M_PI) - half;
                double a1 = side * remainder(atan2(q1.z, q1.y) - mid, 2 * M_PI) - half;
                if ((a0 <= 0) != (a1 <= 0) && fabs(a0 - a1) < 0.1)
                    lo = a0 <= 0 ? t0 : t1, hi = a0 <= 0 ? t1 : t0, found = 1;
            }
            assert_true(found);
            for (int it = 0; it < 200; it++) {
                double m = 0.5 * (lo + hi);
                mech_vec3 q = EDGE(m);
                if (side * remainder(atan2(q.z, q.y) - mid, 2 * M_PI) - half <= 0) lo = m; else hi = m;
            }
            mech_vec3 q = EDGE(lo);
#undef EDGE
            double f = q.x * (-tr) + (hypot(q.y, q.z) - r0) * tu;
            best_in = f;
            assert_true(best_in > 0);
            near(g.depth, -best_in, 1e-10);
            checked++;
        }
    assert_int_equal(checked, 8);
}

/* The pad's normal is the gradient of its depth. Where the deepest point of a rim sits on an edge of the solid (the
 * front face meeting the wall, a side meeting the wall), the depth is the max over the rim of the min of two faces'
 * distances and its gradient is a weighted sum of their normals, shorter than 1 (mech_contact_geom.grad_deficit).
 * Second method: central differences of the library's own depth with the rim moved by +-1e-6 m along x, y, z; the
 * contact's force direction (1 - grad_deficit) n must match them. Rims placed at random (fixed seed) about C's pad's
 * front edge (r 0.23 at x 0.08): on the front face, on the wall and on the edges between them and the sides. */
static double pad_depth_at(const mech_contact_shape *pad, const mech_contact_shape *rim, mech_contact_pose pb)
{
    mech_contact_pose pa = at(0, 0, 0);
    mech_contact_geom g;
    mech_contact_frustum_circle(pad, &pa, rim, &pb, &g);
    return g.depth;
}
static double unit_rand(unsigned long long *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0;
}
typedef struct { double R; mech_vec3 c; mech_mat3 rot; } rim_place;
static rim_place rim_near_front_edge(unsigned long long *s)
{
    rim_place p;
    p.R = 0.215 + 0.02 * unit_rand(s);
    /* one draw per declarator: the order of a call's arguments is unspecified (GCC and Clang differ) */
    double cx = unit_rand(s), cy = unit_rand(s), cz = unit_rand(s), tilt = unit_rand(s), turn = unit_rand(s);
    p.c = V(0.074 + 0.006 * cx, 0.02 * (cy - 0.5), 0.02 * (cz - 0.5));
    p.rot = mech_mat3_mul(mech_mat3_rot(2, 0.1 * tilt), mech_mat3_rot(0, 2 * M_PI * turn));
    return p;
}
// a rim across the pad's front face tilted about the radial line at one of its sides (azimuth 0.3 +- pi/6), so
// that it reaches deepest there: its deepest point on the edge between the front face and that side
static rim_place rim_near_side_edge(unsigned long long *s)
{
    rim_place p;
    double side = unit_rand(s) < 0.5 ? -1 : 1, in = unit_rand(s);   /* one draw per declarator, as above */
    double phi = 0.3 + side * (M_PI / 6 - 0.05 * in);
    double lean = unit_rand(s) < 0.5 ? -1 : 1, amount = unit_rand(s);
    double tilt = lean * (0.005 + 0.03 * amount);
    p.R = 0.19 + 0.03 * unit_rand(s);
    double cx = unit_rand(s), cy = unit_rand(s), cz = unit_rand(s);
    p.c = V(0.0785 + 0.0014 * cx, 0.004 * (cy - 0.5), 0.004 * (cz - 0.5));
    p.rot = mech_mat3_mul(mech_mat3_rot(0, phi), mech_mat3_mul(mech_mat3_rot(2, tilt), mech_mat3_rot(0, -phi)));
    return p;
}
static mech_contact_shape c_pad(void)
{
    return c_pad_geometry().shape;
}
static void pad_normal_is_depth_gradient(void **state)
{
    (void)state;
    mech_contact_shape pad = c_pad();
    const double h = 1e-6;
    unsigned long long seed = 12345;
    int nedge = 0, nface = 0, nwall = 0, nside = 0;
    for (int i = 0; i < 800; i++) {
        rim_place p = i % 2 ? rim_near_side_edge(&seed) : rim_near_front_edge(&seed);
        mech_contact_shape rim = mech_contact_circle(p.R);
        mech_contact_pose pa = at(0, 0, 0), pb = mech_contact_pose_make(p.c, p.rot);
        mech_contact_geom g;
        if (mech_contact_frustum_circle(&pad, &pa, &rim, &pb, &g) != 1 || g.depth < 1e-5) continue;
        assert_true(g.grad_deficit >= 0.0 && g.grad_deficit < 1.0);
        /* moving the rim (B) along the force on A (the normal) takes it deeper */
        mech_vec3 grad = mech_vec3_scale(g.normal, 1.0 - g.grad_deficit), fd;
        double *fdc[3] = {&fd.x, &fd.y, &fd.z};
        for (int k = 0; k < 3; k++) {
            mech_vec3 e = V(k == 0, k == 1, k == 2);
            double dp = pad_depth_at(&pad, &rim, mech_contact_pose_make(mech_vec3_axpy(p.c, h, e), p.rot));
            double dm = pad_depth_at(&pad, &rim, mech_contact_pose_make(mech_vec3_axpy(p.c, -h, e), p.rot));
            *fdc[k] = (dp - dm) / (2 * h);
        }
        vnear(grad, fd, 2e-4);
        double phi = atan2(g.point.z, g.point.y), az = fabs(-sin(phi) * g.normal.y + cos(phi) * g.normal.z);
        nside += g.grad_deficit > 1e-3 && az > 1e-3;   /* a side and an end or the wall */
        if (g.grad_deficit > 1e-3) nedge++;
        else if (g.feature == MECH_CONTACT_FEAT_FACE) nface++;
        else nwall++;
    }
    print_message("pad gradient: %d on an edge (%d with a side), %d on a face, %d on the wall\n", nedge, nside, nface,
                  nwall);
    assert_true(nedge >= 10 && nside >= 10);   /* the edges are in the set, also the sides' */
    assert_true(nface >= 10 && nwall >= 10);
}

/* A rim pressed into the pad's front edge and moved across it in small steps: the force direction
 * (1 - grad_deficit) n turns gradually through every answer (face, edge, wall, side). Before the edge's normal was
 * the gradient it flipped by ~60 degrees where the front face's and the wall's distances tie; and while a side took
 * over from an end only when nearer by 1e-7 m, the depth jumped by that much where the bias ran out and the normal
 * flipped from the blend to the side's (the limiter in S3x-C chattered on its guides for 110 s on it). Sweeps along
 * the axis and across the pad (azimuthally, over its sides), and the depth 1-Lipschitz along each. */
static void pad_normal_continuous_over_front_edge(void **state)
{
    (void)state;
    mech_contact_shape pad = c_pad();
    unsigned long long seed = 777;
    int nedge = 0, nface = 0, nwall = 0, nside = 0, paths = 0;
    const double step = 0.5e-6;
    for (int i = 0; i < 2000 && paths < 12; i++) {
        rim_place p = i % 2 ? rim_near_side_edge(&seed) : rim_near_front_edge(&seed);
        mech_contact_shape rim = mech_contact_circle(p.R);
        mech_contact_pose pa = at(0, 0, 0), pb = mech_contact_pose_make(p.c, p.rot);
        mech_contact_geom g;
        if (mech_contact_frustum_circle(&pad, &pa, &rim, &pb, &g) != 1 || !(g.grad_deficit > 1e-3)) continue;
        /* from an edge answer, 1 mm either way along the axis (and a little out), then across the pad */
        mech_vec3 dir = paths % 2 ? V(0.0, -sin(0.3), cos(0.3))   /* azimuthal at the pad's bisector */
                                  : mech_vec3_normalize(V(1.0, 0.3 * cos(0.3), 0.3 * sin(0.3)));
        paths++;
        mech_vec3 prev = V(0, 0, 0);
        double dprev = 0;
        int have = 0;
        for (int k = -2000; k <= 2000; k++) {
            mech_contact_pose q = mech_contact_pose_make(mech_vec3_axpy(p.c, step * k, dir), p.rot);
            if (mech_contact_frustum_circle(&pad, &pa, &rim, &q, &g) != 1) {
                have = 0;
                continue;
            }
            mech_vec3 f = mech_vec3_scale(g.normal, 1.0 - g.grad_deficit);
            if (have && mech_vec3_norm(mech_vec3_sub(f, prev)) > 2e-2)
                fail_msg("path %d step %d: the force direction jumps by %g", paths, k, mech_vec3_norm(mech_vec3_sub(f, prev)));
            if (have && fabs(g.depth - dprev) > step * (1 + 1e-6) + 1e-12)
                fail_msg("path %d step %d: the depth jumps by %g", paths, k, g.depth - dprev);
            have = 1, prev = f, dprev = g.depth;
            /* a side's normal is azimuthal: its part along the azimuth at the contact point */
            double phi = atan2(g.point.z, g.point.y), az = fabs(-sin(phi) * g.normal.y + cos(phi) * g.normal.z);
            if (az > 1e-3) nside++;
            if (g.grad_deficit > 1e-3) nedge++;
            else if (g.feature == MECH_CONTACT_FEAT_FACE) nface++;
            else nwall++;
        }
    }
    print_message("pad sweeps: %d paths, %d points on an edge, %d on a face, %d on the wall, %d with a side's part\n",
                  paths, nedge, nface, nwall, nside);
    assert_int_equal(paths, 12);
    assert_true(nedge > 0 && nface + nwall > 0 && nside > 0);
}

/* The pair certificates (mech_contact_cert) change no answer. Rims placed about C's pad's front and side edges are
 * moved in 20 um steps from 8 mm in front of the place to 2 mm past it and back, turning by up to 0.03 rad about a
 * radial axis as they go; each step is searched with the last step's certificate (as the contact set does) and
 * without any, with the same warm start: the same contact flag, and in contact the same depth, normal, point and
 * angle to the bit (the coarse scan's shortcut evaluates the three samples the full scan would choose from); apart,
 * a skipped search reports a negative depth. Both shortcuts must be taken, in contact and apart: counted. */
static void pad_certificates_change_nothing(void **state)
{
    (void)state;
    mech_contact_shape pad = c_pad();
    unsigned long long seed = 4242;
    int kept_apart = 0, kept_touching = 0, touching = 0, apart = 0, kept_fine = 0, fine_renewed = 0,
        fine_renewed_kept = 0;
    for (int path = 0; path < 16; path++) {
        rim_place p = path % 2 ? rim_near_side_edge(&seed) : rim_near_front_edge(&seed);
        mech_contact_shape rim = mech_contact_circle(p.R);
        mech_contact_pose pa = at(0, 0, 0);
        double phi = 2 * M_PI * unit_rand(&seed);
        mech_vec3 axis = V(0, cos(phi), sin(phi));
        mech_contact_cert cert = {0};
        double th = 0, cs[2] = {1, 0};
        int was = 0;
        for (int k = 0; k <= 1000; k++) {
            double s = k <= 500 ? k / 500.0 : (1000 - k) / 500.0;
            /* about `axis` through the rim's centre */
            mech_mat3 turn = mech_quat_to_mat3(mech_quat_from_axis_angle(axis, 0.03 * sin(M_PI * s)));
            mech_contact_pose pb = mech_contact_pose_make(mech_vec3_add(p.c, V(0.008 - 0.010 * s, 0, 0)),
                                                          mech_mat3_mul(turn, p.rot));
            mech_contact_geom g0, g1;
            mech_contact_cert out0, out1;
            double th0 = 0, th1 = 0, cs0[2], cs1[2];
            const double *warm = was ? &th : NULL;
            int r0 = contact_frustum_circle_warm_cs(&pad, &pa, &rim, &pb, warm, cs, NULL, &out0, &th0, cs0, &g0);
            int r1 = contact_frustum_circle_warm_cs(&pad, &pa, &rim, &pb, warm, cs, &cert, &out1, &th1, cs1, &g1);
            assert_int_equal(r0, r1);
            int kept = k > 0 && memcmp(&out1.c, &cert.c, sizeof cert.c) == 0 && (cert.clear > 0 || cert.margin > 0);
            if (r1) {
                assert_true(g0.depth == g1.depth && th0 == th1 && g0.grad_deficit == g1.grad_deficit);
                assert_memory_equal(&g0.normal, &g1.normal, sizeof g0.normal);
                assert_memory_equal(&g0.point, &g1.point, sizeof g0.point);
                assert_true(out1.clear == 0);
                touching++, kept_touching += kept;
                kept_fine += kept && cert.fine_margin > 0;   /* its fine scan's certificate too */
                /* a fine certificate renewed by a search that kept the coarse one (its own, later edge), and one
                   such certificate kept by the next search (its three fine samples, not 17) */
                int renewed = memcmp(&out1.fc, &out1.c, sizeof out1.c) != 0;
                fine_renewed += renewed && memcmp(&out1.fc, &cert.fc, sizeof cert.fc) != 0;
                fine_renewed_kept += memcmp(&cert.fc, &cert.c, sizeof cert.c) != 0 &&
                                     memcmp(&out1.fc, &cert.fc, sizeof cert.fc) == 0;
                th = th1, cs[0] = cs1[0], cs[1] = cs1[1];
            } else {
                assert_true(g1.depth <= 0);
                apart++, kept_apart += kept;
            }
            was = r1;
            cert = out1;
        }
    }
    print_message("pad certificates: %d steps touching (%d on a kept certificate, %d with a fine scan's margin; %d "
                  "fine certificates renewed on a kept coarse one, %d of them kept), %d apart (%d)\n", touching,
                  kept_touching, kept_fine, fine_renewed, fine_renewed_kept, apart, kept_apart);
    assert_true(touching > 1000 && apart > 1000);
    assert_true(kept_fine > kept_touching / 2);
    assert_true(fine_renewed > 0 && fine_renewed_kept > 0);
    assert_true(kept_touching > touching / 4 && kept_apart > apart / 4);
}

/* a rigid motion of the whole scene moves the point and turns the normal; the depth does not change */
static void rigid_motion_invariance(void **state)
{
    (void)state;
    mech_mat3 Q = mech_mat3_mul(mech_mat3_rot(0, 0.4), mech_mat3_mul(mech_mat3_rot(1, -1.1), mech_mat3_rot(2, 2.3)));
    mech_vec3 T = V(3.0, -1.5, 0.25);
    struct { mech_contact_shape a, b; mech_contact_pose pa, pb; } cases[] = {
        {mech_contact_sphere(0.05), test_cone(), at(-0.176, 0.0, -0.218), at(0, 0, 0)},
        {mech_contact_sphere(0.06), test_cone(), at(0.04, 0.37, 0), at(0, 0, 0)},
        {mech_contact_sphere(0.045), mech_contact_bore(0.05, 0.11), at(0.05, 0.006, 0.008), at(0, 0, 0)},
        {mech_contact_sphere(0.045), mech_contact_disc(0.05), at(-0.68, 0.01, -0.02), at(-0.72, 0, 0)},
        {mech_contact_sphere(0.1), mech_contact_frustum(0.3, 0.0, 0.4, MECH_CONTACT_OUTSIDE), at(0.254, 0.1332, 0.1776), at(0, 0, 0)},
        {mech_contact_frustum(0.3, 0.0, 0.4, MECH_CONTACT_OUTSIDE), mech_contact_circle(0.19), at(0, 0, 0), at(0.2, -0.04, -0.03)},
        {mech_contact_sphere(0.06), mech_contact_circle(0.4), at(0.03, 0.0, 0.36), at(0, 0, 0)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mech_contact_geom g, h;
        int r = mech_contact_collide(&cases[i].a, &cases[i].pa, &cases[i].b, &cases[i].pb, &g);
        assert_int_equal(r, 1);
        mech_contact_pose qa = {mech_vec3_add(T, mech_mat3_apply(Q, cases[i].pa.pos)), mech_mat3_mul(Q, cases[i].pa.rot)};
        mech_contact_pose qb = {mech_vec3_add(T, mech_mat3_apply(Q, cases[i].pb.pos)), mech_mat3_mul(Q, cases[i].pb.rot)};
        assert_int_equal(mech_contact_collide(&cases[i].a, &qa, &cases[i].b, &qb, &h), 1);
        near(h.depth, g.depth, 1e-12);
        vnear(h.normal, mech_mat3_apply(Q, g.normal), 1e-9);
        vnear(h.point, mech_vec3_add(T, mech_mat3_apply(Q, g.point)), 1e-9);
        near(mech_vec3_norm(h.normal), 1.0, 1e-14);
    }
}

static void relative_velocity_parts(void **state)
{
    (void)state;
    mech_contact_geom g = {0.01, {0, 0, 0}, {0.6, 0.8, 0}, MECH_CONTACT_FEAT_FACE, 0.0};
    mech_contact_vel v = mech_contact_relvel(&g, V(1, 2, 3), V(0.5, 0, 1));
    near(v.vn, 1.9, 1e-15);
    vnear(v.vt, V(-0.64, 0.48, 2.0), 1e-15);
    near(mech_vec3_dot(v.vt, g.normal), 0.0, 1e-15);
}

static void table_and_shape_checks(void **state)
{
    (void)state;
    assert_true(mech_contact_pair_supported(MECH_CONTACT_CONE, MECH_CONTACT_SPHERE));
    assert_true(mech_contact_pair_supported(MECH_CONTACT_CIRCLE, MECH_CONTACT_FRUSTUM));
    assert_false(mech_contact_pair_supported(MECH_CONTACT_PLANE, MECH_CONTACT_CONE));
    mech_contact_shape p = mech_contact_plane(0, 0), c = test_cone();
    mech_contact_pose o = at(0, 0, 0);
    mech_contact_geom g;
    assert_int_equal(mech_contact_collide(&p, &o, &c, &o, &g), -1);
    assert_int_equal(g.feature, MECH_CONTACT_FEAT_NONE);
    hy_err err;
    mech_contact_shape bad = mech_contact_cone(0.4, atan(0.75), 0.6); /* throat radius < 0 */
    assert_int_equal(mech_contact_shape_check(&bad, "cone", &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "cone: cone depth = 0.6"));
    bad = mech_contact_frustum(0.1, 0.1, 0.0, MECH_CONTACT_INSIDE);
    assert_int_equal(mech_contact_shape_check(&bad, "bore", &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "length"));
    bad = mech_contact_sphere(NAN);
    assert_int_equal(mech_contact_shape_check(&bad, "head", &err), HY_EMODEL);
    assert_int_equal(mech_contact_shape_check(&c, "cone", &err), HY_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sphere_sphere),
        cmocka_unit_test(sphere_on_disc_socket_bottom),
        cmocka_unit_test(point_on_stop_face),
        cmocka_unit_test(sphere_in_bore_socket_wall),
        cmocka_unit_test(roller_on_cone),
        cmocka_unit_test(sphere_in_cone_wall),
        cmocka_unit_test(sphere_at_cone_rim),
        cmocka_unit_test(sphere_on_circle_edge),
        cmocka_unit_test(limiter_on_rim),
        cmocka_unit_test(limiter_pads_share_a_coaxial_ring),
        cmocka_unit_test(limiter_search_matches_brute_force),
        cmocka_unit_test(long_frustum_wall_first_same_bits),
        cmocka_unit_test(pad_end_faces),
        cmocka_unit_test(pad_solid_matches_brute_force),
        cmocka_unit_test(pad_wall_answer_is_the_wall_search),
        cmocka_unit_test(pad_gap_on_its_side),
        cmocka_unit_test(pad_normal_is_depth_gradient),
        cmocka_unit_test(pad_normal_continuous_over_front_edge),
        cmocka_unit_test(pad_certificates_change_nothing),
        cmocka_unit_test(rigid_motion_invariance),
        cmocka_unit_test(relative_velocity_parts),
        cmocka_unit_test(table_and_shape_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

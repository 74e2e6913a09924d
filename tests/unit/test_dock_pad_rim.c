/* Variant C's limiter pads at the cone's rim corner (dock_proc.c, dock_pad_bears; docs/dock-process.md §8.5 "The pads
 * at the rim corner"). A pad point is a 5 mm sphere on the pad's larger-base edge; the rim circle is also the
 * capture-phase set DOCK_SET_LIMITER's (the pad's solid frustum against the rim circle). Checked in closed form on the
 * movable limiter of RP-1's S1-400-C (fixtures/mech/dock/s1-400-C.json), the limiter placed coaxially with the cone
 * so that pad 0's middle point has its sphere centre at a chosen axial height u above the rim plane and radial
 * distance R - w from the cone axis, everything at rest:
 *  - the rim edge bears: u = 3 mm, w = 3.5 mm is in the edge's region (u cos 30 > w sin 30) and outside the pad's
 *    solid (w > 5 mm - u tan 32): depth 5 mm - sqrt(u^2 + w^2), force k/3 times that along (u, -w)/|.| in the
 *    meridian plane (the edge normal), on the limiter and opposite on the passive vehicle; before this change the
 *    edge bore nothing;
 *  - one owner for the corner: u = 2 mm, w = 1 mm is in the edge's region and inside the pad's solid (2 mm in front of
 *    its larger base): the frustum pair and the point's sphere both reach the rim, and the force of both sets summed
 *    equals the frustum pair's alone (without the owner the sphere would add its 2.76 mm: shown too); u = 1 mm,
 *    w = 2 mm, the sphere's nearest feature the wall just below the rim, the same;
 *  - the rule's cases one by one: a point down the wall bears while its pad's pair touches the rim, the throat edge
 *    never, a gated-off set (NULL) leaves the point to bear. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mech/dock.h"
#include "dock/dock_sim_internal.h"

#define assert_near(a, b, tol) assert_near_((a), (b), (tol), #a, __LINE__)
static void assert_near_(double a, double b, double tol, const char *what, int line)
{
    if (!(fabs(a - b) <= tol))
        print_message("line %d: %s = %.17g, expected %.17g within %g\n", line, what, a, b, tol);
    assert_true(fabs(a - b) <= tol);
}

static const char *fixtures(void)
{
    const char *fx = getenv("FIXTURES");
    return fx && fx[0] ? fx : "fixtures";
}

typedef struct fx {
    mech_dock_config   c;
    mech_dock_model   *m;
    mech_dock_sim     *s;
    mech_contact_pose  pc;   /* the cone shape's pose (x = 0 the rim plane, -x into the cone) */
    mech_mat3          Hrot;
} fx;

static void open_fx(fx *f)
{
    char path[512];
    snprintf(path, sizeof path, "%s/mech/dock/s1-400-C.json", fixtures());
    hy_err e;
    int rc = mech_dock_config_read(path, &f->c, &e);
    if (rc)
        print_message("%s\n", e.msg);
    assert_int_equal(rc, HY_OK);
    assert_int_equal(mech_dock_model_new(&f->c.params, &f->m, &e), HY_OK);
    assert_int_equal(mech_dock_sim_new(f->m, &f->s, &e), HY_OK);
    assert_true(f->m->p.limiter_movable);
    assert_non_null(f->m->set[DOCK_SET_LIMITER]);
    mech_contact_body *P = &f->s->cb[DOCK_CB_PASSIVE];
    P->vel = P->omega = mech_vec3_zero();
    const mech_contact_pair *cone = &f->m->set[DOCK_SET_CONE]->pair[0];
    f->pc = mech_contact_pose_compose(mech_contact_pose_make(P->pos, P->rot), cone->local_b);
    /* the limiter coaxial with the cone, looking into it: its x along the cone frame's -x */
    f->Hrot = mech_mat3_mul(f->pc.rot, mech_mat3_diag(-1, 1, -1));
}

static void close_fx(fx *f)
{
    mech_dock_sim_free(f->s);
    mech_dock_model_free(f->m);
    mech_dock_config_free(&f->c);
}

/* (u, w) => the limiter placed so that pad 0's middle point (id 1, azimuth 0) has its sphere centre u above the rim
   plane and w inside the rim radius, in the cone frame's x-y plane; the limiter at rest */
static void place(fx *f, double u, double w)
{
    const mech_dock_model *m = f->m;
    double R = m->set[DOCK_SET_CONE]->pair[0].shape_b.radius;
    mech_vec3 q = m->pad_pt[1];
    assert_near(q.z, 0.0, 1e-15);
    /* the point in the cone frame is h + diag(-1, 1, -1) q */
    mech_vec3 h = {u + q.x, R - w - q.y, q.z};
    mech_vec3 pos = mech_vec3_add(f->pc.pos, mech_mat3_apply(f->pc.rot, h));
    mech_contact_body *H = &f->s->cb[DOCK_CB_HOUSING];
    H->pos = pos, H->rot = f->Hrot, H->vel = H->omega = mech_vec3_zero();
    f->s->d->pos[m->b.pads] = pos;
    f->s->d->xmat[m->b.pads] = f->Hrot;
}

/* the frustum pair of pad 0 (DOCK_SET_LIMITER) at the placed pose: its geometry in f's contact data, its force */
static mech_vec3 frustum_pair(fx *f, const mech_contact_geom **geom)
{
    mech_contact_eval(f->m->set[DOCK_SET_LIMITER], f->s->cd[DOCK_SET_LIMITER], f->s->cb);
    *geom = f->s->cd[DOCK_SET_LIMITER]->geom;
    return f->s->cd[DOCK_SET_LIMITER]->geom[0].depth > 0 ? f->s->cd[DOCK_SET_LIMITER]->force[0] : mech_vec3_zero();
}

/* the pads' loads (dock_proc_loads) with the frustum pairs' geometry lim (NULL: the set gated off) => the world
   force they put on the limiter; e filled */
static mech_vec3 pad_force(fx *f, const mech_contact_geom *lim, dock_proc_eval *e)
{
    mech_dock_sim *s = f->s;
    int b = f->m->b.pads, pv = f->m->b.passive;
    mech_vec3 f0 = s->d->f_ext[b], p0 = s->d->f_ext[pv];
    memset(e, 0, sizeof *e);
    dock_proc_loads(f->m, s->bm, s->d, s->cb, 0.0, 0.0, s->pad_c, lim, &s->hooks, 0.0, e);
    mech_vec3 fw = mech_mat3_apply(s->d->xmat[b], mech_vec3_sub(s->d->f_ext[b], f0));
    mech_vec3 fp = mech_mat3_apply(s->d->xmat[pv], mech_vec3_sub(s->d->f_ext[pv], p0));
    /* equal and opposite on the passive vehicle (the planes, pushers and hooks are far apart here: nothing else) */
    assert_near(mech_vec3_norm(mech_vec3_add(fw, fp)), 0.0, 1e-9 * (1 + mech_vec3_norm(fw)));
    s->d->f_ext[b] = f0, s->d->f_ext[pv] = p0;
    return fw;
}

static void rim_edge_closed_form(void **state)
{
    (void)state;
    fx f;
    open_fx(&f);
    const double u = 3e-3, w = 3.5e-3, rs = DOCK_PAD_SPHERE;
    place(&f, u, w);
    const mech_contact_geom *lim;
    mech_vec3 ff = frustum_pair(&f, &lim);
    assert_true(lim[0].depth <= 0);   /* the rim outside the pad's solid: the frustum pair does not touch */
    assert_near(mech_vec3_norm(ff), 0.0, 0.0);
    dock_proc_eval e;
    mech_vec3 F = pad_force(&f, lim, &e);
    double dist = sqrt(u * u + w * w), depth = rs - dist;   /* 0.390 mm */
    double k = f.m->p.contact.limiter_rim.k / DOCK_PAD_PTS;
    mech_vec3 n = mech_mat3_apply(f.pc.rot, (mech_vec3){u / dist, -w / dist, 0});   /* the edge normal */
    assert_int_equal(e.n_pad, 1);
    assert_near(e.pad_depth[1], depth, 1e-12);
    assert_true(e.pad_depth[0] < 0 && e.pad_depth[2] < 0);
    assert_near(mech_vec3_norm(F), k * depth, 1e-9 * k * depth);
    assert_near(mech_vec3_dot(F, n) / mech_vec3_norm(F), 1.0, 1e-12);
    assert_near(e.f_pad, k * depth, 1e-9 * k * depth);

    /* the edge joins the wall: just on either side of the wall normal through the rim (u cos a = w sin a) the
       depths agree to the offset's order (w0 = 4 mm: the rim outside the pad's solid there) */
    double a = f.m->p.geom.half_angle, w0 = 4e-3, u0 = w0 * tan(a);
    double dd[2];
    for (int side = 0; side < 2; side++) {
        place(&f, u0 + (side ? 1e-9 : -1e-9), w0);
        frustum_pair(&f, &lim);
        assert_true(lim[0].depth <= 0);
        pad_force(&f, lim, &e);
        dd[side] = e.pad_depth[1];
    }
    assert_near(dd[0], rs - hypot(u0, w0), 1e-8);
    assert_near(dd[1], dd[0], 1e-8);
    close_fx(&f);
}

static void corner_counted_once(void **state)
{
    (void)state;
    fx f;
    open_fx(&f);
    const double rs = DOCK_PAD_SPHERE, k = f.m->p.contact.limiter_rim.k / DOCK_PAD_PTS;
    /* u = 2 mm, w = 1 mm: the sphere's nearest feature the rim edge; u = 1 mm, w = 2 mm: the wall just below it */
    const double cases[2][3] = {{2e-3, 1e-3, MECH_CONTACT_FEAT_EDGE}, {1e-3, 2e-3, MECH_CONTACT_FEAT_WALL}};
    for (int c = 0; c < 2; c++) {
        double u = cases[c][0], w = cases[c][1];
        place(&f, u, w);
        const mech_contact_geom *lim;
        mech_vec3 ff = frustum_pair(&f, &lim);
        /* the rim inside the pad's solid: its depth there the distance to the larger base's plane (u) or less */
        assert_true(lim[0].depth > 0);
        assert_true(lim[0].depth <= u + 1e-12);
        assert_true(mech_vec3_norm(ff) > 0);
        /* the point's sphere reaches the rim too: without an owner (what the set would see gated off) it bears */
        dock_proc_eval e;
        mech_vec3 F1 = pad_force(&f, NULL, &e);
        assert_true(e.n_pad >= 1);   /* pad 0's side points too, a little farther from the rim */
        double d1 = e.pad_depth[1];
        if (c == 0)
            assert_near(d1, rs - hypot(u, w), 1e-12);
        else
            assert_true(d1 > 0);
        assert_true(mech_vec3_norm(F1) > 0.5 * k * d1);
        /* with the frustum pair touching, the corner is its own: the pads add nothing, the two sets' sum is the
           frustum pair's force alone */
        mech_vec3 F = pad_force(&f, lim, &e);
        assert_int_equal(e.n_pad, 0);
        assert_near(e.pad_depth[1], -1.0, 0.0);
        mech_vec3 sum = mech_vec3_add(F, ff);
        assert_near(mech_vec3_norm(mech_vec3_sub(sum, ff)), 0.0, 0.0);
        /* counted twice it would have been the frustum's force plus the sphere's */
        assert_true(mech_vec3_norm(mech_vec3_sub(mech_vec3_add(F1, ff), ff)) > 0.5 * k * d1);
    }
    close_fx(&f);
}

static void owner_rule(void **state)
{
    (void)state;
    const double R = 0.4, D = 0.6, rs = DOCK_PAD_SPHERE;
    mech_contact_geom wall = {.depth = 1e-4, .feature = MECH_CONTACT_FEAT_WALL};
    mech_contact_geom edge = {.depth = 1e-4, .feature = MECH_CONTACT_FEAT_EDGE};
    mech_contact_geom none = {.depth = -INFINITY, .feature = MECH_CONTACT_FEAT_NONE};
    mech_contact_geom touch = {.depth = 1e-4}, apart = {.depth = -1e-4};
    /* down the wall, 2 cm below the rim: bears whether the pad's pair touches the rim or not */
    assert_int_equal(dock_pad_bears(&wall, -0.02, R - 0.0115, R, D, rs, &touch), 1);
    assert_int_equal(dock_pad_bears(&wall, -0.02, R - 0.0115, R, D, rs, &apart), 1);
    /* at the corner (within rs of the rim circle): only while the pair does not touch, or the set is gated off */
    assert_int_equal(dock_pad_bears(&edge, 0.002, R - 0.001, R, D, rs, &apart), 1);
    assert_int_equal(dock_pad_bears(&edge, 0.002, R - 0.001, R, D, rs, NULL), 1);
    assert_int_equal(dock_pad_bears(&edge, 0.002, R - 0.001, R, D, rs, &touch), 0);
    assert_int_equal(dock_pad_bears(&wall, 0.001, R - 0.002, R, D, rs, &touch), 0);
    /* the throat edge is the socket's; no feature, no contact */
    assert_int_equal(dock_pad_bears(&edge, -0.9 * D, 0.05, R, D, rs, NULL), 0);
    assert_int_equal(dock_pad_bears(&none, 0.002, R - 0.001, R, D, rs, NULL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rim_edge_closed_form),
        cmocka_unit_test(corner_counted_once),
        cmocka_unit_test(owner_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

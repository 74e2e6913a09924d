/* Contacts on the rigid-body module (mech/body.h) through the system integrator mech_body_sim (RK4, trial at the
 * stages, commit at accepted steps): the two-body 1-D impact with a floating base and a free body (restitution
 * within 2 %, momentum kept), and a rigid block on four corner contacts on an incline (sticks below the friction
 * angle, slides above it with g (sin a - mu_k cos a) within 1 %), with rotation free. Also the simulation's stop
 * on an impossible penetration, with the time and the pair in the message. Prints the measured numbers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mech/body.h"
#include "mech/contact.h"

static void near(double a, double b, double tol)
{
    if (!(fabs(a - b) <= tol)) fail_msg("%.17g != %.17g (tol %g)", a, b, tol);
}

static mech_contact_law law(double k, double n, double e, double mu_s, double mu_k, double kt, double ct)
{
    mech_contact_law L = {k, n, e, 1e-3, mu_s, mu_k, kt, ct, 0};
    return L;
}

static void put3(double *p, mech_vec3 v) { p[0] = v.x, p[1] = v.y, p[2] = v.z; }
static void put4(double *p, mech_quat q) { p[0] = q.w, p[1] = q.x, p[2] = q.y, p[3] = q.z; }

/* base (id 0, m1) at x = 0.101 moving at -0.1 m/s, free body (id 1, m2) at 0 moving at +0.3 m/s, a 0.05 m sphere
 * on each */
static void impact_tol(double e, double n, double m1, double m2, double tol, double *e_meas, double *dmom,
                       unsigned long *steps);

static void impact(double e, double n, double m1, double m2, double *e_meas, double *dmom)
{
    impact_tol(e, n, m1, m2, 0.0, e_meas, dmom, NULL);
}

// (as impact, tol: 0 fixed 1e-5 s steps, > 0 error-controlled from a 1e-5 s trial step) => also the step count
static void impact_tol(double e, double n, double m1, double m2, double tol, double *e_meas, double *dmom,
                       unsigned long *steps)
{
    mech_body_free_def fb = {"ball-2", m2, mech_mat3_diag(0.4 * m2 * 0.0025, 0.4 * m2 * 0.0025, 0.4 * m2 * 0.0025)};
    mech_body_def def = {0};
    def.base_mode = MECH_BODY_FLOATING;
    def.base.mass = m1;
    def.base.inertia = mech_mat3_diag(0.4 * m1 * 0.0025, 0.4 * m1 * 0.0025, 0.4 * m1 * 0.0025);
    def.nfree = 1;
    def.free = &fb;
    mech_body_model *bm;
    hy_err err;
    assert_int_equal(mech_body_model_new(&def, &bm, &err), HY_OK);
    mech_contact_pair pr = {0};
    strcpy(pr.name, "ball-ball");
    pr.body_a = 0;
    pr.body_b = mech_body_free_id(bm, 0);
    pr.shape_a = pr.shape_b = mech_contact_sphere(0.05);
    pr.local_a.rot = pr.local_b.rot = mech_mat3_identity();
    pr.law = law(n == 1.0 ? 1e5 : 1e7, n, e, 0, 0, 0, 0);
    mech_contact_model *cm;
    assert_int_equal(mech_contact_model_new(mech_body_model_nbody(bm), 1, &pr, &cm, &err), HY_OK);
    mech_contact_coupling cpl = {cm, mech_contact_data_new(cm)};
    mech_body_sim_opts o = {1e-5, mech_contact_sim_force, mech_contact_sim_commit, mech_contact_sim_revert, &cpl,
                            tol};
    mech_body_sim *s;
    assert_int_equal(mech_body_sim_new(bm, &o, &s, &err), HY_OK);
    mech_body_layout L = mech_body_model_layout(bm);
    double y[64] = {0};
    put3(y + L.base_pos, mech_vec3_make(0.101, 0, 0));
    put4(y + L.base_quat, mech_quat_identity());
    put4(y + L.free_pos + 3, mech_quat_identity());
    put3(y + L.base_vel, mech_vec3_make(-0.1, 0, 0));
    put3(y + L.free_vel, mech_vec3_make(0.3, 0, 0));
    assert_int_equal(mech_body_sim_start(s, 0.0, y, &err), HY_OK);
    mech_vec3 P0, L0, P1, L1;
    mech_body_momentum(bm, mech_body_sim_data(s), &P0, &L0);
    assert_int_equal(mech_body_sim_advance(s, 0.12, &err), HY_OK);
    const mech_body_data *bd = mech_body_sim_data(s);
    mech_body_momentum(bm, bd, &P1, &L1);
    assert_int_equal(cpl.d->nactive, 0);
    double v1 = bd->xvel[0].x, v2 = bd->xvel[pr.body_b].x;
    *e_meas = (v1 - v2) / (0.3 - (-0.1));
    *dmom = mech_vec3_norm(mech_vec3_sub(P1, P0)) / (m2 * 0.3);
    near(mech_vec3_norm(mech_vec3_sub(L1, L0)), 0.0, 1e-12 * m2);
    if (steps)
        *steps = mech_body_sim_steps(s);
    mech_body_sim_free(s);
    mech_contact_data_free(cpl.d);
    mech_contact_model_free(cm);
    mech_body_model_free(bm);
}

static void restitution_with_a_floating_base_and_a_free_body(void **state)
{
    (void)state;
    double es[] = {0.2, 0.5, 0.8}, masses[][2] = {{1, 1}, {2, 7}, {9, 2000}}, worst = 0;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                double em, dm;
                impact(es[i], k ? 1.5 : 1.0, masses[j][0], masses[j][1], &em, &dm);
                near(em / es[i], 1.0, 0.02);
                near(dm, 0.0, 1e-12);
                if (fabs(em / es[i] - 1) > worst) worst = fabs(em / es[i] - 1);
            }
    printf("mech_body_sim impacts (18 cases: e 0.2/0.5/0.8, masses 1:1, 2:7, 9:2000, n = 1 and 1.5): worst "
           "|e_meas/e - 1| = %.2e\n", worst);
}

/* The same impacts with error-controlled steps (opts.tol): the restitution of the law within 2 %, momentum to
 * round-off, the contacts committed only at accepted steps (the rejected steps' trials reverted), in far fewer
 * steps than the fixed 1e-5 s ones (12 000 over the 0.12 s) */
static void restitution_error_controlled(void **state)
{
    (void)state;
    double es[] = {0.2, 0.8}, worst = 0;
    unsigned long most = 0;
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 2; k++) {
            double em, dm, ef, df;
            unsigned long n, nf;
            impact_tol(es[i], k ? 1.5 : 1.0, 2, 7, 1e-8, &em, &dm, &n);
            impact_tol(es[i], k ? 1.5 : 1.0, 2, 7, 0.0, &ef, &df, &nf);
            near(em / es[i], 1.0, 0.02);
            near(em, ef, 2e-3);   /* the fixed 1e-5 s run */
            near(dm, 0.0, 1e-12);
            print_message("e %.1f n %.1f: tol 1e-8 e_meas %.5f in %lu steps; fixed %.5f in %lu\n", es[i], k ? 1.5 : 1.0, em, n, ef, nf);
            assert_true(nf >= 12000 && n < nf / 20);
            worst = fmax(worst, fabs(em / es[i] - 1));
            most = n > most ? n : most;
        }
    printf("mech_body_sim error-controlled impacts (tol 1e-8): worst |e_meas/e - 1| = %.2e, at most %lu steps "
           "(fixed: 12000)\n", worst, most);
}

typedef struct block_run {
    double s_end, s_max, v_end, a_meas, static_defl, tilt_max;
    int    slid;
} block_run;

/* a rigid 1 kg plate 0.2 x 0.02 x 0.2 m (the floating base, rotation free) on four corner points on a world plane
 * whose normal is (sin a, cos a, 0); gravity -y. Thin, so that the friction couple shifts little normal load
 * between the front and back corners */
static block_run block(double deg, double mu_s, double mu_k, double t_end, int max_depth_test, hy_err *err_out)
{
    double a = deg * M_PI / 180, m = 1.0, g = 9.81, kt = 1e4, ct = 2 * 0.7 * sqrt(kt * m / 4), k = 1e6;
    mech_body_def def = {0};
    def.base_mode = MECH_BODY_FLOATING;
    def.base.mass = m;
    def.base.inertia = mech_mat3_diag(m * (0.0004 + 0.04) / 12, m * (0.04 + 0.04) / 12, m * (0.04 + 0.0004) / 12);
    def.gravity = mech_vec3_make(0, -g, 0);
    mech_body_model *bm;
    hy_err err;
    assert_int_equal(mech_body_model_new(&def, &bm, &err), HY_OK);
    mech_contact_pair pr[4];
    memset(pr, 0, sizeof pr);
    for (int c = 0; c < 4; c++) {
        snprintf(pr[c].name, sizeof pr[c].name, "corner%d", c + 1);
        pr[c].body_a = 0;
        pr[c].body_b = MECH_CONTACT_WORLD;
        pr[c].shape_a = mech_contact_point();
        pr[c].shape_b = mech_contact_plane(0, 0);
        pr[c].local_a = mech_contact_pose_make(mech_vec3_make(c & 1 ? 0.1 : -0.1, -0.01, c & 2 ? 0.1 : -0.1),
                                               mech_mat3_identity());
        pr[c].local_b = mech_contact_pose_make(mech_vec3_zero(), mech_mat3_rot(2, M_PI / 2 - a));
        pr[c].law = law(k, 1.0, 0.5, mu_s, mu_k, kt, ct);
        /* a resting contact has no impact speed: with the 1e-3 m/s floor D = s(e)/v_min = 1400 s/m would cut a
         * rocking corner's normal force by 1 - D |δ̇| (docs/contact.md §3); 0.05 m/s keeps it within 2 % */
        pr[c].law.v_min = 0.05;
        pr[c].max_depth = max_depth_test ? 1e-6 : 0.01;
    }
    mech_contact_model *cm;
    assert_int_equal(mech_contact_model_new(1, 4, pr, &cm, &err), HY_OK);
    mech_contact_coupling cpl = {cm, mech_contact_data_new(cm)};
    mech_body_sim_opts o = {5e-5, mech_contact_sim_force, mech_contact_sim_commit, mech_contact_sim_revert, &cpl, 0};
    mech_body_sim *s;
    assert_int_equal(mech_body_sim_new(bm, &o, &s, &err), HY_OK);
    mech_body_layout L = mech_body_model_layout(bm);
    mech_vec3 n = {sin(a), cos(a), 0}, t = {cos(a), -sin(a), 0};
    double d0 = m * g * cos(a) / (4 * k), y[32] = {0};
    mech_vec3 x0 = mech_vec3_scale(n, 0.01 - d0);
    mech_quat q0 = mech_quat_from_mat3(mech_mat3_rot(2, -a)); /* block's y along the plane normal */
    put3(y + L.base_pos, max_depth_test ? mech_vec3_axpy(x0, 0.001, n) : x0);
    put4(y + L.base_quat, q0);
    if (max_depth_test) put3(y + L.base_vel, mech_mat3_tapply(mech_mat3_rot(2, -a), mech_vec3_scale(n, -2.0)));
    block_run r = {0};
    r.static_defl = m * g * sin(a) / (4 * kt);
    assert_int_equal(mech_body_sim_start(s, 0.0, y, &err), HY_OK);
    double v1 = 0, dt = 0.01;
    int rc = HY_OK;
    for (int k2 = 1; k2 * dt <= t_end + 1e-12; k2++) {
        rc = mech_body_sim_advance(s, k2 * dt, err_out ? err_out : &err);
        if (rc != HY_OK) break;
        const mech_body_data *bd = mech_body_sim_data(s);
        double sd = mech_vec3_dot(mech_vec3_sub(bd->pos[0], x0), t);
        if (fabs(sd) > r.s_max) r.s_max = fabs(sd);
        for (int c = 0; c < 4; c++) r.slid |= cpl.d->committed[c].sliding;
        mech_quat qr = mech_quat_mul(mech_quat_conj(q0), bd->quat[0]);
        double tilt = 2 * asin(fmin(1.0, sqrt(qr.x * qr.x + qr.y * qr.y + qr.z * qr.z)));
        if (tilt > r.tilt_max) r.tilt_max = tilt;
        if (fabs(k2 * dt - 0.3) < 1e-9) v1 = mech_vec3_dot(bd->xvel[0], t);
        r.s_end = sd;
        r.v_end = mech_vec3_norm(bd->xvel[0]);
        if (fabs(k2 * dt - t_end) < 1e-9) r.a_meas = (mech_vec3_dot(bd->xvel[0], t) - v1) / (t_end - 0.3);
    }
    if (!max_depth_test) assert_int_equal(rc, HY_OK);
    else assert_int_equal(rc, HY_ESTATE);
    mech_body_sim_free(s);
    mech_contact_data_free(cpl.d);
    mech_contact_model_free(cm);
    mech_body_model_free(bm);
    return r;
}

static void rigid_block_on_an_incline(void **state)
{
    (void)state;
    /* four corners share the load unevenly (the friction couple loads the front pair by ±5 %) and the release
     * from an unloaded spring overshoots by ~20 %: the static reserve per corner covers both (tan 20° = 0.36
     * with μ = 0.6; tan 28° = 0.53 with μ_s = 0.8 > μ_k = 0.5) */
    double stick[][3] = {{20, 0.6, 0.6}, {28, 0.8, 0.5}};
    for (int i = 0; i < 2; i++) {
        block_run r = block(stick[i][0], stick[i][1], stick[i][2], 1.0, 0, NULL);
        printf("rigid block %2.0f deg, mu_s %.2f mu_k %.2f: sticks, displacement %.4e m (static deflection %.4e, "
               "max %.4e), speed %.1e m/s, tilt %.1e rad\n", stick[i][0], stick[i][1], stick[i][2], r.s_end,
               r.static_defl, r.s_max, r.v_end, r.tilt_max);
        assert_false(r.slid);
        near(r.s_end / r.static_defl, 1.0, 0.02); /* the pitch under the friction couple adds ~0.3 % */
        assert_true(r.s_max <= 1.1 * r.static_defl);
        assert_true(r.v_end < 1e-5);
    }
    double slide[][3] = {{40, 0.7, 0.5}, {45, 0.7, 0.5}};
    for (int i = 0; i < 2; i++) {
        double a = slide[i][0] * M_PI / 180, expect = 9.81 * (sin(a) - slide[i][2] * cos(a));
        block_run r = block(slide[i][0], slide[i][1], slide[i][2], 1.0, 0, NULL);
        printf("rigid block %2.0f deg, mu_s %.2f mu_k %.2f: slides, a = %.6f m/s^2, g(sin a - mu_k cos a) = %.6f "
               "(rel. error %.2e), tilt %.1e rad\n", slide[i][0], slide[i][1], slide[i][2], r.a_meas, expect,
               r.a_meas / expect - 1, r.tilt_max);
        assert_true(r.slid);
        near(r.a_meas / expect, 1.0, 0.01);
    }
}

static void impossible_penetration_stops_the_simulation(void **state)
{
    (void)state;
    hy_err err;
    block(20, 0.5, 0.5, 0.05, 1, &err);
    assert_int_equal(err.code, HY_ESTATE);
    assert_non_null(strstr(err.msg, "contact pair "));
    assert_non_null(strstr(err.msg, "penetration"));
    assert_non_null(strstr(err.msg, "exceeds max_depth 1e-06 m"));
    assert_null(strchr(err.msg, '\n'));
    printf("stop message: %s\n", err.msg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(restitution_with_a_floating_base_and_a_free_body),
        cmocka_unit_test(restitution_error_controlled),
        cmocka_unit_test(rigid_block_on_an_incline),
        cmocka_unit_test(impossible_penetration_stops_the_simulation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The step functions of the docking-process parts allocate nothing (mech/dock_process.h): 20 000 steps of the
 * drive, sequencer, cam lookup, cover, pushers, structural hooks and the limiter's guide-friction solve with trials, reverts and commits, counted by bench_alloc.h's
 * interposer (0 by construction under ASan). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "mech/dock_process.h"
#include "mech/dock_hooks.h"
#include "../../bench/bench_alloc.h"

static void no_allocation(void **state)
{
    (void)state;
    hy_err e;
    mech_dock_drive_params dp;
    mech_dock_drive_params_rp1(&dp);
    static mech_dock_drive d;
    assert_int_equal(mech_dock_drive_init(&d, &dp, 0.0, &e), HY_OK);
    mech_dock_drive_command(&d, MECH_DOCK_DRIVE_RETRACT, 2);
    mech_dock_seq_params sp;
    mech_dock_seq_params_default(&sp);
    static mech_dock_seq s;
    assert_int_equal(mech_dock_seq_init(&s, &sp, MECH_DOCK_SEQ_READY, 0.0, &e), HY_OK);
    mech_dock_cover_params cp;
    mech_dock_cover_params_rp1(&cp);
    static mech_dock_cover cv;
    assert_int_equal(mech_dock_cover_init(&cv, &cp, &e), HY_OK);
    mech_dock_pusher_params pp;
    mech_dock_pusher_params_rp1(&pp);
    static mech_dock_cam_params cap;
    memset(&cap, 0, sizeof cap);
    cap.n = 2, cap.theta[1] = 1, cap.radius[0] = 0.05, cap.radius[1] = 0.06, cap.i_cam = 100, cap.i_nut = 523.6;
    cap.n_lever = 3, cap.arm = 0.04, cap.x_pivot = 0.3, cap.rho_pivot = 0.09, cap.len = 0.15;
    cap.roller_radius = 0.01, cap.roller_offset = 0.003, cap.head_x0 = 1.1, cap.head_cone_x = -0.656;
    cap.rim_radius = 0.4, cap.half_angle = M_PI / 6, cap.throat_radius = 0.05;
    static mech_dock_cam cam;
    assert_int_equal(mech_dock_cam_build(&cap, &cam, &e), HY_OK);
    mech_dock_limiter_params lp;
    mech_dock_limiter_params_rp1(&lp);
    static mech_dock_limiter lim;
    assert_int_equal(mech_dock_limiter_new(&lp, &lim, &e), HY_OK);
    mech_dock_hooks_params hp;
    mech_dock_hooks_params_rp1(&hp);
    static mech_dock_hooks hk;
    assert_int_equal(mech_dock_hooks_init(&hk, &hp, &e), HY_OK);
    mech_dock_hooks_out ho;
    mech_dock_hooks_trial(&hk, 0, mech_vec3_make(1e-3, 0, 0), mech_mat3_diag(-1, 1, -1), mech_vec3_zero(),
                          mech_vec3_zero(), &ho);
    mech_dock_hooks_start(&hk, &ho);
    long n0 = n_alloc;
    double sum = 0;
    for (int i = 0; i < 20000; i++) {
        double t = i * 1e-3, u = 1e-3 * t;
        mech_dock_drive_out o;
        mech_dock_drive_trial(&d, 5e-4, u, 1e-3, &o);
        mech_dock_drive_revert(&d);
        mech_dock_drive_trial(&d, 1e-3, u, 1e-3, &o);
        mech_dock_drive_commit(&d, u);
        mech_dock_seq_in in = {.contact = 1, .capture = i > 100, .motion = 1e-3, .stroke = u, .gap = 0.3};
        mech_dock_seq_trial(&s, t, &in);
        mech_dock_seq_commit(&s);
        mech_dock_cover_trial(&cv, 1e-3, o.F, mech_dock_cover_linear(&cp), &e);
        mech_dock_cover_commit(&cv);
        mech_dock_pusher_out po;
        mech_dock_pusher_eval(&pp, mech_vec3_make(0.02, 0, 0), mech_vec3_make(-1, 0, 0), mech_vec3_zero(),
                              mech_vec3_zero(), &po);
        mech_dock_hooks_trial(&hk, 5e-4, mech_vec3_make(1e-3, 0, 0), mech_mat3_diag(-1, 1, -1), mech_vec3_zero(),
                              mech_vec3_zero(), &ho);
        mech_dock_hooks_revert(&hk);
        mech_dock_hooks_trial(&hk, 1e-3, mech_vec3_make(1e-3, 0, 0), mech_mat3_diag(-1, 1, -1), mech_vec3_zero(),
                              mech_vec3_zero(), &ho);
        mech_dock_hooks_commit(&hk);
        sum += ho.force.x;
        mech_dock_limiter_out lo;
        assert_int_equal(mech_dock_limiter_trial(&lim, 0.05, 0.01 * sin(1e-3 * i), 800, -400 * cos(2e-3 * i), 0, 0.06,
                                                 0.28, &lo, &e), HY_OK);
        mech_dock_limiter_commit(&lim);
        sum += lo.xdd + po.force.x + mech_dock_cam_roller(&cam, 0.005 * i, i % 3).x;
    }
    assert_true(isfinite(sum));
    assert_int_equal(n_alloc, n0);
    mech_dock_limiter_free(&lim);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(no_allocation)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The nut equation (2.1) with the drive coupling (mech_dock_axial_trial_drive, docs/dock-process.md §1): a probe
 * held by a constant socket resistance is retracted by the drive at the commanded 1.2 mm/s, the drive force equals
 * the closed-form chain force f (1 + k_NutFr) (+ the magnetic brakes in A), the drive deflects by F / k; with u = u' = 0 the trial is the locked-drive trial bit for bit. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mech/dock.h"
#include "mech/dock_process.h"
#include "dock_test_laws.h"

typedef struct rig {
    mech_dock_axial *ax;
    mech_dock_drive d;
    double s, sd, u, w, f, t, i;
    mech_dock_axial_out ao;
    mech_dock_drive_out o;
} rig;

/* state y = (s, s', u, u'); stage accelerations */
static void rhs(rig *r, double dt, const double y[4], double a[2])
{
    hy_err e;
    assert_int_equal(mech_dock_axial_trial_drive(r->ax, r->i * y[0], r->i * y[1], y[2], y[3], r->f, &r->ao, &e),
                     HY_OK);
    mech_dock_drive_trial(&r->d, dt, y[2], y[3], &r->o);
    a[0] = r->ao.phidd / r->i;
    a[1] = (r->o.F + r->ao.force + r->ao.f_damping) / r->d.p.m_out;
}

static void step(rig *r, double h)
{
    double y0[4] = {r->s, r->sd, r->u, r->w}, k[4][4], y[4];
    const double c[4] = {0, 0.5, 0.5, 1};
    for (int st = 0; st < 4; st++) {
        for (int j = 0; j < 4; j++)
            y[j] = st ? y0[j] + c[st] * h * k[st - 1][j] : y0[j];
        double a[2];
        rhs(r, c[st] * h, y, a);
        k[st][0] = y[1], k[st][1] = a[0], k[st][2] = y[3], k[st][3] = a[1];
    }
    mech_dock_axial_revert(r->ax);
    for (int j = 0; j < 4; j++)
        y0[j] += h / 6 * (k[0][j] + 2 * k[1][j] + 2 * k[2][j] + k[3][j]);
    r->s = y0[0], r->sd = y0[1], r->u = y0[2], r->w = y0[3];
    double a[2];
    rhs(r, h, y0, a);
    mech_dock_axial_commit(r->ax);
    mech_dock_drive_commit(&r->d, r->s);
    r->t += h;
}

static void retract(int variant, const char *law, double f_mag)
{
    hy_model m;
    assert_int_equal(dock_test_load_law(law, &m), HY_OK);
    mech_dock_axial_params ap;
    mech_dock_axial_params_rp1(&ap, variant);
    if (variant == MECH_DOCK_A)
        ap.chain.model = &m;
    else
        ap.gear.model = &m;
    hy_err e;
    rig r;
    memset(&r, 0, sizeof r);
    assert_int_equal(mech_dock_axial_new(&ap, &r.ax, &e), HY_OK);
    r.i = mech_dock_axial_ratio(r.ax);
    mech_dock_drive_params dp;
    mech_dock_drive_params_rp1(&dp);
    assert_int_equal(mech_dock_drive_init(&r.d, &dp, 0.0, &e), HY_OK);
    r.f = -2000.0;   /* the socket resists the pull (the paper's f_H^E(1) = +2000 N) */
    /* the chain is unloaded at rest: start from the static state with the drive locked */
    for (int n = 0; n < 20000; n++)
        step(&r, 1e-4);
    double s0 = r.s, t0 = r.t;
    mech_dock_drive_command(&r.d, MECH_DOCK_DRIVE_RETRACT, 2);
    for (int n = 0; n < 60000; n++)
        step(&r, 1e-4);
    double v = dp.speed, Fd = -r.f * (1 + ap.screw_friction) + f_mag;
    printf("%s: s' = %.12g m/s (%.12g), drive force %.9g N (closed form %.9g), stroke gained %.6g m in %.1f s, "
           "slips %.3g %.3g\n", variant == MECH_DOCK_A ? "A" : "B", r.sd, v, r.o.F, Fd, r.s - s0, r.t - t0,
           r.ao.slip1, r.ao.slip2);
    assert_true(fabs(r.sd - v) < 1e-4 * v);   /* B: the start transient decays with zeta = 0.03 only (6e-6 left) */
    assert_true(fabs(r.o.F - Fd) < 1e-3);
    /* retraction under the chain's pull-out slip level: no brake slips */
    assert_true(fabs(r.ao.slip2) < 1e-12);
    /* the drive's own deflection at that force: x - u = F / k */
    assert_true(fabs((r.o.x - r.u) - Fd / dp.stiffness) < 1e-9);
    mech_dock_axial_free(r.ax);
    hy_model_free(&m);
}

static void retraction_b(void **state)
{
    (void)state;
    retract(MECH_DOCK_B, "gear-B.json", 0.0);
}

static void retraction_a(void **state)
{
    (void)state;
    /* A's magnetic brakes on the nut speed: 1000 N s/m x 1.2 mm/s = 1.2 N */
    retract(MECH_DOCK_A, "axial-A.json", 1.2);
}

static void locked_drive_is_the_old_trial(void **state)
{
    (void)state;
    hy_model m;
    assert_int_equal(dock_test_load_law("gear-B.json", &m), HY_OK);
    mech_dock_axial_params ap;
    mech_dock_axial_params_rp1(&ap, MECH_DOCK_B);
    ap.gear.model = &m;
    hy_err e;
    mech_dock_axial *a;
    assert_int_equal(mech_dock_axial_new(&ap, &a, &e), HY_OK);
    double phis[] = {0, 5, 60, 170, -3}, rates[] = {0, 2, -40, 80, 1};
    for (int k = 0; k < 5; k++) {
        mech_dock_axial_out o1, o2;
        memset(&o1, 0, sizeof o1);
        memset(&o2, 0, sizeof o2);
        assert_int_equal(mech_dock_axial_trial(a, phis[k], rates[k], 1500, &o1, &e), HY_OK);
        assert_int_equal(mech_dock_axial_trial_drive(a, phis[k], rates[k], 0, 0, 1500, &o2, &e), HY_OK);
        assert_memory_equal(&o1, &o2, sizeof o1);
        mech_dock_axial_commit(a);
    }
    mech_dock_axial_out o;
    assert_int_equal(mech_dock_axial_trial_drive(a, 0, 0, NAN, 0, 0, &o, &e), HY_ERANGE);
    mech_dock_axial_free(a);
    hy_model_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(retraction_b),
        cmocka_unit_test(retraction_a),
        cmocka_unit_test(locked_drive_is_the_old_trial),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

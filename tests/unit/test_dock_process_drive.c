/* The drive of the docking mechanism (mech/dock_process.h, docs/dock-process.md §1) on rigs with closed forms:
 * the locked drive holds (single-mass closed-form response; two-mass static deflection through the chain), the
 * commanded speed is reached (first-order speed loop, ramp lag tau, load lag P/k), one motor gives half speed
 * through the differential, the torque limit holds at its level, FrT2 of the real variant-B chain slips at its
 * pull-out level before the drive's limit, the initial-position sensor stops an extension, the drive work closes
 * the energy budget, trial/commit/revert and the refused parameters. */
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

/* Rig: drive output mass (u, w); the load on it is P(u, w) = -kL u - cL w + P0 (a spring to ground and a constant
 * force), or the real axial chain (jammed probe at s = 0). RK4 with the drive's trial at the stage times, revert,
 * the trial at the accepted state, commit. */
typedef struct rig {
    mech_dock_drive d;
    double u, w, t;
    double kL, cL, P0;
    mech_dock_axial *ax;      /* when set: the load is the chain between the jammed nut (s = 0) and u */
    double phi_nut;
    mech_dock_axial_out ao;
    mech_dock_drive_out o;    /* drive output at the accepted state                                   */
    double e_damp;            /* trapezoid of the damping power over accepted steps                   */
    double p_damp_prev;
} rig;

static double load(rig *r, double u, double w)
{
    if (r->ax) {
        hy_err e;
        double i = mech_dock_axial_ratio(r->ax);
        assert_int_equal(mech_dock_axial_trial(r->ax, r->phi_nut - i * u, -i * w, 0.0, &r->ao, &e), HY_OK);
        return r->ao.force + r->ao.f_damping;   /* the chain pushes the drive end with +F_chain */
    }
    return -r->kL * u - r->cL * w + r->P0;
}

static void acc(rig *r, double dt, double u, double w, double *a)
{
    mech_dock_drive_out o;
    mech_dock_drive_trial(&r->d, dt, u, w, &o);
    *a = (o.F + load(r, u, w)) / r->d.p.m_out;
}

static void step(rig *r, double h)
{
    double u = r->u, w = r->w, a1, a2, a3, a4;
    acc(r, 0, u, w, &a1);
    double u2 = u + 0.5 * h * w, w2 = w + 0.5 * h * a1;
    acc(r, 0.5 * h, u2, w2, &a2);
    double u3 = u + 0.5 * h * w2, w3 = w + 0.5 * h * a2;
    acc(r, 0.5 * h, u3, w3, &a3);
    double u4 = u + h * w3, w4 = w + h * a3;
    acc(r, h, u4, w4, &a4);
    if (r->ax)
        mech_dock_axial_revert(r->ax);
    r->u = u + h / 6 * (w + 2 * w2 + 2 * w3 + w4);
    r->w = w + h / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
    mech_dock_drive_trial(&r->d, h, r->u, r->w, &r->o);
    if (r->ax) {
        load(r, r->u, r->w);
        mech_dock_axial_commit(r->ax);
    }
    r->e_damp += 0.5 * h * (r->p_damp_prev + r->o.p_damping);
    r->p_damp_prev = r->o.p_damping;
    mech_dock_drive_commit(&r->d, r->u);
    r->t += h;
}

static void rig_init(rig *r, double u0)
{
    memset(r, 0, sizeof *r);
    mech_dock_drive_params p;
    mech_dock_drive_params_rp1(&p);
    hy_err e;
    assert_int_equal(mech_dock_drive_init(&r->d, &p, u0, &e), HY_OK);
    r->u = u0;
}

static void locked_drive_holds(void **state)
{
    (void)state;
    rig r;
    rig_init(&r, 0.0);
    r.P0 = 3000.0;   /* a push on the output with the motors off */
    const mech_dock_drive_params *p = &r.d.p;
    double k = p->stiffness, m = p->m_out, c = p->damping;
    double om = sqrt(k / m), z = c / (2 * sqrt(k * m)), od = om * sqrt(1 - z * z);
    double h = 1e-5, maxerr = 0;
    for (int i = 0; i < 20000; i++) {
        step(&r, h);
        double ex = r.P0 / k * (1 - exp(-z * om * r.t) * (cos(od * r.t) + z * om / od * sin(od * r.t)));
        maxerr = fmax(maxerr, fabs(r.u - ex));
    }
    printf("locked drive, step response: max |u - closed form| = %.3g m (static %.3g m)\n", maxerr, r.P0 / k);
    assert_true(maxerr < 1e-9 * 1.0 + 1e-7 * r.P0 / k);
    assert_true(r.d.committed.x == 0.0);      /* the stop clutches hold the motor side exactly */
    assert_true(r.d.committed.work == 0.0);   /* and the motors do no work */
    assert_true(fabs(r.o.F + r.P0) < 1e-6 * r.P0);
}

/* nut (m_eq 50 kg, head force f) -- linear chain k_c, c_D -- drive output -- drive stiffness -- locked motors:
 * the nut settles at s = f (1/k_c + 1/k) */
static void locked_nut_static(void **state)
{
    (void)state;
    rig r;
    rig_init(&r, 0.0);
    double kc = 2e5, cD = 200, meq = 50, f = 1000, s = 0, sd = 0, h = 1e-4;
    for (int i = 0; i < 100000; i++) {
        /* semi-implicit two-mass update is enough for a static limit; the drive trial at the step end */
        double Fc = kc * (s - r.u) + cD * (sd - r.w);
        mech_dock_drive_out o;
        mech_dock_drive_trial(&r.d, h, r.u, r.w, &o);
        sd += h * (f - Fc) / meq;
        r.w += h * (o.F + Fc) / r.d.p.m_out;
        s += h * sd;
        r.u += h * r.w;
        mech_dock_drive_commit(&r.d, s);
    }
    double ex = f * (1 / kc + 1 / r.d.p.stiffness);
    printf("locked nut: s = %.10g m, closed form %.10g m\n", s, ex);
    assert_true(fabs(s - ex) < 1e-7 * fabs(ex));
    assert_true(r.d.committed.x == 0.0);
}

static void commanded_speed_reached(void **state)
{
    (void)state;
    rig r;
    rig_init(&r, 0.0);
    r.P0 = -2000.0;  /* a constant force resisting the retraction */
    mech_dock_drive_command(&r.d, MECH_DOCK_DRIVE_RETRACT, 2);
    const mech_dock_drive_params *p = &r.d.p;
    double v = p->speed, h = 1e-4, maxv = 0;
    for (int i = 0; i < 40000; i++) {
        step(&r, h);
        double ex = v * (1 - exp(-r.t / p->tau));
        maxv = fmax(maxv, fabs(r.o.v_m - ex));
    }
    double lag = v * (r.t - p->tau) + r.P0 / p->stiffness;   /* x -> v (t - tau), x - u -> -P/k */
    printf("retraction: v_m error %.3g m/s; w = %.12g (%.12g); u = %.12g m, closed form %.12g m; F = %.9g N\n",
           maxv, r.w, v, r.u, lag, r.o.F);
    assert_true(maxv < 1e-15);
    assert_true(fabs(r.w - v) < 1e-8 * v);   /* the lag e^(-t/tau) = 2e-9 */
    assert_true(fabs(r.u - lag) < 1e-10);
    assert_true(fabs(r.o.F + r.P0) < 1e-4);
    assert_int_equal(r.o.at_limit, 0);
}

static void one_motor_half_speed(void **state)
{
    (void)state;
    rig r;
    rig_init(&r, 0.0);
    mech_dock_drive_command(&r.d, MECH_DOCK_DRIVE_RETRACT, 1);   /* the other motor's stop clutch holds */
    for (int i = 0; i < 60000; i++)
        step(&r, 1e-4);
    assert_true(fabs(r.w - 0.5 * r.d.p.speed) < 1e-8 * r.d.p.speed);
    assert_true(fabs(r.u - 0.5 * r.d.p.speed * (r.t - r.d.p.tau)) < 1e-10);
}

/* retraction against a jammed load stiffer than the drive can pull: the force rises to force_max and stays */
static void torque_limit_holds(void **state)
{
    (void)state;
    rig r;
    rig_init(&r, 0.0);
    r.d.p.speed = 0.01;
    r.kL = 1e6;
    r.cL = 1e3;
    mech_dock_drive_command(&r.d, MECH_DOCK_DRIVE_RETRACT, 2);
    double Fmax = r.d.p.force_max, peak = 0, t_lim = -1;
    for (int i = 0; i < 30000; i++) {
        step(&r, 1e-4);
        peak = fmax(peak, fabs(r.o.F));
        if (r.o.at_limit && t_lim < 0)
            t_lim = r.t;
    }
    printf("torque limit: peak %.9g N (limit %.9g), at the limit from %.4f s, u = %.9g m (closed form %.9g), "
           "time at the limit %.4f s\n", peak, Fmax, t_lim, r.u, Fmax / r.kL, r.d.committed.limit_time);
    assert_true(t_lim > 0);
    assert_true(peak <= Fmax * (1 + 1e-12));
    assert_true(fabs(r.o.F - Fmax) < 1e-9 * Fmax);
    assert_int_equal(r.o.at_limit, 1);
    assert_true(fabs(r.u - Fmax / r.kL) < 1e-6 * Fmax / r.kL);
    /* stalled most of the time from the first step at the limit on: the speed loop restarts from the stall at
       each step, and while the load still rings (zeta 0.1) some steps end just below the limit */
    assert_true(r.d.committed.limit_time > 0.8 * (r.t - t_lim) && r.d.committed.limit_time <= r.t - t_lim + 1e-4);
}

/* the real variant-B chain (gear train + FrT1 + FrT2) between a jammed probe (s = 0) and the retracting drive:
 * FrT2 slips at its pull-out level (6000 N + c_D v), below the drive's 8000 N limit */
static void frt2_slips_before_the_limit(void **state)
{
    (void)state;
    hy_model gear;
    assert_int_equal(dock_test_load_law("gear-B.json", &gear), HY_OK);
    mech_dock_axial_params ap;
    mech_dock_axial_params_rp1(&ap, MECH_DOCK_B);
    ap.gear.model = &gear;
    hy_err e;
    rig r;
    rig_init(&r, 0.0);
    assert_int_equal(mech_dock_axial_new(&ap, &r.ax, &e), HY_OK);
    r.d.p.speed = 0.01;
    mech_dock_drive_command(&r.d, MECH_DOCK_DRIVE_RETRACT, 2);
    double peak = 0;
    int ever_limit = 0;
    for (int i = 0; i < 60000; i++) {
        step(&r, 1e-4);
        peak = fmax(peak, r.o.F);
        ever_limit |= r.o.at_limit;
    }
    double level = ap.frt2_pull + ap.damping * r.d.p.speed;
    printf("FrT2 pull-out: drive force %.9g N (closed form %.9g), FrT2 slip %.6g m, FrT1 %.3g m\n", r.o.F, level,
           -r.ao.slip2, r.ao.slip1);
    assert_int_equal(ever_limit, 0);
    assert_true(fabs(r.o.F - level) < 1e-3);
    assert_true(peak < r.d.p.force_max);
    assert_true(r.ao.slip2 < -0.02);          /* slipping out: 0.06 m of drive travel minus the gear's 0.03 m */
    assert_true(r.ao.slip1 == 0.0);           /* FrT1 sits on its stop in the pull direction */
    mech_dock_axial_free(r.ax);
    hy_model_free(&gear);
}

/* drive work = d(KE) + load spring + drive spring + damping (rig, a spring load, through the torque limit) */
static double energy_residual(double h, int stall)
{
    rig r;
    rig_init(&r, 0.0);
    r.d.p.speed = 0.01;
    r.kL = stall ? 1e6 : 5e5;
    mech_dock_drive_command(&r.d, MECH_DOCK_DRIVE_RETRACT, 2);
    int n = (int)lround(1.2 / h);
    double worst = 0;
    for (int i = 0; i < n; i++) {
        if (i == n / 2 && !stall) {
            /* the clutches stop the motor side at once: the damping power jumps; restart its quadrature */
            mech_dock_drive_command(&r.d, MECH_DOCK_DRIVE_OFF, 0);
            mech_dock_drive_out o;
            mech_dock_drive_trial(&r.d, 0.0, r.u, r.w, &o);
            mech_dock_drive_revert(&r.d);
            r.p_damp_prev = o.p_damping;
        }
        step(&r, h);
        double E = 0.5 * r.d.p.m_out * r.w * r.w + 0.5 * r.kL * r.u * r.u + r.o.e_spring + r.e_damp;
        worst = fmax(worst, fabs(r.d.committed.work - E));
    }
    return worst / r.d.committed.work;
}

static void drive_work_booked(void **state)
{
    (void)state;
    double a = energy_residual(1e-4, 0), b = energy_residual(5e-5, 0);
    double c = energy_residual(1e-4, 1), d = energy_residual(5e-5, 1);
    printf("drive work budget, max residual / work: %.3g (h 1e-4), %.3g (h 5e-5); at the limit %.3g, %.3g\n", a, b,
           c, d);
    assert_true(a < 1e-5 && b < a / 3);
    assert_true(c < 1e-5 && d < c / 3);
}

static void extension_stops_at_sensor(void **state)
{
    (void)state;
    rig r;
    rig_init(&r, 0.02);       /* probe 2 cm in from the ready position; the chain taken rigid: s = u */
    mech_dock_drive_command(&r.d, MECH_DOCK_DRIVE_EXTEND, 2);
    double t_stop = -1;
    for (int i = 0; i < 120000 && t_stop < 0; i++) {
        step(&r, 1e-4);
        if (r.d.committed.cmd == MECH_DOCK_DRIVE_OFF)
            t_stop = r.t;
    }
    const mech_dock_drive_params *p = &r.d.p;
    double ex = 0.02 / p->extend_speed + p->tau;   /* x(t) -> x0 - v (t - tau) */
    printf("extension: stopped at %.5f s (closed form %.5f s), u = %.3g m\n", t_stop, ex, r.u);
    assert_true(fabs(t_stop - ex) < 1e-3);
    double x = r.d.committed.x;
    for (int i = 0; i < 5000; i++)
        step(&r, 1e-4);
    assert_true(r.d.committed.x == x);
    assert_true(r.u <= 0 && r.u > -1e-5);   /* overshoot v / omega after the clutches lock */
}

static void trial_commit_revert(void **state)
{
    (void)state;
    rig r;
    rig_init(&r, 0.0);
    mech_dock_drive_command(&r.d, MECH_DOCK_DRIVE_RETRACT, 2);
    for (int i = 0; i < 100; i++)
        step(&r, 1e-3);
    mech_dock_drive_state c = r.d.committed;
    mech_dock_drive_out a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    mech_dock_drive_trial(&r.d, 1e-3, r.u + 1e-5, r.w, &a);
    mech_dock_drive_trial(&r.d, 1e-3, r.u + 1e-5, r.w, &b);
    assert_memory_equal(&a, &b, sizeof a);
    assert_memory_equal(&c, &r.d.committed, sizeof c);
    mech_dock_drive_revert(&r.d);
    assert_memory_equal(&r.d.trial, &r.d.committed, sizeof c);
}

static void phi_fr_of_eq_2_1(void **state)
{
    (void)state;
    double phi, phid;
    /* i_Nut = 2 pi / 0.012, i_Nut,FR = 1; stroke 0.10 m, drive 0.13 m: phi_FR = 523.6 (0.10 - 0.13) */
    mech_dock_drive_phi_fr(2 * M_PI / 0.012, 1.0, 0.10, 0.0, 0.13, 1.2e-3, &phi, &phid);
    assert_true(fabs(phi - (-15.707963267948966)) < 1e-12);
    assert_true(fabs(phid - (-0.6283185307179586)) < 1e-13);
}

static void bad_parameters(void **state)
{
    (void)state;
    struct { const char *key; double val; } cases[] = {
        {"drive.speed", 0.0}, {"drive.speed", -1.2e-3}, {"drive.speed", NAN}, {"drive.extend_speed", 0.0},
        {"drive.tau", 0.0},   {"drive.stiffness", -1},   {"drive.force_max", 0}, {"drive.m_out", 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mech_dock_drive_params p;
        mech_dock_drive_params_rp1(&p);
        const char *k = cases[i].key + 6;
        double *f = !strcmp(k, "speed") ? &p.speed : !strcmp(k, "extend_speed") ? &p.extend_speed
                  : !strcmp(k, "tau") ? &p.tau : !strcmp(k, "stiffness") ? &p.stiffness
                  : !strcmp(k, "force_max") ? &p.force_max : &p.m_out;
        *f = cases[i].val;
        hy_err e;
        mech_dock_drive d;
        assert_int_equal(mech_dock_drive_init(&d, &p, 0.0, &e), HY_EMODEL);
        assert_non_null(strstr(e.msg, cases[i].key));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(locked_drive_holds),        cmocka_unit_test(locked_nut_static),
        cmocka_unit_test(commanded_speed_reached),   cmocka_unit_test(one_motor_half_speed),
        cmocka_unit_test(torque_limit_holds),        cmocka_unit_test(frt2_slips_before_the_limit),
        cmocka_unit_test(drive_work_booked),         cmocka_unit_test(extension_stops_at_sensor),
        cmocka_unit_test(trial_commit_revert),       cmocka_unit_test(phi_fr_of_eq_2_1),
        cmocka_unit_test(bad_parameters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

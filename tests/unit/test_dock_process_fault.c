/* The fault monitor of the docking process (mech/dock_process.h mech_dock_fault, docs/dock-process.md §2a) on
 * synthetic histories sampled at DT: each fault trips at its closed-form time with the values that tripped it
 * (a brake slipping at a constant rate for jam_time, the motors at their torque limit, the drive output reaching the
 * travel, a roll just inside and just beyond the tolerance when the planes meet, a reopening that lasts reopen_time
 * and one that does not), a nominal closing history trips nothing, the first fault is kept, the committed state is
 * untouched by a trial, the failure states end the sequencer, and the refused parameters name their key. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mech/dock_process.h"

#define DT 0.01
#define DEG (M_PI / 180.0)
#define SLOT_NARROW (0.5 * DEG)

static mech_dock_fault monitor(void)
{
    mech_dock_fault_params p;
    mech_dock_fault_params_default(&p);
    mech_dock_fault f;
    hy_err e = {0};
    assert_int_equal(mech_dock_fault_init(&f, &p, SLOT_NARROW, &e), HY_OK);
    return f;
}

/* a nominal input: retracting, no slip, planes far apart and aligned */
static mech_dock_fault_in nominal(void)
{
    return (mech_dock_fault_in){.retracting = 1, .at_limit = 0, .slip = 0, .drive_f = 500, .u = 0.2, .stroke = 0.2,
                                .gap_min = 0.2, .gap_max = 0.2, .roll = 0, .tilt = 0, .gap_closed = 5e-3};
}

// (monitor, input at step k, steps) => the step at which it tripped (-1: none); one trial + commit per step
static int run(mech_dock_fault *f, mech_dock_fault_in (*in)(int k), int n)
{
    for (int k = 0; k < n; k++) {
        mech_dock_fault_in x = in(k);
        int kind = mech_dock_fault_trial(f, k * DT, &x);
        mech_dock_fault_commit(f);
        if (kind != MECH_DOCK_FAULT_NONE)
            return k;
    }
    return -1;
}

/* the nominal close: the planes come in at 1.2 mm/s to a 1 mm gap and stay, aligned within the tolerances; the
   drive stops at closure (well below the travel) */
static mech_dock_fault_in closing(int k)
{
    mech_dock_fault_in x = nominal();
    double g = fmax(0.05 - 1.2e-3 * k * DT, 1e-3);
    x.gap_min = g - 2e-3, x.gap_max = g;   /* tilted by 2 mm over the rods */
    x.roll = 0.9 * SLOT_NARROW, x.tilt = 0.5 * DEG;
    x.u = 0.35 + (0.05 - g);
    x.retracting = g > 1e-3;
    return x;
}

static void nominal_close_trips_nothing(void **state)
{
    (void)state;
    mech_dock_fault f = monitor();
    assert_int_equal(run(&f, closing, 10000), -1);
    assert_true(f.committed.met);
    assert_true(f.committed.shut);
    assert_true(isnan(f.committed.t));
}

/* FrT2 slips at 1 mm/s (> slip_speed 0.3 mm/s) from step 100 while the drive retracts: the jam interval begins at
   the start of the first step that slips (t = 99 DT) and trips jam_time (5 s) later */
static mech_dock_fault_in slipping(int k)
{
    mech_dock_fault_in x = nominal();
    x.slip = k < 100 ? 0.0 : -1e-3 * (k - 99) * DT;
    x.drive_f = 6000;
    return x;
}

static void jam_by_slip(void **state)
{
    (void)state;
    mech_dock_fault f = monitor();
    int k = run(&f, slipping, 2000);
    assert_int_equal(k, 99 + 500);
    assert_int_equal(f.committed.kind, MECH_DOCK_FAULT_JAM);
    assert_float_equal(f.committed.t, k * DT, 1e-12);
    assert_float_equal(f.committed.v[0], -1e-3, 1e-12);   /* the slip rate */
    assert_float_equal(f.committed.v[1], 5.0, 1e-9);      /* how long */
    assert_float_equal(f.committed.v[2], 6000, 0);
    assert_float_equal(f.committed.v[3], 0, 0);
    assert_int_equal(mech_dock_fault_seq_state(f.committed.kind), MECH_DOCK_SEQ_FAIL_JAM);
    char buf[300];
    mech_dock_fault_reason(&f.committed, MECH_DOCK_B, buf, sizeof buf);
    assert_non_null(strstr(buf, "FrT2 slipped at 1 mm/s for 5 s"));
}

/* the same slip with the drive off (the planes held by the locked drive): no jam */
static mech_dock_fault_in slipping_off(int k)
{
    mech_dock_fault_in x = slipping(k);
    x.retracting = 0;
    return x;
}

/* a slip that stops for one step before jam_time restarts the interval */
static mech_dock_fault_in slipping_pause(int k)
{
    mech_dock_fault_in x = nominal();
    int j = k < 400 ? k : k - 1;   /* step 400 repeats 399's slip: no slip over that step */
    x.slip = k < 100 ? 0.0 : -1e-3 * (j - 99) * DT;
    return x;
}

static void no_jam_without_drive_or_with_a_break(void **state)
{
    (void)state;
    mech_dock_fault f = monitor();
    assert_int_equal(run(&f, slipping_off, 2000), -1);
    f = monitor();
    assert_int_equal(run(&f, slipping_pause, 2000), 400 + 500);   /* from the start of step 401 */
}

/* the motors at their torque limit from step 50: a jam jam_time later, drive_limit_time counted */
static mech_dock_fault_in stalled(int k)
{
    mech_dock_fault_in x = nominal();
    x.at_limit = k >= 50;
    x.drive_f = 8000;
    return x;
}

static void jam_at_torque_limit(void **state)
{
    (void)state;
    mech_dock_fault f = monitor();
    int k = run(&f, stalled, 2000);
    assert_int_equal(k, 49 + 500);
    assert_float_equal(f.committed.v[3], 1, 0);
    assert_float_equal(f.committed.limit_time, 500 * DT, 1e-9);
    char buf[300];
    mech_dock_fault_reason(&f.committed, MECH_DOCK_A, buf, sizeof buf);
    assert_non_null(strstr(buf, "torque limit (F = 8000 N) for 5 s"));
}

/* the drive output at 1.2 mm/s from 0.40 m reaches the 0.45 m travel at step ceil(0.05 / 1.2e-5) */
static mech_dock_fault_in running_out(int k)
{
    mech_dock_fault_in x = nominal();
    x.u = 0.40 + 1.2e-3 * k * DT;
    x.gap_min = x.gap_max = 0.02;
    return x;
}

static void end_of_travel(void **state)
{
    (void)state;
    mech_dock_fault f = monitor();
    int k = run(&f, running_out, 10000);
    assert_int_equal(k, (int)ceil(0.05 / 1.2e-5 - 1e-9));
    assert_int_equal(f.committed.kind, MECH_DOCK_FAULT_TRAVEL);
    assert_true(f.committed.v[0] >= 0.45 && f.committed.v[0] < 0.45 + 1.3e-5);
    assert_float_equal(f.committed.v[1], 0.45, 0);
    assert_float_equal(f.committed.v[2], 0.02, 0);
    assert_int_equal(mech_dock_fault_seq_state(f.committed.kind), MECH_DOCK_SEQ_FAIL_TRAVEL);
}

/* the planes meet (smallest gap first <= meet_gap 5 mm at step 250) with a roll of r: checked there once */
static double roll_at_meeting;
static mech_dock_fault_in meeting(int k)
{
    mech_dock_fault_in x = nominal();
    x.gap_min = 0.03 - 1e-4 * k;   /* 5 mm at k = 250 */
    x.gap_max = x.gap_min + 0.01;
    x.roll = roll_at_meeting;
    x.tilt = 0.3 * DEG;
    return x;
}

static void misaligned_when_the_planes_meet(void **state)
{
    (void)state;
    roll_at_meeting = -0.999 * SLOT_NARROW;   /* inside: nothing */
    mech_dock_fault f = monitor();
    assert_int_equal(run(&f, meeting, 300), -1);
    assert_true(f.committed.met);
    roll_at_meeting = -1.001 * SLOT_NARROW;   /* beyond, either sign */
    f = monitor();
    assert_int_equal(run(&f, meeting, 300), 250);
    assert_int_equal(f.committed.kind, MECH_DOCK_FAULT_MISALIGNED);
    assert_float_equal(f.committed.v[0], -1.001 * SLOT_NARROW, 0);
    assert_float_equal(f.committed.v[1], 0.3 * DEG, 0);
    assert_float_equal(f.committed.v[2], SLOT_NARROW, 0);   /* roll_tol 0: the slots' narrow half-width */
    assert_float_equal(f.committed.v[3], 1.0 * DEG, 1e-15);
    char buf[300];
    mech_dock_fault_reason(&f.committed, MECH_DOCK_B, buf, sizeof buf);
    assert_non_null(strstr(buf, "roll -0.5 deg (tolerance 0.5), tilt 0.3 deg (tolerance 1)"));
}

/* closed (largest gap 1 mm) at step 100, then the largest gap opens at 2.2 mm/s from step 200: above reopen_gap
   (10 mm) after 4.09 s, from step 610 (the first sample above), tripped reopen_time (0.5 s, 50 steps) later; a brief
   opening (held 0.3 s) is not one */
static int brief;
static mech_dock_fault_in reopening(int k)
{
    mech_dock_fault_in x = nominal();
    x.retracting = 0;
    double g = k < 100 ? 0.02 - 1.9e-4 * k : 1e-3;
    if (k >= 200)
        g = 1e-3 + 2.2e-3 * (k - 200) * DT;
    if (brief && k >= 200)
        g = k < 200 + 30 ? 0.015 : 1e-3;
    x.gap_min = g - 5e-4, x.gap_max = g;
    return x;
}

static void planes_reopen(void **state)
{
    (void)state;
    brief = 0;
    mech_dock_fault f = monitor();
    int k = run(&f, reopening, 2000);
    int first = 610;   /* 1 mm + 2.2 mm/s * 4.10 s = 10.02 mm; at 4.09 s 9.998 mm */
    assert_int_equal(k, first + 50);
    assert_int_equal(f.committed.kind, MECH_DOCK_FAULT_REOPEN);
    assert_float_equal(f.committed.v[0], 1e-3 + 2.2e-3 * (k - 200) * DT, 1e-15);
    assert_float_equal(f.committed.v[2], 0.5, 1e-9);
    brief = 1;
    f = monitor();
    assert_int_equal(run(&f, reopening, 2000), -1);
}

/* the first fault is kept; a trial leaves the committed state as it was; the failure states are final and the
   sequencer takes them once */
static void first_fault_kept_and_final(void **state)
{
    (void)state;
    mech_dock_fault f = monitor();
    run(&f, running_out, 10000);
    mech_dock_fault_in x = slipping(1000);
    mech_dock_fault_state before = f.committed;
    assert_int_equal(mech_dock_fault_trial(&f, 1e3, &x), MECH_DOCK_FAULT_TRAVEL);
    assert_memory_equal(&before, &f.committed, sizeof before);
    f = monitor();
    mech_dock_fault_in y = running_out(5000);
    mech_dock_fault_trial(&f, 50.0, &y);
    assert_int_equal(f.committed.kind, MECH_DOCK_FAULT_NONE);   /* not committed */
    for (int k = 1; k < MECH_DOCK_NFAULT; k++) {
        int st = mech_dock_fault_seq_state(k);
        assert_true(mech_dock_seq_final(st));
        assert_string_not_equal(mech_dock_seq_state_name(st), "?");
        assert_string_not_equal(mech_dock_fault_name(k), "?");
    }
    mech_dock_seq_params sp;
    mech_dock_seq_params_default(&sp);
    mech_dock_seq s;
    hy_err e = {0};
    assert_int_equal(mech_dock_seq_init(&s, &sp, MECH_DOCK_SEQ_READY, 0, &e), HY_OK);
    mech_dock_seq_fail(&s, 12.5, MECH_DOCK_SEQ_FAIL_REOPEN, MECH_DOCK_SEQ_BY_FAULT);
    assert_int_equal(s.committed.state, MECH_DOCK_SEQ_FAIL_REOPEN);
    assert_int_equal(s.committed.n_log, 1);
    assert_float_equal(s.committed.log[0].t, 12.5, 0);
    mech_dock_seq_fail(&s, 13, MECH_DOCK_SEQ_FAIL_JAM, MECH_DOCK_SEQ_BY_FAULT);   /* final: stays */
    assert_int_equal(s.committed.state, MECH_DOCK_SEQ_FAIL_REOPEN);
    assert_int_equal(s.committed.n_log, 1);
}

static void bad_parameters(void **state)
{
    (void)state;
    static const char *const key[] = {"faults.slip_speed", "faults.jam_time", "faults.travel", "faults.meet_gap",
                                      "faults.roll_tol_deg", "faults.tilt_tol_deg", "faults.reopen_gap",
                                      "faults.reopen_time"};
    for (int k = 0; k < 8; k++) {
        mech_dock_fault_params p;
        mech_dock_fault_params_default(&p);
        double *v[] = {&p.slip_speed, &p.jam_time, &p.travel, &p.meet_gap, &p.roll_tol, &p.tilt_tol, &p.reopen_gap,
                       &p.reopen_time};
        *v[k] = -1;
        mech_dock_fault f;
        hy_err e = {0};
        assert_int_equal(mech_dock_fault_init(&f, &p, SLOT_NARROW, &e), HY_EMODEL);
        assert_non_null(strstr(e.msg, key[k]));
        *v[k] = NAN;
        assert_int_equal(mech_dock_fault_check(&p, &e), HY_EMODEL);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nominal_close_trips_nothing),   cmocka_unit_test(jam_by_slip),
        cmocka_unit_test(no_jam_without_drive_or_with_a_break), cmocka_unit_test(jam_at_torque_limit),
        cmocka_unit_test(end_of_travel),                 cmocka_unit_test(misaligned_when_the_planes_meet),
        cmocka_unit_test(planes_reopen),                 cmocka_unit_test(first_fault_kept_and_final),
        cmocka_unit_test(bad_parameters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

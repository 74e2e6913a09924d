/* The docking sequencer (mech/dock_process.h, docs/dock-process.md §2) on synthetic sensor histories: the nominal
 * process with every transition at its closed-form time, each failure path (no capture in time, retraction jammed,
 * alignment not reached, hooks not closed in time), the docked state's hold restarting when it drops, the absorption timeout, a settling interval that is interrupted, trial/commit/revert,
 * the drive commands and the refused parameters. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mech/dock_process.h"

#define DT 0.01

/* a synthetic history: sensor times and motion laws of one run */
typedef struct hist {
    double t_ready, t_contact, t_bottom, t_capture;   /* < 0: never                                        */
    double motion0, motion_tau;                       /* motion = motion0 exp(-(t - t_capture) / tau)      */
    double t_stall;                                   /* the nut stops from here on (< 0: never)          */
    double gap_min;                                   /* the planes stop closing at this gap              */
    double docked_after;  /* the docked state holds from this long after CLOSED (< 0: never)                */
    double drop_at, drop_len;   /* ... except for drop_len from drop_at after CLOSED (a reopening)            */
} hist;

static mech_dock_seq_in input(const hist *h, const mech_dock_seq *s, double t, double *stroke)
{
    mech_dock_seq_in in = {0};
    in.ready = h->t_ready >= 0 && t >= h->t_ready;
    in.contact = h->t_contact >= 0 && t >= h->t_contact && t < h->t_contact + 0.3;   /* contacts come and go */
    in.bottom = h->t_bottom >= 0 && t >= h->t_bottom;
    in.capture = h->t_capture >= 0 && t >= h->t_capture;
    in.motion = in.capture ? h->motion0 * exp(-(t - h->t_capture) / h->motion_tau) : 0.1;
    int retracting = mech_dock_seq_drive_cmd(s->committed.state) == MECH_DOCK_DRIVE_RETRACT;
    int stalled = h->t_stall >= 0 && t >= h->t_stall;
    in.stroke_rate = retracting && !stalled ? 1.2e-3 : 0.0;
    *stroke += in.stroke_rate * DT;
    in.stroke = *stroke;
    in.gap = fmax(0.394 - *stroke, h->gap_min);
    if (s->committed.state == MECH_DOCK_SEQ_CLOSED) {
        double tc = t - s->committed.t_enter;
        in.docked = h->docked_after >= 0 && tc >= h->docked_after - 1e-9 &&
                    !(tc >= h->drop_at - 1e-9 && tc < h->drop_at + h->drop_len - 1e-9);
    }
    return in;
}

static void run(mech_dock_seq *s, const hist *h, double t_end)
{
    hy_err e;
    mech_dock_seq_params p;
    mech_dock_seq_params_default(&p);
    assert_int_equal(mech_dock_seq_init(s, &p, MECH_DOCK_SEQ_EXTEND, 0.0, &e), HY_OK);
    double stroke = 0.17;   /* after absorption */
    int n = (int)lround(t_end / DT);
    for (int i = 1; i <= n && !mech_dock_seq_final(s->committed.state); i++) {
        double t = i * DT;
        mech_dock_seq_in in = input(h, s, t, &stroke);
        mech_dock_seq_trial(s, t, &in);
        mech_dock_seq_commit(s);
    }
}

static void expect(const mech_dock_seq *s, int k, int from, int to, int cause, double t)
{
    assert_true(k < s->committed.n_log);
    const mech_dock_seq_event *ev = &s->committed.log[k];
    printf("  %8.2f s  %-8s -> %-16s (%s)\n", ev->t, mech_dock_seq_state_name(ev->from),
           mech_dock_seq_state_name(ev->to), mech_dock_seq_cause_name(ev->cause));
    assert_int_equal(ev->from, from);
    assert_int_equal(ev->to, to);
    assert_int_equal(ev->cause, cause);
    assert_true(fabs(ev->t - t) < 1.01 * DT);   /* the first sample at or after the event */
}

/* the hooks lock 10 s after CLOSED (their nominal closing, dock-process.md §9) */
static const hist nominal = {2.0, 10.0, 10.2, 10.5, 0.1, 2.0, -1, 0.0, 10.0, -1, 0};

static void nominal_process(void **state)
{
    (void)state;
    mech_dock_seq s;
    run(&s, &nominal, 400);
    /* motion < 2e-3 from t = 10.5 + 2 ln(50) = 18.324 (first sample 18.33); settled 5 s later; the stroke goes
       0.17 -> 0.30 at 1.2 mm/s (108.33 s) and to 0.389 (gap 5 mm, gap_closed) after 182.5 s; docked 10 s later,
       end when that has held for 5 s */
    double t_settle = ceil((10.5 + 2 * log(50.0)) / DT) * DT + 5.0;
    double t_align = t_settle + (0.30 - 0.17) / 1.2e-3, t_closed = t_settle + (0.389 - 0.17) / 1.2e-3;
    printf("nominal:\n");
    expect(&s, 0, MECH_DOCK_SEQ_EXTEND, MECH_DOCK_SEQ_READY, MECH_DOCK_SEQ_BY_SENSOR_READY, 2.0);
    expect(&s, 1, MECH_DOCK_SEQ_READY, MECH_DOCK_SEQ_CONTACT, MECH_DOCK_SEQ_BY_CONTACT, 10.0);
    expect(&s, 2, MECH_DOCK_SEQ_CONTACT, MECH_DOCK_SEQ_CONTACT, MECH_DOCK_SEQ_BY_BOTTOM, 10.2);
    expect(&s, 3, MECH_DOCK_SEQ_CONTACT, MECH_DOCK_SEQ_ABSORB, MECH_DOCK_SEQ_BY_CAPTURE, 10.5);
    expect(&s, 4, MECH_DOCK_SEQ_ABSORB, MECH_DOCK_SEQ_RETRACT, MECH_DOCK_SEQ_BY_SETTLED, t_settle);
    expect(&s, 5, MECH_DOCK_SEQ_RETRACT, MECH_DOCK_SEQ_ALIGN, MECH_DOCK_SEQ_BY_ALIGN_STROKE, t_align);
    expect(&s, 6, MECH_DOCK_SEQ_ALIGN, MECH_DOCK_SEQ_CLOSED, MECH_DOCK_SEQ_BY_PLANES, t_closed);
    expect(&s, 7, MECH_DOCK_SEQ_CLOSED, MECH_DOCK_SEQ_END, MECH_DOCK_SEQ_BY_DOCKED, t_closed + 15.0);
    assert_int_equal(s.committed.n_log, 8);
    assert_int_equal(s.committed.n_lost, 0);
    assert_int_equal(s.committed.state, MECH_DOCK_SEQ_END);
}

static void no_capture_in_time(void **state)
{
    (void)state;
    hist h = nominal;
    h.t_capture = -1;
    mech_dock_seq s;
    run(&s, &h, 400);
    printf("no capture:\n");
    expect(&s, 3, MECH_DOCK_SEQ_CONTACT, MECH_DOCK_SEQ_FAIL_NO_CAPTURE, MECH_DOCK_SEQ_BY_CAPTURE_TIMEOUT, 20.0);
    assert_int_equal(s.committed.n_log, 4);
}

static void retraction_jammed(void **state)
{
    (void)state;
    hist h = nominal;
    h.t_stall = 60.0;
    mech_dock_seq s;
    run(&s, &h, 400);
    printf("jam:\n");
    expect(&s, 5, MECH_DOCK_SEQ_RETRACT, MECH_DOCK_SEQ_FAIL_JAM, MECH_DOCK_SEQ_BY_JAM, 70.0);
}

static void jam_in_alignment(void **state)
{
    (void)state;
    hist h = nominal;
    h.t_stall = 150.0;   /* after align_stroke */
    mech_dock_seq s;
    run(&s, &h, 400);
    printf("jam while aligning:\n");
    expect(&s, 6, MECH_DOCK_SEQ_ALIGN, MECH_DOCK_SEQ_FAIL_JAM, MECH_DOCK_SEQ_BY_JAM, 160.0);
}

static void alignment_not_reached(void **state)
{
    (void)state;
    hist h = nominal;
    h.gap_min = 0.01;    /* the planes stay 1 cm apart while the nut keeps turning */
    mech_dock_seq s;
    run(&s, &h, 500);
    double t_settle = ceil((10.5 + 2 * log(50.0)) / DT) * DT + 5.0;
    double t_align = t_settle + (0.30 - 0.17) / 1.2e-3;
    printf("alignment not reached:\n");
    expect(&s, 6, MECH_DOCK_SEQ_ALIGN, MECH_DOCK_SEQ_FAIL_ALIGN, MECH_DOCK_SEQ_BY_ALIGN_TIMEOUT, t_align + 300.0);
}

/* the docked state never holds: "hooks not closed in time" hooks_timeout (30 s) after CLOSED */
static void hooks_not_closed(void **state)
{
    (void)state;
    hist h = nominal;
    h.docked_after = -1;
    mech_dock_seq s;
    run(&s, &h, 500);
    double t_settle = ceil((10.5 + 2 * log(50.0)) / DT) * DT + 5.0;
    double t_closed = t_settle + (0.389 - 0.17) / 1.2e-3;
    printf("hooks not closed:\n");
    expect(&s, 6, MECH_DOCK_SEQ_ALIGN, MECH_DOCK_SEQ_CLOSED, MECH_DOCK_SEQ_BY_PLANES, t_closed);
    expect(&s, 7, MECH_DOCK_SEQ_CLOSED, MECH_DOCK_SEQ_FAIL_HOOKS, MECH_DOCK_SEQ_BY_HOOKS_TIMEOUT, t_closed + 30.0);
    assert_string_equal(mech_dock_seq_cause_name(s.committed.log[7].cause), "hooks not closed in time");
    assert_int_equal(s.committed.state, MECH_DOCK_SEQ_FAIL_HOOKS);
    /* docked at 10 s, dropped at 12 s for 1 s: the hold restarts at 13 s and ends at 18 s; dropped again at 27 s for
       good (the hold from 13 s has ended the process first) */
    h.docked_after = 10.0, h.drop_at = 12.0, h.drop_len = 1.0;
    run(&s, &h, 500);
    printf("docked state interrupted:\n");
    expect(&s, 7, MECH_DOCK_SEQ_CLOSED, MECH_DOCK_SEQ_END, MECH_DOCK_SEQ_BY_DOCKED, t_closed + 18.0);
    /* docked only from 26 s: the hold would end at 31 s, after the timeout */
    h.docked_after = 26.0, h.drop_len = 0;
    run(&s, &h, 500);
    expect(&s, 7, MECH_DOCK_SEQ_CLOSED, MECH_DOCK_SEQ_FAIL_HOOKS, MECH_DOCK_SEQ_BY_HOOKS_TIMEOUT, t_closed + 30.0);
}

static void absorption_timeout(void **state)
{
    (void)state;
    hist h = nominal;
    h.motion_tau = 1e9;  /* never settles */
    mech_dock_seq s;
    run(&s, &h, 100);
    printf("absorption timeout:\n");
    expect(&s, 4, MECH_DOCK_SEQ_ABSORB, MECH_DOCK_SEQ_RETRACT, MECH_DOCK_SEQ_BY_ABSORB_TIMEOUT, 40.5);
}

/* a quiet interval of 3 s (< settle_time) then motion again: the timer restarts */
static void settling_interrupted(void **state)
{
    (void)state;
    mech_dock_seq_params p;
    mech_dock_seq_params_default(&p);
    mech_dock_seq s;
    hy_err e;
    assert_int_equal(mech_dock_seq_init(&s, &p, MECH_DOCK_SEQ_READY, 0.0, &e), HY_OK);
    mech_dock_seq_in in = {0};
    in.contact = in.capture = 1;
    in.gap = 0.3;
    for (int i = 1; i <= 3000; i++) {
        double t = i * DT;
        in.motion = (t >= 2.0 && t < 5.0) || t >= 8.0 ? 1e-3 : 1e-2;
        mech_dock_seq_trial(&s, t, &in);
        mech_dock_seq_commit(&s);
    }
    printf("settling interrupted:\n");
    expect(&s, 0, MECH_DOCK_SEQ_READY, MECH_DOCK_SEQ_CONTACT, MECH_DOCK_SEQ_BY_CONTACT, DT);
    expect(&s, 1, MECH_DOCK_SEQ_CONTACT, MECH_DOCK_SEQ_ABSORB, MECH_DOCK_SEQ_BY_CAPTURE, DT);
    expect(&s, 2, MECH_DOCK_SEQ_ABSORB, MECH_DOCK_SEQ_RETRACT, MECH_DOCK_SEQ_BY_SETTLED, 13.0);
}

static void trial_commit_revert(void **state)
{
    (void)state;
    mech_dock_seq_params p;
    mech_dock_seq_params_default(&p);
    mech_dock_seq s;
    hy_err e;
    assert_int_equal(mech_dock_seq_init(&s, &p, MECH_DOCK_SEQ_READY, 0.0, &e), HY_OK);
    mech_dock_seq_state_s c = s.committed;
    mech_dock_seq_in in = {0};
    in.contact = in.capture = 1;
    assert_int_equal(mech_dock_seq_trial(&s, 1.0, &in), MECH_DOCK_SEQ_ABSORB);
    assert_memory_equal(&c, &s.committed, sizeof c);
    assert_int_equal(s.trial.n_log, 2);
    mech_dock_seq_revert(&s);
    assert_memory_equal(&s.trial, &s.committed, sizeof c);
    in.capture = 0;
    assert_int_equal(mech_dock_seq_trial(&s, 1.0, &in), MECH_DOCK_SEQ_CONTACT);   /* a rejected step's event is gone */
}

static void drive_commands(void **state)
{
    (void)state;
    int want[MECH_DOCK_SEQ_NSTATE] = {MECH_DOCK_DRIVE_EXTEND, 0, 0, 0, MECH_DOCK_DRIVE_RETRACT,
                                      MECH_DOCK_DRIVE_RETRACT, 0, 0, 0, 0, 0, 0};
    for (int k = 0; k < MECH_DOCK_SEQ_NSTATE; k++) {
        assert_int_equal(mech_dock_seq_drive_cmd(k), want[k]);
        assert_int_equal(mech_dock_seq_final(k), k >= MECH_DOCK_SEQ_END);
        assert_string_not_equal(mech_dock_seq_state_name(k), "?");
    }
}

static void bad_parameters(void **state)
{
    (void)state;
    mech_dock_seq_params p;
    mech_dock_seq_params_default(&p);
    p.jam_time = -1;
    hy_err e;
    mech_dock_seq s;
    assert_int_equal(mech_dock_seq_init(&s, &p, MECH_DOCK_SEQ_READY, 0, &e), HY_EMODEL);
    assert_non_null(strstr(e.msg, "sequencer.jam_time"));
    mech_dock_seq_params_default(&p);
    p.capture_timeout = NAN;
    assert_int_equal(mech_dock_seq_init(&s, &p, MECH_DOCK_SEQ_READY, 0, &e), HY_EMODEL);
    assert_non_null(strstr(e.msg, "sequencer.capture_timeout"));
    mech_dock_seq_params_default(&p);
    p.hooks_timeout = 0;
    assert_int_equal(mech_dock_seq_init(&s, &p, MECH_DOCK_SEQ_READY, 0, &e), HY_EMODEL);
    assert_non_null(strstr(e.msg, "sequencer.hooks_timeout"));
    mech_dock_seq_params_default(&p);
    assert_int_equal(mech_dock_seq_init(&s, &p, MECH_DOCK_SEQ_ABSORB, 0, &e), HY_EMODEL);
    assert_non_null(strstr(e.msg, "sequencer.start"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nominal_process),     cmocka_unit_test(no_capture_in_time),
        cmocka_unit_test(retraction_jammed),   cmocka_unit_test(jam_in_alignment),
        cmocka_unit_test(alignment_not_reached), cmocka_unit_test(hooks_not_closed),
        cmocka_unit_test(absorption_timeout),
        cmocka_unit_test(settling_interrupted), cmocka_unit_test(trial_commit_revert),
        cmocka_unit_test(drive_commands),      cmocka_unit_test(bad_parameters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

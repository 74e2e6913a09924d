/* RP-2 through the whole process docks (issue 44 item 4; docs/rp2-parameters.md §8-§10): S3x-400-A, S3x-400-C
 * (module cone) and S3x-400-C-short of fixtures/mech/dock/rp2/ — the sequencer reaches END, 8 hooks locked, within
 * 400 s, under the fault monitor as shipped (roll within the slots' narrow half-width, tilt within 1 deg when the
 * planes meet) — at their tolerance and at a quarter of it, the sequence times within 0.5 % (the criterion).
 * (S3x-400-B: test_dock_rp2.) The roll guides do the last alignment: they enter before the planes meet and hold the
 * roll at closure within their clearance. Checked against the history's own rows: the roll and tilt at the row where
 * the first rod gap comes within the monitor's meet_gap, the roll at the first row in "closed" (the summary's
 * at_closed), and the docked state at the end from the channels. The counter-cases: S3x-400-C without the guides
 * (roll_guides.n = 0) closes with the roll the slots leave (-0.96 deg) instead; S3x-400-C-short without the dampers
 * in its pushers (RP-2 §9.4) meets the planes with the roll aligned but the tilt beyond 1 deg; S3x-400-A without the
 * guides and dampers (the slots alone, with §8's levers) does not dock. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mech/dock.h"
#include "mech/dock_hooks.h"
#include "mech/dock_process.h"

#define DEG (M_PI / 180)

static const char *fixtures(void)
{
    const char *fx = getenv("FIXTURES");
    return fx && fx[0] ? fx : "fixtures";
}

typedef struct c_out {
    int    state, locked, guides;
    double t_closed, t_end, t_locked, tol;
    double roll_tol, tilt_tol, slot_narrow, hook_roll_tol;
    mech_dock_fault_state fault;
    double guide_t_enter, guide_roll_enter;
    double h_roll_meet, h_tilt_meet, h_t_meet;   /* the history's row where the smallest rod gap first <= meet_gap */
    double h_roll_closed;                        /* ... its first row in "closed"                                 */
    double roll_closed;                          /* the summary's                                                 */
    double guide_roll_bound;                     /* asin(2 clearance / radius) of the guides                      */
    double h_unmet_end, h_roll_end, h_tilt_end;  /* its last row                                                  */
    double latch_t[4];                           /* when each latch engaged (the summary's; NAN: still folded)    */
} c_out;

static void run(const char *name, double tol_factor, int guides, int pusher_dampers, c_out *o)
{
    char path[512];
    snprintf(path, sizeof path, "%s/mech/dock/rp2/%s.json", fixtures(), name);
    mech_dock_config c;
    hy_err e;
    int rc = mech_dock_config_read(path, &c, &e);
    if (rc)
        print_message("%s\n", e.msg);
    assert_int_equal(rc, HY_OK);
    c.params.tol *= tol_factor;
    if (!guides)
        c.params.process.roll_guides.n = 0;
    if (!pusher_dampers)
        c.params.process.pushers.damping = 0;
    mech_dock_model *m;
    mech_dock_sim *s;
    assert_int_equal(mech_dock_model_new(&c.params, &m, &e), HY_OK);
    assert_int_equal(mech_dock_sim_new(m, &s, &e), HY_OK);
    const mech_dock_process_params *pp = &c.params.process;
    o->h_t_meet = o->h_roll_meet = o->h_tilt_meet = o->h_roll_closed = NAN;
    const int nrod = pp->pushers.n;
    while (!mech_dock_sim_done(s)) {
        rc = mech_dock_sim_step(s, &e);
        if (rc)
            print_message("%s\n", e.msg);
        assert_int_equal(rc, HY_OK);
        const double *ch = mech_dock_sim_channels(s);
        double gmin = INFINITY;
        for (int i = 0; i < nrod && i < 4; i++)
            gmin = fmin(gmin, ch[MECH_DOCK_CH_ROD_GAP1 + i]);
        if (isnan(o->h_t_meet) && gmin <= pp->faults.meet_gap) {
            o->h_t_meet = ch[MECH_DOCK_CH_T];
            o->h_roll_meet = ch[MECH_DOCK_CH_REL_ROLL];
            o->h_tilt_meet = ch[MECH_DOCK_CH_REL_TILT];
        }
        if (isnan(o->h_roll_closed) && (int)ch[MECH_DOCK_CH_SEQ_STATE] == MECH_DOCK_SEQ_CLOSED)
            o->h_roll_closed = ch[MECH_DOCK_CH_REL_ROLL];
        o->h_unmet_end = ch[MECH_DOCK_CH_DOCKED_UNMET];
        o->h_roll_end = ch[MECH_DOCK_CH_REL_ROLL];
        o->h_tilt_end = ch[MECH_DOCK_CH_REL_TILT];
    }
    const mech_dock_process_summary *ps = mech_dock_sim_process(s);
    const mech_dock_hooks_summary *hs = mech_dock_sim_hooks(s);
    o->state = ps->state;
    o->fault = ps->fault;
    for (int k = 0; k < 4; k++)
        o->latch_t[k] = mech_dock_sim_summary(s)->latch_time[k];
    o->t_closed = ps->t_closed;
    o->t_end = ps->t_end;
    o->t_locked = hs->t_locked;
    o->locked = hs->locked;
    o->roll_closed = ps->roll_closed;
    o->guides = ps->guide_n;
    o->guide_t_enter = ps->guide_t_enter;
    o->guide_roll_enter = ps->guide_roll_enter;
    o->tol = c.params.tol;
    o->slot_narrow = c.params.geom.slot_narrow;
    o->roll_tol = pp->faults.roll_tol > 0 ? pp->faults.roll_tol : c.params.geom.slot_narrow;   /* 0: the slots' */
    o->tilt_tol = pp->faults.tilt_tol;
    o->hook_roll_tol = pp->hooks.roll_tol;
    o->guide_roll_bound = asin(2 * pp->roll_guides.clearance / pp->roll_guides.radius);
    print_message("%s, tolerance %.3g, guides %d: %s (fault %s at %.3f s), planes met %.3f s (roll %.3f, tilt %.3f "
                  "deg), guides in %.3f s (roll %.3f deg), closed %.3f s (roll %.4f deg), locked %.3f s, end %.3f s\n",
                  name, o->tol, o->guides, mech_dock_seq_state_name(o->state),
                  o->fault.kind ? mech_dock_fault_name(o->fault.kind) : "none", o->fault.t, o->h_t_meet,
                  o->h_roll_meet / DEG, o->h_tilt_meet / DEG, o->guide_t_enter, o->guide_roll_enter / DEG, o->t_closed,
                  o->roll_closed / DEG, o->t_locked, o->t_end);
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
    mech_dock_config_free(&c);
}

static void docked(const c_out *o)
{
    assert_int_equal(o->state, MECH_DOCK_SEQ_END);
    assert_int_equal(o->fault.kind, MECH_DOCK_FAULT_NONE);
    assert_int_equal(o->locked, 8);
    assert_true(o->t_end <= 400);
    /* every latch snapped out behind its stop before the planes met (RP-2's 7.5 mm slots: test_dock_rp2's
       latches_engage) */
    for (int k = 0; k < 4; k++)
        assert_true(o->latch_t[k] < o->h_t_meet);
    /* the monitor's check, re-decided from the history's row: aligned when the planes met */
    assert_false(isnan(o->h_t_meet));
    assert_true(fabs(o->h_roll_meet) <= o->roll_tol);
    assert_true(o->h_tilt_meet <= o->tilt_tol);
    /* the summary's roll at closure is the history's first "closed" row; inside the hooks' catch */
    assert_true(o->roll_closed == o->h_roll_closed);
    assert_true(fabs(o->roll_closed) <= o->hook_roll_tol);
    /* the docked state at the end from the channels: nothing unmet, the roll inside the hooks' tolerance */
    assert_true(o->h_unmet_end == 0);
    assert_true(fabs(o->h_roll_end) <= o->hook_roll_tol);
    /* the guides did the last alignment: they entered before the planes met and hold the roll at closure within
       their clearance, doubled for the pins' deflection under the faces' force (< 1 kN on 1e6 N/m: < 1 mm) */
    assert_int_equal(o->guides, 4);
    assert_true(o->guide_t_enter < o->h_t_meet);
    assert_true(fabs(o->roll_closed) <= o->guide_roll_bound);
}

/* the scenario at its tolerance (a) and at a quarter of it (b): both docked, and converged (issue 44: a 4x tighter
   tolerance moves the sequence times by < 0.5 %, no success into a failure) */
static void docked_converged(const char *name, c_out *a, c_out *b)
{
    run(name, 1.0, 1, 1, a);
    run(name, 0.25, 1, 1, b);
    docked(a);
    docked(b);
    assert_true(fabs(a->t_closed - b->t_closed) < 0.005 * b->t_closed);
    assert_true(fabs(a->t_locked - b->t_locked) < 0.005 * b->t_locked);
    assert_true(fabs(a->t_end - b->t_end) < 0.005 * b->t_end);
}

static void s3x_400_a(void **state)
{
    (void)state;
    c_out a, b, n;
    docked_converged("s3x-400-A", &a, &b);
    /* §8's levers with the slots alone (no guides, no pusher dampers): the planes meet misaligned */
    run("s3x-400-A", 1.0, 0, 0, &n);
    assert_int_not_equal(n.state, MECH_DOCK_SEQ_END);
}

static void s3x_400_c(void **state)
{
    (void)state;
    c_out a, b, n;
    docked_converged("s3x-400-C", &a, &b);
    /* without the guides the roll at closure is what the slots leave, the latches on the narrow faces (-0.89 deg
       against the hooks' 1 deg: docs/rp2-parameters.md §9), not the guides' clearance */
    run("s3x-400-C", 1.0, 0, 1, &n);
    assert_true(n.state != MECH_DOCK_SEQ_END || fabs(n.roll_closed) > a.guide_roll_bound);
}

static void s3x_400_c_short(void **state)
{
    (void)state;
    c_out a, b, n;
    docked_converged("s3x-400-C-short", &a, &b);
    /* without the pushers' dampers the planes meet with the roll aligned and the tilt wobbling beyond the monitor's
       1 deg: the run ends there, on the tilt (the monitor's values are the history's row: the run ends at it) */
    run("s3x-400-C-short", 1.0, 1, 0, &n);
    assert_int_equal(n.state, MECH_DOCK_SEQ_FAIL_MISALIGNED);
    assert_true(fabs(n.h_roll_meet) <= n.roll_tol);
    assert_true(n.h_tilt_meet > n.tilt_tol);
    assert_true(fabs(n.fault.v[0] - n.h_roll_end) <= 1e-12 && fabs(n.fault.v[1] - n.h_tilt_end) <= 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(s3x_400_a),
        cmocka_unit_test(s3x_400_c),
        cmocka_unit_test(s3x_400_c_short),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The sequencer (cyclic control) of the docking process from the head sensors (spec 001 §1.3 items 13, 24-26;
 * §1.1 items 2-4; RP-1 §1.2: Syromiatnikov's time-to-linkage failure criterion):
 *   EXTEND -(initial-position sensor)-> READY -(contact | bottom)-> CONTACT -(capture)-> ABSORB
 *   -(settled for settle_time | absorb_timeout)-> RETRACT -(stroke >= align_stroke)-> ALIGN
 *   -(gap <= gap_closed: the hook drive starts)-> CLOSED -(the docked state held for docked_hold)-> END
 * failures: CONTACT -(capture_timeout)-> FAIL_NO_CAPTURE; RETRACT/ALIGN -(|s'| < jam_speed for jam_time)->
 * FAIL_JAM; ALIGN -(align_timeout)-> FAIL_ALIGN; CLOSED -(hooks_timeout)-> FAIL_HOOKS ("hooks not closed in time":
 * the docked state of mech/dock_hooks.h, hooks locked with preload, the planes in contact at every rod, roll and
 * tilt within the hooks' tolerance, has not held for docked_hold by then; issue 44); the fault monitor's trips
 * (dock_fault.c) -> FAIL_JAM, FAIL_TRAVEL, FAIL_MISALIGNED, FAIL_REOPEN (mech_dock_seq_fail). The paper does not
 * give the logic (spec 001 §7.1 item 12): this
 * is the sequence §1.1 describes, with the thresholds as parameters. Every transition (and the first bottom
 * contact) is logged with its time in a fixed-size log; events past its size are counted, not stored. */
#include <math.h>
#include <string.h>
#include "mech/dock_process.h"

static const char *const state_name[MECH_DOCK_SEQ_NSTATE] = {
    "extend", "ready", "contact", "absorb", "retract", "align", "closed", "end",
    "fail-no-capture", "fail-jam", "fail-align", "fail-travel", "fail-misaligned", "fail-reopen", "fail-hooks"};
static const char *const cause_name[MECH_DOCK_SEQ_NCAUSE] = {
    "initial-position sensor", "contact sensor", "bottom sensor", "capture sensor", "motion settled",
    "absorption timeout", "alignment stroke", "docking planes closed", "docked state held", "no capture in time",
    "retraction jammed", "alignment not reached", "hooks not closed in time", "fault monitor"};

const char *mech_dock_seq_state_name(int s) { return s >= 0 && s < MECH_DOCK_SEQ_NSTATE ? state_name[s] : "?"; }
const char *mech_dock_seq_cause_name(int c) { return c >= 0 && c < MECH_DOCK_SEQ_NCAUSE ? cause_name[c] : "?"; }

void mech_dock_seq_params_default(mech_dock_seq_params *p)
{
    p->capture_timeout = 10.0;
    p->settle_speed = 2e-3;
    p->settle_time = 5.0;
    p->absorb_timeout = 30.0;
    p->jam_speed = 1e-4;     /* 1/12 of the 1.2 mm/s retraction                                              */
    p->jam_time = 10.0;
    p->align_stroke = 0.30;  /* the last ~0.09 m of RP-1's 0.394 m retraction (planes close at s = 0.394)     */
    p->align_timeout = 300.0; /* B, C: the pushers hold the probe while FrT1 slips back, up to 0.25 m at 1.2 mm/s
                                 (208 s), before FrT2 pulls the planes shut (spec 001 §5.2)                     */
    p->gap_closed = 5e-3;    /* every rod and hook point within the structural hooks' capture range (they pull the
                                planes flush)                                                                   */
    p->docked_hold = 5.0;    /* five periods of the slowest joint mode the hooks stiffen (the vehicles' ~1 Hz
                                bending on the lateral springs): a reopening or a slipping joint shows within it */
    p->hooks_timeout = 30.0; /* 3 x the hooks' nominal 10 s closing (dock-process.md §9), less than the 5 s hold
                                would need after a stalled drive                                                 */
}

int mech_dock_seq_check(const mech_dock_seq_params *p, hy_err *err)
{
    struct { const char *key; double v; int zero_ok; } k[] = {
        {"capture_timeout", p->capture_timeout, 0}, {"settle_speed", p->settle_speed, 0},
        {"settle_time", p->settle_time, 1},         {"absorb_timeout", p->absorb_timeout, 0},
        {"jam_speed", p->jam_speed, 0},             {"jam_time", p->jam_time, 0},
        {"align_stroke", p->align_stroke, 1},       {"align_timeout", p->align_timeout, 0},
        {"gap_closed", p->gap_closed, 1},           {"docked_hold", p->docked_hold, 1},
        {"hooks_timeout", p->hooks_timeout, 0}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (!isfinite(k[i].v) || k[i].v < 0 || (!k[i].zero_ok && k[i].v == 0))
            return hy_err_set(err, HY_EMODEL, "sequencer.%s: must be a finite number %s (got %.17g)", k[i].key,
                              k[i].zero_ok ? ">= 0" : "> 0", k[i].v);
    return HY_OK;
}

int mech_dock_seq_init(mech_dock_seq *s, const mech_dock_seq_params *p, int start, double t0, hy_err *err)
{
    int rc = mech_dock_seq_check(p, err);
    if (rc)
        return rc;
    if (start != MECH_DOCK_SEQ_EXTEND && start != MECH_DOCK_SEQ_READY)
        return hy_err_set(err, HY_EMODEL, "sequencer.start: must be extend or ready (got %d)", start);
    memset(s, 0, sizeof *s);
    s->p = *p;
    s->committed.state = start;
    s->committed.t_enter = t0;
    s->committed.t_first_contact = -1.0;
    s->committed.t_quiet = -1.0;
    s->committed.t_align = -1.0;
    s->trial = s->committed;
    return HY_OK;
}

static void log_event(mech_dock_seq_state_s *s, double t, int from, int to, int cause)
{
    if (s->n_log < MECH_DOCK_SEQ_LOG)
        s->log[s->n_log++] = (mech_dock_seq_event){t, from, to, cause};
    else
        s->n_lost++;
}

static void go(mech_dock_seq_state_s *s, double t, int to, int cause)
{
    log_event(s, t, s->state, to, cause);
    s->state = to;
    s->t_enter = t;
    s->t_quiet = -1.0;
}

/* quiet-interval timer: 1 when the condition has held from t_quiet for at least dur */
static int held(mech_dock_seq_state_s *s, double t, int cond, double dur)
{
    if (!cond) {
        s->t_quiet = -1.0;
        return 0;
    }
    if (s->t_quiet < 0)
        s->t_quiet = t;
    return t - s->t_quiet >= dur;
}

int mech_dock_seq_trial(mech_dock_seq *sq, double t, const mech_dock_seq_in *in)
{
    const mech_dock_seq_params *p = &sq->p;
    mech_dock_seq_state_s s = sq->committed;
    if (in->bottom && !s.bottom_seen) {
        s.bottom_seen = 1;
        log_event(&s, t, s.state, s.state, MECH_DOCK_SEQ_BY_BOTTOM);
    }
    for (int pass = 0; pass < MECH_DOCK_SEQ_NSTATE; pass++) {
        int before = s.state;
        switch (s.state) {
        case MECH_DOCK_SEQ_EXTEND:
            if (in->ready)
                go(&s, t, MECH_DOCK_SEQ_READY, MECH_DOCK_SEQ_BY_SENSOR_READY);
            break;
        case MECH_DOCK_SEQ_READY:
            if (in->contact || in->bottom || in->capture) {
                s.t_first_contact = t;
                go(&s, t, MECH_DOCK_SEQ_CONTACT, in->contact ? MECH_DOCK_SEQ_BY_CONTACT
                                                  : in->bottom ? MECH_DOCK_SEQ_BY_BOTTOM : MECH_DOCK_SEQ_BY_CAPTURE);
            }
            break;
        case MECH_DOCK_SEQ_CONTACT:
            if (in->capture)
                go(&s, t, MECH_DOCK_SEQ_ABSORB, MECH_DOCK_SEQ_BY_CAPTURE);
            else if (t - s.t_first_contact >= p->capture_timeout)
                go(&s, t, MECH_DOCK_SEQ_FAIL_NO_CAPTURE, MECH_DOCK_SEQ_BY_CAPTURE_TIMEOUT);
            break;
        case MECH_DOCK_SEQ_ABSORB:
            if (held(&s, t, fabs(in->motion) < p->settle_speed, p->settle_time))
                go(&s, t, MECH_DOCK_SEQ_RETRACT, MECH_DOCK_SEQ_BY_SETTLED);
            else if (t - s.t_enter >= p->absorb_timeout)
                go(&s, t, MECH_DOCK_SEQ_RETRACT, MECH_DOCK_SEQ_BY_ABSORB_TIMEOUT);
            break;
        case MECH_DOCK_SEQ_RETRACT:
            if (in->stroke >= p->align_stroke) {
                s.t_align = t;
                go(&s, t, MECH_DOCK_SEQ_ALIGN, MECH_DOCK_SEQ_BY_ALIGN_STROKE);
            } else if (held(&s, t, fabs(in->stroke_rate) < p->jam_speed, p->jam_time))
                go(&s, t, MECH_DOCK_SEQ_FAIL_JAM, MECH_DOCK_SEQ_BY_JAM);
            break;
        case MECH_DOCK_SEQ_ALIGN:
            if (in->gap <= p->gap_closed)
                go(&s, t, MECH_DOCK_SEQ_CLOSED, MECH_DOCK_SEQ_BY_PLANES);
            else if (held(&s, t, fabs(in->stroke_rate) < p->jam_speed, p->jam_time))
                go(&s, t, MECH_DOCK_SEQ_FAIL_JAM, MECH_DOCK_SEQ_BY_JAM);
            else if (t - s.t_align >= p->align_timeout)
                go(&s, t, MECH_DOCK_SEQ_FAIL_ALIGN, MECH_DOCK_SEQ_BY_ALIGN_TIMEOUT);
            break;
        case MECH_DOCK_SEQ_CLOSED:
            if (held(&s, t, in->docked, p->docked_hold))
                go(&s, t, MECH_DOCK_SEQ_END, MECH_DOCK_SEQ_BY_DOCKED);
            else if (t - s.t_enter >= p->hooks_timeout)
                go(&s, t, MECH_DOCK_SEQ_FAIL_HOOKS, MECH_DOCK_SEQ_BY_HOOKS_TIMEOUT);
            break;
        default:
            break;
        }
        if (s.state == before)
            break;
    }
    sq->trial = s;
    return s.state;
}

void mech_dock_seq_fail(mech_dock_seq *sq, double t, int state, int cause)
{
    if (mech_dock_seq_final(sq->committed.state) || state < MECH_DOCK_SEQ_FAIL_NO_CAPTURE ||
        state >= MECH_DOCK_SEQ_NSTATE)
        return;
    go(&sq->committed, t, state, cause);
    sq->trial = sq->committed;
}

void mech_dock_seq_commit(mech_dock_seq *s) { s->committed = s->trial; }
void mech_dock_seq_revert(mech_dock_seq *s) { s->trial = s->committed; }

int mech_dock_seq_drive_cmd(int state)
{
    switch (state) {
    case MECH_DOCK_SEQ_EXTEND:
        return MECH_DOCK_DRIVE_EXTEND;
    case MECH_DOCK_SEQ_RETRACT:
    case MECH_DOCK_SEQ_ALIGN:
        return MECH_DOCK_DRIVE_RETRACT;
    default:
        return MECH_DOCK_DRIVE_OFF;   /* ready, contact, absorption: clutches locked; closed, end, failures */
    }
}

int mech_dock_seq_final(int state) { return state >= MECH_DOCK_SEQ_END; }

/* The fault monitor of the docking process (mech/dock_process.h, docs/dock-process.md §2a): a flight sequencer's
 * failure paths at the end of the process, which the sequencer's own timers (no capture in time, the nut stalled,
 * alignment timeout) do not see. The paper gives no fault logic (spec 001 §7.1 item 12); these are the checks a
 * docking-mechanism engineer qualifying the design expects (issue 44 item 3), each with a threshold as a scenario
 * key: a retraction jam (the drive retracting while the brake in its line slips, or the motors stalled at their
 * torque limit), the end-of-travel sensor, alignment not reached when the planes meet, and the planes reopening.
 * Evaluated once per accepted step; the first fault that trips is kept with its time and values. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mech/dock_process.h"

#define DEG (M_PI / 180.0)

static const char *const fault_name[MECH_DOCK_NFAULT] = {"none", "retraction jam", "end of travel",
                                                         "alignment not reached", "planes reopened"};
static const int fault_state[MECH_DOCK_NFAULT] = {-1, MECH_DOCK_SEQ_FAIL_JAM, MECH_DOCK_SEQ_FAIL_TRAVEL,
                                                  MECH_DOCK_SEQ_FAIL_MISALIGNED, MECH_DOCK_SEQ_FAIL_REOPEN};
/* the values each fault reports (v[0..3]) */
static const char *const value_name[MECH_DOCK_NFAULT][MECH_DOCK_FAULT_NV] = {
    {NULL},
    {"slip_rate", "duration", "drive_force", "at_limit"},
    {"drive_u", "travel", "gap_max", "stroke"},
    {"roll", "tilt", "roll_tol", "tilt_tol"},
    {"gap_max", "reopen_gap", "duration", NULL}};
static const char *const value_unit[MECH_DOCK_NFAULT][MECH_DOCK_FAULT_NV] = {
    {NULL}, {"m/s", "s", "N", ""}, {"m", "m", "m", "m"}, {"rad", "rad", "rad", "rad"}, {"m", "m", "s", NULL}};

const char *mech_dock_fault_name(int k) { return k >= 0 && k < MECH_DOCK_NFAULT ? fault_name[k] : "?"; }
int mech_dock_fault_seq_state(int k) { return k > 0 && k < MECH_DOCK_NFAULT ? fault_state[k] : -1; }
const char *mech_dock_fault_value_name(int k, int i)
{
    return k > 0 && k < MECH_DOCK_NFAULT && i >= 0 && i < MECH_DOCK_FAULT_NV ? value_name[k][i] : NULL;
}
const char *mech_dock_fault_value_unit(int k, int i)
{
    return k > 0 && k < MECH_DOCK_NFAULT && i >= 0 && i < MECH_DOCK_FAULT_NV ? value_unit[k][i] : NULL;
}

void mech_dock_fault_params_default(mech_dock_fault_params *p)
{
    p->slip_speed = 3e-4;    /* 1/4 of RP-1's 1.2 mm/s retraction: a brake that slips under the drive moves at
                                about the drive's speed                                                          */
    p->jam_time = 5.0;       /* longer than the brief slips of a closing run (S3x-400-B's FrT2: 0.7 mm at ~374 s) */
    p->travel = 0.45;        /* RP-1's 0.40 m retraction plus the drive line's compliance at the drive's force
                                limit (u - s <= 0.028 m at 5.6 kN in the shipped runs): docs/dock-process.md §2a */
    p->meet_gap = 5e-3;      /* the first rod within the sequencer's closed-planes gap                           */
    p->roll_tol = 0.0;       /* the slots' narrow half-width (geometry.slot_narrow, RP-1 0.5 deg)                */
    p->tilt_tol = 1.0 * DEG; /* the planes' rods 0.9 m apart: 16 mm of gap across them                           */
    p->reopen_gap = 0.010;   /* twice the closed-planes gap                                                       */
    p->reopen_time = 0.5;
}

int mech_dock_fault_check(const mech_dock_fault_params *p, hy_err *err)
{
    struct { const char *key; double v; int zero_ok; } k[] = {
        {"slip_speed", p->slip_speed, 0}, {"jam_time", p->jam_time, 0},     {"travel", p->travel, 0},
        {"meet_gap", p->meet_gap, 1},     {"roll_tol_deg", p->roll_tol, 1}, {"tilt_tol_deg", p->tilt_tol, 0},
        {"reopen_gap", p->reopen_gap, 0}, {"reopen_time", p->reopen_time, 1}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (!isfinite(k[i].v) || k[i].v < 0 || (!k[i].zero_ok && k[i].v == 0))
            return hy_err_set(err, HY_EMODEL, "faults.%s: must be a finite number %s (got %.17g)", k[i].key,
                              k[i].zero_ok ? ">= 0" : "> 0", k[i].v);
    return HY_OK;
}

int mech_dock_fault_init(mech_dock_fault *f, const mech_dock_fault_params *p, double slot_narrow, hy_err *err)
{
    int rc = mech_dock_fault_check(p, err);
    if (rc)
        return rc;
    memset(f, 0, sizeof *f);
    f->p = *p;
    if (f->p.roll_tol == 0)
        f->p.roll_tol = slot_narrow;
    f->committed.t = NAN;
    f->committed.t_jam = f->committed.t_open = f->committed.t_prev = -1.0;
    f->trial = f->committed;
    return HY_OK;
}

static void trip(mech_dock_fault_state *s, double t, int kind, double v0, double v1, double v2, double v3)
{
    s->kind = kind;
    s->t = t;
    s->v[0] = v0, s->v[1] = v1, s->v[2] = v2, s->v[3] = v3;
}

int mech_dock_fault_trial(mech_dock_fault *f, double t, const mech_dock_fault_in *in)
{
    const mech_dock_fault_params *p = &f->p;
    mech_dock_fault_state s = f->committed;
    if (s.kind != MECH_DOCK_FAULT_NONE) {
        f->trial = s;
        return s.kind;
    }
    /* retraction jam: the slip rate over the accepted step (the slips are rigid-plastic: they move only at their
       level, so a rate above slip_speed is a slip, not the compliance) */
    double dt = s.t_prev >= 0 ? t - s.t_prev : 0.0;
    double rate = dt > 0 ? (in->slip - s.slip_prev) / dt : 0.0;
    if (in->retracting && in->at_limit && dt > 0)
        s.limit_time += dt;
    int jam = in->retracting && (fabs(rate) > p->slip_speed || in->at_limit);
    if (!jam)
        s.t_jam = -1.0;
    else if (s.t_jam < 0)
        s.t_jam = s.t_prev >= 0 ? s.t_prev : t;   /* the interval began at the step's start */
    s.slip_prev = in->slip;
    s.t_prev = t;
    if (jam && t - s.t_jam >= p->jam_time)
        trip(&s, t, MECH_DOCK_FAULT_JAM, rate, t - s.t_jam, in->drive_f, in->at_limit);
    /* the end-of-travel sensor, until the planes are shut (then the drive is off and the hooks hold them) */
    else if (!s.shut && in->u >= p->travel)
        trip(&s, t, MECH_DOCK_FAULT_TRAVEL, in->u, p->travel, in->gap_max, in->stroke);
    else if (!s.met && isfinite(in->gap_min) && in->gap_min <= p->meet_gap) {
        s.met = 1;
        if (fabs(in->roll) > p->roll_tol || in->tilt > p->tilt_tol)
            trip(&s, t, MECH_DOCK_FAULT_MISALIGNED, in->roll, in->tilt, p->roll_tol, p->tilt_tol);
    }
    if (s.kind == MECH_DOCK_FAULT_NONE && s.met) {
        if (!s.shut && isfinite(in->gap_max) && in->gap_max <= in->gap_closed)
            s.shut = 1;
        int open = s.shut && !(in->gap_max <= p->reopen_gap);   /* NAN: the planes turned away */
        if (!open)
            s.t_open = -1.0;
        else if (s.t_open < 0)
            s.t_open = t;
        if (open && t - s.t_open >= p->reopen_time)
            trip(&s, t, MECH_DOCK_FAULT_REOPEN, in->gap_max, p->reopen_gap, t - s.t_open, NAN);
    }
    f->trial = s;
    return s.kind;
}

void mech_dock_fault_commit(mech_dock_fault *f) { f->committed = f->trial; }

void mech_dock_fault_reason(const mech_dock_fault_state *s, int variant, char *buf, size_t len)
{
    const double *v = s->v;
    switch (s->kind) {
    case MECH_DOCK_FAULT_JAM:
        if (v[3] != 0)
            snprintf(buf, len, "retraction jam: the motors stood at their torque limit (F = %.0f N) for %.3g s while "
                     "retracting", v[2], v[1]);
        else
            snprintf(buf, len, "retraction jam: %s slipped at %.3g mm/s for %.3g s while the drive retracted "
                     "(F = %.0f N)", variant == MECH_DOCK_A ? "the friction brake" : "FrT2", 1e3 * fabs(v[0]), v[1],
                     v[2]);
        break;
    case MECH_DOCK_FAULT_TRAVEL:
        snprintf(buf, len, "end of travel: drive output %.5g m reached the sensor at %.5g m before the planes closed "
                 "(largest rod gap %.4g m, stroke %.4g m)", v[0], v[1], v[2], v[3]);
        break;
    case MECH_DOCK_FAULT_MISALIGNED:
        snprintf(buf, len, "alignment not reached when the planes met: roll %.3g deg (tolerance %.3g), tilt %.3g deg "
                 "(tolerance %.3g)", v[0] / DEG, v[2] / DEG, v[1] / DEG, v[3] / DEG);
        break;
    case MECH_DOCK_FAULT_REOPEN:
        snprintf(buf, len, "planes reopened: largest rod gap %.4g m above %.4g m for %.3g s", v[0], v[1], v[2]);
        break;
    default:
        snprintf(buf, len, "none");
        break;
    }
}

/* The drive of the probe-cone mechanism (spec 001 §1.3 items 12-13, §2.1; RP-1 §2.5): two motors through a
 * differential and the output gearbox onto the nut, stop clutches on the motor shafts, commanded retraction at
 * 1.2 mm/s of probe travel, extension to the ready position stopped by the initial-position sensor (13).
 * Everything at the probe (docs/dock-process.md §1):
 *   motor side x, v_m:  v_m' = (v_t - v_m) / tau,  v_t = dir speed n_on / 2  (differential: mean of the motors);
 *                       motors off => the stop clutches lock: v_m = 0, x frozen;
 *   drive stiffness:    F = k (x - u) + c (v_m - u'), |F| <= force_max (the motors stall at their limit);
 *   output u:           m_out u'' = F + F_chain(s - u)  (the caller integrates u; the nut gets -F_chain).
 * Why a speed loop with an exact exponential: the retraction is slow (1.2 mm/s) and the loop's time constant is
 * much longer than the step, so the motor side is advanced in closed form from the committed state at any stage
 * time dt and needs no state of its own in the integrator. */
#include <math.h>
#include <string.h>
#include "mech/dock_process.h"

void mech_dock_drive_params_rp1(mech_dock_drive_params *p)
{
    memset(p, 0, sizeof *p);
    p->speed = 1.2e-3;       /* RP-1 §2.5: ~0.40 m in ~340 s                                                   */
    p->extend_speed = 2.4e-3;
    p->tau = 0.2;
    p->stiffness = 2e6;      /* ten times the B gear train (2e5 N/m): the drive is the stiffer part of the line */
    p->damping = 2e3;
    p->force_max = 8000.0;   /* above FrT2's pull-out 6000 N (B, C) and A's chain pull-out 6000 N              */
    p->m_out = 5.0;
    p->ready_stroke = 0.0;
}

static int bad(hy_err *err, const char *key, const char *range, double v)
{
    return hy_err_set(err, HY_EMODEL, "drive.%s: %s (got %.17g)", key, range, v);
}

int mech_dock_drive_check(const mech_dock_drive_params *p, hy_err *err)
{
    if (!(isfinite(p->speed) && p->speed > 0))
        return bad(err, "speed", "the retraction speed must be a finite number > 0 m/s (retraction positive)",
                   p->speed);
    if (!(isfinite(p->extend_speed) && p->extend_speed > 0))
        return bad(err, "extend_speed", "must be a finite number > 0 m/s (the direction is implied)",
                   p->extend_speed);
    if (!(isfinite(p->tau) && p->tau > 0))
        return bad(err, "tau", "must be a finite number > 0 s", p->tau);
    if (!(isfinite(p->stiffness) && p->stiffness > 0))
        return bad(err, "stiffness", "must be a finite number > 0 N/m", p->stiffness);
    if (!(isfinite(p->damping) && p->damping >= 0))
        return bad(err, "damping", "must be a finite number >= 0 N s/m", p->damping);
    if (!(isfinite(p->force_max) && p->force_max > 0))
        return bad(err, "force_max", "must be a finite number > 0 N", p->force_max);
    if (!(isfinite(p->m_out) && p->m_out > 0))
        return bad(err, "m_out", "must be a finite number > 0 kg", p->m_out);
    if (!isfinite(p->ready_stroke))
        return bad(err, "ready_stroke", "must be finite", p->ready_stroke);
    return HY_OK;
}

int mech_dock_drive_init(mech_dock_drive *d, const mech_dock_drive_params *p, double u0, hy_err *err)
{
    int rc = mech_dock_drive_check(p, err);
    if (rc)
        return rc;
    if (!isfinite(u0))
        return bad(err, "u0", "the initial drive position must be finite", u0);
    memset(d, 0, sizeof *d);
    d->p = *p;
    d->committed.x = u0;
    d->committed.cmd = MECH_DOCK_DRIVE_OFF;
    d->trial = d->committed;
    return HY_OK;
}

void mech_dock_drive_command(mech_dock_drive *d, int cmd, int n_on)
{
    if (cmd != MECH_DOCK_DRIVE_RETRACT && cmd != MECH_DOCK_DRIVE_EXTEND)
        cmd = MECH_DOCK_DRIVE_OFF;
    if (cmd == MECH_DOCK_DRIVE_OFF || n_on < 1)
        cmd = MECH_DOCK_DRIVE_OFF, n_on = 0;
    if (n_on > 2)
        n_on = 2;
    d->committed.cmd = cmd;
    d->committed.n_on = n_on;
    if (cmd == MECH_DOCK_DRIVE_OFF)
        d->committed.v_m = 0.0;   /* the stop clutches stop the motor side at once */
    d->trial = d->committed;
}

void mech_dock_drive_trial(mech_dock_drive *d, double dt, double u, double w, mech_dock_drive_out *o)
{
    const mech_dock_drive_params *p = &d->p;
    mech_dock_drive_state s = d->committed;
    int on = s.cmd != MECH_DOCK_DRIVE_OFF && s.n_on > 0;
    double x = s.x, v = 0.0;
    if (on) {
        double vt = (s.cmd == MECH_DOCK_DRIVE_RETRACT ? p->speed : -p->extend_speed) * 0.5 * s.n_on;
        double e = exp(-dt / p->tau);
        v = vt + (s.v_m - vt) * e;
        x = s.x + vt * dt + (s.v_m - vt) * p->tau * (1.0 - e);
    }
    double F = p->stiffness * (x - u) + p->damping * (v - w);
    int lim = 0;
    if (on && fabs(F) > p->force_max) {
        /* the motors stall at their torque limit: the motor side slips back so that the force stays there and
           moves with the output (v_m = u') */
        F = copysign(p->force_max, F);
        x = u + F / p->stiffness;
        v = w;
        lim = 1;
    }
    s.x = x;
    s.v_m = v;
    s.dt = dt;
    s.at_limit = lim;
    /* the commit books the trapezoid of F over the motor-side travel: keep the previous F here */
    d->trial = s;
    d->trial.F = F;
    o->F = F;
    o->x = x;
    o->v_m = v;
    o->power = F * v;
    o->e_spring = 0.5 * p->stiffness * (x - u) * (x - u);
    o->p_damping = p->damping * (v - w) * (v - w);
    o->at_limit = lim;
}

void mech_dock_drive_commit(mech_dock_drive *d, double stroke)
{
    mech_dock_drive_state *c = &d->committed, *t = &d->trial;
    t->work = c->work + 0.5 * (c->F + t->F) * (t->x - c->x);
    if (t->at_limit)
        t->limit_time = c->limit_time + t->dt;
    *c = *t;
    if (c->cmd == MECH_DOCK_DRIVE_EXTEND && mech_dock_drive_at_ready(&d->p, stroke))
        mech_dock_drive_command(d, MECH_DOCK_DRIVE_OFF, 0);   /* sensor 13 stops the extension */
    d->trial = d->committed;
}

void mech_dock_drive_revert(mech_dock_drive *d) { d->trial = d->committed; }

int mech_dock_drive_at_ready(const mech_dock_drive_params *p, double stroke) { return stroke <= p->ready_stroke; }

void mech_dock_drive_phi_fr(double i_nut, double i_nut_fr, double s, double sd, double u, double w, double *phi_fr,
                            double *phid_fr)
{
    /* phi_FR = i_Nut,FR (phi_Nut - phi_Drive / i_Nut,Drive), phi_Nut = i_Nut s, phi_Drive / i_Nut,Drive = i_Nut u */
    *phi_fr = i_nut_fr * i_nut * (s - u);
    *phid_fr = i_nut_fr * i_nut * (sd - w);
}

/* The structural hooks and the docked state at accepted (sub)steps (issue 44; mech/dock_hooks.h, docs/dock-process.md
 * §9): what the sequencer is told (the planes "closed" when every rod and every hook link is within gap_closed; the
 * docked state: every link locked with at least preload_min, every rod's gap within contact_gap, roll and tilt of the
 * docking planes within the hooks' tolerance), the hook drive started as the sequencer enters CLOSED, and the
 * hooks' summary. The hooks' loads are dock_proc.c's; their trial / commit / revert dock_eval.c's and dock_step.c's. */
#include <math.h>
#include "dock/dock_sim_internal.h"

int dock_docked_state(mech_dock_sim *s, const dock_eval *e, double *gap)
{
    const dock_proc_eval *pr = &e->pr;
    mech_dock_hooks_summary *hs = &s->hs;
    /* the planes' relative rotation: the active port's frame (x flipped) in the cone frame, as the history's
       rel_roll / rel_pitch / rel_yaw; roll its twist about the docking axis, tilt the angle between the normals */
    const mech_contact_body *P = &s->cb[DOCK_CB_PASSIVE];
    mech_mat3 R = mech_mat3_mul(mech_mat3_tmul(P->rot, s->d->xmat[DOCK_B_BASE]), dock_flip_x());
    hs->roll = atan2(R.m[2][1] - R.m[1][2], R.m[1][1] + R.m[2][2]);
    hs->tilt = acos(fmax(-1.0, fmin(1.0, R.m[0][0])));
    hs->gap_rods = isfinite(pr->gap_rods) ? pr->gap_rods : pr->gap;
    *gap = fmax(hs->gap_rods, pr->hk.gap_max);
    return mech_dock_hooks_docked(&s->hooks, hs->gap_rods, hs->roll, hs->tilt);
}

void dock_docked_account(mech_dock_sim *s, const dock_eval *e, int from, int to, int unmet, int first)
{
    mech_dock_hooks_summary *hs = &s->hs;
    mech_dock_hooks *hk = &s->hooks;
    if (to == MECH_DOCK_SEQ_CLOSED && from != MECH_DOCK_SEQ_CLOSED) {   /* the hook drive starts */
        hs->engaged = mech_dock_hooks_start(hk, &e->pr.hk);
        hs->missed = mech_dock_hooks_n_missed(hk);
        hs->t_start = s->t;
        hs->roll_start = hs->roll;
        mech_dock_hooks_out at = e->pr.hk;   /* the catches' offsets the start judged */
        mech_dock_hooks_catches(hk, &at);
        hs->miss_max = 0;
        for (int j = 0; j < hk->p.n; j++)
            hs->miss_max = fmax(hs->miss_max, at.miss[j]);
    }
    if (to == MECH_DOCK_SEQ_FAIL_HOOKS && from != to)
        hs->t_fail = s->t;
    hs->locked = mech_dock_hooks_n_locked(hk);
    if (hs->locked == hk->p.n && isnan(hs->t_locked))
        hs->t_locked = s->t;
    if (unmet == 0 && (hs->unmet != 0 || first))
        hs->t_docked = s->t;   /* the docked state (re)begins */
    else if (unmet != 0)
        hs->t_docked = NAN;
    hs->unmet = unmet;
    hs->tension_min = INFINITY, hs->tension_max = 0;
    for (int j = 0; j < hk->p.n; j++) {
        hs->tension_min = fmin(hs->tension_min, hk->committed.T[j]);
        hs->tension_max = fmax(hs->tension_max, hk->committed.T[j]);
    }
    hs->tension_peak = fmax(hs->tension_peak, hs->tension_max);
    hs->work = hk->committed.work;
}

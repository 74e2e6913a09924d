/* The docked state's measures (issue 44, the RP-2 design study; docs/dock-process.md §8.6): what a docking engineer
 * checks from capture to the end against spec 001 §1.5 (latches in the narrow part of the slots, roll aligned, all
 * stops bearing), §1.3 / Fig. 10 (the limiter bounding the relative tilt after capture), §5.3 (variant C's limiter
 * touching only after capture) and §5.2 / Fig. 15 fragment 3 (the pushers, not the limiter springs, giving FrT1's
 * stroke back). The simulation fills a dock_measure_in at every accepted step; this file keeps the summary's
 * measures from it, so the bookkeeping has one place and the simulation one call. */
#include <math.h>
#include "dock_internal.h"

void dock_measure_init(mech_dock_summary *S)
{
    S->tilt_max = S->tilt_end = S->roll_closed = S->latch_roll_closed = NAN;
    S->latches_closed = -1;
    S->latches_all_time = S->limiter_clearance = S->limiter_lead = NAN;
    S->frt1_restored = 0;
    S->frt1_pusher_share = S->restore_t0 = S->restore_t1 = NAN;
    S->restore_gap_max = S->restore_gap_min = NAN;
    S->slip1_prev = 0;
    S->restore_w_push = S->restore_w_lim = 0;
}

double dock_limiter_clearance(const mech_dock_geometry *gm, mech_vec3 c, mech_vec3 axis, double r0)
{
    /* two unit vectors across the axis */
    mech_vec3 a = mech_vec3_scale(axis, 1.0 / mech_vec3_norm(axis));
    mech_vec3 t = fabs(a.x) < 0.9 ? mech_vec3_make(1, 0, 0) : mech_vec3_make(0, 1, 0);
    mech_vec3 e1 = mech_vec3_cross(a, t);
    e1 = mech_vec3_scale(e1, 1.0 / mech_vec3_norm(e1));
    mech_vec3 e2 = mech_vec3_cross(a, e1);
    double ta = tan(gm->half_angle), best = INFINITY;
    for (int k = 0; k < DOCK_CLEAR_N; k++) {
        double ph = 2 * M_PI * k / DOCK_CLEAR_N;
        mech_vec3 q = mech_vec3_add(c, mech_vec3_add(mech_vec3_scale(e1, r0 * cos(ph)),
                                                     mech_vec3_scale(e2, r0 * sin(ph))));
        /* the wall's radius at the point's station: the rim circle above the rim plane, the cone below it down to
           the throat */
        double R = q.x >= gm->rim_x ? gm->rim_radius
                                    : fmax(gm->socket_radius, gm->rim_radius - (gm->rim_x - q.x) * ta);
        best = fmin(best, R - sqrt(q.y * q.y + q.z * q.z));
    }
    return best;
}

void dock_measure_account(mech_dock_summary *S, const dock_measure_in *in)
{
    if (in->captured) {
        S->tilt_max = isnan(S->tilt_max) ? in->tilt : fmax(S->tilt_max, in->tilt);
        if (in->capture_now)
            S->limiter_clearance = in->limiter_clearance;
    }
    S->tilt_end = in->tilt;
    if (in->n_latch == 4 && isnan(S->latches_all_time))
        S->latches_all_time = in->t;
    if (in->closed_now) {
        S->roll_closed = in->rel_roll;
        S->latch_roll_closed = in->latch_roll;
        S->latches_closed = in->n_latch;
    }
    if (in->captured && isfinite(in->limiter_first))
        S->limiter_lead = in->limiter_first - S->capture_time;
    /* FrT1's stroke given back after the retraction began (slip decreasing): who held the probe while it slipped */
    if (in->captured && !in->first) {
        double d = S->slip1_prev - in->slip1;
        if (d > 0) {
            /* the slip given back while the pushers (or the closed planes) bear, against that given back while only
               the limiter's pads bear: the paper's fragment 3 has FrT1 reset by the pushers at the end, C's limiter
               springs must not do it before. What the drive's tow gives back with neither bearing (the start of the
               retraction) counts in frt1_restored only */
            S->frt1_restored += d;
            if (in->f_pusher > 0)
                S->restore_w_push += d;
            else if (in->f_limiter > 0)
                S->restore_w_lim += d;
            double w = S->restore_w_push + S->restore_w_lim;
            S->frt1_pusher_share = w > 0 ? S->restore_w_push / w : NAN;
            if (!(in->f_pusher + in->f_limiter > 0))   /* the drive's tow alone (the start of the retraction) */
                goto done;
            if (isnan(S->restore_t0))
                S->restore_t0 = in->t, S->restore_gap_max = S->restore_gap_min = in->gap;
            S->restore_t1 = in->t;
            S->restore_gap_max = fmax(S->restore_gap_max, in->gap);
            S->restore_gap_min = fmin(S->restore_gap_min, in->gap);
        }
    }
done:
    S->slip1_prev = in->slip1;
}

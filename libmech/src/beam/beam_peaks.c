/* The peaks of a beam run (spec 004 §4.5's response figures; docs/beam.md "summary"): each the sample with the
 * largest |value|, the first on ties, as a scan of the whole history finds them, made as the samples stream (no
 * history kept), and the tip deflection's settling time into a 5 % band of its peak. `mech beam sim --summary` and a
 * sweep's beam run (sweep_run_beam.c) both call it. */
#include <math.h>
#include "mech/beam.h"

static void peak_add(mech_beam_peak *p, size_t i, double v, double t)
{
    if (i == 0 || fabs(v) > fabs(p->v))
        p->v = v, p->t = t;
}

void mech_beam_peaks_add(mech_beam_peaks *p, size_t i, const mech_beam_obs *o)
{
    double t = o->t;
    peak_add(&p->pk[0], i, o->w_tip, t);
    peak_add(&p->pk[1], i, o->theta, t);
    peak_add(&p->pk[2], i, o->theta_dot, t);
    peak_add(&p->pk[3], i, o->U, t);
    for (int j = 0; j < p->nh; j++) {
        peak_add(&p->pq[j], i, o->dtheta[j], t);
        peak_add(&p->pM[j], i, o->M[j], t);
    }
    /* settling: against the peak so far (this sample included); exact at the end (mech_beam_peaks_settling) */
    if (i == 0)
        p->out_t = t, p->out_last = 0;
    p->out_last = fabs(o->w_tip) > MECH_BEAM_SETTLE_BAND * fabs(p->pk[0].v);
    if (p->out_last)
        p->out_t = t;
}

double mech_beam_peaks_settling(const mech_beam_peaks *p)
{
    return p->out_last ? NAN : p->out_t;
}

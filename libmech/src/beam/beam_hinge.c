/* Hinge moment laws (spec 004 §2, eq. 1): the total moment M(dtheta) a hinge carries, for every law. The
 * hysteretic laws go through libhyst's element interface: trial inside a Newmark step (any number of times),
 * commit once per accepted step, revert when a step is abandoned. Every law's moment is multiplied by the hinge's
 * law_scale (1 by default): a hysteretic law's force and stiffness scaled together, its path (reversals, slips, the
 * clearance) unchanged, the "hysteresis scale" a shaker test calibrates (issue 45 item 4, docs/beam.md). */
#include <math.h>
#include "beam/beam_internal.h"

// sat(x, d): x clipped to [-d, d]
static double sat(double x, double d)
{
    return x > d ? d : x < -d ? -d : x;
}

int beam_hinge_trial(const mech_beam_hinge *h, hy_element *el, double dth, double rate, double *M, hy_diag *diag)
{
    double d = h->clearance, Q = 0, dQ = 0;
    int rc = HY_OK;
    switch (h->law) {
    case MECH_BEAM_DEADZONE_A:   /* Option A: zero inside the gap, k (dth -+ d) beyond it */
        *M = h->k * (dth - sat(dth, d));
        break;
    case MECH_BEAM_DEADZONE_B:   /* Option B: the linear spring always, plus eq. 1's contact moment beyond the gap */
        *M = h->k * dth + h->k * (dth - sat(dth, d));
        break;
    case MECH_BEAM_MODEL:
        rc = hy_element_trial(el, dth * h->q_scale, rate * h->q_scale, &Q, &dQ, diag);
        *M = Q * h->Q_scale;
        break;
    default: {   /* freeplay in series: the element sees the deflection beyond the stops */
        double u = dth - sat(dth, d), urate = fabs(dth) > d ? rate : 0;
        rc = hy_element_trial(el, u * h->q_scale, urate * h->q_scale, &Q, &dQ, diag);
        *M = Q * h->Q_scale;
        break;
    }
    }
    *M *= h->law_scale;
    return rc;
}

int beam_hinge_in_contact(const mech_beam_hinge *h, double dth)
{
    return fabs(dth) > h->clearance;
}

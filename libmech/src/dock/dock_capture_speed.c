/* The capture-speed threshold (scenario S4a; mech dock --capture-speed): the closing speed bisected between a run
 * that does not capture and one that does, each run to its capture or its separation (docs/dock.md). */
#include <math.h>
#include "dock/dock_sim_internal.h"

// (params, closing speed) => 1 captured, 0 not; < 0 on a failing run (err set)
static int captures_at(const mech_dock_params *p0, double v, hy_err *err)
{
    mech_dock_params p = *p0;
    p.init.closing_speed = v;
    mech_dock_model *m = NULL;
    mech_dock_sim *s = NULL;
    int rc = mech_dock_model_new(&p, &m, err);
    if (rc == HY_OK)
        rc = mech_dock_sim_new(m, &s, err);
    int result = -1;
    if (rc == HY_OK) {
        result = 0;
        while (s->t < p.capture_timeout) {
            if ((rc = mech_dock_sim_step(s, err))) {
                result = -1;
                break;
            }
            if (s->captured) {
                result = 1;
                break;
            }
            /* after a contact, separating with nothing touching: no force can bring the vehicles back */
            const double *c = s->ch;
            int touching = c[MECH_DOCK_CH_CONE_CONTACT] || c[MECH_DOCK_CH_SOCKET_CONTACT] ||
                           c[MECH_DOCK_CH_BOTTOM_CONTACT] || c[MECH_DOCK_CH_LIMITER_CONTACT] || s->acc.detent > 0;
            if (!isnan(s->sum.first_contact_time) && !touching && c[MECH_DOCK_CH_REL_VX] < 0 && p.thrust.force == 0)
                break;
        }
    }
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
    return result;
}

int mech_dock_capture_speed(const mech_dock_params *p, double lo, double hi, double tol, double *v, hy_err *err)
{
    *v = NAN;
    hy_err local;
    if (!err) // err->code is read back below
        err = &local;
    hy_err_clear(err);
    if (!(lo > 0 && hi > lo && tol > 0))
        return hy_err_set(err, HY_EARG, "capture speed: bracket [%g, %g] m/s with tolerance %g: expected 0 < lo < hi "
                          "and tol > 0", lo, hi, tol);
    int c = captures_at(p, hi, err);
    if (c < 0)
        return err->code ? err->code : HY_ENUMERIC;
    if (c == 0)
        return hy_err_set(err, HY_EDATA, "capture speed: no capture at the upper bracket %g m/s", hi);
    if ((c = captures_at(p, lo, err)) < 0)
        return err->code ? err->code : HY_ENUMERIC;
    if (c == 1)
        return hy_err_set(err, HY_EDATA, "capture speed: capture already at the lower bracket %g m/s", lo);
    while (hi - lo > tol) {
        double mid = 0.5 * (lo + hi);
        if ((c = captures_at(p, mid, err)) < 0)
            return err->code ? err->code : HY_ENUMERIC;
        if (c)
            hi = mid;
        else
            lo = mid;
    }
    *v = 0.5 * (lo + hi);
    return HY_OK;
}

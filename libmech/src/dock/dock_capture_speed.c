/* The capture-speed threshold (scenario S4a; mech dock --capture-speed): the closing speed bisected between a run
 * that does not capture and one that does, each run to its capture or its separation (docs/dock.md). */
#include <math.h>
#include "dock/dock_sim_internal.h"

/* mech_dock_run's step callback: after a contact, separating with nothing touching, no force can bring the vehicles
 * back: the run stops there (not captured) */
static int separated(void *ctx, const mech_dock_sim *s)
{
    const mech_dock_params *p = ctx;
    if (s->captured)   /* a capture at this step is a capture (mech_dock_run's stop_at_capture sees it next) */
        return 0;
    const double *c = s->ch;
    int touching = c[MECH_DOCK_CH_CONE_CONTACT] || c[MECH_DOCK_CH_SOCKET_CONTACT] || c[MECH_DOCK_CH_BOTTOM_CONTACT] ||
                   c[MECH_DOCK_CH_LIMITER_CONTACT] || s->acc.detent > 0;
    return !isnan(s->sum.first_contact_time) && !touching && c[MECH_DOCK_CH_REL_VX] < 0 && p->thrust.force == 0;
}

/* (params, closing speed) => 1 captured, 0 not; < 0 on a failing run (err set). The run is mech_dock_run's, the one
 * run function (issue 43 D1), stopped at capture or the capture timeout (the duration made to reach the timeout) or
 * by the separation above */
static int captures_at(const mech_dock_params *p0, double v, hy_err *err)
{
    mech_dock_params p = *p0;
    p.init.closing_speed = v;
    if (p.duration < p.capture_timeout)
        p.duration = p.capture_timeout;
    mech_dock_model *m = NULL;
    mech_dock_sim *s = NULL;
    int rc = mech_dock_model_new(&p, &m, err);
    if (rc == HY_OK)
        rc = mech_dock_sim_new(m, &s, err);
    int result = -1;
    if (rc == HY_OK) {
        const mech_dock_run_opts o = {.stop_at_capture = 1, .on_step = separated, .ctx = &p};
        int end;
        if (mech_dock_run(m, s, &o, &end, NULL, err) == HY_OK)
            result = end == MECH_DOCK_RUN_CAPTURE && s->captured;
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

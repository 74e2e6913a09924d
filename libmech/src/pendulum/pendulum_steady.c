/* Steady forced vibration of the pendulum damper at one frequency: a point of the stepped frequency sweep
 * (spec 002 §4.3, Fig. 5). From rest, settle for whole periods, then average the unit's work over whole periods:
 * P = (W_unit(t_end) - W_unit(t_settle)) / (n T), which is eq. (15) restricted to the steady part. */
#include <math.h>
#include "mech/pendulum.h"

// (model, Phi, freq, settle, average, solver) => steady result
int mech_pend_steady_run(const mech_pend_model *m, double Phi, double freq, double ramp, int settle, int average,
                       const mech_pend_solver *s, mech_pend_steady *r, hy_err *err)
{
    if (!(freq > 0) || !isfinite(freq) || settle < 0 || average < 1 || !(ramp >= 0) || ramp > settle)
        return hy_err_set(err, HY_EARG, "steady run: frequency %g Hz, %d settling and %d averaging periods: expected "
                          "a positive frequency, >= 0 and >= 1 periods, a ramp (%g periods) within the settling",
                          freq, settle, average, ramp);
    mech_pend_data *d;
    int rc = mech_pend_data_new(m, Phi, 2 * M_PI * freq, s, &d, err);
    if (rc != HY_OK)
        return rc;
    double T = 1.0 / freq;
    d->ramp = ramp * T;
    rc = mech_pend_advance(d, settle * T, err);
    double W0 = d->y[MECH_PEND_WUNIT];
    r->freq = freq;
    r->alpha_min = INFINITY;
    r->alpha_max = -INFINITY;
    r->phi3_amp = 0;
    r->M_max = 0;
    const int per = 200; /* samples per period for the extremes */
    for (int k = 1; rc == HY_OK && k <= average * per; k++) {
        rc = mech_pend_advance(d, (settle + (double)k / per) * T, err);
        mech_pend_obs o;
        mech_pend_observe(d, &o);
        r->alpha_min = fmin(r->alpha_min, o.alpha);
        r->alpha_max = fmax(r->alpha_max, o.alpha);
        r->phi3_amp = fmax(r->phi3_amp, fabs(o.phi3));
        r->M_max = fmax(r->M_max, fabs(o.M));
    }
    if (rc == HY_OK) {
        r->P = (d->y[MECH_PEND_WUNIT] - W0) / (average * T);
        r->W_cycle = r->P / freq;
        r->A_running = d->y[MECH_PEND_WUNIT] / d->t;
        r->reversals = d->drv->n_events;
    }
    mech_pend_data_free(d);
    return rc;
}

/* A whole pendulum-damper run (spec 002 §4; docs/pendulum.md "A whole run"): the sample loop of `mech pendulum
 * harmonic|decay|run` and of a sweep's pendulum runs, one function, so that a sweep row is by construction the
 * program's run. The summary (the swing, the unit's deflection, moment and work, the decay of the swing and its
 * equivalent damping ratio, the energy per cycle) is made from the samples as they come: nothing kept. */
#include <math.h>
#include <string.h>
#include "hyst/util.h"
#include "mech/pendulum.h"

#define RK4_STEPS_MAX 1e9   /* fixed RK4 steps of one run (about 10 minutes)                                     */

void mech_pend_run_default(mech_pend_run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->mode = MECH_PEND_RUN_HARMONIC;
    o->amplitude = 0.3, o->freq = 0.4, o->periods = 10, o->samples = 400, o->ramp = 0;
    o->angle = 0.4, o->duration = 3, o->dt = 0.001;
    mech_pend_solver_default(&o->solver);
}

int mech_pend_run_check(const mech_pend_run_opts *o, const char *name, hy_err *err)
{
    const mech_pend_solver *s = &o->solver;
    if (s->fixed ? !(s->h > 0) : !(s->tol > 0 && s->tol < 1))
        return hy_err_set(err, HY_EARG, "%s: run.%s: expected %s", name, s->fixed ? "rk4" : "tol",
                          s->fixed ? "a positive step" : "a tolerance in (0, 1)");
    double T;
    if (o->mode == MECH_PEND_RUN_HARMONIC) {
        if (!(o->freq > 0 && isfinite(o->freq)))
            return hy_err_set(err, HY_EARG, "%s: run.freq = %g: expected > 0 Hz", name, o->freq);
        if (o->periods < 1 || o->samples < 4 || (double)o->periods * o->samples > 1e8)
            return hy_err_set(err, HY_EARG, "%s: run.periods = %d, run.samples = %d: expected >= 1 and >= 4, at most "
                              "1e8 samples", name, o->periods, o->samples);
        if (!(o->ramp >= 0 && o->ramp <= o->periods))
            return hy_err_set(err, HY_EARG, "%s: run.ramp = %g: expected 0..run.periods", name, o->ramp);
        if (!isfinite(o->amplitude))
            return hy_err_set(err, HY_EARG, "%s: run.amplitude: expected a number (rad)", name);
        T = o->periods / o->freq;
    } else {
        if (!(o->duration > 0) || !(o->dt > 0) || o->duration / o->dt > 1e8)
            return hy_err_set(err, HY_EARG, "%s: run.duration = %g s, run.dt = %g s: expected both > 0 and at most "
                              "1e8 samples", name, o->duration, o->dt);
        if (!isfinite(o->angle))
            return hy_err_set(err, HY_EARG, "%s: run.angle: expected a number (rad)", name);
        T = o->duration;
    }
    if (s->fixed && T / s->h > RK4_STEPS_MAX)
        return hy_err_set(err, HY_EARG, "%s: run.rk4 = %g s: %.3g steps over the %.4g s simulated, more than %.0e",
                          name, s->h, T / s->h, T, RK4_STEPS_MAX);
    return HY_OK;
}

// (summary, sample, the two before it) => the sample added; a positive peak of phi3 is the sample before this one
static void add(mech_pend_summary *u, const mech_pend_obs *o, const mech_pend_obs *p1, const mech_pend_obs *p2)
{
    u->phi3_max = u->samples ? fmax(u->phi3_max, fabs(o->phi3)) : fabs(o->phi3);
    u->alpha_max = u->samples ? fmax(u->alpha_max, fabs(o->alpha)) : fabs(o->alpha);
    u->M_max = u->samples ? fmax(u->M_max, fabs(o->M)) : fabs(o->M);
    if (u->samples >= 2 && p1->phi3 > 0 && p1->phi3 > p2->phi3 && p1->phi3 >= o->phi3) {
        if (u->peaks == 0)
            u->peak_first = p1->phi3, u->W_first = p1->W_unit;
        u->peak_last = p1->phi3, u->W_last = p1->W_unit;
        u->peaks++;
    }
    u->W_unit = o->W_unit, u->A = o->A;
    u->samples++;
}

int mech_pend_run(const mech_pend_model *m, const mech_pend_run_opts *o, mech_pend_sample_fn fn, void *ctx,
                  mech_pend_summary *sum, hy_err *err)
{
    memset(sum, 0, sizeof *sum);
    sum->decay = sum->zeta = sum->E_cycle = sum->W_period0 = NAN;
    int decay = o->mode == MECH_PEND_RUN_DECAY;
    mech_pend_data *d;
    int rc = mech_pend_data_new(m, decay ? 0 : o->amplitude, decay ? 0 : 2 * M_PI * o->freq, &o->solver, &d, err);
    if (rc != HY_OK)
        return rc;
    if (decay && (rc = mech_pend_data_start(d, o->angle, 0, o->angle, 0, 0, err)) != HY_OK) {
        mech_pend_data_free(d);
        return rc;
    }
    double dt = decay ? o->dt : 1.0 / (o->freq * o->samples);
    long n = decay ? lround(o->duration / o->dt) : (long)o->periods * o->samples;
    long k0 = decay ? -1 : n - o->samples;   /* harmonic: the sample one drive period before the end */
    if (!decay)
        d->ramp = o->ramp / o->freq;
    mech_pend_obs ob[3];   /* this sample and the two before it, in turn */
    mech_pend_observe(d, &ob[0]);
    add(sum, &ob[0], &ob[0], &ob[0]);
    if (k0 == 0)
        sum->W_period0 = ob[0].W_unit;
    if (fn && (rc = fn(ctx, &ob[0], err)) != HY_OK) {
        mech_pend_data_free(d);
        return rc;
    }
    for (long k = 1; k <= n; k++) {
        if ((rc = mech_pend_advance(d, k * dt, err)) != HY_OK)
            break;
        mech_pend_obs *cur = &ob[k % 3];
        mech_pend_observe(d, cur);
        add(sum, cur, &ob[(k - 1) % 3], &ob[(k + 1) % 3]);
        if (k == k0)
            sum->W_period0 = cur->W_unit;
        if (fn && (rc = fn(ctx, cur, err)) != HY_OK)
            break;
    }
    mech_pend_data_free(d);
    if (decay && sum->peaks >= 2 && sum->peak_last > 0) {
        double dl = log(sum->peak_first / sum->peak_last) / (sum->peaks - 1);
        sum->decay = sum->peak_last / sum->peak_first;
        sum->zeta = dl / sqrt(4 * M_PI * M_PI + dl * dl);
        sum->E_cycle = (sum->W_last - sum->W_first) / (sum->peaks - 1);
    } else if (!decay && rc == HY_OK) {
        sum->E_cycle = sum->W_unit - sum->W_period0;
    }
    return rc;
}

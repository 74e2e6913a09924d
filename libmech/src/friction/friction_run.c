/* A whole friction run (spec 003 §4; docs/friction.md "A whole run"): the sample loop of `mech friction` and of a
 * sweep's runs (mech_sweep_run), one function, so that a sweep row is by construction the program's run. The
 * summary is made from the samples as they come: nothing is kept, nothing is allocated. */
#include <math.h>
#include <string.h>
#include "hyst/util.h"
#include "mech/friction.h"

// (summary, pairs, sample, the sample before it) => the sample added
static void add(mech_friction_summary *u, int nc, const mech_friction_sample *o, const mech_friction_sample *prev)
{
    if (u->samples > 0) {
        u->travel += fabs(o->q[0] - prev->q[0]);
        int stuck = 1;
        for (int j = 0; j < nc; j++)
            stuck &= o->slip[j] == 0;
        u->stuck += stuck;
    }
    for (int j = 0; j < nc; j++)
        u->peak_normal = u->samples == 0 && j == 0 ? o->N[j] : fmax(u->peak_normal, o->N[j]);
    u->W_friction = o->W_friction, u->W_applied = o->W_applied, u->ke = o->ke;
    u->samples++;
    u->stick_fraction = u->samples > 1 ? (double)u->stuck / (double)(u->samples - 1) : NAN;
}

int mech_friction_run(mech_friction_sim *s, double duration, double sample, mech_friction_sample_fn fn, void *ctx,
                      mech_friction_summary *sum, hy_err *err)
{
    memset(sum, 0, sizeof *sum);
    sum->stick_fraction = sum->peak_normal = NAN;
    if (!(duration >= 0) || !(sample > 0))
        return hy_err_set(err, HY_EARG, "run.duration = %g s, run.sample = %g s: expected a duration >= 0 and a "
                          "sample interval > 0", duration, sample);
    int nc = mech_friction_sim_data(s)->nc, rc;
    mech_friction_sample o[2];   /* this sample and the one before, alternately */
    mech_friction_sim_sample(s, &o[0]);
    add(sum, nc, &o[0], &o[0]);
    if (fn && (rc = fn(ctx, &o[0], err)) != HY_OK)
        return rc;
    long n = lround(ceil(duration / sample - 1e-9));
    for (long k = 1; k <= n; k++) {
        double t1 = fmin(k * sample, duration);
        int adv = mech_friction_sim_advance(s, t1, err);
        mech_friction_sample *cur = &o[k & 1];
        /* a failed advance: the state where it stopped is the last sample */
        mech_friction_sim_sample(s, cur);
        add(sum, nc, cur, &o[(k - 1) & 1]);
        hy_err werr;
        if (fn && (rc = fn(ctx, cur, adv == HY_OK ? err : &werr)) != HY_OK && adv == HY_OK)
            return rc;
        if (adv != HY_OK) {
            sum->failed = 1;
            return adv;
        }
    }
    return HY_OK;
}

/* One run of a sweep over a `mech friction` scenario (spec 003; docs/sweep.md "Simulators"): the run's scenario
 * parsed by mech_friction_config_parse, the mechanism compiled and run by mech_friction_run - the loop `mech friction`
 * writes its rows from - so every metric is, bit for bit, the number of `mech friction --summary`
 * (test_sweep_onerun_sims.sh). A Painlevé paradox that stops the run is a failed row with its report. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "hyst/util.h"
#include "mech/friction.h"
#include "mech/sweep.h"
#include "sweep_internal.h"

void mech_sweep__run_friction(const mech_sweep_plan *p, const char *txt, const char *name, const char *dir,
                              mech_sweep_result *r)
{
    (void)p, (void)dir;
    hy_err err;
    mech_friction_config c;
    mech_friction_mech *mc = NULL;
    mech_friction_sim *s = NULL;
    int rc = mech_friction_config_parse(txt, strlen(txt), name, &c, &err);
    if (rc == HY_OK && ((rc = mech_friction_mech_new(&c, &mc, &err)) != HY_OK ||
                        (rc = mech_friction_sim_new(mc, &s, &err)) != HY_OK)) {
        char msg[HY_MSG_LEN];   /* as `mech friction`: the file names the refusal */
        snprintf(msg, sizeof msg, "%s", err.msg);
        hy_err_set(&err, rc, "%s: %s", name, msg);
    }
    if (rc != HY_OK) {
        mech_sweep__fail(r, err.msg);
        mech_friction_mech_free(mc);
        return;
    }
    mech_friction_summary u;
    if (mech_friction_run(s, c.duration, c.sample, NULL, NULL, &u, &err) != HY_OK) {   /* `mech friction`'s loop */
        char msg[2 * HY_MSG_LEN];
        snprintf(msg, sizeof msg, "%s: %s", name, err.msg);
        mech_sweep__fail(r, msg);
    }
    const mech_friction_stats *st = mech_friction_sim_stats(s);
    if (u.samples > 0) {
        r->m[MECH_SWEEP_F_TRAVEL] = u.travel;
        r->m[MECH_SWEEP_F_STICK] = u.stick_fraction;
        r->m[MECH_SWEEP_F_W_FRICTION] = u.W_friction;
        r->m[MECH_SWEEP_F_W_APPLIED] = u.W_applied;
        r->m[MECH_SWEEP_F_PEAK_NORMAL] = u.peak_normal;
    }
    r->m[MECH_SWEEP_F_FLIPS] = (double)st->flips;
    r->m[MECH_SWEEP_F_STICKS] = (double)st->sticks;
    r->m[MECH_SWEEP_F_PARADOXES] = (double)st->paradoxes;
    r->m[MECH_SWEEP_F_STEPS] = (double)st->steps;
    mech_friction_sim_free(s);
    mech_friction_mech_free(mc);
}

/* One run of a sweep through the library (never by running the program): the run's scenario text
 * (mech_sweep_scenario) handed to the plan's simulator (sweep_sim.c): here the dock's - parsed by
 * mech_dock_config_parse, its model files loaded, the model compiled and simulated by mech_dock_run, the run function
 * `mech dock` calls (so the run ends where `mech dock`'s does: the duration, or the end of the process, whatever the
 * step control), and the summary of mech_dock_sim_summary kept; `steps` is the accepted steps taken. A failure at any
 * stage is the row's message; the metrics keep what the run reached (NAN before the simulation). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/util.h"
#include "mech/dock.h"
#include "mech/dock_process.h"
#include "mech/sweep.h"
#include "sweep_internal.h"

void mech_sweep__fail(mech_sweep_result *r, const char *msg)
{
    r->failed = 1;
    snprintf(r->msg, sizeof r->msg, "%s", msg);
}

void mech_sweep_run(const mech_sweep_plan *p, long run, mech_sweep_result *r)
{
    memset(r, 0, sizeof *r);
    r->run = run;
    for (int m = 0; m < MECH_SWEEP_METRIC_MAX; m++)
        r->m[m] = NAN;
    hy_err err;
    char *txt = mech_sweep_scenario(p, run, &err);
    if (!txt) {
        mech_sweep__fail(r, err.msg);
        return;
    }
    const char *dir, *scen = mech_sweep_run_scenario(p, run, &dir);   /* a qualification plan: the variant's */
    if (p->sim->id == MECH_SWEEP_SIM_BEAM)
        mech_sweep__run_beam(p, txt, hy_display_name(scen), dir, r);
    else if (p->sim->id == MECH_SWEEP_SIM_PENDULUM)
        mech_sweep__run_pendulum(p, txt, hy_display_name(scen), dir, r);
    else if (p->sim->id == MECH_SWEEP_SIM_FRICTION)
        mech_sweep__run_friction(p, txt, hy_display_name(scen), dir, r);
    else
        mech_sweep__run_dock(p, txt, hy_display_name(scen), dir, r);
    free(txt);
}

void mech_sweep__run_dock(const mech_sweep_plan *p, const char *txt, const char *name, const char *dir,
                          mech_sweep_result *r)
{
    hy_err err;
    mech_dock_config c;
    mech_dock_config_default(&c);
    int rc = mech_dock_config_parse(txt, strlen(txt), name, dir, &c, &err);
    /* N16: the law files this run reads must be the ones the plan was read with (hashed before and after the load,
       so a file replaced while it is read is caught too); else the sweep stops (fatal), naming the file */
    const char *keys[MECH_SWEEP_FILES_RUN], *paths[MECH_SWEEP_FILES_RUN];
    char kb[MECH_SWEEP_FILES_RUN][64];
    int nf = rc == HY_OK ? mech_sweep__dock_files(&c, keys, paths, kb) : 0;
    if (rc == HY_OK && mech_sweep_check_files(p, nf, keys, paths, &err) != HY_OK)
        r->fatal = 1, rc = HY_EDATA;
    if (rc == HY_OK)
        rc = mech_dock_config_load(&c, name, &err);
    if (rc == HY_OK && mech_sweep_check_files(p, nf, keys, paths, &err) != HY_OK)
        r->fatal = 1, rc = HY_EDATA;
    if (rc != HY_OK) {
        mech_sweep__fail(r, err.msg);
        mech_dock_config_free(&c);
        return;
    }
    mech_dock_model *m = NULL;
    mech_dock_sim *s = NULL;
    if (mech_dock_model_new(&c.params, &m, &err) != HY_OK || mech_dock_sim_new(m, &s, &err) != HY_OK) {
        mech_sweep__fail(r, err.msg);
        mech_dock_model_free(m);
        mech_dock_config_free(&c);
        return;
    }
    if (mech_dock_run(m, s, NULL, NULL, NULL, &err) != HY_OK)   /* `mech dock`'s run: the one run function */
        mech_sweep__fail(r, err.msg);
    const mech_dock_summary *u = mech_dock_sim_summary(s);
    r->m[MECH_SWEEP_M_CAPTURED] = u->captured;
    r->m[MECH_SWEEP_M_CAPTURE_TIME] = u->captured ? u->capture_time : NAN;
    r->m[MECH_SWEEP_M_CONE_CONTACTS] = u->cone_contacts;
    r->m[MECH_SWEEP_M_PEAK_AXIAL] = u->peak_axial;
    r->m[MECH_SWEEP_M_PEAK_LATERAL] = u->peak_lateral;
    r->m[MECH_SWEEP_M_PEAK_LIMITER] = u->peak_limiter;
    r->m[MECH_SWEEP_M_STROKE] = u->stroke_max;
    r->m[MECH_SWEEP_M_SWING] = u->swing_max;
    r->m[MECH_SWEEP_M_E_INITIAL] = u->e_initial;
    r->m[MECH_SWEEP_M_E_RESIDUAL] = u->e_residual_max;
    r->m[MECH_SWEEP_M_STEPS] = (double)mech_dock_sim_steps(s);
    r->m[MECH_SWEEP_M_TILT_MAX] = u->tilt_max;
    r->m[MECH_SWEEP_M_TILT_END] = u->tilt_end;
    r->m[MECH_SWEEP_M_ROLL_CLOSED] = fabs(u->roll_closed);   /* magnitudes: a requirement is one-sided */
    r->m[MECH_SWEEP_M_LATCH_ROLL_CLOSED] = fabs(u->latch_roll_closed);
    r->m[MECH_SWEEP_M_LATCHES_CLOSED] = u->latches_closed >= 0 ? u->latches_closed : NAN;
    r->m[MECH_SWEEP_M_LATCHES_ALL_TIME] = u->latches_all_time;
    int engaged = 0;   /* the latches snapped out behind their stops (latch_times not null; docs/dock.md §3) */
    for (int k = 0; k < 4; k++)
        engaged += !isnan(u->latch_time[k]);
    r->m[MECH_SWEEP_M_LATCHES_ENGAGED] = engaged;
    r->m[MECH_SWEEP_M_LIMITER_CLEARANCE] = u->limiter_clearance;
    r->m[MECH_SWEEP_M_LIMITER_LEAD] = u->limiter_lead;
    r->m[MECH_SWEEP_M_FRT1_PUSHER_SHARE] = u->frt1_pusher_share;
    r->m[MECH_SWEEP_M_T_CLOSED] = c.params.process.enabled ? mech_dock_sim_process(s)->t_closed : NAN;
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
    mech_dock_config_free(&c);
}

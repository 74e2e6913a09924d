/* The one run function (issue 43 D1; docs/dock.md §6c): the only loop that steps a docking run. `mech dock`
 * (tools/mech/cmd_dock.c, its outputs in on_step), `mech sweep` (libmech/src/sweep/sweep_run.c) and the Python
 * bindings (mech_dock_sim_run below, python/hystkit/dock.py) all call mech_dock_run, so a sweep row is `mech dock`'s
 * run by construction: the same steps to the same end (mech_dock_sim_done). See mech/dock.h. */
#include "mech/dock.h"

int mech_dock_run(const mech_dock_model *m, mech_dock_sim *s, const mech_dock_run_opts *o, int *end,
                  unsigned long *steps, hy_err *err)
{
    static const mech_dock_run_opts none = {0};
    if (!o)
        o = &none;
    unsigned long n = 0;
    int why = MECH_DOCK_RUN_END, rc = HY_OK;
    if (mech_dock_sim_model(s) != m) {
        why = MECH_DOCK_RUN_FAILED;
        rc = hy_err_set(err, HY_EARG, "mech_dock_run: the simulation is not of this model");
        goto out;
    }
    const mech_dock_params *p = mech_dock_model_params(m);
    while (!mech_dock_sim_done(s)) {   /* fixed: round(duration / h) steps of h; error-controlled: to the duration */
        if (o->max_steps && n >= o->max_steps) {
            why = MECH_DOCK_RUN_MAX_STEPS;
            break;
        }
        if ((rc = mech_dock_sim_step(s, err)) != HY_OK) {
            why = MECH_DOCK_RUN_FAILED;
            break;
        }
        n++;
        if (o->on_step && o->on_step(o->ctx, s)) {
            why = MECH_DOCK_RUN_STOPPED;
            break;
        }
        if (o->stop_at_capture && (mech_dock_sim_summary(s)->captured || mech_dock_sim_time(s) >= p->capture_timeout)) {
            why = MECH_DOCK_RUN_CAPTURE;
            break;
        }
    }
out:
    if (end)
        *end = why;
    if (steps)
        *steps = n;
    return rc;
}

/* Many docking steps in one call, the channels and element records written into caller-provided arrays: the
 * batched driver the Python bindings use (python/hystkit/dock.py), so that a run costs no interpreter time per
 * step. */
typedef struct batch {
    double *hist, *rec;
    size_t i;
} batch;

static int batch_row(void *ctx, const mech_dock_sim *s)
{
    batch *b = ctx;
    if (b->hist) {
        const double *ch = mech_dock_sim_channels(s);
        for (int k = 0; k < MECH_DOCK_NCH; k++)
            b->hist[b->i * MECH_DOCK_NCH + k] = ch[k];
    }
    if (b->rec) {
        for (int e = 0; e < MECH_DOCK_NEL; e++) {
            int state;
            double work, *r = b->rec + (b->i * MECH_DOCK_NEL + (size_t)e) * 2;
            mech_dock_sim_element(s, e, &r[0], &r[1], &state, &work);
        }
    }
    b->i++;
    return 0;
}

int mech_dock_sim_run(mech_dock_sim *s, size_t n, double *hist, double *rec, size_t *done, hy_err *err)
{
    batch b = {hist, rec, 0};
    int rc = HY_OK;
    if (n > 0) {   /* max_steps 0 means no limit */
        mech_dock_run_opts o = {.max_steps = n, .on_step = hist || rec ? batch_row : NULL, .ctx = &b};
        unsigned long k = 0;
        rc = mech_dock_run(mech_dock_sim_model(s), s, &o, NULL, &k, err);
        b.i = k;
    }
    if (done)
        *done = b.i;
    return rc;
}

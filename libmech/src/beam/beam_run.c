/* A whole time response of the jointed beam (spec 004 §4.5) into caller arrays or a per-sample callback: the one
 * loop behind `mech beam sim` (tools/mech/cmd_beam.c, which streams its rows through the callback), Python's
 * hystkit.run_beam (which keeps the arrays) and, two runs in lockstep, `mech beam lqr` (mech_beam_run_pair), so all
 * get the same samples, hinge works, contact counts and energy balance from the same per-sample code
 * (run_sample). */
#include <math.h>
#include <string.h>
#include "mech/beam.h"

int mech_beam_samples(const mech_beam_solver *s, size_t *n, hy_err *err)
{
    double d = s->duration, h = s->dt;
    if (!(h > 0) || !(d >= 0) || d / h > 1e8)
        return hy_err_set(err, HY_EARG, "solver.duration %g s / solver.dt %g s: expected a dt > 0 s and 0 .. 1e8 "
                          "steps (got %.3g)", d, h, d / h);
    *n = (size_t)lround(d / h) + 1;
    return HY_OK;
}

/* One run's state between samples: its data, the last observation and what the hinge counts need of the
 * previous sample */
typedef struct run_state {
    mech_beam_data *d;
    mech_beam_history *h;
    int keep;                                      /* the history's arrays are filled                         */
    mech_beam_obs o;
    double q0[MECH_BEAM_MAX_HINGES], Q0[MECH_BEAM_MAX_HINGES];   /* the previous sample's, for the work        */
    int touch[MECH_BEAM_MAX_HINGES], dir[MECH_BEAM_MAX_HINGES];  /* in contact; last nonzero direction         */
} run_state;

/* (model, solver, load, control, history, streamed: a callback takes the samples) => the history reset and checked,
 * the data made; status */
static int run_begin(run_state *r, const mech_beam_model *m, const mech_beam_solver *s, const mech_beam_load *load,
                     const mech_beam_control *ctl, mech_beam_history *h, int streamed, size_t *n,
                     hy_err *err)
{
    int nh = mech_beam_model_params(m)->n_hinges;
    size_t cap = h->cap;
    memset(r, 0, sizeof *r);
    r->h = h;
    h->n = 0;
    h->failed = 0;
    h->W_ext = h->W_hinge = h->T = h->V_beam = h->h = h->balance_max = 0;
    memset(h->W_j, 0, sizeof h->W_j);
    memset(h->contact, 0, sizeof h->contact);
    memset(h->contact_onsets, 0, sizeof h->contact_onsets);
    memset(h->turning_points, 0, sizeof h->turning_points);
    int rc = mech_beam_samples(s, n, err);
    if (rc != HY_OK)
        return rc;
    r->keep = !(streamed || h->sample) || cap > 0;   /* a streaming caller may keep nothing */
    if (r->keep && cap < *n)
        return hy_err_set(err, HY_EARG, "history: the arrays hold %zu samples, the run has %zu", cap, *n);
    if (r->keep && (!h->t || !h->w_tip || !h->theta || !h->theta_dot || !h->U || !h->F ||
                    (nh > 0 && (!h->dtheta || !h->M))))
        return hy_err_set(err, HY_EARG, "history: an array is NULL");
    return mech_beam_data_new(m, s, load, ctl, NULL, NULL, &r->d, err);
}

/* (model, run, sample i) => the step to sample i (none for i = 0), its observation with energies in r->o, the
 * history's arrays, counts and totals, then the history's own callback. A failing step sets failed. */
static int run_sample(const mech_beam_params *p, run_state *r, size_t i, hy_err *err)
{
    mech_beam_history *h = r->h;
    mech_beam_obs *o = &r->o;
    size_t cap = h->cap;
    int rc;
    if (i > 0 && (rc = mech_beam_step(r->d, err)) != HY_OK) {
        h->failed = 1;
        return rc;
    }
    mech_beam_observe_energy(r->d, o);
    if (r->keep) {
        h->t[i] = o->t, h->w_tip[i] = o->w_tip, h->theta[i] = o->theta, h->theta_dot[i] = o->theta_dot;
        h->U[i] = o->U, h->F[i] = o->F;
    }
    o->events = 0;
    for (int j = 0; j < p->n_hinges; j++) {
        double q = o->dtheta[j], Q = o->M[j];
        int in = fabs(q) > p->hinge[j].clearance;
        if (r->keep)
            h->dtheta[(size_t)j * cap + i] = q, h->M[(size_t)j * cap + i] = Q;
        if (i > 0) {
            h->W_j[j] += 0.5 * (Q + r->Q0[j]) * (q - r->q0[j]);   /* the work, as the loop analysis: Q dq trapezoids */
            if (in != r->touch[j])
                o->events |= MECH_BEAM_EV_CONTACT, h->contact_onsets[j] += in;
            int d = q > r->q0[j] ? 1 : q < r->q0[j] ? -1 : 0;
            if (d != 0 && r->dir[j] != 0 && d != r->dir[j])
                o->events |= MECH_BEAM_EV_TURNED, h->turning_points[j]++;
            if (d != 0)
                r->dir[j] = d;
        }
        r->q0[j] = q, r->Q0[j] = Q, r->touch[j] = in;
        if (in)
            h->contact[j]++;
    }
    h->balance_max = fmax(h->balance_max, fabs(o->T + o->V_beam + o->W_hinge - o->W_ext));
    h->n = i + 1;
    return h->sample ? h->sample(h->sample_ctx, i, o, err) : HY_OK;
}

// (run) => the final energies into the history, the data freed
static void run_end(run_state *r)
{
    mech_beam_history *h = r->h;
    const mech_beam_obs *o = &r->o;
    h->W_ext = o->W_ext, h->W_hinge = o->W_hinge, h->T = o->T, h->V_beam = o->V_beam, h->h = o->h;
    mech_beam_data_free(r->d);
    r->d = NULL;
}

int mech_beam_run(const mech_beam_model *m, const mech_beam_solver *s, const mech_beam_load *load,
                  const mech_beam_control *ctl, mech_beam_history *h, hy_err *err)
{
    const mech_beam_params *p = mech_beam_model_params(m);
    size_t n = 0;
    run_state r;
    int rc = run_begin(&r, m, s, load, ctl, h, 0, &n, err);
    if (rc != HY_OK)
        return rc;
    for (size_t i = 0; i < n && rc == HY_OK; i++) {
        if (h->progress)
            h->progress(h->progress_ctx, (double)i / (double)n);
        rc = run_sample(p, &r, i, err);
    }
    run_end(&r);
    return rc;
}

int mech_beam_run_pair(const mech_beam_model *m, const mech_beam_solver *s, const mech_beam_load *load,
                       const mech_beam_control *const ctl[2], mech_beam_history *const h[2],
                       mech_beam_pair_fn pair, void *ctx, int *which, hy_err *err)
{
    const mech_beam_params *p = mech_beam_model_params(m);
    size_t n = 0;
    run_state r[2];
    int rc = HY_OK, k;
    memset(r, 0, sizeof r);
    *which = -1;
    for (k = 0; k < 2 && rc == HY_OK; k++)
        if ((rc = run_begin(&r[k], m, s, load, ctl[k], h[k], pair != NULL, &n, err)) != HY_OK)
            *which = k;
    for (size_t i = 0; i < n && rc == HY_OK; i++) {
        if (h[0]->progress)
            h[0]->progress(h[0]->progress_ctx, (double)i / (double)n);
        for (k = 0; k < 2 && rc == HY_OK; k++)
            if ((rc = run_sample(p, &r[k], i, err)) != HY_OK)
                *which = k;
        if (rc == HY_OK && pair)
            rc = pair(ctx, i, &r[0].o, &r[1].o, err);
    }
    for (k = 0; k < 2; k++)
        if (r[k].d)
            run_end(&r[k]);
    return rc;
}

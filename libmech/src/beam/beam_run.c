/* A whole time response of the jointed beam (spec 004 §4.5) into caller arrays or a per-sample callback: the one
 * loop behind `mech beam sim` (tools/mech/cmd_beam.c, which streams its rows through the callback) and Python's
 * hystkit.run_beam (which keeps the arrays), so both get the same samples, hinge works, contact counts and energy
 * balance. */
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

int mech_beam_run(const mech_beam_model *m, const mech_beam_solver *s, const mech_beam_load *load,
                  const mech_beam_control *ctl, mech_beam_history *h, hy_err *err)
{
    const mech_beam_params *p = mech_beam_model_params(m);
    int nh = p->n_hinges;
    size_t n = 0, cap = h->cap;
    h->n = 0;
    h->failed = 0;
    h->W_ext = h->W_hinge = h->T = h->V_beam = h->h = h->balance_max = 0;
    memset(h->W_j, 0, sizeof h->W_j);
    memset(h->contact, 0, sizeof h->contact);
    memset(h->contact_onsets, 0, sizeof h->contact_onsets);
    memset(h->turning_points, 0, sizeof h->turning_points);
    int rc = mech_beam_samples(s, &n, err);
    if (rc != HY_OK)
        return rc;
    int keep = h->sample == NULL || cap > 0;   /* a streaming caller may keep nothing */
    if (keep && cap < n)
        return hy_err_set(err, HY_EARG, "history: the arrays hold %zu samples, the run has %zu", cap, n);
    if (keep && (!h->t || !h->w_tip || !h->theta || !h->theta_dot || !h->U || !h->F ||
                 (nh > 0 && (!h->dtheta || !h->M))))
        return hy_err_set(err, HY_EARG, "history: an array is NULL");
    mech_beam_data *d;
    if ((rc = mech_beam_data_new(m, s, load, ctl, NULL, NULL, &d, err)) != HY_OK)
        return rc;
    mech_beam_obs o;
    memset(&o, 0, sizeof o);
    double q0[MECH_BEAM_MAX_HINGES], Q0[MECH_BEAM_MAX_HINGES];   /* the previous sample's, for the work */
    int touch[MECH_BEAM_MAX_HINGES] = {0}, dir[MECH_BEAM_MAX_HINGES] = {0};   /* in contact; last nonzero direction */
    for (size_t i = 0; i < n; i++) {
        if (h->progress)
            h->progress(h->progress_ctx, (double)i / (double)n);
        if (i > 0 && (rc = mech_beam_step(d, err)) != HY_OK) {
            h->failed = 1;
            break;
        }
        mech_beam_observe_energy(d, &o);
        if (keep) {
            h->t[i] = o.t, h->w_tip[i] = o.w_tip, h->theta[i] = o.theta, h->theta_dot[i] = o.theta_dot;
            h->U[i] = o.U, h->F[i] = o.F;
        }
        o.events = 0;
        for (int j = 0; j < nh; j++) {
            double q = o.dtheta[j], Q = o.M[j];
            int in = fabs(q) > p->hinge[j].clearance;
            if (keep)
                h->dtheta[(size_t)j * cap + i] = q, h->M[(size_t)j * cap + i] = Q;
            if (i > 0) {
                h->W_j[j] += 0.5 * (Q + Q0[j]) * (q - q0[j]);   /* the work, as the loop analysis: Q dq trapezoids */
                if (in != touch[j])
                    o.events |= MECH_BEAM_EV_CONTACT, h->contact_onsets[j] += in;
                int d = q > q0[j] ? 1 : q < q0[j] ? -1 : 0;
                if (d != 0 && dir[j] != 0 && d != dir[j])
                    o.events |= MECH_BEAM_EV_TURNED, h->turning_points[j]++;
                if (d != 0)
                    dir[j] = d;
            }
            q0[j] = q, Q0[j] = Q, touch[j] = in;
            if (in)
                h->contact[j]++;
        }
        h->balance_max = fmax(h->balance_max, fabs(o.T + o.V_beam + o.W_hinge - o.W_ext));
        h->n = i + 1;
        if (h->sample && (rc = h->sample(h->sample_ctx, i, &o, err)) != HY_OK)
            break;
    }
    h->W_ext = o.W_ext, h->W_hinge = o.W_hinge, h->T = o.T, h->V_beam = o.V_beam, h->h = o.h;
    mech_beam_data_free(d);
    return rc;
}

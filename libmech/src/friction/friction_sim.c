/* Time simulation of a friction mechanism (docs/friction.md "Time integration"): classic RK4 from the ODE layer
 * (mech/ode.h) with fixed steps; the discrete state (variant and slip indices) is frozen inside every step and
 * every switch is located as an event, so no step contains a kink:
 *   a reaction N_j reaching 0 (-eps_N)          => the variant-index algorithm flips chi_j at the event,
 *   a slipping contact's sliding speed reaching 0 => stick hypothesis (§2.2),
 *   a stuck contact's force reaching its cone    => it slips against that force.
 * The event is located by Illinois regula falsi on the step length to 1e-12 s and the step ends just past it. At
 * every accepted step the discrete state is solved again (warm start = committed) and then committed; the
 * enumeration of all variants checks that the solution is unique, otherwise the step is reported as a Painlevé
 * paradox (time, pairs, determinants) and the simulation stops (or continues on the LP's choice when asked). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "friction/friction_internal.h"
#include "mech/ode.h"

struct mech_friction_sim {
    const mech_friction_mech *mc;
    const mech_friction_model *m;
    mech_friction_data *d;
    int w, nc, dim;
    double t;
    double y[2 * MECH_FRICTION_MAX_W + 2], y0[2 * MECH_FRICTION_MAX_W + 2];
    double Qa[MECH_FRICTION_MAX_W], ke;
    double N[MECH_FRICTION_MAX_NC], F[MECH_FRICTION_MAX_NC];
    mech_ode_system sys;
    mech_ode_step *step;
    mech_friction_stats st;
    int status;            /* error of the last right-hand side                                            */
    hy_err err;
};

enum { WF = 0, WA = 1 }; /* offsets after q, q' in y */

// (sim, t, y) => data prepared at (t, y), frozen committed state solved; HY_OK or an error
static int frozen(mech_friction_sim *s, double t, const double *y)
{
    mech_friction_data *d = s->d;
    int rc = mech_friction_mech_assemble(s->mc, t, y, y + s->w, d, s->Qa, &s->ke, &s->err);
    if (rc == HY_OK)
        rc = mech_friction_prepare(s->m, d, &s->err);
    if (rc == HY_OK && fr_solve_fixed(s->m, d, d->chi_c, d->slip_c, NULL) != HY_OK)
        rc = hy_err_set(&s->err, HY_ENUMERIC, "t = %.9g s: the reaction system of the current variant is "
                        "singular (Painlevé paradox boundary)", t);
    return rc;
}

// the first-order system: y = (q, q', W_friction, W_applied)
static int rhs(double t, const double y[], double dydt[], void *params)
{
    mech_friction_sim *s = params;
    int w = s->w, rc = frozen(s, t, y);
    if (rc != HY_OK)
        return s->status = rc;
    mech_friction_data *d = s->d;
    memcpy(dydt, y + w, (size_t)w * sizeof *dydt);
    memcpy(dydt + w, d->qdd, (size_t)w * sizeof *dydt);
    double pf = 0, pa = 0;
    for (int c = 0; c < s->nc; c++)
        pf -= d->F[c] * d->v[2 * c + fr_side(d->chi_c[c])];
    for (int i = 0; i < w; i++)
        pa += s->Qa[i] * y[w + i];
    dydt[2 * w + WF] = pf;
    dydt[2 * w + WA] = pa;
    s->st.evals++;
    return HY_OK;
}

// (sim, t, y) => the smallest switching function of the frozen state (>= 0 while nothing switches)
static int monitor(mech_friction_sim *s, double t, const double *y, double *g)
{
    int rc = frozen(s, t, y);
    if (rc != HY_OK)
        return rc;
    const mech_friction_data *d = s->d;
    double eps = s->m->opt.eps_N, gm = INFINITY;
    for (int c = 0; c < s->nc; c++) {
        int k = fr_side(d->chi_c[c]);
        gm = fmin(gm, d->N[c] + eps);
        if (d->slip_c[c] != 0)
            gm = fmin(gm, d->slip_c[c] * d->v[2 * c + k]);
        else
            gm = fmin(gm, s->m->c[c].mu_s[k] * d->N[c] - fabs(d->F[c]) + eps);
    }
    *g = gm;
    return HY_OK;
}

// (sim after an enumeration, number of distinct admissible solutions) => the paradox report in s->err; HY_ESTATE
static int paradox(mech_friction_sim *s, int count)
{
    const mech_friction_data *d = s->d;
    int nc = s->nc;
    char rep[400], pairs[64] = "";
    mech_friction_report(d, rep, sizeof rep);
    unsigned pm = count == 0 ? d->bad_pairs : (d->sol_mask[0] ^ d->sol_mask[1]);
    if (!pm)
        pm = (1u << nc) - 1;
    for (int c = 0, n = 0; c < nc; c++)
        if ((pm >> c) & 1)
            n += snprintf(pairs + n, sizeof pairs - (size_t)n, "%s%d", n ? ", " : "", c + 1);
    s->st.paradoxes++;
    return hy_err_set(&s->err, HY_ESTATE, "t = %.9g s: Painlevé paradox: %s (pairs %s); %s", s->t,
                      count == 0 ? "no admissible variant" : count == 2 ? "two admissible variants"
                                                                        : "several admissible variants",
                      pairs, rep);
}

// (sim, committed state before) => the discrete state solved at (t, y), checked for uniqueness, committed
static int settle(mech_friction_sim *s)
{
    const mech_friction_model *m = s->m;
    mech_friction_data *d = s->d;
    int w = s->w, nc = s->nc;
    int chi0[MECH_FRICTION_MAX_NC], slip0[MECH_FRICTION_MAX_NC];
    memcpy(chi0, d->chi_c, (size_t)nc * sizeof *chi0);
    memcpy(slip0, d->slip_c, (size_t)nc * sizeof *slip0);
    for (int pass = 0; pass < 2; pass++) {
        int rc = mech_friction_mech_assemble(s->mc, s->t, s->y, s->y + w, d, s->Qa, &s->ke, &s->err);
        if (rc == HY_OK)
            rc = mech_friction_prepare(m, d, &s->err);
        if (rc != HY_OK)
            return rc;
        mech_friction_revert(d);
        /* a slipping contact whose speed has come to zero tries to stick */
        for (int c = 0; c < nc; c++)
            if (d->slip[c] != 0 && fabs(d->v[2 * c + fr_side(d->chi[c])]) <= m->opt.eps_v)
                d->slip[c] = 0;
        rc = mech_friction_solve(m, d, &s->err);
        if (rc == HY_ESTATE && fr_square(m))
            return paradox(s, 0);
        if (rc != HY_OK) {
            char msg[HY_MSG_LEN];
            snprintf(msg, sizeof msg, "%s", s->err.msg);
            return hy_err_set(&s->err, rc, "t = %.9g s: %s", s->t, msg);
        }
        /* stuck contacts: remove the residual sliding speed (the smallest change of kinetic energy, which is
         * dissipated: added to the friction work) */
        int moved = 0;
        for (int c = 0; c < nc; c++) {
            if (d->slip[c] != 0)
                continue;
            int k = fr_side(d->chi[c]);
            const double *t = d->tvec + (size_t)(2 * c + k) * (size_t)(w + s->m->ns), *yt = fr_Y(d, c, k, 1);
            double v = 0, tyt = 0;
            for (int j = 0; j < w; j++)
                v += t[j] * s->y[w + j], tyt += t[j] * yt[j];
            if (v != 0 && tyt > 0) {
                double ke0 = s->ke, ke1 = 0;
                for (int j = 0; j < w; j++)
                    s->y[w + j] -= yt[j] * v / tyt;
                for (int i = 0; i < w; i++)
                    for (int j = 0; j < w; j++)
                        ke1 += 0.5 * s->y[w + i] * d->Mqq[i * w + j] * s->y[w + j];
                s->y[2 * w + WF] += ke0 - ke1;
                moved = 1;
            }
        }
        if (!moved || pass == 1)
            break;
        /* velocities changed: assemble again from the new speeds, keeping the found state as warm start */
        memcpy(d->chi_c, d->chi, (size_t)nc * sizeof *d->chi);
        memcpy(d->slip_c, d->slip, (size_t)nc * sizeof *d->slip);
    }
    int att = d->attempts, method = d->method;
    /* uniqueness: enumerate every variant with the found slip indices (spec 003 §3: 0 or >= 2 is a paradox) */
    int chi[MECH_FRICTION_MAX_NC], slip[MECH_FRICTION_MAX_NC], count = 1;
    memcpy(chi, d->chi, (size_t)nc * sizeof *chi);
    memcpy(slip, d->slip, (size_t)nc * sizeof *slip);
    if (fr_square(m)) {
        int rc = mech_friction_enumerate(m, d, &count, &s->err);
        if (rc != HY_OK)
            return rc;
    }
    if (count != 1) {
        int rc = paradox(s, count);
        if (!s->mc->cfg.on_paradox_lp || count == 0)
            return rc;
        /* continue on the LP's choice (the caller reports the paradox count) */
        rc = mech_friction_lp(m, d, &s->err);
        if (rc != HY_OK)
            return rc;
        memcpy(chi, d->chi, (size_t)nc * sizeof *chi);
        memcpy(slip, d->slip, (size_t)nc * sizeof *slip);
        s->st.lp_solves++;
    }
    memcpy(d->chi, chi, (size_t)nc * sizeof *chi);
    memcpy(d->slip, slip, (size_t)nc * sizeof *slip);
    if (fr_solve_fixed(m, d, chi, slip, NULL) != HY_OK)
        return hy_err_set(&s->err, HY_ENUMERIC, "t = %.9g s: singular reaction system", s->t);
    d->attempts = att;
    d->method = method;
    if (method == MECH_FRICTION_VARIANT)
        s->st.attempts_hist[att >= 4 ? 3 : att - 1]++;
    else if (method == MECH_FRICTION_LP)
        s->st.lp_solves++;
    for (int c = 0; c < nc; c++) {
        if (d->chi[c] != chi0[c] && s->st.steps > 0) {
            if (s->st.flips < 16) {
                s->st.flip_t[s->st.flips] = s->t;
                s->st.flip_pair[s->st.flips] = c;
            }
            s->st.flips++;
        }
        if (d->slip[c] == 0 && slip0[c] != 0)
            s->st.sticks++;
        if (d->slip[c] != 0 && slip0[c] == 0 && s->st.steps > 0)
            s->st.releases++;
        s->N[c] = d->N[c];
        s->F[c] = d->F[c];
    }
    mech_friction_commit(d);
    return HY_OK;
}

int mech_friction_sim_new(const mech_friction_mech *mc, mech_friction_sim **out, hy_err *err)
{
    *out = NULL;
    mech_friction_sim *s = calloc(1, sizeof *s);
    if (!s)
        return hy_err_set(err, HY_ENOMEM, "friction simulation: out of memory");
    s->mc = mc;
    s->m = mc->model;
    s->w = mc->cfg.w;
    s->nc = mc->cfg.nc;
    s->dim = 2 * s->w + 2;
    int rc = mech_friction_data_new(s->m, &s->d, err);
    if (rc != HY_OK) {
        free(s);
        return rc;
    }
    s->sys = (mech_ode_system){rhs, (size_t)s->dim, s, NULL, NULL, NULL};
    s->step = mech_ode_step_alloc(mech_ode_step_rk4, (size_t)s->dim);
    if (!s->step) {
        mech_friction_sim_free(s);
        return hy_err_set(err, HY_ENOMEM, "friction simulation: out of memory");
    }
    memcpy(s->y, mc->cfg.q0, (size_t)s->w * sizeof(double));
    memcpy(s->y + s->w, mc->cfg.qd0, (size_t)s->w * sizeof(double));
    /* cold start: chi = +1, every contact with |v| <= eps_v on a stick hypothesis */
    if ((rc = settle(s)) != HY_OK) {
        if (err)
            *err = s->err;
        mech_friction_sim_free(s);
        return rc;
    }
    *out = s;
    return HY_OK;
}

void mech_friction_sim_free(mech_friction_sim *s)
{
    if (!s)
        return;
    mech_ode_step_free(s->step);
    mech_friction_data_free(s->d);
    free(s);
}

// (sim, h) => y0 advanced by one RK4 step of h into s->y (frozen discrete state)
static int rk_step(mech_friction_sim *s, double h)
{
    memcpy(s->y, s->y0, (size_t)s->dim * sizeof *s->y);
    s->status = HY_OK;
    int rc = mech_ode_step_apply(s->step, s->t, h, s->y, NULL, &s->sys);
    return rc != HY_OK ? (s->status ? s->status : rc) : HY_OK;
}

int mech_friction_sim_advance(mech_friction_sim *s, double t1, hy_err *err)
{
    double hnom = s->mc->cfg.step, tol = 1e-12;
    /* chattering (Zeno) guard: switches whose steps are all tiny, or more than max_switches of them within one
     * nominal step, mean the discrete state cannot settle at this step and eps_v; without the second bound a
     * cascade of switches 1e-9 s apart would crawl through a 1 s step for hours */
    enum { max_switches = 100 };
    double window_t = s->t;
    int stalls = 0, switches = 0, rc = HY_OK;
    while (rc == HY_OK && s->t < t1 - 1e-12 * fmax(1.0, fabs(t1))) {
        double h = fmin(hnom, t1 - s->t);
        memcpy(s->y0, s->y, (size_t)s->dim * sizeof *s->y);
        double g1;
        if ((rc = rk_step(s, h)) != HY_OK || (rc = monitor(s, s->t + h, s->y, &g1)) != HY_OK)
            break;
        if (g1 < 0) {
            /* locate the first switch: Illinois regula falsi on the step length, ending just past it */
            double lo = 0, hi = h, glo, ghi = g1;
            if ((rc = monitor(s, s->t, s->y0, &glo)) != HY_OK)
                break;
            glo = fmax(glo, 1e-300);
            int side = 0;
            for (int it = 0; it < 200 && hi - lo > tol * fmax(1.0, fabs(s->t)); it++) {
                double x = (lo * ghi - hi * glo) / (ghi - glo);
                if (!(x > lo && x < hi) || it % 8 == 7)
                    x = 0.5 * (lo + hi);
                double gx;
                if ((rc = rk_step(s, x)) != HY_OK || (rc = monitor(s, s->t + x, s->y, &gx)) != HY_OK)
                    break;
                if (gx < 0) {
                    hi = x, ghi = gx;
                    if (side == -1)
                        glo *= 0.5;
                    side = -1;
                } else {
                    lo = x, glo = gx;
                    if (side == 1)
                        ghi *= 0.5;
                    side = 1;
                }
            }
            if (rc != HY_OK || (rc = rk_step(s, hi)) != HY_OK)
                break;
            h = hi;
            s->st.events++;
            stalls = h < 1e-10 ? stalls + 1 : 0;
            if (s->t - window_t > hnom)
                window_t = s->t, switches = 0;
            if (stalls > 100) {
                rc = hy_err_set(&s->err, HY_ESTATE, "t = %.9g s: the contact states switch without the time "
                                "advancing (chattering); try a larger solver.eps_v or another run.step", s->t);
                break;
            }
            if (++switches > max_switches) {
                rc = hy_err_set(&s->err, HY_ESTATE, "t = %.9g s: chattering: more than %d contact-state switches "
                                "within one run.step (%.3g s); the step does not resolve the loads or the "
                                "stick-slip cycle: try a smaller run.step", s->t, max_switches, hnom);
                break;
            }
        }
        s->t += h;
        s->st.steps++;
        for (int i = 0; i < s->dim; i++)
            if (!isfinite(s->y[i])) {
                rc = hy_err_set(&s->err, HY_ENUMERIC, "t = %.9g s: the state is not finite (coordinate %d)", s->t,
                                i + 1);
                break;
            }
        if (rc == HY_OK)
            rc = settle(s);
    }
    if (rc != HY_OK) {
        /* keep the last accepted state (y was advanced only on success) */
        if (err)
            *err = s->err;
        if (s->err.msg[0] && strncmp(s->err.msg, "t = ", 4) != 0 && err)
            hy_err_set(err, rc, "t = %.9g s: %s", s->t, s->err.msg);
        return rc;
    }
    s->t = fmax(s->t, t1);
    return HY_OK;
}

void mech_friction_sim_sample(const mech_friction_sim *s, mech_friction_sample *o)
{
    memset(o, 0, sizeof *o);
    int w = s->w;
    o->t = s->t;
    memcpy(o->q, s->y, (size_t)w * sizeof(double));
    memcpy(o->qd, s->y + w, (size_t)w * sizeof(double));
    for (int c = 0; c < s->nc; c++) {
        o->N[c] = s->N[c];
        o->F[c] = s->F[c];
        o->chi[c] = s->d->chi_c[c];
        o->slip[c] = s->d->slip_c[c];
    }
    o->W_friction = s->y[2 * w + WF];
    o->W_applied = s->y[2 * w + WA];
    double ke = 0;
    for (int i = 0; i < w; i++)
        for (int j = 0; j < w; j++)
            ke += 0.5 * s->y[w + i] * s->d->Mqq[i * w + j] * s->y[w + j];
    o->ke = ke;
}

const mech_friction_stats *mech_friction_sim_stats(const mech_friction_sim *s) { return &s->st; }
mech_friction_data *mech_friction_sim_data(mech_friction_sim *s) { return s->d; }

/* Driver of the ODE layer (mech/ode.h): adaptive or fixed steps, reversal location, commit/revert of the hysteretic
 * elements through the system's accept/reject hooks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "mech/ode.h"

static mech_ode_driver *alloc_common(const mech_ode_system *sys, const mech_ode_step_type *T, double h)
{
    mech_ode_driver *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    size_t n = sys->dimension;
    d->sys = sys;
    d->step = mech_ode_step_alloc(T, n);
    d->y0 = calloc(3 * n + 1, sizeof *d->y0);
    if (!d->step || !d->y0) {
        mech_ode_driver_free(d);
        return NULL;
    }
    d->ytry = d->y0 + n;
    d->yerr = d->y0 + 2 * n;
    d->h = h;
    d->hmin = 1e-13;
    d->hmax = INFINITY;
    d->event_tol = 1e-12;
    d->control.safety = 0.9;
    return d;
}

// (system, type, h0, tolerances) => adaptive driver
mech_ode_driver *mech_ode_driver_alloc_adaptive(const mech_ode_system *sys, const mech_ode_step_type *T, double h0,
                                           double eps_abs, double eps_rel)
{
    if (!T->has_error || !(h0 > 0))
        return NULL;
    mech_ode_driver *d = alloc_common(sys, T, h0);
    if (d) {
        d->adaptive = 1;
        d->control.eps_abs = eps_abs;
        d->control.eps_rel = eps_rel;
    }
    return d;
}

// (system, type, h) => fixed-step driver
mech_ode_driver *mech_ode_driver_alloc_fixed(const mech_ode_system *sys, const mech_ode_step_type *T, double h)
{
    if (!(h > 0))
        return NULL;
    return alloc_common(sys, T, h);
}

// (d) => event direction forgotten
void mech_ode_driver_reset(mech_ode_driver *d)
{
    d->event_dir = 0;
}

// (d) => memory released
void mech_ode_driver_free(mech_ode_driver *d)
{
    if (!d)
        return;
    mech_ode_step_free(d->step);
    free(d->y0);
    free(d);
}

static int sgn(double x)
{
    return x > 0 ? 1 : x < 0 ? -1 : 0;
}

// (driver, t, y0, h) => ytry = one step of size h from (t, y0), yerr; drops the stage trials afterwards
static int try_step(mech_ode_driver *d, double t, double h)
{
    size_t n = d->sys->dimension;
    memcpy(d->ytry, d->y0, n * sizeof *d->ytry);
    int rc = mech_ode_step_apply(d->step, t, h, d->ytry, d->yerr, d->sys);
    if (d->sys->reject)
        d->sys->reject(d->sys->params);
    return rc;
}

/* (driver, t, step h whose end has the event of the opposite sign) => *h shortened so that the step ends on the
 * zero of event() (within event_tol, on the old side), ytry/yerr for that step. Illinois regula falsi on the
 * step length: event() along the step is a smooth function of the length because no stage crosses a kink. */
static int locate(mech_ode_driver *d, double t, double g0, double *h)
{
    const mech_ode_system *s = d->sys;
    int dir = d->event_dir;
    /* g0 may be a rounding-level value of either sign right after the previous reversal: count it as on the old side */
    double lo = 0.0, glo = sgn(g0) == dir ? g0 : dir * 1e-300;
    double hi = *h, ghi = s->event(t + hi, d->ytry, s->params);
    int side = 0;
    for (int it = 0; it < 200 && hi - lo > d->event_tol * fmax(1.0, fabs(t)); it++) {
        double x = (lo * ghi - hi * glo) / (ghi - glo);
        if (!(x > lo && x < hi))
            x = 0.5 * (lo + hi);
        /* keep the bracket shrinking from both sides: fall back to bisection when regula falsi stalls */
        if (it % 8 == 7)
            x = 0.5 * (lo + hi);
        int rc = try_step(d, t, x);
        d->n_evals_locate++;
        if (rc != HY_OK)
            return rc;
        double gx = s->event(t + x, d->ytry, s->params);
        if (sgn(gx) == -dir) {
            hi = x;
            ghi = gx;
            if (side == -1)
                glo *= 0.5;
            side = -1;
        } else {
            lo = x;
            glo = gx == 0.0 ? dir * 1e-300 : gx;
            if (side == 1)
                ghi *= 0.5;
            side = 1;
        }
    }
    /* end on the old side (the step contains no reversal); a zero-length step means the event sits at t */
    *h = lo;
    if (lo > 0.0)
        return try_step(d, t, lo);
    memcpy(d->ytry, d->y0, s->dimension * sizeof *d->ytry);
    memset(d->yerr, 0, s->dimension * sizeof *d->yerr);
    return HY_OK;
}

// (driver, t, t1, y) => y at t1
int mech_ode_driver_apply(mech_ode_driver *d, double *t, double t1, double y[])
{
    const mech_ode_system *s = d->sys;
    size_t n = s->dimension;
    int rc = HY_OK;
    if (s->event && d->event_dir == 0)
        d->event_dir = sgn(s->event(*t, y, s->params));
    double grid_end = *t; /* fixed mode: end of the current nominal step */
    while (*t < t1) {
        double h;
        if (d->adaptive) {
            h = fmin(fmin(d->h, d->hmax), t1 - *t);
            if (t1 - *t - h < 1e-12 * fmax(1.0, fabs(t1))) /* do not leave a sliver */
                h = t1 - *t;
        } else {
            if (grid_end <= *t)
                grid_end = fmin(*t + d->h, t1);
            if (t1 - grid_end < 1e-9 * d->h)
                grid_end = t1;
            h = grid_end - *t;
        }
        memcpy(d->y0, y, n * sizeof *d->y0);
        rc = try_step(d, *t, h);
        int event = 0;
        if (rc == HY_OK && s->event && d->event_dir != 0) {
            double g1 = s->event(*t + h, d->ytry, s->params);
            if (sgn(g1) == -d->event_dir) {
                double g0 = s->event(*t, d->y0, s->params);
                rc = locate(d, *t, g0, &h);
                event = 1;
            }
        }
        if (rc != HY_OK) {
            if (d->adaptive && h > d->hmin) {
                d->h = 0.25 * h; /* e.g. an element refused a stage: retry smaller */
                d->n_rejected++;
                rc = HY_OK;
                continue;
            }
            return rc;
        }
        if (d->adaptive && h > 0.0) {
            double hnew = h, ratio;
            int adj = mech_ode_control_hadjust(&d->control, d->step->type->order, d->ytry, d->yerr, n, &hnew, &ratio);
            if (adj < 0) {
                if (hnew < d->hmin)
                    return hy_err_set(NULL, HY_ENUMERIC, "step size underflow");
                d->h = hnew;
                d->n_rejected++;
                continue;
            }
            if (!event || adj > 0)
                d->h = event ? fmax(d->h, hnew) : hnew;
        }
        /* accept: the elements commit at the new point (their trial at ytry is recomputed by the hook) */
        if (h > 0.0) {
            memcpy(y, d->ytry, n * sizeof *y);
            *t += h;
            d->n_steps++;
        }
        if (event && fabs(*t - grid_end) < d->event_tol * fmax(1.0, fabs(*t)))
            *t = grid_end;  /* the reversal sits on the grid point */
        if (s->accept && (rc = s->accept(*t, y, s->params)) != HY_OK)
            return rc;
        if (event) {
            d->event_dir = -d->event_dir;
            d->n_events++;
        } else if (s->event && d->event_dir == 0) {
            d->event_dir = sgn(s->event(*t, y, s->params));
        }
    }
    *t = t1;
    return HY_OK;
}

// Step-size control of the ODE layer (mech/ode.h): the "standard" control of GSL odeiv2 with a_y = 1, a_dydt = 0
// (and GSL's scaled variant: a weight per component on eps_abs), and a PI control on the same test.
#include <math.h>
#include "mech/ode.h"

// (control, y, yerr) => max_i |yerr_i| / D_i (INFINITY for a NaN)
static double error_ratio(const mech_ode_control *c, const double y[], const double yerr[], size_t dim)
{
    double rmax = 0.0;
    for (size_t i = 0; i < dim; i++) {
        double D = c->eps_abs * (c->scale_abs ? c->scale_abs[i] : 1.0) + c->eps_rel * fabs(y[i]);
        double r = fabs(yerr[i]) / D;
        if (r > rmax || isnan(r))
            rmax = isnan(r) ? INFINITY : r;
    }
    return rmax;
}

// (control, order, ratio > 1.1) => the factor of a rejected step
static double reject_factor(const mech_ode_control *c, int order, double rmax)
{
    /* the error of the step behaves like h^order (the estimate is of the lower, order-1, solution + 1) */
    double f = isfinite(rmax) ? c->safety / pow(rmax, 1.0 / order) : 0.2;
    return f < 0.2 ? 0.2 : f;
}

// (control, order, y, yerr, h) => error ratio and the adjusted step; -1 reject, +1 grown, 0 kept
int mech_ode_control_hadjust(const mech_ode_control *c, int order, const double y[], const double yerr[], size_t dim,
                           double *h, double *ratio)
{
    double rmax = error_ratio(c, y, yerr, dim);
    *ratio = rmax;
    if (rmax > 1.1) {
        *h *= reject_factor(c, order, rmax);
        return -1;
    }
    if (rmax < 0.5) {
        double f = rmax > 0 ? c->safety / pow(rmax, 1.0 / (order + 1)) : 5.0;
        if (f > 5.0)
            f = 5.0;
        if (f < 1.0)
            f = 1.0;
        *h *= f;
        return 1;
    }
    return 0;
}

int mech_ode_control_hadjust_pi(const mech_ode_control *c, mech_ode_pi *pi, int order, const double y[],
                                const double yerr[], size_t dim, double *h, double *ratio)
{
    double rmax = error_ratio(c, y, yerr, dim);
    *ratio = rmax;
    if (rmax > 1.1) {
        *h *= reject_factor(c, order, rmax);
        pi->rejected = 1;
        return -1;
    }
    /* Gustafsson's exponents for an estimate of order k: integral 0.3 / k, proportional 0.4 / k, i.e.
       (1/err)^(0.7/k) err_old^(0.4/k); the first step has no memory (err_old = err: the integral law alone) */
    double e = rmax > 1e-4 ? rmax : 1e-4, eo = pi->err_old > 0 ? pi->err_old : e, k = order;
    double f = c->safety * pow(e, -0.7 / k) * pow(eo, 0.4 / k);
    if (f > 5.0)
        f = 5.0;
    if (f < 0.2)
        f = 0.2;
    if (pi->rejected && f > 1.0)   /* no growth right after a rejection */
        f = 1.0;
    pi->err_old = e;
    pi->rejected = 0;
    *h *= f;
    return f > 1.0 ? 1 : 0;
}

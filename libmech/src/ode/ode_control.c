// Step-size control of the ODE layer (mech/ode.h): the "standard" control of GSL odeiv2 with a_y = 1, a_dydt = 0
// (and GSL's scaled variant: a weight per component on eps_abs).
#include <math.h>
#include "mech/ode.h"

// (control, order, y, yerr, h) => error ratio and the adjusted step; -1 reject, +1 grown, 0 kept
int mech_ode_control_hadjust(const mech_ode_control *c, int order, const double y[], const double yerr[], size_t dim,
                           double *h, double *ratio)
{
    double rmax = 0.0;
    for (size_t i = 0; i < dim; i++) {
        double D = c->eps_abs * (c->scale_abs ? c->scale_abs[i] : 1.0) + c->eps_rel * fabs(y[i]);
        double r = fabs(yerr[i]) / D;
        if (r > rmax || isnan(r))
            rmax = isnan(r) ? INFINITY : r;
    }
    *ratio = rmax;
    if (rmax > 1.1) {
        /* the error of the step behaves like h^order (the estimate is of the lower, order-1, solution + 1) */
        double f = isfinite(rmax) ? c->safety / pow(rmax, 1.0 / order) : 0.2;
        if (f < 0.2)
            f = 0.2;
        *h *= f;
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

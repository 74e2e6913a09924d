// Classic fourth-order Runge-Kutta stepper (mech/ode.h). No error estimate: used with fixed steps.
#include <string.h>
#include "mech/ode.h"

// (work[5 dim], t, h, y) => y advanced by one RK4 step; HY_OK or the system's error (y unchanged then)
static int rk4_apply(double *w, double t, double h, double y[], double yerr[], const double dydt_in[],
                     double dydt_out[], const mech_ode_system *sys)
{
    size_t n = sys->dimension;
    double *k1 = w, *k2 = w + n, *k3 = w + 2 * n, *k4 = w + 3 * n, *yt = w + 4 * n;
    void *p = sys->params;
    int rc = HY_OK;
    if (dydt_in)
        memcpy(k1, dydt_in, n * sizeof *k1);
    else
        rc = sys->function(t, y, k1, p);
    for (size_t i = 0; rc == HY_OK && i < n; i++)
        yt[i] = y[i] + 0.5 * h * k1[i];
    if (rc == HY_OK)
        rc = sys->function(t + 0.5 * h, yt, k2, p);
    for (size_t i = 0; rc == HY_OK && i < n; i++)
        yt[i] = y[i] + 0.5 * h * k2[i];
    if (rc == HY_OK)
        rc = sys->function(t + 0.5 * h, yt, k3, p);
    for (size_t i = 0; rc == HY_OK && i < n; i++)
        yt[i] = y[i] + h * k3[i];
    if (rc == HY_OK)
        rc = sys->function(t + h, yt, k4, p);
    if (rc != HY_OK)
        return rc;
    for (size_t i = 0; i < n; i++)
        y[i] += h / 6.0 * (k1[i] + 2.0 * (k2[i] + k3[i]) + k4[i]);
    if (yerr)
        memset(yerr, 0, n * sizeof *yerr);
    if (dydt_out)   /* not first-same-as-last: one more evaluation */
        return sys->function(t + h, y, dydt_out, p);
    return HY_OK;
}

static const mech_ode_step_type rk4_type = {"rk4", 4, 0, 5, rk4_apply, 0, {0, 0, 0, 0}};
const mech_ode_step_type *const mech_ode_step_rk4 = &rk4_type;

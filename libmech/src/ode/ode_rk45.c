/* Embedded Runge-Kutta pair of Dormand and Prince, RK5(4)7M (Hairer, Norsett, Wanner, Solving ODE I, Table 5.2):
 * the fifth-order solution is propagated, the difference to the fourth-order one is the error estimate. The last
 * stage is f at the new point (first same as last): a caller that passes it back as the next dydt_in pays six
 * evaluations per step. Workspace: k1..k7, the stage argument, the sixth stage's argument (for the stiffness
 * estimate, mech_ode_step_rho). */
#include <string.h>
#include "mech/ode.h"

static const double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
static const double a21 = 1.0 / 5;
static const double a31 = 3.0 / 40, a32 = 9.0 / 40;
static const double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
static const double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561, a54 = -212.0 / 729;
static const double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247, a64 = 49.0 / 176,
                    a65 = -5103.0 / 18656;
static const double b1 = 35.0 / 384, b3 = 500.0 / 1113, b4 = 125.0 / 192, b5 = -2187.0 / 6784, b6 = 11.0 / 84;
/* e = b(5th) - b(4th) */
static const double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920, e5 = -17253.0 / 339200,
                    e6 = 22.0 / 525, e7 = -1.0 / 40;

// (work[8 dim], t, h, y) => y advanced by the fifth-order solution, yerr = estimate of the local error
static int rk45_apply(double *w, double t, double h, double y[], double yerr[], const double dydt_in[],
                      double dydt_out[], const mech_ode_system *sys)
{
    size_t n = sys->dimension;
    double *k1 = w, *k2 = w + n, *k3 = w + 2 * n, *k4 = w + 3 * n, *k5 = w + 4 * n, *k6 = w + 5 * n,
           *k7 = w + 6 * n, *yt = w + 7 * n, *y6 = w + 8 * n;
    void *p = sys->params;
    int rc = HY_OK;
    if (dydt_in)
        memcpy(k1, dydt_in, n * sizeof *k1);
    else if ((rc = sys->function(t, y, k1, p)) != HY_OK)
        return rc;
    for (size_t i = 0; i < n; i++)
        yt[i] = y[i] + h * a21 * k1[i];
    if ((rc = sys->function(t + c2 * h, yt, k2, p)) != HY_OK)
        return rc;
    for (size_t i = 0; i < n; i++)
        yt[i] = y[i] + h * (a31 * k1[i] + a32 * k2[i]);
    if ((rc = sys->function(t + c3 * h, yt, k3, p)) != HY_OK)
        return rc;
    for (size_t i = 0; i < n; i++)
        yt[i] = y[i] + h * (a41 * k1[i] + a42 * k2[i] + a43 * k3[i]);
    if ((rc = sys->function(t + c4 * h, yt, k4, p)) != HY_OK)
        return rc;
    for (size_t i = 0; i < n; i++)
        yt[i] = y[i] + h * (a51 * k1[i] + a52 * k2[i] + a53 * k3[i] + a54 * k4[i]);
    if ((rc = sys->function(t + c5 * h, yt, k5, p)) != HY_OK)
        return rc;
    for (size_t i = 0; i < n; i++)
        y6[i] = y[i] + h * (a61 * k1[i] + a62 * k2[i] + a63 * k3[i] + a64 * k4[i] + a65 * k5[i]);
    if ((rc = sys->function(t + h, y6, k6, p)) != HY_OK)
        return rc;
    for (size_t i = 0; i < n; i++)
        yt[i] = y[i] + h * (b1 * k1[i] + b3 * k3[i] + b4 * k4[i] + b5 * k5[i] + b6 * k6[i]);
    if ((rc = sys->function(t + h, yt, k7, p)) != HY_OK)
        return rc;
    for (size_t i = 0; i < n; i++) {
        if (yerr)
            yerr[i] = h * (e1 * k1[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] + e6 * k6[i] + e7 * k7[i]);
        y[i] = yt[i];
    }
    if (dydt_out)
        memcpy(dydt_out, k7, n * sizeof *k7);
    return HY_OK;
}

static const mech_ode_step_type rk45_type = {"rk45", 5, 1, 9, rk45_apply, 1, {5, 6, 8, 7}}   /* k6, k7, y6, y1 */;
const mech_ode_step_type *const mech_ode_step_rk45 = &rk45_type;

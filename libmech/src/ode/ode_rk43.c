/* Classic Runge-Kutta 4 with an embedded third-order estimate that uses the first-same-as-last stage
 * f(t + h, y1): RK4(3)FSAL. The propagated solution is the classic one (b = 1/6, 1/3, 1/3, 1/6); the order-3
 * companion b^ = (1/6, 1/3, 1/3, 0, 1/6) on (k1 .. k4, k5 = f(t + h, y1)) satisfies the four order-3 conditions
 * (sum b^ = 1, b^.c = 1/2, b^.c^2 = 1/3, b^.A c = 1/6 with c5 = 1, a5j = bj), so the estimate is
 * y1 - y^ = h/6 (k4 - k5), O(h^4). Four evaluations a step (k5 is the next step's k1).
 * Why beside Dormand-Prince (ode_rk45.c): on a lightly damped oscillation that the error control does not resolve
 * (amplitude at the tolerance), a step is held by stability, and RK4's region reaches |h lambda| = 2.83 on the
 * imaginary axis with 4 evaluations where DOPRI5's stops near 2.4 (2 % damping) with 6: about 1.8x the step
 * length per evaluation (docs/dock-process.md §8.1). The stiffness estimate uses stages 4 and 5, both at t + h. */
#include <string.h>
#include "mech/ode.h"

// (work[7 dim], t, h, y) => y advanced by RK4, yerr = h/6 (k4 - k5), dydt_out = k5
static int rk43_apply(double *w, double t, double h, double y[], double yerr[], const double dydt_in[],
                      double dydt_out[], const mech_ode_system *sys)
{
    size_t n = sys->dimension;
    double *k1 = w, *k2 = w + n, *k3 = w + 2 * n, *k4 = w + 3 * n, *k5 = w + 4 * n, *yt = w + 5 * n, *y4 = w + 6 * n;
    void *p = sys->params;
    int rc;
    if (dydt_in)
        memcpy(k1, dydt_in, n * sizeof *k1);
    else if ((rc = sys->function(t, y, k1, p)) != HY_OK)
        return rc;
    for (size_t i = 0; i < n; i++)
        yt[i] = y[i] + 0.5 * h * k1[i];
    if ((rc = sys->function(t + 0.5 * h, yt, k2, p)) != HY_OK)
        return rc;
    for (size_t i = 0; i < n; i++)
        yt[i] = y[i] + 0.5 * h * k2[i];
    if ((rc = sys->function(t + 0.5 * h, yt, k3, p)) != HY_OK)
        return rc;
    for (size_t i = 0; i < n; i++)
        y4[i] = y[i] + h * k3[i];
    if ((rc = sys->function(t + h, y4, k4, p)) != HY_OK)
        return rc;
    for (size_t i = 0; i < n; i++)
        yt[i] = y[i] + h / 6.0 * (k1[i] + 2.0 * (k2[i] + k3[i]) + k4[i]);   /* as ode_rk4.c, bit for bit */
    if ((rc = sys->function(t + h, yt, k5, p)) != HY_OK)
        return rc;
    for (size_t i = 0; i < n; i++) {
        if (yerr)
            yerr[i] = h / 6.0 * (k4[i] - k5[i]);
        y[i] = yt[i];
    }
    if (dydt_out)
        memcpy(dydt_out, k5, n * sizeof *k5);
    return HY_OK;
}

static const mech_ode_step_type rk43_type = {"rk43", 4, 1, 7, rk43_apply, 1, {3, 4, 6, 5}}   /* k4, k5, y4, y1 */;
const mech_ode_step_type *const mech_ode_step_rk43 = &rk43_type;

// Kinematic hysteresis ODE (spec 002): q-domain integration of df/dq = R_s(q, f) along a monotone path.
#include <math.h>
#include "kin_internal.h"

// (model, s, q0, f0, q1, n) => f(q1) by n classic RK4 steps (spec 002 §6.1 item 4: "q-domain integrator")
double hy_kin_integrate_n(const hy_kin_model *m, int s, double q0, double f0, double q1, int n)
{
    if (n < 1 || q1 == q0)
        return f0;
    const hy_kin_coeffs *c = kin_law(m, s);
    const double h = (q1 - q0) / n, h2 = 0.5 * h;
    double f = f0;
    for (int i = 0; i < n; i++) {
        /* q from the index, not by accumulation, so the last node is exactly q1 */
        double q = q0 + i * h, qm = q + h2, qe = (i == n - 1) ? q1 : q0 + (i + 1) * h;
        double k1 = kin_poly(c, q, f);
        double k2 = kin_poly(c, qm, f + h2 * k1);
        double k3 = kin_poly(c, qm, f + h2 * k2);
        double k4 = kin_poly(c, qe, f + h * k3);
        f += h / 6.0 * (k1 + 2.0 * (k2 + k3) + k4);
    }
    return f;
}

// (model, s, q0, f0, q1) => sub-step count: |dq| per sub-step <= HY_KIN_SUBSTEP_FRAC / lambda and <= h_cap
int hy_kin_substeps(const hy_kin_model *m, int s, double q0, double f0, double q1)
{
    double span = fabs(q1 - q0);
    if (!(span > 0.0))
        return 0;
    const hy_kin_coeffs *c = kin_law(m, s);
    double lam = m->lambda[s < 0 ? 1 : 0];
    if (c->m > 2) {
        /* dR/df depends on f: take the local rate at the start too */
        double r = 0.0;
        for (int i = c->k - 1; i >= 0; i--) {
            double p = 0.0;
            for (int j = c->m - 1; j >= 1; j--)
                p = p * f0 + j * c->C[i][j];
            r = r * q0 + p;
        }
        if (fabs(r) > lam)
            lam = fabs(r);
    }
    double h = m->h_cap;
    if (lam > 0.0 && HY_KIN_SUBSTEP_FRAC / lam < h)
        h = HY_KIN_SUBSTEP_FRAC / lam;
    double n = ceil(span / h);
    if (!(n <= HY_KIN_SUBSTEP_MAX))
        n = HY_KIN_SUBSTEP_MAX;
    return (int)n;
}

// (model, s, q0, f0, q1) => f(q1) with the sub-step rule
double hy_kin_integrate(const hy_kin_model *m, int s, double q0, double f0, double q1)
{
    return hy_kin_integrate_n(m, s, q0, f0, q1, hy_kin_substeps(m, s, q0, f0, q1));
}

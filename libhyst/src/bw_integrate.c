/* Bouc-Wen law integrated in the q-domain (docs/bw-model.md §Integration).
 *
 * Along a monotone move of direction s the reflected variables y = s z, p = s (q - q0) >= 0 obey one law for
 * both directions:  dy/dp = h(y, e) [A(e) - nu(e) |y|^n (gamma + beta sgn y)] / eta(e),  de/dp = (1 - alpha) k y,
 * with Foliente's pinching function h >= 1 - zeta_s > 0 (h = 1 without pinching). For y < 0 the slope is
 * >= (1 - zeta_s) A(e)/eta(e) > 0, so y crosses 0 at most once per move and never goes back below.
 *
 * - n = 1 without degradation: the law is linear in each sign region, so it is solved exactly (exponentials):
 *   no step-size error at all, and the cost of one expm1 per trial (e is not tracked: nothing reads it).
 * - otherwise (n != 1, degradation or pinching): classic RK4 with sub-steps h = HY_BW_SUBSTEP_FRAC z_u / (n A)
 *   (a fraction of the attraction length 1 / |d(dy/dp)/dy| on the plateau; with pinching at most
 *   2 HY_BW_SUBSTEP_FRAC psi lambda, the pinched region's narrowest width), the crossing of y = 0 (where the slope
 *   has a kink for n = 1) located by Newton on the RK4 step length so that every step sees a smooth right-hand
 *   side and RK4 keeps its order. */
#include <math.h>
#include "bw_internal.h"

static inline double powabs(const hy_bw_model *m, double y)
{
    double a = fabs(y);
    switch (m->n_int) {
    case 1: return a;
    case 2: return a * a;
    case 3: return a * a * a;
    case 4: { double b = a * a; return b * b; }
    default: return pow(a, m->p.n);
    }
}

// (model, y = z sgn(dq), e) => Foliente's pinching function h (docs/bw-model.md §Pinching; Foliente 1995):
// 1 - zeta_1 exp(-((y - pinch_q z_u(e)) / zeta_2)^2)
static double pinching(const hy_bw_model *m, double y, double e)
{
    const hy_bw_params *p = &m->p;
    double nu = 1.0 + p->delta_nu * e;
    double zu = m->n_int == 1 ? p->A / (nu * m->c1) : pow(p->A / (nu * m->c1), 1.0 / p->n);
    double z1 = p->zeta_s * -expm1(-p->pinch_p * e);
    double z2 = (p->psi + p->delta_psi * e) * (p->lambda + z1);
    double x = (y - p->pinch_q * zu) / z2;
    return 1.0 - z1 * exp(-x * x);
}

// (model, y, e) => dy/dp
static inline double rhs(const hy_bw_model *m, double y, double e)
{
    const hy_bw_params *p = &m->p;
    double A = p->A - p->delta_A * e, nu = 1.0 + p->delta_nu * e, eta = 1.0 + p->delta_eta * e;
    double r = (A - nu * powabs(m, y) * (p->gamma + (y >= 0 ? p->beta : -p->beta))) / eta;
    return m->pinch ? pinching(m, y, e) * r : r;
}

// (y, e, step h) => one RK4 step of (y, e)
static inline void rk4(const hy_bw_model *m, double *y, double *e, double h)
{
    double ck = m->ck, y0 = *y, e0 = *e;
    double k1 = rhs(m, y0, e0), l1 = ck * y0;
    double y2 = y0 + 0.5 * h * k1, e2 = e0 + 0.5 * h * l1;
    double k2 = rhs(m, y2, e2), l2 = ck * y2;
    double y3 = y0 + 0.5 * h * k2, e3 = e0 + 0.5 * h * l2;
    double k3 = rhs(m, y3, e3), l3 = ck * y3;
    double y4 = y0 + h * k3, e4 = e0 + h * l3;
    double k4 = rhs(m, y4, e4), l4 = ck * y4;
    *y = y0 + h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4);
    *e = e0 + h / 6.0 * (l1 + 2 * l2 + 2 * l3 + l4);
}

// (model, s, z0, e0, dq >= 0) => z, e at the end of the move and dz/dq there
int hy_bw_integrate(const hy_bw_model *m, int s, double z0, double e0, double dq, double *z1, double *e1,
                    double *dzdq)
{
    double y = s >= 0 ? z0 : -z0, e = e0;
    if (m->exact) {
        double d = hy_bw_exact(m, &y, dq > 0 ? dq : 0.0);
        if (!isfinite(y))
            return HY_ENUMERIC;
        *z1 = s >= 0 ? y : -y;
        *e1 = e;
        *dzdq = d;
        return HY_OK;
    }
    if (dq > 0) {
        {
            double n_steps = ceil(dq / m->h);
            if (n_steps > HY_BW_SUBSTEP_MAX)
                return HY_ERANGE;
            double h = dq / n_steps, rem = dq;
            while (rem > 0) {
                double step = rem < 1.5 * h ? rem : h;
                double yn = y, en = e;
                rk4(m, &yn, &en, step);
                if (y < 0 && yn > 0) {
                    /* locate y = 0 by Newton on the step length: g(hc) = y(hc), g' = dy/dp at y(hc) */
                    double hc = -y / rhs(m, y, e);
                    if (!(hc > 0 && hc <= step))
                        hc = 0.5 * step;
                    for (int it = 0; it < 6; it++) {
                        double yc = y, ec = e;
                        rk4(m, &yc, &ec, hc);
                        double d = rhs(m, yc, ec);
                        double nh = hc - yc / d;
                        if (!(nh > 0 && nh <= step))
                            break;
                        hc = nh;
                    }
                    double yc = y, ec = e;
                    rk4(m, &yc, &ec, hc);
                    y = 0.0;
                    e = ec;
                    rem -= hc;
                    continue;
                }
                y = yn;
                e = en;
                rem -= step;
            }
            if (m->p.A - m->p.delta_A * e <= 0)
                return HY_ERANGE;
        }
    }
    if (!isfinite(y) || !isfinite(e))
        return HY_ENUMERIC;
    *z1 = s >= 0 ? y : -y;
    *e1 = e;
    *dzdq = rhs(m, y, e);
    return HY_OK;
}

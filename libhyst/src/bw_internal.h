// Bouc-Wen model internals shared by bw_*.c (docs/bw-model.md).
#ifndef HY_BW_INTERNAL_H
#define HY_BW_INTERNAL_H

#include "hyst/bw.h"

struct hy_bw_model {
    hy_bw_params p;
    int    exact;      /* n == 1, no degradation, no pinching: closed-form exponential solution per region */
    int    pinch;      /* zeta_s > 0: Foliente's pinching function multiplies the rate                      */
    int    n_int;      /* n when it is a small integer (|z|^n by multiplication), else 0 (pow)            */
    double z_u;        /* (A / (beta + gamma))^(1/n)                                                       */
    double h;          /* RK4 sub-step in q: HY_BW_SUBSTEP_FRAC * z_u / (n A)                              */
    double ak;         /* alpha k                                                                           */
    double ck;         /* (1 - alpha) k                                                                     */
    double c1, c2;     /* beta + gamma, beta - gamma: the n = 1 rates for y >= 0 and y < 0                  */
    double y1, y2;     /* A / c1, A / c2 (0 when c2 = 0): the n = 1 asymptotes                              */
};

#include <math.h>

// (y0, dp) => exact solution for n = 1 without degradation, and dy/dp at the end. e (which only degradation
// reads) is not tracked here.
static inline double hy_bw_exact(const hy_bw_model *m, double *y, double dp)
{
    double y0 = *y, A = m->p.A;
    if (y0 < 0) {
        double c2 = m->c2;  /* y < 0: dy/dp = A - c2 y, c2 >= 0 */
        /* the whole move in this region first (one expm1); the crossing of y = 0 (a log1p) only when it ends
           above 0 */
        double y1 = c2 > 0 ? y0 + (y0 - m->y2) * (exp(-c2 * dp) - 1.0) : y0 + A * dp;
        if (y1 <= 0) {
            *y = y1;
            return A - c2 * y1;
        }
        dp -= c2 > 0 ? log1p(-y0 * c2 / A) / c2 : -y0 / A;  /* the rest after y = 0 */
        y0 = 0.0;
    }
    *y = y0 + (y0 - m->y1) * (exp(-m->c1 * dp) - 1.0);
    return A - m->c1 * *y;
}

// (model, fraction) => RK4 sub-step set to fraction * z_u / (n A); the fits iterate with a coarser step and
// replay the final model with the default one
void hy_bw_model_set_substep_frac(hy_bw_model *m, double frac);

// (model, h > 0) => RK4 sub-step set to h in units of q, whatever the parameters: a fit that keeps h fixed sees
// a residual that is a smooth function of the parameters (the number of sub-steps of each sample never jumps),
// which its finite-difference Jacobian needs
void hy_bw_model_set_substep(hy_bw_model *m, double h);

#endif

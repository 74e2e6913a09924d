// Bouc-Wen model internals shared by bw_*.c (docs/bw-model.md).
#ifndef HY_BW_INTERNAL_H
#define HY_BW_INTERNAL_H

#include "hyst/bw.h"

struct hy_bw_model {
    hy_bw_params p;
    int    exact;      /* n == 1 and no degradation: closed-form exponential solution per region          */
    int    n_int;      /* n when it is a small integer (|z|^n by multiplication), else 0 (pow)            */
    double z_u;        /* (A / (beta + gamma))^(1/n)                                                       */
    double h;          /* RK4 sub-step in q: HY_BW_SUBSTEP_FRAC * z_u / (n A)                              */
    double ck;         /* (1 - alpha) k                                                                     */
    double c1, c2;     /* beta + gamma, beta - gamma: the n = 1 rates for y >= 0 and y < 0                  */
    double y1, y2;     /* A / c1, A / c2 (0 when c2 = 0): the n = 1 asymptotes                              */
};

// (model, fraction) => RK4 sub-step set to fraction * z_u / (n A); the fits iterate with a coarser step and
// replay the final model with the default one
void hy_bw_model_set_substep_frac(hy_bw_model *m, double frac);

#endif

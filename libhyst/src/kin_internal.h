/* Private layout of the compiled kinematic model (spec 002), shared by the kin_*.c files only. */
#ifndef HYST_KIN_INTERNAL_H
#define HYST_KIN_INTERNAL_H

#include "hyst/kin.h"

struct hy_kin_model {
    hy_kin_spec   spec;     /* as given (unused coefficients zeroed)                                        */
    hy_kin_coeffs law[2];   /* [0] loading law, [1] unloading law, both evaluated directly at (q, f)          */
    double        lambda[2];/* largest |dR/df| of each law on a q-grid over the range at f = 0                */
    double        h_cap;    /* largest sub-step regardless of the rate: (q_max - q_min) / 64                  */
};

// (coefficients, q, f) => polynomial value; Horner in f inside Horner in q, no allocation
static inline double kin_poly(const hy_kin_coeffs *c, double q, double f)
{
    double r = 0.0;
    for (int i = c->k - 1; i >= 0; i--) {
        const double *row = c->C[i];
        double p = row[c->m - 1];
        for (int j = c->m - 2; j >= 0; j--)
            p = p * f + row[j];
        r = r * q + p;
    }
    return r;
}

// (model, s) => the compiled law of direction s (s >= 0 counts as loading)
static inline const hy_kin_coeffs *kin_law(const hy_kin_model *m, int s)
{
    return &m->law[s < 0 ? 1 : 0];
}

#endif

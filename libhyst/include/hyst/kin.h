/* Kinematic hysteresis ODE (spec 002): df/dq = R(q, f) = sum_i sum_j C_ij q^(i-1) f^(j-1).
 *
 * CONTRACT (used by fitting, sim, replay, the pendulum damper): the coefficient and spec types and
 * hy_kin_model_new / hy_kin_R / hy_kin_model_free keep these signatures. The owner of this module adds the
 * element state, trial/commit/revert, integration and everything else below the marker. */
#ifndef HYST_KIN_H
#define HYST_KIN_H

#include <stddef.h>
#include "hyst/common.h"
#include "hyst/element.h"

#define HY_KIN_MAX 8   /* k, m <= 8 */

typedef enum hy_kin_rule {
    HY_KIN_SYMMETRIC = 0, /* unloading law R(-q, -f): central symmetry (spec 002 §1.4, recommended)        */
    HY_KIN_TWO_SET   = 1  /* independent loading and unloading coefficient sets                          */
} hy_kin_rule;

/* Coefficients: C[i][j] multiplies q^i f^j (0-based here; the paper's C_(i+1)(j+1)), i < k, j < m. */
typedef struct hy_kin_coeffs {
    int    k, m;
    double C[HY_KIN_MAX][HY_KIN_MAX];
} hy_kin_coeffs;

typedef struct hy_kin_spec {
    hy_kin_rule   rule;
    hy_kin_coeffs load;        /* loading law (dq/dt > 0)                                                   */
    hy_kin_coeffs unload;      /* unloading law (dq/dt < 0), used only with HY_KIN_TWO_SET                   */
    double        q_min, q_max;/* valid q-range stored with the coefficients                                 */
} hy_kin_spec;

typedef struct hy_kin_model hy_kin_model;   /* compiled, immutable */

// (spec) => compiled model; HY_EMODEL for k or m out of 1..8, non-finite coefficients, an empty range
int hy_kin_model_new(const hy_kin_spec *s, hy_kin_model **out, hy_err *err);

// (model) => the spec it was built from
const hy_kin_spec *hy_kin_model_spec(const hy_kin_model *m);

// (model, direction s = +1 loading / -1 unloading, q, f) => df/dq under the direction rule
double hy_kin_R(const hy_kin_model *m, int s, double q, double f);

// (model) => memory released
void hy_kin_model_free(hy_kin_model *m);

/* ---- below: owned by the kinematic model module ---- */

#endif

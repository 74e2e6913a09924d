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

/* Conventions of this module (docs/kin-model.md):
 * - Direction s: +1 loading (dq/dt > 0), -1 unloading (dq/dt < 0). Under HY_KIN_SYMMETRIC the unloading law is
 *   R(-q, -f) (spec 002 §1.4); under HY_KIN_TWO_SET it is the polynomial of spec.unload evaluated at (q, f).
 *   Both laws are compiled into plain polynomials, so evaluation costs the same in either direction.
 * - Range: the model is valid for q_min <= q <= q_max. The point functions (R, derivatives, integration)
 *   evaluate anywhere; the element refuses a trial outside the range with HY_ERANGE (it does not clamp: a clamped
 *   force would be silently wrong, spec 002 §3.3 "Required guard").
 * - q-domain integration: classic RK4 with n = ceil(|q1 - q0| / h) equal sub-steps, h = min(HY_KIN_SUBSTEP_FRAC /
 *   lambda, (q_max - q_min) / 64), where lambda is the largest attraction rate |dR/df| of the law over the range
 *   (exact for m <= 2; for m > 2 the local rate at the start point is also taken). */

#define HY_KIN_SUBSTEP_FRAC 0.05   /* sub-step = this fraction of the attraction length 1/lambda             */
#define HY_KIN_SUBSTEP_MAX  100000 /* hard cap on sub-steps per integration                                 */

// (paper set: full = 1 for the 12-term set of spec 002 §3.1, 0 for the reduced 8-term law (13)) => spec,
// symmetric rule, q-range [-0.52, 0.52] (the attracting range of §3.3)
void hy_kin_paper_spec(hy_kin_spec *s, int full);

// (coefficients, q, f) => sum_ij C[i][j] q^i f^j (Horner in f inside Horner in q; for fitting and tests)
double hy_kin_coeffs_eval(const hy_kin_coeffs *c, double q, double f);

// (model, s, q, f) => dR_s/df (the branch of direction s attracts where s * dR_s/df < 0, spec 002 §1.3)
double hy_kin_dRdf(const hy_kin_model *m, int s, double q, double f);

// (model, s, q, f) => dR_s/dq
double hy_kin_dRdq(const hy_kin_model *m, int s, double q, double f);

// (model, q) => 1 when q_min <= q <= q_max, else 0
int hy_kin_in_range(const hy_kin_model *m, double q);

// (model, q, f, qdot) => df/dt = R_s(q, f) * qdot with s = sgn(qdot) (spec 002 eq. 10 with the §1.4 rule)
double hy_kin_dfdt(const hy_kin_model *m, double q, double f, double qdot);

// (model, s, q0, f0, q1, n) => f(q1) by n classic RK4 steps of df/dq = R_s along q0 -> q1 (no range check)
double hy_kin_integrate_n(const hy_kin_model *m, int s, double q0, double f0, double q1, int n);

// (model, s, q0, f0, q1) => number of RK4 sub-steps the sub-step rule gives for q0 -> q1 (0 when q1 == q0)
int hy_kin_substeps(const hy_kin_model *m, int s, double q0, double f0, double q1);

// (model, s, q0, f0, q1) => f(q1) with the sub-step rule (no range check)
double hy_kin_integrate(const hy_kin_model *m, int s, double q0, double f0, double q1);

/* Element state (data), for callers that embed an element without allocating (the pendulum damper).
 * hy_kin_element_new (hyst/model.h) allocates one of these behind a hy_element. */
typedef struct hy_kin_state {
    const hy_kin_model *model;
    double q_c, f_c;   /* committed point                                                                     */
    int    dir_c;      /* committed direction: +1, -1, 0 (at rest, no motion yet)                             */
    double q_t, f_t;   /* last trial point                                                                    */
    double dfdq_t;     /* R_s at the trial point                                                              */
    int    dir_t;      /* direction of the last trial                                                        */
} hy_kin_state;

// (model, q0, f0) => state at rest at (q0, f0); HY_EMODEL when q0 is outside the range or a value is not finite
int hy_kin_state_init(hy_kin_state *st, const hy_kin_model *m, double q0, double f0, hy_err *err);

// (state) => a hy_element view of it (no allocation; destroy is a no-op for such views)
void hy_kin_element_wrap(hy_kin_state *st, hy_element *e);

#endif

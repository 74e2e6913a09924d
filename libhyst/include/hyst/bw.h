/* Bouc-Wen smooth hysteresis with the Baber-Noori degradation terms and Foliente's pinching function: the
 * Bouc-Wen-Baber-Noori (BWBN) model (docs/bw-model.md).
 *
 *   Q      = alpha k q + (1 - alpha) k z
 *   dz/dq  = h(z, e) [A(e) - nu(e) |z|^n (beta sgn(dq z) + gamma)] / eta(e)
 *   de/dq  = (1 - alpha) k z              (hysteretic energy, the degradation clock; OpenSees BoucWen)
 *   A(e) = A - delta_A e,  nu(e) = 1 + delta_nu e,  eta(e) = 1 + delta_eta e
 *   h(z, e) = 1 - zeta_1(e) exp(-(z sgn(dq) - pinch_q z_u(e))^2 / zeta_2(e)^2)      (Foliente 1995; h = 1 when
 *   zeta_1 = zeta_s (1 - exp(-pinch_p e)),  zeta_2 = (psi + delta_psi e)(lambda + zeta_1)   zeta_s = 0)
 *   z_u(e) = (A / (nu(e) (beta + gamma)))^(1/n)
 *
 * The law is rate-independent: the element integrates it in the q-domain from the committed point to the trial q
 * (exactly for n = 1 without degradation or pinching, by RK4 sub-steps otherwise; see bw_integrate.c). */
#ifndef HYST_BW_H
#define HYST_BW_H

#include "hyst/common.h"
#include "hyst/element.h"

typedef struct hy_bw_params {
    double k;          /* initial (elastic) stiffness, > 0                                                */
    double alpha;      /* post-yield to initial stiffness ratio, 0 <= alpha < 1                           */
    double A;          /* > 0                                                                             */
    double beta;       /* > 0                                                                             */
    double gamma;      /* -beta < gamma <= beta (loops dissipate, z stays bounded)                        */
    double n;          /* smoothness exponent, 1 <= n <= 20                                               */
    double delta_A, delta_nu, delta_eta;  /* Baber-Noori degradation rates, >= 0 (0: none), 1 / energy     */
    /* Foliente's pinching (all 0: none); energy = units of Q x units of q */
    double zeta_s;     /* pinching severity, 0 <= zeta_s < 1 (0: no pinching)                                */
    double pinch_p;    /* rate of the pinching's growth with energy, >= 0, 1 / energy                          */
    double pinch_q;    /* where the pinch sits, a fraction of z_u, 0 <= pinch_q < 1                            */
    double psi;        /* width of the pinched region, units of q, > 0 when zeta_s > 0                         */
    double delta_psi;  /* growth of the width with energy, >= 0, units of q / energy                           */
    double lambda;     /* coupling of the width to the severity, > 0 when zeta_s > 0                           */
} hy_bw_params;

#define HY_BW_N_MIN 1.0
#define HY_BW_N_MAX 20.0
#define HY_BW_SUBSTEP_FRAC 0.005   /* RK4 sub-step = this fraction of the yield length z_u / (n A)        */
#define HY_BW_SUBSTEP_MAX  1000000 /* cap on sub-steps per trial                                          */

typedef struct hy_bw_model hy_bw_model;  /* compiled, immutable */

// (params) => NULL when valid, else the name of the first key outside its range and the range in *why
const char *hy_bw_params_check(const hy_bw_params *p, const char **why);

// (params) => compiled model; HY_EMODEL naming the key for a parameter outside its range
int hy_bw_model_new(const hy_bw_params *p, hy_bw_model **out, hy_err *err);

// (model) => its parameters
const hy_bw_params *hy_bw_model_params(const hy_bw_model *m);

// (model) => ultimate z: (A / (beta + gamma))^(1/n) (the plateau of z without degradation)
double hy_bw_z_ultimate(const hy_bw_model *m);

/* Element state (data): z, e at the committed q and the last trial. */
typedef struct hy_bw_state {
    const hy_bw_model *model;
    double q_c, z_c, e_c;
    double q_t, z_t, e_t, dzdq_t;
    int    dir_c, dir_t;
} hy_bw_state;

// (model, q0) => state at rest at q0 with z = 0, e = 0
void hy_bw_state_init(hy_bw_state *st, const hy_bw_model *m, double q0);

// (model, s = +1/-1, z0, e0, dq = |q1 - q0| >= 0) => z, e at the end and dz/dq there (q-domain integration)
int hy_bw_integrate(const hy_bw_model *m, int s, double z0, double e0, double dq, double *z1, double *e1,
                    double *dzdq);

// (state) => hy_element view (no allocation)
void hy_bw_element_wrap(hy_bw_state *st, hy_element *e);
// (bw element) => dst: a new element of the same model with a copy of src's state (hy_element_copy calls it)
int hy_bw_element_copy(const hy_element *src, hy_element *dst, hy_err *err);

void hy_bw_model_free(hy_bw_model *m);

#endif

/* Iwan model: N Jenkins elements (spring k_i in series with a slider of slip force f_i) in parallel, plus an
 * optional linear spring k_inf (docs/iwan-model.md).
 *
 *   Q = k_inf q + sum_i k_i d_i,   d_i = q - x_i clipped to |d_i| <= phi_i = f_i / k_i
 *
 * The slip forces are given as a discrete list or by Segalman's four-parameter density (F_S, K_T, chi, beta)
 * discretised into N elements that keep the total stiffness and the full-slip force exactly. */
#ifndef HYST_IWAN_H
#define HYST_IWAN_H

#include "hyst/common.h"
#include "hyst/element.h"

#define HY_IWAN_MAX 1024  /* most Jenkins elements */

enum hy_iwan_form { HY_IWAN_DISCRETE = 0, HY_IWAN_SEGALMAN = 1 };

typedef struct hy_iwan_segalman {
    double F_S;   /* force at which the whole joint slips, > 0                                             */
    double K_T;   /* tangent stiffness at zero load (of the Jenkins elements), > 0                          */
    double chi;   /* power-law exponent of the density, -1 < chi <= 1                                       */
    double beta;  /* ratio of the delta at phi_max to the continuous part's stiffness, >= 0                 */
    int    N;     /* elements of the discretisation, 2..HY_IWAN_MAX                                          */
} hy_iwan_segalman;

typedef struct hy_iwan_model hy_iwan_model;  /* compiled, immutable */

// (n, k[n], f[n], k_inf) => model from discrete elements; HY_EMODEL naming elements[i] or k_inf when invalid
int hy_iwan_model_discrete(int n, const double *k, const double *f, double k_inf, hy_iwan_model **out,
                           hy_err *err);

// (Segalman parameters, k_inf) => discretised model; HY_EMODEL naming the key when invalid
int hy_iwan_model_segalman(const hy_iwan_segalman *s, double k_inf, hy_iwan_model **out, hy_err *err);

// (model) => form, element count, arrays, k_inf, Segalman parameters (NULL for the discrete form)
int                     hy_iwan_model_form(const hy_iwan_model *m);
int                     hy_iwan_model_n(const hy_iwan_model *m);
const double           *hy_iwan_model_k(const hy_iwan_model *m);
const double           *hy_iwan_model_f(const hy_iwan_model *m);
double                  hy_iwan_model_k_inf(const hy_iwan_model *m);
const hy_iwan_segalman *hy_iwan_model_segalman_params(const hy_iwan_model *m);

// (model, u >= 0) => virgin-loading backbone force k_inf u + sum k_i min(u, phi_i)
double hy_iwan_backbone(const hy_iwan_model *m, double u);

// (model, amplitude a >= 0) => energy dissipated per symmetric cycle between -a and a: sum 4 f_i (a - phi_i)^+
double hy_iwan_cycle_energy(const hy_iwan_model *m, double a);

// (Segalman parameters, u) => backbone of the continuous density (no discretisation), for u >= 0
double hy_iwan_segalman_backbone(const hy_iwan_segalman *s, double u);

// (Segalman parameters, a) => energy per cycle of the continuous density, a <= phi_max: 4 R a^(chi+3)/((chi+2)(chi+3))
double hy_iwan_segalman_energy(const hy_iwan_segalman *s, double a);

// (model) => a new element at rest at the origin (allocates its state: 2 arrays of n doubles)
int hy_iwan_element_new(const hy_iwan_model *m, hy_element *e, hy_err *err);

// (iwan element) => dst: a new element of the same model with a copy of src's state (hy_element_copy calls it)
int hy_iwan_element_copy(const hy_element *src, hy_element *dst, hy_err *err);

void hy_iwan_model_free(hy_iwan_model *m);

#endif

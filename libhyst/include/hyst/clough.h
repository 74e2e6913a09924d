/* Peak-oriented (modified Clough) model with pinching (docs/clough-model.md): a multilinear law of the kind
 * structural engineers use for degrading, pinching connections (Clough & Johnston 1966; Mahin & Bertero 1976's
 * modification; the pinched reloading of Ibarra, Medina & Krawinkler 2005 with one pinch factor). Rate-independent.
 *
 *   backbone (symmetric, bilinear):  B(u) = k u for |u| <= u_y = F_y / k, else sign(u) (F_y + alpha k (|u| - u_y))
 *   unloading:                       slope k from the last reversal
 *   reloading (toward + side):       from the zero-force point x_0 to the pinch point P = (u_m - (1 - kappa) F_m / k,
 *                                    kappa F_m), then with slope k to the largest excursion (u_m, F_m = B(u_m)) on that
 *                                    side (u_m = u_y before any yielding), then on the backbone; mirrored for the - side
 *
 * kappa = 1 is Clough's peak-oriented law (no pinching); smaller kappa pinches the reloading branch. The reloading
 * stiffness falls as the peaks grow (stiffness degradation); a symmetric steady cycle of amplitude a > u_y
 * dissipates 2 kappa F_m (a - F_m / k). */
#ifndef HYST_CLOUGH_H
#define HYST_CLOUGH_H

#include "hyst/common.h"
#include "hyst/element.h"

typedef struct hy_clough_params {
    double k;      /* elastic (and unloading) stiffness, > 0                           [Q / q]                    */
    double F_y;    /* yield force, > 0                                                  [Q]                        */
    double alpha;  /* post-yield stiffness ratio, 0 <= alpha < 1                        [-]                        */
    double kappa;  /* pinching: force at the pinch point / force at the peak, 0 < kappa <= 1 (1: no pinching) [-]  */
} hy_clough_params;

typedef struct hy_clough_model hy_clough_model; /* compiled, immutable */

// (parameters) => model; HY_EMODEL naming the parameter, its value and range when invalid
int hy_clough_model_new(const hy_clough_params *p, hy_clough_model **out, hy_err *err);

// (model) => its parameters
const hy_clough_params *hy_clough_model_params(const hy_clough_model *m);

// (model, u) => backbone force B(u) (odd in u)
double hy_clough_backbone(const hy_clough_model *m, double u);

// (model, amplitude a) => energy dissipated by a steady symmetric cycle between -a and a: 2 kappa B(a) (a - B(a)/k)
// for a > u_y, 0 otherwise
double hy_clough_cycle_energy(const hy_clough_model *m, double a);

// (model) => a new element at rest at the origin (no allocation but the state)
int hy_clough_element_new(const hy_clough_model *m, hy_element *e, hy_err *err);

// (clough element) => dst: a new element of the same model with a copy of src's state (hy_element_copy calls it)
int hy_clough_element_copy(const hy_element *src, hy_element *dst, hy_err *err);

void hy_clough_model_free(hy_clough_model *m);

#endif

/* Peak-oriented (modified Clough) model: parameters, their ranges and the closed forms (hyst/clough.h,
 * docs/clough-model.md). */
#include <math.h>
#include <stdlib.h>
#include "hyst/clough.h"

struct hy_clough_model {
    hy_clough_params p;
};

// (parameters) => model
int hy_clough_model_new(const hy_clough_params *p, hy_clough_model **out, hy_err *err)
{
    *out = NULL;
    if (!(isfinite(p->k) && p->k > 0))
        return hy_err_set(err, HY_EMODEL, "k = %.10g is outside its range (a finite number > 0)", p->k);
    if (!(isfinite(p->F_y) && p->F_y > 0))
        return hy_err_set(err, HY_EMODEL, "F_y = %.10g is outside its range (a finite number > 0)", p->F_y);
    if (!(p->alpha >= 0 && p->alpha < 1))
        return hy_err_set(err, HY_EMODEL, "alpha = %.10g is outside its range (0 <= alpha < 1)", p->alpha);
    if (!(p->kappa > 0 && p->kappa <= 1))
        return hy_err_set(err, HY_EMODEL, "kappa = %.10g is outside its range (0 < kappa <= 1)", p->kappa);
    hy_clough_model *m = malloc(sizeof *m);
    if (!m)
        return hy_err_set(err, HY_ENOMEM, "clough model: out of memory");
    m->p = *p;
    *out = m;
    return HY_OK;
}

const hy_clough_params *hy_clough_model_params(const hy_clough_model *m) { return &m->p; }

// (model, u) => B(u)
double hy_clough_backbone(const hy_clough_model *m, double u)
{
    const hy_clough_params *p = &m->p;
    double a = fabs(u), uy = p->F_y / p->k;
    double F = a <= uy ? p->k * a : p->F_y + p->alpha * p->k * (a - uy);
    return u < 0 ? -F : F;
}

// (model, a) => energy of a steady symmetric cycle: the loop is the parallelogram (a, F_m), (a - F_m/k, 0),
// (-a, -F_m), (-a + F_m/k, 0), area 2 F_m (a - F_m/k), less the two triangles the pinch points cut off,
// (1 - kappa) F_m (a - F_m/k) each
double hy_clough_cycle_energy(const hy_clough_model *m, double a)
{
    a = fabs(a);
    if (a <= m->p.F_y / m->p.k)
        return 0.0;
    double Fm = hy_clough_backbone(m, a);
    return 2.0 * m->p.kappa * Fm * (a - Fm / m->p.k);
}

void hy_clough_model_free(hy_clough_model *m) { free(m); }

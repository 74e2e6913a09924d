/* Bouc-Wen model: parameter ranges and compilation (docs/bw-model.md §Validity). */
#include <math.h>
#include <stdlib.h>
#include "bw_internal.h"

// (params) => NULL when valid, else the first key outside its range and the valid range in *why
const char *hy_bw_params_check(const hy_bw_params *p, const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    if (!(isfinite(p->k) && p->k > 0))
        return *why = "a finite number > 0", "k";
    if (!(p->alpha >= 0 && p->alpha < 1))
        return *why = "0 <= alpha < 1", "alpha";
    if (!(isfinite(p->A) && p->A > 0))
        return *why = "a finite number > 0", "A";
    if (!(isfinite(p->beta) && p->beta > 0))
        return *why = "a finite number > 0", "beta";
    /* beta + gamma > 0 bounds z on loading; gamma <= beta keeps unloading from z's plateau softening-free and
       every closed loop dissipative (Bouc-Wen thermodynamic admissibility) */
    if (!(isfinite(p->gamma) && p->gamma > -p->beta && p->gamma <= p->beta))
        return *why = "-beta < gamma <= beta", "gamma";
    if (!(p->n >= HY_BW_N_MIN && p->n <= HY_BW_N_MAX))
        return *why = "1 <= n <= 20", "n";
    if (!(isfinite(p->delta_A) && p->delta_A >= 0))
        return *why = "a finite number >= 0", "delta_A";
    if (!(isfinite(p->delta_nu) && p->delta_nu >= 0))
        return *why = "a finite number >= 0", "delta_nu";
    if (!(isfinite(p->delta_eta) && p->delta_eta >= 0))
        return *why = "a finite number >= 0", "delta_eta";
    return NULL;
}

// (params) => compiled model
int hy_bw_model_new(const hy_bw_params *p, hy_bw_model **out, hy_err *err)
{
    *out = NULL;
    const char *why, *key = hy_bw_params_check(p, &why);
    if (key) {
        double v = key[0] == 'k' ? p->k : key[0] == 'a' ? p->alpha : key[0] == 'A' ? p->A
                 : key[0] == 'b' ? p->beta : key[0] == 'g' ? p->gamma : key[0] == 'n' ? p->n
                 : key[6] == 'A' ? p->delta_A : key[6] == 'n' ? p->delta_nu : p->delta_eta;
        return hy_err_set(err, HY_EMODEL, "%s = %.10g is outside its range (%s)", key, v, why);
    }
    hy_bw_model *m = calloc(1, sizeof *m);
    if (!m)
        return hy_err_set(err, HY_ENOMEM, "Bouc-Wen model: out of memory");
    m->p = *p;
    m->exact = p->n == 1.0 && p->delta_A == 0 && p->delta_nu == 0 && p->delta_eta == 0;
    m->n_int = (p->n == floor(p->n) && p->n <= 8) ? (int)p->n : 0;
    m->z_u = pow(p->A / (p->beta + p->gamma), 1.0 / p->n);
    m->h = HY_BW_SUBSTEP_FRAC * m->z_u / (p->n * p->A);
    m->ak = p->alpha * p->k;
    m->ck = (1.0 - p->alpha) * p->k;
    m->c1 = p->beta + p->gamma;
    m->c2 = p->beta - p->gamma;
    m->y1 = p->A / m->c1;
    m->y2 = m->c2 > 0 ? p->A / m->c2 : 0.0;
    *out = m;
    return HY_OK;
}

const hy_bw_params *hy_bw_model_params(const hy_bw_model *m) { return &m->p; }
double hy_bw_z_ultimate(const hy_bw_model *m) { return m->z_u; }
void hy_bw_model_free(hy_bw_model *m) { free(m); }

// (model, fraction) => sub-step changed (only the fits call it, on models they own)
void hy_bw_model_set_substep_frac(hy_bw_model *m, double frac)
{
    m->h = frac * m->z_u / (m->p.n * m->p.A);
}

/* Bouc-Wen model: parameter ranges and compilation (docs/bw-model.md §Validity). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
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
    /* Foliente's pinching (docs/bw-model.md §Pinching): h >= 1 - zeta_s > 0 keeps z monotone in q on loading */
    if (!(p->zeta_s >= 0 && p->zeta_s < 1))
        return *why = "0 <= zeta_s < 1", "zeta_s";
    if (!(isfinite(p->pinch_p) && p->pinch_p >= 0))
        return *why = "a finite number >= 0", "pinch_p";
    if (!(p->pinch_q >= 0 && p->pinch_q < 1))
        return *why = "0 <= pinch_q < 1", "pinch_q";
    if (!(isfinite(p->psi) && (p->zeta_s == 0 ? p->psi >= 0 : p->psi > 0)))
        return *why = "a finite number > 0 (>= 0 without pinching)", "psi";
    if (!(isfinite(p->delta_psi) && p->delta_psi >= 0))
        return *why = "a finite number >= 0", "delta_psi";
    if (!(isfinite(p->lambda) && (p->zeta_s == 0 ? p->lambda >= 0 : p->lambda > 0)))
        return *why = "a finite number > 0 (>= 0 without pinching)", "lambda";
    return NULL;
}

// (params, key) => the value of the key (for the range message)
static double param_value(const hy_bw_params *p, const char *key)
{
    static const struct { const char *key; size_t off; } map[] = {
        {"k", offsetof(hy_bw_params, k)}, {"alpha", offsetof(hy_bw_params, alpha)}, {"A", offsetof(hy_bw_params, A)},
        {"beta", offsetof(hy_bw_params, beta)}, {"gamma", offsetof(hy_bw_params, gamma)},
        {"n", offsetof(hy_bw_params, n)}, {"delta_A", offsetof(hy_bw_params, delta_A)},
        {"delta_nu", offsetof(hy_bw_params, delta_nu)}, {"delta_eta", offsetof(hy_bw_params, delta_eta)},
        {"zeta_s", offsetof(hy_bw_params, zeta_s)}, {"pinch_p", offsetof(hy_bw_params, pinch_p)},
        {"pinch_q", offsetof(hy_bw_params, pinch_q)}, {"psi", offsetof(hy_bw_params, psi)},
        {"delta_psi", offsetof(hy_bw_params, delta_psi)}, {"lambda", offsetof(hy_bw_params, lambda)},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i].key, key) == 0)
            return *(const double *)((const char *)p + map[i].off);
    return NAN;
}

// (params) => compiled model
int hy_bw_model_new(const hy_bw_params *p, hy_bw_model **out, hy_err *err)
{
    *out = NULL;
    const char *why, *key = hy_bw_params_check(p, &why);
    if (key) {
        double v = param_value(p, key);
        return hy_err_set(err, HY_EMODEL, "%s = %.10g is outside its range (%s)", key, v, why);
    }
    hy_bw_model *m = calloc(1, sizeof *m);
    if (!m)
        return hy_err_set(err, HY_ENOMEM, "Bouc-Wen model: out of memory");
    m->p = *p;
    m->pinch = p->zeta_s > 0;
    m->exact = p->n == 1.0 && p->delta_A == 0 && p->delta_nu == 0 && p->delta_eta == 0 && !m->pinch;
    m->n_int = (p->n == floor(p->n) && p->n <= 8) ? (int)p->n : 0;
    m->z_u = pow(p->A / (p->beta + p->gamma), 1.0 / p->n);
    hy_bw_model_set_substep_frac(m, HY_BW_SUBSTEP_FRAC);
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
    /* pinching: the pinched region is a Gaussian of width zeta_2 >= psi lambda; the sub-step resolves it too */
    if (m->pinch && 2 * frac * m->p.psi * m->p.lambda < m->h)
        m->h = 2 * frac * m->p.psi * m->p.lambda;
}

// (model, h) => sub-step fixed in units of q (the BWBN fit: docs/fit-families.md)
void hy_bw_model_set_substep(hy_bw_model *m, double h)
{
    m->h = h;
}

/* Iwan model: compilation from discrete elements or Segalman's four-parameter density, and its closed forms
 * (backbone, energy per symmetric cycle) used by the tests and the fit's initial guess (docs/iwan-model.md). */
#include <math.h>
#include <stdlib.h>
#include "iwan_internal.h"

static int alloc_model(int n, hy_iwan_model **out, hy_err *err)
{
    hy_iwan_model *m = calloc(1, sizeof *m);
    double *buf = m ? malloc(3 * (size_t)n * sizeof *buf) : NULL;
    if (!buf) {
        free(m);
        return hy_err_set(err, HY_ENOMEM, "Iwan model: out of memory");
    }
    m->n = n;
    m->k = buf;
    m->f = buf + n;
    m->phi = buf + 2 * n;
    *out = m;
    return HY_OK;
}

// (n, k[n], f[n], k_inf) => model from discrete elements
int hy_iwan_model_discrete(int n, const double *k, const double *f, double k_inf, hy_iwan_model **out,
                           hy_err *err)
{
    *out = NULL;
    if (n < 1 || n > HY_IWAN_MAX)
        return hy_err_set(err, HY_EMODEL, "elements: %d elements; expected 1..%d", n, HY_IWAN_MAX);
    if (!(isfinite(k_inf) && k_inf >= 0))
        return hy_err_set(err, HY_EMODEL, "k_inf = %.10g is outside its range (a finite number >= 0)", k_inf);
    for (int i = 0; i < n; i++) {
        if (!(isfinite(k[i]) && k[i] > 0))
            return hy_err_set(err, HY_EMODEL, "elements[%d]: stiffness %.10g is outside its range (a finite "
                              "number > 0)", i, k[i]);
        if (!(isfinite(f[i]) && f[i] > 0))
            return hy_err_set(err, HY_EMODEL, "elements[%d]: slip force %.10g is outside its range (a finite "
                              "number > 0)", i, f[i]);
    }
    int rc = alloc_model(n, out, err);
    if (rc)
        return rc;
    hy_iwan_model *m = *out;
    m->form = HY_IWAN_DISCRETE;
    m->k_inf = k_inf;
    for (int i = 0; i < n; i++) {
        m->k[i] = k[i];
        m->f[i] = f[i];
        m->phi[i] = f[i] / k[i];
    }
    return HY_OK;
}

/* Segalman (2005) density rho(phi) = R phi^chi on (0, phi_max) + S delta(phi - phi_max):
 *   K_T = R phi_max^(chi+1)/(chi+1) + S,  F_S = R phi_max^(chi+2)/(chi+2) + S phi_max,  beta = S / (K_T - S). */
static void seg_derived(const hy_iwan_segalman *s, double *phi_max, double *R, double *S)
{
    double c1 = s->chi + 1, c2 = s->chi + 2;
    *phi_max = s->F_S * (1 + s->beta) / (s->K_T * (c1 / c2 + s->beta));
    double Mc = s->K_T / (1 + s->beta);  /* stiffness of the continuous part */
    *R = Mc * c1 / pow(*phi_max, c1);
    *S = s->beta * Mc;
}

// (Segalman parameters, k_inf) => discretised model
int hy_iwan_model_segalman(const hy_iwan_segalman *s, double k_inf, hy_iwan_model **out, hy_err *err)
{
    *out = NULL;
    if (!(isfinite(s->F_S) && s->F_S > 0))
        return hy_err_set(err, HY_EMODEL, "segalman.F_S = %.10g is outside its range (a finite number > 0)", s->F_S);
    if (!(isfinite(s->K_T) && s->K_T > 0))
        return hy_err_set(err, HY_EMODEL, "segalman.K_T = %.10g is outside its range (a finite number > 0)", s->K_T);
    if (!(s->chi > -1 && s->chi <= 1))
        return hy_err_set(err, HY_EMODEL, "segalman.chi = %.10g is outside its range (-1 < chi <= 1)", s->chi);
    if (!(isfinite(s->beta) && s->beta >= 0))
        return hy_err_set(err, HY_EMODEL, "segalman.beta = %.10g is outside its range (a finite number >= 0)",
                          s->beta);
    if (s->N < 2 || s->N > HY_IWAN_MAX)
        return hy_err_set(err, HY_EMODEL, "segalman.N = %d is outside its range (2..%d)", s->N, HY_IWAN_MAX);
    if (!(isfinite(k_inf) && k_inf >= 0))
        return hy_err_set(err, HY_EMODEL, "k_inf = %.10g is outside its range (a finite number >= 0)", k_inf);
    double phi_max, R, S;
    seg_derived(s, &phi_max, &R, &S);
    int rc = alloc_model(s->N, out, err);
    if (rc)
        return rc;
    hy_iwan_model *m = *out;
    m->form = HY_IWAN_SEGALMAN;
    m->seg = *s;
    m->k_inf = k_inf;
    /* Nc equal-stiffness intervals of the continuous part (ends phi_j = phi_max (j/Nc)^(1/(chi+1))); each element
       sits at its interval's stiffness-weighted mean slip deflection, so the element keeps the interval's
       stiffness and its full-slip force exactly. The delta at phi_max, when beta > 0, is the last element. */
    int Nc = S > 0 ? s->N - 1 : s->N;
    double c1 = s->chi + 1, c2 = s->chi + 2, Mc = R * pow(phi_max, c1) / c1;
    double prev = 0.0;
    for (int j = 0; j < Nc; j++) {
        double next = phi_max * pow((double)(j + 1) / Nc, 1.0 / c1);
        double mass = Mc / Nc;
        double moment = R / c2 * (pow(next, c2) - pow(prev, c2));  /* integral of phi rho(phi) */
        m->k[j] = mass;
        m->f[j] = moment;
        m->phi[j] = moment / mass;
        prev = next;
    }
    if (S > 0) {
        m->k[Nc] = S;
        m->f[Nc] = S * phi_max;
        m->phi[Nc] = phi_max;
    }
    return HY_OK;
}

int hy_iwan_model_form(const hy_iwan_model *m) { return m->form; }
int hy_iwan_model_n(const hy_iwan_model *m) { return m->n; }
const double *hy_iwan_model_k(const hy_iwan_model *m) { return m->k; }
const double *hy_iwan_model_f(const hy_iwan_model *m) { return m->f; }
double hy_iwan_model_k_inf(const hy_iwan_model *m) { return m->k_inf; }
const hy_iwan_segalman *hy_iwan_model_segalman_params(const hy_iwan_model *m)
{
    return m->form == HY_IWAN_SEGALMAN ? &m->seg : NULL;
}

// (model, u >= 0) => virgin backbone
double hy_iwan_backbone(const hy_iwan_model *m, double u)
{
    double F = m->k_inf * u;
    for (int i = 0; i < m->n; i++)
        F += m->k[i] * fmin(u, m->phi[i]);
    return F;
}

// (model, a) => energy per symmetric cycle: each slipping Jenkins element traces a parallelogram of area
// 4 f_i (a - phi_i)
double hy_iwan_cycle_energy(const hy_iwan_model *m, double a)
{
    double D = 0;
    for (int i = 0; i < m->n; i++)
        if (a > m->phi[i])
            D += 4 * m->f[i] * (a - m->phi[i]);
    return D;
}

// (Segalman parameters, u >= 0) => continuous backbone (no k_inf)
double hy_iwan_segalman_backbone(const hy_iwan_segalman *s, double u)
{
    double phi_max, R, S;
    seg_derived(s, &phi_max, &R, &S);
    if (u >= phi_max)
        return s->F_S;
    double c1 = s->chi + 1, c2 = s->chi + 2;
    return R * pow(u, c2) / c2 + u * (R * (pow(phi_max, c1) - pow(u, c1)) / c1 + S);
}

// (Segalman parameters, a <= phi_max) => continuous energy per cycle
double hy_iwan_segalman_energy(const hy_iwan_segalman *s, double a)
{
    double phi_max, R, S;
    seg_derived(s, &phi_max, &R, &S);
    (void)S;
    return 4 * R * pow(a, s->chi + 3) / ((s->chi + 2) * (s->chi + 3));
}

void hy_iwan_model_free(hy_iwan_model *m)
{
    if (!m)
        return;
    free(m->k);
    free(m);
}

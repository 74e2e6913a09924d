// Kinematic hysteresis ODE (spec 002): compiled model, R(q, f) under the direction rule and its derivatives.
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "kin_internal.h"

// (coefficients, name) => HY_OK or HY_EMODEL naming the bad size or value
static int check_coeffs(const hy_kin_coeffs *c, const char *which, hy_err *err)
{
    if (c->k < 1 || c->k > HY_KIN_MAX || c->m < 1 || c->m > HY_KIN_MAX)
        return hy_err_set(err, HY_EMODEL, "%s coefficients: k = %d, m = %d: both must be 1..%d (spec 002 eq. 1)",
                          which, c->k, c->m, HY_KIN_MAX);
    for (int i = 0; i < c->k; i++)
        for (int j = 0; j < c->m; j++)
            if (!isfinite(c->C[i][j]))
                return hy_err_set(err, HY_EMODEL, "%s coefficients: C[%d][%d] is not a finite number", which, i, j);
    return HY_OK;
}

// (coefficients) => copy with the entries beyond k x m zeroed
static void copy_used(hy_kin_coeffs *dst, const hy_kin_coeffs *src)
{
    memset(dst, 0, sizeof *dst);
    dst->k = src->k;
    dst->m = src->m;
    for (int i = 0; i < src->k; i++)
        for (int j = 0; j < src->m; j++)
            dst->C[i][j] = src->C[i][j];
}

// (coefficients, q, f) => dR/df by Horner
static double poly_df(const hy_kin_coeffs *c, double q, double f)
{
    double r = 0.0;
    for (int i = c->k - 1; i >= 0; i--) {
        double p = 0.0;
        for (int j = c->m - 1; j >= 1; j--)
            p = p * f + j * c->C[i][j];
        r = r * q + p;
    }
    return r;
}

// (coefficients, q, f) => dR/dq by Horner
static double poly_dq(const hy_kin_coeffs *c, double q, double f)
{
    double r = 0.0;
    for (int i = c->k - 1; i >= 1; i--) {
        double p = 0.0;
        for (int j = c->m - 1; j >= 0; j--)
            p = p * f + c->C[i][j];
        r = r * q + i * p;
    }
    return r;
}

// (spec) => compiled model
int hy_kin_model_new(const hy_kin_spec *s, hy_kin_model **out, hy_err *err)
{
    *out = NULL;
    if (!s)
        return hy_err_set(err, HY_EARG, "kinematic model: no spec given");
    if (s->rule != HY_KIN_SYMMETRIC && s->rule != HY_KIN_TWO_SET)
        return hy_err_set(err, HY_EMODEL, "kinematic model: unknown direction rule %d", (int)s->rule);
    int rc = check_coeffs(&s->load, s->rule == HY_KIN_TWO_SET ? "loading" : "the", err);
    if (rc == HY_OK && s->rule == HY_KIN_TWO_SET)
        rc = check_coeffs(&s->unload, "unloading", err);
    if (rc != HY_OK)
        return rc;
    if (!isfinite(s->q_min) || !isfinite(s->q_max) || !(s->q_min < s->q_max))
        return hy_err_set(err, HY_EMODEL, "kinematic model: q-range [%g, %g] is empty or not finite", s->q_min,
                          s->q_max);
    hy_kin_model *m = calloc(1, sizeof *m);
    if (!m)
        return hy_err_set(err, HY_ENOMEM, "kinematic model: out of memory");
    m->spec.rule = s->rule;
    m->spec.q_min = s->q_min;
    m->spec.q_max = s->q_max;
    copy_used(&m->spec.load, &s->load);
    if (s->rule == HY_KIN_TWO_SET)
        copy_used(&m->spec.unload, &s->unload);
    m->law[0] = m->spec.load;
    if (s->rule == HY_KIN_TWO_SET) {
        m->law[1] = m->spec.unload;
    } else {
        /* R(-q, -f) = sum C_ij (-1)^(i+j) q^i f^j: the reflected law is a plain polynomial (spec 002 §1.4). */
        m->law[1] = m->spec.load;
        for (int i = 0; i < m->law[1].k; i++)
            for (int j = 0; j < m->law[1].m; j++)
                if ((i + j) & 1)
                    m->law[1].C[i][j] = -m->law[1].C[i][j];
    }
    /* Attraction rate scale for the sub-step rule: max |dR/df| over a q-grid at f = 0 (exact for m <= 2). */
    for (int d = 0; d < 2; d++) {
        double lam = 0.0;
        for (int g = 0; g <= 256; g++) {
            double q = s->q_min + (s->q_max - s->q_min) * g / 256.0;
            double r = fabs(poly_df(&m->law[d], q, 0.0));
            if (r > lam)
                lam = r;
        }
        m->lambda[d] = lam;
    }
    m->h_cap = (s->q_max - s->q_min) / 64.0;
    *out = m;
    return HY_OK;
}

// (model) => the spec it was built from
const hy_kin_spec *hy_kin_model_spec(const hy_kin_model *m)
{
    return &m->spec;
}

// (model, s, q, f) => df/dq under the direction rule
double hy_kin_R(const hy_kin_model *m, int s, double q, double f)
{
    return kin_poly(kin_law(m, s), q, f);
}

// (model, s, q, f) => dR_s/df
double hy_kin_dRdf(const hy_kin_model *m, int s, double q, double f)
{
    return poly_df(kin_law(m, s), q, f);
}

// (model, s, q, f) => dR_s/dq
double hy_kin_dRdq(const hy_kin_model *m, int s, double q, double f)
{
    return poly_dq(kin_law(m, s), q, f);
}

// (coefficients, q, f) => polynomial value
double hy_kin_coeffs_eval(const hy_kin_coeffs *c, double q, double f)
{
    return kin_poly(c, q, f);
}

// (model, q) => 1 inside the valid range
int hy_kin_in_range(const hy_kin_model *m, double q)
{
    return q >= m->spec.q_min && q <= m->spec.q_max;
}

// (model, q, f, qdot) => df/dt = R_s(q, f) qdot (spec 002 eq. 10, §1.4)
double hy_kin_dfdt(const hy_kin_model *m, double q, double f, double qdot)
{
    if (qdot == 0.0)
        return 0.0;
    return kin_poly(kin_law(m, qdot > 0 ? 1 : -1), q, f) * qdot;
}

// (model) => memory released
void hy_kin_model_free(hy_kin_model *m)
{
    free(m);
}

// (full or reduced) => the paper's coefficient set (spec 002 §3.1, §3.2)
void hy_kin_paper_spec(hy_kin_spec *s, int full)
{
    static const double c1[6] = {650.9, 1422.2, 10.027, 1.088, 0.103, 0.015};
    static const double c2[6] = {-23.9, -4.1, -2.0, -0.35, 143.2, 419.8};
    memset(s, 0, sizeof *s);
    s->rule = HY_KIN_SYMMETRIC;
    s->load.k = 6;
    s->load.m = 2;
    for (int i = 0; i < 6; i++) {
        /* the reduced law (13) drops C31..C61 (spec 002 §2.3 step 3) */
        s->load.C[i][0] = (full || i < 2) ? c1[i] : 0.0;
        s->load.C[i][1] = c2[i];
    }
    s->q_min = -0.52;
    s->q_max = 0.52;
}

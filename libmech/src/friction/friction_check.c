/* The small-friction check of spec 003 §2.6: the 2^nc coherent-orientation determinants
 * det[chi_1 K_1(chi_1) ... chi_nc K_nc(chi_nc)] must be non-zero with one sign (Kuhn & Löwen 1987: then K+ N+ +
 * K- N- = d has exactly one solution for every d). Each coefficient enters one column only, so every determinant
 * is multi-affine in (mu_1 .. mu_nc) and its sign over a box of coefficients is decided at the box vertices. */
#include <math.h>
#include <string.h>
#include <lapacke.h>
#include "friction/friction_internal.h"

// (ns x ns column-major matrix, overwritten) => its determinant (dgetrf)
static double det_lu(double *A, int n, int *ipiv)
{
    lapack_int info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, A, n, ipiv);
    if (info < 0)
        return NAN;
    double p = 1;
    for (int i = 0; i < n; i++)
        p *= A[(size_t)i * n + i] * (ipiv[i] != i + 1 ? -1 : 1);
    return p;
}

/* (orientation bits, signed friction of each column) => det[chi_c (Kn_c - mus_c Kt_c)] */
static double orient_det(const mech_friction_model *m, mech_friction_data *d, unsigned orient, const double *mus)
{
    int ns = m->ns;
    for (int c = 0; c < m->nc; c++) {
        int k = (orient >> c) & 1, chi = k ? -1 : 1;
        const double *kn = d->Kn + (size_t)(2 * c + k) * ns, *kt = d->Kt + (size_t)(2 * c + k) * ns;
        for (int i = 0; i < ns; i++)
            d->Kw[(size_t)c * ns + i] = chi * (kn[i] - mus[2 * c + k] * kt[i]);
    }
    return det_lu(d->Kw, ns, d->ipiv);
}

int mech_friction_check(const mech_friction_model *m, mech_friction_data *d, double scale, mech_friction_verdict *v,
                        hy_err *err)
{
    int nc = m->nc;
    memset(v, 0, sizeof *v);
    if (!fr_square(m))
        return hy_err_set(err, HY_EARG, "friction check: needs as many variant pairs as redundant coordinates");
    if (nc > 8)
        return hy_err_set(err, HY_EARG, "friction check: %d pairs (4^%d determinants) is beyond the limit of 8", nc,
                          nc);
    if (!(scale >= 0) || !isfinite(scale))
        return hy_err_set(err, HY_EARG, "friction check: the scale must be finite and >= 0");
    /* box of signed coefficients mu sigma per contact side: slipping [0, scale mu sigma], stuck [-scale mu, +] */
    double lo[2 * MECH_FRICTION_MAX_CONTACTS], hi[2 * MECH_FRICTION_MAX_CONTACTS], mus[2 * MECH_FRICTION_MAX_CONTACTS];
    for (int c = 0; c < nc; c++)
        for (int k = 0; k < 2; k++) {
            double v_ck = d->v[2 * c + k], mu = scale * m->c[c].mu[k];
            int sg = fabs(v_ck) > m->opt.eps_v ? (v_ck > 0 ? 1 : -1) : d->slip[c];
            lo[2 * c + k] = sg == 0 ? -mu : 0;
            hi[2 * c + k] = sg == 0 ? mu : sg * mu;
        }
    /* the frictionless reference scales the values */
    double ref = 0;
    memset(mus, 0, sizeof mus);
    for (unsigned o = 0; o < (1u << nc); o++)
        ref = fmax(ref, fabs(orient_det(m, d, o, mus)));
    if (!(ref > 0))
        ref = 1;
    double tiny = 1e-12;
    int npos = 0, nneg = 0, nzero = 0;
    double dmin = INFINITY, dmax = -INFINITY, amin = INFINITY;
    unsigned worst = 0, worst_vtx = 0, pos_o = 0, neg_o = 0, pos_v = 0, neg_v = 0;
    for (unsigned o = 0; o < (1u << nc); o++)
        for (unsigned vx = 0; vx < (1u << nc); vx++) {
            for (int c = 0; c < nc; c++) {
                int k = (o >> c) & 1;
                mus[2 * c + k] = (vx >> c) & 1 ? hi[2 * c + k] : lo[2 * c + k];
            }
            double x = orient_det(m, d, o, mus) / ref;
            if (isnan(x))
                return hy_err_set(err, HY_ENUMERIC, "friction check: dgetrf failed");
            dmin = fmin(dmin, x);
            dmax = fmax(dmax, x);
            if (fabs(x) < amin) {
                amin = fabs(x);
                worst = o, worst_vtx = vx;
            }
            if (x > tiny)
                npos++, pos_o = o, pos_v = vx;
            else if (x < -tiny)
                nneg++, neg_o = o, neg_v = vx;
            else
                nzero++;
        }
    v->det_min = dmin;
    v->det_max = dmax;
    v->small = nzero == 0 && (npos == 0 || nneg == 0);
    if (!nzero && npos && nneg) { /* the minority sign names the offending orientation */
        worst = npos < nneg ? pos_o : neg_o;
        worst_vtx = npos < nneg ? pos_v : neg_v;
    }
    v->worst = worst;
    for (int c = 0; c < nc; c++) {
        int k = (worst >> c) & 1;
        v->mu_worst[c] = (worst_vtx >> c) & 1 ? hi[2 * c + k] : lo[2 * c + k];
    }
    return HY_OK;
}

int mech_friction_mu_limit(const mech_friction_model *m, mech_friction_data *d, double hi, double *scale, hy_err *err)
{
    mech_friction_verdict v;
    int rc = mech_friction_check(m, d, 0, &v, err);
    if (rc != HY_OK)
        return rc;
    if (!v.small) {
        *scale = 0;
        return HY_OK;
    }
    if ((rc = mech_friction_check(m, d, hi, &v, err)) != HY_OK)
        return rc;
    if (v.small) {
        *scale = hi;
        return HY_OK;
    }
    /* the box grows with the scale, so the verdict is monotone: bisection */
    double a = 0, b = hi;
    for (int it = 0; it < 200 && b - a > 1e-10 * b; it++) {
        double x = 0.5 * (a + b);
        if ((rc = mech_friction_check(m, d, x, &v, err)) != HY_OK)
            return rc;
        if (v.small)
            a = x;
        else
            b = x;
    }
    *scale = a;
    return HY_OK;
}

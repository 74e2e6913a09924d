/* Linear least squares for fixed breakpoints: the inner problem of variable projection (see hyst/pwlfit.h).
 * Each straight piece contributes two rows built from the centred statistics of its samples, so the system has
 * a handful of rows whatever the record length; it is solved by QR through hyst/linalg.h (SVD when singular). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/linalg.h"
#include "hyst/pwlfit.h"

// (capacities) => workspace
int hy_pwlfit_lsq_init(hy_pwlfit_lsq *ls, int rows, int params, hy_err *err)
{
    memset(ls, 0, sizeof *ls);
    size_t mp = (size_t)(rows > params ? rows : params) * (size_t)params;   /* A2 also holds a p x p copy */
    ls->A = malloc(mp * sizeof *ls->A);
    ls->A2 = malloc(mp * sizeof *ls->A2);
    ls->r = malloc((size_t)rows * sizeof *ls->r);
    ls->r2 = malloc((size_t)(rows > params ? rows : params) * sizeof *ls->r2);
    ls->x = malloc((size_t)params * sizeof *ls->x);
    ls->H = malloc((size_t)params * (size_t)params * sizeof *ls->H);
    ls->g = malloc((size_t)params * sizeof *ls->g);
    ls->cap = rows;
    ls->pcap = params;
    if (!ls->A || !ls->A2 || !ls->r || !ls->r2 || !ls->x || !ls->H || !ls->g) {
        hy_pwlfit_lsq_free(ls);
        return hy_err_set(err, HY_ENOMEM, "piecewise-linear fit: out of memory");
    }
    return HY_OK;
}

void hy_pwlfit_lsq_free(hy_pwlfit_lsq *ls)
{
    free(ls->A);
    free(ls->A2);
    free(ls->r);
    free(ls->r2);
    free(ls->x);
    free(ls->H);
    free(ls->g);
    memset(ls, 0, sizeof *ls);
}

// (p) => empty system with p unknowns
void hy_pwlfit_lsq_reset(hy_pwlfit_lsq *ls, int p)
{
    ls->p = p;
    ls->m = 0;
    ls->base = 0.0;
    ls->rank_deficient = 0;
}

// (a, theta) => value of the affine form
double hy_pwlfit_aff_eval(const hy_pwlfit_aff *a, const double *theta)
{
    double v = a->c;
    for (int j = 0; j < a->n; j++)
        v += a->w[j] * theta[a->idx[j]];
    return v;
}

// (scale * (x + alpha * y)) => one row: coefficients into row[], constant returned
static double row_of(const hy_pwlfit_aff *x, const hy_pwlfit_aff *y, double alpha, double scale, double *row, int p)
{
    for (int j = 0; j < p; j++)
        row[j] = 0.0;
    if (x)
        for (int j = 0; j < x->n; j++)
            row[x->idx[j]] += scale * x->w[j];
    for (int j = 0; j < y->n; j++)
        row[y->idx[j]] += scale * alpha * y->w[j];
    return scale * ((x ? x->c : 0.0) + alpha * y->c);
}

static int row_is_zero(const double *row, int p)
{
    for (int j = 0; j < p; j++)
        if (row[j] != 0.0)
            return 0;
    return 1;
}

// (branch, [lo, hi), line t0 -> v0 + slope (u - t0)) => its two compressed rows (or their constant error)
void hy_pwlfit_lsq_piece(hy_pwlfit_lsq *ls, const hy_pwlfit_data *d, double lo, double hi, double t0,
                         const hy_pwlfit_aff *v0, const hy_pwlfit_aff *slope)
{
    size_t i0 = lo == -INFINITY ? 0 : hy_pwlfit_data_find(d, lo);
    size_t i1 = hi == INFINITY ? d->n : hy_pwlfit_data_find(d, hi);
    if (i1 <= i0)
        return;
    hy_pwlfit_stats s;
    hy_pwlfit_data_stats(d, i0, i1, &s);
    int p = ls->p;
    /* row 1: the mean, sqrt(n) (a + b (um - t0)) = sqrt(n) Pm */
    double *row = ls->A + (size_t)ls->m * (size_t)p;
    double sn = sqrt(s.n);
    double c = row_of(v0, slope, s.um - t0, sn, row, p);
    double rhs = sn * s.Pm - c;
    if (row_is_zero(row, p))
        ls->base += rhs * rhs;
    else
        ls->r[ls->m++] = rhs;
    /* row 2: the slope, sqrt(suu) b = suP / sqrt(suu); what no line can explain goes to the base */
    if (s.suu > 0.0) {
        double q = sqrt(s.suu);
        row = ls->A + (size_t)ls->m * (size_t)p;
        c = row_of(NULL, slope, 1.0, q, row, p);
        rhs = s.suP / q - c;
        if (row_is_zero(row, p))
            ls->base += rhs * rhs;
        else
            ls->r[ls->m++] = rhs;
        double rest = s.sPP - s.suP * s.suP / s.suu;
        ls->base += rest > 0 ? rest : 0.0;
    } else {
        ls->base += s.sPP;
    }
}

// (system) => solution in ls->x and the total squared error
double hy_pwlfit_lsq_solve(hy_pwlfit_lsq *ls)
{
    int m = ls->m, p = ls->p;
    if (p == 0) {
        double e = ls->base;
        for (int i = 0; i < m; i++)
            e += ls->r[i] * ls->r[i];
        return e;
    }
    size_t mp = (size_t)m * (size_t)p;
    int ok = 0;
    ls->rank_deficient = 0;
    if (m >= p) {
        memcpy(ls->A2, ls->A, mp * sizeof *ls->A);
        memcpy(ls->r2, ls->r, (size_t)m * sizeof *ls->r);
        int qr = hy_lstsq_qr(ls->A2, (size_t)m, (size_t)p, ls->r2, ls->x, NULL);
        ls->oom |= qr == HY_ENOMEM;
        if (qr == HY_OK) {
            /* dgels leaves R in the upper triangle: a tiny diagonal means (near) rank deficiency */
            double dmax = 0, dmin = INFINITY;
            for (int j = 0; j < p; j++) {
                double a = fabs(ls->A2[(size_t)j * (size_t)p + (size_t)j]);
                dmax = a > dmax ? a : dmax;
                dmin = a < dmin ? a : dmin;
            }
            ok = dmin > 1e-12 * dmax;
            for (int j = 0; ok && j < p; j++)
                ok = isfinite(ls->x[j]);
        }
    }
    if (!ok) {
        ls->rank_deficient = 1;
        memcpy(ls->A2, ls->A, mp * sizeof *ls->A);
        memcpy(ls->r2, ls->r, (size_t)m * sizeof *ls->r);
        for (int i = m; i < p; i++)
            ls->r2[i] = 0.0;
        int svd = hy_lstsq_svd(ls->A2, (size_t)m, (size_t)p, ls->r2, 1e-12, ls->x, NULL, NULL);
        ls->oom |= svd == HY_ENOMEM;
        if (svd != HY_OK)
            return NAN;
    }
    return hy_pwlfit_lsq_error(ls, ls->x);
}

// (system, x) => base + |A x - r|^2
double hy_pwlfit_lsq_error(const hy_pwlfit_lsq *ls, const double *x)
{
    int m = ls->m, p = ls->p;
    double e = ls->base;
    for (int i = 0; i < m; i++) {
        const double *row = ls->A + (size_t)i * (size_t)p;
        double a = -ls->r[i];
        for (int j = 0; j < p; j++)
            a += row[j] * x[j];
        e += a * a;
    }
    return e;
}

// (system) => normal equations and their Cholesky solution
double hy_pwlfit_lsq_solve_normal(hy_pwlfit_lsq *ls)
{
    int m = ls->m, p = ls->p;
    if (p == 0)
        return hy_pwlfit_lsq_error(ls, ls->x);
    for (int i = 0; i < p * p; i++)
        ls->H[i] = 0.0;
    for (int j = 0; j < p; j++)
        ls->g[j] = 0.0;
    int nz[HY_PWLFIT_MAX_PARAMS];
    for (int i = 0; i < m; i++) {   /* rows have at most a few non-zeros */
        const double *row = ls->A + (size_t)i * (size_t)p;
        int k = 0;
        for (int j = 0; j < p; j++)
            if (row[j] != 0.0)
                nz[k++] = j;
        for (int a = 0; a < k; a++) {
            double wa = row[nz[a]];
            ls->g[nz[a]] += wa * ls->r[i];
            for (int b = 0; b < k; b++)
                ls->H[nz[a] * p + nz[b]] += wa * row[nz[b]];
        }
    }
    double *Hc = ls->A2, *gc = ls->r2;   /* dposv overwrites its inputs */
    memcpy(Hc, ls->H, (size_t)p * (size_t)p * sizeof *Hc);
    memcpy(gc, ls->g, (size_t)p * sizeof *gc);
    ls->rank_deficient = 0;
    int chol = hy_solve_spd(Hc, (size_t)p, gc, ls->x, NULL);
    ls->oom |= chol == HY_ENOMEM;
    if (chol != HY_OK)
        return hy_pwlfit_lsq_solve(ls);
    for (int j = 0; j < p; j++)
        if (!isfinite(ls->x[j]))
            return hy_pwlfit_lsq_solve(ls);
    return hy_pwlfit_lsq_error(ls, ls->x);
}

/* Continuous piecewise-linear least squares with free breakpoints for one branch (see hyst/pwlfit.h): the
 * unconstrained building block of the table fit, and the problem on which the global search is checked against
 * exhaustive enumeration. Breakpoints: dynamic programming over candidates, then variable projection. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/pwlfit.h"

typedef struct seg_ctx {
    const hy_pwlfit_data *d;
    int S;
    hy_pwlfit_lsq ls;
    double delta;    /* smallest knot spacing */
} seg_ctx;

static hy_pwlfit_aff aff_param(int j)
{
    hy_pwlfit_aff a = {1, {j, 0, 0, 0}, {1.0, 0, 0, 0}, 0.0};
    return a;
}

static hy_pwlfit_aff aff_slope(int i, int j, double dx)
{
    hy_pwlfit_aff a = {2, {i, j, 0, 0}, {-1.0 / dx, 1.0 / dx, 0, 0}, 0.0};
    return a;
}

// (knots t[0..S]) => squared error of the best continuous fit; ordinates in c->ls.x
static double seg_cost(void *vc, const double *t)
{
    seg_ctx *c = vc;
    int S = c->S;
    hy_pwlfit_lsq_reset(&c->ls, S + 1);
    for (int i = 0; i < S; i++) {
        double dx = t[i + 1] - t[i];
        if (!(dx > 0))
            return INFINITY;
        hy_pwlfit_aff v0 = aff_param(i), sl = aff_slope(i, i + 1, dx);
        hy_pwlfit_lsq_piece(&c->ls, c->d, i == 0 ? -INFINITY : t[i], i == S - 1 ? INFINITY : t[i + 1], t[i], &v0,
                            &sl);
    }
    return hy_pwlfit_lsq_solve(&c->ls);
}

static void seg_bracket(void *vc, const double *t, int j, double *lo, double *hi)
{
    seg_ctx *c = vc;
    *lo = t[j - 1] + c->delta;
    *hi = t[j + 1] - c->delta;
}

static void seg_group(void *vc, const double *t, int g, double *lo, double *hi)
{
    seg_ctx *c = vc;
    (void)g;
    *lo = t[0];
    *hi = t[c->S];
}

// (d, S, knots) => ordinates by least squares
int hy_pwlfit_segreg_solve(const hy_pwlfit_data *d, int S, const double *t, double *v, double *sse, hy_err *err)
{
    if (S < 1 || S > HY_PWLFIT_MAX_SEGMENTS)
        return hy_err_set(err, HY_EARG, "piecewise-linear fit: %d segments asked (1 to %d)", S,
                          HY_PWLFIT_MAX_SEGMENTS);
    seg_ctx c = {d, S, {0}, 0.0};
    int rc = hy_pwlfit_lsq_init(&c.ls, 2 * S + 2, S + 1, err);
    if (rc)
        return rc;
    double e = seg_cost(&c, t);
    if (!isfinite(e)) {
        hy_pwlfit_lsq_free(&c.ls);
        return hy_err_set(err, HY_ENUMERIC, "piecewise-linear fit: least squares failed for these breakpoints");
    }
    memcpy(v, c.ls.x, (size_t)(S + 1) * sizeof *v);
    if (sse)
        *sse = e;
    hy_pwlfit_lsq_free(&c.ls);
    return HY_OK;
}

// (d, S, G) => breakpoints t[0..S] and ordinates v[0..S] of the continuous least-squares fit
int hy_pwlfit_segreg(const hy_pwlfit_data *d, int S, size_t G, double *t, double *v, double *sse, hy_err *err)
{
    if (S < 1 || S > HY_PWLFIT_MAX_SEGMENTS)
        return hy_err_set(err, HY_EARG, "piecewise-linear fit: %d segments asked (1 to %d)", S,
                          HY_PWLFIT_MAX_SEGMENTS);
    if (d->n < (size_t)(2 * S + 2))
        return hy_err_set(err, HY_EDATA, "piecewise-linear fit: %zu samples are too few for %d segments (need %d)",
                          d->n, S, 2 * S + 2);
    double lo = d->u[0], hi = d->u[d->n - 1];
    if (!(hi > lo))
        return hy_err_set(err, HY_EDATA, "piecewise-linear fit: all samples have the same abscissa");
    if (G == 0)
        G = 192;
    double *g = malloc((G + 4) * sizeof *g);
    if (!g)
        return hy_err_set(err, HY_ENOMEM, "piecewise-linear fit: out of memory");
    const hy_pwlfit_data *ds[1] = {d};
    size_t ng = hy_pwlfit_grid(ds, 1, lo, hi, G, g);
    hy_pwlfit_dp dp;
    int rc = hy_pwlfit_dp_branch(d, g, ng, ng - 1, d->n, 0.0, S, 2, &dp, err);
    if (rc) {
        free(g);
        return rc;
    }
    t[0] = lo;
    t[S] = hi;
    int k = isfinite(dp.cost[(size_t)S * dp.G]) ? hy_pwlfit_dp_path(&dp, g, 0, S, t + 1) : 0;
    for (int i = k + 1; i < S; i++)   /* no DP path (degenerate data): equal spacing */
        t[i] = lo + (hi - lo) * i / S;
    hy_pwlfit_dp_free(&dp);
    free(g);

    seg_ctx c = {d, S, {0}, 1e-9 * (hi - lo)};
    rc = hy_pwlfit_lsq_init(&c.ls, 2 * S + 2, S + 1, err);
    if (rc)
        return rc;
    int is_free[HY_PWLFIT_MAX_POINTS], group[HY_PWLFIT_MAX_POINTS];
    for (int i = 0; i <= S; i++) {
        is_free[i] = i > 0 && i < S;
        group[i] = is_free[i] ? 0 : -1;
    }
    hy_pwlfit_refine_opts o = {40, 8, 1e-9 * (hi - lo), 1e-12, 64, 4, hi - lo, 0};
    hy_pwlfit_refine_problem pb = {S + 1, is_free, group, seg_cost, seg_bracket, seg_group, &c};
    double e = hy_pwlfit_refine(&pb, t, &o, NULL);
    if (!isfinite(e)) {
        hy_pwlfit_lsq_free(&c.ls);
        return hy_err_set(err, HY_ENUMERIC, "piecewise-linear fit: least squares failed");
    }
    memcpy(v, c.ls.x, (size_t)(S + 1) * sizeof *v);
    if (sse)
        *sse = e;
    hy_pwlfit_lsq_free(&c.ls);
    return HY_OK;
}

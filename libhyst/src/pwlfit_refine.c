/* Breakpoint refinement of variable projection (see hyst/pwlfit.h). For fixed breakpoints the ordinates are a
 * linear least-squares problem (the cost callback solves it), so the squared error is a function of the
 * breakpoints alone. Each breakpoint in turn is moved to the minimum of that function over its bracket: a scan
 * of the whole bracket first (so a move is not trapped by the nearest local minimum), then Brent's parabolic /
 * golden-section search on the best sub-bracket. Sweeps repeat until the error stops decreasing. No randomness:
 * the same data give the same breakpoints. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/pwlfit.h"

typedef struct line_ctx {
    hy_pwlfit_cost_fn cost;
    void *ctx;
    double *knots;
    int j;
    long *evals;
} line_ctx;

static double f_at(line_ctx *c, double x)
{
    c->knots[c->j] = x;
    if (c->evals)
        (*c->evals)++;
    double f = c->cost(c->ctx, c->knots);
    return isnan(f) ? INFINITY : f;
}

/* Brent's minimisation without derivatives (R. P. Brent, Algorithms for Minimization without Derivatives, 1973,
 * ch. 5) on [a, b], starting from x with value fx. Returns the best abscissa; *fbest its value. */
static double brent(line_ctx *c, double a, double b, double x, double fx, double xtol, double *fbest)
{
    const double gold = 0.3819660112501051;
    double v = x, w = x, fv = fx, fw = fx, d = 0.0, e = 0.0;
    for (int it = 0; it < 60; it++) {
        double m = 0.5 * (a + b), tol = 1e-10 * fabs(x) + xtol, t2 = 2.0 * tol;
        if (fabs(x - m) <= t2 - 0.5 * (b - a))
            break;
        double p = 0, q = 0, r = 0;
        if (fabs(e) > tol) {
            r = (x - w) * (fx - fv);
            q = (x - v) * (fx - fw);
            p = (x - v) * q - (x - w) * r;
            q = 2.0 * (q - r);
            if (q > 0)
                p = -p;
            else
                q = -q;
            r = e;
            e = d;
        }
        if (fabs(p) < fabs(0.5 * q * r) && p > q * (a - x) && p < q * (b - x)) {
            d = p / q;
            double u = x + d;
            if (u - a < t2 || b - u < t2)
                d = x < m ? tol : -tol;
        } else {
            e = x < m ? b - x : a - x;
            d = gold * e;
        }
        double u = x + (fabs(d) >= tol ? d : (d > 0 ? tol : -tol));
        double fu = f_at(c, u);
        if (fu <= fx) {
            if (u < x)
                b = x;
            else
                a = x;
            v = w; fv = fw;
            w = x; fw = fx;
            x = u; fx = fu;
        } else {
            if (u < x)
                a = u;
            else
                b = u;
            if (fu <= fw || w == x) {
                v = w; fv = fw;
                w = u; fw = fu;
            } else if (fu <= fv || v == x || v == w) {
                v = u; fv = fu;
            }
        }
    }
    *fbest = fx;
    return x;
}

// (problem, knots, f = cost at knots) => coordinate sweeps until the error stops decreasing; the new cost
static double coordinate_sweeps(const hy_pwlfit_refine_problem *pb, double *knots, double f, int max_sweeps, int M,
                                double xtol, double ftol, hy_pwlfit_refine_info *info)
{
    line_ctx lc = {pb->cost, pb->ctx, knots, 0, &info->evaluations};
    for (int s = 0; s < max_sweeps; s++) {
        double f0 = f;
        info->sweeps++;
        for (int j = 0; j < pb->nk; j++) {
            if (!pb->is_free[j])
                continue;
            double lo, hi;
            pb->bracket(pb->ctx, knots, j, &lo, &hi);
            if (!(hi - lo > 4 * xtol))
                continue;
            lc.j = j;
            double x0 = knots[j];
            double pts[66];
            pts[0] = lo;
            pts[M + 1] = hi;
            int best = -1;
            double fb = f, xb = x0;
            for (int i = 1; i <= M; i++) {
                pts[i] = lo + (hi - lo) * (double)i / (double)(M + 1);
                double fi = f_at(&lc, pts[i]);
                if (fi < fb) {
                    fb = fi;
                    xb = pts[i];
                    best = i;
                }
            }
            double a, b;
            if (best > 0) {
                a = pts[best - 1];
                b = pts[best + 1];
            } else {   /* the current position stays best: search between its scan neighbours */
                int i = 1;
                while (i <= M && pts[i] < x0)
                    i++;
                a = pts[i - 1];
                b = pts[i <= M ? i : M + 1];
            }
            /* keep strictly inside the bracket */
            if (a < lo + xtol)
                a = lo + xtol;
            if (b > hi - xtol)
                b = hi - xtol;
            if (xb < a)
                xb = a;
            if (xb > b)
                xb = b;
            double fstart = (xb == x0) ? f : f_at(&lc, xb);
            double fx = fstart;
            double x = b > a ? brent(&lc, a, b, xb, fstart, xtol, &fx) : xb;
            if (fx < f) {
                knots[j] = x;
                f = fx;
            } else {
                knots[j] = x0;
            }
        }
        if (!(f0 - f > ftol * f0))
            break;
    }
    return f;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// (problem, knots) => coordinate-wise minimum that no relocation improves
double hy_pwlfit_refine(const hy_pwlfit_refine_problem *pb, double *knots, const hy_pwlfit_refine_opts *o,
                        hy_pwlfit_refine_info *info)
{
    hy_pwlfit_refine_info dummy;
    if (!info)
        info = &dummy;
    memset(info, 0, sizeof *info);
    int max_sweeps = o && o->max_sweeps > 0 ? o->max_sweeps : 40;
    int M = o && o->scan > 0 ? o->scan : 8;
    double xtol = o && o->xtol > 0 ? o->xtol : 1e-9;
    double ftol = o && o->ftol > 0 ? o->ftol : 1e-10;
    int R = o ? o->relocate : 0;
    int rounds = o && o->max_rounds > 0 ? o->max_rounds : 4;
    if (M > 64)
        M = 64;
    info->evaluations++;
    double f = pb->cost(pb->ctx, knots);
    f = coordinate_sweeps(pb, knots, f, max_sweeps, M, xtol, ftol, info);
    double trial[HY_PWLFIT_MAX_KNOTS], best[HY_PWLFIT_MAX_KNOTS];
    int nk = pb->nk < HY_PWLFIT_MAX_KNOTS ? pb->nk : HY_PWLFIT_MAX_KNOTS;
    for (int round = 0; R > 0 && pb->group && round < rounds; round++) {
        int improved = 0;
        for (int j = 0; j < nk; j++) {
            int g = pb->group[j];
            if (g < 0 || !pb->is_free[j])
                continue;
            int j0 = j, j1 = j;
            while (j0 > 0 && pb->group[j0 - 1] == g)
                j0--;
            while (j1 < nk && pb->group[j1] == g)
                j1++;
            double lo, hi;
            pb->group_range(pb->ctx, knots, g, &lo, &hi);
            double fb = f;
            int found = 0;
            for (int i = 1; i <= R; i++) {
                memcpy(trial, knots, (size_t)nk * sizeof *trial);
                trial[j] = lo + (hi - lo) * (double)i / (double)(R + 1);
                qsort(trial + j0, (size_t)(j1 - j0), sizeof *trial, cmp_double);
                int ok = trial[j0] > lo + xtol && trial[j1 - 1] < hi - xtol;
                for (int k = j0 + 1; ok && k < j1; k++)
                    ok = trial[k] > trial[k - 1] + xtol;
                if (!ok)
                    continue;
                info->evaluations++;
                double ft = pb->cost(pb->ctx, trial);
                if (ft < fb) {
                    fb = ft;
                    memcpy(best, trial, (size_t)nk * sizeof *best);
                    found = 1;
                }
            }
            if (!found)
                continue;
            double f1 = coordinate_sweeps(pb, best, fb, max_sweeps, M, xtol, ftol, info);
            if (f1 < f * (1.0 - ftol)) {
                memcpy(knots, best, (size_t)nk * sizeof *knots);
                f = f1;
                improved = 1;
                info->relocations++;
            }
        }
        if (!improved)
            break;
    }
    /* leave the callback's state consistent with the returned knots */
    return pb->cost(pb->ctx, knots);
}

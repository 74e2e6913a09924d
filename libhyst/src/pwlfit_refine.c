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
    int M_full = M;
    for (int s = 0; s < max_sweeps; s++) {
        double f0 = f;
        info->sweeps++;
        /* the first sweep scans every bracket (when M > 0); later ones only polish: Brent within a tenth of it */
        M = s == 0 ? M_full : 0;
        if (M > 0)
            info->scans++;
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
            if (M == 0) {
                double w = 0.1 * (hi - lo);
                a = fmax(lo, x0 - w);
                b = fmin(hi, x0 + w);
            } else if (best > 0) {
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

/* Quasi-Newton polish (BFGS on the free knots, forward-difference gradient). Coordinate moves converge slowly
 * when neighbouring knots are coupled; BFGS takes them together. Every step is cut so that no knot moves more
 * than half-way to the edge of its current bracket, which keeps the knot order. */
static double fd_grad(const hy_pwlfit_refine_problem *pb, double *knots, const int *J, int nf, double f, double h,
                      double *g, hy_pwlfit_refine_info *info)
{
    for (int a = 0; a < nf; a++) {
        int j = J[a];
        double lo, hi, x = knots[j];
        pb->bracket(pb->ctx, knots, j, &lo, &hi);
        double step = x + h < hi ? h : -h;
        knots[j] = x + step;
        info->evaluations++;
        double f1 = pb->cost(pb->ctx, knots);
        knots[j] = x;
        g[a] = isfinite(f1) ? (f1 - f) / step : 0.0;
    }
    return 0.0;
}

static double bfgs(const hy_pwlfit_refine_problem *pb, double *knots, double f, double range, double ftol,
                   int max_iter, hy_pwlfit_refine_info *info)
{
    int J[HY_PWLFIT_MAX_KNOTS], nf = 0;
    for (int j = 0; j < pb->nk && j < HY_PWLFIT_MAX_KNOTS; j++)
        if (pb->is_free[j])
            J[nf++] = j;
    if (nf == 0)
        return f;
    static __thread double Hi[HY_PWLFIT_MAX_KNOTS * HY_PWLFIT_MAX_KNOTS];
    double g[HY_PWLFIT_MAX_KNOTS], g1[HY_PWLFIT_MAX_KNOTS], p[HY_PWLFIT_MAX_KNOTS], x0[HY_PWLFIT_MAX_KNOTS];
    double sv[HY_PWLFIT_MAX_KNOTS], yv[HY_PWLFIT_MAX_KNOTS], Hy[HY_PWLFIT_MAX_KNOTS];
    double h = 1e-7 * range;
    fd_grad(pb, knots, J, nf, f, h, g, info);
    int reset = 1, stalls = 0, small = 0;
    for (int it = 0; it < max_iter; it++) {
        double gn = 0;
        for (int a = 0; a < nf; a++)
            gn += g[a] * g[a];
        gn = sqrt(gn);
        if (!(gn > 0))
            break;
        if (reset) {   /* first step (or after a failure): steepest descent of length 1 % of the range */
            for (int a = 0; a < nf * nf; a++)
                Hi[a] = 0.0;
            for (int a = 0; a < nf; a++)
                Hi[a * nf + a] = 0.01 * range / gn;
            reset = 0;
        }
        double gp = 0;
        for (int a = 0; a < nf; a++) {
            p[a] = 0;
            for (int b = 0; b < nf; b++)
                p[a] -= Hi[a * nf + b] * g[b];
            gp += p[a] * g[a];
        }
        if (!(gp < 0)) {
            reset = 1;
            if (++stalls > 2)
                break;
            continue;
        }
        /* step cap: half-way to each knot's bracket edge */
        double tmax = 1.0;
        for (int a = 0; a < nf; a++) {
            double lo, hi;
            pb->bracket(pb->ctx, knots, J[a], &lo, &hi);
            double x = knots[J[a]];
            if (p[a] > 0)
                tmax = fmin(tmax, 0.5 * (hi - x) / p[a]);
            else if (p[a] < 0)
                tmax = fmin(tmax, 0.5 * (lo - x) / p[a]);
        }
        for (int a = 0; a < nf; a++)
            x0[a] = knots[J[a]];
        double t = tmax, f1 = INFINITY;
        for (int ls = 0; ls < 30 && t > 0; ls++, t *= 0.5) {
            for (int a = 0; a < nf; a++)
                knots[J[a]] = x0[a] + t * p[a];
            info->evaluations++;
            f1 = pb->cost(pb->ctx, knots);
            if (f1 <= f + 1e-4 * t * gp)
                break;
        }
        if (!(f1 < f)) {   /* no decrease along this direction */
            for (int a = 0; a < nf; a++)
                knots[J[a]] = x0[a];
            reset = 1;
            if (++stalls > 1)
                break;
            continue;
        }
        stalls = 0;
        fd_grad(pb, knots, J, nf, f1, h, g1, info);
        double sy = 0;
        for (int a = 0; a < nf; a++) {
            sv[a] = knots[J[a]] - x0[a];
            yv[a] = g1[a] - g[a];
            sy += sv[a] * yv[a];
        }
        if (sy > 1e-300) {   /* Hi <- (I - r s y') Hi (I - r y s') + r s s' */
            double r = 1.0 / sy, yHy = 0;
            for (int a = 0; a < nf; a++) {
                Hy[a] = 0;
                for (int b = 0; b < nf; b++)
                    Hy[a] += Hi[a * nf + b] * yv[b];
                yHy += yv[a] * Hy[a];
            }
            for (int a = 0; a < nf; a++)
                for (int b = 0; b < nf; b++)
                    Hi[a * nf + b] += -r * (Hy[a] * sv[b] + sv[a] * Hy[b]) + (r * r * yHy + r) * sv[a] * sv[b];
        }
        double df = f - f1;
        f = f1;
        for (int a = 0; a < nf; a++)
            g[a] = g1[a];
        if (df <= ftol * f) {   /* two small decreases in a row end it */
            if (++small >= 2)
                break;
        } else {
            small = 0;
        }
    }
    return f;
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
    int polish = o && o->max_polish > 0 ? o->max_polish : max_sweeps;
    double xtol = o && o->xtol > 0 ? o->xtol : 1e-9;
    double ftol = o && o->ftol > 0 ? o->ftol : 1e-10;
    int R = o ? o->relocate : 0;
    int rounds = o && o->max_rounds > 0 ? o->max_rounds : 4;
    if (M > 64)
        M = 64;
    info->evaluations++;
    double f = pb->cost(pb->ctx, knots);
    double range = o && o->range > 0 ? o->range : 1.0;
    /* a sweep with global scans of every bracket, then joint quasi-Newton moves; again while the scans find
     * something better, at most three times; then a local coordinate polish */
    for (int k = 0; k < 3; k++) {
        double f0 = f;
        if (o && o->scan < 0) {   /* light mode: quasi-Newton and polish only */
            f = bfgs(pb, knots, f, range, ftol, 200, info);
            break;
        }
        f = coordinate_sweeps(pb, knots, f, 1, M, xtol, ftol, info);
        if (k > 0 && !(f0 - f > ftol * f0))
            break;
        f = bfgs(pb, knots, f, range, ftol, 200, info);
    }
    f = coordinate_sweeps(pb, knots, f, polish, 0, xtol, ftol, info);
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
            double f1 = bfgs(pb, best, fb, range, ftol, 200, info);
            f1 = coordinate_sweeps(pb, best, f1, polish, 0, xtol, ftol, info);
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

/* Global breakpoint search: dynamic programming over candidate abscissae (see hyst/pwlfit.h).
 * The relaxed problem (each segment its own least-squares line) is solved exactly over the candidates; segment
 * costs come from the prefix sums of the branch data in O(1), so a table with G candidates and S segments costs
 * O(G^2) cost evaluations plus O(S G^2) additions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/pwlfit.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// (sorted g[n], minimum spacing) => duplicates removed; new count
static size_t dedup(double *g, size_t n, double eps)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        if (w == 0 || g[i] > g[w - 1] + eps)
            g[w++] = g[i];
    return w;
}

// (branches, [lo, hi], G) => candidate abscissae, count returned (<= G + 2)
size_t hy_pwlfit_grid(const hy_pwlfit_data *const *ds, int nd, double lo, double hi, size_t G, double *g)
{
    size_t total = 0;
    for (int k = 0; k < nd; k++)
        total += ds[k]->n;
    double eps = 1e-9 * (hi - lo > 0 ? hi - lo : 1.0);
    size_t w = 0;
    if (total <= G) {
        /* few samples: every partition of the sorted abscissae is a candidate (midpoints) */
        double *all = malloc((total + 2) * sizeof *all);
        size_t m = 0;
        if (!all)
            goto coarse;
        for (int k = 0; k < nd; k++)
            for (size_t i = 0; i < ds[k]->n; i++)
                if (ds[k]->u[i] > lo && ds[k]->u[i] < hi)
                    all[m++] = ds[k]->u[i];
        qsort(all, m, sizeof *all, cmp_double);
        m = dedup(all, m, eps);
        g[w++] = lo;
        for (size_t i = 0; i + 1 < m; i++)
            g[w++] = 0.5 * (all[i] + all[i + 1]);
        g[w++] = hi;
        free(all);
        qsort(g, w, sizeof *g, cmp_double);
        return dedup(g, w, eps);
    }
coarse:;
    size_t nu = G / 2 > 2 ? G / 2 : 2;
    for (size_t i = 0; i < nu; i++)
        g[w++] = lo + (hi - lo) * (double)i / (double)(nu - 1);
    size_t nq = (G - nu) / (size_t)(nd > 0 ? nd : 1);
    for (int k = 0; k < nd; k++) {
        const hy_pwlfit_data *d = ds[k];
        size_t a = hy_pwlfit_data_find(d, lo), b = hy_pwlfit_data_find(d, hi);
        if (b <= a + 1)
            continue;
        for (size_t j = 1; j <= nq; j++) {
            size_t i = a + (size_t)((double)(b - a) * (double)j / (double)(nq + 1));
            if (i > a && i < b)
                g[w++] = 0.5 * (d->u[i - 1] + d->u[i]);
        }
    }
    qsort(g, w, sizeof *g, cmp_double);
    return dedup(g, w, eps);
}

// (branch, samples [i0, i1)) => squared error of their own least-squares line
double hy_pwlfit_line_cost(const hy_pwlfit_data *d, size_t i0, size_t i1, int min_pts)
{
    if (i1 < i0 + (size_t)(min_pts > 1 ? min_pts : 1))
        return INFINITY;
    hy_pwlfit_stats s;
    hy_pwlfit_data_stats(d, i0, i1, &s);
    double c = s.suu > 0 ? s.sPP - s.suP * s.suP / s.suu : s.sPP;
    return c > 0 ? c : 0.0;
}

void hy_pwlfit_dp_free(hy_pwlfit_dp *dp)
{
    free(dp->cost);
    free(dp->next);
    memset(dp, 0, sizeof *dp);
}

// (branch, candidates, end, terminal, smax) => DP table of best costs to the end
int hy_pwlfit_dp_branch(const hy_pwlfit_data *d, const double *g, size_t G, size_t end, size_t i_end,
                        double terminal, int smax, int min_pts, hy_pwlfit_dp *dp, hy_err *err)
{
    memset(dp, 0, sizeof *dp);
    if (G < 2 || end >= G || smax < 1)
        return hy_err_set(err, HY_EARG, "piecewise-linear fit: bad candidate set (%zu candidates)", G);
    size_t E = end + 1;
    dp->G = G;
    dp->smax = smax;
    dp->cost = malloc((size_t)(smax + 1) * G * sizeof *dp->cost);
    dp->next = malloc((size_t)(smax + 1) * G * sizeof *dp->next);
    size_t *idx = malloc(E * sizeof *idx);
    double *L = malloc(E * E * sizeof *L);
    if (!dp->cost || !dp->next || !idx || !L) {
        free(idx);
        free(L);
        hy_pwlfit_dp_free(dp);
        return hy_err_set(err, HY_ENOMEM, "piecewise-linear fit: out of memory for the breakpoint search");
    }
    for (size_t c = 0; c < E; c++)
        idx[c] = c == 0 ? 0 : hy_pwlfit_data_find(d, g[c]);   /* the first candidate takes everything below */
    idx[end] = i_end;
    for (size_t c = 0; c < E; c++)
        for (size_t e = c + 1; e < E; e++)
            L[c * E + e] = hy_pwlfit_line_cost(d, idx[c], idx[e], min_pts);
    for (size_t k = 0; k < (size_t)(smax + 1) * G; k++) {
        dp->cost[k] = INFINITY;
        dp->next[k] = -1;
    }
    for (size_t c = 0; c < end; c++) {
        dp->cost[1 * G + c] = L[c * E + end] + terminal;
        dp->next[1 * G + c] = (int)end;
    }
    for (int s = 2; s <= smax; s++) {
        double *cur = dp->cost + (size_t)s * G, *prev = dp->cost + (size_t)(s - 1) * G;
        int *nx = dp->next + (size_t)s * G;
        for (size_t c = 0; c < end; c++) {
            double best = INFINITY;
            int arg = -1;
            const double *Lc = L + c * E;
            for (size_t e = c + 1; e < end; e++) {
                double v = Lc[e] + prev[e];
                if (v < best) {
                    best = v;
                    arg = (int)e;
                }
            }
            cur[c] = best;
            nx[c] = arg;
        }
    }
    free(idx);
    free(L);
    return HY_OK;
}

// (table, start, segments) => interior breakpoints of the best path
int hy_pwlfit_dp_path(const hy_pwlfit_dp *dp, const double *g, size_t c, int s, double *knots)
{
    int k = 0;
    for (; s > 1; s--) {
        int e = dp->next[(size_t)s * dp->G + c];
        if (e < 0)
            break;
        knots[k++] = g[e];
        c = (size_t)e;
    }
    return k;
}

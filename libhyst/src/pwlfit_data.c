// Branch data for the piecewise-linear fit: samples sorted by abscissa with prefix sums (see hyst/pwlfit.h).
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/pwlfit.h"

// (d) => memory released
void hy_pwlfit_data_free(hy_pwlfit_data *d)
{
    if (!d)
        return;
    free(d->u);
    free(d->P);
    free(d->su);
    memset(d, 0, sizeof *d);
}

/* Natural merge sort of (u, P) pairs: a branch is a concatenation of monotone runs (one per half-cycle), so the
 * sort costs O(n log runs) instead of O(n log n). Descending runs are reversed first. */
static void merge_runs(double *u, double *P, double *tu, double *tP, size_t n, size_t *run, size_t nr)
{
    /* run[0..nr-1] are the run starts, run[nr] = n */
    while (nr > 1) {
        size_t w = 0;
        for (size_t r = 0; r < nr; r += 2) {
            size_t a = run[r];
            size_t m = r + 1 < nr ? run[r + 1] : n;   /* an odd run out is merged with nothing (copied) */
            size_t b = r + 1 < nr ? run[r + 2] : n;
            size_t i = a, j = m, k = a;
            while (i < m && j < b) {
                if (u[j] < u[i]) {
                    tu[k] = u[j];
                    tP[k++] = P[j++];
                } else {
                    tu[k] = u[i];
                    tP[k++] = P[i++];
                }
            }
            for (; i < m; i++, k++) {
                tu[k] = u[i];
                tP[k] = P[i];
            }
            for (; j < b; j++, k++) {
                tu[k] = u[j];
                tP[k] = P[j];
            }
            run[w++] = a;
        }
        run[w] = n;
        nr = w;
        memcpy(u, tu, n * sizeof *u);
        memcpy(P, tP, n * sizeof *P);
    }
}

// (parts) => pooled, sorted samples with prefix sums
int hy_pwlfit_data_build(hy_pwlfit_data *d, const hy_pwlfit_part *parts, size_t np, hy_err *err)
{
    memset(d, 0, sizeof *d);
    size_t n = 0;
    for (size_t k = 0; k < np; k++)
        n += parts[k].n;
    d->u = malloc((n + 1) * sizeof *d->u);
    d->P = malloc((n + 1) * sizeof *d->P);
    d->su = malloc(5 * (n + 1) * sizeof *d->su);
    size_t *run = malloc((n + 2) * sizeof *run);
    if (!d->u || !d->P || !d->su || !run) {
        free(run);
        hy_pwlfit_data_free(d);
        return hy_err_set(err, HY_ENOMEM, "piecewise-linear fit: out of memory for %zu samples", n);
    }
    d->n = n;
    size_t w = 0;
    for (size_t k = 0; k < np; k++)
        for (size_t i = 0; i < parts[k].n; i++) {
            d->u[w] = parts[k].sign * parts[k].q[i];
            d->P[w++] = parts[k].sign * parts[k].Q[i];
        }
    /* runs: maximal non-decreasing or strictly decreasing stretches (decreasing ones reversed in place) */
    size_t nr = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        if (j < n && d->u[j] < d->u[i]) {
            while (j < n && d->u[j] < d->u[j - 1])
                j++;
            for (size_t a = i, b = j - 1; a < b; a++, b--) {
                double t = d->u[a]; d->u[a] = d->u[b]; d->u[b] = t;
                t = d->P[a]; d->P[a] = d->P[b]; d->P[b] = t;
            }
        } else {
            while (j < n && d->u[j] >= d->u[j - 1])
                j++;
        }
        run[nr++] = i;
        i = j;
    }
    run[nr] = n;
    /* the prefix-sum block doubles as merge buffer before it is filled */
    if (nr > 1)
        merge_runs(d->u, d->P, d->su, d->su + (n + 1), n, run, nr);
    free(run);
    d->sPP = d->su + 4 * (n + 1);
    d->suP = d->su + 3 * (n + 1);
    d->sP = d->su + 2 * (n + 1);
    d->suu = d->su + 1 * (n + 1);
    d->uc = n ? 0.5 * (d->u[0] + d->u[n - 1]) : 0.0;
    double a = 0, b = 0, c = 0, e = 0, f = 0;
    d->su[0] = d->suu[0] = d->sP[0] = d->suP[0] = d->sPP[0] = 0.0;
    for (size_t i = 0; i < n; i++) {
        double x = d->u[i] - d->uc, y = d->P[i];
        a += x;
        b += x * x;
        c += y;
        e += x * y;
        f += y * y;
        d->su[i + 1] = a;
        d->suu[i + 1] = b;
        d->sP[i + 1] = c;
        d->suP[i + 1] = e;
        d->sPP[i + 1] = f;
    }
    return HY_OK;
}

// (d, u) => first index with abscissa >= u
size_t hy_pwlfit_data_find(const hy_pwlfit_data *d, double u)
{
    size_t lo = 0, hi = d->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->u[mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// (d, [i0, i1)) => statistics centred on the run's own means
void hy_pwlfit_data_stats(const hy_pwlfit_data *d, size_t i0, size_t i1, hy_pwlfit_stats *s)
{
    memset(s, 0, sizeof *s);
    if (i1 <= i0)
        return;
    double n = (double)(i1 - i0);
    double su = d->su[i1] - d->su[i0], suu = d->suu[i1] - d->suu[i0];
    double sP = d->sP[i1] - d->sP[i0], suP = d->suP[i1] - d->suP[i0], sPP = d->sPP[i1] - d->sPP[i0];
    double mu = su / n, mP = sP / n;
    s->n = n;
    s->um = d->uc + mu;
    s->Pm = mP;
    s->suu = suu - su * mu;
    s->suP = suP - su * mP;
    s->sPP = sPP - sP * mP;
    if (i1 - i0 == 1 || s->suu < 0)
        s->suu = 0.0, s->suP = 0.0;
    if (s->sPP < 0)
        s->sPP = 0.0;
}

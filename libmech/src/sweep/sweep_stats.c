/* Statistics of a sweep: the Wilson score interval of a capture probability (Wilson 1927; Brown, Cai and DasGupta
 * 2001 recommend it over the Wald interval, which collapses at p = 0 or 1, the common case of a capture study) and
 * Spearman's rank correlation as the sensitivity of a metric to a varied key (monotone, insensitive to the scale
 * of the key and to outliers of the metric; docs/sweep.md says why not a variance-based index). */
#include <math.h>
#include <stdlib.h>
#include "mech/sweep.h"

void mech_sweep_wilson(long k, long n, double z, double *lo, double *hi)
{
    if (n <= 0) {
        *lo = 0, *hi = 1;
        return;
    }
    double p = (double)k / (double)n, z2 = z * z, nn = (double)n;
    double c = (p + z2 / (2 * nn)) / (1 + z2 / nn);
    double w = z / (1 + z2 / nn) * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
    *lo = fmax(0, c - w);
    *hi = fmin(1, c + w);
    if (k == 0)
        *lo = 0;
    if (k == n)
        *hi = 1;
}

typedef struct { double v; size_t i; } pair;

static int cmp_pair(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    if (x->v < y->v)
        return -1;
    if (x->v > y->v)
        return 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

// (x[n]) => r[n] ranks 1..n, ties at their mean rank
static int ranks(const double *x, size_t n, double *r)
{
    pair *p = malloc(n * sizeof *p);
    if (!p)
        return -1;
    for (size_t i = 0; i < n; i++)
        p[i].v = x[i], p[i].i = i;
    qsort(p, n, sizeof *p, cmp_pair);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && p[j + 1].v == p[i].v)
            j++;
        double mean = 0.5 * (double)(i + j) + 1;
        for (size_t k = i; k <= j; k++)
            r[p[k].i] = mean;
        i = j + 1;
    }
    free(p);
    return 0;
}

double mech_sweep_spearman(const double *x, const double *y, size_t n)
{
    if (n < 3)
        return NAN;
    double *rx = malloc(2 * n * sizeof *rx);
    if (!rx)
        return NAN;
    double *ry = rx + n;
    if (ranks(x, n, rx) != 0 || ranks(y, n, ry) != 0) {
        free(rx);
        return NAN;
    }
    double mx = 0.5 * (double)(n + 1), sxy = 0, sxx = 0, syy = 0;   /* mean rank is (n + 1) / 2 with ties too */
    for (size_t i = 0; i < n; i++) {
        double a = rx[i] - mx, b = ry[i] - mx;
        sxy += a * b, sxx += a * a, syy += b * b;
    }
    free(rx);
    if (sxx == 0 || syy == 0)
        return NAN;
    return sxy / sqrt(sxx * syy);
}

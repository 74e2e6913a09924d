/* Sobol' indices from a Saltelli design (mech/sweep_sobol.h; docs/sweep.md "Sobol indices"). The design reuses the
 * sweep's own Owen-scrambled Sobol sampler (sweep_sample.c); the bootstrap draws its rows from the sweep's
 * counter-based generator, so the intervals depend only on (f, seed). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "mech/sweep.h"
#include "mech/sweep_sobol.h"

int mech_sobol_design(size_t N, int d, uint64_t seed, double *u, hy_err *err)
{
    if (d < 1 || d > MECH_SOBOL_KEYS_MAX || N < 2)
        return hy_err_set(err, HY_EARG, "a Saltelli design needs 1..%d keys and N >= 2 (got %d keys, N = %zu)",
                          MECH_SOBOL_KEYS_MAX, d, N);
    size_t dd = (size_t)d;
    double *ab = malloc(N * 2 * dd * sizeof *ab);
    if (!ab)
        return hy_err_set(err, HY_ENOMEM, "out of memory for a Saltelli design of N = %zu", N);
    int rc = mech_sweep_sample(MECH_SWEEP_SOBOL, N, 2 * d, seed, ab, err);
    if (rc == HY_OK) {
        for (size_t j = 0; j < N; j++) {
            const double *a = ab + j * 2 * dd, *b = a + dd;
            memcpy(u + j * dd, a, dd * sizeof *u);                 /* A */
            memcpy(u + (N + j) * dd, b, dd * sizeof *u);           /* B */
            for (size_t i = 0; i < dd; i++) {                      /* A_B^i: A with column i from B */
                double *r = u + (2 * N + i * N + j) * dd;
                memcpy(r, a, dd * sizeof *u);
                r[i] = b[i];
            }
        }
    }
    free(ab);
    return rc;
}

/* the estimators over the rows rows[0..n) (with repeats in a bootstrap resample) */
static void estimate(const double *f, size_t N, int d, const size_t *rows, size_t n, double *s1, double *st)
{
    double mean = 0, v = 0;
    for (size_t k = 0; k < n; k++)
        mean += f[rows[k]] + f[N + rows[k]];
    mean /= (double)(2 * n);
    for (size_t k = 0; k < n; k++) {
        double a = f[rows[k]] - mean, b = f[N + rows[k]] - mean;
        v += a * a + b * b;
    }
    v /= (double)(2 * n);
    for (int i = 0; i < d; i++) {
        double n1 = 0, nt = 0;
        for (size_t k = 0; k < n; k++) {
            size_t j = rows[k];
            double fa = f[j], fb = f[N + j], fab = f[2 * N + (size_t)i * N + j];
            n1 += fb * (fab - fa);                 /* Saltelli 2010 */
            nt += (fa - fab) * (fa - fab);         /* Jansen 1999 */
        }
        s1[i] = v > 0 ? n1 / (double)n / v : NAN;
        st[i] = v > 0 ? nt / (2.0 * (double)n) / v : NAN;
    }
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// (sorted x[n], probability q) => the q-quantile, linear between order statistics (Hyndman-Fan type 7)
static double quantile(const double *x, size_t n, double q)
{
    double h = (double)(n - 1) * q;
    size_t lo = (size_t)floor(h);
    if (lo + 1 >= n)
        return x[n - 1];
    return x[lo] + (h - (double)lo) * (x[lo + 1] - x[lo]);
}

long mech_sobol_indices(const double *f, size_t N, int d, int B, uint64_t seed, double level, mech_sobol_index *out)
{
    size_t *rows = malloc(2 * N * sizeof *rows);
    double *s1 = malloc(2 * (size_t)d * sizeof *s1), *bs = B > 0 ? malloc((size_t)B * 2 * (size_t)d * sizeof *bs)
                                                                  : NULL, *col = B > 0 ? malloc((size_t)B * sizeof *col) : NULL;
    if (!rows || !s1 || (B > 0 && (!bs || !col))) {
        free(rows), free(s1), free(bs), free(col);
        return -1;
    }
    double *st = s1 + d;
    size_t n = 0;
    for (size_t j = 0; j < N; j++) {   /* the rows whose 2 + d runs all have a finite value */
        int ok = isfinite(f[j]) && isfinite(f[N + j]);
        for (int i = 0; i < d; i++)
            ok &= isfinite(f[2 * N + (size_t)i * N + j]) != 0;
        if (ok)
            rows[n++] = j;
    }
    for (int i = 0; i < d; i++)
        out[i] = (mech_sobol_index){NAN, NAN, NAN, NAN, NAN, NAN};
    if (n >= 2) {
        estimate(f, N, d, rows, n, s1, st);
        for (int i = 0; i < d; i++)
            out[i].s1 = s1[i], out[i].st = st[i];
        size_t *rs = rows + N;
        for (int b = 0; b < B; b++) {   /* resample b: n rows drawn with replacement from the n good rows */
            for (size_t k = 0; k < n; k++) {
                size_t pick = (size_t)(mech_sweep_u01(seed, 0x5A17E111ULL + (uint64_t)b, k) * (double)n);
                rs[k] = rows[pick < n ? pick : n - 1];
            }
            estimate(f, N, d, rs, n, bs + (size_t)b * 2 * (size_t)d, bs + (size_t)b * 2 * (size_t)d + d);
        }
        double a = 0.5 * (1 - level);
        for (int i = 0; B > 0 && i < 2 * d; i++) {
            size_t m = 0;
            for (int b = 0; b < B; b++)
                if (isfinite(bs[(size_t)b * 2 * (size_t)d + (size_t)i]))
                    col[m++] = bs[(size_t)b * 2 * (size_t)d + (size_t)i];
            if (m < 2)
                continue;
            qsort(col, m, sizeof *col, cmp_d);
            double lo = quantile(col, m, a), hi = quantile(col, m, 1 - a);
            if (i < d)
                out[i].s1_lo = lo, out[i].s1_hi = hi;
            else
                out[i - d].st_lo = lo, out[i - d].st_hi = hi;
        }
    }
    free(rows), free(s1), free(bs), free(col);
    return (long)n;
}

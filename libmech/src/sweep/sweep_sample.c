/* Unit-cube samplers and the distributions of a sweep (docs/sweep.md §Sampling).
 *
 * Every random number is a hash of (seed, run, stream) (SplitMix64's finaliser, Steele et al. 2014), so run k gets
 * the same values whichever process draws them and in whatever order. Latin hypercube: in each dimension a random
 * permutation of the n strata (Fisher-Yates driven by the hash) and a random point inside each stratum (McKay et
 * al. 1979). Sobol: GSL's gsl_qrng_sobol (Bratley-Fox / Antonov-Saleev, up to 40 dimensions; GSL skips the point 0)
 * under Owen's nested uniform scramble (Owen 1995): bit k of a coordinate is flipped by a random bit that depends on
 * the dimension, k and the bits above k. The random tree comes from the hash (as in Laine-Karras and Burley 2020),
 * not from a stored table, and each of the 32 bits is scrambled, so the scrambled points keep the (t, m, s)-net
 * property (every elementary interval of volume 2^-m holds the same number of the first 2^m points) and each point
 * is uniform on the cube. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_qrng.h>
#include "mech/sweep.h"

uint64_t mech_sweep_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static uint64_t hash3(uint64_t seed, uint64_t a, uint64_t b)
{
    return mech_sweep_mix(mech_sweep_mix(mech_sweep_mix(seed) ^ a) ^ b);
}

double mech_sweep_u01(uint64_t seed, uint64_t a, uint64_t b)
{
    /* 53 random bits, shifted by half a unit: never 0, never 1 */
    return ((double)(hash3(seed, a, b) >> 11) + 0.5) * 0x1p-53;
}

double mech_sweep_owen(double x, int dim, uint64_t seed)
{
    uint32_t v = (uint32_t)ldexp(x, 32), out = v;
    uint64_t key = hash3(seed, 0x5eedU, (uint64_t)dim);
    for (int k = 31; k >= 0; k--) {
        /* the bits above k (the node of the binary tree) and the level pick the flip */
        uint64_t prefix = k == 31 ? 0 : (uint64_t)(v >> (k + 1));
        uint64_t node = prefix | (1ULL << (32 - k));   /* a leading 1 tells prefixes of different length apart */
        if (mech_sweep_mix(key ^ node) & 1)
            out ^= 1U << k;
    }
    /* the centre of the 2^-32 cell: in (0, 1) */
    return ((double)out + 0.5) * 0x1p-32;
}

int mech_sweep_sobol_plain(size_t n, int d, double *u, hy_err *err)
{
    if (d < 1 || d > 40)
        return hy_err_set(err, HY_EARG, "Sobol sampling handles 1..40 varied keys, not %d", d);
    gsl_qrng *q = gsl_qrng_alloc(gsl_qrng_sobol, (unsigned)d);
    if (!q)
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        gsl_qrng_get(q, u + i * (size_t)d);
    gsl_qrng_free(q);
    return HY_OK;
}

int mech_sweep_sample(int method, size_t n, int d, uint64_t seed, double *u, hy_err *err)
{
    if (n == 0 || d == 0)
        return HY_OK;
    if (method == MECH_SWEEP_RANDOM) {
        for (size_t i = 0; i < n; i++)
            for (int j = 0; j < d; j++)
                u[i * (size_t)d + j] = mech_sweep_u01(seed, i, (uint64_t)j);
        return HY_OK;
    }
    if (method == MECH_SWEEP_SOBOL) {
        /* the sequence from its point 0 (the origin, which GSL skips): the net property holds for the points
           0 .. 2^m - 1, and the scramble moves the origin to a random point like any other */
        for (int j = 0; j < d; j++)
            u[j] = 0;
        int rc = mech_sweep_sobol_plain(n - 1, d, u + d, err);
        if (rc != HY_OK)
            return rc;
        for (size_t i = 0; i < n; i++)
            for (int j = 0; j < d; j++)
                u[i * (size_t)d + j] = mech_sweep_owen(u[i * (size_t)d + j], j, seed);
        return HY_OK;
    }
    if (method != MECH_SWEEP_LHS)
        return hy_err_set(err, HY_EARG, "unknown sampling method %d", method);
    size_t *perm = malloc(n * sizeof *perm);
    if (!perm)
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    for (int j = 0; j < d; j++) {
        for (size_t i = 0; i < n; i++)
            perm[i] = i;
        for (size_t i = n - 1; i > 0; i--) {   /* Fisher-Yates, stream 2 j */
            size_t k = (size_t)(mech_sweep_u01(seed, i, 2 * (uint64_t)j) * (double)(i + 1));
            if (k > i)
                k = i;
            size_t t = perm[i];
            perm[i] = perm[k], perm[k] = t;
        }
        for (size_t i = 0; i < n; i++)   /* stratum perm[i], a uniform point inside it: stream 2 j + 1 */
            u[i * (size_t)d + j] = ((double)perm[i] + mech_sweep_u01(seed, i, 2 * (uint64_t)j + 1)) / (double)n;
    }
    free(perm);
    return HY_OK;
}

double mech_sweep_dist_eval(const mech_sweep_dist_p *d, double u)
{
    switch (d->kind) {
    case MECH_SWEEP_UNIFORM:
        return d->a + u * (d->b - d->a);
    case MECH_SWEEP_NORMAL:
        return d->a + d->b * gsl_cdf_ugaussian_Pinv(u);
    case MECH_SWEEP_TNORMAL: {
        /* inverse CDF restricted to [lo, hi]: u maps into [P(lo), P(hi)] (the upper tail by symmetry, where P
           is close to 1 and loses digits) */
        double zl = (d->lo - d->a) / d->b, zh = (d->hi - d->a) / d->b, z;
        if (zl > 0) {
            double ql = gsl_cdf_ugaussian_Q(zl), qh = gsl_cdf_ugaussian_Q(zh);
            z = gsl_cdf_ugaussian_Qinv(ql + u * (qh - ql));
        } else {
            double pl = gsl_cdf_ugaussian_P(zl), ph = gsl_cdf_ugaussian_P(zh);
            z = gsl_cdf_ugaussian_Pinv(pl + u * (ph - pl));
        }
        double x = d->a + d->b * z;
        return x < d->lo ? d->lo : x > d->hi ? d->hi : x;
    }
    case MECH_SWEEP_LOGNORMAL:
        return exp(d->a + d->b * gsl_cdf_ugaussian_Pinv(u));
    case MECH_SWEEP_CHOICE:
        for (int k = 0; k < d->n; k++)
            if (u < d->cum[k])
                return k;
        return d->n - 1;
    }
    return NAN;
}

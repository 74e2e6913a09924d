// Seeded reproducible noise: xoshiro256** + splitmix64 seeding + Marsaglia polar normal deviates (hyst/noise.h).
#include <math.h>
#include "hyst/noise.h"

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

// (state x) => next splitmix64 output (Steele, Lea & Flood 2014; constants of the reference splitmix64.c)
uint64_t hy_rng_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// (seed, stream) => state filled by splitmix64 from seed ^ stream * golden ratio
void hy_rng_seed(hy_rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0x9E3779B97F4A7C15ULL);
    for (int i = 0; i < 4; i++)
        r->s[i] = hy_rng_splitmix64(&x);
    /* splitmix64 is a bijection of distinct counters, so four outputs are never all zero; keep the guard anyway
     * because an all-zero state would make xoshiro emit zeros forever. */
    if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0)
        r->s[0] = 1;
    r->spare = 0.0;
    r->has_spare = 0;
}

// (state words) => generator at that state
void hy_rng_set_state(hy_rng *r, const uint64_t s[4])
{
    for (int i = 0; i < 4; i++)
        r->s[i] = s[i];
    r->spare = 0.0;
    r->has_spare = 0;
}

// (generator) => next xoshiro256** output (reference xoshiro256starstar.c, Blackman & Vigna)
uint64_t hy_rng_u64(hy_rng *r)
{
    uint64_t *s = r->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

// (generator) => uniform in [0, 1): the top 53 bits scaled by 2^-53 (exact)
double hy_rng_uniform(hy_rng *r)
{
    return (double)(hy_rng_u64(r) >> 11) * 0x1.0p-53;
}

// (x > 0) => ln x. x = m 2^e with m in [1/sqrt2, sqrt2); ln m = 2 atanh(s), s = (m-1)/(m+1), |s| <= 0.1716, by its
// odd series to s^21 (next term < 2^-54 relative); ln 2 split in a high part exact in e*ln2_hi (fdlibm constants).
double hy_noise_log(double x)
{
    static const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
    if (!(x > 0.0) || isinf(x))
        return x == 0.0 ? -INFINITY : (x > 0.0 ? x : NAN);
    int e;
    double m = frexp(x, &e); /* exact: x = m * 2^e, m in [0.5, 1) */
    if (m < 0.70710678118654752440) {
        m *= 2.0;
        e -= 1;
    }
    double s = (m - 1.0) / (m + 1.0); /* m - 1 is exact (Sterbenz) */
    double s2 = s * s;
    double p = 1.0 / 21;
    p = 1.0 / 19 + s2 * p;
    p = 1.0 / 17 + s2 * p;
    p = 1.0 / 15 + s2 * p;
    p = 1.0 / 13 + s2 * p;
    p = 1.0 / 11 + s2 * p;
    p = 1.0 / 9 + s2 * p;
    p = 1.0 / 7 + s2 * p;
    p = 1.0 / 5 + s2 * p;
    p = 1.0 / 3 + s2 * p;
    double lnm = 2.0 * s + 2.0 * s * (s2 * p);
    return (double)e * ln2_hi + (lnm + (double)e * ln2_lo);
}

// (generator) => N(0,1) by the polar method: (u, v) uniform in the unit disc, s = u^2 + v^2,
// u*sqrt(-2 ln s / s) and v*sqrt(-2 ln s / s) are independent standard normals
double hy_rng_normal(hy_rng *r)
{
    if (r->has_spare) {
        r->has_spare = 0;
        return r->spare;
    }
    double u, v, s;
    do {
        u = 2.0 * hy_rng_uniform(r) - 1.0;
        v = 2.0 * hy_rng_uniform(r) - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    double f = sqrt(-2.0 * hy_noise_log(s) / s);
    r->spare = v * f;
    r->has_spare = 1;
    return u * f;
}

// (generator, sigma, x) => x[i] += sigma N(0,1)
void hy_noise_add(hy_rng *r, double sigma, double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        x[i] += sigma * hy_rng_normal(r);
}

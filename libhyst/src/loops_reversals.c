// Reversal points of a displacement record, robust to noise (hysteresis peak picking), and the default
// threshold derived from the data. The rules and their justification are in docs/loops.md.
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "loops_internal.h"

// (x) => IEEE-754 bits of (float)|x|; for non-negative floats the bit patterns order like the values
static inline uint32_t abs_bits(double x)
{
    float f = (float)fabs(x);
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Median of |q[i+2L] - 2 q[i+L] + q[i]| without storing the differences: a radix selection on the bit patterns of
 * their single-precision values (ample for a scale), first on the high 16 bits, then on the low 16 bits within
 * the bucket that holds the median. Two streaming passes, O(n), no data movement. Rank m/2 of m values.
 * The differences are multiplied by `scale`, a power of 2 (exact) that brings the record's range near 1, so that
 * records in any unit fit the float range (1e-38 .. 3e38); differences below 1e-38 of the range count as 0. */
// (second difference, scale 2^k) => its selection key: the bits of (float)|scale d2|
uint32_t hy_loops_d2_key(double d2, double scale)
{
    return abs_bits(scale * d2);
}

// (histogram counts[65536], rank k) => the bucket holding rank k; k made the rank within that bucket
uint32_t hy_loops_bucket(const size_t *cnt, size_t *k)
{
    size_t cum = 0;
    uint32_t b;
    for (b = 0; b < 65535 && cum + cnt[b] <= *k; b++)
        cum += cnt[b];
    *k -= cum;
    return b;
}

// (high and low 16 bits of the key, scale) => the median's value
double hy_loops_median_value(uint32_t hi, uint32_t lo, double scale)
{
    uint32_t u = hi << 16 | lo;
    float f;
    memcpy(&f, &u, sizeof f);
    return f / scale;
}

// (q[n], lag L, scale 2^k, scratch counts[65536]) => median
static double median_abs_d2(const double *q, size_t n, size_t L, double scale, size_t *cnt)
{
    size_t m = n - 2 * L, k = m / 2;
    memset(cnt, 0, 65536 * sizeof *cnt);
    for (size_t i = 0; i < m; i++)
        cnt[hy_loops_d2_key(q[i + 2 * L] - 2.0 * q[i + L] + q[i], scale) >> 16]++;
    uint32_t hi = hy_loops_bucket(cnt, &k);
    memset(cnt, 0, 65536 * sizeof *cnt);
    for (size_t i = 0; i < m; i++) {
        uint32_t u = hy_loops_d2_key(q[i + 2 * L] - 2.0 * q[i + L] + q[i], scale);
        if (u >> 16 == hi)
            cnt[u & 0xffff]++;
    }
    uint32_t lo = hy_loops_bucket(cnt, &k);
    return hy_loops_median_value(hi, lo, scale);
}

// (q[n]) => default threshold and the figures behind it
int hy_loops_default_threshold(const double *q, size_t n, hy_loops_thr *t, hy_err *err)
{
    memset(t, 0, sizeof *t);
    if (!q || n < 3)
        return hy_err_set(err, HY_EDATA, "loop analysis needs at least 3 samples, got %zu", q ? n : 0);
    double qmin = q[0], qmax = q[0];
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(q[i]))
            return hy_err_set(err, HY_EDATA, "sample %zu: q is not a finite number", i + 1);
        if (q[i] < qmin) qmin = q[i];
        if (q[i] > qmax) qmax = q[i];
    }
    double r = qmax - qmin;
    /* Noise: the second difference cancels the signal's local trend, so on a densely sampled record it is noise
     * alone, with standard deviation sqrt(6) sigma for white noise; 1.4826 x median is its robust standard
     * deviation (outliers and the few samples at reversals do not move it). Whether it really is noise is
     * told by the lag-2 second difference q[i+2] - 2 q[i] + q[i-2]: the same spread for white noise, four
     * times larger where the signal's own curvature dominates (sparse or digitised records). */
    size_t *cnt = malloc(65536 * sizeof *cnt);
    if (!cnt)
        return hy_err_set(err, HY_ENOMEM, "out of memory estimating the noise of %zu samples", n);
    int e2 = 0;
    frexp(r, &e2); /* r = f 2^e2, 0.5 <= f < 1 (e2 = 0 for r = 0) */
    double scale = ldexp(1.0, -e2);
    double med1 = median_abs_d2(q, n, 1, scale, cnt);
    double med2 = n >= 5 ? median_abs_d2(q, n, 2, scale, cnt) : 0.0;
    free(cnt);
    hy_loops_thr_rule(med1, med2, r, n, t);
    return HY_OK;
}

// (lag-1 and lag-2 median second differences, range, samples) => the threshold and the figures behind it
void hy_loops_thr_rule(double med1, double med2, double r, size_t n, hy_loops_thr *t)
{
    double sigma = 1.482602218505602 * med1 / sqrt(6.0);
    double rho = med1 > 0 ? med2 / med1 : 0.0;
    /* K: n white Gaussian samples span about 2 sqrt(2 ln n) sigma, so a back-move larger than that is not noise
     * even on a long hold at constant q; never below 6. */
    double kk = 2.0 * sqrt(2.0 * log((double)n));
    if (kk < 6.0)
        kk = 6.0;
    double h = kk * sigma, lo = HY_LOOPS_FLOOR * r, hi = HY_LOOPS_CAP * r;
    int why = HY_LOOPS_THR_NOISE;
    if (h < lo) {
        h = lo;
        why = HY_LOOPS_THR_FLOOR;
    } else if (rho > HY_LOOPS_WHITE && h > hi) {
        h = hi;
        why = HY_LOOPS_THR_CAP;
    }
    t->threshold = h;
    t->noise = sigma;
    t->noise_factor = kk;
    t->noise_ratio = rho;
    t->range = r;
    t->rule = why;
}

// (rule) => its name
const char *hy_loops_rule_name(int rule)
{
    switch (rule) {
    case HY_LOOPS_THR_USER:  return "given";
    case HY_LOOPS_THR_NOISE: return "noise";
    case HY_LOOPS_THR_FLOOR: return "floor";
    case HY_LOOPS_THR_CAP:   return "cap";
    }
    return "unknown";
}

// (list, extreme) => extreme appended, the array grown by doubling
static int push_rev(hy_reversal **rev, size_t *n, size_t *cap, size_t i, int kind)
{
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        hy_reversal *p = realloc(*rev, nc * sizeof *p);
        if (!p)
            return -1;
        *rev = p;
        *cap = nc;
    }
    (*rev)[*n].i = i;
    (*rev)[*n].kind = kind;
    (*rev)[*n].major = 0;
    (*n)++;
    return 0;
}

/* Hysteresis peak picking (the "gate" of rainflow counting): while rising, follow the running maximum; once
 * q has fallen more than h below it, that maximum is a reversal and we follow the running minimum, and so on.
 * Every sample between a reversal and its detection lies within h of it, so the extremes found are the true
 * extremes of q between reversals. The start is not a reversal: before q first moves by more than h the
 * direction is unknown. Ties keep the first sample of a flat top. */
// (q[n], threshold) => reversal points and the direction after the last one
int hy_loops_reversals(const double *q, size_t n, double h, hy_reversal **rev_out, size_t *n_out, int *dir_end,
                       hy_err *err)
{
    *rev_out = NULL;
    *n_out = 0;
    if (dir_end)
        *dir_end = 0;
    if (!q || n == 0)
        return hy_err_set(err, HY_EARG, "no samples");
    if (!(h > 0) || !isfinite(h))
        return hy_err_set(err, HY_EARG, "reversal threshold must be a positive finite number, got %g", h);
    hy_reversal *rev = NULL;
    size_t nr = 0, cap = 0, at = 0;
    hy_loops_gate g;
    hy_loops_gate_init(&g, h, q[0]);
    for (size_t i = 1; i < n; i++) {
        int kind = hy_loops_gate_push(&g, i, q[i], &at);
        if (kind && push_rev(&rev, &nr, &cap, at, kind))
            goto nomem;
    }
    int dir = g.dir;
    *rev_out = rev;
    *n_out = nr;
    if (dir_end)
        *dir_end = dir;
    return HY_OK;
nomem:
    free(rev);
    return hy_err_set(err, HY_ENOMEM, "out of memory storing %zu reversal points", nr);
}

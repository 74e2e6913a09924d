/* Time alignment of a measured record to its run (issue 45, docs/compare.md §3).
 *
 * Cross-correlation: both channels are resampled onto one uniform grid of step h from a common origin (linear
 * interpolation inside each record, zero and masked outside). For a shift of k samples the mean squared difference
 * over the overlap is
 *     D(k) = (sum a_i^2 + sum b_{i+k}^2 - 2 sum a_i b_{i+k}) / count(k),   i over the overlap,
 * the energies from prefix sums, the cross term C(k) = sum a_i b_{i+k} for every k at once by FFT (GSL's radix-2
 * complex transform of the zero-padded grids: C = IFFT(conj(FFT a) FFT b)). The smallest D within the search range is
 * refined by the parabola through D(k-1), D(k), D(k+1), computed directly (the FFT's rounding does not enter the
 * sub-sample step). Minimising D rather than maximising C alone keeps a changing overlap from biasing the lag.
 *
 * Event: the first time each |channel| reaches a fraction of its own peak, interpolated between samples. */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fft_complex.h>
#include <gsl/gsl_min.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "mech/compare.h"
#include "compare_internal.h"

// (t[n] increasing, v, time) => v linearly interpolated at time (inside [t0, t_{n-1}]); *j a moving search hint
double compare_interp(const double *t, const double *v, size_t n, double x, size_t *j)
{
    size_t i = *j;
    if (i >= n - 1 || t[i] > x)
        i = 0;
    while (i + 2 < n && t[i + 1] <= x)
        i++;
    *j = i;
    double dt = t[i + 1] - t[i];
    double w = (x - t[i]) / dt;
    if (w <= 0)
        return v[i];
    if (w >= 1)
        return v[i + 1];
    return v[i] + w * (v[i + 1] - v[i]);
}

// (record, grid origin T0, h, M cells) => g[M] the record on the grid (0 outside), [*lo, *hi] its cells
static void on_grid(const double *t, const double *v, size_t n, double T0, double h, size_t M, double *g, long *lo,
                    long *hi)
{
    long a = (long)ceil((t[0] - T0) / h - 1e-9), b = (long)floor((t[n - 1] - T0) / h + 1e-9);
    if (a < 0)
        a = 0;
    if (b > (long)M - 1)
        b = (long)M - 1;
    size_t j = 0;
    for (long i = 0; i < (long)M; i++) {
        if (i < a || i > b) {
            g[i] = 0;
            continue;
        }
        double x = T0 + (double)i * h;
        if (x < t[0])
            x = t[0];
        if (x > t[n - 1])
            x = t[n - 1];
        g[i] = compare_interp(t, v, n, x, &j);
    }
    *lo = a, *hi = b;
}

// (grids, their cells, shift k) => D(k) computed directly, *cnt the overlap
static double msd_direct(const double *a, long alo, long ahi, const double *b, long blo, long bhi, long k, long *cnt)
{
    long lo = alo > blo - k ? alo : blo - k, hi = ahi < bhi - k ? ahi : bhi - k;
    *cnt = hi >= lo ? hi - lo + 1 : 0;
    if (*cnt <= 0)
        return INFINITY;
    double s = 0;
    for (long i = lo; i <= hi; i++) {
        double d = a[i] - b[i + k];
        s += d * d;
    }
    return s / (double)*cnt;
}

double compare_derive_at(const double *t, const double *v, size_t n, int d, size_t i)
{
    if (n >= 4 && (i == 0 || i == n - 1)) { /* an end: the two nearest interior values extrapolated linearly */
        size_t a = i == 0 ? 1 : n - 2, b = i == 0 ? 2 : n - 3;
        double da = compare_derive_at(t, v, n, d, a), db = compare_derive_at(t, v, n, d, b);
        return da + (da - db) * (t[i] - t[a]) / (t[a] - t[b]);
    }
    if (i < 1)
        i = 1;
    if (i > n - 2)
        i = n - 2;
    double h1 = t[i] - t[i - 1], h2 = t[i + 1] - t[i];
    if (d == 1)
        return -h2 / (h1 * (h1 + h2)) * v[i - 1] + (h2 - h1) / (h1 * h2) * v[i] + h1 / (h2 * (h1 + h2)) * v[i + 1];
    return 2 * (h1 * v[i + 1] - (h1 + h2) * v[i] + h2 * v[i - 1]) / (h1 * h2 * (h1 + h2));
}

double compare_interp_d(const double *t, const double *v, size_t n, int d, double x, size_t *j)
{
    if (d == 0)
        return compare_interp(t, v, n, x, j);
    compare_interp(t, v, n, x, j); /* the interval: t[*j] <= x < t[*j + 1] */
    size_t i = *j;
    double w = (x - t[i]) / (t[i + 1] - t[i]);
    w = w < 0 ? 0 : w > 1 ? 1 : w;
    double a = compare_derive_at(t, v, n, d, i), b = compare_derive_at(t, v, n, d, i + 1);
    return a + w * (b - a);
}

typedef struct msd_ctx {
    const double *ta, *a, *tb, *b;
    size_t na, j0, j1;  /* the measured samples j0..j1 used for every L of the bracket */
} msd_ctx;

// (L, ctx) => the mean over the measured samples j0..j1 of (b_j - a(tb_j - L))^2, a linearly interpolated
static double msd_at(double L, void *p)
{
    const msd_ctx *m = p;
    size_t h = 0;
    double s = 0;
    for (size_t j = m->j0; j <= m->j1; j++) {
        double x = m->tb[j] - L;
        if (x < m->ta[0])
            x = m->ta[0];
        if (x > m->ta[m->na - 1])
            x = m->ta[m->na - 1];
        double d = m->b[j] - compare_interp(m->ta, m->a, m->na, x, &h);
        s += d * d;
    }
    return s / (double)(m->j1 - m->j0 + 1);
}

// (records, bracket [lo, hi], *lag inside it) => *lag refined by Brent's method when the bracket holds
static void refine(const double *ta, const double *a, size_t na, const double *tb, const double *b, size_t nb,
                   double lo, double hi, double *lag)
{
    msd_ctx m = {ta, a, tb, b, na, 0, 0};
    /* the measured samples inside the run's span for every L in [lo, hi] */
    double s0 = ta[0] + hi, s1 = ta[na - 1] + lo;
    while (m.j0 < nb && tb[m.j0] < s0)
        m.j0++;
    m.j1 = nb;
    while (m.j1 > 0 && tb[m.j1 - 1] > s1)
        m.j1--;
    if (m.j0 >= m.j1 || m.j1 - m.j0 < 3)
        return;
    m.j1--;
    double x = *lag, fx = msd_at(x, &m), flo = msd_at(lo, &m), fhi = msd_at(hi, &m);
    if (!(fx < flo && fx < fhi))
        return;
    gsl_function F = {msd_at, &m};
    gsl_min_fminimizer *mz = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
    if (!mz)
        return;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    if (gsl_min_fminimizer_set_with_values(mz, &F, x, fx, lo, flo, hi, fhi) == GSL_SUCCESS) {
        for (int it = 0; it < 100; it++) {
            if (gsl_min_fminimizer_iterate(mz) != GSL_SUCCESS)
                break;
            double l = gsl_min_fminimizer_x_lower(mz), u = gsl_min_fminimizer_x_upper(mz);
            if (gsl_min_test_interval(l, u, 1e-9 * (hi - lo), 0) == GSL_SUCCESS)
                break;
        }
        double xb = gsl_min_fminimizer_x_minimum(mz);
        if (msd_at(xb, &m) < fx) /* only a better lag replaces the parabola's (a run against itself: exactly 0) */
            *lag = xb;
    }
    gsl_set_error_handler(old);
    gsl_min_fminimizer_free(mz);
}

// (run channel, measured channel, h, max |lag|) => *lag with b(t) ~ a(t - lag)
int mech_compare_xcorr_lag(const double *ta, const double *a, size_t na, const double *tb, const double *b, size_t nb,
                           double h, double max_lag, double *lag, hy_err *err)
{
    *lag = NAN;
    if (na < 2 || nb < 2 || !(h > 0) || !isfinite(h) || !(max_lag >= 0))
        return hy_err_set(err, HY_EARG, "cross-correlation: at least 2 samples each, a positive step and a lag limit "
                          "expected");
    double T0 = ta[0] < tb[0] ? ta[0] : tb[0];
    double T1 = ta[na - 1] > tb[nb - 1] ? ta[na - 1] : tb[nb - 1];
    double cells = floor((T1 - T0) / h + 1e-9) + 1;
    if (cells > (double)(1L << 24))
        return hy_err_set(err, HY_EDATA, "cross-correlation: %.0f grid samples of %g s over %g s, expected at most "
                          "2^24 (give a larger grid step, \"dt\")", cells, h, T1 - T0);
    size_t N = (size_t)cells, M = 1;
    while (M < 2 * N)
        M *= 2;
    double *ga = malloc(N * sizeof *ga), *gb = malloc(N * sizeof *gb);
    double *fa = calloc(2 * M, sizeof *fa), *fb = calloc(2 * M, sizeof *fb);
    double *ea = malloc((N + 1) * sizeof *ea), *eb = malloc((N + 1) * sizeof *eb);
    int rc = HY_OK;
    if (!ga || !gb || !fa || !fb || !ea || !eb) {
        rc = hy_err_set(err, HY_ENOMEM, "cross-correlation: out of memory (%zu grid samples)", N);
        goto done;
    }
    long alo, ahi, blo, bhi;
    on_grid(ta, a, na, T0, h, N, ga, &alo, &ahi);
    on_grid(tb, b, nb, T0, h, N, gb, &blo, &bhi);
    ea[0] = eb[0] = 0;
    for (size_t i = 0; i < N; i++) {
        ea[i + 1] = ea[i] + ga[i] * ga[i];
        eb[i + 1] = eb[i] + gb[i] * gb[i];
        fa[2 * i] = ga[i];
        fb[2 * i] = gb[i];
    }
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int g1 = gsl_fft_complex_radix2_forward(fa, 1, M);
    int g2 = gsl_fft_complex_radix2_forward(fb, 1, M);
    for (size_t i = 0; i < M; i++) { /* conj(A) B */
        double ar = fa[2 * i], ai = fa[2 * i + 1], br = fb[2 * i], bi = fb[2 * i + 1];
        fa[2 * i] = ar * br + ai * bi;
        fa[2 * i + 1] = ar * bi - ai * br;
    }
    int g3 = gsl_fft_complex_radix2_inverse(fa, 1, M);
    gsl_set_error_handler(old);
    if (g1 || g2 || g3) {
        rc = hy_err_set(err, HY_ENUMERIC, "cross-correlation: the FFT failed (%s)", gsl_strerror(g1 ? g1 : g2 ? g2 : g3));
        goto done;
    }
    /* the shortest record's quarter must overlap at every shift searched */
    long minc = (ahi - alo + 1) < (bhi - blo + 1) ? (ahi - alo + 1) : (bhi - blo + 1);
    minc = minc / 4 > 2 ? minc / 4 : 2;
    long K = (long)floor(max_lag / h + 1e-9);
    if (K > (long)N - 1)
        K = (long)N - 1;
    long best = 0;
    double bestD = INFINITY;
    for (long k = -K; k <= K; k++) {
        long lo = alo > blo - k ? alo : blo - k, hi = ahi < bhi - k ? ahi : bhi - k;
        long cnt = hi - lo + 1;
        if (cnt < minc)
            continue;
        double C = fa[2 * (size_t)(k >= 0 ? k : (long)M + k)];  /* sum_i a_i b_{i+k} */
        double D = (ea[hi + 1] - ea[lo] + eb[hi + k + 1] - eb[lo + k] - 2 * C) / (double)cnt;
        if (D < bestD)
            bestD = D, best = k;
    }
    if (!isfinite(bestD)) {
        rc = hy_err_set(err, HY_EDATA, "cross-correlation: the records overlap by less than a quarter of the shorter "
                        "at every lag up to %g s", max_lag);
        goto done;
    }
    /* the neighbours of the grid minimum, exactly */
    long c0, cm, cp;
    double D0 = msd_direct(ga, alo, ahi, gb, blo, bhi, best, &c0);
    double Dm = best > -K ? msd_direct(ga, alo, ahi, gb, blo, bhi, best - 1, &cm) : INFINITY;
    double Dp = best < K ? msd_direct(ga, alo, ahi, gb, blo, bhi, best + 1, &cp) : INFINITY;
    if (!isfinite(Dm) || !isfinite(Dp)) {
        rc = hy_err_set(err, HY_EDATA, "cross-correlation: the best lag %g s is at the search limit %g s (give a "
                        "larger \"max_lag\")", (double)best * h, max_lag);
        goto done;
    }
    double curv = Dm - 2 * D0 + Dp;
    if (!(curv > 0) || (Dm < D0 && Dp < D0)) {
        rc = hy_err_set(err, HY_EDATA, "cross-correlation: no minimum of the mean squared difference (a flat "
                        "channel?)");
        goto done;
    }
    double d = 0.5 * (Dm - Dp) / curv;
    if (d > 0.5)
        d = 0.5;
    if (d < -0.5)
        d = -0.5;
    *lag = ((double)best + d) * h;
    /* the continuous refinement: Brent's minimiser (GSL) of the mean squared difference between the measured
       samples and the run interpolated at t - L, over L in [best - 1, best + 1] h; where the parabola's bracket
       does not hold (D not below both ends) the parabola's estimate stays */
    refine(ta, a, na, tb, b, nb, ((double)best - 1) * h, ((double)best + 1) * h, lag);
done:
    free(ga), free(gb), free(fa), free(fb), free(ea), free(eb);
    return rc;
}

// (t[n], v, level) => the first time |v| reaches level x max |v|, interpolated; NaN for a flat channel
static double first_crossing(const double *t, const double *v, size_t n, double level)
{
    double peak = 0;
    for (size_t i = 0; i < n; i++)
        if (fabs(v[i]) > peak)
            peak = fabs(v[i]);
    if (!(peak > 0))
        return NAN;
    double th = level * peak;
    for (size_t i = 0; i < n; i++)
        if (fabs(v[i]) >= th) {
            if (i == 0)
                return t[0];
            double a = fabs(v[i - 1]), b = fabs(v[i]);
            return t[i - 1] + (th - a) / (b - a) * (t[i] - t[i - 1]);
        }
    return NAN;
}

// (run channel, measured channel, level) => *lag = t_b - t_a of the first crossings
int mech_compare_event_lag(const double *ta, const double *a, size_t na, const double *tb, const double *b, size_t nb,
                           double level, double *lag, hy_err *err)
{
    *lag = NAN;
    if (na < 2 || nb < 2 || !(level > 0 && level < 1))
        return hy_err_set(err, HY_EARG, "event alignment: at least 2 samples each and a level in (0, 1) expected");
    double xa = first_crossing(ta, a, na, level), xb = first_crossing(tb, b, nb, level);
    if (isnan(xa) || isnan(xb))
        return hy_err_set(err, HY_EDATA, "event alignment: the %s channel is zero throughout: no event",
                          isnan(xa) ? "run's" : "measured");
    *lag = xb - xa;
    return HY_OK;
}

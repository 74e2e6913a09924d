/* The sensor's anti-alias filter applied to a prediction (issue 45, docs/compare.md §2 "filter", docs/calibrate.md
 * §3): a measured channel went through the acquisition's causal low-pass before it was sampled, so the simulated
 * channel it is compared with goes through the same filter first; otherwise the filter's delay and its attenuation
 * near the cut-off read as a model error (a stiffer or more damped element, a later clock).
 *
 * The filter is the analog Butterworth low-pass the test engineer states (order n, cut-off fc at -3.01 dB), made
 * digital by the bilinear transform with the cut-off pre-warped (wa = 2 fs tan(pi fc / fs)), run as second-order
 * sections in direct form II transposed at fs = max(20 kHz, 20 fc) on a uniform grid of the run (linear between
 * its samples), from rest at the first value. This is the design and the realisation of scripts/make-virtual-test,
 * so a virtual record and its model see one sensor. Its magnitude is the closed form
 *     |H(e^{j w/fs})| = 1 / sqrt(1 + (tan(pi f / fs) / tan(pi fc / fs))^(2n))
 * (tests/unit/test_compare_filter.c checks it, and the DC delay 1 / (wa sin(pi / 2n))).
 *
 * GSL has no IIR design and no Debian C library in the project's dependencies designs one; the closed form is a
 * dozen lines (the poles of the analog prototype evenly on a half circle). */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include "mech/compare.h"
#include "compare_internal.h"

double mech_compare_filter_rate(const mech_compare_filter *f)
{
    return fmax(MECH_COMPARE_FILTER_RATE, 20 * f->cutoff);
}

int mech_compare_filter_check(const mech_compare_filter *f, double fs_record, const char *name, const char *key,
                              hy_err *err)
{
    if (f->order < 1 || f->order > MECH_COMPARE_FILTER_MAX_ORDER)
        return hy_err_set(err, HY_EDATA, "%s: %s.order: %d, expected an integer 1..%d", name, key, f->order,
                          MECH_COMPARE_FILTER_MAX_ORDER);
    if (!(f->cutoff > 0) || !isfinite(f->cutoff))
        return hy_err_set(err, HY_EDATA, "%s: %s.cutoff: %g Hz, expected a positive frequency", name, key, f->cutoff);
    if (fs_record > 0 && !(f->cutoff < fs_record / 2))
        return hy_err_set(err, HY_EDATA, "%s: %s.cutoff: %g Hz, at or above the record's Nyquist frequency %g Hz "
                          "(sampled at %g Hz): an anti-alias filter cuts below it", name, key, f->cutoff,
                          fs_record / 2, fs_record);
    return HY_OK;
}

int mech_compare_butter_sos(int order, double fc, double fs, double sos[][5])
{
    if (order < 1 || order > MECH_COMPARE_FILTER_MAX_ORDER || !(fc > 0) || !(fc < fs / 2))
        return -1;
    double wa = 2 * fs * tan(M_PI * fc / fs);
    int ns = 0;
    /* the analog poles wa exp(j pi (2k + n + 1) / 2n), k = 0..n-1; those with Im > 0 paired with their conjugates,
       the real one (odd n) alone */
    for (int k = 0; k < order; k++) {
        double complex p = wa * cexp(I * M_PI * (2.0 * k + order + 1) / (2.0 * order));
        double complex z = (1 + p / (2 * fs)) / (1 - p / (2 * fs));
        if (2 * k + 1 == order) {          /* the real pole -wa: a first-order section, zero at z = -1 */
            double g = (1 - creal(z)) / 2;
            sos[ns][0] = g, sos[ns][1] = g, sos[ns][2] = 0, sos[ns][3] = -creal(z), sos[ns][4] = 0;
            ns++;
        } else if (cimag(p) > 0) {         /* a conjugate pair: double zero at z = -1, unit gain at DC */
            double a1 = -2 * creal(z), a2 = creal(z) * creal(z) + cimag(z) * cimag(z);
            double g = (1 + a1 + a2) / 4;
            sos[ns][0] = g, sos[ns][1] = 2 * g, sos[ns][2] = g, sos[ns][3] = a1, sos[ns][4] = a2;
            ns++;
        }
    }
    return ns;
}

void mech_compare_sos_run(const double sos[][5], int nsec, double *x, size_t n)
{
    if (n == 0)
        return;
    for (int s = 0; s < nsec; s++) {
        double b0 = sos[s][0], b1 = sos[s][1], b2 = sos[s][2], a1 = sos[s][3], a2 = sos[s][4];
        /* at rest on the first value: the states a constant input x0 leaves (unit DC gain) */
        double x0 = x[0], s1 = x0 * (b1 + b2 - a1 - a2), s2 = x0 * (b2 - a2);
        for (size_t i = 0; i < n; i++) {
            double v = x[i], o = b0 * v + s1;
            s1 = b1 * v - a1 * o + s2;
            s2 = b2 * v - a2 * o;
            x[i] = o;
        }
    }
}

int mech_compare_sensor_grid(const mech_compare_filter *f, int nch, double t0, double t1, double *h, size_t *n)
{
    double fs = 0;
    for (int k = 0; k < nch; k++)
        if (f[k].order > 0)
            fs = fmax(fs, mech_compare_filter_rate(&f[k]));
    if (fs == 0 || !(t1 > t0))
        return 0;
    *h = 1 / fs;
    *n = (size_t)floor((t1 - t0) * fs * (1 + 1e-12)) + 1;
    return 1;
}

int mech_compare_sensor_channel(const mech_compare_filter *f, const double *t, const double *v, size_t n,
                                size_t stride, double t0, double h, size_t ng, double *out, hy_err *err)
{
    if (n < 2)
        return hy_err_set(err, HY_EDATA, "the sensor model: fewer than 2 samples");
    size_t j = 0;
    double tn = t[n - 1];
    for (size_t i = 0; i < ng; i++) {
        double x = fmin(t0 + (double)i * h, tn);
        while (j + 2 < n && t[j + 1] <= x)
            j++;
        double dt = t[j + 1] - t[j], w = dt > 0 ? (x - t[j]) / dt : 1;
        w = fmin(fmax(w, 0), 1);
        out[i] = v[j * stride] + w * (v[(j + 1) * stride] - v[j * stride]);
    }
    if (f && f->order > 0) {
        double sos[(MECH_COMPARE_FILTER_MAX_ORDER + 1) / 2][5];
        int ns = mech_compare_butter_sos(f->order, f->cutoff, 1 / h, sos);
        if (ns < 0)
            return hy_err_set(err, HY_EDATA, "the sensor model: a Butterworth of order %d at %g Hz cannot be made at "
                              "%g Hz", f->order, f->cutoff, 1 / h);
        mech_compare_sos_run((const double(*)[5])sos, ns, out, ng);
    }
    return HY_OK;
}

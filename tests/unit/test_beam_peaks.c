/* mech_beam_peaks_add / mech_beam_peaks_settling (beam_peaks.c: the peaks and the settling time `mech beam sim
 * --summary` and a sweep's beam run report) against a scan of the whole record afterwards (the definitions applied
 * to the kept samples): the first sample with the largest |value|, and the last sample whose |w_tip| exceeds 5 % of
 * the record's peak. Records: decaying oscillations whose peak comes late (after a first, smaller burst), a record
 * that never settles, ties, a record of zeros and one of a single sample. The settling time is exact, not an
 * approximation: a sample after the peak is compared with the final peak, the peak sample is later than all before. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "mech/beam.h"

#define N 4000

// (record w[n], dt) => the settling time by a scan of the whole record (NAN: the last sample is outside the band)
static double scan_settling(const double *w, int n, double dt)
{
    double P = 0;
    for (int i = 0; i < n; i++)
        P = fmax(P, fabs(w[i]));
    int last = -1;
    for (int i = 0; i < n; i++)
        if (fabs(w[i]) > MECH_BEAM_SETTLE_BAND * P)
            last = i;
    if (last == n - 1)
        return NAN;
    return last < 0 ? 0 : last * dt;
}

// (record) => streamed through mech_beam_peaks_add; the peak and the settling time compared with the scan
static void check(const double *w, int n, double dt)
{
    double M[1] = {0}, q[1] = {0};
    mech_beam_peaks p;
    memset(&p, 0, sizeof p);
    p.nh = 1;
    int ipk = 0;
    for (int i = 0; i < n; i++) {
        mech_beam_obs o;
        memset(&o, 0, sizeof o);
        o.t = i * dt, o.w_tip = w[i], o.dtheta = q, o.M = M;
        q[0] = -w[i], M[0] = 2 * w[i];
        mech_beam_peaks_add(&p, (size_t)i, &o);
        if (fabs(w[i]) > fabs(w[ipk]))
            ipk = i;
    }
    assert_true(p.pk[0].v == w[ipk] && p.pk[0].t == ipk * dt);   /* the first of equal peaks */
    assert_true(p.pq[0].v == -w[ipk] && p.pM[0].v == 2 * w[ipk]);
    double a = mech_beam_peaks_settling(&p), b = scan_settling(w, n, dt);
    if (isnan(b))
        assert_true(isnan(a));
    else
        assert_true(a == b);
}

static void settling_equals_a_scan(void **state)
{
    (void)state;
    static double w[N];
    double dt = 1e-3;
    /* a small burst, then a larger one that decays: the running peak rises mid-record */
    for (int k = 0; k < 40; k++) {
        double z = 0.01 + 0.01 * k, f = 3 + 0.5 * (k % 7), t2 = 0.3 + 0.02 * (k % 5);
        for (int i = 0; i < N; i++) {
            double t = i * dt;
            w[i] = 0.2 * exp(-5 * t) * sin(2 * M_PI * 7 * t) +
                   (t > t2 ? exp(-z * 2 * M_PI * f * (t - t2)) * sin(2 * M_PI * f * (t - t2)) : 0);
        }
        check(w, N, dt);
    }
    for (int i = 0; i < N; i++)   /* undamped: never settles */
        w[i] = sin(2 * M_PI * 2 * i * dt);
    check(w, N, dt);
    for (int i = 0; i < N; i++)   /* ties: +-1 everywhere, then zeros: the first sample is the peak */
        w[i] = i < N / 2 ? (i % 2 ? -1.0 : 1.0) : 0.0;
    check(w, N, dt);
    memset(w, 0, sizeof w);       /* nothing moves: settled from the start */
    check(w, N, dt);
    w[0] = 3;
    check(w, 1, dt);              /* one sample, outside its own band: not settled */
}

static void settling_values(void **state)
{
    (void)state;
    /* by hand: |w| = 1, 0.5, 0.04, 0.06, 0.01, 0.0: the band is 0.05; the last sample above it is 0.06 at 0.3 s */
    static const double w[] = {1, -0.5, 0.04, -0.06, 0.01, 0};
    check(w, 6, 0.1);
    mech_beam_peaks p;
    memset(&p, 0, sizeof p);
    for (int i = 0; i < 6; i++) {
        mech_beam_obs o;
        memset(&o, 0, sizeof o);
        o.t = i * 0.1, o.w_tip = w[i];
        mech_beam_peaks_add(&p, (size_t)i, &o);
    }
    assert_true(mech_beam_peaks_settling(&p) == 3 * 0.1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(settling_equals_a_scan), cmocka_unit_test(settling_values)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

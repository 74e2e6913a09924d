/* The sensor's anti-alias filter on a prediction (libmech/src/compare/compare_filter.c; docs/compare.md §2): the
 * bilinear-transformed Butterworth against its closed-form magnitude
 *     |H| = 1 / sqrt(1 + (tan(pi f / fs) / tan(pi fc / fs))^(2n)),
 * against scripts/make-virtual-test's design (a second implementation, the one the virtual records were made with),
 * its DC delay against the closed form 1 / (wa sin(pi / 2n)) (a ramp lags by it), its steady-state response to a
 * sine against |H| and the phase of the analog prototype's poles; the map's "filter" keys and their refusals;
 * `mech compare` with the filter on the prediction against a record of the filtered signal. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mech/compare.h"

// (sections, f, fs) => H(e^{j 2 pi f / fs}) of the cascade
static double complex response(const double sos[][5], int ns, double f, double fs)
{
    double complex z1 = cexp(-2 * M_PI * I * f / fs), h = 1;   /* z^-1 */
    for (int s = 0; s < ns; s++)
        h *= (sos[s][0] + sos[s][1] * z1 + sos[s][2] * z1 * z1) / (1 + sos[s][3] * z1 + sos[s][4] * z1 * z1);
    return h;
}

static void magnitude_closed_form(void **state)
{
    (void)state;
    const double fs = 20000, fcs[] = {200, 1000, 3000};
    const double fr[] = {0, 10, 100, 199, 200, 201, 400, 1000, 2500, 6000, 9990};
    for (int n = 1; n <= MECH_COMPARE_FILTER_MAX_ORDER; n++)
        for (int c = 0; c < 3; c++) {
            double sos[4][5];
            int ns = mech_compare_butter_sos(n, fcs[c], fs, sos);
            assert_int_equal(ns, (n + 1) / 2);
            for (size_t i = 0; i < sizeof fr / sizeof *fr; i++) {
                double r = tan(M_PI * fr[i] / fs) / tan(M_PI * fcs[c] / fs);
                double want = 1 / sqrt(1 + pow(r, 2 * n)), got = cabs(response((const double(*)[5])sos, ns, fr[i], fs));
                /* rounding only, relative (the stop band's values are tiny): near the Nyquist frequency the zeros'
                   1 + 1/z is 1.6e-3 at 9990 Hz and loses three digits per section (1.1e-11 measured at n = 3) */
                assert_true(fabs(got - want) <= 1e-9 * want);
            }
            assert_true(fabs(cabs(response((const double(*)[5])sos, ns, fcs[c], fs)) - M_SQRT1_2) < 1e-12);
        }
    /* refused designs */
    double sos[5][5];
    assert_int_equal(mech_compare_butter_sos(0, 200, fs, sos), -1);
    assert_int_equal(mech_compare_butter_sos(9, 200, fs, sos), -1);
    assert_int_equal(mech_compare_butter_sos(4, 10000, fs, sos), -1);
    assert_int_equal(mech_compare_butter_sos(4, 0, fs, sos), -1);
}

/* scripts/make-virtual-test's butter_sos(order, fc, 20000), printed by
 *   /usr/bin/python3 -c "import importlib.machinery as M, importlib.util as U; l = M.SourceFileLoader('m',
 *   'scripts/make-virtual-test'); m = U.module_from_spec(U.spec_from_loader('m', l)); l.exec_module(m);
 *   print(m.butter_sos(4, 200.0, 20000.0), m.butter_sos(3, 1000.0, 20000.0))"                          (%.17g) */
static void same_as_virtual_test(void **state)
{
    (void)state;
    static const double ref4[2][5] = {
        {0.00096348432551227048, 0.001926968651024541, 0.00096348432551227048, -1.9492159580258417,
         0.95306989532789077},
        {0.00093253841562948581, 0.0018650768312589716, 0.00093253841562948581, -1.8866095826215064,
         0.8903397362840243}};
    static const double ref3[2][5] = {
        {0.021196675392203185, 0.04239335078440637, 0.021196675392203185, -1.647552215703991, 0.73233891727280376},
        {0.13672873599731949, 0.13672873599731949, 0, -0.72654252800536101, 0}};
    double sos[4][5];
    assert_int_equal(mech_compare_butter_sos(4, 200, 20000, sos), 2);
    for (int s = 0; s < 2; s++)
        for (int j = 0; j < 5; j++)   /* the same formulas in another order of operations: 1e-14 relative */
            assert_true(fabs(sos[s][j] - ref4[s][j]) <= 1e-13 * fabs(ref4[s][j]));
    assert_int_equal(mech_compare_butter_sos(3, 1000, 20000, sos), 2);
    for (int s = 0; s < 2; s++)
        for (int j = 0; j < 5; j++)
            assert_true(fabs(sos[s][j] - ref3[s][j]) <= 1e-13 * fabs(ref3[s][j]));
}

/* A ramp through a unit-DC-gain low-pass lags, once the start has died out, by the DC group delay; for the
 * Butterworth 1 / (wa sin(pi / 2n)) (n = 1: 1/wa, the RC lag; n = 2: sqrt 2 / wa), wa the pre-warped cut-off; the
 * bilinear map keeps the DC delay (d wa / d w = 1 at 0). */
static void ramp_delay(void **state)
{
    (void)state;
    const double fs = 20000, fc = 200;
    size_t n = 8000;   /* 0.4 s: the slowest pole decays as exp(-wa sin(pi/2n) t), e^-75 at n = 8 */
    double *x = malloc(n * sizeof *x);
    for (int ord = 1; ord <= 8; ord++) {
        for (size_t i = 0; i < n; i++)
            x[i] = (double)i / fs;
        double sos[4][5];
        int ns = mech_compare_butter_sos(ord, fc, fs, sos);
        mech_compare_sos_run((const double(*)[5])sos, ns, x, n);
        double wa = 2 * fs * tan(M_PI * fc / fs), tau = 1 / (wa * sin(M_PI / (2 * ord)));
        double lag = (double)(n - 1) / fs - x[n - 1];
        assert_true(fabs(lag - tau) < 1e-9 * tau);
    }
    /* a constant input stays where it is (the filter starts at rest on the first value) */
    for (size_t i = 0; i < n; i++)
        x[i] = 3.25;
    double sos[4][5];
    mech_compare_sos_run((const double(*)[5])sos, mech_compare_butter_sos(4, fc, fs, sos), x, n);
    for (size_t i = 0; i < n; i++)
        assert_true(fabs(x[i] - 3.25) < 1e-12);
    free(x);
}

/* The sensor model on an irregular run: without a filter, the run linear between its samples; with one, a sine's
 * steady state is |H| sin(w t + arg H) (arg H from the analog prototype's poles at the pre-warped frequency). */
static void sensor_channel(void **state)
{
    (void)state;
    size_t n = 3001;
    double *t = malloc(n * sizeof *t), *v = malloc(2 * n * sizeof *v);
    const double f = 60, fc = 200;
    for (size_t i = 0; i < n; i++) {   /* steps of 0.1 to 0.5 ms, two channels interleaved */
        t[i] = i ? t[i - 1] + 1e-4 * (1 + 4 * ((i * 7) % 5) / 4.0) : 0;
        v[2 * i] = sin(2 * M_PI * f * t[i]);
        v[2 * i + 1] = 2 * t[i];
    }
    mech_compare_filter fl[2] = {{4, fc}, {0, 0}};
    double h;
    size_t ng;
    assert_int_equal(mech_compare_sensor_grid(fl, 2, t[0], t[n - 1], &h, &ng), 1);
    assert_true(fabs(h - 1 / 20000.0) < 1e-18);
    assert_true(ng >= 2 && (double)(ng - 1) * h <= t[n - 1] + 1e-12 && (double)ng * h > t[n - 1]);
    double *out = malloc(ng * sizeof *out);
    hy_err err;
    /* the unfiltered ramp: exact on the grid */
    assert_int_equal(mech_compare_sensor_channel(&fl[1], t, v + 1, n, 2, t[0], h, ng, out, &err), HY_OK);
    for (size_t i = 0; i < ng; i++)
        assert_true(fabs(out[i] - 2 * (double)i * h) < 1e-12);
    /* the filtered sine after 0.2 s */
    assert_int_equal(mech_compare_sensor_channel(&fl[0], t, v, n, 2, t[0], h, ng, out, &err), HY_OK);
    double fs = 1 / h, wa = 2 * fs * tan(M_PI * fc / fs), W = 2 * fs * tan(M_PI * f / fs);
    double complex H = 1;
    for (int k = 0; k < 4; k++) {
        double complex p = wa * cexp(I * M_PI * (2.0 * k + 4 + 1) / 8);
        H *= -p / (I * W - p);
    }
    double err_max = 0;
    for (size_t i = (size_t)(0.2 * fs); i < ng; i++) {
        double tt = (double)i * h, want = cabs(H) * sin(2 * M_PI * f * tt + carg(H));
        err_max = fmax(err_max, fabs(out[i] - want));
    }
    /* the input is the sine linear between 0.1-0.5 ms steps: its error (w dt)^2 / 8 <= 7e-3 is low-passed, not
       removed (the error's 2-10 kHz content is attenuated by the filter to below 1e-4) */
    assert_true(err_max < 2e-3);
    assert_true(fabs(cabs(H) - 1 / sqrt(1 + pow(W / wa, 8))) < 1e-12);
    /* no filter at all: no grid */
    mech_compare_filter none[2] = {{0, 0}, {0, 0}};
    assert_int_equal(mech_compare_sensor_grid(none, 2, 0, 1, &h, &ng), 0);
    free(t), free(v), free(out);
}

static void filter_keys(void **state)
{
    (void)state;
    mech_compare_map m;
    hy_err err;
    const char *ok = "{\"format\": \"mech-compare-map\", \"filter\": {\"order\": 4, \"cutoff\": 200},"
                     " \"channels\": [{\"measured\": \"a\"},"
                     " {\"measured\": \"b\", \"filter\": {\"order\": 2, \"cutoff\": 90}}]}";
    assert_int_equal(mech_compare_map_parse(ok, strlen(ok), "m.json", &m, &err), HY_OK);
    assert_int_equal(m.ch[0].filter.order, 4);
    assert_true(m.ch[0].filter.cutoff == 200);
    assert_int_equal(m.ch[1].filter.order, 2);
    assert_true(m.ch[1].filter.cutoff == 90);
    static const struct { const char *filter, *msg; } bad[] = {
        {"{\"order\": 0, \"cutoff\": 200}", "m.json: channels[0].filter.order: 0, expected an integer 1..8"},
        {"{\"order\": 9, \"cutoff\": 200}", "m.json: channels[0].filter.order: 9, expected an integer 1..8"},
        {"{\"order\": 2.5, \"cutoff\": 200}",
         "m.json: channels[0].filter.order: expected an integer (the Butterworth's order)"},
        {"{\"order\": 4, \"cutoff\": \"200\"}", "m.json: channels[0].filter.cutoff: expected a number (Hz)"},
        {"{\"order\": 4, \"cutoff\": -5}", "m.json: channels[0].filter.cutoff: -5 Hz, expected a positive frequency"},
        {"{\"order\": 4}", "m.json: channels[0].filter.cutoff: expected a number (Hz)"},
        {"{\"order\": 4, \"cutoff\": 200, \"kind\": 1}", "m.json: channels[0].filter.kind: unknown key"},
        {"4", "m.json: channels[0].filter: expected {\"order\": n, \"cutoff\": Hz}"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char text[300];
        snprintf(text, sizeof text, "{\"format\": \"mech-compare-map\", \"channels\": [{\"measured\": \"a\", "
                 "\"filter\": %s}]}", bad[i].filter);
        assert_int_not_equal(mech_compare_map_parse(text, strlen(text), "m.json", &m, &err), HY_OK);
        assert_string_equal(err.msg, bad[i].msg);
    }
    const char *top = "{\"format\": \"mech-compare-map\", \"filter\": {\"order\": 4, \"cutoff\": 0},"
                      " \"channels\": [{\"measured\": \"a\"}]}";
    assert_int_not_equal(mech_compare_map_parse(top, strlen(top), "m.json", &m, &err), HY_OK);
    assert_string_equal(err.msg, "m.json: filter.cutoff: 0 Hz, expected a positive frequency");
}

// (rec, name, unit) => one channel added
static void add(mech_compare_rec *r, const char *name, const char *unit)
{
    hy_err err;
    assert_int_equal(mech_compare_rec_add(r, name, unit, NULL, &err), HY_OK);
}

/* `mech compare` with the filter on the prediction: a run (a damped 45 Hz ring, 0.1 ms steps) against a 1 kHz
 * record of the same signal through a 4th-order 200 Hz Butterworth (made here at 200 kHz, ten times finer than the
 * sensor model's grid, and sampled): NRMSE at the two realisations' difference with the filter, the filter's
 * effect without it; a cut-off above the record's Nyquist frequency refused naming the key. */
static void compare_filtered(void **state)
{
    (void)state;
    hy_err err;
    mech_compare_rec run, meas;
    mech_compare_rec_init(&run, "run");
    mech_compare_rec_init(&meas, "meas.csv");
    add(&run, "x", "m");
    add(&meas, "x", "m");
    size_t nf = 200001;   /* 1 s at 200 kHz */
    double *xf = malloc(nf * sizeof *xf);
    for (size_t i = 0; i < nf; i++) {
        double t = (double)i / 200000;
        xf[i] = t < 0.1 ? 0 : exp(-(t - 0.1) / 0.15) * sin(2 * M_PI * 45 * (t - 0.1));
    }
    for (size_t i = 0; i < nf; i += 20) {
        double v = xf[i];
        assert_int_equal(mech_compare_rec_push(&run, (double)i / 200000, &v, &err), HY_OK);
    }
    double sos[4][5];
    mech_compare_sos_run((const double(*)[5])sos, mech_compare_butter_sos(4, 200, 200000, sos), xf, nf);
    for (size_t i = 0; i < nf; i += 200) {
        double v = xf[i];
        assert_int_equal(mech_compare_rec_push(&meas, (double)i / 200000, &v, &err), HY_OK);
    }
    mech_compare_map m;
    mech_compare_map_default(&m);
    m.n = 1;
    snprintf(m.ch[0].meas, sizeof m.ch[0].meas, "x");
    snprintf(m.ch[0].run, sizeof m.ch[0].run, "x");
    snprintf(m.ch[0].key, sizeof m.ch[0].key, "channels[0]");
    m.ch[0].scale = 1, m.ch[0].tol = NAN, m.ch[0].peak_tol = NAN;
    m.align = MECH_COMPARE_ALIGN_NONE;
    mech_compare *c;
    assert_int_equal(mech_compare_new(&m, &run, &meas, &c, &err), HY_OK);
    double unfiltered = c->res[0].nrmse;
    mech_compare_free(c);
    m.ch[0].filter = (mech_compare_filter){4, 200};
    assert_int_equal(mech_compare_new(&m, &run, &meas, &c, &err), HY_OK);
    double filtered = c->res[0].nrmse;
    /* the residual applies the same sensor model: its sum of squares is the NRMSE^2 */
    double *r = malloc(mech_compare_nresid(c) * sizeof *r), s = 0;
    assert_int_equal(mech_compare_residual(c, &run, r, &err), HY_OK);
    for (size_t i = 0; i < c->n; i++)
        s += r[i] * r[i];
    assert_true(fabs(sqrt(s) - filtered) < 1e-9 * filtered + 1e-15);
    free(r);
    mech_compare_free(c);
    /* without: the filter's delay (1.8 ms at DC, 0.5 rad at 45 Hz) and gain, NRMSE 0.061; with: what is left is the
       run's 0.1 ms linear steps, (w dt)^2 / 8 = 1e-5 of the amplitude, and the 20 kHz against the 200 kHz
       realisation (their frequency warping differs by (w / 2 fs)^2 / 3 < 2e-5): NRMSE 2.0e-5 measured, bound 1e-4 */
    assert_true(unfiltered > 0.03);
    assert_true(filtered < 1e-4);
    /* a cut-off at or above the record's Nyquist frequency (1 kHz: 500 Hz) */
    m.ch[0].filter = (mech_compare_filter){4, 500};
    assert_int_equal(mech_compare_new(&m, &run, &meas, &c, &err), HY_EDATA);
    assert_non_null(
        strstr(err.msg, "channels[0].filter.cutoff: 500 Hz, at or above the record's Nyquist frequency 500 Hz"));
    free(xf);
    mech_compare_rec_free(&run);
    mech_compare_rec_free(&meas);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(magnitude_closed_form), cmocka_unit_test(same_as_virtual_test),
        cmocka_unit_test(ramp_delay),            cmocka_unit_test(sensor_channel),
        cmocka_unit_test(filter_keys),           cmocka_unit_test(compare_filtered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

// Displacement-history generators: sample counts, exact peaks and reversals, inner loops, time, presets, errors.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/drive.h"

/* A generated history, freed by the caller. */
typedef struct hist {
    size_t  n;
    double *t, *q;
} hist;

static hist make(const hy_drive_spec *s)
{
    hist h = {0};
    hy_err err;
    int rc = hy_drive_count(s, &h.n, &err);
    if (rc != HY_OK)
        fail_msg("count: %s", err.msg);
    h.t = malloc(h.n * sizeof *h.t);
    h.q = malloc(h.n * sizeof *h.q);
    assert_non_null(h.t);
    assert_non_null(h.q);
    rc = hy_drive_fill(s, h.t, h.q, h.n, &err);
    if (rc != HY_OK)
        fail_msg("fill: %s", err.msg);
    return h;
}

static void drop(hist *h)
{
    free(h->t);
    free(h->q);
}

/* Reversal values: samples where the direction of motion changes (the sample itself is the turning point). */
static size_t reversals(const hist *h, double *out, size_t cap)
{
    size_t n = 0;
    int dir = 0;
    for (size_t i = 1; i < h->n; i++) {
        double d = h->q[i] - h->q[i - 1];
        int s = d > 0 ? 1 : (d < 0 ? -1 : 0);
        assert_int_not_equal(s, 0); /* the generator never repeats a sample */
        if (dir != 0 && s != dir) {
            if (n < cap)
                out[n] = h->q[i - 1];
            n++;
        }
        dir = s;
    }
    return n;
}

/* Triangle, 8 points per cycle, amplitudes 2 then 4: every sample known by hand. */
static void triangle_samples_by_hand(void **state)
{
    (void)state;
    double amp[] = {2.0, 4.0};
    int cyc[] = {1, 1};
    hy_drive_spec s;
    hy_drive_spec_default(&s);
    s.wave = HY_DRIVE_TRIANGLE;
    s.n_levels = 2;
    s.amplitude = amp;
    s.cycles = cyc;
    s.points = 8;
    s.offset = 10.0;
    hist h = make(&s);
    const double expect[] = {10, 11, 12, 11, 10, 9, 8, 9, 10, 12, 14, 12, 10, 8, 6, 8, 10};
    assert_int_equal(h.n, sizeof expect / sizeof expect[0]);
    for (size_t i = 0; i < h.n; i++) {
        assert_true(h.q[i] == expect[i]);
        assert_true(fabs(h.t[i] - (double)i / 8.0) < 1e-15);
    }
    drop(&h);
}

/* Lead-in: from rest at 0 a ramp at the cycle's speed reaches the offset exactly, then the cycles run about it. */
static void lead_in_ramps_to_offset(void **state)
{
    (void)state;
    double amp[] = {2.0};
    int cyc[] = {1};
    hy_drive_spec s;
    hy_drive_spec_default(&s);
    s.wave = HY_DRIVE_TRIANGLE;
    s.n_levels = 1;
    s.amplitude = amp;
    s.cycles = cyc;
    s.points = 8;
    s.offset = 3.0;
    s.lead_in = 1;
    hist h = make(&s);
    /* round(3/2 * 8/4) = 3 ramp samples at the cycle's step 2/2 = 1 per sample */
    const double expect[] = {0, 1, 2, 3, 4, 5, 4, 3, 2, 1, 2, 3};
    assert_int_equal(h.n, sizeof expect / sizeof expect[0]);
    for (size_t i = 0; i < h.n; i++) {
        assert_true(h.q[i] == expect[i]);
        assert_true(fabs(h.t[i] - (double)i / 8.0) < 1e-15);
    }
    drop(&h);
    /* sine: a half-cosine ramp; without an offset there is no ramp */
    s.wave = HY_DRIVE_SINE;
    s.offset = -0.7;
    h = make(&s);
    size_t nl = (size_t)floor(0.7 / 2.0 * 2.0 + 0.5); /* = 1 */
    assert_int_equal(h.n, 1 + nl + 8);
    assert_true(h.q[0] == 0.0 && h.q[nl] == -0.7);
    drop(&h);
    s.offset = 0.0;
    h = make(&s);
    assert_int_equal(h.n, 9);
    drop(&h);
}

/* Sine: q = q0 + A sin(2 pi k / points) to rounding; peaks, zero crossings and cycle ends exact; counts. */
static void sine_matches_formula_with_exact_peaks(void **state)
{
    (void)state;
    double amp[] = {0.5, 1.5, 3.0};
    int cyc[] = {2, 1, 3};
    hy_drive_spec s;
    hy_drive_spec_default(&s);
    s.n_levels = 3;
    s.amplitude = amp;
    s.cycles = cyc;
    s.points = 400;
    s.offset = -0.25;
    hist h = make(&s);
    assert_int_equal(h.n, 1 + 6 * 400);
    size_t i = 1;
    for (int l = 0; l < 3; l++)
        for (int c = 0; c < cyc[l]; c++)
            for (int k = 1; k <= 400; k++, i++) {
                double ref = -0.25 + amp[l] * sin(2.0 * M_PI * k / 400.0);
                assert_true(fabs(h.q[i] - ref) <= 1e-14);
                if (k == 100)
                    assert_true(h.q[i] == -0.25 + amp[l]);
                if (k == 300)
                    assert_true(h.q[i] == -0.25 - amp[l]);
                if (k == 200 || k == 400)
                    assert_true(h.q[i] == -0.25);
            }
    double rev[32];
    size_t nr = reversals(&h, rev, 32);
    assert_int_equal(nr, 2 * 6); /* +A and -A of every cycle; cycles join at q0 without reversing */
    drop(&h);
}

/* Inner loops: reversal values exactly at q0 +- A at, q0 +- A (at - back), the peaks; count by hand. */
static void inner_loops_reverse_exactly_where_asked(void **state)
{
    (void)state;
    for (int wave = 0; wave < 2; wave++) {
        double amp[] = {4.0};
        int cyc[] = {1};
        hy_drive_inner in[] = {{0.5, 0.3}, {0.8, 0.1}};
        hy_drive_spec s;
        hy_drive_spec_default(&s);
        s.wave = (hy_drive_wave)wave;
        s.n_levels = 1;
        s.amplitude = amp;
        s.cycles = cyc;
        s.points = 200;
        s.offset = 1.0;
        s.n_inner = 2;
        s.inner = in;
        hist h = make(&s);
        /* each way: round(0.3*50) = 15 and round(0.1*50) = 5 samples; both sides, down and up */
        assert_int_equal(h.n, 1 + 200 + 2 * 2 * (15 + 5));
        double rev[32];
        size_t nr = reversals(&h, rev, 32);
        const double expect[] = {1.0 + 4.0 * 0.5, 1.0 + 4.0 * (0.5 - 0.3), 1.0 + 4.0 * 0.8, 1.0 + 4.0 * (0.8 - 0.1),
                                 5.0,
                                 1.0 - 4.0 * 0.5, 1.0 - 4.0 * (0.5 - 0.3), 1.0 - 4.0 * 0.8, 1.0 - 4.0 * (0.8 - 0.1),
                                 -3.0};
        assert_int_equal(nr, 10);
        for (size_t i = 0; i < nr; i++)
            assert_true(rev[i] == expect[i]);
        /* the returning quarters are untouched: the same values as a plain cycle */
        assert_true(h.q[h.n - 1] == 1.0);
        for (size_t i = 1; i < h.n; i++)
            assert_true(h.t[i] > h.t[i - 1]);
        /* constant sample interval T/points with period 1 */
        assert_true(fabs(h.t[h.n - 1] - (double)(h.n - 1) / 200.0) < 1e-12);
        drop(&h);
    }
}

/* Inner loops only in the cycles listed: cycles 2 and 4 of 4 carry them. */
static void inner_loops_only_in_listed_cycles(void **state)
{
    (void)state;
    double amp[] = {1.0, 2.0};
    int cyc[] = {2, 2};
    hy_drive_inner in[] = {{0.6, 0.2}};
    size_t which[] = {2, 4};
    hy_drive_spec s;
    hy_drive_spec_default(&s);
    s.wave = HY_DRIVE_TRIANGLE;
    s.n_levels = 2;
    s.amplitude = amp;
    s.cycles = cyc;
    s.points = 40;
    s.n_inner = 1;
    s.inner = in;
    s.n_inner_cycles = 2;
    s.inner_cycles = which;
    hist h = make(&s);
    /* round(0.2*10) = 2 samples each way, down and up, on both sides, in 2 cycles */
    assert_int_equal(h.n, 1 + 4 * 40 + 2 * (2 * 2 * 2));
    double rev[64];
    size_t nr = reversals(&h, rev, 64);
    const double expect[] = {1, -1, 0.6, 0.6 - 0.2, 1, -0.6, -(0.6 - 0.2), -1, 2, -2, 2 * 0.6, 2 * (0.6 - 0.2), 2,
                             -2 * 0.6, -2 * (0.6 - 0.2), -2};
    assert_int_equal(nr, sizeof expect / sizeof expect[0]);
    for (size_t i = 0; i < nr; i++)
        assert_true(rev[i] == expect[i]);
    drop(&h);
}

/* Rate: a triangle runs at exactly |dq/dt| = rate everywhere (inner loops too); a sine peaks at the rate. */
static void rate_sets_the_speed(void **state)
{
    (void)state;
    double amp[] = {1.0, 3.0};
    int cyc[] = {1, 2};
    hy_drive_inner in[] = {{0.5, 0.25}};
    hy_drive_spec s;
    hy_drive_spec_default(&s);
    s.wave = HY_DRIVE_TRIANGLE;
    s.n_levels = 2;
    s.amplitude = amp;
    s.cycles = cyc;
    s.points = 80;
    s.rate = 0.5;
    s.n_inner = 1;
    s.inner = in;
    hist h = make(&s);
    for (size_t i = 1; i < h.n; i++) {
        double v = fabs(h.q[i] - h.q[i - 1]) / (h.t[i] - h.t[i - 1]);
        assert_true(fabs(v - 0.5) < 1e-9);
    }
    drop(&h);
    s.wave = HY_DRIVE_SINE;
    s.n_inner = 0;
    s.points = 400;
    h = make(&s);
    double vmax = 0;
    for (size_t i = 1; i < h.n; i++) {
        double v = fabs(h.q[i] - h.q[i - 1]) / (h.t[i] - h.t[i - 1]);
        vmax = v > vmax ? v : vmax;
    }
    /* secant over one step of 2 pi/400: rate * sin(x)/x, x = pi/200 */
    double x = M_PI / 200.0;
    assert_true(fabs(vmax - 0.5 * sin(x) / x) < 1e-9);
    /* durations: 2 pi A / rate per cycle */
    assert_true(fabs(h.t[h.n - 1] - 2.0 * M_PI * (1.0 + 3.0 + 3.0) / 0.5) < 1e-9);
    drop(&h);
}

/* Without a t array the q history is the same. */
static void time_array_is_optional(void **state)
{
    (void)state;
    double amp[] = {2.0};
    int cyc[] = {3};
    hy_drive_spec s;
    hy_drive_spec_default(&s);
    s.n_levels = 1;
    s.amplitude = amp;
    s.cycles = cyc;
    hist h = make(&s);
    double *q = malloc(h.n * sizeof *q);
    assert_int_equal(hy_drive_fill(&s, NULL, q, h.n, NULL), HY_OK);
    assert_memory_equal(q, h.q, h.n * sizeof *q);
    assert_true(fabs(h.t[h.n - 1] - 3.0) < 1e-12);
    free(q);
    drop(&h);
}

static int bad(const hy_drive_spec *s, const char *needle)
{
    size_t n;
    hy_err err;
    int rc = hy_drive_count(s, &n, &err);
    if (rc == HY_OK)
        return 0;
    if (!strstr(err.msg, needle))
        fail_msg("message '%s' lacks '%s'", err.msg, needle);
    return rc == HY_EARG;
}

static void bad_specs_are_refused(void **state)
{
    (void)state;
    double amp[] = {1.0}, amp0[] = {0.0}, ampnan[] = {NAN};
    int cyc[] = {1}, cyc0[] = {0};
    hy_drive_inner in_bad_at[] = {{1.0, 0.1}}, in_bad_back[] = {{0.5, 1.6}}, in_order[] = {{0.5, 0.1}, {0.4, 0.1}};
    size_t which[] = {2};
    hy_drive_spec s;
    hy_drive_spec_default(&s);
    assert_true(bad(&s, "no amplitude"));
    s.n_levels = 1;
    s.amplitude = amp;
    s.cycles = cyc;
    s.points = 198;
    assert_true(bad(&s, "multiple of 4"));
    s.points = 200;
    s.amplitude = amp0;
    assert_true(bad(&s, "amplitude 1"));
    s.amplitude = ampnan;
    assert_true(bad(&s, "finite"));
    s.amplitude = amp;
    s.cycles = cyc0;
    assert_true(bad(&s, "at least 1"));
    s.cycles = cyc;
    s.period = 0.0;
    assert_true(bad(&s, "period"));
    s.period = 1.0;
    s.rate = -1.0;
    assert_true(bad(&s, "rate"));
    s.rate = 0.0;
    s.n_inner = 1;
    s.inner = in_bad_at;
    assert_true(bad(&s, "0 < at < 1"));
    s.inner = in_bad_back;
    assert_true(bad(&s, "opposite peak"));
    s.n_inner = 2;
    s.inner = in_order;
    assert_true(bad(&s, "must grow"));
    s.n_inner = 1;
    s.inner = in_bad_at + 0;
    in_bad_at[0].at = 0.5;
    s.n_inner_cycles = 1;
    s.inner_cycles = which;
    assert_true(bad(&s, "cycle 2"));
    s.n_inner_cycles = 0;
    size_t n;
    assert_int_equal(hy_drive_count(&s, &n, NULL), HY_OK);
    double q[8];
    hy_err err;
    assert_int_equal(hy_drive_fill(&s, NULL, q, 8, &err), HY_EARG);
    assert_non_null(strstr(err.msg, "arrays of 8"));
}

static void presets_expand_to_documented_levels(void **state)
{
    (void)state;
    double amp[64];
    int cyc[64];
    size_t n;
    /* steps */
    assert_int_equal(hy_drive_preset_levels(HY_DRIVE_STEPS, 3.0, 3, 2, 0, amp, cyc, 64, &n, NULL), HY_OK);
    assert_int_equal(n, 3);
    assert_true(amp[0] == 1.0 && amp[1] == 2.0 && amp[2] == 3.0);
    assert_true(cyc[0] == 2 && cyc[2] == 2);
    /* ISO 16670 */
    assert_int_equal(hy_drive_preset_levels(HY_DRIVE_ISO16670, 40.0, 0, 0, 0, amp, cyc, 64, &n, NULL), HY_OK);
    const double iso[] = {0.5, 1, 2, 3, 4, 8, 16, 24, 32, 40};
    const int isoc[] = {1, 1, 1, 1, 1, 3, 3, 3, 3, 3};
    assert_int_equal(n, 10);
    for (size_t i = 0; i < n; i++) {
        assert_true(fabs(amp[i] - iso[i]) < 1e-12);
        assert_int_equal(cyc[i], isoc[i]);
    }
    /* ATC-24, dy = 1.5, max 9: dy/3, 2dy/3, dy, 2dy, 3dy (3 cycles), 4dy, 5dy, 6dy (2 cycles) */
    assert_int_equal(hy_drive_preset_levels(HY_DRIVE_ATC24, 9.0, 0, 0, 1.5, amp, cyc, 64, &n, NULL), HY_OK);
    const double atc[] = {0.5, 1.0, 1.5, 3.0, 4.5, 6.0, 7.5, 9.0};
    const int atcc[] = {3, 3, 3, 3, 3, 2, 2, 2};
    assert_int_equal(n, 8);
    for (size_t i = 0; i < n; i++) {
        assert_true(fabs(amp[i] - atc[i]) < 1e-12);
        assert_int_equal(cyc[i], atcc[i]);
    }
    /* max between levels: stops below it; a too-small array only counts */
    assert_int_equal(hy_drive_preset_levels(HY_DRIVE_ATC24, 2.0, 0, 0, 1.5, amp, cyc, 2, &n, NULL), HY_OK);
    assert_int_equal(n, 3);
    hy_err err;
    assert_int_equal(hy_drive_preset_levels(HY_DRIVE_ATC24, 9.0, 0, 0, 0.0, amp, cyc, 64, &n, &err), HY_EARG);
    assert_int_equal(hy_drive_preset_levels(HY_DRIVE_STEPS, -1.0, 3, 1, 0, amp, cyc, 64, &n, &err), HY_EARG);
    assert_int_equal(hy_drive_preset_levels(HY_DRIVE_STEPS, 1.0, 0, 1, 0, amp, cyc, 64, &n, &err), HY_EARG);
}

/* A sine excursion is a half-cosine: its midpoint sample is halfway between the reversal values. */
static void sine_excursion_is_half_cosine(void **state)
{
    (void)state;
    double amp[] = {1.0};
    int cyc[] = {1};
    hy_drive_inner in[] = {{0.5, 0.4}}; /* round(0.4 * 10) = 4 samples each way */
    hy_drive_spec s;
    hy_drive_spec_default(&s);
    s.n_levels = 1;
    s.amplitude = amp;
    s.cycles = cyc;
    s.points = 40;
    s.n_inner = 1;
    s.inner = in;
    hist h = make(&s);
    size_t r = 0;
    for (size_t i = 1; i + 1 < h.n; i++)
        if (h.q[i] == 0.5) {
            r = i;
            break;
        }
    assert_true(r > 0);
    /* down leg samples r+1..r+4 */
    for (int k = 1; k <= 4; k++) {
        double ref = 0.5 + (0.1 - 0.5) * 0.5 * (1.0 - cos(M_PI * k / 4.0));
        assert_true(fabs(h.q[r + k] - ref) < 1e-15);
    }
    assert_true(h.q[r + 4] == 1.0 * (0.5 - 0.4));
    /* before the reversal the base wave follows the sine: 0.5 is reached at phase asin(0.5)/(pi/2) = 1/3 of the
     * quarter, which gets round(10/3) = 3 samples at phases 1/9, 2/9 and (exactly 0.5) 3/9 */
    assert_int_equal(r, 3);
    for (int j = 1; j < 3; j++)
        assert_true(fabs(h.q[j] - sin(0.5 * M_PI * (1.0 / 3.0) * j / 3.0)) < 1e-15);
    drop(&h);
}

/* The count is a closed form (it used to walk every sample: a billion cycles took half an hour before the
 * allocation). Small specs of every kind: the count equals the samples the walker fills (hy_drive_fill checks it)
 * and the formula written out here; huge ones answer at once, exactly, and past 2^40 samples they are refused with
 * the number asked for and the limit. */
static void count_is_closed_form(void **state)
{
    (void)state;
    double amp[] = {1.0, 2.5, 4.0};
    int cyc[] = {2, 1, 3};
    hy_drive_inner in[] = {{0.3, 0.1}, {0.6, 0.45}, {0.9, 1.7}};
    size_t which[] = {2, 5, 2, 6}; /* cycle 2 listed twice counts once */
    for (int wave = 0; wave < 2; wave++)
        for (size_t points = 16; points <= 64; points += 24)
            for (size_t ni = 0; ni <= 3; ni++)
                for (size_t nw = 0; nw <= 4; nw += 2)
                    for (int lead = 0; lead < 2; lead++) {
                        hy_drive_spec s;
                        hy_drive_spec_default(&s);
                        s.wave = wave ? HY_DRIVE_TRIANGLE : HY_DRIVE_SINE;
                        s.n_levels = 3;
                        s.amplitude = amp;
                        s.cycles = cyc;
                        s.points = points;
                        s.n_inner = ni;
                        s.inner = in;
                        s.n_inner_cycles = ni ? nw : 0;
                        s.inner_cycles = which;
                        s.offset = lead ? 0.7 : 0.0;
                        s.lead_in = lead;
                        hist h = make(&s); /* fill fails when the walker disagrees with the count */
                        size_t p4 = points / 4, ex = 0;
                        for (size_t i = 0; i < ni; i++) {
                            size_t nh = (size_t)floor(in[i].back * (double)p4 + 0.5);
                            ex += 4 * (nh < 1 ? 1 : nh);
                        }
                        size_t with_inner = ni == 0 ? 0 : (nw == 0 ? 6 : (nw == 2 ? 2 : 3));
                        size_t nl = lead ? (size_t)floor(0.7 / 1.0 * (double)p4 + 0.5) : 0;
                        assert_int_equal(h.n, 1 + nl + 6 * points + with_inner * ex);
                        drop(&h);
                    }
    /* over the limit: the number asked for and the limit */
    double big_amp[] = {1.0, 2.0};
    int big_cyc[] = {1000000000, 1000000000};
    hy_drive_spec s;
    hy_drive_spec_default(&s);
    s.n_levels = 2;
    s.amplitude = big_amp;
    s.cycles = big_cyc;
    s.points = 1000;
    size_t n = 7;
    hy_err err;
    assert_int_equal(hy_drive_count(&s, &n, &err), HY_EARG);
    assert_int_equal(n, 0);
    assert_non_null(strstr(err.msg, "asks for 2000000000001 samples, more than the limit of 1099511627776"));
    /* a billion cycles of 200 points: counted at once, exactly */
    s.n_levels = 1;
    s.points = 200;
    assert_int_equal(hy_drive_count(&s, &n, &err), HY_OK);
    assert_int_equal(n, (size_t)200000000001);
    hy_drive_inner one[] = {{0.5, 0.25}};
    s.n_inner = 1;
    s.inner = one;
    assert_int_equal(hy_drive_count(&s, &n, &err), HY_OK);
    assert_int_equal(n, 1 + (size_t)1000000000 * (200 + 4 * 13)); /* 0.25 x 50 = 12.5 rounds to 13 each way */
}

/* hy_drive_parse: the option text of `hyst sim --protocol` (a library call the fuzz harness shares). */
static void protocol_options_parse(void **state)
{
    (void)state;
    hy_drive_args a = {.protocol = "triangle", .amplitudes = "1,2", .cycles = "3", .points = "8", .offset = "0.5",
                       .inner = "0.5:0.25", .inner_cycles = "2"};
    hy_drive_protocol p;
    hy_err err;
    assert_int_equal(hy_drive_parse(&a, &p, &err), HY_OK);
    assert_int_equal(p.spec.wave, HY_DRIVE_TRIANGLE);
    assert_int_equal(p.spec.n_levels, 2);
    assert_true(p.spec.amplitude[1] == 2.0 && p.spec.cycles[0] == 3 && p.spec.cycles[1] == 3);
    assert_int_equal(p.spec.points, 8);
    assert_true(p.spec.offset == 0.5 && p.spec.lead_in == 1);
    assert_true(p.spec.n_inner == 1 && p.spec.inner[0].back == 0.25);
    assert_true(p.spec.n_inner_cycles == 1 && p.spec.inner_cycles[0] == 2);
    hy_drive_protocol_free(&p);
    assert_null(p.amplitude);

    hy_drive_args b = {.protocol = "sine", .amplitudes = "1,x"};
    assert_int_equal(hy_drive_parse(&b, &p, &err), HY_EARG);
    assert_string_equal(err.msg, "--amplitudes: item 2 of '1,x' is not a finite number");
    assert_null(p.amplitude);
    hy_drive_args c = {.protocol = "atc24", .max = "5"};
    assert_int_equal(hy_drive_parse(&c, &p, &err), HY_EARG);
    assert_string_equal(err.msg, "--protocol atc24 needs --yield DY (the yield displacement)");
    /* fuzz/corpus/protocol/regress_steps_huge: 499999999 steps took minutes and gigabytes before being refused */
    hy_drive_args d = {.protocol = "steps", .max = "3", .steps = "499999999"};
    assert_int_equal(hy_drive_parse(&d, &p, &err), HY_EARG);
    assert_non_null(strstr(err.msg, "too many levels"));
    hy_drive_args e = {.protocol = "steps", .max = "3", .steps = "100000", .cycles = "1"};
    assert_int_equal(hy_drive_parse(&e, &p, &err), HY_OK);
    assert_int_equal(p.spec.n_levels, 100000);
    hy_drive_protocol_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(triangle_samples_by_hand),
        cmocka_unit_test(lead_in_ramps_to_offset),
        cmocka_unit_test(sine_matches_formula_with_exact_peaks),
        cmocka_unit_test(inner_loops_reverse_exactly_where_asked),
        cmocka_unit_test(inner_loops_only_in_listed_cycles),
        cmocka_unit_test(rate_sets_the_speed),
        cmocka_unit_test(time_array_is_optional),
        cmocka_unit_test(bad_specs_are_refused),
        cmocka_unit_test(count_is_closed_form),
        cmocka_unit_test(presets_expand_to_documented_levels),
        cmocka_unit_test(sine_excursion_is_half_cosine),
        cmocka_unit_test(protocol_options_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

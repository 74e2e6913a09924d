/* mech compare's library (libmech/src/compare/, io/compare_json.c; docs/compare.md): a run compared with itself
 * gives zero error and zero lag; shifted by 7.3 ms, a lag of 7.3 ms within one sample of the measured record;
 * units converted within their dimension and a mismatch refused naming the channel; records that do not overlap,
 * non-monotonic time, a channel the records lack, a key that is not a number refused naming file, line or key; the
 * residual's sum of squares per channel equals the channel's NRMSE^2. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mech/compare.h"

/* A docking-like force pulse (a half-sine impact and a decaying rebound) and a slow displacement. */
static double pulse(double t)
{
    double f = 0;
    if (t > 0.2 && t < 0.35)
        f += 2000 * sin(M_PI * (t - 0.2) / 0.15);
    if (t > 0.5)
        f += 400 * exp(-(t - 0.5) / 0.2) * sin(2 * M_PI * 6 * (t - 0.5));
    return f;
}
static double disp(double t)
{
    return 0.1 * (1 - cos(2 * M_PI * 0.7 * t));
}

// (rec, t0, t1, step, time shift, force scale) => a record with "F" [N] and "x" [m] sampled at step
static void make(mech_compare_rec *r, const char *src, double t0, double t1, double dt, double shift, double fscale,
                 const char *funit)
{
    hy_err err;
    mech_compare_rec_init(r, src);
    assert_int_equal(mech_compare_rec_add(r, "F", funit, NULL, &err), HY_OK);
    assert_int_equal(mech_compare_rec_add(r, "x", "m", NULL, &err), HY_OK);
    size_t n = (size_t)floor((t1 - t0) / dt + 1e-9) + 1;
    for (size_t i = 0; i < n; i++) {
        double t = t0 + (double)i * dt;
        double v[2] = {fscale * pulse(t - shift), disp(t - shift)};
        assert_int_equal(mech_compare_rec_push(r, t, v, &err), HY_OK);
    }
}

static void map2(mech_compare_map *m)
{
    hy_err err;
    const char *names[] = {"F", "x"};
    mech_compare_map_default(m);
    assert_int_equal(mech_compare_map_same_names(m, names, 2, names, 2, &err), HY_OK);
    assert_int_equal(m->n, 2);
}

static void self_zero(void **state)
{
    (void)state;
    mech_compare_rec a;
    make(&a, "run", 0, 2, 1e-3, 0, 1, "N");
    mech_compare_map m;
    map2(&m);
    mech_compare *c;
    hy_err err;
    assert_int_equal(mech_compare_new(&m, &a, &a, &c, &err), HY_OK);
    assert_true(fabs(c->lag) < 1e-9);
    assert_int_equal(c->n, a.n);
    for (int k = 0; k < 2; k++) {
        assert_true(c->res[k].nrmse == 0 && c->res[k].max_abs_err == 0 && c->res[k].peak_err == 0);
        assert_true(fabs(c->res[k].lag) < 1e-9);
    }
    assert_true(fabs(c->res[0].peak_meas - 2000) < 1e-3); /* the half-sine's crest, sampled at 1 ms */
    /* the residual of the same run is zero */
    double *r = malloc(mech_compare_nresid(c) * sizeof *r);
    assert_int_equal(mech_compare_residual(c, &a, r, &err), HY_OK);
    for (size_t i = 0; i < mech_compare_nresid(c); i++)
        assert_true(r[i] == 0);
    free(r);
    mech_compare_free(c);
    mech_compare_rec_free(&a);
}

/* The run at 1 kHz; the "measured" record the same signals 7.3 ms later, sampled at 2.5 kHz from another origin:
 * the lag is 7.3 ms within one measured sample (0.4 ms), for the alignment and for each channel. */
static void shifted_7_3ms(void **state)
{
    (void)state;
    mech_compare_rec a, b;
    make(&a, "run", 0, 2, 1e-3, 0, 1, "N");
    make(&b, "measured", 0.0031, 2.2, 4e-4, 0.0073, 1, "N");
    mech_compare_map m;
    map2(&m);
    mech_compare *c;
    hy_err err;
    assert_int_equal(mech_compare_new(&m, &a, &b, &c, &err), HY_OK);
    double h = 4e-4;
    assert_true(fabs(c->h - h) < 1e-12);
    printf("# lag %.12g s\n", c->lag);
    assert_true(fabs(c->lag - 0.0073) <= h);
    for (int k = 0; k < 2; k++)
        assert_true(fabs(c->res[k].lag - 0.0073) <= h);
    /* aligned, the error is the linear interpolation's: at the impact's kinks the slope jumps by 2000 pi / 0.15 =
     * 4.19e4 N/s, a chord of the 1 ms run misses by at most that x 1 ms / 4 = 10.5 N (elsewhere |f''| dt^2/8 < 0.11 N),
     * plus the lag's remaining error times the largest slope (4.19e4 N/s) */
    assert_true(c->res[0].max_abs_err < 10.5 + 0.11 + 4.19e4 * fabs(c->lag - 0.0073));
    /* the overlap only: the grid starts where the shifted run begins and ends where it ends */
    assert_true(c->t[0] >= 0.0073 + 0 - 1e-3 && c->t[c->n - 1] <= 2 + c->lag + 1e-12);
    /* event alignment: the first 10 % crossing of the impact, interpolated */
    m.align = MECH_COMPARE_ALIGN_EVENT;
    mech_compare *e;
    assert_int_equal(mech_compare_new(&m, &a, &b, &e, &err), HY_OK);
    assert_true(fabs(e->lag - 0.0073) <= h);
    mech_compare_free(e);
    /* without alignment and a lag of 0 the error is large: the test above is not trivially met */
    m.align = MECH_COMPARE_ALIGN_NONE;
    assert_int_equal(mech_compare_new(&m, &a, &b, &e, &err), HY_OK);
    assert_true(e->res[0].nrmse > 10 * c->res[0].nrmse);
    mech_compare_free(e);
    mech_compare_free(c);
    mech_compare_rec_free(&a);
    mech_compare_rec_free(&b);
}

static void units(void **state)
{
    (void)state;
    mech_compare_rec a, b;
    make(&a, "run", 0, 1, 1e-3, 0, 1, "N");
    make(&b, "meas", 0, 1, 1e-3, 0, 1e-3, "kN");   /* the same force in kN */
    mech_compare_map m;
    map2(&m);
    mech_compare *c;
    hy_err err;
    assert_int_equal(mech_compare_new(&m, &a, &b, &c, &err), HY_OK);
    assert_true(fabs(c->factor[0] - 1000) < 1e-12 && c->res[0].nrmse < 1e-12);
    mech_compare_free(c);
    /* a length compared with a force: refused, the channel named */
    snprintf(b.unit[0], sizeof b.unit[0], "mm");
    assert_int_equal(mech_compare_new(&m, &a, &b, &c, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "unit mismatch on channel 'F'"));
    assert_non_null(strstr(err.msg, "'mm'"));
    /* the map's unit against the record's units row */
    snprintf(b.unit[0], sizeof b.unit[0], "kN");
    snprintf(m.ch[0].unit, sizeof m.ch[0].unit, "N");
    assert_int_equal(mech_compare_new(&m, &a, &b, &c, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "unit mismatch on channel 'F'"));
    double f;
    assert_int_equal(mech_compare_unit_factor("deg", "rad", &f), 0);
    assert_true(fabs(f - M_PI / 180) < 1e-15);
    assert_int_equal(mech_compare_unit_factor("N m", "N", &f), -1);
    assert_int_equal(mech_compare_unit_factor("furlong", "furlong", &f), 0);
    assert_int_equal(mech_compare_unit_factor("furlong", "m", &f), -1);
    mech_compare_rec_free(&a);
    mech_compare_rec_free(&b);
}

static void no_overlap(void **state)
{
    (void)state;
    mech_compare_rec a, b;
    make(&a, "run.csv", 0, 1, 1e-3, 0, 1, "N");
    make(&b, "meas.csv", 5, 6, 1e-3, 5, 1, "N");
    mech_compare_map m;
    map2(&m);
    mech_compare *c;
    hy_err err;
    assert_int_equal(mech_compare_new(&m, &a, &b, &c, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "run.csv and meas.csv do not overlap in time"));
    assert_null(c);
    /* a channel the record lacks: the map's key named */
    snprintf(m.ch[1].run, sizeof m.ch[1].run, "nope");
    snprintf(m.source, sizeof m.source, "map.json");
    assert_int_equal(mech_compare_new(&m, &a, &a, &c, &err), HY_EDATA);
    assert_string_equal(err.msg, "map.json: channel 2.run: 'nope' is not a channel of run.csv");
    mech_compare_rec_free(&a);
    mech_compare_rec_free(&b);
}

static int parse(const char *text, mech_compare_map *m, hy_err *err)
{
    return mech_compare_map_parse(text, strlen(text), "map.json", m, err);
}

static void map_file(void **state)
{
    (void)state;
    mech_compare_map m;
    hy_err err;
    assert_int_equal(parse("{\"format\": \"mech-compare-map\", \"time\": \"time\", \"time_unit\": \"ms\", \"align\": "
                           "\"Fax\", \"tol\": 0.1, \"channels\": [{\"measured\": \"Fax\", \"run\": \"head_axial\", "
                           "\"unit\": \"kN\", \"scale\": -1, \"tol\": 0.05, \"peak_tol\": 0.1, \"impact\": true}, {\"measured\": "
                           "\"stroke\"}]}", &m, &err), HY_OK);
    assert_int_equal(m.n, 2);
    assert_string_equal(m.ch[0].run, "head_axial");
    assert_string_equal(m.ch[1].run, "stroke");
    assert_true(m.ch[0].scale == -1 && m.ch[0].tol == 0.05 && m.ch[0].impact && isnan(m.ch[1].tol) && m.tol == 0.1);
    assert_true(m.ch[0].peak_tol == 0.1 && isnan(m.ch[1].peak_tol));
    assert_string_equal(m.align_ch, "Fax");
    assert_string_equal(m.time_unit, "ms");
    struct { const char *text, *msg; } bad[] = {
        {"{\"format\": \"mech-compare-map\", \"channels\": [{\"measured\": \"F\", \"scale\": \"1e3\"}]}",
         "map.json: channels[0].scale: expected a number"},
        {"{\"format\": \"mech-compare-map\", \"dt\": \"x\", \"channels\": [{\"measured\": \"F\"}]}",
         "map.json: dt: expected a number"},
        {"{\"format\": \"mech-compare-map\", \"channels\": [{\"measured\": \"F\", \"tol\": -1}]}",
         "map.json: channels[0].tol: -1, expected a number > 0"},
        {"{\"format\": \"mech-compare-map\", \"channels\": [{\"measured\": \"F\", \"gain\": 2}]}",
         "map.json: channels[0].gain: unknown key"},
        {"{\"format\": \"mech-compare-map\", \"channels\": [{\"run\": \"F\"}]}",
         "map.json: channels[0].measured: missing, expected a channel name"},
        {"{\"format\": \"mech-compare-map\", \"align\": \"G\", \"channels\": [{\"measured\": \"F\"}]}",
         "map.json: align: 'G' is not \"xcorr\", \"event\", \"none\" or a measured channel of the map"},
        {"{\"format\": \"mech-compare-map\", \"window\": [1, \"2\"], \"channels\": [{\"measured\": \"F\"}]}",
         "map.json: window: expected [T0, T1], two numbers"},
        {"{\"format\": \"mech-compare-map\", \"window\": [2, 1], \"channels\": [{\"measured\": \"F\"}]}",
         "map.json: window: [2, 1], expected T0 < T1"},
        {"{\"format\": \"mech-compare-map\", \"channels\": []}",
         "map.json: channels: expected an array of at least one channel"},
        {"{\"format\": \"mech-compare-map\", \"channels\": [{\"measured\": \"F\"}, {\"measured\": \"F\"}]}",
         "map.json: channels[1].measured: 'F' is mapped twice (channels[0])"},
        {"{\"format\": \"mech-compare-map\",\n \"channels\": [}", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_not_equal(parse(bad[i].text, &m, &err), HY_OK);
        if (bad[i].msg)
            assert_string_equal(err.msg, bad[i].msg);
        else
            assert_non_null(strstr(err.msg, "map.json:2:"));
        assert_int_equal(m.n, 0);
    }
    /* options */
    assert_int_equal(parse("{\"format\": \"mech-compare-map\", \"channels\": [{\"measured\": \"F\", \"run\": \"G\"}]}",
                           &m, &err), HY_OK);
    assert_int_equal(mech_compare_map_tol(&m, "G=0.2", &err), HY_OK);
    assert_true(m.ch[0].tol == 0.2);
    assert_int_equal(mech_compare_map_tol(&m, "F=abc", &err), HY_EARG);
    assert_string_equal(err.msg, "--tol F=abc: 'abc' is not a positive number");
    assert_int_equal(mech_compare_map_tol(&m, "H=0.1", &err), HY_EDATA);
    assert_string_equal(err.msg, "--tol H=0.1: 'H' is not a channel of the comparison");
    assert_int_equal(mech_compare_map_align(&m, "event", &err), HY_OK);
    assert_int_equal(m.align, MECH_COMPARE_ALIGN_EVENT);
    assert_int_equal(mech_compare_map_align(&m, "Q", &err), HY_EDATA);
}

static char *tmpfile_with(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/test_compare_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_true(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    return path;
}

static void read_csv(void **state)
{
    (void)state;
    hy_err err;
    mech_compare_rec r;
    const char *names[] = {"F", "x"};
    char *p = tmpfile_with("time,F,x\nms,kN,mm\n0,1,2\n1,2,3\n2,3,4\n");
    assert_int_equal(mech_compare_rec_read(p, "time", NULL, names, 2, &r, &err), HY_OK);
    assert_int_equal(r.n, 3);
    assert_true(r.t[2] == 2e-3 && r.v[0][1] == 2 && r.v[1][2] == 4);
    assert_string_equal(r.unit[0], "kN");
    assert_string_equal(r.unit[1], "mm");
    mech_compare_rec_free(&r);
    unlink(p);
    /* time that stands still: the line named */
    p = tmpfile_with("t,F,x\ns,N,m\n0,1,2\n1,2,3\n1,3,4\n");
    assert_int_equal(mech_compare_rec_read(p, NULL, NULL, names, 2, &r, &err), HY_EDATA);
    char want[128];
    snprintf(want, sizeof want, "%s:5: time 1 after 1 on line 4, expected strictly increasing time", p);
    assert_string_equal(err.msg, want);
    unlink(p);
    /* time that goes back: the CSV reader's line and column */
    p = tmpfile_with("t,F,x\ns,N,m\n0,1,2\n1,2,3\n0.5,3,4\n");
    assert_int_equal(mech_compare_rec_read(p, NULL, NULL, names, 2, &r, &err), HY_EDATA);
    snprintf(want, sizeof want, "%s:5:", p);
    assert_non_null(strstr(err.msg, want));
    assert_non_null(strstr(err.msg, "does not go backwards"));
    unlink(p);
    /* a channel the file lacks */
    p = tmpfile_with("t,F\ns,N\n0,1\n1,2\n");
    assert_int_not_equal(mech_compare_rec_read(p, NULL, NULL, names, 2, &r, &err), HY_OK);
    assert_non_null(strstr(err.msg, "'x'"));
    unlink(p);
    /* the time unit is checked */
    p = tmpfile_with("t,F,x\nN,N,m\n0,1,2\n1,2,3\n");
    assert_int_equal(mech_compare_rec_read(p, NULL, NULL, names, 2, &r, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "unit 'N' is not a unit of time"));
    unlink(p);
}

/* The residual of a perturbed run: each channel's block has sum of squares NRMSE^2 of that run compared directly. */
static void residual_is_nrmse(void **state)
{
    (void)state;
    mech_compare_rec a, b, p;
    make(&a, "run", 0, 2, 1e-3, 0, 1, "N");
    make(&b, "meas", 0, 2, 5e-4, 0.002, 1, "N");
    make(&p, "run2", 0, 2, 1e-3, 0.001, 1.1, "N");    /* another model: 10 % stiffer, 1 ms later, the same span */
    mech_compare_map m;
    map2(&m);
    mech_compare *c, *d;
    hy_err err;
    assert_int_equal(mech_compare_new(&m, &a, &b, &c, &err), HY_OK);
    m.align = MECH_COMPARE_ALIGN_NONE;
    m.lag = c->lag;
    assert_int_equal(mech_compare_new(&m, &p, &b, &d, &err), HY_OK); /* the same grid: the lag given */
    assert_int_equal(d->n, c->n);
    double *r = malloc(mech_compare_nresid(c) * sizeof *r);
    assert_int_equal(mech_compare_residual(c, &p, r, &err), HY_OK);
    for (int k = 0; k < 2; k++) {
        double s = 0;
        for (size_t i = 0; i < c->n; i++)
            s += r[(size_t)k * c->n + i] * r[(size_t)k * c->n + i];
        assert_true(d->res[k].nrmse > 1e-4);
        assert_true(fabs(sqrt(s) - d->res[k].nrmse) < 1e-12 * (1 + d->res[k].nrmse));
    }
    /* the verdict: the 10 % stiffer run's force peak is 10 % high; a peak tolerance of 5 % fails it, 20 % passes */
    assert_true(fabs(d->res[0].peak_rel - 0.1) < 0.01 && d->res[0].verdict == -1);
    m.ch[0].peak_tol = 0.05;
    mech_compare *e;
    assert_int_equal(mech_compare_new(&m, &p, &b, &e, &err), HY_OK);
    assert_int_equal(e->res[0].verdict, 0);
    mech_compare_free(e);
    m.ch[0].peak_tol = 0.2;
    assert_int_equal(mech_compare_new(&m, &p, &b, &e, &err), HY_OK);
    assert_int_equal(e->res[0].verdict, 1);
    mech_compare_free(e);
    /* a window: the grid inside it, the peaks too; one outside the overlap refused */
    m.ch[0].peak_tol = NAN;
    assert_int_equal(mech_compare_map_window(&m, "0.25,0.3", &err), HY_OK);
    assert_int_equal(mech_compare_new(&m, &p, &b, &e, &err), HY_OK);
    assert_true(e->t[0] >= 0.25 && e->t[e->n - 1] <= 0.3 && e->n >= 99 && e->n <= 101);
    assert_true(e->res[0].t_peak_meas >= 0.25 && e->res[0].t_peak_meas <= 0.3);
    mech_compare_free(e);
    assert_int_equal(mech_compare_map_window(&m, "5,6", &err), HY_OK);
    assert_int_equal(mech_compare_new(&m, &p, &b, &e, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "window 5 to 6 s: outside the records' overlap"));
    assert_int_equal(mech_compare_map_window(&m, "0.3,0.25", &err), HY_EARG);
    assert_string_equal(err.msg, "--window 0.3,0.25: expected T0,T1 with T0 < T1 (s, the measured record's time)");
    assert_int_equal(mech_compare_map_window(&m, "0.1", &err), HY_EARG);
    /* a run too short for the grid */
    mech_compare_rec q;
    make(&q, "short", 0.5, 1, 1e-3, 0, 1, "N");
    assert_int_equal(mech_compare_residual(c, &q, r, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "short: the run spans 0.5 to 1 s"));
    free(r);
    mech_compare_free(c);
    mech_compare_free(d);
    mech_compare_rec_free(&a);
    mech_compare_rec_free(&b);
    mech_compare_rec_free(&p);
    mech_compare_rec_free(&q);
}

/* Impacts: the half-sine pulse of make() as one episode, its peak and its impulse against the closed form
 * 2 A T / pi (A = 2000 N, T = 0.15 s: 190.99 N s), the trapezoid sum within its error bound T dt^2 max|f''| / 12 =
 * 0.15 x 1e-6 x 8.8e5 / 12 = 0.011 N s; the decaying rebound after it as further episodes. */
static void impacts(void **state)
{
    (void)state;
    mech_compare_rec a;
    make(&a, "run", 0, 2, 1e-3, 0, 1, "N");
    mech_compare_impact e[8];
    size_t n = mech_compare_impacts(a.t, a.v[0], a.n, 1e-9, e, 8);
    assert_true(n >= 2);
    assert_true(fabs(e[0].peak - 2000) < 1e-9 && fabs(e[0].t_peak - 0.275) < 1e-12);
    assert_true(fabs(e[0].impulse - 2 * 2000 * 0.15 / M_PI) < 0.011);
    assert_true(e[0].t_start > 0.2 && e[0].t_start <= 0.201 + 1e-12 && e[0].t_end < 0.35 && e[0].t_end >= 0.349 - 1e-12);
    assert_true(e[1].t_start > 0.5 && e[1].t_start <= 0.501 + 1e-12);
    /* a threshold of 5 % of the peak: the rebound's swings above 100 N, each one episode */
    size_t m = mech_compare_impacts(a.t, a.v[0], a.n, 100, e, 8);
    assert_true(m >= 3 && fabs(e[0].peak - 2000) < 1e-9 && e[0].t_start > 0.201);
    assert_int_equal(mech_compare_impacts(a.t, a.v[1], a.n, 1e9, e, 8), 0);
    mech_compare_rec_free(&a);
}

/* A derivative of the run's channel: a measured acceleration 0.1 w^2 cos(w t) [m/s^2] against the run's
 * displacement 0.1 (1 - cos(w t)) [m] differentiated twice (three-point formula: relative error (w h)^2 / 12 =
 * 1.6e-6 at h = 1 ms, w = 2 pi 0.7; 1.1e-6 measured); the residual of the same run equals the NRMSE (the derivative computed on the
 * fly there); mm/s^2 converted; a derivative of 3 refused by the map. */
static void derivative(void **state)
{
    (void)state;
    hy_err err;
    mech_compare_rec a, b;
    make(&a, "run", 0, 2, 1e-3, 0, 1, "N");
    mech_compare_rec_init(&b, "accel");
    assert_int_equal(mech_compare_rec_add(&b, "acc", "mm/s^2", NULL, &err), HY_OK);
    double w = 2 * M_PI * 0.7;
    for (int i = 0; i <= 4000; i++) {
        double t = 0.0005 * i, v = 1e3 * 0.1 * w * w * cos(w * t);
        assert_int_equal(mech_compare_rec_push(&b, t, &v, &err), HY_OK);
    }
    mech_compare_map m;
    assert_int_equal(mech_compare_map_parse("{\"format\": \"mech-compare-map\", \"align\": \"none\", \"channels\": "
                                            "[{\"measured\": \"acc\", \"run\": \"x\", \"derivative\": 2}]}",
                                            strlen("{\"format\": \"mech-compare-map\", \"align\": \"none\", "
                                                   "\"channels\": [{\"measured\": \"acc\", \"run\": \"x\", "
                                                   "\"derivative\": 2}]}"), "m.json", &m, &err), HY_OK);
    mech_compare *c;
    assert_int_equal(mech_compare_new(&m, &a, &b, &c, &err), HY_OK);
    assert_string_equal(c->run_unit[0], "m/s^2");
    assert_true(fabs(c->factor[0] - 1e-3) < 1e-18);
    assert_true(c->res[0].nrmse < 1e-5);
    /* the peak is at t = 0, the record's end: there the derivative is the interior values extrapolated, whose error
       is about h^2 times the fourth derivative = (w h)^2 of the peak (1.9e-5; 1.8e-5 measured) */
    assert_true(fabs(c->res[0].peak_rel) < 1.1 * (w * 1e-3) * (w * 1e-3));
    double *r = malloc(mech_compare_nresid(c) * sizeof *r);
    assert_int_equal(mech_compare_residual(c, &a, r, &err), HY_OK);
    double s = 0;
    for (size_t i = 0; i < c->n; i++)
        s += r[i] * r[i];
    assert_true(fabs(sqrt(s) - c->res[0].nrmse) < 1e-9 * c->res[0].nrmse + 1e-15);
    free(r);
    mech_compare_free(c);
    /* the same against the undifferentiated channel: a unit mismatch (m against m/s^2) */
    m.ch[0].derivative = 0;
    assert_int_equal(mech_compare_new(&m, &a, &b, &c, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "unit mismatch on channel 'acc'"));
    const char *bad = "{\"format\": \"mech-compare-map\", \"channels\": [{\"measured\": \"acc\", \"derivative\": 3}]}";
    assert_int_equal(mech_compare_map_parse(bad, strlen(bad), "m.json", &m, &err), HY_EPARSE);
    assert_string_equal(err.msg, "m.json: channels[0].derivative: expected 0, 1 or 2");
    mech_compare_rec_free(&a);
    mech_compare_rec_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(self_zero),   cmocka_unit_test(shifted_7_3ms), cmocka_unit_test(units),
        cmocka_unit_test(no_overlap),  cmocka_unit_test(map_file),      cmocka_unit_test(read_csv),
        cmocka_unit_test(residual_is_nrmse), cmocka_unit_test(impacts),        cmocka_unit_test(derivative),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

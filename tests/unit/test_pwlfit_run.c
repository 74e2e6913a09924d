/* The table fit pipeline (hy_pwlfit_run) on the synthetic bench records of fixtures/synthetic (made by
 * `hyst sim --noise` from known tables): breakpoints within 2 % of the displacement range, force RMS within
 * 1.2x the noise, and the fitted model replayed on the record's DIFFERENT validation drive matching the true
 * model's force with NRMSE <= 2 % (RMS error / peak-to-peak force). Also: a record with 5000 points per cycle
 * made here, the backlash decision in closed form, the drift shifts by hand, the unloading stiffness, the
 * tolerance rule, the symmetric fit, the errors for records the fit cannot use, and a record with one cycle per
 * amplitude whose limit loop the fit widens itself (and one too sparse even for that). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/csvread.h"
#include "hyst/drive.h"
#include "hyst/loops.h"
#include "hyst/model.h"
#include "hyst/pwl.h"
#include "hyst/pwlfit.h"

static const char *top(void)
{
    const char *t = getenv("TOP");
    return t ? t : ".";
}

static void read_record(const char *name, const char *which, hy_series *s)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/fixtures/synthetic/%s_%s.csv", top(), name, which);
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.x_col = "q";
    o.y_col = "Q";
    o.t_col = "t";
    hy_err err;
    int rc = hy_csv_read(path, &o, s, &err);
    if (rc)
        print_message("%s\n", err.msg);
    assert_int_equal(rc, HY_OK);
}

static void read_truth(const char *name, hy_model *m)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/fixtures/synthetic/%s.json", top(), name);
    hy_err err;
    int rc = hy_model_read(path, m, &err);
    if (rc)
        print_message("%s\n", err.msg);
    assert_int_equal(rc, HY_OK);
    assert_int_equal(m->type, HY_MODEL_PWL);
}

// (model, drive q, t) => force history from rest at the origin
static double *replay(const hy_pwl_model *pm, const hy_series *v)
{
    hy_element e;
    assert_int_equal(hy_pwl_element_new(pm, &e, NULL), HY_OK);
    double *Q = malloc(v->n * sizeof *Q);
    size_t done = 0;
    hy_diag d;
    int rc = hy_element_drive(&e, 0.0, v->t, v->q, v->n, Q, NULL, &done, &d);
    if (rc) {
        char buf[300];
        hy_diag_format(&d, buf, sizeof buf);
        print_message("replay stopped at sample %zu: %s\n", done, buf);
    }
    assert_int_equal(rc, HY_OK);
    hy_element_free(&e);
    return Q;
}

// (true and fitted model, validation record) => RMS difference / peak-to-peak of the true force
static double validation_nrmse(const hy_pwl_model *truth, const hy_pwl_model *fit, const hy_series *v)
{
    double *Qt = replay(truth, v), *Qf = replay(fit, v);
    double lo = INFINITY, hi = -INFINITY, ss = 0;
    for (size_t i = 0; i < v->n; i++) {
        lo = fmin(lo, Qt[i]);
        hi = fmax(hi, Qt[i]);
        ss += (Qt[i] - Qf[i]) * (Qt[i] - Qf[i]);
    }
    free(Qt);
    free(Qf);
    return sqrt(ss / (double)v->n) / (hi - lo);
}

// (true table, fitted table, range) => largest distance from a true point abscissa to the nearest fitted one
static double worst_breakpoint(const hy_pwl_table *t, const hy_pwl_table *f, int *counts_equal)
{
    double worst = 0;
    *counts_equal = 1;
    for (int s = 0; s < 2; s++)
        for (int b = 0; b < 2; b++) {
            const hy_pwl_side *ts = s ? &t->negative : &t->positive, *fs = s ? &f->negative : &f->positive;
            const hy_pwl_points *tp = b ? &ts->backward : &ts->forward, *fp = b ? &fs->backward : &fs->forward;
            *counts_equal &= tp->n == fp->n;
            for (size_t i = 0; i < tp->n; i++) {
                double d = INFINITY;
                for (size_t j = 0; j < fp->n; j++)
                    d = fmin(d, fabs(tp->q[i] - fp->q[j]));
                worst = fmax(worst, d);
            }
        }
    return worst;
}

typedef struct fx_case {
    const char *name;
    hy_pwl_kind kind;
    double sigma;   /* noise standard deviation of the record (fixtures/synthetic/README.md) */
} fx_case;

static void check_fixture(const fx_case *c)
{
    hy_series s, v;
    hy_series_init(&s);
    hy_series_init(&v);
    read_record(c->name, "fit", &s);
    read_record(c->name, "val", &v);
    hy_model truth;
    read_truth(c->name, &truth);
    hy_pwl_table tt;
    hy_pwl_model_table(truth.pwl, &tt);

    hy_pwlfit_opts o;
    hy_pwlfit_opts_default(&o);
    o.kind = c->kind;
    hy_pwlfit_result r;
    hy_err err;
    int rc = hy_pwlfit_run(s.q, s.Q, s.t, s.n, &o, &r, &err);
    if (rc)
        print_message("%s: %s\n", c->name, err.msg);
    assert_int_equal(rc, HY_OK);

    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < s.n; i++) {
        lo = fmin(lo, s.q[i]);
        hi = fmax(hi, s.q[i]);
    }
    int same_counts;
    double worst = worst_breakpoint(&tt, &r.table, &same_counts);
    double rms = 0;
    for (int k = 0; k < 2; k++)
        rms = fmax(rms, fmax(r.side[k].F.rms, r.side[k].B.rms));
    hy_pwl_model *fm = NULL;
    assert_int_equal(hy_pwl_model_new(&r.table, "fit", &fm, NULL), HY_OK);
    double nrmse = validation_nrmse(truth.pwl, fm, &v);
    print_message("%-18s breakpoints within %.2f %% of the range, RMS %.3f sigma, validation NRMSE %.3f %%, record "
                  "NRMSE %.3f %%, %.3f s\n",
                  c->name, 100 * worst / (hi - lo), rms / c->sigma, 100 * nrmse, 100 * r.nrmse, r.seconds);
    assert_true(same_counts);                 /* BIC found the true segment counts */
    assert_true(worst <= 0.02 * (hi - lo));
    assert_true(rms <= 1.2 * c->sigma);
    assert_true(rms >= 0.8 * c->sigma);       /* and does not chase the noise */
    assert_true(nrmse <= 0.02);
    assert_true(r.replayed);
    /* these records repeat their largest cycle: the default limit loop serves, nothing is widened */
    for (int k = 0; k < 2 && c->kind == HY_PWL_CONSTANT; k++) {
        assert_int_equal(r.limit[k].rule, HY_PWLFIT_LIMIT_DEFAULT);
        assert_true(r.limit[k].n_loops == r.cycles[k] && r.cycles[k] >= 2);
    }
    /* Energy per cycle of the replay on the fitted record. Reference: the TRUE model on the same history (no
     * noise), analysed with the same reversals: every cycle within 3 % of the largest cycle energy. Against the
     * noisy record itself: the limit cycles (>= 90 % of the largest energy) within 5 % and the whole record's
     * energy within 3 %; the loop analysis also counts small and open cycles whose record energy is mostly
     * noise, which the report shows but this test does not hold to a tolerance. */
    double *Qt = replay(truth.pwl, &s);
    hy_loops_opts lop;
    hy_loops_opts_default(&lop);
    lop.threshold = r.threshold;
    hy_loops Lt;
    assert_int_equal(hy_loops_analyze(s.q, Qt, s.n, &lop, &Lt, NULL), HY_OK);
    assert_int_equal(Lt.n_cyc, r.n_cycles);
    double emax = 0;
    for (size_t k = 0; k < r.n_cycles; k++)
        emax = fmax(emax, Lt.cyc[k].energy);
    for (size_t k = 0; k < r.n_cycles; k++) {
        assert_true(fabs(r.energy_model[k] - Lt.cyc[k].energy) <= 0.03 * emax);
        if (r.energy_data[k] >= 0.9 * emax)
            assert_true(fabs(r.energy_model[k] / r.energy_data[k] - 1) <= 0.05);
    }
    assert_true(fabs(r.energy_total_model / r.energy_total_data - 1) <= 0.03);
    hy_loops_free(&Lt);
    free(Qt);
    hy_pwl_model_free(fm);
    hy_pwlfit_result_free(&r);
    hy_model_free(&truth);
    hy_series_free(&s);
    hy_series_free(&v);
}

static void fixture_double_loop(void **st) { (void)st; check_fixture(&(fx_case){"pwl_double_loop", HY_PWL_CONSTANT, 30}); }
static void fixture_asymmetric(void **st) { (void)st; check_fixture(&(fx_case){"pwl_asymmetric", HY_PWL_CONSTANT, 46.5}); }
static void fixture_zero_backlash(void **st) { (void)st; check_fixture(&(fx_case){"pwl_zero_backlash", HY_PWL_CONSTANT, 12.5}); }
static void fixture_small_stiff(void **st) { (void)st; check_fixture(&(fx_case){"pwl_small_stiff", HY_PWL_CONSTANT, 116}); }
static void fixture_friction(void **st) { (void)st; check_fixture(&(fx_case){"pwl_friction", HY_PWL_FRICTION, 10}); }

/* ---- records made here ---- */

static unsigned long long rng = 0x2545F4914F6CDD1DULL;
static double nrand(void)
{
    double a, b;
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    a = (double)(rng >> 11) / 9007199254740992.0;
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    b = (double)(rng >> 11) / 9007199254740992.0;
    return sqrt(-2.0 * log(a + 1e-300)) * cos(6.283185307179586 * b);
}

// (model, protocol, noise sd) => record t, q, Q (malloc'd)
static size_t make_record(const hy_pwl_model *m, hy_drive_wave wave, const double *amp, const int *cyc, size_t nl,
                          size_t points, double sd, double **t, double **q, double **Q)
{
    hy_drive_spec d;
    hy_drive_spec_default(&d);
    d.wave = wave;
    d.n_levels = nl;
    d.amplitude = amp;
    d.cycles = cyc;
    d.points = points;
    size_t n;
    assert_int_equal(hy_drive_count(&d, &n, NULL), HY_OK);
    *t = malloc(n * sizeof **t);
    *q = malloc(n * sizeof **q);
    *Q = malloc(n * sizeof **Q);
    assert_int_equal(hy_drive_fill(&d, *t, *q, n, NULL), HY_OK);
    hy_element e;
    assert_int_equal(hy_pwl_element_new(m, &e, NULL), HY_OK);
    size_t done;
    hy_diag dg;
    assert_int_equal(hy_element_drive(&e, 0.0, *t, *q, n, *Q, NULL, &done, &dg), HY_OK);
    hy_element_free(&e);
    for (size_t i = 0; i < n; i++)
        (*Q)[i] += sd * nrand();
    return n;
}

/* 5000 points per cycle, 2 % noise: the same accuracy, and a replay on a sine drive it was not fitted on. */
static void dense_record_5000_points_per_cycle(void **st)
{
    (void)st;
    hy_model truth;
    read_truth("pwl_double_loop", &truth);
    const double amp[] = {5, 10.5};
    const int cyc[] = {1, 3};
    double *t, *q, *Q;
    size_t n = make_record(truth.pwl, HY_DRIVE_TRIANGLE, amp, cyc, 2, 5000, 0.02 * 3000, &t, &q, &Q);
    hy_pwlfit_opts o;
    hy_pwlfit_opts_default(&o);
    hy_pwlfit_result r;
    assert_int_equal(hy_pwlfit_run(q, Q, t, n, &o, &r, NULL), HY_OK);
    hy_pwl_table tt;
    hy_pwl_model_table(truth.pwl, &tt);
    int same;
    double worst = worst_breakpoint(&tt, &r.table, &same);
    double rms = fmax(fmax(r.side[0].F.rms, r.side[0].B.rms), fmax(r.side[1].F.rms, r.side[1].B.rms));
    /* validation drive: sine, different amplitudes and sampling */
    const double vamp[] = {4, 9, 10.5};
    const int vcyc[] = {1, 1, 2};
    double *vt, *vq, *vQ;
    size_t vn = make_record(truth.pwl, HY_DRIVE_SINE, vamp, vcyc, 3, 300, 0.0, &vt, &vq, &vQ);
    hy_series v;
    hy_series_init(&v);
    v.n = vn;
    v.t = vt;
    v.q = vq;
    v.Q = vQ;
    hy_pwl_model *fm;
    assert_int_equal(hy_pwl_model_new(&r.table, "fit", &fm, NULL), HY_OK);
    double nrmse = validation_nrmse(truth.pwl, fm, &v);
    print_message("5000 points/cycle: breakpoints within %.2f %% of 21, RMS %.3f sigma, validation NRMSE %.3f %%\n",
                  100 * worst / 21.0, rms / 60.0, 100 * nrmse);
    assert_true(same && worst <= 0.02 * 21.0);
    assert_true(rms <= 1.2 * 60.0 && rms >= 0.8 * 60.0);
    assert_true(nrmse <= 0.02);
    hy_pwl_model_free(fm);
    hy_pwlfit_result_free(&r);
    free(t), free(q), free(Q), free(vt), free(vq), free(vQ);
    hy_model_free(&truth);
}

/* ---- pieces ---- */

/* BIC difference N ln(sse0/sse1) - ln N: 1000 ln 2 - ln 1000 = 686.24 (clear); a 0.5 % gain is below ln N (none);
 * a gain giving a difference of exactly 5 is kept but doubtful. */
static void backlash_judged_by_bic(void **st)
{
    (void)st;
    hy_pwlfit_backlash_info b;
    hy_pwlfit_backlash_judge(1000, 100.0, 200.0, 50, 0.4, 10.0, &b);
    assert_true(fabs(b.delta_bic - (1000 * log(2.0) - log(1000.0))) < 1e-9);
    assert_int_equal(b.clear, 1);
    assert_true(b.b == 0.4);
    hy_pwlfit_backlash_judge(1000, 100.0, 100.5, 50, 0.4, 10.0, &b);
    assert_int_equal(b.clear, 0);
    assert_true(b.b == 0.0);
    hy_pwlfit_backlash_judge(1000, 100.0, 100.0 * exp((5.0 + log(1000.0)) / 1000.0), 50, 0.4, 10.0, &b);
    assert_true(fabs(b.delta_bic - 5.0) < 1e-9);
    assert_int_equal(b.clear, -1);
    assert_true(b.b == 0.4);
    hy_pwlfit_backlash_judge(1000, 100.0, 200.0, 50, 0.005, 10.0, &b);   /* below 0.1 % of the range */
    assert_true(b.b == 0.0);
}

/* Drift by hand: x_N = 2 (positive), 3 (negative). Path 0 -> 5 -> -4 -> 1 -> -6 -> 0: the reversal at 5 slips
 * (5 > 2): shift 3; at -4 the moved-back position is -7 < -3: slip, shift -4 + 3 = -1; at 1: 1 - (-1) = 2, not
 * beyond 2: no slip, shift stays -1; at -6: -5 < -3: slip, shift -6 + 3 = -3. */
static void drift_shifts_by_hand(void **st)
{
    (void)st;
    const double knots[] = {0, 5, -4, 1, -6, 0};
    double q[501], Q[501];
    size_t n = 0;
    for (int k = 0; k + 1 < 6; k++)
        for (int i = 0; i < 100; i++, n++) {
            q[n] = knots[k] + (knots[k + 1] - knots[k]) * i / 100.0;
            Q[n] = 0;
        }
    q[n] = 0;
    Q[n++] = 0;
    hy_loops_opts lo;
    hy_loops_opts_default(&lo);
    lo.threshold = 0.1;
    hy_loops L;
    assert_int_equal(hy_loops_analyze(q, Q, n, &lo, &L, NULL), HY_OK);
    assert_int_equal(L.n_rev, 4);
    double shift[501];
    const double xN[2] = {2.0, 3.0};
    assert_int_equal(hy_pwlfit_drift_shift(q, n, &L, xN, shift), 3);
    assert_true(shift[50] == 0.0 && shift[100] == 0.0);   /* up to and including the first reversal */
    assert_true(shift[101] == 3.0 && shift[200] == 3.0);
    assert_true(shift[201] == -1.0 && shift[399] == -1.0);
    assert_true(shift[401] == -3.0 && shift[500] == -3.0);
    hy_loops_free(&L);
}

/* Unloading stiffness on a dense record of the true model with partial inner loops: where the sampling resolves
 * the transition, the measured slope is k_max (2000 on both sides of the double loop). */
static void unloading_stiffness_is_k_max(void **st)
{
    (void)st;
    hy_model truth;
    read_truth("pwl_double_loop", &truth);
    hy_drive_spec d;
    hy_drive_spec_default(&d);
    const double amp[] = {10.5};
    const int cyc[] = {2};
    const hy_drive_inner inner[] = {{0.6, 0.15}};
    d.wave = HY_DRIVE_TRIANGLE;
    d.n_levels = 1;
    d.amplitude = amp;
    d.cycles = cyc;
    d.points = 20000;
    d.n_inner = 1;
    d.inner = inner;
    size_t n;
    assert_int_equal(hy_drive_count(&d, &n, NULL), HY_OK);
    double *t = malloc(n * sizeof *t), *q = malloc(n * sizeof *q), *Q = malloc(n * sizeof *Q);
    assert_int_equal(hy_drive_fill(&d, t, q, n, NULL), HY_OK);
    hy_element e;
    assert_int_equal(hy_pwl_element_new(truth.pwl, &e, NULL), HY_OK);
    size_t done;
    hy_diag dg;
    assert_int_equal(hy_element_drive(&e, 0.0, t, q, n, Q, NULL, &done, &dg), HY_OK);
    hy_element_free(&e);
    for (size_t i = 0; i < n; i++)
        Q[i] += 3.0 * nrand();
    hy_loops_opts lo;
    hy_loops_opts_default(&lo);
    hy_loops L;
    assert_int_equal(hy_loops_analyze(q, Q, n, &lo, &L, NULL), HY_OK);
    hy_pwlfit_unloading u;
    hy_pwlfit_unloading_measure(q, Q, n, &L, NULL, 0.3, 0.05, &u);
    for (int s = 0; s < 2; s++) {
        print_message("side %d: inner %zu median %.1f, limit %zu median %.1f, unresolved %zu\n", s, u.n_inner[s],
                      u.k_inner[s], u.n_limit[s], u.k_limit[s], u.n_unresolved[s]);
        assert_true(u.n_inner[s] >= 2 && fabs(u.k_inner[s] / 2000.0 - 1) < 0.05);
        assert_true(u.n_limit[s] >= 1 && fabs(u.k_limit[s] / 2000.0 - 1) < 0.05);
    }
    hy_loops_free(&L);
    free(t), free(q), free(Q);
    hy_model_free(&truth);
}

/* --tol: the fewest segments whose per-branch RMS is within tol, so the count just before did not meet it. */
static void tolerance_rule(void **st)
{
    (void)st;
    hy_series s;
    hy_series_init(&s);
    read_record("pwl_double_loop", "fit", &s);
    hy_pwlfit_opts o;
    hy_pwlfit_opts_default(&o);
    o.tol = 1.1 * 30;
    hy_pwlfit_result r;
    assert_int_equal(hy_pwlfit_run(s.q, s.Q, s.t, s.n, &o, &r, NULL), HY_OK);
    for (int k = 0; k < 2; k++) {
        int nt = r.n_tried[k];
        assert_true(nt >= 2);
        assert_true(r.tried[k][nt - 1].rms_max <= o.tol);
        assert_true(r.tried[k][nt - 2].rms_max > o.tol);
        assert_true(fmax(r.side[k].F.rms, r.side[k].B.rms) <= o.tol);
    }
    hy_pwlfit_result_free(&r);
    /* an unreachable tolerance: the largest count tried is kept, with a warning */
    o.tol = 1.0;
    o.max_segments = 5;
    assert_int_equal(hy_pwlfit_run(s.q, s.Q, s.t, s.n, &o, &r, NULL), HY_OK);
    assert_true(r.n_warn >= 1 && strstr(r.warn[0], "not met") != NULL);
    hy_pwlfit_result_free(&r);
    hy_series_free(&s);
}

/* --symmetric: one fit of both sides pooled, the negative side its exact mirror. */
static void symmetric_fit_mirrors(void **st)
{
    (void)st;
    hy_series s;
    hy_series_init(&s);
    read_record("pwl_double_loop", "fit", &s);
    hy_pwlfit_opts o;
    hy_pwlfit_opts_default(&o);
    o.symmetric = 1;
    hy_pwlfit_result r;
    assert_int_equal(hy_pwlfit_run(s.q, s.Q, s.t, s.n, &o, &r, NULL), HY_OK);
    const hy_pwl_side *p = &r.table.positive, *m = &r.table.negative;
    assert_int_equal(p->forward.n, m->forward.n);
    assert_int_equal(p->backward.n, m->backward.n);
    for (size_t i = 0; i < p->forward.n; i++)
        assert_true(p->forward.q[i] == -m->forward.q[i] && p->forward.Q[i] == -m->forward.Q[i]);
    for (size_t i = 0; i < p->backward.n; i++)
        assert_true(p->backward.q[i] == -m->backward.q[i] && p->backward.Q[i] == -m->backward.Q[i]);
    assert_true(p->k_beyond == m->k_beyond);
    /* the report is JSON with the figures the docs describe */
    cJSON *rep = hy_pwlfit_report_json(&r, &o, "test");
    assert_non_null(cJSON_GetObjectItem(rep, "segments"));
    assert_non_null(cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "sides"), "positive"));
    cJSON *en = cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "replay"), "energy_per_cycle");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(en, "data")), (int)r.n_cycles);
    cJSON_Delete(rep);
    hy_pwlfit_result_free(&r);
    hy_series_free(&s);
}

/* ---- records the fit cannot use ---- */

static void bad_records(void **st)
{
    (void)st;
    enum { N = 400 };
    double q[N], Q[N];
    hy_pwlfit_opts o;
    hy_pwlfit_opts_default(&o);
    hy_pwlfit_result r;
    hy_err err;
    /* non-finite value */
    for (int i = 0; i < N; i++) {
        q[i] = 5 * sin(i / 20.0);
        Q[i] = 100 * q[i];
    }
    Q[17] = NAN;
    assert_int_equal(hy_pwlfit_run(q, Q, NULL, N, &o, &r, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "sample 18"));
    /* no reversal: a monotone ramp */
    for (int i = 0; i < N; i++) {
        q[i] = i * 0.01;
        Q[i] = 100 * q[i];
    }
    assert_int_equal(hy_pwlfit_run(q, Q, NULL, N, &o, &r, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "no reversal"));
    /* one-sided test (q >= 0 only): refused without --symmetric, fitted as a mirror with it */
    hy_model truth;
    read_truth("pwl_double_loop", &truth);
    double *t1, *q1, *Q1;
    const double amp[] = {5.25};
    const int cyc[] = {4};
    size_t n1 = make_record(truth.pwl, HY_DRIVE_TRIANGLE, amp, cyc, 1, 400, 10.0, &t1, &q1, &Q1);
    for (size_t i = 0; i < n1; i++) {   /* fold the history onto q >= 0, then redo the force */
        q1[i] = fabs(q1[i]) * 2.0;
    }
    hy_element e;
    size_t done;
    hy_diag dg;
    assert_int_equal(hy_pwl_element_new(truth.pwl, &e, NULL), HY_OK);
    assert_int_equal(hy_element_drive(&e, 0.0, t1, q1, n1, Q1, NULL, &done, &dg), HY_OK);
    hy_element_free(&e);
    for (size_t i = 0; i < n1; i++)
        Q1[i] += 10.0 * nrand();
    assert_int_equal(hy_pwlfit_run(q1, Q1, t1, n1, &o, &r, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "one-sided"));
    o.symmetric = 1;
    assert_int_equal(hy_pwlfit_run(q1, Q1, t1, n1, &o, &r, &err), HY_OK);
    assert_true(r.n_warn >= 1);
    int mirrored_warned = 0;
    for (int i = 0; i < r.n_warn; i++)
        mirrored_warned |= strstr(r.warn[i], "mirror") != NULL;
    assert_true(mirrored_warned);
    hy_pwlfit_result_free(&r);
    o.symmetric = 0;
    /* too few samples for the segments asked */
    o.segments_F = o.segments_B = 12;
    size_t small = 0;
    for (size_t i = 0; i < n1; i += 10)
        q1[small] = q1[i], Q1[small++] = Q1[i];
    o.symmetric = 1;
    assert_int_equal(hy_pwlfit_run(q1, Q1, NULL, small, &o, &r, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "too few samples"));
    /* a segment count the model cannot have */
    o.segments_F = 2;
    o.segments_B = 2;
    assert_int_equal(hy_pwlfit_run(q1, Q1, NULL, small, &o, &r, &err), HY_EARG);
    free(t1), free(q1), free(Q1);
    hy_model_free(&truth);
}


/* ---- one cycle per amplitude: the limit loop widened automatically (docs/fit-pwl.md, step 1) ---- */

/* (result, side) => the fitted table's points printed (for docs/fit-pwl.md) */
static void print_side(const hy_pwl_table *t, int s)
{
    const hy_pwl_side *sd = s ? &t->negative : &t->positive;
    for (int b = 0; b < 2; b++) {
        const hy_pwl_points *p = b ? &sd->backward : &sd->forward;
        print_message("  %s %s:", s ? "negative" : "positive", b ? "B" : "F");
        for (size_t i = 0; i < p->n; i++)
            print_message(" (%.3g, %.4g)", p->q[i], p->Q[i]);
        print_message("\n");
    }
    print_message("  k_beyond %.4g\n", sd->k_beyond);
}

/* The double-loop table under a triangle test with ONE cycle at each amplitude 1.5, 2.5, ..., 10.5 mm and 40
 * samples per cycle (fixtures/synthetic/pwl_double_loop_growing_fit.csv). Closed forms: each loop gives 40/4 = 10
 * samples to each branch of each side, so the default limit loop (the 10.5 mm loop alone) has 10 < 12; the
 * smallest widening that suffices takes in the 9.5 mm loop (20 per branch), amp-tol 1 - 9.5/10.5. The fitted
 * model replays the DIFFERENT validation drive of the double loop against the true model within NRMSE 2 % (the
 * target of every synthetic record; measured 1.19 %: ten samples 1.05 mm apart per branch and loop cannot
 * resolve the 0.5 mm segments of the table, so BIC keeps 2 forward and 3 backward segments). */
static void one_cycle_per_amplitude_widened(void **st)
{
    (void)st;
    hy_series s, v;
    hy_series_init(&s);
    hy_series_init(&v);
    read_record("pwl_double_loop_growing", "fit", &s);
    read_record("pwl_double_loop", "val", &v);
    hy_model truth;
    read_truth("pwl_double_loop", &truth);
    hy_pwlfit_opts o;
    hy_pwlfit_opts_default(&o);
    hy_pwlfit_result r;
    hy_err err;
    int rc = hy_pwlfit_run(s.q, s.Q, s.t, s.n, &o, &r, &err);
    if (rc)
        print_message("%s\n", err.msg);
    assert_int_equal(rc, HY_OK);
    const double tol = 1.0 - 9.5 / 10.5;
    for (int k = 0; k < 2; k++) {
        const hy_pwlfit_limit *lim = &r.limit[k];
        assert_int_equal(lim->rule, HY_PWLFIT_LIMIT_WIDENED);
        assert_true(fabs(lim->amp_tol - tol) < 1e-12);
        assert_true(lim->amp_tol0 == 0.05);
        assert_int_equal(lim->n_F0, 10);
        assert_int_equal(lim->n_B0, 10);
        assert_true(lim->amplitude == 10.5);
        assert_int_equal(lim->n_loops, 2);
        assert_int_equal(r.cycles[k], 2);
        for (size_t j = 0; j < 2; j++) {
            const hy_pwlfit_loop *lp = &lim->loops[j];
            assert_true(lp->amplitude == 9.5 + (double)j);       /* record order: 9.5 then 10.5 */
            assert_true(fabs(s.q[lp->i_peak]) == lp->amplitude);
            assert_true(k == 0 ? s.q[lp->i_peak] > 0 : s.q[lp->i_peak] < 0);
            assert_int_equal(lp->cycle, 8 + j);                   /* cycles 9 and 10 of `hyst loops` */
            assert_int_equal(lp->n_F, 10);
            assert_int_equal(lp->n_B, 10);
            assert_true(lp->i0 < lp->i_peak && lp->i_peak < lp->i1);
        }
        assert_int_equal(r.side[k].F.n, 20);
        assert_int_equal(r.side[k].B.n, 20);
    }
    hy_pwl_model *fm = NULL;
    assert_int_equal(hy_pwl_model_new(&r.table, "fit", &fm, NULL), HY_OK);
    double nrmse = validation_nrmse(truth.pwl, fm, &v);
    hy_pwl_table tt;
    hy_pwl_model_table(truth.pwl, &tt);
    int same_counts;
    double worst = worst_breakpoint(&tt, &r.table, &same_counts);
    print_message("growing, one cycle each: amp-tol %.4f, %zu + %zu loops, segments (%d, %d), validation NRMSE %.3f "
                  "%%, record NRMSE %.3f %%, worst true breakpoint to a fitted one %.3f mm\n",
                  r.limit[0].amp_tol, r.limit[0].n_loops, r.limit[1].n_loops, r.side[0].nF - 1, r.side[0].nB - 1,
                  100 * nrmse, 100 * r.nrmse, worst);
    print_side(&r.table, 0);
    print_side(&r.table, 1);
    assert_true(nrmse <= 0.02);
    assert_true(r.replayed && r.nrmse <= 0.02);
    /* the report says which loops and why */
    cJSON *rep = hy_pwlfit_report_json(&r, &o, "test");
    cJSON *ll = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "sides"), "negative"), "limit_loop");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(ll, "rule")), "widened");
    cJSON *loops = cJSON_GetObjectItem(ll, "loops");
    assert_int_equal(cJSON_GetArraySize(loops), 2);
    cJSON *l1 = cJSON_GetArrayItem(loops, 1);
    assert_int_equal((int)cJSON_GetNumberValue(cJSON_GetObjectItem(l1, "cycle")), 10);
    assert_int_equal((size_t)cJSON_GetNumberValue(cJSON_GetObjectItem(l1, "peak_row")), r.limit[1].loops[1].i_peak + 1);
    assert_true(cJSON_GetNumberValue(cJSON_GetObjectItem(l1, "amplitude")) == 10.5);
    assert_int_equal((int)cJSON_GetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(ll, "default"),
                                                                   "forward_samples")), 10);
    cJSON_Delete(rep);
    hy_pwl_model_free(fm);

    /* it is the smallest widening: the same tolerance given explicitly gives the same table, a little less fails */
    hy_pwlfit_result g;
    o.amp_tol_auto = 0;
    o.loops.amp_tol = tol + 1e-9;
    assert_int_equal(hy_pwlfit_run(s.q, s.Q, s.t, s.n, &o, &g, &err), HY_OK);
    assert_int_equal(g.limit[0].rule, HY_PWLFIT_LIMIT_GIVEN);
    for (int k = 0; k < 2; k++)
        for (int b = 0; b < 2; b++)
            for (int i = 0; i < r.side[k].nF && b == 0; i++)
                assert_true(g.tq[k][b][i] == r.tq[k][b][i] && g.tQ[k][b][i] == r.tQ[k][b][i]);
    assert_true(g.side[0].nB == r.side[0].nB && g.side[1].nB == r.side[1].nB);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < r.side[k].nB; i++)
            assert_true(g.tq[k][1][i] == r.tq[k][1][i] && g.tQ[k][1][i] == r.tQ[k][1][i]);
    hy_pwlfit_result_free(&g);
    o.loops.amp_tol = 0.9 * tol;
    assert_int_equal(hy_pwlfit_run(s.q, s.Q, s.t, s.n, &o, &g, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "too few samples"));
    assert_non_null(strstr(err.msg, "--amp-tol"));
    /* an explicit --amp-tol 0.05 (the default value, but given) is used as it is: no widening */
    o.loops.amp_tol = 0.05;
    assert_int_equal(hy_pwlfit_run(s.q, s.Q, s.t, s.n, &o, &g, &err), HY_EDATA);
    assert_non_null(strstr(err.msg, "positive side 10 forward, 10 backward"));
    hy_pwlfit_result_free(&r);
    hy_model_free(&truth);
    hy_series_free(&s);
    hy_series_free(&v);
}

/* Too sparse even widened: 16 samples per cycle (4 per branch and loop) at amplitudes 2, 4, 7, 10 mm. Widening
 * stops at half the largest amplitude: loops 10 and 7, 8 samples per branch < 12, so the fit fails and says how
 * far it widened; an explicit --amp-tol 0.7 takes in the 4 mm loop too (12 per branch) and fits. */
static void too_sparse_even_widened(void **st)
{
    (void)st;
    hy_model truth;
    read_truth("pwl_double_loop", &truth);
    double *t, *q, *Q;
    const double amp[] = {2, 4, 7, 10};
    const int cyc[] = {1, 1, 1, 1};
    size_t n = make_record(truth.pwl, HY_DRIVE_TRIANGLE, amp, cyc, 4, 16, 10.0, &t, &q, &Q);
    hy_pwlfit_opts o;
    hy_pwlfit_opts_default(&o);
    hy_pwlfit_result r;
    hy_err err;
    assert_int_equal(hy_pwlfit_run(q, Q, t, n, &o, &r, &err), HY_EDATA);
    print_message("%s\n", err.msg);
    assert_non_null(strstr(err.msg, "even with every loop down to 50 % of the largest amplitude"));
    assert_non_null(strstr(err.msg, "positive side 8 forward, 8 backward; negative side 8, 8"));
    assert_non_null(strstr(err.msg, "--amp-tol above 0.5"));
    o.amp_tol_auto = 0;
    o.loops.amp_tol = 0.7;
    int rc = hy_pwlfit_run(q, Q, t, n, &o, &r, &err);
    if (rc)
        print_message("%s\n", err.msg);
    assert_int_equal(rc, HY_OK);
    assert_int_equal(r.limit[0].n_loops, 3);
    assert_int_equal(r.side[0].F.n, 12);
    hy_pwlfit_result_free(&r);
    free(t), free(q), free(Q);
    hy_model_free(&truth);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fixture_double_loop),
        cmocka_unit_test(fixture_asymmetric),
        cmocka_unit_test(fixture_zero_backlash),
        cmocka_unit_test(fixture_small_stiff),
        cmocka_unit_test(fixture_friction),
        cmocka_unit_test(dense_record_5000_points_per_cycle),
        cmocka_unit_test(backlash_judged_by_bic),
        cmocka_unit_test(drift_shifts_by_hand),
        cmocka_unit_test(unloading_stiffness_is_k_max),
        cmocka_unit_test(tolerance_rule),
        cmocka_unit_test(symmetric_fit_mirrors),
        cmocka_unit_test(bad_records),
        cmocka_unit_test(one_cycle_per_amplitude_widened),
        cmocka_unit_test(too_sparse_even_widened),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

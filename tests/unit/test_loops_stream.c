/* hy_loops_stream (the loop analysis read in passes, `mech beam sim --summary`'s hinge loops) against
 * hy_loops_analyze on the whole record, the second method: threshold, rule, total energy, cycle count and every
 * cycle energy equal bit for bit (memcmp) on
 * - the hinge records of the four shipped beam examples (fixtures/mech/beam: paper-4.5, baseline, section-4.3,
 *   hinges-4 with four clearance hinges), run here by mech_beam_run: what the summary's test values come from;
 * - synthetic records that take every branch of the cycle boundaries (two-sided with a start below the centre, a
 *   start within the threshold above it, one-sided positive and negative records, inner loops, noise, a given
 *   threshold, a non-zero centre), records shorter and longer than a read (4096 samples), no reversal at all;
 * and the same errors (Q or q not finite, q constant, fewer than 3 samples). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/loops.h"
#include "mech/beam.h"

typedef struct arr {
    const double *q, *Q;
    size_t n, reads;
} arr;

static int arr_read(void *ctx, size_t i0, size_t m, double *q, double *Q, hy_err *err)
{
    arr *a = ctx;
    if (m > 4096 || i0 + m > a->n)
        return hy_err_set(err, HY_EARG, "read %zu + %zu of %zu", i0, m, a->n);
    memcpy(q, a->q + i0, m * sizeof *q);
    memcpy(Q, a->Q + i0, m * sizeof *Q);
    a->reads += m;
    return HY_OK;
}

/* (record, options) => the streamed numbers equal hy_loops_analyze's; the number of cycles */
static size_t same(const char *what, const double *q, const double *Q, size_t n, const hy_loops_opts *o)
{
    hy_loops L;
    hy_loops_sum S;
    hy_err e1, e2;
    arr a = {q, Q, n, 0};
    int r1 = hy_loops_analyze(q, Q, n, o, &L, &e1), r2 = hy_loops_stream(arr_read, &a, n, o, &S, &e2);
    if (r1 != r2)
        fail_msg("%s: analyze %d (%s), stream %d (%s)", what, r1, r1 ? e1.msg : "", r2, r2 ? e2.msg : "");
    if (r1 != HY_OK) {
        if (strcmp(e1.msg, e2.msg) != 0)
            fail_msg("%s: messages differ: '%s' / '%s'", what, e1.msg, e2.msg);
        return 0;
    }
    if (S.n_cyc != L.n_cyc)
        fail_msg("%s: %zu cycles streamed, %zu whole", what, S.n_cyc, L.n_cyc);
    if (memcmp(&S.threshold, &L.threshold, sizeof S.threshold) != 0 || S.threshold_rule != L.threshold_rule)
        fail_msg("%s: threshold %.17g (%d) streamed, %.17g (%d) whole", what, S.threshold, S.threshold_rule,
                 L.threshold, L.threshold_rule);
    if (memcmp(&S.total_energy, &L.total_energy, sizeof S.total_energy) != 0)
        fail_msg("%s: total energy %.17g streamed, %.17g whole", what, S.total_energy, L.total_energy);
    for (size_t k = 0; k < L.n_cyc; k++)
        if (memcmp(&S.cyc_energy[k], &L.cyc[k].energy, sizeof(double)) != 0)
            fail_msg("%s: cycle %zu energy %.17g streamed, %.17g whole", what, k, S.cyc_energy[k], L.cyc[k].energy);
    assert_true(a.reads >= 5 * n && a.reads <= 6 * n);   /* five passes and the cycles' sixth, in order */
    size_t nc = L.n_cyc;
    print_message("%-34s n %7zu  threshold %-9.3g %-5s  cycles %3zu  inner %3zu  rule %s\n", what, n, L.threshold,
                  hy_loops_rule_name(L.threshold_rule), nc, L.n_inner, hy_loops_cycle_rule_name(L.cycle_rule));
    hy_loops_free(&L);
    hy_loops_sum_free(&S);
    return nc;
}

static void shipped_beam_examples(void **state)
{
    (void)state;
    const char *names[4] = {"paper-4.5", "baseline", "section-4.3", "hinges-4"};
    size_t cycles = 0;
    for (int f = 0; f < 4; f++) {
        char path[256];
        snprintf(path, sizeof path, "fixtures/mech/beam/%s.json", names[f]);
        mech_beam_config c;
        hy_err err;
        if (mech_beam_config_read(path, &c, &err) != HY_OK)
            fail_msg("%s (run from the top of the repository)", err.msg);
        mech_beam_model *m;
        if (mech_beam_model_new(&c.params, &m, &err) != HY_OK)
            fail_msg("%s", err.msg);
        size_t n;
        assert_int_equal(mech_beam_samples(&c.solver, &n, &err), HY_OK);
        int nh = c.params.n_hinges;
        double *buf = calloc(n * (6 + 2 * (size_t)nh), sizeof *buf);
        assert_non_null(buf);
        mech_beam_history h = {.cap = n, .t = buf, .w_tip = buf + n, .theta = buf + 2 * n, .theta_dot = buf + 3 * n,
                               .U = buf + 4 * n, .F = buf + 5 * n, .dtheta = buf + 6 * n,
                               .M = buf + (6 + (size_t)nh) * n};
        int rc = mech_beam_run(m, &c.solver, &c.load, NULL, &h, &err);
        if (rc != HY_OK && !h.failed)
            fail_msg("%s: %s", path, err.msg);
        hy_loops_opts o;
        hy_loops_opts_default(&o);
        for (int j = 0; j < nh; j++) {
            char what[64];
            snprintf(what, sizeof what, "%s hinge %d", names[f], j + 1);
            cycles += same(what, h.dtheta + (size_t)j * n, h.M + (size_t)j * n, h.n, &o);
        }
        free(buf);
        mech_beam_model_free(m);
        mech_beam_config_free(&c);
    }
    assert_true(cycles >= 20);   /* the comparison saw cycles: the examples are not all quiet */
}

// (seed) => uniform in [-1, 1) (a fixed LCG: the same record on every machine)
static double urand(unsigned long long *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 4503599627370496.0 - 1.0;
}

static void synthetic_records(void **state)
{
    (void)state;
    size_t N = 30001;
    double *q = malloc(N * sizeof *q), *Q = malloc(N * sizeof *Q);
    assert_non_null(q);
    assert_non_null(Q);
    hy_loops_opts o;
    unsigned long long seed = 42;
    for (int kind = 0; kind < 9; kind++) {
        size_t n = kind == 7 ? 4097 : kind == 8 ? 4096 * 3 : N;
        for (size_t i = 0; i < n; i++) {
            double t = (double)i / (double)n, w = 2 * M_PI * 12 * t, amp = 1 + 2 * t;
            double x;
            switch (kind) {
            case 0: x = amp * sin(w) - 0.3; break;                                  /* starts below the centre  */
            case 1: x = amp * sin(w) + 0.002; break;                                /* starts within h above it */
            case 2: x = amp * (1 - cos((24 * M_PI + 0.24) * t - 0.14)); break;   /* one-sided, minima in the ends */
            case 3: x = -amp * (1 - cos(w)) - 0.001; break;                         /* one-sided negative       */
            case 4: x = amp * sin(w) + 0.3 * sin(17 * w); break;                    /* inner loops              */
            case 5: x = amp * sin(w) + 0.01 * urand(&seed); break;                  /* noise                    */
            case 6: x = 3 * t; break;                                               /* monotonic: no reversal   */
            default: x = sin(w) * (1 + 0.5 * sin(3 * w)); break;                    /* across read boundaries   */
            }
            q[i] = x;
            Q[i] = 2 * x + 0.4 * cos(w) + (kind == 5 ? 0.01 * urand(&seed) : 0);   /* a loop: Q leads q */
        }
        hy_loops_opts_default(&o);
        char what[64];
        snprintf(what, sizeof what, "synthetic %d", kind);
        same(what, q, Q, n, &o);
        o.center = 0.25;
        snprintf(what, sizeof what, "synthetic %d, centre 0.25", kind);
        same(what, q, Q, n, &o);
        o.center = 0, o.threshold = 0.05;
        snprintf(what, sizeof what, "synthetic %d, threshold 0.05", kind);
        same(what, q, Q, n, &o);
    }
    /* short records: 3, 4, 5 samples (the lag-2 median from 5 on) */
    double qs[5] = {0, 1, -1, 2, -2}, Qs[5] = {0, 1, -1, 3, -3};
    hy_loops_opts_default(&o);
    for (size_t n = 3; n <= 5; n++)
        same("short", qs, Qs, n, &o);
    /* the errors, with the same messages */
    same("two samples", qs, Qs, 2, &o);
    double c3[4] = {1, 1, 1, 1};
    same("q constant", c3, Qs, 4, &o);
    double nq[5] = {0, 1, NAN, 2, -2}, nQ[5] = {0, 1, -1, INFINITY, -3};
    same("q not finite", nq, Qs, 5, &o);
    same("Q not finite (reported first)", nq, nQ, 5, &o);
    free(q);
    free(Q);
}

/* a reader error stops the analysis with its status and message */
static int failing_read(void *ctx, size_t i0, size_t m, double *q, double *Q, hy_err *err)
{
    (void)q, (void)Q, (void)m;
    size_t *at = ctx;
    return i0 >= *at ? hy_err_set(err, HY_EIO, "disk gone at %zu", i0) : (memset(q, 0, m * sizeof *q),
                                                                           memset(Q, 0, m * sizeof *Q), HY_OK);
}

static void reader_error(void **state)
{
    (void)state;
    size_t at = 4096;
    hy_loops_sum S;
    hy_err err;
    assert_int_equal(hy_loops_stream(failing_read, &at, 10000, NULL, &S, &err), HY_EIO);
    assert_string_equal(err.msg, "disk gone at 4096");
    assert_null(S.cyc_energy);
    assert_int_equal(S.n_cyc, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shipped_beam_examples),
        cmocka_unit_test(synthetic_records),
        cmocka_unit_test(reader_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

// Invariants of the pwl model over long seeded random walks (no NaN, Q continuous, Q between the envelopes,
// energy over every closed cycle >= 0), loop areas against analytic polygons, the friction shift of spec 000 §3
// against hand computation, trial / commit / revert semantics and the element interface.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include "hyst/model.h"
#include "hyst/pwl.h"
#include "test_pwl_util.h"

static uint64_t rng_state;
static uint64_t rng_next(void) /* xorshift64* */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}
static double rng_unit(void) { return (double)(rng_next() >> 11) / 9007199254740992.0; }

static hy_pwl_model *make(hy_pwl_table t)
{
    hy_pwl_model *m;
    hy_err err;
    if (hy_pwl_model_new(&t, "t", &m, &err) != HY_OK)
        fail_msg("%s", err.msg);
    return m;
}

/* ---- exact work of one step: integral of Q dq along the path from the committed q to q ----
 * Q is piecewise linear along a monotone step with kinks only at table points (shifted by the friction shift),
 * and at the ends of the transition segments in use (the committed one and the one a reversal at the start
 * creates, both visible in the committed and trial states). Evaluating Q there by trials from the committed
 * state (the trial semantics under test) and summing trapezoids gives the exact integral. */
typedef struct {
    double v[64];
    int n;
} vertex_set;

static void vertices_of(const hy_pwl_table *t, vertex_set *vs)
{
    const hy_pwl_points *p[4] = {&t->positive.forward, &t->positive.backward, &t->negative.forward,
                                 &t->negative.backward};
    vs->n = 0;
    for (int j = 0; j < 4; j++)
        for (size_t i = 0; i < p[j]->n; i++)
            vs->v[vs->n++] = p[j]->q[i];
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* trial + commit from the committed state to q, with the work of the step; returns the trial's code */
static int step_with_work(hy_pwl_data *d, const vertex_set *vs, double q, double qdot, double *Q, double *work)
{
    double a = d->committed.q, Qa = d->committed.Q, k;
    hy_diag dg;
    int rc = hy_pwl_trial(d, q, qdot, Q, &k, &dg);
    if (rc != HY_OK)
        return rc;
    hy_pwl_state end = d->trial;
    double dir = q > a ? 1 : -1, lo = fmin(a, q), hi = fmax(a, q);
    double cand[160];
    int n = 0;
    const double shifts[2] = {d->committed.shift, end.shift};
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < vs->n; i++)
            cand[n++] = vs->v[i] + shifts[s];
    cand[n++] = d->committed.q3b;
    cand[n++] = d->committed.q3e;
    cand[n++] = end.q3b;
    cand[n++] = end.q3e;
    qsort(cand, (size_t)n, sizeof cand[0], cmp_dbl);
    double w = 0, x0 = a, Q0 = Qa;
    for (int i = 0; i < n; i++) {
        int j = dir > 0 ? i : n - 1 - i;
        double x = cand[j];
        if (!(x > lo && x < hi) || x == x0)
            continue;
        double Qx;
        if (hy_pwl_trial(d, x, dir, &Qx, &k, &dg) != HY_OK)
            fail_msg("intermediate trial failed");
        w += (x - x0) * (Qx + Q0) / 2;
        x0 = x;
        Q0 = Qx;
    }
    w += (q - x0) * (*Q + Q0) / 2;
    if (q == a)
        w = 0;
    *work = w;
    /* the last trial must be the real one: redo it (trials are independent of earlier trials) */
    rc = hy_pwl_trial(d, q, qdot, Q, &k, &dg);
    assert_memory_equal(&d->trial, &end, sizeof end);
    hy_pwl_commit(d);
    return rc;
}

/* ---- the random walk ---- */

#define H (1.0 / 64) /* lattice: every table point and every friction shift is a multiple of it */
#define NLAT 2048

typedef struct {
    double W, A, Q, shift;
    int valid;
} visit;

static void random_walk(hy_pwl_table t, uint64_t seed, long steps, double qlim)
{
    hy_pwl_model *m = make(t);
    hy_pwl_data d;
    hy_pwl_data_init(&d, m);
    vertex_set vs;
    vertices_of(&t, &vs);
    rng_state = seed;
    double kmax = fmax(hy_pwl_model_kmax(m, 1), hy_pwl_model_kmax(m, -1));
    double scaleQ = fmax(fabs(ref_branch(&t.positive.forward, t.positive.k_beyond, qlim)),
                         fabs(ref_branch(&t.negative.forward, t.negative.k_beyond, -qlim)));
    static visit rec[7][NLAT]; /* states 0, +-1, +-2, +-10 by lattice index */
    memset(rec, 0, sizeof rec);
    long cycles = 0, dissipative = 0, states_seen[21] = {0};
    double W = 0, A = 0, Qp = 0;
    long j = 0; /* lattice index of q */
    for (long s = 0; s < steps; s++) {
        long dj;
        double u = rng_unit();
        if (u < 0.85)
            dj = 1 + (long)(rng_next() % 6);
        else if (u < 0.97)
            dj = 1 + (long)(rng_next() % 128);
        else
            dj = 1 + (long)(rng_next() % (long)(2 * qlim / H));
        if (rng_next() & 1)
            dj = -dj;
        long L = (long)(qlim / H);
        if (labs(j + dj) > L)
            dj = -dj;
        if (labs(j + dj) > L)
            dj = ((rng_next() & 1) ? L : -L) - j;
        double q = (j + dj) * H, qprev = j * H;
        double qdot = (double)dj, v = rng_unit();
        if (v < 0.05)
            qdot = 0; /* no direction information */
        else if (v < 0.08)
            qdot = -qdot; /* the velocity already points back (an RK stage near a reversal) */
        double Q, w;
        int rc = step_with_work(&d, &vs, q, qdot, &Q, &w);
        if (rc != HY_OK)
            fail_msg("step %ld: trial(%g, %g) failed with %d", s, q, qdot, rc);
        j += dj;
        /* no NaN, continuity, envelopes */
        if (!isfinite(Q) || !isfinite(d.committed.dQdq))
            fail_msg("step %ld: Q = %g", s, Q);
        if (fabs(Q - Qp) > kmax * fabs(q - qprev) + 1e-9 * scaleQ)
            fail_msg("step %ld: Q jumped from %.17g to %.17g over dq = %g (k_max %g)", s, Qp, Q, q - qprev, kmax);
        double lo, hi;
        ref_envelope(&t, q - d.committed.shift, &lo, &hi);
        if (Q < lo - 1e-9 * scaleQ || Q > hi + 1e-9 * scaleQ)
            fail_msg("step %ld: Q = %.17g outside the envelopes [%.17g, %.17g] at q = %g (state %d)", s, Q, lo, hi, q,
                     d.committed.state);
        if (d.committed.dQdq < -1e-12 || d.committed.dQdq > kmax * (1 + 1e-9))
            fail_msg("step %ld: tangent %g outside [0, k_max]", s, d.committed.dQdq);
        states_seen[d.committed.state + 10]++;
        W += w;
        A += fabs(w);
        Qp = Q;
        /* closed cycles: back at a lattice point on a single-valued curve with the same Q (same shift) */
        int st = d.committed.state, slot;
        switch (st) {
        case 0: slot = 0; break;
        case 1: slot = 1; break;
        case -1: slot = 2; break;
        case 2: slot = 3; break;
        case -2: slot = 4; break;
        case 10: slot = 5; break;
        case -10: slot = 6; break;
        default: slot = -1;
        }
        long li = j + NLAT / 2;
        if (slot >= 0 && li >= 0 && li < NLAT) {
            visit *r = &rec[slot][li];
            if (r->valid && r->shift == d.committed.shift && fabs(r->Q - Q) <= 1e-12 * scaleQ) {
                double diss = W - r->W;
                if (diss < -1e-12 * (A - r->A) - 1e-12 * scaleQ * qlim)
                    fail_msg("step %ld: a closed cycle at q = %g produced energy %.3g", s, q, -diss);
                cycles++;
                if (diss > 1e-6 * scaleQ * H)
                    dissipative++;
            }
            *r = (visit){W, A, Q, d.committed.shift, 1};
        }
    }
    /* the walk must have exercised every state and many cycles, else these checks prove little */
    for (int st = -10; st <= 10; st++) {
        int a = abs(st);
        if (a == 0 || a == 1 || a == 2 || a == 3 || a == 10)
            if (states_seen[st + 10] == 0)
                fail_msg("the walk never committed state %d", st);
    }
    if (cycles < steps / 20 || dissipative < cycles / 50)
        fail_msg("only %ld closed cycles (%ld dissipative) in %ld steps", cycles, dissipative, steps);
    print_message("%ld steps: %ld closed cycles checked, %ld of them dissipative\n", steps, cycles, dissipative);
    hy_pwl_model_free(m);
}

static void random_walk_constant(void **state)
{
    (void)state;
    random_walk(table_constant(), 0x9E3779B97F4A7C15ULL, 1000000, 10);
}

static void random_walk_symmetric(void **state)
{
    (void)state;
    random_walk(table_symmetric(), 12345, 300000, 6);
}

static void random_walk_friction(void **state)
{
    (void)state;
    random_walk(table_friction(), 777, 300000, 16);
}

/* ---- loop areas ---- */

static double shoelace(const double (*p)[2], int n)
{
    double a = 0;
    for (int i = 0; i < n; i++) {
        const double *u = p[i], *v = p[(i + 1) % n];
        a += u[0] * v[1] - v[0] * u[1];
    }
    return fabs(a) / 2;
}

/* drive the lattice path a -> b in steps of H, returning the work (exact: every kink is on the lattice) */
static double lattice_leg(hy_pwl_data *d, double a, double b)
{
    long n = lround(fabs(b - a) / H);
    double w = 0, Qp = d->committed.Q, qp = d->committed.q, Q;
    for (long i = 1; i <= n; i++) {
        double q = a + (b > a ? 1 : -1) * i * H;
        assert_int_equal(pwl_go(d, q, b - a, &Q), HY_OK);
        w += (q - qp) * (Q + Qp) / 2;
        qp = q;
        Qp = Q;
    }
    return w;
}

static void full_loop_area_equals_polygon(void **state)
{
    (void)state;
    hy_pwl_table t = table_constant();
    hy_pwl_model *m = make(t);
    hy_pwl_data d;
    hy_pwl_data_init(&d, m);
    lattice_leg(&d, 0, 9);
    double w = lattice_leg(&d, 9, -7) + lattice_leg(&d, -7, 9);
    /* the loop of either side is the polygon F forward then B back (common parts enclose nothing) */
    double pos[8][2], neg[8][2];
    int np = 0, nn = 0;
    for (int i = 1; i < 5; i++) {
        pos[np][0] = CP_Fq[i], pos[np++][1] = CP_FQ[i];
        neg[nn][0] = CN_Fq[i], neg[nn++][1] = CN_FQ[i];
    }
    for (int i = 3; i > 1; i--) {
        pos[np][0] = CP_Bq[i], pos[np++][1] = CP_BQ[i];
        neg[nn][0] = CN_Bq[i], neg[nn++][1] = CN_BQ[i];
    }
    double area = shoelace((const double (*)[2])pos, np) + shoelace((const double (*)[2])neg, nn);
    assert_true(fabs(area - 27.5) < 1e-12); /* by hand: 17.75 + 9.75 */
    if (fabs(w - area) > 1e-9 * area)
        fail_msg("loop work %.17g, polygon area %.17g", w, area);
    hy_pwl_model_free(m);
}

static void inner_loop_area_equals_polygon(void **state)
{
    (void)state;
    hy_pwl_table t = table_constant();
    hy_pwl_model *m = make(t);
    hy_pwl_data d;
    hy_pwl_data_init(&d, m);
    vertex_set vs;
    vertices_of(&t, &vs);
    double Q, w1, w2, w3, w4;
    assert_int_equal(pwl_go(&d, 7, 1, &Q), HY_OK);
    /* 7 -> 4 -> 7 in two big steps and again in eight small ones: the loop closes at (7, 10) */
    assert_int_equal(step_with_work(&d, &vs, 4, -1, &Q, &w1), HY_OK);
    assert_true(Q == 2.5 && d.committed.state == 2);
    assert_int_equal(step_with_work(&d, &vs, 7, 1, &Q, &w2), HY_OK);
    assert_true(fabs(Q - 10) < 1e-12 && d.committed.state == 1);
    /* by hand: down the transition (7,10) -> (70/13, 46/13), B to (4, 2.5), up the transition to F at
     * (31/6, 43/6), F through (6, 8) back to (7, 10) */
    const double poly[5][2] = {{7, 10}, {70.0 / 13, 46.0 / 13}, {4, 2.5}, {31.0 / 6, 43.0 / 6}, {6, 8}};
    double area = shoelace(poly, 5);
    if (fabs(w1 + w2 - area) > 1e-9 * area)
        fail_msg("inner loop work %.17g, polygon area %.17g", w1 + w2, area);
    w3 = w4 = 0;
    for (int i = 1; i <= 4; i++) {
        double w;
        assert_int_equal(step_with_work(&d, &vs, 7 - 0.75 * i, -1, &Q, &w), HY_OK);
        w3 += w;
    }
    for (int i = 1; i <= 4; i++) {
        double w;
        assert_int_equal(step_with_work(&d, &vs, 4 + 0.75 * i, 1, &Q, &w), HY_OK);
        w4 += w;
    }
    assert_true(fabs(w3 + w4 - area) <= 1e-9 * area);
    hy_pwl_model_free(m);
}

/* ---- friction: cumulative shift (spec 000 §3 item 2) ---- */

static void friction_shift_by_hand(void **state)
{
    (void)state;
    hy_pwl_model *m = make(table_friction());
    hy_pwl_data d;
    hy_pwl_data_init(&d, m);
    double Q;
#define GO(q, qd, st, Qx, sh)                                                                                          \
    do {                                                                                                               \
        assert_int_equal(pwl_go(&d, (q), (qd), &Q), HY_OK);                                                            \
        if (d.committed.state != (st) || fabs(Q - (Qx)) > 1e-12 || fabs(d.committed.shift - (sh)) > 1e-12)             \
            fail_msg("at q = %g: state %d Q %.17g shift %g, expected %d %.17g %g", (double)(q), d.committed.state, Q,  \
                     d.committed.shift, (st), (double)(Qx), (double)(sh));                                             \
    } while (0)
    GO(13, 1, 10, 8, 0);           /* slips 3 past q_FP(N) = 10 at constant force                       */
    GO(11, -1, 2, 14.0 / 3, 3);    /* reversal: shift 13 - 10 = 3; B(11 - 3) = 3 + (5/3)(1)             */
    GO(-12, -1, -10, -8, 3);       /* down through 0 (now at q = 3) to q_FN(N) + 3 = -7, slips 5         */
    GO(0, 1, 1, 3, -2);            /* reversal: shift 3 + (-12 - (-7)) = -2; up to x = 2: F(2) = 2 + 1    */
    GO(15, 1, 10, 8, -2);          /* slips 7 past q_FP(N) - 2 = 8                                       */
    GO(14, -1, 2, 19.0 / 3, 5);    /* reversal: shift -2 + (15 - 8) = 5; B(14 - 5) = 3 + (5/3)(2)         */
    GO(15, 1, 1, 8, 5);            /* up the transition to F and on F to its last point (x = 10)         */
    GO(15.5, 1, 10, 8, 5);
    GO(14.5, -1, 2, 8 - 5.0 / 3 * 1, 5.5); /* shift accumulates once more: 5 + (15.5 - 15) = 5.5         */
    /* a reversal that does not reach the slip does not shift */
    GO(13, -1, 2, 3 + 5.0 / 3 * 0.5, 5.5); /* x = 7.5 */
    GO(14, 1, 3, 35.0 / 6, 5.5);           /* transition from (7.5, 23/6) with slope 2, below F(8.5) = 7.25 */
    /* strict mode: the extreme is the largest q reached, here the trial point itself */
    hy_pwl_data_init(&d, m);
    hy_pwl_set_strict(&d, 1);
    GO(0.5, 1, 0, 1, 0);
    GO(2, 1, 1, 3, 0);
    GO(13, 1, 10, 8, 0);
    GO(13.5, -1, 2, 8, 3.5);       /* 10 -> 2 at q = 13.5 > 13: shift 3.5, B(10) = 8                     */
    GO(12.5, -1, 2, 8 - 5.0 / 3, 3.5);
#undef GO
    hy_pwl_model_free(m);
}

/* ---- trial / commit / revert ---- */

static void trial_never_touches_committed(void **state)
{
    (void)state;
    hy_pwl_model *m = make(table_symmetric());
    hy_pwl_data d;
    hy_pwl_data_init(&d, m);
    double Q, k;
    hy_diag dg;
    assert_int_equal(pwl_go(&d, 4.2, 1, &Q), HY_OK);
    assert_int_equal(pwl_go(&d, 3.9, -1, &Q), HY_OK);
    assert_int_equal(d.committed.state, 3);
    hy_pwl_data copy = d;
    rng_state = 42;
    for (int i = 0; i < 1000; i++) {
        double q = -6 + 12 * rng_unit(), qd = rng_unit() - 0.5;
        hy_pwl_set_strict(&d, i & 1);
        hy_pwl_trial(&d, q, i % 7 == 0 ? 0 : qd, &Q, &k, &dg);
        assert_memory_equal(&d.committed, &copy.committed, sizeof copy.committed);
    }
    hy_pwl_set_strict(&d, 0);
    hy_pwl_revert(&d);
    /* bit-identical after many trials and a revert */
    assert_memory_equal(&d.committed, &copy.committed, sizeof d.committed);
    assert_memory_equal(&d.trial, &copy.trial, sizeof d.trial);
    /* a trial after others gives the same result as a trial on a fresh copy */
    double Q1, Q2, k1, k2;
    assert_int_equal(hy_pwl_trial(&d, 2.5, -1, &Q1, &k1, &dg), HY_OK);
    hy_pwl_commit(&d);
    assert_int_equal(hy_pwl_trial(&copy, 2.5, -1, &Q2, &k2, &dg), HY_OK);
    hy_pwl_commit(&copy);
    assert_true(Q1 == Q2 && k1 == k2);
    assert_memory_equal(&d.committed, &copy.committed, sizeof d.committed);
    /* an error leaves the trial equal to the committed state */
    assert_int_equal(hy_pwl_trial(&d, NAN, 1, &Q, &k, &dg), HY_ERANGE);
    assert_memory_equal(&d.trial, &d.committed, sizeof d.trial);
    hy_pwl_model_free(m);
}

/* ---- the element interface ---- */

static void element_drive_matches_typed_api(void **state)
{
    (void)state;
    char path[1024];
    const char *top = getenv("TOP");
    snprintf(path, sizeof path, "%s/fixtures/models/pwl-symmetric.json", top ? top : ".");
    hy_model model;
    hy_err err;
    if (hy_model_read(path, &model, &err) != HY_OK)
        fail_msg("%s", err.msg);
    hy_element e;
    assert_int_equal(hy_model_element(&model, &e, &err), HY_OK);
    assert_string_equal(e.ops->family, "pwl");
    hy_pwl_data *pd = hy_pwl_element_data(&e);
    assert_non_null(pd);
    enum { N = 2000 };
    static double t[N], q[N], Qe[N], Qt[N];
    static int st[N];
    for (int i = 0; i < N; i++) { /* a decaying sine with an inner loop every cycle */
        t[i] = 0.01 * i;
        q[i] = 6.5 * exp(-t[i] / 10) * sin(2 * M_PI * t[i]) + 0.6 * sin(6 * M_PI * t[i]);
    }
    size_t done;
    hy_diag dg;
    assert_int_equal(hy_element_drive(&e, 0, t, q, N, Qe, st, &done, &dg), HY_OK);
    assert_int_equal(done, N);
    hy_pwl_data d;
    hy_pwl_data_init(&d, model.pwl);
    int seen3 = 0, seen10 = 0;
    for (int i = 0; i < N; i++) {
        double qdot = i ? (q[i] - q[i - 1]) / (t[i] - t[i - 1]) : q[0];
        assert_int_equal(pwl_go(&d, q[i], qdot, &Qt[i]), HY_OK);
        assert_true(Qt[i] == Qe[i]);
        assert_int_equal(st[i], d.committed.state);
        seen3 |= abs(st[i]) == 3;
        seen10 |= abs(st[i]) == 10;
    }
    assert_true(seen3 && seen10);
    assert_int_equal(hy_element_state(&e), d.committed.state);
    /* reset through the vtable */
    assert_int_equal(hy_element_reset(&e, 2, 1.75, &err), HY_OK); /* on B */
    assert_int_equal(hy_element_state(&e), 2);
    assert_int_equal(hy_element_reset(&e, 2, 9, &err), HY_EMODEL);
    /* a strict-mode violation stops the drive at the offending sample with the diagnostic */
    assert_int_equal(hy_element_reset(&e, 0, 0, &err), HY_OK);
    hy_pwl_set_strict(pd, 1);
    const double jump[] = {0.1, 2, 2.5, -3, -4};
    double Qj[5];
    assert_int_equal(hy_element_drive(&e, 0, NULL, jump, 5, Qj, NULL, &done, &dg), HY_ESTATE);
    assert_int_equal(done, 3);
    assert_int_equal(dg.state, 1);
    assert_true(dg.q == -3 && dg.qdot == -5.5);
    char buf[400];
    hy_diag_format(&dg, buf, sizeof buf);
    assert_non_null(strstr(buf, "state-machine violation in state 1 at q = -3"));
    assert_int_equal(hy_element_state(&e), 1); /* the committed state before the violation */
    /* not a pwl element */
    hy_element other = {NULL, NULL};
    assert_null(hy_pwl_element_data(&other));
    hy_element_free(&e);
    hy_element_free(&e);
    hy_model_free(&model);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_walk_constant),
        cmocka_unit_test(random_walk_symmetric),
        cmocka_unit_test(random_walk_friction),
        cmocka_unit_test(full_loop_area_equals_polygon),
        cmocka_unit_test(inner_loop_area_equals_polygon),
        cmocka_unit_test(friction_shift_by_hand),
        cmocka_unit_test(trial_never_touches_committed),
        cmocka_unit_test(element_drive_matches_typed_api),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

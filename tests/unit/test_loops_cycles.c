// Loop analysis: where cycles start and end (docs/loops.md, "Cycles"). Records built here from an
// elastic-perfectly-plastic element driven through known protocols, so every count, amplitude and energy is read
// off the construction: an increasing-amplitude protocol with repeated cycles and partial inner loops, a one-sided
// record (0 -> A -> 0), the same records about an offset (--center) and their noisy versions (seeded).
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "hyst/loops.h"

#define REL(a, b) (fabs((a) - (b)) / fabs(b))

/* xorshift64* and Box-Muller: a small seeded Gaussian source independent of the library */
static uint64_t rng = 1;
static double uniform(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return ((double)((rng * 2685821657736338717ULL) >> 11) + 0.5) / 9007199254740992.0;
}
static double gauss(void)
{
    double u1 = uniform(), u2 = uniform();   /* sequenced: the operands of * are not */
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* ---- records -------------------------------------------------------------------------------------------------- */

static const double FY = 1.0, KE = 10.0, UY = 0.1;   /* EPP: yield force, stiffness, yield displacement */
static const double D = 0.005;                       /* q step: every vertex and yield corner is a sample */

typedef struct rec {
    size_t n, cap;
    long   k;        /* current position in steps of D */
    double *q, *Q;
} rec;

// (record, position in steps) => the samples of a straight move from the current position to it
static void move_to(rec *r, long k)
{
    while (r->k != k) {
        r->k += k > r->k ? 1 : -1;
        if (r->n == r->cap) {
            r->cap = r->cap ? 2 * r->cap : 4096;
            r->q = realloc(r->q, r->cap * sizeof *r->q);
            r->Q = realloc(r->Q, r->cap * sizeof *r->Q);
        }
        r->q[r->n] = (double)r->k * D;
        r->n++;
    }
}

/* EPP element along the path: Q = clamp(Q + k dq, -Fy, Fy) from rest. Its closed forms: a cycle 0 -> A -> -A
 * -> 0 from a crossing at Q = Fy encloses 4 Fy (A - uy); a partial inner loop of travel d (> 2 uy) on a plateau
 * 2 Fy (d - 2 uy); the first cycle, loading from rest, 1/2 Fy uy less (docs/loops.md, tests in
 * test_loops_energy.c). */
// (record with q) => Q filled in
static void epp_force(rec *r)
{
    r->Q[0] = 0;
    for (size_t i = 1; i < r->n; i++) {
        double f = r->Q[i - 1] + KE * (r->q[i] - r->q[i - 1]);
        r->Q[i] = f > FY ? FY : f < -FY ? -FY : f;
    }
}

// (amplitude in steps, inner loops?, side s) => one excursion 0 -> s A -> 0; with inner loops the motion
// reverses at 0.5 A on the way out, goes back by 0.3 A and returns
static void excursion(rec *r, long a, int inner, int s)
{
    if (inner) {
        move_to(r, s * a / 2);
        move_to(r, s * (a / 2 - 3 * a / 10));
    }
    move_to(r, s * a);
    move_to(r, 0);
}

/* The protocol: amplitudes 1, 1, 1.5, 1.5, 2, 2, 2, 3, 3; inner loops (both sides) in cycles 3 and 6 (1-based). */
enum { NP = 9 };
static const long PA[NP] = {200, 200, 300, 300, 400, 400, 400, 600, 600};   /* in steps of D */
static const int PI_[NP] = {0, 0, 1, 0, 0, 1, 0, 0, 0};

// (side) => the two-sided protocol (side 0) or its one-sided version 0 -> s A -> 0 (side s = +1, -1)
static rec protocol(int side)
{
    rec r = {1, 4096, 0, malloc(4096 * sizeof(double)), malloc(4096 * sizeof(double))};
    r.q[0] = 0;
    for (int c = 0; c < NP; c++) {
        if (side == 0) {
            excursion(&r, PA[c], PI_[c], +1);
            excursion(&r, PA[c], PI_[c], -1);
        } else {
            excursion(&r, PA[c], PI_[c], side);
        }
    }
    epp_force(&r);
    return r;
}

// (record, offset, noise on q, noise on Q, seed) => a copy shifted by the offset, with white noise added
static rec perturbed(const rec *r, double off, double sq, double sQ, uint64_t seed)
{
    rec p = *r;
    p.q = malloc(r->n * sizeof *p.q);
    p.Q = malloc(r->n * sizeof *p.Q);
    rng = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (size_t i = 0; i < r->n; i++) {
        p.q[i] = r->q[i] + off + sq * gauss();
        p.Q[i] = r->Q[i] + sQ * gauss();
    }
    return p;
}

static void drop(rec *r)
{
    free(r->q);
    free(r->Q);
}

// (analysis, inner loops per protocol cycle that has them) => n_inner of every cycle as the protocol says; every
// inner loop with a cycle lies inside it, and as many have one as the cycles count
static void inner_loops_in_their_cycles(const hy_loops *L, int per_cycle)
{
    size_t total = 0;
    for (size_t c = 0; c < L->n_cyc; c++) {
        assert_int_equal(L->cyc[c].n_inner, (size_t)(PI_[c] * per_cycle));
        total += L->cyc[c].n_inner;
    }
    size_t held = 0;
    for (size_t j = 0; j < L->n_inner; j++) {
        const hy_inner_loop *y = &L->inner[j];
        if (j > 0)
            assert_true(L->inner[j - 1].i0 < y->i0);
        if (y->cycle == HY_LOOPS_NONE)
            continue;
        held++;
        assert_true(y->cycle < L->n_cyc);
        const hy_cycle *c = &L->cyc[y->cycle];
        assert_true(c->i0 <= y->i0 && y->i0 < y->i_turn && y->i_turn < y->i1 && y->i1 <= c->i1);
    }
    assert_int_equal(held, total);
}

/* ---- two-sided: one cycle per protocol cycle ------------------------------------------------------------------ */

static void protocol_gives_one_cycle_per_protocol_cycle(void **state)
{
    (void)state;
    rec r = protocol(0);
    hy_loops L;
    hy_err err;
    assert_int_equal(hy_loops_analyze(r.q, r.Q, r.n, NULL, &L, &err), HY_OK);
    assert_int_equal(L.cycle_rule, HY_LOOPS_CYC_CROSSING);
    assert_int_equal(L.cycle_side, 0);
    /* 2 reversals per protocol cycle plus 2 x 2 per cycle with inner loops; the inner ones are not major */
    assert_int_equal(L.n_rev, 2 * NP + 4 * 2);
    assert_int_equal(L.n_major, 2 * NP);
    assert_int_equal(L.n_inner, 4);
    assert_int_equal(L.n_cyc, NP);
    for (size_t c = 0; c < NP; c++) {
        const hy_cycle *y = &L.cyc[c];
        double A = (double)PA[c] * D, d = 0.3 * A;
        assert_true(r.q[y->i0] == 0 && r.q[y->i1] == 0);   /* boundaries at the crossings of 0 */
        assert_true(fabs(y->amp_pos - A) <= 1e-12 && fabs(y->amp_neg - A) <= 1e-12);
        double e = 4 * FY * (A - UY) + 2.0 * PI_[c] * 2 * FY * (d - 2 * UY) - (c == 0 ? 0.5 * FY * UY : 0);
        assert_true(y->energy > 0);
        assert_true(REL(y->energy, e) <= 1e-9);
    }
    inner_loops_in_their_cycles(&L, 2);
    for (size_t j = 0; j < L.n_inner; j++) {
        const hy_inner_loop *y = &L.inner[j];
        double d = 0.3 * (double)PA[y->cycle] * D;
        assert_true(fabs(y->range - d) <= 1e-12);
        assert_true(REL(y->energy, 2 * FY * (d - 2 * UY)) <= 1e-9);
        assert_true(r.q[y->i1] == r.q[y->i0] && r.q[y->i1 - 1] != r.q[y->i0]);   /* first sample back there */
        assert_int_equal(y->kind, r.q[y->i0] > 0 ? +1 : -1);   /* a dip on the way up, a rise on the way down */
    }
    /* the cycles cover the record from the start to the end: their energies add up to the total */
    assert_int_equal(L.cyc[0].i0, 0);
    assert_int_equal(L.cyc[NP - 1].i1, r.n - 1);
    assert_true(REL(L.cyc[NP - 1].cum_energy, L.total_energy) <= 1e-12);
    hy_loops_free(&L);
    drop(&r);
}

static void noisy_protocol_gives_the_same_cycles(void **state)
{
    (void)state;
    rec r = protocol(0);
    hy_loops C;
    assert_int_equal(hy_loops_analyze(r.q, r.Q, r.n, NULL, &C, NULL), HY_OK);
    for (uint64_t seed = 1; seed <= 8; seed++) {
        /* noise 0.002 on q (0.07 % of the largest amplitude), 1 % of Fy on Q; default threshold */
        rec p = perturbed(&r, 0, 0.002, 0.01, seed);
        hy_loops L;
        assert_int_equal(hy_loops_analyze(p.q, p.Q, p.n, NULL, &L, NULL), HY_OK);
        assert_int_equal(L.cycle_rule, HY_LOOPS_CYC_CROSSING);
        assert_int_equal(L.n_rev, C.n_rev);
        assert_int_equal(L.n_cyc, NP);
        inner_loops_in_their_cycles(&L, 2);
        for (size_t c = 0; c < NP; c++) {
            const hy_cycle *y = &L.cyc[c];
            double A = (double)PA[c] * D;
            assert_true(fabs(p.q[y->i0]) < 0.02 && fabs(p.q[y->i1]) < 0.02);
            assert_true(fabs(y->amp_pos - A) < 0.01 && fabs(y->amp_neg - A) < 0.01);
            assert_true(y->energy > 0);
            assert_true(REL(y->energy, C.cyc[c].energy) < 0.01);
        }
        hy_loops_free(&L);
        drop(&p);
    }
    hy_loops_free(&C);
    drop(&r);
}

static void inner_loop_in_a_piece_belongs_to_no_cycle(void **state)
{
    (void)state;
    /* the protocol, then a last excursion out to +A with its inner loop that never returns through 0: the
     * piece after the last boundary is not a cycle, and its inner loop belongs to none */
    rec r = protocol(0);
    move_to(&r, 200);
    move_to(&r, 80);
    move_to(&r, 400);
    epp_force(&r);
    hy_loops L;
    assert_int_equal(hy_loops_analyze(r.q, r.Q, r.n, NULL, &L, NULL), HY_OK);
    assert_int_equal(L.n_cyc, NP);
    assert_int_equal(L.n_inner, 5);
    inner_loops_in_their_cycles(&L, 2);   /* checks the first 4 through the cycles' counts */
    assert_true(L.inner[4].i0 > L.cyc[NP - 1].i1);
    assert_true(L.inner[4].cycle == HY_LOOPS_NONE);
    hy_loops_free(&L);
    drop(&r);
}

// (analysis, q, Q, tolerances) => every inner loop's closing sample and area equal a brute-force search and
// trapezoid
static void inner_loops_by_brute_force(const hy_loops *L, const double *q, const double *Q, double rel, double abs_)
{
    for (size_t j = 0; j < L->n_inner; j++) {
        const hy_inner_loop *y = &L->inner[j];
        size_t i1 = y->i_turn + 1;
        while (y->kind * q[i1] < y->kind * q[y->i0])
            i1++;
        assert_int_equal(y->i1, i1);
        double e = 0.5 * (Q[i1] + Q[y->i0]) * (q[y->i0] - q[i1]);
        for (size_t i = y->i0 + 1; i <= i1; i++)
            e += 0.5 * (Q[i] + Q[i - 1]) * (q[i] - q[i - 1]);
        assert_true(fabs(y->energy - e) <= rel * fabs(e) + abs_);
    }
}

static void nested_inner_loops_close_in_turn(void **state)
{
    (void)state;
    /* 0 -> 1 -> 0.5 -> 0.9 -> 0.6 -> 0.8 -> 0.7 -> 2 -> -2 -> 0: three inner loops nested in one another, all
     * closed on the rise to 2 (innermost first); each one's closing sample and area by brute force */
    static const long v[] = {200, 100, 180, 120, 160, 140, 400, -400, 0};
    rec r = {1, 4096, 0, malloc(4096 * sizeof(double)), malloc(4096 * sizeof(double))};
    r.q[0] = 0;
    for (size_t j = 0; j < sizeof v / sizeof v[0]; j++)
        move_to(&r, v[j]);
    epp_force(&r);
    hy_loops L;
    assert_int_equal(hy_loops_analyze(r.q, r.Q, r.n, NULL, &L, NULL), HY_OK);
    assert_int_equal(L.n_inner, 3);
    assert_int_equal(L.n_major, 2);
    assert_int_equal(L.n_cyc, 1);
    assert_int_equal(L.cyc[0].n_inner, 3);
    for (size_t j = 0; j < 3; j++) {
        const hy_inner_loop *y = &L.inner[j];
        assert_true(fabs(r.q[y->i0] - (double)v[2 * j] * D) < 1e-12);
        assert_true(fabs(r.q[y->i_turn] - (double)v[2 * j + 1] * D) < 1e-12);
        /* EPP: a loop of travel d encloses 2 Fy (d - 2 uy) when d > 2 uy, nothing when the dip stays elastic
         * (0.8 -> 0.7), plus the loops nested in it */
        static const double closed[] = {2 * 0.3 + 2 * 0.1, 2 * 0.1, 0};
        assert_true(fabs(y->energy - closed[j]) <= 1e-9);
    }
    inner_loops_by_brute_force(&L, r.q, r.Q, 1e-12, 1e-15);
    hy_loops_free(&L);
    drop(&r);
}

static void inner_loop_on_a_flat_top_closes_after_its_turn(void **state)
{
    (void)state;
    /* the reversal is the first sample of the flat top at 1.0; the loop closes where q is back at 1.0 after the
     * dip to 0.5 (sample 6), not on the flat top's second sample */
    const double q[] = {0, 0.5, 1.0, 1.0, 0.75, 0.5, 1.0, 1.5, 2.0, 1.0, 0.0};
    const double Q[] = {0, 1, 2, 2, 1, 0, 1, 2, 3, 1, -1};
    hy_loops_opts o;
    hy_loops_opts_default(&o);
    o.threshold = 0.25;
    hy_loops L;
    assert_int_equal(hy_loops_analyze(q, Q, 11, &o, &L, NULL), HY_OK);
    assert_int_equal(L.n_inner, 1);
    assert_int_equal(L.inner[0].i0, 2);
    assert_int_equal(L.inner[0].i_turn, 5);
    assert_int_equal(L.inner[0].i1, 6);
    inner_loops_by_brute_force(&L, q, Q, 1e-15, 0);
    hy_loops_free(&L);
}

static void inner_loop_areas_stay_exact_in_a_long_record(void **state)
{
    (void)state;
    /* an inner loop on the way out to the first peak, 100 ellipse cycles of area pi 1000 x 1000 (3e8 in all),
     * and a small inner loop (area about 0.2) at the end: the running integral the areas come from is
     * compensated, so the last loop's area is exact to 1e-12 (a plain running sum fails this check) */
    size_t n = 0, cap = 400000;
    double *q = malloc(cap * sizeof *q), *Q = malloc(cap * sizeof *Q);
    static const double v[] = {0, 1, 0.6, 2, 0};
    for (size_t j = 0; j + 1 < 5; j++)
        for (int k = j ? 1 : 0; k <= 40; k++, n++) {
            q[n] = v[j] + (v[j + 1] - v[j]) * k / 40;
            Q[n] = 2 * q[n] + 0.3 * (v[j + 1] > v[j] ? 1 : -1);
        }
    for (int i = 1; i <= 100 * 2000; i++, n++) {
        double t = 2 * M_PI * i / 2000;
        q[n] = 1000 * sin(t);
        Q[n] = q[n] + 1000 * cos(t);
    }
    static const double w[] = {0, -1000, 1, 0.6, 1000, 0};
    for (size_t j = 0; j + 1 < 6; j++)
        for (int k = 1; k <= 4000; k++, n++) {
            q[n] = w[j] + (w[j + 1] - w[j]) * k / 4000;
            Q[n] = 2 * q[n] + 0.3 * (w[j + 1] > w[j] ? 1 : -1);
        }
    hy_loops_opts o;
    hy_loops_opts_default(&o);
    o.threshold = 0.1;   /* the default, 0.5 % of the range 2000, would not see the small loops */
    hy_loops L;
    assert_int_equal(hy_loops_analyze(q, Q, n, &o, &L, NULL), HY_OK);
    assert_int_equal(L.n_inner, 2);
    inner_loops_by_brute_force(&L, q, Q, 1e-12, 0);
    hy_loops_free(&L);
    free(q);
    free(Q);
}

/* ---- one-sided: 0 -> A_k -> 0 ---------------------------------------------------------------------------------- */

// (side) => checks of the one-sided protocol on that side, clean and noisy
static void one_sided(int side)
{
    rec r = protocol(side);
    for (uint64_t seed = 0; seed <= 4; seed++) {
        rec p = seed ? perturbed(&r, 0, 0.002, 0.01, seed) : r;
        hy_loops L;
        assert_int_equal(hy_loops_analyze(p.q, p.Q, p.n, NULL, &L, NULL), HY_OK);
        assert_int_equal(L.cycle_rule, HY_LOOPS_CYC_ONE_SIDED);
        assert_int_equal(L.cycle_side, side);
        assert_int_equal(L.n_cyc, NP);
        inner_loops_in_their_cycles(&L, 1);
        for (size_t c = 0; c < NP; c++) {
            const hy_cycle *y = &L.cyc[c];
            double A = (double)PA[c] * D, d = 0.3 * A;
            /* boundaries at the returns to 0 (the major minima of the positive side) */
            assert_true(fabs(p.q[y->i0]) < 0.01 && fabs(p.q[y->i1]) < 0.01);
            double far = side > 0 ? y->amp_pos : y->amp_neg, near = side > 0 ? y->amp_neg : y->amp_pos;
            assert_true(fabs(far - A) < (seed ? 0.01 : 1e-12));
            assert_true(fabs(near) < (seed ? 0.01 : 1e-12));
            assert_true(y->energy > 0);
            /* each excursion: the loop between the plateaus +-Fy, 2 Fy (A - 2 uy), plus its inner loop; the
             * first one loads from rest (encloses 3/2 Fy uy more: its loading line lies left of a reload's) */
            double e = 2 * FY * (A - 2 * UY) + PI_[c] * 2 * FY * (d - 2 * UY) + (c == 0 ? 1.5 * FY * UY : 0);
            assert_true(REL(y->energy, e) <= (seed ? 0.01 : 1e-9));
        }
        hy_loops_free(&L);
        if (seed)
            drop(&p);
    }
    drop(&r);
}

static void one_sided_record_gives_one_cycle_per_excursion(void **state)
{
    (void)state;
    one_sided(+1);
    one_sided(-1);
}

/* ---- an offset record: --center ------------------------------------------------------------------------------ */

static void offset_record_with_its_center(void **state)
{
    (void)state;
    rec r = protocol(0);
    hy_loops C;
    assert_int_equal(hy_loops_analyze(r.q, r.Q, r.n, NULL, &C, NULL), HY_OK);
    for (uint64_t seed = 0; seed <= 4; seed++) {
        rec p = perturbed(&r, 50.0, seed ? 0.002 : 0, seed ? 0.01 : 0, seed);
        hy_loops_opts o;
        hy_loops_opts_default(&o);
        hy_loops L;
        /* about 0 the record is one-sided (q >= 47): cycles from one major minimum to the next, and the start
         * and the end at q = 50 are not back at 0, so the first excursion and the last return are pieces */
        assert_int_equal(hy_loops_analyze(p.q, p.Q, p.n, &o, &L, NULL), HY_OK);
        assert_int_equal(L.cycle_rule, HY_LOOPS_CYC_ONE_SIDED);
        assert_int_equal(L.n_cyc, NP - 1);
        for (size_t c = 0; c < L.n_cyc; c++)
            assert_true(L.cyc[c].energy > 0);
        hy_loops_free(&L);
        /* about its centre 50 it is the protocol again: the same cycles, amplitudes from 50 */
        o.center = 50.0;
        assert_int_equal(hy_loops_analyze(p.q, p.Q, p.n, &o, &L, NULL), HY_OK);
        assert_int_equal(L.cycle_rule, HY_LOOPS_CYC_CROSSING);
        assert_true(L.center == 50.0);
        assert_int_equal(L.n_cyc, NP);
        inner_loops_in_their_cycles(&L, 2);
        for (size_t c = 0; c < NP; c++) {
            const hy_cycle *y = &L.cyc[c], *x = &C.cyc[c];
            if (!seed) {
                assert_int_equal(y->i0, x->i0);
                assert_int_equal(y->i1, x->i1);
            }
            double tol = seed ? 0.01 : 1e-9;
            assert_true(fabs(y->amp_pos - x->amp_pos) < tol && fabs(y->amp_neg - x->amp_neg) < tol);
            assert_true(REL(y->energy, x->energy) < tol);
            assert_true(REL(y->e_strain, x->e_strain) < (seed ? 0.05 : 1e-9));
        }
        hy_loops_free(&L);
        drop(&p);
    }
    hy_loops_free(&C);
    drop(&r);
}

/* ---- pieces before the first boundary and after the last ------------------------------------------------------ */

enum { EN = 4000 };
static const double EA = 2.0;

// (first and last sample of q = A sin(2 pi i / EN)) => cycle count of the record and first cycle's start
static size_t sine_cycles(long i0, long i1, size_t *start)
{
    size_t n = (size_t)(i1 - i0 + 1);
    double *q = malloc(n * sizeof *q), *Q = malloc(n * sizeof *Q);
    for (size_t j = 0; j < n; j++) {
        double t = 2 * M_PI * (double)(i0 + (long)j) / EN;
        q[j] = EA * sin(t);
        Q[j] = 3 * q[j] + 0.5 * cos(t);
    }
    hy_loops L;
    assert_int_equal(hy_loops_analyze(q, Q, n, NULL, &L, NULL), HY_OK);
    assert_true(fabs(L.threshold - 0.02) < 1e-6);   /* floor: 0.5 % of the range 4 */
    size_t nc = L.n_cyc;
    *start = nc ? L.cyc[0].i0 + (size_t)0 : 0;
    for (size_t c = 0; c < nc; c++) {
        assert_true(fabs(q[L.cyc[c].i0]) < 2 * M_PI * EA / EN);
        assert_true(REL(L.cyc[c].energy, M_PI * EA * 0.5) < 1e-6);
    }
    hy_loops_free(&L);
    free(q);
    free(Q);
    return nc;
}

static void pieces_outside_the_boundaries_are_not_cycles(void **state)
{
    (void)state;
    size_t s;
    /* t = 0 .. 6 pi: from 0 rising, back at 0 at the end: 3 cycles */
    assert_int_equal(sine_cycles(0, 3 * EN, &s), 3);
    assert_int_equal(s, 0);
    /* t = pi .. 7 pi: starts falling, so the first half is a piece; ends falling: 2 cycles from t = 2 pi */
    assert_int_equal(sine_cycles(EN / 2, 7 * EN / 2, &s), 2);
    assert_int_equal(s, EN / 2);
    /* t = -pi/2 .. 4.5 pi: starts at -A rising, so its crossing at t = 0 is a boundary: 2 cycles */
    assert_int_equal(sine_cycles(-EN / 4, 9 * EN / 4, &s), 2);
    assert_int_equal(s, EN / 4);
    /* ends 2 samples before t = 4 pi, q = -0.0063, within the threshold 0.02 below 0: the end closes cycle 2 */
    assert_int_equal(sine_cycles(0, 2 * EN - 2, &s), 2);
    /* ends 40 samples before, q = -0.13: the last cycle is a piece */
    assert_int_equal(sine_cycles(0, 2 * EN - 40, &s), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(protocol_gives_one_cycle_per_protocol_cycle),
        cmocka_unit_test(noisy_protocol_gives_the_same_cycles),
        cmocka_unit_test(inner_loop_in_a_piece_belongs_to_no_cycle),
        cmocka_unit_test(nested_inner_loops_close_in_turn),
        cmocka_unit_test(inner_loop_on_a_flat_top_closes_after_its_turn),
        cmocka_unit_test(inner_loop_areas_stay_exact_in_a_long_record),
        cmocka_unit_test(one_sided_record_gives_one_cycle_per_excursion),
        cmocka_unit_test(offset_record_with_its_center),
        cmocka_unit_test(pieces_outside_the_boundaries_are_not_cycles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

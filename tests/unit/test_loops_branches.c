// Loop analysis: backbone curves and the branches of the limit loop on a designed record whose segments are
// known, so the expected points are read off the construction (not off the analysis).
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/loops.h"

enum { M = 40 };   /* samples per straight segment */

typedef struct record {
    size_t n, nv;
    double *q, *Q;
    double v[64];  /* vertices: start, then alternating peaks, then the end; vertex j is sample j M */
} record;

/* Triangle wave through the vertices; Q = 2 q + 0.3 dir (dir of the segment arriving at the sample), a
 * clockwise parallelogram-like loop. */
// (vertices v[nv]) => the record
static record make(const double *v, size_t nv)
{
    record r;
    r.nv = nv;
    memcpy(r.v, v, nv * sizeof *v);
    r.n = (nv - 1) * M + 1;
    r.q = malloc(r.n * sizeof *r.q);
    r.Q = malloc(r.n * sizeof *r.Q);
    r.q[0] = v[0];
    r.Q[0] = 2 * v[0];
    for (size_t j = 0; j + 1 < nv; j++) {
        double dir = v[j + 1] > v[j] ? 1 : -1;
        for (int k = 1; k <= M; k++) {
            size_t i = j * M + (size_t)k;
            r.q[i] = k == M ? v[j + 1] : v[j] + (v[j + 1] - v[j]) * k / M;   /* vertices exact */
            r.Q[i] = 2 * r.q[i] + 0.3 * dir;
        }
    }
    return r;
}

static void drop(record *r)
{
    free(r->q);
    free(r->Q);
}

// (record, segment j, side s, curve, offset) => checks that the points of segment j with s q > 0 come next in
// the curve from *at on; advances *at
static void expect_segment(const record *r, size_t j, int s, const hy_curve *c, size_t *at)
{
    for (size_t i = j * M; i <= (j + 1) * M; i++) {
        if (s * r->q[i] <= 0)
            continue;
        assert_true(*at < c->n);
        assert_true(c->q[*at] == r->q[i]);
        assert_true(c->Q[*at] == r->Q[i]);
        (*at)++;
    }
}

/* positive peaks 1, 2, 3, 3, 2.9, 1.5; negative 0.8, 1.6, 2.4, 2.4, 2.35, 1.0; ends at 0.5 */
static const double V[] = {0, 1, -0.8, 2, -1.6, 3, -2.4, 3, -2.4, 2.9, -2.35, 1.5, -1.0, 0.5};
#define NV (sizeof V / sizeof V[0])

static void branches_use_every_cycle_near_the_limit(void **state)
{
    (void)state;
    record r = make(V, NV);
    hy_loops L;
    hy_loops_opts o;
    hy_loops_opts_default(&o);
    assert_true(o.amp_tol == 0.05);
    assert_int_equal(hy_loops_analyze(r.q, r.Q, r.n, &o, &L, NULL), HY_OK);
    assert_int_equal(L.n_rev, NV - 2);
    hy_branches B;
    assert_int_equal(hy_loops_branches(r.q, r.Q, r.n, &L, &o, &B, NULL), HY_OK);
    /* positive: the rising segments to 3, 3 and 2.9 (>= 0.95 x 3) are segments 4, 6, 8; unloading 5, 7, 9 */
    assert_int_equal(B.cycles_pos, 3);
    assert_true(B.amp_pos == 3);
    size_t at = 0;
    expect_segment(&r, 4, +1, &B.fwd_pos, &at);
    expect_segment(&r, 6, +1, &B.fwd_pos, &at);
    expect_segment(&r, 8, +1, &B.fwd_pos, &at);
    assert_int_equal(at, B.fwd_pos.n);
    at = 0;
    expect_segment(&r, 5, +1, &B.bwd_pos, &at);
    expect_segment(&r, 7, +1, &B.bwd_pos, &at);
    expect_segment(&r, 9, +1, &B.bwd_pos, &at);
    assert_int_equal(at, B.bwd_pos.n);
    /* negative: falling segments to -2.4, -2.4, -2.35 (>= 0.95 x 2.4) are 5, 7, 9; recovery 6, 8, 10 */
    assert_int_equal(B.cycles_neg, 3);
    assert_true(B.amp_neg == 2.4);
    at = 0;
    expect_segment(&r, 5, -1, &B.fwd_neg, &at);
    expect_segment(&r, 7, -1, &B.fwd_neg, &at);
    expect_segment(&r, 9, -1, &B.fwd_neg, &at);
    assert_int_equal(at, B.fwd_neg.n);
    at = 0;
    expect_segment(&r, 6, -1, &B.bwd_neg, &at);
    expect_segment(&r, 8, -1, &B.bwd_neg, &at);
    expect_segment(&r, 10, -1, &B.bwd_neg, &at);
    assert_int_equal(at, B.bwd_neg.n);
    /* forward: |q| grows within each cycle; backward: it shrinks; the peak belongs to both */
    for (size_t i = 1; i < B.fwd_pos.n; i++)
        if (B.fwd_pos.q[i] < B.fwd_pos.q[i - 1])
            assert_true(B.fwd_pos.q[i] < 0.15);  /* only where the next cycle starts again near 0 */
    assert_true(B.fwd_pos.q[B.fwd_pos.n - 1] == r.q[9 * M] && B.bwd_pos.q[0] == r.q[5 * M]);
    hy_branches_free(&B);

    /* amp_tol 0: only the cycles that reach the largest peak exactly */
    o.amp_tol = 0;
    assert_int_equal(hy_loops_branches(r.q, r.Q, r.n, &L, &o, &B, NULL), HY_OK);
    assert_int_equal(B.cycles_pos, 2);
    assert_int_equal(B.cycles_neg, 2);
    at = 0;
    expect_segment(&r, 4, +1, &B.fwd_pos, &at);
    expect_segment(&r, 6, +1, &B.fwd_pos, &at);
    assert_int_equal(at, B.fwd_pos.n);
    hy_branches_free(&B);
    hy_loops_free(&L);
    drop(&r);
}

static void backbone_is_the_envelope_of_the_peaks(void **state)
{
    (void)state;
    record r = make(V, NV);
    hy_loops L;
    assert_int_equal(hy_loops_analyze(r.q, r.Q, r.n, NULL, &L, NULL), HY_OK);
    /* new largest peaks in record order: 1, 2, 3 and -0.8, -1.6, -2.4 (vertices 1, 3, 5 and 2, 4, 6) */
    static const size_t vp[] = {1, 3, 5}, vn[] = {2, 4, 6};
    assert_int_equal(L.backbone_pos.n, 3);
    assert_int_equal(L.backbone_neg.n, 3);
    for (size_t k = 0; k < 3; k++) {
        assert_true(L.backbone_pos.q[k] == V[vp[k]]);
        assert_true(L.backbone_pos.Q[k] == r.Q[vp[k] * M]);
        assert_true(L.backbone_neg.q[k] == V[vn[k]]);
        assert_true(L.backbone_neg.Q[k] == r.Q[vn[k] * M]);
    }
    hy_loops_free(&L);
    drop(&r);
}

static void virgin_loading_is_used_only_when_alone(void **state)
{
    (void)state;
    /* the first loading reaches the largest peak (3); a later peak at 2.9 qualifies, so only it is used */
    static const double v1[] = {0, 3, -2, 2, -2, 2.9, -1};
    record r = make(v1, 7);
    hy_loops L;
    hy_branches B;
    assert_int_equal(hy_loops_analyze(r.q, r.Q, r.n, NULL, &L, NULL), HY_OK);
    assert_int_equal(hy_loops_branches(r.q, r.Q, r.n, &L, NULL, &B, NULL), HY_OK);
    assert_int_equal(B.cycles_pos, 1);
    assert_true(B.amp_pos == 3);
    size_t at = 0;
    expect_segment(&r, 4, +1, &B.fwd_pos, &at);
    assert_int_equal(at, B.fwd_pos.n);
    hy_branches_free(&B);
    hy_loops_free(&L);
    drop(&r);
    /* nothing else comes near 3: the virgin loading is the forward branch, its unloading the backward one */
    static const double v2[] = {0, 3, -1.5, 2, -2.1, 1};
    r = make(v2, 6);
    assert_int_equal(hy_loops_analyze(r.q, r.Q, r.n, NULL, &L, NULL), HY_OK);
    assert_int_equal(hy_loops_branches(r.q, r.Q, r.n, &L, NULL, &B, NULL), HY_OK);
    assert_int_equal(B.cycles_pos, 1);
    at = 0;
    expect_segment(&r, 0, +1, &B.fwd_pos, &at);
    assert_int_equal(at, B.fwd_pos.n);
    at = 0;
    expect_segment(&r, 1, +1, &B.bwd_pos, &at);
    assert_int_equal(at, B.bwd_pos.n);
    assert_true(B.amp_neg == 2.1);
    assert_int_equal(B.cycles_neg, 1);
    hy_branches_free(&B);
    hy_loops_free(&L);
    drop(&r);
}

static void monotone_record_has_a_forward_branch_only(void **state)
{
    (void)state;
    static const double v[] = {-0.5, 2};
    record r = make(v, 2);
    hy_loops L;
    hy_branches B;
    assert_int_equal(hy_loops_analyze(r.q, r.Q, r.n, NULL, &L, NULL), HY_OK);
    assert_int_equal(hy_loops_branches(r.q, r.Q, r.n, &L, NULL, &B, NULL), HY_OK);
    size_t at = 0;
    expect_segment(&r, 0, +1, &B.fwd_pos, &at);
    assert_int_equal(at, B.fwd_pos.n);
    assert_int_equal(B.bwd_pos.n, 0);
    assert_int_equal(B.fwd_neg.n, 0);
    assert_int_equal(B.bwd_neg.n, 0);
    assert_int_equal(B.cycles_neg, 0);
    hy_branches_free(&B);
    hy_loops_free(&L);
    drop(&r);
}

static void bad_arguments(void **state)
{
    (void)state;
    record r = make(V, NV);
    hy_loops L;
    hy_branches B;
    hy_err err;
    assert_int_equal(hy_loops_analyze(r.q, r.Q, r.n, NULL, &L, NULL), HY_OK);
    hy_loops_opts o = {0, 1.0, 0.0};
    assert_int_equal(hy_loops_branches(r.q, r.Q, r.n, &L, &o, &B, &err), HY_EARG);
    o.amp_tol = -0.1;
    assert_int_equal(hy_loops_branches(r.q, r.Q, r.n, &L, &o, &B, &err), HY_EARG);
    assert_int_equal(hy_loops_branches(r.q, r.Q, r.n - 1, &L, NULL, &B, &err), HY_EARG);
    assert_int_equal(hy_loops_branches(r.q, r.Q, r.n, NULL, NULL, &B, &err), HY_EARG);
    assert_int_equal(B.fwd_pos.n, 0);
    assert_null(B.fwd_pos.q);
    hy_loops_free(&L);
    drop(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(branches_use_every_cycle_near_the_limit),
        cmocka_unit_test(backbone_is_the_envelope_of_the_peaks),
        cmocka_unit_test(virgin_loading_is_used_only_when_alone),
        cmocka_unit_test(monotone_record_has_a_forward_branch_only),
        cmocka_unit_test(bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

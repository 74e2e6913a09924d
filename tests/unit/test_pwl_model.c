// Table validation (HY_EMODEL naming the key path), the JSON hooks (errors, exact number round trip, extra keys),
// and placing an element at a given point (reset).
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cjson/cJSON.h>
#include "hyst/model.h"
#include "hyst/pwl.h"
#include "test_pwl_util.h"

/* a mutable copy of the constant table, so that each case can break one thing */
typedef struct {
    double pFq[5], pFQ[5], pBq[5], pBQ[5], nFq[5], nFQ[5], nBq[5], nBQ[5];
    hy_pwl_table t;
} tbl;

static void tbl_init(tbl *b)
{
    memcpy(b->pFq, CP_Fq, sizeof b->pFq);
    memcpy(b->pFQ, CP_FQ, sizeof b->pFQ);
    memcpy(b->pBq, CP_Bq, sizeof b->pBq);
    memcpy(b->pBQ, CP_BQ, sizeof b->pBQ);
    memcpy(b->nFq, CN_Fq, sizeof b->nFq);
    memcpy(b->nFQ, CN_FQ, sizeof b->nFQ);
    memcpy(b->nBq, CN_Bq, sizeof b->nBq);
    memcpy(b->nBQ, CN_BQ, sizeof b->nBQ);
    b->t = (hy_pwl_table){HY_PWL_CONSTANT,
                          {{5, b->pFq, b->pFQ}, {5, b->pBq, b->pBQ}, 4},
                          {{5, b->nFq, b->nFQ}, {5, b->nBq, b->nBQ}, 6}};
}

/* the table must be rejected with HY_EMODEL and a message containing every given fragment */
static void rejected(const tbl *b, const char *frag1, const char *frag2)
{
    hy_pwl_model *m = (hy_pwl_model *)1;
    hy_err err;
    hy_err_clear(&err);
    int rc = hy_pwl_model_new(&b->t, "t.json", &m, &err);
    if (rc != HY_EMODEL)
        fail_msg("expected HY_EMODEL for \"%s\", got %d (%s)", frag1, rc, err.msg);
    assert_null(m);
    if (strncmp(err.msg, "t.json: ", 8) != 0 || !strstr(err.msg, frag1) || (frag2 && !strstr(err.msg, frag2)))
        fail_msg("message \"%s\" lacks \"%s\" / \"%s\"", err.msg, frag1, frag2 ? frag2 : "");
}

static void valid_tables_compile(void **state)
{
    (void)state;
    hy_pwl_table ts[3] = {table_constant(), table_friction(), table_symmetric()};
    const double kmax[3][2] = {{4, 6}, {2, 2}, {16, 16}};
    for (int i = 0; i < 3; i++) {
        hy_pwl_model *m;
        hy_err err;
        assert_int_equal(hy_pwl_model_new(&ts[i], "t", &m, &err), HY_OK);
        assert_true(hy_pwl_model_kmax(m, 1) == kmax[i][0] && hy_pwl_model_kmax(m, -1) == kmax[i][1]);
        hy_pwl_table v;
        hy_pwl_model_table(m, &v);
        assert_int_equal(v.kind, ts[i].kind);
        assert_int_equal(v.positive.backward.n, ts[i].positive.backward.n);
        assert_memory_equal(v.negative.backward.Q, ts[i].negative.backward.Q, v.negative.backward.n * sizeof(double));
        assert_memory_equal(v.positive.forward.q, ts[i].positive.forward.q, v.positive.forward.n * sizeof(double));
        assert_true(v.negative.k_beyond == ts[i].negative.k_beyond);
        assert_true(v.positive.forward.q != ts[i].positive.forward.q); /* copied, not borrowed */
        hy_pwl_model_free(m);
    }
    /* zero-width backlash and the smallest table: two points per branch (the common segment only) */
    double q[] = {0, 1}, Q[] = {0, 3}, nq[] = {0, -1}, nQ[] = {0, -3};
    hy_pwl_table t = {HY_PWL_CONSTANT, {{2, q, Q}, {2, q, Q}, 3}, {{2, nq, nQ}, {2, nq, nQ}, 3}};
    hy_pwl_model *m;
    assert_int_equal(hy_pwl_model_new(&t, "t", &m, NULL), HY_OK);
    hy_pwl_model_free(m);
}

static void validation_errors_name_the_key(void **state)
{
    (void)state;
    tbl b;
    tbl_init(&b);
    b.t.positive.forward.n = 1;
    rejected(&b, "positive.forward: needs at least 2 points", NULL);

    tbl_init(&b);
    b.pBq[2] = 0.9; /* not beyond point 2 (q = 1) */
    rejected(&b, "positive.backward[2]: q = 0.9", "ordered outward");

    tbl_init(&b);
    b.nFq[3] = -1.5; /* |q| goes back from 2 to 1.5 */
    rejected(&b, "negative.forward[3]", "ordered outward");

    tbl_init(&b);
    b.pBQ[1] = 1.25;
    rejected(&b, "positive.backward[1]", "share the first segment");

    tbl_init(&b);
    b.nBq[1] = -1.1;
    rejected(&b, "negative.backward[1]", "share the first segment");

    tbl_init(&b);
    b.pBQ[0] = 0.5;
    b.pFQ[0] = 0.5;
    rejected(&b, "positive.forward[0]: Q = 0.5", "must have Q = 0");

    tbl_init(&b);
    b.nBQ[4] = -8.5;
    rejected(&b, "negative.backward[4]", "the last point");

    tbl_init(&b);
    b.pBQ[3] = 5; /* last backward slope (12 - 5)/2 = 3.5 instead of 4 */
    rejected(&b, "positive.backward[3]: the last backward segment has slope 3.5", "largest slope k_beyond = 4");

    tbl_init(&b);
    b.pFQ[1] = b.pBQ[1] = 2.5; /* common segment slope 5 > k_beyond 4 */
    rejected(&b, "positive.forward[0]", "steeper than k_beyond = 4");

    tbl_init(&b);
    b.t.negative.k_beyond = 5.5; /* F_N's last slope 3 is fine, but the last B slope is 6 */
    rejected(&b, "negative.backward[3]", "steeper than k_beyond = 5.5");

    tbl_init(&b);
    b.t.positive.k_beyond = 0;
    rejected(&b, "positive.k_beyond", "k_beyond > 0");

    tbl_init(&b);
    b.pFq[2] = NAN;
    rejected(&b, "positive.forward[2]: q is not a finite number", NULL);

    tbl_init(&b);
    b.nBQ[3] = INFINITY;
    rejected(&b, "negative.backward[3]: Q is not a finite number", NULL);

    tbl_init(&b);
    b.t.negative.k_beyond = NAN;
    rejected(&b, "negative.k_beyond: not a finite number", NULL);

    tbl_init(&b);
    b.nBq[2] = 3;
    rejected(&b, "negative.backward[2]: q = 3 > 0", NULL);

    tbl_init(&b);
    b.pFq[0] = b.pBq[0] = -0.5;
    rejected(&b, "positive.forward[0]: q = -0.5 < 0", NULL);

    tbl_init(&b);
    b.pBQ[2] = 6; /* B(4) = 6 above F(4) = 6? F(4) = 6: equal is allowed; make it cross */
    b.pBQ[2] = 6.5;
    rejected(&b, "positive.backward[2]", "lies above the forward branch");

    tbl_init(&b);
    b.nFQ[2] = -1.6; /* F_N(-2) = -1.6 inside B_N(-2) = -1.625 */
    rejected(&b, "negative.forward[2]", "lies below the forward branch");

    /* friction kind: k_beyond must be 0 */
    hy_pwl_table f = table_friction();
    f.negative.k_beyond = 0.5;
    tbl fb;
    fb.t = f;
    rejected(&fb, "negative.k_beyond: 0.5", "friction kind has slope 0");
    /* friction kind without a positive working slope */
    double q[] = {0, 1, 2}, Q[] = {0, 0, 0}, nq[] = {0, -1, -2};
    fb.t = (hy_pwl_table){HY_PWL_FRICTION, {{3, q, Q}, {3, q, Q}, 0}, {{3, nq, Q}, {3, nq, Q}, 0}};
    rejected(&fb, "positive: no working segment has a positive slope", NULL);
    fb.t.kind = (hy_pwl_kind)7;
    rejected(&fb, "kind: 7", NULL);
}

/* ---- JSON ---- */

static const char *top(void)
{
    const char *t = getenv("TOP");
    return t ? t : ".";
}

/* A segment held at k_max by a fit comes back from its rounded ordinates a few ulps steeper: accepted. A segment
 * really steeper (1e-6 relative) is still rejected. Short segments make the rounding exceed a plain 1e-9 relative
 * tolerance; the loop makes sure at least one case does, so this test fails without the rounding allowance. */
static void slope_held_at_kmax_survives_rounding(void **state)
{
    (void)state;
    int beyond_plain_tolerance = 0;
    for (int e = 6; e <= 9; e++) {
        tbl b;
        tbl_init(&b);
        double d = pow(10.0, -e) / 3.0;
        b.pFq[3] = 3.0 + d;                 /* F: (3, 5) -> (3 + d, 5 + 4 d), slope k_beyond = 4 up to rounding */
        b.pFQ[3] = 5.0 + 4.0 * d;
        double k = (b.pFQ[3] - b.pFQ[2]) / (b.pFq[3] - b.pFq[2]);
        if (k > 4.0 * (1 + 1e-9))
            beyond_plain_tolerance = 1;
        hy_pwl_model *m;
        hy_err err;
        if (hy_pwl_model_new(&b.t, "t", &m, &err) != HY_OK)
            fail_msg("d = %g, slope %.17g: %s", d, k, err.msg);
        hy_pwl_model_free(m);
    }
    assert_true(beyond_plain_tolerance);
    tbl b;
    tbl_init(&b);
    b.pFq[3] = 3.001;
    b.pFQ[3] = 5.0 + 4.0 * 0.001 * (1 + 1e-6);
    rejected(&b, "positive.forward[2]", "steeper than k_beyond");
}

static void fixture_reads_and_extra_keys_survive(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/fixtures/models/pwl-constant.json", top());
    hy_model m;
    hy_err err;
    if (hy_model_read(path, &m, &err) != HY_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(m.type, HY_MODEL_PWL);
    assert_string_equal(m.unit_q, "mm");
    hy_pwl_table got, want = table_constant();
    hy_pwl_model_table(m.pwl, &got);
    assert_memory_equal(got.positive.backward.Q, want.positive.backward.Q, 5 * sizeof(double));
    assert_memory_equal(got.negative.forward.q, want.negative.forward.q, 5 * sizeof(double));
    assert_true(got.negative.k_beyond == 6);
    char *text = hy_model_print(&m, &err);
    assert_non_null(text);
    assert_non_null(strstr(text, "\"name\""));
    hy_model m2;
    assert_int_equal(hy_model_parse(text, "again", &m2, &err), HY_OK);
    cJSON *name = cJSON_GetObjectItemCaseSensitive(m2.extra, "name");
    assert_true(cJSON_IsString(name) && strstr(name->valuestring, "designed asymmetric"));
    free(text);
    hy_model_free(&m);
    hy_model_free(&m2);
}

static void awkward_numbers_round_trip_exactly(void **state)
{
    (void)state;
    double k = 10.0 / 3;
    double pq[] = {1e-300, 0.1, 0.1 + 0.2, 1.0 / 3, 2.0 / 3 + 5}, pQ[5];
    pQ[0] = 0;
    pQ[1] = (0.1 - 1e-300) * (1.0 / 7); /* slope 1/7 */
    pQ[2] = pQ[1] + (pq[2] - pq[1]) * 0.1;
    pQ[3] = pQ[2] + (pq[3] - pq[2]) * 1e-3;
    pQ[4] = pQ[3] + (pq[4] - pq[3]) * k; /* last B slope = k_beyond up to round-off */
    double bQ[5] = {pQ[0], pQ[1], pQ[2] * 0.9, 0, pQ[4]};
    bQ[3] = pQ[4] - (pq[4] - pq[3]) * k; /* keep the last backward slope at k */
    double nq[5], nQ[5], nbQ[5];
    for (int i = 0; i < 5; i++) {
        nq[i] = -pq[i];
        nQ[i] = -pQ[i];
        nbQ[i] = -bQ[i];
    }
    hy_pwl_table t = {HY_PWL_CONSTANT, {{5, pq, pQ}, {5, pq, bQ}, k}, {{5, nq, nQ}, {5, nq, nbQ}, k}};
    hy_model m;
    memset(&m, 0, sizeof m);
    hy_err err;
    if (hy_pwl_model_new(&t, "awkward", &m.pwl, &err) != HY_OK)
        fail_msg("%s", err.msg);
    m.type = HY_MODEL_PWL;
    strcpy(m.unit_q, "m");
    strcpy(m.unit_Q, "N");
    char *text = hy_model_print(&m, &err);
    assert_non_null(text);
    assert_non_null(strstr(text, "0.30000000000000004")); /* 0.1 + 0.2, which cJSON's printer writes as 0.3 */
    assert_non_null(strstr(text, "1e-300"));
    hy_model m2;
    if (hy_model_parse(text, "awkward.json", &m2, &err) != HY_OK)
        fail_msg("%s", err.msg);
    hy_pwl_table a, b;
    hy_pwl_model_table(m.pwl, &a);
    hy_pwl_model_table(m2.pwl, &b);
    const hy_pwl_points *pa[4] = {&a.positive.forward, &a.positive.backward, &a.negative.forward, &a.negative.backward};
    const hy_pwl_points *pb[4] = {&b.positive.forward, &b.positive.backward, &b.negative.forward, &b.negative.backward};
    for (int j = 0; j < 4; j++) {
        assert_int_equal(pa[j]->n, pb[j]->n);
        assert_memory_equal(pa[j]->q, pb[j]->q, pa[j]->n * sizeof(double));
        assert_memory_equal(pa[j]->Q, pb[j]->Q, pa[j]->n * sizeof(double));
    }
    assert_memory_equal(&a.positive.k_beyond, &b.positive.k_beyond, sizeof(double));
    /* and the printed text is a fixed point */
    char *text2 = hy_model_print(&m2, &err);
    assert_string_equal(text, text2);
    free(text);
    free(text2);
    hy_model_free(&m);
    hy_model_free(&m2);
}

/* a model document with the given pwl body must be rejected with a message containing frag */
static void json_rejected(const char *body, int code, const char *frag)
{
    char text[2048];
    snprintf(text, sizeof text, "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"pwl\", %s}", body);
    hy_model m;
    hy_err err;
    hy_err_clear(&err);
    int rc = hy_model_parse(text, "bad.json", &m, &err);
    if (rc != code || (code != HY_OK && !strstr(err.msg, frag)))
        fail_msg("rc %d (expected %d), message \"%s\" lacks \"%s\"", rc, code, err.msg, frag);
    if (code == HY_OK)
        hy_model_free(&m);
    assert_null(m.pwl);
}

#define GOODP "\"positive\": {\"forward\": [[0,0],[1,1],[2,3]], \"backward\": [[0,0],[1,1],[2,3]], \"k_beyond\": 2}"
#define GOODN "\"negative\": {\"forward\": [[0,0],[-1,-1],[-2,-3]], \"backward\": [[0,0],[-1,-1],[-2,-3]], \"k_beyond\": 2}"

static void json_errors(void **state)
{
    (void)state;
    json_rejected("\"kind\": \"constant\", " GOODP ", " GOODN, HY_OK, "");
    json_rejected(GOODP ", " GOODN, HY_EPARSE, "bad.json: kind: expected");
    json_rejected("\"kind\": \"elastic\", " GOODP ", " GOODN, HY_EPARSE, "\"elastic\" is neither");
    json_rejected("\"kind\": \"constant\", " GOODP, HY_EPARSE, "negative: missing");
    json_rejected("\"kind\": \"constant\", \"positive\": [], " GOODN, HY_EPARSE, "positive: expected an object");
    json_rejected("\"kind\": \"constant\", \"positive\": {\"forward\": [[0,0],[1,1],[2,3]], \"k_beyond\": 2}, " GOODN,
                  HY_EPARSE, "positive.backward: missing");
    json_rejected("\"kind\": \"constant\", \"positive\": {\"forward\": [[0,0],[1,1],[2,3]], \"backward\": {}, "
                  "\"k_beyond\": 2}, " GOODN,
                  HY_EPARSE, "positive.backward: expected an array");
    json_rejected("\"kind\": \"constant\", \"positive\": {\"forward\": [[0,0],[1,1,7],[2,3]], \"backward\": "
                  "[[0,0],[1,1],[2,3]], \"k_beyond\": 2}, " GOODN,
                  HY_EPARSE, "positive.forward[1]: expected a point [q, Q]");
    json_rejected("\"kind\": \"constant\", \"positive\": {\"forward\": [[0,0],[1,\"1\"],[2,3]], \"backward\": "
                  "[[0,0],[1,1],[2,3]], \"k_beyond\": 2}, " GOODN,
                  HY_EPARSE, "positive.forward[1]: expected a point");
    json_rejected("\"kind\": \"constant\", \"positive\": {\"forward\": [[0,0],[1,1],[2,3]], \"backward\": "
                  "[[0,0],[1,1],[2,3]]}, " GOODN,
                  HY_EPARSE, "positive.k_beyond: missing");
    json_rejected("\"kind\": \"constant\", \"positive\": {\"forward\": [[0,0],[1,1],[2,3]], \"backward\": "
                  "[[0,0],[1,1],[2,3]], \"k_beyond\": \"2\"}, " GOODN,
                  HY_EPARSE, "positive.k_beyond: expected a number");
    json_rejected("\"kind\": \"constant\", \"positive\": {\"forward\": [[0,0],[1,1],[2,3]], \"backward\": "
                  "[[0,0],[1,1],[2,3]], \"k_beyond\": 2, \"note\": 1}, " GOODN,
                  HY_EPARSE, "positive.note: unknown key");
    /* numbers too large for a double read as infinity: a model error naming the point */
    json_rejected("\"kind\": \"constant\", \"positive\": {\"forward\": [[0,0],[1,1],[2,1e999]], \"backward\": "
                  "[[0,0],[1,1],[2,3]], \"k_beyond\": 2}, " GOODN,
                  HY_EMODEL, "bad.json: positive.forward[2]: Q is not a finite number");
    json_rejected("\"kind\": \"constant\", \"positive\": {\"forward\": [[0,0]], \"backward\": "
                  "[[0,0],[1,1],[2,3]], \"k_beyond\": 2}, " GOODN,
                  HY_EMODEL, "positive.forward: needs at least 2 points");
    json_rejected("\"kind\": \"friction\", \"positive\": {\"forward\": [[0,0],[1,1],[2,3]], \"backward\": "
                  "[[0,0],[1,1],[2,3]], \"k_beyond\": 2}, " GOODN,
                  HY_EMODEL, "positive.k_beyond: 2, but the friction kind");
    /* friction without k_beyond: 0 is implied */
    json_rejected("\"kind\": \"friction\", \"positive\": {\"forward\": [[0,0],[1,1],[2,3]], \"backward\": "
                  "[[0,0],[1,1],[2,3]]}, \"negative\": {\"forward\": [[0,0],[-1,-1],[-2,-3]], \"backward\": "
                  "[[0,0],[-1,-1],[-2,-3]]}",
                  HY_OK, "");
}

/* ---- reset: placing the element at a point ---- */

static void reset_places_the_point(void **state)
{
    (void)state;
    hy_pwl_table t = table_constant();
    hy_pwl_model *m;
    hy_err err;
    assert_int_equal(hy_pwl_model_new(&t, "c", &m, &err), HY_OK);
    hy_pwl_data d;
    hy_pwl_data_init(&d, m);
    assert_int_equal(d.committed.state, 0);
    assert_int_equal(hy_pwl_data_reset(&d, 0.75, 0.5, &err), HY_OK);
    assert_int_equal(d.committed.state, 0);
    assert_int_equal(hy_pwl_data_reset(&d, 4, 6, &err), HY_OK); /* on F */
    assert_int_equal(d.committed.state, 1);
    assert_int_equal(hy_pwl_data_reset(&d, -4, -1.875, &err), HY_OK); /* on B_N */
    assert_int_equal(d.committed.state, -2);
    assert_int_equal(hy_pwl_data_reset(&d, 9, 16, &err), HY_OK);
    assert_int_equal(d.committed.state, 10);
    /* between B (2.5) and F (6) at q = 4: on the slope-4 line through (4, 4): down to B's (1,1)-(4,2.5):
     * 4 + 4 (q - 4) = 1 + 0.5 (q - 1): q = 25/7; up to F's (3,5)-(6,8): 4 + 4 (q - 4) = 5 + (q - 3): q = 14/3 */
    assert_int_equal(hy_pwl_data_reset(&d, 4, 4, &err), HY_OK);
    assert_int_equal(d.committed.state, 3);
    assert_true(fabs(d.committed.q3b - 25.0 / 7) < 1e-12 && fabs(d.committed.q3e - 14.0 / 3) < 1e-12);
    double Q;
    assert_int_equal(pwl_go(&d, 4.5, 1, &Q), HY_OK);
    assert_true(fabs(Q - 6) < 1e-12 && d.committed.state == 3);
    assert_int_equal(pwl_go(&d, 5, 1, &Q), HY_OK);
    assert_true(fabs(Q - 7) < 1e-12 && d.committed.state == 1);
    /* outside the envelope, off the common segment, beyond off the line, not finite */
    assert_int_equal(hy_pwl_data_reset(&d, 4, 7, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "outside the hysteresis envelope"));
    assert_int_equal(d.committed.state, 1); /* unchanged by a failed reset */
    assert_int_equal(hy_pwl_data_reset(&d, 0.75, 0.1, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "common segment"));
    assert_int_equal(hy_pwl_data_reset(&d, -7, -13, &err), HY_EMODEL);
    assert_int_equal(hy_pwl_data_reset(&d, NAN, 0, &err), HY_EARG);
    hy_pwl_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(valid_tables_compile),
        cmocka_unit_test(validation_errors_name_the_key),
        cmocka_unit_test(slope_held_at_kmax_survives_rounding),
        cmocka_unit_test(fixture_reads_and_extra_keys_survive),
        cmocka_unit_test(awkward_numbers_round_trip_exactly),
        cmocka_unit_test(json_errors),
        cmocka_unit_test(reset_places_the_point),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

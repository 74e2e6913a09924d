// Conditioning provenance (condition_json.c, issue 46 leftover 2): the report written into a model file reads back
// to exactly what hy_condition reported (numbers exact, the trimmed counts adding up), the one-line description,
// and every malformed key named.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/condition.h"
#include "hyst/model.h"

/* a record: 40 rows at rest at q = -3.2 (Q = 0.5 + 0.01 i), a triangle to +-5 and back, 20 rows at rest at the end */
#define NR 200
static size_t make_record(double *q, double *Q)
{
    size_t n = 0;
    for (int i = 0; i < 40; i++, n++)
        q[n] = -3.2, Q[n] = 0.5 + 0.01 * i;
    for (int i = 1; i <= 100; i++, n++) {
        double u = 5 * sin(2 * M_PI * i / 100.0);
        q[n] = u - 3.2, Q[n] = 10 * u + 0.5;
    }
    for (int i = 0; i < 20; i++, n++)
        q[n] = -3.2, Q[n] = 0.5;
    return n;
}

static const char *model_text =
    "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"iwan\", \"units\": {\"q\": \"mm\", \"Q\": \"N\"},"
    " \"k_inf\": 1, \"elements\": [[10, 2]], \"provenance\": {\"source\": \"bench 7\"}}";

/* hy_condition's report -> model file text -> a new model -> read back: every field equal, bit for bit */
static void round_trip(void **state)
{
    (void)state;
    double q[NR], Q[NR];
    size_t n = make_record(q, Q);
    hy_condition_opts o;
    hy_condition_opts_default(&o);
    o.trim_rest = 1, o.offset_q = 1, o.offset_Q = 1, o.rest_tol = 0.01;
    hy_condition_report r;
    hy_err err;
    assert_int_equal(hy_condition(NULL, q, Q, NULL, n, &o, &r, &err), HY_OK);
    /* independent: the offsets are the means of the 40 rows at rest at the start (the first moving row is beyond
       the tolerance); the record starts at the last of them, so 39 are trimmed */
    assert_int_equal(r.rest_rows, 40);
    assert_true(fabs(r.Q_offset - (0.5 + 0.01 * 19.5)) < 1e-14);
    assert_true(fabs(r.q_offset + 3.2) < 1e-14);
    assert_int_equal(r.trimmed_start, 39);
    assert_int_equal(r.trimmed_end + r.trimmed_start + r.n_out, n);

    hy_model m;
    assert_int_equal(hy_model_parse(model_text, "m.json", &m, &err), HY_OK);
    assert_int_equal(hy_model_set_conditioning(&m, &o, &r, &err), HY_OK);
    assert_int_equal(hy_model_set_conditioning(&m, &o, &r, &err), HY_OK); /* replaces, never duplicates */
    char *text = hy_model_print(&m, &err);
    assert_non_null(text);
    hy_model m2;
    assert_int_equal(hy_model_parse(text, "m2.json", &m2, &err), HY_OK);
    free(text);
    int present = 0;
    hy_condition_opts o2;
    hy_condition_report r2;
    assert_int_equal(hy_model_conditioning(&m2, "m2.json", &present, &o2, &r2, &err), HY_OK);
    assert_int_equal(present, 1);
    assert_int_equal(o2.trim_rest, 1);
    assert_int_equal(o2.offset_q, 1);
    assert_int_equal(o2.offset_Q, 1);
    assert_true(o2.rest_tol == 0.01);
    assert_true(r2.q_offset == r.q_offset && r2.Q_offset == r.Q_offset && r2.rest_tol == r.rest_tol);
    assert_int_equal(r2.n_in, r.n_in);
    assert_int_equal(r2.n_out, r.n_out);
    assert_int_equal(r2.trimmed_start, r.trimmed_start);
    assert_int_equal(r2.trimmed_end, r.trimmed_end);
    assert_int_equal(r2.rest_rows, r.rest_rows);
    /* the other provenance keys survive */
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(m2.extra, "provenance");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(p, "source")->valuestring, "bench 7");
    assert_int_equal(cJSON_GetArraySize(p), 2);
    char a[HY_MSG_LEN], b[HY_MSG_LEN];
    hy_condition_describe(&o, &r, a, sizeof a);
    hy_condition_describe(&o2, &r2, b, sizeof b);
    assert_string_equal(a, b);
    /* the triangle's last row (sin 2 pi = 0) is at rest too: the record ends at it, the 20 after it are trimmed */
    assert_string_equal(a, "conditioned: 101 of 160 rows kept (39 at rest trimmed at the start, 20 at the end; rest "
                        "tolerance 0.01); offsets at rest removed: q -3.2, Q 0.695");
    hy_model_free(&m);
    hy_model_free(&m2);
}

/* a model file without conditioning: present = 0, no error */
static void absent(void **state)
{
    (void)state;
    hy_model m;
    hy_err err;
    assert_int_equal(hy_model_parse(model_text, "m.json", &m, &err), HY_OK);
    int present = 1;
    hy_condition_opts o;
    hy_condition_report r;
    assert_int_equal(hy_model_conditioning(&m, "m.json", &present, &o, &r, &err), HY_OK);
    assert_int_equal(present, 0);
    hy_model_free(&m);
}

static void expect_bad(const char *cond, const char *msg)
{
    char text[1024];
    snprintf(text, sizeof text, "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"iwan\", \"k_inf\": 1, "
             "\"elements\": [[10, 2]], \"provenance\": {\"conditioning\": %s}}", cond);
    hy_model m;
    hy_err err;
    assert_int_equal(hy_model_parse(text, "m.json", &m, &err), HY_OK);
    int present;
    hy_condition_opts o;
    hy_condition_report r;
    assert_int_equal(hy_model_conditioning(&m, "m.json", &present, &o, &r, &err), HY_EPARSE);
    if (!strstr(err.msg, msg))
        fail_msg("expected '%s' in '%s'", msg, err.msg);
    hy_model_free(&m);
}

#define GOOD_TAIL "\"rest_tol\": 0.1, \"rows_in\": 10, \"rows_kept\": 6, \"trimmed_start\": 3, \"trimmed_end\": 1, " \
                  "\"rest_rows\": 4, \"q_offset\": 0, \"Q_offset\": 0"

static void malformed(void **state)
{
    (void)state;
    expect_bad("3", "m.json: provenance.conditioning: expected an object");
    expect_bad("{\"remove_offset\": null, " GOOD_TAIL "}", "provenance.conditioning.trim_rest: missing");
    expect_bad("{\"trim_rest\": 1, \"remove_offset\": null, " GOOD_TAIL "}",
               "provenance.conditioning.trim_rest: expected true or false");
    expect_bad("{\"trim_rest\": true, \"remove_offset\": \"x\", " GOOD_TAIL "}",
               "provenance.conditioning.remove_offset: expected \"q\", \"Q\", \"q,Q\" or null");
    expect_bad("{\"trim_rest\": true, \"remove_offset\": \"q\", \"rest_tol\": 0.1, \"rows_in\": 10.5}",
               "provenance.conditioning.rows_in: expected a row count");
    expect_bad("{\"trim_rest\": true, \"remove_offset\": \"q\", \"rest_tol\": \"a\"}",
               "provenance.conditioning.rest_tol: expected a finite number");
    expect_bad("{\"trim_rest\": true, \"remove_offset\": \"q\", \"rest_tol\": 0.1, \"rows_in\": 10, \"rows_kept\": 7, "
               "\"trimmed_start\": 3, \"trimmed_end\": 1, \"rest_rows\": 4, \"q_offset\": 0, \"Q_offset\": 0}",
               "rows_kept 7 + trimmed_start 3 + trimmed_end 1 is not rows_in 10");
    expect_bad("{\"trim_rest\": true, \"remove_offset\": \"q\", \"rest_tol\": 0.1, \"rows_in\": 10, \"rows_kept\": 6, "
               "\"trimmed_start\": 3, \"trimmed_end\": 1, \"rest_rows\": 4, \"q_offset\": 0}",
               "provenance.conditioning.Q_offset: missing");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip),
        cmocka_unit_test(absent),
        cmocka_unit_test(malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Kinematic ODE model files ("model": "kin"): the family hooks of hyst/model.h read, validate and write the keys
 * C, rule, C_unloading and q_range; the bundled paper fixtures hold the coefficients of spec 002 §3.1-3.2. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/kin.h"
#include "hyst/model.h"

// (JSON text) => hy_kin_from_json's status, model in *m, message in err
static int parse(const char *text, hy_kin_model **m, hy_err *err)
{
    cJSON *doc = cJSON_Parse(text);
    assert_non_null(doc);
    int rc = hy_kin_from_json(doc, "m.json", m, err);
    cJSON_Delete(doc);
    return rc;
}

static void reads_symmetric_and_two_set(void **state)
{
    (void)state;
    hy_kin_model *m;
    hy_err err;
    assert_int_equal(parse("{\"C\": [[1, -2], [3, 4], [5, 6]], \"q_range\": [-1, 2]}", &m, &err), HY_OK);
    const hy_kin_spec *s = hy_kin_model_spec(m);
    assert_int_equal(s->rule, HY_KIN_SYMMETRIC); /* the default rule */
    assert_int_equal(s->load.k, 3);
    assert_int_equal(s->load.m, 2);
    assert_true(s->load.C[1][0] == 3 && s->load.C[0][1] == -2 && s->load.C[2][1] == 6);
    assert_true(s->q_min == -1 && s->q_max == 2);
    /* row i = power q^(i-1), column j = power f^(j-1): R(2, 3) = 1 - 2*3 + 3*2 + 4*2*3 + 5*4 + 6*4*3 */
    assert_true(hy_kin_R(m, 1, 2, 3) == 1 - 6 + 6 + 24 + 20 + 72);
    hy_kin_model_free(m);
    assert_int_equal(parse("{\"rule\": \"two-set\", \"C\": [[1]], \"C_unloading\": [[2, 0.5]], \"q_range\": [0, 1]}",
                           &m, &err), HY_OK);
    assert_true(hy_kin_R(m, 1, 0.5, 4) == 1.0);
    assert_true(hy_kin_R(m, -1, 0.5, 4) == 4.0); /* the unloading set is evaluated as is */
    hy_kin_model_free(m);
}

static void round_trip_is_exact(void **state)
{
    (void)state;
    hy_kin_spec s;
    memset(&s, 0, sizeof s);
    s.rule = HY_KIN_TWO_SET;
    s.load.k = 8;
    s.load.m = 8;
    s.unload.k = 2;
    s.unload.m = 3;
    srand(3);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            s.load.C[i][j] = (rand() - RAND_MAX / 2) / 3.0e7 * (1 + i * j);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            s.unload.C[i][j] = 0.1 * (i + 1) / (j + 3.0);
    s.q_min = -0.123456789012345;
    s.q_max = 0.987654321;
    hy_kin_model *m, *back;
    hy_err err;
    assert_int_equal(hy_kin_model_new(&s, &m, &err), HY_OK);
    cJSON *doc = cJSON_CreateObject();
    assert_int_equal(hy_kin_to_json(m, doc, &err), HY_OK);
    char *text = cJSON_Print(doc);
    cJSON_Delete(doc);
    assert_non_null(strstr(text, "\"two-set\""));
    assert_int_equal(parse(text, &back, &err), HY_OK);
    free(text);
    const hy_kin_spec *a = hy_kin_model_spec(m), *b = hy_kin_model_spec(back);
    assert_memory_equal(a, b, sizeof *a); /* bit-exact: doubles print so that they read back exactly */
    hy_kin_model_free(m);
    hy_kin_model_free(back);
}

static void errors_name_the_key(void **state)
{
    (void)state;
    struct {
        const char *text, *expect;
        int code;
    } bad[] = {
        {"{\"q_range\": [0, 1]}", "\"C\": missing", HY_EPARSE},
        {"{\"C\": [[1, 2], [3]], \"q_range\": [0, 1]}", "C[1]: 1 numbers, but row 0 has 2", HY_EMODEL},
        {"{\"C\": [[1, \"x\"]], \"q_range\": [0, 1]}", "C[0][1]: expected a finite number", HY_EPARSE},
        {"{\"C\": [1, 2], \"q_range\": [0, 1]}", "C[0]: expected an array", HY_EPARSE},
        {"{\"C\": [[1],[1],[1],[1],[1],[1],[1],[1],[1]], \"q_range\": [0, 1]}", "9 rows; k must be 1..8", HY_EMODEL},
        {"{\"C\": [[]], \"q_range\": [0, 1]}", "m must be 1..8", HY_EMODEL},
        {"{\"C\": [[1]], \"rule\": \"mirror\", \"q_range\": [0, 1]}", "rule: expected", HY_EPARSE},
        {"{\"C\": [[1]], \"rule\": \"two-set\", \"q_range\": [0, 1]}", "\"C_unloading\": missing", HY_EPARSE},
        {"{\"C\": [[1]], \"C_unloading\": [[1]], \"q_range\": [0, 1]}", "given with rule \"symmetric\"", HY_EMODEL},
        {"{\"C\": [[1]]}", "\"q_range\": missing", HY_EPARSE},
        {"{\"C\": [[1]], \"q_range\": [1]}", "q_range: expected [q_min, q_max]", HY_EPARSE},
        {"{\"C\": [[1]], \"q_range\": [1, 0]}", "q_range: [1, 0] is empty", HY_EMODEL},
        {"{\"C\": [[1e999]], \"q_range\": [0, 1]}", "C[0][0]", HY_EPARSE},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        hy_kin_model *m = (hy_kin_model *)&m;
        hy_err err;
        int rc = parse(bad[i].text, &m, &err);
        if (rc != bad[i].code || !strstr(err.msg, bad[i].expect) || strncmp(err.msg, "m.json: ", 8) != 0)
            fail_msg("case %zu: rc %d, message \"%s\"", i, rc, err.msg);
        assert_null(m);
    }
}

static void bundled_paper_fixtures(void **state)
{
    (void)state;
    const char *top = getenv("TOP") ? getenv("TOP") : ".";
    const char *names[2] = {"paper-damper-reduced.json", "paper-damper-full.json"};
    for (int full = 0; full < 2; full++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/fixtures/models/%s", top, names[full]);
        FILE *fp = fopen(path, "rb");
        assert_non_null(fp);
        static char text[1 << 14];
        size_t n = fread(text, 1, sizeof text - 1, fp);
        fclose(fp);
        text[n] = '\0';
        cJSON *doc = cJSON_Parse(text);
        assert_non_null(doc);
        assert_string_equal(cJSON_GetObjectItem(doc, "model")->valuestring, "kin");
        hy_kin_model *m;
        hy_err err;
        assert_int_equal(hy_kin_from_json(doc, names[full], &m, &err), HY_OK);
        cJSON_Delete(doc);
        hy_kin_spec ref;
        hy_kin_paper_spec(&ref, full);
        assert_memory_equal(hy_kin_model_spec(m), &ref, sizeof ref);
        /* every key the reader uses is in the keys list (so modelfile.c does not keep it as an extra) */
        for (const char *const *k = hy_kin_json_keys; *k; k++)
            assert_true(strcmp(*k, "C") == 0 || strcmp(*k, "rule") == 0 || strcmp(*k, "C_unloading") == 0 ||
                        strcmp(*k, "q_range") == 0);
        hy_kin_model_free(m);
    }
}

static void element_new_from_model(void **state)
{
    (void)state;
    hy_kin_spec s;
    hy_kin_paper_spec(&s, 0);
    hy_kin_model *m;
    assert_int_equal(hy_kin_model_new(&s, &m, NULL), HY_OK);
    hy_element e;
    assert_int_equal(hy_kin_element_new(m, &e, NULL), HY_OK);
    assert_string_equal(e.ops->family, "kin");
    double Q;
    assert_int_equal(hy_element_trial(&e, 0.3, 1.0, &Q, NULL, NULL), HY_OK);
    assert_true(fabs(Q - 42.780) < 1e-3);
    hy_element_free(&e);
    /* a range that excludes 0 starts the element at the middle of the range */
    s.q_min = 1;
    s.q_max = 2;
    hy_kin_model *m2;
    assert_int_equal(hy_kin_model_new(&s, &m2, NULL), HY_OK);
    assert_int_equal(hy_kin_element_new(m2, &e, NULL), HY_OK);
    assert_true(((hy_kin_state *)e.self)->q_c == 1.5);
    hy_element_free(&e);
    hy_kin_model_free(m);
    hy_kin_model_free(m2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_symmetric_and_two_set),
        cmocka_unit_test(round_trip_is_exact),
        cmocka_unit_test(errors_name_the_key),
        cmocka_unit_test(bundled_paper_fixtures),
        cmocka_unit_test(element_new_from_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

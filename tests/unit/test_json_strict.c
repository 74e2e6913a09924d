/* hy_json_parse_strict (libhyst util): one JSON document and only blank space after it, no key twice in any object
 * (cJSON alone takes the first value of a repeated key and ignores what follows the document). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include "hyst/util.h"

static int parse(const char *text, cJSON **doc, hy_err *err)
{
    return hy_json_parse_strict(text, strlen(text), "f.json", "a test object", doc, err);
}

static void accepts_one_document(void **state)
{
    (void)state;
    cJSON *doc;
    hy_err err;
    assert_int_equal(parse(" {\"a\": 1, \"b\": {\"a\": 2}, \"c\": [{\"a\": 1}, {\"a\": 2}]} \n\t\r\n", &doc, &err), HY_OK);
    assert_non_null(doc);
    cJSON_Delete(doc);
}

static void refuses_trailing_text(void **state)
{
    (void)state;
    cJSON *doc = (cJSON *)1;
    hy_err err;
    assert_int_equal(parse("{\"a\": 1}\n{\"a\": 2}", &doc, &err), HY_EPARSE);
    assert_null(doc);
    assert_string_equal(err.msg, "f.json:2:1: text after the JSON document (expected only a test object)");
    const char nul[] = "{\"a\": 1}\0x";
    assert_int_equal(hy_json_parse_strict(nul, sizeof nul - 1, "f.json", "a test object", &doc, &err), HY_EPARSE);
    assert_non_null(strstr(err.msg, "f.json:1:9: text after"));
}

static void refuses_duplicate_keys(void **state)
{
    (void)state;
    cJSON *doc;
    hy_err err;
    assert_int_equal(parse("{\"a\": 1, \"b\": 2, \"a\": 3}", &doc, &err), HY_EPARSE);
    assert_string_equal(err.msg, "f.json: \"a\" appears twice (each key may be given once)");
    assert_int_equal(parse("{\"x\": {\"y\": [0, {\"k\": 1, \"k\": 1}]}}", &doc, &err), HY_EPARSE);
    assert_string_equal(err.msg, "f.json: x.y[1]: \"k\" appears twice (each key may be given once)");
    /* a key with an escape sequence is printed without it */
    assert_int_equal(parse("{\"\\u001b[2J\": 1, \"\\u001b[2J\": 2}", &doc, &err), HY_EPARSE);
    assert_null(strchr(err.msg, 0x1b));
}

static void malformed_names_the_place(void **state)
{
    (void)state;
    cJSON *doc;
    hy_err err;
    assert_int_equal(parse("{\"a\":\n 1,}", &doc, &err), HY_EPARSE);
    assert_non_null(strstr(err.msg, "f.json:2:"));
    assert_non_null(strstr(err.msg, "malformed JSON"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(accepts_one_document),
        cmocka_unit_test(refuses_trailing_text),
        cmocka_unit_test(refuses_duplicate_keys),
        cmocka_unit_test(malformed_names_the_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Messages stay one line of printable text whatever the input holds (found by the fuzz harnesses: header names,
 * JSON keys and strings with newlines or escape sequences reached the message raw). hy_err_set and the CSV
 * reader pass every message through hy_msg_clean, which turns control bytes into '?'. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hyst/csvread.h"
#include "hyst/model.h"
#include "mech/pendulum.h"

static void assert_printable(const char *msg)
{
    for (const char *c = msg; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            fail_msg("control byte 0x%02x at %d in \"%s\"", (unsigned char)*c, (int)(c - msg), msg);
}

static void err_set_cleans(void **state)
{
    (void)state;
    hy_err err;
    assert_int_equal(hy_err_set(&err, HY_EPARSE, "x.json: key \"%s\"", "a\nb\x1b[2J\x7f"), HY_EPARSE);
    assert_string_equal(err.msg, "x.json: key \"a?b?[2J?\"");
}

static void csv_header_name_with_escape(void **state)
{
    (void)state;
    char path[] = "/tmp/test_error_msg_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char text[] = "\"Disp\x1b[2J\nlacement\",Force\nmm,kN\nx,1\n";
    assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    hy_series s;
    hy_err err;
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.x_col = "1";
    assert_int_not_equal(hy_csv_read(path, &o, &s, &err), HY_OK);
    unlink(path);
    assert_printable(err.msg);
    if (!strstr(err.msg, "Disp?[2J?lacement"))
        fail_msg("%s", err.msg);
}

static void model_string_with_newline(void **state)
{
    (void)state;
    hy_model m;
    hy_err err;
    assert_int_equal(hy_model_parse("{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"pw\\nl\\u001b[2J\"}",
                                    "m.json", &m, &err), HY_EPARSE);
    assert_printable(err.msg);
    assert_non_null(strstr(err.msg, "pw?l?[2J"));
}

static void pendulum_key_with_escape(void **state)
{
    (void)state;
    mech_pend_params p;
    mech_pend_params_default(&p, 0);
    char unit[256];
    hy_err err;
    const char text[] = "{\"format\": \"mech-pendulum\", \"I2\\u001b[2J\\n\": 1}";
    assert_int_equal(mech_pend_params_parse(text, sizeof text - 1, "dir/p.json", &p, unit, sizeof unit, &err),
                     HY_EPARSE);
    assert_printable(err.msg);
    assert_non_null(strstr(err.msg, "p.json: unknown key \"I2?[2J?\""));
    /* trailing text after the document is refused (the file reader used to require the NUL after it) */
    const char two[] = "{\"format\": \"mech-pendulum\"} {}";
    assert_int_equal(mech_pend_params_parse(two, sizeof two - 1, "p.json", &p, unit, sizeof unit, &err), HY_EPARSE);
    assert_non_null(strstr(err.msg, "p.json:1:29: text after the JSON document"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(err_set_cleans),
        cmocka_unit_test(csv_header_name_with_escape),
        cmocka_unit_test(model_string_with_newline),
        cmocka_unit_test(pendulum_key_with_escape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

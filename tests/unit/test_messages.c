/* Messages are one printable line: header names, units, JSON keys and JSON strings quoted in a message have their
 * control bytes (newline, ESC of an ANSI sequence, C1 controls) replaced the way cell values are (hy_msg_text,
 * the one sanitiser), so the FILE:LINE:COLUMN format holds and nothing reaches the terminal as a command. */
#include <math.h>
#include "test_csv_util.h"
#include "hyst/model.h"
#include "mech/pendulum.h"

/* every byte printable: no C0 control, no DEL, no UTF-8 encoded C1 control */
static void assert_one_printable_line(const char *msg)
{
    for (const unsigned char *p = (const unsigned char *)msg; *p; p++) {
        if (*p < 0x20 || *p == 0x7f || (p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F))
            fail_msg("control byte 0x%02x at offset %d in \"%s\"", *p, (int)(p - (const unsigned char *)msg), msg);
    }
}

static void sanitiser_cuts_and_replaces(void **state)
{
    (void)state;
    char out[16];
    assert_int_equal(hy_msg_text(out, sizeof out, "a\nb\x1b[2J", 7, 40), 7);
    assert_string_equal(out, "a?b?[2J");
    hy_msg_text(out, sizeof out, "x\xc2\x9by\xc3\xa9", 6, 40); /* C1 CSI replaced, a UTF-8 letter kept */
    assert_string_equal(out, "x?y\xc3\xa9");
    hy_msg_text(out, sizeof out, "abcdefghij", 10, 4);
    assert_string_equal(out, "abcd...");
    hy_msg_text(out, sizeof out, "ab\xc3\xa9\xc3\xa9", 6, 3); /* never half a character */
    assert_string_equal(out, "ab...");
    hy_msg_text(out, 6, "abcdefghij", 10, 40); /* the buffer bounds the text, "..." included */
    assert_string_equal(out, "ab...");
    char in_place[] = "one\ntwo\r\x7f";
    hy_msg_text(in_place, sizeof in_place, in_place, strlen(in_place), (size_t)-1);
    assert_string_equal(in_place, "one?two??");
}

/* a header name with an ANSI escape and one with a newline (quoted), quoted in the message of a bad cell */
static void csv_header_names_cleaned(void **state)
{
    (void)state;
    hy_series s;
    hy_err err;
    assert_int_equal(csv_read_text("\"disp\x1b[2J\",\"force\nQ\"\nabc,1\n", NULL, &s, &err), HY_EPARSE);
    assert_one_printable_line(err.msg);
    assert_non_null(strstr(err.msg, "'disp?[2J'"));
    /* a named column that is not there lists the names */
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.x_col = "nothing";
    assert_int_equal(csv_read_text("\"d\x1b]0;title\x07\",\"f\nQ\"\n1,2\n", &o, &s, &err), HY_EDATA);
    assert_one_printable_line(err.msg);
    assert_non_null(strstr(err.msg, "'f?Q'"));
    /* names and units kept in the series are printable too (they reach reports, tables and plot labels) */
    assert_int_equal(csv_read_text("\"disp\x1b[31m\",\"force\xc2\x9b\"\nmm,kN\n1,2\n3,4\n", NULL, &s, &err), HY_OK);
    assert_string_equal(s.q_name, "disp?[31m");
    assert_string_equal(s.Q_unit, "kN");
    assert_one_printable_line(s.q_name);
    assert_one_printable_line(s.Q_name);
    assert_one_printable_line(s.q_unit);
    assert_one_printable_line(s.Q_unit);
    hy_series_free(&s);
}

/* warnings go through the same sanitiser */
static void csv_warnings_cleaned(void **state)
{
    (void)state;
    warnings w = {0};
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.warn = collect_warning;
    o.warn_ctx = &w;
    o.skip_bad_rows = 1;
    hy_series s;
    hy_err err;
    assert_int_equal(csv_read_text("\"disp\nlacement\",force\n1,2\nx\x1b[2J,3\n4,5\n", &o, &s, &err), HY_OK);
    assert_int_equal(w.count, 1);
    assert_one_printable_line(w.first);
    assert_non_null(strstr(w.first, "x?[2J"));
    hy_series_free(&s);
}

/* JSON keys and strings of model files */
static void model_json_names_cleaned(void **state)
{
    (void)state;
    hy_model m;
    hy_err err;
    assert_int_equal(hy_model_parse("{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"p\\u001b[2Jwl\\nx\", "
                                    "\"units\": {\"q\": \"mm\", \"Q\": \"N\"}}",
                                    "m.json", &m, &err),
                     HY_EPARSE);
    assert_one_printable_line(err.msg);
    assert_non_null(strstr(err.msg, "p?[2Jwl?x"));
    const char *side_key = "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"pwl\", \"kind\": \"constant\", "
                           "\"units\": {\"q\": \"mm\", \"Q\": \"N\"}, \"positive\": {\"forward\": [[0, 0], [1, 1]], "
                           "\"backward\": [[0, 0], [1, 1]], \"k_beyond\": 1, \"bad\\r\\nkey\\u009b\": 0}, "
                           "\"negative\": {\"forward\": [[0, 0], [-1, -1]], \"backward\": [[0, 0], [-1, -1]], "
                           "\"k_beyond\": 1}}";
    assert_int_equal(hy_model_parse(side_key, "m.json", &m, &err), HY_EPARSE);
    assert_one_printable_line(err.msg);
    assert_non_null(strstr(err.msg, "bad??key?"));
    const char *kind = "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"pwl\", \"kind\": \"con\\nstant\", "
                       "\"units\": {\"q\": \"mm\", \"Q\": \"N\"}}";
    assert_int_equal(hy_model_parse(kind, "m.json", &m, &err), HY_EPARSE);
    assert_one_printable_line(err.msg);
    /* units of a valid model reach reports and plot labels: printable */
    const char *units = "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"pwl\", \"kind\": \"constant\", "
                        "\"units\": {\"q\": \"m\\u001b[2Jm\", \"Q\": \"k\\nN\"}, \"positive\": {\"forward\": [[0, 0], "
                        "[1, 1]], \"backward\": [[0, 0], [1, 1]], \"k_beyond\": 1}, \"negative\": {\"forward\": "
                        "[[0, 0], [-1, -1]], \"backward\": [[0, 0], [-1, -1]], \"k_beyond\": 1}}";
    if (hy_model_parse(units, "m.json", &m, &err) != HY_OK)
        fail_msg("%s", err.msg);
    assert_string_equal(m.unit_q, "m?[2Jm");
    assert_string_equal(m.unit_Q, "k?N");
    hy_model_free(&m);
}

/* JSON keys of the pendulum parameter file */
static void pendulum_json_keys_cleaned(void **state)
{
    (void)state;
    const char *path = csv_file("{\"format\": \"mech-pendulum\", \"I2\\u001b[2J\\n\": 1}", 0);
    mech_pend_params p;
    char unit[256];
    hy_err err;
    assert_int_not_equal(mech_pend_params_read(path, &p, unit, sizeof unit, &err), HY_OK);
    assert_one_printable_line(err.msg);
    assert_non_null(strstr(err.msg, "I2?[2J?"));
}

/* (depth, prefix, suffix) => "prefix" + depth nested arrays + "suffix" (malloc'd) */
static char *nested(int depth, const char *prefix, const char *suffix)
{
    size_t lp = strlen(prefix), ls = strlen(suffix);
    char *t = malloc(lp + 2 * (size_t)depth + ls + 1);
    memcpy(t, prefix, lp);
    memset(t + lp, '[', (size_t)depth);
    memset(t + lp + depth, ']', (size_t)depth);
    memcpy(t + lp + 2 * (size_t)depth, suffix, ls + 1);
    return t;
}

/* Imprecise messages made precise: a directory is called one (not "malformed JSON" or "read error"), JSON nested
 * deeper than the parser's limit is called that (not "malformed"), a column index too large for any integer is
 * echoed as given (not as a saturated 922337203685477580). */
static void precise_messages(void **state)
{
    (void)state;
    hy_model m;
    hy_err err;
    assert_int_equal(hy_model_read(csv_dir, &m, &err), HY_EIO);
    assert_non_null(strstr(err.msg, ": is a directory, expected a model file"));
    mech_pend_params p;
    char unit[256];
    assert_int_equal(mech_pend_params_read(csv_dir, &p, unit, sizeof unit, &err), HY_EIO);
    assert_non_null(strstr(err.msg, ": is a directory, expected a parameter file"));
    /* 1 + 1000 levels: too deep for cJSON (1000), said so with the place */
    char *deep = nested(1000, "{\"format\": \"hyst-model\", \"a\": ", "}");
    assert_int_equal(hy_model_parse(deep, "m.json", &m, &err), HY_EPARSE);
    assert_string_equal(err.msg, "m.json:1:1030: JSON nested deeper than 1000 levels (arrays and objects inside each "
                                 "other), which this reader does not follow (expected a hyst-model object)");
    free(deep);
    /* 1 + 999 levels parse; brackets inside strings do not count; a real syntax error stays "malformed" */
    deep = nested(999, "{\"format\": \"hyst-model\", \"s\": \"[[[{{\", \"a\": ", "}");
    assert_int_equal(hy_model_parse(deep, "m.json", &m, &err), HY_EPARSE);
    assert_null(strstr(err.msg, "nested"));
    assert_null(strstr(err.msg, "malformed"));
    free(deep);
    deep = nested(999, "{\"format\": \"hyst-model\", \"a\": ", ",}");
    assert_int_equal(hy_model_parse(deep, "m.json", &m, &err), HY_EPARSE);
    assert_non_null(strstr(err.msg, "malformed JSON"));
    free(deep);
    deep = nested(1000, "{\"format\": \"mech-pendulum\", \"notes\": ", "}");
    const char *path = csv_file(deep, 0);
    assert_int_not_equal(mech_pend_params_read(path, &p, unit, sizeof unit, &err), HY_OK);
    assert_non_null(strstr(err.msg, "in.csv:1:1037: JSON nested deeper than 1000 levels"));
    free(deep);
    /* a column index beyond any integer, echoed as given */
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.x_col = "99999999999999999999999";
    hy_series s;
    assert_int_equal(csv_read_text("x,y\n1,2\n", &o, &s, &err), HY_EDATA);
    assert_string_equal(short_msg(&err), "in.csv:1:2: found 2 columns in the header, expected a column "
                                         "99999999999999999999999 for the displacement (x) (out of range: columns 1 "
                                         "to 2)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sanitiser_cuts_and_replaces),
        cmocka_unit_test(csv_header_names_cleaned),
        cmocka_unit_test(csv_warnings_cleaned),
        cmocka_unit_test(model_json_names_cleaned),
        cmocka_unit_test(pendulum_json_keys_cleaned),
        cmocka_unit_test(precise_messages),
    };
    return cmocka_run_group_tests(tests, csv_setup, csv_teardown);
}

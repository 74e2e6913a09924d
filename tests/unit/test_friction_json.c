/* The "mech-friction" example-file reader (io/friction_json.c): every class of bad input gets one clear error that
 * names the file and the key, and a valid file reads back the numbers it holds. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mech/friction.h"

static const char *const good =
    "{\"format\": \"mech-friction\", \"name\": \"g\",\n"
    " \"mechanism\": {\"kind\": \"bushing\", \"mass\": 2, \"radius\": 0.02, \"pairs_at\": [-0.1, 0.1]},\n"
    " \"contacts\": [{\"mu\": [0.2, 0.3], \"mu_static\": 0.4}, {\"mu\": 0.2}],\n"
    " \"loads\": {\"lateral_force\": {\"amplitude\": 60, \"freq_hz\": 5, \"phase_deg\": 90}, \"lateral_offset\": 0.25,"
    " \"moment\": -3},\n"
    " \"initial\": {\"q\": [0.5], \"qd\": [3]},\n"
    " \"run\": {\"duration\": 0.4, \"step\": 1e-4, \"sample\": 1e-3, \"on_paradox\": \"lp\"},\n"
    " \"solver\": {\"eps_v\": 1e-8, \"max_attempts\": 5}}\n";

static void reads_good(void **state)
{
    (void)state;
    mech_friction_config c;
    hy_err e;
    int rc = mech_friction_config_parse(good, strlen(good), "g.json", &c, &e);
    if (rc)
        print_message("%s\n", e.msg);
    assert_int_equal(rc, HY_OK);
    assert_int_equal(c.kind, MECH_FRICTION_BUSHING);
    assert_int_equal(c.nc, 2);
    assert_float_equal(c.contact[0].mu[1], 0.3, 0);
    assert_float_equal(c.contact[0].mu_s[0], 0.4, 0);
    assert_float_equal(c.contact[1].mu_s[1], 0.2, 0);
    assert_float_equal(mech_friction_load_at(&c.load[1], 0), 60, 1e-12);
    assert_float_equal(c.load[2].value, -3, 0);
    assert_float_equal(c.e_x, 0.25, 0);
    assert_float_equal(c.q0[0], 0.5, 0);
    assert_float_equal(c.qd0[0], 3, 0);
    assert_int_equal(c.on_paradox_lp, 1);
    assert_int_equal(c.opt.max_attempts, 5);
    assert_float_equal(c.opt.eps_v, 1e-8, 0);
    /* no NUL terminator needed: a prefix that ends inside the text is malformed, not read past */
    assert_int_equal(mech_friction_config_parse(good, 40, "g.json", &c, &e), HY_EPARSE);
}

/* (replace FROM by TO in the good text) => the error message must contain EXPECT */
static void bad(const char *from, const char *to, const char *expect)
{
    char text[4096];
    const char *p = strstr(good, from);
    assert_non_null(p);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(p - good), good, to, p + strlen(from));
    mech_friction_config c;
    hy_err e;
    int rc = mech_friction_config_parse(text, strlen(text), "bad.json", &c, &e);
    if (rc == HY_OK || !strstr(e.msg, expect))
        print_message("replacing '%s' by '%s': got %d '%s', expected '%s'\n", from, to, rc, rc ? e.msg : "", expect);
    assert_int_equal(rc, HY_EPARSE);
    assert_non_null(strstr(e.msg, expect));
    assert_null(strchr(e.msg, '\n'));
}

static void error_classes(void **state)
{
    (void)state;
    bad("\"name\": \"g\",\n", "\"name\": \"g\",,\n", "bad.json:1:");                       /* malformed, line:col */
    bad("\"mech-friction\"", "\"mech-pendulum\"", "bad.json: format: expected \"mech-friction\"");
    bad("\"name\": \"g\"", "\"nmae\": \"g\"", "bad.json: nmae: unknown key");
    bad("\"radius\": 0.02", "\"radius\": 0.02, \"inertia\": 1", "mechanism.inertia: unknown key");
    bad("\"kind\": \"bushing\"", "\"kind\": \"gear\"", "mechanism.kind: expected");
    bad("\"mass\": 2", "\"mass\": -2", "mechanism.mass = -2: expected a mass > 0");
    bad("\"mass\": 2, ", "", "mechanism.mass: missing");
    bad("\"mass\": 2", "\"mass\": \"heavy\"", "mechanism.mass: expected a finite number");
    bad("[-0.1, 0.1]", "[-0.1]", "mechanism.pairs_at: expected an array of 2 numbers");
    bad("[-0.1, 0.1]", "[0.1, 0.1]", "mechanism.pairs_at: the two pairs must sit at different");
    bad("{\"mu\": 0.2}]", "{\"mu\": -0.2}]", "contacts[1].mu = -0.2: expected a friction coefficient");
    bad("{\"mu\": 0.2}]", "{\"mu\": 0.2, \"mu_k\": 1}]", "contacts[1].mu_k: unknown key");
    bad(", {\"mu\": 0.2}]", "]", "contacts: expected an array of 2 objects");
    bad("[0.2, 0.3]", "[0.2, \"x\"]", "contacts[0].mu[1]: expected a finite number");
    bad("\"freq_hz\": 5", "\"freq_hz\": -5", "loads.lateral_force.freq_hz = -5: expected >= 0");
    bad("\"freq_hz\": 5", "\"freq\": 5", "loads.lateral_force.freq: unknown key");
    bad("\"moment\": -3", "\"torque\": -3", "loads.torque: unknown key");
    bad("\"moment\": -3", "\"moment\": [1]", "loads.moment: expected a number or an object");
    bad("\"q\": [0.5]", "\"q\": [0.5, 1]", "initial.q: expected an array of 1 numbers");
    bad("\"duration\": 0.4", "\"duration\": -1", "run.duration = -1: expected a duration");
    bad("\"step\": 1e-4", "\"step\": 0", "run.step = 0: expected a step");
    bad("\"step\": 1e-4", "\"step\": 1e-12", "run.step: more than 1e8 steps");
    bad("\"lp\"", "\"ignore\"", "run.on_paradox: expected \"stop\" or \"lp\"");
    bad("\"max_attempts\": 5", "\"max_attempts\": 0.5", "solver.max_attempts = 0.5: expected an integer");
    bad("\"max_attempts\": 5}}\n", "\"max_attempts\": 5}} x\n", "bad.json:7:");
    bad("\"max_attempts\": 5}}\n", "\"max_attempts\": 5}}\n{}", "bad.json:8:1: text after the JSON document");
}

static void generic_kind(void **state)
{
    (void)state;
    const char *t = "{\"format\": \"mech-friction\", \"mechanism\": {\"kind\": \"generic\", \"coordinates\": 1, "
                    "\"pairs\": 1, \"M_qq\": [[1]], \"M_sq\": [[2]], \"f_q\": [5], \"f_s\": [0], "
                    "\"normals\": [[[0, 1], [0, -1]]], \"tangents\": [[[1, 0], [1, 0]]]}, \"contacts\": [{\"mu\": 0.3}]}";
    mech_friction_config c;
    hy_err e;
    assert_int_equal(mech_friction_config_parse(t, strlen(t), "gen.json", &c, &e), HY_OK);
    assert_int_equal(c.w, 1);
    assert_float_equal(c.nvec[3], -1, 0);
    assert_float_equal(c.Msq[0], 2, 0);
    char b[1024];
    snprintf(b, sizeof b, "%s", t);
    char *p = strstr(b, "[[0, 1], [0, -1]]");
    memcpy(p, "[[0, 1], [0,  1]]", 17);
    assert_int_equal(mech_friction_config_parse(b, strlen(b), "gen.json", &c, &e), HY_OK);
    snprintf(b, sizeof b, "%s", t);
    p = strstr(b, "[[0, 1], [0, -1]]");
    memcpy(p, "[[0, 1],    [-1]]", 17);
    assert_int_equal(mech_friction_config_parse(b, strlen(b), "gen.json", &c, &e), HY_EPARSE);
    assert_non_null(strstr(e.msg, "gen.json: mechanism.normals[0][1]: expected an array of 2 numbers"));
    snprintf(b, sizeof b, "%s", t);
    p = strstr(b, "\"pairs\": 1");
    p[9] = '9';
    assert_int_equal(mech_friction_config_parse(b, strlen(b), "gen.json", &c, &e), HY_EPARSE);
    assert_non_null(strstr(e.msg, "mechanism.pairs = 9: expected an integer in 1..6"));
    /* a file that cannot be opened names itself */
    assert_int_equal(mech_friction_config_read("/nonexistent/x.json", &c, &e), HY_EIO);
    assert_non_null(strstr(e.msg, "/nonexistent/x.json: cannot open"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_good),
        cmocka_unit_test(error_classes),
        cmocka_unit_test(generic_kind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The "mech-beam" configuration reader (io/beam_json.c): defaults, the two hinge forms, path resolution, errors
 * naming the key, and a force history read with libhyst's CSV reader that reproduces the pulse. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mech/beam.h"

static int parse(const char *text, mech_beam_config *c, hy_err *err)
{
    return mech_beam_config_parse(text, strlen(text), "cfg.json", "/data", c, err);
}

static void defaults_and_forms(void **state)
{
    (void)state;
    mech_beam_config c;
    hy_err err;
    assert_int_equal(parse("{\"format\": \"mech-beam\"}", &c, &err), HY_OK);
    assert_int_equal(c.params.n_hinges, 1);
    assert_true(c.params.hinge[0].position == 1.5 && fabs(c.params.hinge[0].k - 43750) < 1e-9);
    assert_true(c.solver.dt == 1e-4 && c.load.F0 == 300 && c.load.edges == MECH_BEAM_EDGES_CLOSED);
    assert_true(c.control_Q == 600 && c.control_R == 0.1 && !c.control_enabled && !c.params.mfc.enabled);
    mech_beam_config_free(&c);
    /* equally spaced hinges, a template of their properties and a model path resolved against the folder */
    assert_int_equal(parse("{\"format\": \"mech-beam\", \"beam\": {\"length\": 4}, \"hinges\": {\"count\": 3, \"c\": 2,"
                           " \"clearance\": 0.01, \"law\": \"deadzone+model\", \"model\": \"h.json\"}}", &c, &err),
                     HY_OK);
    assert_int_equal(c.params.n_hinges, 3);
    for (int j = 0; j < 3; j++) {
        assert_true(fabs(c.params.hinge[j].position - (j + 1)) < 1e-12);
        assert_true(c.params.hinge[j].clearance == 0.01 && c.params.hinge[j].law == MECH_BEAM_DEADZONE_MODEL);
        assert_string_equal(c.model_path[j], "/data/h.json");
    }
    assert_true(fabs(c.params.hinge[0].k - 2 * 100 * 3937.5 / 16) < 1e-9);
    assert_true(c.params.load_position == 4);
    mech_beam_config_free(&c);
    assert_int_equal(parse("{\"format\": \"mech-beam\", \"hinges\": [], \"mfc\": {}, \"control\": {\"design\": \"theta\"},"
                           " \"solver\": {\"update\": \"iterated\", \"theta_torque\": \"consistent\","
                           " \"coordinates\": \"physical\"}, \"load\": {\"edges\": \"half\"}}", &c, &err), HY_OK);
    assert_int_equal(c.params.n_hinges, 0);
    assert_true(c.params.mfc.enabled && c.control_enabled && c.control_design == MECH_BEAM_DESIGN_THETA);
    assert_true(c.solver.update == MECH_BEAM_ITERATED && c.solver.theta_torque && c.solver.physical);
    assert_true(c.load.edges == MECH_BEAM_EDGES_HALF);
    mech_beam_config_free(&c);
}

static void errors_name_the_key(void **state)
{
    (void)state;
    struct { const char *text, *msg; } bad[] = {
        {"{\"format\": \"mech-pendulum\"}", "cfg.json: \"format\": expected \"mech-beam\""},
        {"{\"format\": \"mech-beam\",\n \"hub\": {\"J1\": 1,,}}", "cfg.json:2:"},
        {"{\"format\": \"mech-beam\", \"hub\": {\"J1\": \"big\"}}", "cfg.json: hub.J1: expected a number"},
        {"{\"format\": \"mech-beam\", \"hub\": {\"J\": 1}}", "cfg.json: hub.\"J\": unknown key (known: r0, J1)"},
        {"{\"format\": \"mech-beam\", \"hinges\": [{\"position\": 1, \"k\": 5, \"c\": 1}]}", "hinges[0]: give \"k\""},
        {"{\"format\": \"mech-beam\", \"hinges\": [{\"k\": 5}]}", "hinges[0].position: required"},
        {"{\"format\": \"mech-beam\", \"hinges\": [{\"position\": 1, \"law\": \"glue\"}]}", "hinges[0].law: expected one of"},
        {"{\"format\": \"mech-beam\", \"hinges\": [{\"position\": 1, \"model\": \"a.json\"}]}", "hinges[0].model: a model file needs"},
        {"{\"format\": \"mech-beam\", \"beam\": {\"elements\": 2.5}}", "beam.elements: expected an integer"},
        {"{\"format\": \"mech-beam\", \"solver\": {\"dt\": -1}}", "solver.dt = -1"},
        {"{\"format\": \"mech-beam\", \"control\": {\"R\": 0}}", "control: expected Q > 0, R > 0"},
        {"{\"format\": \"mech-beam\", \"bad\\nkey\": 1}", "\"bad?key\": unknown key"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mech_beam_config c;
        hy_err err;
        assert_int_not_equal(parse(bad[i].text, &c, &err), HY_OK);
        if (!strstr(err.msg, bad[i].msg))
            fail_msg("case %zu: '%s' does not contain '%s'", i, err.msg, bad[i].msg);
        assert_null(strchr(err.msg, '\n'));
        mech_beam_config_free(&c);
    }
}

/* a force history sampled like the closed pulse (300 N up to 5 ms, 0 from 5.1 ms) gives the pulse's response */
static void force_history(void **state)
{
    (void)state;
    char dir[] = "/tmp/beam_json_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char csv[128], cfg[128];
    snprintf(csv, sizeof csv, "%s/force.csv", dir);
    snprintf(cfg, sizeof cfg, "%s/beam.json", dir);
    FILE *fp = fopen(csv, "w");
    fputs("time,force\ns,N\n0,300\n0.005,300\n0.0051,0\n3,0\n", fp);
    fclose(fp);
    fp = fopen(cfg, "w");
    fputs("{\"format\": \"mech-beam\", \"load\": {\"F0\": 0, \"history\": \"force.csv\", \"history_t\": \"time\","
          " \"history_F\": \"force\"}, \"solver\": {\"duration\": 0.3}}", fp);
    fclose(fp);
    mech_beam_config c;
    hy_err err;
    if (mech_beam_config_read(cfg, &c, &err) != HY_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(c.load.n_hist, 4);
    assert_true(fabs(mech_beam_load_eval(&c.load, 0.0025) - 300) < 1e-9);
    assert_true(fabs(mech_beam_load_eval(&c.load, 0.00505) - 150) < 1e-6);
    mech_beam_load pulse;
    mech_beam_load_default(&pulse);
    for (int i = 0; i <= 3000; i++) {
        double t = i * 1e-4;
        assert_true(fabs(mech_beam_load_eval(&c.load, t) - mech_beam_load_eval(&pulse, t)) < 1e-9);
    }
    mech_beam_model *m;
    assert_int_equal(mech_beam_model_new(&c.params, &m, NULL), HY_OK);
    double wmax[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        mech_beam_data *d;
        assert_int_equal(mech_beam_data_new(m, &c.solver, k ? &pulse : &c.load, NULL, NULL, NULL, &d, NULL), HY_OK);
        mech_beam_obs o;
        for (int i = 0; i < 3000; i++) {
            assert_int_equal(mech_beam_step(d, NULL), HY_OK);
            mech_beam_observe(d, &o);
            wmax[k] = fmax(wmax[k], fabs(o.w_tip));
        }
        mech_beam_data_free(d);
    }
    assert_true(fabs(wmax[0] - wmax[1]) <= 1e-9 * wmax[1]);
    mech_beam_model_free(m);
    mech_beam_config_free(&c);
    /* a history without the named column names the key */
    fp = fopen(cfg, "w");
    fputs("{\"format\": \"mech-beam\", \"load\": {\"history\": \"force.csv\"}}", fp);
    fclose(fp);
    assert_int_not_equal(mech_beam_config_read(cfg, &c, &err), HY_OK);
    assert_non_null(strstr(err.msg, "beam.json: load.history:"));
    unlink(csv);
    unlink(cfg);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_and_forms),
        cmocka_unit_test(errors_name_the_key),
        cmocka_unit_test(force_history),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

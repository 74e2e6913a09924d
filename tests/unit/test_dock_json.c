/* The "mech-dock" scenario reader (io/dock_json.c): RP-1 defaults by variant and cone, degrees in the file and
 * radians in the configuration, path resolution against the scenario's folder, every class of bad input named by
 * file and key, the model-file checks of mech_dock_config_load (family, kind, units and their scales), the
 * printer's round trip, and the shipped scenario files S1-S7 as RP-1 §4 describes them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mech/dock.h"

#define DEG (M_PI / 180)
/* the start of a scenario: the format, and the closing speed every scenario must give */
#define FMT "\"format\": \"mech-dock\""
#define DOCK FMT ", \"initial\": {\"closing_speed\": 0.15}"

static int parse(const char *text, mech_dock_config *c, hy_err *err)
{
    return mech_dock_config_parse(text, strlen(text), "cfg.json", "/data", c, err);
}

static const char *fixtures(void)
{
    const char *f = getenv("FIXTURES");
    return f && *f ? f : "fixtures";
}

static void defaults_follow_rp1(void **state)
{
    (void)state;
    mech_dock_config c;
    hy_err err;
    mech_dock_params ref;
    assert_int_equal(parse("{" DOCK "}", &c, &err), HY_OK);
    mech_dock_params_rp1(&ref, MECH_DOCK_A, MECH_DOCK_CONE_MODULE);
    ref.init.closing_speed = 0.15;
    assert_memory_equal(&c.params, &ref, sizeof ref);
    /* variant A drives the spring + brake chain, not the gear train; the RP-1 files by default */
    assert_string_equal(c.law_path[MECH_DOCK_LAW_CHAIN], "/data/models/axial-A.json");
    assert_string_equal(c.law_path[MECH_DOCK_LAW_GEAR], "");
    assert_string_equal(c.law_path[MECH_DOCK_LAW_SPRING], "/data/models/lateral-spring.json");
    assert_string_equal(c.law_path[MECH_DOCK_LAW_BENDING], "/data/models/probe-bending.json");
    assert_string_equal(c.law_path[MECH_DOCK_LAW_TORSION], "/data/models/probe-torsion.json");
    assert_true(c.records && c.plots && !c.animation && c.nchannel == 0 && c.nview == 0 && c.out_rate == 0);
    assert_string_equal(c.out_dir, "");
    mech_dock_config_free(&c);
    /* variant B on the shortened cone: RP-1's B geometry (UJ lower) and the short cone's rim */
    assert_int_equal(parse("{" DOCK ", \"version\": 1, \"variant\": \"B\", \"cone\": \"short\"}", &c,
                           &err), HY_OK);
    mech_dock_params_rp1(&ref, MECH_DOCK_B, MECH_DOCK_CONE_SHORT);
    ref.init.closing_speed = 0.15;
    assert_memory_equal(&c.params, &ref, sizeof ref);
    assert_int_equal(c.params.variant, MECH_DOCK_B);
    assert_int_equal(c.params.geom.cone, MECH_DOCK_CONE_SHORT);
    assert_true(c.params.geom.rim_radius == 0.30 && c.params.geom.rim_x == -0.17);
    assert_string_equal(c.law_path[MECH_DOCK_LAW_CHAIN], "");
    assert_string_equal(c.law_path[MECH_DOCK_LAW_GEAR], "/data/models/gear-B.json");
    mech_dock_config_free(&c);
    /* variant C: B's dampers and laws with the movable limiter (spec 001 §5.3); its forward position by the stroke
       rule, by hand: the larger base (0.28 m) meets the short cone's wall 0.17 + 0.02 / tan 30 deg behind the
       docking plane, at a plane gap of 0.9 x 0.20 = 0.18 m, the UJ 0.20 m behind the plane (B) */
    assert_int_equal(parse("{" DOCK ", \"variant\": \"C\", \"cone\": \"short\", \"limiter\": {\"mass\": 3.5}}", &c,
                           &err), HY_OK);
    mech_dock_params_rp1(&ref, MECH_DOCK_C, MECH_DOCK_CONE_SHORT);
    ref.init.closing_speed = 0.15;
    ref.limiter.mass = 3.5;
    assert_memory_equal(&c.params, &ref, sizeof ref);
    assert_int_equal(c.params.variant, MECH_DOCK_B);
    assert_int_equal(c.params.limiter_movable, 1);
    assert_string_equal(mech_dock_variant_name(&c.params), "C");
    const mech_dock_geometry *g = &c.params.geom;
    assert_float_equal(g->limiter_x0, 0.20 + 0.18 + 0.17 + 0.02 / tan(M_PI / 6), 1e-15);
    assert_float_equal(g->limiter_r0, 0.28, 0);
    assert_float_equal(g->limiter_r1, 0.28 - 0.08 * tan(32 * M_PI / 180), 1e-15);
    assert_string_equal(c.law_path[MECH_DOCK_LAW_GEAR], "/data/models/gear-B.json");
    mech_dock_config_free(&c);
}

static void units_are_converted(void **state)
{
    (void)state;
    mech_dock_config c;
    hy_err err;
    const char *t = "{" FMT ", \"initial\": {\"closing_speed\": 0.25, \"offset_y\": 0.2, "
                    "\"offset_z\": -0.05, \"velocity_y\": 0.03, \"velocity_z\": -0.01, \"roll_deg\": 2, "
                    "\"pitch_deg\": 5, \"yaw_deg\": -7, \"roll_rate_deg_s\": 0.1, \"pitch_rate_deg_s\": 0.3, "
                    "\"yaw_rate_deg_s\": -0.5, \"gap\": 0.01},"
                    " \"geometry\": {\"half_angle_deg\": 35, \"slot_entry_deg\": 12, \"limiter_pads\": 3},"
                    " \"lateral\": {\"brake_stop_deg\": 6, \"brake\": {\"speed\": [0, 1], \"moment\": [0, 1500]}},"
                    " \"axial\": {\"magnetic\": {\"speed\": [0, 0.3, 1], \"force\": [0, 300, 300]}},"
                    " \"contact\": {\"head_cone\": {\"mu\": 0.2, \"restitution\": 0.5}},"
                    " \"thrust\": {\"force\": 200, \"duration\": 10}, \"step\": 1e-4, \"duration\": 15,"
                    " \"capture_timeout\": 8}";
    assert_int_equal(parse(t, &c, &err), HY_OK);
    const mech_dock_params *p = &c.params;
    assert_true(p->init.closing_speed == 0.25 && p->init.offset.y == 0.2 && p->init.offset.z == -0.05);
    assert_true(p->init.velocity.y == 0.03 && p->init.velocity.z == -0.01 && p->init.gap == 0.01);
    assert_true(p->init.angles.x == 2 * DEG && p->init.angles.y == 5 * DEG && p->init.angles.z == -7 * DEG);
    assert_true(p->init.rates.x == 0.1 * DEG && p->init.rates.y == 0.3 * DEG && p->init.rates.z == -0.5 * DEG);
    assert_true(fabs(p->geom.half_angle - 0.6108652381980153) < 1e-15 && p->geom.slot_entry == 12 * DEG);
    assert_int_equal(p->geom.limiter_pads, 3);
    assert_true(p->lateral.brake_stop == 6 * DEG);
    assert_true(p->lateral.brake.n == 2 && p->lateral.brake.y[1] == 1500);
    assert_true(p->axial.magnetic.n == 3 && p->axial.magnetic.x[1] == 0.3 && p->axial.magnetic.y[2] == 300);
    assert_true(p->contact.head_cone.mu_s == 0.2 && p->contact.head_cone.mu_k == 0.2 && p->contact.head_cone.e == 0.5);
    assert_true(p->thrust.force == 200 && p->thrust.duration == 10);
    assert_true(p->h == 1e-4 && p->duration == 15 && p->capture_timeout == 8);
    mech_dock_config_free(&c);
}

static void paths_resolve_against_the_folder(void **state)
{
    (void)state;
    mech_dock_config c;
    hy_err err;
    const char *t = "{" DOCK ", \"laws\": {\"spring\": \"fit/spring.json\", \"torsion\": \"/abs/t.json\"},"
                    " \"outputs\": {\"folder\": \"out/s1\", \"rate\": 100, \"channels\": [\"head_fx\", \"stroke\"],"
                    " \"records\": false, \"plots\": false, \"animation\": true, \"view_times\": [0.5, 1, 2]}}";
    assert_int_equal(parse(t, &c, &err), HY_OK);
    assert_string_equal(c.law_path[MECH_DOCK_LAW_SPRING], "/data/fit/spring.json");
    assert_string_equal(c.law_path[MECH_DOCK_LAW_TORSION], "/abs/t.json");
    assert_string_equal(c.law_path[MECH_DOCK_LAW_BENDING], "/data/models/probe-bending.json");
    assert_string_equal(c.out_dir, "/data/out/s1");
    assert_true(c.out_rate == 100 && c.nchannel == 2 && c.channel[0] == MECH_DOCK_CH_HEAD_FX &&
                c.channel[1] == MECH_DOCK_CH_STROKE);
    assert_true(!c.records && !c.plots && c.animation && c.nview == 3 && c.view_times[2] == 2);
    mech_dock_config_free(&c);
    /* no folder: paths as written */
    assert_int_equal(mech_dock_config_parse(t, strlen(t), "cfg.json", NULL, &c, &err), HY_OK);
    assert_string_equal(c.law_path[MECH_DOCK_LAW_SPRING], "fit/spring.json");
    assert_string_equal(c.out_dir, "out/s1");
    mech_dock_config_free(&c);
}

static void errors_name_file_and_key(void **state)
{
    (void)state;
    struct { const char *text, *msg; } bad[] = {
        /* malformed JSON: line and column */
        {"{" FMT ",\n \"initial\": {\"gap\": 1,,}}", "cfg.json:2:"},
        {"", "cfg.json:1:1: malformed JSON"},
        {"[1]", "cfg.json: expected a JSON object at the top level"},
        {"{\"format\": \"mech-beam\"}", "cfg.json: format: expected \"mech-dock\""},
        {"{" DOCK ", \"version\": 2}", "cfg.json: version: expected 1"},
        {"{" DOCK ", \"name\": 3}", "cfg.json: name: expected a string"},
        /* unknown keys, at the top and nested, with the known ones */
        {"{" DOCK ", \"stepp\": 1}", "cfg.json: \"stepp\": unknown key (known: step, duration,"},
        {"{" FMT ", \"initial\": {\"pitch\": 4}}",
         "cfg.json: initial.\"pitch\": unknown key (known: closing_speed, offset_y,"},
        {"{" DOCK ", \"contact\": {\"head_cone\": {\"mu_x\": 1}}}",
         "contact.head_cone.\"mu_x\": unknown key"},
        {"{" DOCK ", \"bad\\nkey\": 1}", "\"bad?key\": unknown key"},
        /* choices, types, ranges */
        {"{" DOCK ", \"variant\": \"D\"}", "cfg.json: variant: expected one of \"A\", \"B\", \"C\""},
        {"{" DOCK ", \"variant\": \"B\", \"limiter\": {\"mass\": 3}}", "cfg.json: limiter: only variant C has a movable limiter"},
        {"{" DOCK ", \"variant\": \"C\", \"limiter\": {\"f_forward\": 0}}", "cfg.json: limiter.f_forward = 0"},
        {"{" DOCK ", \"variant\": \"C\", \"limiter\": {\"mu\": [0.1]}}", "cfg.json: limiter.mu"},
        {"{" DOCK ", \"variant\": \"C\", \"limiter\": {\"strok\": 0.2}}", "limiter.\"strok\": unknown key"},
        {"{" DOCK ", \"cone\": 1}", "cfg.json: cone: expected one of \"module\""},
        {"{" FMT ", \"initial\": []}", "cfg.json: initial: expected an object"},
        {"{" DOCK ", \"vehicles\": {\"active\": 5}}", "cfg.json: vehicles.active: expected an object"},
        {"{" FMT ", \"initial\": {\"closing_speed\": \"fast\"}}",
         "cfg.json: initial.closing_speed: expected a number in m/s"},
        {"{" FMT ", \"initial\": {\"closing_speed\": -0.1}}",
         "cfg.json: initial.closing_speed = -0.10000000000000001: expected > 0 m/s"},
        {"{" FMT ", \"initial\": {\"gap\": -1}}", "initial.gap = -1: expected >= 0 m"},
        {"{" FMT ", \"initial\": {\"offset_y\": 0.1}}", "cfg.json: initial.closing_speed: required"},
        {"{" DOCK ", \"geometry\": {\"half_angle_deg\": 90}}",
         "geometry.half_angle_deg = 90: expected strictly between 0 and 90 deg"},
        {"{" DOCK ", \"geometry\": {\"limiter_pads\": 2.5}}", "geometry.limiter_pads = 2.5: expected an integer"},
        {"{" DOCK ", \"contact\": {\"head_cone\": {\"restitution\": 0}}}",
         "contact.head_cone.restitution = 0: expected in (0, 1]"},
        {"{" DOCK ", \"contact\": {\"limiter_rim\": {\"n\": 0.5}}}", "contact.limiter_rim.n = 0.5: expected >= 1"},
        {"{" DOCK ", \"vehicles\": {\"active\": {\"inertia\": [1, 2]}}}",
         "vehicles.active.inertia: expected [x, y, z] in kg m^2, each > 0"},
        {"{" DOCK ", \"vehicles\": {\"passive\": {\"port\": [1, \"x\", 3]}}}",
         "vehicles.passive.port: expected [x, y, z] in m"},
        {"{" DOCK ", \"vehicles\": {\"active\": {\"name\": \"\"}}}", "vehicles.active.name: expected a name"},
        {"{" DOCK ", \"step\": 0}", "cfg.json: step = 0: expected > 0 s"},
        {"{" DOCK ", \"step\": 1e-9, \"duration\": 20}", "cfg.json: duration = 20: expected at most 1e8 steps"},
        {"{" DOCK ", \"outputs\": {\"records\": 1}}", "cfg.json: outputs.records: expected true or false"},
        /* cross-checks */
        {"{" DOCK ", \"contact\": {\"head_cone\": {\"mu\": 0.2, \"mu_k\": 0.1}}}",
         "contact.head_cone: give \"mu\" (both coefficients) or \"mu_s\" and \"mu_k\", not both"},
        {"{" DOCK ", \"contact\": {\"head_cone\": {\"mu_s\": 0.1, \"mu_k\": 0.3}}}",
         "contact.head_cone.mu_s = 0.1: expected >= mu_k = 0.3"},
        {"{" DOCK ", \"geometry\": {\"head_radius\": 0.06}}", "geometry.head_radius = 0.06: expected below"},
        {"{" DOCK ", \"geometry\": {\"socket_radius\": 0.5}}", "geometry.socket_radius = 0.5: expected below"},
        {"{" DOCK ", \"variant\": \"B\", \"axial\": {\"frt1_stroke\": 0.4}}",
         "axial.frt1_stroke = 0.4: expected below axial.stroke_limit"},
        /* tables */
        {"{" DOCK ", \"axial\": {\"magnetic\": {\"speed\": [0, 1]}}}",
         "axial.magnetic: expected both \"speed\" (m/s) and \"force\" (N) lists"},
        {"{" DOCK ", \"axial\": {\"magnetic\": {\"speed\": [0, 1], \"force\": [1]}}}",
         "axial.magnetic.force: expected a list of 2 values"},
        {"{" DOCK ", \"axial\": {\"magnetic\": {\"speed\": [0, 1, 1], \"force\": [0, 1, 2]}}}",
         "axial.magnetic.speed[2]: expected a number >= 0 m/s, larger than the one before"},
        {"{" DOCK ", \"lateral\": {\"brake\": {\"speed\": [0], \"moment\": [-1]}}}",
         "lateral.brake.moment[0]: expected a number >= 0 N m"},
        {"{" DOCK ", \"variant\": \"B\", \"axial\": {\"magnetic\": {\"speed\": [0], \"force\": [0]}}}",
         "axial.magnetic: variant B has no axial magnetic brakes"},
        /* laws */
        {"{" DOCK ", \"variant\": \"B\", \"laws\": {\"chain\": \"a.json\"}}",
         "cfg.json: laws.chain: variant B has no chain law"},
        {"{" DOCK ", \"laws\": {\"gear\": \"g.json\"}}", "cfg.json: laws.gear: variant A has no gear law"},
        {"{" DOCK ", \"laws\": {\"spring\": \"\"}}", "cfg.json: laws.spring: expected a path"},
        {"{" DOCK ", \"laws\": {\"springs\": \"x.json\"}}", "laws.\"springs\": unknown key"},
        /* outputs */
        {"{" DOCK ", \"outputs\": {\"channels\": [\"head_fx\", \"nope\"]}}",
         "cfg.json: outputs.channels[1]: \"nope\": not a channel"},
        {"{" DOCK ", \"outputs\": {\"channels\": [\"stroke\", \"stroke\"]}}",
         "outputs.channels[1]: \"stroke\" is listed twice"},
        {"{" DOCK ", \"outputs\": {\"channels\": []}}", "outputs.channels: expected a list of 1.."},
        {"{" DOCK ", \"duration\": 5, \"outputs\": {\"view_times\": [1, 6]}}",
         "outputs.view_times[1]: expected a time in 0..duration = 5 s"},
        {"{" DOCK ", \"outputs\": {\"view_times\": [2, 1]}}", "outputs.view_times[1]:"},
        {"{" DOCK ", \"outputs\": {\"rate\": -1}}", "outputs.rate = -1: expected >= 0 rows/s"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mech_dock_config c;
        hy_err err;
        int rc = parse(bad[i].text, &c, &err);
        if (rc == HY_OK)
            fail_msg("case %zu: accepted %s", i, bad[i].text);
        if (!strstr(err.msg, bad[i].msg))
            fail_msg("case %zu: '%s' does not contain '%s'", i, err.msg, bad[i].msg);
        assert_null(strchr(err.msg, '\n'));
        mech_dock_config_free(&c);
    }
    /* a path too long for the configuration */
    char big[3 * MECH_DOCK_PATH_LEN];
    snprintf(big, sizeof big, "{" DOCK ", \"laws\": {\"spring\": \"%0*d\"}}", MECH_DOCK_PATH_LEN, 7);
    mech_dock_config c;
    hy_err err;
    assert_int_not_equal(parse(big, &c, &err), HY_OK);
    assert_non_null(strstr(err.msg, "laws.spring: path longer than"));
    /* text that is not terminated where its length ends is read only up to that length */
    const char *t = "{" DOCK "}garbage";
    assert_int_equal(mech_dock_config_parse(t, strlen(t) - 7, "cfg.json", NULL, &c, &err), HY_OK);
    mech_dock_config_free(&c);
}

// (folder, name, text) => file written
static void put(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

// (kind, unit q, unit Q, q and Q multipliers) => a small pwl model file text: the constant kind shaped like the
// RP-1 torsion law, the friction kind like the RP-1 variant-A chain (last backward slope = k_beyond / gear rise)
static void pwl_text(char *buf, size_t len, const char *kind, const char *uq, const char *uQ, double sq, double sQ)
{
    int fr = strcmp(kind, "friction") == 0;
    const double qf[3] = {fr ? 0.0005 : 1e-5, fr ? 0.1005 : 0.025, fr ? 0.1045 : 0.05};
    const double Qf[3] = {fr ? 500 : 0.25, fr ? 1000 : 625, fr ? 5000 : 1250};
    const double qb[3] = {qf[0], fr ? 0.1005 : 0.035, qf[2]}, Qb[3] = {Qf[0], fr ? 850 : 500, Qf[2]};
    char side[2][600];
    for (int s = 0; s < 2; s++) {
        double g = s ? -1 : 1;
        snprintf(side[s], sizeof side[s], "{\"forward\": [[0, 0], [%.17g, %.17g], [%.17g, %.17g], [%.17g, %.17g]], "
                 "\"backward\": [[0, 0], [%.17g, %.17g], [%.17g, %.17g], [%.17g, %.17g]], \"k_beyond\": %.17g}",
                 g * qf[0] * sq, g * Qf[0] * sQ, g * qf[1] * sq, g * Qf[1] * sQ, g * qf[2] * sq, g * Qf[2] * sQ,
                 g * qb[0] * sq, g * Qb[0] * sQ, g * qb[1] * sq, g * Qb[1] * sQ, g * qb[2] * sq, g * Qb[2] * sQ,
                 fr ? 0 : 50000 * sQ / sq);
    }
    snprintf(buf, len, "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"pwl\", \"kind\": \"%s\", "
             "\"units\": {\"q\": \"%s\", \"Q\": \"%s\"}, \"positive\": %s, \"negative\": %s}", kind, uq, uQ, side[0],
             side[1]);
}

static void load_checks_family_kind_units(void **state)
{
    (void)state;
    char dir[] = "/tmp/dock_json_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char txt[2048];
    pwl_text(txt, sizeof txt, "friction", "mm", "kN", 1e3, 1e-3);
    put(dir, "chain-mm-kN.json", txt);
    pwl_text(txt, sizeof txt, "constant", "m", "N", 1, 1);
    put(dir, "constant-m-N.json", txt);
    pwl_text(txt, sizeof txt, "friction", "m", "N", 1, 1);
    put(dir, "friction-m-N.json", txt);
    pwl_text(txt, sizeof txt, "constant", "mrad", "kN m", 1, 1);
    put(dir, "angle-mrad-kNm.json", txt);
    pwl_text(txt, sizeof txt, "constant", "s", "N", 1, 1);
    put(dir, "seconds.json", txt);
    struct { const char *laws; int rc; const char *msg; } cases[] = {
        /* A's chain in mm and kN: accepted, scales 1000 mm/m and 1000 N/kN */
        {"\"chain\": \"chain-mm-kN.json\", \"spring\": \"constant-m-N.json\", \"bending\": \"angle-mrad-kNm.json\","
         " \"torsion\": \"angle-mrad-kNm.json\"", HY_OK, ""},
        {"\"chain\": \"constant-m-N.json\", \"spring\": \"constant-m-N.json\", \"bending\": \"angle-mrad-kNm.json\","
         " \"torsion\": \"angle-mrad-kNm.json\"", HY_EMODEL,
         "s.json: laws.chain: %s/constant-m-N.json is a pwl constant-kind model; the spring + friction-brake chain"},
        {"\"chain\": \"chain-mm-kN.json\", \"spring\": \"friction-m-N.json\", \"bending\": \"angle-mrad-kNm.json\","
         " \"torsion\": \"angle-mrad-kNm.json\"", HY_EMODEL,
         "s.json: laws.spring: %s/friction-m-N.json is a pwl table of friction kind"},
        {"\"chain\": \"chain-mm-kN.json\", \"spring\": \"seconds.json\", \"bending\": \"angle-mrad-kNm.json\","
         " \"torsion\": \"angle-mrad-kNm.json\"", HY_EMODEL,
         "s.json: laws.spring: %s/seconds.json has units q = \"s\", Q = \"N\"; this law needs a length"},
        {"\"chain\": \"chain-mm-kN.json\", \"spring\": \"constant-m-N.json\", \"bending\": \"constant-m-N.json\","
         " \"torsion\": \"angle-mrad-kNm.json\"", HY_EMODEL,
         "laws.bending: %s/constant-m-N.json has units q = \"m\", Q = \"N\"; this law needs an angle"},
        {"\"chain\": \"chain-mm-kN.json\", \"spring\": \"missing.json\", \"bending\": \"angle-mrad-kNm.json\","
         " \"torsion\": \"angle-mrad-kNm.json\"", HY_EIO, "s.json: laws.spring: %s/missing.json"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char scen[1024], msg[512];
        snprintf(scen, sizeof scen, "{" DOCK ", \"laws\": {%s}}", cases[i].laws);
        put(dir, "s.json", scen);
        char path[512];
        snprintf(path, sizeof path, "%s/s.json", dir);
        mech_dock_config c;
        hy_err err;
        int rc = mech_dock_config_read(path, &c, &err);
        if (rc != cases[i].rc)
            fail_msg("case %zu: rc %d, expected %d (%s)", i, rc, cases[i].rc, rc ? err.msg : "");
        if (rc == HY_OK) {
            const mech_dock_params *p = &c.params;
            assert_true(p->axial.chain.model == &c.laws[MECH_DOCK_LAW_CHAIN]);
            assert_true(p->axial.chain.q_scale == 1e3 && p->axial.chain.Q_scale == 1e3 && p->axial.chain.scale == 1);
            assert_true(p->lateral.spring.model == &c.laws[MECH_DOCK_LAW_SPRING]);
            assert_true(p->lateral.spring.q_scale == 1 && p->lateral.spring.Q_scale == 1);
            assert_true(p->probe.bending.q_scale == 1e3 && p->probe.bending.Q_scale == 1e3);
            assert_true(p->probe.torsion.model == &c.laws[MECH_DOCK_LAW_TORSION]);
            assert_null(p->axial.gear.model);
            mech_dock_config_free(&c);
            assert_null(c.params.axial.chain.model);
        } else {
            snprintf(msg, sizeof msg, cases[i].msg, dir);
            if (!strstr(err.msg, msg))
                fail_msg("case %zu: '%s' does not contain '%s'", i, err.msg, msg);
        }
    }
    /* a file that does not exist and one that is not JSON */
    mech_dock_config c;
    hy_err err;
    char path[512];
    snprintf(path, sizeof path, "%s/none.json", dir);
    assert_int_equal(mech_dock_config_read(path, &c, &err), HY_EIO);
    assert_non_null(strstr(err.msg, "none.json: cannot open"));
    put(dir, "broken.json", "{" DOCK ",\n\n  \"step\": }");
    snprintf(path, sizeof path, "%s/broken.json", dir);
    assert_int_equal(mech_dock_config_read(path, &c, &err), HY_EPARSE);
    assert_non_null(strstr(err.msg, "broken.json:3:"));
    const char *names[] = {"chain-mm-kN.json", "constant-m-N.json", "friction-m-N.json", "angle-mrad-kNm.json",
                           "seconds.json", "s.json", "broken.json"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

static void print_parse_round_trip(void **state)
{
    (void)state;
    const char *t = "{" FMT ", \"variant\": \"%s\", \"vehicles\": {\"active\": {\"name\": \"soyuz\","
                    " \"mass\": 7200, \"inertia\": [6.5e3, 3e4, 3e4], \"port\": [4, 0, 0]}}, \"initial\": "
                    "{\"closing_speed\": 0.25, \"offset_y\": 0.2, \"pitch_deg\": 5, \"pitch_rate_deg_s\": 0.3,"
                    " \"roll_deg\": 0.1, \"yaw_deg\": 7}, \"geometry\": {\"half_angle_deg\": 33.3},"
                    " \"contact\": {\"head_cone\": {\"mu\": 0.2}}, \"lateral\": {\"brake_stop_deg\": 6.1},"
                    " \"outputs\": {\"folder\": \"o\", \"rate\": 50, \"channels\": [\"t\", \"head_axial\"],"
                    " \"view_times\": [0.1, 0.7], \"animation\": true}}";
    for (int variant = 0; variant < 2; variant++) {
        mech_dock_config a, b;
        hy_err err;
        char t2[2048];
        snprintf(t2, sizeof t2, t, variant ? "B" : "A");
        assert_int_equal(parse(t2, &a, &err), HY_OK);
        assert_int_equal(a.params.variant, variant);
        char *p1 = mech_dock_config_print(&a, &err);
        assert_non_null(p1);
        int rc = mech_dock_config_parse(p1, strlen(p1), "printed.json", NULL, &b, &err);
        if (rc != HY_OK)
            fail_msg("%s", err.msg);
        assert_memory_equal(&a.params, &b.params, sizeof a.params);
        assert_memory_equal(a.law_path, b.law_path, sizeof a.law_path);
        assert_string_equal(a.out_dir, b.out_dir);
        assert_true(a.out_rate == b.out_rate && a.nchannel == b.nchannel && a.records == b.records &&
                    a.plots == b.plots && a.animation == b.animation && a.nview == b.nview);
        assert_memory_equal(a.channel, b.channel, sizeof a.channel);
        assert_memory_equal(a.view_times, b.view_times, sizeof a.view_times);
        char *p2 = mech_dock_config_print(&b, &err);
        assert_string_equal(p1, p2);
        free(p1);
        free(p2);
        mech_dock_config_free(&a);
        mech_dock_config_free(&b);
    }
}

/* The shipped scenarios are RP-1 §4's: masses, speeds, offsets, angles; every file loads with the RP-1 laws. */
static void shipped_scenarios_are_rp1(void **state)
{
    (void)state;
    struct { const char *stem; double m_a, m_p, v, y, vy, pitch, rate, thrust, mu; int b_only; } s[] = {
        {"s1", 20000, 420000, 0.15, 0, 0, 0, 0, 0, 0.15, 0},
        {"s2", 7200, 420000, 0.15, 0.10, 0, 0, 0, 0, 0.15, 0},
        {"s2-20t", 20000, 420000, 0.15, 0.10, 0, 0, 0, 0, 0.15, 0},
        {"s3", 20000, 420000, 0.15, 0, 0, 4, 0, 0, 0.15, 0},
        {"s3-7deg", 20000, 420000, 0.15, 0, 0, 7, 0, 0, 0.15, 0},
        {"s4a", 7300, 420000, 0.010, 0, 0, 0, 0, 0, 0.15, 0},
        {"s4b", 7300, 420000, 0.03, 0.15, 0, 0, 0, 0, 0.2, 0},
        {"s4c", 7300, 420000, 0.03, 0.15, 0, 0, 0, 200, 0.2, 0},
        {"s5", 20000, 420000, 0.25, 0.20, 0.03, 5, 0.3, 0, 0.15, 0},
        {"s6", 33000, 19000, 0.20, 0.05, 0, 1, 0, 0, 0.15, 0},
        {"s7", 20000, 420000, 0.07, 0.06, 0, 0, 0, 0, 0.15, 0},
        {"s3x", 20000, 420000, 0.15, 0.10, 0.03, 7, 0.3, 0, 0.15, 0},   /* RP-1 S3's "expert-like" combined case */
        {"s5b", 20000, 420000, 0.35, 0, 0, 0, 0, 0, 0.15, 0},           /* beyond design                         */
        {"s5-central", 20000, 420000, 0.25, 0, 0, 0, 0, 0, 0.15, 1}, /* S5's speed alone, B (FrT1 then FrT2)  */
    };
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
        for (int v = s[i].b_only; v < 2; v++) {
            char path[512];
            snprintf(path, sizeof path, "%s/mech/dock/%s-%c.json", fixtures(), s[i].stem, "AB"[v]);
            mech_dock_config c;
            hy_err err;
            if (mech_dock_config_read(path, &c, &err) != HY_OK)
                fail_msg("%s", err.msg);
            const mech_dock_params *p = &c.params;
            if (!(p->variant == v && p->active.mass == s[i].m_a && p->passive.mass == s[i].m_p &&
                  p->init.closing_speed == s[i].v && p->init.offset.y == s[i].y && p->init.velocity.y == s[i].vy &&
                  p->init.angles.y == s[i].pitch * DEG && p->init.rates.y == s[i].rate * DEG &&
                  p->thrust.force == s[i].thrust && (s[i].thrust == 0 || p->thrust.duration == 10) &&
                  p->contact.head_cone.mu_k == s[i].mu && p->duration == 20 && p->capture_timeout == 10))
                fail_msg("%s does not match RP-1 §4", path);
            /* every law the variant drives is loaded */
            assert_non_null(v ? p->axial.gear.model : p->axial.chain.model);
            assert_non_null(p->lateral.spring.model);
            assert_non_null(p->probe.bending.model);
            assert_non_null(p->probe.torsion.model);
            mech_dock_config_free(&c);
        }
}

static int vec_eq(mech_vec3 a, mech_vec3 b)
{
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

/* The lateral chain geometry: RP-1's of the variant by default (A and B differ: B's UJ is lower and the rods are
 * turned), every key overrides its two chains, the crank axis is normalised (sense kept), and the values reach the
 * configuration exactly. */
static void lateral_geometry_defaults_and_keys(void **state)
{
    (void)state;
    for (int v = 0; v < 2; v++) {
        mech_dock_config c;
        hy_err err;
        char t[256];
        snprintf(t, sizeof t, "{" DOCK ", \"variant\": \"%c\"}", "AB"[v]);
        assert_int_equal(parse(t, &c, &err), HY_OK);
        mech_dock_lateral_params ref;
        mech_dock_lateral_params_rp1(&ref, v);
        assert_memory_equal(&c.params.lateral, &ref, sizeof ref);
        mech_dock_config_free(&c);
    }
    mech_dock_lateral_params a, b;
    mech_dock_lateral_params_rp1(&a, MECH_DOCK_A);
    mech_dock_lateral_params_rp1(&b, MECH_DOCK_B);
    assert_false(vec_eq(a.spring_base[0], b.spring_base[0]));
    assert_true(a.brake_rod[0] == 0.15 && fabs(b.brake_rod[0] - 0.0918) < 1e-4);   /* docs/dock-lateral.md §6 */

    const char *t = "{" DOCK ", \"lateral\": {"
                    "\"spring_base\": [[-0.25, -0.35, 0], [-0.25, 0, -0.35]],"
                    " \"spring_housing\": [[-0.26, 0, 0], [-0.26, 0, 0.001]],"
                    " \"spring_rod_mass\": [1.5, 0],"
                    " \"brake_pivot\": [[-0.24, -0.15, -0.10], [-0.24, 0.10, -0.15]],"
                    " \"brake_axis\": [[0, 0, -2], [0, 3, 4]],"
                    " \"brake_crank\": [0.11, 0.12],"
                    " \"brake_rod\": [0.16, 0.15],"
                    " \"brake_housing\": [[-0.12, 0, -0.10], [-0.12, 0.10, 0]],"
                    " \"brake_crank_inertia\": [0.03, 0],"
                    " \"spring_stop\": 0.02, \"stop_stiffness\": 1e7, \"brake_stop_deg\": 5,"
                    " \"brake_stop_stiffness\": 1e6}}";
    mech_dock_config c;
    hy_err err;
    if (parse(t, &c, &err) != HY_OK)
        fail_msg("%s", err.msg);
    const mech_dock_lateral_params *l = &c.params.lateral;
    assert_true(vec_eq(l->spring_base[0], mech_vec3_make(-0.25, -0.35, 0)));
    assert_true(vec_eq(l->spring_base[1], mech_vec3_make(-0.25, 0, -0.35)));
    assert_true(vec_eq(l->spring_housing[1], mech_vec3_make(-0.26, 0, 0.001)));
    assert_true(l->spring_rod_mass[0] == 1.5 && l->spring_rod_mass[1] == 0);
    assert_true(vec_eq(l->brake_pivot[1], mech_vec3_make(-0.24, 0.10, -0.15)));
    assert_true(vec_eq(l->brake_axis[0], mech_vec3_make(0, 0, -1)));          /* normalised, sense kept */
    assert_true(fabs(l->brake_axis[1].y - 0.6) < 1e-16 && fabs(l->brake_axis[1].z - 0.8) < 1e-16);
    assert_true(l->brake_crank[0] == 0.11 && l->brake_crank[1] == 0.12);
    assert_true(l->brake_rod[0] == 0.16 && l->brake_rod[1] == 0.15);
    assert_true(vec_eq(l->brake_housing[1], mech_vec3_make(-0.12, 0.10, 0)));
    assert_true(l->brake_crank_inertia[0] == 0.03 && l->brake_crank_inertia[1] == 0);
    assert_true(l->spring_stop == 0.02 && l->stop_stiffness == 1e7 && l->brake_stop == 5 * DEG &&
                l->brake_stop_stiffness == 1e6);
    /* the brake table and the spring law are untouched by the geometry keys */
    mech_dock_lateral_params_rp1(&a, MECH_DOCK_A);
    assert_memory_equal(&l->brake, &a.brake, sizeof a.brake);
    /* printed and read back: the same geometry (the normalised axis stays bit for bit) */
    char *p1 = mech_dock_config_print(&c, &err);
    assert_non_null(p1);
    assert_non_null(strstr(p1, "\"brake_axis\""));
    mech_dock_config d;
    if (mech_dock_config_parse(p1, strlen(p1), "printed.json", NULL, &d, &err) != HY_OK)
        fail_msg("%s", err.msg);
    assert_memory_equal(&c.params.lateral, &d.params.lateral, sizeof d.params.lateral);
    free(p1);
    mech_dock_config_free(&c);
    mech_dock_config_free(&d);
}

/* Each class of bad lateral geometry is refused while the file is read, naming the file, the key and its chain; a
 * geometry that only the compiled chains refuse is refused by mech_dock_config_load, before any run. */
static void lateral_geometry_errors(void **state)
{
    (void)state;
    struct { const char *lat, *msg; } bad[] = {
        {"\"brake_rod\": 0.15", "cfg.json: lateral.brake_rod: expected a list of 2 (one per chain: [a, b]) in m"},
        {"\"brake_rod\": [0.15]", "cfg.json: lateral.brake_rod: expected a list of 2"},
        {"\"brake_rod\": [0.15, 0.15, 0.15]", "cfg.json: lateral.brake_rod: expected a list of 2"},
        {"\"brake_rod\": [0.15, 0]", "cfg.json: lateral.brake_rod[1] = 0: expected > 0 m"},
        {"\"brake_crank\": [-0.12, 0.12]", "cfg.json: lateral.brake_crank[0] = -0.12: expected > 0 m"},
        {"\"brake_crank\": [0.12, \"x\"]", "cfg.json: lateral.brake_crank[1]: expected a number in m"},
        {"\"spring_rod_mass\": [1, -1]", "cfg.json: lateral.spring_rod_mass[1] = -1: expected >= 0 kg"},
        {"\"brake_crank_inertia\": [-0.02, 0.02]",
         "cfg.json: lateral.brake_crank_inertia[0] = -0.02: expected >= 0 kg m^2"},
        {"\"spring_base\": [[0, 0, 0]]", "lateral.spring_base: expected a list of 2 (one per chain: [[x, y, z], "
                                         "[x, y, z]]) in m"},
        {"\"spring_base\": [[0, 0, 0], [0, 0]]", "cfg.json: lateral.spring_base[1]: expected [x, y, z] in m"},
        {"\"brake_housing\": [[0, 0, 0], [0, \"a\", 0]]", "cfg.json: lateral.brake_housing[1]: expected [x, y, z] in m"},
        {"\"brake_axis\": [[0, 0, 1], [0, 0, 0]]",
         "cfg.json: lateral.brake_axis[1]: [0, 0, 0] is not a direction (expected a nonzero axis"},
        {"\"brake_axis\": [[0, 0, 1e-12], [0, 0, 1]]", "cfg.json: lateral.brake_axis[0]: [0, 0, 1e-12] is not a direction"},
        {"\"brake_axis\": [0, 0, 1]", "cfg.json: lateral.brake_axis: expected a list of 2"},
        /* loops that cannot close at the neutral position */
        {"\"spring_housing\": [[-0.25, -0.30, 0], [-0.25, 0, -0.30]]",
         "cfg.json: lateral.spring_housing[0]: spring chain 1 has no rod: its S joint is 0 m from its U joint "
         "(lateral.spring_base[0]); the loop cannot close"},
        {"\"brake_rod\": [0.15, 0.5]", "cfg.json: lateral.brake_rod[1] = 0.5 m: brake chain 4 does not close at the "
                                       "neutral position: the coupler must be strictly between"},
        {"\"brake_rod\": [0.01, 0.15]", "cfg.json: lateral.brake_rod[0] = 0.01 m: brake chain 3 does not close"},
        {"\"brake_crank\": [0.12, 0.6]", "lateral.brake_rod[1] = 0.15 m: brake chain 4 does not close at the "
                                         "neutral position"},
        {"\"brake_housing\": [[-0.24, -0.15, 0.3], [-0.12, 0, -0.10]]",
         "cfg.json: lateral.brake_housing[0]: the S joint of brake chain 3 lies on its crank axis"},
        {"\"spring_basis\": []", "cfg.json: lateral.\"spring_basis\": unknown key (known: spring_base, "
                                 "spring_housing, spring_rod_mass, brake_pivot, brake_axis"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char t[1024];
        snprintf(t, sizeof t, "{" DOCK ", \"lateral\": {%s}}", bad[i].lat);
        mech_dock_config c;
        hy_err err;
        int rc = parse(t, &c, &err);
        if (rc == HY_OK)
            fail_msg("case %zu: accepted %s", i, t);
        if (!strstr(err.msg, bad[i].msg))
            fail_msg("case %zu: '%s' does not contain '%s'", i, err.msg, bad[i].msg);
        assert_null(strchr(err.msg, '\n'));
        mech_dock_config_free(&c);
    }
    /* mech_dock_config_load compiles the chains and tries them at neutral: a geometry that reaches it unchecked
       (set here behind the parser's back) is refused with the file's name, the key and where to look */
    char dir[512];
    snprintf(dir, sizeof dir, "%s/mech/dock", fixtures());
    mech_dock_config c;
    hy_err err;
    const char *t = "{" DOCK "}";
    assert_int_equal(mech_dock_config_parse(t, strlen(t), "s.json", dir, &c, &err), HY_OK);
    assert_int_equal(mech_dock_config_load(&c, "s.json", &err), HY_OK);
    c.params.lateral.brake_rod[1] = 1.0;
    assert_int_equal(mech_dock_config_load(&c, "s.json", &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "s.json: lateral.brake_rod[1]: a coupler of 1 m cannot join"));
    assert_non_null(strstr(err.msg, "check the lateral section's spring_* and brake_* keys"));
    assert_null(strchr(err.msg, '\n'));
    mech_dock_config_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_follow_rp1),
        cmocka_unit_test(units_are_converted),
        cmocka_unit_test(paths_resolve_against_the_folder),
        cmocka_unit_test(errors_name_file_and_key),
        cmocka_unit_test(load_checks_family_kind_units),
        cmocka_unit_test(print_parse_round_trip),
        cmocka_unit_test(shipped_scenarios_are_rp1),
        cmocka_unit_test(lateral_geometry_defaults_and_keys),
        cmocka_unit_test(lateral_geometry_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

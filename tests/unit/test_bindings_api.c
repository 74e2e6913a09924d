// The small C functions added for the Python bindings (python/hystkit): hy_element_copy (every family),
// hy_pwlfit_model / hy_kinfit_model (the model file of `hyst fit`), mech_dock_config_new, mech_dock_sim_run,
// mech_dock_config_set_duration and mech_beam_step_n. References: the same drive through the original element, a
// fit's error pointing at the record's source line, stepping by hand, the run's own end time.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/fitmodel.h"
#include "hyst/pwl.h"
#include "mech/beam.h"
#include "mech/dock.h"

static const char *PWL =
    "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"pwl\", \"kind\": \"constant\",\n"
    " \"positive\": {\"forward\": [[0, 0], [0.25, 1], [1, 2.5], [2, 3], [3, 6], [4, 7], [5, 15]],\n"
    "  \"backward\": [[0, 0], [0.25, 1], [1, 1.375], [2, 1.75], [3, 3], [4, 3.5], [4.5, 7], [5, 15]],\n"
    "  \"k_beyond\": 16},\n"
    " \"negative\": {\"forward\": [[0, 0], [-0.25, -1], [-1, -2.5], [-2, -3], [-3, -6], [-4, -7], [-5, -15]],\n"
    "  \"backward\": [[0, 0], [-0.25, -1], [-1, -1.375], [-2, -1.75], [-3, -3], [-4, -3.5], [-4.5, -7], [-5, -15]],\n"
    "  \"k_beyond\": 16}}\n";
static const char *KIN =
    "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"kin\", \"units\": {\"q\": \"rad\", \"Q\": \"N*m\"},\n"
    " \"rule\": \"symmetric\",\n"
    " \"C\": [[650.9, -23.9], [1422.2, -4.1], [10.027, -2.0], [1.088, -0.35], [0.103, 143.2], [0.015, 419.8]],\n"
    " \"q_range\": [-0.52, 0.52]}\n";

#define N 400

// (model text, amplitude) => a copy made half-way follows the original exactly, then evolves on its own
static void copy_follows(const char *text, double amp)
{
    hy_model m;
    hy_element a, b;
    hy_err err;
    assert_int_equal(hy_model_parse(text, "m.json", &m, &err), HY_OK);
    assert_int_equal(hy_model_element(&m, &a, &err), HY_OK);
    double q[N], Qa[N], Qb[N];
    for (int i = 0; i < N; i++)
        q[i] = amp * sin(0.05 * i) * (1 + 0.002 * i) / 1.8;
    size_t done;
    hy_diag d;
    assert_int_equal(hy_element_drive(&a, 0, NULL, q, N / 2, Qa, NULL, &done, &d), HY_OK);
    assert_int_equal(hy_element_copy(&a, &b, &err), HY_OK);
    assert_ptr_not_equal(a.self, b.self);
    assert_int_equal(hy_element_state(&a), hy_element_state(&b));
    assert_int_equal(hy_element_drive(&a, q[N / 2 - 1], NULL, q + N / 2, N / 2, Qa, NULL, &done, &d), HY_OK);
    assert_int_equal(hy_element_drive(&b, q[N / 2 - 1], NULL, q + N / 2, N / 2, Qb, NULL, &done, &d), HY_OK);
    assert_memory_equal(Qa, Qb, sizeof(double) * (N / 2));
    /* independent: moving b does not move a */
    double Qt, k;
    assert_int_equal(hy_element_trial(&a, q[N - 1], 0, &Qt, &k, &d), HY_OK);
    hy_element_revert(&a);
    assert_int_equal(hy_element_drive(&b, q[N - 1], NULL, q, 50, Qb, NULL, &done, &d), HY_OK);
    double Qt2;
    assert_int_equal(hy_element_trial(&a, q[N - 1], 0, &Qt2, &k, &d), HY_OK);
    assert_true(Qt == Qt2);
    hy_element_free(&a);
    hy_element_free(&b);
    hy_model_free(&m);
}

static const char *BW =
    "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"bw\", \"k\": 200, \"alpha\": 0.1, \"A\": 1,\n"
    " \"beta\": 0.6, \"gamma\": 0.4, \"n\": 1}\n";
static const char *IWAN =
    "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"iwan\", \"k_inf\": 20,\n"
    " \"segalman\": {\"F_S\": 300, \"K_T\": 400, \"chi\": -0.5, \"beta\": 0.2, \"N\": 64}}\n";

static void test_copy_pwl(void **st) { (void)st; copy_follows(PWL, 6.0); }
static void test_copy_kin(void **st) { (void)st; copy_follows(KIN, 0.45); }
static void test_copy_bw(void **st) { (void)st; copy_follows(BW, 3.0); }        /* HY_EARG before hy_bw_element_copy */
static void test_copy_iwan(void **st) { (void)st; copy_follows(IWAN, 3.0); }    /* and hy_iwan_element_copy */
static const char *CLOUGH =
    "{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"clough\", \"k\": 100, \"F_y\": 40,\n"
    " \"alpha\": 0.05, \"kappa\": 0.4}\n";
static void test_copy_clough(void **st) { (void)st; copy_follows(CLOUGH, 3.0); } /* hy_clough_element_copy */

static void test_copy_refuses_a_foreign_element(void **st)
{
    (void)st;
    static const hy_element_ops other = {.family = "other"};
    int self = 0;
    hy_element e = {&other, &self}, out;
    hy_err err;
    assert_int_equal(hy_element_copy(&e, &out, &err), HY_EARG);
    assert_non_null(strstr(err.msg, "family 'other' cannot be copied"));
    assert_null(out.self);
    hy_element zero = {0};
    assert_int_equal(hy_element_copy(&zero, &out, &err), HY_EARG);
}

// a record the fit cannot use: the message names the source and the line of the bad sample
static void test_pwlfit_model_points_at_the_line(void **st)
{
    (void)st;
    enum { M = 60 };
    double q[M], Q[M];
    size_t line[M];
    for (int i = 0; i < M; i++) {
        q[i] = 5 * sin(0.3 * i);
        Q[i] = 3 * q[i];
        line[i] = (size_t)(10 + 2 * i);
    }
    Q[7] = NAN;
    hy_series s;
    hy_series_init(&s);
    s.n = M, s.q = q, s.Q = Q, s.line = line;
    snprintf(s.source, sizeof s.source, "rec.csv");
    hy_pwlfit_opts o;
    hy_pwlfit_opts_default(&o);
    hy_model m;
    hy_err err;
    int rc = hy_pwlfit_model(&s, &o, NULL, &m, &err);
    assert_int_not_equal(rc, HY_OK);
    assert_int_equal(err.code, rc);
    assert_int_equal(strncmp(err.msg, "rec.csv:24: ", 12), 0);    /* sample 8 (1-based) is on line 10 + 2 * 7 */
    assert_int_equal(m.type, HY_MODEL_NONE);
    s.line = NULL;                                                  /* without lines: the source only */
    assert_int_not_equal(hy_pwlfit_model(&s, &o, NULL, &m, &err), HY_OK);
    assert_int_equal(strncmp(err.msg, "rec.csv: ", 9), 0);
}

// a fit of a record the table itself made: the model carries the extras the program writes
static void test_pwlfit_model_extras(void **st)
{
    (void)st;
    hy_model truth, m;
    hy_element e;
    hy_err err;
    assert_int_equal(hy_model_parse(PWL, "t.json", &truth, &err), HY_OK);
    assert_int_equal(hy_model_element(&truth, &e, &err), HY_OK);
    enum { M = 3000 };
    double *q = malloc(M * sizeof *q), *Q = malloc(M * sizeof *Q);
    for (int i = 0; i < M; i++)
        q[i] = 6 * sin(2 * M_PI * i / 500.0);
    size_t done;
    hy_diag d;
    assert_int_equal(hy_element_drive(&e, 0, NULL, q, M, Q, NULL, &done, &d), HY_OK);
    hy_series s;
    hy_series_init(&s);
    s.n = M, s.q = q, s.Q = Q;
    snprintf(s.source, sizeof s.source, "made.csv");
    snprintf(s.q_unit, sizeof s.q_unit, "mm");
    hy_pwlfit_opts o;
    hy_pwlfit_opts_default(&o);
    hy_pwlfit_result *r = calloc(1, sizeof *r);
    assert_int_equal(hy_pwlfit_model(&s, &o, r, &m, &err), HY_OK);
    assert_int_equal(m.type, HY_MODEL_PWL);
    assert_string_equal(m.unit_q, "mm");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(m.extra, "source")), "made.csv");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(m.extra, "name")), "fitted by hyst fit pwl");
    cJSON *fit = cJSON_GetObjectItem(m.extra, "fit");
    assert_non_null(fit);
    /* the replay in the report: the fitted table reproduces the noise-free record */
    assert_true(cJSON_GetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(fit, "replay"), "nrmse")) < 1e-3);
    assert_true(r->replayed);
    hy_pwlfit_result_free(r);
    free(r);
    hy_model_free(&m);
    hy_element_free(&e);
    hy_model_free(&truth);
    free(q);
    free(Q);
}

static void test_kinfit_model_error_names_source(void **st)
{
    (void)st;
    double q[10] = {0}, Q[10] = {0};
    hy_series s;
    hy_series_init(&s);
    s.n = 10, s.q = q, s.Q = Q;
    snprintf(s.source, sizeof s.source, "flat.csv");
    hy_kinfit_opts o;
    hy_kinfit_opts_default(&o);
    hy_model m;
    hy_err err;
    assert_int_equal(hy_kinfit_model(&s, &o, NULL, &m, &err), HY_EDATA);
    assert_int_equal(strncmp(err.msg, "flat.csv: ", 10), 0);
    assert_int_equal(m.type, HY_MODEL_NONE);
}

// (scenario) => text of S1-A shortened to 1 s (more than 40 error-controlled steps), laws as absolute paths, or NULL
static char *short_s1(void)
{
    const char *fx = getenv("FIXTURES");
    char path[1024];
    snprintf(path, sizeof path, "%s/mech/dock/s1-A.json", fx && *fx ? fx : "fixtures");
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    cJSON *doc = cJSON_Parse(buf);
    cJSON_ReplaceItemInObject(doc, "duration", cJSON_CreateNumber(1.0));
    cJSON_DeleteItemFromObject(doc, "outputs");
    char *text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    return text;
}

static void test_dock_run_equals_stepping(void **st)
{
    (void)st;
    char *text = short_s1(), dir[1024];
    assert_non_null(text);
    const char *fx = getenv("FIXTURES");
    snprintf(dir, sizeof dir, "%s/mech/dock", fx && *fx ? fx : "fixtures");
    mech_dock_config *c;
    hy_err err;
    assert_int_equal(mech_dock_config_new(text, strlen(text), "s1.json", dir, &c, &err), HY_OK);
    assert_ptr_equal(mech_dock_config_params(c), &c->params);
    mech_dock_model *m;
    assert_int_equal(mech_dock_model_new(mech_dock_config_params(c), &m, &err), HY_OK);
    mech_dock_sim *a, *b;
    assert_int_equal(mech_dock_sim_new(m, &a, &err), HY_OK);
    assert_int_equal(mech_dock_sim_new(m, &b, &err), HY_OK);
    enum { S = 40 };
    double *hist = malloc(sizeof(double) * S * MECH_DOCK_NCH), *rec = malloc(sizeof(double) * S * MECH_DOCK_NEL * 2);
    size_t done;
    assert_int_equal(mech_dock_sim_run(b, S, hist, rec, &done, &err), HY_OK);
    assert_int_equal(done, S);
    for (int i = 0; i < S; i++) {
        assert_int_equal(mech_dock_sim_step(a, &err), HY_OK);
        assert_memory_equal(mech_dock_sim_channels(a), hist + (size_t)i * MECH_DOCK_NCH,
                            sizeof(double) * MECH_DOCK_NCH);
        for (int e = 0; e < MECH_DOCK_NEL; e++) {
            double q, Q, w;
            int state;
            mech_dock_sim_element(a, e, &q, &Q, &state, &w);
            assert_true(q == rec[((size_t)i * MECH_DOCK_NEL + (size_t)e) * 2]);
            assert_true(Q == rec[((size_t)i * MECH_DOCK_NEL + (size_t)e) * 2 + 1]);
        }
    }
    assert_int_equal(mech_dock_sim_run(b, 3, NULL, NULL, &done, &err), HY_OK);   /* no arrays: just steps */
    assert_int_equal(mech_dock_sim_steps(b), S + 3);
    free(hist);
    free(rec);
    mech_dock_sim_free(a);
    mech_dock_sim_free(b);
    mech_dock_model_free(m);
    mech_dock_config_delete(c);
    /* a bad configuration: the key named, nothing to free */
    assert_int_equal(mech_dock_config_new("{\"format\": \"mech-dock\", \"version\": 1, \"step\": -1}", 49, "x.json",
                                          NULL, &c, &err),
                     HY_EPARSE);
    assert_null(c);
    assert_non_null(strstr(err.msg, "x.json: step"));
    mech_dock_config_delete(NULL);
    cJSON_free(text);
}

/* mech_dock_config_set_duration, as `mech dock --duration` uses it: S1-A as shipped (outputs.view_times up to 5 s)
 * set to 0.5 s runs to exactly 0.5 s; a negative duration and more than 1e8 steps are refused, naming both */
static void test_dock_set_duration(void **st)
{
    (void)st;
    const char *fx = getenv("FIXTURES");
    char path[1024];
    snprintf(path, sizeof path, "%s/mech/dock/s1-A.json", fx && *fx ? fx : "fixtures");
    mech_dock_config c;
    hy_err err;
    assert_int_equal(mech_dock_config_read(path, &c, &err), HY_OK);
    assert_true(c.nview > 0 && c.view_times[c.nview - 1] > 0.5);
    assert_int_equal(mech_dock_config_set_duration(&c, -1, &err), HY_EARG);
    assert_non_null(strstr(err.msg, "duration -1 s / step"));
    assert_int_equal(mech_dock_config_set_duration(&c, 1e9 * c.params.h, &err), HY_EARG);
    assert_non_null(strstr(err.msg, "1e8 steps"));
    assert_int_equal(mech_dock_config_set_duration(&c, 0.5, &err), HY_OK);
    mech_dock_model *m;
    mech_dock_sim *s;
    assert_int_equal(mech_dock_model_new(&c.params, &m, &err), HY_OK);
    assert_int_equal(mech_dock_sim_new(m, &s, &err), HY_OK);
    size_t done;
    assert_int_equal(mech_dock_sim_run(s, 1000000, NULL, NULL, &done, &err), HY_OK);
    assert_true(mech_dock_sim_done(s) && mech_dock_sim_time(s) == 0.5 && done < 1000000);
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
    mech_dock_config_free(&c);
}

// mech_beam_step_n: n steps in one call equal n calls of mech_beam_step, bit for bit; n = 0 takes none
static void test_beam_step_n(void **st)
{
    (void)st;
    mech_beam_params p;
    mech_beam_params_default(&p);
    p.hinge[0].clearance = 0.0005;
    mech_beam_solver s;
    mech_beam_solver_default(&s);
    s.duration = 0.05;
    s.update = MECH_BEAM_ITERATED;
    mech_beam_load l;
    mech_beam_load_default(&l);
    hy_err err;
    mech_beam_model *m;
    mech_beam_data *a, *b;
    assert_int_equal(mech_beam_model_new(&p, &m, &err), HY_OK);
    assert_int_equal(mech_beam_data_new(m, &s, &l, NULL, NULL, NULL, &a, &err), HY_OK);
    assert_int_equal(mech_beam_data_new(m, &s, &l, NULL, NULL, NULL, &b, &err), HY_OK);
    long done = -1;
    assert_int_equal(mech_beam_step_n(a, 0, &done, &err), HY_OK);
    assert_int_equal(done, 0);
    assert_int_equal(mech_beam_step_n(a, 300, &done, &err), HY_OK);
    assert_int_equal(done, 300);
    for (int i = 0; i < 300; i++)
        assert_int_equal(mech_beam_step(b, &err), HY_OK);
    assert_int_equal(mech_beam_steps(a), 300);
    const double *ra, *rb;
    size_t na, nb;
    const double *xa = mech_beam_state(a, &ra, &na), *xb = mech_beam_state(b, &rb, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(xa, xb, sizeof(double) * (na + 1));
    assert_memory_equal(ra, rb, sizeof(double) * (na + 1));
    mech_beam_data_free(a);
    mech_beam_data_free(b);
    mech_beam_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copy_pwl),
        cmocka_unit_test(test_copy_kin),
        cmocka_unit_test(test_copy_bw),
        cmocka_unit_test(test_copy_iwan),
        cmocka_unit_test(test_copy_clough),
        cmocka_unit_test(test_copy_refuses_a_foreign_element),
        cmocka_unit_test(test_pwlfit_model_points_at_the_line),
        cmocka_unit_test(test_pwlfit_model_extras),
        cmocka_unit_test(test_kinfit_model_error_names_source),
        cmocka_unit_test(test_dock_run_equals_stepping),
        cmocka_unit_test(test_dock_set_duration),
        cmocka_unit_test(test_beam_step_n),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

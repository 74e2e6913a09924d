/* Fuzz harness: hyst-model files, hy_model_read with the pwl, kin, bw and iwan readers (libhyst/src/modelfile.c,
 * pwl_json.c, kin_json.c, bw_json.c, iwan_json.c and their models), read through a memfd.
 * Invariants: the status is a known code; an error has a one-line message and leaves the model empty; a model
 * read is printed (hy_model_print), and that text reads back to a model that prints to the same text (the round
 * trip is exact); the model's element, driven through a few cycles of a triangle over its range, never crashes,
 * stops with a known code and gives finite forces for the samples it computed. */
#include <math.h>
#include "fuzz_util.h"
#include "hyst/bw.h"
#include "hyst/clough.h"
#include "hyst/iwan.h"
#include "hyst/kin.h"
#include "hyst/model.h"
#include "hyst/pwl.h"

#define NS 48

// (model) => a displacement a little beyond the range the model describes (0 when it has none)
static double model_reach(const hy_model *m)
{
    double r = 0.0;
    if (m->type == HY_MODEL_PWL) {
        hy_pwl_table t;
        hy_pwl_model_table(m->pwl, &t);
        const hy_pwl_points *pts[4] = {&t.positive.forward, &t.positive.backward, &t.negative.forward,
                                       &t.negative.backward};
        for (int k = 0; k < 4; k++)
            for (size_t i = 0; i < pts[k]->n; i++)
                r = fmax(r, fabs(pts[k]->q[i]));
        r *= 1.2;
    } else if (m->type == HY_MODEL_KIN) {
        const hy_kin_spec *s = hy_kin_model_spec(m->kin);
        r = fmin(fabs(s->q_min), fabs(s->q_max)) * 0.9;
    } else if (m->type == HY_MODEL_BW) {
        r = 3.0 * hy_bw_z_ultimate(m->bw) / hy_bw_model_params(m->bw)->A; /* well onto the plateau */
    } else if (m->type == HY_MODEL_IWAN) {
        for (int i = 0; i < hy_iwan_model_n(m->iwan); i++)
            r = fmax(r, 1.5 * hy_iwan_model_f(m->iwan)[i] / hy_iwan_model_k(m->iwan)[i]);
    } else if (m->type == HY_MODEL_CLOUGH) {
        r = 3.0 * hy_clough_model_params(m->clough)->F_y / hy_clough_model_params(m->clough)->k; /* onto the backbone */
    }
    return isfinite(r) ? r : 0.0;
}

static void drive(const hy_model *m)
{
    hy_element e = {0};
    hy_err err;
    fuzz_err_poison(&err);
    int rc = hy_model_element(m, &e, &err);
    FUZZ_CHECK(rc >= HY_OK && rc <= HY_ENOMEM, "unknown status %d", rc);
    if (rc != HY_OK) {
        fuzz_check_message(&err);
        return;
    }
    double A = model_reach(m), q[NS], Q[NS];
    int states[NS];
    for (int i = 0; i < NS; i++) {
        double ph = (double)(i + 1) / 16.0; /* three triangle cycles 0 -> A -> 0 -> -A -> 0 */
        double f = ph - floor(ph);
        q[i] = A * (f < 0.25 ? 4 * f : f < 0.75 ? 2 - 4 * f : 4 * f - 4);
    }
    size_t done = 0;
    hy_diag diag;
    memset(&diag, 0, sizeof diag);
    rc = hy_element_drive(&e, 0.0, NULL, q, NS, Q, states, &done, &diag);
    FUZZ_CHECK(rc >= HY_OK && rc <= HY_ENOMEM, "unknown status %d", rc);
    FUZZ_CHECK(done <= NS && (rc != HY_OK || done == NS), "done %zu with status %d", done, rc);
    for (size_t i = 0; i < done; i++)
        FUZZ_CHECK(isfinite(Q[i]), "Q[%zu] = %g at q = %g", i, Q[i], q[i]);
    if (rc != HY_OK) {
        char what[400];
        hy_diag_format(&diag, what, sizeof what);
        for (const char *c = what; *c; c++)
            FUZZ_CHECK((unsigned char)*c >= 0x20, "control byte in a diagnostic: %s", what);
    }
    hy_element_free(&e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_memfile(data, size, path, sizeof path);
    hy_model m;
    memset(&m, 0, sizeof m);
    hy_err err;
    fuzz_err_poison(&err);
    int rc = hy_model_read(path, &m, &err);
    close(fd);
    FUZZ_CHECK(rc >= HY_OK && rc <= HY_ENOMEM, "unknown status %d", rc);
    if (rc != HY_OK) {
        fuzz_check_message(&err);
        FUZZ_CHECK(m.type == HY_MODEL_NONE && !m.pwl && !m.kin && !m.bw && !m.iwan && !m.clough && !m.extra, "error but the model is not empty");
        hy_model_free(&m);
        return 0;
    }
    FUZZ_CHECK((m.type == HY_MODEL_PWL && m.pwl) || (m.type == HY_MODEL_KIN && m.kin) ||
               (m.type == HY_MODEL_BW && m.bw) || (m.type == HY_MODEL_IWAN && m.iwan) ||
               (m.type == HY_MODEL_CLOUGH && m.clough), "type %d without its model",
               m.type);

    char *text = hy_model_print(&m, &err);
    FUZZ_CHECK(text != NULL, "a model read cannot be printed: %s", err.msg);
    hy_model m2;
    memset(&m2, 0, sizeof m2);
    rc = hy_model_parse(text, "printed", &m2, &err);
    FUZZ_CHECK(rc == HY_OK, "the printed model does not read back: %s\n%s", err.msg, text);
    char *text2 = hy_model_print(&m2, &err);
    FUZZ_CHECK(text2 != NULL, "the model read back cannot be printed: %s", err.msg);
    FUZZ_CHECK(strcmp(text, text2) == 0, "print / read / print differs:\n%s\n----\n%s", text, text2);
    FUZZ_CHECK(m2.type == m.type && strcmp(m.unit_q, m2.unit_q) == 0 && strcmp(m.unit_Q, m2.unit_Q) == 0,
               "type or units differ after the round trip");
    free(text);
    free(text2);
    hy_model_free(&m2);

    drive(&m);
    hy_model_free(&m);
    return 0;
}

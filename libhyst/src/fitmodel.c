// Fitted models as model files hold them (hyst/fitmodel.h): one copy for `hyst fit pwl|kin` and the bindings.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/fitmodel.h"
#include "hyst/bw.h"
#include "hyst/clough.h"
#include "hyst/iwan.h"
#include "hyst/kin.h"
#include "hyst/pwl.h"

// (report, record) => each limit loop's start/peak/end rows also as source lines of the record
static void add_lines(cJSON *report, const hy_series *s)
{
    cJSON *sides = cJSON_GetObjectItem(report, "sides"), *side;
    cJSON_ArrayForEach(side, sides)
    {
        cJSON *lp, *loops = cJSON_GetObjectItem(cJSON_GetObjectItem(side, "limit_loop"), "loops");
        cJSON_ArrayForEach(lp, loops)
        {
            static const char *const row[3] = {"start_row", "peak_row", "end_row"};
            static const char *const line[3] = {"start_line", "peak_line", "end_line"};
            for (int k = 0; k < 3; k++) {
                double v = cJSON_GetNumberValue(cJSON_GetObjectItem(lp, row[k]));
                if (s->line && v >= 1 && v <= (double)s->n)
                    cJSON_AddNumberToObject(lp, line[k], (double)s->line[(size_t)v - 1]);
            }
        }
    }
}

int hy_pwlfit_model(const hy_series *s, const hy_pwlfit_opts *o, hy_pwlfit_result *r, hy_model *m, hy_err *err)
{
    memset(m, 0, sizeof *m);
    hy_pwlfit_result *own = NULL;
    if (!r && !(r = own = calloc(1, sizeof *r)))
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", s->source);
    memset(r, 0, sizeof *r);
    hy_err e;
    int rc = hy_pwlfit_run(s->q, s->Q, s->t, s->n, o, r, &e);
    /* a record the fit took but no model can be identified from (constant force, no closed loop) is refused;
       the fit's own errors (too few samples, ...) come first */
    if (rc == HY_OK && (rc = hy_record_check(s->q, s->Q, s->n, &o->loops, 1, &e)) != HY_OK)
        hy_pwlfit_result_free(r);
    if (rc != HY_OK) {
        /* a sample the fit cannot use: point at its line */
        size_t k = 0;
        if (s->line && sscanf(e.msg, "sample %zu:", &k) == 1 && k >= 1 && k <= s->n)
            hy_err_set(err, rc, "%s:%zu: %s", s->source, s->line[k - 1], strchr(e.msg, ':') + 2);
        else
            hy_err_set(err, rc, "%s: %s", s->source, e.msg);
        free(own);
        return rc;
    }
    cJSON *report = hy_pwlfit_report_json(r, o, s->source);
    if (report)
        add_lines(report, s);
    m->type = HY_MODEL_PWL;
    snprintf(m->unit_q, sizeof m->unit_q, "%s", s->q_unit);
    snprintf(m->unit_Q, sizeof m->unit_Q, "%s", s->Q_unit);
    m->extra = cJSON_CreateObject();
    if (!report || !m->extra) {
        rc = hy_err_set(err, HY_ENOMEM, "out of memory");
    } else {
        cJSON_AddStringToObject(m->extra, "name", "fitted by hyst fit pwl");
        cJSON_AddStringToObject(m->extra, "source", s->source);
        cJSON_AddItemToObject(m->extra, "fit", report);
        report = NULL;
        if ((rc = hy_pwl_model_new(&r->table, "fitted table", &m->pwl, &e)) != HY_OK)
            hy_err_set(err, rc, "%s: %s", s->source, e.msg);
    }
    cJSON_Delete(report);
    if (rc != HY_OK)
        hy_model_free(m);
    if (own || rc != HY_OK)
        hy_pwlfit_result_free(r);
    free(own);
    return rc;
}

int hy_kinfit_model(const hy_series *s, const hy_kinfit_opts *o, hy_kinfit_result *r, hy_model *m, hy_err *err)
{
    memset(m, 0, sizeof *m);
    hy_kinfit_result *own = NULL;
    if (!r && !(r = own = calloc(1, sizeof *r)))
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", s->source);
    hy_err e;
    cJSON *rep = NULL;
    int rc = hy_kinfit_run(s->q, s->Q, s->n, o, r, &e);
    /* refused after the fit's own errors, as for pwl */
    if (rc == HY_OK)
        rc = hy_record_check(s->q, s->Q, s->n, &o->loops, 1, &e);
    if (rc != HY_OK) {
        hy_err_set(err, rc, "%s: %s", s->source, e.msg);
        goto done;
    }
    m->type = HY_MODEL_KIN;
    snprintf(m->unit_q, sizeof m->unit_q, "%s", s->q_unit);
    snprintf(m->unit_Q, sizeof m->unit_Q, "%s", s->Q_unit);
    if ((rc = hy_kin_model_new(&r->spec, &m->kin, &e)) != HY_OK) {
        hy_err_set(err, rc, "%s: the identified coefficients are not a valid model: %s", s->source, e.msg);
        goto done;
    }
    rep = hy_kinfit_report(r, o, s->source);
    m->extra = cJSON_CreateObject();
    if (!rep || !m->extra) {
        rc = hy_err_set(err, HY_ENOMEM, "out of memory");
        goto done;
    }
    cJSON_AddItemToObject(m->extra, "fit", rep);
    rep = NULL;
done:
    cJSON_Delete(rep);
    if (rc != HY_OK)
        hy_model_free(m);
    free(own);
    return rc;
}

int hy_element_copy(const hy_element *src, hy_element *dst, hy_err *err)
{
    dst->ops = NULL;
    dst->self = NULL;
    if (!src || !src->ops || !src->self)
        return hy_err_set(err, HY_EARG, "element copy: no element given");
    int rc;
    if (strcmp(src->ops->family, "pwl") == 0) {
        const hy_pwl_data *d = src->self;
        if ((rc = hy_pwl_element_new(d->model, dst, err)) == HY_OK)
            memcpy(dst->self, d, sizeof *d);
    } else if (strcmp(src->ops->family, "kin") == 0) {
        const hy_kin_state *st = src->self;
        if ((rc = hy_kin_element_new(st->model, dst, err)) == HY_OK)
            memcpy(dst->self, st, sizeof *st);
    } else if (strcmp(src->ops->family, "bw") == 0) {
        rc = hy_bw_element_copy(src, dst, err);
    } else if (strcmp(src->ops->family, "iwan") == 0) {
        rc = hy_iwan_element_copy(src, dst, err);
    } else if (strcmp(src->ops->family, "clough") == 0) {
        rc = hy_clough_element_copy(src, dst, err);
    } else {
        rc = hy_err_set(err, HY_EARG, "element copy: family '%s' cannot be copied", src->ops->family);
    }
    return rc;
}

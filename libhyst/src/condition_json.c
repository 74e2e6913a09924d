/* Provenance of a conditioned record (hyst/condition.h, docs/formats.md "Provenance", issue 46 item 2): the
 * conditioning report (rows trimmed, offsets removed, rest tolerance) as a JSON object stored in a fitted model's
 * file under "provenance": {"conditioning": ...}, its reading back, and the one line every front end prints. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/condition.h"
#include "hyst/model.h"

#define KEY "provenance.conditioning"

// (options, report) => one line describing what was done
void hy_condition_describe(const hy_condition_opts *o, const hy_condition_report *r, char *buf, size_t len)
{
    char off[160] = "";
    if (o->offset_q && o->offset_Q)
        snprintf(off, sizeof off, "; offsets at rest removed: q %.6g, Q %.6g", r->q_offset, r->Q_offset);
    else if (o->offset_q)
        snprintf(off, sizeof off, "; offset at rest removed: q %.6g", r->q_offset);
    else if (o->offset_Q)
        snprintf(off, sizeof off, "; offset at rest removed: Q %.6g", r->Q_offset);
    snprintf(buf, len, "conditioned: %zu of %zu rows kept (%zu at rest trimmed at the start, %zu at the end; rest "
             "tolerance %.4g)%s", r->n_out, r->n_in, r->trimmed_start, r->trimmed_end, r->rest_tol, off);
}

// (options, report) => JSON object
cJSON *hy_condition_to_json(const hy_condition_opts *o, const hy_condition_report *r)
{
    cJSON *j = cJSON_CreateObject();
    const char *w = o->offset_q && o->offset_Q ? "q,Q" : o->offset_q ? "q" : o->offset_Q ? "Q" : NULL;
    int ok = j && cJSON_AddBoolToObject(j, "trim_rest", o->trim_rest) &&
             (w ? cJSON_AddStringToObject(j, "remove_offset", w) != NULL
                : cJSON_AddNullToObject(j, "remove_offset") != NULL) &&
             hy_json_add_exact(j, "rest_tol", r->rest_tol) && hy_json_add_exact(j, "rows_in", (double)r->n_in) &&
             hy_json_add_exact(j, "rows_kept", (double)r->n_out) &&
             hy_json_add_exact(j, "trimmed_start", (double)r->trimmed_start) &&
             hy_json_add_exact(j, "trimmed_end", (double)r->trimmed_end) &&
             hy_json_add_exact(j, "rest_rows", (double)r->rest_rows) &&
             hy_json_add_exact(j, "q_offset", r->q_offset) && hy_json_add_exact(j, "Q_offset", r->Q_offset);
    if (!ok) {
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}

// (object, key, name) => a finite number, or HY_EPARSE naming the key
static int get_num(const cJSON *j, const char *key, const char *name, double *v, hy_err *err)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(j, key);
    if (!it)
        return hy_err_set(err, HY_EPARSE, "%s: " KEY ".%s: missing", name, key);
    if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
        return hy_err_set(err, HY_EPARSE, "%s: " KEY ".%s: expected a finite number", name, key);
    *v = it->valuedouble;
    return HY_OK;
}

// (object, key, name) => a row count (an integer >= 0), or HY_EPARSE naming the key
static int get_count(const cJSON *j, const char *key, const char *name, size_t *v, hy_err *err)
{
    double d = NAN;   /* (GCC -O3 cannot see that get_num sets it whenever it returns HY_OK) */
    int rc = get_num(j, key, name, &d, err);
    if (rc != HY_OK)
        return rc;
    if (!(d >= 0 && d == floor(d) && d < 9007199254740992.0))
        return hy_err_set(err, HY_EPARSE, "%s: " KEY ".%s: expected a row count (an integer >= 0), got %.17g", name,
                          key, d);
    *v = (size_t)d;
    return HY_OK;
}

// (object, name) => options and report
int hy_condition_from_json(const cJSON *j, const char *name, hy_condition_opts *o, hy_condition_report *r,
                           hy_err *err)
{
    hy_condition_opts_default(o);
    memset(r, 0, sizeof *r);
    if (!cJSON_IsObject(j))
        return hy_err_set(err, HY_EPARSE, "%s: " KEY ": expected an object", name);
    const cJSON *tr = cJSON_GetObjectItemCaseSensitive(j, "trim_rest");
    if (!cJSON_IsBool(tr))
        return hy_err_set(err, HY_EPARSE, "%s: " KEY ".trim_rest: %s", name, tr ? "expected true or false" : "missing");
    o->trim_rest = cJSON_IsTrue(tr);
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(j, "remove_offset");
    if (cJSON_IsString(w) && (!strcmp(w->valuestring, "q") || !strcmp(w->valuestring, "Q") ||
                              !strcmp(w->valuestring, "q,Q"))) {
        o->offset_q = strchr(w->valuestring, 'q') != NULL;
        o->offset_Q = strchr(w->valuestring, 'Q') != NULL;
    } else if (!cJSON_IsNull(w)) {
        return hy_err_set(err, HY_EPARSE, "%s: " KEY ".remove_offset: %s", name,
                          w ? "expected \"q\", \"Q\", \"q,Q\" or null" : "missing");
    }
    int rc;
    if ((rc = get_num(j, "rest_tol", name, &r->rest_tol, err)) || (rc = get_count(j, "rows_in", name, &r->n_in, err)) ||
        (rc = get_count(j, "rows_kept", name, &r->n_out, err)) ||
        (rc = get_count(j, "trimmed_start", name, &r->trimmed_start, err)) ||
        (rc = get_count(j, "trimmed_end", name, &r->trimmed_end, err)) ||
        (rc = get_count(j, "rest_rows", name, &r->rest_rows, err)) ||
        (rc = get_num(j, "q_offset", name, &r->q_offset, err)) || (rc = get_num(j, "Q_offset", name, &r->Q_offset, err)))
        return rc;
    if (!(r->rest_tol >= 0))
        return hy_err_set(err, HY_EPARSE, "%s: " KEY ".rest_tol: expected a number >= 0, got %.17g", name, r->rest_tol);
    if (r->n_out > r->n_in || r->trimmed_start + r->trimmed_end + r->n_out != r->n_in)
        return hy_err_set(err, HY_EPARSE, "%s: " KEY ": rows_kept %zu + trimmed_start %zu + trimmed_end %zu is not "
                          "rows_in %zu", name, r->n_out, r->trimmed_start, r->trimmed_end, r->n_in);
    o->rest_tol = r->rest_tol;
    return HY_OK;
}

// (model, options, report) => extra.provenance.conditioning set
int hy_model_set_conditioning(hy_model *m, const hy_condition_opts *o, const hy_condition_report *r, hy_err *err)
{
    if (!m->extra && !(m->extra = cJSON_CreateObject()))
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    cJSON *p = cJSON_GetObjectItemCaseSensitive(m->extra, "provenance");
    if (p && !cJSON_IsObject(p)) {
        cJSON_DeleteItemFromObjectCaseSensitive(m->extra, "provenance");
        p = NULL;
    }
    if (!p && !(p = cJSON_AddObjectToObject(m->extra, "provenance")))
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    cJSON *c = hy_condition_to_json(o, r);
    if (!c)
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    cJSON_DeleteItemFromObjectCaseSensitive(p, "conditioning");
    if (!cJSON_AddItemToObject(p, "conditioning", c)) {
        cJSON_Delete(c);
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    }
    return HY_OK;
}

// (model, name) => the conditioning provenance, when the file has one
int hy_model_conditioning(const hy_model *m, const char *name, int *present, hy_condition_opts *o,
                          hy_condition_report *r, hy_err *err)
{
    *present = 0;
    const cJSON *p = m->extra ? cJSON_GetObjectItemCaseSensitive(m->extra, "provenance") : NULL;
    if (!p)
        return HY_OK;
    if (!cJSON_IsObject(p))
        return hy_err_set(err, HY_EPARSE, "%s: provenance: expected an object", name);
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(p, "conditioning");
    if (!c)
        return HY_OK;
    int rc = hy_condition_from_json(c, name, o, r, err);
    if (rc == HY_OK)
        *present = 1;
    return rc;
}

// Model files of the "hyst-model" format family (see hyst/model.h and docs/formats.md).
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>
#include "hyst/model.h"
#include "hyst/util.h"

static const char *const common_keys[] = {"format", "version", "model", "units", NULL};

static int key_in(const char *key, const char *const *list)
{
    for (; list && *list; list++)
        if (strcmp(key, *list) == 0)
            return 1;
    return 0;
}

// (unit object member) => copied into dst when it is a string
static int read_unit(const cJSON *units, const char *key, char *dst, size_t len, const char *name, hy_err *err)
{
    const cJSON *u = cJSON_GetObjectItemCaseSensitive(units, key);
    if (!u)
        return HY_OK;
    if (!cJSON_IsString(u))
        return hy_err_set(err, HY_EPARSE, "%s: units.%s: expected a string", name, key);
    hy_msg_text(dst, len, u->valuestring, strlen(u->valuestring), SIZE_MAX); /* printed in reports and labels */
    return HY_OK;
}

// (JSON text, name for messages) => model parsed and validated
int hy_model_parse(const char *text, const char *name, hy_model *m, hy_err *err)
{
    memset(m, 0, sizeof *m);
    cJSON *doc; /* strict: only blank space after the object, no key twice */
    int rc0 = hy_json_parse_strict(text, strlen(text), name, "a hyst-model object", &doc, err);
    if (rc0 != HY_OK)
        return rc0;
    int rc = HY_OK;
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(doc, "format");
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(doc, "version");
    const cJSON *mod = cJSON_GetObjectItemCaseSensitive(doc, "model");
    const cJSON *units = cJSON_GetObjectItemCaseSensitive(doc, "units");
    if (!cJSON_IsObject(doc)) {
        rc = hy_err_set(err, HY_EPARSE, "%s: expected a JSON object at the top level", name);
    } else if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "hyst-model") != 0) {
        rc = hy_err_set(err, HY_EPARSE, "%s: \"format\": expected \"hyst-model\"", name);
    } else if (!cJSON_IsNumber(ver) || ver->valuedouble != 1.0) {
        rc = hy_err_set(err, HY_EPARSE, "%s: \"version\": expected 1 (this hyst reads version 1 model files)", name);
    } else if (!cJSON_IsString(mod)) {
        rc = hy_err_set(err, HY_EPARSE, "%s: \"model\": expected \"pwl\", \"kin\", \"bw\", \"iwan\" or \"clough\"", name);
    } else if (units && !cJSON_IsObject(units)) {
        rc = hy_err_set(err, HY_EPARSE, "%s: \"units\": expected an object like {\"q\": \"mm\", \"Q\": \"N\"}", name);
    }
    if (rc == HY_OK && units) {
        rc = read_unit(units, "q", m->unit_q, sizeof m->unit_q, name, err);
        if (rc == HY_OK)
            rc = read_unit(units, "Q", m->unit_Q, sizeof m->unit_Q, name, err);
    }
    const char *const *own = NULL;
    if (rc == HY_OK) {
        if (strcmp(mod->valuestring, "pwl") == 0) {
            m->type = HY_MODEL_PWL;
            own = hy_pwl_json_keys;
            rc = hy_pwl_from_json(doc, name, &m->pwl, err);
        } else if (strcmp(mod->valuestring, "kin") == 0) {
            m->type = HY_MODEL_KIN;
            own = hy_kin_json_keys;
            rc = hy_kin_from_json(doc, name, &m->kin, err);
        } else if (strcmp(mod->valuestring, "bw") == 0) {
            m->type = HY_MODEL_BW;
            own = hy_bw_json_keys;
            rc = hy_bw_from_json(doc, name, &m->bw, err);
        } else if (strcmp(mod->valuestring, "iwan") == 0) {
            m->type = HY_MODEL_IWAN;
            own = hy_iwan_json_keys;
            rc = hy_iwan_from_json(doc, name, &m->iwan, err);
        } else if (strcmp(mod->valuestring, "clough") == 0) {
            m->type = HY_MODEL_CLOUGH;
            own = hy_clough_json_keys;
            rc = hy_clough_from_json(doc, name, &m->clough, err);
        } else {
            rc = hy_err_set(err, HY_EPARSE, "%s: \"model\": unknown model \"%s\" (expected \"pwl\", \"kin\", \"bw\", \"iwan\" or \"clough\")", name,
                            mod->valuestring);
        }
    }
    if (rc == HY_OK) {
        /* Keep every key that neither this file nor the family reads, in document order. */
        m->extra = cJSON_CreateObject();
        for (const cJSON *it = doc->child; it && m->extra; it = it->next) {
            if (key_in(it->string, common_keys) || key_in(it->string, own))
                continue;
            cJSON *dup = cJSON_Duplicate(it, 1);
            if (!dup || !cJSON_AddItemToObject(m->extra, it->string, dup)) {
                cJSON_Delete(dup);
                cJSON_Delete(m->extra);
                m->extra = NULL;
            }
        }
        if (!m->extra)
            rc = hy_err_set(err, HY_ENOMEM, "%s: out of memory", name);
    }
    cJSON_Delete(doc);
    if (rc != HY_OK)
        hy_model_free(m);
    return rc;
}

// (path or "-") => model parsed and validated
int hy_model_read(const char *path, hy_model *m, hy_err *err)
{
    memset(m, 0, sizeof *m);
    char *text;
    size_t len;
    int rc0 = hy_read_text(path, "a model file (hyst-model JSON)", 0, &text, &len, err);
    if (rc0 != HY_OK)
        return rc0;
    int rc = hy_model_parse(text, hy_display_name(path), m, err);
    free(text);
    return rc;
}

// (model) => JSON text (malloc'd)
char *hy_model_print(const hy_model *m, hy_err *err)
{
    cJSON *doc = cJSON_CreateObject();
    if (!doc) {
        hy_err_set(err, HY_ENOMEM, "out of memory");
        return NULL;
    }
    cJSON *units = NULL;
    int rc = HY_OK;
    if (!cJSON_AddStringToObject(doc, "format", "hyst-model") || !cJSON_AddNumberToObject(doc, "version", 1) ||
        !cJSON_AddStringToObject(doc, "model", hy_model_family(m)) ||
        !(units = cJSON_AddObjectToObject(doc, "units")) || !cJSON_AddStringToObject(units, "q", m->unit_q) ||
        !cJSON_AddStringToObject(units, "Q", m->unit_Q))
        rc = hy_err_set(err, HY_ENOMEM, "out of memory");
    else if (m->type == HY_MODEL_PWL)
        rc = hy_pwl_to_json(m->pwl, doc, err);
    else if (m->type == HY_MODEL_KIN)
        rc = hy_kin_to_json(m->kin, doc, err);
    else if (m->type == HY_MODEL_BW)
        rc = hy_bw_to_json(m->bw, doc, err);
    else if (m->type == HY_MODEL_IWAN)
        rc = hy_iwan_to_json(m->iwan, doc, err);
    else if (m->type == HY_MODEL_CLOUGH)
        rc = hy_clough_to_json(m->clough, doc, err);
    else
        rc = hy_err_set(err, HY_EARG, "model has no type");
    for (const cJSON *it = m->extra ? m->extra->child : NULL; rc == HY_OK && it; it = it->next) {
        cJSON *dup = cJSON_Duplicate(it, 1);
        if (!dup || !cJSON_AddItemToObject(doc, it->string, dup)) {
            cJSON_Delete(dup);
            rc = hy_err_set(err, HY_ENOMEM, "out of memory");
        }
    }
    char *text = rc == HY_OK ? hy_json_print(doc) : NULL;
    if (rc == HY_OK && !text)
        hy_err_set(err, HY_ENOMEM, "out of memory");
    cJSON_Delete(doc);
    return text;
}

// (model, path or "-", input to protect) => file written atomically
int hy_model_write(const hy_model *m, const char *path, const char *protect, hy_err *err)
{
    char *text = hy_model_print(m, err);
    if (!text)
        return err ? err->code : HY_ENOMEM;
    hy_atomic a;
    int rc = hy_atomic_open(&a, path, protect, err);
    if (rc == HY_OK) {
        fputs(text, a.fp);
        fputc('\n', a.fp);
        rc = hy_atomic_commit(&a, err);
    }
    free(text);
    return rc;
}

// (model) => a new element at rest at the origin
int hy_model_element(const hy_model *m, hy_element *e, hy_err *err)
{
    e->ops = NULL;
    e->self = NULL;
    if (m->type == HY_MODEL_PWL)
        return hy_pwl_element_new(m->pwl, e, err);
    if (m->type == HY_MODEL_KIN)
        return hy_kin_element_new(m->kin, e, err);
    if (m->type == HY_MODEL_BW)
        return hy_bw_element_new(m->bw, e, err);
    if (m->type == HY_MODEL_IWAN)
        return hy_iwan_element_new(m->iwan, e, err);
    if (m->type == HY_MODEL_CLOUGH)
        return hy_clough_element_new(m->clough, e, err);
    return hy_err_set(err, HY_EARG, "model has no type");
}

// (m) => memory released
void hy_model_free(hy_model *m)
{
    if (!m)
        return;
    if (m->pwl)
        hy_pwl_model_free(m->pwl);
    if (m->kin)
        hy_kin_model_free(m->kin);
    if (m->bw)
        hy_bw_model_free(m->bw);
    if (m->iwan)
        hy_iwan_model_free(m->iwan);
    if (m->clough)
        hy_clough_model_free(m->clough);
    cJSON_Delete(m->extra);
    memset(m, 0, sizeof *m);
}

// (model) => family name as in model files
const char *hy_model_family(const hy_model *m)
{
    static const char *const names[] = {"none", "pwl", "kin", "bw", "iwan", "clough"};
    return m && m->type >= 0 && m->type <= HY_MODEL_CLOUGH ? names[m->type] : "none";
}

// (model) => independent copy through the model file text
int hy_model_copy(const hy_model *src, hy_model *dst, hy_err *err)
{
    memset(dst, 0, sizeof *dst);
    char *text = hy_model_print(src, err);
    if (!text)
        return err ? err->code : HY_ENOMEM;
    int rc = hy_model_parse(text, "model copy", dst, err);
    free(text);
    return rc;
}

// The "pwl" keys of hyst-model files (docs/formats.md): reading and writing the branch tables with cJSON.
//
// Numbers are written as raw JSON text with the shortest of %.15g, %.16g, %.17g that reads back to the same
// double: cJSON's own printer accepts a 15-digit form when it is within DBL_EPSILON relative of the value, which
// does not always read back exactly (0.1 + 0.2 prints as 0.3).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/model.h"
#include "hyst/pwl.h"

const char *const hy_pwl_json_keys[] = {"kind", "positive", "negative", NULL};

static const char *const side_key[2] = {"positive", "negative"};

// (side object, side index, points out (malloc'd), name) => branch read; errors name the key path
static int read_points(const cJSON *side, int s, const char *bk, hy_pwl_points *p, double **mem, const char *name,
                       hy_err *err)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(side, bk);
    if (!arr)
        return hy_err_set(err, HY_EPARSE, "%s: %s.%s: missing (an array of [q, Q] points)", name, side_key[s], bk);
    if (!cJSON_IsArray(arr))
        return hy_err_set(err, HY_EPARSE, "%s: %s.%s: expected an array of [q, Q] points", name, side_key[s], bk);
    int n = cJSON_GetArraySize(arr);
    double *buf = malloc((size_t)(n > 0 ? n : 1) * 2 * sizeof *buf);
    if (!buf)
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", name);
    *mem = buf;
    int i = 0;
    for (const cJSON *it = arr->child; it; it = it->next, i++) {
        const cJSON *a = it->child, *b = a ? a->next : NULL;
        if (!cJSON_IsArray(it) || !cJSON_IsNumber(a) || !cJSON_IsNumber(b) || b->next)
            return hy_err_set(err, HY_EPARSE, "%s: %s.%s[%d]: expected a point [q, Q] of two numbers", name,
                              side_key[s], bk, i);
        buf[i] = a->valuedouble;
        buf[n + i] = b->valuedouble;
    }
    p->n = (size_t)n;
    p->q = buf;
    p->Q = buf + n;
    return HY_OK;
}

// (document, side index, kind) => table side read
static int read_side(const cJSON *doc, int s, hy_pwl_kind kind, hy_pwl_side *out, double **memF, double **memB,
                     const char *name, hy_err *err)
{
    const cJSON *side = cJSON_GetObjectItemCaseSensitive(doc, side_key[s]);
    if (!side)
        return hy_err_set(err, HY_EPARSE, "%s: %s: missing (an object with forward, backward and k_beyond)", name,
                          side_key[s]);
    if (!cJSON_IsObject(side))
        return hy_err_set(err, HY_EPARSE, "%s: %s: expected an object with forward, backward and k_beyond", name,
                          side_key[s]);
    for (const cJSON *it = side->child; it; it = it->next)
        if (strcmp(it->string, "forward") != 0 && strcmp(it->string, "backward") != 0 &&
            strcmp(it->string, "k_beyond") != 0)
            return hy_err_set(err, HY_EPARSE,
                              "%s: %s.%s: unknown key (a side has forward, backward and k_beyond; put notes at the top "
                              "level of the file, where they are kept)",
                              name, side_key[s], it->string);
    int rc = read_points(side, s, "forward", &out->forward, memF, name, err);
    if (rc == HY_OK)
        rc = read_points(side, s, "backward", &out->backward, memB, name, err);
    if (rc != HY_OK)
        return rc;
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(side, "k_beyond");
    if (!k && kind == HY_PWL_FRICTION) {
        out->k_beyond = 0.0; /* spec 000 §3 item 1: always 0 for the friction kind */
        return HY_OK;
    }
    if (!k)
        return hy_err_set(err, HY_EPARSE, "%s: %s.k_beyond: missing (the slope beyond the last point)", name,
                          side_key[s]);
    if (!cJSON_IsNumber(k))
        return hy_err_set(err, HY_EPARSE, "%s: %s.k_beyond: expected a number", name, side_key[s]);
    out->k_beyond = k->valuedouble;
    return HY_OK;
}

// (document, name for messages) => pwl model read from the document's own keys and validated
int hy_pwl_from_json(const cJSON *doc, const char *name, hy_pwl_model **out, hy_err *err)
{
    *out = NULL;
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(doc, "kind");
    hy_pwl_table t;
    memset(&t, 0, sizeof t);
    if (!cJSON_IsString(kind))
        return hy_err_set(err, HY_EPARSE, "%s: kind: expected \"constant\" or \"friction\"", name);
    if (strcmp(kind->valuestring, "constant") == 0)
        t.kind = HY_PWL_CONSTANT;
    else if (strcmp(kind->valuestring, "friction") == 0)
        t.kind = HY_PWL_FRICTION;
    else
        return hy_err_set(err, HY_EPARSE, "%s: kind: \"%s\" is neither \"constant\" nor \"friction\"", name,
                          kind->valuestring);
    double *mem[4] = {NULL, NULL, NULL, NULL};
    int rc = read_side(doc, 0, t.kind, &t.positive, &mem[0], &mem[1], name, err);
    if (rc == HY_OK)
        rc = read_side(doc, 1, t.kind, &t.negative, &mem[2], &mem[3], name, err);
    if (rc == HY_OK)
        rc = hy_pwl_model_new(&t, name, out, err);
    for (int i = 0; i < 4; i++)
        free(mem[i]);
    return rc;
}

// (points) => JSON array of [q, Q] pairs, or NULL when out of memory
static cJSON *points_json(const hy_pwl_points *p)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; arr && i < p->n; i++) {
        cJSON *pt = cJSON_CreateArray();
        cJSON *a = hy_json_exact_number(p->q[i]), *b = hy_json_exact_number(p->Q[i]);
        if (!pt || !a || !b || !cJSON_AddItemToArray(pt, a) || !cJSON_AddItemToArray(pt, b) ||
            !cJSON_AddItemToArray(arr, pt)) {
            cJSON_Delete(pt);
            cJSON_Delete(a);
            cJSON_Delete(b);
            cJSON_Delete(arr);
            return NULL;
        }
    }
    return arr;
}

// (model, document) => the model's keys added to doc
int hy_pwl_to_json(const hy_pwl_model *m, cJSON *doc, hy_err *err)
{
    hy_pwl_table t;
    hy_pwl_model_table(m, &t);
    if (!cJSON_AddStringToObject(doc, "kind", t.kind == HY_PWL_FRICTION ? "friction" : "constant"))
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    const hy_pwl_side *sides[2] = {&t.positive, &t.negative};
    for (int s = 0; s < 2; s++) {
        cJSON *obj = cJSON_AddObjectToObject(doc, side_key[s]);
        cJSON *F = obj ? points_json(&sides[s]->forward) : NULL;
        if (F && !cJSON_AddItemToObject(obj, "forward", F)) {
            cJSON_Delete(F);
            F = NULL;
        }
        cJSON *B = F ? points_json(&sides[s]->backward) : NULL;
        if (B && !cJSON_AddItemToObject(obj, "backward", B)) {
            cJSON_Delete(B);
            B = NULL;
        }
        cJSON *k = B ? hy_json_exact_number(sides[s]->k_beyond) : NULL;
        if (!k || !cJSON_AddItemToObject(obj, "k_beyond", k)) {
            cJSON_Delete(k);
            return hy_err_set(err, HY_ENOMEM, "out of memory");
        }
    }
    return HY_OK;
}

/* Kinematic ODE model files ("model": "kin", docs/formats.md): the keys C, rule, C_unloading, q_range.
 * modelfile.c handles format, version, model and units. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/model.h"
#include "kin_internal.h"

const char *const hy_kin_json_keys[] = {"C", "rule", "C_unloading", "q_range", NULL};

// (JSON array of k rows of m numbers, key) => coefficients; errors name the key path
static int read_matrix(const cJSON *a, const char *key, const char *name, hy_kin_coeffs *c, hy_err *err)
{
    memset(c, 0, sizeof *c);
    if (!a)
        return hy_err_set(err, HY_EPARSE, "%s: \"%s\": missing (expected k rows of m numbers, row i = power q^(i-1))",
                          name, key);
    if (!cJSON_IsArray(a))
        return hy_err_set(err, HY_EPARSE, "%s: %s: expected an array of rows (k rows of m numbers)", name, key);
    int k = cJSON_GetArraySize(a);
    if (k < 1 || k > HY_KIN_MAX)
        return hy_err_set(err, HY_EMODEL, "%s: %s: %d rows; k must be 1..%d", name, key, k, HY_KIN_MAX);
    int i = 0, m = -1;
    for (const cJSON *row = a->child; row; row = row->next, i++) {
        if (!cJSON_IsArray(row))
            return hy_err_set(err, HY_EPARSE, "%s: %s[%d]: expected an array of numbers (powers f^0, f^1, ...)",
                              name, key, i);
        int n = cJSON_GetArraySize(row);
        if (m < 0) {
            m = n;
            if (m < 1 || m > HY_KIN_MAX)
                return hy_err_set(err, HY_EMODEL, "%s: %s[0]: %d numbers; m must be 1..%d", name, key, m,
                                  HY_KIN_MAX);
        } else if (n != m) {
            return hy_err_set(err, HY_EMODEL, "%s: %s[%d]: %d numbers, but row 0 has %d (rows must have equal length)",
                              name, key, i, n, m);
        }
        int j = 0;
        for (const cJSON *v = row->child; v; v = v->next, j++) {
            if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
                return hy_err_set(err, HY_EPARSE, "%s: %s[%d][%d]: expected a finite number", name, key, i, j);
            c->C[i][j] = v->valuedouble;
        }
    }
    c->k = k;
    c->m = m;
    return HY_OK;
}

// (whole document) => compiled kinematic model
int hy_kin_from_json(const cJSON *doc, const char *name, hy_kin_model **out, hy_err *err)
{
    *out = NULL;
    hy_kin_spec s;
    memset(&s, 0, sizeof s);
    const cJSON *rule = cJSON_GetObjectItemCaseSensitive(doc, "rule");
    const cJSON *unl = cJSON_GetObjectItemCaseSensitive(doc, "C_unloading");
    const cJSON *rng = cJSON_GetObjectItemCaseSensitive(doc, "q_range");
    s.rule = HY_KIN_SYMMETRIC;
    if (rule) {
        if (cJSON_IsString(rule) && strcmp(rule->valuestring, "symmetric") == 0)
            s.rule = HY_KIN_SYMMETRIC;
        else if (cJSON_IsString(rule) && strcmp(rule->valuestring, "two-set") == 0)
            s.rule = HY_KIN_TWO_SET;
        else
            return hy_err_set(err, HY_EPARSE, "%s: rule: expected \"symmetric\" or \"two-set\"", name);
    }
    int rc = read_matrix(cJSON_GetObjectItemCaseSensitive(doc, "C"), "C", name, &s.load, err);
    if (rc != HY_OK)
        return rc;
    if (s.rule == HY_KIN_TWO_SET) {
        rc = read_matrix(unl, "C_unloading", name, &s.unload, err);
        if (rc != HY_OK)
            return rc;
    } else if (unl) {
        return hy_err_set(err, HY_EMODEL,
                          "%s: C_unloading: given with rule \"symmetric\" (the symmetric rule uses R(-q,-f); "
                          "set \"rule\": \"two-set\" to use it)", name);
    }
    if (!rng)
        return hy_err_set(err, HY_EPARSE, "%s: \"q_range\": missing (expected [q_min, q_max], the valid range of the "
                          "coefficients)", name);
    if (!cJSON_IsArray(rng) || cJSON_GetArraySize(rng) != 2 || !cJSON_IsNumber(rng->child) ||
        !cJSON_IsNumber(rng->child->next))
        return hy_err_set(err, HY_EPARSE, "%s: q_range: expected [q_min, q_max] (two numbers)", name);
    s.q_min = rng->child->valuedouble;
    s.q_max = rng->child->next->valuedouble;
    if (!(s.q_min < s.q_max))
        return hy_err_set(err, HY_EMODEL, "%s: q_range: [%g, %g] is empty (q_min must be below q_max)", name,
                          s.q_min, s.q_max);
    hy_err e2;
    rc = hy_kin_model_new(&s, out, &e2);
    if (rc != HY_OK)
        return hy_err_set(err, rc, "%s: %s", name, e2.msg);
    return HY_OK;
}

// (values, n) => JSON array of exact numbers
static cJSON *exact_array(const double *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; a && i < n; i++) {
        cJSON *x = hy_json_exact_number(v[i]);
        if (!x) {
            cJSON_Delete(a);
            return NULL;
        }
        cJSON_AddItemToArray(a, x);
    }
    return a;
}

// (coefficients) => JSON array of k rows of m numbers
static cJSON *write_matrix(const hy_kin_coeffs *c)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; a && i < c->k; i++) {
        cJSON *row = exact_array(c->C[i], c->m);
        if (!row) {
            cJSON_Delete(a);
            return NULL;
        }
        cJSON_AddItemToArray(a, row);
    }
    return a;
}

// (model, document) => the kin keys added to doc
int hy_kin_to_json(const hy_kin_model *m, cJSON *doc, hy_err *err)
{
    const hy_kin_spec *s = &m->spec;
    cJSON *rule = cJSON_CreateString(s->rule == HY_KIN_TWO_SET ? "two-set" : "symmetric");
    cJSON *c = write_matrix(&s->load);
    cJSON *u = s->rule == HY_KIN_TWO_SET ? write_matrix(&s->unload) : NULL;
    double r[2] = {s->q_min, s->q_max};
    cJSON *rng = exact_array(r, 2);
    if (!rule || !c || !rng || (s->rule == HY_KIN_TWO_SET && !u)) {
        cJSON_Delete(rule);
        cJSON_Delete(c);
        cJSON_Delete(u);
        cJSON_Delete(rng);
        return hy_err_set(err, HY_ENOMEM, "out of memory writing the kinematic model");
    }
    /* Each item belongs to doc once added; the ones not added yet are deleted here. */
    int ok = cJSON_AddItemToObject(doc, "rule", rule);
    if (!ok)
        cJSON_Delete(rule);
    ok = ok && cJSON_AddItemToObject(doc, "C", c);
    if (!ok)
        cJSON_Delete(c);
    ok = ok && (!u || cJSON_AddItemToObject(doc, "C_unloading", u));
    if (!ok)
        cJSON_Delete(u);
    ok = ok && cJSON_AddItemToObject(doc, "q_range", rng);
    if (!ok) {
        cJSON_Delete(rng);
        return hy_err_set(err, HY_ENOMEM, "out of memory writing the kinematic model");
    }
    return HY_OK;
}

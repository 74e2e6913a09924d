/* Iwan model files ("model": "iwan", docs/formats.md, docs/iwan-model.md): "k_inf" (optional, default 0) and
 * exactly one of "elements": [[k, f_slip], ...] or "segalman": {"F_S", "K_T", "chi", "beta", "N"}. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/model.h"
#include "iwan_internal.h"

const char *const hy_iwan_json_keys[] = {"k_inf", "elements", "segalman", NULL};

static int seg_num(const cJSON *o, const char *key, const char *name, double *v, hy_err *err)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!it)
        return hy_err_set(err, HY_EPARSE, "%s: segalman.%s: missing (expected F_S, K_T, chi, beta, N)", name, key);
    if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
        return hy_err_set(err, HY_EPARSE, "%s: segalman.%s: expected a finite number", name, key);
    *v = it->valuedouble;
    return HY_OK;
}

// (whole document) => compiled Iwan model
int hy_iwan_from_json(const cJSON *doc, const char *name, hy_iwan_model **out, hy_err *err)
{
    *out = NULL;
    const cJSON *kinf = cJSON_GetObjectItemCaseSensitive(doc, "k_inf");
    const cJSON *els = cJSON_GetObjectItemCaseSensitive(doc, "elements");
    const cJSON *seg = cJSON_GetObjectItemCaseSensitive(doc, "segalman");
    double k_inf = 0;
    if (kinf) {
        if (!cJSON_IsNumber(kinf) || !isfinite(kinf->valuedouble))
            return hy_err_set(err, HY_EPARSE, "%s: k_inf: expected a finite number", name);
        k_inf = kinf->valuedouble;
    }
    if (!els == !seg)
        return hy_err_set(err, HY_EPARSE, "%s: an Iwan model needs exactly one of \"elements\" ([[k, f_slip], ...]) "
                          "and \"segalman\" ({F_S, K_T, chi, beta, N})", name);
    hy_err e2;
    int rc;
    if (seg) {
        if (!cJSON_IsObject(seg))
            return hy_err_set(err, HY_EPARSE, "%s: segalman: expected an object {F_S, K_T, chi, beta, N}", name);
        hy_iwan_segalman s;
        double N = 0;
        if ((rc = seg_num(seg, "F_S", name, &s.F_S, err)) || (rc = seg_num(seg, "K_T", name, &s.K_T, err)) ||
            (rc = seg_num(seg, "chi", name, &s.chi, err)) || (rc = seg_num(seg, "beta", name, &s.beta, err)) ||
            (rc = seg_num(seg, "N", name, &N, err)))
            return rc;
        if (N != floor(N) || N < 2 || N > HY_IWAN_MAX)
            return hy_err_set(err, HY_EMODEL, "%s: segalman.N = %g is outside its range (an integer 2..%d)", name, N,
                              HY_IWAN_MAX);
        s.N = (int)N;
        rc = hy_iwan_model_segalman(&s, k_inf, out, &e2);
    } else {
        if (!cJSON_IsArray(els))
            return hy_err_set(err, HY_EPARSE, "%s: elements: expected an array of [k, f_slip] pairs", name);
        int n = cJSON_GetArraySize(els);
        if (n < 1 || n > HY_IWAN_MAX)
            return hy_err_set(err, HY_EMODEL, "%s: elements: %d elements; expected 1..%d", name, n, HY_IWAN_MAX);
        double *k = malloc(2 * (size_t)n * sizeof *k);
        if (!k)
            return hy_err_set(err, HY_ENOMEM, "%s: out of memory", name);
        double *f = k + n;
        int i = 0;
        for (const cJSON *e = els->child; e; e = e->next, i++) {
            if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 2 || !cJSON_IsNumber(e->child) ||
                !cJSON_IsNumber(e->child->next) || !isfinite(e->child->valuedouble) ||
                !isfinite(e->child->next->valuedouble)) {
                free(k);
                return hy_err_set(err, HY_EPARSE, "%s: elements[%d]: expected [k, f_slip] (two finite numbers)", name,
                                  i);
            }
            k[i] = e->child->valuedouble;
            f[i] = e->child->next->valuedouble;
        }
        rc = hy_iwan_model_discrete(n, k, f, k_inf, out, &e2);
        free(k);
    }
    if (rc != HY_OK)
        return hy_err_set(err, rc, "%s: %s", name, e2.msg);
    return HY_OK;
}

// (model, document) => the Iwan keys added to doc, in the form the model was given
int hy_iwan_to_json(const hy_iwan_model *m, cJSON *doc, hy_err *err)
{
    int ok = hy_json_add_exact(doc, "k_inf", m->k_inf);
    if (ok && m->form == HY_IWAN_SEGALMAN) {
        cJSON *s = cJSON_AddObjectToObject(doc, "segalman");
        ok = s && hy_json_add_exact(s, "F_S", m->seg.F_S) && hy_json_add_exact(s, "K_T", m->seg.K_T) &&
             hy_json_add_exact(s, "chi", m->seg.chi) && hy_json_add_exact(s, "beta", m->seg.beta) &&
             cJSON_AddNumberToObject(s, "N", m->seg.N);
    } else if (ok) {
        cJSON *a = cJSON_AddArrayToObject(doc, "elements");
        ok = a != NULL;
        for (int i = 0; ok && i < m->n; i++) {
            cJSON *row = cJSON_CreateArray();
            cJSON *x = hy_json_exact_number(m->k[i]), *y = hy_json_exact_number(m->f[i]);
            ok = row && x && y;
            if (ok) {
                cJSON_AddItemToArray(row, x);
                cJSON_AddItemToArray(row, y);
                cJSON_AddItemToArray(a, row);
            } else {
                cJSON_Delete(row);
                cJSON_Delete(x);
                cJSON_Delete(y);
            }
        }
    }
    return ok ? HY_OK : hy_err_set(err, HY_ENOMEM, "out of memory writing the Iwan model");
}

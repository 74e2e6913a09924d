/* Peak-oriented (modified Clough) model files ("model": "clough", docs/formats.md, docs/clough-model.md):
 * "k", "F_y", "alpha" and "kappa" (optional, default 1: no pinching). */
#include <math.h>
#include <cjson/cJSON.h>
#include "hyst/clough.h"
#include "hyst/model.h"

const char *const hy_clough_json_keys[] = {"k", "F_y", "alpha", "kappa", NULL};

static int num(const cJSON *doc, const char *key, const char *name, int required, double *v, hy_err *err)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(doc, key);
    if (!it) {
        if (required)
            return hy_err_set(err, HY_EPARSE, "%s: %s: missing (a clough model needs k, F_y, alpha; kappa is "
                              "optional)", name, key);
        return HY_OK;
    }
    if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
        return hy_err_set(err, HY_EPARSE, "%s: %s: expected a finite number", name, key);
    *v = it->valuedouble;
    return HY_OK;
}

// (whole document) => compiled model
int hy_clough_from_json(const cJSON *doc, const char *name, hy_clough_model **out, hy_err *err)
{
    *out = NULL;
    hy_clough_params p = {.kappa = 1.0};
    int rc;
    if ((rc = num(doc, "k", name, 1, &p.k, err)) || (rc = num(doc, "F_y", name, 1, &p.F_y, err)) ||
        (rc = num(doc, "alpha", name, 1, &p.alpha, err)) || (rc = num(doc, "kappa", name, 0, &p.kappa, err)))
        return rc;
    hy_err e2;
    if ((rc = hy_clough_model_new(&p, out, &e2)) != HY_OK)
        return hy_err_set(err, rc, "%s: %s", name, e2.msg);
    return HY_OK;
}

// (model, document) => its keys added
int hy_clough_to_json(const hy_clough_model *m, cJSON *doc, hy_err *err)
{
    const hy_clough_params *p = hy_clough_model_params(m);
    if (hy_json_add_exact(doc, "k", p->k) && hy_json_add_exact(doc, "F_y", p->F_y) &&
        hy_json_add_exact(doc, "alpha", p->alpha) && hy_json_add_exact(doc, "kappa", p->kappa))
        return HY_OK;
    return hy_err_set(err, HY_ENOMEM, "out of memory writing the clough model");
}

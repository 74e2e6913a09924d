/* Bouc-Wen model files ("model": "bw", docs/formats.md, docs/bw-model.md): the keys k, alpha, A, beta, gamma, n,
 * the optional degradation rates delta_A, delta_nu, delta_eta and the optional pinching (Foliente) zeta_s, pinch_p,
 * pinch_q, psi, delta_psi, lambda. modelfile.c handles the common keys. */
#include <math.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/model.h"
#include "bw_internal.h"

const char *const hy_bw_json_keys[] = {"k", "alpha", "A", "beta", "gamma", "n",
                                       "delta_A", "delta_nu", "delta_eta", "pinching",
                                       "zeta_s", "pinch_p", "pinch_q", "psi", "delta_psi", "lambda", NULL};

// (document, key, default or NAN when required) => number
static int get_num(const cJSON *doc, const char *key, double dflt, const char *name, double *v, hy_err *err)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(doc, key);
    if (!it) {
        if (isnan(dflt))
            return hy_err_set(err, HY_EPARSE, "%s: \"%s\": missing (a Bouc-Wen model needs k, alpha, beta, gamma, "
                              "n; see docs/bw-model.md)", name, key);
        *v = dflt;
        return HY_OK;
    }
    if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
        return hy_err_set(err, HY_EPARSE, "%s: %s: expected a finite number", name, key);
    *v = it->valuedouble;
    return HY_OK;
}

// (whole document) => compiled Bouc-Wen model
int hy_bw_from_json(const cJSON *doc, const char *name, hy_bw_model **out, hy_err *err)
{
    *out = NULL;
    hy_bw_params p;
    memset(&p, 0, sizeof p);
    int rc;
    if ((rc = get_num(doc, "k", NAN, name, &p.k, err)) || (rc = get_num(doc, "alpha", NAN, name, &p.alpha, err)) ||
        (rc = get_num(doc, "A", 1.0, name, &p.A, err)) || (rc = get_num(doc, "beta", NAN, name, &p.beta, err)) ||
        (rc = get_num(doc, "gamma", NAN, name, &p.gamma, err)) || (rc = get_num(doc, "n", NAN, name, &p.n, err)) ||
        (rc = get_num(doc, "delta_A", 0.0, name, &p.delta_A, err)) ||
        (rc = get_num(doc, "delta_nu", 0.0, name, &p.delta_nu, err)) ||
        (rc = get_num(doc, "delta_eta", 0.0, name, &p.delta_eta, err)))
        return rc;
    /* pinching: "pinching": true needs zeta_s, psi, lambda; the other keys default to 0 */
    const cJSON *pin = cJSON_GetObjectItemCaseSensitive(doc, "pinching");
    if (pin && !cJSON_IsBool(pin))
        return hy_err_set(err, HY_EPARSE, "%s: pinching: expected true or false", name);
    double req = pin && cJSON_IsTrue(pin) ? NAN : 0.0;
    if ((rc = get_num(doc, "zeta_s", req, name, &p.zeta_s, err)) ||
        (rc = get_num(doc, "pinch_p", 0.0, name, &p.pinch_p, err)) ||
        (rc = get_num(doc, "pinch_q", 0.0, name, &p.pinch_q, err)) ||
        (rc = get_num(doc, "psi", req, name, &p.psi, err)) ||
        (rc = get_num(doc, "delta_psi", 0.0, name, &p.delta_psi, err)) ||
        (rc = get_num(doc, "lambda", req, name, &p.lambda, err)))
        return rc;
    if (pin && cJSON_IsFalse(pin) && p.zeta_s != 0)
        return hy_err_set(err, HY_EMODEL, "%s: pinching: false with zeta_s = %g (remove zeta_s or set pinching to "
                          "true)", name, p.zeta_s);
    hy_err e2;
    rc = hy_bw_model_new(&p, out, &e2);
    if (rc != HY_OK)
        return hy_err_set(err, rc, "%s: %s", name, e2.msg);
    return HY_OK;
}

// (model, document) => the Bouc-Wen keys added to doc (degradation rates only when not zero; the pinching keys,
// after "pinching": true, only with pinching)
int hy_bw_to_json(const hy_bw_model *m, cJSON *doc, hy_err *err)
{
    const hy_bw_params *p = &m->p;
    const char *keys[] = {"k", "alpha", "A", "beta", "gamma", "n", "delta_A", "delta_nu", "delta_eta",
                          "zeta_s", "pinch_p", "pinch_q", "psi", "delta_psi", "lambda"};
    const double vals[] = {p->k, p->alpha, p->A, p->beta, p->gamma, p->n, p->delta_A, p->delta_nu, p->delta_eta,
                           p->zeta_s, p->pinch_p, p->pinch_q, p->psi, p->delta_psi, p->lambda};
    for (int i = 0; i < 15; i++) {
        if (i >= 6 && i < 9 && vals[i] == 0)
            continue;
        if (i >= 9 && !m->pinch)
            break;
        if (i == 9 && !cJSON_AddBoolToObject(doc, "pinching", 1))
            return hy_err_set(err, HY_ENOMEM, "out of memory writing the Bouc-Wen model");
        cJSON *x = hy_json_exact_number(vals[i]);
        if (!x || !cJSON_AddItemToObject(doc, keys[i], x)) {
            cJSON_Delete(x);
            return hy_err_set(err, HY_ENOMEM, "out of memory writing the Bouc-Wen model");
        }
    }
    return HY_OK;
}

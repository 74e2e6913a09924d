/* The integrated-trajectory error that scores a kinematic-ODE candidate (spec 002 §2.3 item 2, §6.1 item 3):
 * the model is driven along the measured displacement history from the measured start point, through the same
 * element that `hyst sim` and `hyst replay` use, and its force is compared with the measured force. */
#include <math.h>
#include <stdlib.h>
#include "hyst/kinfit.h"

#define CHUNK 512   /* samples driven between divergence checks */

// (spec, record, optional model-force buffer) => NRMSE, max error, energies
int hy_kinfit_score_spec(const hy_kin_spec *spec, const double *q, const double *f, size_t n, double *fm,
                         hy_kinfit_score *sc, hy_err *err)
{
    sc->ok = 0;
    sc->stiff = 0;
    sc->nrmse = sc->max_abs = INFINITY;
    sc->at = 0;
    sc->energy_data = sc->energy_model = NAN;
    if (n < 2)
        return hy_err_set(err, HY_EDATA, "integrated error: need at least 2 samples");
    double flo = INFINITY, fhi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        flo = fmin(flo, f[i]);
        fhi = fmax(fhi, f[i]);
    }
    double span = fhi - flo;
    if (!(span > 0))
        return hy_err_set(err, HY_EDATA, "integrated error: the measured force is constant");
    double bound = fmax(fabs(flo), fabs(fhi)) + 1e3 * span;

    hy_kin_model *model = NULL;
    int rc = hy_kin_model_new(spec, &model, err);
    if (rc == HY_EMODEL)
        return HY_OK;   /* non-finite coefficients and the like: a failed candidate (ok = 0) */
    if (rc != HY_OK)
        return rc;
    /* sub-step budget: the element's own rule (hy_kin_substeps) evaluated from the measured points */
    double budget = (double)HY_KINFIT_SUBSTEP_BUDGET * (double)n + 2e4, need = 0.0;
    for (size_t i = 1; i < n && need <= budget; i++)
        if (q[i] != q[i - 1])
            need += hy_kin_substeps(model, q[i] > q[i - 1] ? 1 : -1, q[i - 1], f[i - 1], q[i]);
    double *buf = need > budget ? NULL : fm ? fm : malloc(n * sizeof *buf);
    if (need > budget) {
        sc->stiff = 1;
    } else if (!buf) {
        rc = hy_err_set(err, HY_ENOMEM, "integrated error: out of memory");
    } else {
        /* an inadmissible start point is a failed candidate (ok = 0), not an error of the caller */
        hy_kin_state st;
        hy_element e;
        int bad = hy_kin_state_init(&st, model, q[0], f[0], NULL) != HY_OK;
        hy_kin_element_wrap(&st, &e);
        buf[0] = f[0];
        size_t reached = 1;
        for (size_t i = 1; i < n && !bad; i += CHUNK) {
            size_t len = n - i < CHUNK ? n - i : CHUNK, done = 0;
            hy_diag d = {0};
            int drc = hy_element_drive(&e, q[i - 1], NULL, q + i, len, buf + i, NULL, &done, &d);
            reached = i + done;
            if (drc != HY_OK) {
                bad = 1;
                break;
            }
            for (size_t j = i; j < i + len; j++)
                if (!isfinite(buf[j]) || fabs(buf[j]) > bound) {
                    bad = 1;
                    reached = j;
                    break;
                }
        }
        if (!bad) {
            double ss = 0.0, ed = 0.0, em = 0.0;
            sc->max_abs = 0.0;
            for (size_t i = 0; i < n; i++) {
                double d = buf[i] - f[i];
                ss += d * d;
                if (fabs(d) > sc->max_abs) {
                    sc->max_abs = fabs(d);
                    sc->at = i;
                }
                if (i > 0) {
                    double dq = q[i] - q[i - 1];
                    ed += 0.5 * (f[i] + f[i - 1]) * dq;
                    em += 0.5 * (buf[i] + buf[i - 1]) * dq;
                }
            }
            sc->ok = 1;
            sc->nrmse = sqrt(ss / (double)n) / span;
            sc->energy_data = ed;
            sc->energy_model = em;
        } else {
            sc->at = reached;
        }
        hy_element_free(&e);
    }
    if (!fm)
        free(buf);
    hy_kin_model_free(model);
    return rc;
}

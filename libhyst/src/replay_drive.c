// Replay: drive a model file's element along a measured displacement history (see hyst/replay.h).
#include <stdio.h>
#include "hyst/replay.h"

// (model, t[n] or NULL, q[n]) => Q[n] (and states); on a violation the failing row and its diagnosis
int hy_replay_drive(const hy_model *m, const double *t, const double *q, size_t n, double *Q, int *states,
                    size_t *row, hy_diag *diag, hy_err *err)
{
    hy_element e = {0};
    if (row)
        *row = 0;
    int rc = hy_model_element(m, &e, err);
    if (rc != HY_OK)
        return rc;
    size_t done = 0;
    hy_diag d = {0};
    /* the element is at rest at the origin, so the committed q before the first sample is 0 */
    rc = hy_element_drive(&e, 0.0, t, q, n, Q, states, &done, &d);
    hy_element_free(&e);
    if (row)
        *row = done;
    if (diag)
        *diag = d;
    if (rc != HY_OK) {
        char what[400];
        if (!d.code)
            d.code = rc;
        hy_diag_format(&d, what, sizeof what);
        if (t)
            return hy_err_set(err, rc, "row %zu, t = %.10g, q = %.10g: %s", done + 1, t[done], q[done], what);
        return hy_err_set(err, rc, "row %zu, q = %.10g: %s", done + 1, q[done], what);
    }
    return HY_OK;
}

// Generic hysteretic element helpers (see hyst/element.h).
#include <stdio.h>
#include "hyst/element.h"

// (e) => element memory released; safe on a zeroed element
void hy_element_free(hy_element *e)
{
    if (e && e->ops && e->self)
        e->ops->destroy(e->self);
    if (e) {
        e->ops = NULL;
        e->self = NULL;
    }
}

// (diag) => one-line description
void hy_diag_format(const hy_diag *d, char *buf, size_t len)
{
    snprintf(buf, len, "%s in state %d at q = %.10g, dq/dt = %.10g: %s", hy_status_name(d->code), d->state,
             d->q, d->qdot, d->rule[0] ? d->rule : "no rule given");
}

// (element, q history) => Q history (and states), stopping at the first violation
int hy_element_drive(hy_element *e, double q_start, const double *t, const double *q, size_t n, double *Q,
                     int *states, size_t *done, hy_diag *diag)
{
    double q_prev = q_start, dQdq;
    size_t i = 0;
    int rc = HY_OK;
    for (; i < n; i++) {
        double dq = q[i] - q_prev;
        double qdot = dq;
        if (t && i > 0 && t[i] > t[i - 1])
            qdot = dq / (t[i] - t[i - 1]);
        rc = hy_element_trial(e, q[i], qdot, &Q[i], &dQdq, diag);
        if (rc != HY_OK) {
            hy_element_revert(e);
            break;
        }
        hy_element_commit(e);
        if (states)
            states[i] = hy_element_state(e);
        q_prev = q[i];
    }
    if (done)
        *done = i;
    return rc;
}

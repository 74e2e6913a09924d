// The piecewise-linear model as a hysteretic element (hyst/element.h): the vtable over hy_pwl_trial & co.
#include <stdlib.h>
#include "hyst/model.h"
#include "hyst/pwl.h"

static int el_trial(void *self, double q, double qdot, double *Q, double *dQdq, hy_diag *diag)
{
    return hy_pwl_trial(self, q, qdot, Q, dQdq, diag);
}
static void el_commit(void *self) { hy_pwl_commit(self); }
static void el_revert(void *self) { hy_pwl_revert(self); }
static int el_reset(void *self, double q0, double Q0, hy_err *err) { return hy_pwl_data_reset(self, q0, Q0, err); }
static int el_state(const void *self) { return hy_pwl_state_of(self); }
static void el_destroy(void *self) { free(self); }

static const hy_element_ops pwl_ops = {
    .family = "pwl",
    .trial = el_trial,
    .commit = el_commit,
    .revert = el_revert,
    .reset = el_reset,
    .state_code = el_state,
    .destroy = el_destroy,
};

// (model) => a new element with its own state, at rest at the origin (the model must outlive the element)
int hy_pwl_element_new(const hy_pwl_model *m, hy_element *e, hy_err *err)
{
    e->ops = NULL;
    e->self = NULL;
    if (!m)
        return hy_err_set(err, HY_EARG, "no pwl model given");
    hy_pwl_data *d = malloc(sizeof *d);
    if (!d)
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    hy_pwl_data_init(d, m);
    e->ops = &pwl_ops;
    e->self = d;
    return HY_OK;
}

// (element) => its pwl data, or NULL for another family
hy_pwl_data *hy_pwl_element_data(hy_element *e)
{
    return e && e->ops == &pwl_ops ? e->self : NULL;
}

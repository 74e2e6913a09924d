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

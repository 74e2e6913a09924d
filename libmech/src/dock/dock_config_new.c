// A docking configuration on the heap, parsed from text with its laws loaded: for callers that cannot size or
// embed mech_dock_config (the Python bindings, python/hystkit/dock.py). See mech/dock.h.
#include <stdlib.h>
#include "mech/dock.h"

int mech_dock_config_new(const char *text, size_t len, const char *name, const char *dir, mech_dock_config **out,
                         hy_err *err)
{
    *out = NULL;
    mech_dock_config *c = malloc(sizeof *c);
    if (!c)
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", name);
    mech_dock_config_default(c);
    int rc = mech_dock_config_parse(text, len, name, dir, c, err);
    if (rc == HY_OK)
        rc = mech_dock_config_load(c, name, err);
    if (rc != HY_OK) {
        mech_dock_config_free(c);
        free(c);
        return rc;
    }
    *out = c;
    return HY_OK;
}

void mech_dock_config_delete(mech_dock_config *c)
{
    if (!c)
        return;
    mech_dock_config_free(c);
    free(c);
}

const mech_dock_params *mech_dock_config_params(const mech_dock_config *c)
{
    return &c->params;
}

int mech_dock_config_set_duration(mech_dock_config *c, double duration, hy_err *err)
{
    if (!(duration >= 0) || !(duration / c->params.h <= 1e8))
        return hy_err_set(err, HY_EARG, "duration %g s / step %g s: expected a duration >= 0 s and 0 .. 1e8 steps",
                          duration, c->params.h);
    c->params.duration = duration;
    return HY_OK;
}

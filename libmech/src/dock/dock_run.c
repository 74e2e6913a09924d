// Many docking steps in one call, the channels and element records written into caller-provided arrays: the
// batched driver the Python bindings use (python/hystkit/dock.py), so that a run costs no interpreter time per
// step. See mech/dock.h.
#include "mech/dock.h"

int mech_dock_sim_run(mech_dock_sim *s, size_t n, double *hist, double *rec, size_t *done, hy_err *err)
{
    size_t i = 0;
    int rc = HY_OK;
    for (; i < n && !mech_dock_sim_done(s); i++) {   /* stops at the end of the run (duration, or the process's) */
        if ((rc = mech_dock_sim_step(s, err)) != HY_OK)
            break;
        if (hist) {
            const double *ch = mech_dock_sim_channels(s);
            for (int k = 0; k < MECH_DOCK_NCH; k++)
                hist[i * MECH_DOCK_NCH + k] = ch[k];
        }
        if (rec) {
            for (int e = 0; e < MECH_DOCK_NEL; e++) {
                int state;
                double work, *r = rec + (i * MECH_DOCK_NEL + (size_t)e) * 2;
                mech_dock_sim_element(s, e, &r[0], &r[1], &state, &work);
            }
        }
    }
    if (done)
        *done = i;
    return rc;
}

/* Loops of a hysteretic element, measured against predicted (issue 45, docs/compare.md §5): libhyst's loop analysis
 * (hy_loops_analyze, docs/loops.md) on both, with one reversal threshold so that the cycles are cut alike. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "hyst/loops.h"
#include "mech/compare.h"

int mech_compare_loops(const mech_compare *c, int l, hy_loops *meas, hy_loops *pred, hy_err *err)
{
    memset(meas, 0, sizeof *meas);
    memset(pred, 0, sizeof *pred);
    if (l < 0 || l >= c->map.nloop)
        return hy_err_set(err, HY_EARG, "loop %d: the map has %d", l, c->map.nloop);
    const mech_compare_loop *L = &c->map.loop[l];
    hy_loops_opts o;
    hy_loops_opts_default(&o);
    int rc = hy_loops_analyze(c->meas[L->q], c->meas[L->Q], c->n, &o, meas, err);
    if (rc != HY_OK) {
        char m[HY_MSG_LEN];
        snprintf(m, sizeof m, "%s", err ? err->msg : "");
        return hy_err_set(err, rc, "loop '%s', measured: %s", L->name, m);
    }
    o.threshold = meas->threshold; /* the measured record's noise sets the threshold of both */
    rc = hy_loops_analyze(c->pred[L->q], c->pred[L->Q], c->n, &o, pred, err);
    if (rc != HY_OK) {
        char m[HY_MSG_LEN];
        snprintf(m, sizeof m, "%s", err ? err->msg : "");
        hy_loops_free(meas);
        return hy_err_set(err, rc, "loop '%s', predicted: %s", L->name, m);
    }
    return HY_OK;
}

/* Records no model can be identified from or scored on (docs/fit-families.md "Refusals"): a constant force (every
 * fit would "succeed" with NRMSE NaN and any energy ratio), a constant displacement, and for the fits a record
 * without a closed loop (monotonic, or a single reversal), as the loop analysis sees them. */
#include <math.h>
#include "hyst/loops.h"

// (values[n]) => max - min, and the largest magnitude in *amax
static double spread(const double *v, size_t n, double *amax)
{
    double lo = INFINITY, hi = -INFINITY;
    *amax = 0;
    for (size_t i = 0; i < n; i++) {
        lo = fmin(lo, v[i]);
        hi = fmax(hi, v[i]);
        *amax = fmax(*amax, fabs(v[i]));
    }
    return n ? hi - lo : 0.0;
}

int hy_record_check(const double *q, const double *Q, size_t n, const hy_loops_opts *o, int need_loop, hy_err *err)
{
    if (n < 4)
        return HY_OK; /* too short for any fit or comparison: the fits' own checks name the count */
    double aQ, aq;
    /* constant up to the last few bits of the largest value: a spread at the rounding level is no signal */
    if (!(spread(Q, n, &aQ) > 1e-12 * aQ))
        return hy_err_set(err, HY_EDATA, "the force is constant (%.6g in all %zu rows): there is no hysteresis to "
                          "identify or to compare with", n ? Q[0] : 0.0, n);
    if (!(spread(q, n, &aq) > 1e-12 * aq))
        return hy_err_set(err, HY_EDATA, "the displacement is constant (%.6g in all %zu rows): the record has no "
                          "motion", n ? q[0] : 0.0, n);
    if (!need_loop)
        return HY_OK;
    hy_loops L;
    hy_err e2;
    int rc = hy_loops_analyze(q, Q, n, o, &L, &e2);
    if (rc != HY_OK)
        return hy_err_set(err, rc, "%s", e2.msg);
    size_t nh = L.n_half, nr = L.n_rev;
    double thr = L.threshold;
    hy_loops_free(&L);
    if (nh >= 3)
        return HY_OK;
    if (nr == 0)
        return hy_err_set(err, HY_EDATA, "the displacement is monotonic (no reversal larger than the threshold %.4g):"
                          " a fit needs at least one closed loop (two reversals)", thr);
    return hy_err_set(err, HY_EDATA, "the record has a single reversal (%zu half-cycles): a fit needs at least one "
                      "closed loop (two reversals)", nh);
}

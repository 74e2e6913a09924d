/* Record conditioning (hyst/condition.h, docs/data-input.md "Conditioning"): rest segments at the start and the end,
 * offsets at rest. A bench record often holds long stretches at rest around the test (a timber record: 8404 of
 * 9281 rows) with the actuator's zero off by a few mm; they decide the NRMSE and the loop analysis' threshold
 * unless they are removed. */
#include <math.h>
#include <string.h>
#include "hyst/condition.h"

void hy_condition_opts_default(hy_condition_opts *o)
{
    memset(o, 0, sizeof *o);
}

int hy_condition(double *t, double *q, double *Q, size_t *line, size_t n, const hy_condition_opts *o,
                 hy_condition_report *r, hy_err *err)
{
    memset(r, 0, sizeof *r);
    r->n_in = r->n_out = n;
    if (!o->trim_rest && !o->offset_q && !o->offset_Q)
        return HY_OK;
    if (n < 2)
        return hy_err_set(err, HY_EDATA, "conditioning: %zu rows; at least 2 are needed", n);
    double lo = q[0], hi = q[0];
    for (size_t i = 1; i < n; i++) {
        lo = fmin(lo, q[i]);
        hi = fmax(hi, q[i]);
    }
    double tol = o->rest_tol > 0 ? o->rest_tol : 0.005 * (hi - lo);
    r->rest_tol = tol;
    /* the start's rest segment: rows 0..j-1 within tol of row 0; the end's: rows k+1..n-1 within tol of row n-1 */
    size_t j = 1;
    while (j < n && fabs(q[j] - q[0]) <= tol)
        j++;
    size_t k = n - 1;
    while (k > 0 && fabs(q[k - 1] - q[n - 1]) <= tol)
        k--;
    if (j >= n || k == 0 || !(hi > lo))
        return hy_err_set(err, HY_EDATA, "conditioning: the displacement never leaves the rest position by more than "
                          "%g (rest tolerance): there is no motion to keep", tol);
    r->rest_rows = j;
    if ((o->offset_q || o->offset_Q) && j < 2)
        return hy_err_set(err, HY_EDATA, "conditioning: an offset is measured on the rest segment at the start, and "
                          "row 2 already moves by more than %g (rest tolerance) from row 1; set --rest-tol or leave "
                          "the offset", tol);
    double mq = 0, mQ = 0;
    for (size_t i = 0; i < j; i++) {
        mq += q[i];
        mQ += Q[i];
    }
    r->q_offset = o->offset_q ? mq / (double)j : 0.0;
    r->Q_offset = o->offset_Q ? mQ / (double)j : 0.0;
    size_t first = 0, last = n - 1;
    if (o->trim_rest) {
        first = j - 1; /* the last row at rest: the motion starts from it */
        last = k;      /* the first row at rest at the end */
        if (last <= first)
            last = n - 1;
    }
    r->trimmed_start = first;
    r->trimmed_end = n - 1 - last;
    r->n_out = last - first + 1;
    for (size_t i = 0; i < r->n_out; i++) {
        size_t s = first + i;
        if (t)
            t[i] = t[s];
        if (line)
            line[i] = line[s];
        q[i] = q[s] - r->q_offset;
        Q[i] = Q[s] - r->Q_offset;
    }
    return HY_OK;
}

/* The whole identification of the kinematic ODE from one record (spec 002 §6.1 items 1-5): Stage-A points,
 * selection and pruning over (k, m), optional refinement, and the sanity checks that go into the report. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "hyst/kinfit.h"

static void warn(hy_kinfit_result *r, const char *msg)
{
    if (r->n_warnings < (int)(sizeof r->warning / sizeof r->warning[0]))
        snprintf(r->warning[r->n_warnings++], sizeof r->warning[0], "%s", msg);
}

/* (record) => the cycle with the largest peak-to-peak amplitude: its energy, q-range and the force at its
 * smallest q; energy NaN without a closed cycle */
static int largest_cycle(const double *q, const double *f, size_t n, const hy_loops_opts *lo, double *energy,
                         double *q_lo, double *q_hi, double *f_lo, hy_err *err)
{
    hy_loops L;
    memset(&L, 0, sizeof L);
    int rc = hy_loops_analyze(q, f, n, lo, &L, err);
    double amp = -1.0;
    *energy = NAN;
    for (size_t c = 0; rc == HY_OK && c < L.n_cyc; c++) {
        const hy_cycle *cy = &L.cyc[c];
        if (cy->amp_pos + cy->amp_neg > amp) {
            amp = cy->amp_pos + cy->amp_neg;
            *energy = cy->energy;
            *q_lo = q[cy->i_qmin];
            *q_hi = q[cy->i_qmax];
            *f_lo = f[cy->i_qmin];
        }
    }
    hy_loops_free(&L);
    return rc;
}

// (record, options) => identified model, candidates, checks
int hy_kinfit_run(const double *q, const double *f, size_t n, const hy_kinfit_opts *o, hy_kinfit_result *r,
                  hy_err *err)
{
    memset(r, 0, sizeof *r);
    r->n_samples = n;
    if (n < 4)
        return hy_err_set(err, HY_EDATA, "%zu samples: a kinematic-ODE fit needs at least 4", n);
    double flo = INFINITY, fhi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(q[i]) || !isfinite(f[i]))
            return hy_err_set(err, HY_EDATA, "sample %zu is not a finite number", i + 1);
        flo = fmin(flo, f[i]);
        fhi = fmax(fhi, f[i]);
    }
    if (!(fhi > flo))
        return hy_err_set(err, HY_EDATA, "the force is constant (%g): nothing to fit", flo);
    hy_kinfit_points pts;
    int rc = hy_kinfit_collect(q, f, n, o, &pts, err);
    if (rc != HY_OK)
        return rc;
    r->n_points = pts.n;
    r->n_branches = pts.n_branches;
    r->n_skipped = pts.n_skipped;
    r->deg_min = pts.deg_min;
    r->deg_max = pts.deg_max;
    rc = hy_kinfit_select(&pts, q, f, n, o, r, err);
    if (rc == HY_OK && o->refine)
        rc = hy_kinfit_refine(r, &pts, q, f, n, o, err);
    hy_kinfit_checks *ck = &r->checks;
    ck->q_min = r->spec.q_min;
    ck->q_max = r->spec.q_max;
    ck->cycle.energy = ck->cycle_energy_data = NAN;
    if (rc == HY_OK) {
        hy_kinfit_check_attraction(&r->spec, &pts, ck);
        size_t imin = 0;
        for (size_t i = 1; i < n; i++)
            if (q[i] < q[imin])
                imin = i;
        rc = hy_kinfit_check_loop(&r->spec, r->spec.q_min, r->spec.q_max, f[imin], &ck->range, err);
    }
    double e_cyc = NAN, c_lo = 0, c_hi = 0, c_f = 0;
    if (rc == HY_OK)
        rc = largest_cycle(q, f, n, &o->loops, &e_cyc, &c_lo, &c_hi, &c_f, err);
    if (rc == HY_OK && isfinite(e_cyc) && c_hi > c_lo) {
        ck->cycle_energy_data = e_cyc;
        rc = hy_kinfit_check_loop(&r->spec, c_lo, c_hi, c_f, &ck->cycle, err);
    }
    if (rc == HY_OK) {
        if (!r->checks.attract_ok) {
            char m[200];
            snprintf(m, sizeof m, "attraction fails: dR/df = %.4g >= 0 at q = %.6g, f = %.6g (%s)",
                     r->checks.attract_max, r->checks.attract_q, r->checks.attract_f,
                     r->checks.attract_s < 0 ? "unloading" : "loading");
            warn(r, m);
        }
        if (!(ck->range.energy > 0))
            warn(r, "the steady loop over the q-range has no positive area");
        else if (!(ck->range.closure < 1e-3))
            warn(r, "the steady loop over the q-range does not close within 1e-3 after three cycles");
    }
    hy_kinfit_points_free(&pts);
    return rc;
}

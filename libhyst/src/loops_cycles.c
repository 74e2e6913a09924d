// Loop analysis pipeline: threshold => reversals => half-cycles => closed cycles with their dissipated energy,
// peaks, secant stiffness and equivalent damping => backbones. One pass over the samples for the energies.
// Definitions (cycle phase, closing segment, E_S for asymmetric loops) are in docs/loops.md.
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "loops_internal.h"

// (o) => default options
void hy_loops_opts_default(hy_loops_opts *o)
{
    o->threshold = 0.0;
    o->amp_tol = 0.05;
}

// (L) => memory released
void hy_loops_free(hy_loops *L)
{
    if (!L)
        return;
    free(L->rev);
    free(L->half);
    free(L->cyc);
    hy_loops_curve_free(&L->backbone_pos);
    hy_loops_curve_free(&L->backbone_neg);
    memset(L, 0, sizeof *L);
}

// (reversals, direction after the last) => half-cycles covering samples 0..n-1 (energies filled later)
static int build_halfcycles(const double *q, size_t n, hy_loops *L, int dir_end, hy_err *err)
{
    /* Boundaries: start, every reversal, end. With no reversal the record is one half-cycle if q moved by
     * more than the threshold at all (dir_end != 0), else there is none. */
    size_t nh = L->n_rev > 0 ? L->n_rev + 1 : (dir_end != 0 ? 1 : 0);
    L->n_half = 0;
    if (nh == 0)
        return HY_OK;
    L->half = calloc(nh, sizeof *L->half);
    if (!L->half)
        return hy_err_set(err, HY_ENOMEM, "out of memory storing %zu half-cycles", nh);
    for (size_t h = 0; h < nh; h++) {
        hy_halfcycle *c = &L->half[h];
        c->i0 = h == 0 ? 0 : L->rev[h - 1].i;
        c->i1 = h < L->n_rev ? L->rev[h].i : n - 1;
        /* a half-cycle ending at a maximum rises; the one after the last reversal moves away from it */
        if (h < L->n_rev)
            c->dir = L->rev[h].kind;
        else
            c->dir = L->n_rev > 0 ? -L->rev[L->n_rev - 1].kind : dir_end;
        c->range = fabs(q[c->i1] - q[c->i0]);
    }
    L->n_half = nh;
    return HY_OK;
}

// (q, Q, i0, i1) => trapezoid integral of Q dq from sample i0 to i1; Q extremes over those samples
static double trapezoid(const double *q, const double *Q, size_t i0, size_t i1, double *Qmin, double *Qmax)
{
    double e = 0.0, lo = Q[i0], hi = Q[i0];
    for (size_t i = i0 + 1; i <= i1; i++) {
        e += 0.5 * (Q[i] + Q[i - 1]) * (q[i] - q[i - 1]);
        if (Q[i] < lo) lo = Q[i];
        if (Q[i] > hi) hi = Q[i];
    }
    *Qmin = lo;
    *Qmax = hi;
    return e;
}

/* Cycles run from a reversal to the next reversal of the same kind and do not overlap: the first starts at
 * the first reversal, the next where it ends (half-cycles 2c+1 and 2c+2). The energy closes the path with the
 * straight segment from the end point back to the start point, so it is the area enclosed by the polygon of
 * the samples (shoelace), positive for a clockwise loop in the (q, Q) plane, as dissipation is. */
// (q, Q, half-cycles with energies and Q extremes) => L->cyc
static int build_cycles(const double *q, const double *Q, hy_loops *L, const double *hQmin, const double *hQmax,
                        hy_err *err)
{
    size_t nc = L->n_rev >= 3 ? (L->n_rev - 1) / 2 : 0;
    L->n_cyc = 0;
    if (nc == 0)
        return HY_OK;
    L->cyc = calloc(nc, sizeof *L->cyc);
    if (!L->cyc)
        return hy_err_set(err, HY_ENOMEM, "out of memory storing %zu cycles", nc);
    double cum = 0.0;
    for (size_t c = 0; c < nc; c++) {
        const hy_halfcycle *a = &L->half[2 * c + 1], *b = &L->half[2 * c + 2];
        hy_cycle *y = &L->cyc[c];
        y->i0 = a->i0;
        y->i1 = b->i1;
        /* Within a half-cycle q stays between its end points (hy_loops_reversals), so the extremes of q in
         * the cycle are among its three reversals. */
        size_t i_mid = a->i1, i_hi, i_lo;
        if (a->dir > 0) {          /* min -> max -> min */
            i_hi = i_mid;
            i_lo = q[y->i1] < q[y->i0] ? y->i1 : y->i0;
        } else {                   /* max -> min -> max */
            i_lo = i_mid;
            i_hi = q[y->i1] > q[y->i0] ? y->i1 : y->i0;
        }
        y->i_qmax = i_hi;
        y->i_qmin = i_lo;
        y->amp_pos = q[i_hi];
        y->amp_neg = -q[i_lo];
        y->Q_max = hQmax[2 * c + 1] > hQmax[2 * c + 2] ? hQmax[2 * c + 1] : hQmax[2 * c + 2];
        y->Q_min = hQmin[2 * c + 1] < hQmin[2 * c + 2] ? hQmin[2 * c + 1] : hQmin[2 * c + 2];
        double closing = 0.5 * (Q[y->i1] + Q[y->i0]) * (q[y->i0] - q[y->i1]);
        y->energy = a->energy + b->energy + closing;
        cum += y->energy;
        y->cum_energy = cum;
        y->k_sec = (Q[i_hi] - Q[i_lo]) / (q[i_hi] - q[i_lo]);
        /* E_S: mean of the two triangle areas 1/2 Q(q_max) q_max and 1/2 Q(q_min) q_min; for a symmetric loop
         * it is the classical 1/2 F A (Chopra, Dynamics of Structures, sec. 3.8). */
        y->e_strain = 0.25 * (Q[i_hi] * q[i_hi] + Q[i_lo] * q[i_lo]);
        y->xi_eq = y->e_strain > 0 ? y->energy / (4.0 * M_PI * y->e_strain) : NAN;
    }
    L->n_cyc = nc;
    return HY_OK;
}

// (q[n], Q[n], options) => reversals, half-cycles, cycles, energies, backbones
int hy_loops_analyze(const double *q, const double *Q, size_t n, const hy_loops_opts *o, hy_loops *L,
                     hy_err *err)
{
    if (!L)
        return hy_err_set(err, HY_EARG, "no result record given");
    memset(L, 0, sizeof *L);
    if (!q || !Q)
        return hy_err_set(err, HY_EARG, "no samples given");
    if (n < 3)
        return hy_err_set(err, HY_EDATA, "loop analysis needs at least 3 samples, got %zu", n);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(Q[i]))
            return hy_err_set(err, HY_EDATA, "sample %zu: Q is not a finite number", i + 1);
    hy_loops_opts def;
    if (!o) {
        hy_loops_opts_default(&def);
        o = &def;
    }
    if (!isfinite(o->threshold))
        return hy_err_set(err, HY_EARG, "reversal threshold must be finite, got %g", o->threshold);
    hy_loops_thr t;
    int rc = hy_loops_default_threshold(q, n, &t, err);
    if (rc)
        return rc;
    L->threshold = t.threshold;
    L->threshold_rule = t.rule;
    L->noise = t.noise;
    L->noise_factor = t.noise_factor;
    L->noise_ratio = t.noise_ratio;
    L->range = t.range;
    if (L->range == 0) {
        memset(L, 0, sizeof *L);
        return hy_err_set(err, HY_EDATA, "q is constant (%g) over all %zu samples: there are no loops to analyse",
                          q[0], n);
    }
    if (o->threshold > 0) {
        L->threshold = o->threshold;
        L->threshold_rule = HY_LOOPS_THR_USER;
    }
    L->n = n;

    int dir_end = 0;
    double *hQ = NULL;
    if ((rc = hy_loops_reversals(q, n, L->threshold, &L->rev, &L->n_rev, &dir_end, err)))
        goto fail;
    if ((rc = build_halfcycles(q, n, L, dir_end, err)))
        goto fail;
    /* One pass over the samples: half-cycle energies and force extremes; their sum is the open-path total. */
    hQ = malloc((2 * L->n_half + 1) * sizeof *hQ);
    if (!hQ) {
        rc = hy_err_set(err, HY_ENOMEM, "out of memory analysing %zu half-cycles", L->n_half);
        goto fail;
    }
    double *hQmin = hQ, *hQmax = hQ + L->n_half;
    if (L->n_half > 0) {
        double total = 0.0;
        for (size_t h = 0; h < L->n_half; h++) {
            hy_halfcycle *c = &L->half[h];
            c->energy = trapezoid(q, Q, c->i0, c->i1, &hQmin[h], &hQmax[h]);
            total += c->energy;
        }
        L->total_energy = total;
    } else {
        double lo, hi;
        L->total_energy = trapezoid(q, Q, 0, n - 1, &lo, &hi);
    }
    if ((rc = build_cycles(q, Q, L, hQmin, hQmax, err)))
        goto fail;
    if ((rc = hy_loops_backbone_build(q, Q, L, err)))
        goto fail;
    free(hQ);
    return HY_OK;
fail:
    free(hQ);
    hy_loops_free(L);
    return rc;
}

// Loop analysis pipeline: threshold => reversals => inner loops and major reversals => half-cycles => cycle
// boundaries => closed cycles with their dissipated energy, peaks, secant stiffness and equivalent damping =>
// backbones. Definitions (cycle boundaries, closing segment, E_S for asymmetric loops) are in docs/loops.md.
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "loops_internal.h"

// (o) => default options
void hy_loops_opts_default(hy_loops_opts *o)
{
    o->threshold = 0.0;
    o->amp_tol = 0.05;
    o->center = 0.0;
}

// (L) => memory released
void hy_loops_free(hy_loops *L)
{
    if (!L)
        return;
    free(L->rev);
    free(L->inner);
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

// (q, Q, i0, i1) => trapezoid integral of Q dq from sample i0 to i1
static double trapezoid(const double *q, const double *Q, size_t i0, size_t i1)
{
    double e = 0.0;
    for (size_t i = i0 + 1; i <= i1; i++)
        e += 0.5 * (Q[i] + Q[i - 1]) * (q[i] - q[i - 1]);
    return e;
}

// (rule) => its name
const char *hy_loops_cycle_rule_name(int rule)
{
    switch (rule) {
    case HY_LOOPS_CYC_CROSSING:  return "center-crossing";
    case HY_LOOPS_CYC_ONE_SIDED: return "one-sided";
    }
    return "unknown";
}

// (q, samples i0..i1, side s) => first sample with the most extreme s q (s = +1: largest q, -1: smallest)
static size_t arg_extreme(const double *q, size_t i0, size_t i1, int s)
{
    size_t k = i0;
    for (size_t i = i0 + 1; i <= i1; i++)
        if (s * q[i] > s * q[k])
            k = i;
    return k;
}

// (q, first sample i >= 1 with q >= c after samples below c) => i or i - 1, whichever is nearer to c (ties: i)
static size_t nearest(const double *q, size_t i, double c)
{
    return c - q[i - 1] < q[i] - c ? i - 1 : i;
}

/* Cycle boundaries, the way cyclic-test standards (ISO 16670, EN 12512, ASTM E2126) count cycles:
 * 0 -> +A -> 0 -> -A -> 0 about the centre c, using the major reversals so that noise and inner loops make no
 * extra boundary.
 * - Two-sided record: one boundary between each major minimum below c and the next major maximum, at the first
 *   upward crossing: the first sample with q >= c, or the sample before it when that one is nearer to c (on a
 *   sparse or digitised record the crossing can be a jump of half the amplitude; Hys1 rows 233-234 go from -2.07
 *   to +45.43). Later crossings by noise or an inner loop do not count. The start acts as a minimum when the
 *   record starts by rising: below c it gives the crossing as usual, within h above c the start itself is a
 *   boundary. The end acts as the maximum after the last major minimum: its crossing if any, else the end
 *   itself when q is back within h of c.
 * - One-sided record (q never goes more than h beyond c on one side): boundaries at the major minima (positive
 *   side; major maxima on the negative side); the start and the end count as such an extreme (at the lowest
 *   sample before the first / after the last major reversal) when they are back within h of c.
 * Boundaries increase strictly: each lies between a major minimum and the following maximum. */
// (q[n], major reversals, centre, threshold) => L->cycle_rule, L->cycle_side, boundaries b[] (sample indices); count
static size_t cycle_bounds(const double *q, size_t n, hy_loops *L, size_t *b)
{
    double c = L->center, h = L->threshold, lo = q[0], hi = q[0];
    for (size_t i = 1; i < n; i++) {
        if (q[i] < lo) lo = q[i];
        if (q[i] > hi) hi = q[i];
    }
    int side = lo >= c - h ? +1 : hi <= c + h ? -1 : 0;
    L->cycle_side = side;
    L->cycle_rule = side ? HY_LOOPS_CYC_ONE_SIDED : HY_LOOPS_CYC_CROSSING;
    size_t first = L->n_rev, last = 0, nb = 0;
    for (size_t k = 0; k < L->n_rev; k++)
        if (L->rev[k].major) {
            if (first == L->n_rev)
                first = k;
            last = k;
        }
    if (first == L->n_rev)
        return 0;
    if (side == 0) {
        if (L->rev[first].kind > 0) {
            if (q[0] < c) {
                for (size_t i = 1; i <= L->rev[first].i; i++)
                    if (q[i] >= c) {
                        b[nb++] = nearest(q, i, c);
                        break;
                    }
            } else if (q[0] <= c + h) {
                b[nb++] = 0;
            }
        }
        for (size_t k = first; k <= last; k++) {
            const hy_reversal *r = &L->rev[k];
            if (!r->major || r->kind > 0 || !(q[r->i] < c))
                continue;
            size_t next = k + 1;           /* the next major reversal, a maximum, or none */
            while (next <= last && !L->rev[next].major)
                next++;
            size_t end = next <= last ? L->rev[next].i : n - 1, i;
            for (i = r->i + 1; i <= end && q[i] < c; i++)
                ;
            if (i <= end)
                b[nb++] = nearest(q, i, c);
            else if (next > last && q[n - 1] >= c - h)
                b[nb++] = n - 1;
        }
    } else {
        if (L->rev[first].kind == side) {
            size_t i = arg_extreme(q, 0, L->rev[first].i, -side);
            if (side * (q[i] - c) <= h)
                b[nb++] = i;
        }
        for (size_t k = first; k <= last; k++)
            if (L->rev[k].major && L->rev[k].kind == -side)
                b[nb++] = L->rev[k].i;
        if (L->rev[last].kind == side) {
            size_t i = arg_extreme(q, L->rev[last].i, n - 1, -side);
            if (side * (q[i] - c) <= h)
                b[nb++] = i;
        }
    }
    return nb;
}

/* Each cycle runs from one boundary to the next (cycles do not overlap). Its energy closes the path with the
 * straight segment from the end point back to the start point, so it is the area enclosed by the polygon of the
 * samples (shoelace), positive for a clockwise loop in the (q, Q) plane, as dissipation is; with boundaries at
 * crossings of c the segment is nearly vertical and adds almost nothing. Inner loops inside a cycle are part of
 * its path and so of its energy. */
// (q, Q, major reversals, inner loops, centre, threshold) => L->cyc, the inner loops' cycle
static int build_cycles(const double *q, const double *Q, size_t n, hy_loops *L, hy_err *err)
{
    L->n_cyc = 0;
    size_t *b = malloc((L->n_major + 2) * sizeof *b);
    if (!b)
        return hy_err_set(err, HY_ENOMEM, "out of memory placing the cycle boundaries");
    size_t nb = cycle_bounds(q, n, L, b);
    size_t nc = nb >= 2 ? nb - 1 : 0;
    if (nc == 0) {
        free(b);
        return HY_OK;
    }
    L->cyc = calloc(nc, sizeof *L->cyc);
    if (!L->cyc) {
        free(b);
        return hy_err_set(err, HY_ENOMEM, "out of memory storing %zu cycles", nc);
    }
    double cum = 0.0, c = L->center;
    for (size_t k = 0; k < nc; k++) {
        hy_cycle *y = &L->cyc[k];
        size_t i0 = b[k], i1 = b[k + 1], i_hi = i0, i_lo = i0;
        double e = 0.0, Qlo = Q[i0], Qhi = Q[i0];
        for (size_t i = i0 + 1; i <= i1; i++) {
            e += 0.5 * (Q[i] + Q[i - 1]) * (q[i] - q[i - 1]);
            if (Q[i] < Qlo) Qlo = Q[i];
            if (Q[i] > Qhi) Qhi = Q[i];
            if (q[i] > q[i_hi]) i_hi = i;   /* strict: the first sample of a flat top, as for the reversals */
            if (q[i] < q[i_lo]) i_lo = i;
        }
        y->i0 = i0;
        y->i1 = i1;
        y->i_qmax = i_hi;
        y->i_qmin = i_lo;
        y->amp_pos = q[i_hi] - c;
        y->amp_neg = c - q[i_lo];
        y->Q_max = Qhi;
        y->Q_min = Qlo;
        y->energy = e + 0.5 * (Q[i1] + Q[i0]) * (q[i0] - q[i1]);
        cum += y->energy;
        y->cum_energy = cum;
        y->k_sec = q[i_hi] > q[i_lo] ? (Q[i_hi] - Q[i_lo]) / (q[i_hi] - q[i_lo]) : NAN;
        /* E_S: mean of the two triangle areas 1/2 Q(q_max) (q_max - c) and 1/2 Q(q_min) (q_min - c); for a
         * symmetric loop it is the classical 1/2 F A (Chopra, Dynamics of Structures, sec. 3.8). */
        y->e_strain = 0.25 * (Q[i_hi] * (q[i_hi] - c) + Q[i_lo] * (q[i_lo] - c));
        y->xi_eq = y->e_strain > 0 ? y->energy / (4.0 * M_PI * y->e_strain) : NAN;
    }
    /* Inner loops (by i0) to cycles (by i0): an inner loop never straddles a boundary (docs/loops.md). */
    for (size_t j = 0, k = 0; j < L->n_inner; j++) {
        hy_inner_loop *in = &L->inner[j];
        while (k < nc && L->cyc[k].i1 <= in->i0)
            k++;
        if (k < nc && L->cyc[k].i0 <= in->i0) {
            in->cycle = k;
            L->cyc[k].n_inner++;
        }
    }
    L->n_cyc = nc;
    free(b);
    return HY_OK;
}

// (q[n], Q[n], options) => reversals, inner loops, half-cycles, cycles, energies, backbones
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
    int orc = hy_loops_opts_resolve(&o, &def, err);
    if (orc != HY_OK)
        return orc;
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
    L->center = o->center;

    int dir_end = 0;
    if ((rc = hy_loops_reversals(q, n, L->threshold, &L->rev, &L->n_rev, &dir_end, err)))
        goto fail;
    if ((rc = hy_loops_inner_build(q, Q, n, L, err)))
        goto fail;
    if ((rc = build_halfcycles(q, n, L, dir_end, err)))
        goto fail;
    /* Half-cycle energies; their sum is the open-path total. */
    if (L->n_half > 0) {
        double total = 0.0;
        for (size_t h = 0; h < L->n_half; h++) {
            hy_halfcycle *c = &L->half[h];
            c->energy = trapezoid(q, Q, c->i0, c->i1);
            total += c->energy;
        }
        L->total_energy = total;
    } else {
        L->total_energy = trapezoid(q, Q, 0, n - 1);
    }
    if ((rc = build_cycles(q, Q, n, L, err)))
        goto fail;
    if ((rc = hy_loops_backbone_build(q, Q, L, err)))
        goto fail;
    return HY_OK;
fail:
    hy_loops_free(L);
    return rc;
}

int hy_loops_opts_resolve(const hy_loops_opts **o, hy_loops_opts *def, hy_err *err)
{
    if (!*o) {
        hy_loops_opts_default(def);
        *o = def;
    }
    if (!isfinite((*o)->threshold))
        return hy_err_set(err, HY_EARG, "reversal threshold must be finite, got %g", (*o)->threshold);
    if (!isfinite((*o)->center))
        return hy_err_set(err, HY_EARG, "centre of the motion must be finite, got %g", (*o)->center);
    return HY_OK;
}

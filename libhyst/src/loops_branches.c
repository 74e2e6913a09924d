// Branches of the limit (outermost) loop, split into forward (|q| growing) and backward (|q| shrinking) parts on
// each side, for the piecewise-linear fit (spec 000 §2: branches numbered by growing |q| from the origin) and
// the kinematic fit (spec 002: forward and reverse processes of the limit cycle). Rules in hyst/loops.h.
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "loops_internal.h"

// (B) => memory released
void hy_branches_free(hy_branches *B)
{
    if (!B)
        return;
    hy_loops_curve_free(&B->fwd_pos);
    hy_loops_curve_free(&B->bwd_pos);
    hy_loops_curve_free(&B->fwd_neg);
    hy_loops_curve_free(&B->bwd_neg);
    memset(B, 0, sizeof *B);
}

// (q, Q, samples i0..i1, side s) => points with s q > 0 appended to c (c NULL: only counted); returns the count
static size_t take_side(const double *q, const double *Q, size_t i0, size_t i1, int s, hy_curve *c)
{
    size_t k = 0;
    for (size_t i = i0; i <= i1; i++) {
        if (s * q[i] > 0) {
            if (c) {
                c->q[c->n] = q[i];
                c->Q[c->n] = Q[i];
                c->n++;
            }
            k++;
        }
    }
    return k;
}

/* Side s (+1 positive, -1 negative): the outward half-cycles (dir == s) whose peak reaches (1 - amp_tol) of
 * the side's largest peak; the forward branch is their part on that side, the backward branch the part of the
 * following half-cycle on that side. Two passes: count, then fill. */
// (q, Q, analysis, side) => forward and backward curves of that side, number of cycles used, limit amplitude
static int side_branches(const double *q, const double *Q, const hy_loops *L, double amp_tol, int s,
                         hy_curve *fwd, hy_curve *bwd, size_t *ncyc, double *amp)
{
    double big = 0.0;
    for (size_t h = 0; h < L->n_half; h++)
        if (L->half[h].dir == s && s * q[L->half[h].i1] > big)
            big = s * q[L->half[h].i1];
    *amp = big;
    *ncyc = 0;
    if (big <= 0)
        return 0;
    double need = (1.0 - amp_tol) * big;
    /* The first half-cycle loads from the initial state, not from a reversal (a virgin curve): use it only
     * when nothing else qualifies. */
    size_t first = 0, used = 0;
    for (size_t h = 1; h < L->n_half; h++)
        if (L->half[h].dir == s && s * q[L->half[h].i1] >= need)
            used++;
    if (used > 0)
        first = 1;
    size_t nf = 0, nb = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && (hy_loops_curve_alloc(fwd, nf) || hy_loops_curve_alloc(bwd, nb)))
            return -1;
        for (size_t h = first; h < L->n_half; h++) {
            const hy_halfcycle *c = &L->half[h];
            if (c->dir != s || s * q[c->i1] < need)
                continue;
            if (pass == 0) {
                nf += take_side(q, Q, c->i0, c->i1, s, NULL);
                if (h + 1 < L->n_half)
                    nb += take_side(q, Q, L->half[h + 1].i0, L->half[h + 1].i1, s, NULL);
                (*ncyc)++;
            } else {
                take_side(q, Q, c->i0, c->i1, s, fwd);
                if (h + 1 < L->n_half)
                    take_side(q, Q, L->half[h + 1].i0, L->half[h + 1].i1, s, bwd);
            }
        }
    }
    return 0;
}

// (q[n], Q[n], analysis) => branches of the limit loop(s)
int hy_loops_branches(const double *q, const double *Q, size_t n, const hy_loops *L, const hy_loops_opts *o,
                      hy_branches *B, hy_err *err)
{
    if (!B)
        return hy_err_set(err, HY_EARG, "no result record given");
    memset(B, 0, sizeof *B);
    if (!q || !Q || !L)
        return hy_err_set(err, HY_EARG, "no samples or no analysis given");
    if (L->n != n || (L->n_half > 0 && L->half[L->n_half - 1].i1 >= n))
        return hy_err_set(err, HY_EARG, "the analysis covers %zu samples, the record has %zu", L->n, n);
    double tol = o ? o->amp_tol : 0.05;
    if (!(tol >= 0 && tol < 1))
        return hy_err_set(err, HY_EARG, "amplitude tolerance must be in [0, 1), got %g", tol);
    if (L->n_half == 0)
        return hy_err_set(err, HY_EDATA, "q never moves by more than the threshold %g: there is no branch to extract",
                          L->threshold);
    if (side_branches(q, Q, L, tol, +1, &B->fwd_pos, &B->bwd_pos, &B->cycles_pos, &B->amp_pos) ||
        side_branches(q, Q, L, tol, -1, &B->fwd_neg, &B->bwd_neg, &B->cycles_neg, &B->amp_neg)) {
        hy_branches_free(B);
        return hy_err_set(err, HY_ENOMEM, "out of memory extracting the branches of %zu samples", n);
    }
    return HY_OK;
}

/* Step 1 of the table fit: the forward and backward branches of each side, in mirrored coordinates (see
 * hyst/pwlfit.h). Constant kind: the limit loop of the loop analysis, as a set of loops (an outward half-cycle to
 * its peak and the half-cycle after it). By default every loop whose amplitude on that side is within amp_tol of
 * the largest contributes, so repeated cycles are used together (the rule of hy_loops_branches, whose samples
 * these are, in the same order). When that leaves a branch too short - a record with one cycle per amplitude, as
 * cyclic test standards prescribe - hy_pwlfit_branches_widen takes in the next largest loops, one amplitude at
 * a time, until both branches have enough samples (docs/fit-pwl.md, step 1). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/pwlfit.h"

static void limit_free(hy_pwlfit_limit *lim)
{
    free(lim->loops);
    lim->loops = NULL;
    lim->n_loops = 0;
}

// (bs) => memory released
void hy_pwlfit_branchset_free(hy_pwlfit_branchset *bs)
{
    if (!bs)
        return;
    for (int s = 0; s < 2; s++) {
        hy_pwlfit_data_free(&bs->F[s]);
        hy_pwlfit_data_free(&bs->B[s]);
        limit_free(&bs->limit[s]);
    }
    memset(bs, 0, sizeof *bs);
}

// (q, Q, samples i0..i1, side sign) => samples with sg q > 0 appended to (bq, bQ) (NULL: only counted); count
static size_t take_side(const double *q, const double *Q, size_t i0, size_t i1, double sg, double *bq, double *bQ,
                        size_t w)
{
    size_t k = 0;
    for (size_t i = i0; i <= i1; i++)
        if (sg * q[i] > 0) {
            if (bq) {
                bq[w + k] = q[i];
                bQ[w + k] = Q[i];
            }
            k++;
        }
    return k;
}

// (analysis, sample) => 0-based cycle holding it, HY_LOOPS_NONE outside every cycle
static size_t cycle_of(const hy_loops *L, size_t i)
{
    size_t lo = 0, hi = L->n_cyc;   /* cycles are consecutive: the last one starting at or before i */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (L->cyc[mid].i0 <= i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && i <= L->cyc[lo - 1].i1 ? lo - 1 : HY_LOOPS_NONE;
}

/* Side s: the outward half-cycles (dir = sign of the side) whose peak reaches `need`; the first half-cycle
 * (loading from the initial state, a virgin curve) only when no other qualifies. Forward branch: their samples
 * on the side; backward branch: those of the half-cycle after each. Two passes: count, then fill. With
 * count_only the branch data are not built, only lim->n_loops and the counts (*nF, *nB) are set. */
static int side_select(const double *q, const double *Q, const hy_loops *L, int s, double need, int count_only,
                       hy_pwlfit_branchset *bs, size_t *nF, size_t *nB, hy_err *err)
{
    double sg = s ? -1.0 : 1.0;
    int dir = s ? -1 : 1;
    size_t first = 0;
    for (size_t h = 1; h < L->n_half; h++)
        if (L->half[h].dir == dir && sg * q[L->half[h].i1] >= need) {
            first = 1;
            break;
        }
    size_t nf = 0, nb = 0, nl = 0;
    double *buf = NULL;
    hy_pwlfit_loop *loops = NULL;
    for (int pass = 0; pass < 1 + !count_only; pass++) {
        if (pass == 1) {
            buf = malloc(2 * (nf + nb + 1) * sizeof *buf);
            loops = malloc((nl + 1) * sizeof *loops);
            if (!buf || !loops) {
                free(buf);
                free(loops);
                return hy_err_set(err, HY_ENOMEM, "piecewise-linear fit: out of memory for the limit loop");
            }
            nf = nb = nl = 0;
        }
        for (size_t h = first; h < L->n_half; h++) {
            const hy_halfcycle *c = &L->half[h];
            if (c->dir != dir || sg * q[c->i1] < need)
                continue;
            size_t kf = take_side(q, Q, c->i0, c->i1, sg, NULL, NULL, 0), kb = 0;
            if (h + 1 < L->n_half)
                kb = take_side(q, Q, L->half[h + 1].i0, L->half[h + 1].i1, sg, NULL, NULL, 0);
            if (pass == 1) {
                hy_pwlfit_loop *lp = &loops[nl];
                lp->i0 = c->i0;
                lp->i_peak = c->i1;
                lp->i1 = h + 1 < L->n_half ? L->half[h + 1].i1 : c->i1;
                lp->cycle = cycle_of(L, c->i1);
                lp->amplitude = sg * q[c->i1];
                lp->n_F = kf;
                lp->n_B = kb;
            }
            nf += kf;
            nb += kb;
            nl++;
        }
    }
    *nF = nf;
    *nB = nb;
    if (count_only)
        return HY_OK;
    /* forward samples first, then backward ones, each in record order */
    double *Fq = buf, *FQ = buf + nf, *Bq = buf + 2 * nf, *BQ = buf + 2 * nf + nb;
    size_t wf = 0, wb = 0;
    for (size_t k = 0; k < nl; k++) {
        const hy_pwlfit_loop *lp = &loops[k];
        wf += take_side(q, Q, lp->i0, lp->i_peak, sg, Fq, FQ, wf);
        if (lp->i1 > lp->i_peak)
            wb += take_side(q, Q, lp->i_peak, lp->i1, sg, Bq, BQ, wb);
    }
    hy_pwlfit_data_free(&bs->F[s]);
    hy_pwlfit_data_free(&bs->B[s]);
    hy_pwlfit_part pf = {Fq, FQ, wf, sg}, pb = {Bq, BQ, wb, sg};
    int rc = hy_pwlfit_data_build(&bs->F[s], &pf, 1, err);
    if (rc == HY_OK)
        rc = hy_pwlfit_data_build(&bs->B[s], &pb, 1, err);
    free(buf);
    limit_free(&bs->limit[s]);
    if (rc) {
        free(loops);
        return rc;
    }
    bs->limit[s].loops = loops;
    bs->limit[s].n_loops = nl;
    bs->cycles[s] = nl;
    return HY_OK;
}

// (analysis, side) => largest peak of the side's outward half-cycles (0 when it never goes there)
static double side_amplitude(const double *q, const hy_loops *L, int s)
{
    double sg = s ? -1.0 : 1.0, big = 0.0;
    int dir = s ? -1 : 1;
    for (size_t h = 0; h < L->n_half; h++)
        if (L->half[h].dir == dir && sg * q[L->half[h].i1] > big)
            big = sg * q[L->half[h].i1];
    return big;
}

// (q, Q, analysis) => limit-loop branches of both sides
int hy_pwlfit_branches(const double *q, const double *Q, size_t n, const hy_loops *L, const hy_loops_opts *o,
                       hy_pwlfit_branchset *bs, hy_err *err)
{
    memset(bs, 0, sizeof *bs);
    if (!q || !Q || !L || L->n != n)
        return hy_err_set(err, HY_EARG, "piecewise-linear fit: no samples, or an analysis of another record");
    double tol = o ? o->amp_tol : 0.05;
    if (!(tol >= 0 && tol < 1))
        return hy_err_set(err, HY_EARG, "amplitude tolerance must be in [0, 1), got %g", tol);
    if (L->n_half == 0)
        return hy_err_set(err, HY_EDATA, "q never moves by more than the threshold %g: there is no branch to extract",
                          L->threshold);
    for (int s = 0; s < 2; s++) {
        double big = side_amplitude(q, L, s);
        bs->amp[s] = big;
        bs->limit[s].rule = HY_PWLFIT_LIMIT_DEFAULT;
        bs->limit[s].amp_tol = tol;
        bs->limit[s].amplitude = big;
        size_t nF = 0, nB = 0;
        int rc = big > 0 ? side_select(q, Q, L, s, (1.0 - tol) * big, 0, bs, &nF, &nB, err) : HY_OK;
        if (rc) {
            hy_pwlfit_branchset_free(bs);
            return rc;
        }
    }
    return HY_OK;
}

// (q, Q, analysis, side) => side s widened one amplitude at a time until both branches have min_samples
int hy_pwlfit_branches_widen(const double *q, const double *Q, const hy_loops *L, int s, size_t min_samples,
                             double max_tol, hy_pwlfit_branchset *bs, hy_err *err)
{
    hy_pwlfit_limit *lim = &bs->limit[s];
    double big = lim->amplitude, sg = s ? -1.0 : 1.0;
    int dir = s ? -1 : 1;
    if (!(big > 0))
        return HY_OK;   /* the record never goes to this side: nothing to widen */
    size_t nF0 = bs->F[s].n, nB0 = bs->B[s].n;
    double tol0 = lim->amp_tol;
    /* candidate thresholds: the peaks below the current one, largest first, down to (1 - max_tol) x big */
    double floor_amp = (1.0 - max_tol) * big, need = (1.0 - tol0) * big;
    size_t nF = nF0, nB = nB0;
    int widened = 0;
    while (nF < min_samples || nB < min_samples) {
        double next = -INFINITY;
        for (size_t h = 0; h < L->n_half; h++) {
            double a = sg * q[L->half[h].i1];
            if (L->half[h].dir == dir && a < need && a >= floor_amp && a > next)
                next = a;
        }
        if (!isfinite(next))
            break;   /* no smaller loop within max_tol: the widest set stays */
        need = next;
        widened = 1;
        int rc = side_select(q, Q, L, s, need, 1, bs, &nF, &nB, err);
        if (rc)
            return rc;
    }
    if (!widened)
        return HY_OK;
    int rc = side_select(q, Q, L, s, need, 0, bs, &nF, &nB, err);
    if (rc)
        return rc;
    lim->rule = HY_PWLFIT_LIMIT_WIDENED;
    lim->amp_tol = 1.0 - need / big;
    lim->amp_tol0 = tol0;
    lim->n_F0 = nF0;
    lim->n_B0 = nB0;
    return HY_OK;
}

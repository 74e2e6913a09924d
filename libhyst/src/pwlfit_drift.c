/* Friction kind (spec 000 §3): the brake slips at constant force beyond the last point, and at the rate reversal
 * after a slip every abscissa of the table moves by the irreversible displacement
 *     after positive slip  delta = q_max - q_FP(N),   after negative slip  delta = q_min - q_FN(N)   (§3 item 2),
 * applied to the current (already moved) table, so the total shift after a slip is s = q_rev - x_N of that side
 * whatever happened before. A record of such a mechanism drifts; its branches line up only in the moved-back
 * coordinate q - s. Given the two plateau onsets x_N (positive side, and the negative side as a positive number)
 * the shift of every sample follows from the reversals alone. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/pwlfit.h"

// (q, reversals, plateau onsets) => shift of every sample; number of slip events
size_t hy_pwlfit_drift_shift(const double *q, size_t n, const hy_loops *L, const double xN[2], double *shift)
{
    double s = 0.0;
    size_t slips = 0, i = 0;
    for (size_t r = 0; r <= L->n_rev; r++) {
        size_t end = r < L->n_rev ? L->rev[r].i : n - 1;   /* the reversal sample keeps the shift it was reached with */
        for (; i <= end && i < n; i++)
            shift[i] = s;
        if (r == L->n_rev)
            break;
        double qr = q[L->rev[r].i];
        if (L->rev[r].kind > 0 && qr - s > xN[0]) {          /* positive slip: reached beyond x_N+ */
            s = qr - xN[0];
            slips++;
        } else if (L->rev[r].kind < 0 && qr - s < -xN[1]) {  /* negative slip */
            s = qr + xN[1];
            slips++;
        }
    }
    for (; i < n; i++)
        shift[i] = s;
    return slips;
}

// (samples i0..i1, side sign, shifts) => count of samples with sg (q - s) > 0; appended to u/P when given
static size_t take(const double *q, const double *Q, const double *shift, size_t i0, size_t i1, double sg, double *u,
                   double *P, size_t k)
{
    for (size_t i = i0; i <= i1; i++) {
        double v = sg * (q[i] - shift[i]);
        if (v > 0) {
            if (u) {
                u[k] = v;
                P[k] = sg * Q[i];
            }
            k++;
        }
    }
    return k;
}

/* Side s. F: the part on the side of every outward half-cycle (dir == sign) that starts at rest or on the other
 * side - it crosses the common region and so traces F from the origin whatever its amplitude; this includes the
 * first loading from rest, before any slip, which fixes where the origin of the moved table lies (without it the
 * whole table could slide, trading backlash and x_N between the sides). B: the part on the side of the half-cycle
 * after a limit reversal (end within amp_tol of the largest, or a slip); after a smaller reversal the record runs
 * on the transition segment first. */
static int side_branches(const double *q, const double *Q, const hy_loops *L, const double *shift, double amp_tol,
                         int s, hy_pwlfit_branchset *bs, hy_err *err)
{
    double sg = s ? -1.0 : 1.0, big = 0.0;
    int dir = s ? -1 : 1;
    for (size_t h = 0; h < L->n_half; h++) {
        const hy_halfcycle *c = &L->half[h];
        double e = sg * (q[c->i1] - shift[c->i1]);
        if (c->dir == dir && e > big)
            big = e;
    }
    bs->amp[s] = big;
    bs->cycles[s] = 0;
    double need = (1.0 - amp_tol) * big;
    size_t nf = 0, nb = 0;
    double *buf[4] = {NULL, NULL, NULL, NULL};
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            buf[0] = malloc((nf + 1) * sizeof(double));
            buf[1] = malloc((nf + 1) * sizeof(double));
            buf[2] = malloc((nb + 1) * sizeof(double));
            buf[3] = malloc((nb + 1) * sizeof(double));
            if (!buf[0] || !buf[1] || !buf[2] || !buf[3]) {
                for (int k = 0; k < 4; k++)
                    free(buf[k]);
                return hy_err_set(err, HY_ENOMEM, "piecewise-linear fit: out of memory");
            }
            nf = nb = 0;
        }
        for (size_t h = 0; h < L->n_half; h++) {
            const hy_halfcycle *c = &L->half[h];
            if (c->dir != dir)
                continue;
            /* where it starts, in the coordinate that holds after the reversal */
            size_t j = c->i0 + 1 <= c->i1 ? c->i0 + 1 : c->i0;
            double u0 = sg * (q[c->i0] - shift[j]);
            if (h == 0 || u0 <= 0)
                nf = take(q, Q, shift, c->i0, c->i1, sg, buf[0], buf[1], nf);
            if (sg * (q[c->i1] - shift[c->i1]) < need || h + 1 >= L->n_half)
                continue;
            /* the next half-cycle starts at the reversal sample, which still carries the old shift */
            size_t j0 = L->half[h + 1].i0 + 1;
            if (j0 <= L->half[h + 1].i1)
                nb = take(q, Q, shift, j0, L->half[h + 1].i1, sg, buf[2], buf[3], nb);
            if (pass == 0)
                bs->cycles[s]++;
        }
    }
    hy_pwlfit_part pf = {buf[0], buf[1], nf, 1.0}, pb = {buf[2], buf[3], nb, 1.0};
    int rc = hy_pwlfit_data_build(&bs->F[s], &pf, 1, err);
    if (rc == HY_OK)
        rc = hy_pwlfit_data_build(&bs->B[s], &pb, 1, err);
    for (int k = 0; k < 4; k++)
        free(buf[k]);
    return rc;
}

// (q, Q, analysis, shifts) => both sides' branches in moved-back mirrored coordinates
int hy_pwlfit_drift_branches(const double *q, const double *Q, size_t n, const hy_loops *L, const double *shift,
                             double amp_tol, hy_pwlfit_branchset *bs, hy_err *err)
{
    (void)n;
    memset(bs, 0, sizeof *bs);
    int rc = side_branches(q, Q, L, shift, amp_tol, 0, bs, err);
    if (rc == HY_OK)
        rc = side_branches(q, Q, L, shift, amp_tol, 1, bs, err);
    if (rc)
        hy_pwlfit_branchset_free(bs);
    return rc;
}

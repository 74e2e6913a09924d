/* Step 4 of the table fit: the stiffness at which the record unloads right after a reversal. The model leaves a
 * branch on a rate reversal along the transition segment of slope k_max (spec 000 §2 assumption 4); the record
 * shows the real initial unloading stiffness, measured here as the least-squares slope dQ/dq of the first `frac`
 * of every half-cycle that follows a reversal. Reversals at the limit amplitude and inner ones are kept apart. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/pwlfit.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// (q, Q, analysis, fraction, amplitude tolerance) => median unloading slopes at inner and limit reversals
void hy_pwlfit_unloading_measure(const double *q, const double *Q, size_t n, const hy_loops *L, double frac,
                                 double amp_tol, hy_pwlfit_unloading *u)
{
    memset(u, 0, sizeof *u);
    u->k_inner = u->k_limit = u->k_inner_min = u->k_inner_max = NAN;
    double amp[2] = {0, 0};
    for (size_t r = 0; r < L->n_rev; r++) {
        double v = q[L->rev[r].i];
        int s = L->rev[r].kind > 0 ? 0 : 1;
        if ((s == 0 ? v : -v) > amp[s])
            amp[s] = s == 0 ? v : -v;
    }
    double *kin = malloc((L->n_rev + 1) * sizeof *kin), *klim = malloc((L->n_rev + 1) * sizeof *klim);
    if (!kin || !klim) {
        free(kin);
        free(klim);
        return;
    }
    size_t ni = 0, nl = 0;
    for (size_t h = 0; h < L->n_half; h++) {
        const hy_halfcycle *c = &L->half[h];
        if (h == 0 || c->i1 >= n)
            continue;   /* the first half-cycle starts from rest, not from a reversal */
        double q0 = q[c->i0], lim = frac * c->range;
        double sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0;
        for (size_t i = c->i0; i <= c->i1 && fabs(q[i] - q0) <= lim; i++) {
            sx += q[i];
            sy += Q[i];
            m += 1;
        }
        if (m < 5)
            continue;
        double mx = sx / m, my = sy / m;
        for (size_t i = c->i0; i <= c->i1 && fabs(q[i] - q0) <= lim; i++) {
            sxx += (q[i] - mx) * (q[i] - mx);
            sxy += (q[i] - mx) * (Q[i] - my);
        }
        if (!(sxx > 0))
            continue;
        double k = sxy / sxx;
        int s = q0 >= 0 ? 0 : 1;   /* side of the reversal point */
        if (fabs(q0) < 0.1 * amp[s])
            continue;              /* near the origin the model has no transition (state 0) */
        int limit = fabs(q0) >= (1.0 - amp_tol) * amp[s] && (s == 0 ? c->dir < 0 : c->dir > 0);
        if (limit)
            klim[nl++] = k;
        else
            kin[ni++] = k;
    }
    u->n_inner = ni;
    u->n_limit = nl;
    if (ni > 0) {
        u->k_inner = median(kin, ni);
        u->k_inner_min = kin[0];
        u->k_inner_max = kin[ni - 1];
    }
    u->k_limit = median(klim, nl);
    free(kin);
    free(klim);
}

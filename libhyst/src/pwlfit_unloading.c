/* Step 4 of the table fit: the stiffness at which the record unloads right after a reversal. The model leaves a
 * branch on a rate reversal along the transition segment of slope k_max (spec 000 §2 assumption 4); the record
 * shows the real initial unloading stiffness. The transition is short (the force gap between the branches over
 * k_max), so a plain slope over a fixed window would mix it with the softer branch that follows: instead the
 * first `frac` of every half-cycle after a reversal is fitted with two continuous straight segments
 * (hy_pwlfit_segreg) and the first one's slope is taken. Reversals at the limit amplitude and inner ones are kept
 * apart; reversals near the origin (the common region, where the model has no transition) are skipped. */
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

// (q, Q, analysis, shifts, fraction, amplitude tolerance) => median initial slopes per side, inner and limit
void hy_pwlfit_unloading_measure(const double *q, const double *Q, size_t n, const hy_loops *L, const double *shift,
                                 double frac, double amp_tol, hy_pwlfit_unloading *u)
{
    memset(u, 0, sizeof *u);
    for (int s = 0; s < 2; s++)
        u->k_inner[s] = u->k_limit[s] = u->k_inner_min[s] = u->k_inner_max[s] = NAN;
#define UQ(i) (q[i] - (shift ? shift[i] : 0.0))
    double amp[2] = {0, 0};
    for (size_t r = 0; r < L->n_rev; r++) {
        double v = UQ(L->rev[r].i);
        int s = v >= 0 ? 0 : 1;
        amp[s] = fmax(amp[s], fabs(v));
    }
    size_t cap = L->n_half + 1;
    double *k[2][2];   /* [side][inner 0 / limit 1] */
    double *x = malloc((n + 1) * sizeof *x), *y = malloc((n + 1) * sizeof *y);
    int bad = !x || !y;
    for (int s = 0; s < 2; s++)
        for (int l = 0; l < 2; l++)
            bad |= !(k[s][l] = malloc(cap * sizeof(double)));
    size_t nk[2][2] = {{0, 0}, {0, 0}};
    for (size_t h = 1; !bad && h < L->n_half; h++) {   /* the first half-cycle starts from rest */
        const hy_halfcycle *c = &L->half[h];
        if (c->i1 >= n)
            continue;
        size_t j = c->i0 + 1 <= c->i1 ? c->i0 + 1 : c->i0;   /* shift after the reversal */
        double q0 = q[c->i0], Q0 = Q[c->i0], u0 = q0 - (shift ? shift[j] : 0.0), lim = frac * c->range;
        int s = u0 >= 0 ? 0 : 1;
        if (fabs(u0) < 0.1 * amp[s])
            continue;   /* near the origin the model has no transition (state 0) */
        size_t m = 0;
        while (c->i0 + m <= c->i1 && fabs(q[c->i0 + m] - q0) <= lim)
            m++;
        if (m < 12)
            continue;
        /* distance from the reversal and force change, both counted positive along the motion */
        for (size_t i = 0; i < m; i++) {
            x[i] = fabs(q[c->i0 + i] - q0);
            y[i] = (Q[c->i0 + i] - Q0) * (double)c->dir;
        }
        hy_pwlfit_part part = {x, y, m, 1.0};
        hy_pwlfit_data d;
        if (hy_pwlfit_data_build(&d, &part, 1, NULL) != HY_OK)
            continue;
        double t[3], v[3], sse;
        int ok = hy_pwlfit_segreg(&d, 2, 64, t, v, &sse, NULL) == HY_OK && t[1] > t[0];
        /* the first straight part is a measurement only when the sampling resolves it: at least 8 samples on it
         * and a force change of at least 5 residual standard deviations along it */
        size_t in_first = ok ? hy_pwlfit_data_find(&d, t[1]) : 0;
        hy_pwlfit_data_free(&d);
        if (!ok)
            continue;
        double sd = sqrt(sse / (double)(m > 4 ? m - 4 : 1));
        if (in_first < 8 || fabs(v[1] - v[0]) < 5 * sd) {
            u->n_unresolved[s]++;
            continue;
        }
        int limit = fabs(u0) >= (1.0 - amp_tol) * amp[s] && (s == 0 ? c->dir < 0 : c->dir > 0);
        k[s][limit][nk[s][limit]++] = (v[1] - v[0]) / (t[1] - t[0]);
    }
#undef UQ
    for (int s = 0; s < 2 && !bad; s++) {
        u->n_inner[s] = nk[s][0];
        u->n_limit[s] = nk[s][1];
        if (nk[s][0] > 0) {
            u->k_inner[s] = median(k[s][0], nk[s][0]);
            u->k_inner_min[s] = k[s][0][0];
            u->k_inner_max[s] = k[s][0][nk[s][0] - 1];
        }
        u->k_limit[s] = median(k[s][1], nk[s][1]);
    }
    for (int s = 0; s < 2; s++)
        for (int l = 0; l < 2; l++)
            free(k[s][l]);
    free(x);
    free(y);
}

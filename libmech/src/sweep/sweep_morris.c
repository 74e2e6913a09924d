/* Morris elementary effects (mech/sweep_morris.h; docs/sweep.md "Morris screening"). The base points and the key
 * orders come from the sweep's counter-based generator (mech_sweep_u01), so the design depends only on the seed. */
#include <math.h>
#include <string.h>
#include "mech/sweep.h"
#include "mech/sweep_morris.h"

int mech_morris_design(size_t r, int d, int p, uint64_t seed, double *u, int *order, hy_err *err)
{
    if (r < 2 || d < 1 || d > MECH_SWEEP_KEYS_MAX || p < 4 || p > 64 || p % 2)
        return hy_err_set(err, HY_EARG, "a Morris design needs r >= 2 trajectories, 1..%d keys and an even number of "
                          "levels 4..64 (got r = %zu, %d keys, %d levels)", MECH_SWEEP_KEYS_MAX, r, d, p);
    size_t dd = (size_t)d;
    int perm[MECH_SWEEP_KEYS_MAX];
    for (size_t t = 0; t < r; t++) {
        double *x = u + t * (dd + 1) * dd;
        for (int i = 0; i < d; i++) {   /* a base level in the lower half: l in 0 .. p/2 - 1 */
            int l = (int)(mech_sweep_u01(seed, 0x4D0000000ULL + t, (uint64_t)i) * (p / 2));
            x[i] = ((l < p / 2 ? l : p / 2 - 1) + 0.5) / p;
            perm[i] = i;
        }
        for (int i = d - 1; i > 0; i--) {   /* Fisher-Yates on the hash: the order the keys move in */
            int j = (int)(mech_sweep_u01(seed, 0x4D1000000ULL + t, (uint64_t)i) * (i + 1));
            j = j > i ? i : j;
            int s = perm[i];
            perm[i] = perm[j], perm[j] = s;
        }
        for (int k = 0; k < d; k++) {
            double *y = x + (size_t)(k + 1) * dd;
            memcpy(y, y - dd, dd * sizeof *y);
            y[perm[k]] += 0.5;   /* Delta = p/2 levels = 1/2 */
            if (order)
                order[t * dd + (size_t)k] = perm[k];
        }
    }
    return HY_OK;
}

/* (trajectory t of the design u, its outputs f, step k) => the key that step moved (its index) and its elementary
 * effect in *ee; -1 when the step has no finite effect (a failed run, or no move) */
static int morris_step(const double *u, const double *f, size_t t, int d, int k, double *ee)
{
    size_t dd = (size_t)d;
    const double *a = u + t * (dd + 1) * dd + (size_t)k * dd, *b = a + dd, *ft = f + t * (dd + 1);
    int i = 0;
    while (i < d - 1 && a[i] == b[i])
        i++;
    double delta = b[i] - a[i];
    if (!isfinite(ft[k]) || !isfinite(ft[k + 1]) || delta == 0)
        return -1;
    *ee = (ft[k + 1] - ft[k]) / delta;
    return i;
}

void mech_morris_effects(const double *f, const double *u, size_t r, int d, mech_morris_effect *out)
{
    double s[MECH_SWEEP_KEYS_MAX] = {0}, sa[MECH_SWEEP_KEYS_MAX] = {0}, s2[MECH_SWEEP_KEYS_MAX] = {0}, ee;
    long n[MECH_SWEEP_KEYS_MAX] = {0};
    for (size_t t = 0; t < r; t++)
        for (int k = 0; k < d; k++) {
            int i = morris_step(u, f, t, d, k, &ee);
            if (i >= 0)
                s[i] += ee, sa[i] += fabs(ee), n[i]++;
        }
    for (int i = 0; i < d; i++) {
        out[i].mu = n[i] ? s[i] / (double)n[i] : NAN;
        out[i].mu_star = n[i] ? sa[i] / (double)n[i] : NAN;
        out[i].n = n[i];
    }
    /* sigma in a second pass (two-pass variance: no cancellation) */
    for (size_t t = 0; t < r; t++)
        for (int k = 0; k < d; k++) {
            int i = morris_step(u, f, t, d, k, &ee);
            if (i >= 0)
                s2[i] += (ee - out[i].mu) * (ee - out[i].mu);
        }
    for (int i = 0; i < d; i++)
        out[i].sigma = n[i] > 1 ? sqrt(s2[i] / (double)(n[i] - 1)) : NAN;
}

/* Subset simulation with the modified Metropolis algorithm (mech/sweep_subset.h; Au and Beck 2001; docs/sweep.md
 * "Rare failures"). The random numbers come from the sweep's counter-based generator keyed by (level, step,
 * chain, coordinate), standard normals by GSL's inverse CDF. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include "mech/sweep.h"
#include "mech/sweep_subset.h"

enum { S_START = 0, S_WAIT0, S_PROPOSE, S_WAITC, S_DONE };

size_t mech_subset_max_evals(size_t n, double p0, int max_levels)
{
    size_t nc = (size_t)llround(p0 * (double)n);
    return n + (size_t)(max_levels - 1) * (n - nc);
}

int mech_subset_init(mech_subset *s, int d, size_t n, double p0, int max_levels, uint64_t seed, hy_err *err)
{
    memset(s, 0, sizeof *s);
    double nc = p0 * (double)n, ns = 1 / p0;
    if (d < 1 || d > MECH_SWEEP_KEYS_MAX || !(p0 > 0 && p0 <= 0.5) || fabs(nc - round(nc)) > 1e-9 || nc < 2 ||
        fabs(ns - round(ns)) > 1e-9 || max_levels < 1 || max_levels > MECH_SUBSET_LEVELS_MAX)
        return hy_err_set(err, HY_EARG, "subset simulation needs 1..%d keys, p0 in (0, 0.5] with p0 n and 1/p0 "
                          "integers (p0 n >= 2) and 1..%d levels (got %d keys, n = %zu, p0 = %g, %d levels)",
                          MECH_SWEEP_KEYS_MAX, MECH_SUBSET_LEVELS_MAX, d, n, p0, max_levels);
    s->d = d, s->n = n, s->p0 = p0, s->max_levels = max_levels, s->seed = seed;
    s->nc = (size_t)llround(nc), s->ns = (size_t)llround(ns);
    s->cap = mech_subset_max_evals(n, p0, max_levels);
    s->z = malloc(s->cap * (size_t)d * sizeof *s->z);
    s->g = malloc(s->cap * sizeof *s->g);
    s->lev = malloc(n * sizeof *s->lev);
    s->cur = malloc(s->nc * sizeof *s->cur);
    s->cand = malloc(s->nc * sizeof *s->cand);
    if (!s->z || !s->g || !s->lev || !s->cur || !s->cand) {
        mech_subset_free(s);
        return hy_err_set(err, HY_ENOMEM, "out of memory for subset simulation of %zu evaluations", s->cap);
    }
    return HY_OK;
}

void mech_subset_free(mech_subset *s)
{
    free(s->z), free(s->g), free(s->lev), free(s->cur), free(s->cand);
    s->z = s->g = NULL, s->lev = s->cur = s->cand = NULL;
}

static double gval(const mech_subset *s, size_t id)
{
    return isfinite(s->g[id]) ? s->g[id] : -INFINITY;   /* a run without a value counts as a failure */
}

static int cmp_id(const void *a, const void *b, void *ctx)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    double gx = gval(ctx, x), gy = gval(ctx, y);
    if (gx != gy)
        return gx < gy ? -1 : 1;
    return (x > y) - (x < y);
}

/* the level's squared c.o.v. for the indicator g <= b over its samples (Au & Beck eqs. 19-29) */
static double level_cov2(mech_subset *s, double b, double p)
{
    double n = (double)s->n;
    if (p <= 0)
        return NAN;
    if (s->level == 0) {
        s->gamma[0] = 0;
        return (1 - p) / (p * n);
    }
    double r0 = p * (1 - p), gam = 0;
    for (size_t k = 1; k < s->ns && r0 > 0; k++) {
        double sum = 0;
        for (size_t c = 0; c < s->nc; c++)
            for (size_t l = 0; l + k < s->ns; l++)
                sum += (gval(s, s->lev[c * s->ns + l]) <= b) * (gval(s, s->lev[c * s->ns + l + k]) <= b);
        double rk = sum / (n - (double)(k * s->nc)) - p * p;
        gam += 2 * (1 - (double)k / (double)s->ns) * rk / r0;
    }
    s->gamma[s->level] = gam;
    return (1 - p) / (p * n) * (1 + gam);
}

// (state) => chains of the finished level seeded, or the estimate when it is the last
static void close_level(mech_subset *s)
{
    size_t *o = malloc(s->n * sizeof *o);
    if (!o) {   /* keep the memory promise simple: no estimate */
        s->pf = s->cov = NAN, s->done = 1, s->state = S_DONE;
        return;
    }
    memcpy(o, s->lev, s->n * sizeof *o);
    qsort_r(o, s->n, sizeof *o, cmp_id, s);   /* by g, ties by id: the same order on every machine */
    size_t nf = 0;
    for (size_t k = 0; k < s->n; k++)
        nf += gval(s, s->lev[k]) <= 0;
    int j = s->level;
    if (nf >= s->nc || j + 1 >= s->max_levels) {   /* the last level */
        double p = (double)nf / (double)s->n;
        s->b[j] = 0, s->pj[j] = p;
        s->cov2[j] = level_cov2(s, 0, p);
        double pf = 1, c2 = 0;
        for (int l = 0; l <= j; l++)
            pf *= s->pj[l], c2 += s->cov2[l];
        s->pf = pf, s->cov = nf ? sqrt(c2) : NAN, s->levels = j + 1;
        s->done = 1, s->state = S_DONE;
        free(o);
        return;
    }
    double b = 0.5 * (gval(s, o[s->nc - 1]) + gval(s, o[s->nc]));
    if (!isfinite(b))
        b = gval(s, o[s->nc - 1]);
    s->b[j] = b, s->pj[j] = s->p0;
    s->cov2[j] = level_cov2(s, b, s->p0);
    for (size_t c = 0; c < s->nc; c++) {   /* chain c starts at the c-th smallest g: its state 0 of the next level */
        s->cur[c] = o[c];
        s->lev[c * s->ns] = o[c];
    }
    free(o);
    s->level = j + 1, s->step = 1, s->state = S_PROPOSE;
}

// (state) => the chains' candidates for step s->step; returns how many need a run
static size_t propose(mech_subset *s, size_t *ids)
{
    size_t nb = 0, d = (size_t)s->d;
    uint64_t tag = ((uint64_t)s->level << 48) | ((uint64_t)s->step << 32);
    for (size_t c = 0; c < s->nc; c++) {
        const double *x = s->z + s->cur[c] * d;
        double y[MECH_SWEEP_KEYS_MAX];
        int moved = 0;
        for (size_t k = 0; k < d; k++) {
            double xi = x[k] + gsl_cdf_ugaussian_Pinv(mech_sweep_u01(s->seed, tag | c, 2 * k + 1));
            double ratio = exp(-0.5 * (xi * xi - x[k] * x[k]));   /* phi(xi) / phi(x_k) */
            if (mech_sweep_u01(s->seed, tag | c, 2 * k + 2) < ratio)
                y[k] = xi, moved = 1;
            else
                y[k] = x[k];
        }
        if (!moved) {   /* every coordinate rejected: the chain repeats its state, no run */
            s->cand[c] = (size_t)-1;
            continue;
        }
        size_t id = s->neval++;
        memcpy(s->z + id * d, y, d * sizeof *y);
        s->g[id] = NAN;
        s->cand[c] = id;
        ids[nb++] = id;
    }
    return nb;
}

size_t mech_subset_next(mech_subset *s, size_t *ids)
{
    for (;;) {
        switch (s->state) {
        case S_START:   /* level 0: n independent standard normal points */
            for (size_t i = 0; i < s->n; i++) {
                for (int k = 0; k < s->d; k++)
                    s->z[i * (size_t)s->d + (size_t)k] = gsl_cdf_ugaussian_Pinv(mech_sweep_u01(s->seed, i, (uint64_t)k));
                s->g[i] = NAN;
                s->lev[i] = i;
                ids[i] = i;
            }
            s->neval = s->n;
            s->state = S_WAIT0;
            return s->n;
        case S_WAIT0:
            close_level(s);   /* -> S_PROPOSE or S_DONE */
            break;
        case S_PROPOSE: {
            size_t nb = propose(s, ids);
            s->state = S_WAITC;
            if (nb > 0)
                return nb;
            break;   /* every chain repeats its state: the step is complete without a run */
        }
        case S_WAITC: {   /* the batch's g are in: each chain keeps its candidate when it stays in F_j */
            double b = s->b[s->level - 1];
            for (size_t c = 0; c < s->nc; c++) {
                if (s->cand[c] != (size_t)-1 && gval(s, s->cand[c]) <= b)
                    s->cur[c] = s->cand[c];
                s->lev[c * s->ns + (size_t)s->step] = s->cur[c];
            }
            if (++s->step == (int)s->ns)
                close_level(s);
            else
                s->state = S_PROPOSE;
            break;
        }
        default:
            return 0;
        }
    }
}

// Increasing-amplitude quasi-static cyclic test protocols expanded into levels (see hyst/drive.h).
#include <math.h>
#include "hyst/drive.h"

/* Levels beyond max by no more than this relative slack still count as "up to max" (k*dy rounding). */
#define MAX_SLACK 1e-12

typedef struct levels {
    double *amp;
    int    *cyc;
    size_t  n, cap;
} levels;

static void add(levels *L, double a, int c)
{
    if (L->n < L->cap) {
        L->amp[L->n] = a;
        L->cyc[L->n] = c;
    }
    L->n++;
}

// (preset, parameters) => levels
int hy_drive_preset_levels(hy_drive_preset p, double max, int steps, int cycles, double dy, double *amp, int *cyc,
                           size_t cap, size_t *n, hy_err *err)
{
    *n = 0;
    if (!isfinite(max) || !(max > 0.0))
        return hy_err_set(err, HY_EARG, "protocol: the largest amplitude must be finite and > 0 (got %g)", max);
    levels L = {amp, cyc, 0, (amp && cyc) ? cap : 0};
    switch (p) {
    case HY_DRIVE_STEPS:
        if (steps < 1)
            return hy_err_set(err, HY_EARG, "protocol steps: need at least 1 step (got %d)", steps);
        if (cycles < 1)
            return hy_err_set(err, HY_EARG, "protocol steps: need at least 1 cycle per step (got %d)", cycles);
        if (steps > 100000) /* as atc24's cap: a level count this large is a typing mistake, not a test */
            return hy_err_set(err, HY_EARG, "protocol steps: %d steps give too many levels (at most 100000)", steps);
        for (int i = 1; i <= steps; i++)
            add(&L, i == steps ? max : max * (double)i / (double)steps, cycles);
        break;
    case HY_DRIVE_ISO16670: {
        /* ISO 16670 reversed-cyclic schedule, as fractions of the ultimate displacement v_u = max. */
        static const double frac[] = {0.0125, 0.025, 0.05, 0.075, 0.1, 0.2, 0.4, 0.6, 0.8};
        static const int nc[] = {1, 1, 1, 1, 1, 3, 3, 3, 3};
        for (size_t i = 0; i < sizeof frac / sizeof frac[0]; i++)
            add(&L, max * frac[i], nc[i]);
        add(&L, max, 3);
        break;
    }
    case HY_DRIVE_ATC24: {
        if (!isfinite(dy) || !(dy > 0.0))
            return hy_err_set(err, HY_EARG, "protocol atc24: the yield displacement must be finite and > 0 (got %g)",
                              dy);
        const double lim = max * (1.0 + MAX_SLACK);
        if (dy / 3.0 > lim)
            return hy_err_set(err, HY_EARG,
                              "protocol atc24: the largest amplitude %g is below the first level dy/3 = %g", max,
                              dy / 3.0);
        /* Six elastic cycles below dy (ATC-24 asks for at least six), then 3 cycles at dy, 2dy, 3dy, then 2 cycles
         * at every further multiple of dy. */
        const double a0[] = {dy / 3.0, 2.0 * dy / 3.0, dy, 2.0 * dy, 3.0 * dy};
        for (size_t i = 0; i < 5 && a0[i] <= lim; i++)
            add(&L, a0[i], 3);
        for (int k = 4; (double)k * dy <= lim; k++) {
            add(&L, (double)k * dy, 2);
            if (L.n > 100000)
                return hy_err_set(err, HY_EARG, "protocol atc24: max/dy = %g gives too many levels", max / dy);
        }
        break;
    }
    default:
        return hy_err_set(err, HY_EARG, "protocol: unknown preset %d", (int)p);
    }
    *n = L.n;
    return HY_OK;
}

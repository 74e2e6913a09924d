/* The event location of the docking simulation's error-controlled steps (docs/dock.md §6b "Events"), driven by
 * dock_adaptive_step (dock_step_adaptive.c): a trial step crossed an event function; find the shortest step that
 * still crosses it, to DOCK_EVENT_TOL. The trial steps themselves are the caller's (a callback), so the bracket's rule
 * is tested alone (test_dock_locate: closed-form event functions). */
#include <math.h>
#include <string.h>
#include "dock/dock_sim_internal.h"

// (event functions a, b) => index of the first one whose side differs, -1 when none
int dock_gap_changed(const double *a, const double *b, int n)
{
    for (int j = 0; j < n; j++)
        if ((a[j] > 0) != (b[j] > 0))
            return j;
    return -1;
}

/* Illinois regula falsi on the step length with the event function that changed, bisection every fourth iteration;
 * the function followed is switched when an earlier one is found. Bisection too while an end of the bracket holds no
 * distance but the apart mark (DOCK_GAP_APART: no feature in reach, a pad point or roller off the wall's feature): a
 * secant through it is no estimate. Without that rule regula falsi crept from the bracket's far end by the 1e-3
 * clamp until the Illinois halvings of the mark (-1) came down to the depth's scale: in RP-2's S3x-400-C-short a pad
 * point 0.44 mm in the wall whose nearest feature switched between the wall and the rim edge (no force on the edge)
 * 10 500 times in 0.09 s took 58 evaluations (14 trial steps) a location, against 7 bisections
 * (docs/dock-process.md §7b). */
int dock_locate(int n, double tol, const double *g0, double *g1, double *glo, double *h,
                int (*trial)(void *ctx, double x), void *ctx)
{
    double lo = 0, hi = *h;
    memcpy(glo, g0, (size_t)n * sizeof *glo);
    int j = dock_gap_changed(g0, g1, n), side = 0, at_hi = 1, rc;
    double flo = glo[j], fhi = g1[j];
    double rlo = flo, rhi = fhi;   /* the ends' values before the Illinois halvings */
    for (int it = 0; hi - lo > tol && it < 100; it++) {
        double w = hi - lo, x = flo != fhi ? lo + w * flo / (flo - fhi) : lo + 0.5 * w;
        if (it % 4 == 3 || !(x == x) || rlo <= DOCK_GAP_APART || rhi <= DOCK_GAP_APART)
            x = lo + 0.5 * w;
        x = fmin(fmax(x, lo + 1e-3 * w), hi - 1e-3 * w);
        if ((rc = trial(ctx, x)) != HY_OK)
            return rc;
        int k = dock_gap_changed(g0, g1, n);
        if (k >= 0) {   /* crossed by x: the bracket's upper end moves */
            hi = x;
            if (k != j) {
                j = k;
                flo = glo[j];
                side = 0;
            } else if (side == -1) {
                flo *= 0.5;
            }
            fhi = rhi = g1[j];
            side = -1;
            at_hi = 1;
        } else {
            lo = x;
            memcpy(glo, g1, (size_t)n * sizeof *glo);
            flo = glo[j];
            if (side == 1)
                fhi *= 0.5;
            side = 1;
            at_hi = 0;
        }
        rlo = glo[j];
    }
    if (!at_hi && (rc = trial(ctx, hi)) != HY_OK)
        return rc;
    *h = hi;
    return HY_OK;
}

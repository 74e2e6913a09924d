// Transition segment of the piecewise-linear model: the 2x2 line intersection of spec 000 §2.
//
// The paper writes the transition line as A3 x + B3 y + C3 = 0 with A3 = y_E3, B3 = -y_E3/k3, C3 = -A3 x_03. That
// is the line k3 x - y + (y_E3 - k3 x_E3) = 0 multiplied by y_E3/k3, which vanishes when the reversal point has
// y_E3 = 0; we use the unscaled form (same line, never degenerate). The segment line is the paper's
// A2 x + B2 y + C2 = 0 with A2 = y_E - y_B, B2 = -(x_E - x_B). The 2x2 system is solved by Cramer's rule in
// coordinates centred on the segment's first point, which keeps the result accurate far from the origin. This is
// geometry in the hot path (a reversal), so it allocates nothing and calls no factorization.
#include <math.h>
#include "pwl_internal.h"

// (line through (x0, y0) with slope k; segment line through (xa, ya), (xb, yb)) => crossing; 0 when parallel
int hy_pwl_intersect(double x0, double y0, double k, double xa, double ya, double xb, double yb, double *x,
                     double *y)
{
    double dx = xb - xa, dy = yb - ya;
    /* segment:    A2 X + B2 Y + C2 = 0, A2 = dy, B2 = -dx, C2 = 0 (its first point is the local origin)
     * transition: A3 X + B3 Y + C3 = 0, A3 = k,  B3 = -1,  C3 = (y0 - ya) - k (x0 - xa)                   */
    double A2 = dy, B2 = -dx, A3 = k, B3 = -1.0, C3 = (y0 - ya) - k * (x0 - xa);
    double det = A2 * B3 - A3 * B2; /* = k dx - dy = dx (k - slope of the segment) */
    if (det == 0.0 || fabs(det) <= 1e-14 * (fabs(dy) + fabs(k * dx)))
        return 0;
    /* Cramer: X = (-C2 B3 + B2 C3) / det, Y = (-A2 C3 + A3 C2) / det, with C2 = 0 */
    *x = xa + (B2 * C3) / det;
    *y = ya + (-A2 * C3) / det;
    return 1;
}

// (side, reversal on F at (u_e, P_e)) => start of the transition on B: the largest u <= u_e where the line of
// slope k_max through the reversal point meets B (spec 000 §2, 1 -> 3)
void pwl_transition_down(const pwl_side *s, double u_e, double P_e, double *u_b, double *P_b, int *seg)
{
    const pwl_branch *B = &s->B;
    double k = s->k_max;
    /* line - B is non-decreasing in u (every slope of B is <= k_max) and <= 0 at u2 when F >= B, so walking B's
     * segments inward from the reversal, the first segment whose start lies on or below the line holds the
     * crossing. */
    int i = u_e >= s->uN ? B->n - 2 : pwl_find(B->u, B->n, u_e);
    for (; i >= 0; i--) {
        double ua = B->u[i], Pa = B->P[i];
        double g = P_e + k * (ua - u_e) - Pa;
        if (g <= 0) {
            double hi = fmin(B->u[i + 1], u_e), x, y;
            if (!hy_pwl_intersect(u_e, P_e, k, ua, Pa, B->u[i + 1], B->P[i + 1], &x, &y))
                x = hi; /* the line runs along this segment: the shortest transition */
            x = fmin(fmax(x, ua), hi);
            *u_b = x;
            *P_b = P_e + k * (x - u_e);
            *seg = i;
            return;
        }
    }
    /* Only round-off can get here for a validated table (the line is at or below B at u2). The line then meets
     * the continuation of B toward the origin, the backlash (P = 0): docs/pwl-model.md, "open cases". */
    double x = u_e - P_e / k;
    x = fmin(fmax(x, 0.0), s->u1);
    *u_b = x;
    *P_b = P_e + k * (x - u_e);
    *seg = 0;
}

// (side, reversal on B at (u_b, P_b)) => end of the transition on F: the smallest u >= u_b where the line of
// slope k_max through the reversal point meets F (spec 000 §2, 2 -> 3)
void pwl_transition_up(const pwl_side *s, double u_b, double P_b, double *u_e, double *P_e, int *seg)
{
    const pwl_branch *F = &s->F;
    double k = s->k_max;
    if (u_b < s->uN) {
        int i = pwl_find(F->u, F->n, u_b);
        for (; i <= F->n - 2; i++) {
            double ue = F->u[i + 1], Pe = F->P[i + 1];
            double h = P_b + k * (ue - u_b) - Pe;
            if (h >= 0) {
                double lo = fmax(F->u[i], u_b), x, y;
                if (!hy_pwl_intersect(u_b, P_b, k, F->u[i], F->P[i], ue, Pe, &x, &y))
                    x = lo;
                x = fmin(fmax(x, lo), ue);
                *u_e = x;
                *P_e = P_b + k * (x - u_b);
                *seg = i;
                return;
            }
        }
    }
    /* Round-off only (the line is at or above F at the common last point): meet F at its last point. */
    double x = fmax(u_b, s->uN);
    *u_e = x;
    *P_e = P_b + k * (x - u_b);
    *seg = F->n - 2;
}

// (model, state left, table abscissa of the reversal) => transition segment ends in table coordinates
int hy_pwl_transition(const hy_pwl_model *m, int state, double q, double *q3b, double *Q3b, double *q3e,
                      double *Q3e)
{
    int a = state < 0 ? -state : state;
    if (a != HY_PWL_FORWARD && a != HY_PWL_BACKWARD)
        return HY_EARG;
    const pwl_side *s = &m->side[pwl_side_index(state)];
    double sg = s->sgn, u = sg * q, ub, Pb, ue, Pe;
    int seg = -1;
    if (a == HY_PWL_FORWARD) {
        ue = u;
        Pe = pwl_branch_eval(&s->F, s, u, &seg);
        pwl_transition_down(s, ue, Pe, &ub, &Pb, &seg);
    } else {
        ub = u;
        Pb = pwl_branch_eval(&s->B, s, u, &seg);
        pwl_transition_up(s, ub, Pb, &ue, &Pe, &seg);
    }
    *q3b = sg * ub;
    *Q3b = sg * Pb;
    *q3e = sg * ue;
    *Q3e = sg * Pe;
    return HY_OK;
}

/* Private layout of the compiled piecewise-linear model (spec 000), shared by the pwl_*.c files only.
 *
 * Each side is compiled into a side-local frame where the side looks like the positive side:
 *   u = sgn * x   (x = q - shift is the table abscissa; u >= 0 grows outward),
 *   P = sgn * Q   (P >= 0 on the loading branch),
 * with sgn = +1 for the positive side and -1 for the negative side. Both branches then run outward from the end
 * of the backlash, F lies on or above B, and one code path serves both sides (spec 000 §2: "the negative side is
 * analogous"). */
#ifndef HYST_PWL_INTERNAL_H
#define HYST_PWL_INTERNAL_H

#include "hyst/pwl.h"

typedef struct pwl_branch {
    int     n;      /* number of points (>= 2)                                              */
    double *u, *P;  /* points in the side-local frame, u[0] = backlash width, P[0] = 0       */
    double *k;      /* k[i]: slope of segment i, from point i to point i+1, i = 0..n-2      */
} pwl_branch;

typedef struct pwl_side {
    int        sgn;       /* +1 positive side, -1 negative side                              */
    pwl_branch F, B;
    double     u1;        /* backlash width (point 1)                                        */
    double     u2, P2;    /* end of the common first segment (point 2)                       */
    double     k0;        /* slope of the common first segment                               */
    double     uN, PN;    /* the common last point                                           */
    double     k_beyond;  /* slope beyond uN (0 for the friction kind)                       */
    double     k_max;     /* transition slope                                                */
} pwl_side;

struct hy_pwl_model {
    hy_pwl_kind kind;
    pwl_side    side[2];     /* [0] positive, [1] negative                                   */
    double      scale_Q;     /* largest |Q| in the tables, for tolerances                    */
    double      scale_q;     /* largest |q| in the tables                                    */
    /* the table as given, for hy_pwl_model_table: [0] pos F, [1] pos B, [2] neg F, [3] neg B */
    size_t      tn[4];
    double     *tq[4], *tQ[4];
    double      tk[2];
    double     *mem;         /* one allocation holding every array                           */
};

/* side index of a state code or a sign: 0 positive, 1 negative */
static inline int pwl_side_index(int sgn) { return sgn < 0; }

// (points u[0..n-1], x) => segment index i in [0, n-2] with u[i] <= x <= u[i+1] (clamped), by bisection
static inline int pwl_find(const double *u, int n, double x)
{
    int lo = 0, hi = n - 2;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (x >= u[mid])
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

// (points u[0..n-1], x, guess) => segment index i in [0, n-2] with u[i] <= x <= u[i+1] (clamped at the ends)
static inline int pwl_locate(const double *u, int n, double x, int i)
{
    if (i < 0 || i > n - 2)
        return pwl_find(u, n, x);   /* no usable guess: entering the branch */
    while (i < n - 2 && x > u[i + 1])
        i++;
    while (i > 0 && x < u[i])
        i--;
    return i;
}

// (branch, side, u, cached segment) => P on the branch in the side-local frame, extended by the backlash (P = 0
// for u < u1) and the beyond-range segment (u > uN); *seg updated when u lies in the working range
static inline double pwl_branch_eval(const pwl_branch *b, const pwl_side *s, double u, int *seg)
{
    if (u >= s->uN)
        return s->PN + s->k_beyond * (u - s->uN);
    if (u <= s->u1)
        return 0.0;
    int i = pwl_locate(b->u, b->n, u, *seg);
    *seg = i;
    return b->P[i] + b->k[i] * (u - b->u[i]);
}

// (branch, side, u, segment) => slope of the branch at u (0 in the backlash, k_beyond beyond uN)
static inline double pwl_branch_slope(const pwl_branch *b, const pwl_side *s, double u, int seg)
{
    if (u > s->uN)
        return s->k_beyond;
    if (u < s->u1)
        return 0.0;
    return b->k[seg];
}

// (side, reversal on F at u_e with P_e) => start (u_b, P_b) of the transition down to B, and B's segment there
void pwl_transition_down(const pwl_side *s, double u_e, double P_e, double *u_b, double *P_b, int *seg);

// (side, reversal on B at u_b with P_b) => end (u_e, P_e) of the transition up to F, and F's segment there
void pwl_transition_up(const pwl_side *s, double u_b, double P_b, double *u_e, double *P_e, int *seg);

#endif

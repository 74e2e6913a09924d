/* Shared helpers of the pwl unit tests: the designed tables of fixtures/models/ written out in C (so the tests of
 * the state machine do not depend on the JSON reader), and small drivers. Hand-computed values in the tests come
 * from these numbers; docs/pwl-model.md shows the same tables. */
#ifndef TEST_PWL_UTIL_H
#define TEST_PWL_UTIL_H

#include <math.h>
#include <string.h>
#include "hyst/pwl.h"

/* fixtures/models/pwl-constant.json: asymmetric, backlash 0.5 / 0.25, k_max 4 / 6 */
static const double CP_Fq[] = {0.5, 1, 3, 6, 8}, CP_FQ[] = {0, 1, 5, 8, 12};
static const double CP_Bq[] = {0.5, 1, 4, 6, 8}, CP_BQ[] = {0, 1, 2.5, 4, 12};
static const double CN_Fq[] = {-0.25, -1, -2, -5, -6}, CN_FQ[] = {0, -1.5, -3.5, -5, -8};
static const double CN_Bq[] = {-0.25, -1, -3, -5, -6}, CN_BQ[] = {0, -1.5, -1.75, -2, -8};

/* fixtures/models/pwl-friction.json: symmetric, no backlash, k_max 2 (the common segment) */
static const double FP_Fq[] = {0, 1, 4, 10}, FP_FQ[] = {0, 2, 5, 8};
static const double FP_Bq[] = {0, 1, 7, 10}, FP_BQ[] = {0, 2, 3, 8};
static const double FN_Fq[] = {0, -1, -4, -10}, FN_FQ[] = {0, -2, -5, -8};
static const double FN_Bq[] = {0, -1, -7, -10}, FN_BQ[] = {0, -2, -3, -8};

/* fixtures/models/pwl-symmetric.json: no backlash, double loop, k_max 16 */
static const double SP_Fq[] = {0, 0.25, 1, 2, 3, 4, 5}, SP_FQ[] = {0, 1, 2.5, 3, 6, 7, 15};
static const double SP_Bq[] = {0, 0.25, 1, 2, 3, 4, 4.5, 5}, SP_BQ[] = {0, 1, 1.375, 1.75, 3, 3.5, 7, 15};
static const double SN_Fq[] = {0, -0.25, -1, -2, -3, -4, -5}, SN_FQ[] = {0, -1, -2.5, -3, -6, -7, -15};
static const double SN_Bq[] = {0, -0.25, -1, -2, -3, -4, -4.5, -5}, SN_BQ[] = {0, -1, -1.375, -1.75, -3, -3.5, -7, -15};

#define PTS(q, Q) ((hy_pwl_points){sizeof(q) / sizeof(q)[0], (q), (Q)})

static inline hy_pwl_table table_constant(void)
{
    hy_pwl_table t = {HY_PWL_CONSTANT, {PTS(CP_Fq, CP_FQ), PTS(CP_Bq, CP_BQ), 4}, {PTS(CN_Fq, CN_FQ), PTS(CN_Bq, CN_BQ), 6}};
    return t;
}
static inline hy_pwl_table table_friction(void)
{
    hy_pwl_table t = {HY_PWL_FRICTION, {PTS(FP_Fq, FP_FQ), PTS(FP_Bq, FP_BQ), 0}, {PTS(FN_Fq, FN_FQ), PTS(FN_Bq, FN_BQ), 0}};
    return t;
}
static inline hy_pwl_table table_symmetric(void)
{
    hy_pwl_table t = {HY_PWL_CONSTANT, {PTS(SP_Fq, SP_FQ), PTS(SP_Bq, SP_BQ), 16}, {PTS(SN_Fq, SN_FQ), PTS(SN_Bq, SN_BQ), 16}};
    return t;
}

/* Reference interpolation written independently of the model code: Q on a branch given as points ordered by |q|,
 * with the backlash (Q = 0 inside the first point) and the beyond-range slope. */
static inline double ref_branch(const hy_pwl_points *p, double k_beyond, double q)
{
    double a = fabs(q), sg = p->q[p->n - 1] < 0 ? -1.0 : 1.0;
    if (a <= fabs(p->q[0]))
        return 0.0;
    if (a >= fabs(p->q[p->n - 1]))
        return p->Q[p->n - 1] + sg * k_beyond * (a - fabs(p->q[p->n - 1]));
    for (size_t i = 0; i + 1 < p->n; i++) {
        double a0 = fabs(p->q[i]), a1 = fabs(p->q[i + 1]);
        if (a <= a1)
            return p->Q[i] + (p->Q[i + 1] - p->Q[i]) * (a - a0) / (a1 - a0);
    }
    return NAN;
}

/* Upper and lower envelopes of Q at table abscissa x (positive side: B <= Q <= F; negative side: F <= Q <= B). */
static inline void ref_envelope(const hy_pwl_table *t, double x, double *lo, double *hi)
{
    if (x >= 0) {
        *lo = ref_branch(&t->positive.backward, t->positive.k_beyond, x);
        *hi = ref_branch(&t->positive.forward, t->positive.k_beyond, x);
    } else {
        *lo = ref_branch(&t->negative.forward, t->negative.k_beyond, x);
        *hi = ref_branch(&t->negative.backward, t->negative.k_beyond, x);
    }
}

/* trial + commit with qdot of the motion's sign (or the given qdot); returns Q, asserts nothing */
static inline int pwl_go(hy_pwl_data *d, double q, double qdot, double *Q)
{
    double k;
    hy_diag dg;
    int rc = hy_pwl_trial(d, q, qdot, Q, &k, &dg);
    if (rc == HY_OK)
        hy_pwl_commit(d);
    else
        hy_pwl_revert(d);
    return rc;
}

#endif

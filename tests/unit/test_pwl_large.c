/* Large piecewise-linear tables load in linear time: the check that the backward branch never crosses the
 * forward one sweeps both branches together (it used to interpolate from the first point for every point, O(n^2):
 * 160 000 points per branch took 33 s). 200 000 points per branch, checked value by value against the
 * independent interpolation of test_pwl_util.h, and a crossing near the far end still found. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include "test_pwl_util.h"

#define NPTS 200000

typedef struct big_table {
    hy_pwl_table t;
    double *mem;
} big_table;

/* Positive side: q_i = 1 + i; F rises by 2 on the first segment, then by 1 per point; B shares the first two
 * points, then rises by 0.5 per point; both end on one point reached by B with the slope k_beyond, the largest.
 * The negative side is the mirror image. */
static void big_make(big_table *b, size_t n)
{
    b->mem = malloc(8 * n * sizeof *b->mem);
    assert_non_null(b->mem);
    double *Fq = b->mem, *FQ = Fq + n, *Bq = FQ + n, *BQ = Bq + n;
    double *nFq = BQ + n, *nFQ = nFq + n, *nBq = nFQ + n, *nBQ = nBq + n;
    for (size_t i = 0; i < n; i++) {
        Fq[i] = Bq[i] = 1.0 + (double)i;
        FQ[i] = i == 0 ? 0.0 : 2.0 + (double)(i - 1);
        BQ[i] = i == 0 ? 0.0 : 2.0 + 0.5 * (double)(i - 1);
    }
    FQ[n - 1] = BQ[n - 1] = FQ[n - 2] + 2.0;
    double k_beyond = BQ[n - 1] - BQ[n - 2];
    for (size_t i = 0; i < n; i++) {
        nFq[i] = -Fq[i];
        nFQ[i] = -FQ[i];
        nBq[i] = -Bq[i];
        nBQ[i] = -BQ[i];
    }
    hy_pwl_table t = {HY_PWL_CONSTANT,
                      {{n, Fq, FQ}, {n, Bq, BQ}, k_beyond},
                      {{n, nFq, nFQ}, {n, nBq, nBQ}, k_beyond}};
    b->t = t;
}

static void large_table_loads_and_evaluates(void **state)
{
    (void)state;
    big_table b;
    big_make(&b, NPTS);
    hy_pwl_model *m = NULL;
    hy_err err;
    if (hy_pwl_model_new(&b.t, "big.json", &m, &err) != HY_OK)
        fail_msg("%s", err.msg);
    /* the compiled model gives the table back unchanged */
    hy_pwl_table back;
    hy_pwl_model_table(m, &back);
    assert_int_equal(back.positive.forward.n, NPTS);
    assert_int_equal(back.negative.backward.n, NPTS);
    assert_true(back.positive.backward.Q[NPTS - 1] == b.t.positive.backward.Q[NPTS - 1]);
    assert_true(back.positive.k_beyond == b.t.positive.k_beyond);
    /* branch values against the independent interpolation, inside and beyond the table */
    static const double qs[] = {0.5, 1.5, 2.0, 1000.25, 150000.5, 199998.75, 199999.5, 200005.0};
    for (size_t k = 0; k < sizeof qs / sizeof qs[0]; k++)
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            double q = sgn * qs[k];
            const hy_pwl_side *side = sgn > 0 ? &b.t.positive : &b.t.negative;
            double refF = ref_branch(&side->forward, side->k_beyond, q);
            double refB = ref_branch(&side->backward, side->k_beyond, q);
            double tol = 1e-12 * (fabs(refF) + 1);
            assert_true(fabs(hy_pwl_model_branch(m, HY_PWL_FORWARD, q) - refF) <= tol);
            assert_true(fabs(hy_pwl_model_branch(m, HY_PWL_BACKWARD, q) - refB) <= tol);
        }
    hy_pwl_model_free(m);
    free(b.mem);
}

static void large_table_crossing_found(void **state)
{
    (void)state;
    big_table b;
    big_make(&b, NPTS);
    /* B above F at the third point from the end */
    double *BQ = (double *)b.t.positive.backward.Q;
    BQ[NPTS - 3] = b.t.positive.forward.Q[NPTS - 3] + 1.0;
    hy_pwl_model *m = NULL;
    hy_err err;
    assert_int_equal(hy_pwl_model_new(&b.t, "big.json", &m, &err), HY_EMODEL);
    assert_null(m);
    char want[128];
    snprintf(want, sizeof want, "big.json: positive.forward[%d]: at q = %d the backward branch", NPTS - 3, NPTS - 2);
    if (strncmp(err.msg, want, strlen(want)) != 0)
        fail_msg("expected \"%s...\", got \"%s\"", want, err.msg);
    assert_non_null(strstr(err.msg, "lies above the forward branch"));
    /* and on the negative side, F dipping inside B near the far end */
    double *first = b.mem;
    big_make(&b, NPTS); /* a fresh table */
    free(first);
    double *nFQ = (double *)b.t.negative.forward.Q;
    nFQ[NPTS - 4] = b.t.negative.backward.Q[NPTS - 4] + 1.0;
    assert_int_equal(hy_pwl_model_new(&b.t, "big.json", &m, &err), HY_EMODEL);
    snprintf(want, sizeof want, "big.json: negative.forward[%d]: at q = -%d", NPTS - 4, NPTS - 3);
    if (strncmp(err.msg, want, strlen(want)) != 0)
        fail_msg("expected \"%s...\", got \"%s\"", want, err.msg);
    assert_non_null(strstr(err.msg, "lies below the forward branch"));
    free(b.mem);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(large_table_loads_and_evaluates),
        cmocka_unit_test(large_table_crossing_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

// LAPACKE helpers against closed-form systems.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include "hyst/linalg.h"

/* Fit y = 2 - 3x + 0.5x^2 sampled exactly: both solvers return the coefficients. */
static void least_squares_recovers_quadratic(void **state)
{
    (void)state;
    enum { M = 20, N = 3 };
    double A[M * N], A2[M * N], b[M], b2[M], x[N], x2[N];
    for (int i = 0; i < M; i++) {
        double t = -1.0 + 0.1 * i;
        A[i * N + 0] = 1.0; A[i * N + 1] = t; A[i * N + 2] = t * t;
        b[i] = 2.0 - 3.0 * t + 0.5 * t * t;
    }
    for (int i = 0; i < M * N; i++) A2[i] = A[i];
    for (int i = 0; i < M; i++) b2[i] = b[i];
    hy_lstsq_info info;
    assert_int_equal(hy_lstsq_svd(A, M, N, b, -1, x, &info, NULL), HY_OK);
    assert_int_equal(info.rank, 3);
    assert_true(info.cond > 1.0 && isfinite(info.cond));
    assert_true(fabs(x[0] - 2.0) < 1e-12 && fabs(x[1] + 3.0) < 1e-12 && fabs(x[2] - 0.5) < 1e-12);
    assert_int_equal(hy_lstsq_qr(A2, M, N, b2, x2, NULL), HY_OK);
    assert_true(fabs(x2[0] - 2.0) < 1e-12 && fabs(x2[1] + 3.0) < 1e-12 && fabs(x2[2] - 0.5) < 1e-12);
}

/* Two identical columns: the SVD reports rank 1 and the minimum-norm split (1, 1) of a total of 2. */
static void rank_deficiency_is_reported(void **state)
{
    (void)state;
    double A[] = {1, 1, 2, 2, 3, 3}, b[] = {2, 4, 6}, x[2];
    hy_lstsq_info info;
    assert_int_equal(hy_lstsq_svd(A, 3, 2, b, 1e-12, x, &info, NULL), HY_OK);
    assert_int_equal(info.rank, 1);
    assert_true(fabs(x[0] - 1.0) < 1e-12 && fabs(x[1] - 1.0) < 1e-12);
    double A2[] = {1, 0, 2, 0, 3, 0}, b2[] = {2, 4, 6}; /* exactly zero column */
    hy_err err;
    assert_int_equal(hy_lstsq_qr(A2, 3, 2, b2, x, &err), HY_ENUMERIC);
}

static void square_solvers(void **state)
{
    (void)state;
    double S[] = {4, 1, 1, 3}, bs[] = {1, 2}, x[2];
    assert_int_equal(hy_solve_spd(S, 2, bs, x, NULL), HY_OK);
    assert_true(fabs(x[0] - 1.0 / 11.0) < 1e-14 && fabs(x[1] - 7.0 / 11.0) < 1e-14);
    double G[] = {0, 1, 1, 0}, bg[] = {3, 5};
    assert_int_equal(hy_solve_lu(G, 2, bg, x, NULL), HY_OK);
    assert_true(fabs(x[0] - 5.0) < 1e-14 && fabs(x[1] - 3.0) < 1e-14);
    double N[] = {1, 2, 2, 1}, bn[] = {1, 1};
    assert_int_equal(hy_solve_spd(N, 2, bn, x, NULL), HY_ENUMERIC); /* indefinite */
}

int openblas_get_num_threads(void); /* libopenblas */
void openblas_set_num_threads(int num_threads);

static int process_threads(void) /* entries of /proc/self/task */
{
    DIR *d = opendir("/proc/self/task");
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* the programs' BLAS runs on one thread unless the environment asks for more */
static void blas_single_thread(void **state)
{
    (void)state;
    openblas_set_num_threads(2);
    int n = openblas_get_num_threads(); /* 2, or 1 on a one-core machine */
    setenv("OPENBLAS_NUM_THREADS", "2", 1);
    hy_blas_single_thread(); /* the user's setting wins */
    assert_int_equal(openblas_get_num_threads(), n);
    unsetenv("OPENBLAS_NUM_THREADS");
    unsetenv("OMP_NUM_THREADS");
    hy_blas_single_thread();
    assert_int_equal(openblas_get_num_threads(), 1);
    /* and OpenBLAS's worker threads are gone (they spin for ~0.1 s after start-up: CPU a run pays for) */
    assert_int_equal(process_threads(), 1);
    double A[] = {4, 1, 1, 3}, b[] = {1, 2}, x[2];
    assert_int_equal(hy_solve_lu(A, 2, b, x, NULL), HY_OK);   /* BLAS still works, on the calling thread */
    assert_true(fabs(x[0] - 1.0 / 11) < 1e-15 && fabs(x[1] - 7.0 / 11) < 1e-15);
    assert_int_equal(process_threads(), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(least_squares_recovers_quadratic),
        cmocka_unit_test(rank_deficiency_is_reported),
        cmocka_unit_test(square_solvers),
        cmocka_unit_test(blas_single_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

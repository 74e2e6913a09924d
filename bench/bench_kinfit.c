/* Benchmarks of the kinematic-ODE identification (issue 5): evaluations of R per second, and the full (k, m) <= 8
 * selection (Stage A, Stage B, integrated-trajectory scoring of all 64 candidates, pruning) on a 10 000-point
 * record of the paper's law with force noise. Target: <= 1 s on one core (OPENBLAS_NUM_THREADS=1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hyst/kin.h"
#include "hyst/kinfit.h"
#include "bench_util.h"

// (model, calls) => evaluations of R per second (alternating directions, varying points)
static double r_rate(const hy_kin_model *m, long calls, double *sink)
{
    double t0 = now(), acc = 0.0;
    for (long i = 0; i < calls; i++) {
        double q = -0.45 + 0.9 * (double)(i & 1023) / 1023.0, f = -60.0 + 0.1171875 * (double)(i & 1023);
        acc += hy_kin_R(m, (i & 1) ? 1 : -1, q, f);
    }
    *sink += acc;
    return (double)calls / (now() - t0);
}

int main(void)
{
    hy_err err;
    double sink = 0.0;

    /* 1. R evaluations: the paper's reduced law (6 x 2) and a full 8 x 8 polynomial */
    hy_kin_spec spec;
    hy_kin_paper_spec(&spec, 0);
    hy_kin_model *paper = NULL, *full = NULL;
    if (hy_kin_model_new(&spec, &paper, &err) != HY_OK) {
        fprintf(stderr, "bench_kinfit: %s\n", err.msg);
        return 1;
    }
    hy_kin_spec big = spec;
    big.load.k = big.load.m = 8;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            big.load.C[i][j] = 1e-3 * (double)((i * 8 + j) % 7 - 3);
    if (hy_kin_model_new(&big, &full, &err) != HY_OK) {
        fprintf(stderr, "bench_kinfit: %s\n", err.msg);
        return 1;
    }
    double r62 = r_rate(paper, 20000000, &sink), r88 = r_rate(full, 5000000, &sink);
    printf("kin R evaluations (6x2 paper law)   %.3g /s\n", r62);
    printf("kin R evaluations (8x8 polynomial)  %.3g /s\n", r88);

    /* 2. a 10 000-point record: the paper's law driven through a limit loop and inner branches */
    enum { N = 10000 };
    const double tp[] = {0.0, 0.45, -0.45, 0.45, -0.45, 0.2, -0.1, 0.3, -0.3, 0.45, -0.45, 0.1, -0.35, 0.45};
    const int ntp = (int)(sizeof tp / sizeof tp[0]);
    double path = 0.0;
    for (int k = 1; k < ntp; k++)
        path += fabs(tp[k] - tp[k - 1]);
    double dq = path / (N - 1) * 1.0000001;
    double *q = malloc(N * sizeof *q), *f = malloc(N * sizeof *f);
    hy_element e;
    hy_kin_state st;
    if (!q || !f || hy_kin_state_init(&st, paper, 0.0, 0.0, &err) != HY_OK) {
        fprintf(stderr, "bench_kinfit: setup failed\n");
        return 1;
    }
    hy_kin_element_wrap(&st, &e);
    size_t n = 0;
    q[n++] = 0.0;
    for (int k = 1; k < ntp && n < N; k++) {
        int steps = (int)ceil(fabs(tp[k] - tp[k - 1]) / dq);
        for (int s = 1; s <= steps && n < N; s++)
            q[n++] = tp[k - 1] + (tp[k] - tp[k - 1]) * s / steps;
    }
    size_t done = 0;
    hy_diag d;
    f[0] = 0.0;
    if (hy_element_drive(&e, 0.0, NULL, q + 1, n - 1, f + 1, NULL, &done, &d) != HY_OK) {
        fprintf(stderr, "bench_kinfit: generating the record failed\n");
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        f[i] += 1.0 * gauss();   /* 1 N m of force noise, ~0.7 % of the peak-to-peak force */

    hy_kinfit_opts o;
    hy_kinfit_opts_default(&o);
    hy_kinfit_result *r = calloc(1, sizeof *r);
    double t0 = now();
    int rc = hy_kinfit_run(q, f, n, &o, r, &err);
    double t_sel = now() - t0;
    if (rc != HY_OK) {
        fprintf(stderr, "bench_kinfit: %s\n", err.msg);
        return 1;
    }
    printf("fit kin selection (k,m)<=8, %zu pts  %.3f s   (target <= 1 s; %zu candidates, chosen %dx%d, "
           "NRMSE %.3g %%)\n",
           n, t_sel, r->n_cand, r->k_sel, r->m_sel, 100.0 * r->score.nrmse);
    o.refine = 1;
    t0 = now();
    rc = hy_kinfit_run(q, f, n, &o, r, &err);
    double t_ref = now() - t0;
    if (rc != HY_OK) {
        fprintf(stderr, "bench_kinfit: %s\n", err.msg);
        return 1;
    }
    printf("fit kin selection + refinement      %.3f s   (%d LM iterations, NRMSE %.3g %%)\n", t_ref,
           r->refine_iter, 100.0 * r->score.nrmse);
    free(r);
    free(q);
    free(f);
    hy_kin_model_free(paper);
    hy_kin_model_free(full);
    return sink == 12345.678 ? 1 : 0;   /* keeps the evaluations from being optimised away */
}

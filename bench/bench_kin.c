/* Benchmark of the kinematic ODE model (spec 002): evaluations of R per second for the paper's size (k = 6, m = 2)
 * and the largest (k = m = 8), and element steps per second (trial + commit along a steady loop). */
#include <math.h>
#include <stdio.h>
#include <time.h>
#include "hyst/kin.h"
#include "bench_util.h"

// (model, n) => evaluations per second of R over 1024 scattered points (sum printed so nothing is optimised away)
static double evals_per_second(const hy_kin_model *m, long n, double *sink)
{
    static double q[1024], f[1024];
    for (int i = 0; i < 1024; i++) {
        q[i] = 0.5 * sin(0.37 * i);
        f[i] = 40.0 * cos(0.91 * i);
    }
    double t0 = now(), acc = 0;
    for (long i = 0; i < n; i++)
        acc += hy_kin_R(m, (i & 1) ? 1 : -1, q[i & 1023], f[i & 1023]);
    *sink += acc;
    return n / (now() - t0);
}

int main(void)
{
    hy_kin_spec s;
    hy_kin_model *paper, *big;
    hy_kin_paper_spec(&s, 1);
    if (hy_kin_model_new(&s, &paper, NULL) != HY_OK)
        return 1;
    s.load.k = s.load.m = 8;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            s.load.C[i][j] = 1.0 / (1 + i + j);
    if (hy_kin_model_new(&s, &big, NULL) != HY_OK)
        return 1;
    double sink = 0;
    long n = 50000000;
    printf("%-34s %12.3g %-10s target >= 1e8\n", "R evaluations (k=6, m=2)", evals_per_second(paper, n, &sink), "1/s");
    printf("%-34s %12.3g %-10s target >= 1.5e7\n", "R evaluations (k=8, m=8)", evals_per_second(big, n / 5, &sink),
           "1/s");

    /* element steps: q = 0.3 sin(theta), 2000 samples per cycle (dq up to 1e-3 rad, ~1 RK4 sub-step each) */
    hy_kin_state st;
    hy_element e;
    hy_kin_state_init(&st, paper, 0, 0, NULL);
    hy_kin_element_wrap(&st, &e);
    long steps = 4000000;
    double t0 = now(), Q, dQ;
    for (long i = 1; i <= steps; i++) {
        double th = 2 * M_PI * (double)i / 2000.0;
        if (hy_element_trial(&e, 0.3 * sin(th), cos(th), &Q, &dQ, NULL) != HY_OK)
            return 1;
        hy_element_commit(&e);
        sink += Q;
    }
    double rate = steps / (now() - t0);
    printf("%-34s %12.3g %-10s target >= 5e6\n", "element steps (trial+commit)", rate, "1/s");
    printf("%-34s %12.3g %-10s (checksum, ignore)\n", "sink", sink, "");
    hy_kin_model_free(paper);
    hy_kin_model_free(big);
    return 0;
}

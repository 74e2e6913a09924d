/* Benchmark: `hyst fit pwl` on one core (issue 4): fitting a 100 000-point record with 8 segments per branch
 * takes <= 0.1 s; a 10^6-row record completes and memory stays linear.
 *
 * The records are made here: a true table with 8 forward and 8 backward segments per side (backlash, a stiff
 * common first segment, a softening then stiffening loop), driven by triangle cycles at the table's range with
 * the piecewise-linear model itself (hy_element_drive), plus 1 % Gaussian force noise. The fit is the whole
 * library pipeline hy_pwlfit_run (loop analysis, branches, DP + variable projection on both sides, backlash
 * evidence, table validation, unloading stiffness, replay of the fitted model on the record and its cycle
 * energies), timed as the best of 3. Each size runs in a child process so that its peak resident memory is its
 * own (getrusage of the child); the ratio of the two peaks against the ratio of the sizes shows linearity. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "hyst/drive.h"
#include "hyst/model.h"
#include "hyst/pwl.h"
#include "hyst/pwlfit.h"
#include "bench_util.h"

/* positive side in mm and N; the negative side is its mirror */
static const double F_q[] = {0.2, 0.6, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 8.0};
static const double F_Q[] = {0, 60, 300, 480, 600, 690, 760, 860, 1200};
static const double B_q[] = {0.2, 0.6, 1.8, 3.0, 4.2, 5.2, 6.2, 7.2, 8.0};
static const double B_Q[] = {0, 60, 150, 230, 300, 370, 450, 560, 1200};
#define NP 9

// (rows wanted, fit options) => seconds of the best of `repeat` fits; prints what it found
static int run(size_t rows, int repeat, int *segF, double *best)
{
    double nq[4][NP];
    for (int i = 0; i < NP; i++) {
        nq[0][i] = -F_q[i];
        nq[1][i] = F_Q[i] == 0 ? 0.0 : -F_Q[i];
        nq[2][i] = -B_q[i];
        nq[3][i] = B_Q[i] == 0 ? 0.0 : -B_Q[i];
    }
    hy_pwl_table t = {HY_PWL_CONSTANT,
                      {{NP, F_q, F_Q}, {NP, B_q, B_Q}, 800.0},
                      {{NP, nq[0], nq[1]}, {NP, nq[2], nq[3]}, 800.0}};
    hy_pwl_model *m;
    hy_err err;
    if (hy_pwl_model_new(&t, "bench table", &m, &err)) {
        fprintf(stderr, "bench_pwlfit: %s\n", err.msg);
        return 1;
    }
    /* triangle cycles at the range, 5000 points each */
    const size_t per = 5000;
    const double amp[1] = {8.0};
    int cyc[1] = {(int)(rows / per)};
    hy_drive_spec d;
    hy_drive_spec_default(&d);
    d.wave = HY_DRIVE_TRIANGLE;
    d.n_levels = 1;
    d.amplitude = amp;
    d.cycles = cyc;
    d.points = per;
    size_t n;
    if (hy_drive_count(&d, &n, &err)) {
        fprintf(stderr, "bench_pwlfit: %s\n", err.msg);
        return 1;
    }
    double *tt = malloc(n * sizeof *tt), *q = malloc(n * sizeof *q), *Q = malloc(n * sizeof *Q);
    hy_element e;
    size_t done;
    hy_diag dg;
    if (!tt || !q || !Q || hy_drive_fill(&d, tt, q, n, &err) || hy_pwl_element_new(m, &e, &err) ||
        hy_element_drive(&e, 0.0, tt, q, n, Q, NULL, &done, &dg)) {
        fprintf(stderr, "bench_pwlfit: could not make the record\n");
        return 1;
    }
    hy_element_free(&e);
    for (size_t i = 0; i < n; i++)
        Q[i] += 12.0 * gauss();   /* 1 % of the peak force */
    hy_pwlfit_opts o;
    hy_pwlfit_opts_default(&o);
    o.segments_F = o.segments_B = 8;
    *best = INFINITY;
    hy_pwlfit_result r;
    for (int k = 0; k < repeat; k++) {
        double t0 = now();
        int rc = hy_pwlfit_run(q, Q, tt, n, &o, &r, &err);
        double dt = now() - t0;
        if (rc) {
            fprintf(stderr, "bench_pwlfit: %s\n", err.msg);
            return 1;
        }
        *best = fmin(*best, dt);
        if (k + 1 < repeat)
            hy_pwlfit_result_free(&r);
    }
    double worst = 0;   /* largest distance from a true breakpoint to the nearest fitted one */
    for (int i = 0; i < NP; i++) {
        double dF = INFINITY, dB = INFINITY;
        for (int j = 0; j < r.side[0].nF; j++)
            dF = fmin(dF, fabs(r.side[0].uF[j] - F_q[i]));
        for (int j = 0; j < r.side[0].nB; j++)
            dB = fmin(dB, fabs(r.side[0].uB[j] - B_q[i]));
        worst = fmax(worst, fmax(dF, dB));
    }
    printf("%-34s %12zu %-8s\n", "pwlfit record rows", n, "rows");
    printf("%-34s %12.4f %-8s (%% of the 16 mm range; target <= 2)\n", "pwlfit worst breakpoint error",
           100 * worst / 16.0, "%");
    printf("%-34s %12.4f %-8s (noise 12 N)\n", "pwlfit F rms positive", r.side[0].F.rms, "N");
    printf("%-34s %12.4f %-8s\n", "pwlfit replay NRMSE", 100 * r.nrmse, "%");
    *segF = r.side[0].nF - 1;
    hy_pwlfit_result_free(&r);
    free(tt);
    free(q);
    free(Q);
    hy_pwl_model_free(m);
    return 0;
}

// (rows) => child process runs the fit; its time and peak RSS (MB) come back
static int in_child(size_t rows, int repeat, double *secs, double *rss_mb)
{
    int fd[2];
    if (pipe(fd))
        return 1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        close(fd[0]);
        int segF = 0;
        double best = 0;
        int rc = run(rows, repeat, &segF, &best);
        fflush(stdout);
        if (write(fd[1], &best, sizeof best) != (ssize_t)sizeof best)
            rc = 1;
        _exit(rc);
    }
    close(fd[1]);
    double best = NAN;
    ssize_t got = read(fd[0], &best, sizeof best);
    close(fd[0]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        got != (ssize_t)sizeof best)
        return 1;
    *secs = best;
    *rss_mb = (double)ru.ru_maxrss / 1024.0;
    return 0;
}

int main(void)
{
    double s5, m5, s6, m6;
    if (in_child(100000, 3, &s5, &m5))
        return 1;
    printf("%-34s %12.4f %-8s target <= 0.1 (8+8 segments per side, 1 core)\n", "pwlfit 1e5-row fit seconds", s5,
           "s");
    printf("%-34s %12.1f %-8s\n", "pwlfit 1e5-row peak RSS", m5, "MB");
    if (in_child(1000000, 1, &s6, &m6))
        return 1;
    printf("%-34s %12.4f %-8s (completes)\n", "pwlfit 1e6-row fit seconds", s6, "s");
    printf("%-34s %12.1f %-8s\n", "pwlfit 1e6-row peak RSS", m6, "MB");
    printf("%-34s %12.2f %-8s (10x the rows)\n", "pwlfit RSS ratio 1e6/1e5", m6 / m5, "x");
    /* linear memory: the growth per added row is a constant (record 24 B, branch data 56 B, replay 8 B, ...) */
    printf("%-34s %12.1f %-8s (1e6 vs 1e5; the rest, %.1f MB, is fixed)\n", "pwlfit memory per row", 
           (m6 - m5) * 1048576.0 / 900000.0, "B/row", m5 - (m6 - m5) / 9.0);
    return 0;
}

/* Benchmark: loop analysis of a 2-million-row bench record on one core (issue 2: read + analyse <= 0.5 s).
 * Writes a realistic record to /tmp (force and displacement with a units row, as SPC1.csv; 10 amplitude levels x
 * 3 cycles, displacement noise and logger rounding), then times hy_csv_read (the data engineer's reader),
 * hy_loops_analyze and hy_loops_branches separately (best of 3), checks the reversal count, and prints rows per
 * second, seconds and peak memory. Target for the analysis alone: <= 0.1 s. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "hyst/csvread.h"
#include "hyst/loops.h"
#include "bench_util.h"

#define ROWS   2000000
#define LEVELS 10
#define REPEAT 3

// (open file descriptor) => the record written: 2e6 rows "force,displacement" after the names and units rows; 0 on success
static int write_record(int fd)
{
    FILE *fp = fdopen(fd, "w");
    if (!fp)
        return -1;
    static char iobuf[1 << 16];
    setvbuf(fp, iobuf, _IOFBF, sizeof iobuf);
    fprintf(fp, "Actuator Force,Actuator Displacement\nkN,mm\n");
    const long per_cycle = ROWS / (LEVELS * REPEAT);
    for (long i = 0; i < ROWS; i++) {
        long c = i / per_cycle;
        double A = 8.0 * (double)(c / REPEAT + 1);              /* 8 .. 80 mm                        */
        double ph = 2 * M_PI * (double)(i % per_cycle) / (double)per_cycle;
        double q = A * sin(ph) + 0.02 * gauss();               /* LVDT noise 0.02 mm                */
        double Q = 0.5 * A * sin(ph + 0.35) / (1 + 0.01 * A) + 0.05 * gauss();
        fprintf(fp, "%.3f,%.3f\n", Q, q);
    }
    return fclose(fp);
}

int main(void)
{
    char path[] = "/tmp/hyst-bench-loops-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        perror("mkstemp");
        return 1;
    }
    if (write_record(fd) != 0) {
        perror(path);
        unlink(path);
        return 1;
    }
    double t_read = 1e30, t_an = 1e30, t_br = 1e30;
    size_t n = 0, n_rev = 0, n_cyc = 0, n_branch = 0;
    double thr = 0;
    int rule = 0, ok = 1;
    for (int rep = 0; rep < 3 && ok; rep++) {
        hy_series s;
        hy_loops L;
        hy_branches B;
        hy_err err;
        double t0 = now();
        if (hy_csv_read(path, NULL, &s, &err) != HY_OK) {
            fprintf(stderr, "bench_loops: %s\n", err.msg);
            ok = 0;
            break;
        }
        double t1 = now();
        if (hy_loops_analyze(s.q, s.Q, s.n, NULL, &L, &err) != HY_OK) {
            fprintf(stderr, "bench_loops: %s\n", err.msg);
            hy_series_free(&s);
            ok = 0;
            break;
        }
        double t2 = now();
        if (hy_loops_branches(s.q, s.Q, s.n, &L, NULL, &B, &err) != HY_OK) {
            fprintf(stderr, "bench_loops: %s\n", err.msg);
            hy_loops_free(&L);
            hy_series_free(&s);
            ok = 0;
            break;
        }
        double t3 = now();
        t_read = fmin(t_read, t1 - t0);
        t_an = fmin(t_an, t2 - t1);
        t_br = fmin(t_br, t3 - t2);
        n = s.n;
        n_rev = L.n_rev;
        n_cyc = L.n_cyc;
        thr = L.threshold;
        rule = L.threshold_rule;
        n_branch = B.fwd_pos.n + B.bwd_pos.n + B.fwd_neg.n + B.bwd_neg.n;
        hy_branches_free(&B);
        hy_loops_free(&L);
        hy_series_free(&s);
    }
    unlink(path);
    if (!ok)
        return 1;
    /* The work was real: every cycle found, no noise reversal. */
    if (n != ROWS || n_rev != 2 * LEVELS * REPEAT) {
        fprintf(stderr, "bench_loops: wrong result: %zu rows, %zu reversals (expected %d)\n", n, n_rev,
                2 * LEVELS * REPEAT);
        return 1;
    }
    double t_all = t_an + t_br;
    printf("%-34s %12zu %-8s %zu reversals, %zu cycles, threshold %.4g mm (%s)\n", "loops rows", n, "rows", n_rev,
           n_cyc, thr, hy_loops_rule_name(rule));
    printf("%-34s %12.4f %-8s (hy_csv_read)\n", "loops read seconds", t_read, "s");
    printf("%-34s %12.4f %-8s target <= 0.1\n", "loops analyse seconds", t_an, "s");
    printf("%-34s %12.4f %-8s (%zu branch points)\n", "loops branches seconds", t_br, "s", n_branch);
    printf("%-34s %12.4f %-8s target <= 0.1\n", "loops analyse+branches seconds", t_all, "s");
    printf("%-34s %12.4f %-8s target <= 0.5\n", "loops read+analyse seconds", t_read + t_all, "s");
    printf("%-34s %12.3g %-8s\n", "loops analysis rows per second", (double)n / t_all, "rows/s");
    printf("%-34s %12.3g %-8s\n", "loops read+analyse rows per second", (double)n / (t_read + t_all), "rows/s");
    printf("%-34s %12.1f %-8s (series %.1f MB)\n", "loops peak memory", peak_rss_mb(), "MB",
           (double)n * (2 * sizeof(double) + sizeof(size_t)) / 1048576.0);
    return 0;
}

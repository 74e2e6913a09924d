// Benchmark: replay of a 10^6-row record with a piecewise-linear model, metrics included (target <= 1 s on one
// core), and `hyst plot all` of the same record written as CSV (target: a few seconds).
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hyst/loops.h"
#include "hyst/model.h"
#include "hyst/pwl.h"
#include "hyst/replay.h"
#include "bench_util.h"

/* A symmetric constant-parameter table (spec 000 §2): backlash 0.1, common first segment, F and B meeting at the
 * last point, B's last segment and the beyond-range segment at k_max = 20. */
static const double qF[] = {0.1, 0.5, 2.0, 3.0}, QF[] = {0, 4, 10, 14};
static const double qB[] = {0.1, 0.5, 2.5, 3.0}, QB[] = {0, 4, 4, 14};
static const double qFn[] = {-0.1, -0.5, -2.0, -3.0}, QFn[] = {0, -4, -10, -14};
static const double qBn[] = {-0.1, -0.5, -2.5, -3.0}, QBn[] = {0, -4, -4, -14};

int main(void)
{
    const size_t n = 1000000;
    hy_pwl_table tab = {
        .kind = HY_PWL_CONSTANT,
        .positive = {.forward = {4, qF, QF}, .backward = {4, qB, QB}, .k_beyond = 20},
        .negative = {.forward = {4, qFn, QFn}, .backward = {4, qBn, QBn}, .k_beyond = 20},
    };
    hy_err err;
    hy_model model = {.type = HY_MODEL_PWL};
    snprintf(model.unit_q, sizeof model.unit_q, "mm");
    snprintf(model.unit_Q, sizeof model.unit_Q, "kN");
    if (hy_pwl_model_new(&tab, "bench", &model.pwl, &err) != HY_OK) {
        fprintf(stderr, "bench_replay: %s\n", err.msg);
        return 1;
    }
    double *t = malloc(n * sizeof *t), *q = malloc(n * sizeof *q), *Qm = malloc(n * sizeof *Qm),
           *Qp = malloc(n * sizeof *Qp);
    /* 200 cycles of growing amplitude up to 3.4 (into the beyond-range segment), 5000 samples each */
    for (size_t i = 0; i < n; i++) {
        double c = (double)i / 5000.0;
        t[i] = 1e-3 * (double)i;
        q[i] = (0.2 + 3.2 * c / 200.0) * sin(2.0 * M_PI * c);
    }
    size_t row;
    hy_diag diag;
    /* the "measured" record: the model's own force plus Gaussian noise of sigma 0.1 kN */
    if (hy_replay_drive(&model, t, q, n, Qm, NULL, &row, &diag, &err) != HY_OK) {
        fprintf(stderr, "bench_replay: %s\n", err.msg);
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        Qm[i] += 0.1 * gauss();

    double best = 1e30, best_drive = 1e30;
    hy_replay_metrics M = {0};
    hy_loops L = {0};
    for (int rep = 0; rep < 3; rep++) {
        hy_replay_metrics_free(&M);
        hy_loops_free(&L);
        double t0 = now();
        if (hy_replay_drive(&model, t, q, n, Qp, NULL, &row, &diag, &err) != HY_OK)
            return fprintf(stderr, "bench_replay: %s\n", err.msg), 1;
        double t1 = now();
        hy_loops_opts lo;
        hy_loops_opts_default(&lo);
        if (hy_loops_analyze(q, Qm, n, &lo, &L, &err) != HY_OK ||
            hy_replay_metrics_compute(q, Qm, Qp, n, L.cyc, L.n_cyc, &M, &err) != HY_OK)
            return fprintf(stderr, "bench_replay: %s\n", err.msg), 1;
        double t2 = now();
        if (t2 - t0 < best)
            best = t2 - t0;
        if (t1 - t0 < best_drive)
            best_drive = t1 - t0;
    }
    printf("replay_1e6_rows_pwl_incl_metrics  %.3f s   (target <= 1 s; %zu cycles, NRMSE %.4f %%, noise/p2p %.4f %%)\n",
           best, M.n_cyc, 100.0 * M.nrmse, 100.0 * 0.1 / M.Q_ptp);
    printf("replay_1e6_rows_pwl_drive_only    %.3f s   (%.1f ns per step)\n", best_drive, 1e9 * best_drive / (double)n);

    /* hyst plot of the same record: write it as CSV with a model file, time the program */
    const char *bin = getenv("BIN");
    if (!bin || !*bin)
        bin = "bin";
    char dir[] = "/tmp/hyst-bench-replay-XXXXXX";
    if (!mkdtemp(dir))
        return perror("mkdtemp"), 1;
    char csv[128], js[128], png[128], cmd[1024];
    snprintf(csv, sizeof csv, "%s/record.csv", dir);
    snprintf(js, sizeof js, "%s/model.json", dir);
    snprintf(png, sizeof png, "%s/all.png", dir);
    FILE *fp = fopen(csv, "w");
    fprintf(fp, "t,q,Q\ns,mm,kN\n");
    for (size_t i = 0; i < n; i++)
        fprintf(fp, "%.6f,%.9g,%.9g\n", t[i], q[i], Qm[i]);
    fclose(fp);
    if (hy_model_write(&model, js, NULL, &err) != HY_OK)
        return fprintf(stderr, "bench_replay: %s\n", err.msg), 1;
    int rc = 0;
    const char *kinds[] = {"replay", "plot all", "plot loops"};
    const char *names[] = {"hyst_replay_1e6_rows", "hyst_plot_all_1e6_rows", "hyst_plot_loops_1e6_rows"};
    for (int k = 0; k < 3; k++) {
        if (k == 0)
            snprintf(cmd, sizeof cmd, "'%s/hyst' replay --t t --brief '%s' '%s' >/dev/null", bin, js, csv);
        else
            snprintf(cmd, sizeof cmd, "'%s/hyst' %s --t t '%s' '%s' -o '%s'", bin, kinds[k], js, csv, png);
        double t0 = now();
        int st = system(cmd);
        double dt = now() - t0;
        if (st != 0) {
            fprintf(stderr, "bench_replay: '%s' failed (status %d)\n", cmd, st);
            rc = 1;
            break;
        }
        printf("%-33s %.3f s   (%s; whole program run incl. reading the CSV)\n", names[k], dt,
               k ? "target: a few seconds" : "information");
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_replay: could not remove %s\n", dir);
    hy_replay_metrics_free(&M);
    hy_loops_free(&L);
    hy_pwl_model_free(model.pwl);
    free(t);
    free(q);
    free(Qm);
    free(Qp);
    return rc;
}

/* Benchmark: the C side of the Python figures (python/bench/bench_python.py, docs/python.md). hy_element_drive
 * (trial + commit per sample, what hystkit's Model.simulate calls once per batch) over the drive the Python
 * benchmark uses: q_i = A sin(2 pi i / 200) (1 + 0.3 sin(2 pi i / 20000)) / 1.3, n samples, best of REPS, CPU
 * time. Usage: bench_drive [MODEL.json AMPLITUDE N]... (default: the two model fixtures). Prints one line per
 * model: "drive <file> <n> samples: <ns> ns/sample". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "hyst/model.h"
#include "bench_util.h"

#define REPS 7

static int run(const char *path, double amp, size_t n)
{
    hy_model m;
    hy_element e;
    hy_err err;
    if (hy_model_read(path, &m, &err) != HY_OK) {
        fprintf(stderr, "bench_drive: %s\n", err.msg);
        return 1;
    }
    double *q = malloc(n * sizeof *q), *Q = malloc(n * sizeof *Q);
    if (!q || !Q)
        return 1;
    for (size_t i = 0; i < n; i++)
        q[i] = amp * sin(2 * M_PI * (double)i / 200) * (1 + 0.3 * sin(2 * M_PI * (double)i / 20000)) / 1.3;
    double best = INFINITY, sum = 0;
    for (int r = 0; r < REPS; r++) {
        if (hy_model_element(&m, &e, &err) != HY_OK)
            return 1;
        size_t done;
        hy_diag d;
        double t0 = cpu_now();
        int rc = hy_element_drive(&e, 0.0, NULL, q, n, Q, NULL, &done, &d);
        double dt = cpu_now() - t0;
        hy_element_free(&e);
        if (rc != HY_OK) {
            fprintf(stderr, "bench_drive: %s: stopped at sample %zu\n", path, done);
            return 1;
        }
        if (dt < best)
            best = dt;
        sum += Q[n - 1];
    }
    printf("drive %s %zu samples: %.2f ns/sample (checksum %.6g)\n", path, n, 1e9 * best / (double)n, sum);
    free(q);
    free(Q);
    hy_model_free(&m);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 4) {
        for (int i = 1; i + 2 < argc; i += 3)
            if (run(argv[i], atof(argv[i + 1]), (size_t)atol(argv[i + 2])))
                return 1;
        return 0;
    }
    return run("fixtures/models/pwl-constant.json", 7.5, 1000000) ||
           run("fixtures/models/paper-damper-full.json", 0.5, 1000000);
}

/* Benchmark of `mech sweep` (issue 20, docs/sweep.md §Figures):
 *   - throughput for an S2-class scenario: S2-B (Soyuz 7.2 t, 0.15 m/s, 0.10 m miss) with the closing speed and the
 *     miss drawn per run, 5 s simulated at a 2 ms step (the step docs/dock.md shows converged for S2) and at the
 *     default 0.25 ms: runs per second of one core through mech_sweep_run (the library path a worker takes);
 *   - the per-run overhead: the same runs with a duration of one step (scenario text edited in the cJSON tree, printed, parsed,
 *     four law files read, the model compiled, the simulation allocated) against the run itself;
 *   - the per-run time distribution (mean, sd, max) and the cost of one message round trip over a pipe (what a
 *     forked worker pays per run), the inputs of the efficiency model of docs/sweep.md;
 *   - 1 -> 2 workers: `mech sweep -j1` and `-j2` on the same 32-run plan (wall time; BIN names the program),
 *     efficiency T1 / (2 T2), target >= 90 %. CPU time of one core is the figure where the machine is shared.
 * Plans are written to a temporary folder and name the fixtures by absolute path (TOP or the current folder). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "mech/sweep.h"
#include "bench_util.h"

static char tmpdir[] = "/tmp/bench_sweep.XXXXXX";

static int write_plan(const char *name, const char *top, double step, double duration, int samples, char *path)
{
    snprintf(path, PATH_MAX, "%s/%s", tmpdir, name);
    FILE *fp = fopen(path, "w");
    if (!fp)
        return -1;
    fprintf(fp,
            "{\"format\": \"mech-sweep\", \"scenario\": \"%s/fixtures/mech/dock/s2-B.json\",\n"
            " \"set\": {\"step\": %g, \"duration\": %g, \"capture_timeout\": 5, \"outputs.plots\": false,\n"
            "         \"outputs.records\": false, \"outputs.view_times\": []},\n"
            " \"vary\": {\"initial.closing_speed\": {\"dist\": \"uniform\", \"min\": 0.1, \"max\": 0.2},\n"
            "          \"initial.offset_y\": {\"dist\": \"uniform\", \"min\": 0.05, \"max\": 0.15}},\n"
            " \"samples\": %d, \"sampling\": \"lhs\", \"seed\": 1}\n",
            top, step, duration, samples);
    fclose(fp);
    return 0;
}

// (plan, runs) => CPU seconds per run (mean, sd, max) through mech_sweep_run
static int time_runs(const char *path, int n, double *mean, double *sd, double *mx, int *captured)
{
    mech_sweep_plan p;
    hy_err err;
    if (mech_sweep_plan_read(path, 1, &p, &err) != HY_OK) {
        fprintf(stderr, "bench_sweep: %s\n", err.msg);
        return -1;
    }
    double s = 0, s2 = 0;
    *mx = 0, *captured = 0;
    for (int i = 0; i < n; i++) {
        mech_sweep_result r;
        double c0 = cpu_now();
        mech_sweep_run(&p, i % p.nrun, &r);
        double c = cpu_now() - c0;
        if (r.failed)
            fprintf(stderr, "bench_sweep: run %d failed: %s\n", i, r.msg);
        *captured += r.m[MECH_SWEEP_M_CAPTURED] == 1;
        s += c, s2 += c * c, *mx = fmax(*mx, c);
    }
    *mean = s / n;
    *sd = n > 1 ? sqrt(fmax(0, (s2 - s * s / n) / (n - 1))) : 0;
    mech_sweep_plan_free(&p);
    return 0;
}

static double pipe_round_trip(void)
{
    int a[2], b[2];
    if (pipe(a) || pipe(b))
        return NAN;
    pid_t pid = fork();
    if (pid == 0) {
        long id;
        mech_sweep_result r;
        memset(&r, 0, sizeof r);
        while (read(a[0], &id, sizeof id) == sizeof id && id >= 0)
            if (write(b[1], &r, sizeof r) != sizeof r)
                break;
        _exit(0);
    }
    enum { N = 20000 };
    mech_sweep_result r;
    double t0 = now();
    for (long i = 0; i < N; i++) {
        if (write(a[1], &i, sizeof i) != sizeof i)
            break;
        size_t got = 0;
        while (got < sizeof r) {
            ssize_t k = read(b[0], (char *)&r + got, sizeof r - got);
            if (k <= 0)
                break;
            got += (size_t)k;
        }
    }
    double t = (now() - t0) / N;
    long stop = -1;
    if (write(a[1], &stop, sizeof stop) != sizeof stop) {
    }
    waitpid(pid, NULL, 0);
    close(a[0]), close(a[1]), close(b[0]), close(b[1]);
    return t;
}

static double children_cpu(void)
{
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec +
           1e-6 * (double)ru.ru_stime.tv_usec;
}

static double load1(void)
{
    double l = NAN;
    FILE *fp = fopen("/proc/loadavg", "r");
    if (fp) {
        if (fscanf(fp, "%lf", &l) != 1)
            l = NAN;
        fclose(fp);
    }
    return l;
}

// (program folder, plan, workers) => wall seconds of the sweep; *cpu: CPU seconds of it and its workers
static double sweep_wall(const char *bin, const char *plan, int j, double *cpu)
{
    char cmd[3 * PATH_MAX];
    snprintf(cmd, sizeof cmd, "rm -rf '%s/o%d' && '%s/mech' sweep '%s' --out '%s/o%d' -j %d -q --no-plots", tmpdir, j,
             bin, plan, tmpdir, j, j);
    double t0 = now(), c0 = children_cpu();
    int st = system(cmd);
    double t = now() - t0;
    *cpu = children_cpu() - c0;
    return st == 0 ? t : NAN;
}

int main(void)
{
    char top[PATH_MAX], plan[PATH_MAX];
    const char *t = getenv("TOP");
    if (!t && !getcwd(top, sizeof top))
        return 1;
    if (t)
        snprintf(top, sizeof top, "%s", t);
    if (!mkdtemp(tmpdir))
        return 1;
    double mean, sd, mx;
    int cap;
    /* the overhead: one step of 2 ms */
    write_plan("zero.json", top, 0.002, 0.002, 16, plan);   /* one step */
    if (time_runs(plan, 16, &mean, &sd, &mx, &cap))
        return 1;
    double over = mean;
    printf("per-run overhead (scenario edit + print + parse + 4 law files + model + sim): %.2f ms CPU\n", 1e3 * over);
    /* S2-class at 2 ms */
    write_plan("s2.json", top, 0.002, 5, 16, plan);
    if (time_runs(plan, 16, &mean, &sd, &mx, &cap))
        return 1;
    printf("S2-B, 5 s at h = 2 ms: %.1f ms CPU per run (sd %.1f, max %.1f; %d of 16 capture): %.2f runs/s on one "
           "core; overhead %.1f %% of a run\n", 1e3 * mean, 1e3 * sd, 1e3 * mx, cap, 1 / mean, 100 * over / mean);
    double mean2 = mean;
    write_plan("s2d.json", top, 2.5e-4, 5, 2, plan);
    if (time_runs(plan, 2, &mean, &sd, &mx, &cap))
        return 1;
    printf("S2-B, 5 s at the default h = 0.25 ms: %.0f ms CPU per run: %.2f runs/s on one core; overhead %.2f %%\n",
           1e3 * mean, 1 / mean, 100 * over / mean);
    double rt = pipe_round_trip();
    printf("pipe round trip (id out, %zu-byte result back): %.1f us = %.4f %% of a 2 ms-step run\n",
           sizeof(mech_sweep_result), 1e6 * rt, 100 * rt / mean2);
    /* 1 -> 2 workers */
    const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
    char binabs[PATH_MAX];
    if (!realpath(bin, binabs))
        snprintf(binabs, sizeof binabs, "%s", bin);
    write_plan("scale.json", top, 0.002, 5, 32, plan);
    double c1, c2, l0 = load1();
    double t1 = sweep_wall(binabs, plan, 1, &c1), t2 = sweep_wall(binabs, plan, 2, &c2);
    printf("mech sweep, 32 runs: -j1 %.2f s, -j2 %.2f s wall: speed-up %.2f, efficiency %.0f %% (target >= 90 %%: "
           "%s; load average %.1f on %ld cores when it started)\n", t1, t2, t1 / t2, 100 * t1 / (2 * t2),
           t1 / (2 * t2) >= 0.9 ? "MET" : "MISSED", l0, sysconf(_SC_NPROCESSORS_ONLN));
    printf("  CPU of the sweep and its workers: -j1 %.2f s, -j2 %.2f s: the work itself grows by %.1f %% with 2 "
           "workers (what parallelism costs apart from waiting for a core)\n", c1, c2, 100 * (c2 / c1 - 1));
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : 1;
}

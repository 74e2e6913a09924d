/* Benchmark: exact number text (hy_fmt_exact) and whole histories written with it. Issue 17 targets, one core:
 * <= 60 ns a number; a 10^6-row, 10-channel history in <= 0.5 s as CSV. Prints ns a number for the former
 * algorithm (shortest of %.15g / %.16g / %.17g checked by strtod, kept here as the reference) and the current one
 * (libdouble-conversion's shortest digits), on the kind of numbers a simulation writes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hyst/noise.h"
#include "hyst/util.h"
#include "bench_util.h"

#define NUMS 1000000
#define ROWS 1000000
#define COLS 10

static int ref_fmt(char *buf, size_t len, double v)
{
    int n = 0;
    for (int prec = 15; prec <= 17; prec++) {
        n = snprintf(buf, len, "%.*g", prec, v);
        if (prec == 17 || !isfinite(v) || strtod(buf, NULL) == v)
            break;
    }
    return n;
}

// (row i, column k) => a smooth channel value of a simulation history (full-precision doubles)
static double channel(long i, int k)
{
    double t = 2.5e-4 * (double)i;
    static const double scale[COLS] = {1, 1e-4, 1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3, 1e4};
    return k == 0 ? t : (1.0 + k) * scale[k] * sin((0.7 + 0.3 * k) * t + k);
}

// (formatter) => best of 3 CPU seconds to format v[NUMS]; *chars = total text length (keeps the work observable)
static double time_fmt(int (*f)(char *, size_t, double), const double *v, long *chars)
{
    double best = 1e30;
    for (int rep = 0; rep < 3; rep++) {
        char b[40];
        long c = 0;
        double t0 = cpu_now();
        for (long i = 0; i < NUMS; i++)
            c += f(b, sizeof b, v[i]);
        double dt = cpu_now() - t0;
        best = dt < best ? dt : best;
        *chars = c;
    }
    return best;
}

// (formatter, path) => CPU seconds to write the 10^6 x 10 history as CSV with exact numbers, one buffered write a row
static double csv_history(int (*f)(char *, size_t, double), const char *path, double *mb)
{
    FILE *fp = fopen(path, "w");
    if (!fp)
        return -1;
    static char iobuf[512 * 1024];
    setvbuf(fp, iobuf, _IOFBF, sizeof iobuf);
    double t0 = cpu_now();
    char line[COLS * 33];
    for (long i = 0; i < ROWS; i++) {
        char *l = line;
        for (int k = 0; k < COLS; k++) {
            l += f(l, 32, channel(i, k));
            *l++ = k + 1 < COLS ? ',' : '\n';
        }
        fwrite(line, 1, (size_t)(l - line), fp);
    }
    *mb = (double)ftell(fp) / 1e6;
    fclose(fp);
    return cpu_now() - t0;
}

int main(void)
{
    double *v = malloc(NUMS * sizeof *v);
    if (!v)
        return 1;
    hy_rng r;
    hy_rng_seed(&r, 17, 2);
    for (long i = 0; i < NUMS; i++) /* state values: full 17-digit doubles over 12 decades, both signs */
        v[i] = (hy_rng_uniform(&r) - 0.5) * pow(10, (int)(hy_rng_u64(&r) % 12) - 6);
    long c_old, c_new;
    double t_old = time_fmt(ref_fmt, v, &c_old), t_new = time_fmt(hy_fmt_exact, v, &c_new);
    printf("hy_fmt_exact: %.1f ns a number (former snprintf/strtod loop %.1f ns, %.1fx faster; target <= 60 ns); "
           "%.2f / %.2f chars a number\n",
           1e9 * t_new / NUMS, 1e9 * t_old / NUMS, t_old / t_new, (double)c_new / NUMS, (double)c_old / NUMS);
    free(v);

    char path[] = "/tmp/hyst-bench-fmt-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    close(fd);
    double mb = 0, t_csv = csv_history(hy_fmt_exact, path, &mb);
    printf("history 10^6 rows x %d channels as CSV: %.3f s CPU, %.0f MB (target <= 0.5 s)\n", COLS, t_csv, mb);
    unlink(path);
    return t_csv < 0;
}

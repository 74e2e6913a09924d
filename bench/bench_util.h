/* Shared by the benchmarks (bench/bench_*.c): a monotonic clock, peak memory, and seeded Gaussian noise from
 * libhyst's generator (hyst/noise.h), so every benchmark input is the same on every run and machine. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <stdint.h>
#include <sys/resource.h>
#include <time.h>
#include "hyst/noise.h"

// () => seconds on a monotonic clock
static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// () => CPU seconds of the calling thread: on a shared machine wall time also counts the time other processes
// hold the core, and the per-step targets are about one core (benchmarks run with OPENBLAS_NUM_THREADS=1)
static inline double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// () => peak resident memory of this process so far, MB
static inline double peak_rss_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

// () => a standard normal deviate from one seeded stream per benchmark
static inline double gauss(void)
{
    static hy_rng r;
    static int seeded;
    if (!seeded) {
        hy_rng_seed(&r, 20261121u, 0);
        seeded = 1;
    }
    return hy_rng_normal(&r);
}

#endif

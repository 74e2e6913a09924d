/* The allocation counter of the benchmarks: malloc, calloc and realloc are interposed and counted in n_alloc, so
 * a benchmark can show that its hot path allocates nothing (n_alloc unchanged across the timed loop). Include it in
 * exactly one file per benchmark binary (each bench/bench_*.c is one binary). Under AddressSanitizer, which owns
 * the allocator, nothing is interposed, COUNT_ALLOC is 0 and n_alloc stays 0. */
#ifndef BENCH_ALLOC_H
#define BENCH_ALLOC_H

#include <stddef.h>

#if defined(__SANITIZE_ADDRESS__)
#define COUNT_ALLOC 0
static long n_alloc __attribute__((unused)); /* stays 0 */
#else
#define COUNT_ALLOC 1
static long n_alloc;
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
void *malloc(size_t n)
{
    n_alloc++;
    return __libc_malloc(n);
}
void *calloc(size_t n, size_t s)
{
    n_alloc++;
    return __libc_calloc(n, s);
}
void *realloc(void *p, size_t n)
{
    n_alloc++;
    return __libc_realloc(p, n);
}
void free(void *p) { __libc_free(p); }
#endif

#endif

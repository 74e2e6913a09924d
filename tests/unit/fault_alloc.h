/* Allocation-failure injection for unit tests (SQLite's discipline): a test binary linked with fault_alloc.c
 * has its own malloc, calloc, realloc, free, strdup and strndup, forwarding to the next ones in the link order
 * (glibc's, or AddressSanitizer's under `make test SAN=1`, whose leak checker keeps working). Every allocation
 * of the process passes through them: libhyst's and libmech's, cJSON's (its default hooks call malloc), libcsv's
 * (realloc), LAPACKE's work arrays and the C library's own (fopen).
 *
 * fault_check runs a call once normally, counting its allocations N, then N more times with the 1st, 2nd, ...
 * allocation failing (one failure per run; the others succeed), until a run completes without reaching the
 * failing one. Each failing run must return HY_ENOMEM (or NULL mapped to it by the caller's wrapper), or succeed
 * when the failure was absorbed below the library (counted as recovered), and, after
 * the wrapper's cleanup, leave exactly as many blocks allocated as before it: a leak is found even without ASan.
 * Test binaries named tests/unit/test_fault_*.c are linked with it (Makefile). */
#ifndef FAULT_ALLOC_H
#define FAULT_ALLOC_H

#include <stddef.h>

typedef struct fault_report {
    long allocs;     /* allocations of the undisturbed run                                          */
    long injected;   /* runs with one allocation failing                                            */
    long recovered;  /* failing runs that still succeeded (a library retried, stdio went unbuffered)   */
    long bad_code;   /* failing runs that returned something other than HY_ENOMEM or HY_OK            */
    long leaked;     /* failing runs after which blocks stayed allocated (first in msg)             */
    char msg[512];
} fault_report;

/* A call under test: returns its status (HY_OK on success); cleanup releases whatever a call left (outputs of a
 * success, and anything a failed call should not have kept is a leak the count reveals). */
typedef int  (*fault_fn)(void *ctx);
typedef void (*fault_cleanup_fn)(void *ctx);

// (name for messages, call, cleanup, its context) => report; returns 0 when every failing run gave HY_ENOMEM and
// leaked nothing and the undisturbed run succeeded, else -1 (report->msg says which run and what)
int fault_check(const char *name, fault_fn fn, fault_cleanup_fn cleanup, void *ctx, fault_report *rep);

// (k >= 1: the k-th allocation from now fails; 0: none) => armed; returns allocations counted since the last call
long fault_arm(long k);

/* (substrings of shared objects' paths separated by '|', e.g. "libglpk|libopenblas", or NULL) => allocations
 * called directly from those objects are neither counted nor failed (still tracked for leaks): for libraries that
 * cannot survive a failing malloc (GLPK's allocator aborts the process, OpenBLAS's threaded kernels exit(1)). */
void fault_exclude(const char *lib);

// () => 1 when the armed allocation was reached and made to fail
int fault_fired(void);

// () => blocks currently allocated through the interposer (allocations minus frees)
long fault_live(void);

#endif

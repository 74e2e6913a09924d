// Allocation-failure injection for unit tests (see fault_alloc.h).
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <execinfo.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fault_alloc.h"
#include "hyst/common.h"

static void *(*next_malloc)(size_t);
static void *(*next_calloc)(size_t, size_t);
static void *(*next_realloc)(void *, size_t);
static void (*next_free)(void *);

/* dlsym itself may allocate before the real functions are known: those few blocks come from here, never freed. */
static _Alignas(16) unsigned char boot[8192];
static size_t boot_used;

static long counted;   /* allocations since fault_arm                    */
static long target;    /* the counted allocation that fails (0: none)     */
static int fired;
static long live;      /* allocations minus frees                          */
static char exclude[128]; /* "a|b": allocations called from a shared object whose path contains a or b */

/* (return address of malloc) => 1 when the caller lives in an excluded shared object */
static int excluded(void *ra)
{
    if (!exclude[0])
        return 0;
    Dl_info info;
    if (!dladdr(ra, &info) || !info.dli_fname)
        return 0;
    for (const char *p = exclude; *p;) {
        size_t n = strcspn(p, "|");
        for (const char *f = info.dli_fname; (f = strchr(f, *p)); f++)
            if (strncmp(f, p, n) == 0)
                return 1;
        p += n + (p[n] == '|');
    }
    return 0;
}

static void *boot_alloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (boot_used + n > sizeof boot)
        return NULL;
    void *p = boot + boot_used;
    boot_used += n;
    return p;
}

static int in_boot(const void *p)
{
    return (const unsigned char *)p >= boot && (const unsigned char *)p < boot + sizeof boot;
}

static void init(void)
{
    static int busy;
    if (busy)
        return;
    busy = 1;
    next_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    next_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    next_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    next_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    if (!next_malloc || !next_calloc || !next_realloc || !next_free) {
        fputs("fault_alloc: cannot find the next malloc\n", stderr);
        abort();
    }
    busy = 0;
}

// () => 1 when this allocation is the one to fail
static int fail_now(void)
{
    long c = __atomic_add_fetch(&counted, 1, __ATOMIC_RELAXED);
    if (target > 0 && c == target) {
        fired = 1;
        const char *bt = getenv("FAULT_BACKTRACE"); /* "1": every injected failure's call stack, "K": only the K-th */
        if (bt && (atol(bt) <= 1 || atol(bt) == c)) {
            void *pc[32];
            int n = backtrace(pc, 32);
            fprintf(stderr, "fault: allocation %ld fails here:\n", c);
            backtrace_symbols_fd(pc, n, 2);
        }
        errno = ENOMEM;
        return 1;
    }
    return 0;
}

void *malloc(size_t n)
{
    if (!next_malloc) {
        init();
        if (!next_malloc)
            return boot_alloc(n);
    }
    if (!excluded(__builtin_return_address(0)) && fail_now())
        return NULL;
    void *p = next_malloc(n);
    if (p)
        __atomic_add_fetch(&live, 1, __ATOMIC_RELAXED);
    return p;
}

void *calloc(size_t k, size_t n)
{
    if (!next_calloc) {
        init();
        if (!next_calloc)
            return n && k > SIZE_MAX / n ? NULL : boot_alloc(k * n); /* static, so already zero */
    }
    if (!excluded(__builtin_return_address(0)) && fail_now())
        return NULL;
    void *p = next_calloc(k, n);
    if (p)
        __atomic_add_fetch(&live, 1, __ATOMIC_RELAXED);
    return p;
}

void *realloc(void *p, size_t n)
{
    if (!next_realloc)
        init();
    if (p && in_boot(p)) { /* never happens in practice: move the block out of the boot area */
        void *q = malloc(n);
        if (q)
            memcpy(q, p, n < (size_t)(boot + sizeof boot - (unsigned char *)p) ? n : (size_t)(boot + sizeof boot -
                                                                                              (unsigned char *)p));
        return q;
    }
    if (!excluded(__builtin_return_address(0)) && fail_now())
        return NULL; /* p stays valid, as realloc promises */
    void *q = next_realloc(p, n);
    if (!p && q)
        __atomic_add_fetch(&live, 1, __ATOMIC_RELAXED);
    else if (p && !q && n == 0)
        __atomic_sub_fetch(&live, 1, __ATOMIC_RELAXED); /* realloc(p, 0) freed p */
    return q;
}

void free(void *p)
{
    if (!p || in_boot(p))
        return;
    if (!next_free)
        init();
    __atomic_sub_fetch(&live, 1, __ATOMIC_RELAXED);
    next_free(p);
}

char *strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

char *strndup(const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

void fault_exclude(const char *lib)
{
    snprintf(exclude, sizeof exclude, "%s", lib ? lib : "");
}

long fault_arm(long k)
{
    long c = counted;
    counted = 0;
    fired = 0;
    target = k;
    return c;
}

int fault_fired(void)
{
    return fired;
}

long fault_live(void)
{
    return live;
}

int fault_check(const char *name, fault_fn fn, fault_cleanup_fn cleanup, void *ctx, fault_report *rep)
{
    memset(rep, 0, sizeof *rep);
    /* An undisturbed run first: it must succeed, and it pays for one-time allocations (locale objects, lazily
     * created library state) so that they are not counted as leaks of the failing runs. */
    fault_arm(0);
    int rc = fn(ctx);
    if (cleanup)
        cleanup(ctx);
    if (rc != HY_OK) {
        snprintf(rep->msg, sizeof rep->msg, "%s: failed without injected failures (status %d)", name, rc);
        return -1;
    }
    long before = fault_live();
    fault_arm(0);
    rc = fn(ctx);
    rep->allocs = fault_arm(0);
    if (cleanup)
        cleanup(ctx);
    if (rc != HY_OK || fault_live() != before) {
        snprintf(rep->msg, sizeof rep->msg, "%s: second undisturbed run: status %d, %ld blocks more", name, rc,
                 fault_live() - before);
        return -1;
    }
    for (long k = 1;; k++) {
        before = fault_live();
        fault_arm(k);
        rc = fn(ctx);
        int hit = fault_fired();
        fault_arm(0);
        if (cleanup)
            cleanup(ctx);
        long extra = fault_live() - before;
        char what[200] = "";
        if (!hit) {
            if (rc != HY_OK) {
                rep->bad_code++;
                snprintf(what, sizeof what, "failed (status %d) with no allocation failing", rc);
            }
        } else {
            rep->injected++;
            if (rc == HY_OK) {
                rep->recovered++; /* the failure was absorbed (libcsv and stdio retry or go unbuffered) */
                if (getenv("FAULT_VERBOSE"))
                    fprintf(stderr, "fault: %s: allocation %ld failing is absorbed\n", name, k);
            }
            else if (rc != HY_ENOMEM) {
                rep->bad_code++;
                snprintf(what, sizeof what, "allocation %ld failing gives status %d, expected HY_ENOMEM", k, rc);
            }
            if (extra != 0) {
                rep->leaked++;
                snprintf(what + strlen(what), sizeof what - strlen(what), "%sallocation %ld failing leaves %ld blocks",
                         what[0] ? "; " : "", k, extra);
            }
        }
        if (what[0]) {
            if (!rep->msg[0])
                snprintf(rep->msg, sizeof rep->msg, "%s: %s", name, what);
            if (rep->bad_code + rep->leaked <= 20)
                fprintf(stderr, "fault: %s: %s\n", name, what);
        }
        if (!hit)
            break;
        if (k > 10000000) {
            snprintf(rep->msg, sizeof rep->msg, "%s: more than 10^7 allocations", name);
            return -1;
        }
    }
    return rep->bad_code || rep->leaked ? -1 : 0;
}

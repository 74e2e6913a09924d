/* Helpers shared by the libFuzzer harnesses fuzz/fuzz_*.c (docs/fuzzing.md). A failed invariant aborts with a
 * message on stderr, which libFuzzer reports as a crash and saves the input. */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "hyst/common.h"

#define FUZZ_CHECK(cond, ...)                                                                                    \
    do {                                                                                                          \
        if (!(cond)) {                                                                                            \
            fprintf(stderr, "invariant failed: %s: ", #cond);                                                    \
            fprintf(stderr, __VA_ARGS__);                                                                         \
            fputc('\n', stderr);                                                                                  \
            abort();                                                                                              \
        }                                                                                                         \
    } while (0)

/* An error message is one line of printable text: no control bytes (a newline would break FILE:LINE:COL, an
 * escape sequence would reach the terminal), not empty, and within the record. */
static inline void fuzz_check_message(const hy_err *e)
{
    size_t n = strnlen(e->msg, sizeof e->msg);
    FUZZ_CHECK(n < sizeof e->msg, "message not terminated");
    FUZZ_CHECK(n > 0, "empty message for code %d", e->code);
    for (size_t i = 0; i < n; i++)
        FUZZ_CHECK((unsigned char)e->msg[i] >= 0x20 && e->msg[i] != 0x7f, "control byte 0x%02x at %zu in \"%s\"",
                   (unsigned char)e->msg[i], i, e->msg);
}

/* An error record filled with what a reader must overwrite: code 100 and a message of DEL bytes with no
 * terminator. A reader that fails without setting its message then fails fuzz_check_message every time, not only
 * when the stack happens to hold garbage (the fuzz_sweep_plan find of 2026-11-26 was such a path). */
static inline void fuzz_err_poison(hy_err *e)
{
    e->code = 100;
    memset(e->msg, 0x7f, sizeof e->msg);
}

/* The input as a file without touching the disk: a memfd, opened by the readers as /proc/self/fd/N (a fresh
 * open of it starts at offset 0). Returns the fd (>= 0) and the path in path[size]. */
static inline int fuzz_memfile(const uint8_t *data, size_t size, char *path, size_t psize)
{
    int fd = memfd_create("fuzz", MFD_CLOEXEC);
    if (fd < 0) {
        perror("memfd_create");
        abort();
    }
    size_t off = 0;
    while (off < size) {
        ssize_t k = write(fd, data + off, size - off);
        if (k <= 0) {
            perror("write");
            abort();
        }
        off += (size_t)k;
    }
    snprintf(path, psize, "/proc/self/fd/%d", fd);
    return fd;
}

#endif

/* Whole reads and writes on a pipe or file descriptor (hyst/util.h): the worker processes of mech sweep's pool and of
 * mech calibrate's Jacobian columns send fixed-size records over pipes, where read and write may return short or be
 * interrupted by a signal. */
#include <errno.h>
#include <unistd.h>
#include "hyst/util.h"

int hy_fd_read_full(int fd, void *buf, size_t n)
{
    char *b = buf;
    while (n) {
        ssize_t k = read(fd, b, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        b += k, n -= (size_t)k;
    }
    return 0;
}

int hy_fd_write_full(int fd, const void *buf, size_t n)
{
    const char *b = buf;
    while (n) {
        ssize_t k = write(fd, b, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        b += k, n -= (size_t)k;
    }
    return 0;
}

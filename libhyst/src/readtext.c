// Whole-file reading for the configuration and model readers (one copy of the loop they all need).
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "hyst/util.h"

/* One limit for every file read whole (models, parameter, configuration and scenario files): the largest of the
 * shipped files is a few hundred kB, so 64 MiB leaves room for hand-made tables while a wrong path (a disk image,
 * /dev/zero, a log) is refused before it fills the memory. HYST_READ_MAX (bytes) lowers or raises it. */
size_t hy_read_limit(void)
{
    const char *env = getenv("HYST_READ_MAX");
    if (env && *env) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(env, &end, 10);
        if (!*end && !errno && v > 0 && v < SIZE_MAX)
            return (size_t)v;
    }
    return HY_READ_MAX_DEFAULT;
}

int hy_read_text(const char *path, const char *what, size_t max_len, char **text, size_t *len, hy_err *err)
{
    *text = NULL;
    *len = 0;
    const char *name = hy_display_name(path);
    size_t limit = hy_read_limit();
    if (max_len && max_len < limit)
        limit = max_len;
    int from_stdin = strcmp(path, "-") == 0;
    struct stat st;
    /* A device (/dev/zero, a disk, a terminal other than standard input) or a socket is no configuration file:
       refused before it is opened, since opening one may already block or act. A FIFO is read up to the limit. */
    if (!from_stdin && stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) && !S_ISFIFO(st.st_mode))
        return hy_err_set(err, HY_EIO, "%s: is a device or socket, not a regular file: expected %s", name, what);
    FILE *fp = from_stdin ? stdin : fopen(path, "rb");
    if (!fp)
        return hy_err_set(err, errno == ENOMEM ? HY_ENOMEM : HY_EIO, "%s: cannot open: %s", name, strerror(errno));
    int rc = HY_OK;
    if (fstat(fileno(fp), &st) == 0) {
        if (S_ISDIR(st.st_mode))
            rc = hy_err_set(err, HY_EIO, "%s: is a directory, expected %s", name, what);
        else if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > limit)   /* refused without reading it */
            rc = hy_err_set(err, HY_EPARSE, "%s: %jd bytes, larger than the %zu-byte limit of an input file "
                            "(HYST_READ_MAX): not %s", name, (intmax_t)st.st_size, limit, what);
    }
    if (rc != HY_OK) {
        if (!from_stdin)
            fclose(fp);
        return rc;
    }
    size_t cap = 0, n = 0;
    char *buf = NULL;
    for (;;) {
        if (n > limit) {   /* at most limit + 1 bytes are ever read */
            rc = hy_err_set(err, HY_EPARSE, "%s: larger than the %zu-byte limit of an input file (HYST_READ_MAX): "
                            "not %s", name, limit, what);
            break;
        }
        if (n + 4096 + 1 > cap) {
            size_t want = 2 * cap + 8192;
            if (want > limit + 4096 + 2)
                want = limit + 4096 + 2;
            char *t = realloc(buf, cap = want);
            if (!t) {
                rc = hy_err_set(err, HY_ENOMEM, "%s: out of memory", name);
                break;
            }
            buf = t;
        }
        size_t chunk = limit + 1 - n < 4096 ? limit + 1 - n : 4096;
        size_t got = fread(buf + n, 1, chunk, fp);
        n += got;
        if (got == 0)
            break;
    }
    if (rc == HY_OK && ferror(fp))
        rc = hy_err_set(err, HY_EIO, "%s: read error", name);
    if (!from_stdin)
        fclose(fp);
    if (rc != HY_OK) {
        free(buf);
        return rc;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return HY_OK;
}

void hy_path_dir(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, len, "%s", "");
    else
        snprintf(dir, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
}

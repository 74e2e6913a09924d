// Whole-file reading for the configuration and model readers (one copy of the loop they all need).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "hyst/util.h"

int hy_read_text(const char *path, const char *what, size_t max_len, char **text, size_t *len, hy_err *err)
{
    *text = NULL;
    *len = 0;
    const char *name = hy_display_name(path);
    int from_stdin = strcmp(path, "-") == 0;
    FILE *fp = from_stdin ? stdin : fopen(path, "rb");
    if (!fp)
        return hy_err_set(err, errno == ENOMEM ? HY_ENOMEM : HY_EIO, "%s: cannot open: %s", name, strerror(errno));
    struct stat st;
    if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
        if (!from_stdin)
            fclose(fp);
        return hy_err_set(err, HY_EIO, "%s: is a directory, expected %s", name, what);
    }
    int rc = HY_OK;
    size_t cap = 0, n = 0;
    char *buf = NULL;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            if (max_len && n > max_len) {
                rc = hy_err_set(err, HY_EPARSE, "%s: larger than %zu bytes: not %s", name, max_len, what);
                break;
            }
            char *t = realloc(buf, cap = 2 * cap + 8192);
            if (!t) {
                rc = hy_err_set(err, HY_ENOMEM, "%s: out of memory", name);
                break;
            }
            buf = t;
        }
        size_t got = fread(buf + n, 1, 4096, fp);
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

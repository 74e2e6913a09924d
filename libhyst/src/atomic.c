// Atomic output files: write beside the target, rename on success (see hyst/util.h).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "hyst/util.h"

// (a, b) => 1 when both paths name the same existing file, else 0
int hy_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (!a || !b || strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
        return 0;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
        return 0;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

// (path) => the name to use in messages: the path as given ("-" gives "<stdin>")
const char *hy_display_name(const char *path)
{
    if (!path || strcmp(path, "-") == 0)
        return "<stdin>";
    return path;
}

// (path) => a.fp open for writing; refuses to write over `protect`
int hy_atomic_open(hy_atomic *a, const char *path, const char *protect, hy_err *err)
{
    memset(a, 0, sizeof *a);
    if (!path || !*path)
        return hy_err_set(err, HY_EARG, "no output file name given");
    if (strcmp(path, "-") == 0) {
        a->fp = stdout;
        a->is_stdout = 1;
        snprintf(a->path, sizeof a->path, "-");
        return HY_OK;
    }
    if (protect && hy_same_file(path, protect))
        return hy_err_set(err, HY_EARG, "%s: refusing to overwrite the input file with an output", path);
    if (strlen(path) + 16 >= sizeof a->path)
        return hy_err_set(err, HY_EARG, "%s: output path too long", path);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return hy_err_set(err, HY_EIO, "%s: is a directory", path);
    snprintf(a->path, sizeof a->path, "%s", path);
    snprintf(a->tmp, sizeof a->tmp, "%s.tmpXXXXXX", path);
    int fd = mkstemp(a->tmp);
    if (fd < 0)
        return hy_err_set(err, HY_EIO, "%s: cannot create output file: %s", path, strerror(errno));
    a->fp = fdopen(fd, "w");
    if (!a->fp) {
        int e = errno;
        close(fd);
        unlink(a->tmp);
        return hy_err_set(err, e == ENOMEM ? HY_ENOMEM : HY_EIO, "%s: cannot open output file: %s", path,
                          strerror(e));
    }
    return HY_OK;
}

// (open atomic file) => data flushed, synced and renamed onto the target path
int hy_atomic_commit(hy_atomic *a, hy_err *err)
{
    if (!a->fp)
        return hy_err_set(err, HY_EARG, "output file is not open");
    if (a->is_stdout) {
        int bad = fflush(stdout) != 0 || ferror(stdout);
        a->fp = NULL;
        return bad ? hy_err_set(err, HY_EIO, "standard output: write failed") : HY_OK;
    }
    int bad = fflush(a->fp) != 0 || ferror(a->fp) || fsync(fileno(a->fp)) != 0;
    int e = errno;
    /* A new file gets the usual 0666 & ~umask mode rather than mkstemp's 0600. */
    mode_t um = umask(0);
    umask(um);
    if (!bad)
        fchmod(fileno(a->fp), 0666 & ~um);
    if (fclose(a->fp) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    a->fp = NULL;
    if (bad) {
        unlink(a->tmp);
        return hy_err_set(err, HY_EIO, "%s: write failed: %s", a->path, strerror(e));
    }
    if (rename(a->tmp, a->path) != 0) {
        e = errno;
        unlink(a->tmp);
        return hy_err_set(err, HY_EIO, "%s: cannot replace the output file: %s", a->path, strerror(e));
    }
    return HY_OK;
}

// (open atomic file) => temporary file removed, target untouched
void hy_atomic_abort(hy_atomic *a)
{
    if (!a->fp)
        return;
    if (!a->is_stdout) {
        fclose(a->fp);
        unlink(a->tmp);
    }
    a->fp = NULL;
}

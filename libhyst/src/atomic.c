// Atomic output files: write beside the target, rename on success (see hyst/util.h).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "hyst/util.h"
#include "hyst/h5log.h"

/* (path, or a dataset path FILE.h5:/DSET) => stat of the file it reads: a table of an HDF5 file is read from the
 * file part, which an output must not replace either (N14: `hyst loops log.h5:/history --json log.h5` replaced the
 * log it read) */
static int stat_input(const char *path, struct stat *st)
{
    if (stat(path, st) == 0)
        return 0;
    char file[4096];
    const char *dset;
    return hy_h5_split_path(path, file, sizeof file, &dset) ? stat(file, st) : -1;
}

// (a, b) => 1 when both paths name the same existing file (either may be FILE.h5:/DSET, its file), else 0
int hy_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (!a || !b || strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
        return 0;
    if (stat_input(a, &sa) != 0 || stat_input(b, &sb) != 0)
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

/* (path) => the file a write to `path` reaches: symbolic links followed one by one (a dangling link gives the
 * missing file it names, which the commit creates, as the shell's `>` does), into target; 0, or -1 with errno */
static int resolve_links(const char *path, char *target, size_t len)
{
    char cur[4096], link[4096];
    snprintf(cur, sizeof cur, "%s", path);
    for (int depth = 0; depth < 40; depth++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) {
            if (strlen(cur) >= len) {
                errno = ENAMETOOLONG;
                return -1;
            }
            snprintf(target, len, "%s", cur);
            return 0;
        }
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0)
            return -1;
        link[n] = '\0';
        if (link[0] == '/') {
            snprintf(cur, sizeof cur, "%s", link);
        } else {
            /* a relative link is relative to the directory holding the link */
            char *slash = strrchr(cur, '/');
            size_t dlen = slash ? (size_t)(slash - cur) + 1 : 0;
            if (dlen + (size_t)n >= sizeof cur) {
                errno = ENAMETOOLONG;
                return -1;
            }
            memcpy(cur + dlen, link, (size_t)n + 1);
        }
    }
    errno = ELOOP;
    return -1;
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
        return hy_err_set(err, HY_EARG, "%s: refusing to overwrite an input file", path);
    if (strlen(path) + 16 >= sizeof a->path)
        return hy_err_set(err, HY_EARG, "%s: output path too long", path);
    snprintf(a->path, sizeof a->path, "%s", path);
    /* A path that reaches a pipe, a device or a socket through the kernel's own links (/dev/stdout ->
       /proc/self/fd/1 -> "pipe:[...]", which names no file) is written in place through the path itself. */
    struct stat st0;
    int is_out = strcmp(path, "/dev/stdout") == 0 || strcmp(path, "/dev/fd/1") == 0;
    if (stat(path, &st0) == 0 && S_ISSOCK(st0.st_mode) && is_out) {
        a->fp = stdout;   /* a socket cannot be reopened by name: standard output itself */
        a->is_stdout = 1;
        return HY_OK;
    }
    if (stat(path, &st0) == 0 && (S_ISFIFO(st0.st_mode) || S_ISCHR(st0.st_mode))) {
        snprintf(a->target, sizeof a->target, "%s", path);
        a->fp = fopen(path, "w");
        if (!a->fp)
            return hy_err_set(err, HY_EIO, "%s: cannot open output file: %s", path, strerror(errno));
        a->direct = 1;
        return HY_OK;
    }
    if (resolve_links(path, a->target, sizeof a->target - 16) != 0)
        return hy_err_set(err, HY_EIO, "%s: cannot follow the symbolic link: %s", path, strerror(errno));
    struct stat st;
    if (stat(a->target, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return hy_err_set(err, HY_EIO, "%s: is a directory", path);
        if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
            /* A pipe or a device is written in place: renaming a file onto it would replace the node itself. */
            a->fp = fopen(a->target, "w");
            if (!a->fp)
                return hy_err_set(err, HY_EIO, "%s: cannot open output file: %s", path, strerror(errno));
            a->direct = 1;
            return HY_OK;
        }
        if (!S_ISREG(st.st_mode))
            return hy_err_set(err, HY_EIO, "%s: is not a regular file, a FIFO or a character device", path);
        a->keep_mode = 1;   /* replacing a file keeps its permissions (a 600 file stays 600) */
        a->mode = (unsigned)(st.st_mode & 07777);
    }
    size_t tl = strlen(a->target); /* < sizeof tmp - 16 (resolve_links) */
    memcpy(a->tmp, a->target, tl);
    memcpy(a->tmp + tl, ".tmpXXXXXX", sizeof ".tmpXXXXXX");
    hy_cleanup_hold(1);
    int fd = mkstemp(a->tmp);
    if (fd >= 0)
        hy_cleanup_add(a->tmp);   /* removed on a signal */
    int e0 = errno;
    hy_cleanup_hold(0);
    if (fd < 0)
        return hy_err_set(err, HY_EIO, "%s: cannot create output file: %s", path, strerror(e0));
    a->fp = fdopen(fd, "w");
    if (!a->fp) {
        int e = errno;
        close(fd);
        unlink(a->tmp);
        hy_cleanup_remove(a->tmp);
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
    if (a->direct) {
        int bad = fflush(a->fp) != 0 || ferror(a->fp);
        int e = errno;
        if (fclose(a->fp) != 0 && !bad) {
            bad = 1;
            e = errno;
        }
        a->fp = NULL;
        return bad ? hy_err_set(err, HY_EIO, "%s: write failed: %s", a->path, strerror(e)) : HY_OK;
    }
    int bad = fflush(a->fp) != 0 || ferror(a->fp) || fsync(fileno(a->fp)) != 0;
    int e = errno;
    /* A new file gets the usual 0666 & ~umask mode rather than mkstemp's 0600. */
    mode_t um = umask(0);
    umask(um);
    if (!bad)
        fchmod(fileno(a->fp), a->keep_mode ? (mode_t)a->mode : 0666 & ~um);
    if (fclose(a->fp) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    a->fp = NULL;
    if (bad) {
        unlink(a->tmp);
        hy_cleanup_remove(a->tmp);
        return hy_err_set(err, HY_EIO, "%s: write failed: %s", a->path, strerror(e));
    }
    if (rename(a->tmp, a->target) != 0) {
        e = errno;
        unlink(a->tmp);
        hy_cleanup_remove(a->tmp);
        return hy_err_set(err, HY_EIO, "%s: cannot replace the output file: %s", a->path, strerror(e));
    }
    hy_cleanup_remove(a->tmp);
    return HY_OK;
}

// (open atomic file) => temporary file removed, target untouched
void hy_atomic_abort(hy_atomic *a)
{
    if (!a->fp)
        return;
    if (!a->is_stdout) {
        fclose(a->fp);
        if (!a->direct) {
            unlink(a->tmp);
            hy_cleanup_remove(a->tmp);
        }
    }
    a->fp = NULL;
}

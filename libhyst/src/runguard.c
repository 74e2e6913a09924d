/* What a long run needs from the machine (see hyst/util.h): a lock on the output folder, the limits of memory and
 * output size checked before a run starts, and progress on a terminal. */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>
#include "hyst/util.h"

/* ---- the output folder's lock ---------------------------------------------------------------------------- */

/* flock on DIR/.hystkit-lock: the kernel drops it when the process ends in any way (even SIGKILL), so a stale file
 * never blocks a later run; the file itself is removed on release and on a signal. A lock file removed by its
 * holder between our open and our flock would be locked in vain: the inode is compared after locking, and taken
 * again when it changed. */
int hy_dir_lock_take(hy_dir_lock *l, const char *dir, hy_err *err)
{
    l->fd = -1;
    if (snprintf(l->path, sizeof l->path, "%s/.hystkit-lock", dir) >= (int)sizeof l->path)
        return hy_err_set(err, HY_EARG, "%s: output folder path too long", dir);
    for (int tries = 0; tries < 100; tries++) {
        hy_cleanup_hold(1);   /* the file is ours to remove from its creation on */
        int fd = open(l->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644), created = fd >= 0;
        if (fd < 0 && errno == EEXIST)
            fd = open(l->path, O_RDWR | O_CLOEXEC);
        if (created)
            hy_cleanup_add(l->path);
        int e0 = errno;
        hy_cleanup_hold(0);
        if (fd < 0 && e0 == ENOENT)
            continue;   /* removed between the two opens: again */
        if (fd < 0)
            return hy_err_set(err, HY_EIO, "%s: cannot create the lock of the output folder: %s", l->path,
                              strerror(e0));
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            char pid[32] = "";
            ssize_t n = read(fd, pid, sizeof pid - 1);
            pid[n > 0 ? n : 0] = '\0';
            pid[strcspn(pid, "\n")] = '\0';
            close(fd);
            if (created)
                hy_cleanup_remove(l->path);   /* another run's file now: not ours to remove */
            if (e == EWOULDBLOCK)
                return hy_err_set(err, HY_EIO, "%s: the output folder is in use by another run%s%s%s (lock %s); "
                                  "wait for it or choose another folder", dir, pid[0] ? " (process " : "", pid,
                                  pid[0] ? ")" : "", l->path);
            return hy_err_set(err, HY_EIO, "%s: cannot lock: %s", l->path, strerror(e));
        }
        struct stat a, b;
        if (fstat(fd, &a) == 0 && stat(l->path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
            char pid[32];
            int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
            if (ftruncate(fd, 0) != 0 || write(fd, pid, (size_t)n) != n) { /* the pid is only for the message */ }
            l->fd = fd;
            if (!created)
                hy_cleanup_add(l->path);
            return HY_OK;
        }
        close(fd);   /* the holder removed it meanwhile: take the new one */
        if (created)
            hy_cleanup_remove(l->path);
    }
    return hy_err_set(err, HY_EIO, "%s: cannot lock the output folder", dir);
}

void hy_dir_lock_release(hy_dir_lock *l)
{
    if (l->fd < 0)
        return;
    unlink(l->path);   /* before the unlock: a waiting run then finds a new file (see above) */
    hy_cleanup_remove(l->path);
    close(l->fd);
    l->fd = -1;
}

/* ---- limits ------------------------------------------------------------------------------------------------ */

static double env_bytes(const char *name)
{
    const char *e = getenv(name);
    if (!e || !*e)
        return -1;
    char *end;
    double v = strtod(e, &end);
    return *end == '\0' && v > 0 ? v : -1;
}

double hy_mem_limit(void)
{
    double v = env_bytes("HYST_MEM_MAX");
    if (v > 0)
        return v;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (double)pages * (double)page : 1e300;
}

double hy_output_limit(const char *dir)
{
    double v = env_bytes("HYST_OUTPUT_MAX");
    struct statvfs s;
    double fs = statvfs(dir && *dir ? dir : ".", &s) == 0 ? (double)s.f_bavail * (double)s.f_frsize : 1e300;
    return v > 0 && v < fs ? v : fs;
}

void hy_bytes_text(char *buf, size_t len, double b)
{
    if (b >= 1e9)
        snprintf(buf, len, "%.1f GB", b / 1e9);
    else if (b >= 1e6)
        snprintf(buf, len, "%.1f MB", b / 1e6);
    else if (b >= 1e3)
        snprintf(buf, len, "%.1f kB", b / 1e3);
    else
        snprintf(buf, len, "%.0f bytes", b);
}

/* ---- progress ------------------------------------------------------------------------------------------------ */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void hy_progress_start(hy_progress *p, const char *label)
{
    memset(p, 0, sizeof *p);
    const char *e = getenv("HYST_PROGRESS");
    p->on = e && *e ? strcmp(e, "0") != 0 : isatty(STDERR_FILENO);
    snprintf(p->label, sizeof p->label, "%s", label);
    p->t0 = now();
    p->next = p->t0 + (e && strcmp(e, "always") == 0 ? 0.0 : 2.0);   /* a run of a few seconds prints nothing */
}

void hy_progress_update(hy_progress *p, double frac)
{
    if (!p->on || (++p->calls & 255u) != 0)
        return;
    double t = now();
    if (t < p->next)
        return;
    p->next = t + 0.5;
    double el = t - p->t0;
    if (frac > 0 && frac <= 1)
        fprintf(stderr, "\r%s: %3.0f %%, %.0f s, about %.0f s left ", p->label, 100 * frac, el,
                el * (1 - frac) / frac);
    else
        fprintf(stderr, "\r%s: %.0f s ", p->label, el);
    p->shown = 1;
}

void hy_progress_end(hy_progress *p)
{
    if (p->shown)
        fputs("\r\033[K", stderr);   /* the line cleared: the report that follows stays clean */
    p->shown = 0;
}

/* ---- stages: a long computation without a fraction ------------------------------------------------------------ */

void hy_stage_start(hy_stage *s, const char *label, double est, const char *fmt, ...)
{
    memset(s, 0, sizeof *s);
    const char *e = getenv("HYST_PROGRESS");
    int tty = isatty(STDERR_FILENO), forced = e && *e && strcmp(e, "0") != 0;
    if (e && strcmp(e, "0") == 0)
        return;
    s->on = (e && strcmp(e, "always") == 0) || (est >= 1 && (tty || forced)) || est >= 30;
    if (!s->on)
        return;
    s->tty = tty;
    snprintf(s->label, sizeof s->label, "%s", label);
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: %s ...%s", label, what, tty ? "" : "\n");
    fflush(stderr);
    s->t0 = now();
}

void hy_stage_end(hy_stage *s)
{
    if (!s->on)
        return;
    double el = now() - s->t0;
    if (s->tty)
        fprintf(stderr, " done in %.1f s\n", el);
    else
        fprintf(stderr, "%s: ... done in %.1f s\n", s->label, el);
    s->on = 0;
}

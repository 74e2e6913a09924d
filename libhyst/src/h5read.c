/* A bench record read from a table of an HDF5 file ("FILE.h5:/records/spring1"), so the element records of an
 * HDF5 log need no CSV: the columns are chosen as hy_csv_read chooses them (by 1-based index, by name, else
 * detected from the names), and the series is the one hy_csv_read gives for the same table written as CSV
 * (see hyst/h5log.h).
 *
 * libhdf5 itself runs in a child process (h5read_table.c), which streams the chosen columns back through a pipe
 * (issue 42, N20): on damaged files libhdf5 1.10 crashes (H5HG_read on a variable-length string's heap reference)
 * or loops forever (H5C_protect), and no check made before the call can rule that out, since libhdf5 alone
 * parses its metadata. A crash of the child becomes an error naming what libhdf5 was doing; a child that sends
 * nothing for hy_h5_stall_ms is killed. Neither an alarm nor a thread would do inside a library that Python also
 * loads: SIGALRM belongs to the program (Python's own signal module uses it), a longjmp out of a signal handler
 * leaves libhdf5's global state half-changed, and a thread stuck in libhdf5 cannot be stopped at all. The child
 * calls only libhdf5, malloc and write, and ends with _exit (docs/formats.md "Reading HDF5 tables"). */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#include "h5lib.h"
#include "h5read_internal.h"
#include "hyst/h5log.h"
#include "hyst/util.h"

/* sanitizer builds reserve terabytes of shadow memory, which RLIMIT_DATA would count */
#if defined(__SANITIZE_ADDRESS__)
#define HY_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HY_SANITIZED 1
#endif
#endif
#ifndef HY_SANITIZED
#define HY_SANITIZED 0
#endif

int hy_h5_stall_ms = 10000;

int hy_h5_split_path(const char *arg, char *file, size_t flen, const char **dset)
{
    const char *c = strstr(arg, ":/");
    struct stat st;
    if (!c || c == arg || stat(arg, &st) == 0 || (size_t)(c - arg) >= flen)
        return 0;
    memcpy(file, arg, (size_t)(c - arg));
    file[c - arg] = '\0';
    *dset = c + 1;
    return 1;
}

typedef struct link_ {
    int fd;
    pid_t pid;
    char stage[96]; /* what the child last said it asks libhdf5 */
} link_;

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* (link, n bytes) => into p, waiting at most hy_h5_stall_ms for each part; 0, 1 on end of file, 2 on the stall */
static int recv_exact(link_ *L, void *p, size_t n)
{
    for (size_t off = 0; off < n;) {
        struct pollfd pf = {L->fd, POLLIN, 0};
        long long t0 = now_ms();
        int r = poll(&pf, 1, hy_h5_stall_ms);
        if (r < 0 && errno == EINTR) {
            if (now_ms() - t0 >= hy_h5_stall_ms)
                return 2;
            continue;
        }
        if (r == 0)
            return 2;
        ssize_t got = read(L->fd, (char *)p + off, n - off);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return 1;
        off += (size_t)got;
    }
    return 0;
}

/* (link) => the child stopped and reaped; its wait status */
static int reap(link_ *L, int kill_it)
{
    int status = 0;
    if (kill_it)
        kill(L->pid, SIGKILL);
    while (waitpid(L->pid, &status, 0) < 0 && errno == EINTR)
        ;
    hy_cleanup_child_done(L->pid);
    close(L->fd);
    return status;
}

/* (link, the receive's result, src) => the error for a child that ended or stalled before its end message */
static int child_failed(link_ *L, int why, const char *src, hy_err *err)
{
    if (why == 2) {
        reap(L, 1);
        return hy_err_set(err, HY_EDATA, "%s: the HDF5 library made no progress for %d s while %s; stopped (a "
                          "damaged file)", src, hy_h5_stall_ms / 1000, L->stage);
    }
    int st = reap(L, 0);
    if (WIFSIGNALED(st))
        return hy_err_set(err, HY_EDATA, "%s: the HDF5 library crashed (signal %d, %s) while %s (a damaged file)",
                          src, WTERMSIG(st), strsignal(WTERMSIG(st)), L->stage);
    return hy_err_set(err, WIFEXITED(st) && WEXITSTATUS(st) == 4 ? HY_ENOMEM : HY_EIO,
                      "%s: the HDF5 reader ended (status %d) while %s", src, WIFEXITED(st) ? WEXITSTATUS(st) : -1,
                      L->stage);
}

// (the child's side of the fork) => its signals as a fresh process's, then hy_h5r_child
static _Noreturn void child_main(const char *file, hy_h5r_kind kind, const char *dpath, const char *attr,
                                 const hy_csv_opts *o, int fd)
{
    /* the caller's handlers (hy_cleanup's, libFuzzer's, Python's) are not the child's: a signal ends it */
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t k = 0; k < sizeof sigs / sizeof *sigs; k++)
        signal(sigs[k], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* gone with its caller */
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core); /* a crash in libhdf5 leaves no core file beside the user's data */
#if !HY_SANITIZED
    /* the heap may grow by HY_H5R_MAX_HEAP beyond what the caller had: a damaged file that makes libhdf5 allocate
       more gets a failed allocation (a read error), not the machine's memory */
    FILE *sm = fopen("/proc/self/statm", "r");
    unsigned long pages[6] = {0};
    if (sm && fscanf(sm, "%lu %lu %lu %lu %lu %lu", &pages[0], &pages[1], &pages[2], &pages[3], &pages[4],
                     &pages[5]) == 6) {
        rlim_t cap = (rlim_t)pages[5] * (rlim_t)sysconf(_SC_PAGESIZE) + HY_H5R_MAX_HEAP;
        struct rlimit data = {cap, cap};
        setrlimit(RLIMIT_DATA, &data);
    }
    if (sm)
        fclose(sm);
#endif
    hy_h5r_child(file, kind, dpath, attr, o, fd);
}

/* (link, file, what to read, "FILE:DSET" for messages) => the child started, L->fd its pipe's read end; HY_OK */
static int start(link_ *L, const char *file, hy_h5r_kind kind, const char *dpath, const char *attr,
                 const hy_csv_opts *o, const char *src, hy_err *err)
{
    struct stat st;
    if (stat(file, &st) != 0)
        return hy_err_set(err, HY_EIO, "%s: cannot open %s: %s", src, file, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return hy_err_set(err, HY_EIO, "%s: %s is not a regular file, expected an HDF5 file", src, file);
    int rc = hy_h5_load(src, err); /* in the caller: loaded once, inherited by every child */
    if (rc != HY_OK)
        return rc;
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
        return hy_err_set(err, HY_EIO, "%s: cannot start the HDF5 reader: %s", src, strerror(errno));
    fflush(NULL); /* nothing buffered is written twice (the child ends with _exit, but to be sure) */
    L->fd = p[0];
    snprintf(L->stage, sizeof L->stage, "starting");
    hy_cleanup_hold(1);
    L->pid = fork();
    if (L->pid == 0) {
        close(p[0]);
        child_main(file, kind, dpath, attr, o, p[1]);
    }
    if (L->pid > 0)
        hy_cleanup_child(L->pid); /* killed and reaped by the clean-up on SIGINT/SIGTERM */
    int e0 = errno;
    hy_cleanup_hold(0);
    close(p[1]);
    if (L->pid < 0) {
        close(p[0]);
        return hy_err_set(err, HY_EIO, "%s: cannot start the HDF5 reader: %s", src, strerror(e0));
    }
    return HY_OK;
}

/* (link, the end message's payload, its length) => the child reaped; its status, err set from its message */
static int end_status(link_ *L, const void *p, uint32_t len, hy_err *err)
{
    int32_t c;
    memcpy(&c, p, 4);
    reap(L, 0);
    int rc = c;
    if (rc != HY_OK) {
        if (rc < 0 || rc > HY_ENOMEM)
            rc = HY_EIO;
        size_t n = len - 4 < sizeof err->msg - 1 ? len - 4 : sizeof err->msg - 1;
        err->code = rc;
        memcpy(err->msg, (const char *)p + 4, n);
        err->msg[n] = '\0';
        hy_msg_clean(err->msg);
    }
    return rc;
}

int hy_h5_read_series(const char *file, const char *dpath, const hy_csv_opts *o, hy_series *out, hy_err *err)
{
    hy_csv_opts def;
    if (!o) {
        hy_csv_opts_default(&def);
        o = &def;
    }
    hy_series_init(out);
    char src[sizeof out->source];
    snprintf(src, sizeof src, "%s:%s", file, dpath);
    link_ L;
    int rc = start(&L, file, HY_H5R_SERIES, dpath, NULL, o, src, err);
    if (rc != HY_OK)
        return rc;

    hy_h5r_head h;
    int have_head = 0;
    uint64_t got = 0;
    double last_t = 0, *rows = malloc((size_t)HY_H5R_CHUNK_ROWS * 3 * sizeof *rows);
    if (!rows) {
        reap(&L, 1);
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", src);
    }
    for (;;) {
        unsigned char mh[5];
        uint32_t len = 0;
        int why = recv_exact(&L, mh, 5);
        if (why == 0) {
            memcpy(&len, mh + 1, 4);
            size_t cap = mh[0] == HY_H5R_ROWS ? (size_t)HY_H5R_CHUNK_ROWS * 3 * sizeof *rows
                         : mh[0] == HY_H5R_HEAD ? sizeof h : 4 + sizeof err->msg;
            if (len > cap || (mh[0] == HY_H5R_HEAD && len != sizeof h) || (mh[0] == HY_H5R_ROWS && len % 24)) {
                rc = hy_err_set(err, HY_EIO, "%s: the HDF5 reader sent a malformed message", src);
                reap(&L, 1);
                break;
            }
            why = recv_exact(&L, mh[0] == HY_H5R_HEAD ? (void *)&h : (void *)rows, len);
        }
        if (why != 0) {
            rc = child_failed(&L, why, src, err);
            break;
        }
        if (mh[0] == HY_H5R_STAGE) {
            size_t n = len < sizeof L.stage ? len : sizeof L.stage - 1;
            memcpy(L.stage, rows, n);
            L.stage[n] = '\0';
        } else if (mh[0] == HY_H5R_HEAD) {
            have_head = 1;
            for (int k = 0; k < 3; k++)
                h.names[k][sizeof h.names[k] - 1] = h.units[k][sizeof h.units[k] - 1] = '\0';
        } else if (mh[0] == HY_H5R_END) {
            rc = end_status(&L, rows, len, err);
            if (rc == HY_OK && (!have_head || got != h.rows))
                rc = hy_err_set(err, HY_EIO, "%s: the HDF5 reader ended after %llu of its rows", src,
                                (unsigned long long)got);
            break;
        } else if (mh[0] == HY_H5R_ROWS && have_head) {
            /* the checks of hy_csv_read's rows: finite, bounded after the scale factors, time not backwards */
            int has_t = h.col[2] >= 0, has_Q = h.col[1] >= 0;
            size_t k = len / 24;
            for (size_t i = 0; i < k && rc == HY_OK; i++, got++) {
                double t = rows[3 * i], q = rows[3 * i + 1] * o->x_scale, Q = rows[3 * i + 2] * o->y_scale;
                if (!isfinite(rows[3 * i + 1]) || !isfinite(rows[3 * i + 2]) || !isfinite(t))
                    rc = hy_err_set(err, HY_EPARSE, "%s: row %llu: found NaN or infinity, expected finite numbers",
                                    src, (unsigned long long)got + 1);
                else if (!(fabs(q) <= HY_CSV_MAX_ABS) || !(fabs(Q) <= HY_CSV_MAX_ABS))
                    rc = hy_err_set(err, HY_EDATA, "%s: row %llu: found a magnitude above %g (after the scale "
                                    "factors), expected at most %g", src, (unsigned long long)got + 1, HY_CSV_MAX_ABS,
                                    HY_CSV_MAX_ABS);
                else if (has_t && o->require_time_increasing && got > 0 && t < last_t)
                    rc = hy_err_set(err, HY_EDATA, "%s: row %llu: found time %.10g after %.10g, expected time that "
                                    "does not go backwards", src, (unsigned long long)got + 1, t, last_t);
                else
                    rc = hy_series_push(out, has_t, t, q, has_Q ? Q : 0, (size_t)got + 1, err);
                last_t = t;
            }
            if (rc != HY_OK) {
                reap(&L, 1);
                break;
            }
        } else {
            rc = hy_err_set(err, HY_EIO, "%s: the HDF5 reader sent a malformed message", src);
            reap(&L, 1);
            break;
        }
    }
    free(rows);
    if (rc == HY_OK) {
        snprintf(out->source, sizeof out->source, "%s", src);
        snprintf(out->q_name, sizeof out->q_name, "%s", h.names[0]);
        snprintf(out->q_unit, sizeof out->q_unit, "%s", h.units[0]);
        snprintf(out->Q_name, sizeof out->Q_name, "%s", h.names[1]);
        snprintf(out->Q_unit, sizeof out->Q_unit, "%s", h.units[1]);
        snprintf(out->t_name, sizeof out->t_name, "%s", h.names[2]);
        snprintf(out->t_unit, sizeof out->t_unit, "%s", h.units[2]);
    } else {
        hy_series_free(out);
    }
    return rc;
}

/* (link, "FILE:DSET", what the caller expects, a buffer of cap bytes) => one message of the child: *type, *len,
 * its payload in buf; HY_OK, else the child stopped and err set (a malformed message, a crash, a stall) */
static int recv_msg(link_ *L, const char *src, size_t (*cap_of)(int type, const void *ctx), const void *ctx,
                    void *buf, int *type, uint32_t *len, hy_err *err)
{
    unsigned char mh[5];
    int why = recv_exact(L, mh, 5);
    if (why == 0) {
        memcpy(len, mh + 1, 4);
        *type = mh[0];
        size_t cap = *type == HY_H5R_STAGE || *type == HY_H5R_END ? 4 + sizeof err->msg : cap_of(*type, ctx);
        if (*len > cap) {
            reap(L, 1);
            return hy_err_set(err, HY_EIO, "%s: the HDF5 reader sent a malformed message", src);
        }
        why = recv_exact(L, buf, *len);
    }
    if (why != 0)
        return child_failed(L, why, src, err);
    if (*type == HY_H5R_STAGE) {
        size_t n = *len < sizeof L->stage ? *len : sizeof L->stage - 1;
        memcpy(L->stage, buf, n);
        L->stage[n] = '\0';
    }
    return HY_OK;
}

static size_t table_cap(int type, const void *ctx)
{
    const int32_t *ncol = ctx;
    if (type == HY_H5R_COLS)
        return sizeof(hy_h5r_cols);
    if (type == HY_H5R_ALL && *ncol > 0)
        return (size_t)HY_H5R_CHUNK_ROWS * (size_t)*ncol * sizeof(double);
    return 0;
}

void hy_h5_table_free(hy_h5_table *t)
{
    if (t) {
        free(t->v);
        memset(t, 0, sizeof *t);
    }
}

int hy_h5_read_table(const char *file, const char *dpath, hy_h5_table *out, hy_err *err)
{
    memset(out, 0, sizeof *out);
    char src[sizeof out->source];
    snprintf(src, sizeof src, "%s:%s", file, dpath);
    link_ L;
    int rc = start(&L, file, HY_H5R_TABLE, dpath, NULL, NULL, src, err);
    if (rc != HY_OK)
        return rc;
    size_t bufsize = (size_t)HY_H5R_CHUNK_ROWS * HY_H5_MAX_COLS * sizeof(double);
    void *buf = malloc(bufsize);
    hy_h5r_cols *c = malloc(sizeof *c);
    int32_t ncol = 0;
    uint64_t rows = 0, got = 0, cap = 0;
    if (!buf || !c) {
        reap(&L, 1);
        rc = hy_err_set(err, HY_ENOMEM, "%s: out of memory", src);
    }
    while (rc == HY_OK) {
        int type = 0;
        uint32_t len = 0;
        if ((rc = recv_msg(&L, src, table_cap, &ncol, buf, &type, &len, err)) != HY_OK)
            break;
        if (type == HY_H5R_STAGE)
            continue;
        if (type == HY_H5R_END) {
            rc = end_status(&L, buf, len, err);
            if (rc == HY_OK && (ncol == 0 || got != rows))
                rc = hy_err_set(err, HY_EIO, "%s: the HDF5 reader ended after %llu of its rows", src,
                                (unsigned long long)got);
            break;
        }
        int ok = 0;
        if (type == HY_H5R_COLS && ncol == 0 && len == sizeof *c) {
            memcpy(c, buf, sizeof *c);
            ok = c->ncol >= 1 && c->ncol <= HY_H5_MAX_COLS && c->rows >= 1;
            ncol = ok ? c->ncol : 0, rows = c->rows;
            for (int k = 0; ok && k < ncol; k++) {
                c->names[k][sizeof c->names[k] - 1] = c->units[k][sizeof c->units[k] - 1] = '\0';
                memcpy(out->name[k], c->names[k], sizeof out->name[k]);
                memcpy(out->unit[k], c->units[k], sizeof out->unit[k]);
            }
        } else if (type == HY_H5R_ALL && ncol > 0 && len % ((uint32_t)ncol * sizeof(double)) == 0) {
            /* the rows as they come (memory follows the data actually read, never the declared count) */
            uint64_t k = len / ((uint32_t)ncol * sizeof(double));
            ok = got + k <= rows;
            if (ok && got + k > cap) {
                uint64_t want = cap ? 2 * cap : 4096;
                want = want < got + k ? got + k : want > rows ? rows : want;
                double *v = realloc(out->v, (size_t)want * (size_t)ncol * sizeof *v);
                if (!v) {
                    reap(&L, 1);
                    rc = hy_err_set(err, HY_ENOMEM, "%s: out of memory for %llu rows", src, (unsigned long long)want);
                    break;
                }
                out->v = v, cap = want;
            }
            if (ok)
                memcpy(out->v + (size_t)got * (size_t)ncol, buf, len), got += k;
        }
        if (!ok) {
            reap(&L, 1);
            rc = hy_err_set(err, HY_EIO, "%s: the HDF5 reader sent a malformed message", src);
        }
    }
    free(buf);
    free(c);
    if (rc == HY_OK) {
        out->ncol = ncol, out->nrow = (size_t)got;
        snprintf(out->source, sizeof out->source, "%s", src);
    } else {
        hy_h5_table_free(out);
    }
    return rc;
}

static size_t text_cap(int type, const void *ctx)
{
    (void)ctx;
    return type == HY_H5R_TEXT ? HY_H5R_MAX_TEXT : 0;
}

int hy_h5_read_attr_text(const char *file, const char *obj, const char *name, char **text, size_t *len_out,
                         hy_err *err)
{
    *text = NULL;
    char src[600];
    snprintf(src, sizeof src, "%s:%s", file, obj);
    link_ L;
    int rc = start(&L, file, HY_H5R_ATTR, obj, name, NULL, src, err);
    if (rc != HY_OK)
        return rc;
    char *buf = malloc((size_t)HY_H5R_MAX_TEXT + 1), *got = NULL;
    size_t n = 0;
    if (!buf) {
        reap(&L, 1);
        rc = hy_err_set(err, HY_ENOMEM, "%s: out of memory", src);
    }
    while (rc == HY_OK) {
        int type = 0;
        uint32_t len = 0;
        if ((rc = recv_msg(&L, src, text_cap, NULL, buf, &type, &len, err)) != HY_OK)
            break;
        if (type == HY_H5R_STAGE)
            continue;
        if (type == HY_H5R_END) {
            rc = end_status(&L, buf, len, err);
            if (rc == HY_OK && !got)
                rc = hy_err_set(err, HY_EIO, "%s: the HDF5 reader ended without the '%s' attribute", src, name);
            break;
        }
        if (type != HY_H5R_TEXT || got || !(got = malloc((size_t)len + 1))) {
            reap(&L, 1);
            rc = got ? hy_err_set(err, HY_EIO, "%s: the HDF5 reader sent a malformed message", src)
                     : hy_err_set(err, HY_ENOMEM, "%s: out of memory", src);
            break;
        }
        memcpy(got, buf, len);
        got[len] = '\0';
        n = len;
    }
    free(buf);
    if (rc != HY_OK) {
        free(got);
        return rc;
    }
    *text = got;
    if (len_out)
        *len_out = n;
    return HY_OK;
}

/* The Jacobian's key columns on worker processes (docs/calibrate.md §5 "Parallel evaluations"; issue 45 item 2,
 * "evaluations in parallel"). Each key column is one forward-difference point: the fit runs simulated at the keys
 * with one of them moved, independent of the others. With jobs > 1, jobs - 1 processes are forked for the call
 * (the process calling does its share too): process w computes the columns k with k % jobs == w and sends each
 * back over a pipe of its own as a status and n raw doubles, so the parent holds the same bits the serial loop
 * would have (the same code on the same inherited state). A fork per Jacobian rather than `mech sweep`'s pool
 * (tools/mech/sweep_pool.c): that pool hands out run ids of a sweep plan and returns fixed-size mech_sweep_result
 * rows, while a column depends on the solver's current point and returns a residual vector of the records' size;
 * a child forked at the Jacobian inherits that point with nothing to send, and it lives in the library, so every
 * front end calling mech_calib_solve gets it. A child that dies (a crash inside a simulation) is an error naming
 * the column and the signal, never a hang: its pipe closes. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "hyst/util.h"
#include "calib_internal.h"

#define WORKERS_MAX 64

int mech_calib__columns(int ncol, int jobs, size_t n, mech_calib__column_fn fn, void *ctx, double *out, hy_err *err)
{
    if (jobs > ncol)
        jobs = ncol;
    if (jobs > WORKERS_MAX)
        jobs = WORKERS_MAX;
    if (jobs <= 1) {   /* serial: the columns in order, in this process */
        for (int k = 0; k < ncol; k++) {
            int rc = fn(ctx, k, out + (size_t)k * n, err);
            if (rc != HY_OK)
                return rc;
        }
        return HY_OK;
    }
    pid_t pid[WORKERS_MAX] = {0};
    int fd[WORKERS_MAX];
    int nw = 1, rc = HY_OK;
    fflush(NULL);   /* nothing buffered is written twice (the children end with _exit anyway) */
    for (; nw < jobs; nw++) {
        int pp[2];
        if (pipe(pp) != 0) {
            rc = hy_err_set(err, HY_EIO, "calibration workers: pipe: %s", strerror(errno));
            break;
        }
        pid_t c = fork();
        if (c < 0) {
            close(pp[0]), close(pp[1]);
            rc = hy_err_set(err, HY_EIO, "calibration workers: fork: %s", strerror(errno));
            break;
        }
        if (c == 0) {   /* worker nw: its columns, each as status, then n doubles or the error record */
            close(pp[0]);
            for (int w = 1; w < nw; w++)
                close(fd[w]);
            signal(SIGPIPE, SIG_DFL);
            for (int k = nw; k < ncol; k += jobs) {
                hy_err e = {0};
                int st = fn(ctx, k, out + (size_t)k * n, &e);
                if (hy_fd_write_full(pp[1], &st, sizeof st) != 0 ||
                    (st == HY_OK ? hy_fd_write_full(pp[1], out + (size_t)k * n, n * sizeof *out)
                                 : hy_fd_write_full(pp[1], &e, sizeof e)) != 0 || st != HY_OK)
                    break;
            }
            _exit(0);
        }
        close(pp[1]);
        pid[nw] = c, fd[nw] = pp[0];
    }
    for (int k = 0; k < ncol && rc == HY_OK; k += jobs)   /* this process's share: columns 0, jobs, ... */
        rc = fn(ctx, k, out + (size_t)k * n, err);
    for (int w = 1; w < nw; w++) {
        for (int k = w; k < ncol && rc == HY_OK; k += jobs) {
            int st;
            if (hy_fd_read_full(fd[w], &st, sizeof st) != 0) {
                int ws = 0;
                close(fd[w]), fd[w] = -1;
                waitpid(pid[w], &ws, 0), pid[w] = 0;
                rc = WIFSIGNALED(ws)
                    ? hy_err_set(err, HY_ENUMERIC, "the worker process of key column %d ended by signal %d (%s)", k + 1,
                                 WTERMSIG(ws), strsignal(WTERMSIG(ws)))
                    : hy_err_set(err, HY_EIO, "the worker process of key column %d ended without its result", k + 1);
            } else if (st == HY_OK) {
                if (hy_fd_read_full(fd[w], out + (size_t)k * n, n * sizeof *out) != 0)
                    rc = hy_err_set(err, HY_EIO, "the worker process of key column %d sent a short result", k + 1);
            } else {
                hy_err e;
                rc = hy_fd_read_full(fd[w], &e, sizeof e) == 0 ? (*err = e, st)
                    : hy_err_set(err, HY_EIO, "the worker process of key column %d failed without its message", k + 1);
            }
        }
    }
    for (int w = 1; w < nw; w++) {   /* every child reaped; after an error the ones still running are stopped */
        if (pid[w] > 0) {
            if (rc != HY_OK)
                kill(pid[w], SIGKILL);
            close(fd[w]);
            waitpid(pid[w], NULL, 0);
        }
    }
    return rc;
}

/* Forked workers and MPI ranks for `mech sweep` (sweep_pool.h). Messages: the master sends a run id (a long; -1:
 * stop; with a subset plan's id also the run's row of unit-cube values, which the master fills as the levels go),
 * a worker answers with the whole mech_sweep_result (a fixed-size struct; over a pipe of its own, so no
 * interleaving). Each worker runs mech_sweep_run on the plan it inherited (fork) or read itself (MPI): nothing is
 * shared but the immutable plan. A worker process that dies (a crash inside a simulation) makes its run a failed
 * row naming the signal, and a new worker takes its place: a run that fails never stops the sweep. */
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <mpi.h>
#include "hyst/util.h"
#include "sweep_pool.h"

/* ---- MPI through dlopen ---------------------------------------------------------------------------------- *
 * Open MPI's handles are addresses of exported objects (MPI_COMM_WORLD is &ompi_mpi_comm_world); they are looked
 * up with dlsym like the functions, so this file needs mpi.h for the types only and the program no libmpi. */
static struct {
    void *lib;
    int (*init)(int *, char ***);
    int (*finalize)(void);
    int (*rank)(MPI_Comm, int *);
    int (*size)(MPI_Comm, int *);
    int (*send)(const void *, int, MPI_Datatype, int, int, MPI_Comm);
    int (*recv)(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *);
    int (*iprobe)(int, int, MPI_Comm, int *, MPI_Status *);
    MPI_Comm world;
    MPI_Datatype byte;
    int on;
} mpi;

int sw_mpi_init(int *rank, int *size, hy_err *err)
{
    if (!getenv("OMPI_COMM_WORLD_SIZE"))
        return 0;
    /* RTLD_GLOBAL: Open MPI's own plugins (mca_*.so) resolve their symbols against libmpi */
    mpi.lib = dlopen("libmpi.so.40", RTLD_NOW | RTLD_GLOBAL);
    if (!mpi.lib)
        mpi.lib = dlopen("libmpi.so", RTLD_NOW | RTLD_GLOBAL);
    if (!mpi.lib) {
        hy_err_set(err, HY_EIO, "started by mpirun, but Open MPI's libmpi cannot be loaded: %s", dlerror());
        return -1;
    }
#define SYM(f, name) *(void **)&mpi.f = dlsym(mpi.lib, name)
    SYM(init, "MPI_Init");
    SYM(finalize, "MPI_Finalize");
    SYM(rank, "MPI_Comm_rank");
    SYM(size, "MPI_Comm_size");
    SYM(send, "MPI_Send");
    SYM(recv, "MPI_Recv");
    SYM(iprobe, "MPI_Iprobe");
#undef SYM
    mpi.world = (MPI_Comm)dlsym(mpi.lib, "ompi_mpi_comm_world");
    mpi.byte = (MPI_Datatype)dlsym(mpi.lib, "ompi_mpi_byte");
    if (!mpi.init || !mpi.finalize || !mpi.rank || !mpi.size || !mpi.send || !mpi.recv || !mpi.iprobe || !mpi.world || !mpi.byte) {
        hy_err_set(err, HY_EIO, "libmpi is not Open MPI's (a symbol is missing)");
        return -1;
    }
    if (mpi.init(NULL, NULL) != 0) {
        hy_err_set(err, HY_EIO, "MPI_Init failed");
        return -1;
    }
    mpi.on = 1;
    mpi.rank(mpi.world, rank);
    mpi.size(mpi.world, size);
    return 1;
}

void sw_mpi_finalize(void)
{
    if (mpi.on)
        mpi.finalize();
    mpi.on = 0;
}

enum { TAG_RESULT = 1, TAG_RUN = 2 };

/* A run request: the id, and for a plan whose sample rows the master fills during the sweep (subset simulation,
 * p->live_u) the run's row of unit-cube values, which the worker writes into its own copy of the plan. */
typedef struct request {
    long id;
    double u[MECH_SWEEP_KEYS_MAX];
} request;

static size_t request_make(const mech_sweep_plan *p, long id, request *rq)
{
    rq->id = id;
    if (!p->live_u || id < 0)
        return sizeof rq->id;
    memcpy(rq->u, p->u + (size_t)id * (size_t)p->ndist, (size_t)p->ndist * sizeof *rq->u);
    return sizeof rq->id + (size_t)p->ndist * sizeof *rq->u;
}

// (worker's own plan, request) => the run's row stored where mech_sweep_plan_value reads it
static void request_take(const mech_sweep_plan *p, const request *rq)
{
    if (p->live_u && rq->id >= 0 && rq->id < p->nsample)
        memcpy(((mech_sweep_plan *)p)->u + (size_t)rq->id * (size_t)p->ndist, rq->u, (size_t)p->ndist * sizeof *rq->u);
}

void sw_mpi_worker(const mech_sweep_plan *p)
{
    /* ids arrive DEPTH at a time ahead (sw_pool_run): the next one is already in the inbox when a run ends */
    for (;;) {
        request rq;
        MPI_Status st;
        mpi.recv(&rq, (int)sizeof rq, mpi.byte, 0, TAG_RUN, mpi.world, &st);
        if (rq.id < 0)
            return;
        request_take(p, &rq);
        mech_sweep_result r;
        mech_sweep_run(p, rq.id, &r);
        mpi.send(&r, (int)sizeof r, mpi.byte, 0, TAG_RESULT, mpi.world);
    }
}

/* ---- the pool -------------------------------------------------------------------------------------------- */
typedef struct worker {
    pid_t pid;
    int to, from;    /* pipe ends: ids to the worker, results from it                                        */
    long run;        /* the run it is doing (-1: idle)                                                        */
    int alive;
} worker;

struct sw_pool {
    const mech_sweep_plan *p;
    int n, mpi_ranks;  /* forked workers, or MPI worker ranks                                                  */
    worker *w;
    long *busy;      /* MPI: ids in flight at each rank                                                       */
};

static void worker_main(const mech_sweep_plan *p, int in, int out)
{
    request rq;
    mech_sweep_result r;
    while (hy_fd_read_full(in, &rq.id, sizeof rq.id) == 0 && rq.id >= 0) {
        if (p->live_u && hy_fd_read_full(in, rq.u, (size_t)p->ndist * sizeof *rq.u) != 0)
            break;
        request_take(p, &rq);
        mech_sweep_run(p, rq.id, &r);
        if (hy_fd_write_full(out, &r, sizeof r) != 0)
            break;
    }
    _exit(0);
}

static int spawn(sw_pool *q, int k, hy_err *err)
{
    int a[2], b[2];
    if (pipe(a) != 0)
        return hy_err_set(err, HY_EIO, "pipe: %s", strerror(errno));
    if (pipe(b) != 0) {
        close(a[0]), close(a[1]);
        return hy_err_set(err, HY_EIO, "pipe: %s", strerror(errno));
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(a[0]), close(a[1]), close(b[0]), close(b[1]);
        return hy_err_set(err, HY_EIO, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        /* every inherited descriptor but its own two pipe ends is closed: the other workers' pipes (so that a
           worker's EOF reaches the master when that worker is gone), the journal, and the output folder's lock
           (flock belongs to the open file: a worker must not keep the lock after the master is killed) */
        long maxfd = sysconf(_SC_OPEN_MAX);
        for (int fd = 3; fd < (maxfd > 0 && maxfd < 65536 ? maxfd : 1024); fd++)
            if (fd != a[0] && fd != b[1])
                close(fd);
        signal(SIGINT, SIG_DFL);
        worker_main(q->p, a[0], b[1]);
    }
    close(a[0]), close(b[1]);
    q->w[k] = (worker){pid, a[1], b[0], -1, 1};
    return HY_OK;
}

int sw_pool_start(sw_pool **out, const mech_sweep_plan *p, int nproc, int mpi_size, hy_err *err)
{
    sw_pool *q = calloc(1, sizeof *q);
    if (!q)
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    q->p = p;
    *out = q;
    if (mpi_size > 1) {
        q->mpi_ranks = mpi_size - 1;
        q->busy = malloc((size_t)mpi_size * sizeof *q->busy);
        if (!q->busy)
            return hy_err_set(err, HY_ENOMEM, "out of memory");
        for (int k = 0; k < mpi_size; k++)
            q->busy[k] = 0;
        return HY_OK;
    }
    signal(SIGPIPE, SIG_IGN);   /* a dead worker's pipe gives EPIPE, handled, not a signal */
    q->w = calloc((size_t)nproc, sizeof *q->w);
    if (!q->w)
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    for (int k = 0; k < nproc; k++) {
        if (spawn(q, k, err) != HY_OK)
            return err->code;
        q->n++;
    }
    return HY_OK;
}

/* Rank 0 is the master and a worker: it keeps DEPTH ids in flight at every other rank (so a rank never waits for
 * rank 0 while rank 0 is inside a run of its own, as long as a run of rank 0 is shorter than DEPTH - 1 runs of the
 * other rank), answers the results that have arrived between its own runs (MPI_Iprobe), and takes the next id
 * itself. With -n 2 both ranks simulate. Blocking receives are left for the tail, when rank 0 has nothing to run. */
enum { DEPTH = 2 };

static int mpi_collect(sw_pool *q, const long *ids, size_t n, size_t *next, sw_done_fn done, void *ctx, int block,
                       int *stop)
{
    int got = 0;
    for (;;) {
        int flag = 1;
        MPI_Status st;
        if (!block || got)
            mpi.iprobe(MPI_ANY_SOURCE, TAG_RESULT, mpi.world, &flag, &st);
        if (!flag)
            return got;
        mech_sweep_result r;
        mpi.recv(&r, (int)sizeof r, mpi.byte, MPI_ANY_SOURCE, TAG_RESULT, mpi.world, &st);
        int k = st.MPI_SOURCE;
        q->busy[k]--;
        if (done(ctx, &r))
            *stop = 1;
        got++;
        if (*next < n && !*stop) {
            request rq;
            mpi.send(&rq, (int)request_make(q->p, ids[(*next)++], &rq), mpi.byte, k, TAG_RUN, mpi.world);
            q->busy[k]++;
        }
    }
}

static int run_mpi(sw_pool *q, const long *ids, size_t n, sw_done_fn done, void *ctx)
{
    size_t next = 0, finished = 0;
    for (int d = 0; d < DEPTH; d++)
        for (int k = 1; k <= q->mpi_ranks && next < n; k++) {
            request rq;
            mpi.send(&rq, (int)request_make(q->p, ids[next++], &rq), mpi.byte, k, TAG_RUN, mpi.world);
            q->busy[k]++;
        }
    int stop = 0;   /* done() asked to stop: the ids sent are collected, no more go out */
    while (finished < (stop ? next : n)) {
        finished += (size_t)mpi_collect(q, ids, n, &next, done, ctx, 0, &stop);
        if (next < n && !stop) {
            mech_sweep_result r;
            mech_sweep_run(q->p, ids[next++], &r);
            if (done(ctx, &r))
                stop = 1;
            finished++;
        } else if (finished < (stop ? next : n)) {
            finished += (size_t)mpi_collect(q, ids, n, &next, done, ctx, 1, &stop);
        }
    }
    return HY_OK;
}

int sw_pool_run(sw_pool *q, const long *ids, size_t n, sw_done_fn done, void *ctx, hy_err *err)
{
    if (q->mpi_ranks)
        return run_mpi(q, ids, n, done, ctx);
    size_t next = 0, finished = 0;
    struct pollfd *pf = malloc((size_t)q->n * sizeof *pf);
    if (!pf)
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    while (finished < n) {   /* done() asking to stop sets n = next: the runs in flight finish, no more start */
        for (int k = 0; k < q->n && next < n; k++)
            if (q->w[k].alive && q->w[k].run < 0) {
                q->w[k].run = ids[next];
                request rq;
                if (hy_fd_write_full(q->w[k].to, &rq, request_make(q->p, ids[next], &rq)) != 0) {
                    q->w[k].run = -1;
                    q->w[k].alive = 0;   /* reaped and replaced below */
                    close(q->w[k].to), close(q->w[k].from);
                    int st;
                    waitpid(q->w[k].pid, &st, 0);
                    if (spawn(q, k, err) != HY_OK) {
                        free(pf);
                        return err->code;
                    }
                    k--;
                    continue;
                }
                next++;
            }
        for (int k = 0; k < q->n; k++)
            pf[k] = (struct pollfd){q->w[k].alive && q->w[k].run >= 0 ? q->w[k].from : -1, POLLIN, 0};
        if (poll(pf, (nfds_t)q->n, -1) < 0) {
            if (errno == EINTR)
                continue;
            free(pf);
            return hy_err_set(err, HY_EIO, "poll: %s", strerror(errno));
        }
        for (int k = 0; k < q->n; k++) {
            if (!(pf[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            mech_sweep_result r;
            if (hy_fd_read_full(q->w[k].from, &r, sizeof r) == 0) {
                q->w[k].run = -1;
                if (done(ctx, &r))
                    n = next;
                finished++;
                continue;
            }
            /* the worker died inside its run: a failed row, and a fresh worker */
            int st = 0;
            close(q->w[k].to), close(q->w[k].from);
            q->w[k].alive = 0;
            waitpid(q->w[k].pid, &st, 0);
            memset(&r, 0, sizeof r);
            r.run = q->w[k].run;
            r.failed = 1;
            for (int m = 0; m < MECH_SWEEP_METRIC_MAX; m++)
                r.m[m] = 0.0 / 0.0;
            if (WIFSIGNALED(st))
                snprintf(r.msg, sizeof r.msg, "the worker process died (signal %d: %s)", WTERMSIG(st),
                         strsignal(WTERMSIG(st)));
            else
                snprintf(r.msg, sizeof r.msg, "the worker process exited (status %d)", WEXITSTATUS(st));
            q->w[k].run = -1;
            if (done(ctx, &r))
                n = next;
            finished++;
            if (spawn(q, k, err) != HY_OK) {
                free(pf);
                return err->code;
            }
        }
    }
    free(pf);
    return HY_OK;
}

void sw_pool_stop(sw_pool *q)
{
    if (!q)
        return;
    if (q->mpi_ranks) {
        long stop = -1;   /* every batch ran to its end: no rank has an id left, each gets the stop */
        for (int k = 1; k <= q->mpi_ranks; k++)
            mpi.send(&stop, (int)sizeof stop, mpi.byte, k, TAG_RUN, mpi.world);
    }
    for (int k = 0; k < q->n; k++)
        if (q->w[k].alive) {
            close(q->w[k].to);   /* EOF: the worker leaves its loop */
            close(q->w[k].from);
            int st;
            waitpid(q->w[k].pid, &st, 0);
        }
    free(q->w);
    free(q->busy);
    free(q);
}

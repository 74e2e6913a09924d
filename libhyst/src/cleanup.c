/* Clean-up of temporary files on the signals a user sends (see hyst/util.h). The programs write every output
 * through a temporary file beside it (atomic.c), a gnuplot script or an output-folder lock: an interrupted run
 * (Ctrl-C, SIGTERM from a batch system, SIGHUP from a closed terminal, SIGPIPE from a closed reader) would leave
 * them behind, up to hundreds of MB. The handler kills and reaps a registered helper program (gnuplot, which writes
 * a temporary figure: child.c), unlinks every registered path (unlink is async-signal-safe), then
 * dies of the same signal, so the parent sees the conventional status (a shell's $? is 128 + the signal number).
 * Completed outputs are untouched: they were renamed into place and are no longer registered. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "hyst/util.h"

#define SLOTS 64
#define PATH_LEN 4096

/* A slot's path is written while the slot is free, then `used` is set: the handler reads only used slots. */
static char slot_path[SLOTS][PATH_LEN];
static volatile sig_atomic_t slot_used[SLOTS];

int hy_cleanup_add(const char *path)
{
    if (!path || !*path || strlen(path) >= PATH_LEN)
        return -1;
    for (int i = 0; i < SLOTS; i++)
        if (!slot_used[i]) {
            memcpy(slot_path[i], path, strlen(path) + 1);
            slot_used[i] = 1;
            return 0;
        }
    return -1;   /* full: the file is still removed by the normal paths, only not on a signal */
}

void hy_cleanup_remove(const char *path)
{
    if (!path || !*path)
        return;
    for (int i = 0; i < SLOTS; i++)
        if (slot_used[i] && strcmp(slot_path[i], path) == 0) {
            slot_used[i] = 0;
            return;
        }
}

/* helper programs that write into registered temporaries (child.c): killed and reaped first */
#define CHILDREN 4
static volatile sig_atomic_t child_pid[CHILDREN];

void hy_cleanup_child(int pid)
{
    for (int i = 0; i < CHILDREN; i++)
        if (!child_pid[i]) {
            child_pid[i] = pid;
            return;
        }
}

void hy_cleanup_child_done(int pid)
{
    for (int i = 0; i < CHILDREN; i++)
        if (child_pid[i] == pid) {
            child_pid[i] = 0;
            return;
        }
}

static pthread_t main_thread;

static void on_signal(int sig)
{
    /* A process-directed signal may land on any thread that does not block it, such as OpenBLAS's workers, and
       would then race with the main thread creating a temporary file. It is passed on to the main thread, which
       takes it at once, or as soon as it leaves a window held by hy_cleanup_hold. */
    if (!pthread_equal(pthread_self(), main_thread)) {
        pthread_kill(main_thread, sig);
        return;
    }
    int e = errno;
    for (int i = 0; i < CHILDREN; i++)   /* kill and waitpid are async-signal-safe */
        if (child_pid[i] > 0) {
            kill((pid_t)child_pid[i], SIGKILL);
            while (waitpid((pid_t)child_pid[i], NULL, 0) < 0 && errno == EINTR)
                ;
            child_pid[i] = 0;
        }
    for (int i = 0; i < SLOTS; i++)
        if (slot_used[i]) {
            unlink(slot_path[i]);
            slot_used[i] = 0;
        }
    errno = e;
    signal(sig, SIG_DFL);
    raise(sig);   /* delivered when the handler returns: the process ends by the signal */
}

static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT};

/* Between creating a temporary file and registering it a signal would leave it behind (the soak test found it):
   the signals are held over that window and delivered right after. */
static sigset_t held_old;
static int held;

void hy_cleanup_hold(int on)
{
    if (on && !held++) {
        sigset_t set;
        sigemptyset(&set);
        for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++)
            sigaddset(&set, sigs[k]);
        sigprocmask(SIG_BLOCK, &set, &held_old);
    } else if (!on && held && !--held) {
        sigprocmask(SIG_SETMASK, &held_old, NULL);
    }
}

void hy_cleanup_signals(void)
{
    main_thread = pthread_self();
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
        struct sigaction sa, old;
        if (sigaction(sigs[k], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;   /* a signal ignored by the parent (nohup, a background job's SIGINT) stays ignored */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigfillset(&sa.sa_mask);   /* one handler at a time */
        sigaction(sigs[k], &sa, NULL);
    }
}

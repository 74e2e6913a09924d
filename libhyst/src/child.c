/* A helper program (gnuplot) run with a pipe to or from it, that a signal never outlives (see hyst/util.h). With
 * popen a SIGINT or SIGTERM sent to the program removed the temporary figure (cleanup.c) while gnuplot, not
 * signalled, went on and wrote it again under its temporary name: the soak test of interrupted dock runs found
 * `forces.png.tmpXXXXXX` left behind. The child's process id is registered with the clean-up, whose handler kills
 * and reaps it before it removes the temporary files. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "hyst/util.h"

extern char **environ;

int hy_child_start(hy_child *c, const char *const argv[], char mode, hy_err *err)
{
    c->pid = -1, c->fd = -1, c->status = 0;
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
        return hy_err_set(err, HY_EIO, "cannot start %s: %s", argv[0], strerror(errno));
    int mine = mode == 'w' ? p[1] : p[0], theirs = mode == 'w' ? p[0] : p[1];
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&at);
    if (mode == 'w') {
        posix_spawn_file_actions_adddup2(&fa, theirs, STDIN_FILENO);
    } else {   /* its output and its messages, as `2>&1` */
        posix_spawn_file_actions_adddup2(&fa, theirs, STDOUT_FILENO);
        posix_spawn_file_actions_adddup2(&fa, theirs, STDERR_FILENO);
    }
    /* the clean-up's signals held (hy_cleanup_hold) from before the child exists until its id is registered (a
       signal in between would leave it running); the child starts with the mask as it was */
    sigset_t old;
    sigprocmask(SIG_BLOCK, NULL, &old);
    posix_spawnattr_setsigmask(&at, &old);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
    pid_t pid;
    hy_cleanup_hold(1);
    int e = posix_spawnp(&pid, argv[0], &fa, &at, (char *const *)argv, environ);
    if (e == 0)
        hy_cleanup_child(pid);
    hy_cleanup_hold(0);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(theirs);
    if (e != 0) {
        close(mine);
        if (e == ENOENT || e == EACCES || e == ENOEXEC) {   /* not found or not runnable: a shell's status 127 */
            c->status = 127 << 8;
            return HY_OK;
        }
        return hy_err_set(err, HY_EIO, "cannot start %s: %s", argv[0], strerror(e));
    }
    c->pid = pid, c->fd = mine;
    return HY_OK;
}

int hy_child_wait(hy_child *c)
{
    if (c->fd >= 0) {
        close(c->fd);
        c->fd = -1;
    }
    if (c->pid < 0)
        return c->status;
    /* waited for without reaping (WNOWAIT: the id stays the exited child's), then reaped and unregistered with the
       clean-up's signals held, so the handler never kills an id that another process may have taken */
    siginfo_t si;
    while (waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
        ;
    hy_cleanup_hold(1);
    int st = 0;
    pid_t r;
    while ((r = waitpid(c->pid, &st, 0)) < 0 && errno == EINTR)
        ;
    hy_cleanup_child_done(c->pid);
    hy_cleanup_hold(0);
    c->pid = -1;
    c->status = r < 0 ? -1 : st;
    return c->status;
}

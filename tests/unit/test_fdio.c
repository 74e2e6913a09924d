/* hy_fd_read_full / hy_fd_write_full (libhyst/src/fdio.c): whole transfers over a pipe larger than its buffer (the
 * kernel hands them over in pieces), the end of file and a closed reader reported as -1. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "hyst/util.h"

#define N (1 << 20)   /* 8 MiB of doubles: 128 times a Linux pipe's default 64 KiB buffer */

static void whole_transfer_through_a_pipe(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(p[0]);
        double *x = malloc(N * sizeof *x);
        for (int i = 0; i < N; i++)
            x[i] = i * 0.5;
        _exit(x && hy_fd_write_full(p[1], x, N * sizeof *x) == 0 ? 0 : 1);
    }
    close(p[1]);
    double *y = malloc(N * sizeof *y);
    assert_non_null(y);
    assert_int_equal(hy_fd_read_full(p[0], y, N * sizeof *y), 0);
    for (int i = 0; i < N; i++)
        if (y[i] != i * 0.5)
            fail_msg("element %d: %g", i, y[i]);
    double extra;
    assert_int_equal(hy_fd_read_full(p[0], &extra, sizeof extra), -1);   /* the writer is done: end of file */
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    close(p[0]);
    free(y);
}

static void short_input_and_closed_reader(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    const char msg[] = "abc";
    assert_int_equal(hy_fd_write_full(p[1], msg, 3), 0);
    close(p[1]);
    char buf[8];
    assert_int_equal(hy_fd_read_full(p[0], buf, 8), -1);   /* 3 of 8 bytes, then the end */
    close(p[0]);
    assert_int_equal(pipe(p), 0);
    close(p[0]);
    signal(SIGPIPE, SIG_IGN);
    assert_int_equal(hy_fd_write_full(p[1], msg, 3), -1);  /* nobody reads: EPIPE */
    close(p[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(whole_transfer_through_a_pipe),
        cmocka_unit_test(short_input_and_closed_reader),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

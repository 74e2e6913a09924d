// Atomic output files and error records.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "hyst/util.h"

static char dir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/hyst-atomic-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void read_file(const char *path, char *buf, size_t len)
{
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    size_t n = fread(buf, 1, len - 1, fp);
    buf[n] = '\0';
    fclose(fp);
}

static void commit_replaces_target(void **state)
{
    (void)state;
    char path[300], buf[64];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    FILE *fp = fopen(path, "w");
    fputs("old", fp);
    fclose(fp);
    hy_atomic a;
    hy_err err;
    assert_int_equal(hy_atomic_open(&a, path, NULL, &err), HY_OK);
    fputs("new", a.fp);
    read_file(path, buf, sizeof buf);
    assert_string_equal(buf, "old"); /* untouched until commit */
    assert_int_equal(hy_atomic_commit(&a, &err), HY_OK);
    read_file(path, buf, sizeof buf);
    assert_string_equal(buf, "new");
}

static void abort_keeps_target_and_cleans_up(void **state)
{
    (void)state;
    char path[300], buf[64];
    snprintf(path, sizeof path, "%s/keep.txt", dir);
    FILE *fp = fopen(path, "w");
    fputs("keep", fp);
    fclose(fp);
    hy_atomic a;
    assert_int_equal(hy_atomic_open(&a, path, NULL, NULL), HY_OK);
    fputs("partial", a.fp);
    char tmp[sizeof a.tmp];
    memcpy(tmp, a.tmp, sizeof tmp);
    hy_atomic_abort(&a);
    read_file(path, buf, sizeof buf);
    assert_string_equal(buf, "keep");
    assert_int_not_equal(access(tmp, F_OK), 0);
}

static void refuses_to_overwrite_input(void **state)
{
    (void)state;
    char path[300], alias[300];
    snprintf(path, sizeof path, "%s/in.csv", dir);
    snprintf(alias, sizeof alias, "%s/./in.csv", dir);
    FILE *fp = fopen(path, "w");
    fputs("1,2\n", fp);
    fclose(fp);
    hy_atomic a;
    hy_err err;
    assert_int_equal(hy_atomic_open(&a, alias, path, &err), HY_EARG);
    assert_non_null(strstr(err.msg, "refusing to overwrite"));
}

/* A symbolic link is followed: the file it points to gets the new content, the link stays a link (also when it
 * is relative, and when it points to a file that does not exist yet). */
static void symlink_is_followed_and_kept(void **state)
{
    (void)state;
    char target[300], link[300], buf[64];
    snprintf(target, sizeof target, "%s/target.txt", dir);
    snprintf(link, sizeof link, "%s/link.txt", dir);
    FILE *fp = fopen(target, "w");
    fputs("old", fp);
    fclose(fp);
    assert_int_equal(symlink("target.txt", link), 0);
    hy_atomic a;
    hy_err err;
    assert_int_equal(hy_atomic_open(&a, link, NULL, &err), HY_OK);
    fputs("new", a.fp);
    assert_int_equal(hy_atomic_commit(&a, &err), HY_OK);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    read_file(target, buf, sizeof buf);
    assert_string_equal(buf, "new");
    /* dangling: the commit creates the file the link names */
    char dangling[300], missing[300];
    snprintf(dangling, sizeof dangling, "%s/dangling.txt", dir);
    snprintf(missing, sizeof missing, "%s/missing.txt", dir);
    assert_int_equal(symlink(missing, dangling), 0);
    assert_int_equal(hy_atomic_open(&a, dangling, NULL, &err), HY_OK);
    fputs("made", a.fp);
    assert_int_equal(hy_atomic_commit(&a, &err), HY_OK);
    assert_int_equal(lstat(dangling, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    read_file(missing, buf, sizeof buf);
    assert_string_equal(buf, "made");
    /* a link is still recognised as the input it points to */
    assert_int_equal(hy_atomic_open(&a, link, target, &err), HY_EARG);
}

/* A FIFO is written through (its reader gets the data) and stays a FIFO. */
static void fifo_is_written_through(void **state)
{
    (void)state;
    char path[300], buf[64];
    snprintf(path, sizeof path, "%s/pipe", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    int rd = open(path, O_RDONLY | O_NONBLOCK); /* a reader, so that opening for writing does not block */
    assert_true(rd >= 0);
    hy_atomic a;
    hy_err err;
    assert_int_equal(hy_atomic_open(&a, path, NULL, &err), HY_OK);
    fputs("through", a.fp);
    assert_int_equal(hy_atomic_commit(&a, &err), HY_OK);
    ssize_t n = read(rd, buf, sizeof buf - 1);
    close(rd);
    assert_int_equal(n, 7);
    buf[n] = '\0';
    assert_string_equal(buf, "through");
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
}

/* A character device is written through and stays a device. As root the test makes its own null device
 * (mknod), so that even a broken build never replaces the system's /dev/null; otherwise it uses /dev/null, which
 * an unprivileged process cannot replace. */
static void char_device_is_written_through(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/null", dir);
    if (mknod(path, S_IFCHR | 0666, makedev(1, 3)) != 0)
        snprintf(path, sizeof path, "/dev/null");
    hy_atomic a;
    hy_err err;
    assert_int_equal(hy_atomic_open(&a, path, NULL, &err), HY_OK);
    fputs("discarded", a.fp);
    assert_int_equal(hy_atomic_commit(&a, &err), HY_OK);
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(st.st_rdev, makedev(1, 3));
    /* abort on a device leaves it in place too */
    assert_int_equal(hy_atomic_open(&a, path, NULL, &err), HY_OK);
    hy_atomic_abort(&a);
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISCHR(st.st_mode));
}

static void error_record_formats_and_names(void **state)
{
    (void)state;
    hy_err err;
    assert_int_equal(hy_err_set(&err, HY_EPARSE, "%s:%d:%d: bad", "f.csv", 3, 2), HY_EPARSE);
    assert_string_equal(err.msg, "f.csv:3:2: bad");
    assert_string_equal(hy_status_name(HY_ESTATE), "state-machine violation");
    assert_int_equal(hy_err_set(NULL, HY_EIO, "x"), HY_EIO);
    hy_err_clear(&err);
    assert_int_equal(err.code, HY_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(commit_replaces_target),
        cmocka_unit_test(abort_keeps_target_and_cleans_up),
        cmocka_unit_test(refuses_to_overwrite_input),
        cmocka_unit_test(symlink_is_followed_and_kept),
        cmocka_unit_test(fifo_is_written_through),
        cmocka_unit_test(char_device_is_written_through),
        cmocka_unit_test(error_record_formats_and_names),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

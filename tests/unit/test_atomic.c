// Atomic output files and error records.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
        cmocka_unit_test(error_record_formats_and_names),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

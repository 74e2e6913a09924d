/* Helpers shared by the CSV reader tests (tests/unit/test_csv*.c): a scratch directory, files written from
 * strings, and a warning collector. Included by each test; every function is static. */
#ifndef TEST_CSV_UTIL_H
#define TEST_CSV_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hyst/csvread.h"
#include "hyst/series.h"

#define CSV_UNUSED __attribute__((unused))

CSV_UNUSED static char csv_dir[256];
CSV_UNUSED static char csv_path[512];

CSV_UNUSED static int csv_setup(void **state)
{
    (void)state;
    snprintf(csv_dir, sizeof csv_dir, "/tmp/hyst-csv-XXXXXX");
    return mkdtemp(csv_dir) ? 0 : -1;
}

CSV_UNUSED static int csv_teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", csv_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Writes `len` bytes (strlen when len is 0) to DIR/in.csv and returns the path. */
CSV_UNUSED static const char *csv_file(const char *text, size_t len)
{
    snprintf(csv_path, sizeof csv_path, "%s/in.csv", csv_dir);
    FILE *fp = fopen(csv_path, "wb");
    assert_non_null(fp);
    if (!len)
        len = strlen(text);
    assert_int_equal(fwrite(text, 1, len, fp), len);
    fclose(fp);
    return csv_path;
}

typedef struct warnings {
    int count;
    char last[HY_MSG_LEN];
    char first[HY_MSG_LEN];
} warnings;

CSV_UNUSED static void collect_warning(void *ctx, const char *msg)
{
    warnings *w = ctx;
    if (w->count == 0)
        snprintf(w->first, sizeof w->first, "%s", msg);
    snprintf(w->last, sizeof w->last, "%s", msg);
    w->count++;
}

/* Reads `text` as in.csv with options `o` (NULL: defaults); the messages name "in.csv" as the file. */
CSV_UNUSED static int csv_read_text(const char *text, const hy_csv_opts *o, hy_series *s, hy_err *err)
{
    const char *path = csv_file(text, 0);
    int rc = hy_csv_read(path, o, s, err);
    return rc;
}

/* err->msg with the scratch directory removed from the front, so tests compare "in.csv:3:2: ...". */
CSV_UNUSED static const char *short_msg(const hy_err *err)
{
    size_t n = strlen(csv_dir);
    if (strncmp(err->msg, csv_dir, n) == 0 && err->msg[n] == '/')
        return err->msg + n + 1;
    return err->msg;
}

/* The bundled real records (fixtures/real, credits in its CREDITS.md): $FIXTURES/real when the test runner sets
 * FIXTURES, else fixtures/real relative to the top of the repository, where `make test` runs the tests. */
CSV_UNUSED static const char *real_dir(void)
{
    static char dir[900];
    const char *f = getenv("FIXTURES");
    snprintf(dir, sizeof dir, "%s/real", f && *f ? f : "fixtures");
    return dir;
}

#define assert_prefix(str, prefix)                                                                                 \
    do {                                                                                                           \
        const char *s_ = (str), *p_ = (prefix);                                                                    \
        if (strncmp(s_, p_, strlen(p_)) != 0)                                                                      \
            fail_msg("expected message starting with\n  \"%s\"\ngot\n  \"%s\"", p_, s_);                          \
    } while (0)

#define assert_contains(str, part)                                                                                 \
    do {                                                                                                           \
        const char *s_ = (str), *p_ = (part);                                                                      \
        if (!strstr(s_, p_))                                                                                       \
            fail_msg("expected message containing\n  \"%s\"\ngot\n  \"%s\"", p_, s_);                             \
    } while (0)

#endif

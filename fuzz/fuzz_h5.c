/* Fuzz harness: the HDF5 table reader hy_h5_read_series (libhyst/src/h5read.c, h5read_table.c).
 * Input: byte 0 chooses the dataset path (bits 0-1: /r, /records/axial, /history, /records/a) and the columns
 * (bit 2: x and y by index 2 and 3; bit 3: t by name; bit 4: time required not to go backwards; bit 5: the y
 * column by a name that no table has; bit 6: also the whole table and the root's "summary" attribute, as mech view
 * reads a log); the rest is the file, written to one temporary file (libhdf5 resolves the
 * real path of what it opens, which a memfd's /proc/self/fd/N has not), removed at exit.
 * libhdf5 runs in the reader's child process, which this harness's coverage does not see (docs/fuzzing.md): the
 * parent's side (the stream, the row checks, the messages) is covered, the child's crashes and hangs become
 * errors, and an outcome hash gives libFuzzer the child's results as coverage (below). In this build ASan's
 * interceptors (memcpy, ...) also catch libhdf5's own memory errors in the child: a report whose first frame
 * outside the sanitizer and libc is in libhdf5 ends the child with status 71 (libhdf5's fault, the same that
 * crashes a normal build: reported, not a finding); any other sanitizer report in the child (our code) ends it
 * with ASan's status 1, which fails the run. Invariants: the status is a known code; an error is one printable
 * line starting with "FILE:DSET" and leaves the series empty, and never says the child ended with status 1;
 * a success has n > 0
 * finite samples, bounded after the scale factors, time not going backwards when required, and printable names
 * and units (issue 42, N26). */
#include <math.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#include "fuzz_util.h"
#include "hyst/h5log.h"
#include "../libhyst/src/h5read_internal.h"

/* The child's coverage does not reach libFuzzer: its outcome does. The message with the file name and the numbers
 * taken out, hashed into one of 256 branches, so that an input reaching a new check or a new libhdf5 failure
 * counts as new coverage and is kept (without it the corpus shrinks to inputs that fail the signature check). */
static volatile unsigned outcome_sink;
#define CASE4(k) case k: outcome_sink = k; break; case k + 1: outcome_sink = k + 1; break; \
                 case k + 2: outcome_sink = k + 2; break; case k + 3: outcome_sink = k + 3; break;
#define CASE16(k) CASE4(k) CASE4(k + 4) CASE4(k + 8) CASE4(k + 12)
#define CASE64(k) CASE16(k) CASE16(k + 16) CASE16(k + 32) CASE16(k + 48)
static void outcome(const char *msg, size_t skip)
{
    unsigned h = 2166136261u;
    for (const char *p = msg + skip; *p; p++)
        if (*p < '0' || *p > '9')
            h = (h ^ (unsigned char)*p) * 16777619u;
    switch ((h ^ (h >> 8) ^ (h >> 16) ^ (h >> 24)) & 255u) {
        CASE64(0) CASE64(64) CASE64(128) CASE64(192)
    default:
        break;
    }
}

static void check_text(const char *s, size_t size, const char *what)
{
    size_t n = strnlen(s, size);
    FUZZ_CHECK(n < size, "%s not terminated", what);
    for (size_t i = 0; i < n; i++)
        FUZZ_CHECK((unsigned char)s[i] >= 0x20 && s[i] != 0x7f, "control byte 0x%02x in the %s \"%s\"",
                   (unsigned char)s[i], what, s);
}

static pid_t harness_pid;
static volatile int libhdf5_fault;

/* (a frame of ASan's report) => whether it is the sanitizer's allocator, which this binary carries under the plain
 * names ("in malloc (.../fuzz_h5+0x...)": libhdf5 asking for 0x195000000005 bytes is reported from there, an
 * allocation a normal build refuses with NULL) */
static int is_allocator_frame(const char *p, size_t len)
{
    static const char *const names[] = {" in malloc ", " in calloc ", " in realloc ", " in free ", " in memalign ",
                                        " in posix_memalign ", " in aligned_alloc ", " in reallocarray "};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (memmem(p, len, names[k], strlen(names[k])))
            return 1;
    return 0;
}

// (ASan's report, in the child) => whether its first frame outside the sanitizer and libc is in libhdf5
static void on_report(const char *r)
{
    if (getpid() == harness_pid)
        return;
    for (const char *p = strstr(r, "    #"); p; p = strstr(p + 1, "    #")) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (memmem(p, len, "__interceptor_", 14) || memmem(p, len, "__asan", 6) || memmem(p, len, "libc.so", 7) ||
            memmem(p, len, "__sanitizer", 11) || is_allocator_frame(p, len))
            continue;
        libhdf5_fault = memmem(p, len, "libhdf5", 7) != NULL;
        return;
    }
}

static void on_death(void)
{
    if (getpid() != harness_pid && libhdf5_fault)
        _exit(71);
}

static char tmp_path[64];

static void remove_tmp(void)
{
    unlink(tmp_path);
}

// (bytes) => the temporary file holding them (made once: /dev/shm when present, else /tmp)
static const char *as_file(const uint8_t *data, size_t size)
{
    if (!tmp_path[0]) {
        harness_pid = getpid();
        __asan_set_error_report_callback(on_report);
        __sanitizer_set_death_callback(on_death);
        snprintf(tmp_path, sizeof tmp_path, "%s/fuzz_h5_XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
        int fd = mkstemp(tmp_path);
        FUZZ_CHECK(fd >= 0, "cannot create %s", tmp_path);
        close(fd);
        atexit(remove_tmp);
    }
    FILE *f = fopen(tmp_path, "wb");
    FUZZ_CHECK(f && fwrite(data, 1, size, f) == size && fclose(f) == 0, "cannot write %s", tmp_path);
    return tmp_path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t flags = data[0];
    data++, size--;
    static const char *const dsets[4] = {"/r", "/records/axial", "/history", "/records/a"};
    const char *dset = dsets[flags & 3];
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    if (flags & 4)
        o.x_col = "2", o.y_col = "3";
    if (flags & 8)
        o.t_col = "t";
    o.require_time_increasing = (flags >> 4) & 1;
    if (flags & 32)
        o.y_col = "no such column";

    char src[128];
    const char *path = as_file(data, size);
    snprintf(src, sizeof src, "%s:%s", path, dset);
    hy_h5_stall_ms = 2000; /* a hang of libhdf5 costs 2 s a run, not 10 */
    hy_series s;
    hy_err e;
    fuzz_err_poison(&e);
    int rc = hy_h5_read_series(path, dset, &o, &s, &e);
    FUZZ_CHECK(rc >= HY_OK && rc <= HY_ENOMEM, "unknown status %d", rc);
    if (getenv("FUZZ_H5_VERBOSE")) /* what each input gave, when reproducing: FUZZ_H5_VERBOSE=1 fuzz_h5 FILE */
        fprintf(stderr, "fuzz_h5: %s: status %d: %s\n", dset, rc, rc ? e.msg : "ok");
    if (rc != HY_OK) {
        fuzz_check_message(&e);
        FUZZ_CHECK(strncmp(e.msg, src, strlen(src)) == 0, "message does not start with %s: %s", src, e.msg);
        FUZZ_CHECK(!strstr(e.msg, "the HDF5 reader ended") || strstr(e.msg, "(status 71)"),
                   "the child ended by a sanitizer report outside libhdf5 (its report is above): %s", e.msg);
        FUZZ_CHECK(s.n == 0 && !s.q && !s.Q && !s.t, "an error left samples in the series");
        outcome(e.msg, strlen(src));
    } else {
        FUZZ_CHECK(s.n > 0 && s.q && s.Q, "success without samples");
        for (size_t i = 0; i < s.n; i++) {
            FUZZ_CHECK(isfinite(s.q[i]) && isfinite(s.Q[i]), "sample %zu not finite", i);
            FUZZ_CHECK(fabs(s.q[i]) <= HY_CSV_MAX_ABS && fabs(s.Q[i]) <= HY_CSV_MAX_ABS, "sample %zu too large", i);
            if (s.t) {
                FUZZ_CHECK(isfinite(s.t[i]), "time %zu not finite", i);
                FUZZ_CHECK(!o.require_time_increasing || i == 0 || s.t[i] >= s.t[i - 1], "time backwards at %zu",
                           i);
            }
        }
        check_text(s.q_name, sizeof s.q_name, "q name");
        check_text(s.Q_name, sizeof s.Q_name, "Q name");
        check_text(s.t_name, sizeof s.t_name, "t name");
        check_text(s.q_unit, sizeof s.q_unit, "q unit");
        check_text(s.Q_unit, sizeof s.Q_unit, "Q unit");
        check_text(s.t_unit, sizeof s.t_unit, "t unit");
        FUZZ_CHECK(strcmp(s.source, src) == 0, "source %s, expected %s", s.source, src);
        char what[256];
        snprintf(what, sizeof what, "ok %s %s %s %s %d", s.q_name, s.Q_name, s.t_name, s.q_unit, s.t != NULL);
        outcome(what, 0);
    }
    hy_series_free(&s);

    /* bit 6: the whole-table and attribute readers of mech view (hy_h5_read_table, hy_h5_read_attr_text) on the
       same file, through the same child: a known status, an error one line naming FILE:DSET, a success with
       1..128 columns of printable names, at least one row, and a NUL-terminated text of the length given */
    if (flags & 64) {
        hy_h5_table *t = calloc(1, sizeof *t);
        FUZZ_CHECK(t != NULL, "out of memory");
        fuzz_err_poison(&e);
        rc = hy_h5_read_table(path, dset, t, &e);
        FUZZ_CHECK(rc >= HY_OK && rc <= HY_ENOMEM, "unknown status %d (table)", rc);
        if (rc != HY_OK) {
            fuzz_check_message(&e);
            FUZZ_CHECK(strncmp(e.msg, src, strlen(src)) == 0, "message does not start with %s: %s", src, e.msg);
            FUZZ_CHECK(!t->v && t->nrow == 0, "an error left rows in the table");
            outcome(e.msg, strlen(src));
        } else {
            FUZZ_CHECK(t->ncol >= 1 && t->ncol <= HY_H5_MAX_COLS && t->nrow > 0 && t->v, "a table without data");
            for (int k = 0; k < t->ncol; k++) {
                check_text(t->name[k], sizeof t->name[k], "table name");
                check_text(t->unit[k], sizeof t->unit[k], "table unit");
            }
            outcome("ok table", 0);
        }
        hy_h5_table_free(t);
        free(t);
        char *text = NULL, asrc[160];
        size_t len = 0;
        snprintf(asrc, sizeof asrc, "%s:/", path);
        fuzz_err_poison(&e);
        rc = hy_h5_read_attr_text(path, "/", "summary", &text, &len, &e);
        FUZZ_CHECK(rc >= HY_OK && rc <= HY_ENOMEM, "unknown status %d (attribute)", rc);
        if (rc != HY_OK) {
            fuzz_check_message(&e);
            FUZZ_CHECK(strncmp(e.msg, asrc, strlen(asrc)) == 0, "message does not start with %s: %s", asrc, e.msg);
            FUZZ_CHECK(!text, "an error left a text");
            outcome(e.msg, strlen(asrc));
        } else {
            FUZZ_CHECK(text && strlen(text) == len, "the text's length %zu is not %zu", text ? strlen(text) : 0, len);
            outcome("ok attribute", 0);
        }
        free(text);
    }
    return 0;
}

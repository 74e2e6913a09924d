/* Fuzz harness: the bench-record CSV reader hy_csv_read (libhyst/src/csvread*.c).
 * Input: byte 0 chooses the options (header, units row, time column, skip-bad-rows, columns by index), the rest
 * is the file, read through a memfd.
 * Invariants: the status is a known code; an error has a one-line message starting with the file name and leaves
 * the series empty; a success has n > 0 finite samples on non-decreasing lines (time not going backwards when
 * required); reading the same file with a buffer of 4..19 bytes instead of one that holds it whole (the separator given as the
 * one detected) gives the same status, message and samples bit for bit. */
#include <math.h>
#include "fuzz_util.h"
#include "hyst/csvread.h"
#include "../libhyst/src/csvread_internal.h"

static void check_series(const hy_series *s, const hy_csv_opts *o)
{
    FUZZ_CHECK(s->n > 0 && s->q && s->Q && s->line, "success without samples");
    for (size_t i = 0; i < s->n; i++) {
        FUZZ_CHECK(isfinite(s->q[i]) && isfinite(s->Q[i]), "sample %zu not finite", i);
        /* not decreasing: rows ended by a lone CR share a line until lone CRs count as line ends (issue 13 #3) */
        FUZZ_CHECK(i == 0 || s->line[i] >= s->line[i - 1], "line numbers decreasing at %zu", i);
        if (s->t) {
            FUZZ_CHECK(isfinite(s->t[i]), "time %zu not finite", i);
            FUZZ_CHECK(!o->require_time_increasing || i == 0 || s->t[i] >= s->t[i - 1], "time backwards at %zu", i);
        }
    }
    FUZZ_CHECK(o->skip_bad_rows || s->skipped_rows == 0, "rows skipped without --skip-bad-rows");
}

static int same_array(const double *a, const double *b, size_t n)
{
    return (!a && !b) || (a && b && memcmp(a, b, n * sizeof *a) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t flags = data[0];
    data++, size--;
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    static const int tri[4] = {-1, 0, 1, -1};
    o.header = tri[flags & 3];
    o.units_row = tri[(flags >> 2) & 3];
    o.skip_bad_rows = (flags >> 4) & 1;
    if (flags & 0x20)
        o.t_col = flags & 0x40 ? "1" : "t";
    if (flags & 0x80) {
        o.x_col = "2";
        o.y_col = "1";
    }

    char path[64];
    int fd = fuzz_memfile(data, size, path, sizeof path);
    hy_series a, b;
    hy_err ea, eb;
    fuzz_err_poison(&ea), fuzz_err_poison(&eb);
    hy_csv_block = (size_t)1 << 16; /* holds any input the fuzzer makes (-max_len 4096) in one block */
    int ra = hy_csv_read(path, &o, &a, &ea);
    FUZZ_CHECK(ra >= HY_OK && ra <= HY_ENOMEM, "unknown status %d", ra);
    if (ra != HY_OK) {
        fuzz_check_message(&ea);
        FUZZ_CHECK(ea.code == ra, "err.code %d != status %d", ea.code, ra);
        FUZZ_CHECK(strncmp(ea.msg, path, strlen(path)) == 0, "message does not start with the file name: %s", ea.msg);
        FUZZ_CHECK(a.n == 0 && !a.q && !a.Q && !a.t && !a.line, "error but the series is not empty");
    } else {
        check_series(&a, &o);
    }

    /* The same file through a tiny buffer: every line crosses block boundaries. */
    size_t skip = size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    hy_csv_opts o2 = o;
    o2.delimiter = hy_csv_detect_delimiter((const char *)data + skip, size - skip);
    hy_csv_block = 4 + size % 16;
    int rb = hy_csv_read(path, &o2, &b, &eb);
    hy_csv_block = (size_t)1 << 20;
    FUZZ_CHECK(rb == ra, "status %d with a tiny buffer, %d with a large one (%s | %s)", rb, ra,
               rb ? eb.msg : "", ra ? ea.msg : "");
    if (ra != HY_OK) {
        FUZZ_CHECK(strcmp(ea.msg, eb.msg) == 0, "messages differ:\n  large: %s\n  tiny:  %s", ea.msg, eb.msg);
    } else {
        FUZZ_CHECK(a.n == b.n, "%zu samples with a large buffer, %zu with a tiny one", a.n, b.n);
        FUZZ_CHECK(same_array(a.q, b.q, a.n) && same_array(a.Q, b.Q, a.n) && same_array(a.t, b.t, a.n),
                   "samples differ with a tiny buffer");
        FUZZ_CHECK(memcmp(a.line, b.line, a.n * sizeof *a.line) == 0, "line numbers differ with a tiny buffer");
        FUZZ_CHECK(strcmp(a.q_name, b.q_name) == 0 && strcmp(a.Q_name, b.Q_name) == 0 &&
                   strcmp(a.t_name, b.t_name) == 0 && strcmp(a.q_unit, b.q_unit) == 0 &&
                   strcmp(a.Q_unit, b.Q_unit) == 0 && strcmp(a.t_unit, b.t_unit) == 0,
                   "names or units differ with a tiny buffer");
        FUZZ_CHECK(a.skipped_rows == b.skipped_rows, "skipped rows differ with a tiny buffer");
    }
    hy_series_free(&a);
    hy_series_free(&b);
    close(fd);
    return 0;
}

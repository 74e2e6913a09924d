/* HDF5 logs (hyst/h5log.h): tables written in chunks read back bit for bit as series, the columns chosen as the
 * CSV reader chooses them, the file replaced only on commit, and bad files and paths refused with messages that
 * name the file and the dataset. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "hyst/h5log.h"
#include "hyst/util.h"
/* the HDF5 library as libhyst loads it (dlopen): H5Dread of a whole table, independent of libhyst's reader */
#include "../../libhyst/src/h5lib.h"

static char dir[256], path[300];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/hyst-h5log-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof path, "%s/log.h5", dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *const names[3] = {"t", "q", "Q"}, *const units[3] = {"s", "m", "N"};

// row i of the test table: irrational-looking doubles of every magnitude, so bit equality means something
/* not inlined: one compiled body for the writer and the checks, so that a compiler contracting a * b + c into an
 * FMA at one call site and not at another (Clang's -ffp-contract=on) cannot make the two disagree in the last bit */
__attribute__((noinline)) static void row_of(long i, double r[3])
{
    r[0] = 1e-4 * (double)i;
    r[1] = sin(0.001 * (double)i) * 1e-3 + 1e-19 * (double)i;
    r[2] = (i % 7 == 0 ? -0.0 : 1.0 / 3.0) * exp(0.0001 * (double)i) * 1e5;
}

// (rows) => path holding /records/e with that many rows and a /history of 2 columns; HY_OK
static int write_log(long rows)
{
    hy_h5log *lg;
    hy_h5table *t, *h;
    hy_err err;
    assert_int_equal(hy_h5log_open(&lg, path, NULL, &err), HY_OK);
    assert_int_equal(hy_h5log_table(lg, "/records/e", 3, names, units, "test element", &t, &err), HY_OK);
    assert_int_equal(hy_h5log_table(lg, "/history", 2, names, units, "history", &h, &err), HY_OK);
    for (long i = 0; i < rows; i++) {
        double r[3];
        row_of(i, r);
        assert_int_equal(hy_h5log_append(t, r, &err), HY_OK);
        if (i % 10 == 0)
            assert_int_equal(hy_h5log_append(h, r, &err), HY_OK);
    }
    assert_int_equal(hy_h5log_rows(t), (size_t)rows);
    assert_int_equal(hy_h5log_attr_double(lg, "/", "peak", 2.5, &err), HY_OK);
    assert_int_equal(hy_h5log_attr_double(lg, "/", "peak", 3.5, &err), HY_OK); /* replaced, not refused */
    assert_int_equal(hy_h5log_attr_string(lg, "/records/e", "note", "x", &err), HY_OK);
    assert_int_not_equal(hy_h5log_attr_string(lg, "/nope", "note", "x", &err), HY_OK);
    return hy_h5log_commit(lg, &err);
}

// many chunks (a chunk is 10922 rows of 3 columns) and a partial last chunk: every value back bit for bit
static void round_trip_bit_for_bit(void **state)
{
    (void)state;
    const long rows = 50000;
    assert_int_equal(write_log(rows), HY_OK);
    hy_series s;
    hy_err err;
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.t_col = "t";
    assert_int_equal(hy_h5_read_series(path, "/records/e", &o, &s, &err), HY_OK);
    assert_int_equal(s.n, (size_t)rows);
    for (long i = 0; i < rows; i++) {
        double r[3];
        row_of(i, r);
        assert_memory_equal(&s.t[i], &r[0], sizeof(double));
        assert_memory_equal(&s.q[i], &r[1], sizeof(double));
        assert_memory_equal(&s.Q[i], &r[2], sizeof(double));
        assert_int_equal(s.line[i], (size_t)i + 1);
    }
    assert_string_equal(s.q_name, "q");
    assert_string_equal(s.Q_unit, "N");
    assert_string_equal(s.t_unit, "s");
    assert_string_equal(s.source, strcat(strcpy((char[400]){0}, path), ":/records/e"));
    hy_series_free(&s);
    /* columns by index and by name, and a scale factor */
    o.x_col = "3", o.y_col = "q", o.t_col = NULL, o.x_scale = 2;
    assert_int_equal(hy_h5_read_series(path, "/records/e", &o, &s, &err), HY_OK);
    double r[3];
    row_of(77, r);
    assert_true(s.q[77] == 2 * r[2] && s.Q[77] == r[1] && s.t == NULL);
    hy_series_free(&s);
    o.x_col = "4";
    assert_int_not_equal(hy_h5_read_series(path, "/records/e", &o, &s, &err), HY_OK);
    assert_non_null(strstr(err.msg, "found 3 columns, expected a column 4"));
    o.x_col = "force";
    assert_int_not_equal(hy_h5_read_series(path, "/records/e", &o, &s, &err), HY_OK);
    assert_non_null(strstr(err.msg, "no column named 'force'"));
    assert_non_null(strstr(err.msg, "t, q, Q"));
}

// deflate 0: chunked, not compressed: larger, the same numbers
static void uncompressed(void **state)
{
    (void)state;
    assert_int_equal(write_log(20000), HY_OK);
    struct stat a, b;
    assert_int_equal(stat(path, &a), 0);
    hy_h5log *lg;
    hy_h5table *t;
    hy_err err;
    assert_int_equal(hy_h5log_open(&lg, path, NULL, &err), HY_OK);
    hy_h5log_set_deflate(lg, 0);
    assert_int_equal(hy_h5log_table(lg, "/records/e", 3, names, units, "", &t, &err), HY_OK);
    for (long i = 0; i < 20000; i++) {
        double r[3];
        row_of(i, r);
        assert_int_equal(hy_h5log_append(t, r, &err), HY_OK);
    }
    assert_int_equal(hy_h5log_commit(lg, &err), HY_OK);
    assert_int_equal(stat(path, &b), 0);
    assert_true(b.st_size > 20000 * 24 && b.st_size > a.st_size); /* raw size; the deflated file was smaller */
    hy_series s;
    assert_int_equal(hy_h5_read_series(path, "/records/e", NULL, &s, &err), HY_OK);
    double r[3];
    row_of(19999, r);
    assert_memory_equal(&s.Q[19999], &r[2], sizeof(double));
    hy_series_free(&s);
}

// (row i, column k) => any 64-bit pattern for odd columns (NaN payloads, infinities, subnormals, -0), smooth values
// for even ones (so that deflate finds something to compress)
static double cell(long i, int k)
{
    if (k % 2 == 0)
        return sin(1e-3 * (double)i + k) * pow(10.0, k % 7 - 3);
    uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15u + (uint64_t)k * 0xD1B54A32D192ED03u;
    x ^= x >> 29, x *= 0xBF58476D1CE4E5B9u, x ^= x >> 32;
    static const uint64_t special[] = {0x7FF8000000000001u, 0xFFF0000000000000u, 0x7FF0000000000000u,
                                       0x8000000000000000u, 0x0000000000000001u, 0x7FEFFFFFFFFFFFFFu};
    if (i % 13 == 0)
        x = special[(i / 13 + k) % 6];
    double v;
    memcpy(&v, &x, sizeof v);
    return v;
}

/* chunks written directly (shuffled and compressed by libhyst, H5Dwrite_chunk), the partial last one padded: rows of
 * 1, 10 and 128 columns (element sizes 8, 80, 1024 bytes for the shuffle), deflate levels 1,
 * 9 and 0, three full chunks and a part: H5Dread gives every bit back, and the compressed files are smaller */
static void direct_chunks_bit_for_bit(void **state)
{
    (void)state;
    static const int cols[] = {1, 10, 128}, levels[] = {1, 9, 0};
    char nm[128][16], un[128][2];
    const char *np[128], *up[128];
    for (int k = 0; k < 128; k++) {
        snprintf(nm[k], sizeof nm[k], "c%d", k);
        snprintf(un[k], sizeof un[k], "1");
        np[k] = nm[k], up[k] = un[k];
    }
    for (size_t a = 0; a < sizeof cols / sizeof *cols; a++) {
        int nc = cols[a];
        long cap = 256 * 1024 / (8 * nc), rows = 3 * cap + cap / 2 + 1; /* the chunk of h5log.c */
        double *want = malloc((size_t)rows * (size_t)nc * sizeof *want), *got = calloc((size_t)rows * (size_t)nc, 8);
        assert_non_null(want);
        assert_non_null(got);
        for (long i = 0; i < rows; i++)
            for (int k = 0; k < nc; k++)
                want[i * nc + k] = cell(i, k);
        off_t size[3];
        for (size_t b = 0; b < sizeof levels / sizeof *levels; b++) {
            hy_h5log *lg;
            hy_h5table *t;
            hy_err err;
            assert_int_equal(hy_h5log_open(&lg, path, NULL, &err), HY_OK);
            hy_h5log_set_deflate(lg, levels[b]);
            assert_int_equal(hy_h5log_table(lg, "/records/w", nc, np, up, "wide", &t, &err), HY_OK);
            for (long i = 0; i < rows; i++)
                assert_int_equal(hy_h5log_append(t, want + i * nc, &err), HY_OK);
            assert_int_equal(hy_h5log_commit(lg, &err), HY_OK);
            struct stat st;
            assert_int_equal(stat(path, &st), 0);
            size[b] = st.st_size;
            memset(got, 0, (size_t)rows * (size_t)nc * 8);
            hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
            assert_true(f >= 0);
            hid_t d = H5Dopen2(f, "/records/w", H5P_DEFAULT);
            assert_true(d >= 0);
            hid_t ty = H5Dget_type(d), sp = H5Dget_space(d);
            hsize_t n = 0;
            assert_int_equal(H5Sget_simple_extent_dims(sp, &n, NULL), 1);
            assert_int_equal(n, (hsize_t)rows);
            assert_true(H5Dread(d, ty, H5S_ALL, H5S_ALL, H5P_DEFAULT, got) >= 0);
            H5Sclose(sp);
            H5Tclose(ty);
            H5Dclose(d);
            H5Fclose(f);
            assert_memory_equal(got, want, (size_t)rows * (size_t)nc * 8);
        }
        /* half the columns are smooth: deflate must have gained something, and level 0 stores at least the raw rows */
        assert_true(size[2] > rows * nc * 8 && size[0] < size[2] * 9 / 10 && size[1] < size[2] * 9 / 10);
        free(want);
        free(got);
    }
}

/* (nc columns of one full chunk, cell value) => the bytes HDF5 stores for that chunk, after H5Dread gave every bit
   back */
static hsize_t one_chunk_bytes(int nc, double (*value)(long, int), int planes)
{
    static const char *const np[2] = {"a", "b"}, *const up[2] = {"1", "1"};
    long rows = 256 * 1024 / (8 * nc); /* the chunk of h5log.c */
    double *want = malloc((size_t)rows * (size_t)nc * 8), *got = calloc((size_t)rows * (size_t)nc, 8);
    assert_true(want && got);
    hy_h5log *lg;
    hy_h5table *t;
    hy_err err;
    assert_int_equal(hy_h5log_open(&lg, path, NULL, &err), HY_OK);
    hy_h5log_set_planes(lg, planes);
    assert_int_equal(hy_h5log_table(lg, "/records/p", nc, np, up, "planes", &t, &err), HY_OK);
    for (long i = 0; i < rows; i++) {
        for (int k = 0; k < nc; k++)
            want[i * nc + k] = value(i, k);
        assert_int_equal(hy_h5log_append(t, want + i * nc, &err), HY_OK);
    }
    assert_int_equal(hy_h5log_commit(lg, &err), HY_OK);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), d = H5Dopen2(f, "/records/p", H5P_DEFAULT);
    hid_t ty = H5Dget_type(d);
    assert_true(f >= 0 && d >= 0 && H5Dread(d, ty, H5S_ALL, H5S_ALL, H5P_DEFAULT, got) >= 0);
    assert_memory_equal(got, want, (size_t)rows * (size_t)nc * 8);
    hsize_t at = 0, bytes = 0;
    assert_true(H5Dget_chunk_storage_size(d, &at, &bytes) >= 0);
    H5Tclose(ty);
    H5Dclose(d);
    H5Fclose(f);
    free(want);
    free(got);
    return bytes;
}

static double noise_and_constant(long i, int k)
{
    return k == 0 ? cell(i, 1) : 1.0;
}

static double time_axis(long i, int k)
{
    (void)k;
    return 2.5e-4 * (double)i;
}

/* level 1's byte-plane stream (h5log.c, plane_stream): the 8 planes of a noise column cost their bytes and a few
 * block headers, the 8 of a constant column almost nothing (storing them too would double the chunk); a uniform time
 * axis, whose mantissa bytes take every value in regular steps, shrinks to under 3 of its 8 planes (its 5 low planes
 * pass only the test on repeated strings: left stored, the chunk would hold more than 5). Against libdeflate over
 * every byte (planes off, the former level 1; the same bits read back): at most 2 % larger on the first, within
 * a factor 1.5 on the time axis, whose bytes are a few per cent of a plane either way */
static void plane_stream_stores_noise_packs_the_rest(void **state)
{
    (void)state;
    hsize_t plane = 256 * 1024 / 16, mixed = one_chunk_bytes(2, noise_and_constant, 1);
    hsize_t mixed_ref = one_chunk_bytes(2, noise_and_constant, 0);
    assert_true(mixed >= 8 * plane && mixed < 8 * plane + 8 * plane / 100);
    assert_true(mixed < mixed_ref + mixed_ref / 50);
    plane = 256 * 1024 / 8;
    hsize_t t = one_chunk_bytes(1, time_axis, 1), t_ref = one_chunk_bytes(1, time_axis, 0);
    assert_true(t < 3 * plane);
    assert_true(t < t_ref + t_ref / 2);
}

// an aborted log leaves the earlier file as it was, and no temporary file
static void abort_keeps_the_old_file(void **state)
{
    (void)state;
    assert_int_equal(write_log(10), HY_OK);
    struct stat a, b;
    assert_int_equal(stat(path, &a), 0);
    hy_h5log *lg;
    hy_h5table *t;
    hy_err err;
    assert_int_equal(hy_h5log_open(&lg, path, NULL, &err), HY_OK);
    assert_int_equal(hy_h5log_table(lg, "/records/e", 3, names, units, "", &t, &err), HY_OK);
    double r[3] = {1, 2, 3};
    for (int i = 0; i < 100000; i++)
        hy_h5log_append(t, r, &err);
    hy_h5log_abort(lg);
    assert_int_equal(stat(path, &b), 0);
    assert_true(a.st_ino == b.st_ino && a.st_size == b.st_size);
    hy_series s;
    assert_int_equal(hy_h5_read_series(path, "/records/e", NULL, &s, &err), HY_OK);
    assert_int_equal(s.n, 10);
    hy_series_free(&s);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "ls %s | grep -q tmp", dir);
    assert_int_not_equal(system(cmd), 0);
    /* standard output and an input are refused */
    assert_int_not_equal(hy_h5log_open(&lg, "-", NULL, &err), HY_OK);
    assert_non_null(strstr(err.msg, "needs a regular file"));
    assert_int_not_equal(hy_h5log_open(&lg, path, path, &err), HY_OK);
    assert_non_null(strstr(err.msg, "refusing to overwrite"));
    /* an input given as a table of the file protects the file (issue 42, N14) */
    char dsp[400];
    snprintf(dsp, sizeof dsp, "%s:/records/e", path);
    assert_int_equal(hy_same_file(path, dsp), 1);
    assert_int_equal(hy_same_file(dsp, path), 1);
    assert_int_not_equal(hy_h5log_open(&lg, path, dsp, &err), HY_OK);
    assert_non_null(strstr(err.msg, "refusing to overwrite"));
    snprintf(dsp, sizeof dsp, "%s/other.h5:/records/e", dir);
    assert_int_equal(hy_same_file(path, dsp), 0);
}

static void bad_files_and_paths(void **state)
{
    (void)state;
    assert_int_equal(write_log(5), HY_OK);
    hy_series s;
    hy_err err;
    char other[320];
    assert_int_not_equal(hy_h5_read_series(path, "/records/x", NULL, &s, &err), HY_OK);
    assert_non_null(strstr(err.msg, ":/records/x: no dataset /records/x in "));
    assert_int_not_equal(hy_h5_read_series(path, "/nogroup/x", NULL, &s, &err), HY_OK);
    assert_non_null(strstr(err.msg, "no dataset /nogroup/x"));
    assert_int_not_equal(hy_h5_read_series(path, "/records", NULL, &s, &err), HY_OK);
    assert_non_null(strstr(err.msg, "is a group, expected a dataset"));
    snprintf(other, sizeof other, "%s/none.h5", dir);
    assert_int_not_equal(hy_h5_read_series(other, "/records/e", NULL, &s, &err), HY_OK);
    assert_non_null(strstr(err.msg, "none.h5:/records/e: cannot open"));
    snprintf(other, sizeof other, "%s/text.h5", dir);
    FILE *fp = fopen(other, "w");
    fputs("t,q,Q\n1,2,3\n", fp);
    fclose(fp);
    assert_int_not_equal(hy_h5_read_series(other, "/records/e", NULL, &s, &err), HY_OK);
    assert_non_null(strstr(err.msg, "text.h5 is not an HDF5 file"));
    /* the path form: FILE:/DSET, unless a file of that whole name exists */
    char f[300];
    const char *d;
    assert_int_equal(hy_h5_split_path("a/log.h5:/records/e", f, sizeof f, &d), 1);
    assert_string_equal(f, "a/log.h5");
    assert_string_equal(d, "/records/e");
    assert_int_equal(hy_h5_split_path("data.csv", f, sizeof f, &d), 0);
    assert_int_equal(hy_h5_split_path(":/x", f, sizeof f, &d), 0);
}

/* hy_h5_read_table (mech view's reader of a log's /history and /pose): every column of a table of many child
 * messages (8192 rows each) and a partial last one, bit for bit, with its names and units; a missing table
 * named. hy_h5_read_attr_text: a string attribute back byte for byte; a missing one and a number refused */
static void whole_table_and_string_attribute(void **state)
{
    (void)state;
    const long rows = 50000;
    assert_int_equal(write_log(rows), HY_OK);
    hy_h5_table t;
    hy_err err;
    assert_int_equal(hy_h5_read_table(path, "/records/e", &t, &err), HY_OK);
    assert_int_equal(t.ncol, 3);
    assert_int_equal(t.nrow, (size_t)rows);
    for (long i = 0; i < rows; i++) {
        double r[3];
        row_of(i, r);
        assert_memory_equal(t.v + 3 * i, r, sizeof r);
    }
    assert_string_equal(t.name[2], "Q");
    assert_string_equal(t.unit[1], "m");
    assert_string_equal(t.source, strcat(strcpy((char[400]){0}, path), ":/records/e"));
    hy_h5_table_free(&t);
    assert_null(t.v);
    assert_int_equal(hy_h5_read_table(path, "/history", &t, &err), HY_OK); /* every 10th row, 2 columns */
    assert_int_equal(t.ncol, 2);
    assert_int_equal(t.nrow, (size_t)rows / 10);
    double r[3];
    row_of(49990, r);
    assert_memory_equal(t.v + 2 * 4999, r, 2 * sizeof(double));
    hy_h5_table_free(&t);
    assert_int_not_equal(hy_h5_read_table(path, "/pose", &t, &err), HY_OK);
    assert_non_null(strstr(err.msg, ":/pose: no dataset /pose in"));
    assert_null(t.v);

    /* the summary as mech dock writes it: a JSON text of any length, bytes above 127 included */
    char *text;
    size_t len;
    assert_int_not_equal(hy_h5_read_attr_text(path, "/", "summary", &text, &len, &err), HY_OK);
    assert_non_null(strstr(err.msg, ":/: no attribute 'summary'"));
    assert_int_not_equal(hy_h5_read_attr_text(path, "/", "peak", &text, &len, &err), HY_OK); /* a float64 */
    assert_non_null(strstr(err.msg, "the 'peak' attribute is not one string"));
    assert_int_equal(hy_h5_read_attr_text(path, "/records/e", "note", &text, &len, &err), HY_OK);
    assert_string_equal(text, "x");
    assert_int_equal(len, 1);
    free(text);
    size_t big = 100000;
    char *want = malloc(big + 1);
    assert_non_null(want);
    for (size_t i = 0; i < big; i++)
        want[i] = i % 1000 == 999 ? '\n' : i % 97 == 0 ? '\xc3' : i % 97 == 1 ? '\xa9' : (char)('a' + i % 26);
    want[big] = '\0';
    hy_h5log *lg;
    hy_h5table *h;
    assert_int_equal(hy_h5log_open(&lg, path, NULL, &err), HY_OK);
    assert_int_equal(hy_h5log_table(lg, "/history", 2, names, units, "history", &h, &err), HY_OK);
    assert_int_equal(hy_h5log_attr_string(lg, "/", "summary", want, &err), HY_OK);
    assert_int_equal(hy_h5log_commit(lg, &err), HY_OK);
    assert_int_equal(hy_h5_read_attr_text(path, "/", "summary", &text, &len, &err), HY_OK);
    assert_int_equal(len, big);
    assert_memory_equal(text, want, big + 1);
    free(text);
    free(want);
    /* a table without rows is refused as hy_h5_read_series refuses it */
    assert_int_not_equal(hy_h5_read_table(path, "/history", &t, &err), HY_OK);
    assert_non_null(strstr(err.msg, "found no rows"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(round_trip_bit_for_bit, setup, teardown),
        cmocka_unit_test_setup_teardown(uncompressed, setup, teardown),
        cmocka_unit_test_setup_teardown(direct_chunks_bit_for_bit, setup, teardown),
        cmocka_unit_test_setup_teardown(plane_stream_stores_noise_packs_the_rest, setup, teardown),
        cmocka_unit_test_setup_teardown(abort_keeps_the_old_file, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_files_and_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(whole_table_and_string_attribute, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

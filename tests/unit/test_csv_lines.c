/* Line ends and line lengths of the CSV reader: a lone CR (old Mac files) ends a line like LF and CRLF, so
 * messages name the right line; the rows before the data (kept whole to detect header and units) are bounded
 * by HY_CSV_MAX_HEADER_BYTES and a longer one is refused with file, line and limit. */
#include "test_csv_util.h"
#include "../../libhyst/src/csvread_internal.h"

static void lone_cr_line_numbers(void **state)
{
    (void)state;
    hy_series s;
    hy_err err;
    assert_int_equal(csv_read_text("x,y\r1,2\r3,4\rabc,5\r", NULL, &s, &err), HY_EPARSE);
    assert_prefix(short_msg(&err), "in.csv:4:1: found 'abc', expected a number");
    assert_int_equal(csv_read_text("x,y\r\r# comment\r1,2\r3,\r", NULL, &s, &err), HY_EPARSE);
    assert_prefix(short_msg(&err), "in.csv:5:2: found an empty cell");
    /* mixed LF, CRLF and CR: each counts once */
    assert_int_equal(csv_read_text("x,y\n1,2\r\n3,4\r5,6\nz,7\n", NULL, &s, &err), HY_EPARSE);
    assert_prefix(short_msg(&err), "in.csv:5:1: found 'z'");
}

static void lone_cr_file_is_read(void **state)
{
    (void)state;
    hy_series s;
    hy_err err;
    assert_int_equal(csv_read_text("Displacement,Force\rmm,kN\r1,2\r3,4\r-5,6", NULL, &s, &err), HY_OK);
    assert_int_equal(s.n, 3);
    assert_string_equal(s.q_unit, "mm");
    assert_true(s.q[2] == -5.0 && s.Q[2] == 6.0);
    assert_int_equal(s.line[0], 3);
    assert_int_equal(s.line[2], 5);
    hy_series_free(&s);
    /* the separator is detected line by line there too: ';' with decimal commas */
    assert_int_equal(csv_read_text("x;y\r1,5;2\r3;-4,25\r5;6\r", NULL, &s, &err), HY_OK);
    assert_int_equal(s.n, 3);
    assert_true(s.q[0] == 1.5 && s.Q[1] == -4.25);
    hy_series_free(&s);
}

/* a CRLF split across the reader's 1 MiB blocks is one line end, a CR at the end of a block too */
static void cr_at_block_boundary(void **state)
{
    (void)state;
    size_t block = (size_t)1 << 20;
    for (int variant = 0; variant < 2; variant++) {
        size_t cap = 2 * block + 64, n = 0;
        char *text = malloc(cap);
        n += (size_t)sprintf(text, "x,y\r\n");
        size_t rows = 1;
        while (n < block - 16) {
            n += (size_t)sprintf(text + n, "%zu,1\r\n", rows % 10);
            rows++;
        }
        /* a row "7,000...0" whose line end starts at byte block - 1, the last byte of the first block */
        n += (size_t)sprintf(text + n, "7,");
        while (n < block - 1)
            text[n++] = '0';
        text[n++] = '\r';
        if (variant == 0)
            text[n++] = '\n'; /* CRLF split across the blocks; variant 1: a lone CR ends the block */
        n += (size_t)sprintf(text + n, "1,bad\r\n");
        text[n] = '\0';
        hy_series s;
        hy_err err;
        assert_int_equal(hy_csv_read(csv_file(text, n), NULL, &s, &err), HY_EPARSE);
        char want[64];
        snprintf(want, sizeof want, "in.csv:%zu:2: found 'bad'", rows + 2);
        assert_prefix(short_msg(&err), want);
        free(text);
    }
}

/* "a,a,a,...,b\n" of at least `bytes` bytes */
static char *long_row(size_t bytes, size_t *len)
{
    char *t = malloc(bytes + 64);
    size_t n = 0;
    for (; n < bytes; n++)
        t[n] = n % 2 ? ',' : 'a';
    t[n++] = 'b';
    t[n++] = '\n';
    t[n] = '\0';
    *len = n;
    return t;
}

/* The block size is the reader's business only: a header row shorter than the 1 MiB limit but longer than a small
 * block is read the same way (fuzz/corpus/csv/regress_tiny_block_header_limit: with 4-19-byte blocks it was
 * refused as "longer than 1 MiB"). */
static void small_blocks_read_like_large_ones(void **state)
{
    (void)state;
    const char *text = "\"Displacement\",Force\nmm,kN\n0,1\n2,3\n";
    size_t saved = hy_csv_block;
    for (size_t block = 4; block <= 32; block += 5) {
        hy_series s;
        hy_err err;
        hy_csv_block = block;
        int rc = hy_csv_read(csv_file(text, 0), NULL, &s, &err);
        hy_csv_block = saved;
        assert_int_equal(rc, HY_OK);
        assert_int_equal(s.n, 2);
        assert_true(s.q[1] == 2.0 && s.Q[1] == 3.0);
        hy_series_free(&s);
    }
}

/* A compressed file is named as such whatever the block size: xz's 6-byte signature was missed with 4- and 5-byte
 * blocks, which then said "found 1 column" (fuzz/corpus/csv/regress_xz_signature_tiny_block, found by fuzz_csv) */
static void compressed_file_named_at_any_block_size(void **state)
{
    (void)state;
    static const char text[] = "\xFD" "7zXZ" "\0" "rest of an xz stream,1,2\n";   /* FD 37 7A 58 5A 00 */
    size_t saved = hy_csv_block;
    for (size_t block = 1; block <= 12; block++) {
        hy_series s;
        hy_err err;
        hy_csv_block = block;
        int rc = hy_csv_read(csv_file(text, sizeof text - 1), NULL, &s, &err);
        hy_csv_block = saved;
        assert_int_equal(rc, HY_EPARSE);
        assert_non_null(strstr(err.msg, "found a xz-compressed file"));
    }
}

static void long_header_refused(void **state)
{
    (void)state;
    size_t len;
    hy_series s;
    hy_err err;
    char *row = long_row(2 * HY_CSV_MAX_HEADER_BYTES, &len);
    char *text = malloc(len + 64);
    memcpy(text, row, len);
    strcpy(text + len, "1,2\n3,4\n5,6\n");
    assert_int_equal(hy_csv_read(csv_file(text, 0), NULL, &s, &err), HY_EPARSE);
    assert_prefix(short_msg(&err), "in.csv:1:1: found a first row (header) longer than 1048576 bytes (1 MiB)");
    /* the units row (line 2, after a comment line) */
    sprintf(text, "x,y\n# units next\n");
    memcpy(text + strlen(text), row, len + 1);
    strcat(text, "1,2\n");
    assert_int_equal(hy_csv_read(csv_file(text, 0), NULL, &s, &err), HY_EPARSE);
    assert_prefix(short_msg(&err), "in.csv:3:1: found a second row (units) longer than 1048576 bytes");
    free(text);
    free(row);
    /* a header spread over many physical lines by a quoted cell counts as one row */
    size_t cap = HY_CSV_MAX_HEADER_BYTES + 4096, n = 0;
    text = malloc(cap + 64);
    n += (size_t)sprintf(text, "\"x");
    while (n < cap)
        n += (size_t)sprintf(text + n, "\nxxxxxxx");
    n += (size_t)sprintf(text + n, "\",y\n1,2\n");
    assert_int_equal(hy_csv_read(csv_file(text, n), NULL, &s, &err), HY_EPARSE);
    assert_prefix(short_msg(&err), "in.csv:1:1: found a first row (header) longer than");
    free(text);
}

/* just below the limit a header is read, and a long data row later streams as before */
static void long_rows_below_limit(void **state)
{
    (void)state;
    size_t len;
    char *row = long_row(HY_CSV_MAX_HEADER_BYTES - 4096, &len);
    char *text = malloc(len + 64);
    memcpy(text, "x,y,", 4);
    memcpy(text + 4, row, len + 1);
    strcat(text, "1,2\n3,4\n");
    hy_series s;
    hy_err err;
    if (hy_csv_read(csv_file(text, 0), NULL, &s, &err) != HY_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.q_name, "x");
    hy_series_free(&s);
    free(text);
    free(row);
    row = long_row(3 * HY_CSV_MAX_HEADER_BYTES, &len);
    text = malloc(len + 64);
    strcpy(text, "x,y\n1,2\n3,4,");
    memcpy(text + strlen(text), row, len + 1);
    strcat(text, "5,6\n");
    if (hy_csv_read(csv_file(text, 0), NULL, &s, &err) != HY_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(s.n, 3);
    hy_series_free(&s);
    free(text);
    free(row);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lone_cr_line_numbers),
        cmocka_unit_test(lone_cr_file_is_read),
        cmocka_unit_test(cr_at_block_boundary),
        cmocka_unit_test(long_header_refused),
        cmocka_unit_test(small_blocks_read_like_large_ones),
        cmocka_unit_test(compressed_file_named_at_any_block_size),
        cmocka_unit_test(long_rows_below_limit),
    };
    return cmocka_run_group_tests(tests, csv_setup, csv_teardown);
}

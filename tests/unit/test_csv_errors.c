// Every malformed input fails with "FILE:LINE:COLUMN: found ..., expected ..." and keeps nothing.
#include "test_csv_util.h"

/* Reads `text`, expects `code` and a message starting with `prefix` (after the scratch directory), and checks
 * that nothing was kept. */
static void expect_error(const char *text, const hy_csv_opts *o, int code, const char *prefix)
{
    hy_series s;
    memset(&s, 0x5a, sizeof s); /* garbage in: must come back empty */
    hy_err err;
    int rc = csv_read_text(text, o, &s, &err);
    if (rc != code)
        fail_msg("expected code %d, got %d (%s)", code, rc, rc ? err.msg : "success");
    assert_int_equal(err.code, code);
    assert_prefix(short_msg(&err), prefix);
    assert_null(strchr(err.msg, '\n'));
    assert_int_equal(s.n, 0);
    assert_null(s.q);
    assert_null(s.Q);
    assert_null(s.t);
    assert_null(s.line);
}

static void non_numeric_cell(void **state)
{
    (void)state;
    expect_error("x,y\n1,2\n3,abc\n", NULL, HY_EPARSE,
                 "in.csv:3:2: found 'abc', expected a number for the force (y) column 'y'");
    expect_error("1,2\n3,4kN\n", NULL, HY_EPARSE, "in.csv:2:2: found '4kN', expected a number for the force (y) column");
    expect_error("x,y\n1,2\n\"3\",\"1,5\"\n", NULL, HY_EPARSE, "in.csv:3:2: found '1,5', expected a number");
    expect_error("x,y\n1,\n", NULL, HY_EPARSE, "in.csv:2:2: found an empty cell, expected a number");
    /* control bytes are shown as '?' and long cells are cut */
    expect_error("x,y\n1,a\001b\n", NULL, HY_EPARSE, "in.csv:2:2: found 'a?b', expected a number");
    hy_series s;
    hy_err err;
    static const char nul_in_first_row[] = "x,y\n1,2\0\n3,4\n"; /* the row after the header is kept whole */
    assert_int_equal(hy_csv_read(csv_file(nul_in_first_row, sizeof nul_in_first_row - 1), NULL, &s, &err), HY_EPARSE);
    assert_prefix(short_msg(&err), "in.csv:2:2: found '2?', expected a number");
    static const char nul_later[] = "x,y\n1,2\n3,4\0\n";
    assert_int_equal(hy_csv_read(csv_file(nul_later, sizeof nul_later - 1), NULL, &s, &err), HY_EPARSE);
    assert_prefix(short_msg(&err), "in.csv:3:2: found '4?', expected a number");
    expect_error("x,y\n1,aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", NULL, HY_EPARSE,
                 "in.csv:2:2: found 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...', expected a number");
}

static void nan_and_inf(void **state)
{
    (void)state;
    expect_error("x,y\n1,NaN\n", NULL, HY_EPARSE,
                 "in.csv:2:2: found 'NaN', expected a finite number for the force (y) column 'y' (NaN and infinity");
    expect_error("x,y\n1,2\n-inf,2\n", NULL, HY_EPARSE, "in.csv:3:1: found '-inf', expected a finite number");
    expect_error("x,y\n1e999,2\n", NULL, HY_EPARSE, "in.csv:2:1: found '1e999', expected a finite number");
    /* the first row holding nan is data with a bad cell, not a header */
    expect_error("nan,1\n2,3\n", NULL, HY_EPARSE, "in.csv:1:1: found 'nan', expected a finite number");
}

/* Finite values too large for the analyses (energies and slopes multiply two of them): refused with line, column
 * and the range that works; with a scale factor the message shows the value, the factor and their product. */
static void values_beyond_the_working_range(void **state)
{
    (void)state;
    expect_error("q,Q\n1,2\n3,1.7e308\n", NULL, HY_EDATA,
                 "in.csv:3:2: found 1.7e+308, expected a magnitude of at most 1e+60 for the force (y) column 'Q' "
                 "(larger values overflow the loop energies and slopes; rescale it with --y-scale)");
    expect_error("q,Q\n1,2\n-1e200,2\n", NULL, HY_EDATA, "in.csv:3:1: found -1e+200, expected a magnitude of at most 1e+60");
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.x_scale = 1e308;
    expect_error("q,Q\n0,2\n19,5\n", &o, HY_EDATA,
                 "in.csv:3:1: found 19 x --x-scale 1e+308 = inf, expected a magnitude of at most 1e+60 for the "
                 "displacement (x) column 'q' (larger values overflow the loop energies and slopes; choose a smaller "
                 "--x-scale)");
    /* up to the limit: read */
    hy_series s;
    hy_err err;
    assert_int_equal(csv_read_text("q,Q\n1e60,-1e60\n-1e-300,0\n", NULL, &s, &err), HY_OK);
    assert_int_equal(s.n, 2);
    hy_series_free(&s);
    /* --skip-bad-rows skips such a row like any bad row */
    o.x_scale = 1.0;
    o.skip_bad_rows = 1;
    assert_int_equal(csv_read_text("q,Q\n1,2\n3,4e99\n5,6\n", &o, &s, &err), HY_OK);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.skipped_rows, 1);
    hy_series_free(&s);
}

static void short_row(void **state)
{
    (void)state;
    expect_error("x,y\n1,2\n3\n", NULL, HY_EPARSE,
                 "in.csv:3:2: found 1 cell, expected at least 2 (the force (y) column 'y' is missing)");
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.t_col = "4";
    expect_error("1,2,3,4\n1,2,3\n", &o, HY_EPARSE, "in.csv:2:4: found 3 cells, expected at least 4 (the time (t)");
}

static void empty_file(void **state)
{
    (void)state;
    expect_error("", NULL, HY_EDATA, "in.csv:1:1: found the end of the file, expected rows of numbers");
    expect_error("\n\n# only comments\n", NULL, HY_EDATA, "in.csv:4:1: found the end of the file, expected rows");
    expect_error("Lead Actuator Force ,Lead Actuator Displacment \nkN,mm\n", NULL, HY_EDATA,
                 "in.csv:3:1: found the end of the file, expected rows of numbers (the file has no data rows)");
    expect_error("\xEF\xBB\xBF", NULL, HY_EDATA, "in.csv:1:1: found the end of the file");
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.skip_bad_rows = 1;
    expect_error("x,y\na,1\n2,b\n", &o, HY_EDATA,
                 "in.csv:4:1: found no usable data rows (all 2 were skipped), expected at least one");
}

static void missing_column_name(void **state)
{
    (void)state;
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.x_col = "stroke";
    expect_error("Lead Actuator Force ,Lead Actuator Displacment \nkN,mm\n1,2\n", &o, HY_EDATA,
                 "in.csv:1:1: found no column named 'stroke' for the displacement (x), expected one of: "
                 "'Lead Actuator Force', 'Lead Actuator Displacment'");
    o.skip_bad_rows = 1; /* structural: still an error */
    expect_error("a,b\n1,2\n", &o, HY_EDATA, "in.csv:1:1: found no column named 'stroke'");
    hy_csv_opts_default(&o);
    o.y_col = "force";
    expect_error("1,2\n", &o, HY_EDATA, "in.csv:1:1: found no header row, expected one to find the column named 'force'");
    o.header = 0;
    expect_error("disp,force\n1,2\n", &o, HY_EDATA, "in.csv:1:1: found no header row");
    hy_csv_opts_default(&o);
    o.x_col = "5";
    expect_error("a,b\n1,2\n", &o, HY_EDATA, "in.csv:1:2: found 2 columns in the header, expected a column 5");
    expect_error("1,2\n", &o, HY_EDATA, "in.csv:1:2: found 2 columns in the first row, expected a column 5");
    o.x_col = "0";
    expect_error("1,2\n", &o, HY_EARG, "in.csv: column index 0 for the displacement (x)");
    hy_csv_opts_default(&o);
    expect_error("1\n2\n", &o, HY_EDATA, "in.csv:1:1: found 1 column, expected at least 2 (displacement and force)");
    o.x_col = "2";
    o.y_col = "b";
    expect_error("a,b\n1,2\n", &o, HY_EARG,
                 "in.csv:1:2: the displacement (x) and the force (y) are both column 2, expected different columns");
}

static void duplicate_names(void **state)
{
    (void)state;
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.y_col = "force";
    expect_error("Force,Disp,FORCE\n1,2,3\n", &o, HY_EDATA,
                 "in.csv:1:3: found 2 columns named 'Force' (columns 1 and 3), expected one: duplicate column names; "
                 "choose the force (y) column by index (--y 1)");
    hy_csv_opts_default(&o); /* detected y is duplicated */
    expect_error("Force,Disp,Force\n1,2,3\n", &o, HY_EDATA,
                 "in.csv:1:3: found the column name 'Force' twice (columns 1 and 3), expected unique names to detect "
                 "the force (y) column; choose one by index (--y 1)");
    /* a duplicate that is not selected is no error */
    hy_series s;
    hy_err err;
    assert_int_equal(csv_read_text("Disp,Force,Note,Note\n1,2,a,b\n", &o, &s, &err), HY_OK);
    assert_true(s.q[0] == 1 && s.Q[0] == 2);
    hy_series_free(&s);
}

static void units_rows(void **state)
{
    (void)state;
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.units_row = 1;
    expect_error("x,y\n0.02,0.00\n", &o, HY_EPARSE,
                 "in.csv:2:1: found '0.02', expected a unit such as 'kN' or 'mm' (a units row was requested");
    expect_error("x,y\nkN,this is not a unit at all\n1,2\n", &o, HY_EPARSE,
                 "in.csv:2:2: found 'this is not a unit at all', expected a unit");
    expect_error("x,y\n,\n1,2\n", &o, HY_EPARSE, "in.csv:3:1: found '1', expected a unit"); /* ",": blank */
    o.units_row = 0;
    expect_error("Lead Actuator Force ,Lead Actuator Displacment \nkN,mm\n0.02,0.00\n", &o, HY_EPARSE,
                 "in.csv:2:1: found a units row where a data row was expected (the units row is turned off");
    hy_csv_opts_default(&o);
    o.header = 0;
    expect_error("kN,mm\n0.02,0.00\n", &o, HY_EPARSE,
                 "in.csv:1:1: found a units row where a data row was expected (the file is read without a header");
    expect_error("Displacement,Force\n1,2\n", &o, HY_EPARSE,
                 "in.csv:1:1: found 'Displacement', expected a number for the displacement (x) column; this row looks "
                 "like a header");
    /* a units-like row later in the file is just a bad data row */
    hy_csv_opts_default(&o);
    expect_error("x,y\nmm,kN\n1,2\nmm,kN\n", &o, HY_EPARSE, "in.csv:4:1: found 'mm', expected a number");
}

static void time_backwards(void **state)
{
    (void)state;
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.t_col = "t";
    expect_error("t,x,y\n0,1,2\n1,1,2\n0.5,1,2\n", &o, HY_EDATA,
                 "in.csv:4:1: found time 0.5 after 1 on line 3, expected time that does not go backwards");
    o.t_col = "3";
    expect_error("x,y,time\n# comment\n1,2,10\n1,2,9.75\n", &o, HY_EDATA, "in.csv:4:3: found time 9.75 after 10 on line 3");
}

static void unopenable_and_unreadable(void **state)
{
    (void)state;
    hy_series s;
    hy_err err;
    assert_int_equal(hy_csv_read("/nonexistent/dir/x.csv", NULL, &s, &err), HY_EIO);
    assert_string_equal(err.msg, "/nonexistent/dir/x.csv: cannot open: No such file or directory");
    assert_int_equal(s.n, 0);
    assert_int_equal(hy_csv_read(csv_dir, NULL, &s, &err), HY_EIO);
    assert_non_null(strstr(err.msg, "cannot read: Is a directory"));
    assert_int_equal(hy_csv_read("", NULL, &s, &err), HY_EARG);
}

static void malformed_text(void **state)
{
    (void)state;
    expect_error("x,y\n1,\"2\n3,4\n", NULL, HY_EPARSE,
                 "in.csv:2:2: found a quoted field that is never closed (the file ends inside it), expected a closing");
    expect_error("x,y\n1,\"2", NULL, HY_EPARSE, "in.csv:2:2: found a quoted field that is never closed");
    expect_error("\xFF\xFEx\0,\0y\0\n\0", NULL, HY_EPARSE, "in.csv:1:1: found a UTF-16 byte-order mark, expected UTF-8");
}

static void bad_options(void **state)
{
    (void)state;
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.x_scale = 0;
    expect_error("1,2\n", &o, HY_EARG, "in.csv: the scale factors must be finite and non-zero");
    hy_csv_opts_default(&o);
    o.y_scale = 1.0 / 0.0;
    expect_error("1,2\n", &o, HY_EARG, "in.csv: the scale factors must be finite and non-zero");
    hy_csv_opts_default(&o);
    o.delimiter = '|';
    expect_error("1,2\n", &o, HY_EARG, "in.csv: the separator must be ',', ';' or a tab");
}

/* An error deep in a large file names the right line. */
static void error_line_after_many_rows(void **state)
{
    (void)state;
    size_t n = 120000, cap = n * 16 + 64, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    len += (size_t)sprintf(text + len, "q,Q\n");
    for (size_t i = 0; i < n; i++)
        len += (size_t)sprintf(text + len, "%zu.5,-%zu\n", i, i);
    len += (size_t)sprintf(text + len, "1,2,3\n7,x\n");
    char want[64];
    snprintf(want, sizeof want, "in.csv:%zu:2: found 'x', expected a number", n + 3);
    expect_error(text, NULL, HY_EPARSE, want);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(non_numeric_cell),
        cmocka_unit_test(nan_and_inf),
        cmocka_unit_test(values_beyond_the_working_range),
        cmocka_unit_test(short_row),
        cmocka_unit_test(empty_file),
        cmocka_unit_test(missing_column_name),
        cmocka_unit_test(duplicate_names),
        cmocka_unit_test(units_rows),
        cmocka_unit_test(time_backwards),
        cmocka_unit_test(unopenable_and_unreadable),
        cmocka_unit_test(malformed_text),
        cmocka_unit_test(bad_options),
        cmocka_unit_test(error_line_after_many_rows),
    };
    return cmocka_run_group_tests(tests, csv_setup, csv_teardown);
}

// Reading bench-test CSV files: layouts engineers actually have (hy_csv_read) and the series container.
#include <math.h>
#include "test_csv_util.h"

static void read_ok(const char *text, const hy_csv_opts *o, hy_series *s)
{
    hy_err err;
    int rc = csv_read_text(text, o, s, &err);
    if (rc != HY_OK)
        fail_msg("expected success, got %d: %s", rc, err.msg);
}

static void plain_two_columns(void **state)
{
    (void)state;
    hy_series s;
    read_ok("1,2\n3,4.5\n-6e-1,7\n", NULL, &s);
    assert_int_equal(s.n, 3);
    assert_null(s.t);
    assert_true(s.q[0] == 1 && s.q[1] == 3 && s.q[2] == -0.6);
    assert_true(s.Q[0] == 2 && s.Q[1] == 4.5 && s.Q[2] == 7);
    assert_int_equal(s.line[0], 1);
    assert_int_equal(s.line[2], 3);
    assert_string_equal(s.q_name, "");
    assert_string_equal(s.q_unit, "");
    assert_int_equal(s.skipped_rows, 0);
    assert_non_null(strstr(s.source, "in.csv"));
    hy_series_free(&s);
}

/* A displacement history (no_force): one column is enough; a force column is used only when named. */
static void displacement_history_without_force(void **state)
{
    (void)state;
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.no_force = 1;
    hy_series s;
    read_ok("q\n0\n1.5\n-2\n", &o, &s);
    assert_int_equal(s.n, 3);
    assert_true(s.q[1] == 1.5 && s.q[2] == -2);
    assert_true(s.Q[0] == 0 && s.Q[1] == 0 && s.Q[2] == 0);
    assert_string_equal(s.Q_name, "");
    hy_series_free(&s);
    o.t_col = "time";
    read_ok("time;angle;torque\n0;0,1;junk\n1;0,2;junk\n", &o, &s); /* other columns are not read */
    assert_true(s.t[1] == 1 && s.q[0] == 0.1 && s.q[1] == 0.2 && s.Q[1] == 0);
    hy_series_free(&s);
    o.t_col = NULL;
    o.y_col = "2";
    read_ok("0,5\n1,6\n", &o, &s);
    assert_true(s.Q[1] == 6);
    hy_series_free(&s);
    hy_csv_opts_default(&o); /* without no_force one column is an error */
    hy_err err;
    assert_int_not_equal(csv_read_text("q\n0\n1\n", &o, &s, &err), HY_OK);
    assert_non_null(strstr(err.msg, "expected at least 2"));
}

/* The layout of fixtures/real/SPC1.csv: names with trailing spaces and a misspelling, a units row, force first. */
static void header_units_force_first(void **state)
{
    (void)state;
    hy_series s;
    read_ok("Lead Actuator Force ,Lead Actuator Displacment \nkN,mm\n0.02,0.00\n4.46,3.58\n", NULL, &s);
    assert_int_equal(s.n, 2);
    assert_true(s.q[0] == 0.0 && s.q[1] == 3.58);
    assert_true(s.Q[0] == 0.02 && s.Q[1] == 4.46);
    assert_string_equal(s.q_name, "Lead Actuator Displacment");
    assert_string_equal(s.Q_name, "Lead Actuator Force");
    assert_string_equal(s.q_unit, "mm");
    assert_string_equal(s.Q_unit, "kN");
    assert_int_equal(s.line[0], 3);
    assert_int_equal(s.line[1], 4);
    hy_series_free(&s);
}

static void detection_by_names(void **state)
{
    (void)state;
    hy_series s;
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    /* time is never taken for x or y by the defaults; the names decide q and Q */
    read_ok("Time,Torque,Rotation\n0,10,0.1\n", &o, &s);
    assert_true(s.q[0] == 0.1 && s.Q[0] == 10);
    hy_series_free(&s);
    read_ok("Time [s],A,B\n0,1,2\n", &o, &s);
    assert_true(s.q[0] == 1 && s.Q[0] == 2);
    hy_series_free(&s);
    read_ok("Q,q\n5,6\n", &o, &s); /* the spec's letters: q displacement, Q force */
    assert_true(s.q[0] == 6 && s.Q[0] == 5);
    hy_series_free(&s);
    read_ok("y,x\n5,6\n", &o, &s);
    assert_true(s.q[0] == 6 && s.Q[0] == 5);
    hy_series_free(&s);
    read_ok("Load (kN),Stroke (mm)\n5,6\n", &o, &s);
    assert_true(s.q[0] == 6 && s.Q[0] == 5);
    assert_string_equal(s.q_unit, "mm"); /* unit from the bracket in the name */
    assert_string_equal(s.Q_unit, "kN");
    hy_series_free(&s);
    /* only the force is recognised: x takes the first free column */
    read_ok("Moment,Something\n5,6\n", &o, &s);
    assert_true(s.q[0] == 6 && s.Q[0] == 5);
    hy_series_free(&s);
    /* two displacement-like columns: the first is used, with a warning */
    warnings w = {0};
    o.warn = collect_warning;
    o.warn_ctx = &w;
    read_ok("Disp LVDT,Disp actuator,Force\n1,2,3\n", &o, &s);
    assert_true(s.q[0] == 1 && s.Q[0] == 3);
    assert_int_equal(w.count, 1);
    assert_contains(w.first, "both look like the displacement");
    hy_series_free(&s);
}

static void columns_by_index_and_name(void **state)
{
    (void)state;
    hy_series s;
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.x_col = "3";
    o.y_col = "1";
    read_ok("a,b,c\n1,2,3\n", &o, &s);
    assert_true(s.q[0] == 3 && s.Q[0] == 1);
    assert_string_equal(s.q_name, "c");
    hy_series_free(&s);
    o.x_col = " B "; /* case and surrounding spaces do not matter */
    o.y_col = "C";
    read_ok("a,b,c\n1,2,3\n", &o, &s);
    assert_true(s.q[0] == 2 && s.Q[0] == 3);
    hy_series_free(&s);
    o.x_col = "disp"; /* matches "Disp [mm]" without its unit */
    o.y_col = "force";
    read_ok("Force [kN],Disp [mm]\n1,2\n", &o, &s);
    assert_true(s.q[0] == 2 && s.Q[0] == 1);
    assert_string_equal(s.q_unit, "mm");
    hy_series_free(&s);
    /* by index without a header; duplicated names are fine when chosen by index */
    o.x_col = "2";
    o.y_col = "4";
    read_ok("Force,Disp,Note,Force\n1,2,x,4\n", &o, &s);
    assert_true(s.q[0] == 2 && s.Q[0] == 4);
    hy_series_free(&s);
    o.x_col = "2";
    o.y_col = NULL; /* y: first free column */
    read_ok("10,20,30\n", &o, &s);
    assert_true(s.q[0] == 20 && s.Q[0] == 10);
    hy_series_free(&s);
}

static void separators_and_decimal_comma(void **state)
{
    (void)state;
    hy_series s;
    read_ok("Weg;Kraft\n1,5;2,25\n-3,0;4\n", NULL, &s);
    assert_int_equal(s.n, 2);
    assert_true(s.q[0] == 1.5 && s.Q[0] == 2.25 && s.q[1] == -3.0 && s.Q[1] == 4);
    hy_series_free(&s);
    read_ok("disp\tforce\n1.5\t2\n3\t-4e3\n", NULL, &s);
    assert_true(s.q[1] == 3 && s.Q[1] == -4000);
    assert_string_equal(s.Q_name, "force");
    hy_series_free(&s);
    read_ok("1,5\t2,5\n", NULL, &s); /* tab with decimal comma */
    assert_true(s.q[0] == 1.5 && s.Q[0] == 2.5);
    hy_series_free(&s);
    read_ok("1,5,2\n3,6,4\n", NULL, &s); /* with ',' as separator a comma is never a decimal mark */
    assert_true(s.q[0] == 1 && s.Q[0] == 5);
    hy_series_free(&s);
    read_ok("1;2\n3;4\n", NULL, &s);
    assert_true(s.q[1] == 3 && s.Q[1] == 4);
    hy_series_free(&s);
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.delimiter = ';'; /* forced: "1,5;2" is then 1.5 and 2 */
    read_ok("1,5;2\n", &o, &s);
    assert_true(s.q[0] == 1.5 && s.Q[0] == 2);
    hy_series_free(&s);
}

static void quotes_crlf_bom_comments(void **state)
{
    (void)state;
    hy_series s;
    read_ok("\"Force, kN\",\"Disp, mm\"\n\"1.5\",\" 2.5 \"\n", NULL, &s);
    assert_true(s.q[0] == 2.5 && s.Q[0] == 1.5);
    assert_string_equal(s.q_name, "Disp, mm");
    hy_series_free(&s);
    read_ok("x,y\r\n1,2\r\n3,4\r\n", NULL, &s);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.line[1], 3);
    assert_true(s.Q[1] == 4);
    hy_series_free(&s);
    read_ok("\xEF\xBB\xBF" "disp,force\n1,2\n", NULL, &s);
    assert_string_equal(s.q_name, "disp");
    assert_int_equal(s.n, 1);
    hy_series_free(&s);
    read_ok("# rig 3, specimen \"A\n\n  # operator: J. \"Doe\nx,y\n\n1,2\n# pause\n   \n3,4\n\n", NULL, &s);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.line[0], 6);
    assert_int_equal(s.line[1], 9);
    hy_series_free(&s);
    read_ok("\"Disp\nmm\",Force\n1,2\n3,4", NULL, &s); /* a quoted newline in the header; no final newline */
    assert_int_equal(s.n, 2);
    assert_int_equal(s.line[0], 3);
    assert_int_equal(s.line[1], 4);
    assert_true(s.q[1] == 3 && s.Q[1] == 4);
    hy_series_free(&s);
    read_ok(",,\nx,y\n,\n1,2\n , \n\"\",\n3,4\n,,,\n", NULL, &s); /* rows of empty cells are blank lines */
    assert_int_equal(s.n, 2);
    assert_string_equal(s.q_name, "x");
    assert_int_equal(s.line[1], 7);
    hy_series_free(&s);
    read_ok("x,y\n1,2,extra,cells\n3,4\n", NULL, &s); /* cells beyond the kept columns are ignored */
    assert_int_equal(s.n, 2);
    hy_series_free(&s);
}

static void units_row_variants(void **state)
{
    (void)state;
    hy_series s;
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    read_ok("x,y\n[mm],(N)\n1,2\n", &o, &s);
    assert_string_equal(s.q_unit, "mm");
    assert_string_equal(s.Q_unit, "N");
    hy_series_free(&s);
    read_ok("t,x,y\ns,,kN\n0,1,2\n", &o, &s); /* an empty units cell is allowed */
    assert_string_equal(s.q_unit, "");
    assert_string_equal(s.Q_unit, "kN");
    hy_series_free(&s);
    /* "1" and "-": dimensionless columns (mech dock's contact flags) in a units row with letters */
    read_ok("t,flag,x,y\ns,1,m,N\n0,1,2,3\n1,0,3,4\n", &o, &s);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.q_unit, "m");
    assert_string_equal(s.Q_unit, "N");
    hy_series_free(&s);
    read_ok("x,y,n\nm,N,-\n2,3,1\n", &o, &s);
    assert_int_equal(s.n, 1);
    assert_string_equal(s.q_unit, "m");
    hy_series_free(&s);
    read_ok("x,y\n1,1\n2,3\n", &o, &s); /* a row of ones without a letter unit is data */
    assert_int_equal(s.n, 2);
    hy_series_free(&s);
    o.units_row = 1;
    read_ok("rot,torque\ndeg,N m\n1,2\n", &o, &s);
    assert_string_equal(s.q_unit, "deg");
    assert_string_equal(s.Q_unit, "N m");
    hy_series_free(&s);
    o.header = 0; /* no header but a units row first */
    read_ok("mm,kN\n1,2\n", &o, &s);
    assert_string_equal(s.q_unit, "mm");
    assert_int_equal(s.n, 1);
    hy_series_free(&s);
    hy_csv_opts_default(&o);
    o.header = 1; /* forced header: even a numeric first row is names */
    read_ok("1,2\n3,4\n", &o, &s);
    assert_int_equal(s.n, 1);
    assert_string_equal(s.q_name, "1");
    hy_series_free(&s);
}

static void scales_and_time(void **state)
{
    (void)state;
    hy_series s;
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.x_scale = 1000;
    o.y_scale = -2;
    read_ok("x,y\n0.5,3\n", &o, &s);
    assert_true(s.q[0] == 500 && s.Q[0] == -6);
    hy_series_free(&s);
    hy_csv_opts_default(&o);
    o.t_col = "time";
    read_ok("time,disp,force\n0,1,2\n0.1,2,3\n0.1,3,4\n0.25,4,5\n", &o, &s);
    assert_int_equal(s.n, 4);
    assert_non_null(s.t);
    assert_true(s.t[0] == 0 && s.t[1] == 0.1 && s.t[2] == 0.1 && s.t[3] == 0.25); /* equal times are fine */
    assert_true(s.q[3] == 4 && s.Q[3] == 5);
    assert_string_equal(s.t_name, "time");
    hy_series_free(&s);
    o.t_col = "1";
    o.require_time_increasing = 0;
    read_ok("0,1,2\n-1,2,3\n", &o, &s);
    assert_true(s.t[1] == -1);
    assert_true(s.q[0] == 1 && s.Q[0] == 2); /* t took column 1: x and y the next free ones */
    hy_series_free(&s);
}

static void skip_bad_rows_counts_warnings(void **state)
{
    (void)state;
    hy_series s;
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    warnings w = {0};
    o.warn = collect_warning;
    o.warn_ctx = &w;
    o.skip_bad_rows = 1;
    read_ok("x,y\n1,2\nabc,3\n4,nan\n5\n6,7\n", &o, &s);
    assert_int_equal(s.n, 2);
    assert_true(s.q[1] == 6 && s.Q[1] == 7);
    assert_int_equal(s.line[1], 6);
    assert_int_equal(s.skipped_rows, 3);
    assert_int_equal(w.count, 3);
    assert_contains(w.first, "in.csv:3:1: skipped row: found 'abc', expected a number");
    assert_contains(w.last, "in.csv:5:2: skipped row: found 1 cell, expected at least 2");
    hy_series_free(&s);
    /* time going backwards is a row error too: that row goes, the next one compares with the last kept */
    hy_csv_opts_default(&o);
    o.skip_bad_rows = 1;
    o.t_col = "t";
    read_ok("t,x,y\n0,1,1\n2,2,2\n1,3,3\n3,4,4\n", &o, &s);
    assert_int_equal(s.n, 3);
    assert_true(s.t[2] == 3);
    assert_int_equal(s.skipped_rows, 1);
    hy_series_free(&s);
}

/* A file larger than the 1 MiB read block: rows and a 2 MiB comment line straddle block boundaries. */
static void many_rows_across_blocks(void **state)
{
    (void)state;
    char path[600];
    snprintf(path, sizeof path, "%s/big.csv", csv_dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fprintf(fp, "disp,force\n");
    const int n = 150000;
    for (int i = 0; i < n; i++) {
        if (i == 70000) { /* line 70002: a comment longer than the block */
            fputc('#', fp);
            for (int k = 0; k < (2 << 20); k++)
                fputc('c', fp);
            fputc('\n', fp);
        }
        fprintf(fp, "%d.%03d,%d\r\n", i, i % 1000, -i);
    }
    fclose(fp);
    hy_series s;
    hy_err err;
    assert_int_equal(hy_csv_read(path, NULL, &s, &err), HY_OK);
    assert_int_equal(s.n, (size_t)n);
    for (int i = 0; i < n; i += 997) {
        char want[32];
        snprintf(want, sizeof want, "%d.%03d", i, i % 1000);
        assert_true(s.q[i] == strtod(want, NULL));
        assert_true(s.Q[i] == -i);
        assert_int_equal(s.line[i], (size_t)(i + 2 + (i >= 70000)));
    }
    assert_int_equal(s.line[n - 1], (size_t)(n + 2));
    hy_series_free(&s);
}

static void series_push_and_grow(void **state)
{
    (void)state;
    hy_series s;
    hy_series_init(&s);
    hy_err err;
    for (int i = 0; i < 5000; i++)
        assert_int_equal(hy_series_push(&s, 1, 0.5 * i, i, -i, (size_t)i + 10, &err), HY_OK);
    assert_int_equal(s.n, 5000);
    assert_true(s.cap >= 5000);
    assert_true(s.t[4999] == 2499.5 && s.q[4999] == 4999 && s.Q[4999] == -4999);
    assert_int_equal(s.line[123], 133);
    /* mixing samples with and without time is refused */
    assert_int_equal(hy_series_push(&s, 0, 0, 1, 1, 1, &err), HY_EARG);
    assert_int_equal(s.n, 5000);
    hy_series_free(&s);
    assert_int_equal(s.n, 0);
    assert_null(s.q);
    assert_int_equal(hy_series_push(&s, 0, 0, 1, 2, 1, &err), HY_OK);
    assert_null(s.t);
    assert_int_equal(hy_series_push(&s, 1, 0, 1, 2, 1, &err), HY_EARG);
    hy_series_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plain_two_columns),
        cmocka_unit_test(displacement_history_without_force),
        cmocka_unit_test(header_units_force_first),
        cmocka_unit_test(detection_by_names),
        cmocka_unit_test(columns_by_index_and_name),
        cmocka_unit_test(separators_and_decimal_comma),
        cmocka_unit_test(quotes_crlf_bom_comments),
        cmocka_unit_test(units_row_variants),
        cmocka_unit_test(scales_and_time),
        cmocka_unit_test(skip_bad_rows_counts_warnings),
        cmocka_unit_test(many_rows_across_blocks),
        cmocka_unit_test(series_push_and_grow),
    };
    return cmocka_run_group_tests(tests, csv_setup, csv_teardown);
}

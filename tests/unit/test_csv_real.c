/* The real bench records of fixtures/real read with the defaults (detection only), compared value by value with
 * an independent line-by-line reading (fgets + strtod), and their total energy with the figures of
 * fixtures/real/CREDITS.md. */
#include <math.h>
#include "test_csv_util.h"

/* Independent reference: skips `skip` lines, then reads "a,b" pairs with strtod. */
static size_t reference_pairs(const char *path, int skip, double *a, double *b, size_t max)
{
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    char line[256];
    size_t n = 0;
    for (int i = 0; i < skip; i++)
        assert_non_null(fgets(line, sizeof line, fp));
    while (fgets(line, sizeof line, fp) && n < max) {
        char *end;
        a[n] = strtod(line, &end);
        assert_true(*end == ',');
        b[n] = strtod(end + 1, &end);
        assert_true(*end == '\n' || *end == '\r' || *end == '\0');
        n++;
    }
    fclose(fp);
    return n;
}

/* Total dissipated energy as the trapezoid integral of Q dq along the whole record (open path). */
static double trapezoid_energy(const hy_series *s)
{
    double e = 0;
    for (size_t i = 1; i < s->n; i++)
        e += 0.5 * (s->Q[i] + s->Q[i - 1]) * (s->q[i] - s->q[i - 1]);
    return e;
}

static void spc1(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/SPC1.csv", real_dir());
    hy_series s;
    hy_err err;
    if (hy_csv_read(path, NULL, &s, &err) != HY_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(s.n, 33028);
    assert_string_equal(s.q_name, "Lead Actuator Displacment");
    assert_string_equal(s.Q_name, "Lead Actuator Force");
    assert_string_equal(s.q_unit, "mm");
    assert_string_equal(s.Q_unit, "kN");
    /* first data row "0.02,0.00" (line 3), last "4.44,3.80" (line 33030): force is column 1 */
    assert_true(s.q[0] == 0.0 && s.Q[0] == 0.02);
    assert_true(s.q[s.n - 1] == 3.80 && s.Q[s.n - 1] == 4.44);
    assert_int_equal(s.line[0], 3);
    assert_int_equal(s.line[s.n - 1], 33030);
    double *force = malloc(40000 * sizeof *force), *disp = malloc(40000 * sizeof *disp);
    assert_int_equal(reference_pairs(path, 2, force, disp, 40000), 33028);
    double qmin = 0, qmax = 0;
    for (size_t i = 0; i < s.n; i++) {
        if (s.q[i] != disp[i] || s.Q[i] != force[i])
            fail_msg("sample %zu: read (%.17g, %.17g), reference (%.17g, %.17g)", i, s.q[i], s.Q[i], disp[i], force[i]);
        qmin = fmin(qmin, s.q[i]);
        qmax = fmax(qmax, s.q[i]);
    }
    assert_true(qmax > 80 && qmax < 90 && qmin < -80 && qmin > -90); /* "up to about +-85 mm" */
    assert_true(fabs(trapezoid_energy(&s) - 28035.90) < 0.01);       /* CREDITS.md: 28035.90 kN mm */
    hy_series_free(&s);

    /* the same record in N and m: scales multiply */
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.x_scale = 1e-3;
    o.y_scale = 1e3;
    assert_int_equal(hy_csv_read(path, &o, &s, &err), HY_OK);
    assert_true(s.q[s.n - 1] == 3.80 * 1e-3 && s.Q[s.n - 1] == 4.44 * 1e3);
    assert_true(fabs(trapezoid_energy(&s) - 28035.90) < 0.01);
    hy_series_free(&s);
    free(force);
    free(disp);
}

static void hys1(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/Hys1.csv", real_dir());
    hy_series s;
    hy_err err;
    if (hy_csv_read(path, NULL, &s, &err) != HY_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(s.n, 290);
    assert_string_equal(s.q_name, "");
    assert_string_equal(s.q_unit, "");
    assert_true(s.q[0] == 0 && s.Q[0] == 0);
    assert_true(s.q[1] == 1.959646213 && s.Q[1] == 99.5734127);
    assert_true(s.q[289] == 49.63312297 && s.Q[289] == 0.573743386);
    assert_int_equal(s.line[289], 290);
    double disp[300], force[300];
    assert_int_equal(reference_pairs(path, 0, disp, force, 300), 290);
    for (size_t i = 0; i < s.n; i++)
        assert_true(s.q[i] == disp[i] && s.Q[i] == force[i]);
    hy_series_free(&s);
    /* CREDITS.md: 223.58 with the force divided by 1000, as the source's example does */
    hy_csv_opts o;
    hy_csv_opts_default(&o);
    o.y_scale = 1e-3;
    assert_int_equal(hy_csv_read(path, &o, &s, &err), HY_OK);
    assert_true(fabs(trapezoid_energy(&s) - 223.58) < 0.005);
    hy_series_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spc1),
        cmocka_unit_test(hys1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

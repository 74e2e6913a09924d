/* hy_args_parse (hyst/args.h), the option table behind every mech command: each kind stores its value, the
 * operand is counted, -h / --help stops the parse, an option with its own rule may read the next word, and each
 * mistake gives its one message (the words the commands printed before the table existed). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "hyst/args.h"

typedef struct vals {
    const char *out, *plot;
    double dt, lo, hi;
    int quiet, n, fmt, dt_given, pair;
} vals;

// --pair LO HI: the value and the next word
static int pair(void *dst, const char *v, hy_args *st, hy_err *err)
{
    vals *x = dst;
    if (st->next >= st->argc)
        return hy_err_set(err, HY_EARG, "--pair needs LO HI");
    if (hy_args_double("pair", v, &x->lo, err) || hy_args_double("pair", st->argv[st->next++], &x->hi, err))
        return HY_EARG;
    x->pair = 1;
    return HY_OK;
}

static const char *const fmts[] = {"csv", "h5", "csv+h5", NULL};

// (words, missing) => status of the parse over a fresh vals (argv[0] = "cmd"); *x, *operand, *help, err filled
static int parse(vals *x, const char **operand, int *help, hy_err *err, const char *missing, int n, ...)
{
    static char buf[16][64];
    char *argv[17];
    va_list ap;
    va_start(ap, n);
    argv[0] = strcpy(buf[0], "cmd");
    for (int i = 0; i < n; i++)
        argv[i + 1] = strcpy(buf[i + 1], va_arg(ap, const char *));
    va_end(ap);
    argv[n + 1] = NULL;
    memset(x, 0, sizeof *x);
    x->out = "-";
    x->n = 7;
    const hy_arg tab[] = {
        HY_OPT_STR("output", 'o', &x->out),   HY_OPT_STR("plot", 0, &x->plot),
        HY_OPT_DOUBLE("dt", &x->dt, &x->dt_given), HY_OPT_FLAG("quiet", 'q', &x->quiet),
        HY_OPT_INT("jobs", 'j', &x->n, 1, NULL), HY_OPT_CHOICE("format", &x->fmt, fmts),
        HY_OPT_CALL("pair", x, pair),         HY_OPT_END};
    return hy_args_parse(tab, n + 1, argv, missing, operand, help, err);
}

static void values_and_operand(void **state)
{
    (void)state;
    vals x;
    const char *op;
    int help;
    hy_err err;
    assert_int_equal(parse(&x, &op, &help, &err, "missing F.json", 11, "-o", "a.csv", "--dt=1e-3", "F.json", "-qj",
                           "4", "--format", "csv+h5", "--pair", "0.1", "0.2"), HY_OK);
    assert_string_equal(x.out, "a.csv");
    assert_true(x.dt == 1e-3 && x.dt_given == 1);
    assert_true(x.quiet == 1 && x.n == 4 && x.fmt == 3);
    assert_true(x.pair == 1 && x.lo == 0.1 && x.hi == 0.2);   /* the call read the next word too */
    assert_string_equal(op, "F.json");                       /* an operand among the options */
    assert_int_equal(help, 0);
    assert_null(x.plot);
    /* defaults stay when an option is not given; no operand for a command without one */
    assert_int_equal(parse(&x, &op, &help, &err, NULL, 0), HY_OK);
    assert_true(x.n == 7 && x.dt_given == 0 && op == NULL);
}

static void help_stops(void **state)
{
    (void)state;
    vals x;
    const char *op;
    int help;
    hy_err err;
    assert_int_equal(parse(&x, &op, &help, &err, "missing F.json", 2, "--help", "--bogus"), HY_OK);
    assert_int_equal(help, 1);
    assert_int_equal(parse(&x, &op, &help, &err, "missing F.json", 2, "-q", "-h"), HY_OK);
    assert_int_equal(help, 1);
}

static void messages(void **state)
{
    (void)state;
    struct { int n; const char *w[3]; const char *msg; } c[] = {
        {1, {"--dt"}, "option '--dt' needs a value"},
        {1, {"-o"}, "option '-o' needs a value"},
        {2, {"--dt", "x"}, "--dt: 'x' is not a finite number"},
        {2, {"--dt", "inf"}, "--dt: 'inf' is not a finite number"},
        {2, {"-j", "0"}, "--jobs: '0' is not an integer >= 1"},
        {2, {"--jobs", "3x"}, "--jobs: '3x' is not an integer >= 1"},
        {2, {"--format", "xml"}, "--format 'xml': expected csv, h5 or csv+h5"},
        {1, {"--bogus"}, "unknown option '--bogus'"},
        {1, {"-x"}, "unknown option '-x'"},
        {0, {0}, "missing F.json"},
        {2, {"a", "b"}, "unexpected argument 'b'"},
        {2, {"--pair", "1"}, "--pair needs LO HI"},
        {3, {"--pair", "1", "y"}, "--pair: 'y' is not a finite number"},
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        vals x;
        const char *op;
        int help;
        hy_err err;
        int rc = parse(&x, &op, &help, &err, "missing F.json", c[k].n, c[k].w[0], c[k].w[1], c[k].w[2]);
        if (rc != HY_EARG || strcmp(err.msg, c[k].msg) != 0)
            fail_msg("case %zu: status %d, message '%s', expected '%s'", k, rc, err.msg, c[k].msg);
    }
}

// a flag with its own rule: the option's table entry comes with the call (one call serving several options)
static int flag(void *dst, const char *v, hy_args *st, hy_err *err)
{
    (void)err;
    int *set = dst;
    if (v != NULL)
        return hy_err_set(err, HY_EARG, "a flag got a value");
    *set = strcmp(st->arg->name, "on") == 0 ? 1 : 0;
    return HY_OK;
}

// hy_args_parse_n: a command of min..max operands (`hyst replay MODEL... DATA`, `hyst plot KIND ... DATA`)
static void operands(void **state)
{
    (void)state;
    static char w[8][16];
    const char *words[] = {"cmd", "m1.json", "--on", "m2.json", "--off", "--on", "d.csv"};
    char *argv[8];
    for (int k = 0; k < 7; k++)
        argv[k] = strcpy(w[k], words[k]);
    argv[7] = NULL;
    int set = -1, first, count, help;
    hy_err err;
    const hy_arg tab[] = {HY_OPT_FLAG_CALL("on", &set, flag), HY_OPT_FLAG_CALL("off", &set, flag), HY_OPT_END};
    assert_int_equal(hy_args_parse_n(tab, 7, argv, 2, 1000, "missing MODEL DATA", &first, &count, &help, &err), HY_OK);
    assert_int_equal(set, 1);   /* the last flag given wins: --on */
    assert_int_equal(count, 3);
    assert_string_equal(argv[first], "m1.json");   /* the operands in their order, after the options */
    assert_string_equal(argv[first + 1], "m2.json");
    assert_string_equal(argv[first + 2], "d.csv");
    /* fewer than min: the command's message; more than max: the first one too many */
    argv[1] = strcpy(w[1], "m1.json");
    char *one[] = {w[0], w[1], NULL};
    strcpy(w[0], "cmd");
    assert_int_equal(hy_args_parse_n(tab, 2, one, 2, 1000, "missing MODEL DATA", &first, &count, &help, &err),
                     HY_EARG);
    assert_string_equal(err.msg, "missing MODEL DATA");
    char *three[] = {w[0], w[1], w[2], w[3], NULL};
    strcpy(w[1], "a"), strcpy(w[2], "b"), strcpy(w[3], "c");
    assert_int_equal(hy_args_parse_n(tab, 4, three, 1, 2, "missing A", &first, &count, &help, &err), HY_EARG);
    assert_string_equal(err.msg, "unexpected argument 'c'");
    /* a flag with its own rule takes no value: "--on=x" is refused by getopt as an option with a value */
    char *val[] = {w[0], w[4], NULL};
    strcpy(w[4], "--on=x");
    assert_int_equal(hy_args_parse_n(tab, 2, val, 0, 0, NULL, &first, &count, &help, &err), HY_EARG);
}

static void int_range(void **state)
{
    (void)state;
    int v = 0;
    hy_err err;
    assert_int_equal(hy_args_int_range("k", "8", 1, 8, &v, &err), HY_OK);
    assert_int_equal(v, 8);
    assert_int_equal(hy_args_int_range("k", "1", 1, 8, &v, &err), HY_OK);
    assert_int_equal(v, 1);
    const char *bad[] = {"9", "0", "x", "", "2.5", "99999999999999999999"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        assert_int_equal(hy_args_int_range("k", bad[k], 1, 8, &v, &err), HY_EARG);
        char want[128];
        snprintf(want, sizeof want, "--k: '%s' is not an integer from 1 to 8", bad[k]);
        assert_string_equal(err.msg, want);
    }
    assert_int_equal(v, 1);   /* untouched by a refused value */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(values_and_operand),
        cmocka_unit_test(help_stops),
        cmocka_unit_test(messages),
        cmocka_unit_test(operands),
        cmocka_unit_test(int_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

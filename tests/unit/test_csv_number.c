// Number parsing of CSV cells (hy_csv_number): bit-identical to strtod, fast path and slow path alike.
#include <math.h>
#include <stdint.h>
#include "test_csv_util.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
static int below(int n) { return (int)(next() % (uint64_t)n); }

/* Checks one string against strtod: same bits when finite, NONFINITE when strtod overflows. */
static void check_against_strtod(const char *s, int decimal_comma)
{
    char dot[256];
    size_t n = strlen(s);
    assert_true(n < sizeof dot);
    for (size_t i = 0; i <= n; i++)
        dot[i] = s[i] == ',' ? '.' : s[i];
    char *end;
    double want = strtod(dot, &end);
    assert_true(*end == '\0');
    double got = -12345.0;
    int rc = hy_csv_number(s, n, decimal_comma, &got);
    if (!isfinite(want)) {
        if (rc != HY_CSV_NUM_NONFINITE)
            fail_msg("'%s': expected NONFINITE, got rc %d", s, rc);
        return;
    }
    if (rc != HY_CSV_NUM_OK)
        fail_msg("'%s': expected OK, got rc %d", s, rc);
    uint64_t gb, wb;
    memcpy(&gb, &got, sizeof gb);
    memcpy(&wb, &want, sizeof wb);
    if (gb != wb)
        fail_msg("'%s': got %.17g (0x%016llx), strtod gives %.17g (0x%016llx)", s, got, (unsigned long long)gb, want,
                 (unsigned long long)wb);
}

/* A random decimal in the grammar: sign, 0..maxint integer digits, optional fraction, optional exponent. */
static void random_decimal(char *buf, int maxdig, int maxexp, char mark)
{
    char *p = buf;
    int r = below(3);
    if (r == 1)
        *p++ = '-';
    else if (r == 2 && below(4) == 0)
        *p++ = '+';
    int ni = below(maxdig + 1), nf = below(maxdig + 1);
    if (ni + nf == 0)
        ni = 1;
    for (int i = 0; i < ni; i++)
        *p++ = (char)('0' + (i == 0 && ni > 1 && below(3) ? 1 + below(9) : below(10)));
    if (nf || below(5) == 0) {
        *p++ = mark;
        for (int i = 0; i < nf; i++)
            *p++ = (char)('0' + below(10));
    }
    if (below(2)) {
        *p++ = below(2) ? 'e' : 'E';
        int e = below(2 * maxexp + 1) - maxexp;
        p += sprintf(p, below(3) == 0 && e >= 0 ? "+%d" : "%d", e);
    }
    *p = '\0';
}

static void random_strings_match_strtod(void **state)
{
    (void)state;
    char buf[128];
    for (int i = 0; i < 300000; i++) { /* mostly fast-path sized: <= 15 digits, |e| small */
        random_decimal(buf, 8, 25, '.');
        check_against_strtod(buf, 0);
    }
    for (int i = 0; i < 200000; i++) { /* long significands and wide exponents: the strtod fallback */
        random_decimal(buf, 22, 340, '.');
        check_against_strtod(buf, 0);
    }
    for (int i = 0; i < 100000; i++) { /* decimal comma, as with ';' or tab separators */
        random_decimal(buf, 9, 30, ',');
        check_against_strtod(buf, 1);
    }
}

static void printed_doubles_round_trip(void **state)
{
    (void)state;
    char buf[64];
    for (int i = 0; i < 200000; i++) {
        uint64_t bits = next();
        double x;
        memcpy(&x, &bits, sizeof x);
        if (!isfinite(x))
            continue;
        snprintf(buf, sizeof buf, "%.*g", 1 + below(17), x); /* 1..17 significant digits */
        check_against_strtod(buf, 0);
        snprintf(buf, sizeof buf, "%.17g", x);
        double y;
        assert_int_equal(hy_csv_number(buf, strlen(buf), 0, &y), HY_CSV_NUM_OK);
        assert_memory_equal(&x, &y, sizeof x); /* %.17g round-trips exactly */
    }
    for (int i = 0; i < 100000; i++) { /* bench-like values: a few decimals */
        snprintf(buf, sizeof buf, "%.*f", below(7), (double)(int64_t)(next() % 2000001) / 1000.0 - 1000.0);
        check_against_strtod(buf, 0);
    }
}

static void hard_cases(void **state)
{
    (void)state;
    static const char *const cases[] = {
        "0.1", "0.2", "0.3", "1e23", "9007199254740992", "9007199254740993", "9007199254740993.0000000001",
        "1.7976931348623157e308", "1.7976931348623158e308", "2.2250738585072011e-308", "2.2250738585072014e-308",
        "4.9e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-400", "123456789012345678901234567890",
        "0.000000000000000000000000000000000000000001", "1.5e25", "15e24", "9e37", "9007199254740991e22",
        "1.500000000000000000000", "1000000000000000000000000", "-0", "-0.0", "+0e5", "0e400", "3.58", "-100.0793651",
        "53.95180732", "0.573743386", "1e22", "1e-22", "4.35e-23", "123456789012345e-22", "89255.0e-22",
        "7.038531e-26", "1448997445238699", "5e-324", "1e308", "1e309", "-1e309"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_against_strtod(cases[i], 0);
    double v;
    assert_int_equal(hy_csv_number("-0", 2, 0, &v), HY_CSV_NUM_OK);
    assert_true(v == 0.0 && signbit(v));
}

static void syntax_and_special_values(void **state)
{
    (void)state;
    double v = 0;
    assert_int_equal(hy_csv_number("  4.46 ", 7, 0, &v), HY_CSV_NUM_OK);
    assert_true(v == 4.46);
    assert_int_equal(hy_csv_number("\t-3.5e2\t", 8, 0, &v), HY_CSV_NUM_OK);
    assert_true(v == -350.0);
    assert_int_equal(hy_csv_number(".5", 2, 0, &v), HY_CSV_NUM_OK);
    assert_true(v == 0.5);
    assert_int_equal(hy_csv_number("5.", 2, 0, &v), HY_CSV_NUM_OK);
    assert_true(v == 5.0);
    assert_int_equal(hy_csv_number("1,5", 3, 1, &v), HY_CSV_NUM_OK);
    assert_true(v == 1.5);
    assert_int_equal(hy_csv_number("1,5", 3, 0, &v), HY_CSV_NUM_SYNTAX); /* ',' only when allowed */
    static const char *const bad[] = {"abc", "1.2.3", "1e", "1e+", "e5", ".", "+", "-", "0x10", "1,000.5", "1 2",
                                      "1e5.5", "--1", "1d5", "1.5kN", "kN", "1_000", "\xd9\xa1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (hy_csv_number(bad[i], strlen(bad[i]), 0, &v) != HY_CSV_NUM_SYNTAX)
            fail_msg("'%s' should be a syntax error", bad[i]);
    static const char *const nonfinite[] = {"nan", "NaN", "-nan", "inf", "-Inf", "+INF", "Infinity", "-infinity",
                                            "nan(0x7)", "1.#INF", "-1.#IND", "1.#QNAN", "1e999", "-2e400"};
    for (size_t i = 0; i < sizeof nonfinite / sizeof nonfinite[0]; i++)
        if (hy_csv_number(nonfinite[i], strlen(nonfinite[i]), 0, &v) != HY_CSV_NUM_NONFINITE)
            fail_msg("'%s' should be reported as not finite", nonfinite[i]);
    assert_int_equal(hy_csv_number("", 0, 0, &v), HY_CSV_NUM_EMPTY);
    assert_int_equal(hy_csv_number("   ", 3, 0, &v), HY_CSV_NUM_EMPTY);
    /* length is honoured: the text need not end with NUL */
    assert_int_equal(hy_csv_number("12345", 2, 0, &v), HY_CSV_NUM_OK);
    assert_true(v == 12.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_strings_match_strtod),
        cmocka_unit_test(printed_doubles_round_trip),
        cmocka_unit_test(hard_cases),
        cmocka_unit_test(syntax_and_special_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

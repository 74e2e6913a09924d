/* hy_fmt_exact (Dragonbox's shortest digits, from {fmt}, laid out as %g) against the former algorithm, kept here as
 * the reference: the shortest of %.15g / %.16g / %.17g that strtod reads back. On every double tried the new text
 * reads back to the same bits; where the reference text already has the fewest significant digits, the bytes are
 * the same; elsewhere the new text has fewer digits. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/model.h"
#include "hyst/noise.h"
#include "hyst/util.h"

// the former hy_fmt_exact, verbatim
static int ref_fmt(char *buf, size_t len, double v)
{
    int n = 0;
    for (int prec = 15; prec <= 17; prec++) {
        n = snprintf(buf, len, "%.*g", prec, v);
        if (prec == 17 || !isfinite(v) || strtod(buf, NULL) == v)
            break;
    }
    return n;
}

// (number text) => its count of significant digits (zeros at both ends of the digit string do not count)
static int sig_digits(const char *s)
{
    char d[40];
    int n = 0;
    for (; *s && *s != 'e'; s++)
        if (*s >= '0' && *s <= '9')
            d[n++] = *s;
    int a = 0, b = n;
    while (a < b && d[a] == '0')
        a++;
    while (b > a && d[b - 1] == '0')
        b--;
    return b - a;
}

static long n_same, n_shorter;

static void check(double v)
{
    char a[40], b[40];
    int na = ref_fmt(a, sizeof a, v), nb = hy_fmt_exact(b, sizeof b, v);
    assert_int_equal(nb, (int)strlen(b));
    assert_int_equal(na, (int)strlen(a));
    /* the longest text is 24 bytes: a buffer of exactly 25 is written directly (ASan sees any overrun) */
    char c[25];
    assert_int_equal(hy_fmt_exact(c, sizeof c, v), nb);
    assert_string_equal(c, b);
    if (!isfinite(v)) {
        assert_string_equal(a, b);
        return;
    }
    double back = strtod(b, NULL);
    if (memcmp(&back, &v, sizeof v) != 0)
        fail_msg("%.17g (%a): \"%s\" reads back as %.17g", v, v, b, back);
    int sa = sig_digits(a), sb = sig_digits(b);
    if (sb > sa)
        fail_msg("%a: \"%s\" longer than the reference \"%s\"", v, b, a);
    if (sb == sa) {
        if (strcmp(a, b) != 0)
            fail_msg("%a: \"%s\" differs from the reference \"%s\" of as many digits", v, b, a);
        n_same++;
    } else {
        n_shorter++;
    }
}

static double from_bits(uint64_t u)
{
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

static void edge_cases(void **state)
{
    (void)state;
    const double e[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, DBL_MIN, -DBL_MIN, DBL_MAX, -DBL_MAX,
                        DBL_TRUE_MIN, -DBL_TRUE_MIN, DBL_EPSILON, 1.0, -1.0, 0.1, 0.2, 0.1 + 0.2, 1.0 / 3, 2.0 / 3,
                        5e-324, 2.2250738585072009e-308, 2.2250738585072014e-308, 9007199254740992.0,
                        9007199254740993.0, 1e15, 1e16, 1e17, 1e21, 1e22, 1e23, 123456789012345680.0, 1e-4, 1e-5,
                        0.00012345, 1.2345e-5, 999999999999999.9, 9999999999999998.0, 0.5, 1.5e300, 4.35e-7};
    for (size_t k = 0; k < sizeof e / sizeof *e; k++)
        check(e[k]);
    for (int p = -323; p <= 308; p++) { /* powers of ten and their neighbours */
        char t[16];
        snprintf(t, sizeof t, "1e%d", p);
        double v = strtod(t, NULL);
        check(v), check(-v), check(nextafter(v, 0)), check(nextafter(v, INFINITY));
    }
    for (int p = -1074; p <= 1023; p++) /* powers of two */
        check(ldexp(1, p)), check(ldexp(-1, p));
    for (long i = -100000; i <= 100000; i++) /* integers */
        check((double)i), check((double)i * 1e9 + 1), check((double)i / 1000);
    for (uint64_t m = 1; m < (1u << 20); m = m * 3 + 1) /* subnormals */
        check(from_bits(m)), check(from_bits(0x000fffffffffffffULL - m));
    /* the text layout: the %g rules for the exponent form and printf's exponent */
    char b[40];
    hy_fmt_exact(b, sizeof b, 1e15);
    assert_string_equal(b, "1e+15");
    hy_fmt_exact(b, sizeof b, 1e14);
    assert_string_equal(b, "100000000000000");
    hy_fmt_exact(b, sizeof b, 1234567890123456.0);
    assert_string_equal(b, "1234567890123456");
    hy_fmt_exact(b, sizeof b, 0.0001);
    assert_string_equal(b, "0.0001");
    hy_fmt_exact(b, sizeof b, -1.25e-5);
    assert_string_equal(b, "-1.25e-05");
    hy_fmt_exact(b, sizeof b, 0.1 + 0.2);
    assert_string_equal(b, "0.30000000000000004");
    hy_fmt_exact(b, sizeof b, -DBL_MIN);
    assert_string_equal(b, "-2.2250738585072014e-308");
    hy_fmt_exact(b, sizeof b, -0.0);
    assert_string_equal(b, "-0");
    /* a short buffer truncates as snprintf does and still returns the whole length */
    assert_int_equal(hy_fmt_exact(b, 4, 0.1 + 0.2), 19);
    assert_string_equal(b, "0.3");
}

/* random bit patterns (every exponent, subnormals, both signs) and random values of the kinds a simulation writes
 * (uniform in a decade, short decimals), 2 x 10^6 numbers in all */
static void random_doubles(void **state)
{
    (void)state;
    hy_rng r;
    hy_rng_seed(&r, 17, 1);
    n_same = n_shorter = 0;
    for (long i = 0; i < 1000000; i++)
        check(from_bits(hy_rng_u64(&r)));
    for (long i = 0; i < 600000; i++)
        check((hy_rng_uniform(&r) - 0.5) * pow(10, (int)(hy_rng_u64(&r) % 40) - 20));
    for (long i = 0; i < 400000; i++)
        check((double)(long)(hy_rng_u64(&r) % 2000001 - 1000000) / pow(10, (int)(hy_rng_u64(&r) % 12)));
    print_message("%ld texts as the reference's, %ld shorter than it\n", n_same, n_shorter);
    assert_true(n_same > 1500000); /* the reference is shortest for most numbers; the comparison means something */
}

// hy_json_exact_number and hy_json_print carry the same text
static void json_numbers(void **state)
{
    (void)state;
    cJSON *a = cJSON_CreateArray();
    cJSON_AddItemToArray(a, hy_json_exact_number(0.1 + 0.2));
    cJSON_AddItemToArray(a, hy_json_exact_number(-1.25e-5));
    cJSON_AddItemToArray(a, hy_json_exact_number(NAN));
    char *t = cJSON_PrintUnformatted(a);
    assert_string_equal(t, "[0.30000000000000004,-1.25e-05,null]");
    free(t);
    cJSON_Delete(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(edge_cases),
        cmocka_unit_test(random_doubles),
        cmocka_unit_test(json_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

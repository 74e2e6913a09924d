/* Decimal number parsing for CSV cells: exact and fast.
 *
 * Bench files hold millions of short decimals ("4.46", "-0.125e-3"). strtod is exact but slow, so most cells
 * take Clinger's fast path (W. D. Clinger, "How to read floating point numbers accurately", PLDI 1990): when
 * the decimal significand m fits in 53 bits and the power of ten |e| <= 22, both m and 10^|e| are exact doubles
 * and one IEEE multiplication or division rounds the exact value m * 10^e correctly, so the result equals
 * strtod's bit for bit. Everything else (more digits, large exponents) goes to strtod in the C locale. */
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/csvread.h"

static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
static const uint64_t pow10_int[16] = {1ull,
                                       10ull,
                                       100ull,
                                       1000ull,
                                       10000ull,
                                       100000ull,
                                       1000000ull,
                                       10000000ull,
                                       100000000ull,
                                       1000000000ull,
                                       10000000000ull,
                                       100000000000ull,
                                       1000000000000ull,
                                       10000000000000ull,
                                       100000000000000ull,
                                       1000000000000000ull};
#define TWO53 9007199254740992ull

/* strtod in the C locale whatever the program's locale (a German LC_NUMERIC would expect ','). The locale
 * object is created once; a lost race frees the spare copy. */
static locale_t c_locale(void)
{
    static locale_t loc = (locale_t)0;
    locale_t l = __atomic_load_n(&loc, __ATOMIC_ACQUIRE);
    if (l)
        return l;
    locale_t fresh = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (!fresh)
        return (locale_t)0;
    locale_t expected = (locale_t)0;
    if (__atomic_compare_exchange_n(&loc, &expected, fresh, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return fresh;
    freelocale(fresh);
    return expected;
}

static int ieq(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = a[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != b[i])
            return 0;
    }
    return 1;
}

/* After a syntax failure: is the text a spelling of NaN or infinity ("nan", "-inf", "Infinity", "nan(0x1)",
 * spreadsheet "1.#INF", "-1.#IND", "1.#QNAN")? Those get their own message. */
static int spells_nonfinite(const char *s, size_t n)
{
    if (n && (*s == '+' || *s == '-'))
        s++, n--;
    if ((n == 3 && (ieq(s, "nan", 3) || ieq(s, "inf", 3))) || (n == 8 && ieq(s, "infinity", 8)))
        return 1;
    if (n > 4 && ieq(s, "nan(", 4) && s[n - 1] == ')')
        return 1;
    for (size_t i = 0; i + 4 <= n; i++)
        if (s[i] == '#' && (ieq(s + i + 1, "inf", 3) || ieq(s + i + 1, "ind", 3) ||
                            (i + 5 <= n && ieq(s + i + 1, "qnan", 4)) || (i + 5 <= n && ieq(s + i + 1, "snan", 4))))
            return 1;
    return 0;
}

/* strtod on a NUL-terminated copy of the (syntax-checked) text with '.' as the decimal mark. Kept out of line
 * so that the fast path needs no stack buffer. */
__attribute__((noinline)) static int slow_path(const char *start, size_t n, double *out)
{
    char stackbuf[128];
    char *buf = n < sizeof stackbuf ? stackbuf : malloc(n + 1);
    if (!buf)
        return HY_CSV_NUM_SYNTAX;
    for (size_t i = 0; i < n; i++)
        buf[i] = start[i] == ',' ? '.' : start[i];
    buf[n] = '\0';
    char *stop = NULL;
    locale_t loc = c_locale();
    double v = loc ? strtod_l(buf, &stop, loc) : strtod(buf, &stop);
    int ok = stop == buf + n;
    if (buf != stackbuf)
        free(buf);
    if (!ok)
        return HY_CSV_NUM_SYNTAX;
    if (!isfinite(v))
        return HY_CSV_NUM_NONFINITE;
    *out = v;
    return HY_CSV_NUM_OK;
}

// (text[len], whether ',' may be the decimal mark) => correctly rounded double; enum hy_csv_num
int hy_csv_number(const char *s, size_t len, int decimal_comma, double *out)
{
    const char *p = s, *end = s + len;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    if (p == end)
        return HY_CSV_NUM_EMPTY;
    const char *start = p;

    int neg = 0;
    if (*p == '+' || *p == '-')
        neg = (*p++ == '-');

    uint64_t m = 0;       /* significant digits                                         */
    int exact = 1;        /* 0 once a non-zero digit did not fit in m                   */
    long e10 = 0;         /* value = m * 10^e10                                         */
    int digits;           /* mantissa digits seen (syntax: at least one)                */
    {
        /* Common case first: at most 19 digits all fit in m, leading zeros included. */
        const char *q = p;
        unsigned d;
        while (q < end && (d = (unsigned)(*q - '0')) < 10) {
            m = m * 10 + d;
            q++;
        }
        long nf = 0;
        digits = (int)(q - p < 1000 ? q - p : 1000);
        if (q < end && (*q == '.' || (decimal_comma && *q == ','))) {
            const char *f = ++q;
            while (q < end && (d = (unsigned)(*q - '0')) < 10) {
                m = m * 10 + d;
                q++;
            }
            nf = q - f;
            digits += (int)(nf < 1000 ? nf : 1000);
        }
        if (digits <= 19) {
            e10 = -nf;
            p = q;
        } else {
            /* Long mantissa: keep the first 19 significant digits, note whether a non-zero one was dropped. */
            int nd = 0;
            m = 0;
            for (; p < end && (unsigned)(*p - '0') < 10; p++) {
                d = (unsigned)(*p - '0');
                if (nd < 19) {
                    if (m || d) {
                        m = m * 10 + d;
                        nd++;
                    }
                } else {
                    e10++;
                    if (d)
                        exact = 0;
                }
            }
            if (p < end && (*p == '.' || (decimal_comma && *p == ','))) {
                p++;
                for (; p < end && (unsigned)(*p - '0') < 10; p++) {
                    d = (unsigned)(*p - '0');
                    if (nd < 19) {
                        if (m || d) {
                            m = m * 10 + d;
                            nd++;
                        }
                        e10--;
                    } else if (d) {
                        exact = 0;
                    }
                }
            }
        }
    }
    if (digits == 0)
        goto syntax;
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        int eneg = 0;
        if (p < end && (*p == '+' || *p == '-'))
            eneg = (*p++ == '-');
        if (p == end || (unsigned)(*p - '0') >= 10)
            goto syntax;
        long ex = 0;
        for (; p < end && (unsigned)(*p - '0') < 10; p++) {
            if (ex < 100000)
                ex = ex * 10 + (*p - '0');
            else
                exact = 0; /* absurd exponent: let strtod decide (overflow or underflow) */
        }
        e10 += eneg ? -ex : ex;
    }
    if (p != end)
        goto syntax;

    if (m == 0 && exact) {
        *out = neg ? -0.0 : 0.0;
        return HY_CSV_NUM_OK;
    }
    if (exact && m > TWO53)
        while (m % 10 == 0) { /* trailing zeros of a long significand ("1.500000000000000000") */
            m /= 10;
            e10++;
        }
    if (exact && m <= TWO53) {
        /* Clinger's fast path: m and 10^|e10| are exact doubles, one rounding. */
        if (e10 >= -22 && e10 <= 22) {
            double v = (double)m;
            v = e10 >= 0 ? v * pow10_exact[e10] : v / pow10_exact[-e10];
            *out = neg ? -v : v;
            return HY_CSV_NUM_OK;
        }
        /* 1.5e25 = 15e24: move the excess power into the integer while it stays exact. */
        if (e10 > 22 && e10 <= 22 + 15 && m <= TWO53 / pow10_int[e10 - 22]) {
            double v = (double)(m * pow10_int[e10 - 22]) * 1e22;
            *out = neg ? -v : v;
            return HY_CSV_NUM_OK;
        }
    }

    /* Slow path: more digits than fit, or a power of ten beyond the exact ones. */
    return slow_path(start, (size_t)(end - start), out);

syntax:
    return spells_nonfinite(start, (size_t)(end - start)) ? HY_CSV_NUM_NONFINITE : HY_CSV_NUM_SYNTAX;
}

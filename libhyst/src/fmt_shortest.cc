// The shortest decimal digits that read back to a double: the C++17 standard library's std::to_chars (libstdc++
// implements it with Ryu, Ulf Adams 2018, the algorithm of MSVC's and LLVM's libraries too) behind one extern "C"
// function, so the rest of libhyst stays C. It replaced libdouble-conversion (Grisu3 with a bignum fallback): the
// same shortest round-trip digits (both pick the candidate nearest the exact value), about 2x faster here. The
// digits are laid out as printf's %g by hy_fmt_exact (numfmt.c).
#include <charconv>
#include <cstring>

extern "C" int hy_fmt_shortest_digits(double v, char *digits, int *ndigits, int *point);

/* (finite v) => its shortest round-trip digits (no sign, no zeros at the end, NUL-terminated; at most 17 + 1
 * bytes at digits) and the decimal point position: |v| = 0.DIGITS x 10^point. Returns 1 when v is negative. */
extern "C" int hy_fmt_shortest_digits(double v, char *digits, int *ndigits, int *point)
{
    // scientific shortest: [-]d[.ddd]e(+|-)XX[X], at most 1 + 17 + 1 + 5 = 24 characters
    char s[32];
    std::to_chars_result r = std::to_chars(s, s + sizeof s, v, std::chars_format::scientific);
    const char *p = s, *end = r.ptr;
    int neg = 0, nd = 0;
    if (*p == '-')
        neg = 1, p++;
    for (; p < end && *p != 'e'; p++)
        if (*p != '.')
            digits[nd++] = *p;
    int ex = 0, exneg = 0;
    if (p < end) { // 'e', sign, digits
        p++;
        if (*p == '-' || *p == '+')
            exneg = *p++ == '-';
        for (; p < end; p++)
            ex = 10 * ex + (*p - '0');
    }
    while (nd > 1 && digits[nd - 1] == '0') // zero is "0e+00": keep one digit
        nd--;
    digits[nd] = '\0';
    *ndigits = nd;
    *point = (exneg ? -ex : ex) + 1;
    return neg;
}

// The shortest decimal digits that read back to a double: Debian's libdouble-conversion (Grisu3 with a bignum
// fallback, the algorithm of V8 and of many JSON libraries) behind one extern "C" function, so the rest of libhyst
// stays C. The digits are laid out as printf's %g by hy_fmt_exact (numfmt.c).
#include <double-conversion/double-conversion.h>

extern "C" int hy_fmt_shortest_digits(double v, char *digits, int *ndigits, int *point);

/* (finite v) => its shortest round-trip digits (no sign, no zeros at the end, NUL-terminated; at most 17 + 1
 * bytes at digits) and the decimal point position: |v| = 0.DIGITS x 10^point. Returns 1 when v is negative. */
extern "C" int hy_fmt_shortest_digits(double v, char *digits, int *ndigits, int *point)
{
    using double_conversion::DoubleToStringConverter;
    bool sign = false;
    DoubleToStringConverter::DoubleToAscii(v, DoubleToStringConverter::SHORTEST, 0, digits,
                                           DoubleToStringConverter::kBase10MaximalLength + 1, &sign, ndigits,
                                           point);
    return sign ? 1 : 0;
}

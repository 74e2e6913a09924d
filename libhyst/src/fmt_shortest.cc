// The shortest decimal digits that read back to a double: Dragonbox (Junekey Jeon 2020) from the {fmt} library
// (Debian's libfmt-dev, used header-only, so the programs need no extra shared library), behind one extern "C"
// function, so the rest of libhyst stays C. It replaced std::to_chars (Ryu in libstdc++, which itself replaced
// libdouble-conversion): the same shortest round-trip digits (every one of these algorithms picks the candidate
// nearest the exact value), the digits without the text round trip, 2x faster here (bench_fmt). The digits are
// laid out as printf's %g by hy_fmt_exact (numfmt.c).
//
// fmt::detail::dragonbox::to_decimal is the entry point {fmt}'s own float formatting calls; it sits in fmt's
// detail namespace, so a new fmt version could move it: tests/unit/test_numfmt.c checks every digit against the
// snprintf/strtod reference on 2 million values and the edge cases.
#define FMT_HEADER_ONLY
#include <fmt/format.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

static const char pairs[] = // "00" "01" ... "99"
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

extern "C" int hy_fmt_shortest_digits(double v, char *digits, int *ndigits, int *point);

/* (finite v) => its shortest round-trip digits (no sign, no zeros at the end, NUL-terminated; at most 17 + 1
 * bytes at digits) and the decimal point position: |v| = 0.DIGITS x 10^point. Returns 1 when v is negative
 * (also for -0). Zero is the one digit "0" with point 1. */
extern "C" int hy_fmt_shortest_digits(double v, char *digits, int *ndigits, int *point)
{
    int neg = std::signbit(v) ? 1 : 0;
    if (v == 0) {
        digits[0] = '0', digits[1] = '\0';
        *ndigits = 1, *point = 1;
        return neg;
    }
    auto dec = fmt::detail::dragonbox::to_decimal(std::fabs(v)); // |v| = significand x 10^exponent, shortest
    std::uint64_t sig = dec.significand;
    int ex = dec.exponent;
    while (sig % 10 == 0) // Dragonbox removes them already; kept so the contract never depends on it
        sig /= 10, ex++;
    // the number of digits first (sig < 10^17: from its bit length, then one comparison), so that the digits go
    // right to left straight to their place: a copy of a variable length cost a libc call a number
    static const std::uint64_t pow10[18] = {1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u,
                                            100000000u, 1000000000u, 10000000000u, 100000000000u,
                                            1000000000000u, 10000000000000u, 100000000000000u,
                                            1000000000000000u, 10000000000000000u, 100000000000000000u};
    int bits = 64 - __builtin_clzll(sig), n = (bits * 1233) >> 12; // 1233 / 4096 ~ log10(2): n or n + 1 digits
    n += sig >= pow10[n];
    // two at a time, in two independent 8-digit halves: a digit at a time was a chain of 17 dependent divisions,
    // longer than Dragonbox itself
    char *p = digits + n;
    std::uint64_t hi = sig / 100000000u;
    std::uint32_t lo = static_cast<std::uint32_t>(sig - hi * 100000000u);
    if (hi) {
        for (int k = 0; k < 4; k++, lo /= 100) // exactly 8 digits, leading zeros included
            std::memcpy(p -= 2, pairs + 2 * (lo % 100), 2);
        lo = static_cast<std::uint32_t>(hi);
    }
    while (lo >= 100) {
        std::memcpy(p -= 2, pairs + 2 * (lo % 100), 2);
        lo /= 100;
    }
    if (lo >= 10)
        std::memcpy(p -= 2, pairs + 2 * lo, 2);
    else
        *--p = static_cast<char>('0' + lo);
    digits[n] = '\0';
    *ndigits = n;
    *point = ex + n;
    return neg;
}

// Decimal text for doubles that reads back exactly (hyst/util.h): the shortest round-trip digits from Dragonbox
// (Junekey Jeon 2020) of the {fmt} library (Debian's libfmt-dev, used header-only, so the programs need no extra
// shared library), laid out as printf's %g, behind one extern "C" function, so the rest of libhyst stays C. Dragonbox
// replaced std::to_chars (Ryu in libstdc++, which itself replaced libdouble-conversion): the same shortest round-trip
// digits (every one of these algorithms picks the candidate nearest the exact value), 2x faster here (bench_fmt).
// The digits go straight to their place in the text, which is why the layout lives here with them (numfmt.c keeps
// the JSON helpers).
//
// fmt::detail::dragonbox::to_decimal is the entry point {fmt}'s own float formatting calls; it sits in fmt's
// detail namespace, so a new fmt version could move it: tests/unit/test_numfmt.c checks every digit against the
// snprintf/strtod reference on 2 million values and the edge cases.
#define FMT_HEADER_ONLY
#include <fmt/format.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

static const char pairs[] = // "00" "01" ... "99"
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* (v < 10^4) => exactly four digits at p */
static inline void put4(char *p, std::uint32_t v)
{
    std::uint32_t a = v / 100;
    std::memcpy(p, pairs + 2 * a, 2);
    std::memcpy(p + 2, pairs + 2 * (v - 100 * a), 2);
}

/* (sig with n digits, n <= 17) => its digits at p[0 .. n). Right to left in blocks of eight and four digits whose
 * pairs are independent of each other: a digit pair at a time was a chain of dependent divisions as long as
 * Dragonbox itself */
static inline void put_digits(char *p, std::uint64_t sig, int n)
{
    char *e = p + n;
    if (sig >= 100000000u) { // the low eight digits, leading zeros included
        std::uint64_t hi = sig / 100000000u;
        std::uint32_t lo = static_cast<std::uint32_t>(sig - hi * 100000000u), a = lo / 10000;
        put4(e - 8, a);
        put4(e - 4, lo - 10000 * a);
        e -= 8;
        sig = hi; // < 10^9
    }
    std::uint32_t v = static_cast<std::uint32_t>(sig);
    if (v >= 10000) {
        std::uint32_t a = v / 10000;
        put4(e - 4, v - 10000 * a);
        e -= 4;
        v = a; // < 10^5
    }
    while (v >= 100) {
        std::uint32_t a = v / 100;
        std::memcpy(e -= 2, pairs + 2 * (v - 100 * a), 2);
        v = a;
    }
    if (v >= 10)
        std::memcpy(e - 2, pairs + 2 * v, 2);
    else
        e[-1] = static_cast<char>('0' + v);
}

/* (k >= W bytes at src) => moved to dst, overlapping allowed: both ends of W bytes loaded before either store */
template <int W> static inline void move_ends(char *dst, const char *src, int k)
{
    char a[W], b[W];
    std::memcpy(a, src, W);
    std::memcpy(b, src + k - W, W);
    std::memcpy(dst, a, W);
    std::memcpy(dst + k - W, b, W);
}

/* (k <= 32 bytes at src) => moved one byte left, to src - 1, with fixed-size moves (a length known only at run time
 * made memmove a libc call) */
static inline void move_left1(char *src, int k)
{
    if (k >= 16)
        move_ends<16>(src - 1, src, k);
    else if (k >= 8)
        move_ends<8>(src - 1, src, k);
    else if (k >= 4)
        move_ends<4>(src - 1, src, k);
    else
        for (int i = 0; i < k; i++)
            src[i - 1] = src[i];
}

/* (v) => its shortest round-trip text, laid out as printf's %.Pg with P = max(15, number of digits): the bytes of
 * the former "shortest of %.15g / %.16g / %.17g that strtod reads back" wherever that text was already the shortest
 * (tests/unit/test_numfmt.c keeps the former algorithm as the reference), shorter where it was not (a value whose
 * correctly rounded 15 digits end in a non-zero digit but whose 12 digits already read back); inf and nan are
 * printf's text. Returns the text length; a short buffer truncates as snprintf does. */
extern "C" int hy_fmt_exact(char *buf, std::size_t len, double v)
{
    if (!std::isfinite(v))
        return std::snprintf(buf, len, "%g", v);
    char tmp[40];
    char *o = len > 24 ? buf : tmp, *p = o; // the text is at most 24 bytes: only a shorter buffer needs tmp
    if (std::signbit(v))
        *p++ = '-';
    std::uint64_t sig = 0;
    int ex = 0;
    if (v != 0) {
        auto dec = fmt::detail::dragonbox::to_decimal(std::fabs(v)); // |v| = significand x 10^exponent, shortest
        sig = dec.significand;
        ex = dec.exponent;
        while (sig % 10 == 0) // Dragonbox removes them already; kept so the layout never depends on it
            sig /= 10, ex++;
    }
    // the number of digits (sig < 10^17: from its bit length, then one comparison; zero is the one digit 0)
    static const std::uint64_t pow10[18] = {1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u,
                                            100000000u, 1000000000u, 10000000000u, 100000000000u,
                                            1000000000000u, 10000000000000u, 100000000000000u,
                                            1000000000000000u, 10000000000000000u, 100000000000000000u};
    int bits = sig ? 64 - __builtin_clzll(sig) : 1, n = (bits * 1233) >> 12; // 1233 / 4096 ~ log10(2)
    n += sig >= pow10[n] || sig == 0;
    int x = ex + n - 1; // decimal exponent of the first digit
    int prec = n > 15 ? n : 15;
    if (x < -4 || x >= prec) { // d.ddde+XX: the digits one place right, the first moved back before the point
        put_digits(p + 1, sig, n);
        p[0] = p[1];
        if (n > 1) {
            p[1] = '.';
            p += n + 1;
        } else {
            p += 1;
        }
        *p++ = 'e';
        *p++ = x < 0 ? '-' : '+';
        unsigned ax = static_cast<unsigned>(x < 0 ? -x : x);
        if (ax >= 100)
            *p++ = static_cast<char>('0' + ax / 100);
        *p++ = static_cast<char>('0' + ax / 10 % 10);
        *p++ = static_cast<char>('0' + ax % 10);
    } else if (x >= 0) { // ddd[.ddd]: x < prec <= 17, so at most 17 integer digits
        if (n > x + 1) { // the digits one place right, the integer part moved back before the point
            put_digits(p + 1, sig, n);
            move_left1(p + 1, x + 1);
            p[x + 1] = '.';
            p += n + 1;
        } else {
            put_digits(p, sig, n);
            p += n;
            for (int k = n; k <= x; k++)
                *p++ = '0';
        }
    } else { // 0.000ddd, x in -4..-1
        std::memcpy(p, "0.0000", 6);
        p += 1 - x;
        put_digits(p, sig, n);
        p += n;
    }
    *p = '\0';
    int len_out = static_cast<int>(p - o);
    if (o == tmp && len > 0) {
        std::size_t c = static_cast<std::size_t>(len_out) < len - 1 ? static_cast<std::size_t>(len_out) : len - 1;
        std::memcpy(buf, tmp, c);
        buf[c] = '\0';
    }
    return len_out;
}

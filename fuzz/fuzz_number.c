/* Fuzz harness: the CSV cell number parser hy_csv_number (libhyst/src/csvread_number.c), checked against strtod.
 * Input: byte 0 bit 0 = ',' is a decimal mark; the rest is the cell text.
 * Invariants: whatever both accept gives the same double bit for bit (strtod in the C locale, ',' read as '.');
 * every text of the documented grammar [+-]digits[.digits][(e|E)[+-]digits] (with optional spaces or tabs
 * around it) is accepted when strtod gives a finite value, and called non-finite when strtod overflows; nothing
 * outside the grammar is accepted; EMPTY means blank. */
#include <errno.h>
#include <math.h>
#include "fuzz_util.h"
#include "hyst/csvread.h"

// (text[n], decimal mark) => 1 when it matches the grammar after trimming spaces and tabs
static int in_grammar(const char *s, size_t n, char mark)
{
    size_t i = 0, j = n;
    while (i < j && (s[i] == ' ' || s[i] == '\t'))
        i++;
    while (j > i && (s[j - 1] == ' ' || s[j - 1] == '\t'))
        j--;
    if (i < j && (s[i] == '+' || s[i] == '-'))
        i++;
    size_t d = 0;
    while (i < j && s[i] >= '0' && s[i] <= '9')
        i++, d++;
    if (i < j && (s[i] == '.' || s[i] == mark)) {
        i++;
        while (i < j && s[i] >= '0' && s[i] <= '9')
            i++, d++;
    }
    if (d == 0)
        return 0;
    if (i < j && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < j && (s[i] == '+' || s[i] == '-'))
            i++;
        size_t e = 0;
        while (i < j && s[i] >= '0' && s[i] <= '9')
            i++, e++;
        if (e == 0)
            return 0;
    }
    return i == j;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    int comma = data[0] & 1;
    const char *s = (const char *)data + 1;
    size_t n = size - 1;
    double v = 12345.0;
    int rc = hy_csv_number(s, n, comma, &v);
    FUZZ_CHECK(rc >= HY_CSV_NUM_OK && rc <= HY_CSV_NUM_NONFINITE, "unknown outcome %d", rc);

    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    FUZZ_CHECK((rc == HY_CSV_NUM_EMPTY) == (i == n), "EMPTY is %d for a text that is %sblank", rc == HY_CSV_NUM_EMPTY,
               i == n ? "" : "not ");
    int gram = in_grammar(s, n, comma ? ',' : '.');
    FUZZ_CHECK(rc != HY_CSV_NUM_OK || gram, "accepted a text outside the grammar");
    if (!gram)
        return 0;

    /* strtod on a NUL-terminated copy with the decimal comma read as a point (the C locale is the default). */
    char *c = malloc(n + 1);
    FUZZ_CHECK(c != NULL, "out of memory");
    for (size_t k = 0; k < n; k++)
        c[k] = comma && s[k] == ',' ? '.' : s[k];
    c[n] = '\0';
    char *end;
    errno = 0;
    double w = strtod(c + i, &end);
    while (*end == ' ' || *end == '\t')
        end++;
    FUZZ_CHECK(*end == '\0', "strtod stopped early in a text of the grammar");
    if (isfinite(w) && !(errno == ERANGE && fabs(w) > 1.0)) {
        FUZZ_CHECK(rc == HY_CSV_NUM_OK, "strtod reads %.17g, hy_csv_number says %d", w, rc);
        FUZZ_CHECK(memcmp(&v, &w, sizeof v) == 0, "'%s': strtod %a, hy_csv_number %a", c, w, v);
    } else {
        FUZZ_CHECK(rc == HY_CSV_NUM_NONFINITE, "strtod overflows (%g), hy_csv_number says %d", w, rc);
    }
    free(c);
    return 0;
}

// Decimal text for doubles that reads back exactly (see hyst/util.h and hyst/model.h).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/model.h"
#include "hyst/util.h"

int hy_fmt_shortest_digits(double v, char *digits, int *ndigits, int *point); /* fmt_shortest.cc */

/* (n <= 24 bytes) => copied with fixed-size moves that may overlap (the length known only at run time made memcpy a
 * libc call, ~10 % of a number's time) */
static inline void copy_short(char *restrict dst, const char *restrict src, size_t n)
{
    if (n >= 16) {
        memcpy(dst, src, 16);
        memcpy(dst + n - 16, src + n - 16, 16);
    } else if (n >= 8) {
        memcpy(dst, src, 8);
        memcpy(dst + n - 8, src + n - 8, 8);
    } else if (n >= 4) {
        memcpy(dst, src, 4);
        memcpy(dst + n - 4, src + n - 4, 4);
    } else {
        for (size_t k = 0; k < n; k++)
            dst[k] = src[k];
    }
}

/* (v) => its shortest round-trip text, laid out as printf's %.Pg with P = max(15, number of digits): the bytes of
 * the former "shortest of %.15g / %.16g / %.17g that strtod reads back" wherever that text was already the shortest
 * (tests/unit/test_numfmt.c keeps the former algorithm as the reference), shorter where it was not (a value whose
 * correctly rounded 15 digits end in a non-zero digit but whose 12 digits already read back). The digits come from
 * Dragonbox ({fmt}, fmt_shortest.cc), ~40x faster than the snprintf/strtod loop; inf and nan are
 * printf's text as before. Returns the text length; a short buffer truncates as snprintf does. */
int hy_fmt_exact(char *buf, size_t len, double v)
{
    if (!isfinite(v))
        return snprintf(buf, len, "%g", v);
    char d[24], tmp[40];
    int nd, point;
    int neg = hy_fmt_shortest_digits(v, d, &nd, &point);
    char *o = len > 24 ? buf : tmp, *p = o;   /* the text is at most 24 bytes: only a shorter buffer needs tmp */
    if (neg)
        *p++ = '-';
    int x = point - 1; /* decimal exponent of the first digit */
    int prec = nd > 15 ? nd : 15;
    if (x < -4 || x >= prec) { /* d.ddde+XX */
        *p++ = d[0];
        if (nd > 1) {
            *p++ = '.';
            copy_short(p, d + 1, (size_t)nd - 1);
            p += nd - 1;
        }
        *p++ = 'e';
        *p++ = x < 0 ? '-' : '+';
        unsigned ax = (unsigned)(x < 0 ? -x : x);
        if (ax >= 100)
            *p++ = (char)('0' + ax / 100);
        *p++ = (char)('0' + ax / 10 % 10);
        *p++ = (char)('0' + ax % 10);
    } else if (x >= 0) { /* ddd[.ddd]: x < prec <= 17, so at most 17 integer digits */
        if (nd > x + 1) {
            copy_short(p, d, (size_t)x + 1);
            p += x + 1;
            *p++ = '.';
            copy_short(p, d + x + 1, (size_t)(nd - x - 1));
            p += nd - x - 1;
        } else {
            copy_short(p, d, (size_t)nd);
            p += nd;
            for (int k = nd; k <= x; k++)
                *p++ = '0';
        }
    } else { /* 0.000ddd, x in -4..-1 */
        *p++ = '0';
        *p++ = '.';
        for (int k = -1; k > x; k--)
            *p++ = '0';
        copy_short(p, d, (size_t)nd);
        p += nd;
    }
    *p = '\0';
    int n = (int)(p - o);
    if (o == tmp && len > 0) {
        size_t c = (size_t)n < len - 1 ? (size_t)n : len - 1;
        memcpy(buf, tmp, c);
        buf[c] = '\0';
    }
    return n;
}

/* (v) => a cJSON number item whose text reads back to exactly v; JSON null for a non-finite v.
 * cJSON's own printer accepts a 1-ulp mismatch (it writes 0.1 + 0.2 as 0.3), so the text is made here. */
struct cJSON *hy_json_exact_number(double v)
{
    if (!isfinite(v))
        return cJSON_CreateNull();
    char buf[40];
    hy_fmt_exact(buf, sizeof buf, v);
    return cJSON_CreateRaw(buf);
}

/* (item) => every number below it turned, in place, into a raw item holding its exact text. In place keeps the
 * key, the order and duplicate keys; cJSON_Delete frees valuestring with the default hooks (malloc/free).
 * Returns 0, or -1 when out of memory (a number then keeps cJSON's near-exact text: the caller must not print). */
static int make_numbers_exact(cJSON *item)
{
    int rc = 0;
    for (cJSON *c = item ? item->child : NULL; c; c = c->next) {
        if (cJSON_IsNumber(c) && isfinite(c->valuedouble)) {
            char buf[40];
            hy_fmt_exact(buf, sizeof buf, c->valuedouble);
            char *text = strdup(buf);
            if (!text) {
                rc = -1;
                continue;
            }
            c->type = cJSON_Raw;
            c->valuestring = text;
        } else if (make_numbers_exact(c) != 0) {
            rc = -1;
        }
    }
    return rc;
}

// (doc) => indented JSON text with exact numbers
char *hy_json_print(struct cJSON *doc)
{
    if (make_numbers_exact(doc) != 0)
        return NULL; /* out of memory: no text rather than one whose numbers do not read back exactly */
    return cJSON_Print(doc);
}

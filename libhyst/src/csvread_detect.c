/* Detection heuristics of the CSV reader: which separator a file uses, what a header name means, what a
 * units cell looks like. Kept apart from the streaming reader so each rule can be read (and tested) alone;
 * docs/data-input.md states the same rules for users. */
#include <ctype.h>
#include <string.h>
#include "hyst/csvread.h"
#include "csvread_internal.h"

#define SAMPLE_LINES 32

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* One line of the sample split by `delim` outside double quotes: counts the cells and the numeric ones. A cell
 * in quotes is judged by what is inside them. */
static void split_count(const char *s, size_t n, char delim, size_t *cells, size_t *numeric, size_t *bad)
{
    *cells = *numeric = *bad = 0;
    int dec_comma = delim != ',';
    size_t i = 0;
    for (;;) {
        size_t a = i;
        int inq = 0;
        while (i < n && (inq || s[i] != delim)) {
            if (s[i] == '"')
                inq = !inq;
            i++;
        }
        size_t b = i;
        while (a < b && is_blank(s[a]))
            a++;
        while (b > a && is_blank(s[b - 1]))
            b--;
        if (b - a >= 2 && s[a] == '"' && s[b - 1] == '"')
            a++, b--;
        double v;
        int rc = hy_csv_number(s + a, b - a, dec_comma, &v);
        (*cells)++;
        if (rc == HY_CSV_NUM_OK)
            (*numeric)++;
        else if (rc != HY_CSV_NUM_EMPTY)
            (*bad)++;
        if (i >= n)
            break;
        i++; /* past the separator */
    }
}

// (file start, length) => separator: the candidate giving the most all-numeric lines of >= 2 cells
char hy_csv_detect_delimiter(const char *buf, size_t len)
{
    static const char cand[3] = {'\t', ';', ','}; /* tie order: a tab or ';' is never a decimal mark */
    size_t numeric_lines[3] = {0, 0, 0}, split_lines[3] = {0, 0, 0};
    size_t pos = 0, sampled = 0;
    while (pos < len && sampled < SAMPLE_LINES) {
        const char *line = buf + pos;
        size_t n = 0; /* a line ends at LF, CRLF or a lone CR (a bounded sample: a plain scan) */
        while (n < len - pos && line[n] != '\n' && line[n] != '\r')
            n++;
        pos += n;
        if (pos < len)
            pos += buf[pos] == '\r' && pos + 1 < len && buf[pos + 1] == '\n' ? 2 : 1;
        size_t k = 0;
        while (k < n && is_blank(line[k]))
            k++;
        if (k == n || line[k] == '#')
            continue; /* blank or comment */
        sampled++;
        for (int c = 0; c < 3; c++) {
            size_t cells, numeric, bad;
            split_count(line, n, cand[c], &cells, &numeric, &bad);
            if (cells >= 2)
                split_lines[c]++;
            if (numeric >= 2 && bad == 0)
                numeric_lines[c]++;
        }
    }
    int best = 2; /* ',' when nothing else speaks */
    for (int c = 0; c < 3; c++)
        if (numeric_lines[c] > numeric_lines[best] ||
            (numeric_lines[c] == numeric_lines[best] && split_lines[c] > split_lines[best]) ||
            (numeric_lines[c] == numeric_lines[best] && split_lines[c] == split_lines[best] && c < best &&
             split_lines[c] > 0))
            best = c;
    return cand[best];
}

static int has_prefix(const char *word, const char *prefix)
{
    return strncmp(word, prefix, strlen(prefix)) == 0;
}

/* The vocabulary of bench-test column names (lower case). A word matches a prefix entry when it starts with
 * it ("displ" matches "displacment", misspelt as in shared/data/SPC1.csv), and an exact entry only in full. */
static const char *const disp_prefix[] = {"disp", "defl", "stroke", "angle", "rot", "twist", "strain", "position",
                                          "extens", "elong", "slip", "drift", "travel", "lvdt", "deform", NULL};
static const char *const disp_exact[] = {"x", "pos", "theta", "phi", "gamma", "delta", NULL};
static const char *const force_prefix[] = {"force", "load", "moment", "torque", "stress", "reaction", "shear",
                                           NULL};
static const char *const force_exact[] = {"f", "y", "tau", "sigma", "p", "torq", NULL};
static const char *const time_prefix[] = {"time", NULL};
static const char *const time_exact[] = {"t", NULL}; /* not "s" or "sec": those are units */

static int in_list(const char *word, const char *const *prefix, const char *const *exact)
{
    for (int i = 0; prefix[i]; i++)
        if (has_prefix(word, prefix[i]))
            return 1;
    for (int i = 0; exact[i]; i++)
        if (strcmp(word, exact[i]) == 0)
            return 1;
    return 0;
}

// (header name) => HY_CSV_KIND_*
int hy_csv_name_kind(const char *name)
{
    int disp = 0, force = 0, time = 0;
    char base[256];
    hy_csv_name_base(name, base, sizeof base); /* "Disp (m)": the unit is not part of the meaning */
    const char *p = base;
    while (*p) {
        while (*p && !isalnum((unsigned char)*p))
            p++;
        if (!*p)
            break;
        char word[32];
        size_t n = 0;
        char first = *p;
        while (*p && isalnum((unsigned char)*p)) {
            if (n + 1 < sizeof word)
                word[n++] = (char)tolower((unsigned char)*p);
            p++;
        }
        word[n] = '\0';
        /* q is displacement and Q force, as in the spec's notation: the only case-sensitive names. */
        if (n == 1 && first == 'q')
            disp = 1;
        else if (n == 1 && first == 'Q')
            force = 1;
        else if (in_list(word, disp_prefix, disp_exact))
            disp = 1;
        else if (in_list(word, force_prefix, force_exact))
            force = 1;
        else if (in_list(word, time_prefix, time_exact))
            time = 1;
    }
    if (disp + force + time != 1)
        return HY_CSV_KIND_NONE;
    return disp ? HY_CSV_KIND_DISP : force ? HY_CSV_KIND_FORCE : HY_CSV_KIND_TIME;
}

// (cell) => 1 when it looks like a unit
int hy_csv_unitlike(const char *s, size_t len)
{
    while (len && is_blank(*s))
        s++, len--;
    while (len && is_blank(s[len - 1]))
        len--;
    if (len == 0 || len > 20)
        return 0;
    double v;
    if (hy_csv_number(s, len, 1, &v) != HY_CSV_NUM_SYNTAX)
        return 0; /* a number, or nan/inf */
    int letters = 0, spaces = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (isalpha(c) || c == '%' || c >= 0x80) /* UTF-8 bytes: degree sign, micro, middle dot */
            letters++;
        else if (c == ' ')
            spaces++;
        else if (c < 0x20 || c == '#')
            return 0;
    }
    if (letters == 0 || spaces > 1)
        return 0;
    char name[32];
    memcpy(name, s, len);
    name[len] = '\0';
    return hy_csv_name_kind(name) == HY_CSV_KIND_NONE; /* "Displacement" is a name, not a unit */
}

// (unit text) => trimmed, one pair of enclosing brackets removed
void hy_csv_clean_unit(const char *s, size_t len, char *out, size_t size)
{
    while (len && is_blank(*s))
        s++, len--;
    while (len && is_blank(s[len - 1]))
        len--;
    if (len >= 2 && ((s[0] == '[' && s[len - 1] == ']') || (s[0] == '(' && s[len - 1] == ')'))) {
        s++;
        len -= 2;
        while (len && is_blank(*s))
            s++, len--;
        while (len && is_blank(s[len - 1]))
            len--;
    }
    if (size == 0)
        return;
    if (len >= size)
        len = size - 1;
    memcpy(out, s, len);
    out[len] = '\0';
}

/* Position of a trailing "[...]" or "(...)" in a name, or the name's length when there is none. */
static size_t unit_suffix_at(const char *name, size_t len)
{
    while (len && is_blank(name[len - 1]))
        len--;
    if (len < 3 || (name[len - 1] != ']' && name[len - 1] != ')'))
        return len;
    char open = name[len - 1] == ']' ? '[' : '(';
    for (size_t i = len - 1; i-- > 0;)
        if (name[i] == open)
            return i > 0 ? i : len; /* a name that is only "(mm)" keeps it */
    return len;
}

// (header name) => unit from a trailing bracket
int hy_csv_unit_in_name(const char *name, char *out, size_t size)
{
    size_t len = strlen(name);
    size_t at = unit_suffix_at(name, len);
    while (len && is_blank(name[len - 1]))
        len--;
    if (at >= len)
        return 0;
    if (!hy_csv_unitlike(name + at + 1, len - at - 2))
        return 0;
    hy_csv_clean_unit(name + at, len - at, out, size);
    return 1;
}

// (a, b) => equal ignoring case and surrounding spaces
int hy_csv_name_equal(const char *a, const char *b)
{
    while (is_blank(*a))
        a++;
    while (is_blank(*b))
        b++;
    size_t la = strlen(a), lb = strlen(b);
    while (la && is_blank(a[la - 1]))
        la--;
    while (lb && is_blank(b[lb - 1]))
        lb--;
    if (la != lb)
        return 0;
    for (size_t i = 0; i < la; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
            return 0;
    return 1;
}

// (header name) => the name without a trailing bracketed unit
void hy_csv_name_base(const char *name, char *out, size_t size)
{
    size_t len = strlen(name);
    size_t at = unit_suffix_at(name, len);
    while (at && is_blank(name[at - 1]))
        at--;
    if (size == 0)
        return;
    if (at >= size)
        at = size - 1;
    memcpy(out, name, at);
    out[at] = '\0';
}

// Messages for JSON text that does not parse (see hyst/util.h): where, and why when the text is well formed but
// nested deeper than the parser allows.
#include <stdio.h>
#include "hyst/util.h"

// (JSON text, where the parser stopped, its nesting limit) => HY_EPARSE with "NAME:LINE:COL: ..."
int hy_json_parse_error(hy_err *err, const char *name, const char *text, size_t len, const char *stop,
                        int nesting_limit, const char *expected)
{
    int line = 1, col = 1, depth = 0, in_string = 0;
    if (!stop || stop < text)
        stop = text;
    if (stop > text + len)
        stop = text + len;
    for (const char *p = text; p < stop && *p; p++) {
        if (*p == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
        if (in_string) {
            if (*p == '\\' && p + 1 < stop && p[1])
                p++, col++;
            else if (*p == '"')
                in_string = 0;
        } else if (*p == '"') {
            in_string = 1;
        } else if (*p == '[' || *p == '{') {
            depth++;
        } else if (*p == ']' || *p == '}') {
            depth--;
        }
    }
    /* cJSON stops at the bracket that would open level limit + 1: the text so far is fine, the depth is not */
    if (depth >= nesting_limit && stop < text + len && (*stop == '[' || *stop == '{'))
        return hy_err_set(err, HY_EPARSE,
                          "%s:%d:%d: JSON nested deeper than %d levels (arrays and objects inside each other), which "
                          "this reader does not follow (expected %s)",
                          name, line, col, nesting_limit, expected);
    return hy_err_set(err, HY_EPARSE, "%s:%d:%d: malformed JSON (expected %s)", name, line, col, expected);
}

// Strict reading of a JSON document (see hyst/util.h): one document and nothing after it, no key twice in an
// object. cJSON accepts both (it stops after the first value and its lookup returns the first of two equal keys),
// so a file with a stray second object or a repeated key would run with values the user did not mean.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/util.h"

static int by_key(const void *a, const void *b)
{
    return strcmp((*(const cJSON *const *)a)->string, (*(const cJSON *const *)b)->string);
}

// (value, its path for messages) => HY_OK, or HY_EPARSE naming the first repeated key
static int unique_keys(const cJSON *v, char *path, size_t plen, size_t cap, const char *name, hy_err *err)
{
    if (!cJSON_IsObject(v) && !cJSON_IsArray(v))
        return HY_OK;
    size_t n = 0;
    for (const cJSON *c = v->child; c; c = c->next)
        n++;
    if (cJSON_IsObject(v) && n > 1) {
        const cJSON **k = malloc(n * sizeof *k);
        if (!k)
            return hy_err_set(err, HY_ENOMEM, "%s: out of memory reading the JSON", name);
        size_t i = 0;
        for (const cJSON *c = v->child; c; c = c->next)
            k[i++] = c;
        qsort(k, n, sizeof *k, by_key);
        for (i = 1; i < n; i++)
            if (strcmp(k[i - 1]->string, k[i]->string) == 0) {
                char key[128];
                hy_msg_text(key, sizeof key, k[i]->string, strlen(k[i]->string), 80);
                int rc = hy_err_set(err, HY_EPARSE, "%s: %s%s\"%s\" appears twice (each key may be given once)",
                                    name, path, plen ? ": " : "", key);
                free(k);
                return rc;
            }
        free(k);
    }
    int idx = 0;
    for (const cJSON *c = v->child; c; c = c->next, idx++) {
        size_t m = plen;
        if (cJSON_IsObject(v))
            m += (size_t)snprintf(path + plen, cap - plen, "%s%.60s", plen ? "." : "", c->string);
        else
            m += (size_t)snprintf(path + plen, cap - plen, "[%d]", idx);
        if (m >= cap)
            m = cap - 1;
        int rc = unique_keys(c, path, m, cap, name, err);
        path[plen] = '\0';
        if (rc != HY_OK)
            return rc;
    }
    return HY_OK;
}

int hy_json_parse_strict(const char *text, size_t len, const char *name, const char *expected, cJSON **doc,
                         hy_err *err)
{
    const char *end = NULL;
    errno = 0; /* cJSON says NULL for bad text and for a failed allocation alike; malloc's errno tells them apart */
    cJSON *d = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    *doc = NULL;
    if (!d && errno == ENOMEM)
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory reading the JSON", name);
    if (!d)
        return hy_json_parse_error(err, name, text, len, end, CJSON_NESTING_LIMIT, expected);
    while (end < text + len && (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n'))
        end++;
    if (end < text + len) {
        cJSON_Delete(d);
        int line = 1, col = 1;
        for (const char *p = text; p < end; p++)
            if (*p == '\n')
                line++, col = 1;
            else
                col++;
        return hy_err_set(err, HY_EPARSE, "%s:%d:%d: text after the JSON document (expected only %s)", name, line,
                          col, expected);
    }
    /* the nesting is at most CJSON_NESTING_LIMIT levels, so the path and the recursion stay bounded */
    char path[1024] = "";
    int rc = unique_keys(d, path, 0, sizeof path, name, err);
    if (rc != HY_OK) {
        cJSON_Delete(d);
        return rc;
    }
    *doc = d;
    return HY_OK;
}

// JSON numbers whose text reads back exactly (see hyst/util.h and hyst/model.h); the text is hy_fmt_exact
// (fmt_shortest.cc).
#include <math.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/model.h"
#include "hyst/util.h"

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

int hy_json_add_exact(struct cJSON *o, const char *key, double v)
{
    cJSON *x = hy_json_exact_number(v);
    if (!x || !cJSON_AddItemToObject(o, key, x)) {
        cJSON_Delete(x);
        return 0;
    }
    return 1;
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

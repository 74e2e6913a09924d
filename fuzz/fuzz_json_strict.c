/* Fuzz harness: hy_json_parse_strict and hy_read_text (libhyst/src/json_strict.c, readtext.c), the entry of every
 * JSON reader of both programs, read through a memfd under a small HYST_READ_MAX.
 * Invariants: hy_read_text gives HY_OK with exactly the input when it fits the limit, else an error (never more
 * than the limit in memory); the parser's status is HY_OK, HY_EPARSE or HY_ENOMEM with a one-line message; a
 * document it accepts has unique keys in every object and, printed by cJSON and parsed again, is accepted again. */
#include <cjson/cJSON.h>
#include "fuzz_util.h"
#include "hyst/util.h"

#define LIMIT 4096

// (value) => 1 when every object below it has unique keys
static int unique(const cJSON *v)
{
    for (const cJSON *a = v ? v->child : NULL; a; a = a->next) {
        if (cJSON_IsObject(v))
            for (const cJSON *b = a->next; b; b = b->next)
                if (strcmp(a->string, b->string) == 0)
                    return 0;
        if (!unique(a))
            return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setenv("HYST_READ_MAX", "4096", 1);
    char path[64];
    int fd = fuzz_memfile(data, size, path, sizeof path);
    char *text;
    size_t len;
    hy_err err;
    fuzz_err_poison(&err);
    int rc = hy_read_text(path, "a fuzz input", 0, &text, &len, &err);
    close(fd);
    if (size > LIMIT) {
        FUZZ_CHECK(rc == HY_EPARSE && !text, "a %zu-byte input over the %d-byte limit was read (rc %d)", size, LIMIT,
                   rc);
        fuzz_check_message(&err);
        return 0;
    }
    FUZZ_CHECK(rc == HY_OK && len == size && memcmp(text, data, size) == 0 && text[len] == '\0',
               "a %zu-byte input was not read back exactly (rc %d)", size, rc);
    cJSON *doc;
    rc = hy_json_parse_strict(text, len, "f.json", "a fuzz object", &doc, &err);
    FUZZ_CHECK(rc == HY_OK || rc == HY_EPARSE || rc == HY_ENOMEM, "unknown status %d", rc);
    if (rc != HY_OK) {
        FUZZ_CHECK(!doc, "a document after an error");
        fuzz_check_message(&err);
        free(text);
        return 0;
    }
    FUZZ_CHECK(unique(doc), "a repeated key accepted");
    char *again = cJSON_PrintUnformatted(doc);
    if (again) {
        cJSON *d2;
        int rc2 = hy_json_parse_strict(again, strlen(again), "again.json", "a fuzz object", &d2, &err);
        FUZZ_CHECK(rc2 == HY_OK || rc2 == HY_ENOMEM, "the printed document is refused: %s", err.msg);
        if (rc2 == HY_OK)
            cJSON_Delete(d2);
        free(again);
    }
    cJSON_Delete(doc);
    free(text);
    return 0;
}

/* hystkit common definitions: status codes and the error record every fallible call fills in.
 *
 * Convention: a function that can fail returns an int status (HY_OK = 0) and takes a `hy_err *err` last,
 * which may be NULL. Messages are complete sentences for the user, starting with where the problem is
 * ("SPC1.csv:17:2: ..." for text inputs, "model.json: positive.forward[3]: ..." for model files). */
#ifndef HYST_COMMON_H
#define HYST_COMMON_H

#include <stddef.h>

enum hy_status {
    HY_OK = 0,
    HY_EARG,     /* bad argument from the caller                                    */
    HY_EIO,      /* a file could not be opened, read or written                     */
    HY_EPARSE,   /* malformed input text (CSV, JSON)                                */
    HY_EDATA,    /* well-formed input that the operation cannot use                 */
    HY_EMODEL,   /* a model that violates the model's assumptions                   */
    HY_ESTATE,   /* a state-machine violation during a simulation                   */
    HY_ERANGE,   /* evaluation outside the model's valid range                      */
    HY_ENUMERIC, /* a numerical method failed (LAPACK info != 0, no convergence)     */
    HY_ENOMEM    /* out of memory                                                   */
};

#define HY_MSG_LEN 512

typedef struct hy_err {
    int  code;             /* enum hy_status                                          */
    char msg[HY_MSG_LEN];  /* one line, no trailing newline                           */
} hy_err;

// (err, code, printf format) => err filled in (when err != NULL); returns code
int hy_err_set(hy_err *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* (text s of len bytes) => printable copy in out (size bytes, NUL-terminated): every control byte (C0, DEL, and
 * the UTF-8 encoded C1 controls U+0080..U+009F) as '?', so that a message stays one line and no escape
 * sequence reaches a terminal; more than max bytes end in "...". out may be s (cleaning in place). Returns the
 * length written. Every message goes through it: hy_err_set, the CSV reader's cells and names, the programs. */
size_t hy_msg_text(char *out, size_t size, const char *s, size_t len, size_t max);
// (message) => hy_msg_text applied in place (every control byte as '?'): whatever a file's names or keys
// hold, a message stays one line and sends nothing to the terminal
void hy_msg_clean(char *msg);

// (err) => err cleared to HY_OK
void hy_err_clear(hy_err *err);

// (code) => short name of the status ("parse error", ...)
const char *hy_status_name(int code);

#endif

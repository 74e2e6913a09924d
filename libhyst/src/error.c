// Error records (see hyst/common.h).
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "hyst/common.h"

// (text) => printable copy for a message (see hyst/common.h)
size_t hy_msg_text(char *out, size_t size, const char *s, size_t len, size_t max)
{
    if (size == 0)
        return 0;
    size_t room = size - 1, n = 0, lead = 0, i = 0;
    if (max > room)
        max = room;
    for (; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c & 0xC0) != 0x80)
            lead = n; /* where the current UTF-8 character starts in out */
        if (n >= max)
            break;
        if (c == 0xC2 && i + 1 < len && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9F) {
            out[n++] = '?'; /* a C1 control such as U+009B (CSI), encoded in two bytes */
            i++;
        } else {
            out[n++] = c < 0x20 || c == 0x7F ? '?' : (char)c;
        }
    }
    if (i < len) { /* cut: no half character, then "..." */
        if (((unsigned char)s[i] & 0xC0) == 0x80)
            n = lead;
        if (n + 3 > room)
            n = room > 3 ? room - 3 : 0;
        size_t k = room - n < 3 ? room - n : 3;
        memcpy(out + n, "...", k);
        n += k;
    }
    out[n] = '\0';
    return n;
}

// (err, code, printf format) => err filled in (when err != NULL); returns code
int hy_err_set(hy_err *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        hy_msg_clean(err->msg);
    }
    return code;
}

// (message) => hy_msg_text in place: every control byte (C0, DEL, the UTF-8 C1 controls) as '?'
void hy_msg_clean(char *msg)
{
    hy_msg_text(msg, strlen(msg) + 1, msg, strlen(msg), SIZE_MAX);
}

// (err) => err cleared to HY_OK
void hy_err_clear(hy_err *err)
{
    if (err) {
        err->code = HY_OK;
        err->msg[0] = '\0';
    }
}

// (code) => short name of the status
const char *hy_status_name(int code)
{
    switch (code) {
    case HY_OK:       return "ok";
    case HY_EARG:     return "bad argument";
    case HY_EIO:      return "input/output error";
    case HY_EPARSE:   return "parse error";
    case HY_EDATA:    return "unusable data";
    case HY_EMODEL:   return "invalid model";
    case HY_ESTATE:   return "state-machine violation";
    case HY_ERANGE:   return "outside the valid range";
    case HY_ENUMERIC: return "numerical failure";
    case HY_ENOMEM:   return "out of memory";
    default:          return "unknown error";
    }
}

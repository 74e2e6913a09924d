// Error records (see hyst/common.h).
#include <stdarg.h>
#include <stdio.h>
#include "hyst/common.h"

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

// (message) => every control byte (newline, escape, ...) replaced by '?' in place
void hy_msg_clean(char *msg)
{
    for (char *c = msg; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
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

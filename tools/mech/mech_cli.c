// Error reporting and number parsing of the `mech` program.
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/common.h"
#include "mech_cli.h"

static void vreport(const char *cmd, const char *pre, const char *post, const char *fmt, va_list ap)
{
    char msg[4096];
    vsnprintf(msg, sizeof msg, fmt, ap);
    hy_msg_text(msg, sizeof msg, msg, strlen(msg), SIZE_MAX); /* one printable line */
    fprintf(stderr, "mech %s: %s%s%s\n", cmd, pre, msg, post);
}

const char *mech_cli_text(const char *s)
{
    static char buf[8][1024];
    static int k;
    char *b = buf[k++ & 7];
    hy_msg_text(b, sizeof buf[0], s ? s : "", s ? strlen(s) : 0, sizeof buf[0] - 4);
    return b;
}

int mech_cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, "", "", fmt, ap);
    va_end(ap);
    return MECH_EXIT_FAIL;
}

int mech_cli_usage(const char *cmd, const char *fmt, ...)
{
    char post[128];
    snprintf(post, sizeof post, " (see 'mech %s --help')", cmd);
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, "", post, fmt, ap);
    va_end(ap);
    return MECH_EXIT_USAGE;
}

void mech_cli_warn(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, "warning: ", "", fmt, ap);
    va_end(ap);
}

int mech_cli_double(const char *cmd, const char *opt, const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end || errno || !isfinite(v)) {
        mech_cli_usage(cmd, "--%s: '%s' is not a finite number", opt, text);
        return -1;
    }
    *out = v;
    return 0;
}

int mech_cli_int(const char *cmd, const char *opt, const char *text, int min, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end || errno || v < min || v > INT_MAX) {
        mech_cli_usage(cmd, "--%s: '%s' is not an integer >= %d", opt, text, min);
        return -1;
    }
    *out = (int)v;
    return 0;
}

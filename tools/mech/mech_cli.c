// Error reporting, number parsing and the option prologue of the `mech` program's commands.
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "hyst/common.h"
#include "mech_cli.h"

static void vreport(const char *cmd, const char *pre, const char *post, const char *fmt, va_list ap)
{
    hy_args_vreport("mech", cmd, pre, post, fmt, ap);   /* the words and layout of both programs (hyst/args.h) */
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

int mech_cli_stdout(const char *cmd, int status)
{
    errno = 0;
    int bad = fflush(stdout) != 0;
    int e = errno;
    bad |= ferror(stdout) != 0;   /* also a write that failed earlier, inside the run */
    if (!bad || status != MECH_EXIT_OK)   /* a failed command has said why (beam's "-" output: "write failed") */
        return status;
    const char *why = e ? strerror(e) : "write error";
    if (cmd)
        mech_cli_fail(cmd, "standard output: %s", why);
    else
        fprintf(stderr, "mech: standard output: %s\n", why);
    return MECH_EXIT_FAIL;
}

int mech_cli_double(const char *cmd, const char *opt, const char *text, double *out)
{
    hy_err err;
    return hy_args_double(opt, text, out, &err) == HY_OK ? 0 : (mech_cli_usage(cmd, "%s", err.msg), -1);
}

int mech_cli_int(const char *cmd, const char *opt, const char *text, int min, int *out)
{
    hy_err err;
    return hy_args_int(opt, text, min, out, &err) == HY_OK ? 0 : (mech_cli_usage(cmd, "%s", err.msg), -1);
}

int mech_cli_output_rate(const char *text, double *rate, int *events, hy_err *err)
{
    if (strcmp(text, "events") == 0) {
        *events = 1;
        return HY_OK;
    }
    double r;
    if (hy_args_double("output-rate", text, &r, err) != HY_OK)
        return HY_EARG;
    if (!(r >= 0))
        return hy_err_set(err, HY_EARG, "--output-rate %s: expected rows a second >= 0 (0: every step) or 'events'",
                          text);
    *rate = r, *events = 0;
    return HY_OK;
}

int mech_cli_parse(const char *cmd, void (*usage)(FILE *), const hy_arg *tab, int argc, char **argv,
                   const char *missing, const char **operand)
{
    hy_err err;
    int help;
    if (hy_args_parse(tab, argc, argv, missing, operand, &help, &err) != HY_OK)
        return mech_cli_usage(cmd, "%s", err.msg);
    if (help) {
        usage(stdout);
        return MECH_EXIT_OK;
    }
    return MECH_CLI_GO;
}

int mech_cli_sub(const char *cmd, void (*usage)(FILE *), int argc, char **argv, const char *const *subs, int *mode,
                 char *name, size_t len)
{
    if (argc < 2) {
        usage(stderr);
        return MECH_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return MECH_EXIT_OK;
    }
    int n = 0;
    *mode = -1;
    for (; subs[n]; n++)
        if (strcmp(argv[1], subs[n]) == 0)
            *mode = n;
    if (*mode < 0) {
        char list[256] = "";
        for (int k = 0; k < n; k++)   /* "freq, sim or lqr" */
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k == 0 ? "" : k == n - 1 ? " or " : ", ",
                     subs[k]);
        return mech_cli_usage(cmd, "unknown command '%s' (expected %s)", argv[1], list);
    }
    snprintf(name, len, "%s %s", cmd, argv[1]);
    return MECH_CLI_GO;
}

/* The command-line layer of both programs (tool_cli.h): messages, exit statuses, the option prologue and numbers.
 * docs/limits-and-outputs.md, "One command-line layer". */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "hyst/common.h"
#include "tool_cli.h"

static const char *program = "hyst";

void tool_cli_init(const char *prog)
{
    program = prog;
}

const char *tool_cli_program(void)
{
    return program;
}

static void vreport(const char *cmd, const char *pre, const char *post, const char *fmt, va_list ap)
{
    hy_args_vreport(program, cmd, pre, post, fmt, ap);   /* the words and layout of both programs (hyst/args.h) */
}

const char *tool_text(const char *s)
{
    static char buf[8][1024];
    static int k;
    char *b = buf[k++ & 7];
    hy_msg_text(b, sizeof buf[0], s ? s : "", s ? strlen(s) : 0, sizeof buf[0] - 4);
    return b;
}

int tool_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, "", "", fmt, ap);
    va_end(ap);
    return TOOL_EXIT_FAIL;
}

int tool_usage(const char *cmd, const char *fmt, ...)
{
    char post[160];
    if (cmd)
        snprintf(post, sizeof post, " (see '%s %s --help')", program, cmd);
    else
        snprintf(post, sizeof post, " (see '%s --help')", program);
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, "", post, fmt, ap);
    va_end(ap);
    return TOOL_EXIT_USAGE;
}

void tool_warn(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, "warning: ", "", fmt, ap);
    va_end(ap);
}

void tool_note(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, "", "", fmt, ap);
    va_end(ap);
}

int tool_stdout(const char *cmd, int status)
{
    errno = 0;
    int bad = fflush(stdout) != 0;
    int e = errno;
    bad |= ferror(stdout) != 0;   /* also a write that failed earlier, inside the run */
    if (!bad || status != TOOL_EXIT_OK)   /* a failed command has said why (beam's "-" output: "write failed") */
        return status;
    const char *why = e ? strerror(e) : "write error";
    if (cmd)
        tool_fail(cmd, "standard output: %s", why);
    else
        fprintf(stderr, "%s: standard output: %s\n", program, why);
    return TOOL_EXIT_FAIL;
}

int tool_double(const char *cmd, const char *opt, const char *text, double *out)
{
    hy_err err;
    return hy_args_double(opt, text, out, &err) == HY_OK ? 0 : (tool_usage(cmd, "%s", err.msg), -1);
}

int tool_int(const char *cmd, const char *opt, const char *text, int min, int *out)
{
    hy_err err;
    return hy_args_int(opt, text, min, out, &err) == HY_OK ? 0 : (tool_usage(cmd, "%s", err.msg), -1);
}

int tool_int_range(const char *cmd, const char *opt, const char *text, int lo, int hi, int *out)
{
    hy_err err;
    return hy_args_int_range(opt, text, lo, hi, out, &err) == HY_OK ? 0 : (tool_usage(cmd, "%s", err.msg), -1);
}

int tool_parse_n(const char *cmd, void (*usage)(FILE *), const hy_arg *tab, int argc, char **argv, int min, int max,
                 const char *missing, int *first, int *count)
{
    hy_err err;
    int help;
    if (hy_args_parse_n(tab, argc, argv, min, max, missing, first, count, &help, &err) != HY_OK)
        return tool_usage(cmd, "%s", err.msg);
    if (help) {
        usage(stdout);
        return TOOL_EXIT_OK;
    }
    return TOOL_CLI_GO;
}

int tool_parse(const char *cmd, void (*usage)(FILE *), const hy_arg *tab, int argc, char **argv, const char *missing,
               const char **operand)
{
    int first = 0, count = 0, n = missing ? 1 : 0;
    int go = tool_parse_n(cmd, usage, tab, argc, argv, n, n, missing, &first, &count);
    if (operand)
        *operand = go == TOOL_CLI_GO && count ? argv[first] : NULL;
    return go;
}

int tool_sub(const char *cmd, void (*usage)(FILE *), int argc, char **argv, const char *const *subs, int *mode,
             char *name, size_t len)
{
    if (argc < 2) {
        usage(stderr);
        return TOOL_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return TOOL_EXIT_OK;
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
        return tool_usage(cmd, "unknown command '%s' (expected %s)", argv[1], list);
    }
    snprintf(name, len, "%s %s", cmd, argv[1]);
    return TOOL_CLI_GO;
}

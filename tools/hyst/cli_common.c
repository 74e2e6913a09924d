// Error reporting and argument parsing shared by the hyst commands.
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "cli.h"
#include "hyst/args.h"
#include "hyst/model.h"
#include "hyst/util.h"

/* One line "hyst COMMAND: message" as the mech commands print theirs (hy_args_vreport, hyst/args.h): the message is
 * made printable (hy_msg_text), since it may quote file names, options and values given by the user. */

// (command, format) => message on stderr; HY_EXIT_FAIL
int hy_cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    hy_args_vreport("hyst", cmd, "", "", fmt, ap);
    va_end(ap);
    return HY_EXIT_FAIL;
}

// (command, format) => usage message on stderr; HY_EXIT_USAGE
int hy_cli_usage(const char *cmd, const char *fmt, ...)
{
    char post[128];
    snprintf(post, sizeof post, " (see 'hyst help %s')", cmd ? cmd : "");
    va_list ap;
    va_start(ap, fmt);
    hy_args_vreport("hyst", cmd, "", post, fmt, ap);
    va_end(ap);
    return HY_EXIT_USAGE;
}

// (command, format) => warning on stderr
void hy_cli_warn(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    hy_args_vreport("hyst", cmd, "warning: ", "", fmt, ap);
    va_end(ap);
}

// (text) => finite double, or a usage message
int hy_cli_double(const char *cmd, const char *opt, const char *text, double *out)
{
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v)) {
        hy_cli_usage(cmd, "--%s: expected a finite number, got '%s'", opt, text);
        return -1;
    }
    *out = v;
    return 0;
}

int hy_cli_write_json(const char *cmd, const char *path, struct cJSON *doc, const char *protect)
{
    char *text = hy_json_print(doc);
    if (!text)
        return hy_cli_fail(cmd, "out of memory writing %s", path);
    hy_atomic a;
    hy_err err;
    int rc = HY_EXIT_OK;
    if (hy_atomic_open(&a, path, protect, &err) != HY_OK) {
        rc = hy_cli_fail(cmd, "%s", err.msg);
    } else {
        fputs(text, a.fp);
        fputc('\n', a.fp);
        if (hy_atomic_commit(&a, &err) != HY_OK)
            rc = hy_cli_fail(cmd, "%s", err.msg);
    }
    free(text);
    return rc;
}

int hy_cli_report_and_model(const char *cmd, const char *report, const char *out)
{
    if (report && strcmp(report, "-") == 0 && strcmp(out, "-") == 0)
        return hy_cli_usage(cmd, "--report - and the model cannot both go to standard output (use -o FILE)");
    if (report && strcmp(report, "-") != 0 && strcmp(out, "-") != 0 && hy_same_file(report, out))
        return hy_cli_usage(cmd, "--report and --output name the same file");
    return HY_EXIT_OK;
}

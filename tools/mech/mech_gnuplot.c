// gnuplot through the shell for the `mech` commands that draw figures (beam, dock).
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "mech_cli.h"

void mech_cli_gp_quote(FILE *fp, const char *t)
{
    fputc('\'', fp);
    for (; *t; t++) {
        if (*t == '\'')
            fputc('\'', fp);
        if ((unsigned char)*t >= 0x20)
            fputc(*t, fp);
    }
    fputc('\'', fp);
}

int mech_cli_run_gnuplot(const char *cmd, const char *script, const char *tmpfig, const char *fig)
{
    char line[8192] = "gnuplot '";
    size_t k = strlen(line);
    for (const char *c = script; *c && k + 8 < sizeof line; c++) {
        if (*c == '\'') {
            memcpy(line + k, "'\\''", 4);   /* ' -> '\'' for the shell */
            k += 4;
        } else {
            line[k++] = *c;
        }
    }
    snprintf(line + k, sizeof line - k, "' 2>&1");
    FILE *pp = popen(line, "r");
    if (!pp)
        return mech_cli_fail(cmd, "%s: cannot run gnuplot", fig);
    char buf[512], first[512] = "";
    while (fgets(buf, sizeof buf, pp))
        if (!first[0] && strspn(buf, " \t\r\n") < strlen(buf)) {
            snprintf(first, sizeof first, "%s", buf + strspn(buf, " \t"));
            first[strcspn(first, "\r\n")] = '\0';
        }
    int st = pclose(pp);
    unlink(script);
    if (st != 0 || access(tmpfig, F_OK) != 0) {
        unlink(tmpfig);
        return mech_cli_fail(cmd, "%s: gnuplot failed (exit status %d)%s%s", fig, WIFEXITED(st) ? WEXITSTATUS(st) : st,
                             first[0] ? ": " : "", first);
    }
    if (rename(tmpfig, fig) != 0) {
        unlink(tmpfig);
        return mech_cli_fail(cmd, "%s: cannot write: %s", fig, strerror(errno));
    }
    return MECH_EXIT_OK;
}

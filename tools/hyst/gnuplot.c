// The pipe to gnuplot and gnuplot script writing (see gnuplot.h).
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gnuplot.h"
#include "hyst/util.h"

// (path) => terminal by extension
int hy_gp_term_for(const char *path)
{
    if (!path)
        return HY_GP_WINDOW;
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return -1;
    if (strcasecmp(dot, ".png") == 0)
        return HY_GP_PNG;
    if (strcasecmp(dot, ".svg") == 0)
        return HY_GP_SVG;
    if (strcasecmp(dot, ".pdf") == 0)
        return HY_GP_PDF;
    return -1;
}

// (terminal) => name for messages
const char *hy_gp_term_name(int term)
{
    switch (term) {
    case HY_GP_PNG: return "PNG";
    case HY_GP_SVG: return "SVG";
    case HY_GP_PDF: return "PDF";
    default: return "window";
    }
}

// (fp, text) => gnuplot single-quoted string
void hy_gp_quote(FILE *fp, const char *s)
{
    fputc('\'', fp);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("''", fp);
        else if ((unsigned char)*s >= 0x20)
            fputc(*s, fp);
    }
    fputc('\'', fp);
}

// (fp, terminal, size, output) => terminal and output lines
void hy_gp_terminal(FILE *fp, int term, int width, int height, const char *out)
{
    /* noenhanced: column names and file names are printed as written (no subscripts from '_') */
    switch (term) {
    case HY_GP_PNG:
        fprintf(fp, "set terminal pngcairo size %d,%d noenhanced font 'sans,10'\n", width, height);
        break;
    case HY_GP_SVG:
        fprintf(fp, "set terminal svg size %d,%d noenhanced font 'sans,10' background rgb 'white'\n", width,
                height);
        break;
    case HY_GP_PDF:
        fprintf(fp, "set terminal pdfcairo size %.4gin,%.4gin noenhanced font 'sans,7'\n",
                width / HY_GP_PX_PER_INCH, height / HY_GP_PX_PER_INCH);
        break;
    default:
        fprintf(fp, "set termoption noenhanced\n");
        return;
    }
    fputs("set output ", fp);
    hy_gp_quote(fp, out);
    fputc('\n', fp);
}

// (fp, name) => datablock start
void hy_gp_block_begin(FILE *fp, const char *name)
{
    fprintf(fp, "$%s << EOD\n", name);
}

// (fp) => datablock end
void hy_gp_block_end(FILE *fp)
{
    fputs("EOD\n", fp);
}

// (fp, v) => number for drawing
void hy_gp_num(FILE *fp, double v)
{
    if (isnan(v))
        fputs("NaN", fp);
    else
        fprintf(fp, "%.10g", v);
}

// (buf, len) => gnuplot program path
int hy_gp_find(char *buf, size_t len)
{
    const char *env = getenv("HYST_GNUPLOT");
    if (env && *env) {
        snprintf(buf, len, "%s", env);
        return access(env, X_OK) == 0 ? 0 : -1;
    }
    const char *path = getenv("PATH");
    snprintf(buf, len, "gnuplot");
    if (!path)
        return -1;
    while (*path) {
        size_t dlen = strcspn(path, ":");
        /* an empty PATH entry means the current directory */
        int n = dlen ? snprintf(buf, len, "%.*s/gnuplot", (int)dlen, path) : snprintf(buf, len, "./gnuplot");
        if (n > 0 && (size_t)n < len && access(buf, X_OK) == 0)
            return 0;
        path += dlen;
        if (*path == ':')
            path++;
    }
    snprintf(buf, len, "gnuplot");
    return -1;
}

// (exe) => popen command line: the path in single quotes for the shell
static void shell_command(const char *exe, const char *tail, char *cmd, size_t len)
{
    size_t k = 0;
    cmd[k++] = '\'';
    for (const char *p = exe; *p && k + 8 < len; p++) {
        if (*p == '\'') {
            memcpy(cmd + k, "'\\''", 4);
            k += 4;
        } else {
            cmd[k++] = *p;
        }
    }
    cmd[k++] = '\'';
    cmd[k] = '\0';
    snprintf(cmd + k, len - k, "%s", tail);
}

// (exe) => 1 when gnuplot lists an interactive terminal
int hy_gp_has_window(const char *exe)
{
    char cmd[4200];
    shell_command(exe, " -e \"print GPVAL_TERMINALS\" 2>&1", cmd, sizeof cmd);
    FILE *p = popen(cmd, "r");
    if (!p)
        return 0;
    char line[4096];
    int found = 0;
    while (fgets(line, sizeof line, p)) {
        for (char *tok = strtok(line, " \t\n"); tok; tok = strtok(NULL, " \t\n"))
            if (strcmp(tok, "qt") == 0 || strcmp(tok, "wxt") == 0 || strcmp(tok, "x11") == 0)
                found = 1;
    }
    pclose(p);
    return found;
}

// (exe, script) => gnuplot run on the script, without a shell and registered with the clean-up (hy_child): a signal
// to this program kills gnuplot before the temporary figure is removed, so gnuplot cannot write it again after
int hy_gp_run(const char *exe, const char *text, size_t len, hy_err *err)
{
    const char *argv[2] = {exe, NULL};
    hy_child ch;
    fflush(NULL);
    if (hy_child_start(&ch, argv, 'w', err) != HY_OK)
        return HY_EIO;
    /* a gnuplot that dies early must not kill us with SIGPIPE: the write fails and the wait tells why */
    struct sigaction ign = {0}, old;
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old);
    size_t put = 0;
    while (ch.fd >= 0 && put < len) {
        ssize_t w = write(ch.fd, text + put, len - put);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        put += (size_t)w;
    }
    int status = hy_child_wait(&ch);
    sigaction(SIGPIPE, &old, NULL);
    if (status == -1)
        return hy_err_set(err, HY_EIO, "%s: %s", exe, strerror(errno));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        return hy_err_set(err, HY_EIO, "%s could not be run (exit status 127)", exe);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        if (WIFSIGNALED(status))
            return hy_err_set(err, HY_EIO, "%s was killed by signal %d", exe, WTERMSIG(status));
        return hy_err_set(err, HY_EIO, "%s failed on the plot script (exit status %d; its message is above)", exe,
                          WEXITSTATUS(status));
    }
    if (put != len)
        return hy_err_set(err, HY_EIO, "%s stopped reading the plot script", exe);
    return HY_OK;
}

/* gnuplot for the `mech` commands that draw figures (beam, dock, friction). A figure is an output like any other:
 * it goes through hy_atomic_open (never an input, a link replaced at its target, a device or FIFO written in
 * place, the mode of a replaced file kept, a unique temporary name renamed into place) and its gnuplot script has
 * a unique name (mkstemp beside the figure), so two runs into one folder never share a file; both temporaries are
 * removed on a signal (hy_cleanup_add). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

int mech_fig_open(const char *cmd, mech_fig *f, const char *path, const char *const *inputs, const char *term)
{
    memset(f, 0, sizeof *f);
    for (int k = 0; inputs && inputs[k]; k++)
        if (strcmp(inputs[k], "-") != 0 && hy_same_file(path, inputs[k]))
            return mech_cli_fail(cmd, "%s: refusing to overwrite an input file with a figure", path);
    hy_err err;
    if (hy_atomic_open(&f->out, path, NULL, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    if (f->out.is_stdout) {
        hy_atomic_abort(&f->out);
        return mech_cli_usage(cmd, "%s: a figure needs a file name", path);
    }
    /* the script beside the figure, named as its temporaries are (FIGURE.tmpXXXXXX): a run killed by SIGKILL leaves
       it in the output folder, where the next run's clean-up of stale temporaries removes it (mech_out_sweep),
       never in $TMPDIR (issue 42, N25); only a figure written in place (a FIFO, a device) has its script there */
    const char *td = getenv("TMPDIR");
    if (f->out.direct || snprintf(f->script, sizeof f->script, "%s.tmpXXXXXX", f->out.target) >= (int)sizeof f->script)
        snprintf(f->script, sizeof f->script, "%s/mech-gnuplot-XXXXXX", td && *td ? td : "/tmp");
    hy_cleanup_hold(1);
    int fd = mkstemp(f->script);
    if (fd >= 0)
        hy_cleanup_add(f->script);   /* removed on a signal */
    hy_cleanup_hold(0);
    if (fd < 0 || !(f->fp = fdopen(fd, "w"))) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
            unlink(f->script);
            hy_cleanup_remove(f->script);
        }
        hy_atomic_abort(&f->out);
        return mech_cli_fail(cmd, "%s: cannot create the gnuplot script: %s", f->script, strerror(e));
    }
    fprintf(f->fp, "set terminal %s\nset output ", term);
    mech_cli_gp_quote(f->fp, f->out.direct ? f->out.path : f->out.tmp);   /* gnuplot writes the temporary file */
    fputc('\n', f->fp);
    return MECH_EXIT_OK;
}

void mech_fig_abort(mech_fig *f)
{
    if (f->fp) {
        fclose(f->fp);
        f->fp = NULL;
    }
    if (f->script[0]) {
        unlink(f->script);
        hy_cleanup_remove(f->script);
        f->script[0] = '\0';
    }
    hy_atomic_abort(&f->out);
}

int mech_fig_run(const char *cmd, mech_fig *f)
{
    const char *fig = f->out.path;
    fputs("set output\n", f->fp);
    int bad = fclose(f->fp) != 0;
    f->fp = NULL;
    if (bad) {
        mech_fig_abort(f);
        return mech_cli_fail(cmd, "%s: cannot write the gnuplot script", fig);
    }
    const char *gp = getenv("HYST_GNUPLOT");
    if (!gp || !*gp)
        gp = "gnuplot";
    /* run without a shell and registered with the clean-up (hy_child): a signal to this program kills gnuplot
       before the temporary figure is removed, so gnuplot cannot write it again after */
    const char *argv[3] = {gp, f->script, NULL};
    hy_child ch;
    hy_err cerr;
    if (hy_child_start(&ch, argv, 'r', &cerr) != HY_OK) {
        mech_fig_abort(f);
        return mech_cli_fail(cmd, "%s: cannot run gnuplot: %s", fig, cerr.msg);
    }
    FILE *pp = ch.fd >= 0 ? fdopen(ch.fd, "r") : NULL;
    char buf[512], first[512] = "";
    while (pp && fgets(buf, sizeof buf, pp))
        if (!first[0] && strspn(buf, " \t\r\n") < strlen(buf)) {
            snprintf(first, sizeof first, "%s", buf + strspn(buf, " \t"));
            first[strcspn(first, "\r\n")] = '\0';
        }
    if (pp) {
        fclose(pp);   /* closes ch.fd */
        ch.fd = -1;
    }
    int st = hy_child_wait(&ch);
    unlink(f->script);
    hy_cleanup_remove(f->script);
    f->script[0] = '\0';
    if (st != 0) {
        hy_atomic_abort(&f->out);
        return mech_cli_fail(cmd, "%s: gnuplot failed (exit status %d)%s%s", fig, WIFEXITED(st) ? WEXITSTATUS(st) : st,
                             first[0] ? ": " : "", first);
    }
    /* gnuplot wrote the temporary file through its own descriptor: the commit syncs and renames it */
    hy_err err;
    if (hy_atomic_commit(&f->out, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    return MECH_EXIT_OK;
}

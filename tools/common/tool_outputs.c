/* The output rules of the commands of both programs (any new command gets them by calling these): an output file is
 * never an input and is written atomically (a temporary registered with the signal clean-up, renamed at the end); two
 * outputs of one run are never one file; and for the commands that write a folder of files (dock, sweep): the
 * folder made, one run at a time per folder (a lock), and a rerun that leaves nothing of an earlier run beside its
 * new summary (the files this command owns by name and did not write this time are removed once the run has
 * committed its own, so an interrupted or failed rerun still leaves the earlier outputs), and no earlier figure
 * beside new data: a rerun that has simulated removes the earlier run's figures before its first commit
 * (tool_out_clear), so an interruption between its summary and its figures leaves none (issue 42, N22). */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tool_cli.h"

#define NOTED_MAX 256

static char noted[NOTED_MAX][128];
static int nnoted;

int tool_out_open(const char *cmd, hy_atomic *a, const char *path, const char *protect, const char *const *others)
{
    hy_err err;
    for (int k = 0; others && others[k] && strcmp(path, "-") != 0; k++)
        if (others[k][0] && hy_same_file(path, others[k]))
            return tool_fail(cmd, "%s: refusing to overwrite an input file", path);
    if (hy_atomic_open(a, path, protect, &err) != HY_OK)
        return tool_fail(cmd, "%s", err.msg);
    return TOOL_EXIT_OK;
}

int tool_out_commit(const char *cmd, hy_atomic *a)
{
    hy_err err;
    if (hy_atomic_commit(a, &err) != HY_OK)
        return tool_fail(cmd, "%s", err.msg);
    return TOOL_EXIT_OK;
}

int tool_out_distinct(const char *cmd, int n, const char *const *paths, const char *const *names)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            const char *a = paths[i], *b = paths[j];
            if (a && b && strcmp(a, "-") && strcmp(b, "-") && (strcmp(a, b) == 0 || hy_same_file(a, b)))
                return tool_usage(cmd, "%s and %s name the same file '%s'", names[i], names[j], b);
        }
    return TOOL_EXIT_OK;
}

int tool_out_one_stdout(const char *cmd, int n, const char *const *paths, const char *const *names)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (paths[i] && paths[j] && strcmp(paths[i], "-") == 0 && strcmp(paths[j], "-") == 0)
                return tool_usage(cmd, "%s and %s both write to standard output ('-')", names[i], names[j]);
    return TOOL_EXIT_OK;
}

int tool_out_mkdir(const char *cmd, const char *dir)
{
    char buf[4200];
    if (!dir[0] || snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
        return tool_fail(cmd, "'%s': not a usable output folder name", dir);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || !*p) {
            char c = *p;
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return tool_fail(cmd, "%s: cannot create the output folder: %s", buf, strerror(errno));
            *p = c;
            if (!c)
                break;
        }
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return tool_fail(cmd, "%s: not a folder", dir);
    return TOOL_EXIT_OK;
}

int tool_out_lock(const char *cmd, hy_dir_lock *l, const char *dir)
{
    hy_err err;
    if (hy_dir_lock_take(l, dir, &err) != HY_OK)
        return tool_fail(cmd, "%s", err.msg);
    return TOOL_EXIT_OK;
}

void tool_out_note(const char *path)
{
    const char *b = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (nnoted < NOTED_MAX && strlen(b) < sizeof noted[0])
        snprintf(noted[nnoted++], sizeof noted[0], "%s", b);
}

// (entry name, owned patterns) => 1 when the name is this command's output or a temporary file of one
static int owned(const char *name, const char *const *patterns)
{
    char base[256];
    snprintf(base, sizeof base, "%s", name);
    /* hy_atomic_open's temporary: NAME.tmpXXXXXX, left by a run that was killed (SIGKILL, power loss) */
    size_t n = strlen(base);
    int tmp = n > 10 && strncmp(base + n - 10, ".tmp", 4) == 0;
    if (tmp)
        base[n - 10] = '\0';
    for (int k = 0; patterns[k]; k++)
        if (fnmatch(patterns[k], base, 0) == 0)
            return 1 + tmp;
    return 0;
}

/* (command, folder, patterns, with_tmp: the temporaries too, regular: regular files only, report: a warning with the
 * count) => the matching files this run has not noted removed */
static int sweep(const char *cmd, const char *dir, const char *const *patterns, int with_tmp, int regular, int report)
{
    DIR *d = opendir(dir);
    if (!d)
        return TOOL_EXIT_OK;
    int removed = 0;
    for (struct dirent *e; (e = readdir(d));) {
        int own = owned(e->d_name, patterns);
        if (!own || (own == 2 && !with_tmp))   /* this run's own temporaries are open until their commit */
            continue;
        int kept = 0;
        for (int k = 0; own == 1 && k < nnoted && !kept; k++)
            kept = strcmp(noted[k], e->d_name) == 0;
        if (kept)
            continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (regular && (lstat(path, &st) != 0 || !S_ISREG(st.st_mode)))
            continue;   /* a link or a device at an output path is the user's: written through, never removed */
        if (unlink(path) == 0)
            removed++;
    }
    closedir(d);
    if (removed && report)
        tool_warn(cmd, "%s: removed %d file(s) of an earlier run that this run did not write", dir, removed);
    return TOOL_EXIT_OK;
}

int tool_out_clear(const char *cmd, const char *dir, const char *const *patterns)
{
    return sweep(cmd, dir, patterns, 0, 1, 0);
}

int tool_out_sweep(const char *cmd, const char *dir, const char *summary, const char *const *patterns)
{
    int done = 0;   /* only a run that wrote its summary replaces the earlier run's files */
    for (int k = 0; k < nnoted && !done; k++)
        done = strcmp(noted[k], summary) == 0;
    return done ? sweep(cmd, dir, patterns, 1, 0, 1) : TOOL_EXIT_OK;
}

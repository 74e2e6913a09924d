/* mech sweep PLAN.json: capture envelopes and Monte Carlo over any key of a dock scenario (docs/sweep.md).
 * The runs go through the library (libmech/src/sweep), on forked workers (-j N) or MPI ranks (mpirun), ids handed
 * out one at a time. Each finished run is appended to DIR/journal.csv at once (the journal is what --resume
 * reads after a kill); at the end the table is sorted by run id into DIR/results.csv, so it is the same for any
 * number of workers and after any interruption. summary.json, the figures and the full outputs of chosen runs
 * (`mech dock` on the run's scenario, the same call as --rerun) follow. One sweep per folder: DIR/.lock. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <libdeflate.h>
#include "hyst/model.h"
#include "hyst/util.h"
#include "mech/dock.h"
#include "mech/sweep.h"
#include "mech_cli.h"
#include "sweep_pool.h"
#include "sweep_report.h"
#include <gsl/gsl_cdf.h>

static const char *const cmd = "sweep";

static void usage(FILE *fp)
{
    fputs("usage: mech sweep PLAN.json [--out DIR] [-j N] [--resume] [--force] [--rerun ID] [OPTIONS]\n"
          "       mpirun -n N mech sweep PLAN.json [...]\n"
          "\n"
          "Runs a dock scenario many times with the keys a plan varies (\"mech-sweep\" JSON, docs/sweep.md): grids,\n"
          "Monte Carlo samples (uniform, normal, truncated normal, log-normal, weighted choice; random, Latin\n"
          "hypercube or scrambled Sobol), or an adaptive capture envelope over two grid keys. Other plan kinds:\n"
          "Sobol indices (\"sobol\"), Morris screening (\"morris\"), a rare failure probability by subset\n"
          "simulation (\"subset\"), the qualification matrix of named cases x design variants (\"cases\").\n"
          "\n"
          "Outputs, in DIR (default out/PLAN-STEM):\n"
          "  results.csv     one row per run, sorted by run id: the varied values, status, capture and its time, cone\n"
          "                  contacts, peak head forces, peak limiter force, stroke, swing, energies, steps, message\n"
          "  journal.csv     the same rows in the order they finished (what --resume continues from)\n"
          "  summary.json    counts, capture probability with its 95 % Wilson interval, Spearman rank correlation of\n"
          "                  each metric with each varied key, the envelope's run counts, the worst runs\n"
          "  envelope.png, peak-map.png, peaks.png   gnuplot figures\n"
          "  runs/ID/        the full `mech dock` outputs of the worst runs (plan \"keep\") and scenario.json\n"
          "\n"
          "options:\n"
          "      --out DIR     output folder (created when missing)\n"
          "  -j, --jobs N      worker processes (default 1)\n"
          "      --resume      continue an interrupted sweep in DIR: finished runs are kept, the rest run\n"
          "      --force       run a plan that makes more runs than its max_runs (default 10000)\n"
          "      --rerun ID    only the full outputs of run ID into DIR/runs/ID (the files the sweep writes)\n"
          "      --no-plots    no figures\n"
          "      --h5          also results.h5: the table (/results) and the summary (attributes of /), for h5py\n"
          "  -q, --quiet       no report on standard output (the progress line shows only on a terminal)\n"
          "  -h, --help        this help\n"
          "\n"
          "Exit status: 0 success (failed runs are rows, not errors), 1 bad plan or output folder, 2 bad usage.\n",
          fp);
}

/* ---------- the output folder ---------- */

// (folder) => an exclusive lock on DIR/.lock held until the process ends (flock: released by the kernel on a kill)
static int lock_dir(const char *dir, int *fd)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/.lock", dir);
    *fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (*fd < 0)
        return mech_cli_fail(cmd, "%s: cannot create the lock: %s", path, strerror(errno));
    if (flock(*fd, LOCK_EX | LOCK_NB) != 0) {
        char pid[32] = "";
        ssize_t n = pread(*fd, pid, sizeof pid - 1, 0);
        pid[n > 0 ? n : 0] = '\0';
        pid[strcspn(pid, "\n")] = '\0';
        close(*fd);
        return mech_cli_fail(cmd, "%s: another sweep is writing into this folder (pid %s, lock %s); wait for it or "
                             "use another --out", dir, pid[0] ? pid : "?", path);
    }
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(*fd, 0) != 0 || pwrite(*fd, pid, (size_t)n, 0) != n) {
        /* the pid is only for the message of a second sweep */
    }
    return MECH_EXIT_OK;
}

/* (folder, held under the lock) => the temporary files of this command's own outputs that a killed sweep left
 * (hy_atomic_open's NAME.tmpXXXXXX, N25) removed: no other sweep can be writing them while the lock is held, and
 * only these exact names are touched */
static void clean_stale(const char *dir)
{
    static const char *const own[] = {"results.csv", "summary.json", "envelope.csv", "journal.csv", "envelope.png",
                                      "peak-map.png", "peaks.png", NULL};
    DIR *d = opendir(dir);
    if (!d)
        return;
    int removed = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        for (int k = 0; own[k]; k++) {
            size_t m = strlen(own[k]);
            if (n == m + 10 && strncmp(e->d_name, own[k], m) == 0 && strncmp(e->d_name + m, ".tmp", 4) == 0) {
                char path[4400];
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                removed += unlink(path) == 0;
            }
        }
    }
    closedir(d);
    if (removed)   /* a warning: shown with -q too, as the journal's */
        mech_cli_warn(cmd, "%s: removed %d temporary file(s) a killed sweep left", dir, removed);
}

/* ---------- rows ---------- */

typedef struct row {
    unsigned char have, failed;
    double m[MECH_SWEEP_NMETRIC];
    char *msg;
} row;

typedef struct sweep {
    const mech_sweep_plan *p;
    const char *dir;
    row *rows;
    long done, nfailed, total;   /* total: runs this sweep will have when complete (envelope: grows) */
    int jfd;                     /* journal.csv, O_APPEND                                                     */
    off_t jend;                  /* its length after the last whole row                                      */
    long journalled;             /* rows in it                                                               */
    int progress, quiet;
    double t0;
    long done0;                  /* rows from the journal at the start */
    int stopped;                 /* a write error or a changed law file stopped the sweep (stop_msg)          */
    signed char *env_state;      /* envelope plans: the filled grid's capture state (1, 0) at every point       */
    char stop_msg[HY_MSG_LEN * 2];
    mech_subset ss;              /* a subset plan's result (its arrays freed) */
    int h5;                      /* --h5: results.h5 too */
    int have_ss;
} sweep;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void put_num(FILE *fp, double v, int integer)
{
    char b[40];
    if (!isfinite(v))
        return;   /* NAN: an empty field */
    if (integer)
        fprintf(fp, "%.0f", v);
    else {
        hy_fmt_exact(b, sizeof b, v);
        fputs(b, fp);
    }
}

static int metric_is_int(int m)
{
    return m == MECH_SWEEP_M_CAPTURED || m == MECH_SWEEP_M_CONE_CONTACTS || m == MECH_SWEEP_M_STEPS ||
           m == MECH_SWEEP_M_LATCHES_CLOSED;
}

static void put_header(FILE *fp, const mech_sweep_plan *p)
{
    fputs("run", fp);
    for (int k = 0; k < p->nkey + p->nderived; k++)
        fprintf(fp, ",%s", p->key[k].path);
    fputs(",status", fp);
    for (int m = 0; m < MECH_SWEEP_NMETRIC; m++)
        fprintf(fp, ",%s", mech_sweep_metric_name(m));
    fputs(",message\n", fp);
}

static void put_quoted(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', fp);
        if ((unsigned char)*s >= 0x20)
            fputc(*s, fp);
    }
    fputc('"', fp);
}

static void put_row(FILE *fp, const mech_sweep_plan *p, long id, const row *r)
{
    fprintf(fp, "%ld", id);
    for (int k = 0; k < p->nkey + p->nderived; k++) {
        double x;
        const char *s;
        mech_sweep_plan_value(p, id, k, &x, &s);
        fputc(',', fp);
        if (s)
            put_quoted(fp, s);
        else
            put_num(fp, x, 0);
    }
    fputs(r->failed ? ",failed" : ",ok", fp);
    for (int m = 0; m < MECH_SWEEP_NMETRIC; m++) {
        fputc(',', fp);
        put_num(fp, r->m[m], metric_is_int(m));
    }
    fputc(',', fp);
    if (r->failed)
        put_quoted(fp, r->msg ? r->msg : "");
    fputc('\n', fp);
}

static void progress(sweep *w, int last)
{
    if (!w->progress)
        return;
    double dt = now() - w->t0, rate = dt > 0 ? (double)(w->done - w->done0) / dt : 0;
    long left = w->total - w->done;
    fprintf(stderr, "\rmech sweep: %ld/%ld runs, %ld failed, %.3g runs/s, ETA %.0f s   ", w->done, w->total,
            w->nfailed, rate, rate > 0 ? (double)left / rate : 0.0);
    if (last)
        fputc('\n', stderr);
    fflush(stderr);
}

static void keep(sweep *w, const mech_sweep_result *r)
{
    row *x = &w->rows[r->run];
    x->have = 1;
    x->failed = (unsigned char)r->failed;
    memcpy(x->m, r->m, sizeof x->m);
    x->msg = r->failed ? strdup(r->msg) : NULL;
    w->done++;
    w->nfailed += r->failed;
}

static int atomic_open(const char *dir, const char *name, const mech_sweep_plan *p, hy_atomic *a);

/* ---------- the journal (docs/sweep.md §Nothing is lost) ----------
 * Line 1 names the plan by its hash (plan, base scenario, law files), then one "# file" line per law file the runs
 * read (its key, content hash and path: a replaced file is named on --resume), the column header, and the rows in
 * the order the runs finished. Each row is the results.csv row plus a last field, the CRC-32 (libdeflate) of the
 * row's text seeded with the plan's hash, and goes out in one write() (O_APPEND): a row torn by a full disk or a
 * kill, or a row of another plan's journal, fails its check on --resume, is reported (file:line) and runs again.
 * The sweep stops at its first write error. fsync policy: none per row (a killed process loses nothing the kernel
 * has; a row lost or torn by a power cut is caught by its check and rerun), fdatasync once before results.csv. */

static unsigned row_seed(const mech_sweep_plan *p)
{
    char h[17];
    snprintf(h, sizeof h, "%016llx", (unsigned long long)p->hash);
    return (unsigned)libdeflate_crc32(0, h, 16);
}

// (plan, run, row) => the journal line: the results.csv row with ",CRC" before its newline (malloc'd)
static char *journal_line(const mech_sweep_plan *p, long id, const row *r, size_t *len)
{
    char *t = NULL;
    size_t n = 0;
    FILE *fp = open_memstream(&t, &n);
    if (!fp)
        return NULL;
    put_row(fp, p, id, r);
    if (fclose(fp) != 0 || n < 1) {
        free(t);
        return NULL;
    }
    char *l = realloc(t, n + 16);
    if (!l) {
        free(t);
        return NULL;
    }
    n--;   /* the newline */
    *len = n + (size_t)snprintf(l + n, 16, ",%08x\n", (unsigned)libdeflate_crc32(row_seed(p), l, n));
    return l;
}

// (sweep, run) => its row appended to the journal in one write; 0, or -1 with w->stop_msg (the sweep stops)
static int journal_append(sweep *w, long id)
{
    size_t len;
    char *l = journal_line(w->p, id, &w->rows[id], &len);
    if (!l) {
        snprintf(w->stop_msg, sizeof w->stop_msg, "out of memory writing the journal");
        return -1;
    }
    ssize_t k;
    do
        k = write(w->jfd, l, len);
    while (k < 0 && errno == EINTR);
    free(l);
    if (k == (ssize_t)len) {
        w->jend += (off_t)len;
        return 0;
    }
    char why[128];
    if (k < 0)
        snprintf(why, sizeof why, "%s", strerror(errno));
    else
        snprintf(why, sizeof why, "only %zd of its %zu bytes written (disk full?)", k, len);
    /* the torn row is cut if the file system lets us; if not, its check refuses it on --resume */
    int cut = ftruncate(w->jfd, w->jend) == 0;
    snprintf(w->stop_msg, sizeof w->stop_msg, "%s/journal.csv: cannot append the row of run %ld: %s; the sweep "
             "stopped at this first write error with %ld runs in the journal%s: make room and continue with --resume",
             w->dir, id, why, w->journalled, cut ? "" : " (the torn row could not be cut: --resume drops it)");
    return -1;
}

static int on_done(void *ctx, const mech_sweep_result *r)
{
    sweep *w = ctx;
    if (w->stopped)   /* runs that finish after a stop are not journalled: --resume runs them again */
        return 1;
    if (r->fatal) {   /* a law file changed under the sweep (N16): stop, never mix two laws in a table */
        snprintf(w->stop_msg, sizeof w->stop_msg, "run %ld: %s", r->run, r->msg);
        w->stopped = 1;
        return 1;
    }
    if (r->run < 0 || r->run >= w->p->nrun || w->rows[r->run].have)
        return 0;
    keep(w, r);
    if (journal_append(w, r->run) != 0) {
        w->stopped = 1;
        return 1;
    }
    w->journalled++;
    progress(w, 0);
    return 0;
}

// (line) => CSV fields split in place (quotes removed, "" -> "); returns the count
static int split_csv(char *s, char **f, int max)
{
    int n = 0;
    for (;;) {
        if (n == max)
            return n;
        if (*s == '"') {
            char *o = ++s;
            f[n++] = o;
            for (;;) {
                if (!*s)
                    break;
                if (*s == '"' && s[1] == '"') {
                    *o++ = '"', s += 2;
                } else if (*s == '"') {
                    s++;
                    break;
                } else {
                    *o++ = *s++;
                }
            }
            *o = '\0';
            if (*s == ',') {
                s++;
                continue;
            }
            return n;
        }
        f[n++] = s;
        char *c = strchr(s, ',');
        if (!c)
            return n;
        *c = '\0';
        s = c + 1;
    }
}

// (plan) => the journal's head: the plan line, one line per law file, the column header (malloc'd)
static char *journal_head(const mech_sweep_plan *p, size_t *first)
{
    char *t = NULL;
    size_t n = 0;
    FILE *fp = open_memstream(&t, &n);
    if (!fp)
        return NULL;
    fprintf(fp, "# mech-sweep journal 2, plan %016llx, %ld runs, %d law files\n", (unsigned long long)p->hash,
            p->nrun, p->nfile);
    fflush(fp);
    *first = n;
    for (int k = 0; k < p->nfile; k++)
        fprintf(fp, "# file %s %016llx %s\n", p->files[k].key, (unsigned long long)p->files[k].hash,
                p->files[k].path);
    put_header(fp, p);
    fputs(",check\n", fp);   /* put_header ended the line: the check column is added below */
    if (fclose(fp) != 0) {
        free(t);
        return NULL;
    }
    /* "...,message\n,check\n" -> "...,message,check\n" */
    char *m = strstr(t, ",message\n,check\n");
    if (m)
        memmove(m + 8, m + 9, strlen(m + 9) + 1);
    return t;
}

// (line 1 of a journal that is not this plan's, the journal) => the message naming a law file that changed, if any
static void changed_file(const mech_sweep_plan *p, FILE *fp, const char *path, char *msg, size_t len)
{
    char *line = NULL;
    size_t cap = 0;
    long lineno = 1;
    while (getline(&line, &cap, fp) > 0 && strncmp(line, "# file ", 7) == 0) {
        lineno++;
        char key[64], file[4096];
        unsigned long long h;
        if (sscanf(line, "# file %63s %llx %4095[^\n]", key, &h, file) != 3)
            continue;
        for (int k = 0; k < p->nfile; k++)
            if (strcmp(p->files[k].path, file) == 0 && p->files[k].hash != (uint64_t)h) {
                snprintf(msg, len, "%s:%ld: %s %s changed since the sweep started (its content differs from the "
                         "one the journal's rows were made with): --resume refused, so that no table mixes two laws; "
                         "restore the file, or start a new sweep in another --out", path, lineno, key, file);
                free(line);
                return;
            }
    }
    free(line);
}

static int open_journal(sweep *w, int resume)
{
    const mech_sweep_plan *p = w->p;
    char path[4200];
    size_t first = 0;
    snprintf(path, sizeof path, "%s/journal.csv", w->dir);
    char *head = journal_head(p, &first);
    if (!head)
        return mech_cli_fail(cmd, "out of memory");
    FILE *fp = fopen(path, "r");
    if (!fp && errno != ENOENT) {
        free(head);
        return mech_cli_fail(cmd, "%s: cannot open: %s", path, strerror(errno));
    }
    if (fp && !resume) {
        fclose(fp);
        free(head);
        return mech_cli_fail(cmd, "%s: holds a sweep already (journal.csv): --resume continues it, or choose another "
                             "--out", w->dir);
    }
    int status = MECH_EXIT_OK, rewrite = !fp;
    long dropped = 0;
    if (fp) {
        /* resume: the rows whose check holds are finished runs; a torn last line (killed while writing) is cut, a
           torn or foreign row anywhere is reported and dropped (its run runs again) */
        char *line = NULL;
        size_t cap = 0;
        ssize_t n;
        long lineno = 0, nhead = 2 + p->nfile;
        int ncol = p->nkey + p->nderived, nf = 2 + ncol + MECH_SWEEP_NMETRIC + 1;
        char **f = malloc((size_t)(nf + 1) * sizeof *f);
        off_t good = 0;
        unsigned seed = row_seed(p);
        if (!f)
            status = mech_cli_fail(cmd, "out of memory");
        while (status == MECH_EXIT_OK && (n = getline(&line, &cap, fp)) > 0) {
            lineno++;
            if (line[n - 1] != '\n')
                break;   /* the torn last line: cut below */
            if (lineno == 1 && (strncmp(line, head, first) != 0 || (size_t)n != first)) {
                char msg[10000] = "";
                changed_file(p, fp, path, msg, sizeof msg);
                status = msg[0] ? mech_cli_fail(cmd, "%s", msg)
                                : mech_cli_fail(cmd, "%s: was written by another plan (or another version of the scenario "
                                                "or of mech): --resume needs the same plan; choose another --out", path);
                break;
            }
            if (lineno <= nhead) {
                good = ftello(fp);
                continue;
            }
            line[n - 1] = '\0';
            char *c = strrchr(line, ',');
            unsigned check = 0;
            char *end = NULL;
            if (c) {
                check = (unsigned)strtoul(c + 1, &end, 16);
                *c = '\0';
            }
            if (!c || end != c + 9 || *end || check != (unsigned)libdeflate_crc32(seed, line, (size_t)(c - line))) {
                mech_cli_warn(cmd, "%s:%ld: a torn or foreign row (its check does not match its text): dropped, its "
                              "run runs again", path, lineno);
                dropped++;
                continue;
            }
            int k = split_csv(line, f, nf + 1);
            long id = strtol(f[0], &end, 10);
            if (k != nf || *end || id < 0 || id >= p->nrun) {
                status = mech_cli_fail(cmd, "%s:%ld: not a row of this sweep", path, lineno);
                break;
            }
            /* the values must be the ones this program computes for that run: a journal of an older mech (another
               sampler) would pair the metrics with other values */
            /* (a subset plan's values come from the earlier runs' results: the replay of its levels computes them) */
            for (int k2 = 0; k2 < ncol && !p->live_u; k2++) {
                char v[64];
                FILE *mf = fmemopen(v, sizeof v, "w");
                double x;
                const char *s;
                mech_sweep_plan_value(p, id, k2, &x, &s);
                if (mf) {
                    if (s)
                        fputs(s, mf);
                    else
                        put_num(mf, x, 0);
                    fclose(mf);
                }
                if (!mf || strncmp(v, f[1 + k2], sizeof v - 1) != 0) {
                    status = mech_cli_fail(cmd, "%s:%ld: run %ld has %s = %s, but this plan gives %s: the journal was "
                                           "written by another version of mech; choose another --out", path, lineno,
                                           id, p->key[k2].path, f[1 + k2], v);
                    break;
                }
            }
            if (status != MECH_EXIT_OK)
                break;
            mech_sweep_result r;
            memset(&r, 0, sizeof r);
            r.run = id;
            r.failed = strcmp(f[1 + ncol], "failed") == 0;
            for (int m = 0; m < MECH_SWEEP_NMETRIC; m++) {
                const char *t = f[2 + ncol + m];
                r.m[m] = *t ? strtod(t, NULL) : NAN;
            }
            snprintf(r.msg, sizeof r.msg, "%s", f[nf - 1]);
            if (!w->rows[id].have) {
                keep(w, &r);
                w->journalled++;
            }
            good = ftello(fp);
        }
        free(line);
        free(f);
        fclose(fp);
        if (status == MECH_EXIT_OK && lineno <= nhead)
            rewrite = 1;   /* killed before the head was complete: start over */
        else if (status == MECH_EXIT_OK && dropped)
            rewrite = 2;   /* rows dropped inside the file: the journal is written again from the kept rows */
        else if (status == MECH_EXIT_OK && truncate(path, good) != 0)
            status = mech_cli_fail(cmd, "%s: cannot cut the torn last row: %s", path, strerror(errno));
    }
    if (status == MECH_EXIT_OK && rewrite) {
        hy_atomic a;
        status = atomic_open(w->dir, "journal.csv", p, &a);
        if (status == MECH_EXIT_OK) {
            fputs(head, a.fp);
            for (long id = 0; rewrite == 2 && id < p->nrun; id++)
                if (w->rows[id].have) {
                    size_t len;
                    char *l = journal_line(p, id, &w->rows[id], &len);
                    if (l)
                        fwrite(l, 1, len, a.fp);
                    else
                        fputs("(out of memory)\n", a.fp);   /* fails its check: the run runs again */
                    free(l);
                }
            status = mech_out_commit(cmd, &a);
        }
    }
    free(head);
    if (status != MECH_EXIT_OK)
        return status;
    w->jfd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    struct stat st;
    if (w->jfd < 0 || fstat(w->jfd, &st) != 0)
        return mech_cli_fail(cmd, "%s: cannot open for appending: %s", path, strerror(errno));
    w->jend = st.st_size;
    w->done0 = w->done;
    return MECH_EXIT_OK;
}

/* ---------- outputs ---------- */

// (folder, file name, plan) => DIR/NAME opened atomically, never over the plan or its base scenario
static int atomic_open(const char *dir, const char *name, const mech_sweep_plan *p, hy_atomic *a)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    const char *others[] = {p->scenario, NULL};
    return mech_out_open(cmd, a, path, p->path, others);
}

static int write_results(const sweep *w)
{
    hy_atomic a;
    if (atomic_open(w->dir, "results.csv", w->p, &a) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    put_header(a.fp, w->p);
    for (long id = 0; id < w->p->nrun; id++)
        if (w->rows[id].have)
            put_row(a.fp, w->p, id, &w->rows[id]);
    return mech_out_commit(cmd, &a);
}

/* the worst runs by the plan's metric (largest first, ties by id), then the ids the plan names */
static int chosen_runs(const sweep *w, long *ids)
{
    const mech_sweep_plan *p = w->p;
    int n = 0;
    for (int k = 0; k < p->keep_worst; k++) {
        long best = -1;
        for (long id = 0; id < p->nrun; id++) {
            const row *r = &w->rows[id];
            if (!r->have || r->failed || !isfinite(r->m[p->keep_metric]))
                continue;
            int taken = 0;
            for (int j = 0; j < n; j++)
                taken |= ids[j] == id;
            if (!taken && (best < 0 || r->m[p->keep_metric] > w->rows[best].m[p->keep_metric]))
                best = id;
        }
        if (best < 0)
            break;
        ids[n++] = best;
    }
    for (int k = 0; k < p->nkeep_ids; k++) {
        int taken = 0;
        for (int j = 0; j < n; j++)
            taken |= ids[j] == p->keep_ids[k];
        if (p->live_u && !w->rows[p->keep_ids[k]].have)   /* a subset plan's id its levels never reached: no values */
            continue;
        if (!taken)
            ids[n++] = p->keep_ids[k];
    }
    return n;
}

static cJSON *num_or_null(double v)
{
    return isfinite(v) ? hy_json_exact_number(v) : cJSON_CreateNull();
}

/* the finished rows as the report functions take them (sweep_report.h); NULL when out of memory */
static unsigned char *table_of(const sweep *w, sw_table *t, double **mv)
{
    const mech_sweep_plan *p = w->p;
    unsigned char *hv = malloc((size_t)p->nrun * 2);
    *mv = malloc((size_t)p->nrun * MECH_SWEEP_NMETRIC * sizeof **mv);
    if (!hv || !*mv) {
        free(hv), free(*mv);
        return NULL;
    }
    for (long id = 0; id < p->nrun; id++) {
        hv[id] = w->rows[id].have, hv[p->nrun + id] = w->rows[id].failed;
        memcpy(*mv + (size_t)id * MECH_SWEEP_NMETRIC, w->rows[id].m, sizeof w->rows[id].m);
    }
    *t = (sw_table){p->nrun, hv, hv + p->nrun, *mv};
    return hv;
}

static int write_summary(const sweep *w, const long *kept, int nkept, long full_grid)
{
    const mech_sweep_plan *p = w->p;
    long ok = 0, cap = 0;
    for (long id = 0; id < p->nrun; id++)
        if (w->rows[id].have) {
            ok += !w->rows[id].failed;
            cap += w->rows[id].m[MECH_SWEEP_M_CAPTURED] == 1;
        }
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "plan", hy_display_name(p->path));
    cJSON_AddStringToObject(doc, "scenario", p->scenario);
    cJSON_AddNumberToObject(doc, "runs", (double)w->done);
    cJSON_AddNumberToObject(doc, "ok", (double)ok);
    cJSON_AddNumberToObject(doc, "failed", (double)w->nfailed);
    cJSON_AddNumberToObject(doc, "captured", (double)cap);
    /* the capture probability over every run (a failed run counts as its capture flag); a probability only when
       the runs are samples of distributions: over a grid it is the fraction of grid points. An envelope's runs are
       chosen near the boundary, not a sample (issue 43 D2): its fraction is over the whole grid as the envelope
       classified it (measured or filled), and no interval and no probability is given. A Sobol plan's probability
       is over its A matrix (N independent points: the A_B^i rows repeat them in all but one key); a subset plan's
       runs and a qualification matrix's cases are not a sample of the distributions: a count only */
    double lo = NAN, hi = NAN, frac = w->done ? (double)cap / (double)w->done : NAN;
    long grid_cap = 0, nsamp = w->done, cap_s = cap;
    if (p->envelope && w->env_state) {
        for (long id = 0; id < p->nrun; id++)
            grid_cap += w->env_state[id] == 1;
        frac = (double)grid_cap / (double)p->nrun;
    }
    if (p->kind == MECH_SWEEP_KIND_SOBOL) {
        cap_s = nsamp = 0;
        for (long id = 0; id < p->design_n; id++)
            if (w->rows[id].have)
                nsamp++, cap_s += w->rows[id].m[MECH_SWEEP_M_CAPTURED] == 1;
        frac = nsamp ? (double)cap_s / (double)nsamp : NAN;
    }
    int sample = p->kind != MECH_SWEEP_KIND_SUBSET && p->kind != MECH_SWEEP_KIND_QUAL;
    cJSON *cp = cJSON_AddObjectToObject(doc, !sample ? "capture_count" : p->ndist > 0 && p->kind != MECH_SWEEP_KIND_MORRIS
                                                                             ? "capture_probability" : "capture_fraction");
    if (p->kind == MECH_SWEEP_KIND_SOBOL)
        cJSON_AddNumberToObject(cp, "runs", (double)nsamp);
    if (!sample) {
        cJSON_AddNumberToObject(cp, "captured", (double)cap);
        cJSON_AddStringToObject(cp, "method", "the runs are not a sample of the distributions (the levels of subset "
                                "simulation, or named cases): a count, no probability");
    } else {
        cJSON_AddItemToObject(cp, "p", num_or_null(frac));
    }
    if (p->envelope) {
        cJSON_AddNumberToObject(cp, "grid_points", (double)p->nrun);
        cJSON_AddNumberToObject(cp, "grid_points_captured", (double)grid_cap);
        cJSON_AddStringToObject(cp, "method", "the fraction of the grid's points the adaptive envelope classifies as "
                                "captured (measured or filled); the envelope's runs are chosen near the boundary, "
                                "so they are not a sample: no probability and no interval");
    } else if (sample) {
        mech_sweep_wilson(cap_s, nsamp, 1.959963984540054, &lo, &hi);
        cJSON *ci = cJSON_AddArrayToObject(cp, "ci95");
        cJSON_AddItemToArray(ci, hy_json_exact_number(lo));
        cJSON_AddItemToArray(ci, hy_json_exact_number(hi));
        cJSON_AddStringToObject(cp, "method", "Wilson score interval, 95 %");
    }
    if (p->envelope) {
        cJSON *e = cJSON_AddObjectToObject(doc, "envelope");
        cJSON_AddNumberToObject(e, "runs", (double)w->done);
        cJSON_AddNumberToObject(e, "full_grid_runs", (double)full_grid);
        cJSON_AddNumberToObject(e, "levels", p->levels);
        cJSON *g = cJSON_AddArrayToObject(e, "grid");
        cJSON_AddItemToArray(g, cJSON_CreateNumber(p->key[0].n));
        cJSON_AddItemToArray(g, cJSON_CreateNumber(p->key[1].n));
    }
    /* Spearman's rank correlation of each metric with each varied key, over the runs that did not fail */
    cJSON *sens = cJSON_AddObjectToObject(doc, "sensitivity");
    cJSON_AddStringToObject(sens, "method", "Spearman rank correlation over the runs that did not fail");
    double *x = malloc((size_t)(p->nrun ? p->nrun : 1) * sizeof *x), *y = malloc((size_t)(p->nrun ? p->nrun : 1) * sizeof *y);
    if (!x || !y) {
        free(x), free(y);
        cJSON_Delete(doc);
        return mech_cli_fail(cmd, "out of memory");
    }
    /* a second table against |value|: a miss, an angle or a rate acts through its magnitude whatever its sign,
       and a plain rank correlation of such a symmetric effect is ~0 */
    cJSON *sabs = cJSON_AddObjectToObject(doc, "sensitivity_magnitude");
    cJSON_AddStringToObject(sabs, "method", "Spearman rank correlation with |value| over the runs that did not fail");
    if (p->envelope) {   /* D2: only what the whole grid gives: the capture flag of every point, measured or filled */
        cJSON_ReplaceItemInObject(sens, "method", cJSON_CreateString(
            "Spearman rank correlation of the capture flag over every grid point as the adaptive envelope classifies "
            "it (measured or filled); the other metrics exist only at the runs the envelope chose near the "
            "boundary, which are not a sample: no sensitivity is given for them"));
        cJSON_ReplaceItemInObject(sabs, "method", cJSON_CreateString(
            "Spearman rank correlation of the capture flag with |value| over every grid point, as above"));
    }
    for (int m = 0; m < 2 * MECH_SWEEP_NMETRIC && sample; m++) {   /* (a biased sample or named cases: none) */
        int mag = m >= MECH_SWEEP_NMETRIC, mm = m % MECH_SWEEP_NMETRIC;
        if (mm == MECH_SWEEP_M_STEPS || (p->envelope && mm != MECH_SWEEP_M_CAPTURED))
            continue;
        cJSON *mo = cJSON_AddObjectToObject(mag ? sabs : sens, mech_sweep_metric_name(mm));
        for (int k = 0; k < p->nkey; k++) {
            size_t n = 0;
            for (long id = 0; id < p->nrun; id++) {
                const row *r = &w->rows[id];
                if (p->envelope && w->env_state) {   /* every grid point */
                    const char *s;
                    mech_sweep_plan_value(p, id, k, &x[n], &s);
                    if (mag)
                        x[n] = fabs(x[n]);
                    y[n++] = w->env_state[id] == 1;
                    continue;
                }
                if (!r->have || r->failed || !isfinite(r->m[mm]))
                    continue;
                const char *s;
                mech_sweep_plan_value(p, id, k, &x[n], &s);   /* strings: x is the index in the list */
                if (mag)
                    x[n] = fabs(x[n]);
                y[n++] = r->m[mm];
            }
            cJSON_AddItemToObject(mo, p->key[k].path, num_or_null(mech_sweep_spearman(x, y, n)));
        }
    }
    free(x), free(y);
    /* the plan kind's own results (Sobol' indices, Morris effects, the failure probability, the matrix) */
    sw_table tab;
    double *mv;
    unsigned char *hv = table_of(w, &tab, &mv);
    if (!hv) {
        cJSON_Delete(doc);
        return mech_cli_fail(cmd, "out of memory");
    }
    if (p->kind != MECH_SWEEP_KIND_PLAIN && p->kind != MECH_SWEEP_KIND_ENVELOPE) {
        int rs = sw_report(cmd, p, &tab, w->have_ss ? &w->ss : NULL, w->dir, doc, w->quiet);
        if (rs != MECH_EXIT_OK) {
            free(hv), free(mv);
            cJSON_Delete(doc);
            return rs;
        }
    }
    cJSON *wk = cJSON_AddArrayToObject(doc, "kept_runs");
    for (int k = 0; k < nkept; k++) {
        cJSON *o = cJSON_CreateObject();
        char dir[64];
        snprintf(dir, sizeof dir, "runs/%ld", kept[k]);
        cJSON_AddNumberToObject(o, "run", (double)kept[k]);
        cJSON_AddStringToObject(o, "metric", mech_sweep_metric_name(p->keep_metric));
        cJSON_AddItemToObject(o, "value", num_or_null(w->rows[kept[k]].m[p->keep_metric]));
        cJSON_AddStringToObject(o, "outputs", dir);
        cJSON_AddItemToArray(wk, o);
    }
    char *txt = hy_json_print(doc);
    int st = MECH_EXIT_OK;
    if (txt && w->h5)   /* results.h5: the table and the summary (after its text: the writer edits its numbers) */
        st = sw_report_h5(cmd, p, &tab, w->dir, doc);
    free(hv), free(mv);
    cJSON_Delete(doc);
    if (!txt)
        return mech_cli_fail(cmd, "out of memory");
    hy_atomic a;
    if (st == MECH_EXIT_OK)
        st = atomic_open(w->dir, "summary.json", p, &a);
    if (st == MECH_EXIT_OK) {
        fputs(txt, a.fp);
        st = mech_out_commit(cmd, &a);
    }
    free(txt);
    if (!w->quiet && p->envelope) {
        printf("mech sweep %s: %ld runs (%ld failed), captured %ld; the envelope classifies %ld of the grid's %ld "
               "points as captured (%.4g; a fraction of the grid, not a probability)\n", hy_display_name(p->path),
               w->done, w->nfailed, cap, grid_cap, p->nrun, frac);
    } else if (!w->quiet && p->ndist > 0 && sample && p->kind != MECH_SWEEP_KIND_MORRIS) {
        char of[64] = "";   /* a Sobol plan's probability is over its A matrix */
        if (p->kind == MECH_SWEEP_KIND_SOBOL)
            snprintf(of, sizeof of, " of the %ld runs of A", nsamp);
        printf("mech sweep %s: %ld runs (%ld failed), captured %ld%s: p = %.4g, 95 %% interval [%.4g, %.4g]\n",
               hy_display_name(p->path), w->done, w->nfailed, cap_s, of, nsamp ? (double)cap_s / (double)nsamp : 0.0,
               lo, hi);
    } else if (!w->quiet) {
        printf("mech sweep %s: %ld runs (%ld failed), captured %ld\n", hy_display_name(p->path), w->done, w->nfailed,
               cap);
    }
    return st;
}

/* ---------- figures ---------- */

/* (sweep, figure name, a file of the folder inlined as $g or NULL, a writer of more data blocks or NULL, the plot
 * commands) => the figure */
static int figure(const sweep *w, const char *name, const char *extra, void (*blocks)(const sweep *, FILE *),
                  const char *body)
{
    /* checked and written as every other output, from a uniquely named script (mech_fig_open, mech_gnuplot.c) */
    char fig[4200];
    snprintf(fig, sizeof fig, "%s/%s", w->dir, name);
    mech_fig f;
    int st = mech_fig_open(cmd, &f, fig, NULL, "pngcairo size 900,650 noenhanced font 'sans,10'");
    if (st != MECH_EXIT_OK)
        return st;
    FILE *fp = f.fp;
    fputs("set datafile separator ','\nset key outside below\nset grid\n", fp);
    fputs("$d << EOD\n", fp);
    /* the data inline, not results.csv by name: a folder name with quotes needs no escaping twice */
    const mech_sweep_plan *p = w->p;
    for (long id = 0; id < p->nrun; id++)
        if (w->rows[id].have)
            put_row(fp, p, id, &w->rows[id]);
    fputs("EOD\n", fp);
    if (extra) {   /* the envelope's filled grid (envelope.csv, without its header) */
        char path[4200], line[512];
        snprintf(path, sizeof path, "%s/%s", w->dir, extra);
        FILE *in = fopen(path, "r");
        fputs("$g << EOD\n", fp);
        if (in && fgets(line, sizeof line, in))
            while (fgets(line, sizeof line, in))
                fputs(line, fp);
        fputs("EOD\n", fp);
        if (in)
            fclose(in);
    }
    if (blocks)
        blocks(w, fp);
    fputs(body, fp);
    return mech_fig_run(cmd, &f);
}

// (key) => 1 when its values are strings (a choice of law files): no axis of a figure
static int string_key(const mech_sweep_key *k)
{
    return k->choice && cJSON_IsString(cJSON_GetArrayItem(k->choice, 0));
}

/* (key) => its axis label: the last component of the path with '_' as spaces and the unit of the scenario key
 * (mech_dock_key_unit): "initial.closing_speed" -> "closing speed (m/s)", "initial.pitch_deg" -> "pitch (deg)",
 * "vehicles.active.inertia.1" -> "active inertia[1] (kg m^2)" */
static void axis_label(const mech_sweep_key *k, char *out, size_t len)
{
    char b[MECH_SWEEP_KEY_LEN], name[MECH_SWEEP_KEY_LEN + 8];
    snprintf(b, sizeof b, "%s", k->path);
    char *last = strrchr(b, '.'), *idx = NULL;
    if (last && last[1] >= '0' && last[1] <= '9') {   /* an array element: the array's name and [index] */
        idx = last + 1;
        *last = '\0';
        last = strrchr(b, '.');
    }
    const char *nm = last ? last + 1 : b;
    if (idx && last && last > b) {   /* "vehicles.active.inertia.1": the owner too ("active inertia[1]") */
        *last = '\0';
        const char *own = strrchr(b, '.') ? strrchr(b, '.') + 1 : b;
        snprintf(name, sizeof name, "%s %s[%s]", own, nm, idx);
    } else {
        snprintf(name, sizeof name, "%s", nm);
    }
    size_t n = strlen(name);
    if (n > 4 && strcmp(name + n - 4, "_deg") == 0)   /* the unit says it */
        name[n - 4] = '\0';
    for (char *c = name; *c; c++)
        if (*c == '_')
            *c = ' ';
    const char *u = mech_dock_key_unit(k->path);
    if (u && *u)
        snprintf(out, len, "%s (%s)", name, u);
    else
        snprintf(out, len, "%s", name);
}

// (plan) => 1 when it is exactly two grid keys of numbers, run once each: its runs are the points of one grid
static int two_grid_keys(const mech_sweep_plan *p)
{
    return p->nkey == 2 && p->nsample == 1 && p->key[0].grid && p->key[1].grid && !p->key[0].choice &&
           !p->key[1].choice;
}

/* (sweep, figure stream or NULL to count only) => "$b" of the capture boundary, when the runs (or the envelope's
 * filled grid) give capture on the whole grid of the two keys: the plan is exactly those two grid keys. Marching
 * squares on the capture flag: in each cell the boundary joins the midpoints of the edges whose ends differ (both
 * pairings of a saddle cell keep its two equal corners apart). Returns the number of segments. */
static int boundary(const sweep *w, FILE *fp)
{
    const mech_sweep_plan *p = w->p;
    if (!two_grid_keys(p))
        return 0;
    int nx = p->key[0].n, ny = p->key[1].n, nseg = 0;
    const double *x = p->key[0].values, *y = p->key[1].values;
    for (long id = 0; id < (long)nx * ny; id++)
        if (!(w->env_state ? w->env_state[id] >= 0 : w->rows[id].have))
            return 0;   /* a point without a state (an unfinished grid) */
    if (fp)
        fputs("$b << EOD\n", fp);
    for (int i = 0; i + 1 < nx; i++)
        for (int j = 0; j + 1 < ny; j++) {
            int c[4];   /* corners (i,j) (i+1,j) (i+1,j+1) (i,j+1), counter-clockwise */
            const int di[4] = {0, 1, 1, 0}, dj[4] = {0, 0, 1, 1};
            for (int k = 0; k < 4; k++) {
                long id = (long)(i + di[k]) * ny + j + dj[k];
                c[k] = w->env_state ? w->env_state[id] == 1 : w->rows[id].m[MECH_SWEEP_M_CAPTURED] == 1;
            }
            double px[4], py[4];
            int n = 0;
            for (int k = 0; k < 4; k++) {   /* edge k joins corner k and k + 1 */
                int k2 = (k + 1) % 4;
                if (c[k] == c[k2])
                    continue;
                px[n] = 0.5 * (x[i + di[k]] + x[i + di[k2]]);
                py[n] = 0.5 * (y[j + dj[k]] + y[j + dj[k2]]);
                n++;
            }
            for (int s = 0; fp && s + 1 < n; s += 2) {
                char a[40], b[40], c2[40], d[40];
                hy_fmt_exact(a, sizeof a, px[s]), hy_fmt_exact(b, sizeof b, py[s]);
                hy_fmt_exact(c2, sizeof c2, px[s + 1]), hy_fmt_exact(d, sizeof d, py[s + 1]);
                fprintf(fp, "%s,%s\n%s,%s\n\n", a, b, c2, d);
            }
            nseg += n / 2;
        }
    if (fp)
        fputs("EOD\n", fp);
    return nseg;
}

/* (sweep, figure stream or NULL to count only, capture class 1 / 0) => "$c1" (or "$c0"): the peak axial head force in
 * kN at every point of the grid of the plan's two grid keys whose run captured (did not capture), in gnuplot's grid
 * order (one block per value of the first key, the second key's values in each), NaN at every other point: the other
 * class, a point the envelope filled without a run, a failed run. gnuplot contours each class on the grid's own cells
 * (`set contour base`, no dgrid3d): it splits each cell into two triangles and draws a level only through triangles
 * whose three corners have values. So no level is invented where no run was made or a run failed, nor across the
 * capture boundary, where the peak force jumps (a latched capture against a bounce: 5.4 kN against 0.49 kN at
 * 4.5 deg, 0.15 m/s in test-envelope-full.json), docs/sweep.md §Figures. Returns the number of cells with at least
 * three values of the class (0: nothing to contour; a splot of a grid without a value would fail). */
// (sweep, capture class 1 / 0, run) => its peak axial force in kN when it ran, did not fail and is of the class; NaN
static double class_value(const sweep *w, int cls, long id)
{
    const row *r = &w->rows[id];
    return r->have && !r->failed && (r->m[MECH_SWEEP_M_CAPTURED] == 1) == cls ? r->m[MECH_SWEEP_M_PEAK_AXIAL] / 1000
                                                                              : NAN;
}

static int contour_grid(const sweep *w, FILE *fp, int cls)
{
    const mech_sweep_plan *p = w->p;
    if (!two_grid_keys(p))
        return 0;
    int nx = p->key[0].n, ny = p->key[1].n, ncell = 0;
    const double *x = p->key[0].values, *y = p->key[1].values;
    for (int i = 0; i + 1 < nx; i++)
        for (int j = 0; j + 1 < ny; j++) {
            long id = (long)i * ny + j;
            int n = 0;
            for (int k = 0; k < 4; k++)   /* corners (i,j) (i,j+1) (i+1,j) (i+1,j+1) */
                n += isfinite(class_value(w, cls, id + (k >> 1) * ny + (k & 1)));
            ncell += n >= 3;
        }
    if (!fp || ncell == 0)
        return ncell;
    fprintf(fp, "$c%d << EOD\n", cls);
    for (int i = 0; i < nx; i++) {
        for (int j = 0; j < ny; j++) {
            char a[40], b[40], c[40];
            double z = class_value(w, cls, (long)i * ny + j);
            hy_fmt_exact(a, sizeof a, x[i]), hy_fmt_exact(b, sizeof b, y[j]);
            if (isfinite(z))
                hy_fmt_exact(c, sizeof c, z);
            else
                snprintf(c, sizeof c, "NaN");
            fprintf(fp, "%s,%s,%s\n", a, b, c);
        }
        if (i + 1 < nx)
            fputc('\n', fp);
    }
    fputs("EOD\n", fp);
    return ncell;
}

/* the envelope figure's data: the boundary ($b) and the peak axial force of each capture class on the grid ($c1, $c0) */
static void envelope_blocks(const sweep *w, FILE *fp)
{
    boundary(w, fp);
    contour_grid(w, fp, 1);
    contour_grid(w, fp, 0);
}

static void histogram(const sweep *w, FILE *fp, int m, const char *name);
static void histogram_blocks(const sweep *w, FILE *fp)
{
    histogram(w, fp, MECH_SWEEP_M_PEAK_AXIAL, "$h1");
    histogram(w, fp, MECH_SWEEP_M_PEAK_LATERAL, "$h2");
    histogram(w, fp, MECH_SWEEP_M_PEAK_LIMITER, "$h3");
}

/* (sweep, figure stream, metric, block name) => "$NAME" with one row per bin of the metric in kN over the runs that
 * did not fail: centre, count, width. Every bin is listed, the empty ones with 0, and drawn at its own width, so an
 * empty bin is a gap (issue 43 D3); 20 bins over [min, max], the maximum in the last. */
static void histogram(const sweep *w, FILE *fp, int m, const char *name)
{
    const mech_sweep_plan *p = w->p;
    enum { NB = 20 };
    double lo = INFINITY, hi = -INFINITY;
    long cnt[NB] = {0};
    for (long id = 0; id < p->nrun; id++)
        if (w->rows[id].have && !w->rows[id].failed && isfinite(w->rows[id].m[m]))
            lo = fmin(lo, w->rows[id].m[m] / 1000), hi = fmax(hi, w->rows[id].m[m] / 1000);
    double width = hi > lo ? (hi - lo) / NB : 0.05;
    if (!(hi > lo))
        lo -= 0.5 * NB * width;   /* one value: it sits in the middle bin */
    for (long id = 0; id < p->nrun; id++)
        if (w->rows[id].have && !w->rows[id].failed && isfinite(w->rows[id].m[m])) {
            long b = (long)floor((w->rows[id].m[m] / 1000 - lo) / width);
            cnt[b < 0 ? 0 : b >= NB ? NB - 1 : b]++;
        }
    fprintf(fp, "%s << EOD\n", name);
    for (int b = 0; b < NB; b++) {
        char c[40], d[40];
        hy_fmt_exact(c, sizeof c, lo + (b + 0.5) * width);
        hy_fmt_exact(d, sizeof d, width);
        fprintf(fp, "%s,%ld,%s\n", c, cnt[b], d);
    }
    fputs("EOD\n", fp);
}

/* the figures (docs/sweep.md §Figures): axes named with their units, captured / not captured told apart by marker
 * shape as well as by a colour-blind-safe colour (Okabe-Ito blue and vermillion), the frame kept off the points,
 * the envelope's boundary as a line, the colour bar labelled (a perceptually uniform palette that reads in grey) */
static int plots(const sweep *w)
{
    const mech_sweep_plan *p = w->p;
    long ok = 0;
    for (long id = 0; id < p->nrun; id++)
        ok += w->rows[id].have && !w->rows[id].failed;
    if (ok < 2)   /* nothing to draw (gnuplot refuses a plot without a point) */
        return MECH_EXIT_OK;
    char b[8192];
    int st = 2 + p->nkey + p->nderived, mc = st + 1;   /* gnuplot columns: 1 run, 2.. keys, status, metrics */
    static const char frame[] = "set offsets graph 0.04, graph 0.04, graph 0.04, graph 0.04\n";
    if (p->fig_x >= 0 && !string_key(&p->key[p->fig_x]) && !string_key(&p->key[p->fig_y])) {
        int cx = 2 + p->fig_x, cy = 2 + p->fig_y;
        char xl[300], yl[300];
        axis_label(&p->key[p->fig_x], xl, sizeof xl);
        axis_label(&p->key[p->fig_y], yl, sizeof yl);
        /* the envelope's filled grid first (small squares: filled = captured, open = not), the boundary, the
           measured runs over them; a failed run is a cross over its captured / not captured point */
        char grid[1024] = "", bline[160] = "";
        if (p->envelope)
            snprintf(grid, sizeof grid,
                     "$g using (column(4) == 1 ? column(%d) : NaN):%d with points pt 5 ps 0.8 lc rgb '#9ecae1' "
                     "title 'captured (filled, not run)', $g using (column(4) == 0 ? column(%d) : NaN):%d with points "
                     "pt 4 ps 0.8 lc rgb '#f4a582' title 'no capture (filled, not run)', ",
                     2 + p->fig_x, 2 + p->fig_y, 2 + p->fig_x, 2 + p->fig_y);
        int nseg = p->fig_x == 0 && p->fig_y == 1 ? boundary(w, NULL) : 0;
        if (nseg > 0)
            snprintf(bline, sizeof bline, "$b using 1:2 with lines lw 2 lc rgb 'black' title 'capture boundary', ");
        /* the peak axial force as contour lines over the grid's points, captured and not captured runs apart
           (contour_grid): gnuplot tabulates the levels of $cN into $kN (whitespace-separated fields, w(k) reads the
           k-th; one block per line piece), and the middle point of each piece into $lN, where the piece is labelled
           with its level in kN on an opaque box; the lines dark grey, thinner than the black boundary (reads in grey) */
        char cset[2048] = "", cline[1024] = "";
        size_t cn = 0, ln = 0;
        for (int cls = 1; p->fig_x == 0 && p->fig_y == 1 && cls >= 0; cls--) {
            if (contour_grid(w, NULL, cls) == 0)
                continue;
            if (cn == 0)
                cn += (size_t)snprintf(cset + cn, sizeof cset - cn,
                                       "set contour base\nunset surface\nset cntrparam linear levels auto 8\n"
                                       "set style textbox opaque noborder margins 1,1\nw(k) = real(word(strcol(1), k))\n");
            cn += (size_t)snprintf(cset + cn, sizeof cset - cn,
                                   "set table $k%d\nsplot $c%d using 1:2:3 with lines notitle\nunset table\n"
                                   "set print $l%d\nprint '# the middle point of each contour piece'\nn = 0\n"
                                   "do for [i=1:|$k%d|] { l = $k%d[i]; if (words(l) == 3 && strstrt(l, '#') == 0) { "
                                   "n = n + 1; if (n == 1) { s = i } } else { if (n > 0) { print $k%d[s + (n - 1) / 2] }; "
                                   "n = 0 } }\nif (n > 0) { print $k%d[s + (n - 1) / 2] }\nunset print\n",
                                   cls, cls, cls, cls, cls, cls, cls);
            if (ln == 0)   /* the key's entry on its own: a class without a level in its range draws nothing */
                ln += (size_t)snprintf(cline, sizeof cline, "keyentry with lines lw 1.2 lc rgb '#555555' title 'peak "
                                       "axial head force (kN): contours, captured and not captured runs apart', ");
            ln += (size_t)snprintf(cline + ln, sizeof cline - ln,
                                   "$k%d using (w(1)):(w(2)) with lines lw 1.2 lc rgb '#555555' notitle, $l%d using "
                                   "(w(1)):(w(2)):(sprintf('%%g kN', w(3))) with labels boxed font 'sans,8' tc rgb "
                                   "'#222222' notitle, ",
                                   cls, cls);
        }
        if (cn)
            cn += (size_t)snprintf(cset + cn, sizeof cset - cn, "unset contour\n");
        snprintf(b, sizeof b,
                 "set title 'capture over %ld runs%s'\nset xlabel '%s'\nset ylabel '%s'\n%s%s"
                 "plot %s%s%s$d using (column(%d) == 1 ? column(%d) : NaN):%d with points pt 7 ps 0.9 "
                 "lc rgb '#0072b2' title 'captured', "
                 "$d using (column(%d) == 0 ? column(%d) : NaN):%d with points pt 8 ps 1.0 lw 1.5 "
                 "lc rgb '#d55e00' title 'no capture', "
                 "$d using (strcol(%d) eq 'failed' ? column(%d) : NaN):%d with points pt 2 ps 1.4 lw 1.5 lc rgb "
                 "'black' title 'run failed'\n",
                 w->done, p->envelope ? " (adaptive envelope)" : "", xl, yl, frame, cset, grid, cline, bline, mc,
                 cx, cy, mc, cx, cy, st, cx, cy);
        if (figure(w, "envelope.png", p->envelope ? "envelope.csv" : NULL,
                   nseg > 0 || cset[0] ? envelope_blocks : NULL, b) !=
            MECH_EXIT_OK)
            return MECH_EXIT_FAIL;
        snprintf(b, sizeof b,
                 "set title 'peak axial head force'\nset xlabel '%s'\nset ylabel '%s'\n%s"
                 "set cblabel 'peak axial head force (kN)'\n"
                 "set palette defined (0 '#440154', 1 '#3b528b', 2 '#21918c', 3 '#5ec962', 4 '#fde725')\n"
                 "plot $d using (strcol(%d) eq 'ok' ? column(%d) : NaN):%d:(column(%d) / 1000) with points pt 5 "
                 "ps 1.2 lc palette title 'run (colour: peak axial force)', "
                 "$d using (strcol(%d) eq 'failed' ? column(%d) : NaN):%d with points pt 2 ps 1.4 lw 1.5 "
                 "lc rgb 'black' title 'run failed'\n",
                 xl, yl, frame, st, cx, cy, mc + MECH_SWEEP_M_PEAK_AXIAL, st, cx, cy);
        if (figure(w, "peak-map.png", NULL, NULL, b) != MECH_EXIT_OK)
            return MECH_EXIT_FAIL;
    }
    if (sw_report_figures(cmd, p, w->dir) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    /* the histograms: bins computed here (every bin, empty ones too), forces in kN so the tick labels stay short */
    snprintf(b, sizeof b,
             "set multiplot layout 1,3 title 'peak loads over the %ld runs that did not fail'\nset key off\n"
             "set ylabel 'runs'\nset style fill solid 0.6 border lc rgb 'black'\nset yrange [0:*]\n"
             "set xtics nomirror\nset offsets graph 0.02, graph 0.02, graph 0.05, 0\n"
             "set xlabel 'peak axial head force (kN)'\nplot $h1 using 1:2:3 with boxes lc rgb '#0072b2'\n"
             "set xlabel 'peak lateral head force (kN)'\nplot $h2 using 1:2:3 with boxes lc rgb '#0072b2'\n"
             "set xlabel 'peak limiter force (kN)'\nplot $h3 using 1:2:3 with boxes lc rgb '#0072b2'\n"
             "unset multiplot\n",
             ok);
    return figure(w, "peaks.png", NULL, histogram_blocks, b);
}

/* ---------- full outputs of one run: `mech dock` on its scenario ---------- */

static int rerun(const mech_sweep_plan *p, const char *dir, long id, int quiet)
{
    char rdir[4200], path[4300];
    snprintf(rdir, sizeof rdir, "%s/runs/%ld", dir, id);
    if (mech_out_mkdir(cmd, rdir) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    hy_err err;
    char *txt = mech_sweep_scenario(p, id, &err);
    if (!txt)
        return mech_cli_fail(cmd, "run %ld: %s", id, err.msg);
    /* the scenario as the dock parser reads it, printed back with its model files' paths resolved (absolute):
       it runs from any folder */
    mech_dock_config c;
    mech_dock_config_default(&c);
    const char *sdir, *scen = mech_sweep_run_scenario(p, id, &sdir);   /* a qualification plan: the variant's */
    int rc = mech_dock_config_parse(txt, strlen(txt), hy_display_name(scen), sdir, &c, &err);
    free(txt);
    char *out = rc == HY_OK ? mech_dock_config_print(&c, &err) : NULL;
    mech_dock_config_free(&c);
    if (!out)
        return mech_cli_fail(cmd, "run %ld: %s", id, err.msg);
    snprintf(path, sizeof path, "%s/scenario.json", rdir);
    hy_atomic a;
    if (mech_out_open(cmd, &a, path, p->path, NULL) != MECH_EXIT_OK) {
        free(out);
        return MECH_EXIT_FAIL;
    }
    fputs(out, a.fp);
    free(out);
    if (mech_out_commit(cmd, &a) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    char *argv[] = {"dock", path, "--out", rdir, "-q", NULL};
    fflush(stdout);
    int st = mech_cmd_dock(5, argv);
    if (!quiet)
        printf("mech sweep: run %ld: full outputs in %s%s\n", id, rdir, st ? " (the run failed: see its summary)" : "");
    return st == MECH_EXIT_USAGE ? MECH_EXIT_FAIL : MECH_EXIT_OK;   /* a failed simulation keeps its outputs */
}

/* ---------- the sweep ---------- */

// (finished envelope) => DIR/envelope.csv: every grid point, its capture state and whether a run measured it
static int write_envelope(const sweep *w, const mech_sweep_envelope *e)
{
    const mech_sweep_plan *p = w->p;
    hy_atomic a;
    if (atomic_open(w->dir, "envelope.csv", p, &a) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    fprintf(a.fp, "run,%s,%s,captured,measured\n", p->key[0].path, p->key[1].path);
    for (long id = 0; id < (long)e->nx * e->ny; id++) {
        fprintf(a.fp, "%ld,", id);
        put_num(a.fp, p->key[0].values[id / e->ny], 0);
        fputc(',', a.fp);
        put_num(a.fp, p->key[1].values[id % e->ny], 0);
        fprintf(a.fp, ",%d,%d\n", e->state[id], w->rows[id].have);
    }
    return mech_out_commit(cmd, &a);
}

/* Subset simulation (mech/sweep_subset.h): each batch of the levels' runs handed out like an envelope level; the
 * run's standard normals mapped to the keys' distributions by u = Phi(z) and the inverse CDFs (the row of u the
 * pool sends with the id); after a --resume the levels are replayed from the journal's rows, so only the missing
 * runs are run and every value is the uninterrupted sweep's. */
static int run_subset(sweep *w, sw_pool *pool, long *ids)
{
    mech_sweep_plan *p = (mech_sweep_plan *)w->p;   /* the master fills the rows of u */
    hy_err err;
    mech_subset *s = &w->ss;
    if (mech_subset_init(s, p->nkey, (size_t)p->design_n, p->p0, p->max_levels, p->seed, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    size_t *sid = malloc(s->n * sizeof *sid), nb;
    if (!sid) {
        mech_subset_free(s);
        return mech_cli_fail(cmd, "out of memory");
    }
    int status = MECH_EXIT_OK;
    w->total = 0;
    while ((nb = mech_subset_next(s, sid)) > 0) {
        size_t todo = 0;
        for (size_t k = 0; k < nb; k++) {
            long id = (long)sid[k];
            for (int j = 0; j < p->nkey; j++) {
                double z = s->z[sid[k] * (size_t)s->d + (size_t)j];
                double u = z > 0 ? 1 - gsl_cdf_ugaussian_Q(z) : gsl_cdf_ugaussian_P(z);
                p->u[(size_t)id * (size_t)p->ndist + (size_t)p->key[j].col] = fmin(fmax(u, 0x1p-1022), 1 - 0x1p-53);
            }
            if (!w->rows[id].have)
                ids[todo++] = id;
        }
        w->total += (long)nb;
        progress(w, 0);
        if (sw_pool_run(pool, ids, todo, on_done, w, &err) != HY_OK) {
            status = mech_cli_fail(cmd, "%s", err.msg);
            break;
        }
        if (w->stopped)   /* a write error or a changed law file: the next level would use missing rows */
            break;
        for (size_t k = 0; k < nb; k++) {   /* a failed run counts as a failure (g = NAN) */
            const row *r = &w->rows[sid[k]];
            s->g[sid[k]] = r->have && !r->failed ? mech_sweep_fail_g(p, r->m) : NAN;
        }
    }
    free(sid);
    free(s->z), free(s->g), free(s->lev), free(s->cur), free(s->cand);
    s->z = s->g = NULL, s->lev = s->cur = s->cand = NULL;
    w->have_ss = status == MECH_EXIT_OK && s->done;
    return status;
}

static int run_all(sweep *w, sw_pool *pool, long *full_grid)
{
    const mech_sweep_plan *p = w->p;
    hy_err err;
    long *ids = malloc((size_t)p->nrun * sizeof *ids);
    if (!ids)
        return mech_cli_fail(cmd, "out of memory");
    int status = MECH_EXIT_OK;
    *full_grid = p->nrun;
    if (p->kind == MECH_SWEEP_KIND_SUBSET) {
        status = run_subset(w, pool, ids);
    } else if (!p->envelope) {
        size_t n = 0;
        for (long id = 0; id < p->nrun; id++)
            if (!w->rows[id].have)
                ids[n++] = id;
        w->total = p->nrun;
        progress(w, 0);
        if (sw_pool_run(pool, ids, n, on_done, w, &err) != HY_OK)
            status = mech_cli_fail(cmd, "%s", err.msg);
    } else {
        mech_sweep_envelope e;
        if (mech_sweep_envelope_init(&e, p->key[0].n, p->key[1].n, p->levels, &err) != HY_OK) {
            free(ids);
            return mech_cli_fail(cmd, "%s", err.msg);
        }
        size_t n;
        w->total = w->done;
        while ((n = mech_sweep_envelope_next(&e, ids)) > 0) {
            size_t todo = 0;
            for (size_t k = 0; k < n; k++)
                if (!w->rows[ids[k]].have)
                    ids[todo++] = ids[k];
            w->total += (long)todo;
            progress(w, 0);
            if (sw_pool_run(pool, ids, todo, on_done, w, &err) != HY_OK) {
                status = mech_cli_fail(cmd, "%s", err.msg);
                break;
            }
            /* every planned point now has a row (from this batch or the journal) */
            for (long id = 0; id < p->nrun; id++)
                if (e.measured[id] == 2)
                    e.state[id] = (signed char)(w->rows[id].m[MECH_SWEEP_M_CAPTURED] == 1);
        }
        if (status == MECH_EXIT_OK)
            status = write_envelope(w, &e);
        if (status == MECH_EXIT_OK && !w->stopped && (w->env_state = malloc((size_t)p->nrun)))
            memcpy(w->env_state, e.state, (size_t)p->nrun);   /* the summary's fraction and the boundary */
        mech_sweep_envelope_free(&e);
    }
    free(ids);
    progress(w, 1);
    return status;
}

int mech_cmd_sweep(int argc, char **argv)
{
    const char *out = NULL, *plan_path;
    int jobs = 1, resume = 0, force = 0, no_plots = 0, quiet = 0, rr = -1, h5 = 0;
    const hy_arg tab[] = {
        HY_OPT_STR("out", 0, &out),              HY_OPT_INT("jobs", 'j', &jobs, 1, NULL),
        HY_OPT_FLAG("resume", 0, &resume),       HY_OPT_FLAG("force", 0, &force),
        HY_OPT_INT("rerun", 0, &rr, 0, NULL),    HY_OPT_FLAG("no-plots", 0, &no_plots),
        HY_OPT_FLAG("quiet", 'q', &quiet),       HY_OPT_FLAG("h5", 0, &h5),
        HY_OPT_END};
    int go = mech_cli_parse(cmd, usage, tab, argc, argv, "missing PLAN.json", &plan_path);
    if (go != MECH_CLI_GO)
        return go;
    if (jobs > 1024)
        return mech_cli_usage(cmd, "-j %d: at most 1024 workers", jobs);

    hy_err err;
    int rank = 0, size = 1;
    int under_mpi = sw_mpi_init(&rank, &size, &err);
    if (under_mpi < 0)
        return mech_cli_fail(cmd, "%s", err.msg);
    if (rank != 0)
        quiet = 1;
    mech_sweep_plan p;
    if (mech_sweep_plan_read(plan_path, force, &p, &err) != HY_OK) {
        sw_mpi_finalize();
        return rank == 0 ? mech_cli_fail(cmd, "%s", err.msg) : MECH_EXIT_FAIL;
    }
    if (rank != 0) {   /* an MPI worker rank: run what rank 0 hands out */
        sw_mpi_worker(&p);
        mech_sweep_plan_free(&p);
        sw_mpi_finalize();
        return MECH_EXIT_OK;
    }
    char dir[4096];
    if (out) {
        snprintf(dir, sizeof dir, "%s", out);
    } else {
        const char *b = strrchr(plan_path, '/') ? strrchr(plan_path, '/') + 1 : plan_path;
        size_t n = strlen(b);
        if (n > 5 && strcmp(b + n - 5, ".json") == 0)
            n -= 5;
        snprintf(dir, sizeof dir, "out/%.*s", (int)n, b);
    }
    sweep w = {0};
    w.p = &p, w.dir = dir, w.quiet = quiet, w.jfd = -1, w.h5 = h5;
    w.progress = !quiet && isatty(STDERR_FILENO);
    sw_pool *pool = NULL;
    int lockfd = -1;
    int status = mech_out_mkdir(cmd, dir);
    if (status == MECH_EXIT_OK)
        status = lock_dir(dir, &lockfd);
    if (status == MECH_EXIT_OK)
        clean_stale(dir);
    if (status == MECH_EXIT_OK && rr >= 0) {
        if (rr >= p.nrun)
            status = mech_cli_usage(cmd, "--rerun %d: the plan's run ids are 0..%ld", rr, p.nrun - 1);
        else if (p.live_u)   /* its values come from the levels before it, which --rerun does not replay */
            status = mech_cli_usage(cmd, "--rerun %d: a subset plan's run values come from the levels before it; "
                                    "name the runs wanted in the plan's keep (the worst N by a metric, or ids) before the sweep", rr);
        else
            status = rerun(&p, dir, rr, quiet);
        if (under_mpi > 0 && size > 1 && sw_pool_start(&pool, &p, 0, size, &err) == HY_OK)
            sw_pool_stop(pool);   /* the worker ranks wait for an id: tell them to stop */
        else
            free(pool);
        goto done;
    }
    if (status == MECH_EXIT_OK) {
        w.rows = calloc((size_t)p.nrun, sizeof *w.rows);
        if (!w.rows)
            status = mech_cli_fail(cmd, "out of memory for %ld rows", p.nrun);
    }
    if (status == MECH_EXIT_OK)
        status = open_journal(&w, resume);
    if (status == MECH_EXIT_OK && sw_pool_start(&pool, &p, jobs, under_mpi > 0 ? size : 1, &err) != HY_OK)
        status = mech_cli_fail(cmd, "%s", err.msg);
    else if (status != MECH_EXIT_OK && under_mpi > 0 && size > 1 && sw_pool_start(&pool, &p, 0, size, &err) == HY_OK) {
        /* rank 0 cannot sweep: the worker ranks still wait for an id */
    }
    long full_grid = p.nrun;
    if (status == MECH_EXIT_OK) {
        w.t0 = now();
        status = run_all(&w, pool, &full_grid);
    }
    sw_pool_stop(pool);
    pool = NULL;
    if (status == MECH_EXIT_OK && w.stopped)
        status = mech_cli_fail(cmd, "%s", w.stop_msg);
    if (status == MECH_EXIT_OK && fdatasync(w.jfd) != 0 && errno != EINVAL)   /* the journal's one sync */
        status = mech_cli_fail(cmd, "%s/journal.csv: cannot sync: %s", dir, strerror(errno));
    if (status == MECH_EXIT_OK)
        status = write_results(&w);
    long kept[128];
    int nkept = status == MECH_EXIT_OK ? chosen_runs(&w, kept) : 0;
    if (status == MECH_EXIT_OK)
        status = write_summary(&w, kept, nkept, full_grid);
    for (int k = 0; status == MECH_EXIT_OK && k < nkept; k++)
        status = rerun(&p, dir, kept[k], quiet);
    if (status == MECH_EXIT_OK && !no_plots)
        status = plots(&w);
    if (status == MECH_EXIT_OK && !quiet && p.envelope)
        printf("  envelope: %ld runs instead of the full grid's %ld (%d x %d, %d levels)\n", w.done, full_grid,
               p.key[0].n, p.key[1].n, p.levels);
    if (status == MECH_EXIT_OK && !quiet)
        printf("  outputs in %s: results.csv, summary.json%s\n", dir, no_plots ? "" : ", figures");
done:
    if (w.jfd >= 0)
        close(w.jfd);
    for (long id = 0; w.rows && id < p.nrun; id++)
        free(w.rows[id].msg);
    free(w.rows);
    free(w.env_state);
    if (lockfd >= 0)
        close(lockfd);
    mech_sweep_plan_free(&p);
    sw_mpi_finalize();
    return status;
}

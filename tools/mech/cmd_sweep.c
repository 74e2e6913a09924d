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
    FILE *journal;
    int progress, quiet;
    double t0;
    long done0;                  /* rows from the journal at the start */
    int write_error;
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
    return m == MECH_SWEEP_M_CAPTURED || m == MECH_SWEEP_M_CONE_CONTACTS || m == MECH_SWEEP_M_STEPS;
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

static void on_done(void *ctx, const mech_sweep_result *r)
{
    sweep *w = ctx;
    if (r->run < 0 || r->run >= w->p->nrun || w->rows[r->run].have)
        return;
    keep(w, r);
    put_row(w->journal, w->p, r->run, &w->rows[r->run]);
    if (fflush(w->journal) != 0)   /* one write per row: a kill loses at most the row being written */
        w->write_error = errno;
    progress(w, 0);
}

/* ---------- the journal ---------- */

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

static int open_journal(sweep *w, int resume)
{
    const mech_sweep_plan *p = w->p;
    char path[4200], head[128];
    snprintf(path, sizeof path, "%s/journal.csv", w->dir);
    snprintf(head, sizeof head, "# mech-sweep journal, plan %016llx, %ld runs\n", (unsigned long long)p->hash,
             p->nrun);
    FILE *fp = fopen(path, "r+");
    if (!fp && errno != ENOENT)
        return mech_cli_fail(cmd, "%s: cannot open: %s", path, strerror(errno));
    if (fp && !resume) {
        fclose(fp);
        return mech_cli_fail(cmd, "%s: holds a sweep already (journal.csv): --resume continues it, or choose another "
                             "--out", w->dir);
    }
    if (!fp) {
        fp = fopen(path, "w+");
        if (!fp)
            return mech_cli_fail(cmd, "%s: cannot create: %s", path, strerror(errno));
        fputs(head, fp);
        put_header(fp, p);
        fflush(fp);
        w->journal = fp;
        return MECH_EXIT_OK;
    }
    /* resume: the rows that end with a newline are finished runs; a torn last line (killed while writing) is cut */
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long good = 0, lineno = 0, complete = 0;
    int ncol = p->nkey + p->nderived, nf = 2 + ncol + MECH_SWEEP_NMETRIC + 1;
    char **f = malloc((size_t)nf * sizeof *f);
    if (!f) {
        fclose(fp);
        return mech_cli_fail(cmd, "out of memory");
    }
    int status = MECH_EXIT_OK;
    while ((n = getline(&line, &cap, fp)) > 0) {
        lineno++;
        if (line[n - 1] != '\n')
            break;
        if (lineno == 1) {
            if (strcmp(line, head) != 0) {
                status = mech_cli_fail(cmd, "%s: was written by another plan (or another version of the scenario): "
                                       "--resume needs the same plan; choose another --out", path);
                break;
            }
        } else if (lineno > 2) {
            line[n - 1] = '\0';
            char *end;
            int k = split_csv(line, f, nf);
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
            if (!w->rows[id].have)
                keep(w, &r);
        }
        good = ftell(fp);
        complete++;
    }
    free(line);
    free(f);
    if (status != MECH_EXIT_OK) {
        fclose(fp);
        return status;
    }
    if (complete < 2) {   /* killed before the two header lines were complete: start over */
        good = 0;
    }
    if (ftruncate(fileno(fp), good) != 0 || fseek(fp, good, SEEK_SET) != 0) {
        fclose(fp);
        return mech_cli_fail(cmd, "%s: cannot cut the torn last row: %s", path, strerror(errno));
    }
    if (good == 0) {
        fputs(head, fp);
        put_header(fp, p);
        fflush(fp);
    }
    w->journal = fp;
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
       the runs are samples of distributions: over a grid it is the fraction of grid points */
    /* a Sobol plan's probability over its A matrix (N independent points: the A_B^i rows repeat them in all but one
       key); a subset plan's runs and a qualification matrix's cases are not a sample of the distributions: none */
    long nsamp = w->done;
    if (p->kind == MECH_SWEEP_KIND_SOBOL) {
        cap = nsamp = 0;
        for (long id = 0; id < p->design_n; id++)
            if (w->rows[id].have)
                nsamp++, cap += w->rows[id].m[MECH_SWEEP_M_CAPTURED] == 1;
    }
    int sample = p->kind != MECH_SWEEP_KIND_SUBSET && p->kind != MECH_SWEEP_KIND_QUAL;
    double lo, hi;
    mech_sweep_wilson(cap, nsamp, 1.959963984540054, &lo, &hi);
    cJSON *cp = cJSON_AddObjectToObject(doc, !sample ? "capture_count" : p->ndist > 0 && p->kind != MECH_SWEEP_KIND_MORRIS
                                                                             ? "capture_probability" : "capture_fraction");
    if (p->kind == MECH_SWEEP_KIND_SOBOL)
        cJSON_AddNumberToObject(cp, "runs", (double)nsamp);
    cJSON_AddItemToObject(cp, "p", num_or_null(nsamp ? (double)cap / (double)nsamp : NAN));
    cJSON *ci = cJSON_AddArrayToObject(cp, "ci95");
    cJSON_AddItemToArray(ci, hy_json_exact_number(lo));
    cJSON_AddItemToArray(ci, hy_json_exact_number(hi));
    cJSON_AddStringToObject(cp, "method", "Wilson score interval, 95 %");
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
    double *x = malloc((size_t)(ok ? ok : 1) * sizeof *x), *y = malloc((size_t)(ok ? ok : 1) * sizeof *y);
    if (!x || !y) {
        free(x), free(y);
        cJSON_Delete(doc);
        return mech_cli_fail(cmd, "out of memory");
    }
    /* a second table against |value|: a miss, an angle or a rate acts through its magnitude whatever its sign,
       and a plain rank correlation of such a symmetric effect is ~0 */
    cJSON *sabs = cJSON_AddObjectToObject(doc, "sensitivity_magnitude");
    cJSON_AddStringToObject(sabs, "method", "Spearman rank correlation with |value| over the runs that did not fail");
    for (int m = 0; m < 2 * MECH_SWEEP_NMETRIC && sample; m++) {   /* (a biased sample or named cases: none) */
        int mag = m >= MECH_SWEEP_NMETRIC, mm = m % MECH_SWEEP_NMETRIC;
        if (mm == MECH_SWEEP_M_STEPS)
            continue;
        cJSON *mo = cJSON_AddObjectToObject(mag ? sabs : sens, mech_sweep_metric_name(mm));
        for (int k = 0; k < p->nkey; k++) {
            size_t n = 0;
            for (long id = 0; id < p->nrun; id++) {
                const row *r = &w->rows[id];
                if (!r->have || r->failed || !isfinite(r->m[mm]))
                    continue;
                const char *s;
                mech_sweep_plan_value(p, id, k, &x[n], &s);
                if (s)   /* a choice of strings: the rank of its index in the list */
                    x[n] = mech_sweep_dist_eval(&p->key[k].dist, p->u[(size_t)(id % p->nsample) * (size_t)p->ndist +
                                                                       (size_t)p->key[k].col]);
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
    if (!w->quiet && p->ndist > 0 && sample && p->kind != MECH_SWEEP_KIND_MORRIS)
        printf("mech sweep %s: %ld runs (%ld failed), captured %ld: p = %.4g, 95 %% interval [%.4g, %.4g]\n",
               hy_display_name(p->path), w->done, w->nfailed, cap, nsamp ? (double)cap / (double)nsamp : 0.0, lo, hi);
    else if (!w->quiet)
        printf("mech sweep %s: %ld runs (%ld failed), captured %ld\n", hy_display_name(p->path), w->done, w->nfailed,
               cap);
    return st;
}

/* ---------- figures ---------- */

static int figure(const sweep *w, const char *name, const char *extra, const char *body)
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
    fputs(body, fp);
    return mech_fig_run(cmd, &f);
}

// (key) => 1 when its values are strings (a choice of law files): no axis of a figure
static int string_key(const mech_sweep_key *k)
{
    return !k->grid && k->dist.kind == MECH_SWEEP_CHOICE && cJSON_IsString(cJSON_GetArrayItem(k->choice, 0));
}

static int plots(const sweep *w)
{
    const mech_sweep_plan *p = w->p;
    long ok = 0;
    for (long id = 0; id < p->nrun; id++)
        ok += w->rows[id].have && !w->rows[id].failed;
    if (ok < 2)   /* nothing to draw (gnuplot refuses a plot without a point) */
        return MECH_EXIT_OK;
    char b[4096];
    int st = 2 + p->nkey + p->nderived, mc = st + 1;   /* gnuplot columns: 1 run, 2.. keys, status, metrics */
    if (p->fig_x >= 0 && !string_key(&p->key[p->fig_x]) && !string_key(&p->key[p->fig_y])) {
        int cx = 2 + p->fig_x, cy = 2 + p->fig_y;
        /* the envelope's filled grid first (light squares), the measured runs over it; a failed run is a cross
           over its captured / not captured point (it may fail after the capture) */
        char grid[1024] = "";
        if (p->envelope)
            snprintf(grid, sizeof grid,
                     "$g using (column(4) == 1 ? column(%d) : NaN):%d with points pt 5 ps 1.6 lc rgb '#c7e9c0' "
                     "title 'captured (filled)', $g using (column(4) == 0 ? column(%d) : NaN):%d with points pt 5 "
                     "ps 1.6 lc rgb '#fcbba1' title 'no capture (filled)', ",
                     2 + p->fig_x, 2 + p->fig_y, 2 + p->fig_x, 2 + p->fig_y);
        snprintf(b, sizeof b,
                 "set title 'capture envelope (%ld runs)'\nset xlabel '%s'\nset ylabel '%s'\n"
                 "plot %s$d using (column(%d) == 1 ? column(%d) : NaN):%d with points pt 7 ps 0.7 "
                 "lc rgb '#2ca02c' title 'captured', "
                 "$d using (column(%d) == 0 ? column(%d) : NaN):%d with points pt 7 ps 0.7 "
                 "lc rgb '#d62728' title 'no capture', "
                 "$d using (strcol(%d) eq 'failed' ? column(%d) : NaN):%d with points pt 2 ps 1 lc rgb 'black' "
                 "title 'run failed'\n",
                 w->done, p->key[p->fig_x].path, p->key[p->fig_y].path, grid, mc, cx, cy, mc, cx, cy, st, cx, cy);
        if (figure(w, "envelope.png", p->envelope ? "envelope.csv" : NULL, b) != MECH_EXIT_OK)
            return MECH_EXIT_FAIL;
        snprintf(b, sizeof b,
                 "set title 'peak axial head force (N)'\nset xlabel '%s'\nset ylabel '%s'\nset palette rgb 33,13,10\n"
                 "plot $d using (strcol(%d) eq 'ok' ? column(%d) : NaN):%d:%d with points pt 5 ps 1.2 lc palette "
                 "title 'peak axial force'\n",
                 p->key[p->fig_x].path, p->key[p->fig_y].path, st, cx, cy, mc + MECH_SWEEP_M_PEAK_AXIAL);
        if (figure(w, "peak-map.png", NULL, b) != MECH_EXIT_OK)
            return MECH_EXIT_FAIL;
    }
    if (sw_report_figures(cmd, p, w->dir) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    snprintf(b, sizeof b,
             "set multiplot layout 1,3 title 'peak loads over %ld runs'\nset key off\nset ylabel 'runs'\n"
             "nb = 20\nset style fill solid 0.6\n"
             "stats $d using %d nooutput\nw1 = (STATS_max - STATS_min) / nb + 1e-9; m1 = STATS_min\n"
             "if (STATS_max == STATS_min) { set xrange [STATS_min - 1:STATS_max + 1] } else { set autoscale x }\n"
             "set xlabel 'peak axial head force (N)'\n"
             "plot $d using (m1 + w1 * (floor(($%d - m1) / w1) + 0.5)):(1.0) smooth frequency with boxes\n"
             "stats $d using %d nooutput\nw1 = (STATS_max - STATS_min) / nb + 1e-9; m1 = STATS_min\n"
             "if (STATS_max == STATS_min) { set xrange [STATS_min - 1:STATS_max + 1] } else { set autoscale x }\n"
             "set xlabel 'peak lateral head force (N)'\n"
             "plot $d using (m1 + w1 * (floor(($%d - m1) / w1) + 0.5)):(1.0) smooth frequency with boxes\n"
             "stats $d using %d nooutput\nw1 = (STATS_max - STATS_min) / nb + 1e-9; m1 = STATS_min\n"
             "if (STATS_max == STATS_min) { set xrange [STATS_min - 1:STATS_max + 1] } else { set autoscale x }\n"
             "set xlabel 'peak limiter force (N)'\n"
             "plot $d using (m1 + w1 * (floor(($%d - m1) / w1) + 0.5)):(1.0) smooth frequency with boxes\n"
             "unset multiplot\n",
             w->done, mc + MECH_SWEEP_M_PEAK_AXIAL, mc + MECH_SWEEP_M_PEAK_AXIAL, mc + MECH_SWEEP_M_PEAK_LATERAL,
             mc + MECH_SWEEP_M_PEAK_LATERAL, mc + MECH_SWEEP_M_PEAK_LIMITER, mc + MECH_SWEEP_M_PEAK_LIMITER);
    return figure(w, "peaks.png", NULL, b);
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
    w.p = &p, w.dir = dir, w.quiet = quiet, w.h5 = h5;
    w.progress = !quiet && isatty(STDERR_FILENO);
    sw_pool *pool = NULL;
    int lockfd = -1;
    int status = mech_out_mkdir(cmd, dir);
    if (status == MECH_EXIT_OK)
        status = lock_dir(dir, &lockfd);
    if (status == MECH_EXIT_OK && rr >= 0) {
        if (rr >= p.nrun)
            status = mech_cli_usage(cmd, "--rerun %d: the plan's run ids are 0..%ld", rr, p.nrun - 1);
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
    if (status == MECH_EXIT_OK && w.write_error)
        status = mech_cli_fail(cmd, "%s/journal.csv: write error: %s", dir, strerror(w.write_error));
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
    if (w.journal)
        fclose(w.journal);
    for (long id = 0; w.rows && id < p.nrun; id++)
        free(w.rows[id].msg);
    free(w.rows);
    if (lockfd >= 0)
        close(lockfd);
    mech_sweep_plan_free(&p);
    sw_mpi_finalize();
    return status;
}

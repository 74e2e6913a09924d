/* mech view RUN [-o run.html]: the run viewer (issue 48; docs/view.md). One self-contained HTML page (no server, no
 * network: the data, the script and the style inline) for
 *   - a `mech dock` output folder: the dynamic mnemonic scheme of spec 001 §4.1 (Fig. 11): the two projections from
 *     the run's geometry (the scenario) and pose history (pose.csv), contacts red while they act, the device states,
 *     the numbers of the relative motion and the base loads, and time plots of any history channel;
 *   - a `mech beam sim` time response (CSV): the deformed appendage from the modal coordinates (--modal, with the
 *     model's shapes: mech_beam_shapes at the FE nodes) or else sketched from the tip deflection, the attitude and
 *     the hinge angles; hinges coloured by state, tip plots;
 *   - a `mech sweep` output folder: the envelope and the table, each kept run's row linking to its page (written
 *     beside its outputs, runs/ID/view.html).
 * Long histories are decimated (view_decimate) so that every contact onset and peak stays (when they pass --rows,
 * every flag change and the force episodes largest by their peak, with a note; docs/view.md §3). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>
#include "hyst/h5log.h"
#include "hyst/util.h"
#include "mech/beam.h"
#include "mech/dock_hooks.h"
#include "mech/dock.h"
#include "mech_cli.h"
#include "view.h"

#define PATH_MAX_LEN 4096
#define ROWS_DEFAULT 3000

static void usage(FILE *fp)
{
    fputs("usage: mech view RUN [-o FILE.html] [--scenario FILE] [--config FILE [--modal FILE]] [--rows N]\n"
          "\n"
          "Writes one self-contained HTML page (no server, no network, no external scripts or fonts) to review a\n"
          "run in a browser (docs/view.md):\n"
          "  RUN a mech dock output folder (history.csv, pose.csv, summary.json): the two projections of the\n"
          "      mechanism and the cone with contacts red while they act, time slider, play/pause, speed, keys\n"
          "      to step between events, the device states, the numbers panel, time plots of any channel\n"
          "  RUN a mech beam sim time response (CSV): the deformed appendage, hinges by state, tip plots\n"
          "  RUN a mech sweep output folder (results.csv): the envelope and the table; the kept runs' pages\n"
          "      are written too (runs/ID/view.html) and linked from their rows\n"
          "\n"
          "options:\n"
          "  -o, --output FILE   the page (default RUN/view.html for a folder, RUN with .html for a CSV)\n"
          "      --scenario FILE dock: the scenario of the run (default RUN/scenario.json, else the one\n"
          "                      summary.json names)\n"
          "      --config FILE   beam: the mech-beam configuration (hinge positions, length); without it the\n"
          "                      hinges are drawn equally spaced on a unit-length appendage\n"
          "      --modal FILE    beam: the run's modal coordinates (mech beam sim --modal): the page draws the\n"
          "                      deformed beam w(x, t) = sum phi_i(x) eta_i(t) with the model's shapes at its nodes\n"
          "      --rows N        decimation budget (default 3000): every contact onset and peak, then a time grid;\n"
          "                      past it every flag change and the force episodes largest by peak, with a note\n"
          "  -h, --help          this help\n"
          "\n"
          "Exit status: 0 success, 1 unreadable or inconsistent run files, 2 bad usage.\n",
          fp);
}

// (out[n], folder, name) => "folder/name"; -1 when it does not fit
static int path_join(char *out, size_t n, const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    if (a + b + 2 > n) {
        out[0] = 0;
        return -1;
    }
    memcpy(out, dir, a);
    out[a] = '/';
    memcpy(out + a + 1, name, b + 1);
    return 0;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

// (cmd, path) => parsed JSON document or NULL after a message
static cJSON *read_json(const char *cmd, const char *path)
{
    char *text;
    size_t len;
    hy_err err;
    cJSON *doc = NULL;
    if (hy_read_text(path, "a summary (JSON)", 0, &text, &len, &err) != HY_OK) {
        mech_cli_fail(cmd, "%s", err.msg);
        return NULL;
    }
    if (hy_json_parse_strict(text, len, hy_display_name(path), "a summary (JSON)", &doc, &err) != HY_OK)
        mech_cli_fail(cmd, "%s", err.msg);
    free(text);
    return doc;
}

// (fp, JSON document) => written unformatted, '<' as \u003c (a '<' can only be inside a JSON string)
static void put_json_doc(FILE *fp, const cJSON *doc)
{
    char *s = cJSON_PrintUnformatted(doc);
    for (const char *p = s; p && *p; p++) {
        if (*p == '<')
            fputs("\\u003c", fp);
        else
            fputc(*p, fp);
    }
    if (!s)
        fputs("null", fp);
    free(s);
}

static void kv(FILE *fp, const char *key, double v)
{
    fprintf(fp, "\"%s\":", key);
    view_json_num(fp, v, 9);
    fputc(',', fp);
}

/* ---------- a docking run ---------- */

// names of the flag channels (onsets kept) and the force channels (episodes' peaks kept) of a docking history
static const char *const dock_flags[] = {"cone_contact", "socket_contact", "bottom_contact", "latch_contact",
                                         "limiter_contact", "capture", "seq_state", "hooks_locked", NULL};
static const char *const dock_forces[] = {"head_axial", "head_lateral", "limiter_f", "roller_f1", "roller_f2",
                                          "roller_f3", "pad_wall_f", "pusher_f", "plane_f", "chain1_f", "chain2_f",
                                          "hook_f1", "hook_f2", "hook_f3", "hook_f4", NULL};

// (table, names) => indices of the named columns present
static int cols_of(const view_table *t, const char *const *names, int *out)
{
    int n = 0;
    for (int k = 0; names[k]; k++) {
        int c = view_table_col(t, names[k]);
        if (c >= 0)
            out[n++] = c;
    }
    return n;
}

// (fp, geometry and process parameters of the scenario) => "geom":{...},
static void dock_geometry(FILE *fp, const mech_dock_params *p)
{
    const mech_dock_geometry *g = &p->geom;
    fputs("\"geom\":{", fp);
    kv(fp, "rim_radius", g->rim_radius);
    kv(fp, "rim_x", g->rim_x);
    kv(fp, "half_angle", g->half_angle);
    kv(fp, "socket_radius", g->socket_radius);
    kv(fp, "stop_depth", g->stop_depth);
    kv(fp, "bottom_depth", g->bottom_depth);
    kv(fp, "head_radius", g->head_radius);
    kv(fp, "latch_radius", g->latch_radius);
    kv(fp, "limiter_r0", g->limiter_r0);
    kv(fp, "limiter_r1", g->limiter_r1);
    kv(fp, "housing_length", g->housing_length);
    kv(fp, "probe_length", g->probe_length);
    kv(fp, "roller_radius", p->process.enabled && p->process.cam_on ? p->process.cam.roller_radius : 0);
    kv(fp, "pusher_radius", p->process.enabled ? p->process.pushers.radius : 0);
    fprintf(fp, "\"variant\":\"%s\",\"movable_limiter\":%d,\"process\":%d},", mech_dock_variant_name(p),
            p->limiter_movable != 0, p->process.enabled != 0);
}

/* A docking run as the page needs it, read from a `mech dock` output folder (history.csv, pose.csv, summary.json)
 * or from its HDF5 log (log.h5: /history, /pose, the root's "summary" attribute) into the same tables: th/vh the
 * history, tp/vp the poses, sum the summary, cfg the scenario. The page is written from these alone, so it is the
 * same whichever the input (docs/view.md §1). */
typedef struct dock_in {
    char dir[PATH_MAX_LEN];
    char log[PATH_MAX_LEN];   /* the HDF5 log read, "" for a CSV folder */
    char hist[PATH_MAX_LEN + 16], pose[PATH_MAX_LEN + 16], summary[PATH_MAX_LEN + 16], scenario[PATH_MAX_LEN];
    view_table th, tp;
    double *vh, *vp;
    hy_h5_table *hh, *hp;     /* the log's tables: th and tp name their columns from them */
    cJSON *sum;
    mech_dock_config *cfg;
} dock_in;

static void dock_in_free(dock_in *d)
{
    view_table_free(&d->th);
    view_table_free(&d->tp);
    free(d->vh);
    free(d->vp);
    hy_h5_table_free(d->hh);
    hy_h5_table_free(d->hp);
    free(d->hh);
    free(d->hp);
    cJSON_Delete(d->sum);
    if (d->cfg)
        mech_dock_config_free(d->cfg);
    free(d->cfg);
}

static int dock_scenario(const char *cmd, const char *dir, const char *scenario, dock_in *d);
static int dock_check(const char *cmd, dock_in *d);

// (cmd, run folder, --scenario or NULL, d) => the run's files read and checked against each other; exit status
static int dock_read(const char *cmd, const char *dir, const char *scenario, dock_in *d)
{
    hy_err err;
    snprintf(d->dir, sizeof d->dir, "%s", dir);
    path_join(d->hist, sizeof d->hist, dir, "history.csv");
    path_join(d->pose, sizeof d->pose, dir, "pose.csv");
    path_join(d->summary, sizeof d->summary, dir, "summary.json");
    if (!is_file(d->pose))
        return mech_cli_fail(cmd, "%s: missing: the run's poses (written by mech dock with its CSV outputs since "
                             "issue 48; rerun mech dock)", d->pose);
    if (!(d->sum = read_json(cmd, d->summary)))
        return MECH_EXIT_FAIL;
    if (dock_scenario(cmd, dir, scenario, d) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    if (view_table_read(d->hist, 1, &d->th, &err) != HY_OK || view_table_numbers(&d->th, 0, &d->vh, &err) != HY_OK ||
        view_table_read(d->pose, 1, &d->tp, &err) != HY_OK || view_table_numbers(&d->tp, 1, &d->vp, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    return dock_check(cmd, d);
}

/* (HDF5 table read, view table, its values, whether NaN is allowed (a pose point a run does not have)) => the
 * view table naming the columns of h (which must outlive it), *v its values (taken from h); "FILE:DSET:ROW:COL:"
 * on a value pose.csv or history.csv could not hold */
static int table_from_h5(hy_h5_table *h, view_table *t, double **v, int allow_nan, hy_err *err)
{
    if (h->nrow > (size_t)INT32_MAX)
        return hy_err_set(err, HY_EDATA, "%s: %zu rows, expected at most %d", h->source, h->nrow, INT32_MAX);
    t->ncol = h->ncol, t->nrow = h->nrow;
    t->name = malloc(2 * (size_t)h->ncol * sizeof *t->name);
    t->line = malloc((h->nrow ? h->nrow : 1) * sizeof *t->line);
    t->path = strdup(h->source);
    if (!t->name || !t->line || !t->path)
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", h->source);
    t->unit = t->name + h->ncol;
    for (int k = 0; k < h->ncol; k++)
        t->name[k] = h->name[k], t->unit[k] = h->unit[k];
    for (size_t i = 0; i < h->nrow; i++) {
        t->line[i] = (int)i + 1; /* the row (1-based) stands for the CSV's line in messages */
        for (int k = 0; k < h->ncol; k++) {
            double x = h->v[i * (size_t)h->ncol + k];
            if (!isfinite(x) && !(allow_nan && isnan(x)))
                return hy_err_set(err, HY_EDATA, "%s:%zu:%d: column '%s': %g is not a finite number", h->source,
                                  i + 1, k + 1, h->name[k], x);
        }
    }
    *v = h->v;
    h->v = NULL;
    return HY_OK;
}

// (cmd, HDF5 log of mech dock --format h5, --scenario or NULL, d) => the run read and checked; exit status
static int dock_read_h5(const char *cmd, const char *file, const char *scenario, dock_in *d)
{
    hy_err err;
    snprintf(d->log, sizeof d->log, "%s", file);
    snprintf(d->dir, sizeof d->dir, "%s", file);
    char *slash = strrchr(d->dir, '/');
    if (slash)
        slash[slash == d->dir] = '\0'; /* the log's folder: RUN/scenario.json as for a CSV folder */
    else
        snprintf(d->dir, sizeof d->dir, ".");
    snprintf(d->hist, sizeof d->hist, "%s:/history", file);
    snprintf(d->pose, sizeof d->pose, "%s:/pose", file);
    snprintf(d->summary, sizeof d->summary, "%s:/", file);
    char *text = NULL;
    size_t len = 0;
    if (hy_h5_read_attr_text(file, "/", "summary", &text, &len, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    char what[PATH_MAX_LEN + 32];
    snprintf(what, sizeof what, "%s summary", d->summary);
    int rc = hy_json_parse_strict(text, len, what, "a summary (JSON)", &d->sum, &err);
    free(text);
    if (rc != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    if (dock_scenario(cmd, d->dir, scenario, d) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    if (!(d->hh = calloc(1, sizeof *d->hh)) || !(d->hp = calloc(1, sizeof *d->hp)))
        return mech_cli_fail(cmd, "out of memory");
    if (hy_h5_read_table(file, "/history", d->hh, &err) != HY_OK ||
        table_from_h5(d->hh, &d->th, &d->vh, 0, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    if (hy_h5_read_table(file, "/pose", d->hp, &err) != HY_OK) {
        if (strstr(err.msg, ": no dataset /pose"))
            return mech_cli_fail(cmd, "%s: missing: the run's poses (written by mech dock --format h5 since issue "
                                 "48's HDF5 viewer; rerun mech dock)", d->pose);
        return mech_cli_fail(cmd, "%s", err.msg);
    }
    if (table_from_h5(d->hp, &d->tp, &d->vp, 1, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    return dock_check(cmd, d);
}

/* (cmd, run folder, --scenario or NULL, d with its summary) => d->scenario (--scenario, else RUN/scenario.json,
 * else the path the summary names) and d->cfg read; exit status */
static int dock_scenario(const char *cmd, const char *dir, const char *scenario, dock_in *d)
{
    hy_err err;
    if (scenario) {
        snprintf(d->scenario, sizeof d->scenario, "%s", scenario);
    } else {
        path_join(d->scenario, sizeof d->scenario, dir, "scenario.json");
        if (!is_file(d->scenario)) {
            const cJSON *s = cJSON_GetObjectItemCaseSensitive(d->sum, "scenario");
            if (!cJSON_IsString(s))
                return mech_cli_fail(cmd, "%s: scenario: expected the scenario's path (a string); give --scenario "
                                     "FILE", d->summary);
            snprintf(d->scenario, sizeof d->scenario, "%s", s->valuestring);
            if (!is_file(d->scenario))
                return mech_cli_fail(cmd, "%s: scenario: '%s' not found from this folder; run mech view where mech "
                                     "dock ran, or give --scenario FILE", d->summary, mech_cli_text(s->valuestring));
        }
    }
    d->cfg = calloc(1, sizeof *d->cfg);
    if (!d->cfg)
        return mech_cli_fail(cmd, "out of memory");
    if (mech_dock_config_read(d->scenario, d->cfg, &err) != HY_OK) {
        free(d->cfg);
        d->cfg = NULL;
        return mech_cli_fail(cmd, "%s", err.msg);
    }
    return MECH_EXIT_OK;
}

// (cmd, d with its tables) => the history and the poses checked against each other (one run); exit status
static int dock_check(const char *cmd, dock_in *d)
{
    if (d->th.nrow == 0)
        return mech_cli_fail(cmd, "%s: no data rows", d->hist);
    if (d->th.ncol < 1 || strcmp(d->th.name[0], "t") != 0 || view_table_col(&d->tp, "head_x") != 7)
        return mech_cli_fail(cmd, "%s:1:1: expected a mech dock history (t first) and %s its poses", d->hist, d->pose);
    if (d->tp.nrow != d->th.nrow)
        return mech_cli_fail(cmd, "%s: %zu rows, %s %zu: not the outputs of one run", d->pose, d->tp.nrow, d->hist,
                             d->th.nrow);
    for (size_t i = 0; i < d->th.nrow; i++) {
        double a = d->vh[i * (size_t)d->th.ncol], b = d->vp[i * (size_t)d->tp.ncol];
        if (a != b)
            return mech_cli_fail(cmd, "%s:%d:1: t = %.17g where %s:%d has %.17g: not the outputs of one run", d->pose,
                                 d->tp.line[i], b, d->hist, d->th.line[i], a);
        if (i > 0 && !(a >= d->vh[(i - 1) * (size_t)d->th.ncol]))
            return mech_cli_fail(cmd, "%s:%d:1: t = %.17g goes back in time", d->hist, d->th.line[i], a);
    }
    return MECH_EXIT_OK;
}

/* (fp, table, its values, flag columns, force columns) => "events":[[t, channel, on], ...]: the rows where a flag
 * changes or a force switches between zero and non-zero (the decimation keeps each of them) */
static void put_events(FILE *fp, const view_table *t, const double *v, const int *flags, int nflag, const int *forces,
                       int nforce)
{
    fputs("\"events\":[", fp);
    int first = 1;
    for (size_t i = 1; i < t->nrow; i++) {
        const double *a = v + (i - 1) * (size_t)t->ncol, *b = v + i * (size_t)t->ncol;
        const char *what = NULL;
        int on = 0;
        for (int f = 0; f < nflag && !what; f++)
            if (a[flags[f]] != b[flags[f]])
                what = t->name[flags[f]], on = b[flags[f]] > a[flags[f]];
        for (int f = 0; f < nforce && !what; f++)
            if ((a[forces[f]] != 0) != (b[forces[f]] != 0))
                what = t->name[forces[f]], on = b[forces[f]] != 0;
        if (!what)
            continue;
        fprintf(fp, "%s[", first ? "" : ",");
        view_json_num(fp, b[0], 17);
        fputc(',', fp);
        view_json_str(fp, what);
        fprintf(fp, ",%d]", on);
        first = 0;
    }
    fputc(']', fp);
}

/* (fp, the scenario's hook parameters, pose table and values, rows, kept rows) => ,"hooks":{...}: the structural
 * hooks (issue 44; docs/view.md §3) in a form that keeps a 400 s page under its 4 MiB. pose.csv has, per link and
 * row, the catch on the passive plane, the state and the tension (and the active plane frame's y axis pey); the
 * page gets
 *   base:  each link's base in the active plane's frame, once, as the hooks module places it
 *          (mech_dock_hooks_init): the bases are fixed on the active collar, so the page draws base(row) = port +
 *          b_x pax + b_y pey + b_z (pax x pey) from the row's pose (port, pax, pey are pose columns of the page);
 *   catch: per link [kept row, x, y, z] where the catch moves (it is fixed on the passive collar, in the cone
 *          frame, until the link engages and holds it where it is: one or two entries);
 *   state: per link [kept row, state] where it changes (0 open, 1 closing, 2 locked, 3 missed);
 *   f0, f: from the first kept row where any link is no longer open or bears (f0), each link's tension, N to the
 *          newton; before f0 every link is open and bears nothing.
 * No hook columns (a run without the process, or written before issue 44): nothing. */
static void dock_hooks(FILE *fp, const mech_dock_hooks_params *hp, const view_table *tp, const double *vp, size_t n,
                       const unsigned char *keep)
{
    int nc = tp->ncol, col[8], nh = 0;
    for (int j = 0; j < 8; j++) {
        char name[32];
        snprintf(name, sizeof name, "hook%d_cx", j + 1);
        col[j] = view_table_col(tp, name);
        if (col[j] < 0)
            break;
        nh++;
    }
    static mech_dock_hooks hk;   /* (large: the committed and trial states) */
    hy_err err;
    if (nh == 0 || view_table_col(tp, "pey_x") < 0 || n == 0 || nh != hp->n || mech_dock_hooks_init(&hk, hp, &err))
        return;
    fprintf(fp, ",\"hooks\":{\"n\":%d,\"base\":[", nh);
    for (int j = 0; j < nh; j++) {
        fprintf(fp, "%s[", j ? "," : "");
        view_json_num(fp, hk.base[j].x, 9);
        fputc(',', fp);
        view_json_num(fp, hk.base[j].y, 9);
        fputc(',', fp);
        view_json_num(fp, hk.base[j].z, 9);
        fputc(']', fp);
    }
    /* the catches and the states where they change, over the kept rows */
    for (int part = 0; part < 2; part++) {
        fputs(part ? "],\"state\":[" : "],\"catch\":[", fp);
        for (int j = 0; j < nh; j++) {
            fprintf(fp, "%s[", j ? "," : "");
            const double *last = NULL;
            size_t k = 0;
            for (size_t i = 0; i < n; i++) {
                if (!keep[i])
                    continue;
                const double *c = vp + i * (size_t)nc + col[j], *st = c + 3;
                int moved = !last || (part ? *st != last[0] : fabs(c[0] - last[0]) + fabs(c[1] - last[1]) +
                                                                   fabs(c[2] - last[2]) > 1e-6);
                if (moved) {
                    fprintf(fp, "%s[%zu", last ? "," : "", k);
                    for (int q = 0; q < (part ? 1 : 3); q++) {
                        fputc(',', fp);
                        view_json_num(fp, part ? *st : c[q], part ? 2 : 5);
                    }
                    fputc(']', fp);
                    last = part ? st : c;
                }
                k++;
            }
            fputc(']', fp);
        }
    }
    /* the tensions from the first kept row where a link is no longer open or bears */
    size_t k0 = 0, k = 0;
    int found = 0;
    for (size_t i = 0; i < n && !found; i++) {
        if (!keep[i])
            continue;
        for (int j = 0; j < nh && !found; j++) {
            const double *c = vp + i * (size_t)nc + col[j];
            found = c[3] != 0 || c[4] != 0;
        }
        if (!found)
            k++;
    }
    k0 = k;
    fprintf(fp, "],\"f0\":%zu,\"f\":[", k0);
    for (int j = 0; j < nh; j++) {
        fprintf(fp, "%s[", j ? "," : "");
        size_t kk = 0;
        int first = 1;
        for (size_t i = 0; found && i < n; i++) {
            if (!keep[i])
                continue;
            if (kk++ < k0)
                continue;
            double f = vp[i * (size_t)nc + col[j] + 4];
            fprintf(fp, "%s%.0f", first ? "" : ",", isfinite(f) ? f + 0.0 : 0.0);
            first = 0;
        }
        fputc(']', fp);
    }
    fputs("]}", fp);
}

/* (cmd, fp, page title, table, force columns, what the decimation left out) => ,"dropped":{...} in the page and a
 * note on stderr when the events passed the budget and the smallest force episodes were left out (docs/view.md §3):
 * how many, the largest peak among them (every episode above it is kept) and how many per force column */
static void put_ranked(const char *cmd, FILE *fp, const char *title, const view_table *t, const int *forces,
                       int nforce, const view_ranked *rk, size_t budget)
{
    if (rk->dropped == 0)
        return;
    fprintf(fp, ",\"dropped\":{\"episodes\":%zu,\"of\":%zu,\"peak\":", rk->dropped, rk->episodes);
    view_json_num(fp, rk->peak, 17);
    fputs(",\"by\":{", fp);
    char list[512] = "";
    size_t len = 0;
    for (int f = 0, first = 1; f < nforce && f < 64; f++) {
        if (!rk->by_force[f])
            continue;
        fputs(first ? "" : ",", fp);
        view_json_str(fp, t->name[forces[f]]);
        fprintf(fp, ":%zu", rk->by_force[f]);
        if (len < sizeof list)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s %zu", first ? "" : ", ", t->name[forces[f]],
                                    rk->by_force[f]);
        first = 0;
    }
    fputs("}}", fp);
    tool_note(cmd, "note: %s: the contact events pass --rows %zu: %zu of %zu force episodes left out, the smallest, "
              "each peaking at %.3g or less (%s); every flag change and every larger episode kept",
              mech_cli_text(title), budget, rk->dropped, rk->episodes, rk->peak, list);
}

// (cmd, fp, run read, rows budget, page title) => the page: the run's kept rows, poses, events and summary
static int dock_page(const char *cmd, FILE *fp, dock_in *d, size_t budget, const char *title)
{
    const view_table *th = &d->th, *tp = &d->tp;
    size_t n = th->nrow;
    unsigned char *keep = malloc(n);
    if (!keep)
        return mech_cli_fail(cmd, "out of memory");
    int flags[16], forces[16];
    int nflag = cols_of(th, dock_flags, flags), nforce = cols_of(th, dock_forces, forces);
    view_ranked rk;
    size_t m = view_decimate(d->vh, n, th->ncol, flags, nflag, forces, nforce, budget, keep, &rk);
    view_page_begin(fp, title, "dock");
    fputs("\"title\":", fp);
    view_json_str(fp, title);
    fputs(",\"summary\":", fp);
    put_json_doc(fp, d->sum);
    fputs(",\"scenario\":", fp);
    view_json_str(fp, hy_display_name(d->scenario));
    fputc(',', fp);
    dock_geometry(fp, &d->cfg->params);
    fprintf(fp, "\"rows_in\":%zu,\"rows\":%zu,\"budget\":%zu", n, m, budget);
    put_ranked(cmd, fp, title, th, forces, nforce, &rk, budget);
    fputc(',', fp);
    /* events (keyboard stepping): the flags, and the contact forces but the head's and the lateral springs' (which
       the flags cover or which act throughout) */
    int evf[16], nev = 0;
    for (int f = 0; f < nforce; f++)
        if (strncmp(th->name[forces[f]], "head_", 5) != 0 && strncmp(th->name[forces[f]], "chain", 5) != 0)
            evf[nev++] = forces[f];
    put_events(fp, th, d->vh, flags, nflag, evf, nev);
    fputs(",\"channels\":[", fp);
    for (int k = 0; k < th->ncol; k++) {
        fputs(k ? "," : "", fp);
        view_json_str(fp, th->name[k]);
    }
    fputs("],\"units\":[", fp);
    for (int k = 0; k < th->ncol; k++) {
        fputs(k ? "," : "", fp);
        view_json_str(fp, th->unit[k]);
    }
    /* t exactly (17 digits: the page finds a row by its time), the channels to 7 digits, the poses to 5 (10 µm at
       1 m: a tenth of a pixel) */
    fputs("],\"data\":[", fp);
    for (int k = 0; k < th->ncol; k++) {
        fputs(k ? "," : "", fp);
        if (k == 0)
            view_json_column(fp, d->vh, n, th->ncol, k, keep, 17);
        else   /* runs of equal values as [value, count] */
            view_json_runs(fp, d->vh, n, th->ncol, k, keep, 7);
    }
    fputs("],\"pose\":{", fp);
    for (int k = 1, first = 1; k < tp->ncol; k++) {
        if (strncmp(tp->name[k], "hook", 4) == 0)   /* the hooks' columns: "hooks" below */
            continue;
        fputs(first ? "" : ",", fp);
        first = 0;
        view_json_str(fp, tp->name[k]);
        fputc(':', fp);
        view_json_runs(fp, d->vp, n, tp->ncol, k, keep, 5);
    }
    fputs("}", fp);
    dock_hooks(fp, &d->cfg->params.process.hooks, tp, d->vp, n, keep);
    view_page_end(fp);
    free(keep);
    return MECH_EXIT_OK;
}

// (cmd, page path, inputs that must not be overwritten, writer) => the page written atomically
typedef int (*page_fn)(const char *cmd, FILE *fp, void *ctx);
static int write_page(const char *cmd, const char *out, const char *const *inputs, page_fn fn, void *ctx)
{
    hy_atomic a;
    if (mech_out_open(cmd, &a, out, inputs[0], inputs + 1) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    int st = fn(cmd, a.fp, ctx);
    if (st != MECH_EXIT_OK) {
        hy_atomic_abort(&a);
        return st;
    }
    return mech_out_commit(cmd, &a);
}

typedef struct dock_ctx {
    dock_in *d;
    size_t budget;
    char title[512];
} dock_ctx;

static int dock_fn(const char *cmd, FILE *fp, void *ctx)
{
    dock_ctx *c = ctx;
    return dock_page(cmd, fp, c->d, c->budget, c->title);
}

/* (cmd, run folder or NULL, its HDF5 log or NULL, --scenario, page path, budget) => the docking run's page; exit
 * status */
static int view_dock(const char *cmd, const char *dir, const char *log, const char *scenario, const char *out,
                     size_t budget, int quiet)
{
    dock_in d;
    memset(&d, 0, sizeof d);
    int st = log ? dock_read_h5(cmd, log, scenario, &d) : dock_read(cmd, dir, scenario, &d);
    if (log)
        dir = log;
    if (st == MECH_EXIT_OK) {
        dock_ctx c = {&d, budget, ""};
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(d.sum, "variant");
        snprintf(c.title, sizeof c.title, "mech dock %.200s (variant %.8s): %.200s", hy_display_name(d.scenario),
                 cJSON_IsString(v) ? v->valuestring : "?", dir);
        const char *inputs[] = {d.hist, d.pose, d.summary, d.scenario, NULL};
        const char *h5inputs[] = {d.log, d.scenario, NULL};
        st = write_page(cmd, out, log ? h5inputs : inputs, dock_fn, &c);
        if (st == MECH_EXIT_OK && !quiet) {
            printf("mech view: %s: docking run, %zu rows (poses %zu) -> %s\n", mech_cli_text(dir), d.th.nrow,
                   d.tp.nrow, mech_cli_text(out));
        }
    }
    dock_in_free(&d);
    return st;
}

/* ---------- a beam response ---------- */

typedef struct beam_ctx {
    view_table t;
    double *v;
    mech_beam_config *cfg;
    size_t budget;
    char title[512];
    /* --modal: the run's modal coordinates and the model's shapes at the display stations (the FE nodes) */
    view_table mt;
    double *mv;
    mech_beam_model *model;
    size_t nm, ns;
    double *phi;                    /* ns x nm: mech_beam_shapes at the stations                              */
    const double *x;                /* ns stations, m from the root                                           */
} beam_ctx;

/* (cmd, ctx with the response and the configuration, modal file, configuration's path) => the model compiled, its
 * shapes sampled at the FE nodes (mech_beam_shapes: the simulator's functions) and the modal file read and checked
 * against both: t, theta, eta_1..eta_nm (nm the model's reduced coordinates), dtheta_1..dtheta_nh, as many rows as
 * the response and the same times. Every refusal names FILE:LINE:COLUMN. */
static int beam_modal(const char *cmd, beam_ctx *b, const char *modal, const char *config)
{
    hy_err err;
    view_table *t = &b->mt;
    if (mech_beam_model_new(&b->cfg->params, &b->model, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s: %s", hy_display_name(config), err.msg);
    mech_beam_info in;
    mech_beam_model_info(b->model, &in);
    b->nm = in.nm, b->ns = in.n_node, b->x = in.x_node;
    b->phi = malloc(in.n_node * in.nm * sizeof *b->phi);
    if (!b->phi)
        return mech_cli_fail(cmd, "out of memory");
    if (mech_beam_shapes(b->model, b->ns, b->x, b->phi, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    if (view_table_read(modal, 1, t, &err) != HY_OK || view_table_numbers(t, 0, &b->mv, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    int nh = b->cfg->params.n_hinges, want = 2 + (int)b->nm + nh;
    for (int k = 0; k < want; k++) {
        char name[32];
        if (k < 2)
            snprintf(name, sizeof name, "%s", k ? "theta" : "t");
        else if (k < 2 + (int)b->nm)
            snprintf(name, sizeof name, "eta_%d", k - 1);
        else
            snprintf(name, sizeof name, "dtheta_%d", k - 1 - (int)b->nm);
        if (k >= t->ncol)
            return mech_cli_fail(cmd, "%s:1:%d: missing column '%s' (expected t, theta, eta_1..eta_%zu, dtheta_1..%d: "
                                 "the model of %s has %zu modal coordinates and %d hinges)", modal,
                                 t->ncol ? (int)(t->name[t->ncol - 1] - t->name[0] + strlen(t->name[t->ncol - 1])) + 1
                                         : 1, name, b->nm, nh, hy_display_name(config), b->nm, nh);
        if (strcmp(t->name[k], name) != 0)
            return mech_cli_fail(cmd, "%s:1:%d: column '%s' where '%s' is expected (the model of %s has %zu modal "
                                 "coordinates and %d hinges: not this run's modal file, or another modes.count)",
                                 modal, (int)(t->name[k] - t->name[0]) + 1, t->name[k], name, hy_display_name(config),
                                 b->nm, nh);
    }
    if (t->ncol > want)
        return mech_cli_fail(cmd, "%s:1:%d: column '%s' after dtheta_%d: the model of %s has %zu modal coordinates and "
                             "%d hinges", modal, (int)(t->name[want] - t->name[0]) + 1, t->name[want], nh,
                             hy_display_name(config), b->nm, nh);
    if (t->nrow != b->t.nrow)
        return mech_cli_fail(cmd, "%s: %zu rows, %s %zu: not the outputs of one run", modal, t->nrow, b->t.path,
                             b->t.nrow);
    for (size_t i = 0; i < t->nrow; i++) {
        double a = b->v[i * (size_t)b->t.ncol], m = b->mv[i * (size_t)t->ncol];
        if (a != m)
            return mech_cli_fail(cmd, "%s:%d:1: t = %.17g where %s:%d has %.17g: not the outputs of one run", modal,
                                 t->line[i], m, b->t.path, b->t.line[i], a);
    }
    return MECH_EXIT_OK;
}

// (fp, ctx, kept rows) => "modal":{stations, shapes, the kept rows' eta} (the page computes w = sum phi_i eta_i)
static void beam_put_modal(FILE *fp, const beam_ctx *b, const unsigned char *keep)
{
    fputs(",\"modal\":{\"file\":", fp);
    view_json_str(fp, hy_display_name(b->mt.path));
    fprintf(fp, ",\"nm\":%zu,\"x\":[", b->nm);
    for (size_t s = 0; s < b->ns; s++) {
        fputs(s ? "," : "", fp);
        view_json_num(fp, b->x[s], 9);
    }
    fputs("],\"phi\":[", fp);   /* per station, its nm values (9 digits) */
    for (size_t s = 0; s < b->ns; s++) {
        fputs(s ? ",[" : "[", fp);
        for (size_t i = 0; i < b->nm; i++) {
            fputs(i ? "," : "", fp);
            view_json_num(fp, b->phi[s * b->nm + i], 9);
        }
        fputc(']', fp);
    }
    fputs("],\"eta\":[", fp);   /* per coordinate, its kept rows (7 digits, as every channel) */
    for (size_t i = 0; i < b->nm; i++) {
        fputs(i ? "," : "", fp);
        view_json_column(fp, b->mv, b->mt.nrow, b->mt.ncol, 2 + (int)i, keep, 7);
    }
    fputs("]}", fp);
}

static int beam_fn(const char *cmd, FILE *fp, void *ctx)
{
    beam_ctx *b = ctx;
    const view_table *t = &b->t;
    size_t n = t->nrow;
    unsigned char *keep = malloc(n ? n : 1);
    if (!keep)
        return mech_cli_fail(cmd, "out of memory");
    int forces[64], nf = 0;
    for (int k = 0; k < t->ncol && nf < 64; k++)
        if (strncmp(t->name[k], "M_", 2) == 0)
            forces[nf++] = k;
    view_ranked rk;
    size_t m = view_decimate(b->v, n, t->ncol, NULL, 0, forces, nf, b->budget, keep, &rk);
    view_page_begin(fp, b->title, "beam");
    fputs("\"title\":", fp);
    view_json_str(fp, b->title);
    fprintf(fp, ",\"rows_in\":%zu,\"rows\":%zu,\"budget\":%zu", n, m, b->budget);
    put_ranked(cmd, fp, b->title, t, forces, nf, &rk, b->budget);
    fputc(',', fp);
    put_events(fp, t, b->v, NULL, 0, forces, nf);   /* a hinge's moment switching: contact begins or ends */
    fputs(",\"geom\":{", fp);
    if (b->cfg) {
        const mech_beam_params *p = &b->cfg->params;
        kv(fp, "length", p->length);
        kv(fp, "r0", p->r0);
        fputs("\"hinges\":[", fp);
        for (int j = 0; j < p->n_hinges; j++) {
            fprintf(fp, "%s{", j ? "," : "");
            kv(fp, "clearance", p->hinge[j].clearance);
            fprintf(fp, "\"position\":");
            view_json_num(fp, p->hinge[j].position, 9);
            fputc('}', fp);
        }
        fputs("],\"from_config\":1", fp);
    } else {
        fputs("\"from_config\":0", fp);
    }
    fputs("},\"channels\":[", fp);
    for (int k = 0; k < t->ncol; k++) {
        fputs(k ? "," : "", fp);
        view_json_str(fp, t->name[k]);
    }
    fputs("],\"units\":[", fp);
    for (int k = 0; k < t->ncol; k++) {
        fputs(k ? "," : "", fp);
        view_json_str(fp, t->unit[k]);
    }
    fputs("],\"data\":[", fp);
    for (int k = 0; k < t->ncol; k++) {
        fputs(k ? "," : "", fp);
        view_json_column(fp, b->v, n, t->ncol, k, keep, k == 0 ? 17 : 7);
    }
    fputs("]", fp);
    if (b->model)
        beam_put_modal(fp, b, keep);
    view_page_end(fp);
    free(keep);
    return MECH_EXIT_OK;
}

static int view_beam(const char *cmd, const char *csv, const char *config, const char *modal, const char *out,
                     size_t budget, int quiet)
{
    beam_ctx b;
    memset(&b, 0, sizeof b);
    b.budget = budget;
    hy_err err;
    int st = MECH_EXIT_OK;
    if (view_table_read(csv, 1, &b.t, &err) != HY_OK || view_table_numbers(&b.t, 0, &b.v, &err) != HY_OK)
        st = mech_cli_fail(cmd, "%s", err.msg);
    else if (b.t.nrow == 0 || strcmp(b.t.name[0], "t") != 0 || view_table_col(&b.t, "w_tip") < 0 ||
             view_table_col(&b.t, "theta") < 0)
        st = mech_cli_fail(cmd, "%s:1:1: expected a mech beam sim time response (t, w_tip, theta, ...) with rows",
                           csv);
    if (st == MECH_EXIT_OK && config) {
        b.cfg = calloc(1, sizeof *b.cfg);
        if (!b.cfg)
            st = mech_cli_fail(cmd, "out of memory");
        else if (mech_beam_config_read(config, b.cfg, &err) != HY_OK) {
            free(b.cfg);
            b.cfg = NULL;
            st = mech_cli_fail(cmd, "%s", err.msg);
        }
    }
    if (st == MECH_EXIT_OK) {
        int nh = 0;
        for (int k = 0; k < b.t.ncol; k++)
            nh += strncmp(b.t.name[k], "dtheta_", 7) == 0;
        if (b.cfg && b.cfg->params.n_hinges != nh)
            st = mech_cli_fail(cmd, "%s: %d hinges, %s has %d: not this run's configuration", config,
                               b.cfg->params.n_hinges, csv, nh);
    }
    if (st == MECH_EXIT_OK && modal)
        st = beam_modal(cmd, &b, modal, config);
    if (st == MECH_EXIT_OK) {
        snprintf(b.title, sizeof b.title, "mech beam sim: %.400s", hy_display_name(csv));
        const char *inputs[] = {csv, config, modal, NULL};
        st = write_page(cmd, out, inputs, beam_fn, &b);
        if (st == MECH_EXIT_OK && !quiet)
            printf("mech view: %s: beam response, %zu rows -> %s\n", mech_cli_text(csv), b.t.nrow,
                   mech_cli_text(out));
    }
    if (b.cfg) {
        mech_beam_config_free(b.cfg);
        free(b.cfg);
    }
    mech_beam_model_free(b.model);
    free(b.phi);
    view_table_free(&b.mt);
    free(b.mv);
    view_table_free(&b.t);
    free(b.v);
    return st;
}

/* ---------- a sweep ---------- */

typedef struct sweep_ctx {
    const char *dir;
    view_table t;
    cJSON *sum;
    unsigned char *page;   /* per row: 1 when runs/ID/view.html was written */
    char title[512];
} sweep_ctx;

static int sweep_fn(const char *cmd, FILE *fp, void *ctx)
{
    (void)cmd;
    sweep_ctx *s = ctx;
    const view_table *t = &s->t;
    view_page_begin(fp, s->title, "sweep");
    fputs("\"title\":", fp);
    view_json_str(fp, s->title);
    fputs(",\"summary\":", fp);
    put_json_doc(fp, s->sum);
    fputs(",\"columns\":[", fp);
    for (int k = 0; k < t->ncol; k++) {
        fputs(k ? "," : "", fp);
        view_json_str(fp, t->name[k]);
    }
    fputs("],\"rows\":[", fp);
    int crun = view_table_col(t, "run");
    for (size_t i = 0; i < t->nrow; i++) {
        fputs(i ? ",[" : "[", fp);
        for (int k = 0; k < t->ncol; k++) {
            fputs(k ? "," : "", fp);
            view_json_str(fp, t->cell[i * (size_t)t->ncol + k]);
        }
        fputs("]", fp);
    }
    fputs("],\"pages\":[", fp);
    for (size_t i = 0; i < t->nrow; i++) {
        fputs(i ? "," : "", fp);
        if (s->page[i] && crun >= 0) {
            char href[600];
            if (snprintf(href, sizeof href, "runs/%s/view.html", t->cell[i * (size_t)t->ncol + crun]) <
                (int)sizeof href)
                view_json_str(fp, href);
            else
                fputs("null", fp);
        } else {
            fputs("null", fp);
        }
    }
    fputs("]", fp);
    view_page_end(fp);
    return MECH_EXIT_OK;
}

static int view_sweep(const char *cmd, const char *dir, const char *out, size_t budget, int quiet)
{
    sweep_ctx s;
    memset(&s, 0, sizeof s);
    s.dir = dir;
    hy_err err;
    char res[PATH_MAX_LEN], sum[PATH_MAX_LEN];
    path_join(res, sizeof res, dir, "results.csv");
    path_join(sum, sizeof sum, dir, "summary.json");
    int st = MECH_EXIT_OK;
    if (view_table_read(res, 0, &s.t, &err) != HY_OK)
        st = mech_cli_fail(cmd, "%s", err.msg);
    else if (view_table_col(&s.t, "run") != 0 || view_table_col(&s.t, "status") < 0)
        st = mech_cli_fail(cmd, "%s:1:1: expected a mech sweep table (run, the varied keys, status, ...)", res);
    else if (!(s.sum = read_json(cmd, sum)))
        st = MECH_EXIT_FAIL;
    if (st == MECH_EXIT_OK && !(s.page = calloc(s.t.nrow + 1, 1)))
        st = mech_cli_fail(cmd, "out of memory");
    /* the kept runs' pages, beside their outputs */
    size_t npage = 0;
    for (size_t i = 0; st == MECH_EXIT_OK && i < s.t.nrow; i++) {
        const char *id = s.t.cell[i * (size_t)s.t.ncol];
        if (strspn(id, "0123456789") != strlen(id) || !*id)
            st = mech_cli_fail(cmd, "%s:%d:1: run '%s' is not a run number", res, s.t.line[i], mech_cli_text(id));
        char rd[PATH_MAX_LEN], rout[PATH_MAX_LEN + 16], rh[PATH_MAX_LEN + 16];
        if (snprintf(rd, sizeof rd, "%s/runs/%s", dir, id) >= (int)sizeof rd)
            continue;
        path_join(rout, sizeof rout, rd, "view.html");
        path_join(rh, sizeof rh, rd, "history.csv");
        if (st == MECH_EXIT_OK && is_file(rh)) {
            st = view_dock(cmd, rd, NULL, NULL, rout, budget, 1);
            s.page[i] = st == MECH_EXIT_OK;
            npage += s.page[i];
        }
    }
    if (st == MECH_EXIT_OK) {
        snprintf(s.title, sizeof s.title, "mech sweep: %.400s", dir);
        const char *inputs[] = {res, sum, NULL};
        st = write_page(cmd, out, inputs, sweep_fn, &s);
        if (st == MECH_EXIT_OK && !quiet)
            printf("mech view: %s: sweep, %zu runs, %zu run pages -> %s\n", mech_cli_text(dir), s.t.nrow, npage,
                   mech_cli_text(out));
    }
    view_table_free(&s.t);
    cJSON_Delete(s.sum);
    free(s.page);
    return st;
}

int mech_cmd_view(int argc, char **argv)
{
    const char *cmd = "view";
    const char *run = NULL, *out = NULL, *scenario = NULL, *config = NULL, *modal = NULL;
    int rows = ROWS_DEFAULT, quiet = 0;
    const hy_arg tab[] = {
        HY_OPT_STR("output", 'o', &out),
        HY_OPT_STR("scenario", 0, &scenario),
        HY_OPT_STR("config", 0, &config),
        HY_OPT_STR("modal", 0, &modal),
        HY_OPT_INT("rows", 0, &rows, 10, NULL),
        HY_OPT_FLAG("quiet", 'q', &quiet),
        HY_OPT_END,
    };
    int go = mech_cli_parse(cmd, usage, tab, argc, argv, "missing RUN (a mech dock or mech sweep output folder, or a "
                            "mech beam sim CSV)", &run);
    if (go != MECH_CLI_GO)
        return go;
    if (modal && !config)
        return mech_cli_usage(cmd, "--modal needs --config (the model whose shapes draw the beam)");
    char dir[PATH_MAX_LEN], page[PATH_MAX_LEN + 16], probe[PATH_MAX_LEN + 32];
    size_t len = strlen(run);
    if (len >= sizeof dir - 64)
        return mech_cli_usage(cmd, "RUN: path too long");
    snprintf(dir, sizeof dir, "%s", run);
    while (len > 1 && dir[len - 1] == '/')
        dir[--len] = 0;
    if (is_dir(dir)) {
        path_join(page, sizeof page, dir, "view.html");
        if (!out)
            out = page;
        path_join(probe, sizeof probe, dir, "results.csv");
        if (is_file(probe)) {
            if (scenario || config)
                return mech_cli_usage(cmd, "--scenario and --config are for a docking run and a beam response");
            return view_sweep(cmd, dir, out, (size_t)rows, quiet);
        }
        path_join(probe, sizeof probe, dir, "history.csv");
        if (is_file(probe)) {
            if (config)
                return mech_cli_usage(cmd, "--config is for a beam response (a mech beam sim CSV)");
            return view_dock(cmd, dir, NULL, scenario, out, (size_t)rows, quiet);
        }
        path_join(probe, sizeof probe, dir, "log.h5");   /* mech dock --format h5 */
        if (is_file(probe)) {
            if (config)
                return mech_cli_usage(cmd, "--config is for a beam response (a mech beam sim CSV)");
            return view_dock(cmd, NULL, probe, scenario, out, (size_t)rows, quiet);
        }
        return mech_cli_fail(cmd, "%s: neither a mech dock output folder (history.csv or log.h5) nor a mech sweep "
                             "folder (results.csv)", dir);
    }
    if (!is_file(dir))
        return mech_cli_fail(cmd, "%s: %s", dir, errno == ENOENT ? "no such file or folder" : "cannot read");
    int h5 = len > 3 && strcmp(dir + len - 3, ".h5") == 0;   /* a mech dock HDF5 log */
    if (h5 && config)
        return mech_cli_usage(cmd, "--config is for a beam response (a mech beam sim CSV)");
    if (scenario && !h5)
        return mech_cli_usage(cmd, "--scenario is for a docking run (its folder or HDF5 log)");
    if (!out) {
        snprintf(page, sizeof page, "%s", dir);
        char *dot = strrchr(page, '.'), *slash = strrchr(page, '/');
        if (dot && (!slash || dot > slash))
            *dot = 0;
        strcat(page, ".html");
        out = page;
    }
    if (h5)
        return view_dock(cmd, NULL, dir, scenario, out, (size_t)rows, quiet);
    return view_beam(cmd, dir, config, modal, out, (size_t)rows, quiet);
}

/* mech dock SCENARIO.json: the probe-cone docking simulator of spec 001 (docs/dock.md, docs/dock-scenarios.md).
 * One run writes, into the output folder, every file atomically: the time histories (history.csv), one t, q, Q
 * record per hysteretic element at every accepted step (<element>.csv, read by hyst loops / replay / plot like a
 * bench record), the summary (summary.json) and the gnuplot figures. A run that fails keeps what it wrote: the
 * files are committed with the rows up to the failure and the summary says why. --capture-speed bisects the
 * closing speed at which the scenario starts to capture (RP-1 §4 S4a). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "hyst/h5log.h"
#include "hyst/model.h"
#include "hyst/util.h"
#include "mech/dock.h"
#include "mech/dock_process.h"
#include "mech/dock_hooks.h"
#include "mech_cli.h"

#define DEG (M_PI / 180)
#define PLOT_POINTS 4000   /* samples kept for the figures (decimated in time)                                */
#define PLOT_CAP (2 * PLOT_POINTS + 1000)   /* the step stride, the time grid and the rows at state changes     */
#define FRAMES_MAX 200     /* frames of the animated GIF                                                     */

static void usage(FILE *fp)
{
    fputs("usage: mech dock SCENARIO.json [--out DIR] [--capture-speed LO HI] [OPTIONS]\n"
          "\n"
          "Two spacecraft docking through the probe-cone mechanism of spec 001 (variant A: spring + friction brake;\n"
          "B: FrT1 + FrT2 + gear-train compliance; C: B with the movable limiter), first contact -> capture ->\n"
          "energy absorption, drive locked; with a \"process\" section the whole process to the closed planes.\n"
          "SCENARIO is a \"mech-dock\" JSON file (fixtures/mech/dock/s1-A.json ... s7-B.json are RP-1's scenarios\n"
          "S1-S7, *-400-* the whole process; every key, unit and default in docs/dock-scenarios.md).\n"
          "\n"
          "Outputs, in DIR (default: outputs.folder of the scenario, else out/STEM in the current folder), each\n"
          "written atomically:\n"
          "  history.csv        the chosen channels (outputs.channels; default all) at outputs.rate rows/s (0: every\n"
          "                     step), header + units row\n"
          "  ELEMENT.csv        t, q, Q of each hysteretic element (axial, spring1, spring2, torsion, bend_y, bend_z;\n"
          "                     cover with the stand option)\n"
          "                     at every accepted step, header + units row: a bench record for hyst loops / plot\n"
          "  summary.json       capture and its time, failure to dock, peaks, stroke, swing, cone contacts, limiter\n"
          "                     tilt, energy budget and residual, momentum drift, element works\n"
          "  forces.png, loops.png, energy.png, view-T.png, animation.gif   gnuplot figures (outputs.plots,\n"
          "                     outputs.view_times, outputs.animation)\n"
          "\n"
          "options:\n"
          "      --out DIR              output folder (created when missing)\n"
          "      --capture-speed LO HI  bisect the closing speed (m/s) between a run that does not capture (LO) and\n"
          "                             one that does (HI), to 1 %; writes DIR/capture-speed.json\n"
          "      --duration S           override duration          --step S   override step (the first trial\n"
          "                             step when error-controlled)\n"
          "      --tolerance T          override integration.tolerance: 0 fixed steps of step, 1e-10 .. 1e-2\n"
          "                             error-controlled steps with contact events (the shipped scenarios: 1e-6;\n"
          "                             the 400 s process scenarios 2.5e-7)\n"
          "      --method dopri5|rk43   override integration.method, the stepper of the error-controlled steps:\n"
          "                             Dormand-Prince 5(4) or RK4 with an order-3 estimate (docs/dock.md 6b)\n"
          "      --control standard|pi  override integration.control, their step-size control: GSL's standard\n"
          "                             control or a PI control (the 400 s process scenarios; docs/dock.md 6b)\n"
          "      --no-plots             no figures          --no-records   no element records (faster)\n"
          "      --format csv|h5|csv+h5 outputs.format: h5 writes ONE file DIR/log.h5 (tables /history and\n"
          "                             /records/ELEMENT, summary as attributes) instead of the CSV files\n"
          "      --output-rate R|events outputs.rate and outputs.records_rate = R rows/s (0: every step), or rows\n"
          "                             only at events (outputs.events \"only\"); the summary uses every step\n"
          "  -q, --quiet                no report on standard output\n"
          "  -h, --help                 this help\n"
          "\n"
          "Units: SI and radians in every output (degrees only where a name says _deg). Exit status: 0 success, 1 bad\n"
          "scenario, model file or failed simulation (the outputs up to the failure are kept), 2 bad usage.\n",
          fp);
}

typedef struct opts {
    const char *scenario, *out;
    double lo, hi, duration, step, tol;
    int capture, set_duration, set_step, set_tol, no_plots, no_records, quiet;
    int format, events;              /* --format (MECH_DOCK_FORMAT_* + 1; 0: the scenario's); --output-rate events */
    int method;                      /* --method: 1 dopri5, 2 rk43 (the choices below); 0: the scenario's          */
    int control;                     /* --control: 1 standard, 2 pi; 0: the scenario's                              */
    double rate;                     /* --output-rate R (< 0: not given)                                          */
} opts;

/* ---------- files ---------- */

// (path) => 1 when it names the scenario or one of its model files (never written over)
static int is_input(const char *path, const opts *o, const mech_dock_config *c)
{
    if (hy_same_file(path, o->scenario))
        return 1;
    for (int s = 0; s < MECH_DOCK_NLAW; s++)
        if (c->law_path[s][0] && hy_same_file(path, c->law_path[s]))
            return 1;
    return 0;
}

/* Writing the outputs cost more than the simulation (S5-B, 80 000 steps: 6 records of 3 numbers per step), nearly
 * all of it the exact number text (hy_fmt_exact, now Dragonbox's shortest digits). So each row is
 * built in memory and written at once, the step's time is formatted once for the 6 records, an exact zero (an element
 * at rest) skips the formatter, and every file has a large stdio buffer. The text is byte for byte what
 * hy_fmt_exact gives, so the records stay exact (hyst loops gives back the booked work). */
#define IOBUF_SIZE (512 * 1024)   /* stdio buffer of each output CSV                                             */
#define NUM_LEN 32                /* hy_fmt_exact's longest text ("-2.2250738585072014e-308") + 1                 */

// (v) => its exact text at b (hy_fmt_exact's, with a shortcut for +-0); returns the length
static int fmt_num(char *b, double v)
{
    if (v == 0) {
        int neg = signbit(v) != 0;
        memcpy(b, "-0", 3);
        if (!neg)
            memcpy(b, "0", 2);
        return 1 + neg;
    }
    return hy_fmt_exact(b, NUM_LEN, v);
}

/* ---------- one run ---------- */

typedef struct run {
    const char *cmd;
    const opts *o;
    const mech_dock_config *c;
    const mech_dock_params *p;
    char dir[MECH_DOCK_PATH_LEN + 64];
    int write;                       /* 0: bisection runs write nothing                                          */
    /* files */
    hy_atomic hist, rec[MECH_DOCK_NEL];
    int hist_open, rec_open[MECH_DOCK_NEL];
    hy_atomic pose;                  /* pose.csv: the two-projection pose at the history's rows (mech view)       */
    int pose_open, pose_nr, pose_np, pose_nh; /* its rollers, pushers and hooks (fixed for the run)                 */
    char *iobuf;                     /* (1 + MECH_DOCK_NEL) x IOBUF_SIZE stdio buffers; freed after the files close */
    char *line;                      /* one history row: MECH_DOCK_NCH x (NUM_LEN + 1)                            */
    int ncol, col[MECH_DOCK_NCH];
    long rows;
    double next_row;                 /* time of the next history row                                             */
    long k_row;
    double next_rec;                 /* time of the next element-record row (outputs.records_rate)               */
    long k_rec;
    double ev_flag[6];               /* contact flags and capture at the step before (outputs.events)            */
    double seq_prev;                 /* the sequencer's state at the step before (process runs)                  */
    int ev_state[MECH_DOCK_NEL], ev_primed;
    hy_h5log *h5;                    /* log.h5 (outputs.format h5): the history and the records as tables        */
    hy_h5table *h5hist, *h5pose, *h5rec[MECH_DOCK_NEL];
    /* figures: every channel + every element's q, Q at a stride of steps, on a time grid and at state changes */
    double *pb;                      /* PLOT_CAP + 2 rows of MECH_DOCK_NCH + 2 MECH_DOCK_NEL                       */
    long pn, pstride;
    double pt_next;                  /* the next figure sample on the time grid duration / PLOT_POINTS             */
    int pprev_in, pprev_kept, pcur;  /* the row of the step before is held (pb[PLOT_CAP + !pcur]); it is a sample;
                                        this step's row goes to pb[PLOT_CAP + pcur]                                */
    mech_dock_pose_view view[16];
    double view_t[16];
    int nview;
    mech_dock_pose_view *frame;      /* FRAMES_MAX poses for the animation                                       */
    double *frame_t, frame_dt;
    int nframe;
    /* result */
    int failed;
    char msg[HY_MSG_LEN];
    hy_progress progress;            /* on a terminal, for a long run                                            */
    unsigned long steps;
    double t_end;
    double work[MECH_DOCK_NEL], q_end[MECH_DOCK_NEL], Q_end[MECH_DOCK_NEL];
    double ch_end[MECH_DOCK_NCH];
    mech_dock_summary sum;
    mech_dock_process_summary ps;   /* the whole process (params.process.enabled)                                 */
    mech_dock_limiter_summary ls;   /* variant C's movable limiter (params.limiter_movable)                        */
    mech_dock_hooks_summary hs;     /* the structural hooks and the docked state (params.process.enabled)          */
} run;

#define PB_WIDTH (MECH_DOCK_NCH + 2 * MECH_DOCK_NEL)

// (params) => how many elements a run of them drives (each writes a record: mech_dock_element_used)
static int elements_used(const mech_dock_params *p)
{
    int n = 0;
    for (int e = 0; e < MECH_DOCK_NEL; e++)
        n += mech_dock_element_used(p, e);
    return n;
}

static void run_free(run *r)
{
    if (r->hist_open)
        hy_atomic_abort(&r->hist);
    if (r->pose_open)
        hy_atomic_abort(&r->pose);
    for (int e = 0; e < MECH_DOCK_NEL; e++)
        if (r->rec_open[e])
            hy_atomic_abort(&r->rec[e]);
    hy_h5log_abort(r->h5);
    r->h5 = NULL;
    free(r->pb);
    free(r->iobuf);
    free(r->line);
    r->iobuf = NULL, r->line = NULL;
    free(r->frame);
    free(r->frame_t);
    r->pb = NULL, r->frame = NULL, r->frame_t = NULL;
}

// (run, file name) => atomic file in the output folder, refused when it is an input
static int open_out(run *r, const char *name, hy_atomic *a)
{
    char path[MECH_DOCK_PATH_LEN + 128];
    hy_err err;
    snprintf(path, sizeof path, "%s/%s", r->dir, name);
    if (is_input(path, r->o, r->c))
        return mech_cli_fail(r->cmd, "%s: refusing to overwrite an input file", path);
    if (hy_atomic_open(a, path, r->o->scenario, &err) != HY_OK)
        return mech_cli_fail(r->cmd, "%s", err.msg);
    mech_out_note(path);
    return MECH_EXIT_OK;
}

/* (run) => pose.csv open with its header: t and the points of mech_dock_sim_view in the cone frame (UJ, bending
 * joint, head, limiter bases, housing axis, active port and axis; the process's lever rollers with their pivots and
 * the pusher rods), one row at each history row, for `mech view` (docs/view.md) */
// (params) => pose.csv's lever rollers (0..4) and pusher rods (0..8); returns its number of columns (t first)
static int pose_shape(const mech_dock_params *p, int *nr, int *np, int *nh)
{
    *nr = p->process.enabled && p->process.cam_on ? p->process.cam.n_lever : 0;
    *np = p->process.enabled ? p->process.pushers.n : 0;
    *nh = p->process.enabled ? p->process.hooks.n : 0;
    *nr = *nr > 4 ? 4 : *nr < 0 ? 0 : *nr;
    *np = *np > 8 ? 8 : *np < 0 ? 0 : *np;
    *nh = *nh > 8 ? 8 : *nh < 0 ? 0 : *nh;
    int n = 1 + 3 * (8 + 2 * *nr + 2 * *np);
    /* the hooks only while the table fits an HDF5 log's columns (/pose; every shipped scenario: 110 of 128) */
    if (*nh && n + 3 + 5 * *nh > HY_H5_MAX_COLS)
        *nh = 0;
    return n + (*nh ? 3 + 5 * *nh : 0);
}

/* t and at most 8 points, 4 rollers with pivots, 8 pusher rods; with hooks the active plane's y axis and per link
   its catch, state and tension (the bases are fixed in the active plane's frame: mech view places them) */
#define POSE_COLS (1 + 3 * (8 + 8 + 16) + 3 + 5 * 8)
#define POSE_NAME 32

/* (run) => names[k] and units[k] of the pose table's columns (pose.csv's header, log.h5's /pose); their count */
static int pose_names(const run *r, char names[][POSE_NAME], const char **units)
{
    static const char *const pt[] = {"uj", "bend", "head", "lim0", "lim1", "hax", "port", "pax"};
    static const char *const xyz[] = {"x", "y", "z"};
    int n = 0;
    units[n] = "s";
    snprintf(names[n++], POSE_NAME, "t");
    for (int k = 0; k < 8; k++)
        for (int d = 0; d < 3; d++) {
            units[n] = k == 5 || k == 7 ? "1" : "m";   /* the housing and port axes are unit vectors */
            snprintf(names[n++], POSE_NAME, "%s_%s", pt[k], xyz[d]);
        }
    for (int j = 0; j < r->pose_nr; j++)
        for (int d = 0; d < 6; d++) {
            units[n] = "m";
            snprintf(names[n++], POSE_NAME, "%s%d_%s", d < 3 ? "roller" : "pivot", j + 1, xyz[d % 3]);
        }
    for (int i = 0; i < r->pose_np; i++)
        for (int d = 0; d < 6; d++) {
            units[n] = "m";
            snprintf(names[n++], POSE_NAME, "pusher%d_%s%s", i + 1, d < 3 ? "b" : "t", xyz[d % 3]);
        }
    /* the hooks (issue 44): the active plane frame's y axis (its x is pax; the links' bases are fixed in that
       frame), each link's catch on the passive plane, its state (enum mech_dock_hook_state: 0 open, 1 closing,
       2 locked, 3 missed) and tension */
    for (int d = 0; r->pose_nh > 0 && d < 3; d++) {
        units[n] = "1";
        snprintf(names[n++], POSE_NAME, "pey_%s", xyz[d]);
    }
    for (int j = 0; j < r->pose_nh; j++)
        for (int d = 0; d < 5; d++) {
            units[n] = d < 3 ? "m" : d == 3 ? "1" : "N";
            if (d < 3)
                snprintf(names[n++], POSE_NAME, "hook%d_c%s", j + 1, xyz[d]);
            else
                snprintf(names[n++], POSE_NAME, "hook%d_%s", j + 1, d == 3 ? "state" : "f");
        }
    return n;
}

/* (run, simulation) => out[1..]: the points of mech_dock_sim_view in the pose table's order (out[0] is left for
 * t); the number of coordinates written. One function for pose.csv and log.h5's /pose (docs/view.md) */
static int pose_points(const run *r, const mech_dock_sim *s, double *out)
{
    mech_dock_pose_view v;
    mech_dock_sim_view(s, &v);
    mech_vec3 pts[8 + 8 + 16];
    int n = 0;
    pts[n++] = v.uj, pts[n++] = v.bend, pts[n++] = v.head, pts[n++] = v.limiter0, pts[n++] = v.limiter1;
    pts[n++] = v.housing_axis, pts[n++] = v.active_port, pts[n++] = v.active_axis;
    for (int j = 0; j < r->pose_nr; j++)
        pts[n++] = j < v.n_roller ? v.roller[j] : mech_vec3_make(NAN, NAN, NAN),
        pts[n++] = j < v.n_roller ? v.lever_pivot[j] : mech_vec3_make(NAN, NAN, NAN);
    for (int i = 0; i < r->pose_np; i++)
        pts[n++] = i < v.n_pusher ? v.pusher_base[i] : mech_vec3_make(NAN, NAN, NAN),
        pts[n++] = i < v.n_pusher ? v.pusher_tip[i] : mech_vec3_make(NAN, NAN, NAN);
    for (int k = 0; k < n; k++)
        out[1 + 3 * k] = pts[k].x, out[2 + 3 * k] = pts[k].y, out[3 + 3 * k] = pts[k].z;
    int c = 1 + 3 * n;
    if (r->pose_nh > 0)
        out[c++] = v.active_ey.x, out[c++] = v.active_ey.y, out[c++] = v.active_ey.z;
    for (int j = 0; j < r->pose_nh; j++) {
        int in = j < v.n_hook;
        mech_vec3 k = in ? v.hook_catch[j] : mech_vec3_make(NAN, NAN, NAN);
        out[c++] = k.x, out[c++] = k.y, out[c++] = k.z;
        out[c++] = in ? v.hook_state[j] : NAN, out[c++] = in ? v.hook_tension[j] : NAN;
    }
    return c - 1;
}

static int open_pose(run *r)
{
    pose_shape(r->p, &r->pose_nr, &r->pose_np, &r->pose_nh);
    if (open_out(r, "pose.csv", &r->pose) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    r->pose_open = 1;
    char names[POSE_COLS][POSE_NAME];
    const char *units[POSE_COLS];
    int n = pose_names(r, names, units);
    FILE *fp = r->pose.fp;
    for (int k = 0; k < n; k++)
        fprintf(fp, "%s%c", names[k], k + 1 < n ? ',' : '\n');
    for (int k = 0; k < n; k++)
        fprintf(fp, "%s%c", units[k], k + 1 < n ? ',' : '\n');
    return MECH_EXIT_OK;
}

// (run, simulation, time text) => one pose.csv row
static void write_pose(run *r, const mech_dock_sim *s, const char *tb, int tn)
{
    double c[POSE_COLS];
    int n = pose_points(r, s, c);
    char line[POSE_COLS * (NUM_LEN + 1) + 2], *l = line;
    memcpy(l, tb, (size_t)tn);
    l += tn;
    for (int k = 1; k <= n; k++) {
        *l++ = ',';
        l += fmt_num(l, c[k]);
    }
    *l++ = '\n';
    fwrite(line, 1, (size_t)(l - line), r->pose.fp);
}

/* (run) => log.h5 open with the tables /history (t and the chosen channels) and /records/ELEMENT (t, q, Q) */
static int open_h5(run *r)
{
    char path[MECH_DOCK_PATH_LEN + 128];
    hy_err err;
    snprintf(path, sizeof path, "%s/log.h5", r->dir);
    if (is_input(path, r->o, r->c))
        return mech_cli_fail(r->cmd, "%s: refusing to overwrite an input file", path);
    mech_out_note(path);   /* this run's output: not swept as stale */
    const char *names[MECH_DOCK_NCH], *units[MECH_DOCK_NCH];
    for (int k = 0; k < r->ncol; k++)
        names[k] = mech_dock_channel_name(r->col[k]), units[k] = mech_dock_channel_unit(r->col[k]);
    if (hy_h5log_open(&r->h5, path, r->o->scenario, &err) != HY_OK ||
        (hy_h5log_set_deflate(r->h5, r->c->out_compression), 0) ||
        hy_h5log_table(r->h5, "/history", r->ncol, names, units,
                       "mech dock time histories: t and the chosen channels (docs/dock-scenarios.md)", &r->h5hist,
                       &err) != HY_OK)
        return mech_cli_fail(r->cmd, "%s", err.msg);
    /* /pose: pose.csv's columns, a row at each history row (mech view reads it; docs/view.md) */
    char pn[POSE_COLS][POSE_NAME];
    const char *pnames[POSE_COLS], *punits[POSE_COLS];
    pose_shape(r->p, &r->pose_nr, &r->pose_np, &r->pose_nh);
    int np = pose_names(r, pn, punits);
    for (int k = 0; k < np; k++)
        pnames[k] = pn[k];
    if (hy_h5log_table(r->h5, "/pose", np, pnames, punits,
                       "mech dock poses for mech view: t and the points of the two-projection view in the cone frame "
                       "at each history row (docs/view.md)", &r->h5pose, &err) != HY_OK)
        return mech_cli_fail(r->cmd, "%s", err.msg);
    for (int e = 0; r->c->records && e < MECH_DOCK_NEL; e++) {
        if (!mech_dock_element_used(r->p, e))
            continue;
        char dset[96], desc[320];
        const char *rn[3] = {"t", "q", "Q"};
        const char *ru[3] = {"s", mech_dock_element_unit_q(e), mech_dock_element_unit_Q(e)};
        snprintf(dset, sizeof dset, "/records/%s", mech_dock_element_name(e));
        snprintf(desc, sizeof desc, "hysteretic element %s: displacement q and force Q at accepted steps (a bench "
                 "record for hyst loops %s:%s)", mech_dock_element_name(e), "log.h5", dset);
        if (hy_h5log_table(r->h5, dset, 3, rn, ru, desc, &r->h5rec[e], &err) != HY_OK)
            return mech_cli_fail(r->cmd, "%s", err.msg);
    }
    return MECH_EXIT_OK;
}

/* (configuration) => the history's columns by default: every channel (t first) but the process's, the stand's and
 * the movable limiter's, which a capture-phase flight run of A or B leaves out (its history stays as before they
 * existed) */
static int default_nch(const mech_dock_config *c)
{
    const mech_dock_params *p = &c->params;
    return p->process.enabled || p->stand || p->limiter_movable ? MECH_DOCK_NCH : MECH_DOCK_CH_PROCESS_FIRST;
}

static int open_files(run *r)
{
    const mech_dock_config *c = r->c;
    /* history: t first, then the chosen channels (all by default) */
    r->ncol = 0;
    r->col[r->ncol++] = MECH_DOCK_CH_T;
    if (c->nchannel == 0) {
        for (int ch = 1; ch < default_nch(c); ch++)
            r->col[r->ncol++] = ch;
    } else {
        for (int k = 0; k < c->nchannel; k++)
            if (c->channel[k] != MECH_DOCK_CH_T)
                r->col[r->ncol++] = c->channel[k];
    }
    r->next_rec = 0, r->k_rec = 0, r->ev_primed = 0;
    r->iobuf = malloc((size_t)(1 + MECH_DOCK_NEL) * IOBUF_SIZE);
    r->line = malloc((size_t)MECH_DOCK_NCH * (NUM_LEN + 1));
    if (!r->iobuf || !r->line)
        return mech_cli_fail(r->cmd, "out of memory");
    if (c->out_format != MECH_DOCK_FORMAT_CSV && open_h5(r) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    if (c->out_format == MECH_DOCK_FORMAT_H5)
        return MECH_EXIT_OK;
    if (open_out(r, "history.csv", &r->hist) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    r->hist_open = 1;
    setvbuf(r->hist.fp, r->iobuf, _IOFBF, IOBUF_SIZE);   /* before any output, as setvbuf requires */
    for (int k = 0; k < r->ncol; k++)
        fprintf(r->hist.fp, "%s%c", mech_dock_channel_name(r->col[k]), k + 1 < r->ncol ? ',' : '\n');
    for (int k = 0; k < r->ncol; k++)
        fprintf(r->hist.fp, "%s%c", mech_dock_channel_unit(r->col[k]), k + 1 < r->ncol ? ',' : '\n');
    if (open_pose(r) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    for (int e = 0; c->records && e < MECH_DOCK_NEL; e++) {
        if (!mech_dock_element_used(r->p, e))
            continue;
        char name[64];
        snprintf(name, sizeof name, "%s.csv", mech_dock_element_name(e));
        if (open_out(r, name, &r->rec[e]) != MECH_EXIT_OK)
            return MECH_EXIT_FAIL;
        r->rec_open[e] = 1;
        setvbuf(r->rec[e].fp, r->iobuf + (size_t)(1 + e) * IOBUF_SIZE, _IOFBF, IOBUF_SIZE);
        fprintf(r->rec[e].fp, "t,q,Q\ns,%s,%s\n", mech_dock_element_unit_q(e), mech_dock_element_unit_Q(e));
    }
    return MECH_EXIT_OK;
}

/* (run, channels and element branch states of this step) => 1 at an event: the first step, a contact flag or
 * capture changed, an element changed branch (a reversal); the step's values are remembered */
static int is_event(run *r, const double *ch, const int *state)
{
    int ev = !r->ev_primed;
    for (int k = 0; k < 6; k++) {
        ev |= r->ev_primed && ch[MECH_DOCK_CH_CONE_CONTACT + k] != r->ev_flag[k];
        r->ev_flag[k] = ch[MECH_DOCK_CH_CONE_CONTACT + k];
    }
    for (int e = 0; e < MECH_DOCK_NEL; e++) {
        ev |= r->ev_primed && state[e] != r->ev_state[e];
        r->ev_state[e] = state[e];
    }
    r->ev_primed = 1;
    return ev;
}

/* (run, this step's channels and element values, which tables get a row) => rows appended to log.h5; a write
 * error stops the run like a failed step (the summary says why) */
static int write_h5(run *r, const mech_dock_sim *s, const double *ch, const double *q, const double *Q, int hist,
                    int rec)
{
    hy_err err;
    double row[MECH_DOCK_NCH > POSE_COLS ? MECH_DOCK_NCH : POSE_COLS];
    int rc = HY_OK;
    if (hist) {
        for (int k = 0; k < r->ncol; k++)
            row[k] = ch[r->col[k]];
        rc = hy_h5log_append(r->h5hist, row, &err);
        if (rc == HY_OK) {   /* the pose at the same row (as pose.csv beside history.csv) */
            row[0] = ch[MECH_DOCK_CH_T];
            pose_points(r, s, row);
            rc = hy_h5log_append(r->h5pose, row, &err);
        }
    }
    for (int e = 0; rec && rc == HY_OK && e < MECH_DOCK_NEL; e++)
        if (r->h5rec[e]) {
            row[0] = ch[MECH_DOCK_CH_T], row[1] = q[e], row[2] = Q[e];
            rc = hy_h5log_append(r->h5rec[e], row, &err);
        }
    if (rc != HY_OK && !r->failed) {
        r->failed = 1;
        snprintf(r->msg, sizeof r->msg, "%s", err.msg);
    }
    return rc;
}

/* (run, channels, element q and Q, time, step) => the figures' samples (pb) */
static void fig_sample(run *r, const double *ch, const double *q, const double *Q, double t, unsigned long step)
{
    /* every pstride-th step; with the whole process also the time grid of duration / PLOT_POINTS (an
       adaptive 400 s run takes far fewer steps than duration / h) and, where the sequencer's state, the links locked
       or the docked state's conditions change, the step before and the step of the change, so that the figures draw
       a switch where it happens (the hooks' panels of process.png; the row of the step before costs a copy a step,
       which a capture-phase run does not pay); nothing without figures (--no-plots, "plots": false) */
    if (!r->c->plots || r->o->no_plots)
        return;
    if (!r->p->process.enabled) {
        if (step % (unsigned long)r->pstride == 0 && r->pn < PLOT_POINTS) {
            double *row = r->pb + (size_t)r->pn++ * PB_WIDTH;
            memcpy(row, ch, MECH_DOCK_NCH * sizeof *row);
            for (int e = 0; e < MECH_DOCK_NEL; e++)
                row[MECH_DOCK_NCH + 2 * e] = q[e], row[MECH_DOCK_NCH + 2 * e + 1] = Q[e];
        }
        return;
    }
    double *cur = r->pb + (size_t)(PLOT_CAP + r->pcur) * PB_WIDTH;
    double *prev = r->pb + (size_t)(PLOT_CAP + !r->pcur) * PB_WIDTH;
    memcpy(cur, ch, MECH_DOCK_NCH * sizeof *cur);
    for (int e = 0; e < MECH_DOCK_NEL; e++)
        cur[MECH_DOCK_NCH + 2 * e] = q[e], cur[MECH_DOCK_NCH + 2 * e + 1] = Q[e];
    int change = r->pprev_in && (cur[MECH_DOCK_CH_SEQ_STATE] != prev[MECH_DOCK_CH_SEQ_STATE] ||
                                 cur[MECH_DOCK_CH_HOOKS_LOCKED] != prev[MECH_DOCK_CH_HOOKS_LOCKED] ||
                                 cur[MECH_DOCK_CH_DOCKED_UNMET] != prev[MECH_DOCK_CH_DOCKED_UNMET]);
    if (change && !r->pprev_kept && r->pn < PLOT_CAP)
        memcpy(r->pb + (size_t)r->pn++ * PB_WIDTH, prev, PB_WIDTH * sizeof *prev);
    int due = step % (unsigned long)r->pstride == 0 || t >= r->pt_next || change;
    if (t >= r->pt_next)
        r->pt_next = (floor(t / (r->p->duration / PLOT_POINTS)) + 1) * (r->p->duration / PLOT_POINTS);
    r->pprev_kept = due && r->pn < PLOT_CAP;
    if (r->pprev_kept)
        memcpy(r->pb + (size_t)r->pn++ * PB_WIDTH, cur, PB_WIDTH * sizeof *cur);
    r->pcur = !r->pcur;   /* this step's row is the next step's row before */
    r->pprev_in = 1;
}

// (run, simulation at an accepted state) => rows, records, figure samples, views, frames
static void observe(run *r, const mech_dock_sim *s)
{
    const double *ch = mech_dock_sim_channels(s);
    double t = ch[MECH_DOCK_CH_T], h = r->p->h;
    unsigned long step = mech_dock_sim_steps(s);
    double q[MECH_DOCK_NEL], Q[MECH_DOCK_NEL];
    int state[MECH_DOCK_NEL];
    for (int e = 0; e < MECH_DOCK_NEL; e++)
        mech_dock_sim_element(s, e, &q[e], &Q[e], &state[e], &r->work[e]);
    if (!r->write)
        return;
    /* which rows this step gets: at the rates (0: every step) and/or at an event (outputs.events) */
    const mech_dock_config *c = r->c;
    int ev = c->out_events != MECH_DOCK_EVENTS_NONE && is_event(r, ch, state);
    int only = c->out_events == MECH_DOCK_EVENTS_ONLY;
    int hist_due = only ? ev : ev || c->out_rate <= 0 || t >= r->next_row - 0.5 * h;
    /* a process run's history has a row at every transition of the sequencer (a fault's trip, the final state), the
       states the summary's times name, whatever the rate */
    if (r->p->process.enabled) {
        hist_due |= step > 0 && ch[MECH_DOCK_CH_SEQ_STATE] != r->seq_prev;
        r->seq_prev = ch[MECH_DOCK_CH_SEQ_STATE];
    }
    int rec_due = only ? ev : ev || c->out_records_rate <= 0 || t >= r->next_rec - 0.5 * h;
    if (!only && c->out_rate > 0 && t >= r->next_row - 0.5 * h)
        r->next_row = (double)++r->k_row / c->out_rate;
    if (!only && c->out_records_rate > 0 && t >= r->next_rec - 0.5 * h)
        r->next_rec = (double)++r->k_rec / c->out_records_rate;
    if (r->h5 && (hist_due || rec_due) && write_h5(r, s, ch, q, Q, hist_due, rec_due) != HY_OK)
        return;
    char tb[NUM_LEN];
    int tn = r->hist_open || r->rec_open[0] ? fmt_num(tb, t) : 0;
    if (r->hist_open && hist_due) {
        char *l = r->line;
        memcpy(l, tb, (size_t)tn);
        l += tn;
        for (int k = 1; k < r->ncol; k++) {   /* col[0] is t */
            *l++ = ',';
            l += fmt_num(l, ch[r->col[k]]);
        }
        *l++ = '\n';
        fwrite(r->line, 1, (size_t)(l - r->line), r->hist.fp);
        if (r->pose_open)
            write_pose(r, s, tb, tn);
    }
    if (hist_due)
        r->rows++;
    for (int e = 0; rec_due && e < MECH_DOCK_NEL; e++)
        if (r->rec_open[e]) {
            char row[3 * NUM_LEN + 4], *l = row;
            memcpy(l, tb, (size_t)tn);
            l += tn;
            *l++ = ',';
            l += fmt_num(l, q[e]);
            *l++ = ',';
            l += fmt_num(l, Q[e]);
            *l++ = '\n';
            fwrite(row, 1, (size_t)(l - row), r->rec[e].fp);
        }
    fig_sample(r, ch, q, Q, t, step);
    while (r->nview < r->c->nview && t >= r->c->view_times[r->nview] - 0.5 * h) {
        mech_dock_sim_view(s, &r->view[r->nview]);
        r->view_t[r->nview++] = t;
    }
    if (r->frame && r->nframe < FRAMES_MAX && t >= r->nframe * r->frame_dt - 0.5 * h) {
        mech_dock_sim_view(s, &r->frame[r->nframe]);
        r->frame_t[r->nframe++] = t;
    }
}

// (run, simulation after an accepted step) => its outputs (observe) and the progress line; 0: go on
static int on_step(void *ctx, const mech_dock_sim *s)
{
    run *r = ctx;
    observe(r, s);
    hy_progress_update(&r->progress, mech_dock_sim_time(s) / r->p->duration);
    return 0;
}

/* (model, run) => the simulation to its end by mech_dock_run, the run function the sweep and Python call too (the
 * outputs of each step in on_step); a failed step is recorded in r->failed / r->msg, everything before it is kept */
static int simulate(const mech_dock_model *m, run *r)
{
    mech_dock_sim *s;
    hy_err err;
    if (mech_dock_sim_new(m, &s, &err) != HY_OK) {
        r->failed = 1;
        snprintf(r->msg, sizeof r->msg, "%s", err.msg);
        return HY_ESTATE;
    }
    const mech_dock_params *p = r->p;
    long n = lround(p->duration / p->h);
    r->pstride = n / PLOT_POINTS + 1;
    observe(r, s);
    mech_dock_run_opts ro = {.on_step = on_step, .ctx = r};
    if (mech_dock_run(m, s, &ro, NULL, NULL, &err) != HY_OK) {
        r->failed = 1;
        snprintf(r->msg, sizeof r->msg, "%s", err.msg);
    }
    r->sum = *mech_dock_sim_summary(s);
    r->ps = *mech_dock_sim_process(s);
    r->ls = *mech_dock_sim_limiter(s);
    r->hs = *mech_dock_sim_hooks(s);
    r->steps = mech_dock_sim_steps(s);
    r->t_end = mech_dock_sim_time(s);
    memcpy(r->ch_end, mech_dock_sim_channels(s), sizeof r->ch_end);
    for (int e = 0; e < MECH_DOCK_NEL; e++) {
        int state;
        mech_dock_sim_element(s, e, &r->q_end[e], &r->Q_end[e], &state, &r->work[e]);
    }
    mech_dock_sim_free(s);
    return r->failed ? HY_ESTATE : HY_OK;
}

/* ---------- summary ---------- */

static cJSON *num_or_null(double v)
{
    return isfinite(v) ? hy_json_exact_number(v) : cJSON_CreateNull();
}

static cJSON *vec(mech_vec3 v)
{
    cJSON *a = cJSON_CreateArray();
    cJSON_AddItemToArray(a, hy_json_exact_number(v.x));
    cJSON_AddItemToArray(a, hy_json_exact_number(v.y));
    cJSON_AddItemToArray(a, hy_json_exact_number(v.z));
    return a;
}

static double norm(mech_vec3 v)
{
    return sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
}

static double drift(mech_vec3 a, mech_vec3 b)
{
    return norm((mech_vec3){b.x - a.x, b.y - a.y, b.z - a.z});
}

/* the whole process in summary.json: the sequencer's log (time, from -> to, cause), the phase times, the drive,
 * the pushers, planes and rollers (docs/dock-process.md §8) */
/* the fault monitor's trip (docs/dock-process.md §2a): its name, time, reason and the values that tripped it; null
 * when none tripped */
static cJSON *fault_json(const mech_dock_fault_state *f, int variant)
{
    if (f->kind == MECH_DOCK_FAULT_NONE)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    char reason[300];
    mech_dock_fault_reason(f, variant, reason, sizeof reason);
    cJSON_AddStringToObject(o, "name", mech_dock_fault_name(f->kind));
    cJSON_AddStringToObject(o, "state", mech_dock_seq_state_name(mech_dock_fault_seq_state(f->kind)));
    cJSON_AddItemToObject(o, "t", hy_json_exact_number(f->t));
    cJSON_AddStringToObject(o, "reason", reason);
    cJSON *v = cJSON_AddObjectToObject(o, "values");
    for (int k = 0; v && k < MECH_DOCK_FAULT_NV && mech_dock_fault_value_name(f->kind, k); k++)
        cJSON_AddItemToObject(v, mech_dock_fault_value_name(f->kind, k), num_or_null(f->v[k]));
    return o;
}

static cJSON *process_json(const mech_dock_process_summary *ps, int variant)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "final_state", mech_dock_seq_state_name(ps->state));
    /* the end of the process is a state (issue 44): END is entered only when the docked state has held
       (mech/dock_hooks.h, docs/dock-process.md §9) */
    cJSON_AddBoolToObject(o, "completed", ps->state == MECH_DOCK_SEQ_END);
    cJSON_AddItemToObject(o, "fault", fault_json(&ps->fault, variant));
    cJSON *lg = cJSON_AddArrayToObject(o, "sequence");
    for (int k = 0; lg && k < ps->n_log; k++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddItemToObject(e, "t", hy_json_exact_number(ps->log[k].t));
        cJSON_AddStringToObject(e, "from", mech_dock_seq_state_name(ps->log[k].from));
        cJSON_AddStringToObject(e, "to", mech_dock_seq_state_name(ps->log[k].to));
        cJSON_AddStringToObject(e, "cause", mech_dock_seq_cause_name(ps->log[k].cause));
        cJSON_AddItemToArray(lg, e);
    }
    if (ps->n_lost)
        cJSON_AddNumberToObject(o, "sequence_events_not_logged", ps->n_lost);
    cJSON_AddItemToObject(o, "t_retract", num_or_null(ps->t_retract));
    cJSON_AddItemToObject(o, "t_align", num_or_null(ps->t_align));
    cJSON_AddItemToObject(o, "t_closed", num_or_null(ps->t_closed));
    cJSON_AddItemToObject(o, "t_end", num_or_null(ps->t_end));
    cJSON_AddItemToObject(o, "drive_work", hy_json_exact_number(ps->drive_work));
    cJSON_AddItemToObject(o, "drive_limit_time", hy_json_exact_number(ps->drive_limit_time));
    cJSON_AddItemToObject(o, "retract_force_max", hy_json_exact_number(ps->retract_force_max));
    cJSON_AddItemToObject(o, "stroke_end", hy_json_exact_number(ps->stroke_end));
    cJSON_AddItemToObject(o, "plane_gap_min", num_or_null(isfinite(ps->gap_min) ? ps->gap_min : NAN));
    cJSON_AddItemToObject(o, "pusher_force_max", hy_json_exact_number(ps->pusher_force_max));
    cJSON_AddItemToObject(o, "plane_force_max", hy_json_exact_number(ps->plane_force_max));
    if (ps->guide_n > 0) {   /* the roll guides (docs/dock-process.md §9a) */
        cJSON *rg = cJSON_AddObjectToObject(o, "roll_guides");
        cJSON_AddItemToObject(rg, "t_enter", num_or_null(ps->guide_t_enter));
        cJSON_AddItemToObject(rg, "roll_enter_deg", num_or_null(ps->guide_roll_enter / DEG));
        cJSON_AddItemToObject(rg, "force_max", hy_json_exact_number(ps->guide_force_max));
        cJSON_AddNumberToObject(rg, "miss_steps", (double)ps->guide_miss_steps);
    }
    cJSON_AddItemToObject(o, "roller_force_max", hy_json_exact_number(ps->roller_force_max));
    cJSON_AddNumberToObject(o, "roller_steps", (double)ps->roller_steps);
    cJSON_AddNumberToObject(o, "roller_impacts", (double)ps->roller_impacts);
    cJSON_AddItemToObject(o, "limiter_pad_force_max", hy_json_exact_number(ps->pad_force_max));
    cJSON_AddNumberToObject(o, "limiter_pad_impacts", (double)ps->pad_impacts);
    cJSON_AddItemToObject(o, "limiter_pad_arm_mean", num_or_null(ps->pad_arm_mean));
    cJSON_AddItemToObject(o, "limiter_pad_arm_min", num_or_null(ps->pad_arm_min));
    cJSON_AddItemToObject(o, "limiter_pad_arm_max", num_or_null(ps->pad_arm_max));
    cJSON_AddNumberToObject(o, "roller_all_touch_steps", (double)ps->roller_all);
    cJSON_AddItemToObject(o, "frt1_slip_max", hy_json_exact_number(ps->frt1_slip_max));
    cJSON_AddItemToObject(o, "frt1_slip_end", hy_json_exact_number(ps->frt1_slip_end));
    cJSON_AddItemToObject(o, "energy_residual_relative", hy_json_exact_number(ps->e_residual_rel));
    /* the docked state when the sequencer closed the planes (docs/dock-process.md §2a; the history's row there) */
    cJSON *cl = cJSON_AddObjectToObject(o, "at_closed");
    cJSON_AddItemToObject(cl, "roll", num_or_null(ps->roll_closed));
    cJSON_AddItemToObject(cl, "tilt", num_or_null(ps->tilt_closed));
    cJSON_AddItemToObject(cl, "rod_gap_max", num_or_null(ps->gap_closed_max));
    return o;
}

static cJSON *deg_or_null(double rad)
{
    return num_or_null(rad * 180 / M_PI);
}

// (hooks' summary) => why they did not close: a missed catch first (it can never lock), else the unmet condition
static const char *hooks_fail_reason(const mech_dock_hooks_summary *hs)
{
    return hs->missed > 0 ? "hooks missed their catches (roll or offset beyond the catch's half-width at the start)"
                          : mech_dock_docked_reason(hs->unmet);
}

/* the structural hooks and the docked state (docs/dock-process.md §9); with "hooks not closed in time" its
 * failure record: time, reason (the first docked condition unmet at the timeout) and the values */
static cJSON *hooks_json(const mech_dock_hooks_summary *hs, const mech_dock_hooks_params *hp, int state)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "t_start", num_or_null(hs->t_start));
    cJSON_AddNumberToObject(o, "links", hp->n);
    cJSON_AddNumberToObject(o, "engaged", hs->engaged);
    cJSON_AddNumberToObject(o, "missed", hs->missed);
    cJSON_AddItemToObject(o, "roll_start_deg", deg_or_null(hs->roll_start));
    cJSON_AddItemToObject(o, "catch_offset_max_start", num_or_null(hs->miss_max));
    cJSON_AddNumberToObject(o, "locked", hs->locked);
    cJSON_AddItemToObject(o, "t_locked", num_or_null(hs->t_locked));
    cJSON_AddItemToObject(o, "t_docked", num_or_null(hs->t_docked));
    cJSON_AddItemToObject(o, "tension_min", num_or_null(hs->tension_min));
    cJSON_AddItemToObject(o, "tension_max", num_or_null(hs->tension_max));
    cJSON_AddItemToObject(o, "tension_peak", hy_json_exact_number(hs->tension_peak));
    cJSON_AddItemToObject(o, "drive_work", hy_json_exact_number(hs->work));
    cJSON_AddItemToObject(o, "rod_gap_max_end", num_or_null(hs->gap_rods));
    cJSON_AddItemToObject(o, "roll_end_deg", deg_or_null(hs->roll));
    cJSON_AddItemToObject(o, "tilt_end_deg", deg_or_null(hs->tilt));
    cJSON_AddBoolToObject(o, "docked_end", hs->unmet == 0);
    cJSON_AddStringToObject(o, "docked_end_reason", mech_dock_docked_reason(hs->unmet));
    if (state == MECH_DOCK_SEQ_FAIL_HOOKS) {
        cJSON *f = cJSON_AddObjectToObject(o, "failure");
        cJSON_AddStringToObject(f, "name", mech_dock_seq_cause_name(MECH_DOCK_SEQ_BY_HOOKS_TIMEOUT));
        cJSON_AddItemToObject(f, "t", num_or_null(hs->t_fail));
        cJSON_AddStringToObject(f, "reason", hooks_fail_reason(hs));
        cJSON *v = cJSON_AddObjectToObject(f, "values");
        cJSON_AddNumberToObject(v, "locked", hs->locked);
        cJSON_AddNumberToObject(v, "missed", hs->missed);
        cJSON_AddItemToObject(v, "roll_start_deg", deg_or_null(hs->roll_start));
        cJSON_AddItemToObject(v, "catch_offset_max_start", num_or_null(hs->miss_max));
        cJSON_AddItemToObject(v, "catch_half_width", hy_json_exact_number(hp->roll_tol * hp->radius));
        cJSON_AddItemToObject(v, "tension_min", num_or_null(hs->tension_min));
        cJSON_AddItemToObject(v, "preload_min", hy_json_exact_number(hp->preload_min));
        cJSON_AddItemToObject(v, "rod_gap_max", num_or_null(hs->gap_rods));
        cJSON_AddItemToObject(v, "contact_gap", hy_json_exact_number(hp->contact_gap));
        cJSON_AddItemToObject(v, "roll_deg", deg_or_null(hs->roll));
        cJSON_AddItemToObject(v, "roll_tol_deg", deg_or_null(hp->roll_tol));
        cJSON_AddItemToObject(v, "tilt_deg", deg_or_null(hs->tilt));
        cJSON_AddItemToObject(v, "tilt_tol_deg", deg_or_null(hp->tilt_tol));
    }
    return o;
}

// variant C: the movable limiter's contact with the cone, its stroke and its guides (docs/dock-process.md §8.5)
static cJSON *limiter_json(const mech_dock_limiter_summary *ls)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "first_contact", num_or_null(ls->first_contact));
    cJSON_AddBoolToObject(o, "contact_before_capture", ls->before_capture);
    cJSON_AddItemToObject(o, "last_contact_change", num_or_null(ls->last_change));
    cJSON_AddNumberToObject(o, "impacts", (double)ls->impacts);
    cJSON_AddItemToObject(o, "stroke_max", hy_json_exact_number(ls->x_max));
    cJSON_AddItemToObject(o, "stroke_end", hy_json_exact_number(ls->x_end));
    cJSON_AddItemToObject(o, "pad_force_max", hy_json_exact_number(ls->force_max));
    cJSON_AddItemToObject(o, "guide_friction_max", hy_json_exact_number(ls->friction_max));
    cJSON_AddItemToObject(o, "guide_friction_work", hy_json_exact_number(ls->friction_work));
    cJSON_AddNumberToObject(o, "loaded_steps", (double)ls->loaded_steps);
    cJSON_AddNumberToObject(o, "stuck_steps", (double)ls->stuck_steps);
    cJSON_AddNumberToObject(o, "stick_events", (double)ls->stick_events);
    cJSON_AddNumberToObject(o, "breakaways", (double)ls->breakaways);
    return o;
}

static cJSON *summary(const run *r, const char *scenario)
{
    const mech_dock_params *p = r->p;
    const mech_dock_summary *u = &r->sum;
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "scenario", scenario);
    cJSON_AddStringToObject(doc, "variant", mech_dock_variant_name(p));
    cJSON_AddStringToObject(doc, "status", r->failed ? "failed" : "ok");
    if (r->failed)
        cJSON_AddStringToObject(doc, "error", r->msg);
    cJSON_AddStringToObject(doc, "active", p->active.name);
    cJSON_AddStringToObject(doc, "passive", p->passive.name);
    cJSON_AddItemToObject(doc, "closing_speed", hy_json_exact_number(p->init.closing_speed));
    cJSON_AddItemToObject(doc, "step", hy_json_exact_number(p->h));
    cJSON_AddItemToObject(doc, "tolerance", hy_json_exact_number(p->tol));
    cJSON_AddStringToObject(doc, "method", p->tol == 0 ? "fixed" : p->method == MECH_DOCK_RK43 ? "rk43" : "dopri5");
    cJSON_AddStringToObject(doc, "control",
                            p->tol == 0 ? "fixed" : p->control == MECH_DOCK_CONTROL_PI ? "pi" : "standard");
    cJSON_AddItemToObject(doc, "steps", cJSON_CreateNumber((double)r->steps));
    cJSON_AddItemToObject(doc, "time", hy_json_exact_number(r->t_end));
    cJSON_AddBoolToObject(doc, "captured", u->captured);
    cJSON_AddItemToObject(doc, "capture_time", num_or_null(u->captured ? u->capture_time : NAN));
    cJSON *lt = cJSON_AddArrayToObject(doc, "latch_times");
    for (int k = 0; k < 4; k++)
        cJSON_AddItemToArray(lt, num_or_null(u->latch_time[k]));
    cJSON_AddBoolToObject(doc, "failure_to_dock", u->failed);
    cJSON_AddItemToObject(doc, "capture_timeout", hy_json_exact_number(p->capture_timeout));
    cJSON_AddItemToObject(doc, "first_contact_time", num_or_null(u->first_contact_time));
    cJSON_AddNumberToObject(doc, "cone_contacts", u->cone_contacts);
    cJSON_AddItemToObject(doc, "peak_axial_force", hy_json_exact_number(u->peak_axial));
    cJSON_AddItemToObject(doc, "peak_lateral_force", hy_json_exact_number(u->peak_lateral));
    cJSON_AddItemToObject(doc, "peak_limiter_force", hy_json_exact_number(u->peak_limiter));
    cJSON_AddItemToObject(doc, "stroke_max", hy_json_exact_number(u->stroke_max));
    cJSON_AddItemToObject(doc, "swing_max", hy_json_exact_number(u->swing_max));
    cJSON_AddItemToObject(doc, "swing_max_deg", hy_json_exact_number(u->swing_max / DEG));
    cJSON_AddItemToObject(doc, "limiter_tilt", num_or_null(u->limiter_tilt));
    cJSON_AddItemToObject(doc, "limiter_tilt_deg", num_or_null(u->limiter_tilt / DEG));
    /* energy budget at the end: initial KE = kinetic + stored + dissipated + residual (docs/dock.md) */
    cJSON *en = cJSON_AddObjectToObject(doc, "energy");
    cJSON_AddItemToObject(en, "initial", hy_json_exact_number(u->e_initial));
    for (int ch = MECH_DOCK_CH_E_KIN_VEHICLES; ch <= MECH_DOCK_CH_E_RESIDUAL; ch++)
        cJSON_AddItemToObject(en, mech_dock_channel_name(ch), hy_json_exact_number(r->ch_end[ch]));
    if (p->process.enabled) {   /* the drive: its motors' work is an input, what it holds is a term of the budget */
        cJSON_AddItemToObject(en, mech_dock_channel_name(MECH_DOCK_CH_E_DRIVE),
                              hy_json_exact_number(r->ch_end[MECH_DOCK_CH_E_DRIVE]));
        cJSON_AddItemToObject(en, mech_dock_channel_name(MECH_DOCK_CH_E_DRIVE_STORED),
                              hy_json_exact_number(r->ch_end[MECH_DOCK_CH_E_DRIVE_STORED]));
    }
    cJSON_AddItemToObject(en, "residual_max", hy_json_exact_number(u->e_residual_max));
    cJSON_AddItemToObject(en, "residual_max_percent",
                          num_or_null(u->e_initial > 0 ? 100 * u->e_residual_max / u->e_initial : NAN));
    cJSON *mo = cJSON_AddObjectToObject(doc, "momentum");
    cJSON_AddItemToObject(mo, "linear_initial", vec(u->momentum0));
    cJSON_AddItemToObject(mo, "linear_final", vec(u->momentum));
    cJSON_AddItemToObject(mo, "linear_drift_relative",
                          num_or_null(norm(u->momentum0) > 0 ? drift(u->momentum0, u->momentum) / norm(u->momentum0)
                                                             : NAN));
    cJSON_AddItemToObject(mo, "angular_initial", vec(u->ang_momentum0));
    cJSON_AddItemToObject(mo, "angular_final", vec(u->ang_momentum));
    cJSON_AddItemToObject(mo, "angular_drift", hy_json_exact_number(drift(u->ang_momentum0, u->ang_momentum)));
    /* the docked state's measures (issue 44; docs/dock-process.md §8.6) */
    cJSON *dk = cJSON_AddObjectToObject(doc, "docked");
    cJSON_AddItemToObject(dk, "tilt_max", num_or_null(u->tilt_max));
    cJSON_AddItemToObject(dk, "tilt_max_deg", num_or_null(u->tilt_max / DEG));
    cJSON_AddItemToObject(dk, "tilt_end", num_or_null(u->tilt_end));
    cJSON_AddItemToObject(dk, "roll_closed", num_or_null(u->roll_closed));
    cJSON_AddItemToObject(dk, "roll_closed_deg", num_or_null(u->roll_closed / DEG));
    cJSON_AddItemToObject(dk, "latch_roll_closed", num_or_null(u->latch_roll_closed));
    cJSON_AddItemToObject(dk, "latch_roll_closed_deg", num_or_null(u->latch_roll_closed / DEG));
    cJSON_AddItemToObject(dk, "latches_closed", u->latches_closed >= 0 ? cJSON_CreateNumber(u->latches_closed)
                                                                         : cJSON_CreateNull());
    cJSON_AddItemToObject(dk, "latches_all_time", num_or_null(u->latches_all_time));
    cJSON_AddItemToObject(dk, "limiter_clearance", num_or_null(u->limiter_clearance));
    cJSON_AddItemToObject(dk, "limiter_lead", num_or_null(u->limiter_lead));
    cJSON_AddItemToObject(dk, "frt1_restored", hy_json_exact_number(u->frt1_restored));
    cJSON_AddItemToObject(dk, "frt1_pusher_share", num_or_null(u->frt1_pusher_share));
    cJSON_AddItemToObject(dk, "restore_t0", num_or_null(u->restore_t0));
    cJSON_AddItemToObject(dk, "restore_t1", num_or_null(u->restore_t1));
    cJSON_AddItemToObject(dk, "restore_gap_max", num_or_null(u->restore_gap_max));
    cJSON_AddItemToObject(dk, "restore_gap_min", num_or_null(u->restore_gap_min));
    if (p->process.enabled) {
        cJSON *pj = process_json(&r->ps, r->p->variant);
        cJSON_AddItemToObject(pj, "hooks", hooks_json(&r->hs, &r->hs.p, r->ps.state));
        cJSON_AddItemToObject(doc, "process", pj);
    }
    if (p->limiter_movable)
        cJSON_AddItemToObject(doc, "movable_limiter", limiter_json(&r->ls));
    cJSON *els = cJSON_AddArrayToObject(doc, "elements");
    for (int e = 0; e < MECH_DOCK_NEL; e++) {
        if (!mech_dock_element_used(p, e))
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", mech_dock_element_name(e));
        cJSON_AddStringToObject(o, "unit_q", mech_dock_element_unit_q(e));
        cJSON_AddStringToObject(o, "unit_Q", mech_dock_element_unit_Q(e));
        cJSON_AddItemToObject(o, "work", hy_json_exact_number(r->work[e]));
        cJSON_AddItemToObject(o, "q_final", hy_json_exact_number(r->q_end[e]));
        cJSON_AddItemToObject(o, "Q_final", hy_json_exact_number(r->Q_end[e]));
        if (r->rec_open[e] || (r->c->records && r->write)) {
            char name[64];
            snprintf(name, sizeof name, r->c->out_format == MECH_DOCK_FORMAT_H5 ? "log.h5:/records/%s" : "%s.csv",
                     mech_dock_element_name(e));
            cJSON_AddStringToObject(o, "record", name);
        }
        cJSON_AddItemToArray(els, o);
    }
    return doc;
}

/* ---------- gnuplot ---------- */

typedef struct figure {
    mech_fig g;
    FILE *fp;
} figure;

// (run, name, terminal) => script open with the terminal and the temporary output set
static int fig_open(const run *r, figure *f, const char *name, const char *term)
{
    char path[MECH_DOCK_PATH_LEN + 128];
    snprintf(path, sizeof path, "%s/%s", r->dir, name);
    if (is_input(path, r->o, r->c))
        return mech_cli_fail(r->cmd, "%s: refusing to overwrite an input file", path);
    if (mech_fig_open(r->cmd, &f->g, path, NULL, term) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    mech_out_note(path);
    f->fp = f->g.fp;
    fputs("set grid\n", f->fp);
    return MECH_EXIT_OK;
}

static int fig_run(const run *r, figure *f)
{
    fputs("unset multiplot\n", f->fp);
    return mech_fig_run(r->cmd, &f->g);
}

// (fp, block name, columns of the figure samples) => datablock of t and the columns (scaled)
static void block(FILE *fp, const run *r, const char *name, const int *cols, int ncol, double scale)
{
    fprintf(fp, "$%s << EOD\n", name);
    for (long i = 0; i < r->pn; i++) {
        const double *row = r->pb + (size_t)i * PB_WIDTH;
        fprintf(fp, "%.9g", row[MECH_DOCK_CH_T]);
        for (int k = 0; k < ncol; k++)
            fprintf(fp, " %.9g", scale * row[cols[k]]);
        fputc('\n', fp);
    }
    fputs("EOD\n", fp);
}

static void capture_line(FILE *fp, const run *r)
{
    fputs("unset arrow\nunset label\n", fp);
    if (r->sum.captured)
        fprintf(fp, "set arrow from %.9g, graph 0 to %.9g, graph 1 nohead dt 2 lc rgb 'gray40'\n",
                r->sum.capture_time, r->sum.capture_time);
    /* the whole process: a dashed line at every transition of the sequencer, named at the top */
    for (int k = 0; r->p->process.enabled && k < r->ps.n_log; k++) {
        const mech_dock_seq_event *ev = &r->ps.log[k];
        if (ev->from == ev->to || ev->to == MECH_DOCK_SEQ_ABSORB)   /* the capture line marks ABSORB */
            continue;
        fprintf(fp, "set arrow from %.9g, graph 0 to %.9g, graph 1 nohead dt 3 lc rgb 'gray55'\n"
                "set label '%s' at %.9g, graph 0.97 rotate by 90 right font ',8' tc rgb 'gray35'\n", ev->t, ev->t,
                mech_dock_seq_state_name(ev->to), ev->t);
    }
}

// (fp, phase names, start and width of their bands, the panel's span) => the label, horizontal where it fits
static void phase_label(FILE *fp, const char *names, double t, double w, double span)
{
    int wide = w > 0.08 * span;
    fprintf(fp, "set label '%s' at %.9g, graph 0.96 %s font ',10' tc rgb 'gray20' front\n", names, t + 0.005 * span,
            wide ? "left" : "rotate by 90 right");
}

/* the sequencer's phases as bands behind a panel over [t_lo, t_hi] (the panel's time range), each named inside at
 * its start (horizontal where it is wide enough, else turned), and the fault that ended the run as a red line with
 * its name */
static void phase_bands(FILE *fp, const run *r, double t_lo, double t_hi)
{
    double span = t_hi - t_lo, t0 = 0, lab_t = 0, lab_w = 0;
    int st = r->p->process.start, n = 0;
    char lab[256] = "";
    fputs("unset object\nunset label\n", fp);
    for (int k = 0; k <= r->ps.n_log; k++) {
        const mech_dock_seq_event *ev = k < r->ps.n_log ? &r->ps.log[k] : NULL;
        if (ev && ev->from == ev->to)
            continue;
        double t1 = ev ? ev->t : t_hi;
        if ((t1 > t0 || !ev) && t1 >= t_lo && t0 <= t_hi) {
            int fail = st >= MECH_DOCK_SEQ_FAIL_NO_CAPTURE;
            double a = fmax(t0, t_lo), b = fmin(t1, t_hi);
            n++;
            fprintf(fp, "set object %d rect from %.9g, graph 0 to %.9g, graph 1 behind fc rgb '%s' fs solid 0.35 "
                    "noborder\n", n, a, fmax(b, a + 1e-3 * span), fail ? "#f4a6a6" : n % 2 ? "#dde8f5" : "#f2f2f2");
            /* a phase too short to be seen (ready and capture last milliseconds of a 400 s run) shares the label
               of the phases that start within 1.5 % of the span after it: "ready / capture / absorb" */
            if (lab[0] && a - lab_t > 0.015 * span) {
                phase_label(fp, lab, lab_t, lab_w, span);
                lab[0] = '\0';
            }
            if (!lab[0])
                lab_t = a, lab_w = 0;
            snprintf(lab + strlen(lab), sizeof lab - strlen(lab), "%s%s", lab[0] ? " / " : "",
                     mech_dock_seq_state_name(st));
            lab_w = b - lab_t;
        }
        if (ev)
            st = ev->to, t0 = t1;
    }
    if (lab[0])
        phase_label(fp, lab, lab_t, lab_w, span);
    const mech_dock_fault_state *f = &r->ps.fault;
    if (f->kind != MECH_DOCK_FAULT_NONE && f->t >= t_lo && f->t <= t_hi)
        fprintf(fp, "set arrow from %.9g, graph 0 to %.9g, graph 1 nohead lw 2 lc rgb 'red' front\n"
                "set label 'FAULT: %s' at %.9g, graph 0.3 right offset -0.5,0 font ',10' tc rgb 'red' front\n", f->t, f->t,
                mech_dock_fault_name(f->kind), f->t);
}

/* The structural hooks (docs/dock-process.md §9, issue 44 item 5) in two panels over the closing: from a little
 * before the hook drive starts (CLOSED) to the end, where the 400 s axis would squeeze them into its last tenth; the
 * whole run when the drive never started. $H: t, the four pairs' tensions (kN), the links locked, the jaw's travel
 * from the capture range (mm) and the docked state's unmet bits (MECH_DOCK_DOCKED_*). Above: the tensions and the
 * links locked; below: the jaw travel and each docked-state condition as a red bar while it is unmet. */
static void plot_hooks(FILE *fp, const run *r)
{
    const mech_dock_hooks_summary *hs = &r->hs;
    const mech_dock_hooks_params *hp = &r->p->process.hooks;
    double t_end = r->t_end;   /* the run's end (the last figure sample may be a little before it) */
    int started = isfinite(hs->t_start);
    double t_lo = started ? fmax(0, hs->t_start - fmax(5, 0.15 * (t_end - hs->t_start))) : 0;
    fputs("$H << EOD\n", fp);
    for (long i = 0; i < r->pn; i++) {
        const double *row = r->pb + (size_t)i * PB_WIDTH;
        if (row[MECH_DOCK_CH_T] < t_lo)
            continue;
        fprintf(fp, "%.9g", row[MECH_DOCK_CH_T]);
        for (int k = 0; k < 4; k++)
            fprintf(fp, " %.9g", 1e-3 * row[MECH_DOCK_CH_HOOK_F1 + k]);
        fprintf(fp, " %.9g %.9g %.9g\n", row[MECH_DOCK_CH_HOOKS_LOCKED],
                1e3 * (hp->capture_range - row[MECH_DOCK_CH_HOOK_JAW]), row[MECH_DOCK_CH_DOCKED_UNMET]);
    }
    fputs("EOD\n", fp);
    fprintf(fp, "set xrange [%.9g:%.9g]\n", t_lo, t_end + 0.02 * (t_end - t_lo));   /* room for the last label */
    phase_bands(fp, r, t_lo, t_end);
    if (!started)
        fputs("set label 'the hook drive never started (the planes never closed)' at graph 0.5, graph 0.5 center "
              "font ',12' tc rgb 'gray20' front\n", fp);
    else   /* what the drive found when it started: the catches within the jaws or not */
        fprintf(fp, "set style textbox opaque noborder\nset label 99 'hook drive from %.6g s: %d engaged, %d missed "
                "(roll %.3g deg at the start, catch half-width %.3g deg)%s' at graph 0.99, graph 0.08 right boxed "
                "font ',10' tc rgb '%s' front\n", hs->t_start,
                hs->engaged, hs->missed, hs->roll_start / DEG, hp->roll_tol / DEG,
                hs->engaged == 0 ? ": every hook missed its catch" : "", hs->missed ? "red" : "gray20");
    if (started && isfinite(hs->t_locked))
        fprintf(fp, "set arrow from %.9g, graph 0 to %.9g, graph 1 nohead dt 2 lc rgb 'dark-green' front\n"
                "set label 'all locked' at %.9g, graph 0.5 rotate by 90 right offset -0.6,0 font ',9' "
                "tc rgb 'dark-green' front\n", hs->t_locked, hs->t_locked, hs->t_locked);
    fprintf(fp, "set ylabel 'hook pair tension (kN)'\nset yrange [0:*]\nset y2label 'links locked (of %d)'\n"
            "set y2range [0:%d.5]\nset y2tics 0,1,%d\nset ytics nomirror\nset key top left opaque\n", hp->n, hp->n,
            hp->n);
    fputs("plot $H using 1:2 with lines lw 1.2 title 'hooks 1-2', $H using 1:3 with lines lw 1.2 title 'hooks 3-4', "
          "$H using 1:4 with lines lw 1.2 title 'hooks 5-6', $H using 1:5 with lines lw 1.2 title 'hooks 7-8', "
          "$H using 1:6 axes x1y2 with steps lw 2 lc rgb 'black' title 'links locked'\nunset label 99\n", fp);
    fprintf(fp, "set ylabel 'jaw travel of the engaged links (mm)' tc rgb 'blue'\nset yrange [0:%.9g]\n"
            "set y2label 'docked-state condition unmet (red)' tc rgb 'red'\n"
            "set y2range [0.4:4.6]\nset y2tics ('hooks locked' 1, 'rod gaps' 2, 'roll' 3, 'tilt' 4)\n"
            "unset key\n",
            1.15e3 * (hp->capture_range + hp->preload / hp->stiffness));
    fputs("plot $H using 1:7 with lines lw 1.5 lc rgb 'blue' title 'jaw travel (mean of the engaged links)', "
          "$H using 1:((int($8) & 1) ? 1 : NaN) axes x1y2 with lines lw 6 lc rgb 'red' title 'unmet', "
          "$H using 1:((int($8) & 2) ? 2 : NaN) axes x1y2 with lines lw 6 lc rgb 'red' notitle, "
          "$H using 1:((int($8) & 4) ? 3 : NaN) axes x1y2 with lines lw 6 lc rgb 'red' notitle, "
          "$H using 1:((int($8) & 8) ? 4 : NaN) axes x1y2 with lines lw 6 lc rgb 'red' notitle\n", fp);
    fputs("unset object\nunset arrow\nunset label\nset autoscale\nunset y2label\nunset y2tics\nset ytics mirror\n"
          "set ylabel tc default\nset key top left noopaque\n", fp);
}

// the whole process (docs/dock-process.md): drive, pushers, planes, pads and rollers against time
static int plot_process(const run *r)
{
    figure f;
    if (fig_open(r, &f, "process.png", "pngcairo size 1000,1500 noenhanced font 'sans,10'") != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    FILE *fp = f.fp;
    int fc[5] = {MECH_DOCK_CH_DRIVE_F, MECH_DOCK_CH_HEAD_AXIAL, MECH_DOCK_CH_PUSHER_F, MECH_DOCK_CH_PLANE_F,
                 MECH_DOCK_CH_AXIAL_F};
    int sc[3] = {MECH_DOCK_CH_STROKE, MECH_DOCK_CH_DRIVE_U, MECH_DOCK_CH_PLANE_GAP};
    int rc[5] = {MECH_DOCK_CH_ROLLER_F1, MECH_DOCK_CH_ROLLER_F2, MECH_DOCK_CH_ROLLER_F3, MECH_DOCK_CH_LIMITER_F,
                 MECH_DOCK_CH_PAD_F};
    int gc[5] = {MECH_DOCK_CH_ROD_GAP1, MECH_DOCK_CH_ROD_GAP2, MECH_DOCK_CH_ROD_GAP3, MECH_DOCK_CH_ROD_GAP4,
                 MECH_DOCK_CH_ROD_GAP_MAX};
    int ac[2] = {MECH_DOCK_CH_REL_ROLL, MECH_DOCK_CH_REL_TILT};
    block(fp, r, "F", fc, 5, 1);
    block(fp, r, "S", sc, 3, 1);
    block(fp, r, "R", rc, 5, 1);
    block(fp, r, "G", gc, 5, 1e3);
    block(fp, r, "A", ac, 2, 1 / DEG);
    fprintf(fp, "set multiplot layout 6,1 title 'mech dock: the whole process, variant %s; final state %s; bands: "
            "the phases of the sequencer'\n", mech_dock_variant_name(r->p), mech_dock_seq_state_name(r->ps.state));
    fputs("set xlabel 't (s)'\nset key top left\n", fp);
    /* the docked state: the rod gaps the sequencer tests and the relative roll and tilt, with the phases named */
    phase_bands(fp, r, 0, r->t_end);
    fprintf(fp, "set ylabel 'rod gap (mm)'\nset yrange [-5:%.9g]\nset y2label 'roll, tilt (deg)'\nset y2tics\n"
            "set ytics nomirror\nset key bottom left\n", 1e3 * 4 * r->p->process.pushers.stroke);
    fputs("plot $G using 1:2 with lines lw 1 title 'rod 1', $G using 1:3 with lines lw 1 title 'rod 2', "
          "$G using 1:4 with lines lw 1 title 'rod 3', $G using 1:5 with lines lw 1 title 'rod 4', "
          "$A using 1:2 axes x1y2 with lines lw 1.5 dt 2 lc rgb 'black' title 'roll', "
          "$A using 1:3 axes x1y2 with lines lw 1.5 lc rgb 'black' title 'tilt'\n", fp);
    fputs("unset object\nset autoscale y\nunset y2label\nunset y2tics\nset ytics mirror\nset key top left\n", fp);
    plot_hooks(fp, r);
    capture_line(fp, r);
    fputs("set ylabel 'force (N)'\nplot $F using 1:2 with lines lw 1.2 title 'drive', $F using 1:3 with lines lw 1 "
          "title 'head axial (push-in +)', $F using 1:4 with lines lw 1 title 'pushers', $F using 1:5 with lines lw 1 "
          "title 'docking planes', $F using 1:6 with lines lw 1 title 'axial chain'\n", fp);
    fputs("set ylabel 'm'\nplot $S using 1:2 with lines lw 1.2 title 'stroke', $S using 1:3 with lines lw 1.2 "
          "title 'drive output u', $S using 1:4 with lines lw 1.2 title 'plane gap (axis)'\n", fp);
    if (r->p->limiter_movable) {
        /* variant C: no rollers; the movable limiter's pads, its guide friction and its stroke (XLimD) */
        int lc[2] = {MECH_DOCK_CH_LIMITER_GUIDE_F, MECH_DOCK_CH_LIMITER_X};
        block(fp, r, "L", lc, 2, 1);
        fputs("set ylabel 'force (N)'\nset y2label 'limiter stroke (m)'\nset y2tics\nset ytics nomirror\n"
              "plot $R using 1:5 with lines lw 1 title 'limiter pads on the rim', $R using 1:6 with lines lw 1 "
              "title 'limiter pads on the wall', $L using 1:2 with lines lw 1 title 'guide friction', "
              "$L using 1:3 axes x1y2 with lines lw 1.5 title 'limiter stroke (pushed back +)'\n", fp);
        return fig_run(r, &f);
    }
    fputs("set ylabel 'force (N)'\nplot $R using 1:2 with lines lw 1 title 'roller 1', $R using 1:3 with lines lw 1 "
          "title 'roller 2', $R using 1:4 with lines lw 1 title 'roller 3', $R using 1:5 with lines lw 1 "
          "title 'limiter pads on the rim', $R using 1:6 with lines lw 1 title 'limiter pads on the wall'\n", fp);
    return fig_run(r, &f);
}

// contact forces against time (the paper's Figs. 8 and 10), stroke and swing
static int plot_forces(const run *r)
{
    figure f;
    if (fig_open(r, &f, "forces.png", "pngcairo size 1000,1000 noenhanced font 'sans,10'") != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    FILE *fp = f.fp;
    int fc[3] = {MECH_DOCK_CH_HEAD_AXIAL, MECH_DOCK_CH_HEAD_LATERAL, MECH_DOCK_CH_LIMITER_F};
    int sc[2] = {MECH_DOCK_CH_STROKE, MECH_DOCK_CH_AXIAL_F};
    int wc[1] = {MECH_DOCK_CH_SWING};
    block(fp, r, "F", fc, 3, 1);
    block(fp, r, "S", sc, 2, 1);
    block(fp, r, "W", wc, 1, 1 / DEG);
    fprintf(fp, "set multiplot layout 3,1 title 'mech dock: variant %s, %s (%.0f kg) into %s (%.0f kg) at %.3g m/s%s'\n",
            mech_dock_variant_name(r->p), r->p->active.name, r->p->active.mass, r->p->passive.name,
            r->p->passive.mass, r->p->init.closing_speed, r->sum.captured ? "; dashed: capture" : "; no capture");
    fputs("set xlabel 't (s)'\nset key top right\n", fp);
    capture_line(fp, r);
    fputs("set ylabel 'force on the head (N)'\nplot $F using 1:2 with lines lw 1.2 title 'axial (push-in +)', "
          "$F using 1:3 with lines lw 1.2 title 'lateral', $F using 1:4 with lines lw 1.2 title 'limiter pads'\n", fp);
    fputs("set ylabel 'probe stroke (m)'\nset y2label 'axial chain force (N)'\nset y2tics\nset ytics nomirror\n"
          "plot $S using 1:2 with lines lw 1.2 title 'stroke', $S using 1:3 axes x1y2 with lines lw 1 "
          "title 'axial chain force'\nunset y2tics\nunset y2label\nset ytics mirror\n", fp);
    fputs("set ylabel 'housing swing (deg)'\nplot $W using 1:2 with lines lw 1.2 title 'swing'\n", fp);
    return fig_run(r, &f);
}

// the q-Q loops of the six hysteretic elements
static int plot_loops(const run *r)
{
    figure f;
    if (fig_open(r, &f, "loops.png", "pngcairo size 1200,800 noenhanced font 'sans,10'") != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    FILE *fp = f.fp;
    int nused = elements_used(r->p);
    fprintf(fp, "set multiplot layout %d,3 title 'hysteretic elements: the records ELEMENT.csv (hyst loops / hyst plot "
            "read them)'\nset xtics rotate by -35\nset format x '%%.2g'\n", (nused + 2) / 3);
    for (int e = 0; e < MECH_DOCK_NEL; e++) {
        if (!mech_dock_element_used(r->p, e))
            continue;
        fprintf(fp, "$L%d << EOD\n", e);
        for (long i = 0; i < r->pn; i++) {
            const double *row = r->pb + (size_t)i * PB_WIDTH;
            fprintf(fp, "%.9g %.9g\n", row[MECH_DOCK_NCH + 2 * e], row[MECH_DOCK_NCH + 2 * e + 1]);
        }
        fputs("EOD\n", fp);
        fprintf(fp, "set title '%s (work %.4g J)'\nset xlabel 'q (%s)'\nset ylabel 'Q (%s)'\n"
                "plot $L%d with lines lw 1.2 notitle\n", mech_dock_element_name(e), r->work[e],
                mech_dock_element_unit_q(e), mech_dock_element_unit_Q(e), e);
    }
    return fig_run(r, &f);
}

// the energy budget stacked: kinetic + stored + dissipated against the initial kinetic energy
static int plot_energy(const run *r)
{
    figure f;
    if (fig_open(r, &f, "energy.png", "pngcairo size 1000,600 noenhanced font 'sans,10'") != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    FILE *fp = f.fp;
    enum { NE = MECH_DOCK_CH_E_CONTACT_DISS - MECH_DOCK_CH_E_KIN_VEHICLES + 1 };
    _Static_assert(NE == 9, "one colour per energy term");
    /* a process run adds the drive's stored energy (its stiffness, its output's kinetic energy, its damping) as a
       tenth band; the dashed line is the initial kinetic energy plus the inputs' work (the drive's motors, the
       thrust) at each sample, the bands' sum plus the residual, so that the gap is the residual */
    const int proc = r->p->process.enabled, nb = NE + proc;
    fputs("$E << EOD\n", fp);
    for (long i = 0; i < r->pn; i++) {
        const double *row = r->pb + (size_t)i * PB_WIDTH;
        double acc = 0;
        fprintf(fp, "%.9g", row[MECH_DOCK_CH_T]);
        for (int k = 0; k < NE; k++) {
            acc += row[MECH_DOCK_CH_E_KIN_VEHICLES + k];
            fprintf(fp, " %.9g", acc);
        }
        if (proc) {
            acc += row[MECH_DOCK_CH_E_DRIVE_STORED];
            fprintf(fp, " %.9g", acc);
        }
        fprintf(fp, " %.9g\n", acc + row[MECH_DOCK_CH_E_RESIDUAL]);
    }
    fputs("EOD\n", fp);
    if (proc)
        fprintf(fp, "set title 'energy budget (stacked); dashed: initial KE %.4g J + drive motor work (%.4g J at the "
                "end); the gap is the residual, max %.3g J'\n", r->sum.e_initial,
                r->ch_end[MECH_DOCK_CH_E_DRIVE], r->sum.e_residual_max);
    else
        fprintf(fp, "set title 'energy budget (stacked); dashed: initial KE %.4g J + thrust work; the gap is the "
                "residual, max %.3g J'\n", r->sum.e_initial, r->sum.e_residual_max);
    fputs("set xlabel 't (s)'\nset ylabel 'J'\nset key outside right\nset style fill solid 0.6 noborder\n", fp);
    capture_line(fp, r);
    fputs("plot ", fp);
    if (proc)
        fprintf(fp, "$E using 1:%d:%d with filledcurves lc rgb '#1f1f7a' title '%s', ", NE + 1, NE + 2,
                mech_dock_channel_name(MECH_DOCK_CH_E_DRIVE_STORED));
    /* band k between the sums of the first k and k + 1 terms (columns k + 1 and k + 2; the first from zero) */
    static const char *const colour[NE] = {"#9400d3", "#404040", "#e41a1c", "#377eb8", "#ffd700", "#ff7f00",
                                           "#56b4e9", "#009e73", "#a65628"};
    for (int k = NE - 1; k >= 0; k--) {
        char lower[16];
        snprintf(lower, sizeof lower, k ? "%d" : "(0)", k + 1);
        fprintf(fp, "$E using 1:%s:%d with filledcurves lc rgb '%s' title '%s', ", lower, k + 2, colour[k],
                mech_dock_channel_name(MECH_DOCK_CH_E_KIN_VEHICLES + k));
    }
    fprintf(fp, "$E using 1:%d with lines dt 2 lw 1.5 lc rgb 'black' title '%s'\n", nb + 2,
            proc ? "initial KE + drive work" : "initial KE + thrust work");
    return fig_run(r, &f);
}

/* One frame of the two-projection view (spec 001 §4.1): the plane "Ld" through the cone axis and the
 * bending-joint centre, and the view along the cone axis from the active vehicle. */
/* the hooks in the view: 0 open (the drive not started), 1 engaged (closing or locked), 2 missed */
static int hook_class(int st)
{
    return st == MECH_DOCK_HOOK_CLOSING || st == MECH_DOCK_HOOK_LOCKED ? 1 : st == MECH_DOCK_HOOK_MISSED ? 2 : 0;
}

// (hooks per class) => the plot's terms for the hook blocks $hkopen, $hkon, $hkmiss (empty classes left out)
static void hook_plot(char *buf, size_t len, const int n[3])
{
    snprintf(buf, len, "%s%s%s",
             n[0] ? ", $hkopen with linespoints lw 2 pt 6 ps 0.8 lc rgb 'gray60' title 'hooks (open)'" : "",
             n[1] ? ", $hkon with linespoints lw 3 pt 7 ps 0.8 lc rgb 'dark-red' title 'hooks (engaged)'" : "",
             n[2] ? ", $hkmiss with linespoints lw 2 dt 2 pt 2 ps 0.8 lc rgb 'black' title 'hooks (missed)'" : "");
}

static void view_frame(FILE *fp, const mech_dock_params *p, const mech_dock_pose_view *v, double t, int captured)
{
    const mech_dock_geometry *g = &p->geom;
    double R = g->rim_radius, rs = g->socket_radius, ta = tan(g->half_angle);
    double x_throat = g->rim_x - (R - rs) / ta, x_bottom = x_throat - g->bottom_depth;
    double x_stop = x_throat - g->stop_depth;
    /* in-plane radial unit: towards the bending joint, else the head, else +y */
    double ey = v->bend.y, ez = v->bend.z, er = hypot(ey, ez);
    if (er < 1e-6)
        ey = v->head.y, ez = v->head.z, er = hypot(ey, ez);
    if (er < 1e-6)
        ey = 1, ez = 0, er = 1;
    ey /= er, ez /= er;
#define RAD(P) ((P).y * ey + (P).z * ez)
    fprintf(fp, "set multiplot layout 1,2 title 't = %.3f s%s'\n", t, captured ? " (captured)" : "");
    fprintf(fp, "set size ratio -1\nset title 'plane Ld (cone axis, bending joint)'\nset xlabel 'x (m)'\n"
            "set ylabel 'r (m)'\nset xrange [%.4g:%.4g]\nset yrange [-0.75:0.75]\nset key bottom right\n", x_bottom - 0.1, 1.3);
    fprintf(fp, "set object 1 circle at %.6g,%.6g size %.6g fs solid 0.4 fc rgb 'red'\n", v->head.x, RAD(v->head),
            g->head_radius);
    fputs("$cone << EOD\n", fp);
    fprintf(fp, "%.6g %.6g\n%.6g %.6g\n%.6g %.6g\n%.6g %.6g\n%.6g %.6g\n%.6g %.6g\n%.6g %.6g\n\n", g->rim_x, R + 0.25,
            g->rim_x, R, x_throat, rs, x_bottom, rs, x_bottom, -rs, x_throat, -rs, g->rim_x, -R);
    fprintf(fp, "%.6g %.6g\n\n%.6g %.6g\n%.6g %.6g\nEOD\n", g->rim_x, -R - 0.25, x_stop, rs, x_stop, -rs);
    /* housing axis in the plane and its normal, for the limiter */
    double hx = v->housing_axis.x, hr = RAD(v->housing_axis), hn = hypot(hx, hr);
    double nx = hn > 0 ? -hr / hn : 0, nr = hn > 0 ? hx / hn : 1;
    double ax = v->active_axis.x, ar = RAD(v->active_axis), an = hypot(ax, ar);
    double px = an > 0 ? -ar / an : 0, pr = an > 0 ? ax / an : 1;
    fprintf(fp, "$mech << EOD\n%.6g %.6g\n%.6g %.6g\n%.6g %.6g\n\n", v->uj.x, RAD(v->uj), v->bend.x, RAD(v->bend),
            v->head.x, RAD(v->head));
    fprintf(fp, "%.6g %.6g\n%.6g %.6g\n%.6g %.6g\n%.6g %.6g\n%.6g %.6g\n\n",
            v->limiter0.x + g->limiter_r0 * nx, RAD(v->limiter0) + g->limiter_r0 * nr,
            v->limiter1.x + g->limiter_r1 * nx, RAD(v->limiter1) + g->limiter_r1 * nr,
            v->limiter1.x - g->limiter_r1 * nx, RAD(v->limiter1) - g->limiter_r1 * nr,
            v->limiter0.x - g->limiter_r0 * nx, RAD(v->limiter0) - g->limiter_r0 * nr,
            v->limiter0.x + g->limiter_r0 * nx, RAD(v->limiter0) + g->limiter_r0 * nr);
    fprintf(fp, "%.6g %.6g\n%.6g %.6g\nEOD\n", v->active_port.x + 0.6 * px, RAD(v->active_port) + 0.6 * pr,
            v->active_port.x - 0.6 * px, RAD(v->active_port) - 0.6 * pr);
    fputs("$pts << EOD\n", fp);
    fprintf(fp, "%.6g %.6g\n%.6g %.6g\n%.6g %.6g\nEOD\n", v->uj.x, RAD(v->uj), v->bend.x, RAD(v->bend), v->head.x,
            RAD(v->head));
    /* the whole process: pusher rods (active plane -> tip) and lever rollers (docs/dock-process.md §8) */
    fputs("$push << EOD\n", fp);
    for (int i = 0; i < v->n_pusher; i++)
        fprintf(fp, "%.6g %.6g\n%.6g %.6g\n\n", v->pusher_base[i].x, RAD(v->pusher_base[i]), v->pusher_tip[i].x,
                RAD(v->pusher_tip[i]));
    fputs("EOD\n$roll << EOD\n", fp);
    for (int j = 0; j < v->n_roller; j++)
        fprintf(fp, "%.6g %.6g %.6g\n", v->roller[j].x, RAD(v->roller[j]), v->roller_radius);
    fputs("EOD\n$arms << EOD\n", fp);   /* the levers' arms: pivot on the housing -> roller */
    for (int j = 0; j < v->n_roller; j++)
        fprintf(fp, "%.6g %.6g\n%.6g %.6g\n\n", v->lever_pivot[j].x, RAD(v->lever_pivot[j]), v->roller[j].x,
                RAD(v->roller[j]));
    fputs("EOD\n", fp);
    /* the structural hooks (docs/dock-process.md §9): link point on the active plane -> its catch on the passive
       plane; engaged links (closing, locked) red, open ones grey, missed ones black */
    int nhk[3] = {0, 0, 0};
    static const char *const hk_block[3] = {"hkopen", "hkon", "hkmiss"};
    for (int c = 0; c < 3; c++) {
        fprintf(fp, "$%s << EOD\n", hk_block[c]);
        for (int j = 0; j < v->n_hook; j++)
            if (hook_class(v->hook_state[j]) == c) {
                fprintf(fp, "%.6g %.6g\n%.6g %.6g\n\n", v->hook_base[j].x, RAD(v->hook_base[j]), v->hook_catch[j].x,
                        RAD(v->hook_catch[j]));
                nhk[c]++;
            }
        fputs("EOD\n", fp);
    }
    char hk_plot[400];
    hook_plot(hk_plot, sizeof hk_plot, nhk);
    /* the latches: head centre -> tip (RP-1 §2.2) */
    fputs("$latch << EOD\n", fp);
    for (int k = 0; k < 4; k++)
        fprintf(fp, "%.6g %.6g\n%.6g %.6g\n\n", v->head.x, RAD(v->head), v->latch_tip[k].x, RAD(v->latch_tip[k]));
    fputs("EOD\n", fp);
    fprintf(fp, "plot $cone with lines lw 2 lc rgb 'gray30' title 'cone, socket, stop plane', $mech with lines lw 2 "
            "lc rgb 'blue' title 'housing, probe, limiter, active plane', $pts with points pt 7 ps 0.8 lc rgb 'blue' "
            "notitle, $latch with linespoints lw 2 pt 9 ps 0.6 lc rgb 'purple' title 'latches'%s%s%s\n", v->n_pusher ? ", $push with lines lw 3 lc rgb 'dark-green' title 'pushers'" : "",
            v->n_roller ? ", $arms with lines lw 3 lc rgb 'dark-orange' title 'levers', $roll with circles lc rgb "
                          "'orange' fs solid 0.5 title 'lever rollers'" : "", hk_plot);
    fputs("unset object 1\n", fp);
    /* along the axis: y to the right, z up */
    fprintf(fp, "set title 'along the cone axis'\nset xlabel 'y (m)'\nset ylabel 'z (m)'\nset xrange [-0.6:0.6]\n"
            "set yrange [-0.6:0.6]\n");
    fprintf(fp, "set object 2 circle at %.6g,%.6g size %.6g fs solid 0.4 fc rgb 'red'\n", v->head.y, v->head.z,
            g->head_radius);
    fputs("$ring << EOD\n", fp);
    for (int k = 0; k <= 72; k++)
        fprintf(fp, "%.6g %.6g\n", R * cos(k * 5 * DEG), R * sin(k * 5 * DEG));
    fputs("\n", fp);
    for (int k = 0; k <= 72; k++)
        fprintf(fp, "%.6g %.6g\n", rs * cos(k * 5 * DEG), rs * sin(k * 5 * DEG));
    fprintf(fp, "EOD\n$top << EOD\n%.6g %.6g\n%.6g %.6g\n%.6g %.6g\nEOD\n", v->uj.y, v->uj.z, v->bend.y, v->bend.z,
            v->head.y, v->head.z);
    fputs("$rolltop << EOD\n", fp);
    for (int j = 0; j < v->n_roller; j++)
        fprintf(fp, "%.6g %.6g %.6g\n", v->roller[j].y, v->roller[j].z, v->roller_radius);
    fputs("EOD\n$armtop << EOD\n", fp);
    for (int j = 0; j < v->n_roller; j++)
        fprintf(fp, "%.6g %.6g\n%.6g %.6g\n\n", v->lever_pivot[j].y, v->lever_pivot[j].z, v->roller[j].y,
                v->roller[j].z);
    fputs("EOD\n$pushtop << EOD\n", fp);
    for (int i = 0; i < v->n_pusher; i++)
        fprintf(fp, "%.6g %.6g\n", v->pusher_tip[i].y, v->pusher_tip[i].z);
    fputs("EOD\n", fp);
    /* the latches seen along the axis, and the four slots' walls at the half-width where the head is (from the
       throat to just past the latches' tips) */
    fputs("$latchtop << EOD\n", fp);
    for (int k = 0; k < 4; k++)
        fprintf(fp, "%.6g %.6g\n%.6g %.6g\n\n", v->head.y, v->head.z, v->latch_tip[k].y, v->latch_tip[k].z);
    fputs("EOD\n$slots << EOD\n", fp);
    for (int k = 0; k < 4; k++)
        for (int sd = -1; sd <= 1; sd += 2) {
            double a = 0.5 * M_PI * k + sd * v->slot_half, r1 = p->geom.latch_radius + 0.02;
            fprintf(fp, "%.6g %.6g\n%.6g %.6g\n\n", rs * cos(a), rs * sin(a), r1 * cos(a), r1 * sin(a));
        }
    fputs("EOD\n", fp);
    /* the hooks seen along the axis: the link's point and its catch (apart by the roll and the offset) */
    for (int c = 0; c < 3; c++) {
        fprintf(fp, "$%s << EOD\n", hk_block[c]);
        for (int j = 0; j < v->n_hook; j++)
            if (hook_class(v->hook_state[j]) == c)
                fprintf(fp, "%.6g %.6g\n%.6g %.6g\n\n", v->hook_base[j].y, v->hook_base[j].z, v->hook_catch[j].y,
                        v->hook_catch[j].z);
        fputs("EOD\n", fp);
    }
    fprintf(fp, "plot $ring with lines lw 2 lc rgb 'gray30' title 'rim, throat', $top with linespoints lw 2 pt 7 "
            "lc rgb 'blue' title 'UJ, bending joint, head', $slots with lines lw 1.5 lc rgb 'gray50' title "
            "'slots (half-width %.3g deg here)', $latchtop with linespoints lw 2 pt 9 ps 0.6 lc rgb 'purple' title "
            "'latches'%s%s%s\nunset object 2\n", v->slot_half / DEG,
            v->n_pusher ? ", $pushtop with points pt 5 ps 1 lc rgb 'dark-green' title 'pushers'" : "",
            v->n_roller ? ", $armtop with lines lw 3 lc rgb 'dark-orange' title 'levers', $rolltop with circles lc "
                          "rgb 'orange' fs solid 0.5 title 'lever rollers'" : "", hk_plot);
    fputs("unset multiplot\n", fp);
#undef RAD
}

static int plot_views(const run *r)
{
    for (int k = 0; k < r->nview; k++) {
        figure f;
        char name[64];
        snprintf(name, sizeof name, "view-%g.png", r->c->view_times[k]);
        if (fig_open(r, &f, name, "pngcairo size 1200,600 noenhanced font 'sans,10'") != MECH_EXIT_OK)
            return MECH_EXIT_FAIL;
        view_frame(f.fp, r->p, &r->view[k], r->view_t[k], r->sum.captured && r->sum.capture_time <= r->view_t[k]);
        if (fig_run(r, &f) != MECH_EXIT_OK)
            return MECH_EXIT_FAIL;
    }
    return MECH_EXIT_OK;
}

static int plot_animation(const run *r)
{
    if (r->nframe < 2)
        return MECH_EXIT_OK;
    figure f;
    if (fig_open(r, &f, "animation.gif", "gif animate delay 10 loop 0 size 1000,500 noenhanced font 'sans,9'") !=
        MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    for (int k = 0; k < r->nframe; k++)
        view_frame(f.fp, r->p, &r->frame[k], r->frame_t[k], r->sum.captured && r->sum.capture_time <= r->frame_t[k]);
    return fig_run(r, &f);
}

/* ---------- the command ---------- */

static int load(const char *cmd, const opts *o, mech_dock_config *c, mech_dock_model **m)
{
    hy_err err;
    *m = NULL;
    if (mech_dock_config_read(o->scenario, c, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    if (o->set_step)   /* before the duration: its check counts the steps */
        c->params.h = o->step;
    if (o->set_duration && mech_dock_config_set_duration(c, o->duration, &err) != HY_OK) {
        mech_dock_config_free(c);
        return mech_cli_usage(cmd, "--duration: %s", err.msg);
    }
    if (o->set_tol)
        c->params.tol = o->tol;
    if (o->method)
        c->params.method = o->method == 1 ? MECH_DOCK_DOPRI5 : MECH_DOCK_RK43;
    if (o->control)
        c->params.control = o->control == 1 ? MECH_DOCK_CONTROL_STANDARD : MECH_DOCK_CONTROL_PI;
    if (o->no_records)
        c->records = 0;
    if (o->format)
        c->out_format = o->format - 1;
    if (o->events)
        c->out_events = MECH_DOCK_EVENTS_ONLY;
    else if (o->rate >= 0)
        c->out_rate = c->out_records_rate = o->rate, c->out_events = MECH_DOCK_EVENTS_NONE;
    if (!(c->params.h > 0) || !(c->params.duration >= 0) || c->params.duration / c->params.h > 1e8) {
        double d = c->params.duration, h = c->params.h;
        mech_dock_config_free(c);
        return mech_cli_usage(cmd, "duration %g s / step %g s: expected a step > 0 s and 0 .. 1e8 steps (got %.3g)", d, h,
                              d / h);
    }
    if (mech_dock_model_new(&c->params, m, &err) != HY_OK) {
        mech_dock_config_free(c);
        return mech_cli_fail(cmd, "%s: %s", hy_display_name(o->scenario), err.msg);
    }
    return MECH_EXIT_OK;
}

// (scenario path) => out/STEM
static void default_dir(const char *scenario, char *out, size_t len)
{
    const char *b = strrchr(scenario, '/') ? strrchr(scenario, '/') + 1 : scenario;
    size_t n = strlen(b);
    if (n > 5 && strcmp(b + n - 5, ".json") == 0)
        n -= 5;
    snprintf(out, len, "out/%.*s", (int)n, b);
}

static int write_json(run *r, const char *name, cJSON *doc)
{
    char *txt = doc ? hy_json_print(doc) : NULL;
    cJSON_Delete(doc);
    if (!txt)
        return mech_cli_fail(r->cmd, "out of memory");
    hy_atomic a;
    hy_err err;
    int st = open_out(r, name, &a);
    if (st == MECH_EXIT_OK) {
        fputs(txt, a.fp);
        if (hy_atomic_commit(&a, &err) != HY_OK)
            st = mech_cli_fail(r->cmd, "%s", err.msg);
    }
    free(txt);
    return st;
}

static int capture_speed(const char *cmd, const opts *o, mech_dock_config *c, run *r)
{
    /* mech_dock_capture_speed bisects init.closing_speed; each trial runs to capture, to separation or to
       capture_timeout. Tolerance: 0.2 % of the upper bracket. */
    double lo = o->lo, hi = o->hi, v, tol = 2e-3 * hi;
    hy_err err;
    if (mech_dock_capture_speed(&c->params, lo, hi, tol, &v, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s: --capture-speed %g %g: %s", hy_display_name(o->scenario), lo, hi, err.msg);
    int iters = (int)ceil(log2((hi - lo) / tol));   /* the bisection's halvings after the two bracket runs */
    /* RP-1 §4 S4a: the latch detent work against the kinetic energy of the relative motion (reduced mass) */
    const mech_dock_params *p = &c->params;
    double w_latch = p->geom.detent_force * p->geom.detent_travel;
    double mu = p->active.mass * p->passive.mass / (p->active.mass + p->passive.mass);
    double v_est = sqrt(2 * w_latch / mu);
    if (!o->quiet)
        printf("mech dock %s: capture-speed threshold %.5g m/s (+- %.2g, bisection of [%g, %g], %d runs); estimate "
               "sqrt(2 W_latch / m) = %.5g m/s (W_latch = %g N x %g m, m = %.6g kg reduced mass): ratio %.3f\n",
               mech_cli_text(hy_display_name(o->scenario)), v, 0.5 * tol, lo, hi, iters + 2, v_est, p->geom.detent_force,
               p->geom.detent_travel, mu, v / v_est);
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "scenario", hy_display_name(o->scenario));
    cJSON_AddItemToObject(doc, "threshold", hy_json_exact_number(v));
    cJSON_AddItemToObject(doc, "tolerance", hy_json_exact_number(tol));
    cJSON *br = cJSON_AddArrayToObject(doc, "bracket");
    cJSON_AddItemToArray(br, hy_json_exact_number(lo));
    cJSON_AddItemToArray(br, hy_json_exact_number(hi));
    cJSON_AddNumberToObject(doc, "runs", iters + 2);
    cJSON_AddItemToObject(doc, "latch_work", hy_json_exact_number(w_latch));
    cJSON_AddItemToObject(doc, "reduced_mass", hy_json_exact_number(mu));
    cJSON_AddItemToObject(doc, "estimate", hy_json_exact_number(v_est));
    cJSON_AddItemToObject(doc, "ratio", hy_json_exact_number(v / v_est));
    return write_json(r, "capture-speed.json", doc);
}

/* (run, its summary document (deleted here)) => log.h5 committed with the summary as attributes of the root:
 * "summary" (the JSON text of summary.json) and one scalar attribute per number, true/false and string at its
 * top level */
static int commit_h5(run *r, cJSON *doc)
{
    hy_err err;
    int rc = hy_h5log_attr_json(r->h5, "/", doc, &err);
    cJSON_Delete(doc);
    hy_h5log *lg = r->h5;
    r->h5 = NULL;
    if (rc != HY_OK) {
        hy_h5log_abort(lg);
        return mech_cli_fail(r->cmd, "%s", err.msg);
    }
    if (hy_h5log_commit(lg, &err) != HY_OK)
        return mech_cli_fail(r->cmd, "%s", err.msg);
    return MECH_EXIT_OK;
}

/* the files a run writes into its folder (and removes when a rerun no longer writes them) */
static const char *const owned_outputs[] = {"history.csv", "pose.csv", "axial.csv", "spring1.csv", "spring2.csv", "torsion.csv",
                                            "bend_y.csv", "bend_z.csv", "cover.csv", "summary.json", "forces.png", "loops.png",
                                            "energy.png", "view-*.png", "animation.gif", "log.h5", "process.png", NULL};
/* the figures, drawn after the summary: an earlier run's are removed before this run commits anything (N22) */
static const char *const owned_figures[] = {"forces.png", "loops.png", "energy.png", "view-*.png", "animation.gif",
                                            "process.png", NULL};

static int do_run(const char *cmd, const opts *o, const mech_dock_config *c, const mech_dock_model *m, run *r)
{
    r->write = 1;
    if (open_files(r) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    r->pb = malloc((size_t)(PLOT_CAP + 2) * PB_WIDTH * sizeof *r->pb);   /* + the step before and this step */
    if (c->animation) {
        r->frame = malloc(FRAMES_MAX * sizeof *r->frame);
        r->frame_t = malloc(FRAMES_MAX * sizeof *r->frame_t);
        r->frame_dt = fmax(c->params.duration / (FRAMES_MAX - 1), 0.05);
    }
    if (!r->pb || (c->animation && (!r->frame || !r->frame_t)))
        return mech_cli_fail(cmd, "out of memory");
    hy_progress_start(&r->progress, "mech dock");
    int rc = simulate(m, r);
    hy_progress_end(&r->progress);
    if (rc != HY_OK && !r->failed)
        return MECH_EXIT_FAIL;
    /* commit what was written, also after a failed step: the rows up to it are the evidence; first the earlier
       run's summary and figures go, so that no interruption leaves them beside this run's data (N22) */
    mech_out_clear(cmd, r->dir, owned_figures);
    hy_err err;
    int status = MECH_EXIT_OK;
    if (r->hist_open) {
        r->hist_open = 0;
        if (hy_atomic_commit(&r->hist, &err) != HY_OK)
            status = mech_cli_fail(cmd, "%s", err.msg);
    }
    if (r->pose_open) {
        r->pose_open = 0;
        if (hy_atomic_commit(&r->pose, &err) != HY_OK && status == MECH_EXIT_OK)
            status = mech_cli_fail(cmd, "%s", err.msg);
    }
    if (r->h5 && status == MECH_EXIT_OK)
        status = commit_h5(r, summary(r, hy_display_name(o->scenario)));
    for (int e = 0; e < MECH_DOCK_NEL; e++)
        if (r->rec_open[e]) {
            r->rec_open[e] = 0;
            if (hy_atomic_commit(&r->rec[e], &err) != HY_OK && status == MECH_EXIT_OK)
                status = mech_cli_fail(cmd, "%s", err.msg);
        }
    if (status == MECH_EXIT_OK)
        status = write_json(r, "summary.json", summary(r, hy_display_name(o->scenario)));
    int nfig = 0;
    if (status == MECH_EXIT_OK && c->plots && !o->no_plots && r->pn > 1) {
        status = plot_forces(r);
        if (status == MECH_EXIT_OK)
            status = plot_loops(r);
        if (status == MECH_EXIT_OK)
            status = plot_energy(r);
        if (status == MECH_EXIT_OK)
            status = plot_views(r);
        if (status == MECH_EXIT_OK && c->animation)
            status = plot_animation(r);
        if (status == MECH_EXIT_OK && c->params.process.enabled)
            status = plot_process(r);
        nfig = 3 + r->nview + (c->animation && r->nframe > 1) + (c->params.process.enabled != 0);
    }
    const mech_dock_summary *u = &r->sum;
    if (!o->quiet) {
        const mech_dock_params *p = r->p;
        printf("mech dock %s: variant %s, %s (%.6g kg) into %s (%.6g kg) at %.4g m/s, h = %g s, %lu steps to "
               "t = %.4g s\n", mech_cli_text(hy_display_name(o->scenario)), mech_dock_variant_name(p),
               mech_cli_text(p->active.name), p->active.mass, mech_cli_text(p->passive.name), p->passive.mass, p->init.closing_speed, p->h, r->steps, r->t_end);
        if (u->captured) {
            int nl = 0;
            double tl = -INFINITY;
            for (int k = 0; k < 4; k++)
                if (!isnan(u->latch_time[k]))
                    nl++, tl = fmax(tl, u->latch_time[k]);
            printf("  captured at %.4g s after %d cone contact(s); %d of 4 latches engaged", u->capture_time,
                   u->cone_contacts, nl);
            if (nl > 0)
                printf(", the last at %.4g s", tl);
            printf("\n");
        }
        else
            printf("  no capture%s (%d cone contact(s))\n", u->failed ? ": failure to dock" : "", u->cone_contacts);
        printf("  peak head force axial %.5g N, lateral %.5g N; peak limiter force %.5g N; stroke used %.4g m; max "
               "swing %.3g deg\n", u->peak_axial, u->peak_lateral, u->peak_limiter, u->stroke_max,
               u->swing_max / DEG);
        printf("  energy: initial %.5g J, residual max %.3g J (%.3g %%); momentum drift %.2g relative\n", u->e_initial,
               u->e_residual_max, u->e_initial > 0 ? 100 * u->e_residual_max / u->e_initial : 0.0,
               norm(u->momentum0) > 0 ? drift(u->momentum0, u->momentum) / norm(u->momentum0) : 0.0);
        if (p->process.enabled) {
            const mech_dock_process_summary *ps = &r->ps;
            printf("  process: %s;", mech_dock_seq_state_name(ps->state));
            for (int k = 0; k < ps->n_log; k++)
                if (ps->log[k].from != ps->log[k].to)   /* the first bottom contact is logged without a transition */
                    printf(" %.4g s %s", ps->log[k].t, mech_dock_seq_state_name(ps->log[k].to));
            if (ps->fault.kind != MECH_DOCK_FAULT_NONE) {
                char reason[300];
                mech_dock_fault_reason(&ps->fault, p->variant, reason, sizeof reason);
                printf("\n  FAULT at %.6g s: %s", ps->fault.t, reason);
            }
            printf("\n  drive work %.5g J, retraction force max %.5g N, pushers max %.5g N; limiter pads on the cone "
                   "wall %lu impacts, max %.5g N", ps->drive_work, ps->retract_force_max, ps->pusher_force_max,
                   ps->pad_impacts, ps->pad_force_max);
            if (!isnan(ps->pad_arm_mean))
                printf(", lever arm about the UJ %.3g m", ps->pad_arm_mean);
            if (!isnan(ps->pad_arm_min))   /* NAN: the resultant never reached 10 N */
                printf(" (%.3g .. %.3g)", ps->pad_arm_min, ps->pad_arm_max);
            printf("; rollers %lu impacts, max %.5g N (all touching in %lu steps); energy residual %.2g of initial + "
                   "drive\n", ps->roller_impacts, ps->roller_force_max, ps->roller_all, ps->e_residual_rel);
            const mech_dock_hooks_summary *hs = &r->hs;
            if (!isnan(hs->t_start)) {
                printf("  hooks: started %.4g s, %d engaged, %d missed; %d of %d locked", hs->t_start, hs->engaged,
                       hs->missed, hs->locked, p->process.hooks.n);
                if (!isnan(hs->t_locked))
                    printf(" at %.4g s", hs->t_locked);
                printf("; tension %.5g .. %.5g N; at the end rod gap max %.3g mm, roll %.3g deg, tilt %.3g deg: %s\n",
                       hs->tension_min, hs->tension_max, 1e3 * hs->gap_rods, hs->roll / DEG, hs->tilt / DEG,
                       mech_dock_docked_reason(hs->unmet));
            }
            if (ps->state == MECH_DOCK_SEQ_FAIL_HOOKS)
                printf("  FAILED: hooks not closed in time at %.4g s (%.4g s after the planes closed): %s (%d of %d "
                       "locked, %d missed with roll %.3g deg at the start; tension min %.5g N, rod gap max %.3g mm, "
                       "roll %.3g deg, tilt %.3g deg)\n", hs->t_fail, hs->t_fail - hs->t_start, hooks_fail_reason(hs),
                       hs->locked, p->process.hooks.n, hs->missed, hs->roll_start / DEG, hs->tension_min,
                       1e3 * hs->gap_rods, hs->roll / DEG, hs->tilt / DEG);
        }
        if (p->limiter_movable) {
            const mech_dock_limiter_summary *ls = &r->ls;
            printf("  movable limiter: ");
            if (isnan(ls->first_contact))
                printf("no contact with the cone");
            else
                printf("first contact %.4g s (%s capture), last contact change %.4g s, %lu impacts", ls->first_contact,
                       ls->before_capture ? "BEFORE" : "after", ls->last_change, ls->impacts);
            printf("; stroke max %.4g m, end %.4g m; pads max %.5g N; guide friction max %.4g N, work %.4g J\n",
                   ls->x_max, ls->x_end, ls->force_max, ls->friction_max, ls->friction_work);
        }
        if (status == MECH_EXIT_OK)
            printf("  outputs in %s: %s (%ld rows), %d element records, summary.json, %d figure(s)\n",
                   mech_cli_text(r->dir), c->out_format == MECH_DOCK_FORMAT_H5 ? "log.h5" : c->out_format ? "history.csv, log.h5"
                   : "history.csv", r->rows, c->records ? elements_used(p) : 0, nfig);
    }
    if (r->failed)
        status = mech_cli_fail(cmd, "%s (the outputs up to t = %.6g s are written in %s)", r->msg, r->t_end, r->dir);
    return status;
}


/* Rows of a table written at rate R rows/s (0: every step) over the run: [*lo, *hi]. A fixed-step run takes
 * duration / step steps exactly; an error-controlled one at least duration / MECH_DOCK_H_MAX (its longest step) and
 * typically far fewer than duration / step (step is then only its first trial step), so only the table at a rate
 * is known in advance: duration x R rows, whatever the steps (issue 42: the check assumed duration / step rows and
 * refused error-controlled runs that would fit). */
static void table_rows(const mech_dock_params *p, double rate, double *lo, double *hi)
{
    double fixed = floor(p->duration / p->h + 0.5) + 1;
    double at_rate = rate > 0 ? floor(p->duration * rate) + 1 : INFINITY;
    if (p->tol == 0)
        *lo = *hi = fmin(fixed, at_rate);
    else
        *lo = fmin(floor(p->duration / MECH_DOCK_H_MAX) + 1, at_rate), *hi = fmin(fmax(fixed, *lo), at_rate);
}

#define SIZE_NOTE 1e8   /* bytes: a run that writes more says so before it starts (N5) */

/* (options, scenario, folder) => refused before running when the outputs would not fit (hy_output_limit): every
 * step writes a record row per element, history.csv a row per step or at outputs.rate; up to 25 bytes a number.
 * An error-controlled run refused only when its least estimate does not fit, warned when its largest does not;
 * any run whose outputs will reach SIZE_NOTE says their size before it starts (issue 42, N5's leftover) */
static int check_size(const char *cmd, const opts *o, const mech_dock_config *c, const char *dir)
{
    const mech_dock_params *p = &c->params;
    int nel = c->records ? elements_used(p) : 0, nr, np, nh;
    int npose = pose_shape(p, &nr, &np, &nh);   /* pose.csv or log.h5's /pose, a row per history row */
    int ncol = (c->nchannel ? c->nchannel + 1 : default_nch(c)) + npose;
    double hlo, hhi, rlo, rhi;
    table_rows(p, c->out_rate, &hlo, &hhi);
    table_rows(p, c->out_records_rate, &rlo, &rhi);
    double lo = hlo * ncol * 25 + rlo * nel * 3 * 25, hi = hhi * ncol * 25 + rhi * nel * 3 * 25;
    double limit = hy_output_limit(dir);
    char need[32], most[32], have[32], what[256], rec[96];
    hy_bytes_text(need, sizeof need, lo);
    hy_bytes_text(most, sizeof most, hi);
    hy_bytes_text(have, sizeof have, limit);
    if (nel)
        snprintf(rec, sizeof rec, "%d x %s", nel, c->out_records_rate > 0 ? "outputs.records_rate" : "every step");
    else
        snprintf(rec, sizeof rec, "off");
    if (p->tol == 0)
        snprintf(what, sizeof what, "duration %g s / step %g s = %.4g steps", p->duration, p->h, hhi > rhi ? hhi : rhi);
    else
        snprintf(what, sizeof what, "duration %g s, error-controlled (%.4g to %.4g steps: steps of %g s at most, of "
                 "step = %g s)", p->duration, floor(p->duration / MECH_DOCK_H_MAX) + 1, floor(p->duration / p->h + 0.5)
                 + 1, MECH_DOCK_H_MAX, p->h);
    if (lo > limit)
        return mech_cli_fail(cmd, "%s: %s: the outputs would take %s%s (history.csv and pose.csv %.4g rows x %d columns at "
                             "outputs.rate = %g rows/s%s, element records %s), more than the %s allowed in %s (free "
                             "space or HYST_OUTPUT_MAX); shorten duration, %slower outputs.rate (--output-rate), or set "
                             "outputs.records to false (--no-records)", hy_display_name(o->scenario), what,
                             p->tol == 0 ? "up to " : "at least ", need, hlo, ncol, c->out_rate,
                             c->out_rate > 0 ? "" : " (every step)", rec, have, dir, p->tol == 0 ? "raise step or " : "");
    if (hi > limit)
        mech_cli_warn(cmd, "%s: %s: the outputs may take up to %s (at least %s), more than the %s allowed in %s; the run "
                      "stops with an error if they do not fit (--output-rate, --no-records)", hy_display_name(o->scenario),
                      what, most, need, have, dir);
    else if (lo >= SIZE_NOTE) {   /* the least estimate: an error-controlled run typically takes far fewer steps */
        char rows[160];
        if (p->tol == 0)
            snprintf(rows, sizeof rows, "history.csv and pose.csv %.4g rows x %d columns, element records %.4g rows x %d", hhi, ncol,
                     nel ? rhi : 0.0, nel);
        else
            snprintf(rows, sizeof rows, "history.csv and pose.csv %.4g to %.4g rows x %d columns, element records %.4g to %.4g rows "
                     "x %d", hlo, hhi, ncol, nel ? rlo : 0.0, nel ? rhi : 0.0, nel);
        mech_cli_warn(cmd, "%s: %s: the outputs will take %s%s%s (%s); --output-rate or --no-records make them smaller",
                      hy_display_name(o->scenario), what, p->tol == 0 ? "up to " : need, p->tol == 0 ? "" : " to ", most,
                      rows);
    }
    return MECH_EXIT_OK;
}

// --capture-speed LO HI: the option's value and the next word
static int opt_capture(void *dst, const char *v, hy_args *st, hy_err *err)
{
    opts *o = dst;
    if (st->next >= st->argc)
        return hy_err_set(err, HY_EARG, "--capture-speed needs two speeds LO HI (m/s)");
    if (hy_args_double("capture-speed", v, &o->lo, err) != HY_OK ||
        hy_args_double("capture-speed", st->argv[st->next++], &o->hi, err) != HY_OK)
        return HY_EARG;
    o->capture = 1;
    return HY_OK;
}

// --output-rate R|events
static int opt_rate(void *dst, const char *v, hy_args *st, hy_err *err)
{
    (void)st;
    opts *o = dst;
    return mech_cli_output_rate(v, &o->rate, &o->events, err);
}

int mech_cmd_dock(int argc, char **argv)
{
    const char *cmd = "dock";
    opts o = {0};
    o.rate = -1;
    static const char *const formats[] = {"csv", "h5", "csv+h5", NULL};
    static const char *const methods[] = {"dopri5", "rk43", NULL};
    static const char *const controls[] = {"standard", "pi", NULL};
    const hy_arg tab[] = {
        HY_OPT_STR("out", 0, &o.out),                  HY_OPT_CALL("capture-speed", &o, opt_capture),
        HY_OPT_DOUBLE("duration", &o.duration, &o.set_duration), HY_OPT_DOUBLE("step", &o.step, &o.set_step),
        HY_OPT_DOUBLE("tolerance", &o.tol, &o.set_tol), HY_OPT_CHOICE("method", &o.method, methods),
        HY_OPT_CHOICE("control", &o.control, controls),
        HY_OPT_FLAG("no-plots", 0, &o.no_plots),       HY_OPT_FLAG("no-records", 0, &o.no_records),
        HY_OPT_FLAG("quiet", 'q', &o.quiet),           HY_OPT_CHOICE("format", &o.format, formats),
        HY_OPT_CALL("output-rate", &o, opt_rate),      HY_OPT_END};
    int go = mech_cli_parse(cmd, usage, tab, argc, argv, "missing SCENARIO.json", &o.scenario);
    if (go != MECH_CLI_GO)
        return go;
    if (o.capture && !(o.lo > 0 && o.hi > o.lo))
        return mech_cli_usage(cmd, "--capture-speed %g %g: expected 0 < LO < HI (m/s)", o.lo, o.hi);
    if ((o.set_duration && !(o.duration >= 0)) || (o.set_step && !(o.step > 0)))
        return mech_cli_usage(cmd, "--duration must be >= 0 s and --step > 0 s");
    if (o.set_tol && !(o.tol == 0 || (o.tol >= 1e-10 && o.tol <= 1e-2)))
        return mech_cli_usage(cmd, "--tolerance %g: expected 0 (fixed steps of step) or 1e-10 .. 1e-2", o.tol);
    mech_dock_config c;
    mech_dock_model *m;
    int status = load(cmd, &o, &c, &m);
    if (status != MECH_EXIT_OK)
        return status;
    run r;
    memset(&r, 0, sizeof r);
    r.cmd = cmd, r.o = &o, r.c = &c, r.p = mech_dock_model_params(m);
    if (o.out && strlen(o.out) >= MECH_DOCK_PATH_LEN) {   /* never cut: the outputs would land elsewhere */
        mech_dock_model_free(m);
        mech_dock_config_free(&c);
        return mech_cli_usage(cmd, "--out: the folder name is %zu bytes long, at most %d allowed", strlen(o.out),
                              MECH_DOCK_PATH_LEN - 1);
    }
    if (o.out)
        snprintf(r.dir, sizeof r.dir, "%s", o.out);
    else if (c.out_dir[0])
        snprintf(r.dir, sizeof r.dir, "%s", c.out_dir);
    else
        default_dir(o.scenario, r.dir, sizeof r.dir);
    status = mech_out_mkdir(cmd, r.dir);
    hy_dir_lock lock = {.fd = -1};
    if (status == MECH_EXIT_OK)
        status = mech_out_lock(cmd, &lock, r.dir);   /* one run at a time in a folder */
    if (status == MECH_EXIT_OK && !o.capture)
        status = check_size(cmd, &o, &c, r.dir);
    if (status == MECH_EXIT_OK && o.capture) {
        r.p = &c.params;   /* the bisection compiles a model per speed from these parameters */
        status = capture_speed(cmd, &o, &c, &r);
    } else if (status == MECH_EXIT_OK) {
        status = do_run(cmd, &o, &c, m, &r);
        mech_out_sweep(cmd, r.dir, "summary.json", owned_outputs);   /* nothing stale beside the new summary */
    }
    run_free(&r);
    hy_dir_lock_release(&lock);
    mech_dock_model_free(m);
    mech_dock_config_free(&c);
    return status;
}

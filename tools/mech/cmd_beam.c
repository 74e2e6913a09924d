/* mech beam freq|sim|lqr: the jointed-beam spacecraft of spec 004 (docs/beam.md). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <cjson/cJSON.h>
#include <lapacke.h>
#include "hyst/h5log.h"
#include "hyst/loops.h"
#include "hyst/model.h"
#include "hyst/util.h"
#include "mech/beam.h"
#include "mech/ctrl.h"
#include "mech_cli.h"

static void usage(FILE *fp)
{
    fputs("usage: mech beam freq|sim|lqr|shapes CONFIG.json [OPTIONS]\n"
          "\n"
          "The rigid-flexible spacecraft of spec 004: a hub (attitude theta) with a flexible appendage split by\n"
          "clearance or hysteretic hinges, reduced to n_m clamped modes, integrated by Newmark. CONFIG is a\n"
          "\"mech-beam\" JSON file (fixtures/mech/beam/; every key and its default in docs/beam.md).\n"
          "\n"
          "  freq   frequency table: rigid mode + elastic modes of the free hub (eig(K_s, M_s)), the clamped\n"
          "         hinged beam and, with open hinges, the reduced model's open-hinge frequencies\n"
          "         --sweep mass|J1|c|hinges   the analogues of the paper's Tables 2-5 (hinge mass, hub inertia,\n"
          "                                     c = k_g / k_l, hinge count) over --values LIST (default: spec §8's)\n"
          "         columns: mode,free_hub_Hz,clamped_Hz,open_hinge_Hz  |  sweep: value,f0_Hz,f1_Hz,...[,pct1,...]\n"
          "  sim    time response: CSV t,w_tip,theta,theta_dot,dtheta_1,M_1,...,U,F with a units row; a hinge's\n"
          "         dtheta_j, M_j columns are a bench record for hyst loops / hyst plot (--x dtheta_1 --y M_1)\n"
          "         --summary FILE.json   peaks and their times, contact time fraction, energy balance, hinge\n"
          "                               work and its energy per cycle (hyst's loop analysis)\n"
          "         --hinge-records PREFIX  one t,q,Q record per hinge: PREFIX1.csv, PREFIX2.csv, ...\n"
          "         --format h5           -o FILE is one HDF5 file: /history (the CSV's columns), /records/hingeJ\n"
          "                               (t, q, Q) and the summary as attributes (docs/formats.md)\n"
          "         --modal FILE.csv      the modal coordinates at the rows of the time response: t, theta,\n"
          "                               eta_1..eta_nm (w(x, t) = sum phi_i(x) eta_i, 'mech beam shapes'),\n"
          "                               dtheta_1.. (modal coordinates only: not with --physical)\n"
          "  lqr    LQR on the linear model (21)-(24): gain, closed-loop poles and damping ratios; with -o the\n"
          "         controlled and uncontrolled runs side by side (columns of sim with _open / _ctrl)\n"
          "  shapes the deflection of each reduced coordinate at the FE nodes: x,phi_1,...,phi_nm (m, kg^-0.5;\n"
          "         the simulator's shape functions on its mass-normalised modes)\n"
          "\n"
          "options:\n"
          "  -o, --output FILE      CSV output (atomically; default standard output)\n"
          "      --plot FILE        gnuplot figure (.svg, .png or .pdf): freq --sweep: frequencies against the swept\n"
          "                         value; sim: tip deflection, attitude, rate, hinge moments (Figs. 7-9) and the\n"
          "                         hinge loops; lqr: controlled vs uncontrolled and the voltage (Figs. 14-15)\n"
          "      --values LIST      freq --sweep: values a,b,c,...\n"
          "      --duration S       override solver.duration      --dt S      override solver.dt\n"
          "      --F0 N             override load.F0              --clearance RAD  every hinge's clearance\n"
          "      --output-rate R|events  sim: outputs.rate, rows a second of the time response (-o; 0: every\n"
          "                         step), or rows only at the hinges' events (outputs.events \"only\": contacts\n"
          "                         starting or ending, turning points); the hinge records, the summary and the\n"
          "                         figure keep every step\n"
          "      --physical         integrate in physical FE coordinates (banded LAPACK) instead of modes\n"
          "      --iterated         iterated update instead of the paper's lagged one\n"
          "  -h, --help             this help\n"
          "\n"
          "Units: m, rad, s, N, N m, V, Hz. Exit status: 0 success, 1 bad configuration or failed simulation (the\n"
          "rows before the failure are kept), 2 bad usage.\n",
          fp);
}

typedef struct opts {
    const char *config, *out, *plot, *summary, *records, *sweep, *values, *modal;
    double duration, dt, F0, clearance, output_rate;
    int set_duration, set_dt, set_F0, set_clearance, set_output_rate, physical, iterated;
    int events;                     /* --output-rate events                                                 */
    int h5;                         /* --format h5: -o is an HDF5 log                                      */
} opts;

/* ---------- time histories ---------- */

/* A figure's view of a run (figbuf, fig_view): the samples it draws, nh x cap hinge-major for dth and M */
typedef struct hist {
    long n;                         /* samples                                                              */
    long cap;                       /* samples allocated: the stride of dth and M                           */
    int nh;
    double *t, *w, *th, *thd, *U, *dth, *M;
} hist;

static void progress(void *ctx, double fraction)
{
    hy_progress_update(ctx, fraction);
}

// (row buffer position, v, last in the row) => its exact text and separator at l; the position after them
static char *num(char *l, double v, int last)
{
    l += hy_fmt_exact(l, 32, v);
    *l++ = last ? '\n' : ',';
    return l;
}

// (hinges, runs side by side: 1 sim, 2 lqr's _open / _ctrl) => the CSV's header and units rows
static void write_head(FILE *fp, int nh, int nset)
{
    for (int s = 0; s < nset; s++) {
        const char *sx = nset == 1 ? "" : s == 0 ? "_open" : "_ctrl";
        if (s == 0)
            fputs("t,", fp);
        fprintf(fp, "w_tip%s,theta%s,theta_dot%s,", sx, sx, sx);
        for (int j = 0; j < nh; j++)
            fprintf(fp, "dtheta_%d%s,M_%d%s,", j + 1, sx, j + 1, sx);
        fprintf(fp, "U%s,F%s%s", sx, sx, s == nset - 1 ? "\n" : ",");
    }
    for (int s = 0; s < nset; s++) {
        if (s == 0)
            fputs("s,", fp);
        fputs("m,rad,rad/s,", fp);
        for (int j = 0; j < nh; j++)
            fputs("rad,N m,", fp);
        fprintf(fp, "V,N%s", s == nset - 1 ? "\n" : ",");
    }
}

/* ---------- gnuplot ---------- */

// (figure path) => terminal line for its extension, or NULL
static const char *terminal(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot)
        return NULL;
    if (strcmp(dot, ".svg") == 0)
        return "svg size 900,1000 noenhanced font 'sans,10' background rgb 'white'";
    if (strcmp(dot, ".png") == 0)
        return "pngcairo size 900,1000 noenhanced font 'sans,10'";
    if (strcmp(dot, ".pdf") == 0)
        return "pdfcairo size 9in,10in noenhanced font 'sans,8'";
    return NULL;
}

// (fp, block name, x, y, n) => datablock, decimated to at most 4000 points
static void block(FILE *fp, const char *name, const double *x, const double *y, long n)
{
    long step = n > 4000 ? (n + 3999) / 4000 : 1;
    fprintf(fp, "$%s << EOD\n", name);
    for (long i = 0; i < n; i += step)
        fprintf(fp, "%.10g %.10g\n", x[i], y[i]);
    fputs("EOD\n", fp);
}

// (figure, histories: uncontrolled and optionally controlled) => multiplot like Figs. 7-9 / 14-15
static int plot_response(const char *cmd, const char *fig, const hist *a, const hist *b, const char *la,
                         const char *lb)
{
    const char *term = terminal(fig);
    if (!term)
        return mech_cli_usage(cmd, "--plot %s: expected a .svg, .png or .pdf file name", fig);
    mech_fig g;
    if (mech_fig_open(cmd, &g, fig, NULL, term) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    FILE *fp = g.fp;
    const hist *hs[2] = {a, b};
    int ns = b ? 2 : 1, rows = 5;
    for (int s = 0; s < ns; s++) {
        char nm[32];
        size_t stride = (size_t)hs[s]->cap;
        snprintf(nm, sizeof nm, "w%d", s), block(fp, nm, hs[s]->t, hs[s]->w, hs[s]->n);
        snprintf(nm, sizeof nm, "th%d", s), block(fp, nm, hs[s]->t, hs[s]->th, hs[s]->n);
        snprintf(nm, sizeof nm, "thd%d", s), block(fp, nm, hs[s]->t, hs[s]->thd, hs[s]->n);
        snprintf(nm, sizeof nm, "U%d", s), block(fp, nm, hs[s]->t, hs[s]->U, hs[s]->n);
        for (int j = 0; j < hs[s]->nh; j++) {
            snprintf(nm, sizeof nm, "M%d_%d", s, j), block(fp, nm, hs[s]->t, hs[s]->M + (size_t)j * stride, hs[s]->n);
        }
    }
    for (int j = 0; !b && j < a->nh; j++) {
        char nm[32];
        snprintf(nm, sizeof nm, "L%d", j);
        block(fp, nm, a->dth + (size_t)j * (size_t)a->cap, a->M + (size_t)j * (size_t)a->cap, a->n);
    }
    fprintf(fp, "set multiplot layout %d,1\nset grid\nset xlabel 't (s)'\n", rows);
    const char *what[4] = {"w", "th", "thd", NULL};
    const char *ylab[4] = {"tip deflection w (m)", "attitude theta (rad)", "attitude rate (rad/s)", NULL};
    for (int k = 0; k < 3; k++) {
        fprintf(fp, "set ylabel '%s'\nplot $%s0 with lines lw 1.2 title '%s'", ylab[k], what[k], la);
        if (b)
            fprintf(fp, ", $%s1 with lines lw 1.2 title '%s'", what[k], lb);
        fputc('\n', fp);
    }
    fputs("set ylabel 'hinge moment M (N m)'\nplot ", fp);
    for (int s = 0; s < ns; s++)
        for (int j = 0; j < hs[s]->nh; j++)
            fprintf(fp, "%s$M%d_%d with lines title 'hinge %d%s%s'", s || j ? ", " : "", s, j, j + 1,
                    ns > 1 ? " " : "", ns > 1 ? (s ? lb : la) : "");
    if (hs[0]->nh == 0)
        fputs("0 title 'no hinges'", fp);
    fputc('\n', fp);
    if (b) {
        fprintf(fp, "set ylabel 'MFC voltage U (V)'\nplot $U1 with lines lw 1.2 title '%s'\n", lb);
    } else {
        /* the hinges' dtheta-M loops, as hyst plot would draw the records */
        fputs("set xlabel 'hinge rotation jump dtheta (rad)'\nset ylabel 'hinge moment M (N m)'\nplot ", fp);
        for (int j = 0; j < a->nh; j++)
            fprintf(fp, "%s$L%d with lines title 'hinge %d'", j ? ", " : "", j, j + 1);
        if (a->nh == 0)
            fputs("0 title 'no hinges'", fp);
        fputc('\n', fp);
    }
    fputs("unset multiplot\n", fp);
    return mech_fig_run(cmd, &g);
}

/* ---------- configuration ---------- */

/* (command, parameters) => mech_beam_model_new, announced on a terminal when it takes long (hy_stage): the dense
 * generalized eigen-solve (dsygvd, ~n^3) and the projection onto the kept modes (~n^2 k + n k^2) of a fine mesh with
 * all modes run for a long time without a word otherwise. The estimate is calibrated on this machine class (500
 * elements, all modes: about 5 s). */
static int build_model(const char *cmd, const mech_beam_params *p, mech_beam_model **m, hy_err *err)
{
    double n = 2.0 * (p->n_elem + p->n_hinges + 1), k = p->n_modes == 0 || p->n_modes > n ? n : p->n_modes;
    k += p->attachment_modes ? p->n_hinges : 0;
    double est = 3e-10 * n * n * n + 2.5e-9 * (n * n * k + n * k * k);
    char label[48], modes[48];
    snprintf(label, sizeof label, "mech %s", cmd);
    if (p->n_modes == 0)
        snprintf(modes, sizeof modes, "all modes");
    else
        snprintf(modes, sizeof modes, "%d modes", p->n_modes);
    hy_stage st;
    char took[32];
    snprintf(took, sizeof took, est < 1 ? "under 1 s" : "about %.0f s", ceil(est));
    hy_stage_start(&st, label, est, "building the model: %d elements (about %.0f DOFs), %s: dense eigen-solve "
                   "(LAPACK dsygvd) and modal projection, %s", p->n_elem, n, modes, took);
    int rc = mech_beam_model_new(p, m, err);
    hy_stage_end(&st);
    return rc;
}

static int load_config(const char *cmd, const opts *o, mech_beam_config *c, mech_beam_model **m)
{
    hy_err err;
    *m = NULL;
    if (mech_beam_config_read(o->config, c, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    if (o->set_duration)
        c->solver.duration = o->duration;
    if (o->set_dt)
        c->solver.dt = o->dt;
    if (o->set_F0)
        c->load.F0 = o->F0;
    if (o->set_clearance)
        for (int j = 0; j < c->params.n_hinges; j++)
            c->params.hinge[j].clearance = o->clearance;
    if (o->physical)
        c->solver.physical = 1;
    if (o->set_output_rate)   /* as mech dock's: a rate replaces the configuration's events, "events" its rate */
        c->output_rate = o->output_rate, c->output_events = MECH_BEAM_EVENTS_NONE;
    if (o->events)
        c->output_rate = 0, c->output_events = MECH_BEAM_EVENTS_ONLY;
    if (o->iterated)
        c->solver.update = MECH_BEAM_ITERATED;
    if (!(c->solver.dt > 0) || !(c->solver.duration >= 0) || c->solver.duration / c->solver.dt > 1e8) {
        double d = c->solver.duration, h = c->solver.dt;
        mech_beam_config_free(c);
        return mech_cli_usage(cmd, "solver.duration %g s / solver.dt %g s: expected a dt > 0 s and 0 .. 1e8 steps (got "
                              "%.3g)", d, h, d / h);
    }
    if (build_model(cmd, &c->params, m, &err) != HY_OK) {
        mech_beam_config_free(c);
        return mech_cli_fail(cmd, "%s: %s", hy_display_name(o->config), err.msg);
    }
    return MECH_EXIT_OK;
}

// (options, configuration, ins[MECH_BEAM_MAX_HINGES + 3]) => the run's inputs, NULL-terminated: the configuration,
// its hinge model files and its force history
static const char *const *inputs(const opts *o, const mech_beam_config *c, const char **ins)
{
    int k = 0;
    ins[k++] = o->config;
    for (int j = 0; j < c->params.n_hinges; j++)
        if (c->model_path[j][0])
            ins[k++] = c->model_path[j];
    if (c->history_path[0])
        ins[k++] = c->history_path;
    ins[k] = NULL;
    return ins;
}

// (path) => 1 when it names the configuration or one of its model files
static int is_input(const char *path, const opts *o, const mech_beam_config *c)
{
    const char *ins[MECH_BEAM_MAX_HINGES + 3];
    inputs(o, c, ins);
    for (int k = 0; path && strcmp(path, "-") != 0 && ins[k]; k++)
        if (hy_same_file(path, ins[k]))
            return 1;
    return 0;
}

/* (options, hinges) => usage error before any run when a hinge record PREFIXj.csv is the file of -o, --summary or
 * --plot (issue 42, N23: `-o h1.csv --hinge-records h` replaced the history with hinge 1's record, exit 0) */
static int records_distinct(const char *cmd, const opts *o, int nh)
{
    for (int j = 0; o->records && j < nh; j++) {
        char path[4200];
        snprintf(path, sizeof path, "%s%d.csv", o->records, j + 1);
        const char *outs[5] = {path, o->out, o->summary, o->plot, o->modal};
        const char *names[5] = {"--hinge-records", "-o", "--summary", "--plot", "--modal"};
        if (mech_out_distinct(cmd, 5, outs, names) != MECH_EXIT_OK)
            return MECH_EXIT_USAGE;
    }
    return MECH_EXIT_OK;
}

// (path) => opened atomically (mech_out_open), never over an input of the run
static int open_out(const char *cmd, hy_atomic *a, const char *path, const opts *o, const mech_beam_config *c)
{
    const char *ins[MECH_BEAM_MAX_HINGES + 3];
    return mech_out_open(cmd, a, path, o->config, inputs(o, c, ins));
}

/* ---------- freq ---------- */

static int freq_table(const char *cmd, const mech_beam_model *m, FILE *fp)
{
    mech_beam_info in;
    mech_beam_model_info(m, &in);
    double *f = malloc(3 * (in.nm + 1) * sizeof *f);
    if (!f)
        return mech_cli_fail(cmd, "out of memory");
    double *fc = f + in.nm + 1, *fo = fc + in.nm + 1;
    hy_err err;
    if (mech_beam_freq_system(m, f, &err) != HY_OK || mech_beam_freq_clamped(m, fc, &err) != HY_OK ||
        mech_beam_freq_open(m, fo, &err) != HY_OK) {
        free(f);
        return mech_cli_fail(cmd, "%s", err.msg);
    }
    fputs("mode,free_hub_Hz,clamped_Hz,open_hinge_Hz\nmode,Hz,Hz,Hz\n", fp);
    for (size_t i = 0; i <= in.nm; i++) {
        fprintf(fp, "%zu,%.6f,", i, f[i]);
        if (i == 0)
            fputs(",\n", fp);
        else
            fprintf(fp, "%.6f,%.6f\n", fc[i - 1], fo[i - 1]);
    }
    free(f);
    return MECH_EXIT_OK;
}

/* (model) => `mech beam shapes`: x and the deflection phi_i(x) of each reduced coordinate at the FE nodes
 * (mech_beam_shapes, the functions `mech view` draws the beam with), every number exact */
static int shapes_table(const char *cmd, const mech_beam_model *m, FILE *fp)
{
    mech_beam_info in;
    mech_beam_model_info(m, &in);
    double *phi = malloc(in.n_node * in.nm * sizeof *phi);
    char *line = malloc((1 + in.nm) * 33);
    hy_err err;
    int st = MECH_EXIT_OK;
    if (!phi || !line)
        st = mech_cli_fail(cmd, "out of memory");
    else if (mech_beam_shapes(m, in.n_node, in.x_node, phi, &err) != HY_OK)
        st = mech_cli_fail(cmd, "%s", err.msg);
    if (st == MECH_EXIT_OK) {
        fputs("x", fp);
        for (size_t i = 0; i < in.nm; i++)
            fprintf(fp, ",phi_%zu", i + 1);
        fputs("\nm", fp);
        for (size_t i = 0; i < in.nm; i++)
            fputs(",kg^-0.5", fp);
        fputc('\n', fp);
        for (size_t s = 0; s < in.n_node; s++) {
            char *l = num(line, in.x_node[s], in.nm == 0);
            for (size_t i = 0; i < in.nm; i++)
                l = num(l, phi[s * in.nm + i], i + 1 == in.nm);
            fwrite(line, 1, (size_t)(l - line), fp);
        }
    }
    free(phi);
    free(line);
    return st;
}

static int parse_list(const char *cmd, const char *text, double *v, int max)
{
    int n = 0;
    const char *p = text;
    while (*p && n < max) {
        char *end;
        errno = 0;
        double x = strtod(p, &end);
        if (end == p || errno || !isfinite(x)) {
            mech_cli_usage(cmd, "--values: '%s' is not a list of numbers", text);
            return -1;
        }
        v[n++] = x;
        p = end;
        if (*p == ',')
            p++;
        else if (*p) {
            mech_cli_usage(cmd, "--values: '%s' is not a comma-separated list", text);
            return -1;
        }
    }
    if (n == 0) {
        mech_cli_usage(cmd, "--values: empty list");
        return -1;
    }
    return n;
}

static int freq_sweep(const char *cmd, const opts *o, mech_beam_config *c, FILE *fp)
{
    static const double d_mass[] = {0, 0.02, 0.1, 0.5, 1, 2}, d_J1[] = {20, 50, 80, 100, 200, 500, 1000},
                        d_c[] = {0.1, 0.5, 1, 3, 10}, d_n[] = {0, 1, 3, 4};
    int kind = strcmp(o->sweep, "mass") == 0 ? 0 : strcmp(o->sweep, "J1") == 0 ? 1 : strcmp(o->sweep, "c") == 0 ? 2
             : strcmp(o->sweep, "hinges") == 0 ? 3 : -1;
    if (kind < 0)
        return mech_cli_usage(cmd, "--sweep: unknown quantity '%s' (expected mass, J1, c or hinges)", o->sweep);
    double v[64];
    int nv;
    if (o->values) {
        if ((nv = parse_list(cmd, o->values, v, 64)) < 0)
            return MECH_EXIT_USAGE;
    } else {
        const double *dv = kind == 0 ? d_mass : kind == 1 ? d_J1 : kind == 2 ? d_c : d_n;
        nv = kind == 0 ? 6 : kind == 1 ? 7 : kind == 2 ? 5 : 4;
        memcpy(v, dv, (size_t)nv * sizeof *v);
    }
    mech_beam_params base = c->params;
    double ref[64] = {0};
    int nm_print = 0;
    hy_err err;
    if (kind == 2) {   /* Table 4: percentages of the hinge-less frequencies */
        mech_beam_params p = base;
        p.n_hinges = 0;
        mech_beam_model *m;
        if (mech_beam_model_new(&p, &m, &err) != HY_OK || mech_beam_freq_system(m, ref, &err) != HY_OK) {
            mech_beam_model_free(m);
            return mech_cli_fail(cmd, "%s", err.msg);
        }
        mech_beam_model_free(m);
    }
    double *table = calloc((size_t)nv * 64, sizeof *table);
    if (!table)
        return mech_cli_fail(cmd, "out of memory");
    for (int i = 0; i < nv; i++) {
        mech_beam_params p = base;
        const char *key = kind == 0 ? "mass" : kind == 1 ? "J1" : kind == 2 ? "c" : "hinges";
        if (kind == 0) {
            for (int j = 0; j < p.n_hinges; j++)
                p.hinge[j].mass = v[i];
        } else if (kind == 1) {
            p.J1 = v[i];
        } else if (kind == 2) {
            for (int j = 0; j < p.n_hinges; j++)
                p.hinge[j].k = v[i] * mech_beam_k_ref(&p);
        } else {
            if (v[i] < 0 || v[i] > MECH_BEAM_MAX_HINGES || v[i] != floor(v[i])) {
                free(table);
                return mech_cli_usage(cmd, "--values: hinge counts are integers 0..%d", MECH_BEAM_MAX_HINGES);
            }
            mech_beam_params_equal_hinges(&p, (int)v[i]);
        }
        mech_beam_model *m;
        if (build_model(cmd, &p, &m, &err) != HY_OK) {
            free(table);
            return mech_cli_fail(cmd, "--sweep %s = %g: %s", key, v[i], err.msg);
        }
        mech_beam_info in;
        mech_beam_model_info(m, &in);
        nm_print = (int)(in.nm < 63 ? in.nm : 62);
        if (mech_beam_freq_system(m, table + (size_t)i * 64, &err) != HY_OK) {
            mech_beam_model_free(m);
            free(table);
            return mech_cli_fail(cmd, "%s", err.msg);
        }
        mech_beam_model_free(m);
    }
    fprintf(fp, "%s", o->sweep);
    for (int k = 0; k <= nm_print; k++)
        fprintf(fp, ",f%d_Hz", k);
    for (int k = 1; kind == 2 && k <= nm_print; k++)
        fprintf(fp, ",pct%d", k);
    fprintf(fp, "\n%s", kind == 0 ? "kg" : kind == 1 ? "kg m^2" : "-");
    for (int k = 0; k <= nm_print; k++)
        fputs(",Hz", fp);
    for (int k = 1; kind == 2 && k <= nm_print; k++)
        fputs(",%", fp);
    fputc('\n', fp);
    for (int i = 0; i < nv; i++) {
        fprintf(fp, "%.10g", v[i]);
        for (int k = 0; k <= nm_print; k++)
            fprintf(fp, ",%.6f", table[(size_t)i * 64 + k]);
        for (int k = 1; kind == 2 && k <= nm_print; k++)
            fprintf(fp, ",%.2f", 100 * table[(size_t)i * 64 + k] / ref[k]);
        fputc('\n', fp);
    }
    int status = MECH_EXIT_OK;
    if (o->plot) {
        const char *term = terminal(o->plot);
        if (!term) {
            free(table);
            return mech_cli_usage(cmd, "--plot %s: expected a .svg, .png or .pdf file name", o->plot);
        }
        mech_fig g;
        if (mech_fig_open(cmd, &g, o->plot, NULL, term) != MECH_EXIT_OK) {
            free(table);
            return MECH_EXIT_FAIL;
        }
        FILE *gp = g.fp;
        fputs("$D << EOD\n", gp);
        for (int i = 0; i < nv; i++) {
            fprintf(gp, "%.10g", v[i]);
            for (int k = 1; k <= nm_print; k++)
                fprintf(gp, " %.10g", table[(size_t)i * 64 + k] / table[k]);
            fputc('\n', gp);
        }
        fputs("EOD\n", gp);
        fputs("set grid\nset key outside right\n", gp);
        fprintf(gp, "set xlabel '%s'\nset ylabel 'f_i / f_i(first value)'\nset title 'free-hub frequencies against "
                "%s (spec 004 Tables 2-5)'\n%s", kind == 0 ? "hinge mass (kg)" : kind == 1 ? "hub inertia J1 (kg m^2)"
                : kind == 2 ? "stiffness ratio c = k_g / k_l" : "hinge count n_j", o->sweep,
                kind == 1 || kind == 2 ? "set logscale x\n" : "");
        fputs("plot ", gp);
        for (int k = 1; k <= nm_print; k++)
            fprintf(gp, "%s$D using 1:%d with linespoints title 'f%d'", k > 1 ? ", " : "", k + 1, k);
        fputc('\n', gp);
        status = mech_fig_run(cmd, &g);
    }
    free(table);
    return status;
}

/* ---------- sim ---------- */

/* What the summary needs of a run, gathered as the run streams: the samples with the largest |value| (the first on
 * ties, as a scan of the whole history finds them), the totals of mech_beam_run, and each hinge's loop analysis
 * (hy_loops_stream on the hinge records the run wrote to a temporary file: hy_loops_analyze's numbers in memory that
 * does not grow with the run) */
typedef struct runsum {
    long n;                         /* samples                                                             */
    int nh;
    mech_beam_peaks pk;             /* mech_beam_peaks_add (beam_peaks.c), the sweep's too                  */
    int loops[MECH_BEAM_MAX_HINGES];        /* 1: lp[j] holds hinge j's loop analysis                       */
    hy_loops_sum lp[MECH_BEAM_MAX_HINGES];
    const mech_beam_history *r;     /* works, contact counts, final energies                               */
    int failed;
    char msg[HY_MSG_LEN];
} runsum;

// (run) => summary JSON document
static cJSON *summary(const runsum *h, const mech_beam_config *c, const mech_beam_model *m)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "format", "mech-beam-summary");
    cJSON_AddNumberToObject(doc, "steps", (double)(h->n - 1));
    cJSON_AddNumberToObject(doc, "dt", c->solver.dt);
    cJSON_AddStringToObject(doc, "coordinates", c->solver.physical ? "physical" : "modal");
    cJSON_AddStringToObject(doc, "update", c->solver.update == MECH_BEAM_ITERATED ? "iterated" : "lagged");
    mech_beam_info in;
    mech_beam_model_info(m, &in);
    cJSON_AddNumberToObject(doc, "modes", (double)in.nm);
    const char *pname[4] = {"w_tip", "theta", "theta_dot", "U"};
    cJSON *peaks = cJSON_AddObjectToObject(doc, "peaks");
    for (size_t k = 0; k < 4; k++) {
        cJSON *o = cJSON_AddObjectToObject(peaks, pname[k]);
        cJSON_AddItemToObject(o, "max_abs", hy_json_exact_number(fabs(h->pk.pk[k].v)));
        cJSON_AddItemToObject(o, "value", hy_json_exact_number(h->pk.pk[k].v));
        cJSON_AddItemToObject(o, "time", hy_json_exact_number(h->pk.pk[k].t));
        if (k == 0) {   /* the time after which |w_tip| stays within 5 % of its peak (null: not within the run) */
            double ts = mech_beam_peaks_settling(&h->pk);
            cJSON_AddItemToObject(o, "settling_time", isfinite(ts) ? hy_json_exact_number(ts) : cJSON_CreateNull());
        }
    }
    cJSON *hs = cJSON_AddArrayToObject(doc, "hinges");
    for (int j = 0; j < h->nh; j++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "position", hy_json_exact_number(c->params.hinge[j].position));
        cJSON_AddItemToObject(o, "clearance", hy_json_exact_number(c->params.hinge[j].clearance));
        cJSON_AddItemToObject(o, "dtheta_max_abs", hy_json_exact_number(fabs(h->pk.pq[j].v)));
        cJSON_AddItemToObject(o, "dtheta_time", hy_json_exact_number(h->pk.pq[j].t));
        cJSON_AddItemToObject(o, "M_max_abs", hy_json_exact_number(fabs(h->pk.pM[j].v)));
        cJSON_AddItemToObject(o, "M_time", hy_json_exact_number(h->pk.pM[j].t));
        cJSON_AddItemToObject(o, "contact_fraction", hy_json_exact_number((double)h->r->contact[j] / (double)h->n));
        cJSON_AddNumberToObject(o, "contact_onsets", (double)h->r->contact_onsets[j]);   /* MECH_BEAM_EV_*   */
        cJSON_AddNumberToObject(o, "turning_points", (double)h->r->turning_points[j]);
        cJSON_AddItemToObject(o, "work", hy_json_exact_number(h->r->W_j[j]));
        /* energy per cycle of the hinge's dtheta-M loop, counted by hyst's loop analysis (docs/loops.md) */
        cJSON *cyc = cJSON_AddArrayToObject(o, "energy_per_cycle");
        if (h->loops[j]) {
            for (size_t k = 0; k < h->lp[j].n_cyc; k++)
                cJSON_AddItemToArray(cyc, hy_json_exact_number(h->lp[j].cyc_energy[k]));
            cJSON_AddItemToObject(o, "loops_total_energy", hy_json_exact_number(h->lp[j].total_energy));
        }
        cJSON_AddItemToArray(hs, o);
    }
    cJSON *en = cJSON_AddObjectToObject(doc, "energy");
    cJSON_AddItemToObject(en, "work_external", hy_json_exact_number(h->r->W_ext));
    cJSON_AddItemToObject(en, "work_hinges", hy_json_exact_number(h->r->W_hinge));
    cJSON_AddItemToObject(en, "kinetic_final", hy_json_exact_number(h->r->T));
    cJSON_AddItemToObject(en, "elastic_final", hy_json_exact_number(h->r->V_beam));
    cJSON_AddItemToObject(en, "balance_max_abs", hy_json_exact_number(h->r->balance_max));
    cJSON_AddItemToObject(doc, "angular_momentum_final", hy_json_exact_number(h->r->h));
    if (h->failed)
        cJSON_AddStringToObject(doc, "error", h->msg);
    return doc;
}

static int write_text(const char *cmd, const char *path, const char *text, const opts *o, const mech_beam_config *c)
{
    hy_atomic a;
    if (open_out(cmd, &a, path, o, c) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    fputs(text, a.fp);
    return mech_out_commit(cmd, &a);
}

/* (options, configuration, runs: 1 sim, 2 lqr (side by side)) => refused before running when the CSV files or the
 * summary's temporary hinge records exceed the free space of their folder (hy_output_limit; up to 25 bytes a CSV
 * number, 8 a binary one), naming the keys and the numbers. Both stream their rows and hold a figure of at most
 * 4000 samples a curve; sim writes each hinge's dtheta and M to a temporary file for the summary's loop analysis
 * (--summary or --format h5, with hinges; scratch_target). */
/* (options) => the path beside which the summary's temporary hinge records go (hy_atomic_open's temporary, never
 * committed): the summary's file, else -o's, else the working folder */
static const char *scratch_target(const opts *o)
{
    if (o->summary && strcmp(o->summary, "-") != 0)
        return o->summary;
    return strcmp(o->out, "-") != 0 ? o->out : "mech-beam-hinges";
}

static int check_run(const char *cmd, const opts *o, const mech_beam_config *c, const mech_beam_model *m, int runs)
{
    double n = floor(c->solver.duration / c->solver.dt + 0.5) + 1;
    int nh = c->params.n_hinges;
    int loops = runs == 1 && (o->summary || o->h5) && nh > 0;
    char need[32], have[32];
    mech_beam_info in;
    mech_beam_model_info(m, &in);
    const char *files[4] = {strcmp(o->out, "-") ? o->out : NULL, o->records, loops ? scratch_target(o) : NULL,
                            o->modal};
    double bytes[4] = {runs * n * (6.0 + 2.0 * nh) * 25, n * nh * 3.0 * 25, n * nh * 2.0 * sizeof(double),
                       n * (2.0 + (double)in.nm + nh) * 25};
    static const char scratch_what[] = "the summary's temporary hinge records (with hinges, --summary or --format h5)";
    const char *what[4] = {"-o", "--hinge-records", scratch_what, "--modal"};
    for (int k = 0; k < 4; k++) {
        if (!files[k])
            continue;
        char dir[4200];
        hy_path_dir(files[k], dir, sizeof dir);
        double lim = hy_output_limit(dir[0] ? dir : ".");
        if (bytes[k] > lim) {
            hy_bytes_text(need, sizeof need, bytes[k]);
            hy_bytes_text(have, sizeof have, lim);
            return mech_cli_fail(cmd, "%s: solver.duration %g s / solver.dt %g s = %.4g rows: %s would take up to %s, "
                                 "more than the %s allowed in its folder (free space or HYST_OUTPUT_MAX)",
                                 hy_display_name(o->config), c->solver.duration, c->solver.dt, n,
                                 what[k], need, have);
        }
    }
    return MECH_EXIT_OK;
}

/* ---------- sim: the run streamed to its outputs ---------- */

#define FIG_MAX 4000   /* samples a figure draws of each curve (block's decimation) */

/* A figure's samples of a streamed run: every step-th sample, as block() picks them from a whole history of n
 * samples (step = ceil(n / 4000)), so the figure is the one the whole history gave */
typedef struct figbuf {
    size_t step, cap, n;            /* every step-th sample, cap at most, n kept                             */
    int nh;
    double *v;                      /* (5 + 2 nh) x cap: t, w_tip, theta, theta_dot, U, dtheta_j, M_j; NULL: none */
} figbuf;

// (figure, samples of the whole run, hinges) => room for its samples; exit status
static int fig_init(const char *cmd, figbuf *f, size_t n, int nh)
{
    f->step = n > FIG_MAX ? (n + FIG_MAX - 1) / FIG_MAX : 1;
    f->cap = (n + f->step - 1) / f->step;
    f->n = 0, f->nh = nh;
    f->v = malloc((5 + 2 * (size_t)nh) * f->cap * sizeof *f->v);
    return f->v ? MECH_EXIT_OK : mech_cli_fail(cmd, "out of memory");
}

// (figure, sample i) => kept when the figure draws it
static void fig_add(figbuf *f, size_t i, const mech_beam_obs *o)
{
    if (!f->v || i % f->step != 0 || f->n >= f->cap)
        return;
    double *v = f->v + f->n++;
    size_t c = f->cap;
    v[0] = o->t, v[c] = o->w_tip, v[2 * c] = o->theta, v[3 * c] = o->theta_dot, v[4 * c] = o->U;
    for (int j = 0; j < f->nh; j++)
        v[(5 + (size_t)j) * c] = o->dtheta[j], v[(5 + (size_t)(f->nh + j)) * c] = o->M[j];
}

// (figure) => its samples as a history for plot_response (block() draws them all: n <= 4000)
static hist fig_view(const figbuf *f)
{
    size_t c = f->cap;
    return (hist){.n = (long)f->n, .cap = (long)c, .nh = f->nh, .t = f->v, .w = f->v + c, .th = f->v + 2 * c,
                  .thd = f->v + 3 * c, .U = f->v + 4 * c, .dth = f->v + 5 * c, .M = f->v + (5 + (size_t)f->nh) * c};
}

// (row position, sample, hinges, with t first, last in the row) => the CSV numbers of one run's columns
static char *row_set(char *l, const mech_beam_obs *o, int nh, int with_t, int last)
{
    if (with_t)
        l = num(l, o->t, 0);
    l = num(l, o->w_tip, 0);
    l = num(l, o->theta, 0);
    l = num(l, o->theta_dot, 0);
    for (int j = 0; j < nh; j++)
        l = num(num(l, o->dtheta[j], 0), o->M[j], 0);
    l = num(l, o->U, 0);
    return num(l, o->F, last);
}

/* The outputs of one sim run, opened before it starts (every check made before running) and written a row at a
 * time from mech_beam_run's sample callback: memory does not grow with the run; the summary's loop analysis reads
 * the hinge records back from a temporary file (scr, never committed). Each file is a temporary registered with the
 * signal clean-up (hy_atomic_open, hy_h5log_open), renamed into place at the end. */
typedef struct stream {
    int nh;
    size_t n_plan;                  /* samples of the whole run (mech_beam_samples)                          */
    hy_atomic out;                  /* -o as CSV (or standard output)                                        */
    int csv;
    hy_atomic rec[MECH_BEAM_MAX_HINGES];
    int n_rec;                      /* --hinge-records files open                                           */
    hy_h5log *lg;                   /* --format h5                                                           */
    hy_h5table *tab[1 + MECH_BEAM_MAX_HINGES];
    hy_atomic scr;                  /* each step's dtheta_1..nh, M_1..nh (binary) for the loop analysis     */
    int scr_on;
    size_t every;                   /* the time response's rows: every this many steps, and the last         */
    size_t rows;                    /* rows of the time response written                                     */
    int held_on;                    /* the last sample was not written: held for a turning point or a failure */
    int events;                     /* outputs.events (MECH_BEAM_EVENTS_*)                                   */
    mech_beam_obs held;
    double held_dth[MECH_BEAM_MAX_HINGES], held_M[MECH_BEAM_MAX_HINGES];
    hy_atomic modal;                /* --modal: t, theta, eta_1..nm, dtheta_1..nh at the time response's rows  */
    int modal_on;
    size_t nq;                      /* the run's coordinates (mech_beam_obs.nq: the model's nm)              */
    double *held_q;                 /* nq: the held sample's modal coordinates                               */
    char *mline;                    /* a row of the modal file                                               */
    figbuf fig;                     /* --plot's samples                                                      */
    runsum sum;
} stream;

static char iobuf[256 * 1024];   /* -o's buffer: the rows reach the file in few writes */

// (stream) => every output not yet committed removed, memory freed
static void stream_abort(stream *st)
{
    if (st->csv)
        hy_atomic_abort(&st->out);
    for (int j = 0; j < st->n_rec; j++)
        hy_atomic_abort(&st->rec[j]);
    hy_h5log_abort(st->lg);
    if (st->modal_on)
        hy_atomic_abort(&st->modal);
    st->modal_on = 0;
    if (st->scr_on)
        hy_atomic_abort(&st->scr);
    st->csv = st->n_rec = st->scr_on = 0, st->lg = NULL;
}

static void stream_free(stream *st)
{
    stream_abort(st);
    for (int j = 0; j < st->nh; j++)
        hy_loops_sum_free(&st->sum.lp[j]);
    free(st->fig.v);
    free(st->held_q);
    free(st->mline);
    st->fig.v = NULL, st->held_q = NULL, st->mline = NULL;
}

/* (stream, options, configuration, model) => --modal's file open with its header: t, theta, eta_1..eta_nm (the
 * reduced coordinates, mass-normalised: kg^0.5 m; w(x, t) = sum_i phi_i(x) eta_i(t), mech_beam_shapes) and the
 * hinges' dtheta_j; exit status */
static int modal_open(const char *cmd, stream *st, const opts *o, const mech_beam_config *c, const mech_beam_model *m)
{
    mech_beam_info in;
    mech_beam_model_info(m, &in);
    st->nq = in.nm;
    st->held_q = malloc(in.nm * sizeof *st->held_q);
    st->mline = malloc((2 + in.nm + (size_t)st->nh) * 33);
    if (!st->held_q || !st->mline)
        return mech_cli_fail(cmd, "out of memory");
    if (open_out(cmd, &st->modal, o->modal, o, c) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    st->modal_on = 1;
    FILE *fp = st->modal.fp;
    fputs("t,theta", fp);
    for (size_t i = 0; i < in.nm; i++)
        fprintf(fp, ",eta_%zu", i + 1);
    for (int j = 0; j < st->nh; j++)
        fprintf(fp, ",dtheta_%d", j + 1);
    fputs("\ns,rad", fp);
    for (size_t i = 0; i < in.nm; i++)
        fputs(",kg^0.5 m", fp);
    for (int j = 0; j < st->nh; j++)
        fputs(",rad", fp);
    fputc('\n', fp);
    return MECH_EXIT_OK;
}

// (options, configuration, model) => the outputs open, headers written, the kept arrays allocated
static int stream_open(const char *cmd, stream *st, const opts *o, const mech_beam_config *c,
                       const mech_beam_model *m)
{
    int nh = c->params.n_hinges;
    hy_err err;
    memset(st, 0, sizeof *st);
    st->nh = st->sum.nh = st->sum.pk.nh = nh;
    if (o->modal && modal_open(cmd, st, o, c, m) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    if (mech_beam_samples(&c->solver, &st->n_plan, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    size_t n = st->n_plan;
    /* outputs.rate R: a row every round(1 / (R dt)) steps (at least every step) and at the last step */
    double every = c->output_rate > 0 ? floor(1.0 / (c->output_rate * c->solver.dt) + 0.5) : 1.0;
    st->every = every < 1 ? 1 : every > (double)n ? (n > 0 ? n : 1) : (size_t)every;
    st->events = c->output_events;
    if ((o->summary || o->h5) && nh > 0) {
        if (hy_atomic_open(&st->scr, scratch_target(o), NULL, &err) != HY_OK)
            return mech_cli_fail(cmd, "the summary's temporary hinge records: %s", err.msg);
        st->scr_on = 1;
    }
    if (o->plot && fig_init(cmd, &st->fig, n, nh) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    if (o->h5) {
        if (is_input(o->out, o, c))
            return mech_cli_fail(cmd, "%s: refusing to overwrite an input file", o->out);
        if (hy_h5log_open(&st->lg, o->out, o->config, &err) != HY_OK)
            return mech_cli_fail(cmd, "%s", err.msg);
        char nm[6 + 2 * MECH_BEAM_MAX_HINGES][24];
        const char *names[6 + 2 * MECH_BEAM_MAX_HINGES], *units[6 + 2 * MECH_BEAM_MAX_HINGES];
        int nc = 0;
        const char *head[4][2] = {{"t", "s"}, {"w_tip", "m"}, {"theta", "rad"}, {"theta_dot", "rad/s"}};
        for (int k = 0; k < 4; k++)
            names[nc] = head[k][0], units[nc++] = head[k][1];
        for (int j = 0; j < nh; j++) {
            snprintf(nm[2 * j], sizeof nm[0], "dtheta_%d", j + 1);
            snprintf(nm[2 * j + 1], sizeof nm[0], "M_%d", j + 1);
            names[nc] = nm[2 * j], units[nc++] = "rad";
            names[nc] = nm[2 * j + 1], units[nc++] = "N m";
        }
        names[nc] = "U", units[nc++] = "V";
        names[nc] = "F", units[nc++] = "N";
        int rc = hy_h5log_table(st->lg, "/history", nc, names, units, "mech beam sim time response (docs/beam.md)",
                                &st->tab[0], &err);
        for (int j = 0; rc == HY_OK && j < nh; j++) {
            char dset[64], desc[200];
            const char *rn[3] = {"t", "q", "Q"}, *ru[3] = {"s", "rad", "N m"};
            snprintf(dset, sizeof dset, "/records/hinge%d", j + 1);
            snprintf(desc, sizeof desc, "hinge %d: relative rotation q = dtheta_%d and moment Q = M_%d at every step",
                     j + 1, j + 1, j + 1);
            rc = hy_h5log_table(st->lg, dset, 3, rn, ru, desc, &st->tab[1 + j], &err);
        }
        if (rc != HY_OK)
            return mech_cli_fail(cmd, "%s", err.msg);
    } else {
        if (open_out(cmd, &st->out, o->out, o, c) != MECH_EXIT_OK)
            return MECH_EXIT_FAIL;
        st->csv = 1;
        if (!st->out.is_stdout)
            setvbuf(st->out.fp, iobuf, _IOFBF, sizeof iobuf);
        write_head(st->out.fp, nh, 1);
    }
    for (int j = 0; o->records && j < nh; j++) {
        char path[4200];
        snprintf(path, sizeof path, "%s%d.csv", o->records, j + 1);
        if (open_out(cmd, &st->rec[j], path, o, c) != MECH_EXIT_OK)
            return MECH_EXIT_FAIL;
        st->n_rec = j + 1;
        fputs("t,q,Q\ns,rad,N m\n", st->rec[j].fp);
    }
    return MECH_EXIT_OK;
}

// (stream, sample) => its row of the time response: -o's CSV row, or the HDF5 log's /history row
static int write_response(stream *st, const mech_beam_obs *ob, hy_err *err)
{
    int nh = st->nh;
    st->rows++;
    if (st->csv) {   /* each row is made in memory and written at once (one fwrite, not one stdio call a number) */
        char line[(6 + 2 * MECH_BEAM_MAX_HINGES) * 33], *l = row_set(line, ob, nh, 1, 1);
        fwrite(line, 1, (size_t)(l - line), st->out.fp);
    }
    if (st->modal_on) {   /* the same row's modal coordinates (the same time: the view checks it) */
        char *l = num(num(st->mline, ob->t, 0), ob->theta, 0);
        for (size_t i = 0; i < st->nq; i++)
            l = num(l, ob->q[i], nh == 0 && i + 1 == st->nq);
        for (int j = 0; j < nh; j++)
            l = num(l, ob->dtheta[j], j + 1 == nh);
        fwrite(st->mline, 1, (size_t)(l - st->mline), st->modal.fp);
    }
    if (st->lg) {
        double row[6 + 2 * MECH_BEAM_MAX_HINGES];
        int k = 0;
        row[k++] = ob->t, row[k++] = ob->w_tip, row[k++] = ob->theta, row[k++] = ob->theta_dot;
        for (int j = 0; j < nh; j++)
            row[k++] = ob->dtheta[j], row[k++] = ob->M[j];
        row[k++] = ob->U, row[k++] = ob->F;
        return hy_h5log_append(st->tab[0], row, err);
    }
    return HY_OK;
}

// (stream, sample i) => the sample into the summary's running figures, the figure's samples and every output's row
static int on_sample(void *ctx, size_t i, const mech_beam_obs *ob, hy_err *err)
{
    stream *st = ctx;
    runsum *sm = &st->sum;
    int nh = st->nh;
    double t = ob->t;
    mech_beam_peaks_add(&sm->pk, i, ob);
    if (st->scr_on) {   /* the summary's loop analysis reads these back (scratch_read) */
        double row[2 * MECH_BEAM_MAX_HINGES];
        memcpy(row, ob->dtheta, (size_t)nh * sizeof *row);
        memcpy(row + nh, ob->M, (size_t)nh * sizeof *row);
        if (fwrite(row, sizeof *row, 2 * (size_t)nh, st->scr.fp) != 2 * (size_t)nh)
            return hy_err_set(err, HY_EIO, "%s: writing the summary's temporary hinge records: %s", st->scr.tmp,
                              strerror(errno));
    }
    sm->n = (long)i + 1;
    fig_add(&st->fig, i, ob);
    /* the time response at outputs.rate (and the last step) and/or at events; a sample between rows is held, so
       that a turning point found at the next sample, and the last state a run that fails mid-way reached, can
       still be written */
    int rc = HY_OK;
    if (st->events != MECH_BEAM_EVENTS_NONE && (ob->events & MECH_BEAM_EV_TURNED) && st->held_on) {
        rc = write_response(st, &st->held, err);
        st->held_on = 0;
    }
    int due = st->events == MECH_BEAM_EVENTS_ONLY ? i == 0 || i + 1 == st->n_plan
                                                  : st->every == 1 || i % st->every == 0 || i + 1 == st->n_plan;
    if (st->events != MECH_BEAM_EVENTS_NONE && (ob->events & MECH_BEAM_EV_CONTACT))
        due = 1;
    if (due) {
        if (rc == HY_OK)
            rc = write_response(st, ob, err);
        st->held_on = 0;
    } else {
        st->held = *ob;
        memcpy(st->held_dth, ob->dtheta, (size_t)nh * sizeof *ob->dtheta);
        memcpy(st->held_M, ob->M, (size_t)nh * sizeof *ob->M);
        st->held.dtheta = st->held_dth, st->held.M = st->held_M;
        if (st->held_q) {
            memcpy(st->held_q, ob->q, st->nq * sizeof *ob->q);
            st->held.q = st->held_q;
        }
        st->held_on = 1;
    }
    for (int j = 0; j < st->n_rec; j++) {
        char row[3 * 33], *l = num(row, t, 0);
        l = num(num(l, ob->dtheta[j], 0), ob->M[j], 1);
        fwrite(row, 1, (size_t)(l - row), st->rec[j].fp);
    }
    for (int j = 0; st->lg && rc == HY_OK && j < nh; j++) {
        double r3[3] = {t, ob->dtheta[j], ob->M[j]};
        rc = hy_h5log_append(st->tab[1 + j], r3, err);
    }
    return rc;
}

/* The temporary hinge records read back for hy_loops_stream: rows of dtheta_1..nh, M_1..nh, hinge j's columns */
typedef struct scratch {
    int fd, nh, j;
    const char *path;
    double buf[4096 * 2 * MECH_BEAM_MAX_HINGES];
} scratch;

// (records, samples i0 .. i0 + m - 1) => hinge j's q = dtheta_j, Q = M_j
static int scratch_read(void *ctx, size_t i0, size_t m, double *q, double *Q, hy_err *err)
{
    scratch *x = ctx;
    size_t w = 2 * (size_t)x->nh, len = m * w * sizeof *x->buf, got = 0;
    off_t at = (off_t)(i0 * w * sizeof *x->buf);
    while (got < len) {
        ssize_t k = pread(x->fd, (char *)x->buf + got, len - got, at + (off_t)got);
        if (k <= 0)
            return hy_err_set(err, HY_EIO, "%s: reading the summary's temporary hinge records: %s", x->path,
                              k < 0 ? strerror(errno) : "shorter than written");
        got += (size_t)k;
    }
    for (size_t k = 0; k < m; k++)
        q[k] = x->buf[k * w + (size_t)x->j], Q[k] = x->buf[k * w + (size_t)(x->nh + x->j)];
    return HY_OK;
}

/* (stream after the run) => each hinge's loop analysis of its n samples (hy_loops_stream: the numbers of
 * hy_loops_analyze on the whole record) into the summary, the temporary records removed; a hinge whose records
 * cannot be analysed (fewer than 3 samples, dtheta constant) has none, as before; an I/O error fails */
static int stream_loops(const char *cmd, stream *st)
{
    runsum *sm = &st->sum;
    hy_err err;
    int status = MECH_EXIT_OK;
    if (!st->scr_on)
        return MECH_EXIT_OK;
    scratch *x = malloc(sizeof *x);
    if (!x)
        return mech_cli_fail(cmd, "out of memory");
    x->fd = -1, x->nh = st->nh, x->path = st->scr.tmp;
    if (fflush(st->scr.fp) != 0 || ferror(st->scr.fp))
        status = mech_cli_fail(cmd, "%s: writing the summary's temporary hinge records: %s", st->scr.tmp,
                               strerror(errno));
    else if ((x->fd = open(st->scr.tmp, O_RDONLY)) < 0)
        status = mech_cli_fail(cmd, "%s: %s", st->scr.tmp, strerror(errno));
    hy_loops_opts lo;
    hy_loops_opts_default(&lo);
    for (int j = 0; status == MECH_EXIT_OK && j < st->nh && sm->n >= 3; j++) {
        x->j = j;
        int rc = hy_loops_stream(scratch_read, x, (size_t)sm->n, &lo, &sm->lp[j], &err);
        if (rc == HY_EIO || rc == HY_ENOMEM)
            status = mech_cli_fail(cmd, "%s", err.msg);
        sm->loops[j] = rc == HY_OK;
    }
    if (x->fd >= 0)
        close(x->fd);
    free(x);
    hy_atomic_abort(&st->scr);
    st->scr_on = 0;
    return status;
}

static int cmd_sim(const char *cmd, const opts *o, mech_beam_config *c, const mech_beam_model *m)
{
    hy_err err;
    stream st;
    if (check_run(cmd, o, c, m, 1) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    if (stream_open(cmd, &st, o, c, m) != MECH_EXIT_OK) {
        stream_free(&st);
        return MECH_EXIT_FAIL;
    }
    /* the library's loop (mech_beam_run, beam_run.c), each sample streamed by on_sample; nothing else kept */
    mech_beam_history r = {.sample = on_sample, .sample_ctx = &st};
    hy_progress pr;
    hy_progress_start(&pr, "mech beam");
    if (st.csv && st.out.is_stdout && isatty(STDOUT_FILENO))
        pr.on = 0;   /* the rows stream to the same terminal: a progress line would cut through them */
    r.progress = progress, r.progress_ctx = &pr;
    int rc = mech_beam_run(m, &c->solver, &c->load, NULL, &r, &err);
    hy_progress_end(&pr);
    if (rc != HY_OK && !r.failed) {
        stream_free(&st);
        return mech_cli_fail(cmd, "%s", err.msg);
    }
    runsum *sm = &st.sum;
    sm->r = &r;
    sm->n = (long)r.n;
    if (r.failed) {
        sm->failed = 1;
        snprintf(sm->msg, sizeof sm->msg, "%s", err.msg);
        hy_err werr;
        if (st.held_on && write_response(&st, &st.held, &werr) != HY_OK)
            mech_cli_warn(cmd, "%s", werr.msg);
    }
    int status = stream_loops(cmd, &st);
    if (status != MECH_EXIT_OK) {
        stream_free(&st);
        return status;
    }
    if (st.lg) {   /* the summary as the log's attributes */
        cJSON *doc = summary(sm, c, m);
        rc = doc ? hy_h5log_attr_json(st.lg, "/", doc, &err) : hy_err_set(&err, HY_ENOMEM, "out of memory");
        cJSON_Delete(doc);
        if (rc == HY_OK) {
            rc = hy_h5log_commit(st.lg, &err);
            st.lg = NULL;
        }
        if (rc != HY_OK)
            status = mech_cli_fail(cmd, "%s", err.msg);
    } else {
        st.csv = 0;
        status = mech_out_commit(cmd, &st.out);
    }
    if (status == MECH_EXIT_OK && st.modal_on) {
        st.modal_on = 0;
        status = mech_out_commit(cmd, &st.modal);
    }
    if (r.balance_max > 0.01 * fabs(r.W_ext) && r.W_ext != 0)
        mech_cli_warn(cmd, "the energy balance is off by %.2g %% of the work put in%s", 100 * r.balance_max /
                      fabs(r.W_ext), c->solver.update == MECH_BEAM_LAGGED ? " (the paper's lagged update with a hinge "
                      "gap that opens: use --iterated or solver.update = \"iterated\")" : "; reduce solver.dt");
    if (status == MECH_EXIT_OK && o->summary) {
        cJSON *doc = summary(sm, c, m);
        char *txt = doc ? hy_json_print(doc) : NULL;
        status = txt ? write_text(cmd, o->summary, txt, o, c) : mech_cli_fail(cmd, "out of memory");
        free(txt);
        cJSON_Delete(doc);
    }
    for (int j = 0; status == MECH_EXIT_OK && j < st.n_rec; j++)
        status = mech_out_commit(cmd, &st.rec[j]);
    if (status == MECH_EXIT_OK)
        st.n_rec = 0;   /* all committed (the loop stops at the first that fails: the others are removed below) */
    if (status == MECH_EXIT_OK && o->plot && sm->n > 1) {
        /* the figure's samples as a history: block() draws them all (fn <= 4000), the ones it would pick of the
         * whole run */
        hist h = fig_view(&st.fig);
        status = plot_response(cmd, o->plot, &h, NULL, "response", "");
    }
    if (sm->failed) {
        if (st.every > 1 || st.events == MECH_BEAM_EVENTS_ONLY)   /* fewer rows than the steps the records hold */
            status = mech_cli_fail(cmd, "%s (the %ld steps before it are written: %zu rows of the time response at "
                                   "%s, the last the state the run reached)", sm->msg, sm->n, st.rows,
                                   st.events == MECH_BEAM_EVENTS_ONLY ? "events" : "outputs.rate");
        else
            status = mech_cli_fail(cmd, "%s (the %ld rows before it are written)", sm->msg, sm->n);
    }
    stream_free(&st);
    return status;
}

/* ---------- lqr ---------- */

/* What `mech beam lqr` makes of each pair of samples as the two runs go (lqr_sample) */
typedef struct lqr_stream {
    int nh;
    FILE *fp;                       /* -o, or NULL                                                           */
    figbuf fig[2];                  /* --plot's samples of each run                                          */
    double ss[2], umax;             /* sums of w_tip^2; the controlled run's peak |U|                         */
} lqr_stream;

// (stream, sample i, uncontrolled and controlled observation) => the sums, the figures' samples, the CSV row
static int lqr_sample(void *ctx, size_t i, const mech_beam_obs *o0, const mech_beam_obs *o1, hy_err *err)
{
    (void)err;
    lqr_stream *ls = ctx;
    const mech_beam_obs *ob[2] = {o0, o1};
    for (int r = 0; r < 2; r++) {
        ls->ss[r] += ob[r]->w_tip * ob[r]->w_tip;
        fig_add(&ls->fig[r], i, ob[r]);
    }
    ls->umax = fmax(ls->umax, fabs(o1->U));
    if (ls->fp) {
        char line[2 * (6 + 2 * MECH_BEAM_MAX_HINGES) * 33], *l = row_set(line, o0, ls->nh, 1, 0);
        l = row_set(l, o1, ls->nh, 0, 1);
        fwrite(line, 1, (size_t)(l - line), ls->fp);
    }
    return HY_OK;
}

/* (model, configuration, gain, options) => the uncontrolled and the controlled run in lockstep by the library's
 * mech_beam_run_pair (beam_run.c, the per-sample code of mech_beam_run): each CSV row of both written as it is made
 * (-o), the figure's samples kept (--plot), the tip RMS and the peak |U| summed as the runs go; memory does not grow
 * with the run. A run that fails names itself ("controlled run: t = ...") and writes nothing. */
static int lqr_runs(const char *cmd, const opts *o, const mech_beam_config *c, const mech_beam_model *m,
                    const mech_beam_control *ctl, FILE *fp)
{
    int nh = c->params.n_hinges, csv = strcmp(o->out, "-") != 0, status = MECH_EXIT_OK, failed = -1;
    const char *what[2] = {"uncontrolled run", "controlled run"};
    size_t n;
    hy_err err;
    if (mech_beam_samples(&c->solver, &n, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    hy_atomic a;
    lqr_stream ls;
    memset(&ls, 0, sizeof ls);
    ls.nh = nh;
    if (csv && open_out(cmd, &a, o->out, o, c) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    if (csv) {
        if (!a.is_stdout)
            setvbuf(a.fp, iobuf, _IOFBF, sizeof iobuf);
        write_head(a.fp, nh, 2);
        ls.fp = a.fp;
    }
    for (int r = 0; r < 2 && status == MECH_EXIT_OK; r++)
        if (o->plot && fig_init(cmd, &ls.fig[r], n, nh) != MECH_EXIT_OK)
            status = MECH_EXIT_FAIL;
    hy_progress pr;
    if (status == MECH_EXIT_OK) {
        /* streaming histories (cap 0): nothing kept, the rows made by lqr_sample */
        mech_beam_history h0 = {.progress = progress, .progress_ctx = &pr}, h1 = {0};
        mech_beam_history *const hs[2] = {&h0, &h1};
        const mech_beam_control *const ctls[2] = {NULL, ctl};
        hy_progress_start(&pr, "mech beam");
        int rc = mech_beam_run_pair(m, &c->solver, &c->load, ctls, hs, lqr_sample, &ls, &failed, &err);
        hy_progress_end(&pr);
        if (rc != HY_OK)
            status = failed >= 0 ? mech_cli_fail(cmd, "%s: %s", what[failed], err.msg)
                                 : mech_cli_fail(cmd, "%s", err.msg);
    }
    if (status == MECH_EXIT_OK) {
        double rms0 = n ? sqrt(ls.ss[0] / (double)n) : 0, rms1 = n ? sqrt(ls.ss[1] / (double)n) : 0;
        fprintf(fp, "closed loop on the nonlinear model (%s update, %g s): tip RMS %.4g m -> %.4g m (%.1f %% lower), "
                "peak |U| %.4g V%s\n", c->solver.update == MECH_BEAM_ITERATED ? "iterated" : "lagged",
                c->solver.duration, rms0, rms1, 100 * (1 - rms1 / rms0), ls.umax,
                c->control_u_max > 0 ? " (saturated at u_max)" : "");
        if (csv)
            status = mech_out_commit(cmd, &a), csv = 0;
        if (status == MECH_EXIT_OK && o->plot) {
            hist h0 = fig_view(&ls.fig[0]), h1 = fig_view(&ls.fig[1]);
            status = plot_response(cmd, o->plot, &h0, &h1, "uncontrolled", "LQR");
        }
    }
    if (csv)
        hy_atomic_abort(&a);
    for (int r = 0; r < 2; r++)
        free(ls.fig[r].v);
    return status;
}

static int cmd_lqr(const char *cmd, const opts *o, mech_beam_config *c, const mech_beam_model *m)
{
    hy_err err;
    if (!c->params.mfc.enabled)
        return mech_cli_fail(cmd, "%s: mfc.enabled: the LQR needs the MFC pair (an \"mfc\" section)",
                             hy_display_name(o->config));
    mech_beam_lqr L;
    int theta = c->control_design == MECH_BEAM_DESIGN_THETA;
    int rc = mech_beam_lqr_design(m, c->control_design, c->control_Q, c->control_R, &L, &err);
    if (rc == HY_EMODEL && theta)
        return mech_cli_fail(cmd, "%s: control.design = \"theta\": the paper's theta-state design (spec 004 eqs. "
                             "23-25) is refused, since the MFC's internal moment pair cannot move the rigid attitude "
                             "mode (J theta + H q has zero second derivative for every voltage; spec 004 §5, §9.3): "
                             "%s; use \"design\": \"flex\", the reduced flexible model of §5 (a)",
                             hy_display_name(o->config), err.msg);
    if (rc != HY_OK)
        return mech_cli_fail(cmd, "%s: %s", hy_display_name(o->config), err.msg);
    size_t ns = L.ns;
    /* the CARE solution: symmetric positive definite (smallest eigenvalue by LAPACK dsyev) */
    double *Xc = malloc((ns * ns + ns) * sizeof *Xc), asym = 0;
    if (!Xc) {
        mech_beam_lqr_free(&L);
        return mech_cli_fail(cmd, "out of memory");
    }
    for (size_t i = 0; i < ns; i++)
        for (size_t j = 0; j < ns; j++)
            asym = fmax(asym, fabs(L.X[i * ns + j] - L.X[j * ns + i]) / fmax(1e-300, fabs(L.X[i * ns + j])));
    memcpy(Xc, L.X, ns * ns * sizeof *Xc);
    double *ev = Xc + ns * ns;
    LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', (lapack_int)ns, Xc, (lapack_int)ns, ev);
    FILE *fp = stdout;
    fprintf(fp, "LQR on the %s (%zu states), Q = %g I, R = %g (spec 004 eq. 25; SLICOT SB02OD via libmech ctrl)\n",
            theta ? "theta-state model" : "reduced flexible model, theta eliminated with h = 0 (spec 004 §5 (a))",
            ns, c->control_Q, c->control_R);
    fprintf(fp, "CARE solution X: eigenvalues %.4g .. %.4g (positive definite: %s), max relative asymmetry %.1e\n",
            ev[0], ev[ns - 1], ev[0] > 0 ? "yes" : "NO", asym);
    fputs("gain K (U = -K z, z = [q; q'], V per modal unit):", fp);
    for (size_t i = 0; i < ns; i++)
        fprintf(fp, " %.6g", L.K[i]);
    fputs("\npole  open_re      open_im      closed_re     closed_im     zeta       f_Hz\n", fp);
    double worst = -INFINITY;
    for (size_t i = 0; i < ns; i++) {
        double z, wn;
        mech_ctrl_damping(1, &L.pole_re[i], &L.pole_im[i], &z, &wn);
        fprintf(fp, "%4zu  %-11.5g  %-11.5g  %-12.5g  %-12.5g  %-9.4g  %.5g\n", i + 1, L.open_re[i], L.open_im[i],
                L.pole_re[i], L.pole_im[i], z, wn / (2 * M_PI));
        worst = fmax(worst, L.pole_re[i]);
    }
    fprintf(fp, "A - B K is Hurwitz: %s (largest real part %.4g 1/s)\n", worst < 0 ? "yes" : "NO", worst);
    free(Xc);
    int status = MECH_EXIT_OK;
    if ((strcmp(o->out, "-") != 0 || o->plot) && check_run(cmd, o, c, m, 2) != MECH_EXIT_OK)
        status = MECH_EXIT_FAIL;
    else if (strcmp(o->out, "-") != 0 || o->plot) {
        mech_beam_control ctl = {.K = L.K, .u_max = c->control_u_max};
        status = lqr_runs(cmd, o, c, m, &ctl, fp);
    }
    mech_beam_lqr_free(&L);
    return status;
}

// --output-rate R|events
static int opt_rate(void *dst, const char *v, hy_args *st, hy_err *err)
{
    (void)st;
    opts *o = dst;
    int rc = mech_cli_output_rate(v, &o->output_rate, &o->events, err);
    o->set_output_rate = rc == HY_OK ? !o->events : o->set_output_rate;
    return rc;
}

int mech_cmd_beam(int argc, char **argv)
{
    const char *cmd = "beam";
    static const char *const subs[] = {"freq", "sim", "lqr", "shapes", NULL}, *const formats[] = {"csv", "h5", NULL};
    char name[32];
    int mode, go = mech_cli_sub(cmd, usage, argc, argv, subs, &mode, name, sizeof name);
    if (go != MECH_CLI_GO)
        return go;
    cmd = name;
    opts o = {.out = "-"};
    int format = 0;
    const hy_arg tab[] = {
        HY_OPT_STR("output", 'o', &o.out),        HY_OPT_STR("sweep", 0, &o.sweep),
        HY_OPT_STR("values", 0, &o.values),       HY_OPT_STR("plot", 0, &o.plot),
        HY_OPT_STR("summary", 0, &o.summary),     HY_OPT_STR("hinge-records", 0, &o.records),
        HY_OPT_STR("modal", 0, &o.modal),
        HY_OPT_DOUBLE("duration", &o.duration, &o.set_duration), HY_OPT_DOUBLE("dt", &o.dt, &o.set_dt),
        HY_OPT_DOUBLE("F0", &o.F0, &o.set_F0),    HY_OPT_DOUBLE("clearance", &o.clearance, &o.set_clearance),
        HY_OPT_CALL("output-rate", &o, opt_rate),
        HY_OPT_FLAG("physical", 0, &o.physical),  HY_OPT_FLAG("iterated", 0, &o.iterated),
        HY_OPT_CHOICE("format", &format, formats), HY_OPT_END};
    if ((go = mech_cli_parse(cmd, usage, tab, argc - 1, argv + 1, "missing CONFIG.json", &o.config)) != MECH_CLI_GO)
        return go;
    o.h5 = format == 2;
    if ((o.sweep || o.values) && mode != 0)
        return mech_cli_usage(cmd, "--sweep and --values belong to 'mech beam freq'");
    if ((o.summary || o.records || o.modal) && mode != 1)
        return mech_cli_usage(cmd, "--summary, --hinge-records and --modal belong to 'mech beam sim'");
    if (o.modal && (strcmp(o.modal, "-") == 0 || o.physical))
        return mech_cli_usage(cmd, "--modal needs a file name (not standard output) and the modal coordinates (not "
                              "--physical)");
    if (mode == 3 && (o.plot || o.physical))
        return mech_cli_usage(cmd, "--plot and --physical are not for 'mech beam shapes'");
    if (o.h5 && (mode != 1 || strcmp(o.out, "-") == 0))
        return mech_cli_usage(cmd, "--format h5 belongs to 'mech beam sim' and needs -o FILE.h5 (not standard output)");
    if (o.values && !o.sweep)
        return mech_cli_usage(cmd, "--values needs --sweep");
    if ((o.set_output_rate || o.events) && mode != 1)
        return mech_cli_usage(cmd, "--output-rate belongs to 'mech beam sim'");
    if (o.plot && mode == 0 && !o.sweep)
        return mech_cli_usage(cmd, "--plot needs --sweep with 'mech beam freq'");
    if (o.plot && !terminal(o.plot))
        return mech_cli_usage(cmd, "--plot %s: expected a .svg, .png or .pdf file name", o.plot);
    /* the outputs are distinct files: -o and --summary on one path would clobber each other */
    const char *outs[4] = {o.out, o.summary, o.plot, o.modal}, *names[4] = {"-o", "--summary", "--plot", "--modal"};
    if (mech_out_distinct(cmd, 4, outs, names) != MECH_EXIT_OK)
        return MECH_EXIT_USAGE;
    if (o.set_clearance && !(o.clearance >= 0))
        return mech_cli_usage(cmd, "--clearance must be >= 0 rad");
    mech_beam_config c;
    mech_beam_model *m;
    int status = load_config(cmd, &o, &c, &m);
    if (status != MECH_EXIT_OK)
        return status;
    if (o.modal && c.solver.physical) {
        mech_beam_model_free(m);
        mech_beam_config_free(&c);
        return mech_cli_fail(cmd, "%s: solver.coordinates = \"physical\": --modal needs the modal coordinates",
                             hy_display_name(o.config));
    }
    if (o.plot && is_input(o.plot, &o, &c)) {   /* checked before running, like every output */
        mech_beam_model_free(m);
        mech_beam_config_free(&c);
        return mech_cli_fail(cmd, "%s: refusing to overwrite an input file with the figure", o.plot);
    }
    if (mode == 0 || mode == 3) {
        hy_atomic a;
        if ((status = open_out(cmd, &a, o.out, &o, &c)) == MECH_EXIT_OK) {
            status = mode == 3 ? shapes_table(cmd, m, a.fp)
                     : o.sweep ? freq_sweep(cmd, &o, &c, a.fp) : freq_table(cmd, m, a.fp);
            if (status == MECH_EXIT_OK)
                status = mech_out_commit(cmd, &a);
            else
                hy_atomic_abort(&a);
        }
    } else if (mode == 1) {
        status = records_distinct(cmd, &o, c.params.n_hinges);
        if (status == MECH_EXIT_OK)
            status = cmd_sim(cmd, &o, &c, m);
    } else {
        status = cmd_lqr(cmd, &o, &c, m);
    }
    mech_beam_model_free(m);
    mech_beam_config_free(&c);
    return status;
}

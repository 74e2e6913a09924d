// hyst plot: measured and predicted loops, residuals and per-cycle energies, drawn by gnuplot through a pipe.
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "gnuplot.h"
#include "hyst/pwl.h"
#include "hyst/replay.h"
#include "hyst/util.h"
#include "replay_set.h"

static const char *const CMD = "plot";

enum plot_kind { KIND_LOOPS, KIND_RESIDUAL, KIND_ENERGY, KIND_ALL };
static const char *const kind_names[] = {"loops", "residual", "energy", "all"};

/* Colours: measured in dark grey, models in a palette that stays distinct in print. */
static const char *const palette[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
#define PALETTE(k) palette[(k) % (sizeof palette / sizeof palette[0])]

typedef struct plot {
    const hy_replay_set *R;
    int                  kind, width, height, table;
    int                  compact;      /* panels of the combined figure: smaller legends, fewer tics         */
    size_t               max_points;   /* drawing budget per curve; 0 = every sample                         */
    const char          *title;        /* NULL = a title from the file names                                  */
    char                 q_label[160], Q_label[160], x_label[160], r_label[160], e_label[160];
} plot;

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: hyst plot KIND [OPTIONS] [MODEL.json ...] DATA.csv\n"
            "\n"
            "Replays each model on the measured record (as 'hyst replay' does) and draws with gnuplot:\n"
            "  loops     measured loop with the predicted loops overlaid; for a piecewise-linear model also its\n"
            "            branch-table points and the transition segments it went through (models optional)\n"
            "  residual  force error Q_model - Q_measured against time (or sample number without time)\n"
            "  energy    dissipated energy per cycle, measured and predicted\n"
            "  all       the three in one figure\n"
            "\n"
            "options:\n"
            "  -o, --output FILE   .png (pngcairo), .svg or .pdf (pdfcairo) by extension; without it the plot\n"
            "                      opens in a window when DISPLAY is set\n"
            "  --script FILE.gp    also write a self-contained gnuplot script (data inline) that draws the same\n"
            "                      plot with 'gnuplot FILE.gp'; written even when gnuplot is missing\n"
            "  --size W,H          image size in pixels (default 900,650; PDF at %g pixels per inch)\n"
            "  --title TEXT        plot title (default: from the file names)\n"
            "  --max-points N      points drawn per curve on long records (default 20000; 0 = all). Decimation\n"
            "                      keeps every run's extremes and is for drawing only: metrics use every sample\n"
            "  --no-table          do not draw piecewise-linear table points and transition segments\n"
            "  -h, --help          this help\n"
            "\n"
            "%s%s"
            "\n"
            "gnuplot is looked up on PATH (or set HYST_GNUPLOT=/path/to/gnuplot).\n",
            HY_GP_PX_PER_INCH, hy_cli_loops_help, hy_cli_data_help);
}

// (fp, comment, block name, max points, x[n], y[n]) => a datablock of the decimated curve "x y"
static int put_curve(FILE *fp, const char *what, const char *name, size_t budget, const double *x, const double *y,
                     size_t n)
{
    size_t buckets = budget ? (budget - 2) / 4 : n;
    if (buckets < 1)
        buckets = 1;
    size_t cap = 4 * buckets + 2 < n ? 4 * buckets + 2 : n;
    size_t *keep = malloc(cap * sizeof *keep);
    if (!keep)
        return -1;
    size_t m = hy_replay_decimate(x, y, n, buckets, keep);
    if (m == n)
        fprintf(fp, "# %s (all %zu samples)\n", what, n);
    else
        fprintf(fp, "# %s (%zu of %zu samples: each run's extremes are kept)\n", what, m, n);
    hy_gp_block_begin(fp, name);
    for (size_t k = 0; k < m; k++) {
        hy_gp_num(fp, x[keep[k]]);
        fputc(' ', fp);
        hy_gp_num(fp, y[keep[k]]);
        fputc('\n', fp);
    }
    hy_gp_block_end(fp);
    free(keep);
    return 0;
}

// (fp, model) => the table's branch points: index 0 forward, index 1 backward (both sides)
static void put_table(FILE *fp, const hy_model *m)
{
    hy_pwl_table tab;
    hy_pwl_model_table(m->pwl, &tab);
    const hy_pwl_points *br[2][2] = {{&tab.positive.forward, &tab.negative.forward},
                                     {&tab.positive.backward, &tab.negative.backward}};
    for (int b = 0; b < 2; b++) {
        for (int s = 0; s < 2; s++)
            for (size_t i = 0; i < br[b][s]->n; i++) {
                hy_gp_num(fp, br[b][s]->q[i]);
                fputc(' ', fp);
                hy_gp_num(fp, br[b][s]->Q[i]);
                fputc('\n', fp);
            }
        fputs(b == 0 ? "\n\n" : "", fp);
    }
}

/* The transition segments (states +-3, spec 000 §2) the replay went through, one straight segment per visit:
 * from the smallest to the largest q reached in it, including the sample before it started (the reversal). */
// (fp, q, Q, states, n) => segments as pairs of points separated by blank lines; returns their count
static size_t put_transitions(FILE *fp, const double *q, const double *Q, const int *st, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n;) {
        if (st[i] != 3 && st[i] != -3) {
            i++;
            continue;
        }
        size_t j = i, lo = i ? i - 1 : i, hi = lo;
        for (size_t k = lo; k < n && (k < i || st[k] == st[i]); k++) {
            if (q[k] < q[lo]) lo = k;
            if (q[k] > q[hi]) hi = k;
            j = k;
        }
        hy_gp_num(fp, q[lo]);
        fputc(' ', fp);
        hy_gp_num(fp, Q[lo]);
        fputc('\n', fp);
        hy_gp_num(fp, q[hi]);
        fputc(' ', fp);
        hy_gp_num(fp, Q[hi]);
        fputs("\n\n", fp);
        count++;
        i = j + 1;
    }
    return count;
}

// (P) => every datablock the plot kind needs
static int put_data(FILE *fp, const plot *P, size_t *n_trans)
{
    const hy_replay_set *R = P->R;
    const hy_series *s = &R->s;
    size_t n = s->n;
    int loops = P->kind == KIND_LOOPS || P->kind == KIND_ALL;
    int resid = P->kind == KIND_RESIDUAL || P->kind == KIND_ALL;
    int energy = P->kind == KIND_ENERGY || P->kind == KIND_ALL;
    if (loops) {
        if (put_curve(fp, "measured loop: q Q", "measured", P->max_points, s->q, s->Q, n))
            return -1;
        for (size_t k = 0; k < R->n_models; k++) {
            const hy_replay_one *m = &R->m[k];
            char name[40], what[200];
            snprintf(what, sizeof what, "%s: predicted loop q Q", m->label);
            snprintf(name, sizeof name, "model%zu", k + 1);
            if (put_curve(fp, what, name, P->max_points, s->q, m->Q, n))
                return -1;
            if (P->table && m->model.type == HY_MODEL_PWL) {
                fprintf(fp, "# %s: branch-table points q Q (index 0 forward, index 1 backward)\n", m->label);
                snprintf(name, sizeof name, "table%zu", k + 1);
                hy_gp_block_begin(fp, name);
                put_table(fp, &m->model);
                hy_gp_block_end(fp);
                fprintf(fp, "# %s: transition segments visited during the replay\n", m->label);
                snprintf(name, sizeof name, "transition%zu", k + 1);
                hy_gp_block_begin(fp, name);
                n_trans[k] = m->states ? put_transitions(fp, s->q, m->Q, m->states, n) : 0;
                hy_gp_block_end(fp);
            }
        }
    }
    if (resid && R->n_models) {
        double *x = malloc(n * sizeof *x), *r = malloc(n * sizeof *r);
        if (!x || !r) {
            free(x);
            free(r);
            return -1;
        }
        for (size_t i = 0; i < n; i++)
            x[i] = s->t ? s->t[i] : (double)(i + 1);
        for (size_t k = 0; k < R->n_models; k++) {
            char name[40], what[200];
            for (size_t i = 0; i < n; i++)
                r[i] = R->m[k].Q[i] - s->Q[i];
            snprintf(what, sizeof what, "%s: residual Q_model - Q_measured against %s", R->m[k].label,
                     s->t ? "t" : "sample");
            snprintf(name, sizeof name, "residual%zu", k + 1);
            /* one run per pixel column: its extremes draw what the full record would show */
            size_t budget = P->max_points ? (size_t)(4 * P->width + 2) : 0;
            if (P->max_points && budget > P->max_points)
                budget = P->max_points;
            if (put_curve(fp, what, name, budget, x, r, n)) {
                free(x);
                free(r);
                return -1;
            }
        }
        free(x);
        free(r);
    }
    if (energy) {
        fprintf(fp, "# dissipated energy per cycle: cycle measured");
        for (size_t k = 0; k < R->n_models; k++)
            fprintf(fp, " %s", R->m[k].label);
        fputc('\n', fp);
        hy_gp_block_begin(fp, "energy");
        for (size_t c = 0; c < R->L.n_cyc; c++) {
            fprintf(fp, "%zu ", c + 1);
            hy_gp_num(fp, R->L.cyc[c].energy);
            if (R->n_models)
                for (size_t k = 0; k < R->n_models; k++) {
                    fputc(' ', fp);
                    hy_gp_num(fp, R->m[k].M.cyc[c].energy_model);
                }
            fputc('\n', fp);
        }
        hy_gp_block_end(fp);
    }
    return 0;
}

// (model) => short legend text "label (pwl, NRMSE 2.31 %)"
static void legend(const hy_replay_one *m, char *buf, size_t len)
{
    const char *fam = hy_model_family(&m->model);
    if (isfinite(m->M.nrmse))
        snprintf(buf, len, "%s (%s, NRMSE %.3g %%)", m->label, fam, 100.0 * m->M.nrmse);
    else
        snprintf(buf, len, "%s (%s)", m->label, fam);
}

// (P, position) => legend settings (smaller in the panels of the combined figure)
static void key(FILE *fp, const plot *P, const char *where)
{
    fprintf(fp, "set key %s Left reverse box opaque%s\n", where, P->compact ? " font ',8' samplen 2 spacing 0.9 width -4" : "");
}

static void set_labels(FILE *fp, const char *title, const char *x, const char *y)
{
    fputs("set title ", fp);
    hy_gp_quote(fp, title);
    fputs("\nset xlabel ", fp);
    hy_gp_quote(fp, x);
    fputs("\nset ylabel ", fp);
    hy_gp_quote(fp, y);
    fputc('\n', fp);
}

// (P) => the loop panel
static void panel_loops(FILE *fp, const plot *P, const size_t *n_trans, const char *title)
{
    const hy_replay_set *R = P->R;
    set_labels(fp, title, P->q_label, P->Q_label);
    key(fp, P, "top left");
    fputs("set grid\nset xzeroaxis lt 0\nset yzeroaxis lt 0\n", fp);
    /* the measured loop wide and light underneath, so that a model lying on it still shows both */
    fputs("plot $measured using 1:2 with lines lw 3 lc rgb '#a0a0a0' title 'measured'", fp);
    for (size_t k = 0; k < R->n_models; k++) {
        const hy_replay_one *m = &R->m[k];
        char buf[200];
        legend(m, buf, sizeof buf);
        fprintf(fp, ", \\\n     $model%zu using 1:2 with lines lw 1.2 lc rgb '%s' title ", k + 1, PALETTE(k));
        hy_gp_quote(fp, buf);
        if (P->table && m->model.type == HY_MODEL_PWL) {
            fprintf(fp, ", \\\n     $table%zu index 0 using 1:2 with points pt 7 ps 0.8 lc rgb '%s' title ", k + 1,
                    PALETTE(k));
            snprintf(buf, sizeof buf, "%s table: forward", m->label);
            hy_gp_quote(fp, buf);
            fprintf(fp, ", \\\n     $table%zu index 1 using 1:2 with points pt 6 ps 1.0 lc rgb '%s' title ", k + 1,
                    PALETTE(k));
            snprintf(buf, sizeof buf, "%s table: backward", m->label);
            hy_gp_quote(fp, buf);
            if (n_trans[k]) {
                fprintf(fp, ", \\\n     $transition%zu using 1:2 with lines lw 2.5 dt 2 lc rgb '%s' title ", k + 1,
                        PALETTE(k));
                snprintf(buf, sizeof buf, "%s transitions", m->label);
                hy_gp_quote(fp, buf);
            }
        }
    }
    fputc('\n', fp);
}

// (P) => the residual panel
static void panel_residual(FILE *fp, const plot *P, const char *title)
{
    const hy_replay_set *R = P->R;
    set_labels(fp, title, P->x_label, P->r_label);
    key(fp, P, "top left");
    /* room above the curves for the legend; a fixed range when every residual is exactly zero */
    fputs("set grid\nset xzeroaxis lt 0\nunset yzeroaxis\nset offsets 0,0,graph 0.25,graph 0.05\n", fp);
    double worst = 0.0;
    for (size_t k = 0; k < R->n_models; k++)
        if (R->m[k].M.max_abs_error > worst)
            worst = R->m[k].M.max_abs_error;
    if (worst == 0.0)
        fputs("set yrange [-1:1]\n", fp);
    fputs("plot ", fp);
    for (size_t k = 0; k < R->n_models; k++) {
        char buf[200];
        snprintf(buf, sizeof buf, "%s: RMS %.3g, max %.3g", R->m[k].label, R->m[k].M.rms_error,
                 R->m[k].M.max_abs_error);
        fprintf(fp, "%s$residual%zu using 1:2 with lines lw 1 lc rgb '%s' title ", k ? ", \\\n     " : "", k + 1,
                PALETTE(k));
        hy_gp_quote(fp, buf);
    }
    fputs("\nunset offsets\nunset yrange\n", fp);
}

/* Bars while each cycle gets a few pixels per series; beyond that (long records), lines with points. */
// (P) => the energy panel: per cycle, measured and one series per model
static void panel_energy(FILE *fp, const plot *P, const char *title)
{
    const hy_replay_set *R = P->R;
    set_labels(fp, title, "cycle", P->e_label);
    size_t series = 1 + R->n_models;
    double w = 0.8 / (double)series;
    key(fp, P, "top left");
    size_t nc = R->L.n_cyc ? R->L.n_cyc : 1;
    double px = P->compact ? 0.45 * P->width : (double)P->width;
    int bars = px / (double)(nc * series) >= 6.0;
    size_t room = (size_t)(px / 40.0); /* about one tic per 40 px */
    /* the range includes 0 even when every energy is positive; room above for the legend */
    fprintf(fp, "set grid ytics\nunset xzeroaxis\nunset yzeroaxis\nset yrange [*<0:*]\nset autoscale yfixmin\nset offsets 0,0,graph 0.3,0\n"
                "set xrange [0.3:%zu.7]\n", nc);
    if (nc > room && room > 0)
        fprintf(fp, "set xtics %zu out nomirror\n", (nc + room - 1) / room);
    else
        fputs("set xtics 1 out nomirror\n", fp);
    if (bars)
        fprintf(fp, "set style fill solid 0.7 border -1\nset boxwidth %.6g\n"
                    "plot $energy using ($1%+.6g):2 with boxes lc rgb '#808080' title 'measured'",
                w, -0.4 + 0.5 * w);
    else
        fputs("plot $energy using 1:2 with linespoints pt 7 ps 0.5 lw 3 lc rgb '#a0a0a0' title 'measured'", fp);
    for (size_t k = 0; k < R->n_models; k++) {
        char buf[200];
        if (isfinite(R->m[k].M.energy_ratio))
            snprintf(buf, sizeof buf, "%s (total ratio %.3f)", R->m[k].label, R->m[k].M.energy_ratio);
        else
            snprintf(buf, sizeof buf, "%s", R->m[k].label);
        if (bars)
            fprintf(fp, ", \\\n     $energy using ($1%+.6g):%zu with boxes lc rgb '%s' title ",
                    -0.4 + (0.5 + (double)(k + 1)) * w, k + 3, PALETTE(k));
        else
            fprintf(fp, ", \\\n     $energy using 1:%zu with linespoints pt 6 ps 0.5 lw 1 lc rgb '%s' title ", k + 3,
                    PALETTE(k));
        hy_gp_quote(fp, buf);
    }
    fputc('\n', fp);
    /* leave the next panel (or a restyled script) with default settings */
    fputs("unset xrange\nunset yrange\nset autoscale y\nunset offsets\nset xtics autofreq\nset boxwidth\nset style fill empty\n", fp);
}

// (P) => settings and plot commands after the datablocks
static void put_plots(FILE *fp, const plot *P, const size_t *n_trans)
{
    const hy_replay_set *R = P->R;
    char title[600];
    const char *data = hy_replay_base_name(R->data_path);
    switch (P->kind) {
    case KIND_LOOPS:
        snprintf(title, sizeof title, "%s: %s", data, R->n_models ? "measured and predicted loops" : "measured loops");
        panel_loops(fp, P, n_trans, P->title ? P->title : title);
        break;
    case KIND_RESIDUAL:
        snprintf(title, sizeof title, "%s: force error of the replayed models", data);
        panel_residual(fp, P, P->title ? P->title : title);
        break;
    case KIND_ENERGY:
        snprintf(title, sizeof title, "%s: dissipated energy per cycle (%zu cycles)", data, R->L.n_cyc);
        panel_energy(fp, P, P->title ? P->title : title);
        break;
    default: /* KIND_ALL, P->compact set */
        snprintf(title, sizeof title, "%s: replay of %zu model%s", data, R->n_models, R->n_models == 1 ? "" : "s");
        fputs("set multiplot title ", fp);
        hy_gp_quote(fp, P->title ? P->title : title);
        fputs("\nset origin 0,0\nset size 0.55,0.96\n", fp);
        panel_loops(fp, P, n_trans, "measured and predicted loops");
        fputs("set origin 0.55,0.48\nset size 0.45,0.48\n", fp);
        panel_residual(fp, P, "force error");
        fputs("set origin 0.55,0\nset size 0.45,0.48\n", fp);
        panel_energy(fp, P, "dissipated energy per cycle");
        fputs("unset multiplot\n", fp);
    }
}

// (name, unit, fallback, buf) => "name [unit]"
static void axis_label(char *buf, size_t len, const char *name, const char *fallback, const char *unit)
{
    const char *nm = name && name[0] ? name : fallback;
    if (unit && unit[0])
        snprintf(buf, len, "%.100s [%.40s]", nm, unit);
    else
        snprintf(buf, len, "%.150s", nm);
}

// (P) => axis labels with units (from the record, or from a model when it has none: hy_replay_set_load)
static void make_labels(plot *P)
{
    const hy_series *s = &P->R->s;
    const char *qu = s->q_unit, *Qu = s->Q_unit;
    axis_label(P->q_label, sizeof P->q_label, s->q_name, "displacement q", qu);
    axis_label(P->Q_label, sizeof P->Q_label, s->Q_name, "force Q", Qu);
    if (s->t)
        axis_label(P->x_label, sizeof P->x_label, s->t_name, "time t", s->t_unit);
    else
        snprintf(P->x_label, sizeof P->x_label, "sample");
    axis_label(P->r_label, sizeof P->r_label, "Q model - Q measured", "", Qu);
    char eu[80] = "";
    if (qu[0] || Qu[0])
        snprintf(eu, sizeof eu, "%.35s*%.35s", Qu[0] ? Qu : "Q", qu[0] ? qu : "q");
    axis_label(P->e_label, sizeof P->e_label, "dissipated energy", "", eu);
}

// (path, text, set) => file written atomically, never over an input
static int write_script(const char *path, const char *text, size_t len, const hy_replay_set *R)
{
    hy_atomic a;
    int rc_open = hy_replay_set_open_output(CMD, path, R, &a);
    if (rc_open != 0)
        return rc_open;
    fwrite(text, 1, len, a.fp);
    return tool_out_commit(CMD, &a);
}

/* Renders into a temporary file beside the output (hy_atomic), which replaces the output only when gnuplot
 * succeeded and wrote something: an earlier plot survives a failed run. An output written in place (a FIFO or a
 * device: a.direct) gets the picture through a scratch file in $TMPDIR, copied once gnuplot has finished. */
// (gnuplot, P, terminal, output, body) => output file drawn
static int render_file(const char *exe, const plot *P, int term, const char *out, const char *body, size_t blen)
{
    const hy_replay_set *R = P->R;
    hy_err err;
    hy_atomic a;
    int rc_open = hy_replay_set_open_output(CMD, out, R, &a);
    if (rc_open != 0)
        return rc_open;
    char scratch[4096] = "";
    FILE *img = a.fp;
    if (a.direct) {
        const char *td = getenv("TMPDIR");
        snprintf(scratch, sizeof scratch, "%s/hyst-plot-XXXXXX", td && *td ? td : "/tmp");
        hy_cleanup_hold(1);
        int fd = mkstemp(scratch);
        if (fd >= 0)
            hy_cleanup_add(scratch);   /* removed on a signal */
        hy_cleanup_hold(0);
        img = fd >= 0 ? fdopen(fd, "w+") : NULL;
        if (!img) {
            if (fd >= 0) {
                close(fd);
                unlink(scratch);
                hy_cleanup_remove(scratch);
            }
            hy_atomic_abort(&a);
            return hy_cli_fail(CMD, "%s: cannot create a scratch file in %s", out, td && *td ? td : "/tmp");
        }
    }
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    int rc = HY_ENOMEM;
    if (fp) {
        hy_gp_terminal(fp, term, P->width, P->height, a.direct ? scratch : a.tmp);
        fwrite(body, 1, blen, fp);
        fputs("set output\n", fp);
        fclose(fp);
        rc = hy_gp_run(exe, text, len, &err);
    }
    free(text);
    long size = 0;
    if (rc == HY_OK) {
        fseek(img, 0, SEEK_END);
        size = ftell(img);
    }
    if (rc == HY_OK && size > 0 && a.direct) {
        char buf[65536];
        size_t n;
        rewind(img);
        while ((n = fread(buf, 1, sizeof buf, img)) > 0)
            fwrite(buf, 1, n, a.fp);
    }
    if (a.direct) {
        fclose(img);
        unlink(scratch);
        hy_cleanup_remove(scratch);
    }
    if (!fp) {
        hy_atomic_abort(&a);
        return hy_cli_fail(CMD, "out of memory");
    }
    if (rc != HY_OK) {
        hy_atomic_abort(&a);
        return hy_cli_fail(CMD, "%s: %s", out, err.msg);
    }
    if (size <= 0) {
        hy_atomic_abort(&a);
        return hy_cli_fail(CMD, "%s: gnuplot wrote nothing", out);
    }
    return tool_out_commit(CMD, &a);
}

// (text "W,H") => width, height in 16..20000
static int parse_size(const char *text, int *w, int *h)
{
    char *end;
    long a = strtol(text, &end, 10);
    if (end == text || (*end != ',' && *end != 'x'))
        return -1;
    const char *p = end + 1;
    long b = strtol(p, &end, 10);
    if (end == p || *end || a < 16 || b < 16 || a > 20000 || b > 20000)
        return -1;
    *w = (int)a;
    *h = (int)b;
    return 0;
}

// (argc, argv) => exit status
int hy_cmd_plot(int argc, char **argv)
{
    hy_csv_opts copts;
    hy_csv_opts_default(&copts);
    hy_loops_opts lopts;
    hy_loops_opts_default(&lopts);
    plot P = {.width = 900, .height = 650, .table = 1, .max_points = 20000};
    const char *out = NULL, *script = NULL, *size = NULL, *max_points = NULL;
    int no_table = 0, first = 0, npos = 0;
    const hy_arg tab[] = {
        HY_OPT_STR("output", 'o', &out),          HY_OPT_STR("script", 0, &script),
        HY_OPT_STR("size", 0, &size),             HY_OPT_STR("title", 0, &P.title),
        HY_OPT_STR("max-points", 0, &max_points), HY_OPT_FLAG("no-table", 0, &no_table),
        HY_CLI_DATA_OPTS(&copts, NULL),           HY_CLI_LOOPS_OPTS(&lopts),
        HY_OPT_END};
    int go = tool_parse_n(CMD, usage, tab, argc, argv, 1, INT_MAX,
                          "missing KIND (loops, residual, energy, all) [MODEL.json ...] DATA.csv", &first, &npos);
    if (go != TOOL_CLI_GO)
        return go;
    if (size && parse_size(size, &P.width, &P.height))
        return hy_cli_usage(CMD, "--size: expected W,H in pixels (16..20000), got '%s'", size);
    if (max_points) {
        char *end;
        long v = strtol(max_points, &end, 10);
        if (end == max_points || *end || v < 0 || (v > 0 && v < 10))
            return hy_cli_usage(CMD, "--max-points: expected 0 (all) or a count >= 10, got '%s'", max_points);
        P.max_points = (size_t)v;
    }
    P.table = !no_table;
    P.kind = -1;
    for (int k = 0; k < 4; k++)
        if (strcmp(argv[first], kind_names[k]) == 0)
            P.kind = k;
    if (P.kind < 0)
        return hy_cli_usage(CMD, "unknown plot kind '%s' (expected loops, residual, energy or all)", argv[first]);
    first++, npos--;
    if (npos < 1)
        return hy_cli_usage(CMD, "missing [MODEL.json ...] DATA.csv after '%s'", kind_names[P.kind]);
    if (npos < 2 && (P.kind == KIND_RESIDUAL || P.kind == KIND_ALL))
        return hy_cli_usage(CMD, "'%s' needs at least one model: MODEL.json [...] DATA.csv", kind_names[P.kind]);
    const char *outs[] = {out, script}, *names[] = {"-o", "--script"};
    if (tool_out_distinct(CMD, 2, outs, names) != HY_EXIT_OK)
        return HY_EXIT_USAGE;
    if (out && strcmp(out, "-") == 0)
        return hy_cli_usage(CMD, "-o -: plots are written to files (.png, .svg, .pdf)");
    int term = hy_gp_term_for(out);
    if (term < 0)
        return hy_cli_usage(CMD, "%s: unknown output type (expected .png, .svg or .pdf)", out);
    const char *display = getenv("DISPLAY");
    int window = !out && display && display[0];
    if (!out && !window && !script)
        return hy_cli_usage(CMD, "no output: give -o FILE.png|.svg|.pdf or --script FILE.gp (no DISPLAY for a "
                                 "window)");

    /* gnuplot is looked for first so that a missing one is reported before any long work; the script is still
       written in that case */
    char exe[4096];
    int have_gnuplot = hy_gp_find(exe, sizeof exe) == 0;
    int need_gnuplot = out || window;
    if (need_gnuplot && !have_gnuplot && !script)
        return hy_cli_fail(CMD, "gnuplot not found (looked for '%s' %s); install it (Debian: apt-get install "
                                "gnuplot-nox) or use --script FILE.gp to write the plot script only", exe,
                           getenv("HYST_GNUPLOT") ? "from HYST_GNUPLOT" : "on PATH");
    if (window && have_gnuplot && !hy_gp_has_window(exe) && !script)
        return hy_cli_fail(CMD, "%s has no interactive terminal (qt, wxt, x11); give -o FILE.png|.svg|.pdf", exe);

    int want_states = P.table && (P.kind == KIND_LOOPS || P.kind == KIND_ALL);
    hy_replay_set R;
    int rc = hy_replay_set_load(CMD, argv + first, (size_t)npos - 1, argv[first + npos - 1], &copts, &lopts, want_states,
                                &R);
    if (rc != 0) {
        hy_replay_set_free(&R);
        return rc;
    }
    P.R = &R;
    P.compact = P.kind == KIND_ALL;
    make_labels(&P);

    /* the body: datablocks, then settings and plot commands */
    char *body = NULL;
    size_t blen = 0;
    FILE *fp = open_memstream(&body, &blen);
    size_t *n_trans = calloc(R.n_models + 1, sizeof *n_trans);
    if (!fp || !n_trans || put_data(fp, &P, n_trans) != 0) {
        if (fp)
            fclose(fp);
        free(body);
        free(n_trans);
        hy_replay_set_free(&R);
        return hy_cli_fail(CMD, "out of memory");
    }
    put_plots(fp, &P, n_trans);
    fclose(fp);
    free(n_trans);

    if (script) {
        char *text = NULL;
        size_t len = 0;
        FILE *sp = open_memstream(&text, &len);
        if (!sp) {
            free(body);
            hy_replay_set_free(&R);
            return hy_cli_fail(CMD, "out of memory");
        }
        fprintf(sp, "# hyst plot %s: %s", kind_names[P.kind], hy_replay_base_name(R.data_path));
        for (size_t k = 0; k < R.n_models; k++)
            fprintf(sp, "%s%s", k ? ", " : " with ", hy_replay_base_name(R.m[k].path));
        fprintf(sp, "\n# Self-contained: the data are inline. Draw it again with: gnuplot %s\n",
                hy_replay_base_name(script));
        if (out) {
            fprintf(sp, "# (writes %s; change the two 'set' lines below for another terminal or file)\n", out);
            hy_gp_terminal(sp, term, P.width, P.height, out);
        } else {
            hy_gp_terminal(sp, HY_GP_WINDOW, P.width, P.height, NULL);
        }
        fwrite(body, 1, blen, sp);
        fputs(out ? "set output\n" : "pause mouse close\n", sp);
        fclose(sp);
        rc = text ? write_script(script, text, len, &R) : hy_cli_fail(CMD, "out of memory");
        free(text);
    }
    if (rc == 0 && need_gnuplot) {
        if (!have_gnuplot) {
            rc = hy_cli_fail(CMD, "gnuplot not found (looked for '%s'); the script %s was written: draw it with "
                                  "'gnuplot %s' once gnuplot is installed (Debian: apt-get install gnuplot-nox)",
                             exe, script, script);
        } else if (out) {
            rc = render_file(exe, &P, term, out, body, blen);
        } else if (!hy_gp_has_window(exe)) {
            rc = hy_cli_fail(CMD, "%s has no interactive terminal (qt, wxt, x11); the script %s was written; "
                                  "give -o FILE.png|.svg|.pdf for a file", exe, script);
        } else {
            char *text = NULL;
            size_t len = 0;
            FILE *wp = open_memstream(&text, &len);
            if (!wp) {
                free(body);
                hy_replay_set_free(&R);
                return hy_cli_fail(CMD, "out of memory");
            }
            hy_gp_terminal(wp, HY_GP_WINDOW, P.width, P.height, NULL);
            fwrite(body, 1, blen, wp);
            fputs("pause mouse close\n", wp);
            fclose(wp);
            hy_err err;
            if (hy_gp_run(exe, text, len, &err) != HY_OK)
                rc = hy_cli_fail(CMD, "%s", err.msg);
            free(text);
        }
    }
    free(body);
    hy_replay_set_free(&R);
    return rc;
}

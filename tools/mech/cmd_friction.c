/* mech friction EXAMPLE.json: time simulation of a small guided mechanism with dry friction on variant constraints
 * (spec 003, docs/friction.md), or --check: the small-friction verdict over a range of friction coefficients. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "hyst/util.h"
#include "mech/friction.h"
#include "mech_cli.h"

static void usage(FILE *fp)
{
    fputs("usage: mech friction EXAMPLE.json [OPTIONS]\n"
          "\n"
          "Dry friction on variant constraints (spec 003): a mechanism held on guides by pairs of opposite surfaces\n"
          "(fixtures/mech/friction/*.json: bushing, screw_nut, slider_crank, generic). Simulates it from the file's\n"
          "initial state and writes CSV: t, coordinates, velocities, normal reactions N_j of the loaded sides,\n"
          "variant indices chi_j (+1/-1: which side of pair j is loaded), slip indices (+1/-1 sliding, 0 stuck),\n"
          "tangential forces F_j, friction work, applied work and kinetic energy (header + units row).\n"
          "A Painlevé paradox (no admissible variant, or several) stops the run with its time, pairs and\n"
          "determinants; the rows written so far are kept.\n"
          "\n"
          "  -o, --output FILE   write the CSV to FILE atomically (default: standard output)\n"
          "  --duration S        simulate S seconds (default: the file's run.duration)\n"
          "  --plot FIG          also draw reactions, variants and energies with gnuplot into FIG (.png, .svg or\n"
          "                      .pdf; needs -o FILE; gnuplot on PATH or HYST_GNUPLOT)\n"
          "  --summary           counts on standard error: steps, events, flips, sticks, attempts of the\n"
          "                      variant algorithm (1, 2, 3, >3), LP solves, paradoxes\n"
          "  --check             no simulation: the small-friction verdict at the initial state (coherent-\n"
          "                      orientation determinants over the box [0, s mu] of coefficients, spec 003 §2.6)\n"
          "                      for s from 0 to --mu-max in --mu-steps rows, and the limit s* where it fails\n"
          "  --mu-max S          largest scale of the file's coefficients for --check (default 3)\n"
          "  --mu-steps N        rows of --check (default 12)\n"
          "  -h, --help          this help\n"
          "\n"
          "Exit status: 0 success, 1 bad file or failed simulation (paradox), 2 bad usage.\n",
          fp);
}

static void header(FILE *fp, const mech_friction_mech *mc)
{
    const mech_friction_config *c = &mc->cfg;
    const char *nm, *un;
    fputs("t", fp);
    for (int i = 0; i < c->w; i++)
        mech_friction_coord_name(mc, i, &nm, &un), fprintf(fp, ",%s", nm);
    for (int i = 0; i < c->w; i++)
        mech_friction_coord_name(mc, i, &nm, &un), fprintf(fp, ",%s_dot", nm);
    for (int j = 0; j < c->nc; j++)
        fprintf(fp, ",N%d", j + 1);
    for (int j = 0; j < c->nc; j++)
        fprintf(fp, ",chi%d", j + 1);
    for (int j = 0; j < c->nc; j++)
        fprintf(fp, ",slip%d", j + 1);
    for (int j = 0; j < c->nc; j++)
        fprintf(fp, ",F%d", j + 1);
    fputs(",W_friction,W_applied,KE\ns", fp);
    for (int i = 0; i < c->w; i++)
        mech_friction_coord_name(mc, i, &nm, &un), fprintf(fp, ",%s", un);
    for (int i = 0; i < c->w; i++)
        mech_friction_coord_name(mc, i, &nm, &un), fprintf(fp, ",%s/s", un);
    for (int j = 0; j < c->nc; j++)
        fputs(",N", fp);
    for (int j = 0; j < 2 * c->nc; j++)
        fputs(",-", fp);
    for (int j = 0; j < c->nc; j++)
        fputs(",N", fp);
    fputs(",J,J,J\n", fp);
}

static void row(FILE *fp, const mech_friction_mech *mc, const mech_friction_sample *o)
{
    const mech_friction_config *c = &mc->cfg;
    fprintf(fp, "%.10g", o->t);
    for (int i = 0; i < c->w; i++)
        fprintf(fp, ",%.12g", o->q[i]);
    for (int i = 0; i < c->w; i++)
        fprintf(fp, ",%.12g", o->qd[i]);
    for (int j = 0; j < c->nc; j++)
        fprintf(fp, ",%.10g", o->N[j]);
    for (int j = 0; j < c->nc; j++)
        fprintf(fp, ",%d", o->chi[j]);
    for (int j = 0; j < c->nc; j++)
        fprintf(fp, ",%d", o->slip[j]);
    for (int j = 0; j < c->nc; j++)
        fprintf(fp, ",%.10g", o->F[j]);
    fprintf(fp, ",%.12g,%.12g,%.12g\n", o->W_friction, o->W_applied, o->ke);
}

typedef struct row_ctx {
    FILE *fp;
    const mech_friction_mech *mc;
} row_ctx;

// mech_friction_run's consumer: the sample as a CSV row
static int on_row(void *ctx, const mech_friction_sample *o, hy_err *err)
{
    (void)err;
    const row_ctx *c = ctx;
    row(c->fp, c->mc, o);
    return HY_OK;
}

// (mechanism, options) => verdict table on fp; exit status
static int run_check(const char *cmd, const mech_friction_mech *mc, double mu_max, int steps, FILE *fp)
{
    hy_err err;
    const mech_friction_model *m = mc->model;
    /* the reaction system at the initial state, without solving it: the check is most useful where no unique
     * solution exists */
    mech_friction_data *d;
    double Qa[MECH_FRICTION_MAX_W], ke;
    if (mech_friction_data_new(m, &d, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    if (mech_friction_mech_assemble(mc, 0, mc->cfg.q0, mc->cfg.qd0, d, Qa, &ke, &err) != HY_OK ||
        mech_friction_prepare(m, d, &err) != HY_OK) {
        mech_friction_data_free(d);
        return mech_cli_fail(cmd, "%s", err.msg);
    }
    double mu_file = 0;
    for (int c = 0; c < mc->cfg.nc; c++)
        mu_file = fmax(mu_file, fmax(mc->cfg.contact[c].mu[0], mc->cfg.contact[c].mu[1]));
    fprintf(fp, "# %s (%s): small-friction check at t = 0 (spec 003 §2.6), box [0, s mu] of the file's "
            "coefficients\n", mc->cfg.name[0] ? mc->cfg.name : "mechanism", mech_friction_kind_name(mc->cfg.kind));
    fprintf(fp, "%-10s %-10s %-8s %-12s %-12s %s\n", "scale", "mu_max", "verdict", "det_min", "det_max",
            "worst_orientation");
    int status = MECH_EXIT_OK;
    for (int i = 0; i <= steps && status == MECH_EXIT_OK; i++) {
        double sc = mu_max * i / steps;
        mech_friction_verdict v;
        if (mech_friction_check(m, d, sc, &v, &err) != HY_OK) {
            status = mech_cli_fail(cmd, "%s", err.msg);
            break;
        }
        char o[MECH_FRICTION_MAX_CONTACTS + 1];
        for (int c = 0; c < mc->cfg.nc; c++)
            o[c] = (v.worst >> c) & 1 ? '-' : '+';
        o[mc->cfg.nc] = '\0';
        fprintf(fp, "%-10.4g %-10.4g %-8s %-12.6g %-12.6g %s\n", sc, sc * mu_file, v.small ? "small" : "PARADOX",
                v.det_min, v.det_max, o);
    }
    double lim;
    if (status == MECH_EXIT_OK && mech_friction_mu_limit(m, d, mu_max, &lim, &err) != HY_OK)
        status = mech_cli_fail(cmd, "%s", err.msg);
    if (status == MECH_EXIT_OK) {
        if (lim >= mu_max)
            fprintf(fp, "small-friction limit: beyond scale %.6g (mu %.6g): friction is small over the whole range\n",
                    mu_max, mu_max * mu_file);
        else
            fprintf(fp, "small-friction limit: scale %.6g of the file's coefficients (mu %.6g); the file's own "
                    "coefficients are %s\n", lim, lim * mu_file, lim > 1 ? "inside (friction is small)"
                                                                          : "beyond it (paradox-prone)");
    }
    mech_friction_data_free(d);
    return status;
}

// (mechanism, csv path, figure, input file) => figure drawn by gnuplot, checked and written as every output
static int plot(const char *cmd, const mech_friction_mech *mc, const char *csv, const char *fig, const char *input)
{
    const char *dot = strrchr(fig, '.');
    const char *term = !dot ? NULL : strcasecmp(dot, ".png") == 0 ? "pngcairo size 900,900 noenhanced"
                                   : strcasecmp(dot, ".svg") == 0 ? "svg size 900,900 background rgb 'white' noenhanced"
                                   : strcasecmp(dot, ".pdf") == 0 ? "pdfcairo size 7in,7in noenhanced" : NULL;
    if (!term)
        return mech_cli_usage(cmd, "--plot %s: expected a .png, .svg or .pdf file", fig);
    const char *inputs[] = {input, csv, NULL};   /* never the example file, never the CSV it draws */
    mech_fig g;
    if (mech_fig_open(cmd, &g, fig, inputs, term) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    FILE *p = g.fp;
    const mech_friction_config *c = &mc->cfg;
    int w = c->w, nc = c->nc;
    const char *nm, *un;
    mech_friction_coord_name(mc, 0, &nm, &un);
    fputs("data = ", p);
    mech_cli_gp_quote(p, csv);
    fputs("\nset datafile separator ','\nset key outside right\nset grid\nset multiplot layout 3,1\n", p);
    fprintf(p, "set title 'motion'\nset ylabel '%s (%s), %s_dot (%s/s)'\n", nm, un, nm, un);
    fputs("plot ", p);
    for (int i = 0; i < w; i++)
        fprintf(p, "%sdata skip 2 using 1:%d with lines title 'coordinate %d'", i ? ", " : "", 2 + i, i + 1);
    for (int i = 0; i < w; i++)
        fprintf(p, ", data skip 2 using 1:%d with lines title 'velocity %d'", 2 + w + i, i + 1);
    fputs("\nset title 'signed reactions chi_j N_j (the variant flips where a curve crosses 0)'\n"
          "set ylabel 'N'\nplot ", p);
    for (int j = 0; j < nc; j++)
        fprintf(p, "%sdata skip 2 using 1:($%d*$%d) with lines title 'chi%d N%d'", j ? ", " : "",
                2 + 2 * w + j, 2 + 2 * w + nc + j, j + 1, j + 1);
    int cw = 2 + 2 * w + 4 * nc;
    fprintf(p, "\nset title 'energy'\nset ylabel 'J'\nset xlabel 't (s)'\n"
            "plot data skip 2 using 1:%d with lines title 'W_friction', data skip 2 using 1:%d with lines "
            "title 'W_applied', data skip 2 using 1:%d with lines title 'KE'\nunset multiplot\n", cw, cw + 1, cw + 2);
    return mech_fig_run(cmd, &g);
}

int mech_cmd_friction(int argc, char **argv)
{
    const char *cmd = "friction";
    const char *out = "-", *fig = NULL, *path;
    double duration = -1, mu_max = 3;
    int summary = 0, check = 0, steps = 12;
    const hy_arg tab[] = {
        HY_OPT_STR("output", 'o', &out),        HY_OPT_DOUBLE("duration", &duration, NULL),
        HY_OPT_STR("plot", 0, &fig),            HY_OPT_FLAG("summary", 0, &summary),
        HY_OPT_FLAG("check", 0, &check),        HY_OPT_DOUBLE("mu-max", &mu_max, NULL),
        HY_OPT_INT("mu-steps", 0, &steps, 1, NULL), HY_OPT_END};
    int go = mech_cli_parse(cmd, usage, tab, argc, argv, "missing the example file (fixtures/mech/friction/*.json)",
                            &path);
    if (go != MECH_CLI_GO)
        return go;
    if (duration != -1 && !(duration >= 0 && duration <= 1e6))
        return mech_cli_usage(cmd, "--duration must be within 0..1e6 s");
    if (!(mu_max > 0 && mu_max <= 1e3) || steps > 10000)
        return mech_cli_usage(cmd, "--mu-max must be within (0, 1000] and --mu-steps at most 10000");
    if (fig && strcmp(out, "-") == 0)
        return mech_cli_usage(cmd, "--plot needs the CSV in a file (-o FILE)");
    if (fig && check)
        return mech_cli_usage(cmd, "--plot and --check exclude each other");
    if (fig && (hy_same_file(fig, path) || strcmp(fig, out) == 0 || hy_same_file(fig, out)))
        return mech_cli_usage(cmd, "--plot %s: the figure would overwrite %s", fig,
                              strcmp(fig, out) == 0 || hy_same_file(fig, out) ? "the CSV output (-o)" : "the input file");
    mech_friction_config cfg;
    hy_err err;
    if (mech_friction_config_read(path, &cfg, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    if (duration >= 0)
        cfg.duration = duration;
    /* the file's own limits (friction_json.c) hold for the override too: steps and CSV rows */
    if (cfg.duration / cfg.step > 1e8)
        return mech_cli_usage(cmd, "--duration %g s: %.3g steps of run.step = %g s, more than 1e8", cfg.duration,
                              cfg.duration / cfg.step, cfg.step);
    if (cfg.duration / cfg.sample > 1e7)
        return mech_cli_usage(cmd, "--duration %g s: %.3g rows of run.sample = %g s, more than 1e7", cfg.duration,
                              cfg.duration / cfg.sample, cfg.sample);
    mech_friction_mech *mc;
    if (mech_friction_mech_new(&cfg, &mc, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s: %s", hy_display_name(path), err.msg);
    hy_atomic a;
    if (mech_out_open(cmd, &a, out, path, NULL) != MECH_EXIT_OK) {
        mech_friction_mech_free(mc);
        return MECH_EXIT_FAIL;
    }
    int status = MECH_EXIT_OK, failed = 0;
    if (check) {
        status = run_check(cmd, mc, mu_max, steps, a.fp);
    } else {
        mech_friction_sim *s;
        if (mech_friction_sim_new(mc, &s, &err) != HY_OK) {
            status = mech_cli_fail(cmd, "%s: %s", hy_display_name(path), err.msg);
            failed = 1;
        } else {
            header(a.fp, mc);
            /* the library's loop (mech_friction_run, friction_run.c: the one a sweep's run takes), each sample a
               row; a failed advance gives the state it reached as the last row */
            row_ctx rc = {a.fp, mc};
            mech_friction_summary sm;
            if (mech_friction_run(s, cfg.duration, cfg.sample, on_row, &rc, &sm, &err) != HY_OK) {
                status = mech_cli_fail(cmd, "%s: %s", hy_display_name(path), err.msg);
                failed = 1;
            }
            const mech_friction_stats *st = mech_friction_sim_stats(s);
            if (summary)
                fprintf(stderr, "mech friction: %lu steps, %lu events, %lu variant flips, %lu sticks, %lu releases; "
                        "variant algorithm attempts 1: %lu, 2: %lu, 3: %lu, >3: %lu; %lu LP solves, %lu paradoxes\n",
                        st->steps, st->events, st->flips, st->sticks, st->releases, st->attempts_hist[0],
                        st->attempts_hist[1], st->attempts_hist[2], st->attempts_hist[3], st->lp_solves,
                        st->paradoxes);
            if (summary) {   /* the run's summary (a sweep's metrics, docs/sweep.md), numbers as exact text */
                char v[6][40];
                double x[6] = {sm.travel, sm.stick_fraction, sm.W_friction, sm.W_applied, sm.peak_normal, sm.ke};
                for (int k = 0; k < 6; k++)
                    hy_fmt_exact(v[k], sizeof v[k], x[k]);
                fprintf(stderr, "mech friction: summary: samples %ld, travel %s, stick_fraction %s, friction_work %s J, "
                        "applied_work %s J, peak_normal %s N, ke_final %s J\n", sm.samples, v[0], v[1], v[2], v[3],
                        v[4], v[5]);
            }
            if (st->paradoxes && !failed)
                mech_cli_warn(cmd, "%lu Painlevé paradox states continued on the LP's choice (run.on_paradox = "
                              "\"lp\")", st->paradoxes);
            mech_friction_sim_free(s);
        }
    }
    /* a failed simulation keeps what it wrote; a failed check or parse writes nothing */
    if (status == MECH_EXIT_OK || (failed && !check)) {
        if (mech_out_commit(cmd, &a) != MECH_EXIT_OK)
            status = MECH_EXIT_FAIL;
    } else {
        hy_atomic_abort(&a);
    }
    if (status == MECH_EXIT_OK && fig)
        status = plot(cmd, mc, out, fig, path);
    mech_friction_mech_free(mc);
    return status;
}

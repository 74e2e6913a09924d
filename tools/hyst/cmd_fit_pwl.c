// hyst fit pwl: identify a piecewise-linear branch table (spec 000) from a static test record.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "cli.h"
#include "hyst/fitmodel.h"
#include "hyst/model.h"
#include "hyst/pwl.h"
#include "hyst/pwlfit.h"
#include "hyst/util.h"

#define CMD "fit pwl"

static const char usage_text[] =
    "usage: hyst fit pwl DATA.csv [-o MODEL.json] [--segments N | --tol F] [--backlash auto|B] [--symmetric]\n"
    "                    [--kind constant|friction] [--report REPORT.json] [DATA OPTIONS]\n"
    "\n"
    "Fits the forward and backward branches of each side of the record's limit loop with the piecewise-linear\n"
    "model of spec 000 (docs/fit-pwl.md): backlash, a first segment common to both branches, a common last point\n"
    "with the largest slope beyond it. Breakpoints are placed by a global search (dynamic programming) and refined\n"
    "by variable projection. Writes the model file (with the fit report under \"fit\") and prints a summary.\n"
    "\n"
    "  -o, --output FILE      model file to write (default: standard output); never the data file\n"
    "      --segments N|F,B   segments per branch (3..32), or forward and backward counts (2.., 3..)\n"
    "      --tol F            force tolerance: the fewest segments whose per-branch RMS error is <= F\n"
    "                         (default without either: least Bayesian information criterion, 3..--max-segments)\n"
    "      --max-segments N   largest count tried when choosing (default 12)\n"
    "      --backlash auto|B  backlash width: found from the data (default) or given (0 = none)\n"
    "      --symmetric        fit both sides as one, mirrored (also for one-sided tests)\n"
    "      --kind K           constant (spec 000 §2, default) or friction (§3: slip plateau and drift)\n"
    "      --report FILE      also write the fit report as JSON\n"
    "      --amp-tol F        loops within this fraction of the largest amplitude form the limit loop (default:\n"
    "                         0.05, widened automatically - next largest loops first, down to half the largest\n"
    "                         amplitude - when that leaves fewer than 12 samples on a branch)\n"
    "  -h, --help             this help\n"
    "\n";

typedef struct fit_args {
    const char *data, *out, *report, *segments, *backlash;
    int have_tol;
    hy_csv_opts csv;
    hy_pwlfit_opts fit;
} fit_args;

static void usage(FILE *fp)
{
    fputs(usage_text, fp);
    fputs(hy_cli_loops_help, fp);
    fputs(hy_cli_data_help, fp);
}

static const char *const kinds[] = {"constant", "friction", NULL};

// (argv) => options; -1 to go on, else an exit status
static int parse_args(int argc, char **argv, fit_args *a)
{
    int kind = 0;
    const char *max_segments = NULL;
    double amp_tol = 0;
    int have_amp_tol = 0;
    const hy_arg tab[] = {
        HY_OPT_STR("output", 'o', &a->out),          HY_OPT_STR("report", 0, &a->report),
        HY_OPT_STR("segments", 0, &a->segments),     HY_OPT_DOUBLE("tol", &a->fit.tol, &a->have_tol),
        HY_OPT_STR("max-segments", 0, &max_segments),
        HY_OPT_STR("backlash", 0, &a->backlash),     HY_OPT_FLAG("symmetric", 0, &a->fit.symmetric),
        HY_OPT_CHOICE("kind", &kind, kinds),         HY_OPT_DOUBLE("amp-tol", &amp_tol, &have_amp_tol),
        HY_CLI_DATA_OPTS(&a->csv, NULL),             HY_CLI_LOOPS_OPTS(&a->fit.loops),
        HY_OPT_END};
    int go = tool_parse(CMD, usage, tab, argc, argv, "missing DATA.csv (hyst fit pwl DATA.csv -o MODEL.json)",
                        &a->data);
    if (go != TOOL_CLI_GO)
        return go;
    if (max_segments &&
        tool_int_range(CMD, "max-segments", max_segments, 3, HY_PWLFIT_MAX_SEGMENTS, &a->fit.max_segments) != 0)
        return HY_EXIT_USAGE;
    if (a->segments) {   /* N (both branches) or NF,NB */
        char buf[64];
        snprintf(buf, sizeof buf, "%s", a->segments);
        char *comma = strchr(buf, ',');
        if (comma)
            *comma = '\0';
        if (tool_int_range(CMD, "segments", buf, comma ? 2 : 3, HY_PWLFIT_MAX_SEGMENTS, &a->fit.segments_F) ||
            tool_int_range(CMD, "segments", comma ? comma + 1 : buf, 3, HY_PWLFIT_MAX_SEGMENTS, &a->fit.segments_B))
            return HY_EXIT_USAGE;
    }
    if (a->have_tol && !(a->fit.tol > 0))
        return hy_cli_usage(CMD, "--tol: expected a force tolerance > 0, got '%g'", a->fit.tol);
    if (a->backlash && strcmp(a->backlash, "auto") == 0) {
        a->fit.backlash_mode = HY_PWLFIT_BACKLASH_AUTO;
    } else if (a->backlash) {
        if (hy_cli_double(CMD, "backlash", a->backlash, &a->fit.backlash))
            return HY_EXIT_USAGE;
        if (a->fit.backlash < 0)
            return hy_cli_usage(CMD, "--backlash: expected 'auto' or a width >= 0, got '%s'", a->backlash);
        a->fit.backlash_mode = HY_PWLFIT_BACKLASH_GIVEN;
    }
    if (kind)
        a->fit.kind = kind == 1 ? HY_PWL_CONSTANT : HY_PWL_FRICTION;
    if (have_amp_tol) {
        if (!(amp_tol >= 0 && amp_tol < 1))
            return hy_cli_usage(CMD, "--amp-tol: expected a fraction in [0, 1), got '%g'", amp_tol);
        a->fit.loops.amp_tol = amp_tol;
        a->fit.amp_tol_auto = 0;
    }
    if (a->fit.segments_F && a->have_tol)
        return hy_cli_usage(CMD, "give --segments or --tol, not both");
    return (go = hy_cli_fit_outputs(CMD, a->data, a->out, a->report)) != HY_EXIT_OK ? go : -1;
}

/* (report, record) => the file lines of every limit-loop row added next to the rows (start_line, peak_line,
 * end_line), as the `hyst loops` report has them */
// (result, record, side) => which loops formed the side's limit loop and why
static void summary_limit(FILE *fp, const hy_series *s, const hy_pwlfit_result *r, int k)
{
    const hy_pwlfit_limit *lim = &r->limit[k];
    const char *sn = k ? "negative" : "positive";
    if (!(lim->amplitude > 0)) {
        fprintf(fp, "limit loop, %s side: none (the record does not go to this side)\n", sn);
        return;
    }
    if (lim->rule == HY_PWLFIT_LIMIT_WIDENED)
        fprintf(fp,
                "limit loop, %s side: %zu loops with amplitude >= %.5g (amp-tol %.3g of %.5g), widened automatically: "
                "the default amp-tol %g gave %zu forward and %zu backward samples, fewer than %d\n",
                sn, lim->n_loops, (1 - lim->amp_tol) * lim->amplitude, lim->amp_tol, lim->amplitude, lim->amp_tol0,
                lim->n_F0, lim->n_B0, HY_PWLFIT_MIN_BRANCH);
    else
        fprintf(fp, "limit loop, %s side: %zu loops with amplitude >= %.5g (amp-tol %g of %.5g, %s)\n", sn,
                lim->n_loops, (1 - lim->amp_tol) * lim->amplitude, lim->amp_tol, lim->amplitude,
                lim->rule == HY_PWLFIT_LIMIT_GIVEN ? "given" : "default: repeated limit cycles");
    if (lim->n_loops == 0)
        return;
    fprintf(fp, "  %6s %15s %15s %6s %12s %6s %6s\n", "cycle", "rows", "lines", "peak", "amplitude", "F pts",
            "B pts");
    enum { SHOW = 12 };
    for (size_t i = 0; i < lim->n_loops && i < SHOW; i++) {
        const hy_pwlfit_loop *lp = &lim->loops[i];
        char cyc[24], rows[48], lines[48];
        if (lp->cycle == HY_LOOPS_NONE)
            snprintf(cyc, sizeof cyc, "-");
        else
            snprintf(cyc, sizeof cyc, "%zu", lp->cycle + 1);
        snprintf(rows, sizeof rows, "%zu-%zu", lp->i0 + 1, lp->i1 + 1);
        if (s->line)
            snprintf(lines, sizeof lines, "%zu-%zu", s->line[lp->i0], s->line[lp->i1]);
        else
            snprintf(lines, sizeof lines, "-");
        fprintf(fp, "  %6s %15s %15s %6zu %12.5g %6zu %6zu\n", cyc, rows, lines, lp->i_peak + 1, lp->amplitude,
                lp->n_F, lp->n_B);
    }
    if (lim->n_loops > SHOW)
        fprintf(fp, "  ... %zu more (all in the report)\n", lim->n_loops - SHOW);
}

// (result) => human summary
static void summary(FILE *fp, const fit_args *a, const hy_series *s, const hy_pwlfit_result *r)
{
    const char *uq = s->q_unit[0] ? s->q_unit : "", *uQ = s->Q_unit[0] ? s->Q_unit : "";
    fprintf(fp, "%s: %zu samples; %s kind; segments: %s\n", s->source, s->n,
            a->fit.kind == HY_PWL_FRICTION ? "friction" : "constant", r->segments_why);
    fprintf(fp, "%-9s %6s %5s %5s %10s %11s %10s %10s %8s %8s\n", "side", "cycles", "F seg", "B seg", "backlash",
            "k_max", "F rms", "B rms", "F R^2", "B R^2");
    for (int k = 0; k < 2; k++) {
        const hy_pwlfit_side *sd = &r->side[k];
        fprintf(fp, "%-9s %6zu %5d %5d %10.5g %11.5g %10.5g %10.5g %8.5f %8.5f%s\n", k ? "negative" : "positive",
                r->cycles[k], sd->nF - 1, sd->nB - 1, r->backlash[k].b, sd->k_max, sd->F.rms, sd->B.rms, sd->F.r2,
                sd->B.r2, a->fit.symmetric && k ? "  (mirror)" : "");
    }
    if (uq[0] || uQ[0])
        fprintf(fp, "units: q %s, Q %s (k in %s/%s)\n", uq, uQ, uQ, uq);
    if (a->fit.kind == HY_PWL_CONSTANT)
        for (int k = 0; k < 2; k++)
            summary_limit(fp, s, r, k);
    for (int k = 0; k < 2; k++) {
        const hy_pwlfit_unloading *u = &r->unloading;
        if (isfinite(r->k_ratio[k]))
            fprintf(fp, "%s side: k_max / unloading stiffness after %zu inner reversals (median %.5g) = %.3f\n",
                    k ? "negative" : "positive", u->n_inner[k], u->k_inner[k], r->k_ratio[k]);
        else
            fprintf(fp, "%s side: no inner reversal to compare k_max with (%zu too short to resolve)\n",
                    k ? "negative" : "positive", u->n_unresolved[k]);
    }
    if (a->fit.kind == HY_PWL_FRICTION)
        fprintf(fp, "friction: plateau onsets x_N = %.5g / %.5g, %zu slip events\n", r->xN_drift[0],
                -r->xN_drift[1], r->slips);
    if (r->replayed) {
        /* per-cycle energy: the worst difference against the mean cycle energy of the record (a small inner
         * cycle's own energy is too small to divide by) */
        double worst = 0, mean = 0, sd = 0, sm = 0;
        for (size_t k = 0; k < r->n_cycles; k++) {
            worst = fmax(worst, fabs(r->energy_model[k] - r->energy_data[k]));
            sd += r->energy_data[k];
            sm += r->energy_model[k];
        }
        mean = r->n_cycles ? sd / (double)r->n_cycles : 0;
        fprintf(fp, "replay on the record: NRMSE %.3f %% of the peak-to-peak force\n", 100 * r->nrmse);
        if (r->n_cycles && mean > 0)
            fprintf(fp, "energy dissipated in %zu cycles: record %.6g, model %.6g (%+.2f %%); worst cycle differs by "
                        "%.2f %% of the mean cycle energy\n",
                    r->n_cycles, sd, sm, 100 * (sm / sd - 1), 100 * worst / mean);
    } else {
        fprintf(fp, "replay on the record: %s\n", r->replay_error[0] ? r->replay_error : "not run");
    }
}

int hy_cmd_fit_pwl(int argc, char **argv)
{
    fit_args a;
    memset(&a, 0, sizeof a);
    a.out = "-";
    hy_csv_opts_default(&a.csv);
    hy_pwlfit_opts_default(&a.fit);
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;

    hy_series s;
    hy_series_init(&s);
    hy_pwlfit_result r;
    memset(&r, 0, sizeof r);
    hy_model m;
    memset(&m, 0, sizeof m);
    cJSON *report = NULL;
    hy_err err;
    int have_result = 0;

    rc = hy_cli_read_series(CMD, a.data, &a.csv, &s);
    if (rc != HY_EXIT_OK)
        goto done;
    if ((rc = hy_cli_condition(CMD, &s)) != HY_EXIT_OK ||
        (rc = hy_cli_check_record(CMD, &s, &a.fit.loops, 1)) != HY_EXIT_OK)
        goto done;
    hy_stage st; /* the estimate before a long fit, the time after (issue 42, N24) */
    if ((rc = hy_cli_fit_begin(CMD, s.source, hy_cli_fit_seconds("pwl", s.n, 0), s.n, 0, &st)) != HY_EXIT_OK)
        goto done;
    int frc = hy_pwlfit_model(&s, &a.fit, &r, &m, &err);
    hy_stage_end(&st);
    if (frc != HY_OK) {
        rc = hy_cli_fail(CMD, "%s", err.msg);
        goto done;
    }
    have_result = 1;
    for (int i = 0; i < r.n_warn; i++)
        hy_cli_warn(CMD, "%s: %s", s.source, r.warn[i]);
    report = cJSON_GetObjectItem(m.extra, "fit");
    if ((rc = hy_cli_condition_provenance(CMD, &m)) != HY_EXIT_OK)
        goto done;
    if (hy_model_write(&m, a.out, a.data, &err) != HY_OK) {
        rc = hy_cli_fail(CMD, "%s", err.msg);
        goto done;
    }
    hy_cli_energy_check(CMD, &s, &m, &a.fit.loops); /* cycle energies off by > 10 %: warn, name the worst */
    if (a.report) {
        char *text = hy_json_print(report);
        hy_atomic at;
        if (!text) {
            rc = hy_cli_fail(CMD, "out of memory");
            goto done;
        }
        if ((rc = tool_out_open(CMD, &at, a.report, a.data, NULL)) != HY_EXIT_OK) {
            free(text);
            goto done;
        }
        fputs(text, at.fp);
        fputc('\n', at.fp);
        free(text);
        if ((rc = tool_out_commit(CMD, &at)) != HY_EXIT_OK)
            goto done;
    }
    summary(strcmp(a.out, "-") == 0 || (a.report && strcmp(a.report, "-") == 0) ? stderr : stdout, &a, &s, &r);
    rc = HY_EXIT_OK;
done:
    if (have_result)
        hy_pwlfit_result_free(&r);
    hy_model_free(&m);
    hy_series_free(&s);
    return rc;
}

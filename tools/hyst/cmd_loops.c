// hyst loops: analyse the hysteresis loops of a bench-test record (hyst/loops.h): reversals, cycles, dissipated
// energy, equivalent damping, backbones and the branches of the limit loop. Report formats: docs/formats.md.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "cli.h"
#include "hyst/loops.h"
#include "hyst/model.h"
#include "hyst/util.h"

#define CMD "loops"

static const char usage_text[] =
    "usage: hyst loops FILE [DATA OPTIONS] [LOOP OPTIONS] [--json OUT] [--cycles-csv OUT]\n"
    "                  [--branches OUT] [--backbone OUT] [--amp-tol F] [--quiet]\n"
    "\n"
    "Finds the reversal points of the displacement q, the inner loops (rainflow four-point rule), the half-cycles\n"
    "and the cycles, counted as the cyclic-test standards do (0 -> +A -> 0 -> -A -> 0: from one upward crossing\n"
    "of the centre to the next; from one minimum to the next when q stays on one side of the centre), and for each\n"
    "cycle its amplitudes, peak forces, dissipated energy (the area enclosed, closed-path integral of Q dq), secant\n"
    "stiffness and equivalent viscous damping ratio xi_eq = E_D/(4 pi E_S). Prints a table on standard output.\n"
    "Rules and definitions: docs/loops.md.\n"
    "\n"
    "      --json OUT         write the report as JSON ('-' = standard output)\n"
    "      --cycles-csv OUT   write the per-cycle table as CSV\n"
    "      --branches OUT     write the branches of the limit loop as CSV: side,branch,q,Q\n"
    "      --backbone OUT     write the backbone (envelope) curves as CSV: side,q,Q\n"
    "      --amp-tol F        cycles within F of the largest amplitude form the limit loop (0 <= F < 1; 0.05)\n"
    "  -q, --quiet            no table on standard output\n"
    "  -h, --help             this help\n"
    "\n"
    "Files are written atomically and never over the input. When an output is '-', the table is not printed.\n"
    "\n";


typedef struct loops_args {
    const char *input, *json, *cycles_csv, *branches, *backbone;
    int         quiet;
    hy_loops_opts lo;
    hy_csv_opts csv;
} loops_args;

// (x) => text that reads back to exactly x
static const char *num(double x, char buf[32])
{
    hy_fmt_exact(buf, 32, x);
    return buf;
}

static void usage(FILE *fp)
{
    fputs(usage_text, fp);
    fputs(hy_cli_loops_help, fp);
    fputs(hy_cli_data_help, fp);
}

// --amp-tol F: a fraction 0 <= F < 1
static int opt_amp_tol(void *dst, const char *v, hy_args *st, hy_err *err)
{
    hy_loops_opts *lo = dst;
    if (hy_args_double(st->arg->name, v, &lo->amp_tol, err) != HY_OK)
        return HY_EARG;
    if (lo->amp_tol < 0 || lo->amp_tol >= 1)
        return hy_err_set(err, HY_EARG, "--amp-tol: expected a fraction 0 <= F < 1, got '%s'", v);
    return HY_OK;
}

// (argv) => arguments; -1 to go on, else an exit status
static int parse_args(int argc, char **argv, loops_args *a)
{
    const hy_arg tab[] = {
        HY_OPT_STR("json", 0, &a->json),           HY_OPT_STR("cycles-csv", 0, &a->cycles_csv),
        HY_OPT_STR("branches", 0, &a->branches),   HY_OPT_STR("backbone", 0, &a->backbone),
        HY_OPT_CALL("amp-tol", &a->lo, opt_amp_tol), HY_OPT_FLAG("quiet", 'q', &a->quiet),
        HY_CLI_DATA_OPTS(&a->csv, NULL),           HY_CLI_LOOPS_OPTS(&a->lo),
        HY_OPT_END};
    int go = tool_parse(CMD, usage, tab, argc, argv, "missing FILE (the record to analyse)", &a->input);
    if (go != TOOL_CLI_GO)
        return go;
    const char *outs[] = {a->json, a->cycles_csv, a->branches, a->backbone};
    const char *names[] = {"--json", "--cycles-csv", "--branches", "--backbone"};
    if (tool_out_one_stdout(CMD, 4, outs, names) != HY_EXIT_OK || tool_out_distinct(CMD, 4, outs, names) != HY_EXIT_OK)
        return HY_EXIT_USAGE;
    for (size_t k = 0; k < 4; k++)
        if (outs[k] && strcmp(outs[k], "-") == 0)
            a->quiet = 1;
    return -1;
}

/* ---- text outputs ------------------------------------------------------------------------------------------- */

// (series) => "kN*mm" style unit of Q dq, "" when a unit is missing
static void unit_product(const hy_series *s, char *out, size_t len, char op)
{
    if (s->Q_unit[0] && s->q_unit[0])
        snprintf(out, len, "%s%c%s", s->Q_unit, op, s->q_unit);
    else
        out[0] = '\0';
}

// (sample index) => 1-based source line, or the row number when lines are not known
static size_t line_of(const hy_series *s, size_t i)
{
    return s->line ? s->line[i] : i + 1;
}

// (series, analysis) => readable table on stdout
static void print_table(const hy_series *s, const hy_loops *L)
{
    char eu[80];
    unit_product(s, eu, sizeof eu, '*');
    const char *qu = s->q_unit, *Qu = s->Q_unit;
    printf("%s: %zu rows; q = %s%s%s%s, Q = %s%s%s%s\n", s->source, s->n, s->q_name[0] ? s->q_name : "the x column",
           qu[0] ? " (" : "", qu, qu[0] ? ")" : "", s->Q_name[0] ? s->Q_name : "the y column", Qu[0] ? " (" : "", Qu,
           Qu[0] ? ")" : "");
    double kn = L->noise_factor * L->noise;
    printf("threshold %.6g%s%s: ", L->threshold, qu[0] ? " " : "", qu);
    switch (L->threshold_rule) {
    case HY_LOOPS_THR_USER:
        printf("given (the default would use noise sigma %.4g, range %.6g)\n", L->noise, L->range);
        break;
    case HY_LOOPS_THR_NOISE:
        printf("K x noise sigma = %.4g x %.4g (second differences are noise: lag ratio %.2f)\n", L->noise_factor,
               L->noise, L->noise_ratio);
        break;
    case HY_LOOPS_THR_FLOOR:
        printf("floor, %.1f %% of the q range %.6g (K x noise sigma = %.4g x %.4g = %.4g is smaller)\n",
               100 * HY_LOOPS_FLOOR, L->range, L->noise_factor, L->noise, kn);
        break;
    case HY_LOOPS_THR_CAP:
        printf("cap, %.1f %% of the q range %.6g (second differences are mostly signal, lag ratio %.2f, so\n"
               "          K x noise sigma = %.4g x %.4g = %.4g is only an upper bound)\n",
               100 * HY_LOOPS_CAP, L->range, L->noise_ratio, L->noise_factor, L->noise, kn);
        break;
    }
    printf("%zu reversals (%zu major), %zu inner loops, %zu half-cycles, %zu cycles\n", L->n_rev, L->n_major,
           L->n_inner, L->n_half, L->n_cyc);
    if (L->cycle_rule == HY_LOOPS_CYC_CROSSING)
        printf("cycles: from one upward crossing of q = %.6g%s%s to the next (two-sided record)\n", L->center,
               qu[0] ? " " : "", qu);
    else
        printf("cycles: from one major %s to the next (one-sided record: q stays %s q = %.6g%s%s)\n",
               L->cycle_side > 0 ? "minimum" : "maximum", L->cycle_side > 0 ? "above" : "below", L->center,
               qu[0] ? " " : "", qu);
    if (L->n_cyc > 0) {
        printf("\n%5s %15s %10s %10s %10s %10s %12s %12s %10s %8s %5s\n", "cycle", "lines", "amp+", "amp-", "Q_max",
               "Q_min", "energy", "cumulative", "k_sec", "xi_eq", "inner");
        for (size_t c = 0; c < L->n_cyc; c++) {
            const hy_cycle *y = &L->cyc[c];
            char lines[40];
            snprintf(lines, sizeof lines, "%zu-%zu", line_of(s, y->i0), line_of(s, y->i1));
            printf("%5zu %15s %10.5g %10.5g %10.5g %10.5g %12.6g %12.6g %10.4g %8.4f %5zu\n", c + 1, lines,
                   y->amp_pos, y->amp_neg, y->Q_max, y->Q_min, y->energy, y->cum_energy, y->k_sec, y->xi_eq,
                   y->n_inner);
        }
        printf("\nenergy dissipated in the %zu cycles: %.6g%s%s\n", L->n_cyc, L->cyc[L->n_cyc - 1].cum_energy,
               eu[0] ? " " : "", eu);
    }
    printf("total energy (open path over the whole record): %.8g%s%s\n", L->total_energy, eu[0] ? " " : "", eu);
    const hy_curve *bb[2] = {&L->backbone_pos, &L->backbone_neg};
    for (int k = 0; k < 2; k++)
        if (bb[k]->n > 0)
            printf("backbone %s: %zu points up to q = %.6g, Q = %.6g\n", k ? "negative" : "positive", bb[k]->n,
                   bb[k]->q[bb[k]->n - 1], bb[k]->Q[bb[k]->n - 1]);
}

// (series, analysis) => per-cycle CSV
static void write_cycles_csv(FILE *fp, const hy_series *s, const hy_loops *L)
{
    char b[12][32];
    fputs("cycle,start_row,end_row,start_line,end_line,amplitude_pos,amplitude_neg,Q_max,Q_min,energy,"
          "cumulative_energy,k_sec,strain_energy,xi_eq,inner_loops\n", fp);
    for (size_t c = 0; c < L->n_cyc; c++) {
        const hy_cycle *y = &L->cyc[c];
        fprintf(fp, "%zu,%zu,%zu,%zu,%zu,%s,%s,%s,%s,%s,%s,%s,%s,%s,%zu\n", c + 1, y->i0 + 1, y->i1 + 1,
                line_of(s, y->i0), line_of(s, y->i1), num(y->amp_pos, b[0]), num(y->amp_neg, b[1]),
                num(y->Q_max, b[2]), num(y->Q_min, b[3]), num(y->energy, b[4]), num(y->cum_energy, b[5]),
                isfinite(y->k_sec) ? num(y->k_sec, b[6]) : "", num(y->e_strain, b[7]),
                isfinite(y->xi_eq) ? num(y->xi_eq, b[8]) : "", y->n_inner);
    }
}

// (curve, side, branch name or NULL) => its points as CSV rows
static void write_curve(FILE *fp, const hy_curve *c, const char *side, const char *branch)
{
    char b1[32], b2[32];
    for (size_t i = 0; i < c->n; i++) {
        if (branch)
            fprintf(fp, "%s,%s,%s,%s\n", side, branch, num(c->q[i], b1), num(c->Q[i], b2));
        else
            fprintf(fp, "%s,%s,%s\n", side, num(c->q[i], b1), num(c->Q[i], b2));
    }
}

// (curve) => JSON array of [q, Q] pairs
static cJSON *curve_json(const hy_curve *c)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < c->n; i++) {
        cJSON *p = cJSON_CreateArray();
        cJSON_AddItemToArray(p, cJSON_CreateNumber(c->q[i]));
        cJSON_AddItemToArray(p, cJSON_CreateNumber(c->Q[i]));
        cJSON_AddItemToArray(arr, p);
    }
    return arr;
}

// (series, analysis, branches or NULL) => the JSON report (docs/formats.md, "Loop-analysis reports")
static cJSON *report_json(const hy_series *s, const hy_loops *L, const hy_branches *B)
{
    char eu[80], ku[80];
    unit_product(s, eu, sizeof eu, '*');
    unit_product(s, ku, sizeof ku, '/');
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "format", "hyst-loops");
    cJSON_AddNumberToObject(r, "version", 1);
    cJSON_AddStringToObject(r, "source", s->source);
    cJSON_AddNumberToObject(r, "rows", (double)s->n);
    cJSON *cols = cJSON_AddObjectToObject(r, "columns");
    cJSON_AddStringToObject(cols, "q", s->q_name);
    cJSON_AddStringToObject(cols, "Q", s->Q_name);
    cJSON *u = cJSON_AddObjectToObject(r, "units");
    cJSON_AddStringToObject(u, "q", s->q_unit);
    cJSON_AddStringToObject(u, "Q", s->Q_unit);
    cJSON_AddStringToObject(u, "energy", eu);
    cJSON_AddStringToObject(u, "stiffness", ku);
    cJSON_AddNumberToObject(r, "threshold", L->threshold);
    cJSON_AddStringToObject(r, "threshold_rule", hy_loops_rule_name(L->threshold_rule));
    cJSON *nz = cJSON_AddObjectToObject(r, "noise");
    cJSON_AddNumberToObject(nz, "sigma", L->noise);
    cJSON_AddNumberToObject(nz, "factor", L->noise_factor);
    cJSON_AddNumberToObject(nz, "lag_ratio", L->noise_ratio);
    cJSON_AddNumberToObject(nz, "range", L->range);
    cJSON_AddNumberToObject(r, "reversals", (double)L->n_rev);
    cJSON *rp = cJSON_AddArrayToObject(r, "reversal_points");
    for (size_t j = 0; j < L->n_rev; j++) {
        size_t i = L->rev[j].i;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "row", (double)(i + 1));
        cJSON_AddNumberToObject(o, "line", (double)line_of(s, i));
        cJSON_AddStringToObject(o, "kind", L->rev[j].kind > 0 ? "max" : "min");
        cJSON_AddBoolToObject(o, "major", L->rev[j].major);
        cJSON_AddNumberToObject(o, "q", s->q[i]);
        cJSON_AddNumberToObject(o, "Q", s->Q[i]);
        cJSON_AddItemToArray(rp, o);
    }
    cJSON_AddNumberToObject(r, "major_reversals", (double)L->n_major);
    cJSON *il = cJSON_AddArrayToObject(r, "inner_loops");
    for (size_t j = 0; j < L->n_inner; j++) {
        const hy_inner_loop *y = &L->inner[j];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "start_row", (double)(y->i0 + 1));
        cJSON_AddNumberToObject(o, "turn_row", (double)(y->i_turn + 1));
        cJSON_AddNumberToObject(o, "end_row", (double)(y->i1 + 1));
        cJSON_AddNumberToObject(o, "start_line", (double)line_of(s, y->i0));
        cJSON_AddNumberToObject(o, "end_line", (double)line_of(s, y->i1));
        cJSON_AddStringToObject(o, "kind", y->kind > 0 ? "max" : "min");
        cJSON_AddNumberToObject(o, "range", y->range);
        cJSON_AddNumberToObject(o, "energy", y->energy);
        if (y->cycle != HY_LOOPS_NONE)
            cJSON_AddNumberToObject(o, "cycle", (double)(y->cycle + 1));
        else
            cJSON_AddNullToObject(o, "cycle");
        cJSON_AddItemToArray(il, o);
    }
    cJSON_AddNumberToObject(r, "half_cycles", (double)L->n_half);
    cJSON_AddStringToObject(r, "cycle_rule", hy_loops_cycle_rule_name(L->cycle_rule));
    cJSON_AddStringToObject(r, "cycle_side", L->cycle_side > 0 ? "positive" : L->cycle_side < 0 ? "negative" : "both");
    cJSON_AddNumberToObject(r, "center", L->center);
    cJSON *cy = cJSON_AddArrayToObject(r, "cycles");
    for (size_t c = 0; c < L->n_cyc; c++) {
        const hy_cycle *y = &L->cyc[c];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "cycle", (double)(c + 1));
        cJSON_AddNumberToObject(o, "start_row", (double)(y->i0 + 1));
        cJSON_AddNumberToObject(o, "end_row", (double)(y->i1 + 1));
        cJSON_AddNumberToObject(o, "start_line", (double)line_of(s, y->i0));
        cJSON_AddNumberToObject(o, "end_line", (double)line_of(s, y->i1));
        cJSON_AddNumberToObject(o, "amplitude_pos", y->amp_pos);
        cJSON_AddNumberToObject(o, "amplitude_neg", y->amp_neg);
        cJSON_AddNumberToObject(o, "Q_max", y->Q_max);
        cJSON_AddNumberToObject(o, "Q_min", y->Q_min);
        cJSON_AddNumberToObject(o, "Q_at_q_max", s->Q[y->i_qmax]);
        cJSON_AddNumberToObject(o, "Q_at_q_min", s->Q[y->i_qmin]);
        cJSON_AddNumberToObject(o, "energy", y->energy);
        cJSON_AddNumberToObject(o, "cumulative_energy", y->cum_energy);
        if (isfinite(y->k_sec))
            cJSON_AddNumberToObject(o, "k_sec", y->k_sec);
        else
            cJSON_AddNullToObject(o, "k_sec");
        cJSON_AddNumberToObject(o, "strain_energy", y->e_strain);
        if (isfinite(y->xi_eq))
            cJSON_AddNumberToObject(o, "xi_eq", y->xi_eq);
        else
            cJSON_AddNullToObject(o, "xi_eq");
        cJSON_AddNumberToObject(o, "inner_loops", (double)y->n_inner);
        cJSON_AddItemToArray(cy, o);
    }
    cJSON_AddNumberToObject(r, "cycles_energy", L->n_cyc ? L->cyc[L->n_cyc - 1].cum_energy : 0.0);
    cJSON_AddNumberToObject(r, "total_energy", L->total_energy);
    cJSON *bb = cJSON_AddObjectToObject(r, "backbone");
    cJSON_AddItemToObject(bb, "positive", curve_json(&L->backbone_pos));
    cJSON_AddItemToObject(bb, "negative", curve_json(&L->backbone_neg));
    if (B) {
        cJSON *lim = cJSON_AddObjectToObject(r, "limit_loop");
        cJSON_AddNumberToObject(lim, "amplitude_pos", B->amp_pos);
        cJSON_AddNumberToObject(lim, "amplitude_neg", B->amp_neg);
        cJSON_AddNumberToObject(lim, "cycles_pos", (double)B->cycles_pos);
        cJSON_AddNumberToObject(lim, "cycles_neg", (double)B->cycles_neg);
        cJSON *pts = cJSON_AddObjectToObject(lim, "points");
        cJSON_AddNumberToObject(pts, "forward_pos", (double)B->fwd_pos.n);
        cJSON_AddNumberToObject(pts, "backward_pos", (double)B->bwd_pos.n);
        cJSON_AddNumberToObject(pts, "forward_neg", (double)B->fwd_neg.n);
        cJSON_AddNumberToObject(pts, "backward_neg", (double)B->bwd_neg.n);
    }
    return r;
}

/* ---- the command --------------------------------------------------------------------------------------------- */

enum { OUT_JSON, OUT_CYCLES, OUT_BRANCHES, OUT_BACKBONE, N_OUT };

// (argc, argv) => exit status
int hy_cmd_loops(int argc, char **argv)
{
    loops_args a;
    memset(&a, 0, sizeof a);
    hy_loops_opts_default(&a.lo);
    hy_csv_opts_default(&a.csv);
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;

    hy_series s;
    hy_series_init(&s);
    hy_loops L;
    hy_branches B;
    memset(&L, 0, sizeof L);
    memset(&B, 0, sizeof B);
    int have_B = 0;
    hy_atomic out[N_OUT];
    int open[N_OUT] = {0};
    const char *path[N_OUT] = {a.json, a.cycles_csv, a.branches, a.backbone};
    cJSON *json = NULL;
    hy_err err;

    if ((rc = hy_cli_read_series(CMD, a.input, &a.csv, &s)) != 0 || (rc = hy_cli_condition(CMD, &s)) != 0)
        goto done;
    if (hy_loops_analyze(s.q, s.Q, s.n, &a.lo, &L, &err) != HY_OK) {
        rc = hy_cli_fail(CMD, "%s: %s", s.source, err.msg);
        goto done;
    }
    /* The branches are extracted when they are written and for the JSON summary; a record without any
     * half-cycle has none, which is an error only when --branches asked for them. */
    if (a.branches || a.json) {
        int brc = hy_loops_branches(s.q, s.Q, s.n, &L, &a.lo, &B, &err);
        if (brc == HY_OK)
            have_B = 1;
        else if (a.branches) {
            rc = hy_cli_fail(CMD, "%s: %s", s.source, err.msg);
            goto done;
        }
    }
    /* Every output is written to its temporary file first and all are committed only when all succeeded. */
    for (int k = 0; k < N_OUT; k++) {
        if (!path[k])
            continue;
        if ((rc = tool_out_open(CMD, &out[k], path[k], a.input, NULL)) != HY_EXIT_OK)
            goto done;
        open[k] = 1;
        FILE *fp = out[k].fp;
        switch (k) {
        case OUT_JSON: {
            json = report_json(&s, &L, have_B ? &B : NULL);
            char *text = json ? hy_json_print(json) : NULL;
            if (!text) {
                rc = hy_cli_fail(CMD, "out of memory writing the JSON report");
                goto done;
            }
            fputs(text, fp);
            fputc('\n', fp);
            cJSON_free(text);
            break;
        }
        case OUT_CYCLES:
            write_cycles_csv(fp, &s, &L);
            break;
        case OUT_BRANCHES:
            fputs("side,branch,q,Q\n", fp);
            write_curve(fp, &B.fwd_pos, "pos", "forward");
            write_curve(fp, &B.bwd_pos, "pos", "backward");
            write_curve(fp, &B.fwd_neg, "neg", "forward");
            write_curve(fp, &B.bwd_neg, "neg", "backward");
            break;
        case OUT_BACKBONE:
            fputs("side,q,Q\n", fp);
            write_curve(fp, &L.backbone_pos, "pos", NULL);
            write_curve(fp, &L.backbone_neg, "neg", NULL);
            break;
        }
    }
    for (int k = 0; k < N_OUT; k++) {
        if (!open[k])
            continue;
        open[k] = 0;
        if ((rc = tool_out_commit(CMD, &out[k])) != HY_EXIT_OK)
            goto done;
    }
    if (!a.quiet)
        print_table(&s, &L);
done:
    for (int k = 0; k < N_OUT; k++)
        if (open[k])
            hy_atomic_abort(&out[k]);
    cJSON_Delete(json);
    if (have_B)
        hy_branches_free(&B);
    hy_loops_free(&L);
    hy_series_free(&s);
    return rc;
}

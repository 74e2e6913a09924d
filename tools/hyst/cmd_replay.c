// hyst replay: re-simulate a measured test with one or more models and compare predicted with measured force.
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "cli.h"
#include "hyst/replay.h"
#include "hyst/model.h"
#include "hyst/util.h"
#include "replay_set.h"

static const char *const CMD = "replay";

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: hyst replay [OPTIONS] MODEL.json [MODEL2.json ...] DATA.csv\n"
            "\n"
            "Drives each model with the measured displacement history of DATA.csv (starting at rest at the\n"
            "origin) and compares the predicted force with the measured one: NRMSE (RMS error over the measured\n"
            "peak-to-peak force), the largest error and where it occurs, and per cycle (cycles found in the\n"
            "measured record as 'hyst loops' finds them) the dissipated energy measured and predicted, their\n"
            "ratio and the peak-force errors. Several models are compared side by side.\n"
            "\n"
            "options:\n"
            "  --json FILE      write the report as JSON (- for standard output)\n"
            "  -o, --output FILE.csv\n"
            "                   write t,q,Q_measured,Q_model (one Q column per model when several, named\n"
            "                   Q_<model file name>; no t column when the record has no time)\n"
            "  --markdown FILE  write the metrics as a Markdown table, one row per model (- for standard output)\n"
            "  --brief          summary only, without the per-cycle table\n"
            "  -h, --help       this help\n"
            "\n"
            "%s%s"
            "\n"
            "The summary goes to standard output unless --json or --output writes there.\n"
            "Exit status: 0 success, 1 bad data or model (a model violation names the data row and time), 2 usage.\n",
            hy_cli_loops_help, hy_cli_data_help);
}

// (value) => JSON number, or null when not finite
static cJSON *num(double v)
{
    return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static void add(cJSON *o, const char *key, double v)
{
    cJSON_AddItemToObject(o, key, num(v));
}

// (set, sample) => {"row", "line", "t", "q"} locating a sample
static cJSON *where(const hy_replay_set *R, size_t i)
{
    cJSON *w = cJSON_CreateObject();
    add(w, "row", (double)(i + 1));
    add(w, "line", (double)hy_replay_set_line(R, i));
    if (R->s.t)
        add(w, "t", R->s.t[i]);
    add(w, "q", R->s.q[i]);
    return w;
}

// (set, model) => the model's report object (the same keys for one and for several models)
static cJSON *model_report(const hy_replay_set *R, const hy_replay_one *m)
{
    const hy_replay_metrics *M = &m->M;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "model", m->path);
    cJSON_AddStringToObject(o, "label", m->label);
    cJSON_AddStringToObject(o, "family", hy_model_family(&m->model));
    add(o, "nrmse", M->nrmse);
    add(o, "rms_error", M->rms_error);
    add(o, "mean_error", M->mean_error);
    add(o, "max_abs_error", M->max_abs_error);
    cJSON_AddItemToObject(o, "max_abs_error_at", where(R, M->max_abs_index));
    add(o, "energy_measured", M->energy_measured);
    add(o, "energy_model", M->energy_model);
    add(o, "energy_ratio", M->energy_ratio);
    add(o, "cycle_nrmse", hy_replay_cycle_nrmse(M));            /* over the cycles' samples only */
    add(o, "cycle_energy_error", hy_replay_energy_error(M));    /* energy-weighted */
    add(o, "work_measured", M->work_measured);
    add(o, "work_model", M->work_model);
    cJSON *cycles = cJSON_AddArrayToObject(o, "cycles");
    for (size_t k = 0; k < M->n_cyc; k++) {
        const hy_replay_cycle *c = &M->cyc[k];
        cJSON *e = cJSON_CreateObject();
        add(e, "cycle", (double)(k + 1));
        add(e, "start_row", (double)(c->i0 + 1));
        add(e, "end_row", (double)(c->i1 + 1));
        add(e, "q_min", c->q_min);
        add(e, "q_max", c->q_max);
        add(e, "energy_measured", c->energy_measured);
        add(e, "energy_model", c->energy_model);
        add(e, "energy_ratio", c->energy_ratio);
        add(e, "Q_max_measured", c->Q_max_measured);
        add(e, "Q_max_model", c->Q_max_model);
        add(e, "Q_max_error", c->Q_max_error);
        add(e, "Q_min_measured", c->Q_min_measured);
        add(e, "Q_min_model", c->Q_min_model);
        add(e, "Q_min_error", c->Q_min_error);
        add(e, "rms_error", c->rms_error);
        cJSON_AddItemToArray(cycles, e);
    }
    return o;
}

// (set) => the whole report: one model merged into the top level, several under "models"
static cJSON *report(const hy_replay_set *R)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "format", "hyst-replay");
    add(doc, "version", 1);
    cJSON *d = cJSON_AddObjectToObject(doc, "data");
    cJSON_AddStringToObject(d, "file", R->data_path);
    add(d, "rows", (double)R->s.n);
    cJSON_AddStringToObject(d, "q_unit", R->s.q_unit);
    cJSON_AddStringToObject(d, "Q_unit", R->s.Q_unit);
    add(d, "Q_peak_to_peak", R->n_models ? R->m[0].M.Q_ptp : NAN);
    add(d, "threshold", R->L.threshold);
    add(d, "cycles", (double)R->L.n_cyc);
    if (R->n_models == 1) {
        cJSON *one = model_report(R, &R->m[0]);
        cJSON *it = one->child;
        while (it) {
            cJSON *next = it->next;
            cJSON_AddItemToObject(doc, it->string, cJSON_DetachItemViaPointer(one, it));
            it = next;
        }
        cJSON_Delete(one);
    } else {
        cJSON *arr = cJSON_AddArrayToObject(doc, "models");
        for (size_t k = 0; k < R->n_models; k++)
            cJSON_AddItemToArray(arr, model_report(R, &R->m[k]));
    }
    return doc;
}

// (path, text, protect) => file written atomically
static int write_text(const char *path, const char *text, const hy_replay_set *R)
{
    hy_atomic a;
    int rc_open = hy_replay_set_open_output(CMD, path, R, &a);
    if (rc_open != 0)
        return rc_open;
    fputs(text, a.fp);
    return tool_out_commit(CMD, &a);
}

// (fp, v) => text that reads back to exactly v
static void put_num(FILE *fp, double v)
{
    char buf[40];
    hy_fmt_exact(buf, sizeof buf, v);
    fputs(buf, fp);
}

// (path, set) => t,q,Q_measured,Q_model CSV written atomically
static int write_csv(const char *path, const hy_replay_set *R)
{
    hy_atomic a;
    int rc_open = hy_replay_set_open_output(CMD, path, R, &a);
    if (rc_open != 0)
        return rc_open;
    FILE *fp = a.fp;
    const hy_series *s = &R->s;
    if (s->t)
        fputs("t,", fp);
    fputs("q,Q_measured", fp);
    for (size_t k = 0; k < R->n_models; k++)
        fprintf(fp, R->n_models == 1 ? ",Q_model" : ",Q_%s", R->m[k].label);
    fputc('\n', fp);
    if (s->q_unit[0] || s->Q_unit[0] || (s->t && s->t_unit[0])) {
        /* a units row, as the bench files have one, so that the output reads back with its units */
        if (s->t)
            fprintf(fp, "%s,", s->t_unit);
        fprintf(fp, "%s,%s", s->q_unit, s->Q_unit);
        for (size_t k = 0; k < R->n_models; k++)
            fprintf(fp, ",%s", s->Q_unit);
        fputc('\n', fp);
    }
    for (size_t i = 0; i < s->n; i++) {
        if (s->t) {
            put_num(fp, s->t[i]);
            fputc(',', fp);
        }
        put_num(fp, s->q[i]);
        fputc(',', fp);
        put_num(fp, s->Q[i]);
        for (size_t k = 0; k < R->n_models; k++) {
            fputc(',', fp);
            put_num(fp, R->m[k].Q[i]);
        }
        fputc('\n', fp);
    }
    return tool_out_commit(CMD, &a);
}

// (fp, v, format) => number or "n/a"
static void cell(FILE *fp, const char *fmt, double v, int width)
{
    char buf[64];
    if (isfinite(v))
        snprintf(buf, sizeof buf, fmt, v);
    else
        snprintf(buf, sizeof buf, "n/a");
    fprintf(fp, "  %*s", width, buf);
}

// (set) => human-readable summary, models side by side
static void summary(FILE *fp, const hy_replay_set *R, int brief)
{
    const hy_series *s = &R->s;
    const char *qu = s->q_unit[0] ? s->q_unit : "";
    const char *Qu = s->Q_unit[0] ? s->Q_unit : "";
    char eu[80];
    if (qu[0] || Qu[0])
        snprintf(eu, sizeof eu, " %s*%s", Qu[0] ? Qu : "(Q)", qu[0] ? qu : "(q)");
    else
        eu[0] = '\0';
    fprintf(fp, "replay of %s: %zu rows, %zu cycles, measured Q peak to peak %.6g%s%s\n",
            hy_replay_base_name(R->data_path), s->n, R->L.n_cyc, R->m[0].M.Q_ptp, Qu[0] ? " " : "", Qu);
    int W = 12;
    for (size_t k = 0; k < R->n_models; k++)
        if ((int)strlen(R->m[k].label) > W)
            W = (int)strlen(R->m[k].label);
    if (W > 30)
        W = 30;
    fprintf(fp, "\n%-22s", "");
    for (size_t k = 0; k < R->n_models; k++)
        fprintf(fp, "  %*.*s", W, W, R->m[k].label);
    fprintf(fp, "\n%-22s", "family");
    for (size_t k = 0; k < R->n_models; k++)
        fprintf(fp, "  %*s", W, hy_model_family(&R->m[k].model));
#define ROW(title, fmt, expr)                                                                                   \
    fprintf(fp, "\n%-22s", title);                                                                              \
    for (size_t k = 0; k < R->n_models; k++) {                                                                  \
        const hy_replay_metrics *M = &R->m[k].M;                                                                \
        (void)M;                                                                                                \
        cell(fp, fmt, (expr), W);                                                                               \
    }
    ROW("NRMSE [%]", "%.4g", 100.0 * M->nrmse)
    ROW("RMS error", "%.6g", M->rms_error)
    ROW("mean error (bias)", "%.4g", M->mean_error)
    ROW("max |error|", "%.6g", M->max_abs_error)
    ROW("  at row", "%.0f", (double)(M->max_abs_index + 1))
    if (s->t) {
        ROW("  at t", "%.6g", s->t[M->max_abs_index])
    }
    ROW("  at q", "%.6g", s->q[M->max_abs_index])
    ROW("energy measured", "%.6g", M->energy_measured)
    ROW("energy model", "%.6g", M->energy_model)
    ROW("energy ratio", "%.4f", M->energy_ratio)
    ROW("cycle NRMSE [%]", "%.4g", 100.0 * hy_replay_cycle_nrmse(M))
    ROW("cycle energy error", "%.4g", hy_replay_energy_error(M))
#undef ROW
    fprintf(fp, "\n\nforces in %s, energies in%s (sum over the %zu cycles); errors are model - measured; cycle NRMSE\n"
            "over the cycles' rows only; cycle energy error = sum |E model - E measured| / sum E measured (weighted by\n"
            "each cycle's energy)\n", Qu[0] ? Qu : "the data's units", eu[0] ? eu : " force x displacement units",
            R->L.n_cyc);
    if (brief || R->L.n_cyc == 0)
        return;
    fprintf(fp, "\nper cycle: dissipated energy (E), ratio model/measured, peak-force errors (dQmax, dQmin)\n");
    /* two header lines: the model names over their group of columns, then the column names */
    fprintf(fp, "%5s  %9s  %9s  %11s  %11s  %11s", "", "", "", "", "", "");
    for (size_t k = 0; k < R->n_models; k++)
        fprintf(fp, " | %-42.42s", R->m[k].label);
    fprintf(fp, "\n%5s  %9s  %9s  %11s  %11s  %11s", "cycle", "row from", "row to", "q min", "q max", "E measured");
    for (size_t k = 0; k < R->n_models; k++)
        fprintf(fp, " | %11s  %7s  %9s  %9s", "E model", "ratio", "dQmax", "dQmin");
    fputc('\n', fp);
    for (size_t c = 0; c < R->L.n_cyc; c++) {
        const hy_replay_cycle *y = &R->m[0].M.cyc[c];
        fprintf(fp, "%5zu  %9zu  %9zu  %11.5g  %11.5g  %11.5g", c + 1, y->i0 + 1, y->i1 + 1, y->q_min, y->q_max,
                y->energy_measured);
        for (size_t k = 0; k < R->n_models; k++) {
            const hy_replay_cycle *x = &R->m[k].M.cyc[c];
            fprintf(fp, " | %11.5g", x->energy_model);
            if (isfinite(x->energy_ratio))
                fprintf(fp, "  %7.4f", x->energy_ratio);
            else
                fprintf(fp, "  %7s", "n/a");
            fprintf(fp, "  %9.4g  %9.4g", x->Q_max_error, x->Q_min_error);
        }
        fputc('\n', fp);
    }
}

// (fp, format, value) => a Markdown table cell (" n/a" when not finite)
static void md_cell(FILE *fp, const char *fmt, double v)
{
    fputs(" | ", fp);
    if (isfinite(v))
        fprintf(fp, fmt, v);
    else
        fputs("n/a", fp);
}

// (set) => Markdown table of the metrics, one row per model
static void markdown(FILE *fp, const hy_replay_set *R)
{
    const hy_series *s = &R->s;
    char Qu[48] = "", eu[80] = "";
    if (s->Q_unit[0])
        snprintf(Qu, sizeof Qu, " [%.40s]", s->Q_unit);
    if (s->Q_unit[0] || s->q_unit[0])
        snprintf(eu, sizeof eu, " [%.30s*%.30s]", s->Q_unit[0] ? s->Q_unit : "Q", s->q_unit[0] ? s->q_unit : "q");
    fprintf(fp, "| model | family | NRMSE | RMS error%s | max abs error%s | at row | at q | energy measured%s | "
                "energy model%s | energy ratio | cycle NRMSE | cycle energy error |\n", Qu, Qu, eu, eu);
    fputs("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n", fp);
    for (size_t k = 0; k < R->n_models; k++) {
        const hy_replay_metrics *M = &R->m[k].M;
        fprintf(fp, "| %s | %s", R->m[k].label, hy_model_family(&R->m[k].model));
        md_cell(fp, "%.3g %%", 100.0 * M->nrmse);
        md_cell(fp, "%.4g", M->rms_error);
        md_cell(fp, "%.4g", M->max_abs_error);
        fprintf(fp, " | %zu", M->max_abs_index + 1);
        md_cell(fp, "%.4g", s->q[M->max_abs_index]);
        md_cell(fp, "%.5g", M->energy_measured);
        md_cell(fp, "%.5g", M->energy_model);
        md_cell(fp, "%.3f", M->energy_ratio);
        md_cell(fp, "%.3g %%", 100.0 * hy_replay_cycle_nrmse(M));
        md_cell(fp, "%.3g %%", 100.0 * hy_replay_energy_error(M));
        fputs(" |\n", fp);
    }
}

// (argc, argv) => exit status
int hy_cmd_replay(int argc, char **argv)
{
    hy_csv_opts copts;
    hy_csv_opts_default(&copts);
    hy_loops_opts lopts;
    hy_loops_opts_default(&lopts);
    const char *json_path = NULL, *csv_path = NULL, *md_path = NULL;
    int brief = 0, first = 0, npos = 0;
    const hy_arg tab[] = {
        HY_OPT_STR("json", 0, &json_path),        HY_OPT_STR("output", 'o', &csv_path),
        HY_OPT_FLAG("brief", 0, &brief),          HY_OPT_STR("markdown", 0, &md_path),
        HY_CLI_DATA_OPTS(&copts, NULL),           HY_CLI_LOOPS_OPTS(&lopts),
        HY_OPT_END};
    int go = tool_parse_n(CMD, usage, tab, argc, argv, 2, INT_MAX,
                          "missing MODEL.json [MODEL2.json ...] DATA.csv", &first, &npos);
    if (go != TOOL_CLI_GO)
        return go;
    const char *outs[] = {json_path, csv_path, md_path}, *names[] = {"--json", "-o", "--markdown"};
    if (tool_out_one_stdout(CMD, 3, outs, names) != HY_EXIT_OK || tool_out_distinct(CMD, 3, outs, names) != HY_EXIT_OK)
        return HY_EXIT_USAGE;
    int to_stdout = (json_path && strcmp(json_path, "-") == 0) + (csv_path && strcmp(csv_path, "-") == 0) +
                    (md_path && strcmp(md_path, "-") == 0);

    hy_replay_set R;
    int rc = hy_replay_set_load(CMD, argv + first, (size_t)npos - 1, argv[first + npos - 1], &copts, &lopts, 0, &R);
    if (rc == 0) /* a constant force: nothing to compare a model with (the energy ratio would be noise / 0) */
        rc = hy_cli_check_record(CMD, &R.s, &lopts, 0);
    if (rc == 0 && json_path) {
        cJSON *doc = report(&R);
        char *text = doc ? hy_json_print(doc) : NULL;
        cJSON_Delete(doc);
        if (!text) {
            rc = hy_cli_fail(CMD, "out of memory writing the JSON report");
        } else {
            size_t len = strlen(text);
            char *withnl = realloc(text, len + 2);
            if (withnl) {
                text = withnl;
                memcpy(text + len, "\n", 2);
            }
            rc = write_text(json_path, text, &R);
            free(text);
        }
    }
    if (rc == 0 && csv_path)
        rc = write_csv(csv_path, &R);
    if (rc == 0 && md_path) {
        char *text = NULL;
        size_t len = 0;
        FILE *fp = open_memstream(&text, &len);
        if (!fp)
            rc = hy_cli_fail(CMD, "out of memory");
        else {
            markdown(fp, &R);
            fclose(fp);
            rc = write_text(md_path, text, &R);
        }
        free(text);
    }
    if (rc == 0 && !to_stdout)
        summary(stdout, &R, brief);
    hy_replay_set_free(&R);
    return rc;
}

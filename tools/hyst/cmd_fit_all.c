// hyst fit all: fit every model family to one record, replay each on it (and on a validation record), rank them
// by NRMSE over the cycles and the energy-weighted cycle-energy error together, ties shown as ties, AIC / BIC
// in-sample for information (docs/fit-families.md "hyst fit all").
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>
#include "cli.h"
#include "hyst/famfit.h"
#include "hyst/model.h"
#include "hyst/replay.h"
#include "hyst/util.h"

static const char *const CMD = "fit all";
#define NFAM 6
static const char *const fam_name[NFAM] = {"pwl", "kin", "bw", "bwbn", "iwan", "clough"};
/* two values of a ranking metric closer than this fraction of the larger are a tie in that metric: a fit's
   NRMSE moves by about this much between starts and solver tolerances, so a smaller difference ranks nothing */
#define TIE_REL 0.02

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: hyst fit all [OPTIONS] DATA.csv -d DIR [--validate VAL.csv]\n"
            "\n"
            "Fits every model family (pwl, kin, bw, bwbn, iwan, clough) to DATA.csv with its own 'hyst fit' command,\n"
            "writes the models to DIR/fitted-FAMILY.json, replays each on DATA.csv (and on VAL.csv when given) and\n"
            "prints one "
            "table: NRMSE over the whole record and over the cycles the loop analysis finds, energy ratio, cycle\n"
            "energy error (energy-weighted: sum |E_model - E_meas| / sum E_meas over the cycles), AIC and BIC, and the\n"
            "rank. The rank orders by the sum of the ranks in cycle NRMSE and in cycle energy error (on the\n"
            "validation record when given); values within 2 %% of each other tie, equal sums are ties and are shown\n"
            "as such (listed by fewer parameters). AIC and BIC come from the same in-sample residuals as NRMSE and\n"
            "do not enter the rank. A record no family can be scored on (constant force, no closed loop) is refused.\n"
            "A family whose cycle energies are off by more than --energy-tol gets a warning naming the worst cycles.\n"
            "A family whose fit fails is listed with the failure; the others are still compared.\n"
            "\n"
            "options:\n"
            "  -d, --dir DIR        folder for the fitted models (created when missing)\n"
            "  --validate FILE      validation record (same columns): the ranking uses it\n"
            "  --families LIST      comma-separated subset of pwl,kin,bw,bwbn,iwan,clough (default: all six)\n"
            "  --pwl-opts \"OPTS\"    extra options for 'hyst fit pwl' (e.g. \"--amp-tol 0.3 --symmetric\")\n"
            "  --json FILE          the comparison as JSON (- for standard output)\n"
            "  --markdown FILE      the comparison as a Markdown table\n"
            "  --plot FILE          overlay of every fitted model on the (validation) record ('hyst plot all')\n"
            "  --energy-tol TOL     energy warning tolerance, a fraction (default 0.1)\n"
            "  -h, --help           this help\n"
            "\n"
            "%s%s"
            "\n"
            "Exit status: 0 when at least one family was fitted, 1 otherwise or on bad data, 2 usage.\n",
            hy_cli_loops_help, hy_cli_data_help);
}

typedef struct fam_row {
    int    fitted;
    char   path[4096];
    hy_model model;
    int    np;
    double rss, aic, bic;
    double nrmse, c_nrmse, eratio, eerr;    /* in-sample: whole record, over the cycles */
    double v_nrmse, v_c_nrmse, v_eratio, v_eerr; /* validation (NaN without) */
    int    rank_score;
    int    rank, tied;
    size_t n_cyc;
    double *cyc_err;                        /* per cycle (in-sample): |E_model - E_meas| / E_meas, NaN without E */
} fam_row;

// (a, b) => -1 / 0 / 1: a better (smaller) than b beyond the tie tolerance; NaN is worst
static int cmp_metric(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) ? !isnan(b) : -1;
    if (fabs(a - b) <= TIE_REL * fmax(fabs(a), fabs(b)))
        return 0;
    return a < b ? -1 : 1;
}

// (model, record, loops) => metrics; 0 on success
static int replay(const hy_model *m, const hy_series *s, const hy_loops *L, hy_replay_metrics *M, const char *label)
{
    double *Qm = malloc(s->n * sizeof *Qm);
    size_t row;
    hy_diag d;
    hy_err err;
    int rc = Qm ? hy_replay_drive(m, s->t, s->q, s->n, Qm, NULL, &row, &d, &err) : HY_ENOMEM;
    if (rc == HY_OK)
        rc = hy_replay_metrics_compute(s->q, s->Q, Qm, s->n, L->cyc, L->n_cyc, M, &err);
    if (rc != HY_OK)
        hy_cli_warn(CMD, "%s on %s: %s", label, s->source, rc == HY_ENOMEM ? "out of memory" : err.msg);
    free(Qm);
    return rc;
}

int hy_cmd_fit_all(int argc, char **argv)
{
    hy_csv_opts copts;
    hy_csv_opts_default(&copts);
    hy_loops_opts lopts;
    hy_loops_opts_default(&lopts);
    const char *dir = NULL, *val = NULL, *json = NULL, *md = NULL, *plot = NULL, *pwlopts = "", *families = NULL;
    const char *data = NULL;
    int use[NFAM] = {1, 1, 1, 1, 1, 1}, have_etol = 0;
    double etol = 0.1;
    char *pass[64]; /* data and loop options, handed on to every sub-command as they were given */
    int npass = 0;
    const hy_arg tab[] = {
        HY_OPT_STR("dir", 'd', &dir),             HY_OPT_STR("validate", 0, &val),
        HY_OPT_STR("families", 0, &families),     HY_OPT_STR("pwl-opts", 0, &pwlopts),
        HY_OPT_STR("json", 0, &json),             HY_OPT_STR("markdown", 0, &md),
        HY_OPT_STR("plot", 0, &plot),             HY_OPT_DOUBLE("energy-tol", &etol, &have_etol),
        HY_CLI_DATA_OPTS(&copts, NULL),           HY_CLI_LOOPS_OPTS(&lopts),
        HY_OPT_END};
    hy_cli_opts_record(pass, &npass, 62);
    int go = tool_parse(CMD, usage, tab, argc, argv, "missing DATA.csv (the record to fit)", &data);
    hy_cli_opts_record(NULL, NULL, 0);
    if (go != TOOL_CLI_GO)
        return go;
    if (families) {
        for (int k = 0; k < NFAM; k++)
            use[k] = 0;
        char buf[256];
        snprintf(buf, sizeof buf, "%s", families);
        for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
            int k = 0;
            while (k < NFAM && strcmp(t, fam_name[k]) != 0)
                k++;
            if (k == NFAM)
                return hy_cli_usage(CMD, "--families: unknown family '%s' (expected pwl, kin, bw, bwbn, iwan, clough)", t);
            use[k] = 1;
        }
        int any = 0;
        for (int k = 0; k < NFAM; k++)
            any |= use[k];
        if (!any) /* issue 42 N27: a usage error (exit 2), not a failed fit */
            return hy_cli_usage(CMD, "--families: expected a comma-separated subset of pwl,kin,bw,iwan, got '%s'",
                                families);
    }
    if (have_etol && !(etol > 0))
        return hy_cli_usage(CMD, "--energy-tol: expected a fraction > 0, got '%g'", etol);
    int rc;
    if (!dir)
        return hy_cli_usage(CMD, "-d DIR is required (the fitted models are written there)");
    /* an output onto an input is refused before the fits, not after minutes of them (issue 42, N14) */
    const char *outs[3] = {json, md, plot}, *ins[2] = {data, val};
    const char *onames[3] = {"--json", "--markdown", "--plot"};
    if (tool_out_one_stdout(CMD, 3, outs, onames) != HY_EXIT_OK || tool_out_distinct(CMD, 3, outs, onames) != HY_EXIT_OK)
        return HY_EXIT_USAGE;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++)
            if (outs[i] && ins[j] && strcmp(outs[i], "-") != 0 && hy_same_file(outs[i], ins[j]))
                return hy_cli_fail(CMD, "%s: refusing to overwrite an input file", outs[i]);
    if ((rc = tool_out_mkdir(CMD, dir)) != HY_EXIT_OK)
        return rc;

    hy_series s, v;
    hy_series_init(&s);
    hy_series_init(&v);
    hy_loops L, LV;
    memset(&L, 0, sizeof L);
    memset(&LV, 0, sizeof LV);
    hy_err err;
    rc = hy_cli_read_series(CMD, data, &copts, &s);
    if (rc != HY_EXIT_OK)
        return rc;
    /* a record no family can be scored on is refused, instead of naming a best (constant force, no loop) */
    if ((rc = hy_cli_condition(CMD, &s)) != HY_EXIT_OK ||
        (rc = hy_cli_check_record(CMD, &s, &lopts, 1)) != HY_EXIT_OK) {
        hy_series_free(&s);
        return rc;
    }
    if (val && ((rc = hy_cli_read_series(CMD, val, &copts, &v)) != HY_EXIT_OK ||
                (rc = hy_cli_condition(CMD, &v)) != HY_EXIT_OK)) {
        hy_series_free(&v);
        hy_series_free(&s);
        return rc;
    }
    double est = 0; /* every family's fit together under the limit; each says its own estimate (issue 42, N24) */
    for (int k = 0; k < NFAM; k++)
        if (use[k])
            est += hy_cli_fit_seconds(fam_name[k], s.n, 0);
    if ((rc = hy_cli_fit_begin(CMD, s.source, est, s.n, 0, NULL)) != HY_EXIT_OK)
        goto out;
    if (hy_loops_analyze(s.q, s.Q, s.n, &lopts, &L, &err) != HY_OK ||
        (val && hy_loops_analyze(v.q, v.Q, v.n, &lopts, &LV, &err) != HY_OK)) {
        rc = hy_cli_fail(CMD, "%s", err.msg);
        goto out;
    }

    fam_row row[NFAM];
    memset(row, 0, sizeof row);
    int n_ok = 0;
    for (int k = 0; k < NFAM; k++) {
        if (!use[k])
            continue;
        snprintf(row[k].path, sizeof row[k].path, "%s/fitted-%s.json", dir, fam_name[k]);
        char cmdname[16];
        snprintf(cmdname, sizeof cmdname, "fit %s", fam_name[k]);
        char *av[128];
        int ac = 0;
        char pw[1024];
        av[ac++] = cmdname;
        for (int i = 0; i < npass; i++)
            av[ac++] = pass[i];
        if (k == 0) {
            snprintf(pw, sizeof pw, "%s", pwlopts);
            for (char *t = strtok(pw, " "); t && ac < 110; t = strtok(NULL, " "))
                av[ac++] = t;
        }
        av[ac++] = "-o";
        av[ac++] = row[k].path;
        if (k >= 2)
            av[ac++] = "-q";
        av[ac++] = (char *)data;
        av[ac] = NULL;
        int frc = k == 0 ? hy_cmd_fit_pwl(ac, av) : k == 1 ? hy_cmd_fit_kin(ac, av) : hy_cmd_fit_family(ac, av);
        if (frc != HY_EXIT_OK) {
            hy_cli_warn(CMD, "%s: the %s fit failed (above); the other families are compared", s.source,
                        fam_name[k]);
            continue;
        }
        if (hy_model_read(row[k].path, &row[k].model, &err) != HY_OK) {
            hy_cli_warn(CMD, "%s", err.msg);
            continue;
        }
        hy_replay_metrics M, MV;
        memset(&MV, 0, sizeof MV);
        if (replay(&row[k].model, &s, &L, &M, fam_name[k]) != HY_OK)
            continue;
        row[k].np = hy_model_nparams(&row[k].model);
        row[k].rss = M.rms_error * M.rms_error * (double)M.n;
        double nn = (double)M.n, ll = nn * log(fmax(row[k].rss / nn, 1e-300));
        row[k].aic = ll + 2 * row[k].np;
        row[k].bic = ll + row[k].np * log(nn);
        row[k].nrmse = M.nrmse;
        row[k].c_nrmse = hy_replay_cycle_nrmse(&M);
        row[k].eratio = M.energy_ratio;
        row[k].eerr = hy_replay_energy_error(&M);
        row[k].v_nrmse = row[k].v_c_nrmse = row[k].v_eratio = row[k].v_eerr = NAN;
        row[k].n_cyc = M.n_cyc;
        row[k].cyc_err = malloc((M.n_cyc ? M.n_cyc : 1) * sizeof *row[k].cyc_err);
        for (size_t c = 0; row[k].cyc_err && c < M.n_cyc; c++)
            row[k].cyc_err[c] = M.cyc[c].energy_measured > 0
                                    ? fabs(M.cyc[c].energy_model - M.cyc[c].energy_measured) / M.cyc[c].energy_measured
                                    : NAN;
        char label[64];
        snprintf(label, sizeof label, "fit all: %s", fam_name[k]);
        if (etol != 0.10) /* every fit command has warned at 10 % already */
            hy_cli_energy_warning(label, s.source, &M, etol);
        if (val && replay(&row[k].model, &v, &LV, &MV, fam_name[k]) == HY_OK) {
            row[k].v_nrmse = MV.nrmse;
            row[k].v_c_nrmse = hy_replay_cycle_nrmse(&MV);
            row[k].v_eratio = MV.energy_ratio;
            row[k].v_eerr = hy_replay_energy_error(&MV);
            hy_cli_energy_warning(label, v.source, &MV, etol);
        }
        hy_replay_metrics_free(&M);
        hy_replay_metrics_free(&MV);
        row[k].fitted = 1;
        n_ok++;
    }
    if (!n_ok) {
        rc = hy_cli_fail(CMD, "%s: no family could be fitted", s.source);
        goto out;
    }
    /* rank: sum of the ranks in cycle NRMSE and in cycle energy error (validation when given); a metric's values
       within TIE_REL tie in it, equal sums are ties (same rank, shown). "best" names the tied family with the
       fewest parameters (then the lowest cycle NRMSE); the ties are listed with it. */
    for (int a = 0; a < NFAM; a++) {
        if (!row[a].fitted)
            continue;
        double na = val ? row[a].v_c_nrmse : row[a].c_nrmse, ea = val ? row[a].v_eerr : row[a].eerr;
        int rn = 1, re = 1;
        for (int b = 0; b < NFAM; b++) {
            if (!row[b].fitted || b == a)
                continue;
            rn += cmp_metric(val ? row[b].v_c_nrmse : row[b].c_nrmse, na) < 0;
            re += cmp_metric(val ? row[b].v_eerr : row[b].eerr, ea) < 0;
        }
        row[a].rank_score = rn + re;
    }
    for (int a = 0; a < NFAM; a++) {
        if (!row[a].fitted)
            continue;
        row[a].rank = 1;
        for (int b = 0; b < NFAM; b++) {
            if (!row[b].fitted || b == a)
                continue;
            row[a].rank += row[b].rank_score < row[a].rank_score;
            row[a].tied |= row[b].rank_score == row[a].rank_score;
        }
    }
    int best = -1, n_best = 0;
    for (int a = 0; a < NFAM; a++) {
        if (!row[a].fitted || row[a].rank != 1)
            continue;
        n_best++;
        if (best < 0 || row[a].np < row[best].np ||
            (row[a].np == row[best].np && (val ? row[a].v_c_nrmse < row[best].v_c_nrmse
                                               : row[a].c_nrmse < row[best].c_nrmse)))
            best = a;
    }

    printf("fit all of %s: %zu samples, %zu cycles%s%s\n\n", s.source, s.n, L.n_cyc, val ? "; validation on " : "",
           val ? v.source : "");
    printf("%-6s %6s %4s %10s %10s %9s %9s %12s %12s", "family", "rank", "p", "NRMSE [%]", "cyc NRMSE", "E ratio",
           "cyc E err", "AIC", "BIC");
    if (val)
        printf(" %14s %14s %12s %12s", "val NRMSE [%]", "val cyc NRMSE", "val E ratio", "val cyc E err");
    printf("\n");
    for (int k = 0; k < NFAM; k++) {
        if (!use[k])
            continue;
        if (!row[k].fitted) {
            printf("%-6s %5s (fit failed)\n", fam_name[k], "-");
            continue;
        }
        fam_row *r = &row[k];
        char rk[16];
        snprintf(rk, sizeof rk, "%d%s", r->rank, r->tied ? "=" : "");
        printf("%-6s %6s %4d %10.4g %10.4g %9.4g %9.4g %12.6g %12.6g", fam_name[k], rk, r->np, 100 * r->nrmse,
               100 * r->c_nrmse, r->eratio, r->eerr, r->aic, r->bic);
        if (val)
            printf(" %14.4g %14.4g %12.4g %12.4g", 100 * r->v_nrmse, 100 * r->v_c_nrmse, r->v_eratio, r->v_eerr);
        printf("\n");
    }
    printf("\nrank: sum of the ranks in cycle NRMSE [%%] and cycle energy error (%s; the energy error is weighted by\n"
           "each cycle's measured energy); values within %g %% tie; '=' marks a tie. AIC and BIC (in-sample, on the\n"
           "same replay residuals as NRMSE) are shown for information and do not enter the rank.\n",
           val ? "on the validation record" : "in-sample", 100 * TIE_REL);
    printf("best: %s (%s)", fam_name[best], row[best].path);
    if (n_best > 1) {
        printf("; tied with");
        for (int a = 0; a < NFAM; a++)
            if (row[a].fitted && row[a].rank == 1 && a != best)
                printf(" %s", fam_name[a]);
        printf(" (named: the fewest parameters)");
    }
    printf("\n");

    if (md) {
        hy_atomic a;
        if ((rc = tool_out_open(CMD, &a, md, data, NULL)) != HY_EXIT_OK)
            goto out;
        fprintf(a.fp, "| family | rank | parameters | NRMSE [%%] | cycle NRMSE [%%] | energy ratio | cycle energy error "
                "(energy-weighted) | AIC | BIC%s |\n",
                val ? " | validation NRMSE [%] | validation cycle NRMSE [%] | validation energy ratio | validation cycle "
                      "energy error" : "");
        fprintf(a.fp, "|---|---|---|---|---|---|---|---|---%s|\n", val ? "|---|---|---|---" : "");
        for (int k = 0; k < NFAM; k++) {
            if (!use[k])
                continue;
            if (!row[k].fitted) {
                fprintf(a.fp, "| %s | - | fit failed | | | | | | %s|\n", fam_name[k], val ? "| | | | " : "");
                continue;
            }
            fam_row *r = &row[k];
            fprintf(a.fp, "| %s | %d%s | %d | %.4g | %.4g | %.4g | %.4g | %.6g | %.6g", fam_name[k], r->rank,
                    r->tied ? " (tie)" : "", r->np, 100 * r->nrmse, 100 * r->c_nrmse, r->eratio, r->eerr, r->aic,
                    r->bic);
            if (val)
                fprintf(a.fp, " | %.4g | %.4g | %.4g | %.4g", 100 * r->v_nrmse, 100 * r->v_c_nrmse, r->v_eratio,
                        r->v_eerr);
            fprintf(a.fp, " |\n");
        }
        rc = tool_out_commit(CMD, &a);
    }
    if (json) {
        cJSON *doc = cJSON_CreateObject(), *arr = doc ? cJSON_AddArrayToObject(doc, "families") : NULL;
        if (doc) {
            cJSON_AddStringToObject(doc, "data", s.source);
            if (val)
                cJSON_AddStringToObject(doc, "validation", v.source);
            cJSON_AddStringToObject(doc, "best", fam_name[best]);
            cJSON *tl = cJSON_AddArrayToObject(doc, "tied_best");  /* every family ranked first, "best" among them */
            for (int a = 0; tl && a < NFAM; a++)
                if (row[a].fitted && row[a].rank == 1)
                    cJSON_AddItemToArray(tl, cJSON_CreateString(fam_name[a]));
            cJSON_AddStringToObject(doc, "rank", "sum of the ranks in cycle NRMSE and energy-weighted cycle energy "
                                    "error; values within 2 % tie; AIC and BIC do not enter it");
            cJSON_AddItemToObject(doc, "energy_tolerance", hy_json_exact_number(etol));
        }
        for (int k = 0; arr && k < NFAM; k++) {
            if (!use[k])
                continue;
            cJSON *o = cJSON_CreateObject();
            if (!o)
                break;
            cJSON_AddItemToArray(arr, o);
            cJSON_AddStringToObject(o, "family", fam_name[k]);
            cJSON_AddBoolToObject(o, "fitted", row[k].fitted);
            if (!row[k].fitted)
                continue;
            fam_row *r = &row[k];
            cJSON_AddStringToObject(o, "model", r->path);
            cJSON_AddNumberToObject(o, "rank", r->rank);
            cJSON_AddBoolToObject(o, "tied", r->tied);
            cJSON_AddNumberToObject(o, "parameters", r->np);
            cJSON_AddItemToObject(o, "nrmse", hy_json_exact_number(r->nrmse));
            cJSON_AddItemToObject(o, "cycle_nrmse", hy_json_exact_number(r->c_nrmse));
            cJSON_AddItemToObject(o, "energy_ratio", hy_json_exact_number(r->eratio));
            cJSON_AddItemToObject(o, "cycle_energy_error", hy_json_exact_number(r->eerr));
            cJSON *ce = cJSON_AddArrayToObject(o, "cycle_energy_errors"); /* per cycle, unweighted */
            for (size_t c = 0; ce && r->cyc_err && c < r->n_cyc; c++)
                cJSON_AddItemToArray(ce, hy_json_exact_number(r->cyc_err[c]));
            cJSON_AddItemToObject(o, "aic", hy_json_exact_number(r->aic));
            cJSON_AddItemToObject(o, "bic", hy_json_exact_number(r->bic));
            if (val) {
                cJSON_AddItemToObject(o, "validation_nrmse", hy_json_exact_number(r->v_nrmse));
                cJSON_AddItemToObject(o, "validation_cycle_nrmse", hy_json_exact_number(r->v_c_nrmse));
                cJSON_AddItemToObject(o, "validation_energy_ratio", hy_json_exact_number(r->v_eratio));
                cJSON_AddItemToObject(o, "validation_cycle_energy_error", hy_json_exact_number(r->v_eerr));
            }
        }
        char *text = doc ? hy_json_print(doc) : NULL;
        cJSON_Delete(doc);
        hy_atomic a;
        if (!text) {
            rc = hy_cli_fail(CMD, "out of memory");
        } else if ((rc = tool_out_open(CMD, &a, json, data, NULL)) == HY_EXIT_OK) {
            fputs(text, a.fp);
            fputc('\n', a.fp);
            rc = tool_out_commit(CMD, &a);
        }
        free(text);
    }
    if (plot && rc == HY_EXIT_OK) {
        char *av[128];
        int ac = 0;
        av[ac++] = "plot";
        av[ac++] = "all";
        for (int i = 0; i < npass; i++)
            av[ac++] = pass[i];
        for (int k = 0; k < NFAM; k++)
            if (row[k].fitted)
                av[ac++] = row[k].path;
        av[ac++] = (char *)(val ? val : data);
        av[ac++] = "-o";
        av[ac++] = (char *)plot;
        av[ac] = NULL;
        if (hy_cmd_plot(ac, av) != HY_EXIT_OK)
            rc = HY_EXIT_FAIL;
    }
    for (int k = 0; k < NFAM; k++) {
        hy_model_free(&row[k].model);
        free(row[k].cyc_err);
    }
out:
    hy_loops_free(&L);
    if (val)
        hy_loops_free(&LV);
    hy_series_free(&s);
    hy_series_free(&v);
    return rc;
}

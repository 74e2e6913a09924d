// hyst fit bw, bwbn, iwan, clough: identify a Bouc-Wen, Bouc-Wen-Baber-Noori, Iwan or peak-oriented model by nonlinear least squares on the replayed force
// (docs/fit-families.md).
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>
#include "cli.h"
#include "hyst/famfit.h"
#include "hyst/iwan.h"
#include "hyst/model.h"
#include "hyst/util.h"

static void usage(FILE *fp, const char *cmd)
{
    fprintf(fp,
            "usage: hyst %s [OPTIONS] DATA.csv [-o MODEL.json]\n"
            "\n"
            "Identifies a %s model by nonlinear least squares on the force replayed along the measured\n"
            "displacement (GSL multifit_nlinear, Levenberg-Marquardt with geodesic acceleration), from several\n"
            "starts around a guess taken from the loops (elastic stiffness of the unloading branches, backbone\n"
            "tip). Parameters are reported with standard errors from the Jacobian. See docs/fit-families.md.\n"
            "\n"
            "options:\n"
            "  -o, --output FILE  model file (hyst-model JSON; default: standard output)\n"
            "  --report FILE      write the fit report as JSON (- for standard output); it is also stored in\n"
            "                     the model file under \"fit\"\n"
            "  --n N|free         Bouc-Wen exponent: fixed at an integer 1..20, or free (default: fitted in 1..10);\n"
            "                     for bwbn it fixes the Bouc-Wen fit the pinching starts from\n"
            "  --elements N       Iwan: Jenkins elements of the Segalman discretisation (2..%d; default: doubled\n"
            "                     from 32 until no parameter moves by 0.1 standard error, reported)\n"
            "  --starts S         number of starts (1..4, default 3)\n"
            "  --max-iter N       iteration cap of each solve (default 200)\n"
            "  --energy-tol TOL   warn about cycles whose predicted energy is off by more than TOL (default 0.1)\n"
            "  --bootstrap N      N refits with the record's blocks resampled (block length from the residuals,\n"
            "                     Politis-White; at least %d cycles): 90 %% percentile-t intervals of the\n"
            "                     parameters, percentile intervals of each cycle's energy\n"
            "  --seed S           seed of the bootstrap's draws (default 1)\n"
            "  --bootstrap-dir D  also write every refitted model as D/boot-NNNN.json (created when missing), to\n"
            "                     run a simulator with each and get an interval of its output\n"
            "  -q, --quiet        no summary on standard output\n"
            "  -h, --help         this help\n"
            "\n"
            "%s%s"
            "\n"
            "Exit status: 0 success, 1 unusable data or no convergence (with the last state), 2 usage.\n",
            cmd, strcmp(cmd, "fit bw") == 0 ? "Bouc-Wen"
                 : strcmp(cmd, "fit bwbn") == 0 ? "Bouc-Wen-Baber-Noori (degradation and Foliente pinching;\n"
                                                  "started from the Bouc-Wen fit, docs/bw-model.md)"
                 : strcmp(cmd, "fit clough") == 0 ? "peak-oriented multilinear (modified Clough with a pinch\n"
                                                    "factor; docs/clough-model.md)"
                                                  : "Iwan (Segalman four-parameter)", HY_IWAN_MAX,
            HY_FAMFIT_BOOT_MIN_CYCLES,
            hy_cli_loops_help, hy_cli_data_help);
}

// (result, options, source) => fit report JSON
cJSON *hy_cli_famfit_report(const hy_famfit_result *r, const hy_famfit_opts *o, const char *source)
{
    cJSON *rep = cJSON_CreateObject();
    if (!rep)
        return NULL;
    const hy_replay_metrics *M = &r->metrics;
    cJSON_AddStringToObject(rep, "family", hy_model_family(&r->model));
    cJSON_AddStringToObject(rep, "source", source);
    cJSON_AddNumberToObject(rep, "samples", (double)M->n);
    cJSON_AddStringToObject(rep, "solver", "gsl multifit_nlinear (lmaccel)");
    cJSON_AddNumberToObject(rep, "starts", r->starts_run);
    cJSON_AddNumberToObject(rep, "starts_converged", r->starts_converged);
    cJSON_AddNumberToObject(rep, "iterations", r->iterations);
    cJSON_AddItemToObject(rep, "nrmse", hy_json_exact_number(M->nrmse));
    cJSON_AddItemToObject(rep, "rms_error", hy_json_exact_number(M->rms_error));
    cJSON_AddItemToObject(rep, "sum_of_squares", hy_json_exact_number(r->cost));
    cJSON_AddItemToObject(rep, "energy_measured", hy_json_exact_number(M->energy_measured));
    cJSON_AddItemToObject(rep, "energy_model", hy_json_exact_number(M->energy_model));
    cJSON_AddItemToObject(rep, "energy_ratio", hy_json_exact_number(M->energy_ratio));
    cJSON *guess = cJSON_AddObjectToObject(rep, "initial_guess");
    if (guess) {
        cJSON_AddItemToObject(guess, "elastic_stiffness", hy_json_exact_number(r->k0));
        cJSON_AddItemToObject(guess, "peak_force", hy_json_exact_number(r->F0));
        cJSON_AddItemToObject(guess, "peak_displacement", hy_json_exact_number(r->q0));
    }
    cJSON *par = cJSON_AddObjectToObject(rep, "parameters");
    for (int i = 0; par && i < r->np; i++) {
        cJSON *p = cJSON_AddObjectToObject(par, r->name[i]);
        if (p) {
            cJSON_AddItemToObject(p, "value", hy_json_exact_number(r->value[i]));
            if (r->at_bound[i])
                cJSON_AddTrueToObject(p, "at_bound"); /* no standard error holds at a bound */
            else
                cJSON_AddItemToObject(p, "se", hy_json_exact_number(r->se[i]));
        }
    }
    if (r->elements) { /* Iwan: the discretisation and how much the last doubling moved the parameters */
        cJSON *dz = cJSON_AddObjectToObject(rep, "discretisation");
        if (dz) {
            cJSON_AddNumberToObject(dz, "elements", r->elements);
            cJSON_AddItemToObject(dz, "last_doubling_change_over_se", hy_json_exact_number(r->disc_change));
            cJSON_AddStringToObject(dz, "rule", o->iwan_N ? "fixed by --elements" : "doubled from 32 until no "
                                    "parameter moves by 0.1 standard error");
        }
    }
    cJSON *cyc = cJSON_AddArrayToObject(rep, "cycles");
    for (size_t i = 0; cyc && i < M->n_cyc; i++) {
        cJSON *c = cJSON_CreateObject();
        if (!c)
            break;
        cJSON_AddItemToObject(c, "energy_measured", hy_json_exact_number(M->cyc[i].energy_measured));
        cJSON_AddItemToObject(c, "energy_model", hy_json_exact_number(M->cyc[i].energy_model));
        cJSON_AddItemToObject(c, "energy_ratio", hy_json_exact_number(M->cyc[i].energy_ratio));
        cJSON_AddItemToObject(c, "rms_error", hy_json_exact_number(M->cyc[i].rms_error));
        cJSON_AddItemToArray(cyc, c);
    }
    cJSON_AddItemToObject(rep, "energy_tolerance", hy_json_exact_number(o->energy_tol));
    size_t worst[5];
    size_t nw = hy_energy_outliers(M, o->energy_tol, worst, 5);
    cJSON *w = cJSON_AddArrayToObject(rep, "energy_outliers");
    for (size_t i = 0; w && i < nw && i < 5; i++)
        cJSON_AddItemToArray(w, cJSON_CreateNumber((double)worst[i] + 1));
    return rep;
}

// (metrics, tolerance, command, source) => the energy warning naming the worst cycles (1-based), when any
void hy_cli_energy_warning(const char *cmd, const char *source, const hy_replay_metrics *M, double tol)
{
    size_t worst[3];
    size_t nw = hy_energy_outliers(M, tol, worst, 3);
    if (!nw)
        return;
    char buf[200];
    int len = 0;
    for (size_t i = 0; i < nw && i < 3; i++)
        len += snprintf(buf + len, sizeof buf - (size_t)len, "%scycle %zu (ratio %.3g)", i ? ", " : "",
                        worst[i] + 1, M->cyc[worst[i]].energy_ratio);
    hy_cli_warn(cmd, "%s: %zu of %zu cycles have a predicted energy off by more than %g %% of the measured; "
                "worst: %s", source, nw, M->n_cyc, 100 * tol, buf);
}

// (command, record, fitted model, loop options) => the energy warning for a model fitted by another command
// (fit pwl, fit kin): replayed on the record, cycles from the measured loops; silent when anything fails
void hy_cli_energy_check(const char *cmd, const hy_series *s, const hy_model *m, const hy_loops_opts *lo)
{
    hy_loops L;
    hy_err err;
    if (hy_loops_analyze(s->q, s->Q, s->n, lo, &L, &err) != HY_OK)
        return;
    double *Qm = malloc(s->n * sizeof *Qm);
    size_t row;
    hy_diag d;
    hy_replay_metrics M;
    if (Qm && hy_replay_drive(m, s->t, s->q, s->n, Qm, NULL, &row, &d, &err) == HY_OK &&
        hy_replay_metrics_compute(s->q, s->Q, Qm, s->n, L.cyc, L.n_cyc, &M, &err) == HY_OK) {
        hy_cli_energy_warning(cmd, s->source, &M, 0.10);
        hy_replay_metrics_free(&M);
    }
    free(Qm);
    hy_loops_free(&L);
}

static const char *usage_cmd;   /* the family's command word, for family_usage */

// (fp) => usage(fp, the family of this run), the prologue's usage callback
static void family_usage(FILE *fp)
{
    usage(fp, usage_cmd);
}

// (argc, argv) => exit status
int hy_cmd_fit_family(int argc, char **argv)
{
    const char *CMD = argv[0];
    usage_cmd = CMD;
    hy_csv_opts copts;
    hy_csv_opts_default(&copts);
    hy_famfit_opts o;
    hy_famfit_opts_default(&o);
    o.family = hy_famfit_family_parse(CMD + 4);
    const char *out = "-", *report_path = NULL, *bdir = NULL, *data = NULL, *n_text = NULL, *seed_text = NULL;
    const char *elements = NULL, *starts = NULL, *max_iter = NULL, *boot = NULL;
    int quiet = 0, n_boot = 0, have_etol = 0;
    double etol = 0;
    unsigned long long seed = 1;
    const hy_arg tab[] = {
        HY_OPT_STR("output", 'o', &out),          HY_OPT_STR("report", 0, &report_path),
        HY_OPT_STR("n", 0, &n_text),              HY_OPT_STR("elements", 0, &elements),
        HY_OPT_STR("starts", 0, &starts),         HY_OPT_STR("max-iter", 0, &max_iter),
        HY_OPT_DOUBLE("energy-tol", &etol, &have_etol), HY_OPT_FLAG("quiet", 'q', &quiet),
        HY_OPT_STR("bootstrap", 0, &boot),        HY_OPT_STR("seed", 0, &seed_text),
        HY_OPT_STR("bootstrap-dir", 0, &bdir),
        HY_CLI_DATA_OPTS(&copts, NULL),           HY_CLI_LOOPS_OPTS(&o.loops),
        HY_OPT_END};
    int go = tool_parse(CMD, family_usage, tab, argc, argv, "missing DATA.csv (the record to fit)", &data);
    if (go != TOOL_CLI_GO)
        return go;
    if (n_text && strcmp(n_text, "free") == 0)
        o.bw_n = 0;
    else if (n_text) {
        char *end = NULL;
        long v = strtol(n_text, &end, 10);
        if (end == n_text || *end || v < 1 || v > 20)
            return hy_cli_usage(CMD, "--n '%s': expected an integer from 1 to 20 or free", n_text);
        o.bw_n = (int)v;
    }
    if ((elements && tool_int_range(CMD, "elements", elements, 2, HY_IWAN_MAX, &o.iwan_N) != 0) ||
        (starts && tool_int_range(CMD, "starts", starts, 1, 4, &o.starts) != 0) ||
        (max_iter && tool_int_range(CMD, "max-iter", max_iter, 1, 100000, &o.max_iter) != 0) ||
        (boot && tool_int_range(CMD, "bootstrap", boot, 2, 100000, &n_boot) != 0))
        return HY_EXIT_USAGE;
    if (have_etol && !(etol > 0))
        return hy_cli_usage(CMD, "--energy-tol: expected a fraction > 0, got '%g'", etol);
    if (have_etol)
        o.energy_tol = etol;
    if (seed_text) {
        char *end = NULL;
        errno = 0;
        seed = strtoull(seed_text, &end, 10);
        if (end == seed_text || *end || seed_text[0] == '-' || errno)
            return hy_cli_usage(CMD, "--seed: '%s' is not an integer from 0 to 18446744073709551615", seed_text);
    }
    if (bdir && !n_boot)
        return hy_cli_usage(CMD, "--bootstrap-dir needs --bootstrap N");
    if ((go = hy_cli_fit_outputs(CMD, data, out, report_path)) != HY_EXIT_OK)
        return go;

    hy_series s;
    hy_series_init(&s);
    int rc = hy_cli_read_series(CMD, data, &copts, &s);
    if (rc != HY_EXIT_OK)
        return rc;
    if ((rc = hy_cli_condition(CMD, &s)) != HY_EXIT_OK ||
        (rc = hy_cli_check_record(CMD, &s, &o.loops, 1)) != HY_EXIT_OK) {
        hy_series_free(&s);
        return rc;
    }
    hy_famfit_result r;
    hy_err err;
    cJSON *rep = NULL;
    /* the fit and its bootstrap together under the limit; the estimate before each, the time after, the
       bootstrap's progress on a terminal (issue 42, N24) */
    hy_stage st;
    if ((rc = hy_cli_fit_begin(CMD, s.source, hy_cli_fit_seconds(CMD + 4, s.n, n_boot), s.n, n_boot, NULL)) !=
            HY_EXIT_OK ||
        (rc = hy_cli_fit_begin(CMD, s.source, hy_cli_fit_seconds(CMD + 4, s.n, 0), s.n, 0, &st)) != HY_EXIT_OK) {
        hy_series_free(&s);
        return rc;
    }
    int frc = hy_famfit_run(s.q, s.Q, s.n, &o, &r, &err);
    hy_stage_end(&st);
    if (frc != HY_OK) {
        rc = hy_cli_fail(CMD, "%s: %s", s.source, err.msg);
        hy_series_free(&s);
        return rc;
    }
    hy_cli_energy_warning(CMD, s.source, &r.metrics, o.energy_tol);
    hy_famfit_boot B;
    memset(&B, 0, sizeof B);
    int brc = HY_OK;
    if (n_boot) {
        hy_cli_boot_progress bp;
        hy_cli_boot_begin(&bp, CMD, hy_cli_fit_seconds(CMD + 4, s.n, n_boot) - hy_cli_fit_seconds(CMD + 4, s.n, 0),
                          n_boot);
        brc = hy_famfit_bootstrap_progress(s.q, s.Q, s.n, &o, &r, n_boot, seed, bdir != NULL, hy_cli_boot_step, &bp,
                                           &B, &err);
        hy_cli_boot_end(&bp);
    }
    if (brc != HY_OK) {
        rc = hy_cli_fail(CMD, "%s: --bootstrap: %s", s.source, err.msg);
        goto done;
    }
    if (bdir) {
        struct stat sb;
        if (mkdir(bdir, 0777) != 0 && (stat(bdir, &sb) != 0 || !S_ISDIR(sb.st_mode))) {
            rc = hy_cli_fail(CMD, "%s: --bootstrap-dir: cannot create the folder", bdir);
            goto done;
        }
        for (int i = 0; i < B.n_ok; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/boot-%04d.json", bdir, i + 1);
            snprintf(B.models[i].unit_q, sizeof B.models[i].unit_q, "%s", s.q_unit);
            snprintf(B.models[i].unit_Q, sizeof B.models[i].unit_Q, "%s", s.Q_unit);
            if ((rc = hy_cli_condition_provenance(CMD, &B.models[i])) != HY_EXIT_OK)
                goto done;
            if (hy_model_write(&B.models[i], path, strcmp(data, "-") ? data : NULL, &err) != HY_OK) {
                rc = hy_cli_fail(CMD, "%s", err.msg);
                goto done;
            }
        }
    }
    snprintf(r.model.unit_q, sizeof r.model.unit_q, "%s", s.q_unit);
    snprintf(r.model.unit_Q, sizeof r.model.unit_Q, "%s", s.Q_unit);
    rep = hy_cli_famfit_report(&r, &o, s.source);
    if (rep && n_boot) {
        cJSON *b = cJSON_AddObjectToObject(rep, "bootstrap");
        if (b) {
            cJSON_AddStringToObject(b, "method", "block bootstrap (block weights; block length from the residuals, "
                                    "Politis-White), 90 % percentile-t for the parameters (percentile at a bound and "
                                    "for the cycle energies)");
            cJSON_AddNumberToObject(b, "block_length", (double)B.block_len);
            cJSON_AddNumberToObject(b, "blocks", (double)B.n_blocks);
            cJSON_AddNumberToObject(b, "replicates", B.n_rep);
            cJSON_AddNumberToObject(b, "converged", B.n_ok);
            cJSON_AddNumberToObject(b, "seed", (double)seed);
            cJSON *par = cJSON_AddObjectToObject(b, "parameters");
            for (int i = 0; par && i < B.np; i++) {
                cJSON *a = cJSON_AddArrayToObject(par, r.name[i]);
                if (a) {
                    cJSON_AddItemToArray(a, hy_json_exact_number(B.lo[i]));
                    cJSON_AddItemToArray(a, hy_json_exact_number(B.hi[i]));
                }
            }
            cJSON *ce = cJSON_AddArrayToObject(b, "cycle_energy");
            for (size_t c = 0; ce && c < B.n_cyc; c++) {
                cJSON *a = cJSON_CreateArray();
                if (!a)
                    break;
                cJSON_AddItemToArray(a, hy_json_exact_number(B.e_lo[c]));
                cJSON_AddItemToArray(a, hy_json_exact_number(B.e_hi[c]));
                cJSON_AddItemToArray(ce, a);
            }
        }
    }
    r.model.extra = cJSON_CreateObject();
    if (!rep || !r.model.extra) {
        rc = hy_cli_fail(CMD, "out of memory");
        goto done;
    }
    cJSON_AddItemToObject(r.model.extra, "fit", cJSON_Duplicate(rep, 1));
    if ((rc = hy_cli_condition_provenance(CMD, &r.model)) != HY_EXIT_OK)
        goto done;
    if (hy_model_write(&r.model, out, strcmp(data, "-") ? data : NULL, &err) != HY_OK) {
        rc = hy_cli_fail(CMD, "%s", err.msg);
        goto done;
    }
    if (report_path) {
        rc = hy_cli_write_json(CMD, report_path, rep, strcmp(data, "-") ? data : NULL);
    }
    if (rc == HY_EXIT_OK && !quiet && strcmp(out, "-") != 0 && !(report_path && strcmp(report_path, "-") == 0)) {
        printf("%s of %s: %zu samples, %zu cycles; %d starts (%d converged), %d iterations\n", CMD, s.source, s.n,
               r.metrics.n_cyc, r.starts_run, r.starts_converged, r.iterations);
        printf("NRMSE %.4g %%, energy ratio %.4g (model / measured over the cycles)\n", 100 * r.metrics.nrmse,
               r.metrics.energy_ratio);
        for (int i = 0; i < r.np; i++) {
            if (r.at_bound[i])
                printf("  %-9s = %-14.8g (at a bound of its range: no standard error)", r.name[i], r.value[i]);
            else
                printf("  %-9s = %-14.8g +- %.3g", r.name[i], r.value[i], r.se[i]);
            if (n_boot)
                printf("   bootstrap 90 %%: [%.8g, %.8g]", B.lo[i], B.hi[i]);
            printf("\n");
        }
        if (r.elements && o.iwan_N)
            printf("Iwan elements: %d (fixed by --elements; its discretisation bias is not checked)\n", r.elements);
        else if (r.elements && isnan(r.disc_change))
            printf("Iwan elements: %d (the refit with %d did not converge: the discretisation bias is not "
                   "established)\n", r.elements, 2 * r.elements);
        else if (r.elements)
            printf("Iwan elements: %d (the last doubling moved the parameters by %.3g standard errors%s)\n",
                   r.elements, r.disc_change, r.disc_change < 0.1 ? "" : "; at the cap: the bias may exceed 0.1");
        if (n_boot)
            printf("bootstrap: %d of %d refits converged (seed %llu; blocks of %zu samples, percentile-t); cycle energy "
                   "intervals in the report\n", B.n_ok, B.n_rep, seed, B.block_len);
    }
done:
    hy_famfit_boot_free(&B);
    cJSON_Delete(rep);
    hy_famfit_result_free(&r);
    hy_series_free(&s);
    return rc;
}

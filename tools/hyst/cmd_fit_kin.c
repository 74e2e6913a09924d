// hyst fit kin: identify the kinematic hysteresis ODE df/dq = R(q, f) of spec 002 from a bench record.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "cli.h"
#include "hyst/fitmodel.h"
#include "hyst/kinfit.h"
#include "hyst/model.h"
#include "hyst/util.h"

static const char *const CMD = "fit kin";

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: hyst fit kin [OPTIONS] DATA.csv [-o MODEL.json]\n"
            "\n"
            "Identifies the kinematic hysteresis ODE df/dq = R(q, f) = sum C_ij q^i f^j (spec 002) from a\n"
            "bench record: slopes on every branch (stage A), coefficients by least squares on the scaled design\n"
            "matrix with QR/SVD (stage B), the order (k, m) chosen by the error of the trajectories integrated\n"
            "along the measured displacement history, then pruning of negligible terms. See docs/fit-kin.md.\n"
            "\n"
            "options:\n"
            "  -o, --output FILE  model file (hyst-model JSON; default: standard output)\n"
            "  --report FILE      write the fit report as JSON (- for standard output); it is also stored in\n"
            "                     the model file under \"fit\"\n"
            "  --k K, --m M       fix the number of q-powers / f-powers (1..8) instead of selecting them\n"
            "  --max-k K, --max-m M\n"
            "                     selection caps (1..8, default 8 and 8)\n"
            "  --rule RULE        symmetric (default: unloading follows R(-q, -f), the unloading branches are\n"
            "                     pooled with the loading ones) or two-set (independent loading and unloading\n"
            "                     coefficient sets)\n"
            "  --smooth S         stage-A slopes: a polynomial DEGREE (1..16) per branch, auto (default: degree\n"
            "                     by generalized cross-validation, at most --max-degree) or fd (finite\n"
            "                     differences, for dense clean data)\n"
            "  --max-degree D     largest degree tried by --smooth auto (default 10)\n"
            "  --branches B       all (default: every half-cycle, limit loop and inner branches) or limit (the\n"
            "                     limit loop only) feed stage B; the integrated error always uses the whole record\n"
            "  --min-branch FRAC  ignore half-cycles spanning less than FRAC of the q-range (default 0.05)\n"
            "  --rcond R          singular values below R * largest count as zero in stage B (default 1e-10)\n"
            "  --select-tol TOL   accept the smallest model within TOL (relative) of the best NRMSE (default 0.05)\n"
            "  --prune-tol TOL    drop a term when the NRMSE stays within TOL (relative) of the selected\n"
            "                     model's (default 0.01)\n"
            "  --no-prune         keep every term of the selected (k, m)\n"
            "  --refine           refine the coefficients by Levenberg-Marquardt on the integrated error\n"
            "  --refine-iter N    iteration cap of --refine (default 30)\n"
            "  -q, --quiet        no summary on standard output\n"
            "  -h, --help         this help\n"
            "\n"
            "%s%s"
            "\n"
            "Exit status: 0 success, 1 unusable data (named with the reason), 2 usage.\n",
            hy_cli_loops_help, hy_cli_data_help);
}

// (fp, record, result) => the fit's summary
static void summary(FILE *fp, const hy_series *s, const hy_kinfit_result *r)
{
    const char *qu = s->q_unit[0] ? s->q_unit : "q units", *fu = s->Q_unit[0] ? s->Q_unit : "force units";
    fprintf(fp, "fit kin of %s: %zu samples, %zu branches (%zu points) for stage B\n", s->source, s->n,
            r->n_branches, r->n_points);
    fprintf(fp, "chosen (k, m) = (%d, %d), %d terms kept%s; stage B: condition number %.4g, effective rank %d\n",
            r->k_sel, r->m_sel,
            __builtin_popcountll(r->mask_load) + __builtin_popcountll(r->mask_unload),
            r->spec.rule == HY_KIN_TWO_SET ? " (both sets)" : "", r->lsq_load.cond, r->lsq_load.rank);
    fprintf(fp, "integrated-trajectory NRMSE %.4g %% (selected %.4g %%%s), max |error| %.6g %s\n",
            100.0 * r->score.nrmse, 100.0 * r->score_selected.nrmse, r->refined ? ", refined" : "",
            r->score.max_abs, fu);
    const hy_kinfit_checks *c = &r->checks;
    fprintf(fp, "checks: attraction %s (largest rate %.4g per %s), steady loop over [%g, %g] %s: energy %.6g, "
                "closure %.2g\n",
            c->attract_ok ? "ok" : "FAILS", c->attract_max, qu, c->q_min, c->q_max, c->range.ok ? "ok" : "FAILS",
            c->range.energy, c->range.closure);
}

// (argc, argv) => exit status
int hy_cmd_fit_kin(int argc, char **argv)
{
    static const char *const rules[] = {"symmetric", "two-set", NULL}, *const branch_sets[] = {"all", "limit", NULL};
    hy_csv_opts copts;
    hy_csv_opts_default(&copts);
    hy_kinfit_opts o;
    hy_kinfit_opts_default(&o);
    const char *out = "-", *report_path = NULL, *data = NULL, *smooth = NULL;
    const char *ints[6] = {NULL};   /* --k, --m, --max-k, --max-m, --max-degree, --refine-iter */
    double nonneg[4];               /* --min-branch, --rcond, --select-tol, --prune-tol */
    int given[4] = {0}, quiet = 0, rule = 0, branches = 0, no_prune = 0;
    const hy_arg tab[] = {
        HY_OPT_STR("output", 'o', &out),            HY_OPT_STR("report", 0, &report_path),
        HY_OPT_STR("k", 0, &ints[0]),               HY_OPT_STR("m", 0, &ints[1]),
        HY_OPT_STR("max-k", 0, &ints[2]),           HY_OPT_STR("max-m", 0, &ints[3]),
        HY_OPT_STR("max-degree", 0, &ints[4]),      HY_OPT_STR("refine-iter", 0, &ints[5]),
        HY_OPT_CHOICE("rule", &rule, rules),        HY_OPT_STR("smooth", 0, &smooth),
        HY_OPT_CHOICE("branches", &branches, branch_sets),
        HY_OPT_DOUBLE("min-branch", &nonneg[0], &given[0]), HY_OPT_DOUBLE("rcond", &nonneg[1], &given[1]),
        HY_OPT_DOUBLE("select-tol", &nonneg[2], &given[2]), HY_OPT_DOUBLE("prune-tol", &nonneg[3], &given[3]),
        HY_OPT_FLAG("no-prune", 0, &no_prune),      HY_OPT_FLAG("refine", 0, &o.refine),
        HY_OPT_FLAG("quiet", 'q', &quiet),
        HY_CLI_DATA_OPTS(&copts, NULL),             HY_CLI_LOOPS_OPTS(&o.loops),
        HY_OPT_END};
    int go = tool_parse(CMD, usage, tab, argc, argv, "missing DATA.csv (hyst fit kin DATA.csv -o MODEL.json)", &data);
    if (go != TOOL_CLI_GO)
        return go;
    static const char *const int_names[6] = {"k", "m", "max-k", "max-m", "max-degree", "refine-iter"};
    int *int_dst[6] = {&o.k, &o.m, &o.max_k, &o.max_m, &o.max_degree, &o.refine_iter};
    const int int_hi[6] = {HY_KIN_MAX, HY_KIN_MAX, HY_KIN_MAX, HY_KIN_MAX, HY_KINFIT_MAX_DEGREE, 1000};
    for (int k = 0; k < 6; k++)
        if (ints[k] && tool_int_range(CMD, int_names[k], ints[k], 1, int_hi[k], int_dst[k]) != 0)
            return HY_EXIT_USAGE;
    if (smooth && strcmp(smooth, "auto") == 0)
        o.smooth = HY_KINFIT_SMOOTH_AUTO;
    else if (smooth && strcmp(smooth, "fd") == 0)
        o.smooth = HY_KINFIT_SMOOTH_FD;
    else if (smooth) {
        char *end = NULL;
        long d = strtol(smooth, &end, 10);
        if (end == smooth || *end != '\0' || d < 1 || d > HY_KINFIT_MAX_DEGREE)
            return hy_cli_usage(CMD, "--smooth '%s': expected a degree from 1 to %d, auto or fd", smooth,
                                HY_KINFIT_MAX_DEGREE);
        o.smooth = (int)d;
    }
    if (rule)
        o.rule = rule == 1 ? HY_KIN_SYMMETRIC : HY_KIN_TWO_SET;
    if (branches)
        o.branches = branches == 1 ? HY_KINFIT_BRANCHES_ALL : HY_KINFIT_BRANCHES_LIMIT;
    static const char *const nn_names[4] = {"min-branch", "rcond", "select-tol", "prune-tol"};
    double *nn_dst[4] = {&o.min_branch, &o.rcond, &o.select_tol, &o.prune_tol};
    for (int k = 0; k < 4; k++) {
        if (!given[k])
            continue;
        if (nonneg[k] < 0)
            return hy_cli_usage(CMD, "--%s: expected a non-negative number, got '%g'", nn_names[k], nonneg[k]);
        *nn_dst[k] = nonneg[k];
    }
    if (given[0] && o.min_branch >= 1)
        return hy_cli_usage(CMD, "--min-branch: expected a fraction below 1, got '%g'", o.min_branch);
    if (no_prune)
        o.prune = 0;
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
    hy_kinfit_result *r = calloc(1, sizeof *r);
    if (!r) {
        hy_series_free(&s);
        return hy_cli_fail(CMD, "out of memory");
    }
    hy_err err;
    hy_model m;
    memset(&m, 0, sizeof m);
    cJSON *rep = NULL;
    hy_stage st; /* the estimate before a long fit, the time after (issue 42, N24) */
    if ((rc = hy_cli_fit_begin(CMD, s.source, hy_cli_fit_seconds("kin", s.n, 0), s.n, 0, &st)) != HY_EXIT_OK)
        goto done;
    int frc = hy_kinfit_model(&s, &o, r, &m, &err);
    hy_stage_end(&st);
    if (frc != HY_OK) {
        rc = hy_cli_fail(CMD, "%s", err.msg);
        goto done;
    }
    for (int w = 0; w < r->n_warnings; w++)
        hy_cli_warn(CMD, "%s: %s", s.source, r->warning[w]);
    rep = cJSON_GetObjectItem(m.extra, "fit");
    if ((rc = hy_cli_condition_provenance(CMD, &m)) != HY_EXIT_OK)
        goto done;
    if (hy_model_write(&m, out, strcmp(data, "-") ? data : NULL, &err) != HY_OK) {
        rc = hy_cli_fail(CMD, "%s", err.msg);
        goto done;
    }
    hy_cli_energy_check(CMD, &s, &m, &o.loops); /* cycle energies off by > 10 %: warn, name the worst */
    if (report_path) {
        rc = hy_cli_write_json(CMD, report_path, rep, strcmp(data, "-") ? data : NULL);
    }
    if (rc == HY_EXIT_OK && !quiet && strcmp(out, "-") != 0 && !(report_path && strcmp(report_path, "-") == 0))
        summary(stdout, &s, r);
done:
    hy_model_free(&m);
    free(r);
    hy_series_free(&s);
    return rc;
}

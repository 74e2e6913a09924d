// hyst fit kin: identify the kinematic hysteresis ODE df/dq = R(q, f) of spec 002 from a bench record.
#include <getopt.h>
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

// (text, name, range) => integer in [lo, hi], or a usage message and -1
static int int_opt(const char *opt, const char *text, int lo, int hi, int *out)
{
    char *end = NULL;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < lo || v > hi) {
        hy_cli_usage(CMD, "--%s: expected an integer %d..%d, got '%s'", opt, lo, hi, text);
        return -1;
    }
    *out = (int)v;
    return 0;
}

// (text, name) => non-negative finite double
static int nonneg_opt(const char *opt, const char *text, double *out)
{
    if (hy_cli_double(CMD, opt, text, out) != 0)
        return -1;
    if (*out < 0) {
        hy_cli_usage(CMD, "--%s: expected a non-negative number, got '%s'", opt, text);
        return -1;
    }
    return 0;
}

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
    enum {
        OPT_REPORT = 1, OPT_K, OPT_M, OPT_MAXK, OPT_MAXM, OPT_RULE, OPT_SMOOTH, OPT_MAXDEG, OPT_BRANCHES,
        OPT_MINBR, OPT_RCOND, OPT_SELTOL, OPT_PRUNETOL, OPT_NOPRUNE, OPT_REFINE, OPT_REFITER
    };
    static const struct option longopts[] = {
        {"output", required_argument, 0, 'o'},
        {"report", required_argument, 0, OPT_REPORT},
        {"k", required_argument, 0, OPT_K},
        {"m", required_argument, 0, OPT_M},
        {"max-k", required_argument, 0, OPT_MAXK},
        {"max-m", required_argument, 0, OPT_MAXM},
        {"rule", required_argument, 0, OPT_RULE},
        {"smooth", required_argument, 0, OPT_SMOOTH},
        {"max-degree", required_argument, 0, OPT_MAXDEG},
        {"branches", required_argument, 0, OPT_BRANCHES},
        {"min-branch", required_argument, 0, OPT_MINBR},
        {"rcond", required_argument, 0, OPT_RCOND},
        {"select-tol", required_argument, 0, OPT_SELTOL},
        {"prune-tol", required_argument, 0, OPT_PRUNETOL},
        {"no-prune", no_argument, 0, OPT_NOPRUNE},
        {"refine", no_argument, 0, OPT_REFINE},
        {"refine-iter", required_argument, 0, OPT_REFITER},
        {"quiet", no_argument, 0, 'q'},
        {"help", no_argument, 0, 'h'},
        HY_CLI_DATA_LONGOPTS,
        HY_CLI_LOOPS_LONGOPTS,
        {0, 0, 0, 0},
    };
    hy_csv_opts copts;
    hy_csv_opts_default(&copts);
    hy_kinfit_opts o;
    hy_kinfit_opts_default(&o);
    const char *out = "-", *report_path = NULL;
    int quiet = 0, opt, bad = 0;
    optind = 1;
    while (!bad && (opt = getopt_long(argc, argv, "ho:q", longopts, NULL)) != -1) {
        int used = hy_cli_data_option(CMD, opt, optarg, &copts);
        if (!used)
            used = hy_cli_loops_option(CMD, opt, optarg, &o.loops);
        if (used < 0)
            return HY_EXIT_USAGE;
        if (used)
            continue;
        switch (opt) {
        case 'h':
            usage(stdout);
            return HY_EXIT_OK;
        case 'o':
            out = optarg;
            break;
        case 'q':
            quiet = 1;
            break;
        case OPT_REPORT:
            report_path = optarg;
            break;
        case OPT_K:
            bad = int_opt("k", optarg, 1, HY_KIN_MAX, &o.k);
            break;
        case OPT_M:
            bad = int_opt("m", optarg, 1, HY_KIN_MAX, &o.m);
            break;
        case OPT_MAXK:
            bad = int_opt("max-k", optarg, 1, HY_KIN_MAX, &o.max_k);
            break;
        case OPT_MAXM:
            bad = int_opt("max-m", optarg, 1, HY_KIN_MAX, &o.max_m);
            break;
        case OPT_RULE:
            if (strcmp(optarg, "symmetric") == 0)
                o.rule = HY_KIN_SYMMETRIC;
            else if (strcmp(optarg, "two-set") == 0)
                o.rule = HY_KIN_TWO_SET;
            else
                return hy_cli_usage(CMD, "--rule: expected symmetric or two-set, got '%s'", optarg);
            break;
        case OPT_SMOOTH:
            if (strcmp(optarg, "auto") == 0)
                o.smooth = HY_KINFIT_SMOOTH_AUTO;
            else if (strcmp(optarg, "fd") == 0)
                o.smooth = HY_KINFIT_SMOOTH_FD;
            else {
                char *end = NULL;
                long d = strtol(optarg, &end, 10);
                if (end == optarg || *end != '\0' || d < 1 || d > HY_KINFIT_MAX_DEGREE)
                    return hy_cli_usage(CMD, "--smooth: expected a degree 1..%d, auto or fd, got '%s'",
                                        HY_KINFIT_MAX_DEGREE, optarg);
                o.smooth = (int)d;
            }
            break;
        case OPT_MAXDEG:
            bad = int_opt("max-degree", optarg, 1, HY_KINFIT_MAX_DEGREE, &o.max_degree);
            break;
        case OPT_BRANCHES:
            if (strcmp(optarg, "all") == 0)
                o.branches = HY_KINFIT_BRANCHES_ALL;
            else if (strcmp(optarg, "limit") == 0)
                o.branches = HY_KINFIT_BRANCHES_LIMIT;
            else
                return hy_cli_usage(CMD, "--branches: expected all or limit, got '%s'", optarg);
            break;
        case OPT_MINBR:
            bad = nonneg_opt("min-branch", optarg, &o.min_branch);
            if (!bad && o.min_branch >= 1)
                return hy_cli_usage(CMD, "--min-branch: expected a fraction below 1, got '%s'", optarg);
            break;
        case OPT_RCOND:
            bad = nonneg_opt("rcond", optarg, &o.rcond);
            break;
        case OPT_SELTOL:
            bad = nonneg_opt("select-tol", optarg, &o.select_tol);
            break;
        case OPT_PRUNETOL:
            bad = nonneg_opt("prune-tol", optarg, &o.prune_tol);
            break;
        case OPT_NOPRUNE:
            o.prune = 0;
            break;
        case OPT_REFINE:
            o.refine = 1;
            break;
        case OPT_REFITER:
            bad = int_opt("refine-iter", optarg, 1, 1000, &o.refine_iter);
            break;
        default:
            return hy_cli_usage(CMD, "unknown option");
        }
    }
    if (bad)
        return HY_EXIT_USAGE;
    if (argc - optind != 1)
        return hy_cli_usage(CMD, "expected one DATA.csv (got %d file arguments)", argc - optind);
    const char *data = argv[optind];
    if (hy_cli_report_and_model(CMD, report_path, out) != HY_EXIT_OK)
        return HY_EXIT_USAGE;

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

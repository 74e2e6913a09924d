/* mech calibrate CONFIG.json [-o DIR] [-q] (docs/calibrate.md): scenario keys identified from measured runs by
 * the library's mech_calib_solve; the calibrated scenario and the report written atomically into DIR. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cjson/cJSON.h>
#include "hyst/model.h"
#include "hyst/util.h"
#include "mech/calib.h"
#include "mech/dock.h"
#include "mech_cli.h"

static void usage(FILE *fp)
{
    fputs("usage: mech calibrate CONFIG.json [-o DIR] [-j N] [-q]\n"
          "\n"
          "Identify named keys of a docking scenario from measured dynamic runs (stand tests) by nonlinear least\n"
          "squares with the simulator in the loop (GSL multifit_nlinear, trust-region Levenberg-Marquardt; bounds by\n"
          "the sine transform; finite-difference Jacobian; a time offset per record and channel fitted too), with\n"
          "standard errors and correlations from the Jacobian, and the calibrated model checked on validation runs\n"
          "not used in the fit. CONFIG is a \"mech-calibrate\" JSON file (docs/calibrate.md); a run's \"filter\"\n"
          "(the acquisition's anti-alias Butterworth: order, cut-off) is applied to its simulated channels.\n"
          "\n"
          "Outputs, in DIR (default out/STEM), written atomically:\n"
          "  calibrated.json    the scenario with the calibrated keys (a mech-dock file)\n"
          "  calibration.json   keys, standard errors, correlations, per run and channel the time offset, NRMSE\n"
          "                     and noise floor at the start and at the optimum, iterations, simulated runs\n"
          "\n"
          "options:\n"
          "  -o, --out DIR      output folder (created when missing)\n"
          "  -j, --jobs N       processes computing the Jacobian's key columns at once (default 1; the results are\n"
          "                     the same bits for any N)\n"
          "  -q, --quiet        no table on standard output\n",
          fp);
}

static cJSON *num(double v)
{
    return isfinite(v) ? hy_json_exact_number(v) : cJSON_CreateNull();
}

static cJSON *chstat_json(const mech_calib_run *r, int c, const mech_calib_chstat *s, const mech_calib_chstat *s0)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", r->rec.name[c]);
    cJSON_AddStringToObject(o, "channel", r->chname[c]);
    cJSON_AddStringToObject(o, "unit", r->chunit[c]);
    cJSON_AddItemToObject(o, "offset", num(s->offset));
    cJSON_AddItemToObject(o, "offset_se", num(s->offset_se));
    cJSON_AddItemToObject(o, "gain", num(s->gain));
    cJSON_AddItemToObject(o, "gain_se", num(s->gain_se));
    cJSON_AddItemToObject(o, "nrmse", num(s->nrmse));
    cJSON_AddItemToObject(o, "noise_floor", num(s->floor));
    cJSON_AddItemToObject(o, "nrmse_over_floor", num(s->nrmse / s->floor));
    cJSON_AddItemToObject(o, "nrmse_start", num(s0->nrmse));
    cJSON_AddItemToObject(o, "noise", num(s->noise));
    cJSON_AddNumberToObject(o, "rows", (double)s->rows);
    return o;
}

static cJSON *report(const mech_calib_problem *p, const mech_calib_result *R, double cpu, double wall)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "format", "mech-calibration");
    cJSON_AddNumberToObject(o, "version", 1);
    cJSON_AddStringToObject(o, "config", hy_display_name(p->path));
    cJSON_AddStringToObject(o, "scenario", hy_display_name(p->scenario));
    cJSON *keys = cJSON_AddArrayToObject(o, "keys");
    for (int k = 0; k < p->nkey; k++) {
        cJSON *e = cJSON_CreateObject();
        const char *u = p->kind == MECH_CALIB_DOCK ? mech_dock_key_unit(p->key[k].path) : NULL;
        cJSON_AddStringToObject(e, "key", p->key[k].path);
        cJSON_AddStringToObject(e, "unit", u ? u : "");
        cJSON_AddItemToObject(e, "start", num(p->key[k].start));
        cJSON_AddItemToObject(e, "value", num(R->x[k]));
        cJSON_AddItemToObject(e, "se", num(R->se[k]));
        cJSON_AddItemToObject(e, "min", num(p->key[k].lo));
        cJSON_AddItemToObject(e, "max", num(p->key[k].hi));
        cJSON_AddItemToArray(keys, e);
    }
    cJSON *corr = cJSON_AddArrayToObject(o, "correlation");
    for (int a = 0; a < p->nkey; a++) {
        cJSON *row = cJSON_CreateArray();
        for (int b = 0; b < p->nkey; b++)
            cJSON_AddItemToArray(row, num(R->corr[a * MECH_CALIB_KEYS_MAX + b]));
        cJSON_AddItemToArray(corr, row);
    }
    cJSON *runs = cJSON_AddArrayToObject(o, "runs");
    for (int r = 0; r < p->nrun; r++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "measured", hy_display_name(p->run[r].rec.path));
        cJSON_AddBoolToObject(e, "validation", p->run[r].validation);
        cJSON *ch = cJSON_AddArrayToObject(e, "channels");
        for (int c = 0; c < p->run[r].rec.nch; c++)
            cJSON_AddItemToArray(ch, chstat_json(&p->run[r], c, &R->ch[r][c], &R->ch0[r][c]));
        cJSON_AddItemToArray(runs, e);
    }
    cJSON *fit = cJSON_AddObjectToObject(o, "fit");
    cJSON_AddStringToObject(fit, "method", "GSL multifit_nlinear, trust-region Levenberg-Marquardt, More scaling, "
                            "forward-difference Jacobian of the keys, sine transform of the bounds");
    cJSON_AddNumberToObject(fit, "residuals", (double)R->nres);
    cJSON_AddNumberToObject(fit, "parameters", R->npar);
    cJSON_AddItemToObject(fit, "cost_start", num(R->cost0));
    cJSON_AddItemToObject(fit, "cost", num(R->cost));
    cJSON_AddItemToObject(fit, "residual_variance", num(R->s2));
    cJSON_AddNumberToObject(fit, "iterations", R->iterations);
    cJSON_AddBoolToObject(fit, "converged", R->converged);
    cJSON_AddStringToObject(fit, "reason", R->reason);
    cJSON_AddNumberToObject(fit, "simulated_runs", (double)R->evaluations);
    cJSON_AddNumberToObject(fit, "jacobians", (double)R->jacobians);
    cJSON_AddNumberToObject(fit, "jobs", p->jobs);
    cJSON_AddItemToObject(fit, "cpu_s", num(cpu));
    cJSON_AddItemToObject(fit, "wall_s", num(wall));
    return o;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int write_text(const char *cmd, const char *path, const char *text, const char *const *inputs)
{
    hy_atomic a;
    int st = mech_out_open(cmd, &a, path, NULL, inputs);
    if (st != MECH_EXIT_OK)
        return st;
    fputs(text, a.fp);
    return mech_out_commit(cmd, &a);
}

int mech_cmd_calibrate(int argc, char **argv)
{
    const char *cmd = "calibrate";
    const char *out = NULL, *cfg = NULL;
    int quiet = 0, jobs = 1;
    const hy_arg tab[] = {HY_OPT_STR("out", 'o', &out), HY_OPT_INT("jobs", 'j', &jobs, 1, NULL),
                          HY_OPT_FLAG("quiet", 'q', &quiet), HY_OPT_END};
    int go = mech_cli_parse(cmd, usage, tab, argc, argv, "missing CAL.json", &cfg);
    if (go != MECH_CLI_GO)
        return go;
    if (jobs > 64)
        return mech_cli_usage(cmd, "-j %d: at most 64 processes (one per key column is the most that helps)", jobs);
    mech_calib_problem p;
    hy_err err;
    if (mech_calib_read(cfg, &p, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    p.jobs = jobs;
    char dir[4096];
    if (out) {
        snprintf(dir, sizeof dir, "%s", out);
    } else {
        const char *b = strrchr(cfg, '/');
        b = b ? b + 1 : cfg;
        size_t n = strlen(b);
        if (n > 5 && strcmp(b + n - 5, ".json") == 0)
            n -= 5;
        snprintf(dir, sizeof dir, "out/%.*s", (int)n, b);
    }
    int st = mech_out_mkdir(cmd, dir);
    if (st != MECH_EXIT_OK) {
        mech_calib_free(&p);
        return st;
    }
    const char *inputs[MECH_CALIB_RUNS_MAX + 3] = {cfg, p.scenario};
    for (int r = 0; r < p.nrun; r++)
        inputs[2 + r] = p.run[r].rec.path;
    const char *outs[] = {"calibrated.json", "calibration.json"};
    for (int o = 0; o < 2; o++) {   /* before the fit: an output over an input is refused with nothing written */
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, outs[o]);
        for (int i = 0; i < 2 + p.nrun; i++)
            if (hy_same_file(path, inputs[i])) {
                mech_calib_free(&p);
                return mech_cli_fail(cmd, "%s: refusing to overwrite an input file", path);
            }
    }
    clock_t c0 = clock();
    double w0 = wall_now();
    mech_calib_result R;
    if (mech_calib_solve(&p, &R, &err) != HY_OK) {
        mech_calib_free(&p);
        return mech_cli_fail(cmd, "%s", err.msg);
    }
    double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC, wall = wall_now() - w0;
    char path[4200];
    char *scen = mech_calib_scenario_text(&p, R.x, dir, &err);
    if (!scen) {
        mech_calib_free(&p);
        return mech_cli_fail(cmd, "%s", err.msg);
    }
    snprintf(path, sizeof path, "%s/calibrated.json", dir);
    st = write_text(cmd, path, scen, inputs);
    free(scen);
    cJSON *rep = report(&p, &R, cpu, wall);
    char *txt = rep ? hy_json_print(rep) : NULL;
    cJSON_Delete(rep);
    if (st == MECH_EXIT_OK && !txt)
        st = mech_cli_fail(cmd, "out of memory");
    snprintf(path, sizeof path, "%s/calibration.json", dir);
    if (st == MECH_EXIT_OK)
        st = write_text(cmd, path, txt, inputs);
    free(txt);
    if (st == MECH_EXIT_OK && !quiet) {
        printf("%s: %d key(s) from %zu measured values, %d iterations (%s), %ld simulated runs, %.1f s\n",
               hy_display_name(cfg), p.nkey, R.nres, R.iterations, R.reason, R.evaluations, wall);
        printf("%-28s %14s %14s %12s\n", "key", "start", "calibrated", "std. error");
        for (int k = 0; k < p.nkey; k++)
            printf("%-28s %14.6g %14.6g %12.3g\n", p.key[k].path, p.key[k].start, R.x[k], R.se[k]);
        for (int r = 0; r < p.nrun; r++)
            for (int c = 0; c < p.run[r].rec.nch; c++) {
                const mech_calib_chstat *s = &R.ch[r][c];
                printf("%-10s %s %-14s NRMSE %.4g (start %.4g), noise floor %.4g (x%.2f), offset %.5g s, gain %.4f\n",
                       p.run[r].validation ? "validation" : "fit", hy_display_name(p.run[r].rec.path),
                       p.run[r].rec.name[c], s->nrmse, R.ch0[r][c].nrmse, s->floor, s->nrmse / s->floor, s->offset, s->gain);
            }
    }
    mech_calib_free(&p);
    return st;
}

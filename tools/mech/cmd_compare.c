/* mech compare RUN MEASURED: a simulated run against a measured dynamic record (issue 45, docs/compare.md). The
 * library does the work (mech/compare.h: records, map, alignment, grid, metrics, impacts); this file reads the
 * inputs, writes the report (compare.json, report.md, one overlay figure per channel) atomically into -o DIR and
 * prints the verdicts. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>
#include "hyst/h5log.h"
#include "hyst/loops.h"
#include "hyst/model.h"
#include "hyst/replay.h"
#include "hyst/util.h"
#include "mech/compare.h"
#include "mech_cli.h"

#define MAX_TOL 64
#define MAX_IMPACTS 64

static void usage(FILE *fp)
{
    fputs("usage: mech compare RUN MEASURED -o DIR [--map MAP.json | --channels A,B,...] [OPTIONS]\n"
          "\n"
          "A simulated run against a measured record (docs/compare.md). RUN is a mech dock output folder, its HDF5\n"
          "log, a mech beam sim CSV or HDF5 file, or FILE.h5:/DSET; MEASURED a CSV file (header, units row) or\n"
          "FILE.h5:/DSET. The map (\"mech-compare-map\" JSON) names the measured channels, the run channels they are\n"
          "compared with, their units (converted within a dimension; a mismatch is refused), gains, tolerances and\n"
          "which are contact forces, and the acquisition's anti-alias filter (\"filter\": a causal Butterworth,\n"
          "applied to the run's channels before they are compared); without it --channels names channels both\n"
          "records have.\n"
          "\n"
          "The records are aligned (the lag L: measured(t) = run(t - L)) by the least mean squared difference over\n"
          "their overlap (cross-correlation, sub-sample) of one channel, or by its first impact (10 % of its peak),\n"
          "then resampled onto one grid over the overlap only. Per channel: NRMSE, RMS, bias, largest error, peak\n"
          "error, the channel's own lag, a verdict against its tolerance; per impact of a contact force: start,\n"
          "peak and impulse measured against predicted; per element with a measured loop (the map's \"loops\"):\n"
          "hyst loops' energy per cycle and secant stiffness side by side and the loops drawn over each other.\n"
          "\n"
          "options:\n"
          "  -o, --output DIR       the report: compare.json, report.md, overlay-N-CHANNEL.png, loop-N-ELEMENT.png\n"
          "                         (the folder is made if missing)\n"
          "      --map FILE         the channel map (docs/compare.md §2)\n"
          "      --channels LIST    without a map: channels of the same name in both records (comma-separated)\n"
          "      --align CH|event|none  align on measured channel CH (cross-correlation), on the first impact of\n"
          "                         the alignment channel (event), or not at all (the map's \"lag\", default 0)\n"
          "      --tol CH=X         the NRMSE tolerance of channel CH (measured or run name); repeatable\n"
          "      --window T0,T1     compare only this part of the measured record (its time, s): a transient on\n"
          "                         its own (the lag is still found on the whole records)\n"
          "      --dt S             the grid step (default: the measured record's median sampling step)\n"
          "      --max-lag S        the largest |lag| searched (default: a quarter of the shorter record)\n"
          "      --no-plots         no figures\n"
          "  -q, --quiet            no report on standard output\n"
          "  -h, --help             this help\n"
          "\n"
          "Exit status: 0 compared (whatever the verdicts: they are in the report), 1 bad input, 2 bad usage.\n",
          fp);
}

typedef struct tols {
    int n;
    const char *spec[MAX_TOL];
} tols;

static int add_tol(void *dst, const char *value, hy_args *st, hy_err *err)
{
    (void)st;
    tols *t = dst;
    if (t->n >= MAX_TOL)
        return hy_err_set(err, HY_EARG, "--tol: more than %d given", MAX_TOL);
    t->spec[t->n++] = value;
    return HY_OK;
}

/* The impacts of one contact-force channel, measured and predicted on the common grid, paired by time. */
typedef struct impacts {
    size_t nm, np;
    mech_compare_impact m[MAX_IMPACTS], p[MAX_IMPACTS];
    int pair[MAX_IMPACTS];    /* the predicted impact paired with measured impact i, or -1 */
    double threshold;
    char contact[MAX_IMPACTS][64];  /* the run's contact flags on during predicted impact j ("bottom, latch") */
} impacts;

/* The contact flags of a mech dock history, and the names the impact table gives them (spec 001: the head on the
 * cone, in the socket, on its bottom; the latches on their stops; the limiter). */
static const char *const flag_ch[] = {"cone_contact", "socket_contact", "bottom_contact", "latch_contact",
                                      "limiter_contact"};
static const char *const flag_name[] = {"cone", "socket", "head-bottom", "latch-stop", "limiter"};
#define NFLAG 5

/* (run table, flags) => the run's contact flags it has (one record each; absent ones left with n = 0) */
static void read_flags(const char *table, mech_compare_rec *fl)
{
    for (int f = 0; f < NFLAG; f++) {
        hy_err err;
        if (mech_compare_rec_read(table, "t", "s", &flag_ch[f], 1, &fl[f], &err) != HY_OK)
            mech_compare_rec_init(&fl[f], table);
    }
}

// (flags, run-time window) => "head-bottom, latch-stop": the flags on at a run sample inside it ("" for none)
static void label(const mech_compare_rec *fl, double a, double b, char *out, size_t n)
{
    out[0] = 0;
    for (int f = 0; f < NFLAG; f++) {
        int on = 0;
        for (size_t i = 0; i < fl[f].n && !on; i++)
            on = fl[f].t[i] >= a && fl[f].t[i] <= b && fl[f].v[0][i] != 0;
        if (on)
            snprintf(out + strlen(out), n - strlen(out), "%s%s", out[0] ? ", " : "", flag_name[f]);
    }
}

// (comparison, channel, the run's contact flags) => its impacts: threshold 5 % of the measured peak |force|, pairs
// by overlapping time, each predicted one labelled with the run's contacts during it
static void find_impacts(const mech_compare *c, int k, const mech_compare_rec *fl, impacts *I)
{
    I->threshold = 0.05 * fabs(c->res[k].peak_meas);
    I->nm = mech_compare_impacts(c->t, c->meas[k], c->n, I->threshold, I->m, MAX_IMPACTS);
    I->np = mech_compare_impacts(c->t, c->pred[k], c->n, I->threshold, I->p, MAX_IMPACTS);
    if (I->nm > MAX_IMPACTS)
        I->nm = MAX_IMPACTS;
    if (I->np > MAX_IMPACTS)
        I->np = MAX_IMPACTS;
    for (size_t j = 0; j < I->np; j++) /* the grid is in measured time: the run's is t - lag */
        label(fl, I->p[j].t_start - c->lag - c->h, I->p[j].t_end - c->lag + c->h, I->contact[j], sizeof I->contact[j]);
    int used[MAX_IMPACTS] = {0};
    for (size_t i = 0; i < I->nm; i++) {
        I->pair[i] = -1;
        double best = INFINITY;
        for (size_t j = 0; j < I->np; j++) {
            double d = fabs(I->p[j].t_start - I->m[i].t_start);
            int overlap = I->p[j].t_start <= I->m[i].t_end && I->p[j].t_end >= I->m[i].t_start;
            if (!used[j] && (overlap || d < 0.5 * (I->m[i].t_end - I->m[i].t_start) + 10 * c->h) && d < best)
                best = d, I->pair[i] = (int)j;
        }
        if (I->pair[i] >= 0)
            used[I->pair[i]] = 1;
    }
}

static const char *fmt(char *buf, size_t n, double v)
{
    if (!isfinite(v))
        snprintf(buf, n, "—");
    else
        snprintf(buf, n, "%.4g", v);
    return buf;
}

// (ratio) => "+1.23 %", or "—" when it is not a number (a zero reference)
static const char *pct(char *buf, size_t n, double r)
{
    if (!isfinite(r))
        snprintf(buf, n, "—");
    else
        snprintf(buf, n, "%+.3g %%", 100 * r);
    return buf;
}

static const char *verdict_text(int v)
{
    return v < 0 ? "no tolerance" : v ? "pass" : "FAIL";
}

static void json_num(cJSON *o, const char *k, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

static const char *method_name(int a)
{
    return a == MECH_COMPARE_ALIGN_EVENT ? "event" : a == MECH_COMPARE_ALIGN_NONE ? "none" : "xcorr";
}

// (channel name) => a file-name part: letters, digits, '-', '_' kept, others '_'
static void safe_name(char *out, size_t n, const char *s)
{
    size_t i = 0;
    for (; s[i] && i + 1 < n && i < 40; i++)
        out[i] = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
                         s[i] == '-' || s[i] == '_'
                     ? s[i]
                     : '_';
    out[i] = 0;
}

typedef struct ctx {
    const char *cmd, *run, *meas, *mapfile, *dir;
    const char *inputs[4];
    char table[4200];
    mech_compare *c;
    impacts imp[MECH_COMPARE_MAX_CH];
    char fig[MECH_COMPARE_MAX_CH][128];
    hy_loops lm[MECH_COMPARE_MAX_LOOPS], lp[MECH_COMPARE_MAX_LOOPS];  /* measured and predicted loop analyses */
    char lfig[MECH_COMPARE_MAX_LOOPS][128];
} ctx;

// (x[n], y[n], name) => a gnuplot datablock, decimated for drawing (hy_replay_decimate: peaks kept)
static int block(FILE *fp, const char *name, const double *x, const double *y, size_t n)
{
    size_t *keep = malloc((4 * 2000 + 2) * sizeof *keep);
    if (!keep)
        return -1;
    size_t m = hy_replay_decimate(x, y, n, 2000, keep);
    fprintf(fp, "$%s << EOD\n", name);
    for (size_t i = 0; i < m; i++)
        fprintf(fp, "%.10g %.10g\n", x[keep[i]], y[keep[i]]);
    fputs("EOD\n", fp);
    free(keep);
    return 0;
}

// (ctx, channel) => overlay-K-NAME.png: measured and predicted (top), residual with the tolerance band (bottom)
static int figure(ctx *x, int k)
{
    const mech_compare *c = x->c;
    const mech_compare_chan *ch = &c->map.ch[k];
    char safe[48], path[4300];
    safe_name(safe, sizeof safe, ch->run);
    snprintf(x->fig[k], sizeof x->fig[k], "overlay-%d-%s.png", k + 1, safe);
    snprintf(path, sizeof path, "%s/%s", x->dir, x->fig[k]);
    mech_fig f;
    if (mech_fig_open(x->cmd, &f, path, x->inputs, "pngcairo size 1000,700 noenhanced font 'sans,10'") !=
        MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    FILE *fp = f.fp;
    double *res = malloc(c->n * sizeof *res);
    if (!res) {
        mech_fig_abort(&f);
        return mech_cli_fail(x->cmd, "out of memory");
    }
    for (size_t i = 0; i < c->n; i++)
        res[i] = c->pred[k][i] - c->meas[k][i];
    int bad = block(fp, "meas", c->t, c->meas[k], c->n) || block(fp, "pred", c->t, c->pred[k], c->n) ||
              block(fp, "res", c->t, res, c->n);
    free(res);
    if (bad) {
        mech_fig_abort(&f);
        return mech_cli_fail(x->cmd, "out of memory");
    }
    const mech_compare_result *R = &c->res[k];
    fprintf(fp, "set grid\nset xrange [%.10g:%.10g]\nset multiplot layout 2,1 margins 0.1,0.97,0.08,0.93 spacing "
            "0,0.06\n", c->t[0], c->t[c->n - 1]);
    fprintf(fp, "set title ");
    char title[400];
    snprintf(title, sizeof title, "%s (measured) vs %s (run): NRMSE %.3g%s%s, peak error %+.3g %%, lag %.3g ms",
             ch->meas, ch->run, R->nrmse, isnan(R->tol) ? "" : R->verdict ? " pass" : " FAIL",
             isnan(R->tol) ? "" : "", 100 * R->peak_rel, 1e3 * R->lag);
    mech_cli_gp_quote(fp, title);
    fputs("\nset ylabel ", fp);
    char yl[160];
    snprintf(yl, sizeof yl, "%s [%s]", ch->run, c->run_unit[k]);
    mech_cli_gp_quote(fp, yl);
    fputs("\nset format x ''\nset key top right\n"
          "plot $meas using 1:2 with lines lw 1.5 lc rgb '#555555' title 'measured', "
          "$pred using 1:2 with lines lw 1.5 lc rgb '#d62728' title 'predicted (run shifted by the lag)'\n",
          fp);
    fputs("unset title\nset format x '%g'\nset xlabel 'measured time [s]'\nset ylabel ", fp);
    snprintf(yl, sizeof yl, "predicted - measured [%s]", c->run_unit[k]);
    mech_cli_gp_quote(fp, yl);
    fputs("\n", fp);
    if (!isnan(R->tol)) {
        double b = R->tol * R->norm;
        fprintf(fp, "plot $res using 1:2 with lines lc rgb '#1f77b4' title 'residual', %.10g with lines dt 2 "
                    "lc rgb '#2ca02c' title '+/- tolerance x range (the RMS allowed)', %.10g with lines dt 2 "
                    "lc rgb '#2ca02c' notitle\n", b, -b);
    } else
        fputs("plot $res using 1:2 with lines lc rgb '#1f77b4' title 'residual', 0 with lines lc rgb 'black' notitle\n",
              fp);
    fputs("unset multiplot\n", fp);
    mech_out_note(path);
    return mech_fig_run(x->cmd, &f);
}

// (ctx, loop) => loop-L-NAME.png: the measured and the predicted Q(q) loops over each other (as hyst plot loops)
static int loop_figure(ctx *x, int l)
{
    const mech_compare *c = x->c;
    const mech_compare_loop *L = &c->map.loop[l];
    char safe[48], path[4300];
    safe_name(safe, sizeof safe, L->name);
    snprintf(x->lfig[l], sizeof x->lfig[l], "loop-%d-%s.png", l + 1, safe);
    snprintf(path, sizeof path, "%s/%s", x->dir, x->lfig[l]);
    mech_fig f;
    if (mech_fig_open(x->cmd, &f, path, x->inputs, "pngcairo size 800,650 noenhanced font 'sans,10'") != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    FILE *fp = f.fp;
    if (block(fp, "meas", c->meas[L->q], c->meas[L->Q], c->n) || block(fp, "pred", c->pred[L->q], c->pred[L->Q], c->n)) {
        mech_fig_abort(&f);
        return mech_cli_fail(x->cmd, "out of memory");
    }
    char t[300];
    snprintf(t, sizeof t, "%s: measured %s-%s against the run's %s-%s", L->name, c->map.ch[L->q].meas,
             c->map.ch[L->Q].meas, c->map.ch[L->q].run, c->map.ch[L->Q].run);
    fputs("set grid\nset key top left\nset title ", fp);
    mech_cli_gp_quote(fp, t);
    snprintf(t, sizeof t, "%s [%s]", c->map.ch[L->q].run, c->run_unit[L->q]);
    fputs("\nset xlabel ", fp);
    mech_cli_gp_quote(fp, t);
    snprintf(t, sizeof t, "%s [%s]", c->map.ch[L->Q].run, c->run_unit[L->Q]);
    fputs("\nset ylabel ", fp);
    mech_cli_gp_quote(fp, t);
    fputs("\nplot $meas using 1:2 with lines lw 1.5 lc rgb '#555555' title 'measured', "
          "$pred using 1:2 with lines lw 1.5 lc rgb '#d62728' title 'predicted'\n", fp);
    mech_out_note(path);
    return mech_fig_run(x->cmd, &f);
}

// (loop analysis) => the sum of its cycles' dissipated energies
static double cyc_energy(const hy_loops *L)
{
    double e = 0;
    for (size_t i = 0; i < L->n_cyc; i++)
        e += L->cyc[i].energy;
    return e;
}

// (ctx) => compare.json
static cJSON *report_json(ctx *x)
{
    const mech_compare *c = x->c;
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "format", "mech-compare-report");
    cJSON_AddStringToObject(d, "run", x->run);
    cJSON_AddStringToObject(d, "run_table", x->table);
    cJSON_AddStringToObject(d, "measured", x->meas);
    if (x->mapfile)
        cJSON_AddStringToObject(d, "map", x->mapfile);
    cJSON *al = cJSON_AddObjectToObject(d, "alignment");
    cJSON_AddStringToObject(al, "method", method_name(c->map.align));
    int ka = 0;
    for (int k = 0; k < c->map.n; k++)
        if (c->map.align_ch[0] && strcmp(c->map.ch[k].meas, c->map.align_ch) == 0)
            ka = k;
    if (c->map.align != MECH_COMPARE_ALIGN_NONE)
        cJSON_AddStringToObject(al, "channel", c->map.ch[ka].meas);
    json_num(al, "lag", c->lag);
    cJSON *g = cJSON_AddObjectToObject(d, "grid");
    json_num(g, "dt", c->h);
    json_num(g, "t_start", c->t[0]);
    json_num(g, "t_end", c->t[c->n - 1]);
    cJSON_AddNumberToObject(g, "samples", (double)c->n);
    if (!isnan(c->map.window[0])) {
        cJSON *w = cJSON_AddArrayToObject(g, "window");
        cJSON_AddItemToArray(w, cJSON_CreateNumber(c->map.window[0]));
        cJSON_AddItemToArray(w, cJSON_CreateNumber(c->map.window[1]));
    }
    int npass = 0, nfail = 0;
    cJSON *chs = cJSON_AddArrayToObject(d, "channels");
    for (int k = 0; k < c->map.n; k++) {
        const mech_compare_result *R = &c->res[k];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(chs, o);
        cJSON_AddStringToObject(o, "measured", c->map.ch[k].meas);
        cJSON_AddStringToObject(o, "run", c->map.ch[k].run);
        cJSON_AddStringToObject(o, "unit", c->run_unit[k]);
        cJSON_AddStringToObject(o, "measured_unit", c->map.ch[k].unit);
        json_num(o, "factor", c->factor[k]);
        cJSON_AddNumberToObject(o, "derivative", c->map.ch[k].derivative);
        if (c->map.ch[k].filter.order > 0) {   /* the sensor's filter applied to the prediction */
            cJSON *fo = cJSON_AddObjectToObject(o, "filter");
            cJSON_AddNumberToObject(fo, "order", c->map.ch[k].filter.order);
            json_num(fo, "cutoff", c->map.ch[k].filter.cutoff);
        }
        json_num(o, "nrmse", R->nrmse);
        json_num(o, "norm", R->norm);
        json_num(o, "rms", R->rms);
        json_num(o, "bias", R->bias);
        json_num(o, "max_abs_error", R->max_abs_err);
        json_num(o, "t_max_abs_error", R->t_max_abs_err);
        json_num(o, "peak_measured", R->peak_meas);
        json_num(o, "t_peak_measured", R->t_peak_meas);
        json_num(o, "peak_predicted", R->peak_pred);
        json_num(o, "t_peak_predicted", R->t_peak_pred);
        json_num(o, "peak_error", R->peak_err);
        json_num(o, "peak_error_rel", R->peak_rel);
        json_num(o, "lag", R->lag);
        json_num(o, "tol", R->tol);
        json_num(o, "peak_tol", R->peak_tol);
        cJSON_AddStringToObject(o, "verdict", R->verdict < 0 ? "none" : R->verdict ? "pass" : "fail");
        npass += R->verdict == 1, nfail += R->verdict == 0;
        if (x->fig[k][0])
            cJSON_AddStringToObject(o, "figure", x->fig[k]);
        if (c->map.ch[k].impact) {
            const impacts *I = &x->imp[k];
            cJSON *arr = cJSON_AddArrayToObject(o, "impacts");
            json_num(o, "impact_threshold", I->threshold);
            for (size_t i = 0; i < I->nm; i++) {
                cJSON *e = cJSON_CreateObject();
                cJSON_AddItemToArray(arr, e);
                json_num(e, "t_start_measured", I->m[i].t_start);
                json_num(e, "peak_measured", I->m[i].peak);
                json_num(e, "impulse_measured", I->m[i].impulse);
                const mech_compare_impact *p = I->pair[i] >= 0 ? &I->p[I->pair[i]] : NULL;
                json_num(e, "t_start_predicted", p ? p->t_start : NAN);
                json_num(e, "peak_predicted", p ? p->peak : NAN);
                json_num(e, "impulse_predicted", p ? p->impulse : NAN);
                if (p)
                    cJSON_AddStringToObject(e, "contacts_predicted", I->contact[I->pair[i]]);
            }
            cJSON_AddNumberToObject(o, "impacts_predicted", (double)I->np);
        }
    }
    if (c->map.nloop > 0) {
        cJSON *la = cJSON_AddArrayToObject(d, "loops");
        for (int l = 0; l < c->map.nloop; l++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddItemToArray(la, o);
            cJSON_AddStringToObject(o, "name", c->map.loop[l].name);
            cJSON_AddStringToObject(o, "q", c->map.ch[c->map.loop[l].q].run);
            cJSON_AddStringToObject(o, "Q", c->map.ch[c->map.loop[l].Q].run);
            json_num(o, "threshold", x->lm[l].threshold);
            json_num(o, "work_measured", x->lm[l].total_energy);
            json_num(o, "work_predicted", x->lp[l].total_energy);
            json_num(o, "cycle_energy_measured", cyc_energy(&x->lm[l]));
            json_num(o, "cycle_energy_predicted", cyc_energy(&x->lp[l]));
            const hy_loops *LS[2] = {&x->lm[l], &x->lp[l]};
            const char *nm[2] = {"cycles_measured", "cycles_predicted"};
            for (int w = 0; w < 2; w++) {
                cJSON *cy = cJSON_AddArrayToObject(o, nm[w]);
                for (size_t i = 0; i < LS[w]->n_cyc; i++) {
                    cJSON *e = cJSON_CreateObject();
                    cJSON_AddItemToArray(cy, e);
                    json_num(e, "t_start", c->t[LS[w]->cyc[i].i0]);
                    json_num(e, "t_end", c->t[LS[w]->cyc[i].i1]);
                    json_num(e, "energy", LS[w]->cyc[i].energy);
                    json_num(e, "k_sec", LS[w]->cyc[i].k_sec);
                    json_num(e, "xi_eq", LS[w]->cyc[i].xi_eq);
                }
            }
            if (x->lfig[l][0])
                cJSON_AddStringToObject(o, "figure", x->lfig[l]);
        }
    }
    cJSON_AddNumberToObject(d, "pass", npass);
    cJSON_AddNumberToObject(d, "fail", nfail);
    return d;
}

// (ctx, fp) => report.md
static void report_md(ctx *x, FILE *fp)
{
    const mech_compare *c = x->c;
    char a[32], b[32], e[32], f[32], g[32], h[32], pk[32];
    fprintf(fp, "# mech compare: %s against %s\n\n", mech_cli_text(x->run), mech_cli_text(x->meas));
    fprintf(fp, "Run channels read from `%s`%s%s%s.\n\n", mech_cli_text(x->table), x->mapfile ? ", map `" : "",
            x->mapfile ? mech_cli_text(x->mapfile) : "", x->mapfile ? "`" : "");
    int ka = 0;
    for (int k = 0; k < c->map.n; k++)
        if (c->map.align_ch[0] && strcmp(c->map.ch[k].meas, c->map.align_ch) == 0)
            ka = k;
    if (c->map.align == MECH_COMPARE_ALIGN_NONE)
        fprintf(fp, "Alignment: none; the lag %.6g ms is the map's.", 1e3 * c->lag);
    else
        fprintf(fp, "Alignment: %s of `%s` against `%s`: the measured record is **%.4g ms late** (measured(t) = "
                "run(t − lag)).", c->map.align == MECH_COMPARE_ALIGN_EVENT ? "first impact (10 % of the peak)" :
                "least mean squared difference (cross-correlation, sub-sample)", mech_cli_text(c->map.ch[ka].meas),
                mech_cli_text(c->map.ch[ka].run), 1e3 * c->lag);
    fprintf(fp, " Grid: %zu samples of %.4g ms over the overlap %.6g–%.6g s (measured time)", c->n, 1e3 * c->h,
            c->t[0], c->t[c->n - 1]);
    if (!isnan(c->map.window[0]))
        fprintf(fp, ", the window %.6g–%.6g s", c->map.window[0], c->map.window[1]);
    fputs("; nothing outside both records.\n\n", fp);
    fputs("## Channels\n\n| measured → run | unit | NRMSE | tolerance | verdict | RMS | bias | largest error (at s) | "
          "peak measured | peak predicted | peak error (tolerance) | own lag [ms] |\n"
          "|---|---|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|\n",
          fp);
    for (int k = 0; k < c->map.n; k++) {
        const mech_compare_result *R = &c->res[k];
        char pt[48] = "";
        if (!isnan(R->peak_tol))
            snprintf(pt, sizeof pt, " (±%.3g %%)", 100 * R->peak_tol);
        fprintf(fp, "| %s → %s%s | %s | %.4g | %s | %s | %s | %s | %s (%.4g) | %s | %s | %s%s | %s |\n",
                mech_cli_text(c->map.ch[k].meas), mech_cli_text(c->map.ch[k].run),
                c->map.ch[k].derivative == 1 ? " (d/dt)" : c->map.ch[k].derivative == 2 ? " (d²/dt²)" : "",
                mech_cli_text(c->run_unit[k]),
                R->nrmse, fmt(a, sizeof a, R->tol), verdict_text(R->verdict), fmt(b, sizeof b, R->rms),
                fmt(e, sizeof e, R->bias), fmt(f, sizeof f, R->max_abs_err), R->t_max_abs_err,
                fmt(g, sizeof g, R->peak_meas), fmt(h, sizeof h, R->peak_pred), pct(pk, sizeof pk, R->peak_rel), pt,
                isfinite(R->lag) ? mech_cli_text(fmt(a, sizeof a, 1e3 * R->lag)) : "—");
    }
    fputs("\nNRMSE = RMS(predicted − measured) / (measured max − min) on the grid; a channel's own lag is its best "
          "shift alone: one that differs from the alignment's says that channel's timing is wrong.\n", fp);
    for (int k = 0; k < c->map.n; k++)
        if (c->map.ch[k].filter.order > 0)
            fprintf(fp, "%s: the prediction through the sensor's anti-alias filter (Butterworth, order %d, %.6g Hz) "
                    "before it is compared.\n", mech_cli_text(c->map.ch[k].meas), c->map.ch[k].filter.order,
                    c->map.ch[k].filter.cutoff);
    int any = 0;
    for (int k = 0; k < c->map.n; k++)
        any |= c->map.ch[k].impact;
    if (any) {
        fputs("\n## Impacts\n\nEpisodes where a contact force exceeds 5 % of its measured peak (ending below half "
              "of that), measured against the predicted episode at the same time; the run's contacts during it from its "
              "contact flags (a mech dock history).\n\n| channel | # | run's contacts | start measured [s] | start "
              "predicted [s] | Δt [ms] | peak measured | peak predicted | Δpeak | impulse measured | impulse "
              "predicted | Δimpulse |\n|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n", fp);
        for (int k = 0; k < c->map.n; k++) {
            if (!c->map.ch[k].impact)
                continue;
            const impacts *I = &x->imp[k];
            for (size_t i = 0; i < I->nm; i++) {
                const mech_compare_impact *m = &I->m[i], *p = I->pair[i] >= 0 ? &I->p[I->pair[i]] : NULL;
                if (p)
                {
                    char d1[32], d2[32];
                    fprintf(fp, "| %s | %zu | %s | %.5g | %.5g | %+.3g | %.4g | %.4g | %s | %.4g | %.4g | %s |\n",
                            mech_cli_text(c->map.ch[k].run), i + 1,
                            I->contact[I->pair[i]][0] ? I->contact[I->pair[i]] : "—", m->t_start, p->t_start,
                            1e3 * (p->t_start - m->t_start), m->peak, p->peak,
                            pct(d1, sizeof d1, (fabs(p->peak) - fabs(m->peak)) / fabs(m->peak)), m->impulse,
                            p->impulse, pct(d2, sizeof d2, m->impulse != 0 ? (p->impulse - m->impulse) /
                                                                             fabs(m->impulse) : NAN));
                }
                else
                    fprintf(fp, "| %s | %zu | | %.5g | (none) | | %.4g | | | %.4g | | |\n",
                            mech_cli_text(c->map.ch[k].run), i + 1, m->t_start, m->peak, m->impulse);
            }
            size_t paired = 0;
            for (size_t i = 0; i < I->nm; i++)
                paired += I->pair[i] >= 0;
            if (I->np > paired)
                fprintf(fp, "| %s | | | | %zu predicted impact%s with no measured one | | | | | | | |\n",
                        mech_cli_text(c->map.ch[k].run), I->np - paired, I->np - paired == 1 ? "" : "s");
        }
    }
    if (c->map.nloop > 0) {
        fputs("\n## Loops\n\n`hyst loops`' analysis (docs/loops.md) of each element's measured and predicted loop on the "
              "grid, with the measured record's reversal threshold for both; cycles paired in order.\n", fp);
        for (int l = 0; l < c->map.nloop; l++) {
            const mech_compare_loop *L = &c->map.loop[l];
            const hy_loops *M = &x->lm[l], *P = &x->lp[l];
            fprintf(fp, "\n**%s** (%s, %s): work along the record %.4g measured, %.4g predicted [%s·%s]; %zu measured "
                    "and %zu predicted cycles, their energies %.4g and %.4g.\n\n",
                    mech_cli_text(L->name), mech_cli_text(c->map.ch[L->q].run), mech_cli_text(c->map.ch[L->Q].run),
                    M->total_energy, P->total_energy, mech_cli_text(c->run_unit[L->Q]),
                    mech_cli_text(c->run_unit[L->q]), M->n_cyc, P->n_cyc, cyc_energy(M), cyc_energy(P));
            size_t nc = M->n_cyc > P->n_cyc ? M->n_cyc : P->n_cyc;
            if (nc == 0)
                continue;
            fputs("| cycle | measured from [s] | energy measured | energy predicted | ratio | k_sec measured | k_sec "
                  "predicted | ratio |\n|--:|--:|--:|--:|--:|--:|--:|--:|\n", fp);
            for (size_t i = 0; i < nc && i < 10; i++) {
                const hy_cycle *cm = i < M->n_cyc ? &M->cyc[i] : NULL, *cp = i < P->n_cyc ? &P->cyc[i] : NULL;
                char v1[32], v2[32], v3[32], v4[32], v5[32], v6[32], v7[32];
                fprintf(fp, "| %zu | %s | %s | %s | %s | %s | %s | %s |\n", i + 1,
                        fmt(v1, sizeof v1, cm ? c->t[cm->i0] : NAN), fmt(v2, sizeof v2, cm ? cm->energy : NAN),
                        fmt(v3, sizeof v3, cp ? cp->energy : NAN),
                        fmt(v4, sizeof v4, cm && cp && cm->energy != 0 ? cp->energy / cm->energy : NAN),
                        fmt(v5, sizeof v5, cm ? cm->k_sec : NAN), fmt(v6, sizeof v6, cp ? cp->k_sec : NAN),
                        fmt(v7, sizeof v7, cm && cp && cm->k_sec != 0 ? cp->k_sec / cm->k_sec : NAN));
            }
            if (nc > 10)
                fprintf(fp, "\n(%zu more cycles in compare.json)\n", nc - 10);
        }
        for (int l = 0; l < c->map.nloop; l++)
            if (x->lfig[l][0])
                fprintf(fp, "\n![%s](%s)\n", mech_cli_text(c->map.loop[l].name), x->lfig[l]);
    }
    int figs = 0;
    for (int k = 0; k < c->map.n; k++)
        figs |= x->fig[k][0] != 0;
    if (figs) {
        fputs("\n## Overlays\n\nMeasured (grey) and predicted (red, the run shifted by the lag) above, predicted − "
              "measured below with the tolerance band (± tolerance × range: the RMS allowed).\n\n", fp);
        for (int k = 0; k < c->map.n; k++)
            if (x->fig[k][0])
                fprintf(fp, "![%s](%s)\n\n", mech_cli_text(c->map.ch[k].run), x->fig[k]);
    }
}

// (ctx, name, what) => DIR/name written: compare.json (doc) or report.md (md)
static int write_out(ctx *x, const char *name, cJSON *doc)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", x->dir, name);
    hy_atomic a;
    if (mech_out_open(x->cmd, &a, path, x->inputs[0], x->inputs + 1) != MECH_EXIT_OK)
        return MECH_EXIT_FAIL;
    if (doc) {
        char *text = hy_json_print(doc);
        if (!text) {
            hy_atomic_abort(&a);
            return mech_cli_fail(x->cmd, "out of memory");
        }
        fputs(text, a.fp);
        fputc('\n', a.fp);
        free(text);
    } else
        report_md(x, a.fp);
    return mech_out_commit(x->cmd, &a);
}

/* (argc, argv) => the second operand taken out of argv (GNU getopt sees one operand), *second it; -1 when there is
 * no second operand (NULL then). The options that take a value are those of the table. */
static void take_second(int *argc, char **argv, const hy_arg *tab, const char **second)
{
    int seen = 0;
    *second = NULL;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0)
            break;
        if (a[0] == '-' && a[1]) {
            if (strchr(a, '='))
                continue;
            for (int k = 0; tab[k].kind != HY_ARG_END; k++)
                if (tab[k].kind != HY_ARG_FLAG &&
                    ((a[1] == '-' && strcmp(a + 2, tab[k].name) == 0) || (a[1] == tab[k].letter && !a[2])))
                    i++;
            continue;
        }
        if (++seen == 2) {
            *second = a;
            memmove(argv + i, argv + i + 1, (size_t)(*argc - i - 1) * sizeof *argv);
            (*argc)--;
            return;
        }
    }
}

static int compare_main(const char *cmd, ctx *x, int argc, char **argv);

int mech_cmd_compare(int argc, char **argv)
{
    const char *cmd = "compare";
    ctx *xp = calloc(1, sizeof *xp); /* ~0.3 MB of impact and loop tables: not on the stack */
    if (!xp)
        return mech_cli_fail(cmd, "out of memory");
    int status = compare_main(cmd, xp, argc, argv);
    free(xp);
    return status;
}

// (command, zeroed context, argc, argv) => exit status: the whole command
static int compare_main(const char *cmd, ctx *x, int argc, char **argv)
{
    x->cmd = cmd;
    const char *channels = NULL, *align = NULL, *window = NULL;
    double dt = NAN, max_lag = NAN;
    int no_plots = 0, quiet = 0, set_dt = 0, set_lag = 0;
    tols tl = {0};
    const hy_arg tab[] = {
        HY_OPT_STR("output", 'o', &x->dir),
        HY_OPT_STR("map", 0, &x->mapfile),
        HY_OPT_STR("channels", 0, &channels),
        HY_OPT_STR("align", 0, &align),
        HY_OPT_STR("window", 0, &window),
        HY_OPT_CALL("tol", &tl, add_tol),
        HY_OPT_DOUBLE("dt", &dt, &set_dt),
        HY_OPT_DOUBLE("max-lag", &max_lag, &set_lag),
        HY_OPT_FLAG("no-plots", 0, &no_plots),
        HY_OPT_FLAG("quiet", 'q', &quiet),
        HY_OPT_END,
    };
    char **av = malloc((size_t)(argc + 1) * sizeof *av);
    if (!av)
        return mech_cli_fail(cmd, "out of memory");
    memcpy(av, argv, (size_t)(argc + 1) * sizeof *av);
    int ac = argc;
    take_second(&ac, av, tab, &x->meas);
    int go = mech_cli_parse(cmd, usage, tab, ac, av, "missing RUN and MEASURED (a mech dock folder or log, or a mech "
                            "beam sim output; a measured CSV or FILE.h5:/DSET)", &x->run);
    free(av);
    if (go != MECH_CLI_GO)
        return go;
    if (!x->meas)
        return mech_cli_usage(cmd, "missing MEASURED (a CSV file or FILE.h5:/DSET)");
    if (!x->dir)
        return mech_cli_usage(cmd, "missing -o DIR (the report's folder)");
    if (strcmp(x->meas, "-") == 0 || strcmp(x->run, "-") == 0)
        return mech_cli_usage(cmd, "standard input cannot be RUN or MEASURED: their channels are read one at a time "
                              "(give a file)");
    if (x->mapfile && channels)
        return mech_cli_usage(cmd, "--map and --channels: give one");
    if (!x->mapfile && !channels)
        return mech_cli_usage(cmd, "give --map FILE or --channels A,B,... (the channels to compare)");
    if (set_dt && !(dt > 0))
        return mech_cli_usage(cmd, "--dt %g: expected a positive step in s", dt);
    if (set_lag && !(max_lag >= 0))
        return mech_cli_usage(cmd, "--max-lag %g: expected a lag >= 0 in s", max_lag);
    hy_err err;
    mech_compare_map map;
    if (x->mapfile) {
        if (mech_compare_map_read(x->mapfile, &map, &err) != HY_OK)
            return mech_cli_fail(cmd, "%s", err.msg);
    } else {
        mech_compare_map_default(&map);
        const char *names[MECH_COMPARE_MAX_CH];
        char buf[MECH_COMPARE_MAX_CH * MECH_COMPARE_NAME];
        int n = 0;
        if (strlen(channels) >= sizeof buf)
            return mech_cli_usage(cmd, "--channels: too long");
        snprintf(buf, sizeof buf, "%s", channels);
        for (char *s = strtok(buf, ","); s; s = strtok(NULL, ",")) {
            if (n >= MECH_COMPARE_MAX_CH)
                return mech_cli_usage(cmd, "--channels: more than %d", MECH_COMPARE_MAX_CH);
            if (strlen(s) >= MECH_COMPARE_NAME)
                return mech_cli_usage(cmd, "--channels: '%.60s...' longer than %d bytes", s, MECH_COMPARE_NAME - 1);
            names[n++] = s;
        }
        if (n == 0 || mech_compare_map_same_names(&map, names, n, names, n, &err) != HY_OK)
            return mech_cli_usage(cmd, "--channels '%s': expected channel names separated by commas", channels);
        for (int k = 0; k < map.n; k++)
            snprintf(map.ch[k].key, sizeof map.ch[k].key, "--channels %d", k + 1);
    }
    if (window && mech_compare_map_window(&map, window, &err) != HY_OK)
        return mech_cli_usage(cmd, "%s", err.msg);
    if (align && mech_compare_map_align(&map, align, &err) != HY_OK)
        return mech_cli_usage(cmd, "%s", err.msg);
    for (int i = 0; i < tl.n; i++)
        if (mech_compare_map_tol(&map, tl.spec[i], &err) != HY_OK)
            return mech_cli_usage(cmd, "%s", err.msg);
    if (set_dt)
        map.dt = dt;
    if (set_lag)
        map.max_lag = max_lag;
    if (!x->mapfile) /* without a map: contact forces by their mech dock names */
        for (int k = 0; k < map.n; k++) {
            static const char *const forces[] = {"head_axial", "head_lateral", "limiter_f", NULL};
            for (int j = 0; forces[j]; j++)
                map.ch[k].impact |= strcmp(map.ch[k].run, forces[j]) == 0;
            map.ch[k].impact |= strncmp(map.ch[k].run, "roller", 6) == 0;
        }
    if (mech_compare_run_table(x->run, x->table, sizeof x->table, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    /* the records: the mapped channels only */
    const char *rn[MECH_COMPARE_MAX_CH], *mn[MECH_COMPARE_MAX_CH];
    for (int k = 0; k < map.n; k++)
        rn[k] = map.ch[k].run, mn[k] = map.ch[k].meas;
    /* outputs: never over an input (the run's table, the measured record, the map), checked before any is read */
    char file[4200];
    const char *dset;
    static char tf[4200], mf[4200];
    snprintf(tf, sizeof tf, "%s", hy_h5_split_path(x->table, file, sizeof file, &dset) ? file : x->table);
    snprintf(mf, sizeof mf, "%s", hy_h5_split_path(x->meas, file, sizeof file, &dset) ? file : x->meas);
    x->inputs[0] = tf, x->inputs[1] = mf, x->inputs[2] = x->mapfile, x->inputs[3] = NULL;
    {
        DIR *dp = opendir(x->dir);
        struct dirent *de;
        while (dp && (de = readdir(dp))) {
            if (strcmp(de->d_name, "compare.json") != 0 && strcmp(de->d_name, "report.md") != 0 &&
                strncmp(de->d_name, "overlay-", 8) != 0 && strncmp(de->d_name, "loop-", 5) != 0)
                continue;
            char p[4400];
            snprintf(p, sizeof p, "%s/%s", x->dir, de->d_name);
            for (int i = 0; i < 3; i++)
                if (x->inputs[i] && hy_same_file(p, x->inputs[i])) {
                    closedir(dp);
                    return mech_cli_fail(cmd, "%s: refusing to overwrite an input file (give another -o)", p);
                }
        }
        if (dp)
            closedir(dp);
    }
    mech_compare_rec run, meas;
    if (mech_compare_rec_read(x->table, "t", "s", rn, map.n, &run, &err) != HY_OK) {
        if (run.bad_ch >= 0 && x->mapfile)
            return mech_cli_fail(cmd, "%s: %s.run: %s", x->mapfile, map.ch[run.bad_ch].key, err.msg);
        if (run.bad_ch >= 0)
            return mech_cli_fail(cmd, "--channels %s: %s", map.ch[run.bad_ch].run, err.msg);
        return mech_cli_fail(cmd, "%s", err.msg);
    }
    if (mech_compare_rec_read(x->meas, map.time, map.time_unit, mn, map.n, &meas, &err) != HY_OK) {
        mech_compare_rec_free(&run);
        if (meas.bad_ch >= 0 && x->mapfile)
            return mech_cli_fail(cmd, "%s: %s.measured: %s", x->mapfile, map.ch[meas.bad_ch].key, err.msg);
        if (meas.bad_ch >= 0)
            return mech_cli_fail(cmd, "--channels %s: %s", map.ch[meas.bad_ch].meas, err.msg);
        return mech_cli_fail(cmd, "%s", err.msg);
    }
    int rc = mech_compare_new(&map, &run, &meas, &x->c, &err);
    mech_compare_rec_free(&run);
    mech_compare_rec_free(&meas);
    if (rc != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    const mech_compare *c = x->c;
    mech_compare_rec fl[NFLAG];
    int any_impact = 0;
    for (int k = 0; k < c->map.n; k++)
        any_impact |= c->map.ch[k].impact;
    for (int f = 0; f < NFLAG; f++)
        mech_compare_rec_init(&fl[f], x->table);
    if (any_impact)
        read_flags(x->table, fl);
    for (int k = 0; k < c->map.n; k++)
        if (c->map.ch[k].impact)
            find_impacts(c, k, fl, &x->imp[k]);
    for (int f = 0; f < NFLAG; f++)
        mech_compare_rec_free(&fl[f]);
    for (int l = 0; l < c->map.nloop; l++)
        if (mech_compare_loops(c, l, &x->lm[l], &x->lp[l], &err) != HY_OK) {
            for (int j = 0; j < l; j++)
                hy_loops_free(&x->lm[j]), hy_loops_free(&x->lp[j]);
            mech_compare_free(x->c);
            return mech_cli_fail(cmd, "%s: %s", x->mapfile, err.msg);
        }
    int status = mech_out_mkdir(cmd, x->dir);
    for (int k = 0; status == MECH_EXIT_OK && !no_plots && k < c->map.n; k++)
        status = figure(x, k);
    for (int l = 0; status == MECH_EXIT_OK && !no_plots && l < c->map.nloop; l++)
        status = loop_figure(x, l);
    cJSON *doc = status == MECH_EXIT_OK ? report_json(x) : NULL;
    if (status == MECH_EXIT_OK && !doc)
        status = mech_cli_fail(cmd, "out of memory");
    if (status == MECH_EXIT_OK)
        status = write_out(x, "compare.json", doc);
    if (status == MECH_EXIT_OK)
        status = write_out(x, "report.md", NULL);
    cJSON_Delete(doc);
    if (status == MECH_EXIT_OK && !quiet) {
        printf("mech compare: lag %.6g ms (%s), grid %zu x %.4g ms over %.6g-%.6g s\n", 1e3 * c->lag,
               method_name(c->map.align), c->n, 1e3 * c->h, c->t[0], c->t[c->n - 1]);
        for (int k = 0; k < c->map.n; k++) {
            const mech_compare_result *R = &c->res[k];
            char l[32], pk[32];
            printf("  %-16s -> %-16s NRMSE %-10.4g peak error %-10s own lag %s ms  %s\n",
                   mech_cli_text(c->map.ch[k].meas), mech_cli_text(c->map.ch[k].run), R->nrmse,
                   pct(pk, sizeof pk, R->peak_rel),
                   isfinite(R->lag) ? fmt(l, sizeof l, 1e3 * R->lag) : "-", verdict_text(R->verdict));
        }
        printf("  report in %s: compare.json, report.md%s\n", mech_cli_text(x->dir), no_plots ? "" : ", overlays");
    }
    for (int l = 0; l < c->map.nloop; l++)
        hy_loops_free(&x->lm[l]), hy_loops_free(&x->lp[l]);
    mech_compare_free(x->c);
    return status;
}

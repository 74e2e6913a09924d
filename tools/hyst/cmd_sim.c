// hyst sim: drive a model (any family, through hyst/model.h and hy_element_drive) with a displacement history
// read from a CSV file or generated from a protocol (hyst/drive.h); optional seeded noise (hyst/noise.h).
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "hyst/drive.h"
#include "hyst/model.h"
#include "hyst/noise.h"
#include "hyst/pwl.h"
#include "hyst/util.h"

#define CMD "sim"

static const char usage_text[] =
    "usage: hyst sim MODEL.json --protocol NAME [PROTOCOL OPTIONS] [-o OUT.csv] [NOISE OPTIONS]\n"
    "       hyst sim MODEL.json --drive DRIVE.csv [DATA OPTIONS] [-o OUT.csv] [NOISE OPTIONS]\n"
    "\n"
    "Drives the model (any hyst-model file: pwl, kin, bw, iwan) with a displacement history and writes\n"
    "CSV with the header t,q,Q,state: time, displacement, force and the model's state code after each sample.\n"
    "The model starts at rest at q = 0.\n"
    "\n"
    "  -o, --output FILE      write here instead of standard output (atomically; '-' = standard output)\n"
    "      --digits N         significant digits of the numbers (1..17; default: the fewest that read back exactly)\n"
    "      --strict           piecewise-linear models only: apply spec 000 Table 1 literally, one row per sample,\n"
    "                         as the paper's simulator does, so that a step jumping over a state is a violation\n"
    "                         (default: the displacement path between samples is followed through every row)\n"
    "\n"
    "History from a file:\n"
    "      --drive FILE       the displacement column (--x) drives the model; the time column (--t) when given\n"
    "                         gives dq/dt and the output t; without it t is the sample number 0, 1, 2, ...\n"
    "                         The reader also wants a force column (--y); it is read but not used.\n"
    "\n"
    "History from a protocol (every cycle goes q0 -> q0+A -> q0 -> q0-A -> q0; the record starts at rest at q = 0,\n"
    "with a ramp to q0 first when --offset is given):\n"
    "      --protocol NAME    sine | triangle        cycles at the amplitudes of --amplitudes\n"
    "                         steps                  --steps K levels max*i/K, i = 1..K, --cycles N each (default 3)\n"
    "                         iso16670               ISO 16670 style: 1 cycle at 1.25, 2.5, 5, 7.5, 10 % of --max,\n"
    "                                                then 3 cycles at 20, 40, 60, 80, 100 %\n"
    "                         atc24                  ATC-24 style with --yield DY: 3 cycles at DY/3 and 2DY/3, 3 at\n"
    "                                                DY, 2DY, 3DY, then 2 at 4DY, 5DY, ... up to --max\n"
    "      --amplitudes LIST  amplitudes A1,A2,... (sine, triangle)\n"
    "      --cycles N|LIST    cycles at each amplitude: one number for all, or one per amplitude (default 1)\n"
    "      --max A            largest amplitude (steps, iso16670, atc24)\n"
    "      --steps K          number of levels (steps)\n"
    "      --yield DY         yield displacement (atc24)\n"
    "      --wave sine|triangle  cycle shape for steps, iso16670, atc24 (default triangle)\n"
    "      --points N         samples per cycle, a multiple of 4 (default 200)\n"
    "      --offset Q0        centre of every cycle (default 0)\n"
    "      --period T         duration of a cycle (default 1), or\n"
    "      --rate V           peak |dq/dt|: a cycle of amplitude A lasts 4A/V (triangle) or 2 pi A/V (sine)\n"
    "      --inner AT:BACK[,AT:BACK...]\n"
    "                         partial inner loops: on the way out to each peak, reverse at AT*A, go back by\n"
    "                         BACK*A, then go on to the peak (0 < AT < 1, AT growing, BACK > 0)\n"
    "      --inner-cycles LIST  put the inner loops only in these cycles (1-based over the whole history;\n"
    "                         default: every cycle)\n"
    "\n"
    "Noise (measurement noise on the written columns; the model itself sees the clean history):\n"
    "      --noise LEVEL      Gaussian force noise: standard deviation LEVEL in force units, or P% of the peak |Q|\n"
    "                         of the clean response (e.g. --noise 1%)\n"
    "      --q-noise LEVEL    Gaussian displacement noise: LEVEL, or P% of the peak |q|\n"
    "      --seed N           seed of the noise (default 1); the same seed gives the same file on every machine\n"
    "\n"
    "A state-machine violation (or a displacement outside a kinematic model's range) stops the run: the rows\n"
    "before it are written and kept, the diagnostic and the time go to standard error, and the exit status is 1.\n"
    "\n";

typedef struct sim_opts {
    const char *model, *out, *drive, *protocol, *amplitudes, *cycles, *inner, *inner_cycles, *wave;
    const char *max, *steps, *yield, *points, *offset, *period, *rate;
    double      noise, q_noise;
    int         noise_pct, q_noise_pct, have_noise, have_q_noise;
    uint64_t    seed;
    int         digits;
    int         strict;
    int         data_opts;   /* a data-reading option was given */
    hy_csv_opts csv;
} sim_opts;

/* The history to run and its output buffers. */
typedef struct run {
    size_t  n;
    double *t, *q, *Q;
    int    *state;
    int     has_time;        /* t drives dq/dt (protocol, or --drive with --t)      */
    double *t_own, *q_own;   /* arrays this command allocated (protocol)              */
    hy_series series;        /* the drive file                                        */
    int     from_file;
} run;

/* ---- option parsing ------------------------------------------------------------------------------------------ */

// (text "LEVEL" or "P%") => value >= 0 and whether it is a percentage; -1 with a usage message
static int parse_level(const char *opt, const char *text, double *v, int *pct)
{
    char *end;
    double x = strtod(text, &end);
    *pct = end != text && strcmp(end, "%") == 0;
    if (end == text || (*end != '\0' && !*pct) || !isfinite(x) || x < 0.0) {
        hy_cli_usage(CMD, "--%s: expected a standard deviation >= 0 or a percentage like 2%%, got '%s'", opt, text);
        return -1;
    }
    *v = *pct ? x / 100.0 : x;
    return 0;
}

// (text) => 64-bit seed (decimal); -1 with a usage message
static int parse_seed(const char *text, uint64_t *seed)
{
    char *end;
    errno = 0;
    if (text[0] == '-' || text[0] == '+') {
        hy_cli_usage(CMD, "--seed: '%s' is not an integer from 0 to 18446744073709551615", text);
        return -1;
    }
    unsigned long long v = strtoull(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE) {
        hy_cli_usage(CMD, "--seed: '%s' is not an integer from 0 to 18446744073709551615", text);
        return -1;
    }
    *seed = (uint64_t)v;
    return 0;
}

/* ---- the history --------------------------------------------------------------------------------------------- */

// (options) => protocol history in r; returns an exit status
static int build_protocol(const sim_opts *o, run *r)
{
    hy_drive_args a = {
        .protocol = o->protocol, .amplitudes = o->amplitudes, .cycles = o->cycles, .max = o->max,
        .steps = o->steps, .yield = o->yield, .wave = o->wave, .points = o->points, .offset = o->offset,
        .period = o->period, .rate = o->rate, .inner = o->inner, .inner_cycles = o->inner_cycles};
    hy_drive_protocol p;
    hy_err err;
    int rc = hy_drive_parse(&a, &p, &err);
    if (rc != HY_OK)
        return rc == HY_ENOMEM ? hy_cli_fail(CMD, "%s", err.msg) : hy_cli_usage(CMD, "%s", err.msg);
    rc = HY_EXIT_USAGE;
    size_t n;
    if (hy_drive_count(&p.spec, &n, &err) != HY_OK) {
        hy_cli_usage(CMD, "%s", err.msg);
        goto out;
    }
    /* t, q, Q and the state of every sample stay in memory: refuse what the machine cannot hold before trying */
    size_t per_sample = 3 * sizeof(double) + sizeof(int);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    size_t limit = pages > 0 && page > 0 ? (size_t)((double)pages * (double)page / (double)per_sample) : SIZE_MAX;
    if (n > limit) {
        hy_cli_usage(CMD,
                     "the protocol asks for %zu samples, more than this machine's memory (%.1f GiB) holds: at most %zu "
                     "samples (%zu bytes each for t, q, Q and the state); use fewer cycles or points per cycle",
                     n, (double)pages * (double)page / 1073741824.0, limit, per_sample);
        goto out;
    }
    r->n = n;
    r->t = r->t_own = malloc(n * sizeof *r->t);
    r->q = r->q_own = malloc(n * sizeof *r->q);
    if (!r->t || !r->q) {
        rc = hy_cli_fail(CMD, "out of memory for a history of %zu samples", n);
        goto out;
    }
    if (hy_drive_fill(&p.spec, r->t, r->q, n, &err) != HY_OK) {
        hy_cli_usage(CMD, "%s", err.msg);
        goto out;
    }
    r->has_time = 1;
    rc = HY_EXIT_OK;
out:
    hy_drive_protocol_free(&p);
    return rc;
}

// (options) => drive file read into r; returns an exit status
static int build_drive(sim_opts *o, run *r)
{
    const char *stray = o->amplitudes ? "amplitudes" : o->cycles ? "cycles" : o->max ? "max" : o->steps ? "steps"
                        : o->yield ? "yield" : o->wave ? "wave" : o->points ? "points" : o->offset ? "offset"
                        : o->period ? "period" : o->rate ? "rate" : o->inner ? "inner"
                        : o->inner_cycles ? "inner-cycles" : NULL;
    if (stray)
        return hy_cli_usage(CMD, "--%s applies to --protocol, not to --drive", stray);
    /* The record is read like any bench record (hy_cli_read_series), as a displacement history: a force column
     * is neither needed nor read unless --y names one. */
    if (!o->csv.y_col)
        o->csv.no_force = 1;
    int rc = hy_cli_read_series(CMD, o->drive, &o->csv, &r->series);
    if (rc != 0)
        return rc;
    r->from_file = 1;
    r->n = r->series.n;
    r->q = r->series.q;
    r->t = r->series.t;
    r->has_time = r->series.t != NULL;
    if (r->n == 0)
        return hy_cli_fail(CMD, "%s: no samples to drive the model with", hy_display_name(o->drive));
    return HY_EXIT_OK;
}

/* ---- output -------------------------------------------------------------------------------------------------- */

// (value, digits or 0) => shortest text that reads back to v exactly (0), or v to `digits` significant digits
static int fmt_num(char *buf, size_t len, double v, int digits)
{
    if (digits > 0)
        return snprintf(buf, len, "%.*g", digits, v);
    return hy_fmt_exact(buf, len, v);
}

// (rows 0..n-1) => CSV rows on fp
static void write_rows(FILE *fp, const run *r, const double *q_out, const double *Q_out, size_t n, int digits)
{
    fputs("t,q,Q,state\n", fp);
    for (size_t i = 0; i < n; i++) { /* the row made in memory, one fwrite: no format parsing per number */
        char row[4 * 40], *l = row;
        l += fmt_num(l, 40, r->t ? r->t[i] : (double)i, digits);
        *l++ = ',';
        l += fmt_num(l, 40, q_out[i], digits);
        *l++ = ',';
        l += fmt_num(l, 40, Q_out[i], digits);
        l += snprintf(l, 40, ",%d\n", r->state[i]);
        fwrite(row, 1, (size_t)(l - row), fp);
    }
}

// (x[0..n-1]) => max |x|
static double peak_abs(const double *x, size_t n)
{
    double p = 0.0;
    for (size_t i = 0; i < n; i++)
        p = fabs(x[i]) > p ? fabs(x[i]) : p;
    return p;
}

/* ---- the command --------------------------------------------------------------------------------------------- */

static void usage(FILE *fp)
{
    fputs(usage_text, fp);
    fputs("Data options (with --drive):\n", fp);
    fputs(hy_cli_data_help, fp);
}

// (argv) => options; returns -1 to go on, else an exit status
static int parse_args(int argc, char **argv, sim_opts *o)
{
    const char *noise = NULL, *q_noise = NULL, *seed = NULL, *digits = NULL;
    const hy_arg tab[] = {
        HY_OPT_STR("output", 'o', &o->out),           HY_OPT_STR("drive", 0, &o->drive),
        HY_OPT_STR("protocol", 0, &o->protocol),      HY_OPT_STR("amplitudes", 0, &o->amplitudes),
        HY_OPT_STR("cycles", 0, &o->cycles),          HY_OPT_STR("max", 0, &o->max),
        HY_OPT_STR("steps", 0, &o->steps),            HY_OPT_STR("yield", 0, &o->yield),
        HY_OPT_STR("wave", 0, &o->wave),              HY_OPT_STR("points", 0, &o->points),
        HY_OPT_STR("offset", 0, &o->offset),          HY_OPT_STR("period", 0, &o->period),
        HY_OPT_STR("rate", 0, &o->rate),              HY_OPT_STR("inner", 0, &o->inner),
        HY_OPT_STR("inner-cycles", 0, &o->inner_cycles), HY_OPT_STR("noise", 0, &noise),
        HY_OPT_STR("q-noise", 0, &q_noise),           HY_OPT_STR("seed", 0, &seed),
        HY_OPT_STR("digits", 0, &digits),             HY_OPT_FLAG("strict", 0, &o->strict),
        HY_CLI_DATA_OPTS(&o->csv, &o->data_opts),
        HY_OPT_END};
    int go = tool_parse(CMD, usage, tab, argc, argv,
                        "missing MODEL.json (hyst sim MODEL.json (--protocol NAME | --drive FILE))", &o->model);
    if (go != TOOL_CLI_GO)
        return go;
    if ((noise && parse_level("noise", noise, &o->noise, &o->noise_pct) != 0) ||
        (q_noise && parse_level("q-noise", q_noise, &o->q_noise, &o->q_noise_pct) != 0) ||
        (seed && parse_seed(seed, &o->seed) != 0))
        return HY_EXIT_USAGE;
    o->have_noise = noise != NULL, o->have_q_noise = q_noise != NULL;
    if (digits && tool_int_range(CMD, "digits", digits, 1, 17, &o->digits) != 0)   /* significant digits */
        return HY_EXIT_USAGE;
    if (!o->drive == !o->protocol)
        return hy_cli_usage(CMD, "give exactly one of --protocol NAME and --drive FILE");
    if (o->data_opts && !o->drive)
        return hy_cli_usage(CMD, "data options (--x, --t, ...) apply to --drive only");
    if (strcmp(o->model, "-") == 0 && o->drive && strcmp(o->drive, "-") == 0)
        return hy_cli_usage(CMD, "the model and the drive cannot both come from standard input");
    return -1;
}

// (argc, argv of "sim ...") => CSV written, exit status 0 / 1 (data, model, violation) / 2 (usage)
int hy_cmd_sim(int argc, char **argv)
{
    sim_opts o;
    memset(&o, 0, sizeof o);
    o.out = "-";
    o.seed = 1;
    hy_csv_opts_default(&o.csv);
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0)
        return rc;

    run r;
    memset(&r, 0, sizeof r);
    hy_series_init(&r.series);
    hy_model m;
    memset(&m, 0, sizeof m);
    hy_element e = {0};
    double *q_out = NULL;
    hy_atomic out = {0};
    int out_open = 0;
    hy_err err;

    /* The model first: a bad model file is the likelier mistake, and it is cheap to check. */
    if (hy_model_read(o.model, &m, &err) != HY_OK) {
        rc = hy_cli_fail(CMD, "%s", err.msg);
        goto done;
    }
    rc = o.drive ? build_drive(&o, &r) : build_protocol(&o, &r);
    if (rc != HY_EXIT_OK)
        goto done;
    if (strcmp(o.out, "-") != 0 && strcmp(o.model, "-") != 0 && hy_same_file(o.out, o.model)) {
        rc = hy_cli_fail(CMD, "%s: refusing to overwrite an input file", o.out);
        goto done;
    }
    r.Q = malloc(r.n * sizeof *r.Q);
    r.state = malloc(r.n * sizeof *r.state);
    if (!r.Q || !r.state) {
        rc = hy_cli_fail(CMD, "out of memory for %zu samples", r.n);
        goto done;
    }
    if (hy_model_element(&m, &e, &err) != HY_OK) {
        rc = hy_cli_fail(CMD, "%s: %s", hy_display_name(o.model), err.msg);
        goto done;
    }
    if (o.strict) {
        hy_pwl_data *pd = m.type == HY_MODEL_PWL ? hy_pwl_element_data(&e) : NULL;
        if (!pd) {
            rc = hy_cli_usage(CMD, "--strict applies to piecewise-linear models; %s is a kinematic model",
                              hy_display_name(o.model));
            goto done;
        }
        hy_pwl_set_strict(pd, 1);
    }

    /* The model starts at rest at q = 0 and is stepped sample by sample (trial + commit). */
    size_t done = 0;
    hy_diag diag;
    memset(&diag, 0, sizeof diag);
    int sim_rc = hy_element_drive(&e, 0.0, r.has_time ? r.t : NULL, r.q, r.n, r.Q, r.state, &done, &diag);

    /* Measurement noise on the rows computed; levels in percent refer to the clean peaks of those rows. */
    q_out = r.q;
    if (o.have_q_noise && o.q_noise > 0.0) {
        q_out = malloc((done ? done : 1) * sizeof *q_out);
        if (!q_out) {
            rc = hy_cli_fail(CMD, "out of memory");
            goto done;
        }
        memcpy(q_out, r.q, done * sizeof *q_out);
        double sigma = o.q_noise_pct ? o.q_noise * peak_abs(r.q, done) : o.q_noise;
        hy_rng g;
        hy_rng_seed(&g, o.seed, 1);
        hy_noise_add(&g, sigma, q_out, done);
    }
    if (o.have_noise && o.noise > 0.0) {
        double sigma = o.noise_pct ? o.noise * peak_abs(r.Q, done) : o.noise;
        hy_rng g;
        hy_rng_seed(&g, o.seed, 0);
        hy_noise_add(&g, sigma, r.Q, done);
    }

    /* Whatever happened, the rows computed are written and committed: complete rows only. */
    const char *models[] = {o.model, NULL};
    if ((rc = tool_out_open(CMD, &out, o.out, o.drive, models)) != HY_EXIT_OK)
        goto done;
    out_open = 1;
    static char buf[1 << 20];
    if (!out.is_stdout)
        setvbuf(out.fp, buf, _IOFBF, sizeof buf);
    write_rows(out.fp, &r, q_out, r.Q, done, o.digits);
    out_open = 0;
    if ((rc = tool_out_commit(CMD, &out)) != HY_EXIT_OK)
        goto done;

    if (sim_rc != HY_OK) {
        char what[400], where[160] = "";
        hy_diag_format(&diag, what, sizeof what);
        if (r.from_file && r.series.line)
            snprintf(where, sizeof where, ", line %zu of %s", r.series.line[done], hy_display_name(o.drive));
        if (r.t)
            rc = hy_cli_fail(CMD, "%s: stopped at t = %.10g (sample %zu%s): %s; the %zu rows before it are written",
                             hy_display_name(o.model), r.t[done], done, where, what, done);
        else
            rc = hy_cli_fail(CMD, "%s: stopped at sample %zu (t = %zu%s): %s; the %zu rows before it are written",
                             hy_display_name(o.model), done, done, where, what, done);
        goto done;
    }
    rc = HY_EXIT_OK;
done:
    if (out_open)
        hy_atomic_abort(&out);
    if (q_out && q_out != r.q)
        free(q_out);
    hy_element_free(&e);
    hy_model_free(&m);
    free(r.Q);
    free(r.state);
    free(r.t_own);
    free(r.q_own);
    hy_series_free(&r.series);
    return rc;
}

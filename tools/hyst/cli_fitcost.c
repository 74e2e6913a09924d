/* The time a fit will take, said before it starts, and a limit above which it does not start (issue 42, N24:
 * `hyst fit` on 10^6 rows took minutes without a word, `--bootstrap 100000` would have taken hours).
 * The estimate is a cost model, CPU seconds per row and per fit, measured on this project's development machine
 * (x86-64, 2026) with the friction record of fixtures/synthetic/pwl_friction_fit.csv repeated to 10^5 rows:
 *     /usr/bin/time -f %U bin/hyst fit FAMILY rec100000.csv -o m.json
 * gave 0.75 s (pwl), 3.36 s (kin), 15.6 s (bw), 3.36 s (iwan). The cost grows about linearly with the rows
 * (pwl less: 10^6 rows in 7.5 s wall, not 7.5 s CPU x 10: the estimate is an upper bound there); a bootstrap
 * replicate costs one fit. Records of another shape (many short cycles, noise) change the constant by a small
 * factor: the estimate says minutes or hours, not seconds (docs/limits-and-outputs.md "Long fits"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const struct {
    const char *family;
    double cpu_per_row; /* seconds, one fit */
} cost[] = {{"pwl", 7.5e-6}, {"kin", 3.4e-5}, {"bw", 1.6e-4}, {"iwan", 3.4e-5},
                {"clough", 3.6e-5}}; /* clough: SPC1, 33028 rows, 1.2 s */

double hy_cli_fit_seconds(const char *family, size_t rows, int refits)
{
    double per = 0;
    for (size_t k = 0; k < sizeof cost / sizeof *cost; k++)
        if (strcmp(family, cost[k].family) == 0)
            per = cost[k].cpu_per_row;
    return per * (double)rows * (1.0 + (refits > 0 ? refits : 0));
}

double hy_cli_fit_limit(void)
{
    const char *e = getenv("HYST_FIT_MAX");
    char *end;
    double v = e && *e ? strtod(e, &end) : 0;
    return e && *e && *end == '\0' && v > 0 ? v : 3600.0;
}

// (seconds) => "0.49 s", "40 s", "12 min", "3.5 h"
static void duration_text(char *buf, size_t len, double s)
{
    if (s < 10)
        snprintf(buf, len, "%.2g s", s);
    else if (s < 90)
        snprintf(buf, len, "%.0f s", s);
    else if (s < 5400)
        snprintf(buf, len, "%.0f min", s / 60);
    else
        snprintf(buf, len, "%.1f h", s / 3600);
}

int hy_cli_fit_begin(const char *cmd, const char *source, double est, size_t rows, int refits, hy_stage *st)
{
    char t[32], lim[32], label[64];
    duration_text(t, sizeof t, est);
    double limit = hy_cli_fit_limit();
    if (est > limit) {
        duration_text(lim, sizeof lim, limit);
        char boot[48] = "";
        if (refits > 0)
            snprintf(boot, sizeof boot, " and %d bootstrap refits", refits);
        return hy_cli_fail(cmd, "%s: %zu rows%s: the fit would take about %s of CPU time, more than the limit of %s; "
                           "decimate the record%s, or raise the limit with HYST_FIT_MAX=SECONDS", source, rows, boot,
                           t, lim, refits > 0 ? ", lower --bootstrap" : "");
    }
    if (!st)
        return HY_EXIT_OK;
    snprintf(label, sizeof label, "hyst %s", cmd);
    /* said on a terminal (or HYST_PROGRESS=1) from 1 s on, and in any case from 30 s on (a log says why it is
       silent): hy_stage's rule; the elapsed time follows the fit */
    char what[96];
    if (refits > 0)
        snprintf(what, sizeof what, "fitting %zu rows, then %d bootstrap refits", rows, refits);
    else
        snprintf(what, sizeof what, "fitting %zu rows", rows);
    hy_stage_start(st, label, est, "%s (about %s of CPU time)", what, t);
    return HY_EXIT_OK;
}

void hy_cli_boot_begin(hy_cli_boot_progress *bp, const char *cmd, double est, int refits)
{
    char label[64], t[32];
    snprintf(label, sizeof label, "hyst %s: bootstrap", cmd);
    hy_progress_start(&bp->pr, label);
    memset(&bp->st, 0, sizeof bp->st);
    if (!bp->pr.on) { /* no progress line: a log still says why the run is silent */
        duration_text(t, sizeof t, est);
        snprintf(label, sizeof label, "hyst %s", cmd);
        hy_stage_start(&bp->st, label, est, "%d bootstrap refits (about %s of CPU time)", refits, t);
    }
}

void hy_cli_boot_step(void *ctx, int done, int refits)
{
    hy_cli_boot_progress *bp = ctx;
    bp->pr.calls |= 255u; /* a refit is long: the clock is read at every one (hy_progress reads it every 256) */
    hy_progress_update(&bp->pr, (double)done / refits);
}

void hy_cli_boot_end(hy_cli_boot_progress *bp)
{
    hy_progress_end(&bp->pr);
    hy_stage_end(&bp->st);
}

// Loop-analysis options shared by the commands that find reversals and cycles (see cli.h).
#include <stdio.h>
#include "cli.h"

const char hy_cli_loops_help[] =
    "loop-analysis options (how reversals and cycles are found; docs/loops.md):\n"
    "      --threshold H      a reversal counts once q has moved back by more than H (q units, > 0); default:\n"
    "                         from the data, max(K x noise, 0.5 % of the q range), at most 1 % of it on sparse records\n"
    "      --center C         centre of the motion (q units, default 0): cycles run from one upward crossing of C\n"
    "                         to the next and amplitudes are measured from C (records about an offset)\n\n";

// (getopt value, argument) => loop options updated; 1 consumed, 0 not ours, -1 bad value
int hy_cli_loops_option(const char *cmd, int opt, const char *arg, hy_loops_opts *o)
{
    switch (opt) {
    case HY_OPT_THRESHOLD:
        if (hy_cli_double(cmd, "threshold", arg, &o->threshold) != 0)
            return -1;
        if (!(o->threshold > 0)) {
            hy_cli_usage(cmd, "--threshold: expected a positive number (q units), got '%s'", arg);
            return -1;
        }
        return 1;
    case HY_OPT_CENTER:
        return hy_cli_double(cmd, "center", arg, &o->center) != 0 ? -1 : 1;
    default:
        return 0;
    }
}

// (command, record, loop options, need_loop) => 0, or the refusal printed (hy_record_check) and HY_EXIT_FAIL
int hy_cli_check_record(const char *cmd, const hy_series *s, const hy_loops_opts *o, int need_loop)
{
    hy_err err;
    if (hy_record_check(s->q, s->Q, s->n, o, need_loop, &err) != HY_OK)
        return hy_cli_fail(cmd, "%s: %s", s->source, err.msg);
    return HY_EXIT_OK;
}

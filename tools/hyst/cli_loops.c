// Loop-analysis options shared by the commands that find reversals and cycles (see cli.h).
#include <stdio.h>
#include <string.h>
#include "hyst/args.h"
#include "cli.h"
#include "hyst/condition.h"
#include "hyst/model.h"

/* the conditioning options of this process's command (set while its options are parsed; 'hyst fit all' hands
   the same options to each fit it runs) */
static hy_condition_opts cond;

const char hy_cli_loops_help[] =
    "loop-analysis options (how reversals and cycles are found; docs/loops.md):\n"
    "      --threshold H      a reversal counts once q has moved back by more than H (q units, > 0); default:\n"
    "                         from the data, max(K x noise, 0.5 % of the q range), at most 1 % of it on sparse records\n"
    "      --center C         centre of the motion (q units, default 0): cycles run from one upward crossing of C\n"
    "                         to the next and amplitudes are measured from C (records about an offset)\n"
    "record conditioning (opt-in, reported on stderr; docs/data-input.md \"Conditioning\"):\n"
    "      --trim-rest        drop the rows at rest before the motion starts and after it ends\n"
    "      --remove-offset W  subtract the value at rest (mean over the start's rest rows): W = q, Q or q,Q\n"
    "      --rest-tol TOL     a row is at rest within TOL of the first (last) row (q units; default 0.5 %% of the\n"
    "                         q range)\n\n";

// --threshold H, --center C, --trim-rest, --remove-offset W, --rest-tol TOL => loop or conditioning options
int hy_cli_opt_loops(void *dst, const char *v, hy_args *st, hy_err *err)
{
    hy_loops_opts *o = dst;
    const char *name = st->arg->name;
    if (strcmp(name, "threshold") == 0) {
        if (hy_args_double(name, v, &o->threshold, err) != HY_OK)
            return HY_EARG;
        if (!(o->threshold > 0))
            return hy_err_set(err, HY_EARG, "--threshold: expected a positive number (q units), got '%s'", v);
    } else if (strcmp(name, "center") == 0) {
        if (hy_args_double(name, v, &o->center, err) != HY_OK)
            return HY_EARG;
    } else if (strcmp(name, "trim-rest") == 0) {
        cond.trim_rest = 1;
    } else if (strcmp(name, "remove-offset") == 0) {
        if (strcmp(v, "q") != 0 && strcmp(v, "Q") != 0 && strcmp(v, "q,Q") != 0 && strcmp(v, "Q,q") != 0)
            return hy_err_set(err, HY_EARG, "--remove-offset: expected q, Q or q,Q, got '%s'", v);
        cond.offset_q = strchr(v, 'q') != NULL;
        cond.offset_Q = strchr(v, 'Q') != NULL;
    } else {
        if (hy_args_double(name, v, &cond.rest_tol, err) != HY_OK)
            return HY_EARG;
        if (!(cond.rest_tol > 0))
            return hy_err_set(err, HY_EARG, "--rest-tol: expected a positive number (q units), got '%s'", v);
    }
    hy_cli_opt_note(st, v);
    return HY_OK;
}

// (command, record, loop options, need_loop) => 0, or the refusal printed (hy_record_check) and HY_EXIT_FAIL
int hy_cli_check_record(const char *cmd, const hy_series *s, const hy_loops_opts *o, int need_loop)
{
    hy_err err;
    if (hy_record_check(s->q, s->Q, s->n, o, need_loop, &err) != HY_OK)
        return hy_cli_fail(cmd, "%s: %s", s->source, err.msg);
    return HY_EXIT_OK;
}

/* what conditioning did to this process's record (the fit commands store it in the model file's provenance) */
static hy_condition_report cond_rep;
static int cond_done;

// (command, record) => conditioned in place as the options asked, and reported
int hy_cli_condition(const char *cmd, hy_series *s)
{
    hy_condition_report r;
    hy_err err;
    if (hy_condition(s->t, s->q, s->Q, s->line, s->n, &cond, &r, &err) != HY_OK)
        return hy_cli_fail(cmd, "%s: %s", s->source, err.msg);
    if (r.n_out == r.n_in && r.q_offset == 0 && r.Q_offset == 0 && !cond.trim_rest && !cond.offset_q && !cond.offset_Q)
        return HY_EXIT_OK;
    s->n = r.n_out;
    cond_rep = r;
    cond_done = 1;
    char line[HY_MSG_LEN];
    hy_condition_describe(&cond, &r, line, sizeof line);
    tool_note(cmd, "%s: %s", s->source, line);
    return HY_EXIT_OK;
}

// (command, model file's path, model) => its conditioning provenance printed, or the malformed key named
int hy_cli_model_provenance(const char *cmd, const char *path, const struct hy_model *m)
{
    hy_condition_opts o;
    hy_condition_report r;
    hy_err err;
    int present;
    if (hy_model_conditioning(m, hy_display_name(path), &present, &o, &r, &err) != HY_OK)
        return hy_cli_fail(cmd, "%s", err.msg);
    if (!present)
        return HY_EXIT_OK;
    char line[HY_MSG_LEN];
    hy_condition_describe(&o, &r, line, sizeof line);
    tool_note(cmd, "%s: fitted on a record %s%s", hy_display_name(path), line,
         cond_done ? "" : " (this record is not conditioned: give the same --trim-rest / --remove-offset to compare "
                          "like with like)");
    return HY_EXIT_OK;
}

// (command, fitted model) => the conditioning of the record it was fitted on stored as its provenance
int hy_cli_condition_provenance(const char *cmd, struct hy_model *m)
{
    hy_err err;
    if (cond_done && hy_model_set_conditioning(m, &cond, &cond_rep, &err) != HY_OK)
        return hy_cli_fail(cmd, "%s", err.msg);
    return HY_EXIT_OK;
}

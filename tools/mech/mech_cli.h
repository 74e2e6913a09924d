/* Shared pieces of the `mech` program: its commands, its figures, and the names of the command-line layer of both
 * programs (tools/common/tool_cli.h) that its commands call. */
#ifndef MECH_CLI_H
#define MECH_CLI_H

#include <stdio.h>
#include "hyst/util.h"

/* The command-line layer is both programs' (tools/common/tool_cli.h); these are its functions under the names the
 * mech commands call them by (one implementation: each name is the tool_ function itself) */
#include "tool_cli.h"
enum { MECH_EXIT_OK = TOOL_EXIT_OK, MECH_EXIT_FAIL = TOOL_EXIT_FAIL, MECH_EXIT_USAGE = TOOL_EXIT_USAGE };
#define MECH_CLI_GO       TOOL_CLI_GO
#define mech_cli_fail     tool_fail
#define mech_cli_usage    tool_usage
#define mech_cli_warn     tool_warn
#define mech_cli_stdout   tool_stdout
#define mech_cli_text     tool_text
#define mech_cli_double   tool_double
#define mech_cli_int      tool_int
#define mech_cli_parse    tool_parse
#define mech_cli_sub      tool_sub
#define mech_out_open     tool_out_open
#define mech_out_commit   tool_out_commit
#define mech_out_distinct tool_out_distinct
#define mech_out_lock     tool_out_lock
#define mech_out_mkdir    tool_out_mkdir
#define mech_out_note     tool_out_note
#define mech_out_sweep    tool_out_sweep
#define mech_out_clear    tool_out_clear

/* (the value of --output-rate R|events, `mech dock` and `mech beam sim`; mech_cli.c) => *events = 1 for "events",
 * else *rate = R >= 0 (0: every step) and *events = 0 (the last one given wins); HY_EARG with the message in err */
int mech_cli_output_rate(const char *text, double *rate, int *events, hy_err *err);

// (fp, text) => the text as a gnuplot single-quoted string (' doubled, control characters dropped)
void mech_cli_gp_quote(FILE *fp, const char *t);

/* A gnuplot figure (mech_gnuplot.c): checked and written as every other output (hy_atomic_open: never an input,
 * links and devices as for -o, the mode of a replaced file kept), drawn from a uniquely named script beside it
 * (FIGURE.tmpXXXXXX; in $TMPDIR only for a figure written in place); both temporaries are removed on a signal. gnuplot is HYST_GNUPLOT when set. */
typedef struct mech_fig {
    hy_atomic out;
    char script[4200];
    FILE *fp;          /* the script, after "set terminal TERM" and "set output" */
} mech_fig;
// (command, figure path, inputs (NULL-terminated, may be NULL), gnuplot terminal) => f->fp open; exit status
int mech_fig_open(const char *cmd, mech_fig *f, const char *path, const char *const *inputs, const char *term);
// (open figure) => script closed and run; the figure committed (failures name it and gnuplot's first line)
int mech_fig_run(const char *cmd, mech_fig *f);
// (open figure) => script and temporary figure removed
void mech_fig_abort(mech_fig *f);

// (argc, argv) of "mech pendulum ..." => exit status
int mech_cmd_pendulum(int argc, char **argv);
// (argc, argv) of "mech friction ..." => exit status
int mech_cmd_friction(int argc, char **argv);
// (argc, argv) of "mech beam ..." => exit status
int mech_cmd_beam(int argc, char **argv);
// (argc, argv) of "mech dock ..." => exit status
int mech_cmd_dock(int argc, char **argv);
// (argc, argv) of "mech sweep ..." => exit status (tools/mech/cmd_sweep.c)
int mech_cmd_sweep(int argc, char **argv);
// (argc, argv) of "mech view ..." => exit status (tools/mech/cmd_view.c, docs/view.md)
int mech_cmd_view(int argc, char **argv);
// (argc, argv) of "mech compare ..." => exit status (tools/mech/cmd_compare.c, docs/compare.md)
int mech_cmd_compare(int argc, char **argv);
// (argc, argv) of "mech calibrate ..." => exit status
int mech_cmd_calibrate(int argc, char **argv);

#endif

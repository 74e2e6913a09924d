/* Shared pieces of the `mech` program: error reporting with the command name and number parsing. */
#ifndef MECH_CLI_H
#define MECH_CLI_H

#include <stdio.h>
#include "hyst/util.h"

enum { MECH_EXIT_OK = 0, MECH_EXIT_FAIL = 1, MECH_EXIT_USAGE = 2 };

// (command, printf format) => "mech COMMAND: message" on stderr; returns MECH_EXIT_FAIL
int mech_cli_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// (command, printf format) => "mech COMMAND: message (see 'mech COMMAND --help')" on stderr; returns MECH_EXIT_USAGE
int mech_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// (command, printf format) => "mech COMMAND: warning: message" on stderr
void mech_cli_warn(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* (command or NULL, its exit status) => the status, or MECH_EXIT_FAIL after "mech COMMAND: standard output: REASON"
 * when its report (or data written to "-") could not all be written (a full disk, /dev/full, EIO): a command never
 * exits 0 with a lost report; a command that failed already keeps its status and its one message */
int mech_cli_stdout(const char *cmd, int status);
/* (text from a file or the command line) => printable copy (hy_msg_text: control bytes as '?', so no escape
 * sequence reaches the terminal); 8 rotating buffers of 1 kB, for the reports printed on standard output */
const char *mech_cli_text(const char *s);
// (command, option name, text) => finite double in *out; 0, or -1 after a usage message
int mech_cli_double(const char *cmd, const char *opt, const char *text, double *out);
// (command, option name, text, minimum) => integer >= min in *out; 0, or -1 after a usage message
int mech_cli_int(const char *cmd, const char *opt, const char *text, int min, int *out);
/* (the value of --output-rate R|events, `mech dock` and `mech beam sim`) => *events = 1 for "events", else
 * *rate = R >= 0 (0: every step) and *events = 0 (the last one given wins); HY_EARG with the message in err */
int mech_cli_output_rate(const char *text, double *rate, int *events, hy_err *err);

/* The prologue of a command (docs/limits-and-outputs.md, "One command-line layer"): its options declared in a table
 * (hyst/args.h: name, letter, kind, destination), -h / --help printing its usage, every mistake one usage error
 * (exit 2) in the same words in every command. Returns MECH_CLI_GO when the command goes on, else the exit status
 * to return (0 after --help). missing: the message when the one operand is absent, or NULL for no operand. */
#define MECH_CLI_GO (-1)
#include "hyst/args.h"
int mech_cli_parse(const char *cmd, void (*usage)(FILE *), const hy_arg *tab, int argc, char **argv,
                   const char *missing, const char **operand);
/* (program word "beam", usage, argc, argv of "mech beam SUB ...", subcommands (NULL-terminated)) => *mode its
 * index and name "beam SUB" (the cmd of the messages); no word: the usage on stderr, exit 2; -h / --help: the usage,
 * exit 0; an unknown word: "unknown command 'x' (expected freq, sim or lqr)". MECH_CLI_GO or the exit status. */
int mech_cli_sub(const char *cmd, void (*usage)(FILE *), int argc, char **argv, const char *const *subs, int *mode,
                 char *name, size_t len);

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

/* Output folders (mech_outputs.c): a lock held for the run (a second run into the folder is refused), the outputs
 * written by this run noted, and once it has written its summary (a file name) the files matching the command's patterns ("history.csv", "view-*.png")
 * that it did not write removed, with the temporaries of a killed run. */
int mech_out_lock(const char *cmd, hy_dir_lock *l, const char *dir);
// (command, folder) => the folder and its parents made (mkdir -p); "DIR: not a folder" when a file is in the way
int mech_out_mkdir(const char *cmd, const char *dir);
/* Output files (mech_outputs.c), every command's: (command, path or "-", protect: the input hy_atomic_open
 * refuses (may be NULL), others: further inputs (NULL-terminated, may be NULL)) => refused when the path is one of
 * them ("PATH: refusing to overwrite an input file"), else open atomically: a temporary beside it, registered with
 * the signal clean-up, renamed into place by mech_out_commit (which reports a failure) or removed by
 * hy_atomic_abort. Exit status. */
int mech_out_open(const char *cmd, hy_atomic *a, const char *path, const char *protect, const char *const *others);
int mech_out_commit(const char *cmd, hy_atomic *a);
/* (command, n outputs: paths (NULL: not asked for; "-": standard output, never compared) and their option
 * names) => usage error "-o and --summary name the same file 'x'" when two of them are one file */
int mech_out_distinct(const char *cmd, int n, const char *const *paths, const char *const *names);
void mech_out_note(const char *path);
int mech_out_sweep(const char *cmd, const char *dir, const char *summary, const char *const *patterns);
/* (command, folder, figure patterns) => before a rerun commits its first output: the regular files matching the
 * patterns (the earlier run's figures) removed, silently (this run draws its own), so an interruption between its
 * summary and its figures leaves no figure of the earlier run beside the new data (issue 42, N22); a link or a
 * device at a figure path stays */
int mech_out_clear(const char *cmd, const char *dir, const char *const *patterns);

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

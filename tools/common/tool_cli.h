/* The command-line layer of both programs, `hyst` and `mech` (docs/limits-and-outputs.md, "One command-line layer"):
 * messages "PROGRAM COMMAND: message", the exit statuses, the option prologue over the declarative tables of
 * hyst/args.h, numbers, the check of standard output, and the output rules (tool_outputs.c: atomic files that are
 * never an input, two outputs never one file, output folders). Each program names itself once (tool_cli_init) and
 * every command calls these; tools/mech/mech_cli.h and tools/hyst/cli.h keep their programs' names for them. */
#ifndef TOOL_CLI_H
#define TOOL_CLI_H

#include <stddef.h>
#include <stdio.h>
#include "hyst/args.h"
#include "hyst/util.h"

/* Exit statuses of every command of both programs: 0 success, 1 failure on the data or model, 2 bad usage. */
enum { TOOL_EXIT_OK = 0, TOOL_EXIT_FAIL = 1, TOOL_EXIT_USAGE = 2 };

// (program word: "hyst" or "mech") => the name every message of this process starts with (main, before anything)
void tool_cli_init(const char *program);
// () => the program word given to tool_cli_init ("hyst" until then)
const char *tool_cli_program(void);

// (command, printf format) => "PROGRAM COMMAND: message" on stderr; returns TOOL_EXIT_FAIL
int tool_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* (command, printf format) => "PROGRAM COMMAND: message (see 'PROGRAM COMMAND --help')" on stderr; returns
 * TOOL_EXIT_USAGE */
int tool_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// (command, printf format) => "PROGRAM COMMAND: warning: message" on stderr
void tool_warn(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// (command, printf format) => "PROGRAM COMMAND: message" on stderr, a note that is neither a failure nor a warning
void tool_note(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* (command or NULL, its exit status) => the status, or TOOL_EXIT_FAIL after "PROGRAM COMMAND: standard output:
 * REASON" when its report (or data written to "-") could not all be written (a full disk, /dev/full, EIO): a command
 * never exits 0 with a lost report; a command that failed already keeps its status and its one message */
int tool_stdout(const char *cmd, int status);
/* (text from a file or the command line) => printable copy (hy_msg_text: control bytes as '?', so no escape
 * sequence reaches the terminal); 8 rotating buffers of 1 kB, for the reports printed on standard output */
const char *tool_text(const char *s);
// (command, option name, text) => finite double in *out; 0, or -1 after a usage message
int tool_double(const char *cmd, const char *opt, const char *text, double *out);
// (command, option name, text, minimum) => integer >= min in *out; 0, or -1 after a usage message
int tool_int(const char *cmd, const char *opt, const char *text, int min, int *out);
// (command, option name, text, lo, hi) => integer in lo..hi in *out; 0, or -1 after a usage message
int tool_int_range(const char *cmd, const char *opt, const char *text, int lo, int hi, int *out);

/* The prologue of a command: its options declared in a table (hyst/args.h: name, letter, kind, destination),
 * -h / --help printing its usage on stdout, every mistake one usage error (exit 2) in the same words in every
 * command of both programs. Returns TOOL_CLI_GO when the command goes on, else the exit status to return (0 after
 * --help). missing: the message when the one operand is absent, or NULL for no operand. */
#define TOOL_CLI_GO (-1)
int tool_parse(const char *cmd, void (*usage)(FILE *), const hy_arg *tab, int argc, char **argv, const char *missing,
               const char **operand);
/* The same for a command of min..max operands (`hyst replay MODEL... DATA`): fewer is the usage error `missing`,
 * more "unexpected argument 'x'"; the operands are argv[*first .. *first + *count - 1] */
int tool_parse_n(const char *cmd, void (*usage)(FILE *), const hy_arg *tab, int argc, char **argv, int min, int max,
                 const char *missing, int *first, int *count);
/* (program word "beam", usage, argc, argv of "mech beam SUB ...", subcommands (NULL-terminated)) => *mode its
 * index and name "beam SUB" (the cmd of the messages); no word: the usage on stderr, exit 2; -h / --help: the usage,
 * exit 0; an unknown word: "unknown command 'x' (expected freq, sim or lqr)". TOOL_CLI_GO or the exit status. */
int tool_sub(const char *cmd, void (*usage)(FILE *), int argc, char **argv, const char *const *subs, int *mode,
             char *name, size_t len);

/* Output files (tool_outputs.c), every command's: (command, path or "-", protect: the input hy_atomic_open
 * refuses (may be NULL), others: further inputs (NULL-terminated, may be NULL)) => refused when the path is one of
 * them ("PATH: refusing to overwrite an input file"), else open atomically: a temporary beside it, registered with
 * the signal clean-up, renamed into place by tool_out_commit (which reports a failure) or removed by
 * hy_atomic_abort. An input FILE.h5:/DATASET protects FILE.h5 (hy_atomic_open). Exit status. */
int tool_out_open(const char *cmd, hy_atomic *a, const char *path, const char *protect, const char *const *others);
int tool_out_commit(const char *cmd, hy_atomic *a);
/* (command, n outputs: paths (NULL: not asked for; "-": standard output, never compared) and their option names)
 * => usage error "-o and --summary name the same file 'x'" when two of them are one file */
int tool_out_distinct(const char *cmd, int n, const char *const *paths, const char *const *names);
/* (command, n outputs as above) => usage error "-o and --json both write to standard output ('-')" when two of them
 * are "-" (a command whose outputs may share standard output does not call it) */
int tool_out_one_stdout(const char *cmd, int n, const char *const *paths, const char *const *names);

/* Output folders (tool_outputs.c): a lock held for the run (a second run into the folder is refused), the outputs
 * written by this run noted, and once it has written its summary (a file name) the files matching the command's
 * patterns ("history.csv", "view-*.png") that it did not write removed, with the temporaries of a killed run. */
int tool_out_lock(const char *cmd, hy_dir_lock *l, const char *dir);
// (command, folder) => the folder and its parents made (mkdir -p); "DIR: not a folder" when a file is in the way
int tool_out_mkdir(const char *cmd, const char *dir);
void tool_out_note(const char *path);
int tool_out_sweep(const char *cmd, const char *dir, const char *summary, const char *const *patterns);
/* (command, folder, figure patterns) => before a rerun commits its first output: the regular files matching the
 * patterns (the earlier run's figures) removed, silently (this run draws its own), so an interruption between its
 * summary and its figures leaves no figure of the earlier run beside the new data (issue 42, N22); a link or a
 * device at a figure path stays */
int tool_out_clear(const char *cmd, const char *dir, const char *const *patterns);

#endif

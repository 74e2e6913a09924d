/* Shared pieces of the `hyst` program: command entry points, error reporting and the data-reading options
 * every command that reads a bench record accepts. */
#ifndef HYST_CLI_H
#define HYST_CLI_H

#include "hyst/args.h"
#include "hyst/common.h"
#include "hyst/csvread.h"
#include "hyst/loops.h"
#include "hyst/series.h"
#include "hyst/util.h"
#include "tool_cli.h"

struct cJSON;

/* Command entry points: argv[0] is the command name ("loops", "fit pwl", ...). Return the exit status. */
int hy_cmd_loops(int argc, char **argv);
int hy_cmd_sim(int argc, char **argv);
int hy_cmd_fit_pwl(int argc, char **argv);
int hy_cmd_fit_kin(int argc, char **argv);
int hy_cmd_fit_family(int argc, char **argv); /* fit bw, fit iwan (cmd_fit_family.c) */
int hy_cmd_fit_all(int argc, char **argv);    /* fit all: every family compared (cmd_fit_all.c) */
int hy_cmd_replay(int argc, char **argv);
int hy_cmd_plot(int argc, char **argv);

struct hy_replay_metrics;
// (command, source, replay metrics, tolerance) => warning naming the worst cycles when cycle energies are off by
// more than tol (cmd_fit_family.c)
void hy_cli_energy_warning(const char *cmd, const char *source, const struct hy_replay_metrics *M, double tol);

// (command, record, fitted model, loop options) => the same warning for a model fitted by fit pwl / fit kin
// (tolerance 10 %; cmd_fit_family.c)
struct hy_model;
void hy_cli_energy_check(const char *cmd, const hy_series *s, const struct hy_model *m, const hy_loops_opts *lo);

/* The command-line layer is both programs' (tools/common/tool_cli.h: messages "hyst COMMAND: ...", the usage hint
 * "(see 'hyst COMMAND --help')", exit statuses 0 / 1 / 2, the option tables, the output rules); these are its
 * functions under the names the hyst commands call them by (one implementation: each name is the tool_ function) */
enum { HY_EXIT_OK = TOOL_EXIT_OK, HY_EXIT_FAIL = TOOL_EXIT_FAIL, HY_EXIT_USAGE = TOOL_EXIT_USAGE };
#define hy_cli_fail   tool_fail
#define hy_cli_usage  tool_usage
#define hy_cli_warn   tool_warn
#define hy_cli_double tool_double

/* The outputs of a fit (fit pwl, kin, bw, bwbn, iwan): (command, data path, model output, --report or NULL) =>
 * HY_EXIT_OK; HY_EXIT_USAGE after the message when both go to standard output or name the same file
 * (tool_out_one_stdout, tool_out_distinct); HY_EXIT_FAIL "PATH: refusing to overwrite an input file" when one is
 * the data (FILE.h5:/DATASET: the file), said before the record is read and fitted, not after the fit */
int hy_cli_fit_outputs(const char *cmd, const char *data, const char *out, const char *report);

// (command, path or "-", JSON document, input to protect or NULL) => the document and a newline written atomically
// (tool_out_open: never over the input); exit status, the failure reported
int hy_cli_write_json(const char *cmd, const char *path, struct cJSON *doc, const char *protect);

/* Long fits (cli_fitcost.c): (family "pwl", "kin", "bw", "iwan" or "clough", rows, bootstrap refits) => the estimated CPU
 * seconds; the limit (HYST_FIT_MAX seconds, default 3600); (command, source, estimate, rows, refits) => HY_EXIT_OK
 * with the estimate said on stderr as a stage (hy_stage_start: end it with hy_stage_end after the fit; st NULL:
 * the limit checked only), or HY_EXIT_FAIL after a message naming the limit and how to raise it */
double hy_cli_fit_seconds(const char *family, size_t rows, int refits);
double hy_cli_fit_limit(void);
int hy_cli_fit_begin(const char *cmd, const char *source, double est, size_t rows, int refits, hy_stage *st);
/* a bootstrap's refits: on a terminal (or HYST_PROGRESS) a progress line "hyst fit bw: bootstrap: 45 %, 12 s, about
 * 15 s left"; otherwise, from an estimated 30 s, the estimate before and the time after (hy_stage) */
typedef struct hy_cli_boot_progress {
    hy_progress pr;
    hy_stage st;
} hy_cli_boot_progress;
void hy_cli_boot_begin(hy_cli_boot_progress *bp, const char *cmd, double est, int refits);
void hy_cli_boot_step(void *bp, int done, int refits); /* hy_famfit_bootstrap_progress's callback */
void hy_cli_boot_end(hy_cli_boot_progress *bp);

/* Data-reading options shared by loops, fit, replay, sim --drive and plot (cli_data.c), and the loop-analysis
 * options shared by every command that finds reversals and cycles (loops, fit, replay, plot; cli_loops.c): entries
 * of the command's option table (hyst/args.h), HY_CLI_DATA_OPTS(&csv_opts, &given) and HY_CLI_LOOPS_OPTS(&loop_opts)
 * among its own; given (may be NULL) is set to 1 when a data option comes. Each option checks its value and says
 * what is wrong as every option does ("--x-scale: 'abc' is not a finite number"). */
int hy_cli_opt_col(void *dst, const char *v, hy_args *st, hy_err *err);     /* --x, --y, --t                    */
int hy_cli_opt_scale(void *dst, const char *v, hy_args *st, hy_err *err);   /* --x-scale, --y-scale             */
int hy_cli_opt_delim(void *dst, const char *v, hy_args *st, hy_err *err);   /* --delimiter                      */
int hy_cli_opt_flag(void *dst, const char *v, hy_args *st, hy_err *err);    /* --skip-bad-rows, --no-header ... */
#define HY_CLI_DATA_OPTS(csv, given)                                                                             \
    HY_OPT("x", 0, HY_ARG_CALL, csv, given, 0, NULL, hy_cli_opt_col),                                           \
    HY_OPT("y", 0, HY_ARG_CALL, csv, given, 0, NULL, hy_cli_opt_col),                                           \
    HY_OPT("t", 0, HY_ARG_CALL, csv, given, 0, NULL, hy_cli_opt_col),                                           \
    HY_OPT("x-scale", 0, HY_ARG_CALL, csv, given, 0, NULL, hy_cli_opt_scale),                                   \
    HY_OPT("y-scale", 0, HY_ARG_CALL, csv, given, 0, NULL, hy_cli_opt_scale),                                   \
    HY_OPT("delimiter", 0, HY_ARG_CALL, csv, given, 0, NULL, hy_cli_opt_delim),                                 \
    HY_OPT("skip-bad-rows", 0, HY_ARG_FLAG_CALL, csv, given, 0, NULL, hy_cli_opt_flag),                         \
    HY_OPT("no-header", 0, HY_ARG_FLAG_CALL, csv, given, 0, NULL, hy_cli_opt_flag),                             \
    HY_OPT("units-row", 0, HY_ARG_FLAG_CALL, csv, given, 0, NULL, hy_cli_opt_flag),                             \
    HY_OPT("no-units-row", 0, HY_ARG_FLAG_CALL, csv, given, 0, NULL, hy_cli_opt_flag)

/* Help text for the options above, to print inside a command's --help. */
extern const char hy_cli_data_help[];

int hy_cli_opt_loops(void *dst, const char *v, hy_args *st, hy_err *err);   /* --threshold, --center, --rest-tol,
                                                                               --remove-offset, --trim-rest        */
#define HY_CLI_LOOPS_OPTS(lo)                                                                                    \
    HY_OPT_CALL("threshold", lo, hy_cli_opt_loops), HY_OPT_CALL("center", lo, hy_cli_opt_loops),               \
    HY_OPT_FLAG_CALL("trim-rest", lo, hy_cli_opt_loops), HY_OPT_CALL("remove-offset", lo, hy_cli_opt_loops),   \
    HY_OPT_CALL("rest-tol", lo, hy_cli_opt_loops)

/* Help text for the options above. */
extern const char hy_cli_loops_help[];

/* (words, room) => from now on every data and loop option parsed is also copied there as the words that give it
 * ("--x-scale", "2"), *n counting them (`hyst fit all` hands them on to every fit it runs); (NULL, ...) stops */
void hy_cli_opts_record(char **words, int *n, int room);
// (the option being stored, its value or NULL) => its words given to the recorder, when one is set (cli_data.c)
void hy_cli_opt_note(const hy_args *st, const char *v);

/* (command, record) => the record conditioned as --trim-rest, --remove-offset, --rest-tol asked (hy_condition; the
 * options parsed by hy_cli_opt_loops are this process's command's), what was done reported on stderr; 0 or
 * HY_EXIT_FAIL with the reason printed. Called by every command that reads a record to analyse (loops, fit,
 * replay, plot) right after hy_cli_read_series. */
int hy_cli_condition(const char *cmd, hy_series *s);

// (command, fitted model) => when the record was conditioned, what was done stored in the model's extra keys as
// "provenance": {"conditioning": ...} (hy_model_set_conditioning); 0 or HY_EXIT_FAIL with the reason printed
int hy_cli_condition_provenance(const char *cmd, struct hy_model *m);

// (command, model file's path, model) => the conditioning stored in its provenance printed on stderr ("M.json: fitted
// on a record conditioned: ..."; with a note when this command's record is not conditioned); call it after
// hy_cli_condition. 0, or HY_EXIT_FAIL naming the key when the provenance is malformed
int hy_cli_model_provenance(const char *cmd, const char *path, const struct hy_model *m);

// (command, record, loop options, need_loop) => 0, or a refusal printed (constant force or displacement; with
// need_loop no closed loop) and HY_EXIT_FAIL (hy_record_check)
int hy_cli_check_record(const char *cmd, const hy_series *s, const hy_loops_opts *o, int need_loop);

// (path or "-", options) => series read; warnings and errors printed as "hyst CMD: ..."; returns 0 or an exit status
int hy_cli_read_series(const char *cmd, const char *path, hy_csv_opts *o, hy_series *s);

#endif

/* Shared pieces of the `hyst` program: command entry points, error reporting and the data-reading options
 * every command that reads a bench record accepts. */
#ifndef HYST_CLI_H
#define HYST_CLI_H

#include <getopt.h>
#include "hyst/common.h"
#include "hyst/csvread.h"
#include "hyst/loops.h"
#include "hyst/series.h"
#include "hyst/util.h"

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

/* Exit statuses: 0 success, 1 failure on the data or model, 2 bad usage. */
enum { HY_EXIT_OK = 0, HY_EXIT_FAIL = 1, HY_EXIT_USAGE = 2 };

// (command, printf format) => "hyst COMMAND: message" on stderr; returns HY_EXIT_FAIL
int hy_cli_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

// (command, printf format) => "hyst COMMAND: message (see 'hyst help COMMAND')" on stderr; returns HY_EXIT_USAGE
int hy_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

// (command, printf format) => "hyst COMMAND: warning: message" on stderr
void hy_cli_warn(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

// (command, --report path or NULL, model output path) => HY_EXIT_OK, or HY_EXIT_USAGE after the message when both
// go to standard output or name the same file
int hy_cli_report_and_model(const char *cmd, const char *report, const char *out);

// (command, path or "-", JSON document, input to protect or NULL) => the document and a newline written atomically
// (never over the input); exit status, the failure reported
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

// (text, name of the option) => value parsed as a finite double; 0 on success, usage message and -1 otherwise
int hy_cli_double(const char *cmd, const char *opt, const char *text, double *out);

/* Data-reading options shared by loops, fit, replay, sim --drive and plot (implemented in cli_data.c).
 * Put HY_CLI_DATA_LONGOPTS inside a command's struct option array; pass every option value getopt_long
 * returns to hy_cli_data_option first. */
enum {
    HY_OPT_X = 0x1000, HY_OPT_Y, HY_OPT_T, HY_OPT_X_SCALE, HY_OPT_Y_SCALE, HY_OPT_SKIP_BAD_ROWS,
    HY_OPT_DELIMITER, HY_OPT_NO_HEADER, HY_OPT_UNITS_ROW, HY_OPT_NO_UNITS_ROW
};
#define HY_CLI_DATA_LONGOPTS                                                                                     \
    {"x", required_argument, 0, HY_OPT_X}, {"y", required_argument, 0, HY_OPT_Y},                              \
    {"t", required_argument, 0, HY_OPT_T}, {"x-scale", required_argument, 0, HY_OPT_X_SCALE},                  \
    {"y-scale", required_argument, 0, HY_OPT_Y_SCALE}, {"skip-bad-rows", no_argument, 0, HY_OPT_SKIP_BAD_ROWS}, \
    {"delimiter", required_argument, 0, HY_OPT_DELIMITER}, {"no-header", no_argument, 0, HY_OPT_NO_HEADER},    \
    {"units-row", no_argument, 0, HY_OPT_UNITS_ROW}, {"no-units-row", no_argument, 0, HY_OPT_NO_UNITS_ROW}

/* Help text for the options above, to print inside a command's --help. */
extern const char hy_cli_data_help[];

// (getopt value, its argument) => options updated; returns 1 when consumed, 0 when not a data option, -1 on a bad value (message printed)
int hy_cli_data_option(const char *cmd, int opt, const char *arg, hy_csv_opts *o);

/* Loop-analysis options shared by every command that finds reversals and cycles (loops, fit pwl, fit kin,
 * replay, plot; implemented in cli_loops.c). Same use as the data options. */
enum { HY_OPT_THRESHOLD = 0x1100, HY_OPT_CENTER, HY_OPT_TRIM_REST, HY_OPT_REMOVE_OFFSET, HY_OPT_REST_TOL };
#define HY_CLI_LOOPS_LONGOPTS                                                                                    \
    {"threshold", required_argument, 0, HY_OPT_THRESHOLD}, {"center", required_argument, 0, HY_OPT_CENTER},    \
    {"trim-rest", no_argument, 0, HY_OPT_TRIM_REST}, {"remove-offset", required_argument, 0, HY_OPT_REMOVE_OFFSET}, \
    {"rest-tol", required_argument, 0, HY_OPT_REST_TOL}

/* Help text for the options above. */
extern const char hy_cli_loops_help[];

// (getopt value, its argument) => loop options updated; returns 1 when consumed, 0 when not a loop option, -1 on a bad value (message printed)
int hy_cli_loops_option(const char *cmd, int opt, const char *arg, hy_loops_opts *o);

/* (command, record) => the record conditioned as --trim-rest, --remove-offset, --rest-tol asked (hy_condition; the
 * options parsed by hy_cli_loops_option are this process's command's), what was done reported on stderr; 0 or
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

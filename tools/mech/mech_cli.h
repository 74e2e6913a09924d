/* Shared pieces of the `mech` program: error reporting with the command name and number parsing. */
#ifndef MECH_CLI_H
#define MECH_CLI_H

#include <stdio.h>

enum { MECH_EXIT_OK = 0, MECH_EXIT_FAIL = 1, MECH_EXIT_USAGE = 2 };

// (command, printf format) => "mech COMMAND: message" on stderr; returns MECH_EXIT_FAIL
int mech_cli_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// (command, printf format) => "mech COMMAND: message (see 'mech COMMAND --help')" on stderr; returns MECH_EXIT_USAGE
int mech_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// (command, printf format) => "mech COMMAND: warning: message" on stderr
void mech_cli_warn(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// (command, option name, text) => finite double in *out; 0, or -1 after a usage message
int mech_cli_double(const char *cmd, const char *opt, const char *text, double *out);
// (command, option name, text, minimum) => integer >= min in *out; 0, or -1 after a usage message
int mech_cli_int(const char *cmd, const char *opt, const char *text, int min, int *out);

// (fp, text) => the text as a gnuplot single-quoted string (' doubled, control characters dropped)
void mech_cli_gp_quote(FILE *fp, const char *t);
// (command, gnuplot script file, temporary figure, figure) => gnuplot run on the script (the script is removed);
// the figure is renamed into place on success; failures name the figure and gnuplot's first line of output
int mech_cli_run_gnuplot(const char *cmd, const char *script, const char *tmpfig, const char *fig);

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

#endif

/* Command-line options from a declarative table (args.c): the one option parser of the programs' commands. A command
 * lists its options (name, letter, kind, where the value goes); the parser builds getopt_long's tables from it, adds
 * -h / --help, converts and checks the values, counts the operands, and reports every mistake with the same
 * words in every command ("option '--dt' needs a value", "--dt: 'x' is not a finite number", "unknown option
 * '--bogus'", "unexpected argument 'b.json'"). Both programs print the message as a usage error (exit 2):
 * tools/common/tool_cli.c (tool_parse). docs/limits-and-outputs.md, "One command-line layer". */
#ifndef HYST_ARGS_H
#define HYST_ARGS_H

#include <stdarg.h>
#include "hyst/common.h"

enum hy_arg_kind {
    HY_ARG_END = 0, /* the table's last entry (HY_OPT_END)                                                   */
    HY_ARG_FLAG,    /* no value: *(int *)dst = 1                                                             */
    HY_ARG_STR,     /* *(const char **)dst = the value (a word of argv, not copied)                         */
    HY_ARG_DOUBLE,  /* *(double *)dst = a finite number                                                     */
    HY_ARG_INT,     /* *(int *)dst = an integer >= min                                                      */
    HY_ARG_CHOICE,  /* *(int *)dst = 1 + the index of the value in choices ("--format 'x': expected csv or h5") */
    HY_ARG_CALL,    /* call(dst, value, state, err): the option's own rule (a value that may be a word or a
                       number, an option that reads the next word too)                                      */
    HY_ARG_FLAG_CALL /* no value: call(dst, NULL, state, err) (a flag with its own rule: --no-header)        */
};

struct hy_arg;
typedef struct hy_args {        /* the parse's state, for HY_ARG_CALL                                            */
    int    argc;
    char **argv;
    int    next;                /* the next word not yet read (getopt's optind): a call may take argv[next++]   */
    const struct hy_arg *arg;   /* the table entry being stored (its name: one call may serve several options) */
} hy_args;

typedef struct hy_arg {
    const char *name;           /* long name without "--"                                                       */
    int         letter;         /* short option ('o'), or 0                                                     */
    int         kind;           /* enum hy_arg_kind                                                             */
    void       *dst;            /* where the value goes (see the kinds)                                         */
    int        *given;          /* optional: set to 1 when the option is given                                  */
    int         min;            /* HY_ARG_INT: the smallest value                                               */
    const char *const *choices; /* HY_ARG_CHOICE: NULL-terminated                                               */
    int (*call)(void *dst, const char *value, hy_args *state, hy_err *err);
} hy_arg;

/* Table entries (every field given, as -Wextra wants): a flag, a word, a number (given: set to 1 when it comes, or
 * NULL), an integer >= min, one of a list of words, an option with its own rule, and the end of the table. */
#define HY_OPT(name, letter, kind, dst, given, min, choices, call) {name, letter, kind, dst, given, min, choices, call}
#define HY_OPT_FLAG(name, letter, dst)            HY_OPT(name, letter, HY_ARG_FLAG, dst, NULL, 0, NULL, NULL)
#define HY_OPT_STR(name, letter, dst)             HY_OPT(name, letter, HY_ARG_STR, dst, NULL, 0, NULL, NULL)
#define HY_OPT_DOUBLE(name, dst, given)           HY_OPT(name, 0, HY_ARG_DOUBLE, dst, given, 0, NULL, NULL)
#define HY_OPT_INT(name, letter, dst, min, given) HY_OPT(name, letter, HY_ARG_INT, dst, given, min, NULL, NULL)
#define HY_OPT_CHOICE(name, dst, choices)         HY_OPT(name, 0, HY_ARG_CHOICE, dst, NULL, 0, choices, NULL)
#define HY_OPT_CALL(name, dst, call)              HY_OPT(name, 0, HY_ARG_CALL, dst, NULL, 0, NULL, call)
#define HY_OPT_FLAG_CALL(name, dst, call)         HY_OPT(name, 0, HY_ARG_FLAG_CALL, dst, NULL, 0, NULL, call)
#define HY_OPT_END                                HY_OPT(NULL, 0, HY_ARG_END, NULL, NULL, 0, NULL, NULL)

/* (table ending in HY_OPT_END, argc, argv: argv[0] is the command word; missing: the message when the one operand is
 * absent, or NULL for a command without operand) => the values stored, *operand the operand (or NULL). HY_OK, with
 * *help = 1 when -h / --help came (the rest not read); HY_EARG with the message in err on a mistake. */
int hy_args_parse(const hy_arg *tab, int argc, char **argv, const char *missing, const char **operand, int *help,
                  hy_err *err);

/* The same for a command of min..max operands (`hyst replay MODEL... DATA`): fewer is the error `missing` (or
 * "missing operand"), more "unexpected argument 'x'"; the operands are argv[*first .. *first + *count - 1] (GNU
 * getopt moves them after the options). hy_args_parse is this with min = max = (missing != NULL). */
int hy_args_parse_n(const hy_arg *tab, int argc, char **argv, int min, int max, const char *missing, int *first,
                    int *count, int *help, hy_err *err);

// (option name, text) => *out a finite number; HY_EARG "--NAME: 'TEXT' is not a finite number"
int hy_args_double(const char *name, const char *text, double *out, hy_err *err);
// (option name, text, minimum) => *out an integer >= min; HY_EARG "--NAME: 'TEXT' is not an integer >= MIN"
int hy_args_int(const char *name, const char *text, int min, int *out, hy_err *err);
// (option name, text, lo, hi) => *out an integer in lo..hi; HY_EARG "--NAME: 'TEXT' is not an integer from LO to HI"
int hy_args_int_range(const char *name, const char *text, int lo, int hi, int *out, hy_err *err);

/* (program "mech" or "hyst", command or NULL, prefix ("" or "warning: "), suffix (" (see 'mech dock --help')" or ""),
 * printf format and list) => one line on standard error, "PROGRAM COMMAND: PREFIXmessageSUFFIX", the message made
 * printable (hy_msg_text: it may quote names and values from the user or a file): how both programs report */
void hy_args_vreport(const char *prog, const char *cmd, const char *pre, const char *post, const char *fmt,
                     va_list ap);

#endif

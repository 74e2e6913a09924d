// hyst: the command-line program over libhyst. One program, one subcommand per task.
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "hyst/linalg.h"
#include "hyst/util.h"

#define HYST_VERSION "0.1.0"

typedef int (*cmd_fn)(int argc, char **argv);

static const struct command {
    const char *name;    /* as typed: "loops", "fit pwl"  */
    cmd_fn      fn;
    const char *summary;
} commands[] = {
    {"loops",   hy_cmd_loops,   "analyse hysteresis loops in a bench-test record"},
    {"sim",     hy_cmd_sim,     "drive a model with a displacement history"},
    {"fit pwl", hy_cmd_fit_pwl, "identify a piecewise-linear branch table from static test data"},
    {"fit kin", hy_cmd_fit_kin, "identify a kinematic hysteresis ODE from test data"},
    {"fit bw",  hy_cmd_fit_family, "identify a Bouc-Wen model by nonlinear least squares"},
    {"fit bwbn", hy_cmd_fit_family, "identify a degrading, pinching Bouc-Wen-Baber-Noori model (BWBN)"},
    {"fit iwan", hy_cmd_fit_family, "identify an Iwan (Segalman) model by nonlinear least squares"},
    {"fit clough", hy_cmd_fit_family, "identify a peak-oriented (modified Clough) pinching multilinear model"},
    {"fit all", hy_cmd_fit_all, "fit every family, replay and rank them (NRMSE, energy, AIC/BIC)"},
    {"replay",  hy_cmd_replay,  "re-simulate a measured test with models and compare"},
    {"plot",    hy_cmd_plot,    "plot measured and predicted loops through gnuplot"},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *fp)
{
    fprintf(fp, "usage: hyst COMMAND [OPTIONS] [FILES]\n\ncommands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(fp, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(fp, "  %-9s %s\n", "help", "show help for a command: hyst help COMMAND");
    fprintf(fp, "  %-9s %s\n", "version", "print the version");
    fprintf(fp, "\nEach command takes --help. '-' means standard input or output. Exit status: 0 success,\n"
                "1 failure on the data or model, 2 bad usage.\n");
}

// (argv) => the command named by argv[1] (and argv[2] for two-word commands), and how many words it took
static const struct command *find(int argc, char **argv, int *words)
{
    for (size_t i = 0; i < N_COMMANDS; i++) {
        const char *sp = strchr(commands[i].name, ' ');
        if (!sp && strcmp(argv[1], commands[i].name) == 0) {
            *words = 1;
            return &commands[i];
        }
        if (sp && argc > 2 && strncmp(argv[1], commands[i].name, (size_t)(sp - commands[i].name)) == 0 &&
            argv[1][sp - commands[i].name] == '\0' && strcmp(argv[2], sp + 1) == 0) {
            *words = 2;
            return &commands[i];
        }
    }
    return NULL;
}

static const char *group_word;   /* the group of group_usage: "fit" */

// (fp) => the usage of a group of commands ("hyst fit pwl|kin|...") and one line for each, as mech beam has its own
static void group_usage(FILE *fp)
{
    size_t len = strlen(group_word);
    fprintf(fp, "usage: hyst %s ", group_word);
    int k = 0;
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strncmp(commands[i].name, group_word, len) == 0 && commands[i].name[len] == ' ')
            fprintf(fp, "%s%s", k++ ? "|" : "", commands[i].name + len + 1);
    fprintf(fp, " [OPTIONS] [FILES]\n\ncommands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strncmp(commands[i].name, group_word, len) == 0 && commands[i].name[len] == ' ')
            fprintf(fp, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(fp, "\n'hyst %s COMMAND --help' lists a command's options.\n", group_word);
}

/* (argc, argv: argv[0] a group word such as "fit") => the group's usage (no word: on stderr, exit 2; -h / --help:
 * on stdout, exit 0) or "hyst fit: unknown command 'x' (expected pwl, kin, ... or all)", exit 2 (tool_sub, as the
 * words of mech beam and mech pendulum) */
static int group(int argc, char **argv)
{
    const char *subs[N_COMMANDS + 1];
    size_t len = strlen(argv[0]), n = 0;
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strncmp(commands[i].name, argv[0], len) == 0 && commands[i].name[len] == ' ')
            subs[n++] = commands[i].name + len + 1;
    subs[n] = NULL;
    group_word = argv[0];
    int mode;
    char name[64];
    int go = tool_sub(argv[0], group_usage, argc, argv, subs, &mode, name, sizeof name);
    return go == TOOL_CLI_GO ? HY_EXIT_USAGE : go;   /* a known word is found by find() before this is called */
}

static int is_group(const char *word)
{
    size_t len = strlen(word);
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strncmp(commands[i].name, word, len) == 0 && commands[i].name[len] == ' ')
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    tool_cli_init("hyst");
    if (argc < 2) {
        usage(stderr);
        return HY_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return tool_stdout(NULL, HY_EXIT_OK);
    }
    hy_cleanup_signals();   /* an interrupted run removes its temporary files and ends by the signal */
    hy_blas_single_thread();
    if (strcmp(argv[1], "version") == 0 || strcmp(argv[1], "--version") == 0) {
        printf("hyst %s\n", HYST_VERSION);
        return tool_stdout(NULL, HY_EXIT_OK);
    }
    if (strcmp(argv[1], "help") == 0) {
        if (argc < 3) {
            usage(stdout);
            return tool_stdout(NULL, HY_EXIT_OK);
        }
        int words = 0;
        const struct command *c = find(argc - 1, argv + 1, &words);
        if (!c) {
            if (is_group(argv[2])) {   /* hyst help fit: the group's usage */
                char *gargv[] = {argv[2], "--help", NULL};
                return tool_stdout(argv[2], group(2, gargv));
            }
            fprintf(stderr, "hyst help: unknown command '%s' (see 'hyst --help')\n", argv[2]);
            return HY_EXIT_USAGE;
        }
        char *hargv[] = {(char *)c->name, "--help", NULL};
        return tool_stdout(c->name, c->fn(2, hargv));
    }
    int words = 0;
    const struct command *c = find(argc, argv, &words);
    if (!c) {
        if (is_group(argv[1]))
            return tool_stdout(argv[1], group(argc - 1, argv + 1));
        fprintf(stderr, "hyst: unknown command '%s' (see 'hyst --help')\n", argv[1]);
        return HY_EXIT_USAGE;
    }
    /* The command sees argv[0] = its full name, then its own arguments; its report checked once written */
    argv[words] = (char *)c->name;
    return tool_stdout(c->name, c->fn(argc - words, argv + words));
}

/* Command-line options from a declarative table (hyst/args.h): getopt_long's tables are built from the command's
 * table, so that every command parses, converts and reports its options the same way. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/args.h"

#define ARGS_MAX 64    /* options a table may hold */
#define LONG_BASE 0x100

int hy_args_double(const char *name, const char *text, double *out, hy_err *err)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end || errno || !isfinite(v))
        return hy_err_set(err, HY_EARG, "--%s: '%s' is not a finite number", name, text);
    *out = v;
    return HY_OK;
}

int hy_args_int(const char *name, const char *text, int min, int *out, hy_err *err)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end || errno || v < min || v > INT_MAX)
        return hy_err_set(err, HY_EARG, "--%s: '%s' is not an integer >= %d", name, text, min);
    *out = (int)v;
    return HY_OK;
}

int hy_args_int_range(const char *name, const char *text, int lo, int hi, int *out, hy_err *err)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end || errno || v < lo || v > hi)
        return hy_err_set(err, HY_EARG, "--%s: '%s' is not an integer from %d to %d", name, text, lo, hi);
    *out = (int)v;
    return HY_OK;
}

// (option, value) => the value stored by the option's kind
static int store(const hy_arg *a, const char *value, hy_args *st, hy_err *err)
{
    switch (a->kind) {
    case HY_ARG_FLAG: *(int *)a->dst = 1; return HY_OK;
    case HY_ARG_STR: *(const char **)a->dst = value; return HY_OK;
    case HY_ARG_DOUBLE: return hy_args_double(a->name, value, a->dst, err);
    case HY_ARG_INT: return hy_args_int(a->name, value, a->min, a->dst, err);
    case HY_ARG_CALL:
    case HY_ARG_FLAG_CALL: return a->call(a->dst, value, st, err);
    case HY_ARG_CHOICE: {
        char list[256] = "";
        int n = 0;
        for (; a->choices[n]; n++)
            if (strcmp(value, a->choices[n]) == 0) {
                *(int *)a->dst = n + 1;
                return HY_OK;
            }
        for (int k = 0; k < n; k++)   /* "csv, h5 or csv+h5" */
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k == 0 ? "" : k == n - 1 ? " or " : ", ",
                     a->choices[k]);
        return hy_err_set(err, HY_EARG, "--%s '%s': expected %s", a->name, value, list);
    }
    }
    return hy_err_set(err, HY_EARG, "--%s: bad option table", a->name);
}

int hy_args_parse(const hy_arg *tab, int argc, char **argv, const char *missing, const char **operand, int *help,
                  hy_err *err)
{
    int first = 0, count = 0, n = missing ? 1 : 0;
    if (operand)
        *operand = NULL;
    int rc = hy_args_parse_n(tab, argc, argv, n, n, missing, &first, &count, help, err);
    if (rc == HY_OK && operand && count)
        *operand = argv[first];
    return rc;
}

int hy_args_parse_n(const hy_arg *tab, int argc, char **argv, int min, int max, const char *missing, int *first,
                    int *count, int *help, hy_err *err)
{
    struct option lo[ARGS_MAX + 2];
    char sopt[2 * ARGS_MAX + 4];
    int n = 0, k = 0;
    sopt[k++] = ':';   /* a missing value comes back as ':' (not '?') */
    for (; tab[n].kind != HY_ARG_END; n++) {
        if (n >= ARGS_MAX)
            return hy_err_set(err, HY_EARG, "more than %d options in one table", ARGS_MAX);
        int has = tab[n].kind != HY_ARG_FLAG && tab[n].kind != HY_ARG_FLAG_CALL;
        lo[n] = (struct option){tab[n].name, has ? required_argument : no_argument, 0, LONG_BASE + n};
        if (tab[n].letter) {
            sopt[k++] = (char)tab[n].letter;
            if (has)
                sopt[k++] = ':';
        }
    }
    lo[n] = (struct option){"help", no_argument, 0, 'h'};
    lo[n + 1] = (struct option){0, 0, 0, 0};
    sopt[k++] = 'h';
    sopt[k] = '\0';
    *help = 0;
    *first = argc, *count = 0;
    optind = 0;   /* 0, not 1: glibc's getopt then forgets the state of an earlier parse in this process (mech
                     sweep parses its own options, then runs mech dock's parse for a chosen run) */
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, sopt, lo, NULL)) != -1) {
        if (ch == 'h') {
            *help = 1;
            return HY_OK;
        }
        if (ch == ':')
            return hy_err_set(err, HY_EARG, "option '%s' needs a value", argv[optind - 1]);
        int i = ch >= LONG_BASE && ch < LONG_BASE + n ? ch - LONG_BASE : -1;
        for (int j = 0; i < 0 && ch != '?' && j < n; j++)
            if (tab[j].letter == ch)
                i = j;
        if (i < 0)
            return hy_err_set(err, HY_EARG, "unknown option '%s'", argv[optind - 1]);
        hy_args st = {argc, argv, optind, &tab[i]};
        int rc = store(&tab[i], optarg, &st, err);
        optind = st.next;   /* a call may have read the next word */
        if (rc != HY_OK)
            return rc;
        if (tab[i].given)
            *tab[i].given = 1;
    }
    /* GNU getopt has moved the operands after the options: argv[optind .. argc - 1] */
    if (argc - optind < min)
        return hy_err_set(err, HY_EARG, "%s", missing ? missing : "missing operand");
    if (argc - optind > max)
        return hy_err_set(err, HY_EARG, "unexpected argument '%s'", argv[optind + max]);
    *first = optind, *count = argc - optind;
    return HY_OK;
}

void hy_args_vreport(const char *prog, const char *cmd, const char *pre, const char *post, const char *fmt,
                     va_list ap)
{
    char msg[4096];
    vsnprintf(msg, sizeof msg, fmt, ap);
    hy_msg_text(msg, sizeof msg, msg, strlen(msg), SIZE_MAX);   /* one printable line */
    fprintf(stderr, "%s%s%s: %s%s%s\n", prog, cmd ? " " : "", cmd ? cmd : "", pre, msg, post);
}

/* Conditioning a record the way bench data come (docs/data-input.md "Conditioning"): rest segments at the start
 * and the end trimmed, a displacement or force offset removed. Opt-in; every front end (the hyst commands loops,
 * fit, replay, plot and the Python functions) calls hy_condition and reports what it did. */
#ifndef HYST_CONDITION_H
#define HYST_CONDITION_H

#include <stddef.h>
#include "hyst/common.h"

typedef struct hy_condition_opts {
    int    trim_rest;  /* 1: drop the rows at rest before the motion starts and after it ends                     */
    int    offset_q;   /* 1: subtract the displacement at rest (the mean over the start's rest segment)           */
    int    offset_Q;   /* 1: subtract the force at rest (same rows)                                               */
    double rest_tol;   /* a row is at rest while |q - q at the first (last) row| <= rest_tol; 0: 0.5 % of the q   */
                       /* range (the loop analysis' floor, docs/loops.md)                                          */
} hy_condition_opts;

typedef struct hy_condition_report {
    size_t n_in, n_out;          /* rows before and after                                                       */
    size_t trimmed_start;        /* rows dropped at the start (the kept record starts at the last row at rest)   */
    size_t trimmed_end;          /* rows dropped at the end (it ends at the first row at rest)                   */
    size_t rest_rows;            /* rows of the start's rest segment (what the offsets are measured on)          */
    double q_offset, Q_offset;   /* subtracted (0 when not asked for)                                            */
    double rest_tol;             /* the tolerance used                                                           */
} hy_condition_report;

// (o) => nothing asked for
void hy_condition_opts_default(hy_condition_opts *o);

/* (t or NULL, q, Q, line or NULL, n rows, options) => the kept rows moved to the front and the offsets subtracted,
 * in place; r->n_out rows remain. HY_EDATA naming the tolerance when an offset is asked for and the record has no
 * rest segment at the start (fewer than 2 rows within rest_tol of the first), or when trimming would leave fewer
 * than 2 rows (the record never moves). No allocation. */
int hy_condition(double *t, double *q, double *Q, size_t *line, size_t n, const hy_condition_opts *o,
                 hy_condition_report *r, hy_err *err);

#endif

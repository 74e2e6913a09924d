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

/* Provenance (condition_json.c, docs/formats.md "Provenance"): what conditioning made of the record a model was
 * fitted on, stored in the model file as "provenance": {"conditioning": {...}} and read back by hyst replay. */
struct cJSON;
struct hy_model;

// (options, report) => one line: "conditioned: 601 of 1401 rows kept (500 at rest trimmed at the start, ...)"
void hy_condition_describe(const hy_condition_opts *o, const hy_condition_report *r, char *buf, size_t len);

// (options, report) => a new JSON object {trim_rest, remove_offset, rest_tol, rows_in, rows_kept, trimmed_start,
// trimmed_end, rest_rows, q_offset, Q_offset} (NULL when out of memory); numbers read back exactly
struct cJSON *hy_condition_to_json(const hy_condition_opts *o, const hy_condition_report *r);

// (JSON object, name for messages) => options and report; HY_EPARSE naming provenance.conditioning.KEY when a key
// is missing or of the wrong type or range
int hy_condition_from_json(const struct cJSON *j, const char *name, hy_condition_opts *o, hy_condition_report *r,
                           hy_err *err);

// (model, options, report) => "provenance": {"conditioning": ...} set among the model's extra keys (replacing one)
int hy_model_set_conditioning(struct hy_model *m, const hy_condition_opts *o, const hy_condition_report *r,
                              hy_err *err);

// (model, its file's name) => *present = 0 when the model file holds no conditioning provenance, else 1 and the
// options and report read back (HY_EPARSE naming the key when malformed)
int hy_model_conditioning(const struct hy_model *m, const char *name, int *present, hy_condition_opts *o,
                          hy_condition_report *r, hy_err *err);

#endif

/* The outputs of a sweep plan's kind (docs/sweep.md "Plan kinds"): Sobol' indices, Morris effects, the subset
 * simulation's failure probability, the qualification matrix - summary sections, CSV tables, a Markdown table and
 * figures, computed from the finished table by the library functions (mech/sweep_sobol.h, sweep_morris.h) so the
 * numbers depend only on the table. */
#ifndef MECH_SWEEP_REPORT_H
#define MECH_SWEEP_REPORT_H

#include <cjson/cJSON.h>
#include "mech/sweep.h"
#include "mech/sweep_subset.h"

typedef struct sw_table {
    long n;                        /* runs (the plan's nrun)                                                  */
    const unsigned char *have;     /* have[id]: the run has a row                                             */
    const unsigned char *failed;
    const double *m;               /* m[id * nm + metric]                                                     */
    int nm;                        /* metrics a row (the plan's simulator's)                                  */
} sw_table;

/* (plan, finished table, subset result (subset plans), output folder, summary document) => the kind's sections
 * added to doc and its files (sobol.csv, morris.csv, qualification.csv, qualification.md) written atomically;
 * a line of the result on standard output unless quiet. Exit status. */
int sw_report(const char *cmd, const mech_sweep_plan *p, const sw_table *t, const mech_subset *ss, const char *dir,
              cJSON *doc, int quiet);
// (plan, output folder) => the kind's figures (sobol.png, morris.png, qualification.png) from its CSV files
int sw_report_figures(const char *cmd, const mech_sweep_plan *p, const char *dir);

/* (plan, finished table, output folder, the summary document) => DIR/results.h5 (the project's HDF5 writer,
 * hyst/h5log.h): the table /results (the numeric columns) and the summary as attributes of the root. Exit status;
 * the numbers of summary become raw exact text (hy_h5log_attr_json): call it after the summary is printed. */
int sw_report_h5(const char *cmd, const mech_sweep_plan *p, const sw_table *t, const char *dir, cJSON *summary);

#endif

/* A bench-test record: displacement q, force Q and optionally time t, as read from a CSV file.
 * Columns grow together; memory grows only with the columns kept. */
#ifndef HYST_SERIES_H
#define HYST_SERIES_H

#include <stddef.h>
#include "hyst/common.h"

typedef struct hy_series {
    size_t  n;            /* number of samples                                        */
    size_t  cap;          /* allocated samples per column                             */
    double *t;            /* time, NULL when the record has no time column            */
    double *q;            /* generalized displacement (scale applied)                 */
    double *Q;            /* generalized force (scale applied)                        */
    size_t *line;         /* 1-based source line of each sample, for messages         */
    char    t_name[64], q_name[64], Q_name[64];   /* column names ("" when none)      */
    char    t_unit[32], q_unit[32], Q_unit[32];   /* units from the units row ("" when none) */
    char    source[256];  /* file name for messages ("<stdin>" for -)                 */
    size_t  skipped_rows; /* rows dropped by --skip-bad-rows                          */
} hy_series;

// (s) => empty series
void hy_series_init(hy_series *s);

// (s, t, q, Q, line) => sample appended (has_time decides whether t is stored)
int hy_series_push(hy_series *s, int has_time, double t, double q, double Q, size_t line, hy_err *err);

// (s) => memory released, s empty
void hy_series_free(hy_series *s);

#endif

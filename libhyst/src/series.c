// A bench-test record: columns q, Q (and t) growing together (see hyst/series.h).
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/series.h"

// (s) => empty series
void hy_series_init(hy_series *s)
{
    memset(s, 0, sizeof *s);
}

/* Grows every kept column to hold `cap` samples. realloc keeps the old block on failure, so the series stays
 * consistent (the columns already grown are only larger than needed). */
static int grow(hy_series *s, size_t cap, int has_time, hy_err *err)
{
    if (cap > SIZE_MAX / sizeof(double))
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory: too many samples", s->source);
    double *q = realloc(s->q, cap * sizeof *q);
    if (!q)
        goto nomem;
    s->q = q;
    double *Q = realloc(s->Q, cap * sizeof *Q);
    if (!Q)
        goto nomem;
    s->Q = Q;
    size_t *line = realloc(s->line, cap * sizeof *line);
    if (!line)
        goto nomem;
    s->line = line;
    if (has_time) {
        double *t = realloc(s->t, cap * sizeof *t);
        if (!t)
            goto nomem;
        s->t = t;
    }
    s->cap = cap;
    return HY_OK;
nomem:
    return hy_err_set(err, HY_ENOMEM, "%s: out of memory after %zu samples", s->source, s->n);
}

// (s, t, q, Q, line) => sample appended (has_time decides whether t is stored)
int hy_series_push(hy_series *s, int has_time, double t, double q, double Q, size_t line, hy_err *err)
{
    /* A record either has a time column for every sample or for none. */
    if (s->n > 0 && has_time != (s->t != NULL))
        return hy_err_set(err, HY_EARG, "%s: sample %zu %s a time value but the earlier samples %s", s->source,
                          s->n + 1, has_time ? "has" : "lacks", has_time ? "do not" : "do");
    if (s->n == s->cap || (has_time && !s->t)) {
        size_t cap = s->n == s->cap ? (s->cap ? 2 * s->cap : 1024) : s->cap;
        int rc = grow(s, cap, has_time, err);
        if (rc)
            return rc;
    }
    if (has_time)
        s->t[s->n] = t;
    s->q[s->n] = q;
    s->Q[s->n] = Q;
    s->line[s->n] = line;
    s->n++;
    return HY_OK;
}

// (s) => memory released, s empty
void hy_series_free(hy_series *s)
{
    free(s->t);
    free(s->q);
    free(s->Q);
    free(s->line);
    hy_series_init(s);
}

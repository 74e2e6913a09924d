/* A measured record for calibration (docs/calibrate.md §2): a CSV file with a time column and named channels, an
 * optional units row, read through libhyst's CSV reader one channel at a time (so every detection, located error
 * and limit of `hyst` applies), and the noise level of a channel estimated from the record alone. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/csvread.h"
#include "hyst/series.h"
#include "hyst/util.h"
#include "mech/calib.h"
#include "calib_internal.h"

// (path, time column, channel names) => record; the time strictly increasing, the channels on the same rows
int mech_calib__record_read(mech_calib_record *r, const char *path, const char *tcol, int nch,
                            const char *const *names, hy_err *err)
{
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", path);
    r->nch = nch;
    for (int c = 0; c < nch; c++) {
        hy_csv_opts o;
        hy_csv_opts_default(&o);
        o.t_col = tcol;
        o.x_col = names[c];
        o.no_force = 1;
        o.header = 1;
        hy_series s;
        int rc = hy_csv_read(path, &o, &s, err);
        if (rc != HY_OK)
            return rc;
        if (c == 0) {
            r->n = s.n;
            r->t = malloc((s.n ? s.n : 1) * sizeof *r->t);
            r->y = malloc((s.n ? s.n : 1) * (size_t)nch * sizeof *r->y);
            if (!r->t || !r->y) {
                hy_series_free(&s);
                return hy_err_set(err, HY_ENOMEM, "%s: out of memory", hy_display_name(path));
            }
            memcpy(r->t, s.t, s.n * sizeof *r->t);
            r->line0 = s.n ? s.line[0] : 0;
            for (size_t i = 1; i < s.n; i++)
                if (!(s.t[i] > s.t[i - 1])) {
                    rc = hy_err_set(err, HY_EDATA, "%s:%zu:1: time %.17g s is not after the previous row's %.17g s "
                                    "(expected strictly increasing time)", hy_display_name(path), s.line[i], s.t[i],
                                    s.t[i - 1]);
                    hy_series_free(&s);
                    return rc;
                }
        } else if (s.n != r->n) {
            hy_series_free(&s);
            return hy_err_set(err, HY_EDATA, "%s: column %s has %zu rows, %s %zu", hy_display_name(path), names[c],
                              s.n, names[0], r->n);
        }
        for (size_t i = 0; i < s.n; i++)
            r->y[i * (size_t)nch + (size_t)c] = s.q[i];
        snprintf(r->name[c], sizeof r->name[c], "%s", names[c]);
        snprintf(r->unit[c], sizeof r->unit[c], "%s", s.q_unit);
        if (s.t_unit[0] && strcmp(s.t_unit, "s") != 0) {
            rc = hy_err_set(err, HY_EDATA, "%s: column %s: unit '%s', expected s", hy_display_name(path),
                            s.t_name, s.t_unit);
            hy_series_free(&s);
            return rc;
        }
        hy_series_free(&s);
    }
    if (r->n < 16)
        return hy_err_set(err, HY_EDATA, "%s: %zu rows, expected at least 16", hy_display_name(path), r->n);
    return HY_OK;
}

void mech_calib__record_free(mech_calib_record *r)
{
    free(r->t);
    free(r->y);
    r->t = r->y = NULL;
    r->n = 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Noise of a smooth signal sampled well above its bandwidth: the 4th difference of white noise of variance s^2
 * has variance C(8, 4) s^2 = 70 s^2, while a signal component at frequency f is scaled by (2 sin(pi f / fs))^4
 * (1.8e-4 at fs / f = 27); the median absolute deviation (times 1.4826, the normal's) ignores the few rows an impact
 * makes large. */
double mech_calib_noise(const mech_calib_record *r, int c)
{
    if (r->n < 8)
        return NAN;
    size_t m = r->n - 4;
    double *d = malloc(m * sizeof *d);
    if (!d)
        return NAN;
    const double *y = r->y;
    size_t k = (size_t)r->nch, cc = (size_t)c;
    for (size_t i = 0; i < m; i++)
        d[i] = y[i * k + cc] - 4 * y[(i + 1) * k + cc] + 6 * y[(i + 2) * k + cc] - 4 * y[(i + 3) * k + cc] +
               y[(i + 4) * k + cc];
    qsort(d, m, sizeof *d, cmp_double);
    double med = m % 2 ? d[m / 2] : 0.5 * (d[m / 2 - 1] + d[m / 2]);
    for (size_t i = 0; i < m; i++)
        d[i] = fabs(d[i] - med);
    qsort(d, m, sizeof *d, cmp_double);
    double mad = m % 2 ? d[m / 2] : 0.5 * (d[m / 2 - 1] + d[m / 2]);
    free(d);
    return 1.4826 * mad / sqrt(70.0);
}

/* A measured record for calibration (docs/calibrate.md §2): read by `mech compare`'s reader (a CSV file with a
 * time column and named channels, an optional units row, or an HDF5 table), converted to the run channels' units,
 * and the noise level of a channel estimated from the record alone. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/util.h"
#include "mech/calib.h"
#include "mech/compare.h"
#include "calib_internal.h"

/* (path, time column, channel names, the run channels' units) => the record in the run channels' units: read by
 * mech_compare_rec_read (`mech compare`'s reader: CSV or FILE.h5:/DSET, strictly increasing time, FILE:LINE
 * messages) and converted by mech_compare_unit_factor (a unit of another dimension is refused, naming the channel) */
int mech_calib__record_read(mech_calib_record *r, const char *path, const char *tcol, int nch,
                            const char *const *names, const char *const *units, hy_err *err)
{
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", path);
    r->nch = nch;
    mech_compare_rec cr;
    int rc = mech_compare_rec_read(path, tcol, NULL, names, nch, &cr, err);
    if (rc != HY_OK)
        return rc;
    double f[MECH_CALIB_CH_MAX];
    for (int c = 0; c < nch && rc == HY_OK; c++) {
        snprintf(r->name[c], sizeof r->name[c], "%s", names[c]);
        snprintf(r->unit[c], sizeof r->unit[c], "%s", cr.unit[c]);
        f[c] = 1;
        if (cr.unit[c][0] && mech_compare_unit_factor(cr.unit[c], units[c], &f[c]) != 0)
            rc = hy_err_set(err, HY_EDATA, "%s: channel %s: unit '%s', but the run's channel is in '%s'",
                            hy_display_name(path), names[c], cr.unit[c], units[c]);
    }
    if (rc == HY_OK && cr.n < 16)
        rc = hy_err_set(err, HY_EDATA, "%s: %zu rows, expected at least 16", hy_display_name(path), cr.n);
    if (rc == HY_OK) {
        r->n = cr.n;
        r->line0 = cr.line ? cr.line[0] : 0;
        r->t = malloc(cr.n * sizeof *r->t);
        r->y = malloc(cr.n * (size_t)nch * sizeof *r->y);
        if (!r->t || !r->y)
            rc = hy_err_set(err, HY_ENOMEM, "%s: out of memory", hy_display_name(path));
    }
    for (size_t i = 0; rc == HY_OK && i < cr.n; i++) {
        r->t[i] = cr.t[i];
        for (int c = 0; c < nch; c++)
            r->y[i * (size_t)nch + (size_t)c] = f[c] * cr.v[c][i];
    }
    mech_compare_rec_free(&cr);
    return rc;
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

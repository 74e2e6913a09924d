/* Internal to libmech/src/compare/ (not exported): the one linear interpolation every part of the comparison
 * resamples with. */
#ifndef MECH_COMPARE_INTERNAL_H
#define MECH_COMPARE_INTERNAL_H

#include <stddef.h>

/* (t[n] strictly increasing, n >= 2, v[n], x, *j a search hint (0 to start; kept between calls with growing x))
 * => v at x by linear interpolation, v[0] / v[n-1] at or beyond the ends (callers clamp x to the record: nothing
 * is extrapolated) */
double compare_interp(const double *t, const double *v, size_t n, double x, size_t *j);

#endif

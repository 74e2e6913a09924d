/* Internal to libmech/src/compare/ (not exported): the one linear interpolation every part of the comparison
 * resamples with. */
#ifndef MECH_COMPARE_INTERNAL_H
#define MECH_COMPARE_INTERNAL_H

#include <stddef.h>

/* (t[n] strictly increasing, n >= 2, v[n], x, *j a search hint (0 to start; kept between calls with growing x))
 * => v at x by linear interpolation, v[0] / v[n-1] at or beyond the ends (callers clamp x to the record: nothing
 * is extrapolated) */
double compare_interp(const double *t, const double *v, size_t n, double x, size_t *j);

/* (t[n], v[n], n >= 3, order d in 1..2, sample i) => the d-th time derivative of v at sample i: the three-point
 * formula on a non-uniform grid through samples i-1, i, i+1; at an end the two nearest interior values extrapolated
 * linearly to it (second order, as the interior; with n = 3 the middle stencil's value) */
double compare_derive_at(const double *t, const double *v, size_t n, int d, size_t i);
/* (t[n], v[n], order d in 0..2, x, hint) => the d-th derivative at x, linear between the samples' values */
double compare_interp_d(const double *t, const double *v, size_t n, int d, double x, size_t *j);

#endif

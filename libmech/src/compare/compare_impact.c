/* Impacts of a contact-force channel (issue 45, docs/compare.md §4): episodes where the force acts, each with its
 * start, peak and impulse, for the impact table of mech compare (head–bottom, latch–stop, limiter, rollers). */
#include <math.h>
#include "mech/compare.h"

// (t[n], v[n], threshold) => episodes in out[max]; the count found
size_t mech_compare_impacts(const double *t, const double *v, size_t n, double threshold, mech_compare_impact *out,
                            size_t max)
{
    size_t count = 0;
    if (!(threshold > 0))
        return 0;
    size_t i = 0;
    while (i < n) {
        while (i < n && !(fabs(v[i]) >= threshold))
            i++;
        if (i >= n)
            break;
        size_t a = i, p = i;
        /* the impulse includes the segments from the sample before the start and to the sample after the end: the
           whole contact of a force that rises from and falls back to below the threshold */
        double imp = a > 0 ? 0.5 * (v[a - 1] + v[a]) * (t[a] - t[a - 1]) : 0;
        while (i + 1 < n && fabs(v[i + 1]) >= 0.5 * threshold) {
            imp += 0.5 * (v[i] + v[i + 1]) * (t[i + 1] - t[i]);
            i++;
            if (fabs(v[i]) > fabs(v[p]))
                p = i;
        }
        if (i + 1 < n)
            imp += 0.5 * (v[i] + v[i + 1]) * (t[i + 1] - t[i]);
        if (count < max)
            out[count] = (mech_compare_impact){t[a], t[i], t[p], v[p], imp};
        count++;
        i++;
    }
    return count;
}

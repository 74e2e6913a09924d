/* Monotone speed tables of the magnetic brakes (spec 001 eq. 2.2): y(x) linear between samples. */
#include "mech/dock.h"

/* Eq. (2.2): m_MB = m_MB,i^Beg + k_MB,i (|x| - x_i^Beg) on the segment holding x. Below the first sample the
 * first segment is continued (a table that starts at (0, 0) gives 0 at rest); beyond the last sample the last
 * segment's slope is continued, so a repeated last y gives saturation. n = 0: no brake (0). */
double mech_dock_table_eval(const mech_dock_table *t, double x)
{
    int n = t->n;
    if (n <= 0)
        return 0.0;
    if (n == 1)
        return t->y[0];
    int i = 0; /* segment i runs from sample i to i + 1; at most 15 segments: a linear walk is fastest */
    while (i < n - 2 && x > t->x[i + 1])
        i++;
    double dx = t->x[i + 1] - t->x[i];
    double k = dx > 0 ? (t->y[i + 1] - t->y[i]) / dx : 0.0;
    return t->y[i] + k * (x - t->x[i]);
}

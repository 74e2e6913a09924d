// Decimation for drawing: min/max-preserving thinning of long records (see hyst/replay.h).
#include "hyst/replay.h"

// (x[n], y[n], buckets) => kept sample indices (increasing) and their count
size_t hy_replay_decimate(const double *x, const double *y, size_t n, size_t buckets, size_t *keep)
{
    if (buckets == 0)
        buckets = 1;
    size_t m = 0;
    if (n <= 4 * buckets + 2) {
        for (size_t i = 0; i < n; i++)
            keep[m++] = i;
        return m;
    }
    keep[m++] = 0;
    for (size_t b = 0; b < buckets; b++) {
        /* run b covers [lo, hi): equal shares of the index range, computed without overflow */
        size_t lo = (size_t)((double)n * (double)b / (double)buckets);
        size_t hi = (size_t)((double)n * (double)(b + 1) / (double)buckets);
        if (b + 1 == buckets)
            hi = n;
        if (lo >= hi)
            continue;
        size_t ix0 = lo, ix1 = lo, iy0 = lo, iy1 = lo;
        for (size_t i = lo + 1; i < hi; i++) {
            if (x[i] < x[ix0]) ix0 = i;
            if (x[i] > x[ix1]) ix1 = i;
            if (y[i] < y[iy0]) iy0 = i;
            if (y[i] > y[iy1]) iy1 = i;
        }
        /* the four extremes in record order (sorting network for 4 values), duplicates dropped */
        size_t v[4] = {ix0, ix1, iy0, iy1}, tmp;
#define HY_SWAP(a, b) if (v[a] > v[b]) { tmp = v[a]; v[a] = v[b]; v[b] = tmp; }
        HY_SWAP(0, 1) HY_SWAP(2, 3) HY_SWAP(0, 2) HY_SWAP(1, 3) HY_SWAP(1, 2)
#undef HY_SWAP
        for (int k = 0; k < 4; k++)
            if (v[k] > keep[m - 1])
                keep[m++] = v[k];
    }
    if (keep[m - 1] != n - 1)
        keep[m++] = n - 1;
    return m;
}

/* The adaptive capture envelope (docs/sweep.md §Envelope): a quadtree over a 2-D grid. Level 0 measures every
 * 2^L-th point; at level l a cell of side s = 2^(L - l + 1) whose four corners do not agree is split: its edge
 * midpoints and centre are measured. A cell whose corners agree is filled with their value - the one assumption,
 * stated in the docs: the boundary does not enter and leave a cell between two agreeing corners (an island
 * smaller than the coarse cell is missed). Each level's new points form one batch, so the points a batch needs
 * are known before any of them runs and a parallel driver can hand them out at once. */
#include <stdlib.h>
#include <string.h>
#include "mech/sweep.h"

int mech_sweep_envelope_init(mech_sweep_envelope *e, int nx, int ny, int levels, hy_err *err)
{
    memset(e, 0, sizeof *e);
    if (levels < 0 || levels > 12)
        return hy_err_set(err, HY_EARG, "envelope levels %d: expected 0..12", levels);
    int s = 1 << levels;
    if (nx < 2 || ny < 2 || (nx - 1) % s || (ny - 1) % s)
        return hy_err_set(err, HY_EARG, "envelope grid %d x %d: each count minus 1 must be a positive multiple of "
                          "2^levels = %d", nx, ny, s);
    e->nx = nx, e->ny = ny, e->levels = levels;
    e->state = malloc((size_t)nx * (size_t)ny);
    e->measured = calloc((size_t)nx * (size_t)ny, 1);
    if (!e->state || !e->measured) {
        mech_sweep_envelope_free(e);
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    }
    memset(e->state, -1, (size_t)nx * (size_t)ny);
    return HY_OK;
}

void mech_sweep_envelope_free(mech_sweep_envelope *e)
{
    free(e->state);
    free(e->measured);
    e->state = NULL, e->measured = NULL;
}

static void add(mech_sweep_envelope *e, long *ids, size_t *n, int ix, int iy)
{
    long id = (long)ix * e->ny + iy;
    if (e->state[id] >= 0 || e->measured[id] == 2)
        return;
    e->measured[id] = 2;   /* planned in this batch */
    ids[(*n)++] = id;
}

// (cells of side s) => fill the agreeing ones at side s (their inside points take the corners' value)
static void fill(mech_sweep_envelope *e, int s)
{
    for (int ix = 0; ix + s < e->nx; ix += s)
        for (int iy = 0; iy + s < e->ny; iy += s) {
            signed char *st = e->state;
            int ny = e->ny;
            signed char a = st[ix * ny + iy], b = st[(ix + s) * ny + iy], c = st[ix * ny + iy + s],
                        d = st[(ix + s) * ny + iy + s];
            if (a < 0 || a != b || a != c || a != d)
                continue;
            for (int i = ix; i <= ix + s; i++)
                for (int j = iy; j <= iy + s; j++)
                    if (st[i * ny + j] < 0)
                        st[i * ny + j] = a;
        }
}

size_t mech_sweep_envelope_next(mech_sweep_envelope *e, long *ids)
{
    size_t n = 0;
    for (size_t k = 0; k < (size_t)e->nx * (size_t)e->ny; k++)
        if (e->measured[k] == 2)
            e->measured[k] = e->state[k] >= 0;
    while (n == 0 && e->level <= e->levels) {
        int l = e->level++;
        if (l == 0) {
            int s = 1 << e->levels;
            for (int ix = 0; ix < e->nx; ix += s)
                for (int iy = 0; iy < e->ny; iy += s)
                    add(e, ids, &n, ix, iy);
            continue;
        }
        int s = 1 << (e->levels - l + 1), h = s / 2;
        fill(e, s);
        for (int ix = 0; ix + s < e->nx; ix += s)
            for (int iy = 0; iy + s < e->ny; iy += s) {
                int ny = e->ny;
                signed char a = e->state[ix * ny + iy], b = e->state[(ix + s) * ny + iy],
                            c = e->state[ix * ny + iy + s], d = e->state[(ix + s) * ny + iy + s];
                if (a == b && a == c && a == d)
                    continue;   /* filled (or agreeing) */
                add(e, ids, &n, ix + h, iy);
                add(e, ids, &n, ix + h, iy + s);
                add(e, ids, &n, ix, iy + h);
                add(e, ids, &n, ix + s, iy + h);
                add(e, ids, &n, ix + h, iy + h);
            }
    }
    if (n == 0)
        fill(e, 1);
    return n;
}

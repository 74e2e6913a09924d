// Inner loops and major reversals: the rainflow four-point rule (ASTM E1049) on the reversal sequence, with the
// reversal threshold as the tolerance, and the area enclosed by every inner loop. Rules: docs/loops.md,
// "Inner loops and major reversals".
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "loops_internal.h"

/* The working sequence: point 0 is the start of the record, points 1 .. n_rev the reversals, point n_rev + 1 the
 * end. The start and the end are not reversals, but they bound the first and the last excursion, so that a dip
 * on the way out to the first peak (or to the end) is an inner loop too. */
// (analysis, n, point p) => sample index of point p
static size_t point_sample(const hy_loops *L, size_t n, size_t p)
{
    return p == 0 ? 0 : p <= L->n_rev ? L->rev[p - 1].i : n - 1;
}

// (running sum s + c, x) => s + c + x, compensated (Neumaier): long records keep the loop areas exact
static void add_comp(double *s, double *c, double x)
{
    double t = *s + x;
    *c += fabs(*s) >= fabs(x) ? (*s - t) + x : (x - t) + *s;
    *s = t;
}

/* A min-heap of pending closures: an inner loop whose first reversal is a maximum closes at the first sample
 * with q >= q(i0) after its turn (key q(i0)); one whose first reversal is a minimum at the first sample with
 * -q >= -q(i0) (key -q(i0)). */
typedef struct pending {
    double key;
    size_t id;
} pending;

// (heap[*n], key, id) => entry added
static void heap_push(pending *h, size_t *n, double key, size_t id)
{
    size_t i = (*n)++;
    while (i > 0 && h[(i - 1) / 2].key > key) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i].key = key;
    h[i].id = id;
}

// (heap[*n]) => smallest entry removed
static void heap_pop(pending *h, size_t *n)
{
    pending last = h[--(*n)];
    size_t i = 0;
    for (;;) {
        size_t k = 2 * i + 1;
        if (k >= *n)
            break;
        if (k + 1 < *n && h[k + 1].key < h[k].key)
            k++;
        if (h[k].key >= last.key)
            break;
        h[i] = h[k];
        i = k;
    }
    if (*n > 0)
        h[i] = last;
}

// (inner loops a, b) => order by first sample
static int by_start(const void *a, const void *b)
{
    size_t x = ((const hy_inner_loop *)a)->i0, y = ((const hy_inner_loop *)b)->i0;
    return (x > y) - (x < y);
}

/* Energies: one sweep over the samples from the first inner loop on, with a compensated running integral P of
 * Q dq. P is noted at each loop's first reversal; at its turn the loop waits in a heap for the sample where q is
 * back at q(i0) (it exists: the four-point rule put r4 beyond r2 by more than the threshold). Energy = P(i1) -
 * P(i0) plus the closing segment. O(n + m log m) for m loops, whatever their nesting. */
// (q, Q, inner loops with i0, i_turn, kind; role[2k], role[2k+1]: id + 1 of the loop starting / turning at
// reversal k, 0 for none) => their i1 and energy, the loops sorted by i0
static int inner_energies(const double *q, const double *Q, size_t n, hy_loops *L, const size_t *role, hy_err *err)
{
    size_t m = L->n_inner, nr = L->n_rev;
    double *p0 = malloc(2 * m * sizeof *p0);         /* P at each loop's start: sum and compensation        */
    pending *heap = malloc(2 * m * sizeof *heap);    /* up-closures [0, m), down-closures [m, 2m)           */
    if (!p0 || !heap) {
        free(p0);
        free(heap);
        return hy_err_set(err, HY_ENOMEM, "out of memory measuring %zu inner loops", m);
    }
    size_t k = 0, first = n;
    for (size_t j = 0; j < m; j++)
        if (L->inner[j].i0 < first)
            first = L->inner[j].i0;
    while (k < nr && L->rev[k].i < first)
        k++;
    pending *up = heap, *dn = heap + m;
    size_t nup = 0, ndn = 0, closed = 0;
    double s = 0.0, c = 0.0;
    for (size_t i = first; i < n && closed < m; i++) {
        if (i > first)
            add_comp(&s, &c, 0.5 * (Q[i] + Q[i - 1]) * (q[i] - q[i - 1]));
        for (int dir = +1; dir >= -1; dir -= 2) {
            pending *h = dir > 0 ? up : dn;
            size_t *nh = dir > 0 ? &nup : &ndn;
            while (*nh > 0 && h[0].key <= dir * q[i]) {
                hy_inner_loop *y = &L->inner[h[0].id];
                size_t a = y->i0;
                y->i1 = i;
                y->energy = (s - p0[2 * h[0].id]) + (c - p0[2 * h[0].id + 1]) + 0.5 * (Q[i] + Q[a]) * (q[a] - q[i]);
                heap_pop(h, nh);
                closed++;
            }
        }
        if (k < nr && L->rev[k].i == i) {
            size_t js = role[2 * k], jt = role[2 * k + 1];
            if (js) {
                p0[2 * (js - 1)] = s;
                p0[2 * (js - 1) + 1] = c;
            }
            if (jt) {
                const hy_inner_loop *y = &L->inner[jt - 1];
                if (y->kind > 0)
                    heap_push(up, &nup, q[y->i0], jt - 1);
                else
                    heap_push(dn, &ndn, -q[y->i0], jt - 1);
            }
            k++;
        }
    }
    free(p0);
    free(heap);
    if (closed < m)   /* cannot happen (see above); kept so that a broken invariant is an error, not garbage */
        return hy_err_set(err, HY_EDATA, "%zu of %zu inner loops do not close before the end of the record",
                          m - closed, m);
    qsort(L->inner, m, sizeof *L->inner, by_start);
    return HY_OK;
}

/* Four-point rule on a stack: push each point; while the last four r1 r2 r3 r4 have the range Y = |r2 - r3|
 * smaller than both Z = |r1 - r2| and X = |r3 - r4| by more than the threshold h, (r2, r3) is an inner loop:
 * record it and remove r2 and r3. Equivalently r2 and r3 lie inside the span of r1 and r4 by more than h at both
 * ends. ASTM E1049 uses Y <= X, Y <= Z without a margin; with it, repeated cycles of equal amplitude (Y = X = Z
 * up to noise) would be inner loops of one another and every repeated protocol cycle would vanish. The
 * reversals left on the stack are the major reversals; removing pairs keeps them alternating max / min. */
// (q[n], Q[n], reversals, threshold) => rev[].major, L->n_major, L->inner (i0, i_turn, i1, kind, range, energy)
int hy_loops_inner_build(const double *q, const double *Q, size_t n, hy_loops *L, hy_err *err)
{
    L->n_inner = L->n_major = 0;
    L->inner = NULL;
    if (L->n_rev == 0)
        return HY_OK;
    size_t np = L->n_rev + 2, top = 0;
    size_t *st = malloc(np * sizeof *st);
    size_t *role = calloc(2 * L->n_rev, sizeof *role);
    L->inner = malloc((L->n_rev / 2 + 1) * sizeof *L->inner);
    if (!st || !role || !L->inner) {
        free(st);
        free(role);
        return hy_err_set(err, HY_ENOMEM, "out of memory counting the inner loops of %zu reversals", L->n_rev);
    }
    double h = L->threshold;
    for (size_t p = 0; p < np; p++) {
        st[top++] = p;
        while (top >= 4) {
            double a = q[point_sample(L, n, st[top - 4])], b = q[point_sample(L, n, st[top - 3])];
            double c = q[point_sample(L, n, st[top - 2])], d = q[point_sample(L, n, st[top - 1])];
            double y = fabs(b - c);
            if (!(y + h < fabs(a - b) && y + h < fabs(c - d)))
                break;
            hy_inner_loop *in = &L->inner[L->n_inner++];
            size_t k2 = st[top - 3] - 1, k3 = st[top - 2] - 1;
            const hy_reversal *r2 = &L->rev[k2], *r3 = &L->rev[k3];
            role[2 * k2] = role[2 * k3 + 1] = L->n_inner;
            in->i0 = r2->i;
            in->i_turn = r3->i;
            in->i1 = r3->i;
            in->kind = r2->kind;
            in->range = y;
            in->energy = 0.0;
            in->cycle = HY_LOOPS_NONE;
            st[top - 3] = st[top - 1];
            top -= 2;
        }
    }
    for (size_t k = 1; k + 1 < top; k++)   /* st[0] is the start, st[top - 1] the end */
        L->rev[st[k] - 1].major = 1;
    L->n_major = top - 2;
    free(st);
    int rc = L->n_inner > 0 ? inner_energies(q, Q, n, L, role, err) : HY_OK;
    free(role);
    return rc;
}

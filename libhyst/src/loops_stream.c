/* The loop analysis's energies of a record too long to hold, read in passes through the caller's reader (a file):
 * the same threshold, reversals, major reversals, half-cycles, cycle boundaries and cycle energies as
 * hy_loops_analyze (loops_reversals.c, loops_inner.c, loops_cycles.c; docs/loops.md), bit for bit, in memory
 * bounded by the reversals' count and two 65536-bucket histograms, not the samples'. Passes: (1) finiteness and
 * range; (2, 3) the two radix-selection passes of the noise medians; (4) the reversal gate; (5) the half-cycle
 * energies and the cycle boundaries' scans; (6) the cycle energies. `mech beam sim --summary` uses it on the hinge
 * records it streams to a temporary file. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "loops_internal.h"

#define CHUNK 4096   /* samples a read */

typedef struct rd {
    hy_loops_read_fn fn;
    void *ctx;
    size_t n;
    double q[CHUNK], Q[CHUNK];
} rd;

// (reader, first sample) => samples i0 .. i0 + m - 1 into r->q, r->Q (m <= CHUNK)
static int chunk(rd *r, size_t i0, size_t m, hy_err *err)
{
    return r->fn(r->ctx, i0, m, r->q, r->Q, err);
}

typedef struct rev_v {
    size_t i;
    int kind, major;
    double q;
} rev_v;

// (list, reversal) => appended (doubling)
static int push(rev_v **v, size_t *n, size_t *cap, size_t i, int kind, double q)
{
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        rev_v *p = realloc(*v, nc * sizeof *p);
        if (!p)
            return -1;
        *v = p, *cap = nc;
    }
    (*v)[(*n)++] = (rev_v){.i = i, .kind = kind, .major = 0, .q = q};
    return 0;
}

// a scan of the cycle boundaries (cycle_bounds in loops_cycles.c) over samples lo .. hi
typedef struct scan {
    size_t lo, hi;
    int type;                       /* 0: first q >= c (two-sided); 1: first most extreme -side q (one-sided) */
    int tail;                       /* two-sided, after the last major minimum: the end when no crossing     */
    size_t k;                       /* arg of the extreme so far (type 1)                                     */
    size_t found;                   /* the boundary, or HY_LOOPS_NONE                                         */
    size_t order;                   /* its place among the boundaries                                         */
} scan;

void hy_loops_sum_free(hy_loops_sum *S)
{
    if (S)
        free(S->cyc_energy), memset(S, 0, sizeof *S);
}

int hy_loops_stream(hy_loops_read_fn fn, void *ctx, size_t n, const hy_loops_opts *o, hy_loops_sum *S, hy_err *err)
{
    memset(S, 0, sizeof *S);
    if (n < 3)
        return hy_err_set(err, HY_EDATA, "loop analysis needs at least 3 samples, got %zu", n);
    hy_loops_opts def;
    int orc = hy_loops_opts_resolve(&o, &def, err);
    if (orc != HY_OK)
        return orc;
    rd *r = malloc(sizeof *r);
    size_t *cnt = malloc(2 * 65536 * sizeof *cnt);
    rev_v *rv = NULL;
    scan *sc = NULL;
    size_t *b = NULL, nr = 0, cap = 0;
    int rc = HY_OK;
    if (!r || !cnt) {
        rc = hy_err_set(err, HY_ENOMEM, "out of memory for the loop analysis of %zu samples", n);
        goto out;
    }
    r->fn = fn, r->ctx = ctx, r->n = n;
    /* (1) Q finite (reported first, as hy_loops_analyze), q finite, range */
    double qmin = 0, qmax = 0, q0 = 0, qn = 0;
    size_t badQ = 0, badq = 0;
    for (size_t i0 = 0; i0 < n; i0 += CHUNK) {
        size_t m = n - i0 < CHUNK ? n - i0 : CHUNK;
        if ((rc = chunk(r, i0, m, err)) != HY_OK)
            goto out;
        if (i0 == 0)
            qmin = qmax = q0 = r->q[0];
        for (size_t k = 0; k < m; k++) {
            if (!isfinite(r->Q[k]) && !badQ)
                badQ = i0 + k + 1;
            if (!isfinite(r->q[k]) && !badq)
                badq = i0 + k + 1;
            if (r->q[k] < qmin) qmin = r->q[k];
            if (r->q[k] > qmax) qmax = r->q[k];
        }
        qn = r->q[m - 1];
    }
    if (badQ) {
        rc = hy_err_set(err, HY_EDATA, "sample %zu: Q is not a finite number", badQ);
        goto out;
    }
    if (badq) {
        rc = hy_err_set(err, HY_EDATA, "sample %zu: q is not a finite number", badq);
        goto out;
    }
    double range = qmax - qmin;
    int e2 = 0;
    frexp(range, &e2);
    double scale = ldexp(1.0, -e2);
    /* (2, 3) the medians of |lag-1| and |lag-2| second differences: high 16 bits, then low 16 bits of the key */
    size_t kk[2] = {(n - 2) / 2, n >= 5 ? (n - 4) / 2 : 0};
    uint32_t hi[2] = {0, 0}, lo[2] = {0, 0};
    for (int pass = 0; pass < 2; pass++) {
        memset(cnt, 0, 2 * 65536 * sizeof *cnt);
        double p1 = 0, p2 = 0, p3 = 0, p4 = 0;   /* q[i-1] .. q[i-4] */
        for (size_t i0 = 0; i0 < n; i0 += CHUNK) {
            size_t m = n - i0 < CHUNK ? n - i0 : CHUNK;
            if ((rc = chunk(r, i0, m, err)) != HY_OK)
                goto out;
            for (size_t k = 0; k < m; k++) {
                size_t i = i0 + k;
                double x = r->q[k];
                for (int L = 1; L <= 2; L++) {
                    if (i < 2 * (size_t)L || (L == 2 && n < 5))
                        continue;
                    uint32_t u = hy_loops_d2_key(L == 1 ? x - 2.0 * p1 + p2 : x - 2.0 * p2 + p4, scale);
                    if (pass == 0)
                        cnt[(size_t)(L - 1) * 65536 + (u >> 16)]++;
                    else if (u >> 16 == hi[L - 1])
                        cnt[(size_t)(L - 1) * 65536 + (u & 0xffff)]++;
                }
                p4 = p3, p3 = p2, p2 = p1, p1 = x;
            }
        }
        for (int L = 0; L < 2; L++)
            if (pass == 0)
                hi[L] = hy_loops_bucket(cnt + (size_t)L * 65536, &kk[L]);
            else
                lo[L] = hy_loops_bucket(cnt + (size_t)L * 65536, &kk[L]);
    }
    hy_loops_thr t;
    hy_loops_thr_rule(hy_loops_median_value(hi[0], lo[0], scale),
                      n >= 5 ? hy_loops_median_value(hi[1], lo[1], scale) : 0.0, range, n, &t);
    S->threshold = t.threshold;
    S->threshold_rule = t.rule;
    if (range == 0) {
        rc = hy_err_set(err, HY_EDATA, "q is constant (%g) over all %zu samples: there are no loops to analyse",
                        q0, n);
        goto out;
    }
    if (o->threshold > 0)
        S->threshold = o->threshold, S->threshold_rule = HY_LOOPS_THR_USER;
    double h = S->threshold, c = o->center;
    /* (4) reversals, with their q */
    hy_loops_gate g;
    hy_loops_gate_init(&g, h, q0);
    for (size_t i0 = 0; i0 < n; i0 += CHUNK) {
        size_t m = n - i0 < CHUNK ? n - i0 : CHUNK;
        if ((rc = chunk(r, i0, m, err)) != HY_OK)
            goto out;
        for (size_t k = i0 ? 0 : 1; k < m; k++) {
            size_t at;
            int kind = hy_loops_gate_push(&g, i0 + k, r->q[k], &at);
            if (kind && push(&rv, &nr, &cap, at, kind, kind > 0 ? g.hi : g.lo)) {
                rc = hy_err_set(err, HY_ENOMEM, "out of memory storing %zu reversal points", nr);
                goto out;
            }
        }
    }
    int dir_end = g.dir;
    /* the gate moved on from the confirmed extreme: its value is the extreme's (hi for a maximum, lo for a
     * minimum) before the move; hy_loops_gate_push leaves it in place, so rv[].q holds q[rv[].i] */
    /* the four-point rule on the start, the reversals and the end (hy_loops_inner_build) */
    size_t nmaj = 0;
    if (nr > 0) {
        size_t np = nr + 2, top = 0;
        size_t *st = malloc(np * sizeof *st);
        if (!st) {
            rc = hy_err_set(err, HY_ENOMEM, "out of memory counting the inner loops of %zu reversals", nr);
            goto out;
        }
#define QV(p) ((p) == 0 ? q0 : (p) <= nr ? rv[(p) - 1].q : qn)
        for (size_t p = 0; p < np; p++) {
            st[top++] = p;
            while (top >= 4) {
                double a = QV(st[top - 4]), bb = QV(st[top - 3]), cc = QV(st[top - 2]), d = QV(st[top - 1]);
                double y = fabs(bb - cc);
                if (!(y + h < fabs(a - bb) && y + h < fabs(cc - d)))
                    break;
                st[top - 3] = st[top - 1];
                top -= 2;
            }
        }
#undef QV
        for (size_t k = 1; k + 1 < top; k++)
            rv[st[k] - 1].major = 1;
        nmaj = top - 2;
        free(st);
    }
    /* the cycle boundaries' scans (cycle_bounds) */
    int side = qmin >= c - h ? +1 : qmax <= c + h ? -1 : 0;
    size_t first = nr, last = 0, ns = 0, nb = 0;
    for (size_t k = 0; k < nr; k++)
        if (rv[k].major) {
            if (first == nr)
                first = k;
            last = k;
        }
    sc = malloc((nmaj + 2) * sizeof *sc);
    b = malloc((nmaj + 2) * sizeof *b);
    if (!sc || !b) {
        rc = hy_err_set(err, HY_ENOMEM, "out of memory placing the cycle boundaries");
        goto out;
    }
    size_t pre = HY_LOOPS_NONE, post = HY_LOOPS_NONE;   /* one-sided: the start's and the end's scan */
    if (first < nr) {
        if (side == 0) {
            if (rv[first].kind > 0) {
                if (q0 < c)
                    sc[ns++] = (scan){.lo = 1, .hi = rv[first].i, .type = 0, .found = HY_LOOPS_NONE};
                else if (q0 <= c + h)
                    sc[ns++] = (scan){.lo = 0, .hi = 0, .type = 2, .found = 0};
            }
            for (size_t k = first; k <= last; k++) {
                if (!rv[k].major || rv[k].kind > 0 || !(rv[k].q < c))
                    continue;
                size_t next = k + 1;
                while (next <= last && !rv[next].major)
                    next++;
                size_t end = next <= last ? rv[next].i : n - 1;
                sc[ns++] = (scan){.lo = rv[k].i + 1, .hi = end, .type = 0, .tail = next > last,
                                  .found = HY_LOOPS_NONE};
            }
        } else {
            if (rv[first].kind == side)
                pre = ns, sc[ns++] = (scan){.lo = 0, .hi = rv[first].i, .type = 1, .k = 0};
            if (rv[last].kind == side)
                post = ns, sc[ns++] = (scan){.lo = rv[last].i, .hi = n - 1, .type = 1, .k = rv[last].i};
        }
    }
    /* (5) the half-cycle energies (start, reversals, end) and the scans */
    size_t nhalf = nr > 0 ? nr + 1 : (dir_end != 0 ? 1 : 0), hc = 0;
    double e = 0.0, total = 0.0, qp = 0, Qp = 0, qk[2] = {0, 0};
    for (size_t i0 = 0; i0 < n; i0 += CHUNK) {
        size_t m = n - i0 < CHUNK ? n - i0 : CHUNK;
        if ((rc = chunk(r, i0, m, err)) != HY_OK)
            goto out;
        for (size_t k = 0; k < m; k++) {
            size_t i = i0 + k;
            double x = r->q[k], X = r->Q[k];
            if (i > 0) {
                e += 0.5 * (X + Qp) * (x - qp);
                size_t end = nhalf == 0 ? n - 1 : hc < nr ? rv[hc].i : n - 1;
                if (i == end) {
                    if (nhalf > 0)
                        total += e, e = 0.0, hc++;
                    else
                        total = e;
                }
            }
            for (size_t s = 0; s < ns; s++) {
                scan *p = &sc[s];
                if (i < p->lo || i > p->hi)
                    continue;
                if (p->type == 0 && p->found == HY_LOOPS_NONE && x >= c)
                    p->found = c - qp < x - c ? i - 1 : i;
                else if (p->type == 1) {
                    if (i == p->lo)
                        qk[s == post] = x, p->k = i;
                    else if (-side * x > -side * qk[s == post])
                        qk[s == post] = x, p->k = i;
                }
            }
            qp = x, Qp = X;
        }
    }
    S->total_energy = total;
    if (first < nr) {
        if (side == 0) {
            for (size_t s = 0; s < ns; s++)
                if (sc[s].found != HY_LOOPS_NONE)
                    b[nb++] = sc[s].found;
                else if (sc[s].tail && qn >= c - h)
                    b[nb++] = n - 1;
        } else {
            if (pre != HY_LOOPS_NONE && side * (qk[0] - c) <= h)
                b[nb++] = sc[pre].k;
            for (size_t k = first; k <= last; k++)
                if (rv[k].major && rv[k].kind == -side)
                    b[nb++] = rv[k].i;
            if (post != HY_LOOPS_NONE && side * (qk[1] - c) <= h)
                b[nb++] = sc[post].k;
        }
    }
    /* (6) the cycle energies: from one boundary to the next, closed by the straight segment back */
    size_t nc = nb >= 2 ? nb - 1 : 0;
    if (nc > 0 && !(S->cyc_energy = malloc(nc * sizeof *S->cyc_energy))) {
        rc = hy_err_set(err, HY_ENOMEM, "out of memory storing %zu cycles", nc);
        goto out;
    }
    size_t cy = 0;
    double qs = 0, Qs = 0;
    e = 0.0;
    for (size_t i0 = 0; i0 < n && cy < nc; i0 += CHUNK) {
        size_t m = n - i0 < CHUNK ? n - i0 : CHUNK;
        if ((rc = chunk(r, i0, m, err)) != HY_OK)
            goto out;
        for (size_t k = 0; k < m && cy < nc; k++) {
            size_t i = i0 + k;
            double x = r->q[k], X = r->Q[k];
            if (i > b[cy] && i <= b[cy + 1])
                e += 0.5 * (X + Qp) * (x - qp);
            if (i == b[cy + 1]) {
                S->cyc_energy[cy++] = e + 0.5 * (X + Qs) * (qs - x);
                e = 0.0;
            }
            if (cy < nc && i == b[cy])
                qs = x, Qs = X;
            qp = x, Qp = X;
        }
    }
    S->n_cyc = nc;
out:
    if (rc != HY_OK)
        hy_loops_sum_free(S);
    free(r);
    free(cnt);
    free(rv);
    free(sc);
    free(b);
    return rc;
}

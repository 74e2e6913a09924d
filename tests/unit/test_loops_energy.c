// Loop analysis: dissipated energy, peaks, secant stiffness and xi_eq against closed forms (issue 2, "What it
// must show"): the ellipse q = A sin t, Q = k q + c cos t encloses pi A c per cycle; elastic-perfectly-plastic
// loops enclose 4 Fy (u - Fy/k). Cycles run from one upward crossing of q = 0 to the next (docs/loops.md).
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include "hyst/loops.h"

#define REL(a, b) (fabs((a) - (b)) / fabs(b))

/* ---- the ellipse ------------------------------------------------------------------------------------------ */

enum { EN = 4000, EPERIODS = 5 };   /* samples per period (divisible by 4: the peaks are samples), periods */
static const double EA = 2.0, EK = 3.0, EC = 0.5;

// (sign of the damping term) => samples of q = A sin t, Q = k q + s c cos t, t = 0 .. 2 pi P inclusive
static size_t ellipse(double s, double **q, double **Q)
{
    size_t n = (size_t)EN * EPERIODS + 1;
    *q = malloc(n * sizeof **q);
    *Q = malloc(n * sizeof **Q);
    for (size_t i = 0; i < n; i++) {
        double t = 2.0 * M_PI * (double)i / EN;
        (*q)[i] = EA * sin(t);
        (*Q)[i] = EK * (*q)[i] + s * EC * cos(t);
    }
    return n;
}

static void ellipse_area_is_pi_A_c(void **state)
{
    (void)state;
    double *q, *Q;
    size_t n = ellipse(+1, &q, &Q);
    hy_loops L;
    hy_err err;
    assert_int_equal(hy_loops_analyze(q, Q, n, NULL, &L, &err), HY_OK);
    /* reversals at t = pi/2 + j pi, exactly on samples */
    assert_int_equal(L.n_rev, 2 * EPERIODS);
    for (size_t j = 0; j < L.n_rev; j++) {
        assert_int_equal(L.rev[j].i, EN / 4 + j * EN / 2);
        assert_int_equal(L.rev[j].kind, j % 2 == 0 ? +1 : -1);
    }
    /* every reversal is major (no inner loop); cycles from one upward crossing of 0 to the next: the record
     * starts at q = 0 rising (a boundary) and ends at q = 0 after the last minimum (a boundary), so the P
     * periods t = 0 .. 2 pi P are exactly P cycles */
    assert_int_equal(L.n_major, L.n_rev);
    assert_int_equal(L.n_inner, 0);
    assert_int_equal(L.cycle_rule, HY_LOOPS_CYC_CROSSING);
    assert_int_equal(L.n_cyc, EPERIODS);
    double exact = M_PI * EA * EC;
    /* the samples are the affine image of a regular N-gon: its area is exactly N/(2 pi) sin(2 pi/N) of the
     * ellipse's, which pins the trapezoid rule far below the 1e-6 of the closed form */
    double polygon = exact * EN / (2 * M_PI) * sin(2 * M_PI / EN);
    double cum = 0;
    for (size_t c = 0; c < L.n_cyc; c++) {
        const hy_cycle *y = &L.cyc[c];
        assert_int_equal(y->i0, c * EN);
        assert_int_equal(y->i1, (c + 1) * EN);
        assert_int_equal(y->n_inner, 0);
        assert_true(REL(y->energy, exact) <= 1e-6);
        assert_true(REL(y->energy, polygon) <= 1e-11);
        cum += y->energy;
        assert_true(REL(y->cum_energy, cum) <= 1e-14);
        assert_true(fabs(y->amp_pos - EA) <= 1e-12);
        assert_true(fabs(y->amp_neg - EA) <= 1e-12);
        /* Q at the peaks is k A (cos t = 0 there), so the secant stiffness is k and E_S = 1/2 k A^2 */
        assert_true(REL(y->k_sec, EK) <= 1e-12);
        assert_true(REL(y->e_strain, 0.5 * EK * EA * EA) <= 1e-12);
        assert_true(REL(y->xi_eq, EC / (2 * EK * EA)) <= 1e-6);
        /* peak force of the ellipse: sqrt((k A)^2 + c^2) */
        assert_true(REL(y->Q_max, sqrt(EK * EK * EA * EA + EC * EC)) <= 1e-6);
        assert_true(REL(y->Q_min, -sqrt(EK * EK * EA * EA + EC * EC)) <= 1e-6);
    }
    /* open path over P whole periods: P pi A c (same polygon factor) */
    assert_true(REL(L.total_energy, EPERIODS * polygon) <= 1e-11);
    hy_loops_free(&L);
    free(q);
    free(Q);
}

static void counterclockwise_loop_has_negative_energy(void **state)
{
    (void)state;
    double *q, *Q;
    size_t n = ellipse(-1, &q, &Q);
    hy_loops L;
    assert_int_equal(hy_loops_analyze(q, Q, n, NULL, &L, NULL), HY_OK);
    assert_int_equal(L.n_cyc, EPERIODS);
    for (size_t c = 0; c < L.n_cyc; c++) {
        assert_true(L.cyc[c].energy < 0);
        assert_true(REL(L.cyc[c].energy, -M_PI * EA * EC) <= 1e-6);
    }
    hy_loops_free(&L);
    free(q);
    free(Q);
}

static void halfcycles_partition_the_record(void **state)
{
    (void)state;
    double *q, *Q;
    size_t n = ellipse(+1, &q, &Q);
    hy_loops L;
    assert_int_equal(hy_loops_analyze(q, Q, n, NULL, &L, NULL), HY_OK);
    assert_int_equal(L.n_half, L.n_rev + 1);
    double sum = 0;
    for (size_t h = 0; h < L.n_half; h++) {
        const hy_halfcycle *c = &L.half[h];
        assert_int_equal(c->i0, h == 0 ? 0 : L.half[h - 1].i1);
        assert_int_equal(c->dir, h % 2 == 0 ? +1 : -1);
        assert_true(fabs(c->range - fabs(q[c->i1] - q[c->i0])) <= 1e-15);
        /* independent trapezoid over the half-cycle */
        double e = 0;
        for (size_t i = c->i0 + 1; i <= c->i1; i++)
            e += 0.5 * (Q[i] + Q[i - 1]) * (q[i] - q[i - 1]);
        assert_true(fabs(c->energy - e) <= 1e-12 * (1 + fabs(e)));
        sum += c->energy;
    }
    assert_int_equal(L.half[L.n_half - 1].i1, n - 1);
    assert_true(fabs(sum - L.total_energy) <= 1e-12);
    hy_loops_free(&L);
    free(q);
    free(Q);
}

/* ---- elastic-perfectly-plastic loops ---------------------------------------------------------------------- */

static const double FY = 10.0, KE = 50.0;   /* yield force, elastic stiffness: uy = 0.2                    */

typedef struct path {
    size_t n, cap;
    double *q, *Q;
} path;

// (path, vertex, points per segment) => the straight segment from the last point to (x, y) appended
static void seg(path *p, double x, double y, int m)
{
    if (p->n + (size_t)m + 1 > p->cap) {
        p->cap = 2 * (p->n + (size_t)m + 1);
        p->q = realloc(p->q, p->cap * sizeof *p->q);
        p->Q = realloc(p->Q, p->cap * sizeof *p->Q);
    }
    if (p->n == 0) {
        p->q[0] = x;
        p->Q[0] = y;
        p->n = 1;
        return;
    }
    double x0 = p->q[p->n - 1], y0 = p->Q[p->n - 1];
    for (int j = 1; j <= m; j++) {
        p->q[p->n] = x0 + (x - x0) * j / m;
        p->Q[p->n] = y0 + (y - y0) * j / m;
        p->n++;
    }
}

/* The EPP loop built from its vertices: load to u1; for each amplitude u_i unload to -u_i (elastic over 2 uy,
 * then plastic at -Fy), reload to u_{i+1} (elastic, then plastic at +Fy, through a vertex at q = 0 so that the
 * upward crossing of 0 is a sample); the record ends at +u_m. Along straight segments the trapezoid rule is
 * exact, so the closed forms hold to round-off. */
// (amplitudes u[m]) => the path
static path epp(const double *u, int m)
{
    double uy = FY / KE;
    path p = {0, 0, NULL, NULL};
    seg(&p, 0, 0, 1);
    seg(&p, uy, FY, 7);
    seg(&p, u[0], FY, 23);
    for (int i = 0; i < m; i++) {
        double next = i + 1 < m ? u[i + 1] : u[m - 1];
        seg(&p, u[i] - 2 * uy, -FY, 11);
        seg(&p, -u[i], -FY, 29);
        seg(&p, -u[i] + 2 * uy, FY, 13);
        if (-u[i] + 2 * uy < 0)
            seg(&p, 0, FY, 17);
        seg(&p, next, FY, 31);
    }
    return p;
}

static void epp_loops_enclose_4Fy_u_minus_uy(void **state)
{
    (void)state;
    const double u[] = {0.5, 1.0, 1.0, 1.7, 1.2, 1.2, 2.5};   /* two trailing cycles after 1.7, as in CUREE */
    const int m = (int)(sizeof u / sizeof u[0]);
    const double uy = FY / KE;
    path p = epp(u, m);
    hy_loops L;
    hy_err err;
    assert_int_equal(hy_loops_analyze(p.q, p.Q, p.n, NULL, &L, &err), HY_OK);
    /* reversals +u1, -u1, ..., +u_m, -u_m; the final +u_m is the end of the record */
    assert_int_equal(L.n_rev, 2 * m);
    for (int j = 0; j < 2 * m; j++)
        assert_true(fabs(p.q[L.rev[j].i] - (j % 2 ? -u[j / 2] : u[j / 2])) <= 1e-12);
    /* cycle c runs 0 -> +u_c -> -u_c -> 0: from the start (at rest at q = 0), then from each upward crossing of
     * 0 (at Q = +Fy on the plastic plateau) to the next; the last one is on the final reload to +u_m. */
    assert_int_equal(L.n_cyc, m);
    for (int c = 0; c < m; c++) {
        const hy_cycle *y = &L.cyc[c];
        assert_true(p.q[y->i0] == 0 && p.q[y->i1] == 0);
        /* the first cycle loads from rest along the elastic line (0,0)-(uy,Fy) instead of reloading from
         * (-u+2uy, -Fy): it encloses the triangle (0,0) (0,Fy) (uy,Fy) less */
        double e = 4 * FY * (u[c] - uy) - (c == 0 ? 0.5 * FY * uy : 0);
        assert_true(REL(y->energy, e) <= 1e-12);
        assert_true(y->energy >= 0);
        double top = u[c];
        assert_true(fabs(y->amp_pos - top) <= 1e-12);
        assert_true(fabs(y->amp_neg - u[c]) <= 1e-12);
        assert_true(fabs(y->Q_max - FY) <= 1e-12 && fabs(y->Q_min + FY) <= 1e-12);
        assert_true(REL(y->k_sec, 2 * FY / (top + u[c])) <= 1e-12);
        double es = 0.25 * (FY * top + FY * u[c]);
        assert_true(REL(y->e_strain, es) <= 1e-12);
        assert_true(REL(y->xi_eq, e / (4 * M_PI * es)) <= 1e-12);
    }
    /* open path: plastic work Fy x plastic travel, plus the elastic energy Fy^2 / 2k stored at the end */
    double travel = u[0] - uy;
    for (int i = 0; i < m; i++)
        travel += (2 * u[i] - 2 * uy) + (u[i] + (i + 1 < m ? u[i + 1] : u[m - 1]) - 2 * uy);
    assert_true(REL(L.total_energy, FY * travel + FY * FY / (2 * KE)) <= 1e-12);
    hy_loops_free(&L);
    free(p.q);
    free(p.Q);
}

static void every_clockwise_cycle_dissipates(void **state)
{
    (void)state;
    /* a noisy-free EPP record with many amplitudes: every cycle >= 0 and cumulative energy non-decreasing */
    double u[40];
    for (int i = 0; i < 40; i++)
        u[i] = 0.3 + 0.1 * (i % 7) + 0.05 * i;
    path p = epp(u, 40);
    hy_loops L;
    assert_int_equal(hy_loops_analyze(p.q, p.Q, p.n, NULL, &L, NULL), HY_OK);
    /* the amplitudes rise by 0.15 for six cycles, then drop by 0.55: each cycle after a drop is smaller than
     * both neighbours, so the four-point rule makes it an inner loop of the next cycle (docs/loops.md); every
     * one of the 40 loops is either a cycle or an inner loop inside one */
    assert_int_equal(L.n_cyc + L.n_inner, 40);
    size_t in_cycles = 0;
    for (size_t c = 0; c < L.n_cyc; c++) {
        assert_true(L.cyc[c].energy >= 0);
        in_cycles += L.cyc[c].n_inner;
        if (c > 0)
            assert_true(L.cyc[c].cum_energy >= L.cyc[c - 1].cum_energy);
    }
    assert_int_equal(in_cycles, L.n_inner);
    for (size_t j = 0; j < L.n_inner; j++)
        assert_true(L.inner[j].energy >= 0);
    hy_loops_free(&L);
    free(p.q);
    free(p.Q);
}

static void single_smaller_cycle_is_an_inner_loop(void **state)
{
    (void)state;
    /* 1.0, 1.7, then one cycle at 1.2 and 2.5: (+1.2, -1.2) lies inside (-1.7, +2.5), so the rainflow rule
     * closes it as an inner loop; it is counted inside the 2.5 cycle, whose energy is the sum of both loops */
    const double u[] = {1.0, 1.7, 1.2, 2.5};
    const double uy = FY / KE;
    path p = epp(u, 4);
    hy_loops L;
    assert_int_equal(hy_loops_analyze(p.q, p.Q, p.n, NULL, &L, NULL), HY_OK);
    assert_int_equal(L.n_rev, 8);
    assert_int_equal(L.n_major, 6);
    assert_int_equal(L.n_inner, 1);
    assert_true(fabs(p.q[L.inner[0].i0] - 1.2) <= 1e-12 && fabs(p.q[L.inner[0].i_turn] + 1.2) <= 1e-12);
    assert_true(REL(L.inner[0].energy, 4 * FY * (1.2 - uy)) <= 1e-12);
    assert_int_equal(L.n_cyc, 3);
    assert_true(REL(L.cyc[0].energy, 4 * FY * (1.0 - uy) - 0.5 * FY * uy) <= 1e-12);
    assert_true(REL(L.cyc[1].energy, 4 * FY * (1.7 - uy)) <= 1e-12);
    assert_true(REL(L.cyc[2].energy, 4 * FY * (1.2 - uy) + 4 * FY * (2.5 - uy)) <= 1e-12);
    assert_true(fabs(L.cyc[2].amp_pos - 2.5) <= 1e-12 && fabs(L.cyc[2].amp_neg - 2.5) <= 1e-12);
    assert_int_equal(L.cyc[2].n_inner, 1);
    assert_int_equal(L.inner[0].cycle, 2);
    hy_loops_free(&L);
    free(p.q);
    free(p.Q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ellipse_area_is_pi_A_c),
        cmocka_unit_test(counterclockwise_loop_has_negative_energy),
        cmocka_unit_test(halfcycles_partition_the_record),
        cmocka_unit_test(epp_loops_enclose_4Fy_u_minus_uy),
        cmocka_unit_test(every_clockwise_cycle_dissipates),
        cmocka_unit_test(single_smaller_cycle_is_an_inner_loop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

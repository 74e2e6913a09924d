/* The event location of the error-controlled docking steps (dock_locate.c; docs/dock.md §6b "Events") on event
 * functions in closed form of the step length x: the located step ends on the new side at most tol after the
 * crossing, the last trial is the located step's, and the number of trial steps (4 right-hand-side evaluations each
 * with RK4(3)) is bounded: by the bisection count when an end of the bracket holds the apart mark (DOCK_GAP_APART, a
 * feature switch: a pad point of RP-2's S3x-400-C-short 0.44 mm in the wall, its nearest feature switching between
 * the wall and the rim edge), by a few when the function is a distance (regula falsi kept). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include "dock/dock_sim_internal.h"

#define TOL 1e-7   /* s: DOCK_EVENT_TOL */

typedef struct ev {
    int    kind;     /* 0 mark -> depth (onset), 1 depth -> mark (separation), 2 linear, 3 two functions */
    double xs, xs2;  /* crossings */
    double *g1;
    int    trials;
    double last;
} ev;

static void values(const ev *e, double x, double *g)
{
    const double depth = 4.4e-4;   /* m: the pad point's depth in the wall (S3x-400-C-short at 270.0037 s) */
    switch (e->kind) {
    case 0: g[0] = x < e->xs ? DOCK_GAP_APART : depth; break;
    case 1: g[0] = x < e->xs ? depth : DOCK_GAP_APART; break;
    case 2: g[0] = 3.0 * (x - e->xs); break;   /* a distance: 3 m/s times the time past the crossing */
    default:
        g[0] = 3.0 * (x - e->xs);                    /* crosses later */
        g[1] = x < e->xs2 ? DOCK_GAP_APART : depth;  /* crosses first: followed once a trial shows it */
        break;
    }
}

static int trial(void *ctx, double x)
{
    ev *e = ctx;
    values(e, x, e->g1);
    e->trials++;
    e->last = x;
    return HY_OK;
}

// (event, first trial step h) => the located step; checks the side, the distance to the crossing and the last trial
static double run(ev *e, double h, int n)
{
    double g0[2], g1[2], glo[2];
    e->g1 = g1;
    values(e, 0.0, g0);
    values(e, h, g1);
    e->trials = 0;
    e->last = h;
    assert_true(dock_gap_changed(g0, g1, n) >= 0);
    assert_int_equal(dock_locate(n, TOL, g0, g1, glo, &h, trial, e), HY_OK);
    double xs = e->kind == 3 ? e->xs2 : e->xs;
    print_message("kind %d: located %.9g s, crossing %.9g s, %d trial steps\n", e->kind, h, xs, e->trials);
    assert_true(h >= xs && h - xs <= TOL);   /* on the new side, at most tol after the crossing */
    assert_true(e->last == h);                /* the trial left is the located step's */
    double g[2];
    values(e, h, g);
    assert_true(dock_gap_changed(g0, g, n) >= 0);
    return h;
}

/* the bisection count from h down to tol, and one trial at the bracket's upper end if the last one moved the lower */
static int bisections(double h) { return (int)ceil(log2(h / TOL)) + 1; }

static void apart_mark_onset(void **state)
{
    (void)state;
    /* the trace of one location before the rule: 36 trial steps (144 evaluations) for this bracket */
    ev e = {.kind = 0, .xs = 1.975e-5};
    run(&e, 2.951e-5, 1);
    assert_true(e.trials <= bisections(2.951e-5));
}

static void apart_mark_separation(void **state)
{
    (void)state;
    ev e = {.kind = 1, .xs = 1.403e-5};
    run(&e, 5.404e-5, 1);
    assert_true(e.trials <= bisections(5.404e-5));
}

static void distance_keeps_regula_falsi(void **state)
{
    (void)state;
    /* a linear distance: the first secant lands on the crossing (to round-off), a clamped trial closes the bracket;
       bisection alone would take 9 */
    ev e = {.kind = 2, .xs = 1.975e-5};
    run(&e, 2.951e-5, 1);
    assert_true(e.trials <= 3);
}

static void earlier_crossing_followed(void **state)
{
    (void)state;
    /* the function that changed at h crosses at 2.5e-5 s; the apart-marked one at 1.1e-5 s shows in a trial: it is
       followed, and bisected */
    ev e = {.kind = 3, .xs = 2.5e-5, .xs2 = 1.1e-5};
    run(&e, 2.951e-5, 2);
    assert_true(e.trials <= bisections(2.951e-5) + 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(apart_mark_onset),
        cmocka_unit_test(apart_mark_separation),
        cmocka_unit_test(distance_keeps_regula_falsi),
        cmocka_unit_test(earlier_crossing_followed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

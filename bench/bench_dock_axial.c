/* Benchmark: the axial damper of the docking mechanism (spec 001 eq. 2.1; mech_dock_axial_*) in the pattern a
 * simulator uses it: per RK4 step four stage trials, revert, a trial at the accepted state and commit. The drive is
 * the nut equation alone under RP-1's S1 impact (a 19 t reduced mass at 0.15 m/s through a stiff contact, h = 1e-4 s,
 * 4 s: loading, the brakes slipping, rebound, rest), for variants A (friction-kind chain) and B (gear + FrT1/FrT2
 * series chain by return mapping). Prints ns per step and per trial (CPU time, best of REPS) and the number of
 * allocations in the timed loops, which must be 0 (bench_alloc.h's counter; not counted under ASan).
 * Optional arguments replace the RP-1 laws (A's chain, B's gear), e.g. tables fitted by `hyst fit pwl` from a
 * synthetic static test, to compare the stroke and the rebound (docs/dock-axial.md §5). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mech/dock.h"
#include "bench_util.h"
#include "bench_alloc.h"

#define REPS 5
#define H 1e-4
#define T_END 4.0

typedef struct drive {
    mech_dock_axial *a;
    double i, M, kc;
} drive;

static void rhs(const drive *d, const double *y, double *dy)
{
    double s = y[2] / d->i, pen = y[0] - s, f = pen > 0 ? d->kc * pen : 0;
    mech_dock_axial_out o;
    hy_err e;
    if (mech_dock_axial_trial(d->a, y[2], y[3], f, &o, &e)) {
        fprintf(stderr, "bench_dock_axial: %s\n", e.msg);
        dy[0] = dy[1] = dy[2] = dy[3] = 0;
        return;
    }
    dy[0] = y[1], dy[1] = -f / d->M, dy[2] = y[3], dy[3] = o.phidd;
}

/* one impact from rest; returns the max stroke and the mass's speed at the end (its rebound) */
static double run(drive *d, long *steps, double *v_end)
{
    double y[4] = {0, 0.15, 0, 0}, k[4][4], yt[4], s_max = 0;
    long n = lround(T_END / H);
    for (long j = 0; j < n; j++) {
        rhs(d, y, k[0]);
        for (int c = 0; c < 4; c++) yt[c] = y[c] + 0.5 * H * k[0][c];
        rhs(d, yt, k[1]);
        for (int c = 0; c < 4; c++) yt[c] = y[c] + 0.5 * H * k[1][c];
        rhs(d, yt, k[2]);
        for (int c = 0; c < 4; c++) yt[c] = y[c] + H * k[2][c];
        rhs(d, yt, k[3]);
        mech_dock_axial_revert(d->a);
        for (int c = 0; c < 4; c++) y[c] += H / 6 * (k[0][c] + 2 * k[1][c] + 2 * k[2][c] + k[3][c]);
        rhs(d, y, k[0]);
        mech_dock_axial_commit(d->a);
        s_max = fmax(s_max, y[2] / d->i);
    }
    *steps = n;
    *v_end = y[1];
    return s_max;
}

int main(int argc, char **argv)
{
    int fail = 0;
    for (int variant = 0; variant < 2; variant++) {
        const char *file = variant ? "fixtures/mech/dock/models/gear-B.json" : "fixtures/mech/dock/models/axial-A.json";
        if (argc > 1 + variant)
            file = argv[1 + variant];
        hy_model law;
        hy_err e;
        if (hy_model_read(file, &law, &e)) {
            fprintf(stderr, "bench_dock_axial: %s\n", e.msg);
            return 1;
        }
        mech_dock_axial_params p;
        mech_dock_axial_params_rp1(&p, variant);
        if (variant)
            p.gear.model = &law;
        else
            p.chain.model = &law;
        double best = 1e30, s_max = 0, v_end = 0;
        long steps = 0, allocs = 0;
        for (int r = 0; r < REPS; r++) {
            drive d = {NULL, 0, 0.95 * 20000, 1e7};
            if (mech_dock_axial_new(&p, &d.a, &e)) {
                fprintf(stderr, "bench_dock_axial: %s\n", e.msg);
                return 1;
            }
            d.i = mech_dock_axial_ratio(d.a);
            long a0 = n_alloc;
            double t0 = cpu_now();
            s_max = run(&d, &steps, &v_end);
            double dt = cpu_now() - t0;
            allocs += n_alloc - a0;
            best = fmin(best, dt);
            mech_dock_axial_free(d.a);
        }
        printf("axial %c: S1 impact, h = %g s, %ld steps (5 trials each): %.1f ns per step, %.1f ns per trial; "
               "stroke %.4f m, rebound %.4f m/s (%s); allocations in the loop: %ld%s\n", variant ? 'B' : 'A', H, steps,
               1e9 * best / steps, 1e9 * best / (5.0 * steps), s_max, -v_end, file, allocs,
               COUNT_ALLOC ? "" : " (not counted under ASan)");
        if (allocs)
            fail = 1;
        hy_model_free(&law);
    }
    return fail;
}

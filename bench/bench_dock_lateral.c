/* Benchmark: the lateral damper of the docking mechanism (spec 001 eqs. 2.3-2.4; mech_dock_lateral_*) in the
 * pattern a simulator uses it: per RK4 step four stage trials, revert, a trial at the accepted state and commit.
 * The drive is the housing with the probe (10 kg m^2 about the UJ, plus the chains' dI) swinging about a fixed axis
 * at 45 deg between the chain planes under a moment 4000 sin(pi t) N m (both ways into the Belleville stage, brakes
 * damping, spring hysteresis loops), h = 1e-4 s, 2 s, for variants A and B. Prints ns per step and per trial (CPU
 * time, best of REPS; a trial here includes the drive's own attitude matrix), the peak swing, and the number of
 * allocations in the timed loops, which must be 0 (bench_alloc.h's counter; not counted under ASan). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mech/dock.h"
#include "bench_util.h"
#include "bench_alloc.h"

#define REPS 5
#define H 1e-4
#define T_END 2.0
#define I_SWING 10.0

static mech_vec3 axis;

static mech_mat3 attitude(double g)
{
    /* passive matrix of a turn g about the unit axis (Rodrigues, transposed) */
    mech_mat3 R = mech_mat3_scale(mech_mat3_identity(), cos(g));
    R = mech_mat3_add(R, mech_mat3_scale(mech_mat3_outer(axis, axis), 1.0 - cos(g)));
    R = mech_mat3_add(R, mech_mat3_scale(mech_mat3_skew(axis), sin(g)));
    return mech_mat3_transpose(R);
}

static int rhs(mech_dock_lateral *l, double t, const double *y, double *dy)
{
    mech_mat3 a = attitude(y[0]);
    mech_dock_lateral_out o;
    hy_err e;
    if (mech_dock_lateral_trial(l, &a, mech_vec3_scale(axis, y[1]), &o, &e)) {
        fprintf(stderr, "bench_dock_lateral: %s\n", e.msg);
        return 1;
    }
    double J = I_SWING + mech_vec3_dot(axis, mech_mat3_apply(o.dI, axis));
    dy[0] = y[1];
    dy[1] = (4000.0 * sin(M_PI * t) + mech_vec3_dot(axis, mech_vec3_add(o.moment, o.dm_bias))) / J;
    return 0;
}

static int run(mech_dock_lateral *l, long *steps, double *g_max)
{
    double y[2] = {0, 0}, k[4][2], yt[2];
    long n = lround(T_END / H);
    *g_max = 0;
    for (long j = 0; j < n; j++) {
        double t = j * H;
        if (rhs(l, t, y, k[0]))
            return 1;
        for (int c = 0; c < 2; c++) yt[c] = y[c] + 0.5 * H * k[0][c];
        if (rhs(l, t + 0.5 * H, yt, k[1]))
            return 1;
        for (int c = 0; c < 2; c++) yt[c] = y[c] + 0.5 * H * k[1][c];
        if (rhs(l, t + 0.5 * H, yt, k[2]))
            return 1;
        for (int c = 0; c < 2; c++) yt[c] = y[c] + H * k[2][c];
        if (rhs(l, t + H, yt, k[3]))
            return 1;
        mech_dock_lateral_revert(l);
        for (int c = 0; c < 2; c++) y[c] += H / 6 * (k[0][c] + 2 * k[1][c] + 2 * k[2][c] + k[3][c]);
        if (rhs(l, t + H, y, k[0]))
            return 1;
        mech_dock_lateral_commit(l);
        *g_max = fmax(*g_max, fabs(y[0]));
    }
    *steps = n;
    return 0;
}

int main(void)
{
    int fail = 0;
    hy_model law;
    hy_err e;
    if (hy_model_read("fixtures/mech/dock/models/lateral-spring.json", &law, &e)) {
        fprintf(stderr, "bench_dock_lateral: %s\n", e.msg);
        return 1;
    }
    axis = mech_vec3_make(0.0, M_SQRT1_2, M_SQRT1_2);
    for (int variant = 0; variant < 2; variant++) {
        mech_dock_lateral_params p;
        mech_dock_lateral_params_rp1(&p, variant);
        p.spring.model = &law;
        double best = 1e30, g_max = 0;
        long steps = 0, allocs = 0;
        for (int r = 0; r < REPS; r++) {
            mech_dock_lateral *l;
            if (mech_dock_lateral_new(&p, &l, &e)) {
                fprintf(stderr, "bench_dock_lateral: %s\n", e.msg);
                hy_model_free(&law);
                return 1;
            }
            long a0 = n_alloc;
            double t0 = cpu_now();
            int rc = run(l, &steps, &g_max);
            double t = cpu_now() - t0;
            allocs += n_alloc - a0;
            mech_dock_lateral_free(l);
            if (rc) {
                hy_model_free(&law);
                return 1;
            }
            best = fmin(best, t);
        }
        printf("lateral damper %c: %ld RK4 steps (h = %g s, 45 deg swing under 4000 sin(pi t) N m, peak %.2f deg): %.0f ns "
               "per step, %.0f ns per trial; allocations in the loops: %ld%s\n", "AB"[variant], steps, H,
               g_max * 180 / M_PI, 1e9 * best / steps, 1e9 * best / (5.0 * steps), allocs,
               COUNT_ALLOC ? "" : " (not counted under ASan)");
        if (allocs != 0)
            fail = 1;
    }
    hy_model_free(&law);
    return fail;
}

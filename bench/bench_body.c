/* Benchmark: the articulated-body algorithm of the floating-base 5-body chain of spec 001 §1.6 (RP-1 numbers,
 * tests/unit/test_body_util.h), one evaluation = the three passes of spec 001 §2.4 (pass 1 in body frames,
 * mech_body_pass1, then mech_body_aba) over 1024 different states; the world poses of every body that contacts
 * need (mech_body_world, the other half of mech_body_kinematics); and the full right-hand side of the integrator (state unpacking, kinematics, loads,
 * ABA, one free passive spacecraft, state derivative) without contacts. Issue 10 target: ABA <= 0.5 us on one
 * core (CPU time of the process, so that other load on the machine does not count), no allocation: counted with the malloc interposer of bench_pwl.c (skipped under AddressSanitizer). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "../tests/unit/test_body_util.h"
#include "body/body_internal.h"
#include "bench_util.h"


#define NSTATE 1024
#define ITERS 2000000
#define REPS 7
#define TARGET_NS 500.0

#include "bench_alloc.h"

int main(void)
{
    mech_body_def def;
    mech_body_joint_def J[5];
    tb_spec_chain(&def, J, MECH_BODY_FLOATING);
    mech_body_free_def iss = {"passive", 420000.0, {{{1.3e8, 0, 0}, {0, 1.0e8, 0}, {0, 0, 2.0e8}}}};
    def.free = &iss;
    def.nfree = 1;
    def.hook_body = 2;
    mech_body_model *m = NULL;
    mech_body_data *d = NULL;
    mech_body_sim *sim = NULL;
    hy_err err;
    mech_body_sim_opts o = {1e-3, NULL, NULL, NULL, NULL, 0};
    if (mech_body_model_new(&def, &m, &err) != HY_OK || mech_body_data_new(m, &d, &err) != HY_OK ||
        mech_body_sim_new(m, &o, &sim, &err) != HY_OK) {
        fprintf(stderr, "bench_body: %s\n", err.msg);
        return 1;
    }
    mech_body_layout L = mech_body_model_layout(m);
    double *states = malloc(NSTATE * L.dim * sizeof *states), *dy = malloc(L.dim * sizeof *dy);
    if (!states || !dy)
        return 1;
    hy_rng r;
    hy_rng_seed(&r, 20261123u, 9);
    for (int k = 0; k < NSTATE; k++) {
        tb_random_state(&r, m, d);
        for (int j = 0; j < 5; j++)
            d->q[j] *= 0.1;
        mech_body_get_state(m, d, states + (size_t)k * L.dim);
    }
    const mech_ode_system *sys = mech_body_sim_system(sim);
    double sink = 0, best_aba = 1e30, best_rhs = 1e30, best_world = 1e30;
    long allocs = 0;
    for (int rep = 0; rep < REPS; rep++) {
        /* states unpacked outside the timed loop for the ABA figure: one evaluation = kinematics + aba */
#if COUNT_ALLOC
        long a0 = n_alloc;
#endif
        double t0 = cpu_now();
        for (long i = 0; i < ITERS; i++) {
            int k = (int)(i & (NSTATE - 1));
            d->q[0] = states[(size_t)k * L.dim + L.q]; /* a new configuration every call */
            d->qd[1] = states[(size_t)k * L.dim + L.qd + 1];
            mech_body_pass1(m, d);
            mech_body_aba(m, d);
            sink += d->qdd[4];
        }
        double dt = cpu_now() - t0;
        if (dt < best_aba)
            best_aba = dt;
        t0 = cpu_now();
        for (long i = 0; i < ITERS / 2; i++) {
            int k = (int)(i & (NSTATE - 1));
            d->q[0] = states[(size_t)k * L.dim + L.q];
            mech_body_world(m, d);
            sink += d->xmat[5].m[0][1];
        }
        dt = cpu_now() - t0;
        if (dt < best_world)
            best_world = dt;
        t0 = cpu_now();
        for (long i = 0; i < ITERS / 2; i++) {
            int k = (int)(i & (NSTATE - 1));
            sys->function(0.0, states + (size_t)k * L.dim, dy, sys->params);
            sink += dy[L.qd + 4];
        }
        dt = cpu_now() - t0;
        if (dt < best_rhs)
            best_rhs = dt;
#if COUNT_ALLOC
        allocs += n_alloc - a0;
#endif
    }
    double ns_aba = 1e9 * best_aba / ITERS, ns_rhs = 1e9 * best_rhs / (ITERS / 2);
    double ns_world = 1e9 * best_world / (ITERS / 2);
    printf("%-52s %10s %-8s %s\n", "name", "value", "unit", "target");
    printf("%-52s %10.1f %-8s <= %.0f%s\n", "ABA, floating-base 5-body chain (passes 1-3)", ns_aba, "ns",
           TARGET_NS, ns_aba <= TARGET_NS ? "" : "  MISSED");
    printf("%-52s %10.1f %-8s\n", "  world poses and velocities of the 7 bodies", ns_world, "ns");
    printf("%-52s %10.1f %-8s\n", "full RHS, chain + 1 free body, no contacts", ns_rhs, "ns");
    if (COUNT_ALLOC)
        printf("%-52s %10ld %-8s 0\n", "  allocations in the timed loops", allocs, "calls");
    else
        printf("allocation count skipped (AddressSanitizer owns malloc)\n");
    mech_body_sim_free(sim);
    mech_body_data_free(d);
    mech_body_model_free(m);
    free(states);
    free(dy);
    return (allocs != 0 || !isfinite(sink)) ? 1 : 0;
}

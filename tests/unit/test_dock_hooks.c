/* The structural hooks (mech/dock_hooks.h, docs/dock-process.md §9) against closed forms, on a passive plate that
 * moves along the docking axis (mass m, the planes' contact stiffness K_p below zero gap, a dashpot c_p, a
 * resisting load F_r), integrated with the module's trial / commit at a step of 1e-4 s:
 *   - pull-in under a resisting load: flush contact at t = (capture_range + s) / speed, s the steady stretch
 *     ((F_r + c_p speed) / n + c speed) / k; the lock at (capture_range - a_end) / speed;
 *   - static preload deflection: the locked joint holds the planes at g = -n P / (n k + K_p);
 *   - the stiffness of the closed joint: a static separating load F moves the planes by F / (n k + K_p), and past
 *     n P (the joint open) to g = a_end + F / (n k);
 *   - the hook drive's work = the elastic energies + the dissipation + the kinetic energy (the energy budget);
 *   - a load beyond the drive's pull limit stalls the jaws (no lock, the links then hold the load); a hook out of
 *     range misses;
 *   - engagement: a link within the capture range and its catch within roll_tol r across the plane;
 *   - the closed joint in torsion and shear: -n k_s r^2 sin(th) about the axis, -n k_s d across;
 *   - trial never changes the committed state; bad parameters name their key. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mech/dock_hooks.h"

static const mech_vec3 Z = {0, 0, 0};
/* the passive plane in the docked pose (its normal -x, facing the active plane), and turned by th about the axis */
static mech_mat3 docked(void) { return mech_mat3_diag(-1, 1, -1); }
static mech_mat3 rolled(double th) { return mech_mat3_mul(mech_mat3_rot(0, th), docked()); }

#define DT 1e-4

typedef struct plate {
    double g, v;      /* gap on the axis, its rate                                                          */
    double m, Kp, cp, Fr, Fext;
    double diss, e_kin, e_plane;   /* dashpot + hook damping dissipation, J; energies now                 */
} plate;

/* one step: the hooks' trial at the step's end with the present state, symplectic Euler, commit */
static void step(mech_dock_hooks *h, plate *pl, mech_dock_hooks_out *o)
{
    mech_dock_hooks_trial(h, DT, mech_vec3_make(pl->g, 0, 0), docked(), mech_vec3_make(pl->v, 0, 0), Z, o);
    double pen = fmax(0.0, -pl->g);
    double f = o->force.x + pl->Kp * pen - pl->cp * pl->v + pl->Fr + pl->Fext;
    double hd = 0;   /* hook damping force on the plate's rate */
    for (int j = 0; j < h->p.n; j++)
        hd += o->T[j] - h->trial.ts[j];
    pl->diss += (pl->cp * pl->v * pl->v + hd * pl->v) * DT;
    pl->v += f / pl->m * DT;
    pl->g += pl->v * DT;
    mech_dock_hooks_commit(h);
    pen = fmax(0.0, -pl->g);
    pl->e_plane = 0.5 * pl->Kp * pen * pen;
    pl->e_kin = 0.5 * pl->m * pl->v * pl->v;
}

/* the hook drive started with the plate at gap g0 (the start takes an evaluated geometry) */
static void start(mech_dock_hooks *h, const mech_dock_hooks_params *p, double g0)
{
    hy_err e;
    assert_int_equal(mech_dock_hooks_init(h, p, &e), HY_OK);
    mech_dock_hooks_out o;
    mech_dock_hooks_trial(h, 0, mech_vec3_make(g0, 0, 0), docked(), Z, Z, &o);
    assert_int_equal(mech_dock_hooks_start(h, &o), p->n);
}

/* pull-in against F_r, flush contact and lock times */
static void pull_in_time(void **state)
{
    (void)state;
    mech_dock_hooks_params p;
    mech_dock_hooks_params_rp1(&p);
    static mech_dock_hooks h;
    start(&h, &p, 4e-3);
    plate pl = {.g = 4e-3, .m = 1000, .Kp = 8e7, .cp = 1e4, .Fr = 1e4};
    double n = p.n, k = p.stiffness;
    double str = ((pl.Fr + pl.cp * p.speed) / n + p.damping * p.speed) / k;
    double t_c = (p.capture_range + str) / p.speed, t_lock = (p.capture_range + p.preload / k) / p.speed;
    double t = 0, t_contact = NAN, t_locked = NAN;
    mech_dock_hooks_out o;
    while (t < 15 && isnan(t_locked)) {
        double g0 = pl.g;
        step(&h, &pl, &o);
        t += DT;
        if (isnan(t_contact) && g0 > 0 && pl.g <= 0)
            t_contact = t - DT + DT * g0 / (g0 - pl.g);
        if (mech_dock_hooks_n_locked(&h) == p.n)
            t_locked = t;
    }
    printf("pull-in: flush at %.6f s (closed form %.6f s), locked at %.6f s (closed form %.6f s)\n", t_contact, t_c,
           t_locked, t_lock);
    /* the steady lag is exact; the start transient (0.05 s time constant) has decayed by e^-100 at contact:
       the crossing is located to the step's O(DT^2 v') and the symplectic step lags by DT */
    assert_true(fabs(t_contact - t_c) < 2 * DT);
    assert_true(fabs(t_locked - t_lock) <= 1.5 * DT);
    assert_int_equal(mech_dock_hooks_n_missed(&h), 0);
}

/* static preload deflection, the closed joint's axial stiffness, the joint opening past n P, the energy budget */
static void preload_and_stiffness(void **state)
{
    (void)state;
    mech_dock_hooks_params p;
    mech_dock_hooks_params_rp1(&p);
    static mech_dock_hooks h;
    start(&h, &p, 3e-3);
    /* a dashpot near critical for the locked joint (n k + K_p on m) so that it settles in ~0.1 s */
    plate pl = {.g = 3e-3, .m = 1000, .Kp = 8e7};
    double n = p.n, k = p.stiffness, P = p.preload, K = n * k + pl.Kp;
    pl.cp = 2 * 0.7 * sqrt(K * pl.m);
    mech_dock_hooks_out o;
    for (double t = 0; t < 13; t += DT)
        step(&h, &pl, &o);
    assert_int_equal(mech_dock_hooks_n_locked(&h), p.n);
    assert_true(mech_dock_hooks_closed(&h));
    double g_pre = -n * P / K, C = pl.Kp * n * P / K;
    printf("preload: g %.9e m (closed form %.9e), contact force %.6f N (%.6f), link tension %.6f N\n", pl.g, g_pre,
           pl.Kp * -pl.g, C, o.T[0]);
    assert_true(fabs(pl.g - g_pre) < 1e-9 * fabs(g_pre) + 1e-12);
    assert_true(fabs(mech_dock_hooks_tension_min(&h) - C / n) < 1e-6 * C);
    /* energy: the drive's work = hooks' + planes' elastic energy + dissipation + kinetic (symplectic Euler: O(DT)
       of the 1.2 kJ, the integration's own error) */
    double W = h.committed.work, E = o.energy + pl.e_plane + pl.diss + pl.e_kin;
    printf("energy: drive work %.6f J, stored + dissipated %.6f J\n", W, E);
    assert_true(W > 0 && fabs(W - E) < 2e-3 * W);

    /* a static separating load below n P: the displacement the link and collar stiffness predict */
    for (int i = 0; i < 2; i++) {
        double F = i == 0 ? 2e4 : 6e4;
        pl.Fext = F;
        for (double t = 0; t < 1; t += DT)
            step(&h, &pl, &o);
        printf("load %.0f N: moved %.9e m (closed form %.9e)\n", F, pl.g - g_pre, F / K);
        assert_true(fabs((pl.g - g_pre) - F / K) < 1e-9 * F / K);
    }
    /* past n P the planes part: only the links hold, g = a_end + F / (n k) */
    pl.Fext = 1.2e5;
    for (double t = 0; t < 1; t += DT)
        step(&h, &pl, &o);
    double g_open = -P / k + pl.Fext / (n * k);
    printf("load %.0f N: g %.9e m (closed form %.9e)\n", pl.Fext, pl.g, g_open);
    assert_true(pl.g > 0 && fabs(pl.g - g_open) < 1e-9 * g_open);
    assert_int_equal(mech_dock_hooks_n_locked(&h), p.n);   /* a lock does not let go */
}

/* a load beyond n force_max: the jaws stall at the pull limit and never lock; the self-locking drive does not give
   way, so the links stretch on to hold the load (k (g - a) = F_r / n) with the planes apart */
static void stall(void **state)
{
    (void)state;
    mech_dock_hooks_params p;
    mech_dock_hooks_params_rp1(&p);
    static mech_dock_hooks h;
    start(&h, &p, 4e-3);
    plate pl = {.g = 4e-3, .m = 1000, .Kp = 8e7, .cp = 2e5, .Fr = 1.1 * p.n * p.force_max};
    mech_dock_hooks_out o;
    double a_stall = NAN;
    for (double t = 0; t < 30; t += DT) {
        step(&h, &pl, &o);
        if (isnan(a_stall) && h.committed.ts[0] >= p.force_max * (1 - 1e-12))
            a_stall = h.committed.a[0];
    }
    assert_int_equal(mech_dock_hooks_n_locked(&h), 0);
    assert_false(mech_dock_hooks_closed(&h));
    printf("stall: jaw stalled at %.9e m, now %.9e m; tension %.6f N (F_r / n = %.6f N); gap %.9e m\n", a_stall,
           h.committed.a[0], h.committed.ts[0], pl.Fr / p.n, pl.g);
    assert_true(isfinite(a_stall) && a_stall > h.a_end);
    for (int j = 0; j < p.n; j++) {
        assert_true(h.committed.a[j] >= a_stall - 1e-12);   /* never closer than where it stalled */
        assert_true(fabs(h.committed.ts[j] - pl.Fr / p.n) < 1e-6 * pl.Fr / p.n);
    }
    assert_true(pl.g > 0);
}

/* a link beyond the capture range when the drive starts misses; trial leaves the committed state alone */
static void miss_and_trial(void **state)
{
    (void)state;
    mech_dock_hooks_params p;
    mech_dock_hooks_params_rp1(&p);
    static mech_dock_hooks h;
    hy_err e;
    assert_int_equal(mech_dock_hooks_init(&h, &p, &e), HY_OK);
    mech_dock_hooks_out at;
    mech_dock_hooks_trial(&h, 0, Z, docked(), Z, Z, &at);
    double g[MECH_DOCK_HOOK_MAX] = {1e-3, 2e-3, 6e-3, 4e-3, NAN, 5e-3, 0, -1e-3};
    for (int j = 0; j < p.n; j++)
        at.g[j] = g[j];
    assert_int_equal(mech_dock_hooks_start(&h, &at), 6);
    assert_int_equal(mech_dock_hooks_n_missed(&h), 2);
    assert_int_equal(h.committed.st[2], MECH_DOCK_HOOK_MISSED);
    assert_int_equal(h.committed.st[4], MECH_DOCK_HOOK_MISSED);
    mech_dock_hooks_state c = h.committed;
    mech_dock_hooks_out o;
    mech_dock_hooks_trial(&h, 3.0, mech_vec3_make(4e-3, 0, 0), docked(), Z, Z, &o);
    mech_dock_hooks_trial(&h, 7.0, mech_vec3_make(1e-3, 0, 0), docked(), Z, Z, &o);
    assert_memory_equal(&c, &h.committed, sizeof c);
    /* at 7 s the jaws are at 5 - 7 = -2 mm: the engaged links hold k (1 + 2) mm, the missed none */
    assert_true(fabs(o.T[0] - 3e-3 * p.stiffness) < 1e-6);
    assert_true(o.T[2] == 0 && o.T[4] == 0);
    assert_int_equal(o.n_taut, 6);
    mech_dock_hooks_revert(&h);
    assert_memory_equal(&c, &h.trial, sizeof c);
    /* a plane turned away (not facing): no force */
    mech_dock_hooks_trial(&h, 1.0, Z, mech_mat3_identity(), Z, Z, &o);
    assert_int_equal(o.n_taut, 0);
    assert_true(o.force.x == 0);
}

/* engagement across the plane: the catches lie r sin(roll)-ish from the jaws; within roll_tol r they engage, beyond
   they all miss; a lateral offset of the passive plane counts the same way */
static void roll_engagement(void **state)
{
    (void)state;
    mech_dock_hooks_params p;
    mech_dock_hooks_params_rp1(&p);
    static mech_dock_hooks h;
    hy_err e;
    mech_dock_hooks_out o;
    const double in = 0.9 * p.roll_tol, out = 1.1 * p.roll_tol;
    assert_int_equal(mech_dock_hooks_init(&h, &p, &e), HY_OK);
    mech_dock_hooks_trial(&h, 0, mech_vec3_make(2e-3, 0, 0), rolled(in), Z, Z, &o);
    mech_dock_hooks_catches(&h, &o);
    /* the catch moved along the chord 2 r sin(th / 2) */
    assert_true(fabs(o.miss[0] - 2 * p.radius * sin(in / 2)) < 1e-12);
    assert_int_equal(mech_dock_hooks_start(&h, &o), p.n);
    assert_int_equal(mech_dock_hooks_init(&h, &p, &e), HY_OK);
    mech_dock_hooks_trial(&h, 0, mech_vec3_make(2e-3, 0, 0), rolled(out), Z, Z, &o);
    assert_int_equal(mech_dock_hooks_start(&h, &o), 0);
    assert_int_equal(mech_dock_hooks_n_missed(&h), p.n);
    assert_int_equal(mech_dock_hooks_init(&h, &p, &e), HY_OK);
    mech_dock_hooks_trial(&h, 0, mech_vec3_make(2e-3, 1.1 * p.roll_tol * p.radius, 0), docked(), Z, Z, &o);
    assert_int_equal(mech_dock_hooks_start(&h, &o), 0);
}

/* the closed joint in shear and torsion: engaged in the docked pose, the passive plane turned by th about the
   docking axis takes the moment -n k_s r^2 sin(th) about it and no net force (exactly, the catches on their
   circle); moved across by d it takes -n k_s d; a static torque M therefore turns the joint by asin(M / (n k_s r^2)) */
static void shear_and_torsion(void **state)
{
    (void)state;
    mech_dock_hooks_params p;
    mech_dock_hooks_params_rp1(&p);
    static mech_dock_hooks h;
    start(&h, &p, 0.0);
    mech_dock_hooks_out o;
    double kr = p.n * p.shear_stiffness * p.radius * p.radius;
    for (double th = -0.02; th <= 0.02; th += 0.005) {
        mech_dock_hooks_trial(&h, 0, Z, rolled(th), Z, Z, &o);
        assert_true(fabs(o.moment.x + kr * sin(th)) <= 1e-9 * kr * fabs(sin(th)) + 1e-9);
        assert_true(mech_vec3_norm(o.force) < 1e-6);
    }
    double M = 1e5, th = asin(M / kr);
    mech_dock_hooks_trial(&h, 0, Z, rolled(th), Z, Z, &o);
    printf("torsion: %.0f N m turns the joint by %.6g deg (n k_s r^2 = %.4g N m/rad); moment %.6f N m\n", M,
           th * 180 / M_PI, kr, -o.moment.x);
    assert_true(fabs(-o.moment.x - M) < 1e-6 * M);
    /* the energy of the shear springs: n k_s / 2 |u|^2 with |u| the chord */
    double chord = 2 * p.radius * sin(th / 2);
    assert_true(fabs(o.energy - 0.5 * p.n * p.shear_stiffness * chord * chord) < 1e-9 * o.energy + 1e-12);
    for (double d = -3e-3; d <= 3e-3; d += 1e-3) {
        mech_dock_hooks_trial(&h, 0, mech_vec3_make(0, d, 0), docked(), Z, Z, &o);
        assert_true(fabs(o.force.y + p.n * p.shear_stiffness * d) < 1e-6);
        assert_true(fabs(o.force.x) < 1e-6 && fabs(o.force.z) < 1e-6);
    }
    /* a sliding velocity across the plane is damped: -n c_s v */
    mech_dock_hooks_trial(&h, 0, Z, docked(), mech_vec3_make(0, 0, 1e-3), Z, &o);
    assert_true(fabs(o.force.z + p.n * p.shear_damping * 1e-3) < 1e-9);
}

static void bad_params(void **state)
{
    (void)state;
    struct { const char *key; void (*set)(mech_dock_hooks_params *); } k[] = {
        {"hooks.n", NULL}, {"hooks.stiffness", NULL}, {"hooks.force_max", NULL}, {"hooks.preload_min", NULL},
        {"hooks.capture_range", NULL}, {"hooks.psi0", NULL}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        mech_dock_hooks_params p;
        mech_dock_hooks_params_rp1(&p);
        switch (i) {
        case 0: p.n = 9; break;
        case 1: p.stiffness = 0; break;
        case 2: p.force_max = p.preload; break;
        case 3: p.preload_min = 2 * p.preload; break;
        case 4: p.capture_range = NAN; break;
        default: p.psi0 = INFINITY; break;
        }
        static mech_dock_hooks h;
        hy_err e;
        assert_int_equal(mech_dock_hooks_init(&h, &p, &e), HY_EMODEL);
        printf("%s\n", e.msg);
        assert_non_null(strstr(e.msg, k[i].key));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pull_in_time), cmocka_unit_test(preload_and_stiffness), cmocka_unit_test(stall),
        cmocka_unit_test(miss_and_trial), cmocka_unit_test(roll_engagement), cmocka_unit_test(shear_and_torsion),
        cmocka_unit_test(bad_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

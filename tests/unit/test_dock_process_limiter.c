/* Variant C's movable limiter on its guides (mech/dock_process.h, docs/dock-process.md §6): the guide friction
 * through the variant-constraint solver against `mech friction`'s own bushing (the same guide alone: its config
 * parsed from JSON, simulated by friction_sim.c) on a sliding window, reactions at t = 0 identical; a stuck
 * limiter holds the net axial load within the cone; the forward stop holds the spring preload; the tree's coupled
 * form equals the standalone limiter; springs and stops conservative with an outward-only damper; bad parameters
 * (a limiter that cannot reach its forward position) refused with the key. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mech/dock_process.h"
#include "mech/friction.h"
#include <lapacke.h>

/* the guide alone, as a mech-friction file: the constant 300 N spring folded into the axial force, its moment arm
 * e_y moved into the moment (the limiter's springs act on the axis, the rim load at the pad radius) */
static const char *guide_json =
    "{\"format\": \"mech-friction\", \"name\": \"limiter guide alone\","
    " \"mechanism\": {\"kind\": \"bushing\", \"mass\": 3, \"radius\": 0.008, \"pairs_at\": [-0.10, 0.10]},"
    " \"contacts\": [{\"mu\": 0.15}, {\"mu\": 0.15}],"
    " \"loads\": {\"axial_force\": 500, \"lateral_force\": -400, \"lateral_offset\": 0.06,"
    "             \"axial_offset\": 0.28, \"moment\": -84},"
    " \"initial\": {\"q\": [0.05], \"qd\": [0.1]},"
    " \"run\": {\"duration\": 0.02, \"step\": 1e-4, \"sample\": 0.001}}";

static void new_limiter(mech_dock_limiter *l, double f_end)
{
    mech_dock_limiter_params p;
    mech_dock_limiter_params_rp1(&p);
    p.f_end = f_end;
    hy_err e;
    assert_int_equal(mech_dock_limiter_new(&p, l, &e), HY_OK);
}

static void near_rel(double a, double b, double tol)
{
    if (!(fabs(a - b) <= tol * fmax(1.0, fabs(b)))) fail_msg("%.17g != %.17g (rel %g)", a, b, tol);
}

static void against_mech_friction(void **state)
{
    (void)state;
    hy_err e;
    mech_friction_config cfg;
    assert_int_equal(mech_friction_config_parse(guide_json, strlen(guide_json), "guide.json", &cfg, &e), HY_OK);
    mech_friction_mech *mc;
    assert_int_equal(mech_friction_mech_new(&cfg, &mc, &e), HY_OK);
    mech_friction_sim *fs;
    assert_int_equal(mech_friction_sim_new(mc, &fs, &e), HY_OK);
    mech_friction_sample s0, s1;
    mech_friction_sim_sample(fs, &s0);
    assert_int_equal(mech_friction_sim_advance(fs, 0.02, &e), HY_OK);
    mech_friction_sim_sample(fs, &s1);
    printf("mech friction: %lu events, %lu flips\n", mech_friction_sim_stats(fs)->events,
           mech_friction_sim_stats(fs)->flips);
    assert_int_equal(mech_friction_sim_stats(fs)->events, 0);

    mech_dock_limiter l;
    new_limiter(&l, 300.0);   /* constant spring: the comparison's guide has no x-dependent load */
    const double P = 800, F = -400, ex = 0.06, ey = 0.28, h = 1e-4;
    mech_dock_limiter_out o;
    double x = 0.05, v = 0.1, W = 0;
    assert_int_equal(mech_dock_limiter_trial(&l, x, v, P, F, 0, ex, ey, &o, &e), HY_OK);
    mech_dock_limiter_commit(&l);
    for (int j = 0; j < 2; j++) {
        assert_true(fabs(o.N[j] - s0.N[j]) < 1e-9 * (1 + fabs(s0.N[j])));
        assert_true(fabs(o.F[j] - s0.F[j]) < 1e-9 * (1 + fabs(s0.F[j])));
        assert_int_equal(o.chi[j], s0.chi[j]);
    }
    printf("guide: N = %.6f, %.6f N (chi %+d, %+d), friction %.6f N; mech friction: N = %.6f, %.6f N\n", o.N[0],
           o.N[1], o.chi[0], o.chi[1], o.F[0] + o.F[1], s0.N[0], s0.N[1]);
    for (int i = 0; i < 200; i++) {
        double a[4], xs[4], vs[4];
        const double c[4] = {0, 0.5, 0.5, 1};
        for (int k = 0; k < 4; k++) {
            xs[k] = k ? x + c[k] * h * vs[k - 1] : x;
            vs[k] = k ? v + c[k] * h * a[k - 1] : v;
            assert_int_equal(mech_dock_limiter_trial(&l, xs[k], vs[k], P, F, 0, ex, ey, &o, &e), HY_OK);
            a[k] = o.xdd;
        }
        mech_dock_limiter_revert(&l);
        double p0 = -(o.F[0] + o.F[1]) * v;
        x += h / 6 * (vs[0] + 2 * vs[1] + 2 * vs[2] + vs[3]);
        v += h / 6 * (a[0] + 2 * a[1] + 2 * a[2] + a[3]);
        assert_int_equal(mech_dock_limiter_trial(&l, x, v, P, F, 0, ex, ey, &o, &e), HY_OK);
        mech_dock_limiter_commit(&l);
        W += 0.5 * h * (p0 + o.p_friction);
    }
    printf("after 0.02 s: x = %.12f m, v = %.12f m/s; mech friction: %.12f, %.12f; friction work %.9f J (%.9f)\n", x,
           v, s1.q[0], s1.qd[0], W, s1.W_friction);
    assert_true(fabs(x - s1.q[0]) < 1e-12);
    assert_true(fabs(v - s1.qd[0]) < 1e-11);
    assert_true(fabs(W - s1.W_friction) < 1e-6 * s1.W_friction);
    mech_dock_limiter_free(&l);
    mech_friction_sim_free(fs);
    mech_friction_mech_free(mc);
}

/* at x = 0.1 m the springs push with 750 N; the rim pushes with 800 N and a lateral load loads the guides so that
 * mu (N1 + N2) > 50 N: the limiter stays stuck and the guides hold exactly the 50 N difference */
static void stuck_limiter(void **state)
{
    (void)state;
    mech_dock_limiter l;
    new_limiter(&l, 1200.0);
    hy_err e;
    mech_dock_limiter_stick(&l);
    mech_dock_limiter_out o;
    assert_int_equal(mech_dock_limiter_trial(&l, 0.1, 0.0, 800, -400, 0, 0.06, 0.28, &o, &e), HY_OK);
    printf("stuck: spring %.3f N, guide forces %.6f + %.6f N, N = %.3f, %.3f N, slip %d %d\n", o.f_spring, o.F[0],
           o.F[1], o.N[0], o.N[1], o.slip[0], o.slip[1]);
    assert_true(fabs(o.f_spring - 750.0) < 1e-12);
    assert_true(o.slip[0] == 0 && o.slip[1] == 0);
    assert_true(fabs(o.xdd) < 1e-12);
    assert_true(fabs(o.F[0] + o.F[1] + 50.0) < 1e-9);
    assert_true(fabs(o.F[0] + o.F[1]) <= 0.15 * (o.N[0] + o.N[1]));
    /* the guide reactions grow with the push (its moment arm is the pad radius): sum N ~ 3.1 P, so the limiter
       breaks loose only above P ~ 750 / (1 - 0.15 * 3.1) = 1400 N; 1000 N keeps it stuck, 2000 N moves it */
    assert_int_equal(mech_dock_limiter_trial(&l, 0.1, 0.0, 1000, -400, 0, 0.06, 0.28, &o, &e), HY_OK);
    assert_true(o.slip[0] == 0 && o.slip[1] == 0 && fabs(o.xdd) < 1e-12);
    assert_int_equal(mech_dock_limiter_trial(&l, 0.1, 0.0, 2000, -400, 0, 0.06, 0.28, &o, &e), HY_OK);
    printf("2000 N: xdd %.6f m/s^2, slip %d %d, N = %.3f, %.3f N\n", o.xdd, o.slip[0], o.slip[1], o.N[0], o.N[1]);
    assert_true(fabs(o.p_friction) < 1e-12);   /* at rest: no friction power */
    assert_true(fabs(o.xdd - (2000 - 750 + o.F[0] + o.F[1]) / 3.0) < 1e-9);
    assert_true(o.xdd > 0);
    assert_true(o.slip[0] == 1 || o.slip[1] == 1);
    mech_dock_limiter_free(&l);
}

/* A held stick (mech_dock_limiter_hold, what the docking run does through a step that starts stuck): the pairs
 * stay stuck whatever the push, and the margin sum mu N - |sum F| says how far the limiter, one rigid part on its
 * two pairs, is from breaking away; it falls as the push grows and crosses zero where the guides' whole friction
 * mu (N1 + N2) equals the push less the springs (Coulomb's law for the part), which the docking run locates as an
 * event. The free solver agrees: below that push the limiter stays at rest (the stick force splits evenly over the
 * pairs, so the less loaded one reaches its cone first and is released at its limit while the other holds the
 * rest), above it both pairs slide the same way */
static void held_stick_margin(void **state)
{
    (void)state;
    mech_dock_limiter l;
    new_limiter(&l, 1200.0);
    hy_err e;
    mech_dock_limiter_out o;
    mech_dock_limiter_stick(&l);
    mech_dock_limiter_hold(&l, 1);
    /* the margin is what the pairs' own numbers say */
    assert_int_equal(mech_dock_limiter_trial(&l, 0.1, 0.0, 1000, -400, 0, 0.06, 0.28, &o, &e), HY_OK);
    assert_true(o.margin > 0 && fabs(o.margin - (0.15 * (o.N[0] + o.N[1]) - fabs(o.F[0] + o.F[1]))) < 1e-9);
    /* held: 2000 N (which frees it, stuck_limiter) leaves it stuck, the margin negative */
    assert_int_equal(mech_dock_limiter_trial(&l, 0.1, 0.0, 2000, -400, 0, 0.06, 0.28, &o, &e), HY_OK);
    assert_true(o.slip[0] == 0 && o.slip[1] == 0 && fabs(o.xdd) < 1e-12);
    assert_true(o.margin < 0);
    /* the push where the held margin crosses zero (held: at rest whatever the push), and what the free solver makes
       of it from the committed state (what the run does at the event); the pairs' reactions depend on how the
       friction splits (its moments about the bearings), so a release can leave one pair at its limit and the
       limiter at rest, with a slightly higher capacity: then the same again from there */
    double lo = 1000, hi = 2000, first = 0;
    int rounds = 0;
    for (; rounds < 4; rounds++) {
        mech_dock_limiter_hold(&l, 1);
        for (int it = 0; it < 60; it++) {
            double mid = 0.5 * (lo + hi);
            assert_int_equal(mech_dock_limiter_trial(&l, 0.1, 0.0, mid, -400, 0, 0.06, 0.28, &o, &e), HY_OK);
            assert_true(fabs(o.xdd) < 1e-9);
            *(o.margin > 0 ? &lo : &hi) = mid;
        }
        double cap = 0.15 * (o.N[0] + o.N[1]);
        printf("held stick, slip %d %d: margin crosses zero at a push of %.6f N: mu (N1 + N2) = %.6f N, push - "
               "springs = %.6f N\n", l.data->slip_c[0], l.data->slip_c[1], lo, cap, lo - 750);
        assert_true(fabs(cap - (lo - 750)) < 1e-6 * cap);
        if (rounds == 0)
            first = lo;
        /* the free solver: at rest just below */
        mech_dock_limiter_hold(&l, 0);
        assert_int_equal(mech_dock_limiter_trial(&l, 0.1, 0.0, lo - 0.01, -400, 0, 0.06, 0.28, &o, &e), HY_OK);
        assert_true((o.slip[0] == 0 || o.slip[1] == 0) && fabs(o.xdd) < 1e-9);
        /* just above: both slide the same way and the limiter moves off, or one pair is at its limit */
        assert_int_equal(mech_dock_limiter_trial(&l, 0.1, 0.0, hi + 0.01, -400, 0, 0.06, 0.28, &o, &e), HY_OK);
        printf("free, just above: slip %d %d, xdd %.3g m/s^2\n", o.slip[0], o.slip[1], o.xdd);
        if (o.slip[0] != 0 && o.slip[1] != 0)
            break;
        assert_true(fabs(o.xdd) < 1e-9);
        mech_dock_limiter_commit(&l);
        lo = hi + 0.01, hi = 2000;
    }
    assert_true(rounds < 4);
    assert_true(o.slip[0] == 1 && o.slip[1] == 1 && o.xdd > 0);
    assert_true(hi - first < 2e-3 * first);   /* the capacity of the first split within 0.2 % */
    mech_dock_limiter_free(&l);
}

/* no load: the forward stop holds the 300 N preload at x = -300 / (5e6 + 4500), where spring and stop balance */
static void forward_stop_holds_preload(void **state)
{
    (void)state;
    mech_dock_limiter l;
    new_limiter(&l, 1200.0);
    hy_err e;
    mech_dock_limiter_out o;
    double x0 = -300.0 / (5e6 + 900.0 / 0.2);
    assert_int_equal(mech_dock_limiter_trial(&l, x0, 0.0, 0, 0, 0, 0, 0, &o, &e), HY_OK);
    assert_true(fabs(o.xdd) < 1e-9);
    assert_true(fabs(o.f_stop - o.f_spring) < 1e-9 && fabs(o.f_stop - 300.0) < 0.3);
    assert_true(o.N[0] < 1e-9 && o.N[1] < 1e-9);
    /* the spring energy from the forward position to the end: (300 + 1200) / 2 * 0.2 = 150 J */
    assert_int_equal(mech_dock_limiter_trial(&l, 0.2, 0.0, 1200, 0, 0, 0, 0, &o, &e), HY_OK);
    assert_true(fabs(o.e_spring - 150.0) < 1e-12);
    mech_dock_limiter_free(&l);
}

/* no lateral load: the closed-form path (no solve) gives the solver's answer: no reactions, xdd = net force / m */
static void unloaded_guides(void **state)
{
    (void)state;
    mech_dock_limiter l;
    new_limiter(&l, 1200.0);
    hy_err e;
    mech_dock_limiter_out o, o2;
    assert_int_equal(mech_dock_limiter_trial(&l, 0.1, -0.02, 500, 0, 0, 0.06, 0, &o, &e), HY_OK);
    assert_true(fabs(o.xdd - (500 - 750) / 3.0) < 1e-12);
    assert_true(o.N[0] == 0 && o.N[1] == 0 && o.F[0] == 0 && o.F[1] == 0 && o.p_friction == 0);
    /* a vanishing lateral load through the solver agrees */
    assert_int_equal(mech_dock_limiter_trial(&l, 0.1, -0.02, 500, 1e-9, 0, 0.06, 0, &o2, &e), HY_OK);
    assert_true(fabs(o2.xdd - o.xdd) < 1e-9);
    mech_dock_limiter_free(&l);
}

/* The tree's form (dock_eval.c): the limiter's acceleration affine in the friction, xdd = (f_eff + sum F) / m_eff.
 * With m_eff = the limiter's mass and f_eff = P - F_spring + F_stop it is the standalone limiter: the same guide
 * reactions, friction and acceleration bit for bit, stuck, sliding and unloaded. With a heavier m_eff (the tree
 * behind it) a stuck limiter still holds (xdd = 0) and a sliding one accelerates by the net force over m_eff. */
static void coupled_equals_standalone(void **state)
{
    (void)state;
    struct { double x, xd, P, F, M, ex, ey; int stick; } c[] = {
        {0.1, 0.0, 800, -400, 0, 0.06, 0.28, 1},   {0.1, 0.0, 2000, -400, 0, 0.06, 0.28, 1},
        {0.05, 0.1, 500, -400, -84, 0.06, 0.28, 0}, {0.05, -0.1, 500, 300, 20, 0.06, 0.28, 0},
        {0.1, -0.02, 500, 0, 0, 0.06, 0, 0},        {-1e-4, 0.01, 0, 0, 0, 0, 0, 0},
        {0.2001, -0.01, 1500, 50, 0, 0.06, 0.28, 0}};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        mech_dock_limiter a, b;
        new_limiter(&a, 1200.0);
        new_limiter(&b, 1200.0);
        if (c[i].stick)
            mech_dock_limiter_stick(&a), mech_dock_limiter_stick(&b);
        else   /* sliding with the speed: the committed direction */
            for (int j = 0; j < 2; j++)
                a.data->slip_c[j] = b.data->slip_c[j] = c[i].xd > 0 ? 1 : -1;
        hy_err e;
        mech_dock_limiter_out oa, ob;
        assert_int_equal(mech_dock_limiter_trial(&a, c[i].x, c[i].xd, c[i].P, c[i].F, c[i].M, c[i].ex, c[i].ey, &oa,
                                                 &e), HY_OK);
        double Fs, Fst, E;
        mech_dock_limiter_springs(&a.p, c[i].x, c[i].xd, &Fs, &Fst, &E);
        assert_int_equal(mech_dock_limiter_trial_coupled(&b, c[i].x, c[i].xd, a.p.mass, c[i].P - Fs + Fst, c[i].F,
                                                         c[i].M + c[i].ex * c[i].F - c[i].ey * c[i].P, &ob, &e), HY_OK);
        assert_true(oa.xdd == ob.xdd && oa.N[0] == ob.N[0] && oa.N[1] == ob.N[1] && oa.F[0] == ob.F[0] &&
                    oa.F[1] == ob.F[1] && oa.slip[0] == ob.slip[0] && oa.slip[1] == ob.slip[1]);
        assert_true(oa.f_spring == Fs && oa.f_stop == Fst && oa.e_spring == E && ob.e_spring == E);
        /* the tree behind it: 10 times the mass */
        mech_dock_limiter_revert(&b);
        assert_int_equal(mech_dock_limiter_trial_coupled(&b, c[i].x, c[i].xd, 30.0, c[i].P - Fs + Fst, c[i].F,
                                                         c[i].M + c[i].ex * c[i].F - c[i].ey * c[i].P, &ob, &e), HY_OK);
        double net = c[i].P - Fs + Fst + ob.F[0] + ob.F[1];
        assert_true(fabs(ob.xdd - net / 30.0) < 1e-12 * (1 + fabs(net)));
        if (ob.slip[0] == 0 || ob.slip[1] == 0)
            assert_true(fabs(ob.xdd) < 1e-12);
        mech_dock_limiter_free(&a);
        mech_dock_limiter_free(&b);
    }
}

/* The guides are round rods: their reactions S_0, S_1 are 2D vectors with S_0 + S_1 = -F and
 * a_0 S_0 + a_1 S_1 = -(e_x x M), and each rod reacts |S_j| (mech_dock_limiter_rod_load gives the planar guide the
 * load that has those reactions). (1) A load in one plane (F along y, M about z): the same reactions, friction and
 * acceleration as the planar guide in the plane of F (the reduction used before, checked against `mech friction`
 * above), to round-off. (2) Loads in different planes, frictionless guides: N_j = |S_j| with S_j from LAPACK's
 * dgesv on the 4 x 4 balance. (3) A small F across a moment's plane: the rods carry the couple, 150 N each, where
 * the plane of F alone dropped the moment and reacted the 5 N only. */
static void planar_load(double Fy, double Fz, double My, double Mz, double *f, double *m)
{
    double Fl = hypot(Fy, Fz), uy = Fy / Fl, uz = Fz / Fl;   /* the plane of F: u = F / |F|, w = e_x x u */
    *f = Fl;
    *m = -(My * (-uz) + Mz * uy);
}
static void round_rods_reactions(void **state)
{
    (void)state;
    hy_err e;
    /* (1) one plane */
    double loads[][2] = {{-400, 84}, {300, -20}, {150, 60}, {-50, -70}};
    for (size_t i = 0; i < sizeof loads / sizeof loads[0]; i++) {
        mech_dock_limiter a, b;
        new_limiter(&a, 1200.0);
        new_limiter(&b, 1200.0);
        for (int j = 0; j < 2; j++)
            a.data->slip_c[j] = b.data->slip_c[j] = 1;
        double f0, m0, f1, m1;
        planar_load(loads[i][0], 0, 0, loads[i][1], &f0, &m0);
        mech_dock_limiter_rod_load(&a.p, loads[i][0], 0, 0, loads[i][1], &f1, &m1);
        mech_dock_limiter_out oa, ob;
        assert_int_equal(mech_dock_limiter_trial_coupled(&a, 0.05, 0.1, 3.0, 200.0, f0, m0, &oa, &e), HY_OK);
        assert_int_equal(mech_dock_limiter_trial_coupled(&b, 0.05, 0.1, 3.0, 200.0, f1, m1, &ob, &e), HY_OK);
        for (int j = 0; j < 2; j++) {
            assert_true(fabs(oa.N[j] - ob.N[j]) < 1e-12 * (1 + oa.N[j]));
            assert_true(fabs(oa.F[j] - ob.F[j]) < 1e-12 * (1 + fabs(oa.F[j])));
        }
        assert_true(fabs(oa.xdd - ob.xdd) < 1e-12 * (1 + fabs(oa.xdd)));
        mech_dock_limiter_free(&a);
        mech_dock_limiter_free(&b);
    }
    /* (2) two planes, no friction */
    mech_dock_limiter_params p;
    mech_dock_limiter_params_rp1(&p);
    p.mu[0] = p.mu[1] = 0;
    mech_dock_limiter l;
    assert_int_equal(mech_dock_limiter_new(&p, &l, &e), HY_OK);
    double cases[][4] = {{10, -5, 60, 40}, {-300, 120, -15, 90}, {0.5, 0.2, -80, 30}, {200, 0, 0, 50}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double Fy = cases[i][0], Fz = cases[i][1], My = cases[i][2], Mz = cases[i][3];
        /* S0y S0z S1y S1z: S0 + S1 = -F; a0 S0 + a1 S1 = -Mv, Mv = e_x x M = (-Mz, My) */
        double A[16] = {1, 0, 1, 0, 0, 1, 0, 1, p.a[0], 0, p.a[1], 0, 0, p.a[0], 0, p.a[1]};
        double rhs[4] = {-Fy, -Fz, Mz, -My};
        lapack_int piv[4];
        assert_int_equal(LAPACKE_dgesv(LAPACK_ROW_MAJOR, 4, 1, A, 4, piv, rhs, 1), 0);
        double f, m;
        mech_dock_limiter_rod_load(&p, Fy, Fz, My, Mz, &f, &m);
        for (int j = 0; j < 2; j++)
            l.data->slip_c[j] = 1;
        mech_dock_limiter_out o;
        assert_int_equal(mech_dock_limiter_trial_coupled(&l, 0.05, 0.1, 3.0, 200.0, f, m, &o, &e), HY_OK);
        near_rel(o.N[0], hypot(rhs[0], rhs[1]), 1e-12);
        near_rel(o.N[1], hypot(rhs[2], rhs[3]), 1e-12);
        mech_dock_limiter_revert(&l);
    }
    mech_dock_limiter_free(&l);
    /* (3) a moment across the plane of F: 5 N along y, 30 N m about y (e_x x M along z) */
    mech_dock_limiter c;
    new_limiter(&c, 1200.0);
    double f, m, f0, m0;
    mech_dock_limiter_out o, op;
    for (int j = 0; j < 2; j++)
        c.data->slip_c[j] = 1;
    mech_dock_limiter_rod_load(&c.p, 5, 0, 30, 0, &f, &m);
    assert_int_equal(mech_dock_limiter_trial_coupled(&c, 0.05, 0.1, 3.0, 200.0, f, m, &o, &e), HY_OK);
    mech_dock_limiter_revert(&c);
    planar_load(5, 0, 30, 0, &f0, &m0);
    assert_int_equal(mech_dock_limiter_trial_coupled(&c, 0.05, 0.1, 3.0, 200.0, f0, m0, &op, &e), HY_OK);
    print_message("5 N across 30 N m: rod reactions %.1f, %.1f N, friction %.1f N (in the plane of F alone %.1f, %.1f N, "
                  "%.1f N)\n", o.N[0], o.N[1], o.F[0] + o.F[1], op.N[0], op.N[1], op.F[0] + op.F[1]);
    /* the couple 30 / 0.2 = 150 N on each rod, the 5 N across it: |S_j| = hypot(150, 2.5) to the friction's
       small moment */
    near_rel(o.N[0], hypot(150, 2.5), 0.02);
    near_rel(o.N[1], hypot(150, 2.5), 0.02);
    assert_true(op.N[0] + op.N[1] < 10);   /* the plane of F dropped the moment */
    mech_dock_limiter_free(&c);
}

/* The springs and stops: the force is the energy's derivative (central differences, inside the travel and in
 * both stops); the stops' damper pushes out of a stop only, never pulls the limiter back in */
static void springs_and_stops(void **state)
{
    (void)state;
    mech_dock_limiter_params p;
    mech_dock_limiter_params_rp1(&p);
    const double xs[] = {-2e-4, -1e-6, 0.05, 0.1, 0.19, 0.2 + 1e-6, 0.2003};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        double h = 1e-8, Fs, Fst, Ep, Em, d0, d1;
        mech_dock_limiter_springs(&p, xs[i] + h, 0, &d0, &d1, &Ep);
        mech_dock_limiter_springs(&p, xs[i] - h, 0, &d0, &d1, &Em);
        mech_dock_limiter_springs(&p, xs[i], 0, &Fs, &Fst, &d0);
        /* the energy grows against the forces along +x: dE/dx = F_spring - F_stop */
        assert_true(fabs((Ep - Em) / (2 * h) - (Fs - Fst)) < 1e-5 * (1 + fabs(Fs)));
    }
    double Fs, Fst, E;
    /* in the forward stop, leaving it fast: the damper would pull; the stop force stays >= 0 */
    mech_dock_limiter_springs(&p, -1e-5, 10.0, &Fs, &Fst, &E);
    assert_true(Fst == 0.0);
    mech_dock_limiter_springs(&p, -1e-5, -0.01, &Fs, &Fst, &E);   /* entering it: penalty plus damper */
    assert_true(fabs(Fst - (5e6 * 1e-5 + p.stop_damping * 0.01)) < 1e-9);
    mech_dock_limiter_springs(&p, 0.2 + 1e-5, -10.0, &Fs, &Fst, &E);   /* the end stop, leaving it */
    assert_true(Fst == 0.0);
    mech_dock_limiter_springs(&p, 0.2 + 1e-5, 0.01, &Fs, &Fst, &E);
    assert_true(fabs(Fst + (5e6 * 1e-5 + p.stop_damping * 0.01)) < 1e-9 && fabs(Fs - (1200.0 + 4500 * 1e-5)) < 1e-9);
}

/* Nearly unloaded guides (a fraction of a N across: the pads pressed all round, S1-C at 90 s), both pairs stuck and
 * a net axial load the cone cannot hold: the variant attempts cycle on the chi of the unloaded pairs (the stick
 * force's moment through t flips the sign of a tiny N) and never reach the cone test, and the enumeration kept the
 * stick, reporting a Painlevé non-existence. friction_solve.c releases the refused sticks and enumerates again,
 * round by round: the limiter slides with the load, its friction inside mu N */
static void nearly_unloaded_stick_releases(void **state)
{
    (void)state;
    mech_dock_limiter l;
    new_limiter(&l, 1200.0);
    mech_dock_limiter_stick(&l);
    l.data->chi_c[0] = l.data->chi_c[1] = -1;
    hy_err e;
    mech_dock_limiter_out o;
    int rc = mech_dock_limiter_trial_coupled(&l, 0.00115084, 0, 2.99955, 0.675419, 0.0283289, -0.00178715, &o, &e);
    if (rc)
        print_message("%s\n", e.msg);
    assert_int_equal(rc, HY_OK);
    assert_true(o.slip[0] == 1 && o.slip[1] == 1);
    double F = o.F[0] + o.F[1], N = o.N[0] + o.N[1];
    assert_true(N > 0 && fabs(F) <= 0.15 * N * (1 + 1e-12) && F < 0);
    assert_true(fabs(o.xdd - (0.675419 + F) / 2.99955) < 1e-12 && o.xdd > 0);
    /* S1-C at 211 s: releasing the stick the cone refuses (pair 1, its N slightly negative) loads pair 2 past its
       own cone; a second round releases it too */
    mech_dock_limiter_stick(&l);
    l.data->chi_c[0] = l.data->chi_c[1] = -1;
    rc = mech_dock_limiter_trial_coupled(&l, 5.8326e-05, 0, 2.99955, 0.0076256, 0.0334691, 0.0033026, &o, &e);
    if (rc)
        print_message("%s\n", e.msg);
    assert_int_equal(rc, HY_OK);
    assert_true(o.slip[0] == 1 && o.slip[1] == 1);
    F = o.F[0] + o.F[1], N = o.N[0] + o.N[1];
    assert_true(N > 0 && fabs(F) <= 0.15 * N * (1 + 1e-12) && F < 0);
    assert_true(fabs(o.xdd - (0.0076256 + F) / 2.99955) < 1e-12 && o.xdd > 0);
    mech_dock_limiter_free(&l);
}

static void bad_parameters(void **state)
{
    (void)state;
    struct { const char *key; int field; double v; } cases[] = {
        {"limiter.f_forward", 0, 0.0}, {"limiter.f_forward", 0, -300.0}, {"limiter.f_end", 1, 200.0},
        {"limiter.stroke", 2, 0.0},    {"limiter.mass", 3, NAN}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mech_dock_limiter_params p;
        mech_dock_limiter_params_rp1(&p);
        double *f[] = {&p.f_forward, &p.f_end, &p.stroke, &p.mass};
        *f[cases[i].field] = cases[i].v;
        mech_dock_limiter l;
        hy_err e;
        assert_int_equal(mech_dock_limiter_new(&p, &l, &e), HY_EMODEL);
        assert_non_null(strstr(e.msg, cases[i].key));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(against_mech_friction), cmocka_unit_test(stuck_limiter),
        cmocka_unit_test(forward_stop_holds_preload), cmocka_unit_test(unloaded_guides),
        cmocka_unit_test(bad_parameters), cmocka_unit_test(coupled_equals_standalone),
        cmocka_unit_test(springs_and_stops), cmocka_unit_test(nearly_unloaded_stick_releases),
        cmocka_unit_test(held_stick_margin), cmocka_unit_test(round_rods_reactions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

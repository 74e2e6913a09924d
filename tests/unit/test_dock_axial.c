/* The axial damper of the docking mechanism (spec 001 §2.1 eq. 2.1, §5.1; RP-1 §2.5, §3): the shipped RP-1 laws
 * (fixtures/mech/dock/models/axial-A.json, gear-B.json) against closed forms (preload, spring rate, brake plateaus
 * with the screw friction, FrT1 exhaustion, pull-out levels), impacts of a 19 t reduced mass (0.95 x 20 t, RP-1 §3)
 * against the energy estimates of RP-1 §3, the energy balance of the nut equation integrated alone (closing to a
 * tolerance that shrinks with the step), trial / commit / revert, no allocation in trial + commit, the stop's
 * restitution, and bad parameters refused naming the key. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mech/dock.h"
#include "dock_test_laws.h"
#include "hyst/pwl.h"
#include "../../bench/bench_alloc.h"

/* |a - b| <= tol in double precision (cmocka's assert_float_equal compares floats); NaN fails */
#define assert_near(a, b, tol)                                                                                 \
    do {                                                                                                       \
        double a_ = (a), b_ = (b), t_ = (tol);                                                                 \
        if (!(fabs(a_ - b_) <= t_))                                                                            \
            fail_msg("%s = %.17g, expected %.17g +- %.3g", #a, a_, b_, t_);                                    \
    } while (0)

static void load_law(const char *file, hy_model *m)
{
    assert_int_equal(dock_test_load_law(file, m), HY_OK);
}

/* RP-1 axial damper of a variant with its shipped law */
typedef struct fixture {
    hy_model law;
    mech_dock_axial_params p;
    mech_dock_axial *a;
} fixture;

static void make(fixture *f, int variant)
{
    memset(f, 0, sizeof *f);
    load_law(variant == MECH_DOCK_A ? "axial-A.json" : "gear-B.json", &f->law);
    mech_dock_axial_params_rp1(&f->p, variant);
    if (variant == MECH_DOCK_A)
        f->p.chain.model = &f->law;
    else
        f->p.gear.model = &f->law;
    hy_err e;
    int rc = mech_dock_axial_new(&f->p, &f->a, &e);
    if (rc)
        print_message("%s\n", e.msg);
    assert_int_equal(rc, HY_OK);
}

static void drop(fixture *f)
{
    mech_dock_axial_free(f->a);
    hy_model_free(&f->law);
}

/* trial at stroke s, rate v (head force f) and commit */
static void step_to(mech_dock_axial *a, double s, double v, double f, mech_dock_axial_out *o)
{
    double i = mech_dock_axial_ratio(a);
    hy_err e;
    int rc = mech_dock_axial_trial(a, s * i, v * i, f, o, &e);
    if (rc)
        print_message("%s\n", e.msg);
    assert_int_equal(rc, HY_OK);
    mech_dock_axial_commit(a);
}

/* ---- the magnetic-brake table (eq. 2.2) ---- */
static void table_eval(void **st)
{
    (void)st;
    mech_dock_axial_params p;
    mech_dock_axial_params_rp1(&p, MECH_DOCK_A);
    assert_near(mech_dock_table_eval(&p.magnetic, 0.0), 0.0, 1e-12);
    assert_near(mech_dock_table_eval(&p.magnetic, 0.1), 100.0, 1e-9);  /* 1000 N s/m */
    assert_near(mech_dock_table_eval(&p.magnetic, 0.3), 300.0, 1e-9);
    assert_near(mech_dock_table_eval(&p.magnetic, 5.0), 300.0, 1e-9);  /* saturated */
    mech_dock_table t = {.n = 2, .x = {0, 1}, .y = {0, 2}};
    assert_near(mech_dock_table_eval(&t, 3.0), 6.0, 1e-12);             /* last slope continued */
    mech_dock_table z = {.n = 0};
    assert_near(mech_dock_table_eval(&z, 3.0), 0.0, 0);
    mech_dock_axial_params_rp1(&p, MECH_DOCK_B);
    assert_int_equal(p.magnetic.n, 0);                                          /* B: no magnetic brakes */
    assert_near(p.frt1_push, 1250, 0);
    assert_near(p.frt1_stroke, 0.25, 0);
    assert_near(p.frt2_push, 5000, 0);
    assert_near(p.frt2_pull, 6000, 0);
    assert_true(p.frt1_pull < p.frt1_push);
}

/* ---- A: the chain characteristic driven by the stroke (closed forms of the RP-1 table) ---- */
static void chain_a_static(void **st)
{
    (void)st;
    fixture f;
    make(&f, MECH_DOCK_A);
    mech_dock_axial_out o;
    const double v = 1e-3;
    for (int k = 1; k <= 1500; k++) { /* 0 -> 0.15 m */
        double s = 1e-4 * k;
        step_to(f.a, s, v, 0, &o);
        double want = s <= 0.0005 ? 1e6 * s : s <= 0.1005 ? 500 + 5000 * (s - 0.0005)
                    : s <= 0.1045 ? 1000 + 1e6 * (s - 0.1005) : 5000;
        assert_near(o.force, want, 1e-6 * want + 1e-9);
        assert_near(o.slip1, s > 0.1045 ? s - 0.1045 : 0, 1e-12);
        if (o.slip1 > 0)
            assert_near(o.p_brakes, 5000 * v, 1e-9);
        else
            assert_near(o.p_brakes, 0, 0);
    }
    /* pull-out: unload, through the (shifted) origin, to the FrT2 pull-out plateau */
    double slip = 0.15 - 0.1045, smin = 0;
    for (int k = 1; k <= 2000; k++) {
        double s = 0.15 - 1e-4 * k;
        step_to(f.a, s, -v, 0, &o);
        if (s < slip - 0.006 - 1e-9) {
            assert_near(o.force, -6000, 1e-6);
            assert_near(o.p_brakes, 6000 * v, 1e-6);
            smin = s;
        }
    }
    assert_near(o.slip1, smin - (slip - 0.006) + slip, 1e-9); /* push-in slip + pull-out slip */
    drop(&f);
}

/* ---- B: the series chain gear + FrT1 + FrT2 (return mapping) ---- */
static void chain_b_static(void **st)
{
    (void)st;
    fixture f;
    make(&f, MECH_DOCK_B);
    mech_dock_axial_out o;
    const double v = 1e-3;
    for (int k = 1; k <= 3100; k++) { /* 0 -> 0.31 m */
        double s = 1e-4 * k;
        step_to(f.a, s, v, 0, &o);
        double want;
        if (s <= 0.00625)
            want = 2e5 * s;                         /* gear alone */
        else if (s <= 0.25625)
            want = 1250;                            /* FrT1 slips */
        else if (s <= 0.25625 + 0.01875)
            want = 1250 + 2e5 * (s - 0.25625);      /* FrT1 on its stop, the gear loads on */
        else
            want = 5000;                            /* FrT2 slips */
        assert_near(o.force, want, 1e-6 * want);
        assert_near(o.slip1, fmin(fmax(s - 0.00625, 0), 0.25), 1e-9);
        assert_near(o.slip2, fmax(s - 0.275, 0), 1e-9);
        assert_near(o.slip1 + o.slip2 + o.q_el, s, 1e-12);
    }
    /* pull back: the gear unloads (its B branch), to -300 N where FrT1 slips back out */
    double s1_end = o.slip1, s2_end = o.slip2;
    for (int k = 1; k <= 1000; k++) {
        double s = 0.31 - 1e-4 * k;
        step_to(f.a, s, -v, 0, &o);
        assert_true(o.force >= -300 - 1e-6 && o.force <= 5000 + 1e-6);
    }
    assert_near(o.force, -300, 1e-6);
    assert_near(o.slip2, s2_end, 1e-12);          /* FrT2 holds in the pull direction (6000 N) */
    /* the gear went from (0.025, 5000) along the k_max = 2.5e5 transition to its B branch, down B and the common
       segment to -300 N at q = -0.0015: FrT1 took the rest of the 0.1 m */
    assert_near(o.slip1, s1_end - (0.1 - (0.025 + 0.0015)), 1e-9);
    /* on: FrT1 back at its start, then the gear to FrT2's pull-out level */
    for (int k = 1; k <= 3000; k++)
        step_to(f.a, 0.21 - 1e-4 * k, -v, 0, &o);
    assert_near(o.slip1, 0, 0);
    assert_near(o.force, -6000, 1e-6);
    assert_near(o.slip1 + o.slip2 + o.q_el, 0.21 - 0.3, 1e-12);
    drop(&f);
}

/* the chain is rate independent: one big step = many small ones (the return mapping follows the element's path) */
static void chain_b_one_step(void **st)
{
    (void)st;
    fixture f, g;
    make(&f, MECH_DOCK_B);
    make(&g, MECH_DOCK_B);
    mech_dock_axial_out o, p;
    const double path[] = {0.1, 0.02, 0.29, 0.2, -0.05, 0.05};
    double s = 0;
    for (int j = 0; j < 6; j++) {
        double v = path[j] > s ? 1 : -1;
        step_to(f.a, path[j], v, 0, &o);
        for (int k = 1; k <= 500; k++)
            step_to(g.a, s + (path[j] - s) * k / 500.0, v, 0, &p);
        assert_near(o.force, p.force, 1e-6);
        assert_near(o.slip1, p.slip1, 1e-9);
        assert_near(o.slip2, p.slip2, 1e-9);
        assert_near(o.q_el, p.q_el, 1e-9);
        s = path[j];
    }
    drop(&f);
    drop(&g);
}

/* B with a kinematic-ODE gear law (spec 002; what `hyst fit kin` writes), rescaled by the law's q / Q scales: the
 * series solution only needs a monotone trial curve, so the brake levels hold exactly as with the pwl table */
static void chain_b_kin_law(void **st)
{
    (void)st;
    hy_model law;
    const char *fx = getenv("FIXTURES");
    char path[1024];
    snprintf(path, sizeof path, "%s/models/paper-damper-reduced.json", fx && *fx ? fx : "fixtures");
    hy_err e;
    assert_int_equal(hy_model_read(path, &law, &e), HY_OK);
    mech_dock_axial_params p;
    mech_dock_axial_params_rp1(&p, MECH_DOCK_B);
    p.gear.model = &law;
    p.gear.q_scale = 10;   /* 0.05 m of deflection = 0.5 rad of the law's range [-0.52, 0.52] */
    p.gear.Q_scale = 100;  /* its ~100 N m at 0.5 rad = 10 kN, beyond FrT2's levels */
    mech_dock_axial *a;
    assert_int_equal(mech_dock_axial_new(&p, &a, &e), HY_OK);
    const double path_s[] = {0.1, 0.02, 0.29, 0.2, -0.05, 0.05}, level[] = {1250, -300, 5000, -300, -6000, 1250};
    mech_dock_axial_out o;
    double s = 0;
    for (int j = 0; j < 6; j++) {
        for (int k = 1; k <= 500; k++)
            step_to(a, s + (path_s[j] - s) * k / 500.0, path_s[j] > s ? 1e-3 : -1e-3, 0, &o);
        s = path_s[j];
        assert_near(o.force, level[j], 1e-6 * fabs(level[j]));
        assert_near(o.slip1 + o.slip2 + o.q_el, s, 1e-12);
        assert_true(o.slip1 >= 0 && o.slip1 <= 0.25);
    }
    assert_near(o.slip2, -0.0084, 1e-4); /* FrT2 slipped in at 0.29 m, then out at -0.05 m */
    mech_dock_axial_free(a);
    /* a law too weak for the brakes leaves its valid range before FrT1 slips: the element's error, named, and the
       committed state kept */
    p.gear.Q_scale = 1;
    assert_int_equal(mech_dock_axial_new(&p, &a, &e), HY_OK);
    step_to(a, 0.001, 1e-3, 0, &o);
    double F0 = o.force, i = mech_dock_axial_ratio(a);
    mech_dock_axial_out o2;
    int rc = mech_dock_axial_trial(a, 0.1 * i, 1e-3 * i, 0, &o2, &e);
    assert_int_equal(rc, HY_ERANGE);
    print_message("%s\n", e.msg);
    assert_int_equal(strncmp(e.msg, "axial.gear: ", 12), 0);
    assert_int_equal(mech_dock_axial_trial(a, 0.001 * i, 1e-3 * i, 0, &o2, &e), HY_OK);
    assert_near(o2.force, F0, 0);
    mech_dock_axial_free(a);
    hy_model_free(&law);
}

/* ---- integration of the nut equation alone, driven by an impacting mass or a displacement-controlled rig ---- */
typedef struct run {
    double s_max, v_end, E0, E_end;        /* max stroke, mass velocity at the end, initial / final mechanical E */
    double W_el, E_brk, W_brk, E_mag, E_damp, e_stop, e_stop_max; /* E_brk: integral of p_brakes; W_brk: booked */
    double resid, resid_max;               /* E0 - everything booked: at the end, max |.| over the run           */
    double resid_rk_max;                   /* B: max |.| with the integral of p_brakes instead of the booking     */
    double s1, s2, f_plateau;
    double f_probe;                        /* rig: head force when the stroke passed rig.s_probe                  */
} run;

typedef struct rig {
    int    mode;      /* 0: mass M at v0 through a stiff elastic contact; 1: rig spring driven at speed v0 */
    double M, v0, kc;
    int    variant;
    double m_eq;
    double p1, n1, p2, n2;  /* B's brake levels */
    double s_probe;         /* rig: stroke at which the head force is recorded */
} rig;

/* y = x (mass / rig end), v, phi, phid, E_mag, E_damp, E_brk */
static void rhs(mech_dock_axial *a, const rig *r, double t, const double *y, double *dy, mech_dock_axial_out *o)
{
    double i = mech_dock_axial_ratio(a), s = y[2] / i;
    double x = r->mode ? r->v0 * t : y[0];
    double d = x - s, f = d > 0 || r->mode ? r->kc * d : 0;
    hy_err e;
    int rc = mech_dock_axial_trial(a, y[2], y[3], f, o, &e);
    if (rc)
        print_message("%s\n", e.msg);
    assert_int_equal(rc, HY_OK);
    dy[0] = r->mode ? r->v0 : y[1];
    dy[1] = r->mode ? 0 : -f / r->M;
    dy[2] = y[3];
    dy[3] = o->phidd;
    dy[4] = o->p_magnetic;
    dy[5] = o->p_damping + o->p_screw;
    dy[6] = o->p_brakes;
}

/* KE lost = element work + brakes outside the element (B; in A the slip is part of the chain's Q dq) + magnetic +
 * damping + stop energy */
static double residual(const run *r, int variant)
{
    return r->E0 - r->E_end - r->W_el - (variant == MECH_DOCK_B ? r->W_brk : 0) - r->E_mag - r->E_damp - r->e_stop;
}

/* RK4 with the stages' trials, revert, then trial + commit at the accepted state (mech_body_sim's pattern); the
 * element work booked by trapezoid on accepted steps, the dissipated powers integrated with the state */
static void integrate(mech_dock_axial *a, const rig *r, double h, double tmax, run *out)
{
    double y[7] = {0, r->mode ? 0 : r->v0, 0, 0, 0, 0, 0}, k[4][7], yt[7];
    mech_dock_axial_out o;
    double i = mech_dock_axial_ratio(a);
    memset(out, 0, sizeof *out);
    out->f_probe = NAN;
    out->E0 = 0.5 * r->M * r->v0 * r->v0;
    rhs(a, r, 0, y, k[0], &o);
    mech_dock_axial_commit(a);
    double q0 = o.q_el, Q0 = o.Q_el, t = 0, fsum = 0, s1p = 0, s2p = 0;
    long nf = 0;
    long nsteps = lround(tmax / h);
    for (long n = 0; n < nsteps; n++) {
        rhs(a, r, t, y, k[0], &o);
        for (int j = 0; j < 7; j++) yt[j] = y[j] + 0.5 * h * k[0][j];
        rhs(a, r, t + 0.5 * h, yt, k[1], &o);
        for (int j = 0; j < 7; j++) yt[j] = y[j] + 0.5 * h * k[1][j];
        rhs(a, r, t + 0.5 * h, yt, k[2], &o);
        for (int j = 0; j < 7; j++) yt[j] = y[j] + h * k[2][j];
        rhs(a, r, t + h, yt, k[3], &o);
        mech_dock_axial_revert(a);
        for (int j = 0; j < 7; j++) y[j] += h / 6 * (k[0][j] + 2 * k[1][j] + 2 * k[2][j] + k[3][j]);
        t += h;
        double dummy[7];
        rhs(a, r, t, y, dummy, &o); /* the accepted state: trial there and commit */
        mech_dock_axial_commit(a);
        out->W_el += 0.5 * (Q0 + o.Q_el) * (o.q_el - q0);
        q0 = o.q_el, Q0 = o.Q_el;
        if (r->variant == MECH_DOCK_B) { /* B's brakes slip only at their levels: their work booked exactly */
            double d1 = o.slip1 - s1p, d2 = o.slip2 - s2p;
            out->W_brk += (d1 > 0 ? r->p1 : r->n1) * fabs(d1) + (d2 > 0 ? r->p2 : r->n2) * fabs(d2);
            s1p = o.slip1, s2p = o.slip2;
        }
        double s = y[2] / i, d = y[0] - s;
        out->s_max = fmax(out->s_max, s);
        if (r->mode && s >= r->s_probe && isnan(out->f_probe)) /* linear in the step: interpolate */
            out->f_probe = r->kc * (r->v0 * (t - (s - r->s_probe) / (y[3] / i)) - r->s_probe);
        if (r->mode && o.slip1 > 0.01 && o.slip2 == 0) { /* plateau of the first brake (rig tests) */
            fsum += r->kc * (r->v0 * t - s);
            nf++;
        }
        if (!r->mode) {
            out->E_end = 0.5 * r->M * y[1] * y[1] + 0.5 * r->m_eq * pow(y[3] / i, 2) + (d > 0 ? 0.5 * r->kc * d * d : 0);
            /* the screw's stick spring holds energy (in e_stop here) that the integral of its power includes */
            out->E_mag = y[4], out->E_damp = y[5] - o.e_screw, out->E_brk = y[6];
            out->e_stop = o.e_stop + o.e_screw;
            out->e_stop_max = fmax(out->e_stop_max, o.e_stop);
            out->resid = residual(out, r->variant);
            out->resid_max = fmax(out->resid_max, fabs(out->resid));
            if (r->variant == MECH_DOCK_B) /* the same with the brakes' power integrated with the state */
                out->resid_rk_max = fmax(out->resid_rk_max, fabs(out->resid + out->W_brk - out->E_brk));
        }
    }
    out->v_end = y[1];
    out->s1 = o.slip1, out->s2 = o.slip2;
    out->f_plateau = nf ? fsum / nf : NAN;
}

static void impact(int variant, double M, double v0, double h, double tmax, run *r)
{
    fixture f;
    make(&f, variant);
    rig g = {0, M, v0, 1e7, variant, f.p.m_eq, f.p.frt1_push, f.p.frt1_pull, f.p.frt2_push, f.p.frt2_pull, 0};
    integrate(f.a, &g, h, tmax, r);
    drop(&f);
}

/* S1: 20 t at 0.15 m/s, reduced mass 0.95 x 20 t (RP-1 §3, 214 J): stroke within 15 % of 0.13 m (A), 0.17 m (B);
 * B's stroke also against its closed form (1 - k) E = 1250 s1 + the gear's 1250^2 / (2 * 2e5) */
static void impact_s1(void **st)
{
    (void)st;
    const double M = 0.95 * 20000, v0 = 0.15, E = 0.5 * M * v0 * v0, k = 0.05;
    run a, b;
    impact(MECH_DOCK_A, M, v0, 1e-4, 4.0, &a);
    impact(MECH_DOCK_B, M, v0, 1e-4, 4.0, &b);
    print_message("S1 A: stroke %.4f m, slip %.4f m, rebound %.4f m/s, residual %.2e J of %.1f J\n", a.s_max, a.s1,
                  -a.v_end, a.resid, E);
    print_message("S1 B: stroke %.4f m, FrT1 %.4f m, rebound %.4f m/s, residual %.2e J\n", b.s_max, b.s1, -b.v_end,
                  b.resid);
    assert_true(fabs(a.s_max - 0.13) < 0.15 * 0.13);
    assert_true(fabs(b.s_max - 0.17) < 0.15 * 0.17);
    assert_true(a.s1 > 0);                               /* A: the brake slipped ("curve 1 then curve 2") */
    assert_true(b.s1 > 0 && b.s1 < 0.25 && b.s2 == 0);   /* B: FrT1 only ("curve 4") */
    double s1_cf = ((1 - k) * E - 1250.0 * 1250.0 / 4e5) / 1250.0; /* damping neglected: a few % */
    assert_true(fabs(b.s1 - s1_cf) < 0.05 * s1_cf);
    /* A returns the spring's energy: rebound ~0.09 m/s (RP-1 §3: up to 75 J); B only the gear's few J */
    assert_true(fabs(-a.v_end - 0.09) < 0.15 * 0.09);
    assert_true(-b.v_end < 0.03);
}

/* S5: 20 t at 0.245 m/s (600 J) in B: FrT1 exhausted at 0.25 m, FrT2 slips at 5 kN, total stroke ~0.31 < 0.32 m;
 * closed form (1 - k) E = 1250 * 0.25 + (5000^2 / (2 * 2e5)) + 5000 s2 (damping neglected) */
static void impact_s5(void **st)
{
    (void)st;
    const double M = 20000, v0 = sqrt(2 * 600.0 / M), k = 0.05;
    run b;
    impact(MECH_DOCK_B, M, v0, 1e-4, 4.0, &b);
    double s2_cf = ((1 - k) * 600 - 1250 * 0.25 - 5000.0 * 5000.0 / 4e5) / 5000;
    double s_cf = 0.25 + 0.025 + s2_cf;
    print_message("S5 B: stroke %.4f m (closed form %.4f), FrT1 %.4f, FrT2 %.4f m, residual %.2e J\n", b.s_max, s_cf,
                  b.s1, b.s2, b.resid);
    assert_near(b.s1, 0.25, 1e-12);
    assert_true(b.s2 > 0);
    assert_true(b.s_max < 0.32);
    assert_true(fabs(b.s_max - s_cf) < 0.03 * s_cf);
    assert_true(b.e_stop == 0);
}

/* the energy balance of the nut equation closes at every step of an impact, to a tolerance that shrinks with the
 * step: A into FrT2's slip, B into FrT2's slip, B beyond design (20 t at 0.35 m/s: stroke exhausted, the probe
 * hits its stop and rebounds with the stop's elastic energy and damping in the budget) */
static void energy_balance(void **st)
{
    (void)st;
    const struct { int variant; double v0; } cases[] = {{MECH_DOCK_A, 0.3}, {MECH_DOCK_B, 0.27}, {MECH_DOCK_B, 0.35}};
    for (int c = 0; c < 3; c++) {
        double res[2];
        for (int j = 0; j < 2; j++) {
            run r;
            double h = j ? 2.5e-5 : 1e-4;
            impact(cases[c].variant, 20000, cases[c].v0, h, 3.0, &r);
            res[j] = r.resid_max / r.E0;
            print_message("%c %.2f m/s h = %.1e: E0 %.1f J, stroke %.4f m, element %.2f, brakes %.2f, magnetic %.2f, "
                          "damping %.2f, stop max %.3f J, kinetic %.3f, max residual %.2e rel",
                          cases[c].variant ? 'B' : 'A', cases[c].v0, h, r.E0, r.s_max, r.W_el,
                          cases[c].variant ? r.W_brk : r.E_brk, r.E_mag,
                          r.E_damp, r.e_stop_max, r.E_end, res[j]);
            if (cases[c].variant == MECH_DOCK_B)
                print_message("; with p_brakes integrated: %.2e", r.resid_rk_max / r.E0);
            print_message("\n");
            if (cases[c].variant == MECH_DOCK_A)
                assert_true(r.E_brk > 0 && r.E_brk < r.W_el); /* A: the slip is part of the element's work */
            if (c == 2)
                assert_true(r.s_max > 0.32 && r.e_stop_max > 1);
            if (cases[c].variant == MECH_DOCK_B) /* the slip power integrated with the state agrees with the booking */
                assert_true(fabs(r.E_brk - r.W_brk) < 1e-3 * r.W_brk);
        }
        assert_true(res[0] < 1e-5);
        assert_true(res[1] < 1e-6);
        assert_true(res[1] < 0.25 * res[0]);
    }
}

/* displacement-controlled static tests at 1 cm/s through a 1e5 N/m rig: the head force on a brake plateau is
 * (F_slip + c v + F_MB(v)) / (1 - k) (sign-consistent screw friction: the head must also overcome k |f|; 1 cm/s is
 * above the screw's viscous band, 2.6 mm/s at 5 kN) */
static void rig_plateaus(void **st)
{
    (void)st;
    const double v = 1e-2, k = 0.05;
    fixture f;
    make(&f, MECH_DOCK_B);
    rig g = {1, 0, v, 1e5, MECH_DOCK_B, 50, 1250, 300, 5000, 6000, 0.05};
    run r;
    integrate(f.a, &g, 1e-3, 10.0, &r);
    double want_b = (1250 + 200 * v) / (1 - k);
    print_message("rig B: FrT1 plateau head force %.2f N (closed form %.2f)\n", r.f_plateau, want_b);
    assert_false(isnan(r.f_plateau));
    assert_near(r.f_plateau, want_b, 1e-3 * want_b);
    drop(&f);
    make(&f, MECH_DOCK_A);
    g.variant = MECH_DOCK_A;
    integrate(f.a, &g, 1e-3, 20.0, &r);
    double want_a = (5000 + 200 * v + 1000 * v) / (1 - k);
    print_message("rig A: FrT2 plateau head force %.2f N (closed form %.2f)\n", r.f_plateau, want_a);
    assert_false(isnan(r.f_plateau));
    assert_near(r.f_plateau, want_a, 1e-3 * want_a);
    /* on the spring: the 500 N preload, then (1000 - 500) / 0.10 N/m, through the screw friction */
    double want_s = (500 + 5000 * (0.05 - 0.0005) + 200 * v + 1000 * v) / (1 - k);
    print_message("rig A: head force at 0.05 m %.2f N (closed form %.2f)\n", r.f_probe, want_s);
    assert_near(r.f_probe, want_s, 1e-3 * want_s);
    drop(&f);
}

/* trial never changes the committed state; revert restores it */
static void trial_commit_revert(void **st)
{
    (void)st;
    for (int variant = 0; variant < 2; variant++) {
        fixture f;
        make(&f, variant);
        mech_dock_axial_out o1, o2, o3;
        memset(&o1, 0, sizeof o1), memset(&o2, 0, sizeof o2); /* padding compared too */
        double i = mech_dock_axial_ratio(f.a);
        step_to(f.a, 0.2, 0.1, 3000, &o1); /* past the spring / FrT1 slipping */
        hy_err e;
        assert_int_equal(mech_dock_axial_trial(f.a, 0.21 * i, 0.1 * i, 3000, &o1, &e), HY_OK);
        assert_int_equal(mech_dock_axial_trial(f.a, 0.21 * i, 0.1 * i, 3000, &o2, &e), HY_OK);
        assert_memory_equal(&o1, &o2, sizeof o1);
        assert_int_equal(mech_dock_axial_trial(f.a, 0.05 * i, -0.1 * i, 100, &o3, &e), HY_OK); /* elsewhere */
        mech_dock_axial_revert(f.a);
        assert_int_equal(mech_dock_axial_trial(f.a, 0.21 * i, 0.1 * i, 3000, &o2, &e), HY_OK);
        assert_memory_equal(&o1, &o2, sizeof o1);
        /* a bad input is refused and leaves the state alone */
        assert_int_equal(mech_dock_axial_trial(f.a, NAN, 0, 0, &o3, &e), HY_ERANGE);
        assert_non_null(strstr(e.msg, "axial"));
        assert_int_equal(mech_dock_axial_trial(f.a, 0.21 * i, 0.1 * i, 3000, &o2, &e), HY_OK);
        assert_memory_equal(&o1, &o2, sizeof o1);
        drop(&f);
    }
}

/* the stop at stroke_limit restitutes e = 0.3 for a free probe (m_eq alone under the stop force) */
static void stop_restitution(void **st)
{
    (void)st;
    fixture f;
    make(&f, MECH_DOCK_B);
    double i = mech_dock_axial_ratio(f.a), L = f.p.stroke_limit, m = f.p.m_eq;
    double s = L, v = 0.2, h = 2e-6;
    mech_dock_axial_out o;
    hy_err e;
    for (int n = 0; n < 200000 && s >= L; n++) { /* semi-implicit Euler is enough at this step */
        assert_int_equal(mech_dock_axial_trial(f.a, s * i, v * i, 0, &o, &e), HY_OK);
        mech_dock_axial_commit(f.a);
        v += -o.f_stop / m * h;
        s += v * h;
    }
    print_message("stop: restitution %.4f (0.3)\n", -v / 0.2);
    assert_near(-v / 0.2, 0.3, 0.01);
    drop(&f);
}

/* the screw friction's stick (the §2.1 flag with an anchor, docs/dock-axial.md): a spring kt and a damper ct between
 * the nut and its anchor while |kt z + ct s'| <= k |f|, k |f| along that force beyond, the anchor dragged one
 * stretch behind; kt and ct the documented 50 Hz and 0.2 of critical on m_eq; the spring's energy 1/2 kt z^2 */
static void screw_stick(void **st)
{
    (void)st;
    fixture f;
    make(&f, MECH_DOCK_B);
    const double m = f.p.m_eq, F = 4000, lim = f.p.screw_friction * F, s0 = 0.1;
    const double kt = m * pow(2 * M_PI * 50, 2), ct = 2 * 0.2 * sqrt(kt * m);
    mech_dock_axial_out o;
    step_to(f.a, s0, 0, F, &o);   /* the first trial anchors at the stroke */
    assert_near(o.f_screw, 0, 0);
    step_to(f.a, s0, 0, F, &o);
    assert_near(o.f_screw, 0, 0);
    hy_err e;
    double i = mech_dock_axial_ratio(f.a), d = 1e-5;
    /* stick: linear in the stretch, plus the damper */
    assert_int_equal(mech_dock_axial_trial(f.a, (s0 + d) * i, 0, F, &o, &e), HY_OK);
    assert_near(o.f_screw, kt * d, 1e-9 * kt * d);
    assert_near(o.e_screw, 0.5 * kt * d * d, 1e-9 * kt * d * d);
    assert_near(o.p_screw, 0, 0);
    assert_int_equal(mech_dock_axial_trial(f.a, (s0 + d) * i, 1e-3 * i, F, &o, &e), HY_OK);
    assert_near(o.f_screw, kt * d + ct * 1e-3, 1e-9 * lim);
    assert_near(o.p_screw, o.f_screw * 1e-3, 1e-12);
    /* slip: the Coulomb limit k |f|, the stretch at lim / kt; the committed anchor is dragged */
    step_to(f.a, s0 + 1e-3, 0, F, &o);
    assert_near(o.f_screw, lim, 1e-12 * lim);
    assert_near(o.e_screw, 0.5 * lim * lim / kt, 1e-12);
    /* back by 2e-5 m: stuck on the dragged anchor, the spring relaxes by kt 2e-5 */
    assert_int_equal(mech_dock_axial_trial(f.a, (s0 + 1e-3 - 2e-5) * i, 0, F, &o, &e), HY_OK);
    assert_near(o.f_screw, lim - kt * 2e-5, 1e-9 * lim);
    /* back by 1e-4 m: slips the other way; a pull of the same size has the same limit */
    assert_int_equal(mech_dock_axial_trial(f.a, (s0 + 1e-3 - 1e-4) * i, 0, F, &o, &e), HY_OK);
    assert_near(o.f_screw, -lim, 1e-12 * lim);
    assert_int_equal(mech_dock_axial_trial(f.a, (s0 + 1e-3 - 1e-4) * i, 0, -F, &o, &e), HY_OK);
    assert_near(o.f_screw, -lim, 1e-12 * lim);
    /* held: a nut that stays put under a load below the limit keeps its friction (no creep, whatever the time) */
    step_to(f.a, s0 + 1e-3 - 2e-5, 0, F, &o);
    double f_held = o.f_screw;
    for (int k = 0; k < 1000; k++)
        step_to(f.a, s0 + 1e-3 - 2e-5, 0, F, &o);
    assert_near(o.f_screw, f_held, 0);
    drop(&f);
}

/* no allocation in trial + commit (counted by bench_alloc.h's interposer; 0 by construction under ASan) */
static void no_allocation(void **st)
{
    (void)st;
    for (int variant = 0; variant < 2; variant++) {
        fixture f;
        make(&f, variant);
        double i = mech_dock_axial_ratio(f.a);
        mech_dock_axial_out o;
        hy_err e;
        long n0 = n_alloc;
        for (int k = 0; k < 20000; k++) {
            double s = 0.2 * sin(1e-3 * k) + 0.12, v = 2e-4 * cos(1e-3 * k);
            assert_int_equal(mech_dock_axial_trial(f.a, s * i, v * i, 2000, &o, &e), HY_OK);
            if (k % 3)
                mech_dock_axial_commit(f.a);
            else
                mech_dock_axial_revert(f.a);
        }
        assert_int_equal(n_alloc, n0);
        drop(&f);
    }
}

/* invariants over 100 000 random trials (jumps of any size and sign, rates of either sign, commit or revert): finite
 * outputs, the chain force within the brake levels, B's slips within their limits and s = q_gear + s1 + s2, every
 * dissipated power >= 0, the stop's and the screw's stick energy >= 0, the screw friction within k |f| */
static void random_walk_invariants(void **st)
{
    (void)st;
    for (int variant = 0; variant < 2; variant++) {
        fixture f;
        make(&f, variant);
        double i = mech_dock_axial_ratio(f.a), s = 0;
        unsigned long long x = 88172645463325252ull;
        mech_dock_axial_out o;
        hy_err e;
        for (int n = 0; n < 100000; n++) {
            double u[3];
            for (int j = 0; j < 3; j++) { /* xorshift64 */
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                u[j] = (double)(x >> 11) / 9007199254740992.0;
            }
            double sn = fmin(fmax(s + (u[0] - 0.5) * (u[2] < 0.1 ? 0.3 : 0.01), -0.1), 0.4);
            double v = (u[1] - 0.5) * 0.6, fh = (u[2] - 0.3) * 1e4;
            assert_int_equal(mech_dock_axial_trial(f.a, sn * i, v * i, fh, &o, &e), HY_OK);
            assert_true(isfinite(o.phidd) && isfinite(o.force) && isfinite(o.slip1) && isfinite(o.slip2));
            assert_true(o.force >= -6000 * (1 + 1e-9) && o.force <= 5000 * (1 + 1e-9));
            assert_true(o.p_brakes >= 0 && o.p_magnetic >= 0 && o.p_damping >= 0 && o.e_stop >= 0 && o.e_screw >= 0);
            /* the screw friction within its Coulomb limit (the §2.1 flag), whatever the jump */
            assert_true(fabs(o.f_screw) <= 0.05 * fabs(fh) * (1 + 1e-12));
            if (variant == MECH_DOCK_B) {
                assert_true(o.slip1 >= 0 && o.slip1 <= 0.25);
                assert_near(o.slip1 + o.slip2 + o.q_el, sn, 1e-12);
            }
            if (u[2] < 0.67) {
                mech_dock_axial_commit(f.a);
                s = sn;
            } else {
                mech_dock_axial_revert(f.a);
            }
        }
        drop(&f);
    }
}

/* bad parameters refused, the message naming the key */
static void expect_refused(const mech_dock_axial_params *p, const char *key)
{
    mech_dock_axial *a = NULL;
    hy_err e;
    int rc = mech_dock_axial_new(p, &a, &e);
    assert_int_equal(rc, HY_EMODEL);
    assert_null(a);
    if (strncmp(e.msg, key, strlen(key)) != 0)
        fail_msg("expected '%s...', got '%s'", key, e.msg);
    assert_null(strchr(e.msg, '\n'));
}

static void bad_params(void **st)
{
    (void)st;
    hy_model A, B;
    load_law("axial-A.json", &A);
    load_law("gear-B.json", &B);
    mech_dock_axial_params p;
    mech_dock_axial_params_rp1(&p, MECH_DOCK_B);
    p.gear.model = &B;
    p.frt1_push = -1;
    expect_refused(&p, "axial.frt1_push: ");
    p.frt1_push = 7000;
    expect_refused(&p, "axial.frt2_push: ");
    p.frt1_push = 1250, p.frt1_stroke = NAN;
    expect_refused(&p, "axial.frt1_stroke: ");
    p.frt1_stroke = 0.25, p.lead = 0;
    expect_refused(&p, "axial.lead: ");
    p.lead = 0.012, p.screw_friction = 1.5;
    expect_refused(&p, "axial.screw_friction: ");
    p.screw_friction = 0.05, p.stop_restitution = 0;
    expect_refused(&p, "axial.stop_restitution: ");
    p.stop_restitution = 0.3, p.gear.model = &A;
    expect_refused(&p, "axial.gear: ");                  /* friction kind where the brakes are separate */
    p.gear.model = NULL;
    expect_refused(&p, "axial.gear: ");
    p.gear.model = &B, p.gear.q_scale = 0;
    expect_refused(&p, "axial.gear.q_scale: ");
    mech_dock_axial_params_rp1(&p, MECH_DOCK_A);
    p.chain.model = &B;
    expect_refused(&p, "axial.chain: ");                 /* A needs the friction kind */
    p.chain.model = &A;
    p.magnetic.x[2] = 0.2;
    expect_refused(&p, "axial.magnetic.x[2]: ");
    mech_dock_axial_params_rp1(&p, MECH_DOCK_A);
    p.chain.model = &A;
    p.magnetic.y[0] = 50;
    expect_refused(&p, "axial.magnetic");
    p.magnetic.y[0] = 0, p.variant = 7;
    expect_refused(&p, "axial.variant: ");
    hy_model_free(&A);
    hy_model_free(&B);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_eval),
        cmocka_unit_test(chain_a_static),
        cmocka_unit_test(chain_b_static),
        cmocka_unit_test(chain_b_one_step),
        cmocka_unit_test(chain_b_kin_law),
        cmocka_unit_test(impact_s1),
        cmocka_unit_test(impact_s5),
        cmocka_unit_test(energy_balance),
        cmocka_unit_test(rig_plateaus),
        cmocka_unit_test(trial_commit_revert),
        cmocka_unit_test(stop_restitution),
        cmocka_unit_test(screw_stick),
        cmocka_unit_test(no_allocation),
        cmocka_unit_test(random_walk_invariants),
        cmocka_unit_test(bad_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

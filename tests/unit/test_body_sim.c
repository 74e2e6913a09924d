/* The whole-system integrator (mech/body.h, mech_body_sim_*): conservation with internal forces only (exact
 * momentum balance of the accelerations, momentum drift per RK4 step, energy drift of order h^4), closed forms
 * (torque-free axisymmetric body, spring pendulum on a free base), the trial/commit/revert call sequence, and the
 * integrator's error messages. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "test_body_util.h"

/* ---- internal forces: joint springs and dampers, and springs between material points of two bodies ---- */
typedef struct spring {
    int       a, b;        /* body ids                                                   */
    mech_vec3 pa, pb;      /* attachment points in each body's frame                     */
    double    k, c, L0;    /* N/m, N s/m, m                                              */
} spring;

typedef struct forces {
    double  kq, cq;        /* joint springs and dampers on every joint                   */
    int     nspring;
    spring  s[4];
} forces;

static int internal_forces(const mech_body_model *m, mech_body_data *d, void *user, hy_err *err)
{
    (void)err;
    const forces *F = user;
    for (int j = 0; j < mech_body_model_n(m); j++)
        d->tau[j] -= F->kq * d->q[j] + F->cq * d->qd[j];
    for (int k = 0; k < F->nspring; k++) {
        const spring *s = &F->s[k];
        mech_vec3 xa = mech_body_point_world(m, d, s->a, s->pa), xb = mech_body_point_world(m, d, s->b, s->pb);
        mech_vec3 va = mech_body_point_velocity(m, d, s->a, s->pa), vb = mech_body_point_velocity(m, d, s->b, s->pb);
        mech_vec3 dx = mech_vec3_sub(xa, xb);
        double L = mech_vec3_norm(dx);
        mech_vec3 u = mech_vec3_scale(dx, 1.0 / L);
        double fn = -s->k * (L - s->L0) - s->c * mech_vec3_dot(u, mech_vec3_sub(va, vb));
        mech_vec3 f = mech_vec3_scale(u, fn); /* on a, at xa; -f on b at xb */
        mech_body_apply_world_force(m, d, s->a, xa, f);
        mech_body_apply_world_force(m, d, s->b, xb, mech_vec3_neg(f));
    }
    return HY_OK;
}

static double potential(const mech_body_model *m, const mech_body_data *d, const forces *F)
{
    double V = 0;
    for (int j = 0; j < mech_body_model_n(m); j++)
        V += 0.5 * F->kq * d->q[j] * d->q[j];
    for (int k = 0; k < F->nspring; k++) {
        const spring *s = &F->s[k];
        double L = mech_vec3_norm(mech_vec3_sub(mech_body_point_world(m, d, s->a, s->pa),
                                                mech_body_point_world(m, d, s->b, s->pb)));
        V += 0.5 * s->k * (L - s->L0) * (L - s->L0);
    }
    return V;
}

/* A floating 5-body random tree, two free bodies, joint springs and two springs: tree body 3 - free body 0 and
 * the base - free body 1. */
static void make_system(hy_rng *r, mech_body_model **m, forces *F, double damping, double stiffness)
{
    mech_body_def def;
    static mech_body_joint_def J[5];
    static mech_body_free_def fb[2];
    hy_err err;
    for (;;) {
        tb_random_tree(r, 5, &def, J, MECH_BODY_FLOATING);
        for (int k = 0; k < 2; k++) {
            fb[k].name = k ? "passive-b" : "passive-a";
            fb[k].mass = tb_u(r, 2.0, 8.0);
            fb[k].inertia = tb_inertia_com(r, fb[k].mass);
        }
        def.free = fb;
        def.nfree = 2;
        if (mech_body_model_new(&def, m, &err) == HY_OK)
            break;
    }
    F->kq = 20.0 * stiffness;
    F->cq = damping;
    F->nspring = 2;
    /* the draws one per statement: an initializer list's order is unspecified */
    mech_vec3 a0 = tb_vec(r, 0.3), b0 = tb_vec(r, 0.3), a1 = tb_vec(r, 0.3), b1 = tb_vec(r, 0.3);
    F->s[0] = (spring){3, 6, a0, b0, 200.0 * stiffness, damping, 0.5};
    F->s[1] = (spring){0, 7, a1, b1, 150.0 * stiffness, damping, 0.4};
}

/* y with random positions, attitudes, rates; free bodies placed near their spring partners */
static void random_y(hy_rng *r, const mech_body_model *m, double *y)
{
    mech_body_data *d = NULL;
    hy_err err;
    assert_int_equal(mech_body_data_new(m, &d, &err), HY_OK);
    tb_random_state(r, m, d);
    for (int j = 0; j < mech_body_model_n(m); j++)
        d->q[j] *= 0.3;
    mech_body_get_state(m, d, y);
    mech_body_data_free(d);
}

/* (data after forward) => dP/dt and dL/dt (about the world origin) from the accelerations, and a scale */
static void momentum_rate(const mech_body_model *m, const mech_body_data *d, mech_vec3 *dP, mech_vec3 *dL,
                          double *scale)
{
    const mech_body_def *def = mech_body_model_def(m);
    int n = def->n, nb = mech_body_model_nbody(m);
    *dP = *dL = mech_vec3_zero();
    *scale = 0;
    for (int id = 0; id < nb; id++) {
        double mass;
        mech_vec3 dcom;
        mech_mat3 Ic;
        if (id == 0) {
            mass = def->base.mass; dcom = def->base.com;
            Ic = mech_mat3_sub(def->base.inertia, mech_mat3_sub(tb_about_origin(mech_mat3_zero(), mass, dcom),
                                                                mech_mat3_zero()));
        } else if (id <= n) {
            mass = def->joints[id - 1].mass; dcom = def->joints[id - 1].com;
            Ic = mech_mat3_sub(def->joints[id - 1].inertia, tb_about_origin(mech_mat3_zero(), mass, dcom));
        } else {
            mass = def->free[id - n - 1].mass; dcom = mech_vec3_zero(); Ic = def->free[id - n - 1].inertia;
        }
        mech_vec3 w = d->omega[id], al = d->alpha[id];
        mech_vec3 ac = mech_vec3_add(mech_vec3_add(d->acc[id], mech_vec3_cross(al, dcom)),
                                     mech_vec3_cross(w, mech_vec3_cross(w, dcom)));
        mech_vec3 acw = mech_mat3_apply(d->xmat[id], ac);
        mech_vec3 cw = mech_body_point_world(m, d, id, dcom);
        mech_vec3 Fi = mech_vec3_scale(acw, mass);
        mech_vec3 Hd = mech_mat3_apply(d->xmat[id], mech_vec3_add(mech_mat3_apply(Ic, al),
                                                                  mech_vec3_cross(w, mech_mat3_apply(Ic, w))));
        *dP = mech_vec3_add(*dP, Fi);
        *dL = mech_vec3_add(*dL, mech_vec3_add(mech_vec3_cross(cw, Fi), Hd));
        *scale += mech_vec3_norm(Fi) * (1.0 + mech_vec3_norm(cw)) + mech_vec3_norm(Hd);
    }
}

static void momentum_balance_is_exact_with_internal_forces(void **state)
{
    (void)state;
    hy_rng r;
    hy_rng_seed(&r, 31u, 0);
    double worst = 0;
    for (int trial = 0; trial < 50; trial++) {
        mech_body_model *m = NULL;
        forces F;
        make_system(&r, &m, &F, 3.0, 1.0);
        mech_body_sim *s = NULL;
        hy_err err;
        mech_body_sim_opts o = {1e-3, internal_forces, NULL, NULL, &F, 0};
        assert_int_equal(mech_body_sim_new(m, &o, &s, &err), HY_OK);
        mech_body_layout L = mech_body_model_layout(m);
        double y[64];
        random_y(&r, m, y);
        assert_int_equal(mech_body_sim_start(s, 0.0, y, &err), HY_OK);
        mech_vec3 dP, dL;
        double scale;
        momentum_rate(m, mech_body_sim_data(s), &dP, &dL, &scale);
        worst = fmax(worst, (mech_vec3_norm(dP) + mech_vec3_norm(dL)) / scale);
        (void)L;
        mech_body_sim_free(s);
        mech_body_model_free(m);
    }
    printf("internal forces only: max |dP/dt| + |dL/dt| relative to the body terms: %.3g\n", worst);
    assert_true(worst < 1e-13);
}

static void momentum_drift_per_step_is_round_off(void **state)
{
    (void)state;
    hy_rng r;
    hy_rng_seed(&r, 32u, 0);
    mech_body_model *m = NULL;
    forces F;
    make_system(&r, &m, &F, 3.0, 1.0);
    mech_body_sim *s = NULL;
    hy_err err;
    mech_body_sim_opts o = {1e-4, internal_forces, NULL, NULL, &F, 0};
    assert_int_equal(mech_body_sim_new(m, &o, &s, &err), HY_OK);
    double y[64];
    random_y(&r, m, y);
    assert_int_equal(mech_body_sim_start(s, 0.0, y, &err), HY_OK);
    mech_vec3 P0, L0, P, L;
    mech_body_momentum(m, mech_body_sim_data(s), &P0, &L0);
    /* scale: the momenta of the bodies themselves */
    double Ps = 0, Ls = 0;
    {
        const mech_body_data *d = mech_body_sim_data(s);
        for (int id = 0; id < mech_body_model_nbody(m); id++) {
            Ps += mech_vec3_norm(d->xvel[id]) * 10.0;
            Ls += mech_vec3_norm(d->xomega[id]) * 10.0 + mech_vec3_norm(d->pos[id]) * mech_vec3_norm(d->xvel[id]) * 10.0;
        }
    }
    double worst_step = 0, t = 0;
    mech_vec3 Pp = P0, Lp = L0;
    for (int k = 0; k < 2000; k++) {
        t += 1e-4;
        assert_int_equal(mech_body_sim_advance(s, t, &err), HY_OK);
        mech_body_momentum(m, mech_body_sim_data(s), &P, &L);
        double e = mech_vec3_norm(mech_vec3_sub(P, Pp)) / Ps + mech_vec3_norm(mech_vec3_sub(L, Lp)) / Ls;
        worst_step = fmax(worst_step, e);
        Pp = P;
        Lp = L;
    }
    double total = mech_vec3_norm(mech_vec3_sub(P, P0)) / Ps + mech_vec3_norm(mech_vec3_sub(L, L0)) / Ls;
    printf("momentum change per RK4 step (h = 1e-4 s): max %.3g relative; after 2000 steps %.3g\n", worst_step, total);
    assert_true(worst_step < 1e-13);
    mech_body_sim_free(s);
    mech_body_model_free(m);
}

/* (model, forces, y0, h, T) => |E(T) - E(0)| / E(0) with RK4 steps of h, conservative forces */
static double energy_error(const mech_body_model *m, forces *F, const double *y0, double h, double T)
{
    mech_body_sim *s = NULL;
    hy_err err;
    mech_body_sim_opts o = {h, internal_forces, NULL, NULL, F, 0};
    assert_int_equal(mech_body_sim_new(m, &o, &s, &err), HY_OK);
    assert_int_equal(mech_body_sim_start(s, 0.0, y0, &err), HY_OK);
    double E0 = mech_body_kinetic_energy(m, mech_body_sim_data(s)) + potential(m, mech_body_sim_data(s), F);
    assert_int_equal(mech_body_sim_advance(s, T, &err), HY_OK);
    double E1 = mech_body_kinetic_energy(m, mech_body_sim_data(s)) + potential(m, mech_body_sim_data(s), F);
    mech_body_sim_free(s);
    return fabs(E1 - E0) / E0;
}

static void energy_drift_shrinks_as_h4(void **state)
{
    (void)state;
    hy_rng r;
    hy_rng_seed(&r, 33u, 0);
    mech_body_model *m = NULL;
    forces F;
    make_system(&r, &m, &F, 0.0, 0.1);
    double y[64];
    random_y(&r, m, y);
    double h[4] = {0.004, 0.002, 0.001, 0.0005}, e[4];
    for (int k = 0; k < 4; k++)
        e[k] = energy_error(m, &F, y, h[k], 1.0);
    for (int k = 1; k < 4; k++) {
        double order = log2(e[k - 1] / e[k]);
        printf("energy error at t = 1 s: h = %g s: %.3g, h = %g s: %.3g, measured order %.2f\n", h[k - 1], e[k - 1],
               h[k], e[k], order);
        if (k >= 2)
            assert_true(order > 3.9 && order < 4.1);
    }
    mech_body_model_free(m);
}

/* Torque-free axisymmetric body, I = diag(I1, I1, I3), ω(0) = (w⊥, 0, w3) body frame: ω1 = w⊥ cos λt,
 * ω2 = w⊥ sin λt, ω3 = w3, λ = (I3 - I1) w3 / I1 (body-frame precession); in space the symmetry axis turns about
 * the constant L at |L| / I1. */
static void torque_free_axisymmetric_body_precesses_at_the_closed_form_rate(void **state)
{
    (void)state;
    const double I1 = 2.0, I3 = 3.5, wp = 0.8, w3 = 2.5, T = 3.0;
    mech_body_free_def fb = {"top", 5.0, {{{I1, 0, 0}, {0, I1, 0}, {0, 0, I3}}}};
    mech_body_def def = {0};
    def.base.mass = 1.0;
    def.base.inertia = mech_mat3_diag(1, 1, 1);
    def.free = &fb;
    def.nfree = 1;
    mech_body_model *m = NULL;
    mech_body_sim *s = NULL;
    hy_err err;
    assert_int_equal(mech_body_model_new(&def, &m, &err), HY_OK);
    mech_body_sim_opts o = {1e-3, NULL, NULL, NULL, NULL, 0};
    assert_int_equal(mech_body_sim_new(m, &o, &s, &err), HY_OK);
    mech_body_layout L = mech_body_model_layout(m);
    double y[32] = {0};
    y[L.base_quat] = 1;
    y[L.free_pos + 3] = 1;
    y[L.free_vel + 3] = wp;
    y[L.free_vel + 5] = w3;
    assert_int_equal(mech_body_sim_start(s, 0.0, y, &err), HY_OK);
    mech_vec3 Lw0 = mech_vec3_make(I1 * wp, 0, I3 * w3); /* world = body at t = 0 */
    double lambda = (I3 - I1) * w3 / I1, Omega = mech_vec3_norm(Lw0) / I1;
    mech_vec3 u = mech_vec3_normalize(Lw0), z0 = mech_vec3_unit(2);
    double worst_w = 0, worst_axis = 0;
    for (int k = 1; k <= 30; k++) {
        double t = T * k / 30;
        assert_int_equal(mech_body_sim_advance(s, t, &err), HY_OK);
        const mech_body_data *d = mech_body_sim_data(s);
        mech_vec3 w = d->omega[1];
        worst_w = fmax(worst_w, mech_vec3_norm(mech_vec3_sub(w, mech_vec3_make(wp * cos(lambda * t),
                                                                                wp * sin(lambda * t), w3))));
        /* symmetry axis in space: z0 turned about u by Ω t (Rodrigues) */
        mech_vec3 za = mech_mat3_col(d->xmat[1], 2);
        mech_vec3 zc = mech_quat_rotate(mech_quat_from_axis_angle(u, Omega * t), z0);
        worst_axis = fmax(worst_axis, mech_vec3_norm(mech_vec3_sub(za, zc)));
    }
    printf("torque-free top: max |ω - closed form| = %.3g rad/s, max |axis - closed form| = %.3g over %g s\n",
           worst_w, worst_axis, T);
    assert_true(worst_w < 1e-9);
    assert_true(worst_axis < 1e-9);
    mech_body_sim_free(s);
    mech_body_model_free(m);
}

/* A torsion-spring pendulum on a free base in space (planar motion): base of inertia J about its CoM at the hinge,
 * pendulum of mass m, CoM at l, inertia I_c about its CoM; two-body reduction: the relative angle oscillates at
 * ω² = k (1/J + 1/(I_c + μ l²)), μ = M m / (M + m), at any amplitude. */
static void spring_pendulum_on_a_free_base_has_the_reduced_mass_frequency(void **state)
{
    (void)state;
    const double M = 40.0, J = 3.0, mp = 6.0, l = 0.7, Icp = 0.05, k = 500.0, q0 = 0.6;
    mech_body_joint_def jd = {"pendulum", 0, MECH_BODY_REVOLUTE, 2, {0, 0, 0}, {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}},
                              mp, {l, 0, 0}, {{{0.02, 0, 0}, {0, Icp + mp * l * l, 0}, {0, 0, Icp + mp * l * l}}}};
    mech_body_def def = {0};
    def.base.mass = M;
    def.base.inertia = mech_mat3_diag(J, J, J);
    def.n = 1;
    def.joints = &jd;
    mech_body_model *m = NULL;
    mech_body_sim *s = NULL;
    hy_err err;
    assert_int_equal(mech_body_model_new(&def, &m, &err), HY_OK);
    forces F = {k, 0.0, 0, {{0}}};
    mech_body_sim_opts o = {2e-4, internal_forces, NULL, NULL, &F, 0};
    assert_int_equal(mech_body_sim_new(m, &o, &s, &err), HY_OK);
    mech_body_layout L = mech_body_model_layout(m);
    double y[32] = {0};
    y[L.base_quat] = 1;
    y[L.q] = q0;
    assert_int_equal(mech_body_sim_start(s, 0.0, y, &err), HY_OK);
    double mu = M * mp / (M + mp), w = sqrt(k * (1.0 / J + 1.0 / (Icp + mu * l * l))), period = 2 * M_PI / w;
    /* upward zero crossings of q, located by linear interpolation between steps */
    double t = 0, qprev = q0, first = -1, last = -1;
    int crossings = 0;
    while (t < 10 * period) {
        t += 2e-4;
        assert_int_equal(mech_body_sim_advance(s, t, &err), HY_OK);
        double q = mech_body_sim_state(s)[L.q];
        if (qprev < 0 && q >= 0) {
            double tc = t - 2e-4 * q / (q - qprev);
            if (first < 0)
                first = tc;
            last = tc;
            crossings++;
        }
        qprev = q;
    }
    double measured = (last - first) / (crossings - 1);
    printf("spring pendulum on a free base: period %.9f s, closed form %.9f s (relative %.2g)\n", measured, period,
           fabs(measured / period - 1));
    assert_true(crossings >= 9);
    assert_true(fabs(measured / period - 1) < 1e-6);
    mech_body_sim_free(s);
    mech_body_model_free(m);
}

/* ---- trial / commit / revert: a stick-slip (Jenkins) element between the base and a free body, written with the
 * discipline: trial from the committed anchor in the stages, commit at accepted steps, revert after stages ---- */
typedef struct jenkins {
    double anchor, anchor_trial;     /* slider position (committed, trial)                             */
    double k, fmax;
    int    n_force, n_commit, n_revert;
    double t_last_force, t_last_commit;
} jenkins;

static int jenkins_force(const mech_body_model *m, mech_body_data *d, void *user, hy_err *err)
{
    (void)err;
    jenkins *J = user;
    int fb = mech_body_free_id(m, 0);
    double x = d->pos[fb].x - d->pos[0].x; /* relative displacement along x */
    double f = J->k * (x - J->anchor);
    J->anchor_trial = J->anchor;
    if (fabs(f) > J->fmax) { /* slip: the anchor follows */
        J->anchor_trial = x - copysign(J->fmax, f) / J->k;
        f = copysign(J->fmax, f);
    }
    mech_body_apply_world_force(m, d, fb, d->pos[fb], mech_vec3_make(-f, 0, 0));
    mech_body_apply_world_force(m, d, 0, d->pos[0], mech_vec3_make(f, 0, 0));
    J->n_force++;
    J->t_last_force = d->t;
    return HY_OK;
}
static int jenkins_commit(const mech_body_model *m, const mech_body_data *d, void *user, hy_err *err)
{
    (void)m;
    (void)err;
    jenkins *J = user;
    J->anchor = J->anchor_trial;
    J->n_commit++;
    J->t_last_commit = d->t;
    return HY_OK;
}
static void jenkins_revert(void *user)
{
    jenkins *J = user;
    J->anchor_trial = J->anchor;
    J->n_revert++;
}

static void trial_commit_revert_sequence(void **state)
{
    (void)state;
    mech_body_free_def fb = {"block", 2.0, {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}};
    mech_body_def def = {0};
    def.base.mass = 10.0;
    def.base.inertia = mech_mat3_diag(1, 1, 1);
    def.free = &fb;
    def.nfree = 1;
    mech_body_model *m = NULL;
    mech_body_sim *s = NULL;
    hy_err err;
    assert_int_equal(mech_body_model_new(&def, &m, &err), HY_OK);
    jenkins J = {0, 0, 1000.0, 5.0, 0, 0, 0, 0, 0};
    mech_body_sim_opts o = {1e-3, jenkins_force, jenkins_commit, jenkins_revert, &J, 0};
    assert_int_equal(mech_body_sim_new(m, &o, &s, &err), HY_OK);
    mech_body_layout L = mech_body_model_layout(m);
    double y[32] = {0};
    y[L.base_quat] = 1;
    y[L.free_pos + 3] = 1;
    y[L.free_vel] = 1.0; /* the block slides off: the slider slips, then sticks and rings */
    assert_int_equal(mech_body_sim_start(s, 0.0, y, &err), HY_OK);
    assert_int_equal(J.n_commit, 1);
    assert_int_equal(mech_body_sim_advance(s, 0.5, &err), HY_OK);
    /* 500 steps: 4 stages + 1 evaluation at the accepted state each; one commit and one revert per step */
    assert_int_equal(mech_body_sim_steps(s), 500);
    assert_int_equal(J.n_force, 1 + 500 * 5);
    assert_int_equal(J.n_commit, 1 + 500);
    assert_int_equal(J.n_revert, 500);
    assert_true(fabs(J.t_last_commit - 0.5) < 1e-12 && fabs(J.t_last_force - 0.5) < 1e-12);
    /* the slider slipped (the anchor moved) and momentum is shared: total x momentum stays 2.0 kg m/s */
    assert_true(J.anchor > 0.001);
    mech_vec3 P, Lm;
    mech_body_momentum(m, mech_body_sim_data(s), &P, &Lm);
    assert_true(fabs(P.x - 2.0) < 1e-12);
    mech_body_sim_free(s);
    mech_body_model_free(m);
}

static int failing_force(const mech_body_model *m, mech_body_data *d, void *user, hy_err *err)
{
    (void)m;
    (void)user;
    if (d->t > 0.0105)
        return hy_err_set(err, HY_ESTATE, "contact 2 (head-cone): penetration 0.3 m exceeds the limit");
    return HY_OK;
}

static int nan_force(const mech_body_model *m, mech_body_data *d, void *user, hy_err *err)
{
    (void)m;
    (void)user;
    (void)err;
    if (d->t > 0.0205)
        d->f_ext[0].x = NAN; /* a force law gone wrong */
    return HY_OK;
}

static void integrator_errors_name_the_time(void **state)
{
    (void)state;
    mech_body_def def = {0};
    def.base.mass = 1.0;
    def.base.inertia = mech_mat3_diag(1, 1, 1);
    mech_body_model *m = NULL;
    mech_body_sim *s = NULL;
    hy_err err;
    assert_int_equal(mech_body_model_new(&def, &m, &err), HY_OK);
    mech_body_sim_opts bad = {0.0, NULL, NULL, NULL, NULL, 0};
    assert_int_equal(mech_body_sim_new(m, &bad, &s, &err), HY_EARG);
    assert_non_null(strstr(err.msg, "step 0 s"));
    mech_body_sim_opts badtol = {1e-3, NULL, NULL, NULL, NULL, -1e-6};
    assert_int_equal(mech_body_sim_new(m, &badtol, &s, &err), HY_EARG);
    assert_non_null(strstr(err.msg, "tolerance -1e-06"));
    mech_body_sim_opts o = {1e-3, failing_force, NULL, NULL, NULL, 0};
    assert_int_equal(mech_body_sim_new(m, &o, &s, &err), HY_OK);
    double y[13] = {0};
    y[3] = NAN;
    assert_int_equal(mech_body_sim_start(s, 0.0, y, &err), HY_EARG);
    assert_non_null(strstr(err.msg, "component 3 is not finite"));
    y[3] = 1;
    assert_int_equal(mech_body_sim_start(s, 0.0, y, &err), HY_OK);
    assert_int_equal(mech_body_sim_advance(s, 1.0, &err), HY_ESTATE);
    printf("error: %s\n", err.msg);
    assert_non_null(strstr(err.msg, "t = 0.01 s"));
    assert_non_null(strstr(err.msg, "contact 2 (head-cone): penetration"));
    assert_true(fabs(mech_body_sim_time(s) - 0.01) < 1e-12); /* the state stays at the last accepted step */
    mech_body_sim_free(s);
    /* a non-finite state is refused before it is committed */
    mech_body_sim_opts on = {1e-3, nan_force, NULL, NULL, NULL, 0};
    assert_int_equal(mech_body_sim_new(m, &on, &s, &err), HY_OK);
    assert_int_equal(mech_body_sim_start(s, 0.0, y, &err), HY_OK);
    assert_int_equal(mech_body_sim_advance(s, 1.0, &err), HY_ENUMERIC);
    printf("error: %s\n", err.msg);
    assert_non_null(strstr(err.msg, "t = 0.02 s (step to 0.021 s): state component"));
    assert_true(isfinite(mech_body_sim_state(s)[7]));
    mech_body_sim_free(s);
    mech_body_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(momentum_balance_is_exact_with_internal_forces),
        cmocka_unit_test(momentum_drift_per_step_is_round_off),
        cmocka_unit_test(energy_drift_shrinks_as_h4),
        cmocka_unit_test(torque_free_axisymmetric_body_precesses_at_the_closed_form_rate),
        cmocka_unit_test(spring_pendulum_on_a_free_base_has_the_reduced_mass_frequency),
        cmocka_unit_test(trial_commit_revert_sequence),
        cmocka_unit_test(integrator_errors_name_the_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

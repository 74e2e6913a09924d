/* Shared by the body tests (tests/unit/test_body_*.c): the floating-base 5-body chain of spec 001 §1.6 with the
 * RP-1 mass properties of spec 001-reference-parameters §2.1/§2.4, and seeded random trees, states and loads. */
#ifndef TEST_BODY_UTIL_H
#define TEST_BODY_UTIL_H

#include <math.h>
#include <string.h>
#include "hyst/noise.h"
#include "mech/body.h"

/* (I about the CoM, mass, CoM offset) => inertia about the origin (parallel axes) */
static inline mech_mat3 tb_about_origin(mech_mat3 Ic, double m, mech_vec3 d)
{
    double dd = mech_vec3_dot(d, d);
    return mech_mat3_add(Ic, mech_mat3_scale(mech_mat3_sub(mech_mat3_scale(mech_mat3_identity(), dd),
                                                           mech_mat3_outer(d, d)), m));
}

/* The central chain of spec 001 §1.6 (RP-1 numbers): base = the 20 t active module, origin at the universal-joint
 * centre, x along the probe; body 1 UJ axis 1 (about z, massless), body 2 housing (UJ axis 2, about y; 25 kg,
 * CoM 0.275 m, 3.0/0.3 kg m^2 about the UJ), bodies 3-5 at the probe exit 0.55 m: torsion about x (massless),
 * bending about y (massless), bending about z with probe + head (9 kg, CoM 0.3667 m, 1.5/0.02 kg m^2). */
static inline void tb_spec_chain(mech_body_def *def, mech_body_joint_def J[5], int base_mode)
{
    memset(def, 0, sizeof *def);
    memset(J, 0, 5 * sizeof *J);
    def->base_mode = base_mode;
    def->base.mass = 20000.0;
    def->base.com = mech_vec3_make(-6.55, 0, 0);
    def->base.inertia = tb_about_origin(mech_mat3_diag(6.0e4, 3.2e5, 3.2e5), 20000.0, def->base.com);
    const char *names[5] = {"uj-1", "housing", "probe-torsion", "probe-bend-y", "probe"};
    int axes[5] = {2, 1, 0, 1, 2};
    for (int k = 0; k < 5; k++) {
        J[k].name = names[k];
        J[k].parent = k;
        J[k].type = MECH_BODY_REVOLUTE;
        J[k].axis = axes[k];
        J[k].mount = mech_mat3_identity();
    }
    J[1].mass = 25.0;
    J[1].com = mech_vec3_make(0.275, 0, 0);
    J[1].inertia = mech_mat3_diag(0.3, 3.0, 3.0);
    J[2].offset = mech_vec3_make(0.55, 0, 0);
    J[4].mass = 9.0;
    J[4].com = mech_vec3_make(3.3 / 9.0, 0, 0);
    J[4].inertia = mech_mat3_diag(0.02, 1.5, 1.5);
    def->n = 5;
    def->joints = J;
}

static inline double tb_u(hy_rng *r, double a, double b) { return a + (b - a) * hy_rng_uniform(r); }
static inline mech_vec3 tb_vec(hy_rng *r, double s)
{
    /* one draw per statement: the order of a call's arguments is unspecified (GCC and Clang differ), and the
       random trees must not depend on the compiler */
    double x = tb_u(r, -s, s), y = tb_u(r, -s, s), z = tb_u(r, -s, s);
    return mech_vec3_make(x, y, z);
}
static inline mech_quat tb_quat(hy_rng *r)
{
    double w = hy_rng_normal(r), x = hy_rng_normal(r), y = hy_rng_normal(r), z = hy_rng_normal(r);
    return mech_quat_normalize((mech_quat){w, x, y, z});   /* an initializer list's order is unspecified too */
}
/* a rigid mass distribution: a box a x b x c turned at random */
static inline mech_mat3 tb_inertia_com(hy_rng *r, double m)
{
    double a = tb_u(r, 0.05, 1.0), b = tb_u(r, 0.05, 1.0), c = tb_u(r, 0.05, 1.0);
    mech_mat3 D = mech_mat3_diag(m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12);
    return mech_mat3_congruence(mech_quat_to_mat3(tb_quat(r)), D);
}

/* A random tree of n bodies: random parents, revolute or prismatic about a random axis, offsets, mounting
 * rotations (identity for a third of the joints, to exercise the scalar shortcut), masses (every fourth
 * non-leaf massless), CoM offsets and inertias. */
static inline void tb_random_tree(hy_rng *r, int n, mech_body_def *def, mech_body_joint_def *J, int base_mode)
{
    memset(def, 0, sizeof *def);
    def->base_mode = base_mode;
    def->base.mass = tb_u(r, 1.0, 20.0);
    def->base.com = tb_vec(r, 0.5);
    def->base.inertia = tb_about_origin(tb_inertia_com(r, def->base.mass), def->base.mass, def->base.com);
    for (int k = 0; k < n; k++) {
        memset(&J[k], 0, sizeof J[k]);
        J[k].parent = (int)(hy_rng_uniform(r) * (k + 1)); /* 0..k */
        J[k].type = hy_rng_uniform(r) < 0.3 ? MECH_BODY_PRISMATIC : MECH_BODY_REVOLUTE;
        J[k].axis = (int)(hy_rng_uniform(r) * 3);
        J[k].offset = tb_vec(r, 0.6);
        J[k].mount = hy_rng_uniform(r) < 0.33 ? mech_mat3_identity() : mech_quat_to_mat3(tb_quat(r));
        J[k].mass = tb_u(r, 0.2, 5.0);
        J[k].com = tb_vec(r, 0.4);
        J[k].inertia = tb_about_origin(tb_inertia_com(r, J[k].mass), J[k].mass, J[k].com);
    }
    /* massless bodies only where a child follows on a different axis (the model refuses a zero I*) */
    for (int k = 0; k < n; k++) {
        int has_child = 0;
        for (int c = k + 1; c < n; c++)
            has_child |= J[c].parent == k + 1;
        if (has_child && k % 4 == 1) {
            J[k].mass = 0.0;
            J[k].com = mech_vec3_zero();
            J[k].inertia = mech_mat3_zero();
        }
    }
    def->n = n;
    def->joints = J;
}

/* random state, loads and joint forces */
static inline void tb_random_state(hy_rng *r, const mech_body_model *m, mech_body_data *d)
{
    int n = mech_body_model_n(m), nb = mech_body_model_nbody(m);
    for (int id = 0; id < nb; id++) {
        d->pos[id] = tb_vec(r, 2.0);
        d->quat[id] = tb_quat(r);
        d->vel[id] = tb_vec(r, 1.0);
        d->omega[id] = tb_vec(r, 2.0);
        d->f_ext[id] = tb_vec(r, 10.0);
        d->m_ext[id] = tb_vec(r, 5.0);
    }
    for (int j = 0; j < n; j++) {
        d->q[j] = tb_u(r, -3.0, 3.0);
        d->qd[j] = tb_u(r, -2.0, 2.0);
        d->tau[j] = tb_u(r, -5.0, 5.0);
    }
    d->base_acc_in = tb_vec(r, 3.0);
    d->base_alpha_in = tb_vec(r, 3.0);
}

#endif

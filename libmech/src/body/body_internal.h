/* Internal layout of the compiled body model (mech/body.h), shared by the body_*.c files and tests. */
#ifndef MECH_BODY_INTERNAL_H
#define MECH_BODY_INTERNAL_H

#include "mech/body.h"

struct mech_body_model {
    mech_body_def       def;       /* as given; joints/free point at the arrays below                         */
    int                 n, nf, nb; /* tree bodies, free bodies, 1 + n + nf                                     */
    int                 floating;  /* base_mode == MECH_BODY_FLOATING                                          */
    int                 has_gravity;
    mech_body_joint_def *joints;   /* n rows (owned copy)                                                      */
    mech_body_free_def  *free;     /* nf rows (owned copy)                                                     */
    char               **names;    /* nb names (owned)                                                         */
    /* per body id (nb entries): tree-body fields are meaningful for 1..n */
    int       *parent;             /* p(j); -1 for the base and free bodies                                    */
    int       *type, *axis;
    int       *mount_identity;     /* γ == 1₃ exactly: β = α (the scalar rotation shortcut applies)            */
    mech_mat3 *mount;              /* γ                                                                         */
    mech_vec3 *offset;             /* l                                                                         */
    int       *massless;           /* mass 0 and inertia 0 (fictitious body): no rigid-body terms             */
    int       *r_zero;             /* revolute joint at its parent's origin: r = 0 always (no shift)            */
    mech_vec3 *mount_axis;         /* γ^T e_i: the prismatic displacement direction in the parent frame         */
    double    *mass;
    mech_vec3 *com;                /* d (base and tree: from the origin; free bodies: zero)                     */
    mech_vec3 *c;                  /* c = m d                                                                    */
    mech_mat3 *inertia;            /* about the origin (base, tree) or the CoM (free), body frame               */
    mech_mat3 *inertia_inv;        /* free bodies: I^-1 (LAPACK at compile time)                                */
    mech_body_layout layout;
    size_t     data_bytes;
};

// (blocks of a symmetric positive definite 6x6 [[A, B], [B^T, C]], right side [f; mo]) => [a; al] by block
// elimination with closed-form 3x3 inverses; 0 when singular (body_aba_generic.c)
int mech_body_solve6(const mech_mat3 *A, const mech_mat3 *B, const mech_mat3 *C, mech_vec3 f, mech_vec3 mo,
                     mech_vec3 *a, mech_vec3 *al);
// the same in two parts: (A, B, C) => A^-1, A^-1 B, S^-1 (0 when singular); then (those, B, f, mo) => [a; al]
// (mech_body_solve6 is the two in a row: the same operations, the same results to the bit)
int mech_body_factor6(const mech_mat3 *A, const mech_mat3 *B, const mech_mat3 *C, double Ai[3][3], double AiB[3][3],
                      double Si[3][3]);
void mech_body_solve6_factored(const double Ai[3][3], const double AiB[3][3], const double Si[3][3],
                               const mech_mat3 *B, mech_vec3 f, mech_vec3 mo, mech_vec3 *a, mech_vec3 *al);
// root of the articulated-body algorithm, shared by both forms (body_aba_generic.c); 0 when singular
int mech_body_root(const mech_body_model *m, mech_body_data *d, const mech_mat3 *Ctt, const mech_mat3 *Ctr,
                   const mech_mat3 *Crr, mech_vec3 Cf, mech_vec3 Cm);
// (falling-frame accelerations) => true accelerations (+ R^T g)
void mech_body_gravity_fix(const mech_body_model *m, mech_body_data *d);
// the two halves of mech_body_kinematics: spec 001 §2.4 pass 1 in body frames (all the ABA needs when there is
// no gravity), and the world poses and velocities of every body (body_kin.c)
void mech_body_pass1(const mech_body_model *m, mech_body_data *d);
void mech_body_world(const mech_body_model *m, mech_body_data *d);
// the generic form of mech_body_aba: full 3x3 products everywhere (the tested reference of the shortcuts)
int mech_body_aba_generic(const mech_body_model *m, mech_body_data *d);

#endif

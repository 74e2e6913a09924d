/* Lateral damper internals (dock_lateral.c; docs/dock-lateral.md): the per-chain kinematics of spec 001 §2.3 that
 * the tests check against finite differences. Not part of the mech/dock.h contract. */
#ifndef MECH_DOCK_LATERAL_INTERNAL_H
#define MECH_DOCK_LATERAL_INTERNAL_H

#include "mech/dock.h"

/* One dependent chain at one configuration (3 chain coordinates p):
 *   U-P-S spring chain (k = 0, 1): p = (u1, u2, L): the two U-joint angles (rad) and the rod length (m);
 *   R-U-S brake chain  (k = 2, 3): p = (phi, u1, u2): the crank angle from neutral about brake_axis, then the
 *                                  two U-joint angles of the coupler at the crank tip (rad).
 * Eq. (2.3): pd = H omega_C, pdd = H omegad_C + h. Chain dynamics A pdd + vp = Q (+ cut-joint reactions). */
typedef struct mech_dock_lateral_kin {
    double p[3], pd[3];   /* chain coordinates and rates                                                       */
    double H[3][3];       /* eq. (2.3): [C^(d)]^-1 C^(i)                                                       */
    double h[3];          /* eq. (2.3): [C^(d)]^-1 c                                                           */
    double A[3][3];       /* generalised inertia A_k^(d)                                                       */
    double vp[3];         /* velocity-product terms (b_k = Q_k - vp)                                           */
    mech_vec3 s;          /* the S-joint centre, base frame, m                                                 */
    mech_vec3 tip;        /* spring: the U-joint centre; brake: the crank tip (U-joint centre), base frame, m  */
} mech_dock_lateral_kin;

// (lateral model, chain k 0..3, alpha_C, omega_C) => closure, H, h, A, vp of that chain; HY_ESTATE naming the
// chain when the loop cannot close. Allocates nothing.
int mech_dock_lateral_kin_eval(const mech_dock_lateral *l, int k, const mech_mat3 *alpha_C, mech_vec3 omega_C,
                               mech_dock_lateral_kin *o, hy_err *err);

// (lateral model, chain k, chain coordinates p) => the S-joint centre (base frame) where the chain's own joints put
// it: the forward kinematics, written independently of the closure (tests check closure residuals with it)
mech_vec3 mech_dock_lateral_kin_forward(const mech_dock_lateral *l, int k, const double p[3]);

#endif

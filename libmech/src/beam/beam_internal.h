/* Internal layout of the jointed-beam model and data (libmech/src/beam/). */
#ifndef MECH_BEAM_INTERNAL_H
#define MECH_BEAM_INTERNAL_H

#include "mech/beam.h"

/* (status of a row-major LAPACKE call, != 0) => HY_ENOMEM when the wrapper could not allocate its work or transposed
 * arrays, else HY_ENUMERIC (a numerical failure: the matrix is not positive definite, ...) */
static inline int beam_lapack_code(int info)
{
    return info == -1010 || info == -1011 ? HY_ENOMEM : HY_ENUMERIC; /* LAPACK_WORK/TRANSPOSE_MEMORY_ERROR */
}

/* One coordinate set the integrator runs on: the reduced modal one (dense) or the physical FE one (banded). */
typedef struct beam_sys {
    size_t n;                  /* flexible coordinates                                                        */
    int    banded;             /* 0: M, K dense n x n row-major; 1: LAPACK upper band storage, (kd + 1) x n    */
    size_t kd;                 /* half bandwidth (banded)                                                     */
    const double *M, *K;       /* mass and stiffness (C = 0: spec §3, no damping anywhere)                     */
    const double *h;           /* n: coupling row (H, or Mbar u_r)                                            */
    double J;                  /* J1 + u_r' Mbar u_r                                                          */
    const double *tip;         /* n: tip deflection                                                           */
    const double *dphi;        /* n_hinges x n: hinge rotation jumps                                          */
    const double *b_u;         /* n: MFC force per volt                                                       */
    const double *f_load;      /* n: force per newton at the load point                                       */
    const double *Kv;          /* n: the linearised stiffness in the energy check (same as K)                 */
} beam_sys;

struct mech_beam_model {
    mech_beam_params p;
    double EI, rho1, k_ref;
    size_t n_elem, n_node, ndof, nm, kd;
    double *x_node;            /* n_node                                                                      */
    int    *dof_w, *dof_l, *dof_r;   /* per node: w, left rotation, right rotation DOF (-1 = clamped)         */
    int    *elem_patch;        /* per element: 1 inside the MFC patch                                         */
    double *Mbar, *Kbar;       /* ndof x ndof dense                                                           */
    double *Mband, *Kband;     /* (kd + 1) x ndof band storage (column-major upper, LAPACK 'U')               */
    double *ur;                /* ndof: rigid rotation                                                        */
    double *e_tip, *e_load, *e_u, *e_dphi;   /* ndof physical selection vectors; e_dphi n_hinges x ndof        */
    double *h_phys;            /* ndof: Mbar u_r                                                              */
    double J;
    double ortho_err;          /* max deviation of the computed Mhat from I and of Khat from diagonal        */
    double *Phi, *omega, *Mhat, *Khat, *H, *tip, *dphi, *b_u, *f_load;
    int     tip_dof, load_dof;
    beam_sys red, phys;
};

// (p) => mesh, DOF map and FE matrices into m (beam_fe.c)
int beam_fe_build(mech_beam_model *m, hy_err *err);
// (m) => modes, reduced matrices (beam_modal.c)
int beam_modal_build(mech_beam_model *m, hy_err *err);

// (hinge, its element or NULL, dtheta rad, its rate rad/s) => total hinge moment M, N m (a trial for element laws)
// (beam_hinge.c)
int beam_hinge_trial(const mech_beam_hinge *h, hy_element *el, double dth, double rate, double *M, hy_diag *diag);
// (hinge, dtheta) => 1 when the joint is beyond its clearance (in contact)
int beam_hinge_in_contact(const mech_beam_hinge *h, double dth);

#endif

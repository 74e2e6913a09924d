/* Internal pieces of the friction module shared by its sources and its tests (spec 003). */
#ifndef MECH_FRICTION_INTERNAL_H
#define MECH_FRICTION_INTERNAL_H

#include "mech/friction.h"

struct mech_friction_model {
    int w, ns, nc;
    mech_friction_opt opt;
    mech_friction_contact c[MECH_FRICTION_MAX_CONTACTS];
};

/* column of Y holding Mqq^-1 n_q (what = 0) or Mqq^-1 t_q (what = 1) of contact c, side k; the last column holds
 * Mqq^-1 fq */
static inline double *fr_Y(const mech_friction_data *d, int c, int k, int what)
{
    return d->Y + (size_t)(4 * c + 2 * k + what) * (size_t)d->w;
}
static inline double *fr_Yf(const mech_friction_data *d)
{
    return d->Y + (size_t)(4 * d->nc) * (size_t)d->w;
}
static inline int fr_side(int chi)
{
    return chi > 0 ? 0 : 1;
}
static inline int fr_square(const mech_friction_model *m)
{
    if (m->ns != m->nc)
        return 0;
    for (int c = 0; c < m->nc; c++)
        if (m->c[c].sides != 2)
            return 0;
    return 1;
}

/* (model, prepared data, chi, slip) => slip of the contacts with |v| > eps_v set to sign(v) of the loaded side */
void fr_slip_from_v(const mech_friction_model *m, const mech_friction_data *d, const int *chi, int *slip);

/* (model, prepared data, chi, slip: all fixed) => N, F, qdd of that discrete state (one LU solve, square systems);
 * *det = determinant of the system when det != NULL. HY_ENUMERIC when it is singular (statically indeterminate
 * stick: when no minimum-norm split satisfies it). Allocates nothing (the SVD's workspace is in the data). */
int fr_solve_fixed(const mech_friction_model *m, mech_friction_data *d, const int *chi, const int *slip, double *det);

/* (model, data after a solve, chi, slip) => 1 when every reaction is >= -eps_N and every stuck force inside its cone */
int fr_admissible(const mech_friction_model *m, const mech_friction_data *d, const int *chi, const int *slip);

/* (data after an enumeration, buffer) => "det(+-) = 2.4, det(--) = ..." of the first 16 variants */
int mech_friction_report(const mech_friction_data *d, char *buf, size_t len);

#endif

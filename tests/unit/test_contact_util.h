/* Test helper for the contact tests: translating point-mass bodies (no rotation) joined by a contact set and
 * integrated by the ODE layer (RK4, fixed step) with the trial / commit / revert discipline: stages evaluate
 * (trial only), accept() evaluates at the accepted state and commits, reject() reverts. State per body:
 * position (3) then velocity (3). */
#ifndef TEST_CONTACT_UTIL_H
#define TEST_CONTACT_UTIL_H

#include <math.h>
#include <string.h>
#include "mech/contact.h"
#include "mech/ode.h"

#define PM_MAXB 4

typedef struct pm_sys {
    int                       nb;
    double                    mass[PM_MAXB];
    mech_vec3                 gravity;
    const mech_contact_model *m;
    mech_contact_data        *d;
    mech_contact_body         bodies[PM_MAXB];
    mech_vec3                 F[PM_MAXB], M[PM_MAXB];
    double                    fn_min, fn_max;  /* over every evaluation (stages included) */
    long                      n_commit, n_eval;
} pm_sys;

static void pm_kinematics(pm_sys *s, const double y[])
{
    for (int j = 0; j < s->nb; j++) {
        s->bodies[j].pos = mech_vec3_make(y[6 * j], y[6 * j + 1], y[6 * j + 2]);
        s->bodies[j].rot = mech_mat3_identity();
        s->bodies[j].vel = mech_vec3_make(y[6 * j + 3], y[6 * j + 4], y[6 * j + 5]);
        s->bodies[j].omega = mech_vec3_zero();
    }
}

static void pm_eval(pm_sys *s, const double y[])
{
    pm_kinematics(s, y);
    mech_contact_eval(s->m, s->d, s->bodies);
    s->n_eval++;
    for (int i = 0; i < s->m->npair; i++) {
        if (s->d->fn[i] < s->fn_min) s->fn_min = s->d->fn[i];
        if (s->d->fn[i] > s->fn_max) s->fn_max = s->d->fn[i];
    }
}

static int pm_rhs(double t, const double y[], double dy[], void *p)
{
    (void)t;
    pm_sys *s = p;
    pm_eval(s, y);
    for (int j = 0; j < s->nb; j++) s->F[j] = s->M[j] = mech_vec3_zero();
    mech_contact_loads(s->m, s->d, s->bodies, s->F, s->M);
    for (int j = 0; j < s->nb; j++) {
        mech_vec3 a = mech_vec3_axpy(s->gravity, 1.0 / s->mass[j], s->F[j]);
        dy[6 * j] = y[6 * j + 3];
        dy[6 * j + 1] = y[6 * j + 4];
        dy[6 * j + 2] = y[6 * j + 5];
        dy[6 * j + 3] = a.x;
        dy[6 * j + 4] = a.y;
        dy[6 * j + 5] = a.z;
    }
    return HY_OK;
}

static int pm_accept(double t, const double y[], void *p)
{
    (void)t;
    pm_sys *s = p;
    pm_eval(s, y);
    mech_contact_commit(s->m, s->d);
    s->n_commit++;
    return HY_OK;
}

static void pm_reject(void *p)
{
    pm_sys *s = p;
    mech_contact_revert(s->m, s->d);
}

static mech_ode_system pm_system(pm_sys *s)
{
    mech_ode_system sys = {pm_rhs, (size_t)(6 * s->nb), s, NULL, pm_accept, pm_reject};
    return sys;
}

static mech_contact_law law_make(double k, double n, double e, double mu_s, double mu_k, double kt, double ct)
{
    mech_contact_law L = {k, n, e, 1e-3, mu_s, mu_k, kt, ct, 0};
    return L;
}

#endif

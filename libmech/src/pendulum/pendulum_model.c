/* The pendulum vibration damper (spec 002 §4, eqs. 11-12, 15-16): compiled model, equations of motion with the
 * hysteretic unit coupled through trial/commit/revert, and the data (state vector, time, drive). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mech/pendulum.h"

struct mech_pend_model {
    mech_pend_params      p;
    const hy_kin_model *unit;
    hy_kin_model       *unit_owned;   /* the built-in paper law when the caller gave none                     */
};

// (params, unit) => compiled model
int mech_pend_model_new(const mech_pend_params *p, const hy_kin_model *unit, mech_pend_model **out, hy_err *err)
{
    *out = NULL;
#define POS(x, name)                                                                                                 \
    if (!(isfinite(x) && (x) > 0))                                                                                  \
        return hy_err_set(err, HY_EMODEL, "pendulum parameters: %s = %g: expected a positive number", name, (double)(x));
    POS(p->I2, "I2");
    POS(p->I3, "I3");
    POS(p->k_torsion, "k_torsion");
    if (!(isfinite(p->g) && p->g >= 0))
        return hy_err_set(err, HY_EMODEL, "pendulum parameters: g = %g: expected a number >= 0", p->g);
    if (p->n_pend < 1 || p->n_pend > MECH_PEND_MAX_PENDULUMS)
        return hy_err_set(err, HY_EMODEL, "pendulum parameters: %d pendulums: expected 1..%d", p->n_pend,
                          MECH_PEND_MAX_PENDULUMS);
    for (int i = 0; i < p->n_pend; i++) {
        POS(p->pend[i].m, "pendulums[].m");
        POS(p->pend[i].e, "pendulums[].e");
        if (!isfinite(p->pend[i].offset))
            return hy_err_set(err, HY_EMODEL, "pendulum parameters: pendulums[%d].offset is not finite", i);
        /* I3 includes the pendulums: it cannot be smaller than their point-mass inertia */
    }
#undef POS
    double Ipend = 0;
    for (int i = 0; i < p->n_pend; i++)
        Ipend += p->pend[i].m * p->pend[i].e * p->pend[i].e;
    if (p->I3 < Ipend)
        return hy_err_set(err, HY_EMODEL,
                          "pendulum parameters: I3 = %g kg m^2 is below sum m e^2 = %g of the pendulums it includes",
                          p->I3, Ipend);
    mech_pend_model *m = calloc(1, sizeof *m);
    if (!m)
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    m->p = *p;
    if (unit) {
        m->unit = unit;
    } else {
        hy_kin_spec s;
        hy_kin_paper_spec(&s, 0);
        int rc = hy_kin_model_new(&s, &m->unit_owned, err);
        if (rc != HY_OK) {
            free(m);
            return rc;
        }
        m->unit = m->unit_owned;
    }
    *out = m;
    return HY_OK;
}

const mech_pend_params *mech_pend_model_params(const mech_pend_model *m) { return &m->p; }
const hy_kin_model *mech_pend_model_unit(const mech_pend_model *m) { return m->unit; }

// (m) => memory released
void mech_pend_model_free(mech_pend_model *m)
{
    if (m) {
        hy_kin_model_free(m->unit_owned);
        free(m);
    }
}

// (params, phi3) => gravity moment on disk 3, - sum m g e sin(phi3 + offset)
static double gravity_moment(const mech_pend_params *p, double phi3)
{
    double G = 0;
    for (int i = 0; i < p->n_pend; i++)
        G -= p->pend[i].m * p->g * p->pend[i].e * sin(phi3 + p->pend[i].offset);
    return G;
}

// (model, y) => kinetic + torsion + gravity energy (gravity measured from phi3 = 0)
double mech_pend_energy(const mech_pend_model *m, const double y[MECH_PEND_DIM])
{
    const mech_pend_params *p = &m->p;
    double tw = y[MECH_PEND_PHI3] - y[MECH_PEND_PHI2];
    double E = 0.5 * p->I2 * y[MECH_PEND_W2] * y[MECH_PEND_W2] + 0.5 * p->I3 * y[MECH_PEND_W3] * y[MECH_PEND_W3] +
               0.5 * p->k_torsion * tw * tw;
    for (int i = 0; i < p->n_pend; i++)
        E += p->pend[i].m * p->g * p->pend[i].e * (cos(p->pend[i].offset) - cos(y[MECH_PEND_PHI3] + p->pend[i].offset));
    return E;
}

/* (data, t) => drive angle phi1 and its rate: Phi r(t) sin(omega t), with the optional soft start
 * r = (1 - cos(pi t / ramp)) / 2 for t < ramp (r = 1 without a ramp: the paper's abrupt start) */
static void drive(const mech_pend_data *d, double t, double *phi1, double *w1)
{
    double s = sin(d->omega * t), c = cos(d->omega * t);
    if (d->ramp > 0 && t < d->ramp) {
        double r = 0.5 * (1 - cos(M_PI * t / d->ramp)), dr = 0.5 * M_PI / d->ramp * sin(M_PI * t / d->ramp);
        *phi1 = d->Phi * r * s;
        *w1 = d->Phi * (dr * s + r * d->omega * c);
    } else {
        *phi1 = d->Phi * s;
        *w1 = d->Phi * d->omega * c;
    }
}

// (t, y) => dy/dt of eqs. (12) with the unit's trial moment (spec 002 §4.2), and the two work integrals
static int pend_rhs(double t, const double y[], double dy[], void *params)
{
    mech_pend_data *d = params;
    const mech_pend_params *p = &d->model->p;
    double phi1, w1;
    drive(d, t, &phi1, &w1);
    double alpha = y[MECH_PEND_PHI2] - phi1, alpha_dot = y[MECH_PEND_W2] - w1, M;
    int rc = hy_element_trial(&d->el, alpha, alpha_dot, &M, NULL, &d->diag);
    if (rc != HY_OK) {
        d->diag_set = 1;
        return rc;
    }
    double spring = p->k_torsion * (y[MECH_PEND_PHI3] - y[MECH_PEND_PHI2]);
    dy[MECH_PEND_PHI2] = y[MECH_PEND_W2];
    dy[MECH_PEND_W2] = (spring - M) / p->I2;
    dy[MECH_PEND_PHI3] = y[MECH_PEND_W3];
    dy[MECH_PEND_W3] = (-spring + gravity_moment(p, y[MECH_PEND_PHI3])) / p->I3;
    dy[MECH_PEND_WUNIT] = M * alpha_dot;   /* eq. (15) integrand */
    dy[MECH_PEND_WIN] = -M * w1;           /* the unit's reaction on the driven disk 1 */
    return HY_OK;
}

// (t, y) => relative velocity of the unit: its sign changes are the reversals of spec 002 §1.4
static double pend_event(double t, const double y[], void *params)
{
    double phi1, w1;
    drive(params, t, &phi1, &w1);
    return y[MECH_PEND_W2] - w1;
}

// (t, y accepted) => the unit's trial at y committed
static int pend_accept(double t, const double y[], void *params)
{
    mech_pend_data *d = params;
    double phi1, w1, M;
    drive(d, t, &phi1, &w1);
    int rc = hy_element_trial(&d->el, y[MECH_PEND_PHI2] - phi1, y[MECH_PEND_W2] - w1, &M, NULL, &d->diag);
    if (rc != HY_OK) {
        d->diag_set = 1;
        return rc;
    }
    hy_element_commit(&d->el);
    return HY_OK;
}

static void pend_reject(void *params)
{
    hy_element_revert(&((mech_pend_data *)params)->el);
}

// (s) => default solver
void mech_pend_solver_default(mech_pend_solver *s)
{
    s->fixed = 0;
    s->h = 1e-4;
    s->tol = 1e-9;
}

// (model, drive, solver) => data at rest
int mech_pend_data_new(const mech_pend_model *m, double Phi, double omega, const mech_pend_solver *s, mech_pend_data **out,
                     hy_err *err)
{
    *out = NULL;
    if (!isfinite(Phi) || !isfinite(omega) || omega < 0)
        return hy_err_set(err, HY_EARG, "pendulum drive: amplitude %g rad, angular frequency %g rad/s: expected "
                          "finite values and a frequency >= 0", Phi, omega);
    if (!(s->h > 0) || (!s->fixed && !(s->tol > 0)))
        return hy_err_set(err, HY_EARG, "pendulum solver: step %g s, tolerance %g: expected positive values", s->h,
                          s->tol);
    mech_pend_data *d = calloc(1, sizeof *d);
    if (!d)
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    d->model = m;
    d->Phi = Phi;
    d->omega = omega;
    d->sys = (mech_ode_system){pend_rhs, MECH_PEND_DIM, d, pend_event, pend_accept, pend_reject};
    d->drv = s->fixed ? mech_ode_driver_alloc_fixed(&d->sys, mech_ode_step_rk4, s->h)
                      : mech_ode_driver_alloc_adaptive(&d->sys, mech_ode_step_rk45, s->h, s->tol, s->tol);
    if (!d->drv) {
        free(d);
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    }
    int rc = mech_pend_data_start(d, 0, 0, 0, 0, 0, err);
    if (rc != HY_OK) {
        mech_pend_data_free(d);
        return rc;
    }
    *out = d;
    return HY_OK;
}

// (data, initial state) => state at t = 0
int mech_pend_data_start(mech_pend_data *d, double phi2, double w2, double phi3, double w3, double M0, hy_err *err)
{
    int rc = hy_kin_state_init(&d->unit, d->model->unit, phi2, M0, err); /* phi1(0) = 0: alpha(0) = phi2 */
    if (rc != HY_OK)
        return rc;
    hy_kin_element_wrap(&d->unit, &d->el);
    d->t = 0;
    memset(d->y, 0, sizeof d->y);
    d->y[MECH_PEND_PHI2] = phi2;
    d->y[MECH_PEND_W2] = w2;
    d->y[MECH_PEND_PHI3] = phi3;
    d->y[MECH_PEND_W3] = w3;
    d->E0 = mech_pend_energy(d->model, d->y);
    d->diag_set = 0;
    mech_ode_driver_reset(d->drv);
    return HY_OK;
}

// (data, t1) => advanced
int mech_pend_advance(mech_pend_data *d, double t1, hy_err *err)
{
    d->diag_set = 0;
    int rc = mech_ode_driver_apply(d->drv, &d->t, t1, d->y);
    if (rc == HY_OK)
        return HY_OK;
    if (d->diag_set) {
        char buf[400];
        hy_diag_format(&d->diag, buf, sizeof buf);
        return hy_err_set(err, rc, "t = %.9g s: the damping unit (alpha = phi2 - phi1) refused the step: %s", d->t,
                          buf);
    }
    return hy_err_set(err, rc, "t = %.9g s: the integrator failed (step size below %g s)", d->t, d->drv->hmin);
}

// (d) => memory released
void mech_pend_data_free(mech_pend_data *d)
{
    if (d) {
        mech_ode_driver_free(d->drv);
        free(d);
    }
}

// (data) => observation at the current state
void mech_pend_observe(const mech_pend_data *d, mech_pend_obs *o)
{
    double w1;
    drive(d, d->t, &o->phi1, &w1);
    o->t = d->t;
    o->phi2 = d->y[MECH_PEND_PHI2];
    o->phi3 = d->y[MECH_PEND_PHI3];
    o->alpha = o->phi2 - o->phi1;
    o->alpha_dot = d->y[MECH_PEND_W2] - w1;
    o->M = d->unit.f_c;
    o->W_unit = d->y[MECH_PEND_WUNIT];
    o->W_in = d->y[MECH_PEND_WIN];
    o->E = mech_pend_energy(d->model, d->y);
    /* eq. (16) t A' + A = M alpha' is singular at t = 0; its regular solution is A = W_unit / t, whose limit at
     * t = 0 is M alpha' (spec 002 §4.3) */
    o->A = d->t > 0 ? o->W_unit / d->t : o->M * o->alpha_dot;
}

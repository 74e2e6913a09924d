/* ODE integration layer of libmech, shaped like GSL odeiv2: a system (function pointer, dimension, params), steppers
 * (classic RK4; embedded Dormand-Prince RK5(4)), step-size control and a driver, each in its own file.
 *
 * Beyond GSL: hysteretic elements and reversals. A system may give
 *   event(t, y)  : a function whose sign changes the driver locates (for a hysteretic element: the relative
 *                  velocity qdot, whose zeros are the reversals of spec 002 §1.4);
 *   accept(t, y) : called on every accepted step (the elements' trial at y is committed there);
 *   reject()     : called when a step is thrown away (the elements' trials are reverted).
 * Stages call the system function, which calls the elements' trial (never commit), so a step can be retried or
 * bisected freely. When a step would cross a sign change of event(), the driver shortens it so that it ends on the
 * reversal (Illinois regula falsi on the step length); no step ever contains a reversal, so the right-hand side is
 * smooth inside every step and the steppers keep their order (tests/unit/test_mech_ode.c).
 * Nothing here allocates after *_alloc. */
#ifndef MECH_ODE_H
#define MECH_ODE_H

#include <stddef.h>
#include "hyst/common.h"

typedef struct mech_ode_system {
    // (t, y) => dydt; HY_OK or an error code (the driver shrinks the step, or stops in fixed-step mode)
    int (*function)(double t, const double y[], double dydt[], void *params);
    size_t dimension;
    void  *params;
    // optional (NULL): event function whose sign changes are located (reversals)
    double (*event)(double t, const double y[], void *params);
    // optional: (t, y) accepted => element states committed; HY_OK or an error code
    int (*accept)(double t, const double y[], void *params);
    // optional: last trial discarded
    void (*reject)(void *params);
} mech_ode_system;

/* ---- steppers (ode_rk4.c, ode_rk45.c) ---- */
typedef struct mech_ode_step_type {
    const char *name;
    int         order;      /* order of the solution that is propagated                                      */
    int         has_error;  /* 1 when apply fills yerr (embedded pair)                                        */
    size_t      work_len;   /* doubles of workspace per system dimension                                      */
    /* (work, t, h, y, dydt_in = f(t, y) or NULL, dydt_out or NULL) => y advanced by one step of size h, yerr (when
       has_error), dydt_out = f(t + h, y_new) when the method evaluates it anyway (first same as last: rk45) or
       NULL is given; HY_OK or the system's error. The GSL odeiv2 signature: a caller that keeps dydt_out as the
       next dydt_in saves one evaluation per step. */
    int (*apply)(double *work, double t, double h, double y[], double yerr[], const double dydt_in[],
                 double dydt_out[], const mech_ode_system *sys);
    int         fsal;       /* 1 when apply fills dydt_out from its own last stage (no extra evaluation)      */
    /* the stiffness estimate of mech_ode_step_rho: the workspace blocks (in units of dim) that apply leaves
       holding two stage derivatives at the same time and their two arguments, {ka, kb, ya, yb}; all 0 when the
       type has none (rho = |kb - ka| / |yb - ya|) */
    int         rho_blocks[4];
} mech_ode_step_type;

extern const mech_ode_step_type *const mech_ode_step_rk4;   /* classic Runge-Kutta, order 4                       */
extern const mech_ode_step_type *const mech_ode_step_rk45;  /* Dormand-Prince 5(4), order 5 with order-4 estimate  */
extern const mech_ode_step_type *const mech_ode_step_rk43;  /* classic RK4 with an FSAL order-3 estimate (ode_rk43.c) */

typedef struct mech_ode_step {
    const mech_ode_step_type *type;
    size_t                  dim;
    double                 *work;
} mech_ode_step;

// (type, dimension) => stepper with its workspace (NULL when out of memory)
mech_ode_step *mech_ode_step_alloc(const mech_ode_step_type *T, size_t dim);
// (stepper, t, h, y) => y advanced, yerr filled when the type has an error estimate
int mech_ode_step_apply(mech_ode_step *s, double t, double h, double y[], double yerr[], const mech_ode_system *sys);
/* (stepper, t, h, y, dydt_in = f(t, y) or NULL, dydt_out or NULL) => as mech_ode_step_apply, with the derivative at
 * the start given (one evaluation saved) and, for a first-same-as-last type, the derivative at the end returned */
int mech_ode_step_apply_fsal(mech_ode_step *s, double t, double h, double y[], double yerr[], const double dydt_in[],
                             double dydt_out[], const mech_ode_system *sys);
/* (stepper after a successful apply, weights w[dim] (NULL: 1), rows [i0, i1)) => estimate of the spectral radius of
 * the Jacobian along the step from two stages at the same time: rk45 |k7 - k6|_w / |y1 - y6|_w (stages 6 and 7 at
 * t + h: the stiffness detection of Hairer & Wanner, Solving ODEs II, §IV.2, as in their DOPRI5), rk43
 * |k5 - k4|_w / |y1 - y4|_w. 0 when undefined or for a type without one (rk4). */
double mech_ode_step_rho(const mech_ode_step *s, const double w[], size_t i0, size_t i1);
// (s) => memory released
void mech_ode_step_free(mech_ode_step *s);

/* ---- step-size control (ode_control.c), the GSL "standard" control ---- */
typedef struct mech_ode_control {
    double eps_abs, eps_rel;   /* D_i = eps_abs s_i + eps_rel (a_y |y_i| + a_dydt h |y'_i|), a_y = 1, a_dydt = 0 */
    double safety;             /* 0.9                                                                           */
    const double *scale_abs;   /* s_i per component (GSL's scaled control), borrowed; NULL: all 1               */
} mech_ode_control;

// (control, order, y, yerr, h) => ratio max_i |yerr_i| / D_i and a new step size: smaller when ratio > 1.1
// (returns -1: reject), larger when ratio < 0.5 (returns +1), else unchanged (0)
int mech_ode_control_hadjust(const mech_ode_control *c, int order, const double y[], const double yerr[], size_t dim,
                           double *h, double *ratio);

/* PI control (Gustafsson 1991; Hairer & Wanner, Solving ODEs II, §IV.2): the same test (a step is rejected when
 * its ratio exceeds 1.1, and shrinks as above), but an accepted step's successor is h safety (1/err)^(0.7/k)
 * err_old^(0.4/k), k = order, err_old the last accepted step's ratio, and it does not grow right after a rejection.
 * Where a lightly damped mode holds the steps at the stepper's stability limit, the standard control's ratio
 * swings across it and 15-20 % of the trial steps are thrown away; the memory damps that (docs/dock.md §6b). */
typedef struct mech_ode_pi {
    double err_old;    /* the last accepted step's ratio (at least 1e-4); 0: none yet                           */
    int    rejected;   /* the last trial step was rejected (by the control or by its caller)                     */
} mech_ode_pi;

// (control, PI state, order, y, yerr, h) => as mech_ode_control_hadjust, the accepted step's successor from the PI
// law; pi updated (a caller that rejects a step for its own reasons sets pi->rejected)
int mech_ode_control_hadjust_pi(const mech_ode_control *c, mech_ode_pi *pi, int order, const double y[],
                                const double yerr[], size_t dim, double *h, double *ratio);

/* ---- driver (ode_driver.c) ---- */
typedef struct mech_ode_driver {
    const mech_ode_system *sys;
    mech_ode_step         *step;
    mech_ode_control       control;    /* used when the stepper has an error estimate and adaptive != 0            */
    int                  adaptive;
    double               h;          /* current (adaptive) or nominal (fixed) step                               */
    double               hmin, hmax;
    double               event_tol;  /* reversal located to this time tolerance                                  */
    int                  event_dir;  /* sign of event() on the current segment (0: not yet known)                 */
    unsigned long        n_steps, n_rejected, n_events, n_evals_locate;
    double              *y0, *ytry, *yerr;
} mech_ode_driver;

// (system, stepper type, initial step, eps_abs, eps_rel) => adaptive driver (the type must have an error estimate)
mech_ode_driver *mech_ode_driver_alloc_adaptive(const mech_ode_system *sys, const mech_ode_step_type *T, double h0,
                                           double eps_abs, double eps_rel);
// (system, stepper type, step) => fixed-step driver (steps of h, shortened only to land on reversals)
mech_ode_driver *mech_ode_driver_alloc_fixed(const mech_ode_system *sys, const mech_ode_step_type *T, double h);

// (driver, t, t1, y) => y at t1 (t set to t1); stops at the first error, leaving (t, y) at the last accepted step
int mech_ode_driver_apply(mech_ode_driver *d, double *t, double t1, double y[]);

// (driver) => event direction forgotten (call after changing y or t by hand)
void mech_ode_driver_reset(mech_ode_driver *d);

// (d) => memory released
void mech_ode_driver_free(mech_ode_driver *d);

#endif

// Stepper objects of the ODE layer (mech/ode.h): allocation of the workspace, one call per step.
#include <math.h>
#include <stdlib.h>
#include "mech/ode.h"

// (type, dimension) => stepper with its workspace
mech_ode_step *mech_ode_step_alloc(const mech_ode_step_type *T, size_t dim)
{
    mech_ode_step *s = malloc(sizeof *s);
    if (!s)
        return NULL;
    s->type = T;
    s->dim = dim;
    s->work = calloc(T->work_len * dim + 1, sizeof *s->work);
    if (!s->work) {
        free(s);
        return NULL;
    }
    return s;
}

// (stepper, t, h, y) => y advanced by one step
int mech_ode_step_apply(mech_ode_step *s, double t, double h, double y[], double yerr[], const mech_ode_system *sys)
{
    return s->type->apply(s->work, t, h, y, yerr, NULL, NULL, sys);
}

// (stepper, t, h, y, f(t, y), out) => y advanced, f at the end when the type has it from its last stage
int mech_ode_step_apply_fsal(mech_ode_step *s, double t, double h, double y[], double yerr[], const double dydt_in[],
                             double dydt_out[], const mech_ode_system *sys)
{
    return s->type->apply(s->work, t, h, y, yerr, dydt_in, dydt_out, sys);
}

// (stepper after apply, weights, rows) => |kb - ka|_w / |yb - ya|_w over the type's two stages at one time, 0 without
double mech_ode_step_rho(const mech_ode_step *s, const double w[], size_t i0, size_t i1)
{
    const int *b = s->type->rho_blocks;
    if (b[0] == b[1])
        return 0.0;
    size_t n = s->dim;
    const double *ka = s->work + b[0] * n, *kb = s->work + b[1] * n, *ya = s->work + b[2] * n,
                 *yb = s->work + b[3] * n;
    double dk = 0, dy = 0;
    for (size_t i = i0; i < i1 && i < n; i++) {
        double wi = w ? w[i] : 1.0, a = wi * (kb[i] - ka[i]), c = wi * (yb[i] - ya[i]);
        dk += a * a;
        dy += c * c;
    }
    return dy > 0 ? sqrt(dk / dy) : 0.0;
}

// (s) => memory released
void mech_ode_step_free(mech_ode_step *s)
{
    if (s) {
        free(s->work);
        free(s);
    }
}

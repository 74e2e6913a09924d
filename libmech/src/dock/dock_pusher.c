/* Separation pushers (RP-1 §2.3: 4 x 1000 N, 0.04 m stroke; spec 001 §2.8 item 7): spring rods on the active
 * docking plane that touch the passive plane in the last 0.04 m of the retraction, load the head through the
 * closed joint and, in B and C, drive the probe back against FrT1's low pull-out level to restore its stroke
 * (spec 001 §5.1, Fig. 15 fragment 3). Linear rods (force at full compression = `force`; no preload: the force is
 * continuous at first touch, which an explicit integrator needs), frictionless tips: the force acts along the
 * passive plane's normal at the rod's intersection with that plane. Elastic, so no state. */
#include <math.h>
#include <string.h>
#include "mech/dock_process.h"

void mech_dock_pusher_params_rp1(mech_dock_pusher_params *p)
{
    p->n = 4;
    p->force = 1000.0;
    p->stroke = 0.04;
    p->radius = 0.45;        /* outside the 0.40 m rim: on the docking plane's ring                          */
    p->psi0 = M_PI / 4;      /* between the four latches                                                      */
    p->damping = 0.0;
}

int mech_dock_pusher_check(const mech_dock_pusher_params *p, hy_err *err)
{
    if (p->n < 1 || p->n > MECH_DOCK_PUSHER_MAX)
        return hy_err_set(err, HY_EMODEL, "pushers.n = %d: expected an integer 1..%d", p->n, MECH_DOCK_PUSHER_MAX);
    if (!(isfinite(p->force) && p->force > 0))
        return hy_err_set(err, HY_EMODEL, "pushers.force: must be a finite number > 0 N (got %.17g)", p->force);
    if (!(isfinite(p->stroke) && p->stroke > 0))
        return hy_err_set(err, HY_EMODEL, "pushers.stroke: must be a finite number > 0 m (got %.17g)", p->stroke);
    if (!(isfinite(p->radius) && p->radius > 0))
        return hy_err_set(err, HY_EMODEL, "pushers.radius: must be a finite number > 0 m (got %.17g)", p->radius);
    if (!isfinite(p->psi0))
        return hy_err_set(err, HY_EMODEL, "pushers.psi0: must be finite (got %.17g)", p->psi0);
    if (!(isfinite(p->damping) && p->damping >= 0))
        return hy_err_set(err, HY_EMODEL, "pushers.damping: must be a finite number >= 0 N s/m (got %.17g)",
                          p->damping);
    return HY_OK;
}

mech_vec3 mech_dock_pusher_base(const mech_dock_pusher_params *p, int i)
{
    double psi = p->psi0 + 2.0 * M_PI * i / p->n;
    return mech_vec3_make(0.0, p->radius * cos(psi), p->radius * sin(psi));
}

void mech_dock_pusher_eval(const mech_dock_pusher_params *p, mech_vec3 o, mech_vec3 n, mech_vec3 v_o,
                           mech_vec3 omega, mech_dock_pusher_out *out)
{
    mech_vec3 base[MECH_DOCK_PUSHER_MAX];
    for (int i = 0; i < p->n && i < MECH_DOCK_PUSHER_MAX; i++)
        base[i] = mech_dock_pusher_base(p, i);
    mech_dock_pusher_eval_at(p, base, o, n, v_o, omega, out);
}

void mech_dock_pusher_eval_at(const mech_dock_pusher_params *p, const mech_vec3 *base_, mech_vec3 o, mech_vec3 n,
                              mech_vec3 v_o, mech_vec3 omega, mech_dock_pusher_out *out)
{
    memset(out, 0, sizeof *out);
    double k = p->force / p->stroke;
    double nx = n.x;                 /* n . e_x: < 0 while the planes face each other */
    for (int i = 0; i < p->n && i < MECH_DOCK_PUSHER_MAX; i++) {
        mech_vec3 base = base_[i];
        if (!(nx < 0))
            break;                   /* the passive plane does not face the rods */
        double g = mech_vec3_dot(n, mech_vec3_sub(o, base)) / nx;   /* rod length to the passive plane */
        double d = p->stroke - g;
        if (d <= 0)
            continue;
        mech_vec3 tip = mech_vec3_axpy(base, g, mech_vec3_unit(0));
        mech_vec3 vc = mech_vec3_add(v_o, mech_vec3_cross(omega, mech_vec3_sub(tip, o)));
        double dd = -mech_vec3_dot(n, vc) / nx;                      /* d' = -g' */
        double F;
        if (d >= p->stroke) {        /* planes closed at this rod: flush, full force, no rate term */
            d = p->stroke;
            F = p->force;
        } else {
            F = k * d + p->damping * dd;
            if (F < 0)
                F = 0;
            out->p_damping += (F - k * d) * dd > 0 ? (F - k * d) * dd : 0.0;
        }
        out->d[i] = d;
        out->f[i] = F;
        out->energy += 0.5 * k * d * d;
        out->n_touch++;
        mech_vec3 fp = mech_vec3_scale(n, -F);   /* pushes the passive plane away */
        out->force = mech_vec3_add(out->force, fp);
        out->moment = mech_vec3_add(out->moment, mech_vec3_cross(tip, fp));
    }
}

/* Roll guides on the docking collars (issue 44 item 4; mech/dock_rollguide.h, docs/dock-process.md §9a): tapered
 * pins on the active collar entering radial-slot sockets on the passive one before the planes meet, so that the
 * roll (and, with three or more pins, the lateral offset) is inside the structural hooks' catch when the planes
 * close. The latch slots align the roll during the retraction with the probe's pull alone, a lever of
 * detent_travel / (slot_entry - slot_narrow) per newton (5 cm at RP-2's slots); a guide at the collar's radius r
 * with a face of slope s turns the vehicles with r / s per newton of the closing pull (0.2 m at RP-2's guides:
 * 0.50 m over a 49 mm narrowing in 20 mm).
 * Stateless (elastic faces with a damper on the penetration rate, no friction), so nothing to commit. */
#include <math.h>
#include <string.h>
#include "mech/dock_rollguide.h"

void mech_dock_rollguide_params_default(mech_dock_rollguide_params *p)
{
    p->n = 0;                    /* RP-1 has none                                                                */
    p->radius = 0.50;            /* on the collar, between the pushers' 0.45 m ring and the hooks' 0.55 m        */
    p->psi0 = 0.0;               /* one per side, between the hook pairs and off the pushers' 45 deg azimuths    */
    p->length = 0.03;            /* enters after the pushers touch (their 0.04 m stroke): a longer pin bears on
                                    the collar during the short cone's rocking and gives FrT1's stroke back
                                    instead of the pushers (docs/rp2-parameters.md §9.2)                        */
    p->taper_length = 0.02;      /* the mouth narrows over the first 20 mm, then a 10 mm bore                    */
    p->catch_half_width = 0.05;  /* 5.7 deg of roll at 0.50 m                                                    */
    p->clearance = 0.001;        /* 0.11 deg at 0.50 m, well inside the hooks' 1 deg catch                       */
    p->stiffness = 1e6;          /* pin bending + the collar, across the slot                                    */
    p->damping = 2e4;            /* ~0.3 of critical of the 20 t vehicle's roll (6e4 kg m^2 / r^2) on 4 pins     */
}

static int bad(hy_err *err, const char *key, const char *want, double got)
{
    return hy_err_set(err, HY_EMODEL, "roll_guides.%s: must be %s (got %.17g)", key, want, got);
}

int mech_dock_rollguide_check(const mech_dock_rollguide_params *p, hy_err *err)
{
    if (p->n < 0 || p->n > MECH_DOCK_ROLLGUIDE_MAX)
        return hy_err_set(err, HY_EMODEL, "roll_guides.n = %d: expected an integer 0..%d", p->n,
                          MECH_DOCK_ROLLGUIDE_MAX);
    if (!(isfinite(p->radius) && p->radius > 0))
        return bad(err, "radius", "a finite number > 0 m", p->radius);
    if (!isfinite(p->psi0))
        return bad(err, "psi0_deg", "finite", p->psi0);
    if (!(isfinite(p->length) && p->length > 0))
        return bad(err, "length", "a finite number > 0 m", p->length);
    if (!(isfinite(p->taper_length) && p->taper_length > 0 && p->taper_length <= p->length))
        return bad(err, "taper_length", "a finite number > 0 m and <= roll_guides.length", p->taper_length);
    if (!(isfinite(p->clearance) && p->clearance >= 0))
        return bad(err, "clearance", "a finite number >= 0 m", p->clearance);
    if (!(isfinite(p->catch_half_width) && p->catch_half_width > p->clearance))
        return bad(err, "catch_half_width", "a finite number > roll_guides.clearance", p->catch_half_width);
    if (!(isfinite(p->stiffness) && p->stiffness > 0))
        return bad(err, "stiffness", "a finite number > 0 N/m", p->stiffness);
    if (!(isfinite(p->damping) && p->damping >= 0))
        return bad(err, "damping", "a finite number >= 0 N s/m", p->damping);
    return HY_OK;
}

mech_vec3 mech_dock_rollguide_base(const mech_dock_rollguide_params *p, int j)
{
    double psi = p->psi0 + 2.0 * M_PI * j / (p->n > 0 ? p->n : 1);
    return mech_vec3_make(0.0, p->radius * cos(psi), p->radius * sin(psi));
}

double mech_dock_rollguide_width(const mech_dock_rollguide_params *p, double d, double *dw)
{
    const double s = (p->catch_half_width - p->clearance) / p->taper_length;
    if (d >= p->taper_length) {
        *dw = 0;
        return p->clearance;
    }
    if (d <= 0) {
        *dw = 0;
        return p->catch_half_width;
    }
    *dw = -s;
    return p->catch_half_width - s * d;
}

void mech_dock_rollguide_eval(const mech_dock_rollguide_params *p, mech_vec3 o, mech_mat3 R, mech_vec3 v_o,
                              mech_vec3 omega, mech_dock_rollguide_out *out)
{
    memset(out, 0, sizeof *out);
    const mech_vec3 n = mech_mat3_col(R, 0);
    if (n.x < 0) {
        /* no pin inserted, exactly: a base at radius r has its gap to the passive plane g = (gap + r n.(0, c, s)) /
           -n.x >= (gap - r |n_yz|) / -n.x (gap = -n.o); at or beyond the pins' length (1 nm for round-off) every
           depth is below zero and no load arises: the bound's depth for all, without a pin's own geometry (the
           docking process ran them at 65 % of RP-2's short cone's evaluations before) */
        double g_min = (-mech_vec3_dot(n, o) - p->radius * sqrt(n.y * n.y + n.z * n.z)) / -n.x;
        if (g_min > p->length + 1e-9) {
            for (int j = 0; j < p->n && j < MECH_DOCK_ROLLGUIDE_MAX; j++)
                out->offset[j] = NAN, out->depth[j] = p->length - g_min;
            return;
        }
    }
    for (int j = 0; j < p->n && j < MECH_DOCK_ROLLGUIDE_MAX; j++) {
        out->offset[j] = NAN;
        out->depth[j] = -INFINITY;
        if (!(n.x < 0))
            continue;   /* the passive plane does not face the pins */
        /* the guide's azimuth, its cosine and sine taken once for the base (mech_dock_rollguide_base's values) and
           the slot's direction */
        const double psi = p->psi0 + 2.0 * M_PI * j / p->n, cpsi = cos(psi), spsi = sin(psi);
        const mech_vec3 b = mech_vec3_make(0.0, p->radius * cpsi, p->radius * spsi);
        double g = mech_vec3_dot(n, mech_vec3_sub(o, b)) / n.x;   /* the pin's base to the passive plane */
        double d = p->length - g;
        out->depth[j] = d;
        if (!(d > 0))
            continue;
        /* the pin where it crosses the passive plane, its socket's centre (the pin's base in the docked pose,
           passive frame diag(-1, 1, -1)) and the slot's direction across the radius there */
        mech_vec3 pt = mech_vec3_axpy(b, g, mech_vec3_unit(0));
        mech_vec3 c = mech_vec3_add(o, mech_mat3_apply(R, mech_vec3_make(0.0, b.y, -b.z)));
        mech_vec3 t = mech_mat3_apply(R, mech_vec3_make(0.0, -spsi, -cpsi));
        double e = mech_vec3_dot(mech_vec3_sub(pt, c), t);
        out->offset[j] = e;
        /* rates: the passive vehicle's point at the pin moves at vp relative to the active vehicle; the socket
           with it (e' = -vp . t), the depth as the pin's gap closes (d' = -g') */
        mech_vec3 vp = mech_vec3_add(v_o, mech_vec3_cross(omega, mech_vec3_sub(pt, o)));
        double ed = -mech_vec3_dot(vp, t), dd = -mech_vec3_dot(n, vp) / n.x;
        double sg = e > 0 ? 1.0 : -1.0, dw = 0, pen, pen_rate;
        if (fabs(e) > p->catch_half_width) {
            /* outside the mouth: the pin's tip on the passive collar's face, a stop along the normal (the roll
               beyond the catch keeps the planes apart) */
            out->n_miss++;
            dw = -1.0, sg = 0.0;
            pen = d, pen_rate = dd;
        } else {
            double w = mech_dock_rollguide_width(p, d, &dw);
            pen = fabs(e) - w;
            if (!(pen > 0))
                continue;
            pen_rate = sg * ed - dw * dd;
        }
        double F = fmax(0.0, p->stiffness * pen + p->damping * pen_rate);
        /* on the passive collar: across the slot, away from the pin, and, from the narrowing face, along -n
           (pushing the planes apart with the face's slope |dw/dd|); on the collar's face only along -n */
        mech_vec3 f = mech_vec3_axpy(mech_vec3_scale(t, sg * F), F * dw, n);
        out->f = mech_vec3_add(out->f, f);
        out->m = mech_vec3_add(out->m, mech_vec3_cross(pt, f));
        out->force[j] = F;
        out->energy += 0.5 * p->stiffness * pen * pen;
        out->n_touch++;
    }
}

/* Passive unit (cone, socket throat, bore, bottom, latch stops, detent, narrowing slots) and the fixed limiter of the
 * active unit (RP-1 §2.2-2.3, spec 001 §1.5, §2.8) as contact pairs of mech/contact.h. docs/dock.md §3. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "dock/dock_internal.h"

void dock_geom_compute(const mech_dock_params *p, dock_geom *g)
{
    const mech_dock_geometry *gm = &p->geom;
    memset(g, 0, sizeof *g);
    g->rim_x = gm->rim_x;
    g->rim_r = gm->rim_radius;
    g->cone_depth = (gm->rim_radius - gm->socket_radius) / tan(gm->half_angle);   /* 0.606 m at 30 deg */
    g->throat_x = gm->rim_x - g->cone_depth;
    g->stop_x = g->throat_x - gm->stop_depth;                                     /* -0.656 */
    g->capture_x = g->stop_x - gm->detent_travel;                                 /* -0.661 */
    g->bottom_x = g->throat_x - gm->bottom_depth;
    g->head_bottom_x = g->bottom_x + gm->head_radius;                             /* -0.671 */
    g->detent_ramp = 0.1 * gm->detent_travel;
    /* the passive vehicle's frame has the cone frame's axes (x = its docking axis, out of it); the cone-frame
       origin is its port */
    g->cone_origin = p->passive.port;
}

double dock_detent(const dock_geom *g, double F, double x, double *energy)
{
    /* u = push-in past the start of the rise; rise over [0, w], hold, fall over [L, L + w] with L = travel;
       centred: u = 0 at stop_x + w/2 */
    double w = g->detent_ramp, L = g->stop_x - g->capture_x;
    double u = g->stop_x + 0.5 * w - x;
    double f, e;
    if (u <= 0)
        f = 0, e = 0;
    else if (u < w)
        f = F * u / w, e = 0.5 * F * u * u / w;
    else if (u < L)
        f = F, e = 0.5 * F * w + F * (u - w);
    else if (u < L + w)
        f = F * (L + w - u) / w, e = F * L - 0.5 * F * (L + w - u) * (L + w - u) / w;
    else
        f = 0, e = F * L;
    *energy = e;
    return f;
}

double dock_slot_width(const mech_dock_geometry *gm, double u, double *dw)
{
    /* after capture the open latches sit in the slots; the slots narrow linearly from the entry half-width at the
       capture plane (u = detent_travel below the stop plane) to the narrow half-width at the stop plane (u = 0),
       so a head pulled back onto the stops is turned into roll alignment (spec 001 §1.5). Both corners of the
       narrowing are rounded over DOCK_SLOT_FILLET (a parabola tangent to the two faces, 1/4 k h off the corner):
       with sharp corners the face's axial share jumped from 0 to F r dw where a latch pressed on a corner, and a
       head held there by the pull switched across it every few steps (S3x-C into the module cone with the pads'
       stick: steps of 0.03-0.1 ms for 150 s, docs/dock-process.md §8.5) */
    const double L = gm->detent_travel, h = fmin(0.5 * DOCK_SLOT_FILLET, 0.25 * L);
    const double k = (gm->slot_entry - gm->slot_narrow) / L;
    if (u >= L + h) {
        *dw = 0;
        return gm->slot_entry;
    }
    if (u <= -h) {
        *dw = 0;
        return gm->slot_narrow;
    }
    if (u < h) {   /* the narrow end's fillet */
        double v = u + h;
        *dw = k * v / (2 * h);
        return gm->slot_narrow + k * v * v / (4 * h);
    }
    if (u > L - h) {   /* the entry's fillet */
        double v = L + h - u;
        *dw = k * v / (2 * h);
        return gm->slot_entry - k * v * v / (4 * h);
    }
    *dw = k;
    return gm->slot_narrow + k * u;
}

static mech_contact_pair pair(const char *name, int ba, mech_contact_shape sa, mech_vec3 pa, int bb,
                              mech_contact_shape sb, mech_vec3 pb, mech_mat3 rb, mech_contact_law law, double max_depth)
{
    mech_contact_pair c;
    memset(&c, 0, sizeof c);
    snprintf(c.name, sizeof c.name, "%s", name);
    c.body_a = ba;
    c.body_b = bb;
    c.shape_a = sa;
    c.shape_b = sb;
    c.local_a = mech_contact_pose_make(pa, mech_mat3_identity());
    c.local_b = mech_contact_pose_make(pb, rb);
    c.law = law;
    c.max_depth = max_depth;
    return c;
}

double dock_contact_mass(const mech_dock_params *p)
{
    double Lp = p->geom.probe_length;
    return fmin(p->axial.m_eq, p->mass.probe_inertia.y / (Lp * Lp));
}

int dock_geom_contacts(const mech_dock_params *p, const dock_geom *g, mech_contact_model *set[DOCK_NSET], hy_err *err)
{
    const mech_dock_geometry *gm = &p->geom;
    /* the latch stops' Hunt-Crossley damping capped at critical on the lightest mass a contact drives (docs/dock.md
       §6b): a latch pulled onto its stop starts at the v_min floor, and its D times the drive's kilonewtons is 3-7x
       critical, a fast real mode beyond the step's contact ceiling theta / omega (omega on that mass). The other sets
       keep the law as given: their contacts are impacts, whose peaks the law was fitted to */
    mech_contact_law law_latch = p->contact.head_bottom;
    law_latch.c_mass = dock_contact_mass(p);
    const mech_vec3 O = g->cone_origin, zero = {0, 0, 0};
    const mech_mat3 I = mech_mat3_identity();
    const double rh = gm->head_radius;
    mech_contact_pair pr[16];
    int rc;

    /* cone: the head sphere inside the hollow cone (wall, entry rim, throat edge) */
    pr[0] = pair("head-cone", DOCK_CB_HEAD, mech_contact_sphere(rh), zero, DOCK_CB_PASSIVE,
                 mech_contact_cone(gm->rim_radius, gm->half_angle, g->cone_depth),
                 mech_vec3_add(O, (mech_vec3){g->rim_x, 0, 0}), I, p->contact.head_cone, 0.5 * rh);
    if ((rc = mech_contact_model_new(DOCK_NCB, 1, pr, &set[DOCK_SET_CONE], err)))
        return rc;

    /* socket: bore from the bottom face up to the throat, and the bottom disc (free side +x); two sets, so each
       is gated on its own (the head resting on the bottom is 5 mm clear of the bore when centred) */
    pr[0] = pair("head-socket", DOCK_CB_HEAD, mech_contact_sphere(rh), zero, DOCK_CB_PASSIVE,
                 mech_contact_bore(gm->socket_radius, gm->bottom_depth), mech_vec3_add(O, (mech_vec3){g->bottom_x, 0, 0}),
                 I, p->contact.head_cone, 0.5 * rh);
    if ((rc = mech_contact_model_new(DOCK_NCB, 1, pr, &set[DOCK_SET_SOCKET], err)))
        return rc;
    pr[0] = pair("head-bottom", DOCK_CB_HEAD, mech_contact_sphere(rh), zero, DOCK_CB_PASSIVE,
                 mech_contact_disc(gm->socket_radius), mech_vec3_add(O, (mech_vec3){g->bottom_x, 0, 0}), I,
                 p->contact.head_bottom, 0.5 * rh);
    if ((rc = mech_contact_model_new(DOCK_NCB, 1, pr, &set[DOCK_SET_BOTTOM], err)))
        return rc;

    /* latches: 4 tips at latch_radius from the head centre in its plane (pivots at the head centre, RP-1 §2.2),
       against the stop plane from below (the plane turned by pi about y: free side -x) */
    const mech_mat3 flip = mech_mat3_diag(-1, 1, -1);
    for (int k = 0; k < 4; k++) {
        char name[32];
        snprintf(name, sizeof name, "latch%d-stop", k + 1);
        double a = 0.5 * M_PI * k;
        pr[k] = pair(name, DOCK_CB_LATCH, mech_contact_point(),
                     (mech_vec3){0, gm->latch_radius * cos(a), gm->latch_radius * sin(a)}, DOCK_CB_PASSIVE,
                     mech_contact_plane(0, 0), mech_vec3_add(O, (mech_vec3){g->stop_x, 0, 0}), flip,
                     law_latch, gm->detent_travel);
    }
    if ((rc = mech_contact_model_new(DOCK_NCB, 4, pr, &set[DOCK_SET_LATCH], err)))
        return rc;

    /* limiter: force pads = sectors of the truncated cone on the housing, against the rim circle */
    int np = gm->limiter_pads;
    if (np > 0) {
        mech_contact_shape fr = mech_contact_frustum(gm->limiter_r0, gm->limiter_r1, gm->limiter_x1 - gm->limiter_x0,
                                                     MECH_CONTACT_OUTSIDE);
        for (int k = 0; k < np; k++) {
            char name[32];
            snprintf(name, sizeof name, "limiter-pad%d", k + 1);
            pr[k] = pair(name, DOCK_CB_HOUSING,
                         mech_contact_frustum_sector(fr, 2 * M_PI * k / np, gm->limiter_pad_half),
                         (mech_vec3){gm->limiter_x0, 0, 0}, DOCK_CB_PASSIVE, mech_contact_circle(gm->rim_radius),
                         mech_vec3_add(O, (mech_vec3){g->rim_x, 0, 0}), I, p->contact.limiter_rim, 0.03);
        }
        if ((rc = mech_contact_model_new(DOCK_NCB, np, pr, &set[DOCK_SET_LIMITER], err)))
            return rc;
    }
    return HY_OK;
}

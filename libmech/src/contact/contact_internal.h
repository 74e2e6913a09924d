/* Internal helpers of the contact module: the meridian-plane decomposition every axisymmetric primitive uses.
 * A point q of a shape's local frame (axis = local x) is written q = u x̂ + ρ e_r with ρ >= 0; on the axis
 * (ρ = 0) e_r is local +y, so a ring contact reports its +y point (docs/contact.md §2). */
#ifndef MECH_CONTACT_INTERNAL_H
#define MECH_CONTACT_INTERNAL_H

#include <math.h>
#include "mech/contact.h"

typedef struct contact_meridian {
    double    u, rho;  /* axial and radial coordinates, m */
    mech_vec3 er;      /* unit radial direction, local frame */
} contact_meridian;

static inline contact_meridian contact_meridian_of(mech_vec3 q)
{
    contact_meridian m;
    m.u = q.x;
    m.rho = sqrt(q.y * q.y + q.z * q.z); /* not hypot: 3x slower, and no overflow at metre scales */
    if (m.rho > 0.0)
        m.er = (mech_vec3){0.0, q.y / m.rho, q.z / m.rho};
    else
        m.er = (mech_vec3){0.0, 1.0, 0.0};
    return m;
}

// (meridian coordinates (a, b), radial direction) => the local vector a x̂ + b e_r
static inline mech_vec3 contact_meridian_vec(double a, double b, mech_vec3 er)
{
    return (mech_vec3){a, b * er.y, b * er.z};
}

// (pose, world point) => local coordinates
static inline mech_vec3 contact_to_local(const mech_contact_pose *p, mech_vec3 w)
{
    return mech_mat3_tapply(p->rot, mech_vec3_sub(w, p->pos));
}
static inline mech_vec3 contact_to_world(const mech_contact_pose *p, mech_vec3 l)
{
    return mech_vec3_add(p->pos, mech_mat3_apply(p->rot, l));
}

// the "no contact possible" geometry
static inline void contact_geom_none(mech_contact_geom *g)
{
    g->depth = -INFINITY;
    g->point = mech_vec3_zero();
    g->normal = (mech_vec3){1.0, 0.0, 0.0};
    g->feature = MECH_CONTACT_FEAT_NONE;
    g->grad_deficit = 0.0;
}

/* A generatrix segment in the meridian plane, from (u0, rho0) to (u1, rho1), u1 > u0, with the free side
 * towards the axis (INSIDE, hollow) or away from it (OUTSIDE, solid). */
typedef struct contact_segment {
    double u0, rho0;       /* start point                                          */
    double tu, trho, len;  /* unit direction and length                            */
    double nu, nrho;       /* unit normal towards the free side                    */
    int    sector;         /* 1: only radial directions within a pad count          */
    double cy, cz, cos_half; /* pad bisector (local y, z) and cos(half-width)        */
    double sin_half;       /* sqrt(1 - cos_half^2): the side planes' distances    */
} contact_segment;

static inline contact_segment contact_segment_make(double u0, double rho0, double u1, double rho1, int side)
{
    contact_segment s;
    double du = u1 - u0, dr = rho1 - rho0, L = sqrt(du * du + dr * dr);
    s.u0 = u0;
    s.rho0 = rho0;
    s.len = L;
    s.tu = du / L;
    s.trho = dr / L;
    if (side == MECH_CONTACT_INSIDE) { /* free side has the negative radial component */
        s.nu = s.trho;
        s.nrho = -s.tu;
    } else {
        s.nu = -s.trho;
        s.nrho = s.tu;
    }
    s.sector = 0;
    s.cy = 1.0, s.cz = 0.0, s.cos_half = -1.0, s.sin_half = 0.0;
    return s;
}

// (segment, frustum shape) => the pad restriction of a FRUSTUM (none for a full turn)
static inline void contact_segment_sector(contact_segment *s, const mech_contact_shape *f)
{
    if (f->sector_half > 0.0 && f->sector_half < M_PI) {
        s->sector = 1;
        if (f->sector_trig[0] == f->sector_mid && f->sector_trig[1] == f->sector_half) {
            s->cy = f->sector_trig[2];   /* taken by mech_contact_frustum_sector */
            s->cz = f->sector_trig[3];
            s->cos_half = f->sector_trig[4];
            s->sin_half = f->sector_trig[5];
        } else {
            s->cy = cos(f->sector_mid);
            s->cz = sin(f->sector_mid);
            s->cos_half = cos(f->sector_half);
            s->sin_half = sqrt(fmax(0.0, 1.0 - s->cos_half * s->cos_half));
        }
    }
}

// (segment, radial direction) => 1 when the direction lies within the segment's pad (always without one)
static inline int contact_segment_in_sector(const contact_segment *s, mech_vec3 er)
{
    return !s->sector || er.y * s->cy + er.z * s->cz >= s->cos_half;
}

static inline mech_contact_vel contact_relvel(const mech_contact_geom *g, mech_vec3 v_a, mech_vec3 v_b)
{
    mech_vec3 v = mech_vec3_sub(v_a, v_b);
    mech_contact_vel r;
    r.vn = mech_vec3_dot(v, g->normal);
    r.vt = mech_vec3_axpy(v, -r.vn, g->normal);
    return r;
}

/* a body's point between its frame and the world (the anchors of the tangential law are kept in their bodies) */
static inline mech_vec3 contact_body_to_local(const mech_contact_body *b, mech_vec3 p)
{
    return mech_mat3_tapply(b->rot, mech_vec3_sub(p, b->pos));
}
static inline mech_vec3 contact_body_to_world(const mech_contact_body *b, mech_vec3 l)
{
    return mech_vec3_add(b->pos, mech_mat3_apply(b->rot, l));
}

/* The anchored tangential law of every contact set (contact_set.c), also the movable limiter's pads on the cone wall
 * (dock_proc.c): the stretch u between the anchors (tangential), the trial force -kt u - ct vt; stick while it is
 * within mu N (the caller's mu: mu_s, or mu_k once the pair slid), else the kinetic mu_k N along the trial force, the
 * anchor dragged to |kt z| = mu_k N. => the friction force on A (*ft), the stretch to keep (*z); 1 when it slides */
static inline int contact_anchored_friction(mech_vec3 u, mech_vec3 vt, double kt, double ct, double mu, double mu_k,
                                            double N, mech_vec3 *ft, mech_vec3 *z)
{
    mech_vec3 fs = mech_vec3_axpy(mech_vec3_scale(u, -kt), -ct, vt);
    double fmag2 = mech_vec3_dot(fs, fs), f_lim = mu * N; /* >= 0: the stick test on squares needs no square root */
    if (fmag2 <= f_lim * f_lim) {                         /* stick (includes fs = 0) */
        *ft = fs;
        *z = u;
        return 0;
    }
    *ft = mech_vec3_scale(fs, mu_k * N / sqrt(fmag2));    /* mu_k N along fs/|fs|: one division */
    *z = kt > 0.0 ? mech_vec3_scale(*ft, -1.0 / kt) : mech_vec3_zero();
    return 1;
}

/* mech_contact_sphere_cone with tan(half_angle) given (the contact set compiles it once per pair) */
int contact_sphere_cone_tan(const mech_contact_shape *a, const mech_contact_pose *pa, const mech_contact_shape *b,
                            const mech_contact_pose *pb, double tan_half_angle, mech_contact_geom *g);

/* the same from the sphere centre's meridian coordinates in the cone's frame (contact_meridian_of of its local
 * position), for a caller that has them already (the docking pads and rollers: their cheap bound needs them) */
int contact_sphere_cone_meridian(const mech_contact_shape *a, const contact_meridian *m, const mech_contact_shape *b,
                                 const mech_contact_pose *pb, double tan_half_angle, mech_contact_geom *g);

/* mech_contact_frustum_circle with an optional warm start: `warm` (NULL: none) is the edge angle of the last
 * solution (B's local frame, from +y towards +z), *theta (may be NULL) receives the new one. The contact set
 * keeps the angle in its committed state so that a persisting limiter contact costs one or two Newton steps. */
int contact_frustum_circle_warm(const mech_contact_shape *a, const mech_contact_pose *pa, const mech_contact_shape *b,
                                const mech_contact_pose *pb, const double *warm, double *theta, mech_contact_geom *g);
/* the same with the cosine and sine of the angles: warm_cs (NULL: computed from *warm) = {cos, sin} of *warm,
 * theta_cs (may be NULL) receives those of the new angle; the contact set keeps both so that a persisting contact
 * calls no trigonometric function. For an OUTSIDE frustum, cert_in (may be NULL) is the certificate of an
 * earlier search (mech_contact_cert): while the edge has moved less than its clearance, no search is made (no
 * contact; depth = minus the clearance left, an upper bound of the signed depth), and while it has moved less than
 * half its margin the solid's coarse scan evaluates three samples; cert_out (may be NULL) receives the certificate
 * to keep (cert_in's when it was used, else this search's, clearance 0 when the pair touches). */
int contact_frustum_circle_warm_cs(const mech_contact_shape *a, const mech_contact_pose *pa,
                                   const mech_contact_shape *b, const mech_contact_pose *pb, const double *warm,
                                   const double *warm_cs, const mech_contact_cert *cert_in,
                                   mech_contact_cert *cert_out, double *theta, double *theta_cs,
                                   mech_contact_geom *g);

/* mech_contact_frustum_circle (warm: contact_frustum_circle_warm's) as it searched before the wall-first path of a
 * full frustum whose edge keeps clear of its ends (frustum_circle_search): the solid first. For the tests, which
 * hold the two to the same bits. */
int contact_frustum_circle_solid_first(const mech_contact_shape *a, const mech_contact_pose *pa,
                                       const mech_contact_shape *b, const mech_contact_pose *pb, const double *warm,
                                       mech_contact_geom *g);

#endif

/* Geometry of the contact primitives and the pair table (as MuJoCo's mjCOLLISIONFUNC). Every axisymmetric shape
 * is handled in its meridian plane (contact_internal.h): the sphere's centre becomes (u, ρ), the shape's
 * generatrix a segment, and the 3-D normal and point follow from the radial direction. Conventions (normal out of
 * B into A, point midway between the surfaces) are those of mech/contact.h; the formulas are in docs/contact.md §2. */
#include <math.h>
#include "contact/contact_internal.h"

/* ---- shapes ---- */
static mech_contact_shape shape_zero(mech_contact_shape_type t)
{
    mech_contact_shape s = {0};
    s.type = t;
    return s;
}
mech_contact_shape mech_contact_sphere(double radius)
{
    mech_contact_shape s = shape_zero(MECH_CONTACT_SPHERE);
    s.radius = radius;
    return s;
}
mech_contact_shape mech_contact_point(void) { return mech_contact_sphere(0.0); }
mech_contact_shape mech_contact_plane(double half_y, double half_z)
{
    mech_contact_shape s = shape_zero(MECH_CONTACT_PLANE);
    s.half_y = half_y;
    s.half_z = half_z;
    return s;
}
mech_contact_shape mech_contact_disc(double radius)
{
    mech_contact_shape s = shape_zero(MECH_CONTACT_PLANE);
    s.disc_radius = radius;
    return s;
}
mech_contact_shape mech_contact_frustum(double r0, double r1, double length, int side)
{
    mech_contact_shape s = shape_zero(MECH_CONTACT_FRUSTUM);
    s.r0 = r0;
    s.r1 = r1;
    s.length = length;
    s.side = side;
    return s;
}
mech_contact_shape mech_contact_bore(double radius, double length)
{
    return mech_contact_frustum(radius, radius, length, MECH_CONTACT_INSIDE);
}
mech_contact_shape mech_contact_frustum_sector(mech_contact_shape f, double mid, double half)
{
    f.sector_mid = mid;
    f.sector_half = half;
    /* the pair functions' trigonometry, once (3 calls per pad and evaluation were 3 % of a variant C docking run) */
    f.sector_trig[0] = mid, f.sector_trig[1] = half;
    f.sector_trig[2] = cos(mid), f.sector_trig[3] = sin(mid), f.sector_trig[4] = cos(half);
    f.sector_trig[5] = sqrt(fmax(0.0, 1.0 - f.sector_trig[4] * f.sector_trig[4]));
    return f;
}
mech_contact_shape mech_contact_cone(double rim_radius, double half_angle, double depth)
{
    mech_contact_shape s = shape_zero(MECH_CONTACT_CONE);
    s.radius = rim_radius;
    s.half_angle = half_angle;
    s.depth = depth;
    return s;
}
mech_contact_shape mech_contact_circle(double radius)
{
    mech_contact_shape s = shape_zero(MECH_CONTACT_CIRCLE);
    s.radius = radius;
    return s;
}

static int finite_nonneg(double x) { return isfinite(x) && x >= 0.0; }

int mech_contact_shape_check(const mech_contact_shape *s, const char *where, hy_err *err)
{
    const char *w = where ? where : "shape";
    switch (s->type) {
    case MECH_CONTACT_SPHERE:
        if (!finite_nonneg(s->radius))
            return hy_err_set(err, HY_EMODEL, "%s: sphere radius = %g: expected a finite value >= 0", w, s->radius);
        return HY_OK;
    case MECH_CONTACT_PLANE:
        if (!finite_nonneg(s->disc_radius) || !finite_nonneg(s->half_y) || !finite_nonneg(s->half_z))
            return hy_err_set(err, HY_EMODEL,
                              "%s: plane extents (half_y %g, half_z %g, disc_radius %g): expected finite values >= 0"
                              " (0 = unbounded)", w, s->half_y, s->half_z, s->disc_radius);
        return HY_OK;
    case MECH_CONTACT_FRUSTUM:
        if (!finite_nonneg(s->r0) || !finite_nonneg(s->r1))
            return hy_err_set(err, HY_EMODEL, "%s: frustum radii r0 = %g, r1 = %g: expected finite values >= 0", w,
                              s->r0, s->r1);
        if (!(isfinite(s->length) && s->length > 0.0))
            return hy_err_set(err, HY_EMODEL, "%s: frustum length = %g: expected a finite value > 0", w, s->length);
        if (s->side != MECH_CONTACT_INSIDE && s->side != MECH_CONTACT_OUTSIDE)
            return hy_err_set(err, HY_EMODEL, "%s: frustum side = %d: expected INSIDE (0) or OUTSIDE (1)", w, s->side);
        if (!(isfinite(s->sector_mid) && isfinite(s->sector_half) && s->sector_half >= 0.0))
            return hy_err_set(err, HY_EMODEL, "%s: frustum sector (mid %g, half %g rad): expected finite values, "
                              "half >= 0 (0: the full turn)", w, s->sector_mid, s->sector_half);
        return HY_OK;
    case MECH_CONTACT_CONE:
        if (!(isfinite(s->radius) && s->radius > 0.0))
            return hy_err_set(err, HY_EMODEL, "%s: cone rim radius = %g: expected a finite value > 0", w, s->radius);
        if (!(s->half_angle > 0.0 && s->half_angle < 0.5 * M_PI))
            return hy_err_set(err, HY_EMODEL, "%s: cone half_angle = %g rad: expected 0 < half_angle < pi/2", w,
                              s->half_angle);
        if (!(isfinite(s->depth) && s->depth > 0.0 && s->radius - s->depth * tan(s->half_angle) >= 0.0))
            return hy_err_set(err, HY_EMODEL,
                              "%s: cone depth = %g: expected 0 < depth <= rim_radius / tan(half_angle) = %g", w,
                              s->depth, s->radius / tan(s->half_angle));
        return HY_OK;
    case MECH_CONTACT_CIRCLE:
        if (!(isfinite(s->radius) && s->radius > 0.0))
            return hy_err_set(err, HY_EMODEL, "%s: circle radius = %g: expected a finite value > 0", w, s->radius);
        return HY_OK;
    default:
        return hy_err_set(err, HY_EMODEL, "%s: shape type %d: expected 0..%d", w, (int)s->type,
                          (int)MECH_CONTACT_NSHAPE - 1);
    }
}

/* ---- common finishing step ---- */
/* (B's pose, local foot on B's surface, local unit normal out of B, depth, feature) => world geometry; returns
 * the contact flag. The point is the foot moved half the depth against the normal (midway between surfaces). */
static inline __attribute__((always_inline)) int finish(const mech_contact_pose *pb, mech_vec3 foot, mech_vec3 n, double depth, int feature,
                  mech_contact_geom *g)
{
    g->depth = depth;
    g->normal = mech_mat3_apply(pb->rot, n);
    g->point = contact_to_world(pb, mech_vec3_axpy(foot, -0.5 * depth, n));
    g->feature = feature;
    g->grad_deficit = 0.0;
    return depth > 0.0;
}

/* ---- sphere - sphere ---- */
int mech_contact_sphere_sphere(const mech_contact_shape *a, const mech_contact_pose *pa, const mech_contact_shape *b,
                               const mech_contact_pose *pb, mech_contact_geom *g)
{
    mech_vec3 w = mech_vec3_sub(pa->pos, pb->pos);
    double d = mech_vec3_norm(w);
    /* coincident centres: any direction is as good; take B's local +x (deterministic) */
    mech_vec3 n = d > 0.0 ? mech_vec3_scale(w, 1.0 / d) : mech_mat3_col(pb->rot, 0);
    double depth = a->radius + b->radius - d;
    g->depth = depth;
    g->normal = n;
    g->point = mech_vec3_axpy(mech_vec3_axpy(pb->pos, b->radius, n), -0.5 * depth, n);
    g->feature = MECH_CONTACT_FEAT_FACE;
    g->grad_deficit = 0.0;
    return depth > 0.0;
}

/* ---- sphere - plane (rectangle, disc, unbounded) ---- */
int mech_contact_sphere_plane(const mech_contact_shape *a, const mech_contact_pose *pa, const mech_contact_shape *b,
                              const mech_contact_pose *pb, mech_contact_geom *g)
{
    mech_vec3 c = contact_to_local(pb, pa->pos);
    /* the extent is tested on the projection of the centre (= the contact point) */
    if (b->disc_radius > 0.0) {
        if (c.y * c.y + c.z * c.z > b->disc_radius * b->disc_radius) goto none;
    } else if ((b->half_y > 0.0 && fabs(c.y) > b->half_y) || (b->half_z > 0.0 && fabs(c.z) > b->half_z))
        goto none;
    return finish(pb, (mech_vec3){0.0, c.y, c.z}, (mech_vec3){1.0, 0.0, 0.0}, a->radius - c.x,
                  MECH_CONTACT_FEAT_FACE, g);
none:
    contact_geom_none(g);
    return 0;
}

/* (segment, sphere centre in the meridian plane, radius, B's pose) => wall contact when the foot of the
 * perpendicular lies on the segment, else feature NONE (open ends) */
static inline __attribute__((always_inline)) int sphere_segment(const contact_segment *s, const contact_meridian *m, double r, const mech_contact_pose *pb,
                          mech_contact_geom *g)
{
    double du = m->u - s->u0, dr = m->rho - s->rho0;
    double t = du * s->tu + dr * s->trho;  /* position of the foot along the generatrix */
    if (!(t >= 0.0 && t <= s->len) || !contact_segment_in_sector(s, m->er)) {
        contact_geom_none(g);
        return 0;
    }
    double d = du * s->nu + dr * s->nrho;  /* signed distance of the centre from the wall, + on the free side */
    mech_vec3 foot = contact_meridian_vec(s->u0 + t * s->tu, s->rho0 + t * s->trho, m->er);
    mech_vec3 n = contact_meridian_vec(s->nu, s->nrho, m->er);
    return finish(pb, foot, n, r - d, MECH_CONTACT_FEAT_WALL, g);
}

/* ---- sphere - frustum (bore, roller on a cone) ---- */
int mech_contact_sphere_frustum(const mech_contact_shape *a, const mech_contact_pose *pa, const mech_contact_shape *b,
                                const mech_contact_pose *pb, mech_contact_geom *g)
{
    contact_meridian m = contact_meridian_of(contact_to_local(pb, pa->pos));
    contact_segment s = contact_segment_make(0.0, b->r0, b->length, b->r1, b->side);
    contact_segment_sector(&s, b);
    return sphere_segment(&s, &m, a->radius, pb, g);
}

/* (sphere centre in the meridian plane of a circle of radius R at u = 0) => edge contact */
static inline __attribute__((always_inline)) int sphere_edge(const contact_meridian *m, double r, double R, mech_vec3 n_degenerate,
                       const mech_contact_pose *pb, mech_contact_geom *g)
{
    double wu = m->u, wr = m->rho - R, dist = sqrt(wu * wu + wr * wr);
    mech_vec3 n = dist > 0.0 ? contact_meridian_vec(wu / dist, wr / dist, m->er) : n_degenerate;
    return finish(pb, contact_meridian_vec(0.0, R, m->er), n, r - dist, MECH_CONTACT_FEAT_EDGE, g);
}

/* ---- sphere - hollow cone with its entry rim ---- */
int mech_contact_sphere_cone(const mech_contact_shape *a, const mech_contact_pose *pa, const mech_contact_shape *b,
                             const mech_contact_pose *pb, mech_contact_geom *g)
{
    return contact_sphere_cone_tan(a, pa, b, pb, tan(b->half_angle), g);
}

int contact_sphere_cone_tan(const mech_contact_shape *a, const mech_contact_pose *pa, const mech_contact_shape *b,
                            const mech_contact_pose *pb, double ta, mech_contact_geom *g)
{
    contact_meridian m = contact_meridian_of(contact_to_local(pb, pa->pos));
    return contact_sphere_cone_meridian(a, &m, b, pb, ta, g);
}

int contact_sphere_cone_meridian(const mech_contact_shape *a, const contact_meridian *mc, const mech_contact_shape *b,
                                 const mech_contact_pose *pb, double ta, mech_contact_geom *g)
{
    double R = b->radius, D = b->depth;
    const contact_meridian m = *mc;
    contact_segment s = contact_segment_make(-D, R - D * ta, 0.0, R, MECH_CONTACT_INSIDE);
    double t = (m.u - s.u0) * s.tu + (m.rho - s.rho0) * s.trho;
    if (t < 0.0) {
        /* beyond the throat end of the generatrix. Above the throat plane the centre faces the throat edge (seen
         * from inside, the cone turns into the socket bore there: a convex edge, whose region lies between the
         * wall normal at the throat and the bore's); below it the socket's primitives take over */
        if (m.u < s.u0) {
            contact_geom_none(g);
            return 0;
        }
        double wu = m.u - s.u0, wr = m.rho - s.rho0, dist = sqrt(wu * wu + wr * wr);
        mech_vec3 n = dist > 0.0 ? contact_meridian_vec(wu / dist, wr / dist, m.er)
                                 : mech_vec3_normalize(contact_meridian_vec(s.nu, s.nrho - 1.0, m.er));
        return finish(pb, contact_meridian_vec(s.u0, s.rho0, m.er), n, a->radius - dist, MECH_CONTACT_FEAT_EDGE, g);
    }
    if (t <= s.len) return sphere_segment(&s, &m, a->radius, pb, g);
    /* beyond the rim end of the generatrix: the rim edge, whose region lies between the wall normal at the rim
     * and the entry face's normal +x; a centre outside the rim radius faces the entry face (a PLANE primitive) */
    if (m.rho > R) {
        contact_geom_none(g);
        return 0;
    }
    /* centre exactly on the rim circle: the bisector of the wall normal and +x */
    mech_vec3 nd = mech_vec3_normalize(contact_meridian_vec(s.nu + 1.0, s.nrho, m.er));
    return sphere_edge(&m, a->radius, R, nd, pb, g);
}

/* ---- sphere - circular edge ---- */
int mech_contact_sphere_circle(const mech_contact_shape *a, const mech_contact_pose *pa, const mech_contact_shape *b,
                               const mech_contact_pose *pb, mech_contact_geom *g)
{
    contact_meridian m = contact_meridian_of(contact_to_local(pb, pa->pos));
    return sphere_edge(&m, a->radius, b->radius, (mech_vec3){1.0, 0.0, 0.0}, pb, g);
}

/* ---- frustum (A) - circular edge (B) ---- */
typedef struct edge_eval {
    double           f, f1, f2;  /* signed distance of the edge point from the wall (+ free side), d/dθ, d²/dθ² */
    int              in;         /* foot on the generatrix segment                                          */
    contact_meridian m;
    mech_vec3        q;          /* edge point, A's local frame                                             */
} edge_eval;

typedef struct edge_ctx {
    contact_segment s;
    mech_vec3       c, e1, e2;  /* edge centre and in-plane axes (times the radius), A's local frame            */
} edge_ctx;

// (context, cos θ, sin θ) => the edge point at angle θ and the wall distance with its θ-derivatives
static inline __attribute__((always_inline)) edge_eval edge_at(const edge_ctx *x, double ct, double st)
{
    edge_eval e;
    const contact_segment *s = &x->s;
    mech_vec3 r = mech_vec3_axpy(mech_vec3_scale(x->e1, ct), st, x->e2);
    mech_vec3 q1 = mech_vec3_axpy(mech_vec3_scale(x->e1, -st), ct, x->e2); /* dq/dθ; d²q/dθ² = -r */
    e.q = mech_vec3_add(x->c, r);
    e.m = contact_meridian_of(e.q);
    double du = e.m.u - s->u0, dr = e.m.rho - s->rho0, t = du * s->tu + dr * s->trho;
    e.in = t >= 0.0 && t <= s->len && contact_segment_in_sector(s, e.m.er);
    e.f = du * s->nu + dr * s->nrho;
    double rho1 = 0.0, rho2 = 0.0, rho = e.m.rho;
    if (rho > 0.0) {
        rho1 = (e.q.y * q1.y + e.q.z * q1.z) / rho;
        rho2 = (q1.y * q1.y + q1.z * q1.z - e.q.y * r.y - e.q.z * r.z) / rho - rho1 * rho1 / rho;
    }
    e.f1 = s->nu * q1.x + s->nrho * rho1;
    e.f2 = -s->nu * r.x + s->nrho * rho2;
    return e;
}

// (cos θ, sin θ, step s) => cos and sin of θ + s by the addition formulas (Taylor series of cos s and sin s
// below 2e-2, their first omitted terms s^8 / 8! and s^9 / 9! < 1e-18 there; the library's sincos above). The
// bound covers the solid search's steps, all within a fine interval 2 pi / 512 = 0.0123 (a bound of 1e-2 sent a
// fifth of them to sincos)
static inline void turn(double c, double sn, double s, double *c2, double *s2)
{
    double cs, ss;
    if (fabs(s) < 2e-2) {
        double s2_ = s * s;
        cs = 1.0 - 0.5 * s2_ * (1.0 - s2_ / 12.0 * (1.0 - s2_ / 30.0));
        ss = s * (1.0 - s2_ / 6.0 * (1.0 - s2_ / 20.0 * (1.0 - s2_ / 42.0)));
    } else
        sincos(s, &ss, &cs);
    *c2 = c * cs - sn * ss;
    *s2 = sn * cs + c * ss;
}

// (segment with a sector no wider than a half turn, sin of its half width, side sg = +1 (towards +azimuth) or -1,
// vector v) => the linear functional whose value at a point is its inside distance to that side's plane:
// sin_half (v . b) - cos_half sg (v x b), b the pad's bisector (the side term of solid_at without the |.|)
static inline double side_functional(const contact_segment *s, double sin_half, double sg, mech_vec3 v)
{
    return sin_half * (v.y * s->cy + v.z * s->cz) - s->cos_half * sg * (v.z * s->cy - v.y * s->cz);
}

// (context, angle θ0 with its cos/sin, step s whose end is outside the pad's sector) => the step to where the edge
// point reaches the sector's side on the way (a side plane's inside distance is a + b cos θ + c sin θ, the
// functional of solid_bound_make), 1e-12 rad short of it; 0 when no side is crossed within the step
static double sector_exit(const edge_ctx *x, double c0, double s0, double step)
{
    const contact_segment *s = &x->s;
    if (!(s->cos_half >= 0.0))
        return 0.0;
    double sin_half = s->sin_half, best = 0.0;
    for (int k = 0; k < 2; k++) {
        double sg = k ? -1.0 : 1.0;
        double a = side_functional(s, sin_half, sg, x->c), b = side_functional(s, sin_half, sg, x->e1),
               c = side_functional(s, sin_half, sg, x->e2);
        /* in the step's own angle u from θ0: a + B cos u + C sin u, with B, C the sinusoid turned by θ0 */
        double B = b * c0 + c * s0, C = c * c0 - b * s0, r = sqrt(B * B + C * C);
        if (!(r > 0.0) || fabs(a) > r)
            continue;
        double phi = atan2(C, B), w = acos(-a / r);
        for (int j = 0; j < 2; j++) {
            double u = remainder(phi + (j ? -w : w), 2.0 * M_PI);
            if (u * step > 0.0 && fabs(u) < fabs(step) && (best == 0.0 || fabs(u) < fabs(best)))
                best = u;
        }
    }
    return best == 0.0 ? 0.0 : best - copysign(1e-12, best);
}

// (context, start angle with its cos/sin and evaluation) => Newton on df/dθ = 0, steps at most π/8 and halved
// until f does not increase; *th, *c, *sn and *best updated. A step that leaves a pad's sector goes to the sector's
// side instead, where the wall's nearest point within the pad is when f still falls there (its minimum beyond
// the side: halving towards the side took 10-30 iterations of up to 20 evaluations, S1-400-C)
static void edge_newton(const edge_ctx *x, double *th, double *c, double *sn, edge_eval *best)
{
    for (int it = 0; it < 30; it++) {
        if (!(best->f2 > 0.0)) return;
        double step = -best->f1 / best->f2, lim = M_PI / 8;
        if (step > lim) step = lim;
        if (step < -lim) step = -lim;
        int taken = 0;
        for (int h = 0; h < 20 && !taken; h++) {
            double c2, s2;
            turn(*c, *sn, step, &c2, &s2);
            edge_eval e = edge_at(x, c2, s2);
            if (!e.in && x->s.sector && h == 0) {
                double u = sector_exit(x, *c, *sn, step);
                if (u != 0.0) {
                    turn(*c, *sn, u, &c2, &s2);
                    edge_eval eb = edge_at(x, c2, s2);
                    if (eb.in && eb.f <= best->f && eb.f1 * u < 0.0) {
                        /* f still falls at the side: the nearest point within the pad is there */
                        *best = eb;
                        *th += u;
                        *c = c2, *sn = s2;
                        return;
                    }
                }
            }
            if (e.in && e.f <= best->f) {
                *best = e;
                *th += step;
                *c = c2, *sn = s2;
                taken = 1;
            } else
                step *= 0.5;
        }
        /* quadratic convergence: after a step below 1e-5 rad the angle is within ~1e-10 rad */
        if (!taken || fabs(step) < 1e-5) return;
    }
}

/* cos and sin of 2πk/16 */
#define C1 0.92387953251128674
#define S1 0.38268343236508978
#define H2 0.70710678118654752
static const double ring16[16][2] = {
    {1, 0},    {C1, S1},  {H2, H2},  {S1, C1},  {0, 1},  {-S1, C1}, {-H2, H2}, {-C1, S1},
    {-1, 0},   {-C1, -S1}, {-H2, -H2}, {-S1, -C1}, {0, -1}, {S1, -C1}, {H2, -H2}, {C1, -S1},
};
#undef C1
#undef S1
#undef H2

/* ---- the pad as a solid: its end faces and sides (FRUSTUM OUTSIDE) ----
 * The wall search above finds the edge point deepest below the conical wall among the points over the generatrix
 * segment and within the pad. A point past an end plane or a side of the pad is outside the solid, but the first
 * point to cross one of them is deep below the wall when the edge arrives across that face (a rim coming at the
 * limiter's front face inside its smaller radius): the wall depth alone then jumps from nothing to centimetres.
 * In a convex solid the penetration of a point is its distance to the nearest face, so whenever the edge can reach
 * inside the pad the edge point of greatest solid depth is searched as well (docs/contact.md). */
#define SOLID_EDGE_TIE 1e-9   /* m: two faces this close at the deepest point meet there (the search finds the
                                 crossing to ~1e-10 rad, a few 1e-11 m) */
typedef struct solid_eval {
    double    d;     /* min over the faces of the distance inside (> 0 inside the solid), m */
    int       face;  /* 0 wall, 1 back end (u = 0), 2 front end (u = length), 3 side towards +azimuth, 4 side towards -azimuth */
    mech_vec3 q;     /* edge point, A's local frame */
    double    f;     /* its signed wall distance (+ free side) */
} solid_eval;

// (context, frustum, sin of the pad's half width, cos θ, sin θ) => the edge point at θ and its depth inside the
// pad's solid
static inline solid_eval solid_at(const edge_ctx *x, const mech_contact_shape *a, double sin_half, double ct,
                                  double st)
{
    solid_eval e;
    const contact_segment *s = &x->s;
    e.q = mech_vec3_add(x->c, mech_vec3_axpy(mech_vec3_scale(x->e1, ct), st, x->e2));
    double rho = sqrt(e.q.y * e.q.y + e.q.z * e.q.z);
    e.f = (e.q.x - s->u0) * s->nu + (rho - s->rho0) * s->nrho;
    e.d = -e.f, e.face = 0;
    if (e.q.x < e.d) e.d = e.q.x, e.face = 1;
    if (a->length - e.q.x < e.d) e.d = a->length - e.q.x, e.face = 2;
    if (s->sector) {
        /* the side planes through the axis at the pad's mid azimuth +- half: distance rho sin(half - |dphi|) =
           sin half (q . b) - cos half |q x b| with b the bisector (rho cos dphi and rho sin dphi): no
           trigonometry and no division per point */
        double c = e.q.y * s->cy + e.q.z * s->cz, sn = e.q.z * s->cy - e.q.y * s->cz;
        double ds = sin_half * c - s->cos_half * fabs(sn);
        /* an end and a side meet at the edge where the deepest point of a rim across the front face often sits:
           the nearer decides here, and solid_contact's normal there is the depth's gradient, continuous through the
           edge (a bias towards the end, 1e-7 m, held the normal before; it made the depth jump by that much and the
           normal with it where the bias ran out) */
        if (ds < e.d) e.d = ds, e.face = sn >= 0 ? 3 : 4;
    }
    return e;
}

/* The faces of the pad's solid at an edge point q(θ) (A's frame): distance inside, its θ-derivative (with
   q'(θ) = -e1 sin θ + e2 cos θ) and the outward unit normal; 0 wall, 1 back end, 2 front end, 3/4 the side nearer
   the point (solid_at's face 3 or 4); n = 3 without a sector, 4 with one */
typedef struct solid_faces {
    int       n;
    double    d[4], rate[4];
    mech_vec3 nout[4];
} solid_faces;

static void solid_faces_at(const edge_ctx *x, const mech_contact_shape *a, mech_vec3 q, double ct, double st,
                           solid_faces *f)
{
    const contact_segment *s = &x->s;
    mech_vec3 q1 = mech_vec3_axpy(mech_vec3_scale(x->e1, -st), ct, x->e2);
    contact_meridian m = contact_meridian_of(q);
    double rho = m.rho, rho1 = rho > 0.0 ? (q.y * q1.y + q.z * q1.z) / rho : 0.0;
    f->d[0] = -((m.u - s->u0) * s->nu + (rho - s->rho0) * s->nrho);
    f->rate[0] = -(s->nu * q1.x + s->nrho * rho1);
    f->nout[0] = contact_meridian_vec(s->nu, s->nrho, m.er);
    f->d[1] = q.x, f->rate[1] = q1.x, f->nout[1] = (mech_vec3){-1.0, 0.0, 0.0};
    f->d[2] = a->length - q.x, f->rate[2] = -q1.x, f->nout[2] = (mech_vec3){1.0, 0.0, 0.0};
    f->n = 3;
    if (s->sector) {
        /* as in solid_at: rho cos dphi = q.b, rho sin dphi = q x b (b the bisector), the side at +-half */
        double sin_half = s->sin_half;
        double A = q.y * s->cy + q.z * s->cz, B = q.z * s->cy - q.y * s->cz;
        double A1 = q1.y * s->cy + q1.z * s->cz, B1 = q1.z * s->cy - q1.y * s->cz;
        double sg = B >= 0.0 ? 1.0 : -1.0;
        f->d[3] = sin_half * A - s->cos_half * fabs(B);
        f->rate[3] = sin_half * A1 - s->cos_half * sg * B1;
        /* the side plane at azimuth ph = mid + sg half (cos mid = cy, sin mid = cz): its outward normal is the
           radial direction at ph turned by sg 90 deg, by the addition formulas */
        double sph = s->cz * s->cos_half + sg * s->cy * sin_half, cph = s->cy * s->cos_half - sg * s->cz * sin_half;
        f->nout[3] = (mech_vec3){0.0, -sg * sph, sg * cph};
        f->n = 4;
    }
}

#define SOLID_COARSE 64                    /* samples of the whole edge                                     */
#define SOLID_FINE 8                       /* samples across one coarse interval about the best             */

/* The solid's faces other than the wall as functionals linear in the edge point, so sinusoids of θ: q.x (back end),
 * length - q.x (front end) and, for a pad no wider than a half turn, the inside distance to each side plane (ds =
 * the smaller of the two, solid_at). Each is a + b cos θ + c sin θ with the functional's values at the edge's centre
 * and axes: upper bounds of the depth, and its exact value wherever that face is the nearest (solid_local_max's
 * model). (The scans once evaluated solid_at only where this bound could beat the best sample; with solid_at's
 * division gone that saved nothing: S3x-C into the short cone 4.82 s either way, bench_contact's pair 1074 ns
 * with it, 975 without.) */
typedef struct solid_bound {
    int    n;
    double a[4], b[4], c[4];
    double tol;   /* m: the bound's round-off against solid_at's (different expressions of the same distances) */
} solid_bound;

static void solid_bound_make(const edge_ctx *x, const mech_contact_shape *a, double sin_half, solid_bound *sb)
{
    const contact_segment *s = &x->s;
    sb->n = 2;
    sb->a[0] = x->c.x, sb->b[0] = x->e1.x, sb->c[0] = x->e2.x;
    sb->a[1] = a->length - x->c.x, sb->b[1] = -x->e1.x, sb->c[1] = -x->e2.x;
    if (s->sector && s->cos_half >= 0.0) {
        for (int k = 0; k < 2; k++) {
            double sg = k ? -1.0 : 1.0;   /* the side at mid + sg half */
            sb->a[2 + k] = side_functional(s, sin_half, sg, x->c);
            sb->b[2 + k] = side_functional(s, sin_half, sg, x->e1);
            sb->c[2 + k] = side_functional(s, sin_half, sg, x->e2);
        }
        sb->n = 4;
    }
    double scale = fabs(x->c.x) + fabs(x->c.y) + fabs(x->c.z) + sqrt(mech_vec3_dot(x->e1, x->e1)) + a->length;
    sb->tol = 1e-12 * scale;
}

// (context, frustum, sin half, n + 1 samples' cos cc[i] and sin ss[i], n <= SOLID_COARSE) => the best sample (the
// first of the deepest), *ib its index; U (may be NULL) receives every sample's depth
static solid_eval solid_scan_samples(const edge_ctx *x, const mech_contact_shape *a, double sin_half,
                                     const double *cc, const double *ss, int n, int *ibp, double *U)
{
    solid_eval best = solid_at(x, a, sin_half, cc[0], ss[0]);
    int ib = 0;
    if (U) U[0] = best.d;
    for (int i = 1; i <= n; i++) {
        solid_eval e = solid_at(x, a, sin_half, cc[i], ss[i]);
        if (U) U[i] = e.d;
        if (e.d > best.d)
            best = e, ib = i;
    }
    *ibp = ib;
    return best;
}

/* cos and sin of k H / SOLID_FINE = k 2 pi / 512, k = 0 .. SOLID_FINE: the fine scan's offsets from its centre
   (correctly rounded; the negative k by symmetry) */
static const double fine_cos[SOLID_FINE + 1] = {1, 0.9999247018391445, 0.9996988186962042, 0.9993223845883495,
                                                0.9987954562051724, 0.9981181129001492, 0.9972904566786902,
                                                0.996312612182778, 0.9951847266721969};
static const double fine_sin[SOLID_FINE + 1] = {0, 0.012271538285719925, 0.024541228522912288, 0.03680722294135883,
                                                0.049067674327418015, 0.06132073630220858, 0.07356456359966743,
                                                0.0857973123444399, 0.0980171403295606};

// (context, frustum, sin half, centre angle θ0 and its cos/sin, window lo <= hi in 0 .. 2 SOLID_FINE) => the best
// of the samples lo .. hi of the 2 SOLID_FINE + 1 at θ0 + k H / SOLID_FINE, k = -SOLID_FINE .. SOLID_FINE; *jb its
// index, *th, *cs, *sn its angle (solid_scan_samples); U (may be NULL) the window's depths. Each sample is θ0
// turned by its tabled offset, one product each: no sincos, no chain of rotations (the former repeated rotation
// by h was two dependent chains of 8 and 16 steps, and a sincos of h, at every search), and a window's samples
// are the whole scan's to the bit
static solid_eval solid_scan_fine(const edge_ctx *x, const mech_contact_shape *a, double sin_half, double th0,
                                  double c0, double s0, int lo, int hi, double *U, int *jb, double *th, double *cs,
                                  double *sn)
{
    double cc[2 * SOLID_FINE + 1], ss[2 * SOLID_FINE + 1];
    for (int i = lo; i <= hi; i++) {
        int k = i - SOLID_FINE, ak = k < 0 ? -k : k;
        double ck = fine_cos[ak], sk = k < 0 ? -fine_sin[ak] : fine_sin[ak];
        cc[i] = c0 * ck - s0 * sk, ss[i] = s0 * ck + c0 * sk;
    }
    int ib;
    solid_eval best = solid_scan_samples(x, a, sin_half, cc + lo, ss + lo, hi - lo, &ib, U);
    ib += lo;
    *jb = ib;
    *th = th0 + (ib - SOLID_FINE) * (2.0 * M_PI / (SOLID_COARSE * SOLID_FINE)), *cs = cc[ib], *sn = ss[ib];
    return best;
}

/* cos(k pi / 32), k = 0 .. 16: the coarse scan's samples θ_i = i 2 pi / SOLID_COARSE by quadrant symmetry (the
   sine of k pi / 32 is the cosine of (16 - k) pi / 32) */
static const double coarse_cos[17] = {
    1, 0.99518472667219693, 0.98078528040323043, 0.95694033573220882, 0.92387953251128674, 0.88192126434835505,
    0.83146961230254524, 0.77301045336273699, 0.70710678118654757, 0.63439328416364549, 0.55557023301960229,
    0.47139673682599781, 0.38268343236508984, 0.29028467725446233, 0.19509032201612833, 0.09801714032956077, 0};

// (sample i of the coarse scan, 0 .. SOLID_COARSE) => its cos and sin
static inline void coarse_sample(int i, double *c, double *s)
{
    int q = (i / 16) & 3, r = i % 16;
    double c0 = coarse_cos[r], s0 = coarse_cos[16 - r];
    switch (q) {   /* turned by q quarter turns: (c, s) -> (-s, c) each */
    case 0: *c = c0, *s = s0; break;
    case 1: *c = -s0, *s = c0; break;
    case 2: *c = -c0, *s = -s0; break;
    default: *c = s0, *s = -c0; break;
    }
}

/* The solid's depth along the edge with its first two θ-derivatives, face by face: the wall's distance inside
   (edge_at) and the end and side planes' (solid_bound's sinusoids a + b cos θ + c sin θ, exact distances wherever
   they are the nearest: solid_at's side term is the smaller of the two sides' functionals). */
typedef struct solid_model {
    int    n, act;                /* faces (wall first), the nearest                                           */
    double d[5], rate[5], curv[5];
} solid_model;

static inline void solid_model_at(const edge_ctx *x, const solid_bound *sb, double ct, double st, solid_model *m)
{
    edge_eval w = edge_at(x, ct, st);
    m->d[0] = -w.f, m->rate[0] = -w.f1, m->curv[0] = -w.f2;
    m->n = 1 + sb->n, m->act = 0;
    for (int k = 0; k < sb->n; k++) {
        double v = sb->b[k] * ct + sb->c[k] * st;
        m->d[k + 1] = sb->a[k] + v, m->rate[k + 1] = sb->c[k] * ct - sb->b[k] * st, m->curv[k + 1] = -v;
        if (m->d[k + 1] < m->d[m->act]) m->act = k + 1;
    }
}

// (context, bounds, cos/sin of the best sample, half-width hb of the bracket about it) => the offset from the best
// sample of the depth's maximum in [-hb, hb]. The depth is the smallest face distance: at a point, the nearest
// face's own Newton step (when it is concave there) and the steps to where each other face, closing in, crosses it
// (linear models) bound how far the depth can rise: the shortest is taken. The maximum is mostly a kink where two
// faces cross (89 % of the contacts of S3x-C into the short cone), where that step is Newton's on their difference
// and converges quadratically; on a face's smooth maximum it is Newton's on the rate. The depth's slope keeps a
// bracket, and a step that leaves it, or two steps that did not halve it, give way to bisection (Brent's rule): 3.2
// evaluations on average where golden section took 30 (S3x-C into the short cone). A secant without the bracket
// crept to its edge on a smooth maximum.
static double solid_local_max(const edge_ctx *x, const solid_bound *sb, double c0, double s0, double hb,
                              double *wall_curv)
{
    double lo = -hb, hi = hb, u = 0.0, w1 = 2.0 * hb, w2 = 4.0 * hb;
    solid_model m;
    solid_model_at(x, sb, c0, s0, &m);
    for (int it = 0; it < 60; it++) {
        int a = m.act;
        double ra = m.rate[a];
        if (ra == 0.0)
            break;
        double dir = ra > 0.0 ? 1.0 : -1.0, step = m.curv[a] < 0.0 ? fabs(ra / m.curv[a]) : INFINITY;
        for (int j = 0; j < m.n; j++) {
            double close = (ra - m.rate[j]) * dir;   /* > 0: face j comes down to face a's distance */
            if (j != a && close > 0.0) {
                double dj = (m.d[j] - m.d[a]) / close;
                if (dj < step) step = dj;
            }
        }
        if (dir > 0.0)
            lo = u;
        else
            hi = u;
        if (step < 1e-12)   /* at the maximum to round-off (a kink met, or a face's top) */
            break;
        double un = u + dir * step;
        if (!(un > lo && un < hi) || hi - lo > 0.5 * w2)
            un = 0.5 * (lo + hi);
        w2 = w1, w1 = hi - lo;
        if (hi - lo < 1e-10 || un == u)
            break;
        u = un;
        double cu, su;
        turn(c0, s0, u, &cu, &su);
        solid_model_at(x, sb, cu, su, &m);
    }
    /* the wall's curvature at u when the wall is the nearest face there (else 0): the model is always u's */
    *wall_curv = m.act == 0 ? m.curv[0] : 0.0;
    return u;
}

/* What a search may take from the last full one of its pair (the committed mech_contact_cert) and what it
   certifies for the next. */
typedef struct search_cert {
    const mech_contact_cert *in;   /* NULL: none                                                                */
    double moved;                  /* m: how far any edge point may have moved since in's edge (INFINITY: no in) */
    double clear, margin;          /* out, as mech_contact_cert's for this search's edge (0: none)               */
    int    sample;                 /* out: the coarse scan's best sample                                         */
    double fine_margin;            /* out: the fine scan's, as margin (0: none)                                  */
    int    fine_sample;            /* out: the fine scan's best sample                                           */
    int    fine_coarse;            /* out: the coarse sample it was about                                        */
    int    fine_new;               /* out: 1 when this search made the fine scan in full (its certificate is new,
                                      with this search's edge)                                                   */
    int    reused;                 /* out: 1 when in's coarse sample was reused (the certificate stays in's)     */
    int    wall_strict;            /* out: the deepest point is a strict maximum of the wall's depth alone       */
} search_cert;

// (context, frustum, edge radius R, certificates) => the edge angle of greatest solid depth, its cos and sin (the
// samples' table values turned by the model's steps: no sincos of the angle).
// The depth is 1-Lipschitz in the point (a minimum of distances to planes and to the cone), and the arc between
// samples h apart is within R h / 2 of one: a best sample deeper outside than that proves no point inside, and the
// search stops there. Otherwise: 64 samples of the whole edge, 17 across the best, the
// same test again, then model steps between the best's neighbours, each point a small rotation of the best
// (Taylor below 1e-2 rad). Always the whole edge: a warm start (the last angle) found a local maximum at times,
// and the depth jumped when it let go (S3x-C into the short cone: 1.2 J of energy error instead of 0.29 J).
// The 64 samples are skipped when the last full scan's certificate proves which three hold the best (below).
static solid_eval solid_deepest(const edge_ctx *x, const mech_contact_shape *a, double R, double *th, double *cs_out,
                                double *sn_out, search_cert *sc)
{
    double sin_half = x->s.sin_half;   /* 0 without a sector */
    const double H = 2.0 * M_PI / SOLID_COARSE;
    double t = 0, c = 1, sn = 0;
    solid_bound sb;
    solid_bound_make(x, a, sin_half, &sb);
    solid_eval best;
    int ib;
    if (sc->in && sc->in->margin > 2.0 * sc->moved) {
        /* the last full scan's best sample and its two neighbours were deeper than every other sample by more
           than the margin; each sample's point has moved less than half of it since (1-Lipschitz): the best is
           still among those three, and evaluating them gives the full scan's answer (the first of the deepest) */
        int lo = sc->in->sample > 0 ? sc->in->sample - 1 : 0;
        int hi = sc->in->sample < SOLID_COARSE ? sc->in->sample + 1 : SOLID_COARSE;
        double cc[3], ss[3];
        for (int i = lo; i <= hi; i++)
            coarse_sample(i, &cc[i - lo], &ss[i - lo]);
        best = solid_scan_samples(x, a, sin_half, cc, ss, hi - lo, &ib, NULL);
        ib += lo;
        sc->reused = 1;
    } else {
        double cc[SOLID_COARSE + 1], ss[SOLID_COARSE + 1], U[SOLID_COARSE + 1], out = -INFINITY;
        for (int i = 0; i <= SOLID_COARSE; i++)
            coarse_sample(i, &cc[i], &ss[i]);
        best = solid_scan_samples(x, a, sin_half, cc, ss, SOLID_COARSE, &ib, U);
        for (int i = 0; i <= SOLID_COARSE; i++)
            if (i < ib - 1 || i > ib + 1)
                out = fmax(out, U[i]);
        /* the certificate: how much deeper the best (of its neighbourhood) is than every sample outside it (the
           sample 2 pi is sample 0 again: a best at 0 certifies nothing) */
        sc->margin = fmax(0.0, best.d - out);
        sc->sample = ib;
    }
    coarse_sample(ib, &c, &sn);
    t = ib * H;
    /* every sample is at most best.d deep (the three reused ones evaluated, the others below them by the margin
       less what they moved) and every edge point within R H / 2 of one; less a round-off allowance */
    sc->clear = fmax(0.0, -best.d - R * H * 0.5 * (1.0 + 1e-9) - sb.tol);
    if (best.d < -R * H * 0.5 * (1.0 + 1e-9)) {   /* no edge point within the solid */
        *th = t, *cs_out = c, *sn_out = sn;
        return best;
    }
    /* the deepest point is within H of the best sample: 17 samples H / 8 apart across it (33 before the model
       steps below, which need no narrow bracket: bench_contact's limiter pair 975 -> 858 ns). The fine scan has
       its certificate as the coarse one: a full search records how much deeper its best fine sample and their two
       neighbours were than the other fine samples; while the coarse best is the same sample (the fine samples the
       same angles) and every point moved less than half that margin, those three hold the best, and the answer is
       the full scan's to the bit. The fine certificate has its own edge: a search that keeps the coarse certificate
       but scans the fine samples in full certifies them anew from its own edge, as the coarse one is kept from an
       older search's (with the fine certificate only renewed by a full coarse scan, the distance moved since that
       scan soon passed the fine margin's half, and the touching pad of RP-2's S3x-400-C-short scanned all 17 at
       nearly every search) */
    const int nf = 2 * SOLID_FINE;
    int flo = 0, fhi = nf, jf, fine_kept = 0;
    double Uf[2 * SOLID_FINE + 1];
    if (sc->reused && ib == sc->in->fine_coarse && sc->in->fine_margin > 0.0) {
        const mech_contact_cert *ci = sc->in;
        mech_vec3 dc = mech_vec3_sub(x->c, ci->fc), d1 = mech_vec3_sub(x->e1, ci->fe1),
                  d2 = mech_vec3_sub(x->e2, ci->fe2);
        double moved = sqrt(mech_vec3_dot(dc, dc)) + sqrt(mech_vec3_dot(d1, d1) + mech_vec3_dot(d2, d2));
        if (ci->fine_margin > 2.0 * moved) {
            flo = ci->fine_sample > 0 ? ci->fine_sample - 1 : 0;
            fhi = ci->fine_sample < nf ? ci->fine_sample + 1 : nf;
            fine_kept = 1;
        }
    }
    best = solid_scan_fine(x, a, sin_half, t, c, sn, flo, fhi, fine_kept ? NULL : Uf, &jf, &t, &c, &sn);
    if (!fine_kept) {   /* this search's fine certificate (a kept one stays its own search's whole) */
        double out = -INFINITY;
        for (int i = 0; i <= nf; i++)
            if (i < jf - 1 || i > jf + 1)
                out = fmax(out, Uf[i]);
        sc->fine_margin = fmax(0.0, best.d - out);
        sc->fine_sample = jf;
        sc->fine_coarse = ib;
        sc->fine_new = 1;
    }
    if (best.d < -R * H / SOLID_FINE * 0.5 * (1.0 + 1e-9)) {
        *th = t, *cs_out = c, *sn_out = sn;
        return best;
    }
    const double hb = H / SOLID_FINE;
    if (sb.n == 4 || !x->s.sector) {
        /* d = min(wall, the sinusoids of solid_bound) exactly here: model steps between the best's neighbours */
        double wall_curv, u = solid_local_max(x, &sb, c, sn, hb, &wall_curv), cm, sm;
        turn(c, sn, u, &cm, &sm);
        solid_eval e = solid_at(x, a, sin_half, cm, sm);
        if (e.d >= best.d) {
            best = e, t += u, c = cm, sn = sm;
            /* strict: the depth bends down there by more than round-off (R 1e-9 per rad^2; a coaxial rim's
               plateau has none), so no other point of the wall is as deep nearby */
            sc->wall_strict = e.face == 0 && wall_curv < -1e-9 * R;
        }
        *th = t, *cs_out = c, *sn_out = sn;
        return best;
    }
    /* golden section on [t - hb, t + hb], hb the last scan's interval (a pad wider than a half turn, whose side
       distance is no sinusoid) */
    const double gr = 0.6180339887498949;
    double lo = -hb, hi = hb, x1 = hi - gr * (hi - lo), x2 = lo + gr * (hi - lo), c1, s1, c2, s2;
    turn(c, sn, x1, &c1, &s1);
    turn(c, sn, x2, &c2, &s2);
    double d1 = solid_at(x, a, sin_half, c1, s1).d, d2 = solid_at(x, a, sin_half, c2, s2).d;
    for (int it = 0; it < 60 && hi - lo > 1e-10; it++) {
        if (d1 >= d2) {
            hi = x2, x2 = x1, d2 = d1;
            x1 = hi - gr * (hi - lo);
            turn(c, sn, x1, &c1, &s1);
            d1 = solid_at(x, a, sin_half, c1, s1).d;
        } else {
            lo = x1, x1 = x2, d1 = d2;
            x2 = lo + gr * (hi - lo);
            turn(c, sn, x2, &c2, &s2);
            d2 = solid_at(x, a, sin_half, c2, s2).d;
        }
    }
    double m = 0.5 * (lo + hi), cm, sm;
    turn(c, sn, m, &cm, &sm);
    solid_eval e = solid_at(x, a, sin_half, cm, sm);
    if (e.d >= best.d) best = e, t += m, c = cm, sn = sm;
    *th = t, *cs_out = c, *sn_out = sn;
    return best;
}

// (context, frustum) => a lower bound of every edge point's distance from the frustum's cylinder rho <= rmax,
// 0 <= x <= length (which holds the solid): < 0 when an edge point may be inside the solid. The edge's points
// stay farther from the axis than R |cos tilt| - |centre| (the projection on the y-z plane is an ellipse whose
// minor half-axis is R |cos tilt|), and within the edge's axial half-extent of its centre. The common case (a rim
// around the pad) costs these few products only.
static double solid_reach(const edge_ctx *x, const mech_contact_shape *a)
{
    mech_vec3 n = mech_vec3_cross(x->e1, x->e2);   /* R^2 times the edge's unit normal */
    double R = sqrt(mech_vec3_dot(x->e1, x->e1)), rmax = a->r0 > a->r1 ? a->r0 : a->r1;
    double rho_min = fabs(n.x) / R - sqrt(x->c.y * x->c.y + x->c.z * x->c.z);
    double ux = sqrt(x->e1.x * x->e1.x + x->e2.x * x->e2.x);   /* the edge's half-extent along the axis */
    return fmax(rho_min - rmax, fmax(x->c.x - ux - a->length, -(x->c.x + ux)));
}

// (context, frustum) => the least distance of the edge's points from the frustum's end planes x = 0 and x = length
// (< 0: the edge crosses one), from its centre and its axial half-extent
static double edge_end_clearance(const edge_ctx *x, const mech_contact_shape *a)
{
    double ux = sqrt(x->e1.x * x->e1.x + x->e2.x * x->e2.x);
    return fmin(x->c.x - ux, a->length - x->c.x - ux);
}

// (context, frustum, pose of A) => 1 and the contact of the solid's deepest edge
// point (its face's normal), or -1 (g, theta untouched) when no edge point is inside the solid; *gap = that point's
// depth (<= 0: minus its distance, a bound only when far); sc: solid_deepest's certificates
static int solid_contact(const edge_ctx *x, const mech_contact_shape *a, const mech_contact_pose *pa, double *theta,
                         double *theta_cs, mech_contact_geom *g, double *gap, search_cert *sc)
{
    double th, sn, cs;
    solid_eval e = solid_deepest(x, a, sqrt(mech_vec3_dot(x->e1, x->e1)), &th, &cs, &sn, sc);
    *gap = e.d;
    if (!(e.d > 0.0))
        return -1;
    th = (th > M_PI || th < -M_PI) ? remainder(th, 2.0 * M_PI) : th;
    if (theta) *theta = th;
    if (theta_cs) theta_cs[0] = cs, theta_cs[1] = sn;
    /* every face's distance inside, its rate along the edge and its outward normal at the deepest point */
    solid_faces f;
    solid_faces_at(x, a, e.q, cs, sn, &f);
    int fa = e.face < 3 ? e.face : 3, fb = -1;
    for (int i = 0; i < f.n; i++)
        if (i != fa && (fb < 0 || f.d[i] < f.d[fb])) fb = i;
    mech_vec3 nf = f.nout[fa];   /* out of the solid through the face that decides, A's frame */
    double deficit = 0.0;
    if (fb >= 0 && f.d[fb] - f.d[fa] <= SOLID_EDGE_TIE && f.rate[fa] * f.rate[fb] < 0.0) {
        /* the deepest point sits where the two faces' distances cross along the edge, one rising and one falling:
           the depth P = max over θ of min(d_a, d_b) follows the crossing, and its gradient is the sum of the two
           faces' inward gradients weighted by the other face's rate, w_a = |d_b'| / (|d_a'| + |d_b'|). It tends to
           the single face's normal as that face's own maximum reaches the crossing (d_a' -> 0), so the normal is
           continuous where the answer passes between the face and the wall (a normal flipping by ~60 deg between
           a step's stages made the pad's force alternate 165 <-> 430 N in S3x-C into the short cone). The force is
           scaled by the gradient's length (grad_deficit) so that the contact's work is its elastic energy. */
        double ra = fabs(f.rate[fa]), rb = fabs(f.rate[fb]), wa = rb / (ra + rb);
        mech_vec3 gsum = mech_vec3_axpy(mech_vec3_scale(f.nout[fa], wa), 1.0 - wa, f.nout[fb]);
        double len = mech_vec3_norm(gsum);
        nf = mech_vec3_scale(gsum, 1.0 / len);
        deficit = 1.0 - len;
    }
    g->depth = e.d;
    g->normal = mech_vec3_neg(mech_mat3_apply(pa->rot, nf));
    g->point = contact_to_world(pa, mech_vec3_axpy(e.q, 0.5 * e.d, nf));
    g->feature = e.face == 0 ? MECH_CONTACT_FEAT_WALL : MECH_CONTACT_FEAT_FACE;
    g->grad_deficit = deficit;
    return 1;
}

int contact_frustum_circle_warm(const mech_contact_shape *a, const mech_contact_pose *pa, const mech_contact_shape *b,
                                const mech_contact_pose *pb, const double *warm, double *theta, mech_contact_geom *g)
{
    return contact_frustum_circle_warm_cs(a, pa, b, pb, warm, NULL, NULL, NULL, theta, NULL, g);
}

// the search of contact_frustum_circle_warm_cs on the edge x; sc: the certificates (sc->clear a certified
// clearance when it finds no contact, 0: none known)
static int frustum_circle_search(const edge_ctx *xp, const mech_contact_shape *a, const mech_contact_pose *pa,
                                 const double *warm, const double *warm_cs, double *theta, double *theta_cs,
                                 mech_contact_geom *g, search_cert *sc, int wall_first_ok)
{
    edge_ctx x = *xp;
    double th = 0.0, cs_best = 1.0, sn_best = 0.0;
    edge_eval best = {0}, card[4];
    int found = 0, all_in = 1, solid_near = 0, rs = -1;
    double reach = 0.0, gap = 0.0, ths = 0.0, thcs[2] = {1.0, 0.0};
    mech_contact_geom gs = {0};
    int wall_first = 0;
    double end_clear = 0.0;
    if (a->side == MECH_CONTACT_OUTSIDE) {
        reach = solid_reach(&x, a);
        solid_near = reach < 0.0;
        if (!solid_near)
            sc->clear = reach;
        else if (wall_first_ok && !x.s.sector &&
                 (end_clear = edge_end_clearance(&x, a)) > fmax(a->r0, a->r1) * fabs(x.s.nu * x.s.nrho)) {
            /* a full frustum (no sector) with the whole edge between its end planes, farther from both than a
               point inside can have its foot on the generatrix from it (d |n_u| <= r |n_rho n_u|): every edge
               point inside the solid is one the wall search sees. When the wall's deepest point found is less
               deep than the edge's clearance of the ends, no end is nearer than the wall there or deeper anywhere,
               so the solid's deepest point is the wall's: the wall search decides alone (checked at out:; else the
               search starts again solid first). A long conical limiter around its rim (bench_contact's) searched
               its solid for nothing: its pair 826 -> 230 ns (stop 35's measure). RP-1's pads have sectors and
               never take this path. */
            wall_first = 1;
        } else {
            /* an edge point may be inside the pad's solid: its deepest point first. A point's depth in the solid is
               its nearest face's distance, the wall's among them, so where that point's nearest face is an end or
               a side, no point over the wall is as deep (there the wall is the nearest face, or the point is past
               an end or a side): the answer is the solid's, and the wall search is not made. It took a warm
               start, the cardinal points and the 16-point ring, ~20 edge evaluations, for a rim across the front
               face, whose points no ring point sees over the wall (S3x-C into the short cone: 708 k searches in
               its first 200 s). With nothing inside, the gap is the solid's (its deepest sample's depth: exact near
               contact, a bound farther off, continuous through an onset). The wall search decides below only when
               the wall is the nearest face (ties to round-off: the wall's answer keeps a pad's bisector and the
               coaxial ring's θ = 0, docs/contact.md) */
            rs = solid_contact(&x, a, pa, &ths, thcs, &gs, &gap, sc);
            /* the solid's answer also when its deepest point is a pad's wall point, away from the other faces (no
               blend of two faces' normals) and a strict maximum of the wall's depth: that point's foot is on the
               generatrix and within the pad (a nearer end or side would decide otherwise), so the wall search
               would find it again, the same point to round-off, or a shallower one that the solid's answer beats
               below. A coaxial rim's plateau is no strict maximum: it keeps the wall's bisector. Only pads: a
               full frustum's answer stays the wall search's, which its wall-first path gives bit for bit. */
            if (rs > 0 && (gs.feature != MECH_CONTACT_FEAT_WALL ||
                           (x.s.sector && sc->wall_strict && gs.grad_deficit == 0.0))) {
                if (theta) *theta = ths;
                if (theta_cs) theta_cs[0] = thcs[0], theta_cs[1] = thcs[1];
                *g = gs;
                return 1;
            }
            if (rs <= 0) {
                if (theta) *theta = 0.0;
                if (theta_cs) theta_cs[0] = 1.0, theta_cs[1] = 0.0;
                contact_geom_none(g);
                g->depth = gap;
                return 0;
            }
        }
    }
    if (warm) {
        /* warm start (a contact that persists from the last step): Newton from the last angle */
        double sn, cs;
        th = *warm;
        if (warm_cs) /* the cosine and sine kept with the angle: no trigonometry on a persisting contact */
            cs = warm_cs[0], sn = warm_cs[1];
        else
            sincos(th, &sn, &cs);
        best = edge_at(&x, cs, sn);
        if (best.in && best.f2 > 0.0) {
            edge_newton(&x, &th, &cs, &sn, &best);
            cs_best = cs, sn_best = sn;
            goto out;
        }
    }
    if (x.s.sector) {
        /* a pad: start from the edge point furthest along the pad's bisector b (max of q(θ).b) */
        double by = x.s.cy, bz = x.s.cz, sn, cs;
        double th0 = atan2(x.e2.y * by + x.e2.z * bz, x.e1.y * by + x.e1.z * bz);
        sincos(th0, &sn, &cs);
        edge_eval e = edge_at(&x, cs, sn);
        if (e.in) {
            best = e;
            th = th0;
            if (e.f2 > 0.0) edge_newton(&x, &th, &cs, &sn, &best);
            cs_best = cs, sn_best = sn;
            goto out;
        }
    }
    /* fast path: the four cardinal points give the first harmonic of f(θ), whose minimum starts Newton (a
     * coaxial ring has no harmonic: θ = 0, B's local +y, is reported) */
    for (int k = 0; k < 4; k++) {
        card[k] = edge_at(&x, ring16[4 * k][0], ring16[4 * k][1]);
        all_in &= card[k].in;
        if (card[k].in && (!found || card[k].f < best.f)) {
            best = card[k];
            th = 0.5 * M_PI * k;
            found = 1;
        }
    }
    double a1 = 0.5 * (card[0].f - card[2].f), b1 = 0.5 * (card[1].f - card[3].f);
    double fcard = best.f;
    int done = 0;
    if (all_in) {
        double th0 = (a1 != 0.0 || b1 != 0.0) ? atan2(-b1, -a1) : 0.0, sn, cs;
        sincos(th0, &sn, &cs);
        edge_eval e = edge_at(&x, cs, sn);
        if (e.in && e.f2 > 0.0) {
            edge_newton(&x, &th0, &cs, &sn, &e);
            if (e.f <= fcard) { /* the harmonic's guess led to the deepest point found so far */
                best = e;
                th = th0;
                cs_best = cs, sn_best = sn;
                done = 1;
            }
        }
    }
    if (!done) {
        /* robust path: the deepest of 16 points (first wins ties), then Newton */
        found = 0;
        int kb = 0;
        for (int k = 0; k < 16; k++) {
            edge_eval e = edge_at(&x, ring16[k][0], ring16[k][1]);
            if (e.in && (!found || e.f < best.f)) {
                best = e;
                th = 2.0 * M_PI * k / 16;
                kb = k;
                found = 1;
            }
        }
        if (!found) {
            if (wall_first)   /* no wall contact: the solid decides (its gap, its certificate) */
                return frustum_circle_search(xp, a, pa, warm, warm_cs, theta, theta_cs, g, sc, 0);
            if (solid_near) {   /* the solid's deepest point (rs > 0: the others returned above) */
                if (theta) *theta = ths;
                if (theta_cs) theta_cs[0] = thcs[0], theta_cs[1] = thcs[1];
                *g = gs;
                return 1;
            }
            contact_geom_none(g);
            return 0;
        }
        double cs = ring16[kb][0], sn = ring16[kb][1];
        edge_newton(&x, &th, &cs, &sn, &best);
        cs_best = cs, sn_best = sn;
    }
out:
    if (a->side == MECH_CONTACT_OUTSIDE && !solid_near && best.f < 0.0) {
        /* no edge point can be inside the solid (solid_reach), so a point below the wall is past an end or a
           side of the pad: no contact (its depth below the wall was reported before) */
        if (theta) *theta = (th > M_PI || th < -M_PI) ? remainder(th, 2.0 * M_PI) : th;
        if (theta_cs) theta_cs[0] = cs_best, theta_cs[1] = sn_best;
        contact_geom_none(g);
        return 0;
    }
    if (wall_first && !(best.f < 0.0 && -best.f < end_clear))   /* no wall contact, or an end may be nearer */
        return frustum_circle_search(xp, a, pa, warm, warm_cs, theta, theta_cs, g, sc, 0);
    if (solid_near && !wall_first) {
        /* the solid's deepest point touches with the wall its nearest face (the other cases returned above): the
           solid's answer still when an end or a side is nearer than the wall at the wall's deepest point, when the
           wall has no contact, or when the solid's is deeper than the wall's deepest point (the wall search sees
           only points whose foot is on the generatrix and within the pad, and a point inside the solid near an end
           can have its foot beyond that end); else the wall's (the same point to round-off) */
        int face = best.f < 0.0 && solid_at(&x, a, x.s.sin_half, cs_best, sn_best).face != 0;
        if (face || !(best.f < 0.0) || gs.depth > -best.f + 1e-12) {
            if (theta) *theta = ths;
            if (theta_cs) theta_cs[0] = thcs[0], theta_cs[1] = thcs[1];
            *g = gs;
            return 1;
        }
    }
    /* the warm start stays within (-pi, pi] after small steps: reduce only when it left it (same value) */
    if (theta) *theta = (th > M_PI || th < -M_PI) ? remainder(th, 2.0 * M_PI) : th;
    if (theta_cs) theta_cs[0] = cs_best, theta_cs[1] = sn_best;
    /* the edge pushes A's wall back: the force on A is along minus the free-side normal */
    mech_vec3 nfree = contact_meridian_vec(x.s.nu, x.s.nrho, best.m.er);
    double depth = -best.f;
    g->depth = depth;
    g->normal = mech_vec3_neg(mech_mat3_apply(pa->rot, nfree));
    g->point = contact_to_world(pa, mech_vec3_axpy(best.q, 0.5 * depth, nfree));
    g->feature = MECH_CONTACT_FEAT_WALL;
    g->grad_deficit = 0.0;
    return depth > 0.0;
}

// (pose of A, pose of B, edge radius) => the edge's centre and in-plane axes (times the radius) in A's frame (the
// segment is left to the caller)
static inline edge_ctx edge_place(const mech_contact_pose *pa, const mech_contact_pose *pb, double radius)
{
    edge_ctx x;
    mech_mat3 Rab = mech_mat3_tmul(pa->rot, pb->rot); /* B's local axes in A's frame */
    x.c = contact_to_local(pa, pb->pos);
    x.e1 = mech_vec3_scale(mech_mat3_col(Rab, 1), radius);
    x.e2 = mech_vec3_scale(mech_mat3_col(Rab, 2), radius);
    return x;
}

int contact_frustum_circle_warm_cs(const mech_contact_shape *a, const mech_contact_pose *pa,
                                   const mech_contact_shape *b, const mech_contact_pose *pb, const double *warm,
                                   const double *warm_cs, const mech_contact_cert *cert_in,
                                   mech_contact_cert *cert_out, double *theta, double *theta_cs,
                                   mech_contact_geom *g)
{
    edge_ctx x = edge_place(pa, pb, b->radius);
    search_cert sc = {.in = NULL, .moved = INFINITY};
    if (cert_in && (cert_in->clear > 0.0 || cert_in->margin > 0.0) && a->side == MECH_CONTACT_OUTSIDE) {
        /* an edge point q(θ) = c + e1 cos θ + e2 sin θ moved by at most |Δc| + sqrt(|Δe1|^2 + |Δe2|^2) (Cauchy-
           Schwarz) since the search that gave the certificate, and the solid's depth is 1-Lipschitz in the point
           (a minimum of distances to planes and to the wall's generatrix in the meridian). While that is less
           than the clearance, no point is inside: the pads of a limiter that the rim passes at a few millimetres
           were searched in full at every stage (S3x-C into the short cone: 3 of 4 pads). The coarse scan's
           margin is used in solid_deepest. */
        mech_vec3 dc = mech_vec3_sub(x.c, cert_in->c), d1 = mech_vec3_sub(x.e1, cert_in->e1),
                  d2 = mech_vec3_sub(x.e2, cert_in->e2);
        sc.in = cert_in;
        sc.moved = sqrt(mech_vec3_dot(dc, dc)) + sqrt(mech_vec3_dot(d1, d1) + mech_vec3_dot(d2, d2));
        if (sc.moved < cert_in->clear) {
            if (cert_out) *cert_out = *cert_in;
            if (theta) *theta = 0.0;
            if (theta_cs) theta_cs[0] = 1.0, theta_cs[1] = 0.0;
            contact_geom_none(g);
            g->depth = sc.moved - cert_in->clear;   /* an upper bound of the signed depth: < 0 */
            return 0;
        }
    }
    x.s = contact_segment_make(0.0, a->r0, a->length, a->r1, a->side);
    contact_segment_sector(&x.s, a);
    int rc = frustum_circle_search(&x, a, pa, warm, warm_cs, theta, theta_cs, g, &sc, 1);
    if (cert_out) {
        if (sc.reused) {   /* the margin is the reference edge's: keep that certificate whole */
            *cert_out = *cert_in;
            if (rc > 0) cert_out->clear = 0.0;
            if (sc.fine_new) {   /* the fine scan made in full here: its certificate from this edge */
                cert_out->fine_margin = sc.fine_margin, cert_out->fine_sample = sc.fine_sample;
                cert_out->fine_coarse = sc.fine_coarse;
                cert_out->fc = x.c, cert_out->fe1 = x.e1, cert_out->fe2 = x.e2;
            }
        } else {
            *cert_out = (mech_contact_cert){.clear = rc > 0 ? 0.0 : sc.clear, .margin = sc.margin,
                                            .sample = sc.sample, .fine_margin = sc.fine_margin,
                                            .fine_sample = sc.fine_sample, .fine_coarse = sc.fine_coarse,
                                            .c = x.c, .e1 = x.e1, .e2 = x.e2, .fc = x.c, .fe1 = x.e1, .fe2 = x.e2};
        }
    }
    return rc;
}

int mech_contact_frustum_circle(const mech_contact_shape *a, const mech_contact_pose *pa, const mech_contact_shape *b,
                                const mech_contact_pose *pb, mech_contact_geom *g)
{
    return contact_frustum_circle_warm(a, pa, b, pb, NULL, NULL, g);
}

int contact_frustum_circle_solid_first(const mech_contact_shape *a, const mech_contact_pose *pa,
                                       const mech_contact_shape *b, const mech_contact_pose *pb, const double *warm,
                                       mech_contact_geom *g)
{
    edge_ctx x = edge_place(pa, pb, b->radius);
    x.s = contact_segment_make(0.0, a->r0, a->length, a->r1, a->side);
    contact_segment_sector(&x.s, a);
    search_cert sc = {.in = NULL, .moved = INFINITY};
    return frustum_circle_search(&x, a, pa, warm, NULL, NULL, NULL, g, &sc, 0);
}

/* ---- pair table ---- */
typedef int (*pair_fn)(const mech_contact_shape *, const mech_contact_pose *, const mech_contact_shape *,
                       const mech_contact_pose *, mech_contact_geom *);

/* rows: A, columns: B; an entry serves both orders (the swapped call flips the normal) */
static const pair_fn pair_table[MECH_CONTACT_NSHAPE][MECH_CONTACT_NSHAPE] = {
    /*            SPHERE                      PLANE                      FRUSTUM                      CONE                     CIRCLE */
    /* SPHERE  */ {mech_contact_sphere_sphere, mech_contact_sphere_plane, mech_contact_sphere_frustum, mech_contact_sphere_cone, mech_contact_sphere_circle},
    /* PLANE   */ {0, 0, 0, 0, 0},
    /* FRUSTUM */ {0, 0, 0, 0, mech_contact_frustum_circle},
    /* CONE    */ {0, 0, 0, 0, 0},
    /* CIRCLE  */ {0, 0, 0, 0, 0},
};

static int type_ok(mech_contact_shape_type t) { return (int)t >= 0 && t < MECH_CONTACT_NSHAPE; }

int mech_contact_pair_supported(mech_contact_shape_type a, mech_contact_shape_type b)
{
    if (!type_ok(a) || !type_ok(b)) return 0;
    return pair_table[a][b] != 0 || pair_table[b][a] != 0;
}

int mech_contact_collide(const mech_contact_shape *a, const mech_contact_pose *pa, const mech_contact_shape *b,
                         const mech_contact_pose *pb, mech_contact_geom *g)
{
    if (type_ok(a->type) && type_ok(b->type)) {
        if (pair_table[a->type][b->type]) return pair_table[a->type][b->type](a, pa, b, pb, g);
        if (pair_table[b->type][a->type]) {
            int r = pair_table[b->type][a->type](b, pb, a, pa, g);
            g->normal = mech_vec3_neg(g->normal);
            return r;
        }
    }
    contact_geom_none(g);
    return -1;
}

mech_contact_vel mech_contact_relvel(const mech_contact_geom *g, mech_vec3 v_a, mech_vec3 v_b)
{
    return contact_relvel(g, v_a, v_b);
}

/* Lateral damper of the probe-cone mechanism (spec 001 §2.3; RP-1 §2.6; docs/dock-lateral.md): four dependent
 * chains between the base (origin at the universal-joint centre) and the housing (body 2):
 *   k = 0, 1  U-P-S spring mechanisms: U joint on the base, telescopic rod with the coil + Belleville springs in
 *             series (a hyst-model law of rod force against rod stroke), S joint on the housing;
 *   k = 2, 3  R-U-S magnetic brakes: a crank (input link + brake rotor) turning about a base-fixed axis, a coupler
 *             from the crank tip (U joint) to an S joint on the housing; the brake moment follows eq. (2.2) with
 *             the input-link rate, and the input-link angle has penalty stops.
 * Chain coordinates come from closed-form loop closure (never integrated), their rates and accelerations from
 * eq. (2.3), the chain inertia and forces are reduced to the housing by eq. (2.4). Nothing here allocates after
 * mech_dock_lateral_new. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mech/dock.h"
#include "dock/dock_lateral_internal.h"

enum { CHAIN_SPRING = 0, CHAIN_BRAKE = 1 };

/* Geometry of one chain, compiled once from the params. The U joint of each chain is described in a fixed
 * frame (n0, ea, eb): n0 the neutral rod (coupler) direction, eb the first U axis (fixed on the base for a
 * spring chain, on the crank for a brake), ea = eb x n0. For the brake, (n0, ea, eb) are given in the crank's
 * neutral position and turn with the crank. */
typedef struct lateral_chain {
    int       type;        /* CHAIN_SPRING or CHAIN_BRAKE                                                  */
    int       index;       /* 0 or 1: index into the params' spring_* or brake_* arrays                   */
    mech_vec3 base;        /* spring: U-joint centre; brake: crank pivot; base frame, m                    */
    mech_vec3 l;           /* S-joint centre, housing frame, m                                              */
    mech_vec3 n0, ea, eb;  /* U-joint frame (see above)                                                     */
    double    len;         /* spring: neutral rod length L0; brake: coupler length lambda, m               */
    mech_vec3 e, u, v;     /* brake: crank axis, in-plane reference u (pivot -> S at neutral), v = e x u   */
    double    rho;         /* brake: crank length, m                                                        */
    double    c0, s0;      /* brake: cos, sin of the neutral crank angle theta0 from u about e              */
    mech_vec3 er0;         /* brake: neutral crank direction (unit)                                         */
    double    inertia;     /* spring: rod mass (kg); brake: crank + rotor about e (kg m^2)                 */
} lateral_chain;

struct mech_dock_lateral {
    mech_dock_lateral_params p;
    lateral_chain            ch[MECH_DOCK_NCHAIN];
    mech_mat3                dI_springs; /* (m/3)(|l|^2 1 - l l^T) of both rods: constant, housing frame       */
    hy_element               spring[2];
};

static const char *const chain_name[MECH_DOCK_NCHAIN] = {"spring chain 1", "spring chain 2", "brake chain 3",
                                                         "brake chain 4"};

/* ---- small vector helpers ---------------------------------------------------------------------------------- */

// (axis e unit, cos a, sin a, y) => y turned by +a about e (Rodrigues)
static mech_vec3 rot_cs(mech_vec3 e, double c, double s, mech_vec3 y)
{
    mech_vec3 r = mech_vec3_axpy(mech_vec3_scale(y, c), s, mech_vec3_cross(e, y));
    return mech_vec3_axpy(r, mech_vec3_dot(e, y) * (1.0 - c), e);
}

static int vec_finite(mech_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

// (columns c0, c1, c2 of J) => rows of J^-1 (closed form by cross products); 0 when |det| is tiny
static int inverse3(mech_vec3 c0, mech_vec3 c1, mech_vec3 c2, double scale, mech_vec3 row[3])
{
    mech_vec3 x12 = mech_vec3_cross(c1, c2), x20 = mech_vec3_cross(c2, c0), x01 = mech_vec3_cross(c0, c1);
    double det = mech_vec3_dot(c0, x12);
    if (!(fabs(det) > 1e-12 * scale))
        return 0;
    row[0] = mech_vec3_scale(x12, 1.0 / det);
    row[1] = mech_vec3_scale(x20, 1.0 / det);
    row[2] = mech_vec3_scale(x01, 1.0 / det);
    return 1;
}

/* The U-joint direction n(u1, u2) = cos u2 m + sin u2 eb, m = cos u1 n0 + sin u1 ea: a turn u1 about the first
 * axis eb, then u2 about the second axis m x eb (perpendicular to eb and to the rod). Forward kinematics. */
static mech_vec3 u_direction(const lateral_chain *c, double u1, double u2)
{
    mech_vec3 m = mech_vec3_add(mech_vec3_scale(c->n0, cos(u1)), mech_vec3_scale(c->ea, sin(u1)));
    return mech_vec3_add(mech_vec3_scale(m, cos(u2)), mech_vec3_scale(c->eb, sin(u2)));
}

/* Its first and second partial derivatives (n_1 = dn/du1, ...; for C^(d) and c of eq. 2.3) and the angles,
 * from the direction n itself: sin u2 = n.eb, m = (n - sin u2 eb) / cos u2, dm/du1 = eb x m, so
 * n_1 = cos u2 dm/du1, n_2 = -sin u2 m + cos u2 eb, n_11 = -cos u2 m, n_12 = -sin u2 dm/du1, n_22 = -n.
 * 0 at the U singularity (|u2| -> 90 deg). */
typedef struct udir {
    mech_vec3 n, n1, n2, n11, n12, n22;
} udir;

static int u_basis(const lateral_chain *c, mech_vec3 n, udir *d, double *u1, double *u2)
{
    double s2 = mech_vec3_dot(n, c->eb), c2sq = 1.0 - s2 * s2;
    if (!(c2sq > 1e-12))
        return 0;
    double c2 = sqrt(c2sq);
    mech_vec3 m = mech_vec3_scale(mech_vec3_axpy(n, -s2, c->eb), 1.0 / c2);
    mech_vec3 m1 = mech_vec3_cross(c->eb, m);
    d->n = n;
    d->n1 = mech_vec3_scale(m1, c2);
    d->n2 = mech_vec3_add(mech_vec3_scale(m, -s2), mech_vec3_scale(c->eb, c2));
    d->n11 = mech_vec3_scale(m, -c2);
    d->n12 = mech_vec3_scale(m1, -s2);
    d->n22 = mech_vec3_neg(n);
    *u2 = atan2(s2, c2);
    *u1 = atan2(mech_vec3_dot(m, c->ea), mech_vec3_dot(m, c->n0));
    return 1;
}

// (neutral direction n0, preferred first axis pref) => eb (pref made perpendicular to n0) and ea = eb x n0
static void u_frame(lateral_chain *c, mech_vec3 pref)
{
    mech_vec3 b = mech_vec3_axpy(pref, -mech_vec3_dot(pref, c->n0), c->n0);
    if (mech_vec3_norm(b) < 1e-3) { /* pref along the rod: take the base axis least aligned with it */
        mech_vec3 alt = fabs(c->n0.x) < 0.5 ? mech_vec3_unit(0) : mech_vec3_unit(2);
        b = mech_vec3_axpy(alt, -mech_vec3_dot(alt, c->n0), c->n0);
    }
    c->eb = mech_vec3_normalize(b);
    c->ea = mech_vec3_cross(c->eb, c->n0);
}

/* ---- RP-1 geometry (docs/dock-lateral.md §3) ------------------------------------------------------------- */

// (x, y, z) => (x, -z, y): the second chain of each kind is the first turned by 90 deg about the mechanism axis
static mech_vec3 quarter_turn(mech_vec3 a) { return mech_vec3_make(a.x, -a.z, a.y); }

void mech_dock_lateral_params_rp1(mech_dock_lateral_params *p, int variant)
{
    memset(p, 0, sizeof *p);
    const double deg = M_PI / 180.0;
    /* A: rods tangential (along +-y0, +-z0), S joints on the housing's rear end 0.25 m behind the UJ; B: the UJ is
       0.15 m lower and the rods are turned by beta = 32 deg (the limiter generatrix angle) in the plane of the
       S point and the tangent, parallel to the limiter pad force's line of action (spec 001 §5.2), with the S
       point moved out to keep the lever arm 0.25 m and the rod length sin(beta) |l| that cancels the quadratic
       stroke term (so the characteristic stays symmetric). */
    double beta = variant == MECH_DOCK_B ? 32.0 * deg : 0.0;
    double arm = 0.25, r_spring = 0.0;
    mech_vec3 yv = mech_vec3_unit(1), zv = mech_vec3_unit(2);

    mech_vec3 v = mech_vec3_make(-arm / cos(beta), 0.0, r_spring);
    mech_vec3 n = mech_vec3_add(mech_vec3_scale(yv, cos(beta)), mech_vec3_scale(mech_vec3_normalize(v), sin(beta)));
    double L0 = beta > 0.0 ? sin(beta) * mech_vec3_norm(v) : 0.30;
    p->spring_housing[0] = v;
    p->spring_base[0] = mech_vec3_axpy(v, -L0, n);
    p->spring_housing[1] = quarter_turn(p->spring_housing[0]);
    p->spring_base[1] = quarter_turn(p->spring_base[0]);
    p->spring_rod_mass[0] = p->spring_rod_mass[1] = 1.0;
    /* the law's last point (5 deg of swing); beyond it the law continues with its k_beyond 2.4e7 N/m and the
       stop adds 5.6e7 N/m: 8e7 N/m = 5e6 N m/rad at the 0.25 m arm (RP-1 §2.6) */
    p->spring = (mech_dock_law){NULL, 1.0, 1.0, 1.0};
    p->spring_stop = 0.021789;
    p->stop_stiffness = 5.6e7;

    /* brakes: S joints on the bottom of the rear end, coupler along the same turned tangent, crank length equal
       to the arm |x| cos(beta) = 0.12 m so that the input-link rate equals the swing rate (gear ratio 1) */
    double r_brake = 0.10, crank = 0.12;
    mech_vec3 vb = mech_vec3_make(-crank / cos(beta), 0.0, -r_brake);
    mech_vec3 nc = mech_vec3_add(mech_vec3_scale(yv, cos(beta)), mech_vec3_scale(mech_vec3_normalize(vb), sin(beta)));
    double lambda = beta > 0.0 ? sin(beta) * mech_vec3_norm(vb) : 0.15;
    mech_vec3 e = mech_vec3_neg(mech_vec3_normalize(mech_vec3_axpy(zv, -mech_vec3_dot(zv, nc), nc)));
    mech_vec3 er = mech_vec3_cross(e, nc);
    mech_vec3 tip = mech_vec3_axpy(vb, -lambda, nc);
    p->brake_housing[0] = vb;
    p->brake_pivot[0] = mech_vec3_axpy(tip, -crank, er);
    p->brake_axis[0] = e;
    p->brake_housing[1] = quarter_turn(vb);
    p->brake_pivot[1] = quarter_turn(p->brake_pivot[0]);
    p->brake_axis[1] = quarter_turn(e);
    for (int i = 0; i < 2; i++) {
        p->brake_crank[i] = crank;
        p->brake_rod[i] = lambda;
        p->brake_crank_inertia[i] = 0.02;
    }
    /* 1500 N m s/rad at the housing with gear ratio 1: linear (the last slope is continued) */
    p->brake.n = 2;
    p->brake.x[0] = 0.0; p->brake.y[0] = 0.0;
    p->brake.x[1] = 1.0; p->brake.y[1] = 1500.0;
    p->brake_stop = 6.0 * deg;
    p->brake_stop_stiffness = 5e6;
}

/* ---- model ------------------------------------------------------------------------------------------------ */

#define BAD(...) hy_err_set(err, HY_EMODEL, __VA_ARGS__)

static int check_params(const mech_dock_lateral_params *p, hy_err *err)
{
    for (int i = 0; i < 2; i++) {
        if (!vec_finite(p->spring_base[i]))
            return BAD("lateral.spring_base[%d]: not a finite vector", i);
        if (!vec_finite(p->spring_housing[i]))
            return BAD("lateral.spring_housing[%d]: not a finite vector", i);
        if (!(mech_vec3_norm(mech_vec3_sub(p->spring_housing[i], p->spring_base[i])) > 1e-6))
            return BAD("lateral.spring_housing[%d]: the S joint coincides with the U joint (no rod)", i);
        if (!(p->spring_rod_mass[i] >= 0.0 && isfinite(p->spring_rod_mass[i])))
            return BAD("lateral.spring_rod_mass[%d]: %g kg, expected a finite value >= 0", i, p->spring_rod_mass[i]);
        if (!vec_finite(p->brake_pivot[i]))
            return BAD("lateral.brake_pivot[%d]: not a finite vector", i);
        if (!vec_finite(p->brake_housing[i]))
            return BAD("lateral.brake_housing[%d]: not a finite vector", i);
        double an = mech_vec3_norm(p->brake_axis[i]);
        if (!(fabs(an - 1.0) < 1e-6))
            return BAD("lateral.brake_axis[%d]: norm %g, expected a unit vector", i, an);
        if (!(p->brake_crank[i] > 0.0 && isfinite(p->brake_crank[i])))
            return BAD("lateral.brake_crank[%d]: %g m, expected a finite length > 0", i, p->brake_crank[i]);
        if (!(p->brake_rod[i] > 0.0 && isfinite(p->brake_rod[i])))
            return BAD("lateral.brake_rod[%d]: %g m, expected a finite length > 0", i, p->brake_rod[i]);
        if (!(p->brake_crank_inertia[i] >= 0.0 && isfinite(p->brake_crank_inertia[i])))
            return BAD("lateral.brake_crank_inertia[%d]: %g kg m^2, expected a finite value >= 0", i,
                       p->brake_crank_inertia[i]);
    }
    if (!p->spring.model)
        return BAD("lateral.spring: no hysteresis law (model file) given");
    if (!(p->spring.q_scale > 0.0 && isfinite(p->spring.q_scale)))
        return BAD("lateral.spring.q_scale: %g, expected a finite value > 0", p->spring.q_scale);
    if (!(p->spring.Q_scale > 0.0 && isfinite(p->spring.Q_scale)))
        return BAD("lateral.spring.Q_scale: %g, expected a finite value > 0", p->spring.Q_scale);
    if (!(p->spring.scale > 0.0 && isfinite(p->spring.scale)))
        return BAD("lateral.spring.scale: %g, expected a finite value > 0", p->spring.scale);
    if (!(p->spring_stop > 0.0 && isfinite(p->spring_stop)))
        return BAD("lateral.spring_stop: %g m, expected a finite stroke > 0", p->spring_stop);
    if (!(p->stop_stiffness >= 0.0 && isfinite(p->stop_stiffness)))
        return BAD("lateral.stop_stiffness: %g N/m, expected a finite value >= 0", p->stop_stiffness);
    if (!(p->brake_stop > 0.0 && p->brake_stop < M_PI))
        return BAD("lateral.brake_stop: %g rad, expected an angle in (0, pi)", p->brake_stop);
    if (!(p->brake_stop_stiffness >= 0.0 && isfinite(p->brake_stop_stiffness)))
        return BAD("lateral.brake_stop_stiffness: %g N m/rad, expected a finite value >= 0", p->brake_stop_stiffness);
    const mech_dock_table *t = &p->brake;
    if (t->n < 1 || t->n > MECH_DOCK_TABLE_MAX)
        return BAD("lateral.brake.speed: %d points, expected 1..%d", t->n, MECH_DOCK_TABLE_MAX);
    for (int j = 0; j < t->n; j++) {
        if (!(isfinite(t->x[j]) && t->x[j] >= 0.0 && (j == 0 || t->x[j] > t->x[j - 1])))
            return BAD("lateral.brake.speed[%d]: %g rad/s, expected finite speeds >= 0 in strictly ascending order", j,
                       t->x[j]);
        if (!(isfinite(t->y[j]) && t->y[j] >= 0.0 && (j == 0 || t->y[j] >= t->y[j - 1])))
            return BAD("lateral.brake.moment[%d]: %g N m, expected finite moments >= 0, not decreasing (a brake "
                       "dissipates)", j, t->y[j]);
    }
    return HY_OK;
}

static int build_chains(mech_dock_lateral *l, hy_err *err)
{
    const mech_dock_lateral_params *p = &l->p;
    for (int i = 0; i < 2; i++) {
        lateral_chain *c = &l->ch[i];
        c->type = CHAIN_SPRING;
        c->index = i;
        c->base = p->spring_base[i];
        c->l = p->spring_housing[i];
        mech_vec3 d = mech_vec3_sub(c->l, c->base);
        c->len = mech_vec3_norm(d);
        c->n0 = mech_vec3_scale(d, 1.0 / c->len);
        u_frame(c, mech_vec3_unit(0)); /* first U axis: the mechanism axis, made perpendicular to the rod */
        c->inertia = p->spring_rod_mass[i];
        /* the rod's kinetic energy is that of m/3 at the S joint (§4): H^T A H = (m/3) C^T C = (m/3) l~^T l~ */
        mech_mat3 lx = mech_mat3_skew(c->l);
        l->dI_springs = mech_mat3_add(l->dI_springs, mech_mat3_scale(mech_mat3_tmul(lx, lx), c->inertia / 3.0));

        c = &l->ch[2 + i];
        c->type = CHAIN_BRAKE;
        c->index = i;
        c->base = p->brake_pivot[i];
        c->l = p->brake_housing[i];
        c->e = mech_vec3_normalize(p->brake_axis[i]);
        c->rho = p->brake_crank[i];
        c->len = p->brake_rod[i];
        c->inertia = p->brake_crank_inertia[i];
        d = mech_vec3_sub(c->l, c->base);
        mech_vec3 dp = mech_vec3_axpy(d, -mech_vec3_dot(d, c->e), c->e);
        double a = mech_vec3_norm(dp);
        if (!(a > 1e-9))
            return BAD("lateral.brake_housing[%d]: the S joint lies on the crank axis (the crank cannot turn)", i);
        c->u = mech_vec3_scale(dp, 1.0 / a);
        c->v = mech_vec3_cross(c->e, c->u);
        /* eq. a cos t + b sin t = c at the neutral attitude (b = 0); branch: the crank at a positive angle about
           the crank axis from the pivot -> S direction (docs/dock-lateral.md §2.2) */
        double cc = (mech_vec3_dot(d, d) + c->rho * c->rho - c->len * c->len) / (2.0 * c->rho);
        if (!(fabs(cc) < a))
            return BAD("lateral.brake_rod[%d]: a coupler of %g m cannot join the crank tip (crank %g m) to the S "
                       "joint %g m from the pivot in the neutral position", i, c->len, c->rho, mech_vec3_norm(d));
        c->c0 = cc / a;
        c->s0 = sqrt(1.0 - c->c0 * c->c0);
        c->er0 = mech_vec3_add(mech_vec3_scale(c->u, c->c0), mech_vec3_scale(c->v, c->s0));
        mech_vec3 tip = mech_vec3_axpy(c->base, c->rho, c->er0);
        c->n0 = mech_vec3_scale(mech_vec3_sub(c->l, tip), 1.0 / c->len);
        u_frame(c, c->e); /* first U axis on the crank: parallel to the crank axis, made perpendicular */
    }
    return HY_OK;
}

int mech_dock_lateral_new(const mech_dock_lateral_params *p, mech_dock_lateral **out, hy_err *err)
{
    *out = NULL;
    int rc = check_params(p, err);
    if (rc)
        return rc;
    mech_dock_lateral *l = calloc(1, sizeof *l);
    if (!l)
        return hy_err_set(err, HY_ENOMEM, "lateral damper: out of memory");
    l->p = *p;
    if ((rc = build_chains(l, err))) {
        free(l);
        return rc;
    }
    for (int i = 0; i < 2; i++) {
        if ((rc = hy_model_element(p->spring.model, &l->spring[i], err))) {
            mech_dock_lateral_free(l);
            return rc;
        }
    }
    *out = l;
    return HY_OK;
}

void mech_dock_lateral_free(mech_dock_lateral *l)
{
    if (!l)
        return;
    for (int i = 0; i < 2; i++)
        hy_element_free(&l->spring[i]);
    free(l);
}

/* ---- kinematics of one chain: closure and eq. (2.3) ----------------------------------------------------- */

/* The full 3-coordinate form of one chain (closure, eq. 2.3, A_k, vp_k): the reference the trial's closed forms
 * are tested against (test_dock_lateral: trial_equals_the_full_reduction). */
int mech_dock_lateral_kin_eval(const mech_dock_lateral *l, int k, const mech_mat3 *alpha_C, mech_vec3 omega_C,
                               mech_dock_lateral_kin *o, hy_err *err)
{
    const lateral_chain *c = &l->ch[k];
    /* the cut joint: position, velocity C^(i) omega (C^(i) = -alpha_C^T l~, spec 001 §2.3) and the velocity-
       product part of its acceleration, all in the base frame */
    mech_vec3 wl = mech_vec3_cross(omega_C, c->l);
    mech_vec3 s = mech_mat3_tapply(*alpha_C, c->l);
    mech_vec3 sv = mech_mat3_tapply(*alpha_C, wl);
    mech_vec3 a0 = mech_mat3_tapply(*alpha_C, mech_vec3_cross(omega_C, wl));
    mech_mat3 C = mech_mat3_scale(mech_mat3_tmul(*alpha_C, mech_mat3_skew(c->l)), -1.0);
    mech_vec3 Ccol[3] = {mech_mat3_col(C, 0), mech_mat3_col(C, 1), mech_mat3_col(C, 2)};
    mech_vec3 J[3], Jinv[3], jdpd;
    double u1 = 0.0, u2 = 0.0;
    udir ud;
    o->s = s;

    if (c->type == CHAIN_SPRING) {
        /* r - U = L n(u1, u2): L = |r - U|, then the U angles of the rod direction */
        mech_vec3 d = mech_vec3_sub(s, c->base);
        double L = mech_vec3_norm(d);
        if (!(L > 1e-6 * c->len) || !u_basis(c, mech_vec3_scale(d, 1.0 / L), &ud, &u1, &u2))
            return hy_err_set(err, HY_ESTATE, "lateral %s: the rod left its workspace (length %g m, U joint at "
                              "its singular angle)", chain_name[k], L);
        J[0] = mech_vec3_scale(ud.n1, L);
        J[1] = mech_vec3_scale(ud.n2, L);
        J[2] = ud.n;
        if (!inverse3(J[0], J[1], J[2], L * L, Jinv))
            return hy_err_set(err, HY_ESTATE, "lateral %s: singular rod configuration", chain_name[k]);
        o->p[0] = u1; o->p[1] = u2; o->p[2] = L;
        for (int i = 0; i < 3; i++)
            o->pd[i] = mech_vec3_dot(Jinv[i], sv);
        double u1d = o->pd[0], u2d = o->pd[1], Ld = o->pd[2];
        /* (d/dt C^(d)) pd: r'' = J p'' + 2 L' n' + L (n_11 u1'^2 + 2 n_12 u1' u2' + n_22 u2'^2) */
        jdpd = mech_vec3_scale(mech_vec3_add(mech_vec3_scale(ud.n1, u1d), mech_vec3_scale(ud.n2, u2d)), 2.0 * Ld);
        mech_vec3 q2 = mech_vec3_add(mech_vec3_add(mech_vec3_scale(ud.n11, u1d * u1d),
                                                   mech_vec3_scale(ud.n12, 2.0 * u1d * u2d)),
                                     mech_vec3_scale(ud.n22, u2d * u2d));
        jdpd = mech_vec3_axpy(jdpd, L, q2);
        o->tip = c->base;
        /* the rod as a slender bar spanning U -> S: every point moves with the fraction of the S velocity equal
           to its fraction of the length, T = m/6 |r'|^2, so A = (m/3) J^T J and vp = (m/3) J^T (J' pd) */
        double m3 = c->inertia / 3.0;
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++)
                o->A[i][j] = m3 * mech_vec3_dot(J[i], J[j]);
            o->vp[i] = m3 * mech_vec3_dot(J[i], jdpd);
        }
    } else {
        /* crank angle: |d - rho er(t)|^2 = lambda^2 with d = S - pivot gives a cos t + b sin t = c */
        mech_vec3 d = mech_vec3_sub(s, c->base);
        double a = mech_vec3_dot(d, c->u), b = mech_vec3_dot(d, c->v);
        double cc = (mech_vec3_dot(d, d) + c->rho * c->rho - c->len * c->len) / (2.0 * c->rho);
        double rr = hypot(a, b);
        if (!(rr > 1e-9) || !(fabs(cc) < rr))
            return hy_err_set(err, HY_ESTATE, "lateral %s: the coupler (%g m) cannot reach the S joint from the "
                              "crank (%g m): the loop does not close (S joint %g m from the pivot)", chain_name[k],
                              c->len, c->rho, mech_vec3_norm(d));
        /* theta = atan2(b, a) + acos(cc / rr) (the "+" branch, docs §2.2), its cosine and sine algebraically;
           phi = theta - theta0 */
        double w0 = sqrt(rr * rr - cc * cc), r2 = rr * rr;
        double ct = (a * cc - b * w0) / r2, st = (b * cc + a * w0) / r2;
        double cp = ct * c->c0 + st * c->s0, sp = st * c->c0 - ct * c->s0;
        double phi = atan2(sp, cp);
        mech_vec3 er = mech_vec3_add(mech_vec3_scale(c->u, ct), mech_vec3_scale(c->v, st));
        mech_vec3 tip = mech_vec3_axpy(c->base, c->rho, er);
        mech_vec3 nb = mech_vec3_scale(mech_vec3_sub(s, tip), 1.0 / c->len);
        /* the coupler direction back in the crank's neutral frame (turned by -phi) gives the U joint */
        if (!u_basis(c, rot_cs(c->e, cp, -sp, nb), &ud, &u1, &u2))
            return hy_err_set(err, HY_ESTATE, "lateral %s: the coupler's U joint reached its singular angle",
                              chain_name[k]);
        /* S - pivot = R(phi) w, w = rho er0 + lambda n(u1, u2): in the neutral crank frame
           J = [e x w, lambda n_1, lambda n_2] */
        mech_vec3 w = mech_vec3_axpy(mech_vec3_scale(c->er0, c->rho), c->len, ud.n);
        J[0] = mech_vec3_cross(c->e, w);
        J[1] = mech_vec3_scale(ud.n1, c->len);
        J[2] = mech_vec3_scale(ud.n2, c->len);
        if (!inverse3(J[0], J[1], J[2], c->rho * c->len * c->len, Jinv))
            return hy_err_set(err, HY_ESTATE, "lateral %s: the crank reached a dead point (crank and coupler "
                              "aligned)", chain_name[k]);
        for (int j = 0; j < 3; j++)
            Ccol[j] = rot_cs(c->e, cp, -sp, Ccol[j]);
        sv = rot_cs(c->e, cp, -sp, sv);
        a0 = rot_cs(c->e, cp, -sp, a0);
        o->p[0] = phi; o->p[1] = u1; o->p[2] = u2;
        for (int i = 0; i < 3; i++)
            o->pd[i] = mech_vec3_dot(Jinv[i], sv);
        double phid = o->pd[0], u1d = o->pd[1], u2d = o->pd[2];
        /* (d/dt C^(d)) pd = phi'^2 e x (e x w) + 2 phi' e x w' + lambda (n_11 u1'^2 + 2 n_12 u1' u2' + n_22 u2'^2) */
        mech_vec3 wd = mech_vec3_scale(mech_vec3_add(mech_vec3_scale(ud.n1, u1d), mech_vec3_scale(ud.n2, u2d)), c->len);
        jdpd = mech_vec3_scale(mech_vec3_cross(c->e, mech_vec3_cross(c->e, w)), phid * phid);
        jdpd = mech_vec3_axpy(jdpd, 2.0 * phid, mech_vec3_cross(c->e, wd));
        mech_vec3 q2 = mech_vec3_add(mech_vec3_add(mech_vec3_scale(ud.n11, u1d * u1d),
                                                   mech_vec3_scale(ud.n12, 2.0 * u1d * u2d)),
                                     mech_vec3_scale(ud.n22, u2d * u2d));
        jdpd = mech_vec3_axpy(jdpd, c->len, q2);
        o->tip = tip;
        /* crank + rotor about a base-fixed axis: T = J phi'^2 / 2; the coupler is massless (docs) */
        memset(o->A, 0, sizeof o->A);
        o->A[0][0] = c->inertia;
        o->vp[0] = o->vp[1] = o->vp[2] = 0.0;
    }
    /* eq. (2.3): H = [C^(d)]^-1 C^(i), h = [C^(d)]^-1 (a0 - (d/dt C^(d)) pd) */
    mech_vec3 rhs = mech_vec3_sub(a0, jdpd);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            o->H[i][j] = mech_vec3_dot(Jinv[i], Ccol[j]);
        o->h[i] = mech_vec3_dot(Jinv[i], rhs);
    }
    return HY_OK;
}

mech_vec3 mech_dock_lateral_kin_forward(const mech_dock_lateral *l, int k, const double p[3])
{
    const lateral_chain *c = &l->ch[k];
    if (c->type == CHAIN_SPRING)
        return mech_vec3_axpy(c->base, p[2], u_direction(c, p[0], p[1]));
    mech_vec3 w = mech_vec3_axpy(mech_vec3_scale(c->er0, c->rho), c->len, u_direction(c, p[1], p[2]));
    return mech_vec3_add(c->base, rot_cs(c->e, cos(p[0]), sin(p[0]), w));
}

/* ---- trial / commit / revert ------------------------------------------------------------------------------ */

int mech_dock_lateral_trial(mech_dock_lateral *l, const mech_mat3 *alpha_C, mech_vec3 omega_C,
                            mech_dock_lateral_out *o, hy_err *err)
{
    /* the base at rest: the housing's absolute rate is its rate relative to the base */
    return mech_dock_lateral_trial_abs(l, alpha_C, omega_C, omega_C, o, err);
}

/* The chains' inertia rides on the housing (spec 001 §2.3: M_rr,2 += ΔI_C, i.e. on the housing's absolute angular
 * acceleration), so their kinetic energy is T_c = ½ ω_Hᵀ ΔI_C(α_C) ω_H with ω_H the housing's absolute rate, and
 * the bias is the one of that T_c (docs/dock-lateral.md §4a): -(dΔI/dt) ω_H - ω_H × ΔI ω_H + ν, with
 * ν = ∂T_c/∂θ_C (θ_C the relative rotation) acting between housing and base (dm_couple). With ω_H = ω_C (base at
 * rest) this is the relative reduction of eq. (2.4) exactly; with a turning base it keeps the angular momentum
 * Σ bodies + R_H ΔI ω_H exactly (the relative form left 2.8e-8 of S2's momentum unaccounted). */
int mech_dock_lateral_trial_abs(mech_dock_lateral *l, const mech_mat3 *alpha_C, mech_vec3 omega_C, mech_vec3 omega_H,
                                mech_dock_lateral_out *o, hy_err *err)
{
    const mech_dock_lateral_params *p = &l->p;
    const mech_vec3 wH = omega_H;
    o->dm_bias = mech_vec3_zero();
    o->dm_couple = mech_vec3_zero();
    o->moment = mech_vec3_zero();
    o->p_magnetic = 0.0;
    o->e_stops = 0.0;
    /* the two spring rods: (m/3) at their S joints, a constant inertia in the housing frame (§4 of the docs) */
    o->dI = l->dI_springs;
    for (int k = 0; k < MECH_DOCK_NCHAIN; k++) {
        const lateral_chain *c = &l->ch[k];
        /* the cut joint on the housing: s = alpha^T l and its velocity C^(i) omega = alpha^T (omega x l), base
           frame */
        mech_vec3 wl = mech_vec3_cross(omega_C, c->l);
        mech_vec3 s = mech_mat3_tapply(*alpha_C, c->l);
        mech_vec3 sv = mech_mat3_tapply(*alpha_C, wl);
        mech_vec3 d = mech_vec3_sub(s, c->base);
        if (c->type == CHAIN_SPRING) {
            /* closure L = |s - U| and the L row of eq. (2.3): L' = n . s' (the U angles are not needed here) */
            double L = mech_vec3_norm(d);
            if (!(L > 1e-6 * c->len))
                return hy_err_set(err, HY_ESTATE, "lateral %s: the rod left its workspace (length %g m)",
                                  chain_name[k], L);
            mech_vec3 n = mech_vec3_scale(d, 1.0 / L);
            int i = c->index;
            double stroke = L - c->len, rate = mech_vec3_dot(n, sv);
            double Qm, dQ;
            hy_diag dg; /* filled by the element when it refuses */
            int rc = hy_element_trial(&l->spring[i], p->spring.q_scale * stroke, p->spring.q_scale * rate, &Qm, &dQ,
                                      &dg);
            if (rc) {
                char buf[256];
                hy_diag_format(&dg, buf, sizeof buf);
                return hy_err_set(err, rc, "lateral %s: spring law: %s", chain_name[k], buf);
            }
            /* the law is symmetric about 0 (both directions of rod motion compress the springs): force > 0
               resists a positive stroke; then the hard stop */
            double F = p->spring.Q_scale * p->spring.scale * Qm, Fs = 0.0;
            double over = fabs(stroke) - p->spring_stop;
            if (over > 0.0) {
                Fs = copysign(p->stop_stiffness * over, stroke);
                o->e_stops += 0.5 * p->stop_stiffness * over * over;
            }
            /* eq. (2.4) with Q = (0, 0, -(F + Fs)): H^T Q = -(F + Fs) C^T n = l x (alpha (-(F + Fs) n)), the
               moment of the rod force at the S joint; the bias of the point mass m/3 at S:
               -H^T (A h + vp) = -(m/3) C^T a0 = -(m/3) l x (omega x (omega x l)) */
            mech_vec3 fH = mech_mat3_apply(*alpha_C, mech_vec3_scale(n, -(F + Fs)));
            o->moment = mech_vec3_add(o->moment, mech_vec3_cross(c->l, fH));
            /* with the absolute rate: the rod's m/3 at S is a constant housing-frame inertia, its bias the
               gyroscopic -ω_H × ΔI ω_H = -(m/3) l × (ω_H × (ω_H × l)) (= the relative form when ω_H = ω_C) */
            mech_vec3 wHl = mech_vec3_cross(wH, c->l);
            o->dm_bias = mech_vec3_axpy(o->dm_bias, -c->inertia / 3.0, mech_vec3_cross(c->l, mech_vec3_cross(wH, wHl)));
            o->stroke[k] = stroke;
            o->rate[k] = rate;
            o->force[k] = F; /* the element's own force: its t, q, Q record is what `hyst loops` reads */
            o->state[i] = hy_element_state(&l->spring[i]);
        } else {
            /* closure: a cos t + b sin t = c, the "+" root's cosine and sine algebraically (docs §2.2) */
            double a = mech_vec3_dot(d, c->u), b = mech_vec3_dot(d, c->v);
            double cc = (mech_vec3_dot(d, d) + c->rho * c->rho - c->len * c->len) / (2.0 * c->rho);
            double r2 = a * a + b * b;
            if (!(r2 > 1e-18) || !(cc * cc < r2))
                return hy_err_set(err, HY_ESTATE, "lateral %s: the coupler (%g m) cannot reach the S joint from "
                                  "the crank (%g m): the loop does not close (S joint %g m from the pivot)",
                                  chain_name[k], c->len, c->rho, mech_vec3_norm(d));
            double w0 = sqrt(r2 - cc * cc);
            double ct = (a * cc - b * w0) / r2, st = (b * cc + a * w0) / r2;
            double phi = atan2(st * c->c0 - ct * c->s0, ct * c->c0 + st * c->s0);
            mech_vec3 er = mech_vec3_add(mech_vec3_scale(c->u, ct), mech_vec3_scale(c->v, st));
            mech_vec3 et = mech_vec3_cross(c->e, er);
            mech_vec3 nb = mech_vec3_scale(mech_vec3_axpy(d, -c->rho, er), 1.0 / c->len);
            /* only the crank angle carries inertia (A = diag(J, 0, 0)) and force, so eq. (2.4) needs the phi rows
               of H and h alone: from the constant coupler length, nb . (s' - t') = 0 with t' = phi' rho et gives
               phi' = nb . s' / (rho nb . et), i.e. H_phi^T = C^T nb / den = l x (alpha nb) / den; its time
               derivative h_phi = G' omega_C . omega_C enters through G' below */
            double den = c->rho * mech_vec3_dot(nb, et);
            if (!(fabs(den) > 1e-9 * c->rho))
                return hy_err_set(err, HY_ESTATE, "lateral %s: the crank reached a dead point (crank and coupler "
                                  "aligned)", chain_name[k]);
            mech_vec3 g = mech_vec3_scale(mech_vec3_cross(c->l, mech_mat3_apply(*alpha_C, nb)), 1.0 / den);
            double rate = mech_vec3_dot(nb, sv) / den;
            /* eq. (2.2) with the input-link rate: the brake opposes the motion; then the input-link stops */
            double Mb = rate == 0.0 ? 0.0 : -copysign(mech_dock_table_eval(&p->brake, fabs(rate)), rate);
            o->p_magnetic += -Mb * rate;
            double over = fabs(phi) - p->brake_stop, Ms = 0.0;
            if (over > 0.0) {
                Ms = -copysign(p->brake_stop_stiffness * over, phi);
                o->e_stops += 0.5 * p->brake_stop_stiffness * over * over;
            }
            o->moment = mech_vec3_axpy(o->moment, Mb + Ms, g);
            o->dI = mech_mat3_add(o->dI, mech_mat3_scale(mech_mat3_outer(g, g), c->inertia));
            /* bias of T = ½ J (g·ω_H)², g = g(θ_C) (docs §4a), through G' = ∂g/∂θ_C: a relative turn δ (housing
               frame) moves S by δ × l, the crank by dφ = g·δ, the coupler direction (housing frame) m by
               dm = -δ × m + (δ × l - ρ dφ α et)/λ, the denominator by dden = ρ ((δ × l)·α et - ρ dφ)/λ - ρ dφ nb·er,
               and dg = (l × dm - g dden)/den. Needed: dg/dt = G' ω_C (δ = ω_C, dφ = rate) and G'ᵀ ω_H, the same
               expression turned over (ω_H·dg = δ·G'ᵀω_H, with aw = ω_H × l) */
            mech_vec3 m = mech_mat3_apply(*alpha_C, nb), ET = mech_mat3_apply(*alpha_C, et);
            double nber = mech_vec3_dot(nb, er), rl = c->rho / c->len;
            mech_vec3 dm = mech_vec3_sub(mech_vec3_scale(mech_vec3_axpy(wl, -c->rho * rate, ET), 1.0 / c->len),
                                         mech_vec3_cross(omega_C, m));
            double dden = rl * (mech_vec3_dot(wl, ET) - c->rho * rate) - c->rho * rate * nber;
            mech_vec3 gd = mech_vec3_scale(mech_vec3_axpy(mech_vec3_cross(c->l, dm), -dden, g), 1.0 / den);
            double gw = mech_vec3_dot(g, wH), J = c->inertia;
            mech_vec3 aw = mech_vec3_cross(wH, c->l);
            mech_vec3 Gtw = mech_vec3_axpy(mech_vec3_scale(mech_vec3_cross(c->l, aw), 1.0 / c->len), -1.0,
                                           mech_vec3_cross(m, aw));
            Gtw = mech_vec3_axpy(Gtw, -rl * mech_vec3_dot(aw, ET) + gw * (c->rho * rl + c->rho * nber), g);
            Gtw = mech_vec3_axpy(Gtw, -gw * rl, mech_vec3_cross(c->l, ET));
            mech_vec3 nu = mech_vec3_scale(Gtw, J * gw / den);
            /* -(dΔI/dt) ω_H - ω_H × ΔI ω_H + ν */
            mech_vec3 ib = mech_vec3_add(mech_vec3_scale(gd, gw), mech_vec3_scale(g, mech_vec3_dot(gd, wH)));
            ib = mech_vec3_add(ib, mech_vec3_scale(mech_vec3_cross(wH, g), gw));
            o->dm_bias = mech_vec3_add(mech_vec3_axpy(o->dm_bias, -J, ib), nu);
            o->dm_couple = mech_vec3_add(o->dm_couple, nu);
            o->stroke[k] = phi;
            o->rate[k] = rate;
            o->force[k] = Mb; /* eq. (2.2) alone; the stop's work is in e_stops */
        }
    }
    return HY_OK;
}

void mech_dock_lateral_commit(mech_dock_lateral *l)
{
    for (int i = 0; i < 2; i++)
        hy_element_commit(&l->spring[i]);
}

void mech_dock_lateral_revert(mech_dock_lateral *l)
{
    for (int i = 0; i < 2; i++)
        hy_element_revert(&l->spring[i]);
}

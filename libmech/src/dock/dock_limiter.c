/* Variant C's movable limiter of relative rotations (spec 001 §5.3, patent RU 2662605; RP-1 §2.3) on its guides:
 * a prismatic DOF along the housing axis with preloaded springs and end stops, and the guide friction through the
 * variant-constraint solver of friction/ (spec 003; docs/friction.md): the guides are pairs of opposite surfaces,
 * which side of a pair is loaded depends on the lateral load and the motion, and a stuck or sliding limiter, or a
 * Painlevé case, is decided and reported by that solver's rules. The three guides are reduced to one planar guide
 * (the bushing of spec 003 §3) in the plane of the lateral load: the pads' rim reaction is a single force, so its
 * plane is the plane of the problem (docs/dock-process.md §6). */
#include <math.h>
#include <string.h>
#include "mech/dock_process.h"

#define LIMITER_EPS_V 1e-9   /* m/s: a stuck limiter's speed is zero to round-off (the caller zeroes it at the stick
                                event, the tree holds it); above this a pair committed stuck is sliding */

void mech_dock_limiter_params_rp1(mech_dock_limiter_params *p)
{
    memset(p, 0, sizeof *p);
    p->mass = 3.0;
    p->stroke = 0.20;
    p->f_forward = 300.0;
    p->f_end = 1200.0;
    p->stop_stiffness = 5e6;
    p->stop_damping = 2.3e3;           /* 0.3 of critical on the 3 kg at 5e6 N/m: the stops do not ring for minutes */
    p->a[0] = -0.10, p->a[1] = 0.10;   /* bearings 0.2 m apart: an axial rim push at the 0.28 m pad radius self-locks
                                          the guides below mu = L / (2 e) = 0.36 (8 cm apart: 0.14) */
    p->radius = 0.008;                 /* 16 mm guide rods                                                      */
    p->mu[0] = p->mu[1] = 0.15;        /* dry bronze on steel                                                   */
    p->base_radius = 0.28;
}

static int bad(hy_err *err, const char *key, const char *what, double v)
{
    return hy_err_set(err, HY_EMODEL, "limiter.%s: %s (got %.17g)", key, what, v);
}

int mech_dock_limiter_check(const mech_dock_limiter_params *p, hy_err *err)
{
    if (!(isfinite(p->mass) && p->mass > 0))
        return bad(err, "mass", "must be a finite number > 0 kg", p->mass);
    if (!(isfinite(p->stroke) && p->stroke > 0))
        return bad(err, "stroke", "must be a finite number > 0 m", p->stroke);
    if (!(isfinite(p->f_forward) && p->f_forward > 0))
        return bad(err, "f_forward", "the springs must push the limiter to its forward position: a finite force "
                   "> 0 N there", p->f_forward);
    if (!(isfinite(p->f_end) && p->f_end >= p->f_forward))
        return hy_err_set(err, HY_EMODEL, "limiter.f_end: the spring force at the retracted end must be finite and "
                          ">= limiter.f_forward = %.17g N (got %.17g)", p->f_forward, p->f_end);
    if (!(isfinite(p->stop_stiffness) && p->stop_stiffness > 0))
        return bad(err, "stop_stiffness", "must be a finite number > 0 N/m", p->stop_stiffness);
    if (!(isfinite(p->stop_damping) && p->stop_damping >= 0))
        return bad(err, "stop_damping", "must be a finite number >= 0 N s/m", p->stop_damping);
    if (!(isfinite(p->a[0]) && isfinite(p->a[1]) && p->a[0] != p->a[1]))
        return bad(err, "a", "the two guide pairs need distinct finite axial positions", p->a[1]);
    if (!(isfinite(p->radius) && p->radius >= 0))
        return bad(err, "radius", "must be a finite number >= 0 m", p->radius);
    for (int k = 0; k < 2; k++)
        if (!(isfinite(p->mu[k]) && p->mu[k] >= 0))
            return bad(err, k ? "mu[1]" : "mu[0]", "must be a finite number >= 0", p->mu[k]);
    if (!(isfinite(p->base_radius) && p->base_radius > 0))
        return bad(err, "base_radius", "must be a finite number > 0 m", p->base_radius);
    return HY_OK;
}

int mech_dock_limiter_new(const mech_dock_limiter_params *p, mech_dock_limiter *l, hy_err *err)
{
    memset(l, 0, sizeof *l);
    int rc0 = mech_dock_limiter_check(p, err);
    if (rc0)
        return rc0;
    l->p = *p;
    mech_friction_contact c[2];
    for (int j = 0; j < 2; j++) {
        c[j].sides = 2;
        c[j].mu[0] = c[j].mu_s[0] = p->mu[0];
        c[j].mu[1] = c[j].mu_s[1] = p->mu[1];
    }
    /* the sliding direction is the committed one for a whole step (eps_v infinite: a stage's speed never flips it):
       a slide that stops inside a step then shows as its speed crossing zero, the caller's event, rather than as
       friction that reverses between the stages and holds a tiny speed in a chattering step (docs/dock-process.md
       §8.5); from rest, the stick hypothesis and its release (spec 003 §2.2) pick the direction */
    mech_friction_opt fo;
    mech_friction_opt_default(&fo);
    fo.eps_v = INFINITY;
    int rc = mech_friction_model_new(1, 2, 2, c, &fo, &l->model, err);
    if (rc == HY_OK)
        rc = mech_friction_data_new(l->model, &l->data, err);
    if (rc) {
        mech_dock_limiter_free(l);
        return rc;
    }
    return HY_OK;
}

void mech_dock_limiter_free(mech_dock_limiter *l)
{
    if (l->data)
        mech_friction_data_free(l->data);
    if (l->model)
        mech_friction_model_free(l->model);
    l->data = NULL;
    l->model = NULL;
}

void mech_dock_limiter_springs(const mech_dock_limiter_params *p, double x, double xd, double *f_spring,
                               double *f_stop, double *energy)
{
    /* the springs are linear over the whole travel, also the few micrometres the penalty stops let the limiter
       go past its ends: force and energy stay one conservative pair */
    double k = (p->f_end - p->f_forward) / p->stroke;
    double pen = x < 0 ? x : x > p->stroke ? x - p->stroke : 0.0;   /* into a stop, signed like x */
    double fst = 0.0;
    if (pen != 0.0) {
        /* a penalty with a damper that only pushes out of the stop (it never pulls the limiter back in) */
        fst = -p->stop_stiffness * pen - p->stop_damping * xd;
        fst = pen < 0 ? fmax(fst, 0.0) : fmin(fst, 0.0);
    }
    *f_spring = p->f_forward + k * x;
    *f_stop = fst;
    *energy = p->f_forward * x + 0.5 * k * x * x + 0.5 * p->stop_stiffness * pen * pen;
}

/* the bushing of spec 003 §3 (friction_mech.c): pair j side chi on y = -chi h, normal chi e_y:
   n = (0, chi, chi a_j), t = (1, 0, chi h); the solver's variant and slip from the committed ones */
static int guide_solve(mech_dock_limiter *l, double xd, double m, double fq, double fs0, double fs1,
                       mech_dock_limiter_out *o, hy_err *err)
{
    const mech_dock_limiter_params *p = &l->p;
    mech_friction_data *d = l->data;
    if (fs0 == 0.0 && fs1 == 0.0) {
        /* no lateral load (the pads off the rim and the wall: most of a run): no guide reaction, hence no
           friction; the solver's answer in closed form (bench: 85 ns against 4.6 us per RK4 step with the solve,
           docs/dock-process.md §6) */
        o->xdd = fq / m;
        o->p_friction = 0.0;
        for (int j = 0; j < 2; j++) {
            o->N[j] = o->F[j] = 0.0;
            o->chi[j] = d->chi[j] = d->chi_c[j];
            o->slip[j] = d->slip[j] = xd > 0 ? 1 : xd < 0 ? -1 : 0;
        }
        o->method = MECH_FRICTION_VARIANT;
        o->margin = INFINITY;
        return HY_OK;
    }
    d->Mqq[0] = m;
    d->Msq[0] = d->Msq[1] = 0.0;
    d->fq[0] = fq;
    d->fs[0] = fs0;
    d->fs[1] = fs1;
    d->qd[0] = xd;
    for (int j = 0; j < 2; j++)
        for (int s = 0; s < 2; s++) {
            double chi = s ? -1 : 1, *n = d->nvec + (2 * j + s) * 3, *t = d->tvec + (2 * j + s) * 3;
            n[0] = 0, n[1] = chi, n[2] = chi * p->a[j];
            t[0] = 1, t[1] = 0, t[2] = chi * p->radius;
        }
    int rc = mech_friction_prepare(l->model, d, err);
    if (rc)
        return rc;
    mech_friction_revert(d);   /* every trial starts from the committed variant and slip indices */
    /* a pair committed stuck while the limiter moves (it slid freely since, its guides unloaded): it slides */
    for (int j = 0; j < 2; j++)
        if (d->slip[j] == 0 && fabs(xd) > LIMITER_EPS_V)
            d->slip[j] = xd > 0 ? 1 : -1;
    rc = mech_friction_solve(l->model, d, err);
    if (rc)
        return rc;
    o->xdd = d->qdd[0];
    o->p_friction = 0.0;
    /* the stick margin of the limiter, one rigid part on two pairs, while a pair sticks: the guides' whole friction
       sum mu N less the force the stick takes, |sum F|. How a statically indeterminate stick splits over the pairs
       (the solver's minimum-norm split, or one pair at its limit and the other taking the rest) does not move the
       part; it breaks away when the whole friction is reached */
    double cap = 0.0, sum = 0.0;
    for (int j = 0; j < 2; j++) {
        cap += p->mu[d->chi[j] > 0 ? 0 : 1] * fmax(d->N[j], 0.0);
        sum += d->F[j];
    }
    o->margin = d->slip[0] == 0 || d->slip[1] == 0 ? cap - fabs(sum) : INFINITY;
    for (int j = 0; j < 2; j++) {
        o->N[j] = d->N[j];
        o->F[j] = d->F[j];
        o->chi[j] = d->chi[j];
        o->slip[j] = d->slip[j];
        o->p_friction -= d->F[j] * xd;
    }
    o->method = d->method;
    return HY_OK;
}

int mech_dock_limiter_trial(mech_dock_limiter *l, double x, double xd, double P_ext, double F_lat, double M_ext,
                            double e_x, double e_y, mech_dock_limiter_out *o, hy_err *err)
{
    const mech_dock_limiter_params *p = &l->p;
    if (!(isfinite(x) && isfinite(xd) && isfinite(P_ext) && isfinite(F_lat) && isfinite(M_ext) && isfinite(e_x) &&
          isfinite(e_y)))
        return hy_err_set(err, HY_ERANGE, "limiter: non-finite input (x %.17g, x' %.17g, P %.17g, F %.17g)", x, xd,
                          P_ext, F_lat);
    double Fs, Fst, E;
    mech_dock_limiter_springs(p, x, xd, &Fs, &Fst, &E);
    o->f_spring = Fs;
    o->f_stop = Fst;
    o->e_spring = E;
    return guide_solve(l, xd, p->mass, P_ext - Fs + Fst, F_lat, M_ext + e_x * F_lat - e_y * P_ext, o, err);
}

void mech_dock_limiter_rod_load(const mech_dock_limiter_params *p, double Fy, double Fz, double My, double Mz,
                                double *f, double *m)
{
    /* In a plane through the axis with lateral unit u the planar guide's loads are f = F.u and m = Mv.u,
       Mv = e_x x M = (-Mz, My), and its frictionless pair reactions s_j solve s_0 + s_1 = -f, a_0 s_0 + a_1 s_1 = -m;
       being linear, the same holds for the round rods' 2D reaction vectors S_j with F and Mv. The rods react |S_j|,
       not the parts of S_j in one plane: the pads' force and moment lie in different planes when the rim bears
       across a pad's front edge (a near-axial force at the pad's azimuth, the rim's friction along the rim), and
       the plane of the lateral force alone dropped the moment's part across it (a 30 N m couple beside 5 N: rods
       of 2.5 N instead of 150 N, test round_rods_reactions). So the planar guide gets the load whose reactions are
       the rods': the larger |S_j| on the positive side, the other with the sign of S_0.S_1 (where S_0 and S_1 turn
       perpendicular one pair changes side at the same |S_j|: only the friction's small moment, rod radius times
       mu N, changes). */
    const double a0 = p->a[0], a1 = p->a[1], my = -Mz, mz = My;
    double S0y = (a1 * Fy - my) / (a0 - a1), S0z = (a1 * Fz - mz) / (a0 - a1);
    double S1y = -Fy - S0y, S1z = -Fz - S0z;
    double n0 = hypot(S0y, S0z), n1 = hypot(S1y, S1z), same = S0y * S1y + S0z * S1z >= 0 ? 1.0 : -1.0;
    double s0 = n0 >= n1 ? n0 : same * n0, s1 = n0 >= n1 ? same * n1 : n1;
    *f = -(s0 + s1);
    *m = -(a0 * s0 + a1 * s1);
}

int mech_dock_limiter_trial_coupled(mech_dock_limiter *l, double x, double xd, double m_eff, double f_eff,
                                    double F_lat, double M_lat, mech_dock_limiter_out *o, hy_err *err)
{
    const mech_dock_limiter_params *p = &l->p;
    if (!(isfinite(x) && isfinite(xd) && isfinite(m_eff) && m_eff > 0 && isfinite(f_eff) && isfinite(F_lat) &&
          isfinite(M_lat)))
        return hy_err_set(err, HY_ERANGE, "limiter: non-finite input (x %.17g, x' %.17g, m %.17g, f %.17g, F %.17g, "
                          "M %.17g)", x, xd, m_eff, f_eff, F_lat, M_lat);
    double Fs, Fst, E;
    mech_dock_limiter_springs(p, x, xd, &Fs, &Fst, &E);
    o->f_spring = Fs;
    o->f_stop = Fst;
    o->e_spring = E;
    return guide_solve(l, xd, m_eff, f_eff, F_lat, M_lat, o, err);
}

void mech_dock_limiter_commit(mech_dock_limiter *l) { mech_friction_commit(l->data); }
void mech_dock_limiter_revert(mech_dock_limiter *l) { mech_friction_revert(l->data); }

void mech_dock_limiter_hold(mech_dock_limiter *l, int on) { l->data->hold = on != 0; }

void mech_dock_limiter_stick(mech_dock_limiter *l)
{
    for (int j = 0; j < 2; j++)
        l->data->slip[j] = l->data->slip_c[j] = 0;
}

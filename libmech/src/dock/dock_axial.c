/* Axial damper of the probe-cone docking mechanism: the nut equation (2.1) of spec 001 §2.1 with the drive locked
 * (phi_Drive = 0, i_Nut,FR = 1), every force expressed at the probe (RP-1 §2.5; DOCK.md conventions); with the
 * drive's output at u (mech_dock_axial_trial_drive) the chain and c_D act on s - u (docs/dock-process.md §1):
 *
 *   s = phi_Nut / i_Nut (push-in positive),  m_eq = I_Nut^tot i_Nut^2,
 *   m_eq s'' = f - k_NutFr |f| sgn(s') - F_chain - c_D s' - sgn(s') F_MB(|s'|) - F_stop,
 *
 * i.e. I_Nut^tot phi'' = m_NutScrew - m_FR - sgn(phi') m_MB with every moment = force / i_Nut. The screw friction is
 * the sign-consistent Coulomb form of the §2.1 flag, with an anchored stick near zero speed (SCREW_STICK_HZ below).
 *   A: F_chain = the spring + FrT2 chain, a friction-kind pwl element driven by the stroke (spec 000 §3: the slip
 *      at the plateau shifts the whole table); F_MB = the two magnetic brakes' speed table (eq. 2.2).
 *   B: F_chain = the gear-train compliance (a hysteretic element, constant-kind pwl or kin) in series with the
 *      rigid-plastic brakes FrT1 (slip s1 in [0, frt1_stroke], then its hard stop) and FrT2 (slip s2):
 *      s = q_gear + s1 + s2, F_chain = Q_gear(q_gear), solved per trial by a return mapping (docs/dock-axial.md).
 *   F_stop: penalty at the push-in limit, k d (1 + lambda d'), d = s - stroke_limit > 0, lambda = c(e) / v_in
 *      (Hunt-Crossley form; c(e) solved once so that a free mass rebounds with exactly the restitution e).
 *
 * Energy (docs/dock-axial.md): the element's work is booked by the caller (trapezoid of Q dq on accepted steps);
 * p_brakes is the slip power of the brakes (A: the chain's slip, which is PART of the chain element's Q dq; B: FrT1
 * and FrT2, outside the gear element), p_magnetic the magnetic brakes', p_damping c_D s'^2 + the stop's damping;
 * p_screw the screw friction's power (its stick spring's rate of energy plus its dissipation); e_stop the stop's
 * elastic energy, e_screw the stick spring's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mech/dock.h"
#include "mech/dock_process.h"
#include "hyst/pwl.h"

/* Screw friction near zero speed (docs/dock-axial.md §2): the Coulomb limit k |f| of the §2.1 flag with a stick that
 * holds, the contact module's anchored law in one coordinate (contact_set.c): an anchor on the stroke, a stiff spring
 * and a light damper between it and the nut, k |f| on their sum; at the limit the nut slides with k |f| along that
 * sum and drags the anchor one stretch behind. With a bare sgn the RK4 stages of any step with |s'| < k |f| h /
 * (2 m_eq) alternate in sign and the friction averages to zero (measured: a probe pushed at 1 mm/s slips at 5001 N
 * instead of 5263 N with h = 1 ms). The viscous band it replaces (c s' below k |f| / c, m_eq / c = 0.5 ms) was
 * 2.6 mm/s wide at 5 kN: at the retraction's 1.2 mm/s every head force above 2.4 kN left the nut inside it, so the
 * screw took c s' (120 N) instead of k |f| (up to 300 N), and a nut under a load below its limit crept instead of
 * standing. The spring's period on m_eq (SCREW_STICK_HZ) is far slower than any step's stability bound and the
 * spring 25 times stiffer than the B gear train: in stick the nut stands to 0.06 mm at 300 N. */
#define SCREW_STICK_HZ 50.0
#define SCREW_STICK_ZETA 0.2
/* Impact speed floor of the stop's damping (m/s): a probe creeping onto the stop gets the damping of this speed
 * instead of an unbounded lambda. */
#define STOP_V_MIN 0.01
/* Relative force tolerance of the series-chain return mapping (B). */
#define CHAIN_TOL 1e-10
#define CHAIN_MAXIT 100

typedef struct axial_state {
    double s1, s2;        /* B: FrT1 and FrT2 slips; A: s1 = the chain's total slip (m)                    */
    double s_anchor;      /* the screw friction's stick anchor on the stroke (m)                           */
    int    anchored;      /* s_anchor is set (0 before the first trial: it starts at the stroke)           */
    double q_el, Q_el;    /* element displacement (m) and force (N) at the probe                            */
    int    state_el;
    int    in_stop;       /* 1 while the stroke is past the stop                                            */
    double v_in;          /* stroke rate when it entered the stop (m/s)                                     */
} axial_state;

struct mech_dock_axial {
    mech_dock_axial_params p;
    double       i_nut;     /* 2 pi / lead, rad/m                                                           */
    double       stop_c;    /* lambda v_in of the stop for the restitution e                                */
    hy_element   el;        /* A: chain; B: gear train                                                      */
    hy_pwl_data *pwl;       /* typed data of a pwl element (NULL for kin)                                   */
    double       q_fp, q_fn;/* A: last points of the positive / negative forward branch, model units        */
    double       qs, Qs;    /* element q units per m; N per element Q unit                                  */
    const char  *el_key;    /* "axial.chain" or "axial.gear"                                                */
    double       kt_screw;  /* the screw friction's stick spring, N/m: m_eq (2 pi SCREW_STICK_HZ)^2        */
    double       ct_screw;  /* its damper, N s/m: SCREW_STICK_ZETA of critical on m_eq                       */
    axial_state  committed, trial;
};

/* ---- RP-1 (001-reference-parameters.md §2.5) ---------------------------------------------------------------- */
void mech_dock_axial_params_rp1(mech_dock_axial_params *p, int variant)
{
    memset(p, 0, sizeof *p);
    p->variant = variant == MECH_DOCK_B ? MECH_DOCK_B : MECH_DOCK_A;
    p->lead = 0.012;
    p->m_eq = 50.0;
    p->screw_friction = 0.05;
    p->damping = 200.0;
    p->stroke_limit = 0.32;
    p->stop_stiffness = 5e6;
    p->stop_restitution = 0.3;
    p->chain = (mech_dock_law){NULL, 1.0, 1.0, 1.0};
    p->gear = (mech_dock_law){NULL, 1.0, 1.0, 1.0};
    if (p->variant == MECH_DOCK_A) {
        /* two axial magnetic brakes, total: 1000 N s/m, saturating at 300 N (repeated y => constant beyond) */
        p->magnetic.n = 3;
        p->magnetic.x[0] = 0.0, p->magnetic.y[0] = 0.0;
        p->magnetic.x[1] = 0.3, p->magnetic.y[1] = 300.0;
        p->magnetic.x[2] = 1.0, p->magnetic.y[2] = 300.0;
    }
    /* B (the A values are those of the same FrT2 brake and unused there): FrT1 = FrT2 / 4 pushed in over 2.5x the
       old spring stroke; its pull-out level 300 N is our choice (the paper: FrT1 is higher pushed in; 300 N is
       below the A spring's 500 N preload, so the gear train alone cannot drag the probe back out) */
    p->frt1_push = 1250.0;
    p->frt1_pull = 300.0;
    p->frt1_stroke = 0.25;
    p->frt2_push = 5000.0;
    p->frt2_pull = 6000.0;
}

/* ---- checks ------------------------------------------------------------------------------------------------- */
static int bad(hy_err *err, const char *key, const char *what, double v)
{
    return hy_err_set(err, HY_EMODEL, "axial.%s: %s (got %.17g)", key, what, v);
}

static int check_pos(hy_err *err, const char *key, double v)
{
    return isfinite(v) && v > 0 ? HY_OK : bad(err, key, "must be a finite number > 0", v);
}

static int check_law(const mech_dock_law *l, const char *key, int want_friction, hy_err *err)
{
    if (!l->model || l->model->type == HY_MODEL_NONE)
        return hy_err_set(err, HY_EMODEL, "axial.%s: no hysteresis law given (a hyst-model file in m and N at the "
                          "probe)", key);
    char k[64];
    snprintf(k, sizeof k, "%s.q_scale", key);
    if (check_pos(err, k, l->q_scale))
        return HY_EMODEL;
    snprintf(k, sizeof k, "%s.Q_scale", key);
    if (check_pos(err, k, l->Q_scale))
        return HY_EMODEL;
    snprintf(k, sizeof k, "%s.scale", key);
    if (check_pos(err, k, l->scale))
        return HY_EMODEL;
    int is_friction = l->model->type == HY_MODEL_PWL && hy_pwl_model_kind(l->model->pwl) == HY_PWL_FRICTION;
    if (want_friction && !is_friction)
        return hy_err_set(err, HY_EMODEL, "axial.%s: variant A needs a pwl table of the friction kind (spec 000 §3: "
                          "the brake's slip shifts the table)", key);
    if (!want_friction && is_friction)
        return hy_err_set(err, HY_EMODEL, "axial.%s: a friction-kind table slips by itself, but in variant B the "
                          "brakes FrT1 and FrT2 are separate: give a constant-kind pwl table or a kin law", key);
    return HY_OK;
}

static int check_params(const mech_dock_axial_params *p, hy_err *err)
{
    if (p->variant != MECH_DOCK_A && p->variant != MECH_DOCK_B)
        return bad(err, "variant", "must be A (0) or B (1)", p->variant);
    if (check_pos(err, "lead", p->lead) || check_pos(err, "m_eq", p->m_eq) ||
        check_pos(err, "stroke_limit", p->stroke_limit) || check_pos(err, "stop_stiffness", p->stop_stiffness))
        return HY_EMODEL;
    if (!(p->screw_friction >= 0 && p->screw_friction < 1))
        return bad(err, "screw_friction", "must lie in [0, 1)", p->screw_friction);
    if (!(p->damping >= 0 && isfinite(p->damping)))
        return bad(err, "damping", "must be a finite number >= 0", p->damping);
    if (!(p->stop_restitution > 0 && p->stop_restitution <= 1))
        return bad(err, "stop_restitution", "must lie in (0, 1]", p->stop_restitution);
    const mech_dock_table *t = &p->magnetic;
    if (t->n < 0 || t->n > MECH_DOCK_TABLE_MAX)
        return hy_err_set(err, HY_EMODEL, "axial.magnetic: %d points (0..%d allowed)", t->n, MECH_DOCK_TABLE_MAX);
    for (int i = 0; i < t->n; i++) {
        char k[48];
        snprintf(k, sizeof k, "magnetic.x[%d]", i);
        if (!isfinite(t->x[i]) || t->x[i] < 0 || (i > 0 && !(t->x[i] > t->x[i - 1])))
            return bad(err, k, "speeds must be finite, >= 0 and strictly ascending", t->x[i]);
        snprintf(k, sizeof k, "magnetic.y[%d]", i);
        if (!isfinite(t->y[i]) || t->y[i] < 0 || (i > 0 && t->y[i] < t->y[i - 1]))
            return bad(err, k, "forces must be finite, >= 0 and non-decreasing (a brake opposes the speed)", t->y[i]);
    }
    if (t->n > 0 && fabs(mech_dock_table_eval(t, 0.0)) > 1e-9 * (1 + t->y[t->n - 1]))
        return bad(err, "magnetic", "the brake force at zero speed must be 0", mech_dock_table_eval(t, 0.0));
    if (p->variant == MECH_DOCK_A)
        return check_law(&p->chain, "chain", 1, err);
    if (check_law(&p->gear, "gear", 0, err))
        return HY_EMODEL;
    if (check_pos(err, "frt1_push", p->frt1_push) || check_pos(err, "frt1_pull", p->frt1_pull) ||
        check_pos(err, "frt1_stroke", p->frt1_stroke) || check_pos(err, "frt2_push", p->frt2_push) ||
        check_pos(err, "frt2_pull", p->frt2_pull))
        return HY_EMODEL;
    if (!(p->frt2_push > p->frt1_push))
        return bad(err, "frt2_push", "must exceed frt1_push (FrT1 slips first, FrT2 after FrT1's stop)", p->frt2_push);
    if (!(p->frt2_pull > p->frt1_pull))
        return bad(err, "frt2_pull", "must exceed frt1_pull (FrT1 slips back first)", p->frt2_pull);
    return HY_OK;
}

/* ---- the stop's restitution --------------------------------------------------------------------------------- */
/* Restitution of a free mass hitting k d (1 + c d'/v_in) (clamped at 0): in the scaled time w t and d = v_in y / w
 * it is y'' = -y (1 + c y'), one parameter c. RK4 in scaled time, the exit speed interpolated at y = 0. */
static double stop_restitution_of(double c)
{
    const double h = 2e-3;
    double y = 0, v = 1;
    for (int i = 0; i < 100000; i++) {
        double ky[4], kv[4], yy = y, vv = v;
        for (int j = 0; j < 4; j++) {
            double f = yy * (1 + c * vv);
            ky[j] = vv;
            kv[j] = -(f > 0 ? f : 0);
            double a = j < 2 ? h / 2 : h;
            if (j < 3)
                yy = y + a * ky[j], vv = v + a * kv[j];
        }
        double yn = y + h / 6 * (ky[0] + 2 * ky[1] + 2 * ky[2] + ky[3]);
        double vn = v + h / 6 * (kv[0] + 2 * kv[1] + 2 * kv[2] + kv[3]);
        if (yn <= 0 && i > 0) {
            double w = y / (y - yn); /* linear interpolation of the exit */
            return -(v + w * (vn - v));
        }
        y = yn, v = vn;
    }
    return 0;
}

/* c(e) by bisection on the monotone e(c) (e = 1 at c = 0). */
static double stop_damping_for(double e)
{
    if (e >= 1)
        return 0;
    double lo = 0, hi = 1;
    while (stop_restitution_of(hi) > e && hi < 1e6)
        hi *= 2;
    for (int it = 0; it < 60 && hi - lo > 1e-10 * hi; it++) {
        double mid = 0.5 * (lo + hi);
        if (stop_restitution_of(mid) > e)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* ---- life cycle --------------------------------------------------------------------------------------------- */
int mech_dock_axial_new(const mech_dock_axial_params *p, mech_dock_axial **out, hy_err *err)
{
    *out = NULL;
    if (check_params(p, err))
        return HY_EMODEL;
    mech_dock_axial *a = calloc(1, sizeof *a);
    if (!a)
        return hy_err_set(err, HY_ENOMEM, "axial: out of memory");
    a->p = *p;
    a->i_nut = 2 * M_PI / p->lead;
    a->stop_c = stop_damping_for(p->stop_restitution);
    a->kt_screw = p->m_eq * pow(2 * M_PI * SCREW_STICK_HZ, 2);
    a->ct_screw = 2 * SCREW_STICK_ZETA * sqrt(a->kt_screw * p->m_eq);
    const mech_dock_law *law = p->variant == MECH_DOCK_A ? &p->chain : &p->gear;
    a->el_key = p->variant == MECH_DOCK_A ? "axial.chain" : "axial.gear";
    a->qs = law->q_scale;
    a->Qs = law->Q_scale * law->scale;
    int rc = hy_model_element(law->model, &a->el, err);
    if (rc) {
        free(a);
        return rc;
    }
    a->pwl = hy_pwl_element_data(&a->el);
    if (p->variant == MECH_DOCK_A) {
        hy_pwl_table t;
        hy_pwl_model_table(law->model->pwl, &t);
        a->q_fp = t.positive.forward.q[t.positive.forward.n - 1];
        a->q_fn = t.negative.forward.q[t.negative.forward.n - 1];
    }
    a->committed.state_el = hy_element_state(&a->el);
    a->trial = a->committed;
    *out = a;
    return HY_OK;
}

void mech_dock_axial_free(mech_dock_axial *a)
{
    if (!a)
        return;
    hy_element_free(&a->el);
    free(a);
}

double mech_dock_axial_ratio(const mech_dock_axial *a) { return a->i_nut; }

/* ---- element in SI ------------------------------------------------------------------------------------------ */
static int el_trial(mech_dock_axial *a, double q, double qdot, double *Q, double *k, hy_err *err)
{
    hy_diag d;
    double Qm, km;
    int rc = hy_element_trial(&a->el, q * a->qs, qdot * a->qs, &Qm, &km, &d);
    if (rc) {
        char buf[256];
        hy_diag_format(&d, buf, sizeof buf);
        return hy_err_set(err, rc, "%s: %s", a->el_key, buf);
    }
    *Q = Qm * a->Qs;
    if (k)
        *k = km * a->Qs * a->qs;
    return HY_OK;
}

/* Root of G(q) = target on [lo, hi] for the monotone trial curve G of the gear element from its committed state,
 * with h = G - target known at both ends (h_lo <= 0 <= h_hi; one end is the committed point, the other the elastic
 * predictor). Newton on the piecewise-linear curve (exact once on the root's segment); a step that leaves the
 * bracket is replaced by regula falsi (Illinois), which is exact on a single segment too. An end already at the
 * level within the tolerance is the root (the committed point sits on the level after a slip). Typically 1-2
 * element trials. */
static int chain_solve(mech_dock_axial *a, double lo, double h_lo, double hi, double h_hi, double q, double target,
                       double *root, hy_err *err)
{
    double tol = CHAIN_TOL * (fabs(target) + 1);
    if (h_lo >= -tol) {
        *root = lo;
        return HY_OK;
    }
    if (h_hi <= tol) {
        *root = hi;
        return HY_OK;
    }
    int side = 0; /* Illinois: which end was kept last time */
    for (int it = 0; it < CHAIN_MAXIT; it++) {
        double G, k;
        int rc = el_trial(a, q, 0.0, &G, &k, err);
        if (rc)
            return rc;
        double h = G - target;
        if (fabs(h) <= tol)
            break;
        if (h < 0) {
            lo = q, h_lo = h;
            if (side == -1)
                h_hi *= 0.5;
            side = -1;
        } else {
            hi = q, h_hi = h;
            if (side == 1)
                h_lo *= 0.5;
            side = 1;
        }
        if (hi - lo <= 1e-15 * (1 + fabs(q)))
            break;
        double qn = k > 0 ? q - h / k : lo - 1;
        if (!(qn > lo && qn < hi))
            qn = lo - h_lo * (hi - lo) / (h_hi - h_lo);
        if (!(qn > lo && qn < hi))
            qn = 0.5 * (lo + hi);
        q = qn;
    }
    *root = q;
    return HY_OK;
}

/* Variant B: the series chain gear + FrT1 + FrT2 at stroke s (return mapping on the brake slips from the committed
 * slips). Fills the trial state and the slip power. */
static int chain_b(mech_dock_axial *a, double s, double sdot, double *F, double *p_brakes, hy_err *err)
{
    const mech_dock_axial_params *p = &a->p;
    const axial_state *c = &a->committed;
    axial_state *t = &a->trial;
    double s1 = c->s1, s2 = c->s2, qc = c->q_el, Gc = c->Q_el;
    double q = s - s1 - s2, G;
    int rc = el_trial(a, q, sdot, &G, NULL, err);
    if (rc)
        return rc;
    if (G > p->frt1_push && s1 < p->frt1_stroke) { /* FrT1 slips in */
        double r;
        if ((rc = chain_solve(a, qc, Gc - p->frt1_push, q, G - p->frt1_push, q, p->frt1_push, &r, err)))
            return rc;
        double s1n = s - s2 - r;
        if (s1n <= p->frt1_stroke) {
            s1 = s1n, q = r;
        } else { /* FrT1 reaches its stop within the step: the gear loads on towards FrT2 */
            s1 = p->frt1_stroke;
            q = s - s1 - s2;
            if ((rc = el_trial(a, q, sdot, &G, NULL, err)))
                return rc;
            if (G > p->frt2_push) {
                if ((rc = chain_solve(a, qc, Gc - p->frt2_push, q, G - p->frt2_push, q, p->frt2_push, &r, err)))
                    return rc;
                s2 = s - s1 - r, q = r;
            }
        }
    } else if (G > p->frt2_push) { /* FrT1 on its stop: FrT2 slips in */
        double r;
        if ((rc = chain_solve(a, qc, Gc - p->frt2_push, q, G - p->frt2_push, q, p->frt2_push, &r, err)))
            return rc;
        s2 = s - s1 - r, q = r;
    } else if (G < -p->frt1_pull && s1 > 0) { /* FrT1 slips back out */
        double r;
        if ((rc = chain_solve(a, q, G + p->frt1_pull, qc, Gc + p->frt1_pull, q, -p->frt1_pull, &r, err)))
            return rc;
        double s1n = s - s2 - r;
        if (s1n >= 0) {
            s1 = s1n, q = r;
        } else { /* FrT1 back at its start stop: FrT2 takes the pull */
            s1 = 0;
            q = s - s1 - s2;
            if ((rc = el_trial(a, q, sdot, &G, NULL, err)))
                return rc;
            if (G < -p->frt2_pull) {
                if ((rc = chain_solve(a, q, G + p->frt2_pull, qc, Gc + p->frt2_pull, q, -p->frt2_pull, &r, err)))
                    return rc;
                s2 = s - s1 - r, q = r;
            }
        }
    } else if (G < -p->frt2_pull) { /* FrT1 at its start: FrT2 slips out */
        double r;
        if ((rc = chain_solve(a, q, G + p->frt2_pull, qc, Gc + p->frt2_pull, q, -p->frt2_pull, &r, err)))
            return rc;
        s2 = s - s1 - r, q = r;
    }
    /* which brake slips now (at the level and moving its way): its slip rate is s' (the gear stands still) */
    int slipping = 0;
    if ((rc = el_trial(a, q, 0.0, &G, NULL, err)))
        return rc;
    double rel = 1 - 1e-9;
    if (sdot > 0)
        slipping = s1 < p->frt1_stroke ? G >= p->frt1_push * rel : G >= p->frt2_push * rel;
    else if (sdot < 0)
        slipping = s1 > 0 ? G <= -p->frt1_pull * rel : G <= -p->frt2_pull * rel;
    if ((rc = el_trial(a, q, slipping ? 0.0 : sdot, &G, NULL, err)))
        return rc;
    t->s1 = s1, t->s2 = s2, t->q_el = q, t->Q_el = G;
    *F = G;
    *p_brakes = slipping ? G * sdot : 0.0;
    return HY_OK;
}

/* Variant A: the friction-kind chain driven by the stroke; its slip = the table's cumulative shift plus, while
 * slipping (state +-10), the excess beyond the last forward point. */
static int chain_a(mech_dock_axial *a, double s, double sdot, double *F, double *p_brakes, hy_err *err)
{
    double G;
    int rc = el_trial(a, s, sdot, &G, NULL, err);
    if (rc)
        return rc;
    axial_state *t = &a->trial;
    const hy_pwl_state *st = &a->pwl->trial;
    double slip = st->shift;
    if (st->state == HY_PWL_BEYOND)
        slip += st->q - st->shift - a->q_fp;
    else if (st->state == -HY_PWL_BEYOND)
        slip += st->q - st->shift - a->q_fn;
    t->s1 = slip / a->qs;
    t->s2 = 0;
    t->q_el = s, t->Q_el = G;
    *F = G;
    *p_brakes = (st->state == HY_PWL_BEYOND && sdot > 0) || (st->state == -HY_PWL_BEYOND && sdot < 0) ? G * sdot : 0;
    return HY_OK;
}

static double sgn(double x) { return (x > 0) - (x < 0); }

/* The trial with the drive's output at (u, u') (issue 18, docs/dock-process.md §1): the friction chain and its
 * structural damping act on phi_FR = i_Nut (s - u) (eq. 2.1 with i_Nut,FR = 1), the screw friction, the magnetic
 * brakes and the stroke stop on the nut itself. u = u' = 0 is the locked drive of mech_dock_axial_trial. */
static int trial_impl(mech_dock_axial *a, double phi, double phid, double u, double w, double f_head,
                      mech_dock_axial_out *o, hy_err *err)
{
    if (!isfinite(phi) || !isfinite(phid) || !isfinite(f_head) || !isfinite(u) || !isfinite(w))
        return hy_err_set(err, HY_ERANGE, "axial: non-finite input (phi_Nut = %g rad, rate %g rad/s, head force %g N, "
                          "drive %g m, %g m/s)", phi, phid, f_head, u, w);
    const mech_dock_axial_params *p = &a->p;
    double s = phi / a->i_nut, sdot = phid / a->i_nut;
    a->trial = a->committed;
    double F = 0, p_brakes = 0;
    int rc = p->variant == MECH_DOCK_A ? chain_a(a, s - u, sdot - w, &F, &p_brakes, err)
                                       : chain_b(a, s - u, sdot - w, &F, &p_brakes, err);
    if (rc) {
        hy_element_revert(&a->el);
        a->trial = a->committed;
        return rc;
    }
    a->trial.state_el = a->pwl ? a->pwl->trial.state : hy_element_state(&a->el);
    double dir = sgn(sdot);
    /* the screw friction: stick on the anchor, or the Coulomb limit along the trial force (§2.1 flag) */
    const axial_state *c = &a->committed;
    double z = c->anchored ? s - c->s_anchor : 0.0;
    double f_screw = a->kt_screw * z + a->ct_screw * sdot, f_coul = p->screw_friction * fabs(f_head);
    if (fabs(f_screw) > f_coul) {   /* one coefficient static and kinetic: the slide needs no flag of its own */
        f_screw = f_coul * sgn(f_screw);
        z = f_screw / a->kt_screw;
    }
    a->trial.s_anchor = s - z;
    a->trial.anchored = 1;
    double f_mag = dir * mech_dock_table_eval(&p->magnetic, fabs(sdot)); /* eq. (2.2) */
    double f_damp = p->damping * (sdot - w);
    double f_stop = 0, e_stop = 0, p_stop = 0;
    /* the push-in stop limits the damper's own travel, s - u: with the drive locked (u = 0) it is RP-1's 0.32 m
       push-in limit on the stroke; the drive's retraction carries it along, so the 0.40 m retraction travel of
       RP-1 §2.3 (probe length 0.55 -> 0.15 m) passes it (docs/dock-process.md §1) */
    double d = s - u - p->stroke_limit, rel = sdot - w;
    if (d > 0) {
        double v_in = a->committed.in_stop ? a->committed.v_in : fmax(rel, STOP_V_MIN);
        double k = p->stop_stiffness;
        f_stop = k * d * (1 + a->stop_c / v_in * rel);
        if (f_stop < 0)
            f_stop = 0;
        e_stop = 0.5 * k * d * d;
        p_stop = (f_stop - k * d) * rel; /* >= 0: damping part, or the clamped release */
        a->trial.in_stop = 1, a->trial.v_in = v_in;
    } else {
        a->trial.in_stop = 0, a->trial.v_in = 0;
    }
    double net = f_head - f_screw - F - f_damp - f_mag - f_stop;
    o->phidd = a->i_nut * net / p->m_eq;
    o->force = F;
    o->f_magnetic = f_mag;
    o->f_screw = f_screw;
    o->f_damping = f_damp;
    o->f_stop = f_stop;
    o->slip1 = a->trial.s1;
    o->slip2 = a->trial.s2;
    o->q_el = a->trial.q_el;
    o->Q_el = a->trial.Q_el;
    o->state_el = a->trial.state_el;
    o->p_brakes = p_brakes;
    o->p_magnetic = f_mag * sdot;
    o->p_damping = f_damp * (sdot - w) + p_stop;
    o->p_screw = f_screw * sdot;
    o->e_stop = e_stop;
    o->e_screw = 0.5 * a->kt_screw * z * z;
    return HY_OK;
}

int mech_dock_axial_trial(mech_dock_axial *a, double phi, double phid, double f_head, mech_dock_axial_out *o,
                          hy_err *err)
{
    return trial_impl(a, phi, phid, 0.0, 0.0, f_head, o, err);
}

int mech_dock_axial_trial_drive(mech_dock_axial *a, double phi, double phid, double u, double w, double f_head,
                                mech_dock_axial_out *o, hy_err *err)
{
    return trial_impl(a, phi, phid, u, w, f_head, o, err);
}

void mech_dock_axial_commit(mech_dock_axial *a)
{
    hy_element_commit(&a->el);
    a->committed = a->trial;
}

void mech_dock_axial_revert(mech_dock_axial *a)
{
    hy_element_revert(&a->el);
    a->trial = a->committed;
}

// Branch state machine of the piecewise-linear model (spec 000 §2 Table 1, §3) with trial / commit / revert.
//
// Everything here works on a copy of the committed state and allocates nothing. Each side is handled in its
// side-local frame (pwl_internal.h): u = sgn (q - shift) grows outward, P = sgn Q, so "outward" motion (du > 0)
// loads the forward branch on either side and the negative-side rows of Table 1 are the positive-side rows.
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "pwl_internal.h"

#define ABS(s) ((s) < 0 ? -(s) : (s))

// (diag, code, committed state, q, qdot, rule) => diag filled (when not NULL); returns code
static int fail(hy_diag *diag, int code, int state, double q, double qdot, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static int fail(hy_diag *diag, int code, int state, double q, double qdot, const char *fmt, ...)
{
    if (diag) {
        diag->code = code;
        diag->state = state;
        diag->q = q;
        diag->qdot = qdot;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(diag->rule, sizeof diag->rule, fmt, ap);
        va_end(ap);
    }
    return code;
}

// (model, table abscissa x) => Q on the common part (backlash and first common segment) of the side x is on
static inline double common_Q(const hy_pwl_model *m, double x)
{
    const pwl_side *s = &m->side[x < 0];
    double u = s->sgn * x;
    return u <= s->u1 ? 0.0 : s->sgn * (s->k0 * (u - s->u1));
}

// (model, x, direction of motion) => dQ/dq on the common part
static inline double common_slope(const hy_pwl_model *m, double x, int dir)
{
    const pwl_side *s = &m->side[x < 0 || (x == 0 && dir < 0)];
    double u = s->sgn * x;
    if (u > s->u1 || (u == s->u1 && s->sgn * dir > 0))
        return s->k0;
    return 0.0;
}

// (side, state at the current point on F) => state 3 with the transition from B up to the current point
// (Table 1: 1 -> 3 (*), spec 000 §2: the reversal point is the transition's end)
static void begin_transition_down(const pwl_side *s, hy_pwl_state *t)
{
    double sg = s->sgn, u_e = sg * (t->q - t->shift), P_e = sg * t->Q, u_b, P_b;
    pwl_transition_down(s, u_e, P_e, &u_b, &P_b, &t->seg);
    t->q3e = t->q;
    t->Q3e = t->Q;
    t->q3b = t->shift + sg * u_b;
    t->Q3b = sg * P_b;
    t->qa = t->q;
    t->Qa = t->Q;
    t->state = s->sgn * HY_PWL_TRANSITION;
}

// (side, state at the current point on B) => state 3 with the transition from the current point up to F
// (Table 1: 2 -> 3 (*), spec 000 §2: the reversal point is the transition's start)
static void begin_transition_up(const pwl_side *s, hy_pwl_state *t)
{
    double sg = s->sgn, u_b = sg * (t->q - t->shift), P_b = sg * t->Q, u_e, P_e;
    pwl_transition_up(s, u_b, P_b, &u_e, &P_e, &t->seg);
    t->q3b = t->q;
    t->Q3b = t->Q;
    t->q3e = t->shift + sg * u_e;
    t->Q3e = sg * P_e;
    t->qa = t->q;
    t->Qa = t->Q;
    t->state = s->sgn * HY_PWL_TRANSITION;
}

// (model, side, state +-10 at the slip extreme t->q) => state +-2 at the last point of B; for the friction kind
// every abscissa is shifted so that the last point sits at the extreme (Table 1: 10 -> 2; spec 000 §3 item 2:
// delta = q_P,max - q_FP(N) after positive slip, q_N,min - q_FN(N) after negative slip; shifts accumulate)
static void leave_beyond(const hy_pwl_model *m, const pwl_side *s, hy_pwl_state *t)
{
    if (m->kind == HY_PWL_FRICTION) {
        double over = s->sgn * (t->q - t->shift) - s->uN; /* irreversible slip past the last point, >= 0 */
        if (over > 0)
            t->shift += s->sgn * over;
    }
    t->state = s->sgn * HY_PWL_BACKWARD;
    t->seg = s->B.n - 2;
}

// (branch, u in its working range [u2, uN], cached segment) => P and the slope there (seg updated)
static inline double eval_k(const pwl_branch *b, double u, int *seg, double *k)
{
    int i = pwl_locate(b->u, b->n, u, *seg);
    *seg = i;
    *k = b->k[i];
    return b->P[i] + b->k[i] * (u - b->u[i]);
}

/* Path mode: follow the monotone motion from the committed t->q to q (dir = sign of q - t->q) through every
 * row of Table 1 it crosses, ending with Q and the tangent in the direction of motion. Reversal rows (1 -> 3,
 * 10 -> 2, 2 -> 3 / 10) can only fire at the starting point, since the direction does not change within a step;
 * every other row moves on along the chains 2 -> 0 -> (-)1 -> (-)10 or 3 -> 1 -> 10 / 3 -> 2 -> 0, so the loop
 * ends after a few hops (the bound is a guard, never reached). */
static int follow(const hy_pwl_model *m, hy_pwl_state *t, double q, int dir)
{
    for (int hop = 0; hop < 16; hop++) {
        int st = t->state;
        double x = q - t->shift;
        if (st == HY_PWL_COMMON) {
            if (dir > 0 && x > m->side[0].u2) { /* Table 1: 0 -> 1 */
                t->state = HY_PWL_FORWARD;
                t->seg = 1;
                continue;
            }
            if (dir < 0 && x < -m->side[1].u2) { /* Table 1: 0 -> -1 */
                t->state = -HY_PWL_FORWARD;
                t->seg = 1;
                continue;
            }
            t->q = q;
            t->Q = common_Q(m, x);
            t->dQdq = common_slope(m, x, dir);
            return HY_OK;
        }
        const pwl_side *s = &m->side[st < 0];
        double sg = s->sgn, u = sg * x, k;
        int du = st < 0 ? -dir : dir; /* > 0: outward */
        switch (ABS(st)) {
        case HY_PWL_FORWARD:
            if (du < 0) { /* reversal on F: 1 -> 3 (*) */
                begin_transition_down(s, t);
                continue;
            }
            if (u > s->uN) { /* 1 -> 10 */
                t->state = s->sgn * HY_PWL_BEYOND;
                continue;
            }
            t->q = q; /* 1 -> 1 */
            t->Q = sg * eval_k(&s->F, u, &t->seg, &k);
            t->dQdq = u < s->uN ? k : s->k_beyond;
            return HY_OK;
        case HY_PWL_BEYOND:
            if (du < 0) { /* 10 -> 2, with the friction shift */
                leave_beyond(m, s, t);
                continue;
            }
            t->q = q; /* 10 -> 10 */
            t->Q = sg * (s->PN + s->k_beyond * (u - s->uN));
            t->dQdq = s->k_beyond;
            return HY_OK;
        case HY_PWL_BACKWARD:
            if (du > 0) { /* reversal on B */
                if (sg * (t->q - t->shift) >= s->uN)
                    t->state = s->sgn * HY_PWL_BEYOND; /* 2 -> 10 */
                else
                    begin_transition_up(s, t); /* 2 -> 3 (*) */
                continue;
            }
            if (u < s->u2) { /* any -> 0 */
                t->state = HY_PWL_COMMON;
                continue;
            }
            t->q = q; /* 2 -> 2 */
            if (u > s->uN) {
                t->Q = sg * (s->PN + s->k_beyond * (u - s->uN));
                t->dQdq = s->k_beyond;
            } else {
                t->Q = sg * eval_k(&s->B, u, &t->seg, &k);
                t->dQdq = k;
            }
            return HY_OK;
        case HY_PWL_TRANSITION:
            if (du > 0 && u > sg * (t->q3e - t->shift)) { /* 3 -> 1 */
                t->state = s->sgn * HY_PWL_FORWARD;
                t->seg = -1;
                continue;
            }
            if (du < 0 && u < sg * (t->q3b - t->shift)) { /* 3 -> 2 */
                t->state = s->sgn * HY_PWL_BACKWARD;
                t->seg = -1;
                continue;
            }
            t->q = q; /* 3 -> 3 */
            t->Q = t->Qa + s->k_max * (q - t->qa);
            t->dQdq = s->k_max;
            return HY_OK;
        default:
            return HY_ESTATE;
        }
    }
    return HY_ESTATE;
}

// (model, state at its point, local direction of the coming motion) => Table 1's reversal row applied when the
// branch reached points the other way (changes the state, never Q)
static void reverse_at_point(const hy_pwl_model *m, hy_pwl_state *t, int v)
{
    int st = t->state;
    if (st == HY_PWL_COMMON || ABS(st) == HY_PWL_TRANSITION)
        return;
    const pwl_side *s = &m->side[st < 0];
    int du = st < 0 ? -v : v;
    switch (ABS(st)) {
    case HY_PWL_FORWARD:
        if (du < 0)
            begin_transition_down(s, t);
        break;
    case HY_PWL_BEYOND:
        if (du < 0)
            leave_beyond(m, s, t);
        break;
    case HY_PWL_BACKWARD:
        if (du > 0) {
            if (s->sgn * (t->q - t->shift) >= s->uN)
                t->state = s->sgn * HY_PWL_BEYOND;
            else
                begin_transition_up(s, t);
        }
        break;
    }
}

// (model, state at its point, direction of the coming motion in q) => dQ/dq
static double tangent(const hy_pwl_model *m, hy_pwl_state *t, int dir)
{
    int st = t->state;
    double x = t->q - t->shift;
    if (st == HY_PWL_COMMON)
        return common_slope(m, x, dir);
    const pwl_side *s = &m->side[st < 0];
    double u = s->sgn * x;
    switch (ABS(st)) {
    case HY_PWL_FORWARD:
        if (t->seg < 0)
            t->seg = pwl_find(s->F.u, s->F.n, u);
        return pwl_branch_slope(&s->F, s, u, t->seg);
    case HY_PWL_BACKWARD:
        if (t->seg < 0)
            t->seg = pwl_find(s->B.u, s->B.n, u);
        return pwl_branch_slope(&s->B, s, u, t->seg);
    case HY_PWL_TRANSITION:
        return s->k_max;
    default:
        return s->k_beyond;
    }
}

/* Strict mode: Table 1 read literally, one row per evaluation from (state, q, qdot) as in the paper's program.
 * The "any -> 0" row comes first; the rows use closed intervals where the two curves meet (so that q exactly at a
 * table point is not a violation); qdot = 0 keeps the state while q stays in the state's own interval. Anything
 * else is a violation, reported with the row it failed. */
static int strict_step(const hy_pwl_model *m, hy_pwl_state *t, double q, double qdot, hy_diag *diag)
{
    int st0 = t->state;
    double x = q - t->shift;
    int v = (qdot > 0) - (qdot < 0);
    const pwl_side *P = &m->side[0], *N = &m->side[1];
    if (x > -N->u2 && x < P->u2) { /* any -> 0 */
        t->state = HY_PWL_COMMON;
        t->q = q;
        t->Q = common_Q(m, x);
        return HY_OK;
    }
    if (st0 == HY_PWL_COMMON) {
        if ((v > 0 && x >= P->u2) || (v == 0 && x == P->u2)) {
            t->state = HY_PWL_FORWARD;
            t->seg = -1;
        } else if ((v < 0 && x <= -N->u2) || (v == 0 && x == -N->u2)) {
            t->state = -HY_PWL_FORWARD;
            t->seg = -1;
        } else {
            return fail(diag, HY_ESTATE, st0, q, qdot,
                        "Table 1, state 0: q left the common region (%.10g, %.10g) %s (rows 0 -> 1 and 0 -> -1 need "
                        "dq/dt > 0 above it or dq/dt < 0 below it)",
                        t->shift - N->u2, t->shift + P->u2, v == 0 ? "with dq/dt = 0" : "against dq/dt");
        }
        const pwl_side *s = &m->side[t->state < 0];
        t->q = q;
        t->Q = s->sgn * pwl_branch_eval(&s->F, s, s->sgn * x, &t->seg);
        return HY_OK;
    }
    const pwl_side *s = &m->side[st0 < 0];
    int sg = s->sgn, w = sg * v, a = ABS(st0);
    double u = sg * x;
    const char *side = sg > 0 ? "P" : "N";
    if (u < s->u2 && a != HY_PWL_BEYOND)
        return fail(diag, HY_ESTATE, st0, q, qdot,
                    "Table 1, state %d: q jumped across the common region to the other side in one evaluation "
                    "(no row leads there; take a smaller step)",
                    st0);
    switch (a) {
    case HY_PWL_FORWARD:
        if (u > s->uN && w > 0) { /* 1 -> 10 */
            t->state = sg * HY_PWL_BEYOND;
            t->q = q;
            t->Q = sg * (s->PN + s->k_beyond * (u - s->uN));
            return HY_OK;
        }
        if (u > s->uN)
            return fail(diag, HY_ESTATE, st0, q, qdot,
                        "Table 1, state %d: q passed q_F%s(N) = %.10g with dq/dt %s 0 (only 1 -> 10 with dq/dt %s 0 "
                        "leads there)",
                        st0, side, t->shift + sg * s->uN, w == 0 ? "=" : (sg > 0 ? "<" : ">"), sg > 0 ? ">" : "<");
        t->q = q;
        t->Q = sg * pwl_branch_eval(&s->F, s, u, &t->seg); /* 1 -> 1, or 1 -> 3 below */
        if (w < 0)
            begin_transition_down(s, t);
        return HY_OK;
    case HY_PWL_BEYOND:
        if (w < 0) { /* 10 -> 2 at the extreme reached, then on B */
            double q_ext = sg * (q - t->q) > 0 ? q : t->q;
            t->q = q_ext;
            leave_beyond(m, s, t);
            x = q - t->shift;
            u = sg * x;
            t->q = q;
            if (x > -N->u2 && x < P->u2) {
                t->state = HY_PWL_COMMON;
                t->Q = common_Q(m, x);
            } else if (u >= s->u2) {
                t->Q = sg * pwl_branch_eval(&s->B, s, u, &t->seg);
            } else {
                return fail(diag, HY_ESTATE, st0, q, qdot,
                            "Table 1, state %d: q jumped from beyond the range across the common region in one "
                            "evaluation (take a smaller step)",
                            st0);
            }
            return HY_OK;
        }
        if (u < s->uN)
            return fail(diag, HY_ESTATE, st0, q, qdot,
                        "Table 1, state %d: q came back inside q_F%s(N) = %.10g with dq/dt %s (only 10 -> 2 with dq/dt "
                        "%s 0 leaves state %d)",
                        st0, side, t->shift + sg * s->uN, w == 0 ? "= 0" : "pointing outward", sg > 0 ? "<" : ">",
                        st0);
        t->q = q; /* 10 -> 10 */
        t->Q = sg * (s->PN + s->k_beyond * (u - s->uN));
        return HY_OK;
    case HY_PWL_BACKWARD:
        if (w > 0 && u >= s->uN) { /* 2 -> 10 */
            t->state = sg * HY_PWL_BEYOND;
            t->q = q;
            t->Q = sg * (s->PN + s->k_beyond * (u - s->uN));
            return HY_OK;
        }
        t->q = q;
        t->Q = sg * pwl_branch_eval(&s->B, s, u, &t->seg); /* 2 -> 2, or 2 -> 3 below */
        if (w > 0)
            begin_transition_up(s, t);
        return HY_OK;
    case HY_PWL_TRANSITION: {
        double ub = sg * (t->q3b - t->shift), ue = sg * (t->q3e - t->shift);
        if (u >= ub && u <= ue) { /* 3 -> 3 */
            t->q = q;
            t->Q = t->Qa + s->k_max * (q - t->qa);
            return HY_OK;
        }
        if (u > ue && w > 0) { /* 3 -> 1 */
            t->state = sg * HY_PWL_FORWARD;
            t->seg = -1;
            t->q = q;
            t->Q = sg * pwl_branch_eval(&s->F, s, u, &t->seg);
            return HY_OK;
        }
        if (u < ub && w < 0) { /* 3 -> 2 */
            t->state = sg * HY_PWL_BACKWARD;
            t->seg = -1;
            t->q = q;
            t->Q = sg * pwl_branch_eval(&s->B, s, u, &t->seg);
            return HY_OK;
        }
        return fail(diag, HY_ESTATE, st0, q, qdot,
                    "Table 1, state %d: q is %s the transition segment [%.10g, %.10g] with dq/dt %s (rows 3 -> 1 and "
                    "3 -> 2 need the motion to continue in the direction of dq/dt)",
                    st0, u > ue ? "beyond the end of" : "before the start of", fmin(t->q3b, t->q3e),
                    fmax(t->q3b, t->q3e), v == 0 ? "= 0" : "pointing back");
    }
    default:
        return fail(diag, HY_ESTATE, st0, q, qdot, "state %d is not a state of the model", st0);
    }
}

// (d, q, qdot) => trial reset to committed, diag filled for a non-finite input; HY_ERANGE
static int __attribute__((noinline, cold)) bad_input(hy_pwl_data *d, double q, double qdot, hy_diag *diag)
{
    hy_pwl_revert(d);
    return fail(diag, HY_ERANGE, d->committed.state, q, qdot, "%s is not a finite number",
                isfinite(q) ? "dq/dt" : "q");
}

// (d, q, qdot) => strict-mode trial (Table 1 literally)
static int __attribute__((noinline)) strict_trial(hy_pwl_data *d, double q, double qdot, double *Q, double *dQdq,
                                                  hy_diag *diag)
{
    hy_pwl_state *t = &d->trial;
    *t = d->committed;
    d->dirty = 1;
    int dir = (q > t->q) - (q < t->q), v = (qdot > 0) - (qdot < 0);
    if (dir != 0 || v != 0) {
        int rc = strict_step(d->model, t, q, qdot, diag);
        if (rc != HY_OK) {
            hy_pwl_revert(d);
            return rc;
        }
        t->dQdq = tangent(d->model, t, v != 0 ? v : dir);
    }
    *Q = t->Q;
    if (dQdq)
        *dQdq = t->dQdq;
    return HY_OK;
}

// (d with trial = committed, q, qdot) => general path-mode trial: follow the motion, then qdot's reversal row
static int __attribute__((noinline)) path_trial(hy_pwl_data *d, double q, double qdot, double *Q, double *dQdq,
                                                hy_diag *diag)
{
    const hy_pwl_model *m = d->model;
    hy_pwl_state *t = &d->trial;
    *t = d->committed;
    d->dirty = 1;
    double dq = q - t->q;
    int dir = (dq > 0) - (dq < 0), v = (qdot > 0) - (qdot < 0);
    if (dir != 0 && follow(m, t, q, dir) != HY_OK) {
        hy_pwl_revert(d);
        return fail(diag, HY_ESTATE, d->committed.state, q, qdot, "the state machine made no progress (internal error)");
    }
    if (v != 0 && v != dir) { /* the coming motion points away from the branch reached: Table 1's reversal row */
        reverse_at_point(m, t, v);
        t->dQdq = tangent(m, t, v);
    }
    *Q = t->Q;
    if (dQdq)
        *dQdq = t->dQdq;
    return HY_OK;
}

/* (committed state, q, qdot) => Q, dQ/dq; trial state written, committed state unchanged.
 * The common case, a step that stays on the committed state's own curve in that curve's direction (qdot not
 * pointing back), is done here with the same arithmetic as follow() and writes only q, Q, dQdq and seg of the
 * trial state (its other fields equal the committed ones unless `dirty`); everything else goes to path_trial. */
int hy_pwl_trial(hy_pwl_data *d, double q, double qdot, double *Q, double *dQdq, hy_diag *diag)
{
    const hy_pwl_state *c = &d->committed;
    if (__builtin_expect(q * 0.0 + qdot * 0.0 != 0.0, 0)) /* NaN or infinity in either */
        return bad_input(d, q, qdot, diag);
    if (__builtin_expect(d->strict, 0))
        return strict_trial(d, q, qdot, Q, dQdq, diag);
    int st = c->state, seg = c->seg;
    double dq = q - c->q, Qn, kn;
    if (st != HY_PWL_COMMON && dq != 0) {
        const pwl_side *s = &d->model->side[st < 0];
        double sg = s->sgn, u = sg * (q - c->shift), du = sg * dq, vu = sg * qdot, k;
        switch (st < 0 ? -st : st) {
        case HY_PWL_FORWARD: /* 1 -> 1 */
            if (du > 0 && u <= s->uN && vu >= 0) {
                Qn = sg * eval_k(&s->F, u, &seg, &k);
                kn = u < s->uN ? k : s->k_beyond;
                goto done;
            }
            break;
        case HY_PWL_BACKWARD: /* 2 -> 2 */
            if (du < 0 && u >= s->u2 && u <= s->uN && vu <= 0) {
                Qn = sg * eval_k(&s->B, u, &seg, &k);
                kn = k;
                goto done;
            }
            break;
        case HY_PWL_TRANSITION: /* 3 -> 3 in either direction */
            if (u <= sg * (c->q3e - c->shift) && u >= sg * (c->q3b - c->shift)) {
                Qn = c->Qa + s->k_max * (q - c->qa);
                kn = s->k_max;
                goto done;
            }
            break;
        case HY_PWL_BEYOND: /* 10 -> 10 */
            if (du > 0 && vu >= 0) {
                Qn = sg * (s->PN + s->k_beyond * (u - s->uN));
                kn = s->k_beyond;
                goto done;
            }
            break;
        }
    }
    return path_trial(d, q, qdot, Q, dQdq, diag);
done:;
    hy_pwl_state *t = &d->trial;
    if (d->dirty) {
        *t = *c;
        d->dirty = 0;
    }
    t->seg = seg;
    t->q = q;
    t->Q = Qn;
    t->dQdq = kn;
    *Q = Qn;
    if (dQdq)
        *dQdq = kn;
    return HY_OK;
}

// (model, d) => d at rest at the origin
void hy_pwl_data_init(hy_pwl_data *d, const hy_pwl_model *m)
{
    memset(d, 0, sizeof *d);
    d->model = m;
    d->committed.state = HY_PWL_COMMON;
    d->committed.seg = -1;
    d->committed.dQdq = common_slope(m, 0.0, 1);
    d->trial = d->committed;
}

// (d, q0, Q0) => d at rest at (q0, Q0); HY_EMODEL outside the envelopes
int hy_pwl_data_reset(hy_pwl_data *d, double q0, double Q0, hy_err *err)
{
    const hy_pwl_model *m = d->model;
    if (!isfinite(q0) || !isfinite(Q0))
        return hy_err_set(err, HY_EARG, "reset point (%g, %g) is not finite", q0, Q0);
    double tol = 1e-9 * m->scale_Q;
    hy_pwl_state t;
    memset(&t, 0, sizeof t);
    t.seg = -1;
    t.q = q0;
    t.Q = Q0;
    if (q0 >= -m->side[1].u2 && q0 <= m->side[0].u2) {
        double Qc = common_Q(m, q0);
        if (fabs(Q0 - Qc) > tol)
            return hy_err_set(err, HY_EMODEL,
                              "reset point (q, Q) = (%.10g, %.10g) is off the common segment (Q there is %.10g)", q0,
                              Q0, Qc);
        t.state = HY_PWL_COMMON;
    } else {
        const pwl_side *s = &m->side[q0 < 0];
        double sg = s->sgn, u = sg * q0, P = sg * Q0;
        int segF = -1, segB = -1;
        double PF = pwl_branch_eval(&s->F, s, u, &segF), PB = pwl_branch_eval(&s->B, s, u, &segB);
        if (u >= s->uN && fabs(P - PF) <= tol) {
            t.state = s->sgn * HY_PWL_BEYOND;
        } else if (u < s->uN && fabs(P - PF) <= tol) {
            t.state = s->sgn * HY_PWL_FORWARD;
            t.seg = segF;
        } else if (u < s->uN && fabs(P - PB) <= tol) {
            t.state = s->sgn * HY_PWL_BACKWARD;
            t.seg = segB;
        } else if (u < s->uN && P > PB && P < PF) {
            double ub, Pb, ue, Pe;
            int seg;
            pwl_transition_down(s, u, P, &ub, &Pb, &seg);
            pwl_transition_up(s, u, P, &ue, &Pe, &seg);
            t.state = s->sgn * HY_PWL_TRANSITION;
            t.q3b = sg * ub;
            t.Q3b = sg * Pb;
            t.q3e = sg * ue;
            t.Q3e = sg * Pe;
            t.qa = q0;
            t.Qa = Q0;
        } else {
            return hy_err_set(err, HY_EMODEL,
                              "reset point (q, Q) = (%.10g, %.10g) lies outside the hysteresis envelope (B gives %.10g, "
                              "F gives %.10g at that q)",
                              q0, Q0, sg * PB, sg * PF);
        }
    }
    t.dQdq = tangent(m, &t, 0);
    d->committed = t;
    d->trial = t;
    d->dirty = 0;
    return HY_OK;
}

// Piecewise-linear hysteresis model: table validation and compilation into the immutable model (spec 000 §2-3).
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pwl_internal.h"

/* Relative tolerance on slopes compared with k_beyond: tables come from measurements and JSON, so the last
 * backward segment's slope computed from its two points equals k_beyond only to round-off. */
#define SLOPE_RTOL 1e-9

/* (segment end points, its slope k, reference slope) => how far k may exceed the reference and still count as
 * equal: a relative 1e-9, plus what rounding the stored end points can do to a slope computed from them (a fitted
 * segment held at k_max comes back from its ordinates a few ulps of Q / dq off). */
static double slope_allowance(double q0, double Q0, double q1, double Q1, double k, double kref)
{
    double dq = fabs(q1 - q0);
    return SLOPE_RTOL * fabs(kref) + 8 * DBL_EPSILON * (fabs(Q0) + fabs(Q1) + fabs(k) * (fabs(q0) + fabs(q1))) / dq;
}

static const char *const side_key[2] = {"positive", "negative"};
static const char *const branch_key[2] = {"forward", "backward"};

// (table side, which) => the branch's points
static const hy_pwl_points *branch_of(const hy_pwl_side *s, int which)
{
    return which == 0 ? &s->forward : &s->backward;
}

// (branch points, name, key path) => HY_OK when the points are finite, on the right side, ordered outward, >= 2
static int check_points(const hy_pwl_points *p, int side, int which, const char *name, hy_err *err)
{
    const char *sk = side_key[side], *bk = branch_key[which];
    if (p->n < 2 || !p->q || !p->Q)
        return hy_err_set(err, HY_EMODEL,
                          "%s: %s.%s: needs at least 2 points (the end of the backlash and the end of the first "
                          "common segment), got %zu",
                          name, sk, bk, p->q && p->Q ? p->n : 0);
    for (size_t i = 0; i < p->n; i++) {
        if (!isfinite(p->q[i]) || !isfinite(p->Q[i]))
            return hy_err_set(err, HY_EMODEL, "%s: %s.%s[%zu]: %s is not a finite number", name, sk, bk, i,
                              isfinite(p->q[i]) ? "Q" : "q");
        if (side == 0 && p->q[i] < 0)
            return hy_err_set(err, HY_EMODEL, "%s: %s.%s[%zu]: q = %.15g < 0, but positive-side points must have q >= 0",
                              name, sk, bk, i, p->q[i]);
        if (side == 1 && p->q[i] > 0)
            return hy_err_set(err, HY_EMODEL, "%s: %s.%s[%zu]: q = %.15g > 0, but negative-side points must have q <= 0",
                              name, sk, bk, i, p->q[i]);
        if (i > 0 && !(fabs(p->q[i]) > fabs(p->q[i - 1])))
            return hy_err_set(err, HY_EMODEL,
                              "%s: %s.%s[%zu]: q = %.15g is not beyond the previous point's q = %.15g (points must be "
                              "ordered outward, by growing |q|)",
                              name, sk, bk, i, p->q[i], p->q[i - 1]);
    }
    if (p->Q[0] != 0.0)
        return hy_err_set(err, HY_EMODEL,
                          "%s: %s.%s[0]: Q = %.15g, but the first point is the end of the backlash and must have Q = 0 "
                          "(spec 000 §2 assumption 2)",
                          name, sk, bk, p->Q[0]);
    return HY_OK;
}

// (side, point index in F, index in B) => HY_OK when F and B share that point exactly
static int check_shared(const hy_pwl_side *s, int side, size_t iF, size_t iB, const char *what, const char *name,
                        hy_err *err)
{
    const hy_pwl_points *F = &s->forward, *B = &s->backward;
    if (F->q[iF] != B->q[iB] || F->Q[iF] != B->Q[iB])
        return hy_err_set(err, HY_EMODEL,
                          "%s: %s.backward[%zu]: (q, Q) = (%.15g, %.15g) differs from %s.forward[%zu] = (%.15g, %.15g): "
                          "F and B must share %s (spec 000 §2 assumption 3)",
                          name, side_key[side], iB, B->q[iB], B->Q[iB], side_key[side], iF, F->q[iF], F->Q[iF], what);
    return HY_OK;
}

/* (points, q, segment cursor) => Q by linear interpolation in |q| (q within the branch's range). The cursor
 * starts at 0 and only moves outward, so a sweep over growing |q| costs O(n + m) in all, not O(n m). */
static double interp(const hy_pwl_points *p, double q, size_t *cursor)
{
    double a = fabs(q);
    size_t i = *cursor;
    while (i + 2 < p->n && a > fabs(p->q[i + 1]))
        i++;
    *cursor = i;
    double u0 = fabs(p->q[i]), u1 = fabs(p->q[i + 1]);
    return p->Q[i] + (p->Q[i + 1] - p->Q[i]) * (a - u0) / (u1 - u0);
}

// (table side) => HY_OK when every slope respects k_max and F does not cross B (spec 000 §2 assumptions 3-5, §3)
static int check_side(const hy_pwl_side *s, hy_pwl_kind kind, int side, double scale_Q, const char *name, hy_err *err)
{
    const char *sk = side_key[side];
    int rc;
    if (!isfinite(s->k_beyond))
        return hy_err_set(err, HY_EMODEL, "%s: %s.k_beyond: not a finite number", name, sk);
    if ((rc = check_shared(s, side, 0, 0, "the first segment, points 1 and 2", name, err)) != HY_OK ||
        (rc = check_shared(s, side, 1, 1, "the first segment, points 1 and 2", name, err)) != HY_OK ||
        (rc = check_shared(s, side, s->forward.n - 1, s->backward.n - 1, "the last point", name, err)) != HY_OK)
        return rc;
    if (kind == HY_PWL_CONSTANT && !(s->k_beyond > 0))
        return hy_err_set(err, HY_EMODEL,
                          "%s: %s.k_beyond: %.10g, but the constant kind needs k_beyond > 0 (it is the transition "
                          "slope k_max, spec 000 §2 assumption 4)",
                          name, sk, s->k_beyond);
    /* largest working slope */
    double kmax_work = -INFINITY;
    for (int w = 0; w < 2; w++) {
        const hy_pwl_points *p = branch_of(s, w);
        for (size_t i = 0; i + 1 < p->n; i++) {
            double k = (p->Q[i + 1] - p->Q[i]) / (p->q[i + 1] - p->q[i]);
            if (!isfinite(k))
                return hy_err_set(err, HY_EMODEL, "%s: %s.%s[%zu]: the segment to the next point has no finite slope",
                                  name, sk, branch_key[w], i);
            if (k > kmax_work)
                kmax_work = k;
            if (kind == HY_PWL_CONSTANT &&
                k > s->k_beyond + slope_allowance(p->q[i], p->Q[i], p->q[i + 1], p->Q[i + 1], k, s->k_beyond))
                return hy_err_set(err, HY_EMODEL,
                                  "%s: %s.%s[%zu]: the segment to the next point has slope %.10g, steeper than "
                                  "k_beyond = %.10g; the beyond-range slope must be the largest (spec 000 §2 "
                                  "assumptions 3-4)",
                                  name, sk, branch_key[w], i, k, s->k_beyond);
        }
    }
    if (kind == HY_PWL_CONSTANT) {
        const hy_pwl_points *B = &s->backward;
        size_t i = B->n - 2;
        double k = (B->Q[i + 1] - B->Q[i]) / (B->q[i + 1] - B->q[i]);
        if (fabs(k - s->k_beyond) > slope_allowance(B->q[i], B->Q[i], B->q[i + 1], B->Q[i + 1], k, s->k_beyond))
            return hy_err_set(err, HY_EMODEL,
                              "%s: %s.backward[%zu]: the last backward segment has slope %.10g, but it must have the "
                              "largest slope k_beyond = %.10g (spec 000 §2 assumption 5)",
                              name, sk, i, k, s->k_beyond);
    } else {
        if (s->k_beyond != 0.0)
            return hy_err_set(err, HY_EMODEL,
                              "%s: %s.k_beyond: %.10g, but the friction kind has slope 0 beyond the range (the brake "
                              "slips at constant force, spec 000 §3 item 1)",
                              name, sk, s->k_beyond);
        if (!(kmax_work > 0))
            return hy_err_set(err, HY_EMODEL,
                              "%s: %s: no working segment has a positive slope, so there is no transition slope "
                              "(spec 000 §3 item 3)",
                              name, sk);
    }
    /* F on or outside B at every point of either branch (side-local: |Q_F| >= |Q_B| in the loading direction):
     * a backward branch outside the forward one would make a closed cycle generate energy, and the transition
     * line of slope k_max would not be guaranteed to meet the other branch. */
    double sg = side == 0 ? 1.0 : -1.0, tol = 1e-12 * scale_Q;
    for (int w = 0; w < 2; w++) {
        const hy_pwl_points *p = branch_of(s, w);
        size_t cursor = 0; /* p's points grow in |q| (check_points): one merge-like sweep of the other branch */
        for (size_t i = 2; i + 1 < p->n; i++) {
            double other = interp(branch_of(s, 1 - w), p->q[i], &cursor);
            double PF = sg * (w == 0 ? p->Q[i] : other), PB = sg * (w == 0 ? other : p->Q[i]);
            if (PB > PF + tol)
                return hy_err_set(err, HY_EMODEL,
                                  "%s: %s.%s[%zu]: at q = %.10g the backward branch (Q = %.10g) lies %s the forward "
                                  "branch (Q = %.10g); B must not cross F, or a closed cycle would generate energy",
                                  name, sk, branch_key[w], i, p->q[i], sg * PB, side == 0 ? "above" : "below", sg * PF);
        }
    }
    return HY_OK;
}

// (table points, side sign, memory cursor) => compiled branch in the side-local frame
static void compile_branch(pwl_branch *b, const hy_pwl_points *p, double sg, double **cur)
{
    b->n = (int)p->n;
    b->u = *cur;
    b->P = b->u + p->n;
    b->k = b->P + p->n;
    *cur = b->k + (p->n - 1);
    for (size_t i = 0; i < p->n; i++) {
        b->u[i] = sg * p->q[i];
        b->P[i] = sg * p->Q[i];
    }
    for (size_t i = 0; i + 1 < p->n; i++)
        b->k[i] = (b->P[i + 1] - b->P[i]) / (b->u[i + 1] - b->u[i]);
}

// (table, name for messages) => compiled model (arrays copied); HY_EMODEL with the broken assumption named
int hy_pwl_model_new(const hy_pwl_table *t, const char *name, hy_pwl_model **out, hy_err *err)
{
    *out = NULL;
    if (!name)
        name = "model";
    if (!t)
        return hy_err_set(err, HY_EARG, "%s: no table given", name);
    if (t->kind != HY_PWL_CONSTANT && t->kind != HY_PWL_FRICTION)
        return hy_err_set(err, HY_EMODEL, "%s: kind: %d is neither constant nor friction", name, (int)t->kind);
    const hy_pwl_side *sides[2] = {&t->positive, &t->negative};
    int rc;
    double scale_Q = 0, scale_q = 0;
    size_t total = 0;
    for (int s = 0; s < 2; s++)
        for (int w = 0; w < 2; w++) {
            const hy_pwl_points *p = branch_of(sides[s], w);
            if ((rc = check_points(p, s, w, name, err)) != HY_OK)
                return rc;
            for (size_t i = 0; i < p->n; i++) {
                scale_Q = fmax(scale_Q, fabs(p->Q[i]));
                scale_q = fmax(scale_q, fabs(p->q[i]));
            }
            total += 5 * p->n - 1; /* compiled u, P, k and the table copy q, Q */
        }
    for (int s = 0; s < 2; s++)
        if ((rc = check_side(sides[s], t->kind, s, scale_Q, name, err)) != HY_OK)
            return rc;

    hy_pwl_model *m = calloc(1, sizeof *m);
    double *mem = m ? malloc(total * sizeof *mem) : NULL;
    if (!mem) {
        free(m);
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", name);
    }
    m->kind = t->kind;
    m->mem = mem;
    m->scale_Q = scale_Q > 0 ? scale_Q : 1.0;
    m->scale_q = scale_q > 0 ? scale_q : 1.0;
    double *cur = mem;
    for (int s = 0; s < 2; s++) {
        const hy_pwl_side *ts = sides[s];
        pwl_side *c = &m->side[s];
        double sg = s == 0 ? 1.0 : -1.0;
        c->sgn = s == 0 ? 1 : -1;
        compile_branch(&c->F, &ts->forward, sg, &cur);
        compile_branch(&c->B, &ts->backward, sg, &cur);
        c->u1 = c->F.u[0];
        c->u2 = c->F.u[1];
        c->P2 = c->F.P[1];
        c->k0 = c->F.k[0];
        c->uN = c->F.u[c->F.n - 1];
        c->PN = c->F.P[c->F.n - 1];
        c->k_beyond = ts->k_beyond;
        if (t->kind == HY_PWL_CONSTANT) {
            c->k_max = ts->k_beyond; /* spec 000 §2 assumption 4 */
        } else {
            double k = 0; /* spec 000 §3 item 3: the largest slope of the working segments */
            for (int i = 0; i + 1 < c->F.n; i++)
                k = fmax(k, c->F.k[i]);
            for (int i = 0; i + 1 < c->B.n; i++)
                k = fmax(k, c->B.k[i]);
            c->k_max = k;
        }
        m->tk[s] = ts->k_beyond;
        for (int w = 0; w < 2; w++) {
            const hy_pwl_points *p = branch_of(ts, w);
            int j = 2 * s + w;
            m->tn[j] = p->n;
            m->tq[j] = cur;
            m->tQ[j] = cur + p->n;
            memcpy(m->tq[j], p->q, p->n * sizeof(double));
            memcpy(m->tQ[j], p->Q, p->n * sizeof(double));
            cur += 2 * p->n;
        }
    }
    *out = m;
    return HY_OK;
}

// (model) => table view whose arrays point into the model
void hy_pwl_model_table(const hy_pwl_model *m, hy_pwl_table *t)
{
    memset(t, 0, sizeof *t);
    t->kind = m->kind;
    hy_pwl_side *sides[2] = {&t->positive, &t->negative};
    for (int s = 0; s < 2; s++) {
        sides[s]->forward = (hy_pwl_points){m->tn[2 * s], m->tq[2 * s], m->tQ[2 * s]};
        sides[s]->backward = (hy_pwl_points){m->tn[2 * s + 1], m->tq[2 * s + 1], m->tQ[2 * s + 1]};
        sides[s]->k_beyond = m->tk[s];
    }
}

// (model) => memory released
void hy_pwl_model_free(hy_pwl_model *m)
{
    if (!m)
        return;
    free(m->mem);
    free(m);
}

// (model) => kind of the table
hy_pwl_kind hy_pwl_model_kind(const hy_pwl_model *m) { return m->kind; }

// (model, side) => transition slope k_max of that side
double hy_pwl_model_kmax(const hy_pwl_model *m, int side) { return m->side[pwl_side_index(side)].k_max; }

// (model, branch, table abscissa) => Q on that envelope branch
double hy_pwl_model_branch(const hy_pwl_model *m, int branch, double q)
{
    const pwl_side *s = &m->side[pwl_side_index(q < 0 ? -1 : 1)];
    const pwl_branch *b = branch == HY_PWL_BACKWARD ? &s->B : &s->F;
    int seg = -1;
    return s->sgn * pwl_branch_eval(b, s, s->sgn * q, &seg);
}

// (model) => the common region of state 0 in table abscissas
void hy_pwl_model_common(const hy_pwl_model *m, double *q_lo, double *q_hi)
{
    *q_lo = -m->side[1].u2;
    *q_hi = m->side[0].u2;
}

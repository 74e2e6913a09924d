/* Peak-oriented (modified Clough) model as a hysteretic element (hyst/element.h, docs/clough-model.md §2). The
 * state: the point (x, F), the origin o of the virgin backbone, each side's reloading anchor (the zero-force point
 * x_0 its reloading branch starts from) and largest excursion u_m. A trial moves monotonically from the committed
 * point to q; the force on the way up is
 *
 *     F(q) = min(F_c + k (q - x_c), R+(q))      (F_c >= 0, or once the unloading line has crossed zero)
 *
 * with R+ the reloading path (x_0, 0) -> P -> (u_m, B(u_m)) -> backbone: every segment of R+ has a slope <= k
 * (docs/clough-model.md §2 shows why), so the unloading line meets it once. A move down is the mirror image. Exact
 * for any step: the law is piecewise linear and rate-independent; allocates nothing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "hyst/clough.h"

typedef struct clough_pt {
    double x, F;     /* the point                                                                     */
    double a_p, a_n; /* zero-force anchors of the reloading toward + and toward -                    */
    double u_p, u_n; /* largest excursions on the + side (>= u_y) and on the - side (<= -u_y), from o  */
    int    code;     /* branch of the last move: +-1 unloading (slope k), +-2 to the pinch point,      */
                     /* +-3 pinch point to peak, +-4 backbone; 0 at rest                               */
} clough_pt;

typedef struct clough_state {
    const hy_clough_model *model;
    double    o;      /* origin of the virgin backbone (the reset point); x is absolute, the anchors and */
                      /* excursions are measured from o                                                */
    clough_pt c, t;   /* committed, trial                                                              */
} clough_state;

/* (parameters, x, F, q >= x, the + side's anchor and excursion, relative to the origin) => force at q, slope,
 * branch code; *a and *u updated (the anchor when the unloading line crosses zero, the excursion on the backbone) */
static double move_up(const hy_clough_params *p, double x, double F, double q, double *a, double *u, double *kt,
                      int *code)
{
    const double k = p->k, uy = p->F_y / p->k;
    if (F < 0) {
        double xz = x - F / k; /* the unloading line reaches zero force */
        if (q <= xz) {
            *kt = k;
            *code = 1;
            return F + k * (q - x);
        }
        *a = xz;
        x = xz;
        F = 0;
    }
    double E = F + k * (q - x), R, kR;
    int cR;
    double um = *u, Fm = p->F_y + p->alpha * k * (um - uy); /* B(u_m), u_m >= u_y */
    if (q >= um) {
        R = q <= uy ? k * q : p->F_y + p->alpha * k * (q - uy);
        kR = q <= uy ? k : p->alpha * k;
        cR = 4;
    } else {
        double Px = um - (1 - p->kappa) * Fm / k, PF = p->kappa * Fm;
        if (q >= Px) {
            R = PF + k * (q - Px);
            kR = k;
            cR = 3;
        } else {
            kR = PF / (Px - *a); /* Px - a >= kappa F_m / k > 0 (docs/clough-model.md §2) */
            R = kR * (q - *a);
            cR = 2;
        }
    }
    if (E < R) {
        *kt = k;
        *code = 1;
        return E;
    }
    if (cR == 4 && q > um)
        *u = q;
    *kt = kR;
    *code = cR;
    return R;
}

static int clough_trial(void *self, double q, double qdot, double *Q, double *dQdq, hy_diag *diag)
{
    clough_state *st = self;
    const hy_clough_params *p = hy_clough_model_params(st->model);
    if (!isfinite(q) || !isfinite(qdot)) {
        if (diag) {
            *diag = (hy_diag){.code = HY_EARG, .state = st->c.code, .q = q, .qdot = qdot};
            snprintf(diag->rule, sizeof diag->rule, "trial input is not a finite number");
        }
        return HY_EARG;
    }
    clough_pt t = st->c;
    double x = t.x - st->o, qr = q - st->o, kt = p->k;
    if (qr > x) {
        t.F = move_up(p, x, t.F, qr, &t.a_p, &t.u_p, &kt, &t.code);
    } else if (qr < x) { /* the mirror image: q -> -q, F -> -F, the - side's anchor and excursion */
        double a = -t.a_n, u = -t.u_n;
        t.F = -move_up(p, -x, -t.F, -qr, &a, &u, &kt, &t.code);
        t.a_n = -a;
        t.u_n = -u;
        t.code = -t.code;
    } /* standing still: the point and the tangent of a reversal (slope k) */
    t.x = q;
    st->t = t;
    *Q = t.F;
    if (dQdq)
        *dQdq = kt;
    return HY_OK;
}

static void clough_commit(void *self)
{
    clough_state *st = self;
    st->c = st->t;
}

static void clough_revert(void *self)
{
    clough_state *st = self;
    st->t = st->c;
}

/* (q0, Q0 = 0) => the virgin state with its backbone centred on q0 */
static int clough_reset(void *self, double q0, double Q0, hy_err *err)
{
    clough_state *st = self;
    if (!isfinite(q0) || !isfinite(Q0))
        return hy_err_set(err, HY_EMODEL, "clough element: start point (%g, %g) is not finite", q0, Q0);
    if (Q0 != 0)
        return hy_err_set(err, HY_EMODEL, "clough element: a start at rest has Q = 0, not %g", Q0);
    const hy_clough_params *p = hy_clough_model_params(st->model);
    double uy = p->F_y / p->k;
    st->o = q0;
    st->c = (clough_pt){.x = q0, .F = 0, .a_p = 0, .a_n = 0, .u_p = uy, .u_n = -uy, .code = 0};
    st->t = st->c;
    return HY_OK;
}

static int clough_state_code(const void *self) { return ((const clough_state *)self)->c.code; }
static void clough_destroy(void *self) { free(self); }

static const hy_element_ops ops = {"clough", clough_trial, clough_commit, clough_revert, clough_reset,
                                   clough_state_code, clough_destroy};

// (model) => a new element at rest at the origin
int hy_clough_element_new(const hy_clough_model *m, hy_element *e, hy_err *err)
{
    e->ops = NULL;
    e->self = NULL;
    clough_state *st = calloc(1, sizeof *st);
    if (!st)
        return hy_err_set(err, HY_ENOMEM, "clough element: out of memory");
    st->model = m;
    e->ops = &ops;
    e->self = st;
    return clough_reset(st, 0.0, 0.0, err);
}

// (clough element) => a copy with the same model and state
int hy_clough_element_copy(const hy_element *src, hy_element *dst, hy_err *err)
{
    const clough_state *s = src->self;
    int rc = hy_clough_element_new(s->model, dst, err);
    if (rc == HY_OK)
        *(clough_state *)dst->self = *s;
    return rc;
}

/* Newmark integration of the coupled nonlinear equations (spec 004 eq. 15, §4) in x = [theta; q]:
 *   Mt(x) x'' + Kt(x') x = F(t, x, x'),  Mt = [[J + q'Mq, h'], [h, M]],  Kt = diag(0, K - th'^2 M),
 *   F = [-2 th' q'M q' (+ (r0 + x_F) F(t), consistent mode); f_load F(t) + F_h + b_u U].
 * Lagged update (the paper): Mt, Kt and the nonlinear forces of a step are those of the last accepted state.
 * Iterated: the step is repeated with them evaluated at the new state until it stops moving (fixed point).
 * The effective matrix [[a, c'], [c, B]] (B = K - th'^2 M + a0 M, SPD) is solved by block elimination:
 *   reduced: Mhat = I and Khat = diag(omega^2) (the modal basis makes them so; beam_modal.c checks and snaps the
 *            round-off), so B is diagonal and the step is O(n), exactly the paper's algorithm;
 *   physical: B0 = K + a0 M is factored once by LAPACK's banded Cholesky (dpbtrf) and each step is one banded solve
 *            (dpbtrs), with the small centrifugal term th'^2 M q taken at the state point on the right-hand side
 *            (lagged: at the accepted state; iterated: at the new state once converged). docs/beam.md.
 * The step allocates nothing. */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "beam/beam_internal.h"

struct mech_beam_data {
    const mech_beam_model *m;
    const beam_sys *S;
    mech_beam_solver s;
    mech_beam_load load;
    mech_beam_control ctl;
    mech_beam_enable en;
    size_t n;              /* flexible coordinates                                                            */
    int nh;                /* hinges                                                                          */
    long step;
    double t;
    double c0, c1, c2, c3; /* Newmark a0, a2, a3 and dt gamma                                                 */
    double r_load;         /* r0 + x_F: lever of the external force about the hub axis (consistent mode)    */
    /* accepted state (written by mech_beam_step) */
    double *x, *v, *a;     /* 1 + n each: [theta; q], rates, accelerations                                   */
    double *dth, *Mh;      /* nh: hinge rotation jumps, rad; total hinge moments, N m                         */
    double U, F;           /* MFC voltage, V; external force, N                                              */
    double W_hinge, W_ext; /* work absorbed by the hinges, work put in, J                                    */
    int iterations;
    /* trial state of the step being taken */
    double *xn, *vn, *an, *dthn, *Mhn;
    double *xs, *vs;       /* 1 + n each: the state point of an iterated pass                                */
    /* workspace */
    double *fh;            /* n: hinge generalized force dphi' (k dth - M)                                   */
    double *Mq, *Mv, *w;   /* n, n, 1 + n                                                                    */
    double *B;             /* n x n (dense) or (kd + 1) x n (band)                                           */
    double *Y;             /* n x 2, column-major: [y1 | y2]                                                 */
    double *c;             /* n: a0 h, the border of the Newmark matrix                                      */
    double *Bd;            /* n: reduced: the diagonal of B                                                  */
    hy_element *el;        /* nh (entries with ops == NULL: no element)                                      */
};

// y = M x or K x (which: 0 mass, 1 stiffness) for dense or band storage
static void sys_mv(const beam_sys *S, int which, const double *x, double *y)
{
    const double *A = which ? S->K : S->M;
    size_t n = S->n;
    if (!S->banded) {
        for (size_t i = 0; i < n; i++) {
            double s = 0;
            const double *r = A + i * n;
            for (size_t j = 0; j < n; j++)
                s += r[j] * x[j];
            y[i] = s;
        }
        return;
    }
    size_t kd = S->kd, ld = kd + 1;
    for (size_t i = 0; i < n; i++)
        y[i] = A[kd + i * ld] * x[i];
    for (size_t j = 0; j < n; j++)
        for (size_t i = j > kd ? j - kd : 0; i < j; i++) {
            double aij = A[kd + i - j + j * ld];
            y[i] += aij * x[j];
            y[j] += aij * x[i];
        }
}

// banded only, one pass over the band: ya = M a, yb = M b, yc = M c, yd = K d (the four products of a step)
static void band_mv4(const beam_sys *S, const double *a, const double *b, const double *c, const double *d,
                     double *ya, double *yb, double *yc, double *yd)
{
    size_t n = S->n, kd = S->kd, ld = kd + 1;
    const double *M = S->M, *K = S->K;
    for (size_t j = 0; j < n; j++) {
        const double *mc = M + j * ld + kd - j, *kc = K + j * ld + kd - j;   /* mc[i] = M(i, j), i in band */
        double sa = mc[j] * a[j], sb = mc[j] * b[j], sc = mc[j] * c[j], sd = kc[j] * d[j];
        for (size_t i = j > kd ? j - kd : 0; i < j; i++) {
            double m = mc[i], k = kc[i];
            ya[i] += m * a[j];
            yb[i] += m * b[j];
            yc[i] += m * c[j];
            yd[i] += k * d[j];
            sa += m * a[i];
            sb += m * b[i];
            sc += m * c[i];
            sd += k * d[i];
        }
        ya[j] = sa, yb[j] = sb, yc[j] = sc, yd[j] = sd;
    }
}

static double dot(const double *a, const double *b, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

// B = ck K + cm M (same storage)
static void sys_combine(const beam_sys *S, double ck, double cm, double *B)
{
    size_t len = S->banded ? (S->kd + 1) * S->n : S->n * S->n;
    for (size_t i = 0; i < len; i++)
        B[i] = ck * S->K[i] + cm * S->M[i];
}

// [[a, c'], [c, B]] [th; x] = [rth; rx] by block elimination: x = y1 - th y2 with B y1 = rx, B y2 = c.
// Reduced: B = diag(Bd). Physical: B = B0 (banded Cholesky factor in d->B) and y2 = B0^-1 c precomputed in d->Y + n.
static int block_solve(mech_beam_data *d, double a, const double *c, const double *Bd, double rth, const double *rx,
                       double *th, double *x)
{
    const beam_sys *S = d->S;
    size_t n = S->n;
    double *y1 = d->Y, *y2 = d->Y + n;
    if (!S->banded) {
        for (size_t i = 0; i < n; i++) {
            y1[i] = rx[i] / Bd[i];
            y2[i] = c[i] / Bd[i];
        }
    } else {
        memcpy(y1, rx, n * sizeof *rx);
        lapack_int info = LAPACKE_dpbtrs_work(LAPACK_COL_MAJOR, 'U', (lapack_int)n, (lapack_int)S->kd, 1, d->B,
                                              (lapack_int)S->kd + 1, y1, (lapack_int)n);
        if (info != 0)
            return HY_ENUMERIC;
    }
    double schur = a - dot(c, y2, n);
    if (!(schur > 0))
        return HY_ENUMERIC;
    *th = (rth - dot(c, y1, n)) / schur;
    for (size_t i = 0; i < n; i++)
        x[i] = y1[i] - *th * y2[i];
    return HY_OK;
}

// (state x, v) => hinge jumps, moments (trials) and the generalized hinge force fh; HY_OK or the element's refusal
static int hinges_at(mech_beam_data *d, const double *x, const double *v, double *dth, double *Mh, int *bad,
                     hy_diag *diag)
{
    const mech_beam_params *p = &d->m->p;
    size_t n = d->n;
    memset(d->fh, 0, n * sizeof *d->fh);
    for (int j = 0; j < d->nh; j++) {
        const double *dp = d->S->dphi + (size_t)j * n;
        double th = dot(dp, x + 1, n), rate = dot(dp, v + 1, n), M = p->hinge[j].k * th;
        if (d->en.hinge_law) {
            int rc = beam_hinge_trial(&p->hinge[j], d->el[j].ops ? &d->el[j] : NULL, th, rate, &M, diag);
            if (rc != HY_OK) {
                *bad = j;
                return rc;
            }
        }
        dth[j] = th;
        Mh[j] = M;
        double g = p->hinge[j].k * th - M;   /* Kbar holds k th already: the law replaces it (spec §2) */
        for (size_t i = 0; i < n; i++)
            d->fh[i] += dp[i] * g;
    }
    return HY_OK;
}

// (state x, v) => MFC voltage U = -K [q; q'], clipped
static double control_at(const mech_beam_data *d, const double *x, const double *v)
{
    if (!d->ctl.K)
        return 0;
    size_t n = d->n;
    double U = -dot(d->ctl.K, x + 1, n) - dot(d->ctl.K + n, v + 1, n);
    if (d->ctl.u_max > 0)
        U = U > d->ctl.u_max ? d->ctl.u_max : U < -d->ctl.u_max ? -d->ctl.u_max : U;
    return U;
}

/* (state point xs, vs, forces fh and U at it, external force F at the new time) => the Newmark solution xn, vn, an
 * of the step from the accepted state (x, v, a) with matrices and nonlinear forces taken at the state point.
 * Incremental form (no cancellation of the large a0 M x terms): with w = a2 v_i + a3 a_i,
 *   [[a0 mtt, a0 h'], [a0 h, B]] dx = F + Mt(xs) w - Kt(xs) x_i,   x_{i+1} = x_i + dx. */
static int newmark_solve(mech_beam_data *d, const double *xs, const double *vs, double F, double U)
{
    const beam_sys *S = d->S;
    size_t n = d->n, N = n + 1;
    double thd = vs[0];
    double *rx = d->an + 1;   /* scratch until the accelerations are formed */
    for (size_t i = 0; i < N; i++)
        d->w[i] = d->c1 * d->v[i] + d->c2 * d->a[i];
    if (S->banded) {
        band_mv4(S, xs + 1, vs + 1, d->w + 1, d->x + 1, d->Mq, d->Mv, rx, d->vn + 1);
    } else {
        sys_mv(S, 0, xs + 1, d->Mq);
        sys_mv(S, 0, vs + 1, d->Mv);
        sys_mv(S, 0, d->w + 1, rx);
        sys_mv(S, 1, d->x + 1, d->vn + 1);   /* K q_i (vn as scratch) */
    }
    double mtt = S->J + (d->en.mass_coupling ? dot(xs + 1, d->Mq, n) : 0);
    double kc = d->en.centrifugal ? thd * thd : 0;
    double Fth = (d->en.gyroscopic ? -2 * thd * dot(xs + 1, d->Mv, n) : 0) + (d->s.theta_torque ? d->r_load * F : 0);
    double rth = mtt * d->w[0] + dot(S->h, d->w + 1, n) + Fth;
    for (size_t i = 0; i < n; i++)
        rx[i] += S->h[i] * d->w[0] + S->f_load[i] * F + d->fh[i] + S->b_u[i] * U - d->vn[1 + i];
    if (S->banded) {
        /* B0 = K + a0 M fixed: the centrifugal term of the state point moves to the right-hand side */
        for (size_t i = 0; i < n; i++)
            rx[i] += kc * d->Mq[i];
    } else {
        for (size_t i = 0; i < n; i++) {
            rx[i] += kc * S->M[i * n + i] * d->x[1 + i];
            d->Bd[i] = S->K[i * n + i] + (d->c0 - kc) * S->M[i * n + i];
        }
    }
    int rc = block_solve(d, d->c0 * mtt, d->c, d->Bd, rth, rx, &d->xn[0], d->xn + 1);
    if (rc != HY_OK)
        return rc;
    double dt = d->s.dt;
    for (size_t i = 0; i < N; i++) {
        double dx = d->xn[i];
        d->xn[i] = d->x[i] + dx;
        d->an[i] = d->c0 * dx - d->c1 * d->v[i] - d->c2 * d->a[i];
        d->vn[i] = d->v[i] + dt * (1 - d->s.gamma) * d->a[i] + d->c3 * d->an[i];
    }
    return HY_OK;
}

static void revert_hinges(mech_beam_data *d)
{
    for (int j = 0; j < d->nh; j++)
        if (d->el[j].ops)
            hy_element_revert(&d->el[j]);
}

static int fail_hinge(mech_beam_data *d, int j, const hy_diag *diag, double t, hy_err *err)
{
    char buf[300];
    hy_diag_format(diag, buf, sizeof buf);
    return hy_err_set(err, diag->code ? diag->code : HY_ESTATE, "t = %.9g s (step %ld): hinges[%d]: %s (hint: the "
                      "hinge left its model's valid range; check the model's units or reduce the load)", t,
                      d->step + 1, j, buf);
}

// (max |a - b| over 1 + n) relative to 1 + max |b|
static double rel_change(const double *a, const double *b, size_t N)
{
    double dm = 0, bm = 0;
    for (size_t i = 0; i < N; i++) {
        dm = fmax(dm, fabs(a[i] - b[i]));
        bm = fmax(bm, fabs(b[i]));
    }
    return dm / (1 + bm);
}

// (failure of a step at t) => data back at its accepted state, error filled
static int abandon(mech_beam_data *d, int rc, int bad, const hy_diag *diag, double t, hy_err *err)
{
    revert_hinges(d);
    int dummy;
    hy_diag dd;
    hinges_at(d, d->x, d->v, d->dthn, d->Mhn, &dummy, &dd);   /* the accepted state's hinge force again */
    revert_hinges(d);
    if (bad >= 0)
        return fail_hinge(d, bad, diag, t, err);
    if (rc == HY_ENUMERIC)
        return hy_err_set(err, HY_ENUMERIC, "t = %.9g s (step %ld): the Newmark matrix is not positive definite "
                          "(hint: theta' is so large that th'^2 M outweighs K + M / (beta dt^2); reduce solver.dt)",
                          t, d->step + 1);
    return hy_err_set(err, HY_ENUMERIC, "t = %.9g s (step %ld): the state is not finite (hint: the motion diverged; "
                      "reduce solver.dt or check the hinge laws and the load)", t, d->step + 1);
}

int mech_beam_step(mech_beam_data *d, hy_err *err)
{
    size_t n = d->n, N = n + 1;
    double t1 = (double)(d->step + 1) * d->s.dt, F1 = mech_beam_load_eval(&d->load, t1);
    hy_diag diag;
    int bad = -1;
    /* the lagged pass: matrices and forces of the accepted state (fh, U hold its hinge force and voltage) */
    int rc = newmark_solve(d, d->x, d->v, F1, d->U);
    int it = 1;
    if (rc == HY_OK && d->s.update == MECH_BEAM_ITERATED) {
        for (; it < d->s.max_iter; it++) {
            memcpy(d->xs, d->xn, N * sizeof *d->xs);
            memcpy(d->vs, d->vn, N * sizeof *d->vs);
            if ((rc = hinges_at(d, d->xs, d->vs, d->dthn, d->Mhn, &bad, &diag)) != HY_OK)
                break;
            if ((rc = newmark_solve(d, d->xs, d->vs, F1, control_at(d, d->xs, d->vs))) != HY_OK)
                break;
            if (rel_change(d->xn, d->xs, N) <= d->s.tol && rel_change(d->vn, d->vs, N) <= d->s.tol)
                break;
        }
        if (rc == HY_OK && it >= d->s.max_iter) {
            int dummy;
            revert_hinges(d);
            hinges_at(d, d->x, d->v, d->dthn, d->Mhn, &dummy, &diag);   /* the accepted state's hinge force */
            revert_hinges(d);
            return hy_err_set(err, HY_ENUMERIC, "t = %.9g s (step %ld): the iterated update did not converge in %d "
                              "passes (hint: raise solver.tol or solver.max_iter, or reduce solver.dt)", t1,
                              d->step + 1, d->s.max_iter);
        }
    }
    for (size_t i = 0; rc == HY_OK && i < N; i++)
        if (!isfinite(d->xn[i]) || !isfinite(d->vn[i]))
            rc = -1;
    /* the new state's hinge moments (trials), committed with the step */
    if (rc == HY_OK)
        rc = hinges_at(d, d->xn, d->vn, d->dthn, d->Mhn, &bad, &diag);
    if (rc != HY_OK)
        return abandon(d, rc, bad, &diag, t1, err);
    for (int j = 0; j < d->nh; j++)
        if (d->el[j].ops)
            hy_element_commit(&d->el[j]);
    double Un = control_at(d, d->xn, d->vn);
    /* work by the trapezoid rule (exact for the average-acceleration scheme on the linear model) */
    for (int j = 0; j < d->nh; j++)
        d->W_hinge += 0.5 * (d->Mh[j] + d->Mhn[j]) * (d->dthn[j] - d->dth[j]);
    double dF = 0, dU = 0;
    for (size_t i = 0; i < n; i++) {
        double dq = d->xn[1 + i] - d->x[1 + i];
        dF += d->S->f_load[i] * dq;
        dU += d->S->b_u[i] * dq;
    }
    d->W_ext += 0.5 * (d->F + F1) * (dF + (d->s.theta_torque ? d->r_load * (d->xn[0] - d->x[0]) : 0)) +
                0.5 * (d->U + Un) * dU;
    double *tmp;
    tmp = d->x, d->x = d->xn, d->xn = tmp;
    tmp = d->v, d->v = d->vn, d->vn = tmp;
    tmp = d->a, d->a = d->an, d->an = tmp;
    tmp = d->dth, d->dth = d->dthn, d->dthn = tmp;
    tmp = d->Mh, d->Mh = d->Mhn, d->Mhn = tmp;
    d->U = Un;
    d->F = F1;
    d->step++;
    d->t = t1;
    d->iterations = it;
    return HY_OK;
}

void mech_beam_data_free(mech_beam_data *d)
{
    if (!d)
        return;
    for (int j = 0; j < d->nh; j++)
        if (d->el[j].ops)
            hy_element_free(&d->el[j]);
    free(d);
}

int mech_beam_data_new(const mech_beam_model *m, const mech_beam_solver *s, const mech_beam_load *load,
                       const mech_beam_control *ctl, const mech_beam_init *init, const mech_beam_enable *en,
                       mech_beam_data **out, hy_err *err)
{
    *out = NULL;
    if (!(s->dt > 0 && isfinite(s->dt)) || !(s->duration >= 0 && isfinite(s->duration)))
        return hy_err_set(err, HY_EARG, "solver.dt = %g, solver.duration = %g: expected dt > 0 and duration >= 0",
                          s->dt, s->duration);
    if (!(s->beta > 0 && s->beta <= 0.5 && s->gamma >= 0.5 && s->gamma <= 1 && isfinite(s->beta)))
        return hy_err_set(err, HY_EARG, "solver.beta = %g, solver.gamma = %g: expected 0 < beta <= 1/2 and "
                          "1/2 <= gamma <= 1", s->beta, s->gamma);
    if (s->update == MECH_BEAM_ITERATED && !(s->tol > 0 && s->max_iter >= 2))
        return hy_err_set(err, HY_EARG, "solver.tol = %g, solver.max_iter = %d: expected tol > 0 and max_iter >= 2",
                          s->tol, s->max_iter);
    if (ctl && ctl->K && s->physical)
        return hy_err_set(err, HY_EARG, "control: the feedback acts on modal coordinates; it needs "
                          "solver.coordinates = \"modal\"");
    const beam_sys *S = s->physical ? &m->phys : &m->red;
    size_t n = S->n, N = n + 1, nh = (size_t)m->p.n_hinges;
    size_t blen = S->banded ? (S->kd + 1) * n : n * n;
    size_t nd = 9 * N + 4 * nh + 7 * n + blen;
    size_t bytes = sizeof(mech_beam_data) + nh * sizeof(hy_element) + nd * sizeof(double);
    mech_beam_data *d = calloc(1, bytes);
    if (!d)
        return hy_err_set(err, HY_ENOMEM, "beam data: out of memory");
    d->el = (hy_element *)(d + 1);
    double *p = (double *)(d->el + nh);
    d->x = p, p += N;
    d->v = p, p += N;
    d->a = p, p += N;
    d->xn = p, p += N;
    d->vn = p, p += N;
    d->an = p, p += N;
    d->xs = p, p += N;
    d->vs = p, p += N;
    d->w = p, p += N;
    d->dth = p, p += nh;
    d->Mh = p, p += nh;
    d->dthn = p, p += nh;
    d->Mhn = p, p += nh;
    d->fh = p, p += n;
    d->Mq = p, p += n;
    d->Mv = p, p += n;
    d->c = p, p += n;
    d->Bd = p, p += n;
    d->Y = p, p += 2 * n;
    d->B = p;
    d->m = m;
    d->S = S;
    d->s = *s;
    mech_beam_load_default(&d->load);
    if (load)
        d->load = *load;
    if (ctl)
        d->ctl = *ctl;
    d->en = en ? *en : (mech_beam_enable){1, 1, 1, 1};
    if (s->linear)
        d->en.gyroscopic = d->en.centrifugal = d->en.mass_coupling = 0;
    d->n = n;
    d->nh = (int)nh;
    d->c0 = 1 / (s->beta * s->dt * s->dt);
    d->c1 = 1 / (s->beta * s->dt);
    d->c2 = 1 / (2 * s->beta) - 1;
    d->c3 = s->dt * s->gamma;
    d->r_load = m->p.r0 + m->p.load_position;
    int rc = HY_OK;
    for (size_t j = 0; j < nh && rc == HY_OK; j++) {
        const mech_beam_hinge *h = &m->p.hinge[j];
        if (h->law == MECH_BEAM_MODEL || h->law == MECH_BEAM_DEADZONE_MODEL)
            rc = hy_model_element(h->model, &d->el[j], err);
    }
    if (rc != HY_OK) {
        mech_beam_data_free(d);
        return rc;
    }
    if (init) {
        d->x[0] = init->theta;
        d->v[0] = init->theta_dot;
        if (init->q)
            memcpy(d->x + 1, init->q, n * sizeof(double));
        if (init->q_dot)
            memcpy(d->v + 1, init->q_dot, n * sizeof(double));
    }
    /* initial hinge state and acceleration (eq. 17): Mt(0) a = F(0) - Kt(0) x - C x' */
    int bad = -1;
    hy_diag diag;
    if ((rc = hinges_at(d, d->x, d->v, d->dth, d->Mh, &bad, &diag)) != HY_OK) {
        rc = fail_hinge(d, bad, &diag, 0, err);
        mech_beam_data_free(d);
        return rc;
    }
    for (size_t j = 0; j < nh; j++)
        if (d->el[j].ops)
            hy_element_commit(&d->el[j]);
    d->F = mech_beam_load_eval(&d->load, 0);
    d->U = control_at(d, d->x, d->v);
    double thd = d->v[0];
    sys_mv(S, 0, d->x + 1, d->Mq);
    sys_mv(S, 0, d->v + 1, d->Mv);
    double mtt = S->J + (d->en.mass_coupling ? dot(d->x + 1, d->Mq, n) : 0);
    double kc = d->en.centrifugal ? thd * thd : 0;
    double rth = (d->en.gyroscopic ? -2 * thd * dot(d->x + 1, d->Mv, n) : 0) +
                 (s->theta_torque ? d->r_load * d->F : 0);
    sys_mv(S, 1, d->x + 1, d->an + 1);
    for (size_t i = 0; i < n; i++)
        d->an[1 + i] = S->f_load[i] * d->F + d->fh[i] + S->b_u[i] * d->U - d->an[1 + i] + kc * d->Mq[i];
    if (S->banded) {
        sys_combine(S, 0.0, 1.0, d->B);   /* the mass matrix, factored once for the initial acceleration */
        memcpy(d->Y, d->an + 1, n * sizeof(double));
        memcpy(d->Y + n, S->h, n * sizeof(double));
        lapack_int info = LAPACKE_dpbsv_work(LAPACK_COL_MAJOR, 'U', (lapack_int)n, (lapack_int)S->kd, 2, d->B,
                                             (lapack_int)S->kd + 1, d->Y, (lapack_int)n);
        double schur = mtt - dot(S->h, d->Y + n, n);
        rc = info == 0 && schur > 0 ? HY_OK : HY_ENUMERIC;
        if (rc == HY_OK) {
            d->a[0] = (rth - dot(S->h, d->Y, n)) / schur;
            for (size_t i = 0; i < n; i++)
                d->a[1 + i] = d->Y[i] - d->a[0] * d->Y[n + i];
            /* B0 = K + a0 M and y2 = B0^-1 (a0 h) for every step */
            sys_combine(S, 1.0, d->c0, d->B);
            for (size_t i = 0; i < n; i++)
                d->Y[n + i] = d->c0 * S->h[i];
            info = LAPACKE_dpbsv_work(LAPACK_COL_MAJOR, 'U', (lapack_int)n, (lapack_int)S->kd, 1, d->B,
                                      (lapack_int)S->kd + 1, d->Y + n, (lapack_int)n);
            rc = info == 0 ? HY_OK : HY_ENUMERIC;
        }
    } else {
        for (size_t i = 0; i < n; i++)
            d->Bd[i] = S->M[i * n + i];
        rc = block_solve(d, mtt, S->h, d->Bd, rth, d->an + 1, &d->a[0], d->a + 1);
    }
    for (size_t i = 0; i < n; i++)
        d->c[i] = d->c0 * S->h[i];
    if (rc != HY_OK) {
        mech_beam_data_free(d);
        return hy_err_set(err, HY_ENUMERIC, "beam data: the mass or Newmark matrix of the initial state is not "
                          "positive definite");
    }
    *out = d;
    return HY_OK;
}

void mech_beam_observe(const mech_beam_data *d, mech_beam_obs *o)
{
    *o = (mech_beam_obs){.t = d->t, .w_tip = dot(d->S->tip, d->x + 1, d->n), .theta = d->x[0], .theta_dot = d->v[0],
                         .U = d->U, .F = d->F, .W_hinge = d->W_hinge, .W_ext = d->W_ext, .dtheta = d->dth, .M = d->Mh,
                         .iterations = d->iterations, .q = d->x + 1, .nq = d->n};
}

void mech_beam_observe_energy(const mech_beam_data *d, mech_beam_obs *o)
{
    const beam_sys *S = d->S;
    size_t n = d->n;
    const double *q = d->x + 1, *qd = d->v + 1;
    double thd = d->v[0], qMq = 0, qdMqd = 0, qKq = 0, hq = dot(S->h, qd, n);
    /* Mq, Mv are step scratch: recompute here without touching the data (the observer is const) */
    for (size_t i = 0; i < n; i++) {
        double mq = 0, mv = 0, kq = 0;
        if (!S->banded) {
            for (size_t j = 0; j < n; j++) {
                mq += S->M[i * n + j] * q[j];
                mv += S->M[i * n + j] * qd[j];
                kq += S->K[i * n + j] * q[j];
            }
        } else {
            size_t kd = S->kd, ld = kd + 1, lo = i > kd ? i - kd : 0, hi = i + kd < n ? i + kd : n - 1;
            for (size_t j = lo; j <= hi; j++) {
                size_t r = i < j ? i : j, c = i < j ? j : i;
                double mij = S->M[kd + r - c + c * ld], kij = S->K[kd + r - c + c * ld];
                mq += mij * q[j];
                mv += mij * qd[j];
                kq += kij * q[j];
            }
        }
        qMq += q[i] * mq;
        qdMqd += qd[i] * mv;
        qKq += q[i] * kq;
    }
    double mtt = S->J + (d->en.mass_coupling ? qMq : 0), Vh = 0;
    for (int j = 0; j < d->nh; j++)
        Vh += 0.5 * d->m->p.hinge[j].k * d->dth[j] * d->dth[j];
    mech_beam_observe(d, o);
    o->h = mtt * thd + hq;
    o->T = 0.5 * (mtt * thd * thd + qdMqd) + thd * hq;
    o->V_beam = 0.5 * qKq - Vh;
    o->E_lin = 0.5 * (S->J * thd * thd + qdMqd) + thd * hq + 0.5 * qKq;
}

long mech_beam_steps(const mech_beam_data *d)
{
    return d->step;
}

const double *mech_beam_state(const mech_beam_data *d, const double **rate, size_t *n)
{
    if (rate)
        *rate = d->v;
    if (n)
        *n = d->n;
    return d->x;
}

int mech_beam_step_n(mech_beam_data *d, long n, long *done, hy_err *err)
{
    long i = 0;
    int rc = HY_OK;
    for (; i < n; i++)
        if ((rc = mech_beam_step(d, err)) != HY_OK)
            break;
    if (done)
        *done = i;
    return rc;
}

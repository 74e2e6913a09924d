/* The constrained fit of one side: forward (F) and backward (B) branches together, under the assumptions of
 * spec 000 §2 (see hyst/pwlfit.h for the layout).
 *
 * Equalities are built into the parametrisation (elimination): point 1 is (b, 0) on both branches, point 2 and the
 * last point are the same parameters on F and B, and for the constant kind the last B point before the end is
 * vB = vF(x_n) - k (x_n - z), so the last B segment has slope k = k_beyond exactly (spec 000 §2 items 3-5).
 * Inequalities are kept by an active-set loop on the small compressed system: every working slope <= k_max
 * (constant kind: k_beyond is the largest slope, item 3) and B never above F (else the transition line of slope
 * k_max need not meet the other branch and a closed cycle could generate energy; the model rejects such tables).
 * An active constraint is solved as an equality through the KKT system (hy_solve_lu); a constraint whose
 * multiplier turns negative is released.
 *
 * Breakpoints: dynamic programming over candidate abscissae for the relaxed problem (common anchored first
 * segment, then free lines on F and B), two starts (x_n at the end of the data, or inside it with the beyond
 * segment in the data), then variable projection with relocation moves.
 *
 * F has nF points, B has nB points (the model allows different counts). Knot vector (nF + nB - 3 entries):
 * kn[0] = b; kn[i] = x of F point i, i = 1..nF-1 (kn[1] = x_2 shared, kn[nF-1] = x_n shared);
 * kn[nF + j - 2] = x of B point j, j = 2..nB-2. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/linalg.h"
#include "hyst/pwlfit.h"

#define MAXP HY_PWLFIT_MAX_POINTS
#define MAXC (4 * HY_PWLFIT_MAX_POINTS)

typedef struct side_ctx {
    const hy_pwlfit_data *F, *B;
    const hy_pwlfit_side_spec *spec;
    int    nF, nB;       /* points on F and on B                                                            */
    int    constant;     /* constant kind                                                                   */
    double amp;          /* largest F abscissa: upper bound of x_n                                          */
    double Pscale;       /* force scale for tolerances                                                      */
    double xtol;         /* smallest knot spacing                                                           */
    hy_pwlfit_lsq ls;
    /* parametrisation for the current knots */
    int    p;
    double xF[MAXP], xB[MAXP];
    hy_pwlfit_aff vF[MAXP], vB[MAXP], k;
    /* constraints c . theta <= d */
    int    nc;
    double C[MAXC][HY_PWLFIT_MAX_PARAMS], d[MAXC];
    int    ckind[MAXC];  /* 0 slope <= k, 1 B <= F                                                          */
    int    act[MAXC], nact;
    double theta[HY_PWLFIT_MAX_PARAMS];
    double ls_x_normal[HY_PWLFIT_MAX_PARAMS];
    int    final;        /* 1: unconstrained solves by QR (the reported table), 0: normal equations (search)   */
    double *kkt;         /* (p + MAXC)^2 work for the KKT matrix                                            */
    double *rhs, *sol;
} side_ctx;

static hy_pwlfit_aff aff_const(double c)
{
    hy_pwlfit_aff a;
    memset(&a, 0, sizeof a);
    a.c = c;
    return a;
}

static hy_pwlfit_aff aff_param(int j)
{
    hy_pwlfit_aff a = aff_const(0.0);
    a.n = 1;
    a.idx[0] = j;
    a.w[0] = 1.0;
    return a;
}

// (x, alpha, y) => x + alpha y, merging equal parameters (at most 4 distinct; always true here, see below)
static hy_pwlfit_aff aff_axpy(const hy_pwlfit_aff *x, double alpha, const hy_pwlfit_aff *y)
{
    hy_pwlfit_aff r = *x;
    r.c += alpha * y->c;
    for (int j = 0; j < y->n; j++) {
        int k = 0;
        while (k < r.n && r.idx[k] != y->idx[j])
            k++;
        if (k == r.n) {
            if (r.n == 4)
                continue;   /* cannot happen: a value depends on one ordinate and k; a combination of two on 3 */
            r.idx[r.n] = y->idx[j];
            r.w[r.n++] = 0.0;
        }
        r.w[k] += alpha * y->w[j];
    }
    return r;
}

static hy_pwlfit_aff aff_scale(const hy_pwlfit_aff *x, double s)
{
    hy_pwlfit_aff r = *x;
    r.c *= s;
    for (int j = 0; j < r.n; j++)
        r.w[j] *= s;
    return r;
}

// (knot vector) => abscissae of the F and B points; 0 when they are not strictly increasing
static int set_abscissae(side_ctx *c, const double *kn)
{
    int nF = c->nF, nB = c->nB;
    for (int i = 0; i < nF; i++)
        c->xF[i] = kn[i];
    c->xB[0] = kn[0];
    c->xB[1] = kn[1];
    for (int j = 2; j <= nB - 2; j++)
        c->xB[j] = kn[nF + j - 2];
    c->xB[nB - 1] = kn[nF - 1];
    for (int i = 1; i < nF; i++)
        if (!(c->xF[i] > c->xF[i - 1]))
            return 0;
    for (int j = 1; j < nB; j++)
        if (!(c->xB[j] > c->xB[j - 1]))
            return 0;
    return 1;
}

// (abscissae) => affine forms of every point's force and of k (the equalities of spec 000 §2 built in)
static void parametrise(side_ctx *c)
{
    int nF = c->nF, nB = c->nB, p = 0;
    c->k = c->constant ? aff_param(p++) : aff_const(0.0);
    c->vF[0] = aff_const(0.0);
    for (int i = 1; i < nF; i++)
        c->vF[i] = aff_param(p++);
    c->vB[0] = c->vF[0];
    c->vB[1] = c->vF[1];
    c->vB[nB - 1] = c->vF[nF - 1];
    int last_free = c->constant ? nB - 3 : nB - 2;
    for (int j = 2; j <= last_free; j++)
        c->vB[j] = aff_param(p++);
    if (c->constant) /* last B segment at slope k through the common last point (spec 000 §2 item 5) */
        c->vB[nB - 2] = aff_axpy(&c->vF[nF - 1], -(c->xB[nB - 1] - c->xB[nB - 2]), &c->k);
    c->p = p;
}

static hy_pwlfit_aff seg_slope(const double *x, const hy_pwlfit_aff *v, int i)
{
    hy_pwlfit_aff a = aff_scale(&v[i], -1.0);
    a = aff_axpy(&a, 1.0, &v[i + 1]);
    return aff_scale(&a, 1.0 / (x[i + 1] - x[i]));
}

// (branch points x[0..n-1]) => the branch's pieces: zero force below b, the segments, the beyond line
static void add_branch(side_ctx *c, const hy_pwlfit_data *d, const double *x, const hy_pwlfit_aff *v, int n)
{
    hy_pwlfit_aff zero = aff_const(0.0);
    hy_pwlfit_lsq_piece(&c->ls, d, -INFINITY, x[0], x[0], &zero, &zero);
    for (int i = 0; i + 1 < n; i++) {
        hy_pwlfit_aff s = seg_slope(x, v, i);
        hy_pwlfit_lsq_piece(&c->ls, d, x[i], x[i + 1], x[i], &v[i], &s);
    }
    hy_pwlfit_lsq_piece(&c->ls, d, x[n - 1], INFINITY, x[n - 1], &v[n - 1], &c->k);
}

// (constraint row, affine form, weight) => row += w * form (its constant goes to the right-hand side)
static void row_add(double *row, double *d, const hy_pwlfit_aff *a, double w)
{
    for (int j = 0; j < a->n; j++)
        row[a->idx[j]] += w * a->w[j];
    *d -= w * a->c;
}

static double *new_row(side_ctx *c, int kind)
{
    if (c->nc >= MAXC)
        return NULL;
    double *row = c->C[c->nc];
    for (int j = 0; j < c->p; j++)
        row[j] = 0.0;
    c->d[c->nc] = 0.0;
    c->ckind[c->nc] = kind;
    return row;
}

// (abscissae x[0..n-1], point values v, u) => row += w * (interpolated value at u)
static void row_interp(double *row, double *d, const double *x, const hy_pwlfit_aff *v, int n, double u, double w)
{
    int i = 0;
    while (i < n - 2 && u >= x[i + 1])
        i++;
    double lam = (u - x[i]) / (x[i + 1] - x[i]);
    row_add(row, d, &v[i], w * (1.0 - lam));
    row_add(row, d, &v[i + 1], w * lam);
}

// (parametrisation) => inequality constraints c . theta <= d
static void build_constraints(side_ctx *c)
{
    int nF = c->nF, nB = c->nB;
    c->nc = 0;
    double *row;
    if (c->constant) {   /* every working slope <= k (spec 000 §2 item 3: the beyond slope is the largest) */
        for (int w = 0; w < 2; w++) {
            const double *x = w ? c->xB : c->xF;
            const hy_pwlfit_aff *v = w ? c->vB : c->vF;
            int n = w ? nB : nF;
            for (int i = w; i + 1 < n - w; i++) {   /* B: not the common first nor the tied last segment */
                if (!(row = new_row(c, 0)))
                    return;
                double inv = 1.0 / (x[i + 1] - x[i]);
                row_add(row, &c->d[c->nc], &v[i + 1], inv);
                row_add(row, &c->d[c->nc], &v[i], -inv);
                row_add(row, &c->d[c->nc], &c->k, -1.0);
                c->nc++;
            }
        }
    }
    /* B on or below F at every point of either branch */
    for (int i = 2; i + 1 < nF; i++) {
        if (!(row = new_row(c, 1)))
            return;
        row_interp(row, &c->d[c->nc], c->xB, c->vB, nB, c->xF[i], 1.0);
        row_add(row, &c->d[c->nc], &c->vF[i], -1.0);
        c->nc++;
    }
    for (int j = 2; j + 1 < nB; j++) {
        if (!(row = new_row(c, 1)))
            return;
        row_add(row, &c->d[c->nc], &c->vB[j], 1.0);
        row_interp(row, &c->d[c->nc], c->xF, c->vF, nF, c->xB[j], -1.0);
        c->nc++;
    }
}

static double violation(const side_ctx *c, int i, const double *th, double kscale)
{
    double v = -c->d[i];
    for (int j = 0; j < c->p; j++)
        v += c->C[i][j] * th[j];
    /* scale: slopes against |k|, forces against the force scale */
    double s = c->ckind[i] == 0 ? kscale : c->Pscale;
    return v / (s > 0 ? s : 1.0);
}

// (compressed system, active constraints) => theta by the KKT equations; squared error, NAN when singular
static double solve_kkt(side_ctx *c)
{
    int p = c->p, na = c->nact, N = p + na;
    double *K = c->kkt, *b = c->rhs;
    for (int i = 0; i < N * N; i++)
        K[i] = 0.0;
    for (int i = 0; i < p; i++) {   /* normal equations left by hy_pwlfit_lsq_solve_normal */
        b[i] = c->ls.g[i];
        for (int j = 0; j < p; j++)
            K[i * N + j] = c->ls.H[i * p + j];
    }
    for (int a = 0; a < na; a++) {
        const double *row = c->C[c->act[a]];
        for (int j = 0; j < p; j++)
            K[(p + a) * N + j] = K[j * N + p + a] = row[j];
        b[p + a] = c->d[c->act[a]];
    }
    int lu = hy_solve_lu(K, (size_t)N, b, c->sol, NULL);
    c->ls.oom |= lu == HY_ENOMEM;
    if (lu != HY_OK)
        return NAN;
    for (int j = 0; j < p; j++)
        c->theta[j] = c->sol[j];
    return hy_pwlfit_lsq_error(&c->ls, c->theta);
}

// (active set) => theta and squared error (unconstrained QR solve when nothing is active)
static double solve_active(side_ctx *c)
{
    if (c->nact > 0)
        return solve_kkt(c);
    double e = c->final ? hy_pwlfit_lsq_solve(&c->ls) : hy_pwlfit_lsq_error(&c->ls, c->ls_x_normal);
    memcpy(c->theta, c->final ? c->ls.x : c->ls_x_normal, (size_t)c->p * sizeof *c->theta);
    return e;
}

// (theta) => index of the most violated inactive constraint, -1 when all hold (threshold 1e-13 relative)
static int most_violated(const side_ctx *c)
{
    int add = -1;
    double vmax = 1e-13;
    char on[MAXC];
    memset(on, 0, (size_t)c->nc);
    for (int a = 0; a < c->nact; a++)
        on[c->act[a]] = 1;
    double kscale = c->constant ? fabs(hy_pwlfit_aff_eval(&c->k, c->theta)) : 1.0;
    for (int i = 0; i < c->nc; i++) {
        if (on[i])
            continue;
        double v = violation(c, i, c->theta, kscale);
        if (v > vmax) {
            vmax = v;
            add = i;
        }
    }
    return add;
}

/* (knots) => squared error of the constrained least-squares fit for these breakpoints; theta and the active set
 * left in c. Phase 1 adds the most violated constraint until all hold (each solve keeps the active ones as
 * equalities); phase 2 releases a constraint whose multiplier is negative when the fit stays feasible without
 * it. Every accepted state is feasible, so the breakpoint search only ever sees admissible tables. */
static double side_cost(void *vc, const double *kn)
{
    side_ctx *c = vc;
    if (!set_abscissae(c, kn))
        return INFINITY;
    parametrise(c);
    hy_pwlfit_lsq_reset(&c->ls, c->p);
    add_branch(c, c->F, c->xF, c->vF, c->nF);
    add_branch(c, c->B, c->xB, c->vB, c->nB);
    build_constraints(c);
    c->nact = 0;
    /* normal equations once per breakpoint set: the unconstrained search solution and the KKT blocks */
    if (isnan(hy_pwlfit_lsq_solve_normal(&c->ls)))
        return INFINITY;
    memcpy(c->ls_x_normal, c->ls.x, (size_t)c->p * sizeof *c->ls_x_normal);
    double e = solve_active(c);
    if (isnan(e))
        return INFINITY;
    for (int it = 0; it < c->nc; it++) {
        int add = most_violated(c);
        if (add < 0)
            break;
        c->act[c->nact++] = add;
        double e1 = solve_kkt(c);
        if (isnan(e1)) {   /* dependent on the active set: cannot be enforced separately */
            c->nact--;
            e = solve_active(c);
            return INFINITY;
        }
        e = e1;
    }
    if (most_violated(c) >= 0)
        return INFINITY;
    for (int it = 0; it < c->nc && c->nact > 0; it++) {
        int worst = -1;
        double lam_min = -1e-12;
        for (int a = 0; a < c->nact; a++)
            if (c->sol[c->p + a] < lam_min) {
                lam_min = c->sol[c->p + a];
                worst = a;
            }
        if (worst < 0)
            break;
        int saved = c->act[worst];
        c->act[worst] = c->act[--c->nact];
        double e1 = solve_active(c);
        if (!isnan(e1) && most_violated(c) < 0 && e1 <= e) {
            e = e1;
            continue;
        }
        c->act[c->nact++] = saved;   /* restore the last feasible state and stop */
        e = solve_active(c);
        break;
    }
    return isnan(e) ? INFINITY : e;
}

static void side_bracket(void *vc, const double *kn, int j, double *lo, double *hi)
{
    side_ctx *c = vc;
    int nF = c->nF, nB = c->nB;
    /* abscissa of F point i and of B point i under this knot vector */
#define XF(i) (kn[(i)])
#define XB(i) ((i) == 0 ? kn[0] : (i) == 1 ? kn[1] : (i) == nB - 1 ? kn[nF - 1] : kn[nF + (i) - 2])
    double t = c->xtol;
    if (j == 0) {                       /* backlash */
        *lo = 0.0;
        *hi = kn[1] - t;
    } else if (j == 1) {                /* x_2, common to F and B */
        *lo = kn[0] + t;
        *hi = fmin(XF(2), XB(2)) - t;
    } else if (j < nF - 1) {            /* F interior */
        *lo = XF(j - 1) + t;
        *hi = XF(j + 1) - t;
    } else if (j == nF - 1) {           /* x_n, common last point */
        *lo = fmax(XF(nF - 2), XB(nB - 2)) + t;
        *hi = c->amp + 2 * t;
    } else {                            /* B interior */
        int i = j - nF + 2;
        *lo = XB(i - 1) + t;
        *hi = XB(i + 1) - t;
    }
#undef XF
#undef XB
}

static void side_group(void *vc, const double *kn, int g, double *lo, double *hi)
{
    side_ctx *c = vc;
    (void)g;
    *lo = kn[1] + c->xtol;
    *hi = kn[c->nF - 1] - c->xtol;
}

static int ctx_init(side_ctx *c, const hy_pwlfit_data *F, const hy_pwlfit_data *B, const hy_pwlfit_side_spec *spec,
                    hy_err *err)
{
    memset(c, 0, sizeof *c);
    c->F = F;
    c->B = B;
    c->spec = spec;
    c->nF = spec->segments_F + 1;
    c->nB = spec->segments_B + 1;
    c->constant = spec->kind == HY_PWL_CONSTANT;
    c->amp = F->n ? F->u[F->n - 1] : 0.0;
    double umax = c->amp > (B->n ? B->u[B->n - 1] : 0.0) ? c->amp : B->u[B->n - 1];
    c->xtol = 1e-9 * (umax > 0 ? umax : 1.0);
    double Pmax = 0;
    for (size_t i = 0; i < F->n; i++)
        Pmax = fabs(F->P[i]) > Pmax ? fabs(F->P[i]) : Pmax;
    for (size_t i = 0; i < B->n; i++)
        Pmax = fabs(B->P[i]) > Pmax ? fabs(B->P[i]) : Pmax;
    c->Pscale = Pmax > 0 ? Pmax : 1.0;
    int N = HY_PWLFIT_MAX_PARAMS + MAXC;
    c->kkt = malloc((size_t)N * (size_t)N * sizeof *c->kkt);
    c->rhs = malloc((size_t)N * sizeof *c->rhs);
    c->sol = malloc((size_t)N * sizeof *c->sol);
    if (!c->kkt || !c->rhs || !c->sol) {
        free(c->kkt);
        free(c->rhs);
        free(c->sol);
        return hy_err_set(err, HY_ENOMEM, "piecewise-linear fit: out of memory");
    }
    int rc = hy_pwlfit_lsq_init(&c->ls, 2 * (c->nF + c->nB + 4), HY_PWLFIT_MAX_PARAMS, err);
    if (rc != HY_OK) { /* on failure nothing stays allocated: callers free only c itself */
        free(c->kkt);
        free(c->rhs);
        free(c->sol);
    }
    return rc;
}

static void ctx_free(side_ctx *c)
{
    hy_pwlfit_lsq_free(&c->ls);
    free(c->kkt);
    free(c->rhs);
    free(c->sol);
}

static int check_spec(const hy_pwlfit_data *F, const hy_pwlfit_data *B, const hy_pwlfit_side_spec *s, hy_err *err)
{
    int minB = s->kind == HY_PWL_CONSTANT ? 3 : 2;
    if (s->segments_F < 2 || s->segments_B < minB || s->segments_F > HY_PWLFIT_MAX_SEGMENTS ||
        s->segments_B > HY_PWLFIT_MAX_SEGMENTS)
        return hy_err_set(err, HY_EARG,
                          "piecewise-linear fit: %d forward and %d backward segments asked; a loop needs at least 2 "
                          "forward segments (the common first one and one more) and %d backward ones%s, and this "
                          "build allows at most %d",
                          s->segments_F, s->segments_B, minB,
                          minB == 3 ? " (the last one runs at k_max, spec 000 §2 assumption 5)" : "",
                          HY_PWLFIT_MAX_SEGMENTS);
    size_t needF = (size_t)(3 * s->segments_F + 3), needB = (size_t)(3 * s->segments_B + 3);
    if (F->n < needF || B->n < needB)
        return hy_err_set(err, HY_EDATA,
                          "piecewise-linear fit: too few samples for %d forward and %d backward segments (forward %zu, "
                          "backward %zu; need at least %zu and %zu)",
                          s->segments_F, s->segments_B, F->n, B->n, needF, needB);
    return HY_OK;
}

// (side context, knots) => result filled from the solution at these knots
static void fill_result(side_ctx *c, const double *kn, double sse, hy_pwlfit_side *out)
{
    int nF = c->nF, nB = c->nB;
    out->nF = nF;
    out->nB = nB;
    for (int i = 0; i < nF; i++) {
        out->uF[i] = c->xF[i];
        out->PF[i] = hy_pwlfit_aff_eval(&c->vF[i], c->theta);
    }
    for (int j = 0; j < nB; j++) {
        out->uB[j] = c->xB[j];
        out->PB[j] = hy_pwlfit_aff_eval(&c->vB[j], c->theta);
    }
    /* the shared points are the same parameters; make them bit-identical for the model's exact checks */
    out->PF[0] = out->PB[0] = 0.0;
    out->PB[1] = out->PF[1];
    out->PB[nB - 1] = out->PF[nF - 1];
    out->k_beyond = c->constant ? hy_pwlfit_aff_eval(&c->k, c->theta) : 0.0;
    double kmax = -INFINITY;
    for (int i = 0; i + 1 < nF; i++)
        kmax = fmax(kmax, (out->PF[i + 1] - out->PF[i]) / (out->uF[i + 1] - out->uF[i]));
    for (int j = 0; j + 1 < nB; j++)
        kmax = fmax(kmax, (out->PB[j + 1] - out->PB[j]) / (out->uB[j + 1] - out->uB[j]));
    out->k_max = c->constant ? out->k_beyond : kmax;
    out->ties = out->touches = 0;
    for (int a = 0; a < c->nact; a++) {
        out->ties += c->ckind[c->act[a]] == 0;
        out->touches += c->ckind[c->act[a]] == 1;
    }
    out->sse = sse;
    memcpy(out->knots, kn, (size_t)(nF + nB - 3) * sizeof *kn);
}

// (F, B, spec, knots) => ordinates for fixed knots
int hy_pwlfit_side_solve(const hy_pwlfit_data *F, const hy_pwlfit_data *B, const hy_pwlfit_side_spec *spec,
                         const double *knots, hy_pwlfit_side *out, hy_err *err)
{
    memset(out, 0, sizeof *out);
    int rc = check_spec(F, B, spec, err);
    if (rc)
        return rc;
    side_ctx *c = malloc(sizeof *c);
    if (!c)
        return hy_err_set(err, HY_ENOMEM, "piecewise-linear fit: out of memory");
    rc = ctx_init(c, F, B, spec, err);
    if (rc) {
        free(c);
        return rc;
    }
    c->final = 1;
    double e = side_cost(c, knots);
    if (c->ls.oom) {
        rc = hy_err_set(err, HY_ENOMEM, "piecewise-linear fit: out of memory");
    } else if (!isfinite(e)) {
        rc = hy_err_set(err, HY_ENUMERIC, "piecewise-linear fit: no solution for these breakpoints");
    } else {
        fill_result(c, knots, e, out);
        hy_pwlfit_side_stats(out, F, B);
    }
    ctx_free(c);
    free(c);
    return rc;
}

// (F or B data, samples [i0, i1), line through (a, 0)) => squared error of the best anchored line
static void anchored_sums(const hy_pwlfit_data *d, size_t i0, size_t i1, double a, double *Suu, double *SuP,
                          double *SPP, double *cnt)
{
    hy_pwlfit_stats s;
    hy_pwlfit_data_stats(d, i0, i1, &s);
    double du = s.um - a;
    *Suu += s.suu + s.n * du * du;
    *SuP += s.suP + s.n * s.Pm * du;
    *SPP += s.sPP + s.n * s.Pm * s.Pm;
    *cnt += s.n;
}

/* (context, knots, depth) => knots refined by variable projection (sweeps and evaluations counted in out); the
 * error. depth 2: scans, quasi-Newton, polish, relocations; 1: quasi-Newton and a short polish (a start
 * compared with another, or a refit from a fitted neighbour); 0: quasi-Newton only. */
static double refine_from(side_ctx *c, double *kn, hy_pwlfit_side *out, int depth)
{
    const hy_pwlfit_side_spec *spec = c->spec;
    int nF = c->nF, K = c->nF + c->nB - 3;
    int is_free[HY_PWLFIT_MAX_KNOTS], group[HY_PWLFIT_MAX_KNOTS];
    for (int j = 0; j < K; j++) {
        is_free[j] = 1;
        group[j] = (j >= 2 && j <= nF - 2) ? 0 : (j >= nF ? 1 : -1);
    }
    is_free[0] = !spec->backlash_fixed;
    is_free[nF - 1] = !spec->xn_fixed;
    hy_pwlfit_refine_opts ro = {30, 8, 100 * c->xtol, 1e-7, 16, 2, 1e9 * c->xtol, 4};
    if (depth < 2) {
        ro.scan = -1;
        ro.relocate = 0;
        ro.max_polish = depth == 1 ? 2 : 1;
        if (depth == 0)
            ro.max_sweeps = 1;
    }
    hy_pwlfit_refine_problem pb = {K, is_free, group, side_cost, side_bracket, side_group, c};
    hy_pwlfit_refine_info info;
    double e = hy_pwlfit_refine(&pb, kn, &ro, &info);
    out->sweeps += info.sweeps;
    out->evaluations += info.evaluations;
    return e;
}

// (F, B, spec, starting knots) => side refined from those knots
int hy_pwlfit_side_refit(const hy_pwlfit_data *F, const hy_pwlfit_data *B, const hy_pwlfit_side_spec *spec,
                         const double *knots, hy_pwlfit_side *out, hy_err *err)
{
    memset(out, 0, sizeof *out);
    int rc = check_spec(F, B, spec, err);
    if (rc)
        return rc;
    side_ctx *c = malloc(sizeof *c);
    if (!c)
        return hy_err_set(err, HY_ENOMEM, "piecewise-linear fit: out of memory");
    if ((rc = ctx_init(c, F, B, spec, err)) != HY_OK) {
        free(c);
        return rc;
    }
    int K = c->nF + c->nB - 3;
    double kn[HY_PWLFIT_MAX_KNOTS];
    memcpy(kn, knots, (size_t)K * sizeof *kn);
    if (spec->backlash_fixed)
        kn[0] = spec->backlash;
    if (spec->xn_fixed)
        kn[c->nF - 1] = spec->xn;
    double e = refine_from(c, kn, out, 1);
    if (!isfinite(e)) {
        rc = hy_err_set(err, HY_EDATA, "piecewise-linear fit: no admissible table near the given breakpoints");
    } else {
        int sweeps = out->sweeps;
        long evals = out->evaluations;
        c->final = 1;
        e = side_cost(c, kn);
        fill_result(c, kn, e, out);
        out->sweeps = sweeps;
        out->evaluations = evals;
        hy_pwlfit_side_stats(out, F, B);
    }
    if (c->ls.oom) /* a solve of the search failed for memory: the result is not the one asked for */
        rc = hy_err_set(err, HY_ENOMEM, "piecewise-linear fit: out of memory");
    ctx_free(c);
    free(c);
    return rc;
}

typedef struct dp_start {
    double cost;
    size_t a, c;
} dp_start;

// (F, B, spec) => fitted side
int hy_pwlfit_side_fit(const hy_pwlfit_data *F, const hy_pwlfit_data *B, const hy_pwlfit_side_spec *spec,
                       hy_pwlfit_side *out, hy_err *err)
{
    memset(out, 0, sizeof *out);
    int rc = check_spec(F, B, spec, err);
    if (rc)
        return rc;
    int SF = spec->segments_F, SB = spec->segments_B, nF = SF + 1, nB = SB + 1;
    int constant = spec->kind == HY_PWL_CONSTANT;
    int min_pts = spec->min_points > 0 ? spec->min_points : 3;
    double amp = F->u[F->n - 1];
    double U = amp > B->u[B->n - 1] ? amp : B->u[B->n - 1];
    if (spec->xn_fixed) {
        if (!(spec->xn > 0 && spec->xn <= U))
            return hy_err_set(err, HY_EARG, "piecewise-linear fit: last point %g outside the data (0, %g]", spec->xn, U);
        U = spec->xn;
    }
    if (!(U > 0))
        return hy_err_set(err, HY_EDATA, "piecewise-linear fit: the branches do not leave the origin");
    if (spec->backlash_fixed && !(spec->backlash >= 0 && spec->backlash < 0.5 * U))
        return hy_err_set(err, HY_EDATA,
                          "piecewise-linear fit: backlash %g is not inside the first half of the side's range (0, %g)",
                          spec->backlash, U);

    /* ---- candidates ---- */
    size_t G = spec->grid ? spec->grid : 192;
    double *g = malloc((G + 8) * sizeof *g);
    if (!g)
        return hy_err_set(err, HY_ENOMEM, "piecewise-linear fit: out of memory");
    const hy_pwlfit_data *ds[2] = {F, B};
    size_t ng = hy_pwlfit_grid(ds, 2, 0.0, U, G, g);
    if (spec->backlash_fixed && spec->backlash > 0) {   /* the given backlash must be a candidate */
        size_t i = 0;
        while (i < ng && g[i] < spec->backlash)
            i++;
        if (i == ng || g[i] != spec->backlash) {
            memmove(g + i + 1, g + i, (ng - i) * sizeof *g);
            g[i] = spec->backlash;
            ng++;
        }
    }

    /* ---- per-branch DP tables ---- */
    hy_pwlfit_dp dF, dB;
    size_t iF_end = spec->xn_fixed ? hy_pwlfit_data_find(F, spec->xn) : F->n;
    double termF = 0.0;
    if (spec->xn_fixed && iF_end < F->n) {   /* slip plateau beyond x_n: a constant force (relaxed: its own level) */
        hy_pwlfit_stats s;
        hy_pwlfit_data_stats(F, iF_end, F->n, &s);
        termF = s.sPP;
    }
    rc = hy_pwlfit_dp_branch(F, g, ng, ng - 1, iF_end, termF, SF, min_pts, &dF, err);
    if (rc == HY_OK) {
        rc = hy_pwlfit_dp_branch(B, g, ng, ng - 1, B->n, 0.0, SB - 1, min_pts, &dB, err);
        if (rc)
            hy_pwlfit_dp_free(&dF);
    }
    if (rc) {
        free(g);
        return rc;
    }

    /* ---- combine: backlash a, common first segment a..c, then F and B from c ---- */
    size_t *iFc = malloc(ng * sizeof *iFc), *iBc = malloc(ng * sizeof *iBc);
    if (!iFc || !iBc) {
        free(iFc);
        free(iBc);
        free(g);
        hy_pwlfit_dp_free(&dF);
        hy_pwlfit_dp_free(&dB);
        return hy_err_set(err, HY_ENOMEM, "piecewise-linear fit: out of memory");
    }
    for (size_t i = 0; i < ng; i++) {
        iFc[i] = hy_pwlfit_data_find(F, g[i]);
        iBc[i] = hy_pwlfit_data_find(B, g[i]);
    }
    dp_start best[2] = {{INFINITY, 0, 0}, {INFINITY, 0, 0}};
    for (size_t a = 0; a < ng; a++) {
        if (spec->backlash_fixed ? g[a] != spec->backlash : g[a] > 0.5 * U)
            continue;
        /* zero force below g[a]: squared forces of the samples there (prefix sums are uncentred in P) */
        double zero = F->sPP[iFc[a]] + B->sPP[iBc[a]];
        for (size_t c = a + 1; c + 1 < ng; c++) {
            double Suu = 0, SuP = 0, SPP = 0, cnt = 0;
            anchored_sums(F, iFc[a], iFc[c], g[a], &Suu, &SuP, &SPP, &cnt);
            anchored_sums(B, iBc[a], iBc[c], g[a], &Suu, &SuP, &SPP, &cnt);
            if (cnt < min_pts || !(Suu > 0))
                continue;
            double common = SPP - SuP * SuP / Suu;
            double tail_B = dB.cost[(size_t)(SB - 1) * ng + c];
            for (int v = 0; v < (constant && !spec->xn_fixed ? 2 : 1); v++) {
                double tot = zero + common + tail_B + dF.cost[(size_t)(SF - 1 + v) * ng + c];
                if (tot < best[v].cost) {
                    best[v].cost = tot;
                    best[v].a = a;
                    best[v].c = c;
                }
            }
        }
    }
    free(iFc);
    free(iBc);

    out->sse_dp = fmin(best[0].cost, best[1].cost);
    if (spec->dp_only) {
        hy_pwlfit_dp_free(&dF);
        hy_pwlfit_dp_free(&dB);
        free(g);
        return HY_OK;
    }
    side_ctx *c = malloc(sizeof *c);
    if (!c || (rc = ctx_init(c, F, B, spec, err)) != HY_OK) {
        free(c);
        free(g);
        hy_pwlfit_dp_free(&dF);
        hy_pwlfit_dp_free(&dB);
        return rc ? rc : hy_err_set(err, HY_ENOMEM, "piecewise-linear fit: out of memory");
    }
    int K = nF + nB - 3;
    double best_sse = INFINITY, best_kn[HY_PWLFIT_MAX_KNOTS];
    for (int v = 0; v < 2; v++) {
        if (!isfinite(best[v].cost))
            continue;
        double kn[HY_PWLFIT_MAX_KNOTS], tmp[HY_PWLFIT_MAX_POINTS];
        kn[0] = spec->backlash_fixed ? spec->backlash : g[best[v].a];
        kn[1] = g[best[v].c];
        /* F: SF - 1 + v segments after x_2, so SF - 2 + v interior breakpoints; with v = 1 the last is x_n */
        int kf = hy_pwlfit_dp_path(&dF, g, best[v].c, SF - 1 + v, tmp);
        for (int i = 0; i < nF - 3; i++)
            kn[2 + i] = i < kf ? tmp[i] : kn[1] + (U - kn[1]) * (i + 1) / (nF - 2);
        kn[nF - 1] = spec->xn_fixed ? spec->xn : (v == 1 && kf == nF - 2 ? tmp[nF - 3] : amp);
        int kb = hy_pwlfit_dp_path(&dB, g, best[v].c, SB - 1, tmp);
        for (int i = 0; i < nB - 3; i++)
            kn[nF + i] = i < kb ? tmp[i] : kn[1] + (U - kn[1]) * (i + 1) / (nB - 2);
        /* keep the B interior strictly increasing inside (x_2, x_n): the DP path may pass x_n */
        double sp = 16 * c->xtol;
        for (int i = nB - 4; i >= 0; i--) {
            double hi = (i == nB - 4 ? kn[nF - 1] : kn[nF + i + 1]) - sp;
            if (kn[nF + i] > hi)
                kn[nF + i] = hi;
        }
        /* the second start is taken down quickly first and refined fully only when it competes */
        double e = refine_from(c, kn, out, best_sse < INFINITY ? 0 : 2);
        if (best_sse < INFINITY && e < best_sse * (1 + 1e-3))
            e = refine_from(c, kn, out, 2);
        if (e < best_sse) {
            best_sse = e;
            memcpy(best_kn, kn, (size_t)K * sizeof *kn);
            out->start = v;
        }
    }

    hy_pwlfit_dp_free(&dF);
    hy_pwlfit_dp_free(&dB);
    free(g);
    if (c->ls.oom) {
        ctx_free(c);
        free(c);
        return hy_err_set(err, HY_ENOMEM, "piecewise-linear fit: out of memory");
    }
    if (!isfinite(best_sse)) {
        ctx_free(c);
        free(c);
        return hy_err_set(err, HY_EDATA,
                          "piecewise-linear fit: no admissible breakpoints for %d forward and %d backward segments "
                          "(too few samples spread along the branches)",
                          SF, SB);
    }
    double sse_dp = out->sse_dp;
    int sweeps = out->sweeps, start = out->start;
    long evals = out->evaluations;
    c->final = 1;
    double e = side_cost(c, best_kn);
    fill_result(c, best_kn, e, out);
    out->sse_dp = sse_dp;
    out->sweeps = sweeps;
    out->evaluations = evals;
    out->start = start;
    hy_pwlfit_side_stats(out, F, B);
    int oom = c->ls.oom; /* a solve of the search failed for memory: the result is not the one asked for */
    ctx_free(c);
    free(c);
    return oom ? hy_err_set(err, HY_ENOMEM, "piecewise-linear fit: out of memory") : HY_OK;
}

// (side, branch, u) => fitted force in mirrored coordinates
double hy_pwlfit_side_eval(const hy_pwlfit_side *s, int branch, double u)
{
    const double *x = branch ? s->uB : s->uF, *v = branch ? s->PB : s->PF;
    int n = branch ? s->nB : s->nF;
    if (u < x[0])
        return 0.0;
    if (u >= x[n - 1])
        return v[n - 1] + s->k_beyond * (u - x[n - 1]);
    int lo = 0, hi = n - 2;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (u >= x[mid])
            lo = mid;
        else
            hi = mid - 1;
    }
    return v[lo] + (v[lo + 1] - v[lo]) * (u - x[lo]) / (x[lo + 1] - x[lo]);
}

static void branch_stats(const hy_pwlfit_side *s, int w, const hy_pwlfit_data *d, hy_pwlfit_branch_stats *st)
{
    memset(st, 0, sizeof *st);
    st->n = d->n;
    if (d->n == 0)
        return;
    double mean = d->sP[d->n] / (double)d->n, sst = 0;
    for (size_t i = 0; i < d->n; i++) {
        double r = d->P[i] - hy_pwlfit_side_eval(s, w, d->u[i]);
        st->sse += r * r;
        st->max_abs = fabs(r) > st->max_abs ? fabs(r) : st->max_abs;
        sst += (d->P[i] - mean) * (d->P[i] - mean);
    }
    st->rms = sqrt(st->sse / (double)d->n);
    st->r2 = sst > 0 ? 1.0 - st->sse / sst : 1.0;
}

// (side, data) => exact error statistics per branch
void hy_pwlfit_side_stats(hy_pwlfit_side *s, const hy_pwlfit_data *F, const hy_pwlfit_data *B)
{
    branch_stats(s, 0, F, &s->F);
    branch_stats(s, 1, B, &s->B);
}

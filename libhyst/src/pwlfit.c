/* The table fit pipeline (`hyst fit pwl`, see hyst/pwlfit.h): record -> loop analysis -> branches of each side
 * (moved back by the drift for the friction kind) -> constrained side fits with the segment count chosen ->
 * backlash evidence -> table, validated by the model itself -> unloading stiffness -> replay -> warnings. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hyst/model.h"
#include "hyst/pwlfit.h"

static const char *const side_name[2] = {"positive", "negative"};

// (o) => defaults
void hy_pwlfit_opts_default(hy_pwlfit_opts *o)
{
    memset(o, 0, sizeof *o);
    o->max_segments = 12;
    o->backlash_mode = HY_PWLFIT_BACKLASH_AUTO;
    o->kind = HY_PWL_CONSTANT;
    o->replay = 1;
    o->amp_tol_auto = 1;
    hy_loops_opts_default(&o->loops);
}

// (r) => memory released
void hy_pwlfit_result_free(hy_pwlfit_result *r)
{
    if (!r)
        return;
    free(r->energy_data);
    free(r->energy_model);
    r->energy_data = r->energy_model = NULL;
    for (int s = 0; s < 2; s++) {
        free(r->limit[s].loops);
        r->limit[s].loops = NULL;
        r->limit[s].n_loops = 0;
    }
}

static void warn(hy_pwlfit_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(hy_pwlfit_result *r, const char *fmt, ...)
{
    if (r->n_warn >= HY_PWLFIT_MAX_WARN)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *w = r->warn[r->n_warn++];
    vsnprintf(w, sizeof r->warn[0], fmt, ap);
    va_end(ap);
    hy_msg_text(w, sizeof r->warn[0], w, strlen(w), SIZE_MAX);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- friction kind: the plateau onsets x_N of both sides that line the drifting branches up ---- */

typedef struct drift_ctx {
    const double *q, *Q;
    size_t n;
    const hy_loops *L;
    const hy_pwlfit_opts *o;
    int S;
    double *shift;
} drift_ctx;

// (x_N of both sides) => squared error of the relaxed (DP) fit of both sides in the moved-back coordinate
static double drift_objective(drift_ctx *c, const double xN[2])
{
    hy_pwlfit_drift_shift(c->q, c->n, c->L, xN, c->shift);
    hy_pwlfit_branchset bs;
    if (hy_pwlfit_drift_branches(c->q, c->Q, c->n, c->L, c->shift, c->o->loops.amp_tol, &bs, NULL))
        return INFINITY;
    double total = 0.0;
    for (int s = 0; s < 2 && isfinite(total); s++) {
        if (bs.F[s].n == 0 || bs.B[s].n == 0) {
            total = INFINITY;
            break;
        }
        hy_pwlfit_side_spec sp = {HY_PWL_FRICTION, c->S, c->S, c->o->backlash_mode == HY_PWLFIT_BACKLASH_GIVEN,
                                  c->o->backlash, 1, fmin(xN[s], bs.F[s].u[bs.F[s].n - 1]), 96, 3, 1};
        hy_pwlfit_side out;
        if (hy_pwlfit_side_fit(&bs.F[s], &bs.B[s], &sp, &out, NULL) != HY_OK || !isfinite(out.sse_dp))
            total = INFINITY;
        else
            total += out.sse_dp;
    }
    hy_pwlfit_branchset_free(&bs);
    return total;
}

// (context, x_N, coordinate j, bracket) => x_N[j] moved to the best of a scan and a golden-section search
static double drift_line(drift_ctx *c, double xN[2], int j, double lo, double hi, double f)
{
    enum { M = 16 };
    double best = xN[j], fb = f, step = (hi - lo) / (M + 1);
    for (int i = 1; i <= M; i++) {
        double x[2] = {xN[0], xN[1]};
        x[j] = lo + step * i;
        double v = drift_objective(c, x);
        if (v < fb) {
            fb = v;
            best = x[j];
        }
    }
    double a = fmax(lo, best - step), b = fmin(hi, best + step);
    const double gr = 0.6180339887498949;
    double x1 = b - gr * (b - a), x2 = a + gr * (b - a);
    double t[2] = {xN[0], xN[1]};
    t[j] = x1;
    double f1 = drift_objective(c, t);
    t[j] = x2;
    double f2 = drift_objective(c, t);
    for (int it = 0; it < 30 && b - a > 1e-7 * (hi - lo); it++) {
        if (f1 <= f2) {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - gr * (b - a);
            t[j] = x1;
            f1 = drift_objective(c, t);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + gr * (b - a);
            t[j] = x2;
            f2 = drift_objective(c, t);
        }
    }
    if (f1 < fb) {
        fb = f1;
        best = x1;
    }
    if (f2 < fb) {
        fb = f2;
        best = x2;
    }
    xN[j] = best;
    return fb;
}

// (record, analysis) => x_N of both sides minimising the relaxed fit error (deterministic scans + golden sections)
static int drift_search(const double *q, const double *Q, size_t n, const hy_loops *L, const hy_pwlfit_opts *o,
                        int S, double xN[2], hy_err *err)
{
    double R = 0.0;
    for (size_t r = 1; r < L->n_rev; r++)
        R = fmax(R, fabs(q[L->rev[r].i] - q[L->rev[r - 1].i]));
    for (size_t r = 0; r < L->n_rev; r++)
        R = fmax(R, fabs(q[L->rev[r].i]));
    if (!(R > 0))
        return hy_err_set(err, HY_EDATA, "friction fit: the record has no excursion to align");
    drift_ctx c = {q, Q, n, L, o, S, malloc(n * sizeof(double))};
    if (!c.shift)
        return hy_err_set(err, HY_ENOMEM, "friction fit: out of memory");
    /* both sides alike first, then each side on its own, twice */
    enum { M = 24 };
    double best = INFINITY, bx = 0.5 * R;
    for (int i = 1; i <= M; i++) {
        double x = R * i / (M + 1), v = drift_objective(&c, (double[2]){x, x});
        if (v < best) {
            best = v;
            bx = x;
        }
    }
    xN[0] = xN[1] = bx;
    for (int round = 0; round < 2 && isfinite(best); round++)
        for (int j = 0; j < 2; j++)
            best = drift_line(&c, xN, j, 0.02 * R, R, best);
    free(c.shift);
    if (!isfinite(best))
        return hy_err_set(err, HY_EDATA,
                          "friction fit: no alignment of the drifting branches leaves enough samples on both sides "
                          "for %d segments",
                          S);
    return HY_OK;
}

/* ---- side fits and the choice of the segment counts ---- */

typedef struct fit_set {
    int nfit;                        /* sides fitted: 1 (symmetric) or 2                                      */
    hy_pwlfit_data *F[2], *B[2];
    double xn[2];                    /* friction: fixed last points                                          */
} fit_set;

// (fit side, counts) => side fitted; its BIC (INFINITY when the fit failed)
static double fit_one(const fit_set *fs, int s, const hy_pwlfit_opts *o, int SF, int SB, hy_pwlfit_side *out,
                      hy_pwlfit_choice *ch, hy_err *err)
{
    hy_pwlfit_side_spec sp = {o->kind, SF, SB, o->backlash_mode == HY_PWLFIT_BACKLASH_GIVEN, o->backlash,
                              o->kind == HY_PWL_FRICTION, fs->xn[s], o->grid, 0, 0};
    memset(ch, 0, sizeof *ch);
    ch->segments_F = SF;
    ch->segments_B = SB;
    ch->sse = ch->rms_max = ch->bic = NAN;
    if (hy_pwlfit_side_fit(fs->F[s], fs->B[s], &sp, out, err) != HY_OK)
        return INFINITY;
    double N = (double)(out->F.n + out->B.n), sse = out->F.sse + out->B.sse;
    /* free breakpoints + ordinates (+ k for the constant kind, - 1 knot for the friction kind's fixed x_n) */
    double P = (SF + SB - 2) - (o->backlash_mode == HY_PWLFIT_BACKLASH_GIVEN) + (SF + SB - 2);
    ch->sse = sse;
    ch->rms_max = fmax(out->F.rms, out->B.rms);
    ch->bic = N * log(fmax(sse, 1e-300) / N) + P * log(N);
    return ch->bic;
}

/* (fit side) => counts chosen and the side fitted with them. Given: both counts. --tol: from the smallest counts,
 * one more segment on the branch with the larger RMS error until both are within tol. Otherwise greedy on the
 * Bayesian information criterion: one more segment on F or on B, whichever lowers it more, or on both when
 * neither alone does; stop when nothing lowers it. */
static int choose_side(const fit_set *fs, int s, const hy_pwlfit_opts *o, hy_pwlfit_result *r, hy_pwlfit_side *best,
                       hy_err *err)
{
    int minF = 2, minB = o->kind == HY_PWL_CONSTANT ? 3 : 2;
    int maxS = o->max_segments > 0 ? o->max_segments : 12;
    if (maxS > HY_PWLFIT_MAX_SEGMENTS)
        maxS = HY_PWLFIT_MAX_SEGMENTS;
    hy_pwlfit_choice *tried = r->tried[s];
    int *nt = &r->n_tried[s];
    hy_pwlfit_side *cand = malloc(3 * sizeof *cand);
    if (!cand)
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    hy_err e1;
    hy_err_clear(&e1);
    int rc = HY_OK, oom = 0;
    double tried_bic;
    /* a candidate that failed for memory is not a count "the samples do not carry": remembered, reported below */
#define TRY(SF_, SB_, OUT_) (tried_bic = fit_one(fs, s, o, (SF_), (SB_), (OUT_), \
                             &tried[*nt < HY_PWLFIT_MAX_TRIED ? (*nt)++ : *nt - 1], &e1), \
                             oom |= e1.code == HY_ENOMEM, tried_bic)
    if (o->segments_F) {
        if (!isfinite(TRY(o->segments_F, o->segments_B, best)))
            rc = hy_err_set(err, e1.code ? e1.code : HY_EDATA, "%s", e1.msg);
        snprintf(r->segments_why, sizeof r->segments_why, "given (--segments)");
    } else if (o->tol > 0) {
        int SF = minF, SB = minB;
        double b = TRY(SF, SB, best);
        if (!isfinite(b)) {
            rc = hy_err_set(err, e1.code ? e1.code : HY_EDATA, "%s", e1.msg);
        } else {
            while (fmax(best->F.rms, best->B.rms) > o->tol && (SF < maxS || SB < maxS)) {
                int moreF = (best->F.rms >= best->B.rms && SF < maxS) || SB >= maxS;
                int nF = SF + moreF, nB = SB + !moreF;
                if (!isfinite(TRY(nF, nB, &cand[0])))
                    break;   /* more segments than the samples carry */
                SF = nF;
                SB = nB;
                best[0] = cand[0];
            }
            double rms = fmax(best->F.rms, best->B.rms);
            if (rms <= o->tol)
                snprintf(r->segments_why, sizeof r->segments_why,
                         "fewest segments whose per-branch RMS error is within --tol %g", o->tol);
            else {
                snprintf(r->segments_why, sizeof r->segments_why,
                         "--tol %g not met (per-branch RMS %.4g with %d forward and %d backward segments)", o->tol,
                         rms, SF, SB);
                warn(r, "%s side: %s", fs->nfit == 1 ? "pooled" : side_name[s], r->segments_why);
            }
        }
    } else {
        int SF = minF, SB = minB;
        double b = TRY(SF, SB, best);
        if (!isfinite(b)) {
            rc = hy_err_set(err, e1.code ? e1.code : HY_EDATA, "%s", e1.msg);
        } else {
            for (;;) {
                double bF = SF < maxS ? TRY(SF + 1, SB, &cand[0]) : INFINITY;
                double bB = SB < maxS ? TRY(SF, SB + 1, &cand[1]) : INFINITY;
                int pick = -1;
                if (bF < b || bB < b)
                    pick = bF <= bB ? 0 : 1;
                else if (SF < maxS && SB < maxS && TRY(SF + 1, SB + 1, &cand[2]) < b)
                    pick = 2;
                if (pick < 0)
                    break;
                SF += pick != 1;
                SB += pick != 0;
                b = pick == 0 ? bF : pick == 1 ? bB : tried[*nt - 1].bic;
                best[0] = cand[pick];
            }
            snprintf(r->segments_why, sizeof r->segments_why,
                     "least Bayesian information criterion N ln(SSE/N) + p ln N, one segment added at a time");
        }
    }
#undef TRY
    free(cand);
    if (oom)
        rc = hy_err_set(err, HY_ENOMEM, "out of memory");
    return rc;
}

// (pooled parts of two data sets) => one data set
static int pool(const hy_pwlfit_data *a, const hy_pwlfit_data *b, hy_pwlfit_data *out, hy_err *err)
{
    hy_pwlfit_part p[2] = {{a->u, a->P, a->n, 1.0}, {b->u, b->P, b->n, 1.0}};
    return hy_pwlfit_data_build(out, p, 2, err);
}

static int check_input(const double *q, const double *Q, size_t n, const hy_pwlfit_opts *o, hy_err *err)
{
    int minB = o->kind == HY_PWL_CONSTANT ? 3 : 2;
    if (o->segments_F != 0 && (o->segments_F < 2 || o->segments_B < minB || o->segments_F > HY_PWLFIT_MAX_SEGMENTS ||
                               o->segments_B > HY_PWLFIT_MAX_SEGMENTS))
        return hy_err_set(err, HY_EARG,
                          "%d forward and %d backward segments asked: a loop needs at least 2 forward and %d backward "
                          "segments and this build allows at most %d",
                          o->segments_F, o->segments_B, minB, HY_PWLFIT_MAX_SEGMENTS);
    if (!(o->tol >= 0) || !isfinite(o->tol))
        return hy_err_set(err, HY_EARG, "force tolerance must be a finite number >= 0");
    if (o->backlash_mode == HY_PWLFIT_BACKLASH_GIVEN && !(o->backlash >= 0 && isfinite(o->backlash)))
        return hy_err_set(err, HY_EARG, "backlash must be a finite width >= 0, got %g", o->backlash);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(q[i]) || !isfinite(Q[i]))
            return hy_err_set(err, HY_EDATA, "sample %zu: the %s is not a finite number", i + 1,
                              isfinite(q[i]) ? "force" : "displacement");
    if (n < 20)
        return hy_err_set(err, HY_EDATA, "%zu samples are too few for a table fit (need at least 20)", n);
    return HY_OK;
}

// (record, options) => fitted table, figures and warnings
int hy_pwlfit_run(const double *q, const double *Q, const double *t, size_t n, const hy_pwlfit_opts *o,
                  hy_pwlfit_result *r, hy_err *err)
{
    memset(r, 0, sizeof *r);
    r->k_ratio[0] = r->k_ratio[1] = NAN;
    r->nrmse = NAN;
    r->n_points = n;
    double t0 = now();
    int rc = check_input(q, Q, n, o, err);
    if (rc)
        return rc;
    hy_loops L;
    rc = hy_loops_analyze(q, Q, n, &o->loops, &L, err);
    if (rc)
        return rc;
    hy_pwlfit_branchset bs;
    memset(&bs, 0, sizeof bs);
    hy_pwlfit_data pooled[2];
    memset(pooled, 0, sizeof pooled);
    hy_pwl_model *model = NULL;
    double *Qm = NULL, *shift = NULL;
    r->threshold = L.threshold;
    if (L.n_rev == 0) {
        rc = hy_err_set(err, HY_EDATA,
                        "no reversal in the record: q only moves one way (threshold %g), so there is no loading and "
                        "unloading to fit",
                        L.threshold);
        goto done;
    }
    int S_probe = o->segments_F ? (o->segments_F > o->segments_B ? o->segments_F : o->segments_B) : 6;
    if (o->kind == HY_PWL_FRICTION) {
        rc = drift_search(q, Q, n, &L, o, S_probe, r->xN_drift, err);
        if (rc)
            goto done;
        shift = malloc(n * sizeof *shift);
        if (!shift) {
            rc = hy_err_set(err, HY_ENOMEM, "out of memory");
            goto done;
        }
        r->slips = hy_pwlfit_drift_shift(q, n, &L, r->xN_drift, shift);
        rc = hy_pwlfit_drift_branches(q, Q, n, &L, shift, o->loops.amp_tol, &bs, err);
    } else {
        rc = hy_pwlfit_branches(q, Q, n, &L, &o->loops, &bs, err);
    }
    if (rc)
        goto done;
    for (int s = 0; s < 2; s++) {
        bs.limit[s].amplitude = bs.amp[s];
        bs.limit[s].amp_tol = o->loops.amp_tol;
        bs.limit[s].rule = o->amp_tol_auto ? HY_PWLFIT_LIMIT_DEFAULT : HY_PWLFIT_LIMIT_GIVEN;
    }
    int has[2];
    for (int s = 0; s < 2; s++)
        has[s] = bs.F[s].n >= HY_PWLFIT_MIN_BRANCH && bs.B[s].n >= HY_PWLFIT_MIN_BRANCH && bs.cycles[s] > 0;
    /* Too few samples where the default limit loop must serve (one cycle per amplitude, sparse sampling): take in
     * the next largest loops of the short sides, one amplitude at a time (docs/fit-pwl.md, step 1). Only when the
     * default would fail, so every record the default serves keeps its result. */
    int widen = o->amp_tol_auto && o->kind == HY_PWL_CONSTANT &&
                ((!has[0] && !has[1]) || (!o->symmetric && (!has[0] || !has[1])));
    if (widen)
        for (int s = 0; s < 2; s++) {
            if (has[s])
                continue;
            rc = hy_pwlfit_branches_widen(q, Q, &L, s, HY_PWLFIT_MIN_BRANCH, HY_PWLFIT_WIDEN_MAX, &bs, err);
            if (rc)
                goto done;
            has[s] = bs.F[s].n >= HY_PWLFIT_MIN_BRANCH && bs.B[s].n >= HY_PWLFIT_MIN_BRANCH && bs.cycles[s] > 0;
        }
    for (int s = 0; s < 2; s++) {
        r->cycles[s] = bs.cycles[s];
        r->amp[s] = bs.amp[s];
        r->limit[s] = bs.limit[s];   /* the result owns the loop list from here */
        bs.limit[s].loops = NULL;
        bs.limit[s].n_loops = 0;
    }
    if (!has[0] && !has[1]) {
        if (widen)
            rc = hy_err_set(err, HY_EDATA,
                            "the limit loop has too few samples to fit, even with every loop down to %g %% of the "
                            "largest amplitude taken in (positive side %zu forward, %zu backward; negative side %zu, "
                            "%zu; need %d on each branch): the record has too few samples per cycle for a table fit; "
                            "smaller loops can be taken in with --amp-tol above %g",
                            100 * (1 - HY_PWLFIT_WIDEN_MAX), bs.F[0].n, bs.B[0].n, bs.F[1].n, bs.B[1].n,
                            HY_PWLFIT_MIN_BRANCH, HY_PWLFIT_WIDEN_MAX);
        else
            rc = hy_err_set(err, HY_EDATA,
                            "the limit loop has too few samples to fit (positive side %zu forward, %zu backward; "
                            "negative side %zu, %zu; need %d on each branch): take in more cycles with a larger "
                            "--amp-tol (now %g)",
                            bs.F[0].n, bs.B[0].n, bs.F[1].n, bs.B[1].n, HY_PWLFIT_MIN_BRANCH, o->loops.amp_tol);
        goto done;
    }
    if (!o->symmetric && (!has[0] || !has[1])) {
        int s = has[0] ? 1 : 0;
        if (widen && bs.amp[s] > 0)
            rc = hy_err_set(err, HY_EDATA,
                            "the %s side's limit loop has too few samples to fit, even with every loop down to %g %% "
                            "of its largest amplitude taken in (%zu forward and %zu backward; need %d on each "
                            "branch): fit both sides as mirrors of the %s one with --symmetric, or take in smaller "
                            "loops with --amp-tol above %g",
                            side_name[s], 100 * (1 - HY_PWLFIT_WIDEN_MAX), bs.F[s].n, bs.B[s].n,
                            HY_PWLFIT_MIN_BRANCH, side_name[1 - s], HY_PWLFIT_WIDEN_MAX);
        else
            rc = hy_err_set(err, HY_EDATA,
                            "one-sided test: the %s side has no limit loop (%zu forward and %zu backward samples); "
                            "fit both sides as mirrors of the %s one with --symmetric",
                            side_name[s], bs.F[s].n, bs.B[s].n, side_name[1 - s]);
        goto done;
    }
    fit_set fs;
    memset(&fs, 0, sizeof fs);
    if (o->symmetric) {
        fs.nfit = 1;
        if (has[0] && has[1]) {
            if ((rc = pool(&bs.F[0], &bs.F[1], &pooled[0], err)) || (rc = pool(&bs.B[0], &bs.B[1], &pooled[1], err)))
                goto done;
            fs.F[0] = &pooled[0];
            fs.B[0] = &pooled[1];
        } else {
            int s = has[0] ? 0 : 1;
            fs.F[0] = &bs.F[s];
            fs.B[0] = &bs.B[s];
            warn(r,
                 "the %s side has no usable limit loop (%zu forward, %zu backward samples): the table's %s side is a "
                 "mirror of the %s one (--symmetric)",
                 side_name[1 - s], bs.F[1 - s].n, bs.B[1 - s].n, side_name[1 - s], side_name[s]);
        }
        fs.xn[0] = fmin(0.5 * (r->xN_drift[0] + r->xN_drift[1]), fs.F[0]->u[fs.F[0]->n - 1]);
    } else {
        fs.nfit = 2;
        for (int s = 0; s < 2; s++) {
            fs.F[s] = &bs.F[s];
            fs.B[s] = &bs.B[s];
            fs.xn[s] = fmin(r->xN_drift[s], bs.F[s].u[bs.F[s].n - 1]);
        }
    }

    /* ---- segment counts: given, fewest meeting the tolerance, or least BIC; per fitted side ---- */
    hy_pwlfit_side best_sd[2];
    for (int s = 0; s < fs.nfit; s++) {
        rc = choose_side(&fs, s, o, r, &best_sd[s], err);
        if (rc) {
            if (fs.nfit == 2 && err) {
                char tmp[HY_MSG_LEN - 40];
                memcpy(tmp, err->msg, sizeof tmp - 1);
                tmp[sizeof tmp - 1] = '\0';
                snprintf(err->msg, sizeof err->msg, "%s side: %s", side_name[s], tmp);
            }
            goto done;
        }
    }

    /* ---- backlash evidence: the same breakpoints refined with b = 0 ---- */
    for (int s = 0; s < fs.nfit; s++) {
        hy_pwlfit_backlash_info *bi = &r->backlash[s];
        double range = fs.F[s]->u[fs.F[s]->n - 1];
        if (o->backlash_mode == HY_PWLFIT_BACKLASH_GIVEN) {
            bi->b = bi->b_fitted = o->backlash;
            bi->clear = 1;
            bi->delta_bic = NAN;
            bi->sse_free = bi->sse_zero = NAN;
            hy_pwlfit_backlash_zero_cost(fs.F[s], fs.B[s], o->backlash, &bi->n_zone);
            continue;
        }
        hy_pwlfit_side zero;
        double kn[HY_PWLFIT_MAX_KNOTS];
        memcpy(kn, best_sd[s].knots, sizeof kn);
        kn[0] = 0.0;
        hy_pwlfit_side_spec sp = {o->kind, best_sd[s].nF - 1, best_sd[s].nB - 1, 1, 0.0, o->kind == HY_PWL_FRICTION,
                                  fs.xn[s], o->grid, 0, 0};
        double sse_free = best_sd[s].F.sse + best_sd[s].B.sse;
        size_t N = best_sd[s].F.n + best_sd[s].B.n, nz = 0;
        hy_pwlfit_backlash_zero_cost(fs.F[s], fs.B[s], best_sd[s].uF[0], &nz);
        int zrc = hy_pwlfit_side_refit(fs.F[s], fs.B[s], &sp, kn, &zero, NULL);
        if (zrc == HY_ENOMEM) { /* not evidence against a zero backlash */
            rc = hy_err_set(err, HY_ENOMEM, "out of memory");
            goto done;
        }
        if (zrc == HY_OK) {
            hy_pwlfit_backlash_judge(N, sse_free, zero.F.sse + zero.B.sse, nz, best_sd[s].uF[0], range, bi);
            if (bi->b == 0.0 && best_sd[s].uF[0] > 0)
                best_sd[s] = zero;
        } else {
            hy_pwlfit_backlash_judge(N, sse_free, INFINITY, nz, best_sd[s].uF[0], range, bi);
        }
        const char *sn = fs.nfit == 1 ? "both" : side_name[s];
        if (bi->clear < 0)
            warn(r,
                 "no clear backlash on the %s side%s: width %.4g fitted, but it improves the fit only a little "
                 "(BIC difference %.3g, %zu samples in the zone); give --backlash 0 or a value to decide",
                 sn, fs.nfit == 1 ? "s" : "", bi->b_fitted, bi->delta_bic, bi->n_zone);
    }

    /* ---- table (mirrored back), validated by the model ---- */
    for (int s = 0; s < 2; s++) {
        const hy_pwlfit_side *src = &best_sd[fs.nfit == 1 ? 0 : s];
        r->side[s] = *src;
        if (fs.nfit == 1)
            r->backlash[s] = r->backlash[0];
        double sg = s ? -1.0 : 1.0;
        for (int i = 0; i < src->nF; i++) {
            r->tq[s][0][i] = sg * src->uF[i];
            r->tQ[s][0][i] = i == 0 ? 0.0 : sg * src->PF[i];
        }
        for (int i = 0; i < src->nB; i++) {
            r->tq[s][1][i] = sg * src->uB[i];
            r->tQ[s][1][i] = i == 0 ? 0.0 : sg * src->PB[i];
        }
        if (src->uF[0] == 0.0)
            r->tq[s][0][0] = r->tq[s][1][0] = 0.0;   /* no -0 in the file */
        hy_pwl_side *ts = s ? &r->table.negative : &r->table.positive;
        ts->forward.n = (size_t)src->nF;
        ts->backward.n = (size_t)src->nB;
        ts->forward.q = r->tq[s][0];
        ts->forward.Q = r->tQ[s][0];
        ts->backward.q = r->tq[s][1];
        ts->backward.Q = r->tQ[s][1];
        ts->k_beyond = src->k_beyond;
    }
    r->table.kind = o->kind;
    {
        hy_err e1;
        int mrc = hy_pwl_model_new(&r->table, "fitted table", &model, &e1);
        if (mrc == HY_ENOMEM) {
            rc = hy_err_set(err, HY_ENOMEM, "%s", e1.msg);
            goto done;
        }
        if (mrc != HY_OK) {
            rc = hy_err_set(err, HY_EMODEL, "the fitted table breaks the model's assumptions (%s); not written", e1.msg);
            goto done;
        }
    }

    /* ---- transition slope against the measured unloading stiffness ---- */
    hy_pwlfit_unloading_measure(q, Q, n, &L, shift, 0.3, o->loops.amp_tol, &r->unloading);
    for (int s = 0; s < 2; s++) {
        r->k_ratio[s] = NAN;
        int m = o->symmetric ? 0 : s;   /* symmetric: both sides' reversals against the one k_max */
        size_t ni = o->symmetric ? r->unloading.n_inner[0] + r->unloading.n_inner[1] : r->unloading.n_inner[m];
        double ki = r->unloading.k_inner[s];
        if (o->symmetric && !(r->unloading.n_inner[s] > 0))
            ki = r->unloading.k_inner[1 - s];
        if (ni > 0 && ki > 0)
            r->k_ratio[s] = r->side[s].k_max / ki;
    }

    /* ---- replay on the record's own displacement history ---- */
    if (o->replay) {
        Qm = malloc(n * sizeof *Qm);
        if (!Qm) {
            rc = hy_err_set(err, HY_ENOMEM, "out of memory for the replay");
            goto done;
        }
        hy_element e;
        hy_err e1;
        if (hy_pwl_element_new(model, &e, &e1) == HY_OK) {
            size_t done_n = 0;
            hy_diag dg;
            memset(&dg, 0, sizeof dg);
            int rr = hy_element_drive(&e, 0.0, t, q, n, Qm, NULL, &done_n, &dg);
            hy_element_free(&e);
            if (rr == HY_OK) {
                r->replayed = 1;
            } else {
                char buf[300];
                hy_diag_format(&dg, buf, sizeof buf);
                snprintf(r->replay_error, sizeof r->replay_error, "sample %zu: %s", done_n + 1, buf);
                warn(r, "the fitted model stopped when replayed on the record: %s", r->replay_error);
            }
        } else {
            snprintf(r->replay_error, sizeof r->replay_error, "%s", e1.msg);
        }
        if (r->replayed) {
            double Qlo = INFINITY, Qhi = -INFINITY, ss = 0;
            for (size_t i = 0; i < n; i++) {
                Qlo = fmin(Qlo, Q[i]);
                Qhi = fmax(Qhi, Q[i]);
                ss += (Qm[i] - Q[i]) * (Qm[i] - Q[i]);
            }
            r->nrmse = Qhi > Qlo ? sqrt(ss / (double)n) / (Qhi - Qlo) : NAN;
            hy_loops_opts lo = o->loops;
            lo.threshold = L.threshold;   /* same reversals: the cycles pair up one to one */
            hy_loops Lm;
            if (hy_loops_analyze(q, Qm, n, &lo, &Lm, NULL) == HY_OK) {
                size_t nc = Lm.n_cyc < L.n_cyc ? Lm.n_cyc : L.n_cyc;
                r->energy_data = malloc((nc + 1) * sizeof(double));
                r->energy_model = malloc((nc + 1) * sizeof(double));
                if (r->energy_data && r->energy_model) {
                    r->n_cycles = nc;
                    for (size_t k = 0; k < nc; k++) {
                        r->energy_data[k] = L.cyc[k].energy;
                        r->energy_model[k] = Lm.cyc[k].energy;
                    }
                }
                r->energy_total_data = L.total_energy;
                r->energy_total_model = Lm.total_energy;
                hy_loops_free(&Lm);
            }
        }
    }

    /* ---- warnings: what the data say against the fit or the model ---- */
    for (int s = 0; s < fs.nfit; s++) {
        const char *sn = fs.nfit == 1 ? "pooled" : side_name[s];
        size_t cyc = fs.nfit == 1 ? r->cycles[0] + r->cycles[1] : r->cycles[s];
        if (cyc < 2)
            warn(r, "only %zu limit cycle on the %s side: the branches rest on a single pass (too few cycles to "
                    "average the scatter)", cyc, sn);
        const hy_pwlfit_side *sdp = &best_sd[s];
        if (sdp->ties > 0)
            warn(r,
                 "the data contradict spec 000 §2 (assumption 3: the beyond-range slope is the largest) on the %s "
                 "side: %d segment(s) steeper than k_max = %.4g were held at k_max",
                 sn, sdp->ties, sdp->k_max);
        if (sdp->touches > 0)
            warn(r, "the data put the backward branch above the forward one on the %s side; B was held on F at %d "
                    "point(s)", sn, sdp->touches);
        if (sdp->F.r2 < 0.9 || sdp->B.r2 < 0.9)
            warn(r, "poor fit on the %s side (R^2 forward %.3f, backward %.3f): the branches are not piecewise "
                    "linear with %d and %d segments, or the loop is not stable from cycle to cycle", sn, sdp->F.r2,
                 sdp->B.r2, sdp->nF - 1, sdp->nB - 1);
    }
    for (int s = 0; s < 2; s++) {
        double kr = r->k_ratio[s];
        if (isfinite(kr) && (kr > 1.5 || kr < 1.0 / 1.5))
            warn(r,
                 "%s side: the transition slope k_max = %.4g differs from the unloading stiffness measured after %zu "
                 "inner reversals (median %.4g) by a factor %.2f: the model leaves a branch %s than the record does",
                 side_name[s], r->side[s].k_max, r->unloading.n_inner[s], r->unloading.k_inner[s], kr,
                 kr > 1 ? "more steeply" : "more gently");
    }
    if (o->kind == HY_PWL_FRICTION && r->slips == 0)
        warn(r, "no brake slip in the record (friction kind): the slip plateau and the drift are not identified; "
                "the table ends at the largest displacement");
    if (r->replayed && r->nrmse > 0.1)
        warn(r, "the fitted model replayed on the record is far from it (NRMSE %.1f %% of the peak-to-peak force): "
                "the record may not be of the piecewise-linear kind", 100 * r->nrmse);

done:
    free(Qm);
    free(shift);
    if (model)
        hy_pwl_model_free(model);
    hy_pwlfit_data_free(&pooled[0]);
    hy_pwlfit_data_free(&pooled[1]);
    hy_pwlfit_branchset_free(&bs);
    hy_loops_free(&L);
    r->seconds = now() - t0;
    if (rc)
        hy_pwlfit_result_free(r);
    return rc;
}

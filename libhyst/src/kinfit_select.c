/* Model selection and pruning for the kinematic ODE (spec 002 §2.3, §6.1 item 3): every (k, m) up to the caps is
 * fitted by Stage B and scored by the error of its INTEGRATED trajectory along the record (not by the Stage-B
 * residual); the smallest model within a tolerance of the best score wins; then terms whose removal leaves the
 * integrated error within prune_tol of the selected model are dropped, one at a time, the least useful first. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/kinfit.h"

typedef struct sel_ctx {
    const hy_kinfit_points *p;
    const double           *q, *f;
    size_t                  n;
    const hy_kinfit_opts   *o;
    hy_kinfit_design       *D[2];      /* [0] loading (or the symmetric pool), [1] unloading (two-set only)       */
    double                  q_min, q_max;
    double                 *fm;        /* model force work array [n]                                              */
} sel_ctx;

/* One evaluated term set. */
typedef struct sel_eval {
    hy_kinfit_mask  mask[2];
    hy_kin_spec     spec;
    hy_kinfit_lsq   lsq[2];
    hy_kinfit_score score;
    int             status;   /* enum hy_kinfit_cand_status */
    int             terms;
} sel_eval;

static int popcount(hy_kinfit_mask x)
{
    return __builtin_popcountll(x);
}

// (context, masks) => Stage-B coefficients, attraction check and integrated score of that term set
static int evaluate(sel_ctx *c, hy_kinfit_mask ml, hy_kinfit_mask mu, sel_eval *ev, hy_err *err)
{
    int two = c->o->rule == HY_KIN_TWO_SET;
    memset(ev, 0, sizeof *ev);
    ev->mask[0] = ml;
    ev->mask[1] = two ? mu : 0;
    ev->terms = popcount(ml) + (two ? popcount(mu) : 0);
    ev->score.nrmse = ev->score.max_abs = INFINITY;
    ev->spec.rule = c->o->rule;
    ev->spec.q_min = c->q_min;
    ev->spec.q_max = c->q_max;
    for (int s = 0; s < (two ? 2 : 1); s++) {
        if ((size_t)popcount(ev->mask[s]) > c->D[s]->n) {
            ev->status = HY_KINFIT_CAND_UNDERDETERMINED;
            return HY_OK;
        }
        int rc = hy_kinfit_design_solve(c->D[s], ev->mask[s], c->o->rcond, s ? &ev->spec.unload : &ev->spec.load,
                                        &ev->lsq[s], err);
        if (rc != HY_OK)
            return rc;
    }
    hy_kinfit_checks ck;
    hy_kinfit_check_attraction(&ev->spec, c->p, &ck);
    if (!ck.attract_ok && c->o->constrain) {
        /* beyond the paper: refit with the attraction rate held below the margin at every branch point */
        double margin = c->o->attract_margin / (c->q_max - c->q_min);
        for (int s = 0; s < (two ? 2 : 1); s++) {
            int rc = hy_kinfit_design_solve_attracting(c->D[s], ev->mask[s], c->o->rcond, margin,
                                                       s ? &ev->spec.unload : &ev->spec.load, &ev->lsq[s], err);
            if (rc != HY_OK)
                return rc;
        }
        hy_kinfit_check_attraction(&ev->spec, c->p, &ck);
    }
    int rc = hy_kinfit_score_spec(&ev->spec, c->q, c->f, c->n, c->fm, &ev->score, err);
    if (rc != HY_OK)
        return rc;
    if (!ev->score.ok)
        ev->status = ev->score.stiff ? HY_KINFIT_CAND_STIFF : HY_KINFIT_CAND_DIVERGED;
    else if (!ck.attract_ok)
        ev->status = HY_KINFIT_CAND_NOT_ATTRACTING;
    else
        ev->status = HY_KINFIT_CAND_OK;
    return HY_OK;
}

static void warn(hy_kinfit_result *r, const char *msg)
{
    if (r->n_warnings < (int)(sizeof r->warning / sizeof r->warning[0]))
        snprintf(r->warning[r->n_warnings++], sizeof r->warning[0], "%s", msg);
}

// (result, evaluation) => result holds that model
static void keep(hy_kinfit_result *r, const sel_eval *ev)
{
    r->spec = ev->spec;
    r->mask_load = ev->mask[0];
    r->mask_unload = ev->mask[1];
    r->lsq_load = ev->lsq[0];
    r->lsq_unload = ev->lsq[1];
    r->score = ev->score;
}

/* (context, selected model) => backward elimination: drop the term whose removal costs least, while the
 * integrated NRMSE stays within prune_tol of the selected model's and the law stays attracting */
static int prune(sel_ctx *c, hy_kinfit_result *r, hy_err *err)
{
    int two = c->o->rule == HY_KIN_TWO_SET;
    double limit = r->score_selected.nrmse * (1.0 + c->o->prune_tol);
    sel_eval cur, trial, best;
    memset(&cur, 0, sizeof cur);
    cur.mask[0] = r->mask_load;
    cur.mask[1] = r->mask_unload;
    for (;;) {
        int found = 0;
        for (int s = 0; s < (two ? 2 : 1); s++)
            for (int t = 0; t < HY_KINFIT_NTERMS; t++) {
                hy_kinfit_mask bit = (hy_kinfit_mask)1 << t;
                if (!(cur.mask[s] & bit) || popcount(cur.mask[s]) <= 1)
                    continue;
                hy_kinfit_mask ml = cur.mask[0], mu = cur.mask[1];
                if (s == 0)
                    ml &= ~bit;
                else
                    mu &= ~bit;
                int rc = evaluate(c, ml, mu, &trial, err);
                if (rc != HY_OK)
                    return rc;
                if (trial.status != HY_KINFIT_CAND_OK || !(trial.score.nrmse <= limit))
                    continue;
                if (!found || trial.score.nrmse < best.score.nrmse) {
                    best = trial;
                    found = 1;
                }
            }
        if (!found)
            break;
        cur = best;
        keep(r, &cur);
    }
    hy_kinfit_mask rect = hy_kinfit_mask_rect(r->k_sel, r->m_sel);
    r->pruned_load = rect & ~r->mask_load;
    r->pruned_unload = two ? rect & ~r->mask_unload : 0;
    return HY_OK;
}

// (points, record, options) => selected (and pruned) coefficients with every candidate's score
int hy_kinfit_select(const hy_kinfit_points *p, const double *q, const double *f, size_t n, const hy_kinfit_opts *o,
                     hy_kinfit_result *r, hy_err *err)
{
    int two = o->rule == HY_KIN_TWO_SET;
    if (o->k < 0 || o->k > HY_KIN_MAX || o->m < 0 || o->m > HY_KIN_MAX)
        return hy_err_set(err, HY_EARG, "k = %d, m = %d: expected 1..%d (0 = select)", o->k, o->m, HY_KIN_MAX);
    if (o->max_k < 1 || o->max_k > HY_KIN_MAX || o->max_m < 1 || o->max_m > HY_KIN_MAX)
        return hy_err_set(err, HY_EARG, "max k = %d, max m = %d: expected 1..%d", o->max_k, o->max_m, HY_KIN_MAX);
    if (n < 2 || p->n == 0)
        return hy_err_set(err, HY_EDATA, "no data to select a model on");
    sel_ctx c = {.p = p, .q = q, .f = f, .n = n, .o = o};
    c.q_min = INFINITY;
    c.q_max = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        c.q_min = fmin(c.q_min, q[i]);
        c.q_max = fmax(c.q_max, q[i]);
    }
    double q_s = 0.0, f_s = 0.0;
    for (size_t l = 0; l < p->n; l++) {
        q_s = fmax(q_s, fabs(p->q[l]));
        f_s = fmax(f_s, fabs(p->f[l]));
    }
    r->q_s = q_s;
    r->f_s = f_s;
    c.fm = malloc(n * sizeof *c.fm);
    c.D[0] = calloc(1, sizeof *c.D[0]);
    c.D[1] = two ? calloc(1, sizeof *c.D[1]) : NULL;
    int rc = HY_OK;
    if (!c.fm || !c.D[0] || (two && !c.D[1]))
        rc = hy_err_set(err, HY_ENOMEM, "fit kin: out of memory");
    if (rc == HY_OK)
        rc = hy_kinfit_design_build(p, two ? +1 : 0, q_s, f_s, c.D[0], err);
    if (rc == HY_OK && two)
        rc = hy_kinfit_design_build(p, -1, q_s, f_s, c.D[1], err);

    int k0 = o->k ? o->k : 1, k1 = o->k ? o->k : o->max_k;
    int m0 = o->m ? o->m : 1, m1 = o->m ? o->m : o->max_m;
    sel_eval *ev = rc == HY_OK ? calloc((size_t)HY_KINFIT_NTERMS, sizeof *ev) : NULL;
    if (rc == HY_OK && !ev)
        rc = hy_err_set(err, HY_ENOMEM, "fit kin: out of memory");
    r->n_cand = 0;
    for (int k = k0; rc == HY_OK && k <= k1; k++)
        for (int m = m0; rc == HY_OK && m <= m1; m++) {
            hy_kinfit_mask mask = hy_kinfit_mask_rect(k, m);
            sel_eval *e = &ev[r->n_cand];
            rc = evaluate(&c, mask, mask, e, err);
            if (rc != HY_OK)
                break;
            hy_kinfit_cand *cd = &r->cand[r->n_cand++];
            cd->k = k;
            cd->m = m;
            cd->terms = e->terms;
            cd->status = e->status;
            cd->rank = e->lsq[0].rank + (two ? e->lsq[1].rank : 0);
            cd->constrained = e->lsq[0].constrained + (two ? e->lsq[1].constrained : 0);
            cd->cond = two ? fmax(e->lsq[0].cond, e->lsq[1].cond) : e->lsq[0].cond;
            cd->resid_rms = two ? sqrt(0.5 * (e->lsq[0].resid_rms * e->lsq[0].resid_rms +
                                              e->lsq[1].resid_rms * e->lsq[1].resid_rms))
                                : e->lsq[0].resid_rms;
            cd->score = e->score;
        }
    if (rc == HY_OK) {
        /* best score among the admissible candidates; without any, among those that at least integrate */
        int want = HY_KINFIT_CAND_OK;
        double best = INFINITY;
        for (size_t i = 0; i < r->n_cand; i++)
            if (ev[i].status == want)
                best = fmin(best, ev[i].score.nrmse);
        if (!isfinite(best)) {
            want = HY_KINFIT_CAND_NOT_ATTRACTING;
            for (size_t i = 0; i < r->n_cand; i++)
                if (ev[i].status == want)
                    best = fmin(best, ev[i].score.nrmse);
            if (isfinite(best))
                warn(r, "no candidate keeps the branches attracting (dR/df < 0) at every branch point; the best "
                        "integrating one was kept");
        }
        if (!isfinite(best) && o->k && o->m && r->n_cand == 1 && ev[0].status != HY_KINFIT_CAND_UNDERDETERMINED) {
            /* a fixed order that does not integrate: keep the Stage-B coefficients, say so */
            keep(r, &ev[0]);
            r->k_sel = o->k;
            r->m_sel = o->m;
            r->score_selected = r->score_pruned = ev[0].score;
            warn(r, "the fitted law could not be integrated along the record (it diverges or is too stiff)");
        } else if (!isfinite(best)) {
            rc = hy_err_set(err, HY_EDATA,
                            "no candidate (k, m) could be integrated along the record: every fitted law diverges, "
                            "is too stiff or has more terms than branch points (%zu points)",
                            p->n);
        } else {
            double accept = fmax(best * (1.0 + o->select_tol), best + o->select_abs);
            size_t pick = r->n_cand;
            for (size_t i = 0; i < r->n_cand; i++) {
                if (ev[i].status != want || !(ev[i].score.nrmse <= accept))
                    continue;
                if (pick == r->n_cand || ev[i].terms < ev[pick].terms ||
                    (ev[i].terms == ev[pick].terms && ev[i].score.nrmse < ev[pick].score.nrmse))
                    pick = i;
            }
            keep(r, &ev[pick]);
            r->k_sel = r->cand[pick].k;
            r->m_sel = r->cand[pick].m;
            r->score_selected = ev[pick].score;
            if (o->prune && want == HY_KINFIT_CAND_OK)
                rc = prune(&c, r, err);
            r->score_pruned = r->score;
        }
    }
    free(ev);
    free(c.fm);
    for (int d = 0; d < 2; d++)
        if (c.D[d]) {
            hy_kinfit_design_free(c.D[d]);
            free(c.D[d]);
        }
    return rc;
}

/* The fit report of `hyst fit kin` (docs/formats.md, section fit-kin): what was chosen, how well-posed Stage B
 * was, how every candidate scored on the integrated trajectory, and the sanity checks of spec 002 §6.1 item 5. */
#include <errno.h>
#include <math.h>
#include <cjson/cJSON.h>
#include "hyst/kinfit.h"

/* A report is built with cJSON's calls unchecked, one after another: a failed allocation leaves errno == ENOMEM
 * (malloc sets it), the builder returns NULL then, and these two delete an item their parent did not take. */
static void add_item(cJSON *parent, cJSON *item)
{
    if (!cJSON_AddItemToArray(parent, item)) {
        cJSON_Delete(item);
        errno = ENOMEM;
    }
}

static void add_member(cJSON *parent, const char *key, cJSON *item)
{
    if (!cJSON_AddItemToObject(parent, key, item)) {
        cJSON_Delete(item);
        errno = ENOMEM;
    }
}

// (object, key, value) => number, or null when not finite (JSON has no inf/NaN)
static void num(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

// (mask) => [[i, j], ...] of the terms q^i f^j (0-based, as in the "C" rows and columns)
static cJSON *terms(hy_kinfit_mask mask)
{
    cJSON *a = cJSON_CreateArray();
    for (int t = 0; a && t < HY_KINFIT_NTERMS; t++)
        if (mask >> t & 1) {
            int ij[2] = {t / HY_KIN_MAX, t % HY_KIN_MAX};
            add_item(a, cJSON_CreateIntArray(ij, 2));
        }
    return a;
}

static const char *status_name(int s)
{
    switch (s) {
    case HY_KINFIT_CAND_OK: return "ok";
    case HY_KINFIT_CAND_DIVERGED: return "diverged";
    case HY_KINFIT_CAND_NOT_ATTRACTING: return "not attracting";
    case HY_KINFIT_CAND_UNDERDETERMINED: return "underdetermined";
    case HY_KINFIT_CAND_STIFF: return "too stiff";
    default: return "unknown";
    }
}

static void add_lsq(cJSON *o, const char *key, const hy_kinfit_lsq *l)
{
    cJSON *s = cJSON_AddObjectToObject(o, key);
    if (!s)
        return;
    cJSON_AddNumberToObject(s, "unknowns", l->unknowns);
    cJSON_AddNumberToObject(s, "effective_rank", l->rank);
    num(s, "condition_number", l->cond);
    num(s, "residual_rms", l->resid_rms);
    cJSON_AddNumberToObject(s, "constrained_points", l->constrained);
}

static void add_score(cJSON *o, const char *key, const hy_kinfit_score *sc)
{
    cJSON *s = cJSON_AddObjectToObject(o, key);
    if (!s)
        return;
    num(s, "nrmse", sc->nrmse);
    num(s, "max_abs_error", sc->max_abs);
    num(s, "energy_measured", sc->energy_data);
    num(s, "energy_model", sc->energy_model);
}

static void add_loop(cJSON *o, const char *key, const hy_kinfit_loop *lp, double measured)
{
    cJSON *s = cJSON_AddObjectToObject(o, key);
    if (!s)
        return;
    double qr[2] = {lp->q_lo, lp->q_hi};
    add_member(s, "q_range", cJSON_CreateDoubleArray(qr, 2));
    cJSON_AddBoolToObject(s, "ok", lp->ok);
    num(s, "energy", lp->energy);
    num(s, "energy_first_cycle", lp->energy_first);
    if (isfinite(measured)) {
        num(s, "energy_measured", measured);
        num(s, "energy_ratio", lp->energy / measured);
    }
    cJSON_AddBoolToObject(s, "positive_area", lp->energy > 0);
    num(s, "closure", lp->closure);
    num(s, "f_at_q_max", lp->f_hi);
    num(s, "f_at_q_min", lp->f_lo);
}

// (result, options, source) => report object
cJSON *hy_kinfit_report(const hy_kinfit_result *r, const hy_kinfit_opts *o, const char *source)
{
    errno = 0;
    int two = r->spec.rule == HY_KIN_TWO_SET;
    cJSON *rep = cJSON_CreateObject();
    if (!rep)
        return NULL;
    cJSON_AddStringToObject(rep, "tool", "hyst fit kin");
    if (source)
        cJSON_AddStringToObject(rep, "data", source);
    cJSON_AddNumberToObject(rep, "samples", (double)r->n_samples);
    cJSON_AddStringToObject(rep, "rule", two ? "two-set" : "symmetric");

    cJSON *a = cJSON_AddObjectToObject(rep, "stage_a");
    if (a) {
        cJSON_AddStringToObject(a, "method", o->smooth == HY_KINFIT_SMOOTH_FD ? "finite differences"
                                             : o->smooth == HY_KINFIT_SMOOTH_AUTO ? "polynomial, degree by GCV"
                                                                                  : "polynomial, fixed degree");
        cJSON_AddStringToObject(a, "branches", o->branches == HY_KINFIT_BRANCHES_LIMIT ? "limit" : "all");
        cJSON_AddNumberToObject(a, "branches_used", (double)r->n_branches);
        cJSON_AddNumberToObject(a, "branches_skipped", (double)r->n_skipped);
        cJSON_AddNumberToObject(a, "points", (double)r->n_points);
        if (o->smooth != HY_KINFIT_SMOOTH_FD) {
            int deg[2] = {r->deg_min, r->deg_max};
            add_member(a, "degree_range", cJSON_CreateIntArray(deg, 2));
        }
    }

    cJSON *b = cJSON_AddObjectToObject(rep, "stage_b");
    if (b) {
        cJSON_AddStringToObject(b, "solver", "Householder QR of the scaled design, SVD of the reduced factor");
        num(b, "q_scale", r->q_s);
        num(b, "f_scale", r->f_s);
        num(b, "rcond", o->rcond);
        cJSON_AddBoolToObject(b, "attraction_constraint", o->constrain);
        num(b, "attraction_margin", o->attract_margin);
        add_lsq(b, two ? "loading" : "fit", &r->lsq_load);
        if (two)
            add_lsq(b, "unloading", &r->lsq_unload);
    }

    cJSON *ch = cJSON_AddObjectToObject(rep, "chosen");
    if (ch) {
        cJSON_AddNumberToObject(ch, "k", r->k_sel);
        cJSON_AddNumberToObject(ch, "m", r->m_sel);
        cJSON_AddBoolToObject(ch, "selected", !(o->k && o->m));
        add_member(ch, two ? "terms_loading" : "terms", terms(r->mask_load));
        add_member(ch, two ? "pruned_loading" : "pruned", terms(r->pruned_load));
        if (two) {
            add_member(ch, "terms_unloading", terms(r->mask_unload));
            add_member(ch, "pruned_unloading", terms(r->pruned_unload));
        }
    }

    cJSON *in = cJSON_AddObjectToObject(rep, "integrated");
    if (in) {
        add_score(in, "selected", &r->score_selected);
        add_score(in, "pruned", &r->score_pruned);
        add_score(in, "final", &r->score);
    }
    cJSON *rf = cJSON_AddObjectToObject(rep, "refinement");
    if (rf) {
        cJSON_AddBoolToObject(rf, "requested", o->refine);
        cJSON_AddBoolToObject(rf, "improved", r->refined);
        cJSON_AddNumberToObject(rf, "iterations", r->refine_iter);
        num(rf, "nrmse_before", r->score_pruned.nrmse);
        num(rf, "nrmse_after", r->score.nrmse);
    }

    cJSON *cl = cJSON_AddArrayToObject(rep, "candidates");
    for (size_t i = 0; cl && i < r->n_cand; i++) {
        const hy_kinfit_cand *c = &r->cand[i];
        cJSON *e = cJSON_CreateObject();
        if (!e)
            break;
        cJSON_AddNumberToObject(e, "k", c->k);
        cJSON_AddNumberToObject(e, "m", c->m);
        cJSON_AddNumberToObject(e, "terms", c->terms);
        cJSON_AddStringToObject(e, "status", status_name(c->status));
        num(e, "nrmse", c->score.nrmse);
        num(e, "condition_number", c->cond);
        cJSON_AddNumberToObject(e, "effective_rank", c->rank);
        num(e, "residual_rms", c->resid_rms);
        cJSON_AddNumberToObject(e, "constrained_points", c->constrained);
        add_item(cl, e);
    }

    const hy_kinfit_checks *k = &r->checks;
    cJSON *cc = cJSON_AddObjectToObject(rep, "checks");
    if (cc) {
        cJSON *at = cJSON_AddObjectToObject(cc, "attraction");
        if (at) {
            cJSON_AddBoolToObject(at, "ok", k->attract_ok);
            num(at, "max_rate", k->attract_max);
            num(at, "at_q", k->attract_q);
            num(at, "at_f", k->attract_f);
            cJSON_AddStringToObject(at, "direction", k->attract_s < 0 ? "unloading" : "loading");
            num(at, "fraction_attracting", k->attract_frac);
        }
        add_loop(cc, "steady_loop", &k->range, NAN);
        if (isfinite(k->cycle_energy_data))
            add_loop(cc, "largest_measured_cycle", &k->cycle, k->cycle_energy_data);
        double qr[2] = {k->q_min, k->q_max};
        add_member(cc, "q_range", cJSON_CreateDoubleArray(qr, 2));
    }
    cJSON *w = cJSON_AddArrayToObject(rep, "warnings");
    for (int i = 0; w && i < r->n_warnings; i++)
        add_item(w, cJSON_CreateString(r->warning[i]));
    if (errno == ENOMEM) { /* something is missing: no report rather than an incomplete one */
        cJSON_Delete(rep);
        return NULL;
    }
    return rep;
}

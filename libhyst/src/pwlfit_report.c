/* Step 5 of the table fit: the report as JSON (cJSON), written by `hyst fit pwl --report` and kept in the model
 * file under "fit". Layout in docs/formats.md (section fit-pwl). Non-finite figures are written as null. */
#include <errno.h>
#include <math.h>
#include <cjson/cJSON.h>
#include "hyst/pwlfit.h"

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

static const char *const side_name[2] = {"positive", "negative"};

static void num(cJSON *o, const char *k, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

static cJSON *num_array(const double *v, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < n; i++)
        add_item(a, isfinite(v[i]) ? cJSON_CreateNumber(v[i]) : cJSON_CreateNull());
    return a;
}

static cJSON *branch_json(const hy_pwlfit_branch_stats *b)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "samples", (double)b->n);
    num(o, "rms", b->rms);
    num(o, "max_abs", b->max_abs);
    num(o, "r2", b->r2);
    return o;
}

static const char *evidence(const hy_pwlfit_backlash_info *b, const hy_pwlfit_opts *o)
{
    if (o->backlash_mode == HY_PWLFIT_BACKLASH_GIVEN)
        return "given";
    return b->clear > 0 ? "clear" : b->clear < 0 ? "doubtful" : "none";
}

static const char *limit_rule_name(int rule)
{
    return rule == HY_PWLFIT_LIMIT_WIDENED ? "widened" : rule == HY_PWLFIT_LIMIT_GIVEN ? "given" : "default";
}

/* Which loops formed the side's limit loop and why: rows are 1-based samples, as in the `hyst loops` report;
 * "cycle" is the 1-based cycle of that report holding the loop's peak. */
static cJSON *limit_json(const hy_pwlfit_limit *lim)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "rule", limit_rule_name(lim->rule));
    num(o, "amp_tol", lim->amp_tol);
    num(o, "amplitude", lim->amplitude);
    num(o, "min_amplitude", (1.0 - lim->amp_tol) * lim->amplitude);
    if (lim->rule == HY_PWLFIT_LIMIT_WIDENED) {
        cJSON *d = cJSON_AddObjectToObject(o, "default");
        num(d, "amp_tol", lim->amp_tol0);
        cJSON_AddNumberToObject(d, "forward_samples", (double)lim->n_F0);
        cJSON_AddNumberToObject(d, "backward_samples", (double)lim->n_B0);
        cJSON_AddNumberToObject(d, "samples_needed", HY_PWLFIT_MIN_BRANCH);
    }
    cJSON *a = cJSON_AddArrayToObject(o, "loops");
    for (size_t k = 0; a && k < lim->n_loops; k++) {
        const hy_pwlfit_loop *lp = &lim->loops[k];
        cJSON *l = cJSON_CreateObject();
        if (lp->cycle == HY_LOOPS_NONE)
            cJSON_AddNullToObject(l, "cycle");
        else
            cJSON_AddNumberToObject(l, "cycle", (double)(lp->cycle + 1));
        cJSON_AddNumberToObject(l, "start_row", (double)(lp->i0 + 1));
        cJSON_AddNumberToObject(l, "peak_row", (double)(lp->i_peak + 1));
        cJSON_AddNumberToObject(l, "end_row", (double)(lp->i1 + 1));
        num(l, "amplitude", lp->amplitude);
        cJSON_AddNumberToObject(l, "forward_samples", (double)lp->n_F);
        cJSON_AddNumberToObject(l, "backward_samples", (double)lp->n_B);
        add_item(a, l);
    }
    return o;
}

// (result, options, source) => report object
cJSON *hy_pwlfit_report_json(const hy_pwlfit_result *r, const hy_pwlfit_opts *o, const char *source)
{
    errno = 0;
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON_AddStringToObject(root, "tool", "hyst fit pwl");
    cJSON_AddStringToObject(root, "source", source ? source : "");
    cJSON_AddNumberToObject(root, "samples", (double)r->n_points);
    num(root, "seconds", r->seconds);

    cJSON *op = cJSON_AddObjectToObject(root, "options");
    cJSON_AddStringToObject(op, "kind", o->kind == HY_PWL_FRICTION ? "friction" : "constant");
    if (o->segments_F) {
        cJSON *a = cJSON_AddArrayToObject(op, "segments");
        add_item(a, cJSON_CreateNumber(o->segments_F));
        add_item(a, cJSON_CreateNumber(o->segments_B));
    } else {
        cJSON_AddNullToObject(op, "segments");
    }
    if (o->tol > 0)
        cJSON_AddNumberToObject(op, "tol", o->tol);
    else
        cJSON_AddNullToObject(op, "tol");
    if (o->backlash_mode == HY_PWLFIT_BACKLASH_GIVEN)
        cJSON_AddNumberToObject(op, "backlash", o->backlash);
    else
        cJSON_AddStringToObject(op, "backlash", "auto");
    cJSON_AddBoolToObject(op, "symmetric", o->symmetric);
    num(op, "amp_tol", o->loops.amp_tol);
    cJSON_AddBoolToObject(op, "amp_tol_auto", o->amp_tol_auto);

    cJSON *sg = cJSON_AddObjectToObject(root, "segments");
    cJSON_AddStringToObject(sg, "why", r->segments_why);
    for (int s = 0; s < (o->symmetric ? 1 : 2); s++) {
        cJSON *ss = cJSON_AddObjectToObject(sg, o->symmetric ? "both" : side_name[s]);
        cJSON_AddNumberToObject(ss, "forward", r->side[s].nF - 1);
        cJSON_AddNumberToObject(ss, "backward", r->side[s].nB - 1);
        cJSON *tried = cJSON_AddArrayToObject(ss, "tried");
        for (int i = 0; i < r->n_tried[s]; i++) {
            cJSON *t = cJSON_CreateObject();
            cJSON_AddNumberToObject(t, "forward", r->tried[s][i].segments_F);
            cJSON_AddNumberToObject(t, "backward", r->tried[s][i].segments_B);
            num(t, "sse", r->tried[s][i].sse);
            num(t, "rms_max", r->tried[s][i].rms_max);
            num(t, "bic", r->tried[s][i].bic);
            add_item(tried, t);
        }
    }

    cJSON *sides = cJSON_AddObjectToObject(root, "sides");
    for (int s = 0; s < 2; s++) {
        const hy_pwlfit_side *sd = &r->side[s];
        const hy_pwlfit_backlash_info *bl = &r->backlash[s];
        cJSON *so = cJSON_AddObjectToObject(sides, side_name[s]);
        cJSON_AddBoolToObject(so, "mirrored", o->symmetric);
        cJSON_AddNumberToObject(so, "cycles", (double)r->cycles[s]);
        num(so, "amplitude", r->amp[s]);
        add_member(so, "limit_loop", limit_json(&r->limit[s]));
        cJSON *b = cJSON_AddObjectToObject(so, "backlash");
        num(b, "width", bl->b);
        num(b, "fitted", bl->b_fitted);
        cJSON_AddStringToObject(b, "evidence", evidence(bl, o));
        num(b, "delta_bic", bl->delta_bic);
        cJSON_AddNumberToObject(b, "samples_in_zone", (double)bl->n_zone);
        num(so, "k_beyond", sd->k_beyond);
        num(so, "k_max", sd->k_max);
        cJSON_AddNumberToObject(so, "segments_held_at_k_max", sd->ties);
        cJSON_AddNumberToObject(so, "points_B_held_on_F", sd->touches);
        add_member(so, "forward", branch_json(&sd->F));
        add_member(so, "backward", branch_json(&sd->B));
        num(so, "sse", sd->F.sse + sd->B.sse);
        num(so, "sse_global_search", sd->sse_dp);
        cJSON_AddNumberToObject(so, "refinement_sweeps", sd->sweeps);
        cJSON_AddNumberToObject(so, "least_squares_solves", (double)sd->evaluations);
    }
    if (o->kind == HY_PWL_FRICTION) {
        cJSON *fr = cJSON_AddObjectToObject(root, "friction");
        add_member(fr, "x_N", num_array(r->xN_drift, 2));
        cJSON_AddNumberToObject(fr, "slips", (double)r->slips);
    }

    cJSON *tr = cJSON_AddObjectToObject(root, "transition");
    for (int s = 0; s < 2; s++) {
        const hy_pwlfit_unloading *u = &r->unloading;
        cJSON *ts = cJSON_AddObjectToObject(tr, side_name[s]);
        num(ts, "k_max", r->side[s].k_max);
        cJSON *ui = cJSON_AddObjectToObject(ts, "unloading_inner");
        cJSON_AddNumberToObject(ui, "reversals", (double)u->n_inner[s]);
        num(ui, "median", u->k_inner[s]);
        num(ui, "min", u->k_inner_min[s]);
        num(ui, "max", u->k_inner_max[s]);
        cJSON *ul = cJSON_AddObjectToObject(ts, "unloading_limit");
        cJSON_AddNumberToObject(ul, "reversals", (double)u->n_limit[s]);
        num(ul, "median", u->k_limit[s]);
        cJSON_AddNumberToObject(ts, "reversals_unresolved", (double)u->n_unresolved[s]);
        num(ts, "ratio_k_max_to_inner", r->k_ratio[s]);
        num(ts, "ratio_k_max_to_limit", u->k_limit[s] > 0 ? r->side[s].k_max / u->k_limit[s] : NAN);
    }

    cJSON *rp = cJSON_AddObjectToObject(root, "replay");
    cJSON_AddBoolToObject(rp, "ran", r->replayed);
    if (r->replay_error[0])
        cJSON_AddStringToObject(rp, "error", r->replay_error);
    num(rp, "nrmse", r->nrmse);
    cJSON *en = cJSON_AddObjectToObject(rp, "energy_per_cycle");
    add_member(en, "data", num_array(r->energy_data, r->n_cycles));
    add_member(en, "model", num_array(r->energy_model, r->n_cycles));
    cJSON *rel = cJSON_AddArrayToObject(en, "relative_difference");
    for (size_t k = 0; k < r->n_cycles; k++) {
        double d = r->energy_data[k] != 0 ? (r->energy_model[k] - r->energy_data[k]) / fabs(r->energy_data[k]) : NAN;
        add_item(rel, isfinite(d) ? cJSON_CreateNumber(d) : cJSON_CreateNull());
    }
    cJSON *et = cJSON_AddObjectToObject(rp, "energy_total");
    num(et, "data", r->energy_total_data);
    num(et, "model", r->replayed ? r->energy_total_model : NAN);

    cJSON *w = cJSON_AddArrayToObject(root, "warnings");
    for (int i = 0; i < r->n_warn; i++)
        add_item(w, cJSON_CreateString(r->warn[i]));
    if (errno == ENOMEM) { /* something is missing: no report rather than an incomplete one */
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

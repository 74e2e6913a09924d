/* The kinds of a sweep plan beyond grids and Monte Carlo (docs/sweep.md "Plan kinds"; issue 43 items 2-4): Sobol'
 * indices (a Saltelli design, mech/sweep_sobol.h), Morris screening (trajectories, mech/sweep_morris.h), subset
 * simulation of a rare failure (mech/sweep_subset.h) and the qualification matrix (named cases x design variants,
 * checked against requirements). A plan is of one kind: two kinds in one plan are refused before any run, as are
 * requirements on unknown metrics and a failure definition that cannot be evaluated. Every run's values still
 * depend only on the plan and the run id (subset simulation: on the results of the earlier runs too, which are in
 * the journal), so tables are the same for any -j, any MPI ranks and after --resume. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/util.h"
#include "mech/dock.h"
#include "mech/sweep.h"
#include "mech/sweep_morris.h"
#include "mech/sweep_sobol.h"
#include "mech/sweep_subset.h"
#include "sweep_internal.h"

static const char *const kind_names[] = {"grid / Monte Carlo", "envelope", "sobol", "morris", "subset", "cases"};

const char *mech_sweep_kind_name(int kind)
{
    return kind >= 0 && kind <= MECH_SWEEP_KIND_QUAL ? kind_names[kind] : NULL;
}

static int bad(hy_err *err, const char *name, const char *key, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int bad(hy_err *err, const char *name, const char *key, const char *fmt, ...)
{
    char msg[HY_MSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return hy_err_set(err, HY_EPARSE, "%s: %s: %s", name, key, msg);
}

static int only_keys(hy_err *err, const char *name, const cJSON *o, const char *w, const char *const *known)
{
    for (const cJSON *it = o->child; it; it = it->next) {
        int ok = 0;
        for (int k = 0; known[k]; k++)
            ok |= strcmp(it->string, known[k]) == 0;
        if (!ok) {
            char list[512] = "";
            for (int k = 0; known[k]; k++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", known[k]);
            return bad(err, name, w, "unknown key '%s' (known: %s)", it->string, list);
        }
    }
    return HY_OK;
}

// (object, key, range, default) => an integer in [lo, hi] in *v; -1 when given and not such an integer
static int int_key(const cJSON *o, const char *key, double lo, double hi, double def, double *v)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!it) {
        *v = def;
        return 0;
    }
    if (!cJSON_IsNumber(it) || it->valuedouble < lo || it->valuedouble > hi || it->valuedouble != floor(it->valuedouble))
        return -1;
    *v = it->valuedouble;
    return 0;
}

static void metric_list(const mech_sweep_plan *p, char *buf, size_t len, int completed)
{
    mech_sweep_metric_list(p->sim, buf, len);
    if (completed)
        snprintf(buf + strlen(buf), len - strlen(buf), ", completed");
}

/* ---- Sobol', Morris, subset ------------------------------------------------------------------------------ */

static int read_failure(mech_sweep_plan *p, const cJSON *f, const char *name, hy_err *err)
{
    static const char *const known[] = {"metric", "above", "below", NULL};
    if (!cJSON_IsObject(f))
        return bad(err, name, "subset.failure", "expected {\"metric\": NAME, \"above\": LIMIT} (or \"below\")");
    if (only_keys(err, name, f, "subset.failure", known))
        return err->code;
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(f, "metric");
    char list[512];
    metric_list(p, list, sizeof list, 0);
    if (!cJSON_IsString(m) || (p->fail_metric = mech_sweep_metric_find(p->sim, m->valuestring)) < 0)
        return bad(err, name, "subset.failure.metric", "%s%s%s: expected a metric (%s)", m ? "\"" : "",
                   cJSON_IsString(m) ? m->valuestring : "missing", m ? "\"" : "", list);
    if (p->sim->metric[p->fail_metric].integer)
        return bad(err, name, "subset.failure.metric", "\"%s\" is a flag or a count: subset simulation needs a "
                   "continuous metric to set its intermediate failure levels%s", m->valuestring,
                   p->sim->id == MECH_SWEEP_SIM_DOCK ? " (for a capture failure use capture_time above the allowed "
                   "time: a run without a capture counts as failed)" : "");
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(f, "above"), *b = cJSON_GetObjectItemCaseSensitive(f, "below");
    if (!!a == !!b)
        return bad(err, name, "subset.failure", "give exactly one of \"above\" and \"below\" (the failure is the "
                   "metric above or below the limit)");
    const cJSON *l = a ? a : b;
    if (!cJSON_IsNumber(l) || !isfinite(l->valuedouble))
        return bad(err, name, a ? "subset.failure.above" : "subset.failure.below", "expected a finite number");
    p->fail_above = a != NULL, p->fail_limit = l->valuedouble;
    return HY_OK;
}

int mech_sweep__kind_parse(mech_sweep_plan *p, const cJSON *doc, const char *name, hy_err *err)
{
    static const char *const kinds[] = {"envelope", "sobol", "morris", "subset", NULL};
    const char *first = NULL;
    for (int k = 0; kinds[k]; k++) {
        if (!cJSON_GetObjectItemCaseSensitive(doc, kinds[k]))
            continue;
        if (first)
            return bad(err, name, kinds[k], "the plan is a %s plan already: a plan is of one kind (grid / Monte Carlo, "
                       "envelope, sobol, morris, subset, or cases); split it into two plans", first);
        first = kinds[k];
    }
    p->kind = MECH_SWEEP_KIND_PLAIN;
    if (!first || strcmp(first, "envelope") == 0)
        return HY_OK;
    char w[64];
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(doc, first);
    snprintf(w, sizeof w, "%s", first);
    if (!cJSON_IsObject(o))
        return bad(err, name, w, "expected an object of settings (docs/sweep.md \"Plan kinds\")");
    if (cJSON_GetObjectItemCaseSensitive(doc, "samples") || cJSON_GetObjectItemCaseSensitive(doc, "sampling"))
        return bad(err, name, cJSON_GetObjectItemCaseSensitive(doc, "samples") ? "samples" : "sampling",
                   "not used by a %s plan: its design makes its runs", first);
    for (int k = 0; k < p->nkey; k++)
        if (p->key[k].grid)
            return bad(err, name, w, "vary.%s is a grid: a %s plan needs every varied key a distribution", p->key[k].path,
                       first);
    int d = p->nkey;
    double v;
    if (strcmp(first, "sobol") == 0) {
        static const char *const known[] = {"N", "bootstrap", "level", NULL};
        if (only_keys(err, name, o, w, known))
            return err->code;
        p->kind = MECH_SWEEP_KIND_SOBOL;
        if (d > MECH_SOBOL_KEYS_MAX)
            return bad(err, name, w, "%d varied keys: Sobol' indices take at most %d (A and B are 2d dimensions of "
                       "the Sobol sequence)", d, MECH_SOBOL_KEYS_MAX);
        if (!cJSON_GetObjectItemCaseSensitive(o, "N") || int_key(o, "N", 2, 1 << 20, 0, &v))
            return bad(err, name, "sobol.N", "expected an integer 2..2^20 (the rows of A and B; a power of 2 keeps the "
                       "Sobol net property)");
        p->design_n = (long)v;
        if (int_key(o, "bootstrap", 0, 100000, 1000, &v))
            return bad(err, name, "sobol.bootstrap", "expected an integer 0..100000 (resamples)");
        p->bootstrap = (int)v;
        const cJSON *l = cJSON_GetObjectItemCaseSensitive(o, "level");
        p->level = 0.95;
        if (l && (!cJSON_IsNumber(l) || !(l->valuedouble >= 0.5 && l->valuedouble <= 0.999)))
            return bad(err, name, "sobol.level", "expected a confidence level 0.5..0.999");
        if (l)
            p->level = l->valuedouble;
    } else if (strcmp(first, "morris") == 0) {
        static const char *const known[] = {"trajectories", "levels", NULL};
        if (only_keys(err, name, o, w, known))
            return err->code;
        p->kind = MECH_SWEEP_KIND_MORRIS;
        if (!cJSON_GetObjectItemCaseSensitive(o, "trajectories") || int_key(o, "trajectories", 2, 100000, 0, &v))
            return bad(err, name, "morris.trajectories", "expected an integer 2..100000");
        p->design_n = (long)v;
        if (int_key(o, "levels", 4, 64, 4, &v) || (int)v % 2)
            return bad(err, name, "morris.levels", "expected an even integer 4..64");
        p->morris_levels = (int)v;
    } else {
        static const char *const known[] = {"n", "p0", "max_levels", "failure", NULL};
        if (only_keys(err, name, o, w, known))
            return err->code;
        p->kind = MECH_SWEEP_KIND_SUBSET;
        if (!cJSON_GetObjectItemCaseSensitive(o, "n") || int_key(o, "n", 20, 1000000, 0, &v))
            return bad(err, name, "subset.n", "expected an integer 20..1e6 (samples per level)");
        p->design_n = (long)v;
        const cJSON *q = cJSON_GetObjectItemCaseSensitive(o, "p0");
        p->p0 = 0.1;
        if (q && !cJSON_IsNumber(q))
            return bad(err, name, "subset.p0", "expected a number");
        if (q)
            p->p0 = q->valuedouble;
        if (int_key(o, "max_levels", 1, MECH_SUBSET_LEVELS_MAX, 6, &v))
            return bad(err, name, "subset.max_levels", "expected an integer 1..%d", MECH_SUBSET_LEVELS_MAX);
        p->max_levels = (int)v;
        mech_subset s;
        hy_err e2;
        if (mech_subset_init(&s, d, (size_t)p->design_n, p->p0, p->max_levels, 0, &e2) != HY_OK)
            return bad(err, name, "subset", "%s", e2.msg);
        mech_subset_free(&s);
        if (read_failure(p, cJSON_GetObjectItemCaseSensitive(o, "failure"), name, err) != HY_OK)
            return err->code;
        p->live_u = 1;
    }
    return HY_OK;
}

long mech_sweep__kind_samples(const mech_sweep_plan *p)
{
    switch (p->kind) {
    case MECH_SWEEP_KIND_SOBOL:
        return p->design_n * (p->nkey + 2);
    case MECH_SWEEP_KIND_MORRIS:
        return p->design_n * (p->nkey + 1);
    case MECH_SWEEP_KIND_SUBSET:
        return (long)mech_subset_max_evals((size_t)p->design_n, p->p0, p->max_levels);
    default:
        return 1;
    }
}

int mech_sweep__kind_sample(mech_sweep_plan *p, hy_err *err)
{
    switch (p->kind) {
    case MECH_SWEEP_KIND_SOBOL:
        return mech_sobol_design((size_t)p->design_n, p->ndist, p->seed, p->u, err);
    case MECH_SWEEP_KIND_MORRIS:
        return mech_morris_design((size_t)p->design_n, p->ndist, p->morris_levels, p->seed, p->u, NULL, err);
    case MECH_SWEEP_KIND_SUBSET:   /* the master fills each run's row as the levels go (the pool sends it) */
        for (long i = 0; i < p->nsample * p->ndist; i++)
            p->u[i] = 0.5;
        return HY_OK;
    default:
        return mech_sweep_sample(p->sampling, (size_t)p->nsample, p->ndist, p->seed, p->u, err);
    }
}

double mech_sweep_fail_g(const mech_sweep_plan *p, const double *m)
{
    double x = m[p->fail_metric];
    if (!isfinite(x))
        return NAN;
    return p->fail_above ? p->fail_limit - x : x - p->fail_limit;
}

/* ---- the qualification matrix ---------------------------------------------------------------------------- */

double mech_sweep_req_margin(const mech_sweep_plan *p, int k, const double *m, int failed)
{
    const struct mech_sweep_req *q = &p->req[k];
    if (q->metric == MECH_SWEEP_REQ_COMPLETED)
        return failed ? -1 : 0;
    double x = m[q->metric];
    if (!isfinite(x))
        return NAN;
    return q->max ? q->limit - x : x - q->limit;
}

const char *mech_sweep_run_scenario(const mech_sweep_plan *p, long run, const char **dir)
{
    if (p->kind == MECH_SWEEP_KIND_QUAL) {
        int v = (int)(run % p->nvar);
        *dir = p->var_dir[v];
        return p->var_scenario[v];
    }
    *dir = p->scen_dir;
    return p->scenario;
}

// (plan, case c, variant v) => the run's scenario tree (the variant's base with the case's keys set)
static cJSON *qual_tree(const mech_sweep_plan *p, int c, int v, char *why, size_t len)
{
    cJSON *t = cJSON_Duplicate(p->var_base[v], 1);
    if (!t) {
        snprintf(why, len, "out of memory");
        return NULL;
    }
    const cJSON *set = cJSON_GetObjectItemCaseSensitive(p->case_set[c], "set");
    for (const cJSON *it = set ? set->child : NULL; it; it = it->next) {
        char w[256];
        if (mech_sweep__tree_set(t, it->string, cJSON_Duplicate(it, 1), w, sizeof w) != 0) {
            snprintf(why, len, "%s: %s", it->string, w);
            cJSON_Delete(t);
            return NULL;
        }
    }
    return t;
}

char *mech_sweep__qual_scenario(const mech_sweep_plan *p, long run, hy_err *err)
{
    char why[300];
    cJSON *t = qual_tree(p, (int)(run / p->nvar), (int)(run % p->nvar), why, sizeof why);
    if (!t) {
        hy_err_set(err, HY_EPARSE, "%s", why);
        return NULL;
    }
    char *txt = cJSON_PrintUnformatted(t);
    cJSON_Delete(t);
    if (!txt)
        hy_err_set(err, HY_ENOMEM, "out of memory");
    return txt;
}

// (plan, variant v, its path as written, plan folder, "set") => the variant's base tree, read and with "set" applied
static int read_variant(mech_sweep_plan *p, int v, const char *given, const char *pdir, const cJSON *set,
                        const char *name, const char *w, hy_err *err)
{
    char rel[8192];
    if (given[0] == '/' || !pdir[0])
        snprintf(rel, sizeof rel, "%s", given);
    else
        snprintf(rel, sizeof rel, "%s/%s", pdir, given);
    if (!realpath(rel, p->var_scenario[v]))
        return bad(err, name, w, "%s: %s", rel, strerror(errno));
    hy_path_dir(p->var_scenario[v], p->var_dir[v], sizeof p->var_dir[v]);
    char *st;
    size_t sn;
    const char *stop = NULL;
    if (hy_read_text(p->var_scenario[v], "a scenario file (JSON)", 0, &st, &sn, err) != HY_OK)
        return err->code;
    p->hash = mech_sweep__fnv(p->hash, st, sn);
    p->var_base[v] = cJSON_ParseWithLengthOpts(st, sn, &stop, 0);
    if (!p->var_base[v] || !cJSON_IsObject(p->var_base[v])) {
        int rc = hy_json_parse_error(err, hy_display_name(p->var_scenario[v]), st, sn, p->var_base[v] ? st : stop,
                                     CJSON_NESTING_LIMIT, "a scenario object");
        free(st);
        cJSON_Delete(p->var_base[v]);   /* (not counted in nvar yet: mech_sweep_plan_free would not free it) */
        p->var_base[v] = NULL;
        return rc;
    }
    free(st);
    if (mech_sweep__sim_of(p, name, p->var_base[v], p->var_scenario[v], err) != HY_OK) {
        cJSON_Delete(p->var_base[v]);
        p->var_base[v] = NULL;
        return err->code;
    }
    for (const cJSON *it = set ? set->child : NULL; it; it = it->next) {
        char why[256];
        if (mech_sweep__tree_set(p->var_base[v], it->string, cJSON_Duplicate(it, 1), why, sizeof why) != 0) {
            cJSON_Delete(p->var_base[v]);
            p->var_base[v] = NULL;
            return bad(err, name, "set", "%s: %s", it->string, why);
        }
    }
    return HY_OK;
}

// (tree, variant) => parsed by the plan's simulator's parser with its files read (issue 42 N16: hashed, checked by
// each run)
static int check_run(const mech_sweep_plan *p, int v, const cJSON *t, hy_err *err)
{
    char *txt = cJSON_PrintUnformatted(t);
    if (!txt)
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    int rc = mech_sweep__sim_check(p, txt, hy_display_name(p->var_scenario[v]), p->var_dir[v], 1, err);
    free(txt);
    return rc;
}

static int read_requirements(mech_sweep_plan *p, const cJSON *rq, const char *name, hy_err *err)
{
    char list[512];
    metric_list(p, list, sizeof list, 1);
    if (!cJSON_IsObject(rq) || !rq->child)
        return bad(err, name, "requirements", "expected an object: metric -> {\"max\": LIMIT} or {\"min\": LIMIT}, "
                   "\"completed\": true");
    for (const cJSON *it = rq->child; it; it = it->next) {
        char w[128];
        snprintf(w, sizeof w, "requirements.%s", it->string);
        if (p->nreq == MECH_SWEEP_REQ_MAX)
            return bad(err, name, "requirements", "more than %d", MECH_SWEEP_REQ_MAX);
        struct mech_sweep_req *q = &p->req[p->nreq];
        if (strcmp(it->string, "completed") == 0) {
            if (!cJSON_IsTrue(it))
                return bad(err, name, w, "expected true (the run ends without failing)");
            q->metric = MECH_SWEEP_REQ_COMPLETED, q->max = 0, q->limit = 0;
            p->nreq++;
            continue;
        }
        if ((q->metric = mech_sweep_metric_find(p->sim, it->string)) < 0)
            return bad(err, name, w, "unknown metric (known: %s)", list);
        static const char *const known[] = {"max", "min", NULL};
        if (!cJSON_IsObject(it))
            return bad(err, name, w, "expected {\"max\": LIMIT} or {\"min\": LIMIT}");
        if (only_keys(err, name, it, w, known))
            return err->code;
        const cJSON *mx = cJSON_GetObjectItemCaseSensitive(it, "max"), *mn = cJSON_GetObjectItemCaseSensitive(it, "min");
        if (!!mx == !!mn)
            return bad(err, name, w, "give exactly one of \"max\" and \"min\"");
        const cJSON *l = mx ? mx : mn;
        if (!cJSON_IsNumber(l) || !isfinite(l->valuedouble))
            return bad(err, name, w, "%s: expected a finite number in %s", mx ? "max" : "min",
                       p->sim->metric[q->metric].unit[0] ? p->sim->metric[q->metric].unit : "the metric's unit");
        q->max = mx != NULL, q->limit = l->valuedouble;
        p->nreq++;
    }
    return HY_OK;
}

int mech_sweep__qual_parse(mech_sweep_plan *p, const char *name, int force, const char *text, size_t len, hy_err *err)
{
    const cJSON *doc = p->doc;
    static const char *const other[] = {"vary", "derive", "samples", "sampling", "envelope", "sobol", "morris", "subset",
                                        "figure", "keep", "seed", NULL};
    for (int k = 0; other[k]; k++)
        if (cJSON_GetObjectItemCaseSensitive(doc, other[k]))
            return bad(err, name, other[k], "a qualification plan (\"cases\") has no %s: a plan is of one kind; split "
                       "it into two plans", other[k]);
    p->kind = MECH_SWEEP_KIND_QUAL;
    p->hash = mech_sweep__fnv(0xcbf29ce484222325ULL, text, len);
    char pdir[4096];
    hy_path_dir(p->path, pdir, sizeof pdir);
    const cJSON *set = cJSON_GetObjectItemCaseSensitive(doc, "set");
    if (set && !cJSON_IsObject(set))
        return bad(err, name, "set", "expected an object of dotted key paths and values");
    /* the design variants: {"A": "s5-A.json", ...}, or the one "scenario" */
    const cJSON *vs = cJSON_GetObjectItemCaseSensitive(doc, "variants"), *sc = cJSON_GetObjectItemCaseSensitive(doc, "scenario");
    if (vs && sc)
        return bad(err, name, "scenario", "give \"variants\" (name -> scenario file) or one \"scenario\", not both");
    if (vs) {
        if (!cJSON_IsObject(vs) || !vs->child)
            return bad(err, name, "variants", "expected an object: variant name -> scenario file");
        for (const cJSON *it = vs->child; it; it = it->next) {
            char w[128];
            snprintf(w, sizeof w, "variants.%s", it->string);
            if (p->nvar == MECH_SWEEP_VARIANTS_MAX)
                return bad(err, name, "variants", "more than %d", MECH_SWEEP_VARIANTS_MAX);
            if (!it->string[0] || strlen(it->string) >= sizeof p->var_name[0])
                return bad(err, name, w, "a name of 1..%zu characters expected", sizeof p->var_name[0] - 1);
            if (!cJSON_IsString(it) || !it->valuestring[0])
                return bad(err, name, w, "expected the path of a scenario file");
            snprintf(p->var_name[p->nvar], sizeof p->var_name[0], "%s", it->string);
            if (read_variant(p, p->nvar, it->valuestring, pdir, set, name, w, err) != HY_OK)
                return err->code;
            p->nvar++;
        }
    } else {
        if (!cJSON_IsString(sc) || !sc->valuestring[0])
            return bad(err, name, "scenario", "expected the path of a scenario file (or \"variants\")");
        if (read_variant(p, 0, sc->valuestring, pdir, set, name, "scenario", err) != HY_OK)
            return err->code;
        const cJSON *vn = cJSON_GetObjectItemCaseSensitive(p->var_base[0], "variant");
        snprintf(p->var_name[0], sizeof p->var_name[0], "%s", cJSON_IsString(vn) ? vn->valuestring : "base");
        p->nvar = 1;
    }
    snprintf(p->scenario, sizeof p->scenario, "%s", p->var_scenario[0]);
    snprintf(p->scen_dir, sizeof p->scen_dir, "%s", p->var_dir[0]);
    /* the cases: {"NAME": {"basis": "why this case", "set": {key: value}}} */
    const cJSON *cs = cJSON_GetObjectItemCaseSensitive(doc, "cases");
    if (!cJSON_IsObject(cs) || !cs->child)
        return bad(err, name, "cases", "expected an object: case name -> {\"basis\": TEXT, \"set\": {key: value}}");
    for (const cJSON *it = cs->child; it; it = it->next) {
        static const char *const known[] = {"basis", "set", NULL};
        char w[128];
        snprintf(w, sizeof w, "cases.%.100s", it->string);
        if (p->ncase == MECH_SWEEP_CASES_MAX)
            return bad(err, name, "cases", "more than %d", MECH_SWEEP_CASES_MAX);
        if (!it->string[0] || strlen(it->string) >= sizeof p->case_name[0])
            return bad(err, name, w, "a name of 1..%zu characters expected", sizeof p->case_name[0] - 1);
        for (int c = 0; c < p->ncase; c++)
            if (strcmp(p->case_name[c], it->string) == 0)
                return bad(err, name, w, "given twice");
        if (!cJSON_IsObject(it))
            return bad(err, name, w, "expected {\"basis\": TEXT, \"set\": {key: value}}");
        if (only_keys(err, name, it, w, known))
            return err->code;
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(it, "basis"), *s = cJSON_GetObjectItemCaseSensitive(it, "set");
        if (!cJSON_IsString(b) || !b->valuestring[0])
            return bad(err, name, w, "\"basis\": expected the reason for this case (the spec's scenario or envelope "
                       "corner it stands for)");
        if (s && !cJSON_IsObject(s))
            return bad(err, name, w, "\"set\": expected an object of dotted key paths and values");
        snprintf(p->case_name[p->ncase], sizeof p->case_name[0], "%s", it->string);
        p->case_set[p->ncase++] = (cJSON *)it;
    }
    if (read_requirements(p, cJSON_GetObjectItemCaseSensitive(doc, "requirements"), name, err) != HY_OK)
        return err->code;
    const cJSON *mr = cJSON_GetObjectItemCaseSensitive(doc, "max_runs");
    p->max_runs = 10000;
    if (mr) {
        if (!cJSON_IsNumber(mr) || mr->valuedouble < 1 || mr->valuedouble > 1e12)
            return bad(err, name, "max_runs", "expected an integer >= 1");
        p->max_runs = (long)mr->valuedouble;
    }
    /* the table's first two columns: the case and the variant */
    p->nkey = 2;
    snprintf(p->key[0].path, sizeof p->key[0].path, "case");
    snprintf(p->key[1].path, sizeof p->key[1].path, "variant");
    p->key[0].label = p->key[1].label = 1;
    p->key[0].grid = p->key[1].grid = 1;
    p->key[0].n = p->ncase, p->key[1].n = p->nvar;
    p->ngrid = (long)p->ncase * p->nvar, p->nsample = 1, p->nrun = p->ngrid;
    p->fig_x = p->fig_y = -1;
    p->keep_metric = p->sim->peak;
    if (p->nrun > p->max_runs && !force)
        return bad(err, name, "max_runs", "the plan makes %ld runs, more than max_runs = %ld: raise max_runs or pass "
                   "--force", p->nrun, p->max_runs);
    /* every case in every variant through the dock parser, before any run */
    for (int c = 0; c < p->ncase; c++)
        for (int v = 0; v < p->nvar; v++) {
            char why[300];
            cJSON *t = qual_tree(p, c, v, why, sizeof why);
            if (!t)
                return bad(err, name, "cases", "%s.set.%s", p->case_name[c], why);
            int rc = check_run(p, v, t, err);
            cJSON_Delete(t);
            if (rc != HY_OK) {
                char msg[HY_MSG_LEN];
                snprintf(msg, sizeof msg, "%s", err->msg);
                return hy_err_set(err, HY_EPARSE, "%s: cases.%s (variant %s): %s", name, p->case_name[c],
                                  p->var_name[v], msg);
            }
        }
    for (int k = 0; k < p->nfile; k++) {   /* in the plan's hash: --resume over a replaced law file is refused */
        p->hash = mech_sweep__fnv(p->hash, p->files[k].key, strlen(p->files[k].key));
        p->hash = mech_sweep__fnv(p->hash, (const char *)&p->files[k].hash, sizeof p->files[k].hash);
    }
    return HY_OK;
}

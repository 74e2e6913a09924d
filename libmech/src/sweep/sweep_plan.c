/* The "mech-sweep" plan reader (docs/sweep.md §Plan). Each varied key is checked before any run by the scenario
 * parser itself: the base scenario with the key set to each grid value, or to the extreme values of its
 * distribution, is printed and parsed by mech_dock_config_parse, so an unknown key path, a value of the wrong type
 * or out of the key's range is refused with the parser's message, prefixed by the plan file and the key. */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/util.h"
#include "mech/dock.h"
#include "mech/sweep.h"
#include "sweep_internal.h"

static const char *const metric_name[MECH_SWEEP_NMETRIC] = {
    "captured", "capture_time", "cone_contacts", "peak_axial", "peak_lateral", "peak_limiter", "stroke_max",
    "swing_max", "e_initial", "e_residual_max", "steps", "tilt_max", "tilt_end", "roll_closed", "latch_roll_closed",
    "latches_closed", "latches_all_time", "limiter_clearance", "limiter_lead", "frt1_pusher_share", "t_closed"};
static const char *const metric_unit[MECH_SWEEP_NMETRIC] = {"", "s", "", "N", "N", "N", "m", "rad", "J", "J", "",
                                                            "rad", "rad", "rad", "rad", "", "s", "m", "s", "", "s"};

const char *mech_sweep_metric_name(int m)
{
    return m >= 0 && m < MECH_SWEEP_NMETRIC ? metric_name[m] : NULL;
}

const char *mech_sweep_metric_unit(int m)
{
    return m >= 0 && m < MECH_SWEEP_NMETRIC ? metric_unit[m] : NULL;
}

int mech_sweep_metric_find(const char *name)
{
    for (int m = 0; m < MECH_SWEEP_NMETRIC; m++)
        if (strcmp(name, metric_name[m]) == 0)
            return m;
    return -1;
}

uint64_t mech_sweep__fnv(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
    return h;
}

/* ---- the scenario tree --------------------------------------------------------------------------------- */

/* (tree, dotted path, value (consumed)) => set; objects on the way are created, an array component is an index
 * that must exist. -1 with a reason in why when the path cannot be followed. */
int mech_sweep__tree_set(cJSON *root, const char *path, cJSON *val, char *why, size_t len)
{
    char buf[MECH_SWEEP_KEY_LEN];
    snprintf(buf, sizeof buf, "%s", path);
    cJSON *node = root;
    char *save = NULL;
    char *tok = strtok_r(buf, ".", &save);
    while (tok) {
        char *next = strtok_r(NULL, ".", &save);
        if (cJSON_IsArray(node)) {
            char *end;
            long i = strtol(tok, &end, 10);
            if (*end || i < 0 || i >= cJSON_GetArraySize(node)) {
                snprintf(why, len, "'%s' is not an index of that array (0..%d)", tok, cJSON_GetArraySize(node) - 1);
                cJSON_Delete(val);
                return -1;
            }
            if (!next) {
                cJSON_ReplaceItemInArray(node, (int)i, val);
                return 0;
            }
            node = cJSON_GetArrayItem(node, (int)i);
        } else if (cJSON_IsObject(node)) {
            cJSON *c = cJSON_GetObjectItemCaseSensitive(node, tok);
            if (!next) {
                if (c)
                    cJSON_ReplaceItemInObjectCaseSensitive(node, tok, val);
                else
                    cJSON_AddItemToObject(node, tok, val);
                return 0;
            }
            if (!c)
                c = cJSON_AddObjectToObject(node, tok);
            node = c;
        } else {
            snprintf(why, len, "'%s' is inside a value that is neither an object nor an array", tok);
            cJSON_Delete(val);
            return -1;
        }
        tok = next;
    }
    cJSON_Delete(val);
    snprintf(why, len, "empty key path");
    return -1;
}

static cJSON *value_item(double x, const char *s)
{
    return s ? cJSON_CreateString(s) : hy_json_exact_number(x);
}

/* (tree with the values set) => parsed (and, with load, its model files read and added to the plan's files with
 * their hashes: mech_sweep_files_add, issue 42 N16) by the dock scenario parser */
static int check_tree(const mech_sweep_plan *p, const cJSON *t, int load, hy_err *err)
{
    char *txt = cJSON_PrintUnformatted(t);
    if (!txt)
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    mech_dock_config c;
    mech_dock_config_default(&c);
    int rc = mech_dock_config_parse(txt, strlen(txt), hy_display_name(p->scenario), p->scen_dir, &c, err);
    free(txt);
    if (rc == HY_OK && load)
        rc = mech_dock_config_load(&c, hy_display_name(p->scenario), err);
    if (rc == HY_OK && load)   /* the plan is still being read: its file list grows here (the cast is that) */
        rc = mech_sweep_files_add((mech_sweep_plan *)p, &c, err);
    mech_dock_config_free(&c);
    return rc;
}

/* ---- reading -------------------------------------------------------------------------------------------- */

typedef struct rd {
    const char *name;   /* plan display name */
    hy_err *err;
} rd;

static int bad(const rd *r, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(const rd *r, const char *key, const char *fmt, ...)
{
    char msg[HY_MSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return hy_err_set(r->err, HY_EPARSE, "%s: %s: %s", r->name, key, msg);
}

static int num(const rd *r, const cJSON *o, const char *key, const char *w, double *v)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
        return bad(r, w, "'%s': expected a finite number", key);
    *v = it->valuedouble;
    return HY_OK;
}

static int check_keys(const rd *r, const cJSON *o, const char *w, const char *const *known)
{
    for (const cJSON *it = o->child; it; it = it->next) {
        int ok = 0;
        for (int k = 0; known[k]; k++)
            ok |= strcmp(it->string, known[k]) == 0;
        if (!ok) {
            char list[512] = "";
            for (int k = 0; known[k]; k++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", known[k]);
            return bad(r, w, "unknown key '%s' (known: %s)", it->string, list);
        }
    }
    return HY_OK;
}

static int read_grid(const rd *r, const cJSON *g, const char *w, mech_sweep_key *k)
{
    if (cJSON_IsArray(g)) {
        int n = cJSON_GetArraySize(g);
        if (n < 1)
            return bad(r, w, "grid: expected at least one value");
        if (cJSON_IsString(g->child)) {   /* a grid of strings (law files): the values stay in the plan's tree */
            int i = 0;
            for (const cJSON *it = g->child; it; it = it->next, i++)
                if (!cJSON_IsString(it))
                    return bad(r, w, "grid[%d]: expected a string, as grid[0] (a grid is all numbers or all strings)",
                               i);
            k->n = n;
            k->choice = (cJSON *)g;
            return HY_OK;
        }
        k->values = malloc((size_t)n * sizeof *k->values);
        if (!k->values)
            return hy_err_set(r->err, HY_ENOMEM, "out of memory");
        k->n = n;
        int i = 0;
        for (const cJSON *it = g->child; it; it = it->next, i++) {
            if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
                return bad(r, w, "grid[%d]: expected a finite number%s", i,
                           cJSON_IsString(it) ? ", as grid[0] (a grid is all numbers or all strings)" : "");
            k->values[i] = it->valuedouble;
        }
        return HY_OK;
    }
    if (!cJSON_IsObject(g))
        return bad(r, w, "grid: expected an array of values or {\"start\", \"stop\", \"count\", \"scale\"}");
    static const char *const known[] = {"start", "stop", "count", "scale", NULL};
    if (check_keys(r, g, w, known) != HY_OK)
        return r->err->code;
    double a = 0, b = 0, cnt = 0;
    if (num(r, g, "start", w, &a) || num(r, g, "stop", w, &b) || num(r, g, "count", w, &cnt))
        return r->err->code;
    if (cnt < 1 || cnt > 1e6 || cnt != floor(cnt))
        return bad(r, w, "grid.count = %g: expected an integer 1..1000000", cnt);
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(g, "scale");
    int lg = 0;
    if (sc) {
        if (!cJSON_IsString(sc) || (strcmp(sc->valuestring, "linear") && strcmp(sc->valuestring, "log")))
            return bad(r, w, "grid.scale: expected \"linear\" or \"log\"");
        lg = strcmp(sc->valuestring, "log") == 0;
    }
    if (lg && !(a > 0 && b > 0))
        return bad(r, w, "grid: a log scale needs start and stop > 0 (got %g, %g)", a, b);
    if (!isfinite(b - a))   /* N27: the steps (stop - start) / (count - 1) would be infinite, the values NaN */
        return bad(r, w, "grid: stop - start = %g - (%g) overflows a double: expected a span below %g", b, a,
                   DBL_MAX);
    k->n = (int)cnt;
    k->values = malloc((size_t)k->n * sizeof *k->values);
    if (!k->values)
        return hy_err_set(r->err, HY_ENOMEM, "out of memory");
    for (int i = 0; i < k->n; i++) {
        double f = k->n > 1 ? (double)i / (k->n - 1) : 0;
        k->values[i] = lg ? exp(log(a) + f * (log(b) - log(a))) : a + f * (b - a);
        /* to 15 digits: 0.1 .. 0.2 in 3 gives 0.15, not 0.15000000000000002 (the table shows what was meant) */
        char t[40];
        snprintf(t, sizeof t, "%.15g", k->values[i]);
        k->values[i] = strtod(t, NULL);
    }
    return HY_OK;
}

static int read_dist(const rd *r, const cJSON *o, const char *w, mech_sweep_key *k)
{
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(o, "dist");
    if (!cJSON_IsString(d))
        return bad(r, w, "expected \"grid\" or \"dist\" (uniform, normal, truncated_normal, lognormal, choice)");
    const char *n = d->valuestring;
    mech_sweep_dist_p *p = &k->dist;
    if (strcmp(n, "uniform") == 0) {
        static const char *const known[] = {"dist", "min", "max", NULL};
        p->kind = MECH_SWEEP_UNIFORM;
        if (check_keys(r, o, w, known) || num(r, o, "min", w, &p->a) || num(r, o, "max", w, &p->b))
            return r->err->code;
        if (!(p->b > p->a))
            return bad(r, w, "uniform: expected min < max (got %g, %g)", p->a, p->b);
        if (!isfinite(p->b - p->a))   /* N27: min + u (max - min) would be infinite */
            return bad(r, w, "uniform: max - min = %g - (%g) overflows a double: expected a span below %g", p->b,
                       p->a, DBL_MAX);
    } else if (strcmp(n, "normal") == 0 || strcmp(n, "truncated_normal") == 0) {
        static const char *const known[] = {"dist", "mean", "sd", NULL};
        static const char *const known_t[] = {"dist", "mean", "sd", "min", "max", NULL};
        int tr = n[0] == 't';
        p->kind = tr ? MECH_SWEEP_TNORMAL : MECH_SWEEP_NORMAL;
        if (check_keys(r, o, w, tr ? known_t : known) || num(r, o, "mean", w, &p->a) || num(r, o, "sd", w, &p->b))
            return r->err->code;
        if (!(p->b > 0))
            return bad(r, w, "%s: sd = %g: expected > 0", n, p->b);
        /* N27: u has 53 bits, so |Phi^-1(u)| < 8.3: mean +- 8.3 sd must be finite */
        if (!isfinite(p->a + 8.3 * p->b) || !isfinite(p->a - 8.3 * p->b))
            return bad(r, w, "%s: mean %g +- 8.3 sd (sd = %g) overflows a double: expected a smaller sd", n, p->a, p->b);
        if (tr) {
            if (num(r, o, "min", w, &p->lo) || num(r, o, "max", w, &p->hi))
                return r->err->code;
            if (!(p->hi > p->lo))
                return bad(r, w, "truncated_normal: expected min < max (got %g, %g)", p->lo, p->hi);
            /* the interval must keep some probability: both bounds within 30 sd on the same far side is empty */
            if ((p->lo - p->a) / p->b > 30 || (p->hi - p->a) / p->b < -30)
                return bad(r, w, "truncated_normal: [%g, %g] lies more than 30 sd from the mean %g", p->lo, p->hi,
                           p->a);
        }
    } else if (strcmp(n, "lognormal") == 0) {
        static const char *const known[] = {"dist", "median", "sigma", NULL};
        double med = 0;
        p->kind = MECH_SWEEP_LOGNORMAL;
        if (check_keys(r, o, w, known) || num(r, o, "median", w, &med) || num(r, o, "sigma", w, &p->b))
            return r->err->code;
        if (!(med > 0) || !(p->b > 0))
            return bad(r, w, "lognormal: expected median > 0 and sigma > 0 (got %g, %g)", med, p->b);
        p->a = log(med);
        if (!isfinite(exp(p->a + 8.3 * p->b)) || !(exp(p->a - 8.3 * p->b) > 0))   /* N27, as the normal */
            return bad(r, w, "lognormal: median %g x exp(+-8.3 sigma) (sigma = %g) leaves the doubles (0, %g): "
                       "expected a smaller sigma", med, p->b, DBL_MAX);
    } else if (strcmp(n, "choice") == 0) {
        static const char *const known[] = {"dist", "values", "weights", NULL};
        p->kind = MECH_SWEEP_CHOICE;
        if (check_keys(r, o, w, known))
            return r->err->code;
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "values");
        const cJSON *wt = cJSON_GetObjectItemCaseSensitive(o, "weights");
        int nv = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : 0;
        if (nv < 1 || nv > MECH_SWEEP_CHOICE_MAX)
            return bad(r, w, "choice: values: expected an array of 1..%d numbers or strings", MECH_SWEEP_CHOICE_MAX);
        for (const cJSON *it = v->child; it; it = it->next)
            if (!(cJSON_IsNumber(it) && isfinite(it->valuedouble)) && !cJSON_IsString(it))
                return bad(r, w, "choice: values: expected numbers or strings");
        if (wt && (!cJSON_IsArray(wt) || cJSON_GetArraySize(wt) != nv))
            return bad(r, w, "choice: weights: expected an array of %d numbers (one per value)", nv);
        double sum = 0;
        for (int i = 0; i < nv; i++) {
            double x = 1;
            if (wt) {
                const cJSON *it = cJSON_GetArrayItem(wt, i);
                if (!cJSON_IsNumber(it) || !(it->valuedouble >= 0) || !isfinite(it->valuedouble))
                    return bad(r, w, "choice: weights[%d]: expected a finite number >= 0", i);
                x = it->valuedouble;
            }
            sum += x;
            p->cum[i] = sum;
        }
        if (!(sum > 0))
            return bad(r, w, "choice: weights: expected a positive sum");
        for (int i = 0; i < nv; i++)
            p->cum[i] /= sum;
        p->cum[nv - 1] = 1;
        p->n = nv;
        k->choice = (cJSON *)v;
    } else {
        return bad(r, w, "dist: unknown distribution '%s' (uniform, normal, truncated_normal, lognormal, choice)", n);
    }
    return HY_OK;
}

/* ---- derived keys: + - * / ( ) unary -, numbers, and the numeric varied keys by their path -------------------- */
typedef struct ex {
    const mech_sweep_plan *p;
    long run;          /* < 0: only check the syntax and the names */
    const char *s;
    char why[160];
} ex;

static double ex_sum(ex *e);

static void ex_space(ex *e)
{
    while (*e->s == ' ')
        e->s++;
}

static double ex_atom(ex *e)
{
    ex_space(e);
    if (*e->s == '(') {
        e->s++;
        double v = ex_sum(e);
        ex_space(e);
        if (*e->s != ')' && !e->why[0])
            snprintf(e->why, sizeof e->why, "expected ')' at '%.20s'", e->s);
        else
            e->s++;
        return v;
    }
    if (*e->s == '-') {
        e->s++;
        return -ex_atom(e);
    }
    if ((*e->s >= '0' && *e->s <= '9') || *e->s == '.') {
        char *end;
        double v = strtod(e->s, &end);
        e->s = end;
        return v;
    }
    const char *b = e->s;
    while ((*e->s >= 'a' && *e->s <= 'z') || (*e->s >= 'A' && *e->s <= 'Z') || (*e->s >= '0' && *e->s <= '9') ||
           *e->s == '_' || *e->s == '.')
        e->s++;
    size_t n = (size_t)(e->s - b);
    for (int k = 0; n && k < e->p->nkey; k++)
        if (strlen(e->p->key[k].path) == n && strncmp(e->p->key[k].path, b, n) == 0) {
            const mech_sweep_key *key = &e->p->key[k];
            if (key->choice)   /* a choice or a grid of strings */
                for (const cJSON *it = key->choice->child; it; it = it->next)
                    if (!cJSON_IsNumber(it) && !e->why[0])
                        snprintf(e->why, sizeof e->why, "%s has string values", key->path);
            if (e->run < 0)
                return 1;
            double x;
            const char *str;
            mech_sweep_plan_value(e->p, e->run, k, &x, &str);
            return x;
        }
    if (!e->why[0] && n)
        snprintf(e->why, sizeof e->why, "'%.*s' is not a varied key", (int)(n < 100 ? n : 100), b);
    else if (!e->why[0])
        snprintf(e->why, sizeof e->why, "expected a number, a varied key or '(' at '%.20s'", b);
    return NAN;
}

static double ex_prod(ex *e)
{
    double v = ex_atom(e);
    for (;;) {
        ex_space(e);
        char op = *e->s;
        if (op != '*' && op != '/')
            return v;
        e->s++;
        double w = ex_atom(e);
        v = op == '*' ? v * w : v / w;
    }
}

static double ex_sum(ex *e)
{
    double v = ex_prod(e);
    for (;;) {
        ex_space(e);
        char op = *e->s;
        if (op != '+' && op != '-')
            return v;
        e->s++;
        double w = ex_prod(e);
        v = op == '+' ? v + w : v - w;
    }
}

// (plan, run or -1, expression) => its value; why[0] != 0 on a syntax error or an unknown name
static double ex_eval(const mech_sweep_plan *p, long run, const char *expr, char *why, size_t len)
{
    ex e = {p, run, expr, ""};
    double v = ex_sum(&e);
    ex_space(&e);
    if (*e.s && !e.why[0])
        snprintf(e.why, sizeof e.why, "unexpected '%.20s'", e.s);
    snprintf(why, len, "%s", e.why);
    return v;
}

void mech_sweep_plan_value(const mech_sweep_plan *p, long run, int k, double *x, const char **s)
{
    const mech_sweep_key *key = &p->key[k];
    *s = NULL;
    if (key->label) {   /* a qualification plan's case or variant */
        *x = k == 0 ? (double)(run / p->nvar) : (double)(run % p->nvar);
        *s = k == 0 ? p->case_name[run / p->nvar] : p->var_name[run % p->nvar];
        return;
    }
    if (k >= p->nkey) {
        char why[160];
        double v = ex_eval(p, run, key->expr, why, sizeof why);
        *x = isfinite(v) && !why[0] ? v : NAN;
        return;
    }
    if (key->grid) {
        long g = run / p->nsample, stride = 1;
        for (int j = p->nkey - 1; j > k; j--)
            if (p->key[j].grid)
                stride *= p->key[j].n;
        long i = (g / stride) % key->n;
        if (key->choice) {   /* a grid of strings: the index as the number (ranks, sensitivities) */
            *x = (double)i;
            *s = cJSON_GetArrayItem(key->choice, (int)i)->valuestring;
        } else {
            *x = key->values[i];
        }
        return;
    }
    double u = p->u[(size_t)(run % p->nsample) * (size_t)p->ndist + (size_t)key->col];
    *x = mech_sweep_dist_eval(&key->dist, u);
    if (key->dist.kind == MECH_SWEEP_CHOICE) {
        const cJSON *it = cJSON_GetArrayItem(key->choice, (int)*x);
        if (cJSON_IsString(it))
            *s = it->valuestring;
        else
            *x = it->valuedouble;
    }
}

// (plan, key, candidate value) => the base scenario with it set, parsed; the error names plan and key
static int check_value(const mech_sweep_plan *p, const rd *r, int k, double x, const char *s, hy_err *err)
{
    cJSON *t = cJSON_Duplicate(p->base, 1);
    char why[256];
    if (!t)
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    int rc = HY_OK;
    if (mech_sweep__tree_set(t, p->key[k].path, value_item(x, s), why, sizeof why) != 0) {
        rc = hy_err_set(err, HY_EPARSE, "%s: %s.%s: %s", r->name, k < p->nkey ? "vary" : "derive", p->key[k].path, why);
    } else if (check_tree(p, t, s != NULL, err) != HY_OK) {
        char msg[HY_MSG_LEN];
        snprintf(msg, sizeof msg, "%s", err->msg);
        if (s)
            rc = hy_err_set(err, HY_EPARSE, "%s: vary.%s = \"%s\": %s", r->name, p->key[k].path, s, msg);
        else
            rc = hy_err_set(err, HY_EPARSE, "%s: %s.%s = %g: %s", r->name, k < p->nkey ? "vary" : "derive",
                            p->key[k].path, x, msg);
    }
    cJSON_Delete(t);
    return rc;
}

static int check_key(const mech_sweep_plan *p, const rd *r, int k, hy_err *err)
{
    const mech_sweep_key *key = &p->key[k];
    if (key->grid && key->choice) {   /* a grid of strings: each value, its law file read */
        for (const cJSON *it = key->choice->child; it; it = it->next)
            if (check_value(p, r, k, 0, it->valuestring, err) != HY_OK)
                return err->code;
        return HY_OK;
    }
    if (key->grid) {
        /* every value of a grid of up to 1000 (an integer key refuses 2.5 inside its range); of a larger one the
           first 1000 and the extremes (each key's accepted range is an interval) */
        double lo = key->values[0], hi = key->values[0];
        for (int i = 0; i < key->n; i++)
            lo = fmin(lo, key->values[i]), hi = fmax(hi, key->values[i]);
        for (int i = 0; i < key->n && i < 1000; i++)
            if (check_value(p, r, k, key->values[i], NULL, err) != HY_OK)
                return err->code;
        if (key->n > 1000 && (check_value(p, r, k, lo, NULL, err) != HY_OK || check_value(p, r, k, hi, NULL, err) != HY_OK))
            return err->code;
        return HY_OK;
    }
    const mech_sweep_dist_p *d = &key->dist;
    switch (d->kind) {
    case MECH_SWEEP_UNIFORM:
        return check_value(p, r, k, d->a, NULL, err) || check_value(p, r, k, d->b, NULL, err) ? err->code : HY_OK;
    case MECH_SWEEP_TNORMAL:
        return check_value(p, r, k, d->lo, NULL, err) || check_value(p, r, k, d->hi, NULL, err) ? err->code : HY_OK;
    case MECH_SWEEP_NORMAL:
        /* unbounded: the mean, and +-6 sd (a normal key whose scenario range is bounded, such as a speed > 0, is
           refused here: use a truncated normal) */
        return check_value(p, r, k, d->a, NULL, err) || check_value(p, r, k, d->a - 6 * d->b, NULL, err) ||
               check_value(p, r, k, d->a + 6 * d->b, NULL, err) ? err->code : HY_OK;
    case MECH_SWEEP_LOGNORMAL:
        return check_value(p, r, k, exp(d->a), NULL, err) ? err->code : HY_OK;
    case MECH_SWEEP_CHOICE:
        for (const cJSON *it = key->choice->child; it; it = it->next)
            if (check_value(p, r, k, it->valuedouble, cJSON_IsString(it) ? it->valuestring : NULL, err) != HY_OK)
                return err->code;
        return HY_OK;
    }
    return HY_OK;
}

static int read_keep(const mech_sweep_plan *pc, const rd *r, const cJSON *o)
{
    mech_sweep_plan *p = (mech_sweep_plan *)pc;
    static const char *const known[] = {"worst", "metric", "ids", NULL};
    if (!cJSON_IsObject(o))
        return bad(r, "keep", "expected {\"worst\": N, \"metric\": NAME, \"ids\": [...]}");
    if (check_keys(r, o, "keep", known))
        return r->err->code;
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(o, "worst"), *m = cJSON_GetObjectItemCaseSensitive(o, "metric");
    const cJSON *ids = cJSON_GetObjectItemCaseSensitive(o, "ids");
    if (w) {
        if (!cJSON_IsNumber(w) || w->valuedouble < 0 || w->valuedouble > 64 || w->valuedouble != floor(w->valuedouble))
            return bad(r, "keep.worst", "expected an integer 0..64");
        p->keep_worst = (int)w->valuedouble;
    }
    p->keep_metric = MECH_SWEEP_M_PEAK_AXIAL;
    if (m) {
        if (!cJSON_IsString(m) || (p->keep_metric = mech_sweep_metric_find(m->valuestring)) < 0 ||
            p->keep_metric == MECH_SWEEP_M_CAPTURED)
            return bad(r, "keep.metric", "expected one of capture_time, cone_contacts, peak_axial, peak_lateral, "
                       "peak_limiter, stroke_max, swing_max, e_initial, e_residual_max, steps, tilt_max, tilt_end, "
                       "roll_closed, latch_roll_closed, latches_closed, latches_all_time, limiter_clearance, "
                       "limiter_lead, frt1_pusher_share, t_closed");
    }
    if (ids) {
        int n = cJSON_IsArray(ids) ? cJSON_GetArraySize(ids) : -1;
        if (n < 0 || n > 64)
            return bad(r, "keep.ids", "expected an array of at most 64 run ids");
        for (const cJSON *it = ids->child; it; it = it->next) {
            if (!cJSON_IsNumber(it) || it->valuedouble < 0 || it->valuedouble >= (double)p->nrun ||
                it->valuedouble != floor(it->valuedouble))
                return bad(r, "keep.ids", "%g is not a run id of this plan (0..%ld)", it->valuedouble, p->nrun - 1);
            p->keep_ids[p->nkeep_ids++] = (long)it->valuedouble;
        }
    }
    return HY_OK;
}

static int find_key(const mech_sweep_plan *p, const char *path)
{
    for (int k = 0; k < p->nkey + p->nderived; k++)
        if (strcmp(p->key[k].path, path) == 0)
            return k;
    return -1;
}

static int parse_plan(mech_sweep_plan *p, const rd *r, int force, const char *text, size_t len, hy_err *err)
{
    const char *stop = NULL;
    p->doc = cJSON_ParseWithLengthOpts(text, len, &stop, 0);
    if (!p->doc || !cJSON_IsObject(p->doc))
        return hy_json_parse_error(err, r->name, text, len, p->doc ? text : stop, CJSON_NESTING_LIMIT,
                                   "a mech-sweep object");
    const cJSON *doc = p->doc;
    static const char *const known[] = {"format", "version", "name", "notes", "scenario", "set", "vary", "samples",
                                        "sampling", "seed", "max_runs", "envelope", "keep", "figure", "derive",
                                        "sobol", "morris", "subset", "cases", "variants", "requirements", NULL};
    if (check_keys(r, doc, "(top level)", known))
        return err->code;
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(doc, "format");
    if (!cJSON_IsString(f) || strcmp(f->valuestring, "mech-sweep") != 0)
        return bad(r, "format", "expected \"mech-sweep\"");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, "version");
    if (v && (!cJSON_IsNumber(v) || v->valuedouble != 1))
        return bad(r, "version", "expected 1");
    if (cJSON_GetObjectItemCaseSensitive(doc, "cases"))   /* a qualification matrix (sweep_kinds.c) */
        return mech_sweep__qual_parse(p, r->name, force, text, len, err);
    /* the base scenario, relative to the plan's folder; made absolute so that the scenario files written for
       chosen runs name their model files wherever they are written */
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(doc, "scenario");
    if (!cJSON_IsString(sc) || !sc->valuestring[0])
        return bad(r, "scenario", "expected the path of a mech-dock scenario file");
    char dir[4096], rel[8192];
    hy_path_dir(p->path, dir, sizeof dir);
    if (sc->valuestring[0] == '/' || !dir[0])
        snprintf(rel, sizeof rel, "%s", sc->valuestring);
    else
        snprintf(rel, sizeof rel, "%s/%s", dir, sc->valuestring);
    if (!realpath(rel, p->scenario))
        return bad(r, "scenario", "%s: %s", rel, strerror(errno));
    hy_path_dir(p->scenario, p->scen_dir, sizeof p->scen_dir);
    char *st;
    size_t sn;
    if (hy_read_text(p->scenario, "a scenario file (mech-dock JSON)", 0, &st, &sn, err) != HY_OK)
        return err->code;
    p->hash = mech_sweep__fnv(mech_sweep__fnv(0xcbf29ce484222325ULL, text, len), st, sn);
    p->base = cJSON_ParseWithLengthOpts(st, sn, &stop, 0);
    if (!p->base || !cJSON_IsObject(p->base)) {
        int rc = hy_json_parse_error(err, hy_display_name(p->scenario), st, sn, p->base ? st : stop,
                                     CJSON_NESTING_LIMIT, "a mech-dock object");
        free(st);
        return rc;
    }
    free(st);
    /* fixed keys */
    const cJSON *set = cJSON_GetObjectItemCaseSensitive(doc, "set");
    if (set && !cJSON_IsObject(set))
        return bad(r, "set", "expected an object of dotted key paths and values");
    /* D5: a key both fixed and varied (or inside a fixed object, or holding a fixed key) is refused before anything
       else, not won by "vary" in silence */
    const cJSON *vary0 = cJSON_GetObjectItemCaseSensitive(doc, "vary");
    for (const cJSON *it = cJSON_IsObject(vary0) ? vary0->child : NULL; it; it = it->next)
        for (const cJSON *st = set ? set->child : NULL; st; st = st->next) {
            size_t a = strlen(st->string), b = strlen(it->string), m = a < b ? a : b;
            if (strncmp(st->string, it->string, m) == 0 && (a == b || (a < b ? it->string : st->string)[m] == '.'))
                return bad(r, "vary", "%s is also fixed by set.%s: a key is either fixed (\"set\") or varied "
                           "(\"vary\"), not both", it->string, st->string);
        }
    for (const cJSON *it = set ? set->child : NULL; it; it = it->next) {
        char why[256];
        if (mech_sweep__tree_set(p->base, it->string, cJSON_Duplicate(it, 1), why, sizeof why) != 0)
            return hy_err_set(err, HY_EPARSE, "%s: set.%s: %s", r->name, it->string, why);
    }
    if (check_tree(p, p->base, 1, err) != HY_OK) {
        char msg[HY_MSG_LEN];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return hy_err_set(err, HY_EPARSE, "%s: scenario with \"set\": %s", r->name, msg);
    }
    /* varied keys */
    const cJSON *vary = cJSON_GetObjectItemCaseSensitive(doc, "vary");
    if (!cJSON_IsObject(vary) || !vary->child)
        return bad(r, "vary", "expected an object of varied keys (dotted path -> grid or distribution)");
    p->ngrid = 1;
    for (const cJSON *it = vary->child; it; it = it->next) {
        if (p->nkey == MECH_SWEEP_KEYS_MAX)
            return bad(r, "vary", "more than %d keys", MECH_SWEEP_KEYS_MAX);
        mech_sweep_key *k = &p->key[p->nkey];
        char w[MECH_SWEEP_KEY_LEN + 8];
        if (strlen(it->string) >= MECH_SWEEP_KEY_LEN || !it->string[0])
            return bad(r, "vary", "a key path of 1..%d characters expected", MECH_SWEEP_KEY_LEN - 1);
        if (find_key(p, it->string) >= 0)
            return bad(r, "vary", "key %s given twice", it->string);
        snprintf(k->path, sizeof k->path, "%s", it->string);
        snprintf(w, sizeof w, "vary.%s", it->string);
        if (!cJSON_IsObject(it))
            return bad(r, w, "expected {\"grid\": ...} or {\"dist\": ...}");
        p->nkey++;
        const cJSON *g = cJSON_GetObjectItemCaseSensitive(it, "grid");
        if (g) {
            static const char *const kg[] = {"grid", NULL};
            if (check_keys(r, it, w, kg))
                return err->code;
            k->grid = 1;
            if (read_grid(r, g, w, k) != HY_OK)
                return err->code;
            if ((double)p->ngrid * k->n > 1e12)
                return bad(r, w, "the grid has more than 1e12 points");
            p->ngrid *= k->n;
        } else {
            if (read_dist(r, it, w, k) != HY_OK)
                return err->code;
            k->col = p->ndist++;
        }
    }
    /* the plan's kind (Sobol', Morris, subset simulation: sweep_kinds.c) and its runs, or sampling */
    if (mech_sweep__kind_parse(p, doc, r->name, err) != HY_OK)
        return err->code;
    const cJSON *ns = cJSON_GetObjectItemCaseSensitive(doc, "samples");
    p->nsample = mech_sweep__kind_samples(p);
    if (p->ndist > 0 && p->kind == MECH_SWEEP_KIND_PLAIN) {
        if (!cJSON_IsNumber(ns) || ns->valuedouble < 1 || ns->valuedouble > 1e9 ||
            ns->valuedouble != floor(ns->valuedouble))
            return bad(r, "samples", "expected an integer 1..1e9 (the number of Monte Carlo samples)");
        p->nsample = (long)ns->valuedouble;
    } else if (ns) {
        return bad(r, "samples", "given, but no key has a distribution");
    }
    const cJSON *sm = cJSON_GetObjectItemCaseSensitive(doc, "sampling");
    p->sampling = MECH_SWEEP_RANDOM;
    if (sm) {
        static const char *const names[] = {"random", "lhs", "sobol"};
        int i = 0;
        while (i < 3 && !(cJSON_IsString(sm) && strcmp(sm->valuestring, names[i]) == 0))
            i++;
        if (i == 3)
            return bad(r, "sampling", "expected \"random\", \"lhs\" or \"sobol\"");
        p->sampling = i;
    }
    const cJSON *sd = cJSON_GetObjectItemCaseSensitive(doc, "seed");
    if (sd && (!cJSON_IsNumber(sd) || sd->valuedouble < 0 || sd->valuedouble > 9007199254740992.0 ||
               sd->valuedouble != floor(sd->valuedouble)))
        return bad(r, "seed", "expected an integer 0..2^53");
    p->seed = sd ? (uint64_t)sd->valuedouble : 1;
    const cJSON *mr = cJSON_GetObjectItemCaseSensitive(doc, "max_runs");
    p->max_runs = 10000;
    if (mr) {
        if (!cJSON_IsNumber(mr) || mr->valuedouble < 1 || mr->valuedouble > 1e12)
            return bad(r, "max_runs", "expected an integer >= 1");
        p->max_runs = (long)mr->valuedouble;
    }
    /* what one process can hold: a row of ~100 bytes per run, the unit-cube sample */
    if ((double)p->ngrid * (double)p->nsample > 1e8 || (double)p->nsample * p->ndist > 1e8)
        return bad(r, "vary", "%.3g runs (%.3g sampled values): more than a sweep holds (1e8); split the plan",
                   (double)p->ngrid * (double)p->nsample, (double)p->nsample * p->ndist);
    p->nrun = p->ngrid * p->nsample;
    /* envelope */
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(doc, "envelope");
    if (ev) {
        static const char *const ke[] = {"levels", NULL};
        if (!cJSON_IsObject(ev))
            return bad(r, "envelope", "expected {\"levels\": L}");
        if (check_keys(r, ev, "envelope", ke))
            return err->code;
        const cJSON *l = cJSON_GetObjectItemCaseSensitive(ev, "levels");
        if (!cJSON_IsNumber(l) || l->valuedouble < 0 || l->valuedouble > 12 || l->valuedouble != floor(l->valuedouble))
            return bad(r, "envelope.levels", "expected an integer 0..12");
        if (p->nkey != 2 || !p->key[0].grid || !p->key[1].grid || p->key[0].choice || p->key[1].choice)
            return bad(r, "envelope", "the adaptive envelope needs exactly two varied keys, both grids of numbers");
        int s = 1 << (int)l->valuedouble;
        for (int k = 0; k < 2; k++)
            if (p->key[k].n < 2 || (p->key[k].n - 1) % s)
                return bad(r, "envelope", "vary.%s has %d values: with levels = %d the count must be m x %d + 1",
                           p->key[k].path, p->key[k].n, (int)l->valuedouble, s);
        p->envelope = 1, p->levels = (int)l->valuedouble, p->kind = MECH_SWEEP_KIND_ENVELOPE;
    }
    if (p->nrun > p->max_runs && !force)
        return bad(r, "max_runs", "the plan makes %ld runs, more than max_runs = %ld%s: raise max_runs or pass --force",
                   p->nrun, p->max_runs, p->envelope ? " (the full grid; the envelope runs fewer)" : "");
    p->keep_metric = MECH_SWEEP_M_PEAK_AXIAL;
    const cJSON *kp = cJSON_GetObjectItemCaseSensitive(doc, "keep");
    if (kp && read_keep(p, r, kp) != HY_OK)
        return err->code;
    /* the envelope figure: "figure": {"x": KEY, "y": KEY}; default the first two keys */
    p->fig_x = p->nkey > 1 ? 0 : -1, p->fig_y = p->nkey > 1 ? 1 : -1;
    const cJSON *fg = cJSON_GetObjectItemCaseSensitive(doc, "figure");
    if (fg) {
        static const char *const kf[] = {"x", "y", NULL};
        if (!cJSON_IsObject(fg))
            return bad(r, "figure", "expected {\"x\": KEY, \"y\": KEY}");
        if (check_keys(r, fg, "figure", kf))
            return err->code;
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(fg, "x"), *y = cJSON_GetObjectItemCaseSensitive(fg, "y");
        if (!cJSON_IsString(x) || !cJSON_IsString(y) || (p->fig_x = find_key(p, x->valuestring)) < 0 ||
            (p->fig_y = find_key(p, y->valuestring)) < 0 || p->fig_x == p->fig_y)
            return bad(r, "figure", "x and y must name two different varied keys");
    }
    /* the unit-cube sample, then every key checked through the scenario parser */
    if (p->ndist > 0) {
        p->u = malloc((size_t)p->nsample * (size_t)p->ndist * sizeof *p->u);
        if (!p->u)
            return hy_err_set(err, HY_ENOMEM, "%s: out of memory for %ld samples", r->name, p->nsample);
        if (mech_sweep__kind_sample(p, err) != HY_OK) {
            char msg[HY_MSG_LEN];
            snprintf(msg, sizeof msg, "%s", err->msg);
            return hy_err_set(err, HY_EPARSE, "%s: sampling: %s", r->name, msg);
        }
    }
    for (int k = 0; k < p->nkey; k++)
        if (check_key(p, r, k, err) != HY_OK)
            return err->code;
    /* N16: every file the runs read (law files of the base scenario and of the string values, hashed while they
       were checked) is in the plan's hash, so --resume over a replaced one is refused */
    for (int k = 0; k < p->nfile; k++) {
        p->hash = mech_sweep__fnv(p->hash, p->files[k].key, strlen(p->files[k].key));
        p->hash = mech_sweep__fnv(p->hash, (const char *)&p->files[k].hash, sizeof p->files[k].hash);
    }
    /* derived keys: "derive": {"initial.velocity_y": "-initial.offset_y / 20"}, set after the varied keys; checked
       by the scenario parser with their values in the first and the last run */
    const cJSON *dv = cJSON_GetObjectItemCaseSensitive(doc, "derive");
    if (dv && !cJSON_IsObject(dv))
        return bad(r, "derive", "expected an object of dotted key paths and expressions");
    for (const cJSON *it = dv ? dv->child : NULL; it; it = it->next) {
        char w[MECH_SWEEP_KEY_LEN + 8], why[160];
        snprintf(w, sizeof w, "derive.%s", it->string);
        if (p->nkey + p->nderived == MECH_SWEEP_KEYS_MAX)
            return bad(r, "derive", "more than %d keys in all", MECH_SWEEP_KEYS_MAX);
        if (strlen(it->string) >= MECH_SWEEP_KEY_LEN || !it->string[0] || find_key(p, it->string) >= 0)
            return bad(r, w, "a key path of 1..%d characters that is not varied nor derived already",
                       MECH_SWEEP_KEY_LEN - 1);
        if (!cJSON_IsString(it) || strlen(it->valuestring) >= MECH_SWEEP_KEY_LEN)
            return bad(r, w, "expected an expression (a string of + - * / ( ), numbers and varied keys)");
        mech_sweep_key *k = &p->key[p->nkey + p->nderived];
        snprintf(k->path, sizeof k->path, "%s", it->string);
        snprintf(k->expr, sizeof k->expr, "%s", it->valuestring);
        ex_eval(p, -1, k->expr, why, sizeof why);
        if (why[0])
            return bad(r, w, "\"%s\": %s", k->expr, why);
        p->nderived++;
        for (long run = 0; run < p->nrun; run += p->nrun > 1 ? p->nrun - 1 : 1) {
            double x;
            const char *s;
            mech_sweep_plan_value(p, run, p->nkey + p->nderived - 1, &x, &s);
            if (!isfinite(x))
                return bad(r, w, "\"%s\" is not a finite number in run %ld", k->expr, run);
            int idx = p->nkey + p->nderived - 1;
            if (check_value(p, r, idx, x, NULL, err) != HY_OK)
                return err->code;
        }
    }
    return HY_OK;
}

int mech_sweep_plan_read(const char *path, int force, mech_sweep_plan *p, hy_err *err)
{
    hy_err local;
    if (!err) // the reader's checks read err->code back: a caller that wants no message still gets a record
        err = &local;
    hy_err_clear(err);
    memset(p, 0, sizeof *p);
    snprintf(p->path, sizeof p->path, "%s", path);
    rd r = {hy_display_name(path), err};
    char *text;
    size_t len;
    if (hy_read_text(path, "a sweep plan (mech-sweep JSON)", 0, &text, &len, err) != HY_OK)
        return err->code;
    int rc = parse_plan(p, &r, force, text, len, err);
    free(text);
    if (rc != HY_OK)
        mech_sweep_plan_free(p);
    return rc;
}

void mech_sweep_plan_free(mech_sweep_plan *p)
{
    for (int k = 0; k < p->nkey + p->nderived; k++)
        free(p->key[k].values);
    free(p->u);
    for (int v = 0; v < p->nvar; v++)
        cJSON_Delete(p->var_base[v]), p->var_base[v] = NULL;
    free(p->files);
    p->files = NULL, p->nfile = 0;
    cJSON_Delete(p->doc);
    cJSON_Delete(p->base);
    p->u = NULL, p->doc = NULL, p->base = NULL, p->nkey = 0, p->nderived = 0;
}

char *mech_sweep_scenario(const mech_sweep_plan *p, long run, hy_err *err)
{
    if (p->kind == MECH_SWEEP_KIND_QUAL)
        return mech_sweep__qual_scenario(p, run, err);
    cJSON *t = cJSON_Duplicate(p->base, 1);
    if (!t) {
        hy_err_set(err, HY_ENOMEM, "out of memory");
        return NULL;
    }
    for (int k = 0; k < p->nkey + p->nderived; k++) {
        double x;
        const char *s;
        char why[256];
        mech_sweep_plan_value(p, run, k, &x, &s);
        if (!isfinite(x) && !s) {   /* a derived key over a division by zero (a varied key is finite: checked) */
            if (k >= p->nkey)
                hy_err_set(err, HY_EDATA, "derive.%s = %s: not a finite number in this run", p->key[k].path,
                           p->key[k].expr);
            else
                hy_err_set(err, HY_EDATA, "vary.%s: not a finite number in this run", p->key[k].path);
            cJSON_Delete(t);
            return NULL;
        }
        if (mech_sweep__tree_set(t, p->key[k].path, value_item(x, s), why, sizeof why) != 0) {
            hy_err_set(err, HY_EPARSE, "%s: %s", p->key[k].path, why);
            cJSON_Delete(t);
            return NULL;
        }
    }
    char *txt = cJSON_PrintUnformatted(t);
    cJSON_Delete(t);
    if (!txt)
        hy_err_set(err, HY_ENOMEM, "out of memory");
    return txt;
}

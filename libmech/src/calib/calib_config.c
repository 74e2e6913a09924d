/* The "mech-calibrate" configuration (docs/calibrate.md §3): the scenario, the keys to identify with their start
 * values and bounds, the measured runs used in the fit and the validation runs, each with its channel map and the
 * test's conditions. Everything is checked before the first simulation: a key must be a number the scenario
 * parser reads (the scenario printed whole by mech_dock_config_print holds every such key), its bounds must hold
 * the start value strictly, and the scenario must parse with the key at each bound; a map names a measured column
 * the record has and a run channel `mech dock` writes, in the same unit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/model.h"
#include "hyst/util.h"
#include "mech/beam.h"
#include "mech/calib.h"
#include "mech/dock.h"
#include "calib_internal.h"
#include "sweep/sweep_internal.h"

#define BAD(code, ...) hy_err_set(err, code, __VA_ARGS__)

// (folder or "", file name) => the name resolved against the folder; -1 when it does not fit
static int join(char *out, size_t len, const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    if (name[0] == '/' || !a)
        a = 0;
    if (a + b + 2 > len)
        return -1;
    if (a) {
        memcpy(out, dir, a);
        out[a++] = '/';
    }
    memcpy(out + a, name, b + 1);
    return 0;
}

static const cJSON *find_path(const cJSON *root, const char *path)
{
    char buf[MECH_CALIB_KEY_LEN];
    snprintf(buf, sizeof buf, "%s", path);
    const cJSON *node = root;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ".", &save); tok && node; tok = strtok_r(NULL, ".", &save)) {
        if (cJSON_IsArray(node)) {
            char *end;
            long i = strtol(tok, &end, 10);
            node = (*end || i < 0 || i >= cJSON_GetArraySize(node)) ? NULL : cJSON_GetArrayItem(node, (int)i);
        } else if (cJSON_IsObject(node)) {
            node = cJSON_GetObjectItemCaseSensitive(node, tok);
        } else {
            node = NULL;
        }
    }
    return node;
}

cJSON *mech_calib__tree(const mech_calib_problem *p, const double *x, int run, hy_err *err)
{
    cJSON *t = cJSON_Duplicate(p->base, 1);
    if (!t) {
        BAD(HY_ENOMEM, "out of memory");
        return NULL;
    }
    char why[256];
    if (run >= 0 && p->run[run].set) {
        for (const cJSON *it = p->run[run].set->child; it; it = it->next)
            if (mech_sweep__tree_set(t, it->string, cJSON_Duplicate(it, 1), why, sizeof why) != 0) {
                BAD(HY_EPARSE, "%s: %s.set.%s: %s", hy_display_name(p->path),
                    p->run[run].validation ? "validation" : "runs", it->string, why);
                cJSON_Delete(t);
                return NULL;
            }
    }
    for (int k = 0; x && k < p->nkey; k++)
        if (mech_sweep__tree_set(t, p->key[k].path, hy_json_exact_number(x[k]), why, sizeof why) != 0) {
            BAD(HY_EPARSE, "%s: keys.%s: %s", hy_display_name(p->path), p->key[k].path, why);
            cJSON_Delete(t);
            return NULL;
        }
    if (p->tolerance > 0 &&
        mech_sweep__tree_set(t, "integration.tolerance", hy_json_exact_number(p->tolerance), why, sizeof why) != 0) {
        BAD(HY_EPARSE, "%s: tolerance: %s", hy_display_name(p->path), why);
        cJSON_Delete(t);
        return NULL;
    }
    return t;
}

// (tree) => parsed by the scenario parser (laws named, not read): the parser's message on failure
static int parse_tree(const mech_calib_problem *p, cJSON *t, const char *what, hy_err *err)
{
    char *txt = cJSON_PrintUnformatted(t);
    if (!txt)
        return BAD(HY_ENOMEM, "out of memory");
    int rc = mech_calib__parse(p, txt, err);
    free(txt);
    if (rc != HY_OK) {
        char m[HY_MSG_LEN];
        snprintf(m, sizeof m, "%s", err->msg);
        return BAD(rc, "%s: %s: %s", hy_display_name(p->path), what, m);
    }
    return HY_OK;
}

static int number(const mech_calib_problem *p, const cJSON *o, const char *key, const char *where, int need,
                  double *v, hy_err *err)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!it) {
        if (need)
            return BAD(HY_EPARSE, "%s: %s.%s: missing (expected a number)", hy_display_name(p->path), where, key);
        return HY_OK;
    }
    if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble)) {
        char *s = cJSON_PrintUnformatted(it);
        int rc = BAD(HY_EPARSE, "%s: %s.%s: %s is not a number", hy_display_name(p->path), where, key,
                     s ? s : "the value");
        free(s);
        return rc;
    }
    *v = it->valuedouble;
    return HY_OK;
}

static int check_known(const mech_calib_problem *p, const cJSON *o, const char *where, const char *const *known,
                       hy_err *err)
{
    for (const cJSON *it = o->child; it; it = it->next) {
        int ok = 0;
        for (int k = 0; known[k]; k++)
            ok |= strcmp(it->string, known[k]) == 0;
        if (!ok)
            return BAD(HY_EPARSE, "%s: %s%s%s: unknown key", hy_display_name(p->path), where, *where ? "." : "",
                       it->string);
    }
    return HY_OK;
}

static int read_keys(mech_calib_problem *p, const cJSON *full, hy_err *err)
{
    const cJSON *keys = cJSON_GetObjectItemCaseSensitive(p->doc, "keys");
    if (!cJSON_IsObject(keys) || !keys->child)
        return BAD(HY_EPARSE, "%s: keys: expected an object naming at least one scenario key", hy_display_name(p->path));
    static const char *const known[] = {"start", "min", "max", NULL};
    for (const cJSON *k = keys->child; k; k = k->next) {
        if (p->nkey == MECH_CALIB_KEYS_MAX)
            return BAD(HY_EPARSE, "%s: keys: more than %d keys", hy_display_name(p->path), MECH_CALIB_KEYS_MAX);
        char where[MECH_CALIB_KEY_LEN + 8];
        snprintf(where, sizeof where, "keys.%s", k->string);
        if (strlen(k->string) >= MECH_CALIB_KEY_LEN)
            return BAD(HY_EPARSE, "%s: %s: key path too long", hy_display_name(p->path), where);
        if (!cJSON_IsObject(k))
            return BAD(HY_EPARSE, "%s: %s: expected {\"start\": x, \"min\": lo, \"max\": hi}", hy_display_name(p->path),
                       where);
        int rc = check_known(p, k, where, known, err);
        mech_calib_key *K = &p->key[p->nkey];
        snprintf(K->path, sizeof K->path, "%s", k->string);
        if (rc == HY_OK)
            rc = number(p, k, "start", where, 1, &K->start, err);
        if (rc == HY_OK)
            rc = number(p, k, "min", where, 1, &K->lo, err);
        if (rc == HY_OK)
            rc = number(p, k, "max", where, 1, &K->hi, err);
        if (rc != HY_OK)
            return rc;
        if (!(K->lo < K->start && K->start < K->hi))
            return BAD(HY_EDATA, "%s: %s: start = %.17g is not strictly inside [min, max] = [%.17g, %.17g]",
                       hy_display_name(p->path), where, K->start, K->lo, K->hi);
        for (int j = 0; j < p->nkey; j++)
            if (strcmp(p->key[j].path, K->path) == 0)
                return BAD(HY_EPARSE, "%s: %s: named twice", hy_display_name(p->path), where);
        const cJSON *v = find_path(full, K->path);
        if (!cJSON_IsNumber(v))
            return BAD(HY_EDATA, "%s: %s: %s (expected a numeric key of the scenario %s, as %s)",
                       hy_display_name(p->path), where, v ? "not a number in the scenario" : "unknown key",
                       hy_display_name(p->scenario), p->kind == MECH_CALIB_DOCK ?
                       "`mech dock` reads it: docs/dock-scenarios.md" : "the file writes it: docs/beam.md");
        p->nkey++;
        /* the scenario parser's own range checks, at both bounds */
        for (int b = 0; b < 2; b++) {
            double x[MECH_CALIB_KEYS_MAX];
            for (int j = 0; j < p->nkey; j++)
                x[j] = p->key[j].start;
            x[p->nkey - 1] = b ? K->hi : K->lo;
            cJSON *t = mech_calib__tree(p, x, -1, err);
            if (!t)
                return err->code;
            char what[MECH_CALIB_KEY_LEN + 16];
            snprintf(what, sizeof what, "%s.%s", where, b ? "max" : "min");
            rc = parse_tree(p, t, what, err);
            cJSON_Delete(t);
            if (rc != HY_OK)
                return rc;
        }
    }
    return HY_OK;
}

/* (object, where) => *f from its "filter": {"order": n, "cutoff": Hz} (the sensor's anti-alias Butterworth,
 * mech/compare.h), unchanged when absent; the record's Nyquist frequency is checked once the record is read */
static int read_filter(const mech_calib_problem *p, const cJSON *o, const char *where, mech_compare_filter *f,
                       hy_err *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "filter");
    if (!v)
        return HY_OK;
    char w[200];
    snprintf(w, sizeof w, "%s.filter", where);
    static const char *const known[] = {"order", "cutoff", "notes", NULL};
    if (!cJSON_IsObject(v))
        return BAD(HY_EPARSE, "%s: %s: expected {\"order\": n, \"cutoff\": Hz}", hy_display_name(p->path), w);
    double order = NAN, fc = NAN;
    int rc = check_known(p, v, w, known, err);
    if (rc == HY_OK)
        rc = number(p, v, "order", w, 1, &order, err);
    if (rc == HY_OK)
        rc = number(p, v, "cutoff", w, 1, &fc, err);
    if (rc != HY_OK)
        return rc;
    if (order != floor(order) || !(fabs(order) <= MECH_COMPARE_FILTER_MAX_ORDER + 1))
        return BAD(HY_EDATA, "%s: %s.order: %g, expected an integer 1..%d", hy_display_name(p->path), w, order,
                   MECH_COMPARE_FILTER_MAX_ORDER);
    mech_compare_filter g = {(int)order, fc};
    if ((rc = mech_compare_filter_check(&g, 0, hy_display_name(p->path), w, err)) != HY_OK)
        return rc;
    *f = g;
    return HY_OK;
}

static int read_runs(mech_calib_problem *p, const char *section, int validation, const char *cdir, hy_err *err)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(p->doc, section);
    if (!a)
        return validation ? HY_OK : BAD(HY_EPARSE, "%s: runs: missing (expected a list of measured runs)",
                                        hy_display_name(p->path));
    if (!cJSON_IsArray(a) || (!validation && cJSON_GetArraySize(a) < 1))
        return BAD(HY_EPARSE, "%s: %s: expected a list of {\"measured\": CSV, \"map\": {...}}", hy_display_name(p->path),
                   section);
    static const char *const known[] = {"measured", "map", "set", "time", "filter", NULL};
    int i = 0;
    for (const cJSON *o = a->child; o; o = o->next, i++) {
        char where[64];
        snprintf(where, sizeof where, "%s[%d]", section, i);
        if (p->nrun == MECH_CALIB_RUNS_MAX)
            return BAD(HY_EPARSE, "%s: %s: more than %d runs in all", hy_display_name(p->path), where,
                       MECH_CALIB_RUNS_MAX);
        if (!cJSON_IsObject(o))
            return BAD(HY_EPARSE, "%s: %s: expected an object", hy_display_name(p->path), where);
        int rc = check_known(p, o, where, known, err);
        if (rc != HY_OK)
            return rc;
        mech_calib_run *r = &p->run[p->nrun];
        r->validation = validation;
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "measured");
        const cJSON *map = cJSON_GetObjectItemCaseSensitive(o, "map");
        const cJSON *set = cJSON_GetObjectItemCaseSensitive(o, "set");
        const cJSON *tc = cJSON_GetObjectItemCaseSensitive(o, "time");
        if (!cJSON_IsString(m))
            return BAD(HY_EPARSE, "%s: %s.measured: expected the record's file name", hy_display_name(p->path), where);
        if (!cJSON_IsObject(map) || !map->child)
            return BAD(HY_EPARSE, "%s: %s.map: expected {\"measured column\": \"run channel\", ...}",
                       hy_display_name(p->path), where);
        if (tc && !cJSON_IsString(tc))
            return BAD(HY_EPARSE, "%s: %s.time: expected the time column's name", hy_display_name(p->path), where);
        if (set && !cJSON_IsObject(set))
            return BAD(HY_EPARSE, "%s: %s.set: expected {\"scenario key\": value, ...}", hy_display_name(p->path),
                       where);
        r->set = (cJSON *)set;
        mech_compare_filter rf = {0, 0};   /* the acquisition's filter: every channel's unless the map gives one */
        if ((rc = read_filter(p, o, where, &rf, err)) != HY_OK)
            return rc;
        const char *names[MECH_CALIB_CH_MAX];
        int nch = 0;
        for (const cJSON *c = map->child; c; c = c->next) {
            if (nch == MECH_CALIB_CH_MAX)
                return BAD(HY_EPARSE, "%s: %s.map: more than %d channels", hy_display_name(p->path), where,
                           MECH_CALIB_CH_MAX);
            const cJSON *cn = c;
            char cw[160];
            snprintf(cw, sizeof cw, "%s.map.%s", where, c->string);
            r->filter[nch] = rf;
            if (cJSON_IsObject(c)) {   /* {"channel": NAME, "gain_sd": 0.01, "filter": {...}} */
                static const char *const kc[] = {"channel", "gain_sd", "filter", NULL};
                if ((rc = check_known(p, c, cw, kc, err)) != HY_OK ||
                    (rc = number(p, c, "gain_sd", cw, 0, &r->gain_sd[nch], err)) != HY_OK ||
                    (rc = read_filter(p, c, cw, &r->filter[nch], err)) != HY_OK)
                    return rc;
                if (!(r->gain_sd[nch] >= 0 && r->gain_sd[nch] <= 0.5))
                    return BAD(HY_EDATA, "%s: %s.gain_sd = %g: expected 0..0.5", hy_display_name(p->path), cw,
                               r->gain_sd[nch]);
                cn = cJSON_GetObjectItemCaseSensitive(c, "channel");
            }
            if (!cJSON_IsString(cn))
                return BAD(HY_EPARSE, "%s: %s: expected a run channel's name (a string) or {\"channel\": name, "
                           "\"gain_sd\": x}", hy_display_name(p->path), cw);
            const char *unit;
            int ch = mech_calib__channel(p->kind, cn->valuestring, &unit);
            if (ch < 0)
                return BAD(HY_EDATA, "%s: %s: '%s' is not a channel `%s` writes (%s)", hy_display_name(p->path), cw,
                           cn->valuestring, p->kind == MECH_CALIB_DOCK ? "mech dock" : "mech beam sim",
                           p->kind == MECH_CALIB_DOCK ? "history.csv's header, docs/dock-scenarios.md"
                                                      : "its CSV header, docs/beam.md");
            snprintf(r->chname[nch], sizeof r->chname[nch], "%s", cn->valuestring);
            snprintf(r->chunit[nch], sizeof r->chunit[nch], "%s", unit);
            r->ch[nch] = ch;
            names[nch++] = c->string;
        }
        char path[4096];
        if (join(path, sizeof path, cdir, m->valuestring) != 0)
            return BAD(HY_EPARSE, "%s: %s.measured: the path is too long", hy_display_name(p->path), where);
        p->nrun++;   /* freed with the problem from here on */
        const char *units[MECH_CALIB_CH_MAX];
        for (int c = 0; c < nch; c++)
            units[c] = r->chunit[c];
        if ((rc = mech_calib__record_read(&r->rec, path, tc ? tc->valuestring : "t", nch, names, units, err)) != HY_OK)
            return rc;
        double fs = (double)(r->rec.n - 1) / (r->rec.t[r->rec.n - 1] - r->rec.t[0]);   /* its mean sampling rate */
        for (int c = 0; c < nch; c++) {
            char fw[200];
            const cJSON *mc = cJSON_GetArrayItem(map, c);   /* the key that set it: the channel's, else the run's */
            if (cJSON_IsObject(mc) && cJSON_GetObjectItemCaseSensitive(mc, "filter"))
                snprintf(fw, sizeof fw, "%s.map.%s.filter", where, mc->string);
            else
                snprintf(fw, sizeof fw, "%s.filter", where);
            if (r->filter[c].order > 0 &&
                (rc = mech_compare_filter_check(&r->filter[c], fs, hy_display_name(p->path), fw, err)) != HY_OK)
                return rc;
        }
        double d = r->rec.t[r->rec.n - 1] + p->offset_max + 0.01;
        r->duration = d < p->scen_duration ? d : p->scen_duration;
        cJSON *t = mech_calib__tree(p, NULL, p->nrun - 1, err);
        if (!t)
            return err->code;
        char what[80];
        snprintf(what, sizeof what, "%s.set", where);
        rc = parse_tree(p, t, what, err);
        cJSON_Delete(t);
        if (rc != HY_OK)
            return rc;
    }
    return HY_OK;
}

static int read_problem(mech_calib_problem *p, const char *text, size_t len, hy_err *err)
{
    const char *name = hy_display_name(p->path);
    int rc = hy_json_parse_strict(text, len, name, "a mech-calibrate object", &p->doc, err);
    if (rc != HY_OK)
        return rc;
    if (!cJSON_IsObject(p->doc))
        return BAD(HY_EPARSE, "%s: expected a mech-calibrate object", name);
    static const char *const known[] = {"format", "version", "notes", "scenario", "keys", "runs", "validation",
                                        "offset_max", "offset_window", "fd_step", "tolerance", "max_iter", NULL};
    if ((rc = check_known(p, p->doc, "", known, err)) != HY_OK)
        return rc;
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(p->doc, "format");
    if (!cJSON_IsString(f) || strcmp(f->valuestring, "mech-calibrate") != 0)
        return BAD(HY_EPARSE, "%s: format: expected \"mech-calibrate\"", name);
    double v = 1;
    if ((rc = number(p, p->doc, "version", "", 0, &v, err)) != HY_OK)
        return rc;
    if (v != 1)
        return BAD(HY_EPARSE, "%s: version: %g, expected 1", name, v);
    p->offset_max = 0.1, p->offset_window = 0.01, p->fd_step = 1e-3, p->tolerance = 0;
    double mi = 40;
    if ((rc = number(p, p->doc, "offset_max", "", 0, &p->offset_max, err)) != HY_OK ||
        (rc = number(p, p->doc, "offset_window", "", 0, &p->offset_window, err)) != HY_OK ||
        (rc = number(p, p->doc, "fd_step", "", 0, &p->fd_step, err)) != HY_OK ||
        (rc = number(p, p->doc, "tolerance", "", 0, &p->tolerance, err)) != HY_OK ||
        (rc = number(p, p->doc, "max_iter", "", 0, &mi, err)) != HY_OK)
        return rc;
    if (!(p->offset_max >= 0 && p->offset_max <= 10))
        return BAD(HY_EDATA, "%s: offset_max = %g s: expected 0..10", name, p->offset_max);
    if (!(p->offset_window > 0 && p->offset_window <= 1))
        return BAD(HY_EDATA, "%s: offset_window = %g s: expected > 0 and <= 1", name, p->offset_window);
    if (!(p->fd_step >= 1e-8 && p->fd_step <= 0.1))
        return BAD(HY_EDATA, "%s: fd_step = %g: expected 1e-8..0.1", name, p->fd_step);
    if (!(p->tolerance == 0 || (p->tolerance >= 1e-10 && p->tolerance <= 1e-2)))
        return BAD(HY_EDATA, "%s: tolerance = %g: expected 0 (the scenario's) or 1e-10..1e-2", name, p->tolerance);
    if (!(mi >= 1 && mi <= 1000 && mi == floor(mi)))
        return BAD(HY_EDATA, "%s: max_iter = %g: expected an integer 1..1000", name, mi);
    p->max_iter = (int)mi;
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(p->doc, "scenario");
    if (!cJSON_IsString(s))
        return BAD(HY_EPARSE, "%s: scenario: expected the scenario's file name (mech-dock or mech-beam)", name);
    char cdir[4096];
    hy_path_dir(p->path, cdir, sizeof cdir);
    if (join(p->scenario, sizeof p->scenario, cdir, s->valuestring) != 0)
        return BAD(HY_EPARSE, "%s: scenario: the path is too long", name);
    hy_path_dir(p->scenario, p->scen_dir, sizeof p->scen_dir);
    char *stext;
    size_t slen;
    if ((rc = hy_read_text(p->scenario, "a scenario (mech-dock JSON)", 0, &stext, &slen, err)) != HY_OK)
        return rc;
    rc = hy_json_parse_strict(stext, slen, hy_display_name(p->scenario), "a mech-dock or mech-beam object", &p->base,
                              err);
    const cJSON *sf = rc == HY_OK ? cJSON_GetObjectItemCaseSensitive(p->base, "format") : NULL;
    p->kind = cJSON_IsString(sf) && strcmp(sf->valuestring, "mech-beam") == 0 ? MECH_CALIB_BEAM : MECH_CALIB_DOCK;
    /* the whole scenario as the parser reads it: the keys a calibration may name (the beam's parser has no printer:
       its keys are the ones the file holds) */
    char *full_text = NULL;
    if (p->kind == MECH_CALIB_DOCK) {
        mech_dock_config c;
        mech_dock_config_default(&c);
        if (rc == HY_OK)
            rc = mech_dock_config_parse(stext, slen, hy_display_name(p->scenario), p->scen_dir, &c, err);
        if (rc == HY_OK)
            rc = mech_dock_config_load(&c, hy_display_name(p->scenario), err);
        full_text = rc == HY_OK ? mech_dock_config_print(&c, err) : NULL;
        p->scen_duration = c.params.duration;
        mech_dock_config_free(&c);
    } else {
        mech_beam_config c;
        mech_beam_config_default(&c);
        if (rc == HY_OK)
            rc = mech_beam_config_parse(stext, slen, hy_display_name(p->scenario), p->scen_dir, &c, err);
        if (rc == HY_OK)
            rc = mech_beam_config_load(&c, hy_display_name(p->scenario), err);
        full_text = rc == HY_OK ? cJSON_PrintUnformatted(p->base) : NULL;
        p->scen_duration = c.solver.duration;
        mech_beam_config_free(&c);
    }
    free(stext);
    if (rc != HY_OK)
        return rc;
    if (p->kind == MECH_CALIB_BEAM && p->tolerance > 0) {
        free(full_text);
        return BAD(HY_EDATA, "%s: tolerance: the jointed beam's Newmark steps are fixed (solver.dt): a tolerance is for "
                   "mech-dock scenarios", name);
    }
    if (!full_text)
        return err->code ? err->code : BAD(HY_ENOMEM, "out of memory");
    cJSON *full = cJSON_Parse(full_text);
    free(full_text);
    if (!full)
        return BAD(HY_ENOMEM, "out of memory");
    rc = read_keys(p, full, err);
    cJSON_Delete(full);
    if (rc == HY_OK)
        rc = read_runs(p, "runs", 0, cdir, err);
    if (rc == HY_OK)
        rc = read_runs(p, "validation", 1, cdir, err);
    return rc;
}

int mech_calib_parse(const char *text, size_t len, const char *path, mech_calib_problem *p, hy_err *err)
{
    memset(p, 0, sizeof *p);
    p->jobs = 1;
    snprintf(p->path, sizeof p->path, "%s", path);
    int rc = read_problem(p, text, len, err);
    if (rc != HY_OK)
        mech_calib_free(p);
    return rc;
}

int mech_calib_read(const char *path, mech_calib_problem *p, hy_err *err)
{
    memset(p, 0, sizeof *p);
    snprintf(p->path, sizeof p->path, "%s", path);
    char *text;
    size_t len;
    int rc = hy_read_text(path, "a calibration (mech-calibrate JSON)", 0, &text, &len, err);
    if (rc != HY_OK)
        return rc;
    rc = mech_calib_parse(text, len, path, p, err);
    free(text);
    return rc;
}

void mech_calib_free(mech_calib_problem *p)
{
    for (int r = 0; r < p->nrun; r++)
        mech_calib__record_free(&p->run[r].rec);
    cJSON_Delete(p->doc);
    cJSON_Delete(p->base);
    p->doc = p->base = NULL;
    p->nrun = p->nkey = 0;
}

/* The "mech-beam" JSON configuration (docs/beam.md): parsed from memory (the fuzzer's entry point), then the files
 * it names (hinge model files, a force history) are read by mech_beam_config_load. Engine code never parses files:
 * this is the only place that reads this format. Unknown keys are errors (a typo must not silently fall back to a
 * default). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/csvread.h"
#include "hyst/util.h"
#include "mech/beam.h"

void mech_beam_config_default(mech_beam_config *c)
{
    memset(c, 0, sizeof *c);
    mech_beam_params_default(&c->params);
    mech_beam_solver_default(&c->solver);
    mech_beam_load_default(&c->load);
    snprintf(c->history_t, sizeof c->history_t, "t");
    snprintf(c->history_F, sizeof c->history_F, "F");
    c->control_design = MECH_BEAM_DESIGN_FLEX;
    c->control_Q = 600;
    c->control_R = 0.1;
}

typedef struct ctx {
    const char *name;   /* file name for messages */
    const char *dir;
    hy_err *err;
} ctx;

// (text from the file) => printable copy for a one-line message: control characters become '?', long text is cut
static const char *printable(const char *s, char *buf, size_t len)
{
    size_t k = 0;
    for (; *s && k + 4 < len; s++)
        buf[k++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
    if (*s)
        buf[k++] = '.', buf[k++] = '.', buf[k++] = '.';
    buf[k] = '\0';
    return buf;
}

// (object, allowed keys, path of the object) => error naming the first unknown key
static int keys(const ctx *x, const cJSON *o, const char *where, const char *const *allowed)
{
    for (const cJSON *it = o->child; it; it = it->next) {
        int ok = 0;
        for (const char *const *k = allowed; *k && !ok; k++)
            ok = strcmp(it->string, *k) == 0;
        if (!ok) {
            char list[400] = "";
            for (const char *const *k = allowed; *k; k++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k == allowed ? "" : ", ", *k);
            char key[64];
            return hy_err_set(x->err, HY_EPARSE, "%s: %s%s\"%s\": unknown key (known: %s)", x->name, where,
                              *where ? "." : "", printable(it->string, key, sizeof key), list);
        }
    }
    return HY_OK;
}

static int num(const ctx *x, const cJSON *o, const char *where, const char *key, double *v)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!it)
        return HY_OK;
    if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
        return hy_err_set(x->err, HY_EPARSE, "%s: %s.%s: expected a number", x->name, where, key);
    *v = it->valuedouble;
    return HY_OK;
}

static int integer(const ctx *x, const cJSON *o, const char *where, const char *key, int lo, int hi, int *v)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!it)
        return HY_OK;
    if (!cJSON_IsNumber(it) || !(it->valuedouble >= lo && it->valuedouble <= hi) ||
        it->valuedouble != floor(it->valuedouble))
        return hy_err_set(x->err, HY_EPARSE, "%s: %s.%s: expected an integer %d..%d", x->name, where, key, lo, hi);
    *v = (int)it->valuedouble;
    return HY_OK;
}

static int boolean(const ctx *x, const cJSON *o, const char *where, const char *key, int *v)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!it)
        return HY_OK;
    if (!cJSON_IsBool(it))
        return hy_err_set(x->err, HY_EPARSE, "%s: %s.%s: expected true or false", x->name, where, key);
    *v = cJSON_IsTrue(it);
    return HY_OK;
}

// (choices "a|b|c") => index of the string value in *v
static int choice(const ctx *x, const cJSON *o, const char *where, const char *key, const char *const *names,
                  int *v)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!it)
        return HY_OK;
    for (int i = 0; cJSON_IsString(it) && names[i]; i++)
        if (strcmp(it->valuestring, names[i]) == 0) {
            *v = i;
            return HY_OK;
        }
    char list[200] = "";
    for (int i = 0; names[i]; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s\"%s\"", i ? ", " : "", names[i]);
    return hy_err_set(x->err, HY_EPARSE, "%s: %s.%s: expected one of %s", x->name, where, key, list);
}

// (string value) => path resolved against the configuration's folder
static int path(const ctx *x, const cJSON *o, const char *where, const char *key, char *out, size_t len)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!it)
        return HY_OK;
    if (!cJSON_IsString(it) || !it->valuestring[0])
        return hy_err_set(x->err, HY_EPARSE, "%s: %s.%s: expected a file path", x->name, where, key);
    int w = it->valuestring[0] == '/' || !x->dir || !x->dir[0]
        ? snprintf(out, len, "%s", it->valuestring)
        : snprintf(out, len, "%s/%s", x->dir, it->valuestring);
    if (w < 0 || (size_t)w >= len)
        return hy_err_set(x->err, HY_EPARSE, "%s: %s.%s: path too long", x->name, where, key);
    return HY_OK;
}

static int text(const ctx *x, const cJSON *o, const char *where, const char *key, char *out, size_t len)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!it)
        return HY_OK;
    if (!cJSON_IsString(it) || !it->valuestring[0] || strlen(it->valuestring) >= len)
        return hy_err_set(x->err, HY_EPARSE, "%s: %s.%s: expected a column name (1..%zu characters)", x->name,
                          where, key, len - 1);
    snprintf(out, len, "%s", it->valuestring);
    return HY_OK;
}

static const char *const law_names[] = {"deadzone-a", "deadzone-b", "model", "deadzone+model", NULL};

// one hinge object (or the template of "hinges": {"count": n, ...})
static int hinge(const ctx *x, const cJSON *o, const char *where, mech_beam_config *c, int j, double k_ref)
{
    static const char *const hk[] = {"position", "k", "c", "mass", "clearance", "law", "model", "law_scale", "count",
                                     NULL};
    mech_beam_hinge *h = &c->params.hinge[j];
    if (!cJSON_IsObject(o))
        return hy_err_set(x->err, HY_EPARSE, "%s: %s: expected an object", x->name, where);
    int rc = keys(x, o, where, hk);
    double cc = NAN;
    if (rc == HY_OK)
        rc = num(x, o, where, "position", &h->position);
    if (rc == HY_OK)
        rc = num(x, o, where, "k", &h->k);
    if (rc == HY_OK)
        rc = num(x, o, where, "c", &cc);
    if (rc == HY_OK && !isnan(cc) && cJSON_GetObjectItemCaseSensitive(o, "k"))
        rc = hy_err_set(x->err, HY_EPARSE, "%s: %s: give \"k\" (N m/rad) or \"c\" (multiple of k_l), not both",
                        x->name, where);
    if (rc == HY_OK && !isnan(cc))
        h->k = cc * k_ref;
    if (rc == HY_OK)
        rc = num(x, o, where, "mass", &h->mass);
    if (rc == HY_OK)
        rc = num(x, o, where, "clearance", &h->clearance);
    if (rc == HY_OK)
        rc = num(x, o, where, "law_scale", &h->law_scale);
    if (rc == HY_OK && !(h->law_scale > 0))
        rc = hy_err_set(x->err, HY_EDATA, "%s: %s.law_scale: %g, expected a scale > 0 (the law's moment times it)",
                        x->name, where, h->law_scale);
    if (rc == HY_OK)
        rc = choice(x, o, where, "law", law_names, &h->law);
    if (rc == HY_OK)
        rc = path(x, o, where, "model", c->model_path[j], MECH_BEAM_PATH_LEN);
    if (rc == HY_OK && (h->law == MECH_BEAM_MODEL || h->law == MECH_BEAM_DEADZONE_MODEL) && !c->model_path[j][0])
        rc = hy_err_set(x->err, HY_EPARSE, "%s: %s.model: the law \"%s\" needs a hyst-model file", x->name, where,
                        law_names[h->law]);
    if (rc == HY_OK && c->model_path[j][0] && h->law != MECH_BEAM_MODEL && h->law != MECH_BEAM_DEADZONE_MODEL)
        rc = hy_err_set(x->err, HY_EPARSE, "%s: %s.model: a model file needs \"law\": \"model\" or "
                        "\"deadzone+model\"", x->name, where);
    return rc;
}

static int section(const ctx *x, const cJSON *doc, const char *key, const char *const *allowed, const cJSON **out)
{
    *out = cJSON_GetObjectItemCaseSensitive(doc, key);
    if (!*out)
        return HY_OK;
    if (!cJSON_IsObject(*out))
        return hy_err_set(x->err, HY_EPARSE, "%s: %s: expected an object", x->name, key);
    return keys(x, *out, key, allowed);
}

static int parse_doc(const ctx *x, const cJSON *doc, mech_beam_config *c)
{
    static const char *const top[] = {"format", "version", "name", "notes", "source", "beam", "hub", "modes",
                                      "hinges", "mfc", "load", "solver", "control", "outputs", NULL};
    static const char *const kb[] = {"E", "rho", "length", "width", "thickness", "elements", NULL};
    static const char *const kh[] = {"r0", "J1", NULL};
    static const char *const km[] = {"count", "attachment", NULL};
    static const char *const kf[] = {"enabled", "start", "length", "width", "thickness", "e_eff", "electrode",
                                     "add_structure", "density", "E1", NULL};
    static const char *const kl[] = {"position", "F0", "t0", "width", "edges", "history", "history_t",
                                     "history_F", NULL};
    static const char *const ks[] = {"beta", "gamma", "dt", "duration", "update", "tol", "max_iter",
                                     "theta_torque", "coordinates", "linear", NULL};
    static const char *const kc[] = {"enabled", "design", "Q", "R", "u_max", NULL};
    static const char *const ko[] = {"rate", "events", NULL};
    static const char *const events[] = {"none", "also", "only", NULL};   /* MECH_BEAM_EVENTS_* */
    static const char *const edges[] = {"closed", "half", "open", NULL};
    static const char *const updates[] = {"lagged", "iterated", NULL};
    static const char *const torque[] = {"faithful", "consistent", NULL};
    static const char *const coords[] = {"modal", "physical", NULL};
    static const char *const designs[] = {"flex", "theta", NULL};
    mech_beam_params *p = &c->params;
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(doc, "format");
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(doc, "version");
    if (!cJSON_IsObject(doc))
        return hy_err_set(x->err, HY_EPARSE, "%s: expected a JSON object at the top level", x->name);
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "mech-beam") != 0)
        return hy_err_set(x->err, HY_EPARSE, "%s: \"format\": expected \"mech-beam\"", x->name);
    if (ver && (!cJSON_IsNumber(ver) || ver->valuedouble != 1))
        return hy_err_set(x->err, HY_EPARSE, "%s: \"version\": expected 1", x->name);
    int rc = keys(x, doc, "", top);
    const cJSON *o = NULL;
    if (rc == HY_OK && (rc = section(x, doc, "beam", kb, &o)) == HY_OK && o) {
        if (rc == HY_OK) rc = num(x, o, "beam", "E", &p->E);
        if (rc == HY_OK) rc = num(x, o, "beam", "rho", &p->rho);
        if (rc == HY_OK) rc = num(x, o, "beam", "length", &p->length);
        if (rc == HY_OK) rc = num(x, o, "beam", "width", &p->width);
        if (rc == HY_OK) rc = num(x, o, "beam", "thickness", &p->thickness);
        if (rc == HY_OK) rc = integer(x, o, "beam", "elements", 1, 1000, &p->n_elem);
    }
    if (rc == HY_OK && (rc = section(x, doc, "hub", kh, &o)) == HY_OK && o) {
        if (rc == HY_OK) rc = num(x, o, "hub", "r0", &p->r0);
        if (rc == HY_OK) rc = num(x, o, "hub", "J1", &p->J1);
    }
    if (rc == HY_OK && (rc = section(x, doc, "modes", km, &o)) == HY_OK && o) {
        if (rc == HY_OK) rc = integer(x, o, "modes", "count", 0, 100000, &p->n_modes);
        if (rc == HY_OK) rc = boolean(x, o, "modes", "attachment", &p->attachment_modes);
    }
    /* load position defaults to the (possibly new) tip; hinge defaults follow the beam's k_l */
    p->load_position = p->length;
    p->hinge[0].position = 0.5 * p->length;
    p->hinge[0].k = mech_beam_k_ref(p);
    double k_ref = mech_beam_k_ref(p);
    const cJSON *hs = cJSON_GetObjectItemCaseSensitive(doc, "hinges");
    if (rc == HY_OK && hs) {
        if (cJSON_IsArray(hs)) {
            int nh = cJSON_GetArraySize(hs);
            if (nh > MECH_BEAM_MAX_HINGES)
                rc = hy_err_set(x->err, HY_EPARSE, "%s: hinges: %d hinges, at most %d", x->name, nh,
                                MECH_BEAM_MAX_HINGES);
            mech_beam_hinge h0 = p->hinge[0];
            int j = 0;
            for (const cJSON *it = hs->child; it && rc == HY_OK; it = it->next, j++) {
                char where[32];
                snprintf(where, sizeof where, "hinges[%d]", j);
                p->hinge[j] = h0;
                p->hinge[j].position = NAN;
                rc = hinge(x, it, where, c, j, k_ref);
                if (rc == HY_OK && cJSON_GetObjectItemCaseSensitive(it, "count"))
                    rc = hy_err_set(x->err, HY_EPARSE, "%s: %s.count: only in the \"hinges\": {\"count\": n} form",
                                    x->name, where);
                if (rc == HY_OK && isnan(p->hinge[j].position))
                    rc = hy_err_set(x->err, HY_EPARSE, "%s: %s.position: required (m from the root)", x->name, where);
            }
            if (rc == HY_OK)
                p->n_hinges = nh;
        } else if (cJSON_IsObject(hs)) {
            /* equally spaced: {"count": n, ...template...} at i l / (n + 1) (spec §1's assumed layout) */
            int nh = 1;
            rc = integer(x, hs, "hinges", "count", 0, MECH_BEAM_MAX_HINGES, &nh);
            if (rc == HY_OK && cJSON_GetObjectItemCaseSensitive(hs, "position"))
                rc = hy_err_set(x->err, HY_EPARSE, "%s: hinges.position: the \"count\" form places the hinges at "
                                "i l / (count + 1); use a list of hinges for other positions", x->name);
            if (rc == HY_OK)
                rc = hinge(x, hs, "hinges", c, 0, k_ref);
            if (rc == HY_OK) {
                for (int j = 1; j < nh; j++)
                    snprintf(c->model_path[j], MECH_BEAM_PATH_LEN, "%s", c->model_path[0]);
                mech_beam_params_equal_hinges(p, nh);
            }
        } else {
            rc = hy_err_set(x->err, HY_EPARSE, "%s: hinges: expected a list of hinge objects or {\"count\": n, ...}",
                            x->name);
        }
    }
    mech_beam_mfc *f = &p->mfc;
    if (rc == HY_OK && (rc = section(x, doc, "mfc", kf, &o)) == HY_OK && o) {
        f->enabled = 1;
        if (rc == HY_OK) rc = boolean(x, o, "mfc", "enabled", &f->enabled);
        if (rc == HY_OK) rc = num(x, o, "mfc", "start", &f->start);
        if (rc == HY_OK) rc = num(x, o, "mfc", "length", &f->length);
        if (rc == HY_OK) rc = num(x, o, "mfc", "width", &f->width);
        if (rc == HY_OK) rc = num(x, o, "mfc", "thickness", &f->thickness);
        if (rc == HY_OK) rc = num(x, o, "mfc", "e_eff", &f->e_eff);
        if (rc == HY_OK) rc = num(x, o, "mfc", "electrode", &f->electrode);
        if (rc == HY_OK) rc = boolean(x, o, "mfc", "add_structure", &f->add_structure);
        if (rc == HY_OK) rc = num(x, o, "mfc", "density", &f->density);
        if (rc == HY_OK) rc = num(x, o, "mfc", "E1", &f->E1);
    }
    mech_beam_load *l = &c->load;
    if (rc == HY_OK && (rc = section(x, doc, "load", kl, &o)) == HY_OK && o) {
        if (rc == HY_OK) rc = num(x, o, "load", "position", &p->load_position);
        if (rc == HY_OK) rc = num(x, o, "load", "F0", &l->F0);
        if (rc == HY_OK) rc = num(x, o, "load", "t0", &l->t0);
        if (rc == HY_OK) rc = num(x, o, "load", "width", &l->width);
        if (rc == HY_OK) rc = choice(x, o, "load", "edges", edges, &l->edges);
        if (rc == HY_OK) rc = path(x, o, "load", "history", c->history_path, sizeof c->history_path);
        if (rc == HY_OK) rc = text(x, o, "load", "history_t", c->history_t, sizeof c->history_t);
        if (rc == HY_OK) rc = text(x, o, "load", "history_F", c->history_F, sizeof c->history_F);
        if (rc == HY_OK && !(l->width >= 0))
            rc = hy_err_set(x->err, HY_EPARSE, "%s: load.width = %g: expected a duration >= 0 s", x->name, l->width);
    }
    mech_beam_solver *s = &c->solver;
    if (rc == HY_OK && (rc = section(x, doc, "solver", ks, &o)) == HY_OK && o) {
        if (rc == HY_OK) rc = num(x, o, "solver", "beta", &s->beta);
        if (rc == HY_OK) rc = num(x, o, "solver", "gamma", &s->gamma);
        if (rc == HY_OK) rc = num(x, o, "solver", "dt", &s->dt);
        if (rc == HY_OK) rc = num(x, o, "solver", "duration", &s->duration);
        if (rc == HY_OK) rc = choice(x, o, "solver", "update", updates, &s->update);
        if (rc == HY_OK) rc = num(x, o, "solver", "tol", &s->tol);
        if (rc == HY_OK) rc = integer(x, o, "solver", "max_iter", 2, 10000, &s->max_iter);
        if (rc == HY_OK) rc = choice(x, o, "solver", "theta_torque", torque, &s->theta_torque);
        if (rc == HY_OK) rc = choice(x, o, "solver", "coordinates", coords, &s->physical);
        if (rc == HY_OK) rc = boolean(x, o, "solver", "linear", &s->linear);
        if (rc == HY_OK && !(s->dt > 0))
            rc = hy_err_set(x->err, HY_EPARSE, "%s: solver.dt = %g: expected a step > 0 s", x->name, s->dt);
        if (rc == HY_OK && !(s->duration >= 0 && s->duration / s->dt <= 1e8))
            rc = hy_err_set(x->err, HY_EPARSE, "%s: solver.duration = %g: expected 0 .. 1e8 steps", x->name,
                            s->duration);
    }
    if (rc == HY_OK && (rc = section(x, doc, "control", kc, &o)) == HY_OK && o) {
        c->control_enabled = 1;
        if (rc == HY_OK) rc = boolean(x, o, "control", "enabled", &c->control_enabled);
        if (rc == HY_OK) rc = choice(x, o, "control", "design", designs, &c->control_design);
        if (rc == HY_OK) rc = num(x, o, "control", "Q", &c->control_Q);
        if (rc == HY_OK) rc = num(x, o, "control", "R", &c->control_R);
        if (rc == HY_OK) rc = num(x, o, "control", "u_max", &c->control_u_max);
        if (rc == HY_OK && !(c->control_Q > 0 && c->control_R > 0 && c->control_u_max >= 0))
            rc = hy_err_set(x->err, HY_EPARSE, "%s: control: expected Q > 0, R > 0 and u_max >= 0 (0: no limit)",
                            x->name);
    }
    if (rc == HY_OK && (rc = section(x, doc, "outputs", ko, &o)) == HY_OK && o) {
        if (rc == HY_OK) rc = num(x, o, "outputs", "rate", &c->output_rate);
        if (rc == HY_OK && !(c->output_rate >= 0))
            rc = hy_err_set(x->err, HY_EPARSE, "%s: outputs.rate = %g: expected rows a second >= 0 (0: every step)",
                            x->name, c->output_rate);
        if (rc == HY_OK) rc = choice(x, o, "outputs", "events", events, &c->output_events);
    }
    return rc;
}

int mech_beam_config_parse(const char *txt, size_t len, const char *name, const char *dir, mech_beam_config *c,
                           hy_err *err)
{
    mech_beam_config_default(c);
    ctx x = {name, dir, err};
    cJSON *doc; /* strict: nothing after the object, no key twice */
    int rc0 = hy_json_parse_strict(txt, len, name, "a mech-beam object", &doc, err);
    if (rc0 != HY_OK)
        return rc0;
    int rc = parse_doc(&x, doc, c);
    cJSON_Delete(doc);
    return rc;
}

int mech_beam_config_load(mech_beam_config *c, const char *name, hy_err *err)
{
    mech_beam_params *p = &c->params;
    int rc = HY_OK;
    for (int j = 0; j < p->n_hinges && rc == HY_OK; j++) {
        if (!c->model_path[j][0])
            continue;
        hy_err e;
        if (hy_model_read(c->model_path[j], &c->models[j], &e) != HY_OK) {
            rc = hy_err_set(err, e.code, "%s: hinges[%d].model: %s", name, j, e.msg);
            break;
        }
        mech_beam_hinge *h = &p->hinge[j];
        h->model = &c->models[j];
        h->q_scale = mech_beam_angle_scale(c->models[j].unit_q);
        h->Q_scale = mech_beam_moment_scale(c->models[j].unit_Q);
        if (h->q_scale == 0 || h->Q_scale == 0)
            rc = hy_err_set(err, HY_EMODEL, "%s: hinges[%d].model: %s has units q = \"%s\", Q = \"%s\"; a hinge law "
                            "needs an angle (rad, mrad, deg) and a moment (N m, kN m, N mm)", name, j,
                            c->model_path[j], c->models[j].unit_q, c->models[j].unit_Q);
    }
    if (rc == HY_OK && c->history_path[0]) {
        hy_csv_opts o;
        hy_csv_opts_default(&o);
        o.t_col = c->history_t;
        o.x_col = c->history_F;
        o.no_force = 1;
        hy_series ser;
        hy_series_init(&ser);
        hy_err e;
        if (hy_csv_read(c->history_path, &o, &ser, &e) != HY_OK) {
            rc = hy_err_set(err, e.code, "%s: load.history: %s", name, e.msg);
        } else if (ser.n < 2) {
            rc = hy_err_set(err, HY_EDATA, "%s: load.history: %s has %zu samples, expected at least 2", name,
                            c->history_path, ser.n);
        } else if (!(c->hist = malloc(2 * ser.n * sizeof(double)))) {
            rc = hy_err_set(err, HY_ENOMEM, "%s: load.history: out of memory", name);
        } else {
            memcpy(c->hist, ser.t, ser.n * sizeof(double));
            memcpy(c->hist + ser.n, ser.q, ser.n * sizeof(double));
            c->load.n_hist = ser.n;
            c->load.t_hist = c->hist;
            c->load.F_hist = c->hist + ser.n;
        }
        hy_series_free(&ser);
    }
    return rc;
}

int mech_beam_config_read(const char *file, mech_beam_config *c, hy_err *err)
{
    const char *name = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    mech_beam_config_default(c);
    char *txt;
    size_t n;
    int rc0 = hy_read_text(file, "a configuration file (mech-beam JSON)", 0, &txt, &n, err);
    if (rc0 != HY_OK)
        return rc0;
    char dir[MECH_BEAM_PATH_LEN];
    hy_path_dir(file, dir, sizeof dir);
    int rc = mech_beam_config_parse(txt, n, name, dir, c, err);
    free(txt);
    if (rc == HY_OK)
        rc = mech_beam_config_load(c, name, err);
    if (rc != HY_OK)
        mech_beam_config_free(c);
    return rc;
}

void mech_beam_config_free(mech_beam_config *c)
{
    for (int j = 0; j < MECH_BEAM_MAX_HINGES; j++)
        if (c->models[j].type != HY_MODEL_NONE || c->models[j].extra)
            hy_model_free(&c->models[j]);
    free(c->hist);
    c->hist = NULL;
    c->load.n_hist = 0;
}

/* The "mech-friction" JSON example file (docs/friction.md "File format"). Engine code never parses files: this is
 * the only place that reads this format. Every error names the file and the key ("f.json: contacts[1].mu: ..."). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/util.h"
#include "mech/friction.h"

typedef struct ctx {
    const char *name;
    hy_err     *err;
} ctx;

// (text) => a copy fit for a one-line message: control characters become '?', long text is cut with "..."
static void printable(char *dst, size_t len, const char *src)
{
    size_t i = 0;
    for (; src[i] && i + 4 < len; i++)
        dst[i] = (unsigned char)src[i] < 0x20 || src[i] == 0x7f ? '?' : src[i];
    if (src[i])
        memcpy(dst + i, "...", 4);
    else
        dst[i] = '\0';
}

// (object, where, known keys) => error naming the first unknown key
static int known_keys(const ctx *x, const cJSON *o, const char *where, const char *const *known, const char *list)
{
    for (const cJSON *it = o->child; it; it = it->next) {
        int ok = 0;
        for (const char *const *k = known; *k; k++)
            ok |= strcmp(it->string, *k) == 0;
        if (!ok) {
            char key[48];
            printable(key, sizeof key, it->string);
            return hy_err_set(x->err, HY_EPARSE, "%s: %s%s: unknown key (known: %s)", x->name, where, key, list);
        }
    }
    return HY_OK;
}

// (object, key) => *v set when present (finite number); required: an error when missing
static int num(const ctx *x, const cJSON *o, const char *where, const char *key, double *v, int required)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!it)
        return required ? hy_err_set(x->err, HY_EPARSE, "%s: %s%s: missing (expected a number)", x->name, where, key)
                        : HY_OK;
    if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
        return hy_err_set(x->err, HY_EPARSE, "%s: %s%s: expected a finite number", x->name, where, key);
    *v = it->valuedouble;
    return HY_OK;
}

// (value) => error unless cond: "f.json: mechanism.mass = -1: expected > 0"
static int need(const ctx *x, int cond, const char *where, const char *key, double v, const char *what)
{
    if (cond)
        return HY_OK;
    return hy_err_set(x->err, HY_EPARSE, "%s: %s%s = %.6g: expected %s", x->name, where, key, v, what);
}

// (array item, n) => n finite numbers
static int vec(const ctx *x, const cJSON *a, const char *path, int n, double *out)
{
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != n)
        return hy_err_set(x->err, HY_EPARSE, "%s: %s: expected an array of %d numbers", x->name, path, n);
    int i = 0;
    for (const cJSON *it = a->child; it; it = it->next, i++) {
        if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
            return hy_err_set(x->err, HY_EPARSE, "%s: %s[%d]: expected a finite number", x->name, path, i);
        out[i] = it->valuedouble;
    }
    return HY_OK;
}

// (array of rows, rows, cols) => row-major matrix
static int mat(const ctx *x, const cJSON *a, const char *path, int rows, int cols, double *out)
{
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != rows)
        return hy_err_set(x->err, HY_EPARSE, "%s: %s: expected %d rows of %d numbers", x->name, path, rows, cols);
    int i = 0, rc = HY_OK;
    for (const cJSON *it = a->child; it && rc == HY_OK; it = it->next, i++) {
        char p[96];
        snprintf(p, sizeof p, "%s[%d]", path, i);
        rc = vec(x, it, p, cols, out + (size_t)i * cols);
    }
    return rc;
}

// (object, key) => load: a number, or {value, slope, amplitude, freq_hz, phase_deg}
static int load(const ctx *x, const cJSON *o, const char *key, mech_friction_load *l)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    memset(l, 0, sizeof *l);
    if (!it)
        return HY_OK;
    if (cJSON_IsNumber(it))
        return num(x, o, "loads.", key, &l->value, 1);
    if (!cJSON_IsObject(it))
        return hy_err_set(x->err, HY_EPARSE, "%s: loads.%s: expected a number or an object {value, slope, "
                          "amplitude, freq_hz, phase_deg}", x->name, key);
    static const char *const k[] = {"value", "slope", "amplitude", "freq_hz", "phase_deg", NULL};
    char where[64];
    snprintf(where, sizeof where, "loads.%s.", key);
    int rc = known_keys(x, it, where, k, "value, slope, amplitude, freq_hz, phase_deg");
    double ph = 0;
    if (rc == HY_OK) rc = num(x, it, where, "value", &l->value, 0);
    if (rc == HY_OK) rc = num(x, it, where, "slope", &l->slope, 0);
    if (rc == HY_OK) rc = num(x, it, where, "amplitude", &l->amplitude, 0);
    if (rc == HY_OK) rc = num(x, it, where, "freq_hz", &l->freq, 0);
    if (rc == HY_OK) rc = num(x, it, where, "phase_deg", &ph, 0);
    if (rc == HY_OK) rc = need(x, l->freq >= 0, where, "freq_hz", l->freq, ">= 0");
    l->phase = ph * M_PI / 180;
    return rc;
}

// (contact object or number/array) => one coefficient per side
static int coef2(const ctx *x, const cJSON *o, const char *where, const char *key, double v[2], int required)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!it) {
        if (required)
            return hy_err_set(x->err, HY_EPARSE, "%s: %s%s: missing (a number, or [side +1, side -1])", x->name,
                              where, key);
        return HY_OK;
    }
    char path[96];
    snprintf(path, sizeof path, "%s%s", where, key);
    int rc;
    if (cJSON_IsArray(it))
        rc = vec(x, it, path, 2, v);
    else if ((rc = num(x, o, where, key, &v[0], 1)) == HY_OK)
        v[1] = v[0];
    for (int k = 0; rc == HY_OK && k < 2; k++)
        if (!(v[k] >= 0 && v[k] <= 100))
            rc = hy_err_set(x->err, HY_EPARSE, "%s: %s = %.6g: expected a friction coefficient in [0, 100]", x->name,
                            path, v[k]);
    return rc;
}

static int mechanism(const ctx *x, const cJSON *mo, mech_friction_config *c)
{
    const char *w = "mechanism.";
    if (!cJSON_IsObject(mo))
        return hy_err_set(x->err, HY_EPARSE, "%s: mechanism: expected an object with a \"kind\"", x->name);
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(mo, "kind");
    const char *kn = cJSON_IsString(kind) ? kind->valuestring : "";
    int rc = HY_OK;
    if (strcmp(kn, "bushing") == 0) {
        static const char *const k[] = {"kind", "mass", "radius", "pairs_at", NULL};
        c->kind = MECH_FRICTION_BUSHING, c->w = 1, c->ns = c->nc = 2;
        rc = known_keys(x, mo, w, k, "kind, mass, radius, pairs_at");
        if (rc == HY_OK) rc = num(x, mo, w, "mass", &c->mass, 1);
        if (rc == HY_OK) rc = need(x, c->mass > 0, w, "mass", c->mass, "a mass > 0 (kg)");
        if (rc == HY_OK) rc = num(x, mo, w, "radius", &c->radius, 1);
        if (rc == HY_OK) rc = need(x, c->radius >= 0, w, "radius", c->radius, "a radius >= 0 (m)");
        if (rc == HY_OK) rc = vec(x, cJSON_GetObjectItemCaseSensitive(mo, "pairs_at"), "mechanism.pairs_at", 2, c->a);
        if (rc == HY_OK && c->a[0] == c->a[1])
            rc = hy_err_set(x->err, HY_EPARSE, "%s: mechanism.pairs_at: the two pairs must sit at different axial "
                            "positions", x->name);
    } else if (strcmp(kn, "screw_nut") == 0) {
        static const char *const k[] = {"kind", "screw_inertia", "nut_mass", "lead", "thread_radius", NULL};
        c->kind = MECH_FRICTION_SCREW, c->w = 1, c->ns = c->nc = 1;
        rc = known_keys(x, mo, w, k, "kind, screw_inertia, nut_mass, lead, thread_radius");
        if (rc == HY_OK) rc = num(x, mo, w, "screw_inertia", &c->J, 1);
        if (rc == HY_OK) rc = need(x, c->J >= 0, w, "screw_inertia", c->J, "an inertia >= 0 (kg m^2)");
        if (rc == HY_OK) rc = num(x, mo, w, "nut_mass", &c->mass, 1);
        if (rc == HY_OK) rc = need(x, c->mass > 0, w, "nut_mass", c->mass, "a mass > 0 (kg)");
        if (rc == HY_OK) rc = num(x, mo, w, "lead", &c->lead, 1);
        if (rc == HY_OK) rc = need(x, c->lead > 0, w, "lead", c->lead, "a lead > 0 (m per turn)");
        if (rc == HY_OK) rc = num(x, mo, w, "thread_radius", &c->thread_radius, 1);
        if (rc == HY_OK) rc = need(x, c->thread_radius > 0, w, "thread_radius", c->thread_radius, "a radius > 0 (m)");
    } else if (strcmp(kn, "slider_crank") == 0) {
        static const char *const k[] = {"kind", "crank_radius", "rod_length", "crank_inertia", "slider_mass", NULL};
        c->kind = MECH_FRICTION_CRANK, c->w = 1, c->ns = c->nc = 1;
        rc = known_keys(x, mo, w, k, "kind, crank_radius, rod_length, crank_inertia, slider_mass");
        if (rc == HY_OK) rc = num(x, mo, w, "crank_radius", &c->crank_radius, 1);
        if (rc == HY_OK) rc = need(x, c->crank_radius > 0, w, "crank_radius", c->crank_radius, "a radius > 0 (m)");
        if (rc == HY_OK) rc = num(x, mo, w, "rod_length", &c->rod_length, 1);
        if (rc == HY_OK)
            rc = need(x, c->rod_length > c->crank_radius, w, "rod_length", c->rod_length,
                      "a length greater than crank_radius (m)");
        if (rc == HY_OK) rc = num(x, mo, w, "crank_inertia", &c->J, 1);
        if (rc == HY_OK) rc = need(x, c->J > 0, w, "crank_inertia", c->J, "an inertia > 0 (kg m^2)");
        if (rc == HY_OK) rc = num(x, mo, w, "slider_mass", &c->mass, 1);
        if (rc == HY_OK) rc = need(x, c->mass > 0, w, "slider_mass", c->mass, "a mass > 0 (kg)");
    } else if (strcmp(kn, "generic") == 0) {
        static const char *const k[] = {"kind", "coordinates", "pairs", "M_qq", "M_sq", "f_q", "f_s", "normals",
                                        "tangents", NULL};
        c->kind = MECH_FRICTION_GENERIC;
        rc = known_keys(x, mo, w, k, "kind, coordinates, pairs, M_qq, M_sq, f_q, f_s, normals, tangents");
        double dw = 0, dn = 0;
        if (rc == HY_OK) rc = num(x, mo, w, "coordinates", &dw, 1);
        if (rc == HY_OK)
            rc = need(x, dw >= 1 && dw <= MECH_FRICTION_MAX_W && dw == floor(dw), w, "coordinates", dw,
                      "an integer in 1..6");
        if (rc == HY_OK) rc = num(x, mo, w, "pairs", &dn, 1);
        if (rc == HY_OK)
            rc = need(x, dn >= 1 && dn <= MECH_FRICTION_MAX_NC && dn == floor(dn), w, "pairs", dn,
                      "an integer in 1..6");
        if (rc != HY_OK)
            return rc;
        int nw = (int)dw, nc = (int)dn, W = nw + nc;
        c->w = nw, c->ns = c->nc = nc;
        rc = mat(x, cJSON_GetObjectItemCaseSensitive(mo, "M_qq"), "mechanism.M_qq", nw, nw, c->Mqq);
        if (rc == HY_OK) rc = mat(x, cJSON_GetObjectItemCaseSensitive(mo, "M_sq"), "mechanism.M_sq", nc, nw, c->Msq);
        if (rc == HY_OK) rc = vec(x, cJSON_GetObjectItemCaseSensitive(mo, "f_q"), "mechanism.f_q", nw, c->fq);
        if (rc == HY_OK) rc = vec(x, cJSON_GetObjectItemCaseSensitive(mo, "f_s"), "mechanism.f_s", nc, c->fs);
        for (int i = 0; rc == HY_OK && i < nw; i++)
            for (int j = 0; j < i; j++)
                if (c->Mqq[i * nw + j] != c->Mqq[j * nw + i])
                    rc = hy_err_set(x->err, HY_EPARSE, "%s: mechanism.M_qq[%d][%d]: the mass matrix must be "
                                    "symmetric", x->name, i, j);
        for (int v = 0; rc == HY_OK && v < 2; v++) {
            const char *key = v ? "tangents" : "normals";
            const cJSON *a = cJSON_GetObjectItemCaseSensitive(mo, key);
            double *dst = v ? c->tvec : c->nvec;
            if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != nc) {
                rc = hy_err_set(x->err, HY_EPARSE, "%s: mechanism.%s: expected one entry per pair (%d), each "
                                "[[side +1: %d numbers], [side -1: %d numbers]]", x->name, key, nc, W, W);
                break;
            }
            int j = 0;
            for (const cJSON *it = a->child; it && rc == HY_OK; it = it->next, j++) {
                char p[64];
                snprintf(p, sizeof p, "mechanism.%s[%d]", key, j);
                rc = mat(x, it, p, 2, W, dst + (size_t)2 * j * W);
            }
        }
    } else {
        return hy_err_set(x->err, HY_EPARSE, "%s: mechanism.kind: expected \"bushing\", \"screw_nut\", "
                          "\"slider_crank\" or \"generic\"", x->name);
    }
    return rc;
}

static int contacts(const ctx *x, const cJSON *a, mech_friction_config *c)
{
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != c->nc)
        return hy_err_set(x->err, HY_EPARSE, "%s: contacts: expected an array of %d objects (one per pair) "
                          "{\"mu\": ..., \"mu_static\": ...}", x->name, c->nc);
    static const char *const k[] = {"mu", "mu_static", NULL};
    int j = 0, rc = HY_OK;
    for (const cJSON *it = a->child; it && rc == HY_OK; it = it->next, j++) {
        char where[32];
        snprintf(where, sizeof where, "contacts[%d].", j);
        mech_friction_contact *ct = &c->contact[j];
        ct->sides = 2;
        if (!cJSON_IsObject(it))
            return hy_err_set(x->err, HY_EPARSE, "%s: contacts[%d]: expected an object", x->name, j);
        rc = known_keys(x, it, where, k, "mu, mu_static");
        if (rc == HY_OK) rc = coef2(x, it, where, "mu", ct->mu, 1);
        ct->mu_s[0] = ct->mu[0], ct->mu_s[1] = ct->mu[1];
        if (rc == HY_OK) rc = coef2(x, it, where, "mu_static", ct->mu_s, 0);
    }
    return rc;
}

static int loads(const ctx *x, const cJSON *o, mech_friction_config *c)
{
    if (!o)
        return HY_OK;
    if (!cJSON_IsObject(o))
        return hy_err_set(x->err, HY_EPARSE, "%s: loads: expected an object", x->name);
    int rc;
    switch (c->kind) {
    case MECH_FRICTION_BUSHING: {
        static const char *const k[] = {"axial_force", "axial_offset", "lateral_force", "lateral_offset", "moment",
                                        NULL};
        rc = known_keys(x, o, "loads.", k, "axial_force, axial_offset, lateral_force, lateral_offset, moment");
        if (rc == HY_OK) rc = load(x, o, "axial_force", &c->load[0]);
        if (rc == HY_OK) rc = load(x, o, "lateral_force", &c->load[1]);
        if (rc == HY_OK) rc = load(x, o, "moment", &c->load[2]);
        if (rc == HY_OK) rc = num(x, o, "loads.", "axial_offset", &c->e_y, 0);
        if (rc == HY_OK) rc = num(x, o, "loads.", "lateral_offset", &c->e_x, 0);
        return rc;
    }
    case MECH_FRICTION_SCREW: {
        static const char *const k[] = {"torque", "axial_force", NULL};
        rc = known_keys(x, o, "loads.", k, "torque, axial_force");
        if (rc == HY_OK) rc = load(x, o, "torque", &c->load[0]);
        if (rc == HY_OK) rc = load(x, o, "axial_force", &c->load[1]);
        return rc;
    }
    case MECH_FRICTION_CRANK: {
        static const char *const k[] = {"torque", "slider_force", NULL};
        rc = known_keys(x, o, "loads.", k, "torque, slider_force");
        if (rc == HY_OK) rc = load(x, o, "torque", &c->load[0]);
        if (rc == HY_OK) rc = load(x, o, "slider_force", &c->load[1]);
        return rc;
    }
    default:
        return hy_err_set(x->err, HY_EPARSE, "%s: loads: the generic kind takes its forces from mechanism.f_q and "
                          "mechanism.f_s", x->name);
    }
}

static int rest(const ctx *x, const cJSON *doc, mech_friction_config *c)
{
    int rc = HY_OK;
    const cJSON *in = cJSON_GetObjectItemCaseSensitive(doc, "initial");
    if (in) {
        static const char *const k[] = {"q", "qd", NULL};
        if (!cJSON_IsObject(in))
            return hy_err_set(x->err, HY_EPARSE, "%s: initial: expected an object {\"q\": [...], \"qd\": [...]}",
                              x->name);
        rc = known_keys(x, in, "initial.", k, "q, qd");
        if (rc == HY_OK && cJSON_GetObjectItemCaseSensitive(in, "q"))
            rc = vec(x, cJSON_GetObjectItemCaseSensitive(in, "q"), "initial.q", c->w, c->q0);
        if (rc == HY_OK && cJSON_GetObjectItemCaseSensitive(in, "qd"))
            rc = vec(x, cJSON_GetObjectItemCaseSensitive(in, "qd"), "initial.qd", c->w, c->qd0);
    }
    const cJSON *run = cJSON_GetObjectItemCaseSensitive(doc, "run");
    if (rc == HY_OK && run) {
        static const char *const k[] = {"duration", "step", "sample", "on_paradox", NULL};
        if (!cJSON_IsObject(run))
            return hy_err_set(x->err, HY_EPARSE, "%s: run: expected an object", x->name);
        rc = known_keys(x, run, "run.", k, "duration, step, sample, on_paradox");
        if (rc == HY_OK) rc = num(x, run, "run.", "duration", &c->duration, 0);
        if (rc == HY_OK) rc = need(x, c->duration >= 0 && c->duration <= 1e6, "run.", "duration", c->duration,
                                   "a duration in [0, 1e6] s");
        if (rc == HY_OK) rc = num(x, run, "run.", "step", &c->step, 0);
        if (rc == HY_OK) rc = need(x, c->step > 0 && c->step <= 1, "run.", "step", c->step, "a step in (0, 1] s");
        if (rc == HY_OK) rc = num(x, run, "run.", "sample", &c->sample, 0);
        if (rc == HY_OK) rc = need(x, c->sample > 0, "run.", "sample", c->sample, "an interval > 0 s");
        if (rc == HY_OK && c->duration / c->step > 1e8)
            rc = hy_err_set(x->err, HY_EPARSE, "%s: run.step: more than 1e8 steps over the duration", x->name);
        if (rc == HY_OK && c->duration / c->sample > 1e7)
            rc = hy_err_set(x->err, HY_EPARSE, "%s: run.sample: more than 1e7 samples over the duration", x->name);
        const cJSON *op = cJSON_GetObjectItemCaseSensitive(run, "on_paradox");
        if (rc == HY_OK && op) {
            if (cJSON_IsString(op) && strcmp(op->valuestring, "stop") == 0)
                c->on_paradox_lp = 0;
            else if (cJSON_IsString(op) && strcmp(op->valuestring, "lp") == 0)
                c->on_paradox_lp = 1;
            else
                rc = hy_err_set(x->err, HY_EPARSE, "%s: run.on_paradox: expected \"stop\" or \"lp\"", x->name);
        }
    }
    const cJSON *so = cJSON_GetObjectItemCaseSensitive(doc, "solver");
    if (rc == HY_OK && so) {
        static const char *const k[] = {"eps_v", "eps_N", "max_attempts", NULL};
        if (!cJSON_IsObject(so))
            return hy_err_set(x->err, HY_EPARSE, "%s: solver: expected an object", x->name);
        double att = c->opt.max_attempts;
        rc = known_keys(x, so, "solver.", k, "eps_v, eps_N, max_attempts");
        if (rc == HY_OK) rc = num(x, so, "solver.", "eps_v", &c->opt.eps_v, 0);
        if (rc == HY_OK) rc = need(x, c->opt.eps_v >= 0, "solver.", "eps_v", c->opt.eps_v, ">= 0");
        if (rc == HY_OK) rc = num(x, so, "solver.", "eps_N", &c->opt.eps_N, 0);
        if (rc == HY_OK) rc = need(x, c->opt.eps_N >= 0, "solver.", "eps_N", c->opt.eps_N, ">= 0");
        if (rc == HY_OK) rc = num(x, so, "solver.", "max_attempts", &att, 0);
        if (rc == HY_OK) rc = need(x, att >= 1 && att <= 1000 && att == floor(att), "solver.", "max_attempts", att,
                                   "an integer in 1..1000");
        c->opt.max_attempts = (int)att;
    }
    return rc;
}

// (text, len, name) => configuration
int mech_friction_config_parse(const char *text, size_t len, const char *name, mech_friction_config *c, hy_err *err)
{
    ctx x = {name, err};
    memset(c, 0, sizeof *c);
    mech_friction_opt_default(&c->opt);
    c->duration = 1.0, c->step = 1e-4, c->sample = 1e-3;
    cJSON *doc; /* strict: nothing after the object, no key twice */
    int rc0 = hy_json_parse_strict(text, len, name, "a mech-friction object", &doc, err);
    if (rc0 != HY_OK)
        return rc0;
    static const char *const top[] = {"format", "version", "name", "notes", "source", "mechanism", "contacts",
                                      "loads", "initial", "run", "solver", NULL};
    int rc = HY_OK;
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(doc, "format");
    if (!cJSON_IsObject(doc))
        rc = hy_err_set(err, HY_EPARSE, "%s: expected a JSON object at the top level", name);
    else if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "mech-friction") != 0)
        rc = hy_err_set(err, HY_EPARSE, "%s: format: expected \"mech-friction\"", name);
    if (rc == HY_OK)
        rc = known_keys(&x, doc, "", top, "format, name, mechanism, contacts, loads, initial, run, solver, notes, "
                        "source, version");
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(doc, "name");
    if (rc == HY_OK && nm) {
        if (!cJSON_IsString(nm))
            rc = hy_err_set(err, HY_EPARSE, "%s: name: expected a string", name);
        else
            printable(c->name, sizeof c->name, nm->valuestring);
    }
    if (rc == HY_OK) {
        const cJSON *mo = cJSON_GetObjectItemCaseSensitive(doc, "mechanism");
        rc = mo ? mechanism(&x, mo, c) : hy_err_set(err, HY_EPARSE, "%s: mechanism: missing", name);
    }
    if (rc == HY_OK) rc = contacts(&x, cJSON_GetObjectItemCaseSensitive(doc, "contacts"), c);
    if (rc == HY_OK) rc = loads(&x, cJSON_GetObjectItemCaseSensitive(doc, "loads"), c);
    if (rc == HY_OK) rc = rest(&x, doc, c);
    cJSON_Delete(doc);
    return rc;
}

// (path) => configuration
int mech_friction_config_read(const char *path, mech_friction_config *cfg, hy_err *err)
{
    const char *name = path;
    char *text;
    size_t n;
    int rc0 = hy_read_text(path, "a mech-friction file", 0, &text, &n, err);
    if (rc0 != HY_OK)
        return rc0;
    int rc = mech_friction_config_parse(text, n, name, cfg, err);
    free(text);
    return rc;
}

/* The "mech-pendulum" JSON parameter file (the defaults are in pendulum/pendulum_params.c). Engine code never parses
 * files: this is the only place that reads this format. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>
#include "hyst/util.h"
#include "mech/pendulum.h"

static const char *const known[] = {"format", "version", "name", "notes", "source", "I2", "m2", "I3",
                                    "k_torsion", "g", "pendulums", "unit_model", "run", NULL};

// (object, key, name) => *x set when present; error when not a finite number
static int num(const cJSON *o, const char *key, double *x, const char *name, const char *where, hy_err *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v)
        return HY_OK;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return hy_err_set(err, HY_EPARSE, "%s: %s%s: expected a number", name, where, key);
    *x = v->valuedouble;
    return HY_OK;
}

// (path) => parameters and unit model path
int mech_pend_params_read(const char *path, mech_pend_params *p, char *unit_path, size_t unit_len, hy_err *err)
{
    if (unit_len)
        unit_path[0] = '\0';
    char *text;
    size_t n;
    int rc0 = hy_read_text(path, "a parameter file (mech-pendulum JSON)", 0, &text, &n, err);
    if (rc0 != HY_OK)
        return rc0;
    int rc = mech_pend_params_parse(text, n, path, p, unit_path, unit_len, err);
    free(text);
    return rc;
}

// (text[len], path for messages and for the unit model's folder) => parameters and unit model path
int mech_pend_params_parse(const char *text, size_t len, const char *path, mech_pend_params *p, char *unit_path,
                           size_t unit_len, hy_err *err)
{
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (unit_len)
        unit_path[0] = '\0';
    cJSON *doc; /* strict: only blank space after the document (a NUL byte or a second one is an error), no key twice */
    int rc0 = hy_json_parse_strict(text, len, name, "a mech-pendulum object", &doc, err);
    if (rc0 != HY_OK)
        return rc0;
    int rc = HY_OK;
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(doc, "format");
    const cJSON *pend = cJSON_GetObjectItemCaseSensitive(doc, "pendulums");
    const cJSON *unit = cJSON_GetObjectItemCaseSensitive(doc, "unit_model");
    if (!cJSON_IsObject(doc))
        rc = hy_err_set(err, HY_EPARSE, "%s: expected a JSON object at the top level", name);
    else if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "mech-pendulum") != 0)
        rc = hy_err_set(err, HY_EPARSE, "%s: \"format\": expected \"mech-pendulum\"", name);
    for (const cJSON *it = rc == HY_OK ? doc->child : NULL; it && rc == HY_OK; it = it->next) {
        int ok = 0;
        for (const char *const *k = known; *k; k++)
            ok |= strcmp(it->string, *k) == 0;
        if (!ok)
            rc = hy_err_set(err, HY_EPARSE, "%s: unknown key \"%s\" (known: I2, m2, I3, k_torsion, g, pendulums, "
                            "unit_model, run, name, notes, source)", name, it->string);
    }
    if (rc == HY_OK)
        rc = num(doc, "I2", &p->I2, name, "", err);
    if (rc == HY_OK)
        rc = num(doc, "m2", &p->m2, name, "", err);
    if (rc == HY_OK)
        rc = num(doc, "I3", &p->I3, name, "", err);
    if (rc == HY_OK)
        rc = num(doc, "k_torsion", &p->k_torsion, name, "", err);
    if (rc == HY_OK)
        rc = num(doc, "g", &p->g, name, "", err);
    if (rc == HY_OK && pend) {
        int np = cJSON_GetArraySize(pend);
        if (!cJSON_IsArray(pend) || np < 1 || np > MECH_PEND_MAX_PENDULUMS) {
            rc = hy_err_set(err, HY_EPARSE, "%s: pendulums: expected an array of 1..%d objects "
                            "{\"m\": kg, \"e\": m, \"offset_deg\": deg}", name, MECH_PEND_MAX_PENDULUMS);
        } else {
            p->n_pend = np;
            int i = 0;
            for (const cJSON *it = pend->child; it && rc == HY_OK; it = it->next, i++) {
                char where[32];
                snprintf(where, sizeof where, "pendulums[%d].", i);
                double deg = 0;
                p->pend[i] = (mech_pend_pendulum){NAN, NAN, 0};
                if (!cJSON_IsObject(it))
                    rc = hy_err_set(err, HY_EPARSE, "%s: pendulums[%d]: expected an object", name, i);
                if (rc == HY_OK)
                    rc = num(it, "m", &p->pend[i].m, name, where, err);
                if (rc == HY_OK)
                    rc = num(it, "e", &p->pend[i].e, name, where, err);
                if (rc == HY_OK)
                    rc = num(it, "offset_deg", &deg, name, where, err);
                if (rc == HY_OK && (isnan(p->pend[i].m) || isnan(p->pend[i].e)))
                    rc = hy_err_set(err, HY_EPARSE, "%s: pendulums[%d]: \"m\" and \"e\" are required", name, i);
                p->pend[i].offset = deg * M_PI / 180.0;
            }
        }
    }
    if (rc == HY_OK && unit) {
        if (!cJSON_IsString(unit) || !unit->valuestring[0]) {
            rc = hy_err_set(err, HY_EPARSE, "%s: unit_model: expected the path of a hyst-model file", name);
        } else if (unit->valuestring[0] == '/' || !strchr(path, '/')) {
            snprintf(unit_path, unit_len, "%s", unit->valuestring);
        } else {
            /* relative to the folder of the parameter file */
            int dir = (int)(strrchr(path, '/') - path);
            snprintf(unit_path, unit_len, "%.*s/%s", dir, path, unit->valuestring);
        }
    }
    cJSON_Delete(doc);
    return rc;
}

/* The optional "run" object: what one run of the damper is (`mech pendulum run`, a sweep's pendulum run;
 * docs/pendulum.md "A whole run") */
int mech_pend_run_parse(const char *text, size_t len, const char *path, mech_pend_run_opts *o, hy_err *err)
{
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    mech_pend_run_default(o);
    cJSON *doc;
    int rc = hy_json_parse_strict(text, len, name, "a mech-pendulum object", &doc, err);
    if (rc != HY_OK)
        return rc;
    const cJSON *run = cJSON_IsObject(doc) ? cJSON_GetObjectItemCaseSensitive(doc, "run") : NULL;
    static const char *const keys[] = {"mode", "amplitude", "freq", "periods", "samples", "ramp", "angle", "duration",
                                       "dt", "rk4", "tol", NULL};
    if (run && !cJSON_IsObject(run))
        rc = hy_err_set(err, HY_EPARSE, "%s: run: expected an object {\"mode\": \"decay\"|\"harmonic\", ...}", name);
    for (const cJSON *it = run && rc == HY_OK ? run->child : NULL; it && rc == HY_OK; it = it->next) {
        int ok = 0;
        for (const char *const *k = keys; *k; k++)
            ok |= strcmp(it->string, *k) == 0;
        if (!ok)
            rc = hy_err_set(err, HY_EPARSE, "%s: run: unknown key \"%s\" (known: mode, amplitude, freq, periods, "
                            "samples, ramp, angle, duration, dt, rk4, tol)", name, it->string);
    }
    if (rc == HY_OK && run) {
        const cJSON *md = cJSON_GetObjectItemCaseSensitive(run, "mode");
        if (md && !(cJSON_IsString(md) && (strcmp(md->valuestring, "decay") == 0 ||
                                          strcmp(md->valuestring, "harmonic") == 0)))
            rc = hy_err_set(err, HY_EPARSE, "%s: run.mode: expected \"decay\" or \"harmonic\"", name);
        else if (md)
            o->mode = strcmp(md->valuestring, "decay") == 0 ? MECH_PEND_RUN_DECAY : MECH_PEND_RUN_HARMONIC;
        double per = o->periods, smp = o->samples, h = 0;
        if (rc == HY_OK) rc = num(run, "amplitude", &o->amplitude, name, "run.", err);
        if (rc == HY_OK) rc = num(run, "freq", &o->freq, name, "run.", err);
        if (rc == HY_OK) rc = num(run, "periods", &per, name, "run.", err);
        if (rc == HY_OK) rc = num(run, "samples", &smp, name, "run.", err);
        if (rc == HY_OK) rc = num(run, "ramp", &o->ramp, name, "run.", err);
        if (rc == HY_OK) rc = num(run, "angle", &o->angle, name, "run.", err);
        if (rc == HY_OK) rc = num(run, "duration", &o->duration, name, "run.", err);
        if (rc == HY_OK) rc = num(run, "dt", &o->dt, name, "run.", err);
        if (rc == HY_OK) rc = num(run, "rk4", &h, name, "run.", err);
        if (rc == HY_OK) rc = num(run, "tol", &o->solver.tol, name, "run.", err);
        if (rc == HY_OK && (per != floor(per) || per < 1 || per > 1e8 || smp != floor(smp) || smp < 4 || smp > 1e8))
            rc = hy_err_set(err, HY_EPARSE, "%s: run.periods = %g, run.samples = %g: expected integers >= 1 and >= 4",
                            name, per, smp);
        o->periods = (int)per, o->samples = (int)smp;
        if (rc == HY_OK && h != 0) {
            if (!(h > 0))
                rc = hy_err_set(err, HY_EPARSE, "%s: run.rk4 = %g: expected a positive step (s), or 0 for the adaptive "
                                "integrator", name, h);
            o->solver.fixed = 1, o->solver.h = h;
        }
    }
    cJSON_Delete(doc);
    if (rc == HY_OK)
        rc = mech_pend_run_check(o, name, err);
    return rc;
}

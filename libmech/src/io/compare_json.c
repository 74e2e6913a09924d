/* The "mech-compare-map" JSON file (issue 45, docs/compare.md §2): which measured channel is compared with which run
 * channel, in what unit, with what gain and tolerance, and how the records are aligned. The only place that reads
 * this format; errors name the file and the key. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/util.h"
#include "mech/compare.h"

void mech_compare_map_default(mech_compare_map *m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->time, sizeof m->time, "t");
    m->align = MECH_COMPARE_ALIGN_XCORR;
    m->lag = 0;
    m->max_lag = NAN;
    m->event_level = 0.1;
    m->dt = NAN;
    m->tol = NAN;
    m->window[0] = m->window[1] = NAN;
}

static void chan_default(mech_compare_chan *c, const char *key)
{
    memset(c, 0, sizeof *c);
    c->scale = 1;
    c->tol = NAN;
    c->peak_tol = NAN;
    snprintf(c->key, sizeof c->key, "%s", key);
}

// (object, key, where, name, lo, hi (exclusive when open), *x) => *x when present; a finite number in range
static int num(const cJSON *o, const char *key, const char *where, const char *name, double lo, int pos, double *x,
               hy_err *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v)
        return HY_OK;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return hy_err_set(err, HY_EPARSE, "%s: %s%s: expected a number", name, where, key);
    if (pos ? !(v->valuedouble > lo) : !(v->valuedouble >= lo))
        return hy_err_set(err, HY_EDATA, "%s: %s%s: %.10g, expected a number %s %g", name, where, key, v->valuedouble,
                          pos ? ">" : ">=", lo);
    *x = v->valuedouble;
    return HY_OK;
}

// (object, key, where, name, buffer) => the string when present: printable, 1..len-1 bytes
static int str(const cJSON *o, const char *key, const char *where, const char *name, char *buf, size_t len,
               int required, hy_err *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v) {
        if (required)
            return hy_err_set(err, HY_EPARSE, "%s: %s%s: missing, expected a channel name", name, where, key);
        return HY_OK;
    }
    if (!cJSON_IsString(v) || !v->valuestring[0] || strlen(v->valuestring) >= len)
        return hy_err_set(err, HY_EPARSE, "%s: %s%s: expected a text of 1 to %zu bytes", name, where, key, len - 1);
    for (const unsigned char *p = (const unsigned char *)v->valuestring; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return hy_err_set(err, HY_EPARSE, "%s: %s%s: a control character in the text", name, where, key);
    snprintf(buf, len, "%s", v->valuestring);
    return HY_OK;
}

// (object, allowed keys, where, name) => error on the first key not allowed
static int known_keys(const cJSON *o, const char *const *keys, const char *where, const char *name, hy_err *err)
{
    for (const cJSON *it = o->child; it; it = it->next) {
        int ok = 0;
        for (const char *const *k = keys; *k && !ok; k++)
            ok = strcmp(*k, it->string) == 0;
        if (!ok) {
            char key[80];
            hy_msg_text(key, sizeof key, it->string, strlen(it->string), 60);
            return hy_err_set(err, HY_EPARSE, "%s: %s%s: unknown key", name, where, key);
        }
    }
    return HY_OK;
}

/* (object's "filter" value, where ("" or "channels[2]."), name) => *f: {"order": n, "cutoff": Hz}, the sensor's
 * anti-alias Butterworth (docs/compare.md §2); checked but for the record's Nyquist frequency (mech_compare_new) */
static int filter_key(const cJSON *o, const char *where, const char *name, mech_compare_filter *f, hy_err *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "filter");
    if (!v)
        return HY_OK;
    static const char *const fk[] = {"order", "cutoff", "notes", NULL};
    char w[64], key[64];
    snprintf(w, sizeof w, "%sfilter.", where);
    snprintf(key, sizeof key, "%sfilter", where);
    if (!cJSON_IsObject(v))
        return hy_err_set(err, HY_EPARSE, "%s: %s: expected {\"order\": n, \"cutoff\": Hz}", name, key);
    int rc = known_keys(v, fk, w, name, err);
    if (rc != HY_OK)
        return rc;
    const cJSON *ord = cJSON_GetObjectItemCaseSensitive(v, "order");
    const cJSON *fc = cJSON_GetObjectItemCaseSensitive(v, "cutoff");
    if (!cJSON_IsNumber(ord) || ord->valuedouble != floor(ord->valuedouble) || !(fabs(ord->valuedouble) < 1e6))
        return hy_err_set(err, HY_EPARSE, "%s: %sorder: expected an integer (the Butterworth's order)", name, w);
    if (!cJSON_IsNumber(fc) || !isfinite(fc->valuedouble))
        return hy_err_set(err, HY_EPARSE, "%s: %scutoff: expected a number (Hz)", name, w);
    mech_compare_filter g = {(int)ord->valuedouble, fc->valuedouble};
    if ((rc = mech_compare_filter_check(&g, 0, name, key, err)) != HY_OK)
        return rc;
    *f = g;
    return HY_OK;
}

int mech_compare_map_align(mech_compare_map *m, const char *spec, hy_err *err)
{
    if (!spec || !spec[0] || strlen(spec) >= sizeof m->align_ch)
        return hy_err_set(err, HY_EARG, "--align: expected a measured channel, 'event' or 'none'");
    if (strcmp(spec, "event") == 0)
        m->align = MECH_COMPARE_ALIGN_EVENT;
    else if (strcmp(spec, "none") == 0)
        m->align = MECH_COMPARE_ALIGN_NONE;
    else if (strcmp(spec, "xcorr") == 0)
        m->align = MECH_COMPARE_ALIGN_XCORR;
    else {
        int found = 0;
        for (int k = 0; k < m->n; k++)
            found |= strcmp(m->ch[k].meas, spec) == 0;
        if (m->n > 0 && !found) {
            char s[80];
            hy_msg_text(s, sizeof s, spec, strlen(spec), 60);
            return hy_err_set(err, HY_EDATA, "--align %s: not a measured channel of the map", s);
        }
        m->align = MECH_COMPARE_ALIGN_XCORR;
        snprintf(m->align_ch, sizeof m->align_ch, "%s", spec);
    }
    return HY_OK;
}

int mech_compare_map_window(mech_compare_map *m, const char *spec, hy_err *err)
{
    char s[120];
    hy_msg_text(s, sizeof s, spec ? spec : "", spec ? strlen(spec) : 0, 100);
    char *end;
    double a = spec ? strtod(spec, &end) : NAN, b = NAN;
    if (spec && end != spec && *end == ',') {
        const char *p = end + 1;
        b = strtod(p, &end);
        if (end == p || *end)
            b = NAN;
    }
    if (!isfinite(a) || !isfinite(b) || !(a < b))
        return hy_err_set(err, HY_EARG, "--window %s: expected T0,T1 with T0 < T1 (s, the measured record's time)", s);
    m->window[0] = a, m->window[1] = b;
    return HY_OK;
}

int mech_compare_map_tol(mech_compare_map *m, const char *spec, hy_err *err)
{
    const char *eq = spec ? strrchr(spec, '=') : NULL;
    char s[120];
    hy_msg_text(s, sizeof s, spec ? spec : "", spec ? strlen(spec) : 0, 100);
    if (!eq || eq == spec)
        return hy_err_set(err, HY_EARG, "--tol %s: expected CHANNEL=NRMSE", s);
    char *end;
    double x = strtod(eq + 1, &end);
    if (end == eq + 1 || *end || !isfinite(x) || !(x > 0))
        return hy_err_set(err, HY_EARG, "--tol %s: '%s' is not a positive number", s, eq + 1);
    size_t len = (size_t)(eq - spec);
    int hit = 0;
    for (int k = 0; k < m->n; k++)
        if ((strlen(m->ch[k].meas) == len && strncmp(m->ch[k].meas, spec, len) == 0) ||
            (strlen(m->ch[k].run) == len && strncmp(m->ch[k].run, spec, len) == 0))
            m->ch[k].tol = x, hit = 1;
    if (!hit)
        return hy_err_set(err, HY_EDATA, "--tol %s: '%.*s' is not a channel of the comparison", s, (int)(len > 60 ? 60 : len),
                          spec);
    return HY_OK;
}

int mech_compare_map_same_names(mech_compare_map *m, const char *const *run, int nrun, const char *const *meas,
                                int nmeas, hy_err *err)
{
    for (int j = 0; j < nmeas; j++) {
        if (strcmp(meas[j], m->time) == 0)
            continue;
        for (int i = 0; i < nrun; i++)
            if (strcmp(run[i], meas[j]) == 0) {
                if (m->n >= MECH_COMPARE_MAX_CH)
                    return hy_err_set(err, HY_EDATA, "more than %d channels in common: give a map (--map)",
                                      MECH_COMPARE_MAX_CH);
                if (strlen(meas[j]) >= MECH_COMPARE_NAME)
                    break;
                char key[32];
                snprintf(key, sizeof key, "channel %d", m->n + 1);
                chan_default(&m->ch[m->n], key);
                snprintf(m->ch[m->n].meas, MECH_COMPARE_NAME, "%s", meas[j]);
                snprintf(m->ch[m->n].run, MECH_COMPARE_NAME, "%s", meas[j]);
                m->n++;
                break;
            }
    }
    if (m->n == 0)
        return hy_err_set(err, HY_EDATA, "the records have no channel name in common: give a map (--map)");
    return HY_OK;
}

int mech_compare_map_parse(const char *text, size_t len, const char *path, mech_compare_map *m, hy_err *err)
{
    mech_compare_map_default(m);
    const char *name = path;
    snprintf(m->source, sizeof m->source, "%s", path);
    cJSON *doc;
    int rc = hy_json_parse_strict(text, len, name, "a mech-compare-map object", &doc, err);
    if (rc != HY_OK)
        return rc;
    static const char *const top[] = {"format", "notes", "time", "time_unit", "align", "align_channel", "lag",
                                       "max_lag", "event_level", "dt", "tol", "channels", "loops", "window", "filter",
                                       NULL};
    static const char *const chk[] = {"measured", "run", "unit", "scale", "tol", "peak_tol", "impact",
                                       "derivative", "filter", "notes", NULL};
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(doc, "format");
    const cJSON *chs = cJSON_GetObjectItemCaseSensitive(doc, "channels");
    char align[MECH_COMPARE_NAME] = "";
    if (!cJSON_IsObject(doc))
        rc = hy_err_set(err, HY_EPARSE, "%s: expected a JSON object at the top level", name);
    else if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "mech-compare-map") != 0)
        rc = hy_err_set(err, HY_EPARSE, "%s: format: expected \"mech-compare-map\"", name);
    else if ((rc = known_keys(doc, top, "", name, err)) != HY_OK)
        ;
    else if ((rc = str(doc, "time", "", name, m->time, sizeof m->time, 0, err)) != HY_OK ||
             (rc = str(doc, "time_unit", "", name, m->time_unit, sizeof m->time_unit, 0, err)) != HY_OK ||
             (rc = str(doc, "align", "", name, align, sizeof align, 0, err)) != HY_OK ||
             (rc = str(doc, "align_channel", "", name, m->align_ch, sizeof m->align_ch, 0, err)) != HY_OK ||
             (rc = num(doc, "max_lag", "", name, 0, 0, &m->max_lag, err)) != HY_OK ||
             (rc = num(doc, "event_level", "", name, 0, 1, &m->event_level, err)) != HY_OK ||
             (rc = num(doc, "dt", "", name, 0, 1, &m->dt, err)) != HY_OK ||
             (rc = num(doc, "tol", "", name, 0, 1, &m->tol, err)) != HY_OK)
        ;
    else if (cJSON_GetObjectItemCaseSensitive(doc, "lag") &&
             (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(doc, "lag")) ||
              !isfinite(cJSON_GetObjectItemCaseSensitive(doc, "lag")->valuedouble)))
        rc = hy_err_set(err, HY_EPARSE, "%s: lag: expected a number", name);
    else if (!(m->event_level < 1))
        rc = hy_err_set(err, HY_EDATA, "%s: event_level: %g, expected a fraction below 1", name, m->event_level);
    else if (!cJSON_IsArray(chs) || cJSON_GetArraySize(chs) < 1)
        rc = hy_err_set(err, HY_EPARSE, "%s: channels: expected an array of at least one channel", name);
    else if (cJSON_GetArraySize(chs) > MECH_COMPARE_MAX_CH)
        rc = hy_err_set(err, HY_EDATA, "%s: channels: %d entries, expected at most %d", name, cJSON_GetArraySize(chs),
                        MECH_COMPARE_MAX_CH);
    const cJSON *win = rc == HY_OK ? cJSON_GetObjectItemCaseSensitive(doc, "window") : NULL;
    if (win) {
        const cJSON *w0 = cJSON_GetArrayItem(win, 0), *w1 = cJSON_GetArrayItem(win, 1);
        if (!cJSON_IsArray(win) || cJSON_GetArraySize(win) != 2 || !cJSON_IsNumber(w0) || !cJSON_IsNumber(w1) ||
            !isfinite(w0->valuedouble) || !isfinite(w1->valuedouble))
            rc = hy_err_set(err, HY_EPARSE, "%s: window: expected [T0, T1], two numbers", name);
        else if (!(w0->valuedouble < w1->valuedouble))
            rc = hy_err_set(err, HY_EDATA, "%s: window: [%.10g, %.10g], expected T0 < T1", name, w0->valuedouble,
                            w1->valuedouble);
        else
            m->window[0] = w0->valuedouble, m->window[1] = w1->valuedouble;
    }
    if (rc == HY_OK && cJSON_GetObjectItemCaseSensitive(doc, "lag"))
        m->lag = cJSON_GetObjectItemCaseSensitive(doc, "lag")->valuedouble;
    mech_compare_filter filt = {0, 0};   /* the acquisition's filter: every channel's unless it gives its own */
    if (rc == HY_OK)
        rc = filter_key(doc, "", name, &filt, err);
    int k = 0;
    for (const cJSON *it = rc == HY_OK ? chs->child : NULL; it && rc == HY_OK; it = it->next, k++) {
        mech_compare_chan *c = &m->ch[k];
        char where[40];
        snprintf(where, sizeof where, "channels[%d].", k);
        chan_default(c, "");
        snprintf(c->key, sizeof c->key, "channels[%d]", k);
        if (!cJSON_IsObject(it)) {
            rc = hy_err_set(err, HY_EPARSE, "%s: channels[%d]: expected an object", name, k);
            break;
        }
        const cJSON *imp = cJSON_GetObjectItemCaseSensitive(it, "impact");
        if ((rc = known_keys(it, chk, where, name, err)) != HY_OK ||
            (rc = str(it, "measured", where, name, c->meas, sizeof c->meas, 1, err)) != HY_OK ||
            (rc = str(it, "unit", where, name, c->unit, sizeof c->unit, 0, err)) != HY_OK ||
            (rc = num(it, "tol", where, name, 0, 1, &c->tol, err)) != HY_OK ||
            (rc = num(it, "peak_tol", where, name, 0, 1, &c->peak_tol, err)) != HY_OK)
            break;
        c->filter = filt;
        if ((rc = filter_key(it, where, name, &c->filter, err)) != HY_OK)
            break;
        const cJSON *sc = cJSON_GetObjectItemCaseSensitive(it, "scale");
        if (sc && (!cJSON_IsNumber(sc) || !isfinite(sc->valuedouble))) {
            rc = hy_err_set(err, HY_EPARSE, "%s: %sscale: expected a number", name, where);
            break;
        }
        if (sc && sc->valuedouble == 0) {
            rc = hy_err_set(err, HY_EDATA, "%s: %sscale: 0, expected a non-zero gain", name, where);
            break;
        }
        if (sc)
            c->scale = sc->valuedouble;
        if (imp && !cJSON_IsBool(imp)) {
            rc = hy_err_set(err, HY_EPARSE, "%s: %simpact: expected true or false", name, where);
            break;
        }
        c->impact = cJSON_IsTrue(imp);
        const cJSON *dvj = cJSON_GetObjectItemCaseSensitive(it, "derivative");
        if (dvj && (!cJSON_IsNumber(dvj) || !(dvj->valuedouble == 0 || dvj->valuedouble == 1 ||
                                              dvj->valuedouble == 2))) {
            rc = hy_err_set(err, HY_EPARSE, "%s: %sderivative: expected 0, 1 or 2", name, where);
            break;
        }
        c->derivative = dvj ? (int)dvj->valuedouble : 0;
        if (cJSON_GetObjectItemCaseSensitive(it, "run")) {
            if ((rc = str(it, "run", where, name, c->run, sizeof c->run, 1, err)) != HY_OK)
                break;
        } else
            memcpy(c->run, c->meas, sizeof c->run); /* the same size: the name and its terminator */
        for (int j = 0; j < k; j++)
            if (strcmp(m->ch[j].meas, c->meas) == 0) {
                rc = hy_err_set(err, HY_EDATA, "%s: %smeasured: '%s' is mapped twice (channels[%d])", name, where,
                                c->meas, j);
                break;
            }
        m->n = k + 1;
    }
    const cJSON *loops = rc == HY_OK ? cJSON_GetObjectItemCaseSensitive(doc, "loops") : NULL;
    if (loops && !cJSON_IsArray(loops))
        rc = hy_err_set(err, HY_EPARSE, "%s: loops: expected an array", name);
    else if (loops && cJSON_GetArraySize(loops) > MECH_COMPARE_MAX_LOOPS)
        rc = hy_err_set(err, HY_EDATA, "%s: loops: %d entries, expected at most %d", name, cJSON_GetArraySize(loops),
                        MECH_COMPARE_MAX_LOOPS);
    int l = 0;
    for (const cJSON *it = loops && rc == HY_OK ? loops->child : NULL; it && rc == HY_OK; it = it->next, l++) {
        static const char *const lk[] = {"name", "q", "Q", "notes", NULL};
        char where[40], qn[MECH_COMPARE_NAME], Qn[MECH_COMPARE_NAME];
        snprintf(where, sizeof where, "loops[%d].", l);
        mech_compare_loop *L = &m->loop[l];
        if (!cJSON_IsObject(it)) {
            rc = hy_err_set(err, HY_EPARSE, "%s: loops[%d]: expected an object", name, l);
            break;
        }
        if ((rc = known_keys(it, lk, where, name, err)) != HY_OK ||
            (rc = str(it, "name", where, name, L->name, sizeof L->name, 1, err)) != HY_OK ||
            (rc = str(it, "q", where, name, qn, sizeof qn, 1, err)) != HY_OK ||
            (rc = str(it, "Q", where, name, Qn, sizeof Qn, 1, err)) != HY_OK)
            break;
        L->q = L->Q = -1;
        for (int j = 0; j < m->n; j++) {
            if (strcmp(m->ch[j].meas, qn) == 0)
                L->q = j;
            if (strcmp(m->ch[j].meas, Qn) == 0)
                L->Q = j;
        }
        if (L->q < 0 || L->Q < 0)
            rc = hy_err_set(err, HY_EDATA, "%s: %s%s: '%s' is not a measured channel of the map", name, where,
                            L->q < 0 ? "q" : "Q", L->q < 0 ? qn : Qn);
        else if (L->q == L->Q)
            rc = hy_err_set(err, HY_EDATA, "%s: %sQ: the same channel as q", name, where);
        else
            m->nloop = l + 1;
    }
    if (rc == HY_OK && strcmp(m->time, "") == 0)
        snprintf(m->time, sizeof m->time, "t");
    if (rc == HY_OK) {
        for (int j = 0; j < m->n; j++)
            if (strcmp(m->ch[j].meas, m->time) == 0)
                rc = hy_err_set(err, HY_EDATA, "%s: channels[%d].measured: '%s' is the time column", name, j, m->time);
    }
    if (rc == HY_OK && m->align_ch[0]) {
        int found = 0;
        for (int j = 0; j < m->n; j++)
            found |= strcmp(m->ch[j].meas, m->align_ch) == 0;
        if (!found)
            rc = hy_err_set(err, HY_EDATA, "%s: align_channel: '%s' is not a measured channel of the map", name,
                            m->align_ch);
    }
    if (rc == HY_OK && align[0]) {
        if (strcmp(align, "event") != 0 && strcmp(align, "none") != 0 && strcmp(align, "xcorr") != 0 &&
            m->align_ch[0])
            rc = hy_err_set(err, HY_EDATA, "%s: align: '%s' with align_channel, expected \"xcorr\", \"event\" or "
                            "\"none\"", name, align);
        else {
            hy_err e2;
            if (mech_compare_map_align(m, align, &e2) != HY_OK)
                rc = hy_err_set(err, HY_EDATA, "%s: align: '%s' is not \"xcorr\", \"event\", \"none\" or a measured "
                                "channel of the map", name, align);
        }
    }
    if (rc != HY_OK)
        m->n = 0, m->nloop = 0;
    cJSON_Delete(doc);
    return rc;
}

int mech_compare_map_read(const char *path, mech_compare_map *m, hy_err *err)
{
    mech_compare_map_default(m);
    char *text;
    size_t n;
    int rc = hy_read_text(path, "a channel map (mech-compare-map JSON)", 0, &text, &n, err);
    if (rc != HY_OK)
        return rc;
    rc = mech_compare_map_parse(text, n, hy_display_name(path), m, err);
    free(text);
    return rc;
}

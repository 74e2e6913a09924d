/* A simulated run held in memory (calib_sim.c) against a measured record (docs/calibrate.md §4).
 *
 * Time: the measured record's clock is the simulation's plus an offset tau per channel (the trigger, the anti-alias
 * filter's delay, the acquisition's skew). The simulated value at a measured row is read at t_meas - tau, linear
 * between accepted steps; a row whose time falls outside the simulated run is never compared (no extrapolation). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "hyst/model.h"
#include "hyst/util.h"
#include "mech/calib.h"
#include "mech/compare.h"
#include "mech/dock.h"
#include "calib_internal.h"

double mech_calib_trace_at(const mech_calib_trace *tr, int c, double t)
{
    if (tr->n < 2 || !(t >= tr->t[0] && t <= tr->t[tr->n - 1]))
        return NAN;
    size_t lo = 0, hi = tr->n - 1;   /* t[lo] <= t <= t[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (tr->t[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    double t0 = tr->t[lo], t1 = tr->t[hi];
    double y0 = tr->y[lo * (size_t)tr->nch + (size_t)c], y1 = tr->y[hi * (size_t)tr->nch + (size_t)c];
    if (!(t1 > t0))
        return y1;   /* a zero-length step at an event: the later value */
    return y0 + (y1 - y0) * (t - t0) / (t1 - t0);
}

double mech_calib_align(const mech_calib_record *r, const mech_calib_trace *tr, int c, double offset_max,
                        hy_err *err)
{
    double *a = malloc(tr->n * sizeof *a), *b = malloc(r->n * sizeof *b);
    if (!a || !b) {
        free(a), free(b);
        hy_err_set(err, HY_ENOMEM, "out of memory");
        return NAN;
    }
    for (size_t i = 0; i < tr->n; i++)
        a[i] = tr->y[i * (size_t)tr->nch + (size_t)c];
    for (size_t i = 0; i < r->n; i++)
        b[i] = r->y[i * (size_t)r->nch + (size_t)c];
    double dt = (r->t[r->n - 1] - r->t[0]) / (double)(r->n - 1), lag = NAN;
    if (mech_compare_xcorr_lag(tr->t, a, tr->n, r->t, b, r->n, dt, offset_max, &lag, err) != HY_OK)
        lag = NAN;
    free(a), free(b);
    return lag;
}

// (absolute or relative path, folder it is relative to) => an absolute path in out
static void absolute(const char *path, const char *dir, char *out, size_t len)
{
    size_t a = strlen(dir), b = strlen(path);
    char *buf = malloc(a + b + 3);
    if (!buf) {
        snprintf(out, len, "%s", path);
        return;
    }
    if (path[0] == '/')
        memcpy(buf, path, b + 1);
    else
        sprintf(buf, "%s/%s", a ? dir : ".", path);
    char *rp = realpath(buf, NULL);
    const char *r = rp ? rp : buf;
    if (strlen(r) < len)
        memcpy(out, r, strlen(r) + 1);
    else
        snprintf(out, len, "%s", path);
    free(rp);
    free(buf);
}

char *mech_calib_scenario_text(const mech_calib_problem *p, const double *x, const char *out_dir, hy_err *err)
{
    cJSON *t = mech_calib__tree(p, x, -1, err);
    if (!t)
        return NULL;
    if (p->tolerance > 0)   /* the loop's tolerance is the calibration's, not the scenario's */
        cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(t, "integration"), "tolerance");
    /* law files: relative to the scenario's folder; written so that they resolve from the output's folder too
       (absolute unless both folders are the same) */
    char a[4096], b[4096];
    absolute(".", p->scen_dir, a, sizeof a);
    absolute(".", out_dir ? out_dir : ".", b, sizeof b);
    cJSON *laws = cJSON_GetObjectItemCaseSensitive(t, "laws");
    if (strcmp(a, b) != 0 && cJSON_IsObject(laws))
        for (cJSON *l = laws->child; l; l = l->next)
            if (cJSON_IsString(l) && l->valuestring[0] != '/') {
                char abs[4096];
                absolute(l->valuestring, p->scen_dir, abs, sizeof abs);
                cJSON_SetValuestring(l, abs);
            }
    /* the beam's files: hinges[j].model, load.history */
    cJSON *hinges = cJSON_GetObjectItemCaseSensitive(t, "hinges");
    cJSON *load = cJSON_GetObjectItemCaseSensitive(t, "load");
    cJSON *files[MECH_CALIB_KEYS_MAX * 4 + 1];
    int nf = 0;
    for (cJSON *h = cJSON_IsArray(hinges) ? hinges->child : NULL; h && nf < MECH_CALIB_KEYS_MAX * 4; h = h->next)
        if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(h, "model")))
            files[nf++] = cJSON_GetObjectItemCaseSensitive(h, "model");
    if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(load, "history")))
        files[nf++] = cJSON_GetObjectItemCaseSensitive(load, "history");
    for (int k = 0; k < nf && strcmp(a, b) != 0; k++)
        if (files[k]->valuestring[0] != '/') {
            char abs[4096];
            absolute(files[k]->valuestring, p->scen_dir, abs, sizeof abs);
            cJSON_SetValuestring(files[k], abs);
        }
    cJSON *notes = cJSON_GetObjectItemCaseSensitive(t, "notes");
    char n[1024];
    snprintf(n, sizeof n, "calibrated by `mech calibrate %s`%s%s", hy_display_name(p->path),
             cJSON_IsString(notes) ? "; " : "", cJSON_IsString(notes) ? notes->valuestring : "");
    if (notes)
        cJSON_ReplaceItemInObjectCaseSensitive(t, "notes", cJSON_CreateString(n));
    else
        cJSON_AddStringToObject(t, "notes", n);
    char *txt = hy_json_print(t);
    cJSON_Delete(t);
    if (!txt)
        hy_err_set(err, HY_ENOMEM, "out of memory");
    return txt;
}

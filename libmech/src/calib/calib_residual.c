/* One simulated run held in memory and its comparison with a measured record (docs/calibrate.md §4).
 *
 * The run is `mech dock`'s: the scenario with the keys and the run's conditions set, parsed, its laws loaded, the
 * model compiled and stepped by mech_dock_run (the one run function) to the record's end plus offset_max; the
 * mapped channels are kept at t = 0 and after every accepted step (so the error-controlled steps' events are in).
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

void mech_calib_trace_free(mech_calib_trace *tr)
{
    free(tr->t);
    free(tr->y);
    memset(tr, 0, sizeof *tr);
}

typedef struct collect {
    mech_calib_trace *tr;
    const int *ch;
    int failed;
} collect;

static int push(collect *c, const double *v)
{
    mech_calib_trace *tr = c->tr;
    if (tr->n == tr->cap) {
        size_t cap = tr->cap ? 2 * tr->cap : 4096;
        double *t = realloc(tr->t, cap * sizeof *t);
        if (t)
            tr->t = t;
        double *y = t ? realloc(tr->y, cap * (size_t)tr->nch * sizeof *y) : NULL;
        if (!y) {
            c->failed = 1;
            return 1;
        }
        tr->y = y;
        tr->cap = cap;
    }
    tr->t[tr->n] = v[MECH_DOCK_CH_T];
    for (int k = 0; k < tr->nch; k++)
        tr->y[tr->n * (size_t)tr->nch + (size_t)k] = v[c->ch[k]];
    tr->n++;
    return 0;
}

static int on_step(void *ctx, const mech_dock_sim *s)
{
    return push(ctx, mech_dock_sim_channels(s));
}

int mech_calib_simulate(const mech_calib_problem *p, int run, const double *x, mech_calib_trace *tr, hy_err *err)
{
    const mech_calib_run *r = &p->run[run];
    tr->n = 0;
    tr->nch = r->rec.nch;
    cJSON *t = mech_calib__tree(p, x, run, err);
    if (!t)
        return err->code;
    char *txt = cJSON_PrintUnformatted(t);
    cJSON_Delete(t);
    if (!txt)
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    mech_dock_config c;
    mech_dock_config_default(&c);
    const char *name = hy_display_name(p->scenario);
    int rc = mech_dock_config_parse(txt, strlen(txt), name, p->scen_dir, &c, err);
    free(txt);
    if (rc == HY_OK)
        rc = mech_dock_config_load(&c, name, err);
    if (rc == HY_OK)
        rc = mech_dock_config_set_duration(&c, r->duration, err);
    mech_dock_model *m = NULL;
    mech_dock_sim *s = NULL;
    if (rc == HY_OK)
        rc = mech_dock_model_new(&c.params, &m, err);
    if (rc == HY_OK)
        rc = mech_dock_sim_new(m, &s, err);
    collect col = {tr, r->ch, 0};
    if (rc == HY_OK && push(&col, mech_dock_sim_channels(s)) != 0)
        rc = hy_err_set(err, HY_ENOMEM, "out of memory");
    if (rc == HY_OK) {
        mech_dock_run_opts o = {0};
        o.on_step = on_step;
        o.ctx = &col;
        int end = 0;
        rc = mech_dock_run(m, s, &o, &end, NULL, err);
        if (rc == HY_OK && col.failed)
            rc = hy_err_set(err, HY_ENOMEM, "out of memory");
    }
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
    mech_dock_config_free(&c);
    return rc;
}

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

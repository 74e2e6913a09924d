/* The simulator in the loop (docs/calibrate.md §4): a scenario's text parsed, its laws loaded, its model compiled and
 * run by the simulator's one run function, `mech dock`'s (mech_dock_run, stepped to the record's end plus
 * offset_max; the mapped channels kept at t = 0 and after every accepted step, so the error-controlled steps'
 * events are in) or `mech beam sim`'s (mech_beam_run, every Newmark step streamed through its sample callback).
 * The channels are the ones those programs write (history.csv's header), in their units. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/util.h"
#include "mech/beam.h"
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
    int nhinge;   /* the beam's hinges */
} collect;

// (collector, time, channel values by index) => one row appended (the trace grows geometrically)
static int push(collect *c, double t, const double *v)
{
    mech_calib_trace *tr = c->tr;
    if (tr->n == tr->cap) {
        size_t cap = tr->cap ? 2 * tr->cap : 4096;
        double *nt = realloc(tr->t, cap * sizeof *nt);
        if (nt)
            tr->t = nt;
        double *y = nt ? realloc(tr->y, cap * (size_t)tr->nch * sizeof *y) : NULL;
        if (!y) {
            c->failed = 1;
            return 1;
        }
        tr->y = y;
        tr->cap = cap;
    }
    tr->t[tr->n] = t;
    for (int k = 0; k < tr->nch; k++)
        tr->y[tr->n * (size_t)tr->nch + (size_t)k] = v[c->ch[k]];
    tr->n++;
    return 0;
}

/* ---- the beam's channels: `mech beam sim`'s columns t, w_tip, theta, theta_dot, dtheta_J, M_J, U, F ------------ */
enum { BC_T = 0, BC_W, BC_TH, BC_THD, BC_U, BC_F, BC_HINGE };   /* then dtheta_J at BC_HINGE + 2 (J - 1), M_J + 1 */
#define BEAM_NCH (BC_HINGE + 2 * MECH_BEAM_MAX_HINGES)

int mech_calib__channel(int kind, const char *name, const char **unit)
{
    if (kind == MECH_CALIB_DOCK) {
        int ch = mech_dock_channel_find(name);
        *unit = ch > MECH_DOCK_CH_T ? mech_dock_channel_unit(ch) : NULL;
        return ch > MECH_DOCK_CH_T ? ch : -1;
    }
    static const char *const nm[] = {"t", "w_tip", "theta", "theta_dot", "U", "F"};
    static const char *const un[] = {"s", "m", "rad", "rad/s", "V", "N"};
    for (int k = 1; k < BC_HINGE; k++)
        if (strcmp(name, nm[k]) == 0) {
            *unit = un[k];
            return k;
        }
    int j, n = 0;
    if ((sscanf(name, "dtheta_%d%n", &j, &n) == 1 || sscanf(name, "M_%d%n", &j, &n) == 1) && !name[n] && j >= 1 &&
        j <= MECH_BEAM_MAX_HINGES) {
        *unit = name[0] == 'd' ? "rad" : "N m";
        return BC_HINGE + 2 * (j - 1) + (name[0] == 'M');
    }
    *unit = NULL;
    return -1;
}

int mech_calib__parse(const mech_calib_problem *p, const char *txt, hy_err *err)
{
    int rc;
    if (p->kind == MECH_CALIB_DOCK) {
        mech_dock_config c;
        mech_dock_config_default(&c);
        rc = mech_dock_config_parse(txt, strlen(txt), hy_display_name(p->scenario), p->scen_dir, &c, err);
        mech_dock_config_free(&c);
    } else {
        mech_beam_config c;
        mech_beam_config_default(&c);
        rc = mech_beam_config_parse(txt, strlen(txt), hy_display_name(p->scenario), p->scen_dir, &c, err);
        mech_beam_config_free(&c);
    }
    return rc;
}

static int dock_step(void *ctx, const mech_dock_sim *s)
{
    const double *v = mech_dock_sim_channels(s);
    return push(ctx, v[MECH_DOCK_CH_T], v);
}

static int dock_run(const mech_calib_problem *p, const mech_calib_run *r, const char *txt, collect *col, hy_err *err)
{
    mech_dock_config c;
    mech_dock_config_default(&c);
    const char *name = hy_display_name(p->scenario);
    int rc = mech_dock_config_parse(txt, strlen(txt), name, p->scen_dir, &c, err);
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
    if (rc == HY_OK && dock_step(col, s) != 0)
        rc = hy_err_set(err, HY_ENOMEM, "out of memory");
    if (rc == HY_OK) {
        mech_dock_run_opts o = {0};
        o.on_step = dock_step;
        o.ctx = col;
        rc = mech_dock_run(m, s, &o, NULL, NULL, err);
    }
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
    mech_dock_config_free(&c);
    return rc;
}

static int beam_sample(void *ctx, size_t i, const mech_beam_obs *o, hy_err *err)
{
    (void)i;
    collect *col = ctx;
    double v[BEAM_NCH] = {o->t, o->w_tip, o->theta, o->theta_dot, o->U, o->F};
    for (int j = 0; o->dtheta && j < MECH_BEAM_MAX_HINGES && BC_HINGE + 2 * j + 1 < BEAM_NCH; j++)
        if (col->nhinge > j)
            v[BC_HINGE + 2 * j] = o->dtheta[j], v[BC_HINGE + 2 * j + 1] = o->M[j];
    if (push(col, o->t, v) != 0)
        return hy_err_set(err, HY_ENOMEM, "out of memory");
    return HY_OK;
}

static int beam_run(const mech_calib_problem *p, const mech_calib_run *r, const char *txt, collect *col, hy_err *err)
{
    mech_beam_config c;
    mech_beam_config_default(&c);
    const char *name = hy_display_name(p->scenario);
    int rc = mech_beam_config_parse(txt, strlen(txt), name, p->scen_dir, &c, err);
    if (rc == HY_OK)
        rc = mech_beam_config_load(&c, name, err);
    if (rc == HY_OK) {   /* `mech beam sim --duration`: the run to the record's end */
        c.solver.duration = r->duration;
        size_t n;
        rc = mech_beam_samples(&c.solver, &n, err);
    }
    for (int k = 0; rc == HY_OK && k < r->rec.nch; k++)
        if (r->ch[k] >= BC_HINGE && (r->ch[k] - BC_HINGE) / 2 >= c.params.n_hinges)
            rc = hy_err_set(err, HY_EDATA, "%s: channel %s: the scenario has %d hinge(s)", hy_display_name(p->path),
                            r->chname[k], c.params.n_hinges);
    mech_beam_model *m = NULL;
    if (rc == HY_OK)
        rc = mech_beam_model_new(&c.params, &m, err);
    if (rc == HY_OK) {
        mech_beam_history h = {0};
        h.sample = beam_sample;
        h.sample_ctx = col;
        col->nhinge = c.params.n_hinges;
        rc = mech_beam_run(m, &c.solver, &c.load, NULL, &h, err);
    }
    mech_beam_model_free(m);
    mech_beam_config_free(&c);
    return rc;
}

/* (run, its trace) => the trace through the sensors' anti-alias filters (the run's "filter", a channel's own;
 * docs/calibrate.md §3): every channel on the filters' uniform grid (mech_compare_sensor_grid), each filtered one
 * through `mech compare`'s sensor model (mech_compare_sensor_channel). Nothing when no channel is filtered. */
static int sensor(const mech_calib_run *r, mech_calib_trace *tr, hy_err *err)
{
    double h;
    size_t n;
    if (tr->n < 2 || !mech_compare_sensor_grid(r->filter, tr->nch, tr->t[0], tr->t[tr->n - 1], &h, &n))
        return HY_OK;
    size_t nch = (size_t)tr->nch;
    double *t = malloc(n * sizeof *t), *y = malloc(n * nch * sizeof *y), *col = malloc(n * sizeof *col);
    int rc = t && y && col ? HY_OK : hy_err_set(err, HY_ENOMEM, "out of memory");
    for (size_t i = 0; rc == HY_OK && i < n; i++)
        t[i] = tr->t[0] + (double)i * h;
    for (size_t k = 0; rc == HY_OK && k < nch; k++) {
        rc = mech_compare_sensor_channel(&r->filter[k], tr->t, tr->y + k, tr->n, nch, tr->t[0], h, n, col, err);
        for (size_t i = 0; rc == HY_OK && i < n; i++)
            y[i * nch + k] = col[i];
    }
    free(col);
    if (rc != HY_OK) {
        free(t), free(y);
        return rc;
    }
    free(tr->t), free(tr->y);
    tr->t = t, tr->y = y, tr->n = tr->cap = n;
    return HY_OK;
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
    collect col = {tr, r->ch, 0, 0};
    int rc = p->kind == MECH_CALIB_DOCK ? dock_run(p, r, txt, &col, err) : beam_run(p, r, txt, &col, err);
    free(txt);
    if (rc == HY_OK && col.failed)
        rc = hy_err_set(err, HY_ENOMEM, "out of memory");
    if (rc == HY_OK)
        rc = sensor(r, tr, err);
    return rc;
}

/* The simulators a sweep plan varies (docs/sweep.md "Simulators"; issue 43 item 5): each one's metric table (the
 * table's columns, their units, integer or not, the figures' choices) and the check of a scenario by its own
 * parser. A plan's simulator is the one whose "format" its base scenario has; its runs go through the run function
 * its program calls (sweep_run.c: mech_dock_run; sweep_run_beam.c: mech_beam_run; sweep_run_friction.c:
 * mech_friction_run). Nothing else of the plan, the samplers, the workers, the journal or the statistics depends on
 * the simulator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/model.h"
#include "hyst/util.h"
#include "mech/beam.h"
#include "mech/dock.h"
#include "mech/friction.h"
#include "mech/pendulum.h"
#include "mech/sweep.h"
#include "sweep_internal.h"

#define ROW_(id, name, unit, integer) {name, unit, integer},
static const mech_sweep_metric dock_metric[] = {MECH_SWEEP_DOCK_METRICS(ROW_)};
static const mech_sweep_metric beam_metric[] = {MECH_SWEEP_BEAM_METRICS(ROW_)};
static const mech_sweep_metric friction_metric[] = {MECH_SWEEP_FRICTION_METRICS(ROW_)};
static const mech_sweep_metric pendulum_metric[] = {MECH_SWEEP_PENDULUM_METRICS(ROW_)};
#undef ROW_

static const mech_sweep_sim sims[MECH_SWEEP_NSIM] = {
    {.id = MECH_SWEEP_SIM_DOCK, .name = "dock", .format = "mech-dock", .nmetric = MECH_SWEEP_NMETRIC,
     .metric = dock_metric, .flag = MECH_SWEEP_M_CAPTURED, .steps = MECH_SWEEP_M_STEPS, .peak = MECH_SWEEP_M_PEAK_AXIAL,
     .hist = {MECH_SWEEP_M_PEAK_AXIAL, MECH_SWEEP_M_PEAK_LATERAL, MECH_SWEEP_M_PEAK_LIMITER}, .fig_div = 1000,
     .fig_unit = "kN",
     .label = {[MECH_SWEEP_M_PEAK_AXIAL] = "peak axial head force", [MECH_SWEEP_M_PEAK_LATERAL] = "peak lateral head force",
               [MECH_SWEEP_M_PEAK_LIMITER] = "peak limiter force"},
     .shown = {MECH_SWEEP_M_CAPTURED, MECH_SWEEP_M_CAPTURE_TIME, MECH_SWEEP_M_PEAK_AXIAL, MECH_SWEEP_M_PEAK_LATERAL,
               MECH_SWEEP_M_STROKE, MECH_SWEEP_M_SWING}},
    {.id = MECH_SWEEP_SIM_BEAM, .name = "beam", .format = "mech-beam", .nmetric = MECH_SWEEP_NMETRIC_BEAM,
     .metric = beam_metric, .flag = -1, .steps = MECH_SWEEP_B_STEPS, .peak = MECH_SWEEP_B_PEAK_TIP,
     .hist = {MECH_SWEEP_B_PEAK_TIP, MECH_SWEEP_B_PEAK_MOMENT, MECH_SWEEP_B_HINGE_WORK}, .fig_div = 1,
     .label = {[MECH_SWEEP_B_PEAK_TIP] = "peak tip deflection", [MECH_SWEEP_B_PEAK_MOMENT] = "peak hinge moment",
               [MECH_SWEEP_B_HINGE_WORK] = "work of the hinges"},
     .shown = {MECH_SWEEP_B_PEAK_TIP, MECH_SWEEP_B_PEAK_THETA, MECH_SWEEP_B_PEAK_DTHETA, MECH_SWEEP_B_PEAK_MOMENT,
               MECH_SWEEP_B_HINGE_WORK, MECH_SWEEP_B_CONTACT}},
    {.id = MECH_SWEEP_SIM_FRICTION, .name = "friction", .format = "mech-friction", .nmetric = MECH_SWEEP_NMETRIC_FRICTION,
     .metric = friction_metric, .flag = -1, .steps = MECH_SWEEP_F_STEPS, .peak = MECH_SWEEP_F_W_FRICTION,
     .hist = {MECH_SWEEP_F_TRAVEL, MECH_SWEEP_F_W_FRICTION, MECH_SWEEP_F_PEAK_NORMAL}, .fig_div = 1,
     .label = {[MECH_SWEEP_F_TRAVEL] = "travel of coordinate 1", [MECH_SWEEP_F_W_FRICTION] = "friction work",
               [MECH_SWEEP_F_PEAK_NORMAL] = "peak normal reaction"},
     .shown = {MECH_SWEEP_F_TRAVEL, MECH_SWEEP_F_STICK, MECH_SWEEP_F_W_FRICTION, MECH_SWEEP_F_W_APPLIED,
               MECH_SWEEP_F_PEAK_NORMAL, MECH_SWEEP_F_FLIPS}},
    {.id = MECH_SWEEP_SIM_PENDULUM, .name = "pendulum", .format = "mech-pendulum",
     .nmetric = MECH_SWEEP_NMETRIC_PENDULUM, .metric = pendulum_metric, .flag = -1, .steps = -1,
     .peak = MECH_SWEEP_P_PHI3_MAX, .hist = {MECH_SWEEP_P_PHI3_MAX, MECH_SWEEP_P_ALPHA_MAX, MECH_SWEEP_P_E_CYCLE},
     .fig_div = 1,
     .label = {[MECH_SWEEP_P_PHI3_MAX] = "largest pendulum angle", [MECH_SWEEP_P_ALPHA_MAX] = "largest unit deflection",
               [MECH_SWEEP_P_E_CYCLE] = "energy per cycle of the unit"},
     .shown = {MECH_SWEEP_P_PHI3_MAX, MECH_SWEEP_P_ALPHA_MAX, MECH_SWEEP_P_M_MAX, MECH_SWEEP_P_POWER,
               MECH_SWEEP_P_ZETA, MECH_SWEEP_P_E_CYCLE}},
};

const mech_sweep_sim *mech_sweep_sim_get(int id)
{
    return id >= 0 && id < MECH_SWEEP_NSIM ? &sims[id] : NULL;
}

const mech_sweep_sim *mech_sweep_sim_find(const char *s)
{
    for (int k = 0; s && k < MECH_SWEEP_NSIM; k++)
        if (strcmp(s, sims[k].format) == 0 || strcmp(s, sims[k].name) == 0)
            return &sims[k];
    return NULL;
}

int mech_sweep_metric_find(const mech_sweep_sim *s, const char *name)
{
    for (int m = 0; m < s->nmetric; m++)
        if (strcmp(name, s->metric[m].name) == 0)
            return m;
    return -1;
}

void mech_sweep_metric_list(const mech_sweep_sim *s, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int m = 0; m < s->nmetric; m++)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", m ? ", " : "", s->metric[m].name);
}

/* ---- the files a run reads (issue 42 N16): the dock's law files, the beam's hinge models and force history ---- */

int mech_sweep__dock_files(const mech_dock_config *c, const char **keys, const char **paths, char (*kb)[64])
{
    for (int s = 0; s < MECH_DOCK_NLAW; s++) {
        snprintf(kb[s], 64, "laws.%s", mech_dock_law_key(s));
        keys[s] = kb[s], paths[s] = c->law_path[s];
    }
    return MECH_DOCK_NLAW;
}

int mech_sweep__beam_files(const mech_beam_config *c, const char **keys, const char **paths, char (*kb)[64])
{
    int n = 0;
    for (int j = 0; j < c->params.n_hinges; j++, n++) {
        snprintf(kb[n], 64, "hinges.%d.model", j);
        keys[n] = kb[n], paths[n] = c->model_path[j];
    }
    keys[n] = "load.history", paths[n] = c->history_path;
    return n + 1;
}

/* ---- a scenario checked by its simulator's own parser (plan reading: every key's extreme values) ---- */

int mech_sweep__sim_check(const mech_sweep_plan *p, const char *txt, const char *name, const char *dir, int load,
                          hy_err *err)
{
    const char *keys[MECH_SWEEP_FILES_RUN], *paths[MECH_SWEEP_FILES_RUN];
    char kb[MECH_SWEEP_FILES_RUN][64];
    int rc, n = 0;
    switch (p->sim->id) {
    case MECH_SWEEP_SIM_DOCK: {
        mech_dock_config c;
        mech_dock_config_default(&c);
        rc = mech_dock_config_parse(txt, strlen(txt), name, dir, &c, err);
        if (rc == HY_OK && load)
            rc = mech_dock_config_load(&c, name, err);
        if (rc == HY_OK && load) {   /* the plan is still being read: its file list grows here (the cast is that) */
            n = mech_sweep__dock_files(&c, keys, paths, kb);
            rc = mech_sweep_files_add((mech_sweep_plan *)p, n, keys, paths, err);
        }
        mech_dock_config_free(&c);
        return rc;
    }
    case MECH_SWEEP_SIM_BEAM: {
        mech_beam_config c;
        size_t ns;
        mech_beam_config_default(&c);
        rc = mech_beam_config_parse(txt, strlen(txt), name, dir, &c, err);
        if (rc == HY_OK)   /* `mech beam sim`'s own check of the run's length, before any run */
            rc = mech_beam_samples(&c.solver, &ns, err);
        if (rc == HY_OK && load)
            rc = mech_beam_config_load(&c, name, err);
        if (rc == HY_OK && load) {
            n = mech_sweep__beam_files(&c, keys, paths, kb);
            rc = mech_sweep_files_add((mech_sweep_plan *)p, n, keys, paths, err);
        }
        mech_beam_config_free(&c);
        return rc;
    }
    case MECH_SWEEP_SIM_PENDULUM: {
        char path[8192], unit[4096];
        mech_pend_params pp;
        mech_pend_run_opts ro;
        mech_sweep__pend_path(name, dir, path, sizeof path);
        mech_pend_params_default(&pp, 0);
        rc = mech_pend_params_parse(txt, strlen(txt), path, &pp, unit, sizeof unit, err);
        if (rc == HY_OK)
            rc = mech_pend_run_parse(txt, strlen(txt), path, &ro, err);
        if (rc == HY_OK && load && unit[0]) {   /* the unit's law file: read, hashed (N16) */
            const char *k = "unit_model", *u = unit;
            hy_model md;
            memset(&md, 0, sizeof md);
            rc = hy_model_read(unit, &md, err);
            if (rc == HY_OK && md.type != HY_MODEL_KIN)
                rc = hy_err_set(err, HY_EDATA, "%s: unit_model: %s: the damping unit needs a kinematic model "
                                "(\"model\": \"kin\")", name, unit);
            hy_model_free(&md);
            if (rc == HY_OK)
                rc = mech_sweep_files_add((mech_sweep_plan *)p, 1, &k, &u, err);
        }
        return rc;
    }
    default: {
        mech_friction_config c;
        mech_friction_mech *mc = NULL;
        rc = mech_friction_config_parse(txt, strlen(txt), name, &c, err);
        if (rc == HY_OK && (rc = mech_friction_mech_new(&c, &mc, err)) != HY_OK) {   /* the geometry, as the program */
            char msg[HY_MSG_LEN];
            snprintf(msg, sizeof msg, "%s", err->msg);
            hy_err_set(err, rc, "%s: %s", name, msg);
        }
        mech_friction_mech_free(mc);
        return rc;
    }
    }
}

/* ---- the plan's simulator: its scenario's "format", and the plan's "simulator" key when given ---- */

int mech_sweep__sim_of(mech_sweep_plan *p, const char *name, const cJSON *base, const char *scen, hy_err *err)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(base, "format");
    const mech_sweep_sim *s = cJSON_IsString(f) ? mech_sweep_sim_find(f->valuestring) : NULL;
    if (!s || strcmp(f->valuestring, s->format) != 0)
        return hy_err_set(err, HY_EPARSE, "%s: format: %s%s%s: not a scenario a sweep runs (expected \"mech-dock\", "
                          "\"mech-beam\", \"mech-friction\" or \"mech-pendulum\")", hy_display_name(scen),
                          cJSON_IsString(f) ? "\"" : "", cJSON_IsString(f) ? f->valuestring : "missing",
                          cJSON_IsString(f) ? "\"" : "");
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(p->doc, "simulator");
    if (k) {
        const mech_sweep_sim *ks = cJSON_IsString(k) ? mech_sweep_sim_find(k->valuestring) : NULL;
        if (!ks || strcmp(k->valuestring, ks->name) != 0)
            return hy_err_set(err, HY_EPARSE, "%s: simulator: expected \"dock\", \"beam\", \"friction\" or "
                              "\"pendulum\"", name);
        if (ks != s)
            return hy_err_set(err, HY_EPARSE, "%s: simulator: \"%s\", but %s is a %s scenario", name, ks->name,
                              hy_display_name(scen), s->format);
    }
    if (p->sim && p->sim != s)
        return hy_err_set(err, HY_EPARSE, "%s: variants: %s is a %s scenario, the first variant a %s one: every "
                          "variant runs the same simulator", name, hy_display_name(scen), s->format, p->sim->format);
    p->sim = s;
    return HY_OK;
}

void mech_sweep__pend_path(const char *name, const char *dir, char *path, size_t len)
{
    const char *b = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
    if (dir && dir[0])
        snprintf(path, len, "%s/%s", dir, b);
    else
        snprintf(path, len, "%s", b);
}

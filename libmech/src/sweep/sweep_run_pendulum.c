/* One run of a sweep over a pendulum-damper scenario (spec 002 §4; docs/sweep.md "Simulators"): a "mech-pendulum"
 * file with its "run" object, parsed by mech_pend_params_parse and mech_pend_run_parse, its unit law read (and
 * checked against the plan's hash, issue 42 N16), the model built and run by mech_pend_run - the loop `mech pendulum
 * run` writes its rows from - so every metric is, bit for bit, the number of `mech pendulum run --summary`
 * (test_sweep_sims.sh). A run whose unit leaves its valid range is a failed row with the metrics it reached. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "hyst/model.h"
#include "hyst/util.h"
#include "mech/pendulum.h"
#include "mech/sweep.h"
#include "sweep_internal.h"

void mech_sweep__run_pendulum(const mech_sweep_plan *p, const char *txt, const char *name, const char *dir,
                              mech_sweep_result *r)
{
    hy_err err;
    char path[8192], unit_path[4096] = "";
    mech_pend_params pp;
    mech_pend_run_opts ro;
    mech_sweep__pend_path(name, dir, path, sizeof path);
    mech_pend_params_default(&pp, 0);
    int rc = mech_pend_params_parse(txt, strlen(txt), path, &pp, unit_path, sizeof unit_path, &err);
    if (rc == HY_OK)
        rc = mech_pend_run_parse(txt, strlen(txt), path, &ro, &err);
    const char *k = "unit_model", *u = unit_path;
    int nf = unit_path[0] ? 1 : 0;
    if (rc == HY_OK && mech_sweep_check_files(p, nf, &k, &u, &err) != HY_OK)
        r->fatal = 1, rc = HY_EDATA;
    hy_model unit;
    memset(&unit, 0, sizeof unit);
    if (rc == HY_OK && nf && (rc = hy_model_read(unit_path, &unit, &err)) == HY_OK && unit.type != HY_MODEL_KIN)
        rc = hy_err_set(&err, HY_EDATA, "%s: the damping unit needs a kinematic model (\"model\": \"kin\")",
                        hy_display_name(unit_path));
    if (rc == HY_OK && mech_sweep_check_files(p, nf, &k, &u, &err) != HY_OK)
        r->fatal = 1, rc = HY_EDATA;
    mech_pend_model *m = NULL;
    if (rc == HY_OK && (rc = mech_pend_model_new(&pp, nf ? unit.kin : NULL, &m, &err)) != HY_OK) {
        char msg[HY_MSG_LEN];   /* as `mech pendulum run`: the file names the model's refusal */
        snprintf(msg, sizeof msg, "%s", err.msg);
        hy_err_set(&err, rc, "%s: %s", name, msg);
    }
    if (rc != HY_OK) {
        mech_sweep__fail(r, err.msg);
        hy_model_free(&unit);
        return;
    }
    mech_pend_summary s;
    if (mech_pend_run(m, &ro, NULL, NULL, &s, &err) != HY_OK)   /* `mech pendulum run`'s loop */
        mech_sweep__fail(r, err.msg);
    if (s.samples > 0) {
        r->m[MECH_SWEEP_P_PHI3_MAX] = s.phi3_max;
        r->m[MECH_SWEEP_P_ALPHA_MAX] = s.alpha_max;
        r->m[MECH_SWEEP_P_M_MAX] = s.M_max;
        r->m[MECH_SWEEP_P_W_UNIT] = s.W_unit;
        r->m[MECH_SWEEP_P_POWER] = s.A;
        r->m[MECH_SWEEP_P_PEAKS] = s.peaks;
        r->m[MECH_SWEEP_P_DECAY] = s.decay;
        r->m[MECH_SWEEP_P_ZETA] = s.zeta;
        r->m[MECH_SWEEP_P_E_CYCLE] = s.E_cycle;
    }
    mech_pend_model_free(m);
    hy_model_free(&unit);
}

/* One run of a sweep over a `mech beam` scenario (spec 004; docs/sweep.md "Simulators"): the run's scenario parsed by
 * mech_beam_config_parse, its hinge models and force history loaded (and checked against the plan's hashes, issue 42
 * N16), the model built and run by mech_beam_run - the loop `mech beam sim` streams its rows from - with the peaks
 * made by mech_beam_peaks_add, the function the program's summary uses. So every metric is, bit for bit, the number
 * of `mech beam sim --summary` (test_sweep_onerun_sims.sh). No control: `mech beam sim` runs the structure alone. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "hyst/util.h"
#include "mech/beam.h"
#include "mech/sweep.h"
#include "sweep_internal.h"

static int on_sample(void *ctx, size_t i, const mech_beam_obs *o, hy_err *err)
{
    (void)err;
    mech_beam_peaks_add(ctx, i, o);
    return HY_OK;
}

void mech_sweep__run_beam(const mech_sweep_plan *p, const char *txt, const char *name, const char *dir,
                          mech_sweep_result *r)
{
    hy_err err;
    mech_beam_config c;
    mech_beam_config_default(&c);
    int rc = mech_beam_config_parse(txt, strlen(txt), name, dir, &c, &err);
    const char *keys[MECH_SWEEP_FILES_RUN], *paths[MECH_SWEEP_FILES_RUN];
    char kb[MECH_SWEEP_FILES_RUN][64];
    int nf = rc == HY_OK ? mech_sweep__beam_files(&c, keys, paths, kb) : 0;
    if (rc == HY_OK && mech_sweep_check_files(p, nf, keys, paths, &err) != HY_OK)
        r->fatal = 1, rc = HY_EDATA;
    if (rc == HY_OK)
        rc = mech_beam_config_load(&c, name, &err);
    if (rc == HY_OK && mech_sweep_check_files(p, nf, keys, paths, &err) != HY_OK)
        r->fatal = 1, rc = HY_EDATA;
    mech_beam_model *m = NULL;
    if (rc == HY_OK && (rc = mech_beam_model_new(&c.params, &m, &err)) != HY_OK) {
        char msg[HY_MSG_LEN];   /* as `mech beam`: the file names the model's refusal */
        snprintf(msg, sizeof msg, "%s", err.msg);
        hy_err_set(&err, rc, "%s: %s", name, msg);
    }
    if (rc != HY_OK) {
        mech_sweep__fail(r, err.msg);
        mech_beam_config_free(&c);
        return;
    }
    int nh = c.params.n_hinges;
    mech_beam_peaks pk;
    memset(&pk, 0, sizeof pk);
    pk.nh = nh;
    mech_beam_history h = {.sample = on_sample, .sample_ctx = &pk};
    if (mech_beam_run(m, &c.solver, &c.load, NULL, &h, &err) != HY_OK)   /* `mech beam sim`'s loop */
        mech_sweep__fail(r, err.msg);
    if (h.n > 0) {
        r->m[MECH_SWEEP_B_PEAK_TIP] = fabs(pk.pk[0].v);
        r->m[MECH_SWEEP_B_PEAK_THETA] = fabs(pk.pk[1].v);
        r->m[MECH_SWEEP_B_PEAK_RATE] = fabs(pk.pk[2].v);
        for (int j = 0; j < nh; j++) {   /* the largest over the hinges (none: no value) */
            double q = fabs(pk.pq[j].v), M = fabs(pk.pM[j].v), f = (double)h.contact[j] / (double)h.n;
            r->m[MECH_SWEEP_B_PEAK_DTHETA] = j ? fmax(r->m[MECH_SWEEP_B_PEAK_DTHETA], q) : q;
            r->m[MECH_SWEEP_B_PEAK_MOMENT] = j ? fmax(r->m[MECH_SWEEP_B_PEAK_MOMENT], M) : M;
            r->m[MECH_SWEEP_B_CONTACT] = j ? fmax(r->m[MECH_SWEEP_B_CONTACT], f) : f;
        }
        r->m[MECH_SWEEP_B_HINGE_WORK] = h.W_hinge;
        r->m[MECH_SWEEP_B_BALANCE] = h.balance_max;
        r->m[MECH_SWEEP_B_SETTLE] = mech_beam_peaks_settling(&pk);
        r->m[MECH_SWEEP_B_STEPS] = (double)(h.n - 1);
    }
    mech_beam_model_free(m);
    mech_beam_config_free(&c);
}

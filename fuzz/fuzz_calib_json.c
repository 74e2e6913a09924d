/* Fuzz harness: the "mech-calibrate" configuration of mech calibrate (libmech/src/calib/calib_config.c), parsed
 * from memory with mech_calib_parse as if it were fixtures/mech/calib/cal.json, so that the scenarios and records
 * it names are the shipped ones (run from the top of the repository, as scripts/run-fuzz does; nothing is written).
 * Invariants: the status is a known code; an error is one printable line starting with a path (the configuration,
 * the scenario, a record or a law file), and leaves nothing to free; a success has a known simulator, 1..8 keys with
 * finite bounds holding the start strictly inside, 1..8 runs of which at least one is fitted, each record with >= 16
 * rows of strictly increasing finite time and 1..8 channels with a non-negative finite gain_sd, mapped run
 * channels and a sensor filter of order 0 (none) or 1..8 with a cut-off below the record's Nyquist frequency, a
 * positive finite simulated duration, the options in their documented ranges, jobs = 1; and the scenario
 * tree with the keys at their start and each run's conditions set builds. */
#include <limits.h>
#include <math.h>
#include "fuzz_util.h"
#include "mech/calib.h"
#include "calib/calib_internal.h"
#include <cjson/cJSON.h>

static char cfg[PATH_MAX + 32];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char dir[PATH_MAX];
    if (!realpath("fixtures/mech/calib", dir)) {
        perror("fuzz_calib_json: fixtures/mech/calib (run from the top of the repository)");
        abort();
    }
    snprintf(cfg, sizeof cfg, "%s/cal.json", dir);
    return 0;
}

static int terminated(const char *s, size_t n)
{
    return memchr(s, '\0', n) != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mech_calib_problem *p = malloc(sizeof *p);   /* ~700 kB: not on the stack */
    FUZZ_CHECK(p != NULL, "out of memory");
    hy_err err;
    fuzz_err_poison(&err);
    int rc = mech_calib_parse((const char *)data, size, cfg, p, &err);
    FUZZ_CHECK(rc >= HY_OK && rc <= HY_ENOMEM, "unknown status %d", rc);
    if (rc != HY_OK) {
        fuzz_check_message(&err);
        FUZZ_CHECK(err.msg[0] == '/', "message does not start with a path: %s", err.msg);
        FUZZ_CHECK(p->nkey == 0 && p->nrun == 0 && !p->doc && !p->base, "error but the problem is not empty");
        free(p);
        return 0;
    }
    FUZZ_CHECK(p->kind == MECH_CALIB_DOCK || p->kind == MECH_CALIB_BEAM, "kind %d", p->kind);
    FUZZ_CHECK(p->nkey >= 1 && p->nkey <= MECH_CALIB_KEYS_MAX, "%d keys", p->nkey);
    double x[MECH_CALIB_KEYS_MAX];
    for (int k = 0; k < p->nkey; k++) {
        const mech_calib_key *K = &p->key[k];
        FUZZ_CHECK(terminated(K->path, sizeof K->path) && K->path[0], "key %d name", k);
        FUZZ_CHECK(isfinite(K->lo) && isfinite(K->hi) && K->lo < K->start && K->start < K->hi,
                   "key %s: start %g, bounds [%g, %g]", K->path, K->start, K->lo, K->hi);
        for (int j = 0; j < k; j++)
            FUZZ_CHECK(strcmp(p->key[j].path, K->path) != 0, "key %s twice", K->path);
        x[k] = K->start;
    }
    FUZZ_CHECK(p->nrun >= 1 && p->nrun <= MECH_CALIB_RUNS_MAX, "%d runs", p->nrun);
    int nfit = 0;
    for (int r = 0; r < p->nrun; r++) {
        const mech_calib_run *R = &p->run[r];
        nfit += !R->validation;
        FUZZ_CHECK(R->rec.nch >= 1 && R->rec.nch <= MECH_CALIB_CH_MAX, "run %d: %d channels", r, R->rec.nch);
        FUZZ_CHECK(R->rec.n >= 16 && R->rec.t && R->rec.y, "run %d: %zu rows", r, R->rec.n);
        for (size_t i = 0; i < R->rec.n; i++)
            FUZZ_CHECK(isfinite(R->rec.t[i]) && (i == 0 || R->rec.t[i] > R->rec.t[i - 1]), "run %d: time at row %zu", r, i);
        for (int c = 0; c < R->rec.nch; c++) {
            FUZZ_CHECK(isfinite(R->gain_sd[c]) && R->gain_sd[c] >= 0, "run %d channel %d: gain_sd %g", r, c, R->gain_sd[c]);
            FUZZ_CHECK(terminated(R->chname[c], sizeof R->chname[c]) && R->chname[c][0], "run %d channel %d name", r, c);
            FUZZ_CHECK(R->ch[c] >= 0, "run %d channel %s: index %d", r, R->chname[c], R->ch[c]);
            const mech_compare_filter *f = &R->filter[c];
            double fs = (double)(R->rec.n - 1) / (R->rec.t[R->rec.n - 1] - R->rec.t[0]);
            FUZZ_CHECK((f->order == 0 && f->cutoff == 0) ||
                       (f->order >= 1 && f->order <= MECH_COMPARE_FILTER_MAX_ORDER && isfinite(f->cutoff) &&
                        f->cutoff > 0 && f->cutoff < fs / 2), "run %d channel %s: filter %d, %g", r, R->chname[c],
                       f->order, f->cutoff);
        }
        FUZZ_CHECK(isfinite(R->duration) && R->duration > 0, "run %d: duration %g", r, R->duration);
    }
    FUZZ_CHECK(nfit >= 1, "no run to fit");
    FUZZ_CHECK(p->offset_max >= 0 && p->offset_max <= 10, "offset_max %g", p->offset_max);
    FUZZ_CHECK(p->offset_window > 0 && p->offset_window <= 1, "offset_window %g", p->offset_window);
    FUZZ_CHECK(p->fd_step >= 1e-8 && p->fd_step <= 0.1, "fd_step %g", p->fd_step);
    FUZZ_CHECK(p->tolerance == 0 || (p->tolerance >= 1e-10 && p->tolerance <= 1e-2), "tolerance %g", p->tolerance);
    FUZZ_CHECK(p->max_iter >= 1 && p->max_iter <= 1000 && p->jobs == 1, "max_iter %d, jobs %d", p->max_iter, p->jobs);
    for (int r = 0; r < p->nrun; r++) {
        fuzz_err_poison(&err);
        cJSON *t = mech_calib__tree(p, x, r, &err);
        if (!t)
            fuzz_check_message(&err);
        FUZZ_CHECK(t != NULL, "run %d: no scenario at the start values: %s", r, err.msg);
        cJSON_Delete(t);
    }
    mech_calib_free(p);
    free(p);
    return 0;
}

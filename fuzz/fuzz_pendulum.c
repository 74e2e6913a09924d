/* Fuzz harness: the "mech-pendulum" parameter file (libmech/src/io/pendulum_json.c), parsed from memory with
 * mech_pend_params_parse (the path "dir/pendulum.json" only names it and locates a relative unit_model).
 * Invariants: the status is a known code; an error has a one-line message starting with the file name; a
 * success gives finite parameters with 1..MECH_PEND_MAX_PENDULUMS pendulums and a unit model path that is
 * NUL-terminated inside its buffer and empty or under dir/ when the file names a relative one; the parameters
 * then either compile into a model (with the built-in unit law) and a simulation state, or are refused with a
 * one-line message; its "run" object (mech_pend_run_parse) is read into options the run accepts, or refused with a
 * one-line message naming the file. */
#include <math.h>
#include "fuzz_util.h"
#include "mech/pendulum.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mech_pend_params p;
    mech_pend_params_default(&p, 0);
    char unit[64];
    memset(unit, 'x', sizeof unit);
    hy_err err;
    fuzz_err_poison(&err);
    int rc = mech_pend_params_parse((const char *)data, size, "dir/pendulum.json", &p, unit, sizeof unit, &err);
    FUZZ_CHECK(rc >= HY_OK && rc <= HY_ENOMEM, "unknown status %d", rc);
    FUZZ_CHECK(memchr(unit, '\0', sizeof unit) != NULL, "unit path not terminated");
    if (rc != HY_OK) {
        fuzz_check_message(&err);
        FUZZ_CHECK(strncmp(err.msg, "pendulum.json", 13) == 0, "message does not start with the file name: %s",
                   err.msg);
        return 0;
    }
    FUZZ_CHECK(p.n_pend >= 1 && p.n_pend <= MECH_PEND_MAX_PENDULUMS, "%d pendulums", p.n_pend);
    FUZZ_CHECK(isfinite(p.I2) && isfinite(p.m2) && isfinite(p.I3) && isfinite(p.k_torsion) && isfinite(p.g),
               "a parameter is not finite");
    for (int i = 0; i < p.n_pend; i++)
        FUZZ_CHECK(isfinite(p.pend[i].m) && isfinite(p.pend[i].e) && isfinite(p.pend[i].offset),
                   "pendulum %d not finite", i);
    FUZZ_CHECK(unit[0] == '\0' || unit[0] == '/' || strncmp(unit, "dir/", 4) == 0, "unit path '%s'", unit);
    /* the optional "run" object: read and checked, or refused with a one-line message naming the file */
    mech_pend_run_opts ro;
    fuzz_err_poison(&err);
    rc = mech_pend_run_parse((const char *)data, size, "dir/pendulum.json", &ro, &err);
    FUZZ_CHECK(rc >= HY_OK && rc <= HY_ENOMEM, "unknown status %d", rc);
    if (rc != HY_OK) {
        fuzz_check_message(&err);
        FUZZ_CHECK(strncmp(err.msg, "pendulum.json", 13) == 0, "run: message does not start with the file name: %s",
                   err.msg);
    } else {
        FUZZ_CHECK(ro.mode == MECH_PEND_RUN_DECAY || (ro.freq > 0 && ro.periods >= 1 && ro.samples >= 4),
                   "run accepted with freq %g, periods %d, samples %d", ro.freq, ro.periods, ro.samples);
        FUZZ_CHECK(ro.mode == MECH_PEND_RUN_HARMONIC || (ro.duration > 0 && ro.dt > 0), "run accepted with "
                   "duration %g, dt %g", ro.duration, ro.dt);
    }

    mech_pend_model *m = NULL;
    rc = mech_pend_model_new(&p, NULL, &m, &err);
    FUZZ_CHECK(rc >= HY_OK && rc <= HY_ENOMEM, "unknown status %d", rc);
    if (rc != HY_OK) {
        fuzz_check_message(&err);
        FUZZ_CHECK(m == NULL, "error but a model");
        return 0;
    }
    mech_pend_solver s;
    mech_pend_solver_default(&s);
    mech_pend_data *d = NULL;
    rc = mech_pend_data_new(m, 0.1, 10.0, &s, &d, &err);
    FUZZ_CHECK(rc >= HY_OK && rc <= HY_ENOMEM, "unknown status %d", rc);
    if (rc != HY_OK)
        fuzz_check_message(&err);
    else
        FUZZ_CHECK(isfinite(mech_pend_energy(m, d->y)), "energy at rest not finite");
    mech_pend_data_free(d);
    mech_pend_model_free(m);
    return 0;
}

/* libFuzzer harness of the "mech-friction" example-file reader (libmech/src/io/friction_json.c) and of what a parsed
 * file drives: the mechanism's compile step and the first reaction solve (the variant algorithm, the enumeration
 * and, for paradoxes, their report) at t = 0, then a few simulation steps. Invariants beyond the sanitizers: every
 * error message is one non-empty line of printable text; a parsed configuration's sizes are within the documented limits.
 *   clang -fsanitize=fuzzer,address,undefined -g -O1 -Ilibhyst/include -Ilibmech/include -Ilibmech/src -D_GNU_SOURCE \
 *     fuzz/fuzz_friction_json.c libmech/src/friction/friction_[a-z]*.c libmech/src/io/friction_json.c \
 *     libmech/src/ode/ode_[a-z]*.c libhyst/src/[a-z]*.c -lslicot -lglpk -llapacke -lopenblas -lcsv -lcjson -lm -o /tmp/fx
 *   /tmp/fx -max_total_time=20 fuzz/corpus/friction_json */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_util.h"
#include "mech/friction.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mech_friction_config cfg;
    hy_err e;
    fuzz_err_poison(&e);
    if (mech_friction_config_parse((const char *)data, size, "fuzz.json", &cfg, &e) != HY_OK) {
        fuzz_check_message(&e);
        return 0;
    }
    if (cfg.w < 1 || cfg.w > MECH_FRICTION_MAX_W || cfg.nc < 1 || cfg.nc > MECH_FRICTION_MAX_NC)
        abort();
    mech_friction_mech *mc;
    if (mech_friction_mech_new(&cfg, &mc, &e) != HY_OK) {
        fuzz_check_message(&e);
        return 0;
    }
    mech_friction_sim *s;
    if (mech_friction_sim_new(mc, &s, &e) != HY_OK) {
        fuzz_check_message(&e);
    } else {
        /* a few steps only: the fuzzer looks for crashes, not for long runs */
        double t1 = 5 * cfg.step;
        if (mech_friction_sim_advance(s, t1 < cfg.duration ? t1 : cfg.duration, &e) != HY_OK)
            fuzz_check_message(&e);
        mech_friction_sample o;
        mech_friction_sim_sample(s, &o);
        mech_friction_sim_free(s);
    }
    mech_friction_mech_free(mc);
    return 0;
}

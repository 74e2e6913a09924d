/* libFuzzer harness of the "mech-dock" scenario reader (libmech/src/io/dock_json.c): parse from memory (the model
 * files are only named, never opened). Invariants beyond the sanitizers: every error message is one line of
 * printable text; a parsed configuration's numbers are finite and within the documented ranges; and the printer's
 * round trip: parse -> print -> parse gives the same configuration, and printing it again the same text.
 * Build by hand with the clang line of docs/fuzzing.md, listing every .c file of libmech/src and libhyst/src
 * (the reader links the dock parameters, the beam unit helpers and libhyst's model reader), then
 *   /tmp/fx -max_total_time=20 <a copy of fuzz/corpus/dock_json>
 * (or `make fuzz`, which builds every harness against all library sources). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_util.h"
#include "mech/dock.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mech_dock_config a, b;
    hy_err e;
    fuzz_err_poison(&e);
    if (mech_dock_config_parse((const char *)data, size, "fuzz.json", "dir", &a, &e) != HY_OK) {
        fuzz_check_message(&e);
        mech_dock_config_free(&a);
        return 0;
    }
    const mech_dock_params *p = &a.params;
    FUZZ_CHECK(p->variant == MECH_DOCK_A || p->variant == MECH_DOCK_B, "variant %d", p->variant);
    FUZZ_CHECK(!p->limiter_movable || p->variant == MECH_DOCK_B, "variant C is B's dampers with the limiter");
    FUZZ_CHECK(!p->limiter_movable || (p->limiter.mass > 0 && p->limiter.stroke > 0 && p->limiter.f_forward > 0 &&
                                       isfinite(p->limiter.a[0]) && p->limiter.mu[0] >= 0 && p->limiter.mu[1] >= 0),
               "limiter keys out of their ranges");
    FUZZ_CHECK(p->h > 0 && isfinite(p->duration) && p->duration / p->h <= 1e8, "h %g duration %g", p->h, p->duration);
    FUZZ_CHECK(p->init.closing_speed > 0 && isfinite(p->init.angles.y) && isfinite(p->init.rates.z), "initial");
    FUZZ_CHECK(p->geom.half_angle > 0 && p->geom.half_angle < M_PI / 2, "half angle %g", p->geom.half_angle);
    FUZZ_CHECK(a.nchannel >= 0 && a.nchannel <= MECH_DOCK_NCH && a.nview >= 0 && a.nview <= 16, "outputs");
    for (int k = 0; k < 2; k++) {   /* the crank axes are stored as unit vectors (normalised on reading) */
        mech_vec3 e = p->lateral.brake_axis[k];
        FUZZ_CHECK(fabs(sqrt(e.x * e.x + e.y * e.y + e.z * e.z) - 1) < 1e-13, "brake_axis[%d] not a unit vector", k);
        FUZZ_CHECK(p->lateral.brake_crank[k] > 0 && p->lateral.brake_rod[k] > 0, "brake chain %d lengths", k + 3);
    }
    for (int k = 0; k < a.nchannel; k++)
        FUZZ_CHECK(mech_dock_channel_name(a.channel[k]) != NULL, "channel %d", a.channel[k]);
    char *t1 = mech_dock_config_print(&a, &e);
    FUZZ_CHECK(t1 != NULL, "print failed: %s", e.msg);
    int rc = mech_dock_config_parse(t1, strlen(t1), "printed.json", NULL, &b, &e);
    FUZZ_CHECK(rc == HY_OK, "the printed configuration does not parse: %s\n%s", e.msg, t1);
    FUZZ_CHECK(memcmp(&a.params, &b.params, sizeof a.params) == 0, "parameters differ after the round trip\n%s", t1);
    FUZZ_CHECK(memcmp(a.law_path, b.law_path, sizeof a.law_path) == 0, "law paths differ");
    FUZZ_CHECK(strcmp(a.out_dir, b.out_dir) == 0 && a.out_rate == b.out_rate && a.nchannel == b.nchannel &&
               a.records == b.records && a.plots == b.plots && a.animation == b.animation && a.nview == b.nview &&
               memcmp(a.channel, b.channel, sizeof a.channel) == 0 &&
               memcmp(a.view_times, b.view_times, sizeof a.view_times) == 0, "outputs differ after the round trip");
    char *t2 = mech_dock_config_print(&b, &e);
    FUZZ_CHECK(t2 != NULL && strcmp(t1, t2) == 0, "printing twice differs");
    free(t1);
    free(t2);
    mech_dock_config_free(&a);
    mech_dock_config_free(&b);
    return 0;
}

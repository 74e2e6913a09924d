/* libFuzzer harness of the "mech-beam" configuration reader (libmech/src/io/beam_json.c): parse from memory (no file
 * is opened: model files and force histories are only named), then compile the parameters into a model when the mesh
 * is small. Invariants beyond the sanitizers: the error message is one non-empty line of printable text; a parsed configuration's
 * numbers are finite, every hinge's law_scale positive; the model either builds or says why in one line. Corpus: fuzz/corpus/beam_json/. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_util.h"
#include "mech/beam.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mech_beam_config c;
    hy_err err;
    fuzz_err_poison(&err);
    if (mech_beam_config_parse((const char *)data, size, "fuzz.json", "dir", &c, &err) != HY_OK) {
        fuzz_check_message(&err);
        mech_beam_config_free(&c);
        return 0;
    }
    const mech_beam_params *p = &c.params;
    if (!isfinite(p->E) || !isfinite(p->length) || !isfinite(c.solver.dt) || !isfinite(c.load.F0))
        abort();
    for (int j = 0; j < p->n_hinges; j++)   /* a hinge law's scale: finite and positive (docs/beam.md) */
        FUZZ_CHECK(isfinite(p->hinge[j].law_scale) && p->hinge[j].law_scale > 0, "hinge %d law_scale %g", j,
                   p->hinge[j].law_scale);
    if (p->n_elem <= 40 && (p->n_modes == 0 || p->n_modes <= 10) && p->n_hinges <= 4) {
        mech_beam_model *m;
        if (mech_beam_model_new(p, &m, &err) == HY_OK) {
            mech_beam_info in;
            mech_beam_model_info(m, &in);
            if (in.nm == 0 || !(in.J > 0))
                abort();
            mech_beam_model_free(m);
        } else {
            fuzz_check_message(&err);
        }
    }
    mech_beam_config_free(&c);
    return 0;
}

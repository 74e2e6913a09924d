/* libFuzzer harness of the "mech-sweep" plan reader (libmech/src/sweep/sweep_plan.c). The reader reads files: each
 * input is written as plan.json into a temporary folder that also holds a small base scenario (s.json) and a link
 * to the RP-1 law files (fixtures/mech/dock/models, found from the current folder: `make fuzz` runs from the top),
 * so an input naming "s.json" reaches the key checks through the dock parser. Invariants beyond the sanitizers:
 * every error message is one line of printable text; a plan read has 1 .. 1e8 runs, every sampled value is in
 * (0, 1), and each run's scenario text is produced (and parses as JSON). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "fuzz_util.h"
#include "mech/sweep.h"

static char dir[] = "/tmp/fuzz_sweep.XXXXXX";
static char plan[PATH_MAX];

static void setup(void)
{
    char models[PATH_MAX], link[PATH_MAX + 16], scen[PATH_MAX + 16];
    if (!mkdtemp(dir) || !realpath("fixtures/mech/dock/models", models))
        abort();
    snprintf(link, sizeof link, "%s/models", dir);
    if (symlink(models, link) != 0)
        abort();
    snprintf(scen, sizeof scen, "%s/s.json", dir);
    FILE *fp = fopen(scen, "w");
    if (!fp)
        abort();
    fputs("{\"format\": \"mech-dock\", \"initial\": {\"closing_speed\": 0.15}, \"step\": 0.002, \"duration\": 1}\n", fp);
    fclose(fp);
    snprintf(plan, sizeof plan, "%s/plan.json", dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        setup();
        ready = 1;
    }
    FILE *fp = fopen(plan, "w");
    if (!fp)
        abort();
    fwrite(data, 1, size, fp);
    fclose(fp);
    mech_sweep_plan p;
    hy_err e;
    fuzz_err_poison(&e);
    if (mech_sweep_plan_read(plan, 0, &p, &e) != HY_OK) {
        fuzz_check_message(&e);
        return 0;
    }
    FUZZ_CHECK(p.nrun >= 1 && p.nrun <= 100000000 && p.nrun <= p.max_runs, "nrun %ld", p.nrun);
    for (long i = 0; i < p.nsample * p.ndist; i++)
        FUZZ_CHECK(p.u[i] > 0 && p.u[i] < 1, "u[%ld] = %g", i, p.u[i]);
    for (long r = 0; r < p.nrun && r < 4; r++) {
        char *t = mech_sweep_scenario(&p, r, &e);
        FUZZ_CHECK(t != NULL, "run %ld: %s", r, e.msg);
        cJSON *j = cJSON_Parse(t);
        FUZZ_CHECK(j != NULL, "run %ld: the scenario text is not JSON", r);
        cJSON_Delete(j);
        free(t);
    }
    mech_sweep_plan_free(&p);
    return 0;
}

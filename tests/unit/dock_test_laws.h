/* The RP-1 law files shipped in fixtures/mech/dock/models/, loaded for the docking tests (one copy of the loader
 * the dock test files share). FIXTURES overrides the fixtures folder (the test runner sets it). */
#ifndef DOCK_TEST_LAWS_H
#define DOCK_TEST_LAWS_H

#include <stdio.h>
#include <stdlib.h>
#include "hyst/model.h"
#include "mech/dock.h"

/* Slots in the order of enum mech_dock_law_slot. */
static const char *const dock_test_law_file[MECH_DOCK_NLAW] = {
    [MECH_DOCK_LAW_CHAIN] = "axial-A.json",     [MECH_DOCK_LAW_GEAR] = "gear-B.json",
    [MECH_DOCK_LAW_SPRING] = "lateral-spring.json", [MECH_DOCK_LAW_BENDING] = "probe-bending.json",
    [MECH_DOCK_LAW_TORSION] = "probe-torsion.json", [MECH_DOCK_LAW_COVER] = "cover.json"};

// (file name in fixtures/mech/dock/models/) => model read; HY_OK or the reader's code after printing its message
static inline int dock_test_load_law(const char *file, hy_model *m)
{
    const char *fx = getenv("FIXTURES");
    char path[1024];
    snprintf(path, sizeof path, "%s/mech/dock/models/%s", fx && *fx ? fx : "fixtures", file);
    hy_err e;
    int rc = hy_model_read(path, m, &e);
    if (rc)
        fprintf(stderr, "%s\n", e.msg);
    return rc;
}

// () => every shipped law into laws[MECH_DOCK_NLAW]; HY_OK or the first failure
static inline int dock_test_load_laws(hy_model laws[MECH_DOCK_NLAW])
{
    for (int k = 0; k < MECH_DOCK_NLAW; k++) {
        int rc = dock_test_load_law(dock_test_law_file[k], &laws[k]);
        if (rc)
            return rc;
    }
    return HY_OK;
}

// (params, laws) => the params' law pointers set to the shipped laws
static inline void dock_test_set_laws(mech_dock_params *p, hy_model laws[MECH_DOCK_NLAW])
{
    p->axial.chain.model = &laws[MECH_DOCK_LAW_CHAIN];
    p->axial.gear.model = &laws[MECH_DOCK_LAW_GEAR];
    p->lateral.spring.model = &laws[MECH_DOCK_LAW_SPRING];
    p->probe.bending.model = &laws[MECH_DOCK_LAW_BENDING];
    p->probe.torsion.model = &laws[MECH_DOCK_LAW_TORSION];
}

#endif

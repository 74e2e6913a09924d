/* What the plan reader (sweep_plan.c) and the plan kinds (sweep_kinds.c) share inside libmech: not installed. */
#ifndef MECH_SWEEP_INTERNAL_H
#define MECH_SWEEP_INTERNAL_H

#include <cjson/cJSON.h>
#include "mech/sweep.h"

/* (tree, dotted path, value (consumed)) => set; objects on the way created; -1 with a reason in why */
int mech_sweep__tree_set(cJSON *root, const char *path, cJSON *val, char *why, size_t len);
uint64_t mech_sweep__fnv(uint64_t h, const char *s, size_t n);

/* the plan kinds (sweep_kinds.c) */
// (plan after its varied keys, plan document, display name) => kind and its settings; refuses mixed kinds
int mech_sweep__kind_parse(mech_sweep_plan *p, const cJSON *doc, const char *name, hy_err *err);
// (plan) => the runs per grid point of its kind (the plain kind: 1 until "samples" is read)
long mech_sweep__kind_samples(const mech_sweep_plan *p);
// (plan with u allocated) => u filled by the kind's design (plain: the plan's sampler)
int mech_sweep__kind_sample(mech_sweep_plan *p, hy_err *err);
// (plan file's text, read so far: path set) => a qualification plan ("cases") read and checked
int mech_sweep__qual_parse(mech_sweep_plan *p, const char *name, int force, const char *text, size_t len, hy_err *err);
char *mech_sweep__qual_scenario(const mech_sweep_plan *p, long run, hy_err *err);

#endif

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

/* the simulators (sweep_sim.c) */
#define MECH_SWEEP_FILES_RUN 40   /* files one run reads at most: MECH_DOCK_NLAW, or MECH_BEAM_MAX_HINGES + 1 */
struct mech_dock_config;
struct mech_beam_config;
// (configuration, keys[], paths[], key buffers) => the files it reads, as lists for mech_sweep_files_add / _check
int mech_sweep__dock_files(const struct mech_dock_config *c, const char **keys, const char **paths, char (*kb)[64]);
int mech_sweep__beam_files(const struct mech_beam_config *c, const char **keys, const char **paths, char (*kb)[64]);
/* (plan, a scenario's text, display name, folder, load) => parsed by the plan's simulator's own parser (and, with
 * load, its files read and added to the plan's: plan reading); the parser's message naming file and key */
int mech_sweep__sim_check(const mech_sweep_plan *p, const char *txt, const char *name, const char *dir, int load,
                          hy_err *err);
/* (plan, the run's scenario text, display name, folder, result with its run id and NAN metrics) => the run through
 * its program's run function, its metrics in r->m (sweep_run.c, sweep_run_beam.c, sweep_run_friction.c) */
void mech_sweep__run_dock(const mech_sweep_plan *p, const char *txt, const char *name, const char *dir,
                          mech_sweep_result *r);
void mech_sweep__run_beam(const mech_sweep_plan *p, const char *txt, const char *name, const char *dir,
                          mech_sweep_result *r);
void mech_sweep__run_friction(const mech_sweep_plan *p, const char *txt, const char *name, const char *dir,
                              mech_sweep_result *r);
/* (plan, plan display name, a scenario tree, its path) => p->sim from the tree's "format" (which the plan's
 * "simulator" key, when given, must name); the first scenario sets it, every later one (a variant) must agree */
int mech_sweep__sim_of(mech_sweep_plan *p, const char *name, const cJSON *base, const char *scen, hy_err *err);
void mech_sweep__run_pendulum(const mech_sweep_plan *p, const char *txt, const char *name, const char *dir,
                              mech_sweep_result *r);
/* (display name, folder) => the scenario's path as the pendulum parser wants it (its folder resolves unit_model) */
void mech_sweep__pend_path(const char *name, const char *dir, char *path, size_t len);
// (result, message) => a failed row
void mech_sweep__fail(mech_sweep_result *r, const char *msg);

#endif

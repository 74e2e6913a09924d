/* A fitted model as a model file holds it: the identification (pwlfit, kinfit) of a record, wrapped with its
 * units, its source and the fit report under "fit", exactly as `hyst fit pwl` / `hyst fit kin` write it. One copy
 * for the programs and the Python package (python/hystkit), so that both produce the same file byte for byte
 * (apart from the report's wall time "seconds"). */
#ifndef HYST_FITMODEL_H
#define HYST_FITMODEL_H

#include "hyst/common.h"
#include "hyst/kinfit.h"
#include "hyst/model.h"
#include "hyst/pwlfit.h"
#include "hyst/series.h"

/* (record s (s->line may be NULL), options, r or NULL) => m: a pwl model with "name", "source" and the report
 * "fit" as extras (the report's limit loops carry the record's source lines when s->line is set). r receives the
 * fit result (warnings in r->warn; caller frees with hy_pwlfit_result_free) unless NULL. Errors start with the
 * record's source name, and "source:line:" when a sample is to blame. */
int hy_pwlfit_model(const hy_series *s, const hy_pwlfit_opts *o, hy_pwlfit_result *r, hy_model *m, hy_err *err);

/* (record s, options, r or NULL) => m: a kin model with the report "fit" as extra; r receives the result
 * (warnings in r->warning; nothing to free) unless NULL. Errors start with the record's source name. */
int hy_kinfit_model(const hy_series *s, const hy_kinfit_opts *o, hy_kinfit_result *r, hy_model *m, hy_err *err);

/* (element made by hy_model_element) => dst: a new element of the same model with a copy of src's committed and
 * trial state (the two then evolve independently). HY_EARG for an element of another origin. */
int hy_element_copy(const hy_element *src, hy_element *dst, hy_err *err);

#endif

/* Model files: the "hyst-model" JSON format family (docs/formats.md), read and written with cJSON.
 *   {"format": "hyst-model", "version": 1, "model": "pwl" | "kin" | "bw" | "iwan" | "clough", "units": {"q": "mm", "Q": "N"}, ...}
 * Keys the reader does not know (a fit report, a name, comments) are kept and written back unchanged. */
#ifndef HYST_MODEL_H
#define HYST_MODEL_H

#include "hyst/common.h"
#include "hyst/element.h"

struct cJSON;
struct hy_pwl_model;
struct hy_kin_model;
struct hy_bw_model;
struct hy_iwan_model;
struct hy_clough_model;

enum hy_model_type { HY_MODEL_NONE = 0, HY_MODEL_PWL = 1, HY_MODEL_KIN = 2, HY_MODEL_BW = 3, HY_MODEL_IWAN = 4,
                     HY_MODEL_CLOUGH = 5 };

typedef struct hy_model {
    int                  type;      /* enum hy_model_type                                                 */
    struct hy_pwl_model *pwl;       /* set when type == HY_MODEL_PWL                                      */
    struct hy_kin_model *kin;       /* set when type == HY_MODEL_KIN                                      */
    struct hy_bw_model  *bw;        /* set when type == HY_MODEL_BW (Bouc-Wen, hyst/bw.h)                 */
    struct hy_iwan_model *iwan;     /* set when type == HY_MODEL_IWAN (Iwan, hyst/iwan.h)                 */
    struct hy_clough_model *clough; /* set when type == HY_MODEL_CLOUGH (peak-oriented, hyst/clough.h)    */
    char                 unit_q[32], unit_Q[32];
    struct cJSON        *extra;     /* object of keys kept for the round trip (may be NULL)               */
} hy_model;

// (path or "-") => model parsed and validated; errors name the file and the JSON line:column or key path
int hy_model_read(const char *path, hy_model *m, hy_err *err);

// (JSON text, name for messages) => model parsed and validated
int hy_model_parse(const char *text, const char *name, hy_model *m, hy_err *err);

// (model) => JSON text (malloc'd, caller frees); numbers are printed so that they read back exactly
char *hy_model_print(const hy_model *m, hy_err *err);

// (model, path or "-", input to protect) => file written atomically
int hy_model_write(const hy_model *m, const char *path, const char *protect, hy_err *err);

// (model) => a new element with its own state, at rest at the origin
int hy_model_element(const hy_model *m, hy_element *e, hy_err *err);

// (m) => memory released
void hy_model_free(hy_model *m);

// (model) => its family name as in model files: "pwl", "kin", "bw", "iwan", "clough" ("none" without a type)
const char *hy_model_family(const hy_model *m);

// (model) => number of free parameters (for information criteria; model_params.c says what counts)
int hy_model_nparams(const hy_model *m);

// (model) => an independent copy in dst (through the model file text, so extras are copied too)
int hy_model_copy(const hy_model *src, hy_model *dst, hy_err *err);

// (v) => a cJSON number item that reads back to exactly v (null when v is not finite); for model files and reports
struct cJSON *hy_json_exact_number(double v);
// (object, key, v) => hy_json_exact_number(v) added under key; 0 when out of memory (nothing added, nothing leaked)
int hy_json_add_exact(struct cJSON *o, const char *key, double v);

// (doc) => indented JSON text (malloc'd) in which every number reads back to exactly its value; doc's numbers
// become exact raw items in place. Use it for every JSON file hystkit writes.
char *hy_json_print(struct cJSON *doc);

/* Hooks each model family implements (pwl_json.c, kin_json.c). from_json receives the whole document and reads
 * only its own keys; to_json adds its own keys to doc. The *_json_keys lists name those keys so that every
 * other key is kept as an extra. */
extern const char *const hy_pwl_json_keys[];
extern const char *const hy_kin_json_keys[];
int  hy_pwl_from_json(const struct cJSON *doc, const char *name, struct hy_pwl_model **out, hy_err *err);
int  hy_pwl_to_json(const struct hy_pwl_model *m, struct cJSON *doc, hy_err *err);
int  hy_pwl_element_new(const struct hy_pwl_model *m, hy_element *e, hy_err *err);
void hy_pwl_model_free(struct hy_pwl_model *m);
int  hy_kin_from_json(const struct cJSON *doc, const char *name, struct hy_kin_model **out, hy_err *err);
int  hy_kin_to_json(const struct hy_kin_model *m, struct cJSON *doc, hy_err *err);
int  hy_kin_element_new(const struct hy_kin_model *m, hy_element *e, hy_err *err);
void hy_kin_model_free(struct hy_kin_model *m);
extern const char *const hy_bw_json_keys[];
extern const char *const hy_iwan_json_keys[];
int  hy_bw_from_json(const struct cJSON *doc, const char *name, struct hy_bw_model **out, hy_err *err);
int  hy_bw_to_json(const struct hy_bw_model *m, struct cJSON *doc, hy_err *err);
int  hy_bw_element_new(const struct hy_bw_model *m, hy_element *e, hy_err *err);
void hy_bw_model_free(struct hy_bw_model *m);
int  hy_iwan_from_json(const struct cJSON *doc, const char *name, struct hy_iwan_model **out, hy_err *err);
int  hy_iwan_to_json(const struct hy_iwan_model *m, struct cJSON *doc, hy_err *err);
int  hy_iwan_element_new(const struct hy_iwan_model *m, hy_element *e, hy_err *err);
void hy_iwan_model_free(struct hy_iwan_model *m);
extern const char *const hy_clough_json_keys[];
int  hy_clough_from_json(const struct cJSON *doc, const char *name, struct hy_clough_model **out, hy_err *err);
int  hy_clough_to_json(const struct hy_clough_model *m, struct cJSON *doc, hy_err *err);
int  hy_clough_element_new(const struct hy_clough_model *m, hy_element *e, hy_err *err);
void hy_clough_model_free(struct hy_clough_model *m);

#endif

// Reading, replaying and measuring a record against several models (see replay_set.h).
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/csvread.h"
#include "hyst/util.h"
#include "replay_set.h"

// (path) => file name without directories
const char *hy_replay_base_name(const char *path)
{
    const char *name = hy_display_name(path);
    const char *slash = strrchr(name, '/');
    return slash && slash[1] ? slash + 1 : name;
}

// (path, index) => a label from the file name, made unique among the labels before it
static void make_label(hy_replay_one *m, size_t k, const hy_replay_one *all)
{
    const char *base = hy_replay_base_name(m->path);
    size_t len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".json") == 0)
        len -= 5;
    if (len >= sizeof m->label - 8)
        len = sizeof m->label - 8;
    memcpy(m->label, base, len);
    m->label[len] = '\0';
    for (size_t j = 0; j < k; j++)
        if (strcmp(all[j].label, m->label) == 0) {
            snprintf(m->label + len, sizeof m->label - len, "_%zu", k + 1);
            break;
        }
}

// (R, sample) => source line of that sample
size_t hy_replay_set_line(const hy_replay_set *R, size_t i)
{
    return R->s.line ? R->s.line[i] : i + 1;
}

// (units of the data and of a model, scale options) => warning when both are known and differ on an axis the user
// did not scale (a --x-scale or --y-scale is the conversion the warning asks for; that axis then has the model's unit)
static void check_units(const char *cmd, const hy_replay_set *R, const hy_replay_one *m, const hy_csv_opts *o)
{
    const hy_series *s = &R->s;
    int dq = o->x_scale == 1 && s->q_unit[0] && m->model.unit_q[0] && strcmp(s->q_unit, m->model.unit_q) != 0;
    int dQ = o->y_scale == 1 && s->Q_unit[0] && m->model.unit_Q[0] && strcmp(s->Q_unit, m->model.unit_Q) != 0;
    if (dq || dQ)
        hy_cli_warn(cmd, "%s: model units (q in %s, Q in %s) differ from %s (q in %s, Q in %s); no conversion is "
                    "made (use --x-scale/--y-scale)", hy_display_name(m->path), m->model.unit_q, m->model.unit_Q,
                    hy_display_name(R->data_path), s->q_unit, s->Q_unit);
}

// (command, models, data, options) => set loaded and replayed
int hy_replay_set_load(const char *cmd, char **model_paths, size_t n_models, const char *data_path,
                       hy_csv_opts *o, const hy_loops_opts *lo, int want_states, hy_replay_set *R)
{
    memset(R, 0, sizeof *R);
    R->data_path = data_path;
    hy_series_init(&R->s);
    size_t stdin_users = strcmp(data_path, "-") == 0;
    for (size_t k = 0; k < n_models; k++)
        stdin_users += strcmp(model_paths[k], "-") == 0;
    if (stdin_users > 1)
        return hy_cli_usage(cmd, "standard input ('-') can be read only once");

    R->m = calloc(n_models ? n_models : 1, sizeof *R->m);
    if (!R->m)
        return hy_cli_fail(cmd, "out of memory");
    R->n_models = n_models;
    hy_err err;
    /* models first: they are small, and a bad one should not wait for a long record to load */
    for (size_t k = 0; k < n_models; k++) {
        R->m[k].path = model_paths[k];
        if (hy_model_read(model_paths[k], &R->m[k].model, &err) != HY_OK)
            return hy_cli_fail(cmd, "%s", err.msg);
        make_label(&R->m[k], k, R->m);
    }
    int rc = hy_cli_read_series(cmd, data_path, o, &R->s);
    if (rc == 0)
        rc = hy_cli_condition(cmd, &R->s);
    for (size_t k = 0; k < n_models && rc == 0; k++) /* what the models were fitted on (their provenance) */
        rc = hy_cli_model_provenance(cmd, model_paths[k], &R->m[k].model);
    if (rc != 0)
        return rc;
    size_t n = R->s.n;
    if (n < 2)
        return hy_cli_fail(cmd, "%s: %zu data rows; a replay needs at least 2", hy_display_name(data_path), n);
    if (hy_loops_analyze(R->s.q, R->s.Q, n, lo, &R->L, &err) != HY_OK)
        return hy_cli_fail(cmd, "%s: %s", hy_display_name(data_path), err.msg);

    /* a record without a units row takes the units of the first model that has some, for labels and reports */
    for (size_t k = 0; k < n_models && !R->s.q_unit[0] && !R->s.Q_unit[0]; k++) {
        snprintf(R->s.q_unit, sizeof R->s.q_unit, "%s", R->m[k].model.unit_q);
        snprintf(R->s.Q_unit, sizeof R->s.Q_unit, "%s", R->m[k].model.unit_Q);
    }
    /* a scaled axis is the conversion into the models' units (what check_units asks for): label it with the first
       model's unit, so that plots and reports do not show the record's unscaled one */
    for (size_t k = n_models; k-- > 0;) {
        if (o->x_scale != 1 && R->m[k].model.unit_q[0])
            snprintf(R->s.q_unit, sizeof R->s.q_unit, "%s", R->m[k].model.unit_q);
        if (o->y_scale != 1 && R->m[k].model.unit_Q[0])
            snprintf(R->s.Q_unit, sizeof R->s.Q_unit, "%s", R->m[k].model.unit_Q);
    }
    for (size_t k = 0; k < n_models; k++) {
        hy_replay_one *m = &R->m[k];
        check_units(cmd, R, m, o);
        m->Q = malloc(n * sizeof *m->Q);
        if (want_states)
            m->states = malloc(n * sizeof *m->states);
        if (!m->Q || (want_states && !m->states))
            return hy_cli_fail(cmd, "out of memory for %zu samples", n);
        size_t row = 0;
        hy_diag diag;
        if (hy_replay_drive(&m->model, R->s.t, R->s.q, n, m->Q, m->states, &row, &diag, &err) != HY_OK)
            return hy_cli_fail(cmd, "%s:%zu: model %s stopped at %s", hy_display_name(data_path),
                               hy_replay_set_line(R, row), hy_display_name(m->path), err.msg);
        /* the record is within HY_CSV_MAX_ABS (the reader checks); a model's forces must be too, or the errors and
         * energies overflow into NaN and infinity */
        for (size_t i = 0; i < n; i++)
            if (!(fabs(m->Q[i]) <= HY_CSV_MAX_ABS))
                return hy_cli_fail(cmd,
                                   "%s:%zu: model %s predicts Q = %g at q = %g, expected a magnitude of at most %g "
                                   "(the errors and energies would overflow; do the model's units match the record's?)",
                                   hy_display_name(data_path), hy_replay_set_line(R, i), hy_display_name(m->path),
                                   m->Q[i], R->s.q[i], HY_CSV_MAX_ABS);
        if (hy_replay_metrics_compute(R->s.q, R->s.Q, m->Q, n, R->L.cyc, R->L.n_cyc, &m->M, &err) != HY_OK)
            return hy_cli_fail(cmd, "%s", err.msg);
    }
    return 0;
}

// (R) => memory released
void hy_replay_set_free(hy_replay_set *R)
{
    for (size_t k = 0; k < R->n_models && R->m; k++) {
        hy_model_free(&R->m[k].model);
        free(R->m[k].Q);
        free(R->m[k].states);
        hy_replay_metrics_free(&R->m[k].M);
    }
    free(R->m);
    hy_loops_free(&R->L);
    hy_series_free(&R->s);
    memset(R, 0, sizeof *R);
}

// (command, output path, set) => atomic output that never replaces an input
int hy_replay_set_open_output(const char *cmd, const char *path, const hy_replay_set *R, hy_atomic *a)
{
    const char *models[65];   /* the set's model files, then NULL: inputs the output may not be */
    size_t n = R->n_models < 64 ? R->n_models : 64;
    for (size_t k = 0; k < n; k++)
        models[k] = strcmp(R->m[k].path, "-") ? R->m[k].path : "";
    models[n] = NULL;
    for (size_t k = n; k < R->n_models; k++)   /* more models than the list holds */
        if (strcmp(path, "-") != 0 && hy_same_file(path, R->m[k].path))
            return hy_cli_fail(cmd, "%s: refusing to overwrite an input file", path);
    return tool_out_open(cmd, a, path, R->data_path, models);
}

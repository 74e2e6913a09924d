/* What `hyst replay` and `hyst plot` share: read a bench record and one or more model files, analyse the measured
 * loops once, replay every model on the record and measure each against it (hyst/replay.h). */
#ifndef HYST_REPLAY_SET_H
#define HYST_REPLAY_SET_H

#include <stddef.h>
#include "cli.h"
#include "hyst/loops.h"
#include "hyst/model.h"
#include "hyst/replay.h"
#include "hyst/util.h"

typedef struct hy_replay_one {
    const char        *path;        /* model file as given                                                   */
    char               label[128];  /* file name without directories and ".json" (unique within the set)    */
    hy_model           model;
    double            *Q;           /* predicted force, one per sample                                       */
    int               *states;      /* element state after each sample (when asked for), else NULL           */
    hy_replay_metrics  M;
} hy_replay_one;

typedef struct hy_replay_set {
    const char    *data_path;
    hy_series      s;               /* the measured record                                                   */
    hy_loops       L;               /* its loop analysis (cycles shared by every model)                      */
    size_t         n_models;
    hy_replay_one *m;
} hy_replay_set;

// (command, model paths[n], data path, data options, loop options, keep states?) => everything read, replayed
// and measured; returns an exit status (0, or 1/2 after printing the message)
int hy_replay_set_load(const char *cmd, char **model_paths, size_t n_models, const char *data_path,
                       hy_csv_opts *o, const hy_loops_opts *lo, int want_states, hy_replay_set *R);

// (command, output path, set) => *a open for an atomic write that can replace neither a model file nor the
// record; returns 0, or an exit status after printing the message
int hy_replay_set_open_output(const char *cmd, const char *path, const hy_replay_set *R, hy_atomic *a);

// (R) => memory released
void hy_replay_set_free(hy_replay_set *R);

// (path) => file name without directories ("<stdin>" for "-"), for labels and titles
const char *hy_replay_base_name(const char *path);

// (R, sample index) => source line of that sample, for reports
size_t hy_replay_set_line(const hy_replay_set *R, size_t i);

#endif

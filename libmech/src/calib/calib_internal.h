/* What the calibration's files share inside libmech: not installed. */
#ifndef MECH_CALIB_INTERNAL_H
#define MECH_CALIB_INTERNAL_H

#include "mech/calib.h"

// (record, path, time column, channel names, the run channels' units) => the columns read (calib_record.c)
int mech_calib__record_read(mech_calib_record *r, const char *path, const char *tcol, int nch,
                            const char *const *names, const char *const *units, hy_err *err);
void mech_calib__record_free(mech_calib_record *r);
/* (problem, key values, run or -1) => the scenario tree with the keys (and the run's conditions) set: a copy of
 * p->base (cJSON_Delete it); NULL with err */
struct cJSON *mech_calib__tree(const mech_calib_problem *p, const double *x, int run, hy_err *err);

/* (kind, run channel name) => its index in the simulator's channels (`mech dock`'s enum mech_dock_channel, or the
 * beam's columns) and *unit; -1 (unit NULL) when the simulator writes no such channel (calib_sim.c) */
int mech_calib__channel(int kind, const char *name, const char **unit);
// (problem, scenario text) => parsed by the simulator's parser (laws only named); its message on failure
int mech_calib__parse(const mech_calib_problem *p, const char *txt, hy_err *err);

/* One column of the Jacobian: (ctx, column k) => its n values into col; HY_OK or an error in err */
typedef int (*mech_calib__column_fn)(void *ctx, int k, double *col, hy_err *err);
/* (columns, worker processes, values per column, fn) => column k into out[k n .. (k + 1) n): in this process when
 * jobs <= 1, else on jobs processes (jobs - 1 forked for the call), the same bits (calib_columns.c) */
int mech_calib__columns(int ncol, int jobs, size_t n, mech_calib__column_fn fn, void *ctx, double *out, hy_err *err);

#endif

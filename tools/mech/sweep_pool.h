/* Workers of `mech sweep` (docs/sweep.md §Parallel): forked processes on one machine (-j N) or MPI ranks, each
 * running one simulation at a time on run ids handed out one by one by the master (the parent process or rank 0),
 * so a slow run never stalls the others. The master gets each result as it finishes; the table is sorted by run id
 * afterwards, so it is the same for any number of workers. MPI is loaded with dlopen only when the program runs
 * under mpirun (OMPI_COMM_WORLD_SIZE set): plain `mech` neither links nor loads libmpi. Under MPI rank 0 is the
 * master and simulates too, keeping two ids in flight at every other rank. */
#ifndef MECH_SWEEP_POOL_H
#define MECH_SWEEP_POOL_H

#include <stddef.h>
#include "mech/sweep.h"

typedef struct sw_pool sw_pool;
/* called on the master as each run finishes; a non-zero return stops the batch: no id is handed out any more, the
 * runs in flight finish (and are reported) and sw_pool_run returns */
typedef int (*sw_done_fn)(void *ctx, const mech_sweep_result *r);

/* () => 1 when started by mpirun; then MPI is initialised (libmpi opened) and *rank, *size are set. 0 otherwise;
 * -1 (message in err) when under mpirun but libmpi cannot be loaded. */
int sw_mpi_init(int *rank, int *size, hy_err *err);
void sw_mpi_finalize(void);
// (plan) => a worker rank's loop: runs the ids rank 0 sends until it says stop
void sw_mpi_worker(const mech_sweep_plan *p);

// (plan, worker processes >= 1, or 0 with mpi_size > 1: rank 0 serves mpi_size - 1 ranks and runs too) => pool
int sw_pool_start(sw_pool **out, const mech_sweep_plan *p, int nproc, int mpi_size, hy_err *err);
// (pool, run ids) => each run done by a worker; done(ctx, result) called on the master as each finishes
int sw_pool_run(sw_pool *q, const long *ids, size_t n, sw_done_fn done, void *ctx, hy_err *err);
// (pool) => workers stopped and reaped (MPI ranks told to stop); NULL is fine
void sw_pool_stop(sw_pool *q);

#endif

/* Replay: drive an identified model with a measured displacement history and measure how well it predicts the
 * measured force. Everything works on plain arrays; the cycles come from hy_loops_analyze on the MEASURED record,
 * so every model replayed on the same record is judged on the same cycles.
 *
 * Definitions (docs/formats.md, section replay):
 *   error e_i = Q_model,i - Q_measured,i
 *   NRMSE     = sqrt(mean(e_i^2)) / (max Q_measured - min Q_measured)
 *   energy of a cycle = trapezoid sum of Q dq over the cycle's samples i0..i1, closed by the straight segment
 *   back to sample i0 (the polygon's enclosed area, as hy_loops_analyze computes it); the same formula for the
 *   measured and the predicted force, so that their ratio compares like with like; totals are sums over cycles. */
#ifndef HYST_REPLAY_H
#define HYST_REPLAY_H

#include <stddef.h>
#include "hyst/common.h"
#include "hyst/element.h"
#include "hyst/loops.h"
#include "hyst/model.h"

/* Per-cycle comparison. Errors are model minus measured. Ratios are NaN when the measured energy is 0. */
typedef struct hy_replay_cycle {
    size_t i0, i1;                         /* the measured cycle's samples (hy_cycle i0, i1)                    */
    double q_min, q_max;                   /* displacement range of the cycle                                   */
    double energy_measured, energy_model;  /* dissipated energy: closed integral of Q dq over i0..i1            */
    double energy_ratio;                   /* energy_model / energy_measured                                    */
    double Q_max_measured, Q_max_model;    /* largest force in the cycle                                        */
    double Q_min_measured, Q_min_model;    /* smallest force in the cycle                                       */
    double Q_max_error, Q_min_error;       /* peak-force errors: Q_max_model - Q_max_measured, same for min     */
    double rms_error;                      /* RMS of the force error over the cycle's samples                   */
} hy_replay_cycle;

typedef struct hy_replay_metrics {
    size_t           n;                /* samples compared                                                      */
    double           Q_ptp;            /* measured peak-to-peak force: max Q - min Q                            */
    double           mean_error;       /* mean of the error (bias)                                              */
    double           rms_error;        /* RMS of the error                                                      */
    double           nrmse;            /* rms_error / Q_ptp (NaN when Q_ptp is 0)                               */
    double           max_abs_error;    /* largest |error| ...                                                   */
    size_t           max_abs_index;    /* ... and the sample where it occurs (the first one on ties)           */
    double           energy_measured;  /* sum of the cycles' measured energies                                  */
    double           energy_model;     /* sum of the cycles' predicted energies                                 */
    double           energy_ratio;     /* energy_model / energy_measured (NaN when no energy was measured)      */
    double           work_measured;    /* trapezoid integral of Q dq along the whole record (open path)         */
    double           work_model;
    size_t           n_cyc;
    hy_replay_cycle *cyc;              /* n_cyc entries (NULL when there are no cycles)                         */
} hy_replay_metrics;

// (q[n], measured Q[n], predicted Q[n], measured cycles[n_cyc] or NULL) => metrics (M->cyc allocated)
int hy_replay_metrics_compute(const double *q, const double *Q_meas, const double *Q_model, size_t n,
                              const hy_cycle *cycles, size_t n_cyc, hy_replay_metrics *M, hy_err *err);

// (M) => memory released, M zeroed
void hy_replay_metrics_free(hy_replay_metrics *M);

/* (metrics) => cycle energy error weighted by the cycles' measured energy: sum |E_model - E_meas| / sum E_meas over
 * the cycles with E_meas > 0, i.e. the mean of the cycles' relative errors with weights E_meas / sum E_meas (an
 * unweighted mean lets a tiny cycle off 140x decide); NaN without such a cycle (docs/fit-families.md) */
double hy_replay_energy_error(const hy_replay_metrics *M);

/* (metrics) => NRMSE over the samples of the measured cycles only (rest segments, the first loading and a tail
 * outside every cycle left out): sqrt(sum n_c rms_c^2 / sum n_c) / the cycles' measured force range; the whole
 * record's NRMSE when there is no cycle */
double hy_replay_cycle_nrmse(const hy_replay_metrics *M);

/* (model, t[n] or NULL, q[n]) => Q[n] and, when states != NULL, the element state code after each sample.
 * The element starts at rest at the origin (q = 0, Q = 0), as every model file describes a specimen at rest.
 * On a model violation returns its code (HY_ESTATE, HY_ERANGE, ...), sets *row to the failing sample's 0-based
 * index and fills diag; err gets "row R, t = T, q = Q: <diag>" with R 1-based among the data rows (t omitted
 * without time). Allocates only the element. */
int hy_replay_drive(const hy_model *m, const double *t, const double *q, size_t n, double *Q, int *states,
                    size_t *row, hy_diag *diag, hy_err *err);

/* Decimation for drawing only (never for computing): the index range [0, n) is cut into `buckets` equal runs
 * and each run keeps the samples where x and y reach their minimum and maximum, in record order, plus the first
 * and the last sample. Peaks and reversals survive exactly; the drawn envelope of noisy data is preserved.
 * keep[] must have room for min(n, 4 * buckets + 2) indices. */
// (x[n], y[n], buckets) => kept sample indices in keep[], increasing; returns their count (n when n is small)
size_t hy_replay_decimate(const double *x, const double *y, size_t n, size_t buckets, size_t *keep);

#endif

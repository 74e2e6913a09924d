// Replay metrics: how well a predicted force history matches the measured one (see hyst/replay.h).
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/replay.h"

// (q, Q, i0, i1) => trapezoid integral of Q dq from sample i0 to sample i1
static double trapezoid(const double *q, const double *Q, size_t i0, size_t i1)
{
    double s = 0.0;
    for (size_t i = i0; i < i1; i++)
        s += 0.5 * (Q[i] + Q[i + 1]) * (q[i + 1] - q[i]);
    return s;
}

/* The cycle's path closed by the straight segment from its end back to its start: the area enclosed by the
 * polygon of the samples (shoelace), positive for a clockwise loop in (q, Q), as hy_loops_analyze defines it. */
// (q, Q, i0, i1) => dissipated energy of the cycle i0..i1
static double cycle_energy(const double *q, const double *Q, size_t i0, size_t i1)
{
    return trapezoid(q, Q, i0, i1) + 0.5 * (Q[i1] + Q[i0]) * (q[i0] - q[i1]);
}

static double ratio(double num, double den)
{
    return den != 0.0 ? num / den : NAN;
}

// (q, measured Q, predicted Q, samples i0..i1) => one cycle's comparison
static void compare_cycle(const double *q, const double *Qm, const double *Qp, size_t i0, size_t i1,
                          hy_replay_cycle *c)
{
    memset(c, 0, sizeof *c);
    c->i0 = i0;
    c->i1 = i1;
    c->q_min = c->q_max = q[i0];
    c->Q_max_measured = c->Q_min_measured = Qm[i0];
    c->Q_max_model = c->Q_min_model = Qp[i0];
    double se = 0.0;
    for (size_t i = i0; i <= i1; i++) {
        double e = Qp[i] - Qm[i];
        se += e * e;
        if (q[i] < c->q_min) c->q_min = q[i];
        if (q[i] > c->q_max) c->q_max = q[i];
        if (Qm[i] > c->Q_max_measured) c->Q_max_measured = Qm[i];
        if (Qm[i] < c->Q_min_measured) c->Q_min_measured = Qm[i];
        if (Qp[i] > c->Q_max_model) c->Q_max_model = Qp[i];
        if (Qp[i] < c->Q_min_model) c->Q_min_model = Qp[i];
    }
    c->rms_error = sqrt(se / (double)(i1 - i0 + 1));
    c->Q_max_error = c->Q_max_model - c->Q_max_measured;
    c->Q_min_error = c->Q_min_model - c->Q_min_measured;
    c->energy_measured = cycle_energy(q, Qm, i0, i1);
    c->energy_model = cycle_energy(q, Qp, i0, i1);
    c->energy_ratio = ratio(c->energy_model, c->energy_measured);
}

// (q[n], measured Q[n], predicted Q[n], measured cycles) => metrics
int hy_replay_metrics_compute(const double *q, const double *Q_meas, const double *Q_model, size_t n,
                              const hy_cycle *cycles, size_t n_cyc, hy_replay_metrics *M, hy_err *err)
{
    memset(M, 0, sizeof *M);
    if (n == 0)
        return hy_err_set(err, HY_EDATA, "replay: no samples to compare");
    for (size_t k = 0; k < n_cyc; k++)
        if (cycles[k].i0 > cycles[k].i1 || cycles[k].i1 >= n)
            return hy_err_set(err, HY_EARG, "replay: cycle %zu spans samples %zu..%zu outside 0..%zu", k,
                              cycles[k].i0, cycles[k].i1, n - 1);
    M->n = n;
    double se = 0.0, sum = 0.0, Qmin = Q_meas[0], Qmax = Q_meas[0];
    for (size_t i = 0; i < n; i++) {
        double e = Q_model[i] - Q_meas[i];
        sum += e;
        se += e * e;
        double a = fabs(e);
        if (a > M->max_abs_error) { /* strict: the first of equal maxima is reported */
            M->max_abs_error = a;
            M->max_abs_index = i;
        }
        if (Q_meas[i] < Qmin) Qmin = Q_meas[i];
        if (Q_meas[i] > Qmax) Qmax = Q_meas[i];
    }
    M->Q_ptp = Qmax - Qmin;
    M->mean_error = sum / (double)n;
    M->rms_error = sqrt(se / (double)n);
    M->nrmse = M->Q_ptp > 0.0 ? M->rms_error / M->Q_ptp : NAN;
    M->work_measured = trapezoid(q, Q_meas, 0, n - 1);
    M->work_model = trapezoid(q, Q_model, 0, n - 1);
    if (n_cyc) {
        M->cyc = malloc(n_cyc * sizeof *M->cyc);
        if (!M->cyc)
            return hy_err_set(err, HY_ENOMEM, "replay: out of memory for %zu cycles", n_cyc);
        M->n_cyc = n_cyc;
    }
    for (size_t k = 0; k < n_cyc; k++) {
        compare_cycle(q, Q_meas, Q_model, cycles[k].i0, cycles[k].i1, &M->cyc[k]);
        M->energy_measured += M->cyc[k].energy_measured;
        M->energy_model += M->cyc[k].energy_model;
    }
    M->energy_ratio = n_cyc ? ratio(M->energy_model, M->energy_measured) : NAN;
    return HY_OK;
}

// (M) => memory released
void hy_replay_metrics_free(hy_replay_metrics *M)
{
    if (!M)
        return;
    free(M->cyc);
    memset(M, 0, sizeof *M);
}

// (metrics) => energy-weighted cycle energy error (hyst/replay.h)
double hy_replay_energy_error(const hy_replay_metrics *M)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < M->n_cyc; i++)
        if (M->cyc[i].energy_measured > 0) {
            num += fabs(M->cyc[i].energy_model - M->cyc[i].energy_measured);
            den += M->cyc[i].energy_measured;
        }
    return den > 0 ? num / den : NAN;
}

// (metrics) => NRMSE over the cycles' samples (hyst/replay.h)
double hy_replay_cycle_nrmse(const hy_replay_metrics *M)
{
    double ss = 0, cnt = 0, lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < M->n_cyc; i++) {
        const hy_replay_cycle *c = &M->cyc[i];
        double m = (double)(c->i1 - c->i0 + 1);
        ss += m * c->rms_error * c->rms_error;
        cnt += m;
        lo = fmin(lo, c->Q_min_measured);
        hi = fmax(hi, c->Q_max_measured);
    }
    return cnt > 0 && hi > lo ? sqrt(ss / cnt) / (hi - lo) : M->nrmse;
}

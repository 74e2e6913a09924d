/* Predicted against measured dynamic runs (issue 45, docs/compare.md): a simulated run (a `mech dock` or
 * `mech beam sim` output, or a run held in memory) beside a measured record (CSV or HDF5 table) with its own
 * channel names, units, sampling and time origin.
 *
 *   record   (mech_compare_rec)  a time column and named channels with units; read from a file through libhyst's
 *                                CSV / HDF5 readers, or filled in memory (a calibration's simulator in the loop)
 *   map      (mech_compare_map)  measured channel -> run channel, unit, gain, tolerance; the alignment method
 *   compare  (mech_compare)      immutable once made: the alignment lag, the common grid over the overlap, both
 *                                records on it (run units), per-channel NRMSE, peak error, lag, verdict
 *   residual                     the same grid and lag applied to another run: the vector a least-squares
 *                                calibration minimises (sum of squares = sum over channels of NRMSE^2)
 *
 * Time convention: the lag L says the measured record is late by L: measured(t) ~ run(t - L). The grid is in the
 * measured record's time. Resampling is linear interpolation inside both records only (never extrapolated). */
#ifndef MECH_COMPARE_H
#define MECH_COMPARE_H

#include <stddef.h>
#include "hyst/common.h"

#define MECH_COMPARE_MAX_CH 32
#define MECH_COMPARE_NAME 64
#define MECH_COMPARE_UNIT 32

/* ---- units (compare_units.c) --------------------------------------------------------------------------------- */
/* (unit text from, unit text to) => *factor with value_to = factor * value_from. Known units (N, kN, m, mm, rad,
 * mrad, deg, s, ms, m/s, mm/s, rad/s, deg/s, m/s^2, g, N m, kN m, J, V, 1, ...; docs/compare.md §2) convert within
 * their dimension; an unknown unit matches only itself (factor 1). Returns 0, or -1 on a mismatch. */
int mech_compare_unit_factor(const char *from, const char *to, double *factor);

/* ---- records (compare_rec.c) --------------------------------------------------------------------------------- */
typedef struct mech_compare_rec {
    size_t n, cap;                            /* samples; strictly increasing time                             */
    double *t;                                /* n times (s)                                                   */
    int nch;
    double *v[MECH_COMPARE_MAX_CH];           /* nch channels of n values                                      */
    char name[MECH_COMPARE_MAX_CH][MECH_COMPARE_NAME];
    char unit[MECH_COMPARE_MAX_CH][MECH_COMPARE_UNIT];
    size_t *line;                             /* source line (CSV) or row (HDF5) of each sample, or NULL       */
    char source[512];                         /* for messages                                                  */
    int bad_ch;                               /* after a failed mech_compare_rec_read: the channel that failed
                                                 (-1: the time or the table itself)                             */
} mech_compare_rec;

// (r, source name for messages) => an empty record
void mech_compare_rec_init(mech_compare_rec *r, const char *source);
// (r with no samples yet, channel name, unit) => channel added; its index returned through *idx (may be NULL)
int mech_compare_rec_add(mech_compare_rec *r, const char *name, const char *unit, int *idx, hy_err *err);
/* (r, time, values[nch]) => one sample appended (memory grows geometrically); the time must be finite and after the
 * previous one, the values finite */
int mech_compare_rec_push(mech_compare_rec *r, double t, const double *vals, hy_err *err);
// (r) => memory released, r empty
void mech_compare_rec_free(mech_compare_rec *r);
// (r, name) => channel index, or -1
int mech_compare_rec_find(const mech_compare_rec *r, const char *name);

/* (table: a CSV file or FILE.h5:/DSET, time column name or NULL for "t", time unit ("s" when NULL or ""; converted
 * to s), channel names[nch]) => the record, read by hy_csv_read / hy_h5_read_series one channel at a time (their
 * messages: FILE:LINE:COLUMN); each channel's unit from the units row ("" without one). Refused: a missing column,
 * time that does not strictly increase (FILE:LINE), fewer than 2 samples. */
int mech_compare_rec_read(const char *table, const char *t_col, const char *t_unit, const char *const *names,
                          int nch, mech_compare_rec *r, hy_err *err);

/* (a run: a `mech dock` folder (history.csv, else log.h5), a `mech dock` / `mech beam sim` HDF5 log, a
 * `mech beam sim` CSV, or FILE.h5:/DSET) => out: the table to read its channels from ("DIR/history.csv",
 * "LOG.h5:/history", ...); HY_EIO when nothing there is a run */
int mech_compare_run_table(const char *run, char *out, size_t len, hy_err *err);

/* ---- the sensor's anti-alias filter on the prediction (compare_filter.c; docs/compare.md §2) ------------------ */
#define MECH_COMPARE_FILTER_MAX_ORDER 8
#define MECH_COMPARE_FILTER_RATE 20000.0   /* the digital realisation's least rate, Hz (scripts/make-virtual-test's) */
/* The causal Butterworth low-pass the acquisition applied before sampling, stated by the test engineer */
typedef struct mech_compare_filter {
    int order;                     /* 0: no filter; 1..MECH_COMPARE_FILTER_MAX_ORDER                             */
    double cutoff;                 /* the -3.01 dB frequency, Hz                                                 */
} mech_compare_filter;
// (f) => the rate of its digital realisation: max(20 kHz, 20 cutoff), Hz
double mech_compare_filter_rate(const mech_compare_filter *f);
/* (f, the record's sampling rate (0: unknown), file name, key for messages) => order 1..8, cutoff > 0 and below the
 * record's Nyquist frequency; errors name the file and "KEY.order" / "KEY.cutoff" */
int mech_compare_filter_check(const mech_compare_filter *f, double fs_record, const char *name, const char *key,
                              hy_err *err);
/* (order, cutoff fc, rate fs) => the sections (b0, b1, b2, a1, a2) of the bilinear-transformed analog Butterworth,
 * pre-warped (-3.01 dB exactly at fc), unit gain at DC; returns their number ((order + 1) / 2), -1 when order is
 * not 1..8 or fc not in (0, fs/2) */
int mech_compare_butter_sos(int order, double fc, double fs, double sos[][5]);
// (sections, x[n] uniform) => x filtered in place, causal, from rest at x[0] (direct form II transposed)
void mech_compare_sos_run(const double sos[][5], int nsec, double *x, size_t n);
/* (filters of nch channels, the run's span [t0, t1]) => 1 and the grid (step *h, *n samples from t0) the sensor
 * model resamples the run on (the highest rate any filter needs), 0 when no channel is filtered */
int mech_compare_sensor_grid(const mech_compare_filter *f, int nch, double t0, double t1, double *h, size_t *n);
/* (filter or NULL, a run channel (t[n] increasing, values v[i stride]), grid t0 + i h, i < ng) => out[ng]: the
 * channel linear between its samples on the grid, then filtered (f->order > 0). The one sensor model of
 * `mech compare` (mech_compare_new, mech_compare_residual) and `mech calibrate` (mech_calib_simulate). */
int mech_compare_sensor_channel(const mech_compare_filter *f, const double *t, const double *v, size_t n,
                                size_t stride, double t0, double h, size_t ng, double *out, hy_err *err);

/* ---- the channel map (io/compare_json.c; docs/compare.md §2) ------------------------------------------------- */
typedef struct mech_compare_chan {
    char meas[MECH_COMPARE_NAME];  /* the measured record's channel                                              */
    char run[MECH_COMPARE_NAME];   /* the run's channel it is compared with                                      */
    char unit[MECH_COMPARE_UNIT];  /* the measured channel's unit ("": from the record's units row)              */
    double scale;                  /* a gain applied after the unit conversion (1; -1 for a reversed sensor)     */
    double tol;                    /* NRMSE tolerance of the verdict (NaN: the map's default, else none)        */
    int impact;                    /* 1: a contact force; its impacts are tabulated (time, peak, impulse)        */
    char key[32];                  /* "channels[2]" (or "--tol", ...) for messages                               */
    double peak_tol;               /* tolerance of |peak error| / |measured peak| (NaN: none): a transient's peak
                                      can be wrong by far more than a whole-record NRMSE shows                     */
    int derivative;                /* 0, 1, 2: the run channel differentiated in time that many times (a measured
                                      tip acceleration against the run's tip deflection): three-point formulas on
                                      the run's own samples; its unit gets "/s" or "/s^2"                          */
    mech_compare_filter filter;    /* the sensor's anti-alias filter, applied to the run channel (order 0: none;
                                      the map's "filter" unless the channel gives its own)                         */
} mech_compare_chan;

#define MECH_COMPARE_MAX_LOOPS 8
/* A hysteretic element with a measured loop: two mapped channels, its displacement q and force Q (indices into
 * the map's channels), compared as loops (hyst loops' metrics: energy per cycle, secant stiffness). */
typedef struct mech_compare_loop {
    char name[MECH_COMPARE_NAME];  /* the element ("axial", "hinge1")                                            */
    int q, Q;                      /* channel indices                                                            */
} mech_compare_loop;

enum mech_compare_align { MECH_COMPARE_ALIGN_XCORR = 0, MECH_COMPARE_ALIGN_EVENT, MECH_COMPARE_ALIGN_NONE };

typedef struct mech_compare_map {
    int n;
    mech_compare_chan ch[MECH_COMPARE_MAX_CH];
    char time[MECH_COMPARE_NAME];        /* the measured record's time column ("t")                               */
    char time_unit[MECH_COMPARE_UNIT];   /* its unit ("s"; "ms", "us", ... converted)                             */
    int align;                           /* enum mech_compare_align                                               */
    char align_ch[MECH_COMPARE_NAME];    /* the measured channel aligned on ("": the first mapped channel)         */
    double lag;                          /* ALIGN_NONE: the lag to apply (s, default 0)                           */
    double max_lag;                      /* the largest |lag| searched (s; NaN: a quarter of the shorter record)  */
    double event_level;                  /* ALIGN_EVENT: the fraction of the channel's peak |value| (0.1)         */
    double dt;                           /* the grid step (s; NaN: the measured record's median sampling step)    */
    double tol;                          /* the default NRMSE tolerance (NaN: none)                               */
    int nloop;
    mech_compare_loop loop[MECH_COMPARE_MAX_LOOPS];
    char source[256];                    /* the map file for messages ("" when made from options)                 */
    double window[2];                    /* the part of the measured record compared (s, measured time; NaN: all):
                                            a transient judged on its own, not diluted by the quiet rest          */
} mech_compare_map;

// (m) => no channels, time "t" in s, cross-correlation on the first channel, defaults as above
void mech_compare_map_default(mech_compare_map *m);
// (text[len], name for messages) => the map ("mech-compare-map" JSON); errors name the file and the key
int mech_compare_map_parse(const char *text, size_t len, const char *name, mech_compare_map *m, hy_err *err);
// (path) => the map read (hy_read_text) and parsed
int mech_compare_map_read(const char *path, mech_compare_map *m, hy_err *err);
/* (m, "CH=X": a measured channel of m (or a run channel mapped) and its NRMSE tolerance) => that channel's tol;
 * errors name the option: a channel not in the map, a tolerance that is not a positive finite number */
int mech_compare_map_tol(mech_compare_map *m, const char *spec, hy_err *err);
/* (m, "T0,T1") => m->window (T0 < T1, finite; --window); errors name the option */
int mech_compare_map_window(mech_compare_map *m, const char *spec, hy_err *err);
/* (m, "event", "none" or a channel) => the alignment set; a channel must be a measured channel of the map */
int mech_compare_map_align(mech_compare_map *m, const char *spec, hy_err *err);
/* (m without channels, run channel names[nrun], measured names[nmeas]) => every measured channel but the time that
 * the run also has, mapped to itself (no map file: the same names) */
int mech_compare_map_same_names(mech_compare_map *m, const char *const *run, int nrun, const char *const *meas,
                                int nmeas, hy_err *err);

/* ---- alignment (compare_align.c) ----------------------------------------------------------------------------- */
/* (run channel (ta[na], a), measured channel (tb[nb], b), grid step h, largest |lag| searched) => *lag with
 * b(t) ~ a(t - lag): both resampled onto one uniform grid of step h (linear interpolation inside each record), the
 * mean squared difference over the overlap at every whole-sample shift (its cross term by FFT, GSL radix-2;
 * the energies by prefix sums), the smallest refined by a parabola through it and its two neighbours computed
 * directly, then by Brent's method (GSL) on the continuous mean squared difference between b's own samples and a
 * interpolated at t - L, L within one grid step of the best shift (sub-sample). HY_EDATA when the best shift is
 * at the search limit or the channel is flat there. */
int mech_compare_xcorr_lag(const double *ta, const double *a, size_t na, const double *tb, const double *b, size_t nb,
                           double h, double max_lag, double *lag, hy_err *err);
/* (run channel, measured channel, level in (0, 1)) => *lag = t_b - t_a between the first times each |value|
 * reaches level x its own peak |value| (linear interpolation between samples); HY_EDATA for a flat channel */
int mech_compare_event_lag(const double *ta, const double *a, size_t na, const double *tb, const double *b, size_t nb,
                           double level, double *lag, hy_err *err);

/* ---- impacts (compare_impact.c) ------------------------------------------------------------------------------ */
typedef struct mech_compare_impact {
    double t_start, t_end;   /* the first and last sample with |v| at or above the threshold's episode          */
    double t_peak, peak;     /* the largest |v| of the episode (signed value)                                   */
    double impulse;          /* trapezoid integral of v from the sample before t_start to the one after t_end   */
} mech_compare_impact;
/* (t[n], v[n], threshold > 0) => the episodes of a contact force: one starts where |v| reaches the threshold and
 * ends where |v| falls below half of it (the hysteresis keeps a noisy record from chattering); at most max kept in
 * out, the number found returned */
size_t mech_compare_impacts(const double *t, const double *v, size_t n, double threshold, mech_compare_impact *out,
                            size_t max);

/* ---- the comparison (compare_run.c) -------------------------------------------------------------------------- */
typedef struct mech_compare_result {
    size_t n;                       /* grid samples                                                               */
    double range;                   /* measured max - min on the grid                                             */
    double norm;                    /* the NRMSE's divisor: range (a flat measured channel: 2 max|pred|, else 1)  */
    double nrmse;                   /* RMS(pred - meas) / norm (RMS from hy_replay_metrics_compute)               */
    double rms, bias;               /* RMS and mean of pred - meas                                                */
    double max_abs_err, t_max_abs_err;
    double peak_meas, peak_pred;    /* largest |value| (signed: the value there) of each record's own samples in
                                       the overlap (not the grid's: a coarse grid would miss a spike)             */
    double t_peak_meas, t_peak_pred;/* their times, in the measured record's time                                 */
    double peak_err;                /* |peak_pred| - |peak_meas|                                                  */
    double peak_rel;                /* peak_err / |peak_meas| (NaN when 0)                                        */
    double lag;                     /* this channel's own cross-correlation lag (s) (NaN: flat, or at the limit)  */
    double tol;                     /* NRMSE tolerance (NaN: none)                                                */
    int verdict;                    /* 1 pass (NRMSE and peak within their tolerances), 0 fail, -1 no tolerance  */
    double peak_tol;                /* peak tolerance (NaN: none)                                                 */
} mech_compare_result;

typedef struct mech_compare {
    mech_compare_map map;           /* as given, with each channel's unit resolved                               */
    double lag;                     /* the alignment lag (s): measured(t) ~ run(t - lag)                          */
    double h;                       /* the grid step (s)                                                          */
    size_t n;                       /* grid samples: t[i] = t0 + i h over the overlap                             */
    double t0;
    double *t;                      /* n grid times (measured record's time)                                      */
    double *meas[MECH_COMPARE_MAX_CH];  /* measured channel on the grid, in the run channel's unit, gain applied  */
    double *pred[MECH_COMPARE_MAX_CH];  /* run channel at t - lag                                                 */
    double factor[MECH_COMPARE_MAX_CH]; /* measured value -> run unit: unit factor x scale                        */
    char run_unit[MECH_COMPARE_MAX_CH][MECH_COMPARE_UNIT];  /* the compared unit (a derivative's: "m/s^2")       */
    mech_compare_result res[MECH_COMPARE_MAX_CH];
    double span_run[2], span_meas[2];   /* the records' time spans (s)                                            */
    char run_unit0[MECH_COMPARE_MAX_CH][MECH_COMPARE_UNIT]; /* the run channel's own unit (a residual's run's)     */
} mech_compare;

/* (map, run record, measured record) => *out: units checked (a mismatch names the channel), the lag by the map's
 * method, the common grid over the overlap (the run shifted by the lag; refused when the records do not overlap),
 * both records on it and the per-channel results. The records may be freed afterwards. */
int mech_compare_new(const mech_compare_map *map, const mech_compare_rec *run, const mech_compare_rec *meas,
                     mech_compare **out, hy_err *err);
void mech_compare_free(mech_compare *c);

// (c) => the length of the residual vector: grid samples x channels
size_t mech_compare_nresid(const mech_compare *c);
/* (c, another run record with the mapped run channels in the same units) => r[nresid]: channel k's block holds
 * (run_k(t_i - lag) - meas_k(t_i)) / (range_k sqrt(n)), so that its sum of squares is channel k's NRMSE^2 (a
 * flat measured channel: by res.norm). The grid and lag are c's (fixed: a calibration moves the model,
 * not the sensor's clock). HY_EDATA when the run does not cover the grid or lacks a channel. A channel with a filter
 * goes through the sensor model (mech_compare_sensor_channel) as in mech_compare_new, on a grid it allocates;
 * otherwise it allocates nothing. */
int mech_compare_residual(const mech_compare *c, const mech_compare_rec *run, double *r, hy_err *err);

struct hy_loops;
/* (c, loop index of c->map) => the loop analysis (hy_loops_analyze) of the measured (q, Q) and of the predicted one
 * on the common grid, with the same reversal threshold (the measured record's default: its noise sets it), so their
 * cycles, energies per cycle and secant stiffnesses compare like with like. Free both with hy_loops_free. */
int mech_compare_loops(const mech_compare *c, int l, struct hy_loops *meas, struct hy_loops *pred, hy_err *err);

#endif

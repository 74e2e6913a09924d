/* The pendulum vibration damper of spec 002 §4 (Danilin, Kuznetsova, Rabinsky 2014), the first model of libmech.
 *
 *   disk 1 (driving) turns as phi1 = Phi sin(omega t) (or stays fixed for free decay);
 *   disk 2 (driven, I2) is tied to disk 1 by the hysteretic damping unit: moment M = M(alpha), alpha = phi2 - phi1,
 *          the kinematic ODE of spec 002 (hyst/kin.h) with the direction of dalpha/dt;
 *   disk 3 with the pendulum(s) (I3) is tied to disk 2 by the elastic insert, moment k_t (phi3 - phi2);
 *   gravity acts on each pendulum: - m g e sin(phi3 + offset).
 * Equations of motion (spec 002 eqs. 11-12):
 *   I2 phi2'' = k_t (phi3 - phi2) - M
 *   I3 phi3'' = -k_t (phi3 - phi2) - sum_p m_p g e_p sin(phi3 + offset_p)
 * plus two work integrals: W_unit' = M alpha' (work absorbed by the unit; its running mean A(t) = W_unit / t is the
 * dissipation power of eqs. 15-16) and W_in' = -M phi1' (work put in by the drive). Energy balance:
 *   W_in = E(t) - E(0) + W_unit,   E = kinetic + torsion + gravity energy.
 * Model (parameters and the unit's law) is immutable; the state vector, time, drive and the unit's state are data.
 * Parameter choices the paper lost are documented in docs/pendulum.md. */
#ifndef MECH_PENDULUM_H
#define MECH_PENDULUM_H

#include <stddef.h>
#include "hyst/common.h"
#include "hyst/element.h"
#include "hyst/kin.h"
#include "mech/ode.h"

#define MECH_PEND_MAX_PENDULUMS 4

/* state vector components */
enum { MECH_PEND_PHI2 = 0, MECH_PEND_W2, MECH_PEND_PHI3, MECH_PEND_W3, MECH_PEND_WUNIT, MECH_PEND_WIN, MECH_PEND_DIM };

typedef struct mech_pend_pendulum {
    double m;       /* mass, kg                                                                             */
    double e;       /* eccentricity of its centre of mass from the axis, m                                   */
    double offset;  /* its angle from the downward vertical when phi3 = 0, rad (two pendulums: +-pi/4)     */
} mech_pend_pendulum;

typedef struct mech_pend_params {
    double I2;         /* driven disk 2, kg m^2 (paper: I0 = 0.004)                                         */
    double m2;         /* its mass, kg (paper: m0 = 1.15; turns about its own axis, so not in the equations)  */
    double I3;         /* disk 3 with the pendulum(s) about the axis, kg m^2                                 */
    double k_torsion;  /* GJt/l of the elastic insert between disks 2 and 3, N m/rad                         */
    double g;          /* m/s^2                                                                             */
    int    n_pend;     /* 1..MECH_PEND_MAX_PENDULUMS                                                           */
    mech_pend_pendulum pend[MECH_PEND_MAX_PENDULUMS];
} mech_pend_params;

typedef struct mech_pend_model mech_pend_model;   /* compiled, immutable */

// (two = 0: one pendulum, 1: the two-pendulum design 90 degrees apart) => the documented default parameters
void mech_pend_params_default(mech_pend_params *p, int two);

/* (path of a "mech-pendulum" JSON file) => parameters (defaults for keys not given) and the unit model path
 * (resolved against the file's folder; "" when the file names none). Errors name the file and the key. */
int mech_pend_params_read(const char *path, mech_pend_params *p, char *unit_path, size_t unit_len, hy_err *err);
// (JSON text[len], its path: for messages and the folder a relative unit_model is in) => as mech_pend_params_read
int mech_pend_params_parse(const char *text, size_t len, const char *path, mech_pend_params *p, char *unit_path,
                           size_t unit_len, hy_err *err);

// (params, unit law or NULL for the paper's reduced law of spec 002 eq. 13) => compiled model (the law is not
// copied: it must outlive the model, except the built-in one, which the model owns)
int mech_pend_model_new(const mech_pend_params *p, const hy_kin_model *unit, mech_pend_model **out, hy_err *err);
// (model) => its parameters
const mech_pend_params *mech_pend_model_params(const mech_pend_model *m);
// (model) => the unit's law
const hy_kin_model *mech_pend_model_unit(const mech_pend_model *m);
// (model, state y) => stored energy E: kinetic + torsion spring + gravity (zero at rest at phi3 = 0)
double mech_pend_energy(const mech_pend_model *m, const double y[MECH_PEND_DIM]);
// (m) => memory released
void mech_pend_model_free(mech_pend_model *m);

/* How the equations are integrated. */
typedef struct mech_pend_solver {
    int    fixed;   /* 0: adaptive Dormand-Prince RK5(4); 1: classic RK4 with step h                          */
    double h;       /* fixed step, or the initial step of the adaptive driver, s                              */
    double tol;     /* adaptive: absolute and relative tolerance                                              */
} mech_pend_solver;

// (s) => adaptive, tol = 1e-9, h = 1e-4
void mech_pend_solver_default(mech_pend_solver *s);

typedef struct mech_pend_data {
    const mech_pend_model *model;
    double        Phi, omega;        /* drive phi1 = Phi sin(omega t); Phi = 0 holds disk 1 fixed             */
    double        ramp;              /* soft start: amplitude raised as (1 - cos(pi t / ramp)) / 2 over this
                                        many seconds (0: the paper's abrupt start); set before advancing     */
    double        t;
    double        y[MECH_PEND_DIM];
    double        E0;                /* stored energy at the start                                          */
    hy_kin_state  unit;              /* the damping unit's state (committed at the last accepted step)       */
    hy_element    el;
    hy_diag       diag;              /* last refusal of the unit                                            */
    int           diag_set;
    mech_ode_system sys;
    mech_ode_driver *drv;
} mech_pend_data;

// (model, drive amplitude rad, angular frequency rad/s, solver) => data at rest at t = 0 (all angles zero)
int mech_pend_data_new(const mech_pend_model *m, double Phi, double omega, const mech_pend_solver *s, mech_pend_data **out,
                     hy_err *err);
// (data, phi2, phi2', phi3, phi3', unit moment M0) => state set at t = 0, work integrals zeroed
int mech_pend_data_start(mech_pend_data *d, double phi2, double w2, double phi3, double w3, double M0, hy_err *err);
// (data, t1) => state advanced to t1; errors name the time and the unit's refusal
int mech_pend_advance(mech_pend_data *d, double t1, hy_err *err);
// (d) => memory released
void mech_pend_data_free(mech_pend_data *d);

/* Everything a caller may print about the current state. */
typedef struct mech_pend_obs {
    double t, phi1, phi2, phi3, alpha, alpha_dot, M;
    double W_unit, W_in, E;      /* work absorbed by the unit, work put in, stored energy                  */
    double A;                    /* running mean dissipation power W_unit / t (eq. 15); M alpha' at t = 0   */
} mech_pend_obs;

// (data) => observation at the current (committed) state
void mech_pend_observe(const mech_pend_data *d, mech_pend_obs *o);

/* Steady forced vibration at one frequency (a point of the sweep, spec 002 §4.3). */
typedef struct mech_pend_steady {
    double freq;                 /* Hz                                                                       */
    double P;                    /* steady dissipation power: unit work over the averaging periods / time, W */
    double W_cycle;              /* P / freq: energy per cycle = M-alpha loop area, J                        */
    double A_running;            /* A(t) of eq. 15 at the end (includes the transient from rest)            */
    double alpha_min, alpha_max, phi3_amp, M_max;   /* over the averaging periods                          */
    unsigned long reversals;     /* located over the whole run                                              */
} mech_pend_steady;

// (model, Phi, freq Hz, soft-start periods, settle periods (counted from t = 0), averaging periods, solver)
// => steady result from rest
int mech_pend_steady_run(const mech_pend_model *m, double Phi, double freq, double ramp, int settle, int average,
                       const mech_pend_solver *s, mech_pend_steady *r, hy_err *err);

/* ---- a whole run (pendulum_run.c): the time series of `mech pendulum harmonic|decay|run` and a sweep's run ---- */
enum { MECH_PEND_RUN_HARMONIC = 0, MECH_PEND_RUN_DECAY = 1 };
typedef struct mech_pend_run_opts {
    int    mode;                 /* MECH_PEND_RUN_HARMONIC or _DECAY                                           */
    double amplitude, freq;      /* harmonic: drive amplitude rad, frequency Hz                                */
    int    periods, samples;     /* harmonic: periods, samples per period                                      */
    double ramp;                 /* harmonic: soft start over this many periods (0: the paper's abrupt start)  */
    double angle, duration, dt;  /* decay: release angle rad, duration s, sample interval s                   */
    mech_pend_solver solver;
} mech_pend_run_opts;
// (o) => the documented defaults of `mech pendulum harmonic` (decay's too): 0.3 rad at 0.4 Hz for 10 periods of 400
// samples, no ramp; decay from 0.4 rad for 3 s at 1 ms; the adaptive solver
void mech_pend_run_default(mech_pend_run_opts *o);
/* (options, name for messages) => HY_OK, or HY_EARG naming the key (run.freq, ...) of a value the run refuses: a
 * frequency or duration not > 0, a ramp outside 0..periods, more than 1e8 samples or 1e9 fixed RK4 steps */
int mech_pend_run_check(const mech_pend_run_opts *o, const char *name, hy_err *err);
/* ("mech-pendulum" JSON text[len], its name for messages) => the options of its optional "run" object (the defaults
 * for keys not given; no "run": the defaults): {"mode": "decay"|"harmonic", "amplitude", "freq", "periods",
 * "samples", "ramp", "angle", "duration", "dt", "rk4": step (0: adaptive), "tol"}; errors name the key, checked by
 * mech_pend_run_check */
int mech_pend_run_parse(const char *text, size_t len, const char *name, mech_pend_run_opts *o, hy_err *err);

/* What a damper engineer reads off a run (the metrics of a sweep's pendulum run, docs/sweep.md "Simulators"),
 * summed from the samples as they come */
typedef struct mech_pend_summary {
    long   samples;
    double phi3_max, alpha_max, M_max;   /* largest |phi3| (the pendulum's swing), |alpha|, |M| over the samples  */
    double W_unit, A;                    /* the unit's work and mean dissipation power W_unit / t at the end       */
    int    peaks;                        /* positive peaks of phi3 (a sample above both neighbours)              */
    double peak_first, peak_last;        /* phi3 at the first and the last peak                                  */
    double W_first, W_last;              /* W_unit at them                                                       */
    double W_period0;                    /* harmonic: W_unit one drive period before the end                      */
    double decay;                        /* decay: peak_last / peak_first; NAN for fewer than 2 peaks, or harmonic  */
    double zeta;                         /* decay: equivalent damping ratio from the mean logarithmic decrement
                                            d = ln(peak_first / peak_last) / (peaks - 1): d / sqrt(4 pi^2 + d^2)    */
    double E_cycle;                      /* decay: (W_last - W_first) / (peaks - 1), the unit's work per swing;
                                            harmonic: its work over the last drive period, J                      */
} mech_pend_summary;
typedef int (*mech_pend_sample_fn)(void *ctx, const mech_pend_obs *o, hy_err *err);
/* (model, options, consumer or NULL) => the run from rest (harmonic) or from the release angle (decay): samples at
 * t = 0 and every 1 / (freq samples) s for the periods (harmonic), or every dt to the duration (decay), each given
 * to fn and summed into *sum. A failing step (the unit leaving its valid range) returns its status with the
 * samples before it in *sum. */
int mech_pend_run(const mech_pend_model *m, const mech_pend_run_opts *o, mech_pend_sample_fn fn, void *ctx,
                  mech_pend_summary *sum, hy_err *err);

#endif

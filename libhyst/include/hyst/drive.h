/* Displacement histories for driving hysteresis models (`hyst sim --protocol`, tests, benchmarks).
 *
 * Model/data style: a protocol description (hy_drive_spec, plain data) is validated and its exact number of
 * samples is known in advance (hy_drive_count); the caller allocates t[] and q[] and hy_drive_fill fills them.
 * The generator allocates nothing.
 *
 * The history is a sequence of CYCLES, each starting and ending at the offset q0 = offset:
 *     q0 -> q0 + A -> q0 -> q0 - A -> q0            (four quarters; sine: q = q0 + A sin(2 pi theta))
 * grouped in LEVELS (an amplitude A and a number of cycles at it). Sample 0 is q0 at t = 0 (the record starts at
 * rest); every cycle then adds `points` samples (a multiple of 4, so that the peaks and the zero crossings are
 * sampled exactly), plus the samples of its inner loops.
 *
 * LEAD-IN: with lead_in set and q0 != 0, sample 0 is q = 0 instead and a ramp to q0 comes first (linear for the
 * triangle, a half-cosine for the sine), at the first cycle's sample interval and speed: max(1, round(|q0|/A1 *
 * points/4)) samples, the last exactly q0. A model at rest at q = 0 then sees no jump.
 *
 * PARTIAL INNER LOOPS: in a cycle chosen for them, on each outgoing quarter (q0 -> q0 +- A) the motion reverses at
 * |q - q0| = at*A, travels back by back*A, reverses again and continues to the peak. Every reversal sample holds
 * exactly q0 +- A*at and q0 +- A*(at - back), every peak exactly q0 +- A. Triangle excursions run at the cycle's
 * own rate; sine excursions are one half-cosine down and one up. An excursion of back*A takes round(back*points/4)
 * samples each way (at least 1).
 *
 * TIME: every sample of a cycle advances t by T/points, where T is `period`, or, when rate > 0, the time a cycle
 * of amplitude A takes at peak rate `rate` (4A/rate for the triangle, 2 pi A/rate for the sine). Time increases
 * strictly. */
#ifndef HYST_DRIVE_H
#define HYST_DRIVE_H

#include <stddef.h>
#include "hyst/common.h"

typedef enum hy_drive_wave {
    HY_DRIVE_SINE = 0,     /* q = q0 + A sin(2 pi theta)                                       */
    HY_DRIVE_TRIANGLE = 1  /* constant |dq/dt| between the peaks                                */
} hy_drive_wave;

/* One partial inner loop: reverse at |q - q0| = at*A (0 < at < 1), go back by back*A (back > 0, at - back >= -1). */
typedef struct hy_drive_inner {
    double at, back;
} hy_drive_inner;

typedef struct hy_drive_spec {
    hy_drive_wave         wave;
    size_t                n_levels;
    const double         *amplitude;      /* [n_levels] amplitudes A > 0                                       */
    const int            *cycles;         /* [n_levels] cycles at each amplitude, >= 1                          */
    size_t                points;         /* samples per plain cycle: a multiple of 4, >= 4                    */
    double                offset;         /* q0, the centre of every cycle                                     */
    double                period;         /* time per plain cycle (> 0), used when rate == 0                  */
    double                rate;           /* > 0: peak |dq/dt| sets each cycle's duration instead of period    */
    size_t                n_inner;        /* inner loops per outgoing quarter (0: none)                        */
    const hy_drive_inner *inner;          /* [n_inner], `at` strictly increasing                               */
    size_t                n_inner_cycles; /* 0: inner loops in every cycle; else only in the cycles listed     */
    const size_t         *inner_cycles;   /* [n_inner_cycles] 1-based cycle numbers over the whole history     */
    int                   lead_in;        /* 1: start at q = 0 and ramp to the offset first (see above)        */
} hy_drive_spec;

/* Increasing-amplitude test protocols, expanded into levels by hy_drive_preset_levels. */
typedef enum hy_drive_preset {
    HY_DRIVE_STEPS = 0,    /* amplitudes max*i/steps, i = 1..steps, `cycles` cycles each                          */
    HY_DRIVE_ISO16670 = 1, /* ISO 16670-style: 1 cycle at 1.25, 2.5, 5, 7.5, 10 % of max, then 3 cycles at 20, 40,
                              60, 80, 100 % (the standard's ultimate displacement v_u is `max`; the standard goes on
                              in 20 % steps until failure, which a model test has no use for)                       */
    HY_DRIVE_ATC24 = 2     /* ATC-24-style with yield displacement dy: 3 cycles at dy/3 and 3 at 2dy/3 (the six
                              elastic cycles), 3 cycles each at dy, 2dy, 3dy, then 2 cycles each at 4dy, 5dy, ...;
                              every level up to and including max                                                  */
} hy_drive_preset;

// (spec) => defaults: sine, no levels, 200 points per cycle, offset 0, period 1, no inner loops, no lead-in
void hy_drive_spec_default(hy_drive_spec *s);

// (spec) => *n = exact number of samples (1 + every cycle's samples); HY_EARG naming the bad field
int hy_drive_count(const hy_drive_spec *s, size_t *n, hy_err *err);

// (spec) => *n = number of cycles over all levels (0 when the spec has no levels)
size_t hy_drive_cycles_total(const hy_drive_spec *s);

// (spec, t[n] or NULL, q[n], n from hy_drive_count) => history filled; HY_EARG when n does not match
int hy_drive_fill(const hy_drive_spec *s, double *t, double *q, size_t n, hy_err *err);

// (preset, max, steps and cycles (STEPS), dy (ATC24)) => *n levels; the first min(*n, cap) written to amp, cyc
int hy_drive_preset_levels(hy_drive_preset p, double max, int steps, int cycles, double dy, double *amp, int *cyc,
                           size_t cap, size_t *n, hy_err *err);

/* A protocol given as option text, as `hyst sim --protocol NAME --amplitudes ...` takes it (NULL: not given).
 * Parsing it is a library call (no printing, no exit) so that the command and the fuzz harness share it. */
typedef struct hy_drive_args {
    const char *protocol;      /* sine | triangle | steps | iso16670 | atc24                                    */
    const char *amplitudes;    /* "A1,A2,..." (sine, triangle)                                                 */
    const char *cycles;        /* "N" or "N1,N2,..." (one per amplitude; steps: one number)                    */
    const char *max, *steps, *yield, *wave;   /* presets: largest amplitude, levels (steps), dy (atc24), shape */
    const char *points, *offset, *period, *rate;
    const char *inner;         /* "AT:BACK,AT:BACK,..."                                                        */
    const char *inner_cycles;  /* "C1,C2,..." 1-based cycle numbers                                            */
} hy_drive_args;

/* A parsed protocol: the spec and the arrays it points into (owned). */
typedef struct hy_drive_protocol {
    hy_drive_spec   spec;
    double         *amplitude;
    int            *cycles;
    hy_drive_inner *inner;
    size_t         *inner_cycles;
} hy_drive_protocol;

// (option text) => protocol with lead-in (the model starts at rest at q = 0); HY_EARG with a message naming the
// option ("--cycles: item 2 of '3,x' is not a whole number >= 1"), HY_ENOMEM; on error p holds nothing
int hy_drive_parse(const hy_drive_args *a, hy_drive_protocol *p, hy_err *err);

// (p) => memory released, p empty
void hy_drive_protocol_free(hy_drive_protocol *p);

#endif

// Displacement histories: cycles of sine or triangle shape with partial inner loops (see hyst/drive.h).
//
// One walker produces the samples into hy_drive_fill's arrays; hy_drive_count gives their number in closed form
// (drive_size), and hy_drive_fill checks that the walker produced exactly that many, so the two cannot disagree.
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "hyst/drive.h"

/* More samples than this is a mistake in the protocol (8 TB of doubles), not a test record. */
#define MAX_SAMPLES ((size_t)1 << 40)

static size_t excursion_samples(const hy_drive_spec *s, size_t i);
static size_t lead_in_samples(const hy_drive_spec *s);

// (spec) => how many cycles carry the inner loops (a cycle listed twice counts once, as in has_inner)
static size_t inner_cycle_count(const hy_drive_spec *s, size_t total)
{
    if (s->n_inner == 0)
        return 0;
    if (s->n_inner_cycles == 0)
        return total;
    size_t k = 0;
    for (size_t i = 0; i < s->n_inner_cycles; i++) {
        size_t j = 0;
        while (j < i && s->inner_cycles[j] != s->inner_cycles[i])
            j++;
        k += j == i;
    }
    return k;
}

/* (validated spec) => the number of samples walk() produces, in floating point (cannot wrap): sample 0, the
 * lead-in ramp, and per cycle its `points` samples (each quarter has points/4: the legs of an outgoing quarter
 * add up to it) plus, in a cycle with inner loops, both legs of every excursion on both sides. */
static double drive_size(const hy_drive_spec *s)
{
    size_t total = hy_drive_cycles_total(s);
    double per_inner = 0.0;
    for (size_t i = 0; i < s->n_inner; i++)
        per_inner += 4.0 * (double)excursion_samples(s, i);
    return 1.0 + (double)lead_in_samples(s) + (double)total * (double)s->points +
           (double)inner_cycle_count(s, total) * per_inner;
}

typedef struct walker {
    double *t, *q;    /* outputs, NULL while counting                     */
    size_t  n, cap;   /* samples produced, array length                   */
    double  t0, dt;   /* start time of the current cycle, time per sample */
    size_t  k;        /* samples so far in the current cycle              */
} walker;

// (walker, q) => one sample appended at the cycle's next time
static void put(walker *w, double q)
{
    w->k++;
    if (w->q && w->n < w->cap) {
        w->q[w->n] = q;
        if (w->t)
            w->t[w->n] = w->t0 + (double)w->k * w->dt;
    }
    w->n++;
}

static size_t round_pos(double x)
{
    return (size_t)floor(x + 0.5);
}

// (wave, phase phi in [0, 1]) => shape of an outgoing quarter, 0 at phi = 0, 1 at phi = 1
static double shape(hy_drive_wave wave, double phi)
{
    return wave == HY_DRIVE_SINE ? sin(0.5 * M_PI * phi) : phi;
}

// (wave, fraction of the amplitude) => the phase of an outgoing quarter at which the shape reaches it
static double phase_of(hy_drive_wave wave, double frac)
{
    return wave == HY_DRIVE_SINE ? asin(frac) / (0.5 * M_PI) : frac;
}

// (spec) => samples each way of the excursion of inner loop i
static size_t excursion_samples(const hy_drive_spec *s, size_t i)
{
    size_t nh = round_pos(s->inner[i].back * (double)(s->points / 4));
    return nh < 1 ? 1 : nh;
}

// (walker, wave, from, to, samples) => leg of an inner-loop excursion: linear (triangle) or half-cosine (sine);
// the last sample is exactly `to`
static void excursion_leg(walker *w, hy_drive_wave wave, double from, double to, size_t nh)
{
    for (size_t k = 1; k < nh; k++) {
        double f = (double)k / (double)nh;
        if (wave == HY_DRIVE_SINE)
            f = 0.5 * (1.0 - cos(M_PI * f));
        put(w, from + (to - from) * f);
    }
    put(w, to);
}

// (walker, spec, amplitude, side +1/-1, with inner loops?) => outgoing quarter q0 -> q0 + side*A
static void outgoing(walker *w, const hy_drive_spec *s, double A, double side, int inner)
{
    const size_t p4 = s->points / 4, m = inner ? s->n_inner : 0;
    const double q0 = s->offset;
    size_t b_prev = 0;
    double phi_prev = 0.0;
    for (size_t i = 0; i <= m; i++) {
        /* Leg i of the base wave ends at the reversal of inner loop i, or at the peak after the last one. Each leg
         * keeps at least one sample and leaves one for every leg after it. */
        double phi_end = i < m ? phase_of(s->wave, s->inner[i].at) : 1.0;
        size_t b = i < m ? round_pos(phi_end * (double)p4) : p4;
        if (i < m) {
            if (b < b_prev + 1)
                b = b_prev + 1;
            if (b > p4 - (m - i))
                b = p4 - (m - i);
        }
        double end = i < m ? q0 + side * (A * s->inner[i].at) : q0 + side * A;
        for (size_t j = b_prev + 1; j < b; j++) {
            double phi = phi_prev + (phi_end - phi_prev) * (double)(j - b_prev) / (double)(b - b_prev);
            put(w, q0 + side * A * shape(s->wave, phi));
        }
        put(w, end);
        if (i < m) {
            double lo = q0 + side * (A * (s->inner[i].at - s->inner[i].back));
            size_t nh = excursion_samples(s, i);
            excursion_leg(w, s->wave, end, lo, nh);
            excursion_leg(w, s->wave, lo, end, nh);
        }
        b_prev = b;
        phi_prev = phi_end;
    }
}

// (walker, spec, amplitude, side) => returning quarter q0 + side*A -> q0, mirror image of the plain outgoing one
static void returning(walker *w, const hy_drive_spec *s, double A, double side)
{
    const size_t p4 = s->points / 4;
    for (size_t j = 1; j < p4; j++)
        put(w, s->offset + side * A * shape(s->wave, (double)(p4 - j) / (double)p4));
    put(w, s->offset);
}

// (spec, 1-based cycle number) => 1 when that cycle carries the inner loops
static int has_inner(const hy_drive_spec *s, size_t cycle)
{
    if (s->n_inner == 0)
        return 0;
    if (s->n_inner_cycles == 0)
        return 1;
    for (size_t i = 0; i < s->n_inner_cycles; i++)
        if (s->inner_cycles[i] == cycle)
            return 1;
    return 0;
}

// (spec, amplitude) => duration of one plain cycle
static double cycle_period(const hy_drive_spec *s, double A)
{
    if (s->rate > 0.0)
        return (s->wave == HY_DRIVE_SINE ? 2.0 * M_PI * A : 4.0 * A) / s->rate;
    return s->period;
}

// (spec) => samples of the lead-in ramp from 0 to the offset (0 when there is none)
static size_t lead_in_samples(const hy_drive_spec *s)
{
    if (!s->lead_in || s->offset == 0.0)
        return 0;
    size_t n = round_pos(fabs(s->offset) / s->amplitude[0] * (double)(s->points / 4));
    return n < 1 ? 1 : n;
}

// (walker, spec) => whole history (sample 0 at rest, then every cycle)
static void walk(walker *w, const hy_drive_spec *s)
{
    w->t0 = 0.0;
    w->dt = 0.0;
    w->k = (size_t)-1; /* sample 0 sits at k = 0, t = 0 */
    size_t nl = lead_in_samples(s);
    put(w, nl ? 0.0 : s->offset);
    if (nl) {
        w->dt = cycle_period(s, s->amplitude[0]) / (double)s->points;
        excursion_leg(w, s->wave, 0.0, s->offset, nl);
    }
    size_t cycle = 0;
    for (size_t l = 0; l < s->n_levels; l++) {
        const double A = s->amplitude[l];
        for (int c = 0; c < s->cycles[l]; c++) {
            cycle++;
            w->t0 = w->t ? (w->n > 0 && w->n - 1 < w->cap ? w->t[w->n - 1] : 0.0) : 0.0;
            w->dt = cycle_period(s, A) / (double)s->points;
            w->k = 0;
            int inner = has_inner(s, cycle);
            outgoing(w, s, A, +1.0, inner);
            returning(w, s, A, +1.0);
            outgoing(w, s, A, -1.0, inner);
            returning(w, s, A, -1.0);
        }
    }
}

// (spec) => defaults
void hy_drive_spec_default(hy_drive_spec *s)
{
    memset(s, 0, sizeof *s);
    s->wave = HY_DRIVE_SINE;
    s->points = 200;
    s->period = 1.0;
}

// (spec) => total number of cycles
size_t hy_drive_cycles_total(const hy_drive_spec *s)
{
    size_t n = 0;
    for (size_t l = 0; l < s->n_levels; l++)
        n += s->cycles && s->cycles[l] > 0 ? (size_t)s->cycles[l] : 0;
    return n;
}

// (spec) => HY_OK or HY_EARG naming the first bad field
static int validate(const hy_drive_spec *s, hy_err *err)
{
    if (s->wave != HY_DRIVE_SINE && s->wave != HY_DRIVE_TRIANGLE)
        return hy_err_set(err, HY_EARG, "drive: unknown wave shape %d", (int)s->wave);
    if (s->n_levels == 0 || !s->amplitude || !s->cycles)
        return hy_err_set(err, HY_EARG, "drive: no amplitude levels given");
    for (size_t l = 0; l < s->n_levels; l++) {
        if (!isfinite(s->amplitude[l]) || !(s->amplitude[l] > 0.0))
            return hy_err_set(err, HY_EARG, "drive: amplitude %zu is %g; amplitudes must be finite and > 0", l + 1,
                              s->amplitude[l]);
        if (s->cycles[l] < 1)
            return hy_err_set(err, HY_EARG, "drive: level %zu has %d cycles; each level needs at least 1", l + 1,
                              s->cycles[l]);
    }
    if (s->points < 4 || s->points % 4 != 0)
        return hy_err_set(err, HY_EARG,
                          "drive: %zu points per cycle; need a multiple of 4 (>= 4) so that the peaks are sampled",
                          s->points);
    if (!isfinite(s->offset))
        return hy_err_set(err, HY_EARG, "drive: the offset must be finite");
    if (!isfinite(s->rate) || s->rate < 0.0)
        return hy_err_set(err, HY_EARG, "drive: the rate must be finite and > 0 (or 0 to use the period)");
    if (s->rate == 0.0 && (!isfinite(s->period) || !(s->period > 0.0)))
        return hy_err_set(err, HY_EARG, "drive: the period must be finite and > 0");
    if (s->n_inner > 0 && !s->inner)
        return hy_err_set(err, HY_EARG, "drive: inner loops announced but not given");
    for (size_t i = 0; i < s->n_inner; i++) {
        const hy_drive_inner *in = &s->inner[i];
        if (!isfinite(in->at) || !(in->at > 0.0 && in->at < 1.0))
            return hy_err_set(err, HY_EARG, "drive: inner loop %zu: reversal at %g of the amplitude; need 0 < at < 1",
                              i + 1, in->at);
        if (!isfinite(in->back) || !(in->back > 0.0) || in->at - in->back < -1.0)
            return hy_err_set(err, HY_EARG,
                              "drive: inner loop %zu: going back by %g of the amplitude; need back > 0 and "
                              "at - back >= -1 (not beyond the opposite peak)",
                              i + 1, in->back);
        if (i > 0 && !(in->at > s->inner[i - 1].at))
            return hy_err_set(err, HY_EARG, "drive: inner loop %zu: reversal points must grow (%g after %g)", i + 1,
                              in->at, s->inner[i - 1].at);
    }
    if (s->n_inner > 0 && s->points / 4 < s->n_inner + 1)
        return hy_err_set(err, HY_EARG, "drive: %zu inner loops need at least %zu points per cycle", s->n_inner,
                          4 * (s->n_inner + 1));
    size_t total = hy_drive_cycles_total(s);
    if (s->n_inner_cycles > 0 && !s->inner_cycles)
        return hy_err_set(err, HY_EARG, "drive: inner-loop cycles announced but not given");
    for (size_t i = 0; i < s->n_inner_cycles; i++)
        if (s->inner_cycles[i] < 1 || s->inner_cycles[i] > total)
            return hy_err_set(err, HY_EARG, "drive: inner loops asked in cycle %zu, but the history has cycles 1 to %zu",
                              s->inner_cycles[i], total);
    if (s->lead_in && !(fabs(s->offset) / s->amplitude[0] * (double)(s->points / 4) < (double)MAX_SAMPLES))
        return hy_err_set(err, HY_EARG, "drive: the lead-in to the offset %g would be too long", s->offset);
    double n = drive_size(s);
    if (n > (double)MAX_SAMPLES)
        return hy_err_set(err, HY_EARG,
                          "drive: the protocol asks for %.0f samples, more than the limit of %zu (2^40) samples a "
                          "history may have",
                          n, MAX_SAMPLES);
    return HY_OK;
}

// (spec) => exact sample count, in closed form (a billion cycles cost no more than one)
int hy_drive_count(const hy_drive_spec *s, size_t *n, hy_err *err)
{
    *n = 0;
    int rc = validate(s, err);
    if (rc != HY_OK)
        return rc;
    *n = (size_t)drive_size(s); /* exact: an integer below 2^40 < 2^53 */
    return HY_OK;
}

// (spec, arrays of n) => history
int hy_drive_fill(const hy_drive_spec *s, double *t, double *q, size_t n, hy_err *err)
{
    size_t want;
    int rc = hy_drive_count(s, &want, err);
    if (rc != HY_OK)
        return rc;
    if (!q || n != want)
        return hy_err_set(err, HY_EARG, "drive: arrays of %zu samples given for a history of %zu", n, want);
    walker w = {.t = t, .q = q, .cap = n};
    walk(&w, s);
    if (w.n != n) /* the closed form and the walker disagree: a defect, never silently a short history */
        return hy_err_set(err, HY_EARG, "drive: internal error: %zu samples produced for a count of %zu", w.n, n);
    if (t) {
        t[0] = 0.0;
        for (size_t i = 1; i < n; i++)
            if (!(t[i] > t[i - 1]))
                return hy_err_set(err, HY_EARG,
                                  "drive: time step too small to be represented at sample %zu (t = %g)", i, t[i]);
    }
    return HY_OK;
}

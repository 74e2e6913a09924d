/* Fuzz harness: the protocol options of `hyst sim` (hy_drive_parse in libhyst/src/drive_parse.c, then
 * hy_drive_count and hy_drive_fill of drive.c).
 * Input: lines "key=value" with key one of protocol, amplitudes, cycles, max, steps, yield, wave, points, offset,
 * period, rate, inner, inner-cycles (anything else is ignored; an option repeated takes its last value).
 * Invariants: the status is a known code; an error has a one-line message naming the option ("--cycles: ...") or
 * the protocol; a protocol parsed either has a count or a one-line refusal; a history of up to 10^5 samples is
 * filled (or refused for times that cannot increase in floating point) with finite q, strictly increasing finite t starting at 0, q[0] = 0 (the record starts at rest), and
 * every |q - offset| within the largest amplitude (ramp samples lie between 0 and the offset). */
#include <math.h>
#include "fuzz_util.h"
#include "hyst/drive.h"

#define MAX_FILL 100000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *text = malloc(size + 1);
    FUZZ_CHECK(text != NULL, "out of memory");
    memcpy(text, data, size);
    text[size] = '\0';
    hy_drive_args a;
    memset(&a, 0, sizeof a);
    static const char *const keys[] = {"protocol", "amplitudes", "cycles", "max", "steps", "yield", "wave",
                                       "points", "offset", "period", "rate", "inner", "inner-cycles", NULL};
    const char **slot[] = {&a.protocol, &a.amplitudes, &a.cycles, &a.max, &a.steps, &a.yield, &a.wave,
                           &a.points, &a.offset, &a.period, &a.rate, &a.inner, &a.inner_cycles};
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *eq = strchr(line, '=');
        if (!eq)
            continue;
        *eq = '\0';
        for (int k = 0; keys[k]; k++)
            if (strcmp(line, keys[k]) == 0)
                *slot[k] = eq + 1;
    }

    hy_drive_protocol p;
    hy_err err;
    fuzz_err_poison(&err);
    int rc = hy_drive_parse(&a, &p, &err);
    FUZZ_CHECK(rc >= HY_OK && rc <= HY_ENOMEM, "unknown status %d", rc);
    if (rc != HY_OK) {
        fuzz_check_message(&err);
        FUZZ_CHECK(strncmp(err.msg, "--", 2) == 0 || strncmp(err.msg, "protocol", 8) == 0 ||
                   strncmp(err.msg, "give ", 5) == 0, "message names no option: %s", err.msg);
        FUZZ_CHECK(!p.amplitude && !p.cycles && !p.inner && !p.inner_cycles, "error but arrays kept");
        free(text);
        return 0;
    }
    const hy_drive_spec *s = &p.spec;
    /* Counting walks every sample: skip histories far beyond what the fill below would take. */
    double amax = 0.0, est = 1.0;
    size_t total = hy_drive_cycles_total(s);
    for (size_t l = 0; l < s->n_levels; l++)
        amax = fmax(amax, s->amplitude[l]);
    est += (double)total * (double)s->points * (1.0 + 2.0 * (double)s->n_inner);
    if (s->n_levels && s->amplitude[0] > 0)
        est += fabs(s->offset) / s->amplitude[0] * (double)s->points;
    size_t n = 0;
    if (est < 4.0 * MAX_FILL && (rc = hy_drive_count(s, &n, &err)) != HY_OK)
        fuzz_check_message(&err);
    if (est < 4.0 * MAX_FILL && rc == HY_OK && n <= MAX_FILL) {
        FUZZ_CHECK(n >= 1 + 4 * total, "%zu samples for %zu cycles", n, total);
        double *t = malloc(n * sizeof *t), *q = malloc(n * sizeof *q);
        FUZZ_CHECK(t && q, "out of memory");
        rc = hy_drive_fill(s, t, q, n, &err);
        /* the fill also refuses times that do not increase in floating point (t huge against its step) */
        FUZZ_CHECK(rc == HY_OK || (rc == HY_EARG && strstr(err.msg, "time")), "counted but not filled: %s", err.msg);
        if (rc != HY_OK) {
            fuzz_check_message(&err);
            n = 0;
        }
        FUZZ_CHECK(n == 0 || (q[0] == 0.0 && t[0] == 0.0), "starts at q = %g, t = %g", q[0], t[0]);
        double slack = 1e-9 * (amax + fabs(s->offset));
        for (size_t i = 0; i < n; i++) {
            FUZZ_CHECK(isfinite(q[i]) && isfinite(t[i]), "sample %zu not finite", i);
            FUZZ_CHECK(i == 0 || t[i] > t[i - 1], "time does not increase at %zu", i);
            FUZZ_CHECK(fabs(q[i] - s->offset) <= amax + slack || (fmin(0.0, s->offset) - slack <= q[i] &&
                       q[i] <= fmax(0.0, s->offset) + slack), "q[%zu] = %g beyond amplitude %g around %g", i, q[i],
                       amax, s->offset);
        }
        free(t);
        free(q);
    }
    hy_drive_protocol_free(&p);
    free(text);
    return 0;
}

// Protocol options as text => hy_drive_spec (see hyst/drive.h): what `hyst sim --protocol` accepts, as a library
// call that prints nothing, so that the command and the fuzz harness (fuzz/fuzz_protocol.c) run the same code.
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/drive.h"

/* Counts above this are typing mistakes, and they still fit an int. */
#define MAX_COUNT 1000000000L

// (text) => number of comma-separated items
static size_t count_items(const char *text)
{
    size_t n = 1;
    for (const char *p = text; *p; p++)
        n += *p == ',';
    return n;
}

// (option, text) => finite double, whole string
static int parse_double(const char *opt, const char *text, double *out, hy_err *err)
{
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v))
        return hy_err_set(err, HY_EARG, "--%s: expected a finite number, got '%s'", opt, text);
    *out = v;
    return HY_OK;
}

// (text "a,b,c") => n finite doubles
static int parse_doubles(const char *opt, const char *text, double *out, size_t n, hy_err *err)
{
    const char *p = text;
    for (size_t i = 0; i < n; i++) {
        char *end;
        errno = 0;
        double v = strtod(p, &end);
        if (end == p || (*end != ',' && *end != '\0') || !isfinite(v) || errno == ERANGE)
            return hy_err_set(err, HY_EARG, "--%s: item %zu of '%s' is not a finite number", opt, i + 1, text);
        out[i] = v;
        p = end + (*end == ',');
    }
    return HY_OK;
}

// (text) => whole number in [lo, MAX_COUNT], whole string
static int parse_long(const char *opt, const char *text, long lo, long *out, hy_err *err)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || v < lo || v > MAX_COUNT)
        return hy_err_set(err, HY_EARG, "--%s: expected a whole number >= %ld, got '%s'", opt, lo, text);
    *out = v;
    return HY_OK;
}

// (text "n1,n2") => n whole numbers in [1, MAX_COUNT]
static int parse_counts(const char *opt, const char *text, long *out, size_t n, hy_err *err)
{
    const char *p = text;
    for (size_t i = 0; i < n; i++) {
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (end == p || (*end != ',' && *end != '\0') || errno == ERANGE || v < 1 || v > MAX_COUNT)
            return hy_err_set(err, HY_EARG, "--%s: item %zu of '%s' is not a whole number >= 1", opt, i + 1, text);
        out[i] = v;
        p = end + (*end == ',');
    }
    return HY_OK;
}

// (text "AT:BACK,AT:BACK") => n inner loops
static int parse_inner(const char *text, hy_drive_inner *out, size_t n, hy_err *err)
{
    const char *p = text;
    for (size_t i = 0; i < n; i++) {
        char *end, *end2 = NULL;
        double at = strtod(p, &end);
        double back = end != p && *end == ':' ? strtod(end + 1, &end2) : NAN;
        if (end == p || *end != ':' || end2 == end + 1 || (*end2 != ',' && *end2 != '\0') || !isfinite(at) ||
            !isfinite(back))
            return hy_err_set(err, HY_EARG, "--inner: item %zu of '%s': expected AT:BACK, e.g. 0.5:0.3 (reverse at "
                              "0.5 A, go back by 0.3 A)", i + 1, text);
        out[i].at = at;
        out[i].back = back;
        p = end2 + (*end2 == ',');
    }
    return HY_OK;
}

// (p) => memory released, p empty
void hy_drive_protocol_free(hy_drive_protocol *p)
{
    free(p->amplitude);
    free(p->cycles);
    free(p->inner);
    free(p->inner_cycles);
    memset(p, 0, sizeof *p);
    hy_drive_spec_default(&p->spec);
}

static int nomem(hy_err *err)
{
    return hy_err_set(err, HY_ENOMEM, "protocol: out of memory");
}

// (sine | triangle with --amplitudes, --cycles) => levels in p
static int explicit_levels(const hy_drive_args *a, hy_drive_protocol *p, hy_err *err)
{
    const char *name = a->protocol;
    /* Options that do not belong to the protocol chosen are refused rather than silently ignored. */
    const char *stray = a->max ? "max" : a->steps ? "steps" : a->yield ? "yield" : a->wave ? "wave" : NULL;
    if (stray)
        return hy_err_set(err, HY_EARG, "--%s does not apply to --protocol %s (its shape and levels are given by the "
                          "protocol name and --amplitudes)", stray, name);
    if (!a->amplitudes)
        return hy_err_set(err, HY_EARG, "--protocol %s needs --amplitudes A1,A2,...", name);
    p->spec.wave = strcmp(name, "sine") == 0 ? HY_DRIVE_SINE : HY_DRIVE_TRIANGLE;
    size_t n = count_items(a->amplitudes);
    p->amplitude = calloc(n, sizeof *p->amplitude);
    p->cycles = calloc(n, sizeof *p->cycles);
    long *tmp = calloc(n, sizeof *tmp);
    int rc = HY_OK;
    if (!p->amplitude || !p->cycles || !tmp)
        rc = nomem(err);
    if (rc == HY_OK)
        rc = parse_doubles("amplitudes", a->amplitudes, p->amplitude, n, err);
    for (size_t i = 0; rc == HY_OK && i < n; i++)
        tmp[i] = 1;
    if (rc == HY_OK && a->cycles) {
        size_t nc = count_items(a->cycles);
        if (nc != 1 && nc != n)
            rc = hy_err_set(err, HY_EARG, "--cycles: %zu values for %zu amplitudes (give one for all, or one per "
                            "amplitude)", nc, n);
        if (rc == HY_OK)
            rc = parse_counts("cycles", a->cycles, tmp, nc, err);
        for (size_t i = nc; rc == HY_OK && i < n; i++)
            tmp[i] = tmp[0];
    }
    for (size_t i = 0; rc == HY_OK && i < n; i++)
        p->cycles[i] = (int)tmp[i];
    free(tmp);
    p->spec.n_levels = n;
    return rc;
}

// (steps | iso16670 | atc24 with --max, --steps, --cycles, --yield, --wave) => levels in p
static int preset_levels(const hy_drive_args *a, hy_drive_preset preset, hy_drive_protocol *p, hy_err *err)
{
    const char *name = a->protocol;
    const char *stray = a->amplitudes ? "amplitudes" : NULL;
    if (!stray && preset != HY_DRIVE_STEPS)
        stray = a->steps ? "steps" : a->cycles ? "cycles" : NULL;
    if (!stray && preset != HY_DRIVE_ATC24)
        stray = a->yield ? "yield" : NULL;
    if (stray)
        return hy_err_set(err, HY_EARG, "--%s does not apply to --protocol %s", stray, name);
    if (!a->max)
        return hy_err_set(err, HY_EARG, "--protocol %s needs --max A (the largest amplitude)", name);
    if (preset == HY_DRIVE_STEPS && !a->steps)
        return hy_err_set(err, HY_EARG, "--protocol steps needs --steps K (the number of amplitude levels)");
    if (preset == HY_DRIVE_ATC24 && !a->yield)
        return hy_err_set(err, HY_EARG, "--protocol atc24 needs --yield DY (the yield displacement)");
    double max = 0, dy = 0;
    long steps = 1, cycles = 3;
    int rc = parse_double("max", a->max, &max, err);
    if (rc == HY_OK && a->yield)
        rc = parse_double("yield", a->yield, &dy, err);
    if (rc == HY_OK && a->steps)
        rc = parse_long("steps", a->steps, 1, &steps, err);
    if (rc == HY_OK && a->cycles)
        rc = parse_long("cycles", a->cycles, 1, &cycles, err);
    if (rc != HY_OK)
        return rc;
    p->spec.wave = HY_DRIVE_TRIANGLE;
    if (a->wave) {
        if (strcmp(a->wave, "sine") == 0)
            p->spec.wave = HY_DRIVE_SINE;
        else if (strcmp(a->wave, "triangle") != 0)
            return hy_err_set(err, HY_EARG, "--wave: expected sine or triangle, got '%s'", a->wave);
    }
    size_t n = 0;
    rc = hy_drive_preset_levels(preset, max, (int)steps, (int)cycles, dy, NULL, NULL, 0, &n, err);
    if (rc != HY_OK)
        return rc;
    p->amplitude = calloc(n ? n : 1, sizeof *p->amplitude);
    p->cycles = calloc(n ? n : 1, sizeof *p->cycles);
    if (!p->amplitude || !p->cycles)
        return nomem(err);
    hy_drive_preset_levels(preset, max, (int)steps, (int)cycles, dy, p->amplitude, p->cycles, n, &n, NULL);
    p->spec.n_levels = n;
    return HY_OK;
}

// (option text) => protocol
int hy_drive_parse(const hy_drive_args *a, hy_drive_protocol *p, hy_err *err)
{
    memset(p, 0, sizeof *p);
    hy_drive_spec_default(&p->spec);
    hy_err_clear(err);
    if (!a->protocol)
        return hy_err_set(err, HY_EARG, "--protocol: no protocol given (expected sine, triangle, steps, iso16670 or "
                          "atc24)");
    const char *name = a->protocol;
    int rc;
    if (strcmp(name, "sine") == 0 || strcmp(name, "triangle") == 0)
        rc = explicit_levels(a, p, err);
    else if (strcmp(name, "steps") == 0)
        rc = preset_levels(a, HY_DRIVE_STEPS, p, err);
    else if (strcmp(name, "iso16670") == 0)
        rc = preset_levels(a, HY_DRIVE_ISO16670, p, err);
    else if (strcmp(name, "atc24") == 0)
        rc = preset_levels(a, HY_DRIVE_ATC24, p, err);
    else
        rc = hy_err_set(err, HY_EARG, "--protocol: unknown protocol '%s' (expected sine, triangle, steps, iso16670 "
                        "or atc24)", name);
    hy_drive_spec *s = &p->spec;
    s->amplitude = p->amplitude;
    s->cycles = p->cycles;
    s->lead_in = 1; /* the model is at rest at q = 0: reach an offset by a ramp, not a jump */
    long points = 200;
    if (rc == HY_OK && a->points)
        rc = parse_long("points", a->points, 4, &points, err);
    s->points = (size_t)points;
    if (rc == HY_OK && a->offset)
        rc = parse_double("offset", a->offset, &s->offset, err);
    if (rc == HY_OK && a->period)
        rc = parse_double("period", a->period, &s->period, err);
    if (rc == HY_OK && a->rate)
        rc = parse_double("rate", a->rate, &s->rate, err);
    if (rc == HY_OK && a->period && a->rate)
        rc = hy_err_set(err, HY_EARG, "give --period or --rate, not both");
    if (rc == HY_OK && a->rate && !(s->rate > 0.0))
        rc = hy_err_set(err, HY_EARG, "--rate: expected a rate > 0, got '%s'", a->rate);
    if (rc == HY_OK && a->inner) {
        size_t n = count_items(a->inner);
        p->inner = calloc(n, sizeof *p->inner);
        rc = p->inner ? parse_inner(a->inner, p->inner, n, err) : nomem(err);
        s->n_inner = n;
        s->inner = p->inner;
    }
    if (rc == HY_OK && a->inner_cycles) {
        if (!a->inner) {
            rc = hy_err_set(err, HY_EARG, "--inner-cycles needs --inner");
        } else {
            size_t n = count_items(a->inner_cycles);
            p->inner_cycles = calloc(n, sizeof *p->inner_cycles);
            long *ic = calloc(n, sizeof *ic);
            rc = p->inner_cycles && ic ? parse_counts("inner-cycles", a->inner_cycles, ic, n, err) : nomem(err);
            for (size_t i = 0; rc == HY_OK && i < n; i++)
                p->inner_cycles[i] = (size_t)ic[i];
            free(ic);
            s->n_inner_cycles = n;
            s->inner_cycles = p->inner_cycles;
        }
    }
    if (rc != HY_OK)
        hy_drive_protocol_free(p);
    return rc;
}

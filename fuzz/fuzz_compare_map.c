/* Fuzz harness: the "mech-compare-map" channel map of mech compare (libmech/src/io/compare_json.c), parsed from
 * memory with mech_compare_map_parse. Invariants: the status is a known code; an error has a one-line message
 * starting with the file name and leaves no channel; a success gives 1..MECH_COMPARE_MAX_CH channels with
 * non-empty, terminated measured and run names, distinct measured names, none the time column, a non-zero finite
 * gain, a positive tolerance or NaN, an alignment channel among the measured ones, loops of two distinct mapped
 * channels, a sensor filter of order 0 (none) or 1..MECH_COMPARE_FILTER_MAX_ORDER with a positive finite
 * cut-off, and options within range;
 * then --tol and --align on the parsed map either succeed or fail with one line. */
#include <math.h>
#include "fuzz_util.h"
#include "mech/compare.h"

static int terminated(const char *s, size_t n)
{
    return memchr(s, '\0', n) != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mech_compare_map m;
    hy_err err;
    fuzz_err_poison(&err);
    int rc = mech_compare_map_parse((const char *)data, size, "map.json", &m, &err);
    FUZZ_CHECK(rc >= HY_OK && rc <= HY_ENOMEM, "unknown status %d", rc);
    if (rc != HY_OK) {
        fuzz_check_message(&err);
        FUZZ_CHECK(strncmp(err.msg, "map.json", 8) == 0, "message does not start with the file name: %s", err.msg);
        FUZZ_CHECK(m.n == 0, "error but %d channels", m.n);
        return 0;
    }
    FUZZ_CHECK(m.n >= 1 && m.n <= MECH_COMPARE_MAX_CH, "%d channels", m.n);
    FUZZ_CHECK(terminated(m.time, sizeof m.time) && m.time[0], "time column");
    FUZZ_CHECK(terminated(m.time_unit, sizeof m.time_unit) && terminated(m.align_ch, sizeof m.align_ch), "texts");
    FUZZ_CHECK(m.align >= MECH_COMPARE_ALIGN_XCORR && m.align <= MECH_COMPARE_ALIGN_NONE, "align %d", m.align);
    FUZZ_CHECK(isnan(m.max_lag) || (isfinite(m.max_lag) && m.max_lag >= 0), "max_lag %g", m.max_lag);
    FUZZ_CHECK(m.event_level > 0 && m.event_level < 1, "event_level %g", m.event_level);
    FUZZ_CHECK(isnan(m.dt) || (isfinite(m.dt) && m.dt > 0), "dt %g", m.dt);
    FUZZ_CHECK(isnan(m.tol) || (isfinite(m.tol) && m.tol > 0), "tol %g", m.tol);
    FUZZ_CHECK(isfinite(m.lag), "lag %g", m.lag);
    FUZZ_CHECK((isnan(m.window[0]) && isnan(m.window[1])) || (isfinite(m.window[0]) && m.window[0] < m.window[1]),
               "window %g %g", m.window[0], m.window[1]);
    int align_found = m.align_ch[0] == '\0';
    for (int k = 0; k < m.n; k++) {
        const mech_compare_chan *c = &m.ch[k];
        FUZZ_CHECK(terminated(c->meas, sizeof c->meas) && c->meas[0], "channel %d measured name", k);
        FUZZ_CHECK(terminated(c->run, sizeof c->run) && c->run[0], "channel %d run name", k);
        FUZZ_CHECK(terminated(c->unit, sizeof c->unit) && terminated(c->key, sizeof c->key), "channel %d texts", k);
        FUZZ_CHECK(isfinite(c->scale) && c->scale != 0, "channel %d scale %g", k, c->scale);
        FUZZ_CHECK(isnan(c->tol) || (isfinite(c->tol) && c->tol > 0), "channel %d tol %g", k, c->tol);
        FUZZ_CHECK(isnan(c->peak_tol) || (isfinite(c->peak_tol) && c->peak_tol > 0), "channel %d peak_tol", k);
        FUZZ_CHECK(c->derivative >= 0 && c->derivative <= 2, "channel %d derivative %d", k, c->derivative);
        FUZZ_CHECK((c->filter.order == 0 && c->filter.cutoff == 0) ||
                   (c->filter.order >= 1 && c->filter.order <= MECH_COMPARE_FILTER_MAX_ORDER &&
                    isfinite(c->filter.cutoff) && c->filter.cutoff > 0), "channel %d filter %d, %g", k,
                   c->filter.order, c->filter.cutoff);
        FUZZ_CHECK(strcmp(c->meas, m.time) != 0, "channel %d is the time column", k);
        for (int j = 0; j < k; j++)
            FUZZ_CHECK(strcmp(m.ch[j].meas, c->meas) != 0, "channels %d and %d both '%s'", j, k, c->meas);
        align_found |= strcmp(c->meas, m.align_ch) == 0;
    }
    FUZZ_CHECK(align_found, "align channel '%s' not mapped", m.align_ch);
    FUZZ_CHECK(m.nloop >= 0 && m.nloop <= MECH_COMPARE_MAX_LOOPS, "%d loops", m.nloop);
    for (int l = 0; l < m.nloop; l++) {
        FUZZ_CHECK(terminated(m.loop[l].name, sizeof m.loop[l].name) && m.loop[l].name[0], "loop %d name", l);
        FUZZ_CHECK(m.loop[l].q >= 0 && m.loop[l].q < m.n && m.loop[l].Q >= 0 && m.loop[l].Q < m.n &&
                   m.loop[l].q != m.loop[l].Q, "loop %d channels %d, %d", l, m.loop[l].q, m.loop[l].Q);
    }
    /* the options on a parsed map: the first channel's name with the input's first bytes as a tolerance */
    char spec[160];
    snprintf(spec, sizeof spec, "%s=%.*s", m.ch[0].run, (int)(size < 20 ? size : 20), (const char *)data);
    if (memchr(spec, '\0', strlen(spec)) == spec + strlen(spec)) {
        fuzz_err_poison(&err);
        if (mech_compare_map_tol(&m, spec, &err) != HY_OK)
            fuzz_check_message(&err);
        else
            FUZZ_CHECK(isfinite(m.ch[0].tol) && m.ch[0].tol > 0, "tol %g", m.ch[0].tol);
    }
    fuzz_err_poison(&err);
    if (mech_compare_map_align(&m, m.ch[m.n - 1].meas, &err) != HY_OK)
        fuzz_check_message(&err);
    return 0;
}

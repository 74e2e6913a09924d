/* The docked state's measures (issue 44; libmech/src/dock/dock_measure.c, docs/dock-process.md §8.6), each against an
 * independent computation: the limiter's clearance against closed forms (a circle on the axis, above the rim and
 * inside the cone, offset, and a tilted offset circle against a dense minimum); in S1-400-B the latches on their stops
 * against the history's contact flag at the first row in "closed", FrT1's restored stroke and the pushers' share
 * against the same sums over the history's slip and force channels, the clearance at capture against the head's
 * station and the stroke in the history; the clearance inside the cone (S1-B, the limiter moved out) against
 * R_rim - (rim_x - x_L) tan(alpha) - r0; variant C's limiter lead against the first rows of its force channels and of
 * the capture flag. The tilt and roll against the history's Euler angles are test_dock_rp2's (RP-2's S3x-400-B). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "mech/dock.h"
#include "mech/dock_process.h"
#include "dock/dock_internal.h"

static const char *fixtures(void)
{
    const char *fx = getenv("FIXTURES");
    return fx && fx[0] ? fx : "fixtures";
}

/* ---- the clearance of the limiter's larger base (closed forms) ---------------------------------------------- */

static void clearance_closed_forms(void **state)
{
    (void)state;
    mech_dock_params p;
    mech_dock_params_rp1(&p, MECH_DOCK_B, MECH_DOCK_CONE_MODULE);
    const mech_dock_geometry *g = &p.geom;
    double ta = tan(g->half_angle), r0 = 0.2;
    /* sampled on DOCK_CLEAR_N points: a point between two samples is at most r0 (1 - cos(pi / N)) nearer the axis */
    double tol = r0 * (1 - cos(M_PI / DOCK_CLEAR_N)) + 1e-15;
    mech_vec3 ax = {-1, 0, 0};
    /* on the axis above the rim plane: R_rim - r0 (RP-1: 0.40 - 0.185 = 0.215 m at capture) */
    assert_float_equal(dock_limiter_clearance(g, (mech_vec3){0.03, 0, 0}, ax, r0), g->rim_radius - r0, 1e-15);
    /* on the axis 0.2 m inside the cone: R_rim - 0.2 tan(alpha) - r0 */
    assert_float_equal(dock_limiter_clearance(g, (mech_vec3){-0.2, 0, 0}, ax, r0), g->rim_radius - 0.2 * ta - r0,
                       1e-15);
    /* offset by d across the axis, above the rim: the far point at d + r0 */
    assert_float_equal(dock_limiter_clearance(g, (mech_vec3){0.05, 0.05, 0}, ax, r0), g->rim_radius - 0.05 - r0, tol);
    /* offset by d in y, the axis tilted 5 deg in the x-z plane, inside the cone: the circle written out as
       (x0 - r0 sin(th) sin(phi), d + r0 cos(phi), r0 cos(th) sin(phi)) and the clearance R(x) - rho minimised over
       200 000 angles; the 72 samples of the function are within ~r0 (1 + tan(alpha) sin(th)) (pi / 72)^2 / 2 of
       that minimum (a smooth minimum between two samples), bounded here by twice the circle's chord error */
    double th = 5 * M_PI / 180, x0 = -0.2, d = 0.05, best = INFINITY;
    for (int k = 0; k < 200000; k++) {
        double ph = 2 * M_PI * k / 200000;
        double x = x0 - r0 * sin(th) * sin(ph), y = d + r0 * cos(ph), z = r0 * cos(th) * sin(ph);
        best = fmin(best, g->rim_radius - (g->rim_x - x) * ta - sqrt(y * y + z * z));
    }
    double c = dock_limiter_clearance(g, (mech_vec3){x0, d, 0}, (mech_vec3){-cos(th), 0, sin(th)}, r0);
    print_message("tilted, offset circle: %.9f m, dense minimum %.9f m\n", c, best);
    assert_true(c >= best - 1e-12);
    assert_true(c - best <= 2 * tol);
    /* a circle wider than the rim touches: negative */
    assert_true(dock_limiter_clearance(g, (mech_vec3){0.03, 0, 0}, ax, g->rim_radius + 0.01) < 0);
}

/* ---- runs: the summary against the history ------------------------------------------------------------------- */

static char *scenario_text(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/mech/dock/%s", fixtures(), name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = malloc(1 << 16);
    assert_non_null(buf);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

// (a scenario of the shipped ones, edited by a few numeric keys "a.b" = v, NULL-terminated) => loaded configuration
static void config(const char *name, mech_dock_config *c, const char *const *keys, const double *vals)
{
    char *txt = scenario_text(name);
    cJSON *doc = cJSON_Parse(txt);
    free(txt);
    assert_non_null(doc);
    for (int k = 0; keys && keys[k]; k++) {
        char path[128];
        snprintf(path, sizeof path, "%s", keys[k]);
        char *dot = strchr(path, '.');
        cJSON *o = doc;
        if (dot) {
            *dot = 0;
            o = cJSON_GetObjectItemCaseSensitive(doc, path);
            if (!o)
                o = cJSON_AddObjectToObject(doc, path);
        }
        const char *leaf = dot ? dot + 1 : path;
        cJSON_DeleteItemFromObjectCaseSensitive(o, leaf);
        cJSON_AddNumberToObject(o, leaf, vals[k]);
    }
    cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "outputs"), "view_times");
    char *text = cJSON_PrintUnformatted(doc), dir[512];
    cJSON_Delete(doc);
    snprintf(dir, sizeof dir, "%s/mech/dock", fixtures());
    hy_err e;
    int rc = mech_dock_config_parse(text, strlen(text), name, dir, c, &e);
    if (rc == HY_OK)
        rc = mech_dock_config_load(c, name, &e);
    if (rc)
        print_message("%s\n", e.msg);
    assert_int_equal(rc, HY_OK);
    free(text);
}

typedef struct hist {
    mech_dock_summary sum;
    mech_dock_process_summary ps;
    int    proc;
    double tilt_max;                  /* from rel_pitch, rel_yaw over the captured rows                       */
    double roll_closed;               /* rel_roll at the first row in "closed"                                 */
    int    latch_flag_closed;         /* latch_contact there                                                   */
    double head_x_cap, stroke_cap;    /* at the first captured row                                             */
    double t_cap, t_lim;              /* first captured row; first row with a limiter force (rim or wall)      */
    double w_push, w_lim, w_tow;      /* FrT1's slip given back with the pushers or planes bearing, with only the
                                         limiter's pads, with neither (the drive's tow), m                        */
    double restored;
    double tilt_end;
} hist;

static void run(mech_dock_config *c, hist *h)
{
    hy_err e;
    mech_dock_model *m;
    mech_dock_sim *s;
    assert_int_equal(mech_dock_model_new(&c->params, &m, &e), HY_OK);
    assert_int_equal(mech_dock_sim_new(m, &s, &e), HY_OK);
    memset(h, 0, sizeof *h);
    h->tilt_max = h->roll_closed = h->t_cap = h->t_lim = NAN;
    h->latch_flag_closed = -1;
    h->proc = c->params.process.enabled;
    double slip_prev = mech_dock_sim_channels(s)[MECH_DOCK_CH_SLIP1];
    int closed = 0;
    while (!mech_dock_sim_done(s)) {
        int rc = mech_dock_sim_step(s, &e);
        if (rc)
            print_message("%s\n", e.msg);
        assert_int_equal(rc, HY_OK);
        const double *ch = mech_dock_sim_channels(s);
        double t = ch[MECH_DOCK_CH_T];
        int cap = ch[MECH_DOCK_CH_CAPTURE] > 0;
        double tilt = acos(cos(ch[MECH_DOCK_CH_REL_PITCH]) * cos(ch[MECH_DOCK_CH_REL_YAW]));
        if (cap) {
            h->tilt_max = isnan(h->tilt_max) ? tilt : fmax(h->tilt_max, tilt);
            if (isnan(h->t_cap))
                h->t_cap = t, h->head_x_cap = ch[MECH_DOCK_CH_HEAD_X], h->stroke_cap = ch[MECH_DOCK_CH_STROKE];
        }
        h->tilt_end = tilt;
        if ((ch[MECH_DOCK_CH_LIMITER_F] > 0 || ch[MECH_DOCK_CH_PAD_F] > 0) && isnan(h->t_lim))
            h->t_lim = t;
        if (h->proc && !closed && (int)ch[MECH_DOCK_CH_SEQ_STATE] == MECH_DOCK_SEQ_CLOSED) {
            closed = 1;
            h->roll_closed = ch[MECH_DOCK_CH_REL_ROLL];
            h->latch_flag_closed = ch[MECH_DOCK_CH_LATCH_CONTACT] > 0;
        }
        double d = slip_prev - ch[MECH_DOCK_CH_SLIP1];
        if (cap && d > 0) {
            h->restored += d;
            if (ch[MECH_DOCK_CH_PUSHER_F] + ch[MECH_DOCK_CH_PLANE_F] > 0)
                h->w_push += d;
            else if (ch[MECH_DOCK_CH_LIMITER_F] + ch[MECH_DOCK_CH_PAD_F] > 0)
                h->w_lim += d;
            else
                h->w_tow += d;
        }
        slip_prev = ch[MECH_DOCK_CH_SLIP1];
    }
    h->sum = *mech_dock_sim_summary(s);
    h->ps = *mech_dock_sim_process(s);
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
    mech_dock_config_free(c);
}

/* S1-400-B (central): every latch on its stop at closure, no tilt, the pushers alone give FrT1's stroke back, with
   the planes inside the pushers' stroke; the clearance at capture against the history's head station and stroke */
static void s1_400_b(void **state)
{
    (void)state;
    mech_dock_config c;
    config("s1-400-B.json", &c, NULL, NULL);
    mech_dock_geometry g = c.params.geom;
    double push_stroke = c.params.process.pushers.stroke;
    hist h;
    run(&c, &h);
    const mech_dock_summary *u = &h.sum;
    print_message("latches %d (all at %.4f s), pusher share %.9f (history %.9f), restored %.6f m (tow %.6f), gap "
                  "%.4f-%.4f m\n",
                  u->latches_closed, u->latches_all_time, u->frt1_pusher_share, h.w_push / (h.w_push + h.w_lim),
                  u->frt1_restored, h.w_tow, u->restore_gap_min, u->restore_gap_max);
    assert_int_equal(u->latches_closed, 4);
    assert_int_equal(h.latch_flag_closed, 1);
    assert_true(u->latches_all_time >= u->capture_time);
    assert_true(u->tilt_max < 1e-6);
    assert_float_equal(u->frt1_restored, h.restored, 1e-12);
    assert_float_equal(u->frt1_pusher_share, h.w_push / (h.w_push + h.w_lim), 1e-12);
    assert_float_equal(h.w_push + h.w_lim + h.w_tow, h.restored, 1e-15);
    assert_true(u->frt1_pusher_share > 0.99);
    assert_true(u->restore_gap_max < push_stroke);        /* the pushers touch while they restore it */
    /* at capture the larger base is above the rim plane: R_rim - r0 (the head's station and the stroke say where) */
    double x_l = h.head_x_cap + g.housing_length + g.probe_length - h.stroke_cap - g.limiter_x0;
    assert_true(x_l > g.rim_x);
    assert_float_equal(u->limiter_clearance, g.rim_radius - g.limiter_r0, 1e-12);
}

/* S1-B's capture phase with the limiter 0.10 m further out on the housing (x0 0.65): its larger base inside the cone
   at capture, the clearance R_rim - (rim_x - x_L) tan(alpha) - r0 from the history's head station and stroke */
static void s1_b_limiter_inside(void **state)
{
    (void)state;
    const char *keys[] = {"geometry.limiter_x0", "geometry.limiter_x1", "duration", NULL};
    const double vals[] = {0.75, 0.83, 1.0};
    mech_dock_config c;
    config("s1-B.json", &c, keys, vals);
    mech_dock_geometry g = c.params.geom;
    hist h;
    run(&c, &h);
    double x_l = h.head_x_cap + g.housing_length + g.probe_length - h.stroke_cap - g.limiter_x0;
    double want = g.rim_radius - (g.rim_x - x_l) * tan(g.half_angle) - g.limiter_r0;
    print_message("x_L %.6f m, clearance %.9f m, closed form %.9f m\n", x_l, h.sum.limiter_clearance, want);
    assert_true(x_l < g.rim_x);
    /* the housing on the axis in S1 to round-off; the head's station and the stroke are the history's */
    assert_float_equal(h.sum.limiter_clearance, want, 1e-9);
}

/* S3x-C (RP-1) to 20 s: the movable limiter touches before capture (the review: the paper says after) */
static void s3x_c_lead(void **state)
{
    (void)state;
    const char *keys[] = {"duration", NULL};
    const double vals[] = {20.0};
    mech_dock_config c;
    config("s3x-400-C.json", &c, keys, vals);
    hist h;
    run(&c, &h);
    print_message("limiter lead %.17g s (history: %.17g - %.17g, capture %.17g)\n", h.sum.limiter_lead, h.t_lim,
                  h.t_cap, h.sum.capture_time);
    assert_false(isnan(h.sum.limiter_lead));
    /* (cmocka's assert_float_equal compared these two negatives wrongly here) */
    assert_true(fabs(h.sum.limiter_lead - (h.t_lim - h.t_cap)) <= 1e-12);
    assert_true(h.sum.limiter_lead < 0);   /* RP-1: before capture (the review) */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(clearance_closed_forms),
        cmocka_unit_test(s1_b_limiter_inside),
        cmocka_unit_test(s3x_c_lead),
        cmocka_unit_test(s1_400_b),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

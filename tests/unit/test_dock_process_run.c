/* The whole docking process in a docking run (issue 18; docs/dock-process.md §8): the shipped S1 scenarios to 400 s
 * (fixtures/mech/dock/s1-400-{A,B}.json) through capture, absorption with the drive locked, retraction, the pushers,
 * the docking planes and the end. Checked against closed forms and invariants: the sequence of states in its order;
 * the locked drive holds (its output moves by no more than the chain force over the drive stiffness); the commanded
 * retraction speed is reached; in B the pushers hold the probe while FrT1 slips back at its pull level (300 N) until
 * its stroke is restored (spec 001 §5.2, Fig. 15 fragment 3); the pushers' force at the end equals the linear law
 * n F (stroke - gap) / stroke; the energy budget with the drive's work closes; linear momentum is conserved (every
 * force is internal); no allocation in the step. S3x through the whole process: no failure, the rollers never all
 * touching, more limiter impacts on the cone wall in A than in B. Variant C (the movable limiter, §8.5): S1 into the
 * short cone, the limiter on the wall only after capture, its stroke and pad force at the end by closed forms, the
 * view drawing it where it is; S3x into the module cone closing the planes where A and B do not, a stuck limiter
 * not moving on its guides. And the scenario keys' refusals (bad input), C's included. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "hyst/linalg.h"
#include "mech/dock.h"
#include "mech/dock_process.h"
#include "mech/dock_hooks.h"
#include "../../bench/bench_alloc.h"

static const char *fixtures(void)
{
    const char *fx = getenv("FIXTURES");
    return fx && fx[0] ? fx : "fixtures";
}

typedef struct run_out {
    mech_dock_process_summary ps;
    mech_dock_summary sum;
    mech_dock_hooks_summary hs; /* the structural hooks and the docked state (issue 44)                      */
    int    seen_docked_hold;    /* END reached with the docked state held at every step of the last docked_hold */
    double docked_from;         /* start of the current run of accepted steps with docked_unmet = 0, s        */
    double u_absorb_max;        /* max |u| while absorbing (drive locked), m                                  */
    double u_a, t_a, u_b, t_b;  /* drive output at two times of the free retraction                           */
    double pull_reset;          /* head axial force in the middle of FrT1's reset (B), N                      */
    double gap_end, push_end;   /* plane gap and pushers' force at the end                                    */
    long   alloc;               /* allocations in the steps                                                   */
    /* variant C */
    mech_dock_limiter_summary ls;
    mech_dock_sim_stats st;
    double stuck_dx;            /* largest change of the limiter's stroke between consecutive stuck steps, m     */
    double x_end, pad_end, spring_end;   /* limiter stroke, pad force on the wall, spring force at the end      */
    double view_x0;             /* the view's limiter larger-base centre: distance from the UJ along the housing */
    double lim_x0, lim_r0, half_angle;   /* the scenario's limiter larger base (x from the UJ, radius), cone angle */
    /* C against the paper's Fig. 15: the rim-limiter contact's episodes, its force over 177-180 s, the pads and the
       rim over 363-367 s */
    int    n_ep;                /* contact episodes (limiter force > 0), the first 16 kept                        */
    double ep_on[16], ep_off[16];
    int    n_mid;
    double mid_t[8192], mid_f[8192];
    double pad_min_end, lim_max_end;
} run_out;

// (a loaded configuration with a "process" section, its name) => the run's figures in *o; frees the configuration
static void run_config(mech_dock_config *c, const char *name, run_out *o)
{
    hy_err e;
    int rc;
    assert_true(c->params.process.enabled);
    mech_dock_model *m;
    mech_dock_sim *s;
    assert_int_equal(mech_dock_model_new(&c->params, &m, &e), HY_OK);
    assert_int_equal(mech_dock_sim_new(m, &s, &e), HY_OK);
    memset(o, 0, sizeof *o);
    o->pull_reset = NAN;
    o->docked_from = NAN;
    long a0 = n_alloc;
    unsigned long stuck_prev = 0;
    int was_stuck = 0;
    double x_prev = 0;
    while (!mech_dock_sim_done(s)) {
        rc = mech_dock_sim_step(s, &e);
        if (rc)
            print_message("%s\n", e.msg);
        assert_int_equal(rc, HY_OK);
        const double *ch = mech_dock_sim_channels(s);
        double t = ch[MECH_DOCK_CH_T];
        int st = (int)ch[MECH_DOCK_CH_SEQ_STATE];
        if (st == MECH_DOCK_SEQ_ABSORB)
            o->u_absorb_max = fmax(o->u_absorb_max, fabs(ch[MECH_DOCK_CH_DRIVE_U]));
        if (st == MECH_DOCK_SEQ_RETRACT && o->t_a == 0 && t > mech_dock_sim_process(s)->t_retract + 20)
            o->u_a = ch[MECH_DOCK_CH_DRIVE_U], o->t_a = t;
        if (st == MECH_DOCK_SEQ_RETRACT)
            o->u_b = ch[MECH_DOCK_CH_DRIVE_U], o->t_b = t;
        /* B: halfway through FrT1's reset (its slip between 40 % and 60 % of the largest) */
        const mech_dock_process_summary *ps = mech_dock_sim_process(s);
        if (isnan(o->pull_reset) && st == MECH_DOCK_SEQ_ALIGN && ps->frt1_slip_max > 0 &&
            ch[MECH_DOCK_CH_SLIP1] < 0.5 * ps->frt1_slip_max)
            o->pull_reset = ch[MECH_DOCK_CH_HEAD_AXIAL];
        o->gap_end = ch[MECH_DOCK_CH_PLANE_GAP];
        /* the docked state from the history channel, independently of the sequencer's timer */
        if (ch[MECH_DOCK_CH_DOCKED_UNMET] != 0)
            o->docked_from = NAN;
        else if (isnan(o->docked_from))
            o->docked_from = t;
        if (st == MECH_DOCK_SEQ_END)
            o->seen_docked_hold = !isnan(o->docked_from) && t - o->docked_from >= c->params.process.seq.docked_hold - 1e-9;
        o->push_end = ch[MECH_DOCK_CH_PUSHER_F];
        /* C: a stuck limiter does not move on its guides (two stuck steps in a row: its stroke unchanged) */
        const mech_dock_limiter_summary *ls = mech_dock_sim_limiter(s);
        int stuck = ls->stuck_steps != stuck_prev;
        if (stuck && was_stuck)
            o->stuck_dx = fmax(o->stuck_dx, fabs(ch[MECH_DOCK_CH_LIMITER_X] - x_prev));
        was_stuck = stuck;
        stuck_prev = ls->stuck_steps;
        x_prev = ch[MECH_DOCK_CH_LIMITER_X];
        o->x_end = ch[MECH_DOCK_CH_LIMITER_X];
        o->pad_end = ch[MECH_DOCK_CH_PAD_F];
        double fl = ch[MECH_DOCK_CH_LIMITER_F];
        int on = fl > 0, was_on = o->n_ep > 0 && o->n_ep <= 16 && isnan(o->ep_off[o->n_ep - 1]);
        if (on && !was_on) {
            if (o->n_ep < 16)
                o->ep_on[o->n_ep] = t, o->ep_off[o->n_ep] = NAN;
            o->n_ep++;
        } else if (!on && was_on)
            o->ep_off[o->n_ep - 1] = t;
        if (t >= 177 && t <= 180 && o->n_mid < 8192)
            o->mid_t[o->n_mid] = t, o->mid_f[o->n_mid++] = fl;
        if (t >= 363 && t <= 367) {
            o->pad_min_end = o->pad_min_end == 0 ? ch[MECH_DOCK_CH_PAD_F] : fmin(o->pad_min_end, ch[MECH_DOCK_CH_PAD_F]);
            o->lim_max_end = fmax(o->lim_max_end, fl);
        }
    }
    /* the hooks as the viewer draws them (docs/view.md §3): the active plane's frame (active_axis, active_ey, their
       cross product) orthonormal; each link's base where mech_dock_hooks_init places it in that frame, as the view
       has it; the links' tensions adding up to the history's pair channels (the same sums) */
    if (c->params.process.hooks.n > 0) {
        mech_dock_pose_view v;
        mech_dock_sim_view(s, &v);
        static mech_dock_hooks hk0;
        assert_int_equal(mech_dock_hooks_init(&hk0, &c->params.process.hooks, &e), HY_OK);
        mech_vec3 ax = v.active_axis, ey = v.active_ey, ez = mech_vec3_cross(ax, ey);
        assert_true(fabs(mech_vec3_dot(ey, ey) - 1) < 1e-12 && fabs(mech_vec3_dot(ax, ey)) < 1e-12);
        const double *ch = mech_dock_sim_channels(s);
        assert_int_equal(v.n_hook, c->params.process.hooks.n);
        for (int j = 0; j < v.n_hook; j++) {
            mech_vec3 q = hk0.base[j];
            mech_vec3 b = mech_vec3_add(v.active_port, mech_vec3_add(mech_vec3_scale(ax, q.x),
                                                                     mech_vec3_add(mech_vec3_scale(ey, q.y),
                                                                                   mech_vec3_scale(ez, q.z))));
            mech_vec3 d = mech_vec3_sub(b, v.hook_base[j]);
            assert_true(sqrt(mech_vec3_dot(d, d)) < 1e-12);
            if (j % 2)
                assert_true(fabs(v.hook_tension[j - 1] + v.hook_tension[j] - ch[MECH_DOCK_CH_HOOK_F1 + j / 2]) <=
                            1e-12 * fabs(ch[MECH_DOCK_CH_HOOK_F1 + j / 2]));
        }
    }
    o->ls = *mech_dock_sim_limiter(s);
    mech_dock_sim_stats_get(s, &o->st);
    o->lim_x0 = c->params.geom.limiter_x0, o->lim_r0 = c->params.geom.limiter_r0;
    o->half_angle = c->params.geom.half_angle;
    if (c->params.limiter_movable) {
        double Fs, Fst, E;
        mech_dock_limiter_springs(&c->params.limiter, o->x_end, 0, &Fs, &Fst, &E);
        o->spring_end = Fs;
        mech_dock_pose_view v;
        mech_dock_sim_view(s, &v);
        mech_vec3 d = mech_vec3_sub(v.limiter0, v.uj);
        o->view_x0 = mech_vec3_dot(d, v.housing_axis);
    }
    o->alloc = n_alloc - a0;
    o->ps = *mech_dock_sim_process(s);
    o->hs = *mech_dock_sim_hooks(s);
    o->sum = *mech_dock_sim_summary(s);
    print_message("%s: %s at %.2f s; retract %.2f, align %.2f, closed %.2f s; drive work %.2f J; residual %.2g; "
                  "FrT1 slip max %.4f end %.2g m; pull mid-reset %.1f N; pushers %.1f N at gap %.4f m; %ld allocations\n",
                  name, mech_dock_seq_state_name(o->ps.state), mech_dock_sim_time(s), o->ps.t_retract, o->ps.t_align,
                  o->ps.t_closed, o->ps.drive_work, o->ps.e_residual_rel, o->ps.frt1_slip_max, o->ps.frt1_slip_end,
                  o->pull_reset, o->push_end, o->gap_end, o->alloc);
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
    mech_dock_config_free(c);
}

static void run(const char *name, run_out *o)
{
    char path[512];
    snprintf(path, sizeof path, "%s/mech/dock/%s", fixtures(), name);
    mech_dock_config c;
    hy_err e;
    int rc = mech_dock_config_read(path, &c, &e);
    if (rc)
        print_message("%s\n", e.msg);
    assert_int_equal(rc, HY_OK);
    run_config(&c, name, o);
}

/* (scenario) => its run with the fault monitor's alignment check relaxed (roll 30 deg, tilt 20 deg): the shipped
 * S3x-400 runs meet the planes misaligned (roll -3.9 / -14.8 / -11.2 deg at the meeting, docs/dock-process.md §2a)
 * and end there; relaxed, they run on as before the monitor, for the checks of the capture and retraction below */
static void run_relaxed(const char *name, run_out *o)
{
    char path[512];
    snprintf(path, sizeof path, "%s/mech/dock/%s", fixtures(), name);
    mech_dock_config c;
    hy_err e;
    assert_int_equal(mech_dock_config_read(path, &c, &e), HY_OK);
    c.params.process.faults.roll_tol = 30 * M_PI / 180;
    c.params.process.faults.tilt_tol = 20 * M_PI / 180;
    run_config(&c, name, o);
}

// (run, the limiter pushed back by x) => the line of the cone wall's normal at the limiter's larger base, its distance
// from the UJ with the housing on the cone's axis: the normal is (-sin a, -cos a) in the meridian plane, m
static double limiter_arm_closed(const run_out *o, double x)
{
    return (o->lim_x0 - x) * cos(o->half_angle) - o->lim_r0 * sin(o->half_angle);
}

static void common_checks(const run_out *o, const mech_dock_params *prm)
{
    const mech_dock_process_params *pp = &prm->process;
    const mech_dock_process_summary *ps = &o->ps;
    /* the sequence, in its order, each state once */
    static const int order[] = {MECH_DOCK_SEQ_CONTACT, MECH_DOCK_SEQ_ABSORB, MECH_DOCK_SEQ_RETRACT, MECH_DOCK_SEQ_ALIGN,
                                MECH_DOCK_SEQ_CLOSED, MECH_DOCK_SEQ_END};
    assert_int_equal(ps->state, MECH_DOCK_SEQ_END);
    int n = 0;
    for (int k = 0; k < ps->n_log; k++) {
        if (ps->log[k].from == ps->log[k].to)
            continue;   /* the first bottom contact, logged without a transition */
        assert_true(n < 6);
        assert_int_equal(ps->log[k].to, order[n]);
        if (k)
            assert_true(ps->log[k].t >= ps->log[k - 1].t);
        n++;
    }
    assert_int_equal(n, 6);
    /* the process takes more than four minutes (spec 001 §1.1 item 4) and ends within the 400 s */
    assert_true(ps->t_end > 240 && ps->t_end <= 400);
    /* drive locked during absorption: the output moves by no more than the largest chain force over the drive
       stiffness (with a margin for the output's own dynamics) */
    print_message("drive output during absorption: %.3g mm (peak axial %.0f N / k %.3g N/m = %.3g mm)\n",
                  1e3 * o->u_absorb_max, o->sum.peak_axial, pp->drive.stiffness, 1e3 * o->sum.peak_axial / pp->drive.stiffness);
    assert_true(o->u_absorb_max < 1.2 * o->sum.peak_axial / pp->drive.stiffness);
    /* commanded retraction speed reached (both motors: the differential's mean is the commanded speed) */
    double v = (o->u_b - o->u_a) / (o->t_b - o->t_a);
    print_message("retraction speed %.6g m/s (commanded %g)\n", v, pp->drive.speed);
    assert_true(o->t_b - o->t_a > 30);
    assert_true(fabs(v - pp->drive.speed) < 0.01 * pp->drive.speed);
    /* completed only in the docked state (issue 44, docs/dock-process.md §9): every hook locked with at least
       preload_min, every rod in contact, roll and tilt within the hooks' tolerance, held for docked_hold (read
       from the history's docked_unmet channel, not from the sequencer) */
    const mech_dock_hooks_summary *hs = &o->hs;
    print_message("hooks: start %.2f s, %d engaged, locked %d at %.2f s, docked from %.2f s; tension %.1f .. %.1f N; "
                  "rod gap max %.4g mm, roll %.3g deg, tilt %.3g deg\n", hs->t_start, hs->engaged, hs->locked,
                  hs->t_locked, hs->t_docked, hs->tension_min, hs->tension_max, 1e3 * hs->gap_rods,
                  hs->roll * 180 / M_PI, hs->tilt * 180 / M_PI);
    assert_int_equal(hs->locked, pp->hooks.n);
    assert_int_equal(hs->missed, 0);
    assert_int_equal(hs->unmet, 0);
    assert_true(hs->tension_min >= pp->hooks.preload_min);
    assert_true(hs->gap_rods <= pp->hooks.contact_gap);
    assert_true(fabs(hs->roll) <= pp->hooks.roll_tol && hs->tilt <= pp->hooks.tilt_tol);
    assert_true(o->seen_docked_hold);
    assert_true(ps->t_end - hs->t_docked >= pp->seq.docked_hold - 1e-9);
    /* the hooks lock (capture_range - a_end) / speed after they start, unless a jaw stalled at the pull limit */
    double t_lock = (pp->hooks.capture_range + pp->hooks.preload / pp->hooks.stiffness) / pp->hooks.speed;
    assert_true(hs->t_locked - hs->t_start >= t_lock - 1e-6);
    /* the planes closed (pulled into each other by the hooks), the pushers at the end as the linear law says: every
       rod fully compressed (the law's force at the stroke, clamped there) */
    assert_true(o->gap_end <= pp->seq.gap_closed);
    double law = pp->pushers.n * pp->pushers.force * fmin(pp->pushers.stroke - o->gap_end, pp->pushers.stroke) /
                 pp->pushers.stroke;
    assert_true(fabs(o->push_end - law) < 1e-3 * law);
    /* energy budget with the drive's work (< 1 % of the initial kinetic energy plus the drive work, the issue's
       bound; it closes far better) and linear momentum (only internal forces: round-off) */
    assert_true(ps->drive_work > 0);
    assert_true(ps->e_residual_rel < 1e-3);
    const mech_dock_summary *u = &o->sum;
    double p0 = sqrt(u->momentum0.x * u->momentum0.x + u->momentum0.y * u->momentum0.y + u->momentum0.z * u->momentum0.z);
    mech_vec3 dp = mech_vec3_sub(u->momentum, u->momentum0);
    assert_true(sqrt(mech_vec3_dot(dp, dp)) < 1e-9 * p0);
    /* the drive never stalled (nothing jams a central docking) */
    assert_true(ps->drive_limit_time == 0);
    if (COUNT_ALLOC)
        assert_int_equal(o->alloc, 0);
}

static void s1_400_B(void **state)
{
    (void)state;
    run_out o;
    run("s1-400-B.json", &o);
    mech_dock_params prm;   /* the scenario's values are RP-1's */
    mech_dock_params_rp1(&prm, MECH_DOCK_B, MECH_DOCK_CONE_MODULE);
    common_checks(&o, &prm);
    /* FrT1: slipped during absorption, then pulled back out by the pushers at its pull level while the drive
       advances and the nut stands, until its stroke is restored (spec 001 §5.2, Fig. 15 fragment 3) */
    assert_true(o.ps.frt1_slip_max > 0.1);
    assert_true(o.ps.frt1_slip_end < 1e-4);
    print_message("pull halfway through FrT1's reset: %.3f N (frt1_pull %g N)\n", o.pull_reset, prm.axial.frt1_pull);
    assert_true(fabs(-o.pull_reset - prm.axial.frt1_pull) < 0.01 * prm.axial.frt1_pull);
    /* the retraction force stays under FrT2's pull-out level, which protects the drive */
    assert_true(o.ps.retract_force_max < prm.axial.frt2_pull);
}

static void s1_400_A(void **state)
{
    (void)state;
    run_out o;
    run("s1-400-A.json", &o);
    mech_dock_params prm;
    mech_dock_params_rp1(&prm, MECH_DOCK_A, MECH_DOCK_CONE_MODULE);
    common_checks(&o, &prm);
}

/* S3x, the expert case, through the whole process (docs/dock-process.md §8.1), the alignment check relaxed
 * (run_relaxed): no failure state by 400 s but B's reopening planes (the fault monitor, §2a) and C's hooks not
 * closed in time (§9), the energy
 * budget with the drive closes, the rollers never all touch at once (the design's requirement, spec 001 §1.4), the
 * fixed limiter bears on the cone wall during retraction, more often in A than in B (the paper's ordering: "A a
 * high-frequency series of limiter impacts, B a single limiter impulse"), and B's FrT1 is restored; C in the same
 * cone closes the planes (below), with a roll its hooks cannot catch */
static void s3x_400(void **state)
{
    (void)state;
    run_out a, b, c;
    run_relaxed("s3x-400-A.json", &a);
    run_relaxed("s3x-400-B.json", &b);
    run_relaxed("s3x-400-C.json", &c);
    const run_out *o[3] = {&a, &b, &c};
    for (int k = 0; k < 3; k++) {
        const mech_dock_process_summary *ps = &o[k]->ps;
        /* B's planes may reopen (the fault monitor); C ends in "hooks not closed in time" (issue 44: its hooks
           miss, below) */
        assert_true(ps->state < MECH_DOCK_SEQ_FAIL_NO_CAPTURE ||
                    (k == 1 && ps->state == MECH_DOCK_SEQ_FAIL_REOPEN) ||
                    (k == 2 && ps->state == MECH_DOCK_SEQ_FAIL_HOOKS));
        assert_true(ps->t_align > 240);   /* retraction, then the alignment phase */
        assert_true(ps->e_residual_rel < 1e-3);
        assert_int_equal(ps->roller_all, 0);
        assert_true((k == 2 ? ps->roller_impacts == 0 : ps->roller_impacts > 0) && ps->pad_impacts > 0);
        assert_true(ps->drive_limit_time == 0);
        /* only internal forces: linear momentum kept to the integrator's tolerance (tol 1e-6 per step, 360 k
           error-controlled steps: 1.9e-9 and 2.4e-9 measured; a missing reaction would show as 1e-3 or more; as
           shipped now rk43 at 2.5e-7) */
        const mech_dock_summary *u = &o[k]->sum;
        mech_vec3 dp = mech_vec3_sub(u->momentum, u->momentum0);
        assert_true(sqrt(mech_vec3_dot(dp, dp)) < 1e-8 * sqrt(mech_vec3_dot(u->momentum0, u->momentum0)));
    }
    print_message("limiter pads on the cone wall: A %lu impacts, B %lu\n", a.ps.pad_impacts, b.ps.pad_impacts);
    assert_true(a.ps.pad_impacts > b.ps.pad_impacts);
    /* the pads' lever arm about the UJ (spec 001 Fig. 9). Closed form for the wall's normal reaction at the
       limiter's larger base (x0 ahead of the UJ, radius r0) with the housing on the cone's axis: the normal is
       (-sin a, -cos a) in the meridian plane, so its line passes x0 cos a - r0 sin a from the UJ (A 0.254 m, B with
       its UJ 0.15 m lower 0.384 m). The runs' means are 0.291 / 0.434 m (the housing tilted against the cone when
       the pads touch, and the friction): within 0.06 m of it, and B's exceeds A's by the UJ drop times the sine of
       the force's angle from the housing axis (0.15 cos a = 0.130 m at no tilt; 0.143 m measured). Fig. 9a has A's
       reaction almost through the UJ; RP-1's geometry does not (the smallest arm of A's 19 contacts is 0.22 m), so
       A's lateral dampers already take the limiter's contact: docs/dock-process.md §8.1 */
    double arm_closed[2] = {limiter_arm_closed(&a, 0), limiter_arm_closed(&b, 0)};
    print_message("pads' lever arm about the UJ: A %.4f m (%.4f .. %.4f; closed form %.4f), B %.4f m (%.4f .. %.4f; "
                  "%.4f), C %.4f m\n", a.ps.pad_arm_mean, a.ps.pad_arm_min, a.ps.pad_arm_max, arm_closed[0],
                  b.ps.pad_arm_mean, b.ps.pad_arm_min, b.ps.pad_arm_max, arm_closed[1], c.ps.pad_arm_mean);
    assert_true(fabs(a.ps.pad_arm_mean - arm_closed[0]) < 0.06 && fabs(b.ps.pad_arm_mean - arm_closed[1]) < 0.06);
    double shift = b.ps.pad_arm_mean - a.ps.pad_arm_mean;
    assert_true(shift > arm_closed[1] - arm_closed[0] - 0.02 && shift <= b.lim_x0 - a.lim_x0);   /* the drop: 0.15 m */
    assert_true(a.ps.pad_arm_min > 0.2 && a.ps.pad_arm_min <= a.ps.pad_arm_mean && a.ps.pad_arm_mean <= a.ps.pad_arm_max);
    /* C: the pads are on the limiter's body, its origin the UJ moved back by the stroke x, so their moment is carried
       to the UJ; the larger base is then limiter_x0 - x ahead of it, and the closed form at x = 0 and at the largest
       stroke brackets the run's mean (within the same 0.06 m). A bracket only: the moment taken about the limiter's
       origin instead (0.318 m) would pass it too */
    double lo = limiter_arm_closed(&c, c.ls.x_max), hi = limiter_arm_closed(&c, 0);
    print_message("C: pads' lever arm about the UJ %.4f m; closed form %.4f (stroke %.3f m) .. %.4f m (forward)\n",
                  c.ps.pad_arm_mean, lo, c.ls.x_max, hi);
    assert_true(c.ps.pad_arm_mean > lo - 0.06 && c.ps.pad_arm_mean < hi + 0.06);
    assert_true(b.ps.frt1_slip_end < 1e-4);
    /* C (the module cone, as A and B): the movable limiter's pads on the wall align the vehicles where the fixed
       limiter and the rollers did not: the planes close and the process ends (A and B still align at 400 s); FrT1
       restored. A stuck limiter does not move on its guides: between two stuck steps its stroke changes by
       round-off only (1.4e-12 m measured over 70 000 stuck steps; the tree's exact coupling, §8.5). A pair left
       committed stuck while the limiter moved glided at 1.5e-5 m/s and showed here as 3e-8 m per step. */
    print_message("C: %s at %.1f s, limiter first contact %.3f s (capture %.3f s), %lu impacts, guide friction max "
                  "%.1f N, work %.3f J, %lu stick events, %lu stuck steps, largest move while stuck %.3g m\n",
                  mech_dock_seq_state_name(c.ps.state), c.ps.t_end, c.ls.first_contact, c.sum.capture_time,
                  c.ls.impacts, c.ls.friction_max, c.ls.friction_work, c.ls.stick_events, c.ls.stuck_steps,
                  c.stuck_dx);
    /* C (issue 44): the planes close at 369.9 s with 9.6 deg of roll, beyond the catches' half-width (1 deg at
       the links' radius): every hook misses, and 30 s later the run ends "hooks not closed in time" (it docked under
       the old 5 s timer) */
    assert_int_equal(c.ps.state, MECH_DOCK_SEQ_FAIL_HOOKS);
    assert_true(c.hs.missed == 8 && c.hs.locked == 0 && fabs(c.hs.roll_start) > M_PI / 180);
    /* the timeout is seen at the first accepted step at or after it (steps of at most MECH_DOCK_H_MAX) */
    double late = c.hs.t_fail - c.hs.t_start - 30.0;
    assert_true(late >= -1e-9 && late <= MECH_DOCK_H_MAX);
    /* A still aligns at 400 s. B closes the planes (377.7 s as shipped, rk43 at 2.5e-7; still aligning at 400 s
       with Dormand-Prince at 2.5e-7: its rocking at the end is not converged in the tolerance) with the roll the
       slots left beyond the catches' half-width: its hooks miss, it is never docked, so never completed; closed
       and unhooked, FrT2 slips at 6 kN and the planes may reopen: the fault monitor ends it there (issue 44's
       review: 16-33 mm at the worst rod; the reopening itself is test_mech_dock_faults.sh's fault-reopen-B) */
    assert_true(a.ps.state == MECH_DOCK_SEQ_ALIGN && a.ps.fault.kind == MECH_DOCK_FAULT_NONE);
    assert_true(b.ps.state == MECH_DOCK_SEQ_ALIGN || b.ps.state == MECH_DOCK_SEQ_CLOSED ||
                (b.ps.state == MECH_DOCK_SEQ_FAIL_REOPEN && b.ps.fault.kind == MECH_DOCK_FAULT_REOPEN));
    assert_true(b.hs.unmet != 0);
    if (b.ps.state != MECH_DOCK_SEQ_ALIGN)   /* roll beyond the catches when the hooks start: all missed */
        assert_true(b.hs.missed == 8 && fabs(b.hs.roll_start) > M_PI / 180);
    assert_true(c.ps.frt1_slip_end < 1e-4);
    assert_true(c.ls.friction_work > 0 && c.ls.stick_events > 0 && c.ls.stuck_steps > 100);
    /* only contacts start the impact ceiling: every impact and every stick event is a located event of its own (a
       contact's onset, the limiter's speed reaching zero), so together they are at most the events. The limiter's
       speed turning positive again after a stick event used to start it too (docs/dock-process.md §8.5; 357 of
       S1-400-C's 831 windows with the pads' former band) */
    print_message("C: %lu impacts (steps under the impact ceiling after each), %lu events, %lu stick events, "
                  "deepest onset %.3g m\n", c.st.impacts, c.st.events, c.ls.stick_events, c.st.onset_depth_max);
    assert_true(c.st.impacts + c.ls.stick_events <= c.st.events);
    /* and only contacts report an onset depth: located within 1e-7 s, a few nm (the limiter's margin function, 1.0
       while no stick is held, showed here as a 1 m onset when the speed and margin events counted) */
    assert_true(c.st.onset_depth_max < 1e-6);
    assert_true(c.stuck_dx < 1e-10);
}

/* Variant C (spec 001 §5.3; docs/dock-process.md §8.5): S1 into the short cone through the whole process. The
 * movable limiter touches the cone only after capture (the paper's claim); at the end the pads bear on the wall all
 * round with the springs' force (a central case: no guide friction, so the wall's forces, at the cone's 30 deg,
 * carry the spring force axially, within the pads' friction cone on the wall); its stroke at the end is the
 * plane gap at full contact less the gap left (0.18 m by the stroke rule, to the pads' penetration); FrT1 restored;
 * the view draws the limiter moved back by its stroke; energy, momentum, no allocation as for A and B */
static void c_400(void **state)
{
    (void)state;
    run_out o;
    run("s1-400-C.json", &o);
    mech_dock_params prm;
    mech_dock_params_rp1(&prm, MECH_DOCK_C, MECH_DOCK_CONE_SHORT);
    common_checks(&o, &prm);
    const mech_dock_limiter_summary *ls = &o.ls;
    print_message("C: limiter first contact %.2f s (capture %.3f s), impacts %lu, stroke end %.5f m (full-contact gap "
                  "0.18 - gap %.4f m), pads %.2f N against spring %.2f N / sin 30, guide friction work %.3g J, stick "
                  "events %lu, stuck steps %lu (largest move %.3g m), view %.5f m from the UJ (x0 %.5f - x %.5f)\n",
                  ls->first_contact, o.sum.capture_time, ls->impacts, o.x_end, o.gap_end, o.pad_end, o.spring_end,
                  ls->friction_work, ls->stick_events, ls->stuck_steps, o.stuck_dx, o.view_x0, prm.geom.limiter_x0,
                  o.x_end);
    assert_false(ls->before_capture);
    assert_true(ls->first_contact > o.sum.capture_time + 30);   /* during the retraction */
    assert_true(fabs(o.x_end - (0.18 - o.gap_end)) < 3e-3);
    /* the pads stick on the wall (the law's anchored friction): the axial balance F_spring = sum (N sin a + F cos a)
       with |F| <= mu N leaves the normal forces statically indeterminate within the friction cone, so the sum of the
       pads' force magnitudes lies between F_spring / (sin a + mu cos a) and sqrt(1 + mu^2) F_spring /
       (sin a - mu cos a) (1735 .. 2987 N here; frictionless pads would give F_spring / sin a, 2186 N) */
    double mu = prm.contact.limiter_rim.mu_k, sa = sin(M_PI / 6), ca = cos(M_PI / 6);
    print_message("C: pads' force %.1f N within the friction cone's %.1f .. %.1f N\n", o.pad_end,
                  o.spring_end / (sa + mu * ca), sqrt(1 + mu * mu) * o.spring_end / (sa - mu * ca));
    assert_true(o.pad_end >= o.spring_end / (sa + mu * ca) * (1 - 1e-3));
    assert_true(o.pad_end <= sqrt(1 + mu * mu) * o.spring_end / (sa - mu * ca) * (1 + 1e-3));
    assert_true(o.ps.frt1_slip_end < 1e-4);
    assert_true(fabs(o.view_x0 - (prm.geom.limiter_x0 - o.x_end)) < 1e-9);
    assert_int_equal(o.ps.roller_impacts, 0);   /* no levers */
    /* the guides carry < 1 N here: frictionless (DOCK_LIM_F_MIN), no stick events; every impact a located event */
    print_message("C: %lu impacts (steps under the impact ceiling after each), %lu events, %lu stick events\n",
                  o.st.impacts, o.st.events, ls->stick_events);
    assert_int_equal(ls->stick_events, 0);
    assert_true(o.st.impacts <= o.st.events);
}

/* The stand option (spec 001 §2.7): S1-B on the compliant hatch cover against the flight run. Per accepted step:
 * the first head-bottom contact lasts longer on the stand and the peak axial force is lower (the cover is a spring
 * in series with the mechanism); the energy budget with the cover's spring and damping closes; linear momentum is
 * conserved; the cover deflects and comes back. */
typedef struct stand_out {
    double peak, first_bottom, x_min, x_end, resid, dp;
} stand_out;

typedef struct cover_out {
    double work, q_min, Q_min;   /* the element "cover": its work at the end, its extreme deflection and force */
} cover_out;

static void stand_run_config(mech_dock_config *cfg, stand_out *o, cover_out *co);

static void stand_run(const char *name, stand_out *o)
{
    char path[512];
    snprintf(path, sizeof path, "%s/mech/dock/%s", fixtures(), name);
    mech_dock_config c;
    hy_err e;
    assert_int_equal(mech_dock_config_read(path, &c, &e), HY_OK);
    stand_run_config(&c, o, NULL);
}

// (a loaded configuration: freed here) => the first 4 s of its run, and of its cover element when co
static void stand_run_config(mech_dock_config *cfg, stand_out *o, cover_out *co)
{
    mech_dock_config c = *cfg;
    hy_err e;
    mech_dock_model *m;
    mech_dock_sim *s;
    assert_int_equal(mech_dock_model_new(&c.params, &m, &e), HY_OK);
    assert_int_equal(mech_dock_sim_new(m, &s, &e), HY_OK);
    memset(o, 0, sizeof *o);
    double t_on = -1;
    while (!mech_dock_sim_done(s) && mech_dock_sim_time(s) < 4.0) {
        assert_int_equal(mech_dock_sim_step(s, &e), HY_OK);
        const double *ch = mech_dock_sim_channels(s);
        if (ch[MECH_DOCK_CH_BOTTOM_CONTACT] > 0 && t_on < 0)
            t_on = ch[MECH_DOCK_CH_T];
        if (ch[MECH_DOCK_CH_BOTTOM_CONTACT] == 0 && t_on >= 0 && o->first_bottom == 0)
            o->first_bottom = ch[MECH_DOCK_CH_T] - t_on;
        o->x_min = fmin(o->x_min, ch[MECH_DOCK_CH_COVER_X]);
        o->x_end = ch[MECH_DOCK_CH_COVER_X];
        if (co) {
            double q, Q, w;
            int st;
            mech_dock_sim_element(s, MECH_DOCK_EL_COVER, &q, &Q, &st, &w);
            co->work = w, co->q_min = fmin(co->q_min, q), co->Q_min = fmin(co->Q_min, Q);
            assert_true(q == ch[MECH_DOCK_CH_COVER_X]);   /* the record's q is the cover deflection */
        }
    }
    const mech_dock_summary *u = mech_dock_sim_summary(s);
    o->peak = u->peak_axial;
    o->resid = u->e_residual_max / u->e_initial;
    mech_vec3 dp = mech_vec3_sub(u->momentum, u->momentum0);
    o->dp = sqrt(mech_vec3_dot(dp, dp) / mech_vec3_dot(u->momentum0, u->momentum0));
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
    mech_dock_config_free(&c);
}

static void stand_option(void **state)
{
    (void)state;
    stand_out fl, st;
    stand_run("s1-B.json", &fl);
    stand_run("s1-stand-B.json", &st);
    print_message("first head-bottom contact: flight %.2f ms, stand %.2f ms; peak axial %.0f / %.0f N; cover deflection "
                  "min %.3g mm, at 4 s %.3g mm\n", 1e3 * fl.first_bottom, 1e3 * st.first_bottom, fl.peak, st.peak,
                  1e3 * st.x_min, 1e3 * st.x_end);
    assert_true(st.first_bottom > 1.5 * fl.first_bottom);
    assert_true(st.peak < 0.9 * fl.peak);
    assert_true(fl.x_min == 0 && st.x_min < -1e-5);   /* pushed back by the impact (towards the active vehicle) */
    assert_true(fabs(st.x_end) < 0.25 * fabs(st.x_min));   /* after the impacts it carries only the small latch loads */
    assert_true(st.resid < 1e-6 && st.dp < 1e-12);
}

/* The cover's law plugs in by its path (laws.cover, a hyst-model file). RP-1's linear law as a pwl table
 * (fixtures/mech/dock/models/cover.json, what s1-stand-B ships) gives exactly the run of the linear stand.k; a
 * hysteretic table (5e6 N/m loading; unloading 1e7 N/m from the 2 mm point, then 3.3e6 N/m) is driven with
 * trial/commit like every element: the cover's work over the run is the loop's dissipation, > 0, the budget closes
 * with it (it is booked with the other elements), and the impact's peak changes. */
// (scenario file name) => its text (a static buffer, valid until the next call)
static char *scenario_text(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/mech/dock/%s", fixtures(), name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

static char *stand_text(void)
{
    return scenario_text("s1-stand-B.json");
}

// (an edited scenario document, consumed; a name for messages) => a loaded configuration, its model files resolved
// beside the shipped scenarios
static void config_from_doc(cJSON *doc, const char *name, mech_dock_config *c)
{
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

// (duration) => S3x-400-C-short (S3x in variant C into the short cone) cut to that duration (its view times within
// it)
static void s3x_c_short_cone(double duration, mech_dock_config *c)
{
    cJSON *doc = cJSON_Parse(scenario_text("s3x-400-C-short.json"));
    assert_non_null(doc);
    cJSON_ReplaceItemInObjectCaseSensitive(doc, "duration", cJSON_CreateNumber(duration));
    cJSON *out = cJSON_GetObjectItemCaseSensitive(doc, "outputs");
    double vt[2] = {1, 3};
    cJSON_ReplaceItemInObjectCaseSensitive(out, "view_times", cJSON_CreateDoubleArray(vt, 2));
    config_from_doc(doc, "s3x-C-short.json", c);
    assert_int_equal(c->params.geom.cone, MECH_DOCK_CONE_SHORT);
}

/* Variant C into the node module's short cone, S3x for its first 6 s (docs/dock-process.md §8.5; docs/contact.md,
 * "the pad is a solid"): after capture the rocking brings the cone's rim onto the movable limiter across the front
 * face of a pad. That face is now part of the pad, so the contact starts there, from zero depth: first contact
 * 4.20 s (capture 3.41 s), pad force at most 495 N (627 N while the normal at the edge between the front face and
 * the wall was one face's or the other's, flipping between stages). With pads that were only their conical wall
 * the rim went unseen past the face and was found 0.08 s later (4.28 s), deep at once: 9.7 kN (measured on the
 * commit before). */
static void c_short_cone_front_face(void **state)
{
    (void)state;
    mech_dock_config c;
    s3x_c_short_cone(6, &c);
    run_out o;
    run_config(&c, "s3x-C-short (6 s)", &o);
    const mech_dock_summary *u = &o.sum;
    const mech_dock_limiter_summary *ls = &o.ls;
    const mech_dock_process_summary *ps = &o.ps;
    print_message("S3x-C short cone: capture %.4f s, limiter first contact %.4f s, pad force max %.1f N, residual "
                  "%.2g\n", u->capture_time, ls->first_contact, ls->force_max, ps->e_residual_rel);
    assert_true(u->captured && fabs(u->capture_time - 3.409) < 0.01);
    assert_false(ls->before_capture);
    assert_true(ls->first_contact > u->capture_time && ls->first_contact < 4.25);
    assert_true(ls->force_max > 100 && ls->force_max < 1000);
    assert_true(ps->e_residual_rel < 1e-3);
}

/* The same into the short cone to 45 s: from ~23 s the rim bears on the limiter's front edge (the front face meeting
 * a pad's side) while the drive pulls the housing back through it, and the limiter sticks and breaks away on its
 * guides a few times (docs/dock-process.md §8.5). Each breakaway is an event: a step that starts stuck holds the
 * stick through its stages and ends where the stick margin crosses zero; stuck, the limiter does not move. Measured:
 * 14 breakaways, 13 stick events, the energy budget closed to 1.6e-6 of the initial kinetic energy plus the drive
 * work. While a side took over from the front face only when nearer by 1e-7 m (before), the depth jumped by that
 * much where the bias ran out and the normal with it: the limiter chattered, 809 breakaways and 828 stick events in
 * these 45 s, the budget to 1.3e-5, and the whole 400 s run took 56-58 s of CPU against 8 s. */
static void c_short_cone_stick_slip(void **state)
{
    (void)state;
    mech_dock_config c;
    s3x_c_short_cone(45, &c);
    run_out o;
    run_config(&c, "s3x-C-short (45 s)", &o);
    const mech_dock_limiter_summary *ls = &o.ls;
    print_message("S3x-C short cone, 45 s: %lu breakaways, %lu stick events, stuck steps' stroke change at most "
                  "%.3g m, residual %.3g\n", ls->breakaways, ls->stick_events, o.stuck_dx, o.ps.e_residual_rel);
    assert_true(ls->breakaways >= 3 && ls->breakaways < 100);
    assert_true(ls->stick_events >= 3 && ls->stick_events < 100);   /* no chatter */
    assert_true(o.stuck_dx < 1e-9);   /* held: a stuck limiter does not move on its guides */
    assert_true(o.ps.e_residual_rel < 1e-5);
}

/* The paper's C ordering (spec 001 §4 Fig. 15, §7 regression targets) in S3x-C into the short cone, the whole
 * process (docs/dock-process.md §8.5, "against the paper's Fig. 15"): fragment 1, the limiter's first contact after
 * capture and the capture phase's contact oscillations over before 13 s (measured: one episode, 4.20-4.75 s; the
 * next contact, from 20.9 s, is the vehicles settling on the head); interval 2 (177-180 s), no high-frequency
 * oscillation at the limiter contact (measured: 1208 N with a 2 Hz ripple of +-9 N about a cubic trend);
 * fragment 3 (363-367 s), full pad contact on the cone wall, the rim off the limiter, FrT1's stroke restored. The
 * fault monitor's alignment check relaxed (as run_relaxed): the planes meet at 372.0 s with a roll of -0.76 deg,
 * beyond the slots' 0.5 deg (docs/dock-process.md §2a), which ends the shipped run there. */
static void c_short_cone_fig15(void **state)
{
    (void)state;
    mech_dock_config c;
    s3x_c_short_cone(400, &c);
    c.params.process.faults.roll_tol = 30 * M_PI / 180;
    c.params.process.faults.tilt_tol = 20 * M_PI / 180;
    run_out *o = calloc(1, sizeof *o);
    assert_non_null(o);
    run_config(&c, "s3x-C-short (400 s)", o);
    const mech_dock_limiter_summary *ls = &o->ls;
    print_message("S3x-C short cone: %d contact episodes, the first %.3f-%.3f s, the second from %.3f s; 177-180 s: "
                  "%d samples; 363-367 s: pads >= %.0f N, limiter <= %.0f N; state %s, residual %.2g\n", o->n_ep,
                  o->ep_on[0], o->ep_off[0], o->n_ep > 1 ? o->ep_on[1] : NAN, o->n_mid, o->pad_min_end, o->lim_max_end,
                  mech_dock_seq_state_name(o->ps.state), o->ps.e_residual_rel);
    assert_int_equal(o->ps.state, MECH_DOCK_SEQ_END);
    assert_false(ls->before_capture);
    /* fragment 1: contact only after capture, and the capture phase's episodes over before 13 s */
    assert_true(o->n_ep >= 2);
    assert_true(o->ep_on[0] > o->sum.capture_time && o->ep_off[0] < 13.0);
    assert_true(o->ep_on[1] > 13.0);
    /* interval 2: the rim bears on the limiter throughout, and what is left about a cubic trend is < 3 % of it */
    assert_true(o->n_mid > 100);
    /* the cubic trend by least squares (hy_lstsq_qr: LAPACK's dgels), t centred on the interval */
    double mean = 0, tm = 0.5 * (177 + 180), coef[4];
    double *V = malloc((size_t)o->n_mid * 4 * sizeof *V), *rhs = malloc((size_t)o->n_mid * sizeof *rhs);
    assert_non_null(V);
    assert_non_null(rhs);
    for (int i = 0; i < o->n_mid; i++) {
        assert_true(o->mid_f[i] > 0);
        mean += o->mid_f[i] / o->n_mid;
        double x = o->mid_t[i] - tm;
        V[4 * i] = 1, V[4 * i + 1] = x, V[4 * i + 2] = x * x, V[4 * i + 3] = x * x * x;
        rhs[i] = o->mid_f[i];
    }
    hy_err e;
    assert_int_equal(hy_lstsq_qr(V, (size_t)o->n_mid, 4, rhs, coef, &e), HY_OK);
    free(V);
    free(rhs);
    double res_max = 0;
    for (int i = 0; i < o->n_mid; i++) {
        double x = o->mid_t[i] - tm;
        res_max = fmax(res_max, fabs(o->mid_f[i] - (coef[0] + x * (coef[1] + x * (coef[2] + x * coef[3])))));
    }
    print_message("177-180 s: mean %.0f N, largest departure from the cubic trend %.1f N\n", mean, res_max);
    assert_true(mean > 500);
    assert_true(res_max < 0.03 * mean);
    /* fragment 3: full pad contact on the wall, the rim off the limiter, FrT1's stroke restored by the pushers */
    assert_true(o->pad_min_end > 1000);
    assert_true(o->lim_max_end == 0);
    assert_true(o->ps.frt1_slip_end < 1e-4);
    assert_true(o->ps.e_residual_rel < 1e-5);
    free(o);
}

// (scenario text, cover law path or NULL for the linear stand.k = 5e6) => a loaded configuration
static void stand_config(const char *law, mech_dock_config *c)
{
    cJSON *doc = cJSON_Parse(stand_text());
    assert_non_null(doc);
    cJSON *laws = cJSON_GetObjectItemCaseSensitive(doc, "laws"), *stand = cJSON_GetObjectItemCaseSensitive(doc, "stand");
    assert_non_null(cJSON_GetObjectItemCaseSensitive(laws, "cover"));   /* the shipped file uses the law */
    cJSON_DeleteItemFromObject(laws, "cover");
    if (law)
        cJSON_AddStringToObject(laws, "cover", law);
    else
        cJSON_AddNumberToObject(stand, "k", 5e6);
    config_from_doc(doc, "stand.json", c);
}

static void cover_law(void **state)
{
    (void)state;
    stand_out lin, tab, hys;
    cover_out clin = {0}, ctab = {0}, chys = {0};
    mech_dock_config c;
    stand_config(NULL, &c);
    stand_run_config(&c, &lin, &clin);
    stand_config("models/cover.json", &c);
    stand_run_config(&c, &tab, &ctab);
    /* the linear table is the linear law, step for step */
    assert_true(tab.peak == lin.peak && tab.x_min == lin.x_min && tab.first_bottom == lin.first_bottom);
    assert_true(ctab.Q_min == clin.Q_min && fabs(ctab.Q_min - 5e6 * ctab.q_min) <= 1e-9 * fabs(ctab.Q_min));
    /* elastic: the booked work (trapezoids of Q dq, exact for a linear law) is the stored energy k x^2 / 2 */
    assert_true(fabs(clin.work - 0.5 * 5e6 * lin.x_end * lin.x_end) <= 1e-9 * clin.work);

    char dir[] = "/tmp/hyst-cover-XXXXXX", law[600];
    assert_non_null(mkdtemp(dir));
    snprintf(law, sizeof law, "%s/cover-loop.json", dir);
    FILE *f = fopen(law, "w");
    assert_non_null(f);
    fputs("{\"format\": \"hyst-model\", \"version\": 1, \"model\": \"pwl\", \"kind\": \"constant\", "
          "\"units\": {\"q\": \"m\", \"Q\": \"N\"}, \"name\": \"cover with a loop\", "
          "\"positive\": {\"forward\": [[0, 0], [1e-5, 50], [0.002, 10000]], "
          "\"backward\": [[0, 0], [1e-5, 50], [0.0015, 5000], [0.002, 10000]], "
          "\"k_beyond\": 10000000}, "
          "\"negative\": {\"forward\": [[0, 0], [-1e-5, -50], [-0.002, -10000]], "
          "\"backward\": [[0, 0], [-1e-5, -50], [-0.0015, -5000], [-0.002, -10000]], "
          "\"k_beyond\": 10000000}}\n", f);
    fclose(f);
    stand_config(law, &c);
    stand_run_config(&c, &hys, &chys);
    unlink(law);
    rmdir(dir);
    print_message("cover: linear peak %.1f N, x_min %.4g mm, work %.3g J; with a loop: peak %.1f N, x_min %.4g mm, "
                  "work %.4g J, residual %.2g\n", lin.peak, 1e3 * lin.x_min, clin.work, hys.peak, 1e3 * hys.x_min,
                  chys.work, hys.resid);
    assert_true(chys.work > 1e-3);              /* the loop dissipates */
    /* the budget closes to 1e-4 of the initial kinetic energy (measured 7.6e-6: the branch turns of the loop fall
       inside steps, where the trapezoid booking of Q dq is first order; the linear law gives 4.6e-7) */
    assert_true(hys.resid < 1e-4 && hys.dp < 1e-12);
    assert_true(hys.peak != lin.peak);
}

/* The view's levers: each arm from its pivot on the housing to its roller is the lever's length (the view maps
 * both points into the cone frame by the same rigid motion), at the start and after the rollers have moved */
static void view_levers(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/mech/dock/s1-400-B.json", fixtures());
    mech_dock_config c;
    hy_err e;
    mech_dock_model *m;
    mech_dock_sim *s;
    assert_int_equal(mech_dock_config_read(path, &c, &e), HY_OK);
    assert_int_equal(mech_dock_model_new(&c.params, &m, &e), HY_OK);
    assert_int_equal(mech_dock_sim_new(m, &s, &e), HY_OK);
    const mech_dock_cam_params *cp = &c.params.process.cam;
    for (int pass = 0; pass < 2; pass++) {
        mech_dock_pose_view v;
        mech_dock_sim_view(s, &v);
        assert_int_equal(v.n_roller, cp->n_lever);
        for (int j = 0; j < v.n_roller; j++) {
            mech_vec3 a = mech_vec3_sub(v.roller[j], v.lever_pivot[j]);
            assert_true(fabs(sqrt(mech_vec3_dot(a, a)) - cp->len) <= 1e-12);
        }
        while (pass == 0 && mech_dock_sim_time(s) < 1.0)
            assert_int_equal(mech_dock_sim_step(s, &e), HY_OK);
    }
    mech_dock_sim_free(s);
    mech_dock_model_free(m);
    mech_dock_config_free(&c);
}

/* ---- bad input: refused before the run, naming the file and the key ---- */
static void refused_v(const char *variant, const char *extra, const char *want)
{
    char text[1024];
    int n = snprintf(text, sizeof text, "{\"format\": \"mech-dock\", \"variant\": \"%s\", \"initial\": "
                     "{\"closing_speed\": 0.15}%s}", variant, extra);
    mech_dock_config c;
    hy_err e;
    e.msg[0] = 0;
    char dir[512];
    snprintf(dir, sizeof dir, "%s/mech/dock", fixtures());
    int rc = mech_dock_config_parse(text, (size_t)n, "bad.json", dir, &c, &e);
    if (rc == HY_OK) {
        /* keys the reader accepts but the model refuses (cross-checks of mech_dock_params_check) */
        rc = mech_dock_config_load(&c, "bad.json", &e);
        if (rc == HY_OK)
            rc = mech_dock_params_check(&c.params, &e);
        mech_dock_model *m = NULL;
        if (rc == HY_OK && (rc = mech_dock_model_new(&c.params, &m, &e)) == HY_OK)   /* the cam's path check */
            mech_dock_model_free(m);
        mech_dock_config_free(&c);
    }
    print_message("%s -> %s\n", extra, e.msg);
    assert_int_not_equal(rc, HY_OK);
    assert_non_null(strstr(e.msg, want));
}

static void refused(const char *extra, const char *want) { refused_v("B", extra, want); }

static void bad_input(void **state)
{
    (void)state;
    refused(", \"process\": {}, \"drive\": {\"speed\": 0}", "bad.json: drive.speed = 0");
    refused(", \"process\": {}, \"drive\": {\"speed\": -0.0012}", "drive.speed = -0.0011");
    refused(", \"drive\": {\"speed\": 0.001}", "bad.json: drive: given, but the scenario has no \"process\"");
    refused(", \"process\": {\"start\": \"docked\"}", "bad.json: process.start: expected one of");
    refused(", \"process\": {}, \"drive\": {\"force_max\": 5000}", "drive.force_max");
#define LEVERS "\"i_cam\": 50, \"arm\": 0.05, \"x_pivot\": 0.2, \"rho_pivot\": 0.12, \"length\": 0.16, \"roller_radius\": 0.02"
    refused(", \"process\": {}, \"cam\": {\"theta_deg\": [0, 10, 5], \"radius\": [0.05, 0.05, 0.06], " LEVERS "}",
            "bad.json: cam.theta_deg[2]");
    refused(", \"process\": {}, \"cam\": {\"theta_deg\": [0, 10], \"radius\": [0.05], " LEVERS "}", "bad.json: cam.radius");
    refused(", \"process\": {}, \"cam\": {\"theta_deg\": [0, 10], \"radius\": [0.05, 0.05]}", "bad.json: cam.i_cam: required");
    /* a roller path that crosses the cone by more than its offset: the pivot far out (the model's path check) */
    refused(", \"process\": {}, \"cam\": {\"theta_deg\": [0, 240], \"radius\": [0.04, 0.08], \"i_cam\": 50, \"arm\": 0.05, "
            "\"x_pivot\": 0.2, \"rho_pivot\": 0.35, \"length\": 0.16, \"roller_radius\": 0.02}", "cam.path");
    refused(", \"process\": {}, \"pushers\": {\"n\": 0}", "pushers.n");
    refused(", \"process\": {}, \"sequencer\": {\"jam_time\": 0}", "bad.json: sequencer.jam_time = 0");
    refused(", \"process\": {\"roller_mu\": -1}", "bad.json: process.roller_mu = -1");
    refused(", \"stand\": {\"m_dm\": 20}", "stand.m_dm: 20 kg must exceed the housing and the probe");
    refused(", \"stand\": {\"k\": 0}", "bad.json: stand.k = 0");
    refused(", \"laws\": {\"cover\": \"models/cover.json\"}", "bad.json: laws.cover: only the stand option has a cover");
    refused(", \"stand\": {}, \"laws\": {\"cover\": \"models/probe-torsion.json\"}", "laws.cover");
    /* variant C's movable limiter (spec 001 §5.3): springs that cannot hold it forward, a stroke shorter than the
       plane gap at full contact (the stroke rule), a larger base wider than the short cone's entry, a forward
       position that never reaches the wall, a cam on a C */
    refused_v("C", ", \"limiter\": {\"f_forward\": 500, \"f_end\": 400}", "bad.json: limiter.f_end: the spring force");
    refused_v("C", ", \"limiter\": {\"stroke\": 0.15}", "bad.json: limiter.stroke: 0.15 m does not exceed the "
              "docking-plane gap 0.1");
    refused_v("C", ", \"cone\": \"short\", \"geometry\": {\"limiter_r0\": 0.31}", "bad.json: geometry.limiter_r0: the "
              "movable limiter's larger base (0.31 m) must be smaller than the cone's entry radius");
    refused_v("C", ", \"geometry\": {\"limiter_x0\": 0.35, \"limiter_x1\": 0.43}", "bad.json: geometry.limiter_x0: the "
              "limiter's larger base at 0.35 m from the UJ would meet the cone wall only");
    refused_v("C", ", \"process\": {}, \"cam\": {\"theta_deg\": [0, 10], \"radius\": [0.05, 0.05], " LEVERS "}",
              "bad.json: cam: variant C has no alignment levers");
    refused_v("C", ", \"limiter\": {\"guide_a0\": 0.1, \"guide_a1\": 0.1}", "limiter.a: the two guide pairs");
}

/* the printer writes the process back only when it is on, and reading the print gives the same configuration */
static void print_round_trip(void **state)
{
    (void)state;
    const char *text = "{\"format\": \"mech-dock\", \"variant\": \"B\", \"initial\": {\"closing_speed\": 0.15}, "
                       "\"process\": {\"start\": \"extend\"}, \"drive\": {\"speed\": 0.002}, \"pushers\": {\"enabled\": "
                       "false}, \"cam\": {\"theta_deg\": [0, 30, 60], \"radius\": [0.05, 0.05, 0.06], \"i_cam\": 100, \"arm\": "
                       "0.04, \"length\": 0.15, \"x_pivot\": 0.3, \"rho_pivot\": 0.09, \"roller_radius\": 0.02}}";
    mech_dock_config a, b;
    hy_err e;
    assert_int_equal(mech_dock_config_parse(text, strlen(text), "x.json", NULL, &a, &e), HY_OK);
    char *p = mech_dock_config_print(&a, &e);
    assert_non_null(p);
    assert_int_equal(mech_dock_config_parse(p, strlen(p), "x.json", NULL, &b, &e), HY_OK);
    assert_true(b.params.process.enabled && b.params.process.cam_on && !b.params.process.pushers_on);
    assert_int_equal(b.params.process.start, MECH_DOCK_SEQ_EXTEND);
    assert_true(b.params.process.drive.speed == 0.002);
    assert_int_equal(b.params.process.cam.n, 3);
    assert_true(b.params.process.cam.theta[1] == a.params.process.cam.theta[1]);
    free(p);
    const char *off = "{\"format\": \"mech-dock\", \"initial\": {\"closing_speed\": 0.15}}";
    assert_int_equal(mech_dock_config_parse(off, strlen(off), "x.json", NULL, &a, &e), HY_OK);
    p = mech_dock_config_print(&a, &e);
    assert_null(strstr(p, "\"process\""));
    assert_null(strstr(p, "\"drive\""));
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_input),
        cmocka_unit_test(print_round_trip),
        cmocka_unit_test(s1_400_B),
        cmocka_unit_test(s1_400_A),
        cmocka_unit_test(s3x_400),
        cmocka_unit_test(c_short_cone_front_face),
        cmocka_unit_test(c_short_cone_stick_slip),
        cmocka_unit_test(c_short_cone_fig15),
        cmocka_unit_test(c_400),
        cmocka_unit_test(stand_option),
        cmocka_unit_test(cover_law),
        cmocka_unit_test(view_levers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

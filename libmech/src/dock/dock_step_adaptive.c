/* The docking simulation's error-controlled steps (params.tol > 0; docs/dock.md §6b), driven by mech_dock_sim_step
 * (dock_step.c). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "dock/dock_sim_internal.h"

#define DOCK_THETA45 3.0    /* |lambda h| allowed by the stiffness ceiling: inside DOPRI5's real stability
                               interval (3.3) with a margin (Hairer & Wanner's DOPRI5 flags 3.25 as stiff)      */
#define DOCK_THETA43 2.7    /* the same for RK4(3): inside RK4's real interval (2.785) and its imaginary one
                               (2.83): the probe's lightly damped torsion (1131 rad/s) holds the slow phases at
                               this stability limit, where DOPRI5 has only ~2.4 (2 % damping) for 6 evaluations
                               against RK4's 4 (docs/dock.md §6b)                                               */
#define DOCK_HMAX MECH_DOCK_H_MAX   /* s: no step longer (the fixed-step limit of mech_dock_params_check)       */
#define DOCK_HMIN 1e-10     /* s: a step refused below this fails the run                                      */
#define DOCK_EVENT_TOL 1e-7 /* s: an event ends its step at most this long after the gap crossed zero         */
#define DOCK_LIM_V_REST 1e-12 /* m/s: a limiter released at a located breakaway moves slower than this while it is
                                 still at rest (its speed zero to round-off, of either sign)                    */
#define DOCK_THETA_IMP 0.25 /* |lambda h| during an impact: ~25 steps per contact period, so a peak force is
                               sampled as finely as by the fixed 0.25 ms steps (error (lambda h / 2)^2 / 2 < 1 %) */
#define DOCK_IMPACT_STEPS 50 /* accepted steps after a contact onset held to DOCK_THETA_IMP (~2 contact periods) */

/* ---- error-controlled steps (docs/dock.md §6b) -------------------------------------------------------------------
 * The ODE layer's Dormand-Prince 5(4) stepper (the default; six evaluations per step) or RK4(3) (four), both first
 * same as last, and its scaled control, driven here because the driver needs what only the simulation knows: many
 * event functions (every contact pair's gap, the slot faces, the capture plane), the stiffness ceiling and the
 * commit of the accepted state's own evaluation. Every stage is a trial of every element; a rejected step reverts
 * them; the last stage evaluates the new state itself, so an accepted step commits that evaluation (no extra one,
 * unlike the fixed path). */

static int sys_function(double t, const double y[], double dydt[], void *params)
{
    mech_dock_sim *s = params;
    return dock_evaluate(s, t, y, dydt, &s->ev);
}

/* (the evaluation just made) => its event functions g (> 0 touching or past, <= 0 apart): the depth of every contact
 * pair (a set its gate skipped is apart), the slot faces' penetration as a length, the capture plane (past it: the
 * head centre below capture_x; +1 once captured). Returns their number (the same for every evaluation). */
static int gap_values(const mech_dock_sim *s, const dock_eval *e, double *g)
{
    int n = 0;
    for (int k = 0; k < DOCK_NSET; k++) {
        const mech_contact_model *cm = s->m->set[k];
        if (!cm)
            continue;
        for (int i = 0; i < cm->npair && n < DOCK_NGAP - 2; i++) {
            double d = e->on[k] ? s->cd[k]->geom[i].depth : -DOCK_GATE_MARGIN;
            g[n++] = isfinite(d) ? d : -1.0;   /* -INFINITY: no feature in reach */
        }
    }
    if (s->proc) {
        /* the process's contacts: limiter pads on the wall, rollers, and per rod the pusher's first touch and the
           planes meeting */
        const dock_proc_eval *pr = &e->pr;
        for (int k = 0; k < DOCK_NPAD_PT; k++)
            g[n++] = pr->pad_depth[k];
        for (int j = 0; s->m->cam && j < s->m->cam->n_lever; j++)
            g[n++] = pr->roller_depth[j];
        const mech_dock_pusher_params *ph = &s->m->p.process.pushers;
        for (int i = 0; i < ph->n && i < MECH_DOCK_PUSHER_MAX; i++) {
            double rg = isfinite(pr->rod_gap[i]) ? pr->rod_gap[i] : 1.0;
            g[n++] = s->m->p.process.pushers_on ? ph->stroke - rg : -1.0;
            g[n++] = -rg;
        }
    }
    if (s->lim_on) {
        /* variant C: the limiter entering its forward and its end stop, and, while the guides carry a load and it
           slides, its speed along the committed sliding direction: a slide that stops ends its step there, where
           the stick hypothesis takes over (limiter_stick) */
        int sc = dock_guides_sliding(s);
        g[n++] = -e->lim_x;
        g[n++] = e->lim_x - s->m->p.limiter.stroke;
        /* a slide that starts from rest at a located breakaway (its speed zero to round-off, of either sign)
           starts on its sliding side */
        double v = s->lim_from_rest && fabs(e->lim_xd) < DOCK_LIM_V_REST ? DBL_MIN : sc * e->lim_xd;
        g[n++] = e->lim_loaded && sc ? v : 1.0;
        /* a held stick (limiter_hold): its margin sum mu_s N - |sum F|; where it crosses zero the step ends, and
           the stick is released there (adaptive_step) */
        g[n++] = s->lim_hold && e->lim_loaded ? e->lim.margin : 1.0;
    }
    g[n++] = e->slot_over * s->m->p.geom.latch_radius;
    g[n++] = s->captured ? 1.0 : s->m->g.capture_x - e->x_c;
    return n;
}

/* (the evaluation just made) => omega^2 of the stiffest touching pair, k' / m_contact with k' = n k depth^(n-1) the
 * stiffness of its Hunt-Crossley law at the present depth; 0 when nothing touches */
static double contact_omega2(const mech_dock_sim *s, const dock_eval *e)
{
    double kmax = 0;
    for (int k = 0; k < DOCK_NSET; k++) {
        const mech_contact_model *cm = s->m->set[k];
        if (!cm || !e->on[k] || s->cd[k]->nactive == 0)
            continue;
        for (int i = 0; i < cm->npair; i++) {
            double d = s->cd[k]->geom[i].depth;
            if (d > 0) {
                const mech_contact_law *law = &cm->pair[i].law;
                kmax = fmax(kmax, law->n == 1 ? law->k : law->n * law->k * pow(d, law->n - 1));
            }
        }
    }
    if (s->proc)
        kmax = fmax(kmax, e->pr.k_touch);
    return kmax / s->m_contact;
}

/* the event functions of gap_values that are contacts (pairs, pads, rollers, rods, the limiter's stops): all but the
 * limiter's sliding speed and stick margin (variant C) and the slots and the capture plane, the last ones. Only a
 * contact's onset is an impact: the limiter's speed turning positive after a stick event started the impact ceiling
 * too (1438 times in S1-400-C's first 200 s with the pads' stick, each 50 steps at DOCK_THETA_IMP) */
static int contact_gaps(const mech_dock_sim *s)
{
    return s->ngap - 2 - (s->lim_on ? 2 : 0);
}

// (sim at an accepted state, step h) => ytry, yerr, kout of one error-controlled step; the trials are those of its end
static int try_step(mech_dock_sim *s, double h)
{
    memcpy(s->ytry, s->y, s->dim * sizeof *s->y);
    return mech_ode_step_apply_fsal(s->stp, s->t, h, s->ytry, s->yerr, s->k1, s->kout, &s->sys);
}

// (sim, step x) => the trial step of x and its event functions in s->g1 (dock_locate's trial)
static int locate_trial(void *ctx, double x)
{
    mech_dock_sim *s = ctx;
    int rc = try_step(s, x);
    if (rc == HY_OK)
        gap_values(s, &s->ev, s->g1);
    return rc;
}

/* The trial step of *h crossed an event (s->g1 and s->g0 differ in sign): shorten it so that it ends at most
 * DOCK_EVENT_TOL after the first crossing, on the new side, so that the contact (or the separation, or the capture)
 * starts on the step boundary and no step integrates across the kink (dock_locate.c). On HY_OK: *h, ytry, yerr, kout,
 * s->ev, s->g1 and the trials are those of the shortened step. */
static int locate(mech_dock_sim *s, double *h)
{
    return dock_locate(s->ngap, DOCK_EVENT_TOL, s->g0, s->g1, s->glo, h, locate_trial, s);
}

// (sim just made) => error scales, first step, event functions at t = 0
void dock_adaptive_init(mech_dock_sim *s)
{
    const mech_dock_params *p = &s->m->p;
    s->sys = (mech_ode_system){sys_function, s->dim, s, NULL, NULL, NULL};
    /* scales of the local-error test (D_i = tol * scale_i): lengths 1 m, angles and quaternions 1 rad, the nut in
       its own units (i_Nut per metre of stroke); the rates in the kinetic-energy norm of the stiffness estimate: the
       speed at which that body (or joint, or the nut chain) alone would carry the initial kinetic energy, so a light
       fast part (the probe's torsion, 0.02 kg m^2 on 2.5e4 N m/rad) is held to the same energy error as a vehicle
       (with the initial relative speed as the scale the torsion's 180 Hz ringing set every step); the energy
       quadratures the initial kinetic energy */
    double v0 = fmax(hypot(p->init.closing_speed, hypot(p->init.velocity.y, p->init.velocity.z)), 0.01);
    for (size_t i = 0; i < s->L.npos; i++)
        s->scale[i] = 1.0;
    double vE = sqrt(2 * fmax(s->ke0, 1.0));   /* sqrt(kg) m/s: the rates in the kinetic-energy norm (s->wke) */
    for (size_t i = s->L.npos; i < s->nb + 4; i++)
        s->scale[i] = s->wke[i] > 0 ? vE / s->wke[i] : v0;
    s->scale[s->iu] = 1.0;   /* the drive output, m */
    s->scale[s->nb] = s->m->i_nut;
    for (int k = 0; k < DOCK_NQ; k++)
        s->scale[s->iq + k] = fmax(s->ke0, 1.0);
    s->ctl = (mech_ode_control){p->tol, 0.0, 0.9, s->scale};
    s->pi = (mech_ode_pi){0};
    s->h_next = p->h;
    s->h_ceil = INFINITY;
    s->theta = p->method == MECH_DOCK_DOPRI5 ? DOCK_THETA45 : DOCK_THETA43;
    s->m_contact = dock_contact_mass(p);   /* the lightest mass a contact drives */
    dock_guides_hold(s, &s->acc);
    s->ngap = gap_values(s, &s->acc, s->g0);
}

// (failing step) => state and body data back at the last accepted step, err set
static int adaptive_fail(mech_dock_sim *s, hy_err *err, int rc)
{
    dock_eval tmp;
    char msg[sizeof s->msg];
    int code = s->fail_code ? s->fail_code : rc != HY_OK ? rc : HY_ENUMERIC;
    snprintf(msg, sizeof msg, "%s", s->fail_code ? s->msg : "the local error stays above the tolerance");
    dock_evaluate(s, s->t, s->y, s->k2, &tmp);
    dock_revert_all(s);
    return hy_err_set(err, code, "t = %.6f s: %s (step %.3g s); hint: tighten integration.tolerance (%g)", s->t,
                      msg, s->h_next, s->m->p.tol);
}

/* one accepted error-controlled step: the controller's step, capped by the stiffness ceiling and DOCK_HMAX, ends
 * on the next breakpoint (duration, capture timeout, end of the thrust) and on the first event it crosses */
int dock_adaptive_step(mech_dock_sim *s, hy_err *err)
{
    const mech_dock_params *p = &s->m->p;
    const double t = s->t, tiny = 1e-12 * fmax(1.0, fabs(t));
    double t_stop = INFINITY;
    double bp[3] = {p->duration, p->capture_timeout, isnan(s->thrust_on) ? NAN : s->thrust_on + p->thrust.duration};
    for (int k = 0; k < 3; k++)
        if (bp[k] > t + tiny)
            t_stop = fmin(t_stop, bp[k]);
    for (;;) {
        double h = fmin(fmin(s->h_next, s->h_ceil), DOCK_HMAX), rem = t_stop - t;
        if (h >= rem * (1 - 1e-9))
            h = rem;
        else if (h > 0.5 * rem)
            h = 0.5 * rem;   /* two halves rather than a step and a sliver */
        int rc = try_step(s, h), adj = 0;
        double hnew = h, ratio = 0;
        if (rc == HY_OK)
            adj = p->control == MECH_DOCK_CONTROL_PI
                      ? mech_ode_control_hadjust_pi(&s->ctl, &s->pi, s->stp->type->order, s->ytry, s->yerr, s->dim,
                                                    &hnew, &ratio)
                      : mech_ode_control_hadjust(&s->ctl, s->stp->type->order, s->ytry, s->yerr, s->dim, &hnew, &ratio);
        if (rc != HY_OK || adj < 0) {
            dock_revert_all(s);
            s->st.rejected++;
            s->pi.rejected = 1;
            s->h_next = rc != HY_OK ? 0.25 * h : hnew;
            if (s->h_next < DOCK_HMIN)
                return adaptive_fail(s, err, rc);
            s->fail_code = 0;
            continue;
        }
        double h0 = h;
        int ev = 0;
        s->ngap = gap_values(s, &s->ev, s->g1);
        if (p->events && dock_gap_changed(s->g0, s->g1, s->ngap) >= 0) {
            if ((rc = locate(s, &h)) != HY_OK) {
                dock_revert_all(s);
                s->st.rejected++;
                s->pi.rejected = 1;
                s->h_next = 0.25 * h0;
                if (s->h_next < DOCK_HMIN)
                    return adaptive_fail(s, err, rc);
                s->fail_code = 0;
                continue;
            }
            s->st.events++;
            ev = 1;
        }
        /* accept: the last evaluation is the new state's; commit it, its derivative is the next first stage */
        memcpy(s->y, s->ytry, s->dim * sizeof *s->y);
        memcpy(s->k1, s->kout, s->dim * sizeof *s->k1);
        s->h_next = hnew;   /* the controller's step for the step it judged (an event shortens only this one) */
        double tn = h == rem ? t_stop : t + h;
        {
            /* quaternions: renormalised (and the state evaluated again) only when their norm drifted */
            const double *q0 = s->y + s->L.base_quat, *q1 = s->y + s->L.free_pos + 3;
            double n0 = q0[0] * q0[0] + q0[1] * q0[1] + q0[2] * q0[2] + q0[3] * q0[3];
            double n1 = q1[0] * q1[0] + q1[1] * q1[1] + q1[2] * q1[2] + q1[3] * q1[3];
            int stick = dock_guides_stick(s, &s->ev, tn, s->y);
            /* a held stick whose margin the step ended at (or past): released, the solver's rules from here */
            int release = s->lim_hold && s->ev.lim_loaded && !(s->ev.lim.margin > 0);
            s->lim_from_rest = release;
            if (release) {
                /* from every pair stuck (a pair at its limit while the limiter stood still has no direction of its
                   own): the solver releases them against the force that now moves the limiter */
                s->lim_hold = 0;
                mech_dock_limiter_hold(&s->lim, 0);
                mech_dock_limiter_stick(&s->lim);
                s->ls.breakaways++;
            }
            if (stick || release || fabs(n0 - 1) > 1e-9 || fabs(n1 - 1) > 1e-9) {
                dock_renormalise(s, s->y);
                if ((rc = dock_evaluate(s, tn, s->y, s->k1, &s->ev)) != HY_OK)
                    return adaptive_fail(s, err, rc);
                s->ngap = gap_values(s, &s->ev, s->g1);
            }
        }
        /* the stiffness ceiling caps the growth only: never below the step just accepted (a switch inside a step,
           a stick/slip change or a branch change, shows as a huge rho once; the error test judged that step) */
        double rho = mech_ode_step_rho(s->stp, s->wke, s->L.npos, s->nb + 4);
        s->h_ceil = fmax(rho > 0 ? s->theta / rho : INFINITY, ev ? h0 : h);
        /* the stiffest active contact: omega = sqrt(k' / m_contact), k' its contact stiffness at the present depth.
           Always a stability ceiling theta / omega; during an impact (a pair starting to touch, for
           DOCK_IMPACT_STEPS accepted steps, about two contact periods) DOCK_THETA_IMP / omega, so its peak force,
           a sample of the accepted states, is sampled as finely as by the fixed 0.25 ms steps */
        const int ncontact = contact_gaps(s);
        int onset = 0;
        for (int j = 0; ev && j < ncontact; j++)
            onset |= s->g0[j] <= 0 && s->g1[j] > 0;
        if (onset) {   /* one window however many pairs touch at once */
            s->impact_left = DOCK_IMPACT_STEPS;
            s->st.impacts++;
        }
        double w2 = contact_omega2(s, &s->ev);
        if (w2 > 0) {
            double theta = s->impact_left > 0 ? DOCK_THETA_IMP : s->theta;
            s->h_ceil = fmin(s->h_ceil, theta / sqrt(w2));
        }
        if (s->impact_left > 0)
            s->impact_left--;
        for (int j = 0; j < ncontact; j++)   /* how deep a contact is when its first accepted state sees it */
            if (s->g0[j] <= 0 && s->g0[j] > -1 && s->g1[j] > 0)   /* -1: no feature before (a feature switch) */
                s->st.onset_depth_max = fmax(s->st.onset_depth_max, s->g1[j]);
        s->acc = s->ev;
        dock_commit_all(s, &s->acc);
        s->t = tn;
        dock_account(s, 0, 1);
        dock_guides_hold(s, &s->acc);
        s->ngap = gap_values(s, &s->acc, s->g0);
        s->steps++;
        s->substeps++;
        s->st.steps++;
        s->st.h_last = h;
        s->st.h_min = fmin(s->st.h_min, h);
        s->st.h_max = fmax(s->st.h_max, h);
        return HY_OK;
    }
}

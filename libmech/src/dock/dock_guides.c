/* Variant C's movable limiter on its guides at the accepted states of a docking run (docs/dock-process.md §8.5): the
 * committed sliding direction, the stick held through a step's stages, the stick taken when a slide stops, and the
 * fixed steps' half-released stick. The guide friction itself is solved in each evaluation (dock_eval.c,
 * limiter_guides). */
#include <math.h>
#include "dock/dock_sim_internal.h"

/* variant C: the committed sliding direction of the limiter on its guides, 0 when it is stuck. One coordinate moves
 * on both guide pairs: a pair that sticks (slip 0: the solver held its tangential acceleration at zero) holds the
 * limiter, whatever the other does (at its kinetic limit, slip +-1) */
int dock_guides_sliding(const mech_dock_sim *s)
{
    const int *sl = s->lim.data->slip_c;
    return sl[0] != 0 && sl[1] != 0 ? sl[0] : 0;
}

/* Variant C at an accepted state (e: its evaluation), for the step that starts there: a limiter stuck on loaded
 * guides with a positive stick margin is held stuck through the step's stages (mech_dock_limiter_hold), and the
 * margin is an event function. Without that, a step that starts stuck and breaks away inside finds the stick in
 * some stages and the slide in others: the error estimate on the limiter's rate rejected it 4-6 times down to
 * ~1e-5 s at every breakaway (docs/dock-process.md §8.5). Where the margin is positive the held trial and the free
 * one are the same solve, so the evaluation at the state stays valid */
void dock_guides_hold(mech_dock_sim *s, const dock_eval *e)
{
    if (!s->lim_on)
        return;
    const int *sl = s->lim.data->slip_c;
    s->lim_hold = e->lim_loaded && (sl[0] == 0 || sl[1] == 0) && e->lim.margin > 0;
    mech_dock_limiter_hold(&s->lim, s->lim_hold);
}

/* (sim, t, y) => kinetic energy of the bodies at that state (the body data are overwritten) */
static double tree_ke(mech_dock_sim *s, double t, const double *y)
{
    mech_body_set_state(s->bm, s->d, t, y);
    mech_body_kinematics(s->bm, s->d);
    return mech_body_kinetic_energy(s->bm, s->d);
}

/* Variant C at an accepted state y (e: an evaluation there): the limiter slid under a guide load and its speed
 * reached zero within the step (an event ends the step there): from here the stick hypothesis, as friction_sim.c
 * rules. The residual speed (the event's tolerance times the deceleration) is removed by an impulse on the
 * limiter's joint, which the tree answers as a whole: the velocity change is the impulse times the tree's response
 * to a unit joint force (two articulated-body passes, the velocity terms cancel in the difference), so linear and
 * angular momentum stay as they were and the kinetic energy lost (the plastic impact's) is booked as contact
 * dissipation. Returns 1 when it changed y (the caller evaluates the state again). */
int dock_guides_stick(mech_dock_sim *s, const dock_eval *e, double t, double *y)
{
    if (!s->lim_on || !e->lim_loaded)
        return 0;
    int sc = dock_guides_sliding(s);   /* the step's sliding direction (committed) */
    const size_t iqd = s->L.qd + s->jl;
    double xd = -y[iqd];
    if (sc == 0 || sc * xd > 0)
        return 0;
    const mech_body_model *bm = s->bm;
    mech_body_data *d = s->d;
    double *r0 = s->k2, *r1 = s->k3;   /* scratch: free at an accepted state (the RK4 stages are spent) */
    mech_body_set_state(bm, d, t, y);
    mech_body_kinematics(bm, d);
    double ke0 = mech_body_kinetic_energy(bm, d);
    mech_body_clear_loads(bm, d);
    mech_body_forward(bm, d);
    mech_body_state_deriv(bm, d, r0);
    d->tau[s->jl] = 1.0;
    mech_body_forward(bm, d);
    mech_body_state_deriv(bm, d, r1);
    double g = r1[iqd] - r0[iqd];   /* the joint's speed change per unit impulse: 1 / m_eff */
    if (g > 0) {
        double lambda = -y[iqd] / g;
        for (size_t i = s->L.npos; i < s->nb; i++)
            y[i] += lambda * (r1[i] - r0[i]);
    }
    y[iqd] = 0;   /* exactly */
    y[s->iq + DOCK_Q_CONTACT] += ke0 - tree_ke(s, t, y);
    mech_dock_limiter_stick(&s->lim);
    s->ls.stick_events++;
    return 1;
}

/* Fixed steps, variant C, at a step's end state: a stick on two pairs that the solver released on one pair only
 * (that pair at its limit, the other still holding the limiter at rest) is set stuck on both again. Kept, the
 * released pair's direction outlived the load that set it: when the load turned, the other pair was released the
 * other way and the limiter slid with its pairs' friction cancelling (the error-controlled driver releases the
 * whole part at its stick margin instead, dock_guides_hold; the two agree only with this) */
void dock_guides_half_stuck(mech_dock_sim *s, const dock_eval *e)
{
    if (!s->lim_on || !e->lim_loaded || !(fabs(e->lim_xd) <= 1e-9))   /* at rest to round-off (as dock_limiter.c) */
        return;
    if ((e->lim.slip[0] == 0) != (e->lim.slip[1] == 0))
        mech_dock_limiter_stick(&s->lim);
}

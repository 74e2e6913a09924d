/* The energy budget of a docking run at each accepted step of h (docs/dock.md §energy): the initial kinetic energy
 * plus the inputs (thrust, drive motors) against the kinetic energy of the vehicles and the mechanism, the elastic
 * energy of the contacts, the elements' work, the stops, brakes, magnetic brakes, damping, the contacts'
 * dissipation and what the drive holds; their difference is the residual the summary reports. */
#include <math.h>
#include "dock/dock_sim_internal.h"

/* kinetic energy of the two vehicles alone (the base def is the vehicle about the UJ) */
static double vehicles_ke(const mech_dock_sim *s)
{
    const mech_dock_params *p = &s->m->p;
    const mech_body_data *d = s->d;
    const mech_body_def *def = mech_body_model_def(s->bm);
    mech_vec3 v = d->vel[0], w = d->omega[0];
    double m = def->base.mass;
    double ke = 0.5 * m * mech_vec3_dot(v, v) + m * mech_vec3_dot(v, mech_vec3_cross(w, def->base.com)) +
                0.5 * mech_vec3_dot(w, mech_mat3_apply(def->base.inertia, w));
    int f = s->m->b.passive;
    mech_vec3 vp = d->vel[f], wp = d->omega[f];
    ke += 0.5 * p->passive.mass * mech_vec3_dot(vp, vp) +
          0.5 * (p->passive.inertia.x * wp.x * wp.x + p->passive.inertia.y * wp.y * wp.y +
                 p->passive.inertia.z * wp.z * wp.z);
    return ke;
}

void dock_energy_account(mech_dock_sim *s, int first, dock_energy *eb)
{
    const mech_dock_params *p = &s->m->p;
    const dock_eval *e = &s->acc;
    const mech_body_data *d = s->d;
    const double *y = s->y;
    mech_dock_summary *S = &s->sum;

    double ke_veh = vehicles_ke(s);
    double ke_all = mech_body_kinetic_energy(s->bm, d);
    mech_vec3 w2 = d->omega[s->m->b.housing];
    double ke_mech = ke_all - ke_veh + 0.5 * p->axial.m_eq * e->sdot * e->sdot +
                     0.5 * mech_vec3_dot(w2, mech_mat3_apply(e->lat.dI, w2));
    const double *Q = y + s->iq;
    double w_hyst = 0;
    for (int k = 0; k < MECH_DOCK_NEL; k++)
        w_hyst += s->work[k];
    double brakes = p->variant == MECH_DOCK_B ? s->brake_work : Q[DOCK_Q_BRAKES];
    double e_hyst = p->variant == MECH_DOCK_A ? w_hyst - brakes : w_hyst;   /* A: the slip is in the chain's Q dq */
    /* (the cover's spring is the element "cover": in w_hyst); the screw's stick spring is stored energy, and the
       damping quadrature, which integrates the screw friction's whole power, is the dissipation once it is taken
       out */
    double e_stops = e->ax.e_stop + e->ax.e_screw + e->lat.e_stops, e_damping = Q[DOCK_Q_DAMPING] - e->ax.e_screw;
    double e_cdiss = Q[DOCK_Q_CONTACT] - e->e_contact;
    if (first)
        s->ke0 = ke_veh + ke_mech;
    /* the drive (process runs): its motors' work is an input; its stiffness's energy, its output's kinetic
       energy and its damping are held by the drive */
    double e_drive = s->proc ? e->pr.drv.e_spring + 0.5 * p->process.drive.m_out * e->pr.w * e->pr.w +
                                   Q[DOCK_Q_DRIVE_DAMP]
                             : 0.0;
    double resid = s->ke0 + Q[DOCK_Q_THRUST] + Q[DOCK_Q_DRIVE] -
                   (ke_veh + ke_mech + e->e_contact + e_hyst + e_stops + brakes + Q[DOCK_Q_MAGNETIC] + e_damping +
                    e_cdiss + e_drive);
    S->e_initial = s->ke0;
    S->e_residual_max = fmax(S->e_residual_max, fabs(resid));
    if (s->proc) {
        s->ps.drive_work = Q[DOCK_Q_DRIVE];
        s->drive_work_max = fmax(s->drive_work_max, fabs(Q[DOCK_Q_DRIVE]));
        s->ps.e_residual_rel = S->e_residual_max / fmax(s->ke0 + s->drive_work_max, 1e-300);
    }
    *eb = (dock_energy){.ke_veh = ke_veh, .ke_mech = ke_mech, .e_hyst = e_hyst, .e_stops = e_stops, .brakes = brakes,
                        .e_damping = e_damping, .e_cdiss = e_cdiss, .e_drive = e_drive, .resid = resid};
}

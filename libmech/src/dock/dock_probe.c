/* Probe compliance (spec 001 §2.6, RP-1 §2.7): the hysteretic joint moments of torsion q3 and bending q4, q5, and
 * the tip-angle correction A_HS of the latch and sensor positions. */
#include <math.h>
#include "dock/dock_internal.h"

mech_mat3 dock_probe_ahs(double q4, double q5, double tip_factor)
{
    /* A_HS = Rz(dq5) Ry(dq4) is the PASSIVE map head -> latch coordinates (with the corrected +sin b of Ry); the
       active rotation of the latch frame in the head frame is its transpose Ry_act(dq4) Rz_act(dq5) */
    double d4 = tip_factor * sin(q4) - q4, d5 = tip_factor * sin(q5) - q5;
    return mech_mat3_mul(mech_mat3_rot(1, d4), mech_mat3_rot(2, d5));
}

int dock_law_trial(const mech_dock_law *law, hy_element *el, double q, double qdot, double scale, double *Q,
                   hy_diag *diag)
{
    double Qm = 0, k = 0;
    int rc = hy_element_trial(el, law->q_scale * q, law->q_scale * qdot, &Qm, &k, diag);
    *Q = rc == HY_OK ? law->Q_scale * law->scale * scale * Qm : 0.0;
    return rc;
}

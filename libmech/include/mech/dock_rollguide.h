/* Roll guides on the docking collars (issue 44 item 4; docs/dock-process.md §9a): n tapered pins on the active
 * collar, each entering a socket on the passive collar in the last `length` of the closing, before the planes meet.
 * A socket is a radial slot: it bounds the pin across the radius (the roll direction, and with n >= 3 the lateral
 * offset) and leaves it free along it. Its mouth is catch_half_width wide on each side and narrows linearly over
 * taper_length to the bore's clearance. The law is the slot faces' (docs/dock.md §3) at the collar: a penalty on the
 * pin's offset across the slot beyond the half-width w(d) at its insertion depth d, applied across the slot, and,
 * because the face narrows, along the passive plane's normal pushing the planes apart with the face's slope
 * |dw/dd|, so the law is work-conjugate. Frictionless, elastic with a damper on the penetration rate: no state, so
 * trial / commit / revert has nothing to keep (as the pushers, mech/dock_process.h). n = 0: off (RP-1). */
#ifndef MECH_DOCK_ROLLGUIDE_H
#define MECH_DOCK_ROLLGUIDE_H

#include "hyst/common.h"
#include "mech/math3.h"
#include "mech/dock_process_params.h"



typedef struct mech_dock_rollguide_out {
    double    force[MECH_DOCK_ROLLGUIDE_MAX];    /* the face's force across the slot on each pin, N (0: free)   */
    double    offset[MECH_DOCK_ROLLGUIDE_MAX];   /* each pin's offset across its slot, m (NaN: not inserted)    */
    double    depth[MECH_DOCK_ROLLGUIDE_MAX];    /* its insertion depth, m (<= 0: not inserted; while no pin can
                                                    be, the same bound below zero for all)                     */
    int       n_touch;                           /* pins bearing on a face                                      */
    int       n_miss;                            /* pins inserted with the offset beyond the mouth (no force)   */
    mech_vec3 f, m;                              /* on the passive vehicle: force and moment about the origin of
                                                    the active-plane frame, that frame, N and N m             */
    double    energy;                            /* elastic, J                                                  */
} mech_dock_rollguide_out;

// (params) => RP-1's: no guides (n = 0); the other values those of RP-2 (docs/rp2-parameters.md §9, §10)
void mech_dock_rollguide_params_default(mech_dock_rollguide_params *p);
// (params) => 0, or HY_EMODEL with the key named ("roll_guides.<key>")
int mech_dock_rollguide_check(const mech_dock_rollguide_params *p, hy_err *err);
// (params, pin j) => the pin's base on the active plane, active-plane frame (x towards the passive vehicle), m
mech_vec3 mech_dock_rollguide_base(const mech_dock_rollguide_params *p, int j);
// (params, the slot's half-width at insertion depth d => its slope d w / d d (<= 0)) => half-width, m
double mech_dock_rollguide_width(const mech_dock_rollguide_params *p, double d, double *dw);
/* (params, passive plane's origin o and rotation R (its axes in the active-plane frame, x its normal towards the
 * active vehicle), relative velocity v_o of the passive vehicle's point at o and its angular velocity omega, both
 * relative to the active vehicle, in the active-plane frame) => out: the loads on the passive vehicle (the active
 * one takes the opposite at the same points). Allocates nothing. */
void mech_dock_rollguide_eval(const mech_dock_rollguide_params *p, mech_vec3 o, mech_mat3 R, mech_vec3 v_o,
                              mech_vec3 omega, mech_dock_rollguide_out *out);

#endif

/* Parameters of the pendulum damper: the documented defaults (docs/pendulum.md). The "mech-pendulum" JSON file is
 * read in io/pendulum_json.c. */
#include <math.h>
#include <string.h>
#include "mech/pendulum.h"

/* The paper gives only I0 = 0.004 kg m^2 and m0 = 1.15 kg (spec 002 §3.4); the rest is chosen (docs/pendulum.md) so
 * that the pendulum's moments reach the unit's ~25 N m friction level (the spec's scale warning): a 20 kg pendulum
 * with its centre of mass 0.4 m off the axis (m g e = 78.5 N m; pendulum frequency 0.79 Hz, inside the 0-3 Hz
 * sweep), an elastic insert of 300 N m/rad. */
// (two) => default parameters
void mech_pend_params_default(mech_pend_params *p, int two)
{
    memset(p, 0, sizeof *p);
    p->I2 = 0.004;
    p->m2 = 1.15;
    p->k_torsion = 300.0;
    p->g = 9.81;
    if (!two) {
        p->n_pend = 1;
        p->pend[0] = (mech_pend_pendulum){20.0, 0.4, 0.0};
        p->I3 = 20.0 * 0.4 * 0.4 + 0.05;
    } else {
        /* two pendulums 90 degrees apart (Fig. 4b), hanging at +-45 degrees: the same gravity stiffness
         * sum m g e cos(45 deg) = 78.5 N m/rad as the single pendulum */
        p->n_pend = 2;
        p->pend[0] = (mech_pend_pendulum){14.142, 0.4, M_PI / 4};
        p->pend[1] = (mech_pend_pendulum){14.142, 0.4, -M_PI / 4};
        p->I3 = 2 * 14.142 * 0.4 * 0.4 + 0.05;
    }
}

/* Coupling of the contact set with the rigid-body module (mech/body.h): body kinematics in, loads out, and the
 * force / commit / revert callbacks of mech_body_sim (trial at every stage, commit at the accepted step). */
#include <math.h>
#include "contact/contact_internal.h"
#include "mech/body.h"

void mech_contact_eval_bodies(const mech_contact_model *m, mech_contact_data *d, const mech_body_model *bm,
                              const mech_body_data *bd)
{
    (void)bm;
    for (int j = 0; j < m->nbody; j++)
        d->bodies[j] = (mech_contact_body){bd->pos[j], bd->xmat[j], bd->xvel[j], bd->xomega[j]};
    mech_contact_eval(m, d, d->bodies);
}

void mech_contact_apply_loads(const mech_contact_model *m, mech_contact_data *d, const mech_body_model *bm,
                              mech_body_data *bd)
{
    if (d->nactive == 0) return;
    /* sum per body (moments about the body origins), then one conversion to each body's frame */
    for (int j = 0; j < m->nbody; j++) {
        d->body_force[j] = d->body_moment[j] = mech_vec3_zero();
        d->bodies[j].pos = bd->pos[j];
    }
    mech_contact_loads(m, d, d->bodies, d->body_force, d->body_moment);
    for (int j = 0; j < m->nbody; j++) {
        mech_vec3 F = d->body_force[j], M = d->body_moment[j];
        if (F.x == 0.0 && F.y == 0.0 && F.z == 0.0 && M.x == 0.0 && M.y == 0.0 && M.z == 0.0) continue;
        mech_body_apply_world_force(bm, bd, j, bd->pos[j], F);
        mech_body_apply_world_moment(bm, bd, j, M);
    }
}

int mech_contact_sim_force(const mech_body_model *bm, mech_body_data *bd, void *user, hy_err *err)
{
    mech_contact_coupling *c = user;
    const mech_contact_model *m = c->m;
    mech_contact_data *d = c->d;
    if (m->nbody > mech_body_model_nbody(bm))
        return hy_err_set(err, HY_EARG, "contact set: %d bodies, but the body model has %d", m->nbody,
                          mech_body_model_nbody(bm));
    mech_contact_eval_bodies(m, d, bm, bd);
    for (int i = 0; i < m->npair; i++) {
        const mech_contact_pair *p = &m->pair[i];
        mech_vec3 f = d->force[i];
        if (!isfinite(f.x + f.y + f.z) || isnan(d->geom[i].depth))
            return hy_err_set(err, HY_ESTATE,
                              "contact pair %d (%s): non-finite force (depth %g m): a body state is not finite or "
                              "the step is too large for the contact stiffness", i, p->name, d->geom[i].depth);
        if (p->max_depth > 0.0 && d->geom[i].depth > p->max_depth)
            return hy_err_set(err, HY_ESTATE,
                              "contact pair %d (%s): penetration %g m exceeds max_depth %g m: the bodies passed "
                              "through each other (raise the stiffness or shorten the step)", i, p->name,
                              d->geom[i].depth, p->max_depth);
    }
    mech_contact_apply_loads(m, d, bm, bd);
    return HY_OK;
}

int mech_contact_sim_commit(const mech_body_model *bm, const mech_body_data *bd, void *user, hy_err *err)
{
    (void)bm, (void)bd, (void)err;
    mech_contact_coupling *c = user;
    mech_contact_commit(c->m, c->d);
    return HY_OK;
}

void mech_contact_sim_revert(void *user)
{
    mech_contact_coupling *c = user;
    mech_contact_revert(c->m, c->d);
}

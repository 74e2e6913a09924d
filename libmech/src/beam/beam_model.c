/* Compiling the jointed-beam parameters into an immutable model (FE, then modes). */
#include <stdlib.h>
#include <string.h>
#include "beam/beam_internal.h"

int mech_beam_model_new(const mech_beam_params *p, mech_beam_model **out, hy_err *err)
{
    *out = NULL;
    mech_beam_model *m = calloc(1, sizeof *m);
    if (!m)
        return hy_err_set(err, HY_ENOMEM, "beam model: out of memory");
    m->p = *p;
    int rc = beam_fe_build(m, err);
    if (rc == HY_OK)
        rc = beam_modal_build(m, err);
    if (rc != HY_OK) {
        mech_beam_model_free(m);
        return rc;
    }
    *out = m;
    return HY_OK;
}

void mech_beam_model_free(mech_beam_model *m)
{
    if (!m)
        return;
    free(m->x_node);
    free(m->dof_w);
    free(m->elem_patch);
    free(m->Mbar);
    free(m->Mband);
    free(m->Phi);
    free(m);
}

const mech_beam_params *mech_beam_model_params(const mech_beam_model *m)
{
    return &m->p;
}

void mech_beam_model_info(const mech_beam_model *m, mech_beam_info *i)
{
    *i = (mech_beam_info){.n_elem = m->n_elem, .n_node = m->n_node, .ndof = m->ndof, .nm = m->nm, .J = m->J,
                          .k_ref = m->k_ref, .x_node = m->x_node, .omega = m->omega, .Phi = m->Phi,
                          .Mhat = m->Mhat, .Khat = m->Khat, .H = m->H, .tip = m->tip, .dphi = m->dphi,
                          .b_u = m->b_u, .f_load = m->f_load, .ortho_err = m->ortho_err};
}

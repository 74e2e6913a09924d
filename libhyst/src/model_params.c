/* Number of free parameters of a model, for the information criteria of `hyst fit all` (docs/fit-families.md):
 * pwl: every table number (q and Q of each point, k_beyond of each side); kin: the non-zero coefficients;
 * bw: k, alpha, beta, gamma, n and the non-zero degradation rates (A is a scale fixed at 1 by the fits);
 * iwan: F_S, K_T, chi, beta, k_inf for the Segalman form, 2 per element + k_inf for the discrete form;
 * clough: k, F_y, alpha and kappa when it pinches (kappa < 1). */
#include "hyst/bw.h"
#include "hyst/clough.h"
#include "hyst/iwan.h"
#include "hyst/kin.h"
#include "hyst/model.h"
#include "hyst/pwl.h"

int hy_model_nparams(const hy_model *m)
{
    switch (m->type) {
    case HY_MODEL_PWL: {
        hy_pwl_table t;
        hy_pwl_model_table(m->pwl, &t);
        const hy_pwl_side *s[2] = {&t.positive, &t.negative};
        int n = 0;
        for (int i = 0; i < 2; i++)
            n += 2 * (int)(s[i]->forward.n + s[i]->backward.n) + 1;
        return n;
    }
    case HY_MODEL_KIN: {
        const hy_kin_spec *s = hy_kin_model_spec(m->kin);
        int n = 0;
        const hy_kin_coeffs *c[2] = {&s->load, &s->unload};
        for (int k = 0; k < (s->rule == HY_KIN_TWO_SET ? 2 : 1); k++)
            for (int i = 0; i < c[k]->k; i++)
                for (int j = 0; j < c[k]->m; j++)
                    n += c[k]->C[i][j] != 0;
        return n;
    }
    case HY_MODEL_BW: {
        const hy_bw_params *p = hy_bw_model_params(m->bw);
        int np = 5 + (p->delta_A != 0) + (p->delta_nu != 0) + (p->delta_eta != 0);
        if (p->zeta_s > 0) /* pinching: lambda is a fixed coupling in the fits (docs/bw-model.md), not counted */
            np += 1 + (p->pinch_p != 0) + (p->pinch_q != 0) + (p->psi != 0) + (p->delta_psi != 0);
        return np;
    }
    case HY_MODEL_IWAN:
        return hy_iwan_model_form(m->iwan) == HY_IWAN_SEGALMAN ? 5 : 2 * hy_iwan_model_n(m->iwan) + 1;
    case HY_MODEL_CLOUGH:
        return 3 + (hy_clough_model_params(m->clough)->kappa < 1);
    default:
        return 0;
    }
}

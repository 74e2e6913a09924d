/* Linear model (spec 004 eqs. 21-24) and the LQR design of the MFC control (eq. 25).
 *   theta-state model: M_s = [[J, H], [H', Mhat]], K_s = diag(0, Khat), Z = [theta; q; theta'; q'] (the paper's);
 *   reduced flexible model (§5 (a)): with the angular momentum h = J theta' + H q' = 0 (exact in faithful mode from
 *   rest), theta' = -H q' / J eliminates theta: M_eff q'' + Khat q = b U with M_eff = Mhat - H'H / J, z = [q; q'].
 * The Riccati equation is solved by the ctrl module (SLICOT); no hand-written Riccati or eigen iteration here. */
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>
#include "beam/beam_internal.h"
#include "mech/ctrl.h"

int mech_beam_linear(const mech_beam_model *m, int design, double *A, double *B, size_t *n_state, hy_err *err)
{
    size_t nm = m->nm, n = design == MECH_BEAM_DESIGN_THETA ? nm + 1 : nm, ns = 2 * n;
    if (!m->p.mfc.enabled)
        return hy_err_set(err, HY_EMODEL, "mfc.enabled: the control needs the MFC pair (spec §5)");
    double *Ms = calloc(n * n + n * (n + 1), sizeof *Ms);
    if (!Ms)
        return hy_err_set(err, HY_ENOMEM, "linear model: out of memory");
    double *rhs = Ms + n * n;   /* n x (n + 1): [K | b] */
    size_t o = design == MECH_BEAM_DESIGN_THETA ? 1 : 0;
    if (o) {
        Ms[0] = m->J;
        for (size_t i = 0; i < nm; i++)
            Ms[i + 1] = Ms[(i + 1) * n] = m->H[i];
    }
    for (size_t i = 0; i < nm; i++)
        for (size_t j = 0; j < nm; j++) {
            Ms[(i + o) * n + j + o] = m->Mhat[i * nm + j] - (o ? 0 : m->H[i] * m->H[j] / m->J);
            rhs[(i + o) * (n + 1) + j + o] = m->Khat[i * nm + j];
        }
    for (size_t i = 0; i < nm; i++)
        rhs[(i + o) * (n + 1) + n] = m->b_u[i];
    lapack_int info = LAPACKE_dposv(LAPACK_ROW_MAJOR, 'U', (lapack_int)n, (lapack_int)(n + 1), Ms, (lapack_int)n,
                                    rhs, (lapack_int)(n + 1));
    if (info != 0) {
        free(Ms);
        return hy_err_set(err, beam_lapack_code((int)info), "linear model: the mass matrix is not positive definite (dposv %d)",
                          (int)info);
    }
    memset(A, 0, ns * ns * sizeof *A);
    memset(B, 0, ns * sizeof *B);
    for (size_t i = 0; i < n; i++) {
        A[i * ns + n + i] = 1;
        for (size_t j = 0; j < n; j++)
            A[(n + i) * ns + j] = -rhs[i * (n + 1) + j];   /* -M^-1 K; C = 0 (spec §3: no damping) */
        B[n + i] = rhs[i * (n + 1) + n];
    }
    *n_state = ns;
    free(Ms);
    return HY_OK;
}

void mech_beam_lqr_free(mech_beam_lqr *l)
{
    free(l->A);
    memset(l, 0, sizeof *l);
}

int mech_beam_lqr_design(const mech_beam_model *m, int design, double q_weight, double r_weight, mech_beam_lqr *out,
                         hy_err *err)
{
    memset(out, 0, sizeof *out);
    size_t ns = 2 * (m->nm + 1);
    double *buf = calloc(3 * ns * ns + 6 * ns, sizeof *buf);
    if (!buf)
        return hy_err_set(err, HY_ENOMEM, "LQR: out of memory");
    out->A = buf;
    out->X = buf + ns * ns;
    double *Q = out->X + ns * ns;
    out->B = Q + ns * ns;
    out->K = out->B + ns;
    out->pole_re = out->K + ns, out->pole_im = out->pole_re + ns;
    out->open_re = out->pole_im + ns, out->open_im = out->open_re + ns;
    int rc = mech_beam_linear(m, design, out->A, out->B, &out->ns, err);
    if (rc == HY_OK) {
        for (size_t i = 0; i < out->ns; i++)
            Q[i * out->ns + i] = q_weight;
        rc = mech_ctrl_poles(out->ns, out->A, out->open_re, out->open_im, err);
    }
    if (rc == HY_OK)
        rc = mech_ctrl_lqr(out->ns, 1, out->A, out->B, Q, &r_weight, out->K, out->X, out->pole_re, out->pole_im, err);
    if (rc != HY_OK)
        mech_beam_lqr_free(out);
    return rc;
}

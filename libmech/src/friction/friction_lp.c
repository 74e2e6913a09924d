/* The LP of spec 003 §2.4 with GLPK: minimize the sum of the normal-reaction magnitudes subject to the dynamics
 * equations in the reaction subspace (E2) and non-negativity. Each variant pair contributes two columns N+ and N-
 * (the signed reaction is their difference), a one-sided contact one column, which also covers the n - w + 1
 * surface kind of §2.7. A stuck contact (slip index 0) adds a free tangential force F with the row t_q . q'' = 0
 * and the two cone rows |F| <= mu_s+ N+ + mu_s- N-.
 *
 * What allocates: the GLPK problem object is created once with the data (glp_create_prob); each solve erases and
 * refills it (glp_erase_prob, glp_add_rows/cols, glp_load_matrix) and glp_simplex with the presolver builds its
 * working copy, all of which allocate inside GLPK. The index and value arrays we pass are preallocated in the data.
 * The LP is therefore the fallback and the oracle, never the per-step path (that is mech_friction_solve). */
#include <math.h>
#include <string.h>
#include <glpk.h>
#include "friction/friction_internal.h"

static double dot(const double *a, const double *b, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

// slip direction of side k of contact c: sign(v) when sliding, else the contact's slip index
static int side_slip(const mech_friction_model *m, const mech_friction_data *d, int c, int k)
{
    double v = d->v[2 * c + k];
    if (fabs(v) > m->opt.eps_v)
        return v > 0 ? 1 : -1;
    return d->slip[c];
}

int mech_friction_lp(const mech_friction_model *m, mech_friction_data *d, hy_err *err)
{
    int w = m->w, ns = m->ns, nc = m->nc, W = w + ns;
    glp_prob *lp = d->lp;
    d->method = MECH_FRICTION_LP;
    glp_erase_prob(lp);
    glp_set_obj_dir(lp, GLP_MIN);
    /* stuck contacts: those with slip 0 whose every side has |v| <= eps_v */
    int nst = 0, st_of[MECH_FRICTION_MAX_CONTACTS];
    for (int c = 0; c < nc; c++) {
        int stuck = d->slip[c] == 0;
        for (int k = 0; k < m->c[c].sides; k++)
            stuck &= side_slip(m, d, c, k) == 0;
        st_of[c] = stuck ? nst++ : -1;
    }
    int nrow = ns + 3 * nst;
    glp_add_rows(lp, nrow);
    for (int i = 0; i < ns; i++)
        glp_set_row_bnds(lp, i + 1, GLP_FX, d->dvec[i], d->dvec[i]);
    /* the tangent of a stuck contact: side chi of the warm start */
    for (int c = 0; c < nc; c++)
        if (st_of[c] >= 0) {
            int s = st_of[c], k = fr_side(d->chi[c]);
            double r = -dot(d->tvec + (size_t)(2 * c + k) * W, fr_Yf(d), w);
            glp_set_row_bnds(lp, ns + s + 1, GLP_FX, r, r);
            glp_set_row_bnds(lp, ns + nst + 2 * s + 1, GLP_UP, 0, 0);
            glp_set_row_bnds(lp, ns + nst + 2 * s + 2, GLP_UP, 0, 0);
        }
    /* columns: N of each contact side, then F of each stuck contact */
    int col_of[MECH_FRICTION_MAX_CONTACTS][2], ncol = 0, ne = 0;
    for (int c = 0; c < nc; c++)
        for (int k = 0; k < 2; k++)
            col_of[c][k] = k < m->c[c].sides ? ++ncol : 0;
    int fcol0 = ncol;
    ncol += nst;
    glp_add_cols(lp, ncol);
    for (int c = 0; c < nc; c++)
        for (int k = 0; k < m->c[c].sides; k++) {
            int j = col_of[c][k], sg = side_slip(m, d, c, k);
            double ms = m->c[c].mu[k] * sg;
            glp_set_col_bnds(lp, j, GLP_LO, 0, 0);
            glp_set_obj_coef(lp, j, 1.0);
            const double *kn = d->Kn + (size_t)(2 * c + k) * ns, *kt = d->Kt + (size_t)(2 * c + k) * ns;
            for (int i = 0; i < ns; i++) {
                double a = kn[i] - ms * kt[i];
                if (a != 0) {
                    ++ne;
                    d->lp_ia[ne] = i + 1, d->lp_ja[ne] = j, d->lp_ar[ne] = a;
                }
            }
            const double *yn = fr_Y(d, c, k, 0), *yt = fr_Y(d, c, k, 1);
            for (int cs = 0; cs < nc; cs++) {
                if (st_of[cs] < 0)
                    continue;
                int s = st_of[cs];
                const double *t = d->tvec + (size_t)(2 * cs + fr_side(d->chi[cs])) * W;
                double a = dot(t, yn, w) - ms * dot(t, yt, w);
                if (a != 0) {
                    ++ne;
                    d->lp_ia[ne] = ns + s + 1, d->lp_ja[ne] = j, d->lp_ar[ne] = a;
                }
                if (cs == c) { /* cone rows: F - mu_s N <= 0, -F - mu_s N <= 0 */
                    for (int r = 0; r < 2; r++) {
                        ++ne;
                        d->lp_ia[ne] = ns + nst + 2 * s + 1 + r, d->lp_ja[ne] = j, d->lp_ar[ne] = -m->c[c].mu_s[k];
                    }
                }
            }
        }
    for (int c = 0; c < nc; c++) {
        if (st_of[c] < 0)
            continue;
        int s = st_of[c], j = fcol0 + s + 1, k = fr_side(d->chi[c]);
        glp_set_col_bnds(lp, j, GLP_FR, 0, 0);
        const double *kt = d->Kt + (size_t)(2 * c + k) * ns, *yt = fr_Y(d, c, k, 1);
        for (int i = 0; i < ns; i++)
            if (kt[i] != 0) {
                ++ne;
                d->lp_ia[ne] = i + 1, d->lp_ja[ne] = j, d->lp_ar[ne] = kt[i];
            }
        for (int cr = 0; cr < nc; cr++) {
            if (st_of[cr] < 0)
                continue;
            const double *t = d->tvec + (size_t)(2 * cr + fr_side(d->chi[cr])) * W;
            double a = dot(t, yt, w);
            if (a != 0) {
                ++ne;
                d->lp_ia[ne] = ns + st_of[cr] + 1, d->lp_ja[ne] = j, d->lp_ar[ne] = a;
            }
        }
        ++ne;
        d->lp_ia[ne] = ns + nst + 2 * s + 1, d->lp_ja[ne] = j, d->lp_ar[ne] = 1.0;
        ++ne;
        d->lp_ia[ne] = ns + nst + 2 * s + 2, d->lp_ja[ne] = j, d->lp_ar[ne] = -1.0;
    }
    glp_load_matrix(lp, ne, d->lp_ia, d->lp_ja, d->lp_ar);
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.presolve = GLP_ON;
    /* a bound on the work: these LPs have at most a few dozen rows and take tens of iterations; GLPK's default is
     * no limit, and degenerate data (coefficients 1e300 apart) could otherwise stall a run */
    parm.it_lim = 10000;
    int rc = glp_simplex(lp, &parm);
    if (rc == GLP_EFAIL) {
        /* the presolver gives up on some degenerate problems (repeated stick rows): the plain simplex from the
         * standard basis does not */
        parm.presolve = GLP_OFF;
        glp_std_basis(lp);
        rc = glp_simplex(lp, &parm);
    }
    int st = glp_get_status(lp);
    if (rc == GLP_ENOPFS || st == GLP_NOFEAS || st == GLP_INFEAS)
        return hy_err_set(err, HY_ESTATE, "friction: the LP of the reactions is infeasible (no admissible "
                          "variant: Painlevé paradox, non-existence)");
    if (rc != 0 || st != GLP_OPT)
        return hy_err_set(err, HY_ENUMERIC, "friction: GLPK simplex failed (code %d, status %d)", rc, st);
    /* recover the variant, reactions and accelerations */
    memcpy(d->qdd, fr_Yf(d), (size_t)w * sizeof *d->qdd);
    d->lp_squeeze = 0;
    for (int c = 0; c < nc; c++) {
        double Nk[2] = {0, 0};
        for (int k = 0; k < m->c[c].sides; k++)
            Nk[k] = fmax(glp_get_col_prim(lp, col_of[c][k]), 0.0);
        if (Nk[0] > m->opt.eps_N && Nk[1] > m->opt.eps_N)
            d->lp_squeeze |= 1u << c;
        int k = Nk[1] > Nk[0] ? 1 : 0;
        d->chi[c] = k ? -1 : 1;
        d->N[c] = Nk[0] + Nk[1];
        double F = 0;
        for (int kk = 0; kk < m->c[c].sides; kk++) {
            int sg = side_slip(m, d, c, kk);
            double Fk = st_of[c] >= 0 ? 0 : -m->c[c].mu[kk] * sg * Nk[kk];
            const double *yn = fr_Y(d, c, kk, 0), *yt = fr_Y(d, c, kk, 1);
            for (int j = 0; j < w; j++)
                d->qdd[j] += Nk[kk] * yn[j] + Fk * yt[j];
            F += Fk;
        }
        if (st_of[c] >= 0) {
            F = glp_get_col_prim(lp, fcol0 + st_of[c] + 1);
            const double *yt = fr_Y(d, c, k, 1);
            for (int j = 0; j < w; j++)
                d->qdd[j] += F * yt[j];
            d->slip[c] = 0;
        } else {
            d->slip[c] = side_slip(m, d, c, k);
        }
        d->F[c] = F;
    }
    return HY_OK;
}

/* The articulated-body algorithm of spec 001 §2.4 in its generic form: full 3x3 blocks, the rotation to the parent
 * as β^T N β by matrix products, the RECONSTRUCTED shift as matrix products. This is the tested reference of
 * mech_body_aba (body_aba.c), which computes the same with the scalar shortcuts; tests/unit/test_body_aba.c checks
 * both against the composite-rigid-body reference.
 *
 * Block convention of the paper: force = M_tt v̇ + M_tr ω̇, moment = M_tr^T v̇ + M_rr ω̇ at the body origin, body
 * frame, v̇ the classical acceleration of the origin. The shift of a child's projected inertia N (already turned
 * into the parent frame by eq. 2.6) to the parent origin is the RECONSTRUCTED one of spec 001 §2.4, X^T N X with
 * X = [[1, r̃^T], [0, 1]]:
 *     ΔM_tt = N_tt,  ΔM_tr = N_tt r̃^T + N_tr,  ΔM_rr = r̃ N_tt r̃^T + r̃ N_tr + N_tr^T r̃^T + N_rr
 * (the printed ΔM_tr, ΔM_rr are garbled, spec 001 §7.1 item 7). Gravity enters as the classical trick: the whole
 * system is solved in a frame falling with g (every origin acceleration shifted by -g), which leaves the joint
 * accelerations and all interaction loads unchanged; the true accelerations are restored at the end. */
#include <math.h>
#include "body/body_internal.h"

/* FOR3(v, statements): the statements with v = 0, 1, 2 as constants (unrolled 3x3 loops, kept in registers) */
#define FOR3(v, ...)                                                                                                 \
    do {                                                                                                             \
        { const int v = 0; __VA_ARGS__ }                                                                             \
        { const int v = 1; __VA_ARGS__ }                                                                             \
        { const int v = 2; __VA_ARGS__ }                                                                             \
    } while (0)

/* (A) => A + A^T (the shift's r̃ N_tr + N_tr^T r̃^T) */
static inline mech_mat3 sym_outer_sum(mech_mat3 A)
{
    return mech_mat3_add(A, mech_mat3_transpose(A));
}

/* (symmetric A as 3x3) => its inverse by the adjugate and the determinant (0 when not positive definite enough) */
static inline double sym_inverse(const mech_mat3 *A, double Ai[3][3])
{
    double a00 = A->m[0][0], a01 = 0.5 * (A->m[0][1] + A->m[1][0]), a02 = 0.5 * (A->m[0][2] + A->m[2][0]);
    double a11 = A->m[1][1], a12 = 0.5 * (A->m[1][2] + A->m[2][1]), a22 = A->m[2][2];
    double c00 = a11 * a22 - a12 * a12, c01 = a02 * a12 - a01 * a22, c02 = a01 * a12 - a02 * a11;
    double c11 = a00 * a22 - a02 * a02, c12 = a01 * a02 - a00 * a12, c22 = a00 * a11 - a01 * a01;
    double det = a00 * c00 + a01 * c01 + a02 * c02, scale = fmax(fmax(a00, a11), a22);
    if (!(det > 1e-14 * scale * scale * scale))
        return 0.0;
    double k = 1.0 / det;
    Ai[0][0] = k * c00; Ai[0][1] = Ai[1][0] = k * c01; Ai[0][2] = Ai[2][0] = k * c02;
    Ai[1][1] = k * c11; Ai[1][2] = Ai[2][1] = k * c12; Ai[2][2] = k * c22;
    return det;
}

// [[A, B], [B^T, C]] [a; al] = [f; mo] (the root's symmetric positive definite 6x6 articulated inertia) by block
// elimination with closed-form 3x3 inverses (adjugates): S = C - B^T A^-1 B, al = S^-1 (mo - B^T A^-1 f),
// a = A^-1 (f - B al). The factors (A, B, C) => A^-1, A^-1 B, S^-1, 0 when singular:
int mech_body_factor6(const mech_mat3 *A, const mech_mat3 *B, const mech_mat3 *C, double Ai[3][3], double AiB[3][3],
                      double Si[3][3])
{
    if (sym_inverse(A, Ai) == 0.0)
        return 0;
    FOR3(r, FOR3(c, AiB[r][c] = Ai[r][0] * B->m[0][c] + Ai[r][1] * B->m[1][c] + Ai[r][2] * B->m[2][c];););
    mech_mat3 S;
    FOR3(r, FOR3(c, if (c >= r) {
        double x = C->m[r][c] - (B->m[0][r] * AiB[0][c] + B->m[1][r] * AiB[1][c] + B->m[2][r] * AiB[2][c]);
        S.m[r][c] = x;
        S.m[c][r] = x;
    }););
    return sym_inverse(&S, Si) != 0.0;
}

// the solve with them (f, mo) => [a; al]:
void mech_body_solve6_factored(const double Ai[3][3], const double AiB[3][3], const double Si[3][3],
                               const mech_mat3 *B, mech_vec3 f, mech_vec3 mo, mech_vec3 *a, mech_vec3 *al)
{
    double Aif[3], rhs[3], x[3];
    const double fv[3] = {f.x, f.y, f.z}, mv[3] = {mo.x, mo.y, mo.z};
    FOR3(r, Aif[r] = Ai[r][0] * fv[0] + Ai[r][1] * fv[1] + Ai[r][2] * fv[2];);
    FOR3(r, rhs[r] = mv[r] - (B->m[0][r] * Aif[0] + B->m[1][r] * Aif[1] + B->m[2][r] * Aif[2]););
    FOR3(r, x[r] = Si[r][0] * rhs[0] + Si[r][1] * rhs[1] + Si[r][2] * rhs[2];);
    *al = mech_vec3_make(x[0], x[1], x[2]);
    *a = mech_vec3_make(Aif[0] - (AiB[0][0] * x[0] + AiB[0][1] * x[1] + AiB[0][2] * x[2]),
                        Aif[1] - (AiB[1][0] * x[0] + AiB[1][1] * x[1] + AiB[1][2] * x[2]),
                        Aif[2] - (AiB[2][0] * x[0] + AiB[2][1] * x[1] + AiB[2][2] * x[2]));
}

// both in a row (0 when singular)
int mech_body_solve6(const mech_mat3 *A, const mech_mat3 *B, const mech_mat3 *C, mech_vec3 f, mech_vec3 mo,
                     mech_vec3 *a, mech_vec3 *al)
{
    double Ai[3][3], AiB[3][3], Si[3][3];
    if (!mech_body_factor6(A, B, C, Ai, AiB, Si))
        return 0;
    mech_body_solve6_factored(Ai, AiB, Si, B, f, mo, a, al);
    return 1;
}

/* (pass 2 done for the tree bodies, children's shares C of the root) => the root's articulated inertia and bias
 * (d->Mtt[0].. fsum[0]..), its acceleration (floating: the 6x6 solve; prescribed: given) in the falling frame in
 * acc[0] (true acceleration - g, restored after pass 3 by mech_body_gravity_fix), alpha[0], and the base reaction.
 * 0 when the floating root is singular. */
int mech_body_root(const mech_body_model *m, mech_body_data *d, const mech_mat3 *pCtt, const mech_mat3 *pCtr,
                   const mech_mat3 *pCrr, mech_vec3 Cf, mech_vec3 Cm)
{
    const mech_mat3 *Ctt = pCtt, *Ctr = pCtr, *Crr = pCrr;
    /* ---- the root: its articulated inertia collects the tree's */
    FOR3(r, FOR3(c, d->Mtt[0].m[r][c] += Ctt->m[r][c]; d->Mtr[0].m[r][c] += Ctr->m[r][c];
                    d->Mrr[0].m[r][c] += Crr->m[r][c];););
    d->fsum[0] = mech_vec3_add(d->fsum[0], Cf);
    d->msum[0] = mech_vec3_add(d->msum[0], Cm);
    mech_vec3 a0, al0; /* a0: base origin acceleration in the falling frame (true acceleration - g) */
    if (m->floating) {
        /* factored once: mech_body_aba_unit solves with the same articulated inertia again */
        if (!mech_body_factor6(&d->Mtt[0], &d->Mtr[0], &d->Mrr[0], d->root_Ai, d->root_AiB, d->root_Si))
            return 0;
        mech_body_solve6_factored(d->root_Ai, d->root_AiB, d->root_Si, &d->Mtr[0], d->fsum[0], d->msum[0], &a0, &al0);
    } else {
        mech_vec3 g0 = m->has_gravity ? mech_mat3_tapply(d->xmat[0], m->def.gravity) : mech_vec3_zero();
        a0 = mech_vec3_sub(d->base_acc_in, g0);
        al0 = d->base_alpha_in;
    }
    d->acc[0] = a0;
    d->alpha[0] = al0;
    /* load of the tree on the base: the children's bias minus their inertia times the base motion */
    const double av[3] = {a0.x, a0.y, a0.z}, lv[3] = {al0.x, al0.y, al0.z};
    double F[3], M[3];
    FOR3(r, F[r] = Ctt->m[r][0] * av[0] + Ctt->m[r][1] * av[1] + Ctt->m[r][2] * av[2] + Ctr->m[r][0] * lv[0] +
                   Ctr->m[r][1] * lv[1] + Ctr->m[r][2] * lv[2];
         M[r] = Ctr->m[0][r] * av[0] + Ctr->m[1][r] * av[1] + Ctr->m[2][r] * av[2] + Crr->m[r][0] * lv[0] +
                Crr->m[r][1] * lv[1] + Crr->m[r][2] * lv[2];);
    d->base_force = mech_vec3_make(Cf.x - F[0], Cf.y - F[1], Cf.z - F[2]);
    d->base_moment = mech_vec3_make(Cm.x - M[0], Cm.y - M[1], Cm.z - M[2]);
    return 1;
}

// (after pass 3 in the falling frame) => true accelerations: every origin acceleration + R^T g
void mech_body_gravity_fix(const mech_body_model *m, mech_body_data *d)
{
    if (m->has_gravity)
        for (int j = 0; j <= m->n; j++)
            d->acc[j] = mech_vec3_add(d->acc[j], mech_mat3_tapply(d->xmat[j], m->def.gravity));
}

// (kinematics, loads) => passes 2 and 3 with full 3x3 blocks and matrix products throughout: the tested reference
// form of mech_body_aba (which uses the scalar shortcuts), same outputs
int mech_body_aba_generic(const mech_body_model *m, mech_body_data *d)
{
    const int n = m->n;
    /* ---- pass 2 initialisation: rigid-body inertia and velocity-product bias of every body (spec 001 §2.4) */
    for (int j = 0; j <= n; j++) {
        double mj = m->mass[j];
        mech_vec3 c = m->c[j], w = d->omega[j];
        d->Mtt[j] = mech_mat3_diag(mj, mj, mj);
        d->Mtr[j] = mech_mat3_skew(mech_vec3_neg(c)); /* c̃^T */
        d->Mrr[j] = m->inertia[j];
        d->fsum[j] = mech_vec3_sub(d->f_ext[j], mech_vec3_cross(w, mech_vec3_cross(w, c)));
        d->msum[j] = mech_vec3_sub(d->m_ext[j], mech_vec3_cross(w, mech_mat3_apply(m->inertia[j], w)));
    }
    int hb = m->def.hook_body;
    if (hb > 0) {
        d->Mrr[hb] = mech_mat3_add(d->Mrr[hb], d->hook_inertia);
        d->fsum[hb] = mech_vec3_add(d->fsum[hb], d->hook_force);
        d->msum[hb] = mech_vec3_add(d->msum[hb], d->hook_moment);
    }
    /* the root's own terms, kept apart so that the base reaction is the children's share only */
    mech_mat3 Ctt = mech_mat3_zero(), Ctr = mech_mat3_zero(), Crr = mech_mat3_zero();
    mech_vec3 Cf = mech_vec3_zero(), Cm = mech_vec3_zero();

    /* ---- pass 2: leaves -> root */
    for (int j = n; j >= 1; j--) {
        int i = m->axis[j], p = m->parent[j];
        mech_mat3 Mtt = d->Mtt[j], Mtr = d->Mtr[j], Mrr = d->Mrr[j];
        mech_vec3 f = d->fsum[j], mo = d->msum[j];
        mech_vec3 Ut, Ur; /* the joint column of M^Σ: [M_tr R; M_rr R] or [M_tt T; M_tr^T T] */
        double D, Dscale, drive;
        if (m->type[j] == MECH_BODY_REVOLUTE) {
            Ut = mech_mat3_col(Mtr, i);
            Ur = mech_mat3_col(Mrr, i);
            D = Mrr.m[i][i];
            Dscale = Mrr.m[0][0] + Mrr.m[1][1] + Mrr.m[2][2];
            drive = mech_vec3_get(mo, i);
        } else {
            Ut = mech_mat3_col(Mtt, i);
            Ur = mech_mat3_row(Mtr, i);
            D = Mtt.m[i][i];
            Dscale = Mtt.m[0][0] + Mtt.m[1][1] + Mtt.m[2][2];
            drive = mech_vec3_get(f, i);
        }
        /* a joint that carries (almost) nothing about its axis: e.g. a massless body moved only by a child joint
         * on the same axis; the ratio is configuration-independent in such cases, so the model check finds it */
        if (!(D > 1e-12 * Dscale) || !isfinite(D)) {
            d->Dinv[j - 1] = INFINITY;
            return HY_ENUMERIC;
        }
        double Di = 1.0 / D;
        d->Dinv[j - 1] = Di;
        d->Ut[j] = Ut;
        d->Ur[j] = Ur;
        double aJ = Di * (d->tau[j - 1] + drive); /* eq. 2.7a/b */
        d->aJ[j - 1] = aJ;
        /* articulated (projected) inertia, eqs. 2.5a/b: N = M^Σ - U D^-1 U^T */
        mech_mat3 Ntt = mech_mat3_sub(Mtt, mech_mat3_scale(mech_mat3_outer(Ut, Ut), Di));
        mech_mat3 Ntr = mech_mat3_sub(Mtr, mech_mat3_scale(mech_mat3_outer(Ut, Ur), Di));
        mech_mat3 Nrr = mech_mat3_sub(Mrr, mech_mat3_scale(mech_mat3_outer(Ur, Ur), Di));
        /* transmitted bias, eq. 2.7: n = N [w; ε] + U a_J - [f; m] */
        mech_vec3 w = d->w[j], e = d->eps[j];
        mech_vec3 nt = mech_vec3_sub(mech_vec3_axpy(mech_vec3_add(mech_mat3_apply(Ntt, w), mech_mat3_apply(Ntr, e)),
                                                    aJ, Ut), f);
        mech_vec3 nr = mech_vec3_sub(mech_vec3_axpy(mech_vec3_add(mech_mat3_tapply(Ntr, w), mech_mat3_apply(Nrr, e)),
                                                    aJ, Ur), mo);
        /* to the parent frame, eq. 2.6: N^(p) = β^T N β */
        mech_mat3 Ptt, Ptr, Prr;
        mech_vec3 df, dm;
        mech_mat3 b = d->beta[j];
        Ptt = mech_mat3_tcongruence(b, Ntt);
        Ptr = mech_mat3_tcongruence(b, Ntr);
        Prr = mech_mat3_tcongruence(b, Nrr);
        df = mech_vec3_neg(mech_mat3_tapply(b, nt));
        dm = mech_vec3_neg(mech_mat3_tapply(b, nr));
        /* shift to the parent origin (the reconstruction) */
        mech_vec3 r = d->r[j];
        mech_mat3 rt = mech_mat3_skew(r);
        mech_mat3 N1R = mech_mat3_mult(Ptt, rt);             /* N_tt r̃^T */
        mech_mat3 dMtr = mech_mat3_add(N1R, Ptr);
        mech_mat3 dMrr = mech_mat3_add(mech_mat3_add(mech_mat3_mul(rt, N1R), sym_outer_sum(mech_mat3_mul(rt, Ptr))),
                                       Prr);
        dm = mech_vec3_add(dm, mech_vec3_cross(r, df));
        if (p == 0) {
            Ctt = mech_mat3_add(Ctt, Ptt);
            Ctr = mech_mat3_add(Ctr, dMtr);
            Crr = mech_mat3_add(Crr, dMrr);
            Cf = mech_vec3_add(Cf, df);
            Cm = mech_vec3_add(Cm, dm);
        } else {
            d->Mtt[p] = mech_mat3_add(d->Mtt[p], Ptt);
            d->Mtr[p] = mech_mat3_add(d->Mtr[p], dMtr);
            d->Mrr[p] = mech_mat3_add(d->Mrr[p], dMrr);
            d->fsum[p] = mech_vec3_add(d->fsum[p], df);
            d->msum[p] = mech_vec3_add(d->msum[p], dm);
        }
    }
    if (!mech_body_root(m, d, &Ctt, &Ctr, &Crr, Cf, Cm))
        return HY_ENUMERIC;

    /* ---- pass 3: root -> leaves (eq. 2.8); acc[] holds the falling-frame accelerations until the end */
    for (int j = 1; j <= n; j++) {
        int i = m->axis[j], p = m->parent[j];
        mech_vec3 ap = d->acc[p], alp = d->alpha[p], r = d->r[j];
        mech_vec3 vtr, wtr;
        vtr = mech_mat3_apply(d->beta[j], mech_vec3_add(ap, mech_vec3_cross(alp, r)));
        wtr = mech_mat3_apply(d->beta[j], alp);
        vtr = mech_vec3_add(vtr, d->w[j]);
        wtr = mech_vec3_add(wtr, d->eps[j]);
        double qdd = d->aJ[j - 1] - d->Dinv[j - 1] * (mech_vec3_dot(d->Ut[j], vtr) + mech_vec3_dot(d->Ur[j], wtr));
        d->qdd[j - 1] = qdd;
        mech_vec3 e = mech_vec3_unit(i);
        if (m->type[j] == MECH_BODY_REVOLUTE)
            wtr = mech_vec3_axpy(wtr, qdd, e);
        else
            vtr = mech_vec3_axpy(vtr, qdd, e);
        d->acc[j] = vtr;
        d->alpha[j] = wtr;
    }
    mech_body_gravity_fix(m, d);
    return HY_OK;
}


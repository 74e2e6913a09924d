/* Articulated-body algorithm of spec 001 §2.4 on a floating or prescribed base (passes 2 and 3; pass 1 is
 * mech_body_kinematics), free rigid bodies (Newton-Euler), and the state derivative of the integrator.
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

/* (A) => A + A^T (the shift's r̃ N_tr + N_tr^T r̃^T) */
static inline mech_mat3 sym_outer_sum(mech_mat3 A)
{
    return mech_mat3_add(A, mech_mat3_transpose(A));
}

/* (A, axis k, c = cos q, s = sin q) => α^T A α for α = mech_mat3_alpha(k, q): the similarity transform of spec
 * 001 §2.5 with the cyclic m = k+1, n = m+1 (general A; its errata vA3 -> vA4 applied) */
static inline mech_mat3 rot_t(mech_mat3 A, int k, double c, double s)
{
    int m = (k + 1) % 3, n = (k + 2) % 3;
    double vT1 = c * c, vT2 = s * s, vT3 = s * c;
    double vA3 = vT3 * (A.m[m][n] + A.m[n][m]), vA4 = vT3 * (A.m[m][m] - A.m[n][n]);
    mech_mat3 R;
    R.m[k][k] = A.m[k][k];
    R.m[k][m] = c * A.m[k][m] - s * A.m[k][n];
    R.m[k][n] = c * A.m[k][n] + s * A.m[k][m];
    R.m[m][k] = c * A.m[m][k] - s * A.m[n][k];
    R.m[n][k] = c * A.m[n][k] + s * A.m[m][k];
    R.m[m][m] = vT1 * A.m[m][m] + vT2 * A.m[n][n] - vA3;
    R.m[m][n] = vT1 * A.m[m][n] - vT2 * A.m[n][m] + vA4;
    R.m[n][m] = vT1 * A.m[n][m] - vT2 * A.m[m][n] + vA4;
    R.m[n][n] = vT1 * A.m[n][n] + vT2 * A.m[m][m] + vA3;
    return R;
}

// (A, B, C, f, mo) => [a; al] solving [[A, B], [B^T, C]] [a; al] = [f; mo] by block elimination with 3x3
// inverses (the root's 6x6 articulated inertia, symmetric positive definite); 0 when singular
int mech_body_solve6(const mech_mat3 *A, const mech_mat3 *B, const mech_mat3 *C, mech_vec3 f, mech_vec3 mo,
                     mech_vec3 *a, mech_vec3 *al)
{
    double detA = mech_mat3_det(*A), sA = mech_mat3_maxabs(*A);
    if (!(detA > 1e-14 * sA * sA * sA))
        return 0;
    mech_mat3 Ai = mech_mat3_inverse(*A, detA);
    mech_mat3 AiB = mech_mat3_mul(Ai, *B);
    mech_mat3 S = mech_mat3_sub(*C, mech_mat3_tmul(*B, AiB)); /* Schur complement C - B^T A^-1 B */
    double detS = mech_mat3_det(S), sS = mech_mat3_maxabs(S);
    if (!(detS > 1e-14 * sS * sS * sS) || !(sS > 1e-14 * mech_mat3_maxabs(*C)))
        return 0;
    mech_vec3 Aif = mech_mat3_apply(Ai, f);
    *al = mech_mat3_apply(mech_mat3_inverse(S, detS), mech_vec3_sub(mo, mech_mat3_tapply(*B, Aif)));
    *a = mech_vec3_sub(Aif, mech_mat3_apply(AiB, *al));
    return 1;
}

// (kinematics, loads) => passes 2 and 3
int mech_body_aba(const mech_body_model *m, mech_body_data *d)
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
        if (m->type[j] == MECH_BODY_REVOLUTE && m->mount_identity[j]) {
            double qj = d->q[j - 1], c = cos(qj), s = sin(qj);
            Ptt = rot_t(Ntt, i, c, s);
            Prr = rot_t(Nrr, i, c, s);
            Ptr = rot_t(Ntr, i, c, s);
            df = mech_vec3_neg(mech_vec3_alpha_t(i, c, s, nt));
            dm = mech_vec3_neg(mech_vec3_alpha_t(i, c, s, nr));
        } else {
            mech_mat3 b = d->beta[j];
            Ptt = mech_mat3_tcongruence(b, Ntt);
            Ptr = mech_mat3_tcongruence(b, Ntr);
            Prr = mech_mat3_tcongruence(b, Nrr);
            df = mech_vec3_neg(mech_mat3_tapply(b, nt));
            dm = mech_vec3_neg(mech_mat3_tapply(b, nr));
        }
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
    /* ---- the root: its articulated inertia collects the tree's */
    mech_vec3 own_f = d->fsum[0], own_m = d->msum[0];
    d->Mtt[0] = mech_mat3_add(d->Mtt[0], Ctt);
    d->Mtr[0] = mech_mat3_add(d->Mtr[0], Ctr);
    d->Mrr[0] = mech_mat3_add(d->Mrr[0], Crr);
    d->fsum[0] = mech_vec3_add(own_f, Cf);
    d->msum[0] = mech_vec3_add(own_m, Cm);
    mech_vec3 g0 = m->has_gravity ? mech_mat3_tapply(d->xmat[0], m->def.gravity) : mech_vec3_zero();
    mech_vec3 a0, al0; /* a0: base origin acceleration in the falling frame (true acceleration - g) */
    if (m->floating) {
        if (!mech_body_solve6(&d->Mtt[0], &d->Mtr[0], &d->Mrr[0], d->fsum[0], d->msum[0], &a0, &al0))
            return HY_ENUMERIC;
    } else {
        a0 = mech_vec3_sub(d->base_acc_in, g0);
        al0 = d->base_alpha_in;
    }
    d->acc[0] = mech_vec3_add(a0, g0);
    d->alpha[0] = al0;
    /* load of the tree on the base: the children's bias minus their inertia times the base motion */
    d->base_force = mech_vec3_sub(Cf, mech_vec3_add(mech_mat3_apply(Ctt, a0), mech_mat3_apply(Ctr, al0)));
    d->base_moment = mech_vec3_sub(Cm, mech_vec3_add(mech_mat3_tapply(Ctr, a0), mech_mat3_apply(Crr, al0)));

    /* ---- pass 3: root -> leaves (eq. 2.8); acc[] holds the falling-frame accelerations until the end */
    d->acc[0] = a0;
    for (int j = 1; j <= n; j++) {
        int i = m->axis[j], p = m->parent[j];
        mech_vec3 ap = d->acc[p], alp = d->alpha[p], r = d->r[j];
        mech_vec3 vtr, wtr;
        if (m->type[j] == MECH_BODY_REVOLUTE && m->mount_identity[j]) {
            double qj = d->q[j - 1], c = cos(qj), s = sin(qj);
            vtr = mech_vec3_alpha(i, c, s, mech_vec3_add(ap, mech_vec3_cross(alp, r)));
            wtr = mech_vec3_alpha(i, c, s, alp);
        } else {
            vtr = mech_mat3_apply(d->beta[j], mech_vec3_add(ap, mech_vec3_cross(alp, r)));
            wtr = mech_mat3_apply(d->beta[j], alp);
        }
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
    if (m->has_gravity)
        for (int j = 0; j <= n; j++)
            d->acc[j] = mech_vec3_add(d->acc[j], mech_mat3_tapply(d->xmat[j], m->def.gravity));
    return HY_OK;
}

// (free-body state, loads) => body-frame accelerations: a = f/m + R^T g, I ω̇ = m - ω × I ω (about the CoM)
void mech_body_free_dynamics(const mech_body_model *m, mech_body_data *d)
{
    for (int id = m->n + 1; id < m->nb; id++) {
        mech_vec3 w = d->omega[id];
        mech_vec3 a = mech_vec3_scale(d->f_ext[id], 1.0 / m->mass[id]);
        if (m->has_gravity)
            a = mech_vec3_add(a, mech_mat3_tapply(d->xmat[id], m->def.gravity));
        d->acc[id] = a;
        mech_vec3 rhs = mech_vec3_sub(d->m_ext[id], mech_vec3_cross(w, mech_mat3_apply(m->inertia[id], w)));
        d->alpha[id] = mech_mat3_apply(m->inertia_inv[id], rhs);
    }
}

// kinematics done => aba + free bodies
int mech_body_forward(const mech_body_model *m, mech_body_data *d)
{
    int rc = mech_body_aba(m, d);
    mech_body_free_dynamics(m, d);
    return rc;
}

static void put3(double *y, mech_vec3 v)
{
    y[0] = v.x;
    y[1] = v.y;
    y[2] = v.z;
}

// (data after forward) => dy/dt
void mech_body_state_deriv(const mech_body_model *m, const mech_body_data *d, double dy[])
{
    const mech_body_layout *L = &m->layout;
    put3(dy + L->base_pos, d->xvel[0]);
    mech_quat qd = mech_quat_deriv(d->quat[0], d->omega[0]);
    dy[L->base_quat] = qd.w;
    dy[L->base_quat + 1] = qd.x;
    dy[L->base_quat + 2] = qd.y;
    dy[L->base_quat + 3] = qd.z;
    /* body-frame components of the base velocity: d/dt v^(b) = a^(b) - ω × v^(b) */
    put3(dy + L->base_vel, mech_vec3_sub(d->acc[0], mech_vec3_cross(d->omega[0], d->vel[0])));
    put3(dy + L->base_omega, d->alpha[0]);
    for (int j = 0; j < m->n; j++) {
        dy[L->q + (size_t)j] = d->qd[j];
        dy[L->qd + (size_t)j] = d->qdd[j];
    }
    for (int k = 0; k < m->nf; k++) {
        int id = m->n + 1 + k;
        double *p = dy + L->free_pos + 7 * (size_t)k, *v = dy + L->free_vel + 6 * (size_t)k;
        put3(p, d->xvel[id]);
        mech_quat q = mech_quat_deriv(d->quat[id], d->omega[id]);
        p[3] = q.w;
        p[4] = q.x;
        p[5] = q.y;
        p[6] = q.z;
        put3(v, mech_mat3_apply(d->xmat[id], d->acc[id]));
        put3(v + 3, d->alpha[id]);
    }
}

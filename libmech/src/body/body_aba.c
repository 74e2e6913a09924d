/* The articulated-body algorithm of spec 001 §2.4, passes 2 and 3 (pass 1 is mech_body_kinematics), on a floating
 * or prescribed base, in the fast form: the same equations as the generic form (body_aba_generic.c, full 3x3
 * products, the tested reference; see its header for the block convention, the RECONSTRUCTED shift and the
 * gravity trick) with the shortcuts the paper recommends (spec 001 §2.4 "code-generation advice", §2.5):
 *  - the rotation to the parent β^T N β of a revolute joint with γ = 1₃ is the scalar similarity transform of
 *    §2.5 on the cached cos q, sin q (about 20 flops per block instead of 54);
 *  - the shift is skipped when r = 0 (joints at their parent's origin: bodies 1, 2, 4, 5 of the spec chain) and
 *    otherwise written with cross products (r × rows, r × columns) instead of products with r̃;
 *  - the projected inertia, the bias and the shift work on plain arrays, in place.
 * tests/unit/test_body_aba.c checks this form against the generic one and both against CRBA + RNE. Free bodies
 * (Newton-Euler) and the state derivative of the integrator are here too. */
#include <math.h>
#include "body/body_internal.h"

/* FOR3(v, statements): the statements three times with v = 0, 1, 2 as constants. The 3x3 block loops of the
 * hot path are unrolled by hand so that -O2 keeps the blocks in registers (measured 1.3x faster than rolled). */
#define FOR3(v, ...)                                                                                                 \
    do {                                                                                                             \
        { const int v = 0; __VA_ARGS__ }                                                                             \
        { const int v = 1; __VA_ARGS__ }                                                                             \
        { const int v = 2; __VA_ARGS__ }                                                                             \
    } while (0)

/* (A, axis k, c = cos q, s = sin q) => α^T A α for α = mech_mat3_alpha(k, q): the similarity transform of spec
 * 001 §2.5 with the cyclic m = k+1, n = m+1 (general A; its errata vA3 -> vA4 applied) */
static inline __attribute__((always_inline)) mech_mat3 rot_t(mech_mat3 A, int k, double c, double s)
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

/* (vector r, A) => B with rows r × (row a of A): B = A r̃^T */
static inline void rows_cross(mech_vec3 r, const mech_mat3 *A, mech_mat3 *B)
{
    FOR3(a, double x = A->m[a][0], y = A->m[a][1], z = A->m[a][2];
         B->m[a][0] = r.y * z - r.z * y;
         B->m[a][1] = r.z * x - r.x * z;
         B->m[a][2] = r.x * y - r.y * x;);
}
/* (vector r, A) => B with columns r × (column b of A): B = r̃ A */
static inline void cols_cross(mech_vec3 r, const mech_mat3 *A, mech_mat3 *B)
{
    FOR3(b, double x = A->m[0][b], y = A->m[1][b], z = A->m[2][b];
         B->m[0][b] = r.y * z - r.z * y;
         B->m[1][b] = r.z * x - r.x * z;
         B->m[2][b] = r.x * y - r.y * x;);
}
static inline void add_to(mech_mat3 *A, const mech_mat3 *B)
{
    FOR3(a, FOR3(b, A->m[a][b] += B->m[a][b];););
}

/* Shift of a child's projected inertia P = (N_tt, N_tr, N_rr) and transmitted force to the parent origin, the
 * reconstruction of spec 001 §2.4 (X^T N X, X = [[1, r̃^T], [0, 1]]): ΔM_tr = N_tt r̃^T + N_tr,
 * ΔM_rr = r̃ (N_tt r̃^T) + r̃ N_tr + (r̃ N_tr)^T + N_rr, Δm += r × Δf. Used by both pass-2 forms. */
static inline __attribute__((always_inline)) void shift_to_parent(mech_vec3 r, mech_mat3 P[3], mech_vec3 df, mech_vec3 *dm)
{
    mech_mat3 N1R, A, B;
    rows_cross(r, &P[0], &N1R);
    cols_cross(r, &N1R, &A);
    cols_cross(r, &P[1], &B);
    FOR3(a, FOR3(b, P[2].m[a][b] += A.m[a][b] + B.m[a][b] + B.m[b][a];
                    P[1].m[a][b] += N1R.m[a][b];););
    *dm = mech_vec3_add(*dm, mech_vec3_cross(r, df));
}

/* Pass 2 for body j whose joint axis is i: projection (eq. 2.5), transmitted bias (eq. 2.7), rotation to the
 * parent (eq. 2.6) and the reconstructed shift, added to the parent (or to the root's share C, Cf, Cm). Inlined
 * once per axis value, so that every index into the 3x3 blocks is a constant. HY_ENUMERIC when I* or m* is not
 * positive. */
static inline __attribute__((always_inline)) int pass2_body(const mech_body_model *m, mech_body_data *d, int j,
                                                            const int i, mech_mat3 C[3], mech_vec3 *Cf, mech_vec3 *Cm)
{
    const int p = m->parent[j], revolute = m->type[j] == MECH_BODY_REVOLUTE;
    mech_mat3 *Mtt = &d->Mtt[j], *Mtr = &d->Mtr[j], *Mrr = &d->Mrr[j];
    double Ut[3], Ur[3], D, Dscale, drive;
    if (revolute) {
        FOR3(a, Ut[a] = Mtr->m[a][i]; Ur[a] = Mrr->m[a][i];);
        D = Mrr->m[i][i];
        Dscale = Mrr->m[0][0] + Mrr->m[1][1] + Mrr->m[2][2];
        drive = mech_vec3_get(d->msum[j], i);
    } else {
        FOR3(a, Ut[a] = Mtt->m[a][i]; Ur[a] = Mtr->m[i][a];);
        D = Mtt->m[i][i];
        Dscale = Mtt->m[0][0] + Mtt->m[1][1] + Mtt->m[2][2];
        drive = mech_vec3_get(d->fsum[j], i);
    }
    if (!(D > 1e-12 * Dscale) || !isfinite(D)) {
        d->Dinv[j - 1] = INFINITY;
        return HY_ENUMERIC;
    }
    const double Di = 1.0 / D, aJ = Di * (d->tau[j - 1] + drive); /* eq. 2.7a/b */
    d->Dinv[j - 1] = Di;
    d->aJ[j - 1] = aJ;
    d->Ut[j] = mech_vec3_make(Ut[0], Ut[1], Ut[2]);
    d->Ur[j] = mech_vec3_make(Ur[0], Ur[1], Ur[2]);
    /* projected inertia N = M^Σ - U D^-1 U^T (eqs. 2.5a/b), in place */
    mech_mat3 Ntt, Ntr, Nrr;
    FOR3(a, double ta = Di * Ut[a], ra = Di * Ur[a];
         FOR3(b, Ntt.m[a][b] = Mtt->m[a][b] - ta * Ut[b];
              Ntr.m[a][b] = Mtr->m[a][b] - ta * Ur[b];
              Nrr.m[a][b] = Mrr->m[a][b] - ra * Ur[b];););
    /* transmitted bias n = N [w; ε] + U a_J - [f; m] (eq. 2.7) */
    const double w[3] = {d->w[j].x, d->w[j].y, d->w[j].z}, e[3] = {d->eps[j].x, d->eps[j].y, d->eps[j].z};
    const double f[3] = {d->fsum[j].x, d->fsum[j].y, d->fsum[j].z};
    const double mo[3] = {d->msum[j].x, d->msum[j].y, d->msum[j].z};
    double nt[3], nr[3];
    FOR3(a, double st = aJ * Ut[a] - f[a]; double sr = aJ * Ur[a] - mo[a];
         FOR3(b, st += Ntt.m[a][b] * w[b] + Ntr.m[a][b] * e[b];
              sr += Ntr.m[b][a] * w[b] + Nrr.m[a][b] * e[b];);
         nt[a] = st; nr[a] = sr;);
    /* to the parent frame (eq. 2.6) */
    mech_mat3 P[3];
    mech_vec3 df, dm;
    mech_vec3 ntv = mech_vec3_make(nt[0], nt[1], nt[2]), nrv = mech_vec3_make(nr[0], nr[1], nr[2]);
    if (revolute && m->mount_identity[j]) {
        double c = d->cosq[j - 1], s = d->sinq[j - 1];
        P[0] = rot_t(Ntt, i, c, s);
        P[1] = rot_t(Ntr, i, c, s);
        P[2] = rot_t(Nrr, i, c, s);
        df = mech_vec3_alpha_t(i, c, s, ntv);
        dm = mech_vec3_alpha_t(i, c, s, nrv);
    } else if (!revolute && m->mount_identity[j]) {
        P[0] = Ntt;
        P[1] = Ntr;
        P[2] = Nrr;
        df = ntv;
        dm = nrv;
    } else {
        const mech_mat3 *b = &d->beta[j];
        P[0] = mech_mat3_tcongruence(*b, Ntt);
        P[1] = mech_mat3_tcongruence(*b, Ntr);
        P[2] = mech_mat3_tcongruence(*b, Nrr);
        df = mech_mat3_tapply(*b, ntv);
        dm = mech_mat3_tapply(*b, nrv);
    }
    df = mech_vec3_neg(df);
    dm = mech_vec3_neg(dm);
    mech_vec3 r = d->r[j]; /* shift to the parent origin (skipped when the joint sits at it) */
    if (r.x != 0.0 || r.y != 0.0 || r.z != 0.0)
        shift_to_parent(r, P, df, &dm);
    if (p == 0) {
        add_to(&C[0], &P[0]);
        add_to(&C[1], &P[1]);
        add_to(&C[2], &P[2]);
        *Cf = mech_vec3_add(*Cf, df);
        *Cm = mech_vec3_add(*Cm, dm);
    } else {
        add_to(&d->Mtt[p], &P[0]);
        add_to(&d->Mtr[p], &P[1]);
        add_to(&d->Mrr[p], &P[2]);
        d->fsum[p] = mech_vec3_add(d->fsum[p], df);
        d->msum[p] = mech_vec3_add(d->msum[p], dm);
    }
    return HY_OK;
}

/* Pass 2 for a revolute joint about axis k with γ = 1₃ (every joint of the spec chain), with the zero structure
 * the projection leaves: N_rr has row and column k zero (only its (m, n) block remains), N_tr has column k zero,
 * N_tt and N_rr are symmetric. The rotation back is the §2.5 similarity transform written for that structure,
 * the shift (r ≠ 0 only) the cross-product form. Same results as pass2_body to round-off (tested). */
static inline __attribute__((always_inline)) int pass2_revolute(const mech_body_model *m, mech_body_data *d, int j,
                                                                const int k, mech_mat3 C[3], mech_vec3 *Cf,
                                                                mech_vec3 *Cm)
{
    const int mm = (k + 1) % 3, nn = (k + 2) % 3, p = m->parent[j];
    const mech_mat3 *Mtt = &d->Mtt[j], *Mtr = &d->Mtr[j], *Mrr = &d->Mrr[j];
    double Ut[3], Ur[3];
    FOR3(a, Ut[a] = Mtr->m[a][k]; Ur[a] = Mrr->m[a][k];);
    const double D = Mrr->m[k][k];
    if (!(D > 1e-12 * (Mrr->m[0][0] + Mrr->m[1][1] + Mrr->m[2][2])) || !isfinite(D)) {
        d->Dinv[j - 1] = INFINITY;
        return HY_ENUMERIC;
    }
    const double f[3] = {d->fsum[j].x, d->fsum[j].y, d->fsum[j].z};
    const double mo[3] = {d->msum[j].x, d->msum[j].y, d->msum[j].z};
    const double Di = 1.0 / D, aJ = Di * (d->tau[j - 1] + mo[k]);
    d->Dinv[j - 1] = Di;
    d->aJ[j - 1] = aJ;
    d->Ut[j] = mech_vec3_make(Ut[0], Ut[1], Ut[2]);
    d->Ur[j] = mech_vec3_make(Ur[0], Ur[1], Ur[2]);
    /* N = M - U D^-1 U^T with its structure: Ntt symmetric (upper part), Ntr columns m, n, Nrr the (m, n) block */
    double Ntt[3][3], Ntr[3][3], r_mm, r_mn, r_nn;
    FOR3(a, const double ta = Di * Ut[a]; FOR3(b, if (b >= a) Ntt[a][b] = Mtt->m[a][b] - ta * Ut[b];);
         Ntr[a][mm] = Mtr->m[a][mm] - ta * Ur[mm]; Ntr[a][nn] = Mtr->m[a][nn] - ta * Ur[nn];);
    Ntt[1][0] = Ntt[0][1];
    Ntt[2][0] = Ntt[0][2];
    Ntt[2][1] = Ntt[1][2];
    r_mm = Mrr->m[mm][mm] - Di * Ur[mm] * Ur[mm];
    r_mn = Mrr->m[mm][nn] - Di * Ur[mm] * Ur[nn];
    r_nn = Mrr->m[nn][nn] - Di * Ur[nn] * Ur[nn];
    /* n = N [w; ε] + U a_J - [f; m] (eq. 2.7); ε has no k component (ε = ω_p × e_k q̇) */
    const double w[3] = {d->w[j].x, d->w[j].y, d->w[j].z}, e[3] = {d->eps[j].x, d->eps[j].y, d->eps[j].z};
    double nt[3], nr[3];
    FOR3(a, nt[a] = aJ * Ut[a] - f[a] + Ntt[a][0] * w[0] + Ntt[a][1] * w[1] + Ntt[a][2] * w[2] +
                    Ntr[a][mm] * e[mm] + Ntr[a][nn] * e[nn];);
    nr[k] = aJ * Ur[k] - mo[k]; /* N_tr column k and N_rr row k are zero */
    nr[mm] = aJ * Ur[mm] - mo[mm] + Ntr[0][mm] * w[0] + Ntr[1][mm] * w[1] + Ntr[2][mm] * w[2] + r_mm * e[mm] +
             r_mn * e[nn];
    nr[nn] = aJ * Ur[nn] - mo[nn] + Ntr[0][nn] * w[0] + Ntr[1][nn] * w[1] + Ntr[2][nn] * w[2] + r_mn * e[mm] +
             r_nn * e[nn];
    /* to the parent frame: α^T N α (spec 001 §2.5 with vT1 = c², vT2 = s², vT3 = s c) */
    const double c = d->cosq[j - 1], s = d->sinq[j - 1], c2 = c * c, s2 = s * s, cs = c * s;
    mech_mat3 P[3];
    /* tt: symmetric */
    {
        double a_km = Ntt[k][mm], a_kn = Ntt[k][nn], a_mm = Ntt[mm][mm], a_nn = Ntt[nn][nn], a_mn = Ntt[mm][nn];
        double R_km = c * a_km - s * a_kn, R_kn = c * a_kn + s * a_km;
        double R_mm = c2 * a_mm + s2 * a_nn - 2.0 * cs * a_mn, R_nn = c2 * a_nn + s2 * a_mm + 2.0 * cs * a_mn;
        double R_mn = (c2 - s2) * a_mn + cs * (a_mm - a_nn);
        P[0].m[k][k] = Ntt[k][k];
        P[0].m[k][mm] = P[0].m[mm][k] = R_km;
        P[0].m[k][nn] = P[0].m[nn][k] = R_kn;
        P[0].m[mm][mm] = R_mm;
        P[0].m[nn][nn] = R_nn;
        P[0].m[mm][nn] = P[0].m[nn][mm] = R_mn;
    }
    /* tr: column k zero */
    {
        double a_km = Ntr[k][mm], a_kn = Ntr[k][nn], a_mm = Ntr[mm][mm], a_mn = Ntr[mm][nn], a_nm = Ntr[nn][mm],
               a_nn = Ntr[nn][nn];
        P[1].m[k][k] = P[1].m[mm][k] = P[1].m[nn][k] = 0.0;
        P[1].m[k][mm] = c * a_km - s * a_kn;
        P[1].m[k][nn] = c * a_kn + s * a_km;
        P[1].m[mm][mm] = c2 * a_mm + s2 * a_nn - cs * (a_mn + a_nm);
        P[1].m[mm][nn] = c2 * a_mn - s2 * a_nm + cs * (a_mm - a_nn);
        P[1].m[nn][mm] = c2 * a_nm - s2 * a_mn + cs * (a_mm - a_nn);
        P[1].m[nn][nn] = c2 * a_nn + s2 * a_mm + cs * (a_mn + a_nm);
    }
    /* rr: the (m, n) block only */
    {
        P[2] = mech_mat3_zero();
        P[2].m[mm][mm] = c2 * r_mm + s2 * r_nn - 2.0 * cs * r_mn;
        P[2].m[nn][nn] = c2 * r_nn + s2 * r_mm + 2.0 * cs * r_mn;
        P[2].m[mm][nn] = P[2].m[nn][mm] = (c2 - s2) * r_mn + cs * (r_mm - r_nn);
    }
    mech_vec3 df = mech_vec3_neg(mech_vec3_alpha_t(k, c, s, mech_vec3_make(nt[0], nt[1], nt[2])));
    mech_vec3 dm = mech_vec3_neg(mech_vec3_alpha_t(k, c, s, mech_vec3_make(nr[0], nr[1], nr[2])));
    if (!m->r_zero[j]) {
        mech_vec3 r = d->r[j];
        shift_to_parent(r, P, df, &dm);
        if (p == 0) {
            add_to(&C[0], &P[0]);
            add_to(&C[1], &P[1]);
            add_to(&C[2], &P[2]);
        } else {
            add_to(&d->Mtt[p], &P[0]);
            add_to(&d->Mtr[p], &P[1]);
            add_to(&d->Mrr[p], &P[2]);
        }
    } else {
        /* no shift: add only what is not structurally zero */
        mech_mat3 *Ptt = p == 0 ? &C[0] : &d->Mtt[p], *Ptr = p == 0 ? &C[1] : &d->Mtr[p],
                  *Prr = p == 0 ? &C[2] : &d->Mrr[p];
        add_to(Ptt, &P[0]);
        FOR3(a, Ptr->m[a][mm] += P[1].m[a][mm]; Ptr->m[a][nn] += P[1].m[a][nn];);
        Prr->m[mm][mm] += P[2].m[mm][mm];
        Prr->m[mm][nn] += P[2].m[mm][nn];
        Prr->m[nn][mm] += P[2].m[nn][mm];
        Prr->m[nn][nn] += P[2].m[nn][nn];
    }
    if (p == 0) {
        *Cf = mech_vec3_add(*Cf, df);
        *Cm = mech_vec3_add(*Cm, dm);
    } else {
        d->fsum[p] = mech_vec3_add(d->fsum[p], df);
        d->msum[p] = mech_vec3_add(d->msum[p], dm);
    }
    return HY_OK;
}

/* (body j with joint axis i, two vectors in its parent's frame) => the same in body j's frame: β_j, as α on the
 * cached cos q, sin q for a revolute joint with γ = 1₃, nothing for a prismatic one with γ = 1₃ (pass 3) */
static inline __attribute__((always_inline)) void to_body(const mech_body_model *m, const mech_body_data *d, int j,
                                                          int i, mech_vec3 *u, mech_vec3 *v)
{
    if (!m->mount_identity[j]) {
        *u = mech_mat3_apply(d->beta[j], *u);
        *v = mech_mat3_apply(d->beta[j], *v);
    } else if (m->type[j] == MECH_BODY_REVOLUTE) {
        *u = mech_vec3_alpha(i, d->cosq[j - 1], d->sinq[j - 1], *u);
        *v = mech_vec3_alpha(i, d->cosq[j - 1], d->sinq[j - 1], *v);
    }
}

/* (body j with joint axis i, two vectors in its frame) => the same in its parent's frame: β_j^T (pass 2's vectors) */
static inline __attribute__((always_inline)) void to_parent(const mech_body_model *m, const mech_body_data *d, int j,
                                                            int i, mech_vec3 *u, mech_vec3 *v)
{
    if (!m->mount_identity[j]) {
        *u = mech_mat3_tapply(d->beta[j], *u);
        *v = mech_mat3_tapply(d->beta[j], *v);
    } else if (m->type[j] == MECH_BODY_REVOLUTE) {
        *u = mech_vec3_alpha_t(i, d->cosq[j - 1], d->sinq[j - 1], *u);
        *v = mech_vec3_alpha_t(i, d->cosq[j - 1], d->sinq[j - 1], *v);
    }
}

/* Pass 3 for body j with joint axis i (eq. 2.8), falling-frame accelerations */
static inline void pass3_body(const mech_body_model *m, mech_body_data *d, int j,
                                                             const int i)
{
    const int p = m->parent[j], revolute = m->type[j] == MECH_BODY_REVOLUTE;
    mech_vec3 wtr = d->alpha[p], vtr = d->acc[p];
    if (!m->r_zero[j])
        vtr = mech_vec3_add(vtr, mech_vec3_cross(wtr, d->r[j]));
    to_body(m, d, j, i, &vtr, &wtr);
    vtr = mech_vec3_add(vtr, d->w[j]);
    wtr = mech_vec3_add(wtr, d->eps[j]);
    double qdd = d->aJ[j - 1] - d->Dinv[j - 1] * (mech_vec3_dot(d->Ut[j], vtr) + mech_vec3_dot(d->Ur[j], wtr));
    d->qdd[j - 1] = qdd;
    const mech_vec3 e = mech_vec3_make(i == 0 ? qdd : 0.0, i == 1 ? qdd : 0.0, i == 2 ? qdd : 0.0);
    if (revolute)
        wtr = mech_vec3_add(wtr, e);
    else
        vtr = mech_vec3_add(vtr, e);
    d->acc[j] = vtr;
    d->alpha[j] = wtr;
}

// (kinematics, loads) => passes 2 and 3 (fast form)
int mech_body_aba(const mech_body_model *m, mech_body_data *d)
{
    const int n = m->n;
    /* ---- pass 2 initialisation: rigid-body inertia and velocity-product bias of every body */
    for (int j = 0; j <= n; j++) {
        double mj = m->mass[j];
        if (m->massless[j]) { /* fictitious body: only its loads */
            d->Mtt[j] = d->Mtr[j] = d->Mrr[j] = mech_mat3_zero();
            d->fsum[j] = d->f_ext[j];
            d->msum[j] = d->m_ext[j];
            continue;
        }
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
    mech_mat3 C[3] = {mech_mat3_zero(), mech_mat3_zero(), mech_mat3_zero()}; /* the root's children: tt, tr, rr */
    mech_vec3 Cf = mech_vec3_zero(), Cm = mech_vec3_zero();

    /* ---- pass 2: leaves -> root */
    for (int j = n; j >= 1; j--) {
        int rc;
        if (m->type[j] == MECH_BODY_REVOLUTE && m->mount_identity[j])
            rc = m->axis[j] == 0 ? pass2_revolute(m, d, j, 0, C, &Cf, &Cm)
               : m->axis[j] == 1 ? pass2_revolute(m, d, j, 1, C, &Cf, &Cm)
                                 : pass2_revolute(m, d, j, 2, C, &Cf, &Cm);
        else
            rc = m->axis[j] == 0 ? pass2_body(m, d, j, 0, C, &Cf, &Cm)
               : m->axis[j] == 1 ? pass2_body(m, d, j, 1, C, &Cf, &Cm)
                                 : pass2_body(m, d, j, 2, C, &Cf, &Cm);
        if (rc != HY_OK)
            return rc;
    }
    if (!mech_body_root(m, d, &C[0], &C[1], &C[2], Cf, Cm))
        return HY_ENUMERIC;

    /* ---- pass 3: root -> leaves (eq. 2.8), falling-frame accelerations */
    for (int j = 1; j <= n; j++) {
        pass3_body(m, d, j, m->axis[j]);
    }
    mech_body_gravity_fix(m, d);
    return HY_OK;
}

/* The response to a unit joint force (mech/body.h): the same passes with every velocity term, gravity and load zero
 * but tau[j] = 1, on the articulated inertias of the last mech_body_aba. Pass 2 carries a bias only along the path
 * from joint j to the root (elsewhere a_J = 0); its a_J is kept in dqdd until pass 3 overwrites it, the bias
 * carried up in dacc / dalpha of the next body on the path (both overwritten by pass 3, which runs after). */
int mech_body_aba_unit(const mech_body_model *m, mech_body_data *d, int j)
{
    const int n = m->n;
    for (int i = 0; i <= n; i++)
        d->dacc[i] = d->dalpha[i] = mech_vec3_zero();
    for (int i = 0; i < n; i++)
        d->dqdd[i] = 0.0;
    /* ---- pass 2 along the path: bias (f, m) of body b from its child on the path; a_J = D^-1 (tau + drive) */
    mech_vec3 Cf = mech_vec3_zero(), Cm = mech_vec3_zero();
    double tau = 1.0;
    for (int b = j + 1; b >= 1; b = m->parent[b]) {
        const int i = m->axis[b], revolute = m->type[b] == MECH_BODY_REVOLUTE;
        const mech_vec3 f = d->dacc[b], mo = d->dalpha[b];
        const double aJ = d->Dinv[b - 1] * (tau + mech_vec3_get(revolute ? mo : f, i));
        tau = 0.0;
        d->dqdd[b - 1] = aJ;
        mech_vec3 df = mech_vec3_sub(mech_vec3_scale(d->Ut[b], aJ), f);   /* eq. 2.7 with w = eps = 0 */
        mech_vec3 dm = mech_vec3_sub(mech_vec3_scale(d->Ur[b], aJ), mo);
        to_parent(m, d, b, i, &df, &dm);
        df = mech_vec3_neg(df);
        dm = mech_vec3_neg(dm);
        if (!m->r_zero[b])
            dm = mech_vec3_add(dm, mech_vec3_cross(d->r[b], df));
        const int p = m->parent[b];
        if (p == 0) {
            Cf = df;
            Cm = dm;
        } else {
            d->dacc[p] = df;
            d->dalpha[p] = dm;
        }
    }
    /* ---- the root: floating, the 6x6 solve with the articulated inertia the last pass left in entry 0; its
       reaction changes by the base's own rigid inertia times its acceleration change (base_force = M_0 a_0 - f_0
       by the root's equation); prescribed, the base does not move and the reaction takes the whole bias */
    mech_vec3 a0 = mech_vec3_zero(), al0 = mech_vec3_zero();
    if (m->floating) {
        /* the factors mech_body_root made of the same articulated inertia (mech_body_aba just ran) */
        mech_body_solve6_factored(d->root_Ai, d->root_AiB, d->root_Si, &d->Mtr[0], Cf, Cm, &a0, &al0);
        if (m->massless[0]) {
            d->dbase_force = d->dbase_moment = mech_vec3_zero();
        } else {
            mech_vec3 c = m->c[0];   /* its first moment m d: M_0 = [[m 1, c~^T], [c~, I_0]] */
            d->dbase_force = mech_vec3_add(mech_vec3_scale(a0, m->mass[0]), mech_vec3_cross(al0, c));
            d->dbase_moment = mech_vec3_add(mech_vec3_cross(c, a0), mech_mat3_apply(m->inertia[0], al0));
        }
    } else {
        d->dbase_force = Cf;
        d->dbase_moment = Cm;
    }
    d->dacc[0] = a0;
    d->dalpha[0] = al0;
    /* ---- pass 3 (eq. 2.8) without velocity terms */
    for (int b = 1; b <= n; b++) {
        const int p = m->parent[b], i = m->axis[b], revolute = m->type[b] == MECH_BODY_REVOLUTE;
        mech_vec3 wtr = d->dalpha[p], vtr = d->dacc[p];
        if (!m->r_zero[b])
            vtr = mech_vec3_add(vtr, mech_vec3_cross(wtr, d->r[b]));
        to_body(m, d, b, i, &vtr, &wtr);
        double qdd = d->dqdd[b - 1] - d->Dinv[b - 1] * (mech_vec3_dot(d->Ut[b], vtr) + mech_vec3_dot(d->Ur[b], wtr));
        d->dqdd[b - 1] = qdd;
        if (revolute)
            wtr = mech_vec3_add(wtr, mech_vec3_scale(mech_vec3_unit(i), qdd));
        else
            vtr = mech_vec3_add(vtr, mech_vec3_scale(mech_vec3_unit(i), qdd));
        d->dacc[b] = vtr;
        d->dalpha[b] = wtr;
    }
    return HY_OK;
}

void mech_body_aba_add_unit(const mech_body_model *m, mech_body_data *d, int j, double f)
{
    d->tau[j] += f;
    for (int i = 0; i <= m->n; i++) {
        d->acc[i] = mech_vec3_axpy(d->acc[i], f, d->dacc[i]);
        d->alpha[i] = mech_vec3_axpy(d->alpha[i], f, d->dalpha[i]);
    }
    for (int i = 0; i < m->n; i++)
        d->qdd[i] += f * d->dqdd[i];
    d->base_force = mech_vec3_axpy(d->base_force, f, d->dbase_force);
    d->base_moment = mech_vec3_axpy(d->base_moment, f, d->dbase_moment);
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

/* Independent reference for the articulated-body algorithm (test oracle, allocates): the joint-space mass matrix
 * by the composite-rigid-body method and the bias by recursive Newton-Euler, both in the WORLD frame with spatial
 * quantities about the world origin (the ABA works in body frames with the paper's 3x3 blocks), solved with
 * LAPACK. Shared with the ABA: only the world poses of the kinematics stage (xmat, pos). MuJoCo's
 * mj_compareFwdInv plays the same role there (docs/body.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "body/body_internal.h"
#include "hyst/linalg.h"

/* Spatial inertia about the world origin, motion vectors [ω; v_O] (v_O: velocity of the body point at the
 * origin): I_O = [[I_c + m c̃ c̃^T, m c̃], [m c̃^T, m 1]] with c the world CoM, I_c the world inertia about it. */
typedef struct { double a[6][6]; } sp_inertia;

static void sp_add(sp_inertia *A, const sp_inertia *B)
{
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            A->a[i][j] += B->a[i][j];
}

// (model, data, id) => world CoM and the world inertia about it
static void world_mass(const mech_body_model *m, const mech_body_data *d, int id, mech_vec3 *c, mech_mat3 *Ic)
{
    mech_vec3 dcom = m->com[id];
    double mass = m->mass[id], dd = mech_vec3_dot(dcom, dcom);
    mech_mat3 Ib = m->inertia[id];
    if (id <= m->n) /* about the origin -> about the CoM (parallel axes) */
        Ib = mech_mat3_sub(Ib, mech_mat3_scale(mech_mat3_sub(mech_mat3_scale(mech_mat3_identity(), dd),
                                                             mech_mat3_outer(dcom, dcom)), mass));
    *c = mech_vec3_add(d->pos[id], mech_mat3_apply(d->xmat[id], dcom));
    *Ic = mech_mat3_congruence(d->xmat[id], Ib); /* R I R^T */
}

static sp_inertia sp_of(const mech_body_model *m, const mech_body_data *d, int id)
{
    mech_vec3 c;
    mech_mat3 Ic;
    world_mass(m, d, id, &c, &Ic);
    double mass = m->mass[id];
    mech_mat3 C = mech_mat3_skew(c);
    mech_mat3 top = mech_mat3_add(Ic, mech_mat3_scale(mech_mat3_mult(C, C), mass)); /* I_c + m c̃ c̃^T */
    sp_inertia S;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            S.a[i][j] = top.m[i][j];
            S.a[i][3 + j] = mass * C.m[i][j];
            S.a[3 + i][j] = mass * C.m[j][i];
            S.a[3 + i][3 + j] = i == j ? mass : 0.0;
        }
    return S;
}

/* Motion subspace columns: the base has 6 (x = [acc (3, base frame), alpha (3, base frame)]), joint j one. */
static void base_col(const mech_body_data *d, int k, double s[6])
{
    mech_vec3 e = mech_mat3_col(d->xmat[0], k % 3), z = mech_vec3_zero(), top, bot;
    if (k < 3) {
        top = z;
        bot = e;
    } else {
        top = e;
        bot = mech_vec3_cross(d->pos[0], e); /* rotation about an axis through the base origin */
    }
    s[0] = top.x; s[1] = top.y; s[2] = top.z; s[3] = bot.x; s[4] = bot.y; s[5] = bot.z;
}
static void joint_col(const mech_body_model *m, const mech_body_data *d, int j, double s[6])
{
    mech_vec3 u = mech_mat3_col(d->xmat[j], m->axis[j]), top, bot;
    if (m->type[j] == MECH_BODY_REVOLUTE) {
        top = u;
        bot = mech_vec3_cross(d->pos[j], u);
    } else {
        top = mech_vec3_zero();
        bot = u;
    }
    s[0] = top.x; s[1] = top.y; s[2] = top.z; s[3] = bot.x; s[4] = bot.y; s[5] = bot.z;
}

static double dot6(const double a[6], const double b[6])
{
    double x = 0;
    for (int i = 0; i < 6; i++)
        x += a[i] * b[i];
    return x;
}

// (after kinematics) => H by the composite-rigid-body method
int mech_body_crba(const mech_body_model *m, const mech_body_data *d, double *H, hy_err *err)
{
    int n = m->n, nb0 = m->floating ? 6 : 0, N = nb0 + n;
    sp_inertia *Ic = malloc((size_t)(n + 1) * sizeof *Ic);
    if (!Ic)
        return hy_err_set(err, HY_ENOMEM, "body reference: out of memory");
    for (int j = 0; j <= n; j++)
        Ic[j] = sp_of(m, d, j);
    if (m->def.hook_body > 0) { /* the hook's ΔI acts like a massless rotational inertia of its body */
        int j = m->def.hook_body;
        mech_mat3 Hw = mech_mat3_congruence(d->xmat[j], d->hook_inertia);
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                Ic[j].a[r][c] += Hw.m[r][c];
    }
    for (int j = n; j >= 1; j--) /* composite inertia of each subtree */
        sp_add(&Ic[m->parent[j]], &Ic[j]);
    memset(H, 0, (size_t)N * (size_t)N * sizeof *H);
    /* column of DOF b on body j: F = I^c_j S_b; row a for every DOF of j and its ancestors: H_ab = S_a . F */
    for (int j = (m->floating ? 0 : 1); j <= n; j++) {
        int ndof = j == 0 ? 6 : 1;
        for (int kb = 0; kb < ndof; kb++) {
            double sb[6], F[6];
            int b = j == 0 ? kb : nb0 + j - 1;
            if (j == 0)
                base_col(d, kb, sb);
            else
                joint_col(m, d, j, sb);
            for (int r = 0; r < 6; r++)
                F[r] = dot6(Ic[j].a[r], sb);
            for (int k = j; k >= 0; k = k == 0 ? -1 : m->parent[k]) {
                if (k == 0 && !m->floating)
                    break;
                int ka_n = k == 0 ? 6 : 1;
                for (int ka = 0; ka < ka_n; ka++) {
                    double sa[6];
                    int a = k == 0 ? ka : nb0 + k - 1;
                    if (k == 0)
                        base_col(d, ka, sa);
                    else
                        joint_col(m, d, k, sa);
                    double h = dot6(sa, F);
                    H[(size_t)a * (size_t)N + (size_t)b] = h;
                    H[(size_t)b * (size_t)N + (size_t)a] = h;
                }
            }
        }
    }
    free(Ic);
    return HY_OK;
}

/* (after kinematics, loads, base acceleration a0/al0 in the base frame) => generalized forces the motion with
 * these base accelerations and qdd = 0 needs beyond the applied loads (world-frame Newton-Euler). */
static int rne_with(const mech_body_model *m, const mech_body_data *d, mech_vec3 a0b, mech_vec3 al0b, double *C,
                    hy_err *err)
{
    int n = m->n, nb0 = m->floating ? 6 : 0;
    mech_vec3 *w = malloc((size_t)(n + 1) * 6 * sizeof *w);
    if (!w)
        return hy_err_set(err, HY_ENOMEM, "body reference: out of memory");
    mech_vec3 *v = w + (n + 1), *a = v + (n + 1), *al = a + (n + 1), *F = al + (n + 1), *M = F + (n + 1);
    mech_mat3 R0 = d->xmat[0];
    /* base: velocities from its state, world frame */
    w[0] = mech_mat3_apply(R0, d->omega[0]);
    v[0] = mech_mat3_apply(R0, d->vel[0]);
    a[0] = mech_mat3_apply(R0, a0b);
    al[0] = mech_mat3_apply(R0, al0b);
    for (int j = 1; j <= n; j++) {
        int p = m->parent[j];
        mech_vec3 u = mech_mat3_col(d->xmat[j], m->axis[j]), r = mech_vec3_sub(d->pos[j], d->pos[p]);
        double qd = d->qd[j - 1];
        mech_vec3 wr = mech_vec3_cross(w[p], r);
        v[j] = mech_vec3_add(v[p], wr);
        a[j] = mech_vec3_add(mech_vec3_add(a[p], mech_vec3_cross(al[p], r)), mech_vec3_cross(w[p], wr));
        if (m->type[j] == MECH_BODY_REVOLUTE) {
            w[j] = mech_vec3_axpy(w[p], qd, u);
            al[j] = mech_vec3_axpy(al[p], qd, mech_vec3_cross(w[p], u));
        } else {
            w[j] = w[p];
            al[j] = al[p];
            v[j] = mech_vec3_axpy(v[j], qd, u);
            a[j] = mech_vec3_axpy(a[j], 2.0 * qd, mech_vec3_cross(w[p], u));
        }
    }
    /* each body's net wrench about the world origin beyond its applied loads */
    for (int j = 0; j <= n; j++) {
        mech_vec3 c;
        mech_mat3 Icw;
        world_mass(m, d, j, &c, &Icw);
        mech_vec3 dc = mech_vec3_sub(c, d->pos[j]);
        mech_vec3 ac = mech_vec3_add(mech_vec3_add(a[j], mech_vec3_cross(al[j], dc)),
                                     mech_vec3_cross(w[j], mech_vec3_cross(w[j], dc)));
        mech_vec3 Fext = mech_mat3_apply(d->xmat[j], d->f_ext[j]);
        mech_vec3 Mext_O = mech_mat3_apply(d->xmat[j], d->m_ext[j]); /* about the body origin */
        if (j == m->def.hook_body && j > 0) {
            /* the hook's inertia acts on the angular acceleration, its loads as applied loads */
            mech_mat3 Hw = mech_mat3_congruence(d->xmat[j], d->hook_inertia);
            Mext_O = mech_vec3_sub(mech_vec3_add(Mext_O, mech_mat3_apply(d->xmat[j], d->hook_moment)),
                                   mech_mat3_apply(Hw, al[j]));
            Fext = mech_vec3_add(Fext, mech_mat3_apply(d->xmat[j], d->hook_force));
        }
        mech_vec3 Fg = mech_vec3_scale(m->def.gravity, m->mass[j]);
        F[j] = mech_vec3_sub(mech_vec3_scale(ac, m->mass[j]), mech_vec3_add(Fext, Fg));
        mech_vec3 Nc = mech_vec3_add(mech_mat3_apply(Icw, al[j]), mech_vec3_cross(w[j], mech_mat3_apply(Icw, w[j])));
        /* applied moment about the world origin: M_O + p_O × F_ext; gravity: c × m g */
        mech_vec3 Mapp = mech_vec3_add(mech_vec3_add(Mext_O, mech_vec3_cross(d->pos[j], Fext)), mech_vec3_cross(c, Fg));
        M[j] = mech_vec3_sub(mech_vec3_add(Nc, mech_vec3_cross(c, mech_vec3_scale(ac, m->mass[j]))), Mapp);
    }
    for (int j = n; j >= 1; j--) {
        int p = m->parent[j];
        F[p] = mech_vec3_add(F[p], F[j]);
        M[p] = mech_vec3_add(M[p], M[j]);
    }
    for (int j = 1; j <= n; j++) {
        double s[6], wr[6] = {M[j].x, M[j].y, M[j].z, F[j].x, F[j].y, F[j].z};
        joint_col(m, d, j, s);
        C[nb0 + j - 1] = dot6(s, wr);
    }
    if (m->floating)
        for (int k = 0; k < 6; k++) {
            double s[6], wr[6] = {M[0].x, M[0].y, M[0].z, F[0].x, F[0].y, F[0].z};
            base_col(d, k, s);
            C[k] = dot6(s, wr);
        }
    free(w);
    return HY_OK;
}

// (after kinematics, loads) => C with x = 0
int mech_body_rne(const mech_body_model *m, const mech_body_data *d, double *C, hy_err *err)
{
    return rne_with(m, d, mech_vec3_zero(), mech_vec3_zero(), C, err);
}

// (after kinematics, loads) => x solving H x = tau - C (LAPACK)
int mech_body_forward_reference(const mech_body_model *m, const mech_body_data *d, double *x, hy_err *err)
{
    int n = m->n, N = (m->floating ? 6 : 0) + n;
    if (N == 0)
        return HY_OK;
    double *H = malloc(((size_t)N * (size_t)N + (size_t)N) * sizeof *H);
    if (!H)
        return hy_err_set(err, HY_ENOMEM, "body reference: out of memory");
    double *b = H + (size_t)N * (size_t)N;
    int rc = mech_body_crba(m, d, H, err);
    /* prescribed base: the given base motion moves into the bias (rne with the base acceleration) */
    if (rc == HY_OK)
        rc = m->floating ? rne_with(m, d, mech_vec3_zero(), mech_vec3_zero(), b, err)
                         : rne_with(m, d, d->base_acc_in, d->base_alpha_in, b, err);
    if (rc == HY_OK) {
        for (int k = 0; k < N; k++)
            b[k] = -b[k];
        for (int j = 0; j < n; j++)
            b[N - n + j] += d->tau[j];
        rc = hy_solve_spd(H, (size_t)N, b, x, err);
    }
    free(H);
    return rc;
}

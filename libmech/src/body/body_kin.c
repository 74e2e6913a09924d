/* Kinematics stage of the body module (spec 001 §2.4 pass 1, plus world poses and velocities), state packing,
 * loads, the helpers force callbacks use, and the invariants (energy, momentum). */
#include <math.h>
#include <string.h>
#include "body/body_internal.h"

// (t, y) => state fields of the data
void mech_body_set_state(const mech_body_model *m, mech_body_data *d, double t, const double y[])
{
    const mech_body_layout *L = &m->layout;
    d->t = t;
    d->pos[0] = mech_vec3_make(y[L->base_pos], y[L->base_pos + 1], y[L->base_pos + 2]);
    d->quat[0] = (mech_quat){y[L->base_quat], y[L->base_quat + 1], y[L->base_quat + 2], y[L->base_quat + 3]};
    d->vel[0] = mech_vec3_make(y[L->base_vel], y[L->base_vel + 1], y[L->base_vel + 2]);
    d->omega[0] = mech_vec3_make(y[L->base_omega], y[L->base_omega + 1], y[L->base_omega + 2]);
    for (int j = 0; j < m->n; j++) {
        d->q[j] = y[L->q + (size_t)j];
        d->qd[j] = y[L->qd + (size_t)j];
    }
    for (int k = 0; k < m->nf; k++) {
        int id = m->n + 1 + k;
        const double *p = y + L->free_pos + 7 * (size_t)k, *v = y + L->free_vel + 6 * (size_t)k;
        d->pos[id] = mech_vec3_make(p[0], p[1], p[2]);
        d->quat[id] = (mech_quat){p[3], p[4], p[5], p[6]};
        /* the state carries the CoM velocity in the world frame; the data keeps body-frame velocities */
        d->vel[id] = mech_quat_rotate_inv(d->quat[id], mech_vec3_make(v[0], v[1], v[2]));
        d->omega[id] = mech_vec3_make(v[3], v[4], v[5]);
    }
}

static void put3(double *y, mech_vec3 v)
{
    y[0] = v.x;
    y[1] = v.y;
    y[2] = v.z;
}

// (data) => y
void mech_body_get_state(const mech_body_model *m, const mech_body_data *d, double y[])
{
    const mech_body_layout *L = &m->layout;
    put3(y + L->base_pos, d->pos[0]);
    y[L->base_quat] = d->quat[0].w;
    y[L->base_quat + 1] = d->quat[0].x;
    y[L->base_quat + 2] = d->quat[0].y;
    y[L->base_quat + 3] = d->quat[0].z;
    put3(y + L->base_vel, d->vel[0]);
    put3(y + L->base_omega, d->omega[0]);
    for (int j = 0; j < m->n; j++) {
        y[L->q + (size_t)j] = d->q[j];
        y[L->qd + (size_t)j] = d->qd[j];
    }
    for (int k = 0; k < m->nf; k++) {
        int id = m->n + 1 + k;
        double *p = y + L->free_pos + 7 * (size_t)k, *v = y + L->free_vel + 6 * (size_t)k;
        put3(p, d->pos[id]);
        p[3] = d->quat[id].w;
        p[4] = d->quat[id].x;
        p[5] = d->quat[id].y;
        p[6] = d->quat[id].z;
        put3(v, mech_quat_rotate(d->quat[id], d->vel[id]));
        put3(v + 3, d->omega[id]);
    }
}

/* (state) => spec 001 §2.4 pass 1 in body frames: cos q, sin q, β, r, ω, v, w, ε of the tree bodies (the paper's
 * w_j uses ω̃_p ω̃_p r and 2 ω̃_p v^rel; the linear velocity v_j = β (v_p + ω_p × r) + v^rel is added for contacts).
 * A revolute joint with γ = 1₃ uses α_i(q) on the cached cosine and sine without forming products. */
void mech_body_pass1(const mech_body_model *m, mech_body_data *d)
{
    for (int j = 1; j <= m->n; j++) {
        const int p = m->parent[j], i = m->axis[j], revolute = m->type[j] == MECH_BODY_REVOLUTE;
        const double qj = d->q[j - 1], qdj = d->qd[j - 1];
        mech_vec3 wp = d->omega[p], r = m->offset[j];
        double c = 1.0, s = 0.0;
        mech_mat3 beta;
        if (revolute) {
            c = cos(qj);
            s = sin(qj);
            /* α_i(q) of spec 001 §2.5 from the cosine and sine */
            mech_mat3 a = mech_mat3_identity();
            int mm = (i + 1) % 3, nn = (i + 2) % 3;
            a.m[mm][mm] = c;
            a.m[mm][nn] = s;
            a.m[nn][mm] = -s;
            a.m[nn][nn] = c;
            if (m->mount_identity[j])
                beta = a;
            else
                beta = mech_mat3_mul(a, m->mount[j]);
        } else {
            beta = m->mount[j];
            r = mech_vec3_axpy(r, qj, m->mount_axis[j]);
        }
        d->cosq[j - 1] = c;
        d->sinq[j - 1] = s;
        d->beta[j] = beta;
        d->r[j] = r;
        const int fast = revolute && m->mount_identity[j];
        mech_vec3 wpj = fast ? mech_vec3_alpha(i, c, s, wp) : mech_mat3_apply(beta, wp); /* ω_p^(j) */
        mech_vec3 v, w;
        if (r.x != 0.0 || r.y != 0.0 || r.z != 0.0) {
            mech_vec3 wxr = mech_vec3_cross(wp, r);
            mech_vec3 vp = mech_vec3_add(d->vel[p], wxr), wp2 = mech_vec3_cross(wp, wxr);
            v = fast ? mech_vec3_alpha(i, c, s, vp) : mech_mat3_apply(beta, vp);
            w = fast ? mech_vec3_alpha(i, c, s, wp2) : mech_mat3_apply(beta, wp2);
        } else {
            v = fast ? mech_vec3_alpha(i, c, s, d->vel[p]) : mech_mat3_apply(beta, d->vel[p]);
            w = mech_vec3_zero();
        }
        mech_vec3 om = wpj, eps = mech_vec3_zero();
        mech_vec3 e = mech_vec3_unit(i);
        if (revolute) {
            om = mech_vec3_axpy(om, qdj, e);
            eps = mech_vec3_scale(mech_vec3_cross(wpj, e), qdj); /* ε = ω_p^(j) × R q̇ */
        } else {
            v = mech_vec3_axpy(v, qdj, e);
            w = mech_vec3_axpy(w, 2.0 * qdj, mech_vec3_cross(wpj, e)); /* + 2 ω_p^(j) × T q̇ */
        }
        d->omega[j] = om;
        d->vel[j] = v;
        d->w[j] = w;
        d->eps[j] = eps;
    }
}

/* (pass 1 done) => world pose, origin velocity and angular velocity of every body (for contacts and outputs) */
void mech_body_world(const mech_body_model *m, mech_body_data *d)
{
    d->xmat[0] = mech_quat_to_mat3(d->quat[0]);
    d->xvel[0] = mech_mat3_apply(d->xmat[0], d->vel[0]);
    d->xomega[0] = mech_mat3_apply(d->xmat[0], d->omega[0]);
    for (int j = 1; j <= m->n; j++) {
        const int p = m->parent[j], i = m->axis[j];
        const mech_mat3 *Rp = &d->xmat[p];
        if (m->type[j] == MECH_BODY_REVOLUTE && m->mount_identity[j]) {
            /* R_j = R_p α^T: two columns of R_p turned by q in their plane */
            const double c = d->cosq[j - 1], s = d->sinq[j - 1];
            int mm = (i + 1) % 3, nn = (i + 2) % 3;
            mech_mat3 R = *Rp;
            for (int a = 0; a < 3; a++) {
                R.m[a][mm] = c * Rp->m[a][mm] + s * Rp->m[a][nn];
                R.m[a][nn] = -s * Rp->m[a][mm] + c * Rp->m[a][nn];
            }
            d->xmat[j] = R;
        } else {
            d->xmat[j] = mech_mat3_mult(*Rp, d->beta[j]); /* R_j = R_p β^T */
        }
        d->pos[j] = mech_vec3_add(d->pos[p], mech_mat3_apply(*Rp, d->r[j]));
        d->xvel[j] = mech_mat3_apply(d->xmat[j], d->vel[j]);
        d->xomega[j] = mech_mat3_apply(d->xmat[j], d->omega[j]);
    }
    for (int id = m->n + 1; id < m->nb; id++) {
        d->xmat[id] = mech_quat_to_mat3(d->quat[id]);
        d->xvel[id] = mech_mat3_apply(d->xmat[id], d->vel[id]);
        d->xomega[id] = mech_mat3_apply(d->xmat[id], d->omega[id]);
    }
}

// (state) => pass 1 and the world poses
void mech_body_kinematics(const mech_body_model *m, mech_body_data *d)
{
    mech_body_pass1(m, d);
    mech_body_world(m, d);
}

// () => loads zero
void mech_body_clear_loads(const mech_body_model *m, mech_body_data *d)
{
    memset(d->f_ext, 0, (size_t)m->nb * sizeof *d->f_ext);
    memset(d->m_ext, 0, (size_t)m->nb * sizeof *d->m_ext);
    memset(d->tau, 0, (size_t)(m->n + 1) * sizeof *d->tau);
    d->hook_inertia = mech_mat3_zero();
    d->hook_force = mech_vec3_zero();
    d->hook_moment = mech_vec3_zero();
}

// (id, body point) => world position
mech_vec3 mech_body_point_world(const mech_body_model *m, const mech_body_data *d, int id, mech_vec3 p_body)
{
    (void)m;
    return mech_vec3_add(d->pos[id], mech_mat3_apply(d->xmat[id], p_body));
}

// (id, body point) => world velocity v_O + ω × (R p)
mech_vec3 mech_body_point_velocity(const mech_body_model *m, const mech_body_data *d, int id, mech_vec3 p_body)
{
    (void)m;
    return mech_vec3_add(d->xvel[id], mech_vec3_cross(d->xomega[id], mech_mat3_apply(d->xmat[id], p_body)));
}

// (id, world point) => world velocity of the body's material point there
mech_vec3 mech_body_world_point_velocity(const mech_body_model *m, const mech_body_data *d, int id, mech_vec3 p_world)
{
    (void)m;
    return mech_vec3_add(d->xvel[id], mech_vec3_cross(d->xomega[id], mech_vec3_sub(p_world, d->pos[id])));
}

// (id, world point, world force) => added to f_ext, m_ext (body frame, moment about the origin)
void mech_body_apply_world_force(const mech_body_model *m, mech_body_data *d, int id, mech_vec3 point_world,
                                 mech_vec3 force_world)
{
    (void)m;
    mech_vec3 mo = mech_vec3_cross(mech_vec3_sub(point_world, d->pos[id]), force_world);
    d->f_ext[id] = mech_vec3_add(d->f_ext[id], mech_mat3_tapply(d->xmat[id], force_world));
    d->m_ext[id] = mech_vec3_add(d->m_ext[id], mech_mat3_tapply(d->xmat[id], mo));
}

// (id, world couple) => added to m_ext
void mech_body_apply_world_moment(const mech_body_model *m, mech_body_data *d, int id, mech_vec3 moment_world)
{
    (void)m;
    d->m_ext[id] = mech_vec3_add(d->m_ext[id], mech_mat3_tapply(d->xmat[id], moment_world));
}

/* Body-frame momentum of one body at its origin: p = m v + ω × c, h_O = I_O ω + c × v (c = m d). */
static void body_momentum(const mech_body_model *m, const mech_body_data *d, int id, mech_vec3 *p, mech_vec3 *h)
{
    mech_vec3 v = d->vel[id], w = d->omega[id];
    *p = mech_vec3_add(mech_vec3_scale(v, m->mass[id]), mech_vec3_cross(w, m->c[id]));
    *h = mech_vec3_add(mech_mat3_apply(m->inertia[id], w), mech_vec3_cross(m->c[id], v));
}

// (after kinematics) => kinetic energy ½ m v² + v·(ω × c) + ½ ω·I_O ω summed
double mech_body_kinetic_energy(const mech_body_model *m, const mech_body_data *d)
{
    double T = 0.0;
    for (int id = 0; id < m->nb; id++) {
        mech_vec3 v = d->vel[id], w = d->omega[id];
        T += 0.5 * m->mass[id] * mech_vec3_dot(v, v) + mech_vec3_dot(v, mech_vec3_cross(w, m->c[id])) +
             0.5 * mech_vec3_dot(w, mech_mat3_apply(m->inertia[id], w));
    }
    return T;
}

// (after kinematics) => - Σ m g · x_CoM
double mech_body_gravity_energy(const mech_body_model *m, const mech_body_data *d)
{
    double V = 0.0;
    for (int id = 0; id < m->nb; id++) {
        mech_vec3 x = mech_body_point_world(m, d, id, m->com[id]);
        V -= m->mass[id] * mech_vec3_dot(m->def.gravity, x);
    }
    return V;
}

// (after kinematics) => P, L about the world origin, world frame (L includes the hook's hook_inertia ω)
void mech_body_momentum(const mech_body_model *m, const mech_body_data *d, mech_vec3 *P, mech_vec3 *L)
{
    mech_vec3 Ps = mech_vec3_zero(), Ls = mech_vec3_zero();
    for (int id = 0; id < m->nb; id++) {
        mech_vec3 p, h;
        body_momentum(m, d, id, &p, &h);
        mech_vec3 pw = mech_mat3_apply(d->xmat[id], p), hw = mech_mat3_apply(d->xmat[id], h);
        Ps = mech_vec3_add(Ps, pw);
        Ls = mech_vec3_add(Ls, mech_vec3_add(hw, mech_vec3_cross(d->pos[id], pw)));
    }
    /* the hook's ΔI is a massless rotational inertia of its body (as in the dynamics, body_aba.c, and the energy):
       its angular momentum ΔI ω, no linear share */
    int hb = m->def.hook_body;
    if (hb > 0)
        Ls = mech_vec3_add(Ls, mech_mat3_apply(d->xmat[hb], mech_mat3_apply(d->hook_inertia, d->omega[hb])));
    *P = Ps;
    *L = Ls;
}

/* Compiled body model (mech/body.h): validation of the tree table of spec 001 §2.4, owned copies, the state
 * layout, and the data (one allocation with a copy function). */
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "body/body_internal.h"

// (model, id) => name for messages
const char *mech_body_name(const mech_body_model *m, int id)
{
    return id >= 0 && id < m->nb ? m->names[id] : "?";
}

int mech_body_model_n(const mech_body_model *m) { return m->n; }
int mech_body_model_nfree(const mech_body_model *m) { return m->nf; }
int mech_body_model_nbody(const mech_body_model *m) { return m->nb; }
int mech_body_free_id(const mech_body_model *m, int k) { return m->n + 1 + k; }
const mech_body_def *mech_body_model_def(const mech_body_model *m) { return &m->def; }
mech_body_layout mech_body_model_layout(const mech_body_model *m) { return m->layout; }

void mech_body_model_free(mech_body_model *m)
{
    if (!m)
        return;
    if (m->names)
        for (int i = 0; i < m->nb; i++)
            free(m->names[i]);
    free(m->names);
    free(m->joints);
    free(m->free);
    free(m->parent);
    free(m->type);
    free(m->axis);
    free(m->mount_identity);
    free(m->mount);
    free(m->offset);
    free(m->mount_axis);
    free(m->r_zero);
    free(m->massless);
    free(m->mass);
    free(m->com);
    free(m->c);
    free(m->inertia);
    free(m->inertia_inv);
    free(m);
}

static int finite3(mech_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }
static int finite33(mech_mat3 A)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (!isfinite(A.m[i][j]))
                return 0;
    return 1;
}

/* (inertia about the origin, mass, CoM offset, about_com flag, where) => HY_OK or HY_EMODEL: symmetric, and the
 * inertia about the centre of mass I_c = I_O - m (|d|^2 1 - d d^T) has principal moments >= 0 that satisfy the
 * triangle inequalities (a rigid mass distribution). Principal moments by LAPACKE_dsyev. */
static int check_inertia(mech_mat3 In, double mass, mech_vec3 d, int about_com, const char *where, hy_err *err)
{
    if (!finite33(In))
        return hy_err_set(err, HY_EMODEL, "%s: inertia is not finite", where);
    double scale = fmax(mech_mat3_maxabs(In), 1e-300);
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (fabs(In.m[i][j] - In.m[j][i]) > 1e-9 * scale)
                return hy_err_set(err, HY_EMODEL, "%s: inertia is not symmetric (In[%d][%d] = %g, In[%d][%d] = %g)",
                                  where, i, j, In.m[i][j], j, i, In.m[j][i]);
    mech_mat3 Ic = In;
    if (!about_com) {
        double dd = mech_vec3_dot(d, d);
        Ic = mech_mat3_sub(In, mech_mat3_scale(mech_mat3_sub(mech_mat3_scale(mech_mat3_identity(), dd),
                                                            mech_mat3_outer(d, d)), mass));
    }
    double a[9], ev[3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            a[3 * i + j] = 0.5 * (Ic.m[i][j] + Ic.m[j][i]);
    /* a is symmetric, so its column-major lower triangle is the row-major upper one; the column-major _work entry
       point allocates nothing (the row-major wrapper would allocate a transposed copy and its work array, and an
       out-of-memory there came back as HY_EMODEL) */
    double work[16];
    if (LAPACKE_dsyev_work(LAPACK_COL_MAJOR, 'N', 'L', 3, a, 3, ev, work, 16) != 0)
        return hy_err_set(err, HY_EMODEL, "%s: principal moments could not be computed", where);
    double tol = 1e-9 * fmax(scale, fabs(ev[2]));
    if (ev[0] < -tol)
        return hy_err_set(err, HY_EMODEL,
                          "%s: inertia about the centre of mass is not positive semi-definite (principal moment %g "
                          "kg m^2)%s", where, ev[0], about_com ? "" : "; give the inertia about the joint centre");
    if (ev[0] + ev[1] < ev[2] - tol)
        return hy_err_set(err, HY_EMODEL,
                          "%s: principal moments about the centre of mass %g, %g, %g kg m^2 break the triangle "
                          "inequality (no rigid body has them)", where, ev[0], ev[1], ev[2]);
    return HY_OK;
}

static char *dup_name(const char *name, const char *fallback_fmt, int k)
{
    char buf[64];
    if (!name) {
        snprintf(buf, sizeof buf, fallback_fmt, k);
        name = buf;
    }
    size_t len = strlen(name);
    char *s = malloc(len + 1);
    if (s)
        memcpy(s, name, len + 1);
    return s;
}

static void layout_of(mech_body_model *m)
{
    mech_body_layout *L = &m->layout;
    size_t n = (size_t)m->n, nf = (size_t)m->nf;
    L->base_pos = 0;
    L->base_quat = 3;
    L->q = 7;
    L->free_pos = 7 + n;
    L->npos = 7 + n + 7 * nf;
    L->base_vel = L->npos;
    L->base_omega = L->npos + 3;
    L->qd = L->npos + 6;
    L->free_vel = L->npos + 6 + n;
    L->dim = L->npos + 6 + n + 6 * nf;
}

/* (model) => HY_EMODEL naming the first joint whose articulated inertia is zero at q = 0 or at a second, generic
 * configuration, or the base when the floating root is singular. */
static int check_articulated(const mech_body_model *m, hy_err *err)
{
    mech_body_data *d = NULL;
    int rc = mech_body_data_new(m, &d, err);
    if (rc != HY_OK)
        return rc;
    for (int trial = 0; trial < 2 && rc == HY_OK; trial++) {
        for (int j = 0; j < m->n; j++)
            d->q[j] = trial == 0 ? 0.0 : 0.37 + 0.11 * j;
        mech_body_kinematics(m, d);
        if (mech_body_aba(m, d) != HY_OK) {
            int bad = 0;
            for (int j = 1; j <= m->n && !bad; j++)
                if (isinf(d->Dinv[j - 1]))
                    bad = j;
            if (bad)
                rc = hy_err_set(err, HY_EMODEL,
                                "body %d (%s): the articulated %s of joint %d is zero%s: the joint carries no "
                                "inertia about its axis (give the bodies it moves mass or inertia)",
                                bad, m->names[bad], m->type[bad] == MECH_BODY_REVOLUTE ? "inertia I*" : "mass m*", bad,
                                trial ? " at q = 0.37 + 0.11 (j-1)" : " at q = 0");
            else
                rc = hy_err_set(err, HY_EMODEL,
                                "base: the floating root's 6x6 articulated inertia is singular (give the base mass "
                                "and inertia)");
        }
    }
    mech_body_data_free(d);
    return rc;
}

// (definition) => compiled model
int mech_body_model_new(const mech_body_def *def, mech_body_model **out, hy_err *err)
{
    *out = NULL;
    if (!def)
        return hy_err_set(err, HY_EARG, "body model: no definition");
    if (def->base_mode != MECH_BODY_FLOATING && def->base_mode != MECH_BODY_PRESCRIBED)
        return hy_err_set(err, HY_EMODEL, "body model: base_mode %d: expected floating (0) or prescribed (1)",
                          def->base_mode);
    if (def->n < 0 || def->nfree < 0 || (def->n > 0 && !def->joints) || (def->nfree > 0 && !def->free))
        return hy_err_set(err, HY_EMODEL, "body model: %d tree bodies and %d free bodies: expected counts >= 0 with "
                          "their tables", def->n, def->nfree);
    if (!finite3(def->gravity))
        return hy_err_set(err, HY_EMODEL, "body model: gravity is not finite");
    if (def->hook_body < 0 || def->hook_body > def->n)
        return hy_err_set(err, HY_EMODEL, "body model: hook_body %d: expected a tree body 1..%d or 0 (none)",
                          def->hook_body, def->n);
    /* the base */
    const mech_body_base_def *B = &def->base;
    if (!(isfinite(B->mass) && B->mass >= 0) || !finite3(B->com))
        return hy_err_set(err, HY_EMODEL, "base: mass %g kg: expected a finite number >= 0 and a finite centre of "
                          "mass", B->mass);
    int rc = check_inertia(B->inertia, B->mass, B->com, 0, "base", err);
    if (rc != HY_OK)
        return rc;
    /* the tree table */
    for (int k = 0; k < def->n; k++) {
        const mech_body_joint_def *J = &def->joints[k];
        int j = k + 1;
        char where[96];
        snprintf(where, sizeof where, "body %d (%s)", j, J->name ? J->name : "unnamed");
        if (J->parent < 0 || J->parent >= j)
            return hy_err_set(err, HY_EMODEL, "%s: parent %d: expected 0 (the base) .. %d (parents come before their "
                              "children)", where, J->parent, j - 1);
        if (J->type != MECH_BODY_REVOLUTE && J->type != MECH_BODY_PRISMATIC)
            return hy_err_set(err, HY_EMODEL, "%s: joint type %d: expected revolute (0) or prismatic (1)", where,
                              J->type);
        if (J->axis < 0 || J->axis > 2)
            return hy_err_set(err, HY_EMODEL, "%s: joint axis %d: expected 0, 1 or 2 (x, y, z)", where, J->axis);
        if (!finite3(J->offset) || !finite3(J->com))
            return hy_err_set(err, HY_EMODEL, "%s: offset or centre of mass is not finite", where);
        if (!finite33(J->mount) ||
            mech_mat3_maxabs(mech_mat3_sub(mech_mat3_mult(J->mount, J->mount), mech_mat3_identity())) > 1e-9 ||
            mech_mat3_det(J->mount) < 0)
            return hy_err_set(err, HY_EMODEL, "%s: mounting rotation is not a rotation matrix (orthonormal, det +1)",
                              where);
        if (!(isfinite(J->mass) && J->mass >= 0))
            return hy_err_set(err, HY_EMODEL, "%s: mass %g kg: expected a finite number >= 0", where, J->mass);
        rc = check_inertia(J->inertia, J->mass, J->com, 0, where, err);
        if (rc != HY_OK)
            return rc;
    }
    for (int k = 0; k < def->nfree; k++) {
        const mech_body_free_def *F = &def->free[k];
        char where[96];
        snprintf(where, sizeof where, "free body %d (%s)", k, F->name ? F->name : "unnamed");
        if (!(isfinite(F->mass) && F->mass > 0))
            return hy_err_set(err, HY_EMODEL, "%s: mass %g kg: expected a positive number", where, F->mass);
        rc = check_inertia(F->inertia, F->mass, mech_vec3_zero(), 1, where, err);
        if (rc != HY_OK)
            return rc;
        if (!(mech_mat3_det(F->inertia) > 1e-12 * pow(mech_mat3_maxabs(F->inertia), 3)))
            return hy_err_set(err, HY_EMODEL, "%s: inertia is singular: a free body needs three positive principal "
                              "moments", where);
    }

    mech_body_model *m = calloc(1, sizeof *m);
    if (!m)
        return hy_err_set(err, HY_ENOMEM, "body model: out of memory");
    int n = def->n, nf = def->nfree, nb = 1 + n + nf;
    m->n = n;
    m->nf = nf;
    m->nb = nb;
    m->def = *def;
    m->floating = def->base_mode == MECH_BODY_FLOATING;
    m->has_gravity = def->gravity.x != 0 || def->gravity.y != 0 || def->gravity.z != 0;
    m->joints = calloc((size_t)n + 1, sizeof *m->joints);
    m->free = calloc((size_t)nf + 1, sizeof *m->free);
    m->names = calloc((size_t)nb, sizeof *m->names);
    m->parent = calloc((size_t)nb, sizeof *m->parent);
    m->type = calloc((size_t)nb, sizeof *m->type);
    m->axis = calloc((size_t)nb, sizeof *m->axis);
    m->mount_identity = calloc((size_t)nb, sizeof *m->mount_identity);
    m->mount = calloc((size_t)nb, sizeof *m->mount);
    m->offset = calloc((size_t)nb, sizeof *m->offset);
    m->mount_axis = calloc((size_t)nb, sizeof *m->mount_axis);
    m->r_zero = calloc((size_t)nb, sizeof *m->r_zero);
    m->massless = calloc((size_t)nb, sizeof *m->massless);
    m->mass = calloc((size_t)nb, sizeof *m->mass);
    m->com = calloc((size_t)nb, sizeof *m->com);
    m->c = calloc((size_t)nb, sizeof *m->c);
    m->inertia = calloc((size_t)nb, sizeof *m->inertia);
    m->inertia_inv = calloc((size_t)nb, sizeof *m->inertia_inv);
    if (!m->joints || !m->free || !m->names || !m->parent || !m->type || !m->axis || !m->mount_identity ||
        !m->mount || !m->offset || !m->mount_axis || !m->r_zero || !m->massless || !m->mass || !m->com || !m->c || !m->inertia || !m->inertia_inv) {
        mech_body_model_free(m);
        return hy_err_set(err, HY_ENOMEM, "body model: out of memory");
    }
    if (n)
        memcpy(m->joints, def->joints, (size_t)n * sizeof *m->joints);
    if (nf)
        memcpy(m->free, def->free, (size_t)nf * sizeof *m->free);
    m->def.joints = m->joints;
    m->def.free = m->free;
    int oom = 0;
    m->names[0] = dup_name("base", "%d", 0);
    oom |= !m->names[0];
    m->parent[0] = -1;
    m->mass[0] = B->mass;
    m->com[0] = B->com;
    m->c[0] = mech_vec3_scale(B->com, B->mass);
    m->inertia[0] = B->inertia;
    m->mount[0] = mech_mat3_identity();
    for (int j = 1; j <= n; j++) {
        const mech_body_joint_def *J = &def->joints[j - 1];
        m->names[j] = dup_name(J->name, "body %d", j);
        oom |= !m->names[j];
        m->joints[j - 1].name = m->names[j];
        m->parent[j] = J->parent;
        m->type[j] = J->type;
        m->axis[j] = J->axis;
        m->mount[j] = J->mount;
        m->mount_identity[j] = mech_mat3_maxabs(mech_mat3_sub(J->mount, mech_mat3_identity())) == 0.0;
        m->offset[j] = J->offset;
        m->mount_axis[j] = mech_mat3_tapply(J->mount, mech_vec3_unit(J->axis));
        m->r_zero[j] = J->type == MECH_BODY_REVOLUTE && J->offset.x == 0.0 && J->offset.y == 0.0 && J->offset.z == 0.0;
        m->mass[j] = J->mass;
        m->com[j] = J->com;
        m->c[j] = mech_vec3_scale(J->com, J->mass);
        /* symmetrised: the check allowed a rounding-level asymmetry */
        m->inertia[j] = mech_mat3_scale(mech_mat3_add(J->inertia, mech_mat3_transpose(J->inertia)), 0.5);
        m->massless[j] = J->mass == 0.0 && mech_mat3_maxabs(J->inertia) == 0.0;
    }
    for (int k = 0; k < nf; k++) {
        int id = n + 1 + k;
        const mech_body_free_def *F = &def->free[k];
        m->names[id] = dup_name(F->name, "free body %d", k);
        oom |= !m->names[id];
        m->free[k].name = m->names[id];
        m->parent[id] = -1;
        m->mass[id] = F->mass;
        m->inertia[id] = mech_mat3_scale(mech_mat3_add(F->inertia, mech_mat3_transpose(F->inertia)), 0.5);
        /* I^-1 once, by LAPACK (Cholesky of the SPD inertia, then its inverse) */
        double a[9];
        for (int r = 0; r < 3; r++)
            for (int s = 0; s < 3; s++)
                a[3 * r + s] = m->inertia[id].m[r][s];
        /* column-major 'L' on the symmetric a is the row-major 'U' read below; the _work entry points allocate
           nothing (the row-major wrappers' allocation failure was reported as "not positive definite") */
        if (LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', 3, a, 3) != 0 ||
            LAPACKE_dpotri_work(LAPACK_COL_MAJOR, 'L', 3, a, 3) != 0) {
            int lrc = hy_err_set(err, HY_EMODEL, "free body %d (%s): inertia is not positive definite", k,
                                 m->names[id] ? m->names[id] : "?");
            mech_body_model_free(m);
            return lrc;
        }
        for (int r = 0; r < 3; r++)
            for (int s = 0; s < 3; s++)
                m->inertia_inv[id].m[r][s] = r <= s ? a[3 * r + s] : a[3 * s + r];
    }
    if (oom) {
        mech_body_model_free(m);
        return hy_err_set(err, HY_ENOMEM, "body model: out of memory");
    }
    layout_of(m);
    /* data buffer: nb-sized arrays of vec3 / mat3 / quat, n-sized arrays of double */
    size_t nv3 = 16, nm3 = 5, nq = 1, nd = 9;
    m->data_bytes = (size_t)nb * (nv3 * sizeof(mech_vec3) + nm3 * sizeof(mech_mat3) + nq * sizeof(mech_quat)) +
                    (size_t)(n + 1) * nd * sizeof(double);
    rc = check_articulated(m, err);
    if (rc != HY_OK) {
        mech_body_model_free(m);
        return rc;
    }
    *out = m;
    return HY_OK;
}

/* Carves the data's arrays out of its one buffer, in a fixed order (copy relies on it). */
static void carve(const mech_body_model *m, mech_body_data *d, char *buf)
{
    size_t nb = (size_t)m->nb, n = (size_t)m->n + 1;
#define TAKE(field, count)                                                                                           \
    do {                                                                                                             \
        d->field = (void *)buf;                                                                                      \
        buf += (count) * sizeof *d->field;                                                                           \
    } while (0)
    /* mat3 first, then quat, vec3, double: every block stays 8-byte aligned */
    TAKE(xmat, nb);
    TAKE(beta, nb);
    TAKE(Mtt, nb);
    TAKE(Mtr, nb);
    TAKE(Mrr, nb);
    TAKE(quat, nb);
    TAKE(pos, nb);
    TAKE(vel, nb);
    TAKE(omega, nb);
    TAKE(f_ext, nb);
    TAKE(m_ext, nb);
    TAKE(r, nb);
    TAKE(w, nb);
    TAKE(eps, nb);
    TAKE(xvel, nb);
    TAKE(xomega, nb);
    TAKE(fsum, nb);
    TAKE(msum, nb);
    TAKE(acc, nb);
    TAKE(alpha, nb);
    TAKE(dacc, nb);
    TAKE(dalpha, nb);
    (void)0;
    d->Ut = NULL;
    TAKE(q, n);
    TAKE(qd, n);
    TAKE(tau, n);
    TAKE(Dinv, n);
    TAKE(aJ, n);
    TAKE(qdd, n);
    TAKE(cosq, n);
    TAKE(sinq, n);
    TAKE(dqdd, n);
#undef TAKE
}

// (model) => zeroed data, identity attitudes
int mech_body_data_new(const mech_body_model *m, mech_body_data **out, hy_err *err)
{
    *out = NULL;
    size_t nb = (size_t)m->nb;
    size_t bytes = m->data_bytes + 2 * nb * sizeof(mech_vec3);
    char *buf = calloc(1, sizeof(mech_body_data) + bytes);
    if (!buf)
        return hy_err_set(err, HY_ENOMEM, "body data: out of memory");
    mech_body_data *d = (mech_body_data *)buf;
    carve(m, d, buf + sizeof(mech_body_data));
    d->Ut = (mech_vec3 *)(buf + sizeof(mech_body_data) + m->data_bytes);
    d->Ur = d->Ut + nb;
    for (size_t i = 0; i < nb; i++) {
        d->quat[i] = mech_quat_identity();
        d->xmat[i] = mech_mat3_identity();
        d->beta[i] = mech_mat3_identity();
    }
    *out = d;
    return HY_OK;
}

// (model, src, dst) => dst = src
void mech_body_data_copy(const mech_body_model *m, mech_body_data *dst, const mech_body_data *src)
{
    size_t bytes = m->data_bytes + 2 * (size_t)m->nb * sizeof(mech_vec3);
    mech_body_data keep = *dst;
    memcpy((char *)dst + sizeof *dst, (const char *)src + sizeof *src, bytes);
    *dst = *src;
    /* pointers stay dst's own: restore them from keep */
    dst->q = keep.q; dst->qd = keep.qd; dst->pos = keep.pos; dst->quat = keep.quat; dst->vel = keep.vel;
    dst->omega = keep.omega; dst->tau = keep.tau; dst->f_ext = keep.f_ext; dst->m_ext = keep.m_ext;
    dst->xmat = keep.xmat; dst->beta = keep.beta; dst->r = keep.r; dst->w = keep.w; dst->eps = keep.eps;
    dst->xvel = keep.xvel; dst->xomega = keep.xomega; dst->Mtt = keep.Mtt; dst->Mtr = keep.Mtr; dst->Mrr = keep.Mrr;
    dst->fsum = keep.fsum; dst->msum = keep.msum; dst->Dinv = keep.Dinv; dst->aJ = keep.aJ; dst->qdd = keep.qdd;
    dst->acc = keep.acc; dst->alpha = keep.alpha; dst->Ut = keep.Ut; dst->Ur = keep.Ur;
    dst->dacc = keep.dacc; dst->dalpha = keep.dalpha; dst->dqdd = keep.dqdd;
    dst->cosq = keep.cosq; dst->sinq = keep.sinq;
}

void mech_body_data_free(mech_body_data *d)
{
    free(d);
}

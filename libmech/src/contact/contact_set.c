/* A contact set: pairs of shapes on bodies, compiled once (model), and their per-step data: geometry, relative
 * velocity, one array per force component, and the stick anchors with trial / commit / revert (the discipline of
 * hyst/element.h: eval only writes the trial, computed from the committed state; accepted steps commit).
 * The stick/slip model is described in mech/contact.h and docs/contact.md §4. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "contact/contact_internal.h"

static int law_check(const mech_contact_law *L, int i, const char *name, hy_err *err)
{
#define BAD(key, val, what) hy_err_set(err, HY_EMODEL, "contact pair %d (%s): law.%s = %g: expected %s", i, name, key, val, what)
    if (!(isfinite(L->k) && L->k >= 0.0)) return BAD("k", L->k, "a finite stiffness >= 0");
    if (!(isfinite(L->n) && L->n >= 1.0)) return BAD("n", L->n, "a finite exponent >= 1 (1 linear, 1.5 Hertz)");
    if (!(L->e > 0.0 && L->e <= 1.0)) return BAD("e", L->e, "0 < e <= 1 (e = 0 needs infinite Hunt-Crossley damping)");
    if (!(isfinite(L->v_min) && L->v_min > 0.0)) return BAD("v_min", L->v_min, "a finite speed > 0");
    if (!(isfinite(L->mu_k) && L->mu_k >= 0.0)) return BAD("mu_k", L->mu_k, "a finite value >= 0");
    if (!(isfinite(L->mu_s) && L->mu_s >= L->mu_k)) return BAD("mu_s", L->mu_s, "a finite value >= mu_k");
    if (!(isfinite(L->kt) && L->kt >= 0.0 && (L->kt > 0.0 || L->mu_s == 0.0)))
        return BAD("kt", L->kt, "a finite stiffness, > 0 when there is friction");
    if (!(isfinite(L->ct) && L->ct >= 0.0)) return BAD("ct", L->ct, "a finite damping >= 0");
    if (!(isfinite(L->c_mass) && L->c_mass >= 0.0)) return BAD("c_mass", L->c_mass, "a finite mass >= 0 (0: no cap)");
#undef BAD
    return HY_OK;
}

int mech_contact_model_new(int nbody, int npair, const mech_contact_pair *pairs, mech_contact_model **out,
                           hy_err *err)
{
    *out = NULL;
    if (nbody < 0 || npair < 0 || (npair > 0 && !pairs))
        return hy_err_set(err, HY_EARG, "contact set: nbody = %d, npair = %d: expected counts >= 0 and the pairs",
                          nbody, npair);
    for (int i = 0; i < npair; i++) {
        const mech_contact_pair *p = &pairs[i];
        char name[MECH_CONTACT_NAME_LEN], where[96];
        memcpy(name, p->name, sizeof name);
        name[sizeof name - 1] = '\0';
        if (p->body_a < MECH_CONTACT_WORLD || p->body_a >= nbody || p->body_b < MECH_CONTACT_WORLD ||
            p->body_b >= nbody)
            return hy_err_set(err, HY_EMODEL, "contact pair %d (%s): bodies %d and %d: expected -1 (world) .. %d", i,
                              name, p->body_a, p->body_b, nbody - 1);
        if (!(isfinite(p->max_depth) && p->max_depth >= 0.0))
            return hy_err_set(err, HY_EMODEL, "contact pair %d (%s): max_depth = %g: expected a finite depth >= 0 "
                              "(0: no limit)", i, name, p->max_depth);
        if (p->body_a == p->body_b)
            return hy_err_set(err, HY_EMODEL, "contact pair %d (%s): joins body %d to itself", i, name, p->body_a);
        snprintf(where, sizeof where, "contact pair %d (%s): shape_a", i, name);
        int rc = mech_contact_shape_check(&p->shape_a, where, err);
        if (rc) return rc;
        snprintf(where, sizeof where, "contact pair %d (%s): shape_b", i, name);
        rc = mech_contact_shape_check(&p->shape_b, where, err);
        if (rc) return rc;
        if (!mech_contact_pair_supported(p->shape_a.type, p->shape_b.type))
            return hy_err_set(err, HY_EMODEL, "contact pair %d (%s): shapes %d and %d: no pair function for them", i,
                              name, (int)p->shape_a.type, (int)p->shape_b.type);
        rc = law_check(&p->law, i, name, err);
        if (rc) return rc;
    }
    size_t n = (size_t)npair;
    /* worst case 2 npair distinct rotations; the arrays are sized for it (a few hundred bytes per pair) */
    size_t size = sizeof(mech_contact_model) + n * sizeof(mech_contact_pair) + 2 * n * sizeof(double) + 2 * n * sizeof(mech_mat3) +
                  4 * n * sizeof(int);
    mech_contact_model *m = calloc(1, size);
    if (!m) return hy_err_set(err, HY_ENOMEM, "contact set: out of memory for %d pairs", npair);
    m->nbody = nbody;
    m->npair = npair;
    m->pair = (mech_contact_pair *)(m + 1);
    m->hc_s = (double *)(m->pair + n);
    m->cone_tan = m->hc_s + n;
    m->rot_local = (mech_mat3 *)(m->cone_tan + n);
    m->rot_slot = (int *)(m->rot_local + 2 * n);
    m->rot_body = m->rot_slot + 2 * n;
    mech_mat3 I = mech_mat3_identity();
    for (size_t i = 0; i < n; i++) {
        m->pair[i] = pairs[i];
        m->pair[i].name[MECH_CONTACT_NAME_LEN - 1] = '\0';
        m->hc_s[i] = mech_contact_hc_factor(pairs[i].law.e, MECH_CONTACT_HC_EXACT);
        if (pairs[i].shape_a.type == MECH_CONTACT_CONE) m->cone_tan[i] = tan(pairs[i].shape_a.half_angle);
        if (pairs[i].shape_b.type == MECH_CONTACT_CONE) m->cone_tan[i] = tan(pairs[i].shape_b.half_angle);
        for (int side = 0; side < 2; side++) {
            int body = side ? pairs[i].body_b : pairs[i].body_a;
            const mech_mat3 *R = side ? &pairs[i].local_b.rot : &pairs[i].local_a.rot;
            mech_contact_shape_type t = side ? pairs[i].shape_b.type : pairs[i].shape_a.type;
            int slot = -1;
            /* a sphere's orientation never matters (the coincident-centre fallback of sphere-sphere then uses the
             * body's +x), so it needs no product either; equal local rotations on one body share one product
             * (the latch stops, the cone, the socket and the rim of one unit usually have the same frame) */
            if (memcmp(R, &I, sizeof I) != 0 && t != MECH_CONTACT_SPHERE) {
                for (int k = 0; k < m->nrot && slot < 0; k++)
                    if (m->rot_body[k] == body && memcmp(&m->rot_local[k], R, sizeof *R) == 0) slot = k;
                if (slot < 0) {
                    slot = m->nrot++;
                    m->rot_body[slot] = body;
                    m->rot_local[slot] = *R;
                }
            }
            m->rot_slot[2 * i + (size_t)side] = slot;
        }
    }
    *out = m;
    return HY_OK;
}

void mech_contact_model_free(mech_contact_model *m) { free(m); }

/* ---- data: the header and every array in one block ---- */
static size_t up16(size_t x) { return (x + 15u) & ~(size_t)15u; }

static size_t data_layout(size_t n, size_t nb, size_t nrot, mech_contact_data *d, char *base)
{
    size_t off = up16(sizeof(mech_contact_data));
#define PLACE(field, type)                                                  \
    do {                                                                    \
        if (d) d->field = (type *)(void *)(base + off);                     \
        off += up16(n * sizeof(type));                                      \
    } while (0)
    PLACE(geom, mech_contact_geom);
    PLACE(vel, mech_contact_vel);
    PLACE(fn_elastic, double);
    PLACE(fn_damping, double);
    PLACE(fn, double);
    PLACE(f_friction, mech_vec3);
    PLACE(stretch, mech_vec3);
    PLACE(force, mech_vec3);
    PLACE(trial, mech_contact_state);
    PLACE(committed, mech_contact_state);
    PLACE(disabled, unsigned char);
    if (d) d->bodies = (mech_contact_body *)(void *)(base + off);
    off += up16(nb * sizeof(mech_contact_body));
    if (d) d->body_force = (mech_vec3 *)(void *)(base + off);
    off += up16(nb * sizeof(mech_vec3));
    if (d) d->body_moment = (mech_vec3 *)(void *)(base + off);
    off += up16(nb * sizeof(mech_vec3));
    if (d) d->shape_rot = (mech_mat3 *)(void *)(base + off);
    off += up16(nrot * sizeof(mech_mat3));
#undef PLACE
    return off;
}

mech_contact_data *mech_contact_data_new(const mech_contact_model *m)
{
    size_t n = (size_t)m->npair, nb = (size_t)m->nbody, nr = (size_t)m->nrot, size = data_layout(n, nb, nr, NULL, NULL);
    char *base = calloc(1, size);
    if (!base) return NULL;
    mech_contact_data *d = (mech_contact_data *)(void *)base;
    data_layout(n, nb, nr, d, base);
    d->npair = m->npair;
    d->nbody = m->nbody;
    d->nrot = m->nrot;
    return d;
}

void mech_contact_data_copy(mech_contact_data *dst, const mech_contact_data *src)
{
    size_t n = (size_t)src->npair, size = data_layout(n, (size_t)src->nbody, (size_t)src->nrot, NULL, NULL);
    size_t head = up16(sizeof(mech_contact_data));
    memcpy((char *)dst + head, (const char *)src + head, size - head);
    dst->nactive = src->nactive;
}

void mech_contact_data_free(mech_contact_data *d) { free(d); }

/* ---- evaluation ---- */
static const mech_contact_body world_body = {{0, 0, 0}, {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}, {0, 0, 0}, {0, 0, 0}};

static inline const mech_contact_body *body_of(const mech_contact_body *bodies, int j)
{
    return j < 0 ? &world_body : &bodies[j];
}
// (A, B, C not overlapping them) => C = A B, element by element into C (no temporary matrix: the value form
// mech_mat3_mul went through the stack and a copy, a store-forwarding stall per product)
static inline void rot_product(const mech_mat3 *restrict A, const mech_mat3 *restrict B, mech_mat3 *restrict C)
{
    for (int i = 0; i < 3; i++) {
        double a0 = A->m[i][0], a1 = A->m[i][1], a2 = A->m[i][2];
        for (int j = 0; j < 3; j++) C->m[i][j] = a0 * B->m[0][j] + a1 * B->m[1][j] + a2 * B->m[2][j];
    }
}
static inline mech_vec3 point_velocity(const mech_contact_body *b, mech_vec3 p)
{
    return mech_vec3_add(b->vel, mech_vec3_cross(b->omega, mech_vec3_sub(p, b->pos)));
}

static void pair_off(mech_contact_data *d, int i)
{
    d->vel[i].vn = 0.0;
    d->vel[i].vt = mech_vec3_zero();
    d->fn_elastic[i] = d->fn_damping[i] = d->fn[i] = 0.0;
    d->f_friction[i] = d->stretch[i] = d->force[i] = mech_vec3_zero();
    /* the trial state reset field by field, the pair search's certificate kept (a memset of the whole state and
       the certificate copied back was 15 % of this function: a rep stos per pair apart, at every stage) */
    mech_contact_state *t = &d->trial[i];
    t->touching = t->sliding = 0;
    t->v_impact = t->edge_angle = t->edge_cs[0] = t->edge_cs[1] = 0.0;
    t->anchor_a = t->anchor_b = mech_vec3_zero();
}

void mech_contact_eval(const mech_contact_model *m, mech_contact_data *d, const mech_contact_body *bodies)
{
    int nactive = 0;
    /* world rotations of the rotated shapes: one product per (body, local rotation), not one per pair */
    for (int k = 0; k < m->nrot; k++)
        rot_product(&body_of(bodies, m->rot_body[k])->rot, &m->rot_local[k], &d->shape_rot[k]);
    for (int i = 0; i < m->npair; i++) {
        const mech_contact_pair *p = &m->pair[i];
        mech_contact_geom *g = &d->geom[i];
        if (d->disabled[i]) {   /* out of reach, before any pose is computed: pass 2 turns it off */
            *g = (mech_contact_geom){.depth = -INFINITY, .feature = MECH_CONTACT_FEAT_NONE};
            continue;
        }
        const mech_contact_body *ba = body_of(bodies, p->body_a), *bb = body_of(bodies, p->body_b);
        /* shape poses in the world (the rotation product is skipped for shapes not turned in their body) */
        mech_contact_pose pa, pb;
        pa.pos = mech_vec3_add(ba->pos, mech_mat3_apply(ba->rot, p->local_a.pos));
        int sa = m->rot_slot[2 * i], sb = m->rot_slot[2 * i + 1];
        pa.rot = sa < 0 ? ba->rot : d->shape_rot[sa];
        pb.pos = mech_vec3_add(bb->pos, mech_mat3_apply(bb->rot, p->local_b.pos));
        pb.rot = sb < 0 ? bb->rot : d->shape_rot[sb];
        const mech_contact_state *c = &d->committed[i];
        mech_contact_state *tr = &d->trial[i];
        tr->edge_angle = tr->edge_cs[0] = tr->edge_cs[1] = 0.0;
        if (p->shape_a.type == MECH_CONTACT_FRUSTUM && p->shape_b.type == MECH_CONTACT_CIRCLE)
            contact_frustum_circle_warm_cs(&p->shape_a, &pa, &p->shape_b, &pb, c->touching ? &c->edge_angle : NULL,
                                           c->edge_cs, &c->cert, &tr->cert, &tr->edge_angle, tr->edge_cs, g);
        else if (p->shape_a.type == MECH_CONTACT_CIRCLE && p->shape_b.type == MECH_CONTACT_FRUSTUM) {
            contact_frustum_circle_warm_cs(&p->shape_b, &pb, &p->shape_a, &pa, c->touching ? &c->edge_angle : NULL,
                                           c->edge_cs, &c->cert, &tr->cert, &tr->edge_angle, tr->edge_cs, g);
            g->normal = mech_vec3_neg(g->normal);
        } else if (p->shape_a.type == MECH_CONTACT_SPHERE && p->shape_b.type == MECH_CONTACT_CONE)
            contact_sphere_cone_tan(&p->shape_a, &pa, &p->shape_b, &pb, m->cone_tan[i], g);
        else
            mech_contact_collide(&p->shape_a, &pa, &p->shape_b, &pb, g);
    }
    /* pass 2: forces and trial states. Two passes rather than one: each pair's work is a long dependency chain
     * (geometry -> relative velocity -> normal force -> friction), and two shorter loops let the processor overlap
     * consecutive pairs (bench_contact: 10 contacts 0.70 -> 0.65 us) */
    for (int i = 0; i < m->npair; i++) {
        const mech_contact_pair *p = &m->pair[i];
        const mech_contact_law *L = &p->law;
        const mech_contact_body *ba = body_of(bodies, p->body_a), *bb = body_of(bodies, p->body_b);
        const mech_contact_geom *g = &d->geom[i];
        const mech_contact_state *c = &d->committed[i];
        mech_contact_state *tr = &d->trial[i];
        /* every pair function returns depth > 0 as its contact flag (feature NONE has depth -inf) */
        if (!(g->depth > 0.0)) {
            pair_off(d, i);
            continue;
        }
        nactive++;
        mech_vec3 n = g->normal, pt = g->point;
        mech_contact_vel v = contact_relvel(g, point_velocity(ba, pt), point_velocity(bb, pt));
        d->vel[i] = v;

        /* normal: Hunt-Crossley with the damping factor fixed at the onset of this contact. At an edge of a solid
           the depth grows by (1 - grad_deficit) per unit of approach along the normal: the depth rate and the
           force are scaled by that, so the force is the elastic energy's gradient (0 elsewhere: no change) */
        double slope = 1.0 - g->grad_deficit;
        double rate = -v.vn * slope;
        double v_imp = c->touching ? c->v_impact : fmax(rate, L->v_min);
        double D = (m->disable & MECH_CONTACT_DISABLE_DAMPING) ? 0.0 : m->hc_s[i] / v_imp;
        double fe, fd;
        mech_contact_normal_force(L, D, g->depth, rate, &fe, &fd);
        if (m->disable & MECH_CONTACT_DISABLE_ELASTIC) fe = 0.0;
        fe *= slope, fd *= slope;
        double N = fe + fd > 0.0 ? fe + fd : 0.0;
        d->fn_elastic[i] = fe;
        d->fn_damping[i] = fd;
        d->fn[i] = N;

        /* tangential spring between the anchors (zero stretch at the onset) */
        mech_vec3 u = mech_vec3_zero();
        if (c->touching) {
            mech_vec3 w = mech_vec3_sub(contact_body_to_world(ba, c->anchor_a),
                                        contact_body_to_world(bb, c->anchor_b));
            u = mech_vec3_axpy(w, -mech_vec3_dot(w, n), n);
        }
        mech_vec3 ft = mech_vec3_zero(), z = u;
        int sliding = 0;
        if (!(m->disable & MECH_CONTACT_DISABLE_FRICTION))
            sliding = contact_anchored_friction(u, v.vt, L->kt, L->ct, c->touching && c->sliding ? L->mu_k : L->mu_s,
                                                L->mu_k, N, &ft, &z);
        d->f_friction[i] = ft;
        d->stretch[i] = z;
        d->force[i] = mech_vec3_axpy(ft, N, n);

        /* trial state: anchors re-based at the current point, B's anchor one stretch behind */
        tr->touching = 1;
        tr->sliding = sliding;
        tr->v_impact = v_imp;
        tr->anchor_a = contact_body_to_local(ba, pt);
        tr->anchor_b = contact_body_to_local(bb, mech_vec3_sub(pt, z));
    }
    d->nactive = nactive;
}

void mech_contact_commit(const mech_contact_model *m, mech_contact_data *d)
{
    memcpy(d->committed, d->trial, (size_t)m->npair * sizeof *d->committed);
}
void mech_contact_revert(const mech_contact_model *m, mech_contact_data *d)
{
    memcpy(d->trial, d->committed, (size_t)m->npair * sizeof *d->trial);
}
void mech_contact_reset(const mech_contact_model *m, mech_contact_data *d)
{
    memset(d->trial, 0, (size_t)m->npair * sizeof *d->trial);
    memset(d->committed, 0, (size_t)m->npair * sizeof *d->committed);
}

int mech_contact_force_on(const mech_contact_model *m, const mech_contact_data *d, int i, int body, mech_vec3 *f,
                          mech_vec3 *point)
{
    const mech_contact_pair *p = &m->pair[i];
    *point = d->geom[i].point;
    if (body == p->body_a) {
        *f = d->force[i];
        return 1;
    }
    if (body == p->body_b) {
        *f = mech_vec3_neg(d->force[i]);
        return 1;
    }
    *f = mech_vec3_zero();
    return 0;
}

void mech_contact_loads(const mech_contact_model *m, const mech_contact_data *d, const mech_contact_body *bodies,
                        mech_vec3 *force, mech_vec3 *moment)
{
    for (int i = 0; i < m->npair; i++) {
        if (d->geom[i].feature == MECH_CONTACT_FEAT_NONE || !(d->geom[i].depth > 0.0)) continue;
        const mech_contact_pair *p = &m->pair[i];
        mech_vec3 f = d->force[i], pt = d->geom[i].point;
        if (p->body_a >= 0) {
            int j = p->body_a;
            force[j] = mech_vec3_add(force[j], f);
            moment[j] = mech_vec3_add(moment[j], mech_vec3_cross(mech_vec3_sub(pt, bodies[j].pos), f));
        }
        if (p->body_b >= 0) {
            int j = p->body_b;
            force[j] = mech_vec3_sub(force[j], f);
            moment[j] = mech_vec3_sub(moment[j], mech_vec3_cross(mech_vec3_sub(pt, bodies[j].pos), f));
        }
    }
}

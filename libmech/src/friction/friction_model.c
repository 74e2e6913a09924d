/* The friction model (dimensions, coefficients, options) and its data: one allocation holding every array, plus
 * the GLPK problem object that the LP fallback reuses (spec 003, docs/friction.md). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <glpk.h>
#include <lapacke.h>
#include "friction/friction_internal.h"

// (o) => defaults
void mech_friction_opt_default(mech_friction_opt *o)
{
    o->eps_v = 1e-9;
    o->eps_N = 1e-9;
    o->max_attempts = 8;
    o->fallback = 1;
}

// (dimensions, contacts, options) => model
int mech_friction_model_new(int w, int ns, int nc, const mech_friction_contact *c, const mech_friction_opt *o,
                            mech_friction_model **out, hy_err *err)
{
    *out = NULL;
    if (w < 1 || w > 64 || ns < 1 || ns > 64 || nc < 1 || nc > MECH_FRICTION_MAX_CONTACTS)
        return hy_err_set(err, HY_EARG, "friction model: dimensions w = %d, ns = %d, nc = %d out of range "
                          "(1..64, 1..64, 1..%d)", w, ns, nc, MECH_FRICTION_MAX_CONTACTS);
    if (nc < ns)
        return hy_err_set(err, HY_EARG, "friction model: %d contacts cannot hold %d constrained directions", nc, ns);
    mech_friction_model *m = calloc(1, sizeof *m);
    if (!m)
        return hy_err_set(err, HY_ENOMEM, "friction model: out of memory");
    m->w = w;
    m->ns = ns;
    m->nc = nc;
    if (o)
        m->opt = *o;
    else
        mech_friction_opt_default(&m->opt);
    for (int j = 0; j < nc; j++) {
        const mech_friction_contact *cj = &c[j];
        int bad = cj->sides != 1 && cj->sides != 2;
        for (int k = 0; k < 2; k++)
            bad |= !(cj->mu[k] >= 0 && cj->mu[k] < 1e6) || !(cj->mu_s[k] >= 0 && cj->mu_s[k] < 1e6);
        if (bad) {
            free(m);
            return hy_err_set(err, HY_EARG, "friction model: contact %d: sides must be 1 or 2 and the friction "
                              "coefficients finite and >= 0", j + 1);
        }
        m->c[j] = *cj;
    }
    if (!(m->opt.eps_v >= 0) || !(m->opt.eps_N >= 0) || m->opt.max_attempts < 1) {
        free(m);
        return hy_err_set(err, HY_EARG, "friction model: eps_v and eps_N must be >= 0 and max_attempts >= 1");
    }
    *out = m;
    return HY_OK;
}

int mech_friction_model_w(const mech_friction_model *m) { return m->w; }
int mech_friction_model_ns(const mech_friction_model *m) { return m->ns; }
int mech_friction_model_nc(const mech_friction_model *m) { return m->nc; }
const mech_friction_contact *mech_friction_model_contact(const mech_friction_model *m, int c) { return &m->c[c]; }
const mech_friction_opt *mech_friction_model_opt(const mech_friction_model *m) { return &m->opt; }
void mech_friction_model_free(mech_friction_model *m) { free(m); }

/* (largest system order nmax) => the dgelsd workspace lengths that fit every square system of order 1..nmax with
 * one right-hand side (the minimum-norm split of statically indeterminate stick, friction_solve.c): LAPACK's own
 * workspace query, made once here so that the split allocates nothing. The query reads no matrix entries. */
static int lstsq_query(int nmax, int *lwork, int *liwork)
{
    *lwork = 1;
    *liwork = 1;
    for (int n = 1; n <= nmax; n++) {
        double a = 0, b = 0, s = 0, wq = 0;
        lapack_int iq = 0, rank = 0;
        lapack_int info = LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, n, n, 1, &a, n, &b, n, &s, 1e-13, &rank, &wq, -1,
                                              &iq);
        if (info != 0)
            return HY_ENUMERIC;
        if ((int)wq > *lwork)
            *lwork = (int)wq;
        if ((int)iq > *liwork)
            *liwork = (int)iq;
    }
    return HY_OK;
}

/* sizes of the arrays of one data, in the order they sit in the buffer */
typedef struct layout {
    size_t nd, ni;      /* doubles, ints */
    size_t lp_cols, lp_rows, lp_ne;
} layout;

static layout sizes(int w, int ns, int nc, int ls_lwork, int ls_liwork)
{
    size_t W = (size_t)(w + ns), nmax = (size_t)(ns + nc);
    layout L;
    L.lp_cols = 3 * (size_t)nc;
    L.lp_rows = (size_t)ns + 3 * (size_t)nc;
    L.lp_ne = L.lp_cols * L.lp_rows;
    L.nd = (size_t)(w * w) + (size_t)(ns * w) + (size_t)w + (size_t)ns + (size_t)w /* inputs */
         + 4 * (size_t)nc * W                                                            /* nvec, tvec */
         + (size_t)(w * w) + (size_t)w * (4 * (size_t)nc + 1) + 4 * (size_t)nc * (size_t)ns + (size_t)ns
         + 2 * (size_t)nc                                                                /* L Y Kn Kt d v */
         + 2 * (size_t)nc + (size_t)w                                                    /* N F qdd */
         + 2 * (nmax * nmax + nmax) + (size_t)(ns * ns) + (size_t)w                      /* A z A2 z2 Kw Yw */
         + L.lp_ne + 1                                                                   /* lp_ar */
         + nmax + (size_t)ls_lwork;                                                      /* ls_s ls_work */
    L.ni = 4 * (size_t)nc + 2 * nmax + 2 * (L.lp_ne + 1) + (size_t)ls_liwork;
    return L;
}

// (data, buffer) => every pointer set into the buffer
static void carve(mech_friction_data *d, char *buf)
{
    int w = d->w, ns = d->ns, nc = d->nc;
    size_t W = (size_t)(w + ns), nmax = (size_t)(ns + nc);
    layout L = sizes(w, ns, nc, d->ls_lwork, d->ls_liwork);
    double *p = (double *)buf;
#define TAKE(field, n) (d->field = p, p += (n))
    TAKE(Mqq, (size_t)(w * w));
    TAKE(Msq, (size_t)(ns * w));
    TAKE(fq, (size_t)w);
    TAKE(fs, (size_t)ns);
    TAKE(qd, (size_t)w);
    TAKE(nvec, 2 * (size_t)nc * W);
    TAKE(tvec, 2 * (size_t)nc * W);
    TAKE(L, (size_t)(w * w));
    TAKE(Y, (size_t)w * (4 * (size_t)nc + 1));
    TAKE(Kn, 2 * (size_t)nc * (size_t)ns);
    TAKE(Kt, 2 * (size_t)nc * (size_t)ns);
    TAKE(dvec, (size_t)ns);
    TAKE(v, 2 * (size_t)nc);
    TAKE(N, (size_t)nc);
    TAKE(F, (size_t)nc);
    TAKE(qdd, (size_t)w);
    TAKE(A, nmax * nmax);
    TAKE(z, nmax);
    TAKE(A2, nmax * nmax);
    TAKE(z2, nmax);
    TAKE(Kw, (size_t)(ns * ns));
    TAKE(Yw, (size_t)w);
    TAKE(lp_ar, L.lp_ne + 1);
    TAKE(ls_s, nmax);
    TAKE(ls_work, (size_t)d->ls_lwork);
#undef TAKE
    int *q = (int *)p;
#define TAKEI(field, n) (d->field = q, q += (n))
    TAKEI(chi, (size_t)nc);
    TAKEI(slip, (size_t)nc);
    TAKEI(chi_c, (size_t)nc);
    TAKEI(slip_c, (size_t)nc);
    TAKEI(ipiv, nmax);
    TAKEI(idx, nmax);
    TAKEI(lp_ia, L.lp_ne + 1);
    TAKEI(lp_ja, L.lp_ne + 1);
    TAKEI(ls_iwork, (size_t)d->ls_liwork);
#undef TAKEI
}

static size_t buffer_bytes(const mech_friction_data *d)
{
    layout L = sizes(d->w, d->ns, d->nc, d->ls_lwork, d->ls_liwork);
    return L.nd * sizeof(double) + L.ni * sizeof(int);
}

// (model) => data
int mech_friction_data_new(const mech_friction_model *m, mech_friction_data **out, hy_err *err)
{
    *out = NULL;
    int lwork, liwork;
    if (lstsq_query(m->ns + m->nc, &lwork, &liwork) != HY_OK)
        return hy_err_set(err, HY_ENUMERIC, "friction data: the dgelsd workspace query failed");
    mech_friction_data *d = calloc(1, sizeof *d);
    if (!d)
        return hy_err_set(err, HY_ENOMEM, "friction data: out of memory");
    d->w = m->w;
    d->ns = m->ns;
    d->nc = m->nc;
    d->ls_lwork = lwork;
    d->ls_liwork = liwork;
    char *buf = calloc(1, buffer_bytes(d));
    glp_term_out(GLP_OFF); /* GLPK prints nothing, ever */
    glp_prob *lp = buf ? glp_create_prob() : NULL;
    if (!buf || !lp) {
        free(d);
        free(buf);
        return hy_err_set(err, HY_ENOMEM, "friction data: out of memory");
    }
    carve(d, buf);
    d->lp = lp;
    for (int c = 0; c < m->nc; c++)
        d->chi[c] = d->chi_c[c] = 1;
    *out = d;
    return HY_OK;
}

// (dst, src) => copy (same model)
void mech_friction_data_copy(mech_friction_data *dst, const mech_friction_data *src)
{
    void *lp = dst->lp;
    char *buf = (char *)dst->Mqq;
    memcpy(buf, (const char *)src->Mqq, buffer_bytes(src));
    mech_friction_data save = *src;
    *dst = save;
    carve(dst, buf);
    dst->lp = lp;
}

void mech_friction_data_free(mech_friction_data *d)
{
    if (!d)
        return;
    if (d->lp)
        glp_delete_prob(d->lp);
    free(d->Mqq);
    free(d);
}

void mech_friction_commit(mech_friction_data *d)
{
    memcpy(d->chi_c, d->chi, (size_t)d->nc * sizeof *d->chi);
    memcpy(d->slip_c, d->slip, (size_t)d->nc * sizeof *d->slip);
}

void mech_friction_revert(mech_friction_data *d)
{
    memcpy(d->chi, d->chi_c, (size_t)d->nc * sizeof *d->chi);
    memcpy(d->slip, d->slip_c, (size_t)d->nc * sizeof *d->slip);
}

/* The reaction solver of spec 003: reduction of (E1) to the reaction subspace (E2) and the variant-index algorithm
 * of §2.3 with the stick closure of §2.2, plus the enumeration of all variants (the oracle of §5 and the paradox
 * report). LAPACK through the column-major LAPACKE _work entry points, which call Fortran directly and allocate
 * nothing (the row-major wrappers would allocate a transposed copy on every call). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>
#include "friction/friction_internal.h"

static double dot(const double *a, const double *b, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

// (model, data inputs) => L, Y, Kn, Kt, dvec, v (spec 003 §5: one dpotrf, one dpotrs with 4 nc + 1 right-hand sides)
int mech_friction_prepare(const mech_friction_model *m, mech_friction_data *d, hy_err *err)
{
    int w = m->w, ns = m->ns, nc = m->nc, W = w + ns;
    memcpy(d->L, d->Mqq, (size_t)(w * w) * sizeof *d->L); /* symmetric: row- and column-major alike */
    /* one coordinate (a guide, a slider): M_qq is a mass and its solve a division. Through OpenBLAS the 1 x 1
       dpotrf and the dpotrs with 4 nc + 1 right-hand sides (two dtrsm, each taking and returning a work buffer
       under a lock) were 7 % of a variant C docking run, called at every evaluation of the limiter's guides */
    int scalar = w == 1;
    lapack_int info = scalar ? (d->Mqq[0] > 0 ? 0 : 1) : LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', w, d->L, w);
    if (info != 0)
        return hy_err_set(err, HY_ENUMERIC, "friction: the mass matrix M_qq is not positive definite (dpotrf info "
                          "%d)", (int)info);
    if (scalar)
        d->L[0] = sqrt(d->Mqq[0]);
    for (int c = 0; c < nc; c++)
        for (int k = 0; k < 2; k++) {
            const double *n = d->nvec + (size_t)(2 * c + k) * W, *t = d->tvec + (size_t)(2 * c + k) * W;
            memcpy(fr_Y(d, c, k, 0), n, (size_t)w * sizeof(double));
            memcpy(fr_Y(d, c, k, 1), t, (size_t)w * sizeof(double));
            d->v[2 * c + k] = dot(t, d->qd, w);
        }
    memcpy(fr_Yf(d), d->fq, (size_t)w * sizeof(double));
    if (scalar) {
        for (int j = 0; j < 4 * nc + 1; j++)
            d->Y[j] /= d->Mqq[0];
    } else if ((info = LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', w, 4 * nc + 1, d->L, w, d->Y, w)) != 0) {
        return hy_err_set(err, HY_ENUMERIC, "friction: dpotrs info %d", (int)info);
    }
    /* K columns: the s-part minus Msq times the solved q-part (E2) */
    for (int c = 0; c < nc; c++)
        for (int k = 0; k < 2; k++) {
            const double *n = d->nvec + (size_t)(2 * c + k) * W + w, *t = d->tvec + (size_t)(2 * c + k) * W + w;
            const double *yn = fr_Y(d, c, k, 0), *yt = fr_Y(d, c, k, 1);
            double *kn = d->Kn + (size_t)(2 * c + k) * ns, *kt = d->Kt + (size_t)(2 * c + k) * ns;
            for (int i = 0; i < ns; i++) {
                const double *row = d->Msq + (size_t)i * w;
                kn[i] = n[i] - dot(row, yn, w);
                kt[i] = t[i] - dot(row, yt, w);
            }
        }
    for (int i = 0; i < ns; i++)
        d->dvec[i] = dot(d->Msq + (size_t)i * w, fr_Yf(d), w) - d->fs[i];
    return HY_OK;
}

// (chi, slip) => slip = sign(v) of the loaded side where |v| > eps_v
void fr_slip_from_v(const mech_friction_model *m, const mech_friction_data *d, const int *chi, int *slip)
{
    for (int c = 0; c < m->nc; c++) {
        double v = d->v[2 * c + fr_side(chi[c])];
        if (fabs(v) > m->opt.eps_v)
            slip[c] = v > 0 ? 1 : -1;
    }
}

/* (data with the system in A2, z2; n) => z = minimum-norm least-squares solution when the system is consistent.
 * dgelsd (SVD, divide and conquer) in the workspace sized by mech_friction_data_new: allocates nothing. The LU
 * factors in d->A are not needed any more, so A holds the scaled copy that dgelsd overwrites; z (nmax long) is
 * the right-hand side and receives the solution. */
static int min_norm(mech_friction_data *d, int n)
{
    /* the norm weighs the tangential forces only: the reactions' columns are scaled up by 1e6, so the solution
     * minimizes sum F^2 (equal tangential compliances) and the reactions follow from the equations */
    int nc = d->nc;
    for (int j = 0; j < n; j++) {
        double sc = j < nc ? 1e6 : 1.0;
        for (int i = 0; i < n; i++)
            d->A[(size_t)j * n + i] = d->A2[(size_t)j * n + i] * sc;
    }
    memcpy(d->z, d->z2, (size_t)n * sizeof *d->z);
    lapack_int rank = 0;
    lapack_int info = LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, n, n, 1, d->A, n, d->z, n, d->ls_s, 1e-13, &rank,
                                          d->ls_work, d->ls_lwork, d->ls_iwork);
    if (info != 0)
        return HY_ENUMERIC; /* the SVD did not converge */
    for (int j = 0; j < nc; j++)
        d->z[j] *= 1e6;
    double res = 0, scale = 0;
    for (int i = 0; i < n; i++) {
        double r = -d->z2[i];
        for (int j = 0; j < n; j++)
            r += d->A2[(size_t)j * n + i] * d->z[j], scale = fmax(scale, fabs(d->A2[(size_t)j * n + i] * d->z[j]));
        res = fmax(res, fabs(r));
        scale = fmax(scale, fabs(d->z2[i]));
    }
    return res > 1e-9 * fmax(scale, 1e-300) ? HY_ENUMERIC : HY_OK;
}

/* The square system of one discrete state. Unknowns z = (N_1..N_nc, F of the stuck contacts in order); rows: the
 * ns equations (E2), then t_q . q'' = 0 for each stuck contact (§2.2). Column-major in d->A. */
static int fr_finish(const mech_friction_model *m, mech_friction_data *d, const int *chi, const int *slip,
                     const double *z);

int fr_solve_fixed(const mech_friction_model *m, mech_friction_data *d, const int *chi, const int *slip, double *det)
{
    int w = m->w, ns = m->ns, nc = m->nc;
    int nst = 0;
    for (int c = 0; c < nc; c++)
        if (slip[c] == 0)
            d->idx[nst++] = c;
    int n = nc + nst;
    if (ns + nst != n)
        return HY_EARG;
    double *A = d->A, *z = d->z;
    for (int c = 0; c < nc; c++) {
        int k = fr_side(chi[c]);
        double ms = m->c[c].mu[k] * slip[c];
        const double *kn = d->Kn + (size_t)(2 * c + k) * ns, *kt = d->Kt + (size_t)(2 * c + k) * ns;
        double *col = A + (size_t)c * n;
        for (int i = 0; i < ns; i++)
            col[i] = kn[i] - ms * kt[i];
        if (nst) {
            const double *yn = fr_Y(d, c, k, 0), *yt = fr_Y(d, c, k, 1);
            for (int j = 0; j < w; j++)
                d->Yw[j] = yn[j] - ms * yt[j];
            for (int s = 0; s < nst; s++) {
                int cs = d->idx[s], ks = fr_side(chi[cs]);
                col[ns + s] = dot(d->tvec + (size_t)(2 * cs + ks) * (w + ns), d->Yw, w);
            }
        }
    }
    for (int s = 0; s < nst; s++) {
        int c = d->idx[s], k = fr_side(chi[c]);
        double *col = A + (size_t)(nc + s) * n;
        const double *kt = d->Kt + (size_t)(2 * c + k) * ns, *yt = fr_Y(d, c, k, 1);
        for (int i = 0; i < ns; i++)
            col[i] = kt[i];
        for (int r = 0; r < nst; r++) {
            int cr = d->idx[r], kr = fr_side(chi[cr]);
            col[ns + r] = dot(d->tvec + (size_t)(2 * cr + kr) * (w + ns), yt, w);
        }
    }
    for (int i = 0; i < ns; i++)
        z[i] = d->dvec[i];
    for (int r = 0; r < nst; r++) {
        int cr = d->idx[r], kr = fr_side(chi[cr]);
        z[ns + r] = -dot(d->tvec + (size_t)(2 * cr + kr) * (w + ns), fr_Yf(d), w);
    }
    if (nst) {
        memcpy(d->A2, A, (size_t)(n * n) * sizeof *A);
        memcpy(d->z2, z, (size_t)n * sizeof *z);
    }
    if (n == 2) {
        /* two unknowns (the movable limiter's two guide pairs sliding, every evaluation of its guides): Cramer's
           rule when the determinant is well away from cancellation. Through OpenBLAS the 2 x 2 dgetrf and dgetrs
           (each taking and returning a work buffer under a lock) were 6 % of a variant C docking run; a nearly
           singular system goes to LAPACK as before */
        double a = A[0], b = A[2], c = A[1], e = A[3], dt = a * e - b * c;
        if (fabs(dt) > 1e-8 * (fabs(a * e) + fabs(b * c))) {
            double z0 = z[0], z1 = z[1];
            z[0] = (e * z0 - b * z1) / dt;
            z[1] = (a * z1 - c * z0) / dt;
            if (det)
                *det = dt;
            return fr_finish(m, d, chi, slip, z);
        }
    }
    lapack_int info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, A, n, d->ipiv);
    if (det) {
        double p = 1;
        for (int i = 0; i < n; i++)
            p *= A[(size_t)i * n + i] * (d->ipiv[i] != i + 1 ? -1 : 1);
        *det = info > 0 ? 0.0 : p;
    }
    if (info < 0 || (info > 0 && !nst))
        return HY_ENUMERIC;
    if (info > 0) {
        /* several stuck contacts on dependent sliding directions (e.g. both pairs of a bushing on one axial
         * coordinate): their tangential forces are statically indeterminate. The minimum-norm split of the
         * tangential forces (SVD) is the minimum complementary energy of spec 003 §2.5 with equal tangential
         * compliances; it must satisfy the system. */
        if (min_norm(d, n) != HY_OK)
            return HY_ENUMERIC; /* no consistent split */
    } else {
        LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', n, 1, A, n, d->ipiv, z, n);
    }
    return fr_finish(m, d, chi, slip, z);
}

// (model, data, variant, the fixed solve's unknowns z = (N, stuck F)) => N, F and qdd of the variant
static int fr_finish(const mech_friction_model *m, mech_friction_data *d, const int *chi, const int *slip,
                     const double *z)
{
    int w = m->w, nc = m->nc;
    /* reactions, tangential forces, accelerations q'' = Mqq^-1 (fq + sum N (n_q - mu sigma t_q) + sum F t_q) */
    memcpy(d->qdd, fr_Yf(d), (size_t)w * sizeof *d->qdd);
    for (int c = 0, s = 0; c < nc; c++) {
        int k = fr_side(chi[c]);
        double N = z[c], mu = m->c[c].mu[k];
        const double *yn = fr_Y(d, c, k, 0), *yt = fr_Y(d, c, k, 1);
        double F = slip[c] == 0 ? z[nc + s++] : -mu * slip[c] * N;
        d->N[c] = N;
        d->F[c] = F;
        for (int j = 0; j < w; j++)
            d->qdd[j] += N * yn[j] + F * yt[j];
    }
    return HY_OK;
}

// (data after a fixed solve) => admissible?
int fr_admissible(const mech_friction_model *m, const mech_friction_data *d, const int *chi, const int *slip)
{
    double tol = m->opt.eps_N;
    for (int c = 0; c < m->nc; c++) {
        if (d->N[c] < -tol)
            return 0;
        if (slip[c] == 0 && fabs(d->F[c]) > m->c[c].mu_s[fr_side(chi[c])] * fmax(d->N[c], 0.0) + tol)
            return 0;
    }
    return 1;
}

// (model, prepared data) => every variant tried; count of admissible ones; the first left in the data
int mech_friction_enumerate(const mech_friction_model *m, mech_friction_data *d, int *count, hy_err *err)
{
    int nc = m->nc;
    *count = 0;
    if (!fr_square(m))
        return hy_err_set(err, HY_EARG, "friction: the enumeration needs as many variant pairs as redundant "
                          "coordinates");
    int chi[MECH_FRICTION_MAX_CONTACTS], slip[MECH_FRICTION_MAX_CONTACTS];
    int first = -1;
    double N1[MECH_FRICTION_MAX_CONTACTS], scale = 0;
    d->n_det = 0;
    for (unsigned b = 0; b < (1u << nc); b++) {
        for (int c = 0; c < nc; c++) {
            chi[c] = (b >> c) & 1 ? -1 : 1;
            slip[c] = d->slip[c];
        }
        fr_slip_from_v(m, d, chi, slip);
        double det;
        int rc = fr_solve_fixed(m, d, chi, slip, &det);
        if (b < 64) {
            d->det[b] = det;
            d->n_det = (int)b + 1;
        }
        if (rc == HY_OK && fr_admissible(m, d, chi, slip)) {
            /* variants that differ only in pairs carrying no load are one solution (all reactions alike) */
            int same = 0;
            if (first >= 0) {
                double dev = 0, sc = scale;
                for (int c = 0; c < nc; c++)
                    dev = fmax(dev, fabs(d->N[c] - N1[c])), sc = fmax(sc, fabs(d->N[c]));
                same = dev <= 1e-6 * sc + 10 * m->opt.eps_N;
            } else {
                first = (int)b;
                for (int c = 0; c < nc; c++)
                    N1[c] = d->N[c], scale = fmax(scale, fabs(d->N[c]));
            }
            if (!same) {
                if (*count < 2)
                    d->sol_mask[*count] = b;
                ++*count;
            }
        }
    }
    d->n_solutions = *count;
    if (first >= 0) {
        for (int c = 0; c < nc; c++)
            d->chi[c] = ((unsigned)first >> c) & 1 ? -1 : 1;
        fr_slip_from_v(m, d, d->chi, d->slip);
        fr_solve_fixed(m, d, d->chi, d->slip, NULL); /* solved admissibly in the loop above */
    }
    return HY_OK;
}

// (model, prepared data, warm start in chi/slip) => the variant-index algorithm of §2.3 (+ fallback)
int mech_friction_solve(const mech_friction_model *m, mech_friction_data *d, hy_err *err)
{
    int nc = m->nc;
    d->attempts = 0;
    d->n_solutions = -1;
    d->bad_pairs = 0;
    if (!fr_square(m)) {
        d->method = MECH_FRICTION_LP;
        return mech_friction_lp(m, d, err);
    }
    int *chi = d->chi, *slip = d->slip;
    int settled = 0;
    int flipped = 1;
    for (int a = 0; a < m->opt.max_attempts && !settled; a++) {
        fr_slip_from_v(m, d, chi, slip);
        /* attempts count the solves with a new variant (the paper's "attempts"); a re-solve after a stick
         * hypothesis was released is not one */
        d->attempts += flipped;
        if (fr_solve_fixed(m, d, chi, slip, NULL) != HY_OK)
            break; /* singular variant: let the enumeration decide */
        int changed = 0;
        unsigned bad = 0;
        /* 3. flip chi_j for every pair whose reaction points out of the body */
        for (int c = 0; c < nc; c++)
            if (d->N[c] < -m->opt.eps_N) {
                chi[c] = -chi[c];
                bad |= 1u << c;
                changed = 1;
            }
        d->bad_pairs = bad;
        flipped = changed;
        /* §2.2: a stuck contact whose force leaves the cone slips against that force (unless the caller holds it) */
        if (!changed && !d->hold)
            for (int c = 0; c < nc; c++)
                if (slip[c] == 0 && fabs(d->F[c]) > m->c[c].mu_s[fr_side(chi[c])] * fmax(d->N[c], 0) + m->opt.eps_N) {
                    slip[c] = d->F[c] > 0 ? -1 : 1;
                    changed = 1;
                }
        settled = !changed;
    }
    if (settled) {
        d->method = MECH_FRICTION_VARIANT;
        return HY_OK;
    }
    if (!m->opt.fallback)
        return hy_err_set(err, HY_ENUMERIC, "friction: the variant-index algorithm did not settle in %d attempts",
                          m->opt.max_attempts);
    int count, rc = mech_friction_enumerate(m, d, &count, err);
    if (rc != HY_OK)
        return rc;
    /* the stick hypotheses may be what fails: the attempts apply the cone test of §2.2 only in an attempt that
       flipped no chi, so on nearly unloaded pairs (the stick force's moment through t flipping the sign of a tiny
       N) they can cycle on chi and never release a stick the cone refuses, and the enumeration keeps it. Release
       every stuck contact whose stick force left its cone in the last solve, against that force, and enumerate
       again, until a variant is admissible or no stick is left to release (at most nc rounds: a released contact
       is not stuck again here; one released stick can load another past its cone) */
    for (int released = 1; count == 0 && released;) {
        released = 0;
        for (int c = 0; c < nc; c++)
            if (slip[c] == 0 && fabs(d->F[c]) > m->c[c].mu_s[fr_side(chi[c])] * fmax(d->N[c], 0) + m->opt.eps_N) {
                slip[c] = d->F[c] > 0 ? -1 : 1;
                released = 1;
            }
        if (released && (rc = mech_friction_enumerate(m, d, &count, err)) != HY_OK)
            return rc;
    }
    if (count == 1) {
        d->method = MECH_FRICTION_ENUM;
        return HY_OK;
    }
    if (count == 0)
        return hy_err_set(err, HY_ESTATE, "friction: no admissible variant (Painlevé paradox: non-existence)");
    d->method = MECH_FRICTION_LP;
    return mech_friction_lp(m, d, err);
}

// (data, buffer) => "chi = (+-), det = ...; ..." for the paradox message
int mech_friction_report(const mech_friction_data *d, char *buf, size_t len)
{
    int nc = d->nc, n = 0;
    buf[0] = '\0';
    for (int b = 0; b < d->n_det && b < 16; b++) {
        char s[MECH_FRICTION_MAX_CONTACTS + 1];
        for (int c = 0; c < nc; c++)
            s[c] = (b >> c) & 1 ? '-' : '+';
        s[nc] = '\0';
        int k = snprintf(buf + n, len - (size_t)n, "%sdet(%s) = %.5g", b ? ", " : "", s, d->det[b]);
        if (k < 0 || (size_t)(n + k) >= len)
            break;
        n += k;
    }
    return n;
}

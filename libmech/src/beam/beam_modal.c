/* Modal reduction of the jointed beam (spec 004 §2, §3): the clamped hinged beam's modes by LAPACK's generalized
 * symmetric eigensolver (dsygvd: mass-normalised, Phi' Mbar Phi = I), optional hinge attachment modes (the static
 * response Kbar^-1 to a unit moment pair at each hinge, spec §9.2) merged by a Rayleigh-Ritz solve in the span,
 * and the reduced quantities Mhat, Khat, H, J, tip and hinge rows. Also the frequency tables. */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "beam/beam_internal.h"

// (A n x n, B n x n SPD, both overwritten) => ascending eigenvalues w and, in A, B-orthonormal eigenvectors (columns)
static int gen_eig(double *A, double *B, size_t n, double *w, const char *what, hy_err *err)
{
    lapack_int info = LAPACKE_dsygvd(LAPACK_ROW_MAJOR, 1, 'V', 'U', (lapack_int)n, A, (lapack_int)n, B,
                                     (lapack_int)n, w);
    if (info != 0)
        return hy_err_set(err, beam_lapack_code((int)info), "%s: LAPACK dsygvd failed (info %d)%s", what, (int)info,
                          info > (lapack_int)n ? ": the mass matrix is not positive definite" : "");
    return HY_OK;
}

// (A n x n, B n x n SPD, both overwritten, k < n) => the k lowest eigenvalues w and, in A's first k columns,
// their B-orthonormal eigenvectors: LAPACK's dsygvx (bisection and inverse iteration for the k wanted) in place of
// all n by dsygvd, which was most of `mech beam sim`'s model build (§4.5: 5 of 122)
static int gen_eig_lowest(double *A, double *B, size_t n, size_t k, double *w, const char *what, hy_err *err)
{
    double *Z = malloc(n * k * sizeof *Z);
    lapack_int *ifail = malloc(n * sizeof *ifail), found = 0;
    if (!Z || !ifail) {
        free(Z);
        free(ifail);
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", what);
    }
    lapack_int info = LAPACKE_dsygvx(LAPACK_ROW_MAJOR, 1, 'V', 'I', 'U', (lapack_int)n, A, (lapack_int)n, B,
                                     (lapack_int)n, 0.0, 0.0, 1, (lapack_int)k, 2 * LAPACKE_dlamch('S'), &found, w, Z,
                                     (lapack_int)k, ifail);
    if (info == 0 && found != (lapack_int)k)
        info = -100;
    if (info == 0)
        for (size_t i = 0; i < n; i++)
            for (size_t c = 0; c < k; c++)
                A[i * n + c] = Z[i * k + c];
    free(Z);
    free(ifail);
    if (info != 0)
        return hy_err_set(err, beam_lapack_code((int)info), "%s: LAPACK dsygvx failed (info %d)%s", what, (int)info,
                          info > (lapack_int)n ? ": the mass matrix is not positive definite" : "");
    return HY_OK;
}

/* (V n x k, A n x n) => V' A V (k x k). The loops run along rows (contiguous, vectorised) but add each sum's terms
 * in the same order as the textbook loop (j, then i ascending), so the result is the same to the last bit: with all
 * modes of a 1000-element beam (n = k ~ 2000) the column-strided loop took most of a minute. A's zeros are skipped:
 * the FE matrices are banded (7 nonzeros in a row of 121 for the paper's beam), and a zero term adds nothing (V is
 * finite; only the sign of an exact zero sum could differ): `mech beam sim`'s model build -0.2 ms. */
static void project(const double *V, const double *A, size_t n, size_t k, double *out, double *tmp)
{
    for (size_t i = 0; i < n; i++) {
        double *ti = tmp + i * k;
        for (size_t c = 0; c < k; c++)
            ti[c] = 0;
        for (size_t j = 0; j < n; j++) {
            double a = A[i * n + j];
            if (a == 0.0)
                continue;
            const double *vj = V + j * k;
            for (size_t c = 0; c < k; c++)
                ti[c] += a * vj[c];
        }
    }
    for (size_t r = 0; r < k; r++) {
        double *o = out + r * k;
        for (size_t c = 0; c < k; c++)
            o[c] = 0;
        for (size_t i = 0; i < n; i++) {
            double v = V[i * k + r];
            const double *ti = tmp + i * k;
            for (size_t c = 0; c < k; c++)
                o[c] += v * ti[c];
        }
    }
}

// (v n, V n x k) => v' V (k)
static void row(const double *v, const double *V, size_t n, size_t k, double *out)
{
    for (size_t c = 0; c < k; c++) {
        double s = 0;
        for (size_t i = 0; i < n; i++)
            s += v[i] * V[i * k + c];
        out[c] = s;
    }
}

int beam_modal_build(mech_beam_model *m, hy_err *err)
{
    const mech_beam_params *p = &m->p;
    size_t n = m->ndof, nh = (size_t)p->n_hinges;
    size_t ne = p->n_modes == 0 || (size_t)p->n_modes > n ? n : (size_t)p->n_modes;
    size_t na = p->attachment_modes ? nh : 0, nm = ne + na;
    if (nm > n)
        return hy_err_set(err, HY_EMODEL, "modes.attachment: %zu modes plus %zu attachment modes exceed the %zu "
                          "DOFs of the mesh (use fewer modes)", ne, na, n);
    m->nm = nm;
    double *A = malloc((3 * n * n + n + n * nm + nm * nm * 2) * sizeof *A);
    if (!A)
        return hy_err_set(err, HY_ENOMEM, "beam model: out of memory");
    double *B = A + n * n, *tmp = B + n * n, *w = tmp + n * n, *V = w + n, *Kr = V + n * nm, *Mr = Kr + nm * nm;
    memcpy(A, m->Kbar, n * n * sizeof *A);
    memcpy(B, m->Mbar, n * n * sizeof *B);
    int rc = ne < n ? gen_eig_lowest(A, B, n, ne, w, "clamped hinged beam", err)
                    : gen_eig(A, B, n, w, "clamped hinged beam", err);
    m->Phi = calloc(n * nm + 6 * nm + 2 * nm * nm + nh * nm, sizeof(double));
    if (rc == HY_OK && !m->Phi)
        rc = hy_err_set(err, HY_ENOMEM, "beam model: out of memory");
    if (rc != HY_OK) {
        free(A);
        return rc;
    }
    m->omega = m->Phi + n * nm;
    m->H = m->omega + nm;
    m->tip = m->H + nm;
    m->b_u = m->tip + nm;
    m->f_load = m->b_u + nm;
    m->Mhat = m->f_load + nm;
    m->Khat = m->Mhat + nm * nm;
    m->dphi = m->Khat + nm * nm;
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < ne; c++)
            V[i * nm + c] = A[i * n + c];
    if (na > 0) {
        /* attachment modes: Kbar s_j = e_dphi_j (a unit moment pair opening hinge j), spec §9.2 */
        for (size_t j = 0; j < na; j++) {
            memcpy(A, m->Kbar, n * n * sizeof *A);
            memcpy(w, m->e_dphi + j * n, n * sizeof *w);
            lapack_int info = LAPACKE_dposv(LAPACK_ROW_MAJOR, 'U', (lapack_int)n, 1, A, (lapack_int)n, w, 1);
            if (info != 0) {
                free(A);
                return hy_err_set(err, beam_lapack_code((int)info), "modes.attachment: the clamped hinged beam's stiffness is "
                                  "singular (LAPACK dposv info %d)", (int)info);
            }
            double s = 0;
            for (size_t i = 0; i < n; i++)
                s = fmax(s, fabs(w[i]));
            for (size_t i = 0; i < n; i++)
                V[i * nm + ne + j] = w[i] / s;
        }
        /* Rayleigh-Ritz in span[Phi, S]: the merged basis is mass-normalised with a diagonal Khat again */
        project(V, m->Kbar, n, nm, Kr, tmp);
        project(V, m->Mbar, n, nm, Mr, tmp);
        if ((rc = gen_eig(Kr, Mr, nm, w, "modes.attachment (Rayleigh-Ritz in modes + attachment modes)", err))) {
            free(A);
            return rc;
        }
        for (size_t i = 0; i < n; i++)
            for (size_t c = 0; c < nm; c++) {
                double s = 0;
                for (size_t r = 0; r < nm; r++)
                    s += V[i * nm + r] * Kr[r * nm + c];
                m->Phi[i * nm + c] = s;
            }
    } else {
        memcpy(m->Phi, V, n * nm * sizeof *V);
    }
    /* sign: tip deflection positive in every mode (the convention of spec §8's H) */
    for (size_t c = 0; c < nm; c++) {
        double t = m->Phi[(size_t)m->tip_dof * nm + c];
        if (t < 0)
            for (size_t i = 0; i < n; i++)
                m->Phi[i * nm + c] = -m->Phi[i * nm + c];
    }
    project(m->Phi, m->Mbar, n, nm, m->Mhat, tmp);
    project(m->Phi, m->Kbar, n, nm, m->Khat, tmp);
    /* Mhat = I and Khat diagonal up to round-off (dsygvd's vectors, or the Ritz vectors): record the deviation and
     * snap it, so that the Newmark matrix of the reduced model is exactly diagonal plus the theta border */
    double kmax = 0, dev = 0;
    for (size_t c = 0; c < nm; c++)
        kmax = fmax(kmax, fabs(m->Khat[c * nm + c]));
    for (size_t r = 0; r < nm; r++)
        for (size_t c = 0; c < nm; c++) {
            dev = fmax(dev, fabs(m->Mhat[r * nm + c] - (r == c)));
            if (r != c)
                dev = fmax(dev, fabs(m->Khat[r * nm + c]) / kmax);
        }
    m->ortho_err = dev;
    if (!(dev < 1e-5)) {
        free(A);
        return hy_err_set(err, HY_ENUMERIC, "modes: the modal basis is not mass-orthonormal (deviation %.3g); the "
                          "hinge stiffness is probably too large for double precision (use k <= 1e9)", dev);
    }
    for (size_t r = 0; r < nm; r++)
        for (size_t c = 0; c < nm; c++) {
            m->Mhat[r * nm + c] = r == c;
            if (r != c)
                m->Khat[r * nm + c] = 0;
        }
    for (size_t c = 0; c < nm; c++)
        m->omega[c] = sqrt(fmax(0.0, m->Khat[c * nm + c]));
    row(m->h_phys, m->Phi, n, nm, m->H);
    row(m->e_tip, m->Phi, n, nm, m->tip);
    row(m->e_u, m->Phi, n, nm, m->b_u);
    row(m->e_load, m->Phi, n, nm, m->f_load);
    for (size_t j = 0; j < nh; j++)
        row(m->e_dphi + j * n, m->Phi, n, nm, m->dphi + j * nm);
    free(A);
    m->red = (beam_sys){.n = nm, .M = m->Mhat, .K = m->Khat, .h = m->H, .J = m->J, .tip = m->tip, .dphi = m->dphi,
                        .b_u = m->b_u, .f_load = m->f_load};
    m->phys = (beam_sys){.n = n, .banded = 1, .kd = m->kd, .M = m->Mband, .K = m->Kband, .h = m->h_phys, .J = m->J,
                         .tip = m->e_tip, .dphi = m->e_dphi, .b_u = m->e_u, .f_load = m->e_load};
    return HY_OK;
}

// (lambda) => frequency in Hz (round-off negatives of a singular stiffness are 0)
static double hz(double lambda)
{
    return sqrt(fmax(0.0, lambda)) / (2 * M_PI);
}

// (K, M nm x nm) => frequencies of eig(K, M)
static int freq_of(const double *K, const double *M, size_t k, double *f, const char *what, hy_err *err)
{
    double *A = malloc((2 * k * k + k) * sizeof *A);
    if (!A)
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", what);
    double *B = A + k * k, *w = B + k * k;
    memcpy(A, K, k * k * sizeof *A);
    memcpy(B, M, k * k * sizeof *B);
    int rc = gen_eig(A, B, k, w, what, err);
    for (size_t i = 0; rc == HY_OK && i < k; i++)
        f[i] = hz(w[i]);
    free(A);
    return rc;
}

int mech_beam_freq_clamped(const mech_beam_model *m, double *f, hy_err *err)
{
    return freq_of(m->Khat, m->Mhat, m->nm, f, "clamped frequencies", err);
}

int mech_beam_freq_open(const mech_beam_model *m, double *f, hy_err *err)
{
    size_t k = m->nm;
    double *K = malloc(k * k * sizeof *K);
    if (!K)
        return hy_err_set(err, HY_ENOMEM, "open-hinge frequencies: out of memory");
    memcpy(K, m->Khat, k * k * sizeof *K);
    for (int j = 0; j < m->p.n_hinges; j++) {
        const double *d = m->dphi + (size_t)j * k;
        for (size_t r = 0; r < k; r++)
            for (size_t c = 0; c < k; c++)
                K[r * k + c] -= m->p.hinge[j].k * d[r] * d[c];
    }
    int rc = freq_of(K, m->Mhat, k, f, "open-hinge frequencies", err);
    free(K);
    return rc;
}

// M_s = [[J, H], [H', Mhat]], K_s = diag(0, Khat) (spec §5 eq. 22; §10.3)
int mech_beam_freq_system(const mech_beam_model *m, double *f, hy_err *err)
{
    size_t k = m->nm + 1;
    double *K = calloc(2 * k * k, sizeof *K);
    if (!K)
        return hy_err_set(err, HY_ENOMEM, "system frequencies: out of memory");
    double *M = K + k * k;
    M[0] = m->J;
    for (size_t i = 0; i < m->nm; i++) {
        M[i + 1] = M[(i + 1) * k] = m->H[i];
        for (size_t j = 0; j < m->nm; j++) {
            M[(i + 1) * k + j + 1] = m->Mhat[i * m->nm + j];
            K[(i + 1) * k + j + 1] = m->Khat[i * m->nm + j];
        }
    }
    int rc = freq_of(K, M, k, f, "system frequencies", err);
    free(K);
    return rc;
}

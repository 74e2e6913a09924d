/* What must hold before a CARE has a stabilising solution, checked with LAPACK: argument values (Q symmetric
 * PSD, R symmetric PD), stabilisability of (A, B) and detectability of (A, Q^(1/2)) by the PBH test, and the
 * eigenvalue helpers (poles, damping ratios). docs/ctrl.md explains the tolerances. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>
#include "ctrl/ctrl_internal.h"
#include "mech/ctrl.h"

/* ---- argument checks ---- */

// (name, M, k x k) => HY_OK or HY_EARG when M has a non-finite entry or is not symmetric to 1e-10 of its largest entry
static int check_symmetric(const char *who, const char *name, size_t k, const double *M, hy_err *err)
{
    double big = 0.0;
    for (size_t i = 0; i < k * k; i++) {
        if (!isfinite(M[i]))
            return hy_err_set(err, HY_EARG, "%s: %s[%zu][%zu] is not a finite number", who, name, i / k, i % k);
        big = fmax(big, fabs(M[i]));
    }
    for (size_t i = 0; i < k; i++)
        for (size_t j = i + 1; j < k; j++)
            if (fabs(M[i * k + j] - M[j * k + i]) > 1e-10 * big)
                return hy_err_set(err, HY_EARG, "%s: %s is not symmetric: %s[%zu][%zu] = %.17g but %s[%zu][%zu] = %.17g",
                                  who, name, name, i, j, M[i * k + j], name, j, i, M[j * k + i]);
    return HY_OK;
}

// (symmetric M, k x k) => its eigenvalues ascending in w[k] (dsyev); HY_OK or HY_ENUMERIC/HY_ENOMEM
static int sym_eigenvalues(const char *who, size_t k, const double *M, double *w, hy_err *err)
{
    double *c = malloc(k * k * sizeof *c);
    if (!c)
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", who);
    memcpy(c, M, k * k * sizeof *c);
    lapack_int rc = LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', (lapack_int)k, c, (lapack_int)k, w);
    free(c);
    if (rc != 0)
        return hy_err_set(err, ctrl_lapack_code((int)rc), "%s: LAPACKE_dsyev failed (info %d)", who, (int)rc);
    return HY_OK;
}

int ctrl_check_args(const char *who, size_t n, size_t m, const double *A, const double *B, const double *Q,
                    const double *R, hy_err *err)
{
    if (n == 0 || m == 0)
        return hy_err_set(err, HY_EARG, "%s: need at least one state and one input (n = %zu, m = %zu)", who, n, m);
    if (n > CTRL_MAX_DIM || m > CTRL_MAX_DIM)
        return hy_err_set(err, HY_EARG, "%s: n = %zu states, m = %zu inputs: at most %d each", who, n, m,
                          CTRL_MAX_DIM);
    if (!A || !B || !Q || !R)
        return hy_err_set(err, HY_EARG, "%s: matrix %s is NULL", who, !A ? "A" : !B ? "B" : !Q ? "Q" : "R");
    for (size_t i = 0; i < n * n; i++)
        if (!isfinite(A[i]))
            return hy_err_set(err, HY_EARG, "%s: A[%zu][%zu] is not a finite number", who, i / n, i % n);
    for (size_t i = 0; i < n * m; i++)
        if (!isfinite(B[i]))
            return hy_err_set(err, HY_EARG, "%s: B[%zu][%zu] is not a finite number", who, i / m, i % m);
    int rc = check_symmetric(who, "Q", n, Q, err);
    if (rc == HY_OK)
        rc = check_symmetric(who, "R", m, R, err);
    if (rc != HY_OK)
        return rc;

    size_t k = n > m ? n : m;
    double *w = malloc(k * sizeof *w);
    if (!w)
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", who);
    rc = sym_eigenvalues(who, n, Q, w, err);
    /* PSD up to rounding: a Q built as C'C may carry eigenvalues of -eps |Q| */
    if (rc == HY_OK && w[0] < -100.0 * (double)n * DBL_EPSILON * fmax(fabs(w[n - 1]), fabs(w[0])))
        rc = hy_err_set(err, HY_EARG, "%s: Q is not positive semidefinite: its smallest eigenvalue is %.6g "
                        "(largest %.6g)", who, w[0], w[n - 1]);
    if (rc == HY_OK)
        rc = sym_eigenvalues(who, m, R, w, err);
    /* R must be invertible with margin: Cholesky would accept eigenvalues of order eps |R| */
    if (rc == HY_OK && !(w[0] > 100.0 * (double)m * DBL_EPSILON * fabs(w[m - 1])))
        rc = hy_err_set(err, HY_EARG, "%s: R is not positive definite: its smallest eigenvalue is %.6g "
                        "(largest %.6g)", who, w[0], w[m - 1]);
    free(w);
    return rc;
}

/* ---- balancing ---- */

int ctrl_balance(const char *who, size_t n, size_t m, const double *A, const double *B, const double *Q,
                 double *As, double *Bs, double *Qs, double *d, hy_err *err)
{
    memcpy(As, A, n * n * sizeof *As);
    lapack_int ilo = 0, ihi = 0;
    lapack_int rc = LAPACKE_dgebal(LAPACK_ROW_MAJOR, 'S', (lapack_int)n, As, (lapack_int)n, &ilo, &ihi, d);
    if (rc != 0)
        return hy_err_set(err, ctrl_lapack_code((int)rc), "%s: LAPACKE_dgebal failed (info %d)", who, (int)rc);
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < m; k++)
            Bs[i * m + k] = B[i * m + k] / d[i];
        for (size_t j = 0; j < n; j++)
            Qs[i * n + j] = d[i] * Q[i * n + j] * d[j];
    }
    return HY_OK;
}

void ctrl_unbalance(size_t n, const double *d, double *X)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            X[i * n + j] /= d[i] * d[j];
}

/* ---- eigenvalues ---- */

int mech_ctrl_poles(size_t n, const double *A, double *re, double *im, hy_err *err)
{
    if (n == 0 || n > CTRL_MAX_DIM || !A || !re || !im)
        return hy_err_set(err, HY_EARG, "poles: need a matrix of 1 to %d rows (n = %zu)", CTRL_MAX_DIM, n);
    for (size_t i = 0; i < n * n; i++)
        if (!isfinite(A[i]))
            return hy_err_set(err, HY_EARG, "poles: A[%zu][%zu] is not a finite number", i / n, i % n);
    double *c = malloc(n * n * sizeof *c);
    if (!c)
        return hy_err_set(err, HY_ENOMEM, "poles: out of memory");
    memcpy(c, A, n * n * sizeof *c);
    lapack_int rc = LAPACKE_dgeev(LAPACK_ROW_MAJOR, 'N', 'N', (lapack_int)n, c, (lapack_int)n, re, im, NULL, 1,
                                  NULL, 1);
    free(c);
    if (rc != 0)
        return hy_err_set(err, ctrl_lapack_code((int)rc), "poles: LAPACKE_dgeev failed (info %d)", (int)rc);
    return HY_OK;
}

void mech_ctrl_damping(size_t n, const double *re, const double *im, double *zeta, double *wn)
{
    for (size_t i = 0; i < n; i++) {
        double r = hypot(re[i], im[i]);
        if (wn)
            wn[i] = r;
        if (zeta)
            zeta[i] = r > 0.0 ? -re[i] / r : 1.0;
    }
}

double mech_ctrl_default_tol(size_t n, const double *A, hy_err *err)
{
    double *re = malloc(2 * n * sizeof *re);
    if (!re) {
        hy_err_set(err, HY_ENOMEM, "default tolerance: out of memory");
        return -1.0;
    }
    double rho = 0.0;
    int rc = mech_ctrl_poles(n, A, re, re + n, err);
    for (size_t i = 0; rc == HY_OK && i < n; i++)
        rho = fmax(rho, hypot(re[i], re[n + i]));
    free(re);
    return rc == HY_OK ? 1e-6 * fmax(1.0, rho) : -1.0;
}

/* ---- PBH test ---- */

typedef struct pbh_hit {
    double re, im;  /* eigenvalue (im >= 0; a complex pair is listed once)                  */
    int    count;   /* algebraic multiplicity among the offending eigenvalues               */
    int    rank;    /* rank of [A - lambda I, B]                                             */
} pbh_hit;

/* (A n x n, B n x m, tol) => the eigenvalues with Re >= -tol (axis_only: |Re| <= tol) where
 * rank [A - lambda I, B] < n, up to max_hits distinct ones in hits[] (*nhits of them; *total counts all, with
 * multiplicity). Eigenvalues within tol of 0 are evaluated at exactly 0: a defective double eigenvalue at 0 (a rigid
 * mode: angle and rate) comes out of dgeev split by about sqrt(eps)|A|, and the test at the split value would see a
 * spurious full rank. Rank: singular values (dgesvd) above 1000 eps |[A B]|_F.
 * A complex lambda = a + ib is handled in real arithmetic: the real 2n x 2(n+m) form [[Mr, -Mi], [Mi, Mr]] of
 * M = Mr + i Mi has the singular values of M, each twice. (Debian 12's OpenBLAS 0.3.21 reads out of bounds in its
 * complex gemv kernel inside zgesvd on wide matrices, OpenBLAS issue #5000; the real route avoids it.) The
 * transpose is decomposed: tall, same singular values. */
static int pbh_scan(const char *who, size_t n, size_t m, const double *A, const double *B, double tol,
                    int axis_only, pbh_hit *hits, int max_hits, int *nhits, int *total, hy_err *err)
{
    *nhits = 0;
    *total = 0;
    size_t w = n + m, rows = 2 * w, cols = 2 * n; /* the transposed real form: rows x cols */
    double *re = malloc(2 * n * sizeof *re);
    double *sv = malloc(cols * sizeof *sv);
    double *superb = malloc(cols * sizeof *superb);
    double *T = malloc(rows * cols * sizeof *T);
    if (!re || !sv || !superb || !T) {
        free(re); free(sv); free(superb); free(T);
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", who);
    }
    double *im = re + n;
    int rc = mech_ctrl_poles(n, A, re, im, err);
    double norm = 0.0;
    for (size_t i = 0; i < n * n; i++)
        norm += A[i] * A[i];
    for (size_t i = 0; i < n * m; i++)
        norm += B[i] * B[i];
    double rank_tol = 1000.0 * DBL_EPSILON * sqrt(norm);

    for (size_t k = 0; rc == HY_OK && k < n; k++) {
        if (re[k] < -tol || (axis_only && re[k] > tol) || im[k] < 0.0)
            continue; /* stable (or off the axis when axis_only), or the second of a conjugate pair */
        double lr = re[k], li = im[k];
        if (hypot(lr, li) <= tol)
            lr = li = 0.0;
        int cplx = li != 0.0;
        size_t r = cplx ? rows : w, c = cplx ? cols : n; /* T is r x c, row-major */
        /* T = M' for real lambda (M = [A - lr I, B]); the transposed real form for complex lambda */
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < w; j++) {
                double mr = j < n ? A[i * n + j] - (i == j ? lr : 0.0) : B[i * m + (j - n)];
                double mi = j == i ? -li : 0.0;
                if (!cplx) {
                    T[j * c + i] = mr;
                    continue;
                }
                /* real form R = [[Mr, -Mi], [Mi, Mr]] (2n x 2w); T[j][i] = R[i][j] */
                T[j * c + i] = mr;
                T[(w + j) * c + i] = -mi;
                T[j * c + n + i] = mi;
                T[(w + j) * c + n + i] = mr;
            }
        lapack_int info = LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'N', 'N', (lapack_int)r, (lapack_int)c, T,
                                         (lapack_int)c, sv, NULL, 1, NULL, 1, superb);
        if (info != 0) {
            rc = hy_err_set(err, ctrl_lapack_code((int)info), "%s: PBH test: LAPACKE_dgesvd failed (info %d)", who, (int)info);
            break;
        }
        int count = 0;
        for (size_t i = 0; i < c; i++)
            count += sv[i] > rank_tol;
        int rank = cplx ? (count + 1) / 2 : count;
        if (rank >= (int)n)
            continue;
        int mult = cplx ? 2 : 1;
        *total += mult;
        int j = 0;
        while (j < *nhits && hypot(hits[j].re - lr, hits[j].im - li) > tol)
            j++;
        if (j < *nhits) {
            hits[j].count += mult;
            hits[j].rank = rank < hits[j].rank ? rank : hits[j].rank;
        } else if (*nhits < max_hits) {
            hits[*nhits] = (pbh_hit){lr, li, mult, rank};
            (*nhits)++;
        }
    }
    free(re); free(sv); free(superb); free(T);
    return rc;
}

// (A n x n) => A' in a new array (NULL when out of memory)
static double *transposed(size_t r, size_t c, const double *M)
{
    double *T = malloc(r * c * sizeof *T);
    if (T)
        for (size_t i = 0; i < r; i++)
            for (size_t j = 0; j < c; j++)
                T[j * r + i] = M[i * c + j];
    return T;
}

// shared body of mech_ctrl_stabilisable and mech_ctrl_detectable (dual = 1: test (A', C'))
static int pbh_public(const char *who, size_t n, size_t m, const double *A, const double *B, double tol, int dual,
                      double *bad_re, double *bad_im, hy_err *err)
{
    if (n == 0 || m == 0 || n > CTRL_MAX_DIM || m > CTRL_MAX_DIM || !A || !B) {
        hy_err_set(err, HY_EARG, "%s: need 1 to %d states and inputs and two matrices (n = %zu, m = %zu)", who,
                   CTRL_MAX_DIM, n, m);
        return -1;
    }
    for (size_t i = 0; i < n * m; i++)
        if (!isfinite(B[i])) {
            hy_err_set(err, HY_EARG, "%s: %s[%zu][%zu] is not a finite number", who, dual ? "C" : "B",
                       i / (dual ? n : m), i % (dual ? n : m));
            return -1;
        }
    if (tol < 0.0 && (tol = mech_ctrl_default_tol(n, A, err)) < 0.0)
        return -1;
    double *At = NULL, *Bt = NULL;
    if (dual) {
        At = transposed(n, n, A);
        Bt = transposed(m, n, B); /* C is p x n; C' is n x p */
        if (!At || !Bt) {
            free(At); free(Bt);
            hy_err_set(err, HY_ENOMEM, "%s: out of memory", who);
            return -1;
        }
    }
    pbh_hit hit;
    int nhits, total;
    int rc = pbh_scan(who, n, m, dual ? At : A, dual ? Bt : B, tol, 0, &hit, 1, &nhits, &total, err);
    free(At);
    free(Bt);
    if (rc != HY_OK)
        return -1;
    if (nhits == 0)
        return 1;
    if (bad_re)
        *bad_re = hit.re;
    if (bad_im)
        *bad_im = hit.im;
    return 0;
}

int mech_ctrl_stabilisable(size_t n, size_t m, const double *A, const double *B, double tol, double *bad_re,
                           double *bad_im, hy_err *err)
{
    return pbh_public("stabilisability", n, m, A, B, tol, 0, bad_re, bad_im, err);
}

int mech_ctrl_detectable(size_t n, size_t p, const double *A, const double *C, double tol, double *bad_re,
                         double *bad_im, hy_err *err)
{
    return pbh_public("detectability", n, p, A, C, tol, 1, bad_re, bad_im, err);
}

/* ---- the model check before a CARE solve ---- */

// (hits) => "0 (x2, PBH rank 10 < 12), 1.5+/-2i (...)" appended to buf
static void describe_hits(char *buf, size_t len, const pbh_hit *hits, int nhits, int total, size_t n)
{
    size_t used = strlen(buf);
    int listed = 0;
    for (int j = 0; j < nhits && used < len; j++) {
        char ev[80];
        if (hits[j].im > 0.0)
            snprintf(ev, sizeof ev, "%.6g +/- %.6gi", hits[j].re, hits[j].im);
        else
            snprintf(ev, sizeof ev, "%.6g", hits[j].re);
        int k = snprintf(buf + used, len - used, "%s%s (multiplicity %d, PBH rank %d < n = %zu)", j ? ", " : "",
                         ev, hits[j].im > 0.0 ? hits[j].count / 2 : hits[j].count, hits[j].rank, n);
        used += k > 0 ? (size_t)k : 0;
        listed += hits[j].count;
    }
    if (listed < total && used < len)
        snprintf(buf + used, len - used, " and %d more", total - listed);
}

int ctrl_check_model(const char *who, size_t n, size_t m, const double *A, const double *B, const double *Q,
                     hy_err *err)
{
    enum { MAX_HITS = 4 };
    pbh_hit hits[MAX_HITS];
    int nhits, total;
    double tol = mech_ctrl_default_tol(n, A, err);
    if (tol < 0.0)
        return err ? err->code : HY_ENUMERIC;
    int rc = pbh_scan(who, n, m, A, B, tol, 0, hits, MAX_HITS, &nhits, &total, err);
    if (rc != HY_OK)
        return rc;
    if (nhits > 0) {
        char list[HY_MSG_LEN] = "";
        describe_hits(list, sizeof list, hits, nhits, total, n);
        return hy_err_set(err, HY_EMODEL,
                          "%s: (A, B) is not stabilisable: uncontrollable eigenvalue %s with Re >= -%.3g: no input "
                          "reaches this marginal or unstable mode (e.g. a free rigid angle with no torque), so the "
                          "CARE has no stabilising solution: design on a model without it or give it stiffness "
                          "(spec 004 sec. 5)", who, list, tol);
    }
    double *At = transposed(n, n, A);
    if (!At)
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", who);
    /* rank [A - lambda I; Q^(1/2)] = rank [A - lambda I; Q]: Q and Q^(1/2) have the same null space. Only modes on
     * the imaginary axis matter: they put eigenvalues of the Hamiltonian on the axis and no stabilising solution
     * exists. An unobservable unstable mode still has one (its closed-loop pole is the mirror image -conj(lambda),
     * X only semidefinite), so full detectability is not demanded. */
    rc = pbh_scan(who, n, n, At, Q, tol, 1, hits, MAX_HITS, &nhits, &total, err);
    free(At);
    if (rc != HY_OK)
        return rc;
    if (nhits > 0) {
        char list[HY_MSG_LEN] = "";
        describe_hits(list, sizeof list, hits, nhits, total, n);
        return hy_err_set(err, HY_EMODEL,
                          "%s: (A, Q^(1/2)) is not detectable: unobservable eigenvalue %s with |Re| <= %.3g: Q puts "
                          "no weight on this undamped mode, so the Hamiltonian has eigenvalues on the imaginary axis "
                          "and no stabilising solution exists: weight the mode in Q", who, list, tol);
    }
    return HY_OK;
}

// (who, n, m, A, B, Q, R, X) => the common checks of both CARE solvers
int ctrl_check_care(const char *who, size_t n, size_t m, const double *A, const double *B, const double *Q,
                    const double *R, const double *X, hy_err *err)
{
    int rc = ctrl_check_args(who, n, m, A, B, Q, R, err);
    if (rc == HY_OK && !X)
        rc = hy_err_set(err, HY_EARG, "%s: output X is NULL", who);
    if (rc == HY_OK)
        rc = ctrl_check_model(who, n, m, A, B, Q, err);
    return rc;
}

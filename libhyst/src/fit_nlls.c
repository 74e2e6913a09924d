/* Nonlinear least squares through GSL's multifit_nlinear (docs/fit-families.md "Solver"): Levenberg-Marquardt
 * with geodesic acceleration (Transtrum & Sethna), More scaling, finite-difference Jacobian and second
 * directional derivative. Chosen over MINPACK (cminpack lmdif) for the acceleration, which helps on the long
 * narrow valleys of hysteresis parameters, and for the covariance helper; both are in Debian. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include "hyst/famfit.h"

typedef struct nlls_ctx {
    hy_nlls_fn f;
    void      *ctx;
    size_t     n;
    double    *buf;  /* n residuals: GSL hands the Jacobian's columns (stride p) to f, so f never writes fx->data */
} nlls_ctx;

static int gsl_f(const gsl_vector *x, void *params, gsl_vector *fx)
{
    nlls_ctx *c = params;
    double th[HY_FAMFIT_PMAX];
    for (size_t j = 0; j < x->size; j++)
        th[j] = gsl_vector_get(x, j);
    if (c->f(th, c->buf, c->ctx) != HY_OK)
        return GSL_EDOM;  /* the trust-region step is rejected and shrunk */
    for (size_t i = 0; i < c->n; i++) {
        if (!isfinite(c->buf[i]))
            return GSL_EDOM;
        gsl_vector_set(fx, i, c->buf[i]);
    }
    return GSL_SUCCESS;
}

// (n, p, f, theta0, cap) => result
int hy_nlls_solve(size_t n, int p, hy_nlls_fn f, void *ctx, const double *theta0, int max_iter, hy_nlls_result *R,
                  hy_err *err)
{
    memset(R, 0, sizeof *R);
    if (p < 1 || p > HY_FAMFIT_PMAX || n <= (size_t)p)
        return hy_err_set(err, HY_EDATA, "least squares: %zu residuals for %d parameters", n, p);
    gsl_set_error_handler_off(); /* GSL's default handler aborts; every status is checked here */
    nlls_ctx c = {f, ctx, n, malloc(n * sizeof(double))};
    if (!c.buf)
        return hy_err_set(err, HY_ENOMEM, "least squares: out of memory");
    gsl_multifit_nlinear_fdf fdf = {0};
    fdf.f = gsl_f;
    fdf.df = NULL;   /* forward-difference Jacobian */
    fdf.fvv = NULL;  /* finite-difference second directional derivative for the geodesic acceleration */
    fdf.n = n;
    fdf.p = (size_t)p;
    fdf.params = &c;
    gsl_multifit_nlinear_parameters par = gsl_multifit_nlinear_default_parameters();
    par.trs = gsl_multifit_nlinear_trs_lmaccel;
    par.scale = gsl_multifit_nlinear_scale_more;
    gsl_multifit_nlinear_workspace *w = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &par, n, (size_t)p);
    gsl_matrix *cov = gsl_matrix_alloc((size_t)p, (size_t)p);
    if (!w || !cov) {
        if (w)
            gsl_multifit_nlinear_free(w);
        if (cov)
            gsl_matrix_free(cov);
        free(c.buf);
        return hy_err_set(err, HY_ENOMEM, "least squares: out of memory");
    }
    gsl_vector_const_view x0 = gsl_vector_const_view_array(theta0, (size_t)p);
    int rc = HY_OK;
    int st = gsl_multifit_nlinear_init(&x0.vector, &fdf, w);
    if (st != GSL_SUCCESS) {
        rc = hy_err_set(err, HY_ENUMERIC, "least squares: the model fails at the initial guess (%s)",
                        gsl_strerror(st));
    } else {
        int info = 0;
        st = gsl_multifit_nlinear_driver((size_t)max_iter, 1e-8, 1e-8, 1e-10, NULL, NULL, &info, w);
        gsl_vector *x = gsl_multifit_nlinear_position(w);
        gsl_vector *fx = gsl_multifit_nlinear_residual(w);
        for (int j = 0; j < p; j++)
            R->theta[j] = gsl_vector_get(x, (size_t)j);
        double chisq;
        gsl_blas_ddot(fx, fx, &chisq);
        R->cost = chisq;
        R->iterations = (int)gsl_multifit_nlinear_niter(w);
        R->converged = st == GSL_SUCCESS;
        snprintf(R->reason, sizeof R->reason, "%s",
                 st == GSL_SUCCESS ? (info == 1 ? "small step" : info == 2 ? "small gradient" : "converged")
                 : st == GSL_EMAXITER ? "iteration cap reached" : gsl_strerror(st));
        gsl_matrix *J = gsl_multifit_nlinear_jac(w);
        double s2 = chisq / (double)(n - (size_t)p);
        if (gsl_multifit_nlinear_covar(J, 0.0, cov) == GSL_SUCCESS) {
            for (int i = 0; i < p; i++)
                for (int j = 0; j < p; j++)
                    R->cov[i * p + j] = s2 * gsl_matrix_get(cov, (size_t)i, (size_t)j);
        } else {
            for (int i = 0; i < p * p; i++)
                R->cov[i] = NAN;
        }
    }
    gsl_matrix_free(cov);
    gsl_multifit_nlinear_free(w);
    free(c.buf);
    return rc;
}

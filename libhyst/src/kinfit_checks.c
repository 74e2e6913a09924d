/* Sanity checks of an identified kinematic ODE (spec 002 §6.1 item 5): attraction of the limit branches,
 * a closed steady loop of positive area over the working range, and the range itself. */
#include <math.h>
#include <stdlib.h>
#include "hyst/kinfit.h"

#define LOOP_STEPS 2000   /* samples per half-cycle of the steady-loop drive                                   */
#define LOOP_CYCLES 3     /* the third cycle is the steady one (spec 002 §6.2 B: closed from the 2nd on)       */

// (coefficients, q, f) => dR/df of sum C_ij q^i f^j
static double dR_df(const hy_kin_coeffs *C, double q, double f)
{
    double out = 0.0, qi = 1.0;
    for (int i = 0; i < C->k; i++, qi *= q) {
        double fj = 1.0, row = 0.0;
        for (int j = 1; j < C->m; j++, fj *= f)
            row += (double)j * C->C[i][j] * fj;
        out += row * qi;
    }
    return out;
}

/* (spec, s, q, f) => s * dG_s/df. Symmetric rule: G_-(q, f) = R(-q, -f), so -dG_-/df = R_f(-q, -f); two-set:
 * -dR_-/df(q, f) (spec 002 §1.3: along decreasing q a perturbation decays when dG/df > 0). */
double hy_kinfit_attraction_rate(const hy_kin_spec *spec, int s, double q, double f)
{
    if (s >= 0)
        return dR_df(&spec->load, q, f);
    if (spec->rule == HY_KIN_TWO_SET)
        return -dR_df(&spec->unload, q, f);
    return dR_df(&spec->load, -q, -f);
}

// (spec, points) => largest attraction rate over the branch points, where, and the fraction that attracts
void hy_kinfit_check_attraction(const hy_kin_spec *spec, const hy_kinfit_points *p, hy_kinfit_checks *ck)
{
    ck->attract_max = -INFINITY;
    ck->attract_q = ck->attract_f = NAN;
    ck->attract_s = 0;
    size_t neg = 0;
    for (size_t l = 0; l < p->n; l++) {
        double a = hy_kinfit_attraction_rate(spec, p->s[l], p->q[l], p->f[l]);
        if (a < 0)
            neg++;
        if (!(a <= ck->attract_max)) {   /* NaN counts as the worst */
            ck->attract_max = isnan(a) ? INFINITY : a;
            ck->attract_q = p->q[l];
            ck->attract_f = p->f[l];
            ck->attract_s = p->s[l];
        }
    }
    ck->attract_frac = p->n ? (double)neg / (double)p->n : 0.0;
    ck->attract_ok = p->n > 0 && ck->attract_max < 0;
}

// (spec, lo, hi, f0) => steady loop over [lo, hi]: energy per cycle, closure, tip forces
int hy_kinfit_check_loop(const hy_kin_spec *spec, double lo, double hi, double f0, hy_kinfit_loop *lp, hy_err *err)
{
    lp->ok = 0;
    lp->q_lo = lo;
    lp->q_hi = hi;
    lp->energy = lp->energy_first = lp->closure = NAN;
    lp->f_hi = lp->f_lo = NAN;
    double a = lo, b = hi;
    if (!(b > a) || !isfinite(a) || !isfinite(b))
        return hy_err_set(err, HY_EARG, "loop check: empty q-range [%g, %g]", a, b);
    size_t per = 2 * LOOP_STEPS, n = (size_t)LOOP_CYCLES * per;
    double *q = malloc(2 * n * sizeof *q);
    if (!q)
        return hy_err_set(err, HY_ENOMEM, "loop check: out of memory");
    double *f = q + n;
    /* a -> b -> a, uniform in q (the law is rate independent); the last sample of each cycle is exactly a again */
    for (size_t c = 0; c < LOOP_CYCLES; c++)
        for (size_t s = 0; s < per; s++) {
            size_t k = s + 1;
            double x = k <= LOOP_STEPS ? (double)k / LOOP_STEPS : (double)(per - k) / LOOP_STEPS;
            /* exact end points and no rounding past b: the element refuses q outside its range */
            q[c * per + s] = k == per ? a : k == LOOP_STEPS ? b : fmin(b, a + (b - a) * x);
        }
    hy_kin_model *model = NULL;
    hy_kin_state st;
    hy_element e = {0};
    int rc = hy_kin_model_new(spec, &model, err);
    if (rc == HY_OK) {
        rc = hy_kin_state_init(&st, model, a, f0, err);
        hy_kin_element_wrap(&st, &e);
    }
    if (rc == HY_OK) {
        size_t done = 0;
        hy_diag d = {0};
        if (hy_element_drive(&e, a, NULL, q, n, f, NULL, &done, &d) == HY_OK) {
            double W[LOOP_CYCLES], fl = INFINITY, fh = -INFINITY;
            int finite = 1;
            for (size_t c = 0; c < LOOP_CYCLES; c++) {
                double w = 0.0, qp = a, fp = c == 0 ? f0 : f[c * per - 1];
                for (size_t s = 0; s < per; s++) {
                    size_t i = c * per + s;
                    w += 0.5 * (f[i] + fp) * (q[i] - qp);
                    qp = q[i];
                    fp = f[i];
                    if (!isfinite(f[i]))
                        finite = 0;
                    if (c == LOOP_CYCLES - 1) {
                        fl = fmin(fl, f[i]);
                        fh = fmax(fh, f[i]);
                    }
                }
                W[c] = w;
            }
            lp->energy_first = W[0];
            lp->energy = W[LOOP_CYCLES - 1];
            size_t last = n - 1, prev = n - 1 - per;
            lp->closure = fh > fl ? fabs(f[last] - f[prev]) / (fh - fl) : INFINITY;
            lp->f_hi = f[n - per + LOOP_STEPS - 1];
            lp->f_lo = f[last];
            lp->ok = finite && lp->energy > 0 && lp->closure < 1e-3;
        }
    } else if (rc == HY_EMODEL) {
        rc = HY_OK;   /* reported as a failed check */
    }
    hy_element_free(&e);
    if (model)
        hy_kin_model_free(model);
    free(q);
    return rc;
}

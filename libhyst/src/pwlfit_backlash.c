/* Backlash (spec 000 §2 assumption 2): segment 0, zero force and zero slope around the origin, of width b >= 0.
 * The fit treats b as one more free breakpoint (the DP searches it jointly with the first common segment); this
 * file holds the cost of the zero-force zone and the judgement of the evidence: the side is fitted again with
 * b = 0 and the two are compared by the Bayesian information criterion (b is one parameter). */
#include <math.h>
#include "hyst/pwlfit.h"

// (F, B, b) => squared error of the samples with u < b against zero force
double hy_pwlfit_backlash_zero_cost(const hy_pwlfit_data *F, const hy_pwlfit_data *B, double b, size_t *count)
{
    size_t iF = hy_pwlfit_data_find(F, b), iB = hy_pwlfit_data_find(B, b);
    if (count)
        *count = iF + iB;
    return F->sPP[iF] + B->sPP[iB];   /* prefix sums of P^2 are uncentred */
}

/* (N samples, sse with b free / b = 0, samples in the zone, b, side range) => decision:
 *   delta_bic = N ln(sse_zero / sse_free) - ln N    (> 0 favours the backlash);
 *   clear (1) when delta_bic > 10 ("very strong" on the usual BIC scale) and the zone holds >= 5 samples;
 *   none (0, b = 0) when delta_bic <= 0 or b is below 0.1 % of the range;
 *   doubtful (-1, b kept) in between. */
void hy_pwlfit_backlash_judge(size_t N, double sse_free, double sse_zero, size_t n_zone, double b_fitted,
                              double range, hy_pwlfit_backlash_info *info)
{
    info->b_fitted = b_fitted;
    info->sse_free = sse_free;
    info->sse_zero = sse_zero;
    info->n_zone = n_zone;
    double Nd = (double)(N > 1 ? N : 2);
    info->delta_bic = (sse_free > 0 && sse_zero > 0) ? Nd * log(sse_zero / sse_free) - log(Nd)
                      : (sse_zero > sse_free ? INFINITY : -log(Nd));
    if (!(b_fitted > 1e-3 * range) || !(info->delta_bic > 0)) {
        info->b = 0.0;
        info->clear = 0;
    } else if (info->delta_bic > 10 && n_zone >= 5) {
        info->b = b_fitted;
        info->clear = 1;
    } else {
        info->b = b_fitted;
        info->clear = -1;
    }
}

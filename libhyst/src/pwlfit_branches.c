/* Step 1 of the table fit: the forward and backward branches of each side, in mirrored coordinates (see
 * hyst/pwlfit.h). Constant kind: the limit-loop branches of the loop analysis (hy_loops_branches: every cycle
 * whose amplitude on that side is within amp_tol of the largest contributes, repeated cycles used together). */
#include <math.h>
#include <string.h>
#include "hyst/pwlfit.h"

// (bs) => memory released
void hy_pwlfit_branchset_free(hy_pwlfit_branchset *bs)
{
    if (!bs)
        return;
    for (int s = 0; s < 2; s++) {
        hy_pwlfit_data_free(&bs->F[s]);
        hy_pwlfit_data_free(&bs->B[s]);
    }
    memset(bs, 0, sizeof *bs);
}

// (q, Q, analysis) => limit-loop branches of both sides
int hy_pwlfit_branches(const double *q, const double *Q, size_t n, const hy_loops *L, const hy_loops_opts *o,
                       hy_pwlfit_branchset *bs, hy_err *err)
{
    memset(bs, 0, sizeof *bs);
    hy_branches br;
    int rc = hy_loops_branches(q, Q, n, L, o, &br, err);
    if (rc)
        return rc;
    const hy_curve *c[2][2] = {{&br.fwd_pos, &br.bwd_pos}, {&br.fwd_neg, &br.bwd_neg}};
    for (int s = 0; s < 2 && rc == HY_OK; s++) {
        double sg = s ? -1.0 : 1.0;
        hy_pwlfit_part pf = {c[s][0]->q, c[s][0]->Q, c[s][0]->n, sg};
        hy_pwlfit_part pb = {c[s][1]->q, c[s][1]->Q, c[s][1]->n, sg};
        rc = hy_pwlfit_data_build(&bs->F[s], &pf, 1, err);
        if (rc == HY_OK)
            rc = hy_pwlfit_data_build(&bs->B[s], &pb, 1, err);
    }
    bs->cycles[0] = br.cycles_pos;
    bs->cycles[1] = br.cycles_neg;
    bs->amp[0] = br.amp_pos;
    bs->amp[1] = br.amp_neg;
    hy_branches_free(&br);
    if (rc)
        hy_pwlfit_branchset_free(bs);
    return rc;
}

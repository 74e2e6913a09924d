/* The deflection shapes of the reduced coordinates along the appendage (spec 004 §2): the FE model's own shape
 * functions (cubic Hermite on each element, beam_fe.c's DOF map) applied to the columns of Phi, so that
 * w(x, t) = sum_i phi_i(x) eta_i(t) is the simulator's deflection in the body frame (at x = length exactly its tip
 * row, mech_beam_info.tip). `mech view` samples them at its display stations and `mech beam shapes` writes them. */
#include <math.h>
#include "beam/beam_internal.h"

// (model, x in [0, length]) => the element holding x (the first whose end is at or beyond x)
static size_t element_at(const mech_beam_model *m, double x)
{
    size_t lo = 0, hi = m->n_elem - 1;   /* x_node[e + 1] >= x for the answer e, the smallest such */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (m->x_node[mid + 1] >= x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

int mech_beam_shapes(const mech_beam_model *m, size_t ns, const double *x, double *phi, hy_err *err)
{
    size_t nm = m->nm;
    double len = m->p.length;
    for (size_t s = 0; s < ns; s++)
        if (!(x[s] >= 0 && x[s] <= len))
            return hy_err_set(err, HY_EARG, "station %zu: x = %g m: outside the appendage [0, %g] m", s + 1, x[s],
                              len);
    for (size_t s = 0; s < ns; s++) {
        size_t e = element_at(m, x[s]);
        double xa = m->x_node[e], L = m->x_node[e + 1] - xa, xi = (x[s] - xa) / L;
        double xi2 = xi * xi, xi3 = xi2 * xi;
        /* Hermite cubics on [xa, xb] with the element's DOFs w_a, w'_a (right of node a), w_b, w'_b (left of b) */
        double N[4] = {1 - 3 * xi2 + 2 * xi3, L * (xi - 2 * xi2 + xi3), 3 * xi2 - 2 * xi3, L * (xi3 - xi2)};
        int d[4] = {m->dof_w[e], m->dof_r[e], m->dof_w[e + 1], m->dof_l[e + 1]};
        if (xi == 1)   /* at the element's end node: that node's deflection itself, bit for bit (the tip row) */
            N[0] = N[1] = N[3] = 0, N[2] = 1;
        for (size_t i = 0; i < nm; i++) {
            double w = 0;
            for (int a = 0; a < 4; a++)
                if (d[a] >= 0 && N[a] != 0)
                    w += N[a] * m->Phi[(size_t)d[a] * nm + i];
            phi[s * nm + i] = w;
        }
    }
    return HY_OK;
}

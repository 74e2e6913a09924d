/* Defaults of the jointed-beam model: the paper's values (spec 004 §6) and the choices of docs/beam.md. */
#include <math.h>
#include <string.h>
#include "mech/beam.h"

double mech_beam_EI(const mech_beam_params *p)
{
    return p->E * p->width * p->thickness * p->thickness * p->thickness / 12.0;
}

// k_l = 100 EI / l^2 taken as numbered (43 750 for the paper's beam), spec §12.6
double mech_beam_k_ref(const mech_beam_params *p)
{
    return 100.0 * mech_beam_EI(p) / (p->length * p->length);
}

void mech_beam_params_default(mech_beam_params *p)
{
    memset(p, 0, sizeof *p);
    p->E = 70e9;
    p->rho = 2700;
    p->length = 3;
    p->width = 0.2;
    p->thickness = 0.015;
    p->r0 = 0.2;
    p->J1 = 100;
    p->n_elem = 60;
    p->n_modes = 5;
    p->load_position = p->length;
    p->n_hinges = 1;
    p->hinge[0] = (mech_beam_hinge){.position = 1.5, .k = mech_beam_k_ref(p), .mass = 0.02, .clearance = 0,
                                    .law = MECH_BEAM_DEADZONE_A, .q_scale = 1, .Q_scale = 1, .law_scale = 1};
    p->mfc = (mech_beam_mfc){.enabled = 0, .start = 0.9, .length = 0.3, .width = 0.2, .thickness = 0.0003,
                             .e_eff = 12.14, .electrode = 0.0003, .add_structure = 0, .density = 5440,
                             .E1 = 30.34e9};
}

void mech_beam_params_equal_hinges(mech_beam_params *p, int n_j)
{
    mech_beam_hinge h0 = p->hinge[0];
    if (p->n_hinges == 0)
        h0 = (mech_beam_hinge){.k = mech_beam_k_ref(p), .mass = 0.02, .law = MECH_BEAM_DEADZONE_A, .q_scale = 1,
                               .Q_scale = 1, .law_scale = 1};
    if (n_j > MECH_BEAM_MAX_HINGES)
        n_j = MECH_BEAM_MAX_HINGES;
    p->n_hinges = n_j < 0 ? 0 : n_j;
    for (int j = 0; j < p->n_hinges; j++) {
        p->hinge[j] = h0;
        p->hinge[j].position = p->length * (j + 1) / (n_j + 1);
    }
}

void mech_beam_solver_default(mech_beam_solver *s)
{
    *s = (mech_beam_solver){.beta = 0.25, .gamma = 0.5, .dt = 1e-4, .duration = 2, .update = MECH_BEAM_LAGGED,
                            .tol = 1e-12, .max_iter = 50};
}

void mech_beam_load_default(mech_beam_load *l)
{
    *l = (mech_beam_load){.F0 = 300, .t0 = 0, .width = 0.005};
}

// The pulse's ends are compared with a tolerance of 1e-9 of the width so that t = i dt lands on the intended side
// (t = 50 * 1e-4 is 0.005000000000000001 in floating point).
double mech_beam_load_eval(const mech_beam_load *l, double t)
{
    double F = 0, eps = 1e-9 * (l->width > 0 ? l->width : 1), t1 = l->t0 + l->width;
    if (l->width > 0 && t >= l->t0 - eps && t <= t1 + eps) {
        /* a jump at t = 0 happened before the run: the first sample carries the full force */
        int at_edge = (fabs(t - l->t0) <= eps && fabs(t) > eps) || fabs(t - t1) <= eps;
        if (!at_edge || l->edges == MECH_BEAM_EDGES_CLOSED)
            F += l->F0;
        else if (l->edges == MECH_BEAM_EDGES_HALF)
            F += 0.5 * l->F0;
        else if (fabs(t - l->t0) <= eps)
            F += l->F0;   /* open: the start sample only */
    }
    if (l->n_hist > 0 && t >= l->t_hist[0] && t <= l->t_hist[l->n_hist - 1]) {
        size_t lo = 0, hi = l->n_hist - 1;
        while (hi - lo > 1) {
            size_t mid = (lo + hi) / 2;
            if (l->t_hist[mid] <= t)
                lo = mid;
            else
                hi = mid;
        }
        double span = l->t_hist[hi] - l->t_hist[lo];
        double w = span > 0 ? (t - l->t_hist[lo]) / span : 0;
        if (w > 1)
            w = 1;
        F += (1 - w) * l->F_hist[lo] + w * l->F_hist[hi];
    }
    return F;
}

// unit text with everything but ASCII letters dropped ("N·m", "N m", "N*m" -> "Nm")
static void letters(const char *u, char *out, size_t len)
{
    size_t k = 0;
    for (; *u && k + 1 < len; u++)
        if ((*u >= 'a' && *u <= 'z') || (*u >= 'A' && *u <= 'Z'))
            out[k++] = *u;
    out[k] = '\0';
}

double mech_beam_angle_scale(const char *unit)
{
    char u[32];
    letters(unit, u, sizeof u);
    if (strcmp(u, "rad") == 0)
        return 1;
    if (strcmp(u, "mrad") == 0)
        return 1e3;
    if (strcmp(u, "urad") == 0)
        return 1e6;
    if (strcmp(u, "deg") == 0 || strcmp(unit, "°") == 0)
        return 180 / M_PI;
    return 0;
}

double mech_beam_moment_scale(const char *unit)
{
    char u[32];
    letters(unit, u, sizeof u);
    if (strcmp(u, "Nm") == 0)
        return 1;
    if (strcmp(u, "kNm") == 0)
        return 1e3;
    if (strcmp(u, "Nmm") == 0 || strcmp(u, "mNm") == 0)
        return 1e-3;
    if (strcmp(u, "Ncm") == 0)
        return 1e-2;
    return 0;
}

/* Hatch-cover compliance, the ground-test (stand) option (spec 001 §2.7, eq. 2.9; RP-1 §2.4, §2.8: m_DM 90 kg,
 * 5e6 N/m, 2e3 N s/m). The cover deflection x_Cov of the mechanism base along its axis obeys
 *   m_DM v' = f_1R(1) - [f_beg + k (x - x_beg)] - c v,   x' = v,
 * advanced once per explicit step by implicit Euler (operator splitting, so the main equations stay explicit and
 * the stiff cover cannot destabilise them), solved by Cramer's rule exactly as the spec reconstructs it:
 *   D0 = 1 + (c + h k) h / m,  D1 = v + [f - f_beg - k (x - x_beg)] h / m,
 *   D2 = x (1 + c h / m) + h [v + (f - f_beg + k x_beg) h / m],   v' = D1 / D0, x' = D2 / D0.
 * Energy (docs/dock-process.md §4): with x1 - x0 = h v1 the scheme satisfies exactly
 *   f (x1 - x0) = dKE + dPE + c v1^2 h + [m (v1 - v0)^2 + k (x1 - x0)^2] / 2    (linear law),
 * the last term being implicit Euler's numerical dissipation (>= 0); w_in and w_damp are booked for the budget. */
#include <math.h>
#include <string.h>
#include "mech/dock_process.h"

void mech_dock_cover_params_rp1(mech_dock_cover_params *p)
{
    p->m_dm = 90.0;
    p->k = 5e6;
    p->c = 2e3;
}

int mech_dock_cover_init(mech_dock_cover *cv, const mech_dock_cover_params *p, hy_err *err)
{
    if (!(isfinite(p->m_dm) && p->m_dm > 0))
        return hy_err_set(err, HY_EMODEL, "cover.m_dm: must be a finite number > 0 kg (got %.17g)", p->m_dm);
    if (!(isfinite(p->k) && p->k > 0))
        return hy_err_set(err, HY_EMODEL, "cover.k: must be a finite number > 0 N/m (got %.17g)", p->k);
    if (!(isfinite(p->c) && p->c >= 0))
        return hy_err_set(err, HY_EMODEL, "cover.c: must be a finite number >= 0 N s/m (got %.17g)", p->c);
    memset(cv, 0, sizeof *cv);
    cv->p = *p;
    cv->trial = cv->committed;
    return HY_OK;
}

mech_dock_cover_seg mech_dock_cover_linear(const mech_dock_cover_params *p)
{
    return (mech_dock_cover_seg){0.0, 0.0, p->k};
}

int mech_dock_cover_trial(mech_dock_cover *cv, double h, double f, mech_dock_cover_seg g, hy_err *err)
{
    if (!(isfinite(h) && h > 0 && isfinite(f) && isfinite(g.f_beg) && isfinite(g.x_beg) && isfinite(g.k) &&
          g.k >= 0))
        return hy_err_set(err, HY_ERANGE, "cover: non-finite or invalid input (h %.17g, f_1R %.17g, segment k "
                          "%.17g)", h, f, g.k);
    const mech_dock_cover_state *s0 = &cv->committed;
    double m = cv->p.m_dm, c = cv->p.c, x = s0->x, v = s0->v;
    double D0 = 1.0 + (c + h * g.k) * h / m;
    double D1 = v + (f - g.f_beg - g.k * (x - g.x_beg)) * h / m;
    double D2 = x * (1.0 + c * h / m) + h * (v + (f - g.f_beg + g.k * g.x_beg) * h / m);
    mech_dock_cover_state s = *s0;
    s.v = D1 / D0;
    s.x = D2 / D0;
    s.w_in += f * (s.x - x);
    s.w_damp += c * s.v * (s.x - x);
    s.w_num += 0.5 * m * (s.v - v) * (s.v - v) + 0.5 * g.k * (s.x - x) * (s.x - x);
    cv->trial = s;
    return HY_OK;
}

void mech_dock_cover_commit(mech_dock_cover *cv) { cv->committed = cv->trial; }
void mech_dock_cover_revert(mech_dock_cover *cv) { cv->trial = cv->committed; }

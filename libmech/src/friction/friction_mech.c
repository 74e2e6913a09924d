/* The mechanisms of `mech friction` (docs/friction.md): each fills the solver's inputs at (t, q, q') in Lurie
 * coordinates (spec 003 §2.1). s = 0 and s' = 0 hold identically, so the formulas are those of the constrained
 * state with the redundant directions' partial derivatives kept. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "friction/friction_internal.h"

// (load, t) => value + slope t + amplitude sin(2 pi f t + phase)
double mech_friction_load_at(const mech_friction_load *l, double t)
{
    return l->value + l->slope * t + l->amplitude * sin(2 * M_PI * l->freq * t + l->phase);
}

const char *mech_friction_kind_name(int kind)
{
    switch (kind) {
    case MECH_FRICTION_BUSHING: return "bushing";
    case MECH_FRICTION_SCREW: return "screw_nut";
    case MECH_FRICTION_CRANK: return "slider_crank";
    default: return "generic";
    }
}

// (configuration) => mechanism
int mech_friction_mech_new(const mech_friction_config *cfg, mech_friction_mech **out, hy_err *err)
{
    *out = NULL;
    const char *nm = cfg->name[0] ? cfg->name : "mechanism";
    switch (cfg->kind) {
    case MECH_FRICTION_BUSHING:
        if (!(cfg->mass > 0) || !(cfg->radius >= 0) || !(cfg->a[0] != cfg->a[1]))
            return hy_err_set(err, HY_EMODEL, "%s: mechanism: the bushing needs mass > 0, radius >= 0 and two "
                              "distinct pairs_at positions", nm);
        if (cfg->w != 1 || cfg->ns != 2 || cfg->nc != 2)
            return hy_err_set(err, HY_EMODEL, "%s: mechanism: the bushing has 1 coordinate and 2 pairs", nm);
        break;
    case MECH_FRICTION_SCREW:
        if (!(cfg->J >= 0) || !(cfg->mass > 0) || !(cfg->lead > 0) || !(cfg->thread_radius > 0))
            return hy_err_set(err, HY_EMODEL, "%s: mechanism: the screw-nut pair needs screw_inertia >= 0, "
                              "nut_mass > 0, lead > 0 and thread_radius > 0", nm);
        if (cfg->w != 1 || cfg->ns != 1 || cfg->nc != 1)
            return hy_err_set(err, HY_EMODEL, "%s: mechanism: the screw-nut pair has 1 coordinate and 1 pair", nm);
        break;
    case MECH_FRICTION_CRANK:
        if (!(cfg->crank_radius > 0) || !(cfg->rod_length > cfg->crank_radius) || !(cfg->J > 0) || !(cfg->mass > 0))
            return hy_err_set(err, HY_EMODEL, "%s: mechanism: the slider-crank needs crank_radius > 0, rod_length "
                              "> crank_radius, crank_inertia > 0 and slider_mass > 0", nm);
        if (cfg->w != 1 || cfg->ns != 1 || cfg->nc != 1)
            return hy_err_set(err, HY_EMODEL, "%s: mechanism: the slider-crank has 1 coordinate and 1 pair", nm);
        break;
    default:
        if (cfg->w < 1 || cfg->w > MECH_FRICTION_MAX_W || cfg->nc < 1 || cfg->nc > MECH_FRICTION_MAX_NC ||
            cfg->ns != cfg->nc)
            return hy_err_set(err, HY_EMODEL, "%s: mechanism: the generic kind needs 1..%d coordinates and 1..%d "
                              "pairs", nm, MECH_FRICTION_MAX_W, MECH_FRICTION_MAX_NC);
    }
    mech_friction_mech *mc = calloc(1, sizeof *mc);
    if (!mc)
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", nm);
    mc->cfg = *cfg;
    int rc = mech_friction_model_new(cfg->w, cfg->ns, cfg->nc, cfg->contact, &cfg->opt, &mc->model, err);
    if (rc != HY_OK) {
        free(mc);
        return rc;
    }
    *out = mc;
    return HY_OK;
}

void mech_friction_mech_free(mech_friction_mech *mc)
{
    if (mc) {
        mech_friction_model_free(mc->model);
        free(mc);
    }
}

void mech_friction_coord_name(const mech_friction_mech *mc, int i, const char **name, const char **unit)
{
    static const char *const gen[] = {"q1", "q2", "q3", "q4", "q5", "q6"};
    switch (mc->cfg.kind) {
    case MECH_FRICTION_BUSHING: *name = "x", *unit = "m"; break;
    case MECH_FRICTION_SCREW: *name = "phi", *unit = "rad"; break;
    case MECH_FRICTION_CRANK: *name = "phi", *unit = "rad"; break;
    default: *name = gen[i < 6 ? i : 5], *unit = "-";
    }
}

// (mechanism, t, q, qd, data) => inputs, applied forces, kinetic energy
int mech_friction_mech_assemble(const mech_friction_mech *mc, double t, const double *q, const double *qd,
                                mech_friction_data *d, double *Qa, double *ke, hy_err *err)
{
    const mech_friction_config *c = &mc->cfg;
    int w = c->w, ns = c->ns, nc = c->nc, W = w + ns;
    memcpy(d->qd, qd, (size_t)w * sizeof *qd);
    switch (c->kind) {
    case MECH_FRICTION_BUSHING: {
        /* rod: x axial (q), y lateral and theta (s); pair j at axial a_j, side chi on the surface y = -chi h with
         * the normal chi e_y: n = (0, chi, chi a_j), t = J^T e_x = (1, 0, chi h) (spec 003 §3 symmetric guide) */
        double P = mech_friction_load_at(&c->load[0], t), F = mech_friction_load_at(&c->load[1], t);
        double M = mech_friction_load_at(&c->load[2], t);
        d->Mqq[0] = c->mass;
        d->Msq[0] = d->Msq[1] = 0;
        d->fq[0] = P;
        d->fs[0] = F;
        d->fs[1] = M + c->e_x * F - c->e_y * P;
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 2; k++) {
                double chi = k ? -1 : 1, *n = d->nvec + (2 * j + k) * W, *tt = d->tvec + (2 * j + k) * W;
                n[0] = 0, n[1] = chi, n[2] = chi * c->a[j];
                tt[0] = 1, tt[1] = 0, tt[2] = chi * c->radius;
            }
        *Qa = P;
        *ke = 0.5 * c->mass * qd[0] * qd[0];
        break;
    }
    case MECH_FRICTION_SCREW: {
        /* q = phi, s = x - p phi: T = (J + m p^2) phi'^2 / 2 + m p phi' s' + m s'^2 / 2; the flank normal acts on s,
         * thread friction at radius r on phi (spec 003 §3 screw-nut corollary) */
        double p = c->lead / (2 * M_PI), T = mech_friction_load_at(&c->load[0], t);
        double Fx = mech_friction_load_at(&c->load[1], t);
        d->Mqq[0] = c->J + c->mass * p * p;
        d->Msq[0] = c->mass * p;
        d->fq[0] = T + Fx * p;
        d->fs[0] = Fx;
        for (int k = 0; k < 2; k++) {
            double chi = k ? -1 : 1, *n = d->nvec + k * W, *tt = d->tvec + k * W;
            n[0] = 0, n[1] = chi;
            tt[0] = c->thread_radius, tt[1] = 0;
        }
        *Qa = T + Fx * p;
        *ke = 0.5 * d->Mqq[0] * qd[0] * qd[0];
        break;
    }
    case MECH_FRICTION_CRANK: {
        /* q = crank angle phi, s = slider's lateral offset y; massless rod: slider x = r cos phi + sqrt(L^2 - u^2),
         * u = r sin phi - y. T = J phi'^2/2 + m (x'^2 + y'^2)/2, x' = x_phi phi' + x_y y' */
        double r = c->crank_radius, L = c->rod_length, m = c->mass;
        double sp = sin(q[0]), cp = cos(q[0]), u = r * sp, cc = sqrt(L * L - u * u);
        double x_p = -r * sp - u * r * cp / cc, x_y = u / cc;
        double x_pp = -r * cp - (r * r * cp * cp - u * r * sp) / cc - u * u * r * r * cp * cp / (cc * cc * cc);
        double T = mech_friction_load_at(&c->load[0], t), Fx = mech_friction_load_at(&c->load[1], t);
        double w2 = qd[0] * qd[0];
        d->Mqq[0] = c->J + m * x_p * x_p;
        d->Msq[0] = m * x_p * x_y;
        d->fq[0] = T + Fx * x_p - m * x_p * x_pp * w2;
        d->fs[0] = Fx * x_y - m * x_y * x_pp * w2;
        for (int k = 0; k < 2; k++) {
            double chi = k ? -1 : 1, *n = d->nvec + k * W, *tt = d->tvec + k * W;
            n[0] = 0, n[1] = chi;
            tt[0] = x_p, tt[1] = x_y;
        }
        *Qa = T + Fx * x_p;
        *ke = 0.5 * d->Mqq[0] * w2;
        break;
    }
    default: {
        memcpy(d->Mqq, c->Mqq, (size_t)(w * w) * sizeof(double));
        memcpy(d->Msq, c->Msq, (size_t)(ns * w) * sizeof(double));
        memcpy(d->fq, c->fq, (size_t)w * sizeof(double));
        memcpy(d->fs, c->fs, (size_t)ns * sizeof(double));
        memcpy(d->nvec, c->nvec, (size_t)(2 * nc * W) * sizeof(double));
        memcpy(d->tvec, c->tvec, (size_t)(2 * nc * W) * sizeof(double));
        *Qa = 0;
        *ke = 0;
        for (int i = 0; i < w; i++) {
            Qa[i] = c->fq[i];
            for (int j = 0; j < w; j++)
                *ke += 0.5 * qd[i] * c->Mqq[i * w + j] * qd[j];
        }
    }
    }
    (void)err;
    return HY_OK;
}

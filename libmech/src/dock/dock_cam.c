/* The alignment device (spec 001 §1.4, §2.2; RP-1 §2.3: 3 levers, rollers 3 mm off the ideal cone): the cam,
 * given as samples (cam angle, follower radius) linear between samples, turned at model build into a table nut
 * angle -> roller centre in the housing frame, for every lever. The lever angle follows the follower lift through
 * the driving lever's follower arm, beta = beta0 + asin((r - r_0) / arm); the bevel gears give every driven lever
 * the same angle (spec 001 §1.4). Each cam segment is subdivided into MECH_DOCK_CAM_SUB table intervals, so the
 * table reproduces the radius law exactly at the samples and the roller path (a nonlinear function of r) to
 * O((dtheta / SUB)^2) between them; evaluation is linear in the nut angle. The path is checked against the ideal
 * cone with the vehicles aligned and the head on the stops (docs/dock-process.md §3). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mech/dock_process.h"

static int bad(hy_err *err, const char *key, const char *what, double v)
{
    return hy_err_set(err, HY_EMODEL, "cam.%s: %s (got %.17g)", key, what, v);
}

static int pos(hy_err *err, const char *key, double v)
{
    return isfinite(v) && v > 0 ? HY_OK : bad(err, key, "must be a finite number > 0", v);
}

static int check(const mech_dock_cam_params *p, hy_err *err)
{
    if (p->n < 2 || p->n > MECH_DOCK_CAM_MAX)
        return bad(err, "theta", "needs 2 to 64 samples", p->n);
    char key[48];
    for (int k = 0; k < p->n; k++) {
        snprintf(key, sizeof key, "theta[%d]", k);
        if (!isfinite(p->theta[k]))
            return bad(err, key, "must be finite (rad)", p->theta[k]);
        if (k > 0 && !(p->theta[k] > p->theta[k - 1]))
            return hy_err_set(err, HY_EMODEL, "cam.theta[%d]: the cam angles must be strictly ascending (got "
                              "%.17g after %.17g)", k, p->theta[k], p->theta[k - 1]);
        snprintf(key, sizeof key, "radius[%d]", k);
        if (pos(err, key, p->radius[k]))
            return HY_EMODEL;
        if (isfinite(p->arm) && p->arm > 0 && fabs(p->radius[k] - p->radius[0]) > p->arm)
            return hy_err_set(err, HY_EMODEL, "cam.radius[%d]: the lift |r - r_0| = %.17g m exceeds the follower "
                              "arm cam.arm = %.17g m", k, fabs(p->radius[k] - p->radius[0]), p->arm);
    }
    if (pos(err, "i_cam", p->i_cam) || pos(err, "i_nut", p->i_nut) || pos(err, "arm", p->arm) ||
        pos(err, "len", p->len) || pos(err, "roller_radius", p->roller_radius) ||
        pos(err, "rim_radius", p->rim_radius) || pos(err, "throat_radius", p->throat_radius))
        return HY_EMODEL;
    if (p->n_lever < 1 || p->n_lever > MECH_DOCK_NLEVER_MAX)
        return bad(err, "n_lever", "must be 1 to 4", p->n_lever);
    if (!(isfinite(p->roller_offset) && p->roller_offset >= 0))
        return bad(err, "roller_offset", "must be a finite number >= 0 m", p->roller_offset);
    if (!(isfinite(p->half_angle) && p->half_angle > 0 && p->half_angle < M_PI / 2))
        return bad(err, "half_angle", "must be in (0, pi/2) rad", p->half_angle);
    if (!(p->throat_radius < p->rim_radius))
        return bad(err, "throat_radius", "must be below cam.rim_radius", p->throat_radius);
    double f[] = {p->psi0, p->beta0, p->x_pivot, p->rho_pivot, p->head_x0, p->head_cone_x, p->rim_x};
    const char *fk[] = {"psi0", "beta0", "x_pivot", "rho_pivot", "head_x0", "head_cone_x", "rim_x"};
    for (int i = 0; i < 7; i++)
        if (!isfinite(f[i]))
            return bad(err, fk[i], "must be finite", f[i]);
    return HY_OK;
}

/* roller penetration of the ideal cone at nut angle phi (> 0: into the wall); -INFINITY where the roller is not
 * inside the cone's axial extent (in front of the rim plane or behind the throat) */
static double penetration(const mech_dock_cam_params *p, double phi, double x, double rho)
{
    double s = phi / p->i_nut;
    double x_plane = p->head_x0 - s + p->head_cone_x;
    double xc = x_plane - x;                                   /* cone-frame axial coordinate of the roller */
    double ta = tan(p->half_angle);
    double x_throat = p->rim_x - (p->rim_radius - p->throat_radius) / ta;
    if (xc > p->rim_x || xc < x_throat)
        return -INFINITY;
    double R = p->rim_radius + (xc - p->rim_x) * ta;
    return p->roller_radius - (R - rho) * cos(p->half_angle);
}

int mech_dock_cam_build(const mech_dock_cam_params *p, mech_dock_cam *c, hy_err *err)
{
    int rc = check(p, err);
    if (rc)
        return rc;
    memset(c, 0, sizeof *c);
    c->n_lever = p->n_lever;
    for (int j = 0; j < p->n_lever; j++)
        c->psi[j] = p->psi0 + 2.0 * M_PI * j / p->n_lever, c->cpsi[j] = cos(c->psi[j]), c->spsi[j] = sin(c->psi[j]);
    c->worst_penetration = -INFINITY;
    int m = 0;
    for (int k = 0; k + 1 < p->n; k++)
        for (int j = 0; j < MECH_DOCK_CAM_SUB || (k + 2 == p->n && j == MECH_DOCK_CAM_SUB); j++) {
            double a = (double)j / MECH_DOCK_CAM_SUB;
            double th = p->theta[k] + a * (p->theta[k + 1] - p->theta[k]);
            double r = p->radius[k] + a * (p->radius[k + 1] - p->radius[k]);
            double beta = p->beta0 + asin((r - p->radius[0]) / p->arm);
            c->phi[m] = p->i_cam * th;
            c->x[m] = p->x_pivot + p->len * cos(beta);
            c->rho[m] = p->rho_pivot + p->len * sin(beta);
            double pen = penetration(p, c->phi[m], c->x[m], c->rho[m]);
            if (pen > c->worst_penetration)
                c->worst_penetration = pen, c->worst_phi = c->phi[m];
            m++;
        }
    c->n = m;
    if (c->worst_penetration > p->roller_offset)
        return hy_err_set(err, HY_EMODEL, "cam.path: a roller crosses the ideal cone by %.6g m at nut angle %.6g "
                          "rad (stroke %.6g m); the allowed crossing is cam.roller_offset = %.6g m",
                          c->worst_penetration, c->worst_phi, c->worst_phi / p->i_nut, p->roller_offset);
    return HY_OK;
}

void mech_dock_cam_at(const mech_dock_cam *c, double phi, double *x_out, double *rho_out)
{
    double x, rho;
    if (phi <= c->phi[0])
        x = c->x[0], rho = c->rho[0];
    else if (phi >= c->phi[c->n - 1])
        x = c->x[c->n - 1], rho = c->rho[c->n - 1];
    else {
        int lo = 0, hi = c->n - 1;
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2;
            if (c->phi[mid] <= phi)
                lo = mid;
            else
                hi = mid;
        }
        double a = (phi - c->phi[lo]) / (c->phi[hi] - c->phi[lo]);
        x = c->x[lo] + a * (c->x[hi] - c->x[lo]);
        rho = c->rho[lo] + a * (c->rho[hi] - c->rho[lo]);
    }
    *x_out = x, *rho_out = rho;
}

mech_vec3 mech_dock_cam_roller_at(const mech_dock_cam *c, double x, double rho, int j)
{
    if (j < 0 || j >= c->n_lever)
        j = 0;
    return mech_vec3_make(x, rho * c->cpsi[j], rho * c->spsi[j]);
}

mech_vec3 mech_dock_cam_roller(const mech_dock_cam *c, double phi, int j)
{
    double x, rho;
    mech_dock_cam_at(c, phi, &x, &rho);
    return mech_dock_cam_roller_at(c, x, rho, j);
}

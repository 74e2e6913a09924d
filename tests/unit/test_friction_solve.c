/* The reaction solver of spec 003: the worked example of §3 (table, LP choice, small-friction boundary), the
 * symmetric guide, stick/slip on a floor, the n - w + 1 surface kind, and random systems where the variant-index
 * algorithm, the enumeration and the LP must agree. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "friction/friction_internal.h"
#include "hyst/noise.h"
#include <lapacke.h>

/* spec 003 §3: a q'' = Q - mu sigma k N, b q'' = Q_s + chi N with a = 1, b = 2, k = 1 (kappa = 2), sliding forward */
static void one_dof(double mu, double D, mech_friction_model **m, mech_friction_data **d)
{
    mech_friction_contact c = {2, {mu, mu}, {mu, mu}};
    assert_int_equal(mech_friction_model_new(1, 1, 1, &c, NULL, m, NULL), HY_OK);
    assert_int_equal(mech_friction_data_new(*m, d, NULL), HY_OK);
    mech_friction_data *x = *d;
    x->Mqq[0] = 1, x->Msq[0] = 2, x->fq[0] = D / 2, x->fs[0] = 0, x->qd[0] = 1;
    double n[4] = {0, 1, 0, -1}, t[4] = {1, 0, 1, 0};
    memcpy(x->nvec, n, sizeof n);
    memcpy(x->tvec, t, sizeof t);
    assert_int_equal(mech_friction_prepare(*m, x, NULL), HY_OK);
}

static void free_md(mech_friction_model *m, mech_friction_data *d)
{
    mech_friction_data_free(d);
    mech_friction_model_free(m);
}

static void spec3_table_small_friction(void **state)
{
    (void)state;
    mech_friction_model *m;
    mech_friction_data *d;
    /* mu = 0.3, D = +10: unique, chi = +1, N = 6.25; det 1.6 and -0.4 */
    one_dof(0.3, 10, &m, &d);
    assert_int_equal(mech_friction_solve(m, d, NULL), HY_OK);
    assert_int_equal(d->chi[0], 1);
    assert_float_equal(d->N[0], 6.25, 1e-12);
    assert_int_equal(d->attempts, 1);
    int count;
    assert_int_equal(mech_friction_enumerate(m, d, &count, NULL), HY_OK);
    assert_int_equal(count, 1);
    assert_float_equal(d->det[0], 1.6, 1e-12);
    assert_float_equal(d->det[1], -0.4, 1e-12);
    /* a wrong warm start is fixed by one flip: the second attempt */
    d->chi[0] = -1;
    assert_int_equal(mech_friction_solve(m, d, NULL), HY_OK);
    assert_int_equal(d->chi[0], 1);
    assert_int_equal(d->attempts, 2);
    assert_float_equal(d->N[0], 6.25, 1e-12);
    /* q'' = (Q - mu k N) / a = 5 - 0.3 * 6.25 */
    assert_float_equal(d->qdd[0], 5 - 0.3 * 6.25, 1e-12);
    free_md(m, d);
    /* mu = 0.3, D = -10: unique, chi = -1, N = 25 */
    one_dof(0.3, -10, &m, &d);
    assert_int_equal(mech_friction_solve(m, d, NULL), HY_OK);
    assert_int_equal(d->chi[0], -1);
    assert_float_equal(d->N[0], 25, 1e-12);
    assert_int_equal(d->attempts, 2);
    assert_int_equal(mech_friction_enumerate(m, d, &count, NULL), HY_OK);
    assert_int_equal(count, 1);
    /* the LP agrees under small friction */
    assert_int_equal(mech_friction_lp(m, d, NULL), HY_OK);
    assert_int_equal(d->chi[0], -1);
    assert_float_equal(d->N[0], 25, 1e-9);
    free_md(m, d);
}

static void spec3_table_paradoxes(void **state)
{
    (void)state;
    mech_friction_model *m;
    mech_friction_data *d;
    int count;
    /* mu = 0.7, D = +10: two solutions (4.1667 and 25); the LP picks the smaller sum, 4.1667 */
    one_dof(0.7, 10, &m, &d);
    assert_int_equal(mech_friction_enumerate(m, d, &count, NULL), HY_OK);
    assert_int_equal(count, 2);
    assert_float_equal(d->det[0], 2.4, 1e-12);
    assert_float_equal(d->det[1], 0.4, 1e-12);
    assert_int_equal(d->sol_mask[0], 0);
    assert_int_equal(d->sol_mask[1], 1);
    d->chi[0] = -1;
    assert_int_equal(mech_friction_lp(m, d, NULL), HY_OK);
    assert_int_equal(d->chi[0], 1);
    assert_float_equal(d->N[0], 10 / 2.4, 1e-9);
    assert_float_equal(d->N[0], 4.1667, 1e-4);
    mech_friction_verdict v;
    assert_int_equal(mech_friction_check(m, d, 1.0, &v, NULL), HY_OK);
    assert_int_equal(v.small, 0);
    free_md(m, d);
    /* mu = 0.7, D = -10: no solution; the solver reports it, the LP is infeasible */
    one_dof(0.7, -10, &m, &d);
    assert_int_equal(mech_friction_enumerate(m, d, &count, NULL), HY_OK);
    assert_int_equal(count, 0);
    hy_err e;
    assert_int_equal(mech_friction_solve(m, d, &e), HY_ESTATE);
    assert_non_null(strstr(e.msg, "paradox"));
    assert_int_equal(mech_friction_lp(m, d, &e), HY_ESTATE);
    free_md(m, d);
}

/* the coherent-orientation determinants 1 + mu kappa and 1 - mu kappa: the boundary mu |kappa| = 1 */
static void spec3_small_friction_boundary(void **state)
{
    (void)state;
    mech_friction_model *m;
    mech_friction_data *d;
    one_dof(1.0, 10, &m, &d);
    mech_friction_verdict v;
    assert_int_equal(mech_friction_check(m, d, 0.3, &v, NULL), HY_OK);
    assert_int_equal(v.small, 1);
    assert_float_equal(v.det_min, 1 - 0.6, 1e-12); /* 1 - mu kappa at the vertex mu = 0.3 */
    assert_float_equal(v.det_max, 1 + 0.6, 1e-12);
    assert_int_equal(mech_friction_check(m, d, 0.7, &v, NULL), HY_OK);
    assert_int_equal(v.small, 0);
    assert_int_equal(v.worst, 1); /* the chi = -1 orientation changes sign */
    double s;
    assert_int_equal(mech_friction_mu_limit(m, d, 5.0, &s, NULL), HY_OK);
    assert_float_equal(s, 0.5, 1e-9); /* mu* = 1 / |kappa| */
    /* sliding backwards: kappa = -2, the same boundary on |kappa| */
    d->qd[0] = -1;
    assert_int_equal(mech_friction_prepare(m, d, NULL), HY_OK);
    assert_int_equal(mech_friction_mu_limit(m, d, 5.0, &s, NULL), HY_OK);
    assert_float_equal(s, 0.5, 1e-9);
    free_md(m, d);
}

/* spec 003 §3 symmetric guide: one solve gives the signed reactions, R1 = -52.91 N, R2 = +151.01 N */
static void symmetric_guide(void **state)
{
    (void)state;
    mech_friction_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.kind = MECH_FRICTION_BUSHING, cfg.w = 1, cfg.ns = cfg.nc = 2;
    cfg.mass = 1.5, cfg.radius = 0.02, cfg.a[0] = -0.1, cfg.a[1] = 0.1;
    for (int j = 0; j < 2; j++)
        cfg.contact[j] = (mech_friction_contact){2, {0.2, 0.2}, {0.2, 0.2}};
    cfg.load[1].value = -98.1;
    cfg.load[2].value = -20;
    cfg.qd0[0] = 1;
    cfg.step = 1e-4, cfg.duration = 0;
    mech_friction_opt_default(&cfg.opt);
    mech_friction_mech *mc;
    assert_int_equal(mech_friction_mech_new(&cfg, &mc, NULL), HY_OK);
    mech_friction_sim *s;
    assert_int_equal(mech_friction_sim_new(mc, &s, NULL), HY_OK);
    mech_friction_sample o;
    mech_friction_sim_sample(s, &o);
    double R1 = o.chi[0] * o.N[0], R2 = o.chi[1] * o.N[1];
    assert_float_equal(R1, -52.91, 0.005);
    assert_float_equal(R2, 151.01, 0.005);
    /* closed form: R1 + R2 = 98.1, R2 - R1 = (20 + 0.02 * 0.2 * 98.1) / 0.1 */
    assert_float_equal(R2 - R1, (20 + 0.004 * 98.1) / 0.1, 1e-9);
    /* axial friction mu (|R1| + |R2|) against the motion */
    assert_float_equal(o.F[0] + o.F[1], -0.2 * (fabs(R1) + fabs(R2)), 1e-9);
    mech_friction_data *d = mech_friction_sim_data(s);
    assert_float_equal(d->qdd[0], -0.2 * (fabs(R1) + fabs(R2)) / 1.5, 1e-9);
    /* K- = -K+ for the symmetric guide even with friction */
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) {
            double kp = d->Kn[(2 * j) * 2 + i] - 0.2 * d->Kt[(2 * j) * 2 + i];
            double km = d->Kn[(2 * j + 1) * 2 + i] - 0.2 * d->Kt[(2 * j + 1) * 2 + i];
            assert_float_equal(kp, -km, 1e-12);
        }
    mech_friction_sim_free(s);
    mech_friction_mech_free(mc);
}

/* stick and slip of a block on a floor: w = 1 (x), s = y, gravity on y, push P along x */
static void stick_slip_block(void **state)
{
    (void)state;
    mech_friction_contact c = {2, {0.3, 0.3}, {0.5, 0.5}};
    mech_friction_model *m;
    mech_friction_data *d;
    assert_int_equal(mech_friction_model_new(1, 1, 1, &c, NULL, &m, NULL), HY_OK);
    assert_int_equal(mech_friction_data_new(m, &d, NULL), HY_OK);
    double n[4] = {0, 1, 0, -1}, t[4] = {1, 0, 1, 0};
    memcpy(d->nvec, n, sizeof n);
    memcpy(d->tvec, t, sizeof t);
    d->Mqq[0] = 2, d->Msq[0] = 0, d->fs[0] = -2 * 9.81, d->qd[0] = 0;
    for (int k = 0; k < 2; k++) {
        double P = k ? 12.0 : 9.0; /* mu_s N = 9.81: 9 sticks, 12 slips */
        d->fq[0] = P;
        d->slip[0] = 0;
        assert_int_equal(mech_friction_prepare(m, d, NULL), HY_OK);
        assert_int_equal(mech_friction_solve(m, d, NULL), HY_OK);
        assert_float_equal(d->N[0], 2 * 9.81, 1e-12);
        if (!k) {
            assert_int_equal(d->slip[0], 0);
            assert_float_equal(d->F[0], -9.0, 1e-12);
            assert_float_equal(d->qdd[0], 0, 1e-12);
        } else {
            assert_int_equal(d->slip[0], 1);
            assert_float_equal(d->F[0], -0.3 * 2 * 9.81, 1e-12);
            assert_float_equal(d->qdd[0], (12 - 0.3 * 2 * 9.81) / 2, 1e-12);
        }
        /* the LP with the stick hypothesis: the cone holds at P = 9 */
        d->slip[0] = 0;
        assert_int_equal(mech_friction_lp(m, d, NULL), HY_OK);
        if (!k)
            assert_float_equal(d->F[0], -9.0, 1e-9);
    }
    free_md(m, d);
}

/* §2.7: a pin held in a hole by three one-sided supports at 90, 210 and 330 degrees (n - w + 1 = 3 surfaces for
 * 2 constrained directions); under a downward load of 10 N the two lower ones carry 10 N each, the LP finds it */
static void three_surface_pin(void **state)
{
    (void)state;
    mech_friction_contact c[3];
    for (int j = 0; j < 3; j++)
        c[j] = (mech_friction_contact){1, {0, 0}, {0, 0}};
    mech_friction_model *m;
    mech_friction_data *d;
    assert_int_equal(mech_friction_model_new(1, 2, 3, c, NULL, &m, NULL), HY_OK);
    assert_int_equal(mech_friction_data_new(m, &d, NULL), HY_OK);
    double ang[3] = {90, 210, 330};
    for (int j = 0; j < 3; j++) {
        double *n = d->nvec + (2 * j) * 3, th = ang[j] * M_PI / 180;
        n[0] = 0, n[1] = -cos(th), n[2] = -sin(th); /* inward normal: the reaction on the pin */
        double *t = d->tvec + (2 * j) * 3;
        t[0] = 0.01, t[1] = -sin(th), t[2] = cos(th);
    }
    d->Mqq[0] = 1e-3, d->fq[0] = 0, d->fs[0] = 0, d->fs[1] = -10;
    assert_int_equal(mech_friction_prepare(m, d, NULL), HY_OK);
    hy_err e;
    int rc = mech_friction_solve(m, d, &e);
    if (rc)
        print_message("%s\n", e.msg);
    assert_int_equal(rc, HY_OK);
    assert_int_equal(d->method, MECH_FRICTION_LP);
    assert_float_equal(d->N[0], 0, 1e-9);
    assert_float_equal(d->N[1], 10, 1e-9);
    assert_float_equal(d->N[2], 10, 1e-9);
    /* sideways load 5 N to +x: the 330-degree... the supports whose inward normals span -x */
    d->fs[0] = 5;
    assert_int_equal(mech_friction_prepare(m, d, NULL), HY_OK);
    assert_int_equal(mech_friction_lp(m, d, NULL), HY_OK);
    double rx = 0, ry = 0;
    for (int j = 0; j < 3; j++) {
        double th = ang[j] * M_PI / 180;
        assert_true(d->N[j] >= 0);
        rx += -cos(th) * d->N[j], ry += -sin(th) * d->N[j];
    }
    assert_float_equal(rx, -5, 1e-9);
    assert_float_equal(ry, 10, 1e-9);
    free_md(m, d);
}

/* random systems: w = 6, four variant pairs on normal lines (K- = -K+ without friction) with the two sides'
 * coefficients and tangents different. Wherever the small-friction check holds: the variant algorithm from a random
 * cold start settles (in <= 2 attempts in at least 90 % of the systems: the exact count is printed), the warm start
 * in 1, the enumeration finds exactly one admissible variant and it is the
 * same; the LP's vertex is that variant whenever it is a variant state at all (no pair squeezed from both sides),
 * and for mu <= 0.02 in all but 1 % of the strongly coupled systems (the LP's reduced costs keep the complementary vertex optimal for small enough mu). */
static int random_run(hy_rng *r, double mu_lo, double mu_hi, double coupling, int *hist, int *squeeze, int *agree)
{
    int w = 6, nc = 4, W = w + nc, small = 0;
    double mu0 = mu_lo + (mu_hi - mu_lo) * hy_rng_uniform(r);
    mech_friction_contact c[4];
    for (int j = 0; j < nc; j++) {
        double mu_a = mu0 * (0.5 + hy_rng_uniform(r)), mu_b = mu0 * (0.5 + hy_rng_uniform(r));   /* sequenced */
        c[j] = (mech_friction_contact){2, {mu_a, mu_b}, {0, 0}};
    }
    mech_friction_model *m;
    mech_friction_data *d;
    assert_int_equal(mech_friction_model_new(w, nc, nc, c, NULL, &m, NULL), HY_OK);
    assert_int_equal(mech_friction_data_new(m, &d, NULL), HY_OK);
    double B[36];
    for (int i = 0; i < 36; i++)
        B[i] = hy_rng_normal(r);
    for (int i = 0; i < w; i++)
        for (int j = 0; j < w; j++) {
            double s = i == j ? 1.0 : 0.0;
            for (int k = 0; k < w; k++)
                s += B[i * w + k] * B[j * w + k];
            d->Mqq[i * w + j] = s;
        }
    for (int i = 0; i < nc * w; i++)
        d->Msq[i] = coupling * hy_rng_normal(r);
    for (int i = 0; i < w; i++)
        d->fq[i] = 10 * hy_rng_normal(r), d->qd[i] = hy_rng_normal(r);
    for (int i = 0; i < nc; i++)
        d->fs[i] = 10 * hy_rng_normal(r);
    for (int j = 0; j < nc; j++) {
        double *np = d->nvec + (2 * j) * W, *nm = np + W, *tp = d->tvec + (2 * j) * W, *tm = tp + W;
        for (int i = 0; i < W; i++) {
            np[i] = (i == w + j ? 1.0 : 0.0) + 0.6 * coupling * hy_rng_normal(r) * (i >= w);
            nm[i] = -np[i];
            tp[i] = hy_rng_normal(r) * (i < w ? 1.0 : coupling);
            tm[i] = tp[i] + 0.2 * hy_rng_normal(r) * (i < w ? 1.0 : coupling);
        }
    }
    assert_int_equal(mech_friction_prepare(m, d, NULL), HY_OK);
    mech_friction_verdict v;
    assert_int_equal(mech_friction_check(m, d, 1.0, &v, NULL), HY_OK);
    if (v.small) {
        small = 1;
        for (int j = 0; j < nc; j++)
            d->chi[j] = hy_rng_uniform(r) < 0.5 ? 1 : -1;
        assert_int_equal(mech_friction_solve(m, d, NULL), HY_OK);
        assert_true(d->method == MECH_FRICTION_VARIANT || d->method == MECH_FRICTION_ENUM);
        hist[d->method == MECH_FRICTION_ENUM ? 8 : d->attempts < 8 ? d->attempts : 7]++;
        double N[4], qdd[6];
        int chi[4];
        memcpy(N, d->N, sizeof N);
        memcpy(qdd, d->qdd, sizeof qdd);
        memcpy(chi, d->chi, sizeof chi);
        assert_int_equal(mech_friction_solve(m, d, NULL), HY_OK);
        assert_int_equal(d->attempts, 1);
        int count;
        assert_int_equal(mech_friction_enumerate(m, d, &count, NULL), HY_OK);
        assert_int_equal(count, 1);
        for (int j = 0; j < nc; j++)
            assert_int_equal(d->chi[j], chi[j]);
        assert_int_equal(mech_friction_lp(m, d, NULL), HY_OK);
        if (d->lp_squeeze) {
            ++*squeeze;
        } else {
            ++*agree;
            double scale = 1;
            for (int j = 0; j < nc; j++)
                scale = fmax(scale, N[j]);
            for (int j = 0; j < nc; j++) {
                assert_true(fabs(d->N[j] - N[j]) <= 1e-8 * scale);
                if (N[j] > 1e-6 * scale)
                    assert_int_equal(d->chi[j], chi[j]);
            }
            for (int i = 0; i < w; i++)
                assert_true(fabs(d->qdd[i] - qdd[i]) <= 1e-8 * (1 + fabs(qdd[i])) * scale);
        }
    }
    mech_friction_data_free(d);
    mech_friction_model_free(m);
    return small;
}

/* one coordinate (w = 1: the movable limiter's guides, a slider): prepare divides by the mass instead of calling
 * dpotrf and dpotrs (friction_solve.c); its Y, K and d against the LAPACK route on the same random systems, to
 * round-off; a mass that is not positive (0, negative, NaN) is refused as dpotrf refuses it */
// (generator, spread of the mass's logarithm, ns, nc, model, data) => a random system with one coordinate (w = 1):
// mass exp(spread N(0,1)), normal M_sq, loads, rate and pair vectors, prepared
static void random_one_coordinate(hy_rng *r, double spread, int ns, int nc, const mech_friction_model *m,
                                  mech_friction_data *d)
{
    int W = 1 + ns;
    d->Mqq[0] = exp(spread * hy_rng_normal(r));
    for (int i = 0; i < ns; i++)
        d->Msq[i] = hy_rng_normal(r), d->fs[i] = 10 * hy_rng_normal(r);
    d->fq[0] = 10 * hy_rng_normal(r), d->qd[0] = hy_rng_normal(r);
    for (int i = 0; i < 2 * nc * W; i++)
        d->nvec[i] = hy_rng_normal(r), d->tvec[i] = hy_rng_normal(r);
    assert_int_equal(mech_friction_prepare(m, d, NULL), HY_OK);
}

static void one_coordinate_prepare(void **state)
{
    (void)state;
    hy_rng r;
    hy_rng_seed(&r, 17, 1);
    int ns = 2, nc = 2, W = 1 + ns, ny = 4 * nc + 1;
    mech_friction_contact c[2] = {{2, {0.15, 0.2}, {0.15, 0.2}}, {2, {0.1, 0.3}, {0.1, 0.3}}};
    mech_friction_model *m;
    mech_friction_data *d;
    assert_int_equal(mech_friction_model_new(1, ns, nc, c, NULL, &m, NULL), HY_OK);
    assert_int_equal(mech_friction_data_new(m, &d, NULL), HY_OK);
    double worst = 0;
    for (int trial = 0; trial < 200; trial++) {
        random_one_coordinate(&r, 3, ns, nc, m, d);
        /* the LAPACK route: Y = Mqq^-1 [n_q t_q per contact side, fq] */
        double L = d->Mqq[0], Y[9];
        for (int cc = 0; cc < nc; cc++)
            for (int k = 0; k < 2; k++)
                Y[4 * cc + 2 * k] = d->nvec[(2 * cc + k) * W], Y[4 * cc + 2 * k + 1] = d->tvec[(2 * cc + k) * W];
        Y[4 * nc] = d->fq[0];
        assert_int_equal(LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', 1, &L, 1), 0);
        assert_int_equal(LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', 1, ny, &L, 1, Y, 1), 0);
        for (int j = 0; j < ny; j++)
            worst = fmax(worst, fabs(d->Y[j] - Y[j]) / fmax(fabs(Y[j]), 1e-300));
        assert_true(fabs(d->L[0] - L) <= 1e-15 * L);
        for (int cc = 0; cc < 2 * nc; cc++)
            for (int i = 0; i < ns; i++) {
                double kn = d->nvec[cc * W + 1 + i] - d->Msq[i] * Y[2 * cc];
                double kt = d->tvec[cc * W + 1 + i] - d->Msq[i] * Y[2 * cc + 1];
                assert_true(fabs(d->Kn[cc * ns + i] - kn) <= 1e-14 * (1 + fabs(kn)));
                assert_true(fabs(d->Kt[cc * ns + i] - kt) <= 1e-14 * (1 + fabs(kt)));
            }
        for (int i = 0; i < ns; i++) {
            double dv = d->Msq[i] * Y[4 * nc] - d->fs[i];
            assert_true(fabs(d->dvec[i] - dv) <= 1e-14 * (1 + fabs(dv)));
        }
    }
    print_message("w = 1: Y against dpotrf + dpotrs, worst relative difference %.2g over 200 systems\n", worst);
    assert_true(worst <= 1e-15);   /* y / L / L against y / M: a few ulp */
    double bad[3] = {0.0, -1.0, NAN};
    for (int k = 0; k < 3; k++) {
        d->Mqq[0] = bad[k];
        hy_err e;
        assert_int_equal(mech_friction_prepare(m, d, &e), HY_ENUMERIC);
        assert_non_null(strstr(e.msg, "not positive definite"));
    }
    free_md(m, d);
}

/* two unknowns (two sliding pairs on two redundant coordinates, the movable limiter's guides): the fixed solve's
   closed form against LAPACK's dgesv on the same matrix, its determinant against the LU's, and a nearly singular
   system, which must go to LAPACK and come back flagged as such */
static void two_unknowns_closed_form(void **state)
{
    (void)state;
    hy_rng r;
    hy_rng_seed(&r, 29, 4);
    int ns = 2, nc = 2, W = 1 + ns;
    mech_friction_contact c[2] = {{2, {0.15, 0.2}, {0.15, 0.2}}, {2, {0.1, 0.3}, {0.1, 0.3}}};
    mech_friction_model *m;
    mech_friction_data *d;
    assert_int_equal(mech_friction_model_new(1, ns, nc, c, NULL, &m, NULL), HY_OK);
    assert_int_equal(mech_friction_data_new(m, &d, NULL), HY_OK);
    double worst = 0, worst_det = 0;
    for (int trial = 0; trial < 500; trial++) {
        random_one_coordinate(&r, 1, ns, nc, m, d);
        int chi[2] = {trial & 1 ? 1 : -1, trial & 2 ? 1 : -1}, slip[2] = {trial & 4 ? 1 : -1, trial & 8 ? 1 : -1};
        double det;
        assert_int_equal(fr_solve_fixed(m, d, chi, slip, &det), HY_OK);
        /* the matrix the solve built is left in d->A (the closed form does not factor it) */
        double A[4], b[2] = {d->dvec[0], d->dvec[1]};
        lapack_int ipiv[2];
        memcpy(A, d->A, sizeof A);
        assert_int_equal(LAPACKE_dgesv(LAPACK_COL_MAJOR, 2, 1, A, 2, ipiv, b, 2), 0);
        double lu_det = A[0] * A[3] * (ipiv[0] != 1 ? -1 : 1) * (ipiv[1] != 2 ? -1 : 1);
        for (int i = 0; i < 2; i++)
            worst = fmax(worst, fabs(d->N[i] - b[i]) / fmax(fabs(b[0]) + fabs(b[1]), 1e-300));
        worst_det = fmax(worst_det, fabs(det - lu_det) / fabs(lu_det));
    }
    print_message("two unknowns: the closed form against dgesv, worst difference %.2g (of |N|), determinant %.2g, "
                  "over 500 systems\n", worst, worst_det);
    assert_true(worst <= 1e-12);
    assert_true(worst_det <= 1e-12);
    /* two pairs acting alike on both coordinates (rows nearly dependent): the determinant cancels to round-off */
    for (int i = 0; i < 2 * nc * W; i++)
        d->nvec[i] = 1.0 + (i % W), d->tvec[i] = 0.0;
    d->nvec[1] += 1e-13, d->nvec[W + 1] += 1e-13;   /* contact 0, both sides: its column 1e-13 off contact 1's */
    d->Mqq[0] = 1, d->Msq[0] = d->Msq[1] = 0;
    assert_int_equal(mech_friction_prepare(m, d, NULL), HY_OK);
    int chi[2] = {1, 1}, slip[2] = {1, 1};
    double det = 1;
    int rc = fr_solve_fixed(m, d, chi, slip, &det);
    /* LAPACK's LU took it (the matrix came back factored: its (2,2) entry is the last pivot, ~1e-13) */
    assert_true(fabs(d->A[3]) < 1e-11);
    assert_true(rc == HY_OK || rc == HY_ENUMERIC);
    assert_true(fabs(det) < 1e-11);
    free_md(m, d);
}

static void random_systems_agree(void **state)
{
    (void)state;
    hy_rng r;
    hy_rng_seed(&r, 2026, 3);
    int runs = 400;
    /* weakly coupled: the redundant coordinates chosen so that each equation holds few reactions (spec 003 §1.2.1),
     * as in the guides, screws and cranks the module is for */
    int small = 0, hist[9] = {0}, squeeze = 0, agree = 0;
    for (int run = 0; run < runs; run++)
        small += random_run(&r, 0.05, 0.3, 0.1, hist, &squeeze, &agree);
    print_message("weak coupling, mu 0.05..0.3: %d of %d small-friction; attempts 1: %d, 2: %d, more: %d; LP "
                  "squeezed %d, agreed %d\n", small, runs, hist[1], hist[2], small - hist[1] - hist[2], squeeze, agree);
    assert_true(small > runs * 9 / 10);
    assert_true(hist[1] + hist[2] >= small * 9 / 10); /* measured 373 of 400: see docs/friction.md */
    assert_int_equal(agree, small);
    /* strongly coupled: the enumeration and the LP still agree, but the simultaneous flipping from a cold start
     * may need more than two attempts (spec 003 G9): measured, not claimed */
    int small2 = 0, hist2[9] = {0}, squeeze2 = 0, agree2 = 0;
    for (int run = 0; run < runs; run++)
        small2 += random_run(&r, 0.05, 0.3, 0.5, hist2, &squeeze2, &agree2);
    print_message("strong coupling, mu 0.05..0.3: %d of %d small-friction; attempts 1: %d, 2: %d, 3: %d, 4-7: %d, "
                  "enumeration: %d; LP squeezed %d, agreed %d\n", small2, runs, hist2[1], hist2[2], hist2[3],
                  hist2[4] + hist2[5] + hist2[6] + hist2[7], hist2[8], squeeze2, agree2);
    assert_true(agree2 > small2 / 2);
    /* and for small enough mu the LP's vertex is always the variant state */
    int small3 = 0, hist3[9] = {0}, squeeze3 = 0, agree3 = 0;
    for (int run = 0; run < runs; run++)
        small3 += random_run(&r, 0.0, 0.02, 0.5, hist3, &squeeze3, &agree3);
    print_message("strong coupling, mu 0..0.02: %d of %d small-friction; attempts 1: %d, 2: %d; LP squeezed %d, "
                  "agreed %d\n", small3, runs, hist3[1], hist3[2], squeeze3, agree3);
    assert_true(squeeze3 <= runs / 100);
    assert_int_equal(agree3 + squeeze3, small3);
    assert_true(hist3[1] + hist3[2] >= small3 * 9 / 10);
}

/* trial / commit / revert of the discrete state, and the data copy (one buffer, its own LP object) */
static void trial_commit_revert_copy(void **state)
{
    (void)state;
    mech_friction_model *m;
    mech_friction_data *d, *e;
    one_dof(0.3, -10, &m, &d);
    assert_int_equal(d->chi_c[0], 1);
    assert_int_equal(mech_friction_solve(m, d, NULL), HY_OK);
    assert_int_equal(d->chi[0], -1);   /* trial */
    assert_int_equal(d->chi_c[0], 1);  /* committed untouched */
    mech_friction_revert(d);
    assert_int_equal(d->chi[0], 1);
    assert_int_equal(mech_friction_solve(m, d, NULL), HY_OK);
    mech_friction_commit(d);
    assert_int_equal(d->chi_c[0], -1);
    assert_int_equal(d->slip_c[0], 1);
    assert_int_equal(mech_friction_data_new(m, &e, NULL), HY_OK);
    mech_friction_data_copy(e, d);
    assert_true(e->Mqq != d->Mqq && e->lp != d->lp);
    assert_float_equal(e->N[0], 25, 1e-12);
    assert_int_equal(e->chi_c[0], -1);
    d->fq[0] = 5; /* the source changes: the copy does not */
    assert_int_equal(mech_friction_prepare(m, d, NULL), HY_OK);
    assert_int_equal(mech_friction_solve(m, d, NULL), HY_OK);
    assert_float_equal(d->N[0], 6.25, 1e-12);
    assert_int_equal(mech_friction_solve(m, e, NULL), HY_OK);
    assert_float_equal(e->N[0], 25, 1e-12);
    assert_int_equal(mech_friction_lp(m, e, NULL), HY_OK);
    assert_float_equal(e->N[0], 25, 1e-9);
    mech_friction_data_free(e);
    free_md(m, d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spec3_table_small_friction),
        cmocka_unit_test(spec3_table_paradoxes),
        cmocka_unit_test(spec3_small_friction_boundary),
        cmocka_unit_test(symmetric_guide),
        cmocka_unit_test(stick_slip_block),
        cmocka_unit_test(three_surface_pin),
        cmocka_unit_test(random_systems_agree),
        cmocka_unit_test(one_coordinate_prepare),
        cmocka_unit_test(two_unknowns_closed_form),
        cmocka_unit_test(trial_commit_revert_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

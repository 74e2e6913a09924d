/* Jointed-beam frequencies (spec 004 §8, §11 T1-T3): cantilever against the closed form, the free hub against the
 * exact frequency equation of a hub with a clamped Euler-Bernoulli beam, Model A (k = 1e9) = Model B, the §8
 * regression values of the sweeps, mesh convergence, 5 modes against the full FE model, hinge attachment modes
 * (open-hinge frequency 0), MFC and mesh alignment, bad parameters. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mech/beam.h"

#define HZ_TOL 1e-4

static mech_beam_model *build(const mech_beam_params *p)
{
    mech_beam_model *m = NULL;
    hy_err err;
    int rc = mech_beam_model_new(p, &m, &err);
    if (rc != HY_OK)
        fail_msg("%s", err.msg);
    return m;
}

static void system_freq(const mech_beam_params *p, double *f)
{
    mech_beam_model *m = build(p);
    assert_int_equal(mech_beam_freq_system(m, f, NULL), HY_OK);
    mech_beam_model_free(m);
}

static void expect(const char *what, const double *got, const double *want, int n, double tol)
{
    for (int i = 0; i < n; i++)
        if (fabs(got[i] - want[i]) > tol)
            fail_msg("%s: f%d = %.6f, expected %.6f (tolerance %g)", what, i + 1, got[i], want[i], tol);
}

/* T1: clamped cantilever, (beta_n l)^2 / (2 pi l^2) sqrt(EI / rho1); mass-normalised tip amplitude 2 / sqrt(rho1 l) */
static void cantilever_closed_form(void **state)
{
    (void)state;
    mech_beam_params p;
    mech_beam_params_default(&p);
    p.n_hinges = 0;
    p.n_elem = 120;   /* the closed form: discretisation error of f5 1.7e-4 Hz with 60 elements, 1e-5 with 120 */
    mech_beam_model *m = build(&p);
    double f[5], bl[5] = {1.87510407, 4.69409113, 7.85475744, 10.99554073, 14.13716839};
    double EI = mech_beam_EI(&p), rho1 = p.rho * p.width * p.thickness, want[5];
    for (int i = 0; i < 5; i++)
        want[i] = bl[i] * bl[i] / (2 * M_PI * p.length * p.length) * sqrt(EI / rho1);
    assert_int_equal(mech_beam_freq_clamped(m, f, NULL), HY_OK);
    expect("cantilever vs closed form (120 elements)", f, want, 5, HZ_TOL);
    mech_beam_model_free(m);
    p.n_elem = 60;
    m = build(&p);
    assert_int_equal(mech_beam_freq_clamped(m, f, NULL), HY_OK);
    double spec[5] = {1.3709, 8.5911, 24.0553, 47.1388, 77.9240};
    expect("cantilever vs spec T1 (60 elements)", f, spec, 5, HZ_TOL);
    mech_beam_info in;
    mech_beam_model_info(m, &in);
    for (int i = 0; i < 5; i++)
        assert_true(fabs(in.tip[i] - 2 / sqrt(rho1 * p.length)) < 1e-4);
    /* mass-normalised: Phi' Mbar Phi = I and Phi' Kbar Phi diagonal to round-off */
    print_message("cantilever: Phi' Mbar Phi - I and Phi' Kbar Phi off-diagonal: %.1e\n", in.ortho_err);
    assert_true(in.ortho_err < 1e-10);
    mech_beam_model_free(m);
}

/* The k lowest modes by dsygvx (a model of fewer modes than DOFs) against every mode by dsygvd (modes.count = 0):
 * the paper's beam with its hinge, 5 of 122; frequencies, mode shapes (signs by the tip) and the rows the
 * simulation uses (H, tip, hinge jump), and the mass normalisation */
static void lowest_modes_match_all(void **state)
{
    (void)state;
    mech_beam_params p;
    mech_beam_params_default(&p);
    mech_beam_model *m5 = build(&p);
    p.n_modes = 0;
    mech_beam_model *ma = build(&p);
    mech_beam_info a, b;
    mech_beam_model_info(m5, &a);
    mech_beam_model_info(ma, &b);
    assert_int_equal(a.nm, 5);
    assert_true(b.nm > 100);
    double dw = 0, dphi = 0, drow = 0, scale = 0;
    for (size_t c = 0; c < 5; c++) {
        dw = fmax(dw, fabs(a.omega[c] - b.omega[c]) / b.omega[c]);
        for (size_t i = 0; i < a.ndof; i++) {
            dphi = fmax(dphi, fabs(a.Phi[i * a.nm + c] - b.Phi[i * b.nm + c]));
            scale = fmax(scale, fabs(b.Phi[i * b.nm + c]));
        }
        drow = fmax(drow, fabs(a.H[c] - b.H[c]) / fmax(fabs(b.H[c]), 1e-300) * (fabs(b.H[c]) > 1e-8));
        drow = fmax(drow, fabs(a.tip[c] - b.tip[c]) / fabs(b.tip[c]));
    }
    print_message("5 lowest modes (dsygvx) against all 122 (dsygvd): frequencies %.1e, shapes %.1e of their largest "
                  "entry, H and tip rows %.1e; Phi' Mbar Phi - I %.1e\n", dw, dphi / scale, drow, a.ortho_err);
    /* 2e-10: the two eigensolvers' round-off on eigenvalues 1e8 times smaller than the largest of the reduced
       problem (dstedc's eigenvalues are accurate to eps times the largest; bisection to 2 * safmin) */
    assert_true(dw < 1e-9);
    assert_true(dphi < 1e-7 * scale);
    assert_true(drow < 1e-7);
    assert_true(a.ortho_err < 1e-10);
    mech_beam_model_free(m5);
    mech_beam_model_free(ma);
}

/* Exact frequency equation of the hub + clamped beam: absolute deflection W = (r0 + x) theta + w solves
 * EI W'''' = rho1 w^2 W with W(0) = r0 theta, W'(0) = theta, W''(l) = W'''(l) = 0 and the hub's balance
 * J1 w^2 theta + EI (W''(0) - r0 W'''(0)) = 0 (eq. 12 integrated by parts). D(w) = det of the 5 x 5 system. */
static double hub_det(const mech_beam_params *p, double omega)
{
    double EI = mech_beam_EI(p), rho1 = p->rho * p->width * p->thickness, l = p->length, r0 = p->r0;
    double b = pow(rho1 * omega * omega / EI, 0.25), ch = cosh(b * l), sh = sinh(b * l), cs = cos(b * l),
           sn = sin(b * l);
    /* unknowns a, b_, c, d (W = a cosh + b_ sinh + c cos + d sin), theta; rows scaled to O(1) */
    double A[25] = {1, 0, 1, 0, -r0,
                    0, b, 0, b, -1,
                    ch, sh, -cs, -sn, 0,
                    sh, ch, sn, -cs, 0,
                    EI * b * b, -r0 * EI * b * b * b, -EI * b * b, r0 * EI * b * b * b, p->J1 * omega * omega};
    for (int j = 0; j < 5; j++) {
        A[10 + j] /= ch;
        A[15 + j] /= ch;
    }
    lapack_int ipiv[5];
    LAPACKE_dgetrf(LAPACK_ROW_MAJOR, 5, 5, A, 5, ipiv);
    double det = 1;
    for (int i = 0; i < 5; i++)
        det *= A[i * 5 + i] * (ipiv[i] != i + 1 ? -1 : 1);
    return det;
}

// (params, n) => first n roots of the frequency equation, Hz (scan + bisection)
static void hub_exact(const mech_beam_params *p, double *f, int n)
{
    int k = 0;
    double w0 = 0.5, d0 = hub_det(p, w0);
    for (double w = w0 + 0.01; k < n && w < 2 * M_PI * 200; w += 0.01) {
        double d = hub_det(p, w);
        if ((d > 0) != (d0 > 0)) {
            double lo = w - 0.01, hi = w;
            for (int it = 0; it < 80; it++) {
                double mid = 0.5 * (lo + hi), dm = hub_det(p, mid);
                if ((dm > 0) == (d0 > 0))
                    lo = mid;
                else
                    hi = mid;
            }
            f[k++] = 0.5 * (lo + hi) / (2 * M_PI);
        }
        d0 = d;
    }
    assert_int_equal(k, n);
}

/* T2: Model B (continuous beam, J1 = 100) = the exact equation = spec's values; Model A with k = 1e9 = Model B */
static void model_b_and_a(void **state)
{
    (void)state;
    mech_beam_params p;
    mech_beam_params_default(&p);
    p.n_hinges = 0;
    double f[6], exact[5], spec[5] = {1.8438, 8.7261, 24.1195, 47.1812, 77.9562};
    double f120[6];
    p.n_elem = 120;
    system_freq(&p, f120);
    hub_exact(&p, exact, 5);
    expect("Model B (120 elements) vs exact frequency equation", f120 + 1, exact, 5, HZ_TOL);
    p.n_elem = 60;
    system_freq(&p, f);
    assert_true(fabs(f[0]) < 1e-6);   /* rigid mode */
    expect("Model B vs spec T2", f + 1, spec, 5, HZ_TOL);
    mech_beam_model *m = build(&p);
    mech_beam_info in;
    mech_beam_model_info(m, &in);
    assert_true(fabs(in.J - 188.452) < 1e-3);
    double H[5] = {9.1840, -1.7701, 0.7302, -0.4240, 0.2875};
    for (int i = 0; i < 5; i++)
        assert_true(fabs(in.H[i] - H[i]) < 1e-4);
    mech_beam_model_free(m);
    mech_beam_params_default(&p);
    p.hinge[0].k = 1e9;
    p.hinge[0].mass = 0;
    double fa[6];
    system_freq(&p, fa);
    expect("Model A (k = 1e9) vs Model B", fa + 1, f + 1, 5, HZ_TOL);
    /* J1 = 80: exact equation (spec §8 prints 1.9392, 8.7600: 1e-4 above the converged values, see docs/beam.md) */
    mech_beam_params_default(&p);
    p.n_hinges = 0;
    p.J1 = 80;
    p.n_elem = 120;
    system_freq(&p, f120);
    hub_exact(&p, exact, 5);
    expect("Model B, J1 = 80 (120 elements) vs exact", f120 + 1, exact, 5, HZ_TOL);
    p.n_elem = 60;
    system_freq(&p, f);
    double spec80[5] = {1.9392, 8.7600, 24.1356, 47.1918, 77.9642};
    expect("Model B, J1 = 80 vs spec", f + 1, spec80, 5, 1.5e-4);
}

/* §8 regression values (hinge at mid-span, k = c k_l, m = 0.02, J1 = 100 unless varied) */
static void regression_sweeps(void **state)
{
    (void)state;
    mech_beam_params p;
    double f[6];
    mech_beam_params_default(&p);
    system_freq(&p, f);
    double a[5] = {1.8297, 8.4725, 24.1191, 45.8599, 77.9562};
    expect("Model A, k = k_l", f + 1, a, 5, HZ_TOL);
    mech_beam_model *m = build(&p);
    double fc[5], cl[5] = {1.3612, 8.3355, 24.0548, 45.8174, 77.9240};
    assert_int_equal(mech_beam_freq_clamped(m, fc, NULL), HY_OK);
    expect("hinged cantilever", fc, cl, 5, HZ_TOL);
    mech_beam_model_free(m);
    /* hinge mass: f1, f2, f4 */
    double mass[6] = {0, 0.02, 0.1, 0.5, 1, 2};
    double f1[6] = {1.8298, 1.8297, 1.8294, 1.8276, 1.8254, 1.8212};
    double f2[6] = {8.4798, 8.4725, 8.4433, 8.3032, 8.1398, 7.8472};
    double f4[6] = {45.903, 45.860, 45.692, 44.907, 44.045, 42.631};
    for (int i = 0; i < 6; i++) {
        mech_beam_params_default(&p);
        p.hinge[0].mass = mass[i];
        system_freq(&p, f);
        assert_true(fabs(f[1] - f1[i]) <= HZ_TOL && fabs(f[2] - f2[i]) <= HZ_TOL && fabs(f[4] - f4[i]) <= 1e-3);
    }
    /* hub inertia */
    double J1[7] = {20, 50, 80, 100, 200, 500, 1000}, g1[7] = {2.8588, 2.1719, 1.9240, 1.8297, 1.6176, 1.4705, 1.4172};
    for (int i = 0; i < 7; i++) {
        mech_beam_params_default(&p);
        p.J1 = J1[i];
        system_freq(&p, f);
        if (fabs(f[1] - g1[i]) > HZ_TOL)
            fail_msg("J1 = %g: f1 = %.6f, expected %.4f", J1[i], f[1], g1[i]);
    }
    /* stiffness ratio c: percentages of the hinge-less frequencies (printed to 0.01 %) */
    double c[5] = {0.1, 0.5, 1, 3, 10};
    double pct[5][5] = {{92.96, 81.00, 99.99, 85.59, 100.0}, {98.49, 94.56, 100.0, 94.96, 100.0},
                        {99.24, 97.09, 100.0, 97.20, 100.0}, {99.74, 98.94, 100.0, 98.95, 100.0},
                        {99.92, 99.62, 100.0, 99.62, 100.0}};
    double f0[6];
    mech_beam_params_default(&p);
    p.n_hinges = 0;
    system_freq(&p, f0);
    for (int i = 0; i < 5; i++) {
        mech_beam_params_default(&p);
        p.hinge[0].k = c[i] * mech_beam_k_ref(&p);
        system_freq(&p, f);
        for (int k = 0; k < 5; k++)
            if (fabs(100 * f[k + 1] / f0[k + 1] - pct[i][k]) > 0.0051)
                fail_msg("c = %g: f%d = %.4f %%, expected %.2f %%", c[i], k + 1, 100 * f[k + 1] / f0[k + 1], pct[i][k]);
    }
    /* §4.3 configuration */
    mech_beam_params_default(&p);
    p.J1 = 80;
    p.hinge[0].k *= 0.8;
    system_freq(&p, f);
    double s43[5] = {1.9203, 8.4495, 24.1352, 45.5878, 77.9642};
    expect("§4.3 configuration", f + 1, s43, 5, HZ_TOL);
    /* hinge count, equal spacing */
    double nj[3][5] = {{1.8297, 8.4725, 24.1191, 45.8599, 77.9562}, {1.7820, 8.3854, 22.9484, 43.6340, 77.3156},
                       {1.7580, 8.2878, 22.7553, 44.0695, 70.4747}};
    int count[3] = {1, 3, 4};
    for (int i = 0; i < 3; i++) {
        mech_beam_params_default(&p);
        mech_beam_params_equal_hinges(&p, count[i]);
        system_freq(&p, f);
        expect(count[i] == 1 ? "n_j = 1" : count[i] == 3 ? "n_j = 3" : "n_j = 4", f + 1, nj[i], 5, HZ_TOL);
    }
}

/* 60 vs 120 elements and 5 modes vs the full FE model: the 5-mode system frequencies move by less than 1e-3 Hz */
static void mesh_convergence(void **state)
{
    (void)state;
    mech_beam_params p;
    double f60[6], f120[6], full[200];
    mech_beam_params_default(&p);
    system_freq(&p, f60);
    p.n_elem = 120;
    system_freq(&p, f120);
    p.n_elem = 60;
    p.n_modes = 0;
    system_freq(&p, full);
    for (int i = 1; i <= 5; i++) {
        print_message("f%d: 60 el %.6f, 120 el %.6f, full FE (60 el) %.6f Hz\n", i, f60[i], f120[i], full[i]);
        assert_true(fabs(f60[i] - f120[i]) < 5e-4);
        assert_true(fabs(f60[i] - full[i]) < 1e-4);
    }
    assert_true(fabs(f60[1] - f120[1]) < 1e-6);
}

/* spec §9.2: projected open-hinge stiffness keeps f1 near 1.34 Hz with 5 modes; an attachment mode brings it to 0
 * (the mechanism mode of a free pin is Kbar^-1 times the unit moment pair), and leaves the closed frequencies */
static void attachment_modes(void **state)
{
    (void)state;
    mech_beam_params p;
    mech_beam_params_default(&p);
    mech_beam_model *m = build(&p);
    double fo[6], fc[6], fc2[6];
    assert_int_equal(mech_beam_freq_open(m, fo, NULL), HY_OK);
    assert_int_equal(mech_beam_freq_clamped(m, fc, NULL), HY_OK);
    print_message("open-hinge f1, 5 closed-hinge modes: %.4f Hz\n", fo[0]);
    assert_true(fo[0] > 1.3);   /* spec §9.2 [H]: 1.345 Hz; ours 1.3507 (docs/beam.md): far from the true 0 */
    mech_beam_model_free(m);
    p.attachment_modes = 1;
    m = build(&p);
    assert_int_equal(mech_beam_freq_open(m, fo, NULL), HY_OK);
    assert_int_equal(mech_beam_freq_clamped(m, fc2, NULL), HY_OK);
    print_message("open-hinge f1, 5 modes + 1 attachment mode: %.2e Hz\n", fo[0]);
    assert_true(fo[0] < 1e-3);
    for (int i = 0; i < 5; i++)
        assert_true(fabs(fc2[i] - fc[i]) < 1e-6);
    mech_beam_model_free(m);
}

/* the mesh has a node at every hinge and patch end; a patch across a hinge, positions off the beam, negative
 * clearance and near-coincident points are errors naming the key */
static void mesh_alignment_and_errors(void **state)
{
    (void)state;
    mech_beam_params p;
    mech_beam_params_default(&p);
    p.n_elem = 7;
    p.hinge[0].position = 1.234;
    p.mfc.enabled = 1;
    mech_beam_model *m = build(&p);
    mech_beam_info in;
    mech_beam_model_info(m, &in);
    int seen[3] = {0, 0, 0};
    for (size_t i = 0; i < in.n_node; i++) {
        seen[0] |= fabs(in.x_node[i] - 1.234) < 1e-12;
        seen[1] |= fabs(in.x_node[i] - 0.9) < 1e-12;
        seen[2] |= fabs(in.x_node[i] - 1.2) < 1e-12;
        if (i > 0)
            assert_true(in.x_node[i] - in.x_node[i - 1] <= 3.0 / 7 + 1e-12);
    }
    assert_true(seen[0] && seen[1] && seen[2]);
    assert_true(fabs(in.b_u[0]) > 0);
    mech_beam_model_free(m);

    hy_err err;
    mech_beam_params_default(&p);
    p.hinge[0].position = 3.2;
    assert_int_equal(mech_beam_model_new(&p, &m, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "hinges[0].position = 3.2: outside the beam"));
    mech_beam_params_default(&p);
    p.hinge[0].clearance = -0.001;
    assert_int_equal(mech_beam_model_new(&p, &m, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "hinges[0].clearance"));
    mech_beam_params_default(&p);
    p.mfc.enabled = 1;
    p.mfc.start = 1.4;
    assert_int_equal(mech_beam_model_new(&p, &m, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "spans hinges[0]"));
    mech_beam_params_default(&p);
    p.mfc.enabled = 1;
    p.hinge[0].position = 0.9 - 1e-7;
    assert_int_equal(mech_beam_model_new(&p, &m, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "hinges[0].position"));
    mech_beam_params_default(&p);
    p.hinge[0].law = MECH_BEAM_MODEL;
    assert_int_equal(mech_beam_model_new(&p, &m, &err), HY_EMODEL);
    assert_non_null(strstr(err.msg, "hinges[0].model"));
}

/* trends of Tables 2-5 (spec §11 T3): f1 falls with hinge mass, J1 and hinge count, rises with c */
static void trends(void **state)
{
    (void)state;
    mech_beam_params p;
    double f[6], prev = 1e9;
    for (int nj = 0; nj <= 4; nj++) {
        mech_beam_params_default(&p);
        mech_beam_params_equal_hinges(&p, nj);
        system_freq(&p, f);
        assert_true(f[1] < prev);
        prev = f[1];
    }
    prev = 0;
    for (double c = 0.1; c < 20; c *= 2) {
        mech_beam_params_default(&p);
        p.hinge[0].k = c * mech_beam_k_ref(&p);
        system_freq(&p, f);
        assert_true(f[1] > prev);
        prev = f[1];
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cantilever_closed_form),
        cmocka_unit_test(lowest_modes_match_all), cmocka_unit_test(model_b_and_a),
        cmocka_unit_test(regression_sweeps),      cmocka_unit_test(mesh_convergence),
        cmocka_unit_test(attachment_modes),       cmocka_unit_test(mesh_alignment_and_errors),
        cmocka_unit_test(trends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

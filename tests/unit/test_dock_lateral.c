/* Lateral damper of the docking mechanism (libmech/src/dock/dock_lateral.c, spec 001 §2.3, RP-1 §2.6,
 * docs/dock-lateral.md): loop closure against the chains' forward kinematics, eq. (2.3) against finite
 * differences of the closure, eq. (2.4) against a brute-force kinetic energy and the virtual-power identity, the
 * momentum and energy balances of the chains' bias with a turning base (trial_abs, docs §4a), the
 * RP-1 moment characteristic by quasi-static sweeps (in each chain's plane and at 45 deg, variants A and B), the
 * brakes' equivalent damping and stops, trial/commit/revert, no allocation in trial/commit, the workspace limit
 * and bad parameters. The spring law is the shipped fixture fixtures/mech/dock/models/lateral-spring.json. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>
#include "mech/dock.h"
#include "dock_test_laws.h"
#include "dock/dock_lateral_internal.h"
#include "../../bench/bench_alloc.h"

#define DEG (M_PI / 180.0)

static hy_model law;

static int setup(void **state)
{
    (void)state;
    if (dock_test_load_law("lateral-spring.json", &law) != HY_OK)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    hy_model_free(&law);
    return 0;
}

static mech_dock_lateral *make(int variant)
{
    mech_dock_lateral_params p;
    mech_dock_lateral_params_rp1(&p, variant);
    p.spring.model = &law;
    mech_dock_lateral *l = NULL;
    hy_err err;
    int rc = mech_dock_lateral_new(&p, &l, &err);
    if (rc)
        fail_msg("%s", err.msg);
    return l;
}

// (rotation vector th) => the active rotation matrix exp(th~) (Rodrigues)
static mech_mat3 rot_active(mech_vec3 th)
{
    double a = mech_vec3_norm(th);
    if (a == 0.0)
        return mech_mat3_identity();
    mech_vec3 e = mech_vec3_scale(th, 1.0 / a);
    mech_mat3 R = mech_mat3_scale(mech_mat3_identity(), cos(a));
    R = mech_mat3_add(R, mech_mat3_scale(mech_mat3_outer(e, e), 1.0 - cos(a)));
    return mech_mat3_add(R, mech_mat3_scale(mech_mat3_skew(e), sin(a)));
}

/* Housing attitude after turning by the rotation vector th (base frame) from the neutral position: the passive
 * matrix alpha_C = R^T (v^C = alpha_C v^0). */
static mech_mat3 swing(mech_vec3 th) { return mech_mat3_transpose(rot_active(th)); }

/* Attitude along a motion with body-frame omega(t) = w0 + wd t from alpha0: alpha' = -omega~ alpha, to O(t^3)
 * (Magnus: the commutator term is third order), enough for central differences of O(eps^2). */
static mech_mat3 advance(mech_mat3 alpha0, mech_vec3 w0, mech_vec3 wd, double t)
{
    mech_vec3 th = mech_vec3_add(mech_vec3_scale(w0, t), mech_vec3_scale(wd, 0.5 * t * t));
    return mech_mat3_mul(mech_mat3_transpose(rot_active(th)), alpha0);
}

static double urand(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return ((*s >> 8) & 0xffffff) / 16777216.0;
}
static mech_vec3 vrand(unsigned *s, double scale)
{
    double x = 2 * urand(s) - 1, y = 2 * urand(s) - 1, z = 2 * urand(s) - 1;   /* sequenced: an argument list is not */
    return mech_vec3_make(scale * x, scale * y, scale * z);
}
// a random housing attitude: swing up to max_deg about a random axis perpendicular to x0 (the UJ's 2 DOF)
static mech_mat3 random_swing(unsigned *s, double max_deg)
{
    double az = 2 * M_PI * urand(s), g = max_deg * DEG * urand(s);
    return swing(mech_vec3_make(0.0, g * cos(az), g * sin(az)));
}

/* ---- closure ------------------------------------------------------------------------------------------------ */

static void closure_residual_over_a_grid(void **state)
{
    (void)state;
    for (int var = 0; var < 2; var++) {
        mech_dock_lateral *l = make(var);
        double worst = 0.0;
        int n = 0;
        for (double q1 = -6.0; q1 <= 6.0; q1 += 0.5)
            for (double q2 = -6.0; q2 <= 6.0; q2 += 0.5) {
                /* universal joint: q1 about z0, then q2 about the turned y axis */
                mech_mat3 a = mech_mat3_mul(mech_mat3_alpha(1, q2 * DEG), mech_mat3_alpha(2, q1 * DEG));
                for (int k = 0; k < MECH_DOCK_NCHAIN; k++) {
                    mech_dock_lateral_kin kin;
                    hy_err err;
                    assert_int_equal(mech_dock_lateral_kin_eval(l, k, &a, mech_vec3_zero(), &kin, &err), HY_OK);
                    mech_vec3 f = mech_dock_lateral_kin_forward(l, k, kin.p);
                    double r = mech_vec3_norm(mech_vec3_sub(f, kin.s));
                    if (r > worst)
                        worst = r;
                    n++;
                }
            }
        printf("variant %c: closure residual max %.2e m over %d chain configurations\n", "AB"[var], worst, n);
        assert_true(worst < 1e-14);
        /* neutral: every chain coordinate from neutral is 0 */
        mech_mat3 id = mech_mat3_identity();
        mech_dock_lateral_out o;
        hy_err err;
        assert_int_equal(mech_dock_lateral_trial(l, &id, mech_vec3_zero(), &o, &err), HY_OK);
        for (int k = 0; k < MECH_DOCK_NCHAIN; k++)
            assert_true(fabs(o.stroke[k]) < 1e-15);
        assert_true(mech_vec3_norm(o.moment) == 0.0);
        mech_dock_lateral_free(l);
    }
}

/* ---- eq. (2.3) against finite differences ------------------------------------------------------------------ */

static void rates_and_accelerations_against_finite_differences(void **state)
{
    (void)state;
    unsigned seed = 7;
    for (int var = 0; var < 2; var++) {
        mech_dock_lateral *l = make(var);
        double worst_H = 0.0, worst_h = 0.0;
        for (int trial = 0; trial < 200; trial++) {
            mech_mat3 a0 = random_swing(&seed, 6.0);
            mech_vec3 w0 = vrand(&seed, 0.8), wd = vrand(&seed, 5.0);
            for (int k = 0; k < MECH_DOCK_NCHAIN; k++) {
                mech_dock_lateral_kin kin, kp, km;
                hy_err err;
                assert_int_equal(mech_dock_lateral_kin_eval(l, k, &a0, w0, &kin, &err), HY_OK);
                /* rates: central differences of the closure along the motion */
                double eps = 1e-6;
                mech_mat3 ap = advance(a0, w0, mech_vec3_zero(), eps), am = advance(a0, w0, mech_vec3_zero(), -eps);
                assert_int_equal(mech_dock_lateral_kin_eval(l, k, &ap, w0, &kp, &err), HY_OK);
                assert_int_equal(mech_dock_lateral_kin_eval(l, k, &am, w0, &km, &err), HY_OK);
                double scale = 1e-3;
                for (int i = 0; i < 3; i++)
                    scale = fmax(scale, fabs(kin.pd[i]));
                for (int i = 0; i < 3; i++) {
                    double Hw = kin.H[i][0] * w0.x + kin.H[i][1] * w0.y + kin.H[i][2] * w0.z;
                    double fd = (kp.p[i] - km.p[i]) / (2 * eps);
                    assert_true(fabs(Hw - kin.pd[i]) <= 1e-14 * scale);
                    worst_H = fmax(worst_H, fabs(fd - Hw) / scale);
                }
                /* accelerations: central differences of the rates along omega(t) = w0 + wd t */
                eps = 1e-5;
                ap = advance(a0, w0, wd, eps);
                am = advance(a0, w0, wd, -eps);
                assert_int_equal(mech_dock_lateral_kin_eval(l, k, &ap, mech_vec3_axpy(w0, eps, wd), &kp, &err), HY_OK);
                assert_int_equal(mech_dock_lateral_kin_eval(l, k, &am, mech_vec3_axpy(w0, -eps, wd), &km, &err), HY_OK);
                double pdd[3], ascale = 1e-3;
                for (int i = 0; i < 3; i++) {
                    pdd[i] = kin.H[i][0] * wd.x + kin.H[i][1] * wd.y + kin.H[i][2] * wd.z + kin.h[i];
                    ascale = fmax(ascale, fabs(pdd[i]));
                }
                for (int i = 0; i < 3; i++)
                    worst_h = fmax(worst_h, fabs((kp.pd[i] - km.pd[i]) / (2 * eps) - pdd[i]) / ascale);
            }
        }
        printf("variant %c: H_k vs central differences: max rel. error %.2e; H_k dw + h_k: %.2e\n", "AB"[var],
               worst_H, worst_h);
        assert_true(worst_H < 1e-7);
        assert_true(worst_h < 1e-7);
        mech_dock_lateral_free(l);
    }
}

/* ---- eq. (2.4): inertia and power ---------------------------------------------------------------------------- */

/* Brute-force kinetic energy of the chain bodies at (alpha, omega): the spring rods as slender bars from the U
 * joint to the S joint (velocity of each point by central differences of its position, 2-point Gauss over the
 * length, exact for the quadratic integrand), the cranks + rotors from central differences of the crank angle
 * the closure gives. */
static double kinetic_brute(mech_dock_lateral *l, const mech_dock_lateral_params *p, mech_mat3 alpha, mech_vec3 w)
{
    double eps = 1e-6, T = 0.0;
    mech_mat3 ap = advance(alpha, w, mech_vec3_zero(), eps), am = advance(alpha, w, mech_vec3_zero(), -eps);
    const double gs[2] = {0.5 - 0.5 / sqrt(3.0), 0.5 + 0.5 / sqrt(3.0)};
    for (int i = 0; i < 2; i++) {
        mech_vec3 U = p->spring_base[i];
        mech_vec3 Sp = mech_mat3_tapply(ap, p->spring_housing[i]), Sm = mech_mat3_tapply(am, p->spring_housing[i]);
        for (int g = 0; g < 2; g++) {
            mech_vec3 xp = mech_vec3_axpy(U, gs[g], mech_vec3_sub(Sp, U));
            mech_vec3 xm = mech_vec3_axpy(U, gs[g], mech_vec3_sub(Sm, U));
            mech_vec3 v = mech_vec3_scale(mech_vec3_sub(xp, xm), 1.0 / (2 * eps));
            T += 0.5 * 0.5 * p->spring_rod_mass[i] * mech_vec3_dot(v, v);
        }
    }
    for (int i = 0; i < 2; i++) {
        mech_dock_lateral_kin kp, km;
        hy_err err;
        assert_int_equal(mech_dock_lateral_kin_eval(l, 2 + i, &ap, w, &kp, &err), HY_OK);
        assert_int_equal(mech_dock_lateral_kin_eval(l, 2 + i, &am, w, &km, &err), HY_OK);
        double rate = (kp.p[0] - km.p[0]) / (2 * eps);
        T += 0.5 * p->brake_crank_inertia[i] * rate * rate;
    }
    return T;
}

static void inertia_against_brute_force_kinetic_energy(void **state)
{
    (void)state;
    unsigned seed = 11;
    for (int var = 0; var < 2; var++) {
        mech_dock_lateral_params p;
        mech_dock_lateral_params_rp1(&p, var);
        mech_dock_lateral *l = make(var);
        double worst = 0.0, worst_sym = 0.0, min_eig = 1e300, worst_power = 0.0;
        for (int t = 0; t < 50; t++) {
            mech_mat3 a = random_swing(&seed, 6.0);
            mech_dock_lateral_out o;
            hy_err err;
            assert_int_equal(mech_dock_lateral_trial(l, &a, mech_vec3_zero(), &o, &err), HY_OK);
            double nI = 0.0;
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) {
                    nI = fmax(nI, fabs(o.dI.m[i][j]));
                    worst_sym = fmax(worst_sym, fabs(o.dI.m[i][j] - o.dI.m[j][i]));
                }
            double A[9];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    A[3 * i + j] = 0.5 * (o.dI.m[i][j] + o.dI.m[j][i]);
            double ev[3];
            assert_int_equal(LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', 3, A, 3, ev), 0);
            min_eig = fmin(min_eig, ev[0] / nI);
            /* dI_ij by polarisation of T(omega) = omega^T dI omega / 2 */
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) {
                    mech_vec3 ei = mech_vec3_unit(i), ej = mech_vec3_unit(j);
                    double Tp = kinetic_brute(l, &p, a, mech_vec3_add(ei, ej));
                    double Tm = kinetic_brute(l, &p, a, mech_vec3_sub(ei, ej));
                    worst = fmax(worst, fabs(0.5 * (Tp - Tm) - o.dI.m[i][j]) / nI);
                }
            /* the bias: with no active forces, the chains' inertial power is dT/dt, i.e.
               d/dt (omega^T dI omega / 2) = omega^T (dI omegad - dm_bias) along omega(t) = w0 + wd t */
            mech_vec3 w0 = vrand(&seed, 1.0), wd = vrand(&seed, 3.0);
            double eps = 1e-5, Tt[2];
            for (int s = 0; s < 2; s++) {
                double tt = s ? eps : -eps;
                mech_mat3 at = advance(a, w0, wd, tt);
                mech_vec3 wt = mech_vec3_axpy(w0, tt, wd);
                mech_dock_lateral_out ot;
                assert_int_equal(mech_dock_lateral_trial(l, &at, wt, &ot, &err), HY_OK);
                Tt[s] = 0.5 * mech_vec3_dot(wt, mech_mat3_apply(ot.dI, wt));
            }
            assert_int_equal(mech_dock_lateral_trial(l, &a, w0, &o, &err), HY_OK);
            double P = mech_vec3_dot(w0, mech_vec3_sub(mech_mat3_apply(o.dI, wd), o.dm_bias));
            double dT = (Tt[1] - Tt[0]) / (2 * eps);
            worst_power = fmax(worst_power, fabs(dT - P) / (nI * (mech_vec3_dot(w0, w0) + mech_vec3_norm(w0) *
                                                                   mech_vec3_norm(wd))));
        }
        printf("variant %c: dI vs brute-force kinetic-energy Hessian: max rel. error %.2e; asymmetry %.1e; "
               "smallest eigenvalue / |dI| %.2e; bias power identity %.2e\n", "AB"[var], worst, worst_sym,
               min_eig, worst_power);
        assert_true(worst < 1e-6);
        assert_true(worst_sym == 0.0 || worst_sym < 1e-15);
        assert_true(min_eig > -1e-12);
        assert_true(worst_power < 1e-7);
        mech_dock_lateral_free(l);
    }
}

/* Virtual power: the moment on the housing does the work of the chains' active forces, moment . omega =
 * sum Q_k pd_k = -F_1 s_1' - F_2 s_2' + M_3 phi_3' + M_4 phi_4' - d(e_stops)/dt (the stops' forces are
 * conservative: their power is minus the rate of their energy, by central differences along the motion). */
static void virtual_power_of_the_active_forces(void **state)
{
    (void)state;
    unsigned seed = 3;
    for (int var = 0; var < 2; var++) {
        mech_dock_lateral *l = make(var);
        double worst = 0.0, worst_free = 0.0;
        int n_stop = 0;
        for (int t = 0; t < 400; t++) {
            /* up to 7.5 deg: the hard stops and the input-link stops act too */
            mech_mat3 a = random_swing(&seed, 7.5);
            mech_vec3 w = vrand(&seed, 0.5);
            mech_dock_lateral_out o, op, om;
            hy_err err;
            double eps = 1e-6;
            mech_mat3 ap = advance(a, w, mech_vec3_zero(), eps), am = advance(a, w, mech_vec3_zero(), -eps);
            assert_int_equal(mech_dock_lateral_trial(l, &ap, w, &op, &err), HY_OK);
            assert_int_equal(mech_dock_lateral_trial(l, &am, w, &om, &err), HY_OK);
            assert_int_equal(mech_dock_lateral_trial(l, &a, w, &o, &err), HY_OK);
            double de = (op.e_stops - om.e_stops) / (2 * eps);
            double sum = -de, scale = fabs(de), diss = 0.0;
            for (int k = 0; k < MECH_DOCK_NCHAIN; k++) {
                double Qp = (k < 2 ? -o.force[k] : o.force[k]) * o.rate[k]; /* generalised force x rate */
                sum += Qp;
                scale += fabs(Qp);
                if (k >= 2)
                    diss += -Qp;
            }
            assert_true(fabs(diss - o.p_magnetic) <= 1e-12 * (scale + 1.0));
            assert_true(o.p_magnetic >= 0.0);
            double r = scale > 0.0 ? fabs(mech_vec3_dot(o.moment, w) - sum) / scale : 0.0;
            if (o.e_stops > 0.0) {
                n_stop++;
                worst = fmax(worst, r);
            } else {
                worst_free = fmax(worst_free, r);
            }
            mech_dock_lateral_commit(l);
        }
        printf("variant %c: moment . omega = sum Q_k pd_k - d(e_stops)/dt: %.2e relative without stops, %.2e with "
               "stops acting (%d of 400)\n", "AB"[var], worst_free, worst, n_stop);
        assert_true(n_stop > 20);
        assert_true(worst_free < 1e-12);
        assert_true(worst < 1e-7);
        mech_dock_lateral_free(l);
    }
}

/* The trial's closed forms (spring rod = m/3 at its S joint, brake through its crank-angle row alone) against
 * eq. (2.4) summed in full from the chain coordinates' H_k, h_k, A_k, vp_k and the generalised forces. */
static void trial_equals_the_full_reduction(void **state)
{
    (void)state;
    unsigned seed = 17;
    for (int var = 0; var < 2; var++) {
        mech_dock_lateral *l = make(var);
        double worst = 0.0;
        for (int t = 0; t < 200; t++) {
            mech_mat3 a = random_swing(&seed, 4.5); /* inside the stops: Q from the outputs */
            mech_vec3 w = vrand(&seed, 1.0);
            mech_dock_lateral_out o;
            hy_err err;
            assert_int_equal(mech_dock_lateral_trial(l, &a, w, &o, &err), HY_OK);
            assert_true(o.e_stops == 0.0);
            double dI[3][3] = {{0}}, bias[3] = {0}, mom[3] = {0};
            for (int k = 0; k < MECH_DOCK_NCHAIN; k++) {
                mech_dock_lateral_kin kin;
                assert_int_equal(mech_dock_lateral_kin_eval(l, k, &a, w, &kin, &err), HY_OK);
                double Q[3] = {0, 0, 0};
                if (k < 2)
                    Q[2] = -o.force[k];
                else
                    Q[0] = o.force[k];
                assert_true(fabs(kin.pd[k < 2 ? 2 : 0] - o.rate[k]) <= 1e-12 * (fabs(o.rate[k]) + 1e-3));
                for (int i = 0; i < 3; i++) {
                    double Ah = kin.vp[i];
                    for (int j = 0; j < 3; j++)
                        Ah += kin.A[i][j] * kin.h[j];
                    for (int j = 0; j < 3; j++) {
                        mom[j] += kin.H[i][j] * Q[i];
                        bias[j] -= kin.H[i][j] * Ah;
                        for (int m = 0; m < 3; m++)
                            for (int n = 0; n < 3; n++)
                                dI[j][m] += kin.H[i][j] * kin.A[i][n] * kin.H[n][m];
                    }
                }
            }
            double sI = 0, sb = 1e-9, sm = 1e-9;
            for (int i = 0; i < 3; i++) {
                sb = fmax(sb, fabs(bias[i]));
                sm = fmax(sm, fabs(mom[i]));
                for (int j = 0; j < 3; j++)
                    sI = fmax(sI, fabs(dI[i][j]));
            }
            for (int i = 0; i < 3; i++) {
                worst = fmax(worst, fabs(mech_vec3_get(o.dm_bias, i) - bias[i]) / sb);
                worst = fmax(worst, fabs(mech_vec3_get(o.moment, i) - mom[i]) / sm);
                for (int j = 0; j < 3; j++)
                    worst = fmax(worst, fabs(o.dI.m[i][j] - dI[i][j]) / sI);
            }
            mech_dock_lateral_commit(l);
        }
        printf("variant %c: trial's closed forms vs the full eq. (2.4) sum: max rel. difference %.2e\n", "AB"[var],
               worst);
        assert_true(worst < 1e-12);
        mech_dock_lateral_free(l);
    }
}

/* With a turning base (docs/dock-lateral.md §4a): the chains' inertia rides on the housing, T_c = ½ ω_Hᵀ ΔI ω_H,
 * and trial_abs's bias must be that T_c's. Checked by central differences along a motion where the relative
 * attitude follows ω_C(t) and the housing's absolute rate ω_H(t) independently (the base's rate is the
 * difference): (a) momentum, d/dt (ΔI ω_H) + ω_H × ΔI ω_H = ΔI ω̇_H - dm_bias + dm_couple (what keeps
 * Σ bodies + R_H ΔI ω_H constant under internal forces); (b) energy, d/dt T_c = ω_H·(ΔI ω̇_H - dm_bias) +
 * dm_couple·(ω_H - ω_C) (this one checks dm_couple: it cancels from (a)). (a) fails by 1e-2 or more with the
 * relative bias (dm_bias of trial() at ω_C) when the base turns. With the base at rest trial_abs is trial()
 * (ω_H = ω_C), which trial_equals_the_full_reduction checks against eq. (2.4) summed in full. */
static void turning_base_momentum_and_energy(void **state)
{
    (void)state;
    unsigned seed = 29;
    for (int var = 0; var < 2; var++) {
        mech_dock_lateral *l = make(var);
        double worst_L = 0.0, worst_E = 0.0, worst_rel = 0.0;
        for (int t = 0; t < 200; t++) {
            mech_mat3 a = random_swing(&seed, 4.5);
            mech_vec3 w0 = vrand(&seed, 1.0), wd = vrand(&seed, 3.0);   /* relative rate and its derivative */
            mech_vec3 h0 = vrand(&seed, 1.0), hd = vrand(&seed, 3.0);   /* housing's absolute rate */
            mech_dock_lateral_out o, or_, ot[2];
            hy_err err;
            double eps = 1e-5;
            for (int s = 0; s < 2; s++) {
                double tt = s ? eps : -eps;
                mech_mat3 at = advance(a, w0, wd, tt);
                assert_int_equal(mech_dock_lateral_trial_abs(l, &at, mech_vec3_axpy(w0, tt, wd),
                                                             mech_vec3_axpy(h0, tt, hd), &ot[s], &err), HY_OK);
            }
            assert_int_equal(mech_dock_lateral_trial_abs(l, &a, w0, h0, &o, &err), HY_OK);
            mech_vec3 hp = mech_mat3_apply(ot[1].dI, mech_vec3_axpy(h0, eps, hd));
            mech_vec3 hm = mech_mat3_apply(ot[0].dI, mech_vec3_axpy(h0, -eps, hd));
            mech_vec3 dh = mech_vec3_scale(mech_vec3_sub(hp, hm), 1.0 / (2 * eps));
            mech_vec3 Ih = mech_mat3_apply(o.dI, h0), Ihd = mech_mat3_apply(o.dI, hd);
            double nI = 0.0;
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    nI = fmax(nI, fabs(o.dI.m[i][j]));
            double scale = nI * (mech_vec3_dot(h0, h0) + mech_vec3_dot(w0, w0) + mech_vec3_norm(hd));
            /* (a) the hook's angular momentum balance */
            mech_vec3 lhs = mech_vec3_add(dh, mech_vec3_cross(h0, Ih));
            mech_vec3 rhs = mech_vec3_add(mech_vec3_sub(Ihd, o.dm_bias), o.dm_couple);
            worst_L = fmax(worst_L, mech_vec3_norm(mech_vec3_sub(lhs, rhs)) / scale);
            /* the relative bias in its place misses it */
            assert_int_equal(mech_dock_lateral_trial(l, &a, w0, &or_, &err), HY_OK);
            mech_vec3 rhs_rel = mech_vec3_sub(Ihd, or_.dm_bias);
            worst_rel = fmax(worst_rel, mech_vec3_norm(mech_vec3_sub(lhs, rhs_rel)) / scale);
            /* (b) energy */
            double Tp = 0.5 * mech_vec3_dot(mech_vec3_axpy(h0, eps, hd), hp);
            double Tm = 0.5 * mech_vec3_dot(mech_vec3_axpy(h0, -eps, hd), hm);
            double P = mech_vec3_dot(h0, mech_vec3_sub(Ihd, o.dm_bias)) +
                       mech_vec3_dot(o.dm_couple, mech_vec3_sub(h0, w0));
            worst_E = fmax(worst_E, fabs((Tp - Tm) / (2 * eps) - P) / (scale * (mech_vec3_norm(h0) + 1.0)));
        }
        printf("variant %c, turning base: hook momentum balance %.2e, energy balance %.2e (with the relative bias: "
               "%.2e)\n", "AB"[var], worst_L, worst_E, worst_rel);
        assert_true(worst_L < 1e-8);
        assert_true(worst_E < 1e-8);
        assert_true(worst_rel > 1e-2);
        mech_dock_lateral_free(l);
    }
}

/* ---- RP-1 characteristic ------------------------------------------------------------------------------------ */

// RP-1 §2.6 on first loading (forward branch), swing g >= 0 rad: N m
static double rp1_moment(double g)
{
    if (g <= 3 * DEG)
        return 100.0 + 1.5e4 * g;
    if (g <= 5 * DEG)
        return 1000.0 + 1.5e5 * (g - 3 * DEG);
    return 1000.0 + 1.5e5 * 2 * DEG + 5e6 * (g - 5 * DEG);
}

/* Quasi-static first loading about the unit axis (perpendicular to x0) from 0 in 0.01 deg steps (n points), no
 * rate (no brake moment): the restoring moment along the axis at each step. */
#define NSWEEP 561
#define NSWEEP45 801
static void sweep(int var, mech_vec3 axis, double *M, int n)
{
    mech_dock_lateral *l = make(var);
    for (int i = 0; i < n; i++) {
        mech_mat3 a = swing(mech_vec3_scale(axis, i * 0.01 * DEG));
        mech_dock_lateral_out o;
        hy_err err;
        assert_int_equal(mech_dock_lateral_trial(l, &a, mech_vec3_zero(), &o, &err), HY_OK);
        mech_dock_lateral_commit(l);
        /* the moment is in the housing frame; the swing axis is the same in both frames */
        M[i] = -mech_vec3_dot(o.moment, axis);
    }
    mech_dock_lateral_free(l);
}
static double at(const double *M, double deg) { return M[(int)lround(deg / 0.01)]; }

static void moment_characteristic_in_the_chain_planes(void **state)
{
    (void)state;
    static double M[NSWEEP];
    for (int var = 0; var < 2; var++)
        for (int ax = 1; ax <= 2; ax++) {
            mech_vec3 axis = mech_vec3_unit(ax);
            sweep(var, axis, M, NSWEEP);
            double coil = (at(M, 2.5) - at(M, 0.5)) / (2.0 * DEG);
            double preload = at(M, 0.5) - coil * 0.5 * DEG;
            double bell = (at(M, 4.5) - at(M, 3.5)) / (1.0 * DEG);
            double step = at(M, 3.5) - bell * 0.5 * DEG;
            double stop = (at(M, 5.5) - at(M, 5.2)) / (0.3 * DEG);
            double m5 = at(M, 4.99);
            printf("variant %c, swing about %c: preload %.2f N m, coil %.1f N m/rad, Belleville preload %.1f N m, "
                   "%.0f N m/rad, at 4.99 deg %.1f N m (RP-1 %.1f), stop %.4g N m/rad\n", "AB"[var], "xyz"[ax],
                   preload, coil, step, bell, m5, rp1_moment(4.99 * DEG), stop);
            assert_true(fabs(preload - 100.0) < 1.5);
            assert_true(fabs(coil / 1.5e4 - 1.0) < 0.02);
            assert_true(fabs(step / 1000.0 - 1.0) < 0.01);
            assert_true(fabs(bell / 1.5e5 - 1.0) < 0.01);
            assert_true(fabs(m5 / rp1_moment(4.99 * DEG) - 1.0) < 0.015);
            assert_true(fabs(stop / 5e6 - 1.0) < 0.02);
            /* monotone loading, restoring sign */
            for (int i = 1; i < NSWEEP; i++)
                assert_true(M[i] >= M[i - 1] - 1e-9 * fabs(M[i]));
            /* the same characteristic for a swing the other way (B: the rod length sin(beta) |l| cancels the
               quadratic stroke term that the turned rods would otherwise add) */
            static double Mn[NSWEEP];
            sweep(var, mech_vec3_neg(axis), Mn, NSWEEP);
            double asym = 0.0;
            for (int i = 50; i <= 495; i += 5) /* up to the stop, whose 5e6 N m/rad magnifies 1e-5 rad */
                if (fabs(i * 0.01 - 3.0) > 0.02)
                    asym = fmax(asym, fabs(Mn[i] / M[i] - 1.0));
            printf("  the other way: max rel. difference %.2e (0.5 .. 4.95 deg)\n", asym);
            assert_true(asym < 0.002);
        }
}

/* Swing at 45 deg between the two chain planes: each chain sees the component g / sqrt(2) of the swing and adds
 * its moment about its own axis, so along the swing axis M45(g) = sqrt(2) M(g / sqrt(2)): preload 141 N m, the
 * same slopes, the coil stage up to 4.24 deg, the Belleville step at 1414 N m, the stop at 7.07 deg. The rods'
 * second-order stroke (a displacement across a rod lengthens it) shortens one chain's stroke and lengthens the
 * other's by g^2 x^2 / (4 L0), which splits the two chains' steps around 4.24 deg and 7.07 deg: the comparison is
 * made where both chains are on the same stage, away from the steps. */
static void moment_characteristic_at_45_degrees(void **state)
{
    (void)state;
    static double M[NSWEEP45];
    const double pts[] = {0.5, 1.0, 2.0, 3.0, 3.8, 4.8, 5.5, 6.0, 6.5};
    mech_vec3 axis = mech_vec3_make(0.0, M_SQRT1_2, M_SQRT1_2);
    for (int var = 0; var < 2; var++) {
        sweep(var, axis, M, NSWEEP45);
        double worst = 0.0;
        printf("variant %c, swing at 45 deg (deg: N m, sqrt(2) M_RP1(g / sqrt(2))):", "AB"[var]);
        for (size_t i = 0; i < sizeof pts / sizeof *pts; i++) {
            double ref = M_SQRT2 * rp1_moment(pts[i] * DEG / M_SQRT2);
            worst = fmax(worst, fabs(at(M, pts[i]) / ref - 1.0));
            printf(" %.1f: %.0f (%.0f)", pts[i], at(M, pts[i]), ref);
        }
        double stop = (at(M, 7.7) - at(M, 7.5)) / (0.2 * DEG);
        printf("; max rel. deviation %.3f; slope at 7.5-7.7 deg %.3g N m/rad\n", worst, stop);
        assert_true(worst < 0.04);
        assert_true(stop > 0.6 * 5e6 && stop < 2.0 * 5e6); /* the stops engage one after the other */
    }
}

static void brake_damping_and_input_link_stops(void **state)
{
    (void)state;
    for (int var = 0; var < 2; var++) {
        mech_dock_lateral *l = make(var);
        const double dirs[3][3] = {{0, 1, 0}, {0, 0, 1}, {0, M_SQRT1_2, M_SQRT1_2}};
        for (int d = 0; d < 3; d++) {
            mech_vec3 w = mech_vec3_scale(mech_vec3_make(dirs[d][0], dirs[d][1], dirs[d][2]), 0.05);
            mech_mat3 id = mech_mat3_identity();
            mech_dock_lateral_out o;
            hy_err err;
            assert_int_equal(mech_dock_lateral_trial(l, &id, w, &o, &err), HY_OK);
            /* the springs sit at stroke 0 (rate along their rods gives no force yet at q = 0 exactly) */
            double c = -mech_vec3_dot(o.moment, w) / mech_vec3_dot(w, w);
            printf("variant %c: equivalent damping along (%.2f, %.2f, %.2f): %.1f N m s/rad; power %.4f W\n",
                   "AB"[var], dirs[d][0], dirs[d][1], dirs[d][2], c, o.p_magnetic);
            assert_true(fabs(c / 1500.0 - 1.0) < 0.005);
            assert_true(fabs(o.p_magnetic - c * mech_vec3_dot(w, w)) < 1e-9);
        }
        /* the input-link stops at 6 deg: a swing to 6.5 deg about y brings chain 4's crank past its stop; the
           spring stop acts from 5 deg, the brake stop adds its own stiffness */
        mech_mat3 a = swing(mech_vec3_make(0, 6.5 * DEG, 0));
        mech_dock_lateral_out o;
        hy_err err;
        assert_int_equal(mech_dock_lateral_trial(l, &a, mech_vec3_zero(), &o, &err), HY_OK);
        assert_true(fabs(o.stroke[3]) > 6.0 * DEG);
        double over = fabs(o.stroke[3]) - 6.0 * DEG, ss = 0.0;
        for (int k = 0; k < 2; k++) {
            double os = fabs(o.stroke[k]) - 0.021789;
            ss += os > 0.0 ? 0.5 * 5.6e7 * os * os : 0.0;
        }
        assert_true(ss > 0.0);
        assert_true(fabs(o.e_stops - 0.5 * 5e6 * over * over - ss) <= 1e-12 * o.e_stops);
        mech_dock_lateral_free(l);
    }
}

/* A dynamic run (the housing + probe, 10 kg m^2, swinging about a fixed axis under a moment M(t) = 4000 sin(pi t)
 * N m into the Belleville stage and back, RK4 h = 1e-4 s, the simulator's stage trial / revert / commit pattern):
 * the work of M(t) equals the kinetic energy (housing + 1/2 omega^T dI omega) + the springs' element work (the
 * trapezoid sum of force x stroke over accepted steps, as `hyst loops` would book it) + e_stops + the brakes'
 * dissipation (p_magnetic integrated with the RK4 weights). This ties dI, dm_bias, moment, force and the energy
 * outputs together the way the simulator's energy budget uses them. */
static int swing_rhs(mech_dock_lateral *l, mech_vec3 axis, double t, const double *y, double *dy,
                     mech_dock_lateral_out *o)
{
    mech_mat3 a = swing(mech_vec3_scale(axis, y[0]));
    hy_err err;
    if (mech_dock_lateral_trial(l, &a, mech_vec3_scale(axis, y[1]), o, &err))
        return 1;
    double J = 10.0 + mech_vec3_dot(axis, mech_mat3_apply(o->dI, axis)), M = 4000.0 * sin(M_PI * t);
    dy[0] = y[1];
    dy[1] = (M + mech_vec3_dot(axis, mech_vec3_add(o->moment, o->dm_bias))) / J;
    dy[2] = M * y[1];      /* external work */
    dy[3] = o->p_magnetic; /* brake dissipation */
    return 0;
}

static void energy_budget_of_a_dynamic_swing(void **state)
{
    (void)state;
    mech_vec3 axis = mech_vec3_normalize(mech_vec3_make(0.0, 0.8, 0.6));
    for (int var = 0; var < 2; var++) {
        mech_dock_lateral *l = make(var);
        double y[4] = {0, 0, 0, 0}, k[4][4], yt[4], h = 1e-4, work_el = 0.0, worst = 0.0, e_in = 0.0, g_max = 0.0;
        double s_old[2] = {0, 0}, f_old[2] = {0, 0};
        mech_dock_lateral_out o;
        for (long j = 0; j < 20000; j++) {
            double t = j * h;
            assert_int_equal(swing_rhs(l, axis, t, y, k[0], &o), 0);
            for (int c = 0; c < 4; c++) yt[c] = y[c] + 0.5 * h * k[0][c];
            assert_int_equal(swing_rhs(l, axis, t + 0.5 * h, yt, k[1], &o), 0);
            for (int c = 0; c < 4; c++) yt[c] = y[c] + 0.5 * h * k[1][c];
            assert_int_equal(swing_rhs(l, axis, t + 0.5 * h, yt, k[2], &o), 0);
            for (int c = 0; c < 4; c++) yt[c] = y[c] + h * k[2][c];
            assert_int_equal(swing_rhs(l, axis, t + h, yt, k[3], &o), 0);
            mech_dock_lateral_revert(l);
            for (int c = 0; c < 4; c++) y[c] += h / 6 * (k[0][c] + 2 * k[1][c] + 2 * k[2][c] + k[3][c]);
            assert_int_equal(swing_rhs(l, axis, t + h, y, k[0], &o), 0);
            mech_dock_lateral_commit(l);
            for (int i = 0; i < 2; i++) {
                work_el += 0.5 * (o.force[i] + f_old[i]) * (o.stroke[i] - s_old[i]);
                s_old[i] = o.stroke[i];
                f_old[i] = o.force[i];
            }
            double ke = 0.5 * 10.0 * y[1] * y[1] + 0.5 * y[1] * y[1] * mech_vec3_dot(axis, mech_mat3_apply(o.dI, axis));
            double res = y[2] - (ke + work_el + o.e_stops + y[3]);
            worst = fmax(worst, fabs(res));
            e_in = fmax(e_in, fabs(y[2]));
            g_max = fmax(g_max, fabs(y[0]));
        }
        printf("variant %c: dynamic swing to %.2f deg: external work up to %.1f J, springs' work %.2f J, brakes %.2f J; "
               "energy residual max %.2e J (%.1e relative)\n", "AB"[var], g_max / DEG, e_in, work_el, y[3], worst,
               worst / e_in);
        assert_true(g_max > 4.0 * DEG); /* into the Belleville stage */
        assert_true(worst < 1e-4 * e_in);
        mech_dock_lateral_free(l);
    }
}

/* ---- element discipline ------------------------------------------------------------------------------------- */

static void trial_commit_revert(void **state)
{
    (void)state;
    mech_dock_lateral *l = make(MECH_DOCK_A);
    mech_mat3 a2 = swing(mech_vec3_make(0, 0, 2 * DEG)), a4 = swing(mech_vec3_make(0, 0, 4 * DEG));
    mech_dock_lateral_out o1, o2, o3;
    hy_err err;
    /* a trial never changes the committed state: the same trial twice, and after a reverted excursion */
    assert_int_equal(mech_dock_lateral_trial(l, &a2, mech_vec3_zero(), &o1, &err), HY_OK);
    assert_int_equal(mech_dock_lateral_trial(l, &a4, mech_vec3_zero(), &o2, &err), HY_OK);
    mech_dock_lateral_revert(l);
    assert_int_equal(mech_dock_lateral_trial(l, &a2, mech_vec3_zero(), &o3, &err), HY_OK);
    assert_memory_equal(&o1, &o3, sizeof o1);
    /* commit an excursion to 4 deg and come back to 2 deg: unloading follows the backward branch, 0.83 x forward
       on the coil stage (the law file), so the moment is lower than on first loading */
    for (int i = 1; i <= 40; i++) {
        mech_mat3 a = swing(mech_vec3_make(0, 0, i * 0.1 * DEG));
        assert_int_equal(mech_dock_lateral_trial(l, &a, mech_vec3_zero(), &o2, &err), HY_OK);
        mech_dock_lateral_commit(l);
    }
    for (int i = 39; i >= 20; i--) {
        mech_mat3 a = swing(mech_vec3_make(0, 0, i * 0.1 * DEG));
        assert_int_equal(mech_dock_lateral_trial(l, &a, mech_vec3_zero(), &o3, &err), HY_OK);
        mech_dock_lateral_commit(l);
    }
    printf("at 2 deg: first loading %.1f N m, after 4 deg %.1f N m\n", -o1.moment.z, -o3.moment.z);
    assert_true(-o3.moment.z < 0.9 * -o1.moment.z);
    assert_true(-o3.moment.z > 0.5 * -o1.moment.z);
    /* reverting after a committed step keeps that step */
    assert_int_equal(mech_dock_lateral_trial(l, &a4, mech_vec3_zero(), &o2, &err), HY_OK);
    mech_dock_lateral_revert(l);
    assert_int_equal(mech_dock_lateral_trial(l, &a2, mech_vec3_zero(), &o2, &err), HY_OK);
    assert_memory_equal(&o2, &o3, sizeof o2);
    mech_dock_lateral_free(l);
}

static void no_allocation_in_trial_and_commit(void **state)
{
    (void)state;
    mech_dock_lateral *l = make(MECH_DOCK_B);
    unsigned seed = 5;
    mech_mat3 as[64];
    for (int i = 0; i < 64; i++)
        as[i] = random_swing(&seed, 6.5);
    long before = n_alloc;
    hy_err err;
    for (int s = 0; s < 4000; s++) {
        mech_dock_lateral_out o;
        if (mech_dock_lateral_trial(l, &as[s % 64], mech_vec3_make(0, 0.1, -0.2), &o, &err))
            fail_msg("%s", err.msg);
        if (s % 5 == 4)
            mech_dock_lateral_revert(l);
        else
            mech_dock_lateral_commit(l);
    }
    long n = n_alloc - before;
    printf("allocations in 4000 trial + commit/revert: %ld%s\n", n, COUNT_ALLOC ? "" : " (not counted under ASan)");
    assert_int_equal(n, 0);
    mech_dock_lateral_free(l);
}

/* ---- errors ---------------------------------------------------------------------------------------------------- */

static void outside_the_workspace(void **state)
{
    (void)state;
    mech_dock_lateral *l = make(MECH_DOCK_A);
    /* RP-1 A: brake chain 3's coupler (0.15 m) and crank (0.12 m) reach 0.27 m from the pivot: a 45 deg swing
       about -y pulls the S joint farther */
    mech_mat3 a = swing(mech_vec3_make(0, -45 * DEG, 0));
    mech_dock_lateral_out o;
    hy_err err;
    assert_int_equal(mech_dock_lateral_trial(l, &a, mech_vec3_zero(), &o, &err), HY_ESTATE);
    printf("%s\n", err.msg);
    assert_non_null(strstr(err.msg, "lateral brake chain 3: "));
    assert_non_null(strstr(err.msg, "cannot reach"));
    assert_null(strchr(err.msg, '\n'));
    /* nothing committed: the neutral trial is still zero */
    mech_mat3 id = mech_mat3_identity();
    assert_int_equal(mech_dock_lateral_trial(l, &id, mech_vec3_zero(), &o, &err), HY_OK);
    assert_true(mech_vec3_norm(o.moment) == 0.0);
    mech_dock_lateral_free(l);
}

static void bad_params_name_the_key(void **state)
{
    (void)state;
    struct {
        int what;
        const char *prefix;
    } cases[] = {
        {0, "lateral.brake_crank[1]: "},     {1, "lateral.brake_axis[0]: "},
        {2, "lateral.spring: "},             {3, "lateral.brake_rod[1]: "},
        {4, "lateral.spring_rod_mass[0]: "}, {5, "lateral.brake.speed[1]: "},
        {6, "lateral.spring_housing[1]: "},  {7, "lateral.brake_stop: "},
        {8, "lateral.spring_stop: "},        {9, "lateral.spring.q_scale: "},
        {10, "lateral.brake.moment[1]: "},   {11, "lateral.brake_pivot[0]: "},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        mech_dock_lateral_params p;
        mech_dock_lateral_params_rp1(&p, MECH_DOCK_A);
        p.spring.model = &law;
        switch (cases[c].what) {
        case 0: p.brake_crank[1] = 0.0; break;
        case 1: p.brake_axis[0] = mech_vec3_make(0, 0, 2); break;
        case 2: p.spring.model = NULL; break;
        case 3: p.brake_rod[1] = 0.01; break; /* cannot join crank tip and S joint */
        case 4: p.spring_rod_mass[0] = -1.0; break;
        case 5: p.brake.x[1] = 0.0; break;
        case 6: p.spring_housing[1] = p.spring_base[1]; break;
        case 7: p.brake_stop = 0.0; break;
        case 8: p.spring_stop = NAN; break;
        case 9: p.spring.q_scale = 0.0; break;
        case 10: p.brake.y[1] = -5.0; break;
        case 11: p.brake_pivot[0].y = INFINITY; break;
        }
        mech_dock_lateral *l = (mech_dock_lateral *)&p; /* must come back NULL */
        hy_err err;
        int rc = mech_dock_lateral_new(&p, &l, &err);
        printf("%s\n", err.msg);
        assert_int_equal(rc, HY_EMODEL);
        assert_null(l);
        assert_true(strncmp(err.msg, cases[c].prefix, strlen(cases[c].prefix)) == 0);
        assert_null(strchr(err.msg, '\n'));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(closure_residual_over_a_grid),
        cmocka_unit_test(rates_and_accelerations_against_finite_differences),
        cmocka_unit_test(inertia_against_brute_force_kinetic_energy),
        cmocka_unit_test(virtual_power_of_the_active_forces),
        cmocka_unit_test(trial_equals_the_full_reduction),
        cmocka_unit_test(turning_base_momentum_and_energy),
        cmocka_unit_test(moment_characteristic_in_the_chain_planes),
        cmocka_unit_test(moment_characteristic_at_45_degrees),
        cmocka_unit_test(brake_damping_and_input_link_stops),
        cmocka_unit_test(energy_budget_of_a_dynamic_swing),
        cmocka_unit_test(trial_commit_revert),
        cmocka_unit_test(no_allocation_in_trial_and_commit),
        cmocka_unit_test(outside_the_workspace),
        cmocka_unit_test(bad_params_name_the_key),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

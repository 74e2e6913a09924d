/* libmech 3-D algebra (mech/math3.h): rotations against hand-computed values, the paper's passive α as the
 * transpose of the active rotation, quaternion <-> matrix round trips, and attitude propagation that keeps |q| = 1
 * and matches the closed-form rotation about a fixed axis. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include "mech/math3.h"

static void near(double a, double b, double tol) { assert_true(fabs(a - b) <= tol); }
static void vnear(mech_vec3 a, mech_vec3 b, double tol)
{
    near(a.x, b.x, tol);
    near(a.y, b.y, tol);
    near(a.z, b.z, tol);
}

static void cross_and_skew_agree(void **state)
{
    (void)state;
    mech_vec3 a = {1.5, -2.0, 0.25}, b = {-0.5, 3.0, 4.0};
    mech_vec3 c = mech_vec3_cross(a, b);
    /* hand-computed: (a_y b_z - a_z b_y, a_z b_x - a_x b_z, a_x b_y - a_y b_x) */
    vnear(c, mech_vec3_make(-8.75, -6.125, 3.5), 1e-15);
    vnear(mech_mat3_apply(mech_mat3_skew(a), b), c, 1e-15);
    mech_mat3 S = mech_mat3_skew(a);
    assert_true(mech_mat3_maxabs(mech_mat3_add(S, mech_mat3_transpose(S))) == 0.0);
    near(mech_vec3_dot(c, a), 0.0, 1e-14);
}

static void alpha_is_the_passive_rotation(void **state)
{
    (void)state;
    double q = 0.3, c = cos(q), s = sin(q);
    mech_mat3 a = mech_mat3_alpha(0, q);
    /* spec 001 §2.5: α = [[1,0,0],[0,c,s],[0,-s,c]] for axis 1 */
    near(a.m[1][1], c, 0); near(a.m[1][2], s, 0); near(a.m[2][1], -s, 0); near(a.m[2][2], c, 0);
    near(a.m[0][0], 1, 0);
    for (int k = 0; k < 3; k++) {
        mech_mat3 R = mech_mat3_rot(k, q), A = mech_mat3_alpha(k, q);
        assert_true(mech_mat3_maxabs(mech_mat3_sub(mech_mat3_mul(A, R), mech_mat3_identity())) < 1e-15);
        near(mech_mat3_det(R), 1.0, 1e-15);
        mech_vec3 v = {0.7, -1.1, 2.3};
        vnear(mech_vec3_alpha(k, c, s, v), mech_mat3_apply(A, v), 1e-15);
        vnear(mech_vec3_alpha_t(k, c, s, v), mech_mat3_tapply(A, v), 1e-15);
    }
    /* active rotation by 90 deg about z takes x to y */
    vnear(mech_mat3_apply(mech_mat3_rot(2, M_PI / 2), mech_vec3_unit(0)), mech_vec3_unit(1), 1e-15);
    /* congruence round trip */
    mech_mat3 I = {{{2, 0.1, 0}, {0.1, 3, 0.2}, {0, 0.2, 4}}}, A = mech_mat3_alpha(1, 0.7);
    mech_mat3 back = mech_mat3_tcongruence(A, mech_mat3_congruence(A, I));
    assert_true(mech_mat3_maxabs(mech_mat3_sub(back, I)) < 1e-14);
}

static void quaternion_matrix_round_trip(void **state)
{
    (void)state;
    /* a rotation by 2 rad about a skew axis, then round trips through matrices for many attitudes, including the
     * branches of Shepperd's method (angles near pi about each axis) */
    mech_vec3 axes[] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 2, -2}, {-3, 1, 0.5}};
    double angles[] = {0.0, 0.4, 2.0, M_PI - 1e-9, M_PI, -2.9};
    for (size_t i = 0; i < sizeof axes / sizeof axes[0]; i++)
        for (size_t j = 0; j < sizeof angles / sizeof angles[0]; j++) {
            mech_quat q = mech_quat_from_axis_angle(mech_vec3_normalize(axes[i]), angles[j]);
            mech_mat3 R = mech_quat_to_mat3(q);
            near(mech_mat3_det(R), 1.0, 1e-14);
            mech_quat p = mech_quat_from_mat3(R);
            /* same rotation: p = ±q */
            double d = fabs(p.w * q.w + p.x * q.x + p.y * q.y + p.z * q.z);
            near(d, 1.0, 1e-14);
            mech_vec3 v = {0.3, -0.8, 1.9};
            vnear(mech_quat_rotate(q, v), mech_mat3_apply(R, v), 1e-14);
            vnear(mech_quat_rotate_inv(q, mech_quat_rotate(q, v)), v, 1e-14);
        }
    /* composition: q1 then q2 is q2 ⊗ q1, and its matrix is R2 R1 */
    mech_quat q1 = mech_quat_from_axis_angle(mech_vec3_unit(0), 0.5), q2 = mech_quat_from_axis_angle(mech_vec3_unit(2), -1.2);
    mech_mat3 R21 = mech_mat3_mul(mech_quat_to_mat3(q2), mech_quat_to_mat3(q1));
    assert_true(mech_mat3_maxabs(mech_mat3_sub(mech_quat_to_mat3(mech_quat_mul(q2, q1)), R21)) < 1e-15);
}

static void attitude_propagation_keeps_unit_norm(void **state)
{
    (void)state;
    /* constant body rate about a fixed axis: the attitude after N steps is the rotation by |w| t exactly */
    mech_vec3 w = mech_vec3_make(0.3, -0.4, 1.2);
    mech_quat q0 = mech_quat_from_axis_angle(mech_vec3_normalize(mech_vec3_make(1, 1, 0)), 0.8), q = q0;
    double h = 1e-3;
    int n = 100000;
    for (int i = 0; i < n; i++) q = mech_quat_integrate(q, w, h);
    near(mech_quat_norm(q), 1.0, 1e-14);
    mech_quat exact = mech_quat_mul(q0, mech_quat_from_axis_angle(mech_vec3_normalize(w), mech_vec3_norm(w) * n * h));
    double d = fabs(q.w * exact.w + q.x * exact.x + q.y * exact.y + q.z * exact.z);
    near(d, 1.0, 1e-12);
    /* the derivative form agrees with a small-step difference of the exact update */
    mech_quat dq = mech_quat_deriv(q0, w), q1 = mech_quat_integrate(q0, w, 1e-6);
    near((q1.x - q0.x) / 1e-6, dq.x, 1e-6);
    near((q1.w - q0.w) / 1e-6, dq.w, 1e-6);
    /* exp near zero: series branch continuous with the closed form */
    for (double phi = 1e-6; phi < 1e-2; phi *= 1.7) {
        mech_quat a = mech_quat_exp(mech_vec3_make(0, 0, phi));
        near(a.z, sin(0.5 * phi), 4e-16 * sin(0.5 * phi));
        near(a.w, cos(0.5 * phi), 2.3e-16);
    }
}

/* the adjugate inverse: A A^-1 = 1 for a general and a symmetric positive definite matrix; a hand-computed case */
static void inverse_by_adjugate(void **state)
{
    (void)state;
    mech_mat3 A = {{{4, 1, 0.5}, {-2, 3, 1}, {0.3, -0.7, 5}}}, S = {{{5, 1, 0.2}, {1, 4, -0.3}, {0.2, -0.3, 3}}};
    mech_mat3 mats[2] = {A, S};
    for (int k = 0; k < 2; k++) {
        mech_mat3 Ai = mech_mat3_inverse(mats[k], mech_mat3_det(mats[k]));
        assert_true(mech_mat3_maxabs(mech_mat3_sub(mech_mat3_mul(mats[k], Ai), mech_mat3_identity())) < 1e-15);
        assert_true(mech_mat3_maxabs(mech_mat3_sub(mech_mat3_mul(Ai, mats[k]), mech_mat3_identity())) < 1e-15);
    }
    /* diag(2, 4, 8)^-1 = diag(0.5, 0.25, 0.125) exactly */
    mech_mat3 D = mech_mat3_inverse(mech_mat3_diag(2, 4, 8), 64);
    assert_true(mech_mat3_maxabs(mech_mat3_sub(D, mech_mat3_diag(0.5, 0.25, 0.125))) == 0.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cross_and_skew_agree),
        cmocka_unit_test(alpha_is_the_passive_rotation),
        cmocka_unit_test(quaternion_matrix_round_trip),
        cmocka_unit_test(attitude_propagation_keeps_unit_norm),
        cmocka_unit_test(inverse_by_adjugate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

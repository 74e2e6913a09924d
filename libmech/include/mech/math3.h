/* Small value types of 3-D mechanics and their inline algebra: vectors, 3x3 matrices (row-major), the
 * cross-product matrix, unit quaternions and the elementary rotation matrices of spec 001 §2.4-2.5.
 *
 * Conventions (used by every libmech module that includes this header):
 *  - mech_mat3 is row-major: m[i][j] is row i, column j.
 *  - A rotation "from frame A to frame B" as the paper writes it (α, β in spec 001 §2.4) is a PASSIVE matrix: it
 *    maps the coordinates of one vector in frame A to its coordinates in frame B, v^(B) = α v^(A).
 *    mech_mat3_alpha(k, q) is that matrix for a frame turned by +q about its axis k; it is the transpose of the
 *    active rotation mech_mat3_rot(k, q), which turns a vector by +q about axis k in a fixed frame.
 *  - A unit quaternion (w, x, y, z) describes a body's attitude as the ACTIVE rotation from body to world:
 *    v_world = R(q) v_body, R(q) = mech_quat_to_mat3(q). Its passive matrix α (world -> body) is R(q)^T.
 *  - Angular velocities used with mech_quat_integrate are in the body frame.
 * Everything here is static inline and allocation-free. */
#ifndef MECH_MATH3_H
#define MECH_MATH3_H

#include <math.h>

typedef struct mech_vec3 {
    double x, y, z;
} mech_vec3;

typedef struct mech_mat3 {
    double m[3][3];
} mech_mat3;

typedef struct mech_quat {
    double w, x, y, z;
} mech_quat;

/* ---- vectors ---- */
static inline mech_vec3 mech_vec3_make(double x, double y, double z) { return (mech_vec3){x, y, z}; }
static inline mech_vec3 mech_vec3_zero(void) { return (mech_vec3){0.0, 0.0, 0.0}; }
// (axis 0..2) => unit vector along that axis
static inline mech_vec3 mech_vec3_unit(int axis)
{
    mech_vec3 e = {0.0, 0.0, 0.0};
    if (axis == 0) e.x = 1.0; else if (axis == 1) e.y = 1.0; else e.z = 1.0;
    return e;
}
static inline double mech_vec3_get(mech_vec3 a, int i) { return i == 0 ? a.x : i == 1 ? a.y : a.z; }
static inline mech_vec3 mech_vec3_add(mech_vec3 a, mech_vec3 b) { return (mech_vec3){a.x + b.x, a.y + b.y, a.z + b.z}; }
static inline mech_vec3 mech_vec3_sub(mech_vec3 a, mech_vec3 b) { return (mech_vec3){a.x - b.x, a.y - b.y, a.z - b.z}; }
static inline mech_vec3 mech_vec3_neg(mech_vec3 a) { return (mech_vec3){-a.x, -a.y, -a.z}; }
static inline mech_vec3 mech_vec3_scale(mech_vec3 a, double s) { return (mech_vec3){s * a.x, s * a.y, s * a.z}; }
// (a, s, b) => a + s b
static inline mech_vec3 mech_vec3_axpy(mech_vec3 a, double s, mech_vec3 b)
{
    return (mech_vec3){a.x + s * b.x, a.y + s * b.y, a.z + s * b.z};
}
static inline double mech_vec3_dot(mech_vec3 a, mech_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline mech_vec3 mech_vec3_cross(mech_vec3 a, mech_vec3 b)
{
    return (mech_vec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
static inline double mech_vec3_norm(mech_vec3 a) { return sqrt(mech_vec3_dot(a, a)); }
// (a) => a / |a|, or the zero vector when |a| = 0 (callers that need a direction check the norm first)
static inline mech_vec3 mech_vec3_normalize(mech_vec3 a)
{
    double n = mech_vec3_norm(a);
    return n > 0.0 ? mech_vec3_scale(a, 1.0 / n) : mech_vec3_zero();
}

/* ---- 3x3 matrices ---- */
static inline mech_mat3 mech_mat3_zero(void) { return (mech_mat3){{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}}; }
static inline mech_mat3 mech_mat3_identity(void) { return (mech_mat3){{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}; }
static inline mech_mat3 mech_mat3_diag(double a, double b, double c) { return (mech_mat3){{{a, 0, 0}, {0, b, 0}, {0, 0, c}}}; }
static inline mech_mat3 mech_mat3_rows(mech_vec3 r0, mech_vec3 r1, mech_vec3 r2)
{
    return (mech_mat3){{{r0.x, r0.y, r0.z}, {r1.x, r1.y, r1.z}, {r2.x, r2.y, r2.z}}};
}
static inline mech_vec3 mech_mat3_col(mech_mat3 A, int j) { return (mech_vec3){A.m[0][j], A.m[1][j], A.m[2][j]}; }
static inline mech_vec3 mech_mat3_row(mech_mat3 A, int i) { return (mech_vec3){A.m[i][0], A.m[i][1], A.m[i][2]}; }
static inline mech_mat3 mech_mat3_transpose(mech_mat3 A)
{
    mech_mat3 T;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) T.m[i][j] = A.m[j][i];
    return T;
}
static inline mech_mat3 mech_mat3_add(mech_mat3 A, mech_mat3 B)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) A.m[i][j] += B.m[i][j];
    return A;
}
static inline mech_mat3 mech_mat3_sub(mech_mat3 A, mech_mat3 B)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) A.m[i][j] -= B.m[i][j];
    return A;
}
static inline mech_mat3 mech_mat3_scale(mech_mat3 A, double s)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) A.m[i][j] *= s;
    return A;
}
// (A, B) => A B
static inline mech_mat3 mech_mat3_mul(mech_mat3 A, mech_mat3 B)
{
    mech_mat3 C;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) C.m[i][j] = A.m[i][0] * B.m[0][j] + A.m[i][1] * B.m[1][j] + A.m[i][2] * B.m[2][j];
    return C;
}
// (A, B) => A^T B
static inline mech_mat3 mech_mat3_tmul(mech_mat3 A, mech_mat3 B)
{
    mech_mat3 C;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) C.m[i][j] = A.m[0][i] * B.m[0][j] + A.m[1][i] * B.m[1][j] + A.m[2][i] * B.m[2][j];
    return C;
}
// (A, B) => A B^T
static inline mech_mat3 mech_mat3_mult(mech_mat3 A, mech_mat3 B)
{
    mech_mat3 C;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) C.m[i][j] = A.m[i][0] * B.m[j][0] + A.m[i][1] * B.m[j][1] + A.m[i][2] * B.m[j][2];
    return C;
}
// (A, v) => A v
static inline mech_vec3 mech_mat3_apply(mech_mat3 A, mech_vec3 v)
{
    return (mech_vec3){A.m[0][0] * v.x + A.m[0][1] * v.y + A.m[0][2] * v.z,
                       A.m[1][0] * v.x + A.m[1][1] * v.y + A.m[1][2] * v.z,
                       A.m[2][0] * v.x + A.m[2][1] * v.y + A.m[2][2] * v.z};
}
// (A, v) => A^T v
static inline mech_vec3 mech_mat3_tapply(mech_mat3 A, mech_vec3 v)
{
    return (mech_vec3){A.m[0][0] * v.x + A.m[1][0] * v.y + A.m[2][0] * v.z,
                       A.m[0][1] * v.x + A.m[1][1] * v.y + A.m[2][1] * v.z,
                       A.m[0][2] * v.x + A.m[1][2] * v.y + A.m[2][2] * v.z};
}
// (a, b) => the outer product a b^T
static inline mech_mat3 mech_mat3_outer(mech_vec3 a, mech_vec3 b)
{
    return (mech_mat3){{{a.x * b.x, a.x * b.y, a.x * b.z}, {a.y * b.x, a.y * b.y, a.y * b.z}, {a.z * b.x, a.z * b.y, a.z * b.z}}};
}
// (v) => the cross-product matrix ṽ of spec 001 §2.4: ṽ a = v × a; ṽ^T = -ṽ
static inline mech_mat3 mech_mat3_skew(mech_vec3 v)
{
    return (mech_mat3){{{0.0, -v.z, v.y}, {v.z, 0.0, -v.x}, {-v.y, v.x, 0.0}}};
}
// (α, A) => α A α^T: a tensor A given in frame P expressed in frame B when v^(B) = α v^(P)
static inline mech_mat3 mech_mat3_congruence(mech_mat3 alpha, mech_mat3 A)
{
    return mech_mat3_mult(mech_mat3_mul(alpha, A), alpha);
}
// (α, A) => α^T A α: the tensor back in the parent frame (spec 001 eq. 2.6, N^(p) = β^T N β)
static inline mech_mat3 mech_mat3_tcongruence(mech_mat3 alpha, mech_mat3 A)
{
    return mech_mat3_mul(mech_mat3_tmul(alpha, A), alpha);
}
static inline double mech_mat3_det(mech_mat3 A)
{
    return A.m[0][0] * (A.m[1][1] * A.m[2][2] - A.m[1][2] * A.m[2][1]) -
           A.m[0][1] * (A.m[1][0] * A.m[2][2] - A.m[1][2] * A.m[2][0]) +
           A.m[0][2] * (A.m[1][0] * A.m[2][1] - A.m[1][1] * A.m[2][0]);
}
// (A, det A) => A^-1 by the adjugate (closed form for 3x3 blocks such as the root of the articulated-body
// algorithm); the caller checks det against its own scale first
static inline mech_mat3 mech_mat3_inverse(mech_mat3 A, double det)
{
    double k = 1.0 / det;
    mech_mat3 B;
    B.m[0][0] = k * (A.m[1][1] * A.m[2][2] - A.m[1][2] * A.m[2][1]);
    B.m[0][1] = k * (A.m[0][2] * A.m[2][1] - A.m[0][1] * A.m[2][2]);
    B.m[0][2] = k * (A.m[0][1] * A.m[1][2] - A.m[0][2] * A.m[1][1]);
    B.m[1][0] = k * (A.m[1][2] * A.m[2][0] - A.m[1][0] * A.m[2][2]);
    B.m[1][1] = k * (A.m[0][0] * A.m[2][2] - A.m[0][2] * A.m[2][0]);
    B.m[1][2] = k * (A.m[0][2] * A.m[1][0] - A.m[0][0] * A.m[1][2]);
    B.m[2][0] = k * (A.m[1][0] * A.m[2][1] - A.m[1][1] * A.m[2][0]);
    B.m[2][1] = k * (A.m[0][1] * A.m[2][0] - A.m[0][0] * A.m[2][1]);
    B.m[2][2] = k * (A.m[0][0] * A.m[1][1] - A.m[0][1] * A.m[1][0]);
    return B;
}
// (A) => max |A_ij|
static inline double mech_mat3_maxabs(mech_mat3 A)
{
    double x = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) x = fmax(x, fabs(A.m[i][j]));
    return x;
}

/* ---- elementary rotations ---- */
// (axis 0..2, angle q) => ACTIVE rotation by +q about the axis (turns vectors in a fixed frame)
static inline mech_mat3 mech_mat3_rot(int axis, double q)
{
    double c = cos(q), s = sin(q);
    mech_mat3 R = mech_mat3_identity();
    int m = (axis + 1) % 3, n = (axis + 2) % 3;
    R.m[m][m] = c;
    R.m[m][n] = -s;
    R.m[n][m] = s;
    R.m[n][n] = c;
    return R;
}
// (axis 0..2, angle q) => the paper's PASSIVE joint matrix α (spec 001 §2.5): for axis 0,
// α = [[1,0,0],[0,c,s],[0,-s,c]]; v^(child) = α v^(parent) for a child frame turned by +q about the axis
static inline mech_mat3 mech_mat3_alpha(int axis, double q) { return mech_mat3_transpose(mech_mat3_rot(axis, q)); }
// (axis, angle, vector in the parent frame) => α v without forming α (hot path of the articulated-body passes)
static inline mech_vec3 mech_vec3_alpha(int axis, double c, double s, mech_vec3 v)
{
    /* written per axis so that no component is addressed by a run-time index (keeps everything in registers) */
    if (axis == 0)
        return (mech_vec3){v.x, c * v.y + s * v.z, -s * v.y + c * v.z};
    if (axis == 1)
        return (mech_vec3){-s * v.z + c * v.x, v.y, c * v.z + s * v.x};
    return (mech_vec3){c * v.x + s * v.y, -s * v.x + c * v.y, v.z};
}
// (axis, c, s, vector in the child frame) => α^T v (back to the parent frame)
static inline mech_vec3 mech_vec3_alpha_t(int axis, double c, double s, mech_vec3 v)
{
    return mech_vec3_alpha(axis, c, -s, v);
}

/* ---- unit quaternions (attitude: active rotation body -> world) ---- */
static inline mech_quat mech_quat_identity(void) { return (mech_quat){1.0, 0.0, 0.0, 0.0}; }
// (p, q) => p ⊗ q (rotation q first, then p)
static inline mech_quat mech_quat_mul(mech_quat p, mech_quat q)
{
    return (mech_quat){p.w * q.w - p.x * q.x - p.y * q.y - p.z * q.z, p.w * q.x + p.x * q.w + p.y * q.z - p.z * q.y,
                       p.w * q.y - p.x * q.z + p.y * q.w + p.z * q.x, p.w * q.z + p.x * q.y - p.y * q.x + p.z * q.w};
}
static inline mech_quat mech_quat_conj(mech_quat q) { return (mech_quat){q.w, -q.x, -q.y, -q.z}; }
static inline double mech_quat_norm(mech_quat q) { return sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z); }
// (q) => q / |q| (identity for the zero quaternion, which no propagation produces)
static inline mech_quat mech_quat_normalize(mech_quat q)
{
    double n = mech_quat_norm(q);
    if (!(n > 0.0)) return mech_quat_identity();
    return (mech_quat){q.w / n, q.x / n, q.y / n, q.z / n};
}
// (unit axis, angle) => quaternion of the active rotation by the angle about the axis
static inline mech_quat mech_quat_from_axis_angle(mech_vec3 axis, double angle)
{
    double s = sin(0.5 * angle);
    return (mech_quat){cos(0.5 * angle), s * axis.x, s * axis.y, s * axis.z};
}
// (unit q) => R(q), the active rotation matrix body -> world
static inline mech_mat3 mech_quat_to_mat3(mech_quat q)
{
    double w = q.w, x = q.x, y = q.y, z = q.z;
    return (mech_mat3){{{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                        {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                        {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}}};
}
// (rotation matrix R, orthonormal with det +1) => unit quaternion with w >= 0 (Shepperd's method: the largest of
// the four diagonal combinations is taken first, so no division by a small number)
static inline mech_quat mech_quat_from_mat3(mech_mat3 R)
{
    double tr = R.m[0][0] + R.m[1][1] + R.m[2][2];
    mech_quat q;
    if (tr >= R.m[0][0] && tr >= R.m[1][1] && tr >= R.m[2][2]) {
        double s = 2.0 * sqrt(1.0 + tr);
        q = (mech_quat){0.25 * s, (R.m[2][1] - R.m[1][2]) / s, (R.m[0][2] - R.m[2][0]) / s, (R.m[1][0] - R.m[0][1]) / s};
    } else if (R.m[0][0] >= R.m[1][1] && R.m[0][0] >= R.m[2][2]) {
        double s = 2.0 * sqrt(1.0 + R.m[0][0] - R.m[1][1] - R.m[2][2]);
        q = (mech_quat){(R.m[2][1] - R.m[1][2]) / s, 0.25 * s, (R.m[0][1] + R.m[1][0]) / s, (R.m[0][2] + R.m[2][0]) / s};
    } else if (R.m[1][1] >= R.m[2][2]) {
        double s = 2.0 * sqrt(1.0 + R.m[1][1] - R.m[0][0] - R.m[2][2]);
        q = (mech_quat){(R.m[0][2] - R.m[2][0]) / s, (R.m[0][1] + R.m[1][0]) / s, 0.25 * s, (R.m[1][2] + R.m[2][1]) / s};
    } else {
        double s = 2.0 * sqrt(1.0 + R.m[2][2] - R.m[0][0] - R.m[1][1]);
        q = (mech_quat){(R.m[1][0] - R.m[0][1]) / s, (R.m[0][2] + R.m[2][0]) / s, (R.m[1][2] + R.m[2][1]) / s, 0.25 * s};
    }
    if (q.w < 0.0) q = (mech_quat){-q.w, -q.x, -q.y, -q.z};
    return mech_quat_normalize(q);
}
// (q, v in body frame) => R(q) v in the world frame
static inline mech_vec3 mech_quat_rotate(mech_quat q, mech_vec3 v)
{
    /* v' = v + 2 w (u × v) + 2 u × (u × v), u = (x, y, z) */
    mech_vec3 u = {q.x, q.y, q.z};
    mech_vec3 t = mech_vec3_scale(mech_vec3_cross(u, v), 2.0);
    return mech_vec3_add(mech_vec3_axpy(v, q.w, t), mech_vec3_cross(u, t));
}
// (q, v in world frame) => R(q)^T v in the body frame
static inline mech_vec3 mech_quat_rotate_inv(mech_quat q, mech_vec3 v) { return mech_quat_rotate(mech_quat_conj(q), v); }
// (rotation vector φ) => exp(φ/2) as a unit quaternion: the rotation by |φ| about φ/|φ| (series near 0)
static inline mech_quat mech_quat_exp(mech_vec3 phi)
{
    double a = mech_vec3_norm(phi), h = 0.5 * a, k;
    k = h < 1e-4 ? 0.5 * (1.0 - h * h / 6.0) : sin(h) / a; /* sin(a/2)/a, its Taylor series below 1e-4 */
    return (mech_quat){cos(h), k * phi.x, k * phi.y, k * phi.z};
}
// (q, body angular velocity ω, step h) => q ⊗ exp(ω h / 2), renormalised: the exact attitude update for an
// angular velocity held constant over the step; |q| stays 1 to round-off
static inline mech_quat mech_quat_integrate(mech_quat q, mech_vec3 omega_body, double h)
{
    return mech_quat_normalize(mech_quat_mul(q, mech_quat_exp(mech_vec3_scale(omega_body, h))));
}
// (q, body angular velocity ω) => dq/dt = q ⊗ (0, ω) / 2 (for integrators that carry q as four states)
static inline mech_quat mech_quat_deriv(mech_quat q, mech_vec3 omega_body)
{
    mech_quat d = mech_quat_mul(q, (mech_quat){0.0, omega_body.x, omega_body.y, omega_body.z});
    return (mech_quat){0.5 * d.w, 0.5 * d.x, 0.5 * d.y, 0.5 * d.z};
}

#endif

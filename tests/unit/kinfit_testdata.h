/* Test data for the kinematic-ODE identification tests: records sampled from a known law, integrated HERE by a
 * fine classic RK4 (independent of the library's kin module), and a deterministic Gaussian noise source. */
#ifndef KINFIT_TESTDATA_H
#define KINFIT_TESTDATA_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/kin.h"

/* The paper's reduced law (spec 002 §3.2, eq. 13): k0 = 650.9, k1 = 1422.2, c0..c5. */
static const double td_paper_k[2] = {650.9, 1422.2};
static const double td_paper_c[6] = {-23.9, -4.1, -2.0, -0.35, 143.2, 419.8};

// (coefficients) => the reduced paper law as a 6 x 2 coefficient set
static inline void td_paper_coeffs(hy_kin_coeffs *C)
{
    memset(C, 0, sizeof *C);
    C->k = 6;
    C->m = 2;
    C->C[0][0] = td_paper_k[0];
    C->C[1][0] = td_paper_k[1];
    for (int i = 0; i < 6; i++)
        C->C[i][1] = td_paper_c[i];
}

// (coefficients, q, f) => plain double sum, no Horner (an independent evaluation)
static inline double td_poly(const hy_kin_coeffs *C, double q, double f)
{
    double r = 0.0;
    for (int i = 0; i < C->k; i++)
        for (int j = 0; j < C->m; j++)
            r += C->C[i][j] * pow(q, i) * pow(f, j);
    return r;
}

/* (loading law, s, q, f) => df/dq under the symmetric rule of spec 002 §1.4 */
static inline double td_R(const hy_kin_coeffs *C, int s, double q, double f)
{
    return s > 0 ? td_poly(C, q, f) : td_poly(C, -q, -f);
}

/* A record driven through turning points tp[0..ntp-1] with q-step dq per sample: q[], f[] (exact law, RK4 with
 * `sub` sub-steps per sample), s[] the direction of the step that reached each sample (s[0] = that of the first
 * step). Returns the number of samples (<= cap). */
static inline size_t td_record(const hy_kin_coeffs *C, const double *tp, int ntp, double f0, double dq, int sub,
                               double *q, double *f, int *s, size_t cap)
{
    size_t n = 0;
    q[0] = tp[0];
    f[0] = f0;
    s[0] = tp[1] > tp[0] ? 1 : -1;
    n = 1;
    for (int k = 1; k < ntp; k++) {
        double a = tp[k - 1], b = tp[k];
        int dir = b > a ? 1 : -1;
        int steps = (int)ceil(fabs(b - a) / dq);
        for (int st = 1; st <= steps && n < cap; st++) {
            double q0 = q[n - 1], q1 = a + (b - a) * st / steps, ff = f[n - 1];
            double h = (q1 - q0) / sub;
            for (int u = 0; u < sub; u++) {
                double x = q0 + u * h;
                double k1 = td_R(C, dir, x, ff);
                double k2 = td_R(C, dir, x + 0.5 * h, ff + 0.5 * h * k1);
                double k3 = td_R(C, dir, x + 0.5 * h, ff + 0.5 * h * k2);
                double k4 = td_R(C, dir, x + h, ff + h * k3);
                ff += h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4);
            }
            q[n] = q1;
            f[n] = ff;
            s[n] = dir;
            n++;
        }
    }
    return n;
}

/* Deterministic standard normal deviates (xorshift64* + Box-Muller), so that tests are reproducible. */
typedef struct td_rng {
    uint64_t x;
} td_rng;

static inline double td_uniform(td_rng *r)
{
    r->x ^= r->x >> 12;
    r->x ^= r->x << 25;
    r->x ^= r->x >> 27;
    return ((r->x * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

static inline double td_normal(td_rng *r)
{
    double u1 = td_uniform(r), u2 = td_uniform(r);
    if (u1 < 1e-300)
        u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

#endif

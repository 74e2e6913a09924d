/* Seeded, reproducible noise for synthetic bench records (`hyst sim --noise`) and tests.
 *
 * Generator: xoshiro256** (Blackman & Vigna 2018), state seeded by splitmix64 - small, fast, well tested, and
 * defined by 64-bit integer arithmetic only, so the same seed gives the same integers everywhere.
 * Normal deviates: Marsaglia's polar method (Marsaglia & Bray 1964). Its logarithm is computed here with +, -, *, /
 * and frexp (no libm log, whose last bit may differ between C libraries or CPU dispatch paths), and sqrt is exact
 * in IEEE 754; so the same seed gives the same doubles, bit for bit, on every IEEE 754 machine.
 *
 * The generator state is plain data owned by the caller; nothing here allocates. */
#ifndef HYST_NOISE_H
#define HYST_NOISE_H

#include <stddef.h>
#include <stdint.h>

typedef struct hy_rng {
    uint64_t s[4];       /* xoshiro256** state (never all zero)                                */
    double   spare;      /* second deviate of the last polar-method pair                       */
    int      has_spare;  /* 1 when `spare` is waiting to be returned                          */
} hy_rng;

// (state x) => next splitmix64 output, x advanced (the seeding generator; exposed for tests)
uint64_t hy_rng_splitmix64(uint64_t *x);

// (seed, stream) => generator seeded: splitmix64 started at seed ^ stream * 0x9E3779B97F4A7C15 fills the state;
// stream 0 is the plain splitmix64 seeding of the reference implementation; different streams are independent
void hy_rng_seed(hy_rng *r, uint64_t seed, uint64_t stream);

// (four state words, not all zero) => generator set to that exact state (reference vectors)
void hy_rng_set_state(hy_rng *r, const uint64_t s[4]);

// (generator) => next 64-bit output of xoshiro256**
uint64_t hy_rng_u64(hy_rng *r);

// (generator) => uniform double in [0, 1) with 53 random bits
double hy_rng_uniform(hy_rng *r);

// (generator) => standard normal deviate N(0, 1) (Marsaglia polar method, deviates used in pairs)
double hy_rng_normal(hy_rng *r);

// (generator, sigma, x[0..n-1]) => x[i] += sigma * N(0, 1), in index order
void hy_noise_add(hy_rng *r, double sigma, double *x, size_t n);

// (x > 0) => natural logarithm from +, -, *, / and frexp only (reproducible everywhere; |error| <= 2 ulp)
double hy_noise_log(double x);

#endif

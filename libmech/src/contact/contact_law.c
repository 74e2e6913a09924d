/* Normal force law of the contact module: penalty k δ^n with Hunt-Crossley damping (Hunt & Crossley 1975,
 * J. Appl. Mech. 42: 440-445), the damping factor D set from the coefficient of restitution e and the impact
 * speed v: D = s(e) / v. docs/contact.md §3 derives the exact relation used by default. */
#include <math.h>
#include "contact/contact_internal.h"

/* For m δ'' = -k δ^n (1 + D δ'), separating v dv/(1 + D v) = -(k/m) δ^n dδ and integrating from the onset
 * (δ = 0, v = v0) to the separation (δ = 0, v = -e v0) gives, with s = D v0,
 *     s - ln(1 + s) = -e s - ln(1 - e s)     i.e.   g(s) = (1 + e) s - ln(1 + s) + ln(1 - e s) = 0,
 * independent of n, k and m (Carvalho & Martins 2019). g(0) = g'(0) = 0, g''(0) = 1 - e² > 0 and g -> -inf at
 * s -> 1/e, with one inflection, so g has exactly one root in (0, 1/e): bisection finds it to round-off. */
static double hc_exact(double e)
{
    double lo = 0.0, hi = 1.0 / e;
    for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; it++) {
        double s = 0.5 * (lo + hi);
        double g = (1.0 + e) * s - log1p(s) + log1p(-e * s);
        if (g > 0.0)
            lo = s;
        else
            hi = s;
    }
    return 0.5 * (lo + hi);
}

double mech_contact_hc_factor(double e, mech_contact_hc_relation rel)
{
    if (!(e > 0.0)) return NAN;
    if (e >= 1.0) return 0.0;
    switch (rel) {
    case MECH_CONTACT_HC_LANKARANI: return 0.75 * (1.0 - e * e);
    case MECH_CONTACT_HC_FLORES: return 1.6 * (1.0 - e) / e;
    default: return hc_exact(e);
    }
}

double mech_contact_normal_force(const mech_contact_law *law, double D, double depth, double depth_rate,
                                 double *elastic, double *damping)
{
    double fe = 0.0, fd = 0.0;
    if (depth > 0.0) {
        fe = law->k * (law->n == 1.0 ? depth : pow(depth, law->n));
        double c = fe * D;
        if (law->c_mass > 0.0) {
            /* critical damping of the tangent stiffness n k δ^(n-1) = n fe / δ on c_mass */
            double c_crit = 2.0 * sqrt(law->n * fe / depth * law->c_mass);
            c = c < c_crit ? c : c_crit;
        }
        fd = c * depth_rate;
    }
    if (elastic) *elastic = fe;
    if (damping) *damping = fd;
    double f = fe + fd;
    return f > 0.0 ? f : 0.0; /* a contact never pulls */
}

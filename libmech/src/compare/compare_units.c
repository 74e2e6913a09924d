/* Units of compared channels (docs/compare.md §2): a small table of the units bench and stand records use, each
 * with its dimension and SI factor, so that a measured channel in kN is compared with a run channel in N and a
 * length against a force is refused. An unknown unit matches only the same text. */
#include <math.h>
#include <string.h>
#include "mech/compare.h"

typedef struct unit_def {
    const char *name;
    const char *dim;  /* the SI unit it converts into */
    double si;        /* value_SI = si * value         */
} unit_def;

static const unit_def units[] = {
    {"N", "N", 1}, {"kN", "N", 1e3}, {"mN", "N", 1e-3}, {"MN", "N", 1e6}, {"lbf", "N", 4.4482216152605},
    {"m", "m", 1}, {"mm", "m", 1e-3}, {"cm", "m", 1e-2}, {"um", "m", 1e-6}, {"µm", "m", 1e-6}, {"km", "m", 1e3},
    {"in", "m", 0.0254},
    {"rad", "rad", 1}, {"mrad", "rad", 1e-3}, {"urad", "rad", 1e-6}, {"deg", "rad", M_PI / 180}, {"°", "rad", M_PI / 180},
    {"s", "s", 1}, {"ms", "s", 1e-3}, {"us", "s", 1e-6}, {"µs", "s", 1e-6}, {"min", "s", 60},
    {"m/s", "m/s", 1}, {"mm/s", "m/s", 1e-3}, {"cm/s", "m/s", 1e-2},
    {"rad/s", "rad/s", 1}, {"mrad/s", "rad/s", 1e-3}, {"deg/s", "rad/s", M_PI / 180}, {"rpm", "rad/s", M_PI / 30},
    {"m/s^2", "m/s^2", 1}, {"m/s2", "m/s^2", 1}, {"mm/s^2", "m/s^2", 1e-3}, {"g", "m/s^2", 9.80665},
    {"rad/s^2", "rad/s^2", 1}, {"rad/s2", "rad/s^2", 1},
    {"N m", "N m", 1}, {"N*m", "N m", 1}, {"Nm", "N m", 1}, {"N.m", "N m", 1}, {"kN m", "N m", 1e3},
    {"kN*m", "N m", 1e3}, {"kNm", "N m", 1e3}, {"N mm", "N m", 1e-3}, {"N*mm", "N m", 1e-3}, {"Nmm", "N m", 1e-3},
    {"N/m", "N/m", 1}, {"kN/m", "N/m", 1e3}, {"N/mm", "N/m", 1e3}, {"N s/m", "N s/m", 1}, {"N*s/m", "N s/m", 1},
    {"J", "J", 1}, {"kJ", "J", 1e3}, {"mJ", "J", 1e-3},
    {"V", "V", 1}, {"mV", "V", 1e-3},
    {"1", "1", 1}, {"-", "1", 1}, {"%", "1", 1e-2},
    {"kg", "kg", 1}, {"Pa", "Pa", 1}, {"kPa", "Pa", 1e3}, {"MPa", "Pa", 1e6}, {"bar", "Pa", 1e5},
};

static const unit_def *find(const char *u)
{
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(units[i].name, u) == 0)
            return &units[i];
    return NULL;
}

// (unit from, unit to) => *factor with value_to = factor * value_from; 0, or -1 on a mismatch
int mech_compare_unit_factor(const char *from, const char *to, double *factor)
{
    *factor = 1;
    if (strcmp(from, to) == 0)
        return 0;
    const unit_def *a = find(from), *b = find(to);
    if (!a || !b || strcmp(a->dim, b->dim) != 0)
        return -1;
    *factor = a->si / b->si;
    return 0;
}

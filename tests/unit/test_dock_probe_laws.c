/* The shipped probe compliance laws (fixtures/mech/dock/models/probe-torsion.json, probe-bending.json; docs/dock.md
 * §4): RP-1 §2.7 gives their hysteresis as a loop width in proportion to the peak moment, so a cycle dissipates the
 * same fraction of its peak elastic energy at every amplitude. The constant kind makes the two branches share their
 * first segment (spec 000 §2, assumption 3), elastic; the files end it at 1 nrad, so the loops hold down to 0.1 µrad.
 * With the 10 µrad the files first had, a cycle below 10 µrad dissipated nothing, and the probe's torsion rang
 * without losses after every impact for the rest of a docking run (the error control then resolved that ringing at
 * ~1.3 ms steps): this test fails on those files. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include "hyst/element.h"
#include "dock_test_laws.h"

/* (law file, amplitude A, loading stiffness k) => loop energy of the second of three cycles q = A sin(2 pi t) (400
 * samples a cycle, trapezoidal Q dq) over the peak elastic energy k A^2 / 2 */
static double loss_ratio(const char *file, double A, double k)
{
    hy_model m;
    hy_element el;
    hy_err e;
    assert_int_equal(dock_test_load_law(file, &m), HY_OK);
    assert_int_equal(hy_model_element(&m, &el, &e), HY_OK);
    assert_int_equal(hy_element_reset(&el, 0, 0, &e), HY_OK);
    const int n = 400;
    double q0 = 0, Q0 = 0, W = 0;
    for (int i = 1; i <= 3 * n; i++) {
        double q = A * sin(2 * M_PI * i / n), Q, dQ;
        hy_diag d;
        assert_int_equal(hy_element_trial(&el, q, q - q0, &Q, &dQ, &d), HY_OK);
        hy_element_commit(&el);
        if (i > n && i <= 2 * n)
            W += 0.5 * (Q + Q0) * (q - q0);
        q0 = q, Q0 = Q;
    }
    hy_element_free(&el);
    hy_model_free(&m);
    return W / (0.5 * k * A * A);
}

static void loops_hold_at_every_amplitude(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        double k;
    } law[2] = {{"probe-torsion.json", 2.5e4}, {"probe-bending.json", 2.5e5}};
    for (int l = 0; l < 2; l++) {
        double ref = loss_ratio(law[l].file, 1e-2, law[l].k);   /* a large cycle: 0.6 torsion, 0.2 bending */
        assert_true(ref > 0.1);
        for (double A = 1e-7; A < 2e-2; A *= 10) {
            double r = loss_ratio(law[l].file, A, law[l].k);
            print_message("%s: cycle of +-%.0e rad dissipates %.4f of its peak energy (%.4f at 1e-2)\n", law[l].file,
                          A, r, ref);
            assert_true(fabs(r - ref) < 0.03 * ref);   /* 2 % measured at 1e-7 (the shared 1 nrad segment) */
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(loops_hold_at_every_amplitude),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

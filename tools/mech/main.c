/* mech: simulators of mechanisms with identified hysteresis models (libmech). First model: the pendulum vibration
 * damper of spec 002 §4. */
#include <stdio.h>
#include <string.h>
#include "hyst/linalg.h"
#include "hyst/util.h"
#include "mech_cli.h"

static void usage(FILE *fp)
{
    fputs("usage: mech MODEL COMMAND [OPTIONS]\n"
          "\n"
          "models:\n"
          "  pendulum harmonic   M-alpha loops and dissipation power of the pendulum damper under phi1 = Phi sin(wt)\n"
          "  pendulum sweep      steady dissipation power against drive frequency (stepped sweep)\n"
          "  pendulum decay      free decay of the pendulum from an initial angle, driving disk fixed\n"
          "  friction FILE.json  dry friction on variant constraints: guides, screw-nut, slider-crank (spec 003)\n"
          "  beam freq|sim|lqr   jointed-beam spacecraft (spec 004): frequency tables, Newmark response, LQR\n"
          "  dock SCENARIO.json  probe-cone docking (spec 001, RP-1 scenarios S1-S7): capture, absorption, energy\n"
          "  sweep PLAN.json     capture envelopes and Monte Carlo over any scenario key (-j N workers, mpirun)\n"
          "  calibrate CAL.json  scenario keys identified from measured runs (stand tests), with standard errors\n"
          "  view RUN            one self-contained HTML page to review a dock, beam or sweep run in a browser\n"
          "  compare RUN MEAS    a run against a measured record: alignment, NRMSE, peaks, impacts, verdicts\n"
          "\n"
          "'mech MODEL --help' lists each model's options. Exit status: 0 success, 1 failure on the data or model,\n"
          "2 bad usage.\n",
          fp);
}

int main(int argc, char **argv)
{
    tool_cli_init("mech");
    if (argc < 2) {
        usage(stderr);
        return MECH_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return mech_cli_stdout(NULL, MECH_EXIT_OK);
    }
    hy_cleanup_signals();   /* an interrupted run removes its temporary files and ends by the signal */
    hy_blas_single_thread();
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } cmds[] = {{"pendulum", mech_cmd_pendulum}, {"friction", mech_cmd_friction}, {"beam", mech_cmd_beam},
                {"dock", mech_cmd_dock},         {"sweep", mech_cmd_sweep},
                {"view", mech_cmd_view},         {"compare", mech_cmd_compare},
                {"calibrate", mech_cmd_calibrate}};
    for (size_t k = 0; k < sizeof cmds / sizeof cmds[0]; k++)
        if (strcmp(argv[1], cmds[k].name) == 0)   /* every command's report checked once it has been written */
            return mech_cli_stdout(cmds[k].name, cmds[k].run(argc - 1, argv + 1));
    fprintf(stderr, "mech: unknown model '%s' (see 'mech --help')\n", argv[1]);
    return MECH_EXIT_USAGE;
}

// The option of the `mech` simulators that is theirs alone (--output-rate); the rest is tools/common/tool_cli.c.
#include <string.h>
#include "mech_cli.h"

int mech_cli_output_rate(const char *text, double *rate, int *events, hy_err *err)
{
    if (strcmp(text, "events") == 0) {
        *events = 1;
        return HY_OK;
    }
    double r;
    if (hy_args_double("output-rate", text, &r, err) != HY_OK)
        return HY_EARG;
    if (!(r >= 0))
        return hy_err_set(err, HY_EARG, "--output-rate %s: expected rows a second >= 0 (0: every step) or 'events'",
                          text);
    *rate = r, *events = 0;
    return HY_OK;
}

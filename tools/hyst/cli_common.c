// Output helpers shared by the hyst commands (the messages and options are tools/common/tool_cli.c's).
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "cli.h"
#include "hyst/args.h"
#include "hyst/model.h"
#include "hyst/util.h"

int hy_cli_write_json(const char *cmd, const char *path, struct cJSON *doc, const char *protect)
{
    char *text = hy_json_print(doc);
    if (!text)
        return hy_cli_fail(cmd, "out of memory writing %s", path);
    hy_atomic a;
    int rc = tool_out_open(cmd, &a, path, protect, NULL);
    if (rc == HY_EXIT_OK) {
        fputs(text, a.fp);
        fputc('\n', a.fp);
        rc = tool_out_commit(cmd, &a);
    }
    free(text);
    return rc;
}

int hy_cli_fit_outputs(const char *cmd, const char *data, const char *out, const char *report)
{
    const char *paths[2] = {out, report}, *names[2] = {"-o", "--report"};
    if (tool_out_one_stdout(cmd, 2, paths, names) != HY_EXIT_OK || tool_out_distinct(cmd, 2, paths, names) != HY_EXIT_OK)
        return HY_EXIT_USAGE;
    for (int k = 0; k < 2 && strcmp(data, "-") != 0; k++)
        if (paths[k] && strcmp(paths[k], "-") != 0 && hy_same_file(paths[k], data))
            return hy_cli_fail(cmd, "%s: refusing to overwrite an input file", paths[k]);
    return HY_EXIT_OK;
}

/* Shared by the benchmarks that time a MuJoCo 2.2.2 peer in the same run (bench_contact, bench_dock_mujoco): MJCF
 * text built in memory and compiled from MuJoCo's virtual file system (the way tests/unit/test_body_mujoco.c loads
 * its trees), so no model file is written or read. */
#ifndef BENCH_MJCF_H
#define BENCH_MJCF_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mujoco/mujoco.h>

typedef struct mjcf_text {
    char   buf[65536];
    size_t len;
    int    full;   /* 1 when a put did not fit (the text is then incomplete: mjcf_load refuses it) */
} mjcf_text;

static void mjcf_put(mjcf_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void mjcf_put(mjcf_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->buf + t->len, sizeof t->buf - t->len, fmt, ap);
    va_end(ap);
    if (k < 0 || t->len + (size_t)k >= sizeof t->buf)
        t->full = 1;
    else
        t->len += (size_t)k;
}

// (text, message buffer) => the compiled model, or NULL with MuJoCo's message (or "text too long") in err
static mjModel *mjcf_load(const mjcf_text *t, char *err, int err_len)
{
    if (t->full) {
        snprintf(err, (size_t)err_len, "MJCF text longer than %zu bytes", sizeof t->buf);
        return NULL;
    }
    mjVFS *vfs = malloc(sizeof *vfs);
    if (!vfs) {
        snprintf(err, (size_t)err_len, "out of memory");
        return NULL;
    }
    mj_defaultVFS(vfs);
    mjModel *m = NULL;
    err[0] = 0;
    if (mj_makeEmptyFileVFS(vfs, "model.xml", (int)t->len) == 0) {
        int idx = mj_findFileVFS(vfs, "model.xml");
        memcpy(vfs->filedata[idx], t->buf, t->len);
        m = mj_loadXML("model.xml", vfs, err, err_len);
    }
    mj_deleteVFS(vfs);
    free(vfs);
    return m;
}

#endif

/* The files a sweep's runs read (issue 42 N16; docs/sweep.md §Nothing is lost): every law file of the base scenario
 * and of the string values of the varied keys, hashed when the plan is read. The hashes go into the plan's hash
 * (so --resume over a replaced law file is refused, naming it) and each run checks the law files it loads against
 * them before and after loading (so a file replaced during a sweep stops the sweep instead of mixing two laws). */
#include <stdlib.h>
#include <string.h>
#include "hyst/util.h"
#include "mech/dock.h"
#include "mech/sweep.h"

int mech_sweep_file_hash(const char *path, uint64_t *h, hy_err *err)
{
    char *t;
    size_t n;
    if (hy_read_text(path, "a law file (hyst-model JSON)", 0, &t, &n, err) != HY_OK)
        return err->code;
    uint64_t x = 0xcbf29ce484222325ULL;   /* FNV-1a 64 */
    for (size_t i = 0; i < n; i++)
        x = (x ^ (unsigned char)t[i]) * 0x100000001b3ULL;
    free(t);
    *h = x;
    return HY_OK;
}

static const mech_sweep_file *find(const mech_sweep_plan *p, const char *path)
{
    for (int k = 0; k < p->nfile; k++)
        if (strcmp(p->files[k].path, path) == 0)
            return &p->files[k];
    return NULL;
}

int mech_sweep_files_add(mech_sweep_plan *p, int n, const char *const *keys, const char *const *paths, hy_err *err)
{
    for (int s = 0; s < n; s++) {
        const char *path = paths[s];
        if (!path[0] || find(p, path))
            continue;
        if (p->nfile % 16 == 0) {
            mech_sweep_file *f = realloc(p->files, (size_t)(p->nfile + 16) * sizeof *f);
            if (!f)
                return hy_err_set(err, HY_ENOMEM, "out of memory");
            p->files = f;
        }
        mech_sweep_file *f = &p->files[p->nfile];
        snprintf(f->path, sizeof f->path, "%s", path);
        snprintf(f->key, sizeof f->key, "%s", keys[s]);
        if (mech_sweep_file_hash(path, &f->hash, err) != HY_OK)
            return err->code;
        p->nfile++;
    }
    return HY_OK;
}

int mech_sweep_check_files(const mech_sweep_plan *p, int n, const char *const *keys, const char *const *paths,
                           hy_err *err)
{
    for (int s = 0; s < n; s++) {
        const char *path = paths[s];
        if (!path[0])
            continue;
        const mech_sweep_file *f = find(p, path);
        uint64_t h = 0;
        if (!f)
            return hy_err_set(err, HY_EDATA, "%s: %s is not one of the files the plan was read with", keys[s], path);
        if (mech_sweep_file_hash(path, &h, err) != HY_OK || h != f->hash)
            return hy_err_set(err, HY_EDATA, "%s: %s changed since the sweep started (%s): the sweep stopped, "
                              "so that no table mixes two laws; restore the file and --resume, or start a new sweep "
                              "in another --out", keys[s], path, h ? "its content differs" : "it cannot be read");
    }
    return HY_OK;
}

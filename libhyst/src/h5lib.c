// The HDF5 library and ISA-L loaded on first use (see h5lib.h).
#define HY_H5LIB_IMPL
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "h5lib.h"

hy_h5lib hy_h5;

int hy_h5_load(const char *what, hy_err *err)
{
    static int loaded; /* 1 loaded, -1 failed (the message is made again) */
    if (loaded == 1)
        return HY_OK;
    /* the run-time name of Debian's serial build first; the development links as a fallback */
    static const char *const names[] = {"libhdf5_serial.so.103", "libhdf5_serial.so", "libhdf5.so.103", "libhdf5.so"};
    void *lib = NULL;
    for (size_t k = 0; !lib && k < sizeof names / sizeof *names; k++)
        lib = dlopen(names[k], RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return hy_err_set(err, HY_EIO, "%s: the HDF5 library is not installed (libhdf5_serial.so.103: Debian package "
                          "libhdf5-103-1; scripts/install-deps installs libhdf5-dev)", what);
    const char *missing = NULL;
#define HY_H5_SYM(f)                                                                                              \
    if (!missing && !(*(void **)&hy_h5.f = dlsym(lib, #f)))                                                        \
        missing = #f;
    HY_H5_FUNCS(HY_H5_SYM)
    HY_H5_IDS(HY_H5_SYM)
#undef HY_H5_SYM
    unsigned maj = 0, min = 0, rel = 0;
    if (!missing && (hy_h5.H5open() < 0 || hy_h5.H5get_libversion(&maj, &min, &rel) < 0))
        missing = "H5open";
    if (missing) {
        dlclose(lib);
        loaded = -1;
        return hy_err_set(err, HY_EIO, "%s: the HDF5 library found lacks %s", what, missing);
    }
    /* the ABI (struct layouts, hid_t ids) is stable within a major.minor series */
    if (maj != H5_VERS_MAJOR || min != H5_VERS_MINOR) {
        dlclose(lib);
        loaded = -1;
        return hy_err_set(err, HY_EIO, "%s: the HDF5 library found is %u.%u.%u, hystkit was built for %d.%d", what,
                          maj, min, rel, H5_VERS_MAJOR, H5_VERS_MINOR);
    }
    hy_h5.H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* errors are reported by hystkit, not printed by the library */
    loaded = 1;
    return HY_OK;
}

hy_isal hy_isal_fn;

int hy_isal_load(const char *what, hy_err *err)
{
    static int loaded;
    if (loaded)
        return HY_OK;
    void *lib = dlopen("libisal.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        lib = dlopen("libisal.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return hy_err_set(err, HY_EIO, "%s: the ISA-L library is not installed (libisal.so.2: Debian package libisal2; "
                          "scripts/install-deps installs libisal-dev)", what);
    *(void **)&hy_isal_fn.deflate_stateless_init = dlsym(lib, "isal_deflate_stateless_init");
    *(void **)&hy_isal_fn.deflate_stateless = dlsym(lib, "isal_deflate_stateless");
    if (!hy_isal_fn.deflate_stateless_init || !hy_isal_fn.deflate_stateless) {
        dlclose(lib);
        return hy_err_set(err, HY_EIO, "%s: the ISA-L library found lacks isal_deflate_stateless", what);
    }
    loaded = 1;
    return HY_OK;
}

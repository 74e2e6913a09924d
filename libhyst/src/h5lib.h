/* The HDF5 library (and ISA-L's deflate, below), loaded when a log is first written or read (dlopen), not at every
 * program start: linked directly, Debian's libhdf5 pulls in curl, TLS and Kerberos (its ROS3 driver) and ~10 ms of
 * symbol relocation to every run of hyst and mech, whether or not it touches an HDF5 file (the whole `mech beam sim`
 * takes ~40 ms).
 * Include after <hdf5.h>: the HDF5 calls and the predefined type ids of the file then go through the table
 * hy_h5, filled by hy_h5_load. Private to libhyst (h5log.c, h5read_table.c). */
#ifndef HYST_H5LIB_H
#define HYST_H5LIB_H

#include <hdf5.h>
#include <isa-l/igzip_lib.h>
#include "hyst/common.h"

#define HY_H5_FUNCS(X)                                                                                            \
    X(H5open) X(H5get_libversion) X(H5Eset_auto2) X(H5Ewalk2) X(H5free_memory)                                       \
    X(H5Fcreate) X(H5Fopen) X(H5Fclose) X(H5Fis_hdf5)                                                           \
    X(H5Aclose) X(H5Acreate2) X(H5Adelete) X(H5Aexists) X(H5Aget_space) X(H5Aget_type) X(H5Aopen) X(H5Aread)    \
    X(H5Awrite)                                                                                                  \
    X(H5Dclose) X(H5Dcreate2) X(H5Dget_space) X(H5Dget_type) X(H5Dopen2) X(H5Dread) X(H5Dset_extent)            \
    X(H5Dvlen_reclaim) X(H5Dwrite) X(H5Dwrite_chunk) X(H5Dget_chunk_storage_size) X(H5Dget_create_plist)         \
    X(H5Dget_storage_size) X(H5Pget_layout) X(H5Pget_chunk) X(H5Pget_nfilters) X(H5Pget_external_count)          \
    X(H5Iget_type) X(H5Lexists) X(H5Oclose) X(H5Oexists_by_name) X(H5Oopen)                                      \
    X(H5Pclose) X(H5Pcreate) X(H5Pset_chunk) X(H5Pset_create_intermediate_group) X(H5Pset_deflate)              \
    X(H5Pset_shuffle)                                                                                            \
    X(H5Sclose) X(H5Screate) X(H5Screate_simple) X(H5Sget_simple_extent_dims) X(H5Sget_simple_extent_ndims)     \
    X(H5Sget_simple_extent_npoints) X(H5Sselect_hyperslab)                                                       \
    X(H5Tclose) X(H5Tcopy) X(H5Tcreate) X(H5Tget_class) X(H5Tget_cset) X(H5Tget_member_class)                   \
    X(H5Tget_member_name) X(H5Tget_nmembers) X(H5Tinsert) X(H5Tis_variable_str) X(H5Tset_cset) X(H5Tset_size)    \
    X(H5Tget_size) X(H5Tget_member_type) X(H5Tget_member_offset) X(H5Tget_strpad)

/* the predefined ids the code uses: global variables of the library, valid after H5open */
#define HY_H5_IDS(X)                                                                                              \
    X(H5T_NATIVE_DOUBLE_g) X(H5T_IEEE_F64LE_g) X(H5T_C_S1_g) X(H5P_CLS_DATASET_CREATE_ID_g)                      \
    X(H5P_CLS_LINK_CREATE_ID_g)

typedef struct hy_h5lib {
#define HY_H5_FN(f) __typeof__(f) *f;
    HY_H5_FUNCS(HY_H5_FN)
#undef HY_H5_FN
#define HY_H5_ID(v) hid_t *v;
    HY_H5_IDS(HY_H5_ID)
#undef HY_H5_ID
} hy_h5lib;

__attribute__((visibility("hidden"))) extern hy_h5lib hy_h5;

/* () => the library loaded once (libhdf5_serial.so.103, else libhdf5_serial.so, libhdf5.so), its version checked
 * against the headers the code was built with; HY_EIO naming what is missing otherwise (`what` starts it) */
__attribute__((visibility("hidden"))) int hy_h5_load(const char *what, hy_err *err);

/* ISA-L's deflate (Intel's igzip), which h5log.c's byte-plane streams use: loaded with the first table that needs it,
 * for the same reason (a library only an HDF5 log uses; Debian ships no static archive of it) */
typedef struct hy_isal {
    __typeof__(isal_deflate_stateless_init) *deflate_stateless_init;
    __typeof__(isal_deflate_stateless) *deflate_stateless;
} hy_isal;

__attribute__((visibility("hidden"))) extern hy_isal hy_isal_fn;

/* () => ISA-L loaded once (libisal.so.2, else libisal.so); HY_EIO naming the package otherwise (`what` starts it) */
__attribute__((visibility("hidden"))) int hy_isal_load(const char *what, hy_err *err);

#ifndef HY_H5LIB_IMPL
/* H5F_ACC_TRUNC and the like call H5check_version, which aborts on any release difference: hy_h5_load checks
 * major.minor instead */
#undef H5CHECK
#define H5CHECK
#define H5open hy_h5.H5open
#define H5get_libversion hy_h5.H5get_libversion
#define H5Eset_auto2 hy_h5.H5Eset_auto2
#define H5free_memory hy_h5.H5free_memory
#define H5Ewalk2 hy_h5.H5Ewalk2
#define H5Dget_create_plist hy_h5.H5Dget_create_plist
#define H5Dget_storage_size hy_h5.H5Dget_storage_size
#define H5Pget_layout hy_h5.H5Pget_layout
#define H5Pget_chunk hy_h5.H5Pget_chunk
#define H5Pget_nfilters hy_h5.H5Pget_nfilters
#define H5Pget_external_count hy_h5.H5Pget_external_count
#define H5Tget_size hy_h5.H5Tget_size
#define H5Tget_member_type hy_h5.H5Tget_member_type
#define H5Tget_member_offset hy_h5.H5Tget_member_offset
#define H5Tget_strpad hy_h5.H5Tget_strpad
#define H5Fcreate hy_h5.H5Fcreate
#define H5Fopen hy_h5.H5Fopen
#define H5Fclose hy_h5.H5Fclose
#define H5Fis_hdf5 hy_h5.H5Fis_hdf5
#define H5Aclose hy_h5.H5Aclose
#define H5Acreate2 hy_h5.H5Acreate2
#define H5Adelete hy_h5.H5Adelete
#define H5Aexists hy_h5.H5Aexists
#define H5Aget_space hy_h5.H5Aget_space
#define H5Aget_type hy_h5.H5Aget_type
#define H5Aopen hy_h5.H5Aopen
#define H5Aread hy_h5.H5Aread
#define H5Awrite hy_h5.H5Awrite
#define H5Dclose hy_h5.H5Dclose
#define H5Dcreate2 hy_h5.H5Dcreate2
#define H5Dget_space hy_h5.H5Dget_space
#define H5Dget_type hy_h5.H5Dget_type
#define H5Dopen2 hy_h5.H5Dopen2
#define H5Dread hy_h5.H5Dread
#define H5Dset_extent hy_h5.H5Dset_extent
#define H5Dvlen_reclaim hy_h5.H5Dvlen_reclaim
#define H5Dwrite hy_h5.H5Dwrite
#define H5Dwrite_chunk hy_h5.H5Dwrite_chunk
#define H5Dget_chunk_storage_size hy_h5.H5Dget_chunk_storage_size
#define H5Iget_type hy_h5.H5Iget_type
#define H5Lexists hy_h5.H5Lexists
#define H5Oclose hy_h5.H5Oclose
#define H5Oexists_by_name hy_h5.H5Oexists_by_name
#define H5Oopen hy_h5.H5Oopen
#define H5Pclose hy_h5.H5Pclose
#define H5Pcreate hy_h5.H5Pcreate
#define H5Pset_chunk hy_h5.H5Pset_chunk
#define H5Pset_create_intermediate_group hy_h5.H5Pset_create_intermediate_group
#define H5Pset_deflate hy_h5.H5Pset_deflate
#define H5Pset_shuffle hy_h5.H5Pset_shuffle
#define H5Sclose hy_h5.H5Sclose
#define H5Screate hy_h5.H5Screate
#define H5Screate_simple hy_h5.H5Screate_simple
#define H5Sget_simple_extent_dims hy_h5.H5Sget_simple_extent_dims
#define H5Sget_simple_extent_ndims hy_h5.H5Sget_simple_extent_ndims
#define H5Sget_simple_extent_npoints hy_h5.H5Sget_simple_extent_npoints
#define H5Sselect_hyperslab hy_h5.H5Sselect_hyperslab
#define H5Tclose hy_h5.H5Tclose
#define H5Tcopy hy_h5.H5Tcopy
#define H5Tcreate hy_h5.H5Tcreate
#define H5Tget_class hy_h5.H5Tget_class
#define H5Tget_cset hy_h5.H5Tget_cset
#define H5Tget_member_class hy_h5.H5Tget_member_class
#define H5Tget_member_name hy_h5.H5Tget_member_name
#define H5Tget_nmembers hy_h5.H5Tget_nmembers
#define H5Tinsert hy_h5.H5Tinsert
#define H5Tis_variable_str hy_h5.H5Tis_variable_str
#define H5Tset_cset hy_h5.H5Tset_cset
#define H5Tset_size hy_h5.H5Tset_size
#undef H5T_NATIVE_DOUBLE
#define H5T_NATIVE_DOUBLE (*hy_h5.H5T_NATIVE_DOUBLE_g)
#undef H5T_IEEE_F64LE
#define H5T_IEEE_F64LE (*hy_h5.H5T_IEEE_F64LE_g)
#undef H5T_C_S1
#define H5T_C_S1 (*hy_h5.H5T_C_S1_g)
#undef H5P_DATASET_CREATE
#define H5P_DATASET_CREATE (*hy_h5.H5P_CLS_DATASET_CREATE_ID_g)
#undef H5P_LINK_CREATE
#define H5P_LINK_CREATE (*hy_h5.H5P_CLS_LINK_CREATE_ID_g)
#endif

#endif

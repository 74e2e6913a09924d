/* A bench record read from a table of an HDF5 file ("FILE.h5:/records/spring1"), so the element records of an
 * HDF5 log need no CSV: the columns are chosen as hy_csv_read chooses them (by 1-based index, by name, else
 * detected from the names), and the series is the one hy_csv_read gives for the same table written as CSV
 * (see hyst/h5log.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "h5lib.h"
#include "csvread_internal.h"
#include "hyst/h5log.h"

#define NONE (-1)

int hy_h5_split_path(const char *arg, char *file, size_t flen, const char **dset)
{
    const char *c = strstr(arg, ":/");
    struct stat st;
    if (!c || c == arg || stat(arg, &st) == 0 || (size_t)(c - arg) >= flen)
        return 0;
    memcpy(file, arg, (size_t)(c - arg));
    file[c - arg] = '\0';
    *dset = c + 1;
    return 1;
}

typedef struct table {
    const char *src;       /* "FILE:DSET" for messages */
    int ncol;
    char names[HY_H5_MAX_COLS][64];
    char units[HY_H5_MAX_COLS][32];
} table;

// (spec: 1-based index or name) => column, or NONE with err set
static int find_col(const table *tb, const char *spec, const char *role, hy_err *err)
{
    const char *p = spec + strspn(spec, " ");
    if (*p && strspn(p, "0123456789") == strlen(p)) {
        long idx = strtol(p, NULL, 10);
        if (idx < 1 || idx > tb->ncol) {
            hy_err_set(err, HY_EDATA, "%s: found %d column%s, expected a column %s for the %s (columns 1 to %d)",
                       tb->src, tb->ncol, tb->ncol == 1 ? "" : "s", p, role, tb->ncol);
            return NONE;
        }
        return (int)idx - 1;
    }
    int hit = NONE, hits = 0;
    for (int i = 0; i < tb->ncol; i++)
        if (strcmp(tb->names[i], spec) == 0)
            return i;
    for (int i = 0; i < tb->ncol; i++)
        if (hy_csv_name_equal(tb->names[i], spec))
            hit = hit == NONE ? i : hit, hits++;
    if (hits == 1)
        return hit;
    char list[300] = "";
    for (int i = 0; i < tb->ncol && strlen(list) < 200; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", tb->names[i]);
    hy_err_set(err, HY_EDATA, "%s: found %s column named '%.60s' for the %s, expected one of: %s", tb->src,
               hits ? "more than one" : "no", spec, role, list);
    return NONE;
}

// (table, options) => col[3] (x, y, t; NONE when unused) as hy_csv_read chooses them
static int choose(const table *tb, const hy_csv_opts *o, int col[3], hy_err *err)
{
    const char *spec[3] = {o->x_col, o->y_col, o->t_col}, *role[3] = {"displacement", "force", "time"};
    col[0] = col[1] = col[2] = NONE;
    for (int k = 0; k < 3; k++)
        if (spec[k] && spec[k][0] && (col[k] = find_col(tb, spec[k], role[k], err)) == NONE)
            return err->code;
    int wanted = o->no_force && col[1] == NONE ? 1 : 2;
    for (int k = 0; k < wanted; k++) /* detected by name among the free columns, else the first free one */
        for (int pass = 0; pass < 3 && col[k] == NONE; pass++)
            for (int i = 0; i < tb->ncol && col[k] == NONE; i++) {
                int kind = hy_csv_name_kind(tb->names[i]);
                int free_ = i != col[0] && i != col[1] && i != col[2];
                if (free_ && (pass == 2 || (pass == 0 && kind == (k == 0 ? HY_CSV_KIND_DISP : HY_CSV_KIND_FORCE)) ||
                              (pass == 1 && kind != HY_CSV_KIND_TIME)))
                    col[k] = i;
            }
    if (col[0] == NONE || (wanted == 2 && col[1] == NONE))
        return hy_err_set(err, HY_EDATA, "%s: found %d column%s, expected %d (displacement%s)", tb->src, tb->ncol,
                          tb->ncol == 1 ? "" : "s", wanted, wanted == 2 ? " and force" : "");
    return HY_OK;
}

// (dataset, attribute holding one string per column) => into out[k] (left "" when absent or of another shape)
static void read_strings(hid_t d, const char *name, int n, char (*out)[32], size_t len, char (*out64)[64])
{
    if (H5Aexists(d, name) <= 0)
        return;
    hid_t a = H5Aopen(d, name, H5P_DEFAULT);
    hid_t sp = H5Aget_space(a), ft = H5Aget_type(a);
    hssize_t np = H5Sget_simple_extent_npoints(sp);
    if (np == n && H5Tget_class(ft) == H5T_STRING && H5Tis_variable_str(ft) > 0) {
        char **v = calloc((size_t)n, sizeof *v);
        hid_t mt = H5Tcopy(H5T_C_S1);
        H5Tset_size(mt, H5T_VARIABLE);
        H5Tset_cset(mt, H5Tget_cset(ft));
        if (v && H5Aread(a, mt, v) >= 0) {
            for (int k = 0; k < n; k++)
                snprintf(out ? out[k] : out64[k], len, "%s", v[k] ? v[k] : "");
            H5Dvlen_reclaim(mt, sp, H5P_DEFAULT, v);
        }
        H5Tclose(mt);
        free(v);
    }
    H5Tclose(ft);
    H5Sclose(sp);
    H5Aclose(a);
}

// (open file, dataset path) => 1 when every link on the path exists (H5Dopen of "/a/b" fails loudly otherwise)
static int path_exists(hid_t f, const char *dpath)
{
    char buf[1024];
    if (strlen(dpath) >= sizeof buf || dpath[0] != '/' || !dpath[1])
        return 0;
    snprintf(buf, sizeof buf, "%s", dpath);
    for (char *p = buf + 1;; p++)
        if (*p == '/' || !*p) {
            char c = *p;
            *p = '\0';
            if (H5Lexists(f, buf, H5P_DEFAULT) <= 0)
                return 0;
            if (!c)
                return 1;
            *p = c;
        }
}

int hy_h5_read_series(const char *file, const char *dpath, const hy_csv_opts *o, hy_series *out, hy_err *err)
{
    hy_csv_opts def;
    if (!o) {
        hy_csv_opts_default(&def);
        o = &def;
    }
    hy_series_init(out);
    char src[sizeof out->source];
    snprintf(src, sizeof src, "%s:%s", file, dpath);
    struct stat st;
    if (stat(file, &st) != 0)
        return hy_err_set(err, HY_EIO, "%s: cannot open %s: %s", src, file, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return hy_err_set(err, HY_EIO, "%s: %s is not a regular file, expected an HDF5 file", src, file);
    int rc = hy_h5_load(src, err);
    if (rc != HY_OK)
        return rc;
    if (H5Fis_hdf5(file) <= 0)
        return hy_err_set(err, HY_EPARSE, "%s: %s is not an HDF5 file (no HDF5 signature)", src, file);
    hid_t f = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return hy_err_set(err, HY_EIO, "%s: cannot open the HDF5 file %s", src, file);
    hid_t d = -1, sp = -1, ft = -1, mt = -1;
    double *buf = NULL;
    table tb = {src, 0, {{0}}, {{0}}};
    if (!path_exists(f, dpath) || H5Oexists_by_name(f, dpath, H5P_DEFAULT) <= 0) {
        rc = hy_err_set(err, HY_EDATA, "%s: no dataset %s in %s", src, dpath, file);
        goto done;
    }
    d = H5Oopen(f, dpath, H5P_DEFAULT);
    if (d >= 0 && H5Iget_type(d) != H5I_DATASET) {
        H5Oclose(d);
        d = -1;
        rc = hy_err_set(err, HY_EDATA, "%s: is a group, expected a dataset (a table such as /records/spring1)", src);
        goto done;
    }
    sp = d >= 0 ? H5Dget_space(d) : -1;
    ft = d >= 0 ? H5Dget_type(d) : -1;
    if (d < 0 || sp < 0 || ft < 0) {
        rc = hy_err_set(err, HY_EIO, "%s: cannot read the dataset", src);
        goto done;
    }
    int rank = H5Sget_simple_extent_ndims(sp);
    hsize_t dims[2] = {0, 0};
    if (rank >= 1 && rank <= 2)
        H5Sget_simple_extent_dims(sp, dims, NULL);
    H5T_class_t cls = H5Tget_class(ft);
    int compound = cls == H5T_COMPOUND && rank == 1;
    if (compound) {
        tb.ncol = H5Tget_nmembers(ft);
        for (int k = 0; k < tb.ncol && k < HY_H5_MAX_COLS; k++) {
            H5T_class_t mc = H5Tget_member_class(ft, (unsigned)k);
            char *nm = H5Tget_member_name(ft, (unsigned)k);
            snprintf(tb.names[k], sizeof tb.names[k], "%s", nm ? nm : "");
            H5free_memory(nm);
            if (mc != H5T_FLOAT && mc != H5T_INTEGER) {
                rc = hy_err_set(err, HY_EDATA, "%s: column '%s' is not numeric, expected a table of numbers", src,
                                tb.names[k]);
                goto done;
            }
        }
    } else if ((cls == H5T_FLOAT || cls == H5T_INTEGER) && rank == 2) {
        tb.ncol = (int)(dims[1] < HY_H5_MAX_COLS + 1 ? dims[1] : HY_H5_MAX_COLS + 1);
        read_strings(d, "columns", tb.ncol, NULL, sizeof tb.names[0], tb.names);
    } else {
        rc = hy_err_set(err, HY_EDATA, "%s: found a %d-D dataset of %s, expected a table: a 1-D dataset of a compound "
                                       "type with numeric columns (t, q, Q), or a 2-D numeric dataset",
                        src, rank, cls == H5T_COMPOUND ? "compounds" : cls == H5T_STRING ? "strings" : "numbers");
        goto done;
    }
    if (tb.ncol < 1 || tb.ncol > HY_H5_MAX_COLS) {
        rc = hy_err_set(err, HY_EDATA, "%s: found %d columns, expected 1..%d", src, tb.ncol, HY_H5_MAX_COLS);
        goto done;
    }
    read_strings(d, "units", tb.ncol, tb.units, sizeof tb.units[0], NULL);
    int col[3];
    if ((rc = choose(&tb, o, col, err)) != HY_OK)
        goto done;
    size_t n = (size_t)dims[0];
    if (n == 0) {
        rc = hy_err_set(err, HY_EDATA, "%s: found no rows, expected at least one sample", src);
        goto done;
    }
    /* the whole table as doubles, one row after the other (the series holds as much) */
    buf = malloc(n * (size_t)tb.ncol * sizeof *buf);
    if (!buf) {
        rc = hy_err_set(err, HY_ENOMEM, "%s: out of memory (%zu rows)", src, n);
        goto done;
    }
    if (compound) {
        mt = H5Tcreate(H5T_COMPOUND, (size_t)tb.ncol * sizeof(double));
        for (int k = 0; k < tb.ncol; k++)
            H5Tinsert(mt, tb.names[k], (size_t)k * sizeof(double), H5T_NATIVE_DOUBLE);
    } else {
        mt = H5Tcopy(H5T_NATIVE_DOUBLE);
    }
    if (H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) {
        rc = hy_err_set(err, HY_EIO, "%s: read error (a damaged file or an unavailable compression filter)", src);
        goto done;
    }
    int has_t = col[2] != NONE;
    double last_t = 0;
    for (size_t i = 0; i < n && rc == HY_OK; i++) {
        const double *row = buf + i * (size_t)tb.ncol;
        double t = has_t ? row[col[2]] : 0, q = row[col[0]] * o->x_scale;
        double Q = col[1] != NONE ? row[col[1]] * o->y_scale : 0;
        if (!isfinite(row[col[0]]) || (col[1] != NONE && !isfinite(row[col[1]])) || !isfinite(t))
            rc = hy_err_set(err, HY_EPARSE, "%s: row %zu: found NaN or infinity, expected finite numbers", src, i + 1);
        else if (!(fabs(q) <= HY_CSV_MAX_ABS) || !(fabs(Q) <= HY_CSV_MAX_ABS))
            rc = hy_err_set(err, HY_EDATA, "%s: row %zu: found a magnitude above %g (after the scale factors), "
                                           "expected at most %g", src, i + 1, HY_CSV_MAX_ABS, HY_CSV_MAX_ABS);
        else if (has_t && o->require_time_increasing && i > 0 && t < last_t)
            rc = hy_err_set(err, HY_EDATA, "%s: row %zu: found time %.10g after %.10g, expected time that does not "
                                           "go backwards", src, i + 1, t, last_t);
        else
            rc = hy_series_push(out, has_t, t, q, Q, i + 1, err);
        last_t = t;
    }
    if (rc == HY_OK) {
        snprintf(out->source, sizeof out->source, "%s", src);
        snprintf(out->q_name, sizeof out->q_name, "%s", tb.names[col[0]]);
        snprintf(out->q_unit, sizeof out->q_unit, "%s", tb.units[col[0]]);
        if (col[1] != NONE) {
            snprintf(out->Q_name, sizeof out->Q_name, "%s", tb.names[col[1]]);
            snprintf(out->Q_unit, sizeof out->Q_unit, "%s", tb.units[col[1]]);
        }
        if (has_t) {
            snprintf(out->t_name, sizeof out->t_name, "%s", tb.names[col[2]]);
            snprintf(out->t_unit, sizeof out->t_unit, "%s", tb.units[col[2]]);
        }
    }
done:
    if (rc != HY_OK)
        hy_series_free(out);
    free(buf);
    if (mt >= 0)
        H5Tclose(mt);
    if (ft >= 0)
        H5Tclose(ft);
    if (sp >= 0)
        H5Sclose(sp);
    if (d >= 0)
        H5Oclose(d);
    H5Fclose(f);
    return rc;
}

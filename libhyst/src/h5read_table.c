/* The libhdf5 side of the HDF5 table reader, run in the child process of h5read.c (h5read_internal.h): opens the
 * file, checks what the table declares before asking libhdf5 to read it (dataspace, types, layout, the rows
 * against the bytes the file holds, the string attributes' shapes), chooses the columns as hy_csv_read does, and
 * streams the chosen columns (or every column: hy_h5_read_table) to the caller HY_H5R_CHUNK_ROWS rows at a time
 * (memory does not grow with the table); or reads one string attribute (hy_h5_read_attr_text).
 * Everything it asks libhdf5 to do is announced first (HY_H5R_STAGE), so that a crash or a hang inside libhdf5 on
 * a damaged file is reported with what it was doing (issue 42, N13, N19, N20, N21). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "h5lib.h"
#include "h5read_internal.h"
#include "hyst/h5log.h"

#define NONE (-1)
#define MAX_STRING 4096 /* a fixed-length string of the columns/units attributes: at most this many bytes */

typedef struct table {
    const char *src;                /* "FILE:DSET" for messages */
    int ncol;
    char *names[HY_H5_MAX_COLS];    /* whole, as in the file (a compound read matches members by these) */
    char *units[HY_H5_MAX_COLS];
} table;

static int fd_out = -1;

static void send_msg(int type, const void *p, size_t len)
{
    unsigned char h[5] = {(unsigned char)type};
    uint32_t n = (uint32_t)len;
    memcpy(h + 1, &n, 4);
    const unsigned char *parts[2] = {h, p};
    size_t lens[2] = {5, len};
    for (int k = 0; k < 2; k++)
        for (size_t off = 0; off < lens[k];) {
            ssize_t w = write(fd_out, parts[k] + off, lens[k] - off);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                _exit(3); /* the caller is gone or stopped reading */
            off += (size_t)w;
        }
}

static void stage(const char *what)
{
    send_msg(HY_H5R_STAGE, what, strlen(what));
}

static _Noreturn void finish(int rc, const hy_err *err)
{
    char buf[4 + sizeof err->msg];
    int32_t c = rc;
    memcpy(buf, &c, 4);
    size_t n = rc == HY_OK ? 0 : strnlen(err->msg, sizeof err->msg - 1);
    memcpy(buf + 4, err->msg, n);
    send_msg(HY_H5R_END, buf, 4 + n);
    _exit(0);
}

static char *dup_text(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d)
        _exit(4);
    return d;
}

// (dataset, attribute holding one string per column) => out[k] (left "" when absent or of another shape)
static int read_strings(hid_t d, const char *name, int n, char **out, const char *src, hy_err *err)
{
    char what[80];
    snprintf(what, sizeof what, "reading the '%s' attribute", name);
    stage(what);
    if (H5Aexists(d, name) <= 0)
        return HY_OK;
    hid_t a = H5Aopen(d, name, H5P_DEFAULT);
    hid_t sp = a >= 0 ? H5Aget_space(a) : -1, ft = a >= 0 ? H5Aget_type(a) : -1, mt = -1;
    int rc = HY_OK;
    if (a < 0 || sp < 0 || ft < 0) {
        rc = hy_err_set(err, HY_EDATA, "%s: the '%s' attribute cannot be read (a damaged file)", src, name);
        goto done;
    }
    /* one string per column, nothing else: a 1-D attribute of exactly n strings of a bounded fixed size, or of
       variable-length strings (read only after this check: libhdf5 follows their heap references) */
    hsize_t dims[1] = {0};
    int rank = H5Sget_simple_extent_ndims(sp), var = H5Tis_variable_str(ft);
    size_t fixed = var == 0 ? H5Tget_size(ft) : 0;
    if (rank != 1 || H5Sget_simple_extent_dims(sp, dims, NULL) != 1 || dims[0] != (hsize_t)n ||
        H5Tget_class(ft) != H5T_STRING || var < 0 || (var == 0 && (fixed < 1 || fixed > MAX_STRING)))
        goto done; /* of another shape: ignored, as before (names by index, units empty) */
    mt = H5Tcopy(H5T_C_S1);
    if (mt < 0 || H5Tset_size(mt, var ? H5T_VARIABLE : fixed + 1) < 0 || H5Tset_cset(mt, H5Tget_cset(ft)) < 0) {
        rc = hy_err_set(err, HY_EDATA, "%s: the '%s' attribute has a string type that cannot be read", src, name);
        goto done;
    }
    if (var) {
        char **v = calloc((size_t)n, sizeof *v);
        if (!v || H5Aread(a, mt, v) < 0) {
            free(v);
            rc = hy_err_set(err, HY_EDATA, "%s: the '%s' attribute cannot be read (a damaged file)", src, name);
            goto done;
        }
        for (int k = 0; k < n; k++) {
            free(out[k]);
            out[k] = dup_text(v[k]);
        }
        H5Dvlen_reclaim(mt, sp, H5P_DEFAULT, v);
        free(v);
    } else {
        char *v = calloc((size_t)n, fixed + 1);
        if (!v || H5Aread(a, mt, v) < 0) {
            free(v);
            rc = hy_err_set(err, HY_EDATA, "%s: the '%s' attribute cannot be read (a damaged file)", src, name);
            goto done;
        }
        for (int k = 0; k < n; k++) {
            v[(size_t)k * (fixed + 1) + fixed] = '\0';
            free(out[k]);
            out[k] = dup_text(v + (size_t)k * (fixed + 1));
        }
        free(v);
    }
done:
    if (mt >= 0)
        H5Tclose(mt);
    if (ft >= 0)
        H5Tclose(ft);
    if (sp >= 0)
        H5Sclose(sp);
    if (a >= 0)
        H5Aclose(a);
    return rc;
}

// (spec: 1-based index or name) => column, or NONE with err set
static int find_col(const table *tb, const char *spec, const char *role, hy_err *err)
{
    const char *p = spec + strspn(spec, " ");
    if (*p && strspn(p, "0123456789") == strlen(p)) {
        long idx = strlen(p) > 6 ? 0 : strtol(p, NULL, 10);
        if (idx < 1 || idx > tb->ncol) {
            hy_err_set(err, HY_EDATA, "%s: found %d column%s, expected a column %.20s for the %s (columns 1 to %d)",
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
    char list[300] = "", one[64];
    for (int i = 0; i < tb->ncol && strlen(list) < 200; i++) {
        hy_msg_text(one, sizeof one, tb->names[i], strlen(tb->names[i]), 40);
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", one);
    }
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

// (a numeric type of the file) => 1 when libhdf5 converts it to double: an integer of 1..8 bytes, a float of 2..16
static int numeric_ok(hid_t t)
{
    H5T_class_t c = H5Tget_class(t);
    size_t s = H5Tget_size(t);
    return (c == H5T_INTEGER && s >= 1 && s <= 8) || (c == H5T_FLOAT && s >= 2 && s <= 16);
}

/* libhdf5's reason for the last failure (the innermost message of its error stack, such as "truncated file:
 * eof = 1024, sblock->base_addr = 0, stored_eof = 88831") */
static herr_t deepest(unsigned n, const H5E_error2_t *e, void *data)
{
    (void)n;
    if (e->desc && e->desc[0] && !((char *)data)[0])
        hy_msg_text(data, 200, e->desc, strlen(e->desc), 190);
    return 0;
}

/* (table's declared rows, bytes per row, dataset) => HY_OK when the file can hold them (N21: a 2.4 KB file
 * declaring 1e8 rows took 4.7 GB): the data's storage, at most the file's size, times deflate's largest ratio
 * when filters are set, plus one chunk (a last partial chunk); virtual and external layouts are refused (they read
 * other files) */
static int plausible(hid_t d, uint64_t rows, size_t row_bytes, const char *src, const struct stat *st, hy_err *err)
{
    stage("checking the table's layout and storage");
    uint64_t declared;
    if (__builtin_mul_overflow(rows, (uint64_t)row_bytes, &declared))
        return hy_err_set(err, HY_EDATA, "%s: declares %llu rows of %zu bytes: more bytes than a file can hold "
                          "(a damaged file)", src, (unsigned long long)rows, row_bytes);
    hid_t pl = H5Dget_create_plist(d);
    if (pl < 0)
        return hy_err_set(err, HY_EDATA, "%s: the table's storage properties cannot be read (a damaged file)", src);
    H5D_layout_t lay = H5Pget_layout(pl);
    int nfilt = H5Pget_nfilters(pl), next = H5Pget_external_count(pl);
    hsize_t cd[2] = {0, 0};
    uint64_t chunk = 0;
    int cr = lay == H5D_CHUNKED ? H5Pget_chunk(pl, 2, cd) : 0;
    H5Pclose(pl);
    if (lay == H5D_CHUNKED) {
        /* a last partial chunk: at most its rows times a whole row; libhdf5 allocates a whole chunk to read it */
        if (cr < 1 || cr > 2)
            return hy_err_set(err, HY_EDATA, "%s: the table's chunk dimensions cannot be read (a damaged file)", src);
        if (__builtin_mul_overflow((uint64_t)cd[0], (uint64_t)row_bytes, &chunk) || chunk > HY_H5R_MAX_CHUNK)
            return hy_err_set(err, HY_EDATA, "%s: declares chunks of %llu rows of %zu bytes, expected at most %d MiB "
                              "a chunk (libhdf5 allocates a whole chunk to read it; a damaged file)", src,
                              (unsigned long long)cd[0], row_bytes, HY_H5R_MAX_CHUNK >> 20);
    }
    if (lay != H5D_COMPACT && lay != H5D_CONTIGUOUS && lay != H5D_CHUNKED)
        return hy_err_set(err, HY_EDATA, "%s: is a %s dataset, expected a table stored in this file (compact, "
                          "contiguous or chunked)", src, lay == H5D_VIRTUAL ? "virtual" : "damaged");
    if (next != 0)
        return hy_err_set(err, HY_EDATA, "%s: stores its data in %d external file%s, expected a table stored in this "
                          "file", src, next, next == 1 ? "" : "s");
    if (nfilt < 0)
        return hy_err_set(err, HY_EDATA, "%s: the table's filters cannot be read (a damaged file)", src);
    uint64_t stored = H5Dget_storage_size(d), fsize = (uint64_t)st->st_size;
    uint64_t avail = stored < fsize ? stored : fsize, limit;
    if (__builtin_mul_overflow(avail, (uint64_t)(nfilt ? HY_H5R_MAX_RATIO : 1), &limit) ||
        __builtin_add_overflow(limit, chunk, &limit))
        limit = UINT64_MAX;
    if (declared > limit)
        return hy_err_set(err, HY_EDATA, "%s: declares %llu rows of %zu bytes (%llu bytes), but its data take %llu bytes "
                          "of a %llu-byte file: room for at most %llu rows%s (a damaged or truncated file)", src,
                          (unsigned long long)rows, row_bytes, (unsigned long long)declared, (unsigned long long)stored,
                          (unsigned long long)fsize, (unsigned long long)(limit / row_bytes),
                          nfilt ? " at deflate's largest ratio 1032:1" : "");
    return HY_OK;
}

// (open file, object path, attribute name, "FILE:OBJ") => the attribute's text sent (HY_H5R_TEXT); never returns
static _Noreturn void send_attr(hid_t f, const char *obj, const char *attr, const char *src, hy_err *err)
{
    char what[96];
    snprintf(what, sizeof what, "reading the '%.40s' attribute", attr);
    stage(what);
    hid_t o = strcmp(obj, "/") == 0 || path_exists(f, obj) ? H5Oopen(f, obj, H5P_DEFAULT) : -1;
    if (o < 0 || H5Aexists(o, attr) <= 0)
        finish(hy_err_set(err, HY_EDATA, "%s: no attribute '%s' (not a log that holds it)", src, attr), err);
    hid_t a = H5Aopen(o, attr, H5P_DEFAULT);
    hid_t sp = a >= 0 ? H5Aget_space(a) : -1, ft = a >= 0 ? H5Aget_type(a) : -1, mt = -1;
    if (a < 0 || sp < 0 || ft < 0)
        finish(hy_err_set(err, HY_EDATA, "%s: the '%s' attribute cannot be read (a damaged file)", src, attr), err);
    /* one string, nothing else: a scalar of a variable-length string or of a fixed size up to HY_H5R_MAX_TEXT
       (checked before reading: libhdf5 follows a variable-length string's heap reference) */
    int var = H5Tis_variable_str(ft);
    size_t fixed = var == 0 ? H5Tget_size(ft) : 0;
    if (H5Sget_simple_extent_ndims(sp) != 0 || H5Tget_class(ft) != H5T_STRING || var < 0 ||
        (var == 0 && (fixed < 1 || fixed > HY_H5R_MAX_TEXT)))
        finish(hy_err_set(err, HY_EDATA, "%s: the '%s' attribute is not one string of at most %d bytes", src, attr,
                          HY_H5R_MAX_TEXT), err);
    mt = H5Tcopy(H5T_C_S1);
    if (mt < 0 || H5Tset_size(mt, var ? H5T_VARIABLE : fixed + 1) < 0 || H5Tset_cset(mt, H5Tget_cset(ft)) < 0)
        finish(hy_err_set(err, HY_EDATA, "%s: the '%s' attribute has a string type that cannot be read", src, attr),
               err);
    char *text = NULL, *fix = var ? NULL : calloc(1, fixed + 1);
    if ((var && H5Aread(a, mt, &text) < 0) || (!var && (!fix || H5Aread(a, mt, fix) < 0)))
        finish(hy_err_set(err, HY_EDATA, "%s: the '%s' attribute cannot be read (a damaged file)", src, attr), err);
    const char *t = var ? text : fix;
    size_t n = t ? strnlen(t, (size_t)HY_H5R_MAX_TEXT + 1) : 0;
    if (!t) /* a null dataspace: no string at all */
        finish(hy_err_set(err, HY_EDATA, "%s: the '%s' attribute holds no string", src, attr), err);
    if (n > HY_H5R_MAX_TEXT)
        finish(hy_err_set(err, HY_EDATA, "%s: the '%s' attribute holds more than %d bytes", src, attr,
                          HY_H5R_MAX_TEXT), err);
    send_msg(HY_H5R_TEXT, t, n);
    finish(HY_OK, err);
}

_Noreturn void hy_h5r_child(const char *file, hy_h5r_kind kind, const char *dpath, const char *attr,
                            const hy_csv_opts *o, int fd)
{
    fd_out = fd;
    hy_err e = {0}, *err = &e;
    char src[256];
    snprintf(src, sizeof src, "%s:%s", file, dpath);
    struct stat st;
    if (stat(file, &st) != 0)
        finish(hy_err_set(err, HY_EIO, "%s: cannot open %s: %s", src, file, strerror(errno)), err);
    stage("checking the HDF5 signature");
    if (H5Fis_hdf5(file) <= 0)
        finish(hy_err_set(err, HY_EPARSE, "%s: %s is not an HDF5 file (no HDF5 signature)", src, file), err);
    stage("opening the file");
    hid_t f = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) {
        char why[200] = "";
        H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, deepest, why);
        const char *se = strstr(why, "stored_eof = ");
        unsigned long long want = 0;
        if (strstr(why, "truncated file") && se && sscanf(se, "stored_eof = %llu", &want) == 1)
            finish(hy_err_set(err, HY_EIO, "%s: cannot open the HDF5 file %s: truncated, %lld bytes of the %llu its "
                              "superblock declares", src, file, (long long)st.st_size, want), err);
        finish(hy_err_set(err, HY_EIO, "%s: cannot open the HDF5 file %s (%lld bytes): %s", src, file,
                          (long long)st.st_size, why[0] ? why : "a damaged file"), err);
    }
    if (kind == HY_H5R_ATTR)
        send_attr(f, dpath, attr, src, err);
    stage("opening the dataset");
    if (!path_exists(f, dpath) || H5Oexists_by_name(f, dpath, H5P_DEFAULT) <= 0)
        finish(hy_err_set(err, HY_EDATA, "%s: no dataset %s in %s", src, dpath, file), err);
    hid_t d = H5Oopen(f, dpath, H5P_DEFAULT);
    if (d >= 0 && H5Iget_type(d) != H5I_DATASET)
        finish(hy_err_set(err, HY_EDATA, "%s: is a group, expected a dataset (a table such as /records/spring1)", src),
               err);
    hid_t sp = d >= 0 ? H5Dget_space(d) : -1, ft = d >= 0 ? H5Dget_type(d) : -1;
    if (d < 0 || sp < 0 || ft < 0)
        finish(hy_err_set(err, HY_EIO, "%s: cannot read the dataset (a damaged file)", src), err);
    stage("checking the table's shape and types");
    int rank = H5Sget_simple_extent_ndims(sp);
    hsize_t dims[2] = {0, 0};
    if (rank >= 1 && rank <= 2 && H5Sget_simple_extent_dims(sp, dims, NULL) != rank)
        rank = -1;
    H5T_class_t cls = H5Tget_class(ft);
    int compound = cls == H5T_COMPOUND && rank == 1;
    table tb = {src, 0, {0}, {0}};
    size_t row_bytes = 0;
    if (compound) {
        int nm = H5Tget_nmembers(ft);
        if (nm < 1 || nm > HY_H5_MAX_COLS)
            finish(hy_err_set(err, HY_EDATA, "%s: found %d columns, expected 1..%d", src, nm, HY_H5_MAX_COLS), err);
        tb.ncol = nm;
        row_bytes = H5Tget_size(ft);
        for (int k = 0; k < tb.ncol; k++) {
            char *name = H5Tget_member_name(ft, (unsigned)k);
            hid_t mtk = H5Tget_member_type(ft, (unsigned)k);
            tb.names[k] = dup_text(name); /* whole: a member is read by its name, of any length (N19) */
            tb.units[k] = dup_text("");
            H5free_memory(name);
            int ok = name && mtk >= 0 && numeric_ok(mtk) &&
                     H5Tget_member_offset(ft, (unsigned)k) + H5Tget_size(mtk) <= row_bytes;
            if (mtk >= 0)
                H5Tclose(mtk);
            if (!ok) {
                char nm64[64];
                hy_msg_text(nm64, sizeof nm64, tb.names[k], strlen(tb.names[k]), 40);
                finish(hy_err_set(err, HY_EDATA, "%s: column %d '%s' is not numeric, expected a table of numbers "
                                  "(integers of 1..8 bytes, floats of 2..16)", src, k + 1, nm64), err);
            }
        }
    } else if ((cls == H5T_FLOAT || cls == H5T_INTEGER) && rank == 2) {
        if (dims[1] < 1 || dims[1] > HY_H5_MAX_COLS)
            finish(hy_err_set(err, HY_EDATA, "%s: found %llu columns, expected 1..%d", src,
                              (unsigned long long)dims[1], HY_H5_MAX_COLS), err);
        if (!numeric_ok(ft))
            finish(hy_err_set(err, HY_EDATA, "%s: found numbers of %zu bytes, expected integers of 1..8 bytes or "
                              "floats of 2..16", src, H5Tget_size(ft)), err);
        tb.ncol = (int)dims[1];
        row_bytes = H5Tget_size(ft) * (size_t)dims[1];
        for (int k = 0; k < tb.ncol; k++)
            tb.names[k] = dup_text(""), tb.units[k] = dup_text("");
        if (read_strings(d, "columns", tb.ncol, tb.names, src, err) != HY_OK)
            finish(err->code, err);
    } else {
        finish(hy_err_set(err, HY_EDATA, "%s: found a %d-D dataset of %s, expected a table: a 1-D dataset of a "
                          "compound type with numeric columns (t, q, Q), or a 2-D numeric dataset", src, rank,
                          cls == H5T_COMPOUND ? "compounds" : cls == H5T_STRING ? "strings" : "numbers"), err);
    }
    if (read_strings(d, "units", tb.ncol, tb.units, src, err) != HY_OK)
        finish(err->code, err);
    int col[3] = {NONE, NONE, NONE};
    if (kind == HY_H5R_SERIES && choose(&tb, o, col, err) != HY_OK)
        finish(err->code, err);
    uint64_t n = dims[0];
    if (n == 0)
        finish(hy_err_set(err, HY_EDATA, "%s: found no rows, expected at least one sample", src), err);
    if (plausible(d, n, row_bytes, src, &st, err) != HY_OK)
        finish(err->code, err);

    if (kind == HY_H5R_TABLE) {
        /* every column, printable names and units (as the series' path) */
        hy_h5r_cols *c = calloc(1, sizeof *c);
        if (!c)
            _exit(4);
        c->ncol = tb.ncol;
        c->rows = n;
        for (int k = 0; k < tb.ncol; k++) {
            hy_msg_text(c->names[k], sizeof c->names[k], tb.names[k], strlen(tb.names[k]), SIZE_MAX);
            hy_msg_text(c->units[k], sizeof c->units[k], tb.units[k], strlen(tb.units[k]), SIZE_MAX);
        }
        send_msg(HY_H5R_COLS, c, sizeof *c);
        free(c);
    }
    hy_h5r_head h;
    memset(&h, 0, sizeof h);
    h.rows = n;
    for (int k = 0; k < 3; k++) {
        h.col[k] = col[k];
        /* names and units reach reports, tables and plot labels: printable only, as the CSV path (N26) */
        if (col[k] != NONE) {
            hy_msg_text(h.names[k], sizeof h.names[k], tb.names[col[k]], strlen(tb.names[col[k]]), SIZE_MAX);
            hy_msg_text(h.units[k], sizeof h.units[k], tb.units[col[k]], strlen(tb.units[col[k]]), SIZE_MAX);
        }
    }
    if (kind == HY_H5R_SERIES)
        send_msg(HY_H5R_HEAD, &h, sizeof h);

    /* the rows, HY_H5R_CHUNK_ROWS at a time: every column as double, then the chosen three sent */
    hid_t mt;
    if (compound) {
        mt = H5Tcreate(H5T_COMPOUND, (size_t)tb.ncol * sizeof(double));
        for (int k = 0; k < tb.ncol && mt >= 0; k++)
            if (H5Tinsert(mt, tb.names[k], (size_t)k * sizeof(double), H5T_NATIVE_DOUBLE) < 0)
                finish(hy_err_set(err, HY_EDATA, "%s: column %d's name cannot be read back (a damaged file)", src,
                                  k + 1), err);
    } else {
        mt = H5Tcopy(H5T_NATIVE_DOUBLE);
    }
    double *buf = malloc((size_t)HY_H5R_CHUNK_ROWS * (size_t)tb.ncol * sizeof *buf);
    double *rows = malloc((size_t)HY_H5R_CHUNK_ROWS * 3 * sizeof *rows);
    if (mt < 0 || !buf || !rows)
        finish(hy_err_set(err, HY_ENOMEM, "%s: out of memory for a block of %d rows", src, HY_H5R_CHUNK_ROWS), err);
    stage("reading the table's rows");
    for (uint64_t r0 = 0; r0 < n; r0 += HY_H5R_CHUNK_ROWS) {
        hsize_t k = n - r0 < HY_H5R_CHUNK_ROWS ? n - r0 : HY_H5R_CHUNK_ROWS;
        hsize_t start[2] = {r0, 0}, count[2] = {k, (hsize_t)tb.ncol};
        hid_t ms = H5Screate_simple(compound ? 1 : 2, count, NULL);
        if (ms < 0 || H5Sselect_hyperslab(sp, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
            H5Dread(d, mt, ms, sp, H5P_DEFAULT, buf) < 0)
            finish(hy_err_set(err, HY_EIO, "%s: read error in rows %llu..%llu (a damaged file or an unavailable "
                              "compression filter)", src, (unsigned long long)r0 + 1, (unsigned long long)(r0 + k)),
                   err);
        H5Sclose(ms);
        if (kind == HY_H5R_TABLE) { /* every column as it is */
            send_msg(HY_H5R_ALL, buf, (size_t)k * (size_t)tb.ncol * sizeof *buf);
            continue;
        }
        for (hsize_t i = 0; i < k; i++) {
            const double *row = buf + i * (size_t)tb.ncol;
            rows[3 * i] = col[2] != NONE ? row[col[2]] : 0;
            rows[3 * i + 1] = row[col[0]];
            rows[3 * i + 2] = col[1] != NONE ? row[col[1]] : 0;
        }
        send_msg(HY_H5R_ROWS, rows, (size_t)k * 3 * sizeof *rows);
    }
    finish(HY_OK, err);
}

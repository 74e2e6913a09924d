// HDF5 logs: streamed, chunked, compressed tables written atomically (see hyst/h5log.h, docs/formats.md).
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libdeflate.h>
#include "h5lib.h"
#include <cjson/cJSON.h>
#include "hyst/model.h"
#include "hyst/h5log.h"
#include "hyst/util.h"

/* A chunk holds about 256 KiB of rows: large enough that deflate and the file system see big blocks, small enough
 * that a log of seven tables keeps ~2 MB in memory whatever the run length.
 * A chunk does not go through HDF5's filter pipeline: it is shuffled here, encoded into a zlib stream (what HDF5's
 * deflate filter stores) and written as is with H5Dwrite_chunk, filter mask 0 (both filters applied). The dataset
 * declares the same pipeline, so every reader (h5py, MATLAB, h5dump) decodes it with the standard filters. The last,
 * partial chunk too, at commit (padded with zeros, as HDF5 pads it). Where the host is not little-endian every chunk
 * goes through H5Dwrite and the pipeline instead (the file type is little-endian float64 and the direct write skips
 * conversion).
 * Level 1, the default, is a byte-plane stream (plane_stream): after the shuffle a chunk is one plane per byte of
 * the row, and a float64 channel's sign/exponent planes compress ~100x while its low mantissa planes are noise that
 * no deflate level shrinks. So each run of noise planes goes into stored blocks (a copy) and each run of the others
 * through ISA-L's level 1 (Intel's igzip, Debian's libisal2: a deflate encoder in SIMD assembly). bench_fmt, 10^6
 * rows x 10 channels: 0.090 s of CPU against 0.157 s with zlib's level 1 in its place and 0.49 s with libdeflate's
 * level 1 over the whole chunk, for a file of the same size as zlib's (+0.2 %, 2-3 % larger than libdeflate's).
 * ISA-L's level 0 took 0.059 s but made a docking history 12 % larger. Which planes are noise is decided on one
 * chunk and kept for the next PLANE_RECHECK - 1 (it cost a fifth of the writing when made on every chunk). Levels
 * 2..9, and level 1 with hy_h5log_set_planes(lg, 0) (the reference), compress the whole chunk with libdeflate at
 * that level. */
#define CHUNK_BYTES (256 * 1024)
#define PLANE_RECHECK 8   /* chunks between two choices of the planes to pack (the choice was 20 % of the writing) */
#define DEFLATE_LEVEL 1
#define PLANE_LEVEL 1                       /* ISA-L's level for the packed runs      */
#define PLANE_LEVEL_BUF ISAL_DEF_LVL1_DEFAULT /* the level buffer igzip suggests for it */
#define MAX_TABLES 64

struct hy_h5table {
    hy_h5log *lg;
    hid_t dset, mtype;
    int ncol;
    char path[256];
    hsize_t written;       /* rows in the file                  */
    size_t nbuf, cap;      /* rows buffered, rows a chunk holds */
    double *buf;
    int level;             /* deflate level of the dataset (0: no filters) */
    int planes;            /* level 1 by byte planes (plane_stream), else libdeflate over the chunk */
    /* plane_stream's choice per byte plane (1: deflated, 0: stored), made on a chunk and kept for the next
       ones (a channel's noise planes stay noise): remade every PLANE_RECHECK chunks, and on the next chunk when a
       packed run did not halve */
    unsigned char pclass[HY_H5_MAX_COLS * sizeof(double)];
    size_t nchunk;         /* chunks written                                                     */
    int recheck;           /* remake the choice on the next chunk                                */
};

struct hy_h5log {
    hy_atomic at;          /* the temporary file and the rename */
    hid_t file;
    int ntab;
    hy_h5table *tab[MAX_TABLES];
    int deflate;           /* level of the tables made next (0: none) */
    int planes;            /* level 1 of the tables made next by byte planes */
    struct libdeflate_compressor *zc[10]; /* one per level in use, made with the first table of that level */
    struct isal_zstream *zs;              /* level 1's raw deflate of the runs of compressible planes (ISA-L) */
    unsigned char *zs_buf;                /* its level buffer                                                */
    unsigned char *shuf, *zbuf;           /* a chunk shuffled, and its zlib stream (zcap bytes at most) */
    size_t zcap;
};

/* the host stores doubles as the file does (little-endian IEEE 754): full chunks are written directly. GCC
 * defines __FLOAT_WORD_ORDER__, clang does not (there the float word order is the byte order) */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \
    (!defined(__FLOAT_WORD_ORDER__) || __FLOAT_WORD_ORDER__ == __ORDER_LITTLE_ENDIAN__)
enum { DIRECT = 1 };
#else
enum { DIRECT = 0 };
#endif

// (types to close) => closed (invalid ids ignored)
static void close_type(hid_t t)
{
    if (t >= 0)
        H5Tclose(t);
}

int hy_h5log_open(hy_h5log **out, const char *path, const char *protect, hy_err *err)
{
    *out = NULL;
    int rc = hy_h5_load(path, err);
    if (rc != HY_OK)
        return rc;
    hy_h5log *lg = calloc(1, sizeof *lg);
    if (!lg)
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", path);
    rc = hy_atomic_open(&lg->at, path, protect, err);
    if (rc != HY_OK) {
        free(lg);
        return rc;
    }
    if (lg->at.is_stdout || lg->at.direct) {
        hy_atomic_abort(&lg->at);
        free(lg);
        return hy_err_set(err, HY_EARG, "%s: an HDF5 log needs a regular file (not standard output, a pipe or a "
                                        "device)", path);
    }
    /* HDF5 writes the temporary file through its own descriptor; the stdio stream of hy_atomic only syncs it
       and renames it on commit */
    lg->file = H5Fcreate(lg->at.tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (lg->file < 0) {
        hy_atomic_abort(&lg->at);
        free(lg);
        return hy_err_set(err, HY_EIO, "%s: cannot create the HDF5 file", path);
    }
    lg->deflate = DEFLATE_LEVEL;
    lg->planes = 1;
    *out = lg;
    return HY_OK;
}

void hy_h5log_set_deflate(hy_h5log *lg, int level)
{
    lg->deflate = level < 0 ? 0 : level > 9 ? 9 : level;
}

void hy_h5log_set_planes(hy_h5log *lg, int on)
{
    lg->planes = on != 0;
}

// (string array) => a 1-D attribute of variable-length UTF-8 strings
static int attr_strings(hid_t obj, const char *name, int n, const char *const *v)
{
    hid_t st = H5Tcopy(H5T_C_S1);
    H5Tset_size(st, H5T_VARIABLE);
    H5Tset_cset(st, H5T_CSET_UTF8);
    hsize_t dim = (hsize_t)n;
    hid_t sp = H5Screate_simple(1, &dim, NULL);
    hid_t a = H5Acreate2(obj, name, st, sp, H5P_DEFAULT, H5P_DEFAULT);
    int bad = a < 0 || H5Awrite(a, st, v) < 0;
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(st);
    return bad ? -1 : 0;
}

// (object, name, text) => a scalar attribute: one variable-length UTF-8 string
static int attr_string(hid_t obj, const char *name, const char *value)
{
    hid_t st = H5Tcopy(H5T_C_S1);
    H5Tset_size(st, H5T_VARIABLE);
    H5Tset_cset(st, H5T_CSET_UTF8);
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(obj, name, st, sp, H5P_DEFAULT, H5P_DEFAULT);
    int bad = a < 0 || H5Awrite(a, st, &value) < 0;
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(st);
    return bad ? -1 : 0;
}

int hy_h5log_table(hy_h5log *lg, const char *dpath, int ncol, const char *const *names, const char *const *units,
                   const char *description, hy_h5table **out, hy_err *err)
{
    *out = NULL;
    if (ncol < 1 || ncol > HY_H5_MAX_COLS || lg->ntab >= MAX_TABLES || strlen(dpath) >= sizeof lg->tab[0]->path)
        return hy_err_set(err, HY_EARG, "%s: %s: bad table (columns 1..%d, at most %d tables)", lg->at.path, dpath,
                          HY_H5_MAX_COLS, MAX_TABLES);
    hy_h5table *t = calloc(1, sizeof *t);
    size_t cap = CHUNK_BYTES / (sizeof(double) * (size_t)ncol);
    if (t)
        t->buf = malloc(cap * (size_t)ncol * sizeof(double));
    if (!t || !t->buf) {
        if (t)
            free(t);
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", lg->at.path);
    }
    t->lg = lg, t->ncol = ncol, t->cap = cap, t->dset = -1, t->level = lg->deflate;
    t->planes = t->level == 1 && lg->planes;
    /* what the direct writes of compressed chunks need, made once for the log */
    if (DIRECT && t->level > 0 && !t->planes && !lg->zc[t->level])
        lg->zc[t->level] = libdeflate_alloc_compressor(t->level);
    if (DIRECT && t->planes && !lg->zs) {
        int rc = hy_isal_load(lg->at.path, err);
        if (rc != HY_OK) {
            free(t->buf);
            free(t);
            return rc;
        }
        lg->zs = malloc(sizeof *lg->zs);
        lg->zs_buf = malloc(PLANE_LEVEL_BUF);
    }
    if (DIRECT && t->level > 0 && !lg->shuf) {
        /* libdeflate's bound, and room for a plane stream of stored blocks only (5 bytes a block, a block per run
           of planes or per 64 KiB, the zlib header, final block and check): plane_stream falls back to that */
        size_t stored = CHUNK_BYTES + 5 * (HY_H5_MAX_COLS * sizeof(double) + CHUNK_BYTES / 65535 + 1) + 11;
        lg->zcap = libdeflate_zlib_compress_bound(NULL, CHUNK_BYTES);
        lg->zcap = lg->zcap > stored ? lg->zcap : stored;
        lg->shuf = malloc(CHUNK_BYTES);
        lg->zbuf = malloc(lg->zcap);
    }
    if (DIRECT && t->level > 0 && ((!t->planes && !lg->zc[t->level]) || (t->planes && (!lg->zs || !lg->zs_buf)) ||
                                   !lg->shuf || !lg->zbuf)) {
        free(t->buf);
        free(t);
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", lg->at.path);
    }
    snprintf(t->path, sizeof t->path, "%s", dpath);
    /* the same layout in memory and in the file: ncol float64 fields, packed */
    size_t sz = (size_t)ncol * sizeof(double);
    t->mtype = H5Tcreate(H5T_COMPOUND, sz);
    hid_t ftype = H5Tcreate(H5T_COMPOUND, sz);
    int bad = t->mtype < 0 || ftype < 0;
    for (int k = 0; !bad && k < ncol; k++)
        bad = H5Tinsert(t->mtype, names[k], (size_t)k * sizeof(double), H5T_NATIVE_DOUBLE) < 0 ||
              H5Tinsert(ftype, names[k], (size_t)k * sizeof(double), H5T_IEEE_F64LE) < 0;
    hsize_t dim = 0, maxdim = H5S_UNLIMITED, chunk = cap;
    hid_t sp = H5Screate_simple(1, &dim, &maxdim);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE), lcpl = H5Pcreate(H5P_LINK_CREATE);
    if (!bad)
        bad = H5Pset_chunk(dcpl, 1, &chunk) < 0 || H5Pset_create_intermediate_group(lcpl, 1) < 0 ||
              (t->level > 0 && (H5Pset_shuffle(dcpl) < 0 || H5Pset_deflate(dcpl, (unsigned)t->level) < 0));
    if (!bad)
        t->dset = H5Dcreate2(lg->file, dpath, ftype, sp, lcpl, dcpl, H5P_DEFAULT);
    bad = bad || t->dset < 0;
    H5Pclose(dcpl);
    H5Pclose(lcpl);
    H5Sclose(sp);
    close_type(ftype);
    if (!bad) {
        bad = attr_strings(t->dset, "columns", ncol, names) != 0 || attr_strings(t->dset, "units", ncol, units) != 0;
        bad = bad || attr_string(t->dset, "description", description ? description : "") != 0;
    }
    if (bad) {
        if (t->dset >= 0)
            H5Dclose(t->dset);
        close_type(t->mtype);
        free(t->buf);
        free(t);
        return hy_err_set(err, HY_EIO, "%s: cannot create the dataset %s", lg->at.path, dpath);
    }
    lg->tab[lg->ntab++] = t;
    *out = t;
    return HY_OK;
}

// (table) => the buffered rows written at the end of the dataset
static int flush(hy_h5table *t, hy_err *err)
{
    if (t->nbuf == 0)
        return HY_OK;
    hsize_t start = t->written, count = t->nbuf, total = t->written + t->nbuf;
    int bad = H5Dset_extent(t->dset, &total) < 0;
    hid_t fs = bad ? -1 : H5Dget_space(t->dset), ms = H5Screate_simple(1, &count, NULL);
    bad = bad || fs < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, NULL, &count, NULL) < 0 ||
          H5Dwrite(t->dset, t->mtype, ms, fs, H5P_DEFAULT, t->buf) < 0;
    if (fs >= 0)
        H5Sclose(fs);
    H5Sclose(ms);
    if (bad)
        return hy_err_set(err, HY_EIO, "%s: %s: write failed", t->lg->at.path, t->path);
    t->written = total;
    t->nbuf = 0;
    return HY_OK;
}

/* (n elements of es bytes) => dst holds byte 0 of every element, then byte 1 of every element, ...: HDF5's shuffle
 * filter (H5Zshuffle.c) over the dataset's type size, here a whole row, when n * es is the chunk. Each 8-byte
 * column of 8 rows is loaded as 8 words, transposed in registers as an 8x8 byte matrix (three rounds of block
 * swaps: 4x4 blocks, 2x2, single bytes) and stored as 8 bytes of 8 planes: 3x faster than a byte-by-byte gather
 * (which was 10 % of the writing). The rows beyond a multiple of 8 (and rows of another size) byte by byte.
 * Little-endian hosts only (the direct writes): a byte's place in a word is its place in memory. */
#define SWAP_BLOCKS(a, b, shift, mask)                                                                               \
    do {                                                                                                             \
        uint64_t t_ = (((a) >> (shift)) ^ (b)) & (mask);                                                             \
        (a) ^= t_ << (shift);                                                                                        \
        (b) ^= t_;                                                                                                   \
    } while (0)
static void shuffle(unsigned char *restrict dst, const unsigned char *restrict src, size_t n, size_t es)
{
    const uint64_t m32 = 0x00000000FFFFFFFFull, m16 = 0x0000FFFF0000FFFFull, m8 = 0x00FF00FF00FF00FFull;
    size_t n8 = es % 8 == 0 ? n / 8 * 8 : 0;
    for (size_t c = 0; c < es && n8 > 0; c += 8)
        for (size_t i = 0; i < n8; i += 8) {
            const unsigned char *s = src + i * es + c;
            uint64_t x0, x1, x2, x3, x4, x5, x6, x7;
            memcpy(&x0, s, 8), memcpy(&x1, s + es, 8), memcpy(&x2, s + 2 * es, 8), memcpy(&x3, s + 3 * es, 8);
            memcpy(&x4, s + 4 * es, 8), memcpy(&x5, s + 5 * es, 8), memcpy(&x6, s + 6 * es, 8);
            memcpy(&x7, s + 7 * es, 8);
            SWAP_BLOCKS(x0, x4, 32, m32); SWAP_BLOCKS(x1, x5, 32, m32); SWAP_BLOCKS(x2, x6, 32, m32);
            SWAP_BLOCKS(x3, x7, 32, m32);
            SWAP_BLOCKS(x0, x2, 16, m16); SWAP_BLOCKS(x1, x3, 16, m16); SWAP_BLOCKS(x4, x6, 16, m16);
            SWAP_BLOCKS(x5, x7, 16, m16);
            SWAP_BLOCKS(x0, x1, 8, m8); SWAP_BLOCKS(x2, x3, 8, m8); SWAP_BLOCKS(x4, x5, 8, m8);
            SWAP_BLOCKS(x6, x7, 8, m8);
            unsigned char *d = dst + c * n + i;   /* word k now holds byte k of the 8 rows */
            memcpy(d, &x0, 8), memcpy(d + n, &x1, 8), memcpy(d + 2 * n, &x2, 8), memcpy(d + 3 * n, &x3, 8);
            memcpy(d + 4 * n, &x4, 8), memcpy(d + 5 * n, &x5, 8), memcpy(d + 6 * n, &x6, 8);
            memcpy(d + 7 * n, &x7, 8);
        }
    for (size_t j = 0; j < es; j++)
        for (size_t i = n8; i < n; i++)
            dst[j * n + i] = src[i * es + j];
}
#undef SWAP_BLOCKS

/* (byte plane of n bytes) => 1 when deflate shrinks it, by one of three cheap statistics on samples of it:
 * - its byte values are skewed: their collision probability sum p_b^2 is more than twice that of uniform random bytes
 *   (1/256 + 1/m for m samples, near enough): sign/exponent bytes, slow channels (deflate's Huffman stage gains);
 * - the differences of consecutive bytes are 32 times as concentrated: the top mantissa bytes of a ramp;
 * - more than half of the 4-byte strings of a 1 KiB stretch occurred earlier in it (LZ77's own test, with a hash
 *   table of the last position; noise is told at half the window, by fewer than 32 repeats): the mantissa bytes of
 *   a uniform time axis, which take every value in a pattern.
 * The low mantissa bytes of a float64 channel are noise and score 1, 1 and ~0. Measured on bench_fmt's history and
 * a time axis from 0: the planes libdeflate shrinks to 1-13 % scored 1.4-205, 57-200 or 0.72-1.00; the third bytes
 * of smooth channels, which it shrinks only to 76-97 % for a third of its time, scored <= 2.0, 14-30 and 0.05-0.23:
 * they are stored (the file ~3 % larger than deflate of everything, the stream in less than half the time) */
static int plane_compressible(const unsigned char *p, size_t n)
{
    /* values and differences: 4 stretches of 128 bytes spread over the plane (all of it when n <= 512); the choice
       costs size or time, never the numbers, and counting every byte took as long as zlib */
    enum { STRETCH = 128, STRETCHES = 4, WINDOW = 1024, HASH_BITS = 10 };
    uint32_t h[256] = {0}, d[256] = {0};
    size_t len = n <= STRETCH * STRETCHES ? n : STRETCH, nst = n <= STRETCH * STRETCHES ? 1 : STRETCHES, m = 0;
    for (size_t k = 0; k < nst; k++) {
        const unsigned char *q = p + k * ((n - len) / (nst > 1 ? nst - 1 : 1));
        h[q[0]]++;
        for (size_t i = 1; i < len; i++)
            h[q[i]]++, d[(unsigned char)(q[i] - q[i - 1])]++;
        m += len;
    }
    uint64_t sh = 0, sd = 0;
    for (int b = 0; b < 256; b++)
        sh += (uint64_t)h[b] * h[b], sd += (uint64_t)d[b] * d[b];
    uint64_t random = (uint64_t)m + (uint64_t)m * (m - 1) / 256;
    if (sh > 2 * random || sd > 32 * random)
        return 1;
    /* repeats: the middle WINDOW bytes */
    size_t w = n < WINDOW ? n : WINDOW, hits = 0;
    if (w < 8)
        return 0;
    const unsigned char *q = p + (n - w) / 2;
    uint16_t last[1 << HASH_BITS];
    memset(last, 0xff, sizeof last);
    for (size_t i = 0; i + 4 <= w; i++) {
        uint32_t v;
        memcpy(&v, q + i, 4);
        uint32_t slot = (v * 2654435761u) >> (32 - HASH_BITS), u;
        if (last[slot] != 0xffff) {
            memcpy(&u, q + last[slot], 4);
            hits += u == v;
        }
        last[slot] = (uint16_t)i;
        if (i == 511 && hits < 32) /* noise repeats nothing; a pattern up to 256 bytes long has repeated by now */
            return 0;
    }
    return 2 * hits > w - 3;
}

/* (out, bytes) => one or more stored deflate blocks, not final, holding the bytes (RFC 1951 §3.2.4: 3 header bits
 * 000 and padding to the byte, LEN and its complement little-endian, the bytes) */
static unsigned char *put_stored(unsigned char *o, const unsigned char *p, size_t n)
{
    while (n > 0) {
        size_t m = n > 65535 ? 65535 : n;
        o[0] = 0, o[1] = (unsigned char)(m & 255), o[2] = (unsigned char)(m >> 8);
        o[3] = (unsigned char)(~m & 255), o[4] = (unsigned char)((~m >> 8) & 255);
        memcpy(o + 5, p, m);
        o += 5 + m, p += m, n -= m;
    }
    return o;
}

/* (shuffled chunk: es planes of n bytes) => its zlib stream (RFC 1950) in out (cap bytes, enough for stored blocks
 * only); its length. Runs of planes alike go out together: noise as stored blocks, the others as a raw deflate of
 * their own by ISA-L's one-shot encoder (no match reaches into bytes it did not see) with FULL_FLUSH and no end of
 * stream, which leaves the blocks not final and pads to the byte (igzip_lib.h), so that the next run's blocks follow
 * on a byte boundary. An empty final stored block ends the stream, then the Adler-32 of the whole chunk. Should a
 * packed run not fit (STATELESS_OVERFLOW) or the encoder fail, the whole chunk goes out as stored blocks instead */
static size_t plane_stream(struct isal_zstream *zs, unsigned char *zs_buf, const unsigned char *src, size_t n,
                           size_t es, unsigned char *out, size_t cap, unsigned char *pclass, int choose, int *recheck)
{
    unsigned char *o = out, *end = out + cap;
    *o++ = 0x78, *o++ = 0x01; /* deflate with a 32 KiB window, "fastest"; 0x7801 is a multiple of 31 */
    if (choose)
        for (size_t j = 0; j < es; j++)
            pclass[j] = (unsigned char)plane_compressible(src + j * n, n);
    *recheck = 0;
    int pack = pclass[0], packed = 1;
    for (size_t j = 0; j < es && packed;) {
        size_t j1 = j + 1;
        int next = 0;
        while (j1 < es && (next = pclass[j1]) == pack)
            j1++;
        size_t len = (j1 - j) * n;
        if (!pack) {
            packed = (size_t)(end - o) >= len + 5 * (len / 65535 + 1) + 9; /* the run, then the end of the stream */
            if (packed)
                o = put_stored(o, src + j * n, len);
        } else {
            hy_isal_fn.deflate_stateless_init(zs);
            zs->level = PLANE_LEVEL, zs->level_buf = zs_buf, zs->level_buf_size = PLANE_LEVEL_BUF;
            zs->flush = FULL_FLUSH, zs->end_of_stream = 0, zs->gzip_flag = IGZIP_DEFLATE;
            zs->next_in = (uint8_t *)(uintptr_t)(src + j * n), zs->avail_in = (uint32_t)len;
            zs->next_out = o, zs->avail_out = (uint32_t)(end - o);
            packed = hy_isal_fn.deflate_stateless(zs) == COMP_OK && zs->avail_in == 0;
            if ((size_t)(zs->next_out - o) > len / 2)
                *recheck = 1;   /* the run hardly shrank: a plane may have become noise */
            o = zs->next_out;
        }
        j = j1, pack = next;
    }
    if (!packed || end - o < 9)
        o = put_stored(out + 2, src, n * es);
    o[0] = 1, o[1] = 0, o[2] = 0, o[3] = 0xff, o[4] = 0xff; /* final, stored, empty */
    uint32_t a = libdeflate_adler32(1, src, n * es);
    o[5] = (unsigned char)(a >> 24), o[6] = (unsigned char)(a >> 16), o[7] = (unsigned char)(a >> 8);
    o[8] = (unsigned char)a;
    return (size_t)(o + 9 - out);
}

/* (table holding a full chunk, or the last rows at commit) => the chunk shuffled, compressed and written directly
 * after the rows in the file; a partial chunk is padded with zeros, the fill value HDF5 itself stores beyond the
 * rows of a partial chunk (never read: the dataset ends at the last row) */
static int write_chunk(hy_h5table *t, hy_err *err)
{
    hy_h5log *lg = t->lg;
    size_t es = (size_t)t->ncol * sizeof(double), nbytes = t->cap * es, size = nbytes;
    const void *data = t->buf;
    if (t->nbuf == 0)
        return HY_OK;
    memset(t->buf + t->nbuf * (size_t)t->ncol, 0, (t->cap - t->nbuf) * es);
    if (t->level > 0) {
        shuffle(lg->shuf, (const unsigned char *)t->buf, t->cap, es);
        /* always the compressed stream, even if not smaller: HDF5's own filter keeps it too (it gives up only when
           the stream outgrows its ~0.1 % margin, which the bound of libdeflate may allow); plane_stream never
           fails (size 0 is libdeflate's failure) */
        int choose = t->nchunk % PLANE_RECHECK == 0 || t->recheck;
        size = t->planes ? plane_stream(lg->zs, lg->zs_buf, lg->shuf, t->cap, es, lg->zbuf, lg->zcap, t->pclass,
                                        choose, &t->recheck)
                         : libdeflate_zlib_compress(lg->zc[t->level], lg->shuf, nbytes, lg->zbuf, lg->zcap);
        t->nchunk++;
        data = lg->zbuf;
    }
    hsize_t start = t->written, total = t->written + t->nbuf;
    if (size == 0 || H5Dset_extent(t->dset, &total) < 0 ||
        H5Dwrite_chunk(t->dset, H5P_DEFAULT, 0, &start, size, data) < 0)
        return hy_err_set(err, HY_EIO, "%s: %s: write failed", lg->at.path, t->path);
    t->written = total;
    t->nbuf = 0;
    return HY_OK;
}

int hy_h5log_append(hy_h5table *t, const double *row, hy_err *err)
{
    memcpy(t->buf + t->nbuf * (size_t)t->ncol, row, (size_t)t->ncol * sizeof *row);
    if (++t->nbuf == t->cap)
        return DIRECT ? write_chunk(t, err) : flush(t, err);
    return HY_OK;
}

size_t hy_h5log_rows(const hy_h5table *t)
{
    return (size_t)t->written + t->nbuf;
}

// (log, object path, attribute name) => the object open and any attribute of that name removed; <0 when missing
static hid_t open_obj(hy_h5log *lg, const char *obj, const char *name)
{
    hid_t o = H5Oopen(lg->file, obj, H5P_DEFAULT);
    if (o >= 0 && H5Aexists(o, name) > 0)
        H5Adelete(o, name);
    return o;
}

int hy_h5log_attr_string(hy_h5log *lg, const char *obj, const char *name, const char *value, hy_err *err)
{
    hid_t o = open_obj(lg, obj, name);
    if (o < 0)
        return hy_err_set(err, HY_EARG, "%s: no object %s", lg->at.path, obj);
    int bad = attr_string(o, name, value) != 0;
    H5Oclose(o);
    return bad ? hy_err_set(err, HY_EIO, "%s: %s: cannot write the attribute %s", lg->at.path, obj, name) : HY_OK;
}

int hy_h5log_attr_double(hy_h5log *lg, const char *obj, const char *name, double v, hy_err *err)
{
    hid_t o = open_obj(lg, obj, name);
    if (o < 0)
        return hy_err_set(err, HY_EARG, "%s: no object %s", lg->at.path, obj);
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(o, name, H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
    int bad = a < 0 || H5Awrite(a, H5T_NATIVE_DOUBLE, &v) < 0;
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(sp);
    H5Oclose(o);
    return bad ? hy_err_set(err, HY_EIO, "%s: %s: cannot write the attribute %s", lg->at.path, obj, name) : HY_OK;
}

int hy_h5log_attr_json(hy_h5log *lg, const char *obj, cJSON *doc, hy_err *err)
{
    char *txt = doc ? hy_json_print(doc) : NULL;
    if (!txt)
        return hy_err_set(err, HY_ENOMEM, "%s: out of memory", lg->at.path);
    int rc = hy_h5log_attr_string(lg, obj, "summary", txt, err);
    free(txt);
    for (const cJSON *it = doc->child; it && rc == HY_OK; it = it->next) {
        if (!it->string)
            continue;
        if (cJSON_IsRaw(it) || cJSON_IsNumber(it)) /* hy_json_print made the numbers raw: their exact text */
            rc = hy_h5log_attr_double(lg, obj, it->string,
                                      cJSON_IsRaw(it) ? strtod(it->valuestring, NULL) : it->valuedouble, err);
        else if (cJSON_IsBool(it))
            rc = hy_h5log_attr_double(lg, obj, it->string, cJSON_IsTrue(it) ? 1 : 0, err);
        else if (cJSON_IsString(it))
            rc = hy_h5log_attr_string(lg, obj, it->string, it->valuestring, err);
    }
    return rc;
}

// (log, keep going after an error) => tables flushed (when write) and closed, file closed; HY_OK or the first error
static int close_all(hy_h5log *lg, int write, hy_err *err)
{
    int rc = HY_OK;
    for (int k = 0; k < lg->ntab; k++) {
        hy_h5table *t = lg->tab[k];
        if (write && rc == HY_OK)
            rc = DIRECT ? write_chunk(t, err) : flush(t, err);
        H5Dclose(t->dset);
        H5Tclose(t->mtype);
        free(t->buf);
        free(t);
    }
    lg->ntab = 0;
    for (int k = 0; k < 10; k++)
        libdeflate_free_compressor(lg->zc[k]);
    free(lg->zs);
    free(lg->zs_buf);
    lg->zs = NULL, lg->zs_buf = NULL;
    free(lg->shuf);
    free(lg->zbuf);
    if (H5Fclose(lg->file) < 0 && rc == HY_OK && write)
        rc = hy_err_set(err, HY_EIO, "%s: write failed (closing the HDF5 file)", lg->at.path);
    lg->file = -1;
    return rc;
}

int hy_h5log_commit(hy_h5log *lg, hy_err *err)
{
    int rc = close_all(lg, 1, err);
    if (rc == HY_OK)
        rc = hy_atomic_commit(&lg->at, err);
    else
        hy_atomic_abort(&lg->at);
    free(lg);
    return rc;
}

void hy_h5log_abort(hy_h5log *lg)
{
    if (!lg)
        return;
    close_all(lg, 0, NULL);
    hy_atomic_abort(&lg->at);
    free(lg);
}

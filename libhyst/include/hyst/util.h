/* Small utilities shared by the library and the programs: atomic output files and file identity. */
#ifndef HYST_UTIL_H
#define HYST_UTIL_H

#include <stdio.h>
#include "hyst/common.h"

/* An output file written atomically: everything goes to a temporary file beside the target, which replaces
 * the target only on hy_atomic_commit. An interrupted or failed run leaves any earlier file untouched.
 * A symbolic link is followed: the temporary file goes beside the file it points to and replaces that file, so
 * the link stays. A FIFO or a character device (a pipe, /dev/null, a terminal) is written directly (`direct`,
 * no temporary file: tmp is ""); any other file that is not a regular file is refused.
 * The path "-" means standard output (written directly). */
typedef struct hy_atomic {
    FILE *fp;
    char  path[4096];   /* the path as given, for messages */
    char  target[4096]; /* the file replaced on commit: path with symbolic links resolved */
    char  tmp[4096];
    int   is_stdout;
    int   direct;       /* written in place: a FIFO or a character device */
} hy_atomic;

// (path) => a.fp open for writing; refuses to write over `protect` (an input; may be NULL)
int hy_atomic_open(hy_atomic *a, const char *path, const char *protect, hy_err *err);

// (open atomic file) => data flushed, synced and renamed onto the target path
int hy_atomic_commit(hy_atomic *a, hy_err *err);

// (open atomic file) => temporary file removed, target untouched
void hy_atomic_abort(hy_atomic *a);

/* (v) => the shortest text that reads back to exactly v (libdouble-conversion's digits), laid out as printf's %.Pg
 * with P = max(15, digits): the same bytes as the shortest of %.15g / %.16g / %.17g wherever that is shortest; inf
 * and nan as printf. Into buf (truncated as snprintf); returns the text length (at most 24) */
int hy_fmt_exact(char *buf, size_t len, double v);

// (a, b) => 1 when both paths name the same existing file, else 0
int hy_same_file(const char *a, const char *b);

/* (JSON text[len] that failed to parse, where the parser stopped, its nesting limit) => HY_EPARSE with
 * "NAME:LINE:COL: malformed JSON (expected EXPECTED)", or "... JSON nested deeper than LIMIT levels ..." when the
 * text up to there is only too deep (cJSON: CJSON_NESTING_LIMIT); reads nothing at or past text + len */
int hy_json_parse_error(hy_err *err, const char *name, const char *text, size_t len, const char *stop,
                        int nesting_limit, const char *expected);

// (path) => the name to use in messages: the path as given, so the user can find the file ("-" gives "<stdin>")
const char *hy_display_name(const char *path);

/* (path or "-" for standard input, what the file should be for messages ("a model file (hyst-model JSON)"),
 * size limit in bytes or 0) => the whole file, NUL-terminated (malloc'd, *len bytes before the NUL). Errors name
 * the file: "cannot open: <reason>", "is a directory, expected WHAT", "larger than N bytes: not WHAT", "read
 * error", "out of memory"; *text is NULL then. */
int hy_read_text(const char *path, const char *what, size_t max_len, char **text, size_t *len, hy_err *err);
// (path) => the folder part ("" when there is none, "/" for a file in the root), for resolving relative names
void hy_path_dir(const char *path, char *dir, size_t len);

#endif

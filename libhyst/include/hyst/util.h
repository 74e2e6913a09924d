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
    int   keep_mode;    /* the target existed: its permission bits (mode) are given to the new file on commit */
    unsigned mode;
} hy_atomic;

// (path) => a.fp open for writing; refuses to write over `protect` (an input; may be NULL)
int hy_atomic_open(hy_atomic *a, const char *path, const char *protect, hy_err *err);

// (open atomic file) => data flushed, synced and renamed onto the target path
int hy_atomic_commit(hy_atomic *a, hy_err *err);

// (open atomic file) => temporary file removed, target untouched
void hy_atomic_abort(hy_atomic *a);

/* Temporary files removed on a signal (cleanup.c): hy_atomic_open registers its temporary file, commit and abort
 * unregister it; the programs register their other temporaries (gnuplot scripts, folder locks) the same way.
 * hy_cleanup_signals (once, in main) installs the handler of SIGINT, SIGTERM, SIGHUP, SIGPIPE and SIGQUIT: every
 * registered path is unlinked, then the process ends by the same signal (shell status 128 + signal number). */
int hy_cleanup_add(const char *path);      // 0, or -1 when the path is too long or the 64 slots are in use
void hy_cleanup_remove(const char *path);
void hy_cleanup_signals(void);
// (1 / 0) => the signals above held / delivered: around creating a temporary file and registering it (nests)
void hy_cleanup_hold(int on);
// (process id) => killed (SIGKILL) and reaped by the handler before it removes the temporaries, so that a helper
// program writing one (gnuplot and its figure) cannot write it again after them; _done when it was reaped
void hy_cleanup_child(int pid);
void hy_cleanup_child_done(int pid);

/* A helper program run with a pipe (child.c), registered with hy_cleanup_child while it runs. mode 'r': its standard
 * output and error come through fd (as popen's "r" with 2>&1); 'w': fd is its standard input. A program that cannot
 * be found or run has the shell's status 127 (pid -1, fd -1). hy_child_wait closes fd, reaps the program and
 * returns its wait status (as pclose's; -1 when waitpid fails). */
typedef struct hy_child {
    int pid, fd, status;
} hy_child;
int hy_child_start(hy_child *c, const char *const argv[], char mode, hy_err *err);
int hy_child_wait(hy_child *c);

// (fd, buffer, n bytes) => 0 when all n bytes were read / written (fdio.c: short transfers continued, EINTR retried);
// -1 on end of file, a closed pipe or an error
int hy_fd_read_full(int fd, void *buf, size_t n);
int hy_fd_write_full(int fd, const void *buf, size_t n);

/* A lock on an output folder (runguard.c): DIR/.hystkit-lock under flock, so a second run into a folder in use is
 * refused with a clear message (its process id) and a crashed run never leaves a lock that blocks. */
typedef struct hy_dir_lock {
    int  fd;
    char path[4200];
} hy_dir_lock;
int hy_dir_lock_take(hy_dir_lock *l, const char *dir, hy_err *err);
void hy_dir_lock_release(hy_dir_lock *l);

/* Limits checked before a run starts: memory (HYST_MEM_MAX bytes, else the machine's physical memory) and output
 * size (HYST_OUTPUT_MAX bytes, else the free space of the folder; the smaller of both). */
double hy_mem_limit(void);
double hy_output_limit(const char *dir);
// (bytes) => "12.3 GB", "4.5 MB", ...
void hy_bytes_text(char *buf, size_t len, double bytes);

/* Progress of a long run on standard error, only when it is a terminal (or HYST_PROGRESS=1; "always" also skips
 * the first 2 s of silence; 0 never): "LABEL: 45 %, 12 s, about 15 s left", at most twice a second, after 2 s.
 * hy_progress_update is cheap (a counter; the clock every 256 calls); hy_progress_end clears the line. */
typedef struct hy_progress {
    int on, shown;
    unsigned calls;
    double t0, next;
    char label[128];
} hy_progress;
void hy_progress_start(hy_progress *p, const char *label);
void hy_progress_update(hy_progress *p, double fraction);
void hy_progress_end(hy_progress *p);

/* A long computation that cannot report a fraction (a model build, a dense eigen-solve): a line on standard error
 * before it saying what is computed and its size, and the elapsed time after ("mech beam sim: building the model:
 * ... (about 40 s) ... done in 38.2 s"). Shown when the estimate is at least 1 s and progress is shown (hy_progress's
 * rule: a terminal, or HYST_PROGRESS=1), or when it is at least 30 s even without a terminal (a log then says why
 * the run is silent); HYST_PROGRESS=always shows every stage, 0 none. On a terminal the two halves share one line. */
typedef struct hy_stage {
    int on, tty;
    double t0;
    char label[64];
} hy_stage;
void hy_stage_start(hy_stage *s, const char *label, double est_seconds, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void hy_stage_end(hy_stage *s);


/* (v) => the shortest text that reads back to exactly v (Dragonbox's digits, from {fmt}), laid out as printf's %.Pg
 * with P = max(15, digits): the same bytes as the shortest of %.15g / %.16g / %.17g wherever that is shortest; inf
 * and nan as printf. Into buf (truncated as snprintf); returns the text length (at most 24) */
int hy_fmt_exact(char *buf, size_t len, double v);

// (a, b) => 1 when both paths name the same existing file (either may be FILE.h5:/DSET: its file part), else 0
int hy_same_file(const char *a, const char *b);

/* (JSON text[len] that failed to parse, where the parser stopped, its nesting limit) => HY_EPARSE with
 * "NAME:LINE:COL: malformed JSON (expected EXPECTED)", or "... JSON nested deeper than LIMIT levels ..." when the
 * text up to there is only too deep (cJSON: CJSON_NESTING_LIMIT); reads nothing at or past text + len */
int hy_json_parse_error(hy_err *err, const char *name, const char *text, size_t len, const char *stop,
                        int nesting_limit, const char *expected);

/* (JSON text[len], name for messages, what the document should be ("a mech-dock object")) => *doc parsed
 * (cJSON_Delete it), or HY_EPARSE: malformed JSON (hy_json_parse_error), "NAME:LINE:COL: text after the JSON
 * document" (only blank space may follow), or "NAME: PATH: \"KEY\" appears twice" (a key repeated in an object);
 * HY_ENOMEM when memory runs out */
struct cJSON;
int hy_json_parse_strict(const char *text, size_t len, const char *name, const char *expected, struct cJSON **doc,
                         hy_err *err);

// (path) => the name to use in messages: the path as given, so the user can find the file ("-" gives "<stdin>")
const char *hy_display_name(const char *path);

/* The size limit of every file read whole (hy_read_text): 64 MiB, or the environment's HYST_READ_MAX (bytes). */
#define HY_READ_MAX_DEFAULT ((size_t)64 << 20)
size_t hy_read_limit(void);

/* (path or "-" for standard input, what the file should be for messages ("a model file (hyst-model JSON)"),
 * a smaller size limit in bytes or 0) => the whole file, NUL-terminated (malloc'd, *len bytes before the NUL).
 * Every reader has the same limit (hy_read_limit); a regular file over it is refused from its size without being
 * read, a FIFO or standard input is read up to limit + 1 bytes; a device or socket is refused unopened. Errors name
 * the file: "cannot open: <reason>", "is a directory, expected WHAT", "is a device or socket ...", "... larger
 * than the N-byte limit ...: not WHAT", "read error", "out of memory"; *text is NULL then. */
int hy_read_text(const char *path, const char *what, size_t max_len, char **text, size_t *len, hy_err *err);
// (path) => the folder part ("" when there is none, "/" for a file in the root), for resolving relative names
void hy_path_dir(const char *path, char *dir, size_t len);

#endif

/* Private helpers of the CSV reader (csvread*.c): separator detection and the heuristics that recognise
 * column names and units. Not part of the public API. */
#ifndef HYST_CSVREAD_INTERNAL_H
#define HYST_CSVREAD_INTERNAL_H

#include <stddef.h>

#define HY_CSV_HIDDEN __attribute__((visibility("hidden")))

/* What a header name says about its column. */
enum { HY_CSV_KIND_NONE = 0, HY_CSV_KIND_DISP, HY_CSV_KIND_FORCE, HY_CSV_KIND_TIME };

/* Size of the first read and of the line buffer (1 MiB; the separator is detected in the first read). Tests and
 * the fuzz harness set it small to check that block boundaries never change a result. */
HY_CSV_HIDDEN extern size_t hy_csv_block;

// (start of a file without BOM, its length) => the separator among '\t', ';', ',' that splits the first
// non-comment lines into numeric cells most often (ties: tab, then ';', then ',')
HY_CSV_HIDDEN char hy_csv_detect_delimiter(const char *buf, size_t len);

// (header name) => HY_CSV_KIND_*: displacement-like, force-like, time-like or none (both, or nothing known)
HY_CSV_HIDDEN int hy_csv_name_kind(const char *name);

// (cell text[len]) => 1 when it looks like a unit ("kN", "mm", "[deg]", "N·m", "%"), else 0
HY_CSV_HIDDEN int hy_csv_unitlike(const char *s, size_t len);

// (unit text[len]) => unit without spaces and one pair of enclosing brackets, copied into out[size]
HY_CSV_HIDDEN void hy_csv_clean_unit(const char *s, size_t len, char *out, size_t size);

// (header name) => the unit in a trailing "[kN]" or "(mm)", copied into out[size]; 1 when found, else 0
HY_CSV_HIDDEN int hy_csv_unit_in_name(const char *name, char *out, size_t size);

// (a, b) => 1 when equal ignoring ASCII case and surrounding spaces
HY_CSV_HIDDEN int hy_csv_name_equal(const char *a, const char *b);

// (header name, out[size]) => the name without a trailing bracketed unit ("Force [kN]" => "Force")
HY_CSV_HIDDEN void hy_csv_name_base(const char *name, char *out, size_t size);

#endif

/* The pipe to gnuplot and the writing of self-contained gnuplot scripts (`hyst plot`).
 *
 * A plot is built as one script text: terminal and output lines, then datablocks with the data inline
 * ($name << EOD ... EOD), then the plot commands. The same text (with the output pointed at a temporary file) is
 * piped into gnuplot, and saved with --script so that `gnuplot FILE.gp` draws the same picture again. */
#ifndef HYST_GNUPLOT_H
#define HYST_GNUPLOT_H

#include <stddef.h>
#include <stdio.h>
#include "hyst/common.h"

enum hy_gp_term { HY_GP_WINDOW = 0, HY_GP_PNG, HY_GP_SVG, HY_GP_PDF };

#define HY_GP_PX_PER_INCH 96.0   /* PDF sizes: --size is in pixels at this density */

// (output path or NULL) => terminal chosen by the extension (.png, .svg, .pdf; NULL = window); -1 when unknown
int hy_gp_term_for(const char *path);

// (terminal) => its name in messages ("PNG", ...)
const char *hy_gp_term_name(int term);

// (fp, terminal, width and height in pixels, output path or NULL) => "set terminal ..." and "set output ..." lines
void hy_gp_terminal(FILE *fp, int term, int width, int height, const char *out);

// (fp, text) => text as a gnuplot single-quoted string ('' for a quote; control characters dropped)
void hy_gp_quote(FILE *fp, const char *s);

// (fp, name) => start of an inline datablock "$name << EOD"
void hy_gp_block_begin(FILE *fp, const char *name);

// (fp) => end of the datablock
void hy_gp_block_end(FILE *fp);

// (fp, value) => number as drawing data (10 significant digits; NaN as "NaN" which gnuplot skips)
void hy_gp_num(FILE *fp, double v);

// (buf, len) => path of the gnuplot program: $HYST_GNUPLOT when set, else the first executable "gnuplot" on
// PATH; returns 0 when found, -1 when not (buf then holds what was looked for)
int hy_gp_find(char *buf, size_t len);

// (gnuplot path) => 1 when it has an interactive terminal (qt, wxt or x11), else 0
int hy_gp_has_window(const char *exe);

// (gnuplot path, script text) => gnuplot run with the script on its standard input (popen); HY_OK, or HY_EIO
// naming its exit status (gnuplot prints its own message about the script line on standard error)
int hy_gp_run(const char *exe, const char *text, size_t len, hy_err *err);

#endif

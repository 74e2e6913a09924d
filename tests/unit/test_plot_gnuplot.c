// The gnuplot plumbing of `hyst plot`: terminals by extension, quoting, finding gnuplot, the pipe, and the
// files it makes (PNG signature and IHDR size, SVG root element, PDF header and trailer).
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../../tools/hyst/gnuplot.c"

static char dir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/hyst-plot-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

// (path) => whole file (malloc'd) and its size
static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long len = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)len + 1);
    *n = fread(buf, 1, (size_t)len, fp);
    buf[*n] = 0;
    fclose(fp);
    return buf;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void terminals_by_extension(void **state)
{
    (void)state;
    assert_int_equal(hy_gp_term_for(NULL), HY_GP_WINDOW);
    assert_int_equal(hy_gp_term_for("a/loops.png"), HY_GP_PNG);
    assert_int_equal(hy_gp_term_for("LOOPS.PNG"), HY_GP_PNG);
    assert_int_equal(hy_gp_term_for("x.svg"), HY_GP_SVG);
    assert_int_equal(hy_gp_term_for("x.pdf"), HY_GP_PDF);
    assert_int_equal(hy_gp_term_for("x.jpg"), -1);
    assert_int_equal(hy_gp_term_for("dir.png/x"), -1);
    assert_int_equal(hy_gp_term_for("noext"), -1);
}

static void quoting_and_numbers(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    hy_gp_quote(fp, "it's a\ttest");
    fputc(' ', fp);
    hy_gp_num(fp, 0.1);
    fputc(' ', fp);
    hy_gp_num(fp, 0.0 / 0.0);
    fputc(' ', fp);
    hy_gp_num(fp, -1234567.891234567);
    fclose(fp);
    assert_string_equal(text, "'it''s atest' 0.1 NaN -1234567.891");
    free(text);
    text = NULL;
    fp = open_memstream(&text, &len);
    hy_gp_terminal(fp, HY_GP_PDF, 960, 480, "o.pdf");
    hy_gp_terminal(fp, HY_GP_PNG, 640, 480, "a'b.png");
    fclose(fp);
    assert_non_null(strstr(text, "pdfcairo size 10in,5in"));
    assert_non_null(strstr(text, "pngcairo size 640,480"));
    assert_non_null(strstr(text, "set output 'a''b.png'"));
    free(text);
}

static void finds_gnuplot_on_path_or_not(void **state)
{
    (void)state;
    char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    char buf[4096];
    unsetenv("HYST_GNUPLOT");
    assert_int_equal(hy_gp_find(buf, sizeof buf), 0); /* installed by scripts/install-deps */
    assert_non_null(strstr(buf, "/gnuplot"));
    assert_int_equal(access(buf, X_OK), 0);
    setenv("PATH", dir, 1); /* an empty directory */
    assert_int_equal(hy_gp_find(buf, sizeof buf), -1);
    setenv("HYST_GNUPLOT", "/nonexistent/gnuplot", 1);
    assert_int_equal(hy_gp_find(buf, sizeof buf), -1);
    assert_string_equal(buf, "/nonexistent/gnuplot");
    unsetenv("HYST_GNUPLOT");
    if (old)
        setenv("PATH", old, 1);
    free(old);
}

// (terminal, size, file name) => the file drawn by gnuplot through the pipe; returns its contents
static unsigned char *draw(int term, int w, int h, const char *name, size_t *n)
{
    char path[400], exe[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_int_equal(hy_gp_find(exe, sizeof exe), 0);
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    hy_gp_terminal(fp, term, w, h, path);
    hy_gp_block_begin(fp, "d");
    for (int i = 0; i <= 20; i++)
        fprintf(fp, "%d %d\n", i, i * i);
    hy_gp_block_end(fp);
    fputs("set title 'quadratic'\nplot $d using 1:2 with linespoints title 'y = x^2'\nset output\n", fp);
    fclose(fp);
    hy_err err;
    assert_int_equal(hy_gp_run(exe, text, len, &err), HY_OK);
    free(text);
    unsigned char *buf = slurp(path, n);
    assert_non_null(buf);
    return buf;
}

static void pipe_draws_png_svg_pdf(void **state)
{
    (void)state;
    size_t n;
    unsigned char *png = draw(HY_GP_PNG, 640, 360, "a.png", &n);
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    assert_true(n > 33);
    assert_memory_equal(png, sig, 8);
    assert_memory_equal(png + 12, "IHDR", 4);
    assert_int_equal(be32(png + 16), 640);
    assert_int_equal(be32(png + 20), 360);
    free(png);

    unsigned char *svg = draw(HY_GP_SVG, 500, 300, "a.svg", &n);
    char *root = strstr((char *)svg, "<svg");
    assert_non_null(root);
    assert_non_null(strstr(root, "width=\"500\""));
    assert_non_null(strstr(root, "height=\"300\""));
    assert_non_null(strstr((char *)svg, "</svg>"));
    free(svg);

    unsigned char *pdf = draw(HY_GP_PDF, 480, 288, "a.pdf", &n);
    assert_memory_equal(pdf, "%PDF-", 5);
    /* the trailer is the last non-blank line */
    size_t end = n;
    while (end > 0 && (pdf[end - 1] == '\n' || pdf[end - 1] == '\r'))
        end--;
    assert_true(end >= 5);
    assert_memory_equal(pdf + end - 5, "%%EOF", 5);
    /* 480 x 288 px at 96 px/in = 5 x 3 in = 360 x 216 pt */
    assert_non_null(memmem(pdf, n, "/MediaBox [ 0 0 360 216 ]", 25));
    free(pdf);
}

static void failures_are_reported(void **state)
{
    (void)state;
    char exe[4096];
    hy_err err;
    assert_int_equal(hy_gp_find(exe, sizeof exe), 0);
    const char *bad = "plot undefined_function_xyz(x)\n";
    /* gnuplot's own message goes to stderr; ours names the exit status */
    assert_int_equal(hy_gp_run(exe, bad, strlen(bad), &err), HY_EIO);
    assert_non_null(strstr(err.msg, "exit status 1"));
    assert_int_equal(hy_gp_run("/nonexistent/gnuplot", "", 0, &err), HY_EIO);
    assert_non_null(strstr(err.msg, "127"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(terminals_by_extension),
        cmocka_unit_test(quoting_and_numbers),
        cmocka_unit_test(finds_gnuplot_on_path_or_not),
        cmocka_unit_test(pipe_draws_png_svg_pdf),
        cmocka_unit_test(failures_are_reported),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

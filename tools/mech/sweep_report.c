/* The outputs of a sweep plan's kind (sweep_report.h; docs/sweep.md "Plan kinds"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyst/h5log.h"
#include "hyst/model.h"
#include "hyst/util.h"
#include "mech/sweep_morris.h"
#include "mech/sweep_sobol.h"
#include "mech_cli.h"
#include "sweep_report.h"

static cJSON *num(double v)
{
    return isfinite(v) ? hy_json_exact_number(v) : cJSON_CreateNull();
}

static void put(FILE *fp, double v)
{
    char b[40];
    if (isfinite(v)) {
        hy_fmt_exact(b, sizeof b, v);
        fputs(b, fp);
    }
}

static int open_out(const char *cmd, const mech_sweep_plan *p, const char *dir, const char *name, hy_atomic *a)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    const char *others[] = {p->scenario, NULL};
    return mech_out_open(cmd, a, path, p->path, others);
}

/* the metrics a study reports on (the step count is bookkeeping) */
static int reported(const mech_sweep_plan *p, int m)
{
    return m != p->sim->steps;
}

// (table, metric, run) => the value, NAN for a missing or failed run
static double val(const sw_table *t, int m, long id)
{
    if (id >= t->n || !t->have[id] || t->failed[id])
        return NAN;
    return t->m[(size_t)id * (size_t)t->nm + (size_t)m];
}

static int sobol(const char *cmd, const mech_sweep_plan *p, const sw_table *t, const char *dir, cJSON *doc, int quiet)
{
    size_t N = (size_t)p->design_n;
    int d = p->nkey;
    long runs = (long)N * (d + 2);
    double *f = malloc((size_t)runs * sizeof *f);
    mech_sobol_index *ix = malloc((size_t)d * sizeof *ix);
    if (!f || !ix) {
        free(f), free(ix);
        return mech_cli_fail(cmd, "out of memory");
    }
    cJSON *so = cJSON_AddObjectToObject(doc, "sobol");
    cJSON_AddNumberToObject(so, "N", (double)N);
    cJSON_AddNumberToObject(so, "runs", (double)runs);
    cJSON_AddNumberToObject(so, "bootstrap", p->bootstrap);
    cJSON_AddNumberToObject(so, "level", p->level);
    cJSON_AddStringToObject(so, "method", "Saltelli design (A, B, A_B^i from Owen-scrambled Sobol points); first "
                            "order: Saltelli 2010; total: Jansen 1999; variance over A and B; intervals: percentile "
                            "bootstrap over the rows of the design; a row with a failed run is left out");
    cJSON *ind = cJSON_AddObjectToObject(so, "indices");
    hy_atomic a;
    int st = open_out(cmd, p, dir, "sobol.csv", &a);
    if (st != MECH_EXIT_OK) {
        free(f), free(ix);
        return st;
    }
    fputs("metric,key,S1,S1_lo,S1_hi,ST,ST_lo,ST_hi,rows\n", a.fp);
    for (int m = 0; m < p->sim->nmetric; m++) {
        if (!reported(p, m))
            continue;
        for (long r = 0; r < runs; r++)
            f[r] = val(t, m, r);
        long used = mech_sobol_indices(f, N, d, p->bootstrap, p->seed, p->level, ix);
        if (used < 0) {
            hy_atomic_abort(&a);
            free(f), free(ix);
            return mech_cli_fail(cmd, "out of memory");
        }
        cJSON *mo = cJSON_AddObjectToObject(ind, p->sim->metric[m].name);
        cJSON_AddNumberToObject(mo, "rows", (double)used);
        for (int k = 0; k < d; k++) {
            cJSON *ko = cJSON_AddObjectToObject(mo, p->key[k].path);
            cJSON_AddItemToObject(ko, "S1", num(ix[k].s1));
            cJSON *c1 = cJSON_AddArrayToObject(ko, "S1_ci");
            cJSON_AddItemToArray(c1, num(ix[k].s1_lo));
            cJSON_AddItemToArray(c1, num(ix[k].s1_hi));
            cJSON_AddItemToObject(ko, "ST", num(ix[k].st));
            cJSON *ct = cJSON_AddArrayToObject(ko, "ST_ci");
            cJSON_AddItemToArray(ct, num(ix[k].st_lo));
            cJSON_AddItemToArray(ct, num(ix[k].st_hi));
            fprintf(a.fp, "%s,%s,", p->sim->metric[m].name, p->key[k].path);
            double v[6] = {ix[k].s1, ix[k].s1_lo, ix[k].s1_hi, ix[k].st, ix[k].st_lo, ix[k].st_hi};
            for (int j = 0; j < 6; j++) {
                put(a.fp, v[j]);
                fputc(',', a.fp);
            }
            fprintf(a.fp, "%ld\n", used);
        }
        if (!quiet && m == p->sim->peak) {
            printf("  Sobol indices of %s (%ld rows; first order / total):", p->sim->metric[m].name, used);
            for (int k = 0; k < d; k++)
                printf(" %s %.3f / %.3f%s", p->key[k].path, ix[k].s1, ix[k].st, k + 1 < d ? "," : "\n");
        }
    }
    free(f), free(ix);
    return mech_out_commit(cmd, &a);
}

static int morris(const char *cmd, const mech_sweep_plan *p, const sw_table *t, const char *dir, cJSON *doc, int quiet)
{
    size_t r = (size_t)p->design_n;
    int d = p->nkey;
    long runs = (long)r * (d + 1);
    double *f = malloc((size_t)runs * sizeof *f);
    mech_morris_effect *e = malloc((size_t)d * sizeof *e);
    if (!f || !e) {
        free(f), free(e);
        return mech_cli_fail(cmd, "out of memory");
    }
    cJSON *mo = cJSON_AddObjectToObject(doc, "morris");
    cJSON_AddNumberToObject(mo, "trajectories", (double)r);
    cJSON_AddNumberToObject(mo, "levels", p->morris_levels);
    cJSON_AddNumberToObject(mo, "runs", (double)runs);
    cJSON_AddStringToObject(mo, "method", "Morris 1991 trajectories, levels at the centres of p equal-probability "
                            "strata, step 1/2 of the unit cube; effects per unit of the key's probability scale "
                            "(the change of the metric for a move across half of the key's distribution, divided by "
                            "1/2); mu* and sigma of Campolongo et al. 2007; steps with a failed run left out");
    cJSON *eff = cJSON_AddObjectToObject(mo, "effects");
    hy_atomic a;
    int st = open_out(cmd, p, dir, "morris.csv", &a);
    if (st != MECH_EXIT_OK) {
        free(f), free(e);
        return st;
    }
    fputs("metric,key,mu_star,mu,sigma,effects\n", a.fp);
    for (int m = 0; m < p->sim->nmetric; m++) {
        if (!reported(p, m))
            continue;
        for (long k = 0; k < runs; k++)
            f[k] = val(t, m, k);
        mech_morris_effects(f, p->u, r, d, e);
        cJSON *o = cJSON_AddObjectToObject(eff, p->sim->metric[m].name);
        for (int k = 0; k < d; k++) {
            cJSON *ko = cJSON_AddObjectToObject(o, p->key[k].path);
            cJSON_AddItemToObject(ko, "mu_star", num(e[k].mu_star));
            cJSON_AddItemToObject(ko, "mu", num(e[k].mu));
            cJSON_AddItemToObject(ko, "sigma", num(e[k].sigma));
            cJSON_AddNumberToObject(ko, "effects", (double)e[k].n);
            fprintf(a.fp, "%s,%s,", p->sim->metric[m].name, p->key[k].path);
            put(a.fp, e[k].mu_star);
            fputc(',', a.fp);
            put(a.fp, e[k].mu);
            fputc(',', a.fp);
            put(a.fp, e[k].sigma);
            fprintf(a.fp, ",%ld\n", e[k].n);
        }
        if (!quiet && m == p->sim->peak) {
            printf("  Morris mu* of %s (%s per unit of probability scale):", p->sim->metric[m].name,
                   p->sim->metric[m].unit[0] ? p->sim->metric[m].unit : "its unit");
            for (int k = 0; k < d; k++)
                printf(" %s %.4g%s", p->key[k].path, e[k].mu_star, k + 1 < d ? "," : "\n");
        }
    }
    free(f), free(e);
    return mech_out_commit(cmd, &a);
}

static int subset(const mech_sweep_plan *p, const mech_subset *s, cJSON *doc, int quiet)
{
    cJSON *o = cJSON_AddObjectToObject(doc, "failure_probability");
    char def[160], lim[40];
    hy_fmt_exact(lim, sizeof lim, p->fail_limit);
    snprintf(def, sizeof def, "%s %s %s", p->sim->metric[p->fail_metric].name, p->fail_above ? ">" : "<", lim);
    cJSON_AddStringToObject(o, "failure", def);
    cJSON_AddStringToObject(o, "method", "subset simulation, modified Metropolis (Au and Beck 2001); c.o.v. with "
                            "the chain correlation (Au and Beck eqs. 19-29), levels taken as uncorrelated; a run "
                            "that failed or has no value of the metric counts as a failure");
    cJSON_AddItemToObject(o, "p", num(s->pf));
    cJSON_AddItemToObject(o, "cov", num(s->cov));
    cJSON_AddNumberToObject(o, "runs", (double)s->neval);
    cJSON_AddNumberToObject(o, "samples_per_level", (double)s->n);
    cJSON_AddItemToObject(o, "p0", num(s->p0));
    cJSON_AddNumberToObject(o, "levels", s->levels);
    cJSON *lv = cJSON_AddArrayToObject(o, "level");
    for (int j = 0; j < s->levels; j++) {
        cJSON *l = cJSON_CreateObject();
        /* the threshold in the metric's terms: limit -/+ b */
        double thr = p->fail_above ? p->fail_limit - s->b[j] : p->fail_limit + s->b[j];
        cJSON_AddItemToObject(l, "threshold", num(thr));
        cJSON_AddItemToObject(l, "p", num(s->pj[j]));
        cJSON_AddItemToObject(l, "cov", num(sqrt(s->cov2[j])));
        cJSON_AddItemToObject(l, "gamma", num(s->gamma[j]));
        cJSON_AddItemToArray(lv, l);
    }
    if (!quiet)
        printf("  P(%s) = %.3g, c.o.v. %.2f (%d levels, %zu runs)\n", def, s->pf, s->cov, s->levels, s->neval);
    return MECH_EXIT_OK;
}

static int qual(const char *cmd, const mech_sweep_plan *p, const sw_table *t, const char *dir, cJSON *doc, int quiet)
{
    cJSON *q = cJSON_AddObjectToObject(doc, "qualification");
    cJSON *rq = cJSON_AddArrayToObject(q, "requirements");
    char name[MECH_SWEEP_REQ_MAX][64];
    for (int k = 0; k < p->nreq; k++) {
        cJSON *o = cJSON_CreateObject();
        if (p->req[k].metric == MECH_SWEEP_REQ_COMPLETED) {
            snprintf(name[k], sizeof name[k], "completed");
            cJSON_AddStringToObject(o, "requirement", "completed");
        } else {
            snprintf(name[k], sizeof name[k], "%s %s", p->sim->metric[p->req[k].metric].name, p->req[k].max ? "max" : "min");
            cJSON_AddStringToObject(o, "metric", p->sim->metric[p->req[k].metric].name);
            cJSON_AddItemToObject(o, p->req[k].max ? "max" : "min", num(p->req[k].limit));
            cJSON_AddStringToObject(o, "unit", p->sim->metric[p->req[k].metric].unit);
        }
        cJSON_AddItemToArray(rq, o);
    }
    cJSON *mx = cJSON_AddArrayToObject(q, "matrix");
    hy_atomic a, md;
    int st = open_out(cmd, p, dir, "qualification.csv", &a);
    if (st != MECH_EXIT_OK)
        return st;
    if ((st = open_out(cmd, p, dir, "qualification.md", &md)) != MECH_EXIT_OK) {
        hy_atomic_abort(&a);
        return st;
    }
    fputs("case,variant,requirement,limit,value,margin,relative_margin,pass\n", a.fp);
    fprintf(md.fp, "| case | variant |");
    for (int k = 0; k < p->nreq; k++)
        fprintf(md.fp, " %s%s%s |", name[k], p->req[k].metric >= 0 && p->sim->metric[p->req[k].metric].unit[0] ? " " : "",
                p->req[k].metric >= 0 ? p->sim->metric[p->req[k].metric].unit : "");
    fputs(" verdict |\n|---|---|", md.fp);
    for (int k = 0; k <= p->nreq; k++)
        fputs("---|", md.fp);
    fputc('\n', md.fp);
    int npass = 0;
    for (long id = 0; id < p->nrun; id++) {
        const char *cs = p->case_name[id / p->nvar], *vs = p->var_name[id % p->nvar];
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "case", cs);
        cJSON_AddStringToObject(row, "variant", vs);
        cJSON *ch = cJSON_AddObjectToObject(row, "checks");
        int all = 1;
        fprintf(md.fp, "| %s | %s |", cs, vs);
        const double *m = t->have[id] ? t->m + (size_t)id * (size_t)t->nm : NULL;
        for (int k = 0; k < p->nreq; k++) {
            double margin = m ? mech_sweep_req_margin(p, k, m, t->failed[id]) : NAN;
            int pass = isfinite(margin) && margin >= 0;
            all &= pass;
            double value = m && p->req[k].metric >= 0 ? m[p->req[k].metric] : (m ? !t->failed[id] : NAN);
            double lim = p->req[k].metric >= 0 ? p->req[k].limit : 1;
            double rel = isfinite(margin) && lim != 0 ? margin / fabs(lim) : NAN;
            cJSON *o = cJSON_AddObjectToObject(ch, name[k]);
            cJSON_AddItemToObject(o, "value", num(value));
            cJSON_AddItemToObject(o, "margin", num(margin));
            cJSON_AddItemToObject(o, "relative_margin", num(rel));
            cJSON_AddBoolToObject(o, "pass", pass);
            fprintf(a.fp, "\"%s\",\"%s\",%s,", cs, vs, name[k]);
            put(a.fp, lim);
            fputc(',', a.fp);
            put(a.fp, value);
            fputc(',', a.fp);
            put(a.fp, margin);
            fputc(',', a.fp);
            put(a.fp, rel);
            fprintf(a.fp, ",%d\n", pass);
            if (p->req[k].metric == MECH_SWEEP_REQ_COMPLETED)
                fprintf(md.fp, " %s |", pass ? "yes" : "**FAIL** (run failed)");
            else if (!isfinite(value))
                fprintf(md.fp, " **FAIL** (none) |");
            else
                fprintf(md.fp, " %s%.4g (%+.0f %%) |", pass ? "" : "**FAIL** ", value, 100 * rel);
        }
        cJSON_AddBoolToObject(row, "pass", all);
        cJSON_AddItemToArray(mx, row);
        fprintf(md.fp, " %s |\n", all ? "pass" : "**FAIL**");
        npass += all;
    }
    fprintf(md.fp, "\nMargins relative to the limit (+: inside it). %d of %ld case x variant runs meet every "
                   "requirement.\n", npass, p->nrun);
    cJSON_AddNumberToObject(q, "passed", npass);
    cJSON_AddNumberToObject(q, "runs", (double)p->nrun);
    if (!quiet)
        printf("  qualification: %d of %ld case x variant runs meet every requirement (qualification.md)\n", npass,
               p->nrun);
    st = mech_out_commit(cmd, &a);
    int s2 = mech_out_commit(cmd, &md);
    return st != MECH_EXIT_OK ? st : s2;
}

int sw_report(const char *cmd, const mech_sweep_plan *p, const sw_table *t, const mech_subset *ss, const char *dir,
              cJSON *doc, int quiet)
{
    cJSON_AddStringToObject(doc, "kind", mech_sweep_kind_name(p->kind));
    switch (p->kind) {
    case MECH_SWEEP_KIND_SOBOL:
        return sobol(cmd, p, t, dir, doc, quiet);
    case MECH_SWEEP_KIND_MORRIS:
        return morris(cmd, p, t, dir, doc, quiet);
    case MECH_SWEEP_KIND_SUBSET:
        return ss ? subset(p, ss, doc, quiet) : MECH_EXIT_OK;
    case MECH_SWEEP_KIND_QUAL:
        return qual(cmd, p, t, dir, doc, quiet);
    default:
        return MECH_EXIT_OK;
    }
}

/* ---- figures ---- */

static int fig_from(const char *cmd, const char *dir, const char *name, const char *csv, const char *size,
                    const char *body)
{
    char fig[4200], path[4200];
    snprintf(fig, sizeof fig, "%s/%s", dir, name);
    snprintf(path, sizeof path, "%s/%s", dir, csv ? csv : "");
    FILE *in = csv ? fopen(path, "r") : NULL;
    if (csv && !in)
        return mech_cli_fail(cmd, "%s: cannot read it back for its figure", path);
    mech_fig f;
    char term[128];
    snprintf(term, sizeof term, "pngcairo size %s noenhanced font 'sans,9'", size);
    int st = mech_fig_open(cmd, &f, fig, NULL, term);
    if (st != MECH_EXIT_OK) {
        if (in)
            fclose(in);
        return st;
    }
    fputs("set datafile separator ','\n", f.fp);
    if (in) {
        char line[1024];
        fputs("$d << EOD\n", f.fp);
        if (fgets(line, sizeof line, in))   /* the header */
            while (fgets(line, sizeof line, in))
                fputs(line, f.fp);
        fclose(in);
        fputs("EOD\n", f.fp);
    }
    fputs(body, f.fp);
    return mech_fig_run(cmd, &f);
}

// (CSV of metric,key,... rows, shown metrics) => "$m0 << EOD" .. blocks of each metric's rows, and which have a value
static int blocks(const mech_sweep_plan *p, const char *dir, const char *csv, const int *shown, int n, char *out,
                  size_t len, int *finite)
{
    char path[4200], line[1024];
    snprintf(path, sizeof path, "%s/%s", dir, csv);
    FILE *in = fopen(path, "r");
    if (!in)
        return -1;
    size_t o = 0;
    for (int k = 0; k < n; k++) {
        const char *m = p->sim->metric[shown[k]].name;
        size_t ml = strlen(m);
        finite[k] = 0;
        o += (size_t)snprintf(out + o, o < len ? len - o : 0, "$m%d << EOD\n", k);
        rewind(in);
        if (!fgets(line, sizeof line, in))
            break;
        while (fgets(line, sizeof line, in))
            if (strncmp(line, m, ml) == 0 && line[ml] == ',') {
                o += (size_t)snprintf(out + o, o < len ? len - o : 0, "%s", line);
                const char *c = strchr(line + ml + 1, ',');   /* the third column: the first value */
                finite[k] |= c && c[1] != ',';
            }
        o += (size_t)snprintf(out + o, o < len ? len - o : 0, "EOD\n");
    }
    fclose(in);
    return o < len ? 0 : -1;
}

int sw_report_figures(const char *cmd, const mech_sweep_plan *p, const char *dir)
{
    char b[32768];
    const int *shown = p->sim->shown;   /* the simulator's six metrics of the figures */
    enum { NS = sizeof p->sim->shown / sizeof *p->sim->shown };
    int fin[NS];
    size_t n = 0;
    if (p->kind == MECH_SWEEP_KIND_SOBOL || p->kind == MECH_SWEEP_KIND_MORRIS) {
        int sob = p->kind == MECH_SWEEP_KIND_SOBOL;
        if (blocks(p, dir, sob ? "sobol.csv" : "morris.csv", shown, NS, b, sizeof b / 2, fin) != 0)
            return mech_cli_fail(cmd, "%s/%s: cannot read it back for its figure", dir, sob ? "sobol.csv" : "morris.csv");
        n = strlen(b);
        if (sob)
            n += (size_t)snprintf(b + n, sizeof b - n,
                                  "set multiplot layout 2,3 title 'Sobol indices: first order S1 (solid) and total ST "
                                  "(hatched), %.0f %% bootstrap intervals'\nset style data histogram\nset style "
                                  "histogram errorbars gap 1 lw 1\nset yrange [-0.1:1.1]\nset grid y\n"
                                  "set xtics rotate by 35 right font 'sans,7'\nset key top right\nset ylabel 'index'\nset bmargin 7\n",
                                  100 * p->level);
        else
            n += (size_t)snprintf(b + n, sizeof b - n,
                                  "set multiplot layout 2,3 title 'Morris screening: mu* (importance) against sigma "
                                  "(nonlinearity or interaction), per unit of each key''s probability scale'\n"
                                  "set key off\nset grid\nset xlabel 'mu*'\nset ylabel 'sigma'\n"
                                  "set offsets graph 0.05, graph 0.4, graph 0.1, graph 0.1\n");
        for (int k = 0; k < NS; k++) {
            const char *m = p->sim->metric[shown[k]].name, *u = p->sim->metric[shown[k]].unit;
            n += (size_t)snprintf(b + n, sizeof b - n, "set title '%s%s%s%s'\n", m, u[0] ? " (" : "", u, u[0] ? ")" : "");
            if (!fin[k])
                n += (size_t)snprintf(b + n, sizeof b - n, "set label 1 'no variance over these runs' at graph 0.5, "
                                      "graph 0.5 center\nplot [0:1] [0:1] 2 notitle\nunset label 1\n");
            else if (sob)
                n += (size_t)snprintf(b + n, sizeof b - n, "plot $m%d using 3:4:5:xtic(2) fs solid 0.7 lc rgb "
                                      "'#4477aa' title 'S1', '' using 6:7:8 fs pattern 4 lc rgb '#cc6677' title 'ST'\n", k);
            else
                n += (size_t)snprintf(b + n, sizeof b - n, "plot $m%d using 3:5 with points pt 7 lc rgb '#4477aa', "
                                      "'' using 3:5:2 with labels left offset 0.5,0 font 'sans,7'\n", k);
        }
        snprintf(b + n, sizeof b - n, "unset multiplot\n");
        return fig_from(cmd, dir, sob ? "sobol.png" : "morris.png", NULL, "1400,900", b);
    }
    if (p->kind == MECH_SWEEP_KIND_QUAL) {
        /* rows: case x variant; columns: requirements; colour: the relative margin (clipped to +-50 %), and the
           words pass / FAIL in each cell so the matrix reads in grey and for every colour vision */
        int rows = (int)p->nrun, h = 140 + 26 * rows;
        char size[32];
        snprintf(size, sizeof size, "%d,%d", 260 + 120 * p->nreq, h);
        n += (size_t)snprintf(b + n, sizeof b - n,
                              "set title 'qualification matrix: margin to each requirement (relative to the limit)'\n"
                              "set palette defined (-0.5 '#b2182b', -0.0001 '#f4a582', 0 '#d1e5f0', 0.5 '#2166ac')\n"
                              "set cbrange [-0.5:0.5]\nset cblabel 'relative margin (clipped at +-50 %%)'\n"
                              "set xrange [-0.5:%d.5]\nset yrange [%d.5:-0.5]\nunset key\nset tics scale 0\n"
                              "set xtics rotate by 20 right (", p->nreq - 1, rows - 1);
        for (int k = 0; k < p->nreq; k++)
            n += (size_t)snprintf(b + n, sizeof b - n, "%s'%s%s' %d", k ? ", " : "",
                                  p->req[k].metric >= 0 ? p->sim->metric[p->req[k].metric].name : "completed",
                                  p->req[k].metric >= 0 ? (p->req[k].max ? " max" : " min") : "", k);
        n += (size_t)snprintf(b + n, sizeof b - n, ")\nset ytics (");
        for (long id = 0; id < p->nrun; id++)
            n += (size_t)snprintf(b + n, sizeof b - n, "%s'%s / %s' %ld", id ? ", " : "", p->case_name[id / p->nvar],
                                  p->var_name[id % p->nvar], id);
        snprintf(b + n, sizeof b - n,
                 ")\nnr = %d\nplot $d using (int($0) %% nr):(int($0 / nr)):(strcol(7) eq '' ? (column(8) > 0.5 ? 0.5 : -0.5) "
                 ": (column(7) > 0.5 ? 0.5 : (column(7) < -0.5 ? -0.5 : column(7)))) with image, "
                 "'' using (int($0) %% nr):(int($0 / nr)):(column(8) > 0.5 ? 'pass' : 'FAIL') with labels font 'sans,9'\n",
                 p->nreq);
        return fig_from(cmd, dir, "qualification.png", "qualification.csv", size, b);
    }
    return MECH_EXIT_OK;
}

/* ---- HDF5 ---- */

int sw_report_h5(const char *cmd, const mech_sweep_plan *p, const sw_table *t, const char *dir, cJSON *summary)
{
    /* /results: one float64 column per table column that is a number: run, each key (a key of strings, a
       qualification plan's case and variant: the index into the attribute "<key>.names"), failed (0 / 1), the
       metrics; a metric without a value is NaN. The messages stay in results.csv. The summary is the attribute
       "summary" of the root (its JSON text) with its top-level numbers as scalar attributes. */
    int nk = p->nkey + p->nderived, nm = p->sim->nmetric, nc = 2 + nk + nm;
    if (nc > HY_H5_MAX_COLS)
        return mech_cli_fail(cmd, "%s/results.h5: %d columns, more than %d", dir, nc, HY_H5_MAX_COLS);
    const char *names[HY_H5_MAX_COLS], *units[HY_H5_MAX_COLS];
    char path[4200];
    snprintf(path, sizeof path, "%s/results.h5", dir);
    names[0] = "run", units[0] = "";
    for (int k = 0; k < nk; k++)
        names[1 + k] = p->key[k].path, units[1 + k] = "";
    names[1 + nk] = "failed", units[1 + nk] = "";
    for (int m = 0; m < nm; m++)
        names[2 + nk + m] = p->sim->metric[m].name, units[2 + nk + m] = p->sim->metric[m].unit;
    hy_err err;
    hy_h5log *lg;
    hy_h5table *tb;
    if (hy_h5log_open(&lg, path, p->path, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    int rc = hy_h5log_table(lg, "/results", nc, names, units, "mech sweep: one row per run, sorted by run id "
                            "(docs/sweep.md)", &tb, &err);
    double row[HY_H5_MAX_COLS];
    for (long id = 0; rc == HY_OK && id < t->n; id++) {
        if (!t->have[id])
            continue;
        row[0] = (double)id;
        for (int k = 0; k < nk; k++) {
            const char *s;
            mech_sweep_plan_value(p, id, k, &row[1 + k], &s);
            if (s && !p->key[k].label && p->key[k].dist.kind == MECH_SWEEP_CHOICE)   /* the index of the string */
                row[1 + k] = mech_sweep_dist_eval(&p->key[k].dist, p->u[(size_t)(id % p->nsample) * (size_t)p->ndist +
                                                                        (size_t)p->key[k].col]);
        }
        row[1 + nk] = t->failed[id];
        memcpy(row + 2 + nk, t->m + (size_t)id * (size_t)t->nm, (size_t)nm * sizeof *row);
        rc = hy_h5log_append(tb, row, &err);
    }
    for (int k = 0; rc == HY_OK && k < nk; k++) {   /* the names behind the indices of a key of strings */
        cJSON *arr = NULL;
        if (p->key[k].label) {
            arr = cJSON_CreateArray();
            for (int i = 0; i < (k == 0 ? p->ncase : p->nvar); i++)
                cJSON_AddItemToArray(arr, cJSON_CreateString(k == 0 ? p->case_name[i] : p->var_name[i]));
        } else if (!p->key[k].grid && p->key[k].dist.kind == MECH_SWEEP_CHOICE &&
                   cJSON_IsString(cJSON_GetArrayItem(p->key[k].choice, 0))) {
            arr = cJSON_Duplicate(p->key[k].choice, 1);
        }
        if (!arr)
            continue;
        char *txt = cJSON_PrintUnformatted(arr), an[MECH_SWEEP_KEY_LEN + 8];
        cJSON_Delete(arr);
        snprintf(an, sizeof an, "%s.names", p->key[k].path);
        rc = txt ? hy_h5log_attr_string(lg, "/results", an, txt, &err) : hy_err_set(&err, HY_ENOMEM, "out of memory");
        free(txt);
    }
    if (rc == HY_OK)
        rc = hy_h5log_attr_json(lg, "/", summary, &err);
    if (rc != HY_OK) {
        hy_h5log_abort(lg);
        return mech_cli_fail(cmd, "%s", err.msg);
    }
    if (hy_h5log_commit(lg, &err) != HY_OK)
        return mech_cli_fail(cmd, "%s", err.msg);
    return MECH_EXIT_OK;
}

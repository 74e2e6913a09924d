/* Identification of the kinematic hysteresis ODE df/dq = R(q, f) (spec 002 §2, §6.1-6.3) from a bench record.
 *
 * Pipeline (each stage is usable on its own, for tests and for other tools):
 *   A. points   - branches of the record (half-cycles, or the limit loop) and their slopes xi = df/dq from a
 *                 least-squares polynomial smoother per branch (degree fixed or by generalized cross-validation)
 *                 or from finite differences (kinfit_smooth.c);
 *   B. design   - the N x km design matrix u^i v^j in scaled variables q = q_s u, f = f_s v, reduced once by a
 *                 Householder QR; every candidate (k, m) and every term subset is then an exact small least-squares
 *                 problem solved by SVD (condition number, effective rank) (kinfit_lsq.c);
 *   score       - the candidate model is integrated along the measured q history from the measured start and its
 *                 force compared with the measured one (NRMSE over the measured peak-to-peak force) (kinfit_traj.c);
 *   selection   - all (k, m) up to the caps, smallest model within a tolerance of the best score, then backward
 *                 pruning of negligible terms (kinfit_select.c);
 *   refinement  - optional Levenberg-Marquardt on the integrated-trajectory error (kinfit_refine.c);
 *   checks      - attraction dR/df < 0, positive steady-loop area, loop closure, q-range (kinfit_checks.c);
 *   report      - cJSON (kinfit_report.c).
 * Nothing here is on a simulation hot path; these functions allocate. */
#ifndef HYST_KINFIT_H
#define HYST_KINFIT_H

#include <stddef.h>
#include <stdint.h>
#include "hyst/common.h"
#include "hyst/kin.h"
#include "hyst/loops.h"

struct cJSON;

#define HY_KINFIT_SMOOTH_AUTO (-1)  /* polynomial smoother, degree by generalized cross-validation per branch  */
#define HY_KINFIT_SMOOTH_FD   0     /* central finite differences on the raw points (dense clean data)          */
#define HY_KINFIT_MAX_DEGREE  16    /* largest smoother degree accepted                                         */
#define HY_KINFIT_NTERMS      (HY_KIN_MAX * HY_KIN_MAX)

/* Which branches feed Stage B. The integrated score always uses the whole record. */
typedef enum hy_kinfit_branches {
    HY_KINFIT_BRANCHES_ALL   = 0, /* every half-cycle of the record (limit loop and inner branches), spec 002 §6.3 item 2 */
    HY_KINFIT_BRANCHES_LIMIT = 1  /* the limit loop only: its loading and unloading branches (hy_loops_branches)       */
} hy_kinfit_branches;

typedef struct hy_kinfit_opts {
    hy_kin_rule rule;        /* symmetric (pool unloading as (q,f) -> (-q,-f)) or two independent sets            */
    int    k, m;             /* > 0: fix the order; 0: select up to max_k / max_m                                 */
    int    max_k, max_m;     /* selection caps, 1..8 (default 8, 8)                                               */
    int    smooth;           /* smoother degree 1..16, HY_KINFIT_SMOOTH_AUTO (default) or HY_KINFIT_SMOOTH_FD     */
    int    max_degree;       /* largest degree tried by AUTO (default 10)                                         */
    int    branches;         /* hy_kinfit_branches (default ALL)                                                  */
    double min_branch;       /* branches spanning less than this fraction of the q-range are not used (0.05)     */
    double rcond;            /* singular values below rcond * sigma_max count as zero in Stage B (1e-10)          */
    int    constrain;        /* 1: a Stage-B fit that is not attracting is refitted with the attraction rate held
                                below -attract_margin at every branch point (default 1)                           */
    double attract_margin;   /* in e-folds over the working range: rate <= -attract_margin / (q_max - q_min) (1) */
    double select_tol;       /* accept the smallest model whose NRMSE <= best * (1 + select_tol) (0.05) ...       */
    double select_abs;       /* ... or <= best + select_abs (absolute NRMSE, 1e-4)                                */
    int    prune;            /* 1: drop terms whose removal keeps the NRMSE within prune_tol (default 1)          */
    double prune_tol;        /* relative NRMSE increase allowed by pruning, against the selected model (0.01)    */
    int    refine;           /* 1: Levenberg-Marquardt on the integrated-trajectory error (default 0)            */
    int    refine_iter;      /* LM iteration cap (default 30)                                                     */
    hy_loops_opts loops;     /* reversal detection for the branches                                               */
} hy_kinfit_opts;

// (o) => defaults listed above
void hy_kinfit_opts_default(hy_kinfit_opts *o);

/* ---- Stage A: branch points with slopes (kinfit_smooth.c) ---------------------------------------------------- */

/* Points of Stage B: (q, f) on a branch, slope xi = df/dq there, direction s = +1 loading / -1 unloading. */
typedef struct hy_kinfit_points {
    size_t  n, cap;
    double *q, *f, *xi;
    signed char *s;
    size_t  n_branches;      /* branches that contributed                                                         */
    size_t  n_skipped;       /* branches too short (range or points) to use                                       */
    int     deg_min, deg_max;/* smoother degrees used (0, 0 for finite differences)                               */
} hy_kinfit_points;

// (p) => empty point set
void hy_kinfit_points_init(hy_kinfit_points *p);

// (p, q, f, xi, s) => point appended
int hy_kinfit_points_push(hy_kinfit_points *p, double q, double f, double xi, int s, hy_err *err);

// (p) => memory released, p empty
void hy_kinfit_points_free(hy_kinfit_points *p);

/* (branch q[n], f[n], degree d >= 1 or HY_KINFIT_SMOOTH_AUTO with cap max_degree) => smoothed y[n] and slopes
 * xi[n] = y'(q) of the least-squares polynomial (spec 002 §2.1 eq. 2, solved by QR, not the normal equations);
 * *deg_used = degree chosen (by generalized cross-validation n RSS / (n - d - 1)^2 for AUTO). y may be NULL. */
int hy_kinfit_smooth(const double *q, const double *f, size_t n, int degree, int max_degree, double *y, double *xi,
                     int *deg_used, hy_err *err);

/* (branch q[n], f[n]) => xi[n] by central differences (one-sided at the ends), spec 002 §2.1; xi is NaN where the
 * two neighbours do not differ in q. Returns the number of finite slopes. */
size_t hy_kinfit_slopes_fd(const double *q, const double *f, size_t n, double *xi);

/* (record q[n], f[n], options) => Stage-B points: branches of the record (options.branches), smoothed
 * (options.smooth) into (q, y, xi, s). HY_EDATA when no branch is usable. */
int hy_kinfit_collect(const double *q, const double *f, size_t n, const hy_kinfit_opts *o, hy_kinfit_points *pts,
                      hy_err *err);

/* (A[rows*cols] row-major, overwritten) => R: the upper-trapezoidal factor of A = Q R (min(rows, cols) rows of
 * cols, row-major) by Householder QR (LAPACKE_dgeqrf). Used to reduce tall least-squares problems exactly: with a
 * right-hand side appended as the last column, any column subset solves against R alone. */
int hy_kinfit_qr_r(double *A, size_t rows, size_t cols, double *R, hy_err *err);

/* ---- Stage B: scaled design, QR reduction, subset least squares (kinfit_lsq.c) ------------------------------- */

typedef uint64_t hy_kinfit_mask;   /* bit (i * 8 + j) set: term q^i f^j (0-based) is in the model */

// (k, m) => mask of the full k x m rectangle
hy_kinfit_mask hy_kinfit_mask_rect(int k, int m);

/* One reduced design per coefficient set (the loading set, or the unloading set of the two-set rule). */
typedef struct hy_kinfit_design {
    double q_s, f_s;         /* scales: q = q_s u, f = f_s v (spec 002 §6.1 item 2)                               */
    size_t n;                /* rows (points)                                                                     */
    size_t rows;             /* rows of R kept: min(n, 65)                                                        */
    double R[(HY_KINFIT_NTERMS + 1) * (HY_KINFIT_NTERMS + 1)]; /* upper-triangular factor of [U | dv/du], row-major */
    double *u, *v;           /* the n scaled points in the frame of the fitted law (for the attraction constraint) */
    int    sigma;            /* +1: the law attracts where dR/df < 0 (loading frame); -1: where dR/df > 0        */
} hy_kinfit_design;

/* (points, set s = +1 loading / -1 unloading / 0 pooled under the symmetric rule, scales) => QR-reduced design of
 * the 64 columns u^i v^j (i, j < 8) and the scaled slopes; the symmetric pool maps unloading points to
 * (-q, -f) (spec 002 §1.4). HY_EDATA when the set has no points. Release with hy_kinfit_design_free. */
int hy_kinfit_design_build(const hy_kinfit_points *p, int set, double q_s, double f_s, hy_kinfit_design *D,
                           hy_err *err);

// (D) => the point arrays released (the struct itself belongs to the caller)
void hy_kinfit_design_free(hy_kinfit_design *D);

typedef struct hy_kinfit_lsq {
    int    rank;             /* effective rank of the scaled design restricted to the mask                        */
    double cond;             /* its 2-norm condition number                                                       */
    double resid_rms;        /* RMS Stage-B residual of xi, in f/q units                                          */
    int    unknowns;         /* terms in the mask                                                                 */
    int    constrained;      /* design points held at the attraction margin (0: unconstrained solution)          */
} hy_kinfit_lsq;

/* (design, term mask, rcond) => unscaled coefficients C (terms outside the mask are 0),
 * C_ij = C~_ij / (q_s^(i+1) f_s^(j-1)) with 0-based i, j (spec 002 §6.1 item 2), and the fit information.
 * The mask's rectangle sets C->k, C->m. */
int hy_kinfit_design_solve(const hy_kinfit_design *D, hy_kinfit_mask mask, double rcond, hy_kin_coeffs *C,
                           hy_kinfit_lsq *info, hy_err *err);

/* (design, mask, rcond, margin > 0 in 1/q units) => as hy_kinfit_design_solve, but with the attraction rate of
 * the fitted law (spec 002 §1.3; dR/df in the loading frame) held at or below -margin at every design point:
 * the rate is linear in the coefficients, so the points where the unconstrained solution violates it are added
 * as heavily weighted equality rows (rate = -margin) and the least-squares problem re-solved until no point
 * violates (an active-set penalty method; at most 30 passes). info->constrained = points held. */
int hy_kinfit_design_solve_attracting(const hy_kinfit_design *D, hy_kinfit_mask mask, double rcond, double margin,
                                      hy_kin_coeffs *C, hy_kinfit_lsq *info, hy_err *err);

/* ---- integrated-trajectory error (kinfit_traj.c) ------------------------------------------------------------- */

/* A candidate whose element would need more RK4 sub-steps than this per sample on average (plus a fixed
 * allowance) is not integrated: its attraction length is far below the sampling step, a jump rather than a
 * branch, and integrating it would cost orders of magnitude more than the whole selection. */
#define HY_KINFIT_SUBSTEP_BUDGET 20

typedef struct hy_kinfit_score {
    int    ok;               /* 1: integrated over the whole record; 0: diverged, failed or too stiff (nrmse inf) */
    int    stiff;            /* 1: not integrated because of HY_KINFIT_SUBSTEP_BUDGET                             */
    double nrmse;            /* RMS(f_model - f) / (max f - min f)                                                */
    double max_abs;          /* largest |f_model - f|                                                             */
    size_t at;               /* sample of max_abs (or of the failure)                                             */
    double energy_data;      /* integral of f dq along the record (trapezoid)                                     */
    double energy_model;     /* same with the model's force                                                       */
} hy_kinfit_score;

/* (spec, record q[n], f[n], optional work fm[n] or NULL) => the model driven along q from (q[0], f[0]) through its
 * element (hy_element_drive) and compared with f; fm receives the model force when given. A trajectory that
 * leaves 1e3 times the measured force range or fails in the element scores ok = 0, as does a candidate over the
 * sub-step budget (stiff = 1). */
int hy_kinfit_score_spec(const hy_kin_spec *spec, const double *q, const double *f, size_t n, double *fm,
                         hy_kinfit_score *sc, hy_err *err);

/* ---- sanity checks (kinfit_checks.c) -------------------------------------------------------------------------- */

/* A steady loop of the model: three cycles lo -> hi -> lo driven through the element from (lo, f0). */
typedef struct hy_kinfit_loop {
    int    ok;               /* finite, positive area and closed (closure < 1e-3)                                 */
    double q_lo, q_hi;       /* the q-range driven                                                                */
    double energy;           /* integral of f dq around the 3rd cycle (spec 002 §6.2 B: closed from the 2nd on)   */
    double energy_first;     /* same for the 1st cycle                                                            */
    double closure;          /* |f after cycle 3 - f after cycle 2| / force range of the 3rd cycle                */
    double f_hi, f_lo;       /* model force at q_hi and back at q_lo on the 3rd cycle                             */
} hy_kinfit_loop;

typedef struct hy_kinfit_checks {
    int    attract_ok;       /* attraction rate < 0 at every branch point (the law of the point's direction)      */
    double attract_max;      /* largest attraction rate found there (hy_kinfit_attraction_rate)                   */
    double attract_q, attract_f; /* where                                                                         */
    int    attract_s;        /* and in which direction                                                            */
    double attract_frac;     /* fraction of points where the rate is < 0                                          */
    hy_kinfit_loop range;    /* steady loop over the whole working range q_min..q_max                             */
    hy_kinfit_loop cycle;    /* steady loop over the q-range of the largest measured cycle (when there is one)    */
    double cycle_energy_data;/* energy of that measured cycle (NaN when the record has no closed cycle)           */
    double q_min, q_max;     /* working range (data) = stored model range                                         */
} hy_kinfit_checks;

// (spec, points) => attraction entries of ck (the attraction rate at each branch point, spec 002 §1.3)
void hy_kinfit_check_attraction(const hy_kin_spec *spec, const hy_kinfit_points *p, hy_kinfit_checks *ck);

/* (spec, q-range lo < hi, start force f0 at lo) => the model's steady loop over [lo, hi]: three cycles driven
 * through the element, energy and closure (spec 002 §6.1 item 5). lo, hi must lie in the model's range. */
int hy_kinfit_check_loop(const hy_kin_spec *spec, double lo, double hi, double f0, hy_kinfit_loop *lp, hy_err *err);

/* (spec, direction s, q, f) => s * dG_s/df, G_s the law of direction s: the growth rate of a perturbation of f per
 * unit of travel |dq| (spec 002 §1.3). Negative = attracting. Under the symmetric rule this is dR/df of the
 * loading law at (s q, s f); under the two-set rule, s * dR_s/df at (q, f). */
double hy_kinfit_attraction_rate(const hy_kin_spec *spec, int s, double q, double f);

/* ---- selection, pruning, refinement and the whole pipeline (kinfit_select.c, kinfit_refine.c, kinfit_run.c) -- */

enum hy_kinfit_cand_status {
    HY_KINFIT_CAND_OK = 0,        /* integrated and attracting                                                    */
    HY_KINFIT_CAND_DIVERGED,      /* integration left the force range or failed                                   */
    HY_KINFIT_CAND_NOT_ATTRACTING,/* dR/df >= 0 somewhere on the branches                                          */
    HY_KINFIT_CAND_UNDERDETERMINED,/* more terms than points                                                       */
    HY_KINFIT_CAND_STIFF          /* attraction length far below the sampling step (HY_KINFIT_SUBSTEP_BUDGET)     */
};

typedef struct hy_kinfit_cand {
    int    k, m, terms, status, rank;
    int    constrained;      /* branch points held at the attraction margin in Stage B (opts.constrain)          */
    double cond, resid_rms;
    hy_kinfit_score score;
} hy_kinfit_cand;

typedef struct hy_kinfit_result {
    hy_kin_spec      spec;         /* identified coefficients and q-range                                         */
    int              k_sel, m_sel; /* order chosen by the selection (before pruning)                              */
    hy_kinfit_mask   mask_load, mask_unload;   /* terms kept                                                      */
    hy_kinfit_mask   pruned_load, pruned_unload; /* terms dropped by pruning                                      */
    hy_kinfit_lsq    lsq_load, lsq_unload;     /* Stage B of the chosen terms                                     */
    hy_kinfit_score  score;        /* integrated-trajectory error of the final model                              */
    hy_kinfit_score  score_selected; /* before pruning and refinement                                              */
    hy_kinfit_score  score_pruned;   /* after pruning, before refinement                                           */
    int              refined, refine_iter;
    hy_kinfit_checks checks;
    size_t           n_cand;
    hy_kinfit_cand   cand[HY_KINFIT_NTERMS];
    size_t           n_points, n_branches, n_skipped;
    int              deg_min, deg_max;
    double           q_s, f_s;
    size_t           n_samples;
    char             warning[4][200];
    int              n_warnings;
} hy_kinfit_result;

/* (points, record q[n], f[n], options) => coefficients chosen over (k, m) by the integrated-trajectory error,
 * the candidates considered, and pruning (spec 002 §2.3). Uses o->k/o->m when fixed. */
int hy_kinfit_select(const hy_kinfit_points *p, const double *q, const double *f, size_t n, const hy_kinfit_opts *o,
                     hy_kinfit_result *r, hy_err *err);

/* (result with spec and masks, points, record, options) => coefficients refined by Levenberg-Marquardt on the
 * integrated-trajectory residuals (finite-difference Jacobian, LAPACK solves); steps that break attraction or
 * integration are rejected. r->score updated. */
int hy_kinfit_refine(hy_kinfit_result *r, const hy_kinfit_points *p, const double *q, const double *f, size_t n,
                     const hy_kinfit_opts *o, hy_err *err);

/* (record q[n], f[n], options) => the whole identification: points, selection, pruning, optional refinement,
 * checks. HY_EDATA for unusable data (too few points, no branch, constant q or f). */
int hy_kinfit_run(const double *q, const double *f, size_t n, const hy_kinfit_opts *o, hy_kinfit_result *r,
                  hy_err *err);

// (result, options, data source name or NULL) => cJSON object of the fit report (caller deletes)
struct cJSON *hy_kinfit_report(const hy_kinfit_result *r, const hy_kinfit_opts *o, const char *source);

#endif

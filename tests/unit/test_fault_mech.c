/* Allocation-failure injection (fault_alloc.h) for the libmech modules friction, beam, ctrl, body and contact:
 * every public call that allocates is run with its 1st, 2nd, ... Nth allocation failing; each failing run must
 * return HY_ENOMEM (NULL for mech_contact_data_new) and leave no block allocated after the caller's cleanup.
 * Inputs are the shipped fixtures (fixtures/mech/friction, fixtures/mech/beam) and small hand-built systems, so
 * that the N + 1 runs of each call stay quick.
 *
 * GLPK: its allocator (glp_alloc) aborts the process when malloc fails (its error hook cannot return to the caller
 * with the problem object in a usable state), so the allocations made from inside libglpk are excluded from the
 * countdown (fault_exclude("libglpk"): neither counted nor failed, still tracked for leaks). What is checked for the
 * friction data and the LP is libmech's own allocations around the GLPK object. OpenBLAS (which also holds Debian's
 * LAPACK) calls exit(1) when a malloc in its threaded kernels fails ("OpenBLAS: malloc failed in dsyrk_thread_UT",
 * from dpotrf inside dsygvd), so its own allocations are excluded the same way. SLICOT's SB02OD is Fortran and
 * allocates nothing (its workspace is ours). LAPACKE's row-major work and transposed arrays (liblapacke) are
 * counted and failed like any other allocation: their failure must come back as HY_ENOMEM. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fault_alloc.h"
#include "mech/beam.h"
#include "mech/body.h"
#include "mech/contact.h"
#include "mech/ctrl.h"
#include "mech/friction.h"

static const char *top(void)
{
    const char *t = getenv("TOP");
    return t ? t : ".";
}

static void fixture(char *path, size_t len, const char *rel)
{
    snprintf(path, len, "%s/fixtures/%s", top(), rel);
}

/* Runs fault_check and fails the test with its message; prints the coverage line; returns the allocations of the
 * undisturbed run. */
static long check(const char *name, fault_fn fn, fault_cleanup_fn cleanup, void *ctx)
{
    fault_report rep;
    int rc = fault_check(name, fn, cleanup, ctx, &rep);
    printf("fault: %-44s %5ld allocations, %5ld failures injected (%ld absorbed), %ld wrong codes, %ld leaks\n",
           name, rep.allocs, rep.injected, rep.recovered, rep.bad_code, rep.leaked);
    if (rc != 0)
        fail_msg("%s", rep.msg);
    assert_true(rep.injected == rep.allocs);
    /* only the readers may absorb a failure (stdio goes unbuffered, libcsv retries); elsewhere a failing run that
     * still succeeds means an out-of-memory was taken for something else (a singular variant, ...) */
    if (rep.recovered && !strstr(name, "config_read"))
        fail_msg("%s: %ld failing runs succeeded: an out-of-memory was hidden", name, rep.recovered);
    return rep.allocs;
}

/* ---- friction ---- */
typedef struct fr_ctx {
    char path[1024];
    mech_friction_config *cfg;
    mech_friction_mech *mc;
    mech_friction_model *model;
    mech_friction_data *data;
    mech_friction_sim *sim;
    double t1;
} fr_ctx;

static int fr_read_call(void *p)
{
    fr_ctx *c = p;
    hy_err err;
    return mech_friction_config_read(c->path, c->cfg, &err);
}

static int fr_mech_call(void *p)
{
    fr_ctx *c = p;
    hy_err err;
    return mech_friction_mech_new(c->cfg, &c->mc, &err);
}

static void fr_mech_clean(void *p)
{
    fr_ctx *c = p;
    mech_friction_mech_free(c->mc);
    c->mc = NULL;
}

static int fr_model_call(void *p)
{
    fr_ctx *c = p;
    hy_err err;
    mech_friction_contact k[2] = {{2, {0.3, 0.3}, {0.5, 0.5}}, {1, {0.2, 0.2}, {0.2, 0.2}}};
    return mech_friction_model_new(1, 2, 2, k, NULL, &c->model, &err);
}

static void fr_model_clean(void *p)
{
    fr_ctx *c = p;
    mech_friction_model_free(c->model);
    c->model = NULL;
}

static int fr_data_call(void *p)
{
    fr_ctx *c = p;
    hy_err err;
    return mech_friction_data_new(c->mc->model, &c->data, &err);
}

static void fr_data_clean(void *p)
{
    fr_ctx *c = p;
    mech_friction_data_free(c->data);
    c->data = NULL;
}

/* the stages on a data assembled at the initial state */
static int fr_assemble(fr_ctx *c)
{
    double Qa[8], ke;
    hy_err err;
    return mech_friction_mech_assemble(c->mc, 0.0, c->mc->cfg.q0, c->mc->cfg.qd0, c->data, Qa, &ke, &err);
}

static int fr_prepare_call(void *p)
{
    fr_ctx *c = p;
    hy_err err;
    int rc = fr_assemble(c);
    return rc ? rc : mech_friction_prepare(c->mc->model, c->data, &err);
}

static int fr_solve_call(void *p)
{
    fr_ctx *c = p;
    hy_err err;
    int rc = fr_prepare_call(p);
    return rc ? rc : mech_friction_solve(c->mc->model, c->data, &err);
}

static int fr_enum_call(void *p)
{
    fr_ctx *c = p;
    hy_err err;
    int count, rc = fr_prepare_call(p);
    return rc ? rc : mech_friction_enumerate(c->mc->model, c->data, &count, &err);
}

static int fr_lp_call(void *p)
{
    fr_ctx *c = p;
    hy_err err;
    int rc = fr_prepare_call(p);
    return rc ? rc : mech_friction_lp(c->mc->model, c->data, &err);
}

static int fr_check_call(void *p)
{
    fr_ctx *c = p;
    hy_err err;
    mech_friction_verdict v;
    int rc = fr_prepare_call(p);
    return rc ? rc : mech_friction_check(c->mc->model, c->data, 1.0, &v, &err);
}

static int fr_limit_call(void *p)
{
    fr_ctx *c = p;
    hy_err err;
    double scale;
    int rc = fr_prepare_call(p);
    return rc ? rc : mech_friction_mu_limit(c->mc->model, c->data, 4.0, &scale, &err);
}

static int fr_sim_call(void *p)
{
    fr_ctx *c = p;
    hy_err err;
    return mech_friction_sim_new(c->mc, &c->sim, &err);
}

static void fr_sim_clean(void *p)
{
    fr_ctx *c = p;
    mech_friction_sim_free(c->sim);
    c->sim = NULL;
}

static int fr_advance_call(void *p)
{
    fr_ctx *c = p;
    hy_err err;
    int rc = mech_friction_sim_new(c->mc, &c->sim, &err);
    return rc ? rc : mech_friction_sim_advance(c->sim, c->t1, &err);
}

static void test_friction(void **state)
{
    (void)state;
    static const char *files[] = {"symmetric-guide.json", "screw-nut-backdrive.json", "slider-crank.json",
                                  "bushing-moment-reversal.json"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        fr_ctx c = {0};
        char rel[256], name[128];
        snprintf(rel, sizeof rel, "mech/friction/%s", files[f]);
        fixture(c.path, sizeof c.path, rel);
        c.cfg = malloc(sizeof *c.cfg);
        assert_non_null(c.cfg);
        snprintf(name, sizeof name, "mech_friction_config_read (%s)", files[f]);
        check(name, fr_read_call, NULL, &c);
        hy_err err;
        assert_int_equal(mech_friction_config_read(c.path, c.cfg, &err), HY_OK);
        check("mech_friction_mech_new", fr_mech_call, fr_mech_clean, &c);
        assert_int_equal(mech_friction_mech_new(c.cfg, &c.mc, &err), HY_OK);
        /* the struct and the one buffer holding every array, the SVD workspace of the minimum-norm split included
           (GLPK's own allocations are excluded) */
        assert_int_equal(check("mech_friction_data_new", fr_data_call, fr_data_clean, &c), 2);
        assert_int_equal(mech_friction_data_new(c.mc->model, &c.data, &err), HY_OK);
        check("mech_friction_prepare", fr_prepare_call, NULL, &c);
        check("mech_friction_solve", fr_solve_call, NULL, &c);
        check("mech_friction_enumerate", fr_enum_call, NULL, &c);
        check("mech_friction_lp", fr_lp_call, NULL, &c);
        check("mech_friction_check", fr_check_call, NULL, &c);
        check("mech_friction_mu_limit", fr_limit_call, NULL, &c);
        mech_friction_data_free(c.data);
        long sim_new = check("mech_friction_sim_new", fr_sim_call, fr_sim_clean, &c);
        c.t1 = 20 * c.cfg->step;
        check("mech_friction_sim_advance (20 steps)", fr_advance_call, fr_sim_clean, &c);
        mech_friction_mech_free(c.mc);
        /* the same mechanism at rest: stuck contacts, statically indeterminate when two pairs share a sliding
           direction (the bushings: the minimum-norm split by SVD). Its workspace is in the data, so nothing
           allocates: before, solve 8, enumerate 40 and 20 steps ~2000 allocations (hy_lstsq_svd) */
        memset(c.cfg->qd0, 0, sizeof c.cfg->qd0);
        assert_int_equal(mech_friction_mech_new(c.cfg, &c.mc, &err), HY_OK);
        assert_int_equal(mech_friction_data_new(c.mc->model, &c.data, &err), HY_OK);
        assert_int_equal(check("mech_friction_solve (at rest)", fr_solve_call, NULL, &c), 0);
        if (c.mc->cfg.kind == MECH_FRICTION_BUSHING) /* the split was reached: both pairs stuck on the axial x */
            for (int j = 0; j < c.mc->cfg.nc; j++)
                assert_int_equal(c.data->slip[j], 0);
        assert_int_equal(check("mech_friction_enumerate (at rest)", fr_enum_call, NULL, &c), 0);
        mech_friction_data_free(c.data);
        /* the steps allocate nothing: only mech_friction_sim_new's allocations are counted */
        assert_int_equal(check("mech_friction_sim_advance (at rest, 20 steps)", fr_advance_call, fr_sim_clean, &c),
                         sim_new);
        mech_friction_mech_free(c.mc);
        free(c.cfg);
    }
    fr_ctx c = {0};
    check("mech_friction_model_new", fr_model_call, fr_model_clean, &c);
}

/* ---- beam ---- */
typedef struct beam_ctx {
    char path[1024];
    mech_beam_config *cfg;
    mech_beam_params params;
    mech_beam_model *model;
    mech_beam_data *data;
    mech_beam_lqr lqr;
    int design;
} beam_ctx;

static int beam_read_call(void *p)
{
    beam_ctx *c = p;
    hy_err err;
    return mech_beam_config_read(c->path, c->cfg, &err);
}

static void beam_read_clean(void *p)
{
    beam_ctx *c = p;
    mech_beam_config_free(c->cfg);
}

static int beam_model_call(void *p)
{
    beam_ctx *c = p;
    hy_err err;
    return mech_beam_model_new(&c->params, &c->model, &err);
}

static void beam_model_clean(void *p)
{
    beam_ctx *c = p;
    mech_beam_model_free(c->model);
    c->model = NULL;
}

static int beam_data_call(void *p)
{
    beam_ctx *c = p;
    hy_err err;
    return mech_beam_data_new(c->model, &c->cfg->solver, &c->cfg->load, NULL, NULL, NULL, &c->data, &err);
}

static void beam_data_clean(void *p)
{
    beam_ctx *c = p;
    mech_beam_data_free(c->data);
    c->data = NULL;
}

static int beam_freq_call(void *p)
{
    beam_ctx *c = p;
    hy_err err;
    double f[256];
    int rc = mech_beam_freq_clamped(c->model, f, &err);
    if (!rc)
        rc = mech_beam_freq_system(c->model, f, &err);
    if (!rc)
        rc = mech_beam_freq_open(c->model, f, &err);
    return rc;
}

static int beam_lqr_call(void *p)
{
    beam_ctx *c = p;
    hy_err err;
    return mech_beam_lqr_design(c->model, c->design, 600, 0.1, &c->lqr, &err);
}

static int beam_linear_call(void *p)
{
    beam_ctx *c = p;
    hy_err err;
    static double A[64 * 64], B[64];
    size_t ns;
    return mech_beam_linear(c->model, c->design, A, B, &ns, &err);
}

static void beam_lqr_clean(void *p)
{
    beam_ctx *c = p;
    mech_beam_lqr_free(&c->lqr);
    memset(&c->lqr, 0, sizeof c->lqr);
}

static void test_beam(void **state)
{
    (void)state;
    static const char *files[] = {"fitted-hinge.json", "hinges-4.json"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        beam_ctx c = {0};
        char rel[256], name[128];
        snprintf(rel, sizeof rel, "mech/beam/%s", files[f]);
        fixture(c.path, sizeof c.path, rel);
        c.cfg = calloc(1, sizeof *c.cfg);
        assert_non_null(c.cfg);
        snprintf(name, sizeof name, "mech_beam_config_read (%s)", files[f]);
        check(name, beam_read_call, beam_read_clean, &c);
        hy_err err;
        assert_int_equal(mech_beam_config_read(c.path, c.cfg, &err), HY_OK);
        c.params = c.cfg->params;
        check("mech_beam_model_new", beam_model_call, beam_model_clean, &c);
        assert_int_equal(mech_beam_model_new(&c.params, &c.model, &err), HY_OK);
        check("mech_beam_data_new", beam_data_call, beam_data_clean, &c);
        check("mech_beam_freq_clamped/system/open", beam_freq_call, NULL, &c);
        mech_beam_model_free(c.model);
        mech_beam_config_free(c.cfg);
        free(c.cfg);
    }
    /* a force history read from a CSV file next to the configuration */
    beam_ctx c = {0};
    char dir[] = "/tmp/fault-beam-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char csv[1100];
    snprintf(csv, sizeof csv, "%s/force.csv", dir);
    snprintf(c.path, sizeof c.path, "%s/beam.json", dir);
    FILE *fp = fopen(csv, "w");
    assert_non_null(fp);
    fputs("time,force\n0,0\n0.001,300\n0.005,300\n0.0051,0\n0.3,0\n", fp);
    fclose(fp);
    fp = fopen(c.path, "w");
    assert_non_null(fp);
    fputs("{\"format\": \"mech-beam\", \"load\": {\"F0\": 0, \"history\": \"force.csv\", \"history_t\": \"time\","
          " \"history_F\": \"force\"}, \"solver\": {\"duration\": 0.3}}", fp);
    fclose(fp);
    c.cfg = calloc(1, sizeof *c.cfg);
    assert_non_null(c.cfg);
    check("mech_beam_config_read (force history)", beam_read_call, beam_read_clean, &c);
    free(c.cfg);
    unlink(csv);
    unlink(c.path);
    rmdir(dir);

    /* LQR on the paper's model with the MFC */
    mech_beam_params_default(&c.params);
    c.params.hinge[0].clearance = 0.005;
    c.params.mfc.enabled = 1;
    hy_err err;
    assert_int_equal(mech_beam_model_new(&c.params, &c.model, &err), HY_OK);
    mech_beam_info info;
    mech_beam_model_info(c.model, &info);
    assert_true(2 * (1 + info.nm) <= 64); /* the static A, B of beam_linear_call */
    c.design = MECH_BEAM_DESIGN_THETA;
    check("mech_beam_linear (theta state)", beam_linear_call, NULL, &c);
    c.design = MECH_BEAM_DESIGN_FLEX;
    check("mech_beam_linear (flexible)", beam_linear_call, NULL, &c);
    check("mech_beam_lqr_design (flexible)", beam_lqr_call, beam_lqr_clean, &c);
    mech_beam_model_free(c.model);
}

/* ---- ctrl: a damped 3-mass chain pushed at one end (n = 6, m = 1) ---- */
#define CN 6
typedef struct ctrl_ctx {
    double A[CN * CN], B[CN], Q[CN * CN], R[1], X[CN * CN], K[CN], re[CN], im[CN];
} ctrl_ctx;

static void ctrl_system(ctrl_ctx *c)
{
    memset(c, 0, sizeof *c);
    const double k = 100.0, d = 0.5;
    for (int i = 0; i < 3; i++) {
        c->A[i * CN + 3 + i] = 1.0;
        double kk = (i > 0 ? k : 0) + (i < 2 ? k : 0) + (i == 0 ? k : 0);
        c->A[(3 + i) * CN + i] = -kk;
        c->A[(3 + i) * CN + 3 + i] = -d;
        if (i > 0)
            c->A[(3 + i) * CN + i - 1] = k;
        if (i < 2)
            c->A[(3 + i) * CN + i + 1] = k;
    }
    c->B[5] = 1.0;
    for (int i = 0; i < CN; i++)
        c->Q[i * CN + i] = 10.0;
    c->R[0] = 0.1;
}

static int ctrl_care_call(void *p)
{
    ctrl_ctx *c = p;
    hy_err err;
    return mech_ctrl_care(CN, 1, c->A, c->B, c->Q, c->R, c->X, &err);
}

static int ctrl_schur_call(void *p)
{
    ctrl_ctx *c = p;
    hy_err err;
    return mech_ctrl_care_schur(CN, 1, c->A, c->B, c->Q, c->R, c->X, &err);
}

static int ctrl_lqr_call(void *p)
{
    ctrl_ctx *c = p;
    hy_err err;
    return mech_ctrl_lqr(CN, 1, c->A, c->B, c->Q, c->R, c->K, c->X, c->re, c->im, &err);
}

static int ctrl_stab_call(void *p)
{
    ctrl_ctx *c = p;
    hy_err err;
    double br, bi;
    int r = mech_ctrl_stabilisable(CN, 1, c->A, c->B, -1, &br, &bi, &err);
    return r == 1 ? HY_OK : r == 0 ? HY_EMODEL : err.code;
}

static int ctrl_detect_call(void *p)
{
    ctrl_ctx *c = p;
    hy_err err;
    double br, bi;
    int r = mech_ctrl_detectable(CN, CN, c->A, c->Q, -1, &br, &bi, &err);
    return r == 1 ? HY_OK : r == 0 ? HY_EMODEL : err.code;
}

static int ctrl_tol_call(void *p)
{
    ctrl_ctx *c = p;
    hy_err err;
    return mech_ctrl_default_tol(CN, c->A, &err) < 0 ? err.code : HY_OK;
}

static int ctrl_poles_call(void *p)
{
    ctrl_ctx *c = p;
    hy_err err;
    return mech_ctrl_poles(CN, c->A, c->re, c->im, &err);
}

/* documented: a negative value when out of memory */
static int ctrl_residual_call(void *p)
{
    ctrl_ctx *c = p;
    return mech_ctrl_care_residual(CN, 1, c->A, c->B, c->Q, c->R, c->X, NULL) < 0 ? HY_ENOMEM : HY_OK;
}

static void test_ctrl(void **state)
{
    (void)state;
    ctrl_ctx c;
    ctrl_system(&c);
    check("mech_ctrl_care (SLICOT)", ctrl_care_call, NULL, &c);
    check("mech_ctrl_care_schur", ctrl_schur_call, NULL, &c);
    check("mech_ctrl_lqr", ctrl_lqr_call, NULL, &c);
    check("mech_ctrl_stabilisable", ctrl_stab_call, NULL, &c);
    check("mech_ctrl_detectable", ctrl_detect_call, NULL, &c);
    check("mech_ctrl_default_tol", ctrl_tol_call, NULL, &c);
    check("mech_ctrl_poles", ctrl_poles_call, NULL, &c);
    check("mech_ctrl_care_residual", ctrl_residual_call, NULL, &c);
}

/* ---- body: a floating base with a 3-body chain (revolute, prismatic, revolute) and one free body ---- */
typedef struct body_ctx {
    mech_body_def def;
    mech_body_joint_def J[3];
    mech_body_free_def fr[1];
    mech_body_model *m;
    mech_body_data *d;
    mech_body_sim *sim;
    double buf[64 * 64];
} body_ctx;

static void body_system(body_ctx *c)
{
    memset(c, 0, sizeof *c);
    c->def.base_mode = MECH_BODY_FLOATING;
    c->def.base.mass = 10.0;
    c->def.base.inertia = mech_mat3_diag(1.0, 2.0, 2.5);
    static const char *names[3] = {"arm", "slide", "tip"};
    for (int k = 0; k < 3; k++) {
        c->J[k].name = names[k];
        c->J[k].parent = k;
        c->J[k].type = k == 1 ? MECH_BODY_PRISMATIC : MECH_BODY_REVOLUTE;
        c->J[k].axis = k;
        c->J[k].mount = mech_mat3_identity();
        c->J[k].offset = mech_vec3_make(0.3, 0, 0);
        c->J[k].mass = 1.0 + k;
        /* the CoM at the joint origin: the inertia is then the same about both (the definition takes it about the
           origin) */
        c->J[k].inertia = mech_mat3_diag(0.01, 0.02, 0.02);
    }
    c->def.n = 3;
    c->def.joints = c->J;
    c->fr[0].name = "loose";
    c->fr[0].mass = 2.0;
    c->fr[0].inertia = mech_mat3_diag(0.1, 0.1, 0.1);
    c->def.nfree = 1;
    c->def.free = c->fr;
    c->def.gravity = mech_vec3_make(0, 0, -9.81);
}

static int body_model_call(void *p)
{
    body_ctx *c = p;
    hy_err err;
    return mech_body_model_new(&c->def, &c->m, &err);
}

static void body_model_clean(void *p)
{
    body_ctx *c = p;
    mech_body_model_free(c->m);
    c->m = NULL;
}

static int body_data_call(void *p)
{
    body_ctx *c = p;
    hy_err err;
    return mech_body_data_new(c->m, &c->d, &err);
}

static void body_data_clean(void *p)
{
    body_ctx *c = p;
    mech_body_data_free(c->d);
    c->d = NULL;
}

static int body_sim_call(void *p)
{
    body_ctx *c = p;
    hy_err err;
    mech_body_sim_opts o = {1e-3, NULL, NULL, NULL, NULL, 0};
    int rc = mech_body_sim_new(c->m, &o, &c->sim, &err);
    if (rc)
        return rc;
    rc = mech_body_sim_start(c->sim, 0.0, c->buf, &err);
    return rc ? rc : mech_body_sim_advance(c->sim, 5e-3, &err);
}

static void body_sim_clean(void *p)
{
    body_ctx *c = p;
    mech_body_sim_free(c->sim);
    c->sim = NULL;
}

static int body_crba_call(void *p)
{
    body_ctx *c = p;
    hy_err err;
    return mech_body_crba(c->m, c->d, c->buf, &err);
}

static int body_rne_call(void *p)
{
    body_ctx *c = p;
    hy_err err;
    return mech_body_rne(c->m, c->d, c->buf, &err);
}

static int body_ref_call(void *p)
{
    body_ctx *c = p;
    hy_err err;
    return mech_body_forward_reference(c->m, c->d, c->buf, &err);
}

static void test_body(void **state)
{
    (void)state;
    body_ctx *c = malloc(sizeof *c);
    assert_non_null(c);
    body_system(c);
    {
        hy_err e;
        if (mech_body_model_new(&c->def, &c->m, &e) != HY_OK)
            fail_msg("%s", e.msg);
        mech_body_model_free(c->m);
    }
    check("mech_body_model_new", body_model_call, body_model_clean, c);
    hy_err err;
    assert_int_equal(mech_body_model_new(&c->def, &c->m, &err), HY_OK);
    check("mech_body_data_new", body_data_call, body_data_clean, c);
    /* a state: identity quaternions, some joint angles and rates (buf doubles as y, then as the output) */
    mech_body_layout L = mech_body_model_layout(c->m);
    double y[64] = {0};
    y[L.base_quat] = 1.0;
    y[L.free_pos + 3] = 1.0;
    for (int k = 0; k < 3; k++) {
        y[L.q + k] = 0.2 * (k + 1);
        y[L.qd + k] = 0.5 - 0.3 * k;
    }
    y[L.base_omega] = 0.1;
    memcpy(c->buf, y, sizeof y);
    check("mech_body_sim_new + start + advance", body_sim_call, body_sim_clean, c);
    assert_int_equal(mech_body_data_new(c->m, &c->d, &err), HY_OK);
    mech_body_set_state(c->m, c->d, 0.0, y);
    mech_body_kinematics(c->m, c->d);
    mech_body_clear_loads(c->m, c->d);
    check("mech_body_crba", body_crba_call, NULL, c);
    check("mech_body_rne", body_rne_call, NULL, c);
    check("mech_body_forward_reference", body_ref_call, NULL, c);
    mech_body_data_free(c->d);
    mech_body_model_free(c->m);
    free(c);
}

/* ---- contact: three spheres and a plane on three bodies ---- */
typedef struct contact_ctx {
    mech_contact_pair pr[3];
    mech_contact_model *m;
    mech_contact_data *d;
} contact_ctx;

static int contact_model_call(void *p)
{
    contact_ctx *c = p;
    hy_err err;
    return mech_contact_model_new(3, 3, c->pr, &c->m, &err);
}

static void contact_model_clean(void *p)
{
    contact_ctx *c = p;
    mech_contact_model_free(c->m);
    c->m = NULL;
}

static int contact_data_call(void *p)
{
    contact_ctx *c = p;
    c->d = mech_contact_data_new(c->m);
    return c->d ? HY_OK : HY_ENOMEM;
}

static void contact_data_clean(void *p)
{
    contact_ctx *c = p;
    mech_contact_data_free(c->d);
    c->d = NULL;
}

static void test_contact(void **state)
{
    (void)state;
    contact_ctx c;
    memset(&c, 0, sizeof c);
    for (int i = 0; i < 3; i++) {
        mech_contact_pair *pr = &c.pr[i];
        snprintf(pr->name, sizeof pr->name, "pair-%d", i);
        pr->body_a = i;
        pr->body_b = (i + 1) % 3;
        pr->shape_a = mech_contact_sphere(0.05);
        pr->shape_b = i == 2 ? mech_contact_plane(1.0, 1.0) : mech_contact_sphere(0.05 + 0.01 * i);
        pr->local_a.rot = pr->local_b.rot = mech_mat3_identity();
        pr->law.k = 1e6;
        pr->law.n = 1.5;
        pr->law.e = 0.8;
        pr->law.mu_s = 0.4;
        pr->law.mu_k = 0.3;
        pr->law.kt = 1e5;
        pr->law.v_min = 1e-3;
    }
    check("mech_contact_model_new", contact_model_call, contact_model_clean, &c);
    hy_err err;
    assert_int_equal(mech_contact_model_new(3, 3, c.pr, &c.m, &err), HY_OK);
    check("mech_contact_data_new", contact_data_call, contact_data_clean, &c);
    mech_contact_model_free(c.m);
}

int main(void)
{
    fault_exclude("libglpk|libopenblas");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_friction), cmocka_unit_test(test_beam), cmocka_unit_test(test_ctrl),
        cmocka_unit_test(test_body), cmocka_unit_test(test_contact),
    };
    if (getenv("FAULT_ONLY"))
        cmocka_set_test_filter(getenv("FAULT_ONLY"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}

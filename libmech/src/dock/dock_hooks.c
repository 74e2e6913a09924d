/* The structural hooks and the rigid joint (issue 44; RP-1 §1.2; mech/dock_hooks.h for the model and its closed
 * forms; docs/dock-process.md §9 for the values, their basis and confidence). Like the probe drive (dock_drive.c),
 * the jaw is advanced in closed form from the committed state to any stage time: closing at `speed`, stalled at the
 * drive's pull limit, stopped at the lock; so it needs no integrator state of its own. */
#include <math.h>
#include <string.h>
#include "mech/dock_hooks.h"

static const char *const hook_state_name[MECH_DOCK_HOOK_NSTATE] = {"open", "closing", "locked", "missed"};

const char *mech_dock_hook_state_name(int st)
{
    return st >= 0 && st < MECH_DOCK_HOOK_NSTATE ? hook_state_name[st] : "?";
}

void mech_dock_hooks_params_rp1(mech_dock_hooks_params *p)
{
    memset(p, 0, sizeof *p);
    p->n = 8;                    /* RP-1 §1.2 (M): 8 hooks                                                     */
    p->radius = 0.55;            /* on the collar outside the 0.80 m passage and the pushers' 0.45 m ring       */
    p->psi0 = M_PI / 8;          /* 22.5 + 45 j deg: two links per side, none on a pusher's azimuth (45 + 90 k) */
    p->capture_range = 5e-3;     /* the planes within 5 mm at every rod: the sequencer's gap_closed             */
    p->speed = 1e-3;             /* jaw travel 5 mm + 5 mm of stretch in 10 s                                   */
    p->stiffness = 2e6;          /* the spring pack dominates: 8 links (1.6e7 N/m) softer than the planes' 8e7 N/m,
                                    so the preload survives the collars' compression (83 %)                     */
    p->damping = 2e4;            /* 0.35 of critical of one link on a 1 t share of a 20 t vehicle: k = 2e6      */
    p->shear_stiffness = 2e7;    /* the hook body and the collar in shear, ten times the spring pack: the jaws
                                    hold the vehicles' 6e4 kg m^2 in roll at 28 rad/s (n k_s r^2 = 4.8e7 N m/rad) */
    p->shear_damping = 2e5;      /* ~0.3 of critical of the 20 t vehicle on the 8 jaws across the plane         */
    p->preload = 1e4;            /* 8 x 10 kN = 80 kN: the joint opens under 80 kN of separating load           */
    p->force_max = 1.5e4;        /* 1.5 x the preload: reaches the lock with the collars' compression           */
    p->preload_min = 5e3;        /* half the preload                                                             */
    p->roll_tol = M_PI / 180;    /* a 10 mm catch half-width at 0.55 m                                          */
    p->tilt_tol = 0.5 * M_PI / 180; /* the capture range over the collar's diameter: 5 mm / 1.1 m = 0.26 deg, x 2  */
    p->contact_gap = 1e-4;       /* a gap sensor's resolution; the preloaded planes press 0.8 mm into each other */
}

static int bad(hy_err *err, const char *key, const char *range, double v)
{
    return hy_err_set(err, HY_EMODEL, "hooks.%s: %s (got %.17g)", key, range, v);
}

int mech_dock_hooks_check(const mech_dock_hooks_params *p, hy_err *err)
{
    if (p->n < 1 || p->n > MECH_DOCK_HOOK_MAX)
        return hy_err_set(err, HY_EMODEL, "hooks.n = %d: expected an integer 1..%d", p->n, MECH_DOCK_HOOK_MAX);
    struct { const char *key, *unit; double v; int zero_ok; } k[] = {
        {"radius", "m", p->radius, 0},          {"capture_range", "m", p->capture_range, 0},
        {"speed", "m/s", p->speed, 0},          {"stiffness", "N/m", p->stiffness, 0},
        {"damping", "N s/m", p->damping, 1},    {"preload", "N", p->preload, 0},
        {"shear_stiffness", "N/m", p->shear_stiffness, 0}, {"shear_damping", "N s/m", p->shear_damping, 1},
        {"force_max", "N", p->force_max, 0},    {"preload_min", "N", p->preload_min, 0},
        {"roll_tol", "rad", p->roll_tol, 0},    {"tilt_tol", "rad", p->tilt_tol, 0},
        {"contact_gap", "m", p->contact_gap, 1}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (!isfinite(k[i].v) || k[i].v < 0 || (!k[i].zero_ok && k[i].v == 0))
            return hy_err_set(err, HY_EMODEL, "hooks.%s: must be a finite number %s %s (got %.17g)", k[i].key,
                              k[i].zero_ok ? ">= 0" : "> 0", k[i].unit, k[i].v);
    if (!isfinite(p->psi0))
        return bad(err, "psi0", "must be finite", p->psi0);
    if (!(p->force_max > p->preload))
        return hy_err_set(err, HY_EMODEL,
                          "hooks.force_max: the drive's pull limit (%.17g N) must exceed hooks.preload (%.17g N), or "
                          "the jaws stall before the lock", p->force_max, p->preload);
    if (!(p->preload_min <= p->preload))
        return hy_err_set(err, HY_EMODEL, "hooks.preload_min: must not exceed hooks.preload (%.17g N) (got %.17g)",
                          p->preload, p->preload_min);
    return HY_OK;
}

int mech_dock_hooks_init(mech_dock_hooks *h, const mech_dock_hooks_params *p, hy_err *err)
{
    int rc = mech_dock_hooks_check(p, err);
    if (rc)
        return rc;
    memset(h, 0, sizeof *h);
    h->p = *p;
    h->a_end = -p->preload / p->stiffness;
    for (int j = 0; j < p->n; j++) {
        double psi = p->psi0 + 2 * M_PI * j / p->n;
        h->base[j] = mech_vec3_make(0, p->radius * cos(psi), p->radius * sin(psi));
        h->committed.a[j] = p->capture_range;
        h->committed.st[j] = MECH_DOCK_HOOK_OPEN;
    }
    h->trial = h->committed;
    return HY_OK;
}

/* the docked pose of the passive plane in the active-plane frame (its x towards the active vehicle) */
static mech_mat3 docked_pose(void) { return mech_mat3_diag(-1, 1, -1); }

void mech_dock_hooks_catches(const mech_dock_hooks *h, mech_dock_hooks_out *out)
{
    const mech_vec3 n = mech_mat3_col(out->R, 0);
    const mech_mat3 D = docked_pose();
    for (int j = 0; j < h->p.n; j++) {
        const mech_vec3 b = h->base[j];
        if (!(n.x < 0)) {
            out->tip[j] = b;
            out->miss[j] = INFINITY;
            continue;
        }
        mech_vec3 tip = mech_vec3_axpy(b, out->g[j], mech_vec3_unit(0));
        /* the passive collar's catch for this link (its nominal place: the link's point in the docked pose), how
           far across the plane it lies from the link's point */
        mech_vec3 dc = mech_vec3_sub(mech_vec3_add(out->o, mech_mat3_apply(out->R, mech_mat3_tapply(D, b))), tip);
        out->tip[j] = tip;
        out->miss[j] = mech_vec3_norm(mech_vec3_axpy(dc, -mech_vec3_dot(dc, n), n));
    }
}

int mech_dock_hooks_start(mech_dock_hooks *h, const mech_dock_hooks_out *trial_out)
{
    mech_dock_hooks_out at = *trial_out;
    mech_dock_hooks_catches(h, &at);
    int n = 0;
    for (int j = 0; j < h->p.n; j++) {
        if (h->committed.st[j] != MECH_DOCK_HOOK_OPEN)
            continue;
        /* NaN gaps and misses are refused by the comparisons */
        int catch_ = at.g[j] <= h->p.capture_range && at.miss[j] <= h->p.roll_tol * h->p.radius;
        h->committed.st[j] = catch_ ? MECH_DOCK_HOOK_CLOSING : MECH_DOCK_HOOK_MISSED;
        h->committed.a[j] = h->p.capture_range;
        if (catch_)   /* the catch's point, held where the jaw closed on it */
            h->committed.anchor[j] = mech_mat3_tapply(at.R, mech_vec3_sub(at.tip[j], at.o));
        n += catch_;
    }
    h->trial = h->committed;
    return n;
}

void mech_dock_hooks_trial(mech_dock_hooks *h, double dt, mech_vec3 o, mech_mat3 R, mech_vec3 v_o, mech_vec3 omega,
                           mech_dock_hooks_out *out)
{
    const mech_dock_hooks_params *p = &h->p;
    /* the trial from the committed state, written in place (a local copy and its copy back were two rep movs of
       the whole state at every stage) */
    h->trial = h->committed;
    mech_dock_hooks_state *s = &h->trial;
    mech_vec3 F = {0, 0, 0}, M = {0, 0, 0};
    const mech_vec3 n = mech_mat3_col(R, 0);
    out->gap_max = -INFINITY;
    out->energy = out->p_drive = 0;
    out->n_taut = 0;
    out->o = o;
    out->R = R;
    const int facing = n.x < 0;
    for (int j = 0; j < p->n; j++) {
        const mech_vec3 b = h->base[j];
        double g = facing ? mech_vec3_dot(n, mech_vec3_sub(o, b)) / n.x : INFINITY;
        out->g[j] = g;
        if (g > out->gap_max)   /* fmax without its libm call (a NaN gap is skipped as fmax skips it) */
            out->gap_max = g;
        out->T[j] = s->T[j] = s->ts[j] = out->shear[j] = 0;
        const int st = s->st[j];
        if ((st != MECH_DOCK_HOOK_CLOSING && st != MECH_DOCK_HOOK_LOCKED) || !facing)
            continue;
        mech_vec3 tip = mech_vec3_axpy(b, g, mech_vec3_unit(0));
        mech_vec3 vc = mech_vec3_add(v_o, mech_vec3_cross(omega, mech_vec3_sub(tip, o)));
        double gd = mech_vec3_dot(n, vc) / n.x;
        /* across the plane: the catch's anchored point against the link's point, a spring-damper in the plane */
        mech_vec3 ca = mech_vec3_add(o, mech_mat3_apply(R, s->anchor[j]));
        mech_vec3 u = mech_vec3_sub(ca, tip), vca = mech_vec3_add(v_o, mech_vec3_cross(omega, mech_vec3_sub(ca, o)));
        u = mech_vec3_axpy(u, -mech_vec3_dot(u, n), n);
        vca = mech_vec3_axpy(vca, -mech_vec3_dot(vca, n), n);
        mech_vec3 fs = mech_vec3_add(mech_vec3_scale(u, -p->shear_stiffness), mech_vec3_scale(vca, -p->shear_damping));
        out->shear[j] = mech_vec3_norm(fs);
        out->energy += 0.5 * p->shear_stiffness * mech_vec3_dot(u, u);
        F = mech_vec3_add(F, fs);
        M = mech_vec3_add(M, mech_vec3_cross(ca, fs));
        out->n_taut++;
        double a = s->a[j], ad = 0;
        if (st == MECH_DOCK_HOOK_CLOSING) {
            /* closing at `speed` to the lock; the pull limit stalls the jaw where the spring holds force_max, and
               the self-locking drive never lets it back (a <= the committed jaw) */
            double a_free = fmax(h->a_end, s->a[j] - p->speed * dt);
            double a_stall = g - p->force_max / p->stiffness;
            a = fmin(s->a[j], fmax(a_free, a_stall));
            ad = a > a_free ? (a < s->a[j] ? gd : 0.0) : (a_free > h->a_end ? -p->speed : 0.0);
        }
        s->a[j] = a;
        double str = g - a;
        if (!(str > 0))
            continue;   /* slack along the normal */
        double ts = p->stiffness * str, T = fmax(0.0, ts + p->damping * gd);
        s->ts[j] = ts;
        s->T[j] = T;
        out->T[j] = T;
        out->energy += 0.5 * ts * str;
        out->p_drive += ts * -ad;
        mech_vec3 f = mech_vec3_scale(n, T);   /* pulls the passive plane towards the active one */
        F = mech_vec3_add(F, f);
        M = mech_vec3_add(M, mech_vec3_cross(tip, f));
    }
    s->dt = dt;
    out->force = F;
    out->moment = M;
}

void mech_dock_hooks_commit(mech_dock_hooks *h)
{
    mech_dock_hooks_state *c = &h->committed, *t = &h->trial;
    for (int j = 0; j < h->p.n; j++) {
        t->work += 0.5 * (c->ts[j] + t->ts[j]) * (c->a[j] - t->a[j]);
        if (t->st[j] == MECH_DOCK_HOOK_CLOSING && t->a[j] <= h->a_end)
            t->st[j] = MECH_DOCK_HOOK_LOCKED;
    }
    *c = *t;
}

void mech_dock_hooks_revert(mech_dock_hooks *h) { h->trial = h->committed; }

static int count(const mech_dock_hooks *h, int st)
{
    int k = 0;
    for (int j = 0; j < h->p.n; j++)
        k += h->committed.st[j] == st;
    return k;
}

int mech_dock_hooks_n_locked(const mech_dock_hooks *h) { return count(h, MECH_DOCK_HOOK_LOCKED); }
int mech_dock_hooks_n_missed(const mech_dock_hooks *h) { return count(h, MECH_DOCK_HOOK_MISSED); }

double mech_dock_hooks_tension_min(const mech_dock_hooks *h)
{
    double t = INFINITY;
    for (int j = 0; j < h->p.n; j++)
        t = fmin(t, h->committed.T[j]);
    return t;
}

int mech_dock_hooks_closed(const mech_dock_hooks *h)
{
    return mech_dock_hooks_n_locked(h) == h->p.n && mech_dock_hooks_tension_min(h) >= h->p.preload_min;
}

int mech_dock_hooks_docked(const mech_dock_hooks *h, double gap_rods, double roll, double tilt)
{
    int bits = 0;
    if (!mech_dock_hooks_closed(h))
        bits |= MECH_DOCK_DOCKED_HOOKS;
    if (!(gap_rods <= h->p.contact_gap))
        bits |= MECH_DOCK_DOCKED_GAP;
    if (!(fabs(roll) <= h->p.roll_tol))
        bits |= MECH_DOCK_DOCKED_ROLL;
    if (!(fabs(tilt) <= h->p.tilt_tol))
        bits |= MECH_DOCK_DOCKED_TILT;
    return bits;
}

const char *mech_dock_docked_reason(int bits)
{
    if (bits & MECH_DOCK_DOCKED_HOOKS)
        return "hooks not locked with preload";
    if (bits & MECH_DOCK_DOCKED_GAP)
        return "planes not in contact at every rod";
    if (bits & MECH_DOCK_DOCKED_ROLL)
        return "roll beyond the hooks' tolerance";
    if (bits & MECH_DOCK_DOCKED_TILT)
        return "tilt beyond the hooks' tolerance";
    return "docked";
}

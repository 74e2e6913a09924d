/* The structural hooks of the docking collars and the rigid joint (issue 44; RP-1 §1.2: 8 hooks, in pairs, one
 * fixed and one movable per side; docs/dock-process.md §9). The probe only brings the docking planes together; the
 * hooks make the joint: once every hook is within its capture range the hook drive closes them (engagement),
 * pulls the planes flush (pull-in) and stretches the links to their preload at the lock (preload). The planes then
 * bear on each other, and the relative motion of the two vehicles is bounded by the link and collar stiffness.
 *
 * Model (active-plane frame as the pushers': x along the active axis towards the passive vehicle, origin at the
 * active docking plane's centre). Link j sits at radius r, azimuth psi_j = psi0 + 2 pi j / n. Its gap g_j is the
 * distance along +x from its base b_j = (0, r cos psi_j, r sin psi_j) to the passive plane (the rods' gap of
 * dock_proc.c: g = n . (o - b) / n_x). Each link is a tension-only spring between its jaw and the catch:
 *   jaw a_j (the gap at which the link is slack-taut): starts at capture_range, driven down at `speed` to the
 *   lock a_end = -preload / stiffness (a link at zero gap then holds the preload);
 *   tension T_j = max(0, k (g_j - a_j) + c g_j')  while g_j > a_j (engaged), else 0;
 *   drive pull limit: while closing, k (g_j - a_j) <= force_max: the jaw stalls (a_j = g_j - force_max / k,
 *   never moving back: the hook drive is self-locking);
 *   lock: a_j reaches a_end; from then on the jaw is fixed and the link is a plain spring.
 * The force of a link acts on the passive vehicle at the link's point on the passive plane, along the plane's
 * normal towards the active vehicle (the active vehicle takes the opposite). The hook drive's work is an input
 * of the energy budget: power T_s (-a_j') with T_s = k (g_j - a_j) the spring part.
 * Engagement: when the drive starts, a link engages when its gap is within capture_range and its catch (the
 * passive collar's fixed hook, at the link's azimuth mirrored into the passive plane: the nominal docked pose) lies
 * across the plane within roll_tol r of the jaw (the catch's half-width); else it misses. An engaged link holds its
 * catch across the plane too: a spring shear_stiffness (damping shear_damping) from the catch's point on the passive
 * plane at engagement (its anchor, in the passive frame) to the link's point, in the plane. With the normal links
 * this makes the closed joint rigid in all six directions: axial and bending by the links and the planes, shear and
 * torsion by the jaws (a torque M about the docking axis turns it by asin(M / (n k_s r^2))).
 *
 * Closed forms the unit tests check (tests/unit/test_dock_hooks.c): with n links and the planes' contact
 * stiffness K_p, the locked joint holds the planes at g = -n P / (n k + K_p) (P = preload) with a contact force
 * K_p n P / (n k + K_p); a static separating load F moves them by F / (n k + K_p) until F = n P opens them; the
 * pull-in under a resisting load F_r < n force_max reaches flush contact at t = (capture_range + F_r / (n k)) /
 * speed and locks at (capture_range - a_end) / speed (quasi-static).
 *
 * Plain values (params + committed and trial state): nothing allocates, the trial never changes the committed
 * state (OpenSees trial / commit / revert). */
#ifndef MECH_DOCK_HOOKS_H
#define MECH_DOCK_HOOKS_H

#include "hyst/common.h"
#include "mech/math3.h"
#include "mech/dock_process_params.h"
#include "mech/dock.h"

enum mech_dock_hook_state {
    MECH_DOCK_HOOK_OPEN = 0,   /* the hook drive has not started                                              */
    MECH_DOCK_HOOK_CLOSING,    /* engaged, the jaw closing (pull-in, then preload)                            */
    MECH_DOCK_HOOK_LOCKED,     /* the jaw at its lock: preloaded link                                         */
    MECH_DOCK_HOOK_MISSED,     /* the gap was beyond the capture range when the drive started: no engagement  */
    MECH_DOCK_HOOK_NSTATE
};

typedef struct mech_dock_hooks_state {
    double a[MECH_DOCK_HOOK_MAX];     /* jaw positions, m                                                      */
    int    st[MECH_DOCK_HOOK_MAX];    /* enum mech_dock_hook_state                                             */
    double ts[MECH_DOCK_HOOK_MAX];    /* spring tension of the step (the commit's trapezoid), N                */
    double T[MECH_DOCK_HOOK_MAX];     /* link tension (spring + damping, clipped at 0), N                      */
    mech_vec3 anchor[MECH_DOCK_HOOK_MAX]; /* engaged: the catch's point at engagement, passive-plane frame, m    */
    double work;                      /* hook drive work booked over accepted steps, J                         */
    double dt;                        /* trial: time since the committed step, s                               */
} mech_dock_hooks_state;

typedef struct mech_dock_hooks {
    mech_dock_hooks_params p;
    double a_end;                     /* the lock: -preload / stiffness, m                                     */
    mech_vec3 base[MECH_DOCK_HOOK_MAX];   /* link bases on the active plane (active-plane frame)               */
    mech_dock_hooks_state committed, trial;
} mech_dock_hooks;

typedef struct mech_dock_hooks_out {
    mech_vec3 force;      /* total force on the passive vehicle (active-plane frame), N; the active gets -force */
    mech_vec3 moment;     /* its moment about the active plane centre, N m                                     */
    double    g[MECH_DOCK_HOOK_MAX];   /* gaps at the links, m (+INFINITY: the planes do not face each other)  */
    mech_vec3 tip[MECH_DOCK_HOOK_MAX]; /* the links' points on the passive plane (active-plane frame), m       */
    double    miss[MECH_DOCK_HOOK_MAX];/* how far across the plane the nominal catch is from the link's point, m
                                          (tip and miss: filled by mech_dock_hooks_catches, not by the trial)  */
    mech_vec3 o;                       /* the passive plane's centre and its frame (columns: its axes) in the   */
    mech_mat3 R;                       /* active-plane frame, as given to the trial                             */
    double    shear[MECH_DOCK_HOOK_MAX];  /* shear force magnitude of the engaged links, N                     */
    double    T[MECH_DOCK_HOOK_MAX];   /* tensions, N                                                          */
    double    gap_max;    /* the largest link gap, m                                                           */
    double    energy;     /* elastic energy of the taut links, J                                               */
    double    p_drive;    /* power of the hook drive (an input, >= 0), W                                       */
    int       n_taut;     /* engaged links (they hold the planes across; along the normal only when taut)      */
} mech_dock_hooks_out;

// (params) => our estimates (docs/dock-process.md §9: basis and confidence of each)
void mech_dock_hooks_params_rp1(mech_dock_hooks_params *p);
// (params) => HY_OK or HY_EMODEL naming the key "hooks.<name>", its value and the valid range
int mech_dock_hooks_check(const mech_dock_hooks_params *p, hy_err *err);
// (params) => hooks open (not started)
int mech_dock_hooks_init(mech_dock_hooks *h, const mech_dock_hooks_params *p, hy_err *err);
/* the hook drive starts (at a step boundary; changes the committed state) from an accepted trial's geometry: a
 * link whose gap is within capture_range and whose catch is within roll_tol r across the plane engages (jaw at
 * capture_range, the catch anchored where it is), the others miss. Returns the number of links engaged. */
int mech_dock_hooks_start(mech_dock_hooks *h, const mech_dock_hooks_out *at);
// (hooks, a trial's output) => its tip and miss for every link (the catches; the trial leaves them out: cost)
void mech_dock_hooks_catches(const mech_dock_hooks *h, mech_dock_hooks_out *out);
/* (committed state, time dt >= 0 since the committed step, passive plane: centre o and frame R (columns: the
 * passive plane's axes; its normal towards the active vehicle is R's first column; the docked pose is
 * diag(-1, 1, -1)), velocity field (v_o, omega) of the passive body relative to the active one, all in the
 * active-plane frame) => the links' gaps, tensions and loads; the trial state. Never changes the committed state. */
void mech_dock_hooks_trial(mech_dock_hooks *h, double dt, mech_vec3 o, mech_mat3 R, mech_vec3 v_o, mech_vec3 omega,
                           mech_dock_hooks_out *out);
/* the last trial becomes the committed state; the drive's work of the step is booked as the trapezoid of the
 * spring tension over the jaw travel; a jaw at its lock locks the link */
void mech_dock_hooks_commit(mech_dock_hooks *h);
void mech_dock_hooks_revert(mech_dock_hooks *h);
// (committed state) => links locked
int mech_dock_hooks_n_locked(const mech_dock_hooks *h);
// (committed state) => links missed
int mech_dock_hooks_n_missed(const mech_dock_hooks *h);
// (committed state) => 1 when every link is locked with at least preload_min of tension
int mech_dock_hooks_closed(const mech_dock_hooks *h);
// (committed state) => the smallest tension over the links (0 with a link not under tension), N
double mech_dock_hooks_tension_min(const mech_dock_hooks *h);
const char *mech_dock_hook_state_name(int st);

/* The docked state (issue 44: the end of the process is a state, not a timer): every link locked with at least
 * preload_min of tension, the planes in contact at every rod (the largest rod gap <= contact_gap), and the relative
 * roll and tilt of the docking planes within roll_tol, tilt_tol. The sequencer ends the process once this has
 * held for sequencer.docked_hold (mech/dock_process.h). */
enum {
    MECH_DOCK_DOCKED_HOOKS = 1,   /* a link not locked, or locked below preload_min                              */
    MECH_DOCK_DOCKED_GAP = 2,     /* a rod's gap beyond contact_gap                                             */
    MECH_DOCK_DOCKED_ROLL = 4,    /* |roll| > roll_tol                                                          */
    MECH_DOCK_DOCKED_TILT = 8     /* tilt > tilt_tol                                                            */
};
/* (committed hooks, largest rod gap (m), relative roll about the docking axis and tilt between the planes' normals
 * (rad)) => 0 when the docked state holds, else the MECH_DOCK_DOCKED_* bits of what does not */
int mech_dock_hooks_docked(const mech_dock_hooks *h, double gap_rods, double roll, double tilt);
// (bits) => the first unmet condition, as words ("docked" for 0)
const char *mech_dock_docked_reason(int bits);

/* What a process run reports about its hooks and the docked state (mech_dock_sim_hooks; updated at accepted
 * steps). Roll is the relative rotation of the docking planes about the docking axis (the twist of the active
 * port's frame, x flipped, in the cone frame: atan2(R21 - R12, R11 + R22) of that rotation R), tilt the angle
 * between the planes' normals (acos R00); both rad. */
typedef struct mech_dock_hooks_summary {
    double t_start;             /* the hook drive started (CLOSED entered), s (NAN: never)                        */
    int    engaged, missed;     /* links that caught / missed at the start                                       */
    double roll_start;          /* the planes' roll when the hook drive started, rad (NAN: never started)         */
    double miss_max;            /* the largest catch offset across the plane then, m (engaged: <= roll_tol r)    */
    int    locked;              /* links locked at the end                                                       */
    double t_locked;            /* every link locked, s (NAN: never)                                             */
    double t_docked;            /* the docked state last began to hold, s (NAN: never held)                      */
    double tension_min, tension_max;   /* over the links at the end, N                                            */
    double tension_peak;        /* largest link tension over the run, N                                          */
    double work;                /* the hook drive's work, J                                                      */
    double gap_rods, roll, tilt;/* at the end: the largest rod gap (m), roll and tilt (rad)                      */
    int    unmet;               /* MECH_DOCK_DOCKED_* bits at the end (0: docked)                                */
    double t_fail;              /* "hooks not closed in time": when, s (NAN: no such failure)                     */
    mech_dock_hooks_params p;   /* the run's hook parameters (the failure's tolerances)                          */
} mech_dock_hooks_summary;
// (sim) => the hooks' summary (t_start NAN when the run has no process or never reached CLOSED)
const mech_dock_hooks_summary *mech_dock_sim_hooks(const mech_dock_sim *s);

#endif

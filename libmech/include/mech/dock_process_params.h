/* Parameters of the parts of the whole docking process (issue 18): plain values, so that mech_dock_params can hold
 * them (mech/dock.h includes this header; the parts' state and functions are in mech/dock_process.h, which says
 * what each field means in its section). */
#ifndef MECH_DOCK_PROCESS_PARAMS_H
#define MECH_DOCK_PROCESS_PARAMS_H

typedef struct mech_dock_drive_params {
    double speed;        /* commanded retraction speed of the probe, m/s (> 0)               RP-1 1.2e-3      */
    double extend_speed; /* extension speed to the ready position, m/s (> 0)                  (ours) 2.4e-3    */
    double tau;          /* speed-loop time constant of the motors, s (> 0)                   (ours) 0.2       */
    double stiffness;    /* drive stiffness at the probe (gearbox + differential), N/m (> 0)  (ours) 2e6      */
    double damping;      /* its structural damping, N s/m (>= 0)                              (ours) 2e3       */
    double force_max;    /* motor torque limit at the probe (both motors), N (> 0); must exceed the slip level
                            of FrT2 pulled out (B, C) / the chain's pull-out slip (A) so that the brake slips first
                                                                                            (ours) 8000      */
    double m_out;        /* reflected inertia of the drive output at the probe, kg (> 0)       (ours) 5         */
    double ready_stroke; /* stroke at the initial position (sensor 13 fires at s <= this), m   0                */
} mech_dock_drive_params;

typedef struct mech_dock_seq_params {
    double capture_timeout; /* s from the first contact (Syromiatnikov's time-to-linkage criterion)   10       */
    double settle_speed;    /* absorption settled when the motion measure stays below this, m/s       2e-3     */
    double settle_time;     /* ... for this long, s                                                   5        */
    double absorb_timeout;  /* retraction starts anyway this long after capture, s (logged as such)   30       */
    double jam_speed;       /* nut stalled: |s'| below this while retracting, m/s                     1e-4     */
    double jam_time;        /* ... for this long => FAIL_JAM, s                                       10       */
    double align_stroke;    /* stroke where the final alignment phase begins, m                       0.30     */
    double align_timeout;   /* planes must close within this long of align_stroke, s                  300      */
    double gap_closed;      /* planes closed: the largest gap at the rods and hooks below this, m: the hook drive
                               starts (<= hooks.capture_range)                                          5e-3     */
    double docked_hold;     /* CLOSED -> END once the docked state (mech/dock_hooks.h) has held this long, s  5 */
    double hooks_timeout;   /* CLOSED -> FAIL_HOOKS when it has not, this long after CLOSED, s        30       */
} mech_dock_seq_params;

/* the fault monitor's thresholds (mech_dock_fault of mech/dock_process.h; docs/dock-process.md §2a) */
typedef struct mech_dock_fault_params {
    double slip_speed;   /* the watched brake slips: |its slip rate| above this, m/s                    3e-4     */
    double jam_time;     /* retracting with the brake slipping or the motors at their limit this long, s  5      */
    double travel;       /* end-of-travel sensor on the drive output u, m                               0.45     */
    double meet_gap;     /* the planes meet: the smallest rod gap at or below this, m                   5e-3     */
    double roll_tol;     /* |relative roll| allowed when they meet, rad (0: geometry.slot_narrow)       0        */
    double tilt_tol;     /* relative tilt allowed when they meet, rad                                   1 deg    */
    double reopen_gap;   /* reopened: the largest rod gap above this after closure, m                   0.010    */
    double reopen_time;  /* ... without a break for this long, s                                        0.5      */
} mech_dock_fault_params;

#define MECH_DOCK_CAM_MAX 64      /* cam samples                                                              */
#define MECH_DOCK_CAM_SUB 8       /* table points per cam segment                                             */
#define MECH_DOCK_CAM_TABLE ((MECH_DOCK_CAM_MAX - 1) * MECH_DOCK_CAM_SUB + 1)
#define MECH_DOCK_NLEVER_MAX 4

typedef struct mech_dock_cam_params {
    int    n;                          /* cam samples, 2..MECH_DOCK_CAM_MAX                                    */
    double theta[MECH_DOCK_CAM_MAX];   /* cam angle, rad, strictly ascending                                   */
    double radius[MECH_DOCK_CAM_MAX];  /* follower radius, m (> 0)                                             */
    double i_cam;                      /* nut angle per cam angle (> 0)                                        */
    double i_nut;                      /* 2 pi / lead, rad/m                                                   */
    int    n_lever;                    /* 1..MECH_DOCK_NLEVER_MAX (RP-1: 3)                                    */
    double psi0;                       /* azimuth of lever 0, rad                                              */
    double arm;                        /* follower arm of the driving lever, m (> 0)                           */
    double beta0;                      /* lever angle at r_0 (retracted), rad                                  */
    double x_pivot, rho_pivot, len;    /* lever pivot (housing frame) and length, m                            */
    double roller_radius;              /* m                                                                    */
    double roller_offset;              /* design distance off the ideal cone = allowed crossing, m  RP-1 0.003 */
    /* the cone placement for the path check */
    double head_x0;                    /* UJ -> head centre at stroke 0, m                          RP-1 1.10   */
    double head_cone_x;                /* head centre in the cone frame, latches on the stops, m    RP-1 -0.656 */
    double rim_radius, rim_x, half_angle, throat_radius; /* cone (RP-1 0.40, 0, 30 deg, 0.05)                  */
} mech_dock_cam_params;

typedef struct mech_dock_cover_params {
    double m_dm;     /* docking-mechanism mass, kg (> 0)                                   RP-1 90          */
    double k;        /* linear law's stiffness, N/m (> 0)                                  RP-1 5e6         */
    double c;        /* structural damping, N s/m (>= 0)                                   RP-1 2e3         */
} mech_dock_cover_params;

#define MECH_DOCK_PUSHER_MAX 8

typedef struct mech_dock_pusher_params {
    int    n;          /* 1..MECH_DOCK_PUSHER_MAX                                          RP-1 4           */
    double force;      /* force of one pusher at full compression, N (> 0)                 RP-1 1000        */
    double stroke;     /* m (> 0)                                                          RP-1 0.04        */
    double radius;     /* rod radius on the plane, m (> 0)                                 (ours) 0.45      */
    double psi0;       /* azimuth of rod 0, rad                                            (ours) pi/4      */
    double damping;    /* per rod, N s/m (>= 0)                                            (ours) 0         */
} mech_dock_pusher_params;

typedef struct mech_dock_limiter_params {
    double mass;          /* kg (> 0)                                                          RP-1 3         */
    double stroke;        /* forward position -> retracted end, m (> 0)                        RP-1 0.20      */
    double f_forward;     /* spring force at the forward position, N (> 0)                     RP-1 300       */
    double f_end;         /* spring force at the retracted end, N (>= f_forward)               RP-1 1200      */
    double stop_stiffness;/* penalty of the forward and end stops, N/m (> 0)                   (ours) 5e6     */
    double stop_damping;  /* their damper (pushes out of a stop only), N s/m (>= 0)              (ours) 2.3e3   */
    double a[2];          /* axial positions of the guide pairs from the centre of mass, m     (ours) -+0.10  */
    double radius;        /* guide surface radius h, m (>= 0)                                  (ours) 0.008   */
    double mu[2];         /* friction of the two sides of every pair (>= 0)                    (ours) 0.15    */
    double base_radius;   /* larger-base radius (pad radius), m                                RP-1 0.28      */
} mech_dock_limiter_params;

#define MECH_DOCK_HOOK_MAX 8       /* structural hook links                                                    */

/* The structural hooks on the docking collars (RP-1 §1.2: 8, in pairs, one fixed and one movable per side;
 * mech/dock_hooks.h, docs/dock-process.md §9). Every value but n is ours (confidence L). */
typedef struct mech_dock_hooks_params {
    int    n;             /* hook links (a movable hook on one collar over a fixed one on the other), 1..8    8   */
    double radius;        /* their radius on the docking plane, m (> 0)                                     0.55 */
    double psi0;          /* azimuth of link 0, rad; the others at psi0 + 2 pi j / n                  pi / 8 */
    double capture_range; /* the largest gap at a hook its jaw catches when the hooks start, m (> 0)   5e-3 */
    double speed;         /* jaw closing speed (travel at the catch), m/s (> 0)                        1e-3 */
    double stiffness;     /* one link: hook + spring pack + collar, N/m (> 0)                           2e6  */
    double damping;       /* its structural damping on the gap rate, N s/m (>= 0)                       2e4  */
    double shear_stiffness; /* an engaged link across the plane (the jaw around its catch), N/m (> 0)   2e7  */
    double shear_damping; /* its damping, N s/m (>= 0)                                                   2e5  */
    double preload;       /* link tension at lock with the planes flush and rigid, N (> 0)             1e4  */
    double force_max;     /* the hook drive's pull limit per link, N (> preload: it must reach the lock) 1.5e4 */
    double preload_min;   /* closed with preload: every locked link at least this tension, N (> 0)     5e3  */
    double roll_tol;      /* the hooks' capture tolerance in roll (catch half-width / radius), rad    1 deg */
    double tilt_tol;      /* ... in tilt of the docking planes, rad                                 0.5 deg */
    double contact_gap;   /* planes in contact at a rod: its gap at most this, m (>= 0)                    1e-4 */
} mech_dock_hooks_params;

/* Roll guides on the docking collars (issue 44 item 4; mech/dock_rollguide.h, docs/dock-process.md §9a): tapered
 * pins entering radial-slot sockets before the planes meet. Every value is ours (confidence L). */
#define MECH_DOCK_ROLLGUIDE_MAX 4

typedef struct mech_dock_rollguide_params {
    int    n;                 /* pins, 0 (off) .. MECH_DOCK_ROLLGUIDE_MAX, at psi0 + 2 pi j / n                 0 */
    double radius;            /* their radius on the docking plane, m (> 0)                                     */
    double psi0;              /* azimuth of pin 0, rad                                                          */
    double length;            /* the pin's height above the active plane: it enters at this gap, m (> 0)        */
    double taper_length;      /* the mouth's narrowing, m (> 0, <= length)                                      */
    double catch_half_width;  /* the mouth's half-width across the slot, m (> clearance)                        */
    double clearance;         /* the bore's half-clearance, m (>= 0)                                            */
    double stiffness;         /* pin + collar across the slot, N/m (> 0)                                        */
    double damping;           /* on the penetration rate, N s/m (>= 0)                                          */
} mech_dock_rollguide_params;

/* The process switches of a scenario (the "process" section, docs/dock-process.md §8): off in the capture-phase
 * scenarios, which then run exactly as before. */
typedef struct mech_dock_process_params {
    int    enabled;            /* 1: drive, sequencer, docking planes (and pushers, cam where on) are simulated   */
    int    start;              /* sequencer start state: MECH_DOCK_SEQ_READY (default) or _EXTEND                 */
    mech_dock_drive_params drive;
    mech_dock_seq_params   seq;
    mech_dock_fault_params faults;
    int    pushers_on;         /* 1: the separation pushers act between the docking planes                       */
    mech_dock_pusher_params pushers;
    int    cam_on;             /* 1: alignment levers with rollers (variants A, B)                                */
    mech_dock_cam_params   cam;
    double retract_limit;      /* fully retracted: the stroke's end stop, m (> 0)   RP-1 0.40 (probe 0.55 -> 0.15 m) */
    double plane_stiffness;    /* docking-plane contact at the pusher radius, N/m per point (> 0)     (ours) 2e7   */
    double plane_damping;      /* its damping, N s/m per point (>= 0)                                 (ours) 1e6   */
    double roller_stiffness;   /* roller-cone contact, N/m (> 0)                                      RP-1 1e6     */
    double roller_damping;     /* N s/m (>= 0)                                                        (ours) 1e3   */
    double roller_mu;          /* roller friction (regularised Coulomb) (>= 0)                        RP-1 0.02    */
    mech_dock_hooks_params hooks;   /* the structural hooks (always on in a process run)                         */
    mech_dock_rollguide_params roll_guides;   /* roll guides on the collars (n = 0: none, RP-1)                */
} mech_dock_process_params;

#endif

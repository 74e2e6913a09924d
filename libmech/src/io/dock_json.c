/* The "mech-dock" scenario JSON (docs/dock-scenarios.md): parsed from memory (the fuzzer's entry point), the model
 * files it names read by mech_dock_config_load, printed back by mech_dock_config_print. Engine code never parses
 * files: this is the only place that reads this format.
 *
 * Every numeric key is one row of the table `fields` below (section, key, where it lands in the configuration,
 * what values it accepts, its unit): the parser, the printer and the key lists of the "unknown key" messages all
 * read that table, so they cannot drift apart. Angles are in degrees in the file where the key says so (_deg,
 * _deg_s) and in radians in the configuration. Defaults are RP-1's (mech_dock_params_rp1 of the variant and cone
 * the file names); unknown keys are errors (a typo must not silently fall back to a default). */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "hyst/pwl.h"
#include "hyst/util.h"
#include "mech/beam.h"
#include "mech/dock.h"
#include "mech/dock_process.h"

#define DEG (M_PI / 180)

/* what a key accepts */
enum kind {
    K_NUM,      /* any finite number                                      */
    K_POS,      /* > 0                                                     */
    K_NONNEG,   /* >= 0                                                    */
    K_FRAC,     /* in (0, 1] (coefficient of restitution)                  */
    K_EXP,      /* >= 1 (contact-law exponent)                             */
    K_DEG,      /* degrees in the file, radians stored; any finite value  */
    K_DEGPOS,   /* degrees, > 0                                            */
    K_DEG90,    /* degrees, strictly between 0 and 90                      */
    /* integers, each with the range its model checks (one range in every message; issue 42, N27) */
    K_PADS,     /* geometry.limiter_pads: integer 0..16                    */
    K_PUSHERS,  /* pushers.n: integer 1..MECH_DOCK_PUSHER_MAX              */
    K_LEVERS,   /* cam.n_lever: integer 1..MECH_DOCK_NLEVER_MAX            */
    K_HOOKS,    /* hooks.n: integer 1..MECH_DOCK_HOOK_MAX                  */
    K_RGUIDES,  /* roll_guides.n: integer 0..MECH_DOCK_ROLLGUIDE_MAX       */
    K_VEC,      /* [x, y, z], finite                                       */
    K_VECPOS,   /* [x, y, z], each > 0                                     */
    K_AXIS,     /* [x, y, z], a nonzero direction, stored normalised       */
    /* one value per chain of a pair (the lateral damper's two spring and two brake chains): [a, b] */
    K_VEC2,     /* [[x, y, z], [x, y, z]], finite                          */
    K_AXIS2,    /* [[x, y, z], [x, y, z]], each a nonzero direction        */
    K_POS2,     /* [a, b], each > 0                                        */
    K_NONNEG2,  /* [a, b], each >= 0                                       */
    K_TOL       /* 0 or 1e-10 .. 1e-2 (integration.tolerance)              */
};

typedef struct field {
    const char *sec;    /* dotted section path ("" = top level)                   */
    const char *key;
    size_t      off;    /* offset into mech_dock_config                            */
    int         kind;
    const char *unit;   /* for messages                                            */
} field;

#define F(sec, key, member, kind, unit) {sec, key, offsetof(mech_dock_config, member), kind, unit}
#define P(sec, key, member, kind, unit) F(sec, key, params.member, kind, unit)
#define VEHICLE(s, v)                                                                                             \
    P(s, "mass", v.mass, K_POS, "kg"), P(s, "inertia", v.inertia, K_VECPOS, "kg m^2"),                            \
    P(s, "port", v.port, K_VEC, "m")
#define LAW(s, c)                                                                                                  \
    P(s, "k", contact.c.k, K_POS, "N/m^n"), P(s, "n", contact.c.n, K_EXP, ""),                                    \
    P(s, "restitution", contact.c.e, K_FRAC, ""), P(s, "v_min", contact.c.v_min, K_POS, "m/s"),                   \
    P(s, "mu_s", contact.c.mu_s, K_NONNEG, ""), P(s, "mu_k", contact.c.mu_k, K_NONNEG, ""),                       \
    P(s, "kt", contact.c.kt, K_NONNEG, "N/m"), P(s, "ct", contact.c.ct, K_NONNEG, "N s/m")

static const field fields[] = {
    VEHICLE("vehicles.active", active),
    VEHICLE("vehicles.passive", passive),
    P("initial", "closing_speed", init.closing_speed, K_POS, "m/s"),
    P("initial", "offset_y", init.offset.y, K_NUM, "m"),
    P("initial", "offset_z", init.offset.z, K_NUM, "m"),
    P("initial", "velocity_y", init.velocity.y, K_NUM, "m/s"),
    P("initial", "velocity_z", init.velocity.z, K_NUM, "m/s"),
    P("initial", "roll_deg", init.angles.x, K_DEG, "deg"),
    P("initial", "pitch_deg", init.angles.y, K_DEG, "deg"),
    P("initial", "yaw_deg", init.angles.z, K_DEG, "deg"),
    P("initial", "roll_rate_deg_s", init.rates.x, K_DEG, "deg/s"),
    P("initial", "pitch_rate_deg_s", init.rates.y, K_DEG, "deg/s"),
    P("initial", "yaw_rate_deg_s", init.rates.z, K_DEG, "deg/s"),
    P("initial", "gap", init.gap, K_NONNEG, "m"),
    LAW("contact.head_cone", head_cone),
    LAW("contact.head_bottom", head_bottom),
    LAW("contact.limiter_rim", limiter_rim),
    P("geometry", "rim_radius", geom.rim_radius, K_POS, "m"),
    P("geometry", "rim_x", geom.rim_x, K_NUM, "m"),
    P("geometry", "half_angle_deg", geom.half_angle, K_DEG90, "deg"),
    P("geometry", "socket_radius", geom.socket_radius, K_POS, "m"),
    P("geometry", "stop_depth", geom.stop_depth, K_POS, "m"),
    P("geometry", "bottom_depth", geom.bottom_depth, K_POS, "m"),
    P("geometry", "slot_entry_deg", geom.slot_entry, K_DEGPOS, "deg"),
    P("geometry", "slot_narrow_deg", geom.slot_narrow, K_DEGPOS, "deg"),
    P("geometry", "detent_force", geom.detent_force, K_NONNEG, "N"),
    P("geometry", "detent_travel", geom.detent_travel, K_NONNEG, "m"),
    P("geometry", "uj_behind_plane", geom.uj_behind_plane, K_NUM, "m"),
    P("geometry", "housing_length", geom.housing_length, K_POS, "m"),
    P("geometry", "probe_length", geom.probe_length, K_POS, "m"),
    P("geometry", "head_radius", geom.head_radius, K_POS, "m"),
    P("geometry", "latch_radius", geom.latch_radius, K_NONNEG, "m"),
    P("geometry", "limiter_r0", geom.limiter_r0, K_POS, "m"),
    P("geometry", "limiter_x0", geom.limiter_x0, K_POS, "m"),
    P("geometry", "limiter_r1", geom.limiter_r1, K_POS, "m"),
    P("geometry", "limiter_x1", geom.limiter_x1, K_POS, "m"),
    P("geometry", "limiter_pads", geom.limiter_pads, K_PADS, ""),
    P("geometry", "limiter_pad_half_deg", geom.limiter_pad_half, K_DEGPOS, "deg"),
    P("mass", "housing_mass", mass.housing_mass, K_POS, "kg"),
    P("mass", "housing_com", mass.housing_com, K_VEC, "m"),
    P("mass", "housing_inertia", mass.housing_inertia, K_VECPOS, "kg m^2"),
    P("mass", "probe_mass", mass.probe_mass, K_POS, "kg"),
    P("mass", "probe_com", mass.probe_com, K_VEC, "m"),
    P("mass", "probe_inertia", mass.probe_inertia, K_VECPOS, "kg m^2"),
    P("axial", "lead", axial.lead, K_POS, "m"),
    P("axial", "m_eq", axial.m_eq, K_POS, "kg"),
    P("axial", "screw_friction", axial.screw_friction, K_NONNEG, ""),
    P("axial", "damping", axial.damping, K_NONNEG, "N s/m"),
    P("axial", "stroke_limit", axial.stroke_limit, K_POS, "m"),
    P("axial", "stop_stiffness", axial.stop_stiffness, K_POS, "N/m"),
    P("axial", "stop_restitution", axial.stop_restitution, K_FRAC, ""),
    P("axial", "frt1_push", axial.frt1_push, K_NONNEG, "N"),
    P("axial", "frt1_pull", axial.frt1_pull, K_NONNEG, "N"),
    P("axial", "frt1_stroke", axial.frt1_stroke, K_NONNEG, "m"),
    P("axial", "frt2_push", axial.frt2_push, K_NONNEG, "N"),
    P("axial", "frt2_pull", axial.frt2_pull, K_NONNEG, "N"),
    /* the chain geometry (docs/dock-lateral.md §6): base frame with its origin at the UJ centre (= housing frame at
       the neutral position) */
    P("lateral", "spring_base", lateral.spring_base, K_VEC2, "m"),
    P("lateral", "spring_housing", lateral.spring_housing, K_VEC2, "m"),
    P("lateral", "spring_rod_mass", lateral.spring_rod_mass, K_NONNEG2, "kg"),
    P("lateral", "brake_pivot", lateral.brake_pivot, K_VEC2, "m"),
    P("lateral", "brake_axis", lateral.brake_axis, K_AXIS2, ""),
    P("lateral", "brake_crank", lateral.brake_crank, K_POS2, "m"),
    P("lateral", "brake_rod", lateral.brake_rod, K_POS2, "m"),
    P("lateral", "brake_housing", lateral.brake_housing, K_VEC2, "m"),
    P("lateral", "brake_crank_inertia", lateral.brake_crank_inertia, K_NONNEG2, "kg m^2"),
    P("lateral", "spring_stop", lateral.spring_stop, K_POS, "m"),
    P("lateral", "stop_stiffness", lateral.stop_stiffness, K_POS, "N/m"),
    P("lateral", "brake_stop_deg", lateral.brake_stop, K_DEGPOS, "deg"),
    P("lateral", "brake_stop_stiffness", lateral.brake_stop_stiffness, K_POS, "N m/rad"),
    P("probe", "tip_factor", probe.tip_factor, K_NONNEG, ""),
    P("thrust", "force", thrust.force, K_NONNEG, "N"),
    P("thrust", "duration", thrust.duration, K_NONNEG, "s"),
    P("", "step", h, K_POS, "s"),
    P("", "duration", duration, K_NONNEG, "s"),
    P("", "capture_timeout", capture_timeout, K_POS, "s"),
    /* error-controlled steps (docs/dock.md §6b); 0 = fixed steps of `step` */
    P("integration", "tolerance", tol, K_TOL, ""),
    F("outputs", "rate", out_rate, K_NONNEG, "rows/s"),
    F("outputs", "records_rate", out_records_rate, K_NONNEG, "rows/s"),
    /* the whole process (docs/dock-process.md §8): read and printed only with a "process" section */
    P("process", "retract_limit", process.retract_limit, K_POS, "m"),
    P("process", "plane_stiffness", process.plane_stiffness, K_POS, "N/m"),
    P("process", "plane_damping", process.plane_damping, K_NONNEG, "N s/m"),
    P("process", "roller_stiffness", process.roller_stiffness, K_POS, "N/m"),
    P("process", "roller_damping", process.roller_damping, K_NONNEG, "N s/m"),
    P("process", "roller_mu", process.roller_mu, K_NONNEG, ""),
    P("drive", "speed", process.drive.speed, K_POS, "m/s"),
    P("drive", "extend_speed", process.drive.extend_speed, K_POS, "m/s"),
    P("drive", "tau", process.drive.tau, K_POS, "s"),
    P("drive", "stiffness", process.drive.stiffness, K_POS, "N/m"),
    P("drive", "damping", process.drive.damping, K_NONNEG, "N s/m"),
    P("drive", "force_max", process.drive.force_max, K_POS, "N"),
    P("drive", "m_out", process.drive.m_out, K_POS, "kg"),
    P("drive", "ready_stroke", process.drive.ready_stroke, K_NUM, "m"),
    P("sequencer", "capture_timeout", process.seq.capture_timeout, K_POS, "s"),
    P("sequencer", "settle_speed", process.seq.settle_speed, K_POS, "m/s"),
    P("sequencer", "settle_time", process.seq.settle_time, K_NONNEG, "s"),
    P("sequencer", "absorb_timeout", process.seq.absorb_timeout, K_POS, "s"),
    P("sequencer", "jam_speed", process.seq.jam_speed, K_POS, "m/s"),
    P("sequencer", "jam_time", process.seq.jam_time, K_POS, "s"),
    P("sequencer", "align_stroke", process.seq.align_stroke, K_NONNEG, "m"),
    P("sequencer", "align_timeout", process.seq.align_timeout, K_POS, "s"),
    P("sequencer", "gap_closed", process.seq.gap_closed, K_NONNEG, "m"),
    P("sequencer", "docked_hold", process.seq.docked_hold, K_NONNEG, "s"),
    P("sequencer", "hooks_timeout", process.seq.hooks_timeout, K_POS, "s"),
    /* the fault monitor (docs/dock-process.md §2a) */
    P("faults", "slip_speed", process.faults.slip_speed, K_POS, "m/s"),
    P("faults", "jam_time", process.faults.jam_time, K_POS, "s"),
    P("faults", "travel", process.faults.travel, K_POS, "m"),
    P("faults", "meet_gap", process.faults.meet_gap, K_NONNEG, "m"),
    P("faults", "roll_tol_deg", process.faults.roll_tol, K_DEG, "deg"),
    P("faults", "tilt_tol_deg", process.faults.tilt_tol, K_DEGPOS, "deg"),
    P("faults", "reopen_gap", process.faults.reopen_gap, K_POS, "m"),
    P("faults", "reopen_time", process.faults.reopen_time, K_NONNEG, "s"),
    P("pushers", "n", process.pushers.n, K_PUSHERS, ""),
    P("pushers", "force", process.pushers.force, K_POS, "N"),
    P("pushers", "stroke", process.pushers.stroke, K_POS, "m"),
    P("pushers", "radius", process.pushers.radius, K_POS, "m"),
    P("pushers", "psi0_deg", process.pushers.psi0, K_DEG, "deg"),
    P("pushers", "damping", process.pushers.damping, K_NONNEG, "N s/m"),
    /* the structural hooks (issue 44; docs/dock-process.md §9) */
    P("hooks", "n", process.hooks.n, K_HOOKS, ""),
    P("hooks", "radius", process.hooks.radius, K_POS, "m"),
    P("hooks", "psi0_deg", process.hooks.psi0, K_DEG, "deg"),
    P("hooks", "capture_range", process.hooks.capture_range, K_POS, "m"),
    P("hooks", "speed", process.hooks.speed, K_POS, "m/s"),
    P("hooks", "stiffness", process.hooks.stiffness, K_POS, "N/m"),
    P("hooks", "damping", process.hooks.damping, K_NONNEG, "N s/m"),
    P("hooks", "shear_stiffness", process.hooks.shear_stiffness, K_POS, "N/m"),
    P("hooks", "shear_damping", process.hooks.shear_damping, K_NONNEG, "N s/m"),
    P("hooks", "preload", process.hooks.preload, K_POS, "N"),
    P("hooks", "force_max", process.hooks.force_max, K_POS, "N"),
    P("hooks", "preload_min", process.hooks.preload_min, K_POS, "N"),
    P("hooks", "roll_tol_deg", process.hooks.roll_tol, K_DEGPOS, "deg"),
    P("hooks", "tilt_tol_deg", process.hooks.tilt_tol, K_DEGPOS, "deg"),
    P("hooks", "contact_gap", process.hooks.contact_gap, K_NONNEG, "m"),
    /* the roll guides on the collars (issue 44 item 4; docs/dock-process.md §9a) */
    P("roll_guides", "n", process.roll_guides.n, K_RGUIDES, ""),
    P("roll_guides", "radius", process.roll_guides.radius, K_POS, "m"),
    P("roll_guides", "psi0_deg", process.roll_guides.psi0, K_DEG, "deg"),
    P("roll_guides", "length", process.roll_guides.length, K_POS, "m"),
    P("roll_guides", "taper_length", process.roll_guides.taper_length, K_POS, "m"),
    P("roll_guides", "catch_half_width", process.roll_guides.catch_half_width, K_POS, "m"),
    P("roll_guides", "clearance", process.roll_guides.clearance, K_NONNEG, "m"),
    P("roll_guides", "stiffness", process.roll_guides.stiffness, K_POS, "N/m"),
    P("roll_guides", "damping", process.roll_guides.damping, K_NONNEG, "N s/m"),
    P("cam", "i_cam", process.cam.i_cam, K_POS, ""),
    P("cam", "n_lever", process.cam.n_lever, K_LEVERS, ""),
    P("cam", "psi0_deg", process.cam.psi0, K_DEG, "deg"),
    P("cam", "arm", process.cam.arm, K_POS, "m"),
    P("cam", "beta0_deg", process.cam.beta0, K_DEG, "deg"),
    P("cam", "x_pivot", process.cam.x_pivot, K_NUM, "m"),
    P("cam", "rho_pivot", process.cam.rho_pivot, K_NONNEG, "m"),
    P("cam", "length", process.cam.len, K_POS, "m"),
    P("cam", "roller_radius", process.cam.roller_radius, K_POS, "m"),
    P("cam", "roller_offset", process.cam.roller_offset, K_NONNEG, "m"),
    /* the stand option (spec 001 §2.7): read and printed only with a "stand" section */
    P("stand", "m_dm", cover.m_dm, K_POS, "kg"),
    P("stand", "k", cover.k, K_POS, "N/m"),
    P("stand", "c", cover.c, K_NONNEG, "N s/m"),
    /* variant C's movable limiter (spec 001 §5.3): read and printed only with "variant": "C"; its pads' geometry
       (forward position, radii) is geometry.limiter_* */
    P("limiter", "mass", limiter.mass, K_POS, "kg"),
    P("limiter", "stroke", limiter.stroke, K_POS, "m"),
    P("limiter", "f_forward", limiter.f_forward, K_POS, "N"),
    P("limiter", "f_end", limiter.f_end, K_POS, "N"),
    P("limiter", "stop_stiffness", limiter.stop_stiffness, K_POS, "N/m"),
    P("limiter", "stop_damping", limiter.stop_damping, K_NONNEG, "N s/m"),
    P("limiter", "guide_a0", limiter.a[0], K_NUM, "m"),
    P("limiter", "guide_a1", limiter.a[1], K_NUM, "m"),
    P("limiter", "guide_radius", limiter.radius, K_NONNEG, "m"),
    P("limiter", "mu", limiter.mu, K_NONNEG2, ""),
};
// (section path) => 1 for the sections of the whole process (read only with "process", printed only when enabled)
static int process_section(const char *sec)
{
    return !strcmp(sec, "process") || !strcmp(sec, "drive") || !strcmp(sec, "sequencer") || !strcmp(sec, "pushers") ||
           !strcmp(sec, "cam") || !strcmp(sec, "faults") || !strcmp(sec, "hooks") ||
           !strcmp(sec, "roll_guides");
}
#define NFIELD (sizeof fields / sizeof fields[0])

/* sections and the keys they hold besides their table rows */
typedef struct section {
    const char *path;
    const char *extra[32];
} section;

static const section sections[] = {
    {"", {"format", "version", "name", "notes", "source", "variant", "cone", "vehicles", "initial", "contact",
          "geometry", "mass", "axial", "lateral", "probe", "thrust", "laws", "outputs", "integration", "process",
          "drive", "sequencer", "pushers", "cam", "hooks", "roll_guides", "stand", "limiter", "faults", NULL}},
    {"vehicles", {"active", "passive", NULL}},
    {"vehicles.active", {"name", NULL}},
    {"vehicles.passive", {"name", NULL}},
    {"initial", {NULL}},
    {"contact", {"head_cone", "head_bottom", "limiter_rim", NULL}},
    {"contact.head_cone", {"mu", NULL}},
    {"contact.head_bottom", {"mu", NULL}},
    {"contact.limiter_rim", {"mu", NULL}},
    {"geometry", {NULL}},
    {"mass", {NULL}},
    {"axial", {"magnetic", NULL}},
    {"lateral", {"brake", NULL}},
    {"probe", {NULL}},
    {"thrust", {NULL}},
    {"integration", {"method", "control", NULL}},
    {"laws", {"chain", "gear", "spring", "bending", "torsion", "cover", NULL}},
    {"outputs", {"folder", "channels", "records", "plots", "view_times", "animation", "events", "format",
                 "compression", NULL}},
    {"axial.magnetic", {"speed", "force", NULL}},
    {"process", {"start", NULL}},
    {"drive", {NULL}},
    {"sequencer", {NULL}},
    {"faults", {NULL}},
    {"pushers", {"enabled", NULL}},
    {"cam", {"theta_deg", "radius", NULL}},
    {"hooks", {NULL}},
    {"roll_guides", {NULL}},
    {"stand", {NULL}},
    {"limiter", {NULL}},
    {"lateral.brake", {"speed", "moment", NULL}},
};
#define NSECTION (sizeof sections / sizeof sections[0])

static const char *const law_key[MECH_DOCK_NLAW] = {"chain", "gear", "spring", "bending", "torsion", "cover"};

const char *mech_dock_law_key(int slot)
{
    return slot >= 0 && slot < MECH_DOCK_NLAW ? law_key[slot] : NULL;
}

const char *mech_dock_key_unit(const char *path)
{
    char b[256];
    snprintf(b, sizeof b, "%s", path);
    char *dot = strrchr(b, '.');
    if (dot && dot[1] >= '0' && dot[1] <= '9')   /* an array element: the array's unit */
        *dot = '\0';
    for (size_t i = 0; i < NFIELD; i++) {
        size_t n = strlen(fields[i].sec);
        if ((n == 0 && strcmp(b, fields[i].key) == 0) ||
            (n > 0 && strncmp(b, fields[i].sec, n) == 0 && b[n] == '.' && strcmp(b + n + 1, fields[i].key) == 0))
            return fields[i].unit;
    }
    return NULL;
}
/* the shipped RP-1 law files, relative to the scenario's folder (fixtures/mech/dock/models/) */
static const char *const law_default[MECH_DOCK_NLAW] = {"models/axial-A.json", "models/gear-B.json",
                                                        "models/lateral-spring.json", "models/probe-bending.json",
                                                        "models/probe-torsion.json", NULL};
/* (laws.cover has no default: without it the stand's cover is the linear stand.k) */
static const char *const variant_names[] = {"A", "B", "C", NULL};   /* C: B with the movable limiter */
static const char *const cone_names[] = {"module", "vehicle", "short", NULL};
static const char *const events_names[] = {"none", "also", "only", NULL};   /* MECH_DOCK_EVENTS_*  */
static const char *const method_names[] = {"rk43", "dopri5", NULL};        /* MECH_DOCK_RK43, _DOPRI5 */
static const char *const control_names[] = {"standard", "pi", NULL};      /* MECH_DOCK_CONTROL_*  */
static const char *const format_names[] = {"csv", "h5", "csv+h5", NULL};   /* MECH_DOCK_FORMAT_*  */

// (variant, law slot) => 1 when the variant drives that law
static int law_used(int variant, int slot)
{
    if (slot == MECH_DOCK_LAW_CHAIN)
        return variant == MECH_DOCK_A;
    if (slot == MECH_DOCK_LAW_GEAR)
        return variant != MECH_DOCK_A;   /* B and C */
    return 1;
}

static mech_dock_law *law_slot(mech_dock_params *p, int slot)
{
    switch (slot) {
    case MECH_DOCK_LAW_CHAIN: return &p->axial.chain;
    case MECH_DOCK_LAW_GEAR: return &p->axial.gear;
    case MECH_DOCK_LAW_SPRING: return &p->lateral.spring;
    case MECH_DOCK_LAW_BENDING: return &p->probe.bending;
    case MECH_DOCK_LAW_COVER: return &p->cover_law;
    default: return &p->probe.torsion;
    }
}

void mech_dock_config_default(mech_dock_config *c)
{
    memset(c, 0, sizeof *c);
    mech_dock_params_rp1(&c->params, MECH_DOCK_A, MECH_DOCK_CONE_MODULE);
    c->records = 1;
    c->plots = 1;
    c->out_compression = 1;
}

typedef struct ctx {
    const char *name;   /* file name for messages */
    const char *dir;    /* folder relative paths resolve against (NULL or "": as given) */
    hy_err *err;
} ctx;

// (text from the file) => printable copy for a one-line message: control characters become '?', long text is cut
static const char *printable(const char *s, char *buf, size_t len)
{
    size_t k = 0;
    for (; *s && k + 4 < len; s++)
        buf[k++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
    if (*s)
        buf[k++] = '.', buf[k++] = '.', buf[k++] = '.';
    buf[k] = '\0';
    return buf;
}

// (section, key) => "section.key" or "key" at the top level
static const char *where(const char *sec, const char *key, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s", sec, *sec ? "." : "", key);
    return buf;
}

// (section path) => its object in doc, NULL when absent; HY_EPARSE when a level is not an object
static int find_section(const ctx *x, const cJSON *doc, const char *path, const cJSON **out)
{
    *out = doc;
    char part[64], sofar[64] = "";
    const char *p = path;
    while (*p && *out) {
        size_t n = strcspn(p, ".");
        snprintf(part, sizeof part, "%.*s", (int)n, p);
        snprintf(sofar, sizeof sofar, "%.*s", (int)(p - path + n), path);
        const cJSON *it = cJSON_GetObjectItemCaseSensitive(*out, part);
        if (it && !cJSON_IsObject(it))
            return hy_err_set(x->err, HY_EPARSE, "%s: %s: expected an object", x->name, sofar);
        *out = it;
        p += n + (p[n] == '.');
    }
    return HY_OK;
}

// (object of section s) => error naming the first key that is neither a table row nor a listed extra
static int check_keys(const ctx *x, const cJSON *o, const section *s)
{
    for (const cJSON *it = o->child; it; it = it->next) {
        int ok = 0;
        for (size_t i = 0; i < NFIELD && !ok; i++)
            ok = strcmp(fields[i].sec, s->path) == 0 && strcmp(fields[i].key, it->string) == 0;
        for (const char *const *e = s->extra; *e && !ok; e++)
            ok = strcmp(*e, it->string) == 0;
        if (ok)
            continue;
        char list[900] = "", key[64];
        for (size_t i = 0; i < NFIELD; i++)
            if (strcmp(fields[i].sec, s->path) == 0)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? ", " : "", fields[i].key);
        for (const char *const *e = s->extra; *e; e++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? ", " : "", *e);
        return hy_err_set(x->err, HY_EPARSE, "%s: %s%s\"%s\": unknown key (known: %s)", x->name, s->path,
                          *s->path ? "." : "", printable(it->string, key, sizeof key), list);
    }
    return HY_OK;
}

_Static_assert(MECH_DOCK_PUSHER_MAX == 8 && MECH_DOCK_NLEVER_MAX == 4 && MECH_DOCK_ROLLGUIDE_MAX == 4, "the ranges in accepts()' words");

static int is_int(int kind)
{
    return kind == K_PADS || kind == K_PUSHERS || kind == K_LEVERS || kind == K_HOOKS || kind == K_RGUIDES;
}

// (kind, value) => 1 when acceptable; what it expects in words
static int accepts(int kind, double v, const char **expect)
{
    switch (kind) {
    case K_POS: case K_DEGPOS: *expect = "> 0"; return v > 0;
    case K_NONNEG: *expect = ">= 0"; return v >= 0;
    case K_FRAC: *expect = "in (0, 1]"; return v > 0 && v <= 1;
    case K_EXP: *expect = ">= 1"; return v >= 1;
    case K_DEG90: *expect = "strictly between 0 and 90"; return v > 0 && v < 90;
    case K_PADS: *expect = "an integer 0..16"; return v >= 0 && v <= 16 && v == floor(v);
    case K_PUSHERS: *expect = "an integer 1..8"; return v >= 1 && v <= MECH_DOCK_PUSHER_MAX && v == floor(v);
    case K_LEVERS: *expect = "an integer 1..4"; return v >= 1 && v <= MECH_DOCK_NLEVER_MAX && v == floor(v);
    case K_HOOKS: *expect = "an integer 1..8"; return v >= 1 && v <= MECH_DOCK_HOOK_MAX && v == floor(v);
    case K_RGUIDES: *expect = "an integer 0..4"; return v >= 0 && v <= MECH_DOCK_ROLLGUIDE_MAX && v == floor(v);
    case K_TOL: *expect = "0 (fixed steps of `step`) or 1e-10 .. 1e-2"; return v == 0 || (v >= 1e-10 && v <= 1e-2);
    default: *expect = "finite"; return 1;
    }
}

static int is_deg(int kind)
{
    return kind == K_DEG || kind == K_DEGPOS || kind == K_DEG90;
}

// (kind of a pair row) => the kind of each of its two values; 0 for a kind that is not a pair
static int pair_of(int kind)
{
    switch (kind) {
    case K_VEC2: return K_VEC;
    case K_AXIS2: return K_AXIS;
    case K_POS2: return K_POS;
    case K_NONNEG2: return K_NONNEG;
    default: return 0;
    }
}

static int is_vec(int kind)
{
    return kind == K_VEC || kind == K_VECPOS || kind == K_AXIS;
}

/* A direction closer to unit length than this is kept as it is, so that a printed (normalised) axis reads back
 * bit for bit; any other nonzero direction is divided by its norm. */
#define AXIS_UNIT_TOL 1e-14

// (kind, unit, where "sec.key" or "sec.key[i]", JSON item) => one value stored at dst (double, int or mech_vec3)
static int read_value(const ctx *x, int kind, const char *unit, const char *w, const cJSON *it, void *dst)
{
    if (is_vec(kind)) {
        double v[3];
        int n = cJSON_IsArray(it) ? cJSON_GetArraySize(it) : -1, i = 0;
        for (const cJSON *e = n == 3 ? it->child : NULL; e; e = e->next, i++)
            if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble) || (kind == K_VECPOS && !(e->valuedouble > 0)))
                break;
            else
                v[i] = e->valuedouble;
        if (n != 3 || i != 3)
            return hy_err_set(x->err, HY_EPARSE, "%s: %s: expected [x, y, z]%s%s%s", x->name, w, *unit ? " in " : "",
                              unit, kind == K_VECPOS ? ", each > 0" : kind == K_AXIS ? " (a direction)" : "");
        if (kind == K_AXIS) {
            /* the crank axis: any nonzero direction, stored as a unit vector; its sense picks the assembly branch
               of the R-U-S chain (docs/dock-lateral.md §2.2), so it is kept, never flipped */
            double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            if (!(len > 1e-9) || !isfinite(len))
                return hy_err_set(x->err, HY_EPARSE, "%s: %s: [%g, %g, %g] is not a direction (expected a nonzero "
                                  "axis [x, y, z], normalised on reading)", x->name, w, v[0], v[1], v[2]);
            if (!(fabs(len - 1) <= AXIS_UNIT_TOL))
                v[0] /= len, v[1] /= len, v[2] /= len;
        }
        mech_vec3 *p = dst;
        p->x = v[0], p->y = v[1], p->z = v[2];
        return HY_OK;
    }
    if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
        return hy_err_set(x->err, HY_EPARSE, "%s: %s: expected a number%s%s", x->name, w, *unit ? " in " : "", unit);
    double v = it->valuedouble;
    const char *expect;
    if (!accepts(kind, v, &expect))
        return hy_err_set(x->err, HY_EPARSE, "%s: %s = %.17g: expected %s%s%s", x->name, w, v, expect,
                          *unit ? " " : "", unit);
    if (is_int(kind))
        *(int *)dst = (int)v;
    else
        *(double *)dst = is_deg(kind) ? v * DEG : v;
    return HY_OK;
}

// (one table row, its JSON item) => value stored in the configuration; a pair row [chain 1, chain 2] element-wise
static int read_field(const ctx *x, const field *f, const cJSON *it, mech_dock_config *c)
{
    char w[96];
    where(f->sec, f->key, w, sizeof w);
    char *base = (char *)c + f->off;
    int one = pair_of(f->kind);
    if (!one)
        return read_value(x, f->kind, f->unit, w, it, base);
    if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) != 2)
        return hy_err_set(x->err, HY_EPARSE, "%s: %s: expected a list of 2 (one per chain: %s)%s%s", x->name, w,
                          is_vec(one) ? "[[x, y, z], [x, y, z]]" : "[a, b]", *f->unit ? " in " : "", f->unit);
    size_t stride = is_vec(one) ? sizeof(mech_vec3) : sizeof(double);
    int i = 0, rc;
    for (const cJSON *e = it->child; e; e = e->next, i++) {
        char wi[128];
        snprintf(wi, sizeof wi, "%s[%d]", w, i);
        if ((rc = read_value(x, one, f->unit, wi, e, base + i * stride)) != HY_OK)
            return rc;
    }
    return HY_OK;
}

// (JSON item) => string value of 1..len-1 characters
static int read_text(const ctx *x, const cJSON *it, const char *w, char *out, size_t len, const char *what)
{
    if (!cJSON_IsString(it) || !it->valuestring[0] || strlen(it->valuestring) >= len)
        return hy_err_set(x->err, HY_EPARSE, "%s: %s: expected %s (1..%zu characters)", x->name, w, what, len - 1);
    memset(out, 0, len);
    snprintf(out, len, "%s", it->valuestring);
    return HY_OK;
}

// (path text) => path resolved against the scenario's folder (an absolute path stays as it is)
static int resolve(const ctx *x, const char *s, const char *w, char *out, size_t len)
{
    memset(out, 0, len);   /* nothing of an earlier path stays behind the new one: configurations compare bytewise */
    int n = s[0] == '/' || !x->dir || !x->dir[0] ? snprintf(out, len, "%s", s) : snprintf(out, len, "%s/%s", x->dir, s);
    if (n < 0 || (size_t)n >= len)
        return hy_err_set(x->err, HY_EPARSE, "%s: %s: path longer than %zu characters", x->name, w, len - 1);
    return HY_OK;
}

static int read_path(const ctx *x, const cJSON *it, const char *w, char *out, size_t len)
{
    if (!cJSON_IsString(it) || !it->valuestring[0])
        return hy_err_set(x->err, HY_EPARSE, "%s: %s: expected a path", x->name, w);
    return resolve(x, it->valuestring, w, out, len);
}

static int read_bool(const ctx *x, const cJSON *it, const char *w, int *v)
{
    if (!cJSON_IsBool(it))
        return hy_err_set(x->err, HY_EPARSE, "%s: %s: expected true or false", x->name, w);
    *v = cJSON_IsTrue(it);
    return HY_OK;
}

static int read_choice(const ctx *x, const cJSON *it, const char *w, const char *const *names, int *v)
{
    for (int i = 0; cJSON_IsString(it) && names[i]; i++)
        if (strcmp(it->valuestring, names[i]) == 0) {
            *v = i;
            return HY_OK;
        }
    char list[120] = "";
    for (int i = 0; names[i]; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s\"%s\"", i ? ", " : "", names[i]);
    return hy_err_set(x->err, HY_EPARSE, "%s: %s: expected one of %s", x->name, w, list);
}

// ({"speed": [...], "<value>": [...]}) => monotone table (eq. 2.2): 1..16 points, speeds >= 0 strictly ascending
static int read_table(const ctx *x, const cJSON *o, const char *w, const char *vkey, const char *vunit,
                      const char *sunit, mech_dock_table *t)
{
    const cJSON *xs = cJSON_GetObjectItemCaseSensitive(o, "speed"), *ys = cJSON_GetObjectItemCaseSensitive(o, vkey);
    if (!xs || !ys)
        return hy_err_set(x->err, HY_EPARSE, "%s: %s: expected both \"speed\" (%s) and \"%s\" (%s) lists", x->name, w,
                          sunit, vkey, vunit);
    int n = cJSON_IsArray(xs) ? cJSON_GetArraySize(xs) : -1;
    if (n < 1 || n > MECH_DOCK_TABLE_MAX)
        return hy_err_set(x->err, HY_EPARSE, "%s: %s.speed: expected a list of 1..%d speeds in %s", x->name, w,
                          MECH_DOCK_TABLE_MAX, sunit);
    if (!cJSON_IsArray(ys) || cJSON_GetArraySize(ys) != n)
        return hy_err_set(x->err, HY_EPARSE, "%s: %s.%s: expected a list of %d values in %s (one per speed)", x->name,
                          w, vkey, n, vunit);
    mech_dock_table tt;
    memset(&tt, 0, sizeof tt);
    tt.n = n;
    const cJSON *a = xs->child, *b = ys->child;
    for (int i = 0; i < n; i++, a = a->next, b = b->next) {
        if (!cJSON_IsNumber(a) || !isfinite(a->valuedouble) || !(a->valuedouble >= 0) ||
            (i > 0 && !(a->valuedouble > tt.x[i - 1])))
            return hy_err_set(x->err, HY_EPARSE, "%s: %s.speed[%d]: expected a number >= 0 %s, larger than the one "
                              "before", x->name, w, i, sunit);
        if (!cJSON_IsNumber(b) || !isfinite(b->valuedouble) || !(b->valuedouble >= 0))
            return hy_err_set(x->err, HY_EPARSE, "%s: %s.%s[%d]: expected a number >= 0 %s", x->name, w, vkey, i,
                              vunit);
        tt.x[i] = a->valuedouble;
        tt.y[i] = b->valuedouble;
    }
    *t = tt;
    return HY_OK;
}

/* (lateral chain geometry) => error naming the chain and its keys when a chain's loop cannot close at the neutral
 * position (housing on the mechanism axis, where every run starts): a spring rod of zero length, a brake S joint on
 * its crank axis, a coupler too short or too long to join the crank tip to the S joint. The same conditions as
 * mech_dock_lateral_new (docs/dock-lateral.md §2), checked here without the model files, so that a scenario with such
 * a geometry is refused while it is read; mech_dock_config_load then compiles the chains and tries them at neutral. */
static int check_lateral_closure(const ctx *x, const mech_dock_lateral_params *l)
{
    for (int i = 0; i < 2; i++) {
        mech_vec3 d = mech_vec3_sub(l->spring_housing[i], l->spring_base[i]);
        if (!(mech_vec3_norm(d) > 1e-6))
            return hy_err_set(x->err, HY_EPARSE, "%s: lateral.spring_housing[%d]: spring chain %d has no rod: its S "
                              "joint is %g m from its U joint (lateral.spring_base[%d]); the loop cannot close",
                              x->name, i, i + 1, mech_vec3_norm(d), i);
    }
    for (int i = 0; i < 2; i++) {
        mech_vec3 e = l->brake_axis[i], d = mech_vec3_sub(l->brake_housing[i], l->brake_pivot[i]);
        double h = mech_vec3_dot(d, e), a = mech_vec3_norm(mech_vec3_axpy(d, -h, e));
        double rho = l->brake_crank[i], lambda = l->brake_rod[i];
        if (!(a > 1e-9))
            return hy_err_set(x->err, HY_EPARSE, "%s: lateral.brake_housing[%d]: the S joint of brake chain %d lies on "
                              "its crank axis (lateral.brake_pivot[%d], lateral.brake_axis[%d]): the crank cannot turn",
                              x->name, i, i + 3, i, i);
        /* the crank tip runs on a circle of radius rho about the axis; its distance to the S joint ranges over
           [sqrt(h^2 + (a - rho)^2), sqrt(h^2 + (a + rho)^2)], the two dead points excluded */
        double c = (mech_vec3_dot(d, d) + rho * rho - lambda * lambda) / (2 * rho);
        if (!(fabs(c) < a))
            return hy_err_set(x->err, HY_EPARSE, "%s: lateral.brake_rod[%d] = %g m: brake chain %d does not close at "
                              "the neutral position: the coupler must be strictly between %g and %g m to join the "
                              "crank tip (lateral.brake_crank[%d] = %g m) to the S joint; check lateral.brake_pivot[%d], "
                              "brake_axis[%d], brake_crank[%d], brake_rod[%d], brake_housing[%d]", x->name, i, lambda,
                              i + 3, sqrt(h * h + (a - rho) * (a - rho)), sqrt(h * h + (a + rho) * (a + rho)), i, rho,
                              i, i, i, i, i);
    }
    return HY_OK;
}

static int parse_outputs(const ctx *x, const cJSON *o, mech_dock_config *c);

static const char *const start_names[] = {"extend", "ready", NULL};   /* MECH_DOCK_SEQ_EXTEND, _READY */

/* the whole process: "process" switches it on; "drive", "sequencer", "pushers" and "cam" refine it (their numeric
 * keys are table rows, read with the other sections); the cam's contour is two lists */
static int parse_process(const ctx *x, const cJSON *doc, mech_dock_config *c)
{
    mech_dock_process_params *pp = &c->params.process;
    const cJSON *o, *it;
    int rc;
    if ((rc = find_section(x, doc, "process", &o)) != HY_OK)
        return rc;
    pp->enabled = o != NULL;
    static const char *const subs[] = {"drive", "sequencer", "pushers", "cam", "faults", "hooks", "roll_guides"};
    for (int k = 0; k < (int)(sizeof subs / sizeof subs[0]); k++) {
        const cJSON *so;
        if ((rc = find_section(x, doc, subs[k], &so)) != HY_OK)
            return rc;
        if (so && !o)
            return hy_err_set(x->err, HY_EPARSE, "%s: %s: given, but the scenario has no \"process\" section (the "
                              "whole docking process is off; add \"process\": {} to run it)", x->name, subs[k]);
    }
    if (!o)
        return HY_OK;
    if ((it = cJSON_GetObjectItemCaseSensitive(o, "start"))) {
        int st;
        if ((rc = read_choice(x, it, "process.start", start_names, &st)) != HY_OK)
            return rc;
        pp->start = st;   /* the names are in the order of enum mech_dock_seq_state */
    }
    if ((rc = find_section(x, doc, "pushers", &o)) != HY_OK)
        return rc;
    if (o && (it = cJSON_GetObjectItemCaseSensitive(o, "enabled")) &&
        (rc = read_bool(x, it, "pushers.enabled", &pp->pushers_on)) != HY_OK)
        return rc;
    if ((rc = find_section(x, doc, "cam", &o)) != HY_OK)
        return rc;
    if (!o)
        return HY_OK;
    pp->cam_on = 1;
    /* the lever geometry has no RP-1 values: a cam names all of it (scripts/design-cam.py prints a complete one) */
    static const char *const need[] = {"i_cam", "arm", "x_pivot", "rho_pivot", "length", "roller_radius", NULL};
    for (int k = 0; need[k]; k++)
        if (!cJSON_GetObjectItemCaseSensitive(o, need[k]))
            return hy_err_set(x->err, HY_EPARSE, "%s: cam.%s: required with a cam (RP-1 gives no lever geometry; "
                              "scripts/design-cam.py prints a complete cam section)", x->name, need[k]);
    const cJSON *th = cJSON_GetObjectItemCaseSensitive(o, "theta_deg"), *ra = cJSON_GetObjectItemCaseSensitive(o, "radius");
    int n = cJSON_IsArray(th) ? cJSON_GetArraySize(th) : -1;
    if (n < 2 || n > MECH_DOCK_CAM_MAX)
        return hy_err_set(x->err, HY_EPARSE, "%s: cam.theta_deg: expected a list of 2..%d cam angles in deg (strictly "
                          "ascending)", x->name, MECH_DOCK_CAM_MAX);
    if (!cJSON_IsArray(ra) || cJSON_GetArraySize(ra) != n)
        return hy_err_set(x->err, HY_EPARSE, "%s: cam.radius: expected a list of %d follower radii in m (one per "
                          "cam angle)", x->name, n);
    pp->cam.n = n;
    const cJSON *a = th->child, *b = ra->child;
    for (int i = 0; i < n; i++, a = a->next, b = b->next) {
        if (!cJSON_IsNumber(a) || !isfinite(a->valuedouble) || (i > 0 && !(a->valuedouble * DEG > pp->cam.theta[i - 1])))
            return hy_err_set(x->err, HY_EPARSE, "%s: cam.theta_deg[%d]: expected a finite angle in deg, larger than "
                              "the one before (the cam table must be strictly ascending)", x->name, i);
        if (!cJSON_IsNumber(b) || !isfinite(b->valuedouble) || !(b->valuedouble > 0))
            return hy_err_set(x->err, HY_EPARSE, "%s: cam.radius[%d]: expected a follower radius > 0 m", x->name, i);
        pp->cam.theta[i] = a->valuedouble * DEG;
        pp->cam.radius[i] = b->valuedouble;
    }
    return HY_OK;
}

static int parse_doc(const ctx *x, const cJSON *doc, mech_dock_config *c)
{
    mech_dock_params *p = &c->params;
    if (!cJSON_IsObject(doc))
        return hy_err_set(x->err, HY_EPARSE, "%s: expected a JSON object at the top level", x->name);
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(doc, "format");
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(doc, "version");
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "mech-dock") != 0)
        return hy_err_set(x->err, HY_EPARSE, "%s: format: expected \"mech-dock\"", x->name);
    if (ver && (!cJSON_IsNumber(ver) || ver->valuedouble != 1))
        return hy_err_set(x->err, HY_EPARSE, "%s: version: expected 1", x->name);
    for (const char *k = "name\0notes\0source\0"; *k; k += strlen(k) + 1) {
        const cJSON *it = cJSON_GetObjectItemCaseSensitive(doc, k);
        if (it && !cJSON_IsString(it))
            return hy_err_set(x->err, HY_EPARSE, "%s: %s: expected a string", x->name, k);
    }
    /* the variant and the cone choose the RP-1 defaults every other key overrides */
    int variant = MECH_DOCK_A, cone = MECH_DOCK_CONE_MODULE, rc;
    const cJSON *it;
    if ((it = cJSON_GetObjectItemCaseSensitive(doc, "variant")) &&
        (rc = read_choice(x, it, "variant", variant_names, &variant)) != HY_OK)
        return rc;
    if ((it = cJSON_GetObjectItemCaseSensitive(doc, "cone")) &&
        (rc = read_choice(x, it, "cone", cone_names, &cone)) != HY_OK)
        return rc;
    mech_dock_params_rp1(p, variant, cone);
    const cJSON *integ = cJSON_GetObjectItemCaseSensitive(doc, "integration");
    if (cJSON_IsObject(integ) && (it = cJSON_GetObjectItemCaseSensitive(integ, "method")) &&
        (rc = read_choice(x, it, "integration.method", method_names, &p->method)) != HY_OK)
        return rc;
    if (cJSON_IsObject(integ) && (it = cJSON_GetObjectItemCaseSensitive(integ, "control")) &&
        (rc = read_choice(x, it, "integration.control", control_names, &p->control)) != HY_OK)
        return rc;
    for (int s = 0; s < MECH_DOCK_NLAW; s++)
        if (law_used(variant, s) && law_default[s] &&
            (rc = resolve(x, law_default[s], "laws", c->law_path[s], MECH_DOCK_PATH_LEN)) != HY_OK)
            return rc;
    /* sections: keys first, then the table rows */
    for (size_t s = 0; s < NSECTION; s++) {
        const cJSON *o;
        if ((rc = find_section(x, doc, sections[s].path, &o)) != HY_OK)
            return rc;
        if (!o)
            continue;
        if ((rc = check_keys(x, o, &sections[s])) != HY_OK)
            return rc;
        for (size_t i = 0; i < NFIELD; i++)
            if (strcmp(fields[i].sec, sections[s].path) == 0 &&
                (it = cJSON_GetObjectItemCaseSensitive(o, fields[i].key)) &&
                (rc = read_field(x, &fields[i], it, c)) != HY_OK)
                return rc;
    }
    const cJSON *o;
    /* vehicle names */
    for (int v = 0; v < 2; v++) {
        const char *sec = v ? "vehicles.passive" : "vehicles.active";
        mech_dock_vehicle *veh = v ? &p->passive : &p->active;
        char w[64];
        if ((rc = find_section(x, doc, sec, &o)) != HY_OK)
            return rc;
        if (o && (it = cJSON_GetObjectItemCaseSensitive(o, "name")) &&
            (rc = read_text(x, it, where(sec, "name", w, sizeof w), veh->name, sizeof veh->name, "a name")) != HY_OK)
            return rc;
    }
    /* "mu": the static and the kinetic coefficient at once */
    static const char *const laws3[] = {"contact.head_cone", "contact.head_bottom", "contact.limiter_rim"};
    mech_contact_law *cl[3] = {&p->contact.head_cone, &p->contact.head_bottom, &p->contact.limiter_rim};
    for (int k = 0; k < 3; k++) {
        char w[64];
        if ((rc = find_section(x, doc, laws3[k], &o)) != HY_OK)
            return rc;
        if (!o)
            continue;
        if ((it = cJSON_GetObjectItemCaseSensitive(o, "mu"))) {
            if (cJSON_GetObjectItemCaseSensitive(o, "mu_s") || cJSON_GetObjectItemCaseSensitive(o, "mu_k"))
                return hy_err_set(x->err, HY_EPARSE, "%s: %s: give \"mu\" (both coefficients) or \"mu_s\" and "
                                  "\"mu_k\", not both", x->name, laws3[k]);
            if (!cJSON_IsNumber(it) || !(it->valuedouble >= 0) || !isfinite(it->valuedouble))
                return hy_err_set(x->err, HY_EPARSE, "%s: %s: expected a number >= 0", x->name,
                                  where(laws3[k], "mu", w, sizeof w));
            cl[k]->mu_s = cl[k]->mu_k = it->valuedouble;
        }
        if (!(cl[k]->mu_s >= cl[k]->mu_k))
            return hy_err_set(x->err, HY_EPARSE, "%s: %s.mu_s = %g: expected >= mu_k = %g", x->name, laws3[k],
                              cl[k]->mu_s, cl[k]->mu_k);
        if (cl[k]->mu_k > 0 && !(cl[k]->kt > 0))
            return hy_err_set(x->err, HY_EPARSE, "%s: %s.kt = %g: a law with friction needs a stick stiffness > 0 N/m",
                              x->name, laws3[k], cl[k]->kt);
    }
    /* speed tables of the magnetic brakes */
    if ((rc = find_section(x, doc, "axial.magnetic", &o)) != HY_OK)
        return rc;
    if (o && variant != MECH_DOCK_A)
        return hy_err_set(x->err, HY_EPARSE, "%s: axial.magnetic: variant B has no axial magnetic brakes (spec 001 "
                          "§5.1)", x->name);
    if (o && (rc = read_table(x, o, "axial.magnetic", "force", "N", "m/s", &p->axial.magnetic)) != HY_OK)
        return rc;
    if ((rc = find_section(x, doc, "lateral.brake", &o)) != HY_OK)
        return rc;
    if (o && (rc = read_table(x, o, "lateral.brake", "moment", "N m", "rad/s", &p->lateral.brake)) != HY_OK)
        return rc;
    /* cross-checks */
    if (p->variant == MECH_DOCK_B && !(p->axial.frt1_stroke < p->axial.stroke_limit))
        return hy_err_set(x->err, HY_EPARSE, "%s: axial.frt1_stroke = %g: expected below axial.stroke_limit = %g m",
                          x->name, p->axial.frt1_stroke, p->axial.stroke_limit);
    if (!(p->geom.socket_radius < p->geom.rim_radius))
        return hy_err_set(x->err, HY_EPARSE, "%s: geometry.socket_radius = %g: expected below geometry.rim_radius = "
                          "%g m", x->name, p->geom.socket_radius, p->geom.rim_radius);
    if (!(p->geom.head_radius < p->geom.socket_radius))
        return hy_err_set(x->err, HY_EPARSE, "%s: geometry.head_radius = %g: expected below geometry.socket_radius = "
                          "%g m (the head enters the socket)", x->name, p->geom.head_radius, p->geom.socket_radius);
    if (!(p->geom.stop_depth < p->geom.bottom_depth))
        return hy_err_set(x->err, HY_EPARSE, "%s: geometry.stop_depth = %g: expected below geometry.bottom_depth = "
                          "%g m", x->name, p->geom.stop_depth, p->geom.bottom_depth);
    if (!(p->geom.slot_narrow <= p->geom.slot_entry))
        return hy_err_set(x->err, HY_EPARSE, "%s: geometry.slot_narrow_deg: expected <= geometry.slot_entry_deg",
                          x->name);
    if (!(p->duration / p->h <= 1e8))
        return hy_err_set(x->err, HY_EPARSE, "%s: duration = %g: expected at most 1e8 steps of %g s", x->name,
                          p->duration, p->h);
    if ((rc = check_lateral_closure(x, &p->lateral)) != HY_OK)
        return rc;
    /* model files */
    if ((rc = find_section(x, doc, "laws", &o)) != HY_OK)
        return rc;
    for (int s = 0; o && s < MECH_DOCK_NLAW; s++) {
        char w[32];
        if (!(it = cJSON_GetObjectItemCaseSensitive(o, law_key[s])))
            continue;
        if (!law_used(variant, s))
            return hy_err_set(x->err, HY_EPARSE, "%s: laws.%s: variant %s has no %s law (%s)", x->name, law_key[s],
                              variant_names[variant], law_key[s],
                              s == MECH_DOCK_LAW_CHAIN
                                  ? "its axial hysteresis is the gear train: laws.gear"
                                  : "its axial hysteresis is the spring + brake chain: laws.chain");
        if ((rc = read_path(x, it, where("laws", law_key[s], w, sizeof w), c->law_path[s], MECH_DOCK_PATH_LEN)) !=
            HY_OK)
            return rc;
    }
    if ((rc = find_section(x, doc, "outputs", &o)) != HY_OK || (o && (rc = parse_outputs(x, o, c)) != HY_OK))
        return rc;
    if ((rc = parse_process(x, doc, c)) != HY_OK)
        return rc;
    if ((rc = find_section(x, doc, "stand", &o)) != HY_OK)
        return rc;
    p->stand = o != NULL;
    if ((rc = find_section(x, doc, "limiter", &o)) != HY_OK)
        return rc;
    if (o && !p->limiter_movable)
        return hy_err_set(x->err, HY_EPARSE, "%s: limiter: only variant C has a movable limiter (\"variant\": \"C\"; "
                          "A and B have the fixed one, geometry.limiter_*)", x->name);
    if (c->law_path[MECH_DOCK_LAW_COVER][0] && !p->stand)
        return hy_err_set(x->err, HY_EPARSE, "%s: laws.cover: only the stand option has a cover (add a \"stand\" "
                          "section or remove the law)", x->name);
    /* a scenario says how fast the vehicles meet (RP-1's parameters leave the initial conditions zero) */
    if (!(p->init.closing_speed > 0))
        return hy_err_set(x->err, HY_EPARSE, "%s: initial.closing_speed: required (m/s > 0; RP-1 nominal 0.15)",
                          x->name);
    return HY_OK;
}

// (the "outputs" object) => output choices
static int parse_outputs(const ctx *x, const cJSON *o, mech_dock_config *c)
{
    const mech_dock_params *p = &c->params;
    const cJSON *it;
    int rc;
    if ((it = cJSON_GetObjectItemCaseSensitive(o, "folder")) &&
        (rc = read_path(x, it, "outputs.folder", c->out_dir, sizeof c->out_dir)) != HY_OK)
        return rc;
    if ((it = cJSON_GetObjectItemCaseSensitive(o, "records")) &&
        (rc = read_bool(x, it, "outputs.records", &c->records)) != HY_OK)
        return rc;
    if ((it = cJSON_GetObjectItemCaseSensitive(o, "plots")) &&
        (rc = read_bool(x, it, "outputs.plots", &c->plots)) != HY_OK)
        return rc;
    if ((it = cJSON_GetObjectItemCaseSensitive(o, "animation")) &&
        (rc = read_bool(x, it, "outputs.animation", &c->animation)) != HY_OK)
        return rc;
    if ((it = cJSON_GetObjectItemCaseSensitive(o, "events")) &&
        (rc = read_choice(x, it, "outputs.events", events_names, &c->out_events)) != HY_OK)
        return rc;
    if ((it = cJSON_GetObjectItemCaseSensitive(o, "format")) &&
        (rc = read_choice(x, it, "outputs.format", format_names, &c->out_format)) != HY_OK)
        return rc;
    if ((it = cJSON_GetObjectItemCaseSensitive(o, "compression"))) {
        double v = cJSON_IsNumber(it) ? it->valuedouble : -1;
        if (!(v >= 0 && v <= 9 && v == floor(v)))
            return hy_err_set(x->err, HY_EPARSE, "%s: outputs.compression: expected a deflate level 0..9 (0: none)",
                              x->name);
        c->out_compression = (int)v;
    }
    if ((it = cJSON_GetObjectItemCaseSensitive(o, "channels"))) {
        int n = cJSON_IsArray(it) ? cJSON_GetArraySize(it) : -1, k = 0;
        if (n < 1 || n > MECH_DOCK_NCH)
            return hy_err_set(x->err, HY_EPARSE, "%s: outputs.channels: expected a list of 1..%d channel names (%s, "
                              "%s, ... docs/dock-scenarios.md)", x->name, MECH_DOCK_NCH, mech_dock_channel_name(1),
                              mech_dock_channel_name(2));
        for (const cJSON *e = it->child; e; e = e->next, k++) {
            int ch = cJSON_IsString(e) ? mech_dock_channel_find(e->valuestring) : -1;
            char buf[64];
            if (ch < 0)
                return hy_err_set(x->err, HY_EPARSE, "%s: outputs.channels[%d]: %s%s%s: not a channel (see "
                                  "docs/dock-scenarios.md)", x->name, k, cJSON_IsString(e) ? "\"" : "",
                                  cJSON_IsString(e) ? printable(e->valuestring, buf, sizeof buf) : "not a string",
                                  cJSON_IsString(e) ? "\"" : "");
            for (int j = 0; j < k; j++)
                if (c->channel[j] == ch)
                    return hy_err_set(x->err, HY_EPARSE, "%s: outputs.channels[%d]: \"%s\" is listed twice", x->name,
                                      k, e->valuestring);
            c->channel[k] = ch;
        }
        c->nchannel = n;
    }
    if ((it = cJSON_GetObjectItemCaseSensitive(o, "view_times"))) {
        int n = cJSON_IsArray(it) ? cJSON_GetArraySize(it) : -1, k = 0;
        int cap = (int)(sizeof c->view_times / sizeof c->view_times[0]);
        if (n < 0 || n > cap)
            return hy_err_set(x->err, HY_EPARSE, "%s: outputs.view_times: expected a list of 0..%d times in s",
                              x->name, cap);
        for (const cJSON *e = it->child; e; e = e->next, k++) {
            if (!cJSON_IsNumber(e) || !(e->valuedouble >= 0) || !(e->valuedouble <= p->duration) ||
                (k > 0 && !(e->valuedouble > c->view_times[k - 1])))
                return hy_err_set(x->err, HY_EPARSE, "%s: outputs.view_times[%d]: expected a time in 0..duration = "
                                  "%g s, later than the one before", x->name, k, p->duration);
            c->view_times[k] = e->valuedouble;
        }
        c->nview = n;
    }
    return HY_OK;
}

int mech_dock_config_parse(const char *text, size_t len, const char *name, const char *dir, mech_dock_config *c,
                           hy_err *err)
{
    mech_dock_config_default(c);
    ctx x = {name, dir, err};
    cJSON *doc; /* strict: nothing after the object, no key twice */
    int rc0 = hy_json_parse_strict(text, len, name, "a mech-dock object", &doc, err);
    if (rc0 != HY_OK)
        return rc0;
    int rc = parse_doc(&x, doc, c);
    cJSON_Delete(doc);
    return rc;
}

// (unit text) => model length units per m (0: not a length)
static double length_scale(const char *u)
{
    static const struct { const char *u; double s; } t[] = {{"m", 1}, {"mm", 1e3}, {"cm", 1e2}, {"um", 1e6}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(u, t[i].u) == 0)
            return t[i].s;
    return 0;
}

// (unit text) => N per model force unit (0: not a force)
static double force_scale(const char *u)
{
    static const struct { const char *u; double s; } t[] = {{"N", 1}, {"kN", 1e3}, {"mN", 1e-3}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(u, t[i].u) == 0)
            return t[i].s;
    return 0;
}

int mech_dock_config_load(mech_dock_config *c, const char *name, hy_err *err)
{
    mech_dock_params *p = &c->params;
    for (int s = 0; s < MECH_DOCK_NLAW; s++) {
        if (!c->law_path[s][0])
            continue;
        hy_err e;
        hy_model *m = &c->laws[s];
        if (m->type != HY_MODEL_NONE || m->extra)
            hy_model_free(m);
        if (hy_model_read(c->law_path[s], m, &e) != HY_OK)
            return hy_err_set(err, e.code, "%s: laws.%s: %s", name, law_key[s], e.msg);
        /* the family rules: the variant-A chain is the variable-parameter table of spec 000 §3 (a brake slip shifts
           it); the other laws are hysteresis without a brake (pwl of constant kind, or kin) */
        int pwl = m->type == HY_MODEL_PWL, fric = pwl && hy_pwl_model_kind(m->pwl) == HY_PWL_FRICTION;
        if (s == MECH_DOCK_LAW_CHAIN && !fric)
            return hy_err_set(err, HY_EMODEL, "%s: laws.chain: %s is a %s model; the spring + friction-brake chain "
                              "of variant A needs a pwl table of friction kind (spec 000 §3)", name, c->law_path[s],
                              pwl ? "pwl constant-kind" : hy_model_family(m));
        if (s != MECH_DOCK_LAW_CHAIN && fric)
            return hy_err_set(err, HY_EMODEL, "%s: laws.%s: %s is a pwl table of friction kind, which only the "
                              "variant-A chain drives (its brake slip); give a constant-kind table or a kin law",
                              name, law_key[s], c->law_path[s]);
        int angular = s == MECH_DOCK_LAW_BENDING || s == MECH_DOCK_LAW_TORSION;
        double qs = angular ? mech_beam_angle_scale(m->unit_q) : length_scale(m->unit_q);
        double Qs = angular ? mech_beam_moment_scale(m->unit_Q) : force_scale(m->unit_Q);
        if (qs == 0 || Qs == 0)
            return hy_err_set(err, HY_EMODEL, "%s: laws.%s: %s has units q = \"%s\", Q = \"%s\"; this law needs %s",
                              name, law_key[s], c->law_path[s], m->unit_q, m->unit_Q,
                              angular ? "an angle (rad, mrad, deg) and a moment (N m, kN m, N mm)"
                                      : "a length (m, mm, cm, um) and a force (N, kN, mN)");
        mech_dock_law *l = law_slot(p, s);
        l->model = m;
        l->q_scale = qs;
        l->Q_scale = Qs;
        if (!(l->scale > 0))
            l->scale = 1;
    }
    hy_err e;
    if (mech_dock_params_check(p, &e) != HY_OK)
        return hy_err_set(err, e.code, "%s: %s", name, e.msg);
    /* the lateral chains are compiled by the simulation (mech_dock_sim_new), after the outputs are opened: compile
       them here too and try them at the neutral position, so that a geometry the module refuses is refused before
       the run, with the file's name */
    mech_dock_lateral *lat;
    int rc = mech_dock_lateral_new(&p->lateral, &lat, &e);
    if (rc == HY_OK) {
        mech_dock_lateral_out o;
        mech_mat3 eye = mech_mat3_identity();
        rc = mech_dock_lateral_trial(lat, &eye, mech_vec3_make(0, 0, 0), &o, &e);
        mech_dock_lateral_free(lat);
    }
    if (rc != HY_OK)
        return hy_err_set(err, rc == HY_ENOMEM ? HY_ENOMEM : HY_EMODEL, "%s: %s (the lateral chains at the neutral "
                          "position: check the lateral section's spring_* and brake_* keys)", name, e.msg);
    return HY_OK;
}

int mech_dock_config_read(const char *path, mech_dock_config *c, hy_err *err)
{
    const char *name = hy_display_name(path);
    mech_dock_config_default(c);
    char *txt;
    size_t n;
    int rc0 = hy_read_text(path, "a scenario file (mech-dock JSON)", 0, &txt, &n, err);
    if (rc0 != HY_OK)
        return rc0;
    char dir[MECH_DOCK_PATH_LEN];
    hy_path_dir(path, dir, sizeof dir);
    int rc = mech_dock_config_parse(txt, n, name, dir, c, err);
    free(txt);
    if (rc == HY_OK)
        rc = mech_dock_config_load(c, name, err);
    if (rc != HY_OK)
        mech_dock_config_free(c);
    return rc;
}

void mech_dock_config_free(mech_dock_config *c)
{
    for (int s = 0; s < MECH_DOCK_NLAW; s++) {
        if (c->laws[s].type != HY_MODEL_NONE || c->laws[s].extra)
            hy_model_free(&c->laws[s]);
        memset(&c->laws[s], 0, sizeof c->laws[s]);
        law_slot(&c->params, s)->model = NULL;
    }
}

/* ---- printer ------------------------------------------------------------------------------------------- */

// (radians) => degrees that read back to exactly the same radians (deg * DEG), when a nearby double does
static double to_deg(double r)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.12g", r / DEG);   /* the short form first: 30, not 29.999999999999996 */
    double d = strtod(buf, NULL), up, down;
    if (d * DEG == r)
        return d;
    d = r / DEG, up = d, down = d;
    for (int k = 0; k < 8; k++) {
        if (up * DEG == r)
            return up;
        if (down * DEG == r)
            return down;
        up = nextafter(up, INFINITY);
        down = nextafter(down, -INFINITY);
    }
    return d;
}

// (object, dotted path) => the nested object, created when missing
static cJSON *section_obj(cJSON *doc, const char *path)
{
    cJSON *o = doc;
    char part[64];
    while (*path && o) {
        size_t n = strcspn(path, ".");
        snprintf(part, sizeof part, "%.*s", (int)n, path);
        cJSON *it = cJSON_GetObjectItemCaseSensitive(o, part);
        o = it ? it : cJSON_AddObjectToObject(o, part);
        path += n + (path[n] == '.');
    }
    return o;
}

static cJSON *vec_item(const mech_vec3 *u)
{
    cJSON *v = cJSON_CreateArray();
    cJSON_AddItemToArray(v, hy_json_exact_number(u->x));
    cJSON_AddItemToArray(v, hy_json_exact_number(u->y));
    cJSON_AddItemToArray(v, hy_json_exact_number(u->z));
    return v;
}

static cJSON *table_obj(const mech_dock_table *t, const char *vkey)
{
    cJSON *o = cJSON_CreateObject(), *xs = cJSON_AddArrayToObject(o, "speed"), *ys = cJSON_AddArrayToObject(o, vkey);
    for (int i = 0; ys && i < t->n; i++) {
        cJSON_AddItemToArray(xs, hy_json_exact_number(t->x[i]));
        cJSON_AddItemToArray(ys, hy_json_exact_number(t->y[i]));
    }
    return o;
}

char *mech_dock_config_print(const mech_dock_config *c, hy_err *err)
{
    const mech_dock_params *p = &c->params;
    cJSON *doc = cJSON_CreateObject();
    if (!doc) {
        hy_err_set(err, HY_ENOMEM, "out of memory printing the scenario");
        return NULL;
    }
    cJSON_AddStringToObject(doc, "format", "mech-dock");
    cJSON_AddNumberToObject(doc, "version", 1);
    int variant = p->variant == MECH_DOCK_A ? 0 : p->limiter_movable ? 2 : 1;
    int cone = p->geom.cone >= 0 && p->geom.cone <= 2 ? p->geom.cone : 0;
    cJSON_AddStringToObject(doc, "variant", variant_names[variant]);
    cJSON_AddStringToObject(doc, "cone", cone_names[cone]);
    if (p->active.name[0])
        cJSON_AddStringToObject(section_obj(doc, "vehicles.active"), "name", p->active.name);
    if (p->passive.name[0])
        cJSON_AddStringToObject(section_obj(doc, "vehicles.passive"), "name", p->passive.name);
    for (size_t i = 0; i < NFIELD; i++) {
        const field *f = &fields[i];
        if (process_section(f->sec) && !p->process.enabled)
            continue;
        if (!strcmp(f->sec, "stand") && !p->stand)
            continue;
        if (!strcmp(f->sec, "limiter") && !p->limiter_movable)
            continue;
        if (!strcmp(f->sec, "cam") && !p->process.cam_on)
            continue;
        const char *base = (const char *)c + f->off;
        cJSON *o = section_obj(doc, f->sec), *v;
        if (pair_of(f->kind)) {
            int one = pair_of(f->kind);
            v = cJSON_CreateArray();
            for (int k = 0; k < 2; k++)
                cJSON_AddItemToArray(v, is_vec(one) ? vec_item((const mech_vec3 *)base + k)
                                                    : hy_json_exact_number(((const double *)base)[k]));
        } else if (is_vec(f->kind)) {
            v = vec_item((const mech_vec3 *)base);
        } else if (is_int(f->kind)) {
            v = cJSON_CreateNumber(*(const int *)base);
        } else {
            double d = *(const double *)base;
            v = hy_json_exact_number(is_deg(f->kind) ? to_deg(d) : d);
        }
        cJSON_AddItemToObject(o, f->key, v);
    }
    cJSON_AddStringToObject(section_obj(doc, "integration"), "method", method_names[p->method]);
    cJSON_AddStringToObject(section_obj(doc, "integration"), "control", control_names[p->control]);
    if (p->variant == MECH_DOCK_A && p->axial.magnetic.n > 0)
        cJSON_AddItemToObject(section_obj(doc, "axial"), "magnetic", table_obj(&p->axial.magnetic, "force"));
    if (p->lateral.brake.n > 0)
        cJSON_AddItemToObject(section_obj(doc, "lateral"), "brake", table_obj(&p->lateral.brake, "moment"));
    if (p->process.enabled) {
        const mech_dock_process_params *pp = &p->process;
        cJSON_AddStringToObject(section_obj(doc, "process"), "start",
                                start_names[pp->start == MECH_DOCK_SEQ_EXTEND ? 0 : 1]);
        cJSON_AddBoolToObject(section_obj(doc, "pushers"), "enabled", pp->pushers_on);
        if (pp->cam_on) {
            cJSON *cam = section_obj(doc, "cam"), *th = cJSON_AddArrayToObject(cam, "theta_deg"),
                  *ra = cJSON_AddArrayToObject(cam, "radius");
            for (int i = 0; th && ra && i < pp->cam.n; i++) {
                cJSON_AddItemToArray(th, hy_json_exact_number(to_deg(pp->cam.theta[i])));
                cJSON_AddItemToArray(ra, hy_json_exact_number(pp->cam.radius[i]));
            }
        }
    }
    cJSON *laws = section_obj(doc, "laws");
    for (int s = 0; s < MECH_DOCK_NLAW; s++)
        if (c->law_path[s][0])
            cJSON_AddStringToObject(laws, law_key[s], c->law_path[s]);
    cJSON *out = section_obj(doc, "outputs");
    if (c->out_dir[0])
        cJSON_AddStringToObject(out, "folder", c->out_dir);
    cJSON_AddBoolToObject(out, "records", c->records);
    cJSON_AddBoolToObject(out, "plots", c->plots);
    cJSON_AddBoolToObject(out, "animation", c->animation);
    cJSON_AddStringToObject(out, "events", events_names[c->out_events]);
    cJSON_AddStringToObject(out, "format", format_names[c->out_format]);
    cJSON_AddNumberToObject(out, "compression", c->out_compression);
    if (c->nchannel > 0) {
        cJSON *a = cJSON_AddArrayToObject(out, "channels");
        for (int k = 0; a && k < c->nchannel; k++)
            cJSON_AddItemToArray(a, cJSON_CreateString(mech_dock_channel_name(c->channel[k])));
    }
    cJSON *vt = cJSON_AddArrayToObject(out, "view_times");
    for (int k = 0; vt && k < c->nview; k++)
        cJSON_AddItemToArray(vt, hy_json_exact_number(c->view_times[k]));
    char *txt = hy_json_print(doc);
    cJSON_Delete(doc);
    if (!txt)
        hy_err_set(err, HY_ENOMEM, "out of memory printing the scenario");
    return txt;
}

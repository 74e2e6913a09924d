/* Benchmark: `mech dock` against an independent MuJoCo 2.2.2 model of the same RP-1 scenarios, timed in the same run
 * (issue 17). The issue set its targets (S1-B <= 0.15 s, S2-B <= 0.25 s whole process) on a machine where this peer
 * took 1.6-1.9 s (S1-B) and 8.1-8.3 s (S2-B). Machines differ by 2x, so an absolute time says little on another one:
 * the figure is the RATIO of the peer's CPU time to `mech dock`'s, both measured here, against the ratio the targets
 * imply on that machine: >= 10.7 for S1-B (1.6 / 0.15) and >= 32 for S2-B (8.1 / 0.25).
 *
 * What is compared, per scenario (S1-B central impact of the 20 t module; S2-B Soyuz 7.2 t with a 0.10 m lateral
 * miss; both at 0.15 m/s closing, 20 s simulated; RP-1 §4, fixtures/mech/dock/s1-B.json and s2-B.json):
 *   - `BIN/mech dock <fixture> --out <tmp> --no-plots -q` as a user runs it, whole process with its default outputs
 *     (history, records, summary), CPU (user + sys) of the child from wait4, best of 3;
 *   - the MuJoCo model below: MJCF text compiled from MuJoCo's virtual file system, mj_makeData and 200 000 calls of
 *     mj_step at h = 1e-4 s (MuJoCo's default semi-implicit Euler integrator: the contact and joint-limit forces are
 *     constraints and the joint damping is implicit, so RK4 is not needed), CPU time of this thread, best of 2. The
 *     per-step observation (head contact forces, capture check) is inside the timing: `mech dock` writes its
 *     outputs inside its own.
 * and, so that a reader sees that the peer did the same job, its peak head forces, first head-bottom contact,
 * capture time, stroke used and cone contacts beside `mech dock`'s (summary.json; the bottom contact from
 * history.csv). They need not agree closely: the contact and damper laws differ (below).
 *
 * The MuJoCo model (RP-1 numbers as constants below, each with its section; the bench reads nothing of the spec):
 *   - two free bodies: the ISS (420 t, CoM 35 m behind its docking plane) and the active vehicle (20 t module or
 *     Soyuz), their frames along the cone frame of RP-1 §2 (+x out of the passive unit);
 *   - the receiving cone as 36 thin boxes (staves) tangent to the cone's generatrix (R_rim 0.40 m, 30 deg, down to
 *     the 0.05 m throat: a circumscribed polygon, radius error <= 1.5 mm at the seams), the socket bore as 24 boxes
 *     tangent to its cylinder, the socket bottom as a box, all on the ISS body;
 *   - the active unit (variant B geometry, dock_params.c: the universal joint 0.20 m behind the active plane, housing
 *     0.70 m, probe 0.55 m): the housing on 2 hinges (the universal joint) whose stiffness and damping are the lateral
 *     damper's soft coil stage and magnetic brakes (RP-1 §2.6), with the 5 deg stop as the joint range; at the probe
 *     exit 2 bending hinges (RP-1 §2.7, 10 % damping); then the axial chain in series: a slide joint "brake" with
 *     frictionloss = FrT1's 1 250 N, armature = the nut chain's reflected 50 kg and the 0.32 m stroke limit, and a
 *     slide joint "gear" with the gear-train compliance 2e5 N/m and the 200 N s/m structural damping (RP-1 §2.5);
 *     the 9 kg probe with the 0.045 m spherical head;
 *   - contacts: the head sphere against the boxes, condim 3 (pyramidal friction cone), mu 0.15 on the cone and bore,
 *     0.1 on the bottom (RP-1 §2.8). MuJoCo's contact is a soft constraint, not a penalty spring. Its solref, given
 *     negative as (-stiffness, -damping) (MuJoCo 2.x, mjModel.geom_solref: aref = -b v - k imp r with
 *     k = stiffness / dmax^2, b = damping / dmax), sets an ACCELERATION: with a constant impedance d = dmax the
 *     contact moves as a1 = -damping v - stiffness r + (1 - d) a0 (a0 = the unconstrained acceleration). So the
 *     impact behaves as a spring of stiffness * m_eff (m_eff: the head's effective mass along the normal), and a
 *     sustained load sees stiffness * m_eff / (1 - d). RP-1's 2e6 N/m (cone, bore) and 5e6 N/m (bottom) are divided
 *     by m_eff measured in this model (1 / J M^-1 J^T of the contact rows: 4.8-5.3 kg on the cone wall, 8.8 kg along
 *     the axis); d = 0.5 then gives RP-1's stiffness at impact (the contact period) and twice it under a sustained
 *     load (d = 0.99, nearly rigid under load, made the head chatter in the bore with 11 kN spikes). The damping is
 *     the linear damper of the RP-1 restitution (0.4 cone, 0.3 bottom) at that stiffness;
 *   - capture: the latches are one small sphere at the head centre that is switched on (geom_contype) when the head
 *     centre passes the capture plane (RP-1 §2.2: 5 mm below the stop plane), after which it meets a stop box whose
 *     face stands where the latches rest on the stops: the head is then held between the stops and the bottom.
 * What it simplifies (it is a timing peer, not a reference solution): every hysteretic law is a linear spring and
 * damper (the lateral springs' 100 N m preload and Belleville stage, the bending and torsion hysteresis dropped; no
 * torsion joint); FrT1 is symmetric (MuJoCo's frictionloss; 300 N pull-out in RP-1) and FrT2 is absent (the strokes
 * here stay below FrT1's 0.25 m); the latch detent (150 N over 5 mm) and the roll slots are absent; Hunt-Crossley
 * contact damping is a linear damper; no fixed limiter (it does not touch in S1 or S2). The start is mech dock's:
 * the head at its first contact (S1: at the stop plane, RP-1 §4 "no cone contact"; S2: touching the cone wall),
 * the passive vehicle at rest, the active one closing at 0.15 m/s.
 * The issue's own peer is not in the repository and this one is not it: here S2-B costs MuJoCo about what S1-B does
 * (~25-30 us a step, a third of it collision against the 62 boxes), where the issue's took 5x longer on S2-B than on
 * S1-B; so the two ratio targets carry that model's cost profile. Halving h (5e-5 s) changes the peer's peak forces
 * by < 10 % and its event times by < 1 ms.
 * Exit status: non-zero when MuJoCo refuses the model, warns (NaN or bad accelerations: it would reset and time
 * garbage) or ends not physical (the probe through its stroke stop, head forces > 100 kN), when the peer's head does
 * not reach the bottom and capture, or when `mech dock` fails. A ratio below its target is flagged MISSED but does
 * not fail the run (it depends on the machine and its load). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <cjson/cJSON.h>
#include <mujoco/mujoco.h>
#include "bench_mjcf.h"
#include "bench_util.h"
#include "hyst/util.h"

#define MJ_REPS   2      /* MuJoCo runs per scenario (2 s and 8 s each on the issue's machine)                      */
#define MECH_REPS 3      /* mech dock whole processes per scenario                                                  */
#define H         1e-4   /* MuJoCo's step, s (issue 17: what it needs on the 36-stave cone)                         */
#define DURATION  20.0   /* s simulated (the fixtures' "duration")                                                  */
#define DEG       (M_PI / 180.0)

/* RP-1 §2.2 passive unit (module cone) */
#define RIM_R         0.40    /* entry-rim radius, rim in the passive docking plane x = 0, m                        */
#define HALF_ANGLE    (30 * DEG)
#define SOCKET_R      0.050   /* socket throat (bore) radius, m                                                     */
#define STOP_DEPTH    0.05    /* throat -> stop plane, m                                                            */
#define BOTTOM_DEPTH  0.11    /* throat -> bottom face, m                                                           */
#define DETENT_TRAVEL 0.005   /* latches past the stop plane at capture, m                                          */
/* RP-1 §2.3 active unit, variant B (libmech/src/dock/dock_params.c: the universal joint 0.15 m lower, the housing
   0.15 m longer, so the head stays 1.05 m ahead of the active docking plane) */
#define UJ_BEHIND     0.20    /* universal-joint centre behind the active docking plane, m                          */
#define HOUSING_LEN   0.70    /* UJ -> probe exit (bending joint), m                                                */
#define PROBE_LEN     0.55    /* probe free length at the ready position, m                                         */
#define HEAD_R        0.045   /* head sphere radius, m                                                              */
#define STROKE_LIMIT  0.32    /* axial stroke hard stop, m (RP-1 §2.3)                                              */
/* RP-1 §2.4 mass properties (variant B: the housing CoM 0.15 m further, parallel-axis shift, as dock_params.c) */
#define HOUSING_M     25.0
#define HOUSING_COM   0.425   /* from the UJ, m                                                                     */
#define HOUSING_IT    (3.0 + HOUSING_M * (0.425 * 0.425 - 0.275 * 0.275))   /* transverse about the UJ, kg m^2      */
#define HOUSING_IA    0.3
#define PROBE_M       9.0     /* probe 6 kg + head 3 kg                                                             */
#define PROBE_COM     ((6 * 0.275 + 3 * 0.55) / 9)   /* from the bending joint, m                                   */
#define PROBE_IT      1.5     /* transverse about the bending joint, kg m^2                                         */
#define PROBE_IA      0.02
/* RP-1 §2.5 axial damper, variant B */
#define FRT1_PUSH     1250.0  /* FrT1 push-in slip force, N (symmetric here: MuJoCo's frictionloss)                 */
#define M_EQ          50.0    /* reduced mass of the nut chain, kg (-> armature of the slide)                       */
#define GEAR_K        2e5     /* gear-train compliance at the probe, N/m                                            */
#define AXIAL_C       200.0   /* structural damping at the probe, N s/m                                             */
/* RP-1 §2.6 lateral damper about the UJ: soft coil stage rate, magnetic brakes, hard stop */
#define LAT_K         1.5e4   /* N m/rad                                                                            */
#define LAT_C         1500.0  /* N m s/rad                                                                          */
#define LAT_STOP      (5 * DEG)
/* RP-1 §2.7 probe bending stiffness; damping: 10 % of critical on the probe's 1.5 kg m^2 (the hysteresis width) */
#define BEND_K        2.5e5   /* N m/rad                                                                            */
#define BEND_C        (0.2 * sqrt(BEND_K * PROBE_IT))
/* RP-1 §2.8 contact laws: stiffness N/m, restitution, friction */
#define CONE_K        2e6
#define CONE_E        0.4
#define CONE_MU       0.15
#define BOTTOM_K      5e6
#define BOTTOM_E      0.3
#define BOTTOM_MU     0.1
/* the head's effective mass along the contact normal (kg) that turns RP-1's N/m into MuJoCo's acceleration
   stiffness (header): measured in this model as 1 / (J M^-1 J^T) of the contact rows, 4.8-5.3 kg on the cone
   wall (mostly the probe swinging on its bending hinges), 8.8 kg along the axis (the probe on the gear spring) */
#define M_EFF_CONE    5.0
#define M_EFF_AXIAL   8.8
#define IMPEDANCE     0.5     /* solimp d0 = dmax: constant impedance (header)                                      */

#define N_STAVES 36
#define N_BORE   24
#define LATCH_R  0.005        /* the capture sphere at the head centre                                              */

/* RP-1 §2.1 vehicles and §4 scenarios (fixtures/mech/dock/s1-B.json, s2-B.json) */
typedef struct scenario {
    const char *name, *fixture;
    double mass, inertia[3], port;   /* active vehicle: kg, kg m^2 (roll, transverse, transverse), port -> CoM m  */
    double offset_y;                 /* lateral miss, m                                                          */
    double issue_mj;                 /* the peer's best time on the issue's machine, s                           */
    double target_mech;              /* mech dock's target there, s                                              */
} scenario;

static const scenario SCEN[2] = {
    {"S1-B", "fixtures/mech/dock/s1-B.json", 20000, {6.0e4, 3.2e5, 3.2e5}, 6.5, 0.0, 1.6, 0.15},
    {"S2-B", "fixtures/mech/dock/s2-B.json", 7200, {6.5e3, 3.0e4, 3.0e4}, 4.0, 0.10, 8.1, 0.25},
};
#define ISS_M    420000.0
#define ISS_I    "1.3e8 1.0e8 2.0e8"
#define ISS_PORT 35.0
#define CLOSING  0.15         /* m/s */

// (restitution) => damping ratio of the linear spring-damper that rebounds with it
static double zeta_of(double e)
{
    double l = log(e);
    return -l / sqrt(M_PI * M_PI + l * l);
}

// (text, stiffness N/m, effective mass kg, restitution, friction) => the contact attributes of a passive geom
static void put_contact(mjcf_text *t, double k, double m_eff, double e, double mu)
{
    double K = k / m_eff, B = 2 * zeta_of(e) * sqrt(K);
    mjcf_put(t, " contype=\"2\" conaffinity=\"1\" condim=\"3\" priority=\"1\" friction=\"%g 0.005 0.0001\""
           " solref=\"%.9g %.9g\" solimp=\"%g %g 0.001 0.5 2\"", mu, -K, -B, IMPEDANCE, IMPEDANCE);
}

/* the cone frame: origin at the passive docking plane on the cone axis; derived geometry (dock_geom.c) */
static double cone_depth(void) { return (RIM_R - SOCKET_R) / tan(HALF_ANGLE); }   /* 0.606 m */
static double throat_x(void) { return -cone_depth(); }
static double stop_x(void) { return throat_x() - STOP_DEPTH; }                      /* -0.656 */
static double capture_x(void) { return stop_x() - DETENT_TRAVEL; }                  /* -0.661 */
static double bottom_x(void) { return throat_x() - BOTTOM_DEPTH; }                  /* -0.716 */

// (scenario) => head-centre x at mech dock's first contact: on the cone wall, or (central) the stop plane
static double first_contact_x(const scenario *s)
{
    double ca = cos(HALF_ANGLE), r = s->offset_y + HEAD_R / ca;   /* cone radius where the sphere touches the wall */
    if (r * ca * ca <= SOCKET_R)   /* the foot of the normal is below the throat: the head goes straight in */
        return stop_x();
    return -(RIM_R - r) / tan(HALF_ANGLE);
}

static void build_mjcf(const scenario *s, mjcf_text *t)
{
    const double ca = cos(HALF_ANGLE), sa = sin(HALF_ANGLE), P = ISS_PORT;
    const double head_x = first_contact_x(s), plane_x = head_x + PROBE_LEN + HOUSING_LEN - UJ_BEHIND;
    const double com_x = plane_x + s->port, uj_x = plane_x + UJ_BEHIND;
    t->len = 0;
    t->full = 0;
    mjcf_put(t, "<mujoco model=\"dock-%s\">\n<compiler angle=\"radian\"/>\n"
           "<option timestep=\"%g\" gravity=\"0 0 0\"/>\n<size nconmax=\"64\" njmax=\"512\"/>\n<worldbody>\n",
        s->name, H);
    /* the ISS: body frame at its CoM, axes of the cone frame; the cone frame's origin is its port */
    mjcf_put(t, "<body name=\"iss\" pos=\"%.17g 0 0\">\n<freejoint name=\"iss\"/>\n"
           "<inertial pos=\"0 0 0\" mass=\"%g\" diaginertia=\"%s\"/>\n", -P, ISS_M, ISS_I);
    const double half_len = 0.5 * (RIM_R - SOCKET_R) / sa, T = 0.01;   /* stave half-length along the generatrix */
    const double xm = -0.5 * cone_depth(), rm = 0.5 * (RIM_R + SOCKET_R);
    const double half_w = 1.03 * RIM_R * tan(M_PI / N_STAVES);          /* the rim's facets overlap a little */
    for (int k = 0; k < N_STAVES; k++) {
        double ph = 2 * M_PI * k / N_STAVES, cy = cos(ph), cz = sin(ph);
        /* u along the generatrix towards the rim, e_t tangential; box z = u x e_t = the inward normal n */
        double u[3] = {ca, sa * cy, sa * cz}, et[3] = {0, -cz, cy}, n[3] = {sa, -ca * cy, -ca * cz};
        double c[3] = {xm - T * n[0], rm * cy - T * n[1], rm * cz - T * n[2]};
        mjcf_put(t, "<geom name=\"stave%d\" type=\"box\" size=\"%.9g %.9g %g\" pos=\"%.17g %.17g %.17g\" "
               "xyaxes=\"%.17g %.17g %.17g %.17g %.17g %.17g\"", k, half_len, half_w, T, c[0] + P, c[1], c[2],
            u[0], u[1], u[2], et[0], et[1], et[2]);
        put_contact(t, CONE_K, M_EFF_CONE, CONE_E, CONE_MU);
        mjcf_put(t, "/>\n");
    }
    const double bore_w = 1.2 * SOCKET_R * tan(M_PI / N_BORE);
    for (int k = 0; k < N_BORE; k++) {
        double ph = 2 * M_PI * (k + 0.5) / N_BORE, cy = cos(ph), cz = sin(ph);
        mjcf_put(t, "<geom name=\"bore%d\" type=\"box\" size=\"%g %.9g %g\" pos=\"%.17g %.17g %.17g\" "
               "xyaxes=\"1 0 0 0 %.17g %.17g\"", k, 0.5 * BOTTOM_DEPTH, bore_w, T,
            0.5 * (throat_x() + bottom_x()) + P, (SOCKET_R + T) * cy, (SOCKET_R + T) * cz, -cz, cy);
        put_contact(t, CONE_K, M_EFF_CONE, CONE_E, CONE_MU);
        mjcf_put(t, "/>\n");
    }
    mjcf_put(t, "<geom name=\"bottom\" type=\"box\" size=\"%g %g %g\" pos=\"%.17g 0 0\"", T, 2 * SOCKET_R, 2 * SOCKET_R,
        bottom_x() - T + P);
    put_contact(t, BOTTOM_K, M_EFF_AXIAL, BOTTOM_E, BOTTOM_MU);
    mjcf_put(t, "/>\n");
    /* the stops: the latch sphere (at the head centre) meets this face when the head centre is at the stop plane */
    mjcf_put(t, "<geom name=\"stops\" type=\"box\" size=\"%g %g %g\" pos=\"%.17g 0 0\" contype=\"0\" conaffinity=\"4\" "
           "condim=\"3\" priority=\"1\" friction=\"%g 0.005 0.0001\" solref=\"%.9g %.9g\" "
           "solimp=\"%g %g 0.001 0.5 2\"/>\n",
        T, SOCKET_R, SOCKET_R, stop_x() + LATCH_R + T + P, BOTTOM_MU, -BOTTOM_K / M_EFF_AXIAL,
        -2 * zeta_of(BOTTOM_E) * sqrt(BOTTOM_K / M_EFF_AXIAL), IMPEDANCE, IMPEDANCE);
    mjcf_put(t, "</body>\n");

    /* the active vehicle: body frame at its CoM (roll axis along x; the transverse moments are equal) */
    mjcf_put(t, "<body name=\"active\" pos=\"%.17g %.17g 0\">\n<freejoint name=\"active\"/>\n"
           "<inertial pos=\"0 0 0\" mass=\"%g\" diaginertia=\"%g %g %g\"/>\n",
        com_x, s->offset_y, s->mass, s->inertia[0], s->inertia[1], s->inertia[2]);
    mjcf_put(t, "<body name=\"housing\" pos=\"%.17g 0 0\">\n", uj_x - com_x);
    for (int a = 1; a <= 2; a++)
        mjcf_put(t, "<joint name=\"uj%d\" type=\"hinge\" axis=\"0 %d %d\" stiffness=\"%g\" damping=\"%g\" limited=\"true\" "
               "range=\"%.9g %.9g\" solreflimit=\"0.002 1\"/>\n", a, a == 1, a == 2, LAT_K, LAT_C, -LAT_STOP, LAT_STOP);
    double Ihc = HOUSING_IT - HOUSING_M * HOUSING_COM * HOUSING_COM;   /* about the CoM */
    mjcf_put(t, "<inertial pos=\"%.17g 0 0\" mass=\"%g\" diaginertia=\"%g %.9g %.9g\"/>\n", -HOUSING_COM, HOUSING_M,
        HOUSING_IA, Ihc, Ihc);
    mjcf_put(t, "<body name=\"bend\" pos=\"%g 0 0\">\n", -HOUSING_LEN);
    for (int a = 1; a <= 2; a++)
        mjcf_put(t, "<joint name=\"bend%d\" type=\"hinge\" axis=\"0 %d %d\" stiffness=\"%g\" damping=\"%.9g\"/>\n", a,
            a == 1, a == 2, BEND_K, BEND_C);
    mjcf_put(t, "<inertial pos=\"0 0 0\" mass=\"1e-3\" diaginertia=\"1e-6 1e-6 1e-6\"/>\n");
    mjcf_put(t, "<body name=\"nut\">\n<joint name=\"brake\" type=\"slide\" axis=\"1 0 0\" frictionloss=\"%g\" "
           "armature=\"%g\" limited=\"true\" range=\"0 %g\" solreflimit=\"0.002 1\" solreffriction=\"0.0005 1\" "
           "solimpfriction=\"0.99 0.99 0.001 0.5 2\"/>\n<inertial pos=\"0 0 0\" mass=\"1e-3\" "
           "diaginertia=\"1e-6 1e-6 1e-6\"/>\n", FRT1_PUSH, M_EQ, STROKE_LIMIT);
    double Ipc = PROBE_IT - PROBE_M * PROBE_COM * PROBE_COM;
    mjcf_put(t, "<body name=\"probe\">\n<joint name=\"gear\" type=\"slide\" axis=\"1 0 0\" stiffness=\"%g\" "
           "damping=\"%g\"/>\n<inertial pos=\"%.17g 0 0\" mass=\"%g\" diaginertia=\"%g %.9g %.9g\"/>\n",
        GEAR_K, AXIAL_C, -PROBE_COM, PROBE_M, PROBE_IA, Ipc, Ipc);
    mjcf_put(t, "<geom name=\"head\" type=\"sphere\" size=\"%g\" pos=\"%g 0 0\" contype=\"1\" conaffinity=\"2\" "
           "condim=\"3\" friction=\"%g 0.005 0.0001\"/>\n", HEAD_R, -PROBE_LEN, CONE_MU);
    mjcf_put(t, "<geom name=\"latch\" type=\"sphere\" size=\"%g\" pos=\"%g 0 0\" contype=\"0\" conaffinity=\"0\"/>\n",
        LATCH_R, -PROBE_LEN);
    mjcf_put(t, "</body>\n</body>\n</body>\n</body>\n</body>\n</worldbody>\n</mujoco>\n");
}

static int warnings;
static void on_warning(const char *msg)
{
    if (++warnings <= 3)
        fprintf(stderr, "bench_dock_mujoco: MuJoCo warning: %s\n", msg);
}

static void on_error(const char *msg)
{
    fprintf(stderr, "bench_dock_mujoco: MuJoCo error: %s\n", msg);
    exit(1);
}

static mjModel *load(const mjcf_text *t)
{
    char err[1000];
    mjModel *m = mjcf_load(t, err, sizeof err);
    if (!m)
        fprintf(stderr, "bench_dock_mujoco: MuJoCo refuses the model: %s\n", err);
    return m;
}

/* what a run shows (head forces in the cone frame, on the head) */
typedef struct outcome {
    double cpu;
    double peak_axial, peak_lateral;   /* N */
    double t_bottom, t_capture;        /* s; -1 when never */
    double stroke_max;                 /* m: brake slip + gear deflection */
    int    cone_contacts;              /* stave-contact episodes (separated by >= 2 ms without) */
    int    bad;
} outcome;

// (MJCF) => one run: load, 20 s at h, observed every step
static int run_mujoco(const mjcf_text *t, outcome *o)
{
    memset(o, 0, sizeof *o);
    o->t_bottom = o->t_capture = -1;
    double c0 = cpu_now();
    mjModel *m = load(t);
    if (!m)
        return -1;
    mjData *d = mj_makeData(m);
    int iss = mj_name2id(m, mjOBJ_BODY, "iss"), probe = mj_name2id(m, mjOBJ_BODY, "probe");
    int act = mj_name2id(m, mjOBJ_JOINT, "active"), head = mj_name2id(m, mjOBJ_GEOM, "head");
    int latch = mj_name2id(m, mjOBJ_GEOM, "latch"), bottom = mj_name2id(m, mjOBJ_GEOM, "bottom");
    int stave0 = mj_name2id(m, mjOBJ_GEOM, "stave0");
    int brake = mj_name2id(m, mjOBJ_JOINT, "brake"), gear = mj_name2id(m, mjOBJ_JOINT, "gear");
    if (iss < 0 || probe < 0 || act < 0 || head < 0 || latch < 0 || bottom < 0 || stave0 < 0 || brake < 0 || gear < 0) {
        fprintf(stderr, "bench_dock_mujoco: MuJoCo model lacks a named element\n");
        mj_deleteData(d);
        mj_deleteModel(m);
        return -1;
    }
    const int qb = m->jnt_qposadr[brake], qg = m->jnt_qposadr[gear];
    d->qvel[m->jnt_dofadr[act]] = -CLOSING;   /* the active vehicle closes; the ISS at rest */
    const long steps = lround(DURATION / H);
    long last_cone = -1000000;
    const long gap = lround(2e-3 / H);
    for (long i = 1; i <= steps; i++) {
        mj_step(m, d);
        const mjtNum *R = d->xmat + 9 * iss, *O = d->xpos + 3 * iss;
        double F[3] = {0, 0, 0};
        int cone = 0;
        for (int c = 0; c < d->ncon; c++) {
            const mjContact *k = &d->contact[c];
            int side = m->geom_bodyid[k->geom1] == probe ? -1 : m->geom_bodyid[k->geom2] == probe ? 1 : 0;
            if (!side)
                continue;
            int other = side < 0 ? k->geom2 : k->geom1;
            mjtNum f[6];
            mj_contactForce(m, d, c, f);
            for (int a = 0; a < 3; a++)   /* on geom2 along the normal (geom1 -> geom2) and the tangents */
                F[a] += side * (f[0] * k->frame[a] + f[1] * k->frame[3 + a] + f[2] * k->frame[6 + a]);
            if (other == bottom && o->t_bottom < 0)
                o->t_bottom = i * H;
            if (other >= stave0 && other < stave0 + N_STAVES)
                cone = 1;
        }
        if (cone) {
            if (i - last_cone >= gap)
                o->cone_contacts++;
            last_cone = i;
        }
        double Fl[3];   /* in the ISS (cone) frame */
        for (int a = 0; a < 3; a++)
            Fl[a] = R[a] * F[0] + R[3 + a] * F[1] + R[6 + a] * F[2];
        o->peak_axial = fmax(o->peak_axial, fabs(Fl[0]));
        o->peak_lateral = fmax(o->peak_lateral, hypot(Fl[1], Fl[2]));
        o->stroke_max = fmax(o->stroke_max, d->qpos[qb] + d->qpos[qg]);
        if (o->t_capture < 0) {
            const mjtNum *p = d->geom_xpos + 3 * head;
            double x = R[0] * (p[0] - O[0]) + R[3] * (p[1] - O[1]) + R[6] * (p[2] - O[2]) - ISS_PORT;
            if (x <= capture_x()) {
                o->t_capture = i * H;
                m->geom_contype[latch] = 4;   /* the latches open behind the stops */
            }
        }
        if ((i & 1023) == 0 && !(isfinite(d->qpos[0]) && isfinite(d->qvel[0])))
            break;
    }
    o->cpu = cpu_now() - c0;
    for (int k = 0; k < m->nq; k++)
        if (!isfinite(d->qpos[k]))
            o->bad = 1;
    if (d->warning[mjWARN_BADQACC].number || d->warning[mjWARN_BADQPOS].number || d->warning[mjWARN_BADQVEL].number ||
        d->warning[mjWARN_CONTACTFULL].number || d->warning[mjWARN_CNSTRFULL].number || warnings)
        o->bad = 1;
    /* finite but not physical (a step too large for the contact and bending frequencies): the probe through its
       stroke stop, or head forces two orders above the ~2 kN of the brakes and the impacts */
    if (!o->bad && (o->stroke_max > STROKE_LIMIT + 0.01 || o->peak_axial > 1e5 || o->peak_lateral > 1e5)) {
        fprintf(stderr, "bench_dock_mujoco: MuJoCo run not physical: stroke %.3g m, peak head forces %.3g / %.3g N\n",
                o->stroke_max, o->peak_axial, o->peak_lateral);
        o->bad = 1;
    }
    mj_deleteData(d);
    mj_deleteModel(m);
    return o->bad ? -1 : 0;
}

/* ---- mech dock, whole process ---- */

// (program, fixture, output folder) => CPU seconds (user + sys) of the child, from wait4; -1 when it fails
static double run_mech(const char *exe, const char *fixture, const char *out)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        char *argv[] = {(char *)exe, (char *)"dock", (char *)fixture, (char *)"--out", (char *)out,
                        (char *)"--no-plots", (char *)"-q", NULL};
        execv(exe, argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench_dock_mujoco: failed: %s dock %s --out %s --no-plots -q\n", exe, fixture, out);
        return -1;
    }
    return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec +
           1e-6 * (double)ru.ru_stime.tv_usec;
}

static double num(const cJSON *j, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

// (output folder) => mech dock's figures from summary.json, the first bottom contact from history.csv
static int read_mech(const char *dir, outcome *o)
{
    char path[320];
    memset(o, 0, sizeof *o);
    o->t_bottom = -1;
    snprintf(path, sizeof path, "%s/summary.json", dir);
    char *txt;
    size_t len;
    hy_err err;
    cJSON *j = hy_read_text(path, "mech dock's summary", 0, &txt, &len, &err) == HY_OK ? cJSON_Parse(txt) : NULL;
    free(txt);
    if (!j)
        return -1;
    o->peak_axial = num(j, "peak_axial_force");
    o->peak_lateral = num(j, "peak_lateral_force");
    o->stroke_max = num(j, "stroke_max");
    o->cone_contacts = (int)num(j, "cone_contacts");
    o->t_capture = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "captured")) ? num(j, "capture_time") : -1;
    cJSON_Delete(j);
    snprintf(path, sizeof path, "%s/history.csv", dir);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return 0;
    static char line[1 << 16];
    int col = -1;
    if (fgets(line, sizeof line, fp)) {   /* the header: find the column */
        int c = 0;
        for (char *tok = strtok(line, ",\r\n"); tok; tok = strtok(NULL, ",\r\n"), c++)
            if (strcmp(tok, "bottom_contact") == 0)
                col = c;
    }
    if (col >= 0 && fgets(line, sizeof line, fp))   /* the units */
        while (fgets(line, sizeof line, fp)) {
            char *p = line;
            double t = strtod(p, NULL);
            for (int c = 0; c < col && p; c++) {
                p = strchr(p, ',');
                if (p)
                    p++;
            }
            if (p && strtod(p, NULL) != 0) {
                o->t_bottom = t;
                break;
            }
        }
    fclose(fp);
    return 0;
}

static void row_t(const char *name, double mj, double mech)
{
    char a[32], b[32];
    snprintf(a, sizeof a, "%.3f", mj);
    snprintf(b, sizeof b, "%.3f", mech);
    printf("%-52s %10s %-8s mech dock %s\n", name, mj >= 0 ? a : "never", "s", mech >= 0 ? b : "never");
}

int main(void)
{
    mju_user_warning = on_warning;
    mju_user_error = on_error;
    const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
    char exe[512], dir[] = "/tmp/hyst-bench-dock-mj-XXXXXX", out[256], name[128];
    snprintf(exe, sizeof exe, "%s/mech", bin);
    if (access(exe, X_OK) != 0) {
        fprintf(stderr, "bench_dock_mujoco: %s not found (make binaries; run from the repository root)\n", exe);
        return 1;
    }
    if (!mkdtemp(dir))
        return 1;
    static mjcf_text t;
    int failed = 0;
    printf("%-52s %10s %-8s %s\n", "name", "value", "unit", "target");
    for (int k = 0; k < 2; k++) {
        const scenario *s = &SCEN[k];
        build_mjcf(s, &t);
        outcome mj = {0}, best_mj = {.cpu = INFINITY};
        for (int r = 0; r < MJ_REPS; r++) {
            if (run_mujoco(&t, &mj) != 0) {
                fprintf(stderr, "bench_dock_mujoco: %s: the MuJoCo run failed or went unstable\n", s->name);
                failed = 1;
                break;
            }
            if (mj.cpu < best_mj.cpu)
                best_mj = mj;
        }
        if (failed)
            break;
        double best_mech = INFINITY;
        snprintf(out, sizeof out, "%s/%s", dir, s->name);
        for (int r = 0; r < MECH_REPS; r++) {
            double c = run_mech(exe, s->fixture, out);
            if (c < 0) {
                failed = 1;
                break;
            }
            best_mech = fmin(best_mech, c);
        }
        if (failed)
            break;
        outcome me;
        if (read_mech(out, &me) != 0) {
            fprintf(stderr, "bench_dock_mujoco: cannot read %s/summary.json\n", out);
            failed = 1;
            break;
        }
        double ratio = best_mj.cpu / best_mech, want = s->issue_mj / s->target_mech;
        snprintf(name, sizeof name, "%s MuJoCo 2.2.2 peer, 20 s, h = %.0e s, CPU", s->name, H);
        printf("%-52s %10.3f %-8s (issue 17's machine: %.1f s)\n", name, best_mj.cpu, "s", s->issue_mj);
        snprintf(name, sizeof name, "%s mech dock whole process, CPU", s->name);
        printf("%-52s %10.3f %-8s (issue 17's machine: <= %.2f s)\n", name, best_mech, "s", s->target_mech);
        snprintf(name, sizeof name, "%s ratio MuJoCo / mech dock (same run)", s->name);
        printf("%-52s %10.1f %-8s >= %.1f%s\n", name, ratio, "x", want, ratio >= want ? "" : "  MISSED");
        snprintf(name, sizeof name, "  %s peak head axial force, MuJoCo", s->name);
        printf("%-52s %10.0f %-8s mech dock %.0f\n", name, best_mj.peak_axial, "N", me.peak_axial);
        snprintf(name, sizeof name, "  %s peak head lateral force, MuJoCo", s->name);
        printf("%-52s %10.0f %-8s mech dock %.0f\n", name, best_mj.peak_lateral, "N", me.peak_lateral);
        snprintf(name, sizeof name, "  %s first head-bottom contact, MuJoCo", s->name);
        row_t(name, best_mj.t_bottom, me.t_bottom);
        snprintf(name, sizeof name, "  %s capture (latches past the stops), MuJoCo", s->name);
        row_t(name, best_mj.t_capture, me.t_capture);
        snprintf(name, sizeof name, "  %s stroke used, MuJoCo", s->name);
        printf("%-52s %10.3f %-8s mech dock %.3f\n", name, best_mj.stroke_max, "m", me.stroke_max);
        snprintf(name, sizeof name, "  %s head-cone contacts, MuJoCo", s->name);
        printf("%-52s %10d %-8s mech dock %d\n", name, best_mj.cone_contacts, "", me.cone_contacts);
        if (best_mj.t_bottom < 0 || best_mj.t_capture < 0) {
            fprintf(stderr, "bench_dock_mujoco: %s: the MuJoCo head did not dock (no bottom contact or capture)\n",
                    s->name);
            failed = 1;
        }
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        failed = 1;
    return failed;
}

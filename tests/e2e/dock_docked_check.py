#!/usr/bin/env python3
"""The docked state of a `mech dock` process run checked from its outputs, independently of the simulator's own
numbers (issue 44; docs/dock-process.md §2a). From pose.csv (the two-projection view's points in the cone frame:
the active port, the active docking axis, the pusher rods' bases) and the scenario's pusher geometry it computes, at
every row:

  tilt   the angle between the docking axes: atan2(hypot(a_y, a_z), -a_x), a the active axis in the cone frame;
  roll, pitch, yaw   the angles of initial.roll/pitch/yaw_deg (mech/dock.h MECH_DOCK_CH_REL_ROLL): the active
         frame's y and -z axes solved from two rods' bases (rod i at radius r, azimuth psi0 + 2 pi i / n on the
         active plane), R_rel = [-a | y | -z], roll = atan2(R[2][1], R[2][2]), pitch = asin(-R[2][0]),
         yaw = atan2(R[1][0], R[0][0]);
  rod gaps   from each rod's base along the active axis to the passive plane x = 0: -b_x / a_x;

and compares them with the history's channels (rel_roll ... rod_gap_max, same rows) and with the summary: the
roll, tilt and largest rod gap when the sequencer closed the planes (process.at_closed, at the history's row of
t_closed) and the values a fault reports (process.fault, at the last row, its trip). It also re-decides the fault
from these numbers: "alignment not reached" needs the smallest gap within faults.meet_gap and the roll or the tilt
beyond its tolerance; "planes reopened" and "end of travel" the largest gap they report. Prints one line per
check, "ok ..." or "not ok ..."; exits 1 when any fails.

usage: dock_docked_check.py SCENARIO.json OUTDIR"""
import csv
import json
import math
import sys

TOL_ANGLE = 1e-9   # rad: the same angles through two round-off paths (pose's points vs the rotation matrix)
TOL_GAP = 1e-9     # m


def read(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    head = rows[0]
    return head, [[float(x) for x in r] for r in rows[2:]]


def main(scenario, out):
    sc = json.load(open(scenario))
    pu = sc.get("pushers", {})
    n = int(pu.get("n", 4))                               # RP-1 §2.3: 4 rods (defaults as docs/dock-scenarios.md)
    r = float(pu.get("radius", 0.45))
    psi0 = math.radians(float(pu.get("psi0_deg", 45.0)))
    fa = sc.get("faults", {})
    meet_gap = float(fa.get("meet_gap", 5e-3))
    roll_tol = math.radians(float(fa.get("roll_tol_deg", 0.0))) or \
        math.radians(float(sc.get("geometry", {}).get("slot_narrow_deg", 0.5)))
    tilt_tol = math.radians(float(fa.get("tilt_tol_deg", 1.0)))
    ph, pose = read(out + "/pose.csv")
    hh, hist = read(out + "/history.csv")
    summ = json.load(open(out + "/summary.json"))
    P = {k: i for i, k in enumerate(ph)}
    H = {k: i for i, k in enumerate(hh)}
    fails = 0

    def check(ok, what):
        nonlocal fails
        print(("ok " if ok else "not ok ") + what)
        fails += not ok

    def mine(row):
        a = [row[P["pax_" + c]] for c in "xyz"]
        port = [row[P["port_" + c]] for c in "xyz"]
        tilt = math.atan2(math.hypot(a[1], a[2]), -a[0])
        base = [[row[P["pusher%d_b%s" % (i + 1, c)]] for c in "xyz"] for i in range(n)]
        gaps = [-b[0] / a[0] if a[0] < 0 else float("nan") for b in base]
        # v_i = r cos(psi_i) Y - r sin(psi_i) Z' with Y the active y axis, Z' = -z (cone frame): two rods, 2x2 solve
        p0, p1 = psi0, psi0 + 2 * math.pi / n
        v0 = [base[0][k] - port[k] for k in range(3)]
        v1 = [base[1][k] - port[k] for k in range(3)]
        c0, s0, c1, s1 = r * math.cos(p0), -r * math.sin(p0), r * math.cos(p1), -r * math.sin(p1)
        det = c0 * s1 - s0 * c1
        Y = [(v0[k] * s1 - v1[k] * s0) / det for k in range(3)]
        Z = [(c0 * v1[k] - c1 * v0[k]) / det for k in range(3)]
        X = [-a[k] for k in range(3)]
        roll = math.atan2(Y[2], Z[2])
        pitch = math.asin(max(-1.0, min(1.0, -X[2])))
        yaw = math.atan2(X[1], X[0])
        return {"roll": roll, "pitch": pitch, "yaw": yaw, "tilt": tilt, "gaps": gaps}

    def close(a, b, tol):
        return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= tol

    # every row: pose-derived against the history's channels
    check(len(pose) == len(hist) and all(p[0] == h[0] for p, h in zip(pose, hist)),
          "pose.csv and history.csv have the same rows (%d)" % len(hist))
    worst = {"angle": 0.0, "gap": 0.0}
    bad = 0
    for p, h in zip(pose, hist):
        m = mine(p)
        for k in ("roll", "pitch", "yaw", "tilt"):
            d = abs(m[k] - h[H["rel_" + k]])
            worst["angle"] = max(worst["angle"], d)
            bad += not d <= TOL_ANGLE
        for i in range(min(n, 4)):
            g = h[H["rod_gap%d" % (i + 1)]]
            bad += not close(m["gaps"][i], g, TOL_GAP)
            if not math.isnan(g):
                worst["gap"] = max(worst["gap"], abs(m["gaps"][i] - g))
        gmax = max(m["gaps"]) if not any(math.isnan(g) for g in m["gaps"]) else float("nan")
        bad += not close(gmax, h[H["rod_gap_max"]], TOL_GAP)
    check(bad == 0, "history's roll, pitch, yaw, tilt and rod gaps equal the pose's at every row (worst %.2g rad, "
          "%.2g m; %d mismatches)" % (worst["angle"], worst["gap"], bad))

    pr = summ.get("process") or {}
    t_of = {row[0]: i for i, row in enumerate(pose)}
    # at closure
    tc = pr.get("t_closed")
    ac = pr.get("at_closed") or {}
    if tc is not None:
        i = t_of.get(tc)
        check(i is not None, "the history has the row of t_closed = %r" % tc)
        if i is not None:
            m = mine(pose[i])
            check(close(m["roll"], ac.get("roll"), TOL_ANGLE), "summary's roll at closure %r = pose's %r"
                  % (ac.get("roll"), m["roll"]))
            check(close(m["tilt"], ac.get("tilt"), TOL_ANGLE), "summary's tilt at closure %r = pose's %r"
                  % (ac.get("tilt"), m["tilt"]))
            check(close(max(m["gaps"]), ac.get("rod_gap_max"), TOL_GAP),
                  "summary's largest rod gap at closure %r = pose's %r" % (ac.get("rod_gap_max"), max(m["gaps"])))
    else:
        check(ac.get("roll") is None and ac.get("tilt") is None, "no closure: at_closed is null")
    # the fault, at the last row (its trip ends the run)
    f = pr.get("fault")
    if f:
        last = pose[-1]
        m = mine(last)
        v = f["values"]
        check(close(f["t"], last[0], 0), "the fault's time %r is the last row's" % f["t"])
        if f["name"] == "alignment not reached":
            check(close(v["roll"], m["roll"], TOL_ANGLE) and close(v["tilt"], m["tilt"], TOL_ANGLE),
                  "fault's roll %r, tilt %r = pose's %r, %r" % (v["roll"], v["tilt"], m["roll"], m["tilt"]))
            check(min(m["gaps"]) <= meet_gap + TOL_GAP and (abs(m["roll"]) > roll_tol or m["tilt"] > tilt_tol),
                  "the pose says: planes met (smallest gap %.4g m) with roll %.4g deg or tilt %.4g deg beyond %.4g, "
                  "%.4g" % (min(m["gaps"]), math.degrees(m["roll"]), math.degrees(m["tilt"]),
                            math.degrees(roll_tol), math.degrees(tilt_tol)))
        elif f["name"] in ("planes reopened", "end of travel"):
            check(close(v["gap_max"], max(m["gaps"]), TOL_GAP),
                  "fault's largest rod gap %r = pose's %r" % (v["gap_max"], max(m["gaps"])))
            if f["name"] == "planes reopened":
                check(max(m["gaps"]) > v["reopen_gap"], "the pose says the planes are open beyond reopen_gap")
    print("# %d rows; %s" % (len(pose), "fault: " + f["name"] if f else "no fault"))
    return 1 if fails else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))

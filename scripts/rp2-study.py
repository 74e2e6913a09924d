#!/usr/bin/env python3
"""Tables and the trade-off figure of the RP-2 design study (scripts/rp2-study OUT; docs/rp2-parameters.md).

Reads OUT/<plan>/results.csv of the study plans (fixtures/mech/dock/rp2/study/) and OUT/rp2/<scenario>/summary.json
of the RP-2 reference runs; prints the Markdown the parameter document quotes; writes OUT/rp2-tradeoff.gp (gnuplot,
run by the shell script) and its data files. The docked fit of the fixed limiter is computed here from the scenario
geometry (RP-1 §2.2-2.3): fully retracted (the stroke at process.retract_limit) with the head on its stops, the
larger base sits at x_end = x_stops + housing_length + probe_length - retract_limit - limiter_x0 in the cone frame,
where the cone's radius is R_rim + x_end tan(alpha); its margin is that radius minus limiter_r0 (RP-1 asks 1-2 cm).
"""
import csv
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rp2_io import fmt, history, num  # noqa: E402

OUT, TOP = sys.argv[1], sys.argv[2]
DEG = math.pi / 180


PARTIAL = []


def rows(p):
    """The plan's results.csv; without it (a sweep stopped before its last run) the runs its journal holds"""
    f = os.path.join(OUT, p, "results.csv")
    if os.path.exists(f):
        return list(csv.DictReader(open(f)))
    j = os.path.join(OUT, p, "journal.csv")
    if not os.path.exists(j):
        return []
    r = list(csv.DictReader([l for l in open(j) if not l.startswith("#")]))
    r.sort(key=lambda x: int(x["run"]))
    PARTIAL.append("%s: %d runs from its journal (the sweep was stopped before the others finished)" % (p, len(r)))
    return r


# RP-1 geometry, variant B (fixtures/mech/dock/s3x-400-B.json sets none of these; dock_params.c)
R_RIM, ALPHA, R_SOCK = 0.40, 30 * DEG, 0.050
X_STOPS = -0.656            # head centre with the latches on the stops (RP-1 §2.2)
HOUSING_B, PROBE, RETRACT = 0.70, 0.55, 0.40
C_DOCK = 0.01               # the docked clearance asked of the limiter (RP-1 §2.2 (b): 1-2 cm)


def fit_margin(r0, x0):
    x_end = X_STOPS + HOUSING_B + PROBE - RETRACT - x0
    return R_RIM + x_end * math.tan(ALPHA) - r0


def tilt_bound(alpha, travel=0.38):
    """A fixed ring on the housing bounds the tilt about the head only once it is at or below the rim; it must fit
    the cone `travel` deeper when docked, so at the rim its radial clearance is at least C_DOCK + travel tan(alpha),
    at the head-centre depth (R_rim - r_sock) / tan(alpha) + 0.055 m below it: the smallest tilt it can hold (small
    angles)."""
    t = math.tan(alpha)
    return math.atan((C_DOCK + travel * t) / ((R_RIM - R_SOCK) / t + 0.055))


print("# RP-2 design study: the numbers (scripts/rp2-study)\n")

# ---- step 1: the fixed limiter against the tilt ----
r = rows("tilt-limiter-B")
print("## 1. Fixed limiter against the tilt (S3x-400-B, `tilt-limiter-B.json`)\n")
print("| r0 (m) | x0 (m) | docked fit margin (m) | status | closed (s) | tilt max (deg) | tilt end (deg) | "
      "clearance at capture (m) | roll at closure (deg) |")
print("|--:|--:|--:|---|--:|--:|--:|--:|--:|")
with open(os.path.join(OUT, "tilt.dat"), "w") as f:
    for x in r:
        r0, x0 = num(x["geometry.limiter_r0"]), num(x["geometry.limiter_x0"])
        m = fit_margin(r0, x0)
        tc = num(x["t_closed"])
        print("| %.3f | %.2f | %+.3f | %s | %s | %s | %s | %s | %s |" % (
            r0, x0, m, x["status"], fmt(tc, "%.1f"), fmt(num(x["tilt_max"]) / DEG, "%.2f"),
            fmt(num(x["tilt_end"]) / DEG, "%.2f"), fmt(num(x["limiter_clearance"]), "%.3f"),
            fmt(num(x["roll_closed"]) / DEG, "%.2f")))
        f.write("%g %g %g %g %d\n" % (r0, x0, 100 * m, num(x["tilt_max"]) / DEG, 1 if tc == tc else 0))
print()
with open(os.path.join(OUT, "bound.dat"), "w") as f:
    for a in range(15, 46):
        f.write("%d %g\n" % (a, tilt_bound(a * DEG) / DEG))
print("Smallest tilt a fixed limiter can hold (the ring at the rim, docked 1 cm inside the cone 0.38 m deeper): "
      + ", ".join("α = %d°: %.1f°" % (a, tilt_bound(a * DEG) / DEG) for a in (20, 25, 30, 35, 40)) + "\n")

# ---- step 2: the slots against the roll ----
r = rows("slots-B")
print("## 2. Latch slots against the roll (S3x-400-B, `slots-B.json`)\n")
print("| slot length (m) | narrow half-width (deg) | status | closed (s) | roll at closure (deg) | latch roll (deg) | "
      "latches on stops | all four from (s) | tilt max (deg) |")
print("|--:|--:|---|--:|--:|--:|--:|--:|--:|")
with open(os.path.join(OUT, "slots.dat"), "w") as f:
    for x in r:
        L, w = num(x["geometry.detent_travel"]), num(x["geometry.slot_narrow_deg"])
        lr = num(x["latch_roll_closed"]) / DEG
        print("| %.3f | %.1f | %s | %s | %s | %s | %s | %s | %s |" % (
            L, w, x["status"], fmt(num(x["t_closed"]), "%.1f"), fmt(num(x["roll_closed"]) / DEG, "%.2f"),
            fmt(lr, "%.2f"), x["latches_closed"] or "—", fmt(num(x["latches_all_time"]), "%.1f"),
            fmt(num(x["tilt_max"]) / DEG, "%.2f")))
        f.write("%g %g %g %g\n" % (1000 * L, w, abs(lr), abs(lr) - w))
print()

r = rows("slots-friction-B")
print("## 2b. What holds the roll: the limiter pads' friction (S3x-400-B, `slots-friction-B.json`)\n")
print("| pad friction | narrow half-width (deg) | status | closed (s) | roll at closure (deg) | latch roll (deg) | "
      "latches on stops |")
print("|--:|--:|---|--:|--:|--:|--:|")
for x in r:
    print("| %g | %g | %s | %s | %s | %s | %s |" % (
        num(x["contact.limiter_rim.mu"]), num(x["geometry.slot_narrow_deg"]), x["status"],
        fmt(num(x["t_closed"]), "%.1f"), fmt(num(x["roll_closed"]) / DEG, "%.2f"),
        fmt(num(x["latch_roll_closed"]) / DEG, "%.2f"), x["latches_closed"] or "—"))
print()

# ---- step 3: variant C's limiter lead ----
for p, cone in (("c-limiter-lead", "module"), ("c-limiter-lead-short", "short")):
    r = rows(p)
    print("## 3. Variant C's limiter forward position, %s cone (S3x-C, 20 s, `%s.json`)\n" % (cone, p))
    print("| x0 (m) | status | capture (s) | limiter lead over capture (s) | clearance at capture (m) |")
    print("|--:|---|--:|--:|--:|")
    for x in r:
        print("| %.4f | %s | %s | %s | %s |" % (num(x["geometry.limiter_x0"]), x["status"],
              fmt(num(x["capture_time"]), "%.3f"), fmt(num(x["limiter_lead"]), "%+.3f"),
              fmt(num(x["limiter_clearance"]), "%.3f")))
    print()

# ---- step 4: who restores FrT1 in C ----
r = rows("c-frt1-restore")
print("## 4. Variant C: FrT1's pull level against the limiter springs (S1-400-C, short cone, `c-frt1-restore.json`)\n")
print("| FrT1 pull (N) | limiter forward / end force (N) | status | closed (s) | "
      "pushers' share of FrT1's restored stroke |")
print("|--:|--:|---|--:|--:|")
for x in r:
    print("| %g | %g / %g | %s | %s | %s |" % (num(x["axial.frt1_pull"]), num(x["limiter.f_forward"]),
          num(x["limiter.f_end"]), x["status"], fmt(num(x["t_closed"]), "%.1f"),
          fmt(num(x["frt1_pusher_share"]), "%.3f")))
print()

r = rows("c-tilt")
print("## 4b. Variant C's tilt against its RP-2 changes (S3x-400-C, module cone, `c-tilt.json`)\n")
print("| x0 (m) | limiter forward / end force (N) | status | closed (s) | tilt max (deg) | limiter lead (s) | "
      "latch roll at closure (deg) | pushers' share |")
print("|--:|--:|---|--:|--:|--:|--:|--:|")
for x in r:
    print("| %g | %g / %g | %s | %s | %s | %s | %s | %s |" % (
        num(x["geometry.limiter_x0"]), num(x["limiter.f_forward"]), num(x["limiter.f_end"]), x["status"],
        fmt(num(x["t_closed"]), "%.1f"), fmt(num(x["tilt_max"]) / DEG, "%.2f"), fmt(num(x["limiter_lead"]), "%+.2f"),
        fmt(num(x["latch_roll_closed"]) / DEG, "%.2f"), fmt(num(x["frt1_pusher_share"]), "%.3f")))
print()

for p, title in (("c-pull", "Variant C: FrT1's pull level against the springs at RP-2's forward position "
                  "(S3x-400-C, `c-pull.json`)"), ("b-pull", "FrT1's pull level in B (S3x-400-B, `b-pull.json`)")):
    r = rows(p)
    print("## 4%s. %s\n" % ("c" if p == "c-pull" else "d", title))
    print("| FrT1 pull (N) | limiter forward / end force (N) | status | closed (s) | tilt max (deg) | "
          "latch roll at closure (deg) | latches on stops | pushers' share |")
    print("|--:|--:|---|--:|--:|--:|--:|--:|")
    for x in r:
        lim = "%g / %g" % (num(x["limiter.f_forward"]), num(x["limiter.f_end"])) if "limiter.f_end" in x else "—"
        print("| %g | %s | %s | %s | %s | %s | %s | %s |" % (
            num(x["axial.frt1_pull"]), lim, x["status"], fmt(num(x["t_closed"]), "%.1f"),
            fmt(num(x["tilt_max"]) / DEG, "%.2f"), fmt(num(x["latch_roll_closed"]) / DEG, "%.2f"),
            x["latches_closed"] or "—", fmt(num(x["frt1_pusher_share"]), "%.3f")))
    print()

# ---- the RP-2 runs ----
d = os.path.join(OUT, "rp2")
if os.path.isdir(d):
    print("## 5. RP-2 reference runs (`mech dock fixtures/mech/dock/rp2/NAME.json`)\n")
    print("| scenario | status | final state | capture (s) | closed (s) | end (s) | tilt max (deg) | "
          "roll at closure (deg) | latch roll (deg) | latches on stops | C limiter lead (s) | pushers' share | residual / (KE0 + W) |")
    print("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for b in sorted(os.listdir(d)):
        f = os.path.join(d, b, "summary.json")
        if not os.path.exists(f):
            continue
        s = json.load(open(f))
        k, pr = s.get("docked", {}), s.get("process", {})
        g = lambda o, key: num(o.get(key)) if o.get(key) is not None else float("nan")
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            b, s["status"], pr.get("final_state", "—"), fmt(g(s, "capture_time"), "%.3f"),
            fmt(g(pr, "t_closed"), "%.1f"),
            fmt(g(pr, "t_end"), "%.1f"), fmt(g(k, "tilt_max_deg"), "%.2f"), fmt(g(k, "roll_closed_deg"), "%.2f"),
            fmt(g(k, "latch_roll_closed_deg"), "%.2f"),
            k.get("latches_closed") if k.get("latches_closed") is not None else "—",
            fmt(g(k, "limiter_lead"), "%+.3f"), fmt(g(k, "frt1_pusher_share"), "%.3f"),
            fmt(g(pr, "energy_residual_relative"), "%.1e")))
    print()

r = rows("qual-rp2")
if r:
    print("## 6. Qualification over the expert worst-case set (`qual-rp2.json`, whole process to 400 s)\n")
    print("| case | variant | status | closed (s) | tilt max (deg) | latch roll at closure (deg, magnitude) | "
          "latches on stops | limiter lead (s) | pushers' share |")
    print("|---|---|---|--:|--:|--:|--:|--:|--:|")
    for x in r:
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            x["case"], x["variant"], x["status"], fmt(num(x["t_closed"]), "%.1f"),
            fmt(num(x["tilt_max"]) / DEG, "%.2f"), fmt(num(x["latch_roll_closed"]) / DEG, "%.2f"),
            x["latches_closed"] or "—", fmt(num(x["limiter_lead"]), "%+.2f"), fmt(num(x["frt1_pusher_share"]), "%.3f")))
    print()

# ---- the roll at closure and variant C docking (docs/rp2-parameters.md §9) ----
for p, what in (("slots-C", "module cone"), ("slots-C-short", "short cone")):
    r = rows(p)
    if not r:
        continue
    print("## 9.1 The latch slots alone against the roll, %s (S3x-400-C, no roll guides, narrow half-width 1 deg, "
          "`%s.json`)\n" % (what, p))
    print("| narrowing (mm) | entry (deg) | detent force (N) | closed (s) | roll at closure (deg) | latches on stops | "
          "tilt max (deg) |")
    print("|--:|--:|--:|--:|--:|--:|--:|")
    for x in r:
        print("| %s | %s | %s | %s | %s | %s | %s |" % (
            fmt(1000 * num(x["geometry.detent_travel"]), "%.1f"), x["geometry.slot_entry_deg"],
            fmt(num(x["geometry.detent_force"]), "%.0f"), fmt(num(x["t_closed"]), "%.1f"),
            fmt(num(x["roll_closed"]) / DEG, "%.2f"), x["latches_closed"] or "—", fmt(num(x["tilt_max"]) / DEG, "%.2f")))
    print()
for p, what in (("guides-C", "module cone"), ("guides-C-short", "short cone")):
    r = rows(p)
    if not r:
        continue
    print("## 9.2 The roll guides, %s (S3x-400-C with RP-2's slots, `%s.json`)\n" % (what, p))
    print("| pin length (mm) | mouth half-width (mm) | mouth (deg at 0.50 m) | closed (s) | roll at closure (deg) | "
          "latches on stops | tilt max (deg) |")
    print("|--:|--:|--:|--:|--:|--:|--:|")
    for x in r:
        cw = num(x["roll_guides.catch_half_width"])
        print("| %s | %s | %s | %s | %s | %s | %s |" % (
            fmt(1000 * num(x["roll_guides.length"]), "%.0f"), fmt(1000 * cw, "%.0f"),
            fmt(math.degrees(math.asin(cw / 0.5)), "%.1f"), fmt(num(x["t_closed"]), "%.1f"),
            fmt(num(x["roll_closed"]) / DEG, "%.2f"), x["latches_closed"] or "—", fmt(num(x["tilt_max"]) / DEG, "%.2f")))
    print()
for p, what in (("pushers-C", "module cone"), ("pushers-C-short", "short cone")):
    r = rows(p)
    if not r:
        continue
    print("## 9.4 The pushers' damping, %s (S3x-400-C with RP-2's slots and guides, `%s.json`)\n" % (what, p))
    print("| damping per rod (N s/m) | closed (s) | closed + the hooks' 10 s lock + 5 s hold (s) | roll at closure (deg) | "
          "pushers' share of FrT1's restored stroke |")
    print("|--:|--:|--:|--:|--:|")
    for x in r:
        tc = num(x["t_closed"])
        print("| %s | %s | %s | %s | %s |" % (
            fmt(num(x["pushers.damping"]), "%.0f"), fmt(tc, "%.1f"), fmt(tc + 15, "%.1f"),
            fmt(num(x["roll_closed"]) / DEG, "%.2f"), fmt(num(x["frt1_pusher_share"]), "%.3f")))
    print()
r = rows("qual-c")
if r:
    print("## 9.3 Variant C over the worst-case set (`qual-c.json`, whole process to 400 s, the fault monitor and the "
          "hooks as shipped)\n")
    print("| case | variant | status | closed (s) | closed + the hooks' 10 s lock + 5 s hold (s) | roll at closure (deg) | "
          "latches on stops | tilt max (deg) | pushers' share |")
    print("|---|---|---|--:|--:|--:|--:|--:|--:|")
    for x in r:
        tc = num(x["t_closed"])
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            x["case"], x["variant"], x["status"], fmt(tc, "%.1f"), fmt(tc + 15, "%.1f"),
            fmt(num(x["roll_closed"]) / DEG, "%.2f"), x["latches_closed"] or "—", fmt(num(x["tilt_max"]) / DEG, "%.2f"),
            fmt(num(x["frt1_pusher_share"]), "%.3f")))
    print()

for m in PARTIAL:
    print("- partial: " + m)
print()

# ---- step 5 (after the runs, §7.7-7.8 of docs/rp2-parameters.md): the alignment levers' reach (the cam) ----
def lever_measures(run_dir):
    """From a run's full outputs: the end, the fault's roll and tilt, the first roller contact (time, stroke), the
    largest tilt from capture and from that contact to the end, the largest roller and retraction forces"""
    sm = json.load(open(os.path.join(run_dir, "summary.json")))
    p = sm["process"]
    h = history(os.path.join(run_dir, "history.csv"))
    t, tilt = h["t"], h["rel_tilt"]
    k_roll = next((k for k, n in enumerate(h["roller_n"]) if n > 0), None)
    k_cap = next((k for k, c in enumerate(h["capture"]) if c > 0), None)
    fv = (p.get("fault") or {}).get("values") or {}
    return {
        "end": p["final_state"], "t_fault": (p.get("fault") or {}).get("t", float("nan")),
        "roll_meet": fv.get("roll", float("nan")) / DEG if "roll" in fv else float("nan"),
        "tilt_meet": fv.get("tilt", float("nan")) / DEG if "tilt" in fv else float("nan"),
        "t_roller": t[k_roll] if k_roll is not None else float("nan"),
        "s_roller": h["stroke"][k_roll] if k_roll is not None else float("nan"),
        "tilt_cap": max(tilt[k_cap:]) / DEG if k_cap is not None else float("nan"),
        "tilt_roller": max(tilt[k_roll:]) / DEG if k_roll is not None else float("nan"),
        "tilt_roller_late": (max(tilt[k] for k in range(k_roll, len(t)) if t[k] >= t[k_roll] + 60) / DEG
                             if k_roll is not None and t[-1] > t[k_roll] + 60 else float("nan")),
        "roller_f": p["roller_force_max"], "drive_f": p["retract_force_max"],
        "swing_end": h["swing"][-1] / DEG,
        "housing_cone": axis_angles(os.path.join(run_dir, "pose.csv")),
    }


def axis_angles(path):
    """(housing axis to the cone axis, active axis to the housing axis) in degrees at the last row of pose.csv (the
    run's end: where the planes met, for a run the fault monitor ended there)"""
    with open(path) as f:
        rd = csv.reader(f)
        head = next(rd)
        last = None
        for row in rd:
            last = row
    v = {k: num(x) for k, x in zip(head, last)}
    hax = (v["hax_x"], v["hax_y"], v["hax_z"])
    pax = (v["pax_x"], v["pax_y"], v["pax_z"])

    def ang(a, b):
        c = abs(sum(x * y for x, y in zip(a, b))) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))
        return math.acos(min(1.0, c)) / DEG
    return ang(hax, (1.0, 0.0, 0.0)), ang(pax, hax)


LEVERS = {}   # (plan, variant) -> [(case index, length or offset in mm, tilt met, |roll| met, housing in the cone)]
for plan, title in (("cam-reach", "7. The alignment levers' reach: lever length and cam contour"),
                    ("cam-offset", "8. The rollers' distance off the ideal cone, the longest lever"),
                    ("cam-friction", "9. The rollers' friction and offset, the longest lever")):
    r = rows(plan)
    print("## %s (S3x-400, `%s.json`, scripts/make-cam-study)\n" % (title, plan))
    print("Each run re-run for its history (`mech sweep %s.json --rerun ID`). Tilt in degrees; \"from the "
          "rollers\": from the first roller contact to the end; \"60 s later\": from a minute after it; the housing "
          "in the cone and the active vehicle on the housing: the angles between their axes where the run ended "
          "(pose.csv).\n" % plan)
    print("| case | variant | end | at (s) | roll when the planes met | tilt when the planes met | rollers first bear "
          "(s, stroke m) | tilt from capture | tilt from the rollers | 60 s later | housing in the cone | active on "
          "the housing | roller force max (N) | retraction force max (N) |")
    print("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for x in r:
        d = os.path.join(OUT, plan, "runs", x["run"])
        if not os.path.exists(os.path.join(d, "history.csv")):
            continue
        m = lever_measures(d)
        sc = json.load(open(os.path.join(d, "scenario.json")))["cam"]
        xval = sc["length"] if plan == "cam-reach" else 1000 * sc.get("roller_offset", 0.003)
        if plan == "cam-friction":
            hooks = json.load(open(os.path.join(d, "summary.json")))["process"]["hooks"]
            m["end"] += " (hooks: %d locked)" % hooks["locked"]
        LEVERS.setdefault((plan, x["variant"]), []).append(
            (xval, m["tilt_meet"], abs(m["roll_meet"]), m["housing_cone"][0]))
        print("| %s | %s | %s | %s | %s | %s | %s, %s | %s | %s | %s | %s | %s | %s | %s |" % (
            x["case"], x["variant"], m["end"], fmt(m["t_fault"], "%.1f"), fmt(m["roll_meet"], "%.2f"),
            fmt(m["tilt_meet"], "%.2f"), fmt(m["t_roller"], "%.1f"), fmt(m["s_roller"], "%.3f"),
            fmt(m["tilt_cap"], "%.2f"), fmt(m["tilt_roller"], "%.2f"), fmt(m["tilt_roller_late"], "%.2f"),
            fmt(m["housing_cone"][0], "%.2f"), fmt(m["housing_cone"][1], "%.2f"), fmt(m["roller_f"], "%.0f"),
            fmt(m["drive_f"], "%.0f")))
    print()

# ---- RP-2 as shipped (docs/rp2-parameters.md §10): the eight whole-process runs, measured from their outputs ----
SHIPPED = ("s1-400-A", "s1-400-B", "s1-400-C", "s1-400-C-module",
           "s3x-400-A", "s3x-400-B", "s3x-400-C", "s3x-400-C-short")
MEET_GAP = 5e-3   # the fault monitor's meet_gap (dock_fault.c): the first rod within the closed-planes gap


def shipped_measures(run_dir):
    """From a run's summary.json and history.csv: the end, the sequence times, the roll and tilt when the planes met
    (the fault's check values if it tripped, else the history's rel_roll, rel_tilt at the first row whose smallest rod
    gap is within MEET_GAP), the roll at closure, the latches and hooks, the largest tilt from capture and from the
    rollers' first bearing to the end, the energy residual and the largest forces"""
    sm = json.load(open(os.path.join(run_dir, "summary.json")))
    p, k = sm["process"], sm["docked"]
    h = history(os.path.join(run_dir, "history.csv"))
    t, tilt = h["t"], h["rel_tilt"]
    gap = [min(g) for g in zip(h["rod_gap1"], h["rod_gap2"], h["rod_gap3"], h["rod_gap4"])]
    k_meet = next((i for i, g in enumerate(gap) if g <= MEET_GAP), None)
    k_cap = next((i for i, c in enumerate(h["capture"]) if c > 0), None)
    k_roll = next((i for i, n in enumerate(h["roller_n"]) if n > 0), None)
    fv = (p.get("fault") or {}).get("values") or {}
    g = lambda o, key: num(o.get(key)) if o.get(key) is not None else float("nan")
    guides = p.get("roll_guides") or {}
    return {
        "end": p["final_state"], "completed": p.get("completed"), "capture": g(sm, "capture_time"),
        "retract": g(p, "t_retract"), "align": g(p, "t_align"), "closed": g(p, "t_closed"), "t_end": g(p, "t_end"),
        "t_meet": t[k_meet] if k_meet is not None else float("nan"),
        "roll_meet": (fv["roll"] / DEG if "roll" in fv else
                      h["rel_roll"][k_meet] / DEG if k_meet is not None else float("nan")),
        "tilt_meet": (fv["tilt"] / DEG if "tilt" in fv else
                      tilt[k_meet] / DEG if k_meet is not None else float("nan")),
        "latch_roll": g(k, "latch_roll_closed_deg"), "latches": k.get("latches_closed"),
        "hooks": (p.get("hooks") or {}).get("locked"),
        "tilt_cap": max(tilt[k_cap:]) / DEG if k_cap is not None else float("nan"),
        "t_roller": t[k_roll] if k_roll is not None else float("nan"),
        "s_roller": h["stroke"][k_roll] if k_roll is not None else float("nan"),
        "tilt_roller": max(tilt[k_roll:]) / DEG if k_roll is not None else float("nan"),
        "residual": g(p, "energy_residual_relative"), "drive_f": g(p, "retract_force_max"),
        "roller_f": g(p, "roller_force_max"), "guide_f": g(guides, "force_max"),
        "guide_t": g(guides, "t_enter"), "guide_roll": g(guides, "roll_enter_deg"),
        "share": g(k, "frt1_pusher_share"),
    }


d = os.path.join(OUT, "rp2")
if os.path.isdir(d):
    M = {b: shipped_measures(os.path.join(d, b)) for b in SHIPPED if os.path.exists(os.path.join(d, b, "history.csv"))}
    print("## 10.1 RP-2 as shipped: the process (`mech dock fixtures/mech/dock/rp2/NAME.json`; OUT/rp2/NAME)\n")
    print("| run | end | capture (s) | retract (s) | align (s) | closed (s) | END (s) | roll when the planes met (deg) | "
          "tilt when the planes met (deg) | latch roll at closure (deg) | latches on stops | hooks locked | "
          "residual / (KE0 + W) |")
    print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for b, m in M.items():
        print("| %s | %s%s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            b, m["end"], ", completed" if m["completed"] else "", fmt(m["capture"], "%.3f"),
            fmt(m["retract"], "%.2f"), fmt(m["align"], "%.1f"), fmt(m["closed"], "%.1f"), fmt(m["t_end"], "%.1f"),
            fmt(m["roll_meet"], "%.2f"), fmt(m["tilt_meet"], "%.2f"), fmt(m["latch_roll"], "%.2f"),
            "—" if m["latches"] is None else m["latches"], "—" if m["hooks"] is None else m["hooks"],
            fmt(m["residual"], "%.1e")))
    print()
    print("## 10.2 RP-2 as shipped: tilt and forces (OUT/rp2/NAME)\n")
    print("| run | tilt from capture (deg) | rollers first bear (s, stroke m) | tilt from the rollers (deg) | "
          "retraction force max (N) | roller force max (N) | guides enter (s, roll deg) | guide force max (N) | "
          "pushers' share |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for b, m in M.items():
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            b, fmt(m["tilt_cap"], "%.2f"),
            "—" if m["t_roller"] != m["t_roller"] else "%.1f, %.3f" % (m["t_roller"], m["s_roller"]),
            fmt(m["tilt_roller"], "%.2f"), fmt(m["drive_f"], "%.0f"),
            fmt(m["roller_f"], "%.0f") if m["roller_f"] > 0 else "—",
            "—" if m["guide_t"] != m["guide_t"] else "%.1f, %.2f" % (m["guide_t"], m["guide_roll"]),
            fmt(m["guide_f"], "%.0f"), fmt(m["share"], "%.3f")))
    print()
    q = os.path.join(OUT, "rp2-quarter")
    Q = {b: shipped_measures(os.path.join(q, b)) for b in M if os.path.exists(os.path.join(q, b, "history.csv"))}
    if Q:
        print("## 10.3 Converged? The same runs at a quarter of the tolerance (`--tolerance 6.25e-8`; OUT/rp2-quarter/NAME)"
              "\n")
        print("| run | end | retract (s) | align (s) | closed (s) | END (s) | largest change of the four (%) | "
              "roll when the planes met (deg) | tilt when the planes met (deg) | latch roll at closure (deg) | "
              "latches on stops | tilt from capture (deg) |")
        print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
        for b, m in Q.items():
            a = M[b]
            ch = max(abs(m[x] / a[x] - 1) for x in ("retract", "align", "closed", "t_end"))
            print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                b, m["end"], *("%s → %s" % (fmt(a[x], f), fmt(m[x], f)) for x, f in
                               (("retract", "%.2f"), ("align", "%.1f"), ("closed", "%.1f"), ("t_end", "%.1f"))),
                fmt(100 * ch, "%.2f"),
                *("%s → %s" % (fmt(a[x], "%.2f"), fmt(m[x], "%.2f")) for x in ("roll_meet", "tilt_meet", "latch_roll")),
                "%s → %s" % (a["latches"], m["latches"]),
                "%s → %s" % (fmt(a["tilt_cap"], "%.2f"), fmt(m["tilt_cap"], "%.2f"))))
        print()

for plan, sec in (("qual-rp2", "10.4"), ("qual-c", "10.4b")):
    r = rows(plan)
    full = [x for x in r if os.path.exists(os.path.join(OUT, plan, "runs", x["run"], "history.csv"))]
    if not full:
        continue
    print("## %s The worst-case set as shipped: the docked state (`%s.json`, every run re-run with `mech sweep %s.json "
          "--rerun ID`; the sweep's \"completed\" only says the run ended without an error)\n" % (sec, plan, plan))
    print("| case | variant | end | closed (s) | END (s) | roll when the planes met (deg) | tilt when the planes met (deg) "
          "| latch roll at closure (deg) | latches on stops | hooks locked | tilt from capture (deg) | "
          "tilt from the rollers (deg) | retraction force max (N) | roller force max (N) | guide force max (N) | "
          "residual / (KE0 + W) |")
    print("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for x in full:
        m = shipped_measures(os.path.join(OUT, plan, "runs", x["run"]))
        print("| %s | %s | %s%s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            x["case"], x["variant"], m["end"], ", completed" if m["completed"] else "", fmt(m["closed"], "%.1f"),
            fmt(m["t_end"], "%.1f"), fmt(m["roll_meet"], "%.2f"), fmt(m["tilt_meet"], "%.2f"),
            fmt(m["latch_roll"], "%.2f"), "—" if m["latches"] is None else m["latches"],
            "—" if m["hooks"] is None else m["hooks"], fmt(m["tilt_cap"], "%.2f"), fmt(m["tilt_roller"], "%.2f"),
            fmt(m["drive_f"], "%.0f"), fmt(m["roller_f"], "%.0f") if m["roller_f"] > 0 else "—",
            fmt(m["guide_f"], "%.0f"), fmt(m["residual"], "%.1e")))
    print()

r = rows("ablate-AB")
full = {(x["case"], x["variant"]): os.path.join(OUT, "ablate-AB", "runs", x["run"]) for x in r
        if os.path.exists(os.path.join(OUT, "ablate-AB", "runs", x["run"], "history.csv"))}
if full:
    print("## 10.5 What each change contributes: S3x-400-A and -B with one change taken out (`ablate-AB.json`, every run "
          "re-run with `mech sweep ablate-AB.json --rerun ID`)\n")
    print("| S3x-400 run | end | closed / END (s) | roll, tilt when the planes met (deg) | at a quarter of the tolerance |")
    print("|---|---|--:|--:|---|")

    def one(m, quarter):
        end = "`%s`" % m["end"]
        if m["end"].startswith("fail"):
            sm = json.load(open(os.path.join(m["dir"], "summary.json")))
            # a fault of the monitor, or the hooks' own failure ("hooks not closed in time": fail-hooks)
            f = sm["process"]["fault"] or (sm["process"].get("hooks") or {}).get("failure")
            end += " (%.1f s)" % f["t"] if f else ""
        if quarter:
            if m["end"] == "end":
                return "%s, %.1f / %.1f s" % (end, m["closed"], m["t_end"])
            return "%s, %s°, %s°" % (end, fmt(m["roll_meet"], "%.2f"), fmt(m["tilt_meet"], "%.2f"))
        ce = "—" if m["closed"] != m["closed"] else "%.1f / %s" % (m["closed"], fmt(m["t_end"], "%.1f"))
        return "%s | %s | %s, %s" % (end, ce, fmt(m["roll_meet"], "%.2f"), fmt(m["tilt_meet"], "%.2f"))
    for v in ("A", "B"):
        for c in [x["case"] for x in r if x["variant"] == v and not x["case"].endswith(", tol/4")]:
            if (c, v) not in full or (c + ", tol/4", v) not in full:
                continue
            m, q = shipped_measures(full[(c, v)]), shipped_measures(full[(c + ", tol/4", v)])
            m["dir"], q["dir"] = full[(c, v)], full[(c + ", tol/4", v)]
            print("| %s, %s | %s | %s |" % (v, c, one(m, False), one(q, True)))
    print()

# the levers' figure: what the planes meet with, against the lever length and the rollers' offset
for (plan, v), pts in LEVERS.items():
    with open(os.path.join(OUT, "levers-%s-%s.dat" % (plan, v)), "w") as f:
        for p in sorted(pts):
            f.write("%g %g %g %g\n" % p)
with open(os.path.join(OUT, "rp2-levers.gp"), "w") as f:
    f.write("""set terminal pngcairo size 1200,520 font ",10"
set output '%(o)s/rp2-levers.png'
set multiplot layout 1,2 title "RP-2 alignment levers, S3x-400 A and B: the alignment when the planes meet; dashed: \\
the fault monitor's 1 deg tilt and 3 deg roll (scripts/rp2-study)"
set grid
set key below horizontal maxrows 2 box
set bmargin 7
set yrange [0:*]
set title "lever length (0.16 m: RP-1; 0.28 m: the longest that fits docked)"
set xlabel "lever length (m)"
set ylabel "deg, when the planes meet"
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb "#0072B2"
set arrow from graph 0, first 3 to graph 1, first 3 nohead dt 2 lc rgb "#D55E00"
plot for [v in "A B"] '%(o)s/levers-cam-reach-'.v.'.dat' u 1:2 w lp pt 7 lc rgb (v eq "A" ? "#0072B2" : "#56B4E9") \\
         t "tilt, ".v, \\
     for [v in "A B"] '%(o)s/levers-cam-reach-'.v.'.dat' u 1:4 w lp pt 4 dt 2 \\
         lc rgb (v eq "A" ? "#009E73" : "#8FD175") t "housing in the cone, ".v, \\
     for [v in "A B"] '%(o)s/levers-cam-reach-'.v.'.dat' u 1:3 w lp pt 5 lc rgb (v eq "A" ? "#D55E00" : "#E69F00") \\
         t "|roll|, ".v
set title "the rollers' offset off the ideal cone, 0.28 m lever"
set xlabel "roller offset (mm)"
set xrange [0.8:3.2]
plot for [v in "A B"] '%(o)s/levers-cam-offset-'.v.'.dat' u 1:2 w lp pt 7 lc rgb (v eq "A" ? "#0072B2" : "#56B4E9") \\
         t "tilt, ".v, \\
     for [v in "A B"] '%(o)s/levers-cam-offset-'.v.'.dat' u 1:4 w lp pt 4 dt 2 \\
         lc rgb (v eq "A" ? "#009E73" : "#8FD175") t "housing in the cone, ".v, \\
     for [v in "A B"] '%(o)s/levers-cam-offset-'.v.'.dat' u 1:3 w lp pt 5 lc rgb (v eq "A" ? "#D55E00" : "#E69F00") \\
         t "|roll|, ".v
unset multiplot
""" % {"o": OUT})

with open(os.path.join(OUT, "rp2-tradeoff.gp"), "w") as f:
    f.write("""set terminal pngcairo size 1500,480 font ",10"
set output '%(o)s/rp2-tradeoff.png'
set multiplot layout 1,3 title "RP-2 design study: constraint margins over the swept geometry (scripts/rp2-study)"
set grid
set key top right box opaque
set title "Fixed limiter (S3x-400-B): tilt vs docked fit"
set yrange [0:21]
set key bottom left box opaque
set xlabel "docked fit margin of the limiter's larger base (cm; >= 1 required)"
set ylabel "tilt from capture to the end (deg; <= 7 required)"
set arrow from 1, graph 0 to 1, graph 1 nohead dt 2 lc rgb "#CC79A7"
set arrow from graph 0, first 7 to graph 1, first 7 nohead dt 2 lc rgb "#CC79A7"
plot '%(o)s/tilt.dat' u ($5==1?$3:1/0):4 w p pt 7 ps 1.3 lc rgb "#0072B2" t "planes closed", \\
     '%(o)s/tilt.dat' u ($5==0?$3:1/0):4 w p pt 6 ps 1.3 lc rgb "#D55E00" t "not closed in 400 s", \\
     '%(o)s/tilt.dat' u 3:4:(sprintf("%%.3g/%%.2g", $1, $2)) w labels offset 0,0.9 font ",7" notitle
unset arrow
set yrange [0:*]
set key top left box opaque
set title "Smallest tilt a fixed limiter can hold (RP-1's sweep 25-40 deg dotted)"
set xlabel "cone half-angle alpha (deg)"
set ylabel "tilt (deg)"
set arrow from graph 0, first 7 to graph 1, first 7 nohead dt 2 lc rgb "#CC79A7"
set arrow from 25, graph 0 to 25, graph 1 nohead dt 3 lw 2 lc rgb "gray40"
set arrow from 40, graph 0 to 40, graph 1 nohead dt 3 lw 2 lc rgb "gray40"
plot '%(o)s/bound.dat' u 1:2 w l lw 2 lc rgb "#0072B2" t "ring at the rim, 1 cm docked, 0.38 m travel"
unset arrow
set title "Latch slots (S3x-400-B): roll at closure (20 mm: no capture)"
set key top right box opaque
set xrange [4:21]
set xlabel "slot narrowing length (mm)"
set ylabel "latch roll error at closure (deg)"
plot for [w in "0.5 1.5 3"] '%(o)s/slots.dat' u ($2==w+0?$1:1/0):3 w lp pt 7 \\
         t sprintf("narrow half-width %%s deg", w), \\
     for [w in "0.5 1.5 3"] w+0 w l dt 2 notitle
unset multiplot
""" % {"o": OUT})

#!/bin/sh
# Issue 43 item 5: `mech sweep` over `mech beam` and `mech friction` scenarios (docs/sweep.md "Simulators").
#  1. Every shipped beam and friction scenario through a one-point sweep gives, metric by metric and bit for bit (the
#     exact decimal text), what its own program reports: `mech beam sim --summary` (mech_beam_run, mech_beam_peaks_add)
#     and `mech friction --summary` (mech_friction_run); a run that fails is a failed row with the program's message.
#  2. A Sobol plan over a beam scenario (test-sobol-beam.json) against a second method: the response is linear in the
#     load amplitude F0 (checked here), peak_tip = F0 h(w), so S1 and ST of F0 and of the pulse width w have a closed
#     form in E[F0], Var(F0) and the moments of h, which the trapezoid rule gives from test-grid-beam-width.json (129
#     widths). Each index must lie in its 99 % bootstrap interval, widened by the quadrature's error estimate.
#  3. Grid, Monte Carlo (LHS) and Morris plans over friction and beam scenarios run, with tables byte-identical for
#     -j 1 and -j 2; the summary, sobol.csv and the figures carry the simulator's metrics.
#  4. Bad plans refused before any run naming the key: a metric the simulator has not, a key the scenario lacks, an
#     envelope or keep over a simulator that has no capture or no full outputs, a "simulator" that is not the
#     scenario's, a scenario format no sweep runs.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
F=${FIXTURES:-$TOP/fixtures}/mech
plan1() {   # SCENARIO PLAN: a plan that varies only "notes" (a choice of one string): the run is the scenario itself
    cat >"$2" <<PLAN
{"format": "mech-sweep", "version": 1, "scenario": "$1", "samples": 1,
 "vary": {"notes": {"dist": "choice", "values": ["one-point sweep"]}}}
PLAN
}

# ---- 1. one-point sweeps against the programs ----
nb=0
for f in "$F"/beam/*.json; do
    grep -q '"format": *"mech-beam"' "$f" || continue
    b=beam-$(basename "$f" .json); mkdir -p "$WORK/$b"; nb=$((nb + 1))
    plan1 "$f" "$WORK/$b/plan.json"
    "$MECH" beam sim "$f" -o "$WORK/$b/r.csv" --summary "$WORK/$b/s.json" >"$WORK/$b/prog.out" 2>&1
    if ! "$MECH" sweep "$WORK/$b/plan.json" --out "$WORK/$b/sweep" -q --no-plots >"$WORK/$b/sweep.out" 2>&1; then
        not_ok "$b: the one-point sweep runs"; sed 's/^/    /' "$WORK/$b/sweep.out" | head -5; continue
    fi
    if python3 - "$WORK/$b/s.json" "$WORK/$b/sweep/results.csv" >"$WORK/$b/cmp.out" 2>&1 <<'PY'
import csv, json, sys
s = json.load(open(sys.argv[1]), parse_float=str, parse_int=str)   # the exact decimal text
rows = list(csv.reader(open(sys.argv[2])))
row = dict(zip(rows[0], rows[1]))
hs = s["hinges"]
def top(key):   # the largest over the hinges, as the program printed it ("" without hinges)
    return max((h[key] for h in hs), key=float) if hs else ""
want = {"status": "failed" if "error" in s else "ok", "peak_tip": s["peaks"]["w_tip"]["max_abs"],
        "peak_theta": s["peaks"]["theta"]["max_abs"], "peak_theta_dot": s["peaks"]["theta_dot"]["max_abs"],
        "peak_dtheta": top("dtheta_max_abs"), "peak_hinge_moment": top("M_max_abs"),
        "contact_fraction": top("contact_fraction"), "hinge_work": s["energy"]["work_hinges"],
        "balance_max": s["energy"]["balance_max_abs"], "settling_time": s["peaks"]["w_tip"]["settling_time"] or "",
        "steps": s["steps"]}
bad = ["%s: sweep %r, mech beam sim %r" % (k, row.get(k), v) for k, v in want.items() if row.get(k) != v]
print("; ".join(bad) if bad else "all %d metrics equal (steps %s, %d hinges)" % (len(want), s["steps"], len(hs)))
sys.exit(1 if bad else 0)
PY
    then ok "$b: one-point sweep row = mech beam sim --summary, bit for bit ($(cat "$WORK/$b/cmp.out"))"
    else not_ok "$b: one-point sweep row = mech beam sim --summary"; sed 's/^/    /' "$WORK/$b/cmp.out"; fi
done
[ "$nb" -ge 5 ] && ok "$nb beam scenarios compared" || not_ok "expected >= 5 beam scenarios, found $nb"

nf=0
for f in "$F"/friction/*.json; do
    b=friction-$(basename "$f" .json); mkdir -p "$WORK/$b"; nf=$((nf + 1))
    plan1 "$f" "$WORK/$b/plan.json"
    "$MECH" friction "$f" -o "$WORK/$b/r.csv" --summary >"$WORK/$b/prog.out" 2>"$WORK/$b/prog.err"
    if ! "$MECH" sweep "$WORK/$b/plan.json" --out "$WORK/$b/sweep" -q --no-plots >"$WORK/$b/sweep.out" 2>&1; then
        not_ok "$b: the one-point sweep runs"; sed 's/^/    /' "$WORK/$b/sweep.out" | head -5; continue
    fi
    if python3 - "$WORK/$b/prog.err" "$WORK/$b/sweep/results.csv" >"$WORK/$b/cmp.out" 2>&1 <<'PY'
import csv, re, sys
err = open(sys.argv[1]).read()
rows = list(csv.reader(open(sys.argv[2])))
row = dict(zip(rows[0], rows[1]))
m = re.search(r"summary: samples \d+, travel (\S+), stick_fraction (\S+), friction_work (\S+) J, applied_work (\S+) J, "
              r"peak_normal (\S+) N", err)
c = re.search(r"mech friction: (\d+) steps, \d+ events, (\d+) variant flips, (\d+) sticks.*?(\d+) paradoxes", err)
if m and c:
    want = {"status": "ok", "travel": m.group(1), "stick_fraction": m.group(2), "friction_work": m.group(3),
            "applied_work": m.group(4), "peak_normal": m.group(5), "steps": c.group(1), "flips": c.group(2),
            "sticks": c.group(3), "paradoxes": c.group(4)}
else:   # the program refused or stopped the run: the row is failed with its message
    msg = err.strip().splitlines()[-1].replace("mech friction: ", "", 1)
    want = {"status": "failed", "message": msg}
bad = ["%s: sweep %r, mech friction %r" % (k, row.get(k), v) for k, v in want.items() if row.get(k) != v]
print("; ".join(bad) if bad else "all %d fields equal (%s)" % (len(want), want["status"]))
sys.exit(1 if bad else 0)
PY
    then ok "$b: one-point sweep row = mech friction --summary, bit for bit ($(cat "$WORK/$b/cmp.out"))"
    else not_ok "$b: one-point sweep row = mech friction --summary"; sed 's/^/    /' "$WORK/$b/cmp.out"; fi
done
[ "$nf" -ge 7 ] && ok "$nf friction scenarios compared" || not_ok "expected >= 7 friction scenarios, found $nf"

np=0
for f in "$F"/pendulum-*.json; do
    grep -q '"run":' "$f" || continue
    b=$(basename "$f" .json); mkdir -p "$WORK/$b"; np=$((np + 1))
    plan1 "$f" "$WORK/$b/plan.json"
    "$MECH" pendulum run "$f" -o "$WORK/$b/r.csv" --summary >"$WORK/$b/prog.out" 2>"$WORK/$b/prog.err"
    if ! "$MECH" sweep "$WORK/$b/plan.json" --out "$WORK/$b/sweep" -q --no-plots >"$WORK/$b/sweep.out" 2>&1; then
        not_ok "$b: the one-point sweep runs"; sed 's/^/    /' "$WORK/$b/sweep.out" | head -5; continue
    fi
    # the row against the program's summary (exact text), and the summary against the program's time series (the same
    # definitions computed afterwards from the CSV's 10 digits: 1e-8 relative)
    if python3 - "$WORK/$b/prog.err" "$WORK/$b/sweep/results.csv" "$WORK/$b/r.csv" "$f" >"$WORK/$b/cmp.out" 2>&1 <<'PY'
import csv, json, math, re, sys
err = open(sys.argv[1]).read()
row = dict(zip(*list(csv.reader(open(sys.argv[2])))[:2]))
m = re.search(r"summary: samples (\d+), phi3_max (\S+) rad, alpha_max (\S+) rad, moment_max (\S+) N m, unit_work (\S+) J, "
              r"power (\S+) W, peaks (\d+), amplitude_decay (\S+), damping_ratio (\S+), energy_per_cycle (\S+) J", err)
nan = lambda v: "" if v == "nan" else v
names = ["phi3_max", "alpha_max", "moment_max", "unit_work", "power", "peaks", "amplitude_decay", "damping_ratio",
         "energy_per_cycle"]
want = dict(zip(names, [nan(m.group(k)) for k in range(2, 11)]))
want["status"] = "ok"
bad = ["%s: sweep %r, mech pendulum run %r" % (k, row.get(k), v) for k, v in want.items() if row.get(k) != v]
t = list(csv.DictReader(open(sys.argv[3])))
ph = [float(x["phi3"]) for x in t]
pk = [i for i in range(1, len(ph) - 1) if ph[i] > 0 and ph[i] > ph[i - 1] and ph[i] >= ph[i + 1]]
W = [float(x["W_unit"]) for x in t]
ind = {"phi3_max": max(abs(v) for v in ph), "alpha_max": max(abs(float(x["alpha"])) for x in t),
       "moment_max": max(abs(float(x["M"])) for x in t), "unit_work": W[-1], "peaks": len(pk)}
mode = json.load(open(sys.argv[4]))["run"]["mode"]
if mode == "decay":
    dl = math.log(ph[pk[0]] / ph[pk[-1]]) / (len(pk) - 1)
    ind.update(amplitude_decay=ph[pk[-1]] / ph[pk[0]], damping_ratio=dl / math.sqrt(4 * math.pi ** 2 + dl * dl),
               energy_per_cycle=(W[pk[-1]] - W[pk[0]]) / (len(pk) - 1))
else:
    spp = json.load(open(sys.argv[4]))["run"]["samples"]
    ind.update(energy_per_cycle=W[-1] - W[-1 - spp])
for k, v in ind.items():
    if abs(float(want[k]) - v) > 1e-8 * abs(v) + 1e-9:
        bad.append("%s: summary %s, from the time series %r" % (k, want[k], v))
print("; ".join(bad) if bad else "all %d fields equal; %d agree with the time series (%s, %d peaks)" %
      (len(want), len(ind), mode, len(pk)))
sys.exit(1 if bad else 0)
PY
    then ok "$b: one-point sweep row = mech pendulum run --summary, bit for bit ($(cat "$WORK/$b/cmp.out"))"
    else not_ok "$b: one-point sweep row = mech pendulum run --summary"; sed 's/^/    /' "$WORK/$b/cmp.out"; fi
done
[ "$np" -ge 2 ] && ok "$np pendulum scenarios compared" || not_ok "expected >= 2 pendulum scenarios with a run, found $np"

# ---- 2. Sobol indices over a beam scenario against the closed form of the linear case ----
S=$F/sweep
cat >"$WORK/lin.json" <<PLAN
{"format": "mech-sweep", "version": 1, "scenario": "$F/beam/baseline.json",
 "set": {"solver.duration": 0.3, "solver.dt": 0.001},
 "vary": {"load.width": {"grid": [0.0015, 0.0035, 0.0055]}, "load.F0": {"grid": [20, 400]}}}
PLAN
check "a beam grid plan runs" "$MECH" sweep "$WORK/lin.json" --out "$WORK/lin" -q --no-plots
check "the Sobol beam plan runs (-j 2)" "$MECH" sweep "$S/test-sobol-beam.json" -j 2 --out "$WORK/sb" -q
check "its second method's grid runs" "$MECH" sweep "$S/test-grid-beam-width.json" -j 2 --out "$WORK/gw" -q --no-plots
python3 - "$WORK/lin/results.csv" "$WORK/sb/summary.json" "$WORK/gw/results.csv" "$S/test-sobol-beam.json" <<'PY'
import csv, json, sys
def ok(c, n): print(("ok - " if c else "not ok - ") + n)
# linearity in F0: peak_tip / F0 the same at 20 and 400 N (measured: 2e-6 relative at most)
lin = list(csv.DictReader(open(sys.argv[1])))
h = {}
for r in lin:
    h.setdefault(r["load.width"], []).append(float(r["peak_tip"]) / float(r["load.F0"]))
dev = max(abs(a - b) / abs(b) for a, b in h.values())
ok(dev < 1e-4, "peak_tip is linear in F0 (h(w) = peak_tip / F0 at 20 and 400 N differ by %.2g relative, < 1e-4)" % dev)
plan = json.load(open(sys.argv[4]))
F0, W = plan["vary"]["load.F0"], plan["vary"]["load.width"]
a, b = F0["min"], F0["max"]
EF, VF = (a + b) / 2, (b - a) ** 2 / 12
g = list(csv.DictReader(open(sys.argv[3])))
w = [float(r["load.width"]) for r in g]
y = [float(r["peak_tip"]) for r in g]   # F0 = 1 N: y = h(w)
ok(abs(w[0] - W["min"]) < 1e-15 and abs(w[-1] - W["max"]) < 1e-15 and len(w) == 129,
   "the quadrature grid spans the Sobol plan's width range (129 points)")
def closed(step):   # the indices from the trapezoid rule over every step-th grid point
    ws, hs = w[::step], y[::step]
    t = lambda f: sum((ws[i + 1] - ws[i]) * (f(hs[i + 1]) + f(hs[i])) / 2 for i in range(len(ws) - 1)) / (ws[-1] - ws[0])
    Eh, Eh2 = t(lambda v: v), t(lambda v: v * v)
    VY = (VF + EF * EF) * Eh2 - (EF * Eh) ** 2
    s1F, s1w = VF * Eh * Eh / VY, EF * EF * (Eh2 - Eh * Eh) / VY
    return {"load.F0": (s1F, 1 - s1w), "load.width": (s1w, 1 - s1F)}   # (S1, ST): ST = 1 - S1 of the other
c1, c2 = closed(1), closed(2)
# h is a step function of w (the pulse is sampled at the 1 ms step): the trapezoid rule converges as O(dw); its error is
# bounded by the difference of the 129- and 65-point rules
q = max(abs(c1[k][i] - c2[k][i]) for k in c1 for i in (0, 1))
ind = json.load(open(sys.argv[2]))["sobol"]["indices"]["peak_tip"]
for k in ("load.F0", "load.width"):
    for i, (s, ci) in enumerate((("S1", "S1_ci"), ("ST", "ST_ci"))):
        lo, hi = ind[k][ci]
        v = c1[k][i]
        ok(lo - q <= v <= hi + q, "Sobol %s of %s over the beam: closed form %.4f (quadrature error %.1g) within the 99 %% "
           "bootstrap interval [%.4f, %.4f] of the estimate %.4f" % (s, k, v, q, lo, hi, ind[k][s]))
ok(c1["load.F0"][0] > c1["load.width"][0] > 0.2, "both keys matter (closed-form S1 %.3f and %.3f): the check can fail"
   % (c1["load.F0"][0], c1["load.width"][0]))
PY
[ -s "$WORK/sb/sobol.png" ] && grep -q '^peak_tip,load.F0,' "$WORK/sb/sobol.csv" && ok "sobol.csv and sobol.png use the beam's metrics" ||
    not_ok "sobol.csv and sobol.png use the beam's metrics"
python3 - "$WORK/sb/summary.json" <<'PY' && ok "the beam summary: simulator beam, no capture section, sensitivities of peak_tip" || not_ok "the beam summary"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["simulator"] == "beam" and "captured" not in s and "capture_probability" not in s
assert "peak_tip" in s["sensitivity"] and "steps" not in s["sensitivity"] and "peak_axial" not in s["sensitivity"]
PY

# ---- 3. plan kinds over friction: grid, LHS Monte Carlo, Morris; -j 1 = -j 2 ----
SC=$F/friction/screw-nut-backdrive.json
cat >"$WORK/fg.json" <<PLAN
{"format": "mech-sweep", "version": 1, "scenario": "$SC", "simulator": "friction",
 "vary": {"contacts.0.mu": {"grid": [0.05, 0.1, 0.15]}, "loads.axial_force": {"grid": [150, 250]}}}
PLAN
cat >"$WORK/fm.json" <<PLAN
{"format": "mech-sweep", "version": 1, "scenario": "$SC", "samples": 12, "sampling": "lhs", "seed": 3,
 "vary": {"contacts.0.mu": {"dist": "uniform", "min": 0.05, "max": 0.2},
          "loads.axial_force": {"dist": "normal", "mean": 200, "sd": 20}}}
PLAN
cat >"$WORK/fo.json" <<PLAN
{"format": "mech-sweep", "version": 1, "scenario": "$SC", "seed": 4, "morris": {"trajectories": 4, "levels": 4},
 "vary": {"contacts.0.mu": {"dist": "uniform", "min": 0.05, "max": 0.2},
          "loads.axial_force": {"dist": "uniform", "min": 150, "max": 250}}}
PLAN
for k in fg fm fo; do
    check "friction plan $k runs (-j 1)" "$MECH" sweep "$WORK/$k.json" --out "$WORK/$k-1" -q
    check "friction plan $k runs (-j 2)" "$MECH" sweep "$WORK/$k.json" -j 2 --out "$WORK/$k-2" -q --no-plots
    cmp -s "$WORK/$k-1/results.csv" "$WORK/$k-2/results.csv" && ok "friction plan $k: -j 1 and -j 2 tables byte-identical" ||
        not_ok "friction plan $k: -j 1 and -j 2 tables byte-identical"
done
# a sweep killed mid-way resumes to the same table: the journal of the finished -j 2 run cut after its 6th row with a
# torn 7th (as a SIGKILL leaves it), then --resume
mkdir -p "$WORK/fm-r"
n=$(grep -c '^#' "$WORK/fm-2/journal.csv")
head -n $((n + 7)) "$WORK/fm-2/journal.csv" >"$WORK/fm-r/journal.csv"
sed -n "$((n + 8))p" "$WORK/fm-2/journal.csv" | cut -c1-20 | tr -d '\n' >>"$WORK/fm-r/journal.csv"
check "the friction Monte Carlo resumes from a cut journal" "$MECH" sweep "$WORK/fm.json" -j 2 --out "$WORK/fm-r" --resume -q --no-plots
cmp -s "$WORK/fm-1/results.csv" "$WORK/fm-r/results.csv" && ok "friction plan fm: killed + --resume = the uninterrupted table, byte for byte" ||
    not_ok "friction plan fm: killed + --resume = the uninterrupted table"
head -1 "$WORK/fg-1/results.csv" | grep -q ',status,travel,stick_fraction,friction_work,applied_work,peak_normal,flips,sticks,paradoxes,steps,message$' &&
    [ "$(wc -l <"$WORK/fg-1/results.csv")" -eq 7 ] && ok "the friction grid: 6 rows, the friction metric columns" ||
    not_ok "the friction grid: 6 rows, the friction metric columns"
grep -q '^friction_work,contacts.0.mu,' "$WORK/fo-1/morris.csv" && [ -s "$WORK/fo-1/morris.png" ] && [ -s "$WORK/fg-1/peaks.png" ] &&
    [ -s "$WORK/fg-1/peak-map.png" ] && [ ! -e "$WORK/fg-1/envelope.png" ] &&
    ok "friction: morris.csv / morris.png, peaks.png and peak-map.png of its metrics, no capture figure" ||
    not_ok "friction: morris.csv / morris.png, peaks.png and peak-map.png of its metrics, no capture figure"
# the physics the table must show: a back-driven screw travels less with more friction at each load, and more under a
# larger load at each friction coefficient (the load accelerates it, friction brakes it); the friction work is positive
python3 - "$WORK/fg-1/results.csv" <<'PY' && ok "friction grid: travel falls with mu and grows with the load; friction work > 0" || not_ok "friction grid: travel against mu and load"
import csv, sys
r = {(float(x["contacts.0.mu"]), float(x["loads.axial_force"])): x for x in csv.DictReader(open(sys.argv[1]))}
assert len(r) == 6 and all(x["status"] == "ok" and float(x["friction_work"]) > 0 for x in r.values())
t = {k: float(x["travel"]) for k, x in r.items()}
for load in (150, 250):
    assert t[(0.05, load)] > t[(0.1, load)] > t[(0.15, load)], t
for mu in (0.05, 0.1, 0.15):
    assert t[(mu, 250)] > t[(mu, 150)], t
PY

# ---- a pendulum grid: release angle x insert stiffness (2 s of free decay) ----
cat >"$WORK/pg.json" <<PLAN
{"format": "mech-sweep", "version": 1, "scenario": "$F/pendulum-two-decay.json", "set": {"run.duration": 2},
 "vary": {"run.angle": {"grid": [0.1, 0.2, 0.3, 0.4]}, "k_torsion": {"grid": [200, 400]}}}
PLAN
check "a pendulum grid runs (-j 2, --h5)" "$MECH" sweep "$WORK/pg.json" -j 2 --out "$WORK/pg" -q --h5
# results.h5 holds the pendulum's columns, equal to results.csv bit for bit (Debian's h5py: scripts/install-deps)
/usr/bin/python3 - "$WORK/pg" <<'PY' && ok "the pendulum grid's results.h5 = results.csv and summary.json (h5py)" || not_ok "the pendulum grid's results.h5"
import csv, json, math, sys
import h5py
d = sys.argv[1]
f = h5py.File(d + "/results.h5", "r")
t = f["/results"][()]
rows = list(csv.DictReader(open(d + "/results.csv")))
assert len(rows) == len(t) == 8 and "energy_per_cycle" in t.dtype.names and "peak_axial" not in t.dtype.names
for r, h in zip(rows, t):
    for k, v in r.items():
        if k not in ("status", "message"):
            assert (math.isnan(h[k]) if v == "" else float(v) == h[k]), (k, v, h[k])
assert json.loads(f["/"].attrs["summary"]) == json.load(open(d + "/summary.json"))
PY
[ -s "$WORK/pg/peaks.png" ] && [ -s "$WORK/pg/peak-map.png" ] && ok "the pendulum grid's figures are drawn" ||
    not_ok "the pendulum grid's figures are drawn"
# free decay puts no work in (W_in = 0), so the unit absorbs part of the energy stored at the release, E(0) = sum over
# the pendulums of m g e (cos b - cos(angle + b)) (disks 2 and 3 released together: the insert is not strained); more
# at a larger angle
python3 - "$WORK/pg/results.csv" "$F/pendulum-two-decay.json" <<'PY' && ok "pendulum grid: 0 < unit_work < E(0) at every point, growing with the release angle" || not_ok "pendulum grid: unit_work against E(0)"
import csv, json, math, sys
sc = json.load(open(sys.argv[2]))
r = list(csv.DictReader(open(sys.argv[1])))
assert len(r) == 8 and all(x["status"] == "ok" for x in r)
for x in r:
    a = float(x["run.angle"])
    E0 = sum(p["m"] * sc["g"] * p["e"] * (math.cos(math.radians(p["offset_deg"])) -
                                          math.cos(a + math.radians(p["offset_deg"]))) for p in sc["pendulums"])
    assert 0 < float(x["unit_work"]) < E0, (x, E0)
for k in ("200", "400"):
    w = [float(x["unit_work"]) for x in r if x["k_torsion"] == k]
    assert all(w[i] < w[i + 1] for i in range(3)), w
PY

# ---- 4. bad plans: refused before any run, naming the key ----
bad() {   # NAME PATTERN JSON
    printf '%s\n' "$3" >"$WORK/bad.json"
    check_fails "$1" "$2" "$MECH" sweep "$WORK/bad.json" --out "$WORK/bad" -q
    [ -e "$WORK/bad/journal.csv" ] && not_ok "$1: no run made" || true
}
B=$F/beam/baseline.json
bad "beam: a key the scenario lacks" "bad.json: vary.load.F00 = 1: .*baseline.json: load.\"F00\": unknown key" \
    "{\"format\": \"mech-sweep\", \"scenario\": \"$B\", \"vary\": {\"load.F00\": {\"grid\": [1, 2]}}}"
bad "beam: a subset failure metric the beam has not" "bad.json: subset.failure.metric: \"peak_axial\": expected a metric \(peak_tip, peak_theta" \
    "{\"format\": \"mech-sweep\", \"scenario\": \"$B\", \"vary\": {\"load.F0\": {\"dist\": \"normal\", \"mean\": 300, \"sd\": 10}}, \"subset\": {\"n\": 100, \"failure\": {\"metric\": \"peak_axial\", \"above\": 1}}}"
bad "friction: a requirement on a metric friction has not" "bad.json: requirements.capture_time: unknown metric \(known: travel, stick_fraction" \
    "{\"format\": \"mech-sweep\", \"scenario\": \"$SC\", \"cases\": {\"a\": {\"basis\": \"a test\", \"set\": {\"contacts.0.mu\": 0.1}}}, \"requirements\": {\"capture_time\": {\"max\": 1}}}"
bad "beam: an envelope (no capture outcome)" "bad.json: envelope: the adaptive envelope follows a yes / no outcome \(capture\): the beam simulator has none" \
    "{\"format\": \"mech-sweep\", \"scenario\": \"$B\", \"vary\": {\"load.F0\": {\"grid\": [1, 2, 3]}, \"load.width\": {\"grid\": [0.001, 0.002, 0.003]}}, \"envelope\": {\"levels\": 1}}"
bad "beam: keep (full outputs are mech dock's)" "bad.json: keep: the full outputs of chosen runs are written for mech-dock scenarios only" \
    "{\"format\": \"mech-sweep\", \"scenario\": \"$B\", \"vary\": {\"load.F0\": {\"grid\": [1, 2]}}, \"keep\": {\"worst\": 1, \"metric\": \"peak_tip\"}}"
bad "a simulator that is not the scenario's" "bad.json: simulator: \"dock\", but .*baseline.json is a mech-beam scenario" \
    "{\"format\": \"mech-sweep\", \"scenario\": \"$B\", \"simulator\": \"dock\", \"vary\": {\"load.F0\": {\"grid\": [1, 2]}}}"
bad "an unknown simulator" "bad.json: simulator: expected \"dock\", \"beam\", \"friction\" or \"pendulum\"" \
    "{\"format\": \"mech-sweep\", \"scenario\": \"$B\", \"simulator\": \"pend\", \"vary\": {\"load.F0\": {\"grid\": [1, 2]}}}"
bad "a scenario format no sweep runs" "hinge-true.json: format: \"hyst-model\": not a scenario a sweep runs" \
    "{\"format\": \"mech-sweep\", \"scenario\": \"$F/beam/hinge-true.json\", \"vary\": {\"k\": {\"grid\": [1, 2]}}}"
P=$F/pendulum-two-decay.json
bad "pendulum: a run key the scenario lacks" "bad.json: vary.run.frequency = 1: .*pendulum-two-decay.json: run: unknown key \"frequency\"" \
    "{\"format\": \"mech-sweep\", \"scenario\": \"$P\", \"vary\": {\"run.frequency\": {\"grid\": [1, 2]}}}"
bad "pendulum: a value the run refuses" "bad.json: vary.run.dt = 0: .*pendulum-two-decay.json: run.duration = 3 s, run.dt = 0 s: expected both > 0" \
    "{\"format\": \"mech-sweep\", \"scenario\": \"$P\", \"vary\": {\"run.dt\": {\"grid\": [0, 0.001]}}}"
bad "pendulum: a subset failure on a count" "bad.json: subset.failure.metric: \"peaks\" is a flag or a count" \
    "{\"format\": \"mech-sweep\", \"scenario\": \"$P\", \"vary\": {\"k_torsion\": {\"dist\": \"normal\", \"mean\": 300, \"sd\": 10}}, \"subset\": {\"n\": 100, \"failure\": {\"metric\": \"peaks\", \"below\": 2}}}"
# `mech pendulum run` on bad run objects: one line naming the file and the key, exit 1, no output written
for c in 'decay|freq_hz|2|run: unknown key "freq_hz"' 'decay|mode|"free"|run.mode: expected "decay" or "harmonic"' \
         'harmonic|periods|2.5|run.periods = 2.5, run.samples = 400: expected integers' \
         'harmonic|ramp|30|run.ramp = 30: expected 0..run.periods'; do
    fx=${c%%|*}; r=${c#*|}; key=${r%%|*}; r=${r#*|}; val=${r%%|*}; want=${r#*|}
    [ "$fx" = decay ] && src=$F/pendulum-two-decay.json || src=$F/pendulum-one-harmonic.json
    python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d['run'][sys.argv[2]] = json.loads(sys.argv[3]); json.dump(d, open(sys.argv[4], 'w'))" \
        "$src" "$key" "$val" "$WORK/badrun.json"
    check_fails "mech pendulum run refuses run.$key = $val naming the key" "^mech pendulum run: badrun.json: $want" \
        "$MECH" pendulum run "$WORK/badrun.json" -o "$WORK/badrun.csv"
    [ -e "$WORK/badrun.csv" ] && not_ok "run.$key = $val: no output written" || true
done
check_fails "beam: --rerun (full outputs are mech dock's)" "--rerun 0: the full outputs of a run are written for mech-dock scenarios only" \
    "$MECH" sweep "$WORK/lin.json" --out "$WORK/rr" --rerun 0 -q
finish

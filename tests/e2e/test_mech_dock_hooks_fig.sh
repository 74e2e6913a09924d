#!/bin/sh
# The structural hooks in process.png (issue 44 item 5; docs/dock-process.md §9 "Outputs"). The gnuplot scripts are
# kept through HYST_GNUPLOT (a wrapper that copies each script, then runs gnuplot, as test_sweep_figures.sh does) and
# the hooks' table $H of the process figure is checked against closed forms and the run's summary:
# - S1-400-B (RP-1, docked): the panel starts before the hook drive (CLOSED) and ends at the run's end; the jaw
#   travels at the drive's speed from the start, (t - t_start) x 1 mm/s, to the lock at capture_range + preload / k
#   = 5 mm + 10 kN / 2e6 N/m = 10 mm (RP-1's hook values, §9); the links-locked count goes 0 -> 8 between the two
#   figure samples around the summary's t_locked; the "hooks locked" condition is unmet before it and met after; the
#   last row is docked (no unmet bit) with the pairs' tensions 2 x the summary's link tension at the end;
# - fault-reopen-B: every hook missed (0 engaged): no tension, no jaw travel, no lock, and the panel names the
#   misses and the fault (planes reopened) that ended the run.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
D=${FIXTURES:-$TOP/fixtures}/mech/dock
if ! command -v gnuplot >/dev/null 2>&1; then
    ok "# SKIP gnuplot not installed"
    finish
fi
mkdir -p "$WORK/keep-b" "$WORK/keep-f" "$WORK/bin"
cat >"$WORK/bin/gnuplot" <<'GP'
#!/bin/sh
n=$(ls "$GP_KEEP" | wc -l); cp "$1" "$GP_KEEP/$n.gp"; exec gnuplot "$@"
GP
chmod +x "$WORK/bin/gnuplot"
GP_KEEP=$WORK/keep-b HYST_GNUPLOT=$WORK/bin/gnuplot check "S1-400-B with its figures" \
    "$MECH" dock "$D/s1-400-B.json" --out "$WORK/b" --no-records -q
GP_KEEP=$WORK/keep-f HYST_GNUPLOT=$WORK/bin/gnuplot check "fault-reopen-B with its figures" \
    "$MECH" dock "$D/fault-reopen-B.json" --out "$WORK/f" --no-records -q
[ -s "$WORK/b/process.png" ] && [ -s "$WORK/f/process.png" ] && ok "process.png written" || not_ok "process.png written"
python3 - "$WORK" >"$WORK/py.out" 2>&1 <<'PY'
import glob, json, math, re, sys
W = sys.argv[1]
def ok(c, name):
    print(("ok - " if c else "not ok - ") + name)
def process_script(d):
    for f in sorted(glob.glob(W + "/" + d + "/*.gp")):
        t = open(f).read()
        if "the whole process" in t:
            return t
    return ""
def table(t, name):
    m = re.search(r"^\$" + name + r" << EOD\n(.*?)^EOD$", t, re.S | re.M)
    return [[float(x) for x in l.split()] for l in m.group(1).splitlines()] if m else []
# RP-1's hook values (docs/dock-process.md §9; the fixtures set none): capture range, jaw speed, preload, stiffness
CAP, SPEED, PRELOAD, K = 5e-3, 1e-3, 1e4, 2e6
TRAVEL_MM = 1e3 * (CAP + PRELOAD / K)

t = process_script("keep-b")
H = table(t, "H")
s = json.load(open(W + "/b/summary.json"))
hk = s["process"]["hooks"]
ts, tl, tend = hk["t_start"], hk["t_locked"], s["time"]
ok(len(H) > 100 and all(len(r) == 8 for r in H), "S1: the hooks' table $H in the process script (%d rows)" % len(H))
ok(t.count("plot $H") == 2, "S1: two panels plot it (tensions and locks; jaw travel and the unmet conditions)")
lo = ts - max(5, 0.15 * (tend - ts))
ok(H and lo <= H[0][0] < lo + 0.5 and H[0][0] < ts and tend - 0.5 < H[-1][0] <= tend + 1e-6,
   "S1: the panel spans %.3f..%.3f s: from before the hook drive (%.3f s) to the end (%.3f s)" %
   (H[0][0], H[-1][0], ts, tend))
m = re.search(r"^set xrange \[([-0-9.e+]+):([-0-9.e+]+)\]", t, re.M)
ok(m and abs(float(m.group(1)) - lo) < 1e-6 and float(m.group(2)) > tend, "S1: the panel's time range")
# the jaw in closed form: still before the start, at the drive's speed until the lock, then at the lock
err = max((abs(r[6] - (0 if r[0] <= ts else min(TRAVEL_MM, 1e3 * SPEED * (r[0] - ts)))) for r in H), default=1)
ok(err < 1e-5, "S1: jaw travel = (t - t_start) x 1 mm/s up to 10 mm (largest difference %.2g mm)" % err)
ok(abs(H[-1][6] - TRAVEL_MM) < 1e-6, "S1: the jaw at the lock: capture_range + preload / k = %.4g mm" % H[-1][6])
# the table's times are printed to 9 significant digits (1e-6 s here): the row at the lock may print up to half a
# unit below the summary's exact t_locked (381.335717 against 381.3357174 with glibc's FMA variants off)
eps = 10.0 ** (math.floor(math.log10(tl)) - 8)
before = [r for r in H if r[0] < tl - eps]
after = [r for r in H if r[0] >= tl - eps]
ok(before and after and all(r[5] == 0 for r in before) and all(r[5] == 8 for r in after),
   "S1: links locked 0 before t_locked = %.4f s, 8 from it" % tl)
ok(all(int(r[7]) & 1 for r in before) and not any(int(r[7]) & 1 for r in after),
   "S1: the 'hooks locked' condition unmet before the lock and met after")
ok(all(int(r[7]) & 2 for r in H if r[0] < ts), "S1: the rod-gap condition unmet before the planes closed")
last = H[-1]
ok(int(last[7]) == 0, "S1: the last row is docked (no unmet condition)")
pair = 2e-3 * hk["tension_min"], 2e-3 * hk["tension_max"]
ok(all(abs(last[1 + k] - pair[0]) < 1e-3 * pair[0] for k in range(4)),
   "S1: each pair's tension at the end = 2 x the summary's link tension (%.4f kN)" % pair[0])
ok("'all locked'" in t and "8 engaged, 0 missed" in t, "S1: the lock marked and the engagement named")

t = process_script("keep-f")
H = table(t, "H")
s = json.load(open(W + "/f/summary.json"))
hk = s["process"]["hooks"]
ok(s["process"]["final_state"] == "fail-reopen" and hk["engaged"] == 0 and hk["missed"] == 8,
   "fault: the run ends fail-reopen with every hook missed")
ok(H and all(r[1] == r[2] == r[3] == r[4] == 0 and r[5] == 0 and r[6] == 0 for r in H),
   "fault: no tension, no lock, no jaw travel in $H (%d rows)" % len(H))
ok(H and all(int(r[7]) & 1 for r in H), "fault: 'hooks locked' unmet throughout")
ok("0 engaged, 8 missed" in t and "every hook missed its catch" in t, "fault: the panel names the misses")
ok("FAULT: planes reopened" in t and "'fail-reopen'" in t, "fault: the fault and its phase named in the figure")
PY
cat "$WORK/py.out"
grep -q '^not ok' "$WORK/py.out" && _fail=1
grep -q '^ok' "$WORK/py.out" || not_ok "the figure checks ran"
finish

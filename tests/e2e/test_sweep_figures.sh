#!/bin/sh
# The summary and figures of `mech sweep` (issue 43 D2, D3, D4). The gnuplot scripts are kept through HYST_GNUPLOT
# (a wrapper that copies each script, then runs gnuplot) and their data checked against results.csv / envelope.csv:
# D2: an envelope plan gives the fraction of the whole grid (as the envelope classified it, = the full grid's sweep),
#     no interval, sensitivities only of the capture flag over the grid;
# D3: the histograms list all 20 bins (empty ones with 0) at one width, with the counts of an independent binning;
# D4: axes named with units, a labelled colour bar, captured / no capture with different marker shapes, the frame
#     off the points, the envelope boundary a line whose every point lies between two grid points that differ.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
S=${FIXTURES:-$TOP/fixtures}/mech/sweep
mkdir -p "$WORK/keep" "$WORK/bin"
cat >"$WORK/bin/gnuplot" <<'GP'
#!/bin/sh
n=$(ls "$GP_KEEP" | wc -l); cp "$1" "$GP_KEEP/$n.gp"; exec gnuplot "$@"
GP
chmod +x "$WORK/bin/gnuplot"
GP_KEEP=$WORK/keep HYST_GNUPLOT=$WORK/bin/gnuplot check "the envelope sweep with figures" \
    "$MECH" sweep "$S/test-envelope.json" --out "$WORK/env" -j 2 -q
check "the full grid" "$MECH" sweep "$S/test-envelope-full.json" --out "$WORK/full" -j 2 -q --no-plots
python3 - "$WORK" >"$WORK/py.out" 2>&1 <<'PY'
import csv, json, math, re, sys
W = sys.argv[1]
def ok(c, name):
    print(("ok - " if c else "not ok - ") + name)
s = json.load(open(W + "/env/summary.json"))
full = list(csv.DictReader(open(W + "/full/results.csv")))
env = list(csv.DictReader(open(W + "/env/envelope.csv")))
cf = s["capture_fraction"]
nfull = sum(r["captured"] == "1" for r in full)
ok(cf.get("grid_points") == 81 and cf.get("grid_points_captured") == sum(r["captured"] == "1" for r in env),
   "D2: the envelope's captured points are envelope.csv's (%s of 81)" % cf.get("grid_points_captured"))
ok(cf["p"] == nfull / 81, "D2: the envelope's fraction %.4f = the full grid's %d/81" % (cf["p"], nfull))
ok("ci95" not in cf and "no probability" in cf["method"], "D2: no interval, and the summary says why")
ok(set(s["sensitivity"]) == {"method", "captured"}, "D2: the sensitivities of the capture flag only")
# the scripts: peaks (histograms), envelope, peak map, by their titles
scripts = {}
import glob
for f in glob.glob(W + "/keep/*.gp"):
    t = open(f).read()
    scripts["peaks" if "multiplot" in t else "map" if "cblabel" in t else "env"] = t
ok(len(scripts) == 3, "three figure scripts kept")
def block(t, name):
    m = re.search(r"\$%s << EOD\n(.*?)EOD\n" % re.escape(name), t, re.S)
    return [l.split(",") for l in m.group(1).splitlines()] if m else []
rows = list(csv.DictReader(open(W + "/env/results.csv")))
for name, col in (("h1", "peak_axial"), ("h2", "peak_lateral")):
    h = block(scripts.get("peaks", ""), name)
    v = [float(r[col]) / 1000 for r in rows if r["status"] == "ok"]
    lo, hi = min(v), max(v)
    w = (hi - lo) / 20
    ref = [0] * 20
    for x in v:
        ref[min(19, int(math.floor((x - lo) / w)))] += 1
    ok(len(h) == 20 and all(abs(float(b[2]) - w) <= 1e-12 * w for b in h),
       "D3 %s: 20 bins of one width (%.4g kN)" % (col, w))
    ok([int(b[1]) for b in h] == ref, "D3 %s: the counts of an independent binning, empty bins kept (%d empty)"
       % (col, ref.count(0)))
e = scripts.get("env", "")
ok("set xlabel 'pitch (deg)'" in e and "set ylabel 'closing speed (m/s)'" in e, "D4: axes named with units")
ok("cblabel 'peak axial head force (kN)'" in scripts.get("map", ""), "D4: the colour bar is labelled")
pts = dict(re.findall(r"pt (\d+)[^,]*title '(captured|no capture)'", e)[i][::-1] for i in range(2)) if \
    len(re.findall(r"pt (\d+)[^,]*title '(captured|no capture)'", e)) >= 2 else {}
ok(len(pts) == 2 and pts["captured"] != pts["no capture"], "D4: captured / no capture by marker shape (pt %s)" % pts)
ok("set offsets graph" in e, "D4: the frame is kept off the points")
b = [(float(x), float(y)) for x, y in (r for r in block(e, "b") if len(r) == 2)]
xs = sorted({float(r["initial.pitch_deg"]) for r in env}); ys = sorted({float(r["initial.closing_speed"]) for r in env})
st = {(float(r["initial.pitch_deg"]), float(r["initial.closing_speed"])): r["captured"] for r in env}
def between(px, py):   # a midpoint of two neighbouring grid points of different states
    for i in range(len(xs) - 1):
        for j in range(len(ys)):
            if abs(px - (xs[i] + xs[i + 1]) / 2) < 1e-12 and py == ys[j]:
                return st[xs[i], ys[j]] != st[xs[i + 1], ys[j]]
    for i in range(len(xs)):
        for j in range(len(ys) - 1):
            if px == xs[i] and abs(py - (ys[j] + ys[j + 1]) / 2) < 1e-12:
                return st[xs[i], ys[j]] != st[xs[i], ys[j + 1]]
    return False
flips = sum(st[xs[i], y] != st[xs[i + 1], y] for i in range(len(xs) - 1) for y in ys) + \
    sum(st[x, ys[j]] != st[x, ys[j + 1]] for x in xs for j in range(len(ys) - 1))
ok(len(b) > 0 and all(between(*p) for p in b), "D4: the boundary line (%d points) lies between differing grid points"
   % len(b))
ok(len(set(b)) == flips, "D4: it crosses every grid edge whose ends differ (%d) once" % flips)
PY
rc=$?
cat "$WORK/py.out"
[ "$rc" -eq 0 ] && ok "the checks ran to their end" || not_ok "the checks ran to their end (python exit $rc)"
finish

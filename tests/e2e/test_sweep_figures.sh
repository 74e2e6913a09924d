#!/bin/sh
# The summary and figures of `mech sweep` (issue 43 D2, D3, D4). The gnuplot scripts are kept through HYST_GNUPLOT
# (a wrapper that copies each script, then runs gnuplot) and their data checked against results.csv / envelope.csv:
# D2: an envelope plan gives the fraction of the whole grid (as the envelope classified it, = the full grid's sweep),
#     no interval, sensitivities only of the capture flag over the grid;
# D3: the histograms list all 20 bins (empty ones with 0) at one width, with the counts of an independent binning;
# D4: axes named with units, a labelled colour bar, captured / no capture with different marker shapes, the frame
#     off the points, the envelope boundary a line whose every point lies between two grid points that differ;
# issue 43 item 6: the peak axial force as contours over the grid's own points, captured and not captured runs apart
#     ($c1 / $c0 = results.csv at every grid point of the class, NaN elsewhere: the envelope's and the full grid's);
#     the kept script run again through gnuplot: every contour point is the linear interpolation of the level on a
#     grid edge or cell diagonal whose two ends are values of its class (nothing drawn across a point without a run
#     or across the capture boundary), and every line piece has one label, its level in kN.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
S=${FIXTURES:-$TOP/fixtures}/mech/sweep
mkdir -p "$WORK/keep" "$WORK/keepfull" "$WORK/bin"
cat >"$WORK/bin/gnuplot" <<'GP'
#!/bin/sh
n=$(ls "$GP_KEEP" | wc -l); cp "$1" "$GP_KEEP/$n.gp"; exec gnuplot "$@"
GP
chmod +x "$WORK/bin/gnuplot"
GP_KEEP=$WORK/keep HYST_GNUPLOT=$WORK/bin/gnuplot check "the envelope sweep with figures" \
    "$MECH" sweep "$S/test-envelope.json" --out "$WORK/env" -j 2 -q
GP_KEEP=$WORK/keepfull HYST_GNUPLOT=$WORK/bin/gnuplot check "the full grid with figures" \
    "$MECH" sweep "$S/test-envelope-full.json" --out "$WORK/full" -j 2 -q
# the kept envelope figures' scripts again, the contour tables and their labels printed instead of a PNG
for d in keep keepfull; do
    for f in "$WORK/$d"/*.gp; do
        grep -q '^set contour base' "$f" || continue
        { sed -e 's/^set terminal .*/set terminal dumb/' -e "s|^set output .\{1,\}|set output '/dev/null'|" "$f"
          printf "set print '-'\n"
          for c in 1 0; do printf "print '=k%s'\nprint \$k%s\nprint '=l%s'\nprint \$l%s\n" $c $c $c $c; done
        } >"$WORK/$d.tables.gp"
        gnuplot "$WORK/$d.tables.gp" >"$WORK/$d.tables" 2>"$WORK/$d.tables.err" ||
            not_ok "gnuplot on the kept envelope script of $d"
    done
done
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
# issue 43 item 6: the peak axial force as contours over the grid points, each capture class apart
def grid_block(t, name):   # gnuplot grid order: one block per value of the first key, separated by blank lines
    m = re.search(r"\$%s << EOD\n(.*?)EOD\n" % re.escape(name), t, re.S)
    return [[tuple(float(v) for v in l.split(",")) for l in bl.splitlines()] for bl in m.group(1).split("\n\n")] \
        if m else []
def tables(path):   # '=k1' .. sections of the printed contour tables: pieces of (x, y, level)
    out, cur = {}, None
    for l in open(path).read().splitlines():
        if l.startswith("="):
            cur = out.setdefault(l[1:], [[]])
        elif l.lstrip().startswith("#"):
            continue
        elif l.strip() == "":
            if cur is not None and cur[-1]:
                cur.append([])
        elif cur is not None:
            cur[-1].append(tuple(float(v) for v in l.split()))
    return {k: [pc for pc in v if pc] for k, v in out.items()}
keys = ("initial.pitch_deg", "initial.closing_speed")
X = sorted({float(r[keys[0]]) for r in full}); Y = sorted({float(r[keys[1]]) for r in full})
for tag, keep, res in (("envelope", "keep", "env"), ("full grid", "keepfull", "full")):
    t = [open(f).read() for f in glob.glob(W + "/" + keep + "/*.gp")]
    t = [x for x in t if "set contour base" in x]
    ok(len(t) == 1, "item 6 %s: one figure script contours (%d)" % (tag, len(t)))
    t = t[0] if t else ""
    rs = list(csv.DictReader(open(W + "/" + res + "/results.csv")))
    by = {(float(r[keys[0]]), float(r[keys[1]])): r for r in rs}
    tab = tables(W + "/" + keep + ".tables") if t else {}
    for cls in (1, 0):
        g = grid_block(t, "c%d" % cls)
        ref = [[(x, y, float(by[x, y]["peak_axial"]) / 1000 if (x, y) in by and by[x, y]["status"] == "ok" and
                 by[x, y]["captured"] == str(cls) else float("nan")) for y in Y] for x in X]
        same = len(g) == len(X) and all(len(a) == len(b) and all(p[:2] == q[:2] and (p[2] == q[2] or
                   (math.isnan(p[2]) and math.isnan(q[2]))) for p, q in zip(a, b)) for a, b in zip(g, ref))
        nv = sum(not math.isnan(p[2]) for a in ref for p in a)
        ok(same and nv > 0, "item 6 %s: $c%d = results.csv's peak_axial / 1000 at the %d grid points whose run %s, "
           "NaN at the other %d" % (tag, cls, nv, "captured" if cls else "did not capture", len(X) * len(Y) - nv))
        Z = {(p[0], p[1]): p[2] for a in g for p in a}
        pieces, labels = tab.get("k%d" % cls, []), [q for pc in tab.get("l%d" % cls, []) for q in pc]
        def lin(e, s, lev):   # the level between the two ends e at the fraction s, both ends values of the class
            return not any(map(math.isnan, e)) and abs(e[0] + s * (e[1] - e[0]) - lev) <= 2e-4 * abs(e[1] - e[0]) + 1e-9
        def on_edge(px, py, lev):   # on an edge or a diagonal of a cell (gnuplot prints 6 digits: 1e-4 of a cell)
            sx, sy = X[-1] - X[0], Y[-1] - Y[0]
            for i in range(len(X) - 1):
                for j in range(len(Y) - 1):
                    if not (X[i] - 1e-5 * sx <= px <= X[i + 1] + 1e-5 * sx and
                            Y[j] - 1e-5 * sy <= py <= Y[j + 1] + 1e-5 * sy):
                        continue
                    u, v = (px - X[i]) / (X[i + 1] - X[i]), (py - Y[j]) / (Y[j + 1] - Y[j])
                    c = {(a, b): Z.get((X[i + a], Y[j + b]), float("nan")) for a in (0, 1) for b in (0, 1)}
                    for b in (0, 1):   # the edges y = Y[j + b] and x = X[i + b]
                        if abs(v - b) < 1e-4 and lin((c[0, b], c[1, b]), u, lev):
                            return True
                        if abs(u - b) < 1e-4 and lin((c[b, 0], c[b, 1]), v, lev):
                            return True
                    if abs(u - v) < 1e-4 and lin((c[0, 0], c[1, 1]), u, lev):
                        return True
                    if abs(u + v - 1) < 1e-4 and lin((c[1, 0], c[0, 1]), v, lev):
                        return True
            return False
        pts = [q for pc in pieces for q in pc]
        bad = [q for q in pts if not on_edge(*q)]
        ok(len(pts) > 0 and not bad, "item 6 %s, class %d: all %d contour points interpolate their level between two "
           "grid points of the class (%d levels; off: %s)" % (tag, cls, len(pts), len({q[2] for q in pts}), bad[:2]))
        mids = [pc[(len(pc) - 1) // 2] for pc in pieces]
        ok(len(pieces) > 0 and sorted(labels) == sorted(mids), "item 6 %s, class %d: each of the %d line pieces "
           "labelled once, at its middle point, with its level" % (tag, cls, len(pieces)))
    ok(re.search(r"\$l1 using \(w\(1\)\):\(w\(2\)\):\(sprintf\('%g kN', w\(3\)\)\) with labels", t) and
       re.search(r"\$l0 using \(w\(1\)\):\(w\(2\)\):\(sprintf\('%g kN', w\(3\)\)\) with labels", t) and
       "title 'peak axial head force (kN): contours" in t, "item 6 %s: the labels are the levels in kN, the key names "
       "the quantity" % tag)
    ok("$b using 1:2 with lines" in t and "title 'captured'" in t and "title 'run failed'" in t,
       "item 6 %s: the boundary line and the captured / failed markers kept" % tag)
PY
rc=$?
cat "$WORK/py.out"
[ "$rc" -eq 0 ] && ok "the checks ran to their end" || not_ok "the checks ran to their end (python exit $rc)"
finish

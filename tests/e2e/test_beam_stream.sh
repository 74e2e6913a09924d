#!/bin/sh
# End-to-end tests of `mech beam sim` streaming its outputs (issue 19, item 1): the CSV, the hinge records and the
# HDF5 log are written a row at a time as the run goes, so memory does not grow with the run length (peak RSS of a
# long run = that of a short one); a run the old in-memory code refused under HYST_MEM_MAX now runs; the streamed
# rows equal those of a shorter run (the load pulse is over long before 2 s) and Python's in-memory run_beam
# (python/tests/test_beam.py); mech beam lqr streams its two runs side by side likewise; Ctrl-C leaves no temporary
# file; a long model build is announced.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
FIX=${FIXTURES:-$TOP/fixtures}
B=$FIX/mech/beam
export WORK

# rss CMD...: runs CMD (stdout and stderr to $WORK/.out, $WORK/.err, at most 120 s) and prints "EXIT PEAK_KB"
rss() {
    python3 - "$@" <<'PY'
import os, resource, subprocess, sys
try:
    with open(os.environ['WORK'] + '/.out', 'w') as o, open(os.environ['WORK'] + '/.err', 'w') as e:
        rc = subprocess.run(sys.argv[1:], stdout=o, stderr=e, timeout=120).returncode
except subprocess.TimeoutExpired:
    rc = 'timeout'
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
}

# ---- a run the in-memory code refused now runs, in bounded memory ----
# 2e4 steps with 1 hinge: the old code kept 8 numbers a step (1.3 MB) and refused it under HYST_MEM_MAX=1e6
set -- $(rss env HYST_MEM_MAX=1e6 "$MECH" beam sim "$B/baseline.json" -o "$WORK/b.csv")
[ "$1" = 0 ] && ok "HYST_MEM_MAX=1e6: the 2e4-step run streams (was refused: 1.3 MB of histories)" \
    || { not_ok "HYST_MEM_MAX=1e6: the 2e4-step run streams (exit $1)"; sed 's/^/    /' "$WORK/.err" | head -3; }
check_num "all 20001 rows written (+ header and units)" "$(wc -l <"$WORK/b.csv")" 20003 0
# the summary's loop analysis no longer holds the hinge records (issue 42 item 4): it reads them back from a temporary
# file (hy_loops_stream); under HYST_MEM_MAX=1e5 (the old code needed 320 kB) the run and its summary are made, the
# summary the one of the unlimited run byte for byte
check "--summary under HYST_MEM_MAX=1e5 (the old code refused: 320 kB held)" \
    env HYST_MEM_MAX=1e5 "$MECH" beam sim "$B/baseline.json" -o "$WORK/b2.csv" --summary "$WORK/b2.json"
"$MECH" beam sim "$B/baseline.json" -o "$WORK/b3.csv" --summary "$WORK/b3.json" 2>/dev/null
cmp -s "$WORK/b2.json" "$WORK/b3.json" && grep -q '"loops_total_energy"' "$WORK/b2.json" \
    && ok "the summary under the limit is the unlimited run's" || not_ok "the summary under the limit differs"
ls "$WORK" | grep -q 'tmp' && not_ok "a temporary hinge record left behind" || ok "no temporary hinge record left"
# its temporary file is checked against the folder's room before running, and a folder it cannot be made in named
check_fails "--summary's temporary records over HYST_OUTPUT_MAX refused" \
    "2e\+04 rows: the summary's temporary hinge records .* would take up to 320.0 kB, more than the 100.0 kB" \
    env HYST_OUTPUT_MAX=1e5 "$MECH" beam sim "$B/baseline.json" --summary "$WORK/b4.json"
check_fails "--summary in a missing folder" "temporary hinge records: .*/none/b5.json: cannot create" \
    "$MECH" beam sim "$B/baseline.json" -o "$WORK/b5.csv" --summary "$WORK/none/b5.json"
[ ! -e "$WORK/b4.json" ] && [ ! -e "$WORK/b5.csv" ] && ok "nothing written on refusal" || not_ok "nothing written on refusal"

# ---- --summary: peak RSS does not grow with the run (4 hinges; the old code held 16 bytes a hinge a step) ----
set -- $(rss "$MECH" beam sim "$B/hinges-4.json" --duration 2 -o "$WORK/s2.csv" --summary "$WORK/s2.json")
short=$2
set -- $(rss "$MECH" beam sim "$B/hinges-4.json" --duration 40 -o "$WORK/s40.csv" --summary "$WORK/s40.json")
[ "$1" = 0 ] || { not_ok "40 s run with --summary (exit $1)"; sed 's/^/    /' "$WORK/.err" | head -3; }
[ "$2" -le $((short + 4000)) ] && ok "--summary peak RSS: 40 s run $2 kB, 2 s run $short kB (bounded; was +26 MB)" \
    || not_ok "--summary peak RSS: 40 s run $2 kB > 2 s run $short kB + 4 MB"
grep -c '"loops_total_energy"' "$WORK/s40.json" | grep -qx 4 && ok "40 s summary: four hinges' loops" \
    || not_ok "40 s summary: four hinges' loops"

# ---- peak RSS does not grow with the run length: 4 hinges, 2 s against 20 s (the old code: +20 MB) ----
set -- $(rss "$MECH" beam sim "$B/hinges-4.json" --duration 2 -o "$WORK/s.csv" --hinge-records "$WORK/sr")
short=$2
set -- $(rss env HYST_MEM_MAX=4e6 "$MECH" beam sim "$B/hinges-4.json" --duration 20 -o "$WORK/l.csv" \
    --hinge-records "$WORK/lr")
[ "$1" = 0 ] || { not_ok "20 s run (exit $1)"; sed 's/^/    /' "$WORK/.err" | head -3; }
long=$2
[ "$long" -le $((short + 4000)) ] && ok "peak RSS: 20 s run $long kB, 2 s run $short kB (bounded)" \
    || not_ok "peak RSS: 20 s run $long kB > 2 s run $short kB + 4 MB"
# the streamed rows: the 20 s run begins with the 2 s run's rows, number for number (CSV and records)
n=$(wc -l <"$WORK/s.csv")
head -n "$n" "$WORK/l.csv" | cmp -s - "$WORK/s.csv" && ok "20 s CSV starts with the 2 s CSV" \
    || not_ok "20 s CSV starts with the 2 s CSV"
n=$(wc -l <"$WORK/sr3.csv")
head -n "$n" "$WORK/lr3.csv" | cmp -s - "$WORK/sr3.csv" && ok "20 s hinge record 3 starts with the 2 s one" \
    || not_ok "20 s hinge record 3 starts with the 2 s one"
check_num "20 s run: 200001 rows" "$(wc -l <"$WORK/l.csv")" 200003 0

# ---- lqr: the uncontrolled and controlled runs in lockstep, streamed side by side (the old code kept both) ----
set -- $(rss "$MECH" beam lqr "$B/paper-4.5.json" --duration 2 -o "$WORK/q2.csv")
short=$2
set -- $(rss env HYST_MEM_MAX=2e6 "$MECH" beam lqr "$B/paper-4.5.json" --duration 20 -o "$WORK/q20.csv")
[ "$1" = 0 ] || { not_ok "lqr 20 s run (exit $1)"; sed 's/^/    /' "$WORK/.err" | head -3; }
[ "$2" -le $((short + 4000)) ] && ok "lqr peak RSS: 20 s run $2 kB, 2 s run $short kB (bounded)" \
    || not_ok "lqr peak RSS: 20 s run $2 kB > 2 s run $short kB + 4 MB"
n=$(wc -l <"$WORK/q2.csv")
head -n "$n" "$WORK/q20.csv" | cmp -s - "$WORK/q2.csv" && ok "lqr: 20 s CSV starts with the 2 s CSV" \
    || not_ok "lqr: 20 s CSV starts with the 2 s CSV"
grep -q "^closed loop on the nonlinear model (lagged update, 20 s): tip RMS" "$WORK/.out" && ok "lqr: the RMS line" \
    || not_ok "lqr: the RMS line"

# ---- the CSV streamed equals the summary's peaks (one pass vs the whole file) ----
"$MECH" beam sim "$B/hinges-4.json" --duration 0.4 -o "$WORK/p.csv" --summary "$WORK/p.json" 2>/dev/null
python3 - "$WORK/p.csv" "$WORK/p.json" <<'PY' && ok "summary peaks = max |column| of the streamed CSV" || not_ok "summary peaks = max |column| of the streamed CSV"
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1])))
head, data = rows[0], [[float(x) for x in r] for r in rows[2:]]
s = json.load(open(sys.argv[2]))
bad = 0
for k in ("w_tip", "theta", "theta_dot", "U"):
    c = head.index(k)
    i = max(range(len(data)), key=lambda i: (abs(data[i][c]), -i))
    bad += s["peaks"][k]["max_abs"] != abs(data[i][c]) or s["peaks"][k]["time"] != data[i][0]
for j, h in enumerate(s["hinges"]):
    c = head.index("M_%d" % (j + 1))
    bad += h["M_max_abs"] != max(abs(r[c]) for r in data)
bad += s["steps"] != len(data) - 1
sys.exit(1 if bad else 0)
PY

# ---- interruption: the temporaries being streamed are removed, the earlier output kept ----
"$MECH" beam sim "$B/baseline.json" --duration 0.01 -o "$WORK/i.csv" 2>/dev/null
cp "$WORK/i.csv" "$WORK/i.before"
python3 - "$MECH" "$B/hinges-4.json" "$WORK" <<'PY' && ok "SIGINT mid-run: no temporary left, the earlier CSV kept, status of the signal" || not_ok "SIGINT mid-run: no temporary left, the earlier CSV kept, status of the signal"
import os, signal, subprocess, sys, time
mech, cfg, d = sys.argv[1:]
a = subprocess.Popen([mech, "beam", "sim", cfg, "--duration", "100", "-o", d + "/i.csv", "--hinge-records",
                      d + "/ir"], stderr=subprocess.DEVNULL)
for _ in range(200):   # until the temporaries exist and rows are being written
    if [f for f in os.listdir(d) if f.startswith("i.csv.tmp")]:
        break
    time.sleep(0.05)
time.sleep(0.3)
a.send_signal(signal.SIGINT); a.wait()
left = [f for f in os.listdir(d) if ".tmp" in f]
ok = a.returncode == -signal.SIGINT and not left and open(d + "/i.csv").read() == open(d + "/i.before").read()
if not ok:
    print("#", a.returncode, left)
sys.exit(0 if ok else 1)
PY

# ---- a long model build is announced (forced: HYST_PROGRESS=always; on a terminal when it takes >= 1 s) ----
HYST_PROGRESS=always "$MECH" beam sim "$B/baseline.json" --duration 0.01 -o "$WORK/m.csv" 2>"$WORK/m.err"
grep -q "mech beam sim: building the model: 60 elements (about 124 DOFs), 5 modes: dense eigen-solve" "$WORK/m.err" \
    && grep -q "done in [0-9.]* s" "$WORK/m.err" && ok "model build announced, elapsed time after" \
    || { not_ok "model build announced, elapsed time after"; sed 's/^/    /' "$WORK/m.err"; }
"$MECH" beam sim "$B/baseline.json" --duration 0.01 -o "$WORK/m.csv" 2>"$WORK/m.err"
[ ! -s "$WORK/m.err" ] && ok "no announcement of a short build off a terminal" \
    || not_ok "no announcement of a short build off a terminal"

# ---- outputs.rate / --output-rate: the time response's rows decimated; the records, the summary keep every step ----
"$MECH" beam sim "$B/paper-4.5.json" -o "$WORK/r0.csv" --summary "$WORK/r0.json" 2>/dev/null
"$MECH" beam sim "$B/paper-4.5.json" -o "$WORK/r1.csv" --output-rate 1000 --summary "$WORK/r1.json" \
    --hinge-records "$WORK/r1h" 2>/dev/null
check_num "--output-rate 1000, dt 1e-4, 2 s: 2001 rows (+ header and units)" "$(wc -l <"$WORK/r1.csv")" 2003 0
# every row of the decimated response is the full-rate run's row at that time, byte for byte, and the last is t = 2
awk -F, 'NR == FNR { if (FNR > 2) full[$1] = $0; next } FNR > 2 && full[$1] != $0 { bad++ } END { exit bad > 0 }' \
    "$WORK/r0.csv" "$WORK/r1.csv" && [ "$(tail -1 "$WORK/r1.csv" | cut -d, -f1)" = 2 ] &&
    [ "$(sed -n 4p "$WORK/r1.csv" | cut -d, -f1)" = 0.001 ] \
    && ok "decimated rows: the full-rate rows at t = 0, 0.001, ..., 2, byte for byte" \
    || not_ok "decimated rows: the full-rate rows at t = 0, 0.001, ..., 2, byte for byte"
check_num "the hinge record keeps every step" "$(wc -l <"$WORK/r1h1.csv")" 20003 0
cmp -s "$WORK/r0.json" "$WORK/r1.json" && ok "the summary is the full-rate run's (every step)" \
    || not_ok "the summary is the full-rate run's (every step)"
# the same from the configuration's outputs.rate; the option overrides it
sed 's/^  "solver": {/  "outputs": {"rate": 1000},\n  "solver": {/' "$B/paper-4.5.json" >"$WORK/rate.json"
grep -q '"outputs"' "$WORK/rate.json" || not_ok "test setup: outputs.rate inserted"
"$MECH" beam sim "$WORK/rate.json" -o "$WORK/r2.csv" 2>/dev/null
cmp -s "$WORK/r1.csv" "$WORK/r2.csv" && ok "outputs.rate 1000 in the configuration: the same rows" \
    || not_ok "outputs.rate 1000 in the configuration: the same rows"
"$MECH" beam sim "$WORK/rate.json" -o "$WORK/r3.csv" --output-rate 0 2>/dev/null
cmp -s "$WORK/r0.csv" "$WORK/r3.csv" && ok "--output-rate 0 overrides it: every step" \
    || not_ok "--output-rate 0 overrides it: every step"
# HDF5: /history decimated, /records/hinge1 every step
if "$MECH" beam sim "$B/paper-4.5.json" -o "$WORK/r.h5" --format h5 --output-rate 100 2>/dev/null; then
    python3 - "$WORK/r.h5" <<'PY' && ok "HDF5: /history 201 rows at 100 rows/s, /records/hinge1 20001" || not_ok "HDF5: /history 201 rows at 100 rows/s, /records/hinge1 20001"
import subprocess, sys, re
def rows(d):
    t = subprocess.run(["h5dump", "-H", "-d", d, sys.argv[1]], capture_output=True, text=True).stdout
    m = re.search(r"DATASPACE\s+SIMPLE\s*\{\s*\(\s*(\d+)", t)
    return int(m.group(1)) if m else -1
sys.exit(0 if rows("/history") == 201 and rows("/records/hinge1") == 20001 else 1)
PY
else
    not_ok "HDF5: /history 201 rows at 100 rows/s, /records/hinge1 20001 (the run failed)"
fi
# bad rates: refused with the option or the key named, nothing written
check_fails "--output-rate -1 refused" "--output-rate -1: expected rows a second >= 0" \
    "$MECH" beam sim "$B/paper-4.5.json" -o "$WORK/bad.csv" --output-rate -1
sed 's/^  "solver": {/  "outputs": {"rate": -5},\n  "solver": {/' "$B/paper-4.5.json" >"$WORK/badrate.json"
check_fails "outputs.rate -5 refused, naming the file and key" "badrate.json: outputs.rate = -5: expected rows a second >= 0" \
    "$MECH" beam sim "$WORK/badrate.json" -o "$WORK/bad.csv"
sed 's/^  "solver": {/  "outputs": {"rate": "fast"},\n  "solver": {/' "$B/paper-4.5.json" >"$WORK/badrate2.json"
check_fails "outputs.rate not a number refused" "badrate2.json: outputs.rate: expected a number" \
    "$MECH" beam sim "$WORK/badrate2.json" -o "$WORK/bad.csv"
sed 's/^  "solver": {/  "outputs": {"every": 2},\n  "solver": {/' "$B/paper-4.5.json" >"$WORK/badrate3.json"
check_fails "an unknown outputs key refused" "badrate3.json: .*every" \
    "$MECH" beam sim "$WORK/badrate3.json" -o "$WORK/bad.csv"
check_fails "--output-rate belongs to sim" "--output-rate belongs to 'mech beam sim'" \
    "$MECH" beam freq "$B/paper-4.5.json" --output-rate 10
[ ! -e "$WORK/bad.csv" ] && ok "nothing written on refusal" || not_ok "nothing written on refusal"
# ---- outputs.events / --output-rate events: rows at the hinges' events (issue 17: the output rate is the user's) ----
# second method: beam_events.awk picks from the every-step response the rows "only" must hold (the first and last
# rows, where a hinge's |dtheta_j| > clearance changes, the row before a hinge's dtheta_j reverses)
for f in section-4.3:1:0.01 hinges-4:4:0.005; do
    n=${f%%:*} r=${f#*:}; nh=${r%%:*} cl=${r#*:}
    "$MECH" beam sim "$B/$n.json" -o "$WORK/e0-$n.csv" --summary "$WORK/e0-$n.json" 2>/dev/null
    "$MECH" beam sim "$B/$n.json" -o "$WORK/e1-$n.csv" --summary "$WORK/e1-$n.json" --output-rate events 2>/dev/null
    awk -v nh="$nh" -v c="$cl" -f "$TOP/tests/e2e/beam_events.awk" "$WORK/e0-$n.csv" >"$WORK/e2-$n.csv"
    rows=$(($(wc -l <"$WORK/e1-$n.csv") - 2))
    cmp -s "$WORK/e1-$n.csv" "$WORK/e2-$n.csv" && [ "$rows" -gt 100 ] \
        && ok "$n --output-rate events: the every-step rows at contact changes and turning points ($rows rows)" \
        || not_ok "$n --output-rate events: the every-step rows at contact changes and turning points ($rows rows)"
    # the summary counts them from every step, whatever the rows: onsets + ends + turns + first + last = rows
    python3 - "$WORK/e0-$n.json" "$WORK/e1-$n.json" "$rows" <<'PY' \
        && ok "$n: the same summary at events; its contact onsets and turning points account for the rows" \
        || not_ok "$n: the same summary at events; its contact onsets and turning points account for the rows"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
hs = a["hinges"]
onsets = sum(h["contact_onsets"] for h in hs)
# every hinge is out of contact at the start and (these runs) at the end: as many ends as onsets; events of two
# hinges can share a row, so the rows are at most the sum
n = 2 + 2 * onsets + sum(h["turning_points"] for h in hs)
sys.exit(0 if a == b and onsets > 0 and 0 < int(sys.argv[3]) <= n else 1)
PY
done
# "also": the rate's rows and the events' rows, in time order, each once
sed 's/^  "solver": {/  "outputs": {"rate": 100, "events": "also"},\n  "solver": {/' "$B/section-4.3.json" >"$WORK/also.json"
"$MECH" beam sim "$WORK/also.json" -o "$WORK/e3.csv" 2>/dev/null
"$MECH" beam sim "$B/section-4.3.json" -o "$WORK/e4.csv" --output-rate 100 2>/dev/null
sort -u -t, -k1,1g "$WORK/e4.csv" "$WORK/e2-section-4.3.csv" | grep -v '^[ts]' >"$WORK/e5.csv"
tail -n +3 "$WORK/e3.csv" | cmp -s - "$WORK/e5.csv" && [ "$(wc -l <"$WORK/e3.csv")" -gt "$(wc -l <"$WORK/e4.csv")" ] \
    && ok "outputs.events \"also\": the rows at 100 rows/s and at events, in time order, each once" \
    || not_ok "outputs.events \"also\": the rows at 100 rows/s and at events, in time order, each once"
# --output-rate R replaces the configuration's events, as in mech dock
"$MECH" beam sim "$WORK/also.json" -o "$WORK/e6.csv" --output-rate 100 2>/dev/null
cmp -s "$WORK/e4.csv" "$WORK/e6.csv" && ok "--output-rate 100 replaces outputs.events" \
    || not_ok "--output-rate 100 replaces outputs.events"
# HDF5: /history holds the same rows as the CSV at events
if "$MECH" beam sim "$B/section-4.3.json" -o "$WORK/e.h5" --format h5 --output-rate events 2>/dev/null; then
    /usr/bin/python3 - "$WORK/e.h5" "$WORK/e1-section-4.3.csv" <<'PY' && ok "HDF5 at events: /history is the CSV's rows bit for bit" || not_ok "HDF5 at events: /history is the CSV's rows bit for bit"
import h5py, sys   # Debian's (scripts/install-deps: python3-h5py), as test_outputs_h5.sh
h = h5py.File(sys.argv[1], "r")["/history"][()]
rows = [list(map(float, l.split(","))) for l in open(sys.argv[2]).read().splitlines()[2:]]
sys.exit(0 if len(h) == len(rows) and all(tuple(r) == tuple(x) for r, x in zip(h.tolist(), rows)) else 1)
PY
else
    not_ok "HDF5 at events: /history is the CSV's rows bit for bit (the run failed)"
fi
sed 's/^  "solver": {/  "outputs": {"events": "sometimes"},\n  "solver": {/' "$B/paper-4.5.json" >"$WORK/badev.json"
check_fails "outputs.events not one of its names refused, naming the file and key" \
    "badev.json: outputs.events: expected one of \"none\", \"also\", \"only\"" \
    "$MECH" beam sim "$WORK/badev.json" -o "$WORK/bad.csv"
check_fails "--output-rate neither a number nor events refused" "--output-rate: 'often' is not a finite number" \
    "$MECH" beam sim "$B/paper-4.5.json" -o "$WORK/bad.csv" --output-rate often
# a run that fails between two rows still ends its response with the last state it reached (held, written at the
# failure): diverging at step 2, a row every 3 steps, so the state of step 1 (t = 1e-4) is the held one
check_fails "a failing decimated run names its rows" "the 2 steps before it are written: 2 rows of the time response at outputs.rate" \
    "$MECH" beam sim "$B/baseline.json" --F0 1e300 --duration 0.01 --output-rate 3000 -o "$WORK/div.csv"
[ "$(tail -1 "$WORK/div.csv" | cut -d, -f1)" = 0.0001 ] && ok "its last row is the last state reached (t = 1e-4)" \
    || not_ok "its last row is the last state reached (t = 1e-4)"

finish

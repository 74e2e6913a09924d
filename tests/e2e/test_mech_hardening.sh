#!/bin/sh
# End-to-end tests of the simulators' hardening (issue 19): bounded reads (one size limit, special files refused
# before they fill the memory), strict JSON (no text after the document, no key twice), the catalogue's exact
# messages, outputs that never clobber, and clean interruption. Each refusal: exit != 0, one line naming the place,
# and a peak memory far below what the request would have taken (peak RSS from getrusage of the child).
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
HYST=${HYST:-$TOP/bin/hyst}
FIX=${FIXTURES:-$TOP/fixtures}
D=$FIX/mech/dock

# rss CMD...: runs CMD (stdout and stderr to $WORK/.out, $WORK/.err, at most 60 s) and prints "EXIT PEAK_KB"
rss() {
    python3 - "$@" <<'PY'
import os, resource, subprocess, sys
try:
    with open(os.environ['WORK'] + '/.out', 'w') as o, open(os.environ['WORK'] + '/.err', 'w') as e:
        rc = subprocess.run(sys.argv[1:], stdout=o, stderr=e, timeout=60).returncode
except subprocess.TimeoutExpired:
    rc = 'timeout'
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
}
export WORK
# refused NAME PATTERN MAX_KB CMD...: exit 1 or 2, one line on stderr matching PATTERN, peak RSS below MAX_KB
refused() {
    n=$1; pat=$2; lim=$3; shift 3
    set -- $(rss "$@")
    lines=$(wc -l <"$WORK/.err")
    if [ "$1" != 1 ] && [ "$1" != 2 ]; then not_ok "$n (exit $1)"; sed 's/^/    /' "$WORK/.err" | head -3
    elif [ "$lines" -ne 1 ]; then not_ok "$n ($lines lines on stderr)"; sed 's/^/    /' "$WORK/.err" | head -3
    elif ! grep -Eq -- "$pat" "$WORK/.err"; then not_ok "$n (stderr did not match '$pat')"; sed 's/^/    /' "$WORK/.err"
    elif [ "$2" -gt "$lim" ]; then not_ok "$n (peak RSS $2 kB > $lim kB)"
    else ok "$n"; fi
}
MAXKB=300000   # far below the gigabytes the refused requests would take, above a sanitizer build's own share

FR=$(ls "$FIX"/mech/friction/*.json | head -n 1)
BB=$FIX/mech/beam/baseline.json
S2=$D/s2-A.json

# ---- 2. one size limit for every file read whole; devices refused, FIFOs bounded ----
refused "dock: /dev/zero as scenario refused unread" "/dev/zero: is a device" $MAXKB "$MECH" dock /dev/zero
refused "pendulum: --unit-model /dev/zero refused" "/dev/zero: is a device" $MAXKB \
    "$MECH" pendulum decay --unit-model /dev/zero
cp -r "$D/models" "$WORK/models"
sed "s|\"spring\": *\"[^\"]*\"|\"spring\": \"/dev/zero\"|" "$D/s2-A.json" >"$WORK/lawzero.json"
if grep -q /dev/zero "$WORK/lawzero.json"; then
    refused "dock: a law path /dev/zero refused" "/dev/zero: is a device" $MAXKB "$MECH" dock "$WORK/lawzero.json"
fi
refused "HYST_READ_MAX: an oversized file refused from its size" "$(wc -c <"$D/s2-A.json") bytes, larger than the 1000-byte limit" \
    $MAXKB env HYST_READ_MAX=1000 "$MECH" dock "$D/s2-A.json" --out "$WORK/x"
# a file one byte over the limit (the old friction cap let 65 MiB through a 64 MiB limit)
head -c 1001 /dev/zero | tr '\0' ' ' >"$WORK/big.json"
refused "friction: one byte over the limit refused" "larger than the 1000-byte limit" $MAXKB \
    env HYST_READ_MAX=1000 "$MECH" friction "$WORK/big.json"
head -c 1000 /dev/zero | tr '\0' ' ' >"$WORK/edge.json"
check_fails "friction: exactly at the limit is read (then malformed)" "edge.json:[0-9]+:[0-9]+: malformed JSON" \
    env HYST_READ_MAX=1000 "$MECH" friction "$WORK/edge.json"
if mkfifo "$WORK/fifo" 2>/dev/null; then
    (head -c 3000000 /dev/zero >"$WORK/fifo" 2>/dev/null &)
    refused "dock: a FIFO is read up to the limit only" "fifo: larger than the 100000-byte limit" $MAXKB \
        env HYST_READ_MAX=100000 "$MECH" dock "$WORK/fifo"
fi
check_fails "hyst: a model /dev/zero refused" "/dev/zero: is a device" "$HYST" sim /dev/zero --protocol ramp

# ---- 6. strict JSON: text after the document, a key given twice ----
{ cat "$D/s2-A.json"; echo '{"init": {"closing_speed": 9}}'; } >"$WORK/trail.json"
check_fails "dock: text after the JSON object refused" "trail.json:[0-9]+:[0-9]+: text after the JSON document" \
    "$MECH" dock "$WORK/trail.json" --out "$WORK/t"
sed 's/^{/{"variant": "A", /' "$D/s2-A.json" >"$WORK/dup.json"
check_fails "dock: a duplicate key refused, naming it" "dup.json: \"variant\" appears twice" \
    "$MECH" dock "$WORK/dup.json" --out "$WORK/t"
B=$(ls "$FIX"/mech/beam/*.json | head -n 1)
{ cat "$B"; echo '[]'; } >"$WORK/btrail.json"
check_fails "beam: text after the JSON object refused" "btrail.json:[0-9]+:[0-9]+: text after the JSON document" \
    "$MECH" beam freq "$WORK/btrail.json"

# ---- 9. the decay start angle outside the unit's range: a clear error (and no leak under the sanitizer) ----
# one line on stderr: under the sanitizer build a leak report would add many (1176 bytes leaked before)
refused "pendulum decay --angle 1e308 names the option, nothing leaks" "--angle 1e\+308: .*outside the valid range" \
    $MAXKB "$MECH" pendulum decay --angle 1e308

# ---- 3. one run at a time in a folder; a rerun leaves nothing stale; unique temporaries ----
S2=$D/s2-A.json
F=$WORK/fold
"$MECH" dock "$S2" --out "$F" --duration 0.3 --step 1e-3 --no-plots -q
[ -f "$F/axial.csv" ] && [ -f "$F/summary.json" ] && ok "dock: a first run writes records" || not_ok "dock: a first run writes records"
check "dock: a rerun without records" "$MECH" dock "$S2" --out "$F" --duration 0.3 --step 1e-3 --no-plots --no-records -q
grep -q "removed 6 file(s) of an earlier run" "$WORK/.err" && ok "dock: the rerun says what it removed" || not_ok "dock: the rerun says what it removed"
[ ! -e "$F/axial.csv" ] && [ -f "$F/summary.json" ] && [ -f "$F/history.csv" ] \
    && ok "dock: no stale record beside the new summary" || not_ok "dock: no stale record beside the new summary"
[ -z "$(ls -A "$F" | grep -v -e '^history.csv$' -e '^pose.csv$' -e '^summary.json$')" ] && ok "dock: the folder holds this run only" \
    || not_ok "dock: the folder holds this run only ($(ls -A "$F" | tr '\n' ' '))"
# a second run into a folder in use is refused, naming the lock; the first one is not disturbed
python3 - "$MECH" "$S2" "$WORK/busy" <<'PY' && ok "dock: a second run into a folder in use is refused" || not_ok "dock: a second run into a folder in use is refused"
import os, subprocess, sys, time
mech, s2, d = sys.argv[1:]
a = subprocess.Popen([mech, "dock", s2, "--out", d, "--duration", "200", "--no-plots", "-q"])
for _ in range(200):
    if os.path.exists(d + "/.hystkit-lock"):
        break
    time.sleep(0.05)
b = subprocess.run([mech, "dock", s2, "--out", d, "--duration", "0.1", "--no-plots"], capture_output=True, text=True)
a.terminate(); a.wait()
ok = b.returncode == 1 and "in use by another run (process %d)" % a.pid in b.stderr and b.stderr.count("\n") == 1
ok = ok and a.returncode == -15 and not [f for f in os.listdir(d) if ".tmp" in f or "lock" in f]
if not ok:
    print("#", b.returncode, b.stderr, a.returncode, os.listdir(d))
sys.exit(0 if ok else 1)
PY

# ---- 4. interruption: temporaries removed, completed outputs kept, status of the signal ----
# (the runs that are interrupted are 200 s long, so that they are still running when the signal comes on a fast machine)
python3 - "$MECH" "$S2" "$WORK/intr" <<'PY' && ok "dock: SIGINT mid-run removes the temporaries and keeps the earlier outputs" || not_ok "dock: SIGINT mid-run removes the temporaries and keeps the earlier outputs"
import os, signal, subprocess, sys, time
mech, s2, d = sys.argv[1:]
subprocess.run([mech, "dock", s2, "--out", d, "--duration", "0.2", "--no-plots", "-q"], check=True)
before = open(d + "/summary.json").read()
a = subprocess.Popen([mech, "dock", s2, "--out", d, "--duration", "200", "--no-plots", "-q"])
for _ in range(200):   # until its temporaries exist
    if [f for f in os.listdir(d) if ".tmp" in f]:
        break
    time.sleep(0.05)
time.sleep(0.3)
a.send_signal(signal.SIGINT); a.wait()
left = [f for f in os.listdir(d) if ".tmp" in f or "lock" in f]
ok = a.returncode == -signal.SIGINT and not left and open(d + "/summary.json").read() == before
if not ok:
    print("#", a.returncode, left)
sys.exit(0 if ok else 1)
PY
sh -c '"$0" dock "$1" --out "$2" --duration 200 --no-plots -q & p=$!; sleep 1; kill -TERM $p; wait $p; exit $?' \
    "$MECH" "$S2" "$WORK/term"
check_num "dock: SIGTERM gives the shell status 128 + 15" $? 143 0

# ---- 5. figures go through the output checks ----
if command -v gnuplot >/dev/null 2>&1; then
    G=$WORK/figs; mkdir -p "$G"
    : >"$G/real.png"; ln -s real.png "$G/forces.png"; ln -s /dev/null "$G/loops.png"
    check "dock: figures at a link and at a device" "$MECH" dock "$S2" --out "$G" --duration 0.3 --step 1e-3 -q
    [ -L "$G/forces.png" ] && [ "$(head -c 4 "$G/real.png" | od -An -c | tr -d ' ')" = "211PNG" ] \
        && ok "dock: a link at a figure path stays, its target gets the figure" || not_ok "dock: a link at a figure path stays, its target gets the figure"
    [ -L "$G/loops.png" ] && [ -c /dev/null ] && ok "dock: a device at a figure path is written in place" \
        || not_ok "dock: a device at a figure path is written in place"
    FR=$(ls "$FIX"/mech/friction/*.json | head -n 1)
    cp "$FR" "$WORK/fig.png"
    check_fails "friction: a figure over its own input refused" "--plot .*fig.png: the figure would overwrite the input" \
        "$MECH" friction "$WORK/fig.png" -o "$WORK/r.csv" --plot "$WORK/fig.png"
    cmp -s "$FR" "$WORK/fig.png" && ok "friction: the input is intact" || not_ok "friction: the input is intact"
    check_fails "friction: a figure over the CSV refused" "the figure would overwrite the CSV output" \
        "$MECH" friction "$FR" -o "$WORK/r.png" --plot "$WORK/r.png"
fi
# two runs drawing the same figure at once: unique scripts and temporaries, both succeed (the old fixed-name
# script made one of them fail in 5 of 6 tries), nothing temporary left
if command -v gnuplot >/dev/null 2>&1; then
    python3 - "$MECH" "$BB" "$WORK/twin" <<'PY' && ok "beam: two runs drawing one figure at once both succeed" || not_ok "beam: two runs drawing one figure at once both succeed"
import os, subprocess, sys
mech, cfg, d = sys.argv[1:]
os.makedirs(d)
bad = []
for k in range(6):
    ps = [subprocess.Popen([mech, "beam", "sim", cfg, "--duration", "0.5", "-o", "%s/r%d.csv" % (d, i),
                            "--plot", d + "/fig.svg"], stderr=subprocess.PIPE) for i in range(2)]
    for p in ps:
        err = p.communicate()[1]
        if p.returncode != 0:
            bad.append(err.decode()[:200])
left = [f for f in os.listdir(d) if ".tmp" in f]
if bad or left or not open(d + "/fig.svg").read().rstrip().endswith("</svg>"):
    print("#", bad[:2], left)
    sys.exit(1)
PY
fi
# replacing an output keeps its mode
"$MECH" dock "$S2" --out "$WORK/mode" --duration 0.1 --step 1e-3 --no-plots -q
chmod 600 "$WORK/mode/summary.json"
"$MECH" dock "$S2" --out "$WORK/mode" --duration 0.1 --step 1e-3 --no-plots -q
check_num "dock: a replaced 600 output stays 600" "$(stat -c %a "$WORK/mode/summary.json")" 600 0


# ---- 1. requests that would eat the machine: refused before running, naming keys and numbers ----
# (beam sim streams its rows since, and the summary's loop analysis reads the hinge records back from a temporary
# file: what it needs is room on disk, checked like the CSV's; tests/e2e/test_beam_stream.sh)
refused "beam sim: the summary's temporary hinge records over the output limit refused" \
    "solver.duration 2 s / solver.dt 0.0001 s = 2e\+04 rows: the summary's temporary hinge records .* 320.0 kB, more than the 100.0 kB .*HYST_OUTPUT_MAX" \
    $MAXKB env HYST_OUTPUT_MAX=1e5 "$MECH" beam sim "$BB" -o - --summary "$WORK/b.json"
[ ! -e "$WORK/b.json" ] && ok "beam sim: nothing written on refusal" || not_ok "beam sim: nothing written on refusal"
refused "beam sim: 1e4 s with 4 hinges and --summary refused (6.4 GB of temporary records)" \
    "= 1e\+08 rows: the summary's temporary hinge records .* 6.4 GB" \
    $MAXKB env HYST_OUTPUT_MAX=1e9 "$MECH" beam sim "$FIX/mech/beam/hinges-4.json" --duration 1e4 --dt 1e-4 -o - \
    --summary "$WORK/b.json"
refused "beam sim: a CSV over the output limit refused" "-o would take up to 4.0 MB, more than the 100.0 kB" \
    $MAXKB env HYST_OUTPUT_MAX=1e5 "$MECH" beam sim "$BB" -o "$WORK/b.csv"
refused "dock: outputs over the output limit refused before running" \
    "duration 20 s, error-controlled \(2001 to 8e\+04 steps: .*\): the outputs would take at least 5.3 MB .*--no-records" \
    $MAXKB env HYST_OUTPUT_MAX=1e6 "$MECH" dock "$S2" --out "$WORK/big"
[ ! -e "$WORK/big/history.csv" ] && ok "dock: nothing written on refusal" || not_ok "dock: nothing written on refusal"
refused "dock: 1e8 steps refused (output size)" "= 1e\+08 steps: the outputs would take up to" $MAXKB \
    env HYST_OUTPUT_MAX=1e9 "$MECH" dock "$S2" --out "$WORK/big" --duration 1e4 --step 1e-4 --tolerance 0
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); r=d.setdefault('run',{}); r['step']=1e-4; r['sample']=1e-4; json.dump(d,open(sys.argv[2],'w'))" \
    "$FR" "$WORK/fs.json"
refused "friction: --duration meets run.sample's row limit too" "--duration 5000 s: 5e\+07 rows of run.sample = 0.0001 s, more than 1e7" \
    $MAXKB "$MECH" friction "$WORK/fs.json" --duration 5e3
refused "pendulum: --rk4 1e-12 refused before minutes of silence" "--rk4 1e-12 s: 2.5e\+13 steps over the 25 s simulated" \
    $MAXKB "$MECH" pendulum harmonic --rk4 1e-12
# progress on a terminal (forced here: HYST_PROGRESS=always), cleared before the report
HYST_PROGRESS=always "$MECH" dock "$S2" --out "$WORK/prog" --duration 0.5 --no-plots -q 2>"$WORK/prog.err"
grep -q "mech dock: .*%, .* s left" "$WORK/prog.err" && ok "dock: progress on a terminal" || not_ok "dock: progress on a terminal"
"$MECH" dock "$S2" --out "$WORK/prog" --duration 0.5 --no-plots -q 2>"$WORK/prog.err"
[ ! -s "$WORK/prog.err" ] && ok "dock: no progress when stderr is not a terminal" || not_ok "dock: no progress when stderr is not a terminal"

# ---- 6. wrong results with exit 0 are errors ----
check_fails "pendulum sweep: 3e9 frequencies refused (was: only the header)" "--f-step 0.001 Hz: 3e\+09 frequencies, at most 100000" \
    "$MECH" pendulum sweep --f-max 3e6 --f-step 1e-3
LONG=$WORK/$(head -c 1100 /dev/zero | tr '\0' 'd')
check_fails "dock: an --out over the path limit refused (was: cut, outputs elsewhere)" "--out: the folder name is [0-9]+ bytes long, at most 1023" \
    "$MECH" dock "$S2" --out "$LONG" -q
check_fails "beam sim: -o and --summary on one path refused" "-o and --summary name the same file" \
    "$MECH" beam sim "$BB" -o "$WORK/same" --summary "$WORK/same"

# ---- 7. no terminal control from a file reaches the terminal ----
sed 's/"name": *"soyuz-ms"/"name": "soy\\u001b[2Juz"/' "$S2" >"$WORK/esc.json"
cp -r "$D/models" "$WORK/" 2>/dev/null
"$MECH" dock "$WORK/esc.json" --out "$WORK/esc" --duration 0.2 --step 1e-3 --no-plots >"$WORK/esc.out" 2>&1
grep -q "soy?\[2Juz" "$WORK/esc.out" && ! grep -q "$(printf '\033')" "$WORK/esc.out" \
    && ok "dock: a vehicle name's escape sequence is printed as ?" || not_ok "dock: a vehicle name's escape sequence is printed as ?"

# ---- 8. messages name the key, the value and the valid range ----
sed 's/"mass": *[0-9.e+]*/"mass": 1e308/' "$S2" >"$WORK/m.json"
check_fails "dock: mass 1e308" "m.json: active.mass: 1e\+308 kg is outside the valid range \(0, 1e9\] kg" "$MECH" dock "$WORK/m.json" -q
sed 's/"closing_speed": *[0-9.e+]*/"closing_speed": 1e308/' "$S2" >"$WORK/v.json"
check_fails "dock: closing speed 1e308" "initial.closing_speed: 1e\+308 m/s is outside the valid range \[0, 10\] m/s" \
    "$MECH" dock "$WORK/v.json" -q
check_fails "dock: the step is 'step'" "s2-A.json: step: 0.1 s is too large .*valid range \(0, 0.01\] s" \
    "$MECH" dock "$S2" --step 0.1 -q
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d.setdefault('beam',{})['E']=1e308; json.dump(d,open(sys.argv[2],'w'))" \
    "$BB" "$WORK/E.json"
check_fails "beam: E 1e308" "beam.E = 1e\+308: outside the valid range \(0, 1e\+13\] Pa" "$MECH" beam freq "$WORK/E.json"
"$MECH" pendulum harmonic --periods 1 -o /dev/stdout 2>"$WORK/p.err" | head -n 1 >"$WORK/p.out"
grep -q "^t,phi1" "$WORK/p.out" && [ ! -s "$WORK/p.err" ] && ok "pendulum: -o /dev/stdout into a pipe" \
    || not_ok "pendulum: -o /dev/stdout into a pipe ($(cat "$WORK/p.err"))"

# ---- a signal while gnuplot draws: gnuplot is stopped with the run, so it cannot write the temporary figure after
# the clean-up removed it (the soak found forces.png.tmpXXXXXX left: gnuplot, not signalled, went on). A stand-in
# gnuplot marks that it started, waits 1 s and then writes its output; the run is stopped by SIGTERM meanwhile.
mkdir -p "$WORK/gpsig"
cat >"$WORK/slow-gnuplot" <<'GP'
#!/bin/sh
out=$(sed -n "s/^set output '\(.*\)'$/\1/p" "$1" | head -n 1)
touch "$SLOW_GP_MARK"
sleep 1
echo late >"$out"
GP
chmod +x "$WORK/slow-gnuplot"
SLOW_GP_MARK="$WORK/gpsig/started" HYST_GNUPLOT="$WORK/slow-gnuplot" "$MECH" beam sim "$BB" --duration 0.01 \
    -o "$WORK/gpsig/r.csv" --plot "$WORK/gpsig/fig.png" 2>/dev/null &
pid=$!
for _ in $(seq 100); do [ -e "$WORK/gpsig/started" ] && break; sleep 0.05; done
kill -TERM $pid; wait $pid; st=$?
sleep 1.5   # past the stand-in's write, had it lived
left=$(ls -A "$WORK/gpsig" | grep -v '^started$' | grep -v '^r.csv$' | tr '\n' ' ')
[ -e "$WORK/gpsig/started" ] && [ $st -eq 143 ] && [ -z "$left" ] \
    && ok "a signal while gnuplot draws: gnuplot stopped with the run, no temporary figure left" \
    || not_ok "a signal while gnuplot draws: status $st (expected 143), left: $left"

# ---- the soak: interrupted S2 runs (SOAK_RUNS, default 100), then nothing temporary left, every output parses ----
python3 "$TOP/tests/e2e/soak_dock.py" "$MECH" "$S2" "$WORK/soak" "${SOAK_RUNS:-100}" 19 >"$WORK/soak.log" 2>&1
st=$?; cat "$WORK/soak.log"
[ $st -eq 0 ] && ok "soak: interrupted dock runs leave no temporary and only complete outputs" \
    || not_ok "soak: interrupted dock runs leave no temporary and only complete outputs"

finish

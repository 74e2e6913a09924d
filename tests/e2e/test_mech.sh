#!/bin/sh
# End-to-end tests of the mech program (pendulum damper, spec 002 §4; docs/pendulum.md).
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
FIX=${FIXTURES:-$TOP/fixtures}

check "mech --help exits 0" "$MECH" --help
check "mech pendulum --help exits 0" "$MECH" pendulum --help
if "$MECH" pendulum --help | grep -q -- "--f-step"; then ok "help lists the sweep options"; else not_ok "help lists the sweep options"; fi
check_fails "unknown command is a usage error" "unknown command 'swing'" "$MECH" pendulum swing
"$MECH" pendulum harmonic --bogus >/dev/null 2>&1; rc=$?
if [ $rc -eq 2 ]; then ok "unknown option exits 2"; else not_ok "unknown option exits 2 (got $rc)"; fi
check_fails "non-numeric frequency" "--freq: 'fast' is not a finite number" "$MECH" pendulum harmonic --freq fast
check_fails "missing params file" "nope.json: cannot open" "$MECH" pendulum harmonic --params "$WORK/nope.json"
printf '{"format": "mech-pendulum", "k_torsion": -5}\n' >"$WORK/neg.json"
check_fails "negative stiffness is refused" "k_torsion = -5: expected a positive number" "$MECH" pendulum harmonic --params "$WORK/neg.json"
printf '{"format": "mech-pendulum",\n  "I3": 2,,\n}\n' >"$WORK/bad.json"
check_fails "malformed params name line:column" "bad.json:2:" "$MECH" pendulum decay --params "$WORK/bad.json"
check_fails "malformed unit model names line:column" "bad.json:2:[0-9]+: malformed JSON" "$MECH" pendulum decay --unit-model "$WORK/bad.json"
if [ -f "$FIX/models/pwl-constant.json" ]; then
    check_fails "a piecewise-linear unit model is refused" "needs a kinematic model" "$MECH" pendulum decay --unit-model "$FIX/models/pwl-constant.json"
fi
check "the full 12-term unit law runs" "$MECH" pendulum decay --unit-model "$FIX/models/paper-damper-full.json" --duration 0.2 -o "$WORK/full.csv"

# harmonic drive: 20 periods at 1.4 Hz with a 5-period soft start, 1000 samples per period
check "harmonic run" "$MECH" pendulum harmonic --params "$FIX/mech/pendulum-one.json" --freq 1.4 --periods 20 \
    --ramp 5 --samples 1000 -o "$WORK/h.csv"
n=$(wc -l <"$WORK/h.csv")
check_num "harmonic rows" "$n" 20002 0
head -1 "$WORK/h.csv" | grep -q '^t,phi1,phi2,phi3,alpha,alpha_dot,M,W_unit,W_in,E,A$' && ok "harmonic header" || not_ok "harmonic header"
# loop area of the last period (trapezoid of M d alpha) times f against the unit's work over that period / T
area=$(awk -F, 'NR>=19002 { if (NR>19002) a += 0.5*($7+m)*($5-x); m=$7; x=$5 } END { printf "%.9g", a }' "$WORK/h.csv")
pw=$(awk -F, 'NR==19002 {w0=$8} NR==20002 {printf "%.9g", ($8-w0)*1.4}' "$WORK/h.csv")
fa=$(awk -v a="$area" 'BEGIN{printf "%.9g", 1.4*a}')
check_num "steady power = frequency x loop area" "$fa" "$pw" 2e-3
# energy balance on the last row: W_in = E - E(0) + W_unit
bal=$(awk -F, 'NR==2{e0=$10} END{d=$9-($10-e0)-$8; if(d<0)d=-d; printf "%.3g", d}' "$WORK/h.csv")
check_num "energy balance W_in = dE + W_unit" "$bal" 0 1e-6

# the sweep point at 1.4 Hz agrees with the harmonic run
check "sweep run" "$MECH" pendulum sweep --f-min 0.2 --f-max 1.4 --f-step 0.6 --settle 15 --average 5 -o "$WORK/s.csv"
head -1 "$WORK/s.csv" | grep -q '^freq,P,W_cycle,A_running,alpha_min,alpha_max,phi3_amp,M_max,reversals,status$' \
    && ok "sweep header" || not_ok "sweep header"
ps=$(awk -F, '$1+0 > 1.39 && $1+0 < 1.41 {print $2}' "$WORK/s.csv")
check_num "sweep power at 1.4 Hz = harmonic run's" "$ps" "$pw" 5e-3
rows=$(grep -c ',ok$' "$WORK/s.csv")
check_num "sweep rows ok" "$rows" 3 0
# an abrupt start at the resonance leaves the unit's valid range: a warning and an out_of_range row, exit 0
check "sweep through the resonance" "$MECH" pendulum sweep --f-min 1.0 --f-max 1.2 --f-step 0.1 --ramp 0 -o "$WORK/r.csv"
grep -q 'out_of_range$' "$WORK/r.csv" && ok "out-of-range frequency reported" || not_ok "out-of-range frequency reported"
grep -q 'valid range' "$WORK/.err" && ok "out-of-range warning on stderr" || not_ok "out-of-range warning on stderr"
check_fails "harmonic run that leaves the range fails" "t = .*valid range" "$MECH" pendulum harmonic --freq 1.2 --periods 30

# free decay of the two-pendulum damper from 0.4 rad: swings shrink, stdout output
"$MECH" pendulum decay --params "$FIX/mech/pendulum-two.json" --duration 3 --dt 0.001 >"$WORK/d.csv" 2>"$WORK/.err" \
    && ok "decay run" || not_ok "decay run"
first=$(awk -F, 'NR==2{print $4}' "$WORK/d.csv")
check_num "decay starts at 0.4 rad" "$first" 0.4 1e-12
late=$(awk -F, 'NR>2002 {v=$4; if(v<0)v=-v; if(v>m)m=v} END{print m}' "$WORK/d.csv")
awk -v l="$late" 'BEGIN{exit !(l < 0.15)}' && ok "decay: |phi3| < 0.15 rad after 2 s" || not_ok "decay: |phi3| after 2 s is $late"
win=$(awk -F, 'END{print $9}' "$WORK/d.csv")
check_num "decay: no work put in" "$win" 0 0

# atomic output: a failing run leaves the earlier file untouched; inputs are never overwritten
cp "$WORK/s.csv" "$WORK/keep.csv"
"$MECH" pendulum harmonic --freq 1.2 --periods 30 -o "$WORK/keep.csv" 2>/dev/null
cmp -s "$WORK/s.csv" "$WORK/keep.csv" && ok "failed run keeps the earlier output" || not_ok "failed run keeps the earlier output"
cp "$FIX/mech/pendulum-one.json" "$WORK/p.json"
sed -i 's#"../models/paper-damper-reduced.json"#"'"$FIX"'/models/paper-damper-reduced.json"#' "$WORK/p.json"
check_fails "refuses to overwrite the params file" "refusing to overwrite" "$MECH" pendulum decay --params "$WORK/p.json" -o "$WORK/p.json"
check "params file with an absolute unit model path" "$MECH" pendulum decay --params "$WORK/p.json" --duration 0.1 -o "$WORK/x.csv"
finish

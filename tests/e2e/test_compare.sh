#!/bin/sh
# End-to-end tests of 'mech compare' (docs/compare.md, issue 45): S1-B compared with itself (zero error, zero lag, in
# CSV and from its HDF5 log), with itself 7.3 ms late (the lag within one sample of the measured record), with its
# force in kN (converted) and in mm (refused, the channel named); the report's files; a beam response with its
# hinge loop; bad input, each class refused with its file, line or key and exit 1 (2 for usage), nothing written
# over an input and an earlier report kept.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
FIX=${FIXTURES:-$TOP/fixtures}
cd "$WORK" || exit 1
# jget FILE EXPR: a value of the report (Python's json; EXPR indexes d)
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

check "mech dock S1-B (3 s, 1000 rows/s, csv+h5)" "$MECH" dock "$FIX/mech/dock/s1-B.json" --out run --duration 3 \
    --output-rate 1000 --no-plots --no-records --format csv+h5 -q
CH=head_axial,stroke,rel_x,limiter_f

# ---- a run compared with itself: zero error, zero lag ----
check "compare the run with itself" "$MECH" compare run run/history.csv --channels $CH --tol head_axial=0.01 -o self -q
for f in compare.json report.md overlay-1-head_axial.png overlay-2-stroke.png; do
    if [ -s "self/$f" ]; then ok "self: $f written"; else not_ok "self: $f missing"; fi
done
check_num "self: lag 0" "$(jget self/compare.json 'd["alignment"]["lag"]')" 0 1e-12
for k in 0 1 2; do
    check_num "self: channel $k NRMSE 0" "$(jget self/compare.json "d['channels'][$k]['nrmse']")" 0 0
    check_num "self: channel $k own lag 0" "$(jget self/compare.json "abs(d['channels'][$k]['lag'])")" 0 1e-12
done
check_eq() { if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1 (got '$2', expected '$3')"; fi; }
check_eq "self: head_axial passes its tolerance" "$(jget self/compare.json 'd["channels"][0]["verdict"]')" pass
check_eq "self: a flat channel (limiter_f) has no lag" "$(jget self/compare.json 'd["channels"][3]["lag"]')" None
check "compare the run's HDF5 log with its CSV history" "$MECH" compare run/log.h5 run/history.csv --channels $CH \
    -o selfh5 -q --no-plots
check_num "log.h5 against history.csv: NRMSE 0" "$(jget selfh5/compare.json 'max(c["nrmse"] for c in d["channels"])')" 0 0
check "a measured record in HDF5 (FILE.h5:/DSET)" "$MECH" compare run/history.csv run/log.h5:/history --channels $CH \
    -o meash5 -q --no-plots
check_num "history.csv against log.h5:/history: NRMSE 0" \
    "$(jget meash5/compare.json 'max(c["nrmse"] for c in d["channels"])')" 0 0

# ---- shifted by 7.3 ms: the lag within one sample of the measured record ----
awk -F, -v OFS=, 'NR <= 2 { print; next } { $1 = sprintf("%.9f", $1 + 0.0073); print }' run/history.csv > late.csv
check "compare with the run 7.3 ms late" "$MECH" compare run late.csv --channels $CH -o late -q --no-plots
lag=$(jget late/compare.json 'd["alignment"]["lag"]')
dt=$(jget late/compare.json 'd["grid"]["dt"]')
echo "# lag $lag s, one sample $dt s"
check_num "late: lag 7.3 ms within one sample" "$lag" 0.0073 "$(awk -v d="$dt" 'BEGIN { print d / 0.0073 }')"
check_num "late: head_axial's own lag 7.3 ms within one sample" "$(jget late/compare.json 'd["channels"][0]["lag"]')" \
    0.0073 "$(awk -v d="$dt" 'BEGIN { print d / 0.0073 }')"
check "event alignment" "$MECH" compare run late.csv --channels $CH --align event -o late-ev -q --no-plots
check_num "late, event: lag 7.3 ms within one sample" "$(jget late-ev/compare.json 'd["alignment"]["lag"]')" 0.0073 \
    "$(awk -v d="$dt" 'BEGIN { print d / 0.0073 }')"

# ---- units: kN converted, mm refused naming the channel ----
awk -F, -v OFS=, 'NR == 1 { print "time,Fax,x"; next } NR == 2 { print "s,kN,m"; next } { print $1, sprintf("%.17g", $5 / 1000), $26 }' \
    run/history.csv > kN.csv
cat > map.json <<'M'
{"format": "mech-compare-map", "time": "time", "channels": [
  {"measured": "Fax", "run": "head_axial", "tol": 0.01, "impact": true}, {"measured": "x", "run": "stroke"}]}
M
check "compare a record in kN through a map" "$MECH" compare run kN.csv --map map.json -o kN -q --no-plots
check_num "kN: NRMSE 0 after the conversion" "$(jget kN/compare.json 'd["channels"][0]["nrmse"]')" 0 1e-12
check_num "kN: factor 1000" "$(jget kN/compare.json 'd["channels"][0]["factor"]')" 1000 1e-15
if grep -q "^## Impacts" kN/report.md && [ "$(jget kN/compare.json 'len(d["channels"][0]["impacts"])')" -ge 1 ]; then
    ok "kN: the impact table"; else not_ok "kN: the impact table"; fi
# the impacts labelled by the run's contact flags: the largest head force is the head on the socket's bottom
check_eq "kN: the largest impact is the head on the bottom (the run's bottom_contact)" \
    "$(jget kN/compare.json 'max(d["channels"][0]["impacts"], key=lambda e: abs(e["peak_measured"]))["contacts_predicted"]')" \
    head-bottom
check "a window of the measured record" "$MECH" compare run kN.csv --map map.json --window 0.1,0.5 -o win -q --no-plots
check_num "window: the grid starts at 0.1 s" "$(jget win/compare.json 'max(0.1, d["grid"]["t_start"])')" 0.1 0
check_num "window: the grid ends by 0.5 s" "$(jget win/compare.json 'min(0.5, d["grid"]["t_end"])')" \
    "$(jget win/compare.json 'd["grid"]["t_end"]')" 0
check_fails "a window outside the records" "map.json: window 5 to 6 s: outside the records' overlap" \
    "$MECH" compare run kN.csv --map map.json --window 5,6 -o bad -q
check_fails "a window that is not T0,T1 (usage)" "--window 0.5: expected T0,T1" \
    "$MECH" compare run kN.csv --map map.json --window 0.5 -o bad -q
sed 's/"tol": 0.01, /"unit": "mm", /' map.json > map-mm.json
check_fails "unit mismatch refused, the channel named" \
    "^mech compare: map-mm.json: channels\[0\]: unit mismatch on channel 'Fax': the map says 'mm', the units row of kN.csv says 'kN'$" \
    "$MECH" compare run kN.csv --map map-mm.json -o bad -q
awk -F, -v OFS=, 'NR == 2 { $2 = "mm" } { print }' kN.csv > mm.csv
check_fails "a length against a force refused, the channel named" \
    "map.json: channels\[0\]: unit mismatch on channel 'Fax': measured in 'mm', the run's channel 'head_axial' in 'N'" \
    "$MECH" compare run mm.csv --map map.json -o bad -q

# ---- bad input: file, line or key named; exit 1 (2 for usage); nothing over an input; an earlier report kept ----
awk -F, -v OFS=, 'NR <= 2 { print; next } { $1 = sprintf("%.9f", $1 + 100); print }' run/history.csv > far.csv
check_fails "records that do not overlap in time" "run/history.csv and far.csv do not overlap in time" \
    "$MECH" compare run far.csv --channels $CH -o bad -q
sed 's/"run": "stroke"/"run": "strok"/' map.json > map-nochan.json
check_fails "a map naming a run channel that does not exist" \
    "^mech compare: map-nochan.json: channels\[1\].run: run/history.csv:1:1: found no column named 'strok'" \
    "$MECH" compare run kN.csv --map map-nochan.json -o bad -q
sed 's/"measured": "x"/"measured": "xx"/' map.json > map-nomeas.json
check_fails "a map naming a measured channel that does not exist" \
    "^mech compare: map-nomeas.json: channels\[1\].measured: kN.csv:1:1: found no column named 'xx'" \
    "$MECH" compare run kN.csv --map map-nomeas.json -o bad -q
awk 'NR == 10 { held = $0; next } NR == 11 { print; print held; next } { print }' kN.csv > back.csv
check_fails "time that goes back" "^mech compare: back.csv:11:1: found time .* expected time that does not go backwards" \
    "$MECH" compare run back.csv --map map.json -o bad -q
awk -F, -v OFS=, 'NR == 11 { $1 = prev } { prev = $1; print }' kN.csv > still.csv
check_fails "time that stands still" "^mech compare: still.csv:11: time .* on line 10, expected strictly increasing time" \
    "$MECH" compare run still.csv --map map.json -o bad -q
sed 's/"tol": 0.01/"tol": "0.01"/' map.json > map-str.json
check_fails "a key that is not a number" "^mech compare: map-str.json: channels\[0\].tol: expected a number$" \
    "$MECH" compare run kN.csv --map map-str.json -o bad -q
check_fails "--tol with a value that is not a number (usage, exit 2)" "--tol head_axial=abc: 'abc' is not a positive number" \
    "$MECH" compare run late.csv --channels $CH --tol head_axial=abc -o bad -q
"$MECH" compare run late.csv --channels $CH --tol head_axial=abc -o bad -q 2>/dev/null
check_eq "--tol abc: exit 2" "$?" 2
check_fails "a map that is not JSON" "^mech compare: map-broken.json:1:" sh -c \
    "printf '{\"format\": ' > map-broken.json; exec \"\$0\" compare run kN.csv --map map-broken.json -o bad -q" "$MECH"
check_fails "no second operand" "missing MEASURED" "$MECH" compare run -o bad --channels $CH
check_fails "standard input refused" "standard input cannot be RUN or MEASURED" sh -c \
    "exec \"\$0\" compare run - --channels $CH -o bad < kN.csv" "$MECH"
if [ -e bad ]; then not_ok "nothing written by the refused runs (bad/ exists)"; else ok "nothing written by the refused runs"; fi
mkdir over && cp kN.csv over/report.md && cp kN.csv kN-keep.csv
check_fails "an output over the measured record refused" "over/report.md: refusing to overwrite an input file" \
    "$MECH" compare run over/report.md --map map.json -o over -q
if cmp -s over/report.md kN-keep.csv && [ ! -e over/compare.json ]; then ok "the measured record untouched, nothing written"
else not_ok "the measured record changed or an output written"; fi
cp kN/compare.json kN-earlier.json
check_fails "a failed comparison into an earlier report's folder" "do not overlap" \
    "$MECH" compare run far.csv --channels $CH -o kN -q
if cmp -s kN/compare.json kN-earlier.json; then ok "the earlier report kept"; else not_ok "the earlier report changed"; fi

# ---- a beam response with a hinge loop ----
B=$FIX/mech/beam/hinges-4.json
check "mech beam sim (model)" "$MECH" beam sim "$B" --iterated --duration 0.5 -o beam-model.csv
check "mech beam sim (clearance 0.004: 'measured')" "$MECH" beam sim "$B" --iterated --duration 0.5 --clearance 0.004 \
    -o beam-meas.csv
cat > beam-map.json <<'M'
{"format": "mech-compare-map", "align": "none", "channels": [{"measured": "w_tip", "tol": 0.05},
 {"measured": "dtheta_1"}, {"measured": "M_1"}], "loops": [{"name": "hinge1", "q": "dtheta_1", "Q": "M_1"}]}
M
check "compare the beam responses with the hinge loop" "$MECH" compare beam-model.csv beam-meas.csv --map beam-map.json \
    -o beam -q
if [ -s beam/loop-1-hinge1.png ] && grep -q "^## Loops" beam/report.md; then ok "beam: the loop section and figure"
else not_ok "beam: the loop section and figure"; fi
check_num "beam: the loop's measured work is the trapezoid sum of M_1 d(dtheta_1) on the grid" \
    "$(jget beam/compare.json 'd["loops"][0]["work_measured"]')" \
    "$(python3 -c '
import csv, json
d = json.load(open("beam/compare.json")); g = d["grid"]
rows = [r for r in csv.reader(open("beam-meas.csv"))][2:]
t = [float(r[0]) for r in rows]; q = [float(r[4]) for r in rows]; Q = [float(r[5]) for r in rows]
import bisect
def at(v, x):
    i = min(max(bisect.bisect_right(t, x) - 1, 0), len(t) - 2); w = (x - t[i]) / (t[i + 1] - t[i])
    return v[i] + w * (v[i + 1] - v[i])
ts = [g["t_start"] + i * g["dt"] for i in range(g["samples"])]; ts[-1] = min(ts[-1], g["t_end"])
qs = [at(q, x) for x in ts]; Qs = [at(Q, x) for x in ts]
print(sum(0.5 * (Qs[i] + Qs[i + 1]) * (qs[i + 1] - qs[i]) for i in range(len(ts) - 1)))')" 1e-9
# a measured tip acceleration against the run's tip deflection differentiated twice (the unit test checks the
# numbers against a closed form; here the command's path and the unit)
awk -F, -v OFS=, 'NR == 1 { print "t,acc"; next } NR == 2 { print "s,m/s^2"; next }
    { t[NR] = $1; w[NR] = $2 } END { for (i = 4; i < NR; i++) { h = t[i] - t[i-1]; k = t[i+1] - t[i]
      print t[i], 2 * (h * w[i+1] - (h + k) * w[i] + k * w[i-1]) / (h * k * (h + k)) } }' beam-meas.csv > acc.csv
cat > acc-map.json <<'M'
{"format": "mech-compare-map", "align": "none", "channels": [{"measured": "acc", "run": "w_tip", "derivative": 2}]}
M
check "compare a measured tip acceleration with the run's w_tip, differentiated" "$MECH" compare beam-meas.csv acc.csv \
    --map acc-map.json -o acc -q --no-plots
check_eq "acceleration: compared in m/s^2" "$(jget acc/compare.json 'd["channels"][0]["unit"]')" "m/s^2"
check_num "acceleration: the same run's, NRMSE 0 up to awk's 6 digits" "$(jget acc/compare.json 'd["channels"][0]["nrmse"]')" 0 1e-5

# ---- the sensor's anti-alias filter on the prediction (map "filter"): the virtual shaker test of the hysteretic
# hinge (fixtures/mech/calib/beam-hyst-meas: 4th-order Butterworth at 250 Hz, clock offsets 11.2 and 10.9 ms, gains
# 1.005 and 0.996, undone by the map's scale) against the model at its hidden law_scale 0.8
CAL=$FIX/mech/calib
python3 - "$CAL/beam-hyst.json" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
d["hinges"][0]["law_scale"] = 0.8
d["hinges"][0]["model"] = os.path.join(os.path.dirname(sys.argv[1]), d["hinges"][0]["model"])
json.dump(d, open("hyst-hidden.json", "w"))
for name, filt in (("map-filter.json", True), ("map-nofilter.json", False)):
    m = {"format": "mech-compare-map", "channels": [{"measured": "tip", "run": "w_tip", "scale": 1 / 1.005},
                                                     {"measured": "hinge_rotation", "run": "dtheta_1", "scale": 1 / 0.996}]}
    if filt:
        m["filter"] = {"order": 4, "cutoff": 250}
    json.dump(m, open(name, "w"))
PY
check "mech beam sim at the hidden law_scale" "$MECH" beam sim hyst-hidden.json -o hyst-run.csv
check "compare with the acquisition's filter on the prediction" "$MECH" compare hyst-run.csv "$CAL/beam-hyst-meas.csv" \
    --map map-filter.json -o filt -q --no-plots
check "compare without it" "$MECH" compare hyst-run.csv "$CAL/beam-hyst-meas.csv" --map map-nofilter.json -o nofilt -q \
    --no-plots
# each channel's own lag is its hidden clock offset with the filter (within a tenth of a 1 ms sample), and that plus
# the filter's DC delay without it: 1 / (wa sin(pi/8)), wa = 2 fs tan(pi 250 / fs) at fs = 20 kHz, 1.661 ms
DELAY=$(python3 -c 'import math; print(1 / (2 * 20000 * math.tan(math.pi * 250 / 20000) * math.sin(math.pi / 8)))')
check_num "filter: tip's lag is its clock offset 11.2 ms" "$(jget filt/compare.json 'd["channels"][0]["lag"]')" 0.0112 0.009
check_num "filter: hinge_rotation's lag is its clock offset 10.9 ms" "$(jget filt/compare.json 'd["channels"][1]["lag"]')" \
    0.0109 0.009
check_num "no filter: tip's lag is late by the filter's delay" "$(jget nofilt/compare.json 'd["channels"][0]["lag"]')" \
    "$(python3 -c "print(0.0112 + $DELAY)")" 0.009
check_num "no filter: hinge_rotation's lag is late by the filter's delay" \
    "$(jget nofilt/compare.json 'd["channels"][1]["lag"]')" "$(python3 -c "print(0.0109 + $DELAY)")" 0.009
# aligned on the tip: its NRMSE is the record's noise floor (noise 1e-4 m over its range) within 5 %
check_num "filter: tip's NRMSE at the noise floor" "$(jget filt/compare.json 'd["channels"][0]["nrmse"]')" \
    "$(jget filt/compare.json '1e-4 / d["channels"][0]["norm"]')" 0.05
cat > map-nyq.json <<'M'
{"format": "mech-compare-map", "channels": [{"measured": "tip", "run": "w_tip", "filter": {"order": 4, "cutoff": 500}}]}
M
check_fails "a filter's cut-off at the record's Nyquist frequency, the key named" \
    "^mech compare: map-nyq.json: channels\[0\].filter.cutoff: 500 Hz, at or above the record's Nyquist frequency 500 Hz" \
    "$MECH" compare hyst-run.csv "$CAL/beam-hyst-meas.csv" --map map-nyq.json -o nyq -q --no-plots
printf '{"format": "mech-compare-map", "filter": {"order": 3.5, "cutoff": 100}, "channels": [{"measured": "tip"}]}\n' \
    >map-order.json
check_fails "a filter order that is not an integer, the key named" \
    "^mech compare: map-order.json: filter.order: expected an integer" \
    "$MECH" compare hyst-run.csv "$CAL/beam-hyst-meas.csv" --map map-order.json -o ord -q --no-plots
finish

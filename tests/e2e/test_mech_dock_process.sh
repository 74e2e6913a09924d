#!/bin/sh
# End-to-end test of the whole docking process (issue 18; docs/dock-process.md): `mech dock` on the shipped S1-B
# scenario to 400 s ends with the sequencer at "end" after capture, absorption, retraction, alignment and closed
# planes, FrT1's stroke restored by the pushers; summary.json carries the sequence and the process figures, the
# history the process channels; a capture-phase scenario keeps its columns; a process key without "process" and a
# drive speed of the wrong sign are refused naming the file and the key, before any output. Variant C's movable
# limiter: its summary object and channels; the stroke rule refused.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
FIX=${FIXTURES:-$TOP/fixtures}
D=$FIX/mech/dock

jstr() { sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\"\([^\"]*\)\".*/\1/p" "$2" | head -n 1; }
jnum() { sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\([-0-9.eE+]*\).*/\1/p" "$2" | head -n 1; }

check "S1-B through the whole process" "$MECH" dock "$D/s1-400-B.json" --out "$WORK/b" --no-plots --no-records -q
S=$WORK/b/summary.json
[ "$(jstr final_state "$S")" = end ] && ok "the sequencer ends at \"end\"" || not_ok "final state $(jstr final_state "$S")"
for st in contact absorb retract align closed end; do
    grep -q "\"to\":[[:space:]]*\"$st\"" "$S" && ok "sequence reaches $st" || not_ok "sequence reaches $st"
done
te=$(jnum t_end "$S")
awk -v t="$te" 'BEGIN { exit !(t > 240 && t <= 400) }' && ok "process time $te s (> 4 min, spec 001 §1.1)" ||
    not_ok "process time $te s"
check_num "FrT1 stroke restored by the pushers" "$(jnum frt1_slip_end "$S")" 0 1e-4
r=$(jnum energy_residual_relative "$S")
awk -v r="$r" 'BEGIN { exit !(r < 0.01) }' && ok "energy residual $r of initial + drive work < 1 %" || not_ok "energy residual $r"
head -n 1 "$WORK/b/history.csv" | grep -q 'seq_state' && ok "history has the process channels" ||
    not_ok "history has the process channels"
# a run that docks reports no fault (docs/dock-process.md §2a), and its docked state checks from pose.csv
tr -d '\n\t ' <"$S" | grep -q '"fault":null' && ok "S1-B docks with no fault" || not_ok "S1-B reports a fault"
if ${PY:-python3} "$TOP/tests/e2e/dock_docked_check.py" "$D/s1-400-B.json" "$WORK/b" >"$WORK/chk" 2>&1; then
    ok "S1-B docked state: roll, tilt, rod gaps from pose.csv = history and summary ($(grep -c '^ok' "$WORK/chk") checks)"
else
    not_ok "S1-B docked state from pose.csv"; grep -v '^ok' "$WORK/chk" | sed 's/^/    /'
fi

# a capture-phase run keeps today's columns (no process channels)
check "S1-B capture phase" "$MECH" dock "$D/s1-B.json" --out "$WORK/c" --no-plots --no-records -q
head -n 1 "$WORK/c/history.csv" | grep -q 'seq_state' && not_ok "capture-phase history without process channels" ||
    ok "capture-phase history without process channels"

# the stand option with its cover law by path (laws.cover): the element "cover" writes a bench record, and hyst loops
# on it gives back the work the simulator booked for it (0.5 s: the head-bottom impacts and the first rebounds)
HYST=${HYST:-$TOP/bin/hyst}
check "S1-B on the stand" "$MECH" dock "$D/s1-stand-B.json" --duration 0.5 --out "$WORK/st" --no-plots -q
[ -s "$WORK/st/cover.csv" ] && head -n 2 "$WORK/st/cover.csv" | tr '\n' ' ' | grep -q '^t,q,Q s,m,N' &&
    ok "cover.csv: a t, q, Q record in m and N" || not_ok "cover.csv: a t, q, Q record in m and N"
[ ! -e "$WORK/c/cover.csv" ] && ok "no cover record without the stand" || not_ok "no cover record without the stand"
check "hyst loops on the cover record" "$HYST" loops "$WORK/st/cover.csv" --json "$WORK/lc.json" -q
wc=$(tr -d ' \n\t' <"$WORK/st/summary.json" | grep -o '"name":"cover"[^}]*' | sed -n 's/.*"work":\([-0-9.eE+]*\).*/\1/p')
check_num "cover work (simulator) = hyst loops total energy" "$(jnum total_energy "$WORK/lc.json")" "$wc" 1e-6

# bad input: refused before the run, naming the file and the key
cp -r "$D/models" "$WORK/models"
sed '0,/{/s//{ "drive": {"speed": 0.002},/' "$D/s1-B.json" >"$WORK/noproc.json"
check_fails "a drive section without process" "noproc.json: drive: given, but the scenario has no \"process\"" \
    "$MECH" dock "$WORK/noproc.json" --out "$WORK/n1"
[ ! -e "$WORK/n1/summary.json" ] && ok "nothing written for the refused scenario" || not_ok "nothing written"
sed '0,/{/s//{ "drive": {"speed": -0.0012},/' "$D/s1-400-B.json" >"$WORK/neg.json"
check_fails "a retraction speed of the wrong sign" "neg.json: drive.speed = -0.0011.*expected > 0" \
    "$MECH" dock "$WORK/neg.json" --out "$WORK/n2"

# variant C (docs/dock-process.md §8.5): S1 into the short cone to 100 s, the movable limiter on the cone wall after
# capture; summary.json says "C" and carries the limiter's object, the history its stroke and guide friction
check "S1-C to 100 s" "$MECH" dock "$D/s1-400-C.json" --duration 100 --out "$WORK/cc" --no-plots --no-records -q
S=$WORK/cc/summary.json
[ "$(jstr variant "$S")" = C ] && ok "summary says variant C" || not_ok "variant $(jstr variant "$S")"
grep -q '"contact_before_capture":[[:space:]]*false' "$S" && ok "the limiter touches after capture" ||
    not_ok "the limiter touches after capture"
fc=$(jnum first_contact "$S")
awk -v t="$fc" 'BEGIN { exit !(t > 30 && t < 100) }' && ok "first limiter contact during the retraction ($fc s)" ||
    not_ok "first limiter contact $fc"
head -n 1 "$WORK/cc/history.csv" | grep -q 'limiter_x,limiter_guide_f' && ok "history has limiter_x, limiter_guide_f" ||
    not_ok "history has the limiter channels"
# the stroke rule refused before the run, naming the file and the key
sed '0,/{/s//{ "limiter": {"stroke": 0.15},/' "$D/s1-400-C.json" >"$WORK/short.json"
check_fails "a limiter stroke below the full-contact gap" "short.json: limiter.stroke: 0.15 m does not exceed" \
    "$MECH" dock "$WORK/short.json" --out "$WORK/n3"
[ ! -e "$WORK/n3/summary.json" ] && ok "nothing written for the refused scenario" || not_ok "nothing written"
finish

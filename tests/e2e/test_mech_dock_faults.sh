#!/bin/sh
# The fault monitor of the docking process (issue 44 item 3; docs/dock-process.md §2a): each shipped fault scenario
# (fixtures/mech/dock/fault-*.json) ends in its named failure state with the fault's time, reason and values in
# summary.json and on the console; a docking run (S1-400-B, in test_mech_dock_process.sh) reports none. The docked
# state checked from the outputs (tests/e2e/dock_docked_check.py): roll, tilt and rod gaps computed from pose.csv and
# the pusher geometry equal the history's channels at every row and the summary's values at closure and at the
# fault; the check fails on a summary whose roll is wrong. Bad "faults" keys are refused naming the key.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
FIX=${FIXTURES:-$TOP/fixtures}
D=$FIX/mech/dock
PY=${PY:-python3}
CHECK=$TOP/tests/e2e/dock_docked_check.py

jstr() { sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\"\([^\"]*\)\".*/\1/p" "$2" | head -n 1; }
# (label, scenario, outdir) => the docked-state check's verdict, its failing lines shown
docked() {
    if "$PY" "$CHECK" "$2" "$3" >"$WORK/.chk" 2>&1; then ok "$1: $(grep -c '^ok' "$WORK/.chk") checks from pose.csv"
    else not_ok "$1"; grep -v '^ok' "$WORK/.chk" | sed 's/^/    /' | head -20; fi
}

# (fault, state, name, words of the console line)
for f in "jam fail-jam retraction-jam FrT2-slipped" "travel fail-travel end-of-travel reached-the-sensor" \
         "misaligned fail-misaligned alignment-not-reached roll" \
         "reopen fail-reopen planes-reopened largest-rod-gap"; do
    set -- $f
    k=$1 st=$2 name=$(echo "$3" | tr - ' ') words=$(echo "$4" | tr - ' ')
    "$MECH" dock "$D/fault-$k-B.json" --out "$WORK/$k" --no-plots --no-records >"$WORK/$k.out" 2>&1
    S=$WORK/$k/summary.json
    [ "$(jstr final_state "$S")" = "$st" ] && ok "fault-$k-B ends in $st" ||
        not_ok "fault-$k-B ends in $st (got $(jstr final_state "$S"))"
    nm=$(echo "$name" | tr -d ' ')
    tr -d '\n\t ' <"$S" | grep -q "\"fault\":{\"name\":\"$nm\",\"state\":\"$st\",\"t\":[0-9.]" &&
        ok "fault-$k-B: summary names the fault \"$name\" with its time" || not_ok "fault-$k-B: summary's fault object"
    grep -q "\"reason\":[[:space:]]*\"$name" "$S" && grep -q '"values":' "$S" && ok "fault-$k-B: reason and values" ||
        not_ok "fault-$k-B: reason and values"
    grep -q "FAULT at .*$words" "$WORK/$k.out" && ok "fault-$k-B: the console line says it" ||
        not_ok "fault-$k-B: console line ($(grep FAULT "$WORK/$k.out"))"
    col=$(head -n 1 "$WORK/$k/history.csv" | tr ',' '\n' | grep -n '^fault$' | cut -d: -f1)
    tail -n 1 "$WORK/$k/history.csv" | awk -F, -v c="$col" '{ exit !($c > 0) }' &&
        ok "fault-$k-B: the history's last row has the fault" || not_ok "fault-$k-B: history's fault"
    docked "fault-$k-B docked state" "$D/fault-$k-B.json" "$WORK/$k"
done

# the check fails when the summary is wrong: the roll at the fault of fault-misaligned-B off by 1e-6 rad
sed 's/\("roll":[[:space:]]*\)0\.1/\10.100001/' "$WORK/misaligned/summary.json" >"$WORK/bad.json"
cmp -s "$WORK/bad.json" "$WORK/misaligned/summary.json" && not_ok "the doctored summary differs" ||
    ok "the doctored summary differs"
cp "$WORK/bad.json" "$WORK/misaligned/summary.json"
if "$PY" "$CHECK" "$D/fault-misaligned-B.json" "$WORK/misaligned" >"$WORK/.chk" 2>&1; then
    not_ok "the docked-state check fails on a wrong roll in the summary"
else
    grep -q "^not ok .*roll" "$WORK/.chk" && ok "the docked-state check fails on a wrong roll in the summary" ||
        not_ok "the docked-state check names the roll"
fi

# bad input: refused before the run, naming the file and the key
cp -r "$D/models" "$WORK/models"
sed '0,/{/s//{ "faults": {"travel": 0.3},/' "$D/s1-B.json" >"$WORK/noproc.json"
check_fails "a faults section without process" "noproc.json: faults: given, but the scenario has no \"process\"" \
    "$MECH" dock "$WORK/noproc.json" --out "$WORK/n1"
sed 's/"travel": 0.3/"travel": -0.3/' "$D/fault-travel-B.json" >"$WORK/neg.json"
check_fails "a negative travel" "neg.json: faults.travel" "$MECH" dock "$WORK/neg.json" --out "$WORK/n2"
sed 's/"travel": 0.3/"travle": 0.3/' "$D/fault-travel-B.json" >"$WORK/typo.json"
check_fails "an unknown faults key" 'typo.json: faults."travle": unknown key' \
    "$MECH" dock "$WORK/typo.json" --out "$WORK/n3"
[ ! -e "$WORK/n2/summary.json" ] && [ ! -e "$WORK/n3/summary.json" ] &&
    ok "nothing written for the refused scenarios" ||
    not_ok "nothing written for the refused scenarios"
finish

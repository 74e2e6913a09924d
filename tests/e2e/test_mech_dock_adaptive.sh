#!/bin/sh
# End-to-end tests of 'mech dock' with error-controlled steps (integration.tolerance, which the shipped scenarios
# carry; docs/dock.md §6b): S1-A and S2-B captured with the energy residual < 0.1 % in a quarter of the fixed run's steps or fewer, the element records
# written at every accepted step (hyst loops gives back the booked work, hyst replay drives each element through the
# same committed sequence: NRMSE 0), and a bad tolerance refused naming the key. (lib.sh's check uses $n: the loop
# variable is sc.)
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
HYST=${HYST:-$TOP/bin/hyst}
FIX=${FIXTURES:-$TOP/fixtures}
D=$FIX/mech/dock

jnum() { sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\([-0-9.eE+]*\).*/\1/p" "$2" | head -n 1; }
jbool() { sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\([a-z]*\).*/\1/p" "$2" | head -n 1; }
ework() { tr -d ' \n\t' <"$2" | grep -o "\"name\":\"$1\"[^}]*" | sed -n 's/.*"work":\([-0-9.eE+]*\).*/\1/p'; }

# the shipped scenarios carry integration.tolerance 1e-6 (their law files are found relative to the scenario: copy
# the models too, for the variants made below)
cp -r "$D/models" "$WORK/models"
for sc in s1-A s2-B; do
    grep -q '"tolerance": 1e-06' "$D/$sc.json" && ok "$sc ships error-controlled" || not_ok "$sc ships error-controlled"
    cp "$D/$sc.json" "$WORK/$sc.json"
done

for sc in s1-A s2-B; do
    check "$sc error-controlled runs" "$MECH" dock "$WORK/$sc.json" --out "$WORK/o$sc" --no-plots -q
    S=$WORK/o$sc/summary.json
    [ "$(jbool captured "$S")" = true ] && ok "$sc captures" || not_ok "$sc captures"
    res=$(jnum residual_max_percent "$S")
    awk -v r="$res" 'BEGIN { exit !(r < 0.1) }' && ok "$sc energy residual $res % < 0.1 %" || not_ok "$sc energy residual $res %"
    steps=$(jnum steps "$S")
    awk -v s="$steps" 'BEGIN { exit !(s < 20000) }' && ok "$sc: $steps steps (fixed 0.25 ms: 80 000)" ||
        not_ok "$sc: $steps steps (fixed 0.25 ms: 80 000)"
    el=axial; law=axial-A.json
    [ "$sc" = s2-B ] && el=spring1 && law=lateral-spring.json
    check_num "$sc $el record has every accepted step" "$(($(wc -l <"$WORK/o$sc/$el.csv") - 2))" $((steps + 1)) 0
    check "$sc hyst loops on the $el record" "$HYST" loops "$WORK/o$sc/$el.csv" --json "$WORK/l$sc.json" -q
    check_num "$sc $el work (simulator) = hyst loops total energy" "$(jnum total_energy "$WORK/l$sc.json")" \
        "$(ework $el "$S")" 1e-6
    check "hyst replay of the $sc $el record" "$HYST" replay "$D/models/$law" "$WORK/o$sc/$el.csv" --json "$WORK/r$sc.json"
    check_num "$sc replay NRMSE of the $el record = 0" "$(jnum nrmse "$WORK/r$sc.json")" 0 1e-12
done

sed 's/"tolerance": 1e-06/"tolerance": 0.5/' "$D/s1-A.json" >"$WORK/bad.json"
"$MECH" dock "$WORK/bad.json" --out "$WORK/obad" --no-plots -q >"$WORK/bad.out" 2>&1
check_num "a tolerance out of range exits 1" $? 1 0
grep -q 'bad.json: integration.tolerance = 0.5: expected 0 (fixed steps of `step`) or 1e-10 .. 1e-2' "$WORK/bad.out" &&
    ok "the message names the file, the key, the value and the range" || not_ok "message: $(cat "$WORK/bad.out")"
check_fails "--tolerance out of range: usage error naming the range" "--tolerance 0.5: expected 0 \\(fixed steps of step\\) or 1e-10 .. 1e-2" \
    "$MECH" dock "$D/s1-A.json" --tolerance 0.5 --out "$WORK/obad2"
# --tolerance 0 restores the fixed 0.25 ms steps of the former shipped runs
check "S1-A with --tolerance 0" "$MECH" dock "$D/s1-A.json" --tolerance 0 --duration 1 --no-plots --no-records -q \
    --out "$WORK/ofix"
check_num "--tolerance 0: fixed steps (1 s / 0.25 ms)" "$(jnum steps "$WORK/ofix/summary.json")" 4000 0
jstr() { sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\"\([^\"]*\)\".*/\1/p" "$2" | head -n 1; }
[ "$(jstr method "$WORK/ofix/summary.json")" = fixed ] && ok "the summary says fixed steps" || not_ok "method of a fixed run"
# --method: the stepper of the error-controlled steps; the summary says which ran (docs/dock.md §6b)
for m in dopri5 rk43; do
    check "S1-A 1 s with --method $m" "$MECH" dock "$D/s1-A.json" --method $m --duration 1 --no-plots --no-records -q \
        --out "$WORK/om$m"
    [ "$(jstr method "$WORK/om$m/summary.json")" = $m ] && ok "the summary says $m" || not_ok "summary method for $m"
done
check_fails "--method unknown: usage error listing the steppers" "--method 'rk5': expected dopri5 or rk43" \
    "$MECH" dock "$D/s1-A.json" --method rk5 --out "$WORK/obad3"
sed 's/"tolerance": 1e-06/"tolerance": 1e-06, "method": "euler"/' "$D/s1-A.json" >"$WORK/badm.json"
"$MECH" dock "$WORK/badm.json" --out "$WORK/obadm" --no-plots -q >"$WORK/badm.out" 2>&1
check_num "an unknown integration.method exits 1" $? 1 0
grep -q 'badm.json: integration.method: expected one of "rk43", "dopri5"' "$WORK/badm.out" &&
    ok "the message names the file, the key and the choices" || not_ok "message: $(cat "$WORK/badm.out")"
# --control: the step-size control; the summary says which ran (fixed for fixed steps)
[ "$(jstr control "$WORK/ofix/summary.json")" = fixed ] && ok "the summary's control of a fixed run" ||
    not_ok "control of a fixed run"
for k in standard pi; do
    check "S1-A 1 s with --control $k" "$MECH" dock "$D/s1-A.json" --control $k --duration 1 --no-plots --no-records \
        -q --out "$WORK/oc$k"
    [ "$(jstr control "$WORK/oc$k/summary.json")" = $k ] && ok "the summary says $k" || not_ok "summary control for $k"
done
check_fails "--control unknown: usage error listing the controls" "--control 'pid': expected standard or pi" \
    "$MECH" dock "$D/s1-A.json" --control pid --out "$WORK/obad4"
sed 's/"tolerance": 1e-06/"tolerance": 1e-06, "control": "PI"/' "$D/s1-A.json" >"$WORK/badc.json"
"$MECH" dock "$WORK/badc.json" --out "$WORK/obadc" --no-plots -q >"$WORK/badc.out" 2>&1
check_num "an unknown integration.control exits 1" $? 1 0
grep -q 'badc.json: integration.control: expected one of "standard", "pi"' "$WORK/badc.out" &&
    ok "the message names the file, the key and the choices" || not_ok "message: $(cat "$WORK/badc.out")"
finish

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
# (key, option, scenario value refused, option value refused, the option's choices in its message, the key's in its
# message, the choices...) => each choice run for 1 s and named in the summary; an unknown option value a usage error;
# an unknown key value in a scenario refused with the file, the key and the choices (docs/dock.md §6b)
check_choice() {
    key=$1 opt=$2 badkey=$3 badopt=$4 optmsg=$5 keymsg=$6
    shift 6
    for v in "$@"; do
        check "S1-A 1 s with --$opt $v" "$MECH" dock "$D/s1-A.json" --$opt $v --duration 1 --no-plots --no-records \
            -q --out "$WORK/o$opt$v"
        [ "$(jstr $opt "$WORK/o$opt$v/summary.json")" = $v ] && ok "the summary says $v" || not_ok "summary $opt for $v"
    done
    check_fails "--$opt unknown: usage error listing the choices" "--$opt '$badopt': expected $optmsg" \
        "$MECH" dock "$D/s1-A.json" --$opt $badopt --out "$WORK/obad$opt"
    sed "s/\"tolerance\": 1e-06/\"tolerance\": 1e-06, \"$key\": \"$badkey\"/" "$D/s1-A.json" >"$WORK/bad$key.json"
    "$MECH" dock "$WORK/bad$key.json" --out "$WORK/obad$key" --no-plots -q >"$WORK/bad$key.out" 2>&1
    check_num "an unknown integration.$key exits 1" $? 1 0
    grep -q "bad$key.json: integration.$key: expected one of $keymsg" "$WORK/bad$key.out" &&
        ok "the message names the file, the key and the choices" || not_ok "message: $(cat "$WORK/bad$key.out")"
}
# --method: the stepper of the error-controlled steps
check_choice method method euler rk5 "dopri5 or rk43" '"rk43", "dopri5"' dopri5 rk43
# --control: the step-size control (fixed for fixed steps)
[ "$(jstr control "$WORK/ofix/summary.json")" = fixed ] && ok "the summary's control of a fixed run" ||
    not_ok "control of a fixed run"
check_choice control control PI pid "standard or pi" '"standard", "pi"' standard pi
finish

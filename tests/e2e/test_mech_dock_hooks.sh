#!/bin/sh
# End-to-end test of the structural hooks and the docked state (issue 44; docs/dock-process.md §9): S1-B through
# the whole process is "completed" only with the hooks locked with preload, every rod in contact, roll and tilt
# within the hooks' tolerance, held for sequencer.docked_hold; the fault scenario with a degraded hook drive
# (fixtures/mech/dock/s1-400-B-hooks-slow.json) ends with "hooks not closed in time" 30 s after the planes closed,
# with its time, reason and values in summary.json and on the console; the history carries the hook channels. Bad
# hook keys are refused naming the file and the key, before any output.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
FIX=${FIXTURES:-$TOP/fixtures}
D=$FIX/mech/dock

jstr() { sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\"\([^\"]*\)\".*/\1/p" "$2" | head -n 1; }
jnum() { sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\([-0-9.eE+]*\).*/\1/p" "$2" | head -n 1; }
jbool() { sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\(true\|false\).*/\1/p" "$2" | head -n 1; }

# the docked pair: S1-B completes, and only in the docked state
check "S1-B through the whole process" "$MECH" dock "$D/s1-400-B.json" --out "$WORK/b" --no-plots --no-records -q
S=$WORK/b/summary.json
[ "$(jbool completed "$S")" = true ] && ok "S1-B completed" || not_ok "S1-B completed: $(jbool completed "$S")"
[ "$(jnum locked "$S")" = 8 ] && ok "all 8 hooks locked" || not_ok "hooks locked: $(jnum locked "$S")"
[ "$(jbool docked_end "$S")" = true ] && ok "docked at the end" || not_ok "docked at the end"
grep -q '"cause":[[:space:]]*"docked state held"' "$S" && ok "the end's cause is the docked state held" ||
    not_ok "the end's cause"
ts=$(jnum t_start "$S"); tl=$(jnum t_locked "$S"); td=$(jnum t_docked "$S"); te=$(jnum t_end "$S")
# the hooks lock (capture_range + preload / stiffness) / speed = (5 mm + 5 mm) / (1 mm/s) = 10 s after they start
# (none stalls at the pull limit in S1), and the end comes docked_hold = 5 s after the docked state began
check_num "hooks lock 10 s after they start" "$(awk -v a="$ts" -v b="$tl" 'BEGIN { print b - a }')" 10 1e-3
[ -n "$td" ] && [ -n "$te" ] && awk -v d="$td" -v e="$te" 'BEGIN { exit !(e - d >= 5 - 1e-9 && e - d < 5.01) }' && ok "end 5 s after docked ($td, $te)" ||
    not_ok "end $te s, docked from $td s"
tmin=$(jnum tension_min "$S")
[ -n "$tmin" ] && awk -v t="$tmin" 'BEGIN { exit !(t >= 5000) }' && ok "every link at least preload_min ($tmin N)" || not_ok "tension $tmin"
gap=$(jnum rod_gap_max_end "$S")
[ -n "$gap" ] && awk -v g="$gap" 'BEGIN { exit !(g <= 1e-4) }' && ok "every rod in contact ($gap m)" || not_ok "rod gap $gap"
head -n 1 "$WORK/b/history.csv" | grep -q 'hook_f1,hook_f2,hook_f3,hook_f4,hooks_locked,hook_jaw,docked_unmet' &&
    ok "history has the hook channels" || not_ok "history has the hook channels"
# the last history row: docked (docked_unmet = 0), 8 links locked
col=$(head -n 1 "$WORK/b/history.csv" | tr ',' '\n' | grep -n '^docked_unmet$' | cut -d: -f1)
lk=$(head -n 1 "$WORK/b/history.csv" | tr ',' '\n' | grep -n '^hooks_locked$' | cut -d: -f1)
last=$(tail -n 1 "$WORK/b/history.csv")
[ -n "$col" ] && [ -n "$lk" ] && [ "$(echo "$last" | cut -d, -f"$col")" = 0 ] && [ "$(echo "$last" | cut -d, -f"$lk")" = 8 ] &&
    ok "the last history row is docked with 8 links locked" || not_ok "last row: $last"

# the fault: a degraded hook drive cannot lock in hooks_timeout
"$MECH" dock "$D/s1-400-B-hooks-slow.json" --out "$WORK/f" --no-plots --no-records >"$WORK/f.out" 2>&1
[ $? -eq 0 ] && ok "the fault run ends normally (a result, not an error)" || not_ok "the fault run's status"
S=$WORK/f/summary.json
[ "$(jstr final_state "$S")" = fail-hooks ] && ok "final state fail-hooks" || not_ok "final state $(jstr final_state "$S")"
[ "$(jbool completed "$S")" = false ] && ok "not completed" || not_ok "completed: $(jbool completed "$S")"
[ "$(jstr name "$S")" = "hooks not closed in time" ] && ok "failure named" || not_ok "failure name $(jstr name "$S")"
[ "$(jstr reason "$S")" = "hooks not locked with preload" ] && ok "failure reason" || not_ok "reason $(jstr reason "$S")"
tc=$(jnum t_closed "$S")
tf=$(sed -n '/"failure"/,$ s/^[[:space:]]*"t":[[:space:]]*\([-0-9.eE+]*\).*/\1/p' "$S" | head -n 1)
check_num "failure hooks_timeout = 30 s after the planes closed" "$(awk -v a="$tc" -v b="$tf" 'BEGIN { print b - a }')" 30 1e-3
grep -q '"preload_min":[[:space:]]*5000' "$S" && grep -q '"tension_min"' "$S" && ok "failure values" ||
    not_ok "failure values"
grep -q "FAILED: hooks not closed in time at .* s (30 s after the planes closed): hooks not locked with preload" \
    "$WORK/f.out" && ok "console line names the failure" || not_ok "console line: $(grep FAILED "$WORK/f.out")"

# bad input: refused before the run, naming the file and the key
cp -r "$D/models" "$WORK/models"
sed '0,/{/s//{ "hooks": {"force_max": 9000},/' "$D/s1-400-B.json" >"$WORK/weak.json"
check_fails "a hook pull below the preload" "weak.json: hooks.force_max: the drive's pull limit \(9000 N\) must exceed" \
    "$MECH" dock "$WORK/weak.json" --out "$WORK/n1"
[ ! -e "$WORK/n1/summary.json" ] && ok "nothing written for the refused scenario" || not_ok "nothing written"
sed '0,/{/s//{ "hooks": {"n": 9},/' "$D/s1-400-B.json" >"$WORK/nine.json"
check_fails "nine hook links" "nine.json: hooks.n" "$MECH" dock "$WORK/nine.json" --out "$WORK/n2"
sed '0,/{/s//{ "hooks": {"spead": 0.001},/' "$D/s1-400-B.json" >"$WORK/typo.json"
check_fails "an unknown hooks key" 'typo.json: hooks."spead": unknown key' "$MECH" dock "$WORK/typo.json" --out "$WORK/n3"
sed '0,/{/s//{ "sequencer": {"gap_closed": 0.006},/' "$D/s1-400-B.json" >"$WORK/far.json"
check_fails "planes closed beyond the hooks' range" "far.json: sequencer.gap_closed: 0.006 m exceeds hooks.capture_range" \
    "$MECH" dock "$WORK/far.json" --out "$WORK/n4"
sed '0,/{/s//{ "hooks": {"speed": 0.001},/' "$D/s1-B.json" >"$WORK/noproc.json"
check_fails "a hooks section without process" "noproc.json: hooks: given, but the scenario has no \"process\"" \
    "$MECH" dock "$WORK/noproc.json" --out "$WORK/n5"
finish

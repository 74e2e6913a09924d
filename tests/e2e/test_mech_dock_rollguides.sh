#!/bin/sh
# End-to-end test of the roll guides on the docking collars (issue 44 item 4; docs/dock-process.md §9a): RP-2's
# S1-400-C carries them (fixtures/mech/dock/rp2/, written by scripts/make-rp2): the run docks and its summary reports
# the guides (entered before the planes closed, no pin on the collar's face); RP-1's scenarios have none (no
# roll_guides in the summary). Bad roll_guides keys are refused naming the file and the key, before any output.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
FIX=${FIXTURES:-$TOP/fixtures}
D=$FIX/mech/dock

jnum() { sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\([-0-9.eE+]*\).*/\1/p" "$2" | head -n 1; }
jbool() { sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\(true\|false\).*/\1/p" "$2" | head -n 1; }

check "RP-2 S1-400-C with its roll guides" "$MECH" dock "$D/rp2/s1-400-C.json" --out "$WORK/c" --no-plots --no-records -q
S=$WORK/c/summary.json
[ "$(jbool completed "$S")" = true ] && ok "S1-400-C completed" || not_ok "completed: $(jbool completed "$S")"
grep -q '"roll_guides"' "$S" && ok "the summary reports the roll guides" || not_ok "no roll_guides in the summary"
te=$(jnum t_enter "$S"); tc=$(jnum t_closed "$S"); ms=$(jnum miss_steps "$S")
[ -n "$te" ] && [ -n "$tc" ] && awk -v a="$te" -v b="$tc" 'BEGIN { exit !(a < b) }' &&
    ok "the pins entered before the planes closed ($te s < $tc s)" || not_ok "pins in at $te s, closed $tc s"
[ "$ms" = 0 ] && ok "no pin on the collar's face" || not_ok "miss steps $ms"

check "RP-1 S1-400-C" "$MECH" dock "$D/s1-400-C.json" --out "$WORK/r" --no-plots --no-records -q
grep -q '"roll_guides"' "$WORK/r/summary.json" && not_ok "RP-1 has no roll guides" || ok "RP-1 has no roll guides"

# bad input: refused before the run, naming the file and the key
cp -r "$D/models" "$WORK/models"
sed '0,/{/s//{ "roll_guides": {"n": 5},/' "$D/s1-400-B.json" >"$WORK/five.json"
check_fails "five pins" "five.json: roll_guides.n = 5: expected an integer 0..4" "$MECH" dock "$WORK/five.json" --out "$WORK/n1"
[ ! -e "$WORK/n1/summary.json" ] && ok "nothing written for the refused scenario" || not_ok "nothing written"
sed '0,/{/s//{ "roll_guides": {"n": 4, "length": 0.03, "taper_length": 0.04},/' "$D/s1-400-B.json" >"$WORK/taper.json"
check_fails "a mouth longer than the pin" "taper.json: roll_guides.taper_length: must be" "$MECH" dock "$WORK/taper.json" \
    --out "$WORK/n2"
sed '0,/{/s//{ "roll_guides": {"n": 4, "catch_half_width": 0.001},/' "$D/s1-400-B.json" >"$WORK/narrow.json"
check_fails "a mouth no wider than the bore" "narrow.json: roll_guides.catch_half_width: must be" "$MECH" dock \
    "$WORK/narrow.json" --out "$WORK/n3"
sed '0,/{/s//{ "roll_guides": {"n": 4, "clearance": -0.001},/' "$D/s1-400-B.json" >"$WORK/neg.json"
check_fails "a negative clearance" "neg.json: roll_guides.clearance" "$MECH" dock "$WORK/neg.json" --out "$WORK/n4"
sed '0,/{/s//{ "roll_guides": {"lenght": 0.05},/' "$D/s1-400-B.json" >"$WORK/typo.json"
check_fails "an unknown roll_guides key" 'typo.json: roll_guides."lenght": unknown key' "$MECH" dock "$WORK/typo.json" \
    --out "$WORK/n5"
sed '0,/{/s//{ "roll_guides": {"n": 4},/' "$D/s1-B.json" >"$WORK/noproc.json"
check_fails "a roll_guides section without process" "noproc.json: roll_guides: given, but the scenario has no \"process\"" \
    "$MECH" dock "$WORK/noproc.json" --out "$WORK/n6"
finish

#!/bin/sh
# The paper-versus-project table (issue 44; docs/dock-process.md §10, scripts/dock-paper-table), §8.5's variant C
# table and §9's table of RP-1's whole processes and fault scenarios (hooks, docked state, faults, convergence): made
# from the saved measures of the shipped runs (fixtures/mech/dock/paper-table/measures.json, no runs: < 1 s), it is the block
# docs/dock-process.md holds; each verdict follows its threshold (tests/e2e/dock_paper_table_check.py); bad input is
# refused with one line naming the file and position. That the measures are those of today's runs is
# `scripts/dock-paper-table --check` (the runs themselves, ~50 s: not here).
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
PY=${PY:-python3}
S=$TOP/scripts/dock-paper-table
F=$TOP/fixtures/mech/dock/paper-table/measures.json

check "docs/dock-process.md §10, §8.5's C table and §9's hooks table are the tables of the saved measures" "$PY" "$S" --measures "$F" --check
if "$PY" "$TOP/tests/e2e/dock_paper_table_check.py" "$TOP" >"$WORK/v.out" 2>&1; then
    ok "verdicts and thresholds: $(grep -c '^ok' "$WORK/v.out") checks"
else
    not_ok "verdicts and thresholds"; grep -v '^ok' "$WORK/v.out" | sed 's/^/    /' | head -20
fi

# --write into a copy rewrites only the block; --check then passes; a hand edit in the block fails --check
cp "$TOP/docs/dock-process.md" "$WORK/doc.md"
sed -i 's/^| §4 Fig. 9 |.*/| §4 Fig. 9 | edited by hand |/' "$WORK/doc.md"
check_fails "--check refuses a hand-edited table" "not the script's output" "$PY" "$S" --measures "$F" --check --doc "$WORK/doc.md"
cp "$TOP/docs/dock-process.md" "$WORK/doc2.md"
sed -i 's/^| RP-2 S1-400-C | end |/| RP-2 S1-400-C | edited |/' "$WORK/doc2.md"
check_fails "--check refuses a hand-edited variant C table (§8.5)" "dock-c-runs.*not the script's output" "$PY" "$S" --measures "$F" --check --doc "$WORK/doc2.md"
cp "$TOP/docs/dock-process.md" "$WORK/doc3.md"
sed -i 's/^| fault-jam-B | fail-jam |/| fault-jam-B | edited |/' "$WORK/doc3.md"
check_fails "--check refuses a hand-edited table of the hooks and faults (§9)" "dock-hooks-runs.*not the script's output" \
    "$PY" "$S" --measures "$F" --check --doc "$WORK/doc3.md"
check "--write restores it" "$PY" "$S" --measures "$F" --write --doc "$WORK/doc.md"
cmp -s "$WORK/doc.md" "$TOP/docs/dock-process.md" && ok "--write changes nothing outside the block" ||
    not_ok "--write changes nothing outside the block"

# bad input
printf '{"s1-A": {"push_peak": 1,,}}\n' >"$WORK/bad.json"
check_fails "a JSON error names file:line:column" "bad.json:1:[0-9]+: " "$PY" "$S" --measures "$WORK/bad.json"
printf '{"s1-A": {}}\n' >"$WORK/few.json"
check_fails "missing runs are named" "few.json: no measures for s1-B" "$PY" "$S" --measures "$WORK/few.json"
"$PY" -c "import json,sys; m=json.load(open(sys.argv[1])); del m['s1-A']['push_peak']; json.dump(m, open(sys.argv[2],'w'))" "$F" "$WORK/hole.json"
check_fails "a missing measure is named" "hole.json: a measure is missing.*push_peak" "$PY" "$S" --measures "$WORK/hole.json"
printf '# no markers\n' >"$WORK/nomark.md"
check_fails "a doc without the markers is refused" "nomark.md: the markers" "$PY" "$S" --measures "$F" --write --doc "$WORK/nomark.md"
[ "$(cat "$WORK/nomark.md")" = "# no markers" ] && ok "... and left as it was" || not_ok "... and left as it was"
check_fails "an unknown option" "unknown argument --bogus" "$PY" "$S" --bogus
finish

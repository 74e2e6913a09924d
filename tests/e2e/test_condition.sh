# End-to-end tests of record conditioning (docs/data-input.md "Conditioning", issue 46 item 2): a clean Bouc-Wen
# record padded the way bench records come (500 rows at rest before the test, 300 after, the displacement's zero
# off by -3.2 mm and the load cell's by 0.5 N). With --trim-rest --remove-offset q,Q every command (loops, fit,
# fit all, replay, plot) sees exactly the clean record: the same rows, the same loops, the true model replays it to
# rounding, the fit recovers the true parameters. Without the options the padding decides the numbers.
. "$TOP/tests/e2e/lib.sh"
PY=/usr/bin/python3
jget() { $PY -c 'import json,sys
d = json.load(open(sys.argv[1]))
for k in sys.argv[2:]:
    d = d[int(k)] if k.isdigit() else d[k]
print(d)' "$@"; }

cat >"$WORK/bw.json" <<'JEOF'
{"format": "hyst-model", "version": 1, "model": "bw", "units": {"q": "mm", "Q": "N"},
 "k": 200, "alpha": 0.1, "A": 1, "beta": 0.6, "gamma": 0.4, "n": 1}
JEOF
"$HYST" sim "$WORK/bw.json" --protocol sine --amplitudes 1,2,3 --points 200 --noise 1% --seed 3 -o "$WORK/clean.csv"
"$HYST" sim "$WORK/bw.json" --protocol sine --amplitudes 1,2,3 --points 200 -o "$WORK/exact.csv"
awk -F, 'NR == 1 { print "t,q,Q"; next }
         NR == 2 { for (i = 0; i < 500; i++) printf "%d,-3.2,0.5\n", i }
         { t = 500 + $1; printf "%.17g,%.17g,%.17g\n", t, $2 - 3.2, $3 + 0.5; last = $3 + 0.5; lt = t }
         END { for (i = 1; i <= 300; i++) printf "%.17g,-3.2,%.17g\n", lt + i, last }' "$WORK/clean.csv" >"$WORK/padded.csv"
C="--trim-rest --remove-offset q,Q"

# loops: the conditioned record's loops are the clean record's
check "loops of the clean record" "$HYST" loops "$WORK/clean.csv" --json "$WORK/l0.json" --quiet
check "loops conditioned" "$HYST" loops $C "$WORK/padded.csv" --json "$WORK/l1.json" --quiet
grep -q "padded.csv: conditioned: 601 of 1401 rows kept (500 at rest trimmed at the start, 300 at the end; rest tolerance 0.03); offsets at rest removed: q -3.2, Q 0.5" "$WORK/.err" \
    && ok "conditioning reported (rows, offsets)" || not_ok "conditioning reported ($(cat "$WORK/.err"))"
check_num "same rows" "$(jget "$WORK/l1.json" rows)" 601 0
check_num "same reversals" "$(jget "$WORK/l1.json" reversals)" "$(jget "$WORK/l0.json" reversals)" 0
check_num "same threshold" "$(jget "$WORK/l1.json" threshold)" "$(jget "$WORK/l0.json" threshold)" 1e-9
# replay: the true model on the conditioned noise-free record is exact (to rounding of the -3.2 shift)
awk -F, 'NR == 1 { print "t,q,Q"; next }
         NR == 2 { for (i = 0; i < 500; i++) printf "%d,-3.2,0.5\n", i }
         { t = 500 + $1; printf "%.17g,%.17g,%.17g\n", t, $2 - 3.2, $3 + 0.5; last = $3 + 0.5; lt = t }
         END { for (i = 1; i <= 300; i++) printf "%.17g,-3.2,%.17g\n", lt + i, last }' "$WORK/exact.csv" >"$WORK/padded-exact.csv"
check "replay conditioned" "$HYST" replay $C "$WORK/bw.json" "$WORK/padded-exact.csv" --json "$WORK/r1.json"
check_num "replay conditioned: NRMSE at rounding" "$(jget "$WORK/r1.json" nrmse)" 0 1e-9
check "replay unconditioned" "$HYST" replay "$WORK/bw.json" "$WORK/padded-exact.csv" --json "$WORK/r0.json"
awk -v x="$(jget "$WORK/r0.json" nrmse)" 'BEGIN { exit !(x > 0.05) }' && ok "replay unconditioned: the offset decides (NRMSE > 5 %)" \
    || not_ok "replay unconditioned: NRMSE $(jget "$WORK/r0.json" nrmse)"
# fit: the same model as the fit of the clean record (the same rows up to the rounding of the shift). The noisy
# record's first force is noise, so here only the displacement is offset (a force offset would be measured with
# that noise averaged over the 501 rest rows)
awk -F, 'NR == 1 { print "t,q,Q"; next }
         NR == 2 { for (i = 0; i < 500; i++) printf "%d,-3.2,%s\n", i, $3 }
         { t = 500 + $1; printf "%.17g,%.17g,%s\n", t, $2 - 3.2, $3; last = $3; lt = t }
         END { for (i = 1; i <= 300; i++) printf "%.17g,-3.2,%s\n", lt + i, last }' "$WORK/clean.csv" >"$WORK/padded-q.csv"
check "fit bw of the clean record" "$HYST" fit bw --n 1 "$WORK/clean.csv" -o "$WORK/f0.json"
check "fit bw conditioned" "$HYST" fit bw --n 1 --trim-rest --remove-offset q "$WORK/padded-q.csv" -o "$WORK/f1.json"
# both fits stop where the solver's step test (1e-8 relative) stops them, which differs between the two by far less
# than the statistical uncertainty: every parameter agrees within 1 % of its standard error
if $PY - "$WORK/f0.json" "$WORK/f1.json" >"$WORK/.w" <<'PYEOF'
import json, sys
a, b = (json.load(open(f))["fit"]["parameters"] for f in sys.argv[1:3])
bad = ["%s: %g vs %g (se %g)" % (k, a[k]["value"], b[k]["value"], a[k]["se"])
       for k in a if abs(a[k]["value"] - b[k]["value"]) > 0.01 * a[k]["se"]]
print("; ".join(bad))
sys.exit(1 if bad else 0)
PYEOF
then ok "fit bw conditioned: the clean record's parameters (within 1 % of a standard error)"
else not_ok "fit bw conditioned: the clean record's parameters ($(cat "$WORK/.w"))"; fi
check_num "fit bw conditioned: samples of the clean record" "$(jget "$WORK/f1.json" fit samples)" 601 0
# provenance (issue 46 leftover 2): the conditioning report goes into the model file, and replay reads it back
check_num "provenance: rows in" "$(jget "$WORK/f1.json" provenance conditioning rows_in)" 1401 0
check_num "provenance: rows kept" "$(jget "$WORK/f1.json" provenance conditioning rows_kept)" 601 0
check_num "provenance: trimmed at the start" "$(jget "$WORK/f1.json" provenance conditioning trimmed_start)" 500 0
check_num "provenance: trimmed at the end" "$(jget "$WORK/f1.json" provenance conditioning trimmed_end)" 300 0
check_num "provenance: q offset" "$(jget "$WORK/f1.json" provenance conditioning q_offset)" -3.2 1e-12
check_num "provenance: Q offset (not asked)" "$(jget "$WORK/f1.json" provenance conditioning Q_offset)" 0 0
[ "$(jget "$WORK/f1.json" provenance conditioning remove_offset)" = q ] && ok "provenance: which offset" \
    || not_ok "provenance: which offset"
$PY -c 'import json,sys; sys.exit("provenance" in json.load(open(sys.argv[1])))' "$WORK/f0.json" \
    && ok "no provenance without conditioning" || not_ok "no provenance without conditioning"
check "replay conditioned reads the provenance" "$HYST" replay --trim-rest --remove-offset q "$WORK/f1.json" "$WORK/padded-q.csv" --json "$WORK/r2.json"
grep -q "f1.json: fitted on a record conditioned: 601 of 1401 rows kept (500 at rest trimmed at the start, 300 at the end; rest tolerance 0.03); offset at rest removed: q -3.2$" "$WORK/.err" \
    && ok "replay prints the model's conditioning" || not_ok "replay prints the model's conditioning ($(cat "$WORK/.err"))"
check "replay unconditioned of a conditioned fit" "$HYST" replay "$WORK/f1.json" "$WORK/padded-q.csv" --json "$WORK/r3.json"
grep -q "f1.json: fitted on a record conditioned: .*(this record is not conditioned: give the same --trim-rest / --remove-offset" "$WORK/.err" \
    && ok "replay says when its record is not conditioned as the fit's was" || not_ok "replay: unconditioned note ($(cat "$WORK/.err"))"
check "fit kin conditioned" "$HYST" fit kin $C "$WORK/padded.csv" -o "$WORK/k1.json"
check_num "fit kin: provenance" "$(jget "$WORK/k1.json" provenance conditioning rows_kept)" 601 0
check "fit pwl conditioned" "$HYST" fit pwl $C "$WORK/padded.csv" -o "$WORK/p1.json"
# the force offset is the mean over the 501 rest rows: 500 padded at 0.5, then the first measured row (noise + 0.5)
check_num "fit pwl: provenance" "$(jget "$WORK/p1.json" provenance conditioning Q_offset)" \
    "$(awk -F, 'NR == 2 { printf "%.17g", 0.5 + $3 / 501 }' "$WORK/clean.csv")" 1e-12
# a malformed provenance is named by its key
sed 's/"rows_kept":[[:space:]]*601/"rows_kept": 602/' "$WORK/f1.json" >"$WORK/bad1.json"
check_fails "provenance: counts that do not add up" "bad1.json: provenance.conditioning: rows_kept 602 [+] trimmed_start 500 [+] trimmed_end 300 is not rows_in 1401" \
    "$HYST" replay "$WORK/bad1.json" "$WORK/padded-q.csv"
sed 's/"trim_rest":[[:space:]]*true/"trim_rest": "yes"/' "$WORK/f1.json" >"$WORK/bad2.json"
check_fails "provenance: wrong type" "bad2.json: provenance.conditioning.trim_rest: expected true or false" \
    "$HYST" replay "$WORK/bad2.json" "$WORK/padded-q.csv"
# fit all hands the options on to every fit; its ranking sees the conditioned record
check "fit all conditioned" "$HYST" fit all $C "$WORK/padded.csv" -d "$WORK/all" --families kin,bw --json "$WORK/a.json"
check_num "fit all conditioned: bw's model fitted on the clean rows" "$(jget "$WORK/all/fitted-bw.json" fit samples)" 601 0
check_num "fit all conditioned: provenance in every model" "$(jget "$WORK/all/fitted-kin.json" provenance conditioning rows_kept)$(jget "$WORK/all/fitted-bw.json" provenance conditioning rows_kept)" 601601 0
check "plot conditioned" "$HYST" plot all $C "$WORK/bw.json" "$WORK/padded.csv" -o "$WORK/p.png"
grep -q "conditioned: 601 of 1401" "$WORK/.err" && ok "plot reports the conditioning" || not_ok "plot reports the conditioning"
# only the trimming, and only one offset
check "trim only" "$HYST" loops --trim-rest "$WORK/padded.csv" --quiet
grep -q "conditioned: 601 of 1401 rows kept (500 at rest trimmed at the start, 300 at the end; rest tolerance 0.03)$" "$WORK/.err" \
    && ok "trim only: no offset line" || not_ok "trim only ($(cat "$WORK/.err"))"
check "offset Q only" "$HYST" loops --remove-offset Q "$WORK/padded-exact.csv" --quiet
grep -q "1401 of 1401 rows kept.*offset at rest removed: Q 0.5$" "$WORK/.err" && ok "offset Q only reported" \
    || not_ok "offset Q only ($(cat "$WORK/.err"))"
# bad uses
check_fails "offset without a rest segment at the start" "clean.csv: conditioning: an offset is measured on the rest segment at the start, and row 2 already moves" \
    "$HYST" fit bw --remove-offset q "$WORK/clean.csv" -o "$WORK/x.json"
check_fails "--remove-offset: bad value" "--remove-offset: expected q, Q or q,Q, got 'x'" "$HYST" loops --remove-offset x "$WORK/padded.csv"
check_fails "--rest-tol: bad value" "--rest-tol: expected a positive number" "$HYST" replay --rest-tol -1 "$WORK/bw.json" "$WORK/padded.csv"
awk 'NR == 1 || NR < 100' "$WORK/padded.csv" >"$WORK/rest.csv"
check_fails "a record that never moves" "rest.csv: conditioning: the displacement never leaves the rest position" \
    "$HYST" loops --trim-rest "$WORK/rest.csv"
finish

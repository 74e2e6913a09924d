# End-to-end tests of `hyst fit pwl`: the synthetic records of fixtures/synthetic fitted and the fitted model
# replayed (hyst sim --drive) on the DIFFERENT validation drive against the true model; the report and the "fit"
# key; options (--segments, --tol, --backlash, --symmetric, --kind); the real records; and every way to fail:
# usage errors, unreadable or unusable data, never writing over the data file, never leaving a partial model.
. "$TOP/tests/e2e/lib.sh"

FX=$FIXTURES/synthetic

# check_exit NAME CODE PATTERN CMD...: passes when CMD exits with CODE and its stderr matches PATTERN (grep -E)
check_exit() {
    n=$1; want=$2; pat=$3; shift 3
    "$@" >"$WORK/.out" 2>"$WORK/.err"; rc=$?
    if [ "$rc" -ne "$want" ]; then not_ok "$n (exit $rc, expected $want)"; sed 's/^/    /' "$WORK/.err" | head -5; return; fi
    if grep -Eq -- "$pat" "$WORK/.err"; then ok "$n"; else not_ok "$n (stderr did not match '$pat')"; sed 's/^/    /' "$WORK/.err" | head -5; fi
}
expect() { n=$1; shift; if "$@"; then ok "$n"; else not_ok "$n"; fi; }
# nrmse A.csv B.csv: RMS of Q(B) - Q(A) over the peak-to-peak of Q(A) (sim output t,q,Q,state)
nrmse() { paste -d, "$1" "$2" | awk -F, 'NR > 1 { d = $7 - $3; s += d * d; n++; if (n == 1 || $3 > hi) hi = $3; if (n == 1 || $3 < lo) lo = $3 } END { printf "%.6g", sqrt(s / n) / (hi - lo) }'; }
# json_num FILE KEY: the first number after "KEY": in a JSON file
json_num() { grep -o "\"$2\":[[:space:]]*[-0-9.eE+]*" "$1" | head -n 1 | sed 's/.*:[[:space:]]*//'; }

# ---- help ----
check "fit pwl --help exits 0" "$HYST" fit pwl --help
expect "help names the options" sh -c "grep -q -- '--segments N' '$WORK/.out' && grep -q -- '--backlash auto' '$WORK/.out' && grep -q -- '--kind K' '$WORK/.out' && grep -q -- '--x COL' '$WORK/.out'"
check "hyst help fit pwl exits 0" "$HYST" help fit pwl

# ---- every synthetic record: fit, then replay the fit and the truth on the validation drive ----
# (lib.sh's helpers use the variable n: the record name is nm)
for spec in pwl_double_loop:constant pwl_asymmetric:constant pwl_zero_backlash:constant pwl_small_stiff:constant pwl_friction:friction; do
    nm=${spec%%:*}; kind=${spec##*:}
    check "$nm: fit" "$HYST" fit pwl "$FX/${nm}_fit.csv" --kind "$kind" -o "$WORK/$nm.json" --report "$WORK/$nm.report.json"
    expect "$nm: summary names the segments and the replay" sh -c "grep -q 'segments' '$WORK/.out' && grep -q 'NRMSE' '$WORK/.out'"
    check "$nm: truth on the validation drive" "$HYST" sim "$FX/$nm.json" --drive "$FX/${nm}_val.csv" --x q --y Q --t t -o "$WORK/$nm.true.csv"
    check "$nm: fitted model on the validation drive" "$HYST" sim "$WORK/$nm.json" --drive "$FX/${nm}_val.csv" --x q --y Q --t t -o "$WORK/$nm.fit.csv"
    check_num "$nm: validation NRMSE <= 2 % (true vs fitted, different drive)" "$(nrmse "$WORK/$nm.true.csv" "$WORK/$nm.fit.csv")" 0.01 1.0
    expect "$nm: the model file keeps the report under \"fit\"" grep -q '"fit":' "$WORK/$nm.json"
    expect "$nm: report has per-cycle energies and warnings" sh -c "grep -q '\"energy_per_cycle\"' '$WORK/$nm.report.json' && grep -q '\"warnings\"' '$WORK/$nm.report.json'"
done
# k_beyond of the double loop is 2000, of the small stiff loop 300000 (fixtures/synthetic/README.md)
check_num "double loop: k_beyond within 2 % of 2000" "$(json_num "$WORK/pwl_double_loop.json" k_beyond)" 2000 0.02
check_num "small stiff loop: k_beyond within 2 % of 3e5" "$(json_num "$WORK/pwl_small_stiff.json" k_beyond)" 300000 0.02
check_num "friction: k_beyond is 0 (slip plateau)" "$(json_num "$WORK/pwl_friction.json" k_beyond)" 0 0
check_num "friction: 8 or more slip events found" "$(json_num "$WORK/pwl_friction.report.json" slips)" 9 0.2
# backlash: 0.5 on the double loop (clear), none on the zero-backlash table
check_num "double loop: backlash width 0.5 (within 0.02 mm)" "$(json_num "$WORK/pwl_double_loop.report.json" width)" 0.5 0.04
expect "zero-backlash table: no backlash found" grep -q '"evidence":[[:space:]]*"none"' "$WORK/pwl_zero_backlash.report.json"

# ---- options ----
check "--segments 3,4" "$HYST" fit pwl "$FX/pwl_double_loop_fit.csv" --segments 3,4 -o "$WORK/s34.json"
expect "--segments 3,4: 4 forward points and 5 backward points per side" sh -c "test \$(tr -d ' \n\t' < '$WORK/s34.json' | grep -o '\"forward\":\[\[[^]]*\]\(,\[[^]]*\]\)*\]' | head -n 1 | grep -o '\[[-0-9.e]*,' | wc -l) -eq 4"
check "--segments 6 (both)" "$HYST" fit pwl "$FX/pwl_double_loop_fit.csv" --segments 6 -o "$WORK/s6.json"
check "--tol 33 (1.1 sigma)" "$HYST" fit pwl "$FX/pwl_double_loop_fit.csv" --tol 33 -o "$WORK/tol.json" --report "$WORK/tol.report.json"
expect "--tol: the rule is named in the report" grep -q 'within --tol 33' "$WORK/tol.report.json"
check "--backlash 0.5 given" "$HYST" fit pwl "$FX/pwl_double_loop_fit.csv" --backlash 0.5 -o "$WORK/b.json" --report "$WORK/b.report.json"
expect "--backlash given: first point at 0.5 exactly" grep -q '"evidence":[[:space:]]*"given"' "$WORK/b.report.json"
check "--symmetric" "$HYST" fit pwl "$FX/pwl_double_loop_fit.csv" --symmetric -o "$WORK/sym.json"
check "symmetric model replays" "$HYST" sim "$WORK/sym.json" --drive "$FX/pwl_double_loop_val.csv" --x q --y Q --t t -o "$WORK/sym.csv"
check_num "symmetric fit: validation NRMSE <= 2 %" "$(nrmse "$WORK/pwl_double_loop.true.csv" "$WORK/sym.csv")" 0.01 1.0
check "model to standard output" sh -c "'$HYST' fit pwl '$FX/pwl_zero_backlash_fit.csv' -o - > '$WORK/stdout.json'"
expect "standard output holds the model (summary on stderr)" grep -q '"format":[[:space:]]*"hyst-model"' "$WORK/stdout.json"

# ---- real records (fixtures/real, credited in CREDITS.md) ----
check "SPC1 (force col 1, displacement col 2)" "$HYST" fit pwl "$FIXTURES/real/SPC1.csv" --x 2 --y 1 -o "$WORK/spc1.json" --report "$WORK/spc1.report.json"
expect "SPC1 model keeps the units kN, mm" sh -c "grep -q '\"q\":[[:space:]]*\"mm\"' '$WORK/spc1.json' && grep -q '\"Q\":[[:space:]]*\"kN\"' '$WORK/spc1.json'"
check "SPC1 model replays on its record" "$HYST" sim "$WORK/spc1.json" --drive "$FIXTURES/real/SPC1.csv" --x 2 --y 1 -o "$WORK/spc1.csv"
# Hys1 has one loop per amplitude, ~23 points each: the default limit loop (5 %) is too short, so the fit takes in
# the next largest loops itself and says which (docs/fit-pwl.md, step 1); an explicit --amp-tol is used as given.
check "Hys1 without options: the limit loop is widened automatically" "$HYST" fit pwl "$FIXTURES/real/Hys1.csv" -o "$WORK/hys1a.json" --report "$WORK/hys1a.report.json"
expect "Hys1: the summary says which loops and why" sh -c "grep -q 'limit loop, positive side: 4 loops with amplitude >= 41.476 (amp-tol 0.231 of 53.952), widened automatically: the default amp-tol 0.05 gave 7 forward and 2 backward samples' '$WORK/.out' && grep -q 'limit loop, negative side: 6 loops with amplitude >= 29.711' '$WORK/.out'"
expect "Hys1: both sides widened in the report" test "$(grep -c '"rule":[[:space:]]*"widened"' "$WORK/hys1a.report.json")" -eq 2
expect "Hys1: the report lists 10 loops with cycles, rows and lines" sh -c "test \$(grep -c '\"peak_row\"' '$WORK/hys1a.report.json') -eq 10 && test \$(grep -c '\"peak_line\"' '$WORK/hys1a.report.json') -eq 10 && grep -q '\"cycle\":[[:space:]]*13' '$WORK/hys1a.report.json'"
expect "Hys1: the model file keeps the same limit loop under \"fit\"" test "$(grep -c '"rule":[[:space:]]*"widened"' "$WORK/hys1a.json")" -eq 2
check_exit "Hys1 with an explicit --amp-tol 0.05: too few samples, as before" 1 "too few samples.*--amp-tol \(now 0.05\)" "$HYST" fit pwl "$FIXTURES/real/Hys1.csv" --amp-tol 0.05 -o "$WORK/hys1.json"
# a yielding damper: its loops cross q = 0 at large force, which the model (branches through the origin) cannot
# represent: the table is written, with warnings that say so
check_exit "Hys1 pooled (--amp-tol 0.5 --symmetric): fitted, and the misfit is reported" 0 "poor fit|far from it" "$HYST" fit pwl "$FIXTURES/real/Hys1.csv" --amp-tol 0.5 --symmetric -o "$WORK/hys1.json"

# ---- one cycle per amplitude (fixtures/synthetic/pwl_double_loop_growing_fit.csv): widened to the 9.5 and 10.5 mm
# loops (10 samples per branch and loop, 12 needed), validated on the double loop's own validation drive ----
nm=pwl_double_loop_growing
check "$nm: fit without options" "$HYST" fit pwl "$FX/${nm}_fit.csv" -o "$WORK/$nm.json" --report "$WORK/$nm.report.json"
expect "$nm: summary: 2 loops per side, widened from 10 samples" sh -c "test \$(grep -c '2 loops with amplitude >= 9.5 (amp-tol 0.0952 of 10.5), widened automatically: the default amp-tol 0.05 gave 10 forward and 10 backward samples, fewer than 12' '$WORK/.out') -eq 2"
expect "$nm: the report names cycles 9 and 10 of each side" test "$(grep -Ec '"cycle":[[:space:]]*(9|10),' "$WORK/$nm.report.json")" -eq 4
check "$nm: fitted model on the validation drive" "$HYST" sim "$WORK/$nm.json" --drive "$FX/pwl_double_loop_val.csv" --x q --y Q --t t -o "$WORK/$nm.fit.csv"
check_num "$nm: validation NRMSE <= 2 % against the true model (measured 1.19 %)" "$(nrmse "$WORK/pwl_double_loop.true.csv" "$WORK/$nm.fit.csv")" 0.01 1.0
check_exit "$nm: an explicit --amp-tol 0.05 is used as given (too few samples)" 1 "too few samples.*--amp-tol" "$HYST" fit pwl "$FX/${nm}_fit.csv" --amp-tol 0.05 -o "$WORK/$nm.given.json"
check "$nm: --amp-tol 0.0953 given gives the same loops" "$HYST" fit pwl "$FX/${nm}_fit.csv" --amp-tol 0.0953 -o "$WORK/$nm.given.json"
# the table: the model file from its "positive" key to its "name" key (the report under "fit" comes after)
table_of() { awk '/"positive":/ { on = 1 } /"name":/ { exit } on' "$1"; }
table_of "$WORK/$nm.json" > "$WORK/a.t"; table_of "$WORK/$nm.given.json" > "$WORK/b.t"
expect "$nm: ... and the same table" sh -c "test \$(wc -l < '$WORK/a.t') -eq 10 && cmp -s '$WORK/a.t' '$WORK/b.t'"
# too sparse even widened: 16 samples per cycle, 4 per branch and loop; down to half of 10 mm: loops 10, 7 (8 < 12)
check "a sparse record: 16 samples per cycle" "$HYST" sim "$FX/pwl_double_loop.json" --protocol triangle --amplitudes 2,4,7,10 --points 16 --noise 1% --seed 7 -o "$WORK/sparse.csv"
check_exit "too sparse even widened: a clear message, nothing written" 1 "too few samples to fit, even with every loop down to 50 % of the largest amplitude taken in \(positive side 8 forward, 8 backward; negative side 8, 8; need 12 on each branch\)" "$HYST" fit pwl "$WORK/sparse.csv" -o "$WORK/sparse.json"
expect "no model left after it" test ! -e "$WORK/sparse.json"

# ---- usage errors (exit 2) ----
check_exit "no data file" 2 "hyst fit pwl: missing DATA.csv" "$HYST" fit pwl -o "$WORK/x.json"
check_exit "two data files" 2 "unexpected argument '.*pwl_asymmetric_fit.csv'" "$HYST" fit pwl "$FX/pwl_double_loop_fit.csv" "$FX/pwl_asymmetric_fit.csv"
check_exit "unknown option" 2 "unknown option" "$HYST" fit pwl "$FX/pwl_double_loop_fit.csv" --bogus
check_exit "--segments and --tol together" 2 "not both" "$HYST" fit pwl "$FX/pwl_double_loop_fit.csv" --segments 4 --tol 30
check_exit "--segments 2" 2 "--segments: '2' is not an integer from 3 to 32" "$HYST" fit pwl "$FX/pwl_double_loop_fit.csv" --segments 2
check_exit "--segments abc" 2 "segments" "$HYST" fit pwl "$FX/pwl_double_loop_fit.csv" --segments abc
check_exit "--backlash -1" 2 "backlash" "$HYST" fit pwl "$FX/pwl_double_loop_fit.csv" --backlash -1
check_exit "--kind bogus" 2 "constant or friction" "$HYST" fit pwl "$FX/pwl_double_loop_fit.csv" --kind bogus
check_exit "--tol 0" 2 "tol" "$HYST" fit pwl "$FX/pwl_double_loop_fit.csv" --tol 0
check_exit "report and model to the same file" 2 "same file" "$HYST" fit pwl "$FX/pwl_double_loop_fit.csv" -o "$WORK/same.json" --report "$WORK/same.json"

# ---- data errors (exit 1), nothing written ----
check_exit "missing file" 1 "cannot open|No such file" "$HYST" fit pwl "$WORK/nope.csv" -o "$WORK/nope.json"
check_exit "NaN in the record names file:line" 1 "nan.csv:[0-9]+" "$HYST" fit pwl "$FIXTURES/bad/nan.csv" -o "$WORK/nan.json"
expect "no model left after a failure" test ! -e "$WORK/nan.json"
awk 'BEGIN { print "q,Q"; for (i = 0; i < 500; i++) printf "%g,%g\n", i * 0.01, 100 * i * 0.01 }' > "$WORK/ramp.csv"
check_exit "no reversal" 1 "no reversal" "$HYST" fit pwl "$WORK/ramp.csv" -o "$WORK/ramp.json"
awk -F, 'NR == 1 { print "t,q,Q,state"; next } { q = $2 < 0 ? -$2 : $2; print $1 "," q "," ($2 < 0 ? -$3 : $3) "," $4 }' "$FX/pwl_double_loop_fit.csv" > "$WORK/onesided.csv"
check_exit "one-sided test without --symmetric" 1 "one-sided test" "$HYST" fit pwl "$WORK/onesided.csv" -o "$WORK/os.json"
check_exit "one-sided test with --symmetric: fitted, with a warning" 0 "mirror" "$HYST" fit pwl "$WORK/onesided.csv" --symmetric -o "$WORK/os.json"
awk 'NR == 1 || NR % 16 == 0' "$FX/pwl_double_loop_fit.csv" > "$WORK/short.csv"
check_exit "too few samples for the segments asked" 1 "too few samples" "$HYST" fit pwl "$WORK/short.csv" --segments 10 -o "$WORK/short.json"
cp "$FX/pwl_double_loop_fit.csv" "$WORK/input.csv"
check_exit "refuses to write the model over the data" 1 "refusing to overwrite" "$HYST" fit pwl "$WORK/input.csv" -o "$WORK/input.csv"
expect "the data file is unchanged" cmp -s "$FX/pwl_double_loop_fit.csv" "$WORK/input.csv"
check_exit "refuses to write the report over the data" 1 "refusing to overwrite" "$HYST" fit pwl "$WORK/input.csv" -o "$WORK/m.json" --report "$WORK/input.csv"
expect "the data file is still unchanged" cmp -s "$FX/pwl_double_loop_fit.csv" "$WORK/input.csv"
# A smooth (kin-law) loop: some segments are held at k_max by the fit and must survive the model's validation
# despite the rounding of their ordinates (regression: 'slope 7060.078826, steeper than k_beyond = 7060.078818').
check_exit "segments held at k_max are accepted by the model" 0 "held at k_max" "$HYST" fit pwl --t t "$FX/kin_paper_fit.csv" -o "$WORK/kp.json"
expect "that model replays the validation drive" "$HYST" replay "$WORK/kp.json" "$FX/kin_paper_val.csv" --t t
finish

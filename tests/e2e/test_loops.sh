#!/bin/sh
# End-to-end tests of `hyst loops`: the real records of fixtures/real checked against the README reference and
# an independent awk computation (scripts/ref-energy.awk), the cycles of every bundled record (one per protocol
# cycle, none with negative energy or amplitude), --center, the output files, and every bad input.
. "$TOP/tests/e2e/lib.sh"
REF="$TOP/scripts/ref-energy.awk"
SPC1="$FIXTURES/real/SPC1.csv"
HYS1="$FIXTURES/real/Hys1.csv"

# jnum KEY FILE: the number after the first "KEY": in a JSON file
jnum() { sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\([-+0-9.eE]*\).*/\1/p" "$2" | head -n 1; }
# jstr KEY FILE: the string after the first "KEY":
jstr() { sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\"\([^\"]*\)\".*/\1/p" "$2" | head -n 1; }

# compare_cycles NAME CYCLES.csv DATA qcol Qcol Qscale: every cycle energy (and the cumulative sum) against awk
compare_cycles() {
    ranges=$(awk -F, 'NR > 1 { printf "%s%s:%s", (NR > 2 ? "," : ""), $4, $5 }' "$2")
    awk -F, -v q="$4" -v Q="$5" -v Qscale="$6" -v ranges="$ranges" -f "$REF" "$3" >"$WORK/ref.txt"
    bad=$(awk -F, -v ref="$WORK/ref.txt" '
        BEGIN { while ((getline l < ref) > 0) { split(l, f, " "); if (f[1] == "cycle") e[f[2]] = f[5] } }
        NR > 1 { k = NR - 1; d = $10 - e[k]; if (d < 0) d = -d; s = (e[k] < 0 ? -e[k] : e[k]) + 1e-12
                 if (d > 1e-9 * s) print "cycle " k ": " $10 " vs " e[k]
                 cum += e[k]; d = $11 - cum; if (d < 0) d = -d; if (d > 1e-9 * (cum < 0 ? -cum : cum) + 1e-12) print "cum " k
                 n++ }
        END { if (n == 0) print "no cycles" }' "$2" | head -n 3 | tr '\n' ';')
    if [ -z "$bad" ]; then ok "$1"; else not_ok "$1: $bad"; fi
}

if [ ! -r "$SPC1" ] || [ ! -r "$HYS1" ]; then
    not_ok "real records present in $FIXTURES/real"
    finish
fi

# ---- SPC1: force column 1 (kN), displacement column 2 (mm), names and units rows detected -----------------------
check "SPC1 analysed" "$HYST" loops "$SPC1" --json "$WORK/spc1.json" --cycles-csv "$WORK/spc1.csv" \
    --branches "$WORK/spc1-br.csv" --backbone "$WORK/spc1-bb.csv"
cp "$WORK/.out" "$WORK/spc1.txt"
check_num "SPC1 rows" "$(jnum rows "$WORK/spc1.json")" 33028 0
check_num "SPC1 reversals" "$(jnum reversals "$WORK/spc1.json")" 56 0
# CUREE protocol from rest: 28 protocol cycles, 28 cycles from one upward crossing of 0 to the next
check_num "SPC1 cycles" "$(($(wc -l <"$WORK/spc1.csv") - 1))" 28 0
check "SPC1 cycle rule" test "$(jstr cycle_rule "$WORK/spc1.json")" = center-crossing
check_num "SPC1 centre" "$(jnum center "$WORK/spc1.json")" 0 0
check_num "SPC1 major reversals: all 56" "$(jnum major_reversals "$WORK/spc1.json")" 56 0
# (cJSON indents the members of the objects in the cycles array by three tabs)
T3=$(printf '\t\t\t')
check_num "SPC1 JSON: 28 cycle objects with amplitude_pos, amplitude_neg, energy, inner_loops" \
    "$(grep -c "^$T3\"amplitude_pos\"\|^$T3\"amplitude_neg\"\|^$T3\"energy\"\|^$T3\"inner_loops\"" "$WORK/spc1.json")" 112 0
check "SPC1 cycle 1 starts at the first row, cycle 28 ends on the last rise through 0" awk -F, '
    NR == 2 && $2 != 1 { exit 1 } NR == 29 && ($2 != 30015 || $3 != 32994) { exit 1 }' "$WORK/spc1.csv"
check "SPC1 threshold rule is the floor" test "$(jstr threshold_rule "$WORK/spc1.json")" = floor
check_num "SPC1 threshold 0.5 % of the range 169.11 mm" "$(jnum threshold "$WORK/spc1.json")" 0.84555 1e-9
check "SPC1 units kN, mm, kN*mm" test "$(jstr energy "$WORK/spc1.json")" = "kN*mm"
check_num "SPC1 total energy = README 28035.90 kN*mm" "$(jnum total_energy "$WORK/spc1.json")" 28035.90 2e-7
awk -F, -v q=2 -v Q=1 -f "$REF" "$SPC1" >"$WORK/spc1-ref.txt"
check_num "SPC1 total energy = awk trapezoid" "$(jnum total_energy "$WORK/spc1.json")" \
    "$(awk '$1 == "total" { print $2 }' "$WORK/spc1-ref.txt")" 1e-12
compare_cycles "SPC1 28 cycle energies and cumulative = awk closed paths" "$WORK/spc1.csv" "$SPC1" 2 1 1
check "SPC1 table" grep -q "56 reversals (56 major), 0 inner loops, 57 half-cycles, 28 cycles" "$WORK/spc1.txt"
check "SPC1 table names the cycle rule" grep -q "cycles: from one upward crossing of q = 0 mm to the next" "$WORK/spc1.txt"
check "SPC1 table total" grep -q "total energy (open path over the whole record): 28035.901 kN\*mm" "$WORK/spc1.txt"
check "SPC1 every cycle dissipates" awk -F, 'NR > 1 && $10 < 0 { exit 1 }' "$WORK/spc1.csv"
# branches: limit loop at +84.53 / -84.58 mm; side signs, forward |q| growing within the (single) cycle
check "SPC1 branches header" test "$(head -n 1 "$WORK/spc1-br.csv")" = "side,branch,q,Q"
check "SPC1 branches: four non-empty parts with the right sign of q" awk -F, '
    NR > 1 { n[$1 $2]++; if (($1 == "pos") != ($3 > 0)) bad = 1 }
    END { exit bad || !n["posforward"] || !n["posbackward"] || !n["negforward"] || !n["negbackward"] }' "$WORK/spc1-br.csv"
check "SPC1 forward branch ends at the 84.53 mm peak" awk -F, '
    $1 == "pos" && $2 == "forward" { last = $3 } END { exit last != 84.53 }' "$WORK/spc1-br.csv"
check "SPC1 backbone ordered by growing |q|" awk -F, '
    NR > 1 { a = ($2 < 0 ? -$2 : $2); if ($1 == p && a <= prev) exit 1; p = $1; prev = a; n++ } END { exit n != 16 }' \
    "$WORK/spc1-bb.csv"

# ---- Hys1: no header, displacement column 1, force column 2 (the source divides force by 1000) ------------------
check "Hys1 analysed" "$HYST" loops "$HYS1" --y-scale 0.001 --json "$WORK/hys1.json" --cycles-csv "$WORK/hys1.csv"
check_num "Hys1 rows" "$(jnum rows "$WORK/hys1.json")" 290 0
check_num "Hys1 reversals" "$(jnum reversals "$WORK/hys1.json")" 27 0
check "Hys1 threshold rule is the cap (digitised, sparse)" test "$(jstr threshold_rule "$WORK/hys1.json")" = cap
check_num "Hys1 total energy = README 223.58" "$(jnum total_energy "$WORK/hys1.json")" 223.58 2e-5
awk -F, -v q=1 -v Q=2 -v Qscale=0.001 -f "$REF" "$HYS1" >"$WORK/hys1-ref.txt"
check_num "Hys1 total energy = awk trapezoid" "$(jnum total_energy "$WORK/hys1.json")" \
    "$(awk '$1 == "total" { print $2 }' "$WORK/hys1-ref.txt")" 1e-12
check_num "Hys1 cycles" "$(($(wc -l <"$WORK/hys1.csv") - 1))" 13 0
compare_cycles "Hys1 13 cycle energies and cumulative = awk closed paths" "$WORK/hys1.csv" "$HYS1" 1 2 0.001
# rows 233-234 jump from q = -2.07 to +45.43 (digitised): the boundary is the sample nearer to 0, so cycle 11
# keeps its own peak 41.48 and cycle 12 starts at row 233
check "Hys1 boundary at the sample nearer to 0 on a jump" awk -F, '
    NR == 12 && ($3 != 233 || $6 < 41.4755 || $6 > 41.4757) { exit 1 } NR == 13 && $2 != 233 { exit 1 }' "$WORK/hys1.csv"
check "Hys1 from standard input" sh -c "\"$HYST\" loops - --y-scale 0.001 --json - <\"$HYS1\" >\"$WORK/stdin.json\""
check_num "Hys1 from standard input: same total" "$(jnum total_energy "$WORK/stdin.json")" \
    "$(jnum total_energy "$WORK/hys1.json")" 0

# ---- every bundled record: one cycle per protocol cycle (fixtures/synthetic/README.md), inner loops in the cycles
#      the README names, no negative amplitude, no negative energy beyond the force noise ----------------------
# check_record NAME FILE SIGMA_Q CYCLES INNER [OPTIONS]: INNER is the list of cycles with inner loops ("3 5");
# SIGMA_Q the force noise of the record (0 for the real records: energies must be >= 0). With white noise of
# standard deviation s on Q, the area of a closed polygon sum_i Q_i (q_{i+1} - q_{i-1}) / 2 has the standard
# deviation s sqrt(sum_i ((q_{i+1} - q_{i-1}) / 2)^2): a cycle whose true energy is 0 (inside the backlash) may
# come out negative within 3 of those.
check_record() {
    name=$1 file=$2 sQ=$3 want=$4 inner=$5; shift 5
    if ! "$HYST" loops "$file" --cycles-csv "$WORK/rec.csv" --quiet "$@" 2>"$WORK/.err"; then
        not_ok "$name analysed"; sed 's/^/    /' "$WORK/.err" | head -5; return; fi
    check_num "$name: $want cycles" "$(($(wc -l <"$WORK/rec.csv") - 1))" "$want" 0
    got=$(awk -F, 'NR > 1 && $15 > 0 { printf "%s%s", s, $1; s = " " }' "$WORK/rec.csv")
    if [ "$got" = "$inner" ]; then ok "$name: inner loops in cycles '$inner'"; else
        not_ok "$name: inner loops in cycles '$got', expected '$inner'"; fi
    bad=$(awk -F, -v sQ="$sQ" '
        FNR == 1 { f++ }
        f == 1 && FNR > 1 { n++; q[n] = $2 + 0 }          # synthetic records: t,q,Q,state (one header line)
        f == 2 && FNR > 1 {
            if ($6 < 0 || $7 < 0) print "cycle " $1 ": amplitude " $6 " / " $7
            if ($10 < 0) {
                a = $2 + 0; b = $3 + 0; v = 0
                for (i = a; sQ > 0 && i <= b; i++) {    # closed polygon a..b: neighbours wrap around
                    w = (q[i == b ? a : i + 1] - q[i == a ? b : i - 1]) / 2; v += w * w }
                if (-$10 > 3 * sQ * sqrt(v)) print "cycle " $1 ": energy " $10 " (noise sigma " sQ * sqrt(v) ")"
                else print "cycle " $1 ": energy " $10 " within 3 sigma = " 3 * sQ * sqrt(v) " of 0" > "/dev/stderr"
            }
        }' "$file" "$WORK/rec.csv" 2>"$WORK/allow.txt" | head -n 3 | tr '\n' ';')
    if [ -z "$bad" ]; then ok "$name: no negative amplitude, no negative energy$( [ -s "$WORK/allow.txt" ] &&
        printf ' (%s)' "$(tr '\n' ' ' <"$WORK/allow.txt" | sed 's/ *$//')")"; else not_ok "$name: $bad"; fi
}
S="$FIXTURES/synthetic"
check_record "kin_paper_fit" "$S/kin_paper_fit.csv" 0.709 7 "4"
check_record "kin_paper_val" "$S/kin_paper_val.csv" 0.709 6 "3 5"
check_record "pwl_asymmetric_fit" "$S/pwl_asymmetric_fit.csv" 46.5 6 "3"
check_record "pwl_asymmetric_val" "$S/pwl_asymmetric_val.csv" 46.5 5 "2 4"
check_record "pwl_double_loop_fit" "$S/pwl_double_loop_fit.csv" 30 7 "4"
check_record "pwl_double_loop_val" "$S/pwl_double_loop_val.csv" 30 6 "3 5"
check_record "pwl_friction_fit" "$S/pwl_friction_fit.csv" 10 6 "2"
check_record "pwl_friction_val" "$S/pwl_friction_val.csv" 10 5 "3"
check_record "pwl_small_stiff_fit" "$S/pwl_small_stiff_fit.csv" 116 5 "2"
check_record "pwl_small_stiff_val" "$S/pwl_small_stiff_val.csv" 116 20 "17"
check_record "pwl_zero_backlash_fit" "$S/pwl_zero_backlash_fit.csv" 12.5 7 "3"
check_record "pwl_zero_backlash_val" "$S/pwl_zero_backlash_val.csv" 12.5 10 "4 8"
check_record "SPC1" "$SPC1" 0 28 ""
check_record "Hys1" "$HYS1" 0 13 "" --y-scale 0.001
# records about q0 = 1: the same cycles about their own centre
check_record "pwl_asymmetric_fit --center 1" "$S/pwl_asymmetric_fit.csv" 46.5 6 "3" --center 1
check_record "pwl_asymmetric_val --center 1" "$S/pwl_asymmetric_val.csv" 46.5 5 "2 4" --center 1

# ---- --center: a record shifted by 100 is the same record about its centre 100 -----------------------------------
awk -F, 'NR == 1 { print; next } { $2 = $2 + 100; print }' OFS=, "$S/pwl_double_loop_fit.csv" >"$WORK/shift.csv"
check "shifted record about --center 100" "$HYST" loops "$WORK/shift.csv" --center 100 --json "$WORK/shift.json" \
    --cycles-csv "$WORK/shift-c.csv"
check "shifted record: center-crossing about 100" test "$(jstr cycle_rule "$WORK/shift.json")" = center-crossing
check_num "shifted record: centre reported" "$(jnum center "$WORK/shift.json")" 100 0
"$HYST" loops "$S/pwl_double_loop_fit.csv" --cycles-csv "$WORK/orig-c.csv" --quiet
check "shifted record: same rows, amplitudes and energies (1e-9)" awk -F, '
    FNR == 1 { f++; next }
    f == 1 { r[FNR] = $2 " " $3; a[FNR] = $6; b[FNR] = $7; e[FNR] = $10; next }
    { if (r[FNR] != $2 " " $3) exit 1; d = $10 - e[FNR]; if (d < 0) d = -d; if (d > 1e-9 * e[FNR]) exit 1
      d = $6 - a[FNR]; if (d < 0) d = -d; if (d > 1e-9) exit 1; d = $7 - b[FNR]; if (d < 0) d = -d; if (d > 1e-9) exit 1 }
    END { if (FNR != 8) exit 1 }' "$WORK/orig-c.csv" "$WORK/shift-c.csv"
check "shifted record without --center: one-sided" "$HYST" loops "$WORK/shift.csv" --json "$WORK/shift0.json"
check "... named so" test "$(jstr cycle_rule "$WORK/shift0.json")" = one-sided
check "... on the positive side" test "$(jstr cycle_side "$WORK/shift0.json")" = positive
# inner loops listed with their rows, energy and cycle
check_num "inner loops listed" "$(grep -c '"turn_row"' "$WORK/shift.json")" 4 0
check "inner loops in cycle 4" awk '/^\t"inner_loops":/ { on = 1 } /^\t"half_cycles":/ { on = 0 }
    on && /"cycle":/ { if ($2 + 0 != 4) exit 1; n++ } END { exit n != 4 }' "$WORK/shift.json"

# ---- options ---------------------------------------------------------------------------------------------------
check "given threshold" "$HYST" loops "$SPC1" --threshold 2 --json "$WORK/t2.json"
check "given threshold is reported" test "$(jstr threshold_rule "$WORK/t2.json")" = given
check_num "SPC1 count is the same at 2 mm" "$(jnum reversals "$WORK/t2.json")" 56 0
check "a threshold above the smallest cycles drops them" "$HYST" loops "$SPC1" --threshold 6 --json "$WORK/t6.json"
check "6 mm: fewer reversals" test "$(jnum reversals "$WORK/t6.json")" -lt 56
check "--quiet prints nothing" sh -c "test -z \"\$(\"$HYST\" loops \"$HYS1\" --quiet)\""
check "--help" "$HYST" loops --help
cp "$WORK/.out" "$WORK/help.txt"
check "--help shows the data options" grep -q -- "--x-scale" "$WORK/help.txt"
check "hyst help loops" "$HYST" help loops

# ---- bad input and bad usage -------------------------------------------------------------------------------------
check_fails "missing file" "nope\.csv" "$HYST" loops "$WORK/nope.csv"
check_fails "no input" "hyst loops: missing FILE" "$HYST" loops
check_fails "two inputs" "unexpected argument '.*Hys1.csv'" "$HYST" loops "$SPC1" "$HYS1"
check_fails "threshold 0" "--threshold: expected a positive" "$HYST" loops "$SPC1" --threshold 0
check_fails "threshold negative" "--threshold" "$HYST" loops "$SPC1" --threshold -1
check_fails "threshold not a number" "--threshold" "$HYST" loops "$SPC1" --threshold abc
check_fails "amp-tol 1" "--amp-tol" "$HYST" loops "$SPC1" --amp-tol 1
check_fails "center not a number" "--center" "$HYST" loops "$SPC1" --center abc
check_fails "center not finite" "--center" "$HYST" loops "$SPC1" --center inf
check_fails "unknown option" "unknown option" "$HYST" loops "$SPC1" --frobnicate
check_fails "option without value" "needs a value" "$HYST" loops "$SPC1" --json
check_fails "two outputs on standard output" "--json and --cycles-csv both write to standard output" "$HYST" loops "$SPC1" --json - --cycles-csv -
"$HYST" loops "$SPC1" --threshold 0 >/dev/null 2>&1
check_num "bad usage exits 2" $? 2 0

printf 'q,Q\n1,0\n2,1\n' >"$WORK/two.csv"
check_fails "two rows" "two.csv.*at least 3 samples" "$HYST" loops "$WORK/two.csv"
"$HYST" loops "$WORK/two.csv" >/dev/null 2>&1
check_num "data errors exit 1" $? 1 0
printf 'q,Q\n1,0\n1,1\n1,2\n1,3\n' >"$WORK/const.csv"
check_fails "constant displacement" "const.csv.*constant" "$HYST" loops "$WORK/const.csv"
printf 'q,Q\n0,0\n1,1\n2,2\n3,3\n4,4\n' >"$WORK/mono.csv"
check "monotone record: no reversal, no error" "$HYST" loops "$WORK/mono.csv" --json "$WORK/mono.json"
check_num "monotone: 0 reversals" "$(jnum reversals "$WORK/mono.json")" 0 0
check_num "monotone: total energy 1/2 k q^2 = 8" "$(jnum total_energy "$WORK/mono.json")" 8 1e-15
check "monotone: --branches works" "$HYST" loops "$WORK/mono.csv" --branches "$WORK/mono-br.csv"
check "monotone: forward branch written" test "$(grep -c '^pos,forward' "$WORK/mono-br.csv")" -eq 4
printf 'q,Q\n0,0\n1,x\n2,2\n' >"$WORK/bad.csv"
check_fails "non-numeric cell names file and line" "bad.csv:3" "$HYST" loops "$WORK/bad.csv"
printf 'q,Q\n0.001,0\n0,1\n0.001,2\n0,3\n' >"$WORK/tiny.csv"
check_fails "no motion above the threshold: --branches fails clearly" "threshold" \
    "$HYST" loops "$WORK/tiny.csv" --threshold 1 --branches "$WORK/tiny-br.csv"
check "... and writes nothing" test ! -e "$WORK/tiny-br.csv"

# ---- outputs are atomic and never overwrite the input -------------------------------------------------------------
cp "$HYS1" "$WORK/in.csv"
sum0=$(cksum <"$WORK/in.csv")
check_fails "refuses to write the report over the input" "in.csv: refusing to overwrite an input file" \
    "$HYST" loops "$WORK/in.csv" --json "$WORK/in.csv"
check "input unchanged" test "$(cksum <"$WORK/in.csv")" = "$sum0"
echo "previous" >"$WORK/keep.json"
check_fails "failed run" "constant" "$HYST" loops "$WORK/const.csv" --json "$WORK/keep.json"
check "a failed run leaves the earlier output" test "$(cat "$WORK/keep.json")" = previous
check "no temporary files left" sh -c "! ls \"$WORK\" | grep -q tmp"
check "a good run replaces it" "$HYST" loops "$HYS1" --json "$WORK/keep.json"
check "replaced by a report" grep -q '"format":[[:space:]]*"hyst-loops"' "$WORK/keep.json"
finish

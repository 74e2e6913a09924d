# End-to-end tests of reading bench records (the shared data options) through `hyst loops`:
# every layout the reader accepts gives the same record, every bad input fails with FILE:LINE:COLUMN.
. "$TOP/tests/e2e/lib.sh"

BAD="$FIXTURES/bad"

# json_val KEY < json: the first scalar value of "KEY" in the report
json_val() { sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}[[:space:]]*\$/\1/p" | head -n 1; }

# report ARGS...: the JSON report of `hyst loops ARGS` in $WORK/r.json (stderr in $WORK/r.err)
report() { "$HYST" loops --json - "$@" >"$WORK/r.json" 2>"$WORK/r.err"; }

# check_exit NAME STATUS PATTERN CMD...: CMD exits with STATUS and its stderr matches PATTERN
check_exit() {
    n=$1; want=$2; pat=$3; shift 3
    "$@" >"$WORK/.out" 2>"$WORK/.err"; rc=$?
    if [ "$rc" -ne "$want" ]; then not_ok "$n (exit $rc, expected $want)"; sed 's/^/    /' "$WORK/.err" | head -5; return; fi
    if grep -Eq -- "$pat" "$WORK/.err"; then ok "$n"; else not_ok "$n (stderr did not match '$pat')"; sed 's/^/    /' "$WORK/.err" | head -5; fi
}

# check_eq NAME ACTUAL EXPECTED
check_eq() { if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1 (got '$2', expected '$3')"; fi; }

# ---- the real records --------------------------------------------------------------------------------------
SPC1="$FIXTURES/real/SPC1.csv"
HYS1="$FIXTURES/real/Hys1.csv"
report "$SPC1"
check_eq "SPC1: rows" "$(json_val rows <"$WORK/r.json")" 33028
check_eq "SPC1: q is the displacement column (detected)" "$(json_val q <"$WORK/r.json")" "Lead Actuator Displacment"
grep -q '"q":[[:space:]]*"mm"' "$WORK/r.json" && ok "SPC1: units from the units row" || not_ok "SPC1: units from the units row"
check_num "SPC1: total energy (README: 28035.90 kN mm)" "$(json_val total_energy <"$WORK/r.json")" 28035.90 1e-6
report "$HYS1"
check_eq "Hys1: rows (no header)" "$(json_val rows <"$WORK/r.json")" 290
report --y-scale 0.001 "$HYS1"
check_num "Hys1: --y-scale 0.001 energy (README: 223.58)" "$(json_val total_energy <"$WORK/r.json")" 223.58 2e-5
report --no-header "$HYS1"
check_eq "Hys1: --no-header" "$(json_val rows <"$WORK/r.json")" 290
"$HYST" loops --json - - <"$SPC1" >"$WORK/stdin.json" 2>"$WORK/r.err"
check_eq "standard input '-'" "$(json_val rows <"$WORK/stdin.json")" 33028
check_eq "standard input is named <stdin>" "$(json_val source <"$WORK/stdin.json")" "<stdin>"

# ---- one record in many layouts: every variant must give the same rows and energy ------------------------
# 200 samples of a loop of growing amplitude, force first as in SPC1.
awk 'BEGIN { pi = atan2(0, -1); printf "Force,Displacement\n";
             for (i = 0; i < 200; i++) { q = (1 + i / 100) * sin(2 * pi * i / 50);
                 printf "%.6f,%.6f\n", 2 * q + 0.5 * cos(2 * pi * i / 50), q } }' >"$WORK/base.csv"
report "$WORK/base.csv"
E0=$(json_val total_energy <"$WORK/r.json")
check_eq "base layout: rows" "$(json_val rows <"$WORK/r.json")" 200

variant() { # variant NAME FILE [OPTIONS]: same rows and energy as the base
    name=$1; file=$2; shift 2
    if report "$@" "$file"; then
        check_eq "$name: rows" "$(json_val rows <"$WORK/r.json")" 200
        check_num "$name: same energy" "$(json_val total_energy <"$WORK/r.json")" "$E0" 1e-12
    else
        not_ok "$name: read"; sed 's/^/    /' "$WORK/r.err" | head -3
    fi
}
sed 's/,/;/; s/\./,/g' "$WORK/base.csv" >"$WORK/semi.csv"           # 1,5;2,3 (decimal comma)
variant "semicolon + decimal comma" "$WORK/semi.csv"
variant "semicolon forced" "$WORK/semi.csv" --delimiter ';'
tr ',' '\t' <"$WORK/base.csv" >"$WORK/tab.csv"
variant "tab separator" "$WORK/tab.csv"
variant "tab forced" "$WORK/tab.csv" --delimiter tab
sed 's/$/\r/' "$WORK/base.csv" >"$WORK/crlf.csv"
variant "CRLF" "$WORK/crlf.csv"
{ printf '\357\273\277# rig 3, specimen "A\n\n'; sed '1s/.*/"Force","Displacement"/; 2a\
# operator paused here
' "$WORK/base.csv"; printf '\n\n'; } >"$WORK/bom.csv"
variant "BOM, comments, blank lines, quoted names" "$WORK/bom.csv"
sed '1a\
kN,mm' "$WORK/base.csv" >"$WORK/units.csv"
variant "units row" "$WORK/units.csv"
variant "units row forced" "$WORK/units.csv" --units-row
sed 's/^\([^,]*\),\(.*\)$/\2,\1/' "$WORK/base.csv" >"$WORK/swapped.csv"
variant "displacement first (detected by name)" "$WORK/swapped.csv"
variant "--x 2 --y 1" "$WORK/base.csv" --x 2 --y 1
variant "--x/--y by name, any case" "$WORK/base.csv" --x ' displacement' --y FORCE
tail -n +2 "$WORK/base.csv" >"$WORK/nohead.csv"
variant "no header, --x 2 --y 1" "$WORK/nohead.csv" --x 2 --y 1
awk -F, 'NR == 1 { print "time," $0; next } { printf "%.3f,%s\n", (NR - 2) * 0.01, $0 }' "$WORK/base.csv" >"$WORK/time.csv"
variant "--t time" "$WORK/time.csv" --t time
variant "--t 1" "$WORK/time.csv" --t 1 --x Displacement --y 2

report --x-scale 2 "$WORK/base.csv"
check_num "--x-scale 2 doubles the energy" "$(json_val total_energy <"$WORK/r.json")" "$(awk -v e="$E0" 'BEGIN { printf "%.17g", 2 * e }')" 1e-12
report --y-scale -0.5 "$WORK/base.csv"
check_num "--y-scale -0.5" "$(json_val total_energy <"$WORK/r.json")" "$(awk -v e="$E0" 'BEGIN { printf "%.17g", -0.5 * e }')" 1e-12
report --x 1 --y 2 "$WORK/base.csv"
check_eq "--x 1 takes column 1" "$(json_val q <"$WORK/r.json")" "Force"

# ---- --skip-bad-rows: row errors become counted warnings (10 shown) ----------------------------------------
awk 'NR > 1 && NR % 10 == 0 { print "oops," $0; next } { print }' "$WORK/base.csv" | sed 's/^oops,[^,]*,/oops,/' >"$WORK/noisy.csv"
check_exit "noisy file fails without --skip-bad-rows" 1 'noisy.csv:10:1: found .oops., expected a number' "$HYST" loops "$WORK/noisy.csv"
if report --skip-bad-rows "$WORK/noisy.csv"; then
    check_eq "--skip-bad-rows keeps the good rows" "$(json_val rows <"$WORK/r.json")" 180
    check_eq "--skip-bad-rows prints 10 warnings" "$(grep -c 'warning: .*noisy.csv:[0-9]*:1: skipped row' "$WORK/r.err")" 10
    grep -q 'warning: 10 more warnings not shown' "$WORK/r.err" && ok "--skip-bad-rows counts the rest" ||
        not_ok "--skip-bad-rows counts the rest"
    grep -q 'warning: .*noisy.csv: skipped 20 bad rows, kept 180' "$WORK/r.err" && ok "--skip-bad-rows summary" ||
        not_ok "--skip-bad-rows summary"
else
    not_ok "--skip-bad-rows read"; sed 's/^/    /' "$WORK/r.err" | head -3
fi
check_exit "--skip-bad-rows: a missing column is still an error" 1 "base.csv:1:1: found no column named 'stroke'" \
    "$HYST" loops --skip-bad-rows --x stroke "$WORK/base.csv"

# ---- every bad input: exit 1, one line FILE:LINE:COLUMN: found ..., expected ... --------------------------
check_exit "non-numeric cell" 1 "non_numeric.csv:5:1: found 'abc', expected a number" "$HYST" loops "$BAD/non_numeric.csv"
check_exit "NaN" 1 "nan.csv:3:2: found 'NaN', expected a finite number" "$HYST" loops "$BAD/nan.csv"
check_exit "inf" 1 "inf.csv:4:1: found '-inf', expected a finite number" "$HYST" loops "$BAD/inf.csv"
check_exit "short row" 1 "short_row.csv:4:2: found 1 cell, expected at least 2" "$HYST" loops "$BAD/short_row.csv"
check_exit "empty file" 1 "empty.csv:1:1: found the end of the file, expected rows of numbers" "$HYST" loops "$BAD/empty.csv"
check_exit "header only" 1 "header_only.csv:4:1: found the end of the file" "$HYST" loops "$BAD/header_only.csv"
check_exit "missing column name" 1 "units_row.csv:1:1: found no column named 'stroke' for the displacement \(x\), expected one of: 'Force', 'Displacement'" \
    "$HYST" loops --x stroke "$BAD/units_row.csv"
check_exit "column index past the end" 1 "units_row.csv:1:2: found 2 columns in the header, expected a column 7" \
    "$HYST" loops --y 7 "$BAD/units_row.csv"
check_exit "name without a header" 1 "found no header row, expected one to find the column named 'force'" \
    "$HYST" loops --no-header --y force "$HYS1"
check_exit "duplicate names (detected)" 1 "duplicate_names.csv:1:3: found the column name 'Force' twice \(columns 1 and 3\)" \
    "$HYST" loops "$BAD/duplicate_names.csv"
check_exit "duplicate names (selected)" 1 "duplicate_names.csv:1:3: found 2 columns named 'Force'" \
    "$HYST" loops --y force "$BAD/duplicate_names.csv"
check "duplicate names chosen by index" "$HYST" loops --y 3 "$BAD/duplicate_names.csv"
check_exit "forced units row that is not units" 1 "units_missing.csv:2:1: found '0.02', expected a unit" \
    "$HYST" loops --units-row "$BAD/units_missing.csv"
check_exit "units row where data is expected" 1 "units_row.csv:2:1: found a units row where a data row was expected" \
    "$HYST" loops --no-units-row "$BAD/units_row.csv"
check_exit "header read as data (--no-header)" 1 "units_row.csv:1:1: found 'Force', expected a number .*looks like a header" \
    "$HYST" loops --no-header "$BAD/units_row.csv"
check_exit "time going backwards" 1 "time_backwards.csv:5:1: found time 0.015 after 0.02 on line 4, expected time that does not go backwards" \
    "$HYST" loops --t time "$BAD/time_backwards.csv"
check "time is not checked without --t" "$HYST" loops "$BAD/time_backwards.csv"
check_exit "unterminated quote" 1 "unterminated_quote.csv:3:2: found a quoted field that is never closed" \
    "$HYST" loops "$BAD/unterminated_quote.csv"
check_exit "UTF-16 file" 1 "utf16.csv:1:1: found a UTF-16 byte-order mark, expected UTF-8" "$HYST" loops "$BAD/utf16.csv"
check_exit "missing file" 1 "nosuch.csv: cannot open: No such file or directory" "$HYST" loops "$WORK/nosuch.csv"
check_exit "bad row on standard input" 1 "<stdin>:5:1: found 'abc'" sh -c '"$HYST" loops - <"$1"' sh "$BAD/non_numeric.csv"
for f in non_numeric nan inf short_row empty header_only duplicate_names unterminated_quote utf16; do
    "$HYST" loops "$BAD/$f.csv" >/dev/null 2>"$WORK/one.err"
    [ "$(wc -l <"$WORK/one.err")" -eq 1 ] && grep -q "^hyst loops: .*$f.csv:[0-9]*:[0-9]*: found " "$WORK/one.err" &&
        ok "$f: one line 'hyst loops: FILE:LINE:COL: found ...'" || not_ok "$f: one-line message"
done

# ---- bad option values: usage errors, exit 2 ---------------------------------------------------------------
check_exit "--delimiter must be , ; or tab" 2 "--delimiter: expected ',', ';' or 'tab', got '\|'" "$HYST" loops --delimiter '|' "$HYS1"
check_exit "--x-scale 0" 2 "--x-scale: expected a finite non-zero factor" "$HYST" loops --x-scale 0 "$HYS1"
check_exit "--y-scale nan" 2 "--y-scale: 'nan' is not a finite number" "$HYST" loops --y-scale nan "$HYS1"
check_exit "--x 0" 2 "--x: expected a 1-based column index, got '0'" "$HYST" loops --x 0 "$HYS1"
check_exit "--x and --y the same column" 1 "are both column 2, expected different columns" "$HYST" loops --x 2 --y 2 "$HYS1"
"$HYST" loops --help >"$WORK/help.txt" 2>&1
grep -q -- "--skip-bad-rows" "$WORK/help.txt" && grep -q -- "--units-row" "$WORK/help.txt" && ok "--help lists the data options" ||
    not_ok "--help lists the data options"

finish

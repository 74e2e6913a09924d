# End-to-end tests of `hyst fit kin`: a round trip through `hyst sim` of the paper's law (spec 002 §3.2), the real
# records of fixtures/real, the model file read back by `hyst replay`, and clear errors on bad input and options.
. "$TOP/tests/e2e/lib.sh"

# sec_val SECTION KEY < json: the first scalar "KEY" after the line that opens "SECTION" (cJSON's printed layout)
sec_val() {
    awk -v s="\"$1\":" -v k="\"$2\":" 'index($0, s) { on = 1 } on && index($0, k) == match($0, /[^ \t]/) {
        v = $0; sub(/^[^:]*:[ \t]*/, "", v); sub(/,[ \t]*$/, "", v); gsub(/"/, "", v); print v; exit }'
}
# check_exit NAME STATUS PATTERN CMD...: CMD exits with STATUS and its stderr matches PATTERN
check_exit() {
    n=$1; want=$2; pat=$3; shift 3
    "$@" >"$WORK/.out" 2>"$WORK/.err"; rc=$?
    if [ "$rc" -ne "$want" ]; then not_ok "$n (exit $rc, expected $want)"; sed 's/^/    /' "$WORK/.err" | head -5; return; fi
    if grep -Eq -- "$pat" "$WORK/.err"; then ok "$n"; else not_ok "$n (stderr did not match '$pat')"; sed 's/^/    /' "$WORK/.err" | head -5; fi
}
# check_lt NAME A B: A < B (numbers)
check_lt() { if awk -v a="$2" -v b="$3" 'BEGIN { exit !(a + 0 < b + 0) }'; then ok "$1"; else not_ok "$1 (got $2, expected < $3)"; fi; }

check "help" "$HYST" fit kin --help
grep -q -- "--smooth" "$WORK/.out" && ok "help lists --smooth" || not_ok "help lists --smooth"

# ---- round trip: the paper's reduced law (spec 002 §3.2) through hyst sim, with inner loops and force noise ------
cat >"$WORK/paper.json" <<'EOF'
{"format": "hyst-model", "version": 1, "model": "kin", "units": {"q": "rad", "Q": "N m"}, "rule": "symmetric",
 "C": [[650.9, -23.9], [1422.2, -4.1], [0, -2.0], [0, -0.35], [0, 143.2], [0, 419.8]], "q_range": [-0.52, 0.52]}
EOF
check "sim the paper's law" "$HYST" sim "$WORK/paper.json" --protocol triangle --amplitudes 0.45 --cycles 3 \
    --inner 0.4:0.3 --points 1200 --noise 0.5 --seed 3 -o "$WORK/paper.csv"
check "fit kin of the simulated record" "$HYST" fit kin "$WORK/paper.csv" --x q --y Q -o "$WORK/fit.json" \
    --report "$WORK/rep.json"
grep -q "chosen (k, m)" "$WORK/.out" && ok "summary on standard output" || not_ok "summary on standard output"
# spec 002 §6.2 B: steady loop of the true law at A = 0.45 has W = 40.560; the fitted law's within 5 %
check_num "steady-loop energy within 5 % of 40.560" "$(sec_val steady_loop energy <"$WORK/rep.json")" 40.560 0.05
check_eq() { if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1 (got '$2', expected '$3')"; fi; }
check_eq "attraction check passes" "$(sec_val attraction ok <"$WORK/rep.json")" true
check_eq "steady loop closes" "$(sec_val steady_loop ok <"$WORK/rep.json")" true
# noise 0.5 N m over a peak-to-peak force of ~141 N m: NRMSE ~ 0.35 %
check_lt "integrated NRMSE at the noise level" "$(sec_val final nrmse <"$WORK/rep.json")" 0.007
check_eq "report stored in the model file" "$(sec_val fit tool <"$WORK/fit.json")" "hyst fit kin"
check_eq "model family" "$(sed -n 's/^[[:space:]]*"model":[[:space:]]*"\([a-z]*\)".*/\1/p' "$WORK/fit.json" | head -n 1)" kin
n_cand=$(grep -c '"status":' "$WORK/rep.json")
check_eq "64 candidates reported" "$n_cand" 64
# the model file is usable: hyst replay gives the same NRMSE as the fit's own integrated score
check "replay the fitted model" "$HYST" replay --json "$WORK/replay.json" "$WORK/fit.json" "$WORK/paper.csv" --x q --y Q
check_num "replay NRMSE = fit NRMSE" "$(sed -n 's/^[[:space:]]*"nrmse":[[:space:]]*\([^,]*\),*$/\1/p' "$WORK/replay.json" | head -n 1)" \
    "$(sec_val final nrmse <"$WORK/rep.json")" 0.02
# fixed order, two-set rule, finite differences, limit loop only, refinement
check "fixed (6, 2)" "$HYST" fit kin -q "$WORK/paper.csv" --x q --y Q --k 6 --m 2 -o "$WORK/f62.json" --report "$WORK/r62.json"
check_eq "fixed (6, 2) reported as not selected" "$(sec_val chosen selected <"$WORK/r62.json")" false
check_num "fixed (6, 2) steady-loop energy" "$(sec_val steady_loop energy <"$WORK/r62.json")" 40.560 0.05
check "two-set rule" "$HYST" fit kin -q "$WORK/paper.csv" --x q --y Q --rule two-set --max-k 6 --max-m 3 -o "$WORK/f2.json"
grep -q '"C_unloading"' "$WORK/f2.json" && ok "two-set model has C_unloading" || not_ok "two-set model has C_unloading"
check_num "two-set steady-loop energy" "$(sec_val steady_loop energy <"$WORK/f2.json")" 40.560 0.05
check "finite differences, limit loop" "$HYST" fit kin -q "$WORK/paper.csv" --x q --y Q --smooth fd --branches limit \
    --max-k 6 --max-m 3 -o "$WORK/ffd.json"
check "refinement" "$HYST" fit kin -q "$WORK/paper.csv" --x q --y Q --k 2 --m 2 --refine -o "$WORK/fref.json" \
    --report "$WORK/rref.json"
check_lt "refinement lowers the integrated error" "$(sec_val refinement nrmse_after <"$WORK/rref.json")" \
    "$(sec_val refinement nrmse_before <"$WORK/rref.json")"
check "model to standard output" "$HYST" fit kin "$WORK/paper.csv" --x q --y Q --max-k 3 --max-m 2
grep -q '"format":[[:space:]]*"hyst-model"' "$WORK/.out" && ok "stdout is the model" || not_ok "stdout is the model"

# ---- the real records (fixtures/real, credits in its CREDITS.md) ---------------------------------------------------
SPC1="$FIXTURES/real/SPC1.csv"
HYS1="$FIXTURES/real/Hys1.csv"
check "SPC1" "$HYST" fit kin -q "$SPC1" -o "$WORK/spc1.json" --report "$WORK/spc1r.json" --refine
check_eq "SPC1 units kept" "$(sec_val units q <"$WORK/spc1.json")" mm
check_lt "SPC1 integrated NRMSE < 5 %" "$(sec_val final nrmse <"$WORK/spc1r.json")" 0.05
check_eq "SPC1 attracting" "$(sec_val attraction ok <"$WORK/spc1r.json")" true
check "SPC1 replay" "$HYST" replay --json "$WORK/spc1p.json" "$WORK/spc1.json" "$SPC1"
check_num "SPC1 replay NRMSE = fit NRMSE" "$(sed -n 's/^[[:space:]]*"nrmse":[[:space:]]*\([^,]*\),*$/\1/p' "$WORK/spc1p.json" | head -n 1)" \
    "$(sec_val final nrmse <"$WORK/spc1r.json")" 0.02
check "Hys1" "$HYST" fit kin -q --no-header "$HYS1" -o "$WORK/hys1.json" --report "$WORK/hys1r.json"
check_lt "Hys1 integrated NRMSE < 12 %" "$(sec_val final nrmse <"$WORK/hys1r.json")" 0.12

# ---- errors -----------------------------------------------------------------------------------------------
check_exit "no data file" 2 "hyst fit kin: missing DATA.csv" "$HYST" fit kin
check_exit "missing file" 1 "nope.csv" "$HYST" fit kin "$WORK/nope.csv"
check_exit "--k out of range" 2 "--k: '9' is not an integer from 1 to 8" "$HYST" fit kin --k 9 "$WORK/paper.csv"
check_exit "--rule unknown" 2 "--rule 'odd': expected symmetric or two-set" "$HYST" fit kin --rule odd "$WORK/paper.csv"
check_exit "--smooth bad" 2 "--smooth '0': expected a degree" "$HYST" fit kin --smooth 0 "$WORK/paper.csv"
check_exit "--max-m bad" 2 "--max-m" "$HYST" fit kin --max-m x "$WORK/paper.csv"
check_exit "unknown option" 2 "" "$HYST" fit kin --frobnicate "$WORK/paper.csv"
printf 'q,Q\n0,1\n1,1\n2,1\n1,1\n0,1\n' >"$WORK/flat.csv"
check_exit "constant force" 1 "flat.csv: the force is constant" "$HYST" fit kin "$WORK/flat.csv" -o "$WORK/x.json"
printf 'q,Q\n1,0\n1,1\n1,2\n1,3\n1,4\n' >"$WORK/still.csv"
check_exit "constant displacement" 1 "displacement is constant" "$HYST" fit kin "$WORK/still.csv" -o "$WORK/x.json"
printf 'q,Q\n0,0\n1,1\n' >"$WORK/short.csv"
check_exit "too few samples" 1 "at least 4" "$HYST" fit kin "$WORK/short.csv" -o "$WORK/x.json"
printf 'q,Q\n0,0\n1,nan\n' >"$WORK/nan.csv"
check_exit "NaN in the record names the place" 1 "nan.csv:3" "$HYST" fit kin "$WORK/nan.csv" -o "$WORK/x.json"
[ -e "$WORK/x.json" ] && not_ok "no model written on failure" || ok "no model written on failure"
cp "$WORK/paper.csv" "$WORK/keep.csv"
check_exit "refuses to overwrite the input" 1 "keep.csv" "$HYST" fit kin "$WORK/keep.csv" --x q --y Q -o "$WORK/keep.csv"
cmp -s "$WORK/keep.csv" "$WORK/paper.csv" && ok "input left intact" || not_ok "input left intact"
check_exit "report and model both on stdout" 2 "standard output" "$HYST" fit kin "$WORK/paper.csv" --report -

finish

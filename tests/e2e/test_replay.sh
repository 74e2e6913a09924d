#!/bin/sh
# End-to-end tests of `hyst replay`: self-replay gives NRMSE 0, noise of known sigma is measured as such, the
# energies agree with an independent awk computation, the CSV and JSON layouts, and the errors.
TOP=${TOP:-.}
. "$TOP/tests/e2e/lib.sh"
M="$FIXTURES/models"
KIN="$M/paper-damper-full.json"
KIN2="$M/paper-damper-reduced.json"
D="--t 1 --x 2 --y 3"   # sim writes t,q,Q,state

# jget KEY FILE: the first value of "KEY" in a JSON file written by cJSON (one key per line)
jget() { sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\([^,]*\),*$/\1/p" "$2" | head -n 1; }

check "help exits 0" $HYST replay --help
check "sim clean record" $HYST sim "$KIN" --protocol sine --amplitudes 0.1,0.2,0.3,0.4 --cycles 2 --points 400 \
    -o "$WORK/clean.csv"

# 1. a model replayed on the record it generated itself: zero error to rounding
check "replay own record" $HYST replay $D "$KIN" "$WORK/clean.csv" --json "$WORK/self.json" -o "$WORK/self.csv"
check_num "self-replay NRMSE is 0" "$(jget nrmse "$WORK/self.json")" 0 1e-12
check_num "self-replay max error is 0" "$(jget max_abs_error "$WORK/self.json")" 0 1e-9
check_num "self-replay energy ratio is 1" "$(jget energy_ratio "$WORK/self.json")" 1 1e-12
for k in nrmse max_abs_error energy_measured energy_model energy_ratio; do
    if [ -n "$(jget $k "$WORK/self.json")" ]; then ok "JSON has $k"; else not_ok "JSON has $k"; fi
done
if grep -q '"cycles":[[:space:]]*\[{' "$WORK/self.json"; then ok "JSON has per-cycle objects"; else not_ok "JSON has per-cycle objects"; fi
if [ "$(head -n 1 "$WORK/self.csv")" = "t,q,Q_measured,Q_model" ]; then ok "CSV header"; else not_ok "CSV header: $(head -n 1 "$WORK/self.csv")"; fi
# the record has no units row: the model's units are used, and written as a units row
if [ "$(sed -n 2p "$WORK/self.csv")" = ",rad,N*m,N*m" ]; then ok "CSV units row from the model"; else
    not_ok "CSV units row: $(sed -n 2p "$WORK/self.csv")"; fi
check_num "CSV has every row" "$(wc -l < "$WORK/self.csv")" "$(($(wc -l < "$WORK/clean.csv") + 1))" 0
check_num "CSV Q_model equals Q_measured" \
    "$(awk -F, 'NR>2{d=$4-$3; if(d<0)d=-d; if(d>m)m=d} END{print m+0}' "$WORK/self.csv")" 0 1e-12

# 2. Gaussian noise of sigma 0.5 on 16 000 samples: RMS error = sigma within 3 % (sampling error ~0.6 %),
#    NRMSE = sigma / measured peak-to-peak
check "sim noisy record" $HYST sim "$KIN" --protocol sine --amplitudes 0.1,0.2,0.3,0.4 --cycles 2 --points 2000 \
    --noise 0.5 --seed 7 -o "$WORK/noisy.csv"
check "replay noisy record" $HYST replay $D "$KIN" "$WORK/noisy.csv" --json "$WORK/noisy.json"
ptp=$(jget Q_peak_to_peak "$WORK/noisy.json")
check_num "noisy RMS error = sigma" "$(jget rms_error "$WORK/noisy.json")" 0.5 0.03
check_num "noisy NRMSE = sigma / peak-to-peak" "$(jget nrmse "$WORK/noisy.json")" "$(awk -v p="$ptp" 'BEGIN{print 0.5/p}')" 0.03
awk_ptp=$(awk -F, 'NR==2{lo=$3;hi=$3} NR>1{if($3<lo)lo=$3; if($3>hi)hi=$3} END{printf "%.12g", hi-lo}' "$WORK/noisy.csv")
check_num "peak-to-peak as awk finds it" "$ptp" "$awk_ptp" 1e-12

# 3. the first cycle's measured energy, recomputed by awk (trapezoid along the cycle, closed back to its start)
r0=$(jget start_row "$WORK/noisy.json"); r1=$(jget end_row "$WORK/noisy.json")
e_awk=$(awk -F, -v a="$r0" -v b="$r1" 'NR>1{r=NR-1; if(r==a){q0=$2;Q0=$3} if(r>a && r<=b) e+=0.5*($3+Qp)*($2-qp);
    if(r==b) e+=0.5*($3+Q0)*(q0-$2); qp=$2; Qp=$3} END{printf "%.12g", e}' "$WORK/noisy.csv")
e_c1=$(sed -n '/"cycles":[[:space:]]*\[/,$p' "$WORK/noisy.json" | sed -n 's/^[[:space:]]*"energy_measured":[[:space:]]*\([^,]*\),*$/\1/p' | head -n 1)
check_num "first cycle energy = awk shoelace" "$e_c1" "$e_awk" 1e-9

# 3b. a piecewise-linear table on a triangle wave beyond its range: every cycle's energy is the loop area by hand,
#     2 x integral_0^5 (F - B) dq = 2 x (26.1875 - 16.328125) = 19.71875 (fixtures/models/pwl-symmetric.json)
PWL="$M/pwl-symmetric.json"
check "sim pwl triangle" $HYST sim "$PWL" --protocol triangle --amplitudes 5.5 --cycles 3 --points 440 -o "$WORK/tri.csv"
check "replay pwl" $HYST replay $D "$PWL" "$WORK/tri.csv" --json "$WORK/tri.json"
check_num "pwl self-replay NRMSE is 0" "$(jget nrmse "$WORK/tri.json")" 0 1e-12
sed -n '/"cycles":[[:space:]]*\[/,$p' "$WORK/tri.json" | sed -n 's/^[[:space:]]*"energy_model":[[:space:]]*\([^,]*\),*$/\1/p' \
    > "$WORK/tri.e"
check_num "pwl cycles found: one per protocol cycle" "$(wc -l < "$WORK/tri.e")" 3 0
while read -r e; do check_num "pwl cycle energy = hand-computed loop area" "$e" 19.71875 1e-9; done < "$WORK/tri.e"

# 4. several models side by side
check "two models" $HYST replay $D "$KIN" "$KIN2" "$WORK/noisy.csv" --json "$WORK/two.json" -o "$WORK/two.csv"
if [ "$(head -n 1 "$WORK/two.csv")" = "t,q,Q_measured,Q_paper-damper-full,Q_paper-damper-reduced" ]; then
    ok "CSV columns named after the models"; else not_ok "CSV columns: $(head -n 1 "$WORK/two.csv")"; fi
check_num "JSON has two model reports" "$(grep -c '"label":' "$WORK/two.json")" 2 0
if grep -q '"models":' "$WORK/two.json"; then ok "several models under \"models\""; else not_ok "several models under \"models\""; fi
$HYST replay $D "$KIN" "$KIN2" "$WORK/noisy.csv" > "$WORK/summary.txt" 2>&1
if grep -q "paper-damper-full" "$WORK/summary.txt" && grep -q "paper-damper-reduced" "$WORK/summary.txt" && \
   grep -q "^NRMSE" "$WORK/summary.txt"; then ok "summary side by side"; else not_ok "summary side by side"; fi

check "markdown table" $HYST replay $D "$KIN" "$KIN2" "$WORK/noisy.csv" --markdown "$WORK/two.md"
check_num "markdown: header, rule and one row per model" "$(grep -c '^|' "$WORK/two.md")" 4 0
nr_md=$(awk -F'|' '$2 ~ /paper-damper-full/ {gsub(/[ %]/, "", $4); print $4/100}' "$WORK/two.md")
check_num "markdown NRMSE matches JSON" "$nr_md" "$(sed -n '/"models"/,$p' "$WORK/two.json" | sed -n 's/^[[:space:]]*"nrmse":[[:space:]]*\([^,]*\),*$/\1/p' | head -n 1)" 1e-2

# 5. a model violation during the replay: the kinematic model's valid range is |q| <= 0.52
awk 'BEGIN{print "t,q,Q"; for(i=0;i<=400;i++){t=i*0.01; printf "%.2f,%.6f,0\n", t, 0.7*sin(6.283185307*t/4)}}' \
    > "$WORK/far.csv"
check_fails "violation names row and time" "far.csv:[0-9]+: model .*paper-damper-full.json stopped at row [0-9]+, t = [0-9.]+" \
    $HYST replay $D "$KIN" "$WORK/far.csv"

# 6. bad input and usage
check_fails "missing data file" "nope.csv" $HYST replay "$KIN" "$WORK/nope.csv"
check_fails "missing model file" "nope.json" $HYST replay "$WORK/nope.json" "$WORK/clean.csv" $D
printf '{"format": "hyst-model", "version": 1, "model": "kin",\n  "C": [[1, 2], oops]}\n' > "$WORK/bad.json"
check_fails "malformed model names line" "bad.json:2:[0-9]+" $HYST replay "$WORK/bad.json" "$WORK/clean.csv" $D
printf 't,q,Q\n0,0,0\n1,0.1,abc\n' > "$WORK/badrow.csv"
check_fails "bad data row names line" "badrow.csv:3" $HYST replay $D "$KIN" "$WORK/badrow.csv"
check_fails "one argument is a usage error" "hyst replay: missing MODEL.json" $HYST replay "$KIN"
$HYST replay --bogus "$KIN" "$WORK/clean.csv" 2>/dev/null; rc=$?
check_num "unknown option exits 2" "$rc" 2 0
cp "$WORK/clean.csv" "$WORK/keep.csv"
check_fails "never overwrites the data" "refusing" $HYST replay $D "$KIN" "$WORK/keep.csv" -o "$WORK/keep.csv"
check_fails "never overwrites a model" "refusing" $HYST replay $D "$KIN" "$WORK/keep.csv" --json "$KIN"
if cmp -s "$WORK/clean.csv" "$WORK/keep.csv"; then ok "input unchanged"; else not_ok "input unchanged"; fi
finish

#!/bin/sh
# End-to-end tests of 'mech beam' (jointed-beam spacecraft, spec 004; docs/beam.md): frequency tables and sweeps,
# the §4.5 baseline, bad configurations, and a fitted hinge: a synthetic static test of a known hinge table
# (hyst sim --noise), fitted by hyst fit pwl, driven in the simulator; its dtheta-M loops read by hyst loops.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
HYST=${HYST:-$TOP/bin/hyst}
FIX=${FIXTURES:-$TOP/fixtures}
B=$FIX/mech/beam

check "mech beam --help exits 0" "$MECH" beam --help
check_fails "unknown beam command" "unknown command 'spin'" "$MECH" beam spin "$B/baseline.json"
check_fails "missing config is a usage error" "missing CONFIG.json" "$MECH" beam freq
"$MECH" beam sim "$B/baseline.json" --bogus >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && ok "unknown option exits 2" || not_ok "unknown option exits 2 (got $rc)"

# frequency table: spec §8 Model A (k = k_l, m = 0.02, J1 = 100)
check "freq table" "$MECH" beam freq "$B/baseline.json" -o "$WORK/f.csv"
f1=$(awk -F, '$1 == 1 {print $2}' "$WORK/f.csv"); f4=$(awk -F, '$1 == 4 {print $2}' "$WORK/f.csv")
c1=$(awk -F, '$1 == 1 {print $3}' "$WORK/f.csv")
check_num "free-hub f1 = 1.8297 Hz" "$f1" 1.8297 3e-5
check_num "free-hub f4 = 45.8599 Hz" "$f4" 45.8599 3e-6
check_num "clamped f1 = 1.3612 Hz" "$c1" 1.3612 4e-5
# sweeps (Tables 2-5 analogues)
check "sweep c" "$MECH" beam freq "$B/baseline.json" --sweep c -o "$WORK/c.csv"
p2=$(awk -F, '$1 == 0.1 {print $9}' "$WORK/c.csv")
check_num "c = 0.1: f2 at 81.00 % of the hinge-less beam" "$p2" 81.00 1e-4
check "sweep hinge count" "$MECH" beam freq "$B/baseline.json" --sweep hinges -o "$WORK/n.csv"
n4=$(awk -F, '$1 == 4 {print $7}' "$WORK/n.csv")
check_num "n_j = 4: f5 = 70.4747 Hz" "$n4" 70.4747 2e-6
check "sweep J1 with values" "$MECH" beam freq "$B/baseline.json" --sweep J1 --values 20,1000 -o "$WORK/j.csv"
j20=$(awk -F, '$1 == 20 {print $3}' "$WORK/j.csv")
check_num "J1 = 20: f1 = 2.8588 Hz" "$j20" 2.8588 3e-5
if command -v gnuplot >/dev/null 2>&1; then
    check "sweep plot" "$MECH" beam freq "$B/baseline.json" --sweep mass --plot "$WORK/mass.svg" -o "$WORK/m.csv"
    [ -s "$WORK/mass.svg" ] && ok "sweep plot written" || not_ok "sweep plot written"
    check "response plot" "$MECH" beam sim "$B/hinges-4.json" --duration 0.1 --plot "$WORK/resp.png" -o "$WORK/resp.csv"
    [ -s "$WORK/resp.png" ] && ok "response plot written" || not_ok "response plot written"
    check "control plot" "$MECH" beam lqr "$B/paper-4.5.json" --duration 0.1 --plot "$WORK/ctl.svg"
    [ -s "$WORK/ctl.svg" ] && ok "control plot written" || not_ok "control plot written"
    ls "$WORK"/*.tmp* >/dev/null 2>&1 && not_ok "no temporary files left" || ok "no temporary files left"
    check "figure name with a quote" "$MECH" beam sim "$B/baseline.json" --duration 0.01 --plot "$WORK/it's.svg" -o "$WORK/q.csv"
    check_fails "gnuplot missing: the message says so" "gnuplot failed" env PATH=/nonexistent "$MECH" beam sim \
        "$B/baseline.json" --duration 0.01 --plot "$WORK/none.svg" -o "$WORK/q2.csv"
fi
check_fails "plot needs a known extension" "expected a .svg, .png or .pdf" "$MECH" beam sim "$B/baseline.json" --plot "$WORK/x.gif"

# T6: the §4.5 linear baseline (spec §8: 4.48e-2 m, 4.92e-3 rad, max |dtheta| 1.6e-3 rad)
check "baseline sim" "$MECH" beam sim "$B/baseline.json" -o "$WORK/b.csv" --summary "$WORK/b.json"
rows=$(wc -l <"$WORK/b.csv")
check_num "20 000 steps + initial row + 2 header rows" "$rows" 20003 0
sed -n 2p "$WORK/b.csv" | grep -q '^s,m,rad,rad/s,rad,N m,V,N$' && ok "units row" || not_ok "units row"
w=$(awk -F, 'NR > 2 { v = $2 < 0 ? -$2 : $2; if (v > m) m = v } END { print m }' "$WORK/b.csv")
th=$(awk -F, 'NR > 2 { v = $3 < 0 ? -$3 : $3; if (v > m) m = v } END { print m }' "$WORK/b.csv")
dth=$(awk -F, 'NR > 2 { v = $5 < 0 ? -$5 : $5; if (v > m) m = v } END { print m }' "$WORK/b.csv")
check_num "max |w_tip| = 4.48e-2 m" "$w" 4.48e-2 1.2e-3
check_num "max |theta| = 4.92e-3 rad" "$th" 4.92e-3 1.2e-3
check_num "max |dtheta| = 1.6e-3 rad" "$dth" 1.6e-3 3.2e-2
grep -q '"balance_max_abs"' "$WORK/b.json" && ok "summary has the energy balance" || not_ok "summary has the energy balance"

# bad configurations: the message names the key
printf '{"format": "mech-beam", "hinges": [{"position": 3.5}]}\n' >"$WORK/out.json"
check_fails "hinge outside the beam" 'out.json: hinges\[0\]\.position = 3.5: outside the beam' "$MECH" beam freq "$WORK/out.json"
printf '{"format": "mech-beam", "hinges": [{"position": 1.5, "clearance": -0.01}]}\n' >"$WORK/neg.json"
check_fails "negative clearance" 'hinges\[0\]\.clearance = -0.01' "$MECH" beam sim "$WORK/neg.json"
printf '{"format": "mech-beam", "hinges": [{"position": 1.5, "law": "model", "model": "nope.json"}]}\n' >"$WORK/miss.json"
check_fails "missing model file" 'miss.json: hinges\[0\]\.model: .*nope.json' "$MECH" beam sim "$WORK/miss.json"
cp "$FIX/models/pwl-constant.json" "$WORK/mmN.json"
printf '{"format": "mech-beam", "hinges": [{"position": 1.5, "law": "model", "model": "mmN.json"}]}\n' >"$WORK/units.json"
check_fails "model in mm and N is refused" 'hinges\[0\]\.model: .*units q = "mm", Q = "N".*angle.*moment' "$MECH" beam sim "$WORK/units.json"
printf '{"format": "mech-beam", "hinges": [{"position": 1.5, "law": "model"}]}\n' >"$WORK/nomodel.json"
check_fails "model law without a file" 'hinges\[0\]\.model: the law "model" needs a hyst-model file' "$MECH" beam sim "$WORK/nomodel.json"
printf '{"format": "mech-beam", "solver": {"dtt": 1}}\n' >"$WORK/typo.json"
check_fails "unknown key" 'solver\."dtt": unknown key' "$MECH" beam sim "$WORK/typo.json"
printf '{"format": "mech-beam",\n "hub": {"J1": 100,,}}\n' >"$WORK/broken.json"
check_fails "malformed JSON names line:column" 'broken.json:2:[0-9]+: malformed JSON' "$MECH" beam freq "$WORK/broken.json"
printf '{"format": "mech-beam", "mfc": {"start": 1.4}}\n' >"$WORK/span.json"
check_fails "patch across a hinge" 'mfc.start = 1.4: .*spans hinges\[0\]' "$MECH" beam freq "$WORK/span.json"
check_fails "never overwrites the configuration" "refusing to overwrite an input" "$MECH" beam sim "$B/baseline.json" -o "$B/baseline.json"
# a simulation that fails stops with the time and keeps its rows
check_fails "diverging run stops with the time" "t = .*hint.*rows before it are written" "$MECH" beam sim "$B/baseline.json" --F0 1e300 --duration 0.01 -o "$WORK/div.csv"
[ -s "$WORK/div.csv" ] && ok "rows before the failure kept" || not_ok "rows before the failure kept"

# physical FE coordinates run (banded LAPACK) and a gap that closes
check "physical coordinates" "$MECH" beam sim "$B/section-4.3.json" --physical --duration 0.3 -o "$WORK/p.csv"
check "lagged update with an opening gap" "$MECH" beam sim "$B/section-4.3.json" --duration 0.5 -o "$WORK/lag.csv"
grep -q "energy balance is off by .*--iterated" "$WORK/.err" && ok "lagged energy error is reported" || not_ok "lagged energy error is reported"
check "iterated update with an opening gap" "$MECH" beam sim "$B/section-4.3.json" --duration 0.5 --iterated -o "$WORK/it.csv"
grep -q "energy balance" "$WORK/.err" && not_ok "iterated update balances" || ok "iterated update balances"
check "four clearance hinges" "$MECH" beam sim "$B/hinges-4.json" --duration 0.3 -o "$WORK/h4.csv" --summary "$WORK/h4.json"
n=$(grep -c '"contact_fraction"' "$WORK/h4.json")
check_num "four hinges in the summary" "$n" 4 0

# T8: LQR on the reduced flexible model; the paper's theta-state design is refused
check "lqr design and closed loop" "$MECH" beam lqr "$B/paper-4.5.json" --duration 0.5 -o "$WORK/lqr.csv"
grep -q 'positive definite: yes' "$WORK/.out" && ok "CARE solution positive definite" || not_ok "CARE solution positive definite"
grep -q 'A - B K is Hurwitz: yes' "$WORK/.out" && ok "closed loop Hurwitz" || not_ok "closed loop Hurwitz"
head -1 "$WORK/lqr.csv" | grep -q 'w_tip_open,.*w_tip_ctrl,' && ok "controlled and uncontrolled columns" || not_ok "controlled and uncontrolled columns"
# one run function: lqr's uncontrolled columns (mech_beam_run_pair) are the rows of 'mech beam sim' on the same
# configuration (mech_beam_run) byte for byte, the whole shipped example (both in this run: no stored hash, the
# numbers are the processor's)
check "lqr, the shipped example" "$MECH" beam lqr "$B/paper-4.5.json" -o "$WORK/lqr2.csv"
check "sim, the shipped lqr example" "$MECH" beam sim "$B/paper-4.5.json" -o "$WORK/lqr2-sim.csv"
nc=$(head -1 "$WORK/lqr2-sim.csv" | tr , '\n' | wc -l)
tail -n +3 "$WORK/lqr2-sim.csv" >"$WORK/lqr2-sim.rows"
cut -d, -f"1-$nc" "$WORK/lqr2.csv" | tail -n +3 | cmp -s - "$WORK/lqr2-sim.rows" && [ "$(wc -l <"$WORK/lqr2-sim.rows")" -eq 20001 ] \
    && ok "lqr's uncontrolled columns are sim's rows (20001 rows, byte for byte)" \
    || not_ok "lqr's uncontrolled columns differ from sim's rows"
sed 's/"design": "flex"/"design": "theta"/' "$B/paper-4.5.json" >"$WORK/theta.json"
check_fails "theta-state design refused" 'control.design = "theta": .*refused.*not stabilisable.*uncontrollable eigenvalue 0' "$MECH" beam lqr "$WORK/theta.json"
check_fails "lqr needs the MFC" 'mfc.enabled' "$MECH" beam lqr "$B/baseline.json"

# ---- a fitted hinge: static test of the true table, hyst fit pwl, the simulator, hyst loops ----
check "static test of the hinge" "$HYST" sim "$B/hinge-true.json" --protocol steps --max 5.5 --steps 4 --cycles 2 \
    --points 400 --noise 1% --seed 7 -o "$WORK/static_raw.csv"
# the record as a bench file: t, q, Q with a units row (the state column dropped)
cut -d, -f1-3 "$WORK/static_raw.csv" | sed '1a s,mrad,N m' >"$WORK/static.csv"
check "hyst fit pwl of the static test" "$HYST" fit pwl "$WORK/static.csv" -o "$WORK/fit.json"
grep -q '"q":[[:space:]]*"mrad"' "$WORK/fit.json" && ok "the fitted model has the record's units" || not_ok "the fitted model has the record's units"
sed -e "s|hinge-true.json|$WORK/fit.json|" "$B/fitted-hinge.json" >"$WORK/cfg_fit.json"
# without a units row the fitted model has no units, and the simulator refuses it as a hinge law
cut -d, -f1-3 "$WORK/static_raw.csv" >"$WORK/static_nounits.csv"
"$HYST" fit pwl "$WORK/static_nounits.csv" -o "$WORK/fit_raw.json" >/dev/null 2>&1
sed -e "s|hinge-true.json|$WORK/fit_raw.json|" "$B/fitted-hinge.json" >"$WORK/cfg_raw.json"
check_fails "a fitted model without units is refused" 'units q = "", Q = ""' "$MECH" beam sim "$WORK/cfg_raw.json" -o "$WORK/raw.csv"
check "simulation with the fitted hinge" "$MECH" beam sim "$WORK/cfg_fit.json" -o "$WORK/fit.csv" --summary "$WORK/fit_sum.json" \
    --hinge-records "$WORK/hinge"
check "simulation with the true hinge" "$MECH" beam sim "$B/fitted-hinge.json" -o "$WORK/true.csv" --summary "$WORK/true_sum.json" \
    --hinge-records "$WORK/true_hinge"
# the hinge record replayed through the same table by hyst replay: the simulator drove the element exactly so
check "hyst replay of the hinge record" "$HYST" replay "$B/hinge-true.json" "$WORK/true_hinge1.csv" --x-scale 1000 --json "$WORK/rep.json"
nr=$(sed -n 's/^[[:space:]]*"nrmse":[[:space:]]*\([-0-9.eE+]*\).*/\1/p' "$WORK/rep.json" | head -1)
check_num "replay NRMSE of the simulated hinge = 0" "$nr" 0 1e-12
# the record is in rad, the table in mrad: --x-scale 1000 is the conversion, so no unit warning, and the scaled
# axis carries the table's unit; without the scale the warning stays
grep -q "model units" "$WORK/.err" && not_ok "no unit warning with --x-scale" || ok "no unit warning with --x-scale"
grep -q '"q_unit":[[:space:]]*"mrad"' "$WORK/rep.json" && ok "scaled axis in the table's unit" || not_ok "scaled axis in the table's unit"
check "hyst replay without the scale" "$HYST" replay "$B/hinge-true.json" "$WORK/true_hinge1.csv"
grep -q 'model units (q in mrad, Q in N m) differ from .*(q in rad' "$WORK/.err" && ok "unit warning without the scale" || not_ok "unit warning without the scale"
check "hyst loops on the simulator's output" "$HYST" loops "$WORK/fit.csv" --x dtheta_1 --y M_1 --json "$WORK/loops.json" -q
check "hyst loops on the hinge record" "$HYST" loops "$WORK/hinge1.csv" --json "$WORK/loops_rec.json" -q
work=$(sed -n 's/.*"work":[[:space:]]*\([-0-9.eE+]*\).*/\1/p' "$WORK/fit_sum.json" | head -1)
total=$(sed -n 's/^[[:space:]]*"total_energy":[[:space:]]*\([-0-9.eE+]*\).*/\1/p' "$WORK/loops.json" | head -1)
total_rec=$(sed -n 's/^[[:space:]]*"total_energy":[[:space:]]*\([-0-9.eE+]*\).*/\1/p' "$WORK/loops_rec.json" | head -1)
check_num "hinge work (simulator) = loop area (hyst loops)" "$total" "$work" 1e-6
check_num "hinge record gives the same area" "$total_rec" "$work" 1e-6
# energy per cycle: the summary's list (hyst's loop analysis inside mech) = hyst loops' cycles
sum_c=$(tr -d ' \n\t' <"$WORK/fit_sum.json" | sed -n 's/.*"energy_per_cycle":\[\([^]]*\)\].*/\1/p' | tr ',' '\n' | awk '{s += $1} END {printf "%.12g", s}')
loop_c=$(tr -d ' \n\t' <"$WORK/loops.json" | sed -n 's/.*"cycles_energy":\([-0-9.eE+]*\).*/\1/p')
[ -n "$loop_c" ] || loop_c=$(tr -d ' \n\t' <"$WORK/loops.json" | grep -o '"cycles":\[.*' | grep -o '"energy":[-0-9.eE+]*' | head -200 | awk -F: '{s += $2} END {printf "%.12g", s}')
check_num "energy per cycle: summary = hyst loops" "$sum_c" "$loop_c" 1e-6
pos=$(awk -v s="$sum_c" 'BEGIN{print (s > 0) ? 1 : 0}')
check_num "the hysteretic hinge dissipates energy" "$pos" 1 0
# predicted tip response with the fitted vs the true table
nrmse=$(paste -d, "$WORK/fit.csv" "$WORK/true.csv" | awk -F, 'NR > 2 { n2 = NF / 2; d = $2 - $(n2 + 2); s += d * d; k++;
    if ($(n2 + 2) > mx) mx = $(n2 + 2); if ($(n2 + 2) < mn) mn = $(n2 + 2) } END { printf "%.6g", sqrt(s / k) / (mx - mn) }')
echo "# tip response with the fitted vs the true hinge table: NRMSE $nrmse of the peak-to-peak"
ok=$(awk -v e="$nrmse" 'BEGIN{print (e < 0.05) ? 1 : 0}')
check_num "fitted hinge predicts the tip response (NRMSE < 5 %)" "$ok" 1 0
finish

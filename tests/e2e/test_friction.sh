#!/bin/sh
# End-to-end tests of `mech friction` (spec 003; docs/friction.md): CSV outputs, the --check verdict, paradox reports,
# figures and bad files.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
FX=${FIXTURES:-$TOP/fixtures}/mech/friction

check "mech friction --help exits 0" "$MECH" friction --help
"$MECH" friction >/dev/null 2>&1; rc=$?
if [ $rc -eq 2 ]; then ok "no example file exits 2"; else not_ok "no example file exits 2 (got $rc)"; fi
"$MECH" friction "$FX/symmetric-guide.json" --bogus >/dev/null 2>&1; rc=$?
if [ $rc -eq 2 ]; then ok "unknown option exits 2"; else not_ok "unknown option exits 2 (got $rc)"; fi
check_fails "missing file names itself" "nope.json: cannot open" "$MECH" friction "$WORK/nope.json"
printf '{"format": "mech-friction", "mechanism": {"kind": "bushing", "mass": -1, "radius": 0.02, "pairs_at": [0, 1]}}\n' >"$WORK/neg.json"
check_fails "bad value names file and key" "neg.json: mechanism.mass = -1: expected a mass > 0" "$MECH" friction "$WORK/neg.json"
printf '{"format": "mech-friction",\n "mechanism": {,}}\n' >"$WORK/broken.json"
check_fails "malformed file names line:column" "broken.json:2:[0-9]+: malformed JSON" "$MECH" friction "$WORK/broken.json"
check_fails "refuses to overwrite its input" "refusing|input" "$MECH" friction "$FX/symmetric-guide.json" -o "$FX/symmetric-guide.json"

# spec 003 §3 worked example: N = 6.25 on chi = +1; header and units row
check "worked example runs" "$MECH" friction "$FX/spec3-worked-example.json" -o "$WORK/s3.csv"
head -1 "$WORK/s3.csv" | grep -q '^t,q1,q1_dot,N1,chi1,slip1,F1,W_friction,W_applied,KE$' && ok "header" || not_ok "header"
sed -n 2p "$WORK/s3.csv" | grep -q '^s,-,-/s,N,-,-,N,J,J,J$' && ok "units row" || not_ok "units row"
n=$(awk -F, 'NR==3{print $4}' "$WORK/s3.csv"); check_num "N = 6.25" "$n" 6.25 1e-12
c=$(awk -F, 'NR==3{print $5}' "$WORK/s3.csv"); check_num "chi = +1" "$c" 1 0
rows=$(wc -l <"$WORK/s3.csv"); check_num "11 samples + 2 header rows" "$rows" 13 0
# the small-friction check: limit mu |kappa| = 1, i.e. mu = 0.5 (scale 1/0.6 of the file's 0.3)
check "worked example --check" "$MECH" friction "$FX/spec3-worked-example.json" --check --mu-max 3 --mu-steps 10
grep -q '^0.6 .*0.18 .*small' "$WORK/.out" && ok "check: small at mu 0.18" || not_ok "check: small at mu 0.18"
grep -q '^2.4 .*0.72 .*PARADOX' "$WORK/.out" && ok "check: paradox at mu 0.72" || not_ok "check: paradox at mu 0.72"
lim=$(sed -n 's/^small-friction limit: scale [0-9.e+-]* of the file.s coefficients (mu \([0-9.e+-]*\)).*/\1/p' "$WORK/.out")
check_num "small-friction limit mu = 1/|kappa| = 0.5" "$lim" 0.5 1e-6
# mu = 0.7: two solutions, reported with time, pair and determinants; exit 1
check_fails "two solutions reported as a paradox" "t = 0 s: Painlevé paradox: two admissible variants \(pairs 1\); det\(\+\) = 2.4, det\(-\) = 0.4" \
    "$MECH" friction "$FX/spec3-two-solutions.json" -o "$WORK/p.csv"
check "--check works where the state is a paradox" "$MECH" friction "$FX/spec3-two-solutions.json" --check
grep -q "mu 0.5); the file's own coefficients are beyond it" "$WORK/.out" && ok "the file's mu 0.7 is beyond the limit" || not_ok "the file's mu 0.7 is beyond the limit"
sed 's/"run": {/"run": {"on_paradox": "lp", /' "$FX/spec3-two-solutions.json" >"$WORK/lp.json"
check "on_paradox lp continues" "$MECH" friction "$WORK/lp.json" -o "$WORK/lp.csv"
grep -q 'Painlevé paradox states continued' "$WORK/.err" && ok "continuing is a warning" || not_ok "continuing is a warning"
n=$(awk -F, 'NR==3{print $4}' "$WORK/lp.csv"); check_num "the LP picks N = 4.1667" "$n" 4.16667 1e-5
sed 's/"f_q": \[5\]/"f_q": [-5]/' "$FX/spec3-two-solutions.json" >"$WORK/none.json"
check_fails "no solution reported as a paradox" "t = 0 s: Painlevé paradox: no admissible variant \(pairs 1\)" "$MECH" friction "$WORK/none.json"

# the symmetric guide: R1 = -52.91 N, R2 = +151.01 N, axial friction mu (|R1| + |R2|)
check "symmetric guide" "$MECH" friction "$FX/symmetric-guide.json" -o "$WORK/g.csv"
r1=$(awk -F, 'NR==3{printf "%.6f", $4*$6}' "$WORK/g.csv"); check_num "R1 = -52.91 N" "$r1" -52.912 1e-4
r2=$(awk -F, 'NR==3{printf "%.6f", $5*$7}' "$WORK/g.csv"); check_num "R2 = +151.01 N" "$r2" 151.012 1e-4
fa=$(awk -F, 'NR==3{printf "%.9f", -($10+$11)}' "$WORK/g.csv"); check_num "axial friction 0.2 (|R1| + |R2|)" "$fa" 40.7848 1e-6

# the bushing: friction work = kinetic-energy loss; the loaded sides swap at t = 0.1 s
check "bushing with a moment reversal" "$MECH" friction "$FX/bushing-moment-reversal.json" --summary -o "$WORK/b.csv"
bal=$(awk -F, 'NR==3{k0=$14} NR>2{d=$12-(k0-$14); if(d<0)d=-d; if(d>m)m=d} END{printf "%.3g", m/k0}' "$WORK/b.csv")
check_num "friction work = kinetic-energy loss (relative)" "$bal" 0 1e-6
sw=$(awk -F, 'NR>3 && $6!=p6 && $1>0.05 && $1<0.15 {print $1; exit} {p6=$6}' "$WORK/b.csv")
check_num "pair 1 swaps sides at t = 0.1 s" "$sw" 0.101 1e-9
grep -q 'attempts 1: [0-9]*, 2: [0-9]*, 3: 0, >3: 0' "$WORK/.err" && ok "<= 2 attempts per solve" || not_ok "<= 2 attempts per solve"

# the screw-nut pair: back-driven below tan(lead angle) = 0.191, locked above
check "screw-nut back-driving" "$MECH" friction "$FX/screw-nut-backdrive.json" -o "$WORK/sb.csv"
v=$(tail -1 "$WORK/sb.csv" | cut -d, -f3); awk -v v="$v" 'BEGIN{exit !(v > 5)}' && ok "mu 0.15 < tan(lead): it speeds up" || not_ok "mu 0.15 < tan(lead): it speeds up ($v)"
check "screw-nut self-locking" "$MECH" friction "$FX/screw-nut-selflocking.json" -o "$WORK/sl.csv"
v=$(tail -1 "$WORK/sl.csv" | cut -d, -f3); check_num "mu 0.22 > tan(lead): it stops" "$v" 0 0
s=$(tail -1 "$WORK/sl.csv" | cut -d, -f6); check_num "and sticks" "$s" 0 0
check "screw-nut --check" "$MECH" friction "$FX/screw-nut-backdrive.json" --check --mu-max 100
lim=$(sed -n 's/^small-friction limit: scale [0-9.e+-]* of the file.s coefficients (mu \([0-9.e+-]*\)).*/\1/p' "$WORK/.out")
check_num "screw limit mu r m p = J + m p^2" "$lim" 4.379776 1e-5

# slider-crank: energy budget W_applied - W_friction = KE - KE(0)
check "slider-crank" "$MECH" friction "$FX/slider-crank.json" --duration 0.5 -o "$WORK/c.csv"
bal=$(awk -F, 'NR==3{k0=$10} NR>2{d=$9-$8-($10-k0); if(d<0)d=-d; if(d>m)m=d; w=$9} END{printf "%.3g", m/w}' "$WORK/c.csv")
check_num "slider-crank energy budget (relative)" "$bal" 0 1e-6
flips=$(awk -F, 'NR>3 && $5!=p {n++} {p=$5} END{print n+0}' "$WORK/c.csv")
awk -v n="$flips" 'BEGIN{exit !(n >= 10)}' && ok "slider-crank flips its loaded side ($flips)" || not_ok "slider-crank flips ($flips)"

# figures
if command -v gnuplot >/dev/null 2>&1 || [ -n "${HYST_GNUPLOT:-}" ]; then
    check "--plot png" "$MECH" friction "$FX/bushing-moment-reversal.json" -o "$WORK/b2.csv" --plot "$WORK/b.png"
    head -c 4 "$WORK/b.png" | grep -q PNG && ok "png written" || not_ok "png written"
fi
check_fails "--plot needs -o" "needs the CSV in a file" "$MECH" friction "$FX/bushing-moment-reversal.json" --plot "$WORK/x.png"
finish

#!/bin/sh
# End-to-end tests of the sweep plan kinds (docs/sweep.md "Plan kinds"; issue 43 items 2-4) on small coarse-step
# plans (fixtures/mech/sweep/test-{sobol,morris,subset,qual}.json): for every kind the table is
# byte for byte the same with 1 and 2 worker processes and under mpirun -n 2, and after a kill and --resume (the
# journal cut at several points, and a real SIGKILL); the Sobol indices and Morris effects in the summary equal the
# ones recomputed here from results.csv (a second implementation, in awk); the subset estimate is the product of
# its levels; the qualification matrix's verdicts equal the requirements applied here to results.csv; bad plans of
# each new class are refused before any run, naming the plan file and the key.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
FIX=${FIXTURES:-$TOP/fixtures}
S=$FIX/mech/sweep
D=$FIX/mech/dock
jnum() { sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\([-0-9.eE+]*\).*/\1/p" "$2" | head -n 1; }
mpi() {
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        OMPI_MCA_rmaps_base_oversubscribe=1 mpirun -n 2 --oversubscribe --mca btl self,vader "$MECH" "$@"
}

sed "s#\"\.\./dock/#\"$D/#g" "$S/test-qual.json" >"$WORK/test-qual.json"   # (edited copies below)

# ---- the same table for 1 and 2 workers, MPI, and after an interruption ----
for k in sobol morris subset qual; do
    P=$S/test-$k.json
    check "$k: -j 1" "$MECH" sweep "$P" --out "$WORK/$k-1" -j 1 -q
    check "$k: -j 2" "$MECH" sweep "$P" --out "$WORK/$k-2" -j 2 -q --no-plots
    cmp -s "$WORK/$k-1/results.csv" "$WORK/$k-2/results.csv" && ok "$k: -j 1 and -j 2 tables are byte-identical" ||
        not_ok "$k: -j 1 and -j 2 tables are byte-identical"
    if command -v mpirun >/dev/null 2>&1; then
        if mpi sweep "$P" --out "$WORK/$k-m" -q --no-plots >"$WORK/mpi.out" 2>&1; then
            cmp -s "$WORK/$k-1/results.csv" "$WORK/$k-m/results.csv" && ok "$k: mpirun -n 2 table is byte-identical" ||
                not_ok "$k: mpirun -n 2 table is byte-identical"
        else
            not_ok "$k: mpirun -n 2 mech sweep runs"; sed 's/^/    /' "$WORK/mpi.out" | head -10
        fi
    fi
    # a kill leaves the journal's first rows (in the order they finished) and maybe a torn one: cut it there
    n=$(($(wc -l <"$WORK/$k-2/journal.csv") - 2))
    for cut in 1 $((n / 2)) $((n - 1)); do
        mkdir -p "$WORK/$k-r$cut"
        head -n $((cut + 2)) "$WORK/$k-2/journal.csv" >"$WORK/$k-r$cut/journal.csv"
        printf '%s' "$(sed -n "$((cut + 3))p" "$WORK/$k-2/journal.csv" | cut -c1-12)" >>"$WORK/$k-r$cut/journal.csv"
        "$MECH" sweep "$P" --out "$WORK/$k-r$cut" -j 2 -q --no-plots --resume >"$WORK/.out" 2>&1
        cmp -s "$WORK/$k-1/results.csv" "$WORK/$k-r$cut/results.csv" &&
            ok "$k: resumed after $cut of $n runs = uninterrupted table" ||
            { not_ok "$k: resumed after $cut of $n runs = uninterrupted table"; head -3 "$WORK/.out"; }
    done
done
# a real SIGKILL in the middle of the subset simulation's levels
"$MECH" sweep "$S/test-subset.json" --out "$WORK/kill" -j 2 -q --no-plots >/dev/null 2>&1 &
pid=$!
n=0
while [ "$n" -lt 200 ]; do
    rows=$({ wc -l <"$WORK/kill/journal.csv"; } 2>/dev/null || echo 0)
    [ "$rows" -ge 25 ] && break
    sleep 0.02; n=$((n + 1))
done
kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
check "subset: --resume after SIGKILL" "$MECH" sweep "$S/test-subset.json" --out "$WORK/kill" -j 2 -q --no-plots --resume
cmp -s "$WORK/subset-1/results.csv" "$WORK/kill/results.csv" && ok "subset: resumed after SIGKILL = uninterrupted table" ||
    not_ok "subset: resumed after SIGKILL = uninterrupted table"

# ---- Sobol: the indices recomputed from the table (columns: run, 2 keys, status, captured, capture_time, cone, peak_axial) ----
for f in sobol.csv sobol.png summary.json; do [ -s "$WORK/sobol-1/$f" ] && ok "sobol: $f" || not_ok "sobol: $f"; done
awk -F, -v N=8 -v d=2 'NR > 1 { f[$1] = $8 }
    END { m = 0; for (j = 0; j < N; j++) m += f[j] + f[N + j]; m /= 2 * N
          for (j = 0; j < N; j++) v += (f[j] - m)^2 + (f[N + j] - m)^2; v /= 2 * N
          for (i = 0; i < d; i++) { s = 0; t = 0
              for (j = 0; j < N; j++) { a = f[j]; b = f[N + j]; ab = f[2 * N + i * N + j]; s += b * (ab - a); t += (a - ab)^2 }
              printf "%.15g %.15g\n", s / N / v, t / (2 * N) / v } }' "$WORK/sobol-1/results.csv" >"$WORK/sobol.awk"
grep '^peak_axial,' "$WORK/sobol-1/sobol.csv" | awk -F, '{ print $3, $6 }' >"$WORK/sobol.c"
paste -d' ' "$WORK/sobol.awk" "$WORK/sobol.c" | awk '{ if ((($1 - $3)^2 > 1e-18 * ($1^2 + 1e-30)) || (($2 - $4)^2 > 1e-18 * ($2^2 + 1e-30))) bad++ }
    END { exit bad > 0 || NR != 2 }' && ok "sobol: S1 and ST of peak_axial = the Saltelli / Jansen estimators over results.csv" ||
    { not_ok "sobol: S1 and ST of peak_axial = the estimators over results.csv"; cat "$WORK/sobol.awk" "$WORK/sobol.c"; }
awk -F, 'NR > 1 && $1 == "peak_axial" { if (!($4 <= $3 && $3 <= $5)) bad++ } END { exit bad > 0 }' "$WORK/sobol-1/sobol.csv" &&
    ok "sobol: each first-order index inside its interval" || not_ok "sobol: each first-order index inside its interval"
check_num "sobol: 32 runs (N (d + 2))" "$(($(wc -l <"$WORK/sobol-1/results.csv") - 1))" 32 0

# ---- Morris: mu* of the two uniform keys recomputed from the table (u = (x - min) / (max - min)) ----
awk -F, 'NR > 1 { x1[$1] = ($2 - 0.08) / 0.12; x2[$1] = ($3 + 0.15) / 0.3; f[$1] = $9; n = $1 }
    END { for (r = 0; r <= n; r++) { if (r % 4 == 3) continue
              d1 = x1[r + 1] - x1[r]; d2 = x2[r + 1] - x2[r]
              if (d1 * d1 > 1e-12) { s1 += ((f[r + 1] - f[r]) / d1 >= 0 ? 1 : -1) * (f[r + 1] - f[r]) / d1; n1++ }
              if (d2 * d2 > 1e-12) { s2 += ((f[r + 1] - f[r]) / d2 >= 0 ? 1 : -1) * (f[r + 1] - f[r]) / d2; n2++ } }
          printf "%.12g %.12g %d %d\n", s1 / n1, s2 / n2, n1, n2 }' "$WORK/morris-1/results.csv" >"$WORK/morris.awk"
read m1 m2 n1 n2 <"$WORK/morris.awk"
check_num "morris: 4 effects per key" "$n1$n2" 44 0
check_num "morris: mu* of closing_speed (peak_axial) = the table's" \
    "$(awk -F, '$1 == "peak_axial" && $2 == "initial.closing_speed" { print $3 }' "$WORK/morris-1/morris.csv")" "$m1" 1e-9
check_num "morris: mu* of offset_y (peak_axial) = the table's" \
    "$(awk -F, '$1 == "peak_axial" && $2 == "initial.offset_y" { print $3 }' "$WORK/morris-1/morris.csv")" "$m2" 1e-9

# ---- subset: the estimate is the product of its levels; every run is a row ----
U=$WORK/subset-1/summary.json
tr -d ' \n\t' <"$U" | sed 's/.*"level":\[//; s/\].*//; s/},{/}\n{/g' | sed -n 's/.*"p":\([-0-9.eE+]*\).*/\1/p' >"$WORK/lev.p"
prod=$(awk '{ p = (NR == 1 ? $1 : p * $1) } END { printf "%.17g", p }' "$WORK/lev.p")
pf=$(tr -d ' \n\t' <"$U" | sed -n 's/.*"failure_probability":{"failure":"[^"]*","method":"[^"]*","p":\([-0-9.eE+]*\).*/\1/p')
check_num "subset: P = the product of the levels' probabilities" "$pf" "$prod" 1e-12
check_num "subset: the summary's runs = the table's rows" "$(tr -d ' \n\t' <"$U" | sed -n 's/.*"failure_probability":{.*"runs":\([0-9]*\).*/\1/p')" \
    "$(($(wc -l <"$WORK/subset-1/results.csv") - 1))" 0
nlev=$(awk 'END { print NR }' "$WORK/lev.p")
[ "$nlev" -ge 2 ] && ok "subset: $nlev levels" || not_ok "subset: at least 2 levels ($nlev)"
# the last level's probability: its samples are the last n = 20 of the level's chains; with P = p0^(m-1) nF / n,
# nF the runs of the last level above 3000 N. Check P against the counts over the whole table: at least one run fails
nf=$(awk -F, 'NR > 1 && $8 > 3000' "$WORK/subset-1/results.csv" | wc -l)
[ "$nf" -ge 1 ] && ok "subset: failed runs in the table ($nf)" || not_ok "subset: failed runs in the table"
# every run is a new point (a chain's rejected candidate is not run), so its peak axial force is its own: not so
# when a worker runs another row than the master's (the pool sends each run's row with its id)
nd=$(awk -F, 'NR > 1 { print $8 }' "$WORK/subset-2/results.csv" | sort -u | wc -l)
check_num "subset: every run at its own point (-j 2)" "$nd" "$(($(wc -l <"$WORK/subset-2/results.csv") - 1))" 0
grep -q '"capture_probability"' "$U" && not_ok "subset: no capture probability over a biased sample" ||
    ok "subset: no capture probability over a biased sample"

# ---- the qualification matrix: verdicts = the requirements applied to results.csv ----
Q=$WORK/qual-1
for f in qualification.csv qualification.md qualification.png; do [ -s "$Q/$f" ] && ok "qual: $f" || not_ok "qual: $f"; done
check_num "qual: 2 cases x 2 variants" "$(($(wc -l <"$Q/results.csv") - 1))" 4 0
# results.csv columns: run,case,variant,status,captured,capture_time,cone,peak_axial,peak_lateral,peak_limiter,stroke,swing,e0,eres
awk -F, 'NR > 1 { ok = ($4 == "ok" && $5 == 1 && $6 != "" && $6 <= 10 && $8 <= 10000 && $9 <= 4000 && $10 <= 5000 && $11 <= 0.32 &&
                        $12 <= 0.08726646259971647 && $14 <= 0.47); print $2 "/" $3, ok }' "$Q/results.csv" | tr -d '" ' | sed 's/1$/ 1/; s/0$/ 0/' >"$WORK/q.awk"
tr -d ' \n\t' <"$Q/summary.json" | sed 's/.*"matrix":\[//' | sed 's/},{"case"/}\n{"case"/g' |
    sed -n 's/^{*"case":"\([^"]*\)","variant":"\([^"]*\)".*"pass":\(true\|false\)}*\]*.*$/\1\/\2 \3/p' |
    sed 's/ true$/ 1/; s/ false$/ 0/' | awk '{ print $1, $2 }' >"$WORK/q.c"
diff "$WORK/q.awk" "$WORK/q.c" >/dev/null && ok "qual: every verdict = the requirements applied to the table" ||
    { not_ok "qual: every verdict = the requirements applied to the table"; paste "$WORK/q.awk" "$WORK/q.c" | head; }
n_md=$(($(grep -c '^|' "$Q/qualification.md") - 2))
check_num "qual: one Markdown row per case x variant" "$n_md" 4 0

# ---- results.h5 (--h5): the table and the summary, read by Debian's h5py, equal to results.csv and summary.json ----
PY=/usr/bin/python3   # Debian's, with h5py (scripts/install-deps: python3-h5py)
for pl in test-mc test-qual; do
    check "$pl: --h5" "$MECH" sweep "$S/$pl.json" --out "$WORK/h5-$pl" -q --no-plots --h5
    if "$PY" - "$WORK/h5-$pl" >"$WORK/h5.out" 2>&1 <<'PYEOF'
import csv, json, math, sys
import h5py
d = sys.argv[1]
f = h5py.File(d + "/results.h5", "r")
t = f["/results"][()]
rows = list(csv.DictReader(open(d + "/results.csv")))
assert len(rows) == len(t), (len(rows), len(t))
names = {k[:-6]: json.loads(v) for k, v in f["/results"].attrs.items() if k.endswith(".names")}
for r, h in zip(rows, t):
    for k, v in r.items():
        if k in ("status", "message"):
            continue
        x = h[k]
        if k in names:   # a key of strings: its index into "<key>.names"
            assert names[k][int(x)] == v, (k, v, x)
        elif v == "":
            assert math.isnan(x), (k, x)
        else:
            assert float(v) == x, (k, v, x)   # bit for bit: the CSV prints the shortest exact text
    assert h["failed"] == (r["status"] == "failed")
s = json.load(open(d + "/summary.json"))
assert json.loads(f["/"].attrs["summary"]) == s
assert f["/"].attrs["runs"] == s["runs"]
print("ok")
PYEOF
    then ok "$pl: results.h5 = results.csv and summary.json (h5py)"; else not_ok "$pl: results.h5 = results.csv and summary.json (h5py)"; sed 's/^/    /' "$WORK/h5.out" | tail -5; fi
done

# ---- bad plans of the new kinds: refused before any run, naming the file and the key ----
mk() { sed "s#\"\.\./dock/#\"$D/#g" "$S/$1" >"$WORK/$2"; }
mk test-sobol.json mix.json; sed -i 's/"sobol": {/"subset": {"n": 20, "failure": {"metric": "peak_axial", "above": 1}}, "sobol": {/' "$WORK/mix.json"
check_fails "two kinds in one plan" "mix.json: (sobol|subset): the plan is a (sobol|subset) plan already: a plan is of one kind" \
    "$MECH" sweep "$WORK/mix.json" --out "$WORK/b1"
[ ! -e "$WORK/b1/journal.csv" ] && ok "no run before the refusal" || not_ok "no run before the refusal"
mk test-sobol.json mix2.json; sed -i 's/"sobol": {/"envelope": {"levels": 1}, "sobol": {/' "$WORK/mix2.json"
check_fails "envelope and sobol" "mix2.json: sobol: the plan is a envelope plan already" "$MECH" sweep "$WORK/mix2.json" --out "$WORK/b2"
sed 's/"cases": {/"vary": {"initial.pitch_deg": {"grid": [0, 1]}}, "cases": {/' "$WORK/test-qual.json" >"$WORK/mix3.json"
check_fails "cases and vary" "mix3.json: vary: a qualification plan \(\"cases\"\) has no vary" "$MECH" sweep "$WORK/mix3.json" --out "$WORK/b3"
mk test-sobol.json smp.json; sed -i 's/"seed": 5/"seed": 5, "samples": 16/' "$WORK/smp.json"
check_fails "samples in a sobol plan" "smp.json: samples: not used by a sobol plan" "$MECH" sweep "$WORK/smp.json" --out "$WORK/b4"
mk test-sobol.json grd.json; sed -i 's/"initial.offset_y": {[^}]*}/"initial.offset_y": {"grid": [0, 0.1]}/' "$WORK/grd.json"
check_fails "a grid key in a sobol plan" "grd.json: sobol: vary.initial.offset_y is a grid" "$MECH" sweep "$WORK/grd.json" --out "$WORK/b5"
mk test-sobol.json sn.json; sed -i 's/"N": 8/"N": 1/' "$WORK/sn.json"
check_fails "sobol N out of range" "sn.json: sobol.N: expected an integer 2..2\^20" "$MECH" sweep "$WORK/sn.json" --out "$WORK/b6"
mk test-morris.json ml.json; sed -i 's/"levels": 4/"levels": 5/' "$WORK/ml.json"
check_fails "morris odd levels" "ml.json: morris.levels: expected an even integer" "$MECH" sweep "$WORK/ml.json" --out "$WORK/b7"
mk test-subset.json fm.json; sed -i 's/"metric": "peak_axial"/"metric": "peak_axal"/' "$WORK/fm.json"
check_fails "failure on an unknown metric" "fm.json: subset.failure.metric: \"peak_axal\": expected a metric \(captured, " "$MECH" sweep "$WORK/fm.json" --out "$WORK/b8"
mk test-subset.json ff.json; sed -i 's/"metric": "peak_axial", "above": 3000/"metric": "captured", "below": 1/' "$WORK/ff.json"
check_fails "failure on a flag (cannot set levels)" "ff.json: subset.failure.metric: \"captured\" is a flag or a count" "$MECH" sweep "$WORK/ff.json" --out "$WORK/b9"
mk test-subset.json fb.json; sed -i 's/"above": 3000/"above": 3000, "below": 100/' "$WORK/fb.json"
check_fails "failure above and below" "fb.json: subset.failure: give exactly one of" "$MECH" sweep "$WORK/fb.json" --out "$WORK/b10"
mk test-subset.json fl.json; sed -i 's/"above": 3000/"above": "high"/' "$WORK/fl.json"
check_fails "failure limit not a number" "fl.json: subset.failure.above: expected a finite number" "$MECH" sweep "$WORK/fl.json" --out "$WORK/b11"
mk test-subset.json p0.json; sed -i 's/"p0": 0.1/"p0": 0.15/' "$WORK/p0.json"
check_fails "subset p0 with 1/p0 not an integer" "p0.json: subset: subset simulation needs" "$MECH" sweep "$WORK/p0.json" --out "$WORK/b12"
sed 's/"peak_axial": {"max": 10000}/"peak_axal": {"max": 10000}/' "$WORK/test-qual.json" >"$WORK/rq.json"
check_fails "a requirement on an unknown metric" "rq.json: requirements.peak_axal: unknown metric \(known: captured" "$MECH" sweep "$WORK/rq.json" --out "$WORK/b13"
sed 's/"peak_axial": {"max": 10000}/"peak_axial": {"max": 10000, "min": 0}/' "$WORK/test-qual.json" >"$WORK/rq2.json"
check_fails "a requirement with max and min" "rq2.json: requirements.peak_axial: give exactly one of" "$MECH" sweep "$WORK/rq2.json" --out "$WORK/b14"
sed 's/"basis": "RP-1 §4 S1[^"]*",//' "$WORK/test-qual.json" >"$WORK/nb.json"
check_fails "a case without its basis" "nb.json: cases.S1 central: \"basis\": expected" "$MECH" sweep "$WORK/nb.json" --out "$WORK/b15"
sed 's/"initial": {"closing_speed": 0.15}}/"initial": {"closing_sped": 0.15}}/' "$WORK/test-qual.json" >"$WORK/ck.json"
check_fails "a case key the scenario parser refuses" "ck.json: cases.S1 central \(variant A\): .*closing_sped" "$MECH" sweep "$WORK/ck.json" --out "$WORK/b16"
sed 's#s1-B.json#s9-B.json#' "$WORK/test-qual.json" >"$WORK/nv.json"
check_fails "a missing variant file" "nv.json: variants.B: .*s9-B.json" "$MECH" sweep "$WORK/nv.json" --out "$WORK/b17"
check_fails "--rerun of a subset plan's run (its values come from the levels before it)" "--rerun 3: a subset plan's run values" \
    "$MECH" sweep "$S/test-subset.json" --out "$WORK/b18" --rerun 3
finish

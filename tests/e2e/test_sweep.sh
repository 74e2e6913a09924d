#!/bin/sh
# End-to-end tests of 'mech sweep' (docs/sweep.md) on small coarse-step plans (fixtures/mech/sweep/test-*.json):
# the table byte for byte the same with 1 and 2 worker processes and under mpirun -n 2; a sweep killed with SIGKILL
# and resumed gives the uninterrupted table; the adaptive envelope classifies the 9 x 9 grid exactly as the full
# grid with fewer runs; --rerun gives the files the sweep wrote; the summary's counts and Wilson interval; bad
# plans (each class names the plan file and the key, exit 1, no run); the folder lock.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
FIX=${FIXTURES:-$TOP/fixtures}
S=$FIX/mech/sweep
D=$FIX/mech/dock
exit_code() { "$@" >/dev/null 2>&1; echo $?; }
jnum() { sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\([-0-9.eE+]*\).*/\1/p" "$2" | head -n 1; }

check "mech sweep --help exits 0" "$MECH" sweep --help
check_num "missing plan is a usage error (2)" "$(exit_code "$MECH" sweep)" 2 0
check_num "-j 0 is a usage error (2)" "$(exit_code "$MECH" sweep "$S/test-grid.json" -j 0)" 2 0

# ---- the same table for any number of workers ----
check "grid sweep -j1" "$MECH" sweep "$S/test-grid.json" --out "$WORK/g1" -j 1 -q
check "grid sweep -j2" "$MECH" sweep "$S/test-grid.json" --out "$WORK/g2" -j 2 -q --no-plots
cmp -s "$WORK/g1/results.csv" "$WORK/g2/results.csv" && ok "-j1 and -j2 tables are byte-identical" ||
    not_ok "-j1 and -j2 tables are byte-identical"
[ "$(wc -l <"$WORK/g1/results.csv")" -eq 7 ] && ok "6 runs + header" || not_ok "6 runs + header"
# nothing on stderr when it is not a terminal (no progress line)
"$MECH" sweep "$S/test-grid.json" --out "$WORK/g3" -q --no-plots 2>"$WORK/g3.err" >/dev/null
[ ! -s "$WORK/g3.err" ] && ok "no progress line when stderr is not a terminal" || not_ok "no progress line when stderr is not a terminal"
# on a terminal (script gives the command a pseudo-terminal): done/total, failures, runs/s, ETA
if command -v script >/dev/null 2>&1; then
    script -qec "'$MECH' sweep '$S/test-grid.json' --out '$WORK/g4' --no-plots" /dev/null 2>/dev/null | tr '\r' '\n' >"$WORK/g4.tty"
    grep -Eq '^mech sweep: 6/6 runs, 0 failed, [0-9.e+]+ runs/s, ETA [0-9]+ s' "$WORK/g4.tty" && ok "progress line on a terminal" ||
        { not_ok "progress line on a terminal"; head -5 "$WORK/g4.tty" | sed 's/^/    /'; }
fi
if command -v mpirun >/dev/null 2>&1; then
    # as root in CI: Open MPI needs the two variables; no network: shared memory and self only. Under the SAN build
    # LeakSanitizer would report Open MPI's own start-up allocations (in modules it unloads at MPI_Finalize, shown as
    # <unknown module>): leak detection is off for this one command (the same sweep without MPI is checked above)
    if ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
        mpirun -n 2 --oversubscribe --mca btl self,vader "$MECH" sweep "$S/test-grid.json" --out "$WORK/gm" -q \
        --no-plots >"$WORK/mpi.out" 2>&1; then
        cmp -s "$WORK/g1/results.csv" "$WORK/gm/results.csv" && ok "mpirun -n 2 table is byte-identical" ||
            not_ok "mpirun -n 2 table is byte-identical"
    else
        not_ok "mpirun -n 2 mech sweep runs"; sed 's/^/    /' "$WORK/mpi.out" | head -10
    fi
else
    not_ok "mpirun is installed (scripts/install-deps: openmpi-bin)"
fi
# the worst run by peak_axial (plan "keep") has its full outputs; --rerun writes the same files
id=$(ls "$WORK/g1/runs")
[ -f "$WORK/g1/runs/$id/history.csv" ] && [ -f "$WORK/g1/runs/$id/scenario.json" ] && ok "kept run $id has its outputs" ||
    not_ok "kept run has its outputs"
best=$(awk -F, 'NR > 1 && $4 == "ok" { if ($8 + 0 > m) { m = $8 + 0; b = $1 } } END { print b }' "$WORK/g1/results.csv")
[ "$id" = "$best" ] && ok "the kept run is the largest peak_axial ($best)" || not_ok "the kept run is the largest peak_axial ($id vs $best)"
mv "$WORK/g1/runs/$id" "$WORK/kept"
check "--rerun $id" "$MECH" sweep "$S/test-grid.json" --out "$WORK/g1" --rerun "$id" -q
diff -r "$WORK/kept" "$WORK/g1/runs/$id" >/dev/null && ok "--rerun gives exactly the sweep's files" ||
    not_ok "--rerun gives exactly the sweep's files"
grep -q "^$id," "$WORK/g1/results.csv" && sum_pa=$(jnum peak_axial_force "$WORK/g1/runs/$id/summary.json") &&
    row_pa=$(awk -F, -v i="$id" '$1 == i { print $8 }' "$WORK/g1/results.csv") &&
    check_num "the run's summary peak axial force = the table's" "$sum_pa" "$row_pa" 1e-12
# summary: counts and the Wilson interval
G=$WORK/g1/summary.json
cap=$(awk -F, 'NR > 1 && $5 == 1' "$WORK/g1/results.csv" | wc -l)
check_num "summary captured = rows with captured 1" "$(jnum captured "$G")" "$cap" 0
check_num "summary runs" "$(jnum runs "$G")" 6 0
for f in envelope.png peaks.png peak-map.png; do
    [ -s "$WORK/g1/$f" ] && ok "figure $f" || not_ok "figure $f"
done

# ---- resume after SIGKILL ----
check "the uninterrupted envelope-grid sweep" "$MECH" sweep "$S/test-envelope-full.json" --out "$WORK/full" -j 2 -q --no-plots
"$MECH" sweep "$S/test-envelope-full.json" --out "$WORK/k" -j 2 -q --no-plots >/dev/null 2>&1 &
pid=$!
n=0
while [ "$n" -lt 100 ]; do
    rows=$({ wc -l <"$WORK/k/journal.csv"; } 2>/dev/null || echo 0)
    [ "$rows" -ge 8 ] && break
    sleep 0.05; n=$((n + 1))
done
kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
rows=$(($(wc -l <"$WORK/k/journal.csv") - 2))
[ "$rows" -gt 0 ] && [ "$rows" -lt 81 ] && ok "killed after $rows of 81 runs" || not_ok "killed mid-sweep ($rows rows)"
printf '12,3,0.1,ok,1' >>"$WORK/k/journal.csv"   # a torn row, as a kill during a write leaves it
check_fails "without --resume the folder is refused" "holds a sweep already.*--resume" \
    "$MECH" sweep "$S/test-envelope-full.json" --out "$WORK/k" -q
check "--resume" "$MECH" sweep "$S/test-envelope-full.json" --out "$WORK/k" -j 2 -q --resume --no-plots
cmp -s "$WORK/full/results.csv" "$WORK/k/results.csv" && ok "resumed table = uninterrupted table" ||
    not_ok "resumed table = uninterrupted table"
check_fails "--resume with another plan is refused" "another plan" \
    "$MECH" sweep "$S/test-grid.json" --out "$WORK/k" -q --resume
# a journal whose values are not this program's (an older sampler): refused, not paired with other values
# (the first row, line 8 after the plan line, 4 law-file lines and the header, given a valid check: the journal of
# another mech would carry its own; journal_set_row is in tests/e2e/sweep_journal.sh)
. "$TOP/tests/e2e/sweep_journal.sh"
journal_set_row "$WORK/k/journal.csv" 8 's/^([0-9]*),[^,]*,/\1,7,/'
check_fails "--resume with a journal of other values is refused" "journal.csv:8: run [0-9]+ has initial.pitch_deg = 7, but this plan gives" \
    "$MECH" sweep "$S/test-envelope-full.json" --out "$WORK/k" -q --resume

# ---- the adaptive envelope: the same boundary with fewer runs ----
check "adaptive envelope" "$MECH" sweep "$S/test-envelope.json" --out "$WORK/env" -j 2 -q --no-plots
nenv=$(($(wc -l <"$WORK/env/results.csv") - 1))
same=$(awk -F, 'NR == FNR { if (FNR > 1) c[$1] = $5; next } FNR > 1 && c[$1] != $4 { d++ } END { print d + 0 }' \
    "$WORK/full/results.csv" "$WORK/env/envelope.csv")
check_num "envelope = full grid at all 81 points" "$same" 0 0
awk -v n="$nenv" 'BEGIN { exit !(n < 81) }' && ok "envelope: $nenv runs against 81" || not_ok "envelope: $nenv runs against 81"
cap=$(awk -F, 'NR > 1 && $5 == 1' "$WORK/full/results.csv" | wc -l)
awk -v c="$cap" 'BEGIN { exit !(c > 0 && c < 81) }' && ok "the grid holds a boundary ($cap of 81 capture)" ||
    not_ok "the grid holds a boundary ($cap of 81 capture)"
check_num "summary envelope runs" "$(jnum runs "$WORK/env/summary.json")" "$nenv" 0

# ---- Monte Carlo ----
check "Monte Carlo (LHS, 5 keys, a law file from a list)" "$MECH" sweep "$S/test-mc.json" --out "$WORK/mc" -j 2 -q --no-plots
M=$WORK/mc/summary.json
n=$(jnum runs "$M"); c=$(jnum captured "$M")
lo=$(tr -d ' \n\t' <"$M" | sed -n 's/.*"ci95":\[\([-0-9.eE+]*\),\([-0-9.eE+]*\)\].*/\1/p')
hi=$(tr -d ' \n\t' <"$M" | sed -n 's/.*"ci95":\[\([-0-9.eE+]*\),\([-0-9.eE+]*\)\].*/\2/p')
# the Wilson interval, recomputed here
wl=$(awk -v k="$c" -v n="$n" 'BEGIN { z = 1.959963984540054; p = k / n; c = (p + z*z/(2*n)) / (1 + z*z/n);
    h = z / (1 + z*z/n) * sqrt(p*(1-p)/n + z*z/(4*n*n)); printf "%.17g", (c - h < 0 ? 0 : c - h) }')
check_num "capture probability interval (Wilson) lower" "$lo" "$wl" 1e-9
awk -v l="$lo" -v h="$hi" -v k="$c" -v n="$n" 'BEGIN { exit !(l <= k / n && k / n <= h) }' && ok "p inside its interval" ||
    not_ok "p inside its interval"
awk -F, 'NR > 1 { if ($2 < 0.05 || $2 > 0.25) bad = 1 } END { exit bad }' "$WORK/mc/results.csv" &&
    ok "truncated normal speeds inside [0.05, 0.25]" || not_ok "truncated normal speeds inside [0.05, 0.25]"
grep -q '"initial.pitch_deg"' "$M" && ok "sensitivities per key" || not_ok "sensitivities per key"

# ---- derived keys: set from the varied ones in every run, columns of the table ----
cat >"$WORK/der.json" <<EOF
{"format": "mech-sweep", "scenario": "$D/s2-B.json",
 "set": {"step": 0.002, "duration": 0.5, "outputs.plots": false, "outputs.records": false, "outputs.view_times": []},
 "vary": {"initial.offset_y": {"grid": [0.05, 0.1]}, "initial.closing_speed": {"grid": [0.1, 0.2]}},
 "derive": {"initial.velocity_y": "-initial.offset_y / 10", "initial.velocity_z": "(initial.closing_speed - 0.1) * 2"},
 "keep": {"ids": [3]}}
EOF
check "a plan with derived keys" "$MECH" sweep "$WORK/der.json" --out "$WORK/der" -q --no-plots
bad=$(awk -F, 'NR > 1 { d = $4 + $2 / 10; e = $5 - ($3 - 0.1) * 2; if (d * d > 1e-30 || e * e > 1e-30) n++ } END { print n + 0 }' "$WORK/der/results.csv")
check_num "derived columns = their expressions" "$bad" 0 0
grep -q '"velocity_z":[[:space:]]*0.2' "$WORK/der/runs/3/scenario.json" && ok "a derived key is set in the run's scenario" ||
    not_ok "a derived key is set in the run's scenario"
sed 's#-initial.offset_y / 10#-initial.offset / 10#' "$WORK/der.json" >"$WORK/der2.json"
check_fails "a derived key over an unknown name" "der2.json: derive.initial.velocity_y: .*'initial.offset' is not a varied key" \
    "$MECH" sweep "$WORK/der2.json" --out "$WORK/b14"
sed 's#-initial.offset_y / 10#initial.offset_y / 0#' "$WORK/der.json" >"$WORK/der3.json"
check_fails "a derived key that is not finite" "der3.json: derive.initial.velocity_y: .*not a finite number" \
    "$MECH" sweep "$WORK/der3.json" --out "$WORK/b15"
sed 's#-initial.offset_y / 10#initial.offset_y - 1#; s#"initial.velocity_y"#"initial.gap"#' "$WORK/der.json" >"$WORK/der4.json"
check_fails "a derived value out of its key's range" "der4.json: derive.initial.gap = -0.95: .*initial.gap" \
    "$MECH" sweep "$WORK/der4.json" --out "$WORK/b16"

# ---- bad plans: refused before any run, naming the plan and the key ----
mk() { sed "s#\"scenario\": \"../dock/#\"scenario\": \"$D/#" "$S/$1" >"$WORK/$2"; }
mk test-grid.json typo.json; sed -i 's/initial.pitch_deg/initial.pitch/' "$WORK/typo.json"
check_fails "unknown key path" "typo.json: vary.initial.pitch = 2: .*unknown key" "$MECH" sweep "$WORK/typo.json" --out "$WORK/b1"
[ ! -e "$WORK/b1/journal.csv" ] && ok "no run before the refusal" || not_ok "no run before the refusal"
mk test-mc.json type.json; sed -i 's#"initial.offset_y": {[^}]*}#"initial.offset_y": {"dist": "choice", "values": ["left"]}#' "$WORK/type.json"
check_fails "wrong type" "type.json: vary.initial.offset_y = \"left\": .*initial.offset_y" "$MECH" sweep "$WORK/type.json" --out "$WORK/b2"
mk test-grid.json range.json; sed -i 's/"start": 0.1, "stop": 0.2/"start": -0.1, "stop": 0.2/' "$WORK/range.json"
check_fails "value out of the key's range" "range.json: vary.initial.closing_speed = -0.1: .*expected > 0" "$MECH" sweep "$WORK/range.json" --out "$WORK/b3"
mk test-mc.json sd.json; sed -i 's/"mean": 0, "sd": 1.5/"mean": 0, "sd": -1/' "$WORK/sd.json"
check_fails "bad distribution parameter" "sd.json: vary.initial.pitch_deg: normal: sd = -1: expected > 0" "$MECH" sweep "$WORK/sd.json" --out "$WORK/b4"
mk test-mc.json uni.json; sed -i 's/"min": -0.15, "max": 0.15/"min": 0.15, "max": -0.15/' "$WORK/uni.json"
check_fails "uniform min >= max" "uni.json: vary.initial.offset_y: uniform: expected min < max" "$MECH" sweep "$WORK/uni.json" --out "$WORK/b5"
mk test-mc.json nrm.json; sed -i 's/"dist": "normal", "mean": 0, "sd": 1.5/"dist": "normal", "mean": 0.1, "sd": 0.02/; s/"initial.pitch_deg": {"dist": "normal"/"initial.gap": {"dist": "normal"/' "$WORK/nrm.json"
check_fails "an unbounded normal on a bounded key" "nrm.json: vary.initial.gap = -0.02: .*initial.gap" "$MECH" sweep "$WORK/nrm.json" --out "$WORK/b6"
mk test-mc.json law.json; sed -i 's#models/probe-torsion.json#models/nowhere.json#' "$WORK/law.json"
check_fails "a missing law file in a choice" "law.json: vary.laws.torsion = \"models/nowhere.json\": .*nowhere.json" "$MECH" sweep "$WORK/law.json" --out "$WORK/b7"
mk test-mc.json cap.json; sed -i 's/"samples": 8/"samples": 20000/' "$WORK/cap.json"
check_fails "more runs than max_runs without --force" "cap.json: max_runs: the plan makes 20000 runs, more than max_runs = 10000.*--force" \
    "$MECH" sweep "$WORK/cap.json" --out "$WORK/b8"
mk test-envelope.json lev.json; sed -i 's/"levels": 2/"levels": 4/' "$WORK/lev.json"
check_fails "envelope grid not m 2^L + 1" "lev.json: envelope: vary.initial.pitch_deg has 9 values" "$MECH" sweep "$WORK/lev.json" --out "$WORK/b9"
mk test-envelope.json envs.json; sed -i 's/"envelope": {"levels": 2}/"envelope": "log"/' "$WORK/envs.json"
check_fails "envelope not an object (the fuzzer's find)" "envs.json: envelope: expected \{\"levels\": L\}" "$MECH" sweep "$WORK/envs.json" --out "$WORK/b17"
mk test-grid.json figs.json; sed -i 's/"vary"/"figure": [1], "vary"/' "$WORK/figs.json"
check_fails "figure not an object" "figs.json: figure: expected \{\"x\": KEY, \"y\": KEY\}" "$MECH" sweep "$WORK/figs.json" --out "$WORK/b18"
mk test-grid.json top.json; sed -i 's/"vary"/"vari"/' "$WORK/top.json"
check_fails "unknown top-level key" "top.json: \(top level\): unknown key 'vari'" "$MECH" sweep "$WORK/top.json" --out "$WORK/b10"
printf '{"format": "mech-sweep", "vary": {' >"$WORK/broken.json"
check_fails "malformed plan" "broken.json:1:[0-9]+: malformed JSON" "$MECH" sweep "$WORK/broken.json" --out "$WORK/b11"
mk test-grid.json nosc.json; sed -i 's#s3-A.json#s9-A.json#' "$WORK/nosc.json"
check_fails "missing base scenario" "nosc.json: scenario: .*s9-A.json" "$MECH" sweep "$WORK/nosc.json" --out "$WORK/b12"
check_fails "--rerun out of range" "--rerun 6: the plan's run ids are 0..5" "$MECH" sweep "$S/test-grid.json" --out "$WORK/b13" --rerun 6
# the lock: a second sweep into a folder in use is refused
mkdir -p "$WORK/lk"
if command -v flock >/dev/null 2>&1; then
    flock "$WORK/lk/.lock" sleep 3 &
    fl=$!
    sleep 0.3
    check_fails "a folder in use by another sweep" "another sweep is writing into this folder" \
        "$MECH" sweep "$S/test-grid.json" --out "$WORK/lk" -q
    kill "$fl" 2>/dev/null; wait "$fl" 2>/dev/null
fi
finish

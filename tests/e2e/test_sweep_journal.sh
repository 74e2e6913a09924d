#!/bin/sh
# The sweep's journal and its inputs (docs/sweep.md §Nothing is lost; issue 42 N15, N16, N25): each journal row
# carries a check (CRC-32 seeded with the plan's hash), so a torn row inside the journal (a disk that filled and
# freed) or a row of another plan's journal is dropped on --resume with file:line and run again; the sweep stops at
# its first write error (a file-size limit, RLIMIT_FSIZE, stands for a full disk: no mount, no privilege); a law file
# replaced before --resume or during the sweep is refused, named; --resume removes the temporaries a killed sweep
# left and nothing else.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
. "$TOP/tests/e2e/sweep_journal.sh"
MECH=${MECH:-$TOP/bin/mech}
FIX=${FIXTURES:-$TOP/fixtures}
S=$FIX/mech/sweep
PLAN=$S/test-envelope-full.json   # 81 runs of S3-A, 1.5 s each
# every row of a journal has a valid check and ends with a newline: "ROWS" on success
verify() {
    python3 - "$1" <<'PY'
import re, sys, zlib
data = open(sys.argv[1], "rb").read().decode()
lines = data.split("\n")
seed = zlib.crc32(re.search(r"plan ([0-9a-f]{16})", lines[0]).group(1).encode())
start = next(i for i, l in enumerate(lines) if l.startswith("run,")) + 1
rows = [l for l in lines[start:] if l]
bad = [l for l in rows if "%08x" % zlib.crc32(l.rsplit(",", 1)[0].encode(), seed) != l.rsplit(",", 1)[1]]
print("bad %d" % len(bad) if bad or not data.endswith("\n") else len(rows))
PY
}

check "reference sweep" "$MECH" sweep "$PLAN" --out "$WORK/ref" -j 2 -q --no-plots
n=$(verify "$WORK/ref/journal.csv")
[ "$n" = 81 ] && ok "81 journal rows, every check valid" || not_ok "81 journal rows, every check valid (got $n)"

# ---- N15: a torn row inside the journal (what a disk that fills and frees left: half a row, then the next row
# on the same line), and a row of another plan's journal: dropped with file:line, run again, the table exact ----
mkdir -p "$WORK/torn" && cp "$WORK/ref/journal.csv" "$WORK/torn/"
awk 'NR == 20 { printf "%s", substr($0, 1, 70); next } { print }' "$WORK/ref/journal.csv" >"$WORK/torn/journal.csv"
check "a grid sweep for a foreign row" "$MECH" sweep "$S/test-grid.json" --out "$WORK/other" -q --no-plots
sed -n 8p "$WORK/other/journal.csv" >>"$WORK/torn/journal.csv"   # valid for its own plan, not for this one
"$MECH" sweep "$PLAN" --out "$WORK/torn" -j 2 -q --no-plots --resume >"$WORK/torn.out" 2>&1; rc=$?
check_num "--resume over a torn and a foreign row exits 0" "$rc" 0 0
grep -q "torn/journal.csv:20: a torn or foreign row" "$WORK/torn.out" && ok "the torn row is reported with file:line" ||
    { not_ok "the torn row is reported with file:line"; sed 's/^/    /' "$WORK/torn.out"; }
grep -q "torn/journal.csv:87: a torn or foreign row" "$WORK/torn.out" && ok "the foreign row is reported with file:line" ||
    { not_ok "the foreign row is reported with file:line"; sed 's/^/    /' "$WORK/torn.out"; }
cmp -s "$WORK/ref/results.csv" "$WORK/torn/results.csv" && ok "the resumed table is the reference, byte for byte" ||
    { not_ok "the resumed table is the reference, byte for byte"; diff "$WORK/ref/results.csv" "$WORK/torn/results.csv" | head -4; }
n=$(verify "$WORK/torn/journal.csv")
[ "$n" = 81 ] && ok "the journal is rewritten with 81 valid rows" || not_ok "the journal is rewritten with 81 valid rows (got $n)"

# ---- N15: the first write error stops the sweep (a 3 KiB file-size limit: the journal fills after a few rows) ----
mkdir -p "$WORK/full"
(trap '' XFSZ; ulimit -S -f 3 && exec "$MECH" sweep "$PLAN" --out "$WORK/full" -j 2 -q --no-plots) >"$WORK/full.out" 2>&1
rc=$?
check_num "a write error exits 1" "$rc" 1 0
grep -Eq "full/journal.csv: cannot append the row of run [0-9]+: .*the sweep stopped at this first write error with [0-9]+ runs in the journal.*--resume" \
    "$WORK/full.out" && ok "one message names the journal, the run and the cause" ||
    { not_ok "one message names the journal, the run and the cause"; sed 's/^/    /' "$WORK/full.out"; }
n=$(verify "$WORK/full/journal.csv")
[ "$n" -gt 0 ] 2>/dev/null && [ "$n" -lt 81 ] && ok "stopped with $n whole, valid rows (no torn row left)" ||
    not_ok "stopped with whole, valid rows (got $n)"
[ ! -e "$WORK/full/results.csv" ] && ok "no results.csv after a write error" || not_ok "no results.csv after a write error"
check "--resume once there is room" "$MECH" sweep "$PLAN" --out "$WORK/full" -j 2 -q --no-plots --resume
cmp -s "$WORK/ref/results.csv" "$WORK/full/results.csv" && ok "the resumed table is the reference after a write error" ||
    not_ok "the resumed table is the reference after a write error"

# ---- N25: --resume removes the temporaries of its own outputs a killed sweep left, and nothing else ----
for f in results.csv.tmpAb12Cd summary.json.tmpXy34Zw peaks.png.tmpQq11Rr; do : >"$WORK/full/$f"; done
: >"$WORK/full/mine.csv.tmpAb12Cd"; : >"$WORK/full/results.csv.tmp"
check "--resume of a finished sweep" "$MECH" sweep "$PLAN" --out "$WORK/full" -q --no-plots --resume
grep -q "full: removed 3 temporary file(s) a killed sweep left" "$WORK/.err" && ok "the removal is reported" ||
    { not_ok "the removal is reported"; sed 's/^/    /' "$WORK/.err"; }
left=$(cd "$WORK/full" && ls | grep tmp | tr '\n' ' ')
[ "$left" = "mine.csv.tmpAb12Cd results.csv.tmp " ] && ok "stale temporaries removed, other files kept" ||
    not_ok "stale temporaries removed, other files kept (left: $left)"

# ---- N16: the law files are in the plan's hash; a replaced one is refused, named ----
mkdir -p "$WORK/own/sweep" && cp -r "$FIX/mech/dock" "$WORK/own/dock"
sed 's|"scenario": "../dock/s3-A.json"|"scenario": "../dock/s3-A.json"|' "$PLAN" >"$WORK/own/sweep/plan.json"
check "a sweep over its own copy of the law files" "$MECH" sweep "$WORK/own/sweep/plan.json" --out "$WORK/own/out" -q --no-plots -j 2
echo " " >>"$WORK/own/dock/models/lateral-spring.json"
check_fails "--resume after a law file was replaced is refused, naming it" \
    "journal.csv:[0-9]+: laws.spring .*/dock/models/lateral-spring.json changed since the sweep started" \
    "$MECH" sweep "$WORK/own/sweep/plan.json" --out "$WORK/own/out" -q --no-plots --resume
cp "$FIX/mech/dock/models/lateral-spring.json" "$WORK/own/dock/models/"
# during the sweep: the file changes after a few rows; the sweep stops at the next run that reads it
"$MECH" sweep "$WORK/own/sweep/plan.json" --out "$WORK/own/during" -q --no-plots >"$WORK/during.out" 2>&1 &
pid=$!
i=0
while [ "$i" -lt 200 ]; do
    rows=$({ wc -l <"$WORK/own/during/journal.csv"; } 2>/dev/null || echo 0)
    [ "$rows" -ge 9 ] && break
    sleep 0.02; i=$((i + 1))
done
echo " " >>"$WORK/own/dock/models/lateral-spring.json"
wait "$pid"; rc=$?
check_num "a law file replaced during the sweep stops it (exit 1)" "$rc" 1 0
grep -q "laws.spring: .*/dock/models/lateral-spring.json changed since the sweep started" "$WORK/during.out" &&
    ok "the message names the key and the file" || { not_ok "the message names the key and the file"; sed 's/^/    /' "$WORK/during.out"; }
n=$(verify "$WORK/own/during/journal.csv")
[ "$n" -lt 81 ] 2>/dev/null && ok "stopped: $n of 81 rows, all from the first law" || not_ok "stopped before the end (got $n)"
finish

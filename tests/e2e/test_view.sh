#!/bin/sh
# End-to-end tests of 'mech view' (docs/view.md, issue 48): the pages of S1-B, S3x-400-B, S3x-400-C, S1-400-B and
# RP-2's S3x-400-B in Debian's headless Chromium (tests/e2e/view_check.py through the DevTools protocol over a pipe:
# no console errors; every contact flag change and force peak of history.csv kept by the decimation, or where the
# events pass --rows every episode above the largest peak left out; the slider's values equal the history;
# the head red at the first contact and not before; the scene changes by the end; drawn in under 2 s; the 400 s
# pages under 4 MiB), a beam response (hinges red exactly while they carry a moment), a sweep (its links resolve);
# bad input, each class named with its file (line, column) or option, exit 1 or 2, nothing written over an input
# and an earlier page kept. Without Chromium (or python3-pil) the browser checks are skipped with a message.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
FIX=${FIXTURES:-$TOP/fixtures}
D=$FIX/mech/dock
PY=/usr/bin/python3   # Debian's, with python3-pil (a python3 earlier on PATH may lack it)
browser=1
if ! command -v chromium >/dev/null 2>&1; then
    echo "# SKIP the browser checks: chromium is not installed (scripts/install-deps installs it; CI has it)"; browser=0
elif ! "$PY" -c 'import PIL' 2>/dev/null; then
    echo "# SKIP the browser checks: python3-pil is not installed (scripts/install-deps installs it)"; browser=0
fi

# ---- the runs: S1-B (20 s) and the whole process S3x-400-B and -C (at their shipped output rate, 20 rows/s) ----
cd "$WORK" || exit 1
# (S1-B and S3x-400-B write log.h5 too: --format csv+h5, the same run in both forms)
for s in s1-B s3x-400-B s3x-400-C; do
    fmt=csv; [ "$s" = s3x-400-C ] || fmt=csv+h5
    check "mech dock $s --format $fmt" "$MECH" dock "$D/$s.json" --out "$WORK/$s" --no-plots --no-records --format $fmt -q
    check "mech view $s" "$MECH" view "$WORK/$s" -q
done
check_eq() { if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1 (got '$2', expected '$3')"; fi; }
# the 400 s pages under their 4 MiB (docs/view.md §3): S1-400-B, whose lateral springs switch on and off 2 481 times
# at 1e-10..8e-5 N (the decimation ranks the episodes by their peak and says what it left out), and RP-2's largest,
# S3x-400-B (4.07 MB before the pages wrote flat runs as [value, count]); the browser checks below check their rows
for s in s1-400-B rp2/s3x-400-B; do
    o="$WORK/$(echo $s | tr / -)"
    check "mech dock $s" "$MECH" dock "$D/$s.json" --out "$o" --no-plots --no-records -q
    "$MECH" view "$o" -q 2>"$o/note.txt"
    check_eq "mech view $s: exit status" "$?" "0"
    size=$(wc -c < "$o/view.html")
    if [ "$size" -lt 4194304 ]; then ok "$s: the page under 4 MiB ($size bytes)"; else not_ok "$s: the page under 4 MiB ($size bytes)"; fi
done
check_eq "s1-400-B: the note says what the decimation left out" \
    "$(grep -c '^mech view: note: .*: the contact events pass --rows 3000: [0-9]* of [0-9]* force episodes left out, the smallest, each peaking at .* or less (head_lateral [0-9]*, chain1_f [0-9]*, chain2_f [0-9]*); every flag change and every larger episode kept$' "$WORK/s1-400-B/note.txt")" "1"
check_eq "rp2/s3x-400-B: no note (every episode kept)" "$(wc -c < "$WORK/rp2-s3x-400-B/note.txt")" "0"
check_eq "pose.csv has a row for every history row" "$(wc -l < "$WORK/s1-B/pose.csv")" "$(wc -l < "$WORK/s1-B/history.csv")"

# ---- an HDF5 log (docs/view.md §1): the page's data from log.h5 (/history, /pose, the summary attribute) equal
# those from the CSV folder of the same run, every number to the digit (all but the title, which names the input);
# and a folder holding only log.h5 (--format h5) gives the same page as well -------------------------------------
same_data() {   # (name, page A, page B): the embedded run data equal but the title
    if "$PY" - "$2" "$3" <<'PYEOF'
import json, re, sys
def data(p):
    m = re.search(r'<script type="application/json" id="run-data">(.*?)</script>', open(p).read(), re.S)
    d = json.loads(m.group(1))
    d.pop("title")
    return d
a, b = data(sys.argv[1]), data(sys.argv[2])
diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
if diff or len(a["data"][0]) < 100:
    sys.exit("differ in %s (or too few rows: %d)" % (diff, len(a["data"][0])))
PYEOF
    then ok "$1"; else not_ok "$1"; fi
}
for s in s1-B s3x-400-B; do
    check "mech view $s/log.h5" "$MECH" view "$WORK/$s/log.h5" -o "$WORK/$s/view-h5.html" -q
    same_data "$s: the page from log.h5 holds the data of the page from the CSV folder" "$WORK/$s/view.html" \
        "$WORK/$s/view-h5.html"
done
check "mech dock s1-B --format h5" "$MECH" dock "$D/s1-B.json" --out "$WORK/s1-B-h5" --no-plots --no-records --format h5 -q
check_eq "--format h5 writes no CSV history" "$(ls "$WORK/s1-B-h5" | grep -c '\.csv$')" "0"
check "mech view of a folder holding log.h5" "$MECH" view "$WORK/s1-B-h5" -q
same_data "s1-B --format h5: the same page data as the CSV folder" "$WORK/s1-B/view.html" "$WORK/s1-B-h5/view.html"

# ---- a beam response (four clearance hinges, spec 004 §8) and a sweep (6 runs, the worst kept) ------------------
check "mech beam sim hinges-4" "$MECH" beam sim "$FIX/mech/beam/hinges-4.json" --output-rate 2000 -o "$WORK/beam.csv"
check "mech view beam.csv --config" "$MECH" view "$WORK/beam.csv" --config "$FIX/mech/beam/hinges-4.json" -q
# the deformed beam from the modal coordinates (docs/view.md §4): the same run with --modal, the model's shapes
check "mech beam sim hinges-4 --modal" "$MECH" beam sim "$FIX/mech/beam/hinges-4.json" --output-rate 2000 \
    -o "$WORK/bm.csv" --modal "$WORK/bm-modal.csv"
check_eq "--modal leaves the time response as it was" "$(cmp "$WORK/beam.csv" "$WORK/bm.csv" && echo same)" "same"
check "mech beam shapes hinges-4" "$MECH" beam shapes "$FIX/mech/beam/hinges-4.json" -o "$WORK/bm-shapes.csv"
check "mech view --modal" "$MECH" view "$WORK/bm.csv" --config "$FIX/mech/beam/hinges-4.json" --modal "$WORK/bm-modal.csv" -q
check "mech sweep test-grid" "$MECH" sweep "$FIX/mech/sweep/test-grid.json" --out "$WORK/sw" --no-plots -q
check "mech view of a sweep" "$MECH" view "$WORK/sw" -q
check "the sweep's kept run got its page" test -s "$WORK/sw/runs/2/view.html"

if [ "$browser" = 1 ]; then
    "$PY" "$TOP/tests/e2e/view_check.py" --max-load-ms 2000 --max-bytes 4194304 \
        "dock:$WORK/s1-B/view.html:$WORK/s1-B" "dock:$WORK/s3x-400-B/view.html:$WORK/s3x-400-B" \
        "dock:$WORK/s3x-400-C/view.html:$WORK/s3x-400-C" "dock:$WORK/s1-400-B/view.html:$WORK/s1-400-B" \
        "dock:$WORK/rp2-s3x-400-B/view.html:$WORK/rp2-s3x-400-B" "beam:$WORK/beam.html:$WORK/beam.csv" \
        "beam:$WORK/bm.html:$WORK/bm.csv:$WORK/bm-modal.csv:$WORK/bm-shapes.csv" \
        "links:$WORK/sw/view.html" > "$WORK/vc.out" 2>&1
    rc=$?
    cat "$WORK/vc.out"
    [ "$rc" -eq 0 ] || grep -q '^not ok' "$WORK/vc.out" || not_ok "view_check.py ran (exit $rc)"
fi

# ---- the demo's report as a web page (scripts/report-html) and the link check make demo runs on it -------------
printf '# report\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n![figure](fig.png) [run](s1-B/view.html) [gone](gone.html)\n' > "$WORK/r.md"
: > "$WORK/fig.png"
check "report-html writes the page" "$PY" "$TOP/scripts/report-html" "$WORK/r.md" "$WORK/r.html"
check_eq "its table is a table" "$(grep -c '<table>' "$WORK/r.html")" "1"
if "$PY" "$TOP/tests/e2e/view_check.py" "static:$WORK/r.html" > "$WORK/links.out" 2>&1; then
    not_ok "the link check finds the missing page"
else
    check_eq "the link check finds the missing page, only it" "$(grep -o "missing: .*" "$WORK/links.out")" "missing: ['gone.html'])"
fi
check_fails "report-html refuses its input as output" "refusing to overwrite the input" "$PY" "$TOP/scripts/report-html" \
    "$WORK/r.md" "$WORK/r.md"

# ---- bad input: one line naming the file (line:column) or the option; exit 1 (2 for usage) ---------------------
B="$WORK/bad"
mkdir -p "$B"
cp -r "$WORK/s1-B" "$B/run"
check_fails "no RUN: usage" "missing RUN" "$MECH" view
check_fails "not a run folder" "neither a mech dock output folder" "$MECH" view "$B"
check_fails "no such run" "no such file or folder" "$MECH" view "$B/nothing"
cp -r "$B/run" "$B/ragged"; sed -i '7s/,[^,]*$//' "$B/ragged/history.csv"
check_fails "a ragged history row: FILE:LINE:1" "history.csv:7:1: fewer cells, expected [0-9]+ as in the header" \
    "$MECH" view "$B/ragged"
cp -r "$B/run" "$B/word"; sed -i '9s/^\([^,]*\),[^,]*/\1,oops/' "$B/word/history.csv"
check_fails "a word in a number column: FILE:LINE:COLUMN" "history.csv:9:[0-9]+: column 'head_fx': 'oops' is not a finite number" \
    "$MECH" view "$B/word"
cp -r "$B/run" "$B/nul"; printf '0,1\0002\n' >> "$B/nul/pose.csv"
check_fails "a NUL byte: FILE:LINE:COLUMN" "pose.csv:[0-9]+:4: a NUL byte, expected text" "$MECH" view "$B/nul"
cp -r "$B/run" "$B/short"; sed -i '$d' "$B/short/pose.csv"
check_fails "pose.csv from another run (rows)" "pose.csv: [0-9]+ rows, .*history.csv [0-9]+: not the outputs of one run" \
    "$MECH" view "$B/short"
cp -r "$B/run" "$B/shift"; sed -i '5s/^[^,]*,/0.5,/' "$B/shift/pose.csv"
check_fails "pose.csv from another run (times)" "pose.csv:5:1: t = 0.5 where .*history.csv:5 has" "$MECH" view "$B/shift"
cp -r "$B/run" "$B/nopose"; rm "$B/nopose/pose.csv"
check_fails "no pose.csv" "pose.csv: missing" "$MECH" view "$B/nopose"
cp -r "$B/run" "$B/noscen"; sed -i 's|"scenario":.*|"scenario": "nowhere/x.json",|' "$B/noscen/summary.json"
check_fails "the scenario not found: names the summary's key" "summary.json: scenario: 'nowhere/x.json' not found.*--scenario" \
    "$MECH" view "$B/noscen"
check "--scenario gives it" "$MECH" view "$B/noscen" --scenario "$D/s1-B.json" -q
cp -r "$B/run" "$B/badsum"; printf '{"scenario": 1,,}' > "$B/badsum/summary.json"
check_fails "a malformed summary: FILE:LINE:COLUMN" "summary.json:1:[0-9]+" "$MECH" view "$B/badsum"
check_fails "--rows below 10" "--rows" "$MECH" view "$B/run" --rows 3
check_fails "--config for a dock run" "--config is for a beam response" "$MECH" view "$B/run" --config x.json
check_fails "a CSV that is not a beam response" "expected a mech beam sim time response" "$MECH" view "$B/run/history.csv"
# a modal file that is not the run's or the model's: each refused naming FILE:LINE:COLUMN, the earlier page kept
H4="$FIX/mech/beam/hinges-4.json" M="$B/modal"
mkdir -p "$M"; cp "$WORK/bm.csv" "$WORK/bm-modal.csv" "$M/"; cp "$WORK/bm.html" "$M/bm.html"
bad_modal() {   # (name, pattern, modal file made from the good one): refused, exit 1, the page and inputs as they were
    n=$1 pat=$2 f=$3; shift 3
    sum0=$(cat "$M/bm.html" "$M/bm.csv" "$f" | md5sum)
    check_fails "$n" "$pat" "$MECH" view "$M/bm.csv" --config "$H4" --modal "$f" -o "$M/bm.html"
    check_eq "$n: exit status 1" "$("$MECH" view "$M/bm.csv" --config "$H4" --modal "$f" -o "$M/bm.html" 2>/dev/null; echo $?)" "1"
    check_eq "$n: the earlier page and the inputs untouched" "$(cat "$M/bm.html" "$M/bm.csv" "$f" | md5sum)" "$sum0"
}
awk -F, -v OFS=, '{ $7 = $7 "," (NR == 1 ? "eta_6" : NR == 2 ? "kg^0.5 m" : 0) } 1' "$M/bm-modal.csv" > "$M/six.csv"
bad_modal "a modal file with 6 modes for a 5-mode model" "six.csv:1:[0-9]+: column 'eta_6' where 'dtheta_1' is expected \(the model of .*hinges-4.json has 5 modal coordinates" "$M/six.csv"
cut -d, -f1-6,8- "$M/bm-modal.csv" > "$M/four.csv"
bad_modal "a modal file with 4 modes (eta_5 missing)" "four.csv:1:[0-9]+: column 'dtheta_1' where 'eta_5' is expected" "$M/four.csv"
cut -d, -f1-9 "$M/bm-modal.csv" > "$M/nojoint.csv"
bad_modal "a modal file without the last hinges' columns" "nojoint.csv:1:[0-9]+: missing column 'dtheta_3'" "$M/nojoint.csv"
sed '1s/^t,theta,/t,/; 2s/^s,rad,/s,/; 3,$s/^\([^,]*\),[^,]*,/\1,/' "$M/bm-modal.csv" > "$M/notheta.csv"
bad_modal "a modal file without theta" "notheta.csv:1:3: column 'eta_1' where 'theta' is expected" "$M/notheta.csv"
sed '9s/^\([^,]*,[^,]*,[^,]*\),[^,]*/\1,oops/' "$M/bm-modal.csv" > "$M/word.csv"
bad_modal "a word in the modal file: FILE:LINE:COLUMN" "word.csv:9:[0-9]+: column 'eta_2': 'oops' is not a finite number" "$M/word.csv"
sed '$d' "$M/bm-modal.csv" > "$M/short.csv"
bad_modal "a modal file of another run (rows)" "short.csv: 2000 rows, .*bm.csv 2001: not the outputs of one run" "$M/short.csv"
sed '5s/^[^,]*,/0.5,/' "$M/bm-modal.csv" > "$M/shift.csv"
bad_modal "a modal file of another run (times)" "shift.csv:5:1: t = 0.5 where .*bm.csv:5 has" "$M/shift.csv"
check_fails "--modal without --config" "--modal needs --config" "$MECH" view "$M/bm.csv" --modal "$M/bm-modal.csv"
check_fails "mech beam sim --modal with --physical" "--modal needs .*not --physical" "$MECH" beam sim "$H4" --physical \
    --modal "$M/p.csv" -o "$M/p-sim.csv"
printf '{"format": "mech-beam", "solver": {"coordinates": "physical", "duration": 0.01}}\n' > "$M/phys.json"
check_fails "mech beam sim --modal, a physical-coordinates configuration" "phys.json: solver.coordinates = \"physical\": --modal needs the modal coordinates" \
    "$MECH" beam sim "$M/phys.json" --modal "$M/p.csv" -o "$M/p-sim.csv"
check_eq "and writes neither output" "$(ls "$M" | grep -c '^p.*csv$')" "0"
check_fails "mech beam sim --modal -o the same file" "--modal" "$MECH" beam sim "$H4" --modal "$M/same.csv" -o "$M/same.csv"
# bad HDF5 logs: each refused with one line naming FILE:/DSET, exit 1, no page left
BF=$FIX/bad
check_fails1() { check_fails "$@"; check_eq "$1: one line" "$(wc -l < "$WORK/.err")" "1"; }
cp "$BF/h5-dock-log-without-pose.h5" "$B/nopose.h5"   # a log of mech dock before it wrote /pose
check_fails1 "a log without /pose: names it, says to rerun" "nopose.h5:/pose: missing: the run's poses .*rerun mech dock" \
    "$MECH" view "$B/nopose.h5" --scenario "$D/s1-B.json"
check_eq "and writes no page" "$(ls "$B" | grep -c '^nopose.html$')" "0"
cp "$BF/h5-libhdf5-segv-units-attribute.h5" "$BF/h5-truncated.h5" "$BF/h5-escape-names.h5" "$B/"
check_fails1 "a log whose units attribute crashes libhdf5" "h5-libhdf5-segv-units-attribute.h5:/history: the HDF5 library crashed \\(signal 11" \
    "$MECH" view "$B/h5-libhdf5-segv-units-attribute.h5" --scenario "$D/s1-B.json"
check_fails1 "a truncated log" "h5-truncated.h5:/: cannot open the HDF5 file .*truncated, 20000 bytes of the 71643" \
    "$MECH" view "$B/h5-truncated.h5"
check_fails1 "an HDF5 file that is no mech dock log" "h5-escape-names.h5:/: no attribute 'summary'" "$MECH" view "$B/h5-escape-names.h5"
head -c 3000 "$WORK/s1-B/log.h5" > "$B/cut.h5"
check_fails1 "a log cut short" "cut.h5:/: cannot open the HDF5 file .*truncated, 3000 bytes" "$MECH" view "$B/cut.h5"
# a NaN in /history (history.csv would hold 'nan', refused there as a word): an uncompressed log (outputs.compression
# 0, the scenario copied with its models) with one number of the 5th row, found once in the file, set to NaN
cp -r "$D" "$B/dockc" && sed -i 's/"rate": 200,/"rate": 200, "compression": 0,/' "$B/dockc/s1-B.json"
"$MECH" dock "$B/dockc/s1-B.json" --duration 0.05 --format csv+h5 --no-records --no-plots --out "$B/nan" -q
col=$("$PY" - "$B/nan" <<'PYEOF'
import csv, struct, sys
d = sys.argv[1]
rows = list(csv.reader(open(d + "/history.csv")))
blob = bytearray(open(d + "/log.h5", "rb").read())
for k, v in enumerate(rows[2 + 4]):
    pat = struct.pack("<d", float(v))
    if k > 0 and float(v) != 0 and blob.count(pat) == 1:
        i = blob.find(pat)
        blob[i:i + 8] = struct.pack("<d", float("nan"))
        open(d + "/log.h5", "wb").write(blob)
        print("%d: column '%s'" % (k + 1, rows[0][k]))
        break
PYEOF
)
check_fails1 "a NaN in a log's history: FILE:/DSET:ROW:COLUMN" "nan/log.h5:/history:5:$col: nan is not a finite number" \
    "$MECH" view "$B/nan/log.h5" --scenario "$B/dockc/s1-B.json"
check_fails "--config for a log" "--config is for a beam response" "$MECH" view "$WORK/s1-B/log.h5" --config x.json
h=$(cksum < "$B/run/history.csv")
check_fails "-o onto an input" "history.csv: refusing to overwrite an input file" "$MECH" view "$B/run" -o "$B/run/history.csv"
check_eq "the input is unchanged" "$(cksum < "$B/run/history.csv")" "$h"
echo "earlier page" > "$B/word/view.html"
"$MECH" view "$B/word" >/dev/null 2>&1
check_eq "a failed view keeps the earlier page" "$(cat "$B/word/view.html")" "earlier page"
check_eq "and leaves no temporary" "$(ls -A "$B/word" | grep -c '^\.')" "0"
finish

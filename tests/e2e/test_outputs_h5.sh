#!/bin/sh
# End-to-end tests of the output formats and rates of 'mech dock' (docs/dock-scenarios.md "Outputs",
# docs/formats.md "HDF5 logs"): one run written as CSV and as HDF5 holds the same numbers bit for bit (read back
# with Debian's h5py); hyst loops on FILE.h5:/records/X reports what it reports on X.csv and gives back the booked
# work to 1e-12; decimated history and records are exactly the full-rate rows at the sampled times, rows at events
# are full-rate rows, and the summary does not change; bad HDF5 paths get one-line errors naming file and dataset.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
HYST=${HYST:-$TOP/bin/hyst}
FIX=${FIXTURES:-$TOP/fixtures}
D=$FIX/mech/dock
PY=/usr/bin/python3   # Debian's, with h5py (scripts/install-deps: python3-h5py)

jnum() { sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\([-0-9.eE+]*\).*/\1/p" "$2" | head -n 1; }
ework() { tr -d ' \n\t' <"$2" | grep -o "\"name\":\"$1\"[^}]*" | sed -n 's/.*"work":\([-0-9.eE+]*\).*/\1/p'; }

# S1-B over 1 s (capture at 0.044 s, the axial chain strokes and rebounds): every step in the history and records
# (fixed 0.25 ms steps: --tolerance 0, so that the rows at t = k/100 exist in the full-rate outputs)
check "S1-B, csv+h5 at every step" "$MECH" dock "$D/s1-B.json" --duration 1 --tolerance 0 --no-plots -q --format csv+h5 \
    --output-rate 0 --out "$WORK/full"
F=$WORK/full
[ -s "$F/log.h5" ] && [ -s "$F/history.csv" ] && ok "log.h5 and history.csv written" || not_ok "log.h5 and history.csv written"
ls "$F" | grep -q 'tmp' && not_ok "no temporary file left" || ok "no temporary file left"

# every number of every CSV equals the HDF5 value bit for bit; names, units, compression, summary attributes
cat >"$WORK/same.py" <<'PYEOF'
import csv, json, struct, sys
import h5py
d = sys.argv[1]
bad = []
with h5py.File(d + "/log.h5", "r") as f:
    tables = [("history", "/history")] + [(e, "/records/" + e) for e in
              ("axial", "spring1", "spring2", "torsion", "bend_y", "bend_z")]
    n_num = 0
    for name, path in tables:
        ds = f[path]
        rows = list(csv.reader(open(d + "/" + name + ".csv")))
        header, units, data = rows[0], rows[1], rows[2:]
        if list(ds.dtype.names) != header: bad.append(path + ": columns differ from the CSV header")
        if [u.decode() if isinstance(u, bytes) else u for u in ds.attrs["units"]] != units:
            bad.append(path + ": units differ from the CSV units row")
        if ds.compression != "gzip" or not ds.shuffle or ds.chunks is None: bad.append(path + ": not chunked+compressed")
        if not ds.attrs["description"]: bad.append(path + ": no description")
        a = ds[...]
        if len(a) != len(data): bad.append("%s: %d rows, CSV %d" % (path, len(a), len(data))); continue
        for i, r in enumerate(data):
            for k, c in enumerate(header):
                x = float(r[k]); y = float(a[c][i]); n_num += 1
                if struct.pack("<d", x) != struct.pack("<d", y):
                    bad.append("%s row %d %s: csv %r h5 %r" % (path, i + 1, c, x, y))
                    break
    s = json.loads(f.attrs["summary"])
    if s != json.load(open(d + "/summary.json")): bad.append("summary attribute differs from summary.json")
    if f.attrs["peak_axial_force"] != s["peak_axial_force"] or f.attrs["captured"] != 1: bad.append("scalar attributes")
print("%d numbers compared" % n_num)
for b in bad[:10]: print(b)
sys.exit(1 if bad or n_num < 250000 else 0)
PYEOF
check "CSV and HDF5 hold the same numbers bit for bit (h5py)" $PY "$WORK/same.py" "$F"

# the stored chunks are what any reader decodes with the standard filters, no plugin: h5dump lists shuffle + deflate;
# each chunk of /history (8 chunks of 520 rows of 504 bytes) is a zlib stream that Python's zlib inflates to the rows
# shuffled over the row size (HDF5's shuffle of the compound type), filter mask 0, the partial last one padded with
# zeros (HDF5's fill value); written by libhyst itself (libdeflate: not the bytes zlib's level 1, HDF5's own filter,
# makes of them)
h5dump -pH -d /history "$F/log.h5" >"$WORK/h5dump.txt" 2>&1 && grep -q "PREPROCESSING SHUFFLE" "$WORK/h5dump.txt" &&
    grep -q "COMPRESSION DEFLATE { LEVEL 1 }" "$WORK/h5dump.txt" && ok "h5dump: /history filters shuffle + deflate 1" ||
    not_ok "h5dump: /history filters shuffle + deflate 1"
cat >"$WORK/chunks.py" <<'PYEOF'
import sys, zlib
import h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    ds = f["/history"]
    a, es, n = ds[...], ds.dtype.itemsize, ds.chunks[0]
    nch = ds.id.get_num_chunks()
    if nch != -(-len(a) // n) or nch < 3: sys.exit("%d chunks of %d rows for %d rows" % (nch, n, len(a)))
    full = 0
    for c in range(nch):
        off, mask, _, size = ds.id.get_chunk_info(c)
        m2, raw = ds.id.read_direct_chunk(off)
        if mask != 0 or m2 != 0: sys.exit("chunk %d: filter mask %d" % (c, mask))
        sh = np.frombuffer(zlib.decompress(raw), np.uint8)
        if sh.size != n * es: sys.exit("chunk %d: %d bytes inflated, expected %d" % (c, sh.size, n * es))
        rows = sh.reshape(es, n).T.copy().view(ds.dtype).reshape(n)
        k = min(n, len(a) - off[0])
        if rows[:k].tobytes() != a[off[0]:off[0] + k].tobytes(): sys.exit("chunk %d: rows differ" % c)
        if rows[k:].tobytes().strip(b"\0"): sys.exit("chunk %d: not padded with zeros" % c)
        if size >= n * es or raw == zlib.compress(sh.tobytes(), 1): sys.exit("chunk %d: not written directly" % c)
        full += k == n
    print("%d chunks, %d full, decoded as stored" % (nch, full))
PYEOF
check "HDF5 chunks: standard shuffle + zlib streams, all written directly" $PY "$WORK/chunks.py" "$F/log.h5"

# hyst loops on the HDF5 table: the same report as on the CSV (only the source and the file lines, shifted by the
# CSV's header and units rows, differ), and the booked work back to 1e-12
check "hyst loops axial.csv" "$HYST" loops "$F/axial.csv" --json "$WORK/lc.json" -q
check "hyst loops log.h5:/records/axial" "$HYST" loops "$F/log.h5:/records/axial" --json "$WORK/lh.json" -q
cat >"$WORK/cmp.py" <<'PYEOF'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
def norm(x, shift):
    if isinstance(x, dict):
        return {k: (v - shift if "line" in k and isinstance(v, int) else norm(v, shift)) for k, v in x.items() if k not in ("source", "file")}
    if isinstance(x, list): return [norm(v, shift) for v in x]
    return x
sys.exit(0 if norm(a, 2) == norm(b, 0) else 1)
PYEOF
check "hyst loops: HDF5 report = CSV report (lines shifted by 2)" $PY "$WORK/cmp.py" "$WORK/lc.json" "$WORK/lh.json"
check_num "hyst loops on log.h5:/records/axial gives back the booked work (1e-12)" \
    "$(jnum total_energy "$WORK/lh.json")" "$(ework axial "$F/summary.json")" 1e-12
check "hyst replay on log.h5:/records/axial" "$HYST" replay "$D/models/gear-B.json" "$F/log.h5:/records/axial" \
    --json "$WORK/rh.json"
check "hyst replay on axial.csv" "$HYST" replay "$D/models/gear-B.json" "$F/axial.csv" --json "$WORK/rc.json"
check "hyst replay: HDF5 report = CSV report" $PY "$WORK/cmp.py" "$WORK/rc.json" "$WORK/rh.json"
check "hyst plot reads an HDF5 table (script only)" "$HYST" plot loops "$F/log.h5:/records/axial" --script "$WORK/p.gp"
grep -q "set title 'axial: measured loops'" "$WORK/p.gp" && ok "plot script titled by the table name" \
    || not_ok "plot script titled by the table name"

# bad HDF5 paths: one line naming the file and the dataset, exit 1
check_fails "missing HDF5 file" "nofile.h5:/records/axial: cannot open .*nofile.h5" "$HYST" loops "$WORK/nofile.h5:/records/axial"
check_fails "missing dataset" "log.h5:/records/nope: no dataset /records/nope" "$HYST" loops "$F/log.h5:/records/nope"
check_fails "not an HDF5 file" "summary.json:/records/axial: .*summary.json is not an HDF5 file" \
    "$HYST" loops "$F/summary.json:/records/axial"
check_fails "a group, not a dataset" "log.h5:/records: is a group" "$HYST" loops "$F/log.h5:/records"
$PY -c "import h5py, numpy; f = h5py.File('$WORK/bad.h5', 'w'); f['cube'] = numpy.zeros((2, 2, 2)); f['s'] = 'text'; f['one'] = numpy.zeros(5)" \
    && ok "bad shapes written" || not_ok "bad shapes written"
check_fails "3-D dataset: wrong shape" "bad.h5:/cube: found a 3-D dataset of numbers, expected a table" "$HYST" loops "$WORK/bad.h5:/cube"
check_fails "1-D numbers: wrong shape" "bad.h5:/one: found a 1-D dataset of numbers, expected a table" "$HYST" loops "$WORK/bad.h5:/one"
check_fails "string dataset: wrong shape" "bad.h5:/s: found a 0-D dataset of strings" "$HYST" loops "$WORK/bad.h5:/s"
check_fails "--format other: usage error" "--format 'xml': expected csv, h5 or csv\+h5" "$MECH" dock "$D/s1-B.json" --format xml
for bad in '"compression": 12|outputs.compression: expected a deflate level 0..9' \
           '"events": "sometimes"|outputs.events: expected one of "none", "also", "only"' \
           '"format": "xml"|outputs.format: expected one of "csv", "h5", "csv\+h5"' \
           '"records_rate": -1|outputs.records_rate'; do
    printf '{"format": "mech-dock", "initial": {"closing_speed": 0.15}, "outputs": {%s}}\n' "${bad%%|*}" >"$WORK/o.json"
    check_fails "bad ${bad%%|*}" "o.json: ${bad#*|}" "$MECH" dock "$WORK/o.json"
done

# HDF5 only: one file, the records named by their dataset path in the summary
check "S1-B, h5 only" "$MECH" dock "$D/s1-B.json" --duration 1 --tolerance 0 --no-plots -q --format h5 --out "$WORK/h5"
$PY -c "
import h5py, sys
a = h5py.File('$WORK/h5/log.h5')['/records/axial']; b = h5py.File('$F/log.h5')['/records/axial']
sys.exit(0 if a.compression == 'gzip' and (a[...] == b[...]).all() else 1)" && ok "h5 only: the same records" || not_ok "h5 only: the same records"
[ -s "$WORK/h5/log.h5" ] && [ ! -e "$WORK/h5/history.csv" ] && [ ! -e "$WORK/h5/axial.csv" ] \
    && ok "h5 only: log.h5, no CSV" || not_ok "h5 only: log.h5, no CSV"
grep -q '"record":[[:space:]]*"log.h5:/records/axial"' "$WORK/h5/summary.json" && ok "summary names the HDF5 record" \
    || not_ok "summary names the HDF5 record"

# decimated: 100 rows/s in history and records = the full-rate rows at t = k/100; the summary is unchanged
check "S1-B at --output-rate 100" "$MECH" dock "$D/s1-B.json" --duration 1 --tolerance 0 --no-plots -q --output-rate 100 \
    --out "$WORK/dec"
check "S1-B rows at events only" "$MECH" dock "$D/s1-B.json" --duration 1 --tolerance 0 --no-plots -q --output-rate events \
    --out "$WORK/ev"
cat >"$WORK/dec.py" <<'PYEOF'
import sys
full, dec, mode = sys.argv[1], sys.argv[2], sys.argv[3]
bad = []
for name in ("history", "axial", "spring1", "torsion"):
    fl = open(full + "/" + name + ".csv").read().splitlines()
    dl = open(dec + "/" + name + ".csv").read().splitlines()
    if fl[:2] != dl[:2]: bad.append(name + ": header/units differ")
    byt = {l.split(",")[0]: l for l in fl[2:]}
    rows = dl[2:]
    for l in rows:
        if byt.get(l.split(",")[0]) != l: bad.append("%s: row %r is not the full-rate row" % (name, l[:60]))
    if mode == "rate":
        ts = [float(l.split(",")[0]) for l in rows]
        want = [k / 100 for k in range(101)]
        if len(ts) != 101 or any(abs(a - b) > 1e-9 for a, b in zip(ts, want)):
            bad.append("%s: %d rows, expected t = 0, 0.01, ..., 1" % (name, len(ts)))
    else:
        if not (2 <= len(rows) < len(fl) // 10): bad.append("%s: %d event rows of %d" % (name, len(rows), len(fl) - 2))
        if float(rows[0].split(",")[0]) != 0: bad.append(name + ": first row is not t = 0")
for b in bad[:10]: print(b)
sys.exit(1 if bad else 0)
PYEOF
check "decimated rows are the full-rate rows at t = k/100" $PY "$WORK/dec.py" "$F" "$WORK/dec" rate
check "event rows are full-rate rows (t = 0 first, far fewer)" $PY "$WORK/dec.py" "$F" "$WORK/ev" events
cmp -s "$F/summary.json" "$WORK/dec/summary.json" && ok "summary unchanged by the output rate" || not_ok "summary unchanged by the output rate"
cmp -s "$F/summary.json" "$WORK/ev/summary.json" && ok "summary unchanged by rows at events" || not_ok "summary unchanged by rows at events"
cap=$(jnum capture_time "$F/summary.json")
grep -q "^$cap," "$WORK/ev/history.csv" && ok "the capture step ($cap s) is an event row" || not_ok "the capture step ($cap s) is an event row"

# mech beam sim --format h5: the CSV's columns bit for bit, one record per hinge, hyst loops on it as on the CSV
B=$FIX/mech/beam/paper-4.5.json
check "beam sim CSV" "$MECH" beam sim "$B" -o "$WORK/beam.csv" --hinge-records "$WORK/hinge"
check "beam sim --format h5" "$MECH" beam sim "$B" -o "$WORK/beam.h5" --format h5
cat >"$WORK/beam.py" <<'PYEOF'
import csv, struct, sys, h5py
w = sys.argv[1]
f = h5py.File(w + "/beam.h5", "r")
bad = 0
for path, name in (("/history", "beam.csv"), ("/records/hinge1", "hinge1.csv")):
    d = f[path][...]
    rows = list(csv.reader(open(w + "/" + name)))
    if list(d.dtype.names) != rows[0] or len(d) != len(rows) - 2: sys.exit(1)
    for i, r in enumerate(rows[2:]):
        for k, c in enumerate(rows[0]):
            bad += struct.pack("<d", float(r[k])) != struct.pack("<d", float(d[c][i]))
sys.exit(1 if bad or "peak_tip_deflection" not in f.attrs and "summary" not in f.attrs else 0)
PYEOF
check "beam: HDF5 = CSV bit for bit" $PY "$WORK/beam.py" "$WORK"
check "hyst loops hinge1.csv" "$HYST" loops "$WORK/hinge1.csv" --json "$WORK/bc.json" -q
check "hyst loops beam.h5:/records/hinge1" "$HYST" loops "$WORK/beam.h5:/records/hinge1" --json "$WORK/bh.json" -q
check "beam: hyst loops HDF5 report = CSV report" $PY "$WORK/cmp.py" "$WORK/bc.json" "$WORK/bh.json"
check_fails "beam --format h5 needs -o" "needs -o FILE.h5" "$MECH" beam sim "$B" --format h5
finish

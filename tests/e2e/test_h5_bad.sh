#!/bin/sh
# End-to-end tests of damaged and hostile HDF5 tables (issue 42's catalogue, fixtures/bad/README.md): each ends
# with one line naming FILE:DSET, exit 1 (never a signal), in bounded time and memory; long and hostile column
# names read as the CSV of the same table reads them; a truncated file says so; --families "" is a usage error.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
HYST=${HYST:-$TOP/bin/hyst}
FIX=${FIXTURES:-$TOP/fixtures}
B=$FIX/bad

# bad NAME PATTERN CMD...: exit 1 (not a signal; killed after 60 s: exit 137), one line of stderr matching PATTERN
bad() {
    n=$1; pat=$2; shift 2
    timeout -s KILL 60 "$@" >"$WORK/.out" 2>"$WORK/.err"
    rc=$?
    if [ $rc -ne 1 ]; then not_ok "$n (exit $rc)"; sed 's/^/    /' "$WORK/.err" | head -3; return; fi
    if [ "$(wc -l <"$WORK/.err")" -ne 1 ] || ! grep -Eq -- "$pat" "$WORK/.err"; then
        not_ok "$n (stderr did not match '$pat')"; sed 's/^/    /' "$WORK/.err" | head -3; return; fi
    ok "$n"
}
# timed CMD...: the command under /usr/bin/time: seconds and peak KB into $WORK/.tm
timed() { /usr/bin/time -f '%e %M' -o "$WORK/.tm0" "$@"; rc=$?; tail -n 1 "$WORK/.tm0" >"$WORK/.tm"; return $rc; }

# N13: rows x columns x 8 overflowed malloc's size (heap overflow, SIGSEGV): checked arithmetic, refused
bad "N13 2-D: 2^60 rows refused" "h5-rows-times-columns-overflow-2d.h5:/r: declares 1152921504606846976 rows of 16 bytes" \
    "$HYST" loops "$B/h5-rows-times-columns-overflow-2d.h5:/r"
bad "N13 compound: 2^60 rows refused (replay)" "overflow-compound.h5:/r: declares 1152921504606846976 rows" \
    "$HYST" replay "$FIX/models/pwl-constant.json" "$B/h5-rows-times-columns-overflow-compound.h5:/r"
bad "N13 compound: fit pwl" "declares 1152921504606846976 rows" \
    "$HYST" fit pwl "$B/h5-rows-times-columns-overflow-compound.h5:/r"

# N21: 1e8 rows declared, no data stored: refused before any allocation, with the numbers
timed timeout -s KILL 60 "$HYST" loops "$B/h5-declared-1e8-rows-2KB.h5:/records/a" 2>"$WORK/e21" >/dev/null
rc=$?
[ $rc -eq 1 ] && grep -q "declares 100000000 rows of 24 bytes (2400000000 bytes), but its data take 0 bytes of a 2456-byte file" "$WORK/e21" \
    && ok "N21: 1e8 rows in a 2.4 KB file refused with the numbers" || { not_ok "N21: refused with the numbers (exit $rc)"; cat "$WORK/e21"; }
read -r secs kb <"$WORK/.tm"
# the whole program (libhdf5 loaded) in ~13 MB; before: 4.7 GB and 10-19 s
awk -v s="$secs" -v k="$kb" 'BEGIN{exit !(s < 5 && k < 200000)}' && ok "N21: bounded ($secs s, $kb KB)" \
    || not_ok "N21: bounded (got $secs s, $kb KB; expected < 5 s, < 200 MB)"

# N21: a chunk that libhdf5 would allocate whole (4194304 rows x 24 bytes = 96 MiB, declared in a 1.4 KB file)
bad "N21: chunks over 64 MiB refused" "h5-huge-chunks.h5:/r: declares chunks of 4194304 rows of 24 bytes, expected at most 64 MiB a chunk" \
    "$HYST" loops "$B/h5-huge-chunks.h5:/r"

# N20: libhdf5 crashes (H5HG_read) / loops forever (H5C_protect) on the 'units' attribute of damaged logs: run in
# a child process, reported with what libhdf5 was doing; the hang is stopped after 10 s without progress
cd "$WORK" || exit 1
bad "N20: libhdf5's crash reported" "h5-libhdf5-segv-units-attribute.h5:/history: the HDF5 library crashed \(signal 11.*while reading the 'units' attribute" \
    "$HYST" loops "$B/h5-libhdf5-segv-units-attribute.h5:/history" --x 2 --y 3
ls "$WORK" | grep -q core && not_ok "N20: no core file left" || ok "N20: no core file left"
timed timeout -s KILL 60 "$HYST" loops "$B/h5-libhdf5-hang-units-attribute.h5:/records/axial" 2>"$WORK/e20" >/dev/null
rc=$?
read -r secs kb <"$WORK/.tm"
[ $rc -eq 1 ] && grep -q "the HDF5 library made no progress for 10 s while reading the 'units' attribute; stopped" "$WORK/e20" \
    && ok "N20: libhdf5's endless loop stopped" || { not_ok "N20: endless loop stopped (exit $rc)"; cat "$WORK/e20"; }
awk -v s="$secs" 'BEGIN{exit !(s >= 9.5 && s < 30)}' && ok "N20: stopped after the 10 s limit ($secs s)" \
    || not_ok "N20: stopped after the 10 s limit (got $secs s)"
cd "$TOP" || exit 1

# N19: a column name of 76 bytes (>= 64) was read as uninitialised memory: the same report as the CSV of the same
# table (row ranges: an HDF5 row r is line r + 1 of the CSV, below its header)
"$HYST" loops "$B/h5-long-column-name-uninitialised.h5:/r" | tail -n +2 |
    awk '{for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+-[0-9]+$/) { split($i, a, "-"); $i = (a[1] + 1) "-" (a[2] + 1) } $1 = $1; print}' >"$WORK/h5.txt"
"$HYST" loops "$B/h5-long-column-name-same-table.csv" | tail -n +2 | awk '{$1 = $1; print}' >"$WORK/csv.txt"
grep -q "total energy" "$WORK/csv.txt" && cmp -s "$WORK/h5.txt" "$WORK/csv.txt" && ok "N19: long column name: report = the CSV's" \
    || { not_ok "N19: long column name: report = the CSV's"; diff "$WORK/h5.txt" "$WORK/csv.txt" | head -5; }
MALLOC_PERTURB_=165 "$HYST" loops "$B/h5-long-column-name-uninitialised.h5:/r" >"$WORK/p.txt" 2>&1 \
    && "$HYST" loops "$B/h5-long-column-name-uninitialised.h5:/r" | cmp -s - "$WORK/p.txt" \
    && ok "N19: no uninitialised memory (MALLOC_PERTURB_ changes nothing)" || not_ok "N19: MALLOC_PERTURB_ changes the output"
"$HYST" loops "$B/h5-long-column-name-uninitialised.h5:/r" | head -n 1 >"$WORK/n1"
"$HYST" loops "$B/h5-long-column-name-same-table.csv" | head -n 1 | sed 's#same-table.csv#uninitialised.h5:/r#' | cmp -s - "$WORK/n1" \
    && ok "N19: the long name shown as the CSV path shows it" || not_ok "N19: the long name shown as the CSV path shows it"

# N26: names and units with escape sequences, newlines and CR: printable ('?'), as the CSV path shows them
"$HYST" loops "$B/h5-escape-names.h5:/r" --json "$WORK/esc.json" >"$WORK/esc.txt" 2>&1
if LC_ALL=C grep -q "$(printf '[\033\r\007]')" "$WORK/esc.txt" "$WORK/esc.json"; then not_ok "N26: no control byte in the output"
else ok "N26: no control byte in the output"; fi
head -n 1 "$WORK/esc.txt" | grep -qF 'q = q?[31mred (m?]0;title?), Q = Q?next line (N?)' \
    && ok "N26: names and units shown with '?'" || { not_ok "N26: names and units shown with '?'"; head -n 1 "$WORK/esc.txt"; }
check "N26: the column chosen by its name (the name as stored)" "$HYST" loops "$B/h5-escape-names.h5:/r" --y "$(printf 'Q\nnext line')" -q

# N27: a truncated file gets libhdf5's reason: the size against the size its superblock declares
bad "N27: truncated .h5" "h5-truncated.h5:/records/axial: cannot open the HDF5 file .*h5-truncated.h5: truncated, 20000 bytes of the 71643 its superblock declares" \
    "$HYST" loops "$B/h5-truncated.h5:/records/axial"

# N27: --families "" is a usage error (exit 2), not a failed fit
"$HYST" fit all "$FIX/synthetic/pwl_friction_fit.csv" -d "$WORK/f" --families "" >/dev/null 2>"$WORK/fe"
rc=$?
[ $rc -eq 2 ] && grep -q "families: expected a comma-separated subset" "$WORK/fe" && ok "N27: --families \"\" exits 2" \
    || not_ok "N27: --families \"\" exits 2 (got $rc)"
finish

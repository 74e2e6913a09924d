#!/bin/sh
# End-to-end test of input protection with an HDF5 table as input (issue 42, N14): every output option of every
# hyst command, given the file part of its input FILE.h5:/DATASET, refuses (exit != 0, one line naming the input)
# and leaves the log byte for byte as it was. Before the fix, 12 of 13 options replaced the log, exit 0.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
HYST=${HYST:-$TOP/bin/hyst}
FIX=${FIXTURES:-$TOP/fixtures}
LOG=$FIX/h5/pwl-friction.h5   # fixtures/synthetic/pwl_friction_fit.csv as /records/brake (fixtures/h5/README.md)
M=$FIX/models/pwl-friction.json

# one case per line: name | arguments | the log's file name (log.h5 when empty; plot -o takes .png/.svg/.pdf
# names only, and an HDF5 file may have any name), with @IN the input table, @OUT the log itself as the output.
# Each command would otherwise succeed: its last line of stderr is the refusal (warnings may come before).
while IFS='|' read -r name args file; do
    [ -z "$name" ] && continue
    L=$WORK/${file:-log.h5}
    cp "$LOG" "$L"
    set -- $(echo "$args" | sed "s#@IN#$L:/records/brake#g; s#@OUT#$L#g; s#@M#$M#g; s#@W#$WORK#g")
    if "$HYST" "$@" >"$WORK/.out" 2>"$WORK/.err"; then
        not_ok "$name: exited 0"
    elif ! cmp -s "$LOG" "$L"; then
        not_ok "$name: the input log was changed"
    elif [ "$(grep -vc 'warning:' "$WORK/.err")" -ne 1 ] || ! tail -n 1 "$WORK/.err" | grep -Eq "input|data file"; then
        not_ok "$name: not a one-line message about the input"; sed 's/^/    /' "$WORK/.err" | head -3
    else
        ok "$name refuses to replace the log it reads"
    fi
    rm -f "$L"
done <<'CASES'
loops --json|loops @IN --json @OUT
loops --cycles-csv|loops @IN --cycles-csv @OUT
loops --branches|loops @IN --branches @OUT
loops --backbone|loops @IN --backbone @OUT
sim --drive -o|sim @M --drive @IN -o @OUT
fit pwl -o|fit pwl @IN -o @OUT
fit pwl --report|fit pwl @IN -o @W/m.json --report @OUT
fit kin -o|fit kin @IN -o @OUT
fit kin --report|fit kin @IN -o @W/m.json --report @OUT
fit bw -o|fit bw @IN -o @OUT
fit bw --report|fit bw @IN -o @W/m.json --report @OUT
fit iwan -o|fit iwan @IN -o @OUT
fit iwan --report|fit iwan @IN -o @W/m.json --report @OUT
fit all --json|fit all @IN -d @W/fits --json @OUT
fit all --markdown|fit all @IN -d @W/fits --markdown @OUT
fit all --plot|fit all @IN -d @W/fits --plot @OUT
replay --json|replay @M @IN --json @OUT
replay -o|replay @M @IN -o @OUT
replay --markdown|replay @M @IN --markdown @OUT
plot -o|plot loops @IN -o @OUT|log.svg
plot --script|plot loops @IN --script @OUT
CASES

# the same file named another way (a symbolic link) is the same file
cp "$LOG" "$WORK/log.h5"; ln -sf "$WORK/log.h5" "$WORK/link.h5"
check_fails "a link to the log is the log" "input" "$HYST" loops "$WORK/log.h5:/records/brake" --json "$WORK/link.h5"
cmp -s "$LOG" "$WORK/log.h5" && ok "log unchanged through the link" || not_ok "log unchanged through the link"
# another file beside it is written as before
check "an output beside the log is written" "$HYST" loops "$WORK/log.h5:/records/brake" --json "$WORK/r.json" -q
[ -s "$WORK/r.json" ] && ok "report written" || not_ok "report written"
finish

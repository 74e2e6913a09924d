#!/bin/sh
# Issue 43 D1: every shipped dock scenario of the capture phase (fixtures/mech/dock/*.json but the 400 s process
# runs, which test_sweep_onerun_process.sh takes) through a one-point sweep gives, metric by metric and bit for bit,
# the summary of `mech dock` on it: one run function (mech_dock_run) steps both.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
. "$TOP/tests/e2e/sweep_onerun.sh"
MECH=${MECH:-$TOP/bin/mech}
D=${FIXTURES:-$TOP/fixtures}/mech/dock
n=0
for f in "$D"/*.json; do
    case $(basename "$f") in *-400-*) continue ;; esac
    onerun_compare "$f"; n=$((n + 1))
done
[ "$n" -ge 28 ] && ok "$n capture-phase scenarios compared" || not_ok "expected >= 28 capture-phase scenarios, found $n"
finish

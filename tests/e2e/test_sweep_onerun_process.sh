#!/bin/sh
# Issue 43 D1, the slow half: the shipped whole-process scenarios (fixtures/mech/dock/*-400-*.json, to 400 s or the
# end of the sequencer; 2-4 s each) through a one-point sweep give `mech dock`'s summary bit for bit.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
. "$TOP/tests/e2e/sweep_onerun.sh"
MECH=${MECH:-$TOP/bin/mech}
D=${FIXTURES:-$TOP/fixtures}/mech/dock
n=0
for f in "$D"/*-400-*.json; do
    onerun_compare "$f"; n=$((n + 1))
done
[ "$n" -ge 8 ] && ok "$n whole-process scenarios compared" || not_ok "expected >= 8 whole-process scenarios, found $n"
finish

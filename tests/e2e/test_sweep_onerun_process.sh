#!/bin/sh
# Issue 43 D1, the slow half: the shipped whole-process scenarios (fixtures/mech/dock/*-400-*.json, to 400 s or the
# end of the sequencer; 2-4 s each) through a one-point sweep give `mech dock`'s summary bit for bit.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
. "$TOP/tests/e2e/sweep_onerun.sh"
MECH=${MECH:-$TOP/bin/mech}
D=${FIXTURES:-$TOP/fixtures}/mech/dock
n=0; want=8; set -- "$D"/*-400-*.json
case "${BUILD:-}" in
*san*)   # ASan + UBSan make each 400 s run ~6x slower (13 min for the eight): the sanitizers look for memory and UB
         # errors, which take the same code paths in every process scenario, so they run one of B's and the pads' C;
         # the plain and Clang builds compare all eight (.ci/run)
    set -- "$D/s1-400-B.json" "$D/s3x-400-C.json"; want=2 ;;
esac
for f in "$@"; do
    onerun_compare "$f"; n=$((n + 1))
done
[ "$n" -ge "$want" ] && ok "$n whole-process scenarios compared" || not_ok "expected >= $want whole-process scenarios, found $n"
finish

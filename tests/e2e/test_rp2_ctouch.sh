#!/bin/sh
# Variant C's limiter against the two cones (scripts/rp2_ctouch.py; docs/rp2-parameters.md §11.3): the tilt-plane
# closed form of the first touch against a brute-force 3-D search, the stroke rule's upright depth of dock_params.c,
# the pads and the replay of poses (tests/e2e/rp2_ctouch_check.py, ~5 s; no runs: the 400 s sweeps of §11 are
# scripts/rp2-study's, not the tests').
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
python3 "$TOP/tests/e2e/rp2_ctouch_check.py" "$TOP" >"$WORK/c.out" 2>&1
rc=$?
sed 's/^\(not \)\{0,1\}ok /&- /' "$WORK/c.out"
grep -q '^not ok' "$WORK/c.out" && _fail=1
[ "$rc" = 0 ] || not_ok "rp2_ctouch_check.py exited $rc"
grep -q '^ok' "$WORK/c.out" || not_ok "the checks ran"
finish

#!/bin/sh
# The hyst program itself: command dispatch, help, version and exit statuses (tools/hyst/main.c).
. "$TOP/tests/e2e/lib.sh"

check "hyst --help exits 0" "$HYST" --help
expect_out() { n=$1; pat=$2; shift 2; if "$@" 2>&1 | grep -Eq -- "$pat"; then ok "$n"; else not_ok "$n"; fi; }
expect_out "hyst --help lists every command" "fit pwl.*identify" "$HYST" --help
for c in loops sim replay plot; do
    "$HYST" help "$c" > "$WORK/a" 2>&1; ra=$?
    "$HYST" "$c" --help > "$WORK/b" 2>&1; rb=$?
    if [ $ra -eq 0 ] && [ $rb -eq 0 ] && cmp -s "$WORK/a" "$WORK/b" && grep -qi usage "$WORK/a"; then
        ok "hyst help $c is hyst $c --help"; else not_ok "hyst help $c is hyst $c --help"; fi
done
for c in pwl kin; do
    "$HYST" help fit "$c" > "$WORK/a" 2>&1; ra=$?
    "$HYST" fit "$c" --help > "$WORK/b" 2>&1; rb=$?
    if [ $ra -eq 0 ] && [ $rb -eq 0 ] && cmp -s "$WORK/a" "$WORK/b"; then
        ok "hyst help fit $c is hyst fit $c --help"; else not_ok "hyst help fit $c is hyst fit $c --help"; fi
done
expect_out "hyst version" "^hyst [0-9]+\.[0-9]+\.[0-9]+$" "$HYST" version
"$HYST" > /dev/null 2>&1; check_num "no command: exit 2" $? 2 0
"$HYST" bogus > /dev/null 2>"$WORK/e"; rc=$?
if [ $rc -eq 2 ] && grep -q "unknown command 'bogus'" "$WORK/e" && [ "$(wc -l < "$WORK/e")" -eq 1 ]; then
    ok "unknown command: exit 2, one line"; else not_ok "unknown command: exit 2, one line"; fi
"$HYST" fit > /dev/null 2>"$WORK/e"; rc=$?
if [ $rc -eq 2 ] && grep -q "^usage: hyst fit pwl|kin|bw|bwbn|iwan|clough|all" "$WORK/e" && grep -q "^  fit kin " "$WORK/e"; then
    ok "hyst fit alone names its subcommands"; else not_ok "hyst fit alone names its subcommands"; fi
# a group word takes the words of mech beam's and mech pendulum's (tool_sub): --help, an unknown word named
"$HYST" fit --help > "$WORK/a" 2>"$WORK/e"; rc=$?
if [ $rc -eq 0 ] && [ ! -s "$WORK/e" ] && grep -q "^usage: hyst fit pwl|" "$WORK/a" && "$HYST" help fit | cmp -s - "$WORK/a"; then
    ok "hyst fit --help and hyst help fit: the group's usage"; else not_ok "hyst fit --help and hyst help fit: the group's usage"; fi
"$HYST" fit bouc x.csv > /dev/null 2>"$WORK/e"; rc=$?
if [ $rc -eq 2 ] && [ "$(cat "$WORK/e")" = "hyst fit: unknown command 'bouc' (expected pwl, kin, bw, bwbn, iwan, clough or all) (see 'hyst fit --help')" ]; then
    ok "unknown fit family: exit 2, one line naming the families"; else not_ok "unknown fit family: exit 2 ($(cat "$WORK/e"))"; fi
"$HYST" help nothing > /dev/null 2>&1; check_num "help for an unknown command: exit 2" $? 2 0
# The loop-analysis options are one group shared by every command that counts cycles (tools/hyst/cli_loops.c).
M=$FIXTURES/models/pwl-constant.json
D=$FIXTURES/synthetic/pwl_double_loop_fit.csv
for c in "loops" "fit pwl" "fit kin" "replay $M" "plot loops $M"; do
    # shellcheck disable=SC2086
    "$HYST" $c "$D" --threshold -1 -o "$WORK/x.png" > /dev/null 2>"$WORK/e"; rc=$?
    if [ $rc -eq 2 ] && grep -q -- "--threshold: expected a positive number" "$WORK/e"; then
        ok "hyst $c: --threshold -1 is a usage error"; else not_ok "hyst $c: --threshold -1 is a usage error (exit $rc)"; fi
    # shellcheck disable=SC2086
    "$HYST" $c "$D" --center abc -o "$WORK/x.png" > /dev/null 2>"$WORK/e"; rc=$?
    if [ $rc -eq 2 ] && grep -q -- "--center: 'abc' is not a finite number" "$WORK/e"; then
        ok "hyst $c: --center abc is a usage error"; else not_ok "hyst $c: --center abc is a usage error (exit $rc)"; fi
    # shellcheck disable=SC2086
    "$HYST" $c --help 2>/dev/null | grep -q -- "--center C" && ok "hyst $c --help lists --center" || not_ok "hyst $c --help lists --center"
done
# A record about an offset: q = 5 + 2 sin t, Q = 3 (q - 5) + cos t over 4 periods, starting on the centre. With
# --center 5 the cycles run from one upward crossing of 5 to the next: 4 cycles of area pi A c = 2 pi (1000 samples
# a period: trapezoid error ~1e-5), in loops and in replay alike.
awk 'BEGIN { print "q,Q"; n = 4000; for (i = 0; i <= n; i++) { t = 8 * 3.14159265358979 * i / n;
     printf "%.17g,%.17g\n", 5 + 2 * sin(t), 6 * sin(t) + cos(t) } }' > "$WORK/offset.csv"
"$HYST" loops "$WORK/offset.csv" --center 5 > "$WORK/l.txt" 2>&1
cyc=$(sed -n 's/.* \([0-9]*\) cycles$/\1/p' "$WORK/l.txt")
check_num "loops --center 5: 4 cycles" "${cyc:-0}" 4 0
e1=$(awk '$1 == "1" && NF >= 10 { print $7; exit }' "$WORK/l.txt")
check_num "loops --center 5: cycle energy 2 pi" "${e1:-0}" 6.283185307 1e-4
amp=$(awk '$1 == "2" && NF >= 10 { print $3 "," $4; exit }' "$WORK/l.txt")
test "$amp" = "2,2" && ok "loops --center 5: amplitudes measured from the centre" || not_ok "amplitudes from the centre ($amp)"
"$HYST" replay "$M" "$WORK/offset.csv" --center 5 > "$WORK/r.txt" 2>&1
grep -q "4 cycles" "$WORK/r.txt" && ok "replay --center 5: the same 4 cycles" || not_ok "replay --center 5: the same 4 cycles"
finish

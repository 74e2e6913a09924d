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
if [ $rc -eq 2 ] && grep -q "'fit pwl' 'fit kin'" "$WORK/e"; then ok "hyst fit alone names its subcommands"; else not_ok "hyst fit alone names its subcommands"; fi
"$HYST" fit bouc x.csv > /dev/null 2>&1; check_num "unknown fit family: exit 2" $? 2 0
"$HYST" help nothing > /dev/null 2>&1; check_num "help for an unknown command: exit 2" $? 2 0
finish

# End-to-end refusals of records no model can be identified from or scored on (issue 46 item 5,
# docs/fit-families.md "Refusals"): a constant force, a monotonic record, a single reversal and compressed input, for
# every fit family, fit all and replay: one line naming the file and the reason, exit 1, no model written.
. "$TOP/tests/e2e/lib.sh"

printf 'q,Q\n0,5\n1,5\n2,5\n1,5\n0,5\n-1,5\n0,5\n1,5\n' >"$WORK/const.csv"
printf 'q,Q\n0,0\n1,1\n2,2\n3,3\n4,4\n' >"$WORK/mono.csv"
printf 'q,Q\n0,0\n1,1\n2,2\n3,3\n2,2.5\n1,1\n0,0\n-1,-1\n' >"$WORK/single.csv"
cat >"$WORK/bw.json" <<'JEOF'
{"format": "hyst-model", "version": 1, "model": "bw", "k": 200, "alpha": 0.1, "beta": 0.6, "gamma": 0.4, "n": 2}
JEOF
"$HYST" sim "$WORK/bw.json" --protocol sine --amplitudes 1,2 --points 48 -o "$WORK/good.csv"
gzip -c "$WORK/good.csv" >"$WORK/good.csv.gz"

# one_line CMD...: the command failed with exit 1 and exactly one line on stderr
one_line() {
    "$@" >"$WORK/.o" 2>"$WORK/.e"
    local rc=$?
    [ $rc = 1 ] && [ "$(wc -l <"$WORK/.e")" = 1 ]
}

for fam in pwl kin bw bwbn iwan; do
    check_fails "fit $fam: constant force" "const.csv: the force is constant \(5 in all 8 rows\)" \
        "$HYST" fit $fam "$WORK/const.csv" -o "$WORK/m.json"
    check_fails "fit $fam: monotonic record" "mono.csv: the displacement is monotonic" \
        "$HYST" fit $fam "$WORK/mono.csv" -o "$WORK/m.json"
    check_fails "fit $fam: single reversal" "single.csv: the record has a single reversal \(2 half-cycles\)" \
        "$HYST" fit $fam "$WORK/single.csv" -o "$WORK/m.json"
    check_fails "fit $fam: gzip input" "good.csv.gz:1:1: found a gzip-compressed file.*unzip it first" \
        "$HYST" fit $fam "$WORK/good.csv.gz" -o "$WORK/m.json"
    one_line "$HYST" fit $fam "$WORK/const.csv" -o "$WORK/m.json" && ok "fit $fam: one line, exit 1" \
        || not_ok "fit $fam: one line, exit 1 ($(cat "$WORK/.e"))"
done
[ ! -e "$WORK/m.json" ] && ok "no model written by a refused fit" || not_ok "no model written by a refused fit"
for f in const mono single; do
    check_fails "fit all: $f refused instead of naming a best" "$f.csv: the (force is constant|displacement is monotonic|record has a single reversal)" \
        "$HYST" fit all "$WORK/$f.csv" -d "$WORK/all-$f"
    [ ! -e "$WORK/all-$f/fitted-pwl.json" ] && ok "fit all: $f: no model written" || not_ok "fit all: $f: no model written"
done
check_fails "replay: constant force (was an energy ratio of -8.5e16)" "const.csv: the force is constant" \
    "$HYST" replay "$WORK/bw.json" "$WORK/const.csv"
check_fails "replay: gzip input" "found a gzip-compressed file" "$HYST" replay "$WORK/bw.json" "$WORK/good.csv.gz"
check_fails "loops: gzip input" "found a gzip-compressed file" "$HYST" loops "$WORK/good.csv.gz"
# a replay on a record without loops stays possible (it scores a model; it needs no closed loop)
check "replay: a monotonic record is scored" "$HYST" replay "$WORK/bw.json" "$WORK/mono.csv"
finish

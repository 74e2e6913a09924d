#!/bin/sh
# Bad input at the edges (issue 13): huge protocols, values near the double limit, and messages that must say
# precisely what is wrong (a directory, an index out of range, JSON nested too deep, a scale that overflows).
# Each answer is an error with exit 1 (data) or 2 (usage) and a one-line message; never a NaN with success.
. "$TOP/tests/e2e/lib.sh"
M=$FIXTURES/models/pwl-constant.json
D=$FIXTURES/synthetic/pwl_double_loop_fit.csv

# expect NAME STATUS PATTERN CMD...: exit status STATUS, stderr one line matching PATTERN (grep -E)
expect() {
    n=$1; want=$2; pat=$3; shift 3
    "$@" >"$WORK/.out" 2>"$WORK/.err"; rc=$?
    if [ "$rc" -ne "$want" ]; then not_ok "$n (exit $rc, expected $want)"; sed 's/^/    /' "$WORK/.err" | head -3; return; fi
    if [ "$(wc -l <"$WORK/.err")" -ne 1 ]; then not_ok "$n (message not one line)"; sed 's/^/    /' "$WORK/.err" | head -3; return; fi
    if grep -Eq -- "$pat" "$WORK/.err"; then ok "$n"; else not_ok "$n (stderr did not match '$pat')"; sed 's/^/    /' "$WORK/.err" | head -3; fi
}

# ---- huge protocols: counted in closed form, refused with the number asked for (timeout: a guard against the
# ---- old sample-by-sample count, which took half an hour) --------------------------------------------------------
expect "sim: a billion cycles refused at once, with the count and the limit" 2 \
    "asks for 200000000001 samples, more than this machine's memory .* holds: at most [0-9]+ samples" \
    timeout 60 "$HYST" sim "$M" --protocol sine --amplitudes 1 --cycles 1000000000 --points 200 -o "$WORK/big.csv"
expect "sim: past 2^40 samples refused with the limit" 2 \
    "asks for 20000000000001 samples, more than the limit of 1099511627776" \
    timeout 60 "$HYST" sim "$M" --protocol triangle --amplitudes 1,2 --cycles 1000000000 --points 10000 -o "$WORK/big.csv"
if [ ! -e "$WORK/big.csv" ]; then ok "sim: nothing written"; else not_ok "sim: nothing written"; fi

# ---- values near the double limit: an error about the data (line, column, the range that works), in every
# ---- command that reads a record; inside the range, results without NaN or infinity -----------------------------
K=$FIXTURES/synthetic/kin_paper_fit.csv
for e in 1.7e308 1e200; do
    awk -v a="$e" 'BEGIN { print "q,Q"; for (i = 0; i < 400; i++) { s = sin(6.283185307179586 * i / 100);
        c = cos(6.283185307179586 * i / 100); printf "%.17g,%.17g\n", s * a / 2, (s + 0.3 * c) * a / 2 } }' >"$WORK/big.csv"
    for c in "loops" "fit pwl -o $WORK/m.json" "fit kin -o $WORK/m.json" "replay $M" "plot loops $M -o $WORK/p.png"; do
        n=$(echo "$c" | sed "s|$WORK/||g; s|$FIXTURES/||g")
        # shellcheck disable=SC2086
        expect "$n on data near $e: line, column, range" 1 \
            "big.csv:[0-9]+:[12]: found -?[0-9.]+e\+[0-9]+, expected a magnitude of at most 1e\+60 for the (displacement|force)" \
            "$HYST" $c "$WORK/big.csv"
    done
done
# inside the range (1e55 times a real-sized record): every command succeeds and writes no NaN or infinity
nonfinite() { grep -Eiwq 'nan|-nan|inf|-inf|infinity' "$@"; }
for c in "loops --json $WORK/o.json" "fit pwl -o $WORK/o.json --report $WORK/r.json" \
    "fit kin -o $WORK/o.json --report $WORK/r.json --max-k 3 --max-m 2" "replay $M --json $WORK/o.json -o $WORK/r.json" \
    "plot loops $M --script $WORK/o.json -o $WORK/p.svg"; do
    rm -f "$WORK/o.json" "$WORK/r.json"
    n=$(echo "$c" | sed "s|$WORK/||g; s|$FIXTURES/||g")
    # shellcheck disable=SC2086
    "$HYST" $c --x-scale 1e55 --y-scale 1e55 "$D" >"$WORK/.out" 2>"$WORK/.err"; rc=$?
    if [ "$rc" -eq 0 ] && ! nonfinite "$WORK/.out" "$WORK/o.json" $( [ -e "$WORK/r.json" ] && echo "$WORK/r.json"); then
        ok "$n at 1e55 x the record: success, all finite"
    else not_ok "$n at 1e55 x the record: success, all finite (exit $rc)"; head -3 "$WORK/.err"; fi
done

# a valid model whose forces are 1e300 times too large for the record: an error, not NaN metrics with success
cat >"$WORK/huge.json" <<'JSON'
{"format": "hyst-model", "version": 1, "model": "pwl", "kind": "constant", "units": {"q": "mm", "Q": "N"},
 "positive": {"forward": [[0.5, 0], [1, 1e300], [3, 5e300], [6, 8e300], [8, 12e300]],
              "backward": [[0.5, 0], [1, 1e300], [4, 2.5e300], [6, 4e300], [8, 12e300]], "k_beyond": 4e300},
 "negative": {"forward": [[-0.25, 0], [-1, -1.5e300], [-2, -3.5e300], [-5, -5e300], [-6, -8e300]],
              "backward": [[-0.25, 0], [-1, -1.5e300], [-3, -1.75e300], [-5, -2e300], [-6, -8e300]], "k_beyond": 6e300}}
JSON
for c in replay "plot loops"; do
    # shellcheck disable=SC2086
    expect "$c: a model with forces beyond 1e60 on this record is an error" 1 \
        "pwl_double_loop_fit.csv:[0-9]+: model .*huge.json predicts Q = [0-9.e+]+ at q = [-0-9.e+]+, expected a magnitude of at most 1e\+60" \
        "$HYST" $c "$WORK/huge.json" "$D" -o "$WORK/h.svg"
done

# ---- precise messages --------------------------------------------------------------------------------------
mkdir "$WORK/dir"
expect "a directory as a model file is called a directory" 1 "dir: is a directory, expected a model file" \
    "$HYST" replay "$WORK/dir" "$D"
expect "a directory as --params is called a directory" 1 "dir: is a directory, expected a parameter file" \
    "$MECH" pendulum harmonic --params "$WORK/dir"
expect "a directory as data is called a directory" 1 "dir: cannot read: Is a directory" "$HYST" loops "$WORK/dir"
expect "--x 99999999999999999999999 echoed as given, out of range" 1 \
    "expected a column 99999999999999999999999 for the displacement \(x\) \(out of range: columns 1 to 4\)" \
    "$HYST" loops "$D" --x 99999999999999999999999
awk 'BEGIN { printf "{\"format\": \"hyst-model\", \"a\": "; for (i = 0; i < 1000; i++) printf "[";
    for (i = 0; i < 1000; i++) printf "]"; print "}" }' >"$WORK/deep.json"
expect "JSON nested deeper than 1000 is called that" 1 "deep.json:1:1030: JSON nested deeper than 1000 levels" \
    "$HYST" replay "$WORK/deep.json" "$D"
sed 's/hyst-model/mech-pendulum/; s/"a"/"notes"/' "$WORK/deep.json" >"$WORK/deepp.json"
expect "pendulum JSON nested deeper than 1000 is called that" 1 "deepp.json:1:[0-9]+: JSON nested deeper than 1000 levels" \
    "$MECH" pendulum harmonic --params "$WORK/deepp.json"
expect "--x-scale 1e308: file, line, column and the scale" 1 \
    "pwl_double_loop_fit.csv:3:2: found 0.025 x --x-scale 1e\+308 = 2.5e\+306, expected a magnitude of at most 1e\+60 for the displacement \(x\) column .q." \
    "$HYST" loops "$D" --x-scale 1e308

finish

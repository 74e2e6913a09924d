#!/bin/sh
# One command-line layer for both programs (tools/common/tool_cli.h, docs/limits-and-outputs.md "One command-line
# layer"; issue 42, item 4): the same classes of bad input run against every command of `hyst` and `mech`, each
# answered the same way:
# - a usage mistake: exit 2, nothing on stdout, one line on stderr "PROGRAM COMMAND: MESSAGE (see 'PROGRAM COMMAND
#   --help')";
# - --help: exit 0, the usage on stdout, nothing on stderr; into a full disk: exit 1, one line "PROGRAM COMMAND:
#   standard output: REASON" (REASON "write error" when stdio wrote the text in pieces and the failed piece's errno
#   is gone by the end);
# - an output folder where a file is: exit 1, one line "PROGRAM COMMAND: PATH: not a folder", the file kept;
# - an output naming an input: exit 1, "PROGRAM COMMAND: PATH: refusing to overwrite an input file", the input kept.
. "$TOP/tests/e2e/lib.sh"
FIX=$FIXTURES
D=$FIX/synthetic/pwl_double_loop_fit.csv
M=$FIX/models/pwl-constant.json
F=$FIX/mech/friction/symmetric-guide.json
C=$FIX/mech/beam/baseline.json
L=$FIX/mech/beam/paper-4.5.json   # with the MFC pair of mech beam lqr
S=$FIX/mech/dock/s1-A.json
P=$FIX/mech/sweep/s3-grid-A.json

# The commands: program | command words | a numeric option | operands | options that make a complete command line.
# The words are only parsed here (every mistake below is found before a file is read).
cat >"$WORK/commands" <<EOF
hyst|loops|--threshold|$D|
hyst|sim|--digits|$M|--protocol sine --amplitudes 1
hyst|fit pwl|--tol|$D|
hyst|fit kin|--k|$D|
hyst|fit bw|--starts|$D|
hyst|fit bwbn|--max-iter|$D|
hyst|fit iwan|--elements|$D|
hyst|fit clough|--starts|$D|
hyst|fit all|--energy-tol|$D|-d $WORK/fa
hyst|replay|--center|$M $D|
hyst|plot|--center|loops $M $D|
mech|pendulum harmonic|--amplitude||
mech|pendulum sweep|--f-min||
mech|pendulum decay|--angle||
mech|friction|--duration|$F|
mech|beam freq|--dt|$C|
mech|beam sim|--dt|$C|
mech|beam lqr|--F0|$C|
mech|dock|--step|$S|
mech|sweep|--jobs|$P|
mech|view|--rows|$WORK/run|
mech|beam shapes||$C|
mech|pendulum run||$FIX/mech/pendulum-two-decay.json|
mech|compare|--dt|$WORK/run $FIX/mech/calib/s1-stand-B-meas.csv|--channels stroke
mech|calibrate||$FIX/mech/calib/beam-shaker.cal.json|
EOF

# usage_error NAME PROGRAM "COMMAND" PATTERN ARGS...: exit 2, nothing on stdout, exactly one line on stderr, which is
# "PROGRAM COMMAND: " + a message matching PATTERN (grep -E) + " (see 'PROGRAM COMMAND --help')"
usage_error() {
    n=$1; prog=$2; cmd=$3; pat=$4; shift 4
    # shellcheck disable=SC2086
    "$BIN/$prog" $cmd "$@" </dev/null >"$WORK/o" 2>"$WORK/e"; rc=$?
    lines=$(wc -l <"$WORK/e")
    if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$WORK/o" ] &&
        grep -Eq -- "^$prog $cmd: ($pat) \(see '$prog $cmd --help'\)\$" "$WORK/e"; then
        ok "$prog $cmd: $n"
    else
        not_ok "$prog $cmd: $n (exit $rc, $lines lines: $(head -c 300 "$WORK/e"))"
    fi
}

while IFS='|' read -r prog cmd num operands opts; do
    ops="$operands $opts"
    # shellcheck disable=SC2086
    usage_error "unknown option" "$prog" "$cmd" "unknown option '--bogus'" $ops --bogus
    # shellcheck disable=SC2086
    usage_error "unknown short option" "$prog" "$cmd" "unknown option '-Z'" $ops -Z
    if [ -n "$num" ]; then   # (no numeric option: mech beam shapes, pendulum run, calibrate)
    # shellcheck disable=SC2086
    usage_error "option without its value" "$prog" "$cmd" "option '$num' needs a value" $ops "$num"
    # shellcheck disable=SC2086
    usage_error "a number that is not a number" "$prog" "$cmd" \
        "$num: 'abc' is not (a finite number|an integer (>= -?[0-9]+|from -?[0-9]+ to [0-9]+))" $ops "$num" abc
    # shellcheck disable=SC2086
    usage_error "a number with trailing text" "$prog" "$cmd" \
        "$num: '3x' is not (a finite number|an integer (>= -?[0-9]+|from -?[0-9]+ to [0-9]+))" $ops "$num" 3x
    fi
    # shellcheck disable=SC2086
    [ -n "$operands" ] && usage_error "no operand" "$prog" "$cmd" "missing [A-Za-z].*" $opts
    case "$cmd" in
    replay|plot) ;;   # any number of models: no operand is one too many
    *)  # shellcheck disable=SC2086
        usage_error "one operand too many" "$prog" "$cmd" "unexpected argument 'extra.json'" $ops extra.json ;;
    esac
    # --help: exit 0, the usage on stdout (its first line names the program and the command), nothing on stderr
    # shellcheck disable=SC2086
    "$BIN/$prog" $cmd --help </dev/null >"$WORK/o" 2>"$WORK/e"; rc=$?
    word=${cmd%% *}
    if [ "$rc" -eq 0 ] && [ ! -s "$WORK/e" ] && head -n 1 "$WORK/o" | grep -q "^usage: $prog $word"; then
        ok "$prog $cmd --help"; else not_ok "$prog $cmd --help (exit $rc)"; fi
    # a report that cannot be written (a full disk) is a failure: exit 1, one line naming standard output
    if [ -w /dev/full ]; then
        # shellcheck disable=SC2086
        "$BIN/$prog" $cmd --help </dev/null >/dev/full 2>"$WORK/e"; rc=$?
        if [ "$rc" -eq 1 ] && [ "$(wc -l <"$WORK/e")" -eq 1 ] &&
            grep -Eq "^$prog $word( [a-z]+)?: standard output: (No space left on device|write error)\$" "$WORK/e"; then
            ok "$prog $cmd --help > /dev/full"; else not_ok "$prog $cmd --help > /dev/full (exit $rc: $(head -c 200 "$WORK/e"))"; fi
    fi
done <"$WORK/commands"

# The same hint and exit status for a mistake found after the options are read (a rule of one command)
usage_error "a rule of the command" hyst "fit pwl" "give --segments or --tol, not both" "$D" --segments 4 --tol 1
usage_error "a rule of the command" mech "friction" "--mu-steps: '0' is not an integer >= 1" "$F" --mu-steps 0

# Two outputs of one run: never one file, never both standard output
usage_error "two outputs, one file" hyst "fit pwl" "-o and --report name the same file '.*same.json'" "$D" \
    -o "$WORK/same.json" --report "$WORK/same.json"
usage_error "two outputs, one file" mech "beam sim" "-o and --summary name the same file '.*same.csv'" "$C" \
    -o "$WORK/same.csv" --summary "$WORK/same.csv"
usage_error "two outputs on standard output" hyst "loops" \
    "--json and --backbone both write to standard output \('-'\)" "$D" --json - --backbone -
usage_error "two outputs on standard output" hyst "replay" \
    "--json and --markdown both write to standard output \('-'\)" "$M" "$D" --json - --markdown -

# An output folder where a file is: the commands that write a folder of files refuse it with one line, exit 1
echo "not a folder" >"$WORK/file"
for c in "hyst|fit all|$D -d" "mech|dock|$S --duration 0.01 --no-plots --out" "mech|sweep|$P --no-plots --out"; do
    prog=${c%%|*}; rest=${c#*|}; cmd=${rest%%|*}; line=${rest#*|}
    # shellcheck disable=SC2086
    "$BIN/$prog" $cmd $line "$WORK/file" </dev/null >/dev/null 2>"$WORK/e"; rc=$?
    if [ "$rc" -eq 1 ] && [ "$(wc -l <"$WORK/e")" -eq 1 ] && grep -q "^$prog $cmd: $WORK/file: not a folder\$" "$WORK/e" &&
        [ "$(cat "$WORK/file")" = "not a folder" ]; then
        ok "$prog $cmd: an output folder where a file is"
    else
        not_ok "$prog $cmd: an output folder where a file is (exit $rc: $(head -c 300 "$WORK/e"))"
    fi
done

# An output naming an input: program | command words | the input's file name | the command line, IN the input
# (a copy in $WORK/od/, checked unchanged after the refusal). mech sweep writes only into its --out folder, whose
# files are named by the program: its plan in that folder is tested in test_sweep.sh.
mkdir -p "$WORK/od"
sed 's#"../models/paper-damper-reduced.json"#"'"$FIX"'/models/paper-damper-reduced.json"#' \
    "$FIX/mech/pendulum-one.json" >"$WORK/params.json"
cat >"$WORK/outputs" <<EOF
hyst|loops|in.csv|IN --json IN
hyst|sim|in.json|IN --protocol sine --amplitudes 1 -o IN
hyst|fit pwl|in.csv|IN -o IN
hyst|fit kin|in.csv|IN --report IN
hyst|fit bw|in.csv|IN -o IN
hyst|fit bwbn|in.csv|IN --report IN
hyst|fit iwan|in.csv|IN -o IN
hyst|fit clough|in.csv|IN --report IN
hyst|fit all|in.csv|IN -d $WORK/fa --json IN
hyst|replay|in.csv|$M IN -o IN
hyst|plot|in.json|loops IN $D --script IN
mech|pendulum harmonic|in.json|--params IN -o IN
mech|pendulum sweep|in.json|--params IN -o IN
mech|pendulum decay|in.json|--params IN -o IN
mech|friction|in.json|IN -o IN
mech|beam freq|in.json|IN -o IN
mech|beam sim|in.json|IN -o IN
mech|beam lqr|in.json|IN -o IN
mech|dock|summary.json|IN --out $WORK/od --duration 0.01 --no-plots
mech|view|history.csv|$WORK/run -o IN
EOF
# a run folder for mech view, from a short dock run
"$BIN/mech" dock "$S" --out "$WORK/run" --duration 0.01 --no-plots >/dev/null 2>&1 ||
    not_ok "a short dock run for mech view's folder"
cp -r "$FIX/mech/dock/models" "$WORK/od/models"
while IFS='|' read -r prog cmd name line; do
    case "$name" in
    summary.json) cp "$S" "$WORK/od/$name" ;;
    history.csv) ;;
    *) case "$cmd" in
       pendulum*) src=$WORK/params.json ;;
       friction) src=$F ;;
       "beam lqr") src=$L ;;
       beam*) src=$C ;;
       sim|plot) src=$M ;;
       *) src=$D ;;
       esac
       cp "$src" "$WORK/od/$name" ;;
    esac
    in=$WORK/od/$name
    [ "$name" = history.csv ] && in=$WORK/run/history.csv
    cp "$in" "$WORK/keep"
    # shellcheck disable=SC2086
    "$BIN/$prog" $cmd $(echo "$line" | sed "s#IN#$in#g") </dev/null >"$WORK/out" 2>"$WORK/e"; rc=$?
    if [ "$rc" -eq 1 ] && tail -n 1 "$WORK/e" | grep -q "^$prog $cmd: $in: refusing to overwrite an input file" &&
        cmp -s "$in" "$WORK/keep"; then
        ok "$prog $cmd: an output onto an input is refused, the input kept"
    else
        not_ok "$prog $cmd: an output onto an input (exit $rc: $(tail -n 1 "$WORK/e" | head -c 300))"
    fi
done <"$WORK/outputs"
finish

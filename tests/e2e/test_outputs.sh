#!/bin/sh
# Every output file of hyst and mech given a FIFO, a character device or a symbolic link (libhyst/src/atomic.c):
# a FIFO and a device are written through and stay what they are (a rename onto /dev/null as root would replace
# the system's /dev/null), a symbolic link is followed, stays a link and its target gets the output.
. "$TOP/tests/e2e/lib.sh"
D=$FIXTURES/synthetic/pwl_double_loop_fit.csv
K=$FIXTURES/synthetic/kin_paper_fit.csv
M=$FIXTURES/models/pwl-constant.json
has_gnuplot=0
command -v gnuplot >/dev/null 2>&1 && has_gnuplot=1


# run_with OUT CMD...: CMD with the word @OUT@ replaced by OUT, its exit status in $rc
run_with() {
    out=$1; shift
    for a in "$@"; do
        shift
        if [ "$a" = "@OUT@" ]; then set -- "$@" "$out"; else set -- "$@" "$a"; fi
    done
    "$@" >"$WORK/.out" 2>"$WORK/.err"; rc=$?
}

# special NAME EXT CMD...: runs CMD with its output (@OUT@) a FIFO, the device and a symbolic link
special() {
    n=$1; ext=$2; shift 2
    # FIFO: a reader (bounded in time) collects what the program writes
    rm -f "$WORK/fifo.$ext" "$WORK/got"
    mkfifo "$WORK/fifo.$ext"
    timeout 30 cat "$WORK/fifo.$ext" >"$WORK/got" &
    reader=$!
    run_with "$WORK/fifo.$ext" "$@"
    if [ -p "$WORK/fifo.$ext" ]; then wait "$reader"; else kill "$reader" 2>/dev/null; wait "$reader"; fi
    if [ "$rc" -eq 0 ] && [ -p "$WORK/fifo.$ext" ] && [ -s "$WORK/got" ]; then ok "$n: FIFO written through, still a FIFO"
    else not_ok "$n: FIFO written through, still a FIFO (exit $rc)"; head -3 "$WORK/.err"; fi
    # a character device of our own (mknod as root: a null device in $WORK, never the system's /dev/null), else
    # /dev/null itself, which an unprivileged process cannot replace (not for plot -o, which needs an extension)
    rm -f "$WORK/null.$ext"
    if mknod "$WORK/null.$ext" c 1 3 2>/dev/null; then dev=$WORK/null.$ext; elif [ "$ext" != svg ]; then dev=/dev/null; else dev=; fi
    if [ -n "$dev" ]; then
        run_with "$dev" "$@"
        if [ "$rc" -eq 0 ] && [ -c "$dev" ]; then ok "$n: device written through, still a device"
        else not_ok "$n: device written through, still a device (exit $rc)"; head -3 "$WORK/.err"; fi
    fi
    # symbolic link (relative) to a regular file
    rm -rf "$WORK/ln" && mkdir "$WORK/ln" && echo old >"$WORK/ln/target.$ext" && ln -s "target.$ext" "$WORK/ln/link.$ext"
    run_with "$WORK/ln/link.$ext" "$@"
    if [ "$rc" -eq 0 ] && [ -L "$WORK/ln/link.$ext" ] && [ -s "$WORK/ln/target.$ext" ] &&
        [ "$(cat "$WORK/ln/target.$ext")" != old ] && [ "$(ls "$WORK/ln" | wc -l)" -eq 2 ]; then
        ok "$n: symbolic link followed, still a link"
    else not_ok "$n: symbolic link followed, still a link (exit $rc)"; head -3 "$WORK/.err"; fi
}

special "loops --json" json "$HYST" loops "$D" --json @OUT@
special "loops --cycles-csv" csv "$HYST" loops "$D" --cycles-csv @OUT@
special "loops --branches" csv "$HYST" loops "$D" --branches @OUT@
special "loops --backbone" csv "$HYST" loops "$D" --backbone @OUT@
special "sim -o" csv "$HYST" sim "$M" --protocol triangle --amplitudes 10.5 --points 84 -o @OUT@
special "fit pwl -o" json "$HYST" fit pwl "$D" -o @OUT@
special "fit pwl --report" json "$HYST" fit pwl "$D" -o "$WORK/m.json" --report @OUT@
special "fit kin -o" json "$HYST" fit kin "$K" --max-k 3 --max-m 2 -o @OUT@
special "fit kin --report" json "$HYST" fit kin "$K" --max-k 3 --max-m 2 -o "$WORK/k.json" --report @OUT@
special "replay --json" json "$HYST" replay "$M" "$D" --json @OUT@
special "replay -o" csv "$HYST" replay "$M" "$D" -o @OUT@
special "replay --markdown" md "$HYST" replay "$M" "$D" --markdown @OUT@
special "plot --script" gp "$HYST" plot loops "$M" "$D" --script @OUT@ -o "$WORK/p.svg"
if [ "$has_gnuplot" -eq 1 ]; then
    special "plot -o" svg "$HYST" plot loops "$M" "$D" -o @OUT@
fi
special "mech pendulum -o" csv "$MECH" pendulum harmonic --periods 1 --samples 50 -o @OUT@

# what is neither a regular file, a FIFO nor a device is refused with its name, and left alone
if command -v python3 >/dev/null 2>&1 &&
    python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$WORK/sock" 2>/dev/null; then
    check_fails "a socket as output is refused" "sock: is not a regular file, a FIFO or a character device" \
        "$HYST" loops "$D" --json "$WORK/sock"
    if [ -S "$WORK/sock" ]; then ok "the socket is left alone"; else not_ok "the socket is left alone"; fi
fi
# a regular file is still replaced atomically: no temporary file left beside it
"$HYST" loops "$D" --json "$WORK/reg.json" >/dev/null 2>&1
if [ -s "$WORK/reg.json" ] && [ -z "$(ls "$WORK" | grep 'tmp')" ]; then ok "regular file written, no temporary left"
else not_ok "regular file written, no temporary left"; fi
finish

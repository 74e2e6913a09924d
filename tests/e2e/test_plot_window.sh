#!/bin/sh
# `hyst plot` without an output file opens a gnuplot window when a display is set. Runs where Xvfb and a
# gnuplot with a window terminal (wxt, qt or x11; Debian gnuplot-x11) are installed; says so and checks nothing
# elsewhere (headless CI has gnuplot-nox only).
. "$TOP/tests/e2e/lib.sh"

if ! command -v Xvfb >/dev/null 2>&1 || ! command -v xwininfo >/dev/null 2>&1; then
    echo "# skipped: needs Xvfb and xwininfo (apt-get install xvfb x11-utils gnuplot-x11)"
    finish
fi
disp=":$((100 + $$ % 100))"
Xvfb "$disp" -screen 0 1024x768x24 >/dev/null 2>&1 &
xpid=$!
trap 'kill $xpid 2>/dev/null; rm -rf "$WORK"' EXIT
i=0; while [ $i -lt 50 ] && ! DISPLAY=$disp xwininfo -root >/dev/null 2>&1; do sleep 0.1; i=$((i + 1)); done
# gnuplot lists its window terminals only when a display is set
if ! DISPLAY=$disp gnuplot -e 'print GPVAL_TERMINALS' 2>&1 | grep -Eqw 'wxt|qt|x11'; then
    echo "# skipped: this gnuplot has no window terminal (apt-get install gnuplot-x11)"
    finish
fi

FX=$FIXTURES/synthetic
DISPLAY=$disp "$HYST" plot loops "$FX/pwl_double_loop.json" "$FX/pwl_double_loop_val.csv" --t t \
    >"$WORK/out" 2>"$WORK/err" &
ppid=$!
found=0; i=0
while [ $i -lt 100 ]; do
    if DISPLAY=$disp xwininfo -root -tree 2>/dev/null | grep -q 'Gnuplot'; then found=1; break; fi
    sleep 0.1; i=$((i + 1))
done
if [ $found -eq 1 ]; then ok "hyst plot with DISPLAY and no -o opens a gnuplot window"; else
    not_ok "hyst plot with DISPLAY and no -o opens a gnuplot window"; cat "$WORK/err"; fi
kill $ppid 2>/dev/null; pkill -f "gnuplot.*" -P $ppid 2>/dev/null
wait $ppid 2>/dev/null
DISPLAY= "$HYST" plot loops "$FX/pwl_double_loop.json" "$FX/pwl_double_loop_val.csv" --t t >/dev/null 2>"$WORK/err2"
rc=$?
if [ $rc -eq 2 ] && grep -q "no output" "$WORK/err2"; then ok "without DISPLAY and without -o: usage error"; else
    not_ok "without DISPLAY and without -o: usage error (exit $rc)"; fi
finish

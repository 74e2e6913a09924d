#!/bin/sh
# End-to-end tests of `hyst plot`: PNG/SVG/PDF files of the requested size, scripts that reproduce the plot,
# decimation of long records, gnuplot missing, and errors that leave no partial output.
TOP=${TOP:-.}
. "$TOP/tests/e2e/lib.sh"
M="$FIXTURES/models"
KIN="$M/paper-damper-full.json"
KIN2="$M/paper-damper-reduced.json"
D="--t 1 --x 2 --y 3"
unset HYST_GNUPLOT

# png_size FILE: "W H" from the IHDR chunk when the 8-byte PNG signature is right, else "bad"
png_size() {
    sig=$(od -An -tx1 -N8 "$1" | tr -d ' \n')
    [ "$sig" = "89504e470d0a1a0a" ] || { echo bad; return; }
    [ "$(od -An -c -j12 -N4 "$1" | tr -d ' \n')" = "IHDR" ] || { echo bad; return; }
    od -An -tu1 -j16 -N8 "$1" | awk '{print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8}'
}

check "help exits 0" $HYST plot --help
check "sim record" $HYST sim "$KIN" --protocol sine --amplitudes 0.1,0.2,0.3,0.4 --cycles 2 --points 400 \
    --noise 0.3 --seed 3 -o "$WORK/rec.csv"

# 1. every kind to PNG at the requested size
for kind in loops residual energy all; do
    check "plot $kind png" $HYST plot $kind $D --size 640,480 "$KIN" "$KIN2" "$WORK/rec.csv" -o "$WORK/$kind.png"
    if [ "$(png_size "$WORK/$kind.png")" = "640 480" ]; then ok "$kind.png is a 640x480 PNG"; else
        not_ok "$kind.png is a 640x480 PNG (got $(png_size "$WORK/$kind.png"))"; fi
done
check "loops without a model" $HYST plot loops $D "$WORK/rec.csv" -o "$WORK/meas.png"
if [ "$(png_size "$WORK/meas.png")" = "900 650" ]; then ok "default size 900x650"; else not_ok "default size 900x650"; fi

# 2. SVG root element and PDF header, trailer and page size (96 px per inch: 768x576 px = 8x6 in = 576x432 pt)
check "plot svg" $HYST plot loops $D --size 700,500 "$KIN" "$WORK/rec.csv" -o "$WORK/l.svg"
root=$(tr '\n' ' ' < "$WORK/l.svg" | sed -n 's/.*\(<svg[^>]*>\).*/\1/p')
case "$root" in *'width="700"'*'height="500"'*) ok "SVG root element 700x500";; *) not_ok "SVG root element ($root)";; esac
if tail -c 20 "$WORK/l.svg" | grep -q '</svg>'; then ok "SVG closed"; else not_ok "SVG closed"; fi
check "plot pdf" $HYST plot energy $D --size 768,576 "$KIN" "$WORK/rec.csv" -o "$WORK/e.pdf"
if [ "$(head -c 5 "$WORK/e.pdf")" = "%PDF-" ]; then ok "PDF header"; else not_ok "PDF header"; fi
if tail -c 16 "$WORK/e.pdf" | grep -q '%%EOF'; then ok "PDF trailer"; else not_ok "PDF trailer"; fi
if grep -aq 'MediaBox \[ 0 0 576 432 \]' "$WORK/e.pdf"; then ok "PDF page 8x6 in"; else not_ok "PDF page 8x6 in"; fi

# 3. the script reproduces the plot: the same PNG bytes when gnuplot runs it
mkdir -p "$WORK/s"
( cd "$WORK/s" && $HYST plot all $D "$KIN" "$WORK/rec.csv" -o all.png --script all.gp ) >/dev/null 2>&1
if [ -s "$WORK/s/all.png" ] && [ -s "$WORK/s/all.gp" ]; then ok "plot with --script"; else not_ok "plot with --script"; fi
mv "$WORK/s/all.png" "$WORK/s/first.png"
( cd "$WORK/s" && gnuplot all.gp ) 2>"$WORK/gp.err"
if cmp -s "$WORK/s/all.png" "$WORK/s/first.png"; then ok "gnuplot all.gp draws the same PNG"; else
    not_ok "gnuplot all.gp draws the same PNG"; sed 's/^/    /' "$WORK/gp.err" | head -5; fi
if grep -q '^\$measured << EOD' "$WORK/s/all.gp" && grep -q "^set xlabel " "$WORK/s/all.gp"; then
    ok "script has inline data and labels"; else not_ok "script has inline data and labels"; fi

# 4. long records are decimated for drawing: 200 000 samples, at most --max-points per curve
awk 'BEGIN{print "t,q,Q"; for(i=0;i<200000;i++){t=i*1e-3; q=(0.1+0.3*i/200000)*sin(6.283185307*t);
    printf "%.3f,%.7f,%.5f\n", t, q, 100*q+5*cos(6.283185307*t)}}' > "$WORK/long.csv"
check "plot 200k samples" $HYST plot all $D "$KIN" "$WORK/long.csv" --max-points 4000 -o "$WORK/long.png" \
    --script "$WORK/long.gp"
n_meas=$(awk '/^\$measured << EOD/{f=1;next} /^EOD/{f=0} f' "$WORK/long.gp" | wc -l)
if [ "$n_meas" -le 4002 ] && [ "$n_meas" -ge 1000 ]; then ok "measured curve decimated ($n_meas points)"; else
    not_ok "measured curve decimated ($n_meas points)"; fi
n_res=$(awk '/^\$residual1 << EOD/{f=1;next} /^EOD/{f=0} f' "$WORK/long.gp" | wc -l)
if [ "$n_res" -le 3602 ]; then ok "residual at most 4 points per pixel column ($n_res)"; else not_ok "residual ($n_res)"; fi
# the extremes survive: the largest Q of the record is in the drawn data
qmax=$(awk -F, 'NR>1 && (NR==2 || $3>m){m=$3} END{print m}' "$WORK/long.csv")
dmax=$(awk '/^\$measured << EOD/{f=1;next} /^EOD/{f=0} f && (!s || $2>m){m=$2; s=1} END{print m}' "$WORK/long.gp")
check_num "decimation keeps the peak force" "$dmax" "$qmax" 1e-9

# 4b. a piecewise-linear model: its table points and the transition segments of the replay are drawn
PWL="$M/pwl-symmetric.json"
check "sim pwl with inner loops" $HYST sim "$PWL" --protocol triangle --amplitudes 3,5.5 --inner 0.6:0.3 --points 400 \
    -o "$WORK/pwl.csv"
check "plot pwl loops" $HYST plot loops $D "$PWL" "$WORK/pwl.csv" -o "$WORK/pwl.png" --script "$WORK/pwl.gp"
n_tab=$(awk '/^\$table1 << EOD/{f=1;next} /^EOD/{f=0} f && NF==2' "$WORK/pwl.gp" | wc -l)
check_num "all 30 table points drawn" "$n_tab" 30 0
n_tr=$(awk '/^\$transition1 << EOD/{f=1;next} /^EOD/{f=0} f && NF==2' "$WORK/pwl.gp" | wc -l)
if [ "$n_tr" -ge 2 ] && [ $((n_tr % 2)) -eq 0 ]; then ok "transition segments drawn ($((n_tr / 2)))"; else
    not_ok "transition segments drawn ($n_tr points)"; fi
# every transition segment has the slope k_max = 16 of the table
slopes=$(awk '/^\$transition1 << EOD/{f=1;next} /^EOD/{f=0} f && NF==2{if(h){s=($2-Q)/($1-q); if(s<lo||!c)lo=s; if(s>hi||!c)hi=s; c=1; h=0} else {q=$1;Q=$2;h=1}}
    END{print lo, hi}' "$WORK/pwl.gp")
check_num "transition slope (smallest) is k_max" "${slopes% *}" 16 1e-6
check_num "transition slope (largest) is k_max" "${slopes#* }" 16 1e-6
check "plot pwl without the table" $HYST plot loops $D --no-table "$PWL" "$WORK/pwl.csv" -o "$WORK/pwl2.png" \
    --script "$WORK/pwl2.gp"
if grep -q 'table1' "$WORK/pwl2.gp"; then not_ok "--no-table drops the table"; else ok "--no-table drops the table"; fi

# 5. gnuplot missing: a clear message, exit 1, and the script still written
mkdir -p "$WORK/nogp"
check_fails "no gnuplot: clear message" "gnuplot not found" env PATH="$WORK/nogp" "$HYST" plot loops $D "$KIN" \
    "$WORK/rec.csv" -o "$WORK/nogp/x.png" --script "$WORK/nogp/x.gp"
if [ -s "$WORK/nogp/x.gp" ]; then ok "no gnuplot: script written"; else not_ok "no gnuplot: script written"; fi
if [ ! -e "$WORK/nogp/x.png" ]; then ok "no gnuplot: no image"; else not_ok "no gnuplot: no image"; fi
check_fails "no gnuplot and no script" "gnuplot not found" env PATH="$WORK/nogp" "$HYST" plot loops $D "$KIN" \
    "$WORK/rec.csv" -o "$WORK/nogp/y.png"
( cd "$WORK/nogp" && gnuplot x.gp ) 2>/dev/null
if [ "$(png_size "$WORK/nogp/x.png")" = "900 650" ]; then ok "script drawn later by gnuplot"; else not_ok "script drawn later by gnuplot"; fi

# 6. a failing gnuplot leaves the earlier output untouched; usage errors
cp "$WORK/loops.png" "$WORK/keep.png"
check_fails "gnuplot failure reported" "exit status" env HYST_GNUPLOT=/bin/false "$HYST" plot loops $D "$KIN" \
    "$WORK/rec.csv" -o "$WORK/keep.png"
if cmp -s "$WORK/keep.png" "$WORK/loops.png"; then ok "earlier output kept"; else not_ok "earlier output kept"; fi
if [ -z "$(ls "$WORK" | grep -v -e '\.png$' -e '\.csv$' -e '\.gp$' -e '\.svg$' -e '\.pdf$' -e '^s$' -e '^nogp$' -e '^gp.err$')" ]; then
    ok "no temporary files left"; else not_ok "no temporary files left: $(ls "$WORK")"; fi
# a signal while gnuplot draws: gnuplot is stopped with hyst, so it cannot write the temporary figure after the
# clean-up removed it. A stand-in gnuplot reads the script, marks that it started, waits 1 s and writes its output.
mkdir -p "$WORK/sig"
cat >"$WORK/sig-gnuplot" <<'GP'
#!/bin/sh
out=$(sed -n "s/^set output '\(.*\)'$/\1/p" | head -n 1)
touch "$SLOW_GP_MARK"
sleep 1
echo late >"$out"
GP
chmod +x "$WORK/sig-gnuplot"
SLOW_GP_MARK="$WORK/sig-started" HYST_GNUPLOT="$WORK/sig-gnuplot" "$HYST" plot loops $D "$KIN" "$WORK/rec.csv" \
    -o "$WORK/sig/fig.png" 2>/dev/null &
pid=$!
for _ in $(seq 100); do [ -e "$WORK/sig-started" ] && break; sleep 0.05; done
kill -TERM $pid; wait $pid; st=$?
sleep 1.5   # past the stand-in's write, had it lived
left=$(ls -A "$WORK/sig" | tr '\n' ' ')
[ -e "$WORK/sig-started" ] && [ $st -eq 143 ] && [ -z "$left" ] \
    && ok "a signal while gnuplot draws: gnuplot stopped with hyst, no temporary figure left" \
    || not_ok "a signal while gnuplot draws: status $st (expected 143), left: $left"
rm -rf "$WORK/sig" "$WORK/sig-gnuplot" "$WORK/sig-started"
check_fails "unknown kind" "unknown plot kind" $HYST plot bars "$KIN" "$WORK/rec.csv" -o "$WORK/z.png"
check_fails "unknown extension" "unknown output type" $HYST plot loops $D "$KIN" "$WORK/rec.csv" -o "$WORK/z.jpg"
check_fails "residual needs a model" "needs at least one model" $HYST plot residual $D "$WORK/rec.csv" -o "$WORK/z.png"
check_fails "no output and no display" "no output" env -u DISPLAY "$HYST" plot loops $D "$KIN" "$WORK/rec.csv"
check_fails "bad size" "--size" $HYST plot loops $D --size 10x "$KIN" "$WORK/rec.csv" -o "$WORK/z.png"
check_fails "never overwrites the data" "refusing" $HYST plot loops $D "$KIN" "$WORK/rec.csv" --script "$WORK/rec.csv"
cp "$KIN" "$WORK/model-copy.json"
check_fails "the script never overwrites a model" "model-copy.json: refusing to overwrite an input file" $HYST plot loops $D "$WORK/model-copy.json" "$WORK/rec.csv" --script "$WORK/model-copy.json"
cp "$KIN" "$WORK/m.png"   # a model file is read by its content, whatever its name
check_fails "the image never overwrites a model" "m.png: refusing to overwrite an input file" $HYST plot loops $D "$WORK/m.png" "$WORK/rec.csv" -o "$WORK/m.png"
cmp -s "$KIN" "$WORK/model-copy.json" && cmp -s "$KIN" "$WORK/m.png" && ok "the model files are unchanged" || not_ok "the model files are unchanged"
finish

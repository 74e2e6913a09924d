#!/bin/sh
# Plans refused before any run with the plan file and the key named, exit 1 (issue 43 D5, issue 42 N27): a key both
# fixed ("set") and varied; ranges whose span overflows a double (a uniform -1e308..1e308 was reported as a
# "derive" error, a grid as "-nan"); a normal or log-normal whose extreme draws leave the doubles; a grid mixing
# numbers and strings. And accepted: a grid of law files (strings), their values in the table.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
FIX=${FIXTURES:-$TOP/fixtures}
mkdir -p "$WORK/p" && cp -r "$FIX/mech/dock" "$WORK/dock"
cp "$WORK/dock/models/lateral-spring.json" "$WORK/dock/models/lateral-spring-copy.json"
plan() {   # NAME VARY [SET [EXTRA]]
    printf '{"format": "mech-sweep", "version": 1, "scenario": "../dock/s3-A.json", "set": {%s}, "vary": {%s}%s}\n' \
        "${3:-\"duration\": 0.5, \"outputs.view_times\": [], \"outputs.plots\": false, \"outputs.records\": false}" \
        "$2" "${4:-}" >"$WORK/p/$1.json"
}
refused() {   # NAME PATTERN
    check_fails "$1 is refused, naming the plan and the key" "^mech sweep: [^ ]*/$1\\.json: $2" \
        "$MECH" sweep "$WORK/p/$1.json" --out "$WORK/o-$1" -q --no-plots
    [ ! -e "$WORK/o-$1/journal.csv" ] && ok "$1: no run" || not_ok "$1: no run"
}
plan set-and-vary '"initial.pitch_deg": {"grid": [2, 8]}' '"initial.pitch_deg": 4, "duration": 0.5'
refused set-and-vary 'vary: initial.pitch_deg is also fixed by set.initial.pitch_deg: a key is either fixed'
plan set-object-and-vary '"initial.pitch_deg": {"grid": [2, 8]}' '"initial": {"pitch_deg": 4}'
refused set-object-and-vary 'vary: initial.pitch_deg is also fixed by set.initial: '
plan uniform-overflow '"initial.offset_y": {"dist": "uniform", "min": -1e308, "max": 1e308}' "" ', "samples": 4'
refused uniform-overflow 'vary.initial.offset_y: uniform: max - min = 1e\+308 - \(-1e\+308\) overflows a double'
plan grid-overflow '"initial.offset_y": {"grid": {"start": -1e308, "stop": 1e308, "count": 3}}'
refused grid-overflow 'vary.initial.offset_y: grid: stop - start = 1e\+308 - \(-1e\+308\) overflows a double'
plan normal-overflow '"initial.offset_y": {"dist": "normal", "mean": 0, "sd": 1e308}' "" ', "samples": 4'
refused normal-overflow 'vary.initial.offset_y: normal: mean 0 \+- 8.3 sd \(sd = 1e\+308\) overflows a double'
plan lognormal-overflow '"initial.closing_speed": {"dist": "lognormal", "median": 0.1, "sigma": 200}' "" ', "samples": 4'
refused lognormal-overflow 'vary.initial.closing_speed: lognormal: median 0.1 x exp\(\+-8.3 sigma\) \(sigma = 200\) leaves the doubles'
plan grid-mixed '"laws.spring": {"grid": ["models/lateral-spring.json", 3]}'
refused grid-mixed 'vary.laws.spring: grid\[1\]: expected a string, as grid\[0\] \(a grid is all numbers or all strings\)'
grep -q nan "$WORK/.err" && not_ok "no nan in a message" || ok "no nan in a message"

# a grid of law files: accepted, the paths in the table; two files of the same law give the same numbers
plan law-grid '"laws.spring": {"grid": ["models/lateral-spring.json", "models/lateral-spring-copy.json"]}'
check "a grid of law files runs" "$MECH" sweep "$WORK/p/law-grid.json" --out "$WORK/o-law" -q --no-plots
R=$WORK/o-law/results.csv
[ "$(cut -d, -f2 "$R" | tr '\n' ' ')" = 'laws.spring "models/lateral-spring.json" "models/lateral-spring-copy.json" ' ] &&
    ok "the law files are the key's values in the table" || { not_ok "the law files are the key's values in the table"; cat "$R"; }
[ "$(sed -n 2p "$R" | cut -d, -f3-)" = "$(sed -n 3p "$R" | cut -d, -f3-)" ] && ok "the same law from two files: the same row" ||
    not_ok "the same law from two files: the same row"
finish

#!/bin/sh
# The structural hooks in the `mech view` page (issue 44 item 5; docs/view.md §2, §3). S1-400-B (RP-1) docks: its
# pose.csv carries the active plane frame's y axis and each link's catch, state and tension; the page holds a compact
# form of them (the bases once, in the active plane's frame as the hooks module places them; the catches and states
# where they change; the tensions from the hook drive's start). In Debian's headless Chromium (tests/e2e/view_check.py
# "hooks"): the 8 hooks drawn at a row before the hook drive (open, nothing red), while the jaws close and where every
# link is locked (red: bearing), each at pose.csv's catch, state and tension of the shown row, its base on the active
# plane at RP-1's radius and azimuths, within 2 mm of its catch once locked. The hooks' part of the page is checked
# against the per-row form it replaces (under 1 %).
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
MECH=${MECH:-$TOP/bin/mech}
D=${FIXTURES:-$TOP/fixtures}/mech/dock
PY=/usr/bin/python3   # Debian's, with python3-pil
check "mech dock s1-400-B" "$MECH" dock "$D/s1-400-B.json" --out "$WORK/b" --no-plots --no-records -q
check "mech view s1-400-B" "$MECH" view "$WORK/b" -q
head -n 1 "$WORK/b/pose.csv" | grep -q ',pey_x,pey_y,pey_z,hook1_cx,hook1_cy,hook1_cz,hook1_state,hook1_f,hook2_cx,' &&
    ok "pose.csv has the hooks' columns" || not_ok "pose.csv has the hooks' columns"
"$PY" - "$WORK/b" >"$WORK/py.out" 2>&1 <<'PY'
import csv, json, re, sys
d = sys.argv[1]
def ok(c, name):
    print(("ok - " if c else "not ok - ") + name)
page = json.loads(re.search(r'<script type="application/json" id="run-data">(.*?)</script>',
                            open(d + "/view.html").read(), re.S).group(1))
hk = page["hooks"]
rows = list(csv.reader(open(d + "/pose.csv")))
names, pose = rows[0], [[float(x) for x in r] for r in rows[2:]]
c = {n: k for k, n in enumerate(names)}
kept = set(page["data"][0])
krows = [r for r in pose if r[0] in kept]
# the per-row form: 8 links x (base and catch: 6 numbers at 5 decimals, state, tension) at every kept row (the
# bases' 3 numbers a link counted as its catch's)
per_row = sum(len(json.dumps([round(v, 5) for v in r[c["hook1_cx"]:c["hook8_f"] + 1]], separators=(",", ":")))
              + 8 * 3 * 9 for r in krows)
mine = len(json.dumps(hk, separators=(",", ":")))
ok(mine < 0.01 * per_row, "the hooks take %d bytes of the page, not the %d of a per-row form" % (mine, per_row))
ok(len(hk["base"]) == 8 and all(abs(abs(complex(b[1], b[2])) - 0.55) < 1e-9 and b[0] == 0 for b in hk["base"]),
   "the bases in the active plane's frame: on the plane, at RP-1's radius 0.55 m")
# the states where they change: each link open -> closing -> locked at kept rows equal to pose.csv's
for j in range(8):
    ch = [[k, int(r[c["hook%d_state" % (j + 1)]])] for k, r in enumerate(krows)]
    ch = [e for i, e in enumerate(ch) if i == 0 or e[1] != ch[i - 1][1]]
    if ch != hk["state"][j] or [e[1] for e in ch] != [0, 1, 2]:
        ok(False, "link %d: states %s on the page, %s in pose.csv" % (j + 1, hk["state"][j], ch))
        break
else:
    ok(True, "every link's state changes (open, closing, locked) on the page are pose.csv's at the kept rows")
PY
cat "$WORK/py.out"
grep -q '^not ok' "$WORK/py.out" && _fail=1
grep -q '^ok' "$WORK/py.out" && ! grep -q '^Traceback' "$WORK/py.out" ||
    not_ok "the page's hooks checked (the check ran to its end)"
if ! command -v chromium >/dev/null 2>&1 || ! "$PY" -c 'import PIL' 2>/dev/null; then
    echo "# SKIP the browser checks: chromium or python3-pil is not installed (scripts/install-deps installs them)"
else
    mkdir -p "$WORK/shots"
    "$PY" "$TOP/tests/e2e/view_check.py" --shots "$WORK/shots" "hooks:$WORK/b/view.html:$WORK/b" >"$WORK/vc.out" 2>&1
    rc=$?
    cat "$WORK/vc.out"
    grep -q '^not ok' "$WORK/vc.out" && _fail=1
    [ "$rc" -eq 0 ] || grep -q '^not ok' "$WORK/vc.out" || not_ok "view_check.py ran (exit $rc)"
fi
finish

# Shared by test_sweep_onerun.sh and test_sweep_onerun_process.sh (issue 43 D1): each shipped dock scenario given as
# arguments runs once under `mech dock` and once as a one-point sweep (the plan varies only "notes", a choice of one
# string, so the run is the scenario itself), and every metric of the sweep's row must be the exact decimal text of
# `mech dock`'s summary.json (summary numbers read as text, never as floats). Both go through mech_dock_run.
onerun_compare() {   # SCENARIO...
    for f in "$@"; do
        b=$(basename "$f" .json)
        mkdir -p "$WORK/$b"
        cat >"$WORK/$b/plan.json" <<PLAN
{"format": "mech-sweep", "version": 1, "scenario": "$f", "samples": 1,
 "vary": {"notes": {"dist": "choice", "values": ["one-point sweep"]}}}
PLAN
        if ! "$MECH" dock "$f" --out "$WORK/$b/dock" --no-plots -q >"$WORK/$b/dock.out" 2>&1; then
            grep -q '"status": "failed"' "$WORK/$b/dock/summary.json" 2>/dev/null ||
                { not_ok "$b: mech dock runs"; sed 's/^/    /' "$WORK/$b/dock.out" | head -5; continue; }
        fi
        if ! "$MECH" sweep "$WORK/$b/plan.json" --out "$WORK/$b/sweep" -q --no-plots >"$WORK/$b/sweep.out" 2>&1; then
            not_ok "$b: the one-point sweep runs"; sed 's/^/    /' "$WORK/$b/sweep.out" | head -5; continue
        fi
        if python3 - "$WORK/$b/dock/summary.json" "$WORK/$b/sweep/results.csv" >"$WORK/$b/cmp.out" 2>&1 <<'PY'
import csv, json, sys
s = json.load(open(sys.argv[1]), parse_float=str, parse_int=str)   # the exact decimal text
rows = list(csv.reader(open(sys.argv[2])))
row = dict(zip(rows[0], rows[1]))
b = lambda v: "1" if v else "0"
want = {"status": s["status"], "captured": b(s["captured"]), "capture_time": s["capture_time"] or "",
        "cone_contacts": s["cone_contacts"], "peak_axial": s["peak_axial_force"],
        "peak_lateral": s["peak_lateral_force"], "peak_limiter": s["peak_limiter_force"],
        "stroke_max": s["stroke_max"], "swing_max": s["swing_max"], "e_initial": s["energy"]["initial"],
        "e_residual_max": s["energy"]["residual_max"], "steps": s["steps"],
        # the docked state's measures (issue 44), the ones printed with their sign in both
        "tilt_max": s["docked"]["tilt_max"] or "", "tilt_end": s["docked"]["tilt_end"] or "",
        "latches_all_time": s["docked"]["latches_all_time"] or "",
        "latches_engaged": str(sum(x is not None for x in s["latch_times"])),
        "limiter_clearance": s["docked"]["limiter_clearance"] or "", "limiter_lead": s["docked"]["limiter_lead"] or ""}
bad = ["%s: sweep %r, mech dock %r" % (k, row.get(k), v) for k, v in want.items() if row.get(k) != v]
print("; ".join(bad) if bad else "all %d metrics equal (steps %s)" % (len(want), s["steps"]))
sys.exit(1 if bad else 0)
PY
        then ok "$b: one-point sweep row = mech dock summary, bit for bit ($(cat "$WORK/$b/cmp.out"))"
        else not_ok "$b: one-point sweep row = mech dock summary"; sed 's/^/    /' "$WORK/$b/cmp.out"; fi
        rm -rf "$WORK/$b"
    done
}

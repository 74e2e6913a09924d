#!/usr/bin/env python3
"""The verdict logic of scripts/dock-paper-table (docs/dock-process.md §10) on the saved measures of the shipped
runs (fixtures/mech/dock/paper-table/measures.json): the shipped verdicts, each threshold crossed both ways (a ✓ turns
✗ or ~ when its number crosses), and the window/episode reduction of a history on a hand-made one.
Usage: dock_paper_table_check.py TOP. Prints ok / not ok lines (tests/e2e/lib.sh's convention)."""
import copy
import importlib.machinery
import importlib.util
import json
import os
import sys

TOP = sys.argv[1]
loader = importlib.machinery.SourceFileLoader("dpt", os.path.join(TOP, "scripts", "dock-paper-table"))
spec = importlib.util.spec_from_loader("dpt", loader)
T = importlib.util.module_from_spec(spec)
loader.exec_module(T)
M0 = json.load(open(os.path.join(TOP, "fixtures", "mech", "dock", "paper-table", "measures.json")))
fails = 0


def check(name, cond, extra=""):
    global fails
    print(("ok - " if cond else "not ok - ") + name + ("" if cond else " " + extra))
    fails += not cond


def verdict(M, spec_prefix, claim_word):
    for r in T.rows(M):
        if r[0].startswith(spec_prefix) and claim_word in r[1]:
            return r[4], r[5]
    raise KeyError(spec_prefix + " / " + claim_word)


def with_(changes):
    M = copy.deepcopy(M0)
    for path, v in changes:
        o = M
        for k in path[:-1]:
            o = o[k]
        o[path[-1]] = v
    return M


# the shipped verdicts (what docs/dock-process.md §10 says)
for pre, word, exp in [("§4 Fig. 8 (A)", "central impact", "✓"), ("§4 Fig. 8 (B)", "lower FrT1", "✓"),
                       ("§4 Fig. 9", "UJ centre", "~"), ("§4 Fig. 10 (A)", "series of undamped", "✗"),
                       ("§4 Fig. 10 (B)", "first limiter contact", "~"),
                       # ✓ again with RP-2's 2e5 N s/m pushers' dampers (docs/rp2-parameters.md §13): S3x-400-B's
                       # rollers touch in the window (with the 20 s timer and 1e5 they had last touched at 352.6 s)
                       ("§4 Fig. 12 interval 3", "353–363", "✓"), ("§4 Fig. 15 fragment 1", "socket bottom", "✗"),
                       ("§4 Fig. 15 fragment 1", "13 s", "✗"), ("§7 item 9", "240 s", "✓")]:
    v, why = verdict(M0, pre, word)
    check("shipped: %s (%s) is %s" % (pre, word, exp), v == exp, "(got %s: %s)" % (v, why))
check("every row has a verdict and a reason", all(r[4] in "✓~✗—" and r[5] for r in T.rows(M0)))

# each threshold both ways
A = M0["s1-A"]
for f, exp in [(T.REBOUND_LARGE * 1.02, "✓"), (T.REBOUND_LARGE * 0.98, "~")]:
    v, _ = verdict(with_([(("s1-A", "rebound_peak"), f * A["push_peak"])]), "§4 Fig. 8 (A)", "central")
    check("Fig. 8 A: rebound %.2f x push-in -> %s" % (f, exp), v == exp, "(got %s)" % v)
v, _ = verdict(with_([(("s1-A", "spring_plateau"), A["brake_plateau"] * 1.01)]), "§4 Fig. 8 (A)", "central")
check("Fig. 8 A: spring plateau above the brake's -> ~", v == "~", "(got %s)" % v)
v, _ = verdict(with_([(("s1-A", "spring_plateau"), A["brake_plateau"] * 1.01),
                      (("s1-A", "rebound_peak"), A["push_peak"] * T.REBOUND_LARGE * 0.98)]), "§4 Fig. 8 (A)", "central")
check("Fig. 8 A: neither -> ✗", v == "✗", "(got %s)" % v)
v, _ = verdict(with_([(("s1-B", "brake_plateau"), A["brake_plateau"] * 1.01)]), "§4 Fig. 8 (B)", "lower")
check("Fig. 8 B: FrT1 plateau above A's brake -> ~", v == "~", "(got %s)" % v)
v, _ = verdict(with_([(("s1-B", "brake_plateau"), A["brake_plateau"] * 1.01),
                      (("s1-B", "rebound_peak"), A["rebound_peak"] * 1.01)]), "§4 Fig. 8 (B)", "lower")
check("Fig. 8 B: both above A's -> ✗", v == "✗", "(got %s)" % v)
for a, b, exp in [(0.049, 0.1, "✓"), (0.051, 0.2, "~"), (0.04, 0.079, "~"), (0.3, 0.2, "✗")]:
    v, _ = verdict(with_([(("s3x-400-A", "limiter_pad_arm_mean"), a), (("s3x-400-B", "limiter_pad_arm_mean"), b)]),
                   "§4 Fig. 9", "UJ")
    check("Fig. 9: arms A %g, B %g -> %s" % (a, b, exp), v == exp, "(got %s)" % v)
for n, exp in [(T.SERIES_MIN, "✓"), (T.SERIES_MIN - 1, "✗")]:
    v, _ = verdict(with_([(("s3x-400-A", "pad_episodes_capture"), n)]), "§4 Fig. 10 (A)", "series")
    check("Fig. 10 A: %d episodes -> %s" % (n, exp), v == exp, "(got %s)" % v)
for nb, na, exp in [(1, 3, "✓"), (2, 3, "~"), (3, 3, "✗")]:
    v, _ = verdict(with_([(("s3x-400-B", "pad_episodes_capture"), nb), (("s3x-400-A", "pad_episodes_capture"), na)]),
                   "§4 Fig. 10 (B)", "first limiter")
    check("Fig. 10 B: %d episodes (A %d) -> %s" % (nb, na, exp), v == exp, "(got %s)" % v)
end = M0["s3x-400-A"]["end_time"]
for last, exp in [(end - T.SETTLED - 0.1, "✓"), (end - T.SETTLED + 0.1, "✗")]:
    v, _ = verdict(with_([(("s3x-400-A", "pad_last_change"), last), (("s3x-400-A", "pad_on_end"), True)]),
                   "§4 Fig. 10 (A)", "series ends")
    check("Fig. 10 A: pads settled %.1f s before the end -> %s" % (end - last, exp), v == exp, "(got %s)" % v)
tb = M0["s3x-400-C-short"]["first_bottom"]
for lead, exp in [(0.5, "✓"), (T.LEAD_WINDOW + 0.1, "✗"), (-0.1, "✗")]:
    v, _ = verdict(with_([(("s3x-400-C-short", "limiter_first"), tb - lead)]), "§4 Fig. 15 fragment 1", "socket")
    check("Fig. 15: limiter first %.1f s before the bottom -> %s" % (lead, exp), v == exp, "(got %s)" % v)
for lc, exp in [(T.DIE_OUT - 0.1, "✓"), (T.DIE_OUT + 0.1, "✗")]:
    v, _ = verdict(with_([(("s3x-400-C-short", "limiter_last_change"), lc)]), "§4 Fig. 15 fragment 1", "13 s")
    check("Fig. 15: last limiter change %.1f s -> %s" % (lc, exp), v == exp, "(got %s)" % v)
w = {"limiter": {"state0": True, "changes": 0, "any": True, "all": True}, "roller": None, "roller_all": False,
     "gap_range": 0.0005, "limiter_x_range": 0.0005}
M = with_([(("s3x-400-C-short", "win", "363-367"), w), (("s3x-400-C-short", "frt1_pusher_share"), 0.95),
           (("s3x-400-C-short", "frt1_slip_end"), 0)])
v, _ = verdict(M, "§4 Fig. 15 fragment 3", "363")
check("Fig. 15 fragment 3: all four parts hold -> ✓", v == "✓", "(got %s)" % v)
M["s3x-400-C-short"]["win"]["363-367"]["gap_range"] = 0.0011
v, _ = verdict(M, "§4 Fig. 15 fragment 3", "363")
check("Fig. 15 fragment 3: the gap moves 1.1 mm -> ~", v == "~", "(got %s)" % v)
w = {"limiter": None, "roller": {"state0": False, "changes": 2, "any": True, "all": False}}
v, _ = verdict(with_([(("s3x-400-B", "win", "178-181"), w)]), "§4 Fig. 12 interval 2", "178")
check("Fig. 12: 2 roller changes in 178-181 s -> ✗", v == "✗", "(got %s)" % v)
# Fig. 12 interval 3: roller contact in the window and never all four at once -> ✓; all at once -> ~; none -> ✗
w3 = copy.deepcopy(M0["s3x-400-B"]["win"]["353-363"])
for touch, all_, exp in [(True, False, "✓"), (True, True, "~"), (False, False, "✗")]:
    w3["roller"] = dict(w3["roller"] or {"state0": False, "changes": 0, "all": False}, any=touch)
    w3["roller_all"] = all_
    v, _ = verdict(with_([(("s3x-400-B", "win", "353-363"), copy.deepcopy(w3))]), "§4 Fig. 12 interval 3", "353")
    check("Fig. 12 interval 3: rollers touch %s, all at once %s -> %s" % (touch, all_, exp), v == exp,
          "(got %s)" % v)
allc = [(((n, "t_closed")), 300.0) for n in T.PROCESS] + [((n, "completed"), True) for n in T.PROCESS]
v, _ = verdict(with_(allc), "§7 item 9", "240")
check("§7 item 9: every run closes at 300 s -> ✓", v == "✓", "(got %s)" % v)
v, _ = verdict(with_(allc + [(("s1-400-A", "t_closed"), 239.0)]), "§7 item 9", "240")
check("§7 item 9: one closes at 239 s -> ~", v == "~", "(got %s)" % v)

# the history reduction, on a hand-made flag: on at 1, off at 2, on at 2.5 (rows at events only)
t = [0.0, 1.0, 2.0, 2.5, 4.0]
x = [0, 1, 0, 1, 1]
check("window over [1.5, 3]: in contact at 1.5, two changes (2.0, 2.5)",
      T.window(t, x, 1.5, 3.0) == {"state0": True, "changes": 2, "any": True, "all": False})
check("window over [2.6, 3.9]: held on throughout", T.window(t, x, 2.6, 3.9)["all"] is True)
check("window past the history's end: None", T.window(t, x, 5.0, 6.0) is None)
check("episodes: 2 contacts, the last change at 2.5 s", T.episodes(t, x) == (2, 2.5))
check("episodes before 2.2 s: 1", T.episodes(t, x, 0.0, 2.2)[0] == 1)
check("value range over [1, 2] and the row before it: 5 - 1", T.value_range(t, [5, 1, 3, 9, 9], 1.0, 2.0) == 4)
sys.exit(1 if fails else 0)

#!/usr/bin/env python3
"""Checks scripts/rp2_ctouch.py (variant C's limiter against the cones, docs/rp2-parameters.md §11.3) against
independent computations; prints one "ok ..." / "not ok ..." line per check, exits 1 on any failure.

1. touch_tilt (the tilt-plane closed form) against a brute-force 3-D search: the housing tilted in steps of 0.01 deg
   about a head centre on the cone axis, the limiter's frustum sampled all round (the rim circle's points tested
   inside the frustum solid, the larger base's edge points against the wall), written here from the geometry, not
   from the module: they agree within one step.
2. Upright (t = 0), the larger base meets the short cone's wall where dock_params.c's stroke rule puts it
   (check_movable_limiter: the plane gap x0 - uj_behind_plane - depth, depth = 0.17 + (0.30 - 0.28) / tan 30 deg).
3. touches_pose with the head on the axis is touch_tilt (leaning onto a pad); leaning between two pads it touches
   later (the pads are 60 deg of every 90).
4. first_touch replays poses: the first pose at which the 3-D test holds, and a limiter further forward touches no
   later.
"""
import math
import os
import sys

TOP = sys.argv[1] if len(sys.argv) > 1 else os.getcwd()
sys.path.insert(0, os.path.join(TOP, "scripts"))
import rp2_ctouch as C  # noqa: E402

DEG = math.pi / 180
FAIL = 0


def check(name, cond, detail=""):
    global FAIL
    print(("ok " if cond else "not ok ") + name + (" (" + detail + ")" if detail else ""))
    if not cond:
        FAIL = 1


def brute_touch(t, x0, cone, z_h, stroke, n=720, lean=0.0):
    """3-D: the housing axis tilted by t towards azimuth `lean` about the head centre on the cone axis at depth z_h;
    cone frame (x lateral, y lateral, z depth below the passive docking plane)"""
    R, d_rim = {"module": (0.40, 0.0), "short": (0.30, 0.17)}[cone]
    r0, r1, length, hl = 0.28, 0.23, 0.08, 1.25
    l0 = hl - stroke - x0
    # housing frame: axis a from the head towards the active vehicle (z decreasing), e1, e2 across it
    cl, sl = math.cos(lean), math.sin(lean)
    a = (math.sin(t) * cl, math.sin(t) * sl, -math.cos(t))
    e1 = (math.cos(t) * cl, math.cos(t) * sl, math.sin(t))
    e2 = (-sl, cl, 0.0)
    head = (0.0, 0.0, z_h)
    tan_a = math.tan(30 * DEG)
    for k in range(n):
        ph = 2 * math.pi * k / n
        # the rim circle's point inside the frustum solid?
        p = (R * math.cos(ph), R * math.sin(ph), d_rim)
        v = [p[i] - head[i] for i in range(3)]
        la = sum(v[i] * a[i] for i in range(3))
        if l0 - length <= la <= l0:
            w = [v[i] - la * a[i] for i in range(3)]
            rho = math.sqrt(sum(x * x for x in w))
            if rho < r1 + (r0 - r1) * (la - (l0 - length)) / length:
                return True
        # the larger base's edge point beyond the wall?
        q = [head[i] + l0 * a[i] + r0 * (math.cos(ph) * e1[i] + math.sin(ph) * e2[i]) for i in range(3)]
        d, x = q[2], math.hypot(q[0], q[1])
        if d >= d_rim and x > R - (d - d_rim) * tan_a:
            return True
    return False


def brute_tilt(x0, cone, z_h, stroke, step=0.01 * DEG, hi=40 * DEG, lean=0.0):
    """the first tilt on a grid of `step` that touches: a scan 10 steps at a time, then step by step in the last"""
    t = 0.0
    while t <= hi and not brute_touch(t, x0, cone, z_h, stroke, lean=lean):
        t += 10 * step
    t = max(0.0, t - 10 * step)
    while t <= hi:
        if brute_touch(t, x0, cone, z_h, stroke, lean=lean):
            return t
        t += step
    return hi


# 1. the closed form against the brute force (the reference runs' poses: head centre 0.669 m deep, stroke 0 at
#    capture and 0.063 m at the absorption's deepest, docs/rp2-parameters.md §11.3)
cases = [(x0, cone, z_h, s) for cone in ("module", "short") for x0 in (0.52, 0.56, 0.60, 0.64)
         for z_h, s in ((0.669, 0.0), (0.668, 0.063))]
worst = 0.0
for x0, cone, z_h, s in cases:
    cf = C.touch_tilt(x0, cone, z_h, s)
    bf = brute_tilt(x0, cone, z_h, s, step=0.01 * DEG)
    worst = max(worst, abs(cf - bf) / DEG)
    check("touch tilt, %s cone, x0 %.2f m, stroke %.3f m: closed form %.3f deg, brute force %.3f deg" % (
        cone, x0, s, cf / DEG, bf / DEG), -0.001 * DEG <= bf - cf <= 0.011 * DEG)
check("closed form against brute force: largest difference %.4f deg (step 0.01 deg)" % worst, worst <= 0.011)
check("the closed form depends on the cone: module and short differ at x0 0.56 m",
      abs(C.touch_tilt(0.56, "module", 0.669, 0.0) - C.touch_tilt(0.56, "short", 0.669, 0.0)) > 1 * DEG)

# 2. upright: dock_params.c's stroke-rule depth, for the short cone (the larger base meets the wall at 0.2046 m)
depth = 0.17 + (0.30 - 0.28) / math.tan(30 * DEG)
for x0 in (0.52, 0.5846, 0.62):
    z_touch = depth + (1.25 - 0.0 - x0)        # head depth when the larger base is at that depth, stroke 0
    check("upright, x0 %.4f m: no touch 0.1 mm short of the stroke rule's depth" % x0,
          C.touch_tilt(x0, "short", z_touch - 1e-4, 0.0) > 0)
    check("upright, x0 %.4f m: touching 0.1 mm past it" % x0, C.touch_tilt(x0, "short", z_touch + 1e-4, 0.0) == 0)


# 3. the 3-D pose test with the head on the axis
def pose(t, x0, z_h, s, lean):
    l0 = C.HL - s - x0
    a_up = (math.cos(t), math.sin(t) * math.cos(lean), math.sin(t) * math.sin(lean))    # head -> active, cone frame x
    head = (-z_h, 0.0, 0.0)
    c0 = tuple(h + l0 * u for h, u in zip(head, a_up))
    return c0, tuple(-u for u in a_up)


for x0, cone in ((0.56, "module"), (0.60, "short")):
    t_cf = C.touch_tilt(x0, cone, 0.669, 0.0)
    c_in, a_in = pose(t_cf + 0.02 * DEG, x0, 0.669, 0.0, 0.0)
    c_out, a_out = pose(t_cf - 0.02 * DEG, x0, 0.669, 0.0, 0.0)
    check("touches_pose, %s cone, x0 %.2f m, leaning onto a pad: touching 0.02 deg past the closed form, not 0.02 "
          "deg before" % (cone, x0), C.touches_pose(c_in, a_in, cone) and not C.touches_pose(c_out, a_out, cone))
    c_gap, a_gap = pose(t_cf + 0.02 * DEG, x0, 0.669, 0.0, 45 * DEG)
    check("touches_pose, %s cone, x0 %.2f m: leaning between two pads it does not touch there yet" % (cone, x0),
          not C.touches_pose(c_gap, a_gap, cone) and C.touches_pose(c_gap, a_gap, cone, pads=False))

# 4. the replay: poses leaning further step by step
P = []
for k in range(200):
    t = 0.1 * k * DEG
    c0, a = pose(t, 0.56, 0.669, 0.0, 0.0)
    P.append((0.1 * k, c0, a))
t_rep = C.first_touch(P, 0.56, 0.56, "module")
t_cf = C.touch_tilt(0.56, "module", 0.669, 0.0) / DEG
check("first_touch: the first replayed pose past the closed form's tilt (%.1f against %.3f deg)" % (t_rep, t_cf),
      t_rep is not None and 0 <= t_rep - t_cf < 0.1 + 1e-9)
t_fw = C.first_touch(P, 0.60, 0.56, "module")
check("first_touch: a limiter 4 cm further forward touches no later (%s s against %s s)" % (t_fw, t_rep),
      t_fw is not None and t_fw <= t_rep)
sys.exit(FAIL)

#!/usr/bin/env python3
"""Designs the alignment cam of the probe-cone mechanism (docs/dock-process.md §3): the cam contour (cam angle,
follower radius) that keeps the lever rollers `offset` off the ideal receiving cone during the final retraction,
with the vehicles aligned and the head on the stops, as spec 001 §1.4 describes ("a few millimetres off the ideal
cone"); before that the levers stay retracted (the follower on the small circle), with a linear ramp between.

RP-1 gives no contour, so this is the contour the shipped whole-process scenarios use (fixtures/mech/dock/
s*-400-*.json, "cam"). Prints the JSON "cam" section for variant A or B. Pure Python (no NumPy): bisection.

    scripts/design-cam.py A      scripts/design-cam.py B
    scripts/design-cam.py B --ramp-start 0.12 --ramp-length 0.06 --length 0.24 --beta0 0

Options (RP-2's early cam, docs/rp2-parameters.md §8; the defaults give RP-1's cam byte for byte):
  --ramp-start S   stroke at which the follower leaves the small circle (m, default 0.34)
  --ramp-length M  stroke over which it rises to the cone (m, default 0.03): the rollers follow the cone from
                   S + M to the end of the travel, where the cone is within their reach; where it is not yet, the
                   lever stands at the angle of closest approach (the roller nearest the cone, clear of it)
  --length L       lever length pivot -> roller centre (m, default 0.16)
  --offset M       the rollers' design distance off the ideal cone (m, default 0.003: RP-1's "a few mm")
  --beta0 DEG      retracted lever angle from the housing axis (deg, default 10): a lever longer than the pivot's
                   distance from the docked cone needs a smaller one (the docked roller angle must not be below it)
A summary goes to stderr: the stroke from which the cone is within reach, the docked lever angle, the roller's
depth inside the rim along the ramp (> 0: inside the cone) and the largest roller travel per metre of stroke (the
cam's transmission ratio: the roller load times it is the load on the nut).
"""
import json
import math
import sys


def option(name, default):
    if name in sys.argv:
        return float(sys.argv[sys.argv.index(name) + 1])
    return default


variant = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else "A"
dx = 0.15 if variant == "B" else 0.0          # DOCK_B_UJ_DROP: B's UJ sits lower, its housing longer
rim_r, rim_x, alpha = 0.40, 0.0, math.radians(30)
socket_r = 0.05
cone_depth = (rim_r - socket_r) / math.tan(alpha)
stop_x = rim_x - cone_depth - 0.05             # head centre on the stops, cone frame (RP-1: -0.656)
head_x0 = 0.55 + dx + 0.55                     # UJ -> head centre at stroke 0
lead = 0.012
i_nut = 2 * math.pi / lead
i_cam = 50.0
offset, r_roller = option("--offset", 0.003), 0.02
# lever: pivot on the housing (x from the UJ, radius), length, follower arm; beta from the housing axis
x_p, rho_p, length, arm = 0.20 + dx, 0.12, option("--length", 0.16), 0.05
beta0 = math.radians(option("--beta0", 10.0))  # retracted
s_ramp = option("--ramp-start", 0.34)          # ramp out between s_ramp and s_on; follow the cone to s_end
s_on, s_end = s_ramp + option("--ramp-length", 0.03), 0.40
if "--ramp-start" not in sys.argv and "--ramp-length" not in sys.argv:
    s_on = 0.37                                # RP-1's value as written (0.34 + 0.03 rounds differently)


def clearance(s, beta):
    """(R - rho) cos(alpha) - r_roller: > 0 off the cone (the path check of mech_dock_cam_build)"""
    x_plane = head_x0 - s + stop_x
    x = x_p + length * math.cos(beta)
    rho = rho_p + length * math.sin(beta)
    R = rim_r + (x_plane - x - rim_x) * math.tan(alpha)
    return (R - rho) * math.cos(alpha) - r_roller


def closest(s):
    """the lever angle in [beta0, 80 deg] at which the roller comes nearest the cone (golden section: the clearance
    is unimodal in beta there, its minimum where the lever stands normal to the generatrix)"""
    lo, hi = beta0, math.radians(80.0)
    g = (math.sqrt(5) - 1) / 2
    for _ in range(100):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if clearance(s, a) < clearance(s, b):
            hi = b
        else:
            lo = a
    return 0.5 * (lo + hi)


def beta_at(s):
    """the first lever angle from beta0 outwards that brings the roller to `offset` off the cone (the clearance is
    not monotone in beta: swinging out also moves the roller back to where the cone is wider); where the cone is out
    of reach, the angle of closest approach"""
    step = math.radians(0.25)
    b = beta0
    while b < math.radians(80.0) and clearance(s, b + step) > offset:
        b += step
    if b >= math.radians(80.0):
        return closest(s)
    lo, hi = b, b + step
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if clearance(s, mid) > offset:
            lo = mid
        else:
            hi = mid
    return lo


def radius(beta):
    return r0 + arm * math.sin(beta - beta0)


r0 = 0.04
th, ra = [0.0], [r0]
b_on = beta_at(s_on)
th.append(i_nut * s_ramp / i_cam)
ra.append(r0)
n = min(60, max(24, round((s_end - s_on) / 0.00125)))   # 1.25 mm of stroke per sample (MECH_DOCK_CAM_MAX 64)
for k in range(n + 1):
    s = s_on + (s_end - s_on) * k / n
    th.append(i_nut * s / i_cam)
    ra.append(radius(beta_at(s)))
worst = min(clearance(s / 1000, beta0 + math.asin(max(-1, min(1, (
    (ra[0] if s / 1000 <= s_ramp else ra[2] if s / 1000 <= s_on else ra[2]) - r0) / arm))))
    for s in range(0, 400))
cam = {"theta_deg": [round(math.degrees(t), 9) for t in th], "radius": [round(r, 9) for r in ra],
       "i_cam": i_cam, "n_lever": 3, "psi0_deg": 60, "arm": arm, "beta0_deg": math.degrees(beta0), "x_pivot": x_p,
       "rho_pivot": rho_p, "length": length, "roller_radius": r_roller, "roller_offset": offset}
print(json.dumps(cam, indent=2))
betas = [beta_at(s_on + (s_end - s_on) * k / n) for k in range(n + 1)]
if min(betas) < beta0 - 1e-12:
    sys.exit(f"design-cam: the docked lever angle {math.degrees(min(betas)):.2f} deg is below beta0 "
             f"{math.degrees(beta0):.2f} deg: give a smaller --beta0")
reach = next((s_on + (s_end - s_on) * k / n for k in range(n + 1)
              if clearance(s_on + (s_end - s_on) * k / n, betas[k]) <= offset + 1e-9), None)


def roller_at(s):
    """(beta, roller depth inside the rim plane) of the designed cam at stroke s (the samples, linear between)"""
    t = i_nut * s / i_cam
    k = max(i for i in range(len(th)) if th[i] <= t or i == 0)
    k = min(k, len(th) - 2)
    r = ra[k] + (ra[k + 1] - ra[k]) * (t - th[k]) / (th[k + 1] - th[k])
    b = beta0 + math.asin((r - r0) / arm)
    return b, (x_p + length * math.cos(b)) - (head_x0 - s + stop_x - rim_x)


def travel_ratio(s, h=1e-4):
    b1, b2 = roller_at(max(0.0, s - h))[0], roller_at(min(s_end, s + h))[0]
    return length * abs(b2 - b1) / (min(s_end, s + h) - max(0.0, s - h))


if "--ramp-start" in sys.argv or "--length" in sys.argv:
    grid = [s_ramp + (s_end - s_ramp) * k / 400 for k in range(401)]
    depth = min(roller_at(s)[1] for s in grid if roller_at(s)[0] > beta0 + 1e-9) if s_ramp < s_end else 0
    print(f"variant {variant}: lever {length} m, beta0 {math.degrees(beta0):g} deg; the cone within reach from s = "
          f"{reach if reach is None else round(reach, 4)} m; docked beta {math.degrees(betas[-1]):.2f} deg; roller "
          f"depth inside the rim while out >= {depth:.4f} m; roller travel per stroke <= "
          f"{max(travel_ratio(s) for s in grid):.2f}", file=sys.stderr)
print(f"variant {variant}: levers out from s = {s_on} m (beta {math.degrees(b_on):.2f} deg) to {s_end} m "
      f"(beta {math.degrees(beta_at(s_end)):.2f} deg); ramp from s = {s_ramp} m", file=sys.stderr)

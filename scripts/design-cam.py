#!/usr/bin/env python3
"""Designs the alignment cam of the probe-cone mechanism (docs/dock-process.md §3): the cam contour (cam angle,
follower radius) that keeps the lever rollers `offset` off the ideal receiving cone during the final retraction,
with the vehicles aligned and the head on the stops, as spec 001 §1.4 describes ("a few millimetres off the ideal
cone"); before that the levers stay retracted (the follower on the small circle), with a linear ramp between.

RP-1 gives no contour, so this is the contour the shipped whole-process scenarios use (fixtures/mech/dock/
s*-400-*.json, "cam"). Prints the JSON "cam" section for variant A or B. Pure Python (no NumPy): bisection.

    scripts/design-cam.py A      scripts/design-cam.py B
"""
import json
import math
import sys

variant = sys.argv[1] if len(sys.argv) > 1 else "A"
dx = 0.15 if variant == "B" else 0.0          # DOCK_B_UJ_DROP: B's UJ sits lower, its housing longer
rim_r, rim_x, alpha = 0.40, 0.0, math.radians(30)
socket_r = 0.05
cone_depth = (rim_r - socket_r) / math.tan(alpha)
stop_x = rim_x - cone_depth - 0.05             # head centre on the stops, cone frame (RP-1: -0.656)
head_x0 = 0.55 + dx + 0.55                     # UJ -> head centre at stroke 0
lead = 0.012
i_nut = 2 * math.pi / lead
i_cam = 50.0
offset, r_roller = 0.003, 0.02
# lever: pivot on the housing (x from the UJ, radius), length, follower arm; beta from the housing axis
x_p, rho_p, length, arm = 0.20 + dx, 0.12, 0.16, 0.05
beta0 = math.radians(10.0)                     # retracted
s_ramp, s_on, s_end = 0.34, 0.37, 0.40         # ramp out between s_ramp and s_on; follow the cone to s_end


def clearance(s, beta):
    """(R - rho) cos(alpha) - r_roller: > 0 off the cone (the path check of mech_dock_cam_build)"""
    x_plane = head_x0 - s + stop_x
    x = x_p + length * math.cos(beta)
    rho = rho_p + length * math.sin(beta)
    R = rim_r + (x_plane - x - rim_x) * math.tan(alpha)
    return (R - rho) * math.cos(alpha) - r_roller


def beta_at(s):
    """the first lever angle from beta0 outwards that brings the roller to `offset` off the cone (the clearance is
    not monotone in beta: swinging out also moves the roller back to where the cone is wider); the largest angle
    scanned when the cone is out of reach"""
    step = math.radians(0.25)
    b = beta0
    while b < math.radians(80.0) and clearance(s, b + step) > offset:
        b += step
    if b >= math.radians(80.0):
        return b
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
n = 24
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
print(f"variant {variant}: levers out from s = {s_on} m (beta {math.degrees(b_on):.2f} deg) to {s_end} m "
      f"(beta {math.degrees(beta_at(s_end)):.2f} deg); ramp from s = {s_ramp} m", file=sys.stderr)
